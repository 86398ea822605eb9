//! The golden values of the specification (§10), paper mode, to 1e-9.

use graphsparse_base::RunControl;
use graphsparse_ot::{
    Check, LipschitzValidOptions, OtGraph, OtcParams, OtcSolution, StepMode, degree_prior,
    grad_phi, project_lipschitz, solve_otc,
};

mod common;
use common::figure2_tree;

const TOL: f64 = 1e-9;

fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol,
            "entry {i}: got {g}, want {w}\n{got:?}"
        );
    }
}

fn run(g: &OtGraph, rho0: &[f64], k: usize, mode: StepMode) -> OtcSolution {
    let params = OtcParams::new()
        .step_mode(mode)
        .record_trace(true)
        .check()
        .unwrap();
    solve_otc(g, rho0, k, &params, &RunControl::new()).unwrap()
}

#[test]
fn g1_path_first_iteration_and_final() {
    let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02]).unwrap();
    let rho0 = degree_prior(&g);
    close(&rho0, &[0.25, 0.5, 0.25], 0.0);
    // iteration 0 from its parts
    let (mut ge, mut gt) = ([0.0; 3], [0.0; 3]);
    let gz = grad_phi(
        &[2.0 / 3.0; 3],
        &[0.0; 3],
        0.0,
        &rho0,
        1.0,
        &mut ge,
        &mut gt,
    )
    .unwrap();
    assert_eq!((ge, gt, gz), ([0.0; 3], [-0.25, -0.5, -0.25], -1.0));
    let y: Vec<f64> = gt.iter().map(|x| 0.1 * x).collect();
    let (t_h, mu, info) = project_lipschitz(&g, &y, &LipschitzValidOptions::default()).unwrap();
    assert!(info.converged);
    close(&t_h, &[-0.0325, -0.0425, -0.025], 1e-15);
    close(&mu, &[-0.0075, 0.0], 1e-15);
    let sol = run(&g, &rho0, 2, StepMode::Paper);
    assert!((sol.trace.zeta_hat[0] + 0.1).abs() < TOL);
    assert!((sol.trace.zeta[0] + 0.073333333333).abs() < TOL);
    assert_eq!(sol.n_iter, 26);
    close(
        &sol.eps_hat,
        &[0.666609294907, 0.672028386167, 0.661362318926],
        TOL,
    );
    assert_eq!(sol.vertices, vec![0, 1]);
    assert!(sol.projections_converged);
    assert!((sol.eps_hat.iter().sum::<f64>() - 2.0).abs() < 1e-12);
}

#[test]
fn g2_ring_with_pendant() {
    let edges = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 5]];
    let costs = [0.01, 0.02, 0.02, 0.01, 0.01, 0.02];
    let g = OtGraph::undirected(6, &edges, &costs).unwrap();
    let sol = run(&g, &degree_prior(&g), 3, StepMode::Paper);
    let e = 0.499980017401;
    close(
        &sol.eps_hat,
        &[0.503817791798, e, e, e, e, 0.496262138596],
        TOL,
    );
    assert_eq!(sol.vertices, vec![0, 1, 2]);
}

#[test]
fn g3_two_triangles() {
    let edges = [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 5], [5, 3]];
    let costs = [0.01, 0.01, 0.01, 0.02, 0.01, 0.02, 0.02];
    let g = OtGraph::undirected(6, &edges, &costs).unwrap();
    let sol = run(&g, &degree_prior(&g), 3, StepMode::Paper);
    close(
        &sol.eps_hat,
        &[
            0.498727017825,
            0.498727017825,
            0.502513275813,
            0.503673356317,
            0.499849059073,
            0.496510273147,
        ],
        TOL,
    );
    assert_eq!(sol.vertices, vec![2, 3, 4]);
}

#[test]
fn figure2_panel_d() {
    let g = figure2_tree();
    let sol = run(&g, &degree_prior(&g), 5, StepMode::Paper);
    assert_eq!(sol.vertices, vec![0, 1, 2, 3, 4]);
}

#[test]
fn stability_documentation_path40() {
    // spec §11 item 18: paper steps oscillate in ζ, stable steps do not
    let edges: Vec<[u32; 2]> = (0..39).map(|i| [i, i + 1]).collect();
    let g = OtGraph::undirected(40, &edges, &[0.01; 39]).unwrap();
    let rho0 = degree_prior(&g);
    let span = |s: &OtcSolution| {
        let z = &s.trace.zeta_hat[s.trace.zeta_hat.len() - 6..];
        let lo = z.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        hi - lo
    };
    let paper = run(&g, &rho0, 20, StepMode::Paper);
    let stable = run(&g, &rho0, 20, StepMode::Stable);
    assert!(span(&paper) > 0.08, "paper span {}", span(&paper));
    assert!(span(&stable) < 1e-3, "stable span {}", span(&stable));
}
