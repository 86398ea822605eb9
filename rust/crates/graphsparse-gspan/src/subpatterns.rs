//! The connected subgraphs of a pattern with one edge fewer, by their minimum DFS codes.
//!
//! A connected `k`-edge subgraph of a connected `(k + 1)`-edge pattern is the pattern less one
//! edge: an edge on a cycle (every vertex stays), or a pendant edge together with its leaf.
//! Deleting a bridge between two parts of two or more vertices each leaves no connected
//! `k`-edge subgraph. The sharded miner keeps the closed and maximal patterns of a complete
//! frequent set with this (`graphsparse.distributed`).

use crate::code::{DfsCode, PatternGraph};
use crate::error::Result;
use crate::mincode::min_dfs_code;

/// The positions (in `edges`) of the bridges of the connected graph on `n` vertices
/// (Tarjan's lowpoints, iterative).
fn bridges(n: usize, edges: &[[u32; 2]]) -> Vec<bool> {
    let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (e, &[a, b]) in edges.iter().enumerate() {
        adj[a as usize].push((b as usize, e));
        adj[b as usize].push((a as usize, e));
    }
    let mut order = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut is_bridge = vec![false; edges.len()];
    if n == 0 {
        return is_bridge;
    }
    // (vertex, edge it was reached by, next neighbour to look at)
    let mut stack = vec![(0usize, usize::MAX, 0usize)];
    order[0] = 0;
    let mut seen = 1;
    while let Some(&mut (v, via, ref mut next)) = stack.last_mut() {
        if let Some(&(w, e)) = adj[v].get(*next) {
            *next += 1;
            if e == via {
                continue;
            }
            if order[w] == usize::MAX {
                order[w] = seen;
                low[w] = seen;
                seen += 1;
                stack.push((w, e, 0));
            } else {
                low[v] = low[v].min(order[w]);
            }
        } else {
            stack.pop();
            if let Some(&(u, _, _)) = stack.last() {
                low[u] = low[u].min(low[v]);
                if low[v] > order[u] {
                    is_bridge[via] = true;
                }
            }
        }
    }
    is_bridge
}

/// The minimum DFS codes of the connected subgraphs of the (undirected) pattern `code` with
/// one edge fewer, in the order of the edges deleted (repeats when two deletions give
/// isomorphic subgraphs). Empty for a pattern of fewer than two edges: deleting its edge
/// leaves single vertices, which have no DFS code.
///
/// # Errors
/// As [`min_dfs_code`] (none for a valid code).
///
/// # Complexity
/// `k + 1` minimum-code computations on `k` edges, plus O(k) for the bridges.
///
/// # Example
/// ```
/// use graphsparse_gspan::{DfsCode, DfsEdge, one_edge_smaller};
/// let e = |from, to, a, b, c| DfsEdge { from, to, from_label: a, edge_label: b, to_label: c };
/// // a labelled triangle 0-0-1: deleting any edge leaves a path of two edges
/// let triangle = DfsCode::from_edges(vec![e(0, 1, 0, 0, 0), e(1, 2, 0, 0, 1), e(2, 0, 1, 0, 0)])?;
/// let subs = one_edge_smaller(&triangle)?;
/// assert_eq!(subs.len(), 3);
/// assert!(subs.iter().all(|c| c.len() == 2 && c.is_min()));
/// # Ok::<(), graphsparse_gspan::GspanError>(())
/// ```
pub fn one_edge_smaller(code: &DfsCode) -> Result<Vec<DfsCode>> {
    if code.len() < 2 {
        return Ok(Vec::new());
    }
    let graph = code.to_graph();
    let n = graph.vertex_labels.len();
    let mut degree = vec![0u32; n];
    for &[a, b] in &graph.edges {
        degree[a as usize] += 1;
        degree[b as usize] += 1;
    }
    let is_bridge = bridges(n, &graph.edges);
    let mut out = Vec::with_capacity(graph.edges.len());
    let mut sub = PatternGraph {
        vertex_labels: Vec::with_capacity(n),
        edges: Vec::with_capacity(graph.edges.len()),
        edge_labels: Vec::with_capacity(graph.edges.len()),
    };
    for (skip, &[a, b]) in graph.edges.iter().enumerate() {
        // the vertex that goes with the edge, if any
        let leaf = if !is_bridge[skip] {
            None
        } else if degree[a as usize] == 1 {
            Some(a)
        } else if degree[b as usize] == 1 {
            Some(b)
        } else {
            continue; // a bridge between two larger parts
        };
        let renumber = |v: u32| leaf.map_or(v, |l| if v > l { v - 1 } else { v });
        sub.vertex_labels.clear();
        sub.vertex_labels.extend(
            (0..n as u32)
                .filter(|&v| Some(v) != leaf)
                .map(|v| graph.vertex_labels[v as usize]),
        );
        sub.edges.clear();
        sub.edge_labels.clear();
        for (e, &[u, v]) in graph.edges.iter().enumerate() {
            if e != skip {
                sub.edges.push([renumber(u), renumber(v)]);
                sub.edge_labels.push(graph.edge_labels[e]);
            }
        }
        out.push(min_dfs_code(sub.as_graph_ref())?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::DfsEdge;

    fn e(from: u32, to: u32, a: u32, b: u32, c: u32) -> DfsEdge {
        DfsEdge {
            from,
            to,
            from_label: a,
            edge_label: b,
            to_label: c,
        }
    }

    #[test]
    fn a_path_loses_its_ends_and_keeps_no_middle_edge() {
        // 0 - 1 - 2 - 3, labels 1, 2, 3, 4: the middle edge is a bridge between two edges
        let path = DfsCode::from_edges(vec![e(0, 1, 1, 0, 2), e(1, 2, 2, 0, 3), e(2, 3, 3, 0, 4)])
            .unwrap();
        let subs = one_edge_smaller(&path).unwrap();
        assert_eq!(subs.len(), 2);
        let labels: Vec<Vec<u32>> = subs
            .iter()
            .map(|c| {
                let mut l = c.vertex_labels();
                l.sort_unstable();
                l
            })
            .collect();
        assert_eq!(labels, vec![vec![2, 3, 4], vec![1, 2, 3]]);
    }

    #[test]
    fn bridges_of_a_triangle_with_a_tail() {
        // triangle 0-1-2 and the tail 2-3
        let edges = [[0, 1], [1, 2], [2, 0], [2, 3]];
        assert_eq!(bridges(4, &edges), vec![false, false, false, true]);
    }

    #[test]
    fn small_patterns_have_no_smaller_codes() {
        let one = DfsCode::from_edges(vec![e(0, 1, 0, 0, 0)]).unwrap();
        assert!(one_edge_smaller(&one).unwrap().is_empty());
    }
}
