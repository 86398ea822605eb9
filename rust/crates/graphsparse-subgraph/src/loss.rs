//! Twice-differentiable losses `L(y, μ)` with their derivatives in `μ`.
//!
//! [`Loss`] is the maths BCGD needs, monomorphised into the solver; its implementations carry
//! the names of the house vocabulary [`graphsparse_base::Loss`] ([`Loss::kind`]). Labels
//! follow the paper: [`Logistic`] takes `y ∈ {0, 1}` (the vocabulary's `logistic` is stated
//! for `±1` labels, `y₀₁ = (1 + y±)/2`), [`Squared`] real responses with the same `½(u − y)²`.

use graphsparse_base::sigmoid;

/// A loss of one sample: value, first and second derivative in the linear predictor `μ`.
pub trait Loss: Send + Sync {
    /// `L(y, μ)`.
    fn value(&self, y: f64, mu: f64) -> f64;
    /// `∂L/∂μ`.
    fn d1(&self, y: f64, mu: f64) -> f64;
    /// `∂²L/∂μ²` (must be ≥ 0: the loss is convex in μ).
    fn d2(&self, y: f64, mu: f64) -> f64;
    /// The convex conjugate in `μ`: `L*(y, u) = sup_μ (u μ − L(y, μ))`, `+∞` outside its
    /// domain. Used for the dual objective of the duality gap; the default (`+∞` everywhere)
    /// makes every gap infinite, which keeps safe screening off for a loss without it.
    fn conjugate(&self, y: f64, u: f64) -> f64 {
        let _ = (y, u);
        f64::INFINITY
    }
    /// A bound `c ≥ sup_μ ∂²L/∂μ²` (the loss is `c`-smooth), which makes the conjugate
    /// `1/c`-strongly convex; `None` (the default) turns safe screening off.
    fn smoothness(&self) -> Option<f64> {
        None
    }
    /// The loss of the house vocabulary this one is (`None`, the default, for a loss outside
    /// it).
    fn kind(&self) -> Option<graphsparse_base::Loss> {
        None
    }
}

/// Logistic loss for `y ∈ {0, 1}`: `log(1 + e^μ) − y μ` (paper eq. 13).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Logistic;

/// Squared loss `½ (y − μ)²` (the scaling of scikit-learn's `Lasso` / `ElasticNet`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Squared;

impl Loss for Logistic {
    fn value(&self, y: f64, mu: f64) -> f64 {
        // log(1 + e^μ) computed without overflow
        let softplus = if mu > 0.0 {
            mu + (-mu).exp().ln_1p()
        } else {
            mu.exp().ln_1p()
        };
        softplus - y * mu
    }

    fn d1(&self, y: f64, mu: f64) -> f64 {
        sigmoid(mu) - y
    }

    fn d2(&self, _y: f64, mu: f64) -> f64 {
        let p = sigmoid(mu);
        p * (1.0 - p)
    }

    /// `p log p + (1 − p) log(1 − p)` with `p = u + y ∈ [0, 1]` (`0 log 0 = 0`), else `+∞`.
    fn conjugate(&self, y: f64, u: f64) -> f64 {
        let p = u + y;
        if !(0.0..=1.0).contains(&p) {
            return f64::INFINITY;
        }
        let xlogx = |v: f64| if v > 0.0 { v * v.ln() } else { 0.0 };
        xlogx(p) + xlogx(1.0 - p)
    }

    fn smoothness(&self) -> Option<f64> {
        Some(0.25)
    }

    fn kind(&self) -> Option<graphsparse_base::Loss> {
        Some(graphsparse_base::Loss::Logistic)
    }
}

impl Loss for Squared {
    fn value(&self, y: f64, mu: f64) -> f64 {
        0.5 * (y - mu) * (y - mu)
    }

    fn d1(&self, y: f64, mu: f64) -> f64 {
        mu - y
    }

    fn d2(&self, _y: f64, _mu: f64) -> f64 {
        1.0
    }

    /// `u y + u²/2`.
    fn conjugate(&self, y: f64, u: f64) -> f64 {
        u * y + 0.5 * u * u
    }

    fn smoothness(&self) -> Option<f64> {
        Some(1.0)
    }

    fn kind(&self) -> Option<graphsparse_base::Loss> {
        Some(graphsparse_base::Loss::Squared)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_derivatives(loss: &dyn Loss, y: f64) {
        for mu in [-30.0, -3.0, -0.5, 0.0, 0.7, 4.0, 30.0] {
            let h = 1e-5;
            let num1 = (loss.value(y, mu + h) - loss.value(y, mu - h)) / (2.0 * h);
            let num2 = (loss.d1(y, mu + h) - loss.d1(y, mu - h)) / (2.0 * h);
            assert!((num1 - loss.d1(y, mu)).abs() < 1e-6, "d1 at {mu}");
            assert!((num2 - loss.d2(y, mu)).abs() < 1e-6, "d2 at {mu}");
            assert!(loss.d2(y, mu) >= 0.0);
        }
    }

    /// `L*(y, u) = sup_μ u μ − L(y, μ)` by a fine grid search (a lower bound that is tight on
    /// the grid), and the Fenchel–Young equality at `u = L'(y, μ)`.
    fn check_conjugate(loss: &dyn Loss, y: f64) {
        for mu in [-4.0, -1.0, 0.0, 0.3, 2.5] {
            let u = loss.d1(y, mu);
            let fy = mu * u - loss.value(y, mu);
            assert!(
                (loss.conjugate(y, u) - fy).abs() < 1e-12,
                "Fenchel-Young at {mu}"
            );
            let grid = (-4000..=4000).map(|k| k as f64 * 0.005);
            let sup = grid
                .map(|m| u * m - loss.value(y, m))
                .fold(f64::MIN, f64::max);
            assert!(sup <= loss.conjugate(y, u) + 1e-12 && sup > loss.conjugate(y, u) - 1e-4);
        }
        let c = loss.smoothness().unwrap();
        for mu in [-3.0, 0.0, 0.1, 5.0] {
            assert!(loss.d2(y, mu) <= c);
        }
    }

    #[test]
    fn conjugates_satisfy_fenchel_young() {
        check_conjugate(&Logistic, 0.0);
        check_conjugate(&Logistic, 1.0);
        check_conjugate(&Squared, -1.5);
        assert_eq!(Logistic.conjugate(1.0, 0.5), f64::INFINITY);
        assert_eq!(Logistic.conjugate(0.0, 0.0), 0.0);
        assert_eq!(Logistic.smoothness(), Some(0.25));
    }

    #[test]
    fn derivatives_match_finite_differences() {
        for y in [0.0, 1.0] {
            check_derivatives(&Logistic, y);
        }
        check_derivatives(&Squared, 2.5);
        assert!((Logistic.value(1.0, 800.0)).abs() < 1e-12);
        assert!((Logistic.value(0.0, -800.0)).abs() < 1e-12);
    }

    #[test]
    fn kinds_name_the_vocabulary() {
        assert_eq!(Logistic.kind(), Some(graphsparse_base::Loss::Logistic));
        assert_eq!(Squared.kind().map(|l| l.name()), Some("squared"));
    }
}
