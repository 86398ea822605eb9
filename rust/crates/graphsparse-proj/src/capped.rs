//! Projection onto the capped simplex `{x ∈ [0, 1]^n : Σ x ≤ k}`.
//!
//! The projection is `x = clip(y − τ, 0, 1)` with `τ = 0` when `Σ clip(y, 0, 1) ≤ k`, and
//! otherwise `τ > 0` the root of `s(τ) = Σ clip(y_i − τ, 0, 1) = k`. `s` is continuous,
//! non-increasing and piecewise linear with breakpoints `{y_i, y_i − 1}`.
//!
//! The root is found by randomised pivoting on the breakpoints (quickselect style) over an
//! interval `(lo, hi]` with `s(lo) > k ≥ s(hi)`. Notation: on that interval each coordinate is
//! *L* (`y_i ≤ lo`: contributes 0), *U* (`y_i − 1 ≥ hi`: contributes 1), *M*
//! (`y_i − 1 ≤ lo` and `y_i ≥ hi`: contributes `y_i − τ`) or a *candidate* with a breakpoint
//! strictly inside. *L* coordinates are dropped, *U* and *M* folded into the counters
//! `n_u`, `n_m`, `sum_m`; candidates stay in the scratch buffer. Each pivot removes a breakpoint
//! from the interval, so the search ends; with no candidate left `s` is linear on the interval
//! and `τ = (n_u + sum_m − k) / n_m` in closed form.

use crate::error::{ProjError, Result};
use crate::util::{CHUNK, all_finite, check_len, first_non_finite};

#[inline]
fn clip01(x: f64) -> f64 {
    x.clamp(0.0, 1.0)
}

/// Sum of `clip(x, 0, 1)` with eight partial sums (vectorises; fixed order).
fn sum_clip(xs: &[f64]) -> f64 {
    let mut acc = [0.0_f64; 8];
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a += clip01(x);
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for &x in rest {
        s += clip01(x);
    }
    s
}

/// A deterministic xorshift step (pivot choice; results do not depend on it beyond rounding).
#[inline]
fn next_rand(state: &mut u64) -> u64 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    x
}

/// The root `τ ∈ (0, max y)` of `s(τ) = k`, given `0 < k < Σ clip(y, 0, 1)`.
fn capped_tau(y: &[f64], k: f64, s: &mut [f64]) -> f64 {
    let mut m = 0;
    for &z in y {
        if z > 0.0 {
            s[m] = z;
            m += 1;
        }
    }
    let (mut lo, mut hi) = (0.0_f64, f64::INFINITY);
    let (mut n_u, mut n_m, mut sum_m) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    while m > 0 {
        let z = s[(next_rand(&mut state) % m as u64) as usize];
        // a candidate has z or z − 1 strictly inside (lo, hi)
        let p = if z < hi { z } else { z - 1.0 };
        let mut val = n_u + sum_m - n_m * p;
        for &z in &s[..m] {
            val += clip01(z - p);
        }
        if val > k {
            lo = p;
        } else {
            hi = p;
        }
        let mut w = 0;
        for j in 0..m {
            let z = s[j];
            if z <= lo {
                // L: contributes 0
            } else if z - 1.0 >= hi {
                n_u += 1.0;
            } else if z - 1.0 <= lo && z >= hi {
                n_m += 1.0;
                sum_m += z;
            } else {
                s[w] = z;
                w += 1;
            }
        }
        m = w;
    }
    if n_m == 0.0 {
        // s is flat at k on the interval (only reachable through rounding): any point works
        return if hi.is_finite() { hi } else { lo };
    }
    let tau = ((n_u + sum_m - k) / n_m).max(lo).min(hi);
    // One refinement step: the terms z − τ of the middle set are small, so their sum is far
    // more accurate than sum_m (a sum of n values of size max y).
    let mut resid = n_u - k;
    for &z in y {
        let d = z - tau;
        if d > 0.0 && d < 1.0 {
            resid += d;
        }
    }
    (tau + resid / n_m).max(lo).min(hi)
}

/// Projects `y` onto the capped simplex `{x ∈ [0, 1]^n : Σ x ≤ k}`.
///
/// Allocating wrapper of [`project_capped_simplex_into`].
///
/// # Arguments
/// * `y` – the point to project (finite values).
/// * `k` – the budget, `≥ 0` (fractional values and `+inf` are allowed).
///
/// # Returns
/// `clip(y − τ, 0, 1)` with the smallest `τ ≥ 0` that meets the budget.
///
/// # Errors
/// [`ProjError::InvalidBudget`] for a negative or NaN `k`, [`ProjError::NonFinite`].
///
/// # Complexity
/// Expected O(n) time.
///
/// # Example
/// The worked example of the specification (`τ = 0.2`):
/// ```
/// let x = graphsparse_proj::project_capped_simplex(&[1.4, 0.9, 0.5, 0.2, -0.3], 2.0).unwrap();
/// let want = [1.0, 0.7, 0.3, 0.0, 0.0];
/// assert!(x.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15));
/// ```
pub fn project_capped_simplex(y: &[f64], k: f64) -> Result<Vec<f64>> {
    let mut out = vec![0.0; y.len()];
    project_capped_simplex_into(y, k, &mut out)?;
    Ok(out)
}

/// Projects `y` onto the capped simplex `{x ∈ [0, 1]^n : Σ x ≤ k}`, writing into `out`.
///
/// One pass validates `y` and sums `clip(y, 0, 1)`; if that meets the budget the clip is the
/// answer. Otherwise the shift `τ > 0` solving `Σ clip(y − τ, 0, 1) = k` is found by randomised
/// pivoting on the breakpoints `{y_i, y_i − 1}` (see the module docs) and closed exactly by the
/// linear formula on the final interval.
///
/// # Arguments
/// * `y` – the point to project (finite values).
/// * `k` – the budget, `≥ 0`.
/// * `out` – output buffer of the same length (also the working memory).
///
/// # Returns
/// `Ok(())` with the projection in `out`.
///
/// # Errors
/// [`ProjError::InvalidBudget`], [`ProjError::LengthMismatch`], [`ProjError::NonFinite`].
///
/// # Complexity
/// Expected O(n) time (a deterministic pseudo-random pivot sequence), no allocation.
///
/// # Example
/// ```
/// let mut out = [0.0; 3];
/// graphsparse_proj::project_capped_simplex_into(&[2.0, 0.5, -1.0], 5.0, &mut out).unwrap();
/// assert_eq!(out, [1.0, 0.5, 0.0]); // budget not binding: a plain clip
/// ```
pub fn project_capped_simplex_into(y: &[f64], k: f64, out: &mut [f64]) -> Result<()> {
    if k.is_nan() || k < 0.0 {
        return Err(ProjError::InvalidBudget(k));
    }
    check_len("out", y.len(), out.len())?;
    let mut total = 0.0;
    for (c, chunk) in y.chunks(CHUNK).enumerate() {
        if !all_finite(chunk) {
            return Err(first_non_finite(chunk, "y", c * CHUNK));
        }
        total += sum_clip(chunk);
    }
    if total <= k {
        for (o, &z) in out.iter_mut().zip(y) {
            *o = clip01(z);
        }
        return Ok(());
    }
    if k == 0.0 {
        out.fill(0.0);
        return Ok(());
    }
    let tau = capped_tau(y, k, out);
    for (o, &z) in out.iter_mut().zip(y) {
        *o = clip01(z - tau);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_and_tau() {
        let y = [1.4, 0.9, 0.5, 0.2, -0.3];
        let mut s = [0.0; 5];
        let tau = capped_tau(&y, 2.0, &mut s);
        assert!((tau - 0.2).abs() < 1e-15, "{tau}");
        let x = project_capped_simplex(&y, 2.0).unwrap();
        for (a, b) in x.iter().zip([1.0, 0.7, 0.3, 0.0, 0.0]) {
            assert!((a - b).abs() < 1e-15);
        }
    }

    #[test]
    fn budget_edge_cases() {
        let y = [0.5, 0.5, 2.0];
        assert_eq!(project_capped_simplex(&y, 0.0).unwrap(), vec![0.0; 3]);
        assert_eq!(
            project_capped_simplex(&y, f64::INFINITY).unwrap(),
            vec![0.5, 0.5, 1.0]
        );
        assert_eq!(
            project_capped_simplex(&y, 3.0).unwrap(),
            vec![0.5, 0.5, 1.0]
        );
        // ties: k = 1 with three equal entries gives 1/3 each
        let x = project_capped_simplex(&[0.9, 0.9, 0.9], 1.0).unwrap();
        assert!(x.iter().all(|&t| (t - 1.0 / 3.0).abs() < 1e-15));
        // a fractional budget between the plateaus
        let x = project_capped_simplex(&[5.0, 5.0, 0.1], 1.5).unwrap();
        assert!((x[0] - 0.75).abs() < 1e-15 && (x[1] - 0.75).abs() < 1e-15 && x[2] == 0.0);
        assert_eq!(project_capped_simplex(&[], 1.0).unwrap(), Vec::<f64>::new());
    }

    #[test]
    fn errors() {
        assert_eq!(
            project_capped_simplex(&[1.0], -1.0),
            Err(ProjError::InvalidBudget(-1.0))
        );
        assert!(matches!(
            project_capped_simplex(&[1.0], f64::NAN),
            Err(ProjError::InvalidBudget(_))
        ));
        assert!(matches!(
            project_capped_simplex(&[1.0, f64::NAN], 1.0),
            Err(ProjError::NonFinite {
                arg: "y",
                index: 1,
                ..
            })
        ));
        let mut out = [0.0; 1];
        assert!(matches!(
            project_capped_simplex_into(&[1.0, 2.0], 1.0, &mut out),
            Err(ProjError::LengthMismatch { .. })
        ));
    }
}
