//! The one loss vocabulary: which data-fit term a model minimises.
//!
//! Each solver crate implements the maths it needs for the losses it supports (derivatives for
//! BCGD, proximity operators and conjugates for the primal-dual solver, the dual for SMO) and
//! refuses the others when its parameters are checked. The names, labels and scalings are the
//! same everywhere:
//!
//! | loss | `ℓ(y, u)` | labels |
//! |---|---|---|
//! | [`Loss::Squared`] | `½(u − y)²` | real |
//! | [`Loss::Absolute`] | `\|u − y\|` | real |
//! | [`Loss::Logistic`] | `log(1 + e^{−yu})` | `±1` |
//! | [`Loss::Hinge`] | `max(1 − yu, 0)` | `±1` |

use std::fmt;
use std::str::FromStr;

/// A data-fit term `ℓ(y, u)` of one sample (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Loss {
    /// `½(u − y)²` (no `1/n` factor; scikit-learn's `Lasso` has one).
    #[default]
    Squared,
    /// `|u − y|`.
    Absolute,
    /// `log(1 + e^{−yu})`, labels `±1`.
    Logistic,
    /// `max(1 − yu, 0)`, labels `±1`.
    Hinge,
}

impl Loss {
    /// Every loss, in declaration order.
    pub const ALL: [Loss; 4] = [Loss::Squared, Loss::Absolute, Loss::Logistic, Loss::Hinge];

    /// `"squared"`, `"absolute"`, `"logistic"` or `"hinge"`: the name Python passes.
    pub const fn name(self) -> &'static str {
        match self {
            Loss::Squared => "squared",
            Loss::Absolute => "absolute",
            Loss::Logistic => "logistic",
            Loss::Hinge => "hinge",
        }
    }

    /// Whether the loss takes `±1` labels.
    pub const fn is_classification(self) -> bool {
        matches!(self, Loss::Logistic | Loss::Hinge)
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A loss name that is not one of [`Loss::ALL`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("loss must be one of squared, absolute, logistic, hinge; got {0:?}")]
pub struct UnknownLoss(pub String);

impl FromStr for Loss {
    type Err = UnknownLoss;

    /// # Example
    /// ```
    /// use graphsparse_base::Loss;
    /// assert_eq!("logistic".parse::<Loss>(), Ok(Loss::Logistic));
    /// assert!("least_squares".parse::<Loss>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Loss::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLoss(s.to_owned()))
    }
}

/// The logistic sigmoid `1 / (1 + e^{−z})`, without overflow for any finite `z`.
///
/// # Example
/// ```
/// use graphsparse_base::sigmoid;
/// assert_eq!(sigmoid(0.0), 0.5);
/// assert!(sigmoid(-800.0) >= 0.0 && sigmoid(800.0) <= 1.0);
/// ```
#[inline]
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}
