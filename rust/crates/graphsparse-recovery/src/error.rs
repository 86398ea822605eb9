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
    /// An input array holds NaN or ±inf.
    #[error("{name} contains a non-finite value ({value}) at index {index}")]
    NonFinite {
        /// Name of the input (`"y"`, `"L"`, `"x"`, …).
        name: &'static str,
        /// Position of the first offending entry (flat index for matrices).
        index: usize,
        /// The entry itself.
        value: f64,
    },
    /// Two sizes that must agree do not.
    #[error("{name} has length {got}, expected {expected}")]
    LengthMismatch {
        /// Name of the input.
        name: &'static str,
        /// The required length.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// The graph's vertex count differs from the number of columns of `L`.
    #[error("the graph has {n_nodes} vertices but L has {n_cols} columns")]
    GraphSizeMismatch {
        /// Number of graph vertices.
        n_nodes: usize,
        /// Number of columns of `L`.
        n_cols: usize,
    },
    /// An edge endpoint is not a vertex of the graph.
    #[error("edge {edge} has endpoint {node}, out of range for {n_nodes} vertices")]
    EdgeOutOfRange {
        /// Edge index.
        edge: usize,
        /// The endpoint.
        node: usize,
        /// Number of vertices.
        n_nodes: usize,
    },
    /// An edge joins a vertex to itself.
    #[error("edge {edge} is a self-loop on vertex {node}")]
    SelfLoop {
        /// Edge index.
        edge: usize,
        /// The vertex.
        node: usize,
    },
    /// The same undirected edge is listed twice.
    #[error("edge {edge} ({u}, {v}) duplicates edge {first}")]
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
    /// An edge weight is not finite and strictly positive.
    #[error("edge weight {edge} must be finite and > 0, got {value}")]
    InvalidWeight {
        /// Edge index.
        edge: usize,
        /// The weight.
        value: f64,
    },
    /// A sparse adjacency or data matrix is malformed (offsets, indices, symmetry).
    #[error("{name}: {reason}")]
    InvalidSparse {
        /// Name of the matrix.
        name: &'static str,
        /// What is wrong, with the offending position.
        reason: String,
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
    /// The head/tail projection of `graphsparse-online` failed.
    #[error("graph projection: {0}")]
    Projection(String),
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

/// Errors with the first non-finite entry of `v`, if any.
pub(crate) fn check_finite(name: &'static str, v: &[f64]) -> Result<()> {
    // branch-free test first (vectorises), the search only on failure
    if v.iter().fold(true, |ok, x| ok & x.is_finite()) {
        return Ok(());
    }
    let index = v
        .iter()
        .position(|x| !x.is_finite())
        .expect("invariant: a non-finite entry exists");
    Err(RecoveryError::NonFinite {
        name,
        index,
        value: v[index],
    })
}

pub(crate) fn check_len(name: &'static str, got: usize, expected: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(RecoveryError::LengthMismatch {
            name,
            expected,
            got,
        })
    }
}

/// Checks that a count (iterations, runs, sizes) is at least 1.
pub(crate) fn check_at_least_one(name: &'static str, value: usize) -> Result<()> {
    if value >= 1 {
        Ok(())
    } else {
        Err(invalid(name, ">= 1", value))
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
