//! Every public entry point that takes user data returns `Ok` or `Err` on arbitrary input —
//! NaN, ±inf, ±0, subnormals, 1e308, empty and mismatched inputs, huge sizes — and never
//! panics.

use graphsparse_base::{Budget, RunControl};
use graphsparse_lattice::{
    Check, Column, CutRule, Dag, GhklParams, KernelCache, Loss, Parallel, PropositionMatrix,
    PropositionParams, PropositionSet, StepNorm, TaskCoupling, evaluate_dual, fit, fit_path,
    kernel_ku, kernel_ku_child, solve_dag, zeta,
};
use proptest::prelude::*;

fn wild_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => -3.0f64..3.0,
        1 => prop::sample::select(vec![
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1e308, -1e308,
            f64::MIN_POSITIVE / 4.0, 1.0, -1.0, 2.0, 1.5, 1.1, 1e-300,
        ]),
    ]
}

fn matrix(m: usize, p: usize, bits: &[bool]) -> PropositionMatrix {
    let v: Vec<bool> = (0..m * p)
        .map(|k| bits.get(k % bits.len().max(1)).copied().unwrap_or(false))
        .collect();
    PropositionMatrix::from_dense(m, p, &v).unwrap()
}

fn params(vals: &[f64], flags: u8) -> GhklParams {
    let g = |k: usize| vals[k % vals.len()];
    GhklParams::new()
        .rho(g(0))
        .c(g(1))
        .a(g(2))
        .eps_sm(g(3).abs() % 1.0)
        .tol(g(4).abs().max(1e-6))
        .loss(if flags & 1 == 0 {
            Loss::Hinge
        } else {
            Loss::Squared
        })
        .coupling(if flags & 2 == 0 {
            TaskCoupling::Independent
        } else {
            TaskCoupling::MeanRegularized { mu: g(5) }
        })
        .step_norm(if flags & 4 == 0 {
            StepNorm::Max
        } else {
            StepNorm::Euclidean
        })
        .md_max_iter(20)
        .mkl_max_iter(20)
        .max_add(if flags & 8 == 0 { None } else { Some(2) })
        .budget(Budget::new().max_nodes(Some(30)))
        .parallel(Parallel::from(flags & 16 != 0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_propositions_never_panic(
        cols in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(wild_f64(), 0..12).prop_map(|v| (v, Vec::new(), 0u32, true)),
                (prop::collection::vec(prop_oneof![0u32..5, Just(u32::MAX), Just(7u32)], 0..12), prop_oneof![0u32..6, Just(u32::MAX)])
                    .prop_map(|(c, n)| (Vec::new(), c, n, false)),
            ],
            0..4,
        ),
        n_cuts in prop_oneof![0usize..10, Just(usize::MAX)],
        rule in prop::sample::select(vec![CutRule::DistinctQuantiles, CutRule::Quantiles, CutRule::EqualWidth]),
        cut in prop::option::of(prop::collection::vec(wild_f64(), 0..4)),
    ) {
        let columns: Vec<Column> = cols
            .iter()
            .map(|(v, c, n, numeric)| if *numeric { Column::Numeric(v) } else { Column::Categorical { codes: c, n_categories: *n } })
            .collect();
        let mut p = PropositionParams::new().n_cuts(n_cuts).cut_rule(rule);
        if let Some(c) = cut {
            p = p.cut_points(vec![Some(c); columns.len()]);
        }
        if let Ok(valid) = p.check() {
            if let Ok(set) = PropositionSet::fit(&valid, &columns) {
                if let Ok(mx) = set.transform(&columns) {
                    prop_assert_eq!(mx.n_props(), set.len());
                }
                let _ = set.transform(&columns[..columns.len().saturating_sub(1)]);
            }
        }
    }

    #[test]
    fn prop_fit_never_panics(
        m in 0usize..9,
        p in 0usize..6,
        tasks in 0usize..3,
        bits in prop::collection::vec(any::<bool>(), 1..40),
        y in prop::collection::vec(prop_oneof![4 => Just(1.0), 4 => Just(-1.0), 1 => wild_f64()], 20),
        exact_len in prop::bool::weighted(0.8),
        vals in (prop_oneof![3 => 1.01f64..2.0, 1 => wild_f64()], prop_oneof![3 => 0.01f64..100.0, 1 => wild_f64()],
                 prop_oneof![3 => 1.1f64..4.0, 1 => wild_f64()], wild_f64(), wild_f64(), prop_oneof![0.1f64..10.0, wild_f64()])
            .prop_map(|(a, b, c, d, e, f)| vec![a, b, c, d, e, f]),
        flags in any::<u8>(),
        cs in prop::collection::vec(prop_oneof![0.01f64..10.0, wild_f64()], 0..3),
    ) {
        let x = matrix(m, p, &bits);
        let y = if exact_len { &y[..(m * tasks).min(20)] } else { &y[..] };
        if let Ok(valid) = params(&vals, flags).check() {
            if let Ok(model) = fit(&valid, &x, y, tasks, &RunControl::new()) {
                prop_assert!(model.dual <= model.primal + 1e-6 * model.primal.abs().max(1.0) || model.gap.is_nan());
                let f = model.decision_function(&x).unwrap();
                prop_assert!(f.iter().all(|v| v.is_finite()));
                let _ = model.activations(&x).unwrap();
                let other = matrix(m, p + 1, &bits);
                prop_assert!(model.decision_function(&other).is_err());
            }
            let _ = fit_path(&valid, &x, y, tasks, &cs, &RunControl::new());
        }
    }

    #[test]
    fn prop_dag_entry_points_never_panic(
        m in 0usize..6,
        covers in prop::collection::vec(prop::collection::vec(0u32..8, 0..6), 0..5),
        parents in prop::collection::vec(prop::collection::vec(0u32..6, 0..3), 0..5),
        d in prop::collection::vec(wild_f64(), 0..5),
        eta in prop::collection::vec(wild_f64(), 0..5),
        y in prop::collection::vec(prop_oneof![Just(1.0), Just(-1.0), wild_f64()], 0..8),
        vals in prop::collection::vec(wild_f64(), 6..7),
        flags in any::<u8>(),
    ) {
        if let Ok(dag) = Dag::new(m, &covers, &parents, &d) {
            let _ = zeta(&dag, &eta, vals[0]);
            if let Ok(valid) = params(&vals, flags).check() {
                let _ = solve_dag(&valid, &dag, &y, 1, &RunControl::new());
                let _ = evaluate_dual(&valid, &dag, &y, 1, &eta);
            }
        }
    }

    #[test]
    fn prop_kernels_never_panic(
        m in 0usize..6,
        p in 0usize..5,
        bits in prop::collection::vec(any::<bool>(), 1..30),
        props in prop::collection::vec(0u32..7, 0..4),
        a in wild_f64(),
        parent in prop::collection::vec(wild_f64(), 0..40),
        n_props in prop_oneof![0usize..100, Just(usize::MAX)],
        budget in any::<usize>(),
    ) {
        let x = matrix(m, p, &bits);
        let _ = kernel_ku(&x, &props, a);
        let _ = kernel_ku_child(&x, &parent, props.first().copied().unwrap_or(0), a);
        let _ = KernelCache::new(n_props, a, budget).map(|c| c.stats());
    }
}

#[test]
fn huge_sizes_are_errors_not_aborts() {
    assert!(PropositionMatrix::zeros(usize::MAX, 2).is_err());
    assert!(PropositionMatrix::zeros(1 << 40, 1 << 30).is_err());
    let x = PropositionMatrix::zeros(1 << 33, 0).unwrap();
    let y = vec![1.0; 4];
    let p = GhklParams::new().check().unwrap();
    assert!(fit(&p, &x, &y, 1, &RunControl::new()).is_err());
    assert!(KernelCache::new(1 << 20, 2.0, 1024).is_err());
    let cats = [Column::Categorical {
        codes: &[0, 4_000_000_000, 5],
        n_categories: u32::MAX - 1,
    }];
    let set = PropositionSet::fit(&PropositionParams::new().check().unwrap(), &cats).unwrap();
    assert_eq!(set.len(), 6);
}

#[test]
fn bad_parameters_name_themselves() {
    let cases: Vec<(GhklParams, &str)> = vec![
        (GhklParams::new().rho(1.0), "rho"),
        (GhklParams::new().rho(2.5), "rho"),
        (GhklParams::new().rho(f64::NAN), "rho"),
        (GhklParams::new().c(0.0), "C"),
        (GhklParams::new().c(f64::INFINITY), "C"),
        (GhklParams::new().a(1.0), "a"),
        (
            GhklParams::new().coupling(TaskCoupling::MeanRegularized { mu: -1.0 }),
            "mu",
        ),
        (GhklParams::new().eps_sm(1.0), "eps_sm"),
        (GhklParams::new().md_max_iter(0), "md_max_iter"),
        (GhklParams::new().max_add(Some(0)), "max_add"),
        (GhklParams::new().rule_threshold(1.0), "rule_threshold"),
    ];
    for (p, name) in cases {
        let msg = p.check().unwrap_err().to_string();
        assert!(msg.starts_with(name), "{msg} should name {name}");
    }
    let x = PropositionMatrix::from_dense(2, 1, &[true, false]).unwrap();
    let ok = GhklParams::new().check().unwrap();
    let msg = fit(&ok, &x, &[1.0, 1.0], 1, &RunControl::new())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("single class"), "{msg}");
    let msg = fit(&ok, &x, &[1.0, 0.5], 1, &RunControl::new())
        .unwrap_err()
        .to_string();
    assert!(msg.starts_with("y"), "{msg}");
    let msg = fit(&ok, &x, &[1.0], 1, &RunControl::new())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("y has length 1, expected 2"), "{msg}");
}
