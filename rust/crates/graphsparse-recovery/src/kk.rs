//! Algorithm 1 of Kuroda & Kitahara, as printed (with `x^{(i+1)}` for the paper's
//! `x^{(j+1)}`), all variables starting at 0 unless warm-started.
//!
//! Notation map: `x, σ` (primal), `u ≈ L x`, `η ≈ W D σ` (lifted copies), `r₁, r₂`
//! (multipliers), `γ` (prox step), `μ₁ ≤ (‖L‖² + 1)^{-1/2}`, `μ₂ ≤ (‖W D‖² + 1)^{-1/2}`
//! (both taken 0.99 times the bound with norms inflated by 1 %). The dual point of the gap
//! certificate is `v₁ = −(μ₁/γ) r₁` (projected onto `dom f*`) and `v₂ = −(μ₂/γ) r₂`
//! (spec §3.2), which costs one extra `Lᵀ` and `Dᵀ W` per check.

use graphsparse_base::RunControl;
use graphsparse_proj::project_l1_ball_into;

use crate::error::{RecoveryError, Result};
use crate::graph::GraphDifference;
use crate::loss::Fit;
use crate::operator::LinearOperator;
use crate::par::{Reducer, for_chunks, for_chunks2};
use crate::params::{HistoryEntry, OpCounts, Recovery, RecoveryValidParams, WarmStart};
use crate::pdhg::{GapInput, Penalty, STEP_FACTOR, check, load, step_norms, stop_holds};
use crate::prox::prox_persp;

/// Solves the graph model with Algorithm 1.
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
    let par = params.parallel();
    let lam = params.lam();
    let (j, n, m) = (op.n_rows(), op.n_cols(), graph.graph().n_edges());
    let pen = Penalty::Graph {
        graph,
        alpha,
        lagrangian,
    };
    let mut counts = OpCounts::default();
    let (lnorm, dnorm) = step_norms(params, op, pen, &mut counts)?;
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
    let mut lx = vec![0.0; j];
    let mut ds = vec![0.0; m];
    let mut e1 = vec![0.0; j];
    let mut e2 = vec![0.0; m];
    let mut ltv = vec![0.0; n];
    let mut dtv = vec![0.0; n];
    let mut x_old = vec![0.0; n];
    let mut s_old = vec![0.0; n];
    let mut ball = vec![0.0; m];
    let mut v1 = vec![0.0; j];
    let mut v2 = vec![0.0; m];
    let mut red = Reducer::default();
    let mut comp_sum = Vec::new();
    let apply_l = |x: &[f64], out: &mut [f64], c: &mut OpCounts| {
        c.forward += 1;
        c.work += op.cost();
        op.apply_into(x, out, par)
    };
    let apply_lt = |v: &[f64], out: &mut [f64], c: &mut OpCounts| {
        c.adjoint += 1;
        c.work += op.cost();
        op.apply_adjoint_into(v, out, par)
    };
    let apply_d = |s: &[f64], out: &mut [f64], c: &mut OpCounts| {
        if m > 0 {
            c.diff += 1;
            c.work += graph.diff_cost();
            graph.diff(s, out, par);
        }
    };
    let apply_dt = |v: &[f64], out: &mut [f64], c: &mut OpCounts| {
        if m > 0 {
            c.diff_adjoint += 1;
            c.work += graph.diff_cost();
            graph.diff_adjoint(v, out, par);
        } else {
            out.fill(0.0);
        }
    };
    apply_l(&x, &mut lx, &mut counts)?;
    apply_d(&s, &mut ds, &mut counts);

    let meter = params.budget().start(ctl);
    let (check_every, stop, max_iter) = (params.check_every(), params.stop(), params.max_iter());
    let mut history = Vec::new();
    let mut last: Option<HistoryEntry> = None;
    let mut converged = false;
    let mut it = 0;
    let (mut pres, mut dres) = (f64::NAN, f64::NAN);
    let c = gamma * lam;
    if !(c.is_finite() && c > 0.0) {
        return Err(crate::error::invalid(
            "gamma * lambda",
            "finite and > 0 (rescale lambda or gamma)",
            c,
        ));
    }
    loop {
        let stopping = it >= max_iter || !meter.claim_node();
        let is_check = stopping || (it > 0 && it % check_every == 0);
        if is_check && last.is_none_or(|e| e.iteration != it) && (it > 0 || stopping) {
            // dual point of the certificate
            let k1 = -mu1 / gamma;
            for ((v, &r), &yy) in v1.iter_mut().zip(&r1).zip(y) {
                *v = fit.project_dual(yy, k1 * r);
            }
            let k2 = -mu2 / gamma;
            // the Lagrangian form's dual block must lie in [−λβ, λβ]
            let cap = if lagrangian {
                lam * alpha
            } else {
                f64::INFINITY
            };
            for (v, &r) in v2.iter_mut().zip(&r2) {
                *v = (k2 * r).clamp(-cap, cap);
            }
            apply_lt(&v1, &mut ltv, &mut counts)?;
            apply_dt(&v2, &mut dtv, &mut counts);
            let entry = check(
                &GapInput {
                    fit,
                    y,
                    lam,
                    pen,
                    z: &x,
                    s: &s,
                    kz: &lx,
                    ds: &ds,
                    v1: &v1,
                    v2: &v2,
                    ktv: &ltv,
                    dtv: &dtv,
                    par,
                },
                &mut red,
                &mut comp_sum,
                it,
                pres,
                dres,
            )?;
            ctl.progress().set_value(entry.gap);
            if it > 0 {
                converged = stop_holds(stop, params.tol(), &entry, [&ltv, &dtv], [&lx, &ds]);
                if params.record_history() {
                    history.push(entry);
                }
            }
            last = Some(entry);
            if converged {
                break;
            }
        }
        if stopping {
            break;
        }
        it += 1;
        x_old.copy_from_slice(&x);
        s_old.copy_from_slice(&s);
        // e = r − μ (K z − aux); x̃ = x + μ Kᵀ e; ũ = u − μ e
        {
            let (lxr, ur) = (&lx, &u);
            for_chunks2(par, &mut e1, &mut r1, |off, e, r| {
                for (i, (ei, ri)) in e.iter_mut().zip(r.iter()).enumerate() {
                    *ei = ri - mu1 * (lxr[off + i] - ur[off + i]);
                }
            });
            let (dsr, er) = (&ds, &eta);
            for_chunks2(par, &mut e2, &mut r2, |off, e, r| {
                for (i, (ei, ri)) in e.iter_mut().zip(r.iter()).enumerate() {
                    *ei = ri - mu2 * (dsr[off + i] - er[off + i]);
                }
            });
        }
        apply_lt(&e1, &mut ltv, &mut counts)?;
        apply_dt(&e2, &mut dtv, &mut counts);
        {
            let (lt, dt) = (&ltv, &dtv);
            for_chunks2(par, &mut x, &mut s, |off, xc, sc| {
                for (i, (xi, si)) in xc.iter_mut().zip(sc.iter_mut()).enumerate() {
                    let q = off + i;
                    (*xi, *si) = prox_persp(*xi + mu1 * lt[q], *si + mu2 * dt[q], c);
                }
            });
        }
        counts.prox += n as u64;
        {
            let er = &e1;
            for_chunks(par, &mut u, |off, uc| {
                for (i, ui) in uc.iter_mut().enumerate() {
                    let q = off + i;
                    *ui = fit.prox(y[q], *ui - mu1 * er[q], gamma);
                }
            });
        }
        if m > 0 {
            for ((b, &e), &v) in ball.iter_mut().zip(&e2).zip(&eta) {
                *b = v - mu2 * e;
            }
            if lagrangian {
                // prox of γλβ‖·‖₁: soft-thresholding
                let thr = c * alpha;
                for (e, &b) in eta.iter_mut().zip(&ball) {
                    *e = (b.abs() - thr).max(0.0).copysign(b);
                }
            } else {
                project_l1_ball_into(&ball, alpha, &mut eta)
                    .map_err(|_| RecoveryError::Diverged { iteration: it })?;
                counts.ball_projections += 1;
            }
        }
        apply_l(&x, &mut lx, &mut counts)?;
        apply_d(&s, &mut ds, &mut counts);
        {
            let (lxr, ur) = (&lx, &u);
            for_chunks(par, &mut r1, |off, rc| {
                for (i, ri) in rc.iter_mut().enumerate() {
                    *ri -= mu1 * (lxr[off + i] - ur[off + i]);
                }
            });
            let (dsr, er) = (&ds, &eta);
            for_chunks(par, &mut r2, |off, rc| {
                for (i, ri) in rc.iter_mut().enumerate() {
                    *ri -= mu2 * (dsr[off + i] - er[off + i]);
                }
            });
        }
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
        pres = feas.sqrt();
        dres = mv.sqrt() / gamma;
        ctl.progress().add_iteration();
    }
    let last = last.expect("invariant: the final iterate is always checked");
    Ok(Recovery {
        x: x.clone(),
        sigma: s.clone(),
        latent: Vec::new(),
        n_iter: it,
        converged,
        objective: last.primal,
        dual_objective: last.dual,
        gap: last.gap,
        history,
        counts,
        truncation: meter.truncation(),
        op_norm: lnorm,
        diff_norm: dnorm,
        state: WarmStart {
            x,
            sigma: s,
            dual_data: r1,
            dual_graph: r2,
            aux_data: u,
            aux_graph: eta,
            tau: gamma,
            adapt: 0.0,
        },
    })
}
