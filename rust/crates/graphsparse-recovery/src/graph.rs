//! The underlying weighted graph `G₀ = (V₀, E₀, w)` and its difference operator `W D`.

use graphsparse_proj::Parallel;

use crate::error::{RecoveryError, Result, check_len};
use crate::operator::LinearOperator;
use crate::par::for_chunks;

/// Largest vertex or edge count: ids are stored as `u32`.
pub const MAX_GRAPH_SIZE: usize = u32::MAX as usize;

/// What to do with an undirected edge listed more than once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DuplicateEdges {
    /// Return [`RecoveryError::DuplicateEdge`] (the default: a repeated edge is usually a bug).
    #[default]
    Reject,
    /// Merge the copies into one edge whose weight is the sum of theirs. This changes nothing
    /// in `Ψ_α`: `w₁|σᵢ − σⱼ| + w₂|σᵢ − σⱼ| = (w₁ + w₂)|σᵢ − σⱼ|`.
    Sum,
}

/// An undirected graph on `n` vertices with positive edge weights, as the penalty `Ψ_α`
/// needs it: the edge list `(head, tail, w)` for `W D σ` (parallel over edges) and a
/// vertex → incident-edge index with signed weights for `Dᵀ W v` (a gather, parallel over
/// vertices). `D` itself is never formed. Connected components are computed once (the
/// duality-gap certificate and `α = 0` need them).
///
/// Orientation is arbitrary: `(W D σ)_e = w_e (σ_head − σ_tail)` with the endpoints in the
/// order given. Self-loops are rejected, duplicates per [`DuplicateEdges`], isolated vertices
/// are allowed.
///
/// # Example
/// ```
/// use graphsparse_recovery::WeightedGraph;
/// let g = WeightedGraph::new(4, &[[0, 1], [1, 2]], None)?; // vertex 3 is isolated
/// assert_eq!((g.n_nodes(), g.n_edges(), g.n_components()), (4, 2, 2));
/// let mut d = [0.0; 2];
/// g.diff_into(&[1.0, 3.0, 3.0, 7.0], &mut d)?;
/// assert_eq!(d, [-2.0, 0.0]);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedGraph {
    n: usize,
    ends: Vec<[u32; 2]>,
    weights: Vec<f64>,
    inc_ptr: Vec<usize>,
    inc_edge: Vec<u32>,
    inc_coef: Vec<f64>,
    component: Vec<u32>,
    comp_size: Vec<u32>,
    max_sq_degree: f64,
}

/// A `Vec` of `n` copies of `value`, or [`RecoveryError::TooLarge`] instead of aborting when
/// the memory cannot be reserved.
pub(crate) fn try_vec<T: Clone>(name: &'static str, n: usize, value: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| RecoveryError::TooLarge {
            name,
            value: n as u128,
            limit: (isize::MAX as usize / std::mem::size_of::<T>().max(1)) as u128,
        })?;
    v.resize(n, value);
    Ok(v)
}

/// Connected components of `(0..n, edges)` by union-find with path halving: a label per
/// vertex (numbered by smallest vertex) and the size of each component.
pub(crate) fn label_components(
    n: usize,
    edges: impl Iterator<Item = [u32; 2]>,
) -> Result<(Vec<u32>, Vec<u32>)> {
    let mut parent = try_vec("n_nodes", n, 0u32)?;
    for (i, p) in parent.iter_mut().enumerate() {
        *p = i as u32;
    }
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let p = parent[parent[x as usize] as usize];
            parent[x as usize] = p;
            x = p;
        }
        x
    }
    for [u, v] in edges {
        let (a, b) = (find(&mut parent, u), find(&mut parent, v));
        if a != b {
            parent[a.max(b) as usize] = a.min(b);
        }
    }
    let mut label = try_vec("n_nodes", n, u32::MAX)?;
    let mut sizes = Vec::new();
    let mut component = try_vec("n_nodes", n, 0u32)?;
    for i in 0..n as u32 {
        let r = find(&mut parent, i) as usize;
        if label[r] == u32::MAX {
            label[r] = sizes.len() as u32;
            sizes.push(0);
        }
        component[i as usize] = label[r];
        sizes[label[r] as usize] += 1;
    }
    Ok((component, sizes))
}

fn check_size(name: &'static str, n: usize) -> Result<()> {
    if n > MAX_GRAPH_SIZE {
        Err(RecoveryError::TooLarge {
            name,
            value: n as u128,
            limit: MAX_GRAPH_SIZE as u128,
        })
    } else {
        Ok(())
    }
}

impl WeightedGraph {
    /// A graph from an edge list, rejecting duplicate edges.
    ///
    /// # Arguments
    /// * `n_nodes` – number of vertices `N` (vertices are `0..N`).
    /// * `edges` – the `m` undirected edges `[u, v]`.
    /// * `weights` – `w_e > 0` per edge, or `None` for unit weights.
    ///
    /// # Returns
    /// The validated graph with its incidence index and connected components.
    ///
    /// # Errors
    /// [`RecoveryError::EdgeOutOfRange`], [`RecoveryError::SelfLoop`],
    /// [`RecoveryError::DuplicateEdge`], [`RecoveryError::InvalidWeight`] (not finite or
    /// `≤ 0`), [`RecoveryError::LengthMismatch`] (weights vs edges),
    /// [`RecoveryError::TooLarge`] (more than `u32::MAX` vertices or edges).
    ///
    /// # Complexity
    /// O(m log m + N) time (the duplicate check sorts the edges), O(N + m) memory.
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{RecoveryError, WeightedGraph};
    /// assert!(matches!(
    ///     WeightedGraph::new(3, &[[0, 1], [1, 0]], None),
    ///     Err(RecoveryError::DuplicateEdge { edge: 1, first: 0, .. })
    /// ));
    /// ```
    pub fn new(n_nodes: usize, edges: &[[usize; 2]], weights: Option<&[f64]>) -> Result<Self> {
        Self::from_edges(n_nodes, edges, weights, DuplicateEdges::Reject)
    }

    /// A graph from an edge list, with a choice for duplicate edges.
    ///
    /// # Arguments
    /// As [`WeightedGraph::new`], plus `duplicates`: reject them, or merge each set of
    /// copies into the first copy with the summed weight (the result then has fewer edges).
    ///
    /// # Returns
    /// The validated graph.
    ///
    /// # Errors
    /// As [`WeightedGraph::new`] (no [`RecoveryError::DuplicateEdge`] under
    /// [`DuplicateEdges::Sum`]).
    ///
    /// # Complexity
    /// O(m log m + N).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{DuplicateEdges, WeightedGraph};
    /// let g = WeightedGraph::from_edges(
    ///     3, &[[0, 1], [1, 2], [1, 0]], Some(&[1.0, 2.0, 0.5]), DuplicateEdges::Sum,
    /// )?;
    /// assert_eq!(g.n_edges(), 2);
    /// assert_eq!(g.weights(), &[1.5, 2.0]);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn from_edges(
        n_nodes: usize,
        edges: &[[usize; 2]],
        weights: Option<&[f64]>,
        duplicates: DuplicateEdges,
    ) -> Result<Self> {
        check_size("n_nodes", n_nodes)?;
        check_size("n_edges", edges.len())?;
        if let Some(w) = weights {
            check_len("weights", w.len(), edges.len())?;
            if let Some((edge, &value)) = w
                .iter()
                .enumerate()
                .find(|(_, w)| !(w.is_finite() && **w > 0.0))
            {
                return Err(RecoveryError::InvalidWeight { edge, value });
            }
        }
        for (edge, &[u, v]) in edges.iter().enumerate() {
            if let Some(&node) = [u, v].iter().find(|&&x| x >= n_nodes) {
                return Err(RecoveryError::EdgeOutOfRange {
                    edge,
                    node,
                    n_nodes,
                });
            }
            if u == v {
                return Err(RecoveryError::SelfLoop { edge, node: u });
            }
        }
        let weight = |e: usize| weights.map_or(1.0, |w| w[e]);
        // sort edge ids by their unordered endpoint pair; equal pairs are duplicates
        let mut order: Vec<u32> = (0..edges.len() as u32).collect();
        let key = |e: u32| {
            let [u, v] = edges[e as usize];
            (u.min(v), u.max(v), e)
        };
        order.sort_unstable_by_key(|&e| key(e));
        let mut keep = vec![true; edges.len()];
        let mut merged: Vec<f64> = (0..edges.len()).map(weight).collect();
        let mut k = 0;
        while k < order.len() {
            let first = order[k] as usize;
            let (a, b, _) = key(order[k]);
            let mut j = k + 1;
            while j < order.len() && key(order[j]).0 == a && key(order[j]).1 == b {
                let e = order[j] as usize;
                match duplicates {
                    DuplicateEdges::Reject => {
                        return Err(RecoveryError::DuplicateEdge {
                            edge: e,
                            first,
                            u: edges[e][0],
                            v: edges[e][1],
                        });
                    }
                    DuplicateEdges::Sum => {
                        keep[e] = false;
                        merged[first] += merged[e];
                    }
                }
                j += 1;
            }
            k = j;
        }
        let mut ends = Vec::with_capacity(edges.len());
        let mut ws = Vec::with_capacity(edges.len());
        for (e, &[u, v]) in edges.iter().enumerate() {
            if keep[e] {
                ends.push([u as u32, v as u32]);
                ws.push(merged[e]);
            }
        }
        if let Some((edge, &value)) = ws.iter().enumerate().find(|(_, w)| !w.is_finite()) {
            // a sum of finite weights that overflowed
            return Err(RecoveryError::InvalidWeight { edge, value });
        }
        Self::build(n_nodes, ends, ws)
    }

    /// A graph from the CSR arrays of its symmetric adjacency matrix.
    ///
    /// Entry `(i, j)` with weight `a_ij` is the edge `{i, j}` with `w = a_ij`. The matrix may
    /// list each edge twice (a symmetric matrix, as `networkx.to_scipy_sparse_array` gives;
    /// the two triangles must then mirror each other exactly) or once (only one triangle
    /// non-empty). Edges are numbered in row-major order of the upper triangle.
    ///
    /// # Arguments
    /// * `n_nodes` – number of rows and columns.
    /// * `indptr`, `indices`, `data` – the CSR arrays (`indptr` of length `N + 1`).
    ///
    /// # Returns
    /// The validated graph.
    ///
    /// # Errors
    /// [`RecoveryError::InvalidSparse`] for malformed arrays or a non-symmetric matrix,
    /// [`RecoveryError::SelfLoop`] for a diagonal entry, [`RecoveryError::DuplicateEdge`]
    /// for a repeated entry, [`RecoveryError::InvalidWeight`] for a non-positive value.
    ///
    /// # Complexity
    /// O(nnz log nnz + N).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::WeightedGraph;
    /// // the path 0 - 1 - 2, both triangles stored
    /// let g = WeightedGraph::from_csr(3, &[0, 1, 3, 4], &[1, 0, 2, 1], &[2.0, 2.0, 1.0, 1.0])?;
    /// assert_eq!(g.edges(), &[[0, 1], [1, 2]]);
    /// assert_eq!(g.weights(), &[2.0, 1.0]);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn from_csr(
        n_nodes: usize,
        indptr: &[usize],
        indices: &[usize],
        data: &[f64],
    ) -> Result<Self> {
        let bad = |reason: String| RecoveryError::InvalidSparse {
            name: "adjacency",
            reason,
        };
        check_size("n_nodes", n_nodes)?;
        if indptr.len() != n_nodes + 1 {
            return Err(bad(format!(
                "indptr has length {}, expected n_nodes + 1 = {}",
                indptr.len(),
                n_nodes as u128 + 1
            )));
        }
        if indices.len() != data.len() {
            return Err(bad(format!(
                "indices has length {} but data has length {}",
                indices.len(),
                data.len()
            )));
        }
        if indptr[0] != 0 || indptr[n_nodes] != indices.len() {
            return Err(bad(format!(
                "indptr must start at 0 and end at nnz = {}, got {} .. {}",
                indices.len(),
                indptr[0],
                indptr[n_nodes]
            )));
        }
        if let Some(i) = (0..n_nodes).find(|&i| indptr[i] > indptr[i + 1]) {
            return Err(bad(format!("indptr decreases at row {i}")));
        }
        let mut upper = Vec::new();
        let mut lower = Vec::new();
        for i in 0..n_nodes {
            for k in indptr[i]..indptr[i + 1] {
                let j = indices[k];
                if j >= n_nodes {
                    return Err(bad(format!(
                        "column index {j} at position {k} is out of range for {n_nodes} columns"
                    )));
                }
                let w = data[k];
                if !(w.is_finite() && w > 0.0) {
                    return Err(RecoveryError::InvalidWeight { edge: k, value: w });
                }
                match i.cmp(&j) {
                    std::cmp::Ordering::Equal => {
                        return Err(RecoveryError::SelfLoop { edge: k, node: i });
                    }
                    std::cmp::Ordering::Less => upper.push((i, j, w, k)),
                    std::cmp::Ordering::Greater => lower.push((j, i, w, k)),
                }
            }
        }
        let by_pair = |a: &(usize, usize, f64, usize), b: &(usize, usize, f64, usize)| {
            (a.0, a.1, a.3).cmp(&(b.0, b.1, b.3))
        };
        upper.sort_unstable_by(by_pair);
        lower.sort_unstable_by(by_pair);
        for list in [&upper, &lower] {
            if let Some(w) = list
                .windows(2)
                .find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
            {
                return Err(RecoveryError::DuplicateEdge {
                    edge: w[1].3,
                    first: w[0].3,
                    u: w[1].0,
                    v: w[1].1,
                });
            }
        }
        let edges = if upper.is_empty() {
            lower
        } else if lower.is_empty() {
            upper
        } else {
            if upper.len() != lower.len() {
                return Err(bad(format!(
                    "the matrix is not symmetric: {} entries above the diagonal, {} below",
                    upper.len(),
                    lower.len()
                )));
            }
            if let Some((a, _)) = upper
                .iter()
                .zip(&lower)
                .find(|(a, b)| (a.0, a.1) != (b.0, b.1) || a.2 != b.2)
            {
                return Err(bad(format!(
                    "the matrix is not symmetric at entry ({}, {})",
                    a.0, a.1
                )));
            }
            upper
        };
        let ends = edges.iter().map(|e| [e.0 as u32, e.1 as u32]).collect();
        let ws = edges.iter().map(|e| e.2).collect();
        Self::build(n_nodes, ends, ws)
    }

    fn build(n: usize, ends: Vec<[u32; 2]>, weights: Vec<f64>) -> Result<Self> {
        let m = ends.len();
        let mut inc_ptr = try_vec("n_nodes", n + 1, 0usize)?;
        for &[u, v] in &ends {
            inc_ptr[u as usize + 1] += 1;
            inc_ptr[v as usize + 1] += 1;
        }
        for i in 0..n {
            inc_ptr[i + 1] += inc_ptr[i];
        }
        let mut fill = inc_ptr.clone();
        let mut inc_edge = try_vec("n_edges", 2 * m, 0u32)?;
        let mut inc_coef = try_vec("n_edges", 2 * m, 0.0f64)?;
        for (e, (&[u, v], &w)) in ends.iter().zip(&weights).enumerate() {
            for (node, coef) in [(u, w), (v, -w)] {
                let slot = &mut fill[node as usize];
                inc_edge[*slot] = e as u32;
                inc_coef[*slot] = coef;
                *slot += 1;
            }
        }
        let mut max_sq_degree = 0.0f64;
        for i in 0..n {
            let d: f64 = inc_coef[inc_ptr[i]..inc_ptr[i + 1]]
                .iter()
                .map(|c| c * c)
                .sum();
            max_sq_degree = max_sq_degree.max(d);
        }
        let (component, comp_size) = label_components(n, ends.iter().copied())?;
        Ok(Self {
            n,
            ends,
            weights,
            inc_ptr,
            inc_edge,
            inc_coef,
            component,
            comp_size,
            max_sq_degree,
        })
    }

    /// Number of vertices `N`.
    pub fn n_nodes(&self) -> usize {
        self.n
    }

    /// Number of edges `m` (after merging duplicates).
    pub fn n_edges(&self) -> usize {
        self.ends.len()
    }

    /// The edges as `[head, tail]` (the orientation used by `D`).
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.ends
    }

    /// The edge weights `w`.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Connected-component label of each vertex (`0..n_components`, numbered by smallest
    /// vertex).
    pub fn components(&self) -> &[u32] {
        &self.component
    }

    /// Number of connected components (isolated vertices count as components).
    pub fn n_components(&self) -> usize {
        self.comp_size.len()
    }

    /// Size of each connected component.
    pub fn component_sizes(&self) -> &[u32] {
        &self.comp_size
    }

    /// The guaranteed bound `‖W D‖ ≤ √(2 · max_n Σ_{e ∋ n} w_e²)` (Gershgorin on the
    /// Laplacian `Dᵀ W² D`); 0 for an edgeless graph.
    ///
    /// # Complexity
    /// O(1) (computed at construction).
    ///
    /// # Example
    /// ```
    /// // a cycle: ‖D‖² = 4 exactly, the bound is 2·2 = 4
    /// let g = graphsparse_recovery::WeightedGraph::new(4, &[[0, 1], [1, 2], [2, 3], [3, 0]], None)?;
    /// assert_eq!(g.diff_norm_bound(), 2.0);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn diff_norm_bound(&self) -> f64 {
        (2.0 * self.max_sq_degree).sqrt()
    }

    /// `W D σ` into `out` (length `m`): `out_e = w_e (σ_head − σ_tail)`.
    ///
    /// # Errors
    /// [`RecoveryError::LengthMismatch`].
    ///
    /// # Complexity
    /// O(m).
    pub fn diff_into(&self, sigma: &[f64], out: &mut [f64]) -> Result<()> {
        check_len("sigma", sigma.len(), self.n)?;
        check_len("out", out.len(), self.ends.len())?;
        self.diff(sigma, out, Parallel::Serial);
        Ok(())
    }

    /// `Dᵀ W v` into `out` (length `N`).
    ///
    /// # Errors
    /// [`RecoveryError::LengthMismatch`].
    ///
    /// # Complexity
    /// O(N + m).
    pub fn diff_adjoint_into(&self, v: &[f64], out: &mut [f64]) -> Result<()> {
        check_len("v", v.len(), self.ends.len())?;
        check_len("out", out.len(), self.n)?;
        self.diff_adjoint(v, out, Parallel::Serial);
        Ok(())
    }

    pub(crate) fn diff(&self, sigma: &[f64], out: &mut [f64], par: Parallel) {
        for_chunks(par, out, |off, chunk| {
            let ends = &self.ends[off..off + chunk.len()];
            let ws = &self.weights[off..off + chunk.len()];
            for ((o, &[h, t]), &w) in chunk.iter_mut().zip(ends).zip(ws) {
                *o = w * (sigma[h as usize] - sigma[t as usize]);
            }
        });
    }

    pub(crate) fn diff_adjoint(&self, v: &[f64], out: &mut [f64], par: Parallel) {
        for_chunks(par, out, |off, chunk| {
            for (i, o) in chunk.iter_mut().enumerate() {
                let n = off + i;
                let (a, b) = (self.inc_ptr[n], self.inc_ptr[n + 1]);
                let mut s = 0.0;
                for (&e, &c) in self.inc_edge[a..b].iter().zip(&self.inc_coef[a..b]) {
                    s += c * v[e as usize];
                }
                *o = s;
            }
        });
    }

    /// `‖W D σ‖₁`.
    ///
    /// # Errors
    /// [`RecoveryError::LengthMismatch`].
    ///
    /// # Complexity
    /// O(m).
    pub fn weighted_total_variation(&self, sigma: &[f64]) -> Result<f64> {
        check_len("sigma", sigma.len(), self.n)?;
        Ok(self
            .ends
            .iter()
            .zip(&self.weights)
            .map(|(&[h, t], w)| w * (sigma[h as usize] - sigma[t as usize]).abs())
            .sum())
    }

    /// The difference operator `W D` as a [`LinearOperator`] (`m × N`).
    pub fn difference_operator(&self) -> GraphDifference<'_> {
        GraphDifference { graph: self }
    }

    /// Multiply-adds of one application of `W D` or `Dᵀ W`.
    pub(crate) fn diff_cost(&self) -> u64 {
        2 * self.ends.len() as u64
    }
}

/// `W D` of a [`WeightedGraph`] as a [`LinearOperator`] (`m × N`), never materialised.
#[derive(Debug, Clone, Copy)]
pub struct GraphDifference<'g> {
    graph: &'g WeightedGraph,
}

impl LinearOperator for GraphDifference<'_> {
    fn n_rows(&self) -> usize {
        self.graph.n_edges()
    }
    fn n_cols(&self) -> usize {
        self.graph.n_nodes()
    }
    fn cost(&self) -> u64 {
        self.graph.diff_cost()
    }
    fn apply_into(&self, x: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_len("x", x.len(), self.n_cols())?;
        check_len("out", out.len(), self.n_rows())?;
        self.graph.diff(x, out, par);
        Ok(())
    }
    fn apply_adjoint_into(&self, v: &[f64], out: &mut [f64], par: Parallel) -> Result<()> {
        check_len("v", v.len(), self.n_rows())?;
        check_len("out", out.len(), self.n_cols())?;
        self.graph.diff_adjoint(v, out, par);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjoint_matches_the_explicit_matrix() {
        let edges = [[0, 1], [1, 2], [3, 1], [2, 4]];
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
    fn validation_errors_name_the_edge() {
        assert_eq!(
            WeightedGraph::new(2, &[[0, 2]], None),
            Err(RecoveryError::EdgeOutOfRange {
                edge: 0,
                node: 2,
                n_nodes: 2
            })
        );
        assert_eq!(
            WeightedGraph::new(2, &[[1, 1]], None),
            Err(RecoveryError::SelfLoop { edge: 0, node: 1 })
        );
        assert_eq!(
            WeightedGraph::new(2, &[[0, 1]], Some(&[0.0])),
            Err(RecoveryError::InvalidWeight {
                edge: 0,
                value: 0.0
            })
        );
        assert!(matches!(
            WeightedGraph::new(2, &[[0, 1]], Some(&[f64::NAN])),
            Err(RecoveryError::InvalidWeight { edge: 0, .. })
        ));
        assert!(matches!(
            WeightedGraph::new(2, &[[0, 1]], Some(&[1.0, 2.0])),
            Err(RecoveryError::LengthMismatch {
                name: "weights",
                ..
            })
        ));
        let g = WeightedGraph::new(0, &[], None).unwrap();
        assert_eq!(
            (g.n_nodes(), g.n_components(), g.diff_norm_bound()),
            (0, 0, 0.0)
        );
    }

    #[test]
    fn csr_forms_agree_and_asymmetry_is_caught() {
        let sym = WeightedGraph::from_csr(3, &[0, 1, 3, 4], &[1, 0, 2, 1], &[2.0, 2.0, 1.0, 1.0])
            .unwrap();
        let upper = WeightedGraph::from_csr(3, &[0, 1, 2, 2], &[1, 2], &[2.0, 1.0]).unwrap();
        assert_eq!(sym, upper);
        assert!(matches!(
            WeightedGraph::from_csr(3, &[0, 1, 3, 4], &[1, 0, 2, 1], &[2.0, 2.0, 1.0, 9.0]),
            Err(RecoveryError::InvalidSparse { .. })
        ));
        assert!(matches!(
            WeightedGraph::from_csr(2, &[0, 1, 1], &[0], &[1.0]),
            Err(RecoveryError::SelfLoop { .. })
        ));
        assert!(matches!(
            WeightedGraph::from_csr(2, &[0, 2, 2], &[1, 1], &[1.0, 1.0]),
            Err(RecoveryError::DuplicateEdge { .. })
        ));
        assert!(matches!(
            WeightedGraph::from_csr(2, &[0, 1], &[1], &[1.0]),
            Err(RecoveryError::InvalidSparse { .. })
        ));
        assert!(matches!(
            WeightedGraph::from_csr(2, &[0, 2, 1], &[1, 0], &[1.0, 1.0]),
            Err(RecoveryError::InvalidSparse { .. })
        ));
    }

    #[test]
    fn parallel_gather_equals_serial() {
        let n = 20_000;
        let edges: Vec<[usize; 2]> = (0..n)
            .map(|i| [i, (i * 7 + 3) % n])
            .filter(|e| e[0] != e[1])
            .collect();
        let g = WeightedGraph::from_edges(n, &edges, None, DuplicateEdges::Sum).unwrap();
        let v: Vec<f64> = (0..g.n_edges()).map(|i| (i as f64).sin()).collect();
        let mut a = vec![0.0; n];
        let mut b = vec![0.0; n];
        g.diff_adjoint(&v, &mut a, Parallel::Serial);
        g.diff_adjoint(&v, &mut b, Parallel::Threshold(0));
        assert_eq!(a, b);
    }
}
