//! Convex graph-structured recovery: the perspective prox per element, one solve at the
//! paper's scale (N = 500, J = 350), and the cost of one iteration on sparse problems of
//! growing size (grid graphs, a sparse L with 4 entries per row).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use graphsparse::base::RunControl;
use graphsparse::recovery::{
    Check, CsrOperator, DenseMatrix, Loss, Model, Parallel, RecoveryParams, Solver, WeightedGraph,
    lambda_max, prox_perspective_into,
};

/// The recovery tests' generators (SplitMix64 uniforms, Box–Muller normals, the paper's
/// instance shape).
#[path = "../../crates/graphsparse-recovery/tests/common/mod.rs"]
mod common;
use common::{Rng, cycle_matching_graph, dense_product, random_csr, signal_and_design};

fn bench_prox(c: &mut Criterion) {
    let mut g = c.benchmark_group("recovery_prox");
    let mut rng = Rng(1);
    for n in [1_000usize, 100_000, 1_000_000] {
        let x: Vec<f64> = (0..n).map(|_| 3.0 * rng.normal()).collect();
        let s: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("prox_perspective", n), &n, |bch, _| {
            bch.iter(|| prox_perspective_into(black_box(&x), &s, 0.7, &mut a, &mut b).unwrap())
        });
    }
    g.finish();
}

fn bench_paper_scale(c: &mut Criterion) {
    let (n, j) = (500, 350);
    let mut rng = Rng(7);
    let edges = cycle_matching_graph(n, &mut rng);
    let graph = WeightedGraph::new(n, &edges, None).unwrap();
    let (x, a) = signal_and_design(n, j, 150, &mut rng);
    let l = DenseMatrix::new(&a, j, n).unwrap();
    let y: Vec<f64> = dense_product(&a, &x)
        .iter()
        .map(|v| v + 0.01 * rng.normal())
        .collect();
    let alpha = 150.0;
    let top = lambda_max(
        &l,
        &y,
        Loss::Squared,
        Model::Graph {
            graph: &graph,
            alpha,
        },
    )
    .unwrap();
    let mut g = c.benchmark_group("recovery_solve_n500_j350");
    g.sample_size(10);
    for (name, solver) in [
        ("pdhg_adaptive", Solver::Pdhg { adaptive: true }),
        ("kuroda_kitahara", Solver::KurodaKitahara { gamma: None }),
    ] {
        let p = RecoveryParams::new(0.02 * top, alpha)
            .solver(solver)
            .tol(1e-6)
            .parallel(Parallel::Serial)
            .check()
            .unwrap();
        g.bench_function(name, |b| {
            b.iter(|| {
                p.solve(&l, black_box(&y), &graph, None, &RunControl::new())
                    .unwrap()
            })
        });
    }
    g.finish();
}

fn bench_iteration_cost(c: &mut Criterion) {
    let mut g = c.benchmark_group("recovery_20_iterations_sparse_grid");
    g.sample_size(10);
    for side in [32usize, 100, 316] {
        let n = side * side;
        let mut edges = Vec::with_capacity(2 * n);
        for r in 0..side {
            for k in 0..side {
                let v = r * side + k;
                if k + 1 < side {
                    edges.push([v, v + 1]);
                }
                if r + 1 < side {
                    edges.push([v, v + side]);
                }
            }
        }
        let graph = WeightedGraph::new(n, &edges, None).unwrap();
        let j = n / 2;
        let mut rng = Rng(3);
        let (ptr, idx, val) = random_csr(j, n, 4, 1.0, &mut rng);
        let l = CsrOperator::new(&ptr, &idx, &val, j, n).unwrap();
        let y: Vec<f64> = (0..j).map(|_| rng.normal()).collect();
        let p = RecoveryParams::new(0.1, n as f64 / 10.0)
            .tol(1e-300)
            .max_iter(20)
            .op_norm(Some(10.0))
            .diff_norm(Some(8f64.sqrt()))
            .history(false)
            .check()
            .unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("pdhg", n), &n, |b, _| {
            b.iter(|| {
                p.solve(&l, black_box(&y), &graph, None, &RunControl::new())
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_prox, bench_paper_scale, bench_iteration_cost);
criterion_main!(benches);
