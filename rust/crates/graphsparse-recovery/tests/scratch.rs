//! Throw-away timing at the experiment scale (ignored).
mod common;
use graphsparse_budget::RunControl;
use graphsparse_recovery::*;

#[test]
#[ignore]
fn experiment_scale_timing() {
    let inst = common::instance(500, 350, 150, 0.01, 1);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let top = lambda_max(
        &l,
        &inst.y,
        Loss::Squared,
        Model::Graph {
            graph: &g,
            alpha: 150.0,
        },
    )
    .unwrap();
    for rho in [0.1, 0.02, 0.002, 2e-4] {
        for solver in [
            Solver::Pdhg { adaptive: true },
            Solver::Pdhg { adaptive: false },
            Solver::KurodaKitahara { gamma: None },
        ] {
            let t = std::time::Instant::now();
            let fit = RecoveryParams::new(rho * top, 150.0)
                .solver(solver)
                .parallel(Parallel::Serial)
                .tol(1e-6)
                .check()
                .unwrap()
                .solve(&l, &inst.y, &g, None, &RunControl::new())
                .unwrap();
            println!(
                "rho {rho} {solver:?}: it {} conv {} gap {:.2e} obj {:.8e} time {:?}",
                fit.n_iter,
                fit.converged,
                fit.gap,
                fit.objective,
                t.elapsed()
            );
        }
    }
}
