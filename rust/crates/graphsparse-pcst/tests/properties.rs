//! Property tests (spec checklist items 3, 5 and 6) on random multigraphs with many ties.

use graphsparse_graph::{EdgeRules, WeightedGraph};
use graphsparse_pcst::{Check, PcstParams, PcstSolution, PcstSolver, Pruning, solve_pcst};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Instance {
    edges: Vec<[usize; 2]>,
    prizes: Vec<f64>,
    costs: Vec<f64>,
    root: Option<usize>,
    g: usize,
}

/// Small multigraphs (self-loops, parallel edges, isolated nodes) with tie-heavy weights
/// (multiples of 1/4 including zeros) or continuous ones.
fn instance() -> impl Strategy<Value = Instance> {
    (1usize..=20, any::<bool>(), any::<bool>()).prop_flat_map(|(n, ties, rooted)| {
        let weight = move || -> BoxedStrategy<f64> {
            if ties {
                (0u32..12).prop_map(|k| f64::from(k) / 4.0).boxed()
            } else {
                (0.0f64..5.0).boxed()
            }
        };
        let edges = prop::collection::vec([0..n, 0..n], 0..=3 * n);
        (
            edges,
            prop::collection::vec(weight(), n),
            Just(weight()),
            0..n,
            0usize..5,
        )
            .prop_flat_map(move |(edges, prizes, weight, root, gi)| {
                let m = edges.len();
                let g = [0, 1, 2, 3, n][gi];
                prop::collection::vec(weight, m).prop_map(move |costs| Instance {
                    edges: edges.clone(),
                    prizes: prizes.clone(),
                    costs,
                    root: rooted.then_some(root),
                    g: if rooted { 1 } else { g },
                })
            })
    })
}

fn solve(inst: &Instance, pruning: Pruning) -> PcstSolution {
    let params = PcstParams::new()
        .root(inst.root)
        .num_clusters(inst.g)
        .pruning(pruning)
        .eps(1e-6)
        .check()
        .unwrap();
    solve_pcst(&inst.edges, &inst.prizes, &inst.costs, &params).unwrap()
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Number of trees of (nodes, edges) if it is a forest spanning exactly `nodes`, else None.
fn n_trees(inst: &Instance, sol: &PcstSolution) -> Option<usize> {
    let n = inst.prizes.len();
    let mut in_n = vec![false; n];
    for &v in &sol.nodes {
        in_n[v] = true;
    }
    let mut parent: Vec<usize> = (0..n).collect();
    for &e in &sol.edges {
        let [u, v] = inst.edges[e];
        if !in_n[u] || !in_n[v] {
            return None;
        }
        let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
        if ru == rv {
            return None; // cycle (or self-loop)
        }
        parent[ru] = rv;
    }
    Some(sol.nodes.len() - sol.edges.len())
}

fn objective(inst: &Instance, sol: &PcstSolution) -> f64 {
    let mut in_n = vec![false; inst.prizes.len()];
    for &v in &sol.nodes {
        in_n[v] = true;
    }
    let cost: f64 = sol.edges.iter().map(|&e| inst.costs[e]).sum();
    let missed: f64 = (0..inst.prizes.len())
        .filter(|&i| !in_n[i])
        .map(|i| inst.prizes[i])
        .sum();
    cost + missed
}

fn is_subsequence(sub: &[usize], seq: &[usize]) -> bool {
    let mut it = seq.iter();
    sub.iter().all(|x| it.any(|y| y == x))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn prop_pruned_output_is_a_forest_with_the_requested_trees(inst in instance()) {
        let n = inst.prizes.len();
        for pruning in [Pruning::Simple, Pruning::Gw, Pruning::Strong] {
            let sol = solve(&inst, pruning);
            prop_assert!(sol.nodes.windows(2).all(|w| w[0] < w[1]), "{pruning}: not ascending");
            let trees = n_trees(&inst, &sol);
            prop_assert!(trees.is_some(), "{pruning}: not a forest on its nodes: {sol:?}");
            match inst.root {
                Some(r) => {
                    prop_assert_eq!(trees, Some(1), "{}", pruning);
                    prop_assert!(sol.nodes.contains(&r));
                }
                None => prop_assert_eq!(trees, Some(inst.g.min(n)), "{}", pruning),
            }
        }
    }

    #[test]
    fn prop_pruned_edges_follow_the_merge_order(inst in instance()) {
        let merges = solve(&inst, Pruning::None);
        // the merge edges themselves form a forest and never hold a self-loop
        prop_assert!(merges.edges.iter().all(|&e| inst.edges[e][0] != inst.edges[e][1]));
        let mut unique = merges.nodes.clone();
        unique.sort_unstable();
        unique.dedup();
        prop_assert_eq!(unique.len(), merges.nodes.len());
        let reversed: Vec<usize> = merges.edges.iter().rev().copied().collect();
        let gw = solve(&inst, Pruning::Gw);
        prop_assert!(is_subsequence(&gw.edges, &reversed), "gw {:?} vs L1 {:?}", gw.edges, merges.edges);
        for pruning in [Pruning::Simple, Pruning::Strong] {
            let sol = solve(&inst, pruning);
            prop_assert!(is_subsequence(&sol.edges, &merges.edges), "{}", pruning);
        }
        // every pruned node list is a subset of the `simple` one (the good nodes)
        let good = solve(&inst, Pruning::Simple).nodes;
        for pruning in [Pruning::Gw, Pruning::Strong] {
            prop_assert!(solve(&inst, pruning).nodes.iter().all(|v| good.binary_search(v).is_ok()));
        }
    }

    #[test]
    fn prop_strong_is_no_worse_than_gw(inst in instance()) {
        let gw = objective(&inst, &solve(&inst, Pruning::Gw));
        let strong = objective(&inst, &solve(&inst, Pruning::Strong));
        let scale = 1.0 + inst.prizes.iter().sum::<f64>() + inst.costs.iter().sum::<f64>();
        prop_assert!(strong <= gw + 1e-12 * scale, "strong {strong} > gw {gw}");
    }

    #[test]
    fn prop_reused_solver_equals_fresh_solver(a in instance(), b in instance()) {
        let mut solver = PcstSolver::new();
        let mut out = PcstSolution::default();
        for inst in [&a, &b, &a] {
            for pruning in [Pruning::None, Pruning::Gw, Pruning::Strong] {
                let params = PcstParams::new().root(inst.root).num_clusters(inst.g).pruning(pruning).eps(1e-6).check().unwrap();
                let graph = WeightedGraph::from_edges(
                    inst.prizes.len(), &inst.edges, Some(&inst.costs), EdgeRules::MULTIGRAPH,
                ).unwrap();
                solver.solve_into(&graph, &inst.prizes, &params, &mut out).unwrap();
                prop_assert_eq!(&out, &solve(inst, pruning));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Degenerate cases of checklist item 6.
    #[test]
    fn prop_degenerate_cases(n in 1usize..15, seed in prop::collection::vec(0u32..4, 15)) {
        let path: Vec<[usize; 2]> = (1..n).map(|i| [i - 1, i]).collect();
        let ones = vec![1.0; path.len()];
        let prizes: Vec<f64> = seed[..n].iter().map(|&k| f64::from(k)).collect();
        let all: Vec<usize> = (0..n).collect();
        for pruning in [Pruning::None, Pruning::Simple, Pruning::Gw, Pruning::Strong] {
            // g >= n: every node, no edge
            let p = PcstParams::new().num_clusters(n + (seed[0] as usize)).pruning(pruning).check().unwrap();
            let sol = solve_pcst(&path, &prizes, &ones, &p).unwrap();
            prop_assert_eq!((&sol.nodes, sol.edges.len()), (&all, 0));
            // all-zero prizes: only the last node
            let p = PcstParams::new().pruning(pruning).check().unwrap();
            let sol = solve_pcst(&path, &vec![0.0; n], &ones, &p).unwrap();
            prop_assert_eq!((sol.nodes, sol.edges.len()), (vec![n - 1], 0));
            // no edges: the g largest prizes, the higher index on ties
            let g = 1 + (seed[1] as usize) % n;
            let p = PcstParams::new().num_clusters(g).pruning(pruning).check().unwrap();
            let sol = solve_pcst(&[], &prizes, &[], &p).unwrap();
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| prizes[b].total_cmp(&prizes[a]).then(b.cmp(&a)));
            let mut want = order[..g].to_vec();
            want.sort_unstable();
            prop_assert_eq!(sol.nodes, want);
        }
        // g = 0: empty except with `none`
        for pruning in [Pruning::Simple, Pruning::Gw, Pruning::Strong] {
            let p = PcstParams::new().num_clusters(0).pruning(pruning).check().unwrap();
            prop_assert_eq!(solve_pcst(&path, &prizes, &ones, &p).unwrap(), PcstSolution::default());
        }
    }
}
