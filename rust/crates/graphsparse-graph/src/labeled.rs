//! A graph database together with the text labels it was read with.

use crate::database::GraphDatabase;
use crate::error::Result;
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
    pub fn new() -> Self {
        Self {
            node_ptr: vec![0],
            edge_ptr: vec![0],
            ..Self::default()
        }
    }

    /// Closes the current graph.
    pub fn end_graph(&mut self) {
        self.node_ptr.push(self.node_labels.len());
        self.edge_ptr.push(self.edges.len());
    }

    /// Renumbers the labels canonically and validates the database.
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
