//! `one_edge_smaller` against the brute force: every connected edge subset with one edge
//! fewer, canonicalised by enumerating every DFS traversal.

mod common;

use std::collections::BTreeSet;

use common::{G, arb_connected, brute_min_code, connected_subgraphs, tuples};
use graphsparse_graph::GraphRef;
use graphsparse_gspan::{min_dfs_code, one_edge_smaller};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn prop_one_edge_smaller_equals_brute_force(g in arb_connected(6, 4, 2, 2)) {
        let pairs: Vec<[u32; 2]> = g.edges.iter().map(|&(a, b, _)| [a, b]).collect();
        let elabels: Vec<u32> = g.edges.iter().map(|&(_, _, l)| l).collect();
        let code = min_dfs_code(GraphRef {
            node_labels: &g.labels,
            edges: &pairs,
            edge_labels: &elabels,
        })
        .unwrap();
        let k = g.edges.len();
        let got: BTreeSet<_> = one_edge_smaller(&code).unwrap().iter().map(tuples).collect();
        let want: BTreeSet<_> = if k < 2 {
            BTreeSet::new()
        } else {
            connected_subgraphs(&g, k - 1)
                .iter()
                .filter(|s: &&G| s.edges.len() == k - 1)
                .map(brute_min_code)
                .collect()
        };
        prop_assert_eq!(got, want);
        // each deletion gives one code, so there are at most k
        prop_assert!(one_edge_smaller(&code).unwrap().len() <= k);
    }
}
