//! gSpan on the real molecule datasets: MUTAG min_support 19 (40,220 patterns) serial and on
//! 2 threads, CPDB min_support 14 (6,820 patterns) serial.
//!
//! `cargo bench -p graphsparse-benches --bench gspan`; the data come from `../shared/data`
//! (relative to the repository root) and a dataset that is absent is skipped.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use graphsparse::base::{Check, Parallel, RunControl};
use graphsparse::graph::{GraphDatabase, read_gspan, read_tu};
use graphsparse::gspan::{MinerParams, mine_frequent};

fn data(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(rel);
    p.exists().then_some(p)
}

fn bench_dataset(c: &mut Criterion, name: &str, db: &GraphDatabase, min_support: usize) {
    let params = MinerParams::new().min_support(min_support).check().unwrap();
    let ctl = RunControl::new();
    let n_patterns = mine_frequent(db, &params, &ctl).unwrap().patterns.len();
    let mut group = c.benchmark_group(format!("gspan/{name}/minsup{min_support}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(n_patterns as u64));
    group.bench_function("serial", |b| {
        b.iter(|| mine_frequent(db, &params, &ctl).unwrap())
    });
    let parallel = params
        .clone()
        .into_params()
        .parallel(Parallel::Auto)
        .check()
        .unwrap();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("parallel/{threads}"), |b| {
            b.iter(|| pool.install(|| mine_frequent(db, &parallel, &ctl).unwrap()))
        });
    }
    group.finish();
}

fn gspan(c: &mut Criterion) {
    if let Some(p) = data("tu/MUTAG") {
        let db = read_tu(p, None).unwrap().db;
        bench_dataset(c, "MUTAG", &db, 19);
    }
    if let Some(p) = data("molecules/CPDB/mutagen.gsp") {
        let db = read_gspan(p).unwrap().db;
        bench_dataset(c, "CPDB", &db, 14);
    }
}

criterion_group!(benches, gspan);
criterion_main!(benches);
