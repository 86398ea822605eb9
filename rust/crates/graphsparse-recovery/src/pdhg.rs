//! The primal–dual engine shared by the graph model, the lasso and the latent group lasso.
//!
//! Problem `min_z G(z) + F(K z)` with `z = (x, σ)`, `K = blockdiag(K₁, W D)`,
//! `F(v₁, v₂) = f(v₁) + ι_{B_α}(v₂)` (spec §3.3). `K₁ = L` (graph model, lasso) or `L P`
//! (latent group lasso, `z` = the latent copies); the `σ` block exists for the graph model
//! only. `G` is `λ Σ φ(x_n, σ_n)`, `λ‖x‖₁` or `λ Σ_g d_g ‖v_g‖₂`.
//!
//! Iteration (dual step first; `z̄⁰ = z⁰`):
//! ```text
//! v₁ ← prox_{ς₁f*}(v₁ + ς₁ K₁ z̄)        v₂ ← prox_{ς₂ α‖·‖∞}(v₂ + ς₂ W D σ̄)
//! z  ← prox_{τG}(z − τ K₁ᵀ v₁, σ − τ Dᵀ W v₂)
//! K z̄ ← 2 K z − K z_old                 (cached: one product per operator per iteration)
//! ```
//! Steps satisfy `τ ς₁ ‖K₁‖² = τ ς₂ ‖W D‖² = 0.99` (norms inflated by 1 %). The adaptive
//! variant (Goldstein, Li & Yuan, "Adaptive primal-dual splitting methods for statistical
//! learning and image processing", NeurIPS 2015) compares the primal residual
//! `p = (z_old − z)/τ` with the dual residual `d = (v_old − v)/ς − (K z − K z̄)` (both
//! residuals of the optimality conditions at the new pair, for this dual-first ordering) and
//! moves `τ` up and every `ς` down by `1/(1−a)` (or the reverse) when one exceeds 1.5 times
//! the other, with `a` decaying by 0.95 per change; products `τ ςᵢ` never change.
//!
//! Every `check_every` iterations a duality gap is computed from a feasible primal point (for
//! the graph model, `σ` shrunk towards its per-component means until `‖W D σ‖₁ ≤ α`) and a
//! feasible dual point (the dual scaled into `dom G*`), spec §3.6.

use graphsparse_base::Parallel;
use graphsparse_base::RunControl;
use graphsparse_proj::project_l1_ball_into;

use crate::error::{RecoveryError, Result};
use crate::graph::GraphDifference;
use crate::groups::{LatentDesign, LatentGroups};
use crate::loss::Fit;
use crate::norm::{NORM_SAFETY, estimate_op_norm, estimate_op_norm_below};
use crate::operator::{ColumnMajor, LinearOperator, apply_adjoint_counted, apply_counted};
use crate::par::{Reducer, dot, for_chunks, for_chunks2};
use crate::params::{HistoryEntry, OpCounts, Recovery, RecoveryValidParams, StopRule, WarmStart};
use crate::prox::{perspective, prox_persp};

/// Step factor below the bound `τ ς ‖K‖² ≤ 1`.
pub(crate) const STEP_FACTOR: f64 = 0.99;
/// Lanczos tolerance of the norm estimates.
pub(crate) const NORM_TOL: f64 = 1e-10;
const ADAPT_A0: f64 = 0.5;
const ADAPT_ETA: f64 = 0.95;
const ADAPT_DELTA: f64 = 1.5;

/// The penalty of a solve.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Penalty<'a> {
    /// `Ψ_α` on the graph (the `σ` block); with `lagrangian`, `Ψ^pen_β` with `β = alpha`.
    Graph {
        graph: &'a GraphDifference<'a>,
        alpha: f64,
        lagrangian: bool,
    },
    /// `‖x‖₁`.
    L1,
    /// The latent group lasso norm.
    Groups(&'a LatentGroups),
}

impl<'a> Penalty<'a> {
    /// `(n1, ns, m, α, lagrangian)` for `n` columns of `L`: the primal and `σ` sizes, the edge
    /// count, and the graph penalty's weight and form (`0`, `false` without a graph).
    fn sizes(self, n: usize) -> (usize, usize, usize, f64, bool) {
        match self {
            Penalty::Graph {
                graph,
                alpha,
                lagrangian,
            } => (n, n, graph.graph().n_edges(), alpha, lagrangian),
            Penalty::L1 => (n, 0, 0, 0.0, false),
            Penalty::Groups(g) => (g.n_latent(), 0, 0, 0.0, false),
        }
    }

    /// The graph of the graph penalty.
    fn graph(self) -> Option<&'a GraphDifference<'a>> {
        match self {
            Penalty::Graph { graph, .. } => Some(graph),
            _ => None,
        }
    }
}

/// Cached view of the data block `K₁` (the operator, or `L P`).
struct DataBlock<'a, Op: LinearOperator + ?Sized> {
    op: &'a Op,
    groups: Option<&'a LatentGroups>,
    xfull: Vec<f64>,
    par: Parallel,
}

impl<'a, Op: LinearOperator + ?Sized> DataBlock<'a, Op> {
    /// `K₁ = L`, or `L P` for the latent group lasso (with a buffer for `P z`, `n` long).
    fn new(op: &'a Op, pen: Penalty<'a>, n: usize, par: Parallel) -> Self {
        let groups = match pen {
            Penalty::Groups(g) => Some(g),
            _ => None,
        };
        Self {
            op,
            groups,
            xfull: vec![0.0; if groups.is_some() { n } else { 0 }],
            par,
        }
    }

    fn forward(&mut self, z: &[f64], out: &mut [f64], c: &mut OpCounts) -> Result<()> {
        match self.groups {
            Some(g) => {
                g.gather_sum(z, &mut self.xfull, self.par);
                apply_counted(self.op, self.par, &self.xfull, out, c)
            }
            None => apply_counted(self.op, self.par, z, out, c),
        }
    }

    fn adjoint(&mut self, v: &[f64], out: &mut [f64], c: &mut OpCounts) -> Result<()> {
        match self.groups {
            Some(g) => {
                apply_adjoint_counted(self.op, self.par, v, &mut self.xfull, c)?;
                g.spread(&self.xfull, out, self.par);
                Ok(())
            }
            None => apply_adjoint_counted(self.op, self.par, v, out, c),
        }
    }
}

/// The norms used for the steps: `(‖K₁‖, ‖W D‖)`, estimated unless given, inflated by 1 %.
pub(crate) fn step_norms<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    op: &Op,
    pen: Penalty<'_>,
    counts: &mut OpCounts,
    tol: f64,
) -> Result<(f64, f64)> {
    let par = params.parallel();
    let knorm = match (pen, params.op_norm()) {
        (Penalty::Groups(g), Some(n)) => n * (g.max_cover() as f64).sqrt(),
        (_, Some(n)) => n,
        (Penalty::Groups(g), None) => {
            let design = LatentDesign {
                op,
                groups: g,
                scratch: std::sync::Mutex::new(Vec::new()),
            };
            let e = estimate_op_norm(&design, params.norm_iter(), tol, par)?;
            counts.forward += e.n_iter as u64;
            counts.adjoint += e.n_iter as u64;
            counts.work += 2 * e.n_iter as u64 * op.cost();
            e.value * NORM_SAFETY
        }
        (_, None) => {
            let e = estimate_op_norm(op, params.norm_iter(), tol, par)?;
            counts.forward += e.n_iter as u64;
            counts.adjoint += e.n_iter as u64;
            counts.work += 2 * e.n_iter as u64 * op.cost();
            e.value * NORM_SAFETY
        }
    };
    let dnorm = match pen {
        Penalty::Graph { graph, .. } if graph.graph().n_edges() > 0 => match params.diff_norm() {
            Some(n) => n,
            None => {
                // the estimate only grows: stop once it passes the Gershgorin bound, which is
                // then the value taken (on a regular graph, after a few steps)
                let bound = graph.diff_norm_bound();
                let e = estimate_op_norm_below(
                    graph,
                    params.norm_iter(),
                    tol,
                    par,
                    bound / NORM_SAFETY,
                )?;
                counts.diff += e.n_iter as u64;
                counts.diff_adjoint += e.n_iter as u64;
                counts.work += 2 * e.n_iter as u64 * graph.diff_cost();
                (e.value * NORM_SAFETY).min(bound)
            }
        },
        _ => 0.0,
    };
    Ok((knorm, dnorm))
}

/// Copies a warm-start vector into `dst` (empty means "keep zeros").
pub(crate) fn load(name: &'static str, src: &[f64], dst: &mut [f64]) -> Result<()> {
    if src.is_empty() {
        return Ok(());
    }
    graphsparse_base::check_len(name, src.len(), dst.len())?;
    graphsparse_base::check_finite(name, src)?;
    dst.copy_from_slice(src);
    Ok(())
}

/// Everything a gap check reads.
pub(crate) struct GapInput<'a> {
    pub fit: Fit,
    pub y: &'a [f64],
    pub lam: f64,
    pub pen: Penalty<'a>,
    pub z: &'a [f64],
    pub s: &'a [f64],
    pub kz: &'a [f64],
    pub ds: &'a [f64],
    pub v1: &'a [f64],
    pub v2: &'a [f64],
    pub ktv: &'a [f64],
    pub dtv: &'a [f64],
    pub par: Parallel,
}

/// The part of a solver's state that the certificate and the stopping rule read: the primal
/// blocks `z`, `σ`, their products `kz = K₁ z`, `ds = W D σ`, a dual point `v₁`, `v₂` with its
/// adjoint products `ktv = K₁ᵀ v₁`, `dtv = Dᵀ W v₂`, the reduction buffers and the residuals
/// of the last step that computed them (NaN before).
pub(crate) struct Iterate {
    pub z: Vec<f64>,
    pub s: Vec<f64>,
    pub kz: Vec<f64>,
    pub ds: Vec<f64>,
    pub v1: Vec<f64>,
    pub v2: Vec<f64>,
    pub ktv: Vec<f64>,
    pub dtv: Vec<f64>,
    pub red: Reducer,
    pub comp_sum: Vec<f64>,
    pub pres: f64,
    pub dres: f64,
}

impl Iterate {
    /// The iterate at `(z, σ)`, `(v₁, v₂)`, with zero products of the matching lengths.
    pub(crate) fn new(z: Vec<f64>, s: Vec<f64>, v1: Vec<f64>, v2: Vec<f64>) -> Self {
        Self {
            kz: vec![0.0; v1.len()],
            ds: vec![0.0; v2.len()],
            ktv: vec![0.0; z.len()],
            dtv: vec![0.0; s.len()],
            z,
            s,
            v1,
            v2,
            red: Reducer::default(),
            comp_sum: Vec::new(),
            pres: f64::NAN,
            dres: f64::NAN,
        }
    }

    /// The convergence check at iteration `it` (the products must be current).
    ///
    /// # Errors
    /// [`RecoveryError::Diverged`] when the iterate is not finite.
    pub(crate) fn check(
        &mut self,
        fit: Fit,
        y: &[f64],
        lam: f64,
        pen: Penalty<'_>,
        par: Parallel,
        it: usize,
    ) -> Result<HistoryEntry> {
        check(
            &GapInput {
                fit,
                y,
                lam,
                pen,
                z: &self.z,
                s: &self.s,
                kz: &self.kz,
                ds: &self.ds,
                v1: &self.v1,
                v2: &self.v2,
                ktv: &self.ktv,
                dtv: &self.dtv,
                par,
            },
            &mut self.red,
            &mut self.comp_sum,
            it,
            self.pres,
            self.dres,
        )
    }

    /// Whether the stopping rule of `params` holds at `entry`.
    pub(crate) fn converged(&self, params: &RecoveryValidParams, entry: &HistoryEntry) -> bool {
        stop_holds(
            params.stop(),
            params.tol(),
            entry,
            [&self.ktv, &self.dtv],
            [&self.kz, &self.ds],
        )
    }
}

/// What a solver's loop keeps of its checks: the recorded history, the last check and whether
/// the stopping rule held there.
#[derive(Default)]
pub(crate) struct RunLog {
    history: Vec<HistoryEntry>,
    pub last: Option<HistoryEntry>,
    converged: bool,
}

impl RunLog {
    /// Records the check `entry` of the iterate `pt` and returns whether the stopping rule
    /// holds. With `counts` false (the start point, whose dual was never stepped, so its gap
    /// means nothing) the entry is only kept as the last check.
    pub(crate) fn record(
        &mut self,
        params: &RecoveryValidParams,
        pt: &Iterate,
        entry: HistoryEntry,
        counts: bool,
    ) -> bool {
        if counts {
            self.converged = pt.converged(params, &entry);
            if params.record_history() {
                self.history.push(entry);
            }
        }
        self.last = Some(entry);
        self.converged
    }

    /// The end of a loop stopped after `it` iterations, whose final iterate was checked.
    pub(crate) fn end(self, it: usize, truncation: Option<graphsparse_base::Truncation>) -> RunEnd {
        RunEnd {
            it,
            converged: self.converged,
            last: self
                .last
                .expect("invariant: the final iterate is always checked"),
            history: self.history,
            truncation,
        }
    }
}

/// How a solver's loop ended: the iteration count, whether it converged, the last check, the
/// recorded history and the budget's truncation.
pub(crate) struct RunEnd {
    pub it: usize,
    pub converged: bool,
    pub last: HistoryEntry,
    pub history: Vec<HistoryEntry>,
    pub truncation: Option<graphsparse_base::Truncation>,
}

impl RunEnd {
    /// The result: `x` (and the latent copies, empty outside the group lasso), the counts, the
    /// norms `(‖K₁‖, ‖W D‖)` and the state for a warm start (whose `sigma` is the result's).
    pub(crate) fn into_recovery(
        self,
        x: Vec<f64>,
        latent: Vec<f64>,
        counts: OpCounts,
        (op_norm, diff_norm): (f64, f64),
        state: WarmStart,
    ) -> Recovery {
        Recovery {
            x,
            sigma: state.sigma.clone(),
            latent,
            n_iter: self.it,
            converged: self.converged,
            objective: self.last.primal,
            dual_objective: self.last.dual,
            gap: self.last.gap,
            history: self.history,
            counts,
            truncation: self.truncation,
            op_norm,
            diff_norm,
            state,
            solver: crate::params::Solver::default(),
        }
    }
}

/// `(P, D, infeasibility)` of the current iterate (spec §3.6).
pub(crate) fn duality_gap(
    g: &GapInput<'_>,
    red: &mut Reducer,
    comp_sum: &mut Vec<f64>,
) -> (f64, f64, f64) {
    let (fit, y, lam, par) = (g.fit, g.y, g.lam, g.par);
    let data = if fit == Fit::Exact {
        0.0
    } else {
        red.sum(par, y.len(), |r| r.map(|j| fit.value(y[j], g.kz[j])).sum())
    };
    let (penalty, infeasible, t, alpha_term) = match g.pen {
        Penalty::Graph {
            graph,
            alpha,
            lagrangian,
        } => {
            let tv = red.sum(par, g.ds.len(), |r| g.ds[r].iter().map(|d| d.abs()).sum());
            // budget form: shrink σ towards its component means until feasible; the
            // Lagrangian form has no constraint (its dual block is clipped to [−λβ, λβ])
            let theta = if !lagrangian && tv > alpha {
                alpha / tv
            } else {
                1.0
            };
            let graph = graph.graph();
            comp_sum.clear();
            comp_sum.resize(graph.n_components(), 0.0);
            if theta < 1.0 {
                for (&c, &s) in graph.components().iter().zip(g.s) {
                    comp_sum[c as usize] += s;
                }
                for (m, &size) in comp_sum.iter_mut().zip(graph.component_sizes()) {
                    *m /= f64::from(size);
                }
            }
            let xs = if fit == Fit::Exact { y } else { g.z };
            let comps = graph.components();
            let means = &*comp_sum;
            let pen = red.sum(par, xs.len(), |r| {
                r.map(|n| {
                    let s = if theta < 1.0 {
                        theta * g.s[n] + (1.0 - theta) * means[comps[n] as usize]
                    } else {
                        g.s[n]
                    };
                    perspective(xs[n], s)
                })
                .sum()
            });
            // t = min(1, min_n t_n): the largest scaling of v with −Kᵀ(t v) ∈ dom G*
            let t = red
                .max(par, g.ktv.len(), |r| {
                    r.map(|n| {
                        let a = (g.ktv[n] / lam) * (g.ktv[n] / lam);
                        let b = 2.0 * g.dtv[n] / lam;
                        if a - b <= 1.0 {
                            0.0
                        } else {
                            // 1/t_n, t_n = 2/(−b + √(b² + 4a))
                            0.5 * (-b + (b * b + 4.0 * a).sqrt())
                        }
                    })
                    .fold(0.0, f64::max)
                })
                .max(1.0)
                .recip();
            if lagrangian {
                (pen + alpha * tv, 0.0, t, 0.0)
            } else {
                let vmax = g.v2.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                (pen, (tv - alpha).max(0.0), t, alpha * vmax)
            }
        }
        Penalty::L1 => {
            let pen = red.sum(par, g.z.len(), |r| g.z[r].iter().map(|v| v.abs()).sum());
            let amax = red.max(par, g.ktv.len(), |r| {
                g.ktv[r].iter().fold(0.0, |m: f64, v| m.max(v.abs()))
            });
            let t = if amax > lam { lam / amax } else { 1.0 };
            (pen, 0.0, t, 0.0)
        }
        Penalty::Groups(groups) => {
            let off = groups.offsets();
            let w = groups.weights();
            let (mut pen, mut t) = (0.0, 1.0f64);
            for k in 0..groups.n_groups() {
                let r = off[k]..off[k + 1];
                pen += w[k] * dot(&g.z[r.clone()], &g.z[r.clone()]).sqrt();
                let a = dot(&g.ktv[r.clone()], &g.ktv[r]).sqrt();
                if a > lam * w[k] {
                    t = t.min(lam * w[k] / a);
                }
            }
            (pen, 0.0, t, 0.0)
        }
    };
    let primal = data + lam * penalty;
    let conj = red.sum(par, y.len(), |r| {
        r.map(|j| fit.conj(y[j], t * g.v1[j])).sum()
    });
    let dual = -conj - t * alpha_term;
    (primal, dual, infeasible)
}

/// Relative gap `(P − D)/max(|P|, |D|)` (0 when both vanish).
pub(crate) fn relative_gap(primal: f64, dual: f64) -> f64 {
    let scale = primal.abs().max(dual.abs());
    if scale == 0.0 {
        0.0
    } else {
        (primal - dual) / scale
    }
}

/// Solves with PDHG (see the module docs): the state is set up once, then stepped until the
/// stopping rule holds at a check, `max_iter` or the budget.
///
/// A dense `L` of at most 2²³ entries is copied column-major first ([`ColumnMajor`]): the
/// primal iterate comes out of its prox with exact zeros, and `K₁ z` then reads the columns of
/// its support only.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_pdhg<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    fit: Fit,
    op: &Op,
    y: &[f64],
    pen: Penalty<'_>,
    warm: Option<&WarmStart>,
    ctl: &RunControl,
    adaptive: bool,
) -> Result<Recovery> {
    match ColumnMajor::new(op) {
        Some(cm) => solve_pdhg_on(params, fit, &cm, y, pen, warm, ctl, adaptive),
        None => solve_pdhg_on(params, fit, op, y, pen, warm, ctl, adaptive),
    }
}

#[allow(clippy::too_many_arguments)]
fn solve_pdhg_on<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    fit: Fit,
    op: &Op,
    y: &[f64],
    pen: Penalty<'_>,
    warm: Option<&WarmStart>,
    ctl: &RunControl,
    adaptive: bool,
) -> Result<Recovery> {
    let mut state = Pdhg::new(params, fit, op, y, pen, warm, adaptive)?;
    let meter = params.budget().start(ctl);
    let (check_every, max_iter) = (params.check_every(), params.max_iter());
    let mut log = RunLog::default();
    let mut it = 0;
    while it < max_iter {
        if !meter.claim_node() {
            break;
        }
        it += 1;
        let is_check = it % check_every == 0 || it == max_iter;
        state.step(it, is_check)?;
        ctl.progress().add_iteration();
        if is_check {
            let entry = state.check(it)?;
            ctl.progress().set_value(entry.gap);
            if log.record(params, &state.pt, entry, true) {
                break;
            }
        }
    }
    if log.last.is_none_or(|e| e.iteration != it) {
        // no check at the final iterate yet (budget stop, or no iteration at all); the gap at
        // a dual iterate never stepped with is meaningless at it = 0
        let entry = state.check(it)?;
        log.record(params, &state.pt, entry, it > 0);
    }
    Ok(state.into_recovery(log.end(it, meter.truncation())))
}

/// The starting point of PDHG: zeros or the warm start, with the primal step `τ` and the
/// adaptive decay `a` a warm start carries when they are valid.
struct Start {
    z: Vec<f64>,
    s: Vec<f64>,
    v1: Vec<f64>,
    v2: Vec<f64>,
    tau: f64,
    a: f64,
}

impl Start {
    /// For the sizes `(j, n1, ns, m)`; `tau` is the cold-start step.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] for a warm start of the wrong sizes.
    fn new(
        warm: Option<&WarmStart>,
        tau: f64,
        (j, n1, ns, m): (usize, usize, usize, usize),
    ) -> Result<Self> {
        let mut st = Self {
            z: vec![0.0; n1],
            s: vec![0.0; ns],
            v1: vec![0.0; j],
            v2: vec![0.0; m],
            tau,
            a: ADAPT_A0,
        };
        if let Some(w) = warm {
            load("warm_start.x", &w.x, &mut st.z)?;
            load("warm_start.sigma", &w.sigma, &mut st.s)?;
            load("warm_start.dual_data", &w.dual_data, &mut st.v1)?;
            load("warm_start.dual_graph", &w.dual_graph, &mut st.v2)?;
            if w.tau.is_finite() && w.tau > 0.0 {
                st.tau = w.tau;
            }
            if w.adapt > 0.0 && w.adapt <= ADAPT_A0 {
                st.a = w.adapt;
            }
            if ns > 0 {
                // the prox keeps σ ≥ 0; a warm σ must respect it too
                st.s.iter_mut().for_each(|v| *v = v.max(0.0));
            }
        }
        Ok(st)
    }
}

/// The PDHG iterate, its cached operator products and every buffer of the iteration
/// (allocated once in [`Pdhg::new`]; a step allocates nothing).
///
/// Notation: `z` (primal: `x`, or the latent `v`), `s` (`σ`), `v1`, `v2` (dual blocks),
/// `kz = K₁ z`, `ds = W D σ` and their extrapolations `kz_bar`, `ds_bar`, `ktv = K₁ᵀ v₁`,
/// `dtv = Dᵀ W v₂`; `tau`, `s1`, `s2` the steps and `a` the adaptive decay.
struct Pdhg<'a, Op: LinearOperator + ?Sized> {
    params: &'a RecoveryValidParams,
    fit: Fit,
    y: &'a [f64],
    pen: Penalty<'a>,
    graph: Option<&'a GraphDifference<'a>>,
    block: DataBlock<'a, Op>,
    adaptive: bool,
    par: Parallel,
    lam: f64,
    alpha: f64,
    lagrangian: bool,
    /// Sizes: data rows `j`, columns of `L` `n`, primal `n1`, `σ` `ns`, edges `m`.
    dims: (usize, usize, usize, usize, usize),
    knorm: f64,
    dnorm: f64,
    counts: OpCounts,
    /// `z`, `σ`, `v₁`, `v₂`, `kz = K₁ z`, `ds = W D σ`, `ktv`, `dtv`, the residuals.
    pt: Iterate,
    tau: f64,
    a: f64,
    s1: f64,
    s2: f64,
    kz_bar: Vec<f64>,
    kz_new: Vec<f64>,
    ds_bar: Vec<f64>,
    ds_new: Vec<f64>,
    z_old: Vec<f64>,
    s_old: Vec<f64>,
    v1_old: Vec<f64>,
    v2_old: Vec<f64>,
    ball: Vec<f64>,
    ball_out: Vec<f64>,
}

impl<'a, Op: LinearOperator + ?Sized> Pdhg<'a, Op> {
    /// The starting point (zeros or the warm start), the steps from the norms, the buffers and
    /// the first products `K₁ z`, `W D σ`.
    fn new(
        params: &'a RecoveryValidParams,
        fit: Fit,
        op: &'a Op,
        y: &'a [f64],
        pen: Penalty<'a>,
        warm: Option<&WarmStart>,
        adaptive: bool,
    ) -> Result<Self> {
        let par = params.parallel();
        let lam = params.lam();
        let (j, n) = (op.n_rows(), op.n_cols());
        let (n1, ns, m, alpha, lagrangian) = pen.sizes(n);
        let mut counts = OpCounts::default();
        let (knorm, dnorm) = step_norms(params, op, pen, &mut counts, NORM_TOL)?;
        let knorm = if knorm > 0.0 { knorm } else { 1.0 };
        let start = Start::new(warm, params.step_ratio() / knorm, (j, n1, ns, m))?;
        let tau = start.tau;
        let s1 = STEP_FACTOR / (tau * knorm * knorm);
        let s2 = if dnorm > 0.0 {
            STEP_FACTOR / (tau * dnorm * dnorm)
        } else {
            0.0
        };
        let mut state = Self {
            params,
            fit,
            y,
            pen,
            graph: pen.graph(),
            block: DataBlock::new(op, pen, n, par),
            adaptive,
            par,
            lam,
            alpha,
            lagrangian,
            dims: (j, n, n1, ns, m),
            knorm,
            dnorm,
            counts,
            pt: Iterate::new(start.z, start.s, start.v1, start.v2),
            tau,
            a: start.a,
            s1,
            s2,
            kz_bar: vec![0.0; j],
            kz_new: vec![0.0; j],
            ds_bar: vec![0.0; m],
            ds_new: vec![0.0; m],
            z_old: vec![0.0; n1],
            s_old: vec![0.0; ns],
            v1_old: vec![0.0; j],
            v2_old: vec![0.0; m],
            ball: vec![0.0; m],
            ball_out: vec![0.0; m],
        };
        state.first_products()?;
        Ok(state)
    }

    /// `K₁ z` and `W D σ` of the starting point, also as the first extrapolations.
    fn first_products(&mut self) -> Result<()> {
        self.block
            .forward(&self.pt.z, &mut self.pt.kz, &mut self.counts)?;
        if let Some(g) = self.graph {
            if self.dims.4 > 0 {
                g.diff(&self.pt.s, &mut self.pt.ds, self.par);
                self.counts.diff += 1;
                self.counts.work += g.diff_cost();
            }
        }
        self.kz_bar.copy_from_slice(&self.pt.kz);
        self.ds_bar.copy_from_slice(&self.pt.ds);
        Ok(())
    }

    /// Iteration `it`: dual steps, primal step, the new products, the residuals (when the
    /// adaptive steps or a recorded check at `is_check` need them), the extrapolation and the
    /// step adaptation.
    ///
    /// # Errors
    /// [`RecoveryError::Diverged`] when the iterate leaves float64's range.
    fn step(&mut self, it: usize, is_check: bool) -> Result<()> {
        let need_res = self.adaptive
            || (is_check && (self.params.record_history() || self.params.stop() != StopRule::Gap));
        if need_res {
            self.v1_old.copy_from_slice(&self.pt.v1);
            self.v2_old.copy_from_slice(&self.pt.v2);
            self.z_old.copy_from_slice(&self.pt.z);
            self.s_old.copy_from_slice(&self.pt.s);
        }
        self.dual_step(it)?;
        self.primal_step(it)?;
        if need_res {
            self.residuals();
        }
        self.extrapolate();
        if self.adaptive {
            self.adapt_steps();
        }
        Ok(())
    }

    /// `v₁ ← prox_{ς₁f*}(v₁ + ς₁ K₁ z̄)`, `v₂ ← prox_{ς₂ α‖·‖∞}(v₂ + ς₂ W D σ̄)` (the clip to
    /// `[−λβ, λβ]` in the Lagrangian form), then `K₁ᵀ v₁` and `Dᵀ W v₂`.
    fn dual_step(&mut self, it: usize) -> Result<()> {
        let (par, fit, y, s1, s2) = (self.par, self.fit, self.y, self.s1, self.s2);
        let m = self.dims.4;
        {
            let kb = &self.kz_bar;
            for_chunks(par, &mut self.pt.v1, |off, c| {
                for (i, v) in c.iter_mut().enumerate() {
                    let q = off + i;
                    *v = fit.prox_conj(y[q], *v + s1 * kb[q], s1);
                }
            });
        }
        if m > 0 && self.lagrangian {
            // prox of ς(λβ‖·‖₁)* = the clip to [−λβ, λβ]
            let (db, cap) = (&self.ds_bar, self.lam * self.alpha);
            for_chunks(par, &mut self.pt.v2, |off, c| {
                for (i, v) in c.iter_mut().enumerate() {
                    *v = (*v + s2 * db[off + i]).clamp(-cap, cap);
                }
            });
        } else if m > 0 {
            let db = &self.ds_bar;
            for_chunks2(par, &mut self.pt.v2, &mut self.ball, |off, c, b| {
                for (i, (v, bb)) in c.iter_mut().zip(b.iter_mut()).enumerate() {
                    *v += s2 * db[off + i];
                    *bb = *v / s2;
                }
            });
            project_l1_ball_into(&self.ball, self.alpha, &mut self.ball_out)
                .map_err(|_| RecoveryError::Diverged { iteration: it })?;
            self.counts.ball_projections += 1;
            let bo = &self.ball_out;
            for_chunks(par, &mut self.pt.v2, |off, c| {
                for (i, v) in c.iter_mut().enumerate() {
                    *v -= s2 * bo[off + i];
                }
            });
        }
        self.block
            .adjoint(&self.pt.v1, &mut self.pt.ktv, &mut self.counts)?;
        if let Some(g) = self.graph {
            if m > 0 {
                g.diff_adjoint(&self.pt.v2, &mut self.pt.dtv, par);
                self.counts.diff_adjoint += 1;
                self.counts.work += g.diff_cost();
            }
        }
        Ok(())
    }

    /// `z ← prox_{τG}(z − τ K₁ᵀ v₁, σ − τ Dᵀ W v₂)`, then `K₁ z` and `W D σ` into the `_new`
    /// buffers.
    fn primal_step(&mut self, it: usize) -> Result<()> {
        let (par, tau) = (self.par, self.tau);
        let (n1, m) = (self.dims.2, self.dims.4);
        let c = tau * self.lam;
        if !(c.is_finite() && c > 0.0) {
            // τλ under- or overflowed: the data are out of float64's range at these steps
            return Err(RecoveryError::Diverged { iteration: it });
        }
        match self.pen {
            Penalty::Graph { .. } => {
                let (kt, dt) = (&self.pt.ktv, &self.pt.dtv);
                for_chunks2(par, &mut self.pt.z, &mut self.pt.s, |off, zc, sc| {
                    for (i, (zi, si)) in zc.iter_mut().zip(sc.iter_mut()).enumerate() {
                        let q = off + i;
                        (*zi, *si) = prox_persp(*zi - tau * kt[q], *si - tau * dt[q], c);
                    }
                });
            }
            Penalty::L1 => {
                let kt = &self.pt.ktv;
                for_chunks(par, &mut self.pt.z, |off, zc| {
                    for (i, zi) in zc.iter_mut().enumerate() {
                        let w = *zi - tau * kt[off + i];
                        *zi = (w.abs() - c).max(0.0).copysign(w);
                    }
                });
            }
            Penalty::Groups(groups) => {
                let off = groups.offsets();
                for (k, &d) in groups.weights().iter().enumerate() {
                    let r = off[k]..off[k + 1];
                    let zg = &mut self.pt.z[r.clone()];
                    for (zi, &g) in zg.iter_mut().zip(&self.pt.ktv[r]) {
                        *zi -= tau * g;
                    }
                    let nrm = dot(zg, zg).sqrt();
                    let shrink = if nrm > c * d { 1.0 - c * d / nrm } else { 0.0 };
                    zg.iter_mut().for_each(|v| *v *= shrink);
                }
            }
        }
        self.counts.prox += n1 as u64;
        self.block
            .forward(&self.pt.z, &mut self.kz_new, &mut self.counts)?;
        if let Some(g) = self.graph {
            if m > 0 {
                g.diff(&self.pt.s, &mut self.ds_new, par);
                self.counts.diff += 1;
                self.counts.work += g.diff_cost();
            }
        }
        Ok(())
    }

    /// The primal residual `‖(z_old − z)/τ‖` and the dual residual
    /// `‖(v_old − v)/ς − (K z − K z̄)‖` of the step just made.
    fn residuals(&mut self) {
        let (par, red) = (self.par, &mut self.pt.red);
        let (j, _, n1, ns, m) = self.dims;
        let inv_tau = 1.0 / self.tau;
        let (z, z_old, s, s_old) = (&self.pt.z, &self.z_old, &self.pt.s, &self.s_old);
        let pz = red.sum(par, n1, |r| {
            r.map(|q| {
                let d = (z_old[q] - z[q]) * inv_tau;
                d * d
            })
            .sum()
        });
        let ps = red.sum(par, ns, |r| {
            r.map(|q| {
                let d = (s_old[q] - s[q]) * inv_tau;
                d * d
            })
            .sum()
        });
        let (v1, v1_old, kz_new, kz_bar, s1) = (
            &self.pt.v1,
            &self.v1_old,
            &self.kz_new,
            &self.kz_bar,
            self.s1,
        );
        let d1 = red.sum(par, j, |r| {
            r.map(|q| {
                let d = (v1_old[q] - v1[q]) / s1 - (kz_new[q] - kz_bar[q]);
                d * d
            })
            .sum()
        });
        let (v2, v2_old, ds_new, ds_bar, s2) = (
            &self.pt.v2,
            &self.v2_old,
            &self.ds_new,
            &self.ds_bar,
            self.s2,
        );
        let d2 = if m > 0 {
            red.sum(par, m, |r| {
                r.map(|q| {
                    let d = (v2_old[q] - v2[q]) / s2 - (ds_new[q] - ds_bar[q]);
                    d * d
                })
                .sum()
            })
        } else {
            0.0
        };
        self.pt.pres = (pz + ps).sqrt();
        self.pt.dres = (d1 + d2).sqrt();
    }

    /// `K z̄ ← 2 K z − K z_old` through the cached products (and the same for `W D σ`).
    fn extrapolate(&mut self) {
        let par = self.par;
        let kn = &self.kz_new;
        for_chunks2(par, &mut self.kz_bar, &mut self.pt.kz, |off, b, k| {
            for (i, (bb, kk)) in b.iter_mut().zip(k.iter_mut()).enumerate() {
                let new = kn[off + i];
                *bb = 2.0 * new - *kk;
                *kk = new;
            }
        });
        let dn = &self.ds_new;
        for_chunks2(par, &mut self.ds_bar, &mut self.pt.ds, |off, b, k| {
            for (i, (bb, kk)) in b.iter_mut().zip(k.iter_mut()).enumerate() {
                let new = dn[off + i];
                *bb = 2.0 * new - *kk;
                *kk = new;
            }
        });
    }

    /// Goldstein–Li–Yuan balancing: `τ` up and the `ς` down by `1/(1−a)` (or the reverse) when
    /// one residual exceeds the other by [`ADAPT_DELTA`]; `a` decays by [`ADAPT_ETA`].
    fn adapt_steps(&mut self) {
        let (pres, dres, a) = (self.pt.pres, self.pt.dres, self.a);
        if !(pres.is_finite() && dres.is_finite()) {
            return;
        }
        if pres > ADAPT_DELTA * dres {
            self.tau /= 1.0 - a;
            self.s1 *= 1.0 - a;
            self.s2 *= 1.0 - a;
            self.a *= ADAPT_ETA;
        } else if dres > ADAPT_DELTA * pres {
            self.tau *= 1.0 - a;
            self.s1 /= 1.0 - a;
            self.s2 /= 1.0 - a;
            self.a *= ADAPT_ETA;
        }
    }

    /// The convergence check at the current iterate (iteration `it`).
    ///
    /// # Errors
    /// [`RecoveryError::Diverged`] when the iterate is not finite.
    fn check(&mut self, it: usize) -> Result<HistoryEntry> {
        (self.pt).check(self.fit, self.y, self.lam, self.pen, self.par, it)
    }

    /// The result, with the state for a warm start.
    fn into_recovery(self, end: RunEnd) -> Recovery {
        let n = self.dims.1;
        let (x, latent) = match self.pen {
            Penalty::Groups(g) => {
                let mut x = vec![0.0; n];
                g.gather_sum(&self.pt.z, &mut x, self.par);
                (x, self.pt.z.clone())
            }
            _ => (self.pt.z.clone(), Vec::new()),
        };
        end.into_recovery(
            x,
            latent,
            self.counts,
            (self.knorm, self.dnorm),
            WarmStart {
                x: self.pt.z,
                sigma: self.pt.s,
                dual_data: self.pt.v1,
                dual_graph: self.pt.v2,
                aux_data: Vec::new(),
                aux_graph: Vec::new(),
                tau: self.tau,
                adapt: self.a,
            },
        )
    }
}

/// One convergence check; errors if the iterate went non-finite.
pub(crate) fn check(
    g: &GapInput<'_>,
    red: &mut Reducer,
    comp_sum: &mut Vec<f64>,
    it: usize,
    pres: f64,
    dres: f64,
) -> Result<HistoryEntry> {
    let zz = red.sum(g.par, g.z.len(), |r| dot(&g.z[r.clone()], &g.z[r]));
    let vv = red.sum(g.par, g.v1.len(), |r| dot(&g.v1[r.clone()], &g.v1[r]));
    if !(zz.is_finite() && vv.is_finite()) {
        return Err(RecoveryError::Diverged { iteration: it });
    }
    let (primal, dual, infeasibility) = duality_gap(g, red, comp_sum);
    if primal.is_nan() || dual.is_nan() {
        return Err(RecoveryError::Diverged { iteration: it });
    }
    Ok(HistoryEntry {
        iteration: it,
        primal,
        dual,
        gap: relative_gap(primal, dual),
        primal_residual: pres,
        dual_residual: dres,
        infeasibility,
    })
}

/// Whether the stopping rule holds at `e`; `kt` and `k` are the two blocks of `Kᵀv` and `Kz`.
pub(crate) fn stop_holds(
    stop: StopRule,
    tol: f64,
    e: &HistoryEntry,
    kt: [&[f64]; 2],
    k: [&[f64]; 2],
) -> bool {
    let gap_ok = e.gap.is_finite() && e.gap <= tol;
    let res_ok = || {
        let nkt = (dot(kt[0], kt[0]) + dot(kt[1], kt[1])).sqrt();
        let nk = (dot(k[0], k[0]) + dot(k[1], k[1])).sqrt();
        e.primal_residual <= tol * (1.0 + nkt) && e.dual_residual <= tol * (1.0 + nk)
    };
    match stop {
        StopRule::Gap => gap_ok,
        StopRule::Residuals => res_ok(),
        StopRule::GapAndResiduals => gap_ok && res_ok(),
    }
}
