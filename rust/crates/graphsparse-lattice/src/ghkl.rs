//! gHKL / gHKL-MT on the conjunction lattice: parameters, the active-set method (Algorithm 3)
//! with the sufficient condition (15), the duality-gap certificate, the fitted rule ensemble
//! and a warm-started path over `C`.

use std::time::Duration;

use graphsparse_base::{
    Budget, Check, Loss, Meter, Parallel, RunControl, Truncation, check_finite, check_len,
    check_positive, check_range,
};
use rustc_hash::FxHashMap;

use crate::bits;
use crate::bound::Tightening;
use crate::dag::Dag;
use crate::error::{LatticeError, Result, bad_input, bad_param};
use crate::kernel::{CacheStats, Candidate, KernelCache, Scoring};
use crate::props::PropositionMatrix;
use crate::solver::{
    Exponents, Problem, Restricted, Settings, State, StepNorm, TaskCoupling, Work, beta_into,
    effective_weights, fit_bias, gradient_into, log_zeta_into, loss_dual, node_m, solve_inner,
    solve_restricted,
};

/// Default byte budget of the kernel cache (64 MiB).
pub const DEFAULT_KERNEL_CACHE_BYTES: usize = 64 << 20;

/// Unchecked gHKL parameters (a builder); [`Check::check`] validates them.
///
/// Defaults follow the paper and the spec's §9: `ρ = 1.5`, `C = 1`, `a = 2` (`d_v =
/// 2^{|S_v|}`), hinge loss, `B = I`, smoothing `ε = 10⁻³` over `|W|`, active-set tolerance
/// `ε_tol = 10⁻³ max(1, |g|)`, mirror descent `10⁻⁴` relative change / 300 / 15 iterations,
/// inner MKL `10⁻⁵` relative gap / 200 rounds, SMO tolerance `10⁻⁵`, all violators added,
/// rule threshold `τ = 10⁻³`, a 64 MiB kernel cache, no node or time budget, serial
/// ([`Parallel::Serial`]).
///
/// # Example
/// ```
/// use std::time::Duration;
/// use graphsparse_base::Budget;
/// use graphsparse_lattice::{Check, GhklParams, Loss};
/// let params = GhklParams::new()
///     .rho(1.1)
///     .c(10.0)
///     .loss(Loss::Squared)
///     .budget(Budget::new().max_nodes(Some(500)).time_limit(Some(Duration::from_secs(5))))
///     .check()?;
/// assert_eq!((params.rho(), params.c()), (1.1, 10.0));
/// assert!(GhklParams::new().rho(2.5).check().is_err());
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GhklParams {
    rho: f64,
    c: f64,
    a: f64,
    loss: Loss,
    coupling: TaskCoupling,
    eps_sm: f64,
    tol: f64,
    md_tol: f64,
    md_max_iter: usize,
    md_min_iter: usize,
    step_norm: StepNorm,
    mkl_tol: f64,
    mkl_max_iter: usize,
    svm_tol: f64,
    max_add: Option<usize>,
    rule_threshold: f64,
    kernel_cache_bytes: usize,
    budget: Budget,
    parallel: Parallel,
}

/// Validated gHKL parameters, from [`Check::check`] on [`GhklParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct GhklValidParams(GhklParams);

impl Default for GhklParams {
    fn default() -> Self {
        Self::new()
    }
}

impl GhklParams {
    /// The defaults.
    pub const fn new() -> Self {
        Self {
            rho: 1.5,
            c: 1.0,
            a: 2.0,
            loss: Loss::Hinge,
            coupling: TaskCoupling::Independent,
            eps_sm: 1e-3,
            tol: 1e-3,
            md_tol: 1e-4,
            md_max_iter: 300,
            md_min_iter: 15,
            step_norm: StepNorm::Max,
            mkl_tol: 1e-5,
            mkl_max_iter: 200,
            svm_tol: 1e-4,
            max_add: None,
            rule_threshold: 1e-3,
            kernel_cache_bytes: DEFAULT_KERNEL_CACHE_BYTES,
            budget: Budget::UNLIMITED,
            parallel: Parallel::Serial,
        }
    }

    graphsparse_base::setters! {
        /// `ρ ∈ (1, 2]` of the ℓ1/ℓρ regularizer (`2`: HKL; below 1.05 the exponent
        /// `ρ̄ = ρ/(2(ρ−1))` grows fast and solves get slow).
        rho: f64 => rho,
        /// The loss weight `C > 0`.
        c: f64 => c,
        /// `a > 1` in `d_v = a^{|S_v|}`: larger values penalise long rules more.
        a: f64 => a,
        /// The loss: [`Loss::Hinge`] for classification (the default), [`Loss::Squared`] for
        /// regression; the others of the vocabulary are refused by the check.
        loss: Loss => loss,
        /// The task kernel `B` for several tasks.
        coupling: TaskCoupling => coupling,
        /// Smoothing `ε ∈ [0, 1)` of `η̃ = (1−ε)η + ε/|W|` (§4.1).
        eps_sm: f64 => eps_sm,
        /// Relative active-set tolerance: `ε_tol = tol · max(1, |g|)` in condition (15).
        tol: f64 => tol,
        /// Mirror descent stops when `g` changes by at most `md_tol · max(1, |g|)`.
        md_tol: f64 => md_tol,
        /// Most mirror-descent iterations per restricted solve (≥ 1).
        md_max_iter: usize => md_max_iter,
        /// Least mirror-descent iterations before the change test applies (default 15, not
        /// the spec's 5: on TIC-TAC-TOE at 10 % training, 5 lets the slow early steps pass
        /// the change test, so condition (15) is checked at a poor `η`; the active set then
        /// takes twice the rounds and the certified gap ends at 1–2 % instead of ≈ 10⁻³).
        md_min_iter: usize => md_min_iter,
        /// Norm of the mirror-descent step size.
        step_norm: StepNorm => step_norm,
        /// Relative duality gap at which the inner MKL alternation stops.
        mkl_tol: f64 => mkl_tol,
        /// Most rounds of the inner MKL alternation (≥ 1).
        mkl_max_iter: usize => mkl_max_iter,
        /// KKT tolerance of the SMO sub-solver (default 1e-4, not the spec's 1e-5: on
        /// TIC-TAC-TOE at C = 1000 the stricter value doubles the fit time for the same
        /// certified gap). When the final certificate falls short of `tol`, the active set is
        /// solved again with this, `md_tol` and `mkl_tol` ten times smaller (up to three times).
        svm_tol: f64 => svm_tol,
        /// Most violating nodes added per active-set round (`None`: all, as in the paper).
        max_add: Option<usize> => max_add,
        /// Rules with strength `Q_w ≤ τ · max_v Q_v` are dropped (`τ ∈ [0, 1)`).
        rule_threshold: f64 => rule_threshold,
        /// Byte budget of the kernel cache (0: no cache; every `K_u` is recomputed).
        kernel_cache_bytes: usize => kernel_cache_bytes,
        /// Budgets: `max_nodes` caps the nodes added to the active set (beyond the root),
        /// `time_limit` the wall time of a fit. A fit cut by either is flagged truncated.
        budget: Budget => budget,
        /// Whether the candidate nodes (and independent tasks) may be scored in parallel on the
        /// current rayon pool (default [`Parallel::Serial`]); results do not depend on it.
        parallel: Parallel => parallel,
    }
}

impl Check for GhklParams {
    type Checked = GhklValidParams;
    type Error = LatticeError;

    /// Validates the parameters: the only place that owns their ranges.
    ///
    /// # Returns
    /// The validated parameters that [`fit`], [`fit_path`], [`solve_dag`] and
    /// [`evaluate_dual`] take.
    ///
    /// # Errors
    /// [`LatticeError::Input`] naming the first parameter out of range and its value:
    /// `rho ∉ (1, 2]`, `C`, `mu`, `tol`, `md_tol`, `mkl_tol` or `svm_tol` not finite and
    /// positive, `a ≤ 1` or not finite, `eps_sm ∉ [0, 1)`, `md_max_iter`, `mkl_max_iter` or
    /// `max_add` zero, `rule_threshold ∉ [0, 1)`; [`LatticeError::InvalidParameter`] for a loss
    /// other than hinge and squared, or a `mu` whose inverse overflows.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// use graphsparse_lattice::{Check, GhklParams, Loss};
    /// let err = GhklParams::new().c(-1.0).check().unwrap_err();
    /// assert_eq!(err.to_string(), "C must be finite and > 0, got -1");
    /// let err = GhklParams::new().loss(Loss::Logistic).check().unwrap_err();
    /// assert_eq!(err.to_string(), "loss: gHKL solves the hinge and the squared loss, got logistic");
    /// ```
    fn check(self) -> Result<GhklValidParams> {
        let p = &self;
        let at_least_one = |v: f64| v >= 1.0;
        check_range("rho", p.rho, "in (1, 2]", |v| v > 1.0 && v <= 2.0)?;
        check_positive("C", p.c)?;
        check_range("a", p.a, "finite and > 1", |v| v.is_finite() && v > 1.0)?;
        if !matches!(p.loss, Loss::Hinge | Loss::Squared) {
            return Err(bad_param(
                "loss",
                format!("gHKL solves the hinge and the squared loss, got {}", p.loss),
            ));
        }
        if let TaskCoupling::MeanRegularized { mu } = p.coupling {
            check_positive("mu", mu)?;
            if !(1.0 / mu).is_finite() {
                return Err(bad_param(
                    "mu",
                    format!("1/mu must be finite, got mu = {mu}"),
                ));
            }
        }
        check_range("eps_sm", p.eps_sm, "in [0, 1)", |v| (0.0..1.0).contains(&v))?;
        check_positive("tol", p.tol)?;
        check_positive("md_tol", p.md_tol)?;
        check_positive("mkl_tol", p.mkl_tol)?;
        check_positive("svm_tol", p.svm_tol)?;
        check_range("md_max_iter", p.md_max_iter as f64, ">= 1", at_least_one)?;
        check_range("mkl_max_iter", p.mkl_max_iter as f64, ">= 1", at_least_one)?;
        if let Some(k) = p.max_add {
            check_range("max_add", k as f64, ">= 1 or None", at_least_one)?;
        }
        check_range("rule_threshold", p.rule_threshold, "in [0, 1)", |v| {
            (0.0..1.0).contains(&v)
        })?;
        Ok(GhklValidParams(self))
    }
}

impl GhklValidParams {
    /// The parameters back as a builder.
    pub fn into_params(self) -> GhklParams {
        self.0
    }
    /// `ρ`.
    pub fn rho(&self) -> f64 {
        self.0.rho
    }
    /// `C`.
    pub fn c(&self) -> f64 {
        self.0.c
    }
    /// The loss.
    pub fn loss(&self) -> Loss {
        self.0.loss
    }

    pub(crate) fn settings(&self, cost: f64) -> Settings {
        let p = &self.0;
        Settings {
            ex: Exponents::new(p.rho),
            cost,
            coupling: p.coupling.c(),
            loss: p.loss,
            eps_sm: p.eps_sm,
            tol_gap: p.tol,
            md_tol: p.md_tol,
            md_max_iter: p.md_max_iter,
            md_min_iter: p.md_min_iter,
            md_steps_before: 0,
            step_norm: p.step_norm,
            mkl_tol: p.mkl_tol,
            mkl_max_iter: p.mkl_max_iter,
            svm_tol: p.svm_tol,
            parallel: p.parallel,
        }
    }
}

/// Checks targets `y` (task-major, `tasks · m`) for a loss.
pub(crate) fn check_targets(loss: Loss, y: &[f64], tasks: usize, m: usize) -> Result<()> {
    if tasks == 0 {
        return Err(bad_input("tasks", "must be >= 1, got 0"));
    }
    if m == 0 {
        return Err(bad_input("X", "has no rows"));
    }
    check_len(
        "y",
        y.len(),
        tasks.checked_mul(m).ok_or(crate::LatticeError::TooLarge {
            name: "tasks * m",
            value: tasks as u128 * m as u128,
            reason: "overflows usize",
        })?,
    )?;
    match loss {
        Loss::Hinge => {
            if let Some(i) = y.iter().position(|&v| v != 1.0 && v != -1.0) {
                return Err(bad_input(
                    "y",
                    format!("hinge-loss labels must be -1 or +1, got {} at {i}", y[i]),
                ));
            }
            for t in 0..tasks {
                let s = &y[t * m..(t + 1) * m];
                if !(s.contains(&1.0) && s.contains(&-1.0)) {
                    return Err(bad_input(
                        "y",
                        format!("task {t} has a single class (needs both -1 and +1)"),
                    ));
                }
            }
        }
        Loss::Squared => check_finite("y", y)?,
        other => unreachable!("GhklParams::check refuses the {other} loss"),
    }
    Ok(())
}

/// One rule of a fitted ensemble: a conjunction of propositions with a weight per task.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit};
/// let rows: Vec<[bool; 2]> = (0..8).map(|i| [i & 1 == 1, i & 2 == 2]).collect();
/// let x = PropositionMatrix::from_dense(8, 2, &rows.concat())?;
/// let y: Vec<f64> = rows.iter().map(|r| if r[0] { 1.0 } else { -1.0 }).collect();
/// let model = fit(&GhklParams::new().c(10.0).check()?, &x, &y, 1, &RunControl::new())?;
/// let top = &model.rules[0];
/// // the strongest rule is proposition 0 alone, firing on 4 examples, with a positive weight
/// assert_eq!((top.props.as_slice(), top.support), (&[0u32][..], 4));
/// assert!(top.weights[0] > 0.0 && top.strength == top.weights[0].abs());
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// `S_w`: the proposition indices of the conjunction, increasing.
    pub props: Vec<u32>,
    /// `f_tw`, one per task: the rule adds `f_tw` to task `t`'s score where it fires.
    pub weights: Vec<f64>,
    /// `Q_w = ‖(f_tw)_t‖₂`.
    pub strength: f64,
    /// Number of training examples where the rule fires.
    pub support: usize,
}

/// A fitted gHKL rule ensemble: `F_t(x) = Σ_rules f_tw φ_w(x) − b_t`.
#[derive(Debug, Clone, PartialEq)]
pub struct GhklFit {
    /// The selected rules, strongest first (ties: by proposition list).
    pub rules: Vec<Rule>,
    /// `b_t`, one per task.
    pub bias: Vec<f64>,
    /// Number of tasks `T`.
    pub tasks: usize,
    /// Number of propositions `p` the model was fitted on.
    pub n_props: usize,
    /// `C` of this fit.
    pub c: f64,
    /// Certified duality gap `P − D ≥ 0` of the whole lattice problem (NaN after a
    /// cancellation).
    pub gap: f64,
    /// Primal objective (5)/(6) of the recovered, unthresholded model.
    pub primal: f64,
    /// The dual lower bound `D` (a lower bound of the optimum).
    pub dual: f64,
    /// `Σ_{t,i} ℓ(y_ti, F_t(x_i))`: the training loss of the recovered model (the primal is
    /// `½Ω² + C · loss_sum`).
    pub loss_sum: f64,
    /// Whether condition (15) certified the result (`gap ≤ ε_tol` up to the inner solves).
    pub converged: bool,
    /// Why the fit stopped early, if it did.
    pub truncation: Option<Truncation>,
    /// Active-set rounds made.
    pub n_rounds: usize,
    /// Mirror-descent iterations made (all rounds).
    pub n_md_iter: usize,
    /// SVM / ridge solves made.
    pub n_inner_solves: usize,
    /// SMO iterations made.
    pub n_svm_iter: usize,
    /// Final active-set size `|W|` (with the root).
    pub active_set_size: usize,
    /// Kernel-cache statistics (cumulative over a path).
    pub cache: CacheStats,
    warm: WarmStart,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct WarmStart {
    keys: Vec<Box<[u32]>>,
    state: State,
}

impl GhklFit {
    /// The dual variables `α` (task-major, `T · m`) of the last restricted problem.
    ///
    /// Hinge loss: `0 ≤ α ≤ C` and `y_tᵀ α_t = 0` per task; squared loss: signed, `1ᵀ α_t = 0`.
    /// By weak duality every such `α` gives a lower bound `D(α)` of the optimum (this is how
    /// [`GhklFit::dual`] and the gap are computed), so the values can be checked from outside.
    pub fn dual_coef(&self) -> &[f64] {
        &self.warm.state.alpha
    }

    /// The active set `W` (each node's proposition list; the root is the empty list).
    pub fn active_set(&self) -> impl Iterator<Item = &[u32]> {
        self.warm.keys.iter().map(|k| &k[..])
    }

    /// This fit, certified at a larger `C' ≥ C` without another solve (hinge loss only).
    ///
    /// For the hinge loss the dual bound `D(α)` does not depend on `C` (the box `0 ≤ α ≤ C`
    /// only widens), while the primal of the same model grows by `(C' − C) · loss_sum`. So
    /// the model is a primal-dual pair at `C'` with the exact gap `gap + (C' − C) · loss_sum`;
    /// it is returned when that gap stays within `tol · max(1, primal')`, the tolerance a
    /// fresh fit is held to. Separable data (`loss_sum == 0`) keep the fit for every larger
    /// `C`. The returned fit reports no rounds or iterations of its own.
    fn certified_at(&self, loss: Loss, c: f64, tol: f64) -> Option<GhklFit> {
        let usable = loss == Loss::Hinge
            && self.converged
            && self.truncation.is_none()
            && self.gap.is_finite()
            && c >= self.c;
        if !usable {
            return None;
        }
        let extra = (c - self.c) * self.loss_sum;
        let (primal, gap) = (self.primal + extra, self.gap + extra);
        (gap <= tol * primal.max(1.0)).then(|| GhklFit {
            c,
            primal,
            gap,
            n_rounds: 0,
            n_md_iter: 0,
            n_inner_solves: 0,
            n_svm_iter: 0,
            ..self.clone()
        })
    }

    fn check_x(&self, x: &PropositionMatrix) -> Result<()> {
        Ok(check_len("X propositions", x.n_props(), self.n_props)?)
    }

    /// The scores `F_t(x_i)`, sample-major (`m × T`).
    ///
    /// # Errors
    /// [`LatticeError::Input`](crate::LatticeError::Input) when `x` does
    /// not have the fitted number of propositions.
    ///
    /// # Complexity
    /// O(Σ_rules (|S_w| · m/64 + |c_w| T)).
    pub fn decision_function(&self, x: &PropositionMatrix) -> Result<Vec<f64>> {
        self.check_x(x)?;
        let (m, nt) = (x.n_examples(), self.tasks);
        let mut out = vec![0.0; m * nt];
        for row in out.chunks_mut(nt) {
            for (v, b) in row.iter_mut().zip(&self.bias) {
                *v = -b;
            }
        }
        let mut acc = vec![0u64; x.words_m()];
        let mut ones = Vec::new();
        for r in &self.rules {
            acc.iter_mut().for_each(|w| *w = !0);
            x.cover_bits_into(&r.props, &mut acc);
            ones.clear();
            bits::push_ones(&acc, &mut ones);
            for &i in &ones {
                for t in 0..nt {
                    out[i as usize * nt + t] += r.weights[t];
                }
            }
        }
        Ok(out)
    }

    /// Which rules fire on which examples, as CSR (`indptr` of length `m + 1`, column indices
    /// into [`GhklFit::rules`], increasing within a row).
    ///
    /// # Errors
    /// As [`GhklFit::decision_function`].
    ///
    /// # Complexity
    /// O(Σ_rules |S_w| · m/64 + nnz).
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit};
    /// let rows: Vec<[bool; 2]> = (0..8).map(|i| [i & 1 == 1, i & 2 == 2]).collect();
    /// let x = PropositionMatrix::from_dense(8, 2, &rows.concat())?;
    /// let y: Vec<f64> = rows.iter().map(|r| if r[0] { 1.0 } else { -1.0 }).collect();
    /// let model = fit(&GhklParams::new().c(10.0).check()?, &x, &y, 1, &RunControl::new())?;
    /// let (indptr, rules) = model.activations(&x)?;
    /// assert_eq!(indptr.len(), 9);
    /// // example 1 satisfies proposition 0, so the rule {0} fires on it
    /// let on_1 = &rules[indptr[1]..indptr[2]];
    /// assert!(on_1.iter().any(|&k| model.rules[k as usize].props == [0]));
    /// # Ok::<(), graphsparse_lattice::LatticeError>(())
    /// ```
    pub fn activations(&self, x: &PropositionMatrix) -> Result<(Vec<usize>, Vec<u32>)> {
        self.check_x(x)?;
        let m = x.n_examples();
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); m];
        let mut acc = vec![0u64; x.words_m()];
        let mut ones = Vec::new();
        for (k, r) in self.rules.iter().enumerate() {
            acc.iter_mut().for_each(|w| *w = !0);
            x.cover_bits_into(&r.props, &mut acc);
            ones.clear();
            bits::push_ones(&acc, &mut ones);
            for &i in &ones {
                rows[i as usize].push(k as u32);
            }
        }
        let mut indptr = Vec::with_capacity(m + 1);
        indptr.push(0);
        let mut indices = Vec::new();
        for r in rows {
            indices.extend_from_slice(&r);
            indptr.push(indices.len());
        }
        Ok((indptr, indices))
    }
}

/// Most re-solves of a final active set whose certified gap is above the tolerance (each
/// with ten times tighter mirror-descent, MKL and SVM tolerances; they stop early once one
/// fails to halve the gap).
const REFINEMENTS: usize = 3;

/// A round that adds at least `|W| / GROWTH_DIVISOR` nodes changes the restricted problem
/// much; the next solve then starts a fresh step schedule and stops at `LOOSE_MD_TOL` times
/// `md_tol`: it only has to point at the next candidates. Smaller additions continue the
/// schedule at `md_tol`, and a final `W` is always solved at `md_tol` before it is certified.
const GROWTH_DIVISOR: usize = 100;
const LOOSE_MD_TOL: f64 = 100.0;

/// The active set `W` on the conjunction lattice.
struct Lattice {
    dag: Dag,
    keys: Vec<Box<[u32]>>,
    index: FxHashMap<Box<[u32]>, u32>,
    cover_bits: Vec<u64>,
    /// `levels[j]`: nodes of `W` with `j` propositions.
    levels: Vec<usize>,
    wm: usize,
    log_a: f64,
    /// `sources(W^c)` with a non-empty cover, as of the first `frontier_upto` nodes of `W`.
    frontier: Vec<Candidate>,
    frontier_upto: usize,
}

impl Lattice {
    fn new(x: &PropositionMatrix, a: f64) -> Self {
        let m = x.n_examples();
        let wm = x.words_m();
        let mut lat = Self {
            dag: Dag::empty(m),
            keys: Vec::new(),
            index: FxHashMap::default(),
            cover_bits: Vec::new(),
            levels: Vec::new(),
            wm,
            log_a: a.ln(),
            frontier: Vec::new(),
            frontier_upto: 0,
        };
        let mut all = vec![!0u64; wm];
        x.cover_bits_into(&[], &mut all);
        lat.push(Box::new([]), &all);
        lat
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn push(&mut self, key: Box<[u32]>, cover_bits: &[u64]) {
        let parents: Vec<u32> = (0..key.len())
            .map(|k| {
                let p: Vec<u32> = key
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, &v)| v)
                    .collect();
                *self
                    .index
                    .get(&p[..])
                    .expect("invariant: every parent of an added node is in W")
            })
            .collect();
        let mut cover = Vec::new();
        bits::push_ones(cover_bits, &mut cover);
        let v = self
            .dag
            .push(&cover, &parents, key.len() as f64 * self.log_a);
        self.index.insert(key.clone(), v);
        if self.levels.len() <= key.len() {
            self.levels.resize(key.len() + 1, 0);
        }
        self.levels[key.len()] += 1;
        self.keys.push(key);
        self.cover_bits.extend_from_slice(cover_bits);
    }

    /// Brings `frontier` up to date with `W`: `sources(W^c)` with a non-empty cover. The first
    /// call generates every source once, from its parent without the largest proposition;
    /// later calls drop the sources that joined `W` and add the new sources, each a child of a
    /// node added since, generated from the first such parent. `false` when `meter` stopped it
    /// (the frontier is then left as it was).
    fn update_frontier(&mut self, x: &PropositionMatrix, meter: &Meter) -> bool {
        let (from, n) = (self.frontier_upto, self.len());
        if from == n {
            return true;
        }
        let mut fresh = Vec::new();
        let mut acc = vec![0u64; self.wm];
        let mut probe: Vec<u32> = Vec::new();
        for v in from..n {
            if meter.poll() {
                return false;
            }
            let key = &self.keys[v];
            let bits_v = &self.cover_bits[v * self.wm..(v + 1) * self.wm];
            // on the first call only the canonical parent (largest proposition last) makes
            // a child; afterwards every new node makes its children with any proposition
            let start = if from == 0 {
                key.last().map_or(0, |&l| l + 1)
            } else {
                0
            };
            for c in start..x.n_props() as u32 {
                if key.binary_search(&c).is_ok() {
                    continue;
                }
                let cover = bits::and_into(bits_v, x.prop_bits(c as usize), &mut acc);
                if cover == 0 {
                    continue;
                }
                probe.clear();
                probe.extend_from_slice(key);
                let at = probe.partition_point(|&q| q < c);
                probe.insert(at, c);
                if self.index.contains_key(&probe[..]) {
                    continue;
                }
                // on the first call every node is new: the canonical parent alone decides
                let lo = if from == 0 { v } else { from };
                if !self.parents_in_w(&probe, v, lo) {
                    continue;
                }
                let props: Box<[u32]> = probe.as_slice().into();
                let mut cover_idx = Vec::with_capacity(cover);
                bits::push_ones(&acc, &mut cover_idx);
                fresh.push(Candidate {
                    parent: props[..props.len() - 1].into(),
                    added: props[props.len() - 1],
                    props,
                    cover: cover_idx,
                });
            }
        }
        if from > 0 {
            let index = &self.index;
            self.frontier.retain(|c| !index.contains_key(&c.props));
        }
        self.frontier.extend(fresh);
        self.frontier_upto = n;
        true
    }

    /// Whether every parent of `u` is in `W` and none of them has an index in `lo..v` (`v`,
    /// the parent making `u`, is then the first parent added since `lo`: each new source is
    /// made by exactly one new parent).
    fn parents_in_w(&self, u: &[u32], v: usize, lo: usize) -> bool {
        let mut parent: Vec<u32> = Vec::with_capacity(u.len().saturating_sub(1));
        for skip in 0..u.len() {
            parent.clear();
            parent.extend(
                u.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != skip)
                    .map(|(_, &q)| q),
            );
            match self.index.get(&parent[..]) {
                None => return false,
                Some(&p) if (lo..v).contains(&(p as usize)) => return false,
                Some(_) => {}
            }
        }
        true
    }
}

/// The meters of one fit: one for nodes added to `W`, one for time and cancellation.
struct Meters<'a> {
    nodes: Meter<'a>,
    time: Meter<'a>,
}

impl Meters<'_> {
    fn truncation(&self) -> Option<Truncation> {
        self.time.truncation().or(self.nodes.truncation())
    }
}

/// A fit in progress: the lattice, the warm state and the caches, reused along a path.
struct Fitter<'a> {
    params: &'a GhklValidParams,
    x: &'a PropositionMatrix,
    y: &'a [f64],
    tasks: usize,
    lat: Lattice,
    state: State,
    cache: KernelCache,
    work: Work,
}

impl<'a> Fitter<'a> {
    fn new(
        params: &'a GhklValidParams,
        x: &'a PropositionMatrix,
        y: &'a [f64],
        tasks: usize,
    ) -> Result<Self> {
        let m = x.n_examples();
        check_targets(params.0.loss, y, tasks, m)?;
        let work = Work::new(m, tasks)?;
        Ok(Self {
            params,
            x,
            y,
            tasks,
            lat: Lattice::new(x, params.0.a),
            state: State::new(1, tasks, m),
            cache: KernelCache::new(x.n_props(), params.0.a, params.0.kernel_cache_bytes)?,
            work,
        })
    }

    fn problem(&self) -> Problem<'_> {
        Problem {
            dag: &self.lat.dag,
            y: self.y,
            tasks: self.tasks,
        }
    }

    fn restricted(&mut self, set: &Settings, meter: &Meter) -> Restricted {
        let pb = Problem {
            dag: &self.lat.dag,
            y: self.y,
            tasks: self.tasks,
        };
        solve_restricted(&pb, set, &mut self.state, &mut self.work, Some(meter))
    }

    /// Scores of `sources(W^c)` (`self.lat.frontier`, brought up to date): the paper's `K_u`
    /// from the cache, tightened above `floor`; `None` when `meter` stopped the scoring.
    fn score(&mut self, set: &Settings, floor: f64, meter: &Meter) -> Option<Vec<f64>> {
        if !self.lat.update_frontier(self.x, meter) {
            return None;
        }
        beta_into(set.loss, self.y, &self.state.alpha, &mut self.work.beta);
        let job = Scoring {
            x: self.x,
            cands: &self.lat.frontier,
            beta: &self.work.beta,
            tasks: self.tasks,
            coupling: set.coupling,
            parallel: set.parallel,
            meter: Some(meter),
        };
        let mut s = self.cache.score(&job);
        if meter.is_stopped() {
            return None;
        }
        // the paper's K_u screens; the scores that could matter are tightened (bound.rs),
        // and a score left untightened by a stop is still a valid bound
        let levels = &self.lat.levels;
        Tightening::new(
            self.params.0.a,
            set.ex.rho_bar,
            self.x.n_props(),
            levels,
            levels.len(),
        )
        .tighten(&job, floor, &mut s);
        Some(s)
    }

    /// The meter of the final certificate's scoring: the fit's remaining time plus a grace
    /// of a quarter of its time limit (0.5–30 s), so that a fit cut by time still reports
    /// the gap it reached unless that alone would overrun the limit by much.
    fn grace_meter<'c>(&self, meters: &Meters<'c>) -> Meter<'c> {
        let limit = self.params.0.budget.time_limit;
        let grace = limit.map(|t| {
            let left = t.saturating_sub(meters.time.elapsed());
            left + (t / 4).clamp(Duration::from_millis(500), Duration::from_secs(30))
        });
        Budget::new().time_limit(grace).start(meters.time.control())
    }

    /// Algorithm 3 at cost `c`, warm-started from the current lattice and state.
    fn run(&mut self, cost: f64, meters: &Meters) -> GhklFit {
        let mut set = self.params.settings(cost);
        let mut refinements = 0;
        let mut refined_gap = f64::INFINITY;
        let mut rounds = 0;
        let (mut md, mut inner, mut svm) = (0, 0, 0);
        let mut converged = false;
        let mut last: Restricted;
        let scores: Option<Vec<f64>>;
        // the certificate of a converged W, when the refinement test already computed it
        let mut final_cert: Option<Certificate> = None;
        // the best certified point of the current W: a refinement re-solves W more tightly,
        // but its best mirror-descent iterate (by the dual value) can certify a larger gap
        let mut best_of_w: Option<(usize, Certificate, State)> = None;
        loop {
            rounds += 1;
            meters
                .time
                .control()
                .progress()
                .set_stage(rounds as u64 - 1, 0);
            last = self.restricted(&set, &meters.time);
            md += last.md_iter;
            inner += last.inner_solves;
            svm += last.svm_iter;
            if meters.time.is_stopped() {
                scores = None;
                break;
            }
            let eps_tol = set.tol_gap * last.g.abs().max(1.0);
            let thr = last.r + 2.0 * (eps_tol - last.mkl_gap);
            let Some(s) = self.score(&set, thr.min(last.r), &meters.time) else {
                scores = None;
                break;
            };
            let mut viol: Vec<usize> = (0..s.len()).filter(|&k| s[k] > thr).collect();
            if viol.is_empty() && set.md_tol > self.params.0.md_tol {
                // W is complete but was solved loosely: solve it again at the set tolerance
                set.md_tol = self.params.0.md_tol;
                set.md_steps_before += last.md_iter;
                continue;
            }
            if viol.is_empty() {
                // (15) holds, but the certified gap also carries the restricted solve's own
                // error: when it is above the tolerance, solve W again more tightly, as long
                // as that keeps halving the gap
                let cert = (refinements < REFINEMENTS)
                    .then(|| certificate(&self.problem(), &set, &last, &self.state, Some(&s)));
                let gap = cert.as_ref().map_or(0.0, |c| c.gap);
                if let Some(c) = &cert {
                    let n = self.lat.len();
                    if best_of_w
                        .as_ref()
                        .is_none_or(|(bn, b, _)| *bn != n || c.gap < b.gap)
                    {
                        best_of_w = Some((n, c.clone(), self.state.clone()));
                    }
                }
                if gap > eps_tol && gap < 0.5 * refined_gap {
                    refined_gap = gap;
                    refinements += 1;
                    set.md_tol *= 0.1;
                    set.mkl_tol *= 0.1;
                    set.svm_tol *= 0.1;
                    set.md_steps_before += last.md_iter;
                    continue;
                }
                converged = true;
                scores = Some(s);
                final_cert = cert;
                if let Some((n, best, state)) = best_of_w.take()
                    && n == self.lat.len()
                    && final_cert.as_ref().is_some_and(|c| best.gap < c.gap)
                {
                    final_cert = Some(best);
                    self.state = state;
                }
                break;
            }
            viol.sort_by(|&i, &j| s[j].total_cmp(&s[i]).then(i.cmp(&j)));
            if let Some(k) = self.params.0.max_add {
                viol.truncate(k);
            }
            let mut added = 0;
            let mut bits_u = vec![0u64; self.lat.wm];
            for &k in &viol {
                if !meters.nodes.claim_node() {
                    break;
                }
                let props = self.lat.frontier[k].props.clone();
                bits_u.iter_mut().for_each(|b| *b = !0);
                self.x.cover_bits_into(&props, &mut bits_u);
                self.lat.push(props, &bits_u);
                added += 1;
            }
            self.state.grow(self.lat.len());
            if added * GROWTH_DIVISOR >= self.lat.len() {
                // W changed much: a fresh step schedule, and a loose solve, since the next
                // round's candidates will change W again
                set.md_steps_before = 0;
                set.md_tol = self.params.0.md_tol * LOOSE_MD_TOL;
            } else {
                // a few nodes more: the warm start is close, so the step schedule goes on
                set.md_steps_before += last.md_iter;
                set.md_tol = set.md_tol.min(self.params.0.md_tol);
            }
            if meters.nodes.is_stopped() {
                if added > 0 {
                    set.md_tol = set.md_tol.min(self.params.0.md_tol);
                    last = self.restricted(&set, &meters.time);
                    md += last.md_iter;
                    inner += last.inner_solves;
                    svm += last.svm_iter;
                }
                scores = None;
                break;
            }
        }
        let truncation = meters.truncation();
        let cancelled = truncation == Some(Truncation::Cancelled);
        let scores_now = if cancelled {
            None
        } else {
            match scores {
                Some(s) => Some(s),
                None => {
                    let grace = self.grace_meter(meters);
                    self.score(&set, last.r, &grace)
                }
            }
        };
        let cert = final_cert.unwrap_or_else(|| {
            certificate(
                &self.problem(),
                &set,
                &last,
                &self.state,
                scores_now.as_deref(),
            )
        });
        let rules = self.read_rules(&cert);
        let mut fit = GhklFit {
            rules,
            bias: Vec::new(),
            tasks: self.tasks,
            n_props: self.x.n_props(),
            c: cost,
            gap: cert.gap,
            primal: cert.primal,
            dual: cert.dual,
            loss_sum: cert.loss_sum,
            converged: converged && truncation.is_none(),
            truncation,
            n_rounds: rounds,
            n_md_iter: md,
            n_inner_solves: inner,
            n_svm_iter: svm,
            active_set_size: self.lat.len(),
            cache: self.cache.stats(),
            warm: WarmStart {
                keys: self.lat.keys.clone(),
                state: self.state.clone(),
            },
        };
        fit.bias = self.refit_bias(&set, &fit, &cert.bias);
        if let Some(v) = (cert.gap.is_finite()).then_some(cert.gap) {
            meters.time.control().progress().set_value(v);
        }
        fit
    }

    fn read_rules(&self, cert: &Certificate) -> Vec<Rule> {
        let nt = self.tasks;
        let n = self.lat.len();
        let strength: Vec<f64> = (0..n)
            .map(|w| {
                cert.f[w * nt..(w + 1) * nt]
                    .iter()
                    .map(|v| v * v)
                    .sum::<f64>()
                    .sqrt()
            })
            .collect();
        let smax = strength.iter().skip(1).copied().fold(0.0f64, f64::max);
        let thr = self.params.0.rule_threshold * smax;
        let mut rules: Vec<Rule> = (1..n)
            .filter(|&w| strength[w] > thr && strength[w] > 0.0)
            .map(|w| Rule {
                props: self.lat.keys[w].to_vec(),
                weights: cert.f[w * nt..(w + 1) * nt].to_vec(),
                strength: strength[w],
                support: self.lat.dag.cover(w).len(),
            })
            .collect();
        rules.sort_by(|a, b| {
            b.strength
                .total_cmp(&a.strength)
                .then_with(|| a.props.cmp(&b.props))
        });
        rules
    }

    /// The bias of the thresholded ensemble: optimal for the training loss, closest to the
    /// certificate's.
    fn refit_bias(&mut self, set: &Settings, fit: &GhklFit, reference: &[f64]) -> Vec<f64> {
        let (m, nt) = (self.x.n_examples(), self.tasks);
        let mut f = vec![0.0; nt * m];
        let mut acc = vec![0u64; self.x.words_m()];
        let mut ones = Vec::new();
        for r in &fit.rules {
            acc.iter_mut().for_each(|w| *w = !0);
            self.x.cover_bits_into(&r.props, &mut acc);
            ones.clear();
            bits::push_ones(&acc, &mut ones);
            for &i in &ones {
                for t in 0..nt {
                    f[t * m + i as usize] += r.weights[t];
                }
            }
        }
        let mut b = reference.to_vec();
        let mut order = Vec::new();
        fit_bias(set.loss, self.y, &f, m, &mut b, &mut order);
        b
    }
}

/// The recovered primal point and the certified gap.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Certificate {
    /// `f_tw`, node-major.
    pub f: Vec<f64>,
    pub bias: Vec<f64>,
    pub kappa: Vec<f64>,
    pub primal: f64,
    pub dual: f64,
    pub gap: f64,
    pub loss_sum: f64,
}

/// Primal value of the recovered model and the dual lower bound `D(α) = Σ −Cφ*(−α/C) − ½ Ō`
/// with `Ō ≥ O_V(α)` from a feasible `κ` of program (21): `κ_vw ∝ d_v^ρ η̃_v^{1−ρ}` inside
/// `W` and the sources' `K_u` scores outside (`scores`; `None` skips the bound and leaves the
/// gap NaN).
pub(crate) fn certificate(
    pb: &Problem,
    set: &Settings,
    last: &Restricted,
    st: &State,
    scores: Option<&[f64]>,
) -> Certificate {
    let dag = pb.dag;
    let (n, nt, m) = (dag.len(), pb.tasks, pb.m());
    let ex = set.ex;
    let c = set.coupling;
    let mut kappa = vec![0.0; n];
    effective_weights(ex, &last.log_zeta, &last.mw, &mut kappa);
    let mut f = vec![0.0; n * nt];
    for w in 0..n {
        let p = &last.proj[w * nt..(w + 1) * nt];
        let s: f64 = p.iter().sum();
        for t in 0..nt {
            f[w * nt + t] = kappa[w] * (p[t] + c * s);
        }
    }
    // Ω = Σ_v d_v (Σ_{w ∈ D(v)} Q_w^ρ)^{1/ρ},  Q_w² = fᵀ B⁻¹ f,  B⁻¹ = I − c/(1+cT) 11ᵀ
    let shrink = c / (1.0 + c * nt as f64);
    let q: Vec<f64> = (0..n)
        .map(|w| {
            let fw = &f[w * nt..(w + 1) * nt];
            let sq: f64 = fw.iter().map(|v| v * v).sum();
            let s: f64 = fw.iter().sum();
            (sq - shrink * s * s).max(0.0).sqrt()
        })
        .collect();
    let qmax = q.iter().copied().fold(0.0f64, f64::max);
    let mut omega = 0.0;
    if qmax > 0.0 {
        let mut acc = vec![0.0; n];
        for (w, &qw) in q.iter().enumerate() {
            if qw > 0.0 {
                let t = (qw / qmax).powf(ex.rho);
                for &v in dag.ancestors(w) {
                    acc[v as usize] += t;
                }
            }
        }
        omega = qmax
            * (0..n)
                .map(|v| dag.log_weight(v).exp() * acc[v].powf(1.0 / ex.rho))
                .sum::<f64>();
    }
    let mut fit = vec![0.0; nt * m];
    dag.expand_into(&f, nt, &mut fit);
    let mut bias = st.bias.clone();
    let mut order = Vec::new();
    let lsum = fit_bias(set.loss, pb.y, &fit, m, &mut bias, &mut order);
    let primal = 0.5 * omega * omega + set.cost * lsum;
    let dual = match scores {
        None => f64::NAN,
        Some(s) => {
            let o_w = kappa_program_bound(dag, ex, &last.eta_s, &last.log_zeta, &last.mw);
            let o_out = s.iter().copied().fold(0.0f64, f64::max);
            loss_dual(set.loss, pb.y, &st.alpha, set.cost) - 0.5 * o_w.max(o_out)
        }
    };
    Certificate {
        f,
        bias,
        kappa,
        primal,
        dual,
        loss_sum: lsum,
        gap: if dual.is_nan() {
            f64::NAN
        } else {
            (primal - dual).max(0.0)
        },
    }
}

/// `max_{v ∈ W} d_v^{−2} ‖(κ_vw √M_w)_{w ∈ D(v)}‖²_{2ρ̄}` with `κ_vw = d_v^ρ η̃_v^{1−ρ}
/// ζ_w^{ρ−1}` (feasible for program (21), optimal at the optimal `η`).
pub(crate) fn kappa_program_bound(
    dag: &Dag,
    ex: Exponents,
    eta_s: &[f64],
    log_zeta: &[f64],
    mw: &[f64],
) -> f64 {
    let n = dag.len();
    let rho = ex.rho;
    let rb = ex.rho_bar;
    // l_vw = log(κ_vw² M_w)
    let l = |v: usize, w: usize| -> f64 {
        2.0 * (rho * dag.log_weight(v) + (1.0 - rho) * eta_s[v].ln() + (rho - 1.0) * log_zeta[w])
            + mw[w].ln()
    };
    let mut mx = vec![f64::NEG_INFINITY; n];
    for w in 0..n {
        if mw[w] > 0.0 && log_zeta[w] > f64::NEG_INFINITY {
            for &v in dag.ancestors(w) {
                let v = v as usize;
                mx[v] = mx[v].max(l(v, w));
            }
        }
    }
    let mut sum = vec![0.0; n];
    for w in 0..n {
        if mw[w] > 0.0 && log_zeta[w] > f64::NEG_INFINITY {
            for &v in dag.ancestors(w) {
                let v = v as usize;
                sum[v] += (rb * (l(v, w) - mx[v])).exp();
            }
        }
    }
    (0..n)
        .filter(|&v| mx[v] > f64::NEG_INFINITY)
        .map(|v| (mx[v] + sum[v].ln() / rb - 2.0 * dag.log_weight(v)).exp())
        .fold(0.0, f64::max)
}

fn start_meters<'c>(params: &GhklValidParams, ctl: &'c RunControl) -> Meters<'c> {
    Meters {
        nodes: Budget::new()
            .max_nodes(params.0.budget.max_nodes)
            .start(ctl),
        time: Budget::new()
            .time_limit(params.0.budget.time_limit)
            .start(ctl),
    }
}

/// Fits a gHKL rule ensemble (gHKL-MT for several tasks) on the conjunction lattice of the
/// propositions of `x`.
///
/// Algorithm 3 of the paper: start from `W = {∅}`; solve the restricted problem (14) on `W`
/// by mirror descent (Algorithm 2); add every source of `Wᶜ` that violates condition (15);
/// stop when none does. The result carries a certified duality gap for the **whole**
/// lattice (not just `W`).
///
/// # Arguments
/// * `params` — validated parameters.
/// * `x` — the `m × p` proposition matrix.
/// * `y` — targets, task-major (`tasks · m`): ±1 labels for the hinge loss (each task with
///   both classes; one-vs-rest for multiclass), reals for the squared loss.
/// * `tasks` — number of tasks `T ≥ 1`, sharing `x`.
/// * `ctl` — cancellation and progress; a cancelled fit returns what it had, flagged.
///
/// # Returns
/// The fitted ensemble. A fit cut by the budget or cancelled has `truncation` set and
/// `converged == false`; its gap says how far from optimal it stopped.
///
/// # Errors
/// [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) for bad targets (wrong
/// labels, a single class, non-finite values, no rows);
/// [`LatticeError::Input`](crate::LatticeError::Input) when `y` does not
/// have `tasks · m` entries; [`LatticeError::TooLarge`](crate::LatticeError::TooLarge) when
/// the dense `m × m` effective kernel cannot be allocated.
///
/// # Complexity
/// Per active-set round: `O(log |W|)` mirror-descent steps, each an inner MKL solve of
/// `O(Σ_w |c_w|² + SMO)`; candidate scoring `O(Σ_u |c_u|² · T)` over `sources(Wᶜ)` (about
/// `|W| · p` nodes). Memory: `O(m²)` for the effective kernel plus the kernel cache budget.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit};
/// // y = +1 exactly when propositions 0 and 1 both hold
/// let rows: Vec<[bool; 3]> = (0..16).map(|i| [i & 1 == 1, i & 2 == 2, i & 4 == 4]).collect();
/// let x = PropositionMatrix::from_dense(16, 3, &rows.concat())?;
/// let y: Vec<f64> = rows.iter().map(|r| if r[0] && r[1] { 1.0 } else { -1.0 }).collect();
/// let model = fit(&GhklParams::new().c(10.0).check()?, &x, &y, 1, &RunControl::new())?;
/// let f = model.decision_function(&x)?;
/// assert!(f.iter().zip(&y).all(|(f, y)| f * y > 0.0));
/// assert!(model.converged && model.gap <= 1e-2 * model.primal.max(1.0));
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
///
/// Reference: P. Jawanpuria, J. S. Nath, G. Ramakrishnan, *Generalized hierarchical kernel
/// learning*, JMLR 16 (2015) 617–652, <https://jmlr.org/papers/v16/jawanpuria15a.html>.
pub fn fit(
    params: &GhklValidParams,
    x: &PropositionMatrix,
    y: &[f64],
    tasks: usize,
    ctl: &RunControl,
) -> Result<GhklFit> {
    let mut f = Fitter::new(params, x, y, tasks)?;
    let meters = start_meters(params, ctl);
    Ok(f.run(params.0.c, &meters))
}

/// Fits one model per value of `C`, each warm-started from the previous one (its active set,
/// `η`, `θ` and `α` scaled by the ratio of the `C` values), sharing the kernel cache.
///
/// An increasing grid is fastest (active sets usually grow with `C`). For the hinge loss a
/// converged fit is kept for a larger `C` without another solve when its certified gap there,
/// `gap + (C' − C) · loss_sum`, is still within `tol` (always on separable data); such fits
/// report `n_rounds == 0`. The budget applies to the whole path: once it is used up, the
/// remaining fits are returned truncated.
///
/// # Errors
/// As [`fit`]; [`LatticeError::InvalidParameter`](crate::LatticeError::InvalidParameter)
/// for an empty grid or a value that is not finite and positive.
///
/// # Complexity
/// At most the sum of the separate fits; warm starts make later fits much cheaper.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit_path};
/// let rows: Vec<[bool; 2]> = (0..8).map(|i| [i & 1 == 1, i & 2 == 2]).collect();
/// let x = PropositionMatrix::from_dense(8, 2, &rows.concat())?;
/// let y: Vec<f64> = rows.iter().map(|r| if r[0] { 1.0 } else { -1.0 }).collect();
/// let path = fit_path(&GhklParams::new().check()?, &x, &y, 1, &[0.1, 1.0, 10.0], &RunControl::new())?;
/// assert_eq!(path.len(), 3);
/// assert!(path.iter().all(|f| f.converged));
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
pub fn fit_path(
    params: &GhklValidParams,
    x: &PropositionMatrix,
    y: &[f64],
    tasks: usize,
    cs: &[f64],
    ctl: &RunControl,
) -> Result<Vec<GhklFit>> {
    if cs.is_empty() {
        return Err(bad_param("Cs", "must not be empty"));
    }
    if let Some(c) = cs.iter().find(|c| !(c.is_finite() && **c > 0.0)) {
        return Err(bad_param(
            "Cs",
            format!("every C must be finite and > 0, got {c}"),
        ));
    }
    let mut f = Fitter::new(params, x, y, tasks)?;
    let meters = start_meters(params, ctl);
    let mut out: Vec<GhklFit> = Vec::with_capacity(cs.len());
    // the C that the warm state `f.state` (its α box) belongs to
    let mut state_c = cs[0];
    for (k, &c) in cs.iter().enumerate() {
        ctl.progress().set_stage(k as u64, cs.len() as u64);
        let reused = out
            .last()
            .and_then(|prev| prev.certified_at(params.0.loss, c, params.0.tol));
        if let Some(fit) = reused {
            out.push(fit);
            continue;
        }
        f.state.scale_alpha(c / state_c);
        state_c = c;
        out.push(f.run(c, &meters));
    }
    Ok(out)
}

/// Algorithm 2 on a whole, fixed DAG: the solution of (12) over its nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct DagSolution {
    /// `η` on the simplex (best iterate).
    pub eta: Vec<f64>,
    /// Effective kernel weights `κ_w` (closed-form `θ`).
    pub kappa: Vec<f64>,
    /// `α`, task-major.
    pub alpha: Vec<f64>,
    /// `f_tw`, node-major.
    pub weights: Vec<f64>,
    /// Biases `b_t` (optimal for the recovered weights).
    pub bias: Vec<f64>,
    /// The dual objective `g` at the best iterate.
    pub objective: f64,
    /// Primal objective of the recovered `(f, b)`.
    pub primal: f64,
    /// Dual lower bound `D(α)`.
    pub dual: f64,
    /// `primal − dual ≥ 0`.
    pub gap: f64,
    /// Mirror-descent iterations made.
    pub n_md_iter: usize,
    /// Whether mirror descent met a stopping test.
    pub converged: bool,
    /// Why it stopped early, if it did.
    pub truncation: Option<Truncation>,
}

/// Solves (12) restricted to the nodes of `dag` (Algorithm 2, no active set), with the
/// DAG's own weights `d_v`; `params.a` is not used.
///
/// This is the ℓ1/ℓρ hierarchical MKL for any DAG of rank-one 0/1 kernels; a DAG without
/// edges gives ℓ1-MKL, and the full lattice of a few propositions checks the active set.
///
/// # Errors
/// As [`fit`] (targets), plus [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput)
/// for an empty DAG.
///
/// # Complexity
/// `O(log n)` mirror-descent steps, each an inner MKL solve.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_lattice::{Check, Dag, GhklParams, solve_dag};
/// // a flat DAG (no edges) of two 0/1 features over 4 examples: ℓ1-MKL
/// let dag = Dag::new(4, &[vec![0, 1], vec![0, 2]], &[vec![], vec![]], &[1.0, 1.0])?;
/// let sol = solve_dag(&GhklParams::new().check()?, &dag, &[1.0, 1.0, -1.0, -1.0], 1, &RunControl::new())?;
/// assert!(sol.gap <= 1e-3 * sol.primal.max(1.0));
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
pub fn solve_dag(
    params: &GhklValidParams,
    dag: &Dag,
    y: &[f64],
    tasks: usize,
    ctl: &RunControl,
) -> Result<DagSolution> {
    if dag.is_empty() {
        return Err(bad_input("dag", "has no nodes"));
    }
    let m = dag.n_examples();
    check_targets(params.0.loss, y, tasks, m)?;
    let set = params.settings(params.0.c);
    let pb = Problem { dag, y, tasks };
    let mut st = State::new(dag.len(), tasks, m);
    let mut wk = Work::new(m, tasks)?;
    let meter = Budget::new()
        .time_limit(params.0.budget.time_limit)
        .start(ctl);
    let last = solve_restricted(&pb, &set, &mut st, &mut wk, Some(&meter));
    let cert = certificate(&pb, &set, &last, &st, Some(&[]));
    Ok(DagSolution {
        eta: st.eta.clone(),
        kappa: cert.kappa,
        alpha: st.alpha.clone(),
        weights: cert.f,
        bias: cert.bias,
        objective: last.g,
        primal: cert.primal,
        dual: cert.dual,
        gap: cert.gap,
        n_md_iter: last.md_iter,
        converged: last.converged,
        truncation: meter.truncation(),
    })
}

/// The dual objective `g(η)` of (13) at a given `η` and its gradient (24), on a fixed DAG
/// (with the parameters' smoothing).
#[derive(Debug, Clone, PartialEq)]
pub struct DualEvaluation {
    /// `g(η)` (the inner maximum, up to `mkl_gap`).
    pub value: f64,
    /// `∇g(η)`, every entry `≤ 0`.
    pub gradient: Vec<f64>,
    /// `ζ_w(η̃)`.
    pub zeta: Vec<f64>,
    /// Gap of the inner MKL solve.
    pub mkl_gap: f64,
}

/// Evaluates `g(η)` and `∇g(η)` on `dag` (for checks against finite differences).
///
/// # Errors
/// As [`solve_dag`], plus [`LatticeError::Input`](crate::LatticeError::Input)
/// when `eta` does not have one entry per node and
/// [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) when it is not
/// non-negative and finite with a positive sum.
///
/// # Complexity
/// One inner MKL solve.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_lattice::{Check, Dag, GhklParams, evaluate_dual};
/// let dag = Dag::new(4, &[vec![0, 1, 2, 3], vec![0, 1]], &[vec![], vec![0]], &[1.0, 2.0])?;
/// let ev = evaluate_dual(&GhklParams::new().check()?, &dag, &[1.0, 1.0, -1.0, -1.0], 1, &[0.5, 0.5])?;
/// assert!(ev.gradient.iter().all(|&g| g <= 0.0));
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
pub fn evaluate_dual(
    params: &GhklValidParams,
    dag: &Dag,
    y: &[f64],
    tasks: usize,
    eta: &[f64],
) -> Result<DualEvaluation> {
    if dag.is_empty() {
        return Err(bad_input("dag", "has no nodes"));
    }
    check_len("eta", eta.len(), dag.len())?;
    let s: f64 = eta.iter().sum();
    if eta.iter().any(|e| !(e.is_finite() && *e >= 0.0)) || !(s > 0.0 && s.is_finite()) {
        return Err(bad_input(
            "eta",
            "must be finite, >= 0, with a positive sum",
        ));
    }
    let m = dag.n_examples();
    check_targets(params.0.loss, y, tasks, m)?;
    let set = params.settings(params.0.c);
    let pb = Problem { dag, y, tasks };
    let n = dag.len();
    let mut st = State::new(n, tasks, m);
    let mut wk = Work::new(m, tasks)?;
    let eta_s: Vec<f64> = eta
        .iter()
        .map(|e| (1.0 - set.eps_sm) * e / s + set.eps_sm / n as f64)
        .collect();
    let mut log_zeta = vec![0.0; n];
    log_zeta_into(dag, &eta_s, set.ex.rho, &mut log_zeta);
    let zeta_pow: Vec<f64> = log_zeta
        .iter()
        .map(|l| (l / set.ex.rho_bar).exp())
        .collect();
    let mut proj = vec![0.0; n * tasks];
    let mut mw = vec![0.0; n];
    let out = solve_inner(
        &pb, &set, &zeta_pow, &mut st, &mut wk, &mut proj, &mut mw, None,
    );
    node_m(&proj, tasks, set.coupling, &mut mw);
    let mut gradient = vec![0.0; n];
    gradient_into(
        dag,
        set.ex,
        set.eps_sm,
        &eta_s,
        &log_zeta,
        &mw,
        &mut gradient,
    );
    Ok(DualEvaluation {
        value: out.dual,
        gradient,
        zeta: log_zeta.iter().map(|l| l.exp()).collect(),
        mkl_gap: out.gap,
    })
}

/// `ζ_w(η)` for every node (no smoothing): `(Σ_{v ∈ A(w)} d_v^ρ η_v^{1−ρ})^{1/(1−ρ)}`, 0 when
/// some ancestor has `η_v = 0`.
///
/// # Errors
/// [`LatticeError::Input`](crate::LatticeError::Input) for a wrong `eta`
/// length; [`LatticeError::InvalidParameter`](crate::LatticeError::InvalidParameter) for
/// `ρ ∉ (1, 2]`; [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) for a
/// negative or non-finite `η`.
///
/// # Complexity
/// O(Σ_w |A(w)|).
///
/// # Example
/// ```
/// use graphsparse_lattice::{Dag, zeta};
/// let dag = Dag::new(2, &[vec![0, 1], vec![0]], &[vec![], vec![0]], &[1.0, 2.0])?;
/// let z = zeta(&dag, &[0.5, 0.5], 2.0)?;
/// // ρ = 2: ζ_w = (Σ_{A(w)} d_v²/η_v)⁻¹
/// assert!((z[1] - 1.0 / (1.0 / 0.5 + 4.0 / 0.5)).abs() < 1e-15);
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
pub fn zeta(dag: &Dag, eta: &[f64], rho: f64) -> Result<Vec<f64>> {
    check_len("eta", eta.len(), dag.len())?;
    if !(rho > 1.0 && rho <= 2.0) {
        return Err(bad_param("rho", format!("must be in (1, 2], got {rho}")));
    }
    if eta.iter().any(|e| !(e.is_finite() && *e >= 0.0)) {
        return Err(bad_input("eta", "must be finite and >= 0"));
    }
    let mut lz = vec![0.0; dag.len()];
    log_zeta_into(dag, eta, rho, &mut lz);
    Ok(lz.iter().map(|l| l.exp()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphsparse_base::RunControl;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// `sources(W^c)` with a non-empty cover, by brute force over every subset of the
    /// propositions: key → cover.
    fn sources(lat: &Lattice, x: &PropositionMatrix) -> BTreeMap<Vec<u32>, Vec<u32>> {
        let p = x.n_props();
        let mut out = BTreeMap::new();
        for mask in 1usize..1 << p {
            let u: Vec<u32> = (0..p as u32).filter(|&j| mask >> j & 1 == 1).collect();
            let parents_in = (0..u.len()).all(|k| {
                let mut q = u.clone();
                q.remove(k);
                lat.index.contains_key(&q[..])
            });
            if lat.index.contains_key(&u[..]) || !parents_in {
                continue;
            }
            let mut bits_u = vec![!0u64; lat.wm];
            x.cover_bits_into(&u, &mut bits_u);
            let mut cover = Vec::new();
            bits::push_ones(&bits_u, &mut cover);
            if !cover.is_empty() {
                out.insert(u, cover);
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The frontier kept across rounds equals the sources of `W^c` however `W` grew and
        /// however often it was brought up to date; each source appears once, with its
        /// canonical parent and its cover.
        #[test]
        fn prop_incremental_frontier_equals_brute_force(
            m in 1usize..12,
            p in 1usize..7,
            seed in any::<u64>(),
            picks in proptest::collection::vec((any::<u16>(), any::<bool>()), 1..40),
        ) {
            let mut state = seed | 1;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let values: Vec<bool> = (0..m * p).map(|_| next() % 3 != 0).collect();
            let x = PropositionMatrix::from_dense(m, p, &values).unwrap();
            let ctl = RunControl::new();
            let meter = Budget::new().start(&ctl);
            let mut lat = Lattice::new(&x, 2.0);
            for (pick, refresh) in picks {
                prop_assert!(lat.update_frontier(&x, &meter));
                let want = sources(&lat, &x);
                let got: BTreeMap<Vec<u32>, Vec<u32>> = lat
                    .frontier
                    .iter()
                    .map(|c| (c.props.to_vec(), c.cover.clone()))
                    .collect();
                prop_assert_eq!(got.len(), lat.frontier.len(), "a source appears twice");
                prop_assert_eq!(&got, &want);
                for c in &lat.frontier {
                    prop_assert_eq!(&c.parent[..], &c.props[..c.props.len() - 1]);
                    prop_assert_eq!(c.added, *c.props.last().unwrap());
                }
                if lat.frontier.is_empty() {
                    break;
                }
                // add one or (without a refresh in between) two sources to W
                let take = if refresh { 1 } else { 2.min(lat.frontier.len()) };
                let chosen: Vec<Box<[u32]>> = (0..take)
                    .map(|t| {
                        let k = (pick as usize + t * 7) % lat.frontier.len();
                        lat.frontier[k].props.clone()
                    })
                    .collect();
                for props in chosen {
                    if lat.index.contains_key(&props) {
                        continue;
                    }
                    let mut bits_u = vec![!0u64; lat.wm];
                    x.cover_bits_into(&props, &mut bits_u);
                    lat.push(props, &bits_u);
                }
            }
        }
    }
}
