//! The difference operator `W D` of the underlying weighted graph `G₀ = (V₀, E₀, w)`.
//!
//! The graph itself is the library's one [`WeightedGraph`] (`graphsparse-graph`): validated
//! once, with its CSR adjacency and its connected components. This module adds the view the
//! penalty `Ψ_α` needs, [`GraphDifference`]: the edge list `(head, tail, w)` for `W D σ`
//! (parallel over edges) and the signed weight of each adjacency slot for `Dᵀ W v` (a gather
//! over the graph's incident-edge index, parallel over vertices). `D` itself is never formed.
//!
//! Orientation is the graph's: `(W D σ)_e = w_e (σ_head − σ_tail)` for the edge
//! `[head, tail]` as given. The solvers also need the weights `> 0`
//! ([`check_positive_weights`]).

use graphsparse_base::{Parallel, check_len};
pub use graphsparse_graph::{DuplicateEdges, MAX_GRAPH_SIZE, WeightedGraph};

use crate::error::{RecoveryError, Result};
use crate::operator::LinearOperator;
use crate::par::for_chunks;

/// Checks the solvers' rule on the graph: every weight finite and `> 0`.
///
/// # Errors
/// [`RecoveryError::InvalidWeight`] at the first weight that is not.
///
/// # Complexity
/// O(m).
pub fn check_positive_weights(graph: &WeightedGraph) -> Result<()> {
    match graph
        .weights()
        .iter()
        .enumerate()
        .find(|(_, w)| !(w.is_finite() && **w > 0.0))
    {
        Some((edge, &value)) => Err(RecoveryError::InvalidWeight { edge, value }),
        None => Ok(()),
    }
}

/// `W D` of a [`WeightedGraph`] as a [`LinearOperator`] (`m × N`), never materialised: the
/// graph's edges for `W D σ`, and the signed weight of each of its adjacency slots for
/// `Dᵀ W v`.
///
/// # Example
/// ```
/// use graphsparse_recovery::{GraphDifference, WeightedGraph};
/// let g = WeightedGraph::new(4, &[[0usize, 1], [1, 2]], None)?; // vertex 3 is isolated
/// let d = GraphDifference::new(&g);
/// let mut out = [0.0; 2];
/// d.diff_into(&[1.0, 3.0, 3.0, 7.0], &mut out)?;
/// assert_eq!(out, [-2.0, 0.0]);
/// assert_eq!(d.diff_norm_bound(), 2.0);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
#[derive(Debug, Clone)]
pub struct GraphDifference<'g> {
    graph: &'g WeightedGraph,
    /// `+w_e` at the head's slot of edge `e`, `−w_e` at the tail's, parallel to the graph's
    /// incident-edge index.
    coef: Vec<f64>,
    max_sq_degree: f64,
}

impl<'g> GraphDifference<'g> {
    /// The view of `graph`.
    ///
    /// # Complexity
    /// O(N + m) time, O(m) memory.
    pub fn new(graph: &'g WeightedGraph) -> Self {
        let ptr = graph.adjacency_offsets();
        let n = graph.n_vertices();
        let mut coef = vec![0.0; 2 * graph.n_edges()];
        // the slots in the order the graph filled them: the head's, then the tail's, per edge
        let mut fill: Vec<usize> = ptr[..n].to_vec();
        for (&[u, v], &w) in graph.edges().iter().zip(graph.weights()) {
            for (node, c) in [(u, w), (v, -w)] {
                let slot = &mut fill[node as usize];
                coef[*slot] = c;
                *slot += 1;
            }
        }
        let mut max_sq_degree = 0.0f64;
        for i in 0..n {
            let d: f64 = coef[ptr[i]..ptr[i + 1]].iter().map(|c| c * c).sum();
            max_sq_degree = max_sq_degree.max(d);
        }
        Self {
            graph,
            coef,
            max_sq_degree,
        }
    }

    /// The graph.
    pub fn graph(&self) -> &'g WeightedGraph {
        self.graph
    }

    /// The guaranteed bound `‖W D‖ ≤ √(2 · max_n Σ_{e ∋ n} w_e²)` (Gershgorin on the
    /// Laplacian `Dᵀ W² D`); 0 for an edgeless graph.
    ///
    /// # Complexity
    /// O(1) (computed at construction).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{GraphDifference, WeightedGraph};
    /// // a cycle: ‖D‖² = 4 exactly, the bound is 2·2 = 4
    /// let g = WeightedGraph::new(4, &[[0usize, 1], [1, 2], [2, 3], [3, 0]], None)?;
    /// assert_eq!(GraphDifference::new(&g).diff_norm_bound(), 2.0);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn diff_norm_bound(&self) -> f64 {
        (2.0 * self.max_sq_degree).sqrt()
    }

    /// `W D σ` into `out` (length `m`): `out_e = w_e (σ_head − σ_tail)`.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] for a length mismatch.
    ///
    /// # Complexity
    /// O(m).
    pub fn diff_into(&self, sigma: &[f64], out: &mut [f64]) -> Result<()> {
        check_len("sigma", sigma.len(), self.graph.n_vertices())?;
        check_len("out", out.len(), self.graph.n_edges())?;
        self.diff(sigma, out, Parallel::Serial);
        Ok(())
    }

    /// `Dᵀ W v` into `out` (length `N`).
    ///
    /// # Errors
    /// [`RecoveryError::Input`] for a length mismatch.
    ///
    /// # Complexity
    /// O(N + m).
    pub fn diff_adjoint_into(&self, v: &[f64], out: &mut [f64]) -> Result<()> {
        check_len("v", v.len(), self.graph.n_edges())?;
        check_len("out", out.len(), self.graph.n_vertices())?;
        self.diff_adjoint(v, out, Parallel::Serial);
        Ok(())
    }

    pub(crate) fn diff(&self, sigma: &[f64], out: &mut [f64], par: Parallel) {
        let (ends, weights) = (self.graph.edges(), self.graph.weights());
        for_chunks(par, out, |off, chunk| {
            let ends = &ends[off..off + chunk.len()];
            let ws = &weights[off..off + chunk.len()];
            for ((o, &[h, t]), &w) in chunk.iter_mut().zip(ends).zip(ws) {
                *o = w * (sigma[h as usize] - sigma[t as usize]);
            }
        });
    }

    pub(crate) fn diff_adjoint(&self, v: &[f64], out: &mut [f64], par: Parallel) {
        let ptr = self.graph.adjacency_offsets();
        for_chunks(par, out, |off, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let n = off + i;
                let (a, b) = (ptr[n], ptr[n + 1]);
                let mut s = 0.0;
                for (&e, &c) in self.graph.incident_edges(n).iter().zip(&self.coef[a..b]) {
                    s += c * v[e as usize];
                }
                *o = s;
            }
        });
    }

    /// `‖W D σ‖₁`.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] for a length mismatch.
    ///
    /// # Complexity
    /// O(m).
    pub fn weighted_total_variation(&self, sigma: &[f64]) -> Result<f64> {
        weighted_total_variation(self.graph, sigma)
    }

    /// Multiply-adds of one application of `W D` or `Dᵀ W`.
    pub(crate) fn diff_cost(&self) -> u64 {
        2 * self.graph.n_edges() as u64
    }
}

/// `‖W D σ‖₁` of `graph`.
fn weighted_total_variation(graph: &WeightedGraph, sigma: &[f64]) -> Result<f64> {
    check_len("sigma", sigma.len(), graph.n_vertices())?;
    Ok(graph
        .edges()
        .iter()
        .zip(graph.weights())
        .map(|(&[h, t], w)| w * (sigma[h as usize] - sigma[t as usize]).abs())
        .sum())
}

/// The difference operator of a [`WeightedGraph`], called on the graph (import the trait).
///
/// # Example
/// ```
/// use graphsparse_recovery::{GraphDiff, WeightedGraph};
/// let g = WeightedGraph::new(3, &[[0usize, 1], [1, 2]], Some(&[2.0, 1.0]))?;
/// assert_eq!(g.weighted_total_variation(&[1.0, 0.0, 4.0])?, 6.0);
/// let mut d = [0.0; 2];
/// g.diff_into(&[1.0, 0.0, 4.0], &mut d)?;
/// assert_eq!(d, [2.0, -4.0]);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub trait GraphDiff {
    /// `W D` as a [`LinearOperator`] view ([`GraphDifference::new`]).
    fn difference_operator(&self) -> GraphDifference<'_>;

    /// `W D σ` into `out`; see [`GraphDifference::diff_into`].
    ///
    /// # Errors
    /// As [`GraphDifference::diff_into`].
    fn diff_into(&self, sigma: &[f64], out: &mut [f64]) -> Result<()> {
        self.difference_operator().diff_into(sigma, out)
    }

    /// `Dᵀ W v` into `out`; see [`GraphDifference::diff_adjoint_into`].
    ///
    /// # Errors
    /// As [`GraphDifference::diff_adjoint_into`].
    fn diff_adjoint_into(&self, v: &[f64], out: &mut [f64]) -> Result<()> {
        self.difference_operator().diff_adjoint_into(v, out)
    }

    /// The bound of [`GraphDifference::diff_norm_bound`] (O(N + m): it builds the view).
    fn diff_norm_bound(&self) -> f64 {
        self.difference_operator().diff_norm_bound()
    }

    /// `‖W D σ‖₁` (O(m)).
    ///
    /// # Errors
    /// [`RecoveryError::Input`] for a length mismatch.
    fn weighted_total_variation(&self, sigma: &[f64]) -> Result<f64>;
}

impl GraphDiff for WeightedGraph {
    fn difference_operator(&self) -> GraphDifference<'_> {
        GraphDifference::new(self)
    }

    fn weighted_total_variation(&self, sigma: &[f64]) -> Result<f64> {
        weighted_total_variation(self, sigma)
    }
}

impl LinearOperator for GraphDifference<'_> {
    fn n_rows(&self) -> usize {
        self.graph.n_edges()
    }
    fn n_cols(&self) -> usize {
        self.graph.n_vertices()
    }
    fn cost(&self) -> u64 {
        self.diff_cost()
    }
    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_len("x", x.len(), self.n_cols())?;
        check_len("out", out.len(), self.n_rows())?;
        self.diff(x, out, par);
        Ok(())
    }
    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_len("v", v.len(), self.n_rows())?;
        check_len("out", out.len(), self.n_cols())?;
        self.diff_adjoint(v, out, par);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjoint_matches_the_explicit_matrix() {
        let edges = [[0usize, 1], [1, 2], [3, 1], [2, 4]];
        let w = [1.0, 2.0, 0.5, 3.0];
        let g = WeightedGraph::new(5, &edges, Some(&w)).unwrap();
        let sigma = [0.3, -1.0, 2.0, 0.7, 1.1];
        let v = [0.2, -0.4, 1.5, 0.9];
        let mut d = [0.0; 4];
        g.diff_into(&sigma, &mut d).unwrap();
        let mut dt = [0.0; 5];
        g.diff_adjoint_into(&v, &mut dt).unwrap();
        // <WDσ, v> = <σ, DᵀWv>
        let lhs: f64 = d.iter().zip(&v).map(|(a, b)| a * b).sum();
        let rhs: f64 = sigma.iter().zip(&dt).map(|(a, b)| a * b).sum();
        assert!((lhs - rhs).abs() < 1e-14);
        assert_eq!(d[2], 0.5 * (0.7 - -1.0));
        assert_eq!(g.n_components(), 1);
        assert_eq!(g.component_sizes(), &[5]);
    }

    #[test]
    fn solvers_need_positive_weights() {
        let g = WeightedGraph::new(2, &[[0usize, 1]], Some(&[0.0])).unwrap();
        assert_eq!(
            check_positive_weights(&g),
            Err(RecoveryError::InvalidWeight {
                edge: 0,
                value: 0.0
            })
        );
        let g = WeightedGraph::new(0, &[] as &[[usize; 2]], None).unwrap();
        assert_eq!(
            (g.n_vertices(), g.n_components(), g.diff_norm_bound()),
            (0, 0, 0.0)
        );
    }

    #[test]
    fn parallel_gather_equals_serial() {
        let n = 20_000;
        let edges: Vec<[usize; 2]> = (0..n)
            .map(|i| [i, (i * 7 + 3) % n])
            .filter(|e| e[0] != e[1])
            .collect();
        let g = WeightedGraph::from_edges(n, &edges, None, DuplicateEdges::Sum).unwrap();
        let d = g.difference_operator();
        let v: Vec<f64> = (0..g.n_edges()).map(|i| (i as f64).sin()).collect();
        let mut a = vec![0.0; n];
        let mut b = vec![0.0; n];
        d.diff_adjoint(&v, &mut a, Parallel::Serial);
        d.diff_adjoint(&v, &mut b, Parallel::Threshold(0));
        assert_eq!(a, b);
    }
}
