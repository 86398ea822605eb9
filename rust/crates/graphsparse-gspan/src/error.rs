//! Error type of the gSpan crate.

use graphsparse_base::InputError;
use graphsparse_graph::GraphError;

/// Errors returned by the miner, the parameter checks and the DFS-code utilities.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GspanError {
    /// A parameter is out of range (`min_support`, `split_embeddings`; the message names it).
    #[error(transparent)]
    Input(#[from] InputError),
    /// The database is too large for the 32-bit embedding store.
    #[error("database too large: {0} (at most 2^31 - 1 edges and 2^32 - 1 vertices)")]
    TooLarge(String),
    /// A sequence of edges is not a DFS code (see [`crate::DfsCode::from_edges`]).
    #[error("invalid DFS code at edge {position}: {reason}")]
    InvalidCode {
        /// Index of the first offending edge.
        position: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A graph given to [`crate::min_dfs_code`] is not connected.
    #[error(
        "graph is not connected ({n_components} components); DFS codes describe connected graphs"
    )]
    Disconnected {
        /// Number of connected components.
        n_components: usize,
    },
    /// Stored embeddings given to [`crate::mine_below`] do not belong to the index or the
    /// parameters given with them.
    #[error("embeddings do not match: {0}")]
    Mismatch(String),
    /// The input graph itself is malformed (self-loop, parallel edge, endpoint out of range).
    #[error(transparent)]
    Graph(#[from] GraphError),
}

/// `Result` with [`GspanError`] as the default error.
pub type Result<T, E = GspanError> = std::result::Result<T, E>;
