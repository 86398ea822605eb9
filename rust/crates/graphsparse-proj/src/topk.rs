//! Projection onto `{x : ‖x‖₀ ≤ k}`: keep the `k` entries of largest magnitude.

use crate::error::{ProjError, Result};
use crate::util::{check_finite, check_len};

/// Keeps the `k` entries of `y` with the largest `|y_i|` and zeroes the rest.
///
/// Allocating wrapper of [`project_top_k_into`].
///
/// # Arguments
/// * `y` – the point to project (finite values).
/// * `k` – how many entries to keep, `0 ≤ k ≤ y.len()`.
///
/// # Returns
/// The hard-thresholded vector; among entries of equal magnitude the lower indices are kept.
///
/// # Errors
/// [`ProjError::KOutOfRange`], [`ProjError::NonFinite`].
///
/// # Complexity
/// Expected O(n) time (selection, no full sort).
///
/// # Example
/// ```
/// let x = graphsparse_proj::project_top_k(&[0.5, -2.0, 1.0, -1.0], 2).unwrap();
/// assert_eq!(x, vec![0.0, -2.0, 1.0, 0.0]); // the tie |1| = |-1| goes to the lower index
/// ```
pub fn project_top_k(y: &[f64], k: usize) -> Result<Vec<f64>> {
    let mut out = vec![0.0; y.len()];
    project_top_k_into(y, k, &mut out)?;
    Ok(out)
}

/// Keeps the `k` entries of `y` with the largest `|y_i|`, writing into `out`.
///
/// The magnitudes are copied into `out`, `select_nth_unstable_by` finds the `k`-th largest
/// magnitude `t`, and a final pass keeps every entry above `t` and the first (lowest-index)
/// entries equal to `t` until `k` are kept. This is a Euclidean projection onto the (non-convex)
/// set of `k`-sparse vectors; the tie rule makes it a function.
///
/// # Arguments
/// * `y` – the point to project (finite values).
/// * `k` – how many entries to keep, `0 ≤ k ≤ y.len()`.
/// * `out` – output buffer of the same length.
///
/// # Returns
/// `Ok(())` with the result in `out`.
///
/// # Errors
/// [`ProjError::KOutOfRange`], [`ProjError::LengthMismatch`], [`ProjError::NonFinite`].
///
/// # Complexity
/// Expected O(n) time, no allocation.
///
/// # Example
/// ```
/// let mut out = [9.0; 3];
/// graphsparse_proj::project_top_k_into(&[3.0, -4.0, 1.0], 1, &mut out).unwrap();
/// assert_eq!(out, [0.0, -4.0, 0.0]);
/// ```
pub fn project_top_k_into(y: &[f64], k: usize, out: &mut [f64]) -> Result<()> {
    let n = y.len();
    check_len("out", n, out.len())?;
    if k > n {
        return Err(ProjError::KOutOfRange { k, len: n });
    }
    check_finite(y, "y", 0)?;
    if k == 0 {
        out.fill(0.0);
        return Ok(());
    }
    if k == n {
        out.copy_from_slice(y);
        return Ok(());
    }
    for (o, &v) in out.iter_mut().zip(y) {
        *o = v.abs();
    }
    let (above, kth, _) = out.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    let t = *kth;
    let greater = above.iter().filter(|&&a| a > t).count();
    let mut ties = k - greater;
    for (o, &v) in out.iter_mut().zip(y) {
        let a = v.abs();
        *o = if a > t {
            v
        } else if a == t && ties > 0 {
            ties -= 1;
            v
        } else {
            0.0
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_largest_and_breaks_ties_by_index() {
        let y = [1.0, -3.0, 3.0, 2.0, -3.0, 0.0];
        assert_eq!(project_top_k(&y, 0).unwrap(), vec![0.0; 6]);
        assert_eq!(
            project_top_k(&y, 1).unwrap(),
            vec![0.0, -3.0, 0.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(
            project_top_k(&y, 2).unwrap(),
            vec![0.0, -3.0, 3.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(
            project_top_k(&y, 3).unwrap(),
            vec![0.0, -3.0, 3.0, 0.0, -3.0, 0.0]
        );
        assert_eq!(
            project_top_k(&y, 4).unwrap(),
            vec![0.0, -3.0, 3.0, 2.0, -3.0, 0.0]
        );
        assert_eq!(project_top_k(&y, 6).unwrap(), y.to_vec());
        assert_eq!(project_top_k(&[0.0; 4], 2).unwrap(), vec![0.0; 4]);
    }

    #[test]
    fn errors() {
        assert_eq!(
            project_top_k(&[1.0], 2),
            Err(ProjError::KOutOfRange { k: 2, len: 1 })
        );
        assert!(matches!(
            project_top_k(&[1.0, f64::NEG_INFINITY], 1),
            Err(ProjError::NonFinite {
                arg: "y",
                index: 1,
                ..
            })
        ));
        assert_eq!(project_top_k(&[], 0).unwrap(), Vec::<f64>::new());
    }
}
