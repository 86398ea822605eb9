//! The penalty `Ψ_α` (spec §1.4): closed forms, an independent two-vertex reference, and the
//! properties P2, P5, P6, P8, monotonicity and convexity through the inner solver.

mod common;

use common::Rng;
use graphsparse_recovery::{DuplicateEdges, GraphDiff, WeightedGraph, penalty};

const TOL: f64 = 1e-10;
const MAX_ITER: usize = 200_000;

fn psi(g: &WeightedGraph, x: &[f64], alpha: f64) -> f64 {
    let p = penalty(g, x, alpha, TOL, MAX_ITER).unwrap();
    assert!(p.converged, "inner solve did not converge (gap {})", p.gap);
    // the returned σ is feasible and attains the value
    assert!(g.weighted_total_variation(&p.sigma).unwrap() <= alpha * (1.0 + 1e-12) + 1e-300);
    let direct: f64 = x
        .iter()
        .zip(&p.sigma)
        .map(|(&v, &s)| graphsparse_recovery::perspective(v, s))
        .sum();
    assert!((direct - p.value).abs() <= 1e-9 * p.value.max(1e-300));
    p.value
}

fn l1(x: &[f64]) -> f64 {
    x.iter().map(|v| v.abs()).sum()
}

/// `Σ_c √|c| ‖x_c‖₂` over the components of `g`.
fn group_norm(g: &WeightedGraph, x: &[f64]) -> f64 {
    let mut sq = vec![0.0; g.n_components()];
    for (&c, v) in g.components().iter().zip(x) {
        sq[c as usize] += v * v;
    }
    sq.iter()
        .zip(g.component_sizes())
        .map(|(s, &n)| (f64::from(n) * s).sqrt())
        .sum()
}

fn path(n: usize) -> Vec<[usize; 2]> {
    (0..n - 1).map(|i| [i, i + 1]).collect()
}

fn complete(n: usize) -> Vec<[usize; 2]> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| [i, j]))
        .collect()
}

/// `Ψ_α` on one edge `{0, 1}` of weight `w`, by golden section on the active constraint.
fn two_vertex(x: [f64; 2], w: f64, alpha: f64) -> f64 {
    let (a0, a1) = (x[0].abs(), x[1].abs());
    if w * (a0 - a1).abs() <= alpha {
        return a0 + a1;
    }
    // the larger |x| takes the larger σ: σ_big = σ_small + α/w
    let (big, small) = if a0 >= a1 { (a0, a1) } else { (a1, a0) };
    let delta = alpha / w;
    let phi = graphsparse_recovery::perspective;
    let g = |s: f64| phi(big, s + delta) + phi(small, s);
    let (mut lo, mut hi) = (0.0f64, big + small + delta);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..300 {
        let (m1, m2) = (hi - r * (hi - lo), lo + r * (hi - lo));
        if g(m1) <= g(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    g(0.5 * (lo + hi))
}

#[test]
fn two_vertices_match_the_golden_section_reference() {
    let mut rng = Rng(11);
    for _ in 0..30 {
        let x = [4.0 * rng.normal(), 4.0 * rng.normal()];
        let w = 0.2 + 3.0 * rng.uniform();
        let tv = w * (x[0].abs() - x[1].abs()).abs();
        for frac in [0.0, 0.1, 0.5, 0.9, 1.0, 2.0] {
            let alpha = frac * tv;
            let g = WeightedGraph::new(2, &[[0, 1]], Some(&[w])).unwrap();
            let got = psi(&g, &x, alpha);
            let want = two_vertex(x, w, alpha);
            assert!(
                (got - want).abs() <= 1e-8 * want,
                "x={x:?} w={w} α={alpha}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn edgeless_graph_gives_l1_for_every_alpha() {
    let g = WeightedGraph::new(5, &[], None).unwrap();
    let x = [1.0, -2.0, 0.0, 0.5, 3.0];
    for alpha in [0.0, 0.1, 1.0, 1e6] {
        assert_eq!(psi(&g, &x, alpha), l1(&x));
    }
}

#[test]
fn alpha_zero_is_the_component_group_norm_and_the_solver_agrees_near_it() {
    let mut rng = Rng(5);
    let cases: Vec<(usize, Vec<[usize; 2]>)> = vec![
        (8, path(8)),
        (7, {
            let mut e = path(7);
            e.push([6, 0]);
            e
        }),
        (6, complete(6)),
        (9, vec![[0, 1], [1, 2], [3, 4], [5, 6], [6, 7], [7, 5]]), // with isolated vertex 8
    ];
    for (n, edges) in cases {
        let g = WeightedGraph::new(n, &edges, None).unwrap();
        let x = rng.normals(n);
        let zero = psi(&g, &x, 0.0);
        assert!((zero - group_norm(&g, &x)).abs() <= 1e-12 * zero);
        if g.n_components() == 1 {
            let l2 = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            assert!((zero - (n as f64).sqrt() * l2).abs() <= 1e-12 * zero);
        }
        // the inner solver at a tiny α approaches the closed form from below
        let near = psi(&g, &x, 1e-3);
        assert!(
            near <= zero * (1.0 + 1e-9) && near >= zero * (1.0 - 1e-2),
            "{near} vs {zero}"
        );
    }
}

#[test]
fn l1_exactly_at_and_above_the_total_variation_of_abs_x_and_more_below() {
    let mut rng = Rng(7);
    for trial in 0..5 {
        let n = 10;
        let mut edges = path(n);
        edges.push([0, 5]);
        edges.push([2, 8]);
        let w: Vec<f64> = (0..edges.len()).map(|_| 0.5 + rng.uniform()).collect();
        let g = WeightedGraph::new(n, &edges, Some(&w)).unwrap();
        let x = rng.normals(n);
        let abs: Vec<f64> = x.iter().map(|v| v.abs()).collect();
        let tv = g.weighted_total_variation(&abs).unwrap();
        assert_eq!(psi(&g, &x, tv), l1(&x));
        assert_eq!(psi(&g, &x, 2.0 * tv), l1(&x));
        let below = psi(&g, &x, 0.9 * tv);
        assert!(
            below > l1(&x) * (1.0 + 1e-9),
            "trial {trial}: {below} vs {}",
            l1(&x)
        );
        assert!(below < group_norm(&g, &x));
    }
}

#[test]
fn monotone_in_alpha_scaling_and_midpoint_convexity() {
    let mut rng = Rng(3);
    let n = 12;
    let mut edges = path(n);
    edges.extend([[0, 6], [3, 9], [1, 11]]);
    let g = WeightedGraph::new(n, &edges, None).unwrap();
    let x = rng.normals(n);
    let y = rng.normals(n);
    let alphas = [0.0, 0.3, 1.0, 2.0, 4.0, 8.0];
    let vals: Vec<f64> = alphas.iter().map(|&a| psi(&g, &x, a)).collect();
    for w in vals.windows(2) {
        assert!(w[1] <= w[0] * (1.0 + 1e-9), "{vals:?}");
    }
    // P6: Ψ_α(t x) = t Ψ_{α/t}(x)
    for t in [0.25, 3.0] {
        let tx: Vec<f64> = x.iter().map(|v| t * v).collect();
        let lhs = psi(&g, &tx, 2.0);
        let rhs = t * psi(&g, &x, 2.0 / t);
        assert!((lhs - rhs).abs() <= 1e-8 * lhs, "{lhs} vs {rhs}");
    }
    // P1: convexity at the midpoint
    let mid: Vec<f64> = x.iter().zip(&y).map(|(a, b)| 0.5 * (a + b)).collect();
    let alpha = 1.5;
    assert!(psi(&g, &mid, alpha) <= 0.5 * (psi(&g, &x, alpha) + psi(&g, &y, alpha)) + 1e-9);
    // P2 sandwich
    for &a in &alphas {
        let v = psi(&g, &x, a);
        assert!(v >= l1(&x) * (1.0 - 1e-12) && v <= group_norm(&g, &x) * (1.0 + 1e-12));
    }
}

#[test]
fn combinatorial_upper_bound_over_random_subgraphs() {
    // P8: for kept edges E, σ^G = per-component RMS; if ‖W D σ^G‖₁ ≤ α then
    // Ψ_α(x) ≤ Σ_c √|c| ‖x_c‖ over the components of (V, E)
    let mut rng = Rng(19);
    let n = 10;
    let mut edges = path(n);
    edges.extend([[0, 4], [2, 7], [5, 9]]);
    let g = WeightedGraph::new(n, &edges, None).unwrap();
    for _ in 0..20 {
        let x = rng.normals(n);
        let kept: Vec<[usize; 2]> = edges
            .iter()
            .copied()
            .filter(|_| rng.uniform() < 0.6)
            .collect();
        let sub = WeightedGraph::new(n, &kept, None).unwrap();
        let bound = group_norm(&sub, &x);
        let mut sq = vec![0.0; sub.n_components()];
        for (&c, v) in sub.components().iter().zip(&x) {
            sq[c as usize] += v * v;
        }
        let sigma: Vec<f64> = sub
            .components()
            .iter()
            .map(|&c| (sq[c as usize] / f64::from(sub.component_sizes()[c as usize])).sqrt())
            .collect();
        let alpha = g.weighted_total_variation(&sigma).unwrap();
        assert!(psi(&g, &x, alpha) <= bound * (1.0 + 1e-9));
    }
}

#[test]
fn a_duplicated_edge_equals_one_edge_with_the_summed_weight() {
    let x = [3.0, -1.0, 0.5, 2.0];
    let merged = WeightedGraph::from_edges(
        4,
        &[[0, 1], [1, 2], [2, 3], [1, 0]],
        Some(&[1.0, 2.0, 0.5, 1.5]),
        DuplicateEdges::Sum,
    )
    .unwrap();
    let single = WeightedGraph::new(4, &[[0, 1], [1, 2], [2, 3]], Some(&[2.5, 2.0, 0.5])).unwrap();
    // flipping an orientation changes nothing either
    let flipped = WeightedGraph::new(4, &[[1, 0], [2, 1], [2, 3]], Some(&[2.5, 2.0, 0.5])).unwrap();
    for alpha in [0.5, 2.0, 5.0] {
        let a = psi(&merged, &x, alpha);
        let b = psi(&single, &x, alpha);
        let c = psi(&flipped, &x, alpha);
        assert!((a - b).abs() <= 1e-9 * a && (a - c).abs() <= 1e-9 * a);
    }
}
