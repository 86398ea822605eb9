//! Data-fit terms `f(u) = Σ_j ℓ(y_j, u_j)`: values, conjugates and proximity operators.
//!
//! | loss | `ℓ(y, u)` | `prox_{γℓ}(v)` | `ℓ*(y, v)` | `dom ℓ*` |
//! |---|---|---|---|---|
//! | squared | `½(u − y)²` | `(v + γy)/(1 + γ)` | `½v² + vy` | ℝ |
//! | absolute | `\|u − y\|` | `y + soft(v − y, γ)` | `vy` | `\|v\| ≤ 1` |
//! | logistic | `log(1 + e^{−yu})` | root of `z − yv − γ·sigmoid(−z)` | `w log w + (1−w) log(1−w)`, `w = −yv` | `−yv ∈ [0, 1]` |
//! | hinge | `max(1 − yu, 0)` | closed form in `z = yv` | `yv` | `yv ∈ [−1, 0]` |
//!
//! Labels of the classification losses are `±1`. The conjugate's prox is computed directly
//! (not through Moreau's identity), so it stays accurate at the boundary of `dom ℓ*`. The
//! logistic proxes are one-dimensional monotone root problems solved by a safeguarded Newton
//! iteration that bisects whenever Newton leaves the bracket or fails to halve the step
//! ("rtsafe"); a plain bracketed Newton cycles on some inputs (spec §2.3).

use crate::error::{RecoveryError, Result};
use graphsparse_base::{check_finite, check_len, check_positive};

pub use graphsparse_base::Loss;

/// The data-fit term `f(u) = Σ_j ℓ(y_j, u_j)` of model (6) for each [`Loss`], the library's
/// one loss vocabulary: target checks, values, conjugates and proximity operators. Import the
/// trait to call them on a [`Loss`].
///
/// `f(u)` is `½‖y − u‖²` (squared, no `1/J` factor), `‖y − u‖₁` (absolute),
/// `Σ log(1 + exp(−y_j u_j))` (logistic, labels `±1`) or `Σ max(1 − y_j u_j, 0)` (hinge,
/// labels `±1`).
pub trait DataFit: Copy {
    /// Checks the targets: finite, and `±1` for the classification losses.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] (non-finite, named `"y"`), [`RecoveryError::InvalidLabel`].
    fn check_targets(self, y: &[f64]) -> Result<()>;

    /// `f(u)` for targets `y`.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] (a length), or the errors of [`DataFit::check_targets`].
    ///
    /// # Complexity
    /// O(J).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{DataFit, Loss};
    /// assert_eq!(Loss::Squared.value(&[1.0, 2.0], &[0.0, 0.0])?, 2.5);
    /// assert_eq!(Loss::Hinge.value(&[0.5], &[1.0])?, 0.5);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    fn value(self, u: &[f64], y: &[f64]) -> Result<f64>;

    /// `prox_{γf}(v)` into `out`.
    ///
    /// # Arguments
    /// * `v` – the point (length `J`, finite).
    /// * `y` – the targets.
    /// * `gamma` – the step `γ`, finite and `> 0`.
    /// * `out` – output buffer of length `J`.
    ///
    /// # Returns
    /// `Ok(())` with the prox in `out`.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] (lengths, non-finite values, `γ`),
    /// [`RecoveryError::InvalidLabel`].
    ///
    /// # Complexity
    /// O(J) (logistic: a few safeguarded Newton steps per entry).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{DataFit, Loss};
    /// let mut out = [0.0; 2];
    /// Loss::Absolute.prox_into(&[3.0, 0.2], &[0.0, 0.0], 1.0, &mut out)?;
    /// assert_eq!(out, [2.0, 0.0]);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    fn prox_into(self, v: &[f64], y: &[f64], gamma: f64, out: &mut [f64]) -> Result<()>;

    /// `prox_{γf*}(v)` into `out` (the conjugate's prox, computed directly).
    ///
    /// # Arguments
    /// As [`DataFit::prox_into`].
    ///
    /// # Returns
    /// `Ok(())` with the prox in `out`, which lies in `dom f*`.
    ///
    /// # Errors
    /// As [`DataFit::prox_into`].
    ///
    /// # Complexity
    /// O(J).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{DataFit, Loss};
    /// // Moreau: prox_{γf}(v) + γ·prox_{f*/γ}(v/γ) = v
    /// let (v, y, g) = (1.7, 1.0, 0.8);
    /// let (mut p, mut q) = ([0.0], [0.0]);
    /// Loss::Logistic.prox_into(&[v], &[y], g, &mut p)?;
    /// Loss::Logistic.prox_conjugate_into(&[v / g], &[y], 1.0 / g, &mut q)?;
    /// assert!((p[0] + g * q[0] - v).abs() < 1e-12);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    fn prox_conjugate_into(self, v: &[f64], y: &[f64], gamma: f64, out: &mut [f64]) -> Result<()>;

    /// `f*(v)` (`+∞` outside `dom f*`).
    ///
    /// # Errors
    /// [`RecoveryError::Input`] (a length), or the errors of [`DataFit::check_targets`].
    ///
    /// # Complexity
    /// O(J).
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::{DataFit, Loss};
    /// assert_eq!(Loss::Absolute.conjugate(&[0.5], &[2.0])?, 1.0);
    /// assert_eq!(Loss::Absolute.conjugate(&[1.5], &[2.0])?, f64::INFINITY);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    fn conjugate(self, v: &[f64], y: &[f64]) -> Result<f64>;
}

impl DataFit for Loss {
    fn check_targets(self, y: &[f64]) -> Result<()> {
        check_finite("y", y)?;
        if self.is_classification() {
            if let Some((index, &value)) = y
                .iter()
                .enumerate()
                .find(|(_, v)| **v != 1.0 && **v != -1.0)
            {
                return Err(RecoveryError::InvalidLabel {
                    loss: self.name(),
                    index,
                    value,
                });
            }
        }
        Ok(())
    }

    fn value(self, u: &[f64], y: &[f64]) -> Result<f64> {
        check_len("u", u.len(), y.len())?;
        self.check_targets(y)?;
        let fit = Fit::from(self);
        Ok(y.iter().zip(u).map(|(&yj, &uj)| fit.value(yj, uj)).sum())
    }

    fn prox_into(self, v: &[f64], y: &[f64], gamma: f64, out: &mut [f64]) -> Result<()> {
        check_prox_args(self, v, y, gamma, out)?;
        let fit = Fit::from(self);
        for ((o, &vj), &yj) in out.iter_mut().zip(v).zip(y) {
            *o = fit.prox(yj, vj, gamma);
        }
        Ok(())
    }

    fn prox_conjugate_into(self, v: &[f64], y: &[f64], gamma: f64, out: &mut [f64]) -> Result<()> {
        check_prox_args(self, v, y, gamma, out)?;
        let fit = Fit::from(self);
        for ((o, &vj), &yj) in out.iter_mut().zip(v).zip(y) {
            *o = fit.prox_conj(yj, vj, gamma);
        }
        Ok(())
    }

    fn conjugate(self, v: &[f64], y: &[f64]) -> Result<f64> {
        check_len("v", v.len(), y.len())?;
        self.check_targets(y)?;
        check_finite("v", v)?;
        let fit = Fit::from(self);
        Ok(y.iter().zip(v).map(|(&yj, &vj)| fit.conj(yj, vj)).sum())
    }
}

/// The shared checks of the two proxes.
fn check_prox_args(loss: Loss, v: &[f64], y: &[f64], gamma: f64, out: &[f64]) -> Result<()> {
    check_len("y", y.len(), v.len())?;
    check_len("out", out.len(), v.len())?;
    check_finite("v", v)?;
    loss.check_targets(y)?;
    Ok(check_positive("gamma", gamma)?)
}

/// The data-fit terms the solvers handle: the public losses and the exact fit `ι{u = y}`
/// that turns the solver into an evaluator of `Ψ_α(y)` (with `L = I`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fit {
    Squared,
    Absolute,
    Logistic,
    Hinge,
    Exact,
}

impl From<Loss> for Fit {
    fn from(loss: Loss) -> Self {
        match loss {
            Loss::Squared => Fit::Squared,
            Loss::Absolute => Fit::Absolute,
            Loss::Logistic => Fit::Logistic,
            Loss::Hinge => Fit::Hinge,
        }
    }
}

/// `log(1 + e^z)` without overflow.
#[inline]
fn softplus(z: f64) -> f64 {
    if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

pub(crate) use graphsparse_base::sigmoid;

/// `w log w` with `0 log 0 = 0`.
#[inline]
fn xlogx(w: f64) -> f64 {
    if w > 0.0 { w * w.ln() } else { 0.0 }
}

impl Fit {
    /// `ℓ(y, u)` (the exact fit is 0 on `u = y`, `+∞` elsewhere).
    #[inline]
    pub(crate) fn value(self, y: f64, u: f64) -> f64 {
        match self {
            Fit::Squared => 0.5 * (u - y) * (u - y),
            Fit::Absolute => (u - y).abs(),
            Fit::Logistic => softplus(-y * u),
            Fit::Hinge => (1.0 - y * u).max(0.0),
            Fit::Exact => {
                if u == y {
                    0.0
                } else {
                    f64::INFINITY
                }
            }
        }
    }

    /// `ℓ*(y, v)` (`+∞` outside the domain).
    #[inline]
    pub(crate) fn conj(self, y: f64, v: f64) -> f64 {
        match self {
            Fit::Squared => v * (0.5 * v + y),
            Fit::Absolute => {
                if v.abs() <= 1.0 {
                    v * y
                } else {
                    f64::INFINITY
                }
            }
            Fit::Logistic => {
                let w = -y * v;
                if (0.0..=1.0).contains(&w) {
                    xlogx(w) + xlogx(1.0 - w)
                } else {
                    f64::INFINITY
                }
            }
            Fit::Hinge => {
                let w = y * v;
                if (-1.0..=0.0).contains(&w) {
                    w
                } else {
                    f64::INFINITY
                }
            }
            Fit::Exact => v * y,
        }
    }

    /// The nearest point of `dom ℓ*` (a dual point from Algorithm 1 made feasible).
    #[inline]
    pub(crate) fn project_dual(self, y: f64, v: f64) -> f64 {
        match self {
            Fit::Squared | Fit::Exact => v,
            Fit::Absolute => v.clamp(-1.0, 1.0),
            Fit::Logistic => -y * (-y * v).clamp(0.0, 1.0),
            Fit::Hinge => y * (y * v).clamp(-1.0, 0.0),
        }
    }

    /// A (sub)gradient of `ℓ(y, ·)` at 0, the one that gives the smallest `λ_max`.
    #[inline]
    pub(crate) fn grad_at_zero(self, y: f64) -> f64 {
        match self {
            Fit::Squared | Fit::Hinge | Fit::Exact => -y,
            Fit::Absolute => {
                if y > 0.0 {
                    -1.0
                } else if y < 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
            Fit::Logistic => -0.5 * y,
        }
    }

    /// `prox_{γℓ(y,·)}(v)`.
    #[inline]
    pub(crate) fn prox(self, y: f64, v: f64, gamma: f64) -> f64 {
        match self {
            Fit::Squared => (v + gamma * y) / (1.0 + gamma),
            Fit::Absolute => {
                let d = v - y;
                y + (d.abs() - gamma).max(0.0).copysign(d)
            }
            Fit::Logistic => {
                // z = y u solves z − yv − γ sigmoid(−z) = 0, root in [yv, yv + γ]
                let z0 = y * v;
                let z = rtsafe(
                    |z| {
                        let s = sigmoid(-z);
                        (z - z0 - gamma * s, 1.0 + gamma * s * (1.0 - s))
                    },
                    z0,
                    z0 + gamma,
                );
                y * z
            }
            Fit::Hinge => {
                let z = y * v;
                let z = if z < 1.0 - gamma {
                    z + gamma
                } else if z <= 1.0 {
                    1.0
                } else {
                    z
                };
                y * z
            }
            Fit::Exact => y,
        }
    }

    /// `prox_{ςℓ*(y,·)}(v)`.
    #[inline]
    pub(crate) fn prox_conj(self, y: f64, v: f64, s: f64) -> f64 {
        match self {
            Fit::Squared => (v - s * y) / (1.0 + s),
            Fit::Absolute => (v - s * y).clamp(-1.0, 1.0),
            Fit::Logistic => {
                // v' = −y w, w = sigmoid(t) with ς t + sigmoid(t) + y v = 0 (t = logit w);
                // the root lies in [−(yv + 1)/ς, −yv/ς]
                let c = y * v;
                let (lo, hi) = (-(c + 1.0) / s, -c / s);
                let t = if lo.is_finite() && hi.is_finite() {
                    rtsafe(
                        |t| {
                            let w = sigmoid(t);
                            (s * t + w + c, s + w * (1.0 - w))
                        },
                        lo,
                        hi,
                    )
                } else {
                    // ς so small that the bracket overflows: w is 0 or 1 to working precision
                    if c > -0.5 {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    }
                };
                -y * sigmoid(t)
            }
            Fit::Hinge => y * (y * v - s).clamp(-1.0, 0.0),
            Fit::Exact => v - s * y,
        }
    }
}

/// Root of an increasing `f` on `[lo, hi]` with `f(lo) ≤ 0 ≤ f(hi)` (`f` returns the value
/// and the derivative): Newton's method, bisecting whenever the step leaves the bracket or
/// does not at least halve the step before last.
pub(crate) fn rtsafe(f: impl Fn(f64) -> (f64, f64), mut lo: f64, mut hi: f64) -> f64 {
    let (flo, _) = f(lo);
    if flo >= 0.0 {
        return lo;
    }
    let (fhi, _) = f(hi);
    if fhi <= 0.0 {
        return hi;
    }
    let mut x = 0.5 * (lo + hi);
    let mut dx_old = hi - lo;
    let mut dx = dx_old;
    let (mut fx, mut dfx) = f(x);
    for _ in 0..200 {
        if fx == 0.0 {
            return x;
        }
        if fx < 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton_leaves = ((x - hi) * dfx - fx) * ((x - lo) * dfx - fx) > 0.0;
        if newton_leaves || (2.0 * fx).abs() > (dx_old * dfx).abs() {
            dx_old = dx;
            dx = 0.5 * (hi - lo);
            x = lo + dx;
        } else {
            dx_old = dx;
            dx = fx / dfx;
            x -= dx;
        }
        if dx.abs() <= 4.0 * f64::EPSILON * x.abs().max(f64::MIN_POSITIVE) || hi <= lo {
            return x;
        }
        (fx, dfx) = f(x);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_prox_terminates_on_the_cycling_case() {
        // spec §2.3: a plain bracketed Newton cycles between −3.59 and 16.32 here
        let u = Fit::Logistic.prox(1.0, -3.59, 43.8);
        assert!((u - 1.93).abs() < 0.01, "{u}");
        let g = u - -3.59 - 43.8 * sigmoid(-u);
        assert!(g.abs() < 1e-12);
    }

    #[test]
    fn conjugate_proxes_satisfy_moreau() {
        for fit in [Fit::Squared, Fit::Absolute, Fit::Logistic, Fit::Hinge] {
            for &y in &[1.0, -1.0] {
                for &v in &[-30.0, -3.0, -0.4, 0.0, 0.7, 2.5, 40.0] {
                    for &g in &[1e-3, 0.3, 1.0, 7.0, 1e3] {
                        let p = fit.prox(y, v, g);
                        let q = fit.prox_conj(y, v / g, 1.0 / g);
                        assert!(
                            (p + g * q - v).abs() <= 1e-9 * (1.0 + v.abs()),
                            "{fit:?} y={y} v={v} g={g}: {p} + {g}·{q}"
                        );
                        assert!(fit.conj(y, q).is_finite());
                    }
                }
            }
        }
    }

    #[test]
    fn values_and_domains() {
        assert_eq!(Fit::Logistic.value(1.0, 0.0), std::f64::consts::LN_2);
        assert!(Fit::Logistic.value(1.0, -1e6).is_finite());
        assert_eq!(Fit::Logistic.conj(1.0, -0.5), 2.0 * xlogx(0.5));
        assert_eq!(Fit::Logistic.conj(1.0, 0.5), f64::INFINITY);
        assert_eq!(Fit::Hinge.project_dual(1.0, 0.3), 0.0);
        assert_eq!(Fit::Hinge.project_dual(-1.0, 3.0), 1.0);
        assert_eq!(Fit::Logistic.project_dual(-1.0, 2.0), 1.0);
        assert!(Loss::Logistic.check_targets(&[1.0, 0.0]).is_err());
        assert!(Loss::Squared.check_targets(&[f64::NAN]).is_err());
        assert!(
            Loss::Squared
                .prox_into(&[1.0], &[1.0], 0.0, &mut [0.0])
                .is_err()
        );
    }
}
