//! A graph database together with the text labels it was read with.

use crate::database::GraphDatabase;
use crate::error::Result;
use crate::labels::LabelInterner;

/// What the readers return: the database with dense label ids, and the original label tokens.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabeledDatabase {
    /// The graphs, labels as dense ids (`vertex_labels[id]` is the token of id `id`).
    pub db: GraphDatabase,
    /// Vertex-label tokens in canonical order (see [`LabelInterner`]).
    pub vertex_labels: Vec<String>,
    /// Edge-label tokens in canonical order.
    pub edge_labels: Vec<String>,
    /// Per-graph class tokens, when the source had them (TU `*_graph_labels.txt`).
    pub graph_labels: Option<Vec<String>>,
    /// Per-graph names or ids from the source (`t # <id> ...` in gSpan files).
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

    pub fn finish(self, graph_labels: Option<Vec<String>>) -> Result<LabeledDatabase> {
        let (vertex_labels, vremap) = self.vertex_interner.finish();
        let (edge_labels, eremap) = self.edge_interner.finish();
        let node_labels = self
            .node_labels
            .iter()
            .map(|&l| vremap[l as usize])
            .collect();
        let edge_label_ids = self
            .edge_labels
            .iter()
            .map(|&l| eremap[l as usize])
            .collect();
        let db = GraphDatabase::new(
            self.node_ptr,
            node_labels,
            self.edge_ptr,
            self.edges,
            edge_label_ids,
        )?;
        Ok(LabeledDatabase {
            db,
            vertex_labels,
            edge_labels,
            graph_labels,
            graph_names: self.graph_names,
        })
    }
}
