//! The Anderson-accelerated solver of the graph model against adaptive PDHG and an independent
//! objective (the penalty by its own inner solve): agreement within the certified gaps, the
//! certificate, `Solver::Auto`, warm starts, budgets, determinism; and a property test on
//! random small instances.

mod common;

use common::{Rng, cubic_like_graph, instance, rel};
use graphsparse_base::{Budget, RunControl};
use graphsparse_recovery::{
    ANDERSON_MEMORY, Check, DataFit, DenseMatrix, LinearOperator, Loss, Model, Parallel,
    PenaltyForm, Recovery, RecoveryParams, Solver, WeightedGraph, lambda_max, penalty,
};
use proptest::prelude::*;

const ANDERSON: Solver = Solver::Anderson {
    memory: ANDERSON_MEMORY,
};
const PDHG: Solver = Solver::Pdhg { adaptive: true };

fn run(p: RecoveryParams, l: &DenseMatrix<'_>, y: &[f64], g: &WeightedGraph) -> Recovery {
    p.check()
        .unwrap()
        .solve(l, y, g, None, &RunControl::new())
        .unwrap()
}

/// `f(L x) + λ Ψ_α(x)` with `Ψ_α` from [`penalty`]'s own solve (an upper bound within 1e-11
/// relative of the exact value).
fn objective(
    loss: Loss,
    l: &DenseMatrix<'_>,
    y: &[f64],
    g: &WeightedGraph,
    x: &[f64],
    lam: f64,
    alpha: f64,
) -> f64 {
    let n = x.len();
    let lx: Vec<f64> = (0..y.len())
        .map(|r| (0..n).map(|c| l.data()[r * n + c] * x[c]).sum())
        .collect();
    loss.value(&lx, y).unwrap() + lam * penalty(g, x, alpha, 1e-10, 1_000_000).unwrap().value
}

/// The absolute certificate `P − D` of a solve.
fn abs_gap(r: &Recovery) -> f64 {
    r.objective - r.dual_objective
}

/// The two solves certify the same optimum: each primal value is at least the other's dual
/// value (weak duality, up to rounding), and they differ by at most the larger certificate.
fn assert_agree(a: &Recovery, b: &Recovery, what: &str) {
    let slack = 1e-12 * a.objective.abs().max(b.objective.abs()).max(1.0);
    assert!(
        a.objective >= b.dual_objective - slack,
        "{what}: {a:?} vs {b:?}"
    );
    assert!(b.objective >= a.dual_objective - slack, "{what}");
    let gap = abs_gap(a).max(abs_gap(b));
    assert!(
        (a.objective - b.objective).abs() <= gap + slack,
        "{what}: {} vs {} (gaps {} and {})",
        a.objective,
        b.objective,
        abs_gap(a),
        abs_gap(b)
    );
}

#[test]
fn anderson_and_pdhg_agree_within_the_certificate_for_every_loss_and_form() {
    let inst = instance(30, 20, 8, 0.05, 3);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let labels = inst.labels();
    for loss in [Loss::Squared, Loss::Absolute, Loss::Logistic, Loss::Hinge] {
        let y = if loss.is_classification() {
            &labels
        } else {
            &inst.y
        };
        for (form, alpha) in [(PenaltyForm::Budget, 1.0), (PenaltyForm::Lagrangian, 0.3)] {
            let lam = 0.1 * lambda_max(&l, y, loss, Model::Graph { graph: &g, alpha }).unwrap();
            let p = RecoveryParams::new(lam, alpha)
                .loss(loss)
                .penalty_form(form)
                .tol(1e-8)
                .max_iter(200_000);
            let a = run(p.clone().solver(ANDERSON), &l, y, &g);
            let b = run(p.solver(PDHG), &l, y, &g);
            let what = format!("{loss:?} {form:?}");
            assert!(a.converged && a.gap <= 1e-8, "{what}: {a:?}");
            assert_eq!(a.solver, ANDERSON);
            assert!(b.converged);
            assert_agree(&a, &b, &what);
            for h in &a.history {
                assert!(
                    h.primal - h.dual >= -1e-12 * h.primal.abs(),
                    "{what}: {h:?}"
                );
            }
            if form == PenaltyForm::Budget {
                // an independent evaluation of the objective at the returned x lies within the
                // certificate above the dual value
                let obj = objective(loss, &l, y, &g, &a.x, lam, alpha);
                assert!(obj >= a.dual_objective - 1e-9 * obj.abs(), "{what}");
                assert!(
                    obj - a.dual_objective <= abs_gap(&a) + 1e-9 * obj.abs(),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn the_certificate_matches_the_returned_point() {
    let inst = instance(40, 28, 10, 0.02, 5);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let lam = 0.3
        * lambda_max(
            &l,
            &inst.y,
            Loss::Squared,
            Model::Graph {
                graph: &g,
                alpha: 2.0,
            },
        )
        .unwrap();
    let a = run(
        RecoveryParams::new(lam, 2.0).solver(ANDERSON).tol(1e-10),
        &l,
        &inst.y,
        &g,
    );
    assert!(a.converged);
    // x has exact zeros (it is an output of the prox), σ ≥ 0, and σ = 0 ⇒ x = 0
    assert!(a.x.contains(&0.0));
    assert!(a.sigma.iter().all(|&s| s >= 0.0));
    assert!(a.x.iter().zip(&a.sigma).all(|(&x, &s)| s > 0.0 || x == 0.0));
    let last = a.history.last().unwrap();
    assert_eq!((last.primal, last.dual), (a.objective, a.dual_objective));
    let obj = objective(Loss::Squared, &l, &inst.y, &g, &a.x, lam, 2.0);
    assert!(rel(obj, a.objective) <= 1e-9, "{obj} vs {}", a.objective);
}

#[test]
fn anderson_needs_fewer_products_than_adaptive_pdhg_on_a_dense_compressed_sensing_instance() {
    // N = 120, J = 84 (the paper's ratios), a signal on a connected piece
    let inst = instance(120, 84, 36, 0.01, 7);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let lam = 0.02
        * lambda_max(
            &l,
            &inst.y,
            Loss::Squared,
            Model::Graph {
                graph: &g,
                alpha: 10.0,
            },
        )
        .unwrap();
    let p = RecoveryParams::new(lam, 10.0).tol(1e-6).max_iter(100_000);
    let a = run(p.clone().solver(ANDERSON), &l, &inst.y, &g);
    let b = run(p.solver(PDHG), &l, &inst.y, &g);
    assert!(a.converged && b.converged);
    assert_agree(&a, &b, "cs");
    assert!(
        a.counts.forward < b.counts.forward,
        "{} vs {}",
        a.counts.forward,
        b.counts.forward
    );
}

#[test]
fn auto_resolves_by_size_and_reports_the_method() {
    assert_eq!(Solver::Auto.resolve(350, 500, 175_000, 750), ANDERSON);
    assert_eq!(
        Solver::Auto.resolve(14_000, 20_000, 140_000, 30_000),
        PDHG,
        "a sparse L keeps PDHG"
    );
    assert_eq!(PDHG.resolve(350, 500, 175_000, 750), PDHG);
    // 10·(2N + J + m) against J·N: PDHG at N = 20, J = 16; Anderson at N = 120, J = 84
    for (n, j, want) in [(20, 16, PDHG), (120, 84, ANDERSON)] {
        let inst = instance(n, j, 5, 0.05, 2);
        let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
        let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
        let r = run(
            RecoveryParams::new(0.5, 1.0).solver(Solver::Auto),
            &l,
            &inst.y,
            &g,
        );
        assert_eq!(r.solver, want, "N = {n}");
        assert!(r.converged);
    }
}

#[test]
fn alpha_zero_and_the_baselines_fall_back_to_pdhg() {
    let inst = instance(20, 30, 5, 0.05, 4);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let r = run(
        RecoveryParams::new(0.5, 0.0).solver(ANDERSON),
        &l,
        &inst.y,
        &g,
    );
    assert_eq!(r.solver, PDHG, "α = 0 is the component group lasso");
    let p = RecoveryParams::new(0.5, 0.0)
        .solver(ANDERSON)
        .check()
        .unwrap();
    assert!(
        p.solve_lasso(&l, &inst.y, None, &RunControl::new())
            .is_err()
    );
    let p = RecoveryParams::new(0.5, 0.0)
        .solver(Solver::Auto)
        .check()
        .unwrap();
    let r = p
        .solve_lasso(&l, &inst.y, None, &RunControl::new())
        .unwrap();
    assert!(r.converged);
}

#[test]
fn warm_start_budget_and_determinism() {
    let inst = instance(60, 40, 12, 0.02, 9);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let lam = 0.05
        * lambda_max(
            &l,
            &inst.y,
            Loss::Squared,
            Model::Graph {
                graph: &g,
                alpha: 3.0,
            },
        )
        .unwrap();
    let p = RecoveryParams::new(lam, 3.0).solver(ANDERSON).tol(1e-9);
    let cold = run(p.clone(), &l, &inst.y, &g);
    assert!(cold.converged);
    // a warm start from the solution converges at once to the same certificate
    let warm = p
        .clone()
        .check()
        .unwrap()
        .solve(&l, &inst.y, &g, Some(&cold.state), &RunControl::new())
        .unwrap();
    assert!(warm.converged && warm.n_iter <= 20, "{}", warm.n_iter);
    assert_agree(&cold, &warm, "warm");
    // an iteration budget stops it, unconverged, with a checked final point
    let cut = run(p.clone().max_iter(7), &l, &inst.y, &g);
    assert!(!cut.converged);
    assert!(cut.n_iter <= 7 && cut.n_iter >= 6, "{}", cut.n_iter);
    assert_eq!(cut.history.last().unwrap().iteration, cut.n_iter);
    let nodes = run(
        p.clone().budget(Budget::new().max_nodes(Some(5))),
        &l,
        &inst.y,
        &g,
    );
    assert!(!nodes.converged && nodes.truncation.is_some() && nodes.n_iter <= 5);
    // serial and parallel runs are bitwise equal
    let a = run(p.clone().parallel(Parallel::Serial), &l, &inst.y, &g);
    let b = run(p.parallel(Parallel::Auto), &l, &inst.y, &g);
    assert_eq!(a.x, b.x);
    assert_eq!(a.n_iter, b.n_iter);
}

/// A dense `L` that hides [`LinearOperator::dense_row_major`], so the solver keeps no column
/// copy of it.
struct RowsOnly<'a>(DenseMatrix<'a>);

impl LinearOperator for RowsOnly<'_> {
    fn n_rows(&self) -> usize {
        self.0.n_rows()
    }
    fn n_cols(&self) -> usize {
        self.0.n_cols()
    }
    fn cost(&self) -> u64 {
        self.0.cost()
    }
    fn apply_into(
        &self,
        x: &[f64],
        out: &mut [f64],
        par: Parallel,
    ) -> graphsparse_recovery::Result<()> {
        self.0.apply_into(x, out, par)
    }
    fn apply_adjoint_into(
        &self,
        v: &[f64],
        out: &mut [f64],
        par: Parallel,
    ) -> graphsparse_recovery::Result<()> {
        self.0.apply_adjoint_into(v, out, par)
    }
}

#[test]
fn the_column_copy_of_a_dense_l_changes_no_answer_and_no_bit_across_threads() {
    let inst = instance(120, 80, 20, 0.02, 4);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let alpha = 6.0;
    let lam = 0.3
        * lambda_max(
            &l,
            &inst.y,
            Loss::Squared,
            Model::Graph { graph: &g, alpha },
        )
        .unwrap();
    // `None`: the lasso (PDHG on λ‖x‖₁)
    for solver in [
        Some(ANDERSON),
        Some(PDHG),
        Some(Solver::Pdhg { adaptive: false }),
        None,
    ] {
        let p = RecoveryParams::new(lam, alpha)
            .solver(solver.unwrap_or(PDHG))
            .tol(1e-9)
            .max_iter(100_000);
        let solve = |op: &dyn LinearOperator, par: Parallel| {
            let p = p.clone().parallel(par).check().unwrap();
            let ctl = RunControl::new();
            match solver {
                Some(_) => p.solve(op, &inst.y, &g, None, &ctl),
                None => p.solve_lasso(op, &inst.y, None, &ctl),
            }
            .unwrap()
        };
        let what = format!("{solver:?}");
        let copy = solve(&l, Parallel::Serial);
        let rows = solve(&RowsOnly(l), Parallel::Serial);
        assert!(copy.converged && rows.converged, "{what}");
        assert!(copy.x.contains(&0.0), "{what}: the support is all of N");
        assert_agree(&copy, &rows, &what);
        // the copy's products are fixed sums: a parallel run gives the same bits
        let par = solve(&l, Parallel::Threshold(0));
        assert_eq!(copy.x, par.x, "{what}");
        assert_eq!((copy.n_iter, copy.objective), (par.n_iter, par.objective));
    }
}

fn small_instance(seed: u64) -> (Vec<f64>, Vec<f64>, Vec<[usize; 2]>, usize, usize) {
    let mut rng = Rng(seed);
    let n = 4 + rng.below(12);
    let j = 3 + rng.below(12);
    let edges = if rng.below(5) == 0 {
        Vec::new()
    } else {
        cubic_like_graph(n, &mut rng)
    };
    let a = rng.normals(j * n);
    let y = rng.normals(j);
    (a, y, edges, n, j)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn prop_anderson_pdhg_and_the_reference_objective_agree(
        seed in any::<u64>(), rho in 0.02f64..0.9, alpha in 0.05f64..4.0,
    ) {
        let (a, y, edges, n, j) = small_instance(seed);
        let l = DenseMatrix::new(&a, j, n).unwrap();
        let g = WeightedGraph::new(n, &edges, None).unwrap();
        let lam = rho * lambda_max(&l, &y, Loss::Squared, Model::Graph { graph: &g, alpha }).unwrap();
        prop_assume!(lam > 0.0);
        let p = RecoveryParams::new(lam, alpha).tol(1e-7).max_iter(500_000);
        let fa = run(p.clone().solver(ANDERSON), &l, &y, &g);
        let fp = run(p.solver(PDHG), &l, &y, &g);
        prop_assert!(fa.converged && fp.converged, "{} {}", fa.gap, fp.gap);
        let slack = 1e-12 * fa.objective.abs().max(1.0);
        prop_assert!(fa.objective >= fp.dual_objective - slack);
        prop_assert!(fp.objective >= fa.dual_objective - slack);
        prop_assert!((fa.objective - fp.objective).abs() <= abs_gap(&fa).max(abs_gap(&fp)) + slack);
        // the reference: the objective at each x with Ψ_α by its own solve, within each
        // solve's certificate above the best dual value
        let dual = fa.dual_objective.max(fp.dual_objective);
        for r in [&fa, &fp] {
            let obj = objective(Loss::Squared, &l, &y, &g, &r.x, lam, alpha);
            let tiny = 1e-9 * obj.abs().max(1.0);
            prop_assert!(obj >= dual - tiny, "{} < {}", obj, dual);
            prop_assert!(obj - dual <= abs_gap(r) + tiny, "{} {} {}", obj, dual, abs_gap(r));
        }
    }
}
