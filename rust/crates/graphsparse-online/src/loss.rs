//! Losses, their gradients and the prediction rule (spec §C.0, §C.9).
//!
//! The loss vocabulary is the library's one [`Loss`]; the online learners support
//! [`Loss::Logistic`] (`-log σ(y (xᵀw + w_b)) + η/2 ‖w‖²`, labels ±1) and [`Loss::Squared`]
//! (`½ (xᵀw + w_b − y)² + η/2 ‖w‖²`, Python's `"least_squares"`) and refuse the others when a
//! learner is built ([`check_loss`]).

use crate::error::{OnlineError, Result};

pub use graphsparse_base::Loss;

/// The losses the online learners support.
pub(crate) const SUPPORTED: &str = "logistic or squared";

/// Checks that the online learners support `loss` ([`Loss::Logistic`] or [`Loss::Squared`]).
///
/// # Errors
/// [`OnlineError::InvalidParameter`] naming `loss`.
pub fn check_loss(loss: Loss) -> Result<()> {
    match loss {
        Loss::Logistic | Loss::Squared => Ok(()),
        other => Err(OnlineError::InvalidParameter {
            name: "loss",
            expected: SUPPORTED,
            value: other.name().to_owned(),
        }),
    }
}

/// Numerically stable logistic sigmoid, exactly as the reference computes it.
///
/// The online learners keep this formula, `1 − 1/(1 + eᶻ)` for `z ≤ 0`, rather than
/// [`graphsparse_base::sigmoid`] (`eᶻ/(1 + eᶻ)`): the two agree algebraically but not in the
/// last bit, and GraphDA's reference transcription is reproduced bit for bit.
///
/// # Complexity
/// O(1).
#[inline]
pub fn sigmoid(z: f64) -> f64 {
    if z > 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        1.0 - 1.0 / (1.0 + z.exp())
    }
}

/// `xᵀ w[..p] + w[p]`, summed left to right (`w` has the intercept last).
///
/// # Complexity
/// O(p), no allocation.
#[inline]
pub fn decision(x: &[f64], w: &[f64]) -> f64 {
    let p = x.len();
    let mut acc = 0.0;
    for (xi, wi) in x.iter().zip(&w[..p]) {
        acc += xi * wi;
    }
    acc + w[p]
}

/// The ±1 label predicted from a decision value: `+1` when `σ(score) ≥ 0.5`.
///
/// # Complexity
/// O(1).
#[inline]
pub fn predict_label(score: f64) -> f64 {
    if sigmoid(score) >= 0.5 { 1.0 } else { -1.0 }
}

/// Writes the gradient at `w` (length `p + 1`, intercept last) of `loss` for the sample
/// `(x, y)` into `grad` and returns the decision value `xᵀw + w_b` it used.
///
/// Logistic: `a = (σ(y·score) − 1)·y`, gradient `(a x + η w, a)`. Squared: `r = score − y`,
/// gradient `(r x + η w, r)`. The intercept is never regularised. `loss` is one
/// [`check_loss`] accepts.
///
/// # Complexity
/// O(p), no allocation.
pub(crate) fn gradient_into(
    loss: Loss,
    x: &[f64],
    y: f64,
    w: &[f64],
    l2: f64,
    grad: &mut [f64],
) -> f64 {
    let p = x.len();
    let score = decision(x, w);
    let a = match loss {
        Loss::Logistic => (sigmoid(y * score) - 1.0) * y,
        Loss::Squared => score - y,
        other => unreachable!("invariant: learners refuse the {other} loss when built"),
    };
    for i in 0..p {
        grad[i] = a * x[i] + l2 * w[i];
    }
    grad[p] = a;
    score
}

/// The value of `loss` at `w` for one sample (stable log-sigmoid for the logistic loss).
///
/// # Complexity
/// O(p), no allocation.
#[cfg(test)]
pub(crate) fn value(loss: Loss, x: &[f64], y: f64, w: &[f64], l2: f64) -> f64 {
    let p = x.len();
    let score = decision(x, w);
    let reg = 0.5 * l2 * w[..p].iter().map(|v| v * v).sum::<f64>();
    match loss {
        Loss::Logistic => {
            let z = y * score;
            // -log σ(z) = log(1 + e^{-z}), evaluated without overflow
            let nls = if z > 0.0 {
                (-z).exp().ln_1p()
            } else {
                -z + z.exp().ln_1p()
            };
            nls + reg
        }
        Loss::Squared => 0.5 * (score - y) * (score - y) + reg,
        other => unreachable!("invariant: learners refuse the {other} loss when built"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigmoid_is_stable_and_symmetric() {
        assert_eq!(sigmoid(0.0), 0.5);
        assert!(sigmoid(800.0) == 1.0 && sigmoid(-800.0) == 0.0);
        assert!((sigmoid(2.0) + sigmoid(-2.0) - 1.0).abs() < 1e-15);
        assert_eq!(predict_label(0.0), 1.0);
        assert_eq!(predict_label(-1e-3), -1.0);
        assert!(check_loss(Loss::Squared).is_ok());
        assert!(matches!(
            check_loss(Loss::Hinge),
            Err(OnlineError::InvalidParameter { name: "loss", .. })
        ));
    }

    #[test]
    fn logistic_gradient_matches_finite_differences() {
        let x = [0.3, -1.2, 2.0];
        let w = [0.1, 0.2, -0.3, 0.05];
        for &(loss, y) in &[
            (Loss::Logistic, -1.0),
            (Loss::Logistic, 1.0),
            (Loss::Squared, 0.7),
        ] {
            let mut g = [0.0; 4];
            gradient_into(loss, &x, y, &w, 0.1, &mut g);
            for k in 0..4 {
                let h = 1e-6;
                let (mut a, mut b) = (w, w);
                a[k] += h;
                b[k] -= h;
                let fd = (value(loss, &x, y, &a, 0.1) - value(loss, &x, y, &b, 0.1)) / (2.0 * h);
                assert!((fd - g[k]).abs() < 1e-7, "{loss:?} {k}: {fd} vs {}", g[k]);
            }
        }
    }

    #[test]
    fn hand_computed_logistic_gradient() {
        // w = 0: score 0, z 0, σ = 0.5, a = -0.5 y
        let mut g = [0.0; 3];
        gradient_into(Loss::Logistic, &[2.0, -4.0], 1.0, &[0.0; 3], 0.0, &mut g);
        assert_eq!(g, [-1.0, 2.0, -0.5]);
    }
}
