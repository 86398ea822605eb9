//! Property tests: transport optimality certificates, projection KKT, invariances, and that no
//! public entry point panics on arbitrary input.

use graphsparse_base::RunControl;
use graphsparse_graph::GraphDatabase;
use graphsparse_ot::{
    Check, Coarsening, CostRule, Directed, LipschitzValidOptions, Method, OtGraph, OtcParams,
    StepMode, TargetSize, TransportValidParams, WlParams, coarsen, compress_collection,
    degree_prior, graph_ot_distance, inner_value, project_lipschitz, round_top_k, solve_otc,
    solve_transport, wl_subtree_features,
};
use proptest::prelude::*;

/// `(n, edges, costs, directed mask)`.
type RawGraph = (usize, Vec<[u32; 2]>, Vec<f64>, Vec<bool>);

/// A random graph: `n` vertices, edges as pairs, costs in [0.01, 2], a directed mask.
fn graph() -> impl Strategy<Value = RawGraph> {
    (1usize..10).prop_flat_map(|n| {
        let e = (0..n as u32, 0..n as u32).prop_map(|(a, b)| [a, b]);
        proptest::collection::vec((e, 0.01f64..2.0, any::<bool>()), 0..20).prop_map(move |es| {
            let (edges, rest): (Vec<_>, Vec<_>) =
                es.into_iter().map(|(e, c, d)| (e, (c, d))).unzip();
            let (costs, mask) = rest.into_iter().unzip();
            (n, edges, costs, mask)
        })
    })
}

fn distribution(n: usize) -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(0.0f64..1.0, n).prop_map(|v| {
        let s: f64 = v.iter().sum();
        if s > 0.0 {
            v.iter().map(|x| x / s).collect()
        } else {
            vec![1.0 / v.len() as f64; v.len()]
        }
    })
}

fn with_two_distributions() -> impl Strategy<Value = (RawGraph, Vec<f64>, Vec<f64>)> {
    graph().prop_flat_map(|g| {
        let n = g.0;
        (Just(g), distribution(n), distribution(n))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Primal feasibility + dual feasibility + equal values = optimality (weak duality).
    #[test]
    fn prop_transport_certifies_its_optimum(((n, edges, costs, mask), a, b) in with_two_distributions(), mixed in any::<bool>()) {
        let dir = if mixed { Directed::Mask(&mask) } else { Directed::None };
        let g = OtGraph::new(n, &edges, &costs, dir).unwrap();
        let s = solve_transport(&g, &a, &b, &TransportValidParams::default(), &RunControl::new()).unwrap();
        if s.feasible {
            let mut inflow = vec![0.0; n];
            g.apply_ft(&s.flow, &mut inflow).unwrap();
            for v in 0..n {
                prop_assert!((inflow[v] - (b[v] - a[v])).abs() < 1e-12);
            }
            let mut ft = vec![0.0; g.n_edges()];
            g.apply_f(&s.potentials, &mut ft).unwrap();
            let mut primal = 0.0;
            for (e, &fe) in ft.iter().enumerate() {
                let c = g.cost()[e];
                prop_assert!(fe <= c + 1e-12);
                if g.directed()[e] {
                    prop_assert!(s.flow[e] >= 0.0);
                } else {
                    prop_assert!(fe >= -c - 1e-12);
                }
                primal += c * s.flow[e].abs();
            }
            prop_assert!((primal - s.value).abs() < 1e-12 * (1.0 + s.value));
            prop_assert!((s.dual_value - s.value).abs() < 1e-11 * (1.0 + s.value));
        } else {
            prop_assert_eq!(s.value, f64::INFINITY);
            if !mixed {
                // undirected: infeasible exactly when some component's masses differ
                let (comp, k) = g.components();
                let mut diff = vec![0.0; k];
                for v in 0..n {
                    diff[comp[v] as usize] += b[v] - a[v];
                }
                prop_assert!(diff.iter().any(|d| d.abs() > 1e-9));
            }
        }
    }

    /// Undirected results do not depend on how each edge is written.
    #[test]
    fn prop_transport_orientation_invariant(((n, edges, costs, _), a, b) in with_two_distributions()) {
        let g = OtGraph::undirected(n, &edges, &costs).unwrap();
        let flipped: Vec<[u32; 2]> = edges.iter().map(|&[u, v]| [v, u]).collect();
        let h = OtGraph::undirected(n, &flipped, &costs).unwrap();
        let (x, y) = (graph_ot_distance(&g, &a, &b).unwrap(), graph_ot_distance(&h, &a, &b).unwrap());
        prop_assert!(x == y || (x - y).abs() < 1e-12 * (1.0 + x));
    }

    /// Proj_T: KKT, idempotence, non-expansiveness, shift equivariance; Hildreth = FDPG.
    #[test]
    fn prop_lipschitz_projection((n, edges, costs, mask) in graph(), mixed in any::<bool>(), seed in 0u64..1000) {
        let dir = if mixed { Directed::Mask(&mask) } else { Directed::None };
        let g = OtGraph::new(n, &edges, &costs, dir).unwrap();
        let mut x = seed as f64 + 0.5;
        let mut rnd = || { x = (x * 16807.0) % 2147483647.0; x / 2147483647.0 * 4.0 - 2.0 };
        let y: Vec<f64> = (0..n).map(|_| rnd()).collect();
        let z: Vec<f64> = (0..n).map(|_| rnd()).collect();
        let opts = LipschitzValidOptions::default();
        let (t, mu, info) = project_lipschitz(&g, &y, &opts).unwrap();
        prop_assert!(info.converged);
        let mut ft = vec![0.0; g.n_edges()];
        g.apply_f(&t, &mut ft).unwrap();
        for e in 0..g.n_edges() {
            let c = g.cost()[e];
            prop_assert!(ft[e] <= c + 1e-12);
            if !g.directed()[e] { prop_assert!(ft[e] >= -c - 1e-12); } else { prop_assert!(mu[e] >= 0.0); }
            if mu[e] > 0.0 { prop_assert!((ft[e] - c).abs() < 1e-9); }
            if mu[e] < 0.0 { prop_assert!((ft[e] + c).abs() < 1e-9); }
        }
        let (t2, _, _) = project_lipschitz(&g, &t, &opts).unwrap();
        for v in 0..n { prop_assert!((t2[v] - t[v]).abs() < 1e-9); }
        let (tz, _, _) = project_lipschitz(&g, &z, &opts).unwrap();
        let d_in: f64 = y.iter().zip(&z).map(|(a, b)| (a - b).powi(2)).sum();
        let d_out: f64 = t.iter().zip(&tz).map(|(a, b)| (a - b).powi(2)).sum();
        prop_assert!(d_out <= d_in + 1e-12);
        let shifted: Vec<f64> = y.iter().map(|v| v + 0.7).collect();
        let (ts, _, _) = project_lipschitz(&g, &shifted, &opts).unwrap();
        for v in 0..n { prop_assert!((ts[v] - t[v] - 0.7).abs() < 1e-9); }
        let (tf, _, fi) = project_lipschitz(&g, &y, &LipschitzValidOptions::fdpg()).unwrap();
        if fi.converged {
            for v in 0..n { prop_assert!((tf[v] - t[v]).abs() < 1e-9); }
        }
    }

    /// OTC output: |S| = min(k, n), ε̂ in the capped simplex, and a relabelling of a tie-free
    /// instance relabels the result.
    #[test]
    fn prop_otc_output((n, edges, costs, _) in graph(), k in 1usize..12, stable in any::<bool>()) {
        let g = OtGraph::undirected(n, &edges, &costs).unwrap();
        let rho0 = degree_prior(&g);
        let mode = if stable { StepMode::Stable } else { StepMode::Paper };
        let p = OtcParams::new().step_mode(mode).check().unwrap();
        let sol = solve_otc(&g, &rho0, k, &p, &RunControl::new()).unwrap();
        prop_assert!(sol.vertices.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(sol.vertices.iter().all(|&v| (v as usize) < n));
        let integral = sol.eps_hat.iter().all(|&e| e.abs() <= 1e-9 || (e - 1.0).abs() <= 1e-9);
        if !integral { prop_assert_eq!(sol.vertices.len(), k.min(n)); }
        prop_assert!(sol.eps_hat.iter().all(|&e| (-1e-12..=1.0 + 1e-12).contains(&e)));
        prop_assert!(sol.eps_hat.iter().sum::<f64>() <= k as f64 + 1e-9);
        // reversing the vertex order
        let rev: Vec<[u32; 2]> = g.tail().iter().zip(g.head()).map(|(&a, &b)| [n as u32 - 1 - a, n as u32 - 1 - b]).collect();
        let h = OtGraph::undirected(n, &rev, g.cost()).unwrap();
        let rho_h = degree_prior(&h);
        let sol_h = solve_otc(&h, &rho_h, k, &p, &RunControl::new()).unwrap();
        for v in 0..n {
            prop_assert!((sol_h.eps_hat[n - 1 - v] - sol.eps_hat[v]).abs() < 1e-9);
        }
        let keys: Vec<i64> = sol.eps_hat.iter().map(|e| (e * 1e10).round() as i64).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == keys.len() && k < n {
            let mut mapped: Vec<u32> = sol.vertices.iter().map(|&v| n as u32 - 1 - v).collect();
            mapped.sort_unstable();
            prop_assert_eq!(mapped, sol_h.vertices);
        }
    }

    /// REC with unlimited levels meets the target on connected graphs; one level never
    /// overshoots it.
    #[test]
    fn prop_rec_target(n in 2usize..30, extra in proptest::collection::vec((0u32..30, 0u32..30), 0..30), seed in 0u64..100, k in 1usize..30) {
        let mut edges: Vec<[u32; 2]> = (1..n as u32).map(|v| [v - 1, v]).collect();
        edges.extend(extra.iter().filter(|(a, b)| (*a as usize) < n && (*b as usize) < n).map(|&(a, b)| [a, b]));
        let c = coarsen(n, &edges, k, Coarsening::Rec { seed }, 0, None).unwrap();
        prop_assert_eq!(c.n_coarse, k.min(n));
        let one = coarsen(n, &edges, k, Coarsening::Rec { seed }, 0, Some(1)).unwrap();
        prop_assert!(one.n_coarse >= k.min(n) && one.n_coarse >= n.div_ceil(2));
    }

    /// No public entry point panics on arbitrary input.
    #[test]
    fn prop_never_panics(
        n in 0usize..8,
        edges in proptest::collection::vec((0u32..10, 0u32..10), 0..12),
        vals in proptest::collection::vec(prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(-1.0), Just(0.0), Just(1e308), Just(5e-324), -2.0f64..2.0], 0..12),
        k in 0usize..10,
        dir in 0u8..3,
    ) {
        let edges: Vec<[u32; 2]> = edges.iter().map(|&(a, b)| [a, b]).collect();
        let mask: Vec<bool> = (0..vals.len()).map(|i| i % 2 == 0).collect();
        let d = match dir { 0 => Directed::None, 1 => Directed::All, _ => Directed::Mask(&mask) };
        let costs: Vec<f64> = (0..edges.len()).map(|i| vals.get(i).copied().unwrap_or(1.0)).collect();
        let _ = OtGraph::new(n, &edges, &vals, d);
        if let Ok(g) = OtGraph::new(n, &edges, &costs, d) {
            let rho: Vec<f64> = (0..n).map(|i| vals.get(i).copied().unwrap_or(0.1)).collect();
            let _ = graph_ot_distance(&g, &rho, &degree_prior(&g));
            let _ = graph_ot_distance(&g, &degree_prior(&g), &degree_prior(&g));
            let _ = solve_otc(&g, &rho, k, &OtcParams::new().check().unwrap(), &RunControl::new());
            let _ = solve_otc(&g, &degree_prior(&g), k, &OtcParams::new().check().unwrap(), &RunControl::new());
            let _ = inner_value(&g, &degree_prior(&g), &rho, 1.0, 1e-6, 50);
            let _ = project_lipschitz(&g, &rho, &LipschitzValidOptions::default());
            let _ = round_top_k(&rho, &rho, k);
            let _ = graphsparse_ot::phi(&rho, &rho, 0.0, &costs, 1.0);
        }
        let _ = coarsen(n, &edges, k, Coarsening::HeavyEdge, 0, None);
        let _ = coarsen(n, &edges, k, Coarsening::AlgebraicDistance { seed: 1 }, 0, None);
        let _ = coarsen(n, &edges, k, Coarsening::Affinity { seed: 1 }, 0, None);
        let _ = OtcParams::new().lambda(vals.first().copied().unwrap_or(1.0)).n_iter(k).check();
        // a database from the same edges, when they form one
        let labels: Vec<u32> = (0..n as u32).map(|v| v % 3).collect();
        if let Ok(db) = GraphDatabase::new(vec![0, n], labels, vec![0, edges.len()], edges.clone(), vec![0; edges.len()]) {
            let ctl = RunControl::new();
            for m in [
                Method::Otc { params: OtcParams::new().check().unwrap(), costs: CostRule::Labels { same: vals.first().copied().unwrap_or(0.01), different: 0.02 } },
                Method::Coarsen { method: Coarsening::Rec { seed: 1 }, max_levels: None },
            ] {
                let _ = compress_collection(&db, &m, TargetSize::Fixed(k), true, &ctl);
                let _ = compress_collection(&db, &m, TargetSize::Ratio(vals.first().copied().unwrap_or(0.5)), false, &ctl);
            }
            if let Ok(p) = WlParams::new().n_iter(k).check() {
                let _ = wl_subtree_features(&db, &p, &ctl);
            }
        }
    }
}
