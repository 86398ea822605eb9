//! Criterion benchmarks of the GW prize-collecting Steiner forest on 4-neighbour grids.
//!
//! Unit costs, squared-Gaussian prizes from a fixed seed, unrooted, one tree, `gw` pruning.
//! Sizes 1e3, 1e4 and 1e5 nodes; set `GRAPHSPARSE_BENCH_LARGE=1` to add 1e6.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use graphsparse::graph::{EdgeRules, WeightedGraph};
use graphsparse::pcst::grid_edges;
use graphsparse::pcst::{
    Check, PcstParams, PcstSolution, PcstSolver, PcstValidParams, Pruning, solve_pcst,
};
use std::hint::black_box;

/// Squared standard normals (Box–Muller on xorshift64*), fixed seed.
fn squared_gaussians(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.max(1);
    let mut uniform = move || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (a, b) = (uniform().max(f64::MIN_POSITIVE), uniform());
            let z = (-2.0 * a.ln()).sqrt() * (std::f64::consts::TAU * b).cos();
            z * z
        })
        .collect()
}

fn bench_grids(c: &mut Criterion) {
    let mut sides = vec![32, 100, 316];
    if std::env::var_os("GRAPHSPARSE_BENCH_LARGE").is_some() {
        sides.push(1000);
    }
    let mut group = c.benchmark_group("pcst_grid_gw");
    group.sample_size(10);
    for side in sides {
        let n = side * side;
        let edges = grid_edges(side, side);
        let prizes = squared_gaussians(n, 42);
        let costs = vec![1.0; edges.len()];
        let params = PcstValidParams::default();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("solve_pcst", n), &n, |b, _| {
            b.iter(|| solve_pcst(black_box(&edges), black_box(&prizes), &costs, &params).unwrap())
        });
        let mut solver = PcstSolver::new();
        let mut out = PcstSolution::default();
        let graph = WeightedGraph::from_edges(n, &edges, Some(&costs), EdgeRules::MULTIGRAPH)
            .expect("a valid grid");
        group.bench_with_input(BenchmarkId::new("reused_solver", n), &n, |b, _| {
            b.iter(|| solver.solve_into(black_box(&graph), black_box(&prizes), &params, &mut out))
        });
    }
    group.finish();

    let side = 100;
    let edges = grid_edges(side, side);
    let prizes = squared_gaussians(side * side, 7);
    let costs = vec![1.0; edges.len()];
    let mut group = c.benchmark_group("pcst_grid_1e4_pruning");
    for pruning in [Pruning::None, Pruning::Simple, Pruning::Gw, Pruning::Strong] {
        let params = PcstParams::new()
            .pruning(pruning)
            .num_clusters(5)
            .check()
            .unwrap();
        group.bench_function(pruning.as_str(), |b| {
            b.iter(|| solve_pcst(black_box(&edges), black_box(&prizes), &costs, &params).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_grids);
criterion_main!(benches);
