//! SVM dual by SMO with second-order working-set selection (Fan, Chen & Lin 2005), on a dense
//! precomputed kernel, for one task or `T` tasks coupled by `B = I + c·11ᵀ`.
//!
//! Problem (per call): `min ½ βᵀ (B ⊗ K) β − 1ᵀα` over `0 ≤ α ≤ C`, `y_tᵀ α_t = 0` for each
//! task `t`, with `β = y ⊙ α`. Notation: `G = Qα − 1` is the gradient, `Q_kl = y_k y_l
//! B_{t(k) t(l)} K_{i(k) i(l)}`; `I_up`/`I_low` are LIBSVM's index sets. Working pairs are
//! always taken inside one task so that each task's equality constraint stays satisfied.
//!
//! One-task solves also try, every few sweeps, Newton steps on the free variables (an
//! active-set step, [`Newton`]): at large `C` on the low-rank rule kernels SMO alone needs
//! 10⁴–10⁵ iterations per solve, and the Newton step ends most of them after one or two
//! sweeps (TIC-TAC-TOE at ρ = 1.1, C = 1000: 8·10⁶ SMO iterations per fit down to 4·10⁴).

use graphsparse_base::{Meter, Parallel, cholesky_in_place, cholesky_solve};
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
    /// Per-example multiplicity `w_k > 0` (length `m`, shared by the tasks): example `k`
    /// stands for `w_k` identical training rows, so its box is `[0, C w_k]`.
    pub weight: &'a [f64],
    pub tol: f64,
    pub max_iter: usize,
    /// Whether one-task solves try Newton steps on the free set (see [`Newton`]); off only
    /// to compare against plain SMO.
    pub newton: bool,
}

/// Solves the SVM dual, warm-started from `alpha` (made feasible first), writing the biases.
///
/// `grad` and `scratch` are `T · m` work buffers. Independent tasks (`coupling == 0`) are
/// solved one by one, in parallel on the current rayon pool unless `parallel` is
/// [`Parallel::Serial`] (each solve is iterative, its work unknown up front); the result does
/// not depend on it.
pub(crate) fn solve_svm(
    spec: &SvmSpec,
    alpha: &mut [f64],
    bias: &mut [f64],
    grad: &mut [f64],
    scratch: &mut [f64],
    meter: Option<&Meter>,
    parallel: Parallel,
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
                weight: spec.weight,
                tol: spec.tol,
                max_iter: spec.max_iter,
                newton: spec.newton,
            };
            smo(&one, a, std::slice::from_mut(b), g, s, meter)
        };
        let stats: Vec<SvmStats> = if parallel.enabled() {
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

/// LIBSVM's index sets: whether `α_k` may still move up (`I_up`) and down (`I_low`) along
/// `y_k` inside the box `[0, C]`.
#[inline(always)]
fn up_low(yk: f64, ak: f64, cost: f64) -> (bool, bool) {
    if yk > 0.0 {
        (ak < cost, ak > 0.0)
    } else {
        (ak > 0.0, ak < cost)
    }
}

/// A warm start made safe: `α` clipped into the box, or all zeros (always feasible) when it
/// held a non-finite entry or `yᵀα` is not 0.
fn feasible_start(y: &[f64], alpha: &mut [f64], cost: f64, weight: &[f64]) {
    let mut bad = false;
    let mut net = 0.0;
    for ((a, &yk), &wk) in alpha.iter_mut().zip(y).zip(weight) {
        if !a.is_finite() {
            bad = true;
        }
        *a = a.clamp(0.0, cost * wk);
        net += yk * *a;
    }
    if bad || net.abs() > 1e-9 * cost * y.len() as f64 {
        alpha.iter_mut().for_each(|a| *a = 0.0);
    }
}

/// Solves one SVM problem (one task, or tasks coupled by `c`) by SMO from `alpha`, writing the
/// biases; `g` receives the gradient and `u` is scratch.
fn smo(
    spec: &SvmSpec,
    alpha: &mut [f64],
    bias: &mut [f64],
    g: &mut [f64],
    u: &mut [f64],
    meter: Option<&Meter>,
) -> SvmStats {
    let mut run = Smo::start(spec, alpha, g, u);
    while run.stats.iterations < spec.max_iter {
        if run.stats.iterations % POLL_EVERY == POLL_EVERY - 1 && meter.is_some_and(|mt| mt.poll())
        {
            break;
        }
        if run.newton_converged() || run.step() == Pair::Optimal {
            run.stats.converged = true;
            break;
        }
        run.stats.iterations += 1;
    }
    run.finish(bias)
}

/// An SMO run in progress: the problem, the iterate `(α, G)` and the kernel rows of the
/// working pair, advanced one pair at a time by [`Smo::step`].
struct Smo<'s, 'a> {
    spec: &'s SvmSpec<'a>,
    m: usize,
    /// `B_ss = 1 + c`, the diagonal of the task kernel.
    bt: f64,
    alpha: &'s mut [f64],
    g: &'s mut [f64],
    /// Kernel rows of the working pair `(i, j)`.
    ki: Vec<f64>,
    kj: Vec<f64>,
    newton: Newton,
    /// The iteration of the next Newton attempt.
    next_newton: usize,
    stats: SvmStats,
}

/// What one working-pair selection found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pair {
    /// A pair was selected and moved.
    Moved,
    /// No pair violates the KKT conditions by `tol`: the iterate is optimal.
    Optimal,
}

impl<'s, 'a> Smo<'s, 'a> {
    /// Makes every task's `α` feasible and computes `G = y ⊙ ((B ⊗ K) β) − 1`, with
    /// `(B ⊗ K) β = K β_t + c Σ_s K β_s` per task (`u` holds the `K β_s`).
    fn start(spec: &'s SvmSpec<'a>, alpha: &'s mut [f64], g: &'s mut [f64], u: &mut [f64]) -> Self {
        let (gram, y, nt, c, cost) = (spec.gram, spec.y, spec.tasks, spec.coupling, spec.cost);
        let m = gram.m();
        for s in 0..nt {
            feasible_start(
                &y[s * m..(s + 1) * m],
                &mut alpha[s * m..(s + 1) * m],
                cost,
                spec.weight,
            );
        }
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
        Self {
            spec,
            m,
            bt: 1.0 + c,
            alpha,
            g,
            ki: vec![0.0; m],
            kj: vec![0.0; m],
            newton: Newton::default(),
            next_newton: m,
            stats: SvmStats::default(),
        }
    }

    /// Every few sweeps of a one-task solve, a Newton step on the free set; `true` when it
    /// lands on the solution. SMO crawls on the near-singular kernels of large C; once the
    /// free set has settled, one Newton step on it usually lands on the solution.
    fn newton_converged(&mut self) -> bool {
        let spec = self.spec;
        if !(spec.tasks == 1 && spec.newton && self.stats.iterations == self.next_newton) {
            return false;
        }
        if self.newton.solve(spec, self.alpha, self.g) {
            return true;
        }
        self.next_newton += self.m * (1 + self.newton.failures.min(15));
        false
    }

    /// One SMO iteration: selects the working pair and moves it.
    #[inline]
    fn step(&mut self) -> Pair {
        let Some((s, i, gmax, viol)) = self.first_index() else {
            return Pair::Optimal;
        };
        if viol < self.spec.tol {
            return Pair::Optimal;
        }
        let m = self.m;
        let ii = i - s * m;
        self.ki.copy_from_slice(self.spec.gram.row(ii));
        let Some(j) = self.second_index(s, ii, gmax) else {
            return Pair::Optimal;
        };
        self.kj.copy_from_slice(self.spec.gram.row(j - s * m));
        self.update_pair(s, i, j);
        Pair::Moved
    }

    /// The first index: in the task with the largest maximal violation, its maximiser of
    /// `−y_k G_k` over `I_up`; `(task, i, Gmax, violation)`.
    #[inline]
    fn first_index(&self) -> Option<(usize, usize, f64, f64)> {
        let (y, g, alpha, cost, m) = (self.spec.y, &*self.g, &*self.alpha, self.spec.cost, self.m);
        let mut best: Option<(usize, usize, f64, f64)> = None;
        let mut best_viol = f64::NEG_INFINITY;
        for s in 0..self.spec.tasks {
            let (mut gmax, mut imax, mut gmin) = (f64::NEG_INFINITY, usize::MAX, f64::INFINITY);
            for k in s * m..(s + 1) * m {
                let (yk, ak) = (y[k], alpha[k]);
                let v = -yk * g[k];
                let (up, low) = up_low(yk, ak, cost * self.spec.weight[k - s * m]);
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
                best = Some((s, imax, gmax, viol));
            }
        }
        best
    }

    /// The second index inside task `s` (Fan, Chen & Lin's second-order rule): the largest
    /// decrease of the objective over `I_low`, given the first index `ii` (within the task, its
    /// kernel row in `ki`) and its `Gmax`.
    #[inline]
    fn second_index(&self, s: usize, ii: usize, gmax: f64) -> Option<usize> {
        let (y, g, alpha, cost, m) = (self.spec.y, &*self.g, &*self.alpha, self.spec.cost, self.m);
        let gram = self.spec.gram;
        let kii = self.ki[ii];
        let (mut j, mut obj_min) = (None, f64::INFINITY);
        for l in s * m..(s + 1) * m {
            let (yl, al) = (y[l], alpha[l]);
            if !up_low(yl, al, cost * self.spec.weight[l - s * m]).1 {
                continue;
            }
            let v = -yl * g[l];
            if v < gmax {
                let b = gmax - v;
                let ll = l - s * m;
                let mut a = self.bt * (kii + gram.diag(ll) - 2.0 * self.ki[ll]);
                if a <= 0.0 {
                    a = TAU;
                }
                let obj = -b * b / a;
                if obj < obj_min {
                    obj_min = obj;
                    j = Some(l);
                }
            }
        }
        j
    }

    /// Moves `(α_i, α_j)` of task `s` to the minimum of the objective along the pair's
    /// feasible line, clipped to the box, and updates `G` in every task the move touches
    /// (kernel rows in `ki`, `kj`).
    #[inline]
    fn update_pair(&mut self, s: usize, i: usize, j: usize) {
        let (y, cost, m, bt) = (self.spec.y, self.spec.cost, self.m, self.bt);
        let (ii, jj) = (i - s * m, j - s * m);
        let (ci, cj) = (cost * self.spec.weight[ii], cost * self.spec.weight[jj]);
        let (qii, qjj, kij) = (bt * self.ki[ii], bt * self.kj[jj], self.ki[jj]);
        let (yi, yj) = (y[i], y[j]);
        let (old_i, old_j) = (self.alpha[i], self.alpha[j]);
        let (mut ai, mut aj) = (old_i, old_j);
        let g = &mut *self.g;
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
            if diff > ci - cj {
                if ai > ci {
                    ai = ci;
                    aj = ci - diff;
                }
            } else if aj > cj {
                aj = cj;
                ai = cj + diff;
            }
        } else {
            let quad = qii + qjj - 2.0 * bt * kij;
            let quad = if quad <= 0.0 { TAU } else { quad };
            let delta = (g[i] - g[j]) / quad;
            let sum = ai + aj;
            ai -= delta;
            aj += delta;
            clip_same_label(sum, ci, &mut ai, &mut aj);
            clip_same_label(sum, cj, &mut aj, &mut ai);
        }
        self.alpha[i] = ai;
        self.alpha[j] = aj;
        let (di, dj) = (yi * (ai - old_i), yj * (aj - old_j));
        let c = self.spec.coupling;
        for r in 0..self.spec.tasks {
            let f = if r == s { bt } else { c };
            if f == 0.0 {
                continue;
            }
            for l in 0..m {
                let k = r * m + l;
                g[k] += y[k] * f * (self.ki[l] * di + self.kj[l] * dj);
            }
        }
    }

    /// Writes every task's bias (LIBSVM's `ρ`) and returns the statistics.
    fn finish(self, bias: &mut [f64]) -> SvmStats {
        let (y, cost, m) = (self.spec.y, self.spec.cost, self.m);
        for (s, b) in bias.iter_mut().enumerate().take(self.spec.tasks) {
            *b = rho(
                &y[s * m..(s + 1) * m],
                &self.alpha[s * m..(s + 1) * m],
                &self.g[s * m..(s + 1) * m],
                cost,
                self.spec.weight,
            );
        }
        self.stats
    }
}

/// Newton steps for a one-task SMO (an active-set method on the free variables): with the
/// bound variables held, a step `Δ` of the free ones (`0 < α < C`) and the bias solve the
/// KKT equations `Q_FF Δ_F + b y_F = −G_F`, `y_Fᵀ Δ_F = 0`, which are linear. A step that
/// leaves the box goes as far as it can, fixes the variable that blocks it and solves
/// again. `Q_FF` is often singular here (the kernels are low-rank), so it is factorised
/// with a ridge of `RIDGE · max diag`. The result is kept only when it lowers the dual
/// objective, and the SVM stops only when SMO's own KKT test holds at it.
#[derive(Default)]
struct Newton {
    free: Vec<usize>,
    chol: Vec<f64>,
    u: Vec<f64>,
    v: Vec<f64>,
    alpha: Vec<f64>,
    beta: Vec<f64>,
    g: Vec<f64>,
    failures: usize,
}

const RIDGE: f64 = 1e-11;
/// Most blocked steps (each fixing one variable) per Newton attempt.
const NEWTON_STEPS: usize = 8;

impl Newton {
    /// Improves `(alpha, g)` when it can; `true` when the result meets the KKT tolerance.
    fn solve(&mut self, spec: &SvmSpec, alpha: &mut [f64], g: &mut [f64]) -> bool {
        let (gram, y, cost, weight, tol) = (spec.gram, spec.y, spec.cost, spec.weight, spec.tol);
        let m = gram.m();
        self.alpha.clear();
        self.alpha.extend_from_slice(alpha);
        for _ in 0..NEWTON_STEPS {
            match self.step(gram, y, cost, weight) {
                Step::Failed => break,
                Step::Blocked => continue,
                Step::Full => break,
            }
        }
        // the gradient from scratch, the dual objective ½ Σ α (G − 1) and SMO's KKT test
        one_task_gradient(gram, y, &self.alpha, &mut self.beta, &mut self.g);
        let (mut gmax, mut gmin) = (f64::NEG_INFINITY, f64::INFINITY);
        let (mut obj_new, mut obj_old) = (0.0, 0.0);
        for k in 0..m {
            obj_new += 0.5 * self.alpha[k] * (self.g[k] - 1.0);
            obj_old += 0.5 * alpha[k] * (g[k] - 1.0);
            let v = -y[k] * self.g[k];
            let (up, low) = up_low(y[k], self.alpha[k], cost * weight[k]);
            if up {
                gmax = gmax.max(v);
            }
            if low {
                gmin = gmin.min(v);
            }
        }
        if obj_new.partial_cmp(&obj_old) != Some(std::cmp::Ordering::Less) {
            self.failures += 1;
            return false;
        }
        alpha.copy_from_slice(&self.alpha);
        g.copy_from_slice(&self.g);
        let done = gmax - gmin < tol;
        if !done {
            self.failures += 1;
        }
        done
    }

    /// One Newton step on the free set of `self.alpha`, moved in place.
    fn step(&mut self, gram: &DenseGram, y: &[f64], cost: f64, weight: &[f64]) -> Step {
        let m = gram.m();
        let alpha = &mut self.alpha;
        self.free.clear();
        self.free
            .extend((0..m).filter(|&k| alpha[k] > 0.0 && alpha[k] < cost * weight[k]));
        let f = self.free.len();
        if f == 0 {
            return Step::Failed;
        }
        // the step Δ_F solves Q_FF Δ_F + b y_F = −G_F, y_Fᵀ Δ_F = 0 (G = Qα − 1 at the current
        // α): solving for the step, not for α_F itself, leaves the part of α in the kernel's
        // null space where SMO put it (the ridge picks the shortest step), and that part
        // still matters to the scores of the nodes outside W
        one_task_gradient(gram, y, alpha, &mut self.beta, &mut self.g);
        let mut max_diag = 0.0f64;
        self.u.clear();
        self.u.extend(self.free.iter().map(|&i| -self.g[i]));
        self.chol.clear();
        self.chol.resize(f * f, 0.0);
        for (a, &i) in self.free.iter().enumerate() {
            let row = gram.row(i);
            for (b, &j) in self.free[..=a].iter().enumerate() {
                self.chol[a * f + b] = y[i] * y[j] * row[j];
            }
            max_diag = max_diag.max(row[i]);
        }
        let ridge = RIDGE * max_diag.max(f64::MIN_POSITIVE);
        if !cholesky_in_place(&mut self.chol, f, ridge) {
            return Step::Failed;
        }
        self.v.clear();
        self.v.extend(self.free.iter().map(|&i| y[i]));
        cholesky_solve(&self.chol, f, &mut self.u);
        cholesky_solve(&self.chol, f, &mut self.v);
        let yv: f64 = self.free.iter().zip(&self.v).map(|(&i, v)| y[i] * v).sum();
        let yu: f64 = self.free.iter().zip(&self.u).map(|(&i, u)| y[i] * u).sum();
        if yv.is_nan() || yv <= 0.0 {
            return Step::Failed;
        }
        let b = yu / yv;
        // the target α_F + u − b v, reached as far as the box allows
        let (mut t, mut block) = (1.0f64, None);
        for (a, &i) in self.free.iter().enumerate() {
            let target = alpha[i] + self.u[a] - b * self.v[a];
            self.u[a] = target;
            let ci = cost * weight[i];
            let (room, bound) = if target < 0.0 {
                (alpha[i] / (alpha[i] - target), 0.0)
            } else if target > ci {
                ((ci - alpha[i]) / (target - alpha[i]), ci)
            } else {
                continue;
            };
            if !room.is_finite() {
                return Step::Failed;
            }
            if room < t {
                (t, block) = (room, Some((i, bound)));
            }
        }
        for (a, &i) in self.free.iter().enumerate() {
            alpha[i] = (alpha[i] + t * (self.u[a] - alpha[i])).clamp(0.0, cost * weight[i]);
        }
        match block {
            None => Step::Full,
            Some((i, bound)) => {
                alpha[i] = bound;
                Step::Blocked
            }
        }
    }
}

/// `G = y ⊙ K (y ⊙ α) − 1`, the gradient of a one-task dual, from scratch (`beta` is scratch).
fn one_task_gradient(
    gram: &DenseGram,
    y: &[f64],
    alpha: &[f64],
    beta: &mut Vec<f64>,
    g: &mut Vec<f64>,
) {
    beta.clear();
    beta.extend(alpha.iter().zip(y).map(|(a, yk)| a * yk));
    g.resize(gram.m(), 0.0);
    gram.matvec_into(beta, g);
    for (gk, yk) in g.iter_mut().zip(y) {
        *gk = yk * *gk - 1.0;
    }
}

/// What one Newton step did.
enum Step {
    /// It reached the solution of the free set's equations.
    Full,
    /// A variable reached its bound first and is now fixed there.
    Blocked,
    /// The equations could not be solved.
    Failed,
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
fn rho(y: &[f64], alpha: &[f64], g: &[f64], cost: f64, weight: &[f64]) -> f64 {
    let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut sum, mut n) = (0.0, 0usize);
    for (((&yk, &ak), &gk), &wk) in y.iter().zip(alpha).zip(g).zip(weight) {
        let yg = yk * gk;
        if ak >= cost * wk {
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
    use graphsparse_base::SplitMix64;

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
            weight: Box::leak(vec![1.0; gram.m()].into_boxed_slice()),
            tol: 1e-9,
            max_iter: 100_000,
            newton: true,
        }
    }

    /// A rule-ensemble-like kernel: `1 + Σ_r w_r φ_r φ_rᵀ` over `rules` random conjunction
    /// indicators (rank ≤ rules + 1, far below `m`), with labels from two of them and noise.
    fn rule_problem(m: usize, rules: usize, seed: u64) -> (DenseGram, Vec<f64>) {
        let mut rng = SplitMix64::new(seed);
        let mut next = move || rng.next_u64();
        let phi: Vec<Vec<f64>> = (0..m)
            .map(|_| (0..rules).map(|_| (next() % 3 == 0) as u8 as f64).collect())
            .collect();
        let w: Vec<f64> = (0..rules).map(|r| 0.5 + r as f64 * 0.25).collect();
        let mut k = vec![0.0; m * m];
        for i in 0..m {
            for j in 0..m {
                k[i * m + j] = 1.0
                    + (0..rules)
                        .map(|r| w[r] * phi[i][r] * phi[j][r])
                        .sum::<f64>();
            }
        }
        let mut y: Vec<f64> = phi
            .iter()
            .map(|p| {
                if p[0] + p[1.min(rules - 1)] >= 1.0 && next() % 10 != 0 {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect();
        (y[0], y[1]) = (1.0, -1.0);
        (DenseGram::from_entries(m, k), y)
    }

    fn solve_one(
        gram: &DenseGram,
        y: &[f64],
        cost: f64,
        tol: f64,
        newton: bool,
    ) -> (Vec<f64>, f64, SvmStats) {
        let m = gram.m();
        let (mut a, mut b, mut g, mut u) = (vec![0.0; m], [0.0], vec![0.0; m], vec![0.0; m]);
        let sp = SvmSpec {
            tol,
            max_iter: 10_000_000,
            newton,
            ..spec(gram, y, 1, 0.0, cost)
        };
        let st = solve_svm(&sp, &mut a, &mut b, &mut g, &mut u, None, Parallel::Serial);
        (a, b[0], st)
    }

    /// On the low-rank kernels of large `C`, SMO alone crawls; the Newton step reaches the
    /// same optimum in a fraction of the iterations.
    #[test]
    fn newton_steps_finish_low_rank_large_c_problems() {
        let cost = 1000.0;
        for seed in 0..3 {
            let (gram, y) = rule_problem(95, 12, seed);
            let (a_plain, _, plain) = solve_one(&gram, &y, cost, 1e-4, false);
            let (a_newton, b, newton) = solve_one(&gram, &y, cost, 1e-4, true);
            assert!(plain.converged && newton.converged);
            let d_plain = dual_objective(&gram, &y, &a_plain);
            let d_newton = dual_objective(&gram, &y, &a_newton);
            assert!(
                (d_plain - d_newton).abs() <= 1e-5 * d_plain.abs().max(1.0),
                "{d_plain} {d_newton}"
            );
            let p = primal_objective(&gram, &y, &a_newton, b, cost);
            assert!(
                (p - d_newton).abs() <= 1e-4 * d_newton.abs().max(1.0),
                "p={p} d={d_newton}"
            );
            assert!(
                newton.iterations * 5 < plain.iterations,
                "seed {seed}: newton {} plain {}",
                newton.iterations,
                plain.iterations
            );
        }
    }

    /// Two identical rows with one label make a direction the SVM cannot see; the Newton
    /// step keeps SMO's split of α along it (the scores of nodes outside W do see it).
    #[test]
    fn newton_steps_leave_the_null_space_alone() {
        let x: Vec<Vec<f64>> = vec![
            vec![1.0, 0.0, 1.0],
            vec![1.0, 0.0, 1.0],
            vec![0.0, 1.0, 1.0],
            vec![0.0, 1.0, 0.0],
            vec![1.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
        ];
        let gram = gram_from_features(&x);
        let y = [1.0, 1.0, -1.0, -1.0, 1.0, -1.0];
        let cost = 100.0;
        let mut alpha = vec![1.2, 0.8, 1.0, 0.5, 1.0, 1.5];
        let (mut beta, mut g) = (Vec::new(), Vec::new());
        one_task_gradient(&gram, &y, &alpha, &mut beta, &mut g);
        let mut newton = Newton::default();
        newton.solve(&spec(&gram, &y, 1, 0.0, cost), &mut alpha, &mut g);
        assert!(alpha[0] > 0.0 && alpha[1] > 0.0, "{alpha:?}");
        assert!((alpha[0] - alpha[1] - 0.4).abs() < 1e-4, "{alpha:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// With or without Newton steps, a solve ends feasible, meets the KKT tolerance and
        /// closes the duality gap, at the same dual optimum.
        #[test]
        fn newton_steps_keep_the_smo_optimum(
            m in 4usize..60,
            rules in 1usize..6,
            seed in proptest::prelude::any::<u64>(),
            cost in proptest::prop_oneof![proptest::prelude::Just(0.01), proptest::prelude::Just(1.0), proptest::prelude::Just(100.0), proptest::prelude::Just(1000.0)],
        ) {
            let (gram, y) = rule_problem(m, rules, seed);
            let (a, b, st) = solve_one(&gram, &y, cost, 1e-8, true);
            let (a_ref, _, st_ref) = solve_one(&gram, &y, cost, 1e-8, false);
            proptest::prop_assert!(st.converged && st_ref.converged);
            let net: f64 = y.iter().zip(&a).map(|(y, a)| y * a).sum();
            proptest::prop_assert!(net.abs() <= 1e-9 * cost * m as f64);
            proptest::prop_assert!(a.iter().all(|&v| (0.0..=cost).contains(&v)));
            let (d, d_ref) = (dual_objective(&gram, &y, &a), dual_objective(&gram, &y, &a_ref));
            proptest::prop_assert!((d - d_ref).abs() <= 1e-6 * d_ref.abs().max(1.0), "{} {}", d, d_ref);
            let p = primal_objective(&gram, &y, &a, b, cost);
            proptest::prop_assert!((p - d).abs() <= 1e-5 * d.abs().max(1.0), "p={} d={}", p, d);
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
                Parallel::Serial,
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
            Parallel::Threshold(0),
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
            Parallel::Serial,
        );
        assert!(st.converged);
        for s in 0..2 {
            let net: f64 = (0..8).map(|i| y[s * 8 + i] * a[s * 8 + i]).sum();
            assert!(net.abs() < 1e-12);
        }
    }

    /// An example of weight `w` is `w` identical examples: the merged problem (boxes `[0, C w]`)
    /// reaches the optimum of the duplicated one, with the same bias.
    #[test]
    fn weighted_examples_are_duplicated_examples() {
        for seed in 0..4 {
            let (gram, y) = rule_problem(24, 3, 100 + seed);
            let m = gram.m();
            let w: Vec<f64> = (0..m).map(|k| 1.0 + (k % 3) as f64).collect();
            // the duplicated problem: example k repeated w_k times
            let rows: Vec<usize> = (0..m)
                .flat_map(|k| std::iter::repeat_n(k, w[k] as usize))
                .collect();
            let n = rows.len();
            let mut kd = vec![0.0; n * n];
            for (a, &i) in rows.iter().enumerate() {
                for (b, &j) in rows.iter().enumerate() {
                    kd[a * n + b] = gram.row(i)[j];
                }
            }
            let gd = DenseGram::from_entries(n, kd);
            let yd: Vec<f64> = rows.iter().map(|&k| y[k]).collect();
            let cost = 2.0;
            let (ad, _, _) = solve_one(&gd, &yd, cost, 1e-10, true);
            let (mut a, mut b, mut g, mut u) = (vec![0.0; m], [0.0], vec![0.0; m], vec![0.0; m]);
            let sp = SvmSpec {
                weight: &w,
                tol: 1e-10,
                max_iter: 10_000_000,
                ..spec(&gram, &y, 1, 0.0, cost)
            };
            let st = solve_svm(&sp, &mut a, &mut b, &mut g, &mut u, None, Parallel::Serial);
            assert!(st.converged);
            assert!(
                a.iter()
                    .zip(&w)
                    .all(|(&ak, &wk)| (0.0..=cost * wk).contains(&ak))
            );
            let obj = |gram: &DenseGram, y: &[f64], a: &[f64]| {
                a.iter().sum::<f64>()
                    - 0.5 * {
                        let beta: Vec<f64> = y.iter().zip(a).map(|(y, a)| y * a).collect();
                        let mut kb = vec![0.0; gram.m()];
                        gram.matvec_into(&beta, &mut kb);
                        beta.iter().zip(&kb).map(|(b, k)| b * k).sum::<f64>()
                    }
            };
            let (od, ow) = (obj(&gd, &yd, &ad), obj(&gram, &y, &a));
            assert!((od - ow).abs() <= 1e-6 * od.abs().max(1.0), "{od} vs {ow}");
            // the primal of the merged problem: weighted hinge losses
            let beta: Vec<f64> = y.iter().zip(&a).map(|(y, a)| y * a).collect();
            let mut f = vec![0.0; m];
            gram.matvec_into(&beta, &mut f);
            let reg = 0.5 * beta.iter().zip(&f).map(|(b, f)| b * f).sum::<f64>();
            let loss: f64 = (0..m)
                .map(|k| w[k] * (1.0 - y[k] * (f[k] - b[0])).max(0.0))
                .sum();
            let primal = reg + cost * loss;
            assert!(
                (primal - ow).abs() <= 1e-5 * ow.abs().max(1.0),
                "{primal} vs {ow}"
            );
        }
    }
}
