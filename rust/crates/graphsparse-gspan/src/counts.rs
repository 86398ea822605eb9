//! Occurrence counts of a visited pattern inside each graph that holds it.
//!
//! [`Node::embedding_counts`] counts the embeddings of the DFS code (label-preserving
//! injective vertex maps that send every pattern edge onto a data edge: subgraph
//! monomorphisms, automorphic images counted separately). [`Node::vertex_set_counts`] counts
//! the distinct sets of data vertices those maps cover.

use rustc_hash::FxHashSet;

use crate::visit::Node;

impl Node<'_> {
    /// Per graph of [`Node::graph_ids`] (same order), the number of distinct vertex sets of
    /// the graph that embeddings of the pattern cover: embeddings that differ only by an
    /// automorphism of the pattern, or that map onto the same vertices by other edges, count
    /// once. For single-vertex patterns, the number of vertices with that label.
    ///
    /// # Complexity
    /// O(`e · n log n`) time for `e` embeddings of a pattern of `n` vertices and code length
    /// `d`, plus O(`e · d`) to walk the embedding chains; O(`e · n`) memory in the worst case
    /// (all vertex sets of one graph distinct).
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_graph::parse_gspan;
    /// use graphsparse_gspan::{mine, Check, MinerParams, Node, ParallelVisitor, Visit, Visitor};
    ///
    /// /// `(code length, embeddings, vertex sets)` of every pattern, in graph 0.
    /// struct Counts(Vec<(usize, u32, u32)>);
    /// impl Visitor for Counts {
    ///     fn pre(&mut self, node: &Node<'_>) -> Visit {
    ///         let sets = node.vertex_set_counts();
    ///         self.0.push((node.depth(), node.embedding_counts()[0], sets[0]));
    ///         Visit::Continue
    ///     }
    /// }
    /// impl ParallelVisitor for Counts {
    ///     fn fork(&self) -> Self {
    ///         Counts(Vec::new())
    ///     }
    ///     fn join(&mut self, mut child: Self) {
    ///         self.0.append(&mut child.0);
    ///     }
    /// }
    /// // a triangle of equal labels: 6 maps each of an edge, of the path of two edges and of
    /// // the triangle; an edge covers one of 3 vertex pairs, the others all 3 vertices
    /// let db = parse_gspan("t # 0\nv 0 0\nv 1 0\nv 2 0\ne 0 1 0\ne 1 2 0\ne 2 0 0\n", "<doc>")
    ///     .unwrap()
    ///     .db;
    /// let mut v = Counts(Vec::new());
    /// mine(&db, &MinerParams::new().check().unwrap(), &mut v, &RunControl::new()).unwrap();
    /// assert_eq!(v.0, vec![(1, 6, 3), (2, 6, 1), (3, 6, 1)]);
    /// ```
    pub fn vertex_set_counts(&self) -> Vec<u32> {
        let d = self.chain.depth();
        if self.vertex_label.is_some() || d == 0 || d != self.code.len() {
            return self.counts.to_vec();
        }
        let code = self.code.edges();
        let n_v = code
            .iter()
            .map(|e| e.from.max(e.to) as usize + 1)
            .max()
            .unwrap_or(0);
        let levels: Vec<_> = (0..d).map(|t| self.chain.get(t)).collect();
        let mut phi = vec![0u32; n_v];
        let mut seen: FxHashSet<Box<[u32]>> = FxHashSet::default();
        let mut out = Vec::with_capacity(self.counts.len());
        let mut first = 0usize;
        // the deepest level holds each graph's embeddings together, graphs in order
        for &c in self.counts {
            seen.clear();
            for k in first..first + c as usize {
                let mut b = k as u32;
                for t in (1..d).rev() {
                    let e = levels[t][b as usize];
                    if code[t].is_forward() {
                        phi[code[t].to as usize] = e.v;
                    }
                    b = e.prev;
                }
                let e = levels[0][b as usize];
                phi[0] = e.prev;
                phi[1] = e.v;
                let mut set: Box<[u32]> = phi.as_slice().into();
                set.sort_unstable();
                seen.insert(set);
            }
            out.push(seen.len() as u32);
            first += c as usize;
        }
        out
    }
}
