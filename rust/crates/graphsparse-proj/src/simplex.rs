//! Projections onto the simplex and the l1 ball (Condat 2016).
//!
//! Notation of Condat's paper: `v` is the current candidate set of active coordinates and
//! `ṽ` the set of coordinates put aside in the first pass; `ρ` is the threshold defined by `v`,
//! `ρ = (Σ_v y − z) / |v|`, which is a lower bound of the final threshold `τ` and only grows.
//! Both sets live in the caller's output buffer (`ṽ = s[..t]`, `v = s[t..e]`), so the
//! projection allocates nothing.

use crate::error::{ProjError, Result};
use graphsparse_base::{check_finite, check_len};

use crate::util::{CHUNK, all_finite, first_non_finite, rejoin, retain_front, sum_abs};

/// After this many filtering passes of Condat's step 4 the remaining candidates are sorted
/// instead, which bounds the worst case by O(n log n); in practice 1–4 passes suffice.
pub(crate) const MAX_FILTER_PASSES: usize = 32;

/// Values tested at once against `ρ` in the first pass (a few SIMD compares).
const BLOCK: usize = 16;

/// Threshold `τ` with `Σ max(y_i − τ, 0) = z` (with `|y_i|` when `ABS`), by Condat's algorithm.
///
/// Needs `y` non-empty, `z > 0` finite and `scratch.len() >= y.len()`. When `check` names the
/// argument, finiteness is checked chunk by chunk in the first pass (the chunk is in L1 by
/// then), so a separate validation pass over memory is not needed.
pub(crate) fn condat_tau<const ABS: bool>(
    y: &[f64],
    z: f64,
    scratch: &mut [f64],
    check: Option<&'static str>,
    max_passes: usize,
) -> Result<f64> {
    let get = |x: f64| if ABS { x.abs() } else { x };
    let n = y.len();
    let s = &mut scratch[..n];
    // Steps 1-2: one pass; ṽ = s[..t], v = s[t..e].
    let (mut t, mut e) = (0usize, 0usize);
    let mut rho = f64::NEG_INFINITY;
    for (c, chunk) in y.chunks(CHUNK).enumerate() {
        if let Some(arg) = check {
            if !all_finite(chunk) {
                return Err(first_non_finite(chunk, arg, c * CHUNK));
            }
        }
        for block in chunk.chunks(BLOCK) {
            // Most blocks hold nothing above ρ once ρ has grown: a vectorised test skips them.
            if !block.iter().fold(false, |hit, &raw| hit | (get(raw) > rho)) {
                continue;
            }
            for &raw in block {
                let yi = get(raw);
                if yi > rho {
                    // One store below serves both branches: with a second `s[e] = yi` in the
                    // first-element branch, LLVM tested a bound on every element of a block
                    // with a hit, not only on the admitted ones (callgrind, rustc 1.95).
                    if e == t {
                        // the very first element
                        rho = yi - z;
                    } else {
                        // the reciprocal does not depend on ρ, so the division leaves the
                        // loop-carried chain (sorted inputs admit nearly every element here)
                        let inv = 1.0 / (e - t + 1) as f64;
                        let r = rho + (yi - rho) * inv;
                        if r > yi - z {
                            rho = r;
                        } else {
                            t = e; // v joins ṽ; v restarts as {y_i}
                            rho = yi - z;
                        }
                    }
                    s[e] = yi;
                    e += 1;
                }
            }
        }
    }
    // Step 3: coordinates put aside that still beat ρ rejoin v.
    let mut cnt = e - t;
    if t > 0 {
        e = rejoin(s, t, e, |yi| {
            let joins = yi > rho;
            if joins {
                cnt += 1;
                rho += (yi - rho) / cnt as f64;
            }
            joins
        });
    }
    // Step 4: drop members of v that no longer beat ρ until none is dropped.
    let mut len = e;
    let mut passes = 0;
    loop {
        let w = retain_front(s, len, |yi| {
            let drop = yi <= rho && cnt > 1;
            if drop {
                cnt -= 1;
                rho += (rho - yi) / cnt as f64;
            }
            !drop
        });
        if w == len {
            break;
        }
        len = w;
        passes += 1;
        if passes >= max_passes {
            return Ok(sorted_tau(&mut s[..len], z));
        }
    }
    Ok(refine_tau(&s[..len], rho, z))
}

/// `τ = (Σ_v y − z)/|v|` evaluated around the running value `ρ` (one step of iterative
/// refinement: the residuals `y − ρ` are small, so the result is accurate and cannot overflow).
#[inline]
fn refine_tau(v: &[f64], rho: f64, z: f64) -> f64 {
    let resid: f64 = v.iter().map(|&y| y - rho).sum();
    rho + (resid - z) / v.len() as f64
}

/// Sort-based threshold on the candidates `v` (all other coordinates are known inactive).
fn sorted_tau(v: &mut [f64], z: f64) -> f64 {
    v.sort_unstable_by(|a, b| b.total_cmp(a));
    let m = v[0];
    let (mut acc, mut best) = (0.0, 1);
    for (j, &y) in v.iter().enumerate() {
        acc += y - m;
        // y > τ_j with τ_j = m + (acc − z)/(j+1)
        if y - m > (acc - z) / (j + 1) as f64 {
            best = j + 1;
        }
    }
    let resid: f64 = v[..best].iter().map(|&y| y - m).sum();
    m + (resid - z) / best as f64
}

fn check_total(z: f64) -> Result<()> {
    if z.is_finite() && z > 0.0 {
        Ok(())
    } else {
        Err(ProjError::InvalidTotal(z))
    }
}

/// Projects `v` onto the simplex `{x : x ≥ 0, Σ x = z}`.
///
/// Allocating wrapper of [`project_simplex_into`].
///
/// # Arguments
/// * `v` – the point to project (finite values).
/// * `z` – the simplex total, finite and `> 0`.
///
/// # Returns
/// The Euclidean projection `x = max(v − τ, 0)`.
///
/// # Errors
/// [`ProjError::InvalidTotal`], [`ProjError::Empty`] for an empty `v`,
/// [`ProjError::Input`] naming the first NaN/inf entry.
///
/// # Complexity
/// Expected O(n) time (Condat's algorithm), O(n) for the output.
///
/// # Example
/// ```
/// let x = graphsparse_proj::project_simplex(&[0.5, 1.5, -1.0], 1.0).unwrap();
/// assert_eq!(x, vec![0.0, 1.0, 0.0]);
/// ```
pub fn project_simplex(v: &[f64], z: f64) -> Result<Vec<f64>> {
    let mut out = vec![0.0; v.len()];
    project_simplex_into(v, z, &mut out)?;
    Ok(out)
}

/// Projects `v` onto the simplex `{x : x ≥ 0, Σ x = z}`, writing into `out`.
///
/// Implements Condat's algorithm [1]: one pass builds a candidate active set whose threshold
/// only grows, a second pass recovers coordinates put aside, and a few filtering passes remove
/// the rest; `out` serves as the working memory, so nothing is allocated. The threshold is
/// finally recomputed from the active set by one refinement step, so the result is exact up to
/// rounding (`Σ x = z` to a few ulps of `max |v|`).
///
/// # Arguments
/// * `v` – the point to project (finite values).
/// * `z` – the simplex total, finite and `> 0`.
/// * `out` – output buffer of the same length as `v`.
///
/// # Returns
/// `Ok(())`, with `out = max(v − τ, 0)`.
///
/// # Errors
/// [`ProjError::InvalidTotal`], [`ProjError::Input`], [`ProjError::Empty`],
/// [`ProjError::Input`]; `out` is unspecified after an error.
///
/// # Complexity
/// Expected O(n) time (worst case O(n log n): after 32 filtering passes the remaining
/// candidates are sorted), no allocation.
///
/// # Example
/// ```
/// let mut out = [0.0; 4];
/// graphsparse_proj::project_simplex_into(&[0.3, 0.9, -0.2, -2.0], 1.0, &mut out).unwrap();
/// let want = [0.2, 0.8, 0.0, 0.0];
/// assert!(out.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15));
/// ```
///
/// [1]: https://doi.org/10.1007/s10107-015-0946-6
pub fn project_simplex_into(v: &[f64], z: f64, out: &mut [f64]) -> Result<()> {
    check_total(z)?;
    check_len("out", out.len(), v.len())?;
    if v.is_empty() {
        return Err(ProjError::Empty);
    }
    let tau = condat_tau::<false>(v, z, out, Some("v"), MAX_FILTER_PASSES)?;
    for (o, &y) in out.iter_mut().zip(v) {
        *o = (y - tau).max(0.0);
    }
    Ok(())
}

/// Projects `v` onto the l1 ball `{x : ‖x‖₁ ≤ radius}`.
///
/// Allocating wrapper of [`project_l1_ball_into`].
///
/// # Arguments
/// * `v` – the point to project (finite values).
/// * `radius` – the ball radius, finite and `≥ 0`.
///
/// # Returns
/// `v` itself when `‖v‖₁ ≤ radius`, otherwise `sign(v) ⊙ P_simplex(|v|, radius)`.
///
/// # Errors
/// [`ProjError::InvalidRadius`], [`ProjError::Input`].
///
/// # Complexity
/// Expected O(n) time.
///
/// # Example
/// ```
/// let x = graphsparse_proj::project_l1_ball(&[2.0, -1.0, 0.25], 1.0).unwrap();
/// assert_eq!(x, vec![1.0, -0.0, 0.0]);
/// ```
pub fn project_l1_ball(v: &[f64], radius: f64) -> Result<Vec<f64>> {
    let mut out = vec![0.0; v.len()];
    project_l1_ball_into(v, radius, &mut out)?;
    Ok(out)
}

/// Projects `v` onto the l1 ball `{x : ‖x‖₁ ≤ radius}`, writing into `out`.
///
/// One pass computes `‖v‖₁` (and validates `v`); if `v` lies outside the ball, Condat's
/// simplex threshold of `|v|` gives `x = sign(v) ⊙ max(|v| − τ, 0)`. A zero radius gives zeros.
///
/// # Arguments
/// * `v` – the point to project (finite values).
/// * `radius` – the ball radius, finite and `≥ 0`.
/// * `out` – output buffer of the same length as `v`.
///
/// # Returns
/// `Ok(())`, with the projection in `out`.
///
/// # Errors
/// [`ProjError::InvalidRadius`], [`ProjError::Input`], [`ProjError::Input`].
///
/// # Complexity
/// Expected O(n) time, no allocation.
///
/// # Example
/// ```
/// let mut out = [0.0; 3];
/// graphsparse_proj::project_l1_ball_into(&[0.5, -0.25, 0.0], 2.0, &mut out).unwrap();
/// assert_eq!(out, [0.5, -0.25, 0.0]); // already inside
/// ```
pub fn project_l1_ball_into(v: &[f64], radius: f64, out: &mut [f64]) -> Result<()> {
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(ProjError::InvalidRadius(radius));
    }
    check_len("out", out.len(), v.len())?;
    let norm = sum_abs(v);
    if !norm.is_finite() {
        // NaN/inf somewhere, or a finite sum that overflowed (then v is far outside)
        check_finite("v", v)?;
    }
    if norm <= radius {
        out.copy_from_slice(v);
        return Ok(());
    }
    if radius == 0.0 {
        out.fill(0.0);
        return Ok(());
    }
    let tau = condat_tau::<true>(v, radius, out, None, MAX_FILTER_PASSES)?;
    for (o, &y) in out.iter_mut().zip(v) {
        *o = (y.abs() - tau).max(0.0).copysign(y);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphsparse_base::InputError;

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    #[test]
    fn simplex_small_examples() {
        assert_eq!(project_simplex(&[5.0], 2.0).unwrap(), vec![2.0]);
        assert_eq!(project_simplex(&[-5.0], 2.0).unwrap(), vec![2.0]);
        assert!(close(
            &project_simplex(&[1.0, 1.0, 1.0, 1.0], 2.0).unwrap(),
            &[0.5; 4],
            1e-15
        ));
        // Condat's running threshold with the first pass restarting v: ascending input
        let v: Vec<f64> = (0..100).map(f64::from).collect();
        let x = project_simplex(&v, 10.0).unwrap();
        // active set {95..99}: τ = (95+96+97+98+99 − 10)/5 = 95
        assert!(close(&x[95..], &[0.0, 1.0, 2.0, 3.0, 4.0], 1e-12));
        assert!(x[..95].iter().all(|&t| t == 0.0));
    }

    #[test]
    fn simplex_fallback_sort_agrees_with_filtering() {
        let v: Vec<f64> = (0..257)
            .map(|i| ((i * 7919) % 263) as f64 * 0.37 - 20.0)
            .collect();
        for z in [0.1, 1.0, 17.0, 1e4] {
            let mut a = vec![0.0; v.len()];
            let mut b = vec![0.0; v.len()];
            let ta = condat_tau::<false>(&v, z, &mut a, None, MAX_FILTER_PASSES).unwrap();
            let tb = condat_tau::<false>(&v, z, &mut b, None, 0).unwrap();
            assert!(
                (ta - tb).abs() <= 1e-12 * (1.0 + ta.abs()),
                "z={z}: {ta} vs {tb}"
            );
        }
    }

    #[test]
    fn simplex_errors() {
        let mut out = [0.0; 2];
        assert_eq!(
            project_simplex(&[1.0], 0.0),
            Err(ProjError::InvalidTotal(0.0))
        );
        assert!(matches!(
            project_simplex(&[1.0], f64::NAN),
            Err(ProjError::InvalidTotal(_))
        ));
        assert_eq!(project_simplex(&[], 1.0), Err(ProjError::Empty));
        assert_eq!(
            project_simplex_into(&[1.0], 1.0, &mut out),
            Err(ProjError::Input(InputError::LengthMismatch {
                arg: "out",
                got: 2,
                expected: 1,
            }))
        );
        let mut v = vec![0.5; 1500];
        v[1234] = f64::INFINITY;
        assert_eq!(
            project_simplex(&v, 1.0),
            Err(ProjError::Input(InputError::NotFinite {
                arg: "v",
                index: 1234,
                value: f64::INFINITY.to_bits()
            }))
        );
    }

    #[test]
    fn l1_ball_examples_and_errors() {
        assert_eq!(project_l1_ball(&[0.3, -0.3], 1.0).unwrap(), vec![0.3, -0.3]);
        assert_eq!(project_l1_ball(&[0.3, -0.3], 0.0).unwrap(), vec![0.0, 0.0]);
        assert!(close(
            &project_l1_ball(&[3.0, -1.0, 0.5], 2.0).unwrap(),
            &[2.0, 0.0, 0.0],
            1e-15
        ));
        assert!(close(
            &project_l1_ball(&[1.0, -1.0], 1.0).unwrap(),
            &[0.5, -0.5],
            1e-15
        ));
        assert_eq!(project_l1_ball(&[], 1.0).unwrap(), Vec::<f64>::new());
        assert_eq!(
            project_l1_ball(&[1.0], -1.0),
            Err(ProjError::InvalidRadius(-1.0))
        );
        assert!(matches!(
            project_l1_ball(&[1.0, f64::NAN], 1.0),
            Err(ProjError::Input(InputError::NotFinite {
                arg: "v",
                index: 1,
                ..
            }))
        ));
        // an l1 norm that overflows is outside every finite ball: the result is finite, in the
        // ball and sign-consistent (0.5 is below the resolution of f64::MAX, so it rounds)
        let x = project_l1_ball(&[f64::MAX, -f64::MAX], 1.0).unwrap();
        assert!(x.iter().all(|t| t.is_finite()) && x.iter().map(|t| t.abs()).sum::<f64>() <= 1.0);
        assert!(x[0] >= 0.0 && x[1] <= 0.0);
    }
}
