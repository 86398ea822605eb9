//! The error type of the online crate.

/// Errors returned by the projections and the online learners.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OnlineError {
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
    /// An input vector holds NaN or ±inf.
    #[error("{name} contains NaN or infinity (first at index {index})")]
    NonFinite {
        /// Name of the input.
        name: &'static str,
        /// First offending index.
        index: usize,
    },
    /// An input has the wrong length.
    #[error("{name} has length {got}, expected {expected}")]
    LengthMismatch {
        /// Name of the input.
        name: &'static str,
        /// The required length.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A label is not -1 or +1 (logistic loss).
    #[error("y must hold labels -1 and +1 for the logistic loss; y[{index}] is {value}")]
    InvalidLabel {
        /// Sample index.
        index: usize,
        /// The label.
        value: f64,
    },
    /// An edge endpoint is not a node of the graph.
    #[error(
        "edges[{edge}] has endpoint {node}, out of range for {n_nodes} nodes (one node per feature)"
    )]
    EdgeOutOfRange {
        /// Edge index.
        edge: usize,
        /// The endpoint.
        node: usize,
        /// Number of nodes.
        n_nodes: usize,
    },
    /// An edge cost is negative or not finite.
    #[error("costs must be finite and >= 0; costs[{edge}] is {value}")]
    InvalidCost {
        /// Edge index.
        edge: usize,
        /// The cost.
        value: f64,
    },
    /// A feature index in a group list is out of range or listed twice.
    #[error("groups: {0}")]
    InvalidGroups(String),
    /// The PCST solver rejected its input (should not happen after validation).
    #[error("PCST solver failed: {0}")]
    Pcst(String),
    /// The caller asked the pass to stop (for example on Ctrl-C).
    #[error("the online pass was cancelled")]
    Cancelled,
}

/// `Result` with [`OnlineError`] as the default error.
pub type Result<T, E = OnlineError> = std::result::Result<T, E>;

pub(crate) fn check_finite(name: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(OnlineError::NonFinite { name, index }),
        None => Ok(()),
    }
}

pub(crate) fn check_len(name: &'static str, v: usize, expected: usize) -> Result<()> {
    if v == expected {
        Ok(())
    } else {
        Err(OnlineError::LengthMismatch {
            name,
            expected,
            got: v,
        })
    }
}

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

/// Checks that `value` is finite and strictly positive.
pub(crate) fn check_positive(name: &'static str, value: f64) -> Result<()> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(invalid(name, "finite and > 0", value))
    }
}

/// Checks that `value` is finite and non-negative.
pub(crate) fn check_nonnegative(name: &'static str, value: f64) -> Result<()> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(invalid(name, "finite and >= 0", value))
    }
}
