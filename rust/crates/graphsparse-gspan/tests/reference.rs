//! The miner and the minimum-code test against the brute-force reference in `common`.

mod common;

use graphsparse_base::RunControl;
use std::collections::BTreeMap;

use common::{
    Code, G, all_dfs_codes, arb_connected, arb_graph, brute_min_code, brute_patterns,
    brute_single_vertices, code_less, to_db, tuples,
};
use graphsparse_graph::GraphRef;
use graphsparse_gspan::{
    Check, DfsCode, DfsEdge, MinerParams, Node, ParallelVisitor, Visit, Visitor, min_dfs_code,
    mine, mine_frequent,
};
use proptest::prelude::*;

fn arb_db() -> impl Strategy<Value = Vec<G>> {
    (1..=3u32, 1..=3u32)
        .prop_flat_map(|(nv, ne)| prop::collection::vec(arb_graph(6, 8, nv, ne), 1..=5))
}

fn code_of(t: &Code) -> DfsCode {
    DfsCode::from_edges(
        t.iter()
            .map(|e| DfsEdge::new(e[0], e[1], e[2], e[3], e[4]))
            .collect(),
    )
    .unwrap()
}

fn graph_ref(g: &G) -> (Vec<[u32; 2]>, Vec<u32>) {
    (
        g.edges.iter().map(|&(a, b, _)| [a, b]).collect(),
        g.edges.iter().map(|e| e.2).collect(),
    )
}

/// Number of label-preserving injective maps of the pattern's vertices into `g` that map every
/// pattern edge onto an edge of `g` with the same label (monomorphisms), by brute force.
fn count_monomorphisms(code: &DfsCode, g: &G) -> u32 {
    let pl = code.vertex_labels();
    let mut map = vec![u32::MAX; pl.len()];
    let mut used = vec![false; g.labels.len()];
    fn edge_label(g: &G, a: u32, b: u32) -> Option<u32> {
        g.edges
            .iter()
            .find(|e| (e.0, e.1) == (a, b) || (e.0, e.1) == (b, a))
            .map(|e| e.2)
    }
    fn rec(
        k: usize,
        code: &DfsCode,
        pl: &[u32],
        g: &G,
        map: &mut Vec<u32>,
        used: &mut Vec<bool>,
    ) -> u32 {
        if k == pl.len() {
            let ok = code.edges().iter().all(|e| {
                edge_label(g, map[e.from as usize], map[e.to as usize]) == Some(e.edge_label)
            });
            return u32::from(ok);
        }
        let mut total = 0;
        for v in 0..g.labels.len() {
            if !used[v] && g.labels[v] == pl[k] {
                used[v] = true;
                map[k] = v as u32;
                total += rec(k + 1, code, pl, g, map, used);
                used[v] = false;
            }
        }
        total
    }
    rec(0, code, &pl, g, &mut map, &mut used)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Same pattern set, supports and graph ids as brute force; canonical order; minimal codes;
    /// per-graph embedding counts equal to the number of monomorphisms.
    #[test]
    fn prop_patterns_match_brute_force(
        graphs in arb_db(),
        frac in 0.0..1.0f64,
        max_size in prop::option::of(0usize..5),
        single in any::<bool>(),
    ) {
        let n = graphs.len();
        let min_support = 1 + ((n as f64 * frac) as usize).min(n - 1);
        let params = MinerParams::new()
            .min_support(min_support)
            .max_size(max_size)
            .single_vertices(single)
            .check()
            .unwrap();
        let res = mine_frequent(&to_db(&graphs), &params, &RunControl::new()).unwrap();
        prop_assert!(res.stats.truncation.is_none());
        prop_assert_eq!(res.stats.nodes_visited as usize, res.patterns.len());

        let n_single = res.patterns.iter().take_while(|p| p.vertex_label.is_some()).count();
        let got_single: BTreeMap<u32, Vec<u32>> = res.patterns[..n_single]
            .iter()
            .map(|p| (p.vertex_label.unwrap(), p.graph_ids.clone()))
            .collect();
        let want_single = if single { brute_single_vertices(&graphs, min_support) } else { BTreeMap::new() };
        prop_assert_eq!(got_single, want_single);
        prop_assert!(res.patterns[..n_single].iter().all(|p| p.code.is_empty()));
        prop_assert!(res.patterns[..n_single].windows(2).all(|w| w[0].vertex_label < w[1].vertex_label));

        let edge_patterns = &res.patterns[n_single..];
        prop_assert!(edge_patterns.iter().all(|p| p.vertex_label.is_none() && !p.code.is_empty()));
        let got: BTreeMap<Code, Vec<u32>> =
            edge_patterns.iter().map(|p| (tuples(&p.code), p.graph_ids.clone())).collect();
        prop_assert_eq!(got.len(), edge_patterns.len(), "a pattern was reported twice");
        let want = brute_patterns(&graphs, min_support, max_size.unwrap_or(usize::MAX));
        prop_assert_eq!(&got, &want);

        for w in edge_patterns.windows(2) {
            prop_assert!(w[0].code < w[1].code);
            prop_assert!(code_less(&tuples(&w[0].code), &tuples(&w[1].code)));
        }
        for p in edge_patterns {
            prop_assert!(p.code.is_min());
            let g = p.code.to_graph();
            prop_assert_eq!(&min_dfs_code(g.as_graph_ref()).unwrap(), &p.code);
        }
    }

    /// `Node::embedding_counts` counts the monomorphisms of the pattern into each graph.
    #[test]
    fn prop_embedding_counts_are_monomorphisms(graphs in arb_db()) {
        struct Counts<'g>(&'g [G], Vec<String>);
        impl Visitor for Counts<'_> {
            fn pre(&mut self, node: &Node<'_>) -> Visit {
                for (&g, &c) in node.graph_ids().iter().zip(node.embedding_counts()) {
                    let want = count_monomorphisms(node.code(), &self.0[g as usize]);
                    if want != c {
                        self.1.push(format!("{} in graph {g}: {c} != {want}", node.code()));
                    }
                }
                Visit::Continue
            }
        }
        impl ParallelVisitor for Counts<'_> {
            fn fork(&self) -> Self { Counts(self.0, Vec::new()) }
            fn join(&mut self, child: Self) { self.1.extend(child.1); }
        }
        let params = MinerParams::new().min_support(1).max_size(Some(4)).check().unwrap();
        let mut v = Counts(&graphs, Vec::new());
        mine(&to_db(&graphs), &params, &mut v, &RunControl::new()).unwrap();
        prop_assert!(v.1.is_empty(), "{:?}", v.1);
    }

    /// `is_min` on every DFS code of a graph holds exactly for the brute-force minimum, and
    /// `min_dfs_code` finds it whatever the vertex numbering.
    #[test]
    fn prop_is_min_matches_brute_force(g in arb_connected(7, 4, 3, 2)) {
        let codes = all_dfs_codes(&g);
        let min = brute_min_code(&g);
        let min_code = code_of(&min);
        for c in &codes {
            let dc = code_of(c);
            prop_assert_eq!(dc.is_min(), *c == min, "code {}", dc);
            prop_assert!(min_code <= dc);
        }
        let (edges, elabels) = graph_ref(&g);
        let r = GraphRef { node_labels: &g.labels, edges: &edges, edge_labels: &elabels };
        prop_assert_eq!(min_dfs_code(r).unwrap(), min_code);
    }

    /// The same on graphs with one vertex label and one edge label (many automorphisms).
    #[test]
    fn prop_is_min_symmetric_graphs(g in arb_connected(7, 6, 1, 1)) {
        let min = brute_min_code(&g);
        for c in all_dfs_codes(&g).iter().step_by(7) {
            prop_assert_eq!(code_of(c).is_min(), *c == min);
        }
        let (edges, elabels) = graph_ref(&g);
        let r = GraphRef { node_labels: &g.labels, edges: &edges, edge_labels: &elabels };
        prop_assert_eq!(tuples(&min_dfs_code(r).unwrap()), min);
    }
}
