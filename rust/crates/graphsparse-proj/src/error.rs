//! Error type of the projection crate.

use graphsparse_base::InputError;

/// Errors returned by the projection routines.
///
/// Every variant names the offending argument and value, so that the Python binding can pass
/// the message on unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProjError {
    /// An input vector holds NaN or ±inf (`"v"`, `"y"`), or a buffer has the wrong length
    /// (`"out"`, `"eps"`): the shared input rules of `graphsparse-base`, naming the argument.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The simplex total `z` is not finite and strictly positive.
    #[error("radius (the simplex total z) must be finite and > 0, got {0}")]
    InvalidTotal(f64),
    /// The l1-ball radius is negative or not finite.
    #[error("radius must be finite and >= 0, got {0}")]
    InvalidRadius(f64),
    /// The capped-simplex budget `k` is negative or NaN.
    #[error("k must be >= 0 (and not NaN), got {0}")]
    InvalidBudget(f64),
    /// The top-k count exceeds the vector length.
    #[error("k must be in 0..={len} for a vector of length {len}, got {k}")]
    KOutOfRange {
        /// The requested count.
        k: usize,
        /// Length of the vector.
        len: usize,
    },
    /// A weight of the weighted simplex is negative, NaN or infinite.
    #[error("eps must be finite and >= 0, got {value} at index {index}")]
    InvalidWeight {
        /// Position of the first bad weight.
        index: usize,
        /// The weight itself.
        value: f64,
    },
    /// Every weight is zero, so `{x : sum eps_i x_i = 1}` is empty.
    #[error("eps has no positive entry, so the weighted simplex is empty")]
    ZeroWeights,
    /// The simplex in dimension 0 is empty.
    #[error("cannot project onto the simplex of an empty vector (the set is empty)")]
    Empty,
    /// A row-major buffer does not split into rows of `n_cols` values.
    #[error("a buffer of length {len} does not split into rows of n_cols = {n_cols} values")]
    BadShape {
        /// Length of the flat buffer.
        len: usize,
        /// Requested row length.
        n_cols: usize,
    },
    /// An error in one row of a batched projection (the lowest failing row is reported).
    #[error("row {row}: {source}")]
    InRow {
        /// Index of the failing row.
        row: usize,
        /// What went wrong in that row.
        source: Box<ProjError>,
    },
}

/// `Result` with [`ProjError`] as the default error.
pub type Result<T, E = ProjError> = std::result::Result<T, E>;
