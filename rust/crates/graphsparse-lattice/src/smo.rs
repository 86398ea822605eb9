//! SVM dual by SMO with second-order working-set selection (Fan, Chen & Lin 2005), on a dense
//! precomputed kernel, for one task or `T` tasks coupled by `B = I + c·11ᵀ`.
//!
//! Problem (per call): `min ½ βᵀ (B ⊗ K) β − 1ᵀα` over `0 ≤ α ≤ C`, `y_tᵀ α_t = 0` for each
//! task `t`, with `β = y ⊙ α`. Notation: `G = Qα − 1` is the gradient, `Q_kl = y_k y_l
//! B_{t(k) t(l)} K_{i(k) i(l)}`; `I_up`/`I_low` are LIBSVM's index sets. Working pairs are
//! always taken inside one task so that each task's equality constraint stays satisfied.

use graphsparse_budget::Meter;
use rayon::prelude::*;

use crate::gram::DenseGram;

/// Curvature used for pairs whose kernel curvature is not positive (the REL kernels are
/// low-rank, so such pairs are common).
const TAU: f64 = 1e-12;

/// Iterations between two polls of the budget.
const POLL_EVERY: usize = 1024;

/// One task's slices for an independent solve: `((α_t, G_t), scratch_t), (b_t, y_t)`.
type TaskSlot<'a> = (
    ((&'a mut [f64], &'a mut [f64]), &'a mut [f64]),
    (&'a mut f64, &'a [f64]),
);

/// What one SVM solve did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SvmStats {
    pub iterations: usize,
    pub converged: bool,
}

/// One SVM problem on a shared kernel.
pub(crate) struct SvmSpec<'a> {
    pub gram: &'a DenseGram,
    /// Labels ±1, task-major (`T · m`).
    pub y: &'a [f64],
    pub tasks: usize,
    /// `c` in `B = I + c·11ᵀ` (0: independent tasks).
    pub coupling: f64,
    pub cost: f64,
    pub tol: f64,
    pub max_iter: usize,
}

/// Solves the SVM dual, warm-started from `alpha` (made feasible first), writing the biases.
///
/// `grad` and `scratch` are `T · m` work buffers. Independent tasks (`coupling == 0`) are
/// solved one by one, in parallel on the current rayon pool when `parallel`; the result does
/// not depend on it.
pub(crate) fn solve_svm(
    spec: &SvmSpec,
    alpha: &mut [f64],
    bias: &mut [f64],
    grad: &mut [f64],
    scratch: &mut [f64],
    meter: Option<&Meter>,
    parallel: bool,
) -> SvmStats {
    let m = spec.gram.m();
    if spec.coupling == 0.0 && spec.tasks > 1 {
        let solve_one = |(((a, g), s), (b, y)): TaskSlot| {
            let one = SvmSpec {
                gram: spec.gram,
                y,
                tasks: 1,
                coupling: 0.0,
                cost: spec.cost,
                tol: spec.tol,
                max_iter: spec.max_iter,
            };
            smo(&one, a, std::slice::from_mut(b), g, s, meter)
        };
        let stats: Vec<SvmStats> = if parallel {
            alpha
                .par_chunks_mut(m)
                .zip(grad.par_chunks_mut(m))
                .zip(scratch.par_chunks_mut(m))
                .zip(bias.par_iter_mut().zip(spec.y.par_chunks(m)))
                .map(solve_one)
                .collect()
        } else {
            alpha
                .chunks_mut(m)
                .zip(grad.chunks_mut(m))
                .zip(scratch.chunks_mut(m))
                .zip(bias.iter_mut().zip(spec.y.chunks(m)))
                .map(solve_one)
                .collect()
        };
        return stats.iter().fold(
            SvmStats {
                iterations: 0,
                converged: true,
            },
            |acc, s| SvmStats {
                iterations: acc.iterations + s.iterations,
                converged: acc.converged && s.converged,
            },
        );
    }
    smo(spec, alpha, bias, grad, scratch, meter)
}

fn make_feasible(y: &[f64], alpha: &mut [f64], cost: f64) {
    let mut bad = false;
    let mut net = 0.0;
    for (a, &yk) in alpha.iter_mut().zip(y) {
        if !a.is_finite() {
            bad = true;
        }
        *a = a.clamp(0.0, cost);
        net += yk * *a;
    }
    if bad || net.abs() > 1e-9 * cost * y.len() as f64 {
        alpha.iter_mut().for_each(|a| *a = 0.0);
    }
}

fn smo(
    spec: &SvmSpec,
    alpha: &mut [f64],
    bias: &mut [f64],
    g: &mut [f64],
    u: &mut [f64],
    meter: Option<&Meter>,
) -> SvmStats {
    let (gram, y, nt, c, cost) = (spec.gram, spec.y, spec.tasks, spec.coupling, spec.cost);
    let m = gram.m();
    for s in 0..nt {
        make_feasible(&y[s * m..(s + 1) * m], &mut alpha[s * m..(s + 1) * m], cost);
    }
    // G = y ⊙ ((B ⊗ K) β) − 1, with (B ⊗ K) β = K β_t + c Σ_s K β_s per task
    let mut beta = vec![0.0; m];
    for s in 0..nt {
        let out = &mut u[s * m..(s + 1) * m];
        if alpha[s * m..(s + 1) * m].iter().all(|&a| a == 0.0) {
            out.iter_mut().for_each(|x| *x = 0.0);
            continue;
        }
        for i in 0..m {
            beta[i] = y[s * m + i] * alpha[s * m + i];
        }
        gram.matvec_into(&beta, out);
    }
    let bt = 1.0 + c;
    for i in 0..m {
        let shared = if c != 0.0 {
            c * (0..nt).map(|s| u[s * m + i]).sum::<f64>()
        } else {
            0.0
        };
        for s in 0..nt {
            let k = s * m + i;
            g[k] = y[k] * (u[k] + shared) - 1.0;
        }
    }
    let mut stats = SvmStats::default();
    let mut ki = vec![0.0; m];
    let mut kj = vec![0.0; m];
    while stats.iterations < spec.max_iter {
        if stats.iterations % POLL_EVERY == POLL_EVERY - 1 && meter.is_some_and(|mt| mt.poll()) {
            break;
        }
        // first index: the task with the largest maximal violation, and its maximiser
        let mut best: Option<(usize, usize, f64)> = None; // (task, i, Gmax)
        let mut best_viol = f64::NEG_INFINITY;
        for s in 0..nt {
            let (mut gmax, mut imax, mut gmin) = (f64::NEG_INFINITY, usize::MAX, f64::INFINITY);
            for k in s * m..(s + 1) * m {
                let (yk, ak) = (y[k], alpha[k]);
                let v = -yk * g[k];
                let up = if yk > 0.0 { ak < cost } else { ak > 0.0 };
                let low = if yk > 0.0 { ak > 0.0 } else { ak < cost };
                if up && v > gmax {
                    gmax = v;
                    imax = k;
                }
                if low && v < gmin {
                    gmin = v;
                }
            }
            let viol = gmax - gmin;
            if imax != usize::MAX && viol > best_viol {
                best_viol = viol;
                best = Some((s, imax, gmax));
            }
        }
        let Some((s, i, gmax)) = best else {
            stats.converged = true;
            break;
        };
        if best_viol < spec.tol {
            stats.converged = true;
            break;
        }
        let ii = i - s * m;
        ki.copy_from_slice(gram.row(ii));
        let kii = ki[ii];
        // second index: largest second-order decrease inside task s
        let (mut j, mut obj_min) = (usize::MAX, f64::INFINITY);
        for l in s * m..(s + 1) * m {
            let (yl, al) = (y[l], alpha[l]);
            let low = if yl > 0.0 { al > 0.0 } else { al < cost };
            if !low {
                continue;
            }
            let v = -yl * g[l];
            if v < gmax {
                let b = gmax - v;
                let ll = l - s * m;
                let mut a = bt * (kii + gram.diag(ll) - 2.0 * ki[ll]);
                if a <= 0.0 {
                    a = TAU;
                }
                let obj = -b * b / a;
                if obj < obj_min {
                    obj_min = obj;
                    j = l;
                }
            }
        }
        if j == usize::MAX {
            stats.converged = true;
            break;
        }
        let jj = j - s * m;
        kj.copy_from_slice(gram.row(jj));
        let (yi, yj) = (y[i], y[j]);
        let (qii, qjj, kij) = (bt * kii, bt * kj[jj], ki[jj]);
        let (old_i, old_j) = (alpha[i], alpha[j]);
        let (mut ai, mut aj) = (old_i, old_j);
        if yi != yj {
            // Q_ij = y_i y_j B_ss K_ij = −B_ss K_ij here
            let quad = qii + qjj - 2.0 * bt * kij;
            let quad = if quad <= 0.0 { TAU } else { quad };
            let delta = (-g[i] - g[j]) / quad;
            let diff = ai - aj;
            ai += delta;
            aj += delta;
            if diff > 0.0 {
                if aj < 0.0 {
                    aj = 0.0;
                    ai = diff;
                }
            } else if ai < 0.0 {
                ai = 0.0;
                aj = -diff;
            }
            if diff > 0.0 {
                if ai > cost {
                    ai = cost;
                    aj = cost - diff;
                }
            } else if aj > cost {
                aj = cost;
                ai = cost + diff;
            }
        } else {
            let quad = qii + qjj - 2.0 * bt * kij;
            let quad = if quad <= 0.0 { TAU } else { quad };
            let delta = (g[i] - g[j]) / quad;
            let sum = ai + aj;
            ai -= delta;
            aj += delta;
            clip_same_label(sum, cost, &mut ai, &mut aj);
            clip_same_label(sum, cost, &mut aj, &mut ai);
        }
        alpha[i] = ai;
        alpha[j] = aj;
        let (di, dj) = (yi * (ai - old_i), yj * (aj - old_j));
        for r in 0..nt {
            let f = if r == s { bt } else { c };
            if f == 0.0 {
                continue;
            }
            for l in 0..m {
                let k = r * m + l;
                g[k] += y[k] * f * (ki[l] * di + kj[l] * dj);
            }
        }
        stats.iterations += 1;
    }
    for s in 0..nt {
        bias[s] = rho(
            &y[s * m..(s + 1) * m],
            &alpha[s * m..(s + 1) * m],
            &g[s * m..(s + 1) * m],
            cost,
        );
    }
    stats
}

/// LIBSVM's clip of a same-label pair back into the box `[0, C]²` along `a + b = sum`, one
/// side at a time: with `sum > C`, `a` is capped at `C`; otherwise `b` is raised to 0. Called
/// for `(α_i, α_j)`, then for `(α_j, α_i)`.
#[inline(always)]
fn clip_same_label(sum: f64, cost: f64, a: &mut f64, b: &mut f64) {
    if sum > cost {
        if *a > cost {
            *a = cost;
            *b = sum - cost;
        }
    } else if *b < 0.0 {
        *b = 0.0;
        *a = sum;
    }
}

/// LIBSVM's bias: the mean of `y_k G_k` over free variables, else the midpoint of the
/// feasible interval.
fn rho(y: &[f64], alpha: &[f64], g: &[f64], cost: f64) -> f64 {
    let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut sum, mut n) = (0.0, 0usize);
    for ((&yk, &ak), &gk) in y.iter().zip(alpha).zip(g) {
        let yg = yk * gk;
        if ak >= cost {
            if yk < 0.0 {
                ub = ub.min(yg);
            } else {
                lb = lb.max(yg);
            }
        } else if ak <= 0.0 {
            if yk > 0.0 {
                ub = ub.min(yg);
            } else {
                lb = lb.max(yg);
            }
        } else {
            sum += yg;
            n += 1;
        }
    }
    if n > 0 {
        sum / n as f64
    } else {
        match (ub.is_finite(), lb.is_finite()) {
            (true, true) => 0.5 * (ub + lb),
            (true, false) => ub,
            (false, true) => lb,
            (false, false) => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gram_from_features(x: &[Vec<f64>]) -> DenseGram {
        let m = x.len();
        let mut k = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                k[i * m + j] = x[i].iter().zip(&x[j]).map(|(a, b)| a * b).sum();
            }
        }
        DenseGram::from_entries(m, k)
    }

    fn dual_objective(gram: &DenseGram, y: &[f64], alpha: &[f64]) -> f64 {
        let m = gram.m();
        let beta: Vec<f64> = y.iter().zip(alpha).map(|(a, b)| a * b).collect();
        let mut kb = vec![0.0; m];
        gram.matvec_into(&beta, &mut kb);
        alpha.iter().sum::<f64>() - 0.5 * beta.iter().zip(&kb).map(|(a, b)| a * b).sum::<f64>()
    }

    fn primal_objective(gram: &DenseGram, y: &[f64], alpha: &[f64], b: f64, cost: f64) -> f64 {
        let m = gram.m();
        let beta: Vec<f64> = y.iter().zip(alpha).map(|(a, b)| a * b).collect();
        let mut kb = vec![0.0; m];
        gram.matvec_into(&beta, &mut kb);
        let reg = 0.5 * beta.iter().zip(&kb).map(|(a, b)| a * b).sum::<f64>();
        reg + cost
            * (0..m)
                .map(|i| (1.0 - y[i] * (kb[i] - b)).max(0.0))
                .sum::<f64>()
    }

    fn spec<'a>(gram: &'a DenseGram, y: &'a [f64], tasks: usize, c: f64, cost: f64) -> SvmSpec<'a> {
        SvmSpec {
            gram,
            y,
            tasks,
            coupling: c,
            cost,
            tol: 1e-9,
            max_iter: 100_000,
        }
    }

    #[test]
    fn smo_closes_the_duality_gap() {
        let x: Vec<Vec<f64>> = (0..12)
            .map(|i| vec![(i as f64 * 0.37).sin(), (i as f64 * 1.3).cos(), 1.0])
            .collect();
        let y: Vec<f64> = (0..12)
            .map(|i| if (i * 7) % 5 < 2 { 1.0 } else { -1.0 })
            .collect();
        let gram = gram_from_features(&x);
        for cost in [0.1, 1.0, 10.0] {
            let mut alpha = vec![0.0; 12];
            let mut bias = [0.0];
            let (mut g, mut u) = (vec![0.0; 12], vec![0.0; 12]);
            let st = solve_svm(
                &spec(&gram, &y, 1, 0.0, cost),
                &mut alpha,
                &mut bias,
                &mut g,
                &mut u,
                None,
                false,
            );
            assert!(st.converged);
            let d = dual_objective(&gram, &y, &alpha);
            let p = primal_objective(&gram, &y, &alpha, bias[0], cost);
            assert!(
                (p - d).abs() <= 1e-6 * (1.0 + d.abs()),
                "C={cost}: p={p} d={d}"
            );
            let net: f64 = y.iter().zip(&alpha).map(|(a, b)| a * b).sum();
            assert!(net.abs() < 1e-12 && alpha.iter().all(|&a| (0.0..=cost).contains(&a)));
        }
    }

    #[test]
    fn joint_independent_tasks_equal_separate_ones() {
        let x: Vec<Vec<f64>> = (0..10)
            .map(|i| vec![(i as f64).sin(), 1.0, (i % 3) as f64])
            .collect();
        let gram = gram_from_features(&x);
        let y: Vec<f64> = (0..20)
            .map(|k| if (k * 5 + k / 10) % 3 == 0 { 1.0 } else { -1.0 })
            .collect();
        // joint: run the coupled code path with c = 0 through `smo` directly
        let mut a_joint = vec![0.0; 20];
        let mut b_joint = [0.0; 2];
        let (mut g, mut u) = (vec![0.0; 20], vec![0.0; 20]);
        smo(
            &spec(&gram, &y, 2, 0.0, 1.0),
            &mut a_joint,
            &mut b_joint,
            &mut g,
            &mut u,
            None,
        );
        let mut a_sep = vec![0.0; 20];
        let mut b_sep = [0.0; 2];
        solve_svm(
            &spec(&gram, &y, 2, 0.0, 1.0),
            &mut a_sep,
            &mut b_sep,
            &mut g,
            &mut u,
            None,
            true,
        );
        for s in 0..2 {
            let d1 = dual_objective(
                &gram,
                &y[s * 10..(s + 1) * 10],
                &a_joint[s * 10..(s + 1) * 10],
            );
            let d2 = dual_objective(
                &gram,
                &y[s * 10..(s + 1) * 10],
                &a_sep[s * 10..(s + 1) * 10],
            );
            assert!((d1 - d2).abs() < 1e-7, "{d1} {d2}");
        }
    }

    #[test]
    fn coupled_tasks_keep_each_equality_constraint() {
        let x: Vec<Vec<f64>> = (0..8).map(|i| vec![(i as f64 * 0.9).cos(), 1.0]).collect();
        let gram = gram_from_features(&x);
        let y: Vec<f64> = (0..16)
            .map(|k| if k % 3 == 0 { 1.0 } else { -1.0 })
            .collect();
        let mut a = vec![0.0; 16];
        let mut b = [0.0; 2];
        let (mut g, mut u) = (vec![0.0; 16], vec![0.0; 16]);
        let st = solve_svm(
            &spec(&gram, &y, 2, 0.5, 2.0),
            &mut a,
            &mut b,
            &mut g,
            &mut u,
            None,
            false,
        );
        assert!(st.converged);
        for s in 0..2 {
            let net: f64 = (0..8).map(|i| y[s * 8 + i] * a[s * 8 + i]).sum();
            assert!(net.abs() < 1e-12);
        }
    }
}
