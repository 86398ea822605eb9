//! Algorithm 1 of Kuroda & Kitahara, as printed (with `x^{(i+1)}` for the paper's
//! `x^{(j+1)}`), all variables starting at 0 unless warm-started.
//!
//! Notation map: `x, σ` (primal), `u ≈ L x`, `η ≈ W D σ` (lifted copies), `r₁, r₂`
//! (multipliers), `γ` (prox step), `μ₁ ≤ (‖L‖² + 1)^{-1/2}`, `μ₂ ≤ (‖W D‖² + 1)^{-1/2}`
//! (both taken 0.99 times the bound with norms inflated by 1 %). The dual point of the gap
//! certificate is `v₁ = −(μ₁/γ) r₁` (projected onto `dom f*`) and `v₂ = −(μ₂/γ) r₂`
//! (spec §3.2), which costs one extra `Lᵀ` and `Dᵀ W` per check.

use graphsparse_base::{Parallel, RunControl};
use graphsparse_proj::project_l1_ball_into;

use crate::error::{RecoveryError, Result};
use crate::graph::GraphDifference;
use crate::loss::Fit;
use crate::operator::{LinearOperator, apply_adjoint_counted, apply_counted};
use crate::par::{for_chunks, for_chunks2};
use crate::params::{HistoryEntry, OpCounts, Recovery, RecoveryValidParams, WarmStart};
use crate::pdhg::{Iterate, Penalty, RunEnd, RunLog, STEP_FACTOR, load, step_norms};
use crate::prox::prox_persp;

/// Solves the graph model with Algorithm 1: the state is set up once, then stepped, with a
/// certificate check every `check_every` iterations and at the end.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_kk<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    fit: Fit,
    op: &Op,
    y: &[f64],
    graph: &GraphDifference<'_>,
    alpha: f64,
    lagrangian: bool,
    gamma: Option<f64>,
    warm: Option<&WarmStart>,
    ctl: &RunControl,
) -> Result<Recovery> {
    let pen = Penalty::Graph {
        graph,
        alpha,
        lagrangian,
    };
    let mut state = Kk::new(params, fit, op, y, pen, gamma, warm)?;
    let meter = params.budget().start(ctl);
    let (check_every, max_iter) = (params.check_every(), params.max_iter());
    let mut log = RunLog::default();
    let mut it = 0;
    loop {
        let stopping = it >= max_iter || !meter.claim_node();
        let is_check = stopping || (it > 0 && it % check_every == 0);
        if is_check && log.last.is_none_or(|e| e.iteration != it) && (it > 0 || stopping) {
            let entry = state.check(it)?;
            ctl.progress().set_value(entry.gap);
            if log.record(params, &state.pt, entry, it > 0) {
                break;
            }
        }
        if stopping {
            break;
        }
        it += 1;
        state.step(it)?;
        ctl.progress().add_iteration();
    }
    Ok(state.into_recovery(log.end(it, meter.truncation())))
}

/// `out = W D σ`, counted (nothing without edges).
fn apply_d(
    graph: &GraphDifference<'_>,
    par: Parallel,
    s: &[f64],
    out: &mut [f64],
    c: &mut OpCounts,
) {
    if graph.graph().n_edges() > 0 {
        c.diff += 1;
        c.work += graph.diff_cost();
        graph.diff(s, out, par);
    }
}

/// `out = Dᵀ W v`, counted (zeros without edges).
fn apply_dt(
    graph: &GraphDifference<'_>,
    par: Parallel,
    v: &[f64],
    out: &mut [f64],
    c: &mut OpCounts,
) {
    if graph.graph().n_edges() > 0 {
        c.diff_adjoint += 1;
        c.work += graph.diff_cost();
        graph.diff_adjoint(v, out, par);
    } else {
        out.fill(0.0);
    }
}

/// The iterate of Algorithm 1, its products and every buffer (allocated once in
/// [`Kk::new`]; a step allocates nothing). Notation as in the module docs; `lx = L x`,
/// `ds = W D σ`, `e1`, `e2` the multiplier residuals of a step, `ltv`, `dtv` the adjoint
/// products, `v1`, `v2` the dual point of the certificate.
struct Kk<'a, Op: LinearOperator + ?Sized> {
    fit: Fit,
    op: &'a Op,
    y: &'a [f64],
    pen: Penalty<'a>,
    graph: &'a GraphDifference<'a>,
    alpha: f64,
    lagrangian: bool,
    par: Parallel,
    lam: f64,
    /// `(J, N, m)`.
    dims: (usize, usize, usize),
    lnorm: f64,
    dnorm: f64,
    gamma: f64,
    mu1: f64,
    mu2: f64,
    /// `γλ`, the scale of the perspective prox.
    c: f64,
    counts: OpCounts,
    /// `x` (as `z`), `σ`, `L x` (as `kz`), `W D σ`, the certificate's dual point, its adjoint
    /// products (also the scratch of `Kᵀ e`) and the residuals.
    pt: Iterate,
    u: Vec<f64>,
    r1: Vec<f64>,
    eta: Vec<f64>,
    r2: Vec<f64>,
    e1: Vec<f64>,
    e2: Vec<f64>,
    x_old: Vec<f64>,
    s_old: Vec<f64>,
    ball: Vec<f64>,
}

impl<'a, Op: LinearOperator + ?Sized> Kk<'a, Op> {
    /// Steps from the norms, the starting point (zeros or the warm start), the buffers and
    /// the first products `L x`, `W D σ`.
    ///
    /// # Errors
    /// [`crate::RecoveryError::InvalidParameter`] when `γλ` is not finite and `> 0`; the norm
    /// estimates' and warm start's errors.
    fn new(
        params: &'a RecoveryValidParams,
        fit: Fit,
        op: &'a Op,
        y: &'a [f64],
        pen: Penalty<'a>,
        gamma: Option<f64>,
        warm: Option<&WarmStart>,
    ) -> Result<Self> {
        let Penalty::Graph {
            graph,
            alpha,
            lagrangian,
        } = pen
        else {
            unreachable!("invariant: Algorithm 1 solves the graph model only")
        };
        let par = params.parallel();
        let lam = params.lam();
        let (j, n, m) = (op.n_rows(), op.n_cols(), graph.graph().n_edges());
        let mut counts = OpCounts::default();
        let (lnorm, dnorm) = step_norms(params, op, pen, &mut counts, crate::pdhg::NORM_TOL)?;
        let gamma = gamma.unwrap_or(params.step_ratio() / if lnorm > 0.0 { lnorm } else { 1.0 });
        let mu1 = STEP_FACTOR / (lnorm * lnorm + 1.0).sqrt();
        let mu2 = STEP_FACTOR / (dnorm * dnorm + 1.0).sqrt();

        let (mut x, mut s) = (vec![0.0; n], vec![0.0; n]);
        let (mut u, mut r1) = (vec![0.0; j], vec![0.0; j]);
        let (mut eta, mut r2) = (vec![0.0; m], vec![0.0; m]);
        if let Some(w) = warm {
            load("warm_start.x", &w.x, &mut x)?;
            load("warm_start.sigma", &w.sigma, &mut s)?;
            load("warm_start.dual_data", &w.dual_data, &mut r1)?;
            load("warm_start.dual_graph", &w.dual_graph, &mut r2)?;
            load("warm_start.aux_data", &w.aux_data, &mut u)?;
            load("warm_start.aux_graph", &w.aux_graph, &mut eta)?;
            s.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        let mut pt = Iterate::new(x, s, vec![0.0; j], vec![0.0; m]);
        apply_counted(op, par, &pt.z, &mut pt.kz, &mut counts)?;
        apply_d(graph, par, &pt.s, &mut pt.ds, &mut counts);
        let c = gamma * lam;
        if !(c.is_finite() && c > 0.0) {
            return Err(crate::error::invalid(
                "gamma * lambda",
                "finite and > 0 (rescale lambda or gamma)",
                c,
            ));
        }
        Ok(Self {
            fit,
            op,
            y,
            pen,
            graph,
            alpha,
            lagrangian,
            par,
            lam,
            dims: (j, n, m),
            lnorm,
            dnorm,
            gamma,
            mu1,
            mu2,
            c,
            counts,
            pt,
            u,
            r1,
            eta,
            r2,
            e1: vec![0.0; j],
            e2: vec![0.0; m],
            x_old: vec![0.0; n],
            s_old: vec![0.0; n],
            ball: vec![0.0; m],
        })
    }

    /// The certificate at iteration `it`: the dual point `v₁ = −(μ₁/γ) r₁` (projected onto
    /// `dom f*`), `v₂ = −(μ₂/γ) r₂` (clipped to `[−λβ, λβ]` in the Lagrangian form), its
    /// adjoint products and the gap.
    ///
    /// # Errors
    /// [`crate::RecoveryError::Diverged`] when the iterate is not finite.
    fn check(&mut self, it: usize) -> Result<HistoryEntry> {
        let (fit, par) = (self.fit, self.par);
        let k1 = -self.mu1 / self.gamma;
        for ((v, &r), &yy) in self.pt.v1.iter_mut().zip(&self.r1).zip(self.y) {
            *v = fit.project_dual(yy, k1 * r);
        }
        let k2 = -self.mu2 / self.gamma;
        // the Lagrangian form's dual block must lie in [−λβ, λβ]
        let cap = if self.lagrangian {
            self.lam * self.alpha
        } else {
            f64::INFINITY
        };
        for (v, &r) in self.pt.v2.iter_mut().zip(&self.r2) {
            *v = (k2 * r).clamp(-cap, cap);
        }
        apply_adjoint_counted(
            self.op,
            par,
            &self.pt.v1,
            &mut self.pt.ktv,
            &mut self.counts,
        )?;
        apply_dt(
            self.graph,
            par,
            &self.pt.v2,
            &mut self.pt.dtv,
            &mut self.counts,
        );
        (self.pt).check(fit, self.y, self.lam, self.pen, par, it)
    }

    /// Iteration `it` of Algorithm 1: `e = r − μ (K z − aux)`; `x̃ = x + μ Kᵀ e`, the
    /// perspective prox; `ũ = u − μ e`, the loss prox; the `ℓ1`-ball projection (or
    /// soft-thresholding) of `η`; the multiplier update and the residuals.
    ///
    /// # Errors
    /// [`crate::RecoveryError::Diverged`] when the ball projection meets a non-finite value.
    fn step(&mut self, it: usize) -> Result<()> {
        self.x_old.copy_from_slice(&self.pt.z);
        self.s_old.copy_from_slice(&self.pt.s);
        self.directions()?;
        self.prox_steps(it)?;
        self.multipliers()?;
        self.residuals();
        Ok(())
    }

    /// `e = r − μ (K z − aux)` for both blocks, and `Kᵀ e` into `ltv`, `dtv`.
    fn directions(&mut self) -> Result<()> {
        let (par, mu1, mu2) = (self.par, self.mu1, self.mu2);
        let (lxr, ur) = (&self.pt.kz, &self.u);
        for_chunks2(par, &mut self.e1, &mut self.r1, |off, e, r| {
            for (i, (ei, ri)) in e.iter_mut().zip(r.iter()).enumerate() {
                *ei = ri - mu1 * (lxr[off + i] - ur[off + i]);
            }
        });
        let (dsr, er) = (&self.pt.ds, &self.eta);
        for_chunks2(par, &mut self.e2, &mut self.r2, |off, e, r| {
            for (i, (ei, ri)) in e.iter_mut().zip(r.iter()).enumerate() {
                *ei = ri - mu2 * (dsr[off + i] - er[off + i]);
            }
        });
        apply_adjoint_counted(self.op, par, &self.e1, &mut self.pt.ktv, &mut self.counts)?;
        apply_dt(
            self.graph,
            par,
            &self.e2,
            &mut self.pt.dtv,
            &mut self.counts,
        );
        Ok(())
    }

    /// `(x, σ) ← prox_{cφ}(x + μ₁ Lᵀ e₁, σ + μ₂ Dᵀ W e₂)`, `u ← prox_{γf}(u − μ₁ e₁)` and
    /// `η ←` the `ℓ1`-ball projection (soft-thresholding in the Lagrangian form) of
    /// `η − μ₂ e₂`.
    fn prox_steps(&mut self, it: usize) -> Result<()> {
        let (par, fit, y) = (self.par, self.fit, self.y);
        let (mu1, mu2, gamma, c) = (self.mu1, self.mu2, self.gamma, self.c);
        let (n, m) = (self.dims.1, self.dims.2);
        let (lt, dt) = (&self.pt.ktv, &self.pt.dtv);
        for_chunks2(par, &mut self.pt.z, &mut self.pt.s, |off, xc, sc| {
            for (i, (xi, si)) in xc.iter_mut().zip(sc.iter_mut()).enumerate() {
                let q = off + i;
                (*xi, *si) = prox_persp(*xi + mu1 * lt[q], *si + mu2 * dt[q], c);
            }
        });
        self.counts.prox += n as u64;
        let er = &self.e1;
        for_chunks(par, &mut self.u, |off, uc| {
            for (i, ui) in uc.iter_mut().enumerate() {
                let q = off + i;
                *ui = fit.prox(y[q], *ui - mu1 * er[q], gamma);
            }
        });
        if m > 0 {
            for ((b, &e), &v) in self.ball.iter_mut().zip(&self.e2).zip(&self.eta) {
                *b = v - mu2 * e;
            }
            if self.lagrangian {
                // prox of γλβ‖·‖₁: soft-thresholding
                let thr = c * self.alpha;
                for (e, &b) in self.eta.iter_mut().zip(&self.ball) {
                    *e = (b.abs() - thr).max(0.0).copysign(b);
                }
            } else {
                project_l1_ball_into(&self.ball, self.alpha, &mut self.eta)
                    .map_err(|_| RecoveryError::Diverged { iteration: it })?;
                self.counts.ball_projections += 1;
            }
        }
        Ok(())
    }

    /// The new products `L x`, `W D σ` and the multipliers `r ← r − μ (K z − aux)`.
    fn multipliers(&mut self) -> Result<()> {
        let (par, mu1, mu2) = (self.par, self.mu1, self.mu2);
        apply_counted(self.op, par, &self.pt.z, &mut self.pt.kz, &mut self.counts)?;
        apply_d(
            self.graph,
            par,
            &self.pt.s,
            &mut self.pt.ds,
            &mut self.counts,
        );
        let (lxr, ur) = (&self.pt.kz, &self.u);
        for_chunks(par, &mut self.r1, |off, rc| {
            for (i, ri) in rc.iter_mut().enumerate() {
                *ri -= mu1 * (lxr[off + i] - ur[off + i]);
            }
        });
        let (dsr, er) = (&self.pt.ds, &self.eta);
        for_chunks(par, &mut self.r2, |off, rc| {
            for (i, ri) in rc.iter_mut().enumerate() {
                *ri -= mu2 * (dsr[off + i] - er[off + i]);
            }
        });
        Ok(())
    }

    /// The primal residual `‖(L x − u, W D σ − η)‖` and the dual residual
    /// `‖(x, σ) − (x_old, σ_old)‖/γ` of the step just made.
    fn residuals(&mut self) {
        let (par, (j, n, m)) = (self.par, self.dims);
        let (lx, u, ds, eta) = (&self.pt.kz, &self.u, &self.pt.ds, &self.eta);
        let (x, x_old, s, s_old) = (&self.pt.z, &self.x_old, &self.pt.s, &self.s_old);
        let red = &mut self.pt.red;
        let feas = red.sum(par, j, |r| r.map(|q| (lx[q] - u[q]) * (lx[q] - u[q])).sum())
            + red.sum(par, m, |r| {
                r.map(|q| (ds[q] - eta[q]) * (ds[q] - eta[q])).sum()
            });
        let mv = red.sum(par, n, |r| {
            r.map(|q| {
                let (a, b) = (x[q] - x_old[q], s[q] - s_old[q]);
                a * a + b * b
            })
            .sum()
        });
        self.pt.pres = feas.sqrt();
        self.pt.dres = mv.sqrt() / self.gamma;
    }

    /// The result, with the state for a warm start.
    fn into_recovery(self, end: RunEnd) -> Recovery {
        end.into_recovery(
            self.pt.z.clone(),
            Vec::new(),
            self.counts,
            (self.lnorm, self.dnorm),
            WarmStart {
                x: self.pt.z,
                sigma: self.pt.s,
                dual_data: self.r1,
                dual_graph: self.r2,
                aux_data: self.u,
                aux_graph: self.eta,
                tau: self.gamma,
                adapt: 0.0,
            },
        )
    }
}
