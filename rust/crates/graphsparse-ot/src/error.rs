//! Error type of the optimal-transport and compression crate.

use graphsparse_graph::GraphError;
use graphsparse_proj::ProjError;

/// Errors returned by graph optimal transport, compression, coarsening and WL features.
///
/// Every variant names the offending argument and value, so that the Python binding can pass
/// the message on unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OtError {
    /// Two inputs that must have matching lengths do not.
    #[error("length mismatch: {arg} has length {got}, expected {expected}")]
    LengthMismatch {
        /// The argument with the wrong length.
        arg: &'static str,
        /// The length it should have.
        expected: usize,
        /// The length it has.
        got: usize,
    },
    /// An entry of a numeric input is NaN, infinite or negative where that is not allowed.
    #[error("{arg}[{index}] = {value} is invalid: {reason}")]
    BadValue {
        /// The argument (`"costs"`, `"rho0"`, `"rho1"`, ...).
        arg: &'static str,
        /// Position of the first bad entry.
        index: usize,
        /// The entry itself.
        value: f64,
        /// What was expected.
        reason: &'static str,
    },
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
    /// An edge endpoint is not a vertex.
    #[error("edge {edge} = ({u}, {v}) has an endpoint out of range for {n} vertices")]
    VertexOutOfRange {
        /// Index of the edge in the input.
        edge: usize,
        /// First endpoint.
        u: u64,
        /// Second endpoint.
        v: u64,
        /// Number of vertices.
        n: usize,
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
    Graph(#[from] GraphError),
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

/// Checks that `v` has length `n`.
pub(crate) fn check_len(arg: &'static str, got: usize, expected: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(OtError::LengthMismatch { arg, expected, got })
    }
}

/// Checks that every entry is finite and `>= 0`.
pub(crate) fn check_nonneg(arg: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !(x.is_finite() && *x >= 0.0)) {
        None => Ok(()),
        Some(index) => Err(OtError::BadValue {
            arg,
            index,
            value: v[index],
            reason: "must be finite and >= 0",
        }),
    }
}

/// Deviation from 1 accepted for the total mass of a distribution.
pub const MASS_TOL: f64 = 1e-9;

/// Checks that `v` is a probability vector (finite, `>= 0`, summing to 1 within [`MASS_TOL`]).
pub(crate) fn check_distribution(arg: &'static str, v: &[f64]) -> Result<()> {
    check_nonneg(arg, v)?;
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

/// Checks that every entry is finite.
pub(crate) fn check_finite(arg: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        None => Ok(()),
        Some(index) => Err(OtError::BadValue {
            arg,
            index,
            value: v[index],
            reason: "must be finite",
        }),
    }
}
