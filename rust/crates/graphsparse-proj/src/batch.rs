//! Batched projections over the rows of a row-major 2-D buffer.
//!
//! Every row is projected by the same serial routine, so the result does not depend on
//! whether or how the rows are spread over threads. Parameters are validated once, before any
//! row; an error in a row is reported as [`ProjError::InRow`] for the lowest failing row.

use rayon::prelude::*;

use crate::error::{ProjError, Result};
use graphsparse_base::{InputError, check_len};

pub use graphsparse_base::{PARALLEL_MIN_ELEMENTS, Parallel};

/// Smallest amount of work (in values) handed to one rayon task.
const TASK_MIN_ELEMENTS: usize = 1 << 13;

/// Number of rows of a row-major buffer, checking the shape and the output length.
fn n_rows(len: usize, n_cols: usize, out_len: usize) -> Result<usize> {
    check_len("out", out_len, len)?;
    if n_cols == 0 {
        return if len == 0 {
            Ok(0)
        } else {
            Err(ProjError::BadShape { len, n_cols })
        };
    }
    if len % n_cols != 0 {
        return Err(ProjError::BadShape { len, n_cols });
    }
    Ok(len / n_cols)
}

/// Applies `f(row_index, row, out_row)` to every row, serially or with rayon.
fn for_each_row<F>(
    data: &[f64],
    n_cols: usize,
    out: &mut [f64],
    parallel: Parallel,
    f: F,
) -> Result<()>
where
    F: Fn(usize, &[f64], &mut [f64]) -> Result<()> + Sync,
{
    let rows = n_rows(data.len(), n_cols, out.len())?;
    if rows == 0 {
        return Ok(());
    }
    let wrap = |row: usize, e: ProjError| ProjError::InRow {
        row,
        source: Box::new(e),
    };
    if parallel.use_rayon(rows, data.len()) {
        let min_rows = (TASK_MIN_ELEMENTS / n_cols).max(1);
        let first = data
            .par_chunks_exact(n_cols)
            .zip(out.par_chunks_exact_mut(n_cols))
            .enumerate()
            .with_min_len(min_rows)
            .filter_map(|(r, (row, o))| f(r, row, o).err().map(|e| (r, e)))
            .min_by_key(|(r, _)| *r);
        match first {
            Some((r, e)) => Err(wrap(r, e)),
            None => Ok(()),
        }
    } else {
        for (r, (row, o)) in data
            .chunks_exact(n_cols)
            .zip(out.chunks_exact_mut(n_cols))
            .enumerate()
        {
            f(r, row, o).map_err(|e| wrap(r, e))?;
        }
        Ok(())
    }
}

/// Projects every row of a row-major buffer onto the simplex `{x ≥ 0, Σ x = z}`.
///
/// # Arguments
/// * `data` – `n_rows × n_cols` values, row-major.
/// * `n_cols` – row length (`> 0`).
/// * `z` – the simplex total, finite and `> 0`.
/// * `out` – output buffer of the same length as `data`.
/// * `parallel` – whether rows may run on the current rayon pool.
///
/// # Returns
/// `Ok(())`; each row of `out` equals [`project_simplex`](crate::project_simplex) of that row.
///
/// # Errors
/// [`ProjError::InvalidTotal`], [`ProjError::Input`] (a length), [`ProjError::BadShape`],
/// [`ProjError::Empty`] when `n_cols == 0`, [`ProjError::InRow`] for a row with NaN/inf.
///
/// # Complexity
/// Expected O(`data.len()`) work, spread over the pool's threads.
///
/// # Example
/// ```
/// use graphsparse_proj::{project_simplex_rows, Parallel};
/// let data = [2.0, 0.0, 0.3, 0.3];
/// let mut out = [0.0; 4];
/// project_simplex_rows(&data, 2, 1.0, &mut out, Parallel::Auto).unwrap();
/// assert_eq!(out, [1.0, 0.0, 0.5, 0.5]);
/// ```
pub fn project_simplex_rows(
    data: &[f64],
    n_cols: usize,
    z: f64,
    out: &mut [f64],
    parallel: Parallel,
) -> Result<()> {
    if !(z.is_finite() && z > 0.0) {
        return Err(ProjError::InvalidTotal(z));
    }
    if n_cols == 0 {
        return Err(ProjError::Empty);
    }
    for_each_row(data, n_cols, out, parallel, |_, row, o| {
        crate::project_simplex_into(row, z, o)
    })
}

/// Projects every row of a row-major buffer onto the l1 ball of the given radius.
///
/// # Arguments
/// * `data`, `n_cols`, `out`, `parallel` – as in [`project_simplex_rows`].
/// * `radius` – finite and `≥ 0`.
///
/// # Returns
/// `Ok(())`; each row of `out` equals [`project_l1_ball`](crate::project_l1_ball) of that row.
///
/// # Errors
/// [`ProjError::InvalidRadius`], [`ProjError::Input`] (a length), [`ProjError::BadShape`],
/// [`ProjError::InRow`].
///
/// # Complexity
/// Expected O(`data.len()`) work.
///
/// # Example
/// ```
/// use graphsparse_proj::{project_l1_ball_rows, Parallel};
/// let mut out = [0.0; 4];
/// project_l1_ball_rows(&[2.0, 0.0, 0.25, -0.25], 2, 1.0, &mut out, Parallel::Serial).unwrap();
/// assert_eq!(out, [1.0, 0.0, 0.25, -0.25]);
/// ```
pub fn project_l1_ball_rows(
    data: &[f64],
    n_cols: usize,
    radius: f64,
    out: &mut [f64],
    parallel: Parallel,
) -> Result<()> {
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(ProjError::InvalidRadius(radius));
    }
    for_each_row(data, n_cols, out, parallel, |_, row, o| {
        crate::project_l1_ball_into(row, radius, o)
    })
}

/// Projects every row onto the weighted simplex `{x : Σ ε_i x_i = 1, ε_i x_i ≥ 0}`.
///
/// # Arguments
/// * `data`, `n_cols`, `out`, `parallel` – as in [`project_simplex_rows`].
/// * `eps` – weights shared by all rows (length `n_cols`) or one row of weights per row
///   (length `data.len()`); finite, `≥ 0`, not all zero in any row.
///
/// # Returns
/// `Ok(())`; each row of `out` equals
/// [`project_weighted_simplex`](crate::project_weighted_simplex) of that row.
///
/// # Errors
/// [`ProjError::Input`] (a length) for `eps` or `out`, [`ProjError::BadShape`],
/// [`ProjError::Empty`] when `n_cols == 0`, [`ProjError::InvalidWeight`] /
/// [`ProjError::ZeroWeights`] for shared weights, [`ProjError::InRow`] for a row's own error.
///
/// # Complexity
/// Expected O(`data.len()`) work (O(d log d) per row for rows of length ≤
/// [`WEIGHTED_SORT_MAX_LEN`](crate::WEIGHTED_SORT_MAX_LEN)).
///
/// # Example
/// ```
/// use graphsparse_proj::{project_weighted_simplex_rows, Parallel};
/// let mut out = [0.0; 4];
/// let eps = [1.0, 0.0];
/// project_weighted_simplex_rows(&[0.5, 7.0, 3.0, -1.0], 2, &eps, &mut out, Parallel::Auto).unwrap();
/// assert_eq!(out, [1.0, 7.0, 1.0, -1.0]); // eps = 0 leaves the coordinate untouched
/// ```
pub fn project_weighted_simplex_rows(
    data: &[f64],
    n_cols: usize,
    eps: &[f64],
    out: &mut [f64],
    parallel: Parallel,
) -> Result<()> {
    if n_cols == 0 {
        return Err(ProjError::Empty);
    }
    let shared = eps.len() == n_cols;
    if shared {
        crate::weighted::check_weights(eps)?;
    } else {
        check_len("eps", eps.len(), data.len()).map_err(|_| InputError::LengthMismatch {
            arg: "eps",
            got: eps.len(),
            expected: n_cols,
        })?;
    }
    for_each_row(data, n_cols, out, parallel, |r, row, o| {
        let e = if shared {
            eps
        } else {
            &eps[r * n_cols..(r + 1) * n_cols]
        };
        crate::project_weighted_simplex_into(row, e, o)
    })
}

/// Projects every row onto the capped simplex `{x ∈ [0, 1]^n : Σ x ≤ k}`.
///
/// # Arguments
/// * `data`, `n_cols`, `out`, `parallel` – as in [`project_simplex_rows`].
/// * `k` – the budget, `≥ 0`.
///
/// # Returns
/// `Ok(())`; each row of `out` equals
/// [`project_capped_simplex`](crate::project_capped_simplex) of that row.
///
/// # Errors
/// [`ProjError::InvalidBudget`], [`ProjError::Input`] (a length), [`ProjError::BadShape`],
/// [`ProjError::InRow`].
///
/// # Complexity
/// Expected O(`data.len()`) work.
///
/// # Example
/// ```
/// use graphsparse_proj::{project_capped_simplex_rows, Parallel};
/// let mut out = [0.0; 4];
/// project_capped_simplex_rows(&[3.0, 3.0, 0.2, 0.1], 2, 1.0, &mut out, Parallel::Auto).unwrap();
/// assert_eq!(out, [0.5, 0.5, 0.2, 0.1]);
/// ```
pub fn project_capped_simplex_rows(
    data: &[f64],
    n_cols: usize,
    k: f64,
    out: &mut [f64],
    parallel: Parallel,
) -> Result<()> {
    if k.is_nan() || k < 0.0 {
        return Err(ProjError::InvalidBudget(k));
    }
    for_each_row(data, n_cols, out, parallel, |_, row, o| {
        crate::project_capped_simplex_into(row, k, o)
    })
}

/// Keeps the `k` largest-magnitude entries of every row (ties to the lower index).
///
/// # Arguments
/// * `data`, `n_cols`, `out`, `parallel` – as in [`project_simplex_rows`].
/// * `k` – entries kept per row, `0 ≤ k ≤ n_cols`.
///
/// # Returns
/// `Ok(())`; each row of `out` equals [`project_top_k`](crate::project_top_k) of that row.
///
/// # Errors
/// [`ProjError::KOutOfRange`], [`ProjError::Input`] (a length), [`ProjError::BadShape`],
/// [`ProjError::InRow`].
///
/// # Complexity
/// Expected O(`data.len()`) work.
///
/// # Example
/// ```
/// use graphsparse_proj::{project_top_k_rows, Parallel};
/// let mut out = [0.0; 4];
/// project_top_k_rows(&[1.0, -2.0, 3.0, 3.0], 2, 1, &mut out, Parallel::Auto).unwrap();
/// assert_eq!(out, [0.0, -2.0, 3.0, 0.0]);
/// ```
pub fn project_top_k_rows(
    data: &[f64],
    n_cols: usize,
    k: usize,
    out: &mut [f64],
    parallel: Parallel,
) -> Result<()> {
    if k > n_cols {
        return Err(ProjError::KOutOfRange { k, len: n_cols });
    }
    for_each_row(data, n_cols, out, parallel, |_, row, o| {
        crate::project_top_k_into(row, k, o)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_errors() {
        let mut out = [0.0; 6];
        assert_eq!(
            project_simplex_rows(&[1.0; 6], 4, 1.0, &mut out, Parallel::Serial),
            Err(ProjError::BadShape { len: 6, n_cols: 4 })
        );
        assert_eq!(
            project_simplex_rows(&[1.0; 6], 0, 1.0, &mut out, Parallel::Serial),
            Err(ProjError::Empty)
        );
        assert_eq!(
            project_l1_ball_rows(&[], 0, 1.0, &mut [], Parallel::Serial),
            Ok(())
        );
        assert_eq!(
            project_top_k_rows(&[1.0; 6], 3, 4, &mut out, Parallel::Serial),
            Err(ProjError::KOutOfRange { k: 4, len: 3 })
        );
        let mut data = [1.0; 6];
        data[4] = f64::NAN;
        data[1] = f64::NAN;
        for par in [Parallel::Serial, Parallel::Threshold(0)] {
            let msg = project_simplex_rows(&data, 2, 1.0, &mut out, par)
                .unwrap_err()
                .to_string();
            assert_eq!(msg, "row 0: v contains a non-finite value (NaN) at index 1");
        }
        assert_eq!(
            project_weighted_simplex_rows(&[1.0; 6], 3, &[0.0; 3], &mut out, Parallel::Serial),
            Err(ProjError::ZeroWeights)
        );
        assert_eq!(
            project_weighted_simplex_rows(&[1.0; 6], 3, &[1.0; 4], &mut out, Parallel::Serial),
            Err(ProjError::Input(InputError::LengthMismatch {
                arg: "eps",
                got: 4,
                expected: 3,
            }))
        );
    }

    #[test]
    fn per_row_weights() {
        let data = [0.5, 0.5, 0.5, 0.5];
        let eps = [1.0, 1.0, 0.0, 2.0];
        let mut out = [0.0; 4];
        project_weighted_simplex_rows(&data, 2, &eps, &mut out, Parallel::Threshold(0)).unwrap();
        assert_eq!(out, [0.5, 0.5, 0.5, 0.5]); // row 1: 2 x = 1 → x = 0.5
    }
}
