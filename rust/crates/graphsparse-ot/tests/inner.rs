//! The inner problem V(ε): exact values of spec §10 and §8.4, degeneracy (§3.7), the
//! certificate and McShane extension (§6.4), the saddle gap (§5.3).

mod common;

use common::{figure2_tree, g1, g2, g3, indicator};
use graphsparse_base::RunControl;
use graphsparse_ot::{
    Check, OtGraph, OtcParams, StepMode, certificate, degree_prior, inner_value, saddle_gap,
    solve_otc,
};

fn v_of(g: &OtGraph, eps: &[f64]) -> f64 {
    let s = inner_value(g, &degree_prior(g), eps, 1.0, 3e-9, 100_000).unwrap();
    assert!(
        s.converged,
        "bracket [{}, {}] after {}",
        s.lower, s.upper, s.n_iter
    );
    s.lower
}

fn v_set(g: &OtGraph, s: &[u32]) -> f64 {
    v_of(g, &indicator(g.n_vertices(), s))
}

#[test]
fn exact_values_of_the_golden_graphs() {
    let g = g1();
    assert!((v_set(&g, &[1, 2]) - 0.2574).abs() < 1e-9);
    assert!((v_set(&g, &[0, 1]) - 0.257475).abs() < 1e-9);
    assert!((v_set(&g, &[0, 2]) - 0.257475).abs() < 1e-9);
    let g = g2();
    assert!((v_set(&g, &[0, 2, 4]) - 0.173308333333).abs() < 1e-9);
    assert!((v_set(&g, &[0, 1, 2]) - 0.174975).abs() < 1e-9);
    assert!((v_set(&g, &[0, 1, 5]) - 0.1799).abs() < 1e-9);
    assert!((v_of(&g, &[1.0; 6]) - 0.0849).abs() < 1e-9);
    let g = g3();
    assert!((v_set(&g, &[2, 3, 4]) - 0.175957142857).abs() < 1e-9);
}

#[test]
fn exact_values_of_the_figure2_tree() {
    let g = figure2_tree();
    let all: Vec<u32> = (0..21).collect();
    let without = |x: u32| -> Vec<u32> { all.iter().copied().filter(|&v| v != x).collect() };
    assert!((v_set(&g, &all) - 0.04125).abs() < 1e-9);
    assert!((v_set(&g, &[0, 1, 2, 3, 4]) - 0.24625).abs() < 1e-9);
    assert!((v_set(&g, &without(5)) - 7.0 / 150.0).abs() < 1e-9);
    assert!((v_set(&g, &without(9)) - 0.04671875).abs() < 1e-9);
    assert!((v_set(&g, &without(13)) - 0.046875).abs() < 1e-9);
    assert!((v_set(&g, &without(8)) - 0.056640625).abs() < 1e-9);
    assert!((v_set(&g, &without(20)) - 0.056875).abs() < 1e-9);
}

#[test]
fn degeneracy_when_k_max_rho0_at_most_one() {
    for (g, k) in [(g1(), 2usize), (g2(), 3), (g3(), 3)] {
        let rho0 = degree_prior(&g);
        let max = rho0.iter().copied().fold(0.0_f64, f64::max);
        assert!(k as f64 * max <= 1.0);
        let eps: Vec<f64> = rho0.iter().map(|r| k as f64 * r).collect();
        let floor = 1.0 / (2.0 * k as f64);
        assert!((v_of(&g, &eps) - floor).abs() < 1e-12);
        // random feasible ε never go below λ/(2k)
        let mut x = 0.123_f64;
        for _ in 0..5 {
            let e: Vec<f64> = (0..g.n_vertices())
                .map(|_| {
                    x = (x * 9301.0 + 49297.0) % 233280.0 / 233280.0;
                    x * k as f64 / g.n_vertices() as f64
                })
                .collect();
            assert!(v_of(&g, &e) >= floor - 1e-10);
        }
    }
}

#[test]
fn certificate_never_fires_and_mcshane_holds() {
    for (g, s) in [
        (g1(), vec![0u32, 1]),
        (g2(), vec![0, 1, 2]),
        (g3(), vec![2, 3, 4]),
    ] {
        let rho0 = degree_prior(&g);
        let c = certificate(&g, &rho0, &s, s.len(), 1.0).unwrap();
        assert!(c.margin <= 0.0);
        let rho1: Vec<f64> = c
            .signal
            .iter()
            .enumerate()
            .map(|(v, x)| if s.contains(&(v as u32)) { *x } else { 0.0 })
            .collect();
        if s.iter().all(|&v| rho1[v as usize] > 0.0) {
            assert!(c.margin < 0.0);
        }
        // McShane: off S, t(v) = max_{u ∈ S} (t(u) − d_c(u, v))
        let d = all_pairs(&g);
        for (v, &tv) in c.inner.t.iter().enumerate() {
            if s.contains(&(v as u32)) {
                continue;
            }
            let ext = s
                .iter()
                .map(|&u| c.inner.t[u as usize] - d[u as usize][v])
                .fold(f64::NEG_INFINITY, f64::max);
            assert!((tv - ext).abs() < 1e-8, "vertex {v}: {tv} vs {ext}");
        }
    }
}

/// Floyd–Warshall shortest paths (tests only).
fn all_pairs(g: &OtGraph) -> Vec<Vec<f64>> {
    let n = g.n_vertices();
    let mut d = vec![vec![f64::INFINITY; n]; n];
    for (v, row) in d.iter_mut().enumerate() {
        row[v] = 0.0;
    }
    for e in 0..g.n_edges() {
        let (a, b, c) = (g.tail()[e] as usize, g.head()[e] as usize, g.cost()[e]);
        d[a][b] = d[a][b].min(c);
        d[b][a] = d[b][a].min(c);
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if d[i][k] + d[k][j] < d[i][j] {
                    d[i][j] = d[i][k] + d[k][j];
                }
            }
        }
    }
    d
}

#[test]
fn objective_does_not_increase_with_t_on_golden_graphs() {
    for (g, k) in [(g1(), 2usize), (g2(), 3), (g3(), 3)] {
        let rho0 = degree_prior(&g);
        let v0 = v_of(&g, &vec![k as f64 / g.n_vertices() as f64; g.n_vertices()]);
        let mut prev = v0;
        for t in [5, 25, 100, 400] {
            let p = OtcParams::new().n_iter(t).check().unwrap();
            let sol = solve_otc(&g, &rho0, k, &p, &RunControl::new()).unwrap();
            let v = v_of(&g, &sol.eps_hat);
            assert!(v <= prev + 1e-12, "T = {t}: {v} > {prev}");
            prev = v;
        }
    }
}

#[test]
fn stable_long_runs_converge_to_k_rho0_and_the_gap_shrinks() {
    let g = g2();
    let rho0 = degree_prior(&g);
    let k = 3;
    let mut gaps = Vec::new();
    for t in [100, 400, 1600] {
        let p = OtcParams::new()
            .alpha(100.0)
            .step_mode(StepMode::Stable)
            .n_iter(t)
            .check()
            .unwrap();
        let sol = solve_otc(&g, &rho0, k, &p, &RunControl::new()).unwrap();
        let v = inner_value(&g, &rho0, &sol.eps_hat, 1.0, 1e-12, 100_000)
            .unwrap()
            .lower;
        gaps.push(saddle_gap(v, &rho0, k, &sol.t_bar, sol.zeta_bar, 1.0));
        if t == 1600 {
            let dev = sol
                .eps_hat
                .iter()
                .zip(&rho0)
                .map(|(e, r)| (e - 3.0 * r).abs())
                .fold(0.0, f64::max);
            assert!(dev < 5e-3, "‖ε̄ − kρ0‖∞ = {dev}");
            for (t, r) in sol.t_bar.iter().zip(&rho0) {
                if *r > 0.0 {
                    assert!((t + sol.zeta_bar + 1.0 / 3.0).abs() < 2e-2);
                }
            }
        }
    }
    assert!(gaps[0] >= 0.0 && gaps[2] < gaps[0] / 4.0, "{gaps:?}");
}
