//! Reproducible random databases of connected labelled graphs, for tests, examples and
//! benchmarks that need many graphs without files.

use graphsparse_base::SplitMix64;

use crate::{GraphDatabase, GraphError, Result};

/// A recipe for random connected labelled graphs: each graph is a random spanning tree (vertex
/// `v` hangs below a uniformly drawn earlier vertex) plus a few extra edges, with uniformly
/// drawn vertex and edge labels, from the house generator [`SplitMix64`]. The same recipe
/// always gives the same database.
///
/// # Example
/// ```
/// use graphsparse_graph::RandomGraphs;
/// let db = RandomGraphs { n_graphs: 5, vertices: (4, 7), ..RandomGraphs::default() }
///     .generate()?;
/// assert_eq!(db.len(), 5);
/// assert!((0..5).all(|g| (4..=7).contains(&db.graph(g).n_vertices())));
/// # Ok::<(), graphsparse_graph::GraphError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomGraphs {
    /// Number of graphs.
    pub n_graphs: usize,
    /// Least and most vertices of a graph (both ≥ 1), drawn uniformly.
    pub vertices: (u32, u32),
    /// Number of vertex labels (≥ 1): labels are `0..vertex_labels`.
    pub vertex_labels: u32,
    /// Number of edge labels (≥ 1).
    pub edge_labels: u32,
    /// Extra edges tried per graph beyond the tree (a repeated or looping pair is skipped).
    pub extra_edges: u32,
    /// The seed; any value.
    pub seed: u64,
}

impl Default for RandomGraphs {
    /// 20 graphs of 4–8 vertices, 3 vertex and 2 edge labels, 2 extra edges tried.
    fn default() -> Self {
        Self {
            n_graphs: 20,
            vertices: (4, 8),
            vertex_labels: 3,
            edge_labels: 2,
            extra_edges: 2,
            seed: 1,
        }
    }
}

impl RandomGraphs {
    /// The database of this recipe.
    ///
    /// # Returns
    /// `n_graphs` connected graphs, each with `vertices.0..=vertices.1` vertices and
    /// `n_vertices − 1 + (at most extra_edges)` edges.
    ///
    /// # Errors
    /// [`GraphError::Malformed`] naming the field when `vertices` is empty or starts at 0, or
    /// a label count is 0.
    ///
    /// # Complexity
    /// O(n_graphs · (vertices.1 + extra_edges · vertices.1)) time and the database's memory.
    pub fn generate(&self) -> Result<GraphDatabase> {
        let (lo, hi) = self.vertices;
        if lo == 0 || lo > hi {
            return Err(GraphError::Malformed(format!(
                "vertices: need 1 <= least <= most, got ({lo}, {hi})"
            )));
        }
        if self.vertex_labels == 0 || self.edge_labels == 0 {
            return Err(GraphError::Malformed(format!(
                "vertex_labels and edge_labels must be >= 1, got {} and {}",
                self.vertex_labels, self.edge_labels
            )));
        }
        let mut rng = SplitMix64::new(self.seed);
        let mut draw = move |below: u32| rng.below(u64::from(below)) as u32;
        let (mut node_ptr, mut labels) = (vec![0], Vec::new());
        let (mut edge_ptr, mut edges, mut edge_labels) = (vec![0], Vec::new(), Vec::new());
        let mut pairs: Vec<[u32; 2]> = Vec::new();
        for _ in 0..self.n_graphs {
            let n = lo + draw(hi - lo + 1);
            labels.extend((0..n).map(|_| draw(self.vertex_labels)));
            node_ptr.push(labels.len());
            pairs.clear();
            pairs.extend((1..n).map(|v| [draw(v), v]));
            for _ in 0..self.extra_edges {
                let (a, b) = (draw(n), draw(n));
                if a != b && !pairs.contains(&[a.min(b), a.max(b)]) {
                    pairs.push([a.min(b), a.max(b)]);
                }
            }
            edge_labels.extend(pairs.iter().map(|_| draw(self.edge_labels)));
            edges.extend_from_slice(&pairs);
            edge_ptr.push(edges.len());
        }
        GraphDatabase::new(node_ptr, labels, edge_ptr, edges, edge_labels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graphs_are_connected_sized_and_reproducible() {
        let recipe = RandomGraphs {
            n_graphs: 50,
            vertices: (1, 9),
            extra_edges: 4,
            seed: 7,
            ..RandomGraphs::default()
        };
        let db = recipe.generate().unwrap();
        assert_eq!(db, recipe.generate().unwrap());
        for g in 0..db.len() {
            let gr = db.graph(g);
            let n = gr.n_vertices();
            assert!((1..=9).contains(&n));
            assert!(gr.n_edges() >= n - 1 && gr.n_edges() <= n - 1 + 4);
            // connected: union-find over the edges leaves one component
            let mut parent: Vec<usize> = (0..n).collect();
            fn root(p: &mut [usize], mut x: usize) -> usize {
                while p[x] != x {
                    x = p[x];
                }
                x
            }
            for e in gr.edges {
                let (a, b) = (
                    root(&mut parent, e[0] as usize),
                    root(&mut parent, e[1] as usize),
                );
                parent[a] = b;
            }
            let r = root(&mut parent, 0);
            assert!((0..n).all(|v| root(&mut parent, v) == r));
        }
        assert_ne!(db, RandomGraphs { seed: 8, ..recipe }.generate().unwrap());
    }

    #[test]
    fn bad_recipes_are_errors() {
        for vertices in [(0, 3), (4, 3)] {
            let r = RandomGraphs {
                vertices,
                ..RandomGraphs::default()
            };
            assert!(
                matches!(r.generate(), Err(GraphError::Malformed(m)) if m.starts_with("vertices"))
            );
        }
        let r = RandomGraphs {
            edge_labels: 0,
            ..RandomGraphs::default()
        };
        assert!(r.generate().is_err());
        assert_eq!(
            RandomGraphs {
                n_graphs: 0,
                ..RandomGraphs::default()
            }
            .generate()
            .unwrap()
            .len(),
            0
        );
    }
}
