//! The error type of the online crate.

use graphsparse_base::InputError;
use graphsparse_graph::WeightedGraphError;
use graphsparse_pcst::projection::ProjectionError;

/// Errors returned by the online learners.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OnlineError {
    /// A shared rule broken by an argument or hyperparameter (length, finiteness, range).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A parameter out of the range the data allow (a sparsity above the feature count, a
    /// graph method without a graph, an unsupported loss, a stored state that does not fit).
    #[error("{name} must be {expected}, got {value}")]
    InvalidParameter {
        /// Name of the parameter.
        name: &'static str,
        /// What the parameter must be.
        expected: &'static str,
        /// The offending value, formatted.
        value: String,
    },
    /// A label is not -1 or +1 (logistic loss).
    #[error("y must hold labels -1 and +1 for the logistic loss; y[{index}] is {value}")]
    InvalidLabel {
        /// Sample index.
        index: usize,
        /// The label.
        value: f64,
    },
    /// A feature index in a group list is out of range or listed twice.
    #[error("groups: {0}")]
    InvalidGroups(String),
    /// The feature graph does not validate.
    #[error(transparent)]
    Graph(#[from] WeightedGraphError),
    /// A head or tail projection failed.
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    /// The caller asked the pass to stop (for example on Ctrl-C).
    #[error("the online pass was cancelled")]
    Cancelled,
}

/// `Result` with [`OnlineError`] as the default error.
pub type Result<T, E = OnlineError> = std::result::Result<T, E>;

pub(crate) fn invalid(
    name: &'static str,
    expected: &'static str,
    value: impl ToString,
) -> OnlineError {
    OnlineError::InvalidParameter {
        name,
        expected,
        value: value.to_string(),
    }
}
