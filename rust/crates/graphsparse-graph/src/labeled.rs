//! A graph database together with the text labels it was read with.

use crate::database::GraphDatabase;
use crate::error::{GraphError, Result};
use crate::labels::{CanonicalLabels, LabelInterner, LabelKind};

/// What the readers return: the database with dense label ids, and the original label tokens.
///
/// The vertex and edge tokens are in canonical order ([`LabelInterner`]): numeric for
/// [`LabelKind::Integer`] and [`LabelKind::Float`] sets, lexicographic for
/// [`LabelKind::Text`], one token per label (spellings of one number are one label). A caller
/// turns tokens into values by their kind (`int`, `float`, or the string itself) and keeps the
/// order: the ids need no renumbering.
///
/// # Example
/// ```
/// use graphsparse_graph::{parse_gspan, LabelKind};
/// let data = parse_gspan("t # a\nv 0 2.5\nv 1 10\ne 0 1 x\n", "<doc>").unwrap();
/// assert_eq!(data.vertex_labels, ["2.5", "10"]); // numeric, not "10" < "2.5"
/// assert_eq!(data.vertex_label_kind, LabelKind::Float);
/// assert_eq!(data.edge_label_kind, LabelKind::Text);
/// assert_eq!(data.db.graph(0).node_labels, [0, 1]);
/// assert_eq!(data.graph_names, ["a"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabeledDatabase {
    /// The graphs, labels as dense ids (`vertex_labels[id]` is the token of id `id`).
    pub db: GraphDatabase,
    /// Vertex-label tokens in canonical order (see [`LabelInterner`]).
    pub vertex_labels: Vec<String>,
    /// What the vertex-label tokens denote.
    pub vertex_label_kind: LabelKind,
    /// Edge-label tokens in canonical order.
    pub edge_labels: Vec<String>,
    /// What the edge-label tokens denote.
    pub edge_label_kind: LabelKind,
    /// Per-graph class tokens, when the source had them (TU `*_graph_labels.txt`).
    pub graph_labels: Option<Vec<String>>,
    /// What the graph-label tokens denote ([`LabelKind::classify`] of `graph_labels`); `Some`
    /// exactly when `graph_labels` is.
    pub graph_label_kind: Option<LabelKind>,
    /// Per-graph names or ids from the source (`t # <id> ...` in gSpan files, `"1"`, `"2"`, …
    /// for TU datasets).
    pub graph_names: Vec<String>,
}

impl LabeledDatabase {
    /// Puts a database together with its label tokens and graph names, classifying each label
    /// set with [`LabelKind::classify`].
    ///
    /// For data that did not come from a reader (graphs built in memory, labels from a caller's
    /// values) that is to be written with [`format_gspan`](crate::format_gspan). The tokens are
    /// kept in the order given: when it is not the canonical order (see [`LabelInterner`]),
    /// reading the written text back renumbers the labels canonically.
    ///
    /// # Arguments
    /// * `db` – the graphs.
    /// * `vertex_labels` – the token of each vertex-label id (at least
    ///   [`GraphDatabase::n_node_labels`] of them).
    /// * `edge_labels` – the token of each edge-label id (at least
    ///   [`GraphDatabase::n_edge_labels`] of them).
    /// * `graph_labels` – one class token per graph, or `None`.
    /// * `graph_names` – one name per graph.
    ///
    /// # Returns
    /// The labelled database, with `vertex_label_kind`, `edge_label_kind` and
    /// `graph_label_kind` classified from the tokens.
    ///
    /// # Errors
    /// [`GraphError::Malformed`] when a label id used by `db` has no token, or when
    /// `graph_names` or `graph_labels` does not hold one entry per graph.
    ///
    /// # Complexity
    /// O(V + E + total token length).
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::{format_gspan, GraphDatabase, LabeledDatabase, LabelKind};
    /// let db = GraphDatabase::new(vec![0, 2], vec![1, 0], vec![0, 1], vec![[0, 1]], vec![0])?;
    /// let data = LabeledDatabase::new(
    ///     db, vec!["0.5".into(), "2".into()], vec!["single".into()], None, vec!["mol".into()],
    /// )?;
    /// assert_eq!((data.vertex_label_kind, data.edge_label_kind), (LabelKind::Float, LabelKind::Text));
    /// assert_eq!(format_gspan(&data)?, "t # mol\nv 0 2\nv 1 0.5\ne 0 1 single\n");
    /// let short = LabeledDatabase::new(data.db.clone(), vec!["C".into()], vec![], None, vec![]);
    /// assert!(short.is_err()); // vertex label 1 has no token
    /// # Ok::<(), graphsparse_graph::GraphError>(())
    /// ```
    pub fn new(
        db: GraphDatabase,
        vertex_labels: Vec<String>,
        edge_labels: Vec<String>,
        graph_labels: Option<Vec<String>>,
        graph_names: Vec<String>,
    ) -> Result<Self> {
        for (what, used, tokens) in [
            ("vertex", db.n_node_labels(), &vertex_labels),
            ("edge", db.n_edge_labels(), &edge_labels),
        ] {
            if used > tokens.len() {
                return Err(GraphError::Malformed(format!(
                    "{what} label id {} has no token ({} {what} label tokens)",
                    used - 1,
                    tokens.len()
                )));
            }
        }
        let per_graph = |what: &str, n: usize| {
            if n == db.len() {
                Ok(())
            } else {
                Err(GraphError::Malformed(format!(
                    "{n} {what} for {} graphs",
                    db.len()
                )))
            }
        };
        per_graph("graph names", graph_names.len())?;
        if let Some(labels) = &graph_labels {
            per_graph("graph labels", labels.len())?;
        }
        Ok(Self {
            vertex_label_kind: LabelKind::classify(&vertex_labels),
            edge_label_kind: LabelKind::classify(&edge_labels),
            graph_label_kind: graph_labels.as_ref().map(LabelKind::classify),
            db,
            vertex_labels,
            edge_labels,
            graph_labels,
            graph_names,
        })
    }
}

/// Accumulates graphs with provisional label ids, then builds a [`LabeledDatabase`].
#[derive(Debug, Default)]
pub(crate) struct Builder {
    pub node_ptr: Vec<usize>,
    pub node_labels: Vec<u32>,
    pub edge_ptr: Vec<usize>,
    pub edges: Vec<[u32; 2]>,
    pub edge_labels: Vec<u32>,
    pub vertex_interner: LabelInterner,
    pub edge_interner: LabelInterner,
    pub graph_names: Vec<String>,
}

impl Builder {
    /// A builder holding no graph.
    ///
    /// # Complexity
    /// O(1).
    pub fn new() -> Self {
        Self {
            node_ptr: vec![0],
            edge_ptr: vec![0],
            ..Self::default()
        }
    }

    /// Closes the current graph.
    ///
    /// # Complexity
    /// O(1) amortised.
    pub fn end_graph(&mut self) {
        self.node_ptr.push(self.node_labels.len());
        self.edge_ptr.push(self.edges.len());
    }

    /// Renumbers the labels canonically and validates the database.
    ///
    /// # Complexity
    /// O((V + E) log L) for `V` vertices, `E` edges and `L` distinct labels (the labels are sorted once).
    pub fn finish(self, graph_labels: Option<Vec<String>>) -> Result<LabeledDatabase> {
        let vertex = self.vertex_interner.finish();
        let edge = self.edge_interner.finish();
        let renumber = |ids: &[u32], c: &CanonicalLabels| -> Vec<u32> {
            ids.iter().map(|&l| c.remap[l as usize]).collect()
        };
        let db = GraphDatabase::new(
            self.node_ptr,
            renumber(&self.node_labels, &vertex),
            self.edge_ptr,
            self.edges,
            renumber(&self.edge_labels, &edge),
        )?;
        Ok(LabeledDatabase {
            db,
            vertex_labels: vertex.tokens,
            vertex_label_kind: vertex.kind,
            edge_labels: edge.tokens,
            edge_label_kind: edge.kind,
            graph_label_kind: graph_labels.as_ref().map(LabelKind::classify),
            graph_labels,
            graph_names: self.graph_names,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path() -> GraphDatabase {
        GraphDatabase::new(
            vec![0, 3, 3],
            vec![0, 2, 1],
            vec![0, 2, 2],
            vec![[0, 1], [1, 2]],
            vec![1, 1],
        )
        .unwrap()
    }

    fn strings(tokens: &[&str]) -> Vec<String> {
        tokens.iter().map(|&t| t.to_owned()).collect()
    }

    #[test]
    fn new_classifies_and_checks_counts() {
        let d = LabeledDatabase::new(
            path(),
            strings(&["1", "2", "10"]),
            strings(&["a", "b"]),
            Some(strings(&["-1", "1.5"])),
            strings(&["x", "y"]),
        )
        .unwrap();
        assert_eq!(d.vertex_label_kind, LabelKind::Integer);
        assert_eq!(d.edge_label_kind, LabelKind::Text);
        assert_eq!(d.graph_label_kind, Some(LabelKind::Float));
        // what a reader returns is what `new` builds from the same parts
        let again = LabeledDatabase::new(
            d.db.clone(),
            d.vertex_labels.clone(),
            d.edge_labels.clone(),
            d.graph_labels.clone(),
            d.graph_names.clone(),
        )
        .unwrap();
        assert_eq!(again, d);

        let err = |r: Result<LabeledDatabase>| match r {
            Err(GraphError::Malformed(m)) => m,
            other => panic!("want Malformed, got {other:?}"),
        };
        let names = || strings(&["x", "y"]);
        let m = err(LabeledDatabase::new(
            path(),
            strings(&["1", "2"]),
            strings(&["a", "b"]),
            None,
            names(),
        ));
        assert_eq!(m, "vertex label id 2 has no token (2 vertex label tokens)");
        let m = err(LabeledDatabase::new(
            path(),
            strings(&["1", "2", "3"]),
            strings(&["a"]),
            None,
            names(),
        ));
        assert_eq!(m, "edge label id 1 has no token (1 edge label tokens)");
        let m = err(LabeledDatabase::new(
            path(),
            strings(&["1", "2", "3"]),
            strings(&["a", "b"]),
            None,
            strings(&["x"]),
        ));
        assert_eq!(m, "1 graph names for 2 graphs");
        let m = err(LabeledDatabase::new(
            path(),
            strings(&["1", "2", "3"]),
            strings(&["a", "b"]),
            Some(strings(&["0", "1", "1"])),
            names(),
        ));
        assert_eq!(m, "3 graph labels for 2 graphs");
        // an empty database needs no token; extra tokens are allowed
        let empty = LabeledDatabase::new(
            GraphDatabase::default(),
            strings(&["C"]),
            vec![],
            None,
            vec![],
        )
        .unwrap();
        assert_eq!(empty.vertex_label_kind, LabelKind::Text);
    }
}
