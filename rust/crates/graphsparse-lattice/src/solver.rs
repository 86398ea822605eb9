//! The restricted problem (14) on a fixed ancestor-closed set `W`: mirror descent over `η`
//! (Algorithm 2) around the ℓ_ρ̂-MKL inner problem (§5.3), solved by alternating an SVM (or
//! kernel ridge) solve with Kloft's analytic update of `θ`.
//!
//! Notation map (spec → code): `η, η̃` → `eta`, `eta_s`; `log ζ_w(η̃)` → `log_zeta`;
//! `ζ_w^{1/ρ̄}` → `zeta_pow`; `θ` → `theta`; `κ_w = θ_w ζ_w^{1/ρ̄}` → `kappa`; `α` → `alpha`
//! (task-major, `T · m`); `β = y ⊙ α` (hinge) or `α` (squared) → `beta`; `φ_wᵀ β_t` →
//! `proj[w·T + t]`; `M_w = βᵀ H_w β` → `mw`; `a_w = ζ_w^{1/ρ̄} M_w`; `R = ‖a‖_ρ̄`; `ϵ_W` →
//! `mkl_gap`; `B = I + c·11ᵀ` → `coupling = c`.

use graphsparse_base::{Loss, Meter, Parallel};

use crate::dag::Dag;
use crate::error::LatticeError;
use crate::error::Result;
use crate::gram::DenseGram;
use crate::primal::{self, Features, solve_ridge_primal, solve_svm_primal};
use crate::ridge::{RidgeWork, solve_ridge};
use crate::smo::{SvmSpec, solve_svm};

/// The task-correlation kernel `B` of gHKL-MT (all tasks share the inputs).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum TaskCoupling {
    /// `B = I`: regularizer (7), `Q_w = (Σ_t ‖f_tw‖²)^{1/2}`. The paper's choice and the
    /// default.
    #[default]
    Independent,
    /// `B = I + 11ᵀ/μ`: regularizer (8), which penalises the mean of the task weights with
    /// `μ` and their spread with 1.
    MeanRegularized {
        /// `μ > 0`.
        mu: f64,
    },
}

impl TaskCoupling {
    /// `c` in `B = I + c·11ᵀ`.
    pub(crate) fn c(self) -> f64 {
        match self {
            Self::Independent => 0.0,
            Self::MeanRegularized { mu } => 1.0 / mu,
        }
    }
}

/// The norm that scales the mirror-descent step `s = √(log|W| / i) / ‖∇g‖`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StepNorm {
    /// `‖·‖_∞`, the dual norm of the entropy geometry (default).
    #[default]
    Max,
    /// `‖·‖_2` (one reading of the paper's extracted text).
    Euclidean,
}

/// How the inner SVM / ridge problems of a fixed kernel weighting are solved.
///
/// Every lattice kernel is rank one, `K_w = φ_w φ_wᵀ`, so the effective kernel is `K = A
/// diag(κ) Aᵀ` over the 0/1 covers `A` and the inner problem is a linear model over the
/// sparse explicit features `√κ_w φ_w`. Both forms solve the same problem (bias and equality
/// constraint included) and reach the same optimum within the certified gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SolverForm {
    /// [`SolverForm::Dual`] up to [`AUTO_PRIMAL_ROWS`] training examples (after merging
    /// identical rows), [`SolverForm::Primal`] above (the default). Tasks coupled by
    /// [`TaskCoupling::MeanRegularized`] under the hinge loss always take the dual form.
    #[default]
    Auto,
    /// The dense `m × m` effective kernel (`8 m²` bytes), SMO with Newton steps (hinge) or a
    /// Cholesky of the `m × m` ridge system (squared): fastest for small `m`.
    Dual,
    /// Sparse explicit features, `O(nnz)` per pass and no `m × m` matrix: dual coordinate
    /// descent on the augmented Lagrangian of the SVM dual (hinge); for the squared loss a
    /// Cholesky of the `r × r` normal equations over the `r` distinct covers up to 512 of
    /// them, matrix-free conjugate gradients above (`O(nnz)` per iteration, `O(nnz + m + r)`
    /// memory, to a gap tied to `svm_tol`). Not available for the hinge loss with coupled
    /// tasks.
    Primal,
}

/// Above this many training examples, [`SolverForm::Auto`] takes the primal form.
pub const AUTO_PRIMAL_ROWS: usize = 2000;

impl SolverForm {
    /// Whether a solve of `m` examples uses the primal form.
    pub(crate) fn primal(self, m: usize, loss: Loss, coupling: f64) -> bool {
        let supported = !(loss == Loss::Hinge && coupling != 0.0);
        match self {
            Self::Dual => false,
            Self::Primal => supported,
            Self::Auto => supported && m > AUTO_PRIMAL_ROWS,
        }
    }
}

/// `ρ`, `ρ̂ = ρ/(2−ρ)` and `ρ̄ = ρ/(2(ρ−1))`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Exponents {
    pub rho: f64,
    pub rho_hat: f64,
    pub rho_bar: f64,
}

impl Exponents {
    pub(crate) fn new(rho: f64) -> Self {
        let rho_hat = if rho >= 2.0 {
            f64::INFINITY
        } else {
            rho / (2.0 - rho)
        };
        Self {
            rho,
            rho_hat,
            rho_bar: rho / (2.0 * (rho - 1.0)),
        }
    }
    pub(crate) fn is_hkl(&self) -> bool {
        self.rho >= 2.0
    }
}

/// Everything the restricted solver reads from the parameters.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub ex: Exponents,
    pub cost: f64,
    pub coupling: f64,
    pub loss: Loss,
    pub eps_sm: f64,
    pub tol_gap: f64,
    pub md_tol: f64,
    pub md_max_iter: usize,
    pub md_min_iter: usize,
    /// Mirror-descent steps already taken: the step size continues its `1/√i` schedule from
    /// there (0 after a round that grew the active set much; a round that added a few nodes
    /// and a refinement of a final set go on).
    pub md_steps_before: usize,
    pub step_norm: StepNorm,
    /// Armijo-backtracked mirror steps instead of the `1/√i` schedule.
    pub line_search: bool,
    pub mkl_tol: f64,
    pub mkl_max_iter: usize,
    pub svm_tol: f64,
    pub parallel: Parallel,
    pub form: SolverForm,
}

/// The data of one solve: the DAG and the targets (task-major `T · m`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Problem<'a> {
    pub dag: &'a Dag,
    pub y: &'a [f64],
    pub tasks: usize,
    /// Per-example multiplicity (length `m`): example `i` stands for `weight[i]` identical
    /// training rows (all 1 unless the rows were merged, see `ghkl::drivers`).
    pub weight: &'a [f64],
}

impl Problem<'_> {
    pub(crate) fn m(&self) -> usize {
        self.dag.n_examples()
    }
}

/// Warm-start state carried between solves (`η`, `θ` per node; `α`, `b` per example/task).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct State {
    pub eta: Vec<f64>,
    pub theta: Vec<f64>,
    pub alpha: Vec<f64>,
    pub bias: Vec<f64>,
}

impl State {
    pub(crate) fn new(n: usize, tasks: usize, m: usize) -> Self {
        Self {
            eta: vec![1.0 / n.max(1) as f64; n],
            theta: vec![0.0; n],
            alpha: vec![0.0; tasks * m],
            bias: vec![0.0; tasks],
        }
    }

    /// Extends `η` and `θ` to `n` nodes: new nodes get `η = 1/n` (then everything is
    /// renormalised) and `θ = 0` (the inner solver re-initialises it).
    pub(crate) fn grow(&mut self, n: usize) {
        let old = self.eta.len();
        if n > old {
            let v = 1.0 / n as f64;
            self.eta.resize(n, v);
            let s: f64 = self.eta.iter().sum();
            self.eta.iter_mut().for_each(|e| *e /= s);
            self.theta.resize(n, 0.0);
        }
    }

    /// Scales `α` by `factor` (a change of `C`: keeps `0 ≤ α ≤ C` and `yᵀα = 0`).
    pub(crate) fn scale_alpha(&mut self, factor: f64) {
        self.alpha.iter_mut().for_each(|a| *a *= factor);
    }
}

/// Work buffers, allocated once per fit.
#[derive(Debug)]
pub(crate) struct Work {
    /// The dense effective kernel (dual form), or `None` (primal form).
    pub gram: Option<DenseGram>,
    ridge: RidgeWork,
    feat: Features,
    ridge_primal: primal::RidgeWork,
    class_kappa: Vec<f64>,
    grad_svm: Vec<f64>,
    scratch: Vec<f64>,
    pub beta: Vec<f64>,
    fit: Vec<f64>,
    coef: Vec<f64>,
    kappa: Vec<f64>,
    a: Vec<f64>,
    order: Vec<usize>,
    /// `θ` as the last complete inner round used it (restored when a kernel build is
    /// stopped).
    theta_prev: Vec<f64>,
}

impl Work {
    /// Buffers for `m` examples and `tasks` tasks in the form `form` picks for them; under
    /// [`SolverForm::Auto`] a dense kernel that cannot be allocated falls back to the primal
    /// form where it is available.
    pub(crate) fn new(
        m: usize,
        tasks: usize,
        form: SolverForm,
        loss: Loss,
        coupling: f64,
    ) -> Result<Self> {
        let gram = if form.primal(m, loss, coupling) {
            None
        } else {
            match DenseGram::try_new(m) {
                Ok(g) => Some(g),
                Err(LatticeError::TooLarge { .. })
                    if form == SolverForm::Auto && SolverForm::Primal.primal(m, loss, coupling) =>
                {
                    None
                }
                Err(e) => return Err(e),
            }
        };
        Ok(Self {
            gram,
            ridge: RidgeWork::default(),
            feat: Features::default(),
            ridge_primal: primal::RidgeWork::default(),
            class_kappa: Vec::new(),
            grad_svm: vec![0.0; tasks * m],
            scratch: vec![0.0; tasks * m],
            beta: vec![0.0; tasks * m],
            fit: vec![0.0; tasks * m],
            coef: Vec::new(),
            kappa: Vec::new(),
            a: Vec::new(),
            order: Vec::with_capacity(m),
            theta_prev: Vec::new(),
        })
    }
}

/// The outcome of one restricted solve (its best iterate).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Restricted {
    /// `η̃` at the best iterate.
    pub eta_s: Vec<f64>,
    pub log_zeta: Vec<f64>,
    /// `M_w(α)` at the best iterate.
    pub mw: Vec<f64>,
    /// `φ_wᵀ β_t`, node-major.
    pub proj: Vec<f64>,
    /// Dual value `g` at the best iterate (value of (13)).
    pub g: f64,
    /// `R = (Σ_w ζ_w M_w^ρ̄)^{1/ρ̄}`.
    pub r: f64,
    /// Gap of the inner MKL solve at the best iterate.
    pub mkl_gap: f64,
    /// Mirror-descent iterations made.
    pub md_iter: usize,
    /// SVM / ridge solves made.
    pub inner_solves: usize,
    /// SMO iterations made.
    pub svm_iter: usize,
    /// Whether the mirror descent met a stopping test (rather than its iteration cap or the
    /// budget).
    pub converged: bool,
    /// The meter stopped the first iteration's kernel build (dense form), feature rows (primal
    /// form) or ridge solve (squared loss), so nothing was solved: this is
    /// the warm start evaluated on the DAG (its `α` is still a feasible dual point, and
    /// `mkl_gap` is infinite). A caller that grew the DAG since its last solve may prefer to
    /// go back to that solve.
    pub aborted: bool,
}

/// `log ζ_w(η̃) = 1/(1−ρ) · logsumexp_{v ∈ A(w)} (ρ log d_v + (1−ρ) log η̃_v)` for every node.
pub(crate) fn log_zeta_into(dag: &Dag, eta_s: &[f64], rho: f64, out: &mut [f64]) {
    let k = 1.0 - rho;
    // fast path: one exp and one log per node, sums of exp(t_v − max t) per ancestor pair;
    // taken unless some sum underflows (extreme weights), then per-node logsumexp
    let t: Vec<f64> = (0..out.len())
        .map(|v| rho * dag.log_weight(v) + k * eta_s[v].ln())
        .collect();
    let tmax = t.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if tmax.is_finite() {
        let e: Vec<f64> = t.iter().map(|&x| (x - tmax).exp()).collect();
        let mut ok = true;
        for (w, o) in out.iter_mut().enumerate() {
            let s: f64 = dag.ancestors(w).iter().map(|&v| e[v as usize]).sum();
            if s >= 1e-280 {
                *o = (tmax + s.ln()) / k;
            } else {
                ok = false;
                break;
            }
        }
        if ok {
            return;
        }
    }
    for (w, o) in out.iter_mut().enumerate() {
        let anc = dag.ancestors(w);
        let term = |v: u32| t[v as usize];
        let mx = anc
            .iter()
            .map(|&v| term(v))
            .fold(f64::NEG_INFINITY, f64::max);
        *o = if mx == f64::INFINITY {
            f64::NEG_INFINITY
        } else {
            let s: f64 = anc.iter().map(|&v| (term(v) - mx).exp()).sum();
            (mx + s.ln()) / k
        };
    }
}

/// `M_w = Σ_{t,t'} B_{tt'} p_wt p_wt'` with `B = I + c·11ᵀ`, clipped at 0.
pub(crate) fn node_m(proj: &[f64], tasks: usize, coupling: f64, out: &mut [f64]) {
    for (w, o) in out.iter_mut().enumerate() {
        let p = &proj[w * tasks..(w + 1) * tasks];
        let sq: f64 = p.iter().map(|x| x * x).sum();
        let s: f64 = p.iter().sum();
        *o = (sq + coupling * s * s).max(0.0);
    }
}

/// The hinge-optimal bias of one task for margins `f` without bias: the minimiser of
/// `Σ_i max(0, 1 − y_i (f_i − b))` closest to `reference`; returns `(b, loss)`.
pub(crate) fn hinge_bias(
    y: &[f64],
    f: &[f64],
    weight: &[f64],
    reference: f64,
    order: &mut Vec<usize>,
) -> (f64, f64) {
    let m = y.len();
    order.clear();
    order.extend(0..m);
    let key = |i: usize| f[i] - y[i];
    order.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
    // slope right of b: w{y=+1: k ≤ b} − w{y=−1: k > b}; a breakpoint raises it by its
    // weight (the weights are counts of merged rows: integers, so the sums are exact)
    let mut slope: f64 = -(0..m)
        .filter(|&i| y[i] < 0.0)
        .map(|i| weight[i])
        .sum::<f64>();
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    if slope == 0.0 {
        hi = order.first().map_or(f64::INFINITY, |&i| key(i));
    } else {
        for (r, &i) in order.iter().enumerate() {
            slope += weight[i];
            if slope >= 0.0 {
                lo = key(i);
                hi = if slope == 0.0 {
                    order.get(r + 1).map_or(f64::INFINITY, |&k| key(k))
                } else {
                    lo
                };
                break;
            }
        }
    }
    let b = if reference.is_finite() {
        reference.clamp(lo, hi)
    } else if lo.is_finite() {
        lo
    } else if hi.is_finite() {
        hi
    } else {
        0.0
    };
    let b = if b.is_finite() { b } else { 0.0 };
    let loss = (0..m)
        .map(|i| weight[i] * (1.0 - y[i] * (f[i] - b)).max(0.0))
        .sum();
    (b, loss)
}

/// A loss other than hinge and squared never reaches a solve: the parameter check refuses it.
#[cold]
pub(crate) fn refused(loss: Loss) -> ! {
    unreachable!("GhklParams::check refuses the {loss} loss")
}

/// Loss part of the dual, `Σ −C φ*(−α/C)`: `1ᵀα` (hinge) or `yᵀα − ‖α‖²/(2C)` (squared).
pub(crate) fn loss_dual(loss: Loss, y: &[f64], alpha: &[f64], cost: f64) -> f64 {
    match loss {
        Loss::Hinge => alpha.iter().sum(),
        Loss::Squared => y
            .iter()
            .zip(alpha)
            .map(|(y, a)| y * a - a * a / (2.0 * cost))
            .sum(),
        other => refused(other),
    }
}

/// `β` from `α`.
pub(crate) fn beta_into(loss: Loss, y: &[f64], alpha: &[f64], beta: &mut [f64]) {
    match loss {
        Loss::Hinge => {
            for ((b, &yk), &ak) in beta.iter_mut().zip(y).zip(alpha) {
                *b = yk * ak;
            }
        }
        Loss::Squared => beta.copy_from_slice(alpha),
        other => refused(other),
    }
}

/// Optimal biases and the total loss `Σ_{t,i} ℓ(y_ti, f_ti − b_t)` of margins `f` (without
/// bias); for the hinge the bias is the optimal one closest to `bias` on entry.
pub(crate) fn fit_bias(
    loss: Loss,
    y: &[f64],
    f: &[f64],
    weight: &[f64],
    bias: &mut [f64],
    order: &mut Vec<usize>,
) -> f64 {
    let m = weight.len();
    let mut total = 0.0;
    for (t, b) in bias.iter_mut().enumerate() {
        let (ys, fs) = (&y[t * m..(t + 1) * m], &f[t * m..(t + 1) * m]);
        match loss {
            Loss::Hinge => {
                let (bt, l) = hinge_bias(ys, fs, weight, *b, order);
                *b = bt;
                total += l;
            }
            Loss::Squared => {
                let bt = fs.iter().zip(ys).map(|(f, y)| f - y).sum::<f64>() / m as f64;
                *b = bt;
                total += fs
                    .iter()
                    .zip(ys)
                    .map(|(f, y)| 0.5 * (y - f + bt) * (y - f + bt))
                    .sum::<f64>();
            }
            other => refused(other),
        }
    }
    total
}

/// Statistics of one inner MKL solve.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct InnerOut {
    pub dual: f64,
    pub r: f64,
    pub gap: f64,
    pub rounds: usize,
    pub svm_iter: usize,
    /// The meter stopped the first round's kernel build (dense form), feature rows (primal
    /// form) or ridge solve (squared loss): nothing was solved, and `st`, `proj` and `mw`
    /// are as they were on entry.
    pub aborted: bool,
}

/// Share of the closed-form `θ` below which Kloft's update may not push a kernel weight
/// (Kloft's multiplicative update cannot revive a weight that reached 0, although the
/// kernel may be needed again once `α` moves; at the fixed point the two `θ` agree, so the
/// floor is inactive there).
const THETA_FLOOR: f64 = 0.1;

/// The ℓ_ρ̂-MKL problem at fixed `η` (kernels `ζ_w^{1/ρ̄} H_w`), warm-started from `st`.
///
/// On return `st.alpha`, `st.bias`, `st.theta` hold the final iterate, `proj` and `mw` the
/// projections and `M_w` at it. A kernel build or ridge solve stopped by `meter` drops its
/// round: the last complete round stands (with the `θ` it was solved at), or, when it was the first,
/// nothing was solved ([`InnerOut::aborted`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_inner(
    pb: &Problem,
    set: &Settings,
    zeta_pow: &[f64],
    st: &mut State,
    wk: &mut Work,
    proj: &mut [f64],
    mw: &mut [f64],
    meter: Option<&Meter>,
) -> InnerOut {
    let (dag, y, nt) = (pb.dag, pb.y, pb.tasks);
    let ex = set.ex;
    wk.kappa.resize(dag.len(), 0.0);
    wk.a.resize(dag.len(), 0.0);
    wk.theta_prev.clone_from(&st.theta);
    start_theta(&mut st.theta, zeta_pow, ex);
    let mut out = InnerOut::default();
    let mut stall = Stall::new();
    let max_rounds = if ex.is_hkl() {
        1
    } else {
        set.mkl_max_iter.max(1)
    };
    for round in 0..max_rounds {
        for ((k, &t), &z) in wk.kappa.iter_mut().zip(&st.theta).zip(zeta_pow) {
            *k = t * z;
        }
        wk.class_kappa.clear();
        wk.class_kappa.resize(dag.n_classes(), 0.0);
        for (v, &k) in wk.kappa.iter().enumerate() {
            wk.class_kappa[dag.class(v)] += k;
        }
        let built = match wk.gram.as_mut() {
            Some(g) => g.build(dag, &wk.kappa, meter),
            None => wk.feat.sync(dag, meter),
        };
        let fitted = if built {
            fit_alpha(pb, set, st, wk, meter)
        } else {
            None
        };
        let Some(svm_iter) = fitted else {
            // a partial kernel or ridge solve: this round is dropped (`α`, `proj` and `mw`
            // are still the last round's), and `θ` goes back to what that round used
            st.theta.clone_from(&wk.theta_prev);
            out.aborted = round == 0;
            break;
        };
        out.svm_iter += svm_iter;
        out.rounds += 1;
        beta_into(set.loss, y, &st.alpha, &mut wk.beta);
        dag.project_into(&wk.beta, nt, proj);
        node_m(proj, nt, set.coupling, mw);
        for ((a, &z), &mm) in wk.a.iter_mut().zip(zeta_pow).zip(mw.iter()) {
            *a = z * mm;
        }
        let norm_a = pnorm(&wk.a, ex.rho_bar);
        let dual = loss_dual(set.loss, y, &st.alpha, set.cost) - 0.5 * norm_a;
        let primal = primal_objective(pb, set, proj, st, wk);
        out.dual = dual;
        out.r = norm_a;
        out.gap = (primal - dual).max(0.0);
        if ex.is_hkl() || out.gap <= set.mkl_tol * dual.abs().max(1.0) {
            break;
        }
        // the gap cannot fall below what the SVM tolerance allows (it grows with C): stop
        // alternating once it no longer shrinks instead of running to `mkl_max_iter`
        if stall.stalled(out.gap) {
            break;
        }
        if meter.is_some_and(|mt| mt.is_stopped()) {
            break;
        }
        wk.theta_prev.clone_from(&st.theta);
        kloft_update(&mut st.theta, &wk.a, ex);
    }
    out
}

/// The kernel weights `θ` an inner solve starts from: 1 on the kernels with `ζ > 0` for HKL;
/// for MKL the warm `θ`, with kernels newly in use (`ζ > 0`, `θ` not positive and finite) at
/// `(#{ζ > 0})^{-1/ρ̂}` and the whole renormalised when any was; 0 where `ζ ≤ 0`.
fn start_theta(theta: &mut [f64], zeta_pow: &[f64], ex: Exponents) {
    if ex.is_hkl() {
        theta
            .iter_mut()
            .zip(zeta_pow)
            .for_each(|(t, &z)| *t = if z > 0.0 { 1.0 } else { 0.0 });
    } else {
        let positive = zeta_pow.iter().filter(|&&z| z > 0.0).count().max(1);
        let init = (positive as f64).powf(-1.0 / ex.rho_hat);
        let mut changed = false;
        for (t, &z) in theta.iter_mut().zip(zeta_pow) {
            if z > 0.0 && !(*t > 0.0 && t.is_finite()) {
                *t = init;
                changed = true;
            } else if z <= 0.0 {
                *t = 0.0;
            }
        }
        if changed {
            normalise_theta(theta, ex.rho_hat);
        }
    }
}

/// The dual variables `α` and biases at the kernel built in `wk` (SVM for the hinge, ridge
/// for the squared loss; dense or primal form), warm-started from `st`. Returns the SVM's
/// iterations (SMO pair steps or coordinate steps); `None` when `meter` stopped a ridge
/// solve, which has no usable partial result: `α` and the biases are then left as they were.
/// (A stopped SVM returns its last feasible iterate.)
fn fit_alpha(
    pb: &Problem,
    set: &Settings,
    st: &mut State,
    wk: &mut Work,
    meter: Option<&Meter>,
) -> Option<usize> {
    if set.loss == Loss::Squared {
        let saved = (st.alpha.clone(), st.bias.clone());
        let solved = ridge_alpha(pb, set, st, wk, meter);
        if !solved {
            (st.alpha, st.bias) = saved;
        }
        return solved.then_some(0);
    }
    let (y, nt, m) = (pb.y, pb.tasks, pb.m());
    let Some(gram) = wk.gram.as_ref() else {
        return Some(match set.loss {
            Loss::Hinge => {
                solve_svm_primal(
                    &wk.feat,
                    &wk.class_kappa,
                    y,
                    set.cost,
                    pb.weight,
                    set.svm_tol,
                    &mut st.alpha,
                    &mut st.bias,
                    meter,
                    set.parallel,
                )
                .steps
            }
            other => refused(other),
        });
    };
    Some(match set.loss {
        Loss::Hinge => {
            let spec = SvmSpec {
                gram,
                y,
                tasks: nt,
                coupling: set.coupling,
                cost: set.cost,
                weight: pb.weight,
                tol: set.svm_tol,
                max_iter: (200 * nt * m).max(100_000),
                newton: true,
            };
            solve_svm(
                &spec,
                &mut st.alpha,
                &mut st.bias,
                &mut wk.grad_svm,
                &mut wk.scratch,
                meter,
                set.parallel,
            )
            .iterations
        }
        other => refused(other),
    })
}

/// The ridge solve of the squared loss in the form `wk` holds; `false` when `meter` stopped
/// it (`α` and the biases may then be partly written).
fn ridge_alpha(
    pb: &Problem,
    set: &Settings,
    st: &mut State,
    wk: &mut Work,
    meter: Option<&Meter>,
) -> bool {
    match wk.gram.as_ref() {
        Some(gram) => solve_ridge(
            gram,
            pb.y,
            pb.tasks,
            set.coupling,
            set.cost,
            &mut st.alpha,
            &mut st.bias,
            &mut wk.ridge,
            meter,
        ),
        None => solve_ridge_primal(
            &mut wk.feat,
            pb.dag,
            &wk.class_kappa,
            pb.y,
            pb.tasks,
            set.coupling,
            set.cost,
            set.svm_tol,
            &mut st.alpha,
            &mut st.bias,
            &mut wk.ridge_primal,
            meter,
        ),
    }
}

/// The primal objective `½ Σ θ_w a_w + C Σ ℓ(y, (B ⊗ K_θ) β − b)` at the optimal biases
/// (written to `st.bias`), from the projections `proj`. The fit `Σ_w κ_w φ_w (p_w + c Σ_t
/// p_w)` is summed per cover class (`p` is the same within one).
fn primal_objective(
    pb: &Problem,
    set: &Settings,
    proj: &[f64],
    st: &mut State,
    wk: &mut Work,
) -> f64 {
    let (dag, y, nt, c) = (pb.dag, pb.y, pb.tasks, set.coupling);
    let class_kappa = &wk.class_kappa;
    wk.coef.resize(class_kappa.len() * nt, 0.0);
    for (k, &kk) in class_kappa.iter().enumerate() {
        let rep = dag.class_rep(k);
        let p = &proj[rep * nt..(rep + 1) * nt];
        let sum: f64 = p.iter().sum();
        for (t, &pt) in p.iter().enumerate() {
            wk.coef[k * nt + t] = kk * (pt + c * sum);
        }
    }
    dag.expand_classes_into(&wk.coef, nt, &mut wk.fit);
    let reg: f64 = st.theta.iter().zip(&wk.a).map(|(t, a)| t * a).sum();
    let lsum = fit_bias(set.loss, y, &wk.fit, pb.weight, &mut st.bias, &mut wk.order);
    0.5 * reg + set.cost * lsum
}

/// The stall rule of the inner alternation: the best gap so far and the rounds since it last
/// shrank by [`STALL_DECREASE`] on it.
struct Stall {
    best: f64,
    rounds: usize,
}

impl Stall {
    fn new() -> Self {
        Self {
            best: f64::INFINITY,
            rounds: 0,
        }
    }

    /// Records the gap of a round; true once it has not shrunk for [`STALL_ROUNDS`] rounds.
    fn stalled(&mut self, gap: f64) -> bool {
        if gap < (1.0 - STALL_DECREASE) * self.best {
            (self.best, self.rounds) = (gap, 0);
            false
        } else {
            self.rounds += 1;
            self.rounds >= STALL_ROUNDS
        }
    }
}

/// The inner MKL alternation stops after this many rounds without the gap shrinking by
/// [`STALL_DECREASE`] (relative) on the best so far (one: a stalled gap sits at the floor
/// the SVM tolerance sets, and a final active set whose certificate is short of the
/// tolerance is solved again with tighter tolerances, see `ghkl.rs`).
const STALL_ROUNDS: usize = 1;
const STALL_DECREASE: f64 = 0.01;

/// `‖x‖_p` for `x ≥ 0`, scaled by `max x`.
pub(crate) fn pnorm(x: &[f64], p: f64) -> f64 {
    let mx = x.iter().copied().fold(0.0f64, f64::max);
    if mx <= 0.0 {
        return 0.0;
    }
    if p.is_infinite() {
        return mx;
    }
    let s: f64 = x
        .iter()
        .filter(|&&v| v > 0.0)
        .map(|&v| (v / mx).powf(p))
        .sum();
    mx * s.powf(1.0 / p)
}

/// Rescales `θ ≥ 0` to `‖θ‖_ρ̂ = 1` (no change when `θ = 0`).
fn normalise_theta(theta: &mut [f64], rho_hat: f64) {
    let nrm = pnorm(theta, rho_hat);
    if nrm > 0.0 {
        theta.iter_mut().for_each(|t| *t /= nrm);
    }
}

/// Kloft's update `θ_w = ω_w^{1/(ρ̂+1)} / (Σ_v ω_v^{ρ̂/(ρ̂+1)})^{1/ρ̂}`, `ω_w = θ_w² a_w`,
/// floored at a share of the closed-form `θ_w ∝ a_w^{ρ̄−1}`.
fn kloft_update(theta: &mut [f64], a: &[f64], ex: Exponents) {
    let rh = ex.rho_hat;
    let omax = theta
        .iter()
        .zip(a)
        .map(|(t, a)| t * t * a)
        .fold(0.0f64, f64::max);
    let amax = a.iter().copied().fold(0.0f64, f64::max);
    if omax <= 0.0 || amax <= 0.0 {
        return;
    }
    let den: f64 = theta
        .iter()
        .zip(a)
        .map(|(t, a)| (t * t * a / omax).powf(rh / (rh + 1.0)))
        .sum::<f64>()
        .powf(1.0 / rh);
    let norm_a = pnorm(a, ex.rho_bar);
    for (t, &aw) in theta.iter_mut().zip(a) {
        let kloft = (*t * *t * aw / omax).powf(1.0 / (rh + 1.0)) / den;
        let closed = if aw > 0.0 {
            (aw / norm_a).powf(ex.rho_bar - 1.0)
        } else {
            0.0
        };
        *t = kloft.max(THETA_FLOOR * closed);
    }
    normalise_theta(theta, rh);
}

/// The closed-form `θ` (§5.2) and effective weights `κ_w = θ_w ζ_w^{1/ρ̄}` from `M` and
/// `log ζ`.
pub(crate) fn effective_weights(ex: Exponents, log_zeta: &[f64], mw: &[f64], kappa: &mut [f64]) {
    let zp: Vec<f64> = log_zeta.iter().map(|l| (l / ex.rho_bar).exp()).collect();
    let a: Vec<f64> = zp.iter().zip(mw).map(|(z, m)| z * m).collect();
    if ex.is_hkl() {
        kappa.copy_from_slice(&zp);
        return;
    }
    let norm_a = pnorm(&a, ex.rho_bar);
    for ((k, &aw), &z) in kappa.iter_mut().zip(&a).zip(&zp) {
        *k = if aw > 0.0 && norm_a > 0.0 {
            (aw / norm_a).powf(ex.rho_bar - 1.0) * z
        } else {
            0.0
        };
    }
}

/// The gradient (24) of the smoothed `g` at `η`, restricted to the DAG.
pub(crate) fn gradient_into(
    dag: &Dag,
    ex: Exponents,
    eps_sm: f64,
    eta_s: &[f64],
    log_zeta: &[f64],
    mw: &[f64],
    grad: &mut [f64],
) {
    grad.iter_mut().for_each(|g| *g = 0.0);
    let mmax = mw.iter().copied().fold(0.0f64, f64::max);
    if mmax <= 0.0 {
        return;
    }
    let rho = ex.rho;
    let rb = ex.rho_bar;
    // ŝ = Σ_w ζ_w (M_w/Mmax)^ρ̄
    let mut s_hat = 0.0;
    for (w, &m) in mw.iter().enumerate() {
        if m > 0.0 {
            s_hat += (log_zeta[w] + rb * (m / mmax).ln()).exp();
        }
    }
    if s_hat <= 0.0 {
        return;
    }
    // grad_i ∝ Σ_{w ∈ D(i)} exp(f_i + l_w), f_i = ρ (log d_i − log η̃_i), l_w = ρ log ζ_w +
    // ρ̄ log(M_w/M_max) ≤ 0: factored as exp(f_i) Σ exp(l_w) unless some exp(f_i) overflows
    let f: Vec<f64> = (0..grad.len())
        .map(|i| rho * (dag.log_weight(i) - eta_s[i].ln()))
        .collect();
    let factored = f.iter().all(|&x| x < 700.0);
    for (w, &m) in mw.iter().enumerate() {
        if m <= 0.0 || log_zeta[w] == f64::NEG_INFINITY {
            continue;
        }
        let lu = rho * log_zeta[w] + rb * (m / mmax).ln();
        if factored {
            let e = lu.exp();
            for &i in dag.ancestors(w) {
                grad[i as usize] += e;
            }
        } else {
            for &i in dag.ancestors(w) {
                let i = i as usize;
                grad[i] += (f[i] + lu).exp();
            }
        }
    }
    if factored {
        grad.iter_mut().zip(&f).for_each(|(g, &fi)| *g *= fi.exp());
    }
    let scale = -(1.0 - eps_sm) / (2.0 * rb) * mmax * s_hat.powf(1.0 / rb - 1.0);
    grad.iter_mut().for_each(|g| *g *= scale);
}

/// Sufficient-decrease fraction of the Armijo test of a mirror step.
const ARMIJO_SIGMA: f64 = 1e-4;
/// Most halvings of one mirror step before the trial is taken as it is.
const MAX_HALVINGS: usize = 8;
/// Largest spread of the exponents of one mirror step (a weight drops by at most `e^-40`).
const MAX_EXPONENT: f64 = 40.0;

/// The entropic mirror step `η⁺ ∝ η ⊙ exp(−s (∇ − min ∇))` from `from` into `to`.
fn mirror_step(from: &[f64], grad: &[f64], step: f64, to: &mut [f64]) {
    let gmin = grad.iter().copied().fold(f64::INFINITY, f64::min);
    for ((t, &e), &gr) in to.iter_mut().zip(from).zip(grad) {
        *t = e * (-step * (gr - gmin)).exp();
    }
    let s: f64 = to.iter().sum();
    to.iter_mut().for_each(|e| *e /= s);
}

/// Algorithm 2 (mirror descent over `η` on the simplex of the DAG's nodes), warm-started from
/// `st`; on return `st` holds the best iterate. When `meter` stops the first iteration's
/// kernel build, `st` is left as the warm start and the result is its evaluation
/// ([`Restricted::aborted`]).
pub(crate) fn solve_restricted(
    pb: &Problem,
    set: &Settings,
    st: &mut State,
    wk: &mut Work,
    meter: Option<&Meter>,
) -> Restricted {
    let dag = pb.dag;
    let (n, nt) = (dag.len(), pb.tasks);
    // sanitise the warm start: positive η summing to one
    if st.eta.len() != n || st.eta.iter().any(|e| !(e.is_finite() && *e > 0.0)) {
        st.eta = vec![1.0 / n as f64; n];
    }
    st.theta.resize(n, 0.0);
    let s: f64 = st.eta.iter().sum();
    st.eta.iter_mut().for_each(|e| *e /= s);
    let mut eta_s = vec![0.0; n];
    let mut log_zeta = vec![0.0; n];
    let mut zeta_pow = vec![0.0; n];
    let mut proj = vec![0.0; n * nt];
    let mut mw = vec![0.0; n];
    let mut grad = vec![0.0; n];
    let mut best: Option<(Restricted, State)> = None;
    let mut g_prev = f64::INFINITY;
    let (mut md_iter, mut inner_solves, mut svm_iter) = (0, 0, 0);
    let mut converged = false;
    let eps = set.eps_sm;
    // the line search: the last accepted point (g, η, ∇g, step), the halvings of its step so far
    let mut anchor: Option<(f64, Vec<f64>, Vec<f64>, f64)> = None;
    let mut halvings = 0;
    for i in 1.. {
        for (es, &e) in eta_s.iter_mut().zip(&st.eta) {
            *es = (1.0 - eps) * e + eps / n as f64;
        }
        log_zeta_into(dag, &eta_s, set.ex.rho, &mut log_zeta);
        for (z, &l) in zeta_pow.iter_mut().zip(&log_zeta) {
            *z = (l / set.ex.rho_bar).exp();
        }
        let inner = solve_inner(pb, set, &zeta_pow, st, wk, &mut proj, &mut mw, meter);
        if inner.aborted {
            // the budget ran out while the kernel was built: this step is dropped
            break;
        }
        md_iter += 1;
        inner_solves += inner.rounds;
        svm_iter += inner.svm_iter;
        if let Some(mt) = meter {
            mt.control().progress().add_iteration();
        }
        let g = inner.dual;
        if best.as_ref().is_none_or(|(b, _)| g < b.g) {
            best = Some((
                Restricted {
                    eta_s: eta_s.clone(),
                    log_zeta: log_zeta.clone(),
                    mw: mw.clone(),
                    proj: proj.clone(),
                    g,
                    r: inner.r,
                    mkl_gap: inner.gap,
                    ..Restricted::default()
                },
                st.clone(),
            ));
        }
        if n == 1 {
            converged = true;
            break;
        }
        if meter.is_some_and(|mt| mt.poll()) {
            break;
        }
        // Armijo: a trial step that does not lower g by ARMIJO_SIGMA of the decrease the
        // anchor's gradient predicts is halved (from the anchor) and tried again
        if let Some((ga, eta_a, grad_a, step_a)) = anchor.as_mut() {
            let predicted: f64 = grad_a
                .iter()
                .zip(st.eta.iter().zip(eta_a.iter()))
                .map(|(gr, (e, ea))| gr * (e - ea))
                .sum();
            if g > *ga + ARMIJO_SIGMA * predicted && halvings < MAX_HALVINGS && i < set.md_max_iter
            {
                halvings += 1;
                *step_a *= 0.5;
                mirror_step(eta_a, grad_a, *step_a, &mut st.eta);
                continue;
            }
        }
        gradient_into(dag, set.ex, eps, &eta_s, &log_zeta, &mw, &mut grad);
        let gmin = grad.iter().copied().fold(f64::INFINITY, f64::min);
        let gnorm = match set.step_norm {
            StepNorm::Max => grad.iter().map(|g| g.abs()).fold(0.0f64, f64::max),
            StepNorm::Euclidean => grad.iter().map(|g| g * g).sum::<f64>().sqrt(),
        };
        if gnorm == 0.0 {
            converged = true;
            break;
        }
        let fw = st.eta.iter().zip(&grad).map(|(e, g)| e * g).sum::<f64>() - gmin;
        let tol = set.tol_gap * g.abs().max(1.0);
        if (i >= set.md_min_iter && (g - g_prev).abs() <= set.md_tol * g_prev.abs().max(1.0))
            || fw <= 0.5 * tol
        {
            converged = true;
            break;
        }
        if i >= set.md_max_iter {
            break;
        }
        let schedule = ((n as f64).ln() / (i + set.md_steps_before) as f64).sqrt() / gnorm;
        let step = if set.line_search {
            // twice the last step when it was kept at once, else the step it was kept at;
            // never shorter than the schedule's, and never so long that a weight drops by
            // more than e^-MAX_EXPONENT in one step (η must stay positive)
            let spread = grad.iter().copied().fold(f64::NEG_INFINITY, f64::max) - gmin;
            let grown = anchor
                .as_ref()
                .map_or(schedule, |a| if halvings == 0 { 2.0 * a.3 } else { a.3 });
            let cap = if spread > 0.0 {
                MAX_EXPONENT / spread
            } else {
                grown
            };
            grown.max(schedule).min(cap)
        } else {
            schedule
        };
        if set.line_search {
            let a = anchor.get_or_insert_with(|| (g, Vec::new(), Vec::new(), step));
            a.0 = g;
            a.1.clone_from(&st.eta);
            a.2.clone_from(&grad);
            a.3 = step;
            halvings = 0;
            let (eta_a, grad_a) = (&a.1, &a.2);
            mirror_step(eta_a, grad_a, step, &mut st.eta);
        } else {
            let from = st.eta.clone();
            mirror_step(&from, &grad, step, &mut st.eta);
        }
        g_prev = g;
    }
    let Some((mut best, best_state)) = best else {
        // the first kernel build was stopped: the warm start as it is (`st.eta` is still
        // the sanitised warm start, and `solve_inner` left `θ` and `α` as they were)
        let mut out = evaluate_warm_start(pb, set, st, wk, eta_s, log_zeta, &zeta_pow);
        out.svm_iter = svm_iter;
        return out;
    };
    *st = best_state;
    best.md_iter = md_iter;
    best.inner_solves = inner_solves;
    best.svm_iter = svm_iter;
    best.converged = converged;
    best
}

/// [`Restricted`] at the warm start `st` without solving anything (after a stopped first
/// kernel build): `η̃`, `log ζ` and `ζ^{1/ρ̄}` as the first iteration computed them, the
/// projections and `M_w` of `st.alpha`, and `g`, `R` at them; `mkl_gap` is unknown
/// (infinite).
///
/// # Complexity
/// O(Σ_w |c_w| · T), one projection of `β`.
fn evaluate_warm_start(
    pb: &Problem,
    set: &Settings,
    st: &State,
    wk: &mut Work,
    eta_s: Vec<f64>,
    log_zeta: Vec<f64>,
    zeta_pow: &[f64],
) -> Restricted {
    let (dag, nt) = (pb.dag, pb.tasks);
    let n = dag.len();
    let mut proj = vec![0.0; n * nt];
    let mut mw = vec![0.0; n];
    beta_into(set.loss, pb.y, &st.alpha, &mut wk.beta);
    dag.project_into(&wk.beta, nt, &mut proj);
    node_m(&proj, nt, set.coupling, &mut mw);
    let a: Vec<f64> = zeta_pow.iter().zip(&mw).map(|(z, m)| z * m).collect();
    let r = pnorm(&a, set.ex.rho_bar);
    Restricted {
        eta_s,
        log_zeta,
        mw,
        proj,
        g: loss_dual(set.loss, pb.y, &st.alpha, set.cost) - 0.5 * r,
        r,
        mkl_gap: f64::INFINITY,
        aborted: true,
        ..Restricted::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A restricted solve whose first kernel build is stopped leaves the warm start as it
    /// was and returns its evaluation (the value the solve that produced it reported), and
    /// the next solve from there is the one it would have been.
    #[test]
    fn a_stopped_first_build_leaves_the_warm_start_evaluated() {
        use crate::ghkl::GhklParams;
        use graphsparse_base::{Budget, Check, RunControl, Truncation};
        // m = 400 examples: every build of this DAG polls its meter
        let (dag, _) = crate::gram::tests::large_dag();
        let m = dag.n_examples();
        let y: Vec<f64> = (0..m)
            .map(|i| if (i * 13) % 7 < 3 { 1.0 } else { -1.0 })
            .collect();
        let ones = vec![1.0; m];
        let pb = Problem {
            dag: &dag,
            y: &y,
            tasks: 1,
            weight: &ones,
        };
        let params = GhklParams::new()
            .c(1.0)
            .solver_form(SolverForm::Dual)
            .check()
            .unwrap();
        let set = params.settings(1.0);
        let new_work = || Work::new(m, 1, SolverForm::Dual, Loss::Hinge, 0.0).unwrap();
        let mut wk = new_work();
        let mut st = State::new(dag.len(), 1, m);
        let solved = solve_restricted(&pb, &set, &mut st, &mut wk, None);
        assert!(!solved.aborted && solved.md_iter > 0);
        let warm = st.clone();
        let ctl = RunControl::new();
        ctl.cancel();
        let meter = Budget::new().start(&ctl);
        let out = solve_restricted(&pb, &set, &mut st, &mut wk, Some(&meter));
        assert_eq!(meter.truncation(), Some(Truncation::Cancelled));
        assert!(out.aborted && out.md_iter == 0 && out.inner_solves == 0 && !out.converged);
        // as it was, but for the renormalisation of η on entry
        assert_eq!(
            (&st.theta, &st.alpha, &st.bias),
            (&warm.theta, &warm.alpha, &warm.bias)
        );
        assert!(
            st.eta
                .iter()
                .zip(&warm.eta)
                .all(|(a, b)| (a - b).abs() <= 1e-15 * b)
        );
        assert_eq!(out.proj, solved.proj);
        assert_eq!(out.mw, solved.mw);
        assert!((out.g - solved.g).abs() <= 1e-12 * solved.g.abs().max(1.0));
        assert!((out.r - solved.r).abs() <= 1e-12 * solved.r.abs().max(1.0));
        assert!(out.mkl_gap.is_infinite());
        // the work buffers the stopped build left behind change nothing
        let mut st_fresh = st.clone();
        let again = solve_restricted(&pb, &set, &mut st, &mut wk, None);
        let fresh = solve_restricted(&pb, &set, &mut st_fresh, &mut new_work(), None);
        assert_eq!(again, fresh);
        assert_eq!(st, st_fresh);
    }

    /// The squared loss: a ridge solve that the meter stops (the kernel of this small DAG is
    /// built before the first poll) drops its round like a stopped build, in both forms.
    #[test]
    fn a_stopped_ridge_solve_leaves_the_warm_start() {
        use crate::ghkl::GhklParams;
        use graphsparse_base::{Budget, Check, RunControl};
        let m = 150u32;
        let covers: Vec<Vec<u32>> = (0..6u32)
            .map(|v| (0..m).filter(|i| v == 0 || (i * (v + 2)) % 7 < 3).collect())
            .collect();
        let parents: Vec<Vec<u32>> = (0..6)
            .map(|v| if v == 0 { vec![] } else { vec![0] })
            .collect();
        let dag = Dag::new(m as usize, &covers, &parents, &[2.0; 6]).unwrap();
        let m = m as usize;
        let y: Vec<f64> = (0..m).map(|i| ((i * 31) % 17) as f64 / 4.0 - 2.0).collect();
        let ones = vec![1.0; m];
        let pb = Problem {
            dag: &dag,
            y: &y,
            tasks: 1,
            weight: &ones,
        };
        for form in [SolverForm::Dual, SolverForm::Primal] {
            let params = GhklParams::new()
                .loss(Loss::Squared)
                .solver_form(form)
                .check()
                .unwrap();
            let set = params.settings(1.0);
            let mut wk = Work::new(m, 1, form, Loss::Squared, 0.0).unwrap();
            let mut st = State::new(dag.len(), 1, m);
            let solved = solve_restricted(&pb, &set, &mut st, &mut wk, None);
            assert!(!solved.aborted && solved.md_iter > 0, "{form:?}");
            let warm = st.clone();
            let ctl = RunControl::new();
            ctl.cancel();
            let meter = Budget::new().start(&ctl);
            let out = solve_restricted(&pb, &set, &mut st, &mut wk, Some(&meter));
            assert!(out.aborted && out.md_iter == 0, "{form:?}");
            assert_eq!(
                (&st.theta, &st.alpha, &st.bias),
                (&warm.theta, &warm.alpha, &warm.bias)
            );
            assert_eq!(out.proj, solved.proj);
            assert!((out.g - solved.g).abs() <= 1e-12 * solved.g.abs().max(1.0));
        }
    }

    #[test]
    fn exponents_table() {
        let e = Exponents::new(1.5);
        assert!((e.rho_hat - 3.0).abs() < 1e-15 && (e.rho_bar - 1.5).abs() < 1e-15);
        let e = Exponents::new(1.1);
        assert!((e.rho_hat - 11.0 / 9.0).abs() < 1e-12 && (e.rho_bar - 5.5).abs() < 1e-12);
        let e = Exponents::new(2.0);
        assert!(e.rho_hat.is_infinite() && e.rho_bar == 1.0 && e.is_hkl());
    }

    #[test]
    fn hinge_bias_is_a_minimiser() {
        let y = [1.0, 1.0, -1.0, -1.0, 1.0, -1.0];
        let f = [0.3, 2.0, -0.5, 0.9, -1.2, -3.0];
        let mut order = Vec::new();
        let (b, l) = hinge_bias(&y, &f, &[1.0; 6], 0.0, &mut order);
        let h = |b: f64| -> f64 { (0..6).map(|i| (1.0 - y[i] * (f[i] - b)).max(0.0)).sum() };
        assert!((h(b) - l).abs() < 1e-12);
        for k in -400..400 {
            let t = k as f64 * 0.01;
            assert!(h(t) >= l - 1e-12, "h({t}) = {} < {l}", h(t));
        }
    }

    #[test]
    fn pnorm_is_scaled_and_exact() {
        assert!((pnorm(&[3.0, 4.0], 2.0) - 5.0).abs() < 1e-12);
        assert_eq!(pnorm(&[0.0], 3.0), 0.0);
        assert_eq!(pnorm(&[1.0, 7.0], f64::INFINITY), 7.0);
        let big = pnorm(&[1e200, 1e200], 5.5);
        assert!((big / 1e200 - 2f64.powf(1.0 / 5.5)).abs() < 1e-12);
    }
}
