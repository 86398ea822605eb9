//! Operator norms `‖L‖` for the step sizes: Lanczos on `LᵀL`, and plain power iteration.
//!
//! The step conditions of the primal–dual solvers (`τ ς ‖L‖² ≤ 1`) need an upper bound of the
//! largest singular value. Both estimators here approach it from below: power iteration's
//! Rayleigh quotient, and the largest Ritz value of the Lanczos tridiagonal `T_k`, which is at
//! least as large as power iteration's after the same number of products (the power iterate
//! lies in the Krylov space) and converges much faster when the top of the spectrum is
//! crowded, as for Gaussian matrices. The solvers inflate the estimate by 1 %
//! ([`NORM_SAFETY`]) and use a step factor 0.99. Start vectors are fixed pseudo-random
//! sequences, so estimates are deterministic.

use graphsparse_base::Parallel;

use crate::error::Result;
use crate::operator::LinearOperator;
use crate::par::{Reducer, dot};
use graphsparse_base::{check_at_least_one, check_nonnegative};

/// Factor by which the solvers inflate an estimated operator norm (spec §3.5).
pub const NORM_SAFETY: f64 = 1.01;

/// An estimate of `‖L‖` (the largest singular value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormEstimate {
    /// The estimate (a lower bound up to rounding).
    pub value: f64,
    /// Products with `LᵀL` made.
    pub n_iter: usize,
    /// Whether the relative change fell below the tolerance (or the Krylov space closed).
    pub converged: bool,
}

/// A deterministic start vector with entries in `(−1, 1)` (a hash of the index).
pub(crate) fn start_vector(out: &mut [f64]) {
    for (i, o) in out.iter_mut().enumerate() {
        // the first draw of the stream seeded with the index
        let z = graphsparse_base::SplitMix64::new(i as u64).next_u64();
        *o = (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0;
    }
}

fn norm(r: &mut Reducer, par: Parallel, v: &[f64]) -> f64 {
    r.sum(par, v.len(), |rg| dot(&v[rg.clone()], &v[rg])).sqrt()
}

/// Checks the shared settings of the estimators and returns what both start from: a
/// reducer, the start vector `q` (length N, [`start_vector`]) and the scratch of `L q`
/// (length J); `None` when a dimension is empty (the norm is then 0).
fn start<Op: LinearOperator + ?Sized>(op: &Op, max_iter: usize, tol: f64) -> Result<Option<Start>> {
    check_at_least_one("max_iter", max_iter)?;
    check_nonnegative("tol", tol)?;
    let (n, m) = (op.n_cols(), op.n_rows());
    if n == 0 || m == 0 {
        return Ok(None);
    }
    let mut q = vec![0.0; n];
    start_vector(&mut q);
    Ok(Some(Start {
        red: Reducer::default(),
        q,
        tmp: vec![0.0; m],
    }))
}

/// What both estimators start from (see [`start`]).
struct Start {
    red: Reducer,
    q: Vec<f64>,
    tmp: Vec<f64>,
}

/// The estimate of a zero operator, found after `n_iter` products.
fn zero_norm(n_iter: usize) -> NormEstimate {
    NormEstimate {
        value: 0.0,
        n_iter,
        converged: true,
    }
}

/// Largest eigenvalue of the symmetric tridiagonal matrix with diagonal `a` and
/// off-diagonal `b` (`b.len() == a.len() − 1`).
///
/// Newton's method on the characteristic polynomial `p(x) = det(T − x I)` from the Gershgorin
/// upper bound: `p` has only real zeros, so from the right of the largest one Newton decreases
/// monotonically to it, quadratically near it, in O(k) per step (`p'/p = Σ d_i'/d_i` over the
/// pivots `d_i` of `T − x I`, all negative beyond the largest eigenvalue). The Lanczos loop
/// calls this once per step, so the bisection it replaces (about 60 Sturm counts of O(k)
/// each) made that loop quadratic in the step count with a large constant; the bisection
/// remains the fallback when a pivot vanishes or the result fails its Sturm check.
fn tridiagonal_max_eig(a: &[f64], b: &[f64]) -> f64 {
    let k = a.len();
    let (_, hi) = gershgorin(a, b);
    let mut x = hi;
    let mut ok = hi.is_finite();
    for _ in 0..200 {
        if !ok {
            break;
        }
        // Σ d_i'/d_i with d_0 = a_0 − x, d_i = a_i − x − b²_{i−1}/d_{i−1}
        let (mut d, mut dd, mut ratio) = (1.0f64, 0.0f64, 0.0f64);
        for i in 0..k {
            let (nd, ndd) = if i == 0 {
                (a[0] - x, -1.0)
            } else {
                let o = b[i - 1] * b[i - 1];
                (a[i] - x - o / d, -1.0 + o * dd / (d * d))
            };
            if nd.is_nan() || nd >= 0.0 || !ndd.is_finite() {
                // a zero pivot (x on an eigenvalue of a leading block) or x at or below the
                // largest eigenvalue: Newton is done or cannot go on
                ok = nd == 0.0 && i + 1 == k;
                break;
            }
            ratio += ndd / nd;
            (d, dd) = (nd, ndd);
        }
        if !(ok && ratio.is_finite() && ratio > 0.0) {
            break;
        }
        let next = x - ratio.recip();
        if !(next.is_finite() && next < x) {
            break;
        }
        let converged = x - next <= 4.0 * f64::EPSILON * x.abs().max(f64::MIN_POSITIVE);
        x = next;
        if converged {
            break;
        }
    }
    // the result is accepted when every eigenvalue lies at or below x·(1 + 8ε) and not all of
    // them below x·(1 − 1e-12)
    let tiny = 8.0 * f64::EPSILON * x.abs().max(f64::MIN_POSITIVE);
    if x.is_finite()
        && sturm_count_below(a, b, x + tiny) == k
        && sturm_count_below(a, b, x - 1e-12 * x.abs().max(f64::MIN_POSITIVE)) < k
    {
        x
    } else {
        tridiagonal_max_eig_bisect(a, b)
    }
}

/// The Gershgorin interval `(lo, hi)` of the tridiagonal matrix.
fn gershgorin(a: &[f64], b: &[f64]) -> (f64, f64) {
    let k = a.len();
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for i in 0..k {
        let r = if i > 0 { b[i - 1].abs() } else { 0.0 } + if i + 1 < k { b[i].abs() } else { 0.0 };
        lo = lo.min(a[i] - r);
        hi = hi.max(a[i] + r);
    }
    (lo, hi)
}

/// The number of eigenvalues below `x` (Sturm sequence).
fn sturm_count_below(a: &[f64], b: &[f64], x: f64) -> usize {
    let mut count = 0;
    let mut d = 1.0;
    for i in 0..a.len() {
        let off = if i > 0 { b[i - 1] * b[i - 1] } else { 0.0 };
        d = a[i] - x - if i > 0 { off / d } else { 0.0 };
        if d == 0.0 {
            d = -f64::EPSILON * (x.abs() + f64::MIN_POSITIVE);
        }
        if d < 0.0 {
            count += 1;
        }
    }
    count
}

/// [`tridiagonal_max_eig`] by Sturm-sequence bisection (the fallback, and the tests'
/// reference).
fn tridiagonal_max_eig_bisect(a: &[f64], b: &[f64]) -> f64 {
    let k = a.len();
    let (mut lo, mut hi) = gershgorin(a, b);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if sturm_count_below(a, b, mid) == k {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}
/// Estimates `‖L‖` by the Lanczos process on `LᵀL` (no reorthogonalisation: the largest Ritz
/// value is unaffected by the loss of orthogonality, which only adds spurious copies).
///
/// # Arguments
/// * `op` – the operator `L`.
/// * `max_iter` – most products with `LᵀL` (one `L` and one `Lᵀ` each).
/// * `tol` – stop when the largest Ritz value changes by less than `tol` relative.
/// * `par` – parallelism of the products and reductions (the result does not depend on it).
///
/// # Returns
/// The estimate; 0 for a zero operator or an empty dimension.
///
/// # Errors
/// [`crate::RecoveryError::Input`] for `max_iter = 0` or a negative `tol`.
///
/// # Complexity
/// `max_iter` products, plus O(k²) per step for the tridiagonal eigenvalue (k ≤ `max_iter`);
/// O(N + J + max_iter) memory.
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, DenseMatrix, Parallel, estimate_op_norm};
/// let l = DenseMatrix::new(&[3.0, 0.0, 0.0, 4.0], 2, 2)?;
/// let e = estimate_op_norm(&l, 50, 1e-12, Parallel::Serial)?;
/// assert!((e.value - 4.0).abs() < 1e-12);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub fn estimate_op_norm<Op: LinearOperator + ?Sized>(
    op: &Op,
    max_iter: usize,
    tol: f64,
    par: Parallel,
) -> Result<NormEstimate> {
    estimate_op_norm_below(op, max_iter, tol, par, f64::INFINITY)
}

/// [`estimate_op_norm`] that also stops as soon as the estimate reaches `stop_at`. The Ritz
/// values of the Lanczos process only grow with the step count (Cauchy interlacing), so a
/// caller that takes `min(estimate, bound)` with `stop_at = bound` gets the bound at once
/// where the full run would have ended above it anyway.
pub(crate) fn estimate_op_norm_below<Op: LinearOperator + ?Sized>(
    op: &Op,
    max_iter: usize,
    tol: f64,
    par: Parallel,
    stop_at: f64,
) -> Result<NormEstimate> {
    let Some(Start {
        mut red,
        mut q,
        mut tmp,
    }) = start(op, max_iter, tol)?
    else {
        return Ok(zero_norm(0));
    };
    let n = q.len();
    let mut q_prev = vec![0.0; n];
    let mut w = vec![0.0; n];
    let nq = norm(&mut red, par, &q);
    q.iter_mut().for_each(|v| *v /= nq);
    let (mut alphas, mut betas) = (Vec::new(), Vec::<f64>::new());
    let mut est = 0.0f64;
    let mut beta = 0.0;
    for it in 1..=max_iter {
        op.apply_into(&q, &mut tmp, par)?;
        op.apply_adjoint_into(&tmp, &mut w, par)?;
        let a = red.sum(par, n, |rg| dot(&q[rg.clone()], &w[rg]));
        for ((wi, &qi), &pi) in w.iter_mut().zip(&q).zip(&q_prev) {
            *wi -= a * qi + beta * pi;
        }
        alphas.push(a);
        let new_est = tridiagonal_max_eig(&alphas, &betas).max(0.0);
        let b = norm(&mut red, par, &w);
        // NaN counts as closed
        let closed = b.is_nan() || b <= 1e-14 * new_est.max(f64::MIN_POSITIVE);
        let converged = it > 1 && (new_est - est).abs() <= tol * new_est;
        est = new_est;
        if closed || converged || it == max_iter || est.sqrt() >= stop_at {
            return Ok(NormEstimate {
                value: est.sqrt(),
                n_iter: it,
                converged: closed || converged,
            });
        }
        betas.push(b);
        beta = b;
        std::mem::swap(&mut q_prev, &mut q);
        for (qi, &wi) in q.iter_mut().zip(&w) {
            *qi = wi / b;
        }
    }
    unreachable!("invariant: the loop returns at it == max_iter")
}

/// Estimates `‖L‖` by power iteration on `LᵀL` (the Rayleigh quotient `‖L q‖` of the
/// normalised iterate), stopping when it changes by less than `tol` relative.
///
/// Slower than [`estimate_op_norm`] for the same accuracy; kept as the textbook reference.
///
/// # Arguments
/// As [`estimate_op_norm`].
///
/// # Returns
/// The estimate (a lower bound).
///
/// # Errors
/// As [`estimate_op_norm`].
///
/// # Complexity
/// `max_iter` products, O(N + J) memory.
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, DenseMatrix, Parallel, power_iteration_norm};
/// let l = DenseMatrix::new(&[3.0, 0.0, 0.0, 4.0], 2, 2)?;
/// let e = power_iteration_norm(&l, 500, 1e-14, Parallel::Serial)?;
/// assert!((e.value - 4.0).abs() < 1e-6);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub fn power_iteration_norm<Op: LinearOperator + ?Sized>(
    op: &Op,
    max_iter: usize,
    tol: f64,
    par: Parallel,
) -> Result<NormEstimate> {
    let Some(Start {
        mut red,
        mut q,
        mut tmp,
    }) = start(op, max_iter, tol)?
    else {
        return Ok(zero_norm(0));
    };
    let mut est = 0.0;
    for it in 1..=max_iter {
        let nq = norm(&mut red, par, &q);
        if nq == 0.0 {
            return Ok(zero_norm(it));
        }
        q.iter_mut().for_each(|v| *v /= nq);
        op.apply_into(&q, &mut tmp, par)?;
        let new_est = norm(&mut red, par, &tmp);
        op.apply_adjoint_into(&tmp, &mut q, par)?;
        let converged = it > 1 && (new_est - est).abs() <= tol * new_est;
        est = new_est;
        if converged || it == max_iter {
            return Ok(NormEstimate {
                value: est,
                n_iter: it,
                converged,
            });
        }
    }
    unreachable!("invariant: the loop returns at it == max_iter")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operator::DenseMatrix;

    #[test]
    fn tridiagonal_eigenvalue() {
        // [[2, 1], [1, 2]] has eigenvalues 1 and 3
        assert!((tridiagonal_max_eig(&[2.0, 2.0], &[1.0]) - 3.0).abs() < 1e-14);
        assert!((tridiagonal_max_eig(&[5.0], &[]) - 5.0).abs() < 1e-14);
        // path Laplacian-like [[2,-1,0],[-1,2,-1],[0,-1,2]]: 2 + √2
        let e = tridiagonal_max_eig(&[2.0, 2.0, 2.0], &[-1.0, -1.0]);
        assert!((e - (2.0 + 2f64.sqrt())).abs() < 1e-14);
        // a zero off-diagonal splits the matrix; a diagonal one is its own spectrum
        assert!((tridiagonal_max_eig(&[1.0, 7.0, 2.0], &[0.0, 0.0]) - 7.0).abs() < 1e-14);
        assert!((tridiagonal_max_eig(&[3.0, 3.0], &[0.0]) - 3.0).abs() < 1e-14);
    }

    #[test]
    fn newton_matches_the_bisection_on_lanczos_like_matrices() {
        // deterministic pseudo-random tridiagonals, some with clustered top eigenvalues
        let mut rng = graphsparse_base::SplitMix64::new(7);
        let mut next = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for k in 1..120 {
            let a: Vec<f64> = (0..k).map(|_| 1e3 * next()).collect();
            let scale = if k % 3 == 0 { 1e-6 } else { 10.0 };
            let b: Vec<f64> = (1..k).map(|_| scale * next()).collect();
            let newton = tridiagonal_max_eig(&a, &b);
            let bisect = tridiagonal_max_eig_bisect(&a, &b);
            assert!(
                (newton - bisect).abs() <= 1e-13 * bisect.abs(),
                "k = {k}: {newton} vs {bisect}"
            );
        }
    }

    #[test]
    fn lanczos_beats_power_iteration_on_a_gaussian_like_matrix() {
        let (rows, cols) = (45, 50);
        let mut data = vec![0.0; rows * cols];
        start_vector(&mut data);
        let l = DenseMatrix::new(&data, rows, cols).unwrap();
        let lz = estimate_op_norm(&l, 60, 0.0, Parallel::Serial).unwrap();
        let pw = power_iteration_norm(&l, 60, 0.0, Parallel::Serial).unwrap();
        let exact = estimate_op_norm(&l, 500, 1e-15, Parallel::Serial).unwrap();
        assert!(lz.value >= pw.value - 1e-12);
        assert!(lz.value <= exact.value * (1.0 + 1e-12));
        assert!((lz.value - exact.value).abs() < 1e-8 * exact.value);
        let par = estimate_op_norm(&l, 60, 0.0, Parallel::Threshold(0)).unwrap();
        assert_eq!(par.value.to_bits(), lz.value.to_bits());
    }

    #[test]
    fn zero_and_empty_operators() {
        let l = DenseMatrix::new(&[0.0; 6], 2, 3).unwrap();
        assert_eq!(
            estimate_op_norm(&l, 10, 1e-9, Parallel::Serial)
                .unwrap()
                .value,
            0.0
        );
        assert_eq!(
            power_iteration_norm(&l, 10, 1e-9, Parallel::Serial)
                .unwrap()
                .value,
            0.0
        );
        let e = DenseMatrix::new(&[], 0, 3).unwrap();
        assert_eq!(
            estimate_op_norm(&e, 10, 1e-9, Parallel::Serial)
                .unwrap()
                .value,
            0.0
        );
        assert!(estimate_op_norm(&l, 0, 1e-9, Parallel::Serial).is_err());
    }
}
