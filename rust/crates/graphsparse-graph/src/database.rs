//! Flat, validated storage for a collection of small labelled graphs.

use crate::error::{GraphError, Result};

/// A collection of graphs with integer vertex and edge labels, stored flat; undirected unless
/// made directed by [`GraphDatabase::into_directed`].
///
/// Graph `g` owns vertices `node_ptr[g]..node_ptr[g+1]` and edges `edge_ptr[g]..edge_ptr[g+1]`.
/// Edge endpoints are *local* vertex indices (`0..n_vertices(g)`). Construction validates
/// everything the miners rely on: no self-loops, no parallel edges, endpoints in range. It is
/// immutable afterwards, so every `GraphDatabase` in existence is valid.
///
/// In a *directed* database ([`GraphDatabase::directed`]) edge `[u, v]` is the arc `u → v`.
/// Validation is the same (so a pair of vertices holds at most one arc: no antiparallel
/// arcs), and edge labels must stay below [`MAX_DIRECTED_EDGE_LABEL`], since the miners
/// fold an arc's direction into its label.
///
/// Build one with [`GraphDatabase::new`] (flat `usize`/`u32` arrays),
/// [`GraphDatabase::from_i64`] (signed arrays, as from NumPy), or a reader
/// ([`parse_gspan`](crate::parse_gspan), [`parse_tu`](crate::parse_tu)).
///
/// # Example
/// ```
/// use graphsparse_graph::GraphDatabase;
/// // graph 0: a path 0-1-2; graph 1: one vertex
/// let db = GraphDatabase::new(
///     vec![0, 3, 4], vec![0, 1, 0, 2], vec![0, 2, 2],
///     vec![[0, 1], [1, 2]], vec![5, 5],
/// )?;
/// assert_eq!(db.len(), 2);
/// assert_eq!(db.graph(1).node_labels, [2]);
/// assert_eq!((db.n_node_labels(), db.n_edge_labels()), (3, 6));
/// # Ok::<(), graphsparse_graph::GraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphDatabase {
    node_ptr: Vec<usize>,
    node_labels: Vec<u32>,
    edge_ptr: Vec<usize>,
    edges: Vec<[u32; 2]>,
    edge_labels: Vec<u32>,
    directed: bool,
}

/// Edge labels of a directed database are below this bound (`2^31`): a miner doubles a label
/// and adds the direction bit (see [`GraphDatabase::into_directed`]).
pub const MAX_DIRECTED_EDGE_LABEL: u32 = 1 << 31;

impl Default for GraphDatabase {
    /// The database holding no graph (`node_ptr() == edge_ptr() == [0]`).
    fn default() -> Self {
        Self {
            node_ptr: vec![0],
            node_labels: Vec::new(),
            edge_ptr: vec![0],
            edges: Vec::new(),
            edge_labels: Vec::new(),
            directed: false,
        }
    }
}

/// A borrowed view of one graph of a [`GraphDatabase`] (from [`GraphDatabase::graph`],
/// [`GraphDatabase::get`] or [`GraphDatabase::iter`]).
///
/// Vertices are `0..n_vertices()`; `edges[e]` joins two of them and carries `edge_labels[e]`.
///
/// # Example
/// ```
/// use graphsparse_graph::parse_gspan;
/// let data = parse_gspan("t # 0\nv 7 C\nv 9 O\ne 9 7 1\n", "<doc>")?;
/// let g = data.db.graph(0);
/// assert_eq!(g.edges, [[1, 0]]); // local indices in order of appearance
/// assert_eq!(data.edge_labels[g.edge_labels[0] as usize], "1");
/// # Ok::<(), graphsparse_graph::GraphError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct GraphRef<'a> {
    /// Label of each vertex.
    pub node_labels: &'a [u32],
    /// Endpoints of each edge (local vertex indices).
    pub edges: &'a [[u32; 2]],
    /// Label of each edge.
    pub edge_labels: &'a [u32],
}

impl GraphRef<'_> {
    /// Number of vertices.
    ///
    /// # Returns
    /// `node_labels.len()`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// let data = graphsparse_graph::parse_gspan("t # 0\nv 0 C\n", "<doc>")?;
    /// assert_eq!(data.db.graph(0).n_vertices(), 1);
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn n_vertices(&self) -> usize {
        self.node_labels.len()
    }

    /// Number of edges.
    ///
    /// # Returns
    /// `edges.len()`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// let data = graphsparse_graph::parse_gspan("t # 0\nv 0 C\nv 1 C\ne 0 1 x\n", "<doc>")?;
    /// assert_eq!(data.db.graph(0).n_edges(), 1);
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }
}

fn check_ptr(ptr: &[usize], total: usize, what: &str) -> Result<()> {
    if ptr.is_empty() || ptr[0] != 0 {
        return Err(GraphError::Malformed(format!(
            "{what} offsets must start at 0"
        )));
    }
    if ptr.windows(2).any(|w| w[0] > w[1]) {
        return Err(GraphError::Malformed(format!(
            "{what} offsets must be non-decreasing"
        )));
    }
    if *ptr.last().expect("invariant: non-empty") != total {
        return Err(GraphError::Malformed(format!(
            "{what} offsets end at {} but there are {total} {what}s",
            ptr.last().expect("invariant: non-empty")
        )));
    }
    Ok(())
}

impl GraphDatabase {
    /// Builds a database from flat arrays and validates it.
    ///
    /// # Arguments
    /// * `node_ptr` – `n_graphs + 1` offsets into `node_labels`.
    /// * `node_labels` – the label of every vertex, graph after graph.
    /// * `edge_ptr` – `n_graphs + 1` offsets into `edges` / `edge_labels`.
    /// * `edges` – local endpoints of every edge.
    /// * `edge_labels` – the label of every edge.
    ///
    /// # Returns
    /// The database, owning the arrays (nothing is copied).
    ///
    /// # Errors
    /// [`GraphError::Malformed`] for inconsistent offsets or lengths, and
    /// [`GraphError::VertexOutOfRange`], [`GraphError::SelfLoop`] or
    /// [`GraphError::ParallelEdge`] for a bad edge (the first one found, in graph order).
    ///
    /// # Complexity
    /// O(V + E log d) time for V vertices, E edges and at most d edges in one graph; O(d)
    /// scratch memory.
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::GraphDatabase;
    /// // one triangle with labels 0,0,1 and edge labels 0
    /// let db = GraphDatabase::new(
    ///     vec![0, 3], vec![0, 0, 1], vec![0, 3],
    ///     vec![[0, 1], [1, 2], [2, 0]], vec![0, 0, 0],
    /// ).unwrap();
    /// assert_eq!(db.len(), 1);
    /// assert!(GraphDatabase::new(vec![0, 1], vec![0], vec![0, 1], vec![[0, 0]], vec![0]).is_err());
    /// ```
    pub fn new(
        node_ptr: Vec<usize>,
        node_labels: Vec<u32>,
        edge_ptr: Vec<usize>,
        edges: Vec<[u32; 2]>,
        edge_labels: Vec<u32>,
    ) -> Result<Self> {
        check_ptr(&node_ptr, node_labels.len(), "vertex")?;
        check_ptr(&edge_ptr, edges.len(), "edge")?;
        if node_ptr.len() != edge_ptr.len() {
            return Err(GraphError::Malformed(format!(
                "vertex offsets describe {} graphs but edge offsets describe {}",
                node_ptr.len() - 1,
                edge_ptr.len() - 1
            )));
        }
        if edge_labels.len() != edges.len() {
            return Err(GraphError::Malformed(format!(
                "{} edges but {} edge labels",
                edges.len(),
                edge_labels.len()
            )));
        }
        let db = Self {
            node_ptr,
            node_labels,
            edge_ptr,
            edges,
            edge_labels,
            directed: false,
        };
        db.validate_edges()?;
        Ok(db)
    }

    fn validate_edges(&self) -> Result<()> {
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for g in 0..self.len() {
            let graph = self.graph(g);
            let n = graph.n_vertices();
            pairs.clear();
            for &[u, v] in graph.edges {
                for x in [u, v] {
                    if x as usize >= n {
                        return Err(GraphError::VertexOutOfRange {
                            graph: g,
                            vertex: i64::from(x),
                            n_vertices: n,
                        });
                    }
                }
                if u == v {
                    return Err(GraphError::SelfLoop {
                        graph: g,
                        vertex: u as usize,
                    });
                }
                pairs.push((u.min(v), u.max(v)));
            }
            pairs.sort_unstable();
            if let Some(w) = pairs.windows(2).find(|w| w[0] == w[1]) {
                return Err(GraphError::ParallelEdge {
                    graph: g,
                    u: w[0].0 as usize,
                    v: w[0].1 as usize,
                });
            }
        }
        Ok(())
    }

    /// Builds a database from signed 64-bit arrays (as they arrive from NumPy), checking ranges.
    ///
    /// # Arguments
    /// * `node_ptr` – `n_graphs + 1` offsets into `node_labels`, non-negative.
    /// * `node_labels` – the label of every vertex, in `0..2^32`.
    /// * `edge_ptr` – `n_graphs + 1` offsets into the edges, non-negative.
    /// * `edges` – flat endpoint pairs `[u0, v0, u1, v1, ...]` (local indices).
    /// * `edge_labels` – the label of every edge, in `0..2^32`.
    ///
    /// # Returns
    /// The database, as [`GraphDatabase::new`] builds it from the converted arrays.
    ///
    /// # Errors
    /// [`GraphError::Malformed`] for a negative offset or an odd-length `edges`;
    /// [`GraphError::LabelOutOfRange`] for a label outside `0..2^32`;
    /// [`GraphError::VertexOutOfRange`] for an endpoint outside `0..2^32` (naming the graph
    /// the edge falls in); otherwise as [`GraphDatabase::new`].
    ///
    /// # Complexity
    /// As [`GraphDatabase::new`], plus one O(V + E) copy of the arrays.
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::{GraphDatabase, GraphError};
    /// let db = GraphDatabase::from_i64(&[0, 2], &[3, 4], &[0, 1], &[0, 1], &[7])?;
    /// assert_eq!(db.graph(0).edges, [[0, 1]]);
    /// let e = GraphDatabase::from_i64(&[0, 2], &[3, -4], &[0, 1], &[0, 1], &[7]);
    /// assert!(matches!(e, Err(GraphError::LabelOutOfRange { what: "vertex", value: -4 })));
    /// # Ok::<(), GraphError>(())
    /// ```
    pub fn from_i64(
        node_ptr: &[i64],
        node_labels: &[i64],
        edge_ptr: &[i64],
        edges: &[i64],
        edge_labels: &[i64],
    ) -> Result<Self> {
        let to_ptr = |p: &[i64], what: &str| -> Result<Vec<usize>> {
            p.iter()
                .map(|&x| {
                    usize::try_from(x)
                        .map_err(|_| GraphError::Malformed(format!("negative {what} offset {x}")))
                })
                .collect()
        };
        let to_label = |l: &[i64], what: &'static str| -> Result<Vec<u32>> {
            l.iter()
                .map(|&x| {
                    u32::try_from(x).map_err(|_| GraphError::LabelOutOfRange { what, value: x })
                })
                .collect()
        };
        let node_ptr = to_ptr(node_ptr, "vertex")?;
        let edge_ptr = to_ptr(edge_ptr, "edge")?;
        if edges.len() % 2 != 0 {
            return Err(GraphError::Malformed("edge array must hold pairs".into()));
        }
        let mut pairs = Vec::with_capacity(edges.len() / 2);
        let mut graph = 0usize;
        for (k, e) in edges.chunks_exact(2).enumerate() {
            while graph + 1 < edge_ptr.len() && edge_ptr[graph + 1] <= k {
                graph += 1;
            }
            let n = node_ptr
                .get(graph + 1)
                .zip(node_ptr.get(graph))
                .map_or(0, |(b, a)| b.saturating_sub(*a));
            let mut pair = [0u32; 2];
            for (slot, &x) in pair.iter_mut().zip(e) {
                *slot = u32::try_from(x).map_err(|_| GraphError::VertexOutOfRange {
                    graph,
                    vertex: x,
                    n_vertices: n,
                })?;
            }
            pairs.push(pair);
        }
        Self::new(
            node_ptr,
            to_label(node_labels, "vertex")?,
            edge_ptr,
            pairs,
            to_label(edge_labels, "edge")?,
        )
    }

    /// The same graphs read as directed: edge `[u, v]` becomes the arc `u → v`.
    ///
    /// The undirected validation already holds (no two edges on one pair of vertices, so no
    /// antiparallel arcs); edge labels must also be below [`MAX_DIRECTED_EDGE_LABEL`].
    ///
    /// # Errors
    /// [`GraphError::Malformed`] naming the first edge label `>= 2^31`.
    ///
    /// # Complexity
    /// O(E) to check the labels; nothing is copied.
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::GraphDatabase;
    /// let db = GraphDatabase::new(vec![0, 2], vec![0, 1], vec![0, 1], vec![[1, 0]], vec![3])?;
    /// assert!(!db.directed());
    /// let arcs = db.into_directed()?;
    /// assert!(arcs.directed() && arcs.select(&[0])?.directed());
    /// assert_eq!(arcs.graph(0).edges, [[1, 0]]); // the arc 1 -> 0
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn into_directed(mut self) -> Result<Self> {
        if let Some(&l) = self
            .edge_labels
            .iter()
            .find(|&&l| l >= MAX_DIRECTED_EDGE_LABEL)
        {
            return Err(GraphError::Malformed(format!(
                "edge label {l} out of range for a directed database (labels below 2^31)"
            )));
        }
        self.directed = true;
        Ok(self)
    }

    /// True when edges are arcs (`[u, v]` is `u → v`); see [`GraphDatabase::into_directed`].
    ///
    /// # Complexity
    /// O(1).
    pub fn directed(&self) -> bool {
        self.directed
    }

    /// Number of graphs.
    ///
    /// # Returns
    /// `node_ptr().len() - 1`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// let empty = graphsparse_graph::GraphDatabase::default();
    /// assert_eq!((empty.len(), empty.node_ptr()), (0, &[0][..]));
    /// ```
    pub fn len(&self) -> usize {
        self.node_ptr.len().saturating_sub(1)
    }

    /// True when the database holds no graph.
    ///
    /// # Returns
    /// `self.len() == 0`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// assert!(graphsparse_graph::GraphDatabase::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A view of graph `g`.
    ///
    /// # Arguments
    /// * `g` – the graph index, `< len()`.
    ///
    /// # Returns
    /// Borrowed slices of its vertex labels, edges and edge labels.
    ///
    /// # Panics
    /// If `g >= len()`; use [`GraphDatabase::get`] for an index from user input.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// let data = graphsparse_graph::parse_gspan("t # 0\nv 0 C\nt # 1\nv 0 O\n", "<doc>")?;
    /// assert_eq!(data.db.graph(1).node_labels, [1]);
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn graph(&self, g: usize) -> GraphRef<'_> {
        self.get(g).unwrap_or_else(|| {
            panic!(
                "graph index {g} out of range for a database of {} graphs",
                self.len()
            )
        })
    }

    /// A view of graph `g`, or `None` when there is no such graph.
    ///
    /// # Arguments
    /// * `g` – any graph index.
    ///
    /// # Returns
    /// `Some` view when `g < len()`, else `None`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// let data = graphsparse_graph::parse_gspan("t # 0\nv 0 C\n", "<doc>")?;
    /// assert_eq!(data.db.get(0).map(|g| g.n_vertices()), Some(1));
    /// assert!(data.db.get(1).is_none() && data.db.get(usize::MAX).is_none());
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn get(&self, g: usize) -> Option<GraphRef<'_>> {
        if g >= self.len() {
            return None;
        }
        let (a, b) = (self.node_ptr[g], self.node_ptr[g + 1]);
        let (c, d) = (self.edge_ptr[g], self.edge_ptr[g + 1]);
        Some(GraphRef {
            node_labels: &self.node_labels[a..b],
            edges: &self.edges[c..d],
            edge_labels: &self.edge_labels[c..d],
        })
    }

    /// Iterates over the graphs in order.
    ///
    /// # Returns
    /// An iterator of `len()` views, graph 0 first.
    ///
    /// # Complexity
    /// O(1) per item.
    ///
    /// # Example
    /// ```
    /// let data = graphsparse_graph::parse_gspan("t # 0\nv 0 C\nt # 1\nv 0 C\nv 1 C\n", "<doc>")?;
    /// let sizes: Vec<usize> = data.db.iter().map(|g| g.n_vertices()).collect();
    /// assert_eq!(sizes, [1, 2]);
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = GraphRef<'_>> + '_ {
        (0..self.len()).map(|g| self.graph(g))
    }

    /// Vertex offsets: graph `g` owns vertices `node_ptr()[g]..node_ptr()[g + 1]`.
    ///
    /// # Returns
    /// `len() + 1` non-decreasing offsets, the first 0, the last `node_labels().len()`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// let data = graphsparse_graph::parse_gspan("t # 0\nv 0 C\nv 1 O\ne 0 1 -\nt # 1\nv 0 O\n", "<doc>")?;
    /// let db = &data.db;
    /// assert_eq!((db.node_ptr(), db.node_labels()), (&[0, 2, 3][..], &[0, 1, 1][..]));
    /// assert_eq!((db.edge_ptr(), db.edges(), db.edge_labels()), (&[0, 1, 1][..], &[[0, 1]][..], &[0][..]));
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn node_ptr(&self) -> &[usize] {
        &self.node_ptr
    }

    /// All vertex labels, graph after graph.
    ///
    /// # Returns
    /// One dense label id per vertex.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// See [`GraphDatabase::node_ptr`].
    pub fn node_labels(&self) -> &[u32] {
        &self.node_labels
    }

    /// Edge offsets: graph `g` owns edges `edge_ptr()[g]..edge_ptr()[g + 1]`.
    ///
    /// # Returns
    /// `len() + 1` non-decreasing offsets, the first 0, the last `edges().len()`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// See [`GraphDatabase::node_ptr`].
    pub fn edge_ptr(&self) -> &[usize] {
        &self.edge_ptr
    }

    /// All edges, graph after graph.
    ///
    /// # Returns
    /// One pair of local endpoints (indices within the edge's graph) per edge.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// See [`GraphDatabase::node_ptr`].
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// All edge labels, graph after graph.
    ///
    /// # Returns
    /// One dense label id per edge, aligned with [`GraphDatabase::edges`].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// See [`GraphDatabase::node_ptr`].
    pub fn edge_labels(&self) -> &[u32] {
        &self.edge_labels
    }

    /// The size of the vertex-label alphabet the ids index into.
    ///
    /// # Returns
    /// One more than the largest vertex label id; 0 when there is no vertex.
    ///
    /// # Complexity
    /// O(V) (a scan; cache it in loops).
    ///
    /// # Example
    /// See [`GraphDatabase`].
    pub fn n_node_labels(&self) -> usize {
        self.node_labels.iter().max().map_or(0, |&m| m as usize + 1)
    }

    /// The size of the edge-label alphabet the ids index into.
    ///
    /// # Returns
    /// One more than the largest edge label id; 0 when there is no edge.
    ///
    /// # Complexity
    /// O(E) (a scan; cache it in loops).
    ///
    /// # Example
    /// See [`GraphDatabase`].
    pub fn n_edge_labels(&self) -> usize {
        self.edge_labels.iter().max().map_or(0, |&m| m as usize + 1)
    }

    /// A new database holding the graphs `ids`, in that order (repeats allowed).
    ///
    /// Needs no validation: the graphs are valid already.
    ///
    /// # Arguments
    /// * `ids` – graph indices, each `< len()`.
    ///
    /// # Returns
    /// A database of `ids.len()` graphs; graph `k` is a copy of graph `ids[k]`, with the same
    /// label ids.
    ///
    /// # Errors
    /// [`GraphError::Malformed`] naming the first id that is out of range.
    ///
    /// # Complexity
    /// O(`ids.len()` + size of the selected graphs).
    ///
    /// # Example
    /// ```
    /// let data = graphsparse_graph::parse_gspan("t # 0\nv 0 C\nt # 1\nv 0 O\nv 1 O\n", "<doc>")?;
    /// let sub = data.db.select(&[1, 1, 0])?;
    /// assert_eq!(sub.iter().map(|g| g.n_vertices()).collect::<Vec<_>>(), [2, 2, 1]);
    /// assert!(data.db.select(&[2]).is_err());
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn select(&self, ids: &[usize]) -> Result<Self> {
        let mut out = Self {
            directed: self.directed,
            ..Self::default()
        };
        for &g in ids {
            if g >= self.len() {
                return Err(GraphError::Malformed(format!(
                    "graph id {g} out of range for {} graphs",
                    self.len()
                )));
            }
            let view = self.graph(g);
            out.node_labels.extend_from_slice(view.node_labels);
            out.edges.extend_from_slice(view.edges);
            out.edge_labels.extend_from_slice(view.edge_labels);
            out.node_ptr.push(out.node_labels.len());
            out.edge_ptr.push(out.edges.len());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle() -> GraphDatabase {
        GraphDatabase::new(
            vec![0, 3],
            vec![0, 0, 1],
            vec![0, 3],
            vec![[0, 1], [1, 2], [2, 0]],
            vec![0, 0, 0],
        )
        .unwrap()
    }

    #[test]
    fn rejects_self_loop_parallel_and_range() {
        let e = GraphDatabase::new(
            vec![0, 2],
            vec![0, 0],
            vec![0, 2],
            vec![[0, 1], [1, 0]],
            vec![0, 1],
        );
        assert_eq!(
            e,
            Err(GraphError::ParallelEdge {
                graph: 0,
                u: 0,
                v: 1
            })
        );
        let e = GraphDatabase::new(vec![0, 2], vec![0, 0], vec![0, 1], vec![[1, 1]], vec![0]);
        assert_eq!(
            e,
            Err(GraphError::SelfLoop {
                graph: 0,
                vertex: 1
            })
        );
        let e = GraphDatabase::new(vec![0, 2], vec![0, 0], vec![0, 1], vec![[0, 2]], vec![0]);
        assert!(matches!(
            e,
            Err(GraphError::VertexOutOfRange { vertex: 2, .. })
        ));
        let e = GraphDatabase::from_i64(&[0, 2], &[0, 0], &[0, 1], &[0, -1], &[0]);
        assert!(matches!(
            e,
            Err(GraphError::VertexOutOfRange { vertex: -1, .. })
        ));
        let e = GraphDatabase::from_i64(&[0, 2], &[0, -3], &[0, 1], &[0, 1], &[0]);
        assert!(matches!(
            e,
            Err(GraphError::LabelOutOfRange { value: -3, .. })
        ));
    }

    #[test]
    fn directed_keeps_the_arrays_and_bounds_labels() {
        let db = triangle();
        let arcs = db.clone().into_directed().unwrap();
        assert!(arcs.directed() && !db.directed());
        assert_ne!(arcs, db); // same arrays, different graphs
        assert_eq!(arcs.edges(), db.edges());
        assert!(arcs.select(&[0, 0]).unwrap().directed());
        assert!(!db.select(&[0]).unwrap().directed());
        let big = GraphDatabase::new(
            vec![0, 2],
            vec![0, 0],
            vec![0, 1],
            vec![[0, 1]],
            vec![MAX_DIRECTED_EDGE_LABEL],
        )
        .unwrap();
        assert!(matches!(big.into_directed(), Err(GraphError::Malformed(m)) if m.contains("2^31")));
    }

    #[test]
    fn rejects_bad_offsets() {
        assert!(GraphDatabase::new(vec![1, 2], vec![0, 0], vec![0, 0], vec![], vec![]).is_err());
        assert!(GraphDatabase::new(vec![0, 3], vec![0, 0], vec![0, 0], vec![], vec![]).is_err());
        assert!(GraphDatabase::new(vec![0, 2], vec![0, 0], vec![0, 0, 0], vec![], vec![]).is_err());
        assert!(
            GraphDatabase::new(vec![0, 2], vec![0, 0], vec![0, 1], vec![[0, 1]], vec![]).is_err()
        );
    }

    #[test]
    fn select_and_views() {
        let db = triangle();
        let two = db.select(&[0, 0]).unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two.graph(1).n_edges(), 3);
        assert_eq!(two.n_node_labels(), 2);
        assert!(db.select(&[1]).is_err());
        assert_eq!(db.get(0).map(|g| g.n_edges()), Some(3));
        assert!(db.get(1).is_none() && db.get(usize::MAX).is_none());
        assert_eq!(db.select(&[]).unwrap(), GraphDatabase::default());
        assert_eq!(
            GraphDatabase::new(vec![0], vec![], vec![0], vec![], vec![]).unwrap(),
            GraphDatabase::default()
        );
        assert_eq!(
            GraphDatabase::new(vec![0], vec![], vec![0], vec![], vec![])
                .unwrap()
                .len(),
            0
        );
    }
}
