//! Directed mining against a brute force that shares nothing with DFS codes: every weakly
//! connected arc subset of every graph, canonicalised by trying every vertex permutation.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{G, arb_graph, connected_subgraphs, to_db};
use graphsparse_base::{Parallel, RunControl};
use graphsparse_graph::{GraphDatabase, GraphRef};
use graphsparse_gspan::{
    Check, DfsCode, DfsEdge, MinerParams, PatternSet, min_dfs_code, min_dfs_code_directed,
    mine_frequent,
};
use proptest::prelude::*;

/// A directed graph in a canonical form: vertex labels and sorted arcs `(tail, head, label)`
/// of the vertex order that gives the smallest such pair.
type Canon = (Vec<u32>, Vec<(u32, u32, u32)>);

fn permutations(n: usize) -> Vec<Vec<u32>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..n {
            let mut q = p.clone();
            q.insert(at, (n - 1) as u32);
            out.push(q);
        }
    }
    out
}

fn canon(g: &G) -> Canon {
    let n = g.labels.len();
    let mut best: Option<Canon> = None;
    for p in permutations(n) {
        // p[v] = new position of v
        let mut labels = vec![0; n];
        for v in 0..n {
            labels[p[v] as usize] = g.labels[v];
        }
        let mut arcs: Vec<(u32, u32, u32)> = g
            .edges
            .iter()
            .map(|&(a, b, l)| (p[a as usize], p[b as usize], l))
            .collect();
        arcs.sort_unstable();
        let c = (labels, arcs);
        if best.as_ref().is_none_or(|b| c < *b) {
            best = Some(c);
        }
    }
    best.expect("invariant: one permutation at least")
}

/// The directed graph of a code of a directed search.
fn graph_of(code: &DfsCode) -> G {
    let labels = code.vertex_labels();
    let edges = code
        .edges()
        .iter()
        .map(|e| {
            let (l, reversed) = e.arc();
            if reversed {
                (e.to, e.from, l)
            } else {
                (e.from, e.to, l)
            }
        })
        .collect();
    G { labels, edges }
}

fn brute(graphs: &[G], min_support: usize, max_size: usize) -> BTreeMap<Canon, Vec<u32>> {
    let mut occ: BTreeMap<Canon, Vec<u32>> = BTreeMap::new();
    for (gid, g) in graphs.iter().enumerate() {
        let found: BTreeSet<Canon> = connected_subgraphs(g, max_size).iter().map(canon).collect();
        for c in found {
            occ.entry(c).or_default().push(gid as u32);
        }
    }
    occ.retain(|_, ids| ids.len() >= min_support);
    occ
}

fn directed_db(graphs: &[G]) -> GraphDatabase {
    to_db(graphs).into_directed().unwrap()
}

fn arb_db() -> impl Strategy<Value = Vec<G>> {
    (1..=3u32, 1..=2u32)
        .prop_flat_map(|(nv, ne)| prop::collection::vec(arb_graph(6, 7, nv, ne), 1..=5))
}

/// Patterns and graph ids; `threads == 0` is the serial search, else a parallel one that
/// splits as often as it can on a pool of that many threads.
fn mine(
    db: &GraphDatabase,
    min_support: usize,
    max_size: Option<usize>,
    threads: usize,
) -> Vec<(DfsCode, Vec<u32>)> {
    let mut params = MinerParams::new()
        .min_support(min_support)
        .max_size(max_size);
    if threads > 0 {
        params = params
            .parallel(Parallel::Threshold(0))
            .split_depth(6)
            .split_embeddings(1);
    }
    let params = params.check().unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .unwrap();
    let res = pool
        .install(|| mine_frequent(db, &params, &RunControl::new()))
        .unwrap();
    assert!(res.stats.truncation.is_none());
    res.patterns
        .into_iter()
        .map(|p| (p.code, p.graph_ids))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Same weakly connected directed patterns and graph ids as brute force, each once, with
    /// minimal codes in increasing order; the same with any thread count.
    #[test]
    fn prop_directed_patterns_match_brute_force(
        graphs in arb_db(),
        frac in 0.0..1.0f64,
        max_size in prop::option::of(1usize..5),
    ) {
        let n = graphs.len();
        let min_support = 1 + ((n as f64 * frac) as usize).min(n - 1);
        let db = directed_db(&graphs);
        let found = mine(&db, min_support, max_size, 0);
        let mut got: BTreeMap<Canon, Vec<u32>> = BTreeMap::new();
        for (code, ids) in &found {
            prop_assert!(code.is_min_directed(), "code {} is not minimal", code);
            let g = graph_of(code);
            let (edges, labels): (Vec<[u32; 2]>, Vec<u32>) =
                g.edges.iter().map(|&(a, b, l)| ([a, b], l)).unzip();
            let r = GraphRef { node_labels: &g.labels, edges: &edges, edge_labels: &labels };
            prop_assert_eq!(&min_dfs_code_directed(r).unwrap(), code);
            prop_assert!(got.insert(canon(&g), ids.clone()).is_none(), "{} found twice", code);
        }
        prop_assert!(found.windows(2).all(|w| w[0].0 < w[1].0));
        let want = brute(&graphs, min_support, max_size.unwrap_or(usize::MAX));
        prop_assert_eq!(&got, &want);
        for threads in [2, 3] {
            prop_assert_eq!(&mine(&db, min_support, max_size, threads), &found);
        }
    }

    /// Closed (maximal) directed patterns are the frequent ones with no one-arc-larger
    /// super-pattern of the same support (that is frequent), filtered from the brute-force set.
    #[test]
    fn prop_directed_closed_and_maximal_filter_the_full_set(
        graphs in arb_db(),
        frac in 0.0..1.0f64,
        closed in any::<bool>(),
    ) {
        let n = graphs.len();
        let min_support = 1 + ((n as f64 * frac) as usize).min(n - 1);
        let db = directed_db(&graphs);
        let set = if closed { PatternSet::Closed } else { PatternSet::Maximal };
        let params = MinerParams::new().min_support(min_support).pattern_set(set).check().unwrap();
        let res = mine_frequent(&db, &params, &RunControl::new()).unwrap();
        let got: BTreeSet<Canon> = res.patterns.iter().map(|p| canon(&graph_of(&p.code))).collect();
        let all = brute(&graphs, min_support, usize::MAX);
        let mut want = BTreeSet::new();
        for (c, ids) in &all {
            let k = c.1.len();
            let blocked = all.iter().any(|(d, ids2)| {
                d.1.len() == k + 1 && (!closed || ids2 == ids) && {
                    let big = G { labels: d.0.clone(), edges: d.1.clone() };
                    connected_subgraphs(&big, k)
                        .iter()
                        .filter(|s| s.edges.len() == k)
                        .any(|s| canon(s) == *c)
                }
            });
            if !blocked {
                want.insert(c.clone());
            }
        }
        prop_assert_eq!(got, want);
    }
}

#[test]
fn undirected_codes_unchanged_by_the_flag_machinery() {
    // the same arrays read undirected and directed: undirected codes are plain labels
    let g = G {
        labels: vec![0, 0, 1],
        edges: vec![(0, 1, 2), (2, 1, 3)],
    };
    let und = mine(&to_db(std::slice::from_ref(&g)), 1, None, 0);
    assert!(und.iter().all(|(c, _)| c.is_min()));
    let r = GraphRef {
        node_labels: &g.labels,
        edges: &[[0, 1], [2, 1]],
        edge_labels: &[2, 3],
    };
    let whole = min_dfs_code(r).unwrap();
    assert!(und.iter().any(|(c, _)| *c == whole));
    let dir = mine(&directed_db(std::slice::from_ref(&g)), 1, None, 0);
    assert_eq!(und.len(), dir.len());
    // 0 -> 1 with label 2 between equal labels: the code starts at the tail
    assert_eq!(
        dir[0].0.edges()[0],
        DfsEdge::new(0, 1, 0, DfsEdge::arc_label(2, false), 0)
    );
}

#[test]
fn orientation_distinguishes_patterns() {
    // a -> b -> c (a path) versus a -> b <- c (a collider), one vertex label: not isomorphic
    let path = G {
        labels: vec![0; 3],
        edges: vec![(0, 1, 0), (1, 2, 0)],
    };
    let coll = G {
        labels: vec![0; 3],
        edges: vec![(0, 1, 0), (2, 1, 0)],
    };
    let db = directed_db(&[path, coll]);
    let found = mine(&db, 1, None, 0);
    let sizes: Vec<(usize, Vec<u32>)> = found
        .iter()
        .map(|(c, ids)| (c.len(), ids.clone()))
        .collect();
    assert_eq!(sizes, [(1, vec![0, 1]), (2, vec![0]), (2, vec![1])]);
}
