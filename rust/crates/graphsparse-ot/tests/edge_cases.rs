//! Spec §11 items 6 and 15: gradients against central differences, and the edge cases of OTC
//! (k ≥ n, k = 1, no edges, isolated vertices, disconnected graphs, a single directed edge).

use graphsparse_base::{InputError, RunControl};
use graphsparse_ot::{
    Check, Directed, OtError, OtGraph, OtcParams, StepMode, degree_prior, grad_phi, phi, solve_otc,
};

fn otc(g: &OtGraph, rho0: &[f64], k: usize) -> graphsparse_ot::OtcSolution {
    solve_otc(
        g,
        rho0,
        k,
        &OtcParams::new().check().unwrap(),
        &RunControl::new(),
    )
    .unwrap()
}

#[test]
fn gradient_matches_central_differences_away_from_the_kink() {
    let eps = [0.3, 0.9, 0.0, 0.55, 1.0];
    let t = [-0.41, 0.12, -0.73, -0.05, -0.3];
    let zeta = -0.2;
    let rho0 = [0.1, 0.3, 0.2, 0.25, 0.15];
    for lambda in [0.5, 1.0, 3.0] {
        let (mut ge, mut gt) = ([0.0; 5], [0.0; 5]);
        let gz = grad_phi(&eps, &t, zeta, &rho0, lambda, &mut ge, &mut gt).unwrap();
        let f = |e: &[f64], t: &[f64], z: f64| phi(e, t, z, &rho0, lambda).unwrap();
        let h = 1e-6;
        for v in 0..5 {
            // no t(v) + ζ is within h of 0, so Φ is smooth on every stencil
            assert!((t[v] + zeta).abs() > 10.0 * h);
            let (mut ep, mut em) = (eps, eps);
            ep[v] += h;
            em[v] -= h;
            let fd = (f(&ep, &t, zeta) - f(&em, &t, zeta)) / (2.0 * h);
            assert!((fd - ge[v]).abs() < 1e-8, "∂ε[{v}]: {fd} vs {}", ge[v]);
            let (mut tp, mut tm) = (t, t);
            tp[v] += h;
            tm[v] -= h;
            let fd = (f(&eps, &tp, zeta) - f(&eps, &tm, zeta)) / (2.0 * h);
            assert!((fd - gt[v]).abs() < 1e-8, "∂t[{v}]: {fd} vs {}", gt[v]);
        }
        let fd = (f(&eps, &t, zeta + h) - f(&eps, &t, zeta - h)) / (2.0 * h);
        assert!((fd - gz).abs() < 1e-8);
        // the (t, ζ) gradient is exactly the primal residual ρ̂1 − ρ0, Σ ρ̂1 − 1
        let rho1: Vec<f64> = (0..5)
            .map(|v| eps[v] * (-(t[v] + zeta)).max(0.0) / lambda)
            .collect();
        for v in 0..5 {
            assert_eq!(gt[v], rho1[v] - rho0[v]);
        }
        assert!((gz - (rho1.iter().sum::<f64>() - 1.0)).abs() < 1e-15);
    }
    let mut short = [0.0; 4];
    assert!(matches!(
        grad_phi(&eps, &t, zeta, &rho0, 1.0, &mut short, &mut [0.0; 5]),
        Err(OtError::Input(InputError::LengthMismatch { arg: "ge", .. }))
    ));
    assert!(phi(&eps, &t, f64::NAN, &rho0, 1.0).is_err());
    assert!(phi(&eps, &t, zeta, &rho0, 0.0).is_err());
}

#[test]
fn k_at_least_n_returns_the_graph_and_k_zero_is_an_error() {
    let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02]).unwrap();
    let rho0 = degree_prior(&g);
    for k in [3, 4, 1000] {
        let s = otc(&g, &rho0, k);
        assert_eq!((s.vertices, s.n_iter), (vec![0, 1, 2], 0));
    }
    let err = solve_otc(
        &g,
        &rho0,
        0,
        &OtcParams::new().check().unwrap(),
        &RunControl::new(),
    )
    .unwrap_err();
    assert!(err.to_string().contains('k'), "{err}");
}

#[test]
fn k_one_keeps_one_vertex() {
    let edges: Vec<[u32; 2]> = (0..9).map(|i| [i, i + 1]).collect();
    let g = OtGraph::undirected(10, &edges, &[0.01; 9]).unwrap();
    let s = otc(&g, &degree_prior(&g), 1);
    assert_eq!(s.vertices.len(), 1);
    assert!((s.eps_hat.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn graph_without_edges_uses_the_uniform_prior_and_keeps_the_first_k() {
    let g = OtGraph::undirected(5, &[], &[]).unwrap();
    let rho0 = degree_prior(&g);
    assert_eq!(rho0, vec![0.2; 5]);
    let s = otc(&g, &rho0, 2);
    // every vertex is alike: the smallest indices win the tie
    assert_eq!(s.vertices, vec![0, 1]);
    assert!(s.projections_converged && s.max_projection_iterations == 0);
}

#[test]
fn isolated_vertices_have_zero_prior_and_are_dropped_first() {
    // a triangle plus two isolated vertices
    let g = OtGraph::undirected(5, &[[0, 1], [1, 2], [2, 0]], &[0.01; 3]).unwrap();
    let rho0 = degree_prior(&g);
    assert_eq!(&rho0[3..], &[0.0, 0.0]);
    let s = otc(&g, &rho0, 3);
    assert_eq!(s.vertices, vec![0, 1, 2]);
    assert!(s.eps_hat.iter().all(|e| e.is_finite()));
}

#[test]
fn disconnected_graphs_run_and_may_drop_a_component() {
    // two triangles, the second with expensive edges
    let edges = [[0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3]];
    let costs = [0.01, 0.01, 0.01, 0.02, 0.02, 0.02];
    let g = OtGraph::undirected(6, &edges, &costs).unwrap();
    let rho0 = degree_prior(&g);
    for mode in [StepMode::Paper, StepMode::Stable] {
        let p = OtcParams::new().step_mode(mode).check().unwrap();
        let s = solve_otc(&g, &rho0, 2, &p, &RunControl::new()).unwrap();
        assert_eq!(s.vertices.len(), 2);
        assert!(s.projections_converged);
    }
}

#[test]
fn a_single_directed_edge() {
    let g = OtGraph::new(2, &[[0, 1]], &[0.01], Directed::All).unwrap();
    let rho0 = degree_prior(&g);
    assert_eq!(rho0, vec![0.5, 0.5]);
    let s = otc(&g, &rho0, 1);
    assert_eq!(s.vertices.len(), 1);
    assert!(s.projections_converged);
    // the directed constraint t(1) − t(0) ≤ c holds for the averaged potentials
    assert!(s.t_bar[1] - s.t_bar[0] <= 0.01 + 1e-12);
}

#[test]
fn bad_priors_are_named_errors() {
    let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02]).unwrap();
    let p = OtcParams::new().check().unwrap();
    let ctl = RunControl::new();
    for (rho0, arg) in [
        (vec![0.5, 0.5], "rho0"),
        (vec![0.5, f64::NAN, 0.5], "rho0"),
        (vec![1.5, -0.5, 0.0], "rho0"),
        (vec![0.3, 0.3, 0.3], "rho0"),
    ] {
        let err = solve_otc(&g, &rho0, 2, &p, &ctl).unwrap_err();
        assert!(err.to_string().contains(arg), "{err}");
    }
}

#[test]
fn steps_that_overflow_are_a_named_error_not_a_panic() {
    // valid parameters whose iterates leave the finite range: 1/λ overflows, or a step of
    // 1e308 does; the paper's defaults on the same graph stay finite
    let g = OtGraph::undirected(4, &[[0, 1], [1, 2], [2, 3]], &[0.01, 0.02, 0.01]).unwrap();
    let rho0 = degree_prior(&g);
    let ctl = RunControl::new();
    for params in [
        OtcParams::new().lambda(5e-324),
        OtcParams::new().beta(1e308),
        OtcParams::new().gamma(1e308),
    ] {
        let err = solve_otc(&g, &rho0, 2, &params.check().unwrap(), &ctl).unwrap_err();
        assert!(matches!(err, OtError::Diverged { .. }), "{err}");
        assert!(err.to_string().contains("lambda"), "{err}");
    }
    let sol = otc(&g, &rho0, 2);
    assert_eq!(sol.vertices.len(), 2);
    assert!(sol.rho1_hat.iter().all(|v| v.is_finite()));
}
