//! Timings behind the README's recovery table (run with
//! `cargo run -p graphsparse-recovery --example scaling --profile dev-release [-- --big]`):
//!
//! 1. one solve on the paper's instance shape (N = 500, J = 350, dense Gaussian `L`, a
//!    connected cubic-like graph, 150 non-zeros, 40 dB) at λ = 0.02·λ_max, α = 150, with the
//!    gap tolerance 1e-4 and 1e-6, PDHG and Algorithm 1;
//! 2. the time per iteration of PDHG on grid graphs with a sparse `L` (J = N/2, 4 entries per
//!    row), N = 10³ … 10⁶ (10⁷ with `--big`), which should grow linearly;
//! 3. with `--big`, a full solve at N = 10⁶ to a relative gap of 1e-4.

use graphsparse_pcst::grid_edges;
use std::time::Instant;

use graphsparse_base::RunControl;
use graphsparse_recovery::{
    Check, CsrOperator, DenseMatrix, Loss, Model, Parallel, RecoveryParams, Solver, WeightedGraph,
    lambda_max,
};

/// The integration tests' generators (SplitMix64 uniforms, Box–Muller normals).
#[path = "../tests/common/mod.rs"]
mod common;
use common::{Rng, cycle_matching_graph, dense_product, random_csr, signal_and_design};

fn paper_instance() {
    let (n, j) = (500, 350);
    let mut rng = Rng(7);
    let edges = cycle_matching_graph(n, &mut rng);
    let graph = WeightedGraph::new(n, &edges, None).expect("valid graph");
    let (x, a) = signal_and_design(n, j, 150, &mut rng);
    let l = DenseMatrix::new(&a, j, n).expect("valid matrix");
    let clean = dense_product(&a, &x);
    let noise = (x.iter().map(|v| v * v).sum::<f64>() / 1e4).sqrt();
    let y: Vec<f64> = clean.iter().map(|v| v + noise * rng.normal()).collect();
    let top = lambda_max(
        &l,
        &y,
        Loss::Squared,
        Model::Graph {
            graph: &graph,
            alpha: 150.0,
        },
    )
    .expect("valid data");
    println!("paper-shaped instance N = 500, J = 350, alpha = 150, serial:");
    for rho in [0.1, 0.02, 0.002] {
        for tol in [1e-4, 1e-6] {
            for (name, solver) in [
                ("pdhg", Solver::Pdhg { adaptive: true }),
                ("kk", Solver::KurodaKitahara { gamma: None }),
            ] {
                let p = RecoveryParams::new(rho * top, 150.0)
                    .solver(solver)
                    .tol(tol)
                    .parallel(Parallel::Serial)
                    .check()
                    .expect("valid params");
                let mut best = f64::INFINITY;
                let mut fit = None;
                for _ in 0..3 {
                    let t = Instant::now();
                    let r = p
                        .solve(&l, &y, &graph, None, &RunControl::new())
                        .expect("solve");
                    best = best.min(t.elapsed().as_secs_f64());
                    fit = Some(r);
                }
                let r = fit.expect("ran");
                println!(
                    "  rho {rho:<6} tol {tol:.0e} {name:<4}: {:>6} iterations, gap {:.1e}, {:>8.2} ms",
                    r.n_iter,
                    r.gap,
                    best * 1e3
                );
            }
        }
    }
}

fn per_iteration(sides: &[usize]) {
    println!("PDHG, 20 iterations on a side x side grid, sparse L (J = N/2, 4 per row):");
    for &side in sides {
        let n = side * side;
        let j = n / 2;
        let mut rng = Rng(3);
        let (ptr, idx, val) = random_csr(j, n, 4, 2.0, &mut rng);
        let l = CsrOperator::new(&ptr, &idx, &val, j, n).expect("valid matrix");
        let graph = WeightedGraph::new(n, &grid_edges(side, side), None).expect("valid graph");
        let y: Vec<f64> = (0..j).map(|_| rng.normal()).collect();
        for (label, par) in [("serial", Parallel::Serial), ("auto", Parallel::Auto)] {
            let p = RecoveryParams::new(0.1, n as f64 / 10.0)
                .tol(1e-300)
                .max_iter(20)
                .op_norm(Some(3.0))
                .diff_norm(Some(8f64.sqrt()))
                .history(false)
                .parallel(par)
                .check()
                .expect("valid params");
            let t = Instant::now();
            let r = p
                .solve(&l, &y, &graph, None, &RunControl::new())
                .expect("solve");
            let dt = t.elapsed().as_secs_f64() / r.n_iter as f64;
            println!(
                "  N = {n:>9} ({label:<6}): {:>9.3} ms per iteration, {:>6.1} ns per vertex",
                dt * 1e3,
                dt / n as f64 * 1e9
            );
        }
    }
}

fn big_solve() {
    let side = 1000;
    let n = side * side;
    let j = n / 2;
    let mut rng = Rng(11);
    let (ptr, idx, val) = random_csr(j, n, 4, 2.0, &mut rng);
    let l = CsrOperator::new(&ptr, &idx, &val, j, n).expect("valid matrix");
    let graph = WeightedGraph::new(n, &grid_edges(side, side), None).expect("valid graph");
    // a signal on a 100 x 100 block of the grid
    let mut x = vec![0.0; n];
    for r in 0..100 {
        for k in 0..100 {
            x[(450 + r) * side + 450 + k] = rng.normal();
        }
    }
    let mut y = vec![0.0; j];
    for (r, yr) in y.iter_mut().enumerate() {
        *yr = (ptr[r]..ptr[r + 1])
            .map(|p| val[p] * x[idx[p]])
            .sum::<f64>()
            + 0.01 * rng.normal();
    }
    let top = lambda_max(&l, &y, Loss::Squared, Model::Lasso).expect("valid data");
    let t = Instant::now();
    let r = RecoveryParams::new(0.05 * top, 2000.0)
        .tol(1e-4)
        .history(false)
        .check()
        .expect("valid params")
        .solve(&l, &y, &graph, None, &RunControl::new())
        .expect("solve");
    println!(
        "N = 10^6 grid, J = 5e5 (sparse L), alpha = 2000, lambda = 0.05 lambda_max, tol 1e-4: \
         {} iterations, converged {}, gap {:.1e}, {:.1} s",
        r.n_iter,
        r.converged,
        r.gap,
        t.elapsed().as_secs_f64()
    );
}

fn main() {
    let big = std::env::args().any(|a| a == "--big");
    println!("rayon threads: {}", rayon::current_num_threads());
    paper_instance();
    let mut sides = vec![32, 100, 316, 1000];
    if big {
        sides.push(3162);
    }
    per_iteration(&sides);
    if big {
        big_solve();
    }
}
