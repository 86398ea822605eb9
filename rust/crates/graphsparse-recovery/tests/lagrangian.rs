//! The Lagrangian form `min f(L x) + λ min_σ [Σ φ(x_n, σ_n) + β ‖W D σ‖₁]` (spec §1.3 item 4):
//! its limits, its equivalence with the budget form at `α = ‖W D σ̂‖₁`, homogeneity, and the
//! agreement of PDHG and Algorithm 1.

mod common;

use common::{instance, rel};
use graphsparse_base::RunControl;
use graphsparse_recovery::{
    Check, DenseMatrix, GraphDiff, Loss, Model, PenaltyForm, Recovery, RecoveryParams, Solver,
    WeightedGraph, lambda_max,
};

fn fit(p: RecoveryParams, l: &DenseMatrix<'_>, y: &[f64], g: &WeightedGraph) -> Recovery {
    let r = p
        .tol(1e-10)
        .max_iter(500_000)
        .check()
        .unwrap()
        .solve(l, y, g, None, &RunControl::new())
        .unwrap();
    assert!(r.converged, "gap {} after {}", r.gap, r.n_iter);
    for h in &r.history {
        assert!(h.primal - h.dual >= -1e-12 * h.primal.abs());
    }
    r
}

#[test]
fn limits_equivalence_and_homogeneity() {
    let inst = instance(24, 18, 6, 0.05, 31);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let g = WeightedGraph::new(inst.n, &inst.edges, None).unwrap();
    let lam = 0.1 * lambda_max(&l, &inst.y, Loss::Squared, Model::Lasso).unwrap();
    let lag = |beta: f64| RecoveryParams::new(lam, beta).penalty_form(PenaltyForm::Lagrangian);
    // β = 0: the lasso
    let lasso = RecoveryParams::new(lam, 0.0)
        .tol(1e-10)
        .max_iter(500_000)
        .check()
        .unwrap()
        .solve_lasso(&l, &inst.y, None, &RunControl::new())
        .unwrap();
    assert!(rel(fit(lag(0.0), &l, &inst.y, &g).objective, lasso.objective) < 1e-8);
    // a large β forces σ constant: the budget form at α = 0
    let zero = fit(RecoveryParams::new(lam, 0.0), &l, &inst.y, &g);
    assert!(rel(fit(lag(1e3), &l, &inst.y, &g).objective, zero.objective) < 1e-7);
    // any β: the budget form at α = ‖W D σ̂‖₁ has the same x̂, objective less λβα
    let beta = 0.05;
    let r = fit(lag(beta), &l, &inst.y, &g);
    let alpha = g.weighted_total_variation(&r.sigma).unwrap();
    assert!(alpha > 0.0);
    let b = fit(RecoveryParams::new(lam, alpha), &l, &inst.y, &g);
    assert!(
        rel(b.objective, r.objective - lam * beta * alpha) < 1e-7,
        "{} vs {}",
        b.objective,
        r.objective - lam * beta * alpha
    );
    // a norm: scaling (y, λ) by t scales x̂ by t at fixed β
    let t = 2.5;
    let ty: Vec<f64> = inst.y.iter().map(|v| t * v).collect();
    let rt = fit(
        RecoveryParams::new(t * lam, beta).penalty_form(PenaltyForm::Lagrangian),
        &l,
        &ty,
        &g,
    );
    assert!(rel(rt.objective, t * t * r.objective) < 1e-8);
}

#[test]
fn pdhg_and_algorithm_1_agree() {
    let inst = instance(20, 14, 5, 0.05, 32);
    let l = DenseMatrix::new(&inst.a, inst.j, inst.n).unwrap();
    let w: Vec<f64> = (0..inst.edges.len())
        .map(|e| 0.5 + (e % 3) as f64 * 0.5)
        .collect();
    let g = WeightedGraph::new(inst.n, &inst.edges, Some(&w)).unwrap();
    let labels = inst.labels();
    for (loss, y) in [
        (Loss::Squared, &inst.y),
        (Loss::Logistic, &labels),
        (Loss::Absolute, &inst.y),
    ] {
        let lam = 0.2 * lambda_max(&l, y, loss, Model::Lasso).unwrap();
        let objs: Vec<f64> = [
            Solver::Pdhg { adaptive: true },
            Solver::Pdhg { adaptive: false },
            Solver::KurodaKitahara { gamma: None },
        ]
        .into_iter()
        .map(|solver| {
            fit(
                RecoveryParams::new(lam, 0.1)
                    .loss(loss)
                    .solver(solver)
                    .penalty_form(PenaltyForm::Lagrangian),
                &l,
                y,
                &g,
            )
            .objective
        })
        .collect();
        for o in &objs[1..] {
            assert!(rel(*o, objs[0]) < 1e-8, "{loss:?}: {objs:?}");
        }
    }
}
