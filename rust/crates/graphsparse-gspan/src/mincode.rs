//! Minimum DFS codes: the canonical-form test (`is_min`) and canonicalisation of any graph.
//!
//! Both build the minimum code greedily, one edge at a time, as gSpan does: the set of partial
//! embeddings (DFS index → graph vertex) that realise the minimum prefix is kept, the smallest
//! rightmost-path extension over all of them is the next edge of the minimum code, and only the
//! embeddings that realise it survive. Which pattern edges are already used depends only on the
//! prefix (in DFS-index space), so an embedding is just its vertex map `phi` and inverse `psi`.
//! The test stops at the first position where the minimum differs from the candidate.

use graphsparse_graph::{GraphError, GraphRef};

use crate::code::{DfsCode, DfsEdge};
use crate::error::{GspanError, Result};

const NONE: u32 = u32::MAX;

/// Reusable buffers for minimum-code computations on small graphs.
#[derive(Debug, Default, Clone)]
pub(crate) struct MinCodeScratch {
    labels: Vec<u32>,
    adj_ptr: Vec<u32>,
    adj: Vec<(u32, u32)>,
    degree: Vec<u32>,
    /// row-major embeddings: `phi[e * n + dfs] = vertex`, `psi[e * n + vertex] = dfs`
    phi: Vec<u32>,
    psi: Vec<u32>,
    phi_next: Vec<u32>,
    psi_next: Vec<u32>,
    dfs_label: Vec<u32>,
    /// rightmost path, root first
    rmpath: Vec<u32>,
    on_path: Vec<bool>,
    /// DFS indices already joined to the rightmost vertex in the prefix
    r_used: Vec<u32>,
    built: Vec<DfsEdge>,
    /// Edge labels are arc labels ([`DfsEdge::arc_label`]): seen from the other end, an
    /// edge's label has its direction bit flipped.
    directed: bool,
}

impl MinCodeScratch {
    /// Scratch for codes of a directed (`true`) or undirected search.
    pub(crate) fn new(directed: bool) -> Self {
        Self {
            directed,
            ..Self::default()
        }
    }

    fn load(
        &mut self,
        labels: impl Iterator<Item = u32>,
        edges: impl Iterator<Item = (u32, u32, u32)> + Clone,
    ) {
        self.labels.clear();
        self.labels.extend(labels);
        let n = self.labels.len();
        self.degree.clear();
        self.degree.resize(n + 1, 0);
        for (u, v, _) in edges.clone() {
            self.degree[u as usize] += 1;
            self.degree[v as usize] += 1;
        }
        self.adj_ptr.clear();
        self.adj_ptr.push(0);
        let mut acc = 0;
        for d in &self.degree[..n] {
            acc += d;
            self.adj_ptr.push(acc);
        }
        self.adj.clear();
        self.adj.resize(acc as usize, (0, 0));
        // fill using degree as a cursor
        self.degree[..n].copy_from_slice(&self.adj_ptr[..n]);
        let flip = u32::from(self.directed);
        for (u, v, l) in edges {
            self.adj[self.degree[u as usize] as usize] = (v, l);
            self.degree[u as usize] += 1;
            self.adj[self.degree[v as usize] as usize] = (u, l ^ flip);
            self.degree[v as usize] += 1;
        }
    }

    #[inline]
    fn nbrs(&self, u: u32) -> &[(u32, u32)] {
        &self.adj[self.adj_ptr[u as usize] as usize..self.adj_ptr[u as usize + 1] as usize]
    }

    /// True when `code` (a valid DFS code) is the minimum code of its graph.
    pub(crate) fn is_min(&mut self, code: &[DfsEdge]) -> bool {
        if code.len() <= 1 {
            let flip = u32::from(self.directed);
            return code
                .first()
                .is_none_or(|e| (e.from_label, e.edge_label) <= (e.to_label, e.edge_label ^ flip));
        }
        let n = code
            .iter()
            .map(|e| e.from.max(e.to))
            .max()
            .map_or(0, |m| m as usize + 1);
        let mut labels = std::mem::take(&mut self.labels);
        labels.clear();
        labels.resize(n, 0);
        for e in code {
            labels[e.from as usize] = e.from_label;
            labels[e.to as usize] = e.to_label;
        }
        let edges = code.iter().map(|e| (e.from, e.to, e.edge_label));
        self.load(labels.iter().copied(), edges);
        self.labels = labels;
        self.run(Some(code))
    }

    /// Builds the minimum code of the loaded (connected) graph into `self.built`, or, with a
    /// candidate, stops with `false` at the first edge where the minimum is smaller.
    fn run(&mut self, cand: Option<&[DfsEdge]>) -> bool {
        let m = self.adj.len() / 2;
        self.built.clear();
        if m == 0 {
            return true;
        }
        let first = self.first_edge();
        if cand.is_some_and(|c| c[0] != first) {
            return false;
        }
        self.seed(first);
        (1..m).all(|k| self.next_edge(k, cand))
    }

    /// The smallest one-edge code `(0, 1, a, e, b)` of the loaded graph (which has an edge).
    fn first_edge(&self) -> DfsEdge {
        let mut best: Option<(u32, u32, u32)> = None;
        for u in 0..self.labels.len() as u32 {
            let lu = self.labels[u as usize];
            for &(w, le) in self.nbrs(u) {
                let key = (lu, le, self.labels[w as usize]);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        let (l0, le0, l1) = best.expect("invariant: m > 0");
        DfsEdge::new(0, 1, l0, le0, l1)
    }

    /// Starts the minimum code with `first`: its embeddings (both orientations of every data
    /// edge that realises it), the DFS labels and the rightmost path `0 → 1`.
    fn seed(&mut self, first: DfsEdge) {
        let n = self.labels.len();
        let (l0, le0, l1) = (first.from_label, first.edge_label, first.to_label);
        self.phi.clear();
        self.psi.clear();
        for u in 0..n as u32 {
            if self.labels[u as usize] != l0 {
                continue;
            }
            for k in self.adj_ptr[u as usize]..self.adj_ptr[u as usize + 1] {
                let (w, le) = self.adj[k as usize];
                if le == le0 && self.labels[w as usize] == l1 {
                    let base = self.phi.len();
                    self.phi.resize(base + n, NONE);
                    self.psi.resize(base + n, NONE);
                    self.phi[base] = u;
                    self.phi[base + 1] = w;
                    self.psi[base + u as usize] = 0;
                    self.psi[base + w as usize] = 1;
                }
            }
        }
        self.built.push(first);
        self.dfs_label.clear();
        self.dfs_label.extend([l0, l1]);
        self.rmpath.clear();
        self.rmpath.extend([0, 1]);
        self.on_path.clear();
        self.on_path.resize(n, false);
        self.on_path[0] = true;
        self.on_path[1] = true;
        self.r_used.clear();
        self.r_used.push(0);
    }

    /// Appends edge `k` of the minimum code: the smallest backward edge from the rightmost
    /// vertex, else the smallest forward edge from the deepest rightmost-path vertex that has
    /// one. False when it differs from the candidate's edge `k` (or, for a disconnected graph,
    /// which callers exclude, when there is none).
    fn next_edge(&mut self, k: usize, cand: Option<&[DfsEdge]>) -> bool {
        let r = self.dfs_label.len() as u32 - 1;
        if let Some((j, le)) = self.min_backward(r) {
            let ext = DfsEdge::new(
                r,
                j,
                self.dfs_label[r as usize],
                le,
                self.dfs_label[j as usize],
            );
            if cand.is_some_and(|c| c[k] != ext) {
                return false;
            }
            self.keep_backward(r, j, le);
            self.built.push(ext);
            self.r_used.push(j);
            return true;
        }
        for pos in (0..self.rmpath.len()).rev() {
            let j = self.rmpath[pos];
            let Some((le, lw)) = self.min_forward(j) else {
                continue;
            };
            let v = self.dfs_label.len() as u32;
            let ext = DfsEdge::new(j, v, self.dfs_label[j as usize], le, lw);
            if cand.is_some_and(|c| c[k] != ext) {
                return false;
            }
            self.grow_forward(j, v, le, lw);
            self.built.push(ext);
            self.dfs_label.push(lw);
            for &x in &self.rmpath[pos + 1..] {
                self.on_path[x as usize] = false;
            }
            self.rmpath.truncate(pos + 1);
            self.rmpath.push(v);
            self.on_path[v as usize] = true;
            self.r_used.clear();
            self.r_used.push(j);
            return true;
        }
        false
    }

    /// The smallest `(to, edge label)` of a backward edge from the rightmost vertex `r` to the
    /// rightmost path not yet joined to `r`, over all embeddings.
    fn min_backward(&self, r: u32) -> Option<(u32, u32)> {
        let n = self.labels.len();
        let mut bb: Option<(u32, u32)> = None;
        for e in 0..self.phi.len() / n {
            let u = self.phi[e * n + r as usize];
            let psi = &self.psi[e * n..(e + 1) * n];
            for &(w, le) in self.nbrs(u) {
                let j = psi[w as usize];
                if j == NONE || !self.on_path[j as usize] || self.r_used.contains(&j) {
                    continue;
                }
                if bb.is_none_or(|b| (j, le) < b) {
                    bb = Some((j, le));
                }
            }
        }
        bb
    }

    /// Keeps the embeddings that have the backward edge `r → j` with label `le`.
    fn keep_backward(&mut self, r: u32, j: u32, le: u32) {
        let n = self.labels.len();
        let mut keep = 0;
        for e in 0..self.phi.len() / n {
            let u = self.phi[e * n + r as usize];
            let t = self.phi[e * n + j as usize];
            if self.nbrs(u).iter().any(|&(w, l)| w == t && l == le) {
                if keep != e {
                    self.phi.copy_within(e * n..(e + 1) * n, keep * n);
                    self.psi.copy_within(e * n..(e + 1) * n, keep * n);
                }
                keep += 1;
            }
        }
        self.phi.truncate(keep * n);
        self.psi.truncate(keep * n);
    }

    /// The smallest `(edge label, to label)` of a forward edge from DFS vertex `j` to a data
    /// vertex outside the embedding, over all embeddings.
    fn min_forward(&self, j: u32) -> Option<(u32, u32)> {
        let n = self.labels.len();
        let mut bf: Option<(u32, u32)> = None;
        for e in 0..self.phi.len() / n {
            let u = self.phi[e * n + j as usize];
            let psi = &self.psi[e * n..(e + 1) * n];
            for &(w, le) in self.nbrs(u) {
                if psi[w as usize] != NONE {
                    continue;
                }
                let key = (le, self.labels[w as usize]);
                if bf.is_none_or(|b| key < b) {
                    bf = Some(key);
                }
            }
        }
        bf
    }

    /// Replaces the embeddings by their extensions along the forward edge `j → v` with edge
    /// label `le` to a vertex labelled `lw` (one per data edge that realises it).
    fn grow_forward(&mut self, j: u32, v: u32, le: u32, lw: u32) {
        let n = self.labels.len();
        self.phi_next.clear();
        self.psi_next.clear();
        for e in 0..self.phi.len() / n {
            let u = self.phi[e * n + j as usize] as usize;
            for k in self.adj_ptr[u] as usize..self.adj_ptr[u + 1] as usize {
                let (w, l) = self.adj[k];
                if l != le || self.labels[w as usize] != lw || self.psi[e * n + w as usize] != NONE
                {
                    continue;
                }
                let base = self.phi_next.len();
                self.phi_next
                    .extend_from_slice(&self.phi[e * n..(e + 1) * n]);
                self.psi_next
                    .extend_from_slice(&self.psi[e * n..(e + 1) * n]);
                self.phi_next[base + v as usize] = w;
                self.psi_next[base + w as usize] = v;
            }
        }
        std::mem::swap(&mut self.phi, &mut self.phi_next);
        std::mem::swap(&mut self.psi, &mut self.psi_next);
    }
}

/// The minimum DFS code (gSpan's canonical form) of a small connected labelled graph.
///
/// Two graphs are isomorphic (respecting vertex and edge labels) exactly when their minimum
/// codes are equal, so the code serves as a key for deduplication. A graph with one vertex and
/// no edge (or no vertex) has the empty code.
///
/// # Errors
/// [`GspanError::Graph`] for an endpoint out of range, a self-loop, a parallel edge or a
/// length mismatch between `edges` and `edge_labels`; [`GspanError::Disconnected`] when the
/// graph is not connected.
///
/// # Complexity
/// Exponential in the worst case (highly symmetric graphs), fast on molecule-like graphs.
///
/// # Example
/// ```
/// use graphsparse_graph::GraphRef;
/// use graphsparse_gspan::min_dfs_code;
/// // a labelled path 1 - 0 - 1 given in two vertex orders has one minimum code
/// let a = GraphRef { node_labels: &[1, 0, 1], edges: &[[0, 1], [1, 2]], edge_labels: &[5, 5] };
/// let b = GraphRef { node_labels: &[0, 1, 1], edges: &[[1, 0], [0, 2]], edge_labels: &[5, 5] };
/// let ca = min_dfs_code(a).unwrap();
/// assert_eq!(ca, min_dfs_code(b).unwrap());
/// assert_eq!(ca.to_string(), "(0,1,0,5,1) (0,2,0,5,1)");
/// assert!(ca.is_min());
/// ```
pub fn min_dfs_code(graph: GraphRef<'_>) -> Result<DfsCode> {
    canonical_code(graph, false)
}

/// The minimum DFS code of a small weakly connected graph whose edges are arcs (`[u, v]` is
/// `u → v`), as a directed search finds it: edge labels are arc labels
/// ([`DfsEdge::arc_label`]).
///
/// Two such graphs are isomorphic as directed graphs (respecting vertex and edge labels)
/// exactly when their codes are equal.
///
/// # Errors
/// As [`min_dfs_code`] (antiparallel arcs count as parallel edges), and
/// [`GspanError::TooLarge`] for an edge label `>= 2^31`.
///
/// # Example
/// ```
/// use graphsparse_graph::GraphRef;
/// use graphsparse_gspan::min_dfs_code_directed;
/// // 0 -> 1 <- 2 and 0 <- 1 -> 2 are different directed graphs with the same skeleton
/// let into = GraphRef { node_labels: &[0, 0, 0], edges: &[[0, 1], [2, 1]], edge_labels: &[0, 0] };
/// let out = GraphRef { node_labels: &[0, 0, 0], edges: &[[1, 0], [1, 2]], edge_labels: &[0, 0] };
/// let (a, b) = (min_dfs_code_directed(into)?, min_dfs_code_directed(out)?);
/// assert_ne!(a, b);
/// assert!(a.is_min_directed() && b.is_min_directed());
/// assert_eq!(b.to_string(), "(0,1,0,0,0) (0,2,0,0,0)"); // both arcs leave vertex 0
/// # Ok::<(), graphsparse_gspan::GspanError>(())
/// ```
pub fn min_dfs_code_directed(graph: GraphRef<'_>) -> Result<DfsCode> {
    if let Some(&l) = graph
        .edge_labels
        .iter()
        .find(|&&l| l >= graphsparse_graph::MAX_DIRECTED_EDGE_LABEL)
    {
        return Err(GspanError::TooLarge(format!(
            "directed edge label {l} (labels below 2^31)"
        )));
    }
    canonical_code(graph, true)
}

fn canonical_code(graph: GraphRef<'_>, directed: bool) -> Result<DfsCode> {
    let n = graph.n_vertices();
    if graph.edge_labels.len() != graph.edges.len() {
        return Err(GraphError::Malformed(format!(
            "{} edges but {} edge labels",
            graph.edges.len(),
            graph.edge_labels.len()
        ))
        .into());
    }
    if u32::try_from(n).is_err() {
        return Err(GspanError::TooLarge(format!("{n} vertices")));
    }
    let mut pairs = Vec::with_capacity(graph.edges.len());
    for &[u, v] in graph.edges {
        for x in [u, v] {
            if x as usize >= n {
                return Err(GraphError::VertexOutOfRange {
                    graph: 0,
                    vertex: i64::from(x),
                    n_vertices: n,
                }
                .into());
            }
        }
        if u == v {
            return Err(GraphError::SelfLoop {
                graph: 0,
                vertex: u as usize,
            }
            .into());
        }
        pairs.push((u.min(v), u.max(v)));
    }
    pairs.sort_unstable();
    if let Some(w) = pairs.windows(2).find(|w| w[0] == w[1]) {
        return Err(GraphError::ParallelEdge {
            graph: 0,
            u: w[0].0 as usize,
            v: w[0].1 as usize,
        }
        .into());
    }
    let n_components = count_components(n, graph.edges);
    if n_components > 1 {
        return Err(GspanError::Disconnected { n_components });
    }
    let mut s = MinCodeScratch::new(directed);
    let edges = graph
        .edges
        .iter()
        .zip(graph.edge_labels)
        .map(|(&[u, v], &l)| {
            (
                u,
                v,
                if directed {
                    DfsEdge::arc_label(l, false)
                } else {
                    l
                },
            )
        });
    s.load(graph.node_labels.iter().copied(), edges);
    let done = s.run(None);
    debug_assert!(done, "invariant: a connected graph has a minimum code");
    Ok(DfsCode::from_edges_unchecked(s.built))
}

fn count_components(n: usize, edges: &[[u32; 2]]) -> usize {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let mut comps = n;
    for &[u, v] in edges {
        let (a, b) = (find(&mut parent, u as usize), find(&mut parent, v as usize));
        if a != b {
            parent[a] = b;
            comps -= 1;
        }
    }
    comps
}

// The minimum-code test of a code lives with the machinery it runs (the code module stays a
// leaf that this one builds on).
impl DfsCode {
    /// True when this code is the minimum DFS code of its own graph (the canonical form).
    ///
    /// # Complexity
    /// Grows with the number of automorphisms of the pattern; stops at the first edge where a
    /// smaller code appears.
    ///
    /// # Example
    /// ```
    /// use graphsparse_gspan::{DfsCode, DfsEdge};
    /// // the path 1-0-1 (vertex labels) started from its middle is minimal ...
    /// let a = DfsCode::from_edges(vec![DfsEdge::new(0, 1, 0, 0, 1), DfsEdge::new(0, 2, 0, 0, 1)]).unwrap();
    /// assert!(a.is_min());
    /// // ... started from an end it is not
    /// let b = DfsCode::from_edges(vec![DfsEdge::new(0, 1, 1, 0, 0), DfsEdge::new(1, 2, 0, 0, 1)]).unwrap();
    /// assert!(!b.is_min());
    /// ```
    pub fn is_min(&self) -> bool {
        MinCodeScratch::default().is_min(self.edges())
    }

    /// True when this code, read as the code of a directed graph (edge labels are arc labels,
    /// [`DfsEdge::arc_label`]), is the minimum code of that graph.
    ///
    /// # Complexity
    /// As [`DfsCode::is_min`].
    ///
    /// # Example
    /// ```
    /// use graphsparse_gspan::{DfsCode, DfsEdge};
    /// // one arc between equal labels: written from its tail it is minimal, from its head not
    /// let tail = DfsCode::from_edges(vec![DfsEdge::new(0, 1, 0, DfsEdge::arc_label(0, false), 0)]).unwrap();
    /// let head = DfsCode::from_edges(vec![DfsEdge::new(0, 1, 0, DfsEdge::arc_label(0, true), 0)]).unwrap();
    /// assert!(tail.is_min_directed() && !head.is_min_directed());
    /// ```
    pub fn is_min_directed(&self) -> bool {
        MinCodeScratch::new(true).is_min(self.edges())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(edges: &[(u32, u32, u32, u32, u32)]) -> DfsCode {
        DfsCode::from_edges(
            edges
                .iter()
                .map(|&(a, b, c, d, e)| DfsEdge::new(a, b, c, d, e))
                .collect(),
        )
        .unwrap()
    }

    #[test]
    fn triangle_codes() {
        // triangle with one distinct vertex label 1 and two 0s
        let g = GraphRef {
            node_labels: &[1, 0, 0],
            edges: &[[0, 1], [1, 2], [2, 0]],
            edge_labels: &[0, 0, 0],
        };
        let c = min_dfs_code(g).unwrap();
        assert_eq!(
            c,
            code(&[(0, 1, 0, 0, 0), (1, 2, 0, 0, 1), (2, 0, 1, 0, 0)])
        );
        assert!(c.is_min());
        let other = code(&[(0, 1, 0, 0, 1), (1, 2, 1, 0, 0), (2, 0, 0, 0, 0)]);
        assert!(!other.is_min());
        assert!(other > c);
    }

    #[test]
    fn errors_and_trivial_graphs() {
        let g = GraphRef {
            node_labels: &[0, 0, 0],
            edges: &[[0, 1]],
            edge_labels: &[0],
        };
        assert_eq!(
            min_dfs_code(g),
            Err(GspanError::Disconnected { n_components: 2 })
        );
        let g = GraphRef {
            node_labels: &[0, 0],
            edges: &[[0, 1], [1, 0]],
            edge_labels: &[0, 0],
        };
        assert!(matches!(
            min_dfs_code(g),
            Err(GspanError::Graph(GraphError::ParallelEdge { .. }))
        ));
        let g = GraphRef {
            node_labels: &[0, 0],
            edges: &[[0, 0]],
            edge_labels: &[0],
        };
        assert!(matches!(
            min_dfs_code(g),
            Err(GspanError::Graph(GraphError::SelfLoop { .. }))
        ));
        let g = GraphRef {
            node_labels: &[0],
            edges: &[[0, 3]],
            edge_labels: &[0],
        };
        assert!(matches!(min_dfs_code(g), Err(GspanError::Graph(_))));
        let g = GraphRef {
            node_labels: &[0, 1],
            edges: &[[0, 1]],
            edge_labels: &[],
        };
        assert!(matches!(
            min_dfs_code(g),
            Err(GspanError::Graph(GraphError::Malformed(_)))
        ));
        let g = GraphRef {
            node_labels: &[4],
            edges: &[],
            edge_labels: &[],
        };
        assert!(min_dfs_code(g).unwrap().is_empty());
        let g = GraphRef {
            node_labels: &[],
            edges: &[],
            edge_labels: &[],
        };
        assert!(min_dfs_code(g).unwrap().is_empty());
    }

    #[test]
    fn one_edge_codes() {
        assert!(code(&[(0, 1, 0, 3, 1)]).is_min());
        assert!(!code(&[(0, 1, 1, 3, 0)]).is_min());
        assert!(DfsCode::new().is_min());
    }
}
