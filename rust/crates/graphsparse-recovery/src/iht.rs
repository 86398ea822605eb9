//! Non-convex graph-structured recovery: Graph-IHT and Graph-CoSaMP (Hegde, Indyk & Schmidt,
//! "A nearly-linear time framework for graph-structured sparsity", ICML 2015), with the head
//! and tail projections of the weighted graph model from `graphsparse-pcst`
//! ([`GraphProjection`], a binary search over prize-collecting Steiner forests).
//!
//! Least squares `½‖y − L x‖²` over `x` supported on a forest of `g` trees with about `s`
//! vertices. Notation: `H(·)` head projection (sparsity `s_H`, default `2s`), `T(·)` tail
//! projection (sparsity `s`), `r = y − L x`, `b = Lᵀ r` (the negative gradient).
//!
//! * Graph-IHT: `x ← T(x + η·b_{H(b)})`, with `η = ‖b_H‖²/‖L b_H‖²` (the exact line search
//!   along the head-restricted gradient, normalised IHT) unless a fixed step is given.
//! * Graph-CoSaMP: `Γ = H(b) ∪ supp(x)`, `z = argmin_{supp z ⊆ Γ} ‖y − L z‖` (CGLS, warm
//!   started at `x`), `x ← z_{T(z)}`.
//!
//! Both stop when `‖x_new − x‖ ≤ tol·‖x_new‖` or the support and residual stop changing.

use graphsparse_base::Check;
use graphsparse_base::Parallel;
use graphsparse_base::{Budget, RunControl, Truncation};
use graphsparse_graph::EdgeRules;
use graphsparse_pcst::projection::{GraphProjection, GraphProjectionParams, SupportProjection};

use crate::error::{RecoveryError, Result, invalid};
use crate::graph::WeightedGraph;
use crate::operator::LinearOperator;
use crate::params::OpCounts;
use graphsparse_base::{check_at_least_one, check_len, check_nonnegative, check_positive};

/// The iteration of [`IhtParams`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IhtMethod {
    /// Graph-IHT (projected gradient with head-restricted gradient).
    #[default]
    Iht,
    /// Graph-CoSaMP (least squares on the merged support, then the tail).
    Cosamp,
}

/// Settings of Graph-IHT / Graph-CoSaMP, unchecked.
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, IhtMethod, IhtParams};
/// let p = IhtParams::new(10).method(IhtMethod::Cosamp).max_iter(50).check()?;
/// assert!(IhtParams::new(0).check().is_err());
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct IhtParams {
    sparsity: usize,
    head_sparsity: Option<usize>,
    ratio: f64,
    num_clusters: usize,
    pcst_runs: usize,
    method: IhtMethod,
    max_iter: usize,
    tol: f64,
    step: Option<f64>,
    ls_iter: usize,
    budget: Budget,
    parallel: Parallel,
}

/// Checked [`IhtParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct IhtValidParams(IhtParams);

/// Result of Graph-IHT / Graph-CoSaMP.
#[derive(Debug, Clone, PartialEq)]
pub struct IhtResult {
    /// The estimate (supported on `support`).
    pub x: Vec<f64>,
    /// The final support (a tail projection), ascending.
    pub support: Vec<usize>,
    /// Iterations made.
    pub n_iter: usize,
    /// Whether the iterate stopped moving (relative change `≤ tol`).
    pub converged: bool,
    /// `‖y − L x‖₂` after each iteration.
    pub residual_norms: Vec<f64>,
    /// Operator applications.
    pub counts: OpCounts,
    /// PCST runs made by the head and tail projections.
    pub n_projection_runs: u64,
    /// Why the run stopped early, if it did.
    pub truncation: Option<Truncation>,
}

impl IhtParams {
    /// Target sparsity `s` (tail projection range `[s, ⌊s(1 + ratio)⌋]`), with the defaults:
    /// head sparsity `2s`, ratio 0.1, one tree, 20 PCST runs per projection, Graph-IHT,
    /// 100 iterations, `tol = 1e-6`, normalised steps, 50 CGLS steps.
    pub fn new(sparsity: usize) -> Self {
        Self {
            sparsity,
            head_sparsity: None,
            ratio: 0.1,
            num_clusters: 1,
            pcst_runs: 20,
            method: IhtMethod::Iht,
            max_iter: 100,
            tol: 1e-6,
            step: None,
            ls_iter: 50,
            budget: Budget::UNLIMITED,
            parallel: Parallel::Auto,
        }
    }
    graphsparse_base::setters! {
        /// Target sparsity `s`.
        sparsity: usize => sparsity,
        /// Head sparsity (`None`: `min(2s, N)`).
        head_sparsity: Option<usize> => head_sparsity,
        /// Width of the accepted sparsity ranges (`≥ 0`).
        ratio: f64 => ratio,
        /// Number of trees `g` of the forests (`≥ 1`).
        num_clusters: usize => num_clusters,
        /// PCST runs per projection (`≥ 1`).
        pcst_runs: usize => pcst_runs,
        /// Graph-IHT or Graph-CoSaMP.
        method: IhtMethod => method,
        /// Most iterations (`≥ 1`).
        max_iter: usize => max_iter,
        /// Relative change of `x` below which the run stops (`> 0`).
        tol: f64 => tol,
        /// Fixed IHT step `η` (`None`: exact line search along the head-restricted gradient).
        step: Option<f64> => step,
        /// CGLS steps of each CoSaMP least-squares solve (`≥ 1`).
        ls_iter: usize => ls_iter,
        /// Time budget and cancellation (the node budget counts iterations).
        budget: Budget => budget,
        /// Parallelism of the operator products.
        parallel: Parallel => parallel,
    }
}

impl Check for IhtParams {
    type Checked = IhtValidParams;
    type Error = RecoveryError;

    /// Validates the settings (the sparsity against `N` is checked at solve time).
    ///
    /// # Errors
    /// [`RecoveryError::Input`] for `s = 0`, a zero head sparsity, a negative or
    /// non-finite ratio, zero trees, runs, iterations or CGLS steps, `tol ≤ 0`, or a
    /// non-positive step.
    fn check(self) -> Result<IhtValidParams> {
        check_at_least_one("sparsity", self.sparsity)?;
        if let Some(s_h) = self.head_sparsity {
            check_at_least_one("head_sparsity", s_h)?;
        }
        check_nonnegative("ratio", self.ratio)?;
        for (name, v) in [
            ("num_clusters", self.num_clusters),
            ("pcst_runs", self.pcst_runs),
            ("max_iter", self.max_iter),
            ("ls_iter", self.ls_iter),
        ] {
            check_at_least_one(name, v)?;
        }
        check_positive("tol", self.tol)?;
        if let Some(s) = self.step {
            check_positive("step", s)?;
        }
        Ok(IhtValidParams(self))
    }
}

fn norm(v: &[f64]) -> f64 {
    crate::par::sum_sq(v).sqrt()
}

impl IhtValidParams {
    /// Runs Graph-IHT / Graph-CoSaMP on the graph's topology with unit edge costs (or the
    /// given costs) in the weighted graph model.
    ///
    /// # Arguments
    /// * `op`, `y` – the measurements (squared loss).
    /// * `graph` – the graph on the `N` variables.
    /// * `costs` – per-edge costs of the graph model (`None`: all 1).
    /// * `ctl` – cancellation and progress.
    ///
    /// # Returns
    /// The [`IhtResult`].
    ///
    /// # Errors
    /// [`RecoveryError::Input`] (lengths, non-finite values),
    /// [`RecoveryError::GraphSizeMismatch`], [`RecoveryError::InvalidParameter`] for a
    /// sparsity above `N`, [`RecoveryError::Graph`] for bad costs.
    ///
    /// # Complexity
    /// Per iteration a few products with `L`/`Lᵀ` (IHT: 3; CoSaMP: 3 + 2 per CGLS step) and
    /// two projections of at most `pcst_runs` PCST runs, each O(m log N).
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_recovery::{Check, Identity, IhtParams, WeightedGraph};
    /// let g = WeightedGraph::new(5, &[[0usize, 1], [1, 2], [2, 3], [3, 4]], None)?;
    /// let y = [0.0, 3.0, 2.0, 0.0, 0.1];
    /// let r = IhtParams::new(2).ratio(0.0).check()?.solve(&Identity(5), &y, &g, None, &RunControl::new())?;
    /// assert_eq!(r.support, vec![1, 2]);
    /// assert_eq!(r.x, vec![0.0, 3.0, 2.0, 0.0, 0.0]);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn solve<Op: LinearOperator + ?Sized>(
        &self,
        op: &Op,
        y: &[f64],
        graph: &WeightedGraph,
        costs: Option<&[f64]>,
        ctl: &RunControl,
    ) -> Result<IhtResult> {
        let n = op.n_cols();
        if graph.n_vertices() != n {
            return Err(RecoveryError::GraphSizeMismatch {
                n_nodes: graph.n_vertices(),
                n_cols: n,
            });
        }
        let p = &self.0;
        if p.sparsity > n {
            return Err(invalid(
                "sparsity",
                "at most the number of variables",
                p.sparsity,
            ));
        }
        // the graph model's costs on G₀'s topology (unit costs by default)
        let model = WeightedGraph::from_edges(n, graph.edges(), costs, EdgeRules::MULTIGRAPH)?;
        let head = p.head_sparsity.unwrap_or(2 * p.sparsity).min(n);
        let gp = GraphProjectionParams::new(p.sparsity)
            .head_sparsity(Some(head))
            .ratio(p.ratio)
            .num_clusters(p.num_clusters)
            .max_iter(p.pcst_runs)
            .check()?;
        let mut proj = GraphProjection::new(model, &gp)?;
        let mut r = self.solve_with_projection(op, y, &mut proj, ctl)?;
        r.n_projection_runs = proj.projector().n_pcst_runs();
        Ok(r)
    }

    /// Runs the iteration with any head/tail pair (for example `graphsparse-pcst`'s
    /// `TopKProjection`, which makes it plain IHT / CoSaMP).
    ///
    /// # Arguments
    /// * `op`, `y` – the measurements.
    /// * `proj` – the head and tail projections on the `N` variables.
    /// * `ctl` – cancellation and progress.
    ///
    /// # Returns
    /// The [`IhtResult`] (`n_projection_runs` is 0: the caller owns the projection).
    ///
    /// # Errors
    /// [`RecoveryError::Input`], [`RecoveryError::Projection`].
    ///
    /// # Complexity
    /// As [`IhtValidParams::solve`].
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_pcst::projection::TopKProjection;
    /// use graphsparse_recovery::{Check, Identity, IhtParams};
    /// let mut top = TopKProjection::new(2, 1).unwrap();
    /// let r = IhtParams::new(1).check()?
    ///     .solve_with_projection(&Identity(3), &[0.5, -4.0, 1.0], &mut top, &RunControl::new())?;
    /// assert_eq!(r.x, vec![0.0, -4.0, 0.0]);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn solve_with_projection<Op: LinearOperator + ?Sized, P: SupportProjection>(
        &self,
        op: &Op,
        y: &[f64],
        proj: &mut P,
        ctl: &RunControl,
    ) -> Result<IhtResult> {
        let p = &self.0;
        let (j, n) = (op.n_rows(), op.n_cols());
        check_len("y", y.len(), j)?;
        graphsparse_base::check_finite("y", y)?;
        let par = p.parallel;
        let mut counts = OpCounts::default();
        let mut x = vec![0.0; n];
        let mut x_new = vec![0.0; n];
        let mut resid = y.to_vec();
        let mut grad = vec![0.0; n];
        let mut dir = vec![0.0; n];
        let mut ldir = vec![0.0; j];
        let mut lx = vec![0.0; j];
        let mut head: Vec<usize> = Vec::with_capacity(n);
        let mut tail: Vec<usize> = Vec::with_capacity(n);
        let mut merged = vec![false; n];
        let mut cg_dir = vec![0.0; if p.method == IhtMethod::Cosamp { n } else { 0 }];
        let mut support: Vec<usize> = Vec::new();
        let mut history = Vec::new();
        let meter = p.budget.start(ctl);
        let mut converged = false;
        let mut it = 0;
        let fwd = |v: &[f64], out: &mut [f64], c: &mut OpCounts| {
            c.forward += 1;
            c.work += op.cost();
            op.apply_into(v, out, par)
        };
        let adj = |v: &[f64], out: &mut [f64], c: &mut OpCounts| {
            c.adjoint += 1;
            c.work += op.cost();
            op.apply_adjoint_into(v, out, par)
        };
        while it < p.max_iter && meter.claim_node() {
            it += 1;
            adj(&resid, &mut grad, &mut counts)?;
            if grad.iter().all(|&g| g == 0.0) {
                converged = true;
                break;
            }
            proj.head_into(&grad, &mut head)?;
            match p.method {
                IhtMethod::Iht => {
                    dir.fill(0.0);
                    for &i in &head {
                        dir[i] = grad[i];
                    }
                    let eta = match p.step {
                        Some(s) => s,
                        None => {
                            fwd(&dir, &mut ldir, &mut counts)?;
                            let den = crate::par::sum_sq(&ldir);
                            if den > 0.0 {
                                crate::par::sum_sq(&dir) / den
                            } else {
                                1.0
                            }
                        }
                    };
                    for (d, &xi) in dir.iter_mut().zip(&x) {
                        *d = xi + eta * *d;
                    }
                }
                IhtMethod::Cosamp => {
                    merged.fill(false);
                    for &i in head.iter().chain(&support) {
                        merged[i] = true;
                    }
                    dir.copy_from_slice(&x);
                    cgls(
                        op,
                        y,
                        &merged,
                        &mut dir,
                        p.ls_iter,
                        &mut counts,
                        par,
                        (&mut grad, &mut ldir, &mut lx, &mut cg_dir),
                    )?;
                }
            }
            proj.tail_into(&dir, &mut tail)?;
            x_new.fill(0.0);
            for &i in &tail {
                x_new[i] = dir[i];
            }
            fwd(&x_new, &mut lx, &mut counts)?;
            for ((r, &yy), &l) in resid.iter_mut().zip(y).zip(&lx) {
                *r = yy - l;
            }
            let rn = norm(&resid);
            if !rn.is_finite() {
                return Err(RecoveryError::Diverged { iteration: it });
            }
            history.push(rn);
            let change: f64 = x_new
                .iter()
                .zip(&x)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
                .sqrt();
            let size = norm(&x_new);
            std::mem::swap(&mut x, &mut x_new);
            support.clone_from(&tail);
            ctl.progress().add_iteration();
            ctl.progress().set_value(rn);
            if change <= p.tol * size.max(f64::MIN_POSITIVE) {
                converged = true;
                break;
            }
        }
        Ok(IhtResult {
            x,
            support,
            n_iter: it,
            converged,
            residual_norms: history,
            counts,
            n_projection_runs: 0,
            truncation: meter.truncation(),
        })
    }
}

/// CGLS for `min ‖y − L z‖` over `z` supported on `mask`, from `z` (which must vanish off the
/// mask on entry).
#[allow(clippy::too_many_arguments)]
fn cgls<Op: LinearOperator + ?Sized>(
    op: &Op,
    y: &[f64],
    mask: &[bool],
    z: &mut [f64],
    iters: usize,
    counts: &mut OpCounts,
    par: Parallel,
    (s, q, r, pdir): (&mut [f64], &mut [f64], &mut [f64], &mut [f64]),
) -> Result<()> {
    counts.forward += 1;
    counts.work += op.cost();
    op.apply_into(z, r, par)?;
    for (ri, &yi) in r.iter_mut().zip(y) {
        *ri = yi - *ri;
    }
    counts.adjoint += 1;
    counts.work += op.cost();
    op.apply_adjoint_into(r, s, par)?;
    for (si, &m) in s.iter_mut().zip(mask) {
        if !m {
            *si = 0.0;
        }
    }
    pdir.copy_from_slice(s);
    let mut gamma = crate::par::sum_sq(s);
    let g0 = gamma;
    for _ in 0..iters {
        if gamma <= 1e-28 * g0 || gamma == 0.0 {
            break;
        }
        counts.forward += 1;
        counts.work += op.cost();
        op.apply_into(pdir, q, par)?;
        let qq = crate::par::sum_sq(q);
        if qq == 0.0 {
            break;
        }
        let a = gamma / qq;
        for (zi, &pi) in z.iter_mut().zip(pdir.iter()) {
            *zi += a * pi;
        }
        for (ri, &qi) in r.iter_mut().zip(q.iter()) {
            *ri -= a * qi;
        }
        counts.adjoint += 1;
        counts.work += op.cost();
        op.apply_adjoint_into(r, s, par)?;
        for (si, &m) in s.iter_mut().zip(mask) {
            if !m {
                *si = 0.0;
            }
        }
        let g_new = crate::par::sum_sq(s);
        let beta = g_new / gamma;
        for (pi, &si) in pdir.iter_mut().zip(s.iter()) {
            *pi = si + beta * *pi;
        }
        gamma = g_new;
    }
    Ok(())
}
