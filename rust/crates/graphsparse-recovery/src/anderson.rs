//! Anderson-accelerated PDHG for the graph model: a safeguarded multisecant quasi-Newton
//! method on the fixed-point residual of a fixed-step primal–dual map, for problems whose
//! iterates are small enough to keep a few copies of ([`Solver::Auto`] picks it by size).
//!
//! # The model and its dual
//!
//! Primal, over `z = (x, σ)`: `min f(L x) + λ Σ_n φ(x_n, σ_n) + ι_{B_α}(W D σ)` with the
//! perspective `φ(x, s) = x²/(2s) + s/2` (spec §1.2). With `K = blockdiag(L, W D)`,
//! `G(z) = λ Σ φ` and `F(v₁, v₂) = f(v₁) + ι_{B_α}(v₂)`, the Fenchel dual is
//! `max_v −f*(v₁) − α‖v₂‖_∞ − G*(−Kᵀ v)`, and since `φ* = ι_P` with
//! `P = {(a, b) : a² + 2b ≤ 1}`, `G*(−Kᵀv)` is finite exactly when, for every `n`,
//! `((Lᵀv₁)_n/λ)² − 2 (Dᵀ W v₂)_n/λ ≤ 1`. The certificate is the one of every solver of
//! this crate ([`crate::pdhg`]'s check, spec §3.6): the primal value at `(x, σ')` with `σ`
//! shrunk towards its component means until `‖W D σ'‖₁ ≤ α`, the dual value at `t·v` with the
//! largest `t ≤ 1` that makes `v` feasible, and the relative gap of the two.
//!
//! # The map
//!
//! `T` is one fixed-step PDHG iteration in primal-first order, on the state
//! `w = (x, σ, v₁, v₂)` together with its products `L x`, `W D σ`, `Lᵀ v₁`, `Dᵀ W v₂`:
//! ```text
//! (x⁺, σ⁺) = prox_{τλφ}(x − τ Lᵀv₁, σ − τ Dᵀ W v₂)            (the closed-form perspective prox)
//! v₁⁺ = prox_{ς₁ f*}(v₁ + ς₁ L(2x⁺ − x))                        (the loss's conjugate prox)
//! v₂⁺ = v − ς₂ Π_{B_α}(v/ς₂),  v = v₂ + ς₂ W D(2σ⁺ − σ)          (clip to [−λβ, λβ] in the Lagrangian form)
//! ```
//! with `τ ς₁ ‖L‖² = τ ς₂ ‖W D‖² = 0.99`. Its fixed points are the primal–dual solutions, and
//! `T` is averaged in the PDHG metric, so plain iteration converges (Chambolle & Pock 2011);
//! one evaluation costs one product each with `L`, `Lᵀ`, `W D`, `Dᵀ W`, the same as a PDHG
//! iteration. The products are linear in the state, so a linear combination of states
//! carries its products along without a new product.
//!
//! # The acceleration (type-II Anderson, Walker & Ni 2011)
//!
//! With the residuals `f_k = M(T(w_k) − w_k)` (`M` the diagonal scaling `τ^{-1/2}` on the
//! primal blocks and `ς_i^{-1/2}` on the dual ones, which approximates the PDHG norm), the
//! last `memory` differences `ΔF`, `ΔG` of residuals and of map values, and
//! `γ = argmin ‖f_k − ΔF γ‖₂` (normal equations with a tiny Tikhonov term), the candidate is
//! `w_AA = T(w_k) − ΔG γ`: the secant (quasi-Newton) step of the root problem
//! `T(w) − w = 0` with the multisecant inverse-Jacobian estimate of the last `memory` steps
//! (Fang & Saad 2009). Safeguard: the candidate is kept only when its own residual
//! `‖M(T(w_AA) − w_AA)‖` is smaller than the one it replaces; otherwise the history restarts
//! from the plain step `T(w_k)`. Either way every iterate handed to the certificate is an
//! output of `T`, so it has PDHG's structure (exact zeros of `x`, `σ ≥ 0`) and the same
//! certificate applies unchanged.
//!
//! Why this method: a semismooth Newton ALM (Li, Sun & Toh) or an interior-point method needs
//! a new dense system in `L` at every Newton step (with the TV ball as a second nonsmooth
//! block in SSNAL's inner problem), and an active-set Newton polish needs the support, the
//! fused groups and the jump signs of `σ` identified first. A NumPy prototype of that polish
//! on §4's instance (N = 500, J = 350; the reduced KKT system in `(x_S, μ)` by Newton, the
//! graph dual by an LP) certified a gap of 4e-14 in two Newton steps from the exact structure,
//! but adaptive PDHG's iterates still had 6–9 support vertices wrong at relative gaps of 6e-5
//! to 1e-6 (250–400 iterations), so started from them it never certified 1e-5 before PDHG
//! itself did. The quasi-Newton step on the PDHG residual needs no identification, costs
//! O(memory·(N + J + m)) per iteration on top of the products, and cut the map evaluations to
//! a relative gap of 1e-5 from 230 (plain map) and 330 (adaptive PDHG) to 130, in the
//! prototype and here alike.
//!
//! The arithmetic on that instance (J = 350, a support of about 240): the whole solve is about
//! 165 products with `Lᵀ` and as many with `L` (130 map evaluations and 35 Lanczos steps),
//! some 5·10⁷ multiply-adds with the column copy of [`solve_anderson`]. One Newton step with a
//! dense `J × J` system costs `J²|S|/2 ≈ 1.5·10⁷` to form `L_S D L_Sᵀ` and `J³/3 ≈ 1.4·10⁷` to
//! factor it, about 80 products' worth, so a second-order method would have to certify 1e-5
//! in about two Newton steps to break even; SSNAL's inner solves typically take tens of them,
//! and with conjugate gradients instead of the factorisation each Newton step costs tens of
//! products again.

use graphsparse_base::{Parallel, RunControl, cholesky_in_place, cholesky_solve};
use graphsparse_proj::project_l1_ball_into;

use crate::error::{RecoveryError, Result};
use crate::graph::GraphDifference;
use crate::loss::Fit;
use crate::operator::{ColumnMajor, LinearOperator, apply_adjoint_counted, apply_counted};
use crate::par::{Reducer, dot};
use crate::params::{HistoryEntry, OpCounts, Recovery, RecoveryValidParams, WarmStart};
use crate::pdhg::{GapInput, Penalty, RunEnd, STEP_FACTOR, check, load, step_norms, stop_holds};
use crate::prox::prox_persp;

/// Primal step of the map in units of `1/‖L‖` (times the params' `step_ratio`): the best
/// fixed step of the prototype on §4's instance at three values of `λ`.
pub(crate) const ANDERSON_STEP: f64 = 0.3;
/// Relative change at which the Lanczos estimates of `‖L‖` and `‖W D‖` stop (PDHG uses
/// 1e-10). The steps take the estimate times 1.01, so an error of order 1e-6 is immaterial;
/// on §4's instance the Lanczos steps went from 41 to 35 for `L` (whose products were a
/// quarter of a solve's) and from 97 to 55 for `W D`.
const ANDERSON_NORM_TOL: f64 = 1e-6;
/// Tikhonov weight (relative to the trace) of the least-squares problem for `γ`.
const AA_REG: f64 = 1e-10;

/// A state of the map: `[x, σ, v₁, v₂, L x, W D σ, Lᵀ v₁, Dᵀ W v₂]`.
#[derive(Clone)]
struct Point([Vec<f64>; 8]);

const X: usize = 0;
const S: usize = 1;
const V1: usize = 2;
const V2: usize = 3;
const LX: usize = 4;
const DS: usize = 5;
const LTV: usize = 6;
const DTV: usize = 7;

impl Point {
    fn zeros(j: usize, n: usize, m: usize) -> Self {
        Point([
            vec![0.0; n],
            vec![0.0; n],
            vec![0.0; j],
            vec![0.0; m],
            vec![0.0; j],
            vec![0.0; m],
            vec![0.0; n],
            vec![0.0; n],
        ])
    }
}

/// What the map reads: the problem, the steps and the scratch of the ball projection.
struct Map<'a, Op: LinearOperator + ?Sized> {
    fit: Fit,
    op: &'a Op,
    y: &'a [f64],
    graph: &'a GraphDifference<'a>,
    alpha: f64,
    lagrangian: bool,
    lam: f64,
    par: Parallel,
    tau: f64,
    s1: f64,
    s2: f64,
    m: usize,
    ball: Vec<f64>,
    ball_out: Vec<f64>,
    counts: OpCounts,
}

impl<Op: LinearOperator + ?Sized> Map<'_, Op> {
    /// `out.x, out.σ ← …` products `L x`, `W D σ` of `p` (its other blocks untouched).
    fn primal_products(&mut self, p: &mut Point) -> Result<()> {
        let [x, s, _, _, lx, ds, _, _] = &mut p.0;
        apply_counted(self.op, self.par, x, lx, &mut self.counts)?;
        if self.m > 0 {
            self.graph.diff(s, ds, self.par);
            self.counts.diff += 1;
            self.counts.work += self.graph.diff_cost();
        }
        Ok(())
    }

    /// The adjoint products `Lᵀ v₁`, `Dᵀ W v₂` of `p`.
    fn dual_products(&mut self, p: &mut Point) -> Result<()> {
        let [_, _, v1, v2, _, _, ltv, dtv] = &mut p.0;
        apply_adjoint_counted(self.op, self.par, v1, ltv, &mut self.counts)?;
        if self.m > 0 {
            self.graph.diff_adjoint(v2, dtv, self.par);
            self.counts.diff_adjoint += 1;
            self.counts.work += self.graph.diff_cost();
        } else {
            dtv.fill(0.0);
        }
        Ok(())
    }

    /// `to = T(from)` with its products (module docs).
    ///
    /// # Errors
    /// [`RecoveryError::Diverged`] when `τλ` or the ball projection leaves float64's range.
    fn apply(&mut self, from: &Point, to: &mut Point, it: usize) -> Result<()> {
        let (tau, c) = (self.tau, self.tau * self.lam);
        if !(c.is_finite() && c > 0.0) {
            return Err(RecoveryError::Diverged { iteration: it });
        }
        let f = &from.0;
        {
            let [x, s, ..] = &mut to.0;
            for n in 0..x.len() {
                (x[n], s[n]) = prox_persp(f[X][n] - tau * f[LTV][n], f[S][n] - tau * f[DTV][n], c);
            }
        }
        self.counts.prox += f[X].len() as u64;
        self.primal_products(to)?;
        let (fit, y, s1, s2) = (self.fit, self.y, self.s1, self.s2);
        {
            let [_, _, v1, v2, lx, ds, _, _] = &mut to.0;
            for (q, v) in v1.iter_mut().enumerate() {
                *v = fit.prox_conj(y[q], f[V1][q] + s1 * (2.0 * lx[q] - f[LX][q]), s1);
            }
            if self.m > 0 && self.lagrangian {
                let cap = self.lam * self.alpha;
                for (q, v) in v2.iter_mut().enumerate() {
                    *v = (f[V2][q] + s2 * (2.0 * ds[q] - f[DS][q])).clamp(-cap, cap);
                }
            } else if self.m > 0 {
                for (q, v) in v2.iter_mut().enumerate() {
                    *v = f[V2][q] + s2 * (2.0 * ds[q] - f[DS][q]);
                    self.ball[q] = *v / s2;
                }
                project_l1_ball_into(&self.ball, self.alpha, &mut self.ball_out)
                    .map_err(|_| RecoveryError::Diverged { iteration: it })?;
                self.counts.ball_projections += 1;
                for (v, &b) in v2.iter_mut().zip(&self.ball_out) {
                    *v -= s2 * b;
                }
            }
        }
        self.dual_products(to)
    }

    /// The scaled residual `M (g − w)` into `out`, and its squared norms on the primal and the
    /// dual blocks (unscaled by `M`: `‖Δz‖²`, `‖Δv‖²` for the reported residuals).
    fn residual(&self, g: &Point, w: &Point, out: &mut [f64]) -> (f64, f64) {
        let wp = self.tau.sqrt().recip();
        let w1 = self.s1.sqrt().recip();
        let w2 = if self.s2 > 0.0 {
            self.s2.sqrt().recip()
        } else {
            0.0
        };
        let (mut pz, mut pv) = (0.0, 0.0);
        let mut k = 0;
        for (block, scale) in [(X, wp), (S, wp), (V1, w1), (V2, w2)] {
            for (a, b) in g.0[block].iter().zip(&w.0[block]) {
                let d = a - b;
                if block <= S {
                    pz += d * d;
                } else {
                    pv += d * d;
                }
                out[k] = scale * d;
                k += 1;
            }
        }
        (pz, pv)
    }
}

/// The secant history: the last map values `G`, the residual differences `ΔF` with their
/// Gram matrix, and the last residual.
struct History {
    memory: usize,
    g: std::collections::VecDeque<Point>,
    df: std::collections::VecDeque<Vec<f64>>,
    /// `gram[i][k]` = `⟨ΔF_i, ΔF_{i+k}⟩`.
    gram: std::collections::VecDeque<Vec<f64>>,
    last_f: Vec<f64>,
    has_last: bool,
    spare: Vec<Point>,
    spare_f: Vec<Vec<f64>>,
}

impl History {
    fn new(memory: usize, dim: usize) -> Self {
        Self {
            memory,
            g: std::collections::VecDeque::new(),
            df: std::collections::VecDeque::new(),
            gram: std::collections::VecDeque::new(),
            last_f: vec![0.0; dim],
            has_last: false,
            spare: Vec::new(),
            spare_f: Vec::new(),
        }
    }

    /// Forgets everything but keeps the buffers.
    fn clear(&mut self) {
        while let Some(p) = self.g.pop_front() {
            self.spare.push(p);
        }
        while let Some(d) = self.df.pop_front() {
            self.spare_f.push(d);
        }
        self.gram.clear();
        self.has_last = false;
    }

    /// Appends the map value `g` (copied) and its residual `f`.
    fn push(&mut self, g: &Point, f: &[f64]) {
        if self.has_last {
            let mut d = self.spare_f.pop().unwrap_or_else(|| vec![0.0; f.len()]);
            for ((o, &a), &b) in d.iter_mut().zip(f).zip(&self.last_f) {
                *o = a - b;
            }
            if self.df.len() == self.memory {
                if let Some(old) = self.df.pop_front() {
                    self.spare_f.push(old);
                }
                self.gram.pop_front();
            }
            for (row, other) in self.gram.iter_mut().zip(&self.df) {
                row.push(dot(other, &d));
            }
            self.gram.push_back(vec![dot(&d, &d)]);
            self.df.push_back(d);
        }
        self.last_f.copy_from_slice(f);
        self.has_last = true;
        let mut p = self.spare.pop().unwrap_or_else(|| g.clone());
        for (dst, src) in p.0.iter_mut().zip(&g.0) {
            dst.copy_from_slice(src);
        }
        if self.g.len() == self.memory + 1 {
            if let Some(old) = self.g.pop_front() {
                self.spare.push(old);
            }
        }
        self.g.push_back(p);
    }

    /// The Anderson candidate into `out`, or `false` when there is no secant pair yet or the
    /// least-squares system is numerically singular.
    fn candidate(&self, out: &mut Point) -> bool {
        let k = self.df.len();
        if k == 0 {
            return false;
        }
        // normal equations (ΔFᵀΔF + ρ I) γ = ΔFᵀ f
        let mut a = vec![0.0; k * k];
        for i in 0..k {
            for j in i..k {
                let v = self.gram[i][j - i];
                a[i * k + j] = v;
                a[j * k + i] = v;
            }
        }
        let trace: f64 = (0..k).map(|i| a[i * k + i]).sum();
        if !(trace.is_finite() && trace > 0.0) {
            return false;
        }
        for i in 0..k {
            a[i * k + i] += AA_REG * trace;
        }
        let mut gamma: Vec<f64> = self.df.iter().map(|d| dot(d, &self.last_f)).collect();
        if !cholesky_in_place(&mut a, k, 0.0) {
            return false;
        }
        cholesky_solve(&a, k, &mut gamma);
        // w = G_k − Σ γ_i (G_{i+1} − G_i) = Σ_j c_j G_j over the k + 1 stored values
        let off = self.g.len() - (k + 1);
        let mut coef = vec![0.0; k + 1];
        coef[k] = 1.0;
        for (i, &gi) in gamma.iter().enumerate() {
            coef[i + 1] -= gi;
            coef[i] += gi;
        }
        if coef.iter().any(|c| !c.is_finite()) {
            return false;
        }
        for (b, dst) in out.0.iter_mut().enumerate() {
            dst.fill(0.0);
            for (j, &c) in coef.iter().enumerate() {
                for (o, &v) in dst.iter_mut().zip(&self.g[off + j].0[b]) {
                    *o += c * v;
                }
            }
        }
        true
    }
}

/// The certificate at the map value `g` (iteration `it`), with `pres`, `dres` the residuals
/// of the step that produced it.
#[allow(clippy::too_many_arguments)]
fn certify(
    g: &Point,
    fit: Fit,
    y: &[f64],
    lam: f64,
    pen: Penalty<'_>,
    par: Parallel,
    red: &mut Reducer,
    comp_sum: &mut Vec<f64>,
    it: usize,
    (pres, dres): (f64, f64),
) -> Result<HistoryEntry> {
    let p = &g.0;
    check(
        &GapInput {
            fit,
            y,
            lam,
            pen,
            z: &p[X],
            s: &p[S],
            kz: &p[LX],
            ds: &p[DS],
            v1: &p[V1],
            v2: &p[V2],
            ktv: &p[LTV],
            dtv: &p[DTV],
            par,
        },
        red,
        comp_sum,
        it,
        pres,
        dres,
    )
}

/// Solves the graph model with Anderson-accelerated PDHG (module docs): `n_iter` counts the
/// evaluations of the map, each one product with `L` and one with `Lᵀ`.
///
/// A dense `L` of at most 2²³ entries is first copied column-major ([`ColumnMajor`], `J·N`
/// more floats): the map's `x⁺` comes out of the prox with exact zeros, and `L x⁺` then reads
/// the columns of its support only (240 of 500 on §4's instance, where a perf profile of
/// repeated solves put about 45 % of the samples in the two products with `L`, half of them
/// in the row-major `L x`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_anderson<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    fit: Fit,
    op: &Op,
    y: &[f64],
    graph: &GraphDifference<'_>,
    alpha: f64,
    lagrangian: bool,
    memory: usize,
    warm: Option<&WarmStart>,
    ctl: &RunControl,
) -> Result<Recovery> {
    match ColumnMajor::new(op) {
        Some(cm) => solve_anderson_on(
            params, fit, &cm, y, graph, alpha, lagrangian, memory, warm, ctl,
        ),
        None => solve_anderson_on(
            params, fit, op, y, graph, alpha, lagrangian, memory, warm, ctl,
        ),
    }
}

#[allow(clippy::too_many_arguments)]
fn solve_anderson_on<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    fit: Fit,
    op: &Op,
    y: &[f64],
    graph: &GraphDifference<'_>,
    alpha: f64,
    lagrangian: bool,
    memory: usize,
    warm: Option<&WarmStart>,
    ctl: &RunControl,
) -> Result<Recovery> {
    let pen = Penalty::Graph {
        graph,
        alpha,
        lagrangian,
    };
    let par = params.parallel();
    let (j, n, m) = (op.n_rows(), op.n_cols(), graph.graph().n_edges());
    let mut counts = OpCounts::default();
    let (knorm, dnorm) = step_norms(params, op, pen, &mut counts, ANDERSON_NORM_TOL)?;
    let knorm = if knorm > 0.0 { knorm } else { 1.0 };
    let tau = params.step_ratio() * ANDERSON_STEP / knorm;
    let s1 = STEP_FACTOR / (tau * knorm * knorm);
    let s2 = if dnorm > 0.0 {
        STEP_FACTOR / (tau * dnorm * dnorm)
    } else {
        0.0
    };
    let mut map = Map {
        fit,
        op,
        y,
        graph,
        alpha,
        lagrangian,
        lam: params.lam(),
        par,
        tau,
        s1,
        s2,
        m,
        ball: vec![0.0; m],
        ball_out: vec![0.0; m],
        counts,
    };
    let mut w = Point::zeros(j, n, m);
    if let Some(ws) = warm {
        load("warm_start.x", &ws.x, &mut w.0[X])?;
        load("warm_start.sigma", &ws.sigma, &mut w.0[S])?;
        load("warm_start.dual_data", &ws.dual_data, &mut w.0[V1])?;
        load("warm_start.dual_graph", &ws.dual_graph, &mut w.0[V2])?;
        w.0[S].iter_mut().for_each(|v| *v = v.max(0.0));
    }
    map.primal_products(&mut w)?;
    map.dual_products(&mut w)?;

    let dim = 2 * n + j + m;
    let mut hist = History::new(memory, dim);
    let mut f = vec![0.0; dim];
    let mut g = Point::zeros(j, n, m);
    let mut cand = Point::zeros(j, n, m);
    let mut tcand = Point::zeros(j, n, m);
    let (mut red, mut comp_sum) = (Reducer::default(), Vec::new());
    let meter = params.budget().start(ctl);
    let (check_every, max_iter) = (params.check_every(), params.max_iter());
    let (lam, tol, stop) = (params.lam(), params.tol(), params.stop());
    let mut history = Vec::new();
    let mut last: Option<HistoryEntry> = None;
    let mut converged = false;

    let mut it = 0;
    let mut res = (f64::NAN, f64::NAN);
    if meter.claim_node() {
        map.apply(&w, &mut g, 1)?;
        it = 1;
        ctl.progress().add_iteration();
    }
    let mut next_check = check_every;
    loop {
        let stopped = it == 0 || it >= max_iter;
        if it > 0 {
            let (pz, pv) = map.residual(&g, &w, &mut f);
            res = (pz.sqrt() / tau, pv.sqrt() / s1.max(f64::MIN_POSITIVE));
            if it >= next_check || stopped {
                next_check = (it / check_every + 1) * check_every;
                let entry = certify(&g, fit, y, lam, pen, par, &mut red, &mut comp_sum, it, res)?;
                ctl.progress().set_value(entry.gap);
                let p = &g.0;
                converged = stop_holds(stop, tol, &entry, [&p[LTV], &p[DTV]], [&p[LX], &p[DS]]);
                if params.record_history() {
                    history.push(entry);
                }
                last = Some(entry);
                if converged {
                    break;
                }
            }
        }
        if stopped {
            break;
        }
        let rn = dot(&f, &f).sqrt();
        hist.push(&g, &f);
        if memory > 0 && hist.candidate(&mut cand) {
            if !meter.claim_node() {
                break;
            }
            map.apply(&cand, &mut tcand, it + 1)?;
            it += 1;
            ctl.progress().add_iteration();
            let (pz, pv) = map.residual(&tcand, &cand, &mut f);
            let rc = dot(&f, &f).sqrt();
            if rc < rn {
                std::mem::swap(&mut w, &mut cand);
                std::mem::swap(&mut g, &mut tcand);
                res = (pz.sqrt() / tau, pv.sqrt() / s1);
                continue;
            }
            // rejected: restart the history from the plain step
            hist.clear();
            let _ = map.residual(&g, &w, &mut f);
            hist.push(&g, &f);
            if it >= max_iter {
                // the top of the loop checks g and stops
                continue;
            }
        }
        if !meter.claim_node() {
            break;
        }
        std::mem::swap(&mut w, &mut g);
        map.apply(&w, &mut g, it + 1)?;
        it += 1;
        ctl.progress().add_iteration();
    }
    let last = match last {
        Some(e) if e.iteration == it => e,
        _ => {
            // the final map value was not checked yet (a budget stop)
            let e = certify(
                if it == 0 { &w } else { &g },
                fit,
                y,
                lam,
                pen,
                par,
                &mut red,
                &mut comp_sum,
                it,
                res,
            )?;
            if it > 0 {
                let p = &g.0;
                converged = stop_holds(stop, tol, &e, [&p[LTV], &p[DTV]], [&p[LX], &p[DS]]);
                if params.record_history() {
                    history.push(e);
                }
            }
            e
        }
    };
    let end = RunEnd {
        it,
        converged,
        last,
        history,
        truncation: meter.truncation(),
    };
    let out = if it == 0 { w } else { g };
    let [x, sigma, v1, v2, ..] = out.0;
    Ok(end.into_recovery(
        x.clone(),
        Vec::new(),
        map.counts,
        (knorm, dnorm),
        WarmStart {
            x,
            sigma,
            dual_data: v1,
            dual_graph: v2,
            aux_data: Vec::new(),
            aux_graph: Vec::new(),
            tau,
            adapt: 0.0,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_candidate_is_the_secant_combination() {
        // two scalar-like states: with one secant pair, γ = ⟨ΔF, f₁⟩/‖ΔF‖² and
        // w = G₁ − γ (G₁ − G₀)
        let mut h = History::new(3, 1);
        let mut p0 = Point::zeros(0, 1, 0);
        p0.0[X][0] = 1.0;
        let mut p1 = Point::zeros(0, 1, 0);
        p1.0[X][0] = 3.0;
        h.push(&p0, &[2.0]);
        let mut out = Point::zeros(0, 1, 0);
        assert!(!h.candidate(&mut out), "no secant pair yet");
        h.push(&p1, &[1.0]);
        assert!(h.candidate(&mut out));
        // ΔF = −1, γ = (−1·1)/(1 + 1e-10) ≈ −1, w ≈ 3 + 1·(3 − 1) = 5: the root of the
        // linear residual f(w) = (5 − w)/2 through (1, 2) and (3, 1)
        assert!((out.0[X][0] - 5.0).abs() < 1e-8, "{}", out.0[X][0]);
    }
}
