//! Brute-force reference for gSpan, shared by the integration tests.
//!
//! Everything here is deliberately naive and independent of the crate's algorithms:
//! * every DFS code of a graph comes from enumerating every depth-first traversal (any start
//!   vertex, any order of unvisited neighbours), emitting the tree edge to each newly
//!   discovered vertex followed by its back edges to already discovered vertices;
//! * codes are compared with the DFS lexicographic order written as Yan & Han define it;
//! * patterns are all connected edge subsets of every graph, keyed by their brute-force
//!   minimum code, with supports counted per graph.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use graphsparse_graph::GraphDatabase;
use proptest::prelude::*;

/// A code as plain tuples `(from, to, from_label, edge_label, to_label)`.
pub type Code = Vec<[u32; 5]>;

/// A small labelled graph: vertex labels and `(u, v, edge label)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct G {
    pub labels: Vec<u32>,
    pub edges: Vec<(u32, u32, u32)>,
}

/// Yan & Han's order on the index pairs of two DFS edges.
fn pair_less(a: (u32, u32), b: (u32, u32)) -> bool {
    let (fa, fb) = (a.0 < a.1, b.0 < b.1);
    match (fa, fb) {
        (true, true) => a.1 < b.1 || (a.1 == b.1 && a.0 > b.0),
        (false, false) => a.0 < b.0 || (a.0 == b.0 && a.1 < b.1),
        (false, true) => a.0 < b.1,
        (true, false) => a.1 <= b.0,
    }
}

fn edge_less(a: &[u32; 5], b: &[u32; 5]) -> bool {
    let (pa, pb) = ((a[0], a[1]), (b[0], b[1]));
    if pa != pb {
        return pair_less(pa, pb);
    }
    (a[2], a[3], a[4]) < (b[2], b[3], b[4])
}

/// The DFS lexicographic order: first differing edge decides, else the shorter code.
pub fn code_less(a: &Code, b: &Code) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return edge_less(x, y);
        }
    }
    a.len() < b.len()
}

fn neighbours(g: &G, v: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for &(a, b, l) in &g.edges {
        if a == v {
            out.push((b, l));
        } else if b == v {
            out.push((a, l));
        }
    }
    out
}

/// Every DFS code of a connected graph with at least one edge.
pub fn all_dfs_codes(g: &G) -> Vec<Code> {
    let n = g.labels.len();
    let adj: Vec<Vec<(u32, u32)>> = (0..n as u32).map(|v| neighbours(g, v)).collect();
    let mut out = Vec::new();
    for start in 0..n as u32 {
        let mut idx = vec![None; n];
        idx[start as usize] = Some(0u32);
        let mut stack = vec![start];
        let mut code = Vec::new();
        rec(g, &adj, &mut idx, &mut stack, &mut code, 1, &mut out);
    }
    out
}

fn rec(
    g: &G,
    adj: &[Vec<(u32, u32)>],
    idx: &mut Vec<Option<u32>>,
    stack: &mut Vec<u32>,
    code: &mut Code,
    n_disc: u32,
    out: &mut Vec<Code>,
) {
    if n_disc as usize == g.labels.len() {
        assert_eq!(
            code.len(),
            g.edges.len(),
            "a finished DFS has emitted every edge"
        );
        out.push(code.clone());
        return;
    }
    let Some(&top) = stack.last() else { return };
    let unvisited: Vec<(u32, u32)> = adj[top as usize]
        .iter()
        .copied()
        .filter(|&(w, _)| idx[w as usize].is_none())
        .collect();
    if unvisited.is_empty() {
        stack.pop();
        rec(g, adj, idx, stack, code, n_disc, out);
        stack.push(top);
        return;
    }
    for (w, le) in unvisited {
        let mark = code.len();
        let it = idx[top as usize].unwrap();
        idx[w as usize] = Some(n_disc);
        code.push([it, n_disc, g.labels[top as usize], le, g.labels[w as usize]]);
        let mut back: Vec<[u32; 5]> = adj[w as usize]
            .iter()
            .filter(|&&(x, _)| x != top && idx[x as usize].is_some())
            .map(|&(x, l)| {
                [
                    n_disc,
                    idx[x as usize].unwrap(),
                    g.labels[w as usize],
                    l,
                    g.labels[x as usize],
                ]
            })
            .collect();
        back.sort_by_key(|e| e[1]);
        code.extend(back);
        stack.push(w);
        rec(g, adj, idx, stack, code, n_disc + 1, out);
        stack.pop();
        code.truncate(mark);
        idx[w as usize] = None;
    }
}

/// The smallest code over every DFS traversal.
pub fn brute_min_code(g: &G) -> Code {
    let codes = all_dfs_codes(g);
    let mut best = codes[0].clone();
    for c in &codes[1..] {
        if code_less(c, &best) {
            best = c.clone();
        }
    }
    best
}

fn is_connected(n: usize, edges: &[(u32, u32, u32)]) -> bool {
    if n == 0 {
        return true;
    }
    let mut seen = vec![false; n];
    let mut todo = vec![0usize];
    seen[0] = true;
    while let Some(v) = todo.pop() {
        for &(a, b, _) in edges {
            for (x, y) in [(a, b), (b, a)] {
                if x as usize == v && !seen[y as usize] {
                    seen[y as usize] = true;
                    todo.push(y as usize);
                }
            }
        }
    }
    seen.iter().all(|&s| s)
}

/// All connected edge subsets of `g` (as compact graphs), at most `max_size` edges.
pub fn connected_subgraphs(g: &G, max_size: usize) -> Vec<G> {
    let m = g.edges.len();
    let mut out = Vec::new();
    for mask in 1u32..(1 << m) {
        if mask.count_ones() as usize > max_size {
            continue;
        }
        let chosen: Vec<(u32, u32, u32)> = (0..m)
            .filter(|k| mask >> k & 1 == 1)
            .map(|k| g.edges[k])
            .collect();
        let verts: BTreeSet<u32> = chosen.iter().flat_map(|&(a, b, _)| [a, b]).collect();
        let pos: BTreeMap<u32, u32> = verts
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, i as u32))
            .collect();
        let edges: Vec<(u32, u32, u32)> = chosen
            .iter()
            .map(|&(a, b, l)| (pos[&a], pos[&b], l))
            .collect();
        if is_connected(verts.len(), &edges) {
            let labels = verts.iter().map(|&v| g.labels[v as usize]).collect();
            out.push(G { labels, edges });
        }
    }
    out
}

/// Frequent connected patterns (>= 1 edge) of `graphs`: minimum code → sorted graph ids.
pub fn brute_patterns(
    graphs: &[G],
    min_support: usize,
    max_size: usize,
) -> BTreeMap<Code, Vec<u32>> {
    let mut occ: BTreeMap<Code, Vec<u32>> = BTreeMap::new();
    for (gid, g) in graphs.iter().enumerate() {
        let mut codes: BTreeSet<Code> = BTreeSet::new();
        for sub in connected_subgraphs(g, max_size) {
            codes.insert(brute_min_code(&sub));
        }
        for c in codes {
            occ.entry(c).or_default().push(gid as u32);
        }
    }
    occ.retain(|_, ids| ids.len() >= min_support);
    occ
}

/// Frequent single-vertex patterns: label → sorted graph ids.
pub fn brute_single_vertices(graphs: &[G], min_support: usize) -> BTreeMap<u32, Vec<u32>> {
    let mut occ: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (gid, g) in graphs.iter().enumerate() {
        let labels: BTreeSet<u32> = g.labels.iter().copied().collect();
        for l in labels {
            occ.entry(l).or_default().push(gid as u32);
        }
    }
    occ.retain(|_, ids| ids.len() >= min_support);
    occ
}

pub fn to_db(graphs: &[G]) -> GraphDatabase {
    let mut node_ptr = vec![0];
    let mut labels = Vec::new();
    let mut edge_ptr = vec![0];
    let mut edges = Vec::new();
    let mut elabels = Vec::new();
    for g in graphs {
        labels.extend(&g.labels);
        node_ptr.push(labels.len());
        for &(a, b, l) in &g.edges {
            edges.push([a, b]);
            elabels.push(l);
        }
        edge_ptr.push(edges.len());
    }
    GraphDatabase::new(node_ptr, labels, edge_ptr, edges, elabels).unwrap()
}

pub fn tuples(code: &graphsparse_gspan::DfsCode) -> Code {
    code.edges()
        .iter()
        .map(|e| [e.from, e.to, e.from_label, e.edge_label, e.to_label])
        .collect()
}

/// Every pair `(i, j)` of vertices `i < j < n`, in increasing order.
fn vertex_pairs(n: usize) -> Vec<(u32, u32)> {
    (0..n as u32)
        .flat_map(|i| (i + 1..n as u32).map(move |j| (i, j)))
        .collect()
}

/// A random simple graph: `1..=max_v` vertices, at most `max_e` edges, random orientation.
pub fn arb_graph(
    max_v: usize,
    max_e: usize,
    n_vlabels: u32,
    n_elabels: u32,
) -> impl Strategy<Value = G> {
    (1..=max_v).prop_flat_map(move |n| {
        let pairs = vertex_pairs(n);
        let k = pairs.len().min(max_e);
        (
            prop::collection::vec(0..n_vlabels, n),
            prop::sample::subsequence(pairs, 0..=k),
            prop::collection::vec((0..n_elabels, any::<bool>()), max_e),
        )
            .prop_map(|(labels, chosen, extra)| {
                let edges = chosen
                    .into_iter()
                    .zip(extra)
                    .map(|((a, b), (l, flip))| if flip { (b, a, l) } else { (a, b, l) })
                    .collect();
                G { labels, edges }
            })
    })
}

/// A random connected graph with at least one edge (a random spanning tree plus extra edges).
pub fn arb_connected(
    max_v: usize,
    max_extra: usize,
    n_vlabels: u32,
    n_elabels: u32,
) -> impl Strategy<Value = G> {
    (2..=max_v).prop_flat_map(move |n| {
        (
            prop::collection::vec(0..n_vlabels, n),
            prop::collection::vec(any::<prop::sample::Index>(), n - 1),
            prop::sample::subsequence(vertex_pairs(n), 0..=max_extra.min(n * (n - 1) / 2)),
            prop::collection::vec(0..n_elabels, n - 1 + max_extra),
            prop::collection::vec(any::<prop::sample::Index>(), 1),
        )
            .prop_map(move |(labels, parents, extra, elabels, rot)| {
                let mut pairs: BTreeSet<(u32, u32)> = BTreeSet::new();
                for (v, p) in parents.iter().enumerate() {
                    let child = v as u32 + 1;
                    let par = p.index(child as usize) as u32;
                    pairs.insert((par, child));
                }
                pairs.extend(extra);
                // relabel vertices by a rotation so that vertex 0 is not always the tree root
                let r = rot[0].index(n) as u32;
                let rot = |x: u32| (x + r) % n as u32;
                let edges = pairs
                    .into_iter()
                    .zip(elabels)
                    .map(|((a, b), l)| (rot(a), rot(b), l))
                    .collect();
                let mut lab = vec![0; n];
                for (i, l) in labels.into_iter().enumerate() {
                    lab[rot(i as u32) as usize] = l;
                }
                G { labels: lab, edges }
            })
    })
}
