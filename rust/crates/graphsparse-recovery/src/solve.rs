//! The public solve entry points: the graph model (6), the lasso, the latent group lasso,
//! `λ` paths and `λ_max`.

use std::time::Instant;

use graphsparse_base::{Budget, Check, RunControl};

use crate::anderson::solve_anderson;
use crate::error::{RecoveryError, Result, invalid};
use crate::graph::{GraphDifference, WeightedGraph, check_positive_weights};
use crate::groups::LatentGroups;
use crate::kk::solve_kk;
use crate::loss::{DataFit, Fit, Loss};
use crate::operator::LinearOperator;
use crate::params::{PenaltyForm, Recovery, RecoveryValidParams, Solver, WarmStart};
use crate::pdhg::{Penalty, solve_pdhg};
use crate::ssnal::solve_ssnal;
use graphsparse_base::{check_len, check_positive};

/// Which penalty a [`lambda_max`] or path refers to.
#[derive(Debug, Clone, Copy)]
pub enum Model<'a> {
    /// `Ψ_α` on a graph.
    Graph {
        /// The graph `G₀`.
        graph: &'a WeightedGraph,
        /// The budget `α ≥ 0`.
        alpha: f64,
    },
    /// `‖x‖₁`.
    Lasso,
    /// The latent group lasso norm.
    LatentGroup(&'a LatentGroups),
}

fn check_graph_size(n_nodes: usize, n_cols: usize) -> Result<()> {
    if n_nodes == n_cols {
        Ok(())
    } else {
        Err(RecoveryError::GraphSizeMismatch { n_nodes, n_cols })
    }
}

fn check_data<Op: LinearOperator + ?Sized>(op: &Op, y: &[f64], loss: Loss) -> Result<()> {
    check_len("y", y.len(), op.n_rows())?;
    loss.check_targets(y)
}

impl RecoveryValidParams {
    /// Solves model (6), `min_x f(L x) + λ Ψ_α(x)`, jointly in `(x, σ)`.
    ///
    /// With PDHG and `α = 0` the problem is solved as the group lasso over the connected
    /// components of `G₀` (`Ψ_0(x) = Σ_c √|c| ‖x_c‖₂`, spec P3), which gives exact zeros;
    /// `σ` is then the per-component RMS of `x`.
    ///
    /// # Arguments
    /// * `op` – the measurement operator `L` (`J × N`): [`crate::DenseMatrix`],
    ///   [`crate::CsrMatrix`], [`crate::Identity`] or any [`LinearOperator`].
    /// * `y` – the `J` targets (finite; `±1` for the logistic and hinge losses).
    /// * `graph` – `G₀` on the `N` variables.
    /// * `warm` – a previous solve's [`Recovery::state`], or a primal guess.
    /// * `ctl` – cancellation and progress (see `graphsparse-base`).
    ///
    /// # Returns
    /// The [`Recovery`]: `x`, `σ`, iterations, the final gap, the history, operator counts and
    /// the state for a warm start. Non-convergence within `max_iter` or the budget is
    /// reported (`converged = false`, `truncation`), not an error.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] (`y` vs `J`, warm-start vectors, non-finite values),
    /// [`RecoveryError::GraphSizeMismatch`] (`N` vs the graph), [`RecoveryError::InvalidWeight`]
    /// (a weight not `> 0`), [`RecoveryError::InvalidLabel`], [`RecoveryError::Diverged`] if
    /// float64 overflows.
    ///
    /// # Complexity
    /// Per iteration one product each with `L`, `Lᵀ`, `W D`, `Dᵀ W`, `N` perspective proxes,
    /// `J` loss proxes and one `ℓ1`-ball projection of length `m`: O(nnz(L) + N + J + m).
    /// The norm estimates cost up to `norm_iter` products with `LᵀL` once.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_recovery::{Check, DenseMatrix, RecoveryParams, WeightedGraph};
    /// // denoising on a path: L = I
    /// let l = DenseMatrix::new(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], 3, 3)?;
    /// let g = WeightedGraph::new(3, &[[0, 1], [1, 2]], None)?;
    /// let fit = RecoveryParams::new(0.5, 1.0).tol(1e-10).check()?
    ///     .solve(&l, &[2.0, 2.0, 0.0], &g, None, &RunControl::new())?;
    /// assert!(fit.converged && fit.gap <= 1e-10);
    /// assert!(fit.x[0] > 0.0 && fit.x[1] > 0.0);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    ///
    /// Reference: H. Kuroda and D. Kitahara, "Graph-structured sparse regularization via
    /// convex optimization", eqs. (5)–(6) and Algorithm 1.
    pub fn solve<Op: LinearOperator + ?Sized>(
        &self,
        op: &Op,
        y: &[f64],
        graph: &WeightedGraph,
        warm: Option<&WarmStart>,
        ctl: &RunControl,
    ) -> Result<Recovery> {
        check_data(op, y, self.loss())?;
        check_graph_size(graph.n_vertices(), op.n_cols())?;
        check_positive_weights(graph)?;
        let fit = Fit::from(self.loss());
        self.dispatch(op, y, graph, fit, warm, ctl)
    }

    fn dispatch<Op: LinearOperator + ?Sized>(
        &self,
        op: &Op,
        y: &[f64],
        graph: &WeightedGraph,
        fit: Fit,
        warm: Option<&WarmStart>,
        ctl: &RunControl,
    ) -> Result<Recovery> {
        let alpha = self.alpha();
        let lagrangian = self.penalty_form() == PenaltyForm::Lagrangian;
        let diff = GraphDifference::new(graph);
        let graph = &diff;
        let solver =
            self.solver()
                .resolve(op.n_rows(), op.n_cols(), op.cost(), graph.graph().n_edges());
        let mut r = match solver {
            Solver::Pdhg { adaptive }
                if alpha == 0.0 && !lagrangian && graph.graph().n_edges() > 0 =>
            {
                self.solve_components(op, y, graph.graph(), fit, warm, ctl, adaptive)
            }
            // α = 0 is the group lasso over the components, which PDHG solves with exact zeros
            Solver::Anderson { .. } | Solver::Ssnal
                if alpha == 0.0 && !lagrangian && graph.graph().n_edges() > 0 =>
            {
                let mut r = self.solve_components(op, y, graph.graph(), fit, warm, ctl, true)?;
                r.solver = Solver::Pdhg { adaptive: true };
                return Ok(r);
            }
            Solver::Pdhg { .. } | Solver::Auto => solve_pdhg(
                self,
                fit,
                op,
                y,
                Penalty::Graph {
                    graph,
                    alpha,
                    lagrangian,
                },
                warm,
                ctl,
                !matches!(solver, Solver::Pdhg { adaptive: false }),
            ),
            Solver::KurodaKitahara { gamma } => {
                solve_kk(self, fit, op, y, graph, alpha, lagrangian, gamma, warm, ctl)
            }
            Solver::Anderson { memory } => solve_anderson(
                self, fit, op, y, graph, alpha, lagrangian, memory, warm, ctl,
            ),
            Solver::Ssnal => {
                match solve_ssnal(self, fit, op, y, graph, alpha, lagrangian, warm, ctl) {
                    // the Newton iteration broke down (its dual can run off along directions
                    // where the ℓ1-ball block's Hessian is singular): the fit is finished by
                    // Anderson from the start, and reported as such
                    Err(RecoveryError::Diverged { .. }) => {
                        let memory = crate::ANDERSON_MEMORY;
                        let mut r = solve_anderson(
                            self, fit, op, y, graph, alpha, lagrangian, memory, warm, ctl,
                        )?;
                        r.solver = Solver::Anderson { memory };
                        return Ok(r);
                    }
                    other => other,
                }
            }
        }?;
        r.solver = solver;
        Ok(r)
    }

    /// `α = 0`: `Ψ_0(x) = Σ_c √|c| ‖x_c‖₂` over the connected components (spec P3), solved
    /// as that group lasso, whose block soft-thresholding gives exact zeros (the joint
    /// `(x, σ)` iteration reaches a constant `σ` per component only in the limit). `σ` is
    /// returned as the per-component RMS of `x`, its optimal value.
    #[allow(clippy::too_many_arguments)]
    fn solve_components<Op: LinearOperator + ?Sized>(
        &self,
        op: &Op,
        y: &[f64],
        graph: &WeightedGraph,
        fit: Fit,
        warm: Option<&WarmStart>,
        ctl: &RunControl,
        adaptive: bool,
    ) -> Result<Recovery> {
        let n = graph.n_vertices();
        let sizes = graph.component_sizes();
        let mut offsets = Vec::with_capacity(sizes.len() + 1);
        offsets.push(0usize);
        for &size in sizes {
            offsets.push(offsets[offsets.len() - 1] + size as usize);
        }
        // the latent vector of a partition is x listed component by component
        let mut fill = offsets.clone();
        let mut order = vec![0usize; n];
        for (v, &c) in graph.components().iter().enumerate() {
            order[fill[c as usize]] = v;
            fill[c as usize] += 1;
        }
        let weights: Vec<f64> = sizes.iter().map(|&s| f64::from(s).sqrt()).collect();
        let groups = LatentGroups::from_offsets(n, &offsets, &order, Some(&weights))?;
        let warm = match warm {
            Some(w) => {
                let x = if w.x.is_empty() {
                    Vec::new()
                } else {
                    check_len("warm_start.x", w.x.len(), n)?;
                    order.iter().map(|&v| w.x[v]).collect()
                };
                Some(WarmStart {
                    x,
                    dual_data: w.dual_data.clone(),
                    tau: w.tau,
                    adapt: w.adapt,
                    ..WarmStart::default()
                })
            }
            None => None,
        };
        let mut r = solve_pdhg(
            self,
            fit,
            op,
            y,
            Penalty::Groups(&groups),
            warm.as_ref(),
            ctl,
            adaptive,
        )?;
        let mut sq = vec![0.0; sizes.len()];
        for (&c, v) in graph.components().iter().zip(&r.x) {
            sq[c as usize] += v * v;
        }
        r.sigma = graph
            .components()
            .iter()
            .map(|&c| (sq[c as usize] / f64::from(graph.component_sizes()[c as usize])).sqrt())
            .collect();
        r.latent = Vec::new();
        r.state.x.clone_from(&r.x);
        r.state.sigma.clone_from(&r.sigma);
        Ok(r)
    }

    /// Solves the lasso `min_x f(L x) + λ‖x‖₁` with the same PDHG (spec §4.1).
    ///
    /// `alpha` is ignored. With the squared loss this is scikit-learn's `Lasso` with
    /// `alpha = λ/J`.
    ///
    /// # Arguments
    /// As [`RecoveryValidParams::solve`] without the graph.
    ///
    /// # Returns
    /// The [`Recovery`] (`sigma` empty).
    ///
    /// # Errors
    /// As [`RecoveryValidParams::solve`]; [`RecoveryError::InvalidParameter`] for
    /// [`Solver::KurodaKitahara`] (graph model only).
    ///
    /// # Complexity
    /// O(nnz(L) + N + J) per iteration.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_recovery::{Check, Identity, RecoveryParams};
    /// // L = I: the lasso is soft-thresholding
    /// let fit = RecoveryParams::new(1.0, 0.0).tol(1e-12).check()?
    ///     .solve_lasso(&Identity(3), &[3.0, -0.5, -2.0], None, &RunControl::new())?;
    /// assert!((fit.x[0] - 2.0).abs() < 1e-9 && fit.x[1] == 0.0 && (fit.x[2] + 1.0).abs() < 1e-9);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn solve_lasso<Op: LinearOperator + ?Sized>(
        &self,
        op: &Op,
        y: &[f64],
        warm: Option<&WarmStart>,
        ctl: &RunControl,
    ) -> Result<Recovery> {
        check_data(op, y, self.loss())?;
        let adaptive = self.pdhg_only()?;
        solve_pdhg(
            self,
            Fit::from(self.loss()),
            op,
            y,
            Penalty::L1,
            warm,
            ctl,
            adaptive,
        )
    }

    /// Solves the latent group lasso `min_v f(L P v) + λ Σ_g d_g ‖v_g‖₂` (Jacob, Obozinski &
    /// Vert 2009) with the same PDHG in the latent space; `x = P v`.
    ///
    /// # Arguments
    /// As [`RecoveryValidParams::solve`], with the groups instead of the graph.
    ///
    /// # Returns
    /// The [`Recovery`] with `x` and the latent copies `latent` (`v` is not unique; `x` is
    /// for strictly convex `f∘L`).
    ///
    /// # Errors
    /// As [`RecoveryValidParams::solve_lasso`]; [`RecoveryError::GraphSizeMismatch`] when the
    /// groups' `N` differs from `L`'s columns.
    ///
    /// # Complexity
    /// O(nnz(L) + N + M) per iteration, `M = Σ_g |g|`.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_recovery::{Check, Identity, LatentGroups, RecoveryParams};
    /// // one group {0, 1}: block soft-thresholding of (3, 4) by λ d = 1·√2
    /// let groups = LatentGroups::new(2, &[vec![0, 1]], None)?;
    /// let fit = RecoveryParams::new(1.0, 0.0).tol(1e-12).check()?
    ///     .solve_latent_group(&Identity(2), &[3.0, 4.0], &groups, None, &RunControl::new())?;
    /// let shrink = 1.0 - 2f64.sqrt() / 5.0;
    /// assert!((fit.x[0] - 3.0 * shrink).abs() < 1e-6 && (fit.x[1] - 4.0 * shrink).abs() < 1e-6);
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn solve_latent_group<Op: LinearOperator + ?Sized>(
        &self,
        op: &Op,
        y: &[f64],
        groups: &LatentGroups,
        warm: Option<&WarmStart>,
        ctl: &RunControl,
    ) -> Result<Recovery> {
        check_data(op, y, self.loss())?;
        check_graph_size(groups.n_nodes(), op.n_cols())?;
        let adaptive = self.pdhg_only()?;
        solve_pdhg(
            self,
            Fit::from(self.loss()),
            op,
            y,
            Penalty::Groups(groups),
            warm,
            ctl,
            adaptive,
        )
    }

    fn pdhg_only(&self) -> Result<bool> {
        match self.solver() {
            Solver::Pdhg { adaptive } => Ok(adaptive),
            // Auto means adaptive PDHG off the graph model
            Solver::Auto => Ok(true),
            Solver::Anderson { .. } => Err(invalid(
                "solver",
                "pdhg or auto for the lasso and the latent group lasso (Anderson is for the graph model)",
                "anderson",
            )),
            Solver::KurodaKitahara { .. } => Err(invalid(
                "solver",
                "pdhg for the lasso and the latent group lasso (Algorithm 1 is for the graph model)",
                "kk",
            )),
            Solver::Ssnal => Err(invalid(
                "solver",
                "pdhg or auto for the lasso and the latent group lasso (ssnal is for the graph model)",
                "ssnal",
            )),
        }
    }

    /// Solves model (6) along a sequence of `λ` values, each solve warm-started from the
    /// previous one (decreasing `λ` from [`lambda_max`] is the natural order).
    ///
    /// Each solve after the first starts from the previous one's [`Recovery::state`] with
    /// the step adaptation restarted (`adapt = 0`, see [`WarmStart::adapt`]) and reuses its
    /// norm estimates `‖L‖` and `‖W D‖`. The budget covers the whole path: each solve gets
    /// the time and the iterations (its nodes) that the solves before it left.
    ///
    /// # Arguments
    /// * `op`, `y`, `graph`, `ctl` – as [`RecoveryValidParams::solve`].
    /// * `lams` – the `λ` values (finite, `> 0`); this params' own `λ` is ignored.
    ///
    /// # Returns
    /// One [`Recovery`] per `λ` (fewer if the budget or a cancellation stopped the path; the
    /// last one then carries the truncation).
    ///
    /// # Errors
    /// As [`RecoveryValidParams::solve`], and [`RecoveryError::Input`] for a bad `λ`.
    ///
    /// # Complexity
    /// The sum of the solves; warm starts make later ones short.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_recovery::{Check, Identity, Model, RecoveryParams, WeightedGraph, lambda_max, Loss};
    /// let g = WeightedGraph::new(3, &[[0, 1], [1, 2]], None)?;
    /// let y = [1.0, 2.0, -0.5];
    /// let top = lambda_max(&Identity(3), &y, Loss::Squared, Model::Graph { graph: &g, alpha: 1.0 })?;
    /// let lams: Vec<f64> = (0..5).map(|k| top * 0.5f64.powi(k)).collect();
    /// let path = RecoveryParams::new(1.0, 1.0).check()?
    ///     .solve_path(&Identity(3), &y, &g, &lams, &RunControl::new())?;
    /// assert_eq!(path.len(), 5);
    /// assert!(path[0].x.iter().all(|&v| v == 0.0)); // λ_max gives x = 0
    /// # Ok::<(), graphsparse_recovery::RecoveryError>(())
    /// ```
    pub fn solve_path<Op: LinearOperator + ?Sized>(
        &self,
        op: &Op,
        y: &[f64],
        graph: &WeightedGraph,
        lams: &[f64],
        ctl: &RunControl,
    ) -> Result<Vec<Recovery>> {
        for &l in lams {
            check_positive("lambda", l)?;
        }
        let mut out: Vec<Recovery> = Vec::with_capacity(lams.len());
        let mut base = self.to_params();
        let (budget, start) = (self.budget(), Instant::now());
        let mut iterations = 0u64;
        // the norms do not depend on λ: estimate them once
        let mut norms: Option<(f64, f64)> = None;
        for (k, &l) in lams.iter().enumerate() {
            ctl.progress().set_stage(k as u64, lams.len() as u64);
            let left = Budget::new()
                .max_nodes(budget.max_nodes.map(|n| n.saturating_sub(iterations)))
                .time_limit(budget.time_limit.map(|t| t.saturating_sub(start.elapsed())));
            base = base.lam(l).budget(left);
            if let Some((a, b)) = norms {
                base = base.op_norm(Some(a));
                if b > 0.0 {
                    base = base.diff_norm(Some(b));
                }
            }
            let p = base.clone().check()?;
            // a new λ is a new problem: keep the iterates and steps, restart the adaptation
            let warm = out.last().map(|r| WarmStart {
                adapt: 0.0,
                ..r.state.clone()
            });
            let fit = p.solve(op, y, graph, warm.as_ref(), ctl)?;
            iterations += fit.n_iter as u64;
            norms = Some((fit.op_norm, fit.diff_norm));
            let stop = fit.truncation.is_some();
            out.push(fit);
            if stop {
                break;
            }
        }
        Ok(out)
    }
}

/// The smallest `λ` with solution `x̂ = 0` (spec P7): `‖Lᵀ g‖_∞` for the lasso and the graph
/// model with `α > 0`, `max_c ‖(Lᵀ g)_c‖₂/√|c|` over connected components for `α = 0`, and
/// `max_g ‖(Lᵀ g)_g‖₂/d_g` for the latent group lasso, where `g ∈ ∂f(0)` (for the absolute
/// loss at `y_j = 0`, `g_j = 0`, which makes the value an upper bound there). For
/// [`PenaltyForm::Lagrangian`] the graph model's value `‖Lᵀ g‖_∞` is an upper bound: that
/// norm is at least `‖x‖₁`, so `x̂ = 0` from there on, possibly earlier (spec §1.3 item 4).
///
/// # Arguments
/// * `op`, `y`, `loss` – the data term.
/// * `model` – the penalty.
///
/// # Returns
/// `λ_max ≥ 0`.
///
/// # Errors
/// [`RecoveryError::Input`] (a length, a bad `α`), [`RecoveryError::GraphSizeMismatch`],
/// [`RecoveryError::InvalidWeight`], the target checks of the loss.
///
/// # Complexity
/// One product with `Lᵀ`, plus O(N + M).
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, Identity, Loss, Model, lambda_max};
/// assert_eq!(lambda_max(&Identity(2), &[3.0, -4.0], Loss::Squared, Model::Lasso)?, 4.0);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub fn lambda_max<Op: LinearOperator + ?Sized>(
    op: &Op,
    y: &[f64],
    loss: Loss,
    model: Model<'_>,
) -> Result<f64> {
    check_data(op, y, loss)?;
    let fit = Fit::from(loss);
    let g: Vec<f64> = y.iter().map(|&v| fit.grad_at_zero(v)).collect();
    let mut a = vec![0.0; op.n_cols()];
    op.apply_adjoint_into(&g, &mut a, graphsparse_base::Parallel::Auto)?;
    let inf = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    match model {
        Model::Lasso => Ok(inf),
        Model::Graph { graph, alpha } => {
            graphsparse_base::check_nonnegative("alpha", alpha)?;
            check_graph_size(graph.n_vertices(), op.n_cols())?;
            check_positive_weights(graph)?;
            if alpha > 0.0 {
                return Ok(inf);
            }
            let mut sq = vec![0.0; graph.n_components()];
            for (&c, v) in graph.components().iter().zip(&a) {
                sq[c as usize] += v * v;
            }
            Ok(sq
                .iter()
                .zip(graph.component_sizes())
                .map(|(s, &size)| (s / f64::from(size)).sqrt())
                .fold(0.0, f64::max))
        }
        Model::LatentGroup(groups) => {
            check_graph_size(groups.n_nodes(), op.n_cols())?;
            let off = groups.offsets();
            let members = groups.members();
            Ok(groups
                .weights()
                .iter()
                .enumerate()
                .map(|(k, w)| {
                    let s: f64 = members[off[k]..off[k + 1]]
                        .iter()
                        .map(|&v| a[v as usize].powi(2))
                        .sum();
                    s.sqrt() / w
                })
                .fold(0.0, f64::max))
        }
    }
}

/// `Ψ_α(x)` with the optimal `σ` (paper eq. 5), from an inner solve certified by its gap.
#[derive(Debug, Clone, PartialEq)]
pub struct PenaltyValue {
    /// `Ψ_α(x)` (an upper bound within `gap` of the exact value when not closed form).
    pub value: f64,
    /// A feasible `σ` attaining `value` (`‖W D σ‖₁ ≤ α`).
    pub sigma: Vec<f64>,
    /// Relative gap of the inner solve (0 for the closed forms).
    pub gap: f64,
    /// Iterations of the inner solve (0 for the closed forms).
    pub n_iter: usize,
    /// Whether the gap reached the tolerance.
    pub converged: bool,
}

/// Evaluates the penalty `Ψ_α(x) = min_σ Σ φ(x_n, σ_n)` s.t. `‖W D σ‖₁ ≤ α`.
///
/// Closed forms where they exist (spec P3–P5): an edgeless graph or `‖W D |x|‖₁ ≤ α` give
/// `‖x‖₁` with `σ = |x|`; `α = 0` gives `Σ_c √|c| ‖x_c‖₂` with `σ` the per-component RMS.
/// Otherwise the solver runs on the exact-fit problem (`L = I`, `f = ι{u = x}`) and the value
/// is the objective at a feasible `σ`, within the relative gap of the optimum.
///
/// # Arguments
/// * `graph`, `x`, `alpha` – the graph, the point and the budget.
/// * `tol`, `max_iter` – of the inner solve.
///
/// # Returns
/// The [`PenaltyValue`].
///
/// # Errors
/// [`RecoveryError::Input`] for a length, a non-finite entry, `α`, `tol` or `max_iter`;
/// [`RecoveryError::InvalidWeight`] for a weight that is not `> 0`.
///
/// # Complexity
/// O(N + m) for the closed forms; O(N + m) per inner iteration otherwise.
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, WeightedGraph, penalty};
/// let g = WeightedGraph::new(4, &[[0, 1], [1, 2], [2, 3]], None)?;
/// let x = [1.0, -2.0, 2.0, 0.0];
/// // α = 0 on a connected graph: √N ‖x‖₂ = 2·3
/// assert!((penalty(&g, &x, 0.0, 1e-9, 10_000)?.value - 6.0).abs() < 1e-12);
/// // α ≥ ‖D|x|‖₁ = 1 + 0 + 2: ℓ1
/// assert_eq!(penalty(&g, &x, 3.0, 1e-9, 10_000)?.value, 5.0);
/// let mid = penalty(&g, &x, 1.5, 1e-10, 100_000)?;
/// assert!(mid.converged && mid.value > 5.0 && mid.value < 6.0);
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
pub fn penalty(
    graph: &WeightedGraph,
    x: &[f64],
    alpha: f64,
    tol: f64,
    max_iter: usize,
) -> Result<PenaltyValue> {
    check_len("x", x.len(), graph.n_vertices())?;
    graphsparse_base::check_finite("x", x)?;
    graphsparse_base::check_nonnegative("alpha", alpha)?;
    check_positive_weights(graph)?;
    let diff = GraphDifference::new(graph);
    let abs: Vec<f64> = x.iter().map(|v| v.abs()).collect();
    let l1: f64 = abs.iter().sum();
    let closed = |value: f64, sigma: Vec<f64>| PenaltyValue {
        value,
        sigma,
        gap: 0.0,
        n_iter: 0,
        converged: true,
    };
    if graph.n_edges() == 0 || diff.weighted_total_variation(&abs)? <= alpha {
        return Ok(closed(l1, abs));
    }
    if alpha == 0.0 {
        let mut sq = vec![0.0; graph.n_components()];
        for (&c, v) in graph.components().iter().zip(x) {
            sq[c as usize] += v * v;
        }
        let value = sq
            .iter()
            .zip(graph.component_sizes())
            .map(|(s, &size)| (f64::from(size) * s).sqrt())
            .sum();
        let rms: Vec<f64> = sq
            .iter()
            .zip(graph.component_sizes())
            .map(|(s, &size)| (s / f64::from(size)).sqrt())
            .collect();
        let sigma = graph
            .components()
            .iter()
            .map(|&c| rms[c as usize])
            .collect();
        return Ok(closed(value, sigma));
    }
    let params = crate::params::RecoveryParams::new(1.0, alpha)
        .tol(tol)
        .max_iter(max_iter)
        .history(false)
        .check()?;
    let n = graph.n_vertices();
    let r = params.dispatch(
        &crate::operator::Identity(n),
        x,
        graph,
        Fit::Exact,
        None,
        &RunControl::new(),
    )?;
    // the value at the feasible σ of the certificate
    let tv = diff.weighted_total_variation(&r.sigma)?;
    let theta = if tv > alpha { alpha / tv } else { 1.0 };
    let mut means = vec![0.0; graph.n_components()];
    for (&c, &s) in graph.components().iter().zip(&r.sigma) {
        means[c as usize] += s;
    }
    for (m, &size) in means.iter_mut().zip(graph.component_sizes()) {
        *m /= f64::from(size);
    }
    let sigma: Vec<f64> = r
        .sigma
        .iter()
        .zip(graph.components())
        .map(|(&s, &c)| theta * s + (1.0 - theta) * means[c as usize])
        .collect();
    Ok(PenaltyValue {
        value: r.objective,
        sigma,
        gap: r.gap,
        n_iter: r.n_iter,
        converged: r.converged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operator::Identity;
    use crate::params::RecoveryParams;

    #[test]
    fn the_budget_covers_the_whole_path() {
        let g = WeightedGraph::new(4, &[[0, 1], [1, 2], [2, 3]], None).unwrap();
        let y = [1.0, 2.0, -0.5, 0.3];
        let lams = [1.0, 0.5, 0.25, 0.125, 0.0625];
        let path = |max_nodes| {
            RecoveryParams::new(1.0, 0.5)
                .tol(1e-14)
                .budget(Budget::new().max_nodes(max_nodes))
                .check()
                .unwrap()
                .solve_path(&Identity(4), &y, &g, &lams, &RunControl::new())
                .unwrap()
        };
        let free = path(None);
        let total: usize = free.iter().map(|r| r.n_iter).sum();
        assert_eq!(free.len(), lams.len());
        assert!(free.iter().all(|r| r.truncation.is_none()) && total > 60);
        // 60 iterations for the path: it stops in the solve that uses the last of them
        let cut = path(Some(60));
        assert_eq!(cut.iter().map(|r| r.n_iter).sum::<usize>(), 60);
        assert_eq!(
            cut.last().unwrap().truncation,
            Some(graphsparse_base::Truncation::MaxNodes)
        );
        assert!(cut[..cut.len() - 1].iter().all(|r| r.truncation.is_none()));
    }
}
