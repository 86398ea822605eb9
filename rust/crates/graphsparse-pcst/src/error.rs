//! Error type of the PCST crate.

/// Errors returned by [`solve_pcst`](crate::solve_pcst) and [`PcstSolver`](crate::PcstSolver).
///
/// Every variant names the offending argument. `pcst_fast` checks only the sign of prizes,
/// costs and endpoints; the checks for NaN/inf, the root and the tolerance are ours. The edge
/// list and costs are validated by [`WeightedGraph`](graphsparse_graph::WeightedGraph)
/// ([`PcstError::Graph`]).
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
    /// The prizes and costs are so large that event times could overflow `f64`.
    #[error(
        "prizes and costs are too large: their total ({total}) must stay below f64::MAX / 4; \
         rescale the input"
    )]
    Overflow {
        /// Sum of all prizes and costs.
        total: f64,
    },
    /// A shared rule broken by an argument (`prizes` of the wrong length, `eps`).
    #[error(transparent)]
    Input(#[from] graphsparse_base::InputError),
    /// The edge list or its costs do not form a valid weighted graph.
    #[error(transparent)]
    Graph(#[from] graphsparse_graph::WeightedGraphError),
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
