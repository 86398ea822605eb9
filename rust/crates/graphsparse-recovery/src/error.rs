//! The error type of the recovery crate.

/// Errors returned by the recovery crate.
///
/// Every variant names the offending argument and value, so that the Python binding can pass
/// the message on unchanged. Non-convergence is **not** an error: solvers report it in their
/// result (`converged = false`, the last gap, the truncation).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RecoveryError {
    /// A scalar parameter is out of its allowed range.
    #[error("{name} must be {expected}, got {value}")]
    InvalidParameter {
        /// Name of the parameter.
        name: &'static str,
        /// What the parameter must be.
        expected: &'static str,
        /// The offending value, formatted.
        value: String,
    },
    /// A shared rule broken by an argument (a length, a non-finite entry, a scalar out of
    /// range).
    #[error(transparent)]
    Input(#[from] graphsparse_base::InputError),
    /// The graph's vertex count differs from the number of columns of `L`.
    #[error("the graph has {n_nodes} vertices but L has {n_cols} columns")]
    GraphSizeMismatch {
        /// Number of graph vertices.
        n_nodes: usize,
        /// Number of columns of `L`.
        n_cols: usize,
    },
    /// The graph, or a sparse matrix, does not validate.
    #[error(transparent)]
    Graph(#[from] graphsparse_graph::WeightedGraphError),
    /// An edge weight is not finite and strictly positive.
    #[error("edge weight {edge} must be finite and > 0, got {value}")]
    InvalidWeight {
        /// Edge index.
        edge: usize,
        /// The weight.
        value: f64,
    },
    /// A label of a classification loss is not −1 or +1.
    #[error("y must hold labels -1 or +1 for the {loss} loss, got {value} at index {index}")]
    InvalidLabel {
        /// The loss.
        loss: &'static str,
        /// Sample index.
        index: usize,
        /// The label.
        value: f64,
    },
    /// A group list of the latent group lasso is malformed.
    #[error("groups: {0}")]
    InvalidGroups(String),
    /// A size exceeds what the crate can index (`u32` vertex and edge ids, `usize` products).
    #[error("{name} = {value} exceeds the supported maximum {limit}")]
    TooLarge {
        /// What is too large.
        name: &'static str,
        /// Its value.
        value: u128,
        /// The limit.
        limit: u128,
    },
    /// An iterate became non-finite: the data are too extreme for float64 at these steps.
    #[error(
        "the solver produced a non-finite iterate at iteration {iteration}; rescale the data (y, L) or pass a larger op_norm"
    )]
    Diverged {
        /// Iteration at which the non-finite value was seen.
        iteration: usize,
    },
    /// A head or tail projection (Graph-IHT, Graph-CoSaMP) failed.
    #[error(transparent)]
    Projection(#[from] graphsparse_pcst::projection::ProjectionError),
}

/// `Result` with [`RecoveryError`] as the default error.
pub type Result<T, E = RecoveryError> = std::result::Result<T, E>;

pub(crate) fn invalid(
    name: &'static str,
    expected: &'static str,
    value: impl ToString,
) -> RecoveryError {
    RecoveryError::InvalidParameter {
        name,
        expected,
        value: value.to_string(),
    }
}
