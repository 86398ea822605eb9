//! Error type of [`WeightedGraph`](crate::WeightedGraph) and [`CsrMatrix`](crate::CsrMatrix).

use graphsparse_base::InputError;

/// A weighted graph or sparse matrix that does not validate.
///
/// Every message names the argument and the first offending entry. The binding maps
/// [`WeightedGraphError::Input`] (a non-finite matrix entry) and
/// [`WeightedGraphError::WeightsLength`] to `InvalidParameterError` and every other variant to
/// `InvalidGraphError`.
///
/// # Example
/// ```
/// use graphsparse_graph::{WeightedGraph, WeightedGraphError};
/// let e = WeightedGraph::new(2, &[[0usize, 2]], None).unwrap_err();
/// assert!(matches!(e, WeightedGraphError::EndpointOutOfRange { edge: 0, endpoint: 2, .. }));
/// assert_eq!(e.to_string(), "edges[0] = [0, 2] is out of range for 2 nodes (endpoint 2)");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WeightedGraphError {
    /// A matrix's data broke a shared rule (a non-finite value).
    #[error(transparent)]
    Input(#[from] InputError),
    /// An edge endpoint is not a vertex.
    #[error(
        "edges[{edge}] = [{}, {}] is out of range for {n_vertices} nodes (endpoint {endpoint})",
        pair[0],
        pair[1]
    )]
    EndpointOutOfRange {
        /// Edge index.
        edge: usize,
        /// The edge's two endpoints.
        pair: [usize; 2],
        /// The endpoint out of range.
        endpoint: usize,
        /// Number of vertices.
        n_vertices: usize,
    },
    /// An edge joins a vertex to itself where self-loops are refused.
    #[error("edges[{edge}] is a self-loop on vertex {vertex}")]
    SelfLoop {
        /// Edge index (for an adjacency matrix: the position of the diagonal entry).
        edge: usize,
        /// The vertex.
        vertex: usize,
    },
    /// The same undirected edge is listed twice where duplicates are refused.
    #[error("edges[{edge}] = [{u}, {v}] duplicates edges[{first}]")]
    DuplicateEdge {
        /// Index of the later copy.
        edge: usize,
        /// Index of the first copy.
        first: usize,
        /// One endpoint.
        u: usize,
        /// The other endpoint.
        v: usize,
    },
    /// The weights (costs) are not one per edge.
    #[error("{arg} must have length {expected} (one per edge); {arg} has length {got}")]
    WeightsLength {
        /// The argument (`"weights"`, `"costs"`).
        arg: &'static str,
        /// The number of edges.
        expected: usize,
        /// The weights' length.
        got: usize,
    },
    /// An edge weight (cost) is negative or not finite.
    #[error(
        "{arg} must be {}; {arg}[{index}] is {} ({value})",
        if value.is_finite() { ">= 0" } else { "finite" },
        if value.is_finite() { "negative" } else { "not finite" }
    )]
    InvalidWeight {
        /// The argument (`"weights"`, `"costs"`).
        arg: &'static str,
        /// Edge index (after merging duplicates, for a sum that overflowed).
        index: usize,
        /// The weight.
        value: f64,
    },
    /// A sparse matrix is malformed (offsets, indices, shape, symmetry).
    #[error("{name}: {reason}")]
    InvalidSparse {
        /// `"matrix"` or `"adjacency"`.
        name: &'static str,
        /// What is wrong, with the offending position.
        reason: String,
    },
    /// A size exceeds what 32-bit vertex and edge ids can index, or memory cannot be reserved.
    #[error("graph too large: {what} = {value} exceeds the supported maximum {max}")]
    TooLarge {
        /// `"nodes"`, `"edges"`, `"rows"`, `"columns"`, `"nnz"`.
        what: &'static str,
        /// The size.
        value: usize,
        /// The maximum supported size.
        max: usize,
    },
}
