//! The graph that transport runs on: oriented edges with costs, some of them directed.

use graphsparse_base::check_len;
use graphsparse_graph::{EdgeRules, SelfLoops, WeightedGraph};
use rustc_hash::FxHashMap;

use crate::error::Result;

/// Which input edges are directed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Directed<'a> {
    /// Every edge is undirected (mass may move both ways at the same cost).
    None,
    /// Every edge is directed from its first to its second endpoint.
    All,
    /// Edge `e` is directed (first → second endpoint) exactly when `mask[e]` (a mixed graph).
    Mask(&'a [bool]),
}

/// A graph prepared for transport: `n` vertices and `m` oriented edges with costs.
///
/// Edge `e` runs from `tail[e]` to `head[e]`; its row of the signed incidence matrix `F` is
/// `+1` at the head and `−1` at the tail (spec §1), so `(F t)(e) = t(head) − t(tail)` and
/// `(Fᵀ J)(v)` is the net inflow at `v`. An undirected edge `{u, v}` is stored with
/// `tail = min(u, v)`; every result is invariant to that choice. A directed edge keeps its
/// direction and only carries flow along it.
///
/// It is a view built on the library's one [`WeightedGraph`] ([`OtGraph::graph`]: the stored
/// edges `[tail, head]` with their costs, validated there), plus what transport alone needs:
/// the direction of each edge and the tail and head arrays of the incidence kernels.
///
/// Construction ([`OtGraph::new`]) drops self-loops, merges an undirected edge given twice
/// (also as `(u, v)` and `(v, u)`) and directed edges given twice in the same direction,
/// keeping the cheapest. Directed edges in both directions stay two edges (with equal costs
/// they act as one undirected edge). An undirected and a directed edge on the same pair both
/// stay (the dual constraint of the cheaper one binds). `F` is never formed densely.
#[derive(Debug, Clone, PartialEq)]
pub struct OtGraph {
    graph: WeightedGraph,
    tail: Vec<u32>,
    head: Vec<u32>,
    directed: Vec<bool>,
    /// For each input edge, the stored edge it became (`u32::MAX`: dropped self-loop).
    input_to_edge: Vec<u32>,
}

impl OtGraph {
    /// Builds the graph from an edge list.
    ///
    /// # Arguments
    /// * `n` – number of vertices (may be 0).
    /// * `edges` – endpoint pairs `[u, v]` with `u, v < n`.
    /// * `costs` – one cost per edge, finite and `>= 0` (the paper needs `> 0`; a zero cost
    ///   ties its endpoints' potentials together).
    /// * `directed` – which edges are directed, see [`Directed`].
    ///
    /// # Returns
    /// The prepared graph; [`OtGraph::input_to_edge`] maps input edges to stored ones.
    ///
    /// # Errors
    /// [`crate::OtError::Input`] when the mask has the wrong length; [`crate::OtError::Graph`] when the
    /// edges and costs are not a valid [`WeightedGraph`] (costs of the wrong length, an
    /// endpoint out of range, a negative, NaN or infinite cost, more than `u32::MAX`
    /// vertices).
    ///
    /// # Complexity
    /// O(n + m) expected time and memory.
    ///
    /// # Example
    /// ```
    /// use graphsparse_ot::{Directed, OtGraph};
    /// // a path 0-1-2 given with a duplicate and a self-loop
    /// let g = OtGraph::new(3, &[[0, 1], [2, 1], [1, 0], [2, 2]], &[1.0, 2.0, 0.5, 1.0], Directed::None)?;
    /// assert_eq!(g.n_edges(), 2);
    /// assert_eq!(g.cost(), &[0.5, 2.0]); // the cheaper duplicate is kept
    /// assert_eq!((g.tail()[1], g.head()[1]), (1, 2));
    /// # Ok::<(), graphsparse_ot::OtError>(())
    /// ```
    pub fn new(
        n: usize,
        edges: &[[u32; 2]],
        costs: &[f64],
        directed: Directed<'_>,
    ) -> Result<Self> {
        if let Directed::Mask(mask) = directed {
            check_len("directed", mask.len(), edges.len())?;
        }
        // validation, and the self-loops dropped: the one graph's
        let rules = EdgeRules::MULTIGRAPH.self_loops(SelfLoops::Drop);
        let valid = WeightedGraph::from_edges(n, edges, Some(costs), rules)?;
        let m = valid.n_edges();
        let (mut tail, mut head) = (Vec::with_capacity(m), Vec::with_capacity(m));
        let (mut cost, mut dirs) = (Vec::with_capacity(m), Vec::with_capacity(m));
        let mut input_to_edge = Vec::with_capacity(edges.len());
        // the transport normalisation: undirected edges as (min, max), duplicates merged by
        // (tail, head, directed) to the cheapest
        let mut seen: FxHashMap<(u32, u32, bool), u32> = FxHashMap::default();
        for (e, &k) in valid.input_to_edge().iter().enumerate() {
            if k == u32::MAX {
                input_to_edge.push(u32::MAX);
                continue;
            }
            let ([u, v], c) = (valid.edges()[k as usize], valid.weights()[k as usize]);
            let dir = match directed {
                Directed::None => false,
                Directed::All => true,
                Directed::Mask(mask) => mask[e],
            };
            let (a, b) = if dir { (u, v) } else { (u.min(v), u.max(v)) };
            let id = *seen.entry((a, b, dir)).or_insert_with(|| {
                tail.push(a);
                head.push(b);
                cost.push(c);
                dirs.push(dir);
                (cost.len() - 1) as u32
            });
            let slot = &mut cost[id as usize];
            *slot = slot.min(c);
            input_to_edge.push(id);
        }
        let pairs: Vec<[u32; 2]> = tail.iter().zip(&head).map(|(&a, &b)| [a, b]).collect();
        let graph = WeightedGraph::from_edges(n, &pairs, Some(&cost), EdgeRules::MULTIGRAPH)
            .expect("invariant: the edges and costs were validated above");
        Ok(Self {
            graph,
            tail,
            head,
            directed: dirs,
            input_to_edge,
        })
    }

    /// An undirected graph: [`OtGraph::new`] with [`Directed::None`].
    ///
    /// # Arguments
    /// * `n`, `edges`, `costs` – as [`OtGraph::new`].
    ///
    /// # Returns
    /// The prepared graph, every edge stored with `tail = min(u, v)`.
    ///
    /// # Errors
    /// As [`OtGraph::new`].
    ///
    /// # Complexity
    /// O(n + m) expected.
    ///
    /// # Example
    /// ```
    /// let g = graphsparse_ot::OtGraph::undirected(3, &[[2, 1], [1, 0]], &[0.02, 0.01])?;
    /// assert_eq!((g.tail(), g.head()), (&[1, 0][..], &[2, 1][..]));
    /// assert!(g.is_undirected());
    /// # Ok::<(), graphsparse_ot::OtError>(())
    /// ```
    pub fn undirected(n: usize, edges: &[[u32; 2]], costs: &[f64]) -> Result<Self> {
        Self::new(n, edges, costs, Directed::None)
    }

    /// The transport graph of a validated [`WeightedGraph`], its weights the costs.
    ///
    /// # Errors
    /// As [`OtGraph::new`] (only the mask's length can be wrong).
    ///
    /// # Complexity
    /// O(n + m) expected.
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::WeightedGraph;
    /// use graphsparse_ot::{Directed, OtGraph};
    /// let g = WeightedGraph::new(3, &[[2, 1], [1, 0]], Some(&[0.02, 0.01]))?;
    /// let t = OtGraph::from_graph(&g, Directed::None)?;
    /// assert_eq!(t.graph().edges(), &[[1, 2], [0, 1]]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_graph(graph: &WeightedGraph, directed: Directed<'_>) -> Result<Self> {
        Self::new(graph.n_vertices(), graph.edges(), graph.weights(), directed)
    }

    /// The stored edges `[tail, head]` and their costs as the library's one weighted graph
    /// (its CSR adjacency and components included).
    pub fn graph(&self) -> &WeightedGraph {
        &self.graph
    }

    /// Number of vertices `n`.
    pub fn n_vertices(&self) -> usize {
        self.graph.n_vertices()
    }
    /// Number of stored edges `m`.
    pub fn n_edges(&self) -> usize {
        self.graph.n_edges()
    }
    /// Tail of each edge (`F(e, tail) = −1`).
    pub fn tail(&self) -> &[u32] {
        &self.tail
    }
    /// Head of each edge (`F(e, head) = +1`).
    pub fn head(&self) -> &[u32] {
        &self.head
    }
    /// Cost `c(e)` of each edge.
    pub fn cost(&self) -> &[f64] {
        self.graph.weights()
    }
    /// Whether each edge is directed (tail → head only).
    pub fn directed(&self) -> &[bool] {
        &self.directed
    }
    /// For each input edge, the index of the stored edge it became (`u32::MAX` for a dropped
    /// self-loop).
    pub fn input_to_edge(&self) -> &[u32] {
        &self.input_to_edge
    }
    /// True when no edge is directed.
    pub fn is_undirected(&self) -> bool {
        !self.directed.iter().any(|&d| d)
    }

    /// Writes `F t` (one value per edge: `t(head) − t(tail)`) into `out`.
    ///
    /// # Arguments
    /// * `t` – one value per vertex.
    /// * `out` – one slot per stored edge.
    ///
    /// # Returns
    /// `Ok(())` with `(F t)(e)` in `out[e]`.
    ///
    /// # Errors
    /// [`crate::OtError::Input`] when `t` or `out` has the wrong length.
    ///
    /// # Complexity
    /// O(m), no allocation.
    ///
    /// # Example
    /// ```
    /// use graphsparse_ot::OtGraph;
    /// let g = OtGraph::undirected(3, &[[1, 0], [1, 2]], &[1.0, 1.0])?;
    /// let mut ft = [0.0; 2];
    /// g.apply_f(&[1.0, 2.0, 4.0], &mut ft)?;
    /// assert_eq!(ft, [1.0, 2.0]); // t(1) − t(0) and t(2) − t(1): tails are the smaller ends
    /// # Ok::<(), graphsparse_ot::OtError>(())
    /// ```
    pub fn apply_f(&self, t: &[f64], out: &mut [f64]) -> Result<()> {
        check_len("t", t.len(), self.n_vertices())?;
        check_len("out", out.len(), self.n_edges())?;
        self.apply_f_unchecked(t, out);
        Ok(())
    }

    /// [`OtGraph::apply_f`] on buffers whose lengths the caller guarantees.
    pub(crate) fn apply_f_unchecked(&self, t: &[f64], out: &mut [f64]) {
        for ((o, &a), &b) in out.iter_mut().zip(&self.tail).zip(&self.head) {
            *o = t[b as usize] - t[a as usize];
        }
    }

    /// Writes `Fᵀ μ` (the net inflow at each vertex) into `out`.
    ///
    /// # Arguments
    /// * `mu` – one value per stored edge (a flow along `tail → head` when positive).
    /// * `out` – one slot per vertex.
    ///
    /// # Returns
    /// `Ok(())` with `Σ_{e: head = v} μ_e − Σ_{e: tail = v} μ_e` in `out[v]`.
    ///
    /// # Errors
    /// [`crate::OtError::Input`] when `mu` or `out` has the wrong length.
    ///
    /// # Complexity
    /// O(n + m), no allocation.
    ///
    /// # Example
    /// ```
    /// use graphsparse_ot::OtGraph;
    /// let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[1.0, 1.0])?;
    /// let mut inflow = [0.0; 3];
    /// g.apply_ft(&[0.5, 0.5], &mut inflow)?; // half a unit along 0 → 1 → 2
    /// assert_eq!(inflow, [-0.5, 0.0, 0.5]);
    /// # Ok::<(), graphsparse_ot::OtError>(())
    /// ```
    pub fn apply_ft(&self, mu: &[f64], out: &mut [f64]) -> Result<()> {
        check_len("mu", mu.len(), self.n_edges())?;
        check_len("out", out.len(), self.n_vertices())?;
        self.apply_ft_unchecked(mu, out);
        Ok(())
    }

    /// [`OtGraph::apply_ft`] on buffers whose lengths the caller guarantees.
    pub(crate) fn apply_ft_unchecked(&self, mu: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        for ((&m, &a), &b) in mu.iter().zip(&self.tail).zip(&self.head) {
            out[b as usize] += m;
            out[a as usize] -= m;
        }
    }

    /// The unweighted degree of each vertex (each stored edge counts once at each end).
    ///
    /// # Complexity
    /// O(n + m).
    ///
    /// # Example
    /// ```
    /// let g = graphsparse_ot::OtGraph::undirected(3, &[[0, 1], [1, 2]], &[1.0, 1.0])?;
    /// assert_eq!(g.degrees(), vec![1, 2, 1]);
    /// # Ok::<(), graphsparse_ot::OtError>(())
    /// ```
    pub fn degrees(&self) -> Vec<u32> {
        self.graph.degrees()
    }

    /// Connected components (edge directions ignored).
    ///
    /// # Returns
    /// `(component, count)`: a component id per vertex, numbered in order of their smallest
    /// vertex, and the number of components.
    ///
    /// # Complexity
    /// O((n + m) α(n)) the first time (union–find with path halving), O(1) after: the graph
    /// keeps them.
    ///
    /// # Example
    /// ```
    /// let g = graphsparse_ot::OtGraph::undirected(4, &[[2, 3]], &[1.0])?;
    /// assert_eq!(g.components(), (&[0, 1, 2, 2][..], 3));
    /// # Ok::<(), graphsparse_ot::OtError>(())
    /// ```
    pub fn components(&self) -> (&[u32], usize) {
        (self.graph.components(), self.graph.n_components())
    }
}

/// The degree prior `ρ0(v) = deg(v) / Σ deg` (spec §7): the stationary distribution of the
/// simple random walk.
///
/// # Arguments
/// * `g` – the graph (edge directions are ignored for the degree).
///
/// # Returns
/// One probability per vertex. Isolated vertices get 0; a graph without edges gets the
/// uniform distribution; a graph without vertices gets an empty vector.
///
/// # Complexity
/// O(n + m).
///
/// # Example
/// ```
/// use graphsparse_ot::{OtGraph, degree_prior};
/// let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[1.0, 1.0])?;
/// assert_eq!(degree_prior(&g), vec![0.25, 0.5, 0.25]);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn degree_prior(g: &OtGraph) -> Vec<f64> {
    let n = g.n_vertices();
    if g.n_edges() == 0 {
        return vec![1.0 / n as f64; n];
    }
    let d = g.degrees();
    let total = 2.0 * g.n_edges() as f64;
    d.iter().map(|&x| f64::from(x) / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OtError;
    use graphsparse_graph::WeightedGraphError;

    #[test]
    fn preprocessing_rules() {
        let mask = [true, true, false, true];
        let g = OtGraph::new(
            3,
            &[[0, 1], [1, 0], [0, 1], [0, 1]],
            &[1.0, 2.0, 3.0, 0.5],
            Directed::Mask(&mask),
        )
        .unwrap();
        // directed 0->1 (twice, cheapest 0.5), directed 1->0, undirected {0,1}
        assert_eq!(g.n_edges(), 3);
        assert_eq!(g.cost(), &[0.5, 2.0, 3.0]);
        assert_eq!(g.directed(), &[true, true, false]);
        assert_eq!(g.input_to_edge(), &[0, 1, 2, 0]);
        assert!(matches!(
            OtGraph::new(2, &[[0, 2]], &[1.0], Directed::None),
            Err(OtError::Graph(WeightedGraphError::EndpointOutOfRange {
                edge: 0,
                ..
            }))
        ));
        assert!(matches!(
            OtGraph::new(2, &[[0, 1]], &[-1.0], Directed::None),
            Err(OtError::Graph(WeightedGraphError::InvalidWeight {
                arg: "costs",
                ..
            }))
        ));
        assert!(matches!(
            OtGraph::new(2, &[[0, 1]], &[f64::NAN], Directed::None),
            Err(OtError::Graph(WeightedGraphError::InvalidWeight {
                arg: "costs",
                ..
            }))
        ));
        assert!(matches!(
            OtGraph::new(2, &[[0, 1]], &[1.0, 2.0], Directed::None),
            Err(OtError::Graph(WeightedGraphError::WeightsLength {
                arg: "costs",
                ..
            }))
        ));
    }

    #[test]
    fn incidence_kernels_and_components() {
        let g = OtGraph::undirected(4, &[[1, 0], [1, 2]], &[1.0, 1.0]).unwrap();
        let mut ft = vec![0.0; 2];
        g.apply_f(&[1.0, 2.0, 4.0, 8.0], &mut ft).unwrap();
        assert_eq!(ft, [1.0, 2.0]); // t(1) - t(0), t(2) - t(1)
        let mut inflow = vec![0.0; 4];
        g.apply_ft(&[1.0, 1.0], &mut inflow).unwrap();
        assert_eq!(inflow, [-1.0, 0.0, 1.0, 0.0]);
        assert_eq!(g.components(), (&[0, 0, 0, 1][..], 2));
        assert_eq!(degree_prior(&g), vec![0.25, 0.5, 0.25, 0.0]);
    }
}
