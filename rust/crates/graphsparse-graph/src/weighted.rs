//! The one validated weighted graph every "graph plus vectors" solver takes: PCST and the
//! head/tail projections, graph-structured recovery, graph optimal transport.

use std::sync::OnceLock;

use crate::csr::{CsrMatrix, MAX_GRAPH_SIZE, SparseIndex, try_filled};
use crate::weighted_error::WeightedGraphError;

/// An input vertex id as an index (a negative id becomes `usize::MAX`: out of range).
#[inline(always)]
fn vertex<V: SparseIndex>(v: V) -> usize {
    v.to_index().unwrap_or(usize::MAX)
}

/// What to do with an edge `[v, v]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SelfLoops {
    /// Return [`WeightedGraphError::SelfLoop`] (the default).
    #[default]
    Reject,
    /// Leave it out ([`WeightedGraph::input_to_edge`] maps it to `u32::MAX`).
    Drop,
    /// Keep it (a multigraph, as `pcst_fast` takes).
    Keep,
}

/// What to do with an undirected edge listed more than once (in either orientation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DuplicateEdges {
    /// Return [`WeightedGraphError::DuplicateEdge`] (the default: a repeated edge is usually a
    /// bug).
    #[default]
    Reject,
    /// Keep every copy (a multigraph).
    Keep,
    /// Merge the copies into the first one, with the sum of their weights.
    Sum,
    /// Merge the copies into the first one, with the smallest of their weights (costs).
    Min,
}

/// The rules a [`WeightedGraph`] is built under: self-loops, duplicates, and the name of the
/// weights in messages.
///
/// # Example
/// ```
/// use graphsparse_graph::{DuplicateEdges, EdgeRules, SelfLoops};
/// let rules = EdgeRules::SIMPLE.self_loops(SelfLoops::Drop).duplicates(DuplicateEdges::Min);
/// assert_eq!(EdgeRules::from(DuplicateEdges::Sum).self_loops_rule(), SelfLoops::Reject);
/// assert_eq!(rules.weights_arg_name(), "weights");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeRules {
    self_loops: SelfLoops,
    duplicates: DuplicateEdges,
    weights_arg: &'static str,
}

impl EdgeRules {
    /// A simple graph: self-loops and duplicates refused; weights named `"weights"`.
    pub const SIMPLE: Self = Self {
        self_loops: SelfLoops::Reject,
        duplicates: DuplicateEdges::Reject,
        weights_arg: "weights",
    };

    /// A multigraph: self-loops and parallel edges kept; weights named `"costs"` (the
    /// `pcst_fast` input).
    pub const MULTIGRAPH: Self = Self {
        self_loops: SelfLoops::Keep,
        duplicates: DuplicateEdges::Keep,
        weights_arg: "costs",
    };

    graphsparse_base::setters! {
        /// What to do with self-loops.
        self_loops: SelfLoops => self_loops,
        /// What to do with duplicate edges.
        duplicates: DuplicateEdges => duplicates,
        /// The name of the weights in messages (`"weights"`, `"costs"`).
        weights_arg: &'static str => weights_arg,
    }

    /// The self-loop rule.
    pub const fn self_loops_rule(&self) -> SelfLoops {
        self.self_loops
    }

    /// The duplicate rule.
    pub const fn duplicates_rule(&self) -> DuplicateEdges {
        self.duplicates
    }

    /// The name of the weights in messages.
    pub const fn weights_arg_name(&self) -> &'static str {
        self.weights_arg
    }
}

impl Default for EdgeRules {
    /// [`EdgeRules::SIMPLE`].
    fn default() -> Self {
        Self::SIMPLE
    }
}

impl From<DuplicateEdges> for EdgeRules {
    /// [`EdgeRules::SIMPLE`] with the given duplicate rule.
    fn from(duplicates: DuplicateEdges) -> Self {
        Self::SIMPLE.duplicates(duplicates)
    }
}

/// Connected components: a label per vertex, numbered in order of their smallest vertex,
/// and the size of each.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Components {
    labels: Vec<u32>,
    sizes: Vec<u32>,
}

/// An undirected graph on `n` vertices with a finite, non-negative weight (cost) per edge,
/// validated once: endpoints in range, weights finite and `>= 0`, self-loops and duplicates
/// per [`EdgeRules`], at most `u32::MAX` vertices and edges.
///
/// The edges keep the orientation and order they were given in (a solver that orients them,
/// as recovery's difference operator `W D` and the transport incidence `F` do, reads
/// `[first, second]`); merged duplicates keep the first copy. The CSR adjacency (the incident
/// edges and neighbours of each vertex, in edge order) is built once; the connected
/// components are computed the first time they are asked for and kept.
///
/// Rules that only some solvers need (recovery's weights `> 0`, transport's directed edges)
/// are the solvers' to check, in their own views built on this graph.
///
/// # Example
/// ```
/// use graphsparse_graph::WeightedGraph;
/// let g = WeightedGraph::new(4, &[[0usize, 1], [1, 2]], Some(&[2.0, 0.5]))?; // vertex 3 isolated
/// assert_eq!((g.n_vertices(), g.n_edges(), g.n_components()), (4, 2, 2));
/// assert_eq!(g.incident_edges(1), &[0, 1]);
/// assert_eq!(g.neighbors(1), &[0, 2]);
/// assert_eq!(g.components(), &[0, 0, 0, 1]);
/// assert_eq!(g.degrees(), vec![1, 2, 1, 0]);
/// # Ok::<(), graphsparse_graph::WeightedGraphError>(())
/// ```
#[derive(Debug, Clone)]
pub struct WeightedGraph {
    n: usize,
    edges: Vec<[u32; 2]>,
    weights: Vec<f64>,
    input_to_edge: Vec<u32>,
    adj_ptr: Vec<usize>,
    adj_vertex: Vec<u32>,
    adj_edge: Vec<u32>,
    components: OnceLock<Components>,
}

impl PartialEq for WeightedGraph {
    /// The same vertices, edges (in order) and weights.
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.edges == other.edges && self.weights == other.weights
    }
}

fn check_size(what: &'static str, n: usize) -> Result<(), WeightedGraphError> {
    if n > MAX_GRAPH_SIZE {
        Err(WeightedGraphError::TooLarge {
            what,
            value: n,
            max: MAX_GRAPH_SIZE,
        })
    } else {
        Ok(())
    }
}

impl WeightedGraph {
    /// A simple graph from an edge list: self-loops and duplicates are refused
    /// ([`EdgeRules::SIMPLE`]).
    ///
    /// # Arguments
    /// * `n` – number of vertices (vertices are `0..n`; isolated ones are allowed).
    /// * `edges` – the `m` undirected edges `[u, v]` ([`WeightedGraph::from_edges`] takes ids
    ///   of any [`SparseIndex`] type; a negative id is out of range there).
    /// * `weights` – one finite weight `>= 0` per edge, or `None` for unit weights.
    ///
    /// # Errors
    /// As [`WeightedGraph::from_edges`].
    ///
    /// # Complexity
    /// O(m log m + n) time (the duplicate check sorts the edges), O(n + m) memory.
    pub fn new(
        n: usize,
        edges: &[[usize; 2]],
        weights: Option<&[f64]>,
    ) -> Result<Self, WeightedGraphError> {
        Self::from_edges(n, edges, weights, EdgeRules::SIMPLE)
    }

    /// A graph from an edge list under the given rules.
    ///
    /// # Arguments
    /// * `n`, `edges`, `weights` – as [`WeightedGraph::new`].
    /// * `rules` – self-loops, duplicates and the weights' name ([`EdgeRules`], or a
    ///   [`DuplicateEdges`] alone for a graph without self-loops).
    ///
    /// # Returns
    /// The validated graph; [`WeightedGraph::input_to_edge`] maps each input edge to the
    /// stored edge it became.
    ///
    /// # Errors
    /// [`WeightedGraphError::TooLarge`] (more than `u32::MAX` vertices or edges, or memory),
    /// [`WeightedGraphError::WeightsLength`], then for each edge in
    /// order [`WeightedGraphError::EndpointOutOfRange`], [`WeightedGraphError::InvalidWeight`]
    /// (negative or not finite) and [`WeightedGraphError::SelfLoop`]; then
    /// [`WeightedGraphError::DuplicateEdge`] (first repeated pair in `(min, max)` order), or
    /// [`WeightedGraphError::InvalidWeight`] for a sum that overflowed.
    ///
    /// # Complexity
    /// O(n + m) with [`DuplicateEdges::Keep`], O(n + m log m) otherwise.
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::{DuplicateEdges, EdgeRules, SelfLoops, WeightedGraph};
    /// let g = WeightedGraph::from_edges(
    ///     3, &[[0u32, 1], [1, 2], [1, 0], [2, 2]], Some(&[1.0, 2.0, 0.5, 1.0]),
    ///     EdgeRules::SIMPLE.self_loops(SelfLoops::Drop).duplicates(DuplicateEdges::Sum),
    /// )?;
    /// assert_eq!((g.edges(), g.weights()), (&[[0, 1], [1, 2]][..], &[1.5, 2.0][..]));
    /// assert_eq!(g.input_to_edge(), &[0, 1, 0, u32::MAX]);
    /// # Ok::<(), graphsparse_graph::WeightedGraphError>(())
    /// ```
    pub fn from_edges<V: SparseIndex>(
        n: usize,
        edges: &[[V; 2]],
        weights: Option<&[f64]>,
        rules: impl Into<EdgeRules>,
    ) -> Result<Self, WeightedGraphError> {
        let rules = rules.into();
        let arg = rules.weights_arg;
        check_size("nodes", n)?;
        check_size("edges", edges.len())?;
        if let Some(w) = weights
            && w.len() != edges.len()
        {
            return Err(WeightedGraphError::WeightsLength {
                arg,
                expected: edges.len(),
                got: w.len(),
            });
        }
        let weight = |e: usize| weights.map_or(1.0, |w| w[e]);
        let mut input_to_edge = try_filled("edges", edges.len(), 0u32)?;
        let mut kept: Vec<u32> = Vec::with_capacity(edges.len());
        for (e, &[u, v]) in edges.iter().enumerate() {
            let (u, v) = (vertex(u), vertex(v));
            for endpoint in [u, v] {
                if endpoint >= n {
                    return Err(WeightedGraphError::EndpointOutOfRange {
                        edge: e,
                        pair: [u, v],
                        endpoint,
                        n_vertices: n,
                    });
                }
            }
            let value = weight(e);
            if !(value.is_finite() && value >= 0.0) {
                return Err(WeightedGraphError::InvalidWeight {
                    arg,
                    index: e,
                    value,
                });
            }
            if u == v {
                match rules.self_loops {
                    SelfLoops::Reject => {
                        return Err(WeightedGraphError::SelfLoop { edge: e, vertex: u });
                    }
                    SelfLoops::Drop => {
                        input_to_edge[e] = u32::MAX;
                        continue;
                    }
                    SelfLoops::Keep => {}
                }
            }
            kept.push(e as u32);
        }
        let ends = |e: u32| {
            let [u, v] = edges[e as usize];
            [vertex(u) as u32, vertex(v) as u32]
        };
        let mut merged: Vec<f64> = kept.iter().map(|&e| weight(e as usize)).collect();
        // position in `kept` of the copy each kept edge merges into (itself when first)
        let mut into: Vec<u32> = (0..kept.len() as u32).collect();
        if rules.duplicates != DuplicateEdges::Keep {
            let key = |k: u32| {
                let [u, v] = ends(kept[k as usize]);
                (u.min(v), u.max(v), k)
            };
            let mut order: Vec<u32> = (0..kept.len() as u32).collect();
            order.sort_unstable_by_key(|&k| key(k));
            let mut i = 0;
            while i < order.len() {
                let first = order[i];
                let (a, b, _) = key(first);
                let mut j = i + 1;
                while j < order.len() && (key(order[j]).0, key(order[j]).1) == (a, b) {
                    let k = order[j];
                    let (fw, kw) = (merged[first as usize], merged[k as usize]);
                    match rules.duplicates {
                        DuplicateEdges::Reject => {
                            let e = kept[k as usize] as usize;
                            let [u, v] = edges[e];
                            return Err(WeightedGraphError::DuplicateEdge {
                                edge: e,
                                first: kept[first as usize] as usize,
                                u: vertex(u),
                                v: vertex(v),
                            });
                        }
                        DuplicateEdges::Sum => merged[first as usize] = fw + kw,
                        DuplicateEdges::Min => merged[first as usize] = fw.min(kw),
                        DuplicateEdges::Keep => unreachable!("invariant: Keep skips the merge"),
                    }
                    into[k as usize] = first;
                    j += 1;
                }
                i = j;
            }
        }
        let mut out_edges = Vec::with_capacity(kept.len());
        let mut out_weights = Vec::with_capacity(kept.len());
        let mut stored = vec![u32::MAX; kept.len()];
        for (k, &e) in kept.iter().enumerate() {
            if into[k] as usize == k {
                stored[k] = out_edges.len() as u32;
                out_edges.push(ends(e));
                out_weights.push(merged[k]);
            }
        }
        for (k, &e) in kept.iter().enumerate() {
            input_to_edge[e as usize] = stored[into[k] as usize];
        }
        if let Some((index, &value)) = out_weights.iter().enumerate().find(|(_, w)| !w.is_finite())
        {
            // a sum of finite weights that overflowed
            return Err(WeightedGraphError::InvalidWeight { arg, index, value });
        }
        Self::build(n, out_edges, out_weights, input_to_edge)
    }

    /// A graph from the CSR arrays of its symmetric adjacency matrix; see
    /// [`WeightedGraph::from_adjacency`].
    ///
    /// # Errors
    /// As [`CsrMatrix::new`] and [`WeightedGraph::from_adjacency`].
    ///
    /// # Complexity
    /// O(nnz log nnz + n).
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::WeightedGraph;
    /// // the path 0 - 1 - 2, both triangles stored
    /// let g = WeightedGraph::from_csr(3, &[0, 1, 3, 4], &[1, 0, 2, 1], &[2.0, 2.0, 1.0, 1.0])?;
    /// assert_eq!(g.edges(), &[[0, 1], [1, 2]]);
    /// assert_eq!(g.weights(), &[2.0, 1.0]);
    /// # Ok::<(), graphsparse_graph::WeightedGraphError>(())
    /// ```
    pub fn from_csr(
        n: usize,
        indptr: &[usize],
        indices: &[usize],
        data: &[f64],
    ) -> Result<Self, WeightedGraphError> {
        Self::from_adjacency(&CsrMatrix::new(indptr, indices, data, n, n)?)
    }

    /// A graph from its symmetric adjacency matrix.
    ///
    /// Entry `(i, j)` with value `a_ij` is the edge `{i, j}` with weight `a_ij`. The matrix may
    /// list each edge twice (a symmetric matrix, as `networkx.to_scipy_sparse_array` gives; the
    /// two triangles must then mirror each other exactly) or once (only one triangle
    /// non-empty). Edges are numbered in row-major order of the upper triangle and oriented
    /// `[i, j]` with `i < j`.
    ///
    /// # Errors
    /// [`WeightedGraphError::InvalidSparse`] (named `"adjacency"`) for a non-square or
    /// non-symmetric matrix, [`WeightedGraphError::SelfLoop`] for a diagonal entry,
    /// [`WeightedGraphError::DuplicateEdge`] for a repeated entry,
    /// [`WeightedGraphError::InvalidWeight`] (named `"data"`) for a negative value (entries are
    /// numbered by their position in `data`).
    ///
    /// # Complexity
    /// O(nnz log nnz + n).
    pub fn from_adjacency<P: SparseIndex, I: SparseIndex>(
        a: &CsrMatrix<'_, P, I>,
    ) -> Result<Self, WeightedGraphError> {
        let bad = |reason: String| WeightedGraphError::InvalidSparse {
            name: "adjacency",
            reason,
        };
        let n = a.n_rows();
        if a.n_cols() != n {
            return Err(bad(format!(
                "the matrix must be square, got {} x {}",
                n,
                a.n_cols()
            )));
        }
        let mut upper = Vec::new();
        let mut lower = Vec::new();
        for i in 0..n {
            for k in a.row_range(i) {
                let j = a.indices()[k]
                    .to_index()
                    .expect("invariant: validated index");
                let w = a.data()[k];
                if w < 0.0 {
                    return Err(WeightedGraphError::InvalidWeight {
                        arg: "data",
                        index: k,
                        value: w,
                    });
                }
                match i.cmp(&j) {
                    std::cmp::Ordering::Equal => {
                        return Err(WeightedGraphError::SelfLoop { edge: k, vertex: i });
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
                return Err(WeightedGraphError::DuplicateEdge {
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
        let identity = (0..edges.len() as u32).collect();
        Self::build(n, ends, ws, identity)
    }

    fn build(
        n: usize,
        edges: Vec<[u32; 2]>,
        weights: Vec<f64>,
        input_to_edge: Vec<u32>,
    ) -> Result<Self, WeightedGraphError> {
        let m = edges.len();
        let mut adj_ptr = try_filled("nodes", n + 1, 0usize)?;
        for &[u, v] in &edges {
            adj_ptr[u as usize + 1] += 1;
            adj_ptr[v as usize + 1] += 1;
        }
        for i in 0..n {
            adj_ptr[i + 1] += adj_ptr[i];
        }
        let mut fill = adj_ptr.clone();
        let mut adj_vertex = try_filled("edges", 2 * m, 0u32)?;
        let mut adj_edge = try_filled("edges", 2 * m, 0u32)?;
        for (e, &[u, v]) in edges.iter().enumerate() {
            for (at, other) in [(u, v), (v, u)] {
                let slot = &mut fill[at as usize];
                adj_vertex[*slot] = other;
                adj_edge[*slot] = e as u32;
                *slot += 1;
            }
        }
        Ok(Self {
            n,
            edges,
            weights,
            input_to_edge,
            adj_ptr,
            adj_vertex,
            adj_edge,
            components: OnceLock::new(),
        })
    }

    /// Number of vertices `n`.
    #[inline]
    pub fn n_vertices(&self) -> usize {
        self.n
    }

    /// Number of stored edges `m` (after dropping self-loops and merging duplicates).
    #[inline]
    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }

    /// The stored edges `[first, second]`, in input order (orientation as given).
    #[inline]
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// The weight of each stored edge (1 when none were given).
    #[inline]
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// For each input edge, the stored edge it became (`u32::MAX` for a dropped self-loop).
    #[inline]
    pub fn input_to_edge(&self) -> &[u32] {
        &self.input_to_edge
    }

    /// The stored edges at vertex `v` (a self-loop twice), in edge order.
    ///
    /// # Panics
    /// When `v >= n`.
    #[inline]
    pub fn incident_edges(&self, v: usize) -> &[u32] {
        &self.adj_edge[self.adj_ptr[v]..self.adj_ptr[v + 1]]
    }

    /// The neighbours of `v`, parallel to [`WeightedGraph::incident_edges`].
    ///
    /// # Panics
    /// When `v >= n`.
    #[inline]
    pub fn neighbors(&self, v: usize) -> &[u32] {
        &self.adj_vertex[self.adj_ptr[v]..self.adj_ptr[v + 1]]
    }

    /// The offsets of the CSR adjacency: vertex `v`'s slots are `adj_ptr[v]..adj_ptr[v + 1]`
    /// of [`WeightedGraph::incident_edges`]' and [`WeightedGraph::neighbors`]' backing arrays.
    #[inline]
    pub fn adjacency_offsets(&self) -> &[usize] {
        &self.adj_ptr
    }

    /// The unweighted degree of each vertex (each stored edge counts once at each end).
    ///
    /// # Complexity
    /// O(n).
    pub fn degrees(&self) -> Vec<u32> {
        self.adj_ptr
            .windows(2)
            .map(|w| (w[1] - w[0]) as u32)
            .collect()
    }

    fn components_cached(&self) -> &Components {
        self.components.get_or_init(|| {
            let n = self.n;
            let mut parent: Vec<u32> = (0..n as u32).collect();
            fn find(parent: &mut [u32], mut x: u32) -> u32 {
                while parent[x as usize] != x {
                    let p = parent[parent[x as usize] as usize];
                    parent[x as usize] = p;
                    x = p;
                }
                x
            }
            for &[u, v] in &self.edges {
                let (a, b) = (find(&mut parent, u), find(&mut parent, v));
                if a != b {
                    parent[a.max(b) as usize] = a.min(b);
                }
            }
            let mut label = vec![u32::MAX; n];
            let mut sizes = Vec::new();
            let mut labels = vec![0u32; n];
            for i in 0..n as u32 {
                let r = find(&mut parent, i) as usize;
                if label[r] == u32::MAX {
                    label[r] = sizes.len() as u32;
                    sizes.push(0);
                }
                labels[i as usize] = label[r];
                sizes[label[r] as usize] += 1;
            }
            Components { labels, sizes }
        })
    }

    /// The connected-component label of each vertex (`0..n_components`, numbered in order of
    /// their smallest vertex).
    ///
    /// # Complexity
    /// O((n + m) α(n)) the first time (union–find with path halving), O(1) after.
    pub fn components(&self) -> &[u32] {
        &self.components_cached().labels
    }

    /// Number of connected components (isolated vertices count as components).
    ///
    /// # Complexity
    /// As [`WeightedGraph::components`].
    pub fn n_components(&self) -> usize {
        self.components_cached().sizes.len()
    }

    /// Size of each connected component.
    ///
    /// # Complexity
    /// As [`WeightedGraph::components`].
    pub fn component_sizes(&self) -> &[u32] {
        &self.components_cached().sizes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_errors_name_the_edge() {
        assert_eq!(
            WeightedGraph::new(2, &[[0usize, 2]], None),
            Err(WeightedGraphError::EndpointOutOfRange {
                edge: 0,
                pair: [0, 2],
                endpoint: 2,
                n_vertices: 2
            })
        );
        assert_eq!(
            WeightedGraph::new(2, &[[1usize, 1]], None),
            Err(WeightedGraphError::SelfLoop { edge: 0, vertex: 1 })
        );
        let e = WeightedGraph::new(2, &[[0usize, 1]], Some(&[-1.0])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "weights must be >= 0; weights[0] is negative (-1)"
        );
        let rules = EdgeRules::MULTIGRAPH;
        let e = WeightedGraph::from_edges(2, &[[0usize, 1]], Some(&[f64::NAN]), rules);
        assert_eq!(
            e.unwrap_err().to_string(),
            "costs must be finite; costs[0] is not finite (NaN)"
        );
        let e = WeightedGraph::from_edges(2, &[[0usize, 1]], Some(&[1.0, 2.0]), rules);
        assert_eq!(
            e.unwrap_err().to_string(),
            "costs must have length 1 (one per edge); costs has length 2"
        );
        assert_eq!(
            WeightedGraph::new(3, &[[0usize, 1], [1, 2], [1, 0]], None),
            Err(WeightedGraphError::DuplicateEdge {
                edge: 2,
                first: 0,
                u: 1,
                v: 0
            })
        );
        let big = WeightedGraph::from_edges(
            2,
            &[[0usize, 1], [1, 0]],
            Some(&[f64::MAX, f64::MAX]),
            DuplicateEdges::Sum,
        );
        assert!(matches!(
            big,
            Err(WeightedGraphError::InvalidWeight { index: 0, .. })
        ));
        let g = WeightedGraph::new(0, &[] as &[[usize; 2]], None).unwrap();
        assert_eq!((g.n_vertices(), g.n_components()), (0, 0));
    }

    #[test]
    fn multigraph_keeps_loops_and_parallel_edges() {
        let g = WeightedGraph::from_edges(
            3,
            &[[0usize, 1], [1, 0], [2, 2]],
            None,
            EdgeRules::MULTIGRAPH,
        )
        .unwrap();
        assert_eq!(g.n_edges(), 3);
        assert_eq!(g.incident_edges(2), &[2, 2]);
        assert_eq!(g.degrees(), vec![2, 2, 2]);
        assert_eq!(g.input_to_edge(), &[0, 1, 2]);
        let m = WeightedGraph::from_edges(
            3,
            &[[2u32, 1], [0, 1], [1, 2]],
            Some(&[3.0, 1.0, 2.0]),
            DuplicateEdges::Min,
        )
        .unwrap();
        assert_eq!(m.edges(), &[[2, 1], [0, 1]]);
        assert_eq!(m.weights(), &[2.0, 1.0]);
        assert_eq!(m.input_to_edge(), &[0, 1, 0]);
    }

    #[test]
    fn csr_forms_agree_and_asymmetry_is_caught() {
        let sym = WeightedGraph::from_csr(3, &[0, 1, 3, 4], &[1, 0, 2, 1], &[2.0, 2.0, 1.0, 1.0])
            .unwrap();
        let upper = WeightedGraph::from_csr(3, &[0, 1, 2, 2], &[1, 2], &[2.0, 1.0]).unwrap();
        assert_eq!(sym, upper);
        let bad = |r| matches!(r, Err(WeightedGraphError::InvalidSparse { .. }));
        assert!(bad(WeightedGraph::from_csr(
            3,
            &[0, 1, 3, 4],
            &[1, 0, 2, 1],
            &[2.0, 2.0, 1.0, 9.0]
        )));
        assert!(matches!(
            WeightedGraph::from_csr(2, &[0, 1, 1], &[0], &[1.0]),
            Err(WeightedGraphError::SelfLoop { .. })
        ));
        assert!(matches!(
            WeightedGraph::from_csr(2, &[0, 2, 2], &[1, 1], &[1.0, 1.0]),
            Err(WeightedGraphError::DuplicateEdge { .. })
        ));
        assert!(bad(WeightedGraph::from_csr(2, &[0, 1], &[1], &[1.0])));
        assert!(bad(WeightedGraph::from_csr(
            2,
            &[0, 2, 1],
            &[1, 0],
            &[1.0, 1.0]
        )));
    }
}
