//! Twice-differentiable losses `L(y, μ)` with their derivatives in `μ`.

/// A loss of one sample: value, first and second derivative in the linear predictor `μ`.
pub trait Loss: Send + Sync {
    /// `L(y, μ)`.
    fn value(&self, y: f64, mu: f64) -> f64;
    /// `∂L/∂μ`.
    fn d1(&self, y: f64, mu: f64) -> f64;
    /// `∂²L/∂μ²` (must be ≥ 0: the loss is convex in μ).
    fn d2(&self, y: f64, mu: f64) -> f64;
}

/// Logistic loss for `y ∈ {0, 1}`: `log(1 + e^μ) − y μ` (paper eq. 13).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Logistic;

/// Squared loss `½ (y − μ)²` (the scaling of scikit-learn's `Lasso` / `ElasticNet`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Squared;

fn sigmoid(mu: f64) -> f64 {
    if mu >= 0.0 {
        1.0 / (1.0 + (-mu).exp())
    } else {
        let e = mu.exp();
        e / (1.0 + e)
    }
}

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

    #[test]
    fn derivatives_match_finite_differences() {
        for y in [0.0, 1.0] {
            check_derivatives(&Logistic, y);
        }
        check_derivatives(&Squared, 2.5);
        assert!((Logistic.value(1.0, 800.0)).abs() < 1e-12);
        assert!((Logistic.value(0.0, -800.0)).abs() < 1e-12);
    }
}
