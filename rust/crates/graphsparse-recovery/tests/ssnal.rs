//! The semismooth Newton augmented Lagrangian solver (`Solver::Ssnal`) against Anderson and
//! adaptive PDHG and an independent objective (the penalty by its own inner solve): agreement
//! within the certified gaps, a true certificate, both penalty forms, dense and sparse `L`,
//! warm starts, budgets, thread-count independence, the loss and model it rejects; and a
//! property test on random small instances.

mod common;

use common::{Rng, cubic_like_graph, instance, random_csr};
use graphsparse_base::{Budget, RunControl};
use graphsparse_recovery::{
    ANDERSON_MEMORY, Check, CsrOperator, DataFit, DenseMatrix, LinearOperator, Loss, Model,
    Parallel, PenaltyForm, Recovery, RecoveryError, RecoveryParams, Solver, WeightedGraph,
    lambda_max, penalty,
};
use proptest::prelude::*;

const ANDERSON: Solver = Solver::Anderson {
    memory: ANDERSON_MEMORY,
};
const PDHG: Solver = Solver::Pdhg { adaptive: true };

fn run<Op: LinearOperator + ?Sized>(
    p: RecoveryParams,
    l: &Op,
    y: &[f64],
    g: &WeightedGraph,
) -> Recovery {
    p.check()
        .unwrap()
        .solve(l, y, g, None, &RunControl::new())
        .unwrap()
}

/// `½‖L x − y‖² + λ Ψ_α(x)` with `Ψ_α` from [`penalty`]'s own solve (an upper bound within
/// 1e-11 relative of the exact value), for a row-major `J × N` matrix `a`.
fn objective(a: &[f64], y: &[f64], g: &WeightedGraph, x: &[f64], lam: f64, alpha: f64) -> f64 {
    let lx = common::dense_product(a, x);
    Loss::Squared.value(&lx, y).unwrap()
        + lam * penalty(g, x, alpha, 1e-10, 1_000_000).unwrap().value
}

fn abs_gap(r: &Recovery) -> f64 {
    r.objective - r.dual_objective
}

/// Each primal value is at least the other's dual value (weak duality, up to rounding), and
/// the two differ by at most the larger certificate.
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

fn lam_for(l: &dyn LinearOperator, y: &[f64], g: &WeightedGraph, alpha: f64, frac: f64) -> f64 {
    frac * lambda_max(l, y, Loss::Squared, Model::Graph { graph: g, alpha }).unwrap()
}

#[test]
fn ssnal_certifies_the_optimum_of_anderson_and_pdhg_in_both_forms() {
    let inst = instance(80, 56, 16, 0.02, 5);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    for form in [PenaltyForm::Budget, PenaltyForm::Lagrangian] {
        let alpha = if form == PenaltyForm::Budget {
            4.0
        } else {
            0.2
        };
        let lam = lam_for(&l, &inst.y, &g, alpha, 0.05);
        let p = RecoveryParams::new(lam, alpha)
            .penalty_form(form)
            .tol(1e-8)
            .max_iter(200_000);
        let s = run(p.clone().solver(Solver::Ssnal), &l, &inst.y, &g);
        assert!(s.converged && s.gap <= 1e-8, "{form:?}: {}", s.gap);
        assert_eq!(s.solver, Solver::Ssnal);
        for other in [ANDERSON, PDHG] {
            let o = run(p.clone().solver(other), &l, &inst.y, &g);
            assert!(o.converged);
            assert_agree(&s, &o, &format!("{form:?} {other:?}"));
        }
        // the result has the structure of a prox output and a recorded, checked history
        assert!(s.sigma.iter().all(|&v| v >= 0.0));
        assert!(s.x.iter().zip(&s.sigma).all(|(&x, &v)| v > 0.0 || x == 0.0));
        let last = s.history.last().unwrap();
        assert_eq!(
            (last.primal, last.dual, last.iteration),
            (s.objective, s.dual_objective, s.n_iter)
        );
        if form == PenaltyForm::Budget {
            // the reported primal value is the objective at x (within the penalty's accuracy)
            let obj = objective(&inst.a, &inst.y, &g, &s.x, lam, alpha);
            assert!(obj >= s.dual_objective - 1e-9 * obj.abs());
            assert!(
                obj - s.dual_objective <= abs_gap(&s) + 1e-9 * obj.abs(),
                "{obj} {s:?}"
            );
        }
    }
}

#[test]
fn ssnal_on_a_sparse_l_and_on_an_edgeless_graph() {
    let mut rng = Rng(11);
    let (n, j) = (90, 60);
    let (ptr, idx, val) = random_csr(j, n, 8, 3.0, &mut rng);
    let l = CsrOperator::new(&ptr, &idx, &val, j, n).unwrap();
    let y = rng.normals(j);
    let g = WeightedGraph::new(n, &cubic_like_graph(n, &mut rng), None).unwrap();
    let lam = lam_for(&l, &y, &g, 2.0, 0.1);
    let p = RecoveryParams::new(lam, 2.0).tol(1e-8).max_iter(200_000);
    let s = run(p.clone().solver(Solver::Ssnal), &l, &y, &g);
    let a = run(p.solver(ANDERSON), &l, &y, &g);
    assert!(s.converged && a.converged);
    assert_agree(&s, &a, "sparse");
    // no edges: Ψ_α = ‖x‖₁
    let e = WeightedGraph::new(n, &[], None).unwrap();
    let lam = lam_for(&l, &y, &e, 1.0, 0.2);
    let p = RecoveryParams::new(lam, 1.0).tol(1e-9).max_iter(200_000);
    let s = run(p.clone().solver(Solver::Ssnal), &l, &y, &e);
    let a = run(p.solver(PDHG), &l, &y, &e);
    assert!(s.converged && a.converged);
    assert_agree(&s, &a, "edgeless");
}

#[test]
fn ssnal_rejects_other_losses_and_models_and_routes_alpha_zero_to_pdhg() {
    let inst = instance(20, 16, 5, 0.05, 4);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let labels = inst.labels();
    for loss in [Loss::Absolute, Loss::Logistic, Loss::Hinge] {
        let p = RecoveryParams::new(0.5, 1.0)
            .loss(loss)
            .solver(Solver::Ssnal)
            .check()
            .unwrap();
        match p.solve(&l, &labels, &g, None, &RunControl::new()) {
            Err(RecoveryError::InvalidParameter { name, .. }) => assert_eq!(name, "loss"),
            other => panic!("{loss:?}: {other:?}"),
        }
    }
    let p = RecoveryParams::new(0.5, 1.0)
        .solver(Solver::Ssnal)
        .check()
        .unwrap();
    match p.solve_lasso(&l, &inst.y, None, &RunControl::new()) {
        Err(RecoveryError::InvalidParameter { name, .. }) => assert_eq!(name, "solver"),
        other => panic!("lasso: {other:?}"),
    }
    let r = run(
        RecoveryParams::new(0.5, 0.0).solver(Solver::Ssnal),
        &l,
        &inst.y,
        &g,
    );
    assert_eq!(r.solver, PDHG, "α = 0 is the component group lasso");
    assert!(r.converged);
}

#[test]
fn ssnal_warm_start_budget_and_determinism() {
    let inst = instance(60, 40, 12, 0.02, 9);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let lam = lam_for(&l, &inst.y, &g, 3.0, 0.05);
    let p = RecoveryParams::new(lam, 3.0)
        .solver(Solver::Ssnal)
        .tol(1e-9);
    let cold = run(p.clone(), &l, &inst.y, &g);
    assert!(cold.converged);
    let warm = p
        .clone()
        .check()
        .unwrap()
        .solve(&l, &inst.y, &g, Some(&cold.state), &RunControl::new())
        .unwrap();
    assert!(
        warm.converged && warm.n_iter < cold.n_iter,
        "{} vs {}",
        warm.n_iter,
        cold.n_iter
    );
    assert_agree(&cold, &warm, "warm");
    // max_iter stops it unconverged, with the final point checked
    let cut = run(p.clone().max_iter(3), &l, &inst.y, &g);
    assert!(!cut.converged && cut.n_iter == 3);
    assert_eq!(cut.history.last().unwrap().iteration, 3);
    assert!(cut.objective >= cold.dual_objective - 1e-12 * cold.objective.abs());
    let nodes = run(
        p.clone().budget(Budget::new().max_nodes(Some(2))),
        &l,
        &inst.y,
        &g,
    );
    assert!(!nodes.converged && nodes.truncation.is_some() && nodes.n_iter <= 2);
    let none = run(
        p.clone().budget(Budget::new().max_nodes(Some(0))),
        &l,
        &inst.y,
        &g,
    );
    assert!(!none.converged && none.n_iter == 0 && none.truncation.is_some());
    // serial and forced-parallel runs are bitwise equal
    let a = run(p.clone().parallel(Parallel::Serial), &l, &inst.y, &g);
    let b = run(p.parallel(Parallel::Threshold(0)), &l, &inst.y, &g);
    assert_eq!(a.x, b.x);
    assert_eq!(
        (a.n_iter, a.objective, a.gap),
        (b.n_iter, b.objective, b.gap)
    );
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

    /// On random small instances SSNAL's certified objective equals Anderson's and PDHG's
    /// within the certificates, and its gap is a true gap: the reference objective at its
    /// `x` lies between the best dual value and that value plus SSNAL's certificate.
    #[test]
    fn prop_ssnal_anderson_pdhg_and_the_reference_objective_agree(
        seed in any::<u64>(), rho in 0.02f64..0.9, alpha in 0.05f64..4.0, lagrangian in any::<bool>(),
    ) {
        let (a, y, edges, n, j) = small_instance(seed);
        let l = DenseMatrix::new(&a, j, n).unwrap();
        let g = WeightedGraph::new(n, &edges, None).unwrap();
        let form = if lagrangian { PenaltyForm::Lagrangian } else { PenaltyForm::Budget };
        let lam = lam_for(&l, &y, &g, alpha, rho);
        prop_assume!(lam > 0.0);
        let p = RecoveryParams::new(lam, alpha).penalty_form(form).tol(1e-7).max_iter(500_000);
        let fs = run(p.clone().solver(Solver::Ssnal), &l, &y, &g);
        let fa = run(p.clone().solver(ANDERSON), &l, &y, &g);
        let fp = run(p.solver(PDHG), &l, &y, &g);
        prop_assert!(fs.converged && fa.converged && fp.converged, "{} {} {}", fs.gap, fa.gap, fp.gap);
        for o in [&fa, &fp] {
            let slack = 1e-12 * fs.objective.abs().max(1.0);
            prop_assert!(fs.objective >= o.dual_objective - slack);
            prop_assert!(o.objective >= fs.dual_objective - slack);
            prop_assert!((fs.objective - o.objective).abs() <= abs_gap(&fs).max(abs_gap(o)) + slack);
        }
        if !lagrangian {
            let dual = fs.dual_objective.max(fa.dual_objective).max(fp.dual_objective);
            let obj = objective(&a, &y, &g, &fs.x, lam, alpha);
            let tiny = 1e-9 * obj.abs().max(1.0);
            prop_assert!(obj >= dual - tiny, "{} < {}", obj, dual);
            prop_assert!(obj - dual <= abs_gap(&fs) + tiny, "{} {} {}", obj, dual, abs_gap(&fs));
        }
    }
}
