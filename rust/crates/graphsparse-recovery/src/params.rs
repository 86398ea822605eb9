//! Parameters of the convex solvers (the linfa pattern: builder → `check()` → valid params).

use graphsparse_base::Parallel;
use graphsparse_base::{Budget, Truncation};

use graphsparse_base::Check;
use graphsparse_base::{check_at_least_one, check_nonnegative, check_positive};

use crate::error::{RecoveryError, Result};
use crate::loss::Loss;

/// The default number of secant pairs of [`Solver::Anderson`] (the one [`Solver::Auto`] uses).
pub const ANDERSON_MEMORY: usize = 10;

/// The primal–dual method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Solver {
    /// Chambolle–Pock PDHG on `min_z G(z) + F(K z)` with `K = blockdiag(L, W D)`, one dual
    /// step per block, optionally with the residual-balancing adaptive steps of Goldstein,
    /// Li & Yuan (spec §3.3). The default, with `adaptive: true`.
    ///
    /// This and [`Solver::Anderson`] copy a dense `L` of at most 2²³ entries column-major
    /// ([`crate::LinearOperator::dense_row_major`]): the primal iterate has exact zeros, and
    /// its product with `L` then reads the columns of its support only.
    Pdhg {
        /// Rebalance the primal and dual steps from the residuals (keeping their products).
        adaptive: bool,
    },
    /// The paper's Algorithm 1 (a linearised augmented Lagrangian on the lifted problem;
    /// equivalently Chambolle–Pock with primal step `γ` and dual steps `μᵢ²/γ`), graph model
    /// only.
    KurodaKitahara {
        /// The step `γ`; `None` means `1/‖L‖` (spec §3.2).
        gamma: Option<f64>,
    },
    /// Fixed-step PDHG accelerated by a safeguarded type-II Anderson (multisecant
    /// quasi-Newton) step on its fixed-point residual, graph model only (module
    /// `anderson`): the same certificate, fewer products with `L` on small problems, and
    /// `memory + 1` copies of the iterate kept. The primal step is `0.3·step_ratio/‖L‖`.
    Anderson {
        /// Secant pairs kept (`0`: the plain fixed-step map; default
        /// [`crate::ANDERSON_MEMORY`]).
        memory: usize,
    },
    /// A semismooth Newton augmented Lagrangian method (Li, Sun & Toh's SSNAL) on the dual,
    /// graph model with the squared loss only (module `ssnal`): Newton steps whose systems
    /// involve `L` on the columns where the latent `σ` is positive, solved by conjugate
    /// gradients; the same certificate, checked after every Newton step (`n_iter` counts
    /// them). On §4's instance and the sizes around it (`N` = 100 to 1000, `tol` = 1e-5 to
    /// 1e-8) it did 13–30 times the operator work of [`Solver::Anderson`] (module `ssnal`),
    /// so [`Solver::Auto`] never picks it. On some inputs its Newton iteration breaks down
    /// (the dual runs off where the Hessian of its ℓ1-ball block is singular); the solve is
    /// then finished by [`Solver::Anderson`] from the start and [`Recovery::solver`] says so.
    Ssnal,
    /// Chosen by size at solve time ([`Solver::resolve`]): [`Solver::Anderson`] for the graph
    /// model when its extra work per iteration, `memory·(2N + J + m)`, is at most one
    /// product with `L` (a small, dense `L`), adaptive [`Solver::Pdhg`] otherwise (a large
    /// sparse `L`, the lasso, the latent group lasso). A solve reports the method it used in
    /// [`Recovery::solver`].
    Auto,
}

impl Solver {
    /// The method [`Solver::Auto`] stands for on the graph model with an `n_rows × n_cols`
    /// operator of `cost` multiply-adds per product and `n_edges` edges; any other value is
    /// returned as is.
    ///
    /// # Example
    /// ```
    /// use graphsparse_recovery::Solver;
    /// // the paper's N = 500, J = 350 dense design on a 3-regular graph
    /// assert_eq!(Solver::Auto.resolve(350, 500, 350 * 500, 750), Solver::Anderson { memory: 10 });
    /// // a sparse L with 10 entries per row
    /// assert_eq!(Solver::Auto.resolve(14_000, 20_000, 140_000, 30_000), Solver::Pdhg { adaptive: true });
    /// ```
    pub fn resolve(self, n_rows: usize, n_cols: usize, cost: u64, n_edges: usize) -> Solver {
        match self {
            Solver::Auto => {
                let memory = ANDERSON_MEMORY;
                let dim = 2 * n_cols as u64 + n_rows as u64 + n_edges as u64;
                if (memory as u64).saturating_mul(dim) <= cost {
                    Solver::Anderson { memory }
                } else {
                    Solver::Pdhg { adaptive: true }
                }
            }
            other => other,
        }
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::Pdhg { adaptive: true }
    }
}

/// How the graph term of model (6) enters: the paper's budget, or a Lagrangian weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PenaltyForm {
    /// `Ψ_α(x) = min_σ Σ φ(x_n, σ_n)` subject to `‖W D σ‖₁ ≤ α` (paper eq. 5): `alpha` is
    /// the budget, in units of `|x|` (not a norm; spec P6).
    #[default]
    Budget,
    /// `Ψ^pen_β(x) = min_σ Σ φ(x_n, σ_n) + β ‖W D σ‖₁` (spec §1.3 item 4): `alpha` is the
    /// weight `β`. Positively homogeneous, hence a norm, and `β` is scale-free; for every `β`
    /// the solution is that of the budget form with `α = ‖W D σ̂‖₁`.
    Lagrangian,
}

/// When a solve counts as converged (tested every `check_every` iterations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StopRule {
    /// Relative duality gap `(P − D)/max(|P|, |D|) ≤ tol`, with `P` the objective at a
    /// feasible primal point and `D` the dual objective at a feasible dual point: a
    /// certificate that the objective is within `tol` (relative) of the optimum.
    #[default]
    Gap,
    /// Primal and dual residuals of the optimality conditions:
    /// `‖p‖ ≤ tol·(1 + ‖Kᵀv‖)` and `‖d‖ ≤ tol·(1 + ‖K z‖)`.
    Residuals,
    /// Both of the above.
    GapAndResiduals,
}

/// Settings of the convex solvers, unchecked (see [`Check::check`]).
///
/// The same settings drive the graph model ([`RecoveryValidParams::solve`]), the lasso
/// ([`RecoveryValidParams::solve_lasso`]) and the latent group lasso
/// ([`RecoveryValidParams::solve_latent_group`]); `alpha` concerns the graph model only.
///
/// # Example
/// ```
/// use graphsparse_recovery::{Check, Loss, RecoveryParams};
/// let p = RecoveryParams::new(0.5, 100.0).loss(Loss::Absolute).tol(1e-8).check()?;
/// assert_eq!(p.lam(), 0.5);
/// assert!(RecoveryParams::new(0.0, 1.0).check().is_err()); // λ must be > 0
/// # Ok::<(), graphsparse_recovery::RecoveryError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryParams {
    lam: f64,
    alpha: f64,
    form: PenaltyForm,
    loss: Loss,
    solver: Solver,
    stop: StopRule,
    tol: f64,
    max_iter: usize,
    check_every: usize,
    op_norm: Option<f64>,
    diff_norm: Option<f64>,
    step_ratio: f64,
    norm_iter: usize,
    budget: Budget,
    parallel: Parallel,
    history: bool,
}

/// Checked settings: every range holds. Built only by [`RecoveryParams`]' [`Check::check`].
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryValidParams(pub(crate) RecoveryParams);

impl RecoveryParams {
    /// Settings for `λ = lam` and `α = alpha`, with the defaults: squared loss, adaptive
    /// PDHG, gap stop at `tol = 1e-6`, `max_iter = 20 000`, a check every 10 iterations,
    /// norms estimated, no budget, automatic parallelism, history recorded.
    pub fn new(lam: f64, alpha: f64) -> Self {
        Self {
            lam,
            alpha,
            form: PenaltyForm::Budget,
            loss: Loss::Squared,
            solver: Solver::default(),
            stop: StopRule::Gap,
            tol: 1e-6,
            max_iter: 20_000,
            check_every: 10,
            op_norm: None,
            diff_norm: None,
            step_ratio: 1.0,
            norm_iter: 300,
            budget: Budget::UNLIMITED,
            parallel: Parallel::Auto,
            history: true,
        }
    }

    graphsparse_base::setters! {
        /// The regularisation weight `λ > 0`.
        lam: f64 => lam,
        /// The budget `α ≥ 0` on `‖W D σ‖₁` (graph model), or the weight `β ≥ 0` of
        /// [`PenaltyForm::Lagrangian`].
        alpha: f64 => alpha,
        /// Whether `alpha` is the budget `α` of eq. (5) (default) or the Lagrangian weight `β`.
        penalty_form: PenaltyForm => form,
        /// The data-fit term.
        loss: Loss => loss,
        /// The method.
        solver: Solver => solver,
        /// The stopping rule.
        stop: StopRule => stop,
        /// Relative tolerance of the stopping rule (`> 0`).
        tol: f64 => tol,
        /// Most iterations (`≥ 1`).
        max_iter: usize => max_iter,
        /// Iterations between two convergence checks (`≥ 1`); each check costs O(N + J + m).
        check_every: usize => check_every,
        /// `‖L‖` if known (skips the estimate); must not be below the true norm.
        op_norm: Option<f64> => op_norm,
        /// `‖W D‖` if known (skips the estimate); must not be below the true norm.
        diff_norm: Option<f64> => diff_norm,
        /// Initial primal step in units of `1/‖L‖` (PDHG: `τ₀ = ratio/‖L‖`; Algorithm 1 with
        /// `gamma = None`: `γ = ratio/‖L‖`). Default 1.
        step_ratio: f64 => step_ratio,
        /// Most Lanczos steps of the norm estimates (`≥ 1`, default 300).
        norm_iter: usize => norm_iter,
        /// Time budget and cancellation (the node budget counts iterations).
        budget: Budget => budget,
        /// When to use the caller's rayon pool (the result never depends on it).
        parallel: Parallel => parallel,
        /// Whether to record one [`HistoryEntry`] per check.
        history: bool => history,
    }
}

impl Check for RecoveryParams {
    type Checked = RecoveryValidParams;
    type Error = RecoveryError;

    /// Validates every setting.
    ///
    /// # Errors
    /// [`RecoveryError::Input`] unless `λ` is finite and `> 0`, `α` finite and `≥ 0`, `tol`
    /// finite and `> 0`, `max_iter`, `check_every`, `norm_iter ≥ 1`, the norms (when given)
    /// finite and `> 0`, `step_ratio` and `γ` (when given) finite and `> 0`.
    fn check(self) -> Result<RecoveryValidParams> {
        check_positive("lambda", self.lam)?;
        check_nonnegative("alpha", self.alpha)?;
        check_positive("tol", self.tol)?;
        check_at_least_one("max_iter", self.max_iter)?;
        check_at_least_one("check_every", self.check_every)?;
        check_at_least_one("norm_iter", self.norm_iter)?;
        if let Some(n) = self.op_norm {
            check_positive("op_norm", n)?;
        }
        if let Some(n) = self.diff_norm {
            check_positive("diff_norm", n)?;
        }
        check_positive("step_ratio", self.step_ratio)?;
        if let Solver::KurodaKitahara { gamma: Some(g) } = self.solver {
            check_positive("gamma", g)?;
        }
        Ok(RecoveryValidParams(self))
    }
}

impl RecoveryValidParams {
    /// `λ`.
    pub fn lam(&self) -> f64 {
        self.0.lam
    }
    /// `α`.
    pub fn alpha(&self) -> f64 {
        self.0.alpha
    }
    /// The form of the graph term.
    pub fn penalty_form(&self) -> PenaltyForm {
        self.0.form
    }
    /// The loss.
    pub fn loss(&self) -> Loss {
        self.0.loss
    }
    /// The method.
    pub fn solver(&self) -> Solver {
        self.0.solver
    }
    /// The tolerance.
    pub fn tol(&self) -> f64 {
        self.0.tol
    }
    /// Most iterations.
    pub fn max_iter(&self) -> usize {
        self.0.max_iter
    }
    /// The settings as a builder again (to change one and re-check).
    pub fn to_params(&self) -> RecoveryParams {
        self.0.clone()
    }
}

impl RecoveryValidParams {
    pub(crate) fn stop(&self) -> StopRule {
        self.0.stop
    }
    pub(crate) fn check_every(&self) -> usize {
        self.0.check_every
    }
    pub(crate) fn op_norm(&self) -> Option<f64> {
        self.0.op_norm
    }
    pub(crate) fn diff_norm(&self) -> Option<f64> {
        self.0.diff_norm
    }
    pub(crate) fn step_ratio(&self) -> f64 {
        self.0.step_ratio
    }
    pub(crate) fn norm_iter(&self) -> usize {
        self.0.norm_iter
    }
    pub(crate) fn budget(&self) -> Budget {
        self.0.budget
    }
    pub(crate) fn parallel(&self) -> Parallel {
        self.0.parallel
    }
    pub(crate) fn record_history(&self) -> bool {
        self.0.history
    }
}

/// One convergence check of a solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HistoryEntry {
    /// Iterations done at this check.
    pub iteration: usize,
    /// Objective at the feasible primal point.
    pub primal: f64,
    /// Dual objective at the feasible dual point.
    pub dual: f64,
    /// Relative duality gap `(P − D)/max(|P|, |D|)`.
    pub gap: f64,
    /// Norm of the primal residual.
    pub primal_residual: f64,
    /// Norm of the dual residual.
    pub dual_residual: f64,
    /// `max(0, ‖W D σ‖₁ − α)` of the iterate (graph model; 0 otherwise).
    pub infeasibility: f64,
}

/// How often each operator was applied during a solve (to check the linear cost per
/// iteration without timing anything).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OpCounts {
    /// Products `L x` (for the latent group lasso, `L P v`).
    pub forward: u64,
    /// Products `Lᵀ v`.
    pub adjoint: u64,
    /// Products `W D σ`.
    pub diff: u64,
    /// Products `Dᵀ W v`.
    pub diff_adjoint: u64,
    /// Scalar proxes of the penalty (`N` per primal step; latent coordinates for the LGL).
    pub prox: u64,
    /// Projections onto the `ℓ1` ball of radius `α` (length `m` each).
    pub ball_projections: u64,
    /// Total multiply-adds of all the operator products (`Σ cost`).
    pub work: u64,
}

/// The full iterate and step state of a solve, to warm-start the next one.
///
/// Empty vectors mean "zero" (and default steps for non-finite or non-positive step values),
/// so `WarmStart { x, ..Default::default() }` starts from a primal guess alone.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WarmStart {
    /// Primal variable (`x`, or the latent `v` for the latent group lasso).
    pub x: Vec<f64>,
    /// Latent scales `σ` (graph model).
    pub sigma: Vec<f64>,
    /// Dual variable of the data block (PDHG), or the multiplier `r₁` (Algorithm 1).
    pub dual_data: Vec<f64>,
    /// Dual variable of the graph block (PDHG), or `r₂` (Algorithm 1).
    pub dual_graph: Vec<f64>,
    /// Algorithm 1's `u` (`≈ L x`).
    pub aux_data: Vec<f64>,
    /// Algorithm 1's `η` (`≈ W D σ`).
    pub aux_graph: Vec<f64>,
    /// Primal step `τ` (PDHG) at the end of the solve.
    pub tau: f64,
    /// The adaptive-step decay `a` at the end of the solve. Keep it only to resume the same
    /// problem (after a budget stop); set it to `0` (the initial schedule) when the problem
    /// changes, as [`RecoveryValidParams::solve_path`] does: a decayed `a` freezes the step
    /// balance, and on §4's λ path it made warm starts hit `max_iter` where cold starts took
    /// under 4,000 iterations.
    pub adapt: f64,
}

/// The result of a solve.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovery {
    /// The estimate `x̂` (exact zeros off the support).
    pub x: Vec<f64>,
    /// The latent scales `σ` (graph model; empty otherwise).
    pub sigma: Vec<f64>,
    /// The latent group copies `v` with `x = P v` (latent group lasso; empty otherwise).
    pub latent: Vec<f64>,
    /// Iterations made.
    pub n_iter: usize,
    /// Whether the stopping rule held at the last check.
    pub converged: bool,
    /// Objective `f(L x) + λ·penalty(x)` at the last check (at the feasible primal point).
    pub objective: f64,
    /// Dual objective at the last check.
    pub dual_objective: f64,
    /// Relative duality gap at the last check.
    pub gap: f64,
    /// One entry per check (when recorded).
    pub history: Vec<HistoryEntry>,
    /// Operator applications made (norm estimates included).
    pub counts: OpCounts,
    /// Why the solve stopped early (time budget, cancellation, iteration budget), if it did.
    pub truncation: Option<Truncation>,
    /// `‖L‖` used for the steps (after the safety factor).
    pub op_norm: f64,
    /// `‖W D‖` used for the steps.
    pub diff_norm: f64,
    /// State to warm-start the next solve.
    pub state: WarmStart,
    /// The method that ran ([`Solver::Auto`] resolved).
    pub solver: Solver,
}
