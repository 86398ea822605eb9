//! The squared-loss inner problem for a fixed kernel: a kernel ridge system with one bias per
//! task (spec §3.4).
//!
//! With `ℓ(y, z) = ½(y − z)²`, the dual `max_{1ᵀα_t = 0} yᵀα − ‖α‖²/(2C) − ½ αᵀ(B ⊗ K)α` is
//! solved by `(B ⊗ K + I/C) α − b ⊗ 1 = y`, `1ᵀα_t = 0`; the fit is `F = (B ⊗ K)α − b` and
//! the residual is `y − F = α / C`.

use graphsparse_base::{Meter, cholesky_in_place_until, cholesky_solve};

use crate::gram::DenseGram;

/// Reused buffers of the ridge solves.
#[derive(Debug, Default)]
pub(crate) struct RidgeWork {
    chol: Vec<f64>,
    rhs: Vec<f64>,
}

/// Solves the ridge system for `T` tasks on kernel `gram` with coupling `B = I + c·11ᵀ`.
///
/// Writes `alpha` (`T · m`, signed) and `bias` (`T`). `false` when `meter` stopped the
/// factorisation (polled before each of its columns): `alpha` and `bias` are then left as
/// they were.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_ridge(
    gram: &DenseGram,
    y: &[f64],
    tasks: usize,
    coupling: f64,
    cost: f64,
    alpha: &mut [f64],
    bias: &mut [f64],
    work: &mut RidgeWork,
    meter: Option<&Meter>,
) -> bool {
    let m = gram.m();
    let blocks = if coupling == 0.0 { 1 } else { tasks };
    let n = m * blocks;
    work.chol.resize(n * n, 0.0);
    let max_diag = (0..m).map(|i| gram.diag(i)).fold(0.0f64, f64::max);
    let mut ridge = 1.0 / cost;
    let mut attempts = 0;
    loop {
        attempts += 1;
        if attempts > 40 || !ridge.is_finite() {
            // no usable factorisation (C so small that 1/C overflows, or a non-finite
            // kernel): the kernel part is negligible, so α = 0 with the mean as the fit
            for t in 0..tasks {
                let ys = &y[t * m..(t + 1) * m];
                bias[t] = -ys.iter().sum::<f64>() / m as f64;
                alpha[t * m..(t + 1) * m].iter_mut().for_each(|a| *a = 0.0);
            }
            return true;
        }
        for r in 0..blocks {
            for s in 0..blocks {
                let f = if r == s { 1.0 + coupling } else { coupling };
                for i in 0..m {
                    let row = gram.row(i);
                    let dst = &mut work.chol[(r * m + i) * n + s * m..(r * m + i) * n + s * m + m];
                    for (d, &k) in dst.iter_mut().zip(row) {
                        *d = f * k;
                    }
                }
            }
        }
        for i in 0..n {
            work.chol[i * n + i] += ridge;
        }
        match cholesky_in_place_until(&mut work.chol, n, 0.0, || meter.is_some_and(|mt| mt.poll()))
        {
            None => return false,
            Some(true) => break,
            Some(false) => {}
        }
        // numerically singular (C huge against K): regularise a little more
        ridge = (ridge * 10.0).max(1e-12 * (1.0 + max_diag));
    }
    // z_y = A⁻¹ y and z_s = A⁻¹ (e_s ⊗ 1) per block system
    work.rhs.resize((tasks + tasks) * m, 0.0);
    let (zy, zone) = work.rhs.split_at_mut(tasks * m);
    zy.copy_from_slice(y);
    if blocks == 1 {
        for s in 0..tasks {
            cholesky_solve(&work.chol, m, &mut zy[s * m..(s + 1) * m]);
        }
        let one = &mut zone[..m];
        one.iter_mut().for_each(|x| *x = 1.0);
        cholesky_solve(&work.chol, m, one);
        let den: f64 = one.iter().sum();
        for s in 0..tasks {
            let num: f64 = zy[s * m..(s + 1) * m].iter().sum();
            // α = A⁻¹(y + b·1) with 1ᵀα = 0
            let b = -num / den;
            bias[s] = b;
            for i in 0..m {
                alpha[s * m + i] = zy[s * m + i] + b * one[i];
            }
        }
        return true;
    }
    cholesky_solve(&work.chol, n, zy);
    let mut zs = vec![0.0; tasks * n];
    for s in 0..tasks {
        let z = &mut zs[s * n..(s + 1) * n];
        z[s * m..(s + 1) * m].iter_mut().for_each(|x| *x = 1.0);
        cholesky_solve(&work.chol, n, z);
    }
    // E b = −r with E_ts = 1ᵀ(z_s)_t, r_t = 1ᵀ(z_y)_t; small dense solve (Gauss with pivoting)
    let mut e = vec![0.0; tasks * (tasks + 1)];
    for t in 0..tasks {
        for s in 0..tasks {
            e[t * (tasks + 1) + s] = zs[s * n + t * m..s * n + (t + 1) * m].iter().sum();
        }
        e[t * (tasks + 1) + tasks] = -zy[t * m..(t + 1) * m].iter().sum::<f64>();
    }
    let b = gauss(&mut e, tasks);
    for k in 0..n {
        alpha[k] = zy[k] + (0..tasks).map(|s| b[s] * zs[s * n + k]).sum::<f64>();
    }
    bias[..tasks].copy_from_slice(&b);
    true
}

/// Solves the `n × n` system stored as an augmented `n × (n+1)` row-major matrix.
fn gauss(a: &mut [f64], n: usize) -> Vec<f64> {
    let w = n + 1;
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&r, &s| a[r * w + col].abs().total_cmp(&a[s * w + col].abs()))
            .expect("invariant: col < n");
        if piv != col {
            for k in 0..w {
                a.swap(col * w + k, piv * w + k);
            }
        }
        let d = a[col * w + col];
        if d == 0.0 {
            continue;
        }
        for r in 0..n {
            if r != col {
                let f = a[r * w + col] / d;
                if f != 0.0 {
                    for k in col..w {
                        a[r * w + k] -= f * a[col * w + k];
                    }
                }
            }
        }
    }
    (0..n)
        .map(|r| {
            let d = a[r * w + r];
            if d == 0.0 { 0.0 } else { a[r * w + n] / d }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_factorisation_leaves_alpha_and_bias_as_they_were() {
        use graphsparse_base::{Budget, RunControl};
        let m = 4;
        #[rustfmt::skip]
        let k = vec![
            2.0, 1.0, 0.0, 1.0,
            1.0, 2.0, 1.0, 0.0,
            0.0, 1.0, 2.0, 1.0,
            1.0, 0.0, 1.0, 2.0,
        ];
        let gram = DenseGram::from_entries(m, k);
        let y = [1.0, -0.5, 2.0, 0.25];
        let ctl = RunControl::new();
        ctl.cancel();
        let meter = Budget::new().start(&ctl);
        let (mut alpha, mut bias) = (vec![0.5, -0.5, 0.25, -0.25], vec![0.75]);
        let stopped = solve_ridge(
            &gram,
            &y,
            1,
            0.0,
            1.0,
            &mut alpha,
            &mut bias,
            &mut RidgeWork::default(),
            Some(&meter),
        );
        assert!(!stopped);
        assert_eq!((alpha, bias), (vec![0.5, -0.5, 0.25, -0.25], vec![0.75]));
    }

    fn check_kkt(gram: &DenseGram, y: &[f64], tasks: usize, c: f64, cost: f64) {
        let m = gram.m();
        let mut alpha = vec![0.0; tasks * m];
        let mut bias = vec![0.0; tasks];
        assert!(solve_ridge(
            gram,
            y,
            tasks,
            c,
            cost,
            &mut alpha,
            &mut bias,
            &mut RidgeWork::default(),
            None,
        ));
        let mut ka = vec![0.0; tasks * m];
        for s in 0..tasks {
            gram.matvec_into(&alpha[s * m..(s + 1) * m], &mut ka[s * m..(s + 1) * m]);
        }
        for t in 0..tasks {
            let sum: f64 = alpha[t * m..(t + 1) * m].iter().sum();
            assert!(sum.abs() < 1e-9, "1ᵀα_t = {sum}");
            for i in 0..m {
                let f =
                    ka[t * m + i] + c * (0..tasks).map(|s| ka[s * m + i]).sum::<f64>() - bias[t];
                let resid = y[t * m + i] - f;
                assert!(
                    (resid - alpha[t * m + i] / cost).abs() < 1e-9,
                    "{resid} vs {}",
                    alpha[t * m + i] / cost
                );
            }
        }
    }

    #[test]
    fn ridge_solution_satisfies_its_optimality_system() {
        let m = 7;
        let mut k = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                k[i * m + j] =
                    ((i * j) % 3) as f64 * 0.3 + if (i + j) % 2 == 0 { 1.0 } else { 0.0 };
            }
        }
        // make it PSD: K ← KᵀK / m
        let mut kk = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                kk[i * m + j] = (0..m).map(|l| k[l * m + i] * k[l * m + j]).sum::<f64>() / m as f64;
            }
        }
        let gram = DenseGram::from_entries(m, kk);
        let y: Vec<f64> = (0..2 * m).map(|i| (i as f64 * 0.7).sin()).collect();
        check_kkt(&gram, &y[..m], 1, 0.0, 3.0);
        check_kkt(&gram, &y, 2, 0.0, 0.5);
        check_kkt(&gram, &y, 2, 0.8, 2.0);
    }
}
