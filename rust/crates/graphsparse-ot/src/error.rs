//! Error type of the optimal-transport and compression crate.

use graphsparse_base::{InputError, check_all_nonnegative};
use graphsparse_graph::{GraphError, WeightedGraphError};
use graphsparse_proj::ProjError;

/// Errors returned by graph optimal transport, compression, coarsening and WL features.
///
/// Every variant names the offending argument and value, so that the Python binding can pass
/// the message on unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OtError {
    /// A shared rule broken by an argument: a length, a non-finite or negative entry
    /// (`rho0[3] must be finite and >= 0, got -1`), a scalar out of range.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The edges and costs are not a valid weighted graph (an endpoint out of range, a
    /// negative or non-finite cost, costs of the wrong length).
    #[error(transparent)]
    Graph(#[from] WeightedGraphError),
    /// A distribution does not sum to one.
    #[error("{arg} must sum to 1 (within {tol:e}), but sums to {sum}")]
    NotNormalized {
        /// The argument (`"rho0"`, `"rho1"`).
        arg: &'static str,
        /// Its sum.
        sum: f64,
        /// The accepted deviation.
        tol: f64,
    },
    /// A parameter is out of its range.
    #[error("invalid parameter {name}: {message}")]
    InvalidParameter {
        /// The parameter's name.
        name: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// A projection primitive rejected its input.
    #[error(transparent)]
    Proj(#[from] ProjError),
    /// Mirror Prox left the range of finite numbers: its steps are too large for `λ`.
    #[error(
        "the Mirror Prox iterates overflowed at iteration {iteration} (lambda = {lambda:?}, \
         alpha = {alpha:?}, beta = {beta:?}, gamma = {gamma:?}): use smaller steps, a larger \
         lambda or the stable step mode"
    )]
    Diverged {
        /// The iteration `ℓ` at which a non-finite value appeared.
        iteration: usize,
        /// `λ`.
        lambda: f64,
        /// The `ε` step.
        alpha: f64,
        /// The `t` step.
        beta: f64,
        /// The `ζ` step.
        gamma: f64,
    },
    /// A graph database could not be built.
    #[error(transparent)]
    Database(#[from] GraphError),
    /// An error in one graph of a collection (the lowest failing graph is reported).
    #[error("graph {graph}: {source}")]
    InGraph {
        /// Index of the failing graph.
        graph: usize,
        /// What went wrong there.
        source: Box<OtError>,
    },
}

/// `Result` with [`OtError`] as the default error.
pub type Result<T, E = OtError> = std::result::Result<T, E>;

/// An [`OtError::InvalidParameter`].
pub(crate) fn bad_param(name: &'static str, message: impl Into<String>) -> OtError {
    OtError::InvalidParameter {
        name,
        message: message.into(),
    }
}

/// Deviation from 1 accepted for the total mass of a distribution.
pub const MASS_TOL: f64 = 1e-9;

/// Checks that `v` is a probability vector (finite, `>= 0`, summing to 1 within [`MASS_TOL`]).
pub(crate) fn check_distribution(arg: &'static str, v: &[f64]) -> Result<()> {
    check_all_nonnegative(arg, v)?;
    let sum: f64 = v.iter().sum();
    if (sum - 1.0).abs() > MASS_TOL {
        return Err(OtError::NotNormalized {
            arg,
            sum,
            tol: MASS_TOL,
        });
    }
    Ok(())
}
