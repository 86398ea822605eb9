//! Dense Cholesky factorisation and solves for the small symmetric positive definite systems
//! of the solvers (Anderson mixing, kernel ridge, the SMO's Newton steps): row-major `n × n`,
//! no allocation, and the same arithmetic order everywhere so results do not depend on which
//! solver asked.

/// Factors `A + ridge·I = L Lᵀ` in place: the lower triangle of the row-major `n × n` matrix
/// `a` becomes `L` (the strict upper triangle is left as it was). `false` when a pivot is not
/// a positive finite number, i.e. the matrix is not (numerically) positive definite.
pub fn cholesky_in_place(a: &mut [f64], n: usize, ridge: f64) -> bool {
    cholesky_in_place_until(a, n, ridge, || false) == Some(true)
}

/// [`cholesky_in_place`] that asks `stop` before each column whether to give up (column `j`
/// costs `O((n − j) j)`, so a caller polling a time limit there waits at most one column):
/// `None` when it gave up, the lower triangle then partly factored and unusable; else
/// `Some` of what [`cholesky_in_place`] returns, with the same arithmetic.
pub fn cholesky_in_place_until(
    a: &mut [f64],
    n: usize,
    ridge: f64,
    mut stop: impl FnMut() -> bool,
) -> Option<bool> {
    debug_assert!(a.len() >= n * n);
    for j in 0..n {
        if stop() {
            return None;
        }
        let mut d = a[j * n + j] + ridge;
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if !(d.is_finite() && d > 0.0) {
            return Some(false);
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    Some(true)
}

/// Solves `L Lᵀ x = b` in place, `L` the factor written by [`cholesky_in_place`].
pub fn cholesky_solve(l: &[f64], n: usize, b: &mut [f64]) {
    debug_assert!(l.len() >= n * n && b.len() >= n);
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i * n + k] * b[k];
        }
        b[i] = s / l[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= l[k * n + i] * b[k];
        }
        b[i] = s / l[i * n + i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_test_gives_up_between_columns_and_changes_nothing_otherwise() {
        // A = B Bᵀ + I for a 5 × 5 B with entries in [−1, 1]
        let n = 5;
        let b: Vec<f64> = (0..n * n)
            .map(|k| ((k * 7) % 11) as f64 / 5.0 - 1.0)
            .collect();
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum::<f64>();
            }
            a[i * n + i] += 1.0;
        }
        let mut plain = a.clone();
        assert!(cholesky_in_place(&mut plain, n, 0.5));
        let mut asked = 0;
        let mut until = a.clone();
        let done = cholesky_in_place_until(&mut until, n, 0.5, || {
            asked += 1;
            false
        });
        assert_eq!((done, asked), (Some(true), n));
        assert_eq!(until, plain);
        let mut asked = 0;
        let mut cut = a.clone();
        let done = cholesky_in_place_until(&mut cut, n, 0.5, || {
            asked += 1;
            asked > 2
        });
        assert_eq!((done, asked), (None, 3));
        // two columns factored, the rest untouched
        for i in 0..n {
            for j in 0..n {
                let want = if j < 2 && i >= j {
                    plain[i * n + j]
                } else {
                    a[i * n + j]
                };
                assert_eq!(cut[i * n + j], want, "{i} {j}");
            }
        }
        let mut not_pd = vec![1.0, 2.0, 2.0, 1.0];
        assert_eq!(
            cholesky_in_place_until(&mut not_pd, 2, 0.0, || false),
            Some(false)
        );
    }

    #[test]
    fn solves_a_small_spd_system() {
        // A = [[4, 2], [2, 3]], b = A·[1, −2] = [0, −4]
        let mut a = [4.0, 2.0, 2.0, 3.0];
        let mut b = [0.0, -4.0];
        assert!(cholesky_in_place(&mut a, 2, 0.0));
        assert_eq!(&a[..1], &[2.0]);
        cholesky_solve(&a, 2, &mut b);
        assert!((b[0] - 1.0).abs() < 1e-14 && (b[1] + 2.0).abs() < 1e-14);
    }

    #[test]
    fn the_ridge_is_added_to_the_diagonal() {
        // [[1, 1], [1, 1]] is singular; with ridge 1 it is [[2, 1], [1, 2]]
        let mut singular = [1.0, 1.0, 1.0, 1.0];
        assert!(!cholesky_in_place(&mut singular.clone(), 2, 0.0));
        assert!(cholesky_in_place(&mut singular, 2, 1.0));
        let mut b = [3.0, 3.0]; // = [[2, 1], [1, 2]]·[1, 1]
        cholesky_solve(&singular, 2, &mut b);
        assert!((b[0] - 1.0).abs() < 1e-14 && (b[1] - 1.0).abs() < 1e-14);
    }

    #[test]
    fn matches_the_explicit_product_on_a_random_system() {
        let n = 7;
        let mut rng = crate::SplitMix64::new(3);
        let m: Vec<f64> = (0..n * n).map(|_| rng.uniform() - 0.5).collect();
        // A = M Mᵀ + I is positive definite
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = (0..n).map(|k| m[i * n + k] * m[j * n + k]).sum::<f64>()
                    + if i == j { 1.0 } else { 0.0 };
            }
        }
        let x: Vec<f64> = (0..n).map(|i| i as f64 - 3.0).collect();
        let mut b: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum())
            .collect();
        let mut l = a.clone();
        assert!(cholesky_in_place(&mut l, n, 0.0));
        cholesky_solve(&l, n, &mut b);
        for (got, want) in b.iter().zip(&x) {
            assert!((got - want).abs() < 1e-10, "{got} vs {want}");
        }
    }

    #[test]
    fn rejects_nan_and_infinite_pivots() {
        assert!(!cholesky_in_place(&mut [f64::NAN], 1, 0.0));
        assert!(!cholesky_in_place(&mut [f64::INFINITY], 1, 0.0));
        assert!(!cholesky_in_place(&mut [-1.0], 1, 0.5));
    }
}
