//! The inner problem `V(ε) = max_{t ∈ T_{F,c}, ζ} Φ(ε, t, ζ)`, the saddle gap of a Mirror
//! Prox run, and the usable form of the paper's exactness certificate (Theorem 4).
//!
//! `V(ε)` is solved by accelerated projected gradient ascent on `(t, ζ)` (FISTA with
//! gradient restarts, step `1/L`, `L = (max ε + Σ ε)/λ`, spec §6.5); `t` is projected with
//! the warm-started [`crate::project_lipschitz_into`], `ζ` is free. The lower bound is
//! `Φ(ε, t, ζ)`; the upper bound is the perspective objective (spec §3.4)
//! `W(ρ0, ρ̃1) + (λ/2) Σ ρ̃1²/ε` at `ρ̃1 = ρ̂1 / Σ ρ̂1`, with `W` from the exact
//! [`crate::solve_transport`]. Both bounds are returned; their difference bounds the error.

use graphsparse_base::RunControl;

use crate::error::{Result, bad_param, check_distribution};
use crate::graph::OtGraph;
use crate::lipschitz::{LipschitzOptions, LipschitzWork, project_unchecked};
use crate::otc::{grad_phi_unchecked, phi_unchecked};
use crate::transport::{TransportValidParams, solve_transport};
use graphsparse_base::{
    check_all_nonnegative, check_at_least_one, check_len, check_positive, check_range,
};

/// The result of [`inner_value`].
#[derive(Debug, Clone, PartialEq)]
pub struct InnerSolution {
    /// `Φ(ε, t, ζ)` at the returned point: a lower bound on `V(ε)`.
    pub lower: f64,
    /// The perspective objective at the recovered primal point: an upper bound on `V(ε)`
    /// (`+∞` when no primal point could be recovered).
    pub upper: f64,
    /// The maximising potentials `t`.
    pub t: Vec<f64>,
    /// The maximising multiplier `ζ`.
    pub zeta: f64,
    /// Iterations made.
    pub n_iter: usize,
    /// Whether `upper − lower ≤ tol · max(1, |lower|)`.
    pub converged: bool,
}

/// `V(ε) = max_{t ∈ T, ζ} Φ(ε, t, ζ)`, with a certified bracket.
///
/// # Arguments
/// * `g`, `rho0` – the graph and the prior; `eps` – `ε ∈ [0, 1]^n`, not all zero.
/// * `lambda` – `λ > 0`; `tol` – relative accuracy of the bracket; `max_iter` – cap.
///
/// # Returns
/// An [`InnerSolution`]: the bracket `[lower, upper]` and the maximiser.
///
/// # Errors
/// Length, value and normalisation errors for bad `rho0`/`eps`,
/// [`crate::OtError::Input`] for bad `lambda`, `tol` or `max_iter`,
/// [`crate::OtError::InvalidParameter`] for an all-zero `eps`.
///
/// # Complexity
/// O(n + m · I) per iteration (`I` projection sweeps) and one transport solve per check
/// (every 100 iterations).
///
/// # Example
/// Spec §3.7: with `k max ρ0 ≤ 1` the relaxation is degenerate, `V(k ρ0) = λ/(2k)`.
/// ```
/// use graphsparse_ot::{OtGraph, degree_prior, inner_value};
/// let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02])?;
/// let rho0 = degree_prior(&g);
/// let eps: Vec<f64> = rho0.iter().map(|r| 2.0 * r).collect();
/// let v = inner_value(&g, &rho0, &eps, 1.0, 1e-12, 20_000)?;
/// assert!((v.lower - 0.25).abs() < 1e-10 && (v.upper - 0.25).abs() < 1e-10);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn inner_value(
    g: &OtGraph,
    rho0: &[f64],
    eps: &[f64],
    lambda: f64,
    tol: f64,
    max_iter: usize,
) -> Result<InnerSolution> {
    let n = g.n_vertices();
    check_len("rho0", rho0.len(), n)?;
    check_len("eps", eps.len(), n)?;
    check_distribution("rho0", rho0)?;
    check_all_nonnegative("eps", eps)?;
    check_positive("lambda", lambda)?;
    check_range("tol", tol, ">= 0", |t| t >= 0.0)?;
    check_at_least_one("max_iter", max_iter)?;
    let sum_eps: f64 = eps.iter().sum();
    if sum_eps <= 0.0 {
        return Err(bad_param("eps", "must have a positive entry"));
    }
    let max_eps = eps.iter().copied().fold(0.0_f64, f64::max);
    let step = lambda / (max_eps + sum_eps);
    let opts = LipschitzOptions::default();
    let mut work = LipschitzWork::default();
    let (mut t, mut t_prev, mut y) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut ge, mut gt) = (vec![0.0; n], vec![0.0; n]);
    let mut mu = vec![0.0; g.n_edges()];
    let mut zeta = -lambda / sum_eps.max(1e-12);
    let mut z_y = zeta;
    let mut zeta_prev: f64;
    let mut yt = t.clone();
    let mut s = 1.0_f64;
    let mut best = (f64::NEG_INFINITY, t.clone(), zeta);
    let mut upper = f64::INFINITY;
    let mut n_iter = 0;
    let mut converged = false;
    let mut last_obj = f64::NEG_INFINITY;
    for it in 1..=max_iter {
        n_iter = it;
        // gradient ascent step from the extrapolated point (yt, z_y)
        let gz = grad_phi_unchecked(eps, &yt, z_y, rho0, lambda, &mut ge, &mut gt);
        for v in 0..n {
            y[v] = yt[v] + step * gt[v];
        }
        t_prev.copy_from_slice(&t);
        zeta_prev = std::mem::replace(&mut zeta, z_y + step * gz);
        project_unchecked(g, &y, &mut mu, &mut t, &opts, &mut work);
        let obj = phi_unchecked(eps, &t, zeta, rho0, lambda);
        if obj > best.0 {
            best = (obj, t.clone(), zeta);
        }
        // restart the momentum when the objective drops (O'Donoghue & Candès)
        let s_new = if obj < last_obj {
            1.0
        } else {
            0.5 * (1.0 + (1.0 + 4.0 * s * s).sqrt())
        };
        let mom = if obj < last_obj {
            0.0
        } else {
            (s - 1.0) / s_new
        };
        last_obj = obj;
        s = s_new;
        for v in 0..n {
            yt[v] = t[v] + mom * (t[v] - t_prev[v]);
        }
        z_y = zeta + mom * (zeta - zeta_prev);
        if it % 100 == 0 || it == max_iter {
            upper = upper.min(primal_bound(g, rho0, eps, &best.1, best.2, lambda));
            if upper - best.0 <= tol * best.0.abs().max(1.0) {
                converged = true;
                break;
            }
        }
    }
    Ok(InnerSolution {
        lower: best.0,
        upper,
        t: best.1,
        zeta: best.2,
        n_iter,
        converged,
    })
}

/// The perspective objective at `ρ̃1 = ρ̂1/Σ ρ̂1` (an upper bound on `V(ε)`).
fn primal_bound(g: &OtGraph, rho0: &[f64], eps: &[f64], t: &[f64], zeta: f64, lambda: f64) -> f64 {
    let r: Vec<f64> = (0..eps.len())
        .map(|v| eps[v] * (-(t[v] + zeta)).max(0.0) / lambda)
        .collect();
    let total: f64 = r.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return f64::INFINITY;
    }
    let r: Vec<f64> = r.iter().map(|x| x / total).collect();
    let Ok(sol) = solve_transport(
        g,
        rho0,
        &r,
        &TransportValidParams::default(),
        &RunControl::new(),
    ) else {
        return f64::INFINITY;
    };
    let pen: f64 = (0..eps.len())
        .filter(|&v| eps[v] > 0.0)
        .map(|v| r[v] * r[v] / eps[v])
        .sum();
    sol.value + 0.5 * lambda * pen
}

/// The saddle gap of an averaged Mirror Prox point (spec §5.3):
/// `V(ε̄) − min_{ε ∈ Ẽ_k} Φ(ε, t̄, ζ̄)`, the second term being
/// `−t̄ᵀρ0 − ζ̄ − (1/2λ)·(sum of the k largest s̄_v²)`.
///
/// # Arguments
/// * `v_eps` – `V(ε̄)` (from [`inner_value`]).
/// * `rho0` – the prior; `k` – the budget; `t_bar`, `zeta_bar` – the averaged dual point
///   ([`crate::OtcSolution::t_bar`], [`crate::OtcSolution::zeta_bar`]); `lambda` – `λ`.
///
/// # Returns
/// The gap, `≥ 0` up to the accuracy of `v_eps` (entries beyond the shorter of `rho0` and
/// `t_bar` are ignored).
///
/// # Complexity
/// O(n log n).
///
/// # Example
/// ```
/// // no signal anywhere: the min over ε is −t̄ᵀρ0 − ζ̄
/// let gap = graphsparse_ot::saddle_gap(0.3, &[0.5, 0.5], 2, &[0.0, 0.0], 0.1, 1.0);
/// assert!((gap - 0.4).abs() < 1e-15);
/// ```
pub fn saddle_gap(
    v_eps: f64,
    rho0: &[f64],
    k: usize,
    t_bar: &[f64],
    zeta_bar: f64,
    lambda: f64,
) -> f64 {
    let mut s2: Vec<f64> = t_bar
        .iter()
        .map(|&t| {
            let s = (-(t + zeta_bar)).max(0.0);
            s * s
        })
        .collect();
    s2.sort_unstable_by(|a, b| b.total_cmp(a));
    let top: f64 = s2.iter().take(k).sum();
    let lin: f64 = t_bar.iter().zip(rho0).map(|(t, r)| t * r).sum();
    v_eps - (-lin - zeta_bar - top / (2.0 * lambda))
}

/// The certificate of spec §6.4 for a candidate vertex set `S` (e.g. the rounded one).
#[derive(Debug, Clone, PartialEq)]
pub struct Certificate {
    /// `min_{v∈S} s_v − max_{v∉S} s_v` (and `−max_{v∉S} s_v` when `|S| < k` is smaller):
    /// `S` provably solves problem (3) when it is `≥ 0`.
    pub margin: f64,
    /// The signals `s_v = [−(t(v) + ζ)]₊` at the inner maximiser for `ε = 1_S`.
    pub signal: Vec<f64>,
    /// The inner solution for `ε = 1_S`.
    pub inner: InnerSolution,
}

/// Computes the exactness certificate of `S` (spec §6.4).
///
/// With a connected graph, `c > 0` and a full-support `ρ0` (the paper's setting) the margin
/// is never positive for `∅ ≠ S ≠ V` (proved in the spec), so expect it to fail on real data.
///
/// # Arguments
/// * `g`, `rho0` – the graph and the prior; `s` – the candidate set (e.g.
///   [`crate::OtcSolution::vertices`]); `k` – the budget; `lambda` – `λ`.
///
/// # Returns
/// A [`Certificate`]: the margin, the signals and the inner solution for `ε = 1_S`.
///
/// # Errors
/// As [`inner_value`], and [`crate::OtError::InvalidParameter`] for an empty `S`, a vertex
/// out of range or `k = 0`.
///
/// # Complexity
/// One [`inner_value`] solve.
///
/// # Example
/// ```
/// use graphsparse_ot::{OtGraph, certificate, degree_prior};
/// let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02])?;
/// let c = certificate(&g, &degree_prior(&g), &[1, 2], 2, 1.0)?;
/// assert!(c.margin < 0.0); // never certified with a full-support prior
/// assert!((c.inner.lower - 0.2574).abs() < 1e-9); // V({1, 2}) of spec §10
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn certificate(
    g: &OtGraph,
    rho0: &[f64],
    s: &[u32],
    k: usize,
    lambda: f64,
) -> Result<Certificate> {
    let n = g.n_vertices();
    check_at_least_one("k", k)?;
    if s.is_empty() {
        return Err(bad_param("S", "must not be empty"));
    }
    let mut eps = vec![0.0; n];
    for &v in s {
        if v as usize >= n {
            return Err(bad_param(
                "S",
                format!("vertex {v} out of range for {n} vertices"),
            ));
        }
        eps[v as usize] = 1.0;
    }
    let inner = inner_value(g, rho0, &eps, lambda, 1e-13, 50_000)?;
    let signal: Vec<f64> = inner
        .t
        .iter()
        .map(|&t| (-(t + inner.zeta)).max(0.0))
        .collect();
    let in_s = |v: usize| eps[v] > 0.0;
    let min_in = (0..n)
        .filter(|&v| in_s(v))
        .map(|v| signal[v])
        .fold(f64::INFINITY, f64::min);
    let max_out = (0..n)
        .filter(|&v| !in_s(v))
        .map(|v| signal[v])
        .fold(0.0_f64, f64::max);
    let n_s = (0..n).filter(|&v| in_s(v)).count();
    let mut margin = min_in - max_out;
    if n_s < k {
        margin = margin.min(-max_out);
    }
    Ok(Certificate {
        margin,
        signal,
        inner,
    })
}
