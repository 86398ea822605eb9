//! The primal form of the inner SVM / ridge problems: the effective kernel `K = Σ_w κ_w φ_w
//! φ_wᵀ` is never formed; each example is the sparse explicit feature vector
//! `z_i = (√κ_k [i ∈ c_k])_k` over the distinct covers `c_k` (cover classes) of the DAG, so
//! that `K = Z Zᵀ`, and a pass over the data costs `O(nnz(Z))` instead of `O(m²)`.
//!
//! * hinge loss: the SVM dual `min ½ βᵀKβ − 1ᵀα`, `0 ≤ α ≤ C w`, `yᵀα = 0` (the very problem
//!   the SMO of `smo.rs` solves, bias and equality constraint included) by dual coordinate
//!   descent (Hsieh et al., ICML 2008) on its augmented Lagrangian: the multiplier of
//!   `yᵀα = 0` is the bias `b`, updated after each sweep by `b ← b − μ yᵀα`, and the penalty
//!   `μ/2 (yᵀα)²` keeps the coordinate steps from drifting off the constraint. Each
//!   coordinate step reads and updates `v = Aᵀβ` (one sum per class) in `O(|{k : i ∈ c_k}|)`.
//!   The result is made exactly feasible at the end (`yᵀα = 0` by scaling down the larger
//!   class side, which stays inside the box), so its dual value is a valid lower bound.
//! * squared loss: the ridge system in feature space, `(I/C + Z_cᵀ Z_c) w = Z_cᵀ y_c` with the
//!   columns centred (the bias), one `r × r` Cholesky for `r` classes; `α = C (y_c − Z_c w)`.
//!   Above [`CHOLESKY_MAX_CLASSES`] classes its `r²` memory is avoided: the same solution
//!   solves the `m`-dimensional dual system `(Z_c Z_cᵀ + I/C) α = y_c` (`w = Z_cᵀ α`), taken
//!   by preconditioned conjugate gradients through the sparse rows, whose residual gives the
//!   duality gap they leave directly.
//!   Coupled tasks (`B = I + c·11ᵀ`) split into the task mean (kernel `(1 + cT) K`) and the
//!   deviations from it (kernel `K`).

use graphsparse_base::{Meter, Parallel, SplitMix64, cholesky_in_place_until, cholesky_solve};
use rayon::prelude::*;

use crate::dag::Dag;

/// Work (cover entries, coordinate steps) between two polls of the meter inside a pass.
const POLL_ENTRIES: usize = 1 << 16;

/// The examples as sparse rows over the cover classes of a DAG, with the pairwise
/// intersection counts of the classes (squared loss only, grown as classes are added).
#[derive(Debug, Default)]
pub(crate) struct Features {
    m: usize,
    n_classes: usize,
    /// Nodes of the DAG the rows were built from (the lattice only appends nodes).
    n_nodes: usize,
    row_ptr: Vec<usize>,
    cols: Vec<u32>,
    /// `|c_k|`.
    sizes: Vec<f64>,
    /// `|c_k ∩ c_l|`, row-major `n × n` for the first `n_counted` classes.
    counts: Vec<f64>,
    n_counted: usize,
    /// One bitset over the examples per class (for the counts).
    bits: Vec<Vec<u64>>,
}

impl Features {
    /// Rebuilds the rows when the DAG has other classes than the last call saw; `false` when
    /// `meter` stopped it (polled every [`POLL_ENTRIES`] cover entries), which leaves the rows
    /// unusable until a later call completes (it then rebuilds them and the counts whole).
    ///
    /// # Complexity
    /// O(m + Σ_k |c_k|) over the cover classes.
    pub(crate) fn sync(&mut self, dag: &Dag, meter: Option<&Meter>) -> bool {
        let (m, nc) = (dag.n_examples(), dag.n_classes());
        if self.m == m && self.n_classes == nc && self.n_nodes == dag.len() {
            return true;
        }
        if self.m != m || nc < self.n_classes || dag.len() < self.n_nodes {
            // another DAG: drop the counts too
            self.counts.clear();
            self.n_counted = 0;
            self.bits.clear();
        }
        // an interrupted sync leaves `m = 0`: the next one starts over, counts included
        self.m = 0;
        let mut work = 0usize;
        let mut stopped = |added: usize| -> bool {
            work += added;
            if work < POLL_ENTRIES {
                return false;
            }
            work = 0;
            meter.is_some_and(|mt| mt.poll())
        };
        let mut deg = vec![0usize; m + 1];
        self.sizes.clear();
        for k in 0..nc {
            let c = dag.class_cover(k);
            self.sizes.push(c.len() as f64);
            for &i in c {
                deg[i as usize + 1] += 1;
            }
            if stopped(c.len() + 1) {
                return false;
            }
        }
        for i in 0..m {
            deg[i + 1] += deg[i];
        }
        self.cols.clear();
        self.cols.resize(deg[m], 0);
        let mut next = deg.clone();
        for k in 0..nc {
            let c = dag.class_cover(k);
            for &i in c {
                self.cols[next[i as usize]] = k as u32;
                next[i as usize] += 1;
            }
            if stopped(c.len() + 1) {
                return false;
            }
        }
        self.row_ptr = deg;
        self.m = m;
        self.n_classes = nc;
        self.n_nodes = dag.len();
        true
    }

    /// The classes whose cover holds example `i`.
    #[inline]
    fn row(&self, i: usize) -> &[u32] {
        &self.cols[self.row_ptr[i]..self.row_ptr[i + 1]]
    }

    /// Brings the intersection counts up to all classes of `dag` (bitsets, `O(m/64)` per new
    /// pair); `false` when `meter` stopped it (polled once per class), the counts then left
    /// as they were.
    fn update_counts(&mut self, dag: &Dag, meter: Option<&Meter>) -> bool {
        let nc = self.n_classes;
        if self.n_counted == nc {
            return true;
        }
        let words = self.m.div_ceil(64);
        while self.bits.len() < nc {
            let k = self.bits.len();
            let mut b = vec![0u64; words];
            for &i in dag.class_cover(k) {
                b[i as usize / 64] |= 1 << (i % 64);
            }
            self.bits.push(b);
        }
        let old = self.n_counted;
        let mut counts = vec![0.0; nc * nc];
        for k in 0..old {
            counts[k * nc..k * nc + old].copy_from_slice(&self.counts[k * old..(k + 1) * old]);
        }
        for k in 0..nc {
            if meter.is_some_and(|mt| mt.poll()) {
                return false;
            }
            for l in old.max(k)..nc {
                let n: u32 = self.bits[k]
                    .iter()
                    .zip(&self.bits[l])
                    .map(|(a, b)| (a & b).count_ones())
                    .sum();
                counts[k * nc + l] = n as f64;
                counts[l * nc + k] = n as f64;
            }
        }
        self.counts = counts;
        self.n_counted = nc;
        true
    }
}

/// What one primal SVM solve did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PrimalStats {
    /// Coordinate steps (sweeps × examples).
    pub steps: usize,
    pub converged: bool,
}

/// Most sweeps of one coordinate-descent solve.
const MAX_SWEEPS: usize = 2000;

/// The penalty weight `μ` of the augmented Lagrangian, as a multiple of the mean diagonal of
/// `K`. On the unit test's 36 random problems at tolerance 10⁻⁹, 0.1 converged on all in
/// 10,162 sweeps, 0.03 in 11,712; 0.3 and 1 left one unconverged at the sweep cap.
const MU_FACTOR: f64 = 0.1;

/// The SVM dual of `T` independent tasks on `K = A diag(κ) Aᵀ` (`class_kappa` per class), in
/// parallel over the tasks when `parallel` says so (each task's solve is serial and
/// deterministic, so the result does not depend on the thread count).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_svm_primal(
    feat: &Features,
    class_kappa: &[f64],
    y: &[f64],
    cost: f64,
    weight: &[f64],
    tol: f64,
    alpha: &mut [f64],
    bias: &mut [f64],
    meter: Option<&Meter>,
    parallel: Parallel,
) -> PrimalStats {
    let m = feat.m;
    let one = |((a, b), yt): ((&mut [f64], &mut f64), &[f64])| {
        svm_task(feat, class_kappa, yt, cost, weight, tol, a, b, meter)
    };
    let stats: Vec<PrimalStats> = if parallel.enabled() && bias.len() > 1 {
        alpha
            .par_chunks_mut(m)
            .zip(bias.par_iter_mut())
            .zip(y.par_chunks(m))
            .map(one)
            .collect()
    } else {
        alpha
            .chunks_mut(m)
            .zip(bias.iter_mut())
            .zip(y.chunks(m))
            .map(one)
            .collect()
    };
    stats.iter().fold(
        PrimalStats {
            steps: 0,
            converged: true,
        },
        |acc, s| PrimalStats {
            steps: acc.steps + s.steps,
            converged: acc.converged && s.converged,
        },
    )
}

/// Makes `α` feasible: clipped into `[0, u]` (non-finite entries to 0), then `yᵀα = 0` by
/// scaling down the side (positive or negative labels) with the larger sum.
fn repair_feasibility(y: &[f64], alpha: &mut [f64], ub: impl Fn(usize) -> f64) {
    let (mut pos, mut neg) = (0.0, 0.0);
    for (i, (a, &yi)) in alpha.iter_mut().zip(y).enumerate() {
        *a = if a.is_finite() {
            a.clamp(0.0, ub(i))
        } else {
            0.0
        };
        if yi > 0.0 {
            pos += *a;
        } else {
            neg += *a;
        }
    }
    if pos == neg {
        return;
    }
    let (side, f) = if pos > neg {
        (1.0, neg / pos)
    } else {
        (-1.0, pos / neg)
    };
    for (a, &yi) in alpha.iter_mut().zip(y) {
        if yi == side {
            *a *= f;
        }
    }
}

/// A deterministic permutation of `0..m` for sweep `sweep` (Fisher–Yates).
fn shuffle(order: &mut [u32], sweep: usize) {
    let mut rng = SplitMix64::new(sweep as u64);
    for k in (1..order.len()).rev() {
        order.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
    }
}

/// One task's SVM dual by coordinate descent on the augmented Lagrangian (see the module
/// docs), warm-started from `alpha` and `bias`.
#[allow(clippy::too_many_arguments)]
fn svm_task(
    feat: &Features,
    kappa: &[f64],
    y: &[f64],
    cost: f64,
    weight: &[f64],
    tol: f64,
    alpha: &mut [f64],
    bias: &mut f64,
    meter: Option<&Meter>,
) -> PrimalStats {
    let m = feat.m;
    let ub = |i: usize| cost * weight[i];
    repair_feasibility(y, alpha, ub);
    let mut v = vec![0.0; feat.n_classes];
    let mut qd = vec![0.0; m];
    for i in 0..m {
        let row = feat.row(i);
        let b = y[i] * alpha[i];
        for &k in row {
            v[k as usize] += b;
        }
        qd[i] = row.iter().map(|&k| kappa[k as usize]).sum();
    }
    let mean_qd = qd.iter().sum::<f64>() / m as f64;
    let mu = if mean_qd > 0.0 {
        MU_FACTOR * mean_qd
    } else {
        1.0
    };
    let mut lambda = if bias.is_finite() { *bias } else { 0.0 };
    let mut s: f64 = y.iter().zip(alpha.iter()).map(|(y, a)| y * a).sum();
    let mut order: Vec<u32> = (0..m as u32).collect();
    let mut stats = PrimalStats::default();
    // row entries read since the last poll (a sweep of a large active set takes seconds)
    let mut work = 0usize;
    'sweeps: for sweep in 0..MAX_SWEEPS {
        if sweep > 0 {
            shuffle(&mut order, sweep);
        }
        let mut viol = 0.0f64;
        for &i in &order {
            let i = i as usize;
            let row = feat.row(i);
            work += row.len() + 1;
            if work >= POLL_ENTRIES {
                work = 0;
                if meter.is_some_and(|mt| mt.poll()) {
                    break 'sweeps;
                }
            }
            let yi = y[i];
            let f: f64 = row.iter().map(|&k| kappa[k as usize] * v[k as usize]).sum();
            // gradient of the maximised augmented Lagrangian in α_i
            let g = 1.0 - yi * f + yi * lambda - mu * yi * s;
            let (a, u) = (alpha[i], ub(i));
            let pg = if a <= 0.0 {
                g.max(0.0)
            } else if a >= u {
                g.min(0.0)
            } else {
                g
            };
            viol = viol.max(pg.abs());
            if pg == 0.0 {
                continue;
            }
            let new = (a + g / (qd[i] + mu)).clamp(0.0, u);
            let d = new - a;
            if d != 0.0 {
                alpha[i] = new;
                let dy = d * yi;
                for &k in row {
                    v[k as usize] += dy;
                }
                s += dy;
            }
        }
        stats.steps += m;
        lambda -= mu * s;
        if viol <= tol && mu * s.abs() <= tol {
            stats.converged = true;
            break;
        }
        if meter.is_some_and(|mt| mt.poll()) {
            break;
        }
    }
    repair_feasibility(y, alpha, ub);
    *bias = lambda;
    stats
}

/// Above this many cover classes the primal ridge solve is matrix-free (conjugate gradients,
/// [`ridge_cg`]) rather than a Cholesky of the `r × r` normal equations ([`ridge_cholesky`]),
/// whose intersection counts and factor are two `r × r` matrices (4 MiB together at 512
/// classes, 10 GB at 25,000). Measured per solve (`time_cholesky_against_conjugate_gradients`,
/// 2,000 examples, random covers of a third of them, `C = 10`, loaded machine): Cholesky
/// 0.005–0.009 s at 383 classes, 0.045 s at 754, 0.33 s at 1,508, 1.1 s at 2,295; conjugate
/// gradients warm-started from the solution at weights 5 % away (as between two
/// mirror-descent steps) 0.005, 0.013, 0.064 and 0.17 s. The `r³/3` factorisation loses from
/// about 500 classes on, so that is where the matrix-free solve takes over.
pub(crate) const CHOLESKY_MAX_CLASSES: usize = 512;

/// The conjugate gradients stop once the gap they leave, `(C/2)‖ρ‖²`, is at most this share
/// of the SVM tolerance times the ridge dual value (at least 1): 10⁻⁶ of it at the default
/// `svm_tol = 10⁻⁴`, far below the certificate's default `tol = 10⁻³`.
const CG_GAP_FACTOR: f64 = 1e-2;

/// Times the true residual is recomputed when the recurred one claims convergence and the
/// true one does not (rounding): the solve then restarts from its iterate.
const CG_RESTARTS: usize = 3;

#[cfg(test)]
thread_local! {
    /// Tests only: replaces [`CHOLESKY_MAX_CLASSES`] in the ridge work made on this thread.
    pub(crate) static CHOLESKY_MAX_OVERRIDE: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

/// Reused buffers of the primal ridge solves.
#[derive(Debug)]
pub(crate) struct RidgeWork {
    chol: Vec<f64>,
    cg: CgWork,
    /// The most classes solved by Cholesky ([`CHOLESKY_MAX_CLASSES`]).
    cholesky_max: usize,
    /// Conjugate-gradient iterations made, over all solves.
    pub(crate) cg_iters: usize,
}

impl Default for RidgeWork {
    fn default() -> Self {
        #[cfg(test)]
        let cholesky_max = CHOLESKY_MAX_OVERRIDE
            .with(|c| c.get())
            .unwrap_or(CHOLESKY_MAX_CLASSES);
        #[cfg(not(test))]
        let cholesky_max = CHOLESKY_MAX_CLASSES;
        Self {
            chol: Vec::new(),
            cg: CgWork::default(),
            cholesky_max,
            cg_iters: 0,
        }
    }
}

/// The buffers of [`ridge_cg`]: `O(m + r)`, resized (not reallocated) from one solve to the
/// next.
#[derive(Debug, Default)]
struct CgWork {
    /// `scale · κ_k` per class.
    w2: Vec<f64>,
    /// Per-class sums of one product.
    t: Vec<f64>,
    /// Per example: the centred targets, the iterate, the residual, the preconditioned
    /// residual, the search direction, its product, the Jacobi diagonal.
    yc: Vec<f64>,
    x: Vec<f64>,
    res: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    q: Vec<f64>,
    diag: Vec<f64>,
}

/// The ridge system of `T` tasks with coupling `B = I + c·11ᵀ` in feature space (see the
/// module docs); writes `alpha` (`T · m`, signed) and `bias` (`T`), warm-started from them
/// (conjugate gradients). `tol` is the SVM tolerance (see [`CG_GAP_FACTOR`]). `false` when
/// `meter` stopped the counts, a factorisation (polled per class and per column) or the
/// conjugate gradients (polled every [`POLL_ENTRIES`] cover entries): `alpha` and `bias` may
/// then be partly written and must be restored by the caller.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_ridge_primal(
    feat: &mut Features,
    dag: &Dag,
    class_kappa: &[f64],
    y: &[f64],
    tasks: usize,
    coupling: f64,
    cost: f64,
    tol: f64,
    alpha: &mut [f64],
    bias: &mut [f64],
    work: &mut RidgeWork,
    meter: Option<&Meter>,
) -> bool {
    if feat.n_classes <= work.cholesky_max {
        if !feat.update_counts(dag, meter) {
            return false;
        }
    } else {
        // matrix-free from here on: let the r × r matrices go
        feat.counts = Vec::new();
        feat.n_counted = 0;
        feat.bits = Vec::new();
        work.chol = Vec::new();
    }
    let m = feat.m;
    if tasks == 1 {
        return ridge_one(
            feat,
            class_kappa,
            1.0 + coupling,
            y,
            cost,
            tol,
            alpha,
            &mut bias[0],
            work,
            meter,
        );
    }
    // the mean over tasks with kernel (1 + cT) K, the deviations from it with K; the warm
    // starts split the same way (the deviations' solutions sum to 0 over the tasks)
    let nt = tasks as f64;
    let mean: Vec<f64> = (0..m)
        .map(|i| (0..tasks).map(|t| y[t * m + i]).sum::<f64>() / nt)
        .collect();
    let mut a_mean: Vec<f64> = (0..m)
        .map(|i| (0..tasks).map(|t| alpha[t * m + i]).sum::<f64>() / nt)
        .collect();
    let warm_mean = a_mean.clone();
    let mut b_mean = 0.0;
    if !ridge_one(
        feat,
        class_kappa,
        1.0 + coupling * nt,
        &mean,
        cost,
        tol,
        &mut a_mean,
        &mut b_mean,
        work,
        meter,
    ) {
        return false;
    }
    let mut dev = vec![0.0; m];
    for t in 0..tasks {
        for i in 0..m {
            dev[i] = y[t * m + i] - mean[i];
        }
        let a = &mut alpha[t * m..(t + 1) * m];
        a.iter_mut().zip(&warm_mean).for_each(|(a, w)| *a -= w);
        if !ridge_one(
            feat,
            class_kappa,
            1.0,
            &dev,
            cost,
            tol,
            a,
            &mut bias[t],
            work,
            meter,
        ) {
            return false;
        }
        a.iter_mut().zip(&a_mean).for_each(|(a, am)| *a += am);
        bias[t] += b_mean;
    }
    true
}

/// One ridge problem with kernel `scale · K`: `α` and the bias `b` of `F = scale·Kα − b`, by
/// Cholesky up to `work.cholesky_max` classes, by conjugate gradients above; `false`
/// (`alpha` and `bias` untouched) when `meter` stopped it.
#[allow(clippy::too_many_arguments)]
fn ridge_one(
    feat: &Features,
    kappa: &[f64],
    scale: f64,
    y: &[f64],
    cost: f64,
    tol: f64,
    alpha: &mut [f64],
    bias: &mut f64,
    work: &mut RidgeWork,
    meter: Option<&Meter>,
) -> bool {
    if feat.n_classes <= work.cholesky_max {
        ridge_cholesky(feat, kappa, scale, y, cost, alpha, bias, work, meter)
    } else {
        ridge_cg(feat, kappa, scale, y, cost, tol, alpha, bias, work, meter)
    }
}

/// [`ridge_one`] by a Cholesky of the `r × r` normal equations (the counts must be up to
/// date).
#[allow(clippy::too_many_arguments)]
fn ridge_cholesky(
    feat: &Features,
    kappa: &[f64],
    scale: f64,
    y: &[f64],
    cost: f64,
    alpha: &mut [f64],
    bias: &mut f64,
    work: &mut RidgeWork,
    meter: Option<&Meter>,
) -> bool {
    let (m, r) = (feat.m, feat.n_classes);
    debug_assert_eq!(feat.n_counted, r);
    let mf = m as f64;
    let ybar = y.iter().sum::<f64>() / mf;
    // z_ik = √(scale κ_k) [i ∈ c_k]; the centred Gram Z_cᵀZ_c = S (N − n nᵀ/m) S
    let sq: Vec<f64> = kappa.iter().map(|&k| (scale * k.max(0.0)).sqrt()).collect();
    let mut rhs = vec![0.0; r];
    for (i, &yi) in y.iter().enumerate() {
        for &k in feat.row(i) {
            rhs[k as usize] += yi;
        }
    }
    for k in 0..r {
        rhs[k] = sq[k] * (rhs[k] - feat.sizes[k] * ybar);
    }
    let mut ridge = 1.0 / cost;
    let mut w = rhs.clone();
    let mut solved = false;
    for _ in 0..40 {
        if !ridge.is_finite() {
            break;
        }
        work.chol.clear();
        work.chol.resize(r * r, 0.0);
        for k in 0..r {
            for l in 0..r {
                let c = feat.counts[k * r + l] - feat.sizes[k] * feat.sizes[l] / mf;
                work.chol[k * r + l] = sq[k] * sq[l] * c;
            }
        }
        match cholesky_in_place_until(&mut work.chol, r, ridge, || {
            meter.is_some_and(|mt| mt.poll())
        }) {
            None => return false,
            Some(true) => {
                w.copy_from_slice(&rhs);
                cholesky_solve(&work.chol, r, &mut w);
                solved = true;
                break;
            }
            Some(false) => {}
        }
        // numerically singular (C huge against K): regularise a little more, as the dual form
        ridge = (ridge * 10.0).max(1e-12);
    }
    if !solved {
        alpha.iter_mut().for_each(|a| *a = 0.0);
        *bias = -ybar;
        return true;
    }
    // the fit f = Z w (before centring), α = C (y_c − f_c), b = f̄ − ȳ
    let u: Vec<f64> = sq.iter().zip(&w).map(|(s, w)| s * w).collect();
    let mut fbar = 0.0;
    for (i, a) in alpha.iter_mut().enumerate() {
        let f: f64 = feat.row(i).iter().map(|&k| u[k as usize]).sum();
        *a = f;
        fbar += f;
    }
    fbar /= mf;
    for (a, &yi) in alpha.iter_mut().zip(y) {
        *a = cost * ((yi - ybar) - (*a - fbar));
    }
    *bias = fbar - ybar;
    true
}

/// `out = (P K P + ridge·I) v` for the kernel `K = A diag(w2) Aᵀ` of the rows and the centring
/// `P = I − 11ᵀ/m`, through the sparse rows (`t`: per-class scratch); `O(nnz + m + r)`.
fn centred_product(
    feat: &Features,
    w2: &[f64],
    ridge: f64,
    v: &[f64],
    out: &mut [f64],
    t: &mut [f64],
) {
    let m = feat.m;
    let vbar = v.iter().sum::<f64>() / m as f64;
    t.iter_mut().for_each(|x| *x = 0.0);
    for (i, &vi) in v.iter().enumerate() {
        let u = vi - vbar;
        for &k in feat.row(i) {
            t[k as usize] += u;
        }
    }
    t.iter_mut().zip(w2).for_each(|(x, w)| *x *= w);
    let mut fbar = 0.0;
    for (i, o) in out.iter_mut().enumerate() {
        let f: f64 = feat.row(i).iter().map(|&k| t[k as usize]).sum();
        *o = f;
        fbar += f;
    }
    fbar /= m as f64;
    for (o, &vi) in out.iter_mut().zip(v) {
        *o += ridge * vi - fbar;
    }
}

/// `z = P D⁻¹ res` (the Jacobi preconditioner kept on the centred vectors).
fn precondition(diag: &[f64], res: &[f64], z: &mut [f64]) {
    let mut s = 0.0;
    for ((z, &r), &d) in z.iter_mut().zip(res).zip(diag) {
        *z = r / d;
        s += *z;
    }
    let zbar = s / z.len() as f64;
    z.iter_mut().for_each(|z| *z -= zbar);
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// [`ridge_one`] without any `r × r` or `m × m` matrix: Jacobi-preconditioned conjugate
/// gradients on the `m`-dimensional dual system `(K_c + I/C) α = y_c` over the centred
/// vectors (`K_c = P (scale K) P`, each product two passes over the sparse rows), warm-started
/// from `alpha`. The gap the fit is left with for this kernel is `(C/2)‖ρ‖²` for the residual
/// `ρ = y_c − (K_c + I/C) α`, and the iterations stop once it is at most
/// `CG_GAP_FACTOR · tol · max(½ y_cᵀα, 1)` (checked on the true residual), or after `2m + 100`
/// of them. `false` (`alpha`, `bias` untouched) when `meter` stopped it.
#[allow(clippy::too_many_arguments)]
fn ridge_cg(
    feat: &Features,
    kappa: &[f64],
    scale: f64,
    y: &[f64],
    cost: f64,
    tol: f64,
    alpha: &mut [f64],
    bias: &mut f64,
    work: &mut RidgeWork,
    meter: Option<&Meter>,
) -> bool {
    let (m, r) = (feat.m, feat.n_classes);
    let mf = m as f64;
    let ybar = y.iter().sum::<f64>() / mf;
    let ridge = 1.0 / cost;
    if !ridge.is_finite() {
        // C so small that 1/C overflows: the kernel part is negligible, as the Cholesky path
        alpha.iter_mut().for_each(|a| *a = 0.0);
        *bias = -ybar;
        return true;
    }
    let cg = &mut work.cg;
    cg.w2.clear();
    cg.w2.extend(kappa.iter().map(|&k| scale * k.max(0.0)));
    cg.t.resize(r, 0.0);
    for v in [
        &mut cg.yc,
        &mut cg.x,
        &mut cg.res,
        &mut cg.z,
        &mut cg.p,
        &mut cg.q,
        &mut cg.diag,
    ] {
        v.resize(m, 0.0);
    }
    cg.yc.iter_mut().zip(y).for_each(|(c, &yi)| *c = yi - ybar);
    // (K_c)_ii = Σ_k w2_k ([i ∈ c_k] − n_k/m)²
    let base: f64 = cg
        .w2
        .iter()
        .zip(&feat.sizes)
        .map(|(w, n)| w * (n / mf) * (n / mf))
        .sum();
    for (i, d) in cg.diag.iter_mut().enumerate() {
        let own: f64 = feat
            .row(i)
            .iter()
            .map(|&k| cg.w2[k as usize] * (1.0 - 2.0 * feat.sizes[k as usize] / mf))
            .sum();
        // positive even at ridge 0 (C = ∞) for a row in no class but the root's
        *d = ((base + own).max(0.0) + ridge).max(f64::MIN_POSITIVE);
    }
    if alpha.iter().all(|a| a.is_finite()) {
        let abar = alpha.iter().sum::<f64>() / mf;
        cg.x.iter_mut()
            .zip(&*alpha)
            .for_each(|(x, a)| *x = a - abar);
    } else {
        cg.x.iter_mut().for_each(|x| *x = 0.0);
    }
    let nnz = feat.cols.len() + m + r;
    let mut work_done = 0usize;
    let max_iter = 2 * m + 100;
    let mut iters = 0usize;
    let mut restarts = 0usize;
    'outer: loop {
        // the true residual, and a fresh start of the directions
        centred_product(feat, &cg.w2, ridge, &cg.x, &mut cg.q, &mut cg.t);
        work_done += nnz;
        for ((r, &c), &q) in cg.res.iter_mut().zip(&cg.yc).zip(&cg.q) {
            *r = c - q;
        }
        precondition(&cg.diag, &cg.res, &mut cg.z);
        cg.p.copy_from_slice(&cg.z);
        let mut rz = dot(&cg.res, &cg.z);
        loop {
            let gap = 0.5 * cost * dot(&cg.res, &cg.res);
            let target = CG_GAP_FACTOR * tol * (0.5 * dot(&cg.yc, &cg.x)).max(1.0);
            if gap <= target || rz.is_nan() || rz <= 0.0 {
                // converged by the recurred residual (or nothing left to do): confirm on the
                // true one
                if restarts == CG_RESTARTS {
                    break 'outer;
                }
                centred_product(feat, &cg.w2, ridge, &cg.x, &mut cg.q, &mut cg.t);
                work_done += nnz;
                let true_gap = 0.5
                    * cost
                    * cg.yc
                        .iter()
                        .zip(&cg.q)
                        .map(|(c, q)| (c - q) * (c - q))
                        .sum::<f64>();
                if true_gap <= target || rz.is_nan() || rz <= 0.0 {
                    break 'outer;
                }
                restarts += 1;
                continue 'outer;
            }
            if iters == max_iter {
                break 'outer;
            }
            if work_done >= POLL_ENTRIES {
                work_done = 0;
                if meter.is_some_and(|mt| mt.poll()) {
                    work.cg_iters += iters;
                    return false;
                }
            }
            centred_product(feat, &cg.w2, ridge, &cg.p, &mut cg.q, &mut cg.t);
            work_done += nnz;
            iters += 1;
            let pq = dot(&cg.p, &cg.q);
            if pq.is_nan() || pq <= 0.0 {
                break 'outer;
            }
            let a = rz / pq;
            for (((x, r), &p), &q) in cg.x.iter_mut().zip(cg.res.iter_mut()).zip(&cg.p).zip(&cg.q) {
                *x += a * p;
                *r -= a * q;
            }
            precondition(&cg.diag, &cg.res, &mut cg.z);
            let rz_new = dot(&cg.res, &cg.z);
            let beta = rz_new / rz;
            rz = rz_new;
            cg.p.iter_mut()
                .zip(&cg.z)
                .for_each(|(p, &z)| *p = z + beta * *p);
        }
    }
    work.cg_iters += iters;
    // α = x (centred exactly), b = mean(scale·Kα) − ȳ
    let xbar = cg.x.iter().sum::<f64>() / mf;
    for (a, &x) in alpha.iter_mut().zip(&cg.x) {
        *a = x - xbar;
    }
    cg.t.iter_mut().for_each(|x| *x = 0.0);
    for (i, &a) in alpha.iter().enumerate() {
        for &k in feat.row(i) {
            cg.t[k as usize] += a;
        }
    }
    // Σ_i f_i = Σ_k w2_k n_k t_k
    let fsum: f64 =
        cg.t.iter()
            .zip(&cg.w2)
            .zip(&feat.sizes)
            .map(|((t, w), n)| t * w * n)
            .sum();
    *bias = fsum / mf - ybar;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gram::DenseGram;
    use crate::ridge::{RidgeWork as DenseRidgeWork, solve_ridge};
    use crate::smo::{SvmSpec, solve_svm};

    /// A random DAG of `n` nodes over `m` examples (root covering all, children random subsets,
    /// some covers repeated), random positive node weights, and the class weights.
    fn random_dag(m: usize, n: usize, seed: u64) -> (Dag, Vec<f64>, Vec<f64>) {
        let mut rng = SplitMix64::new(seed);
        let mut covers = vec![(0..m as u32).collect::<Vec<u32>>()];
        let mut parents = vec![vec![]];
        for v in 1..n {
            let c: Vec<u32> = if v > 2 && rng.next_u64() % 4 == 0 {
                covers[v - 2].clone()
            } else {
                (0..m as u32).filter(|_| rng.next_u64() % 3 == 0).collect()
            };
            covers.push(c);
            parents.push(vec![0]);
        }
        let dag = Dag::new(m, &covers, &parents, &vec![2.0; n]).unwrap();
        let kappa: Vec<f64> = (0..n)
            .map(|_| 0.05 + (rng.next_u64() % 100) as f64 / 40.0)
            .collect();
        let mut class_kappa = vec![0.0; dag.n_classes()];
        for (v, &k) in kappa.iter().enumerate() {
            class_kappa[dag.class(v)] += k;
        }
        (dag, kappa, class_kappa)
    }

    fn svm_dual(g: &DenseGram, y: &[f64], alpha: &[f64]) -> f64 {
        let beta: Vec<f64> = y.iter().zip(alpha).map(|(y, a)| y * a).collect();
        let mut kb = vec![0.0; y.len()];
        g.matvec_into(&beta, &mut kb);
        alpha.iter().sum::<f64>() - 0.5 * beta.iter().zip(&kb).map(|(b, k)| b * k).sum::<f64>()
    }

    #[test]
    fn coordinate_descent_reaches_the_smo_optimum() {
        for seed in 0..12 {
            let (m, n) = (40 + seed as usize * 7, 6 + seed as usize % 5);
            let (dag, kappa, class_kappa) = random_dag(m, n, seed);
            let mut gram = DenseGram::try_new(m).unwrap();
            assert!(gram.build(&dag, &kappa, None));
            let mut rng = SplitMix64::new(seed + 100);
            let mut y: Vec<f64> = (0..m)
                .map(|_| if rng.next_u64() % 2 == 0 { 1.0 } else { -1.0 })
                .collect();
            (y[0], y[1]) = (1.0, -1.0);
            let weight: Vec<f64> = (0..m).map(|i| 1.0 + (i % 3) as f64).collect();
            for cost in [0.1, 1.0, 10.0] {
                let spec = SvmSpec {
                    gram: &gram,
                    y: &y,
                    tasks: 1,
                    coupling: 0.0,
                    cost,
                    weight: &weight,
                    tol: 1e-9,
                    max_iter: 1_000_000,
                    newton: true,
                };
                let (mut a_smo, mut b_smo) = (vec![0.0; m], vec![0.0]);
                let (mut g, mut u) = (vec![0.0; m], vec![0.0; m]);
                solve_svm(
                    &spec,
                    &mut a_smo,
                    &mut b_smo,
                    &mut g,
                    &mut u,
                    None,
                    Parallel::Serial,
                );
                let mut feat = Features::default();
                assert!(feat.sync(&dag, None));
                let (mut a, mut b) = (vec![0.0; m], vec![0.0]);
                let st = solve_svm_primal(
                    &feat,
                    &class_kappa,
                    &y,
                    cost,
                    &weight,
                    1e-9,
                    &mut a,
                    &mut b,
                    None,
                    Parallel::Serial,
                );
                assert!(st.converged, "seed {seed} C {cost}");
                // feasible: in the box and on the equality constraint
                let s: f64 = y.iter().zip(&a).map(|(y, a)| y * a).sum();
                assert!(s.abs() <= 1e-9 * cost * m as f64, "y'a = {s}");
                assert!(
                    a.iter()
                        .zip(&weight)
                        .all(|(&a, &w)| (0.0..=cost * w).contains(&a))
                );
                let (d_smo, d) = (svm_dual(&gram, &y, &a_smo), svm_dual(&gram, &y, &a));
                assert!(
                    (d_smo - d).abs() <= 1e-6 * d_smo.abs().max(1.0),
                    "seed {seed} C {cost}: SMO {d_smo} vs coordinate descent {d}"
                );
            }
        }
    }

    #[test]
    fn feature_space_ridge_equals_the_dense_system() {
        for seed in 0..8 {
            let (m, n) = (30 + seed as usize * 5, 5 + seed as usize % 4);
            let (dag, kappa, class_kappa) = random_dag(m, n, seed + 50);
            let mut gram = DenseGram::try_new(m).unwrap();
            assert!(gram.build(&dag, &kappa, None));
            let mut rng = SplitMix64::new(seed);
            for (tasks, coupling) in [(1, 0.0), (1, 0.5), (3, 0.0), (3, 1.0 / 0.7)] {
                let y: Vec<f64> = (0..tasks * m)
                    .map(|_| (rng.next_u64() % 1000) as f64 / 100.0 - 5.0)
                    .collect();
                for cost in [0.01, 1.0, 30.0] {
                    let (mut a0, mut b0) = (vec![0.0; tasks * m], vec![0.0; tasks]);
                    let mut w0 = DenseRidgeWork::default();
                    assert!(solve_ridge(
                        &gram, &y, tasks, coupling, cost, &mut a0, &mut b0, &mut w0, None
                    ));
                    let mut feat = Features::default();
                    assert!(feat.sync(&dag, None));
                    let (mut a, mut b) = (vec![0.0; tasks * m], vec![0.0; tasks]);
                    let mut w = RidgeWork::default();
                    assert!(solve_ridge_primal(
                        &mut feat,
                        &dag,
                        &class_kappa,
                        &y,
                        tasks,
                        coupling,
                        cost,
                        1e-4,
                        &mut a,
                        &mut b,
                        &mut w,
                        None,
                    ));
                    let ctx = format!("seed {seed} T {tasks} c {coupling} C {cost}");
                    assert_ridge_close((&a, &b), (&a0, &b0), 1e-7, &ctx);
                }
            }
        }
    }

    /// `α` and the biases `b` of two ridge solves agree to `rel` times the largest `|α₀|`.
    fn assert_ridge_close(got: (&[f64], &[f64]), want: (&[f64], &[f64]), rel: f64, ctx: &str) {
        let scale = want.0.iter().fold(1.0f64, |s, v| s.max(v.abs()));
        for (k, (x, x0)) in got.0.iter().zip(want.0).enumerate() {
            assert!((x - x0).abs() <= rel * scale, "{ctx}: α[{k}] {x} vs {x0}");
        }
        for (x, x0) in got.1.iter().zip(want.1) {
            assert!(
                (x - x0).abs() <= rel * scale.max(x0.abs()),
                "{ctx}: b {x} vs {x0}"
            );
        }
    }

    #[test]
    fn features_follow_a_growing_dag() {
        let (dag, _, _) = random_dag(20, 8, 1);
        let mut feat = Features::default();
        assert!(feat.sync(&dag, None));
        for i in 0..20 {
            let want: Vec<u32> = (0..dag.n_classes() as u32)
                .filter(|&k| dag.class_cover(k as usize).contains(&(i as u32)))
                .collect();
            assert_eq!(feat.row(i), &want[..]);
        }
        assert!(feat.update_counts(&dag, None));
        let mut bigger = dag.clone();
        bigger.push(&[1, 4, 9], &[0], 2.0f64.ln());
        assert!(feat.sync(&bigger, None));
        assert!(feat.update_counts(&bigger, None));
        let nc = bigger.n_classes();
        for k in 0..nc {
            for l in 0..nc {
                let n = bigger
                    .class_cover(k)
                    .iter()
                    .filter(|i| bigger.class_cover(l).contains(i))
                    .count();
                assert_eq!(feat.counts[k * nc + l], n as f64);
            }
        }
    }

    /// Solves the ridge problem of `dag` both ways (Cholesky, and conjugate gradients forced
    /// by a class limit of 0) and checks the conjugate gradients against what their stopping
    /// rule promises: the gap `(C/2)‖y_c − (K_c + I/C)α‖²` they leave, evaluated on the dense
    /// kernel, is at most their target (plus rounding), and, since `‖(K_c + I/C)⁻¹‖ ≤ C`,
    /// `‖α − α*‖₂ ≤ C‖ρ‖₂ = √(2C·gap)` from the Cholesky solution. One task only: the
    /// bound is the single solve's.
    fn cg_matches_cholesky(m: usize, n: usize, seed: u64, cost: f64, tol: f64) {
        let (dag, kappa, class_kappa) = random_dag(m, n, seed);
        let mut gram = DenseGram::try_new(m).unwrap();
        assert!(gram.build(&dag, &kappa, None));
        // λ_max(K) ≤ trace K
        let trace: f64 = (0..m).map(|i| gram.diag(i)).sum();
        let mut rng = SplitMix64::new(seed ^ 0x5EED);
        let y: Vec<f64> = (0..m)
            .map(|_| (rng.next_u64() % 1000) as f64 / 100.0 - 5.0)
            .collect();
        let solve = |limit: usize, warm: &[f64]| {
            let mut feat = Features::default();
            assert!(feat.sync(&dag, None));
            let mut work = RidgeWork {
                cholesky_max: limit,
                ..RidgeWork::default()
            };
            let (mut a, mut b) = (warm.to_vec(), vec![0.0]);
            assert!(solve_ridge_primal(
                &mut feat,
                &dag,
                &class_kappa,
                &y,
                1,
                0.0,
                cost,
                tol,
                &mut a,
                &mut b,
                &mut work,
                None,
            ));
            // the CG path never builds the r × r counts
            assert_eq!(feat.counts.is_empty(), limit < dag.n_classes());
            (a, b[0], work.cg_iters)
        };
        let (a0, b0, it0) = solve(usize::MAX, &vec![0.0; m]);
        assert_eq!(it0, 0);
        let warm: Vec<f64> = (0..m).map(|i| (i % 7) as f64 - 3.0).collect();
        for start in [vec![0.0; m], warm] {
            let (a, b, iters) = solve(0, &start);
            assert!(iters > 0 || dag.n_classes() == 0);
            let sum: f64 = a.iter().sum();
            let scale = a0.iter().fold(1.0f64, |s, v| s.max(v.abs()));
            assert!(sum.abs() <= 1e-9 * scale * m as f64, "1ᵀα = {sum}");
            // the residual on the dense kernel
            let ybar = y.iter().sum::<f64>() / m as f64;
            let mut ka = vec![0.0; m];
            gram.matvec_into(&a, &mut ka);
            let kbar = ka.iter().sum::<f64>() / m as f64;
            let gap = 0.5
                * cost
                * (0..m)
                    .map(|i| {
                        let rho = (y[i] - ybar) - (ka[i] - kbar) - a[i] / cost;
                        rho * rho
                    })
                    .sum::<f64>();
            let dual = 0.5 * y.iter().zip(&a).map(|(y, a)| (y - ybar) * a).sum::<f64>();
            let target = CG_GAP_FACTOR * tol * dual.max(1.0);
            // rounding of the residual itself: a few ulps of its terms
            let noise = 1e-12
                * cost
                * (scale * (1.0 + ka.iter().fold(0.0f64, |s, v| s.max(v.abs())))).powi(2)
                * m as f64;
            assert!(
                gap <= target * 1.01 + noise,
                "seed {seed} C {cost}: gap {gap} > {target}"
            );
            let dist: f64 = a
                .iter()
                .zip(&a0)
                .map(|(x, y)| (x - y) * (x - y))
                .sum::<f64>()
                .sqrt();
            let bound = (2.0 * cost * (target * 1.01 + noise)).sqrt();
            // the Cholesky solution's own error grows with the condition number C·λ_max(K)
            let chol_err = 1e-10 * cost * trace * scale * m as f64;
            assert!(
                dist <= bound + chol_err,
                "seed {seed} C {cost}: ‖α − α*‖ = {dist} > {bound} + {chol_err}"
            );
            // the bias is the mean fit minus the mean target, as the dense kernel gives it
            // (to the rounding of sums of `K_ij α_j`)
            let l1: f64 = a.iter().map(|v| v.abs()).sum();
            assert!(
                (b - (kbar - ybar)).abs() <= 1e-12 * (1.0 + ybar.abs() + trace * l1),
                "seed {seed} C {cost}: b {b} vs {}",
                kbar - ybar
            );
            assert!((b - b0).abs() <= trace * dist + 1e-9 * (1.0 + b0.abs()) + chol_err);
        }
    }

    #[test]
    fn conjugate_gradients_reach_the_cholesky_solution() {
        for seed in 0..10 {
            let (m, n) = (30 + seed as usize * 9, 5 + seed as usize % 7);
            for cost in [0.01, 1.0, 30.0, 1e4] {
                for tol in [1e-4, 1e-10] {
                    cg_matches_cholesky(m, n, seed + 200, cost, tol);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

        #[test]
        fn prop_conjugate_gradients_reach_the_cholesky_solution(
            seed in 0u64..1_000_000,
            m in 5usize..120,
            n in 2usize..30,
            cost in proptest::sample::select(vec![1e-3, 0.1, 1.0, 10.0, 1e3, 1e6]),
            tol in proptest::sample::select(vec![1e-3, 1e-6, 1e-12]),
        ) {
            cg_matches_cholesky(m, n, seed, cost, tol);
        }
    }

    /// Several tasks, coupled or not, with the conjugate gradients forced: the dense form's
    /// solution within the single solves' bounds (loose: `10⁻⁵` of the largest `|α|` at a
    /// tolerance whose per-solve bound is about `10⁻⁷` of it).
    #[test]
    fn conjugate_gradients_solve_coupled_tasks() {
        for seed in 0..6 {
            let (m, n) = (40 + seed as usize * 11, 6 + seed as usize % 5);
            let (dag, kappa, class_kappa) = random_dag(m, n, seed + 70);
            let mut gram = DenseGram::try_new(m).unwrap();
            assert!(gram.build(&dag, &kappa, None));
            let mut rng = SplitMix64::new(seed);
            for (tasks, coupling) in [(1, 0.5), (3, 0.0), (3, 1.0 / 0.7)] {
                let y: Vec<f64> = (0..tasks * m)
                    .map(|_| (rng.next_u64() % 1000) as f64 / 100.0 - 5.0)
                    .collect();
                for cost in [0.01, 1.0, 30.0] {
                    let (mut a0, mut b0) = (vec![0.0; tasks * m], vec![0.0; tasks]);
                    assert!(solve_ridge(
                        &gram,
                        &y,
                        tasks,
                        coupling,
                        cost,
                        &mut a0,
                        &mut b0,
                        &mut DenseRidgeWork::default(),
                        None
                    ));
                    let mut feat = Features::default();
                    assert!(feat.sync(&dag, None));
                    let mut work = RidgeWork {
                        cholesky_max: 0,
                        ..RidgeWork::default()
                    };
                    // warm-started from a point that is not the solution
                    let (mut a, mut b) = (vec![1.0; tasks * m], vec![0.0; tasks]);
                    assert!(solve_ridge_primal(
                        &mut feat,
                        &dag,
                        &class_kappa,
                        &y,
                        tasks,
                        coupling,
                        cost,
                        1e-10,
                        &mut a,
                        &mut b,
                        &mut work,
                        None,
                    ));
                    assert!(work.cg_iters > 0 && feat.counts.is_empty());
                    let ctx = format!("seed {seed} T {tasks} c {coupling} C {cost}");
                    assert_ridge_close((&a, &b), (&a0, &b0), 1e-5, &ctx);
                }
            }
        }
    }

    /// A conjugate-gradient solve that the meter stops (first poll after the first product of
    /// more than one poll interval) returns `false` with `alpha` and `bias` as they were, and
    /// builds no counts.
    #[test]
    fn a_stopped_conjugate_gradient_solve_leaves_alpha_and_bias() {
        use graphsparse_base::{Budget, RunControl};
        let (dag, _, class_kappa) = random_dag(2000, 200, 9);
        let mut feat = Features::default();
        assert!(feat.sync(&dag, None));
        assert!(feat.cols.len() + 2000 + dag.n_classes() >= POLL_ENTRIES);
        let y: Vec<f64> = (0..2000).map(|i| ((i * 37) % 101) as f64 / 20.0).collect();
        let ctl = RunControl::new();
        ctl.cancel();
        let meter = Budget::new().start(&ctl);
        let mut work = RidgeWork {
            cholesky_max: 0,
            ..RidgeWork::default()
        };
        let a_in: Vec<f64> = (0..2000).map(|i| (i % 5) as f64 - 2.0).collect();
        let (mut a, mut b) = (a_in.clone(), vec![0.75]);
        assert!(!solve_ridge_primal(
            &mut feat,
            &dag,
            &class_kappa,
            &y,
            1,
            0.0,
            1.0,
            1e-4,
            &mut a,
            &mut b,
            &mut work,
            Some(&meter),
        ));
        assert!(meter.is_stopped());
        assert_eq!((a, b), (a_in.clone(), vec![0.75]));
        assert!(feat.counts.is_empty() && feat.bits.is_empty());
        // and the same work solves it afterwards
        let (mut a, mut b) = (a_in, vec![0.75]);
        assert!(solve_ridge_primal(
            &mut feat,
            &dag,
            &class_kappa,
            &y,
            1,
            0.0,
            1.0,
            1e-4,
            &mut a,
            &mut b,
            &mut work,
            None,
        ));
        assert!(work.cg_iters > 0);
    }

    /// Whole regressor fits with the ridge solves forced onto the conjugate gradients (class
    /// limit 0 for the work made on this thread) against the Cholesky ones: both certified
    /// with gaps within the tolerance, primal values within the sum of the gaps, and training
    /// predictions within `√(2 gap/C)` of each other per fit (the primal is `C/2`-strongly
    /// convex in the fitted values `F`, so `(C/2)‖F − F*‖² ≤ P(F) − P* ≤ gap`).
    #[test]
    fn regressor_fits_agree_with_forced_conjugate_gradients() {
        use crate::{GhklParams, PropositionMatrix, SolverForm, TaskCoupling, fit};
        use graphsparse_base::{Check, Loss, RunControl};
        for seed in 0..6u64 {
            let (m, p) = (60 + 10 * seed as usize, 6);
            let mut rng = SplitMix64::new(seed + 900);
            let x: Vec<bool> = (0..m * p).map(|_| rng.uniform() < 0.5).collect();
            let tasks = 1 + seed as usize % 3;
            let y: Vec<f64> = (0..tasks * m)
                .map(|k| {
                    let i = k % m;
                    let rule = x[i * p] && !x[i * p + 1];
                    3.0 * f64::from(u8::from(rule))
                        + x[i * p + 2] as u8 as f64
                        + 0.1 * (rng.uniform() - 0.5)
                        + (k / m) as f64 * 0.3
                })
                .collect();
            let xm = PropositionMatrix::from_dense(m, p, &x).unwrap();
            let cost = [0.1, 1.0, 10.0][seed as usize % 3];
            let mut params = GhklParams::new()
                .loss(Loss::Squared)
                .c(cost)
                .solver_form(SolverForm::Primal);
            if seed % 2 == 1 {
                params = params.coupling(TaskCoupling::MeanRegularized { mu: 0.7 });
            }
            let valid = params.check().unwrap();
            let run = |limit: Option<usize>| {
                CHOLESKY_MAX_OVERRIDE.with(|c| c.set(limit));
                let f = fit(&valid, &xm, &y, tasks, &RunControl::new()).unwrap();
                CHOLESKY_MAX_OVERRIDE.with(|c| c.set(None));
                f
            };
            let (chol, cg) = (run(None), run(Some(0)));
            let scale = chol.primal.abs().max(1.0);
            for f in [&chol, &cg] {
                assert!(
                    f.converged && f.gap <= 1e-3 * f.primal.abs().max(1.0),
                    "{f:?}"
                );
            }
            assert!(
                (chol.primal - cg.primal).abs() <= chol.gap + cg.gap + 1e-9 * scale,
                "seed {seed}: {} ({}) vs {} ({})",
                chol.primal,
                chol.gap,
                cg.primal,
                cg.gap
            );
            assert!(chol.dual <= cg.primal + 1e-9 * scale && cg.dual <= chol.primal + 1e-9 * scale);
            let (fa, fb) = (
                chol.decision_function(&xm).unwrap(),
                cg.decision_function(&xm).unwrap(),
            );
            let dist = fa
                .iter()
                .zip(&fb)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
                .sqrt();
            let bound = (2.0 * chol.gap / cost).sqrt() + (2.0 * cg.gap / cost).sqrt();
            assert!(
                dist <= bound + 1e-9 * scale,
                "seed {seed}: ‖ΔF‖ {dist} > {bound}"
            );
        }
    }

    /// Measurement, not a check (`--ignored --nocapture`): one ridge solve by Cholesky against
    /// conjugate gradients from zero and warm-started from the solution at other weights (κ
    /// perturbed by up to 5 %, as between two mirror-descent steps), at growing class counts.
    #[test]
    #[ignore = "timing"]
    fn time_cholesky_against_conjugate_gradients() {
        use std::time::Instant;
        let m = 2000;
        for n in [200, 500, 1000, 2000, 3000] {
            let (dag, _, class_kappa) = random_dag(m, n, 3);
            let r = dag.n_classes();
            let y: Vec<f64> = (0..m).map(|i| ((i * 37) % 101) as f64 / 20.0).collect();
            let mut feat = Features::default();
            assert!(feat.sync(&dag, None));
            let t = Instant::now();
            assert!(feat.update_counts(&dag, None));
            let counts_s = t.elapsed().as_secs_f64();
            let mut rng = SplitMix64::new(1);
            let other: Vec<f64> = class_kappa
                .iter()
                .map(|k| k * (0.95 + 0.1 * rng.uniform()))
                .collect();
            let mut line = format!("m {m} r {r} nnz {} counts {counts_s:.3}s", feat.cols.len());
            for (name, limit) in [("cholesky", usize::MAX), ("cg", 0)] {
                let mut work = RidgeWork {
                    cholesky_max: limit,
                    ..RidgeWork::default()
                };
                let (mut a, mut b) = (vec![0.0; m], vec![0.0]);
                let t = Instant::now();
                assert!(solve_ridge_primal(
                    &mut feat, &dag, &other, &y, 1, 0.0, 10.0, 1e-4, &mut a, &mut b, &mut work,
                    None
                ));
                let cold = t.elapsed().as_secs_f64();
                let it_cold = work.cg_iters;
                let t = Instant::now();
                assert!(solve_ridge_primal(
                    &mut feat,
                    &dag,
                    &class_kappa,
                    &y,
                    1,
                    0.0,
                    10.0,
                    1e-4,
                    &mut a,
                    &mut b,
                    &mut work,
                    None
                ));
                let warm = t.elapsed().as_secs_f64();
                line += &format!(
                    " | {name} cold {cold:.4}s ({it_cold} it) warm {warm:.4}s ({} it)",
                    work.cg_iters - it_cold
                );
                if limit == 0 {
                    // the counts were let go: build them again for the next size
                    assert!(feat.counts.is_empty());
                }
            }
            eprintln!("{line}");
        }
    }

    /// A sync that the meter stops reports it, and the next one builds the rows (and the
    /// counts after it) whole, as a fresh one would.
    #[test]
    fn a_stopped_sync_is_redone_whole() {
        use graphsparse_base::{Budget, RunControl};
        // 2,000 examples, 100 nodes: far more than one poll interval of cover entries
        let (small, _, _) = random_dag(2000, 3, 4);
        let (dag, _, _) = random_dag(2000, 100, 5);
        let mut feat = Features::default();
        assert!(feat.sync(&small, None));
        assert!(feat.update_counts(&small, None));
        let ctl = RunControl::new();
        ctl.cancel();
        let meter = Budget::new().start(&ctl);
        assert!(!feat.sync(&dag, Some(&meter)));
        assert!(meter.is_stopped());
        assert!(feat.sync(&dag, None));
        assert!(feat.update_counts(&dag, None));
        let mut fresh = Features::default();
        assert!(fresh.sync(&dag, None));
        assert!(fresh.update_counts(&dag, None));
        assert_eq!(feat.row_ptr, fresh.row_ptr);
        assert_eq!(feat.cols, fresh.cols);
        assert_eq!(feat.sizes, fresh.sizes);
        assert_eq!(feat.counts, fresh.counts);
        assert_eq!(feat.n_classes, dag.n_classes());
    }
}
