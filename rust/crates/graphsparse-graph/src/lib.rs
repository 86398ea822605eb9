//! Labelled-graph databases for graphsparse.
//!
//! A [`GraphDatabase`] stores many small undirected graphs with integer vertex and edge labels
//! in flat arrays, validated once (no self-loops, no parallel edges, endpoints in range) so that
//! the miners can trust it. The readers ([`read_gspan`], [`read_tu`]) return a
//! [`LabeledDatabase`]: the database plus the original label tokens, mapped to dense ids in a
//! canonical order (numeric when all tokens are integers, lexicographic otherwise).
//!
//! # Example
//! ```
//! use graphsparse_graph::parse_gspan;
//! let data = parse_gspan("t # 0\nv 0 C\nv 1 O\ne 0 1 1\n", "<string>").unwrap();
//! let g = data.db.graph(0);
//! assert_eq!((g.n_vertices(), g.n_edges()), (2, 1));
//! ```

mod database;
mod error;
mod gspan_format;
mod labeled;
mod labels;
mod text;
mod tu;

pub use database::{GraphDatabase, GraphRef};
pub use error::{GraphError, Result};
pub use gspan_format::{format_gspan, parse_gspan, read_gspan};
pub use labeled::LabeledDatabase;
pub use labels::{CanonicalLabels, LabelInterner, LabelKind};
pub use tu::{TuFile, TuFiles, parse_tu, read_tu};
