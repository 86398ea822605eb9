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
use crate::operator::{LinearOperator, apply_adjoint_counted, apply_counted};
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
        check_len("y", y.len(), op.n_rows())?;
        graphsparse_base::check_finite("y", y)?;
        let mut run = IhtRun::new(op, y, p);
        let meter = p.budget.start(ctl);
        let mut converged = false;
        let mut it = 0;
        while it < p.max_iter && meter.claim_node() {
            it += 1;
            if run.step(p, proj, it, ctl)? {
                converged = true;
                break;
            }
        }
        Ok(IhtResult {
            x: run.x,
            support: run.support,
            n_iter: it,
            converged,
            residual_norms: run.history,
            counts: run.counts,
            n_projection_runs: 0,
            truncation: meter.truncation(),
        })
    }
}

/// The iterate of Graph-IHT / Graph-CoSaMP and every buffer of an iteration (allocated once
/// in [`IhtRun::new`]): `resid = y − L x`, `grad = Lᵀ resid`, `dir` the point the tail
/// projects, `head`/`tail` the supports, `merged` CoSaMP's support mask, `history` the
/// residual norms.
struct IhtRun<'a, Op: LinearOperator + ?Sized> {
    op: &'a Op,
    y: &'a [f64],
    par: Parallel,
    counts: OpCounts,
    x: Vec<f64>,
    x_new: Vec<f64>,
    resid: Vec<f64>,
    grad: Vec<f64>,
    dir: Vec<f64>,
    ldir: Vec<f64>,
    lx: Vec<f64>,
    head: Vec<usize>,
    tail: Vec<usize>,
    merged: Vec<bool>,
    cg_dir: Vec<f64>,
    support: Vec<usize>,
    history: Vec<f64>,
}

impl<'a, Op: LinearOperator + ?Sized> IhtRun<'a, Op> {
    /// The start `x = 0` (so `resid = y`) and the buffers.
    fn new(op: &'a Op, y: &'a [f64], p: &IhtParams) -> Self {
        let (j, n) = (op.n_rows(), op.n_cols());
        Self {
            op,
            y,
            par: p.parallel,
            counts: OpCounts::default(),
            x: vec![0.0; n],
            x_new: vec![0.0; n],
            resid: y.to_vec(),
            grad: vec![0.0; n],
            dir: vec![0.0; n],
            ldir: vec![0.0; j],
            lx: vec![0.0; j],
            head: Vec::with_capacity(n),
            tail: Vec::with_capacity(n),
            merged: vec![false; n],
            cg_dir: vec![0.0; if p.method == IhtMethod::Cosamp { n } else { 0 }],
            support: Vec::new(),
            history: Vec::new(),
        }
    }

    /// Iteration `it`: the gradient and its head, the point to project (`dir`), its tail as
    /// the new `x`, the residual. Returns true when converged (a zero gradient, or a change
    /// of `x` within `tol` relative to its norm).
    ///
    /// # Errors
    /// [`RecoveryError::Diverged`] for a non-finite residual; the operator's and the
    /// projection's errors.
    fn step<P: SupportProjection>(
        &mut self,
        p: &IhtParams,
        proj: &mut P,
        it: usize,
        ctl: &RunControl,
    ) -> Result<bool> {
        let (op, par) = (self.op, self.par);
        apply_adjoint_counted(op, par, &self.resid, &mut self.grad, &mut self.counts)?;
        if self.grad.iter().all(|&g| g == 0.0) {
            return Ok(true);
        }
        proj.head_into(&self.grad, &mut self.head)?;
        match p.method {
            IhtMethod::Iht => self.gradient_step(p.step)?,
            IhtMethod::Cosamp => self.least_squares_step(p.ls_iter)?,
        }
        proj.tail_into(&self.dir, &mut self.tail)?;
        self.x_new.fill(0.0);
        for &i in &self.tail {
            self.x_new[i] = self.dir[i];
        }
        apply_counted(op, par, &self.x_new, &mut self.lx, &mut self.counts)?;
        for ((r, &yy), &l) in self.resid.iter_mut().zip(self.y).zip(&self.lx) {
            *r = yy - l;
        }
        let rn = norm(&self.resid);
        if !rn.is_finite() {
            return Err(RecoveryError::Diverged { iteration: it });
        }
        self.history.push(rn);
        let change: f64 = self
            .x_new
            .iter()
            .zip(&self.x)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            .sqrt();
        let size = norm(&self.x_new);
        std::mem::swap(&mut self.x, &mut self.x_new);
        self.support.clone_from(&self.tail);
        ctl.progress().add_iteration();
        ctl.progress().set_value(rn);
        Ok(change <= p.tol * size.max(f64::MIN_POSITIVE))
    }

    /// Graph-IHT: `dir = x + η · grad` restricted to the head, with the given step `η` or the
    /// exact line search `‖g_H‖² / ‖L g_H‖²` (1 when `L g_H = 0`).
    fn gradient_step(&mut self, step: Option<f64>) -> Result<()> {
        let dir = &mut self.dir;
        dir.fill(0.0);
        for &i in &self.head {
            dir[i] = self.grad[i];
        }
        let eta = match step {
            Some(s) => s,
            None => {
                apply_counted(self.op, self.par, dir, &mut self.ldir, &mut self.counts)?;
                let den = crate::par::sum_sq(&self.ldir);
                if den > 0.0 {
                    crate::par::sum_sq(dir) / den
                } else {
                    1.0
                }
            }
        };
        for (d, &xi) in dir.iter_mut().zip(&self.x) {
            *d = xi + eta * *d;
        }
        Ok(())
    }

    /// Graph-CoSaMP: `dir` = least squares (CGLS from `x`) on the head merged with the
    /// current support.
    fn least_squares_step(&mut self, ls_iter: usize) -> Result<()> {
        self.merged.fill(false);
        for &i in self.head.iter().chain(&self.support) {
            self.merged[i] = true;
        }
        self.dir.copy_from_slice(&self.x);
        cgls(
            self.op,
            self.y,
            &self.merged,
            &mut self.dir,
            ls_iter,
            &mut self.counts,
            self.par,
            (
                &mut self.grad,
                &mut self.ldir,
                &mut self.lx,
                &mut self.cg_dir,
            ),
        )
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
    apply_counted(op, par, z, r, counts)?;
    for (ri, &yi) in r.iter_mut().zip(y) {
        *ri = yi - *ri;
    }
    apply_adjoint_counted(op, par, r, s, counts)?;
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
        apply_counted(op, par, pdir, q, counts)?;
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
        apply_adjoint_counted(op, par, r, s, counts)?;
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
