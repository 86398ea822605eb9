//! Sparse learning on the real CPDB molecules (684 graphs): an L1 logistic BCGD fit with and
//! without the tree cache, and 50 rounds of best-stump searches on one cached tree (Adaboost).
//!
//! `cargo bench -p graphsparse-benches --bench subgraph`; the data come from `../shared/data`
//! (relative to the repository root) and are skipped when absent.

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use graphsparse::base::{Check, RunControl};
use graphsparse::graph::read_gspan;
use graphsparse::subgraph::{BcgdParams, Logistic, StumpParams, adaboost, fit_bcgd};

fn cpdb() -> Option<(graphsparse::graph::GraphDatabase, Vec<f64>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/molecules/CPDB");
    let db = read_gspan(dir.join("mutagen.gsp")).ok()?.db;
    let labels = std::fs::read_to_string(dir.join("mutagen.label")).ok()?;
    // one class label per line; the larger label is the positive class
    let raw: Vec<i64> = labels
        .split_whitespace()
        .map(|t| t.parse().expect("integer class labels"))
        .collect();
    let top = *raw.iter().max()?;
    let y: Vec<f64> = raw.iter().map(|&v| f64::from(u8::from(v == top))).collect();
    (y.len() == db.len()).then_some((db, y))
}

fn subgraph(c: &mut Criterion) {
    let Some((db, y)) = cpdb() else {
        eprintln!("CPDB not found under ../shared/data: subgraph benches skipped");
        return;
    };
    let ctl = RunControl::new();
    let stumps = StumpParams::new().check().unwrap();
    let mut group = c.benchmark_group("subgraph/CPDB");
    group.sample_size(10);
    for cache in [true, false] {
        let params = BcgdParams::new(0.01).cache(cache).check().unwrap();
        group.bench_function(format!("bcgd_lambda0.01/cache={cache}"), |b| {
            b.iter(|| fit_bcgd(&db, &y, &Logistic, &params, None, &ctl).unwrap())
        });
    }
    let signs: Vec<f64> = y.iter().map(|&v| 2.0 * v - 1.0).collect();
    group.bench_function("adaboost_50_rounds", |b| {
        b.iter(|| adaboost(&db, &signs, 50, &stumps, &ctl).unwrap())
    });
    group.finish();
}

criterion_group!(benches, subgraph);
criterion_main!(benches);
