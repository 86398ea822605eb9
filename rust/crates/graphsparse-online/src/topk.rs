//! Exact top-`s` projection (the head and tail of the non-graph model, DA-IHT's projection).

use std::cmp::Ordering;

/// Order "larger `|v_i|` first, then smaller index first": a strict total order on indices.
#[inline]
fn by_magnitude(v: &[f64], i: usize, j: usize) -> Ordering {
    v[j].abs().total_cmp(&v[i].abs()).then(i.cmp(&j))
}

/// Writes the indices of the `s` entries of `v` largest in magnitude into `out`, ascending.
///
/// Ties in `|v_i|` go to the smaller index, so the result is unique. `s` larger than `v.len()`
/// selects every index. `out` is cleared first and reused; no allocation happens once it has
/// capacity `v.len()`.
///
/// # Complexity
/// O(p) expected for the selection plus O(s log s) to sort the support.
///
/// # Example
/// ```
/// let mut out = Vec::new();
/// graphsparse_online::top_s_support_into(&[0.5, -2.0, 1.0, 2.0], 2, &mut out);
/// assert_eq!(out, vec![1, 3]);
/// ```
pub fn top_s_support_into(v: &[f64], s: usize, out: &mut Vec<usize>) {
    out.clear();
    out.extend(0..v.len());
    if s < v.len() {
        if s == 0 {
            out.clear();
            return;
        }
        out.select_nth_unstable_by(s - 1, |&i, &j| by_magnitude(v, i, j));
        out.truncate(s);
    }
    out.sort_unstable();
}

/// The top-`s` support of `v` (allocating form of [`top_s_support_into`]).
pub fn top_s_support(v: &[f64], s: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(v.len());
    top_s_support_into(v, s, &mut out);
    out
}

/// `P(v, S)`: copies `v` on `support` into `out` and zeroes the rest.
///
/// `out` must have the length of `v`; `support` must index into it.
pub fn restrict_into(v: &[f64], support: &[usize], out: &mut [f64]) {
    out.fill(0.0);
    for &i in support {
        out[i] = v[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_best(v: &[f64], s: usize) -> f64 {
        let p = v.len();
        let mut best = 0.0f64;
        for mask in 0u32..(1 << p) {
            if mask.count_ones() as usize == s.min(p) {
                let e: f64 = (0..p)
                    .filter(|&i| mask >> i & 1 == 1)
                    .map(|i| v[i] * v[i])
                    .sum();
                best = best.max(e);
            }
        }
        best
    }

    #[test]
    fn ties_go_to_smaller_index() {
        assert_eq!(top_s_support(&[1.0, -1.0, 1.0, 0.5], 2), vec![0, 1]);
        assert_eq!(top_s_support(&[0.0, 0.0, 0.0], 1), vec![0]);
        assert_eq!(top_s_support(&[0.0, 3.0], 0), Vec::<usize>::new());
        assert_eq!(top_s_support(&[0.0, 3.0], 5), vec![0, 1]);
    }

    proptest! {
        #[test]
        fn prop_top_s_is_exact_head(v in proptest::collection::vec(-3i32..4, 1..12), s in 0usize..13) {
            let v: Vec<f64> = v.into_iter().map(|x| f64::from(x) * 0.75).collect();
            let sup = top_s_support(&v, s);
            prop_assert_eq!(sup.len(), s.min(v.len()));
            let e: f64 = sup.iter().map(|&i| v[i] * v[i]).sum();
            let best = brute_best(&v, s);
            prop_assert!((e - best).abs() <= 1e-12 * (1.0 + best));
            // ties by ascending index: every unselected index is strictly smaller in magnitude,
            // or equal in magnitude with a larger index than every selected equal entry
            for i in 0..v.len() {
                if sup.binary_search(&i).is_err() {
                    for &j in &sup {
                        prop_assert!(v[j].abs() > v[i].abs() || (v[j].abs() == v[i].abs() && j < i));
                    }
                }
            }
        }
    }
}
