//! Error type of the PCST crate.

/// Errors returned by [`solve_pcst`](crate::solve_pcst) and [`PcstSolver`](crate::PcstSolver).
///
/// Every variant names the offending argument. `pcst_fast` checks only the sign of prizes,
/// costs and endpoints; the checks for NaN/inf, the root and the tolerance are ours.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PcstError {
    /// A prize is negative.
    #[error("prizes must be >= 0; prizes[{index}] is negative ({value})")]
    NegativePrize {
        /// Node index.
        index: usize,
        /// The prize.
        value: f64,
    },
    /// A prize is NaN or infinite.
    #[error("prizes must be finite; prizes[{index}] is not finite ({value})")]
    NonFinitePrize {
        /// Node index.
        index: usize,
        /// The prize.
        value: f64,
    },
    /// An edge cost is negative.
    #[error("costs must be >= 0; costs[{index}] is negative ({value})")]
    NegativeCost {
        /// Edge index.
        index: usize,
        /// The cost.
        value: f64,
    },
    /// An edge cost is NaN or infinite.
    #[error("costs must be finite; costs[{index}] is not finite ({value})")]
    NonFiniteCost {
        /// Edge index.
        index: usize,
        /// The cost.
        value: f64,
    },
    /// The prizes and costs are so large that event times could overflow `f64`.
    #[error(
        "prizes and costs are too large: their total ({total}) must stay below f64::MAX / 4; \
         rescale the input"
    )]
    Overflow {
        /// Sum of all prizes and costs.
        total: f64,
    },
    /// An edge endpoint is not a node.
    #[error(
        "edges[{edge}] = [{}, {}] is out of range for {n_nodes} nodes (endpoint {endpoint})",
        pair[0],
        pair[1]
    )]
    EndpointOutOfRange {
        /// Edge index.
        edge: usize,
        /// The edge's two endpoints.
        pair: [usize; 2],
        /// The endpoint.
        endpoint: usize,
        /// Number of nodes (the length of `prizes`).
        n_nodes: usize,
    },
    /// `edges` and `costs` differ in length.
    #[error("costs must have length {edges} (one per edge); costs has length {costs}")]
    LengthMismatch {
        /// Number of edges.
        edges: usize,
        /// Length of `costs`.
        costs: usize,
    },
    /// The root is not a node.
    #[error(
        "root {root} is out of range: root must be -1 (unrooted) or a node id in [0, {n_nodes})"
    )]
    RootOutOfRange {
        /// The root.
        root: usize,
        /// Number of nodes.
        n_nodes: usize,
    },
    /// A rooted problem asked for more or fewer than one tree.
    #[error("num_clusters must be 1 when a root is given (got {0})")]
    RootedNumClusters(usize),
    /// The merge tolerance is negative or not finite.
    #[error("eps must be finite and >= 0, got {0}")]
    InvalidEps(f64),
    /// The graph is too large for 32-bit cluster and edge-part indices.
    #[error("graph too large: {what} = {value} exceeds the supported maximum {max}")]
    TooLarge {
        /// `"nodes"` or `"edges"`.
        what: &'static str,
        /// The size.
        value: usize,
        /// The maximum supported size.
        max: usize,
    },
    /// A pruning name other than `none`, `simple`, `gw` or `strong`.
    #[error("unknown pruning {0:?}; expected one of \"none\", \"simple\", \"gw\", \"strong\"")]
    UnknownPruning(String),
}

/// `Result` with [`PcstError`] as the default error.
pub type Result<T, E = PcstError> = std::result::Result<T, E>;
