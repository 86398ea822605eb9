//! Projection onto `{x : ‖x‖₀ ≤ k}`: keep the `k` entries of largest magnitude.

use crate::error::{ProjError, Result};
use graphsparse_base::{check_finite, check_len};

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
/// [`ProjError::KOutOfRange`], [`ProjError::Input`].
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
/// [`ProjError::KOutOfRange`], [`ProjError::Input`], [`ProjError::Input`].
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
    check_len("out", out.len(), n)?;
    if k > n {
        return Err(ProjError::KOutOfRange { k, len: n });
    }
    check_finite("y", y)?;
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

/// The support of the top-`k` projection: the indices of the `k` entries of `y` largest in
/// magnitude, ascending, written into `out`.
///
/// The index form of [`project_top_k_into`], with the same tie rule (among equal magnitudes the
/// lower indices win), so `project_top_k(y, k)` is `y` restricted to this support. Learners that
/// keep a support between steps (hard thresholding, dual averaging) use it.
///
/// # Arguments
/// * `y` – the point (finite values).
/// * `k` – how many indices to keep, `0 ≤ k ≤ y.len()`.
/// * `out` – cleared and refilled; no allocation once it has capacity `y.len()`.
///
/// # Returns
/// `Ok(())` with the `k` indices in `out`, ascending.
///
/// # Errors
/// [`ProjError::KOutOfRange`], [`ProjError::Input`].
///
/// # Complexity
/// Expected O(n) for the selection plus O(k log k) to sort the support.
///
/// # Example
/// ```
/// let mut out = Vec::new();
/// graphsparse_proj::top_k_support_into(&[0.5, -2.0, 1.0, 2.0], 2, &mut out).unwrap();
/// assert_eq!(out, vec![1, 3]);
/// ```
pub fn top_k_support_into(y: &[f64], k: usize, out: &mut Vec<usize>) -> Result<()> {
    let n = y.len();
    if k > n {
        return Err(ProjError::KOutOfRange { k, len: n });
    }
    check_finite("y", y)?;
    out.clear();
    if k == 0 {
        return Ok(());
    }
    out.extend(0..n);
    if k < n {
        // larger magnitude first, then the lower index: a strict total order
        out.select_nth_unstable_by(k - 1, |&i, &j| {
            y[j].abs().total_cmp(&y[i].abs()).then(i.cmp(&j))
        });
        out.truncate(k);
    }
    out.sort_unstable();
    Ok(())
}

/// The support of the top-`k` projection (allocating form of [`top_k_support_into`]).
///
/// # Errors
/// As [`top_k_support_into`].
///
/// # Example
/// ```
/// assert_eq!(graphsparse_proj::top_k_support(&[1.0, -1.0, 1.0], 2).unwrap(), vec![0, 1]);
/// ```
pub fn top_k_support(y: &[f64], k: usize) -> Result<Vec<usize>> {
    let mut out = Vec::with_capacity(y.len());
    top_k_support_into(y, k, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphsparse_base::InputError;

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
            Err(ProjError::Input(InputError::NotFinite {
                arg: "y",
                index: 1,
                ..
            }))
        ));
        assert_eq!(project_top_k(&[], 0).unwrap(), Vec::<f64>::new());
    }

    #[test]
    fn support_matches_the_projection_and_breaks_ties_by_index() {
        assert_eq!(
            top_k_support(&[1.0, -1.0, 1.0, 0.5], 2).unwrap(),
            vec![0, 1]
        );
        assert_eq!(top_k_support(&[0.0, 0.0, 0.0], 1).unwrap(), vec![0]);
        assert_eq!(top_k_support(&[0.0, 3.0], 0).unwrap(), Vec::<usize>::new());
        assert_eq!(top_k_support(&[0.0, 3.0], 2).unwrap(), vec![0, 1]);
        assert_eq!(
            top_k_support(&[0.0, 3.0], 3),
            Err(ProjError::KOutOfRange { k: 3, len: 2 })
        );
        assert!(top_k_support(&[f64::NAN, 1.0], 1).is_err());
    }

    proptest::proptest! {
        #[test]
        fn prop_support_is_the_nonzero_pattern_of_the_projection(
            v in proptest::collection::vec(-3i32..4, 0..14),
            k in 0usize..15,
        ) {
            let v: Vec<f64> = v.into_iter().map(|x| f64::from(x) * 0.75).collect();
            let k = k.min(v.len());
            let sup = top_k_support(&v, k).unwrap();
            let x = project_top_k(&v, k).unwrap();
            proptest::prop_assert_eq!(sup.len(), k);
            proptest::prop_assert!(sup.windows(2).all(|w| w[0] < w[1]));
            let mut restricted = vec![0.0; v.len()];
            for &i in &sup {
                restricted[i] = v[i];
            }
            proptest::prop_assert_eq!(restricted, x);
        }
    }
}
