//! Error type of the graph crate.

/// Errors raised while building, validating, reading or writing a graph database.
///
/// Every message names the offending value; [`GraphError::Parse`] displays as
/// `file:line: message`, so an editor can jump to it.
///
/// # Example
/// ```
/// use graphsparse_graph::{parse_gspan, GraphError};
/// let e = parse_gspan("t # 0\nv 1 C\ne 1 2 x\n", "mols.gsp").unwrap_err();
/// assert!(matches!(e, GraphError::Parse { line: 3, .. }));
/// assert_eq!(e.to_string(), "mols.gsp:3: edge uses undeclared vertex 2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// An edge joins a vertex to itself.
    #[error("graph {graph}: self-loop on vertex {vertex}")]
    SelfLoop {
        /// Index of the graph in the database.
        graph: usize,
        /// Local vertex index.
        vertex: usize,
    },
    /// Two edges join the same pair of vertices.
    #[error("graph {graph}: parallel edges between vertices {u} and {v}")]
    ParallelEdge {
        /// Index of the graph in the database.
        graph: usize,
        /// One endpoint (local index).
        u: usize,
        /// The other endpoint (local index).
        v: usize,
    },
    /// An edge endpoint is not a vertex of its graph.
    #[error("graph {graph}: edge endpoint {vertex} out of range (graph has {n_vertices} vertices)")]
    VertexOutOfRange {
        /// Index of the graph in the database.
        graph: usize,
        /// The offending endpoint.
        vertex: i64,
        /// Number of vertices in that graph.
        n_vertices: usize,
    },
    /// A label is negative or does not fit in 32 bits.
    #[error("{what} label {value} out of range (labels are dense ids in 0..2^32)")]
    LabelOutOfRange {
        /// `"vertex"` or `"edge"`.
        what: &'static str,
        /// The offending value.
        value: i64,
    },
    /// Offsets or array lengths do not describe a database.
    #[error("malformed database arrays: {0}")]
    Malformed(String),
    /// A text file could not be parsed.
    #[error("{file}:{line}: {message}")]
    Parse {
        /// File name (or `<string>`).
        file: String,
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// Files of one dataset disagree with each other.
    #[error("{0}")]
    Inconsistent(String),
    /// A file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path that failed.
        path: String,
        /// The operating-system message.
        message: String,
    },
}

/// `Result` with [`GraphError`] as the default error, as every fallible function of this crate
/// returns.
pub type Result<T, E = GraphError> = std::result::Result<T, E>;
