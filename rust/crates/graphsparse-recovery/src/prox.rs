//! The perspective function `φ` of the penalty and its proximity operator (paper §3.2).
//!
//! `φ(x, τ) = x²/(2τ) + τ/2` for `τ > 0`, `φ(0, 0) = 0`, `+∞` otherwise: the perspective of
//! `g(t) = (t² + 1)/2`. Its prox (spec §2.1) is `(0, 0)` when `x² + 2cσ ≤ c²` (case 1),
//! `(0, σ − c/2)` when `x = 0` (case 2), and otherwise (case 3)
//! `a = x − c s·sign(x)`, `b = |x|/s − c`, where `s > 0` is the unique positive root of the
//! cubic `s³ + p s − 2X = 0` with `X = |x|/c`, `p = 1 + 2σ/c`.
//!
//! Evaluation (spec §2.2): the case test avoids forming `x²` for large inputs; the root uses
//! the trigonometric form when the cubic has three real roots (`p < 0`, `X² < −p³/27`) and
//! otherwise Cardano's formula rewritten as `s = 2X/(u² + p/3 + (p/(3u))²)`, `u = ∛(X + R)`,
//! which has no cancellation between two cube roots; one or two Newton steps polish it.
//! The outputs are formed from `d = 2X/s = s² + p` as `c s = 2|x|/d` and `|x|/s = c d/2`, so
//! a tiny (even subnormal) root never enters them, and `b = |x|/s − c` replaces the paper's
//! `σ + c(s² − 1)/2`, which loses digits when `σ ≪ −c`. Extreme inputs are first scaled by a
//! power of two (the prox is positively homogeneous: `prox_{cφ}(z) = M·prox_{(c/M)φ}(z/M)`);
//! when `c` is negligible next to `|x|` and `|σ|` the cubic is solved in `t = s/k`,
//! `k = max(∛(2X), √|p|)`, or, when `p > 0` dominates, in `t = s p/(2X)` (the root of
//! `ε t³ + t − 1`, `ε = 4X²/p³`), with coefficients formed without `X` or `p`; below
//! `c < 2⁻¹⁰²²·max(|x|, |σ|)` they are formed through logarithms.

use crate::error::Result;
use graphsparse_base::{check_finite, check_len, check_positive};

/// The perspective function `φ(x, τ)` of the penalty (`+∞` outside its domain).
///
/// # Arguments
/// * `x` – the signal value.
/// * `tau` – the latent scale `τ`.
///
/// # Returns
/// `x²/(2τ) + τ/2` for `τ > 0`; `0` at `(0, 0)`; `+∞` otherwise (also for NaN).
///
/// # Complexity
/// O(1).
///
/// # Example
/// ```
/// use graphsparse_recovery::perspective;
/// assert_eq!(perspective(3.0, 3.0), 3.0); // = |x| at τ = |x| (AM–GM)
/// assert_eq!(perspective(0.0, 0.0), 0.0);
/// assert_eq!(perspective(1.0, 0.0), f64::INFINITY);
/// ```
pub fn perspective(x: f64, tau: f64) -> f64 {
    if tau > 0.0 {
        0.5 * (x * (x / tau) + tau)
    } else if x == 0.0 && tau == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// `prox_{cφ}(x, σ) = argmin_{(a, b)} c·φ(a, b) + ½(a − x)² + ½(b − σ)²`.
///
/// # Arguments
/// * `x`, `sigma` – the point, finite.
/// * `c` – the scale `c = γλ` (Algorithm 1) or `τλ` (PDHG), finite and `> 0`.
///
/// # Returns
/// `(a, b)` with `b ≥ 0`, `|a| ≤ |x|`, `sign(a) = sign(x)` or `a = 0`, and `b = 0 ⇒ a = 0`.
/// Accurate to a few ulps of `max(|x|, |σ|, c)` over the whole float64 range.
///
/// # Errors
/// [`crate::RecoveryError::Input`] for NaN/inf `x` or `σ`,
/// [`crate::RecoveryError::InvalidParameter`] unless `c` is finite and `> 0`.
///
/// # Complexity
/// O(1): one square root and one cube root (or a cosine and an `atan2`) and two Newton steps.
///
/// # Example
/// ```
/// use graphsparse_recovery::prox_perspective;
/// assert_eq!(prox_perspective(0.5, 0.1, 1.0)?, (0.0, 0.0)); // case 1: x² + 2cσ ≤ c²
/// assert_eq!(prox_perspective(0.0, 2.0, 1.0)?, (0.0, 1.5)); // case 2: (0, σ − c/2)
/// let (a, b) = prox_perspective(3.0, 1.0, 1.0)?; // case 3: s = 3 − a solves s³ + 3s − 6 = 0
/// let s = 3.0 - a;
/// assert!((s * s * s + 3.0 * s - 6.0).abs() < 1e-13 && (b - (3.0 / s - 1.0)).abs() < 1e-13);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
///
/// Reference: H. Kuroda and D. Kitahara, "Graph-structured sparse regularization via convex
/// optimization" (the prox of `γλφ` after Algorithm 1), via P. L. Combettes and C. L. Müller,
/// "Perspective maximum likelihood-type estimation via proximal decomposition", Electron. J.
/// Statist. 14 (2020), Example 2.4.
pub fn prox_perspective(x: f64, sigma: f64, c: f64) -> Result<(f64, f64)> {
    check_finite("x", &[x])?;
    check_finite("sigma", &[sigma])?;
    check_positive("c", c)?;
    Ok(prox_persp(x, sigma, c))
}

/// [`prox_perspective`] applied entrywise: `(out_x[n], out_sigma[n]) = prox_{cφ}(x[n], σ[n])`.
///
/// # Arguments
/// * `x`, `sigma` – the points (equal lengths, finite).
/// * `c` – the scale, finite and `> 0`.
/// * `out_x`, `out_sigma` – output buffers of the same length.
///
/// # Returns
/// `Ok(())` with the prox in the output buffers.
///
/// # Errors
/// [`crate::RecoveryError::Input`] for mismatched lengths, a non-finite entry or a bad `c`.
///
/// # Complexity
/// O(n), no allocation.
///
/// # Example
/// ```
/// let (mut a, mut b) = ([0.0; 3], [0.0; 3]);
/// graphsparse_recovery::prox_perspective_into(&[0.0, 0.5, 0.0], &[2.0, 0.1, -1.0], 1.0, &mut a, &mut b)?;
/// assert_eq!((a, b), ([0.0; 3], [1.5, 0.0, 0.0]));
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub fn prox_perspective_into(
    x: &[f64],
    sigma: &[f64],
    c: f64,
    out_x: &mut [f64],
    out_sigma: &mut [f64],
) -> Result<()> {
    check_len("sigma", sigma.len(), x.len())?;
    check_len("out_x", out_x.len(), x.len())?;
    check_len("out_sigma", out_sigma.len(), x.len())?;
    check_finite("x", x)?;
    check_finite("sigma", sigma)?;
    check_positive("c", c)?;
    for (((&xi, &si), a), b) in x.iter().zip(sigma).zip(out_x).zip(out_sigma) {
        (*a, *b) = prox_persp(xi, si, c);
    }
    Ok(())
}

/// Range of `max(|x|, |σ|, c)` (and lower bound of `c` relative to it) in which the plain
/// formulas neither overflow nor underflow.
const SAFE_HI: f64 = 1e100;
const SAFE_LO: f64 = 1e-100;

/// The prox for finite `x`, `σ` and finite `c > 0` (unchecked).
#[inline]
pub(crate) fn prox_persp(x: f64, sigma: f64, c: f64) -> (f64, f64) {
    let m = x.abs().max(sigma.abs()).max(c);
    if (SAFE_LO..=SAFE_HI).contains(&m) && c >= SAFE_LO * m {
        return prox_plain(x, sigma, c);
    }
    prox_extreme(x, sigma, c, m)
}

#[cold]
fn prox_extreme(x: f64, sigma: f64, c: f64, m: f64) -> (f64, f64) {
    let e = exponent(m);
    let (xs, ss, cs) = (ldexp(x, -e), ldexp(sigma, -e), ldexp(c, -e));
    if cs < f64::MIN_POSITIVE {
        // c/max(|x|, |σ|) below 2⁻¹⁰²²: no power-of-two scaling keeps both in range
        return prox_log(x, sigma, c);
    }
    let (a, b) = if cs >= SAFE_LO {
        prox_plain(xs, ss, cs)
    } else {
        prox_tiny_c(xs, ss, cs)
    };
    (ldexp(a, e), ldexp(b, e))
}

/// The prox when `c` is below `2⁻¹⁰²²·max(|x|, |σ|)`: the cubic in `t = s/k` with every
/// large or tiny coefficient formed through logarithms. `a` and `b` come out accurate to a
/// few hundred ulps of themselves, far below an ulp of `max(|x|, |σ|)`.
#[cold]
fn prox_log(x: f64, sigma: f64, c: f64) -> (f64, f64) {
    let ax = x.abs();
    let half_c = 0.5 * c;
    if ax == 0.0 {
        return (0.0, (sigma - half_c).max(0.0));
    }
    let (ln_ax, ln_c) = (ax.ln(), c.ln());
    // case 1: |x| ≤ √c·√(c − 2σ) = √(2c)·√(c/2 − σ)
    if sigma <= half_c && ln_ax <= 0.5 * (ln_c + std::f64::consts::LN_2 + (half_c - sigma).ln()) {
        return (0.0, 0.0);
    }
    // 2X and p = 2(c/2 + σ)/c, in logarithms
    let ln_2x = std::f64::consts::LN_2 + ln_ax - ln_c;
    let q = half_c + sigma;
    let ln_p = if q == 0.0 {
        f64::NEG_INFINITY
    } else {
        std::f64::consts::LN_2 + q.abs().ln() - ln_c
    };
    if q > 0.0 && 0.5 * ln_p >= ln_2x / 3.0 {
        // s = (2X/p)·t as in prox_tiny_c: c s = |x| t c/q and |x|/s = q/t
        let t = dominant_p_root((2.0 * ln_2x - 3.0 * ln_p).exp());
        return finish(x, ax, c, ax * t * (c / q), q / t);
    }
    let ln_k = (ln_2x / 3.0).max(0.5 * ln_p);
    let big_p = (ln_p - 2.0 * ln_k).exp().copysign(q);
    let big_q = (ln_2x - 3.0 * ln_k).exp();
    let (t, _) = cubic(big_p, 0.5 * big_q);
    let ln_s = ln_k + t.ln();
    let b = ((ln_ax - ln_s).exp() - c).max(0.0);
    let a = (ax - (ln_c + ln_s).exp()).max(0.0).copysign(x);
    if b == 0.0 { (0.0, 0.0) } else { (a, b) }
}

/// The prox when `X = |x|/c ≤ 1e200` and `|p| ≤ 1e200`-ish (no overflow in the formulas).
#[inline]
fn prox_plain(x: f64, sigma: f64, c: f64) -> (f64, f64) {
    let ax = x.abs();
    let t = c - 2.0 * sigma;
    if t >= 0.0 && ax * ax <= c * t {
        return (0.0, 0.0);
    }
    if ax == 0.0 {
        return (0.0, (sigma - 0.5 * c).max(0.0));
    }
    // c s = 2|x|/d and |x|/s = c d/2 with d = 2X/s: no tiny s is ever formed
    let (_, d) = cubic(1.0 + 2.0 * (sigma / c), ax / c);
    finish(x, ax, c, 2.0 * ax / d, 0.5 * c * d)
}

/// The prox for `max(|x|, |σ|, c) ∈ [1, 2)` and `c < 1e-100`: the cubic in `t = s/k`.
fn prox_tiny_c(x: f64, sigma: f64, c: f64) -> (f64, f64) {
    let ax = x.abs();
    let t = c - 2.0 * sigma;
    if t >= 0.0 && ax <= c.sqrt() * t.sqrt() {
        return (0.0, 0.0);
    }
    if ax == 0.0 {
        return (0.0, (sigma - 0.5 * c).max(0.0));
    }
    let sum = c + 2.0 * sigma; // p·c
    let k1 = (2.0 * ax).cbrt() / c.cbrt(); // ∛(2X)
    let k2 = sum.abs().sqrt() / c.sqrt(); // √|p|
    if sum > 0.0 && k2 >= k1 {
        // p > 0 dominates: s = (2X/p)·t, so that 2X/k³ (which may underflow) is never formed
        let t = dominant_p_root((k1 / k2).powi(6));
        // s = 2X t/p = 2|x| t/sum: c s = c·(2|x| t/sum), |x|/s = sum/(2t)
        return finish(x, ax, c, c * (2.0 * ax * t / sum), sum / (2.0 * t));
    }
    let k = k1.max(k2);
    let ck = c * k;
    let ck2 = ck * k;
    let (tt, _) = cubic(sum / ck2, ax / (ck2 * k));
    // s = k t: c s = (c k) t, |x|/s = (|x|/k)/t
    finish(x, ax, c, ck * tt, (ax / k) / tt)
}

/// The root `t ∈ (0, 1]` of `ε t³ + t − 1 = 0` for `0 ≤ ε ≤ 1`: the cubic
/// `s³ + p s − 2X = 0` in `t = s p/(2X)` when `p > 0` dominates (`ε = 4X²/p³`).
fn dominant_p_root(eps: f64) -> f64 {
    let mut t = 1.0f64;
    for _ in 0..60 {
        let g = (eps * t * t + 1.0) * t - 1.0;
        let step = g / (3.0 * eps * t * t + 1.0);
        // Newton from the right of the root of a convex increasing function: monotone
        if step.is_nan() || step <= 0.0 || t - step >= t {
            break;
        }
        t -= step;
    }
    t
}

/// `a = sign(x)·max(|x| − c s, 0)`, `b = max(|x|/s − c, 0)` from `cs = c·s`, `xs = |x|/s`.
#[inline(always)]
fn finish(x: f64, ax: f64, c: f64, cs: f64, xs: f64) -> (f64, f64) {
    let a = (ax - cs).max(0.0).copysign(x);
    let b = (xs - c).max(0.0);
    if b == 0.0 { (0.0, 0.0) } else { (a, b) }
}

/// The unique positive root `s` of `s³ + p s − 2X = 0` for `X > 0` (spec §2.2 item 3),
/// with `d = 2X/s = s² + p`; `d` stays accurate when `s` is tiny (`p ≫ X^{2/3}`), where `s`
/// itself may be subnormal.
#[inline]
pub(crate) fn cubic(p: f64, big_x: f64) -> (f64, f64) {
    let p3 = p / 3.0;
    let disc = big_x * big_x + p3 * p3 * p3; // X² + p³/27
    if p < 0.0 && disc < 0.0 {
        // three real roots: the largest, 2√(−p/3)·cos(θ/3), θ = acos(X/√(−p³/27)); s ≥ 1 here
        let theta = (-disc).sqrt().atan2(big_x);
        let mut s = 2.0 * (-p3).sqrt() * (theta / 3.0).cos();
        // Newton polish; h is convex on s > 0, accept only steps that reduce |h| and stay > 0
        let h = |s: f64| (s * s + p) * s - 2.0 * big_x;
        let mut hs = h(s);
        for _ in 0..2 {
            let dh = 3.0 * s * s + p;
            if hs == 0.0 || dh <= 0.0 || !dh.is_finite() {
                break;
            }
            let s_new = s - hs / dh;
            if s_new.is_nan() || s_new <= 0.0 {
                break;
            }
            let h_new = h(s_new);
            if h_new.abs() < hs.abs() {
                s = s_new;
                hs = h_new;
            } else {
                break;
            }
        }
        return (s, 2.0 * big_x / s);
    }
    // Cardano without cancellation: s = u − p/(3u) = 2X/(u² + p/3 + (p/(3u))²)
    let u = (big_x + disc.sqrt()).cbrt();
    let v = p3 / u;
    let mut d = u * u + p3 + v * v;
    // one Newton step on k(d) = d − p − (2X/d)²: k is increasing and concave, so a Newton step
    // never overshoots the root (it lands at or left of it, from either side) and needs no
    // acceptance test; with s = 2X/d, k'(d) = 1 + 2s²/d, so d ← d − k·d/(d + 2s²)
    let s = 2.0 * big_x / d;
    let s2 = s * s;
    let k = (d - p) - s2;
    let d_new = d - k * d / (d + 2.0 * s2);
    if d_new > 0.0 && d_new.is_finite() {
        d = d_new;
    }
    let s = 2.0 * big_x / d;
    (s, d)
}

/// `⌊log₂ m⌋` for finite `m > 0` (subnormals included).
fn exponent(m: f64) -> i32 {
    let bits = m.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    if m == 0.0 {
        return 0;
    }
    if e == 0 {
        // subnormal: scale into the normal range first
        exponent(m * f64::from_bits(0x4350_0000_0000_0000)) - 54 // 2^54
    } else {
        e - 1023
    }
}

/// `x · 2^k`, in steps that never overflow the scale factor.
fn ldexp(mut x: f64, mut k: i32) -> f64 {
    let pow2 = |k: i32| f64::from_bits(((k + 1023) as u64) << 52);
    while k > 1000 {
        x *= pow2(1000);
        k -= 1000;
    }
    while k < -1000 {
        x *= pow2(-1000);
        k += 1000;
    }
    x * pow2(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_cases_of_the_paper() {
        assert_eq!(prox_persp(0.5, 0.1, 1.0), (0.0, 0.0));
        assert_eq!(prox_persp(0.0, 2.0, 1.0), (0.0, 1.5));
        assert_eq!(prox_persp(-0.0, 0.5, 1.0), (0.0, 0.0));
        // case 3 at x = 3, σ = 1, c = 1: s³ + 3s − 6 = 0
        let (a, b) = prox_persp(3.0, 1.0, 1.0);
        let s = 3.0 - a;
        assert!((s * s * s + 3.0 * s - 6.0).abs() < 1e-14);
        assert!((b - (3.0 / s - 1.0)).abs() < 1e-14);
        // odd in x
        assert_eq!(prox_persp(-3.0, 1.0, 1.0), (-a, b));
    }

    #[test]
    fn cubic_root_in_the_three_root_regime() {
        // p = −3, X = 0.5: roots of s³ − 3s − 1 = 0 are 2cos(20°·k…); the largest is 2cos(π/9)
        let (s, d) = cubic(-3.0, 0.5);
        assert!((s - 2.0 * (std::f64::consts::PI / 9.0).cos()).abs() < 1e-15);
        assert!((d - 1.0 / s).abs() < 1e-15);
        // double root boundary: X² = −p³/27 with p = −3 gives X = 1, s = 2
        assert!((cubic(-3.0, 1.0).0 - 2.0).abs() < 1e-15);
        // p ≫ X: s ≈ 2X/p is subnormal, d = p to working precision
        let (s, d) = cubic(2e21, 1e-291);
        assert_eq!(d, 2e21);
        assert!(s > 0.0 && s < 1e-300);
    }

    #[test]
    fn power_of_two_helpers() {
        for m in [
            1.0,
            1.5,
            2.0,
            1e300,
            1e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
        ] {
            let e = exponent(m);
            let n = ldexp(m, -e);
            assert!((1.0..2.0).contains(&n), "{m}: {n}");
            assert_eq!(ldexp(n, e), m);
        }
    }

    #[test]
    fn extreme_scales_are_finite_and_homogeneous() {
        for (x, s, c) in [
            (1e300, -1e300, 1e-300),
            (1e-300, 1e-300, 1e300),
            (1.0, -1.0, 5e-324),
            (5e-324, 0.0, 5e-324),
            (f64::MAX, f64::MAX, f64::MAX),
            (-f64::MAX, -f64::MAX, 1.0),
        ] {
            let (a, b) = prox_persp(x, s, c);
            assert!(
                a.is_finite() && b.is_finite() && b >= 0.0,
                "{x} {s} {c}: {a} {b}"
            );
            assert!(a.abs() <= x.abs());
        }
        let (a, b) = prox_persp(3.0, 1.0, 1.0);
        let (a2, b2) = prox_persp(3.0 * 2f64.powi(-900), 2f64.powi(-900), 2f64.powi(-900));
        assert_eq!((a * 2f64.powi(-900), b * 2f64.powi(-900)), (a2, b2));
    }
}
