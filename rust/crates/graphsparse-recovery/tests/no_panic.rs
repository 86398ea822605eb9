//! Every public entry point that takes user data returns `Ok` or a named error on arbitrary
//! input (NaN, ±inf, ±0, subnormals, 1e308, empty and mismatched sizes): it never panics.

use graphsparse_base::{Budget, RunControl};
use graphsparse_recovery::{
    Check, CsrOperator, DataFit, DenseMatrix, DuplicateEdges, IhtParams, LatentGroups, Loss, Model,
    PenaltyForm, RecoveryParams, Solver, WeightedGraph, lambda_max, penalty, prox_perspective,
    prox_perspective_into,
};
use proptest::prelude::*;

fn wild() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -10.0f64..10.0,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(0.0),
        1 => Just(-0.0),
        1 => Just(f64::from_bits(1)),
        1 => Just(1e308),
        1 => Just(-1e308),
        1 => Just(f64::MIN_POSITIVE),
    ]
}

/// Mostly ordinary values (so that most cases reach the solvers), sometimes wild ones.
fn mostly() -> impl Strategy<Value = f64> {
    prop_oneof![12 => -3.0f64..3.0, 4 => Just(1.0), 4 => Just(-1.0), 1 => wild()]
}

fn loss() -> impl Strategy<Value = Loss> {
    prop_oneof![
        Just(Loss::Squared),
        Just(Loss::Absolute),
        Just(Loss::Logistic),
        Just(Loss::Hinge)
    ]
}

fn solver() -> impl Strategy<Value = Solver> {
    prop_oneof![
        Just(Solver::Pdhg { adaptive: true }),
        Just(Solver::Pdhg { adaptive: false }),
        Just(Solver::KurodaKitahara { gamma: None }),
        wild().prop_map(|g| Solver::KurodaKitahara { gamma: Some(g) }),
        Just(Solver::Ssnal),
    ]
}

static SOLVED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn the_solver_property_reaches_the_solvers() {
    prop_solvers_never_panic();
    let solved = SOLVED.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        solved >= 30,
        "only {solved} cases reached a successful solve"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn prop_prox_never_panics(x in wild(), s in wild(), c in wild(),
                              xs in proptest::collection::vec(wild(), 0..5),
                              ss in proptest::collection::vec(wild(), 0..5)) {
        if let Ok((a, b)) = prox_perspective(x, s, c) {
            prop_assert!(a.is_finite() && b.is_finite() && b >= 0.0);
        }
        let (mut a, mut b) = (vec![0.0; xs.len()], vec![0.0; xs.len()]);
        let _ = prox_perspective_into(&xs, &ss, c, &mut a, &mut b);
    }

    #[test]
    fn prop_loss_functions_never_panic(l in loss(), v in proptest::collection::vec(wild(), 0..5),
                                       y in proptest::collection::vec(wild(), 0..5), g in wild()) {
        let mut out = vec![0.0; v.len()];
        let _ = l.prox_into(&v, &y, g, &mut out);
        let _ = l.prox_conjugate_into(&v, &y, g, &mut out);
        let _ = l.value(&v, &y);
        let _ = l.conjugate(&v, &y);
    }

    #[test]
    fn prop_graph_and_matrix_constructors_never_panic(
        n in 0usize..6,
        edges in proptest::collection::vec((0usize..8, 0usize..8), 0..8),
        w in proptest::collection::vec(wild(), 0..8),
        sum in any::<bool>(),
        data in proptest::collection::vec(wild(), 0..12),
        rows in 0usize..5, cols in 0usize..5,
        ptr in proptest::collection::vec(-2i64..12, 0..6),
        idx in proptest::collection::vec(-2i64..8, 0..12),
    ) {
        let e: Vec<[usize; 2]> = edges.iter().map(|&(u, v)| [u, v]).collect();
        let dup = if sum { DuplicateEdges::Sum } else { DuplicateEdges::Reject };
        let _ = WeightedGraph::from_edges(n, &e, Some(&w), dup);
        let _ = WeightedGraph::new(n, &e, None);
        let uptr: Vec<usize> = ptr.iter().map(|&p| p.unsigned_abs() as usize).collect();
        let uidx: Vec<usize> = idx.iter().map(|&p| p.unsigned_abs() as usize).collect();
        let _ = WeightedGraph::from_csr(n, &uptr, &uidx, &data[..data.len().min(uidx.len())]);
        let _ = DenseMatrix::new(&data, rows, cols);
        let _ = DenseMatrix::new(&data, usize::MAX, 3);
        let _ = CsrOperator::new(&ptr, &idx, &data[..data.len().min(idx.len())], rows, cols);
        let groups: Vec<Vec<usize>> = e.iter().map(|&[u, v]| vec![u, v]).collect();
        let _ = LatentGroups::new(n, &groups, Some(&w));
    }

    #[test]
    fn prop_solvers_never_panic(
        l in loss(), s in solver(),
        a in proptest::collection::vec(mostly(), 6),
        y in prop_oneof![6 => proptest::collection::vec(mostly(), 2), 1 => proptest::collection::vec(mostly(), 0..4)],
        lam in prop_oneof![5 => 0.01f64..3.0, 1 => wild()],
        alpha in prop_oneof![5 => 0.0f64..3.0, 1 => wild()], tol in prop_oneof![3 => Just(1e-6), 1 => wild()],
        max_iter in 0usize..40, n_edges in 0usize..4, weight in mostly(),
        op_norm in proptest::option::of(wild()),
        lagrangian in any::<bool>(),
    ) {
        let edges: [[usize; 2]; 3] = [[0, 1], [1, 2], [0, 2]];
        let ctl = RunControl::new();
        let Ok(mat) = DenseMatrix::new(&a, 2, 3) else { return Ok(()) };
        let Ok(g) = WeightedGraph::new(3, &edges[..n_edges], Some(&vec![weight; n_edges])) else {
            return Ok(())
        };
        let p = RecoveryParams::new(lam, alpha)
            .loss(l)
            .solver(s)
            .tol(tol)
            .max_iter(max_iter)
            .op_norm(op_norm)
            .penalty_form(if lagrangian { PenaltyForm::Lagrangian } else { PenaltyForm::Budget })
            .budget(Budget::new().max_nodes(Some(500)));
        if let Ok(v) = p.check() {
            if let Ok(r) = v.solve(&mat, &y, &g, None, &ctl) {
                prop_assert!(r.x.iter().all(|v| v.is_finite()));
                SOLVED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            let _ = v.solve_lasso(&mat, &y, None, &ctl);
            let groups = LatentGroups::neighbourhoods(&g).unwrap();
            let _ = v.solve_latent_group(&mat, &y, &groups, None, &ctl);
            let _ = v.solve_path(&mat, &y, &g, &[lam, 0.5 * lam], &ctl);
        }
        let _ = lambda_max(&mat, &y, l, Model::Graph { graph: &g, alpha });
        let _ = penalty(&g, &a[..3], alpha, 1e-6, 200);
        if let Ok(ip) = IhtParams::new(max_iter % 4).max_iter(5).check() {
            let _ = ip.solve(&mat, &y, &g, None, &ctl);
        }
    }
}
