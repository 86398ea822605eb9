//! The primal form of the inner solves (sparse explicit features) against the dual form (dense
//! `m × m` kernel): the same optimum within the certified gaps, for the hinge and the squared
//! loss, one task and several; the same rules on a planted, well-separated target; results
//! independent of the thread count.

mod common;

use common::{Lattice, random_problem};
use graphsparse_base::{RunControl, SplitMix64};
use graphsparse_lattice::{
    Check, GhklFit, GhklParams, Loss, Parallel, SolverForm, TaskCoupling, fit, solve_dag,
};
use proptest::prelude::*;

fn fit_form(
    params: &GhklParams,
    form: SolverForm,
    x: &[bool],
    m: usize,
    p: usize,
    y: &[f64],
    tasks: usize,
) -> GhklFit {
    let xm = Lattice::matrix(x, m, p);
    let valid = params.clone().solver_form(form).check().unwrap();
    fit(&valid, &xm, y, tasks, &RunControl::new()).unwrap()
}

/// Both fits are certified: their primal values lie within the sum of their gaps, and each one's
/// dual bound lies below the other's primal value (weak duality across the two forms).
fn same_optimum(a: &GhklFit, b: &GhklFit) {
    let scale = a.primal.abs().max(b.primal.abs()).max(1.0);
    let slack = 1e-7 * scale;
    assert!(a.gap.is_finite() && b.gap.is_finite(), "{a:?} {b:?}");
    assert!(
        (a.primal - b.primal).abs() <= a.gap + b.gap + slack,
        "dual form {} (gap {}) vs primal form {} (gap {})",
        a.primal,
        a.gap,
        b.primal,
        b.gap
    );
    assert!(a.dual <= b.primal + slack, "{} > {}", a.dual, b.primal);
    assert!(b.dual <= a.primal + slack, "{} > {}", b.dual, a.primal);
}

fn labels(seed: u64, m: usize, tasks: usize, squared: bool) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    let mut y: Vec<f64> = (0..m * tasks)
        .map(|_| {
            if squared {
                (rng.next_u64() % 1000) as f64 / 250.0 - 2.0
            } else if rng.next_u64() % 2 == 0 {
                1.0
            } else {
                -1.0
            }
        })
        .collect();
    if !squared {
        for t in 0..tasks {
            (y[t * m], y[t * m + 1]) = (1.0, -1.0);
        }
    }
    y
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn prop_primal_and_dual_forms_reach_the_same_optimum(
        seed in 0u64..1_000_000,
        m in 8usize..40,
        p in 2usize..6,
        tasks in 1usize..4,
        squared in any::<bool>(),
        rho in prop::sample::select(vec![1.1, 1.5, 2.0]),
        c in prop::sample::select(vec![0.1, 1.0, 10.0]),
        coupled in any::<bool>(),
    ) {
        let (x, _) = random_problem(seed, m, p);
        let y = labels(seed ^ 0xABCD, m, tasks, squared);
        let mut params = GhklParams::new().rho(rho).c(c).loss(if squared {
            Loss::Squared
        } else {
            Loss::Hinge
        });
        if coupled && squared {
            params = params.coupling(TaskCoupling::MeanRegularized { mu: 0.7 });
        }
        let dual = fit_form(&params, SolverForm::Dual, &x, m, p, &y, tasks);
        let primal = fit_form(&params, SolverForm::Primal, &x, m, p, &y, tasks);
        same_optimum(&dual, &primal);
    }
}

#[test]
fn planted_rule_gives_the_same_rules_in_both_forms() {
    // y = +1 exactly when propositions 0 and 1 hold: well separated, noiseless
    for seed in 0..4 {
        let (m, p) = (64, 5);
        let mut rng = SplitMix64::new(seed);
        let x: Vec<bool> = (0..m * p).map(|_| rng.next_u64() % 2 == 0).collect();
        let y: Vec<f64> = (0..m)
            .map(|i| if x[i * p] && x[i * p + 1] { 1.0 } else { -1.0 })
            .collect();
        let params = GhklParams::new().c(10.0).tol(1e-4).rule_threshold(0.05);
        let dual = fit_form(&params, SolverForm::Dual, &x, m, p, &y, 1);
        let primal = fit_form(&params, SolverForm::Primal, &x, m, p, &y, 1);
        assert!(dual.converged && primal.converged);
        same_optimum(&dual, &primal);
        let props = |f: &GhklFit| {
            let mut v: Vec<Vec<u32>> = f.rules.iter().map(|r| r.props.clone()).collect();
            v.sort();
            v
        };
        assert_eq!(props(&dual), props(&primal), "seed {seed}");
        let xm = Lattice::matrix(&x, m, p);
        for f in [&dual, &primal] {
            let s = f.decision_function(&xm).unwrap();
            assert!(s.iter().zip(&y).all(|(s, y)| s * y > 0.0));
        }
    }
}

#[test]
fn restricted_solves_agree_on_a_fixed_dag() {
    // the restricted problem on the full lattice of 4 propositions, tightly solved both ways
    let (m, p) = (30, 4);
    for (seed, loss) in [(3, Loss::Hinge), (4, Loss::Squared), (5, Loss::Hinge)] {
        let (x, y) = random_problem(seed, m, p);
        let y = if loss == Loss::Squared {
            y.iter()
                .enumerate()
                .map(|(i, v)| v + (i % 5) as f64 * 0.3)
                .collect()
        } else {
            y
        };
        let lat = Lattice::new(&x, m, p, 2.0);
        let sol = |form| {
            let params = GhklParams::new()
                .c(3.0)
                .loss(loss)
                .solver_form(form)
                .md_tol(1e-7)
                .mkl_tol(1e-8)
                .svm_tol(1e-7)
                .md_max_iter(1000)
                .check()
                .unwrap();
            solve_dag(&params, &lat.dag, &y, 1, &RunControl::new()).unwrap()
        };
        let (a, b) = (sol(SolverForm::Dual), sol(SolverForm::Primal));
        let scale = a.primal.abs().max(1.0);
        assert!(
            (a.primal - b.primal).abs() <= a.gap + b.gap + 1e-7 * scale,
            "{loss}: dual form {} ({}) vs primal form {} ({})",
            a.primal,
            a.gap,
            b.primal,
            b.gap
        );
        assert!(a.dual <= b.primal + 1e-7 * scale && b.dual <= a.primal + 1e-7 * scale);
    }
}

#[test]
fn primal_form_does_not_depend_on_threads() {
    let (m, p) = (50, 6);
    let (x, _) = random_problem(11, m, p);
    let xm = Lattice::matrix(&x, m, p);
    for loss in [Loss::Hinge, Loss::Squared] {
        let y = labels(12, m, 3, loss == Loss::Squared);
        let run = |parallel: Parallel, threads: usize| {
            let params = GhklParams::new()
                .c(5.0)
                .loss(loss)
                .solver_form(SolverForm::Primal)
                .parallel(parallel)
                .check()
                .unwrap();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| fit(&params, &xm, &y, 3, &RunControl::new()).unwrap())
        };
        let base = run(Parallel::Serial, 1);
        for (par, th) in [(Parallel::Threshold(0), 1), (Parallel::Threshold(0), 3)] {
            let other = run(par, th);
            assert_eq!(base.rules, other.rules);
            assert_eq!(base.bias, other.bias);
            assert_eq!(base.gap.to_bits(), other.gap.to_bits());
            assert_eq!(base.dual_coef(), other.dual_coef());
        }
    }
}

#[test]
fn primal_form_refuses_coupled_hinge_tasks() {
    let err = GhklParams::new()
        .solver_form(SolverForm::Primal)
        .coupling(TaskCoupling::MeanRegularized { mu: 1.0 })
        .check()
        .unwrap_err();
    assert!(err.to_string().contains("solver_form"), "{err}");
    // the squared loss and the automatic choice take coupled tasks
    assert!(
        GhklParams::new()
            .solver_form(SolverForm::Primal)
            .loss(Loss::Squared)
            .coupling(TaskCoupling::MeanRegularized { mu: 1.0 })
            .check()
            .is_ok()
    );
}
