//! Projection onto the capped simplex `{x ∈ [0, 1]^n : Σ x ≤ k}`.
//!
//! The projection is `x = clip(y − τ, 0, 1)` with `τ = 0` when `Σ clip(y, 0, 1) ≤ k`, and
//! otherwise `τ > 0` the root of `s(τ) = Σ clip(y_i − τ, 0, 1) = k`. `s` is continuous,
//! non-increasing and piecewise linear with breakpoints `{y_i, y_i − 1}`.
//!
//! The root is searched in an interval `(lo, hi]` with `s(lo) > k ≥ s(hi)`. Notation: on that
//! interval each coordinate is *L* (`y_i ≤ lo`: contributes 0), *U* (`y_i − 1 ≥ hi`:
//! contributes 1), *M* (`y_i − 1 ≤ lo` and `y_i ≥ hi`: contributes `y_i − τ`) or a *candidate*
//! with a breakpoint strictly inside. *L* coordinates are dropped, *U* and *M* folded into the
//! counters `n_u`, `n_m`, `sum_m`; candidates stay in the scratch buffer.
//!
//! Large candidate sets are first narrowed by sampling (as Floyd and Rivest do for selection):
//! the sample's own `s` locates the root, two points a few standard errors either side are
//! evaluated exactly, and usually about a tenth of the candidates survive. Then randomised
//! pivoting on candidate breakpoints (median of three) finishes; each pivot removes a
//! breakpoint from the interval, so the search ends. With no candidate left `s` is linear on
//! the interval and `τ = (n_u + sum_m − k) / n_m` in closed form, refined once.

use crate::error::{ProjError, Result};
use graphsparse_base::{SplitMix64, check_len};

use crate::util::{CHUNK, all_finite, first_non_finite};

#[inline]
fn clip01(x: f64) -> f64 {
    x.clamp(0.0, 1.0)
}

/// `Σ f(x)` over `xs` with eight partial sums in a fixed order (vectorises; deterministic).
#[inline(always)]
fn sum8(xs: &[f64], f: impl Fn(f64) -> f64) -> f64 {
    let mut acc = [0.0_f64; 8];
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a += f(x);
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for &x in rest {
        s += f(x);
    }
    s
}

/// `(Σ clip(z − a, 0, 1), Σ clip(z − b, 0, 1))` in one pass (four partial sums each).
fn sum_clip_shifted2(xs: &[f64], a: f64, b: f64) -> (f64, f64) {
    let (mut sa, mut sb) = ([0.0_f64; 4], [0.0_f64; 4]);
    let chunks = xs.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        for ((x, y), &z) in sa.iter_mut().zip(sb.iter_mut()).zip(c) {
            *x += clip01(z - a);
            *y += clip01(z - b);
        }
    }
    let (mut ra, mut rb) = (
        (sa[0] + sa[2]) + (sa[1] + sa[3]),
        (sb[0] + sb[2]) + (sb[1] + sb[3]),
    );
    for &z in rest {
        ra += clip01(z - a);
        rb += clip01(z - b);
    }
    (ra, rb)
}

/// The decided part of `s`: `n_u` coordinates at 1 and `n_m` coordinates (summing to `sum_m`)
/// that contribute `z − τ`.
#[derive(Clone, Copy, Default)]
struct Decided {
    n_u: usize,
    n_m: usize,
    sum_m: f64,
}

impl Decided {
    #[inline]
    fn at(self, t: f64) -> f64 {
        self.n_u as f64 + self.sum_m - self.n_m as f64 * t
    }
}

/// `(is_u, is_m)` for `z` on the interval `(lo, hi]` (branch-free).
#[inline(always)]
fn upper_middle(z: f64, lo: f64, hi: f64) -> (bool, bool) {
    let not_l = z > lo;
    let is_u = not_l & (z - 1.0 >= hi);
    let is_m = not_l & !is_u & (z - 1.0 <= lo) & (z >= hi);
    (is_u, is_m)
}

/// `true` when `z` still has a breakpoint strictly inside `(lo, hi)` (branch-free).
#[inline(always)]
fn is_candidate(z: f64, lo: f64, hi: f64) -> bool {
    let (is_u, is_m) = upper_middle(z, lo, hi);
    (z > lo) & !is_u & !is_m
}

/// Adds the *U* and *M* coordinates of `xs` to `d`: a vectorisable pass (eight lanes).
fn fold_decided(xs: &[f64], lo: f64, hi: f64, d: &mut Decided) {
    let (mut nu, mut nm, mut sm) = ([0usize; 8], [0usize; 8], [0.0_f64; 8]);
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for q in 0..8 {
            let (u, m) = upper_middle(c[q], lo, hi);
            nu[q] += usize::from(u);
            nm[q] += usize::from(m);
            sm[q] += if m { c[q] } else { 0.0 };
        }
    }
    d.n_u += nu.iter().sum::<usize>();
    d.n_m += nm.iter().sum::<usize>();
    d.sum_m += ((sm[0] + sm[4]) + (sm[1] + sm[5])) + ((sm[2] + sm[6]) + (sm[3] + sm[7]));
    for &z in rest {
        let (u, m) = upper_middle(z, lo, hi);
        d.n_u += usize::from(u);
        d.n_m += usize::from(m);
        d.sum_m += if m { z } else { 0.0 };
    }
}

/// Folds the decided coordinates of `cand` into `d` and compacts the candidates (in place);
/// returns their count.
fn classify(cand: &mut [f64], lo: f64, hi: f64, d: &mut Decided) -> usize {
    fold_decided(cand, lo, hi, d);
    // branch-free compaction: the store is unconditional (w <= j), the count conditional
    let mut w = 0;
    for j in 0..cand.len() {
        let z = cand[j];
        cand[w] = z;
        w += usize::from(is_candidate(z, lo, hi));
    }
    w
}

/// As [`classify`], reading `src` and writing the candidates to the front of `dst`.
fn classify_into(src: &[f64], dst: &mut [f64], lo: f64, hi: f64, d: &mut Decided) -> usize {
    fold_decided(src, lo, hi, d);
    let dst = &mut dst[..src.len()];
    let mut w = 0;
    for (j, &z) in src.iter().enumerate() {
        dst[w.min(j)] = z; // w <= j always; the min lets the bounds check go
        w += usize::from(is_candidate(z, lo, hi));
    }
    w
}

/// Candidate counts above which a round of sampling precedes the pivoting.
const SAMPLE_MIN: usize = 4096;
/// Largest sample of a bracketing round (on the stack, twice); a round samples `4 √m`.
const SAMPLE_MAX: usize = 2048;

/// Two points `ta ≤ tb` that bracket the root with high probability.
///
/// A pseudo-random sample of `r` candidates, sorted, with prefix sums, gives the estimate
/// `est(t) = d(t) + (m / r) Σ_sample clip(z − t, 0, 1)` in O(log r); `ta` and `tb` solve
/// `est(t) = k ± 2.5σ` by bisection on `[lo, ub]`, `σ` being the standard error of the
/// sampled sum. A point on the wrong side still moves one end of the interval when it is
/// evaluated exactly, so a miss only costs shrinkage.
fn sample_bracket(
    cand: &[f64],
    d: Decided,
    k: f64,
    lo: f64,
    hi: f64,
    rng: &mut SplitMix64,
) -> (f64, f64) {
    let m = cand.len();
    let r = ((4.0 * (m as f64).sqrt()) as usize).clamp(256, SAMPLE_MAX);
    let mut buf = [0.0_f64; SAMPLE_MAX];
    let mut pre = [0.0_f64; SAMPLE_MAX + 1];
    let smp = &mut buf[..r];
    for q in smp.iter_mut() {
        *q = cand[rng.below(m as u64) as usize];
    }
    smp.sort_unstable_by(f64::total_cmp);
    for (j, &z) in smp.iter().enumerate() {
        pre[j + 1] = pre[j] + z;
    }
    let smp = &*smp;
    let scale = m as f64 / r as f64;
    // Σ_sample clip(z − t, 0, 1) = #{z ≥ t + 1} + Σ_{t < z < t + 1} (z − t)
    let sampled = |t: f64| {
        let a = smp.partition_point(|&z| z <= t);
        let b = smp.partition_point(|&z| z < t + 1.0).max(a);
        (r - b) as f64 + (pre[b] - pre[a]) - t * (b - a) as f64
    };
    let est = |t: f64| d.at(t) + scale * sampled(t);
    let ub = hi.min(smp[r - 1]);
    let solve = |target: f64| {
        // the largest t in [lo, ub] with est(t) >= target (est is non-increasing)
        let (mut a, mut b) = (lo, ub);
        let ea = est(a);
        if ea < target || ea.is_nan() {
            return a;
        }
        if est(b) >= target {
            return b;
        }
        for _ in 0..50 {
            let mid = 0.5 * (a + b);
            if est(mid) >= target { a = mid } else { b = mid }
        }
        a
    };
    let root = solve(k);
    let p = (sampled(root) / r as f64).clamp(0.05, 0.5);
    let sigma = scale * (r as f64 * p * (1.0 - p)).sqrt();
    (solve(k + 2.5 * sigma), solve(k - 2.5 * sigma))
}

/// Evaluates `s` at `ta` and `tb` over `cand` and tightens `(lo, hi]` accordingly.
fn tighten(cand: &[f64], d: Decided, k: f64, (ta, tb): (f64, f64), lo: &mut f64, hi: &mut f64) {
    let (va, vb) = sum_clip_shifted2(cand, ta, tb);
    for (t, v) in [(ta, va), (tb, vb)] {
        if t > *lo && t < *hi {
            if d.at(t) + v > k { *lo = t } else { *hi = t }
        }
    }
}

/// Median of the in-interval breakpoints of three pseudo-random candidates.
///
/// A candidate has `z` or `z − 1` strictly inside `(lo, hi)`; `z` when `z < hi`.
#[inline]
fn pivot(cand: &[f64], hi: f64, rng: &mut SplitMix64) -> f64 {
    let m = cand.len() as u64;
    let mut pick = || {
        let z = cand[rng.below(m) as usize];
        if z < hi { z } else { z - 1.0 }
    };
    let (a, b, c) = (pick(), pick(), pick());
    a.max(b).min(a.min(b).max(c))
}

/// The root `τ ∈ (0, max y)` of `s(τ) = k`, given `0 < k < Σ clip(y, 0, 1)`.
fn capped_tau(y: &[f64], k: f64, s: &mut [f64]) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, f64::INFINITY);
    let mut d = Decided::default();
    // a fixed seed: a deterministic pivot sequence (results do not depend on it beyond rounding)
    let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    // Non-positive entries contribute 0 for every τ ≥ 0, so y itself can be sampled and
    // evaluated before anything is copied; the first classification writes the candidates.
    if y.len() > SAMPLE_MIN {
        let t = sample_bracket(y, d, k, lo, hi, &mut rng);
        tighten(y, d, k, t, &mut lo, &mut hi);
    }
    let mut m = classify_into(y, s, lo, hi, &mut d);
    while m > SAMPLE_MIN {
        let t = sample_bracket(&s[..m], d, k, lo, hi, &mut rng);
        tighten(&s[..m], d, k, t, &mut lo, &mut hi);
        let before = m;
        m = classify(&mut s[..m], lo, hi, &mut d);
        if m > before / 2 {
            break; // the sample did not help (an unusual shape): pivot instead
        }
    }
    // Each pivot removes at least one of the ≤ 2m breakpoints inside the interval; the cap
    // only guards against an inconsistency that would otherwise loop forever.
    let mut budget = 2 * m + 64;
    while m > 0 && budget > 0 {
        budget -= 1;
        let p = pivot(&s[..m], hi, &mut rng);
        if d.at(p) + sum8(&s[..m], |z| clip01(z - p)) > k {
            lo = p;
        } else {
            hi = p;
        }
        m = classify(&mut s[..m], lo, hi, &mut d);
    }
    if d.n_m == 0 {
        // s is flat at k on the interval (only reachable through rounding): any point works
        return if hi.is_finite() { hi } else { lo };
    }
    let n_m = d.n_m as f64;
    let tau = ((d.n_u as f64 + d.sum_m - k) / n_m).max(lo).min(hi);
    // One refinement step: the terms z − τ of the middle set are small, so their sum is far
    // more accurate than sum_m (a sum of up to n values of size max y).
    let resid = sum8(y, |z| {
        let t = z - tau;
        if t > 0.0 && t < 1.0 { t } else { 0.0 }
    });
    (tau + (resid + d.n_u as f64 - k) / n_m).max(lo).min(hi)
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
/// [`ProjError::InvalidBudget`] for a negative or NaN `k`, [`ProjError::Input`].
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
/// [`ProjError::InvalidBudget`], [`ProjError::Input`], [`ProjError::Input`].
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
    check_len("out", out.len(), y.len())?;
    let mut total = 0.0;
    for (c, chunk) in y.chunks(CHUNK).enumerate() {
        if !all_finite(chunk) {
            return Err(first_non_finite(chunk, "y", c * CHUNK));
        }
        total += sum8(chunk, clip01);
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
    use graphsparse_base::InputError;

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
            Err(ProjError::Input(InputError::NotFinite {
                arg: "y",
                index: 1,
                ..
            }))
        ));
        let mut out = [0.0; 1];
        assert!(matches!(
            project_capped_simplex_into(&[1.0, 2.0], 1.0, &mut out),
            Err(ProjError::Input(InputError::LengthMismatch { .. }))
        ));
    }
}
