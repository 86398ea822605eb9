//! Graph compression by optimal transport: the hot paths on real and synthetic graphs.
//!
//! * `otc/mutagenicity`: OTC (paper mode, k = n/2) on all 4337 Mutagenicity graphs, serial and
//!   on a 2-thread pool;
//! * `otc/random4000`: OTC on one random sparse graph with 4000 vertices;
//! * `lipschitz/random4000`: one cold projection onto the Lipschitz set;
//! * `transport/random4000`: the exact transport distance;
//! * `wl/mutagenicity`: WL subtree features, h = 5.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use graphsparse::base::RunControl;
use graphsparse::graph::{GraphDatabase, read_tu};
use graphsparse::ot::{
    Check, CostRule, LipschitzValidOptions, Method, OtGraph, OtcParams, TargetSize,
    TransportValidParams, WlParams, compress_collection, degree_prior, project_lipschitz,
    solve_otc, solve_transport, wl_subtree_features,
};

fn mutagenicity() -> Option<GraphDatabase> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/tu/Mutagenicity");
    p.exists()
        .then(|| read_tu(&p, Some("Mutagenicity")).unwrap().db)
}

/// A connected random graph: a random spanning tree plus extra random edges (fixed seed).
fn random_graph(n: usize, extra: usize) -> OtGraph {
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |m: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % m as u64) as u32
    };
    let mut edges: Vec<[u32; 2]> = (1..n as u32).map(|v| [next(v as usize), v]).collect();
    for _ in 0..extra {
        edges.push([next(n), next(n)]);
    }
    let costs: Vec<f64> = (0..edges.len())
        .map(|i| if i % 3 == 0 { 0.02 } else { 0.01 })
        .collect();
    OtGraph::undirected(n, &edges, &costs).unwrap()
}

fn bench_ot(c: &mut Criterion) {
    let mut group = c.benchmark_group("ot");
    group.sample_size(10);
    let ctl = RunControl::new();
    if let Some(db) = mutagenicity() {
        let m = Method::Otc {
            params: OtcParams::new().check().unwrap(),
            costs: CostRule::default(),
        };
        group.bench_function("otc/mutagenicity/serial", |b| {
            b.iter(|| {
                compress_collection(black_box(&db), &m, TargetSize::Ratio(0.5), false, &ctl)
                    .unwrap()
            })
        });
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        group.bench_function("otc/mutagenicity/2threads", |b| {
            b.iter(|| {
                pool.install(|| {
                    compress_collection(black_box(&db), &m, TargetSize::Ratio(0.5), true, &ctl)
                        .unwrap()
                })
            })
        });
        let wl = WlParams::new().n_iter(5).check().unwrap();
        group.bench_function("wl/mutagenicity/serial", |b| {
            b.iter(|| wl_subtree_features(black_box(&db), &wl, &ctl).unwrap())
        });
    }
    let g = random_graph(4000, 4000);
    let rho0 = degree_prior(&g);
    let p = OtcParams::new().check().unwrap();
    group.bench_function("otc/random4000", |b| {
        b.iter(|| solve_otc(black_box(&g), &rho0, 2000, &p, &ctl).unwrap())
    });
    let y: Vec<f64> = (0..4000)
        .map(|i| ((i * 7919) % 4001) as f64 / 4001.0 - 0.5)
        .collect();
    group.bench_function("lipschitz/random4000", |b| {
        b.iter(|| project_lipschitz(black_box(&g), &y, &LipschitzValidOptions::default()).unwrap())
    });
    let uniform = vec![1.0 / 4000.0; 4000];
    group.bench_function("transport/random4000", |b| {
        b.iter(|| {
            solve_transport(
                black_box(&g),
                &rho0,
                &uniform,
                &TransportValidParams::default(),
                &ctl,
            )
            .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_ot);
criterion_main!(benches);
