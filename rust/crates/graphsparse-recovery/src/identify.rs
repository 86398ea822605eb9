//! The subgraphs a solution identifies (spec §3.9): the edges along which `σ` does not jump,
//! and the connected pieces of the support they form (the paper's `G*`).

use crate::error::Result;
use graphsparse_base::{check_finite, check_len, check_nonnegative};
use graphsparse_graph::EdgeRules;

use crate::graph::WeightedGraph;

/// The structure read off a solution `(x̂, σ)` of model (6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subgraphs {
    /// Indices (into [`WeightedGraph::edges`]) of the kept edges `{i, j}`:
    /// `|σ_i − σ_j| ≤ tol·max σ`.
    pub kept_edges: Vec<usize>,
    /// The connected components of `(V, kept edges)` that meet `supp(x̂)`, each a sorted vertex
    /// list, ordered by smallest vertex.
    pub components: Vec<Vec<usize>>,
}

/// The kept edges and identified subgraphs of a solution (spec §3.9).
///
/// # Arguments
/// * `graph` – the graph `G₀` of the solve.
/// * `x` – the estimate `x̂` (length `N`).
/// * `sigma` – its latent scales `σ` (length `N`, as returned by the solve).
/// * `tol` – relative jump below which an edge is kept, finite and `≥ 0` (around `1e-6`).
///
/// # Returns
/// The [`Subgraphs`]; no components when `x̂ = 0`.
///
/// # Errors
/// [`crate::RecoveryError::Input`] for a length, a non-finite entry or a bad `tol`.
///
/// # Complexity
/// O(N + m).
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, WeightedGraph, identified_subgraphs};
/// // a path 0-1-2-3-4; σ is flat on {0, 1} and on {3, 4}, and jumps around vertex 2
/// let g = WeightedGraph::new(5, &[[0, 1], [1, 2], [2, 3], [3, 4]], None)?;
/// let s = identified_subgraphs(&g, &[1.0, -1.0, 0.0, 2.0, 2.0], &[1.0, 1.0, 0.0, 2.0, 2.0], 1e-6)?;
/// assert_eq!(s.kept_edges, vec![0, 3]);
/// assert_eq!(s.components, vec![vec![0, 1], vec![3, 4]]);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub fn identified_subgraphs(
    graph: &WeightedGraph,
    x: &[f64],
    sigma: &[f64],
    tol: f64,
) -> Result<Subgraphs> {
    let n = graph.n_vertices();
    check_len("x", x.len(), n)?;
    check_len("sigma", sigma.len(), n)?;
    check_finite("x", x)?;
    check_finite("sigma", sigma)?;
    check_nonnegative("tol", tol)?;
    let top = sigma.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let limit = tol * top;
    let kept_edges: Vec<usize> = graph
        .edges()
        .iter()
        .enumerate()
        .filter(|(_, [u, v])| (sigma[*u as usize] - sigma[*v as usize]).abs() <= limit)
        .map(|(e, _)| e)
        .collect();
    let ends: Vec<[u32; 2]> = kept_edges.iter().map(|&e| graph.edges()[e]).collect();
    let kept = WeightedGraph::from_edges(n, &ends, None, EdgeRules::MULTIGRAPH)?;
    let label = kept.components();
    let mut slot = vec![usize::MAX; kept.n_components()];
    let mut components: Vec<Vec<usize>> = Vec::new();
    // vertices in increasing order: components come out ordered by smallest support vertex,
    // then re-sorted by smallest vertex overall
    for (v, &xv) in x.iter().enumerate() {
        if xv != 0.0 {
            let c = label[v] as usize;
            if slot[c] == usize::MAX {
                slot[c] = components.len();
                components.push(Vec::new());
            }
        }
    }
    for (v, &c) in label.iter().enumerate() {
        let k = slot[c as usize];
        if k != usize::MAX {
            components[k].push(v);
        }
    }
    components.sort_unstable_by_key(|c| c[0]);
    Ok(Subgraphs {
        kept_edges,
        components,
    })
}
