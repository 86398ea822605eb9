//! Projection onto the weighted (transformed) simplex `{x : Σ ε_i x_i = 1, ε_i x_i ≥ 0}`.
//!
//! Notation of Garg & Jaakkola (NeurIPS 2019, Algorithm 1): `P = {i : ε_i > 0}`, keys
//! `u_i = y_i / ε_i`; for an active set `B`, `S_B = Σ_B ε_i y_i`, `Q_B = Σ_B ε_i²` and
//! `θ_B = (1 − S_B) / Q_B`. The projection is `x_i = max(y_i + θ ε_i, 0)` on `P` and `x_i = y_i`
//! off `P`, where `θ = θ_B` for the active set `B = {i ∈ P : y_i + θ ε_i > 0}`.
//!
//! For *any* non-empty `B ⊆ P`, `θ_B ≥ θ` (the map `h(θ) = Σ_P ε_i max(y_i + θ ε_i, 0)` is
//! non-decreasing and `h(θ_B) ≥ 1`). So every coordinate with `y_i + θ_B ε_i ≤ 0` is inactive,
//! which is what the linear-time variant exploits: it is Condat's simplex algorithm with weights
//! `ε_i²`, running sums `S, Q` and keys never formed explicitly (`u_i > −θ ⇔ y_i + θ ε_i > 0`, so
//! a tiny `ε_i` whose key overflows to ±inf is harmless).

use crate::error::{ProjError, Result};
use graphsparse_base::{check_finite, check_len};

use crate::util::{all_finite, dec, enc, rejoin, retain_front};

/// Inputs up to this length use the sort-based Algorithm 1; longer ones the linear variant
/// (the crossover measured by the `weighted_crossover` criterion group lies between 8 and 16).
pub const WEIGHTED_SORT_MAX_LEN: usize = 12;

/// Validates `y` and `eps` and the output length.
fn validate(y: &[f64], eps: &[f64], out_len: usize) -> Result<()> {
    check_len("eps", eps.len(), y.len())?;
    check_len("out", out_len, y.len())?;
    check_finite("y", y)?;
    check_weights(eps)
}

/// Errors unless every weight is finite and `≥ 0` and at least one is positive.
pub(crate) fn check_weights(eps: &[f64]) -> Result<()> {
    let mut any_pos = false;
    for (c, chunk) in eps.chunks(crate::util::CHUNK).enumerate() {
        let ok = all_finite(chunk) && chunk.iter().fold(true, |ok, &e| ok & (e >= 0.0));
        if !ok {
            let j = chunk.iter().position(|e| !(e.is_finite() && *e >= 0.0));
            let j = j.expect("invariant: a bad weight");
            let index = c * crate::util::CHUNK + j;
            return Err(ProjError::InvalidWeight {
                index,
                value: chunk[j],
            });
        }
        any_pos |= chunk.iter().fold(false, |a, &e| a | (e > 0.0));
    }
    if any_pos {
        Ok(())
    } else {
        Err(ProjError::ZeroWeights)
    }
}

/// `θ_B = (1 − S_B)/Q_B` over the indices stored in `idx`, refined once.
///
/// The plain formula loses accuracy when `S_B` is large and `x = y + θ ε` small; one step
/// of iterative refinement (`θ += (1 − Σ_B ε_i (y_i + θ ε_i)) / Q_B`, whose terms are the
/// small `ε_i x_i`) brings the constraint residual down to a few ulps.
fn theta_of(y: &[f64], eps: &[f64], idx: &[f64]) -> f64 {
    let (mut s, mut q) = (0.0, 0.0);
    for &c in idx {
        let i = dec(c);
        s += eps[i] * y[i];
        q += eps[i] * eps[i];
    }
    refine_theta(y, eps, idx, (1.0 - s) / q, q)
}

/// One refinement step of `θ` on the active set `idx` with `Q_B = q`.
fn refine_theta(y: &[f64], eps: &[f64], idx: &[f64], theta: f64, q: f64) -> f64 {
    if !(theta.is_finite() && q > 0.0) {
        return theta;
    }
    let mut r = 1.0;
    for &c in idx {
        let i = dec(c);
        r -= eps[i] * (y[i] + theta * eps[i]);
    }
    theta + r / q
}

/// Algorithm 1 on the candidate indices `idx` (encoded): sort by key, scan prefixes.
fn sorted_theta(y: &[f64], eps: &[f64], idx: &mut [f64]) -> f64 {
    let key = |c: f64| {
        let i = dec(c);
        y[i] / eps[i]
    };
    idx.sort_unstable_by(|&a, &b| key(b).total_cmp(&key(a)));
    let (mut s, mut q) = (0.0, 0.0);
    let (mut theta, mut q_star, mut j_star) = (f64::NAN, 0.0, 0);
    for (j, &c) in idx.iter().enumerate() {
        let i = dec(c);
        let (yi, ei) = (y[i], eps[i]);
        s += ei * yi;
        q += ei * ei;
        let th = (1.0 - s) / q;
        // b_1 > 0 holds in exact arithmetic; keep θ_1 even if rounding says otherwise
        if j == 0 || yi + ei * th > 0.0 {
            (theta, q_star, j_star) = (th, q, j + 1);
        }
    }
    refine_theta(y, eps, &idx[..j_star], theta, q_star)
}

/// Condat-style threshold search with weights (see the module docs). `s` is index scratch.
pub(crate) fn linear_theta(y: &[f64], eps: &[f64], s: &mut [f64], max_passes: usize) -> f64 {
    // ṽ = s[..t], v = s[t..e]
    let (mut t, mut e) = (0usize, 0usize);
    let (mut sy, mut q) = (0.0, 0.0);
    let mut theta = f64::INFINITY;
    for (i, (&yi, &ei)) in y.iter().zip(eps).enumerate() {
        if ei > 0.0 && yi + ei * theta > 0.0 {
            let (ey, ee) = (ei * yi, ei * ei);
            let single = (1.0 - ey) / ee;
            if e == t {
                (sy, q, theta) = (ey, ee, single);
            } else {
                let (sy2, q2) = (sy + ey, q + ee);
                let th = (1.0 - sy2) / q2;
                if single <= th {
                    t = e; // the singleton bound is at least as tight: v joins ṽ
                    (sy, q, theta) = (ey, ee, single);
                } else {
                    (sy, q, theta) = (sy2, q2, th);
                }
            }
            s[e] = enc(i);
            e += 1;
        }
    }
    if t > 0 {
        e = rejoin(s, t, e, |sj| {
            let i = dec(sj);
            let joins = y[i] + eps[i] * theta > 0.0;
            if joins {
                sy += eps[i] * y[i];
                q += eps[i] * eps[i];
                theta = (1.0 - sy) / q;
            }
            joins
        });
    }
    // Filtering passes (Michelot style, fresh sums each pass: no cancellation from removals).
    let mut len = e;
    let mut passes = 0;
    loop {
        let w = retain_front(s, len, |sj| {
            let i = dec(sj);
            y[i] + eps[i] * theta > 0.0
        });
        if w == len || w == 0 {
            break;
        }
        len = w;
        passes += 1;
        if passes >= max_passes {
            return sorted_theta(y, eps, &mut s[..len]);
        }
        theta = theta_of(y, eps, &s[..len]);
    }
    theta_of(y, eps, &s[..len])
}

/// Writes `x_i = max(y_i + θ ε_i, 0)` where `ε_i > 0` and `x_i = y_i` elsewhere.
fn write(y: &[f64], eps: &[f64], theta: f64, out: &mut [f64]) {
    for ((o, &yi), &ei) in out.iter_mut().zip(y).zip(eps) {
        let x = (yi + theta * ei).max(0.0);
        *o = if ei > 0.0 { x } else { yi };
    }
}

/// Projects `y` onto the weighted simplex `{x : Σ ε_i x_i = 1, ε_i x_i ≥ 0}`.
///
/// Allocating wrapper of [`project_weighted_simplex_into`].
///
/// # Arguments
/// * `y` – the point to project (finite values).
/// * `eps` – the weights, finite and `≥ 0`, not all zero; same length as `y`.
///
/// # Returns
/// `x` with `x_i = max(y_i + θ ε_i, 0)` where `ε_i > 0` and `x_i = y_i` where `ε_i = 0`.
///
/// # Errors
/// [`ProjError::Input`], [`ProjError::Input`], [`ProjError::InvalidWeight`],
/// [`ProjError::ZeroWeights`].
///
/// # Complexity
/// O(d log d) for `d ≤ WEIGHTED_SORT_MAX_LEN`, expected O(d) above.
///
/// # Example
/// The worked example of the specification (`θ = −0.4/1.0625`):
/// ```
/// let y = [0.9, -0.3, 0.4, 2.0, 0.1];
/// let eps = [1.0, 0.5, 0.0, 0.25, 0.8];
/// let x = graphsparse_proj::project_weighted_simplex(&y, &eps).unwrap();
/// let want = [0.523529411765, 0.0, 0.4, 1.905882352941, 0.0];
/// assert!(x.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12));
/// ```
pub fn project_weighted_simplex(y: &[f64], eps: &[f64]) -> Result<Vec<f64>> {
    let mut out = vec![0.0; y.len()];
    project_weighted_simplex_into(y, eps, &mut out)?;
    Ok(out)
}

/// Projects `y` onto the weighted simplex, writing into `out`; picks the algorithm by length.
///
/// Uses [`project_weighted_simplex_sort_into`] for `d ≤ WEIGHTED_SORT_MAX_LEN` and
/// [`project_weighted_simplex_linear_into`] above; both are exact up to rounding.
///
/// # Arguments
/// * `y` – the point to project (finite values).
/// * `eps` – the weights, finite and `≥ 0`, not all zero.
/// * `out` – output buffer of the same length.
///
/// # Returns
/// `Ok(())` with the projection in `out` (coordinates with `ε_i = 0` are copied unchanged).
///
/// # Errors
/// As [`project_weighted_simplex`]; `out` is unspecified after an error.
///
/// # Complexity
/// O(d log d) for short inputs, expected O(d) for long ones; no allocation.
///
/// # Example
/// ```
/// let mut out = [0.0; 3];
/// // eps = 1 is the ordinary simplex
/// graphsparse_proj::project_weighted_simplex_into(&[0.5, 0.5, 3.0], &[1.0; 3], &mut out).unwrap();
/// assert_eq!(out, [0.0, 0.0, 1.0]);
/// ```
pub fn project_weighted_simplex_into(y: &[f64], eps: &[f64], out: &mut [f64]) -> Result<()> {
    if y.len() <= WEIGHTED_SORT_MAX_LEN {
        project_weighted_simplex_sort_into(y, eps, out)
    } else {
        project_weighted_simplex_linear_into(y, eps, out)
    }
}

/// Weighted-simplex projection by Garg & Jaakkola's Algorithm 1 (sort by `y_i/ε_i`).
///
/// Meant for short inputs (and as a cross-check): the sort compares keys recomputed from
/// indices, which is cheap in cache but slow for long vectors, where
/// [`project_weighted_simplex_linear_into`] is much faster.
///
/// Sorts the indices with `ε_i > 0` by non-increasing key `y_i/ε_i` (the sort works on
/// indices stored in `out`, so nothing is allocated), accumulates `S_j = Σ ε y` and
/// `Q_j = Σ ε²` along that order and takes `θ = θ_{j*}` for the last prefix `j*` whose
/// `b_j = ŷ_j + ê_j θ_j` is positive.
///
/// # Arguments
/// * `y`, `eps`, `out` – as in [`project_weighted_simplex_into`].
///
/// # Returns
/// `Ok(())` with the projection in `out`.
///
/// # Errors
/// As [`project_weighted_simplex`].
///
/// # Complexity
/// O(d log d) time, no allocation.
///
/// # Example
/// ```
/// let mut out = [0.0; 2];
/// graphsparse_proj::project_weighted_simplex_sort_into(&[0.0, 0.0], &[1.0, 0.5], &mut out).unwrap();
/// // θ = 1 / (1 + 0.25) and x = θ ε
/// assert!((out[0] - 0.8).abs() < 1e-15 && (out[1] - 0.4).abs() < 1e-15);
/// ```
pub fn project_weighted_simplex_sort_into(y: &[f64], eps: &[f64], out: &mut [f64]) -> Result<()> {
    validate(y, eps, out.len())?;
    let mut p = 0;
    for (i, &e) in eps.iter().enumerate() {
        if e > 0.0 {
            out[p] = enc(i);
            p += 1;
        }
    }
    let theta = sorted_theta(y, eps, &mut out[..p]);
    write(y, eps, theta, out);
    Ok(())
}

/// Weighted-simplex projection in expected linear time (Condat's algorithm with weights).
///
/// One pass keeps a candidate set `B` whose bound `θ_B ≥ θ` only tightens (restarting from a
/// singleton when that bound is tighter, as Condat does), a second pass re-admits coordinates
/// put aside, and filtering passes with freshly summed `S, Q` drop the coordinates with
/// `y_i + θ_B ε_i ≤ 0` until none is dropped; then `θ = θ_B`. After 32 passes the remaining
/// candidates are sorted instead (worst case O(d log d)).
///
/// # Arguments
/// * `y`, `eps`, `out` – as in [`project_weighted_simplex_into`].
///
/// # Returns
/// `Ok(())` with the projection in `out`.
///
/// # Errors
/// As [`project_weighted_simplex`].
///
/// # Complexity
/// Expected O(d) time, no allocation.
///
/// # Example
/// ```
/// let y = [0.9, -0.3, 0.4, 2.0, 0.1];
/// let eps = [1.0, 0.5, 0.0, 0.25, 0.8];
/// let mut out = [0.0; 5];
/// graphsparse_proj::project_weighted_simplex_linear_into(&y, &eps, &mut out).unwrap();
/// let dot: f64 = out.iter().zip(eps).map(|(x, e)| x * e).sum();
/// assert!((dot - 1.0).abs() < 1e-14 && out[2] == 0.4);
/// ```
pub fn project_weighted_simplex_linear_into(y: &[f64], eps: &[f64], out: &mut [f64]) -> Result<()> {
    validate(y, eps, out.len())?;
    let theta = linear_theta(y, eps, out, crate::simplex::MAX_FILTER_PASSES);
    write(y, eps, theta, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphsparse_base::InputError;

    const Y: [f64; 5] = [0.9, -0.3, 0.4, 2.0, 0.1];
    const EPS: [f64; 5] = [1.0, 0.5, 0.0, 0.25, 0.8];

    fn both(y: &[f64], eps: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut a = vec![0.0; y.len()];
        let mut b = vec![0.0; y.len()];
        project_weighted_simplex_sort_into(y, eps, &mut a).unwrap();
        project_weighted_simplex_linear_into(y, eps, &mut b).unwrap();
        (a, b)
    }

    #[test]
    fn spec_worked_example() {
        let theta = -0.4 / 1.0625;
        let want = [0.9 + theta, 0.0, 0.4, 2.0 + 0.25 * theta, 0.0];
        let (a, b) = both(&Y, &EPS);
        for x in [a, b] {
            for (g, w) in x.iter().zip(want) {
                assert!((g - w).abs() < 1e-15, "{x:?}");
            }
            assert!((x[0] - 0.523529411765).abs() < 1e-12);
            assert!((x[3] - 1.905882352941).abs() < 1e-12);
        }
        // the b_j sequence of the example: (4, 0.5235, -0.1256, -0.3845) in the order (3, 0, 4, 1)
        let mut idx = [enc(0), enc(1), enc(3), enc(4)];
        let _ = sorted_theta(&Y, &EPS, &mut idx);
        assert_eq!(idx.map(dec), [3, 0, 4, 1]);
    }

    #[test]
    fn unit_weights_are_the_simplex() {
        let y: Vec<f64> = (0..100)
            .map(|i| ((i * 37) % 101) as f64 / 50.0 - 1.0)
            .collect();
        let ones = vec![1.0; y.len()];
        let want = crate::project_simplex(&y, 1.0).unwrap();
        let (a, b) = both(&y, &ones);
        for x in [a, b] {
            assert!(x.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-14));
        }
    }

    #[test]
    fn linear_fallback_agrees() {
        let y: Vec<f64> = (0..300)
            .map(|i| ((i * 7919) % 307) as f64 / 30.0 - 3.0)
            .collect();
        let eps: Vec<f64> = (0..300).map(|i| ((i * 31) % 11) as f64 / 10.0).collect();
        let mut a = vec![0.0; 300];
        let mut b = vec![0.0; 300];
        let ta = linear_theta(&y, &eps, &mut a, crate::simplex::MAX_FILTER_PASSES);
        let tb = linear_theta(&y, &eps, &mut b, 0);
        assert!((ta - tb).abs() < 1e-12 * (1.0 + ta.abs()), "{ta} {tb}");
    }

    #[test]
    fn tiny_weights_with_infinite_keys() {
        // y_0 / eps_0 overflows to +inf and eps_0^2 underflows to 0: coordinate 0 stays
        // active with x_0 = y_0 + θ eps_0 = 1, the others form a simplex: θ = 0.15.
        let y = [1.0, 0.5, 0.2];
        let eps = [1e-320, 1.0, 1.0];
        let (a, b) = both(&y, &eps);
        for x in [a, b] {
            assert_eq!(x[0], 1.0);
            assert!(
                (x[1] - 0.65).abs() < 1e-15 && (x[2] - 0.35).abs() < 1e-15,
                "{x:?}"
            );
        }
    }

    #[test]
    fn errors() {
        let mut out = [0.0; 2];
        assert_eq!(
            project_weighted_simplex(&[1.0, 2.0], &[0.0, 0.0]),
            Err(ProjError::ZeroWeights)
        );
        assert_eq!(
            project_weighted_simplex(&[1.0, 2.0], &[1.0, -0.5]),
            Err(ProjError::InvalidWeight {
                index: 1,
                value: -0.5
            })
        );
        assert!(matches!(
            project_weighted_simplex(&[1.0, 2.0], &[f64::NAN, 1.0]),
            Err(ProjError::InvalidWeight { index: 0, .. })
        ));
        assert!(matches!(
            project_weighted_simplex(&[1.0, f64::INFINITY], &[1.0, 1.0]),
            Err(ProjError::Input(InputError::NotFinite {
                arg: "y",
                index: 1,
                ..
            }))
        ));
        assert_eq!(
            project_weighted_simplex(&[1.0, 2.0], &[1.0]),
            Err(ProjError::Input(InputError::LengthMismatch {
                arg: "eps",
                got: 1,
                expected: 2,
            }))
        );
        assert_eq!(
            project_weighted_simplex_into(&[1.0], &[1.0], &mut out),
            Err(ProjError::Input(InputError::LengthMismatch {
                arg: "out",
                got: 2,
                expected: 1,
            }))
        );
        assert_eq!(
            project_weighted_simplex(&[], &[]),
            Err(ProjError::ZeroWeights)
        );
    }
}
