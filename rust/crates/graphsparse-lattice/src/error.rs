//! Error type of the lattice crate.

use graphsparse_base::InputError;

/// Errors returned by propositionalisation, the kernel cache and the gHKL solvers.
///
/// Every message names the argument and the bad value.
///
/// # Example
/// ```
/// use graphsparse_base::InputError;
/// use graphsparse_lattice::{LatticeError, PropositionMatrix};
/// let err = PropositionMatrix::from_dense(2, 2, &[true; 3]).unwrap_err();
/// assert!(matches!(
///     err,
///     LatticeError::Input(InputError::LengthMismatch { arg: "values", got: 3, expected: 4 })
/// ));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LatticeError {
    /// A parameter is out of range (the message names it and its value).
    #[error("{name}: {reason}")]
    InvalidParameter {
        /// Name of the parameter.
        name: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// Input data are malformed (the message names the argument and where).
    #[error("{name}: {reason}")]
    InvalidInput {
        /// Name of the argument.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A parameter or an input breaks a shared rule of `graphsparse-base` (a range, a length,
    /// a non-finite value); the message names it.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A size is too large to allocate or to index (the message names it).
    #[error("{name}: {value} is too large ({reason})")]
    TooLarge {
        /// What is too large.
        name: &'static str,
        /// Its value.
        value: u128,
        /// Why it is too large.
        reason: &'static str,
    },
}

/// `Result` with [`LatticeError`] as the default error.
pub type Result<T, E = LatticeError> = std::result::Result<T, E>;

pub(crate) fn bad_param(name: &'static str, reason: impl Into<String>) -> LatticeError {
    LatticeError::InvalidParameter {
        name,
        reason: reason.into(),
    }
}

pub(crate) fn bad_input(name: &'static str, reason: impl Into<String>) -> LatticeError {
    LatticeError::InvalidInput {
        name,
        reason: reason.into(),
    }
}
