//! DFS codes (Yan & Han 2002): edges, the DFS lexicographic order and code → graph conversion.

use std::cmp::Ordering;
use std::fmt;

use graphsparse_graph::GraphRef;

use crate::error::{GspanError, Result};

/// One edge of a DFS code: `(from, to, from_label, edge_label, to_label)`.
///
/// `from` and `to` are DFS discovery indices of the pattern's vertices. The edge is *forward*
/// (it discovers vertex `to`) when `from < to` and *backward* (it closes a cycle from the
/// rightmost vertex to an ancestor) when `from > to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DfsEdge {
    /// DFS index of the first endpoint.
    pub from: u32,
    /// DFS index of the second endpoint.
    pub to: u32,
    /// Label of vertex `from`.
    pub from_label: u32,
    /// Label of the edge.
    pub edge_label: u32,
    /// Label of vertex `to`.
    pub to_label: u32,
}

impl DfsEdge {
    /// A new edge tuple `(from, to, from_label, edge_label, to_label)`.
    pub const fn new(from: u32, to: u32, from_label: u32, edge_label: u32, to_label: u32) -> Self {
        Self {
            from,
            to,
            from_label,
            edge_label,
            to_label,
        }
    }

    /// The code edge label of an arc in a directed search: `2 * label`, plus 1 when the arc
    /// points from the code edge's `to` to its `from` (`reversed`).
    ///
    /// A directed database's labels are below 2^31
    /// ([`graphsparse_graph::MAX_DIRECTED_EDGE_LABEL`]), so this never overflows. Comparing
    /// these values orders arcs by label, then direction (`from → to` first).
    ///
    /// # Example
    /// ```
    /// use graphsparse_gspan::DfsEdge;
    /// assert_eq!(DfsEdge::arc_label(3, false), 6);
    /// let e = DfsEdge::new(0, 1, 0, DfsEdge::arc_label(3, true), 0);
    /// assert_eq!(e.arc(), (3, true)); // the arc 1 -> 0 with label 3
    /// ```
    pub const fn arc_label(label: u32, reversed: bool) -> u32 {
        (label << 1) | reversed as u32
    }

    /// In a code of a directed search, the arc's own label and whether it points from `to`
    /// to `from` (the inverse of [`DfsEdge::arc_label`]).
    pub const fn arc(&self) -> (u32, bool) {
        (self.edge_label >> 1, self.edge_label & 1 == 1)
    }

    /// True for a forward (tree) edge, `from < to`.
    pub const fn is_forward(&self) -> bool {
        self.from < self.to
    }

    /// gSpan's order between two edges that extend the same DFS-code prefix.
    ///
    /// This is the order of Yan & Han: on index pairs, backward `(i1, j1)` precedes forward
    /// `(i2, j2)` iff `i1 < j2`, forward precedes backward iff `j1 <= i2`, two forward edges
    /// are ordered by `to` and then by *decreasing* `from`, two backward edges by `from` and
    /// then `to`; equal pairs are ordered by `(from_label, edge_label, to_label)`. Between the
    /// extensions of one prefix this puts backward edges first (by `to`, then edge label) and
    /// forward edges from the deepest rightmost-path vertex first. For the first edge of a code
    /// (always `(0, 1, ..)`) this is the order of the label triple. Restricted to the
    /// extensions of one prefix this is a total order, which is all the DFS lexicographic
    /// order of [`DfsCode`] needs.
    ///
    /// # Complexity
    /// O(1).
    pub fn cmp_extension(&self, other: &Self) -> Ordering {
        match (self.is_forward(), other.is_forward()) {
            (true, true) => self
                .to
                .cmp(&other.to)
                .then(other.from.cmp(&self.from))
                .then(self.from_label.cmp(&other.from_label))
                .then(self.edge_label.cmp(&other.edge_label))
                .then(self.to_label.cmp(&other.to_label)),
            (false, false) => self
                .from
                .cmp(&other.from)
                .then(self.to.cmp(&other.to))
                .then(self.from_label.cmp(&other.from_label))
                .then(self.edge_label.cmp(&other.edge_label))
                .then(self.to_label.cmp(&other.to_label)),
            // backward (i1, j1) < forward (i2, j2) iff i1 < j2
            (false, true) => {
                if self.from < other.to {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            // forward (i1, j1) < backward (i2, j2) iff j1 <= i2
            (true, false) => {
                if self.to <= other.from {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
        }
    }
}

impl fmt::Display for DfsEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({},{},{},{},{})",
            self.from, self.to, self.from_label, self.edge_label, self.to_label
        )
    }
}

/// A DFS code: the edge sequence of a depth-first traversal of a connected labelled graph.
///
/// Values are always well formed: the first edge is `(0, 1, ..)`, every later edge is a
/// rightmost-path extension of the edges before it (a backward edge from the rightmost vertex
/// to a vertex of the rightmost path, or a forward edge from a rightmost-path vertex to the
/// next new vertex), no vertex pair repeats and each vertex keeps one label.
/// [`DfsCode::from_edges`] checks this. The empty code stands for the empty pattern (and for
/// single-vertex patterns, whose label is carried separately).
///
/// `Ord` is gSpan's DFS lexicographic order, so the minimum DFS code of a graph is the
/// smallest of its codes and sorting patterns by code is the pre-order of the gSpan tree.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct DfsCode {
    edges: Vec<DfsEdge>,
}

impl DfsCode {
    /// The empty code.
    pub const fn new() -> Self {
        Self { edges: Vec::new() }
    }

    /// Validates `edges` as a DFS code.
    ///
    /// # Errors
    /// [`GspanError::InvalidCode`] naming the first edge that is not a rightmost-path
    /// extension of the edges before it, repeats a vertex pair, or relabels a vertex.
    ///
    /// # Example
    /// ```
    /// use graphsparse_gspan::{DfsCode, DfsEdge};
    /// let path = DfsCode::from_edges(vec![DfsEdge::new(0, 1, 0, 0, 1), DfsEdge::new(1, 2, 1, 0, 0)]);
    /// assert!(path.is_ok());
    /// let bad = DfsCode::from_edges(vec![DfsEdge::new(0, 2, 0, 0, 1)]);
    /// assert!(bad.is_err());
    /// ```
    ///
    /// # Complexity
    /// O(k) for `k` edges (one pass checking the DFS invariants).
    pub fn from_edges(edges: Vec<DfsEdge>) -> Result<Self> {
        let mut labels: Vec<u32> = Vec::new();
        let mut parent: Vec<u32> = Vec::new();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let bad = |position: usize, reason: String| GspanError::InvalidCode { position, reason };
        for (k, e) in edges.iter().enumerate() {
            if k == 0 {
                if (e.from, e.to) != (0, 1) {
                    return Err(bad(0, format!("the first edge must be (0, 1), got {e}")));
                }
                labels.extend([e.from_label, e.to_label]);
                parent.extend([u32::MAX, 0]);
                pairs.push((0, 1));
                continue;
            }
            let n = labels.len() as u32;
            let rightmost = n - 1;
            let on_path = |mut v: u32, x: u32| loop {
                if v == x {
                    return true;
                }
                if v == 0 {
                    return false;
                }
                v = parent[v as usize];
            };
            if e.is_forward() {
                if e.to != n {
                    return Err(bad(
                        k,
                        format!("forward edge {e} must reach new vertex {n}"),
                    ));
                }
                if !on_path(rightmost, e.from) {
                    return Err(bad(k, format!("{e} does not start on the rightmost path")));
                }
            } else {
                if e.from != rightmost {
                    return Err(bad(
                        k,
                        format!("backward edge {e} must start at vertex {rightmost}"),
                    ));
                }
                if e.from == e.to || !on_path(rightmost, e.to) {
                    return Err(bad(
                        k,
                        format!("backward edge {e} must end on the rightmost path"),
                    ));
                }
                if pairs.contains(&(e.to, e.from)) {
                    return Err(bad(k, format!("{e} repeats an edge")));
                }
            }
            if labels[e.from as usize] != e.from_label {
                return Err(bad(k, format!("{e} relabels vertex {}", e.from)));
            }
            if e.is_forward() {
                labels.push(e.to_label);
                parent.push(e.from);
                pairs.push((e.from, e.to));
            } else {
                if labels[e.to as usize] != e.to_label {
                    return Err(bad(k, format!("{e} relabels vertex {}", e.to)));
                }
                pairs.push((e.to, e.from));
            }
        }
        Ok(Self { edges })
    }

    /// The edges, in order.
    ///
    /// # Complexity
    /// O(1).
    pub fn edges(&self) -> &[DfsEdge] {
        &self.edges
    }

    /// Number of edges.
    ///
    /// # Complexity
    /// O(1).
    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// True for the empty code.
    ///
    /// # Complexity
    /// O(1).
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// Number of vertices of the pattern (0 for the empty code).
    ///
    /// # Complexity
    /// O(1).
    pub fn n_vertices(&self) -> usize {
        self.edges
            .iter()
            .map(|e| e.from.max(e.to) as usize + 1)
            .max()
            .unwrap_or(0)
    }

    /// The label of every pattern vertex, indexed by DFS index.
    ///
    /// # Complexity
    /// O(k) for `k` edges.
    pub fn vertex_labels(&self) -> Vec<u32> {
        let mut labels = vec![0; self.n_vertices()];
        for e in &self.edges {
            labels[e.from as usize] = e.from_label;
            labels[e.to as usize] = e.to_label;
        }
        labels
    }

    /// The pattern as a graph: vertex `i` is DFS index `i`, edges in code order.
    ///
    /// # Complexity
    /// O(k).
    pub fn to_graph(&self) -> PatternGraph {
        PatternGraph {
            vertex_labels: self.vertex_labels(),
            edges: self.edges.iter().map(|e| [e.from, e.to]).collect(),
            edge_labels: self.edges.iter().map(|e| e.edge_label).collect(),
        }
    }

    /// DFS indices of the rightmost path, from the rightmost vertex back to vertex 0.
    ///
    /// Empty for the empty code.
    ///
    /// # Complexity
    /// O(k).
    pub fn rightmost_path(&self) -> Vec<u32> {
        let n = self.n_vertices();
        if n == 0 {
            return Vec::new();
        }
        let mut parent = vec![u32::MAX; n];
        for e in self.edges.iter().filter(|e| e.is_forward()) {
            parent[e.to as usize] = e.from;
        }
        let mut path = vec![n as u32 - 1];
        while let Some(&v) = path.last() {
            if v == 0 {
                break;
            }
            path.push(parent[v as usize]);
        }
        path
    }

    pub(crate) fn from_edges_unchecked(edges: Vec<DfsEdge>) -> Self {
        Self { edges }
    }

    pub(crate) fn push(&mut self, e: DfsEdge) {
        self.edges.push(e);
    }

    pub(crate) fn pop(&mut self) {
        self.edges.pop();
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.edges.truncate(len);
    }
}

impl Ord for DfsCode {
    fn cmp(&self, other: &Self) -> Ordering {
        for (a, b) in self.edges.iter().zip(&other.edges) {
            if a != b {
                return a.cmp_extension(b);
            }
        }
        self.edges.len().cmp(&other.edges.len())
    }
}

impl PartialOrd for DfsCode {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for DfsCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, e) in self.edges.iter().enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// A small labelled graph owned by value (a pattern, or the input of [`crate::min_dfs_code`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatternGraph {
    /// Label of each vertex.
    pub vertex_labels: Vec<u32>,
    /// Endpoints of each edge.
    pub edges: Vec<[u32; 2]>,
    /// Label of each edge.
    pub edge_labels: Vec<u32>,
}

impl PatternGraph {
    /// A borrowed view, as taken by [`crate::min_dfs_code`].
    ///
    /// # Complexity
    /// O(1) (no copy).
    pub fn as_graph_ref(&self) -> GraphRef<'_> {
        GraphRef {
            node_labels: &self.vertex_labels,
            edges: &self.edges,
            edge_labels: &self.edge_labels,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(f: u32, t: u32, a: u32, b: u32, c: u32) -> DfsEdge {
        DfsEdge::new(f, t, a, b, c)
    }

    #[test]
    fn validation_rejects_non_codes() {
        assert!(DfsCode::from_edges(vec![]).is_ok());
        assert!(DfsCode::from_edges(vec![e(1, 0, 0, 0, 0)]).is_err());
        // forward edge skipping an index
        assert!(DfsCode::from_edges(vec![e(0, 1, 0, 0, 0), e(1, 3, 0, 0, 0)]).is_err());
        // backward edge not from the rightmost vertex
        let tri = vec![e(0, 1, 0, 0, 0), e(1, 2, 0, 0, 0), e(2, 0, 0, 0, 0)];
        assert!(DfsCode::from_edges(tri.clone()).is_ok());
        let mut bad = tri.clone();
        bad[2] = e(1, 0, 0, 0, 0);
        assert!(DfsCode::from_edges(bad).is_err());
        // repeated edge
        let mut rep = tri.clone();
        rep.push(e(2, 0, 0, 0, 0));
        assert!(DfsCode::from_edges(rep).is_err());
        // relabel
        assert!(DfsCode::from_edges(vec![e(0, 1, 0, 0, 1), e(1, 2, 2, 0, 0)]).is_err());
        // forward edge from a vertex off the rightmost path
        let off = vec![e(0, 1, 0, 0, 0), e(0, 2, 0, 0, 0), e(1, 3, 0, 0, 0)];
        assert!(DfsCode::from_edges(off).is_err());
    }

    #[test]
    fn order_and_rightmost_path() {
        let a = DfsCode::from_edges(vec![e(0, 1, 0, 0, 0), e(1, 2, 0, 0, 0)]).unwrap();
        let b = DfsCode::from_edges(vec![e(0, 1, 0, 0, 0), e(0, 2, 0, 0, 0)]).unwrap();
        let c = DfsCode::from_edges(vec![e(0, 1, 0, 0, 0), e(1, 2, 0, 0, 0), e(2, 0, 0, 0, 0)])
            .unwrap();
        // deeper forward extension first; backward before forward; prefix first
        assert!(a < b);
        assert!(a < c && c < b);
        assert!(DfsCode::new() < a);
        assert_eq!(c.rightmost_path(), vec![2, 1, 0]);
        assert_eq!(b.rightmost_path(), vec![2, 0]);
        assert_eq!(c.n_vertices(), 3);
        assert_eq!(c.to_string(), "(0,1,0,0,0) (1,2,0,0,0) (2,0,0,0,0)");
        let first = DfsCode::from_edges(vec![e(0, 1, 0, 1, 0)]).unwrap();
        let second = DfsCode::from_edges(vec![e(0, 1, 0, 0, 1)]).unwrap();
        assert!(second < first);
    }
}
