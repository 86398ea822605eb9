//! Projections onto the simplex and the l1 ball (Condat 2016).
//!
//! Notation of Condat's paper: `v` is the current candidate set of active coordinates and
//! `ṽ` the set of coordinates put aside in the first pass; `ρ` is the threshold defined by `v`,
//! `ρ = (Σ_v y − z) / |v|`, which is a lower bound of the final threshold `τ` and only grows.
//! Both sets live in the caller's output buffer as coordinate indices (`ṽ = s[..t]`,
//! `v = s[t..e]`, increasing), so the projection allocates nothing.
//!
//! Memory traffic: the first pass reads `y` once and, in the same sweep, writes the value
//! every coordinate below `ρ` will have in the result (a zero, signed like `y` for the l1
//! ball). The algorithm tracks the largest value of the coordinates it leaves out of the
//! candidates; when the final `τ` lies strictly above it, those zeros are the result and only
//! the candidates (and the slots that held the candidate list) are written again. The
//! projection thus costs one read and one write of `n` values, a copy pass, instead of a read
//! pass followed by a read-and-write pass. The output is bit for bit that of the plain
//! `max(y − τ, 0)` sweep (tested against it).

use crate::error::{ProjError, Result};
use graphsparse_base::{check_finite, check_len};

use crate::util::{CHUNK, all_finite, dec, enc, first_non_finite, rejoin, retain_front, sum_abs};

/// After this many filtering passes of Condat's step 4 the remaining candidates are sorted
/// instead, which bounds the worst case by O(n log n); in practice 1–4 passes suffice.
pub(crate) const MAX_FILTER_PASSES: usize = 32;

/// Length from which the first pass also writes the result's zeros. Shorter vectors (the rows
/// of a batch, mostly) sit in cache, where a second sweep costs little and the fused pass's
/// extra work (the block maxima, the fill) costs more than it saves.
const FUSED_MIN_LEN: usize = 1 << 16;

/// Values tested at once against `ρ` in the first pass (a few SIMD compares).
const BLOCK: usize = 16;

/// What the first pass writes into the output slot of each coordinate it reads.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    /// Nothing, and the result is written by a full sweep afterwards (short vectors, in
    /// cache, where the sweep is cheap and the fused pass's extra work is not).
    Plain,
    /// Nothing: the buffer already holds zeros (a fresh `calloc`'d array).
    Nothing,
    /// `+0.0` (the simplex).
    Zero,
    /// `0.0` with the sign of `y_i`, once the l1 norm of the prefix read so far exceeds `z`
    /// (before that the point may lie in the ball, where the result is `y` itself).
    SignedZeroOutside,
}

/// The outcome of Condat's algorithm.
pub(crate) struct Threshold {
    /// The threshold `τ`.
    pub tau: f64,
    /// `Some(len)`: `s[..len]` holds the increasing indices of the final candidates, every
    /// other coordinate has `y_i < τ` (so its result is the fill value), and `s[w..]` already
    /// holds the fill value of every coordinate that is not a candidate. `None`: neither is
    /// known (the sort fallback ran, or a coordinate left out is not below `τ`).
    pub support: Option<usize>,
    /// Start of the filled tail of `s` (see `support`).
    pub w: usize,
    /// With [`Fill::SignedZeroOutside`]: `Σ |y_i|` summed as [`sum_abs`] does, or `None`
    /// when a prefix alone is outside the ball (then every value has been checked finite).
    pub norm: Option<f64>,
}

/// Threshold `τ` with `Σ max(y_i − τ, 0) = z` (with `|y_i|` when `ABS`), by Condat's algorithm.
/// With `SHIFT`, of the values `y_i − offset` (`|y_i| − offset`) instead: see [`SHIFT_RATIO`].
///
/// Needs `y` non-empty, `z > 0` finite and `scratch.len() >= y.len()`. When `check` names the
/// argument, finiteness is checked chunk by chunk in the first pass (the chunk is in L1 by
/// then), so a separate validation pass over memory is not needed. `fill` says what the first
/// pass writes (see [`Fill`] and [`Threshold`]).
// `!(a > b)`, not `a <= b`: a NaN (refused after the pass) must take the "not above" side
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub(crate) fn condat_tau<const ABS: bool, const SHIFT: bool>(
    y: &[f64],
    z: f64,
    scratch: &mut [f64],
    check: Option<&'static str>,
    max_passes: usize,
    fill: Fill,
    offset: f64,
) -> Result<Threshold> {
    let get = |x: f64| {
        let a = if ABS { x.abs() } else { x };
        if SHIFT { a - offset } else { a }
    };
    let n = y.len();
    let s = &mut scratch[..n];
    // Steps 1-2: one pass; ṽ = s[..t], v = s[t..e].
    let (mut t, mut e) = (0usize, 0usize);
    let mut rho = f64::NEG_INFINITY;
    // the largest value of a coordinate that left (or never joined) the candidates
    let mut out_max = f64::NEG_INFINITY;
    // the eight partial sums of `sum_abs`, in its order (blocks start at multiples of 8)
    let mut acc = [0.0_f64; 8];
    // first coordinate from which the fill value is written
    // (l1) the values read so far alone lie outside the ball
    let mut outside = false;
    let mut w = match fill {
        Fill::Zero | Fill::Nothing => 0,
        Fill::SignedZeroOutside | Fill::Plain => n,
    };
    for (c, chunk) in y.chunks(CHUNK).enumerate() {
        if let Some(arg) = check {
            if !all_finite(chunk) {
                return Err(first_non_finite(chunk, arg, c * CHUNK));
            }
        }
        let base = c * CHUNK;
        if fill == Fill::SignedZeroOutside && !outside {
            let partial =
                ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
            // partial sums of non-negative terms only grow, also when rounded
            if partial > z {
                outside = true;
                w = base;
                if !partial.is_finite() {
                    // an inf read so far, or a sum of finite values that overflowed
                    check_finite("v", &y[..base])?;
                }
            }
        }
        if ABS && fill == Fill::SignedZeroOutside {
            if outside {
                // the norm no longer matters, only that the values are finite
                if !all_finite(chunk) {
                    return Err(first_non_finite(chunk, "v", base));
                }
            } else {
                // chunks start at multiples of 8, so these are `sum_abs`'s groups of eight
                for g in chunk.chunks_exact(8) {
                    for (a, x) in acc.iter_mut().zip(g) {
                        *a += x.abs();
                    }
                }
            }
        }
        // e ≤ base: the candidate list lies below this chunk, and stays below each coordinate
        let dst = &mut s[base..base + chunk.len()];
        match fill {
            Fill::Zero => dst.fill(0.0),
            Fill::SignedZeroOutside if w <= base => {
                for (o, &x) in dst.iter_mut().zip(chunk) {
                    *o = 0.0_f64.copysign(x);
                }
            }
            _ => {}
        }
        for (b, block) in chunk.chunks(BLOCK).enumerate() {
            let at = base + b * BLOCK;
            // Most blocks hold nothing above ρ once ρ has grown: a vectorised maximum skips
            // them (and bounds the coordinates left out).
            if fill == Fill::Plain {
                // the cheaper test: no bound on the coordinates left out is needed
                if !block.iter().fold(false, |hit, &raw| hit | (get(raw) > rho)) {
                    continue;
                }
            } else {
                let top = block_max(block, get);
                if !(top > rho) {
                    out_max = if top > out_max { top } else { out_max };
                    continue;
                }
            }
            for (j, &raw) in block.iter().enumerate() {
                let yi = get(raw);
                if !(yi > rho) {
                    out_max = if yi > out_max { yi } else { out_max };
                } else {
                    // One store below serves both branches: with a second store in the
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
                    // e ≤ at + j: the candidate list never overtakes the sweep
                    s[e] = enc(at + j);
                    e += 1;
                }
            }
        }
    }
    let norm = (ABS && fill == Fill::SignedZeroOutside && !outside).then(|| {
        let mut sum =
            ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
        for x in &y[n - n % 8..] {
            sum += x.abs();
        }
        sum
    });
    // the slots of the candidate list are rewritten at the end
    let w = w.max(e);
    let val = |k: f64| get(y[dec(k)]);
    // Step 3: coordinates put aside that still beat ρ rejoin v.
    let mut cnt = e - t;
    if t > 0 {
        e = rejoin(s, t, e, |k| {
            let yi = val(k);
            let joins = yi > rho;
            if joins {
                cnt += 1;
                rho += (yi - rho) / cnt as f64;
            } else if yi > out_max {
                out_max = yi;
            }
            joins
        });
    }
    // Step 4: drop members of v that no longer beat ρ until none is dropped.
    let mut len = e;
    let mut passes = 0;
    loop {
        let kept = retain_front(s, len, |k| {
            let yi = val(k);
            let drop = yi <= rho && cnt > 1;
            if drop {
                cnt -= 1;
                rho += (rho - yi) / cnt as f64;
                if yi > out_max {
                    out_max = yi;
                }
            }
            !drop
        });
        if kept == len {
            break;
        }
        len = kept;
        passes += 1;
        if passes >= max_passes {
            for k in &mut s[..len] {
                *k = val(*k);
            }
            let tau = sorted_tau(&mut s[..len], z);
            return Ok(Threshold {
                tau,
                support: None,
                w,
                norm,
            });
        }
    }
    let resid: f64 = s[..len].iter().map(|&k| val(k) - rho).sum();
    // `τ = (Σ_v y − z)/|v|` evaluated around the running value `ρ` (one step of iterative
    // refinement: the residuals `y − ρ` are small, so the result is accurate and cannot
    // overflow).
    let tau = rho + (resid - z) / len as f64;
    // τ ≈ ρ up to rounding, but the coordinates left out usually lie well below it
    let support = (fill != Fill::Plain && out_max < tau).then_some(len);
    Ok(Threshold {
        tau,
        support,
        w,
        norm,
    })
}

/// Largest `get(x)` over a block (NaN ignored), in eight independent lanes so that it
/// vectorises (a plain fold is a serial chain of scalar maxima).
#[inline(always)]
fn block_max(block: &[f64], get: impl Fn(f64) -> f64) -> f64 {
    let max = |a: f64, b: f64| if b > a { b } else { a };
    let mut lanes = [f64::NEG_INFINITY; 8];
    let groups = block.chunks_exact(8);
    let rest = groups.remainder();
    for g in groups {
        for (m, &x) in lanes.iter_mut().zip(g) {
            *m = max(*m, get(x));
        }
    }
    let mut top = max(
        max(max(lanes[0], lanes[4]), max(lanes[1], lanes[5])),
        max(max(lanes[2], lanes[6]), max(lanes[3], lanes[7])),
    );
    for &x in rest {
        top = max(top, get(x));
    }
    top
}

/// Writes `out_i = f(y_i)` for every coordinate, given Condat's [`Threshold`] computed in
/// `out`: only the candidates and `out[..w]` when the support is known, else everything.
fn write_result(y: &[f64], out: &mut [f64], th: &Threshold, f: impl Fn(f64) -> f64) {
    match th.support {
        Some(len) => {
            // candidates beyond `w` first: their indices sit in out[..len], len ≤ w
            for k in 0..len {
                let i = dec(out[k]);
                if i >= th.w {
                    out[i] = f(y[i]);
                }
            }
            for (o, &x) in out[..th.w].iter_mut().zip(y) {
                *o = f(x);
            }
        }
        None => {
            for (o, &x) in out.iter_mut().zip(y) {
                *o = f(x);
            }
        }
    }
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
    // `vec![0.0; n]` is zeroed memory from the allocator (untouched pages of a large one stay
    // unmapped), so only the support and the candidate list are written
    let mut out = vec![0.0; v.len()];
    project_simplex_zeroed_into(v, z, &mut out)?;
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
    let fill = if v.len() < FUSED_MIN_LEN {
        Fill::Plain
    } else {
        Fill::Zero
    };
    simplex_into(v, z, out, fill)
}

/// [`project_simplex_into`] for an `out` that holds zeros on entry.
///
/// Writes only the coordinates of the result that are not zero and the first slots of `out`
/// (the candidate list of Condat's algorithm, usually a few entries), so the untouched pages of
/// a freshly `calloc`'d buffer (`vec![0.0; n]`, `numpy.zeros`) stay unmapped until they are
/// read. With any other `out` the result is wrong (but nothing unsafe happens).
///
/// # Arguments
/// * `v` – the point to project (finite values).
/// * `z` – the simplex total, finite and `> 0`.
/// * `out` – output buffer of the same length as `v`, all `0.0` (or `-0.0`).
///
/// # Returns
/// `Ok(())`, with `out = max(v − τ, 0)` exactly as [`project_simplex_into`] writes it.
///
/// # Errors
/// As [`project_simplex_into`].
///
/// # Complexity
/// Expected O(n) time, one read pass over `v`, no allocation.
///
/// # Example
/// ```
/// let mut out = vec![0.0; 3];
/// graphsparse_proj::project_simplex_zeroed_into(&[0.5, 1.5, -1.0], 1.0, &mut out).unwrap();
/// assert_eq!(out, [0.0, 1.0, 0.0]);
/// ```
pub fn project_simplex_zeroed_into(v: &[f64], z: f64, out: &mut [f64]) -> Result<()> {
    simplex_into(v, z, out, Fill::Nothing)
}

fn simplex_into(v: &[f64], z: f64, out: &mut [f64], fill: Fill) -> Result<()> {
    check_total(z)?;
    check_len("out", out.len(), v.len())?;
    if v.is_empty() {
        return Err(ProjError::Empty);
    }
    let th = condat_tau::<false, false>(v, z, out, Some("v"), MAX_FILTER_PASSES, fill, 0.0)?;
    let tau = th.tau;
    if tau.abs() > z * SHIFT_RATIO {
        let m = v.iter().fold(f64::NEG_INFINITY, |a, &x| a.max(x));
        let th = condat_tau::<false, true>(v, z, out, None, MAX_FILTER_PASSES, Fill::Plain, m)?;
        let d = th.tau;
        for (o, &x) in out.iter_mut().zip(v) {
            *o = ((x - m) - d).max(0.0);
        }
        return Ok(());
    }
    write_result(v, out, &th, |y| (y - tau).max(0.0));
    Ok(())
}

/// From `|τ| > SHIFT_RATIO · z` on, `y_i − τ` would lose 16 or more of the result's bits to
/// cancellation (the results are at most `z`, while `y_i` and `τ` carry ulps of `|τ|·ε`; at
/// `y = (2.5e299, …)` and `z = 1` every bit). The threshold is then recomputed on `y − m`,
/// `m = max y` (a second pass, no allocation): the projection onto the simplex does not change
/// when a constant is added to `y`, since `Σ x = z` is fixed, and `τ − m` lies in `[−z, 0]`.
/// For the l1 ball the same holds for `|y|` once `y` is outside the ball.
const SHIFT_RATIO: f64 = 65536.0;

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
    l1_ball_into(v, radius, out, v.len() >= FUSED_MIN_LEN)
}

/// [`project_l1_ball_into`], with the fused first pass or the plain passes (`sum_abs`, Condat's
/// first pass, a full sweep).
fn l1_ball_into(v: &[f64], radius: f64, out: &mut [f64], fused: bool) -> Result<()> {
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(ProjError::InvalidRadius(radius));
    }
    check_len("out", out.len(), v.len())?;
    if !fused || radius == 0.0 || v.is_empty() {
        let norm = sum_abs(v);
        if !norm.is_finite() {
            // NaN/inf somewhere, or a finite sum that overflowed (then v is far outside)
            check_finite("v", v)?;
        }
        if norm <= radius {
            out.copy_from_slice(v);
        } else if radius == 0.0 {
            out.fill(0.0);
        } else {
            let th = condat_tau::<true, false>(
                v,
                radius,
                out,
                None,
                MAX_FILTER_PASSES,
                Fill::Plain,
                0.0,
            )?;
            l1_write(v, radius, out, &th)?;
        }
        return Ok(());
    }
    // Condat's first pass also sums |v| (in `sum_abs`'s order) and, once the prefix alone is
    // outside the ball, writes the signed zeros of the result
    let th = condat_tau::<true, false>(
        v,
        radius,
        out,
        None,
        MAX_FILTER_PASSES,
        Fill::SignedZeroOutside,
        0.0,
    )?;
    if let Some(norm) = th.norm {
        if !norm.is_finite() {
            // NaN/inf somewhere, or a finite sum that overflowed (then v is far outside)
            check_finite("v", v)?;
        }
        if norm <= radius {
            out.copy_from_slice(v);
            return Ok(());
        }
    }
    l1_write(v, radius, out, &th)
}

/// Writes `sign(v) ⊙ max(|v| − τ, 0)` for `v` outside the ball, recomputing `τ` around
/// `max |v|` when it is far above the radius (see [`SHIFT_RATIO`]).
fn l1_write(v: &[f64], radius: f64, out: &mut [f64], th: &Threshold) -> Result<()> {
    let tau = th.tau;
    if tau.abs() > radius * SHIFT_RATIO {
        let m = v.iter().fold(0.0_f64, |a, &x| a.max(x.abs()));
        let th = condat_tau::<true, true>(v, radius, out, None, MAX_FILTER_PASSES, Fill::Plain, m)?;
        let d = th.tau;
        for (o, &x) in out.iter_mut().zip(v) {
            *o = ((x.abs() - m) - d).max(0.0).copysign(x);
        }
        return Ok(());
    }
    write_result(v, out, th, |y| (y.abs() - tau).max(0.0).copysign(y));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphsparse_base::InputError;

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    /// The implementation before the fused first pass (candidate values, not indices, and a
    /// full `max(y − τ, 0)` sweep): the new one must give the same bits.
    mod legacy {
        use crate::error::Result;
        use crate::util::{all_finite, first_non_finite, rejoin, retain_front, sum_abs};

        const BLOCK: usize = 16;
        const CHUNK: usize = crate::util::CHUNK;

        pub(super) fn condat_tau<const ABS: bool>(
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

        pub(super) fn simplex(v: &[f64], z: f64) -> Vec<f64> {
            let mut out = vec![0.0; v.len()];
            let tau = condat_tau::<false>(v, z, &mut out, None, 32).unwrap();
            for (o, &y) in out.iter_mut().zip(v) {
                *o = (y - tau).max(0.0);
            }
            out
        }

        pub(super) fn l1_ball(v: &[f64], radius: f64) -> Vec<f64> {
            let mut out = vec![0.0; v.len()];
            if sum_abs(v) <= radius {
                out.copy_from_slice(v);
                return out;
            }
            if radius == 0.0 {
                return out;
            }
            let tau = condat_tau::<true>(v, radius, &mut out, None, 32).unwrap();
            for (o, &y) in out.iter_mut().zip(v) {
                *o = (y.abs() - tau).max(0.0).copysign(y);
            }
            out
        }
    }

    fn bits(x: &[f64]) -> Vec<u64> {
        x.iter().map(|t| t.to_bits()).collect()
    }

    /// Vectors of several shapes: random normal-ish values, few distinct values (ties),
    /// signed zeros, sorted ascending and descending, lengths around the chunk size.
    fn cases() -> Vec<Vec<f64>> {
        let mut rng = graphsparse_base::SplitMix64::new(7);
        let mut next = move || rng.uniform();
        let mut out = Vec::new();
        for &n in &[
            1usize, 2, 7, 8, 9, 15, 16, 17, 100, 511, 512, 513, 1029, 4096, 20_000,
        ] {
            out.push((0..n).map(|_| (next() - 0.5) * 6.0).collect());
            out.push((0..n).map(|_| (next() * 5.0).floor() - 2.0).collect());
            out.push(
                (0..n)
                    .map(|i| match i % 3 {
                        0 => -0.0,
                        1 => 0.0,
                        _ => next() - 0.9,
                    })
                    .collect(),
            );
            let mut sorted: Vec<f64> = (0..n).map(|_| next() * 10.0 - 5.0).collect();
            sorted.sort_by(f64::total_cmp);
            out.push(sorted.clone());
            sorted.reverse();
            out.push(sorted);
        }
        out
    }

    #[test]
    fn fused_passes_give_the_bits_of_the_plain_sweep() {
        for v in cases() {
            let norm = sum_abs(&v);
            // z = 1e-9 sums to z far more exactly than the plain sweep (`|τ| > z · SHIFT_RATIO`,
            // so the threshold is recomputed around the maximum): no bits to compare there
            let x = project_simplex(&v, 1e-9).unwrap();
            assert!(
                (x.iter().sum::<f64>() - 1e-9).abs() <= 1e-9 * 1e-12,
                "n={}",
                v.len()
            );
            for z in [0.5, 1.0, 3.0, 1e3, 1e9] {
                let want = bits(&legacy::simplex(&v, z));
                // every first-pass mode, whatever the length (the public functions pick one
                // by length), over an `out` holding garbage (or zeros for `Nothing`)
                for fill in [Fill::Plain, Fill::Zero, Fill::Nothing] {
                    let init = if fill == Fill::Nothing { 0.0 } else { 7.5 };
                    let mut out = vec![init; v.len()];
                    simplex_into(&v, z, &mut out, fill).unwrap();
                    assert_eq!(bits(&out), want, "simplex n={} z={z}", v.len());
                }
                let mut out = vec![7.5; v.len()];
                project_simplex_into(&v, z, &mut out).unwrap();
                assert_eq!(bits(&out), want);
                let mut zeroed = vec![0.0; v.len()];
                project_simplex_zeroed_into(&v, z, &mut zeroed).unwrap();
                assert_eq!(bits(&zeroed), want, "zeroed n={} z={z}", v.len());
                assert_eq!(bits(&project_simplex(&v, z).unwrap()), want);
            }
            if norm > 1e-9 {
                let x = project_l1_ball(&v, 1e-9).unwrap();
                let l1 = x.iter().map(|t| t.abs()).sum::<f64>();
                assert!((l1 - 1e-9).abs() <= 1e-9 * 1e-12, "l1 n={}", v.len());
            }
            for r in [0.0, 0.5, 1.0, 3.0, norm * 0.999, norm, norm * 1.001, 1e9] {
                let want = bits(&legacy::l1_ball(&v, r));
                for fused in [false, true] {
                    let mut out = vec![-7.5; v.len()];
                    l1_ball_into(&v, r, &mut out, fused).unwrap();
                    assert_eq!(bits(&out), want, "l1 n={} r={r} fused={fused}", v.len());
                }
                assert_eq!(bits(&project_l1_ball(&v, r).unwrap()), want);
            }
        }
    }

    #[test]
    fn fused_l1_pass_names_the_first_non_finite_entry() {
        let big = f64::MAX / 4.0;
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for &(n, at) in &[
                (3usize, 0usize),
                (600, 5),
                (600, 599),
                (5000, 513),
                (5000, 4999),
            ] {
                for fill in [0.25, -3.0, big] {
                    let mut v = vec![fill; n];
                    v[at] = bad;
                    if at + 1 < n {
                        v[n - 1] = f64::NAN; // a later one must not be reported
                    }
                    let want = ProjError::from(check_finite("v", &v).unwrap_err());
                    for fused in [false, true] {
                        let mut out = vec![0.0; n];
                        let got = l1_ball_into(&v, 1.0, &mut out, fused).unwrap_err();
                        assert_eq!(got, want, "n={n} at={at} fill={fill} fused={fused}");
                    }
                }
            }
        }
        // finite values whose l1 norm overflows are outside every ball, not an error
        for fused in [false, true] {
            let mut x = vec![0.0; 3000];
            l1_ball_into(&vec![f64::MAX; 3000], 2.0, &mut x, fused).unwrap();
            assert!(x.iter().all(|t| t.is_finite() && *t >= 0.0));
        }
    }

    #[test]
    fn huge_values_keep_the_bits_of_the_result() {
        // y − τ cancels: without the shift these gave all zeros (sum 0, not z)
        let x = project_simplex(&[2.5e299; 7], 1.0).unwrap();
        assert!(x.iter().all(|&v| (v - 1.0 / 7.0).abs() < 1e-15), "{x:?}");
        assert_eq!(project_simplex(&[1e17, 1e17], 1.0).unwrap(), vec![0.5, 0.5]);
        assert_eq!(
            project_simplex(&[1e300, 1e300, 0.0], 1.0).unwrap(),
            vec![0.5, 0.5, 0.0]
        );
        assert_eq!(
            project_simplex(&[-1e300, -1e300], 2.0).unwrap(),
            vec![1.0, 1.0]
        );
        let x = project_simplex(&[1e20 + 2.0 * 16384.0, 1e20, 0.0], 1.0).unwrap();
        assert_eq!(x, vec![1.0, 0.0, 0.0]);
        assert_eq!(
            project_l1_ball(&[1e300, -1e300, 0.0], 1.0).unwrap(),
            vec![0.5, -0.5, 0.0]
        );
        // the fused l1 path (long vectors) too
        let mut v = vec![0.0; 1 << 17];
        v[5] = -3e200;
        v[70_000] = 3e200;
        let x = project_l1_ball(&v, 4.0).unwrap();
        assert_eq!((x[5], x[70_000]), (-2.0, 2.0));
        assert_eq!(x.iter().map(|v| v.abs()).sum::<f64>(), 4.0);
        let mut y = vec![1e250; 1 << 17];
        y[0] = 1e250 * (1.0 + f64::EPSILON);
        let x = project_simplex(&y, 1.0).unwrap();
        assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-12);
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
            let ta =
                condat_tau::<false, false>(&v, z, &mut a, None, MAX_FILTER_PASSES, Fill::Zero, 0.0)
                    .unwrap()
                    .tau;
            let tb = condat_tau::<false, false>(&v, z, &mut b, None, 0, Fill::Zero, 0.0)
                .unwrap()
                .tau;
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
