//! Error type of the subgraph-learning crate.

use graphsparse_base::{Check, InputError, Parallel};
use graphsparse_gspan::{GspanError, MinerParams, MinerValidParams};

/// Errors returned by the learners of this crate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SubgraphError {
    /// A parameter or an input array breaks a shared rule of `graphsparse-base` (a range, a
    /// length, a non-finite value); the message names it.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A parameter is out of range in a way particular to this crate (the message names it).
    #[error("{name}: {reason}")]
    InvalidParameter {
        /// Name of the parameter.
        name: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// The response does not fit the database or the loss.
    #[error("y: {0}")]
    InvalidResponse(String),
    /// The underlying gSpan traversal failed.
    #[error(transparent)]
    Gspan(#[from] GspanError),
}

/// `Result` with [`SubgraphError`] as the default error.
pub type Result<T, E = SubgraphError> = std::result::Result<T, E>;

pub(crate) fn bad(name: &'static str, reason: impl Into<String>) -> SubgraphError {
    SubgraphError::InvalidParameter {
        name,
        reason: reason.into(),
    }
}

/// The one check of a learner's pattern space, shared by BCGD and the stump searches: gSpan's
/// own rules (`min_support >= 1`) and at least one edge per pattern (a single vertex is no
/// feature); the traversal runs under `parallel`.
pub(crate) fn feature_miner(
    min_support: usize,
    max_size: Option<usize>,
    parallel: Parallel,
) -> Result<MinerValidParams> {
    if max_size == Some(0) {
        return Err(bad(
            "max_size",
            "must be >= 1 or None (patterns without edges are no features)",
        ));
    }
    Ok(MinerParams::new()
        .min_support(min_support)
        .max_size(max_size)
        .parallel(parallel)
        .check()?)
}
