//! Shared fixtures of the integration tests.
#![allow(dead_code)]

use graphsparse_ot::OtGraph;

/// G1 of spec §10: the path C–C–N.
pub fn g1() -> OtGraph {
    OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02]).unwrap()
}

/// G2 of spec §10: a 5-ring with a pendant.
pub fn g2() -> OtGraph {
    let edges = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 5]];
    OtGraph::undirected(6, &edges, &[0.01, 0.02, 0.02, 0.01, 0.01, 0.02]).unwrap()
}

/// G3 of spec §10: two triangles joined by an edge.
pub fn g3() -> OtGraph {
    let edges = [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 5], [5, 3]];
    OtGraph::undirected(6, &edges, &[0.01, 0.01, 0.01, 0.02, 0.01, 0.02, 0.02]).unwrap()
}

/// The synthetic tree of the paper's Figure 2 (spec §8.4).
pub fn figure2_tree() -> OtGraph {
    let mut edges = Vec::new();
    let mut costs = Vec::new();
    let heavy = [8, 11, 12, 14, 15, 16, 17, 18, 19, 20];
    for p in 1..=4u32 {
        edges.push([0, p]);
        costs.push(0.3);
        for leaf in 5 + 4 * (p - 1)..=8 + 4 * (p - 1) {
            edges.push([p, leaf]);
            costs.push(if heavy.contains(&leaf) { 0.5 } else { 0.1 });
        }
    }
    OtGraph::undirected(21, &edges, &costs).unwrap()
}

/// The indicator of `s` on `n` vertices.
pub fn indicator(n: usize, s: &[u32]) -> Vec<f64> {
    let mut e = vec![0.0; n];
    for &v in s {
        e[v as usize] = 1.0;
    }
    e
}
