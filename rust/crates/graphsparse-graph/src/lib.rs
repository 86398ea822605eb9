//! Labelled-graph databases for graphsparse: validated flat storage, gSpan and TU readers, and a
//! gSpan writer.
//!
//! | item | what it does | time |
//! |---|---|---|
//! | [`GraphDatabase`] | many small undirected graphs with integer labels, in flat arrays, validated once | O(V + E log E) to build |
//! | [`parse_gspan`] / [`read_gspan`] | gSpan text (`t # id`, `v id label`, `e u v label`) → [`LabeledDatabase`] | O(bytes) |
//! | [`parse_tu`] / [`read_tu`] | TU Dortmund files (`NAME_A.txt`, …) → [`LabeledDatabase`] | O(bytes) |
//! | [`format_gspan`] | [`LabeledDatabase`] → gSpan text that reads back to the same database | O(output + k log k) |
//! | [`LabelKind`], [`LabelInterner`] | the one place that orders label tokens (integers, then floats, then text) | O(k log k) |
//!
//! A [`GraphDatabase`] is what the miners and learners trust: no self-loops, no parallel
//! edges, endpoints in range, labels dense `u32` ids. The readers return a
//! [`LabeledDatabase`]: the database plus the original label tokens, numbered in the canonical
//! order of their [`LabelKind`] (numeric for integers and floats, lexicographic for text), the
//! kind of each label set, the graph names and, for TU datasets, the graph labels. A caller
//! converts tokens to values by their kind and keeps the ids as they are: no re-sorting.
//!
//! Nothing here panics on the contents of a file: every format problem is a
//! [`GraphError::Parse`] naming the file and the line, nothing is sized by a number read from a
//! file before it is checked against the file's own counts, and non-UTF-8 text is an error, not
//! a lossy decode. Fuzz targets for both readers live in `rust/fuzz`.
//!
//! # Notation
//!
//! | paper (gSpan, TU) | code |
//! |---|---|
//! | database 𝒢 = {G₁, …, Gₙ} | [`GraphDatabase`], `n` = [`GraphDatabase::len`] |
//! | Gᵢ = (Vᵢ, Eᵢ, ℓ) | [`GraphRef`] from [`GraphDatabase::graph`]`(i)` |
//! | vertex label ℓ(v) | `node_labels[v]` (dense id; token `vertex_labels[id]`) |
//! | edge label ℓ(u, v) | `edge_labels[e]` for `edges[e] == [u, v]` (token `edge_labels[id]`) |
//! | class yᵢ (TU `graph_labels`) | [`LabeledDatabase::graph_labels`]`[i]` |
//!
//! # Example
//! ```
//! use graphsparse_graph::{format_gspan, parse_gspan, LabelKind};
//!
//! let data = parse_gspan("t # 0\nv 0 C\nv 1 O\ne 0 1 1\n", "<string>")?;
//! let g = data.db.graph(0);
//! assert_eq!((g.n_vertices(), g.n_edges()), (2, 1));
//! assert_eq!(data.vertex_labels, ["C", "O"]);
//! assert_eq!((data.vertex_label_kind, data.edge_label_kind), (LabelKind::Text, LabelKind::Integer));
//! assert_eq!(parse_gspan(&format_gspan(&data)?, "<again>")?, data);
//! # Ok::<(), graphsparse_graph::GraphError>(())
//! ```
//!
//! References: X. Yan and J. Han, "gSpan: graph-based substructure pattern mining", ICDM 2002,
//! <https://doi.org/10.1109/ICDM.2002.1184038>; C. Morris et al., "TUDataset: a collection of
//! benchmark datasets for learning with graphs", 2020, <https://arxiv.org/abs/2007.08663>.

mod csr;
mod database;
mod error;
mod gspan_format;
mod labeled;
mod labels;
mod random;
mod text;
mod tu;
mod weighted;
mod weighted_error;

pub use csr::MAX_GRAPH_SIZE;
pub use csr::{CsrMatrix, SparseIndex};
pub use database::{GraphDatabase, GraphRef, MAX_DIRECTED_EDGE_LABEL};
pub use error::{GraphError, Result};
pub use gspan_format::{format_gspan, parse_gspan, read_gspan};
pub use labeled::LabeledDatabase;
pub use labels::{CanonicalLabels, LabelInterner, LabelKind};
pub use random::RandomGraphs;
pub use tu::{TuFile, TuFiles, parse_tu, read_tu};
pub use weighted::{DuplicateEdges, EdgeRules, SelfLoops, WeightedGraph};
pub use weighted_error::WeightedGraphError;
