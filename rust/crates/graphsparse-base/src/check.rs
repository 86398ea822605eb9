//! Parameter checking: the [`Check`] trait every parameter builder implements, and the shared
//! checks of input arrays and scalars.
//!
//! Every core crate follows one shape (linfa's `ParamGuard`): a builder of plain values with
//! chainable setters ([`setters!`](crate::setters)) implements [`Check`], whose
//! [`check`](Check::check) turns it into a checked type that solvers take. A solver never
//! re-checks what its checked parameters guarantee.
//!
//! The helpers below are the one place each generic rule is written, always with the argument
//! order `(arg, value, expected…)`. They return [`InputError`], which each crate's error enum
//! wraps with `#[from]`, so `?` lifts it and the message names the argument.
//!
//! # Example
//! ```
//! use graphsparse_base::{check_finite, check_len, check_positive, Check, InputError};
//!
//! #[derive(Debug, Clone, Copy)]
//! pub struct StepParams { step: f64 }
//! #[derive(Debug, Clone, Copy)]
//! pub struct StepValidParams { step: f64 }
//!
//! impl Check for StepParams {
//!     type Checked = StepValidParams;
//!     type Error = InputError;
//!     fn check(self) -> Result<StepValidParams, InputError> {
//!         check_positive("step", self.step)?;
//!         Ok(StepValidParams { step: self.step })
//!     }
//! }
//!
//! assert!(StepParams { step: 0.5 }.check().is_ok());
//! let err = StepParams { step: -1.0 }.check().unwrap_err();
//! assert_eq!(err.to_string(), "step must be finite and > 0, got -1");
//! assert!(check_len("y", 3, 3).is_ok());
//! assert_eq!(
//!     check_finite("x", &[1.0, f64::NAN]).unwrap_err(),
//!     InputError::NotFinite { arg: "x", index: 1, value: f64::NAN.to_bits() },
//! );
//! ```

/// Turns a parameter builder into its checked form.
///
/// `check` owns every range and invariant of the parameters; the checked type is what the
/// solver takes, so an unchecked builder cannot reach a solver.
pub trait Check {
    /// The checked parameters a solver takes.
    type Checked;
    /// The error naming the first parameter out of range.
    type Error;

    /// Checks every parameter and returns the checked form.
    ///
    /// # Errors
    /// [`Self::Error`] naming the first parameter out of range and the range it must lie in.
    fn check(self) -> Result<Self::Checked, Self::Error>;
}

/// A rule broken by an input array or scalar; the message names the argument.
///
/// Crate error enums wrap it as `Input(#[from] InputError)` with `#[error(transparent)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// An array has the wrong length.
    #[error("{arg} has length {got}, expected {expected}")]
    LengthMismatch {
        /// The argument.
        arg: &'static str,
        /// Its length.
        got: usize,
        /// The length it must have.
        expected: usize,
    },
    /// An array holds NaN or an infinity.
    #[error("{arg} contains a non-finite value ({}) at index {index}", f64::from_bits(*.value))]
    NotFinite {
        /// The argument.
        arg: &'static str,
        /// Index of the first non-finite entry.
        index: usize,
        /// The entry, as `f64::to_bits` (so the error is `Eq` and NaN compares equal to itself).
        value: u64,
    },
    /// A scalar, or an entry of an array, is outside the range it must lie in.
    #[error("{arg} must be {range}, got {}", f64::from_bits(*.value))]
    OutOfRange {
        /// The argument (for an array entry, the argument; see `index`).
        arg: &'static str,
        /// The value, as `f64::to_bits`.
        value: u64,
        /// The range in words, such as `"finite and > 0"`.
        range: &'static str,
    },
    /// An entry of an array is outside the range its entries must lie in.
    #[error("{arg}[{index}] must be {range}, got {}", f64::from_bits(*.value))]
    EntryOutOfRange {
        /// The argument.
        arg: &'static str,
        /// Index of the first entry out of range.
        index: usize,
        /// The entry, as `f64::to_bits`.
        value: u64,
        /// The range in words.
        range: &'static str,
    },
}

impl InputError {
    /// The argument the error names.
    pub const fn arg(&self) -> &'static str {
        match *self {
            InputError::LengthMismatch { arg, .. }
            | InputError::NotFinite { arg, .. }
            | InputError::OutOfRange { arg, .. }
            | InputError::EntryOutOfRange { arg, .. } => arg,
        }
    }
}

/// Checks that `arg` has length `expected`.
///
/// # Errors
/// [`InputError::LengthMismatch`].
#[inline]
pub fn check_len(arg: &'static str, got: usize, expected: usize) -> Result<(), InputError> {
    if got == expected {
        Ok(())
    } else {
        Err(InputError::LengthMismatch { arg, got, expected })
    }
}

/// Checks that every entry of `values` is finite.
///
/// The common case is one branch-free pass (it vectorises); the first bad index is searched
/// only on failure.
///
/// # Errors
/// [`InputError::NotFinite`] at the first non-finite entry.
pub fn check_finite(arg: &'static str, values: &[f64]) -> Result<(), InputError> {
    if values.iter().fold(true, |ok, x| ok & x.is_finite()) {
        return Ok(());
    }
    let index = values.iter().position(|x| !x.is_finite()).unwrap_or(0);
    Err(InputError::NotFinite {
        arg,
        index,
        value: values[index].to_bits(),
    })
}

/// Checks that every entry of `values` is finite and `>= 0`.
///
/// # Errors
/// [`InputError::EntryOutOfRange`] at the first entry that is not.
pub fn check_all_nonnegative(arg: &'static str, values: &[f64]) -> Result<(), InputError> {
    if values
        .iter()
        .fold(true, |ok, x| ok & (x.is_finite() & (*x >= 0.0)))
    {
        return Ok(());
    }
    let index = values
        .iter()
        .position(|x| !(x.is_finite() && *x >= 0.0))
        .unwrap_or(0);
    Err(InputError::EntryOutOfRange {
        arg,
        index,
        value: values[index].to_bits(),
        range: "finite and >= 0",
    })
}

/// Checks that a scalar satisfies `ok`, else reports it out of `range` (given in words).
///
/// # Errors
/// [`InputError::OutOfRange`].
#[inline]
pub fn check_range(
    arg: &'static str,
    value: f64,
    range: &'static str,
    ok: impl FnOnce(f64) -> bool,
) -> Result<(), InputError> {
    if ok(value) {
        Ok(())
    } else {
        Err(InputError::OutOfRange {
            arg,
            value: value.to_bits(),
            range,
        })
    }
}

/// Checks that a scalar is finite and `> 0`.
///
/// # Errors
/// [`InputError::OutOfRange`].
#[inline]
pub fn check_positive(arg: &'static str, value: f64) -> Result<(), InputError> {
    check_range(arg, value, "finite and > 0", |v| v.is_finite() && v > 0.0)
}

/// Checks that a scalar is finite and `>= 0`.
///
/// # Errors
/// [`InputError::OutOfRange`].
#[inline]
pub fn check_nonnegative(arg: &'static str, value: f64) -> Result<(), InputError> {
    check_range(arg, value, "finite and >= 0", |v| v.is_finite() && v >= 0.0)
}

/// Checks that a scalar lies in `[0, 1]`.
///
/// # Errors
/// [`InputError::OutOfRange`].
#[inline]
pub fn check_unit_interval(arg: &'static str, value: f64) -> Result<(), InputError> {
    check_range(arg, value, "in [0, 1]", |v| (0.0..=1.0).contains(&v))
}

/// Checks that a count (iterations, runs, a sparsity) is at least 1.
///
/// # Errors
/// [`InputError::OutOfRange`] (`"{arg} must be >= 1, got 0"`).
#[inline]
pub fn check_at_least_one(arg: &'static str, value: usize) -> Result<(), InputError> {
    if value >= 1 {
        Ok(())
    } else {
        Err(InputError::OutOfRange {
            arg,
            value: 0f64.to_bits(),
            range: ">= 1",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn messages_name_the_argument() {
        assert_eq!(
            check_len("y", 2, 3).unwrap_err().to_string(),
            "y has length 2, expected 3"
        );
        assert_eq!(
            check_finite("x", &[0.0, f64::INFINITY])
                .unwrap_err()
                .to_string(),
            "x contains a non-finite value (inf) at index 1"
        );
        assert_eq!(
            check_all_nonnegative("costs", &[1.0, -2.0])
                .unwrap_err()
                .to_string(),
            "costs[1] must be finite and >= 0, got -2"
        );
        assert_eq!(
            check_nonnegative("eps", f64::NAN).unwrap_err().to_string(),
            "eps must be finite and >= 0, got NaN"
        );
        assert_eq!(check_unit_interval("rho", 1.5).unwrap_err().arg(), "rho");
        assert_eq!(
            check_at_least_one("max_iter", 0).unwrap_err().to_string(),
            "max_iter must be >= 1, got 0"
        );
        assert!(check_at_least_one("max_iter", 1).is_ok());
    }

    proptest! {
        /// The vectorised checks agree with a plain scan: same verdict, same first index.
        #[test]
        fn checks_match_a_scan(v in prop::collection::vec(
            prop_oneof![Just(f64::NAN), Just(f64::NEG_INFINITY), -5.0..5.0f64], 0..40)) {
            let first_bad = v.iter().position(|x| !x.is_finite());
            match check_finite("v", &v) {
                Ok(()) => prop_assert!(first_bad.is_none()),
                Err(InputError::NotFinite { index, .. }) => prop_assert_eq!(Some(index), first_bad),
                Err(e) => prop_assert!(false, "unexpected {e}"),
            }
            let first_neg = v.iter().position(|x| !(x.is_finite() && *x >= 0.0));
            match check_all_nonnegative("v", &v) {
                Ok(()) => prop_assert!(first_neg.is_none()),
                Err(InputError::EntryOutOfRange { index, .. }) => prop_assert_eq!(Some(index), first_neg),
                Err(e) => prop_assert!(false, "unexpected {e}"),
            }
        }
    }
}
