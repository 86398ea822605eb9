//! Graph compression by optimal transport: Mirror Prox on the saddle function `Φ` (OTC).
//!
//! Relaxed problem (spec §3.3, the paper's Theorem 5 read correctly):
//! `min_{ε ∈ Ẽ_k} max_{t ∈ T_{F,c}, ζ ∈ ℝ} Φ(ε, t, ζ)` with
//! `Φ(ε, t, ζ) = −(1/2λ) Σ_v ε(v) [t(v) + ζ]₋² − tᵀρ0 − ζ` and
//! `Ẽ_k = {ε ∈ [0, 1]^n : Σ ε ≤ k}`. Writing `s_v = [−(t(v) + ζ)]₊`, the gradients are
//! `∂Φ/∂ε(v) = −s_v²/(2λ)`, `∂Φ/∂t = ρ̂1 − ρ0`, `∂Φ/∂ζ = Σ ρ̂1 − 1`, with the primal estimate
//! `ρ̂1(v) = ε(v) s_v / λ`.
//!
//! [`solve_otc`] runs Algorithm 2 (extragradient = Euclidean Mirror Prox) literally in
//! [`StepMode::Paper`]: `T + 1` iterations `ℓ = 0..T`, constant steps `α = β = γ = 0.1`,
//! `ε̂ = mean of ε̂^(ℓ), ℓ = 1..T` (the printed off-by-one kept), then rounds `ε̂` to at most
//! `k` vertices ([`round_top_k`]). [`StepMode::Stable`] caps `β, γ` at `λ/(1 + k)`, the
//! stability limit of the `(t, ζ)` block (spec §5.4); it is a deviation from the paper.
//!
//! Notation map (paper → code): `ε^(ℓ)` → `eps`, `ε̂^(ℓ)` → `eps_h`, `t^(ℓ)` → `t`,
//! `ζ^(ℓ)` → `zeta`, `α_ℓ, β_ℓ, γ_ℓ` → `alpha, beta, gamma`, `ψ_{ρ0}` → `Φ`,
//! `Proj_{Ẽ_k}` → [`graphsparse_proj::project_capped_simplex_into`], `Proj_{T_{F,c}}` →
//! [`crate::project_lipschitz_into`].
//!
//! Reference: V. K. Garg and T. Jaakkola, "Solving graph compression via optimal transport",
//! NeurIPS 2019, <https://arxiv.org/abs/1905.12158>.

use graphsparse_base::{Budget, Meter, RunControl, Truncation};

use crate::error::{OtError, Result, check_distribution};
use crate::graph::OtGraph;
use crate::lipschitz::{LipschitzOptions, LipschitzWork, ProjectionInfo, project_unchecked};
use graphsparse_base::{Check, check_at_least_one, check_finite, check_len, check_positive};

/// Step sizes of the `(t, ζ)` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StepMode {
    /// The paper's constant steps (`β = γ = 0.1` by default), unstable for `k ≳ 10`.
    #[default]
    Paper,
    /// `β, γ ← min(β, λ/(1 + k)), min(γ, λ/(1 + k))` (spec §5.4; not in the paper).
    Stable,
}

/// Unchecked OTC parameters (a builder); see [`Check::check`].
///
/// Defaults are the paper's (§4): `λ = 1`, `α = β = γ = 0.1`, `T = 25`, paper steps, the
/// exact projection onto `T_{F,c}` (Hildreth, `1e-13` / `1e-15`), no budget.
///
/// # Example
/// ```
/// use graphsparse_ot::{Check, OtcParams, StepMode};
/// let p = OtcParams::new().step_mode(StepMode::Stable).n_iter(100).check()?;
/// assert_eq!(p.steps(20), (0.1, 1.0 / 21.0, 1.0 / 21.0)); // β, γ capped at λ/(1 + k)
/// assert!(OtcParams::new().lambda(f64::NAN).check().is_err());
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OtcParams {
    lambda: f64,
    alpha: f64,
    beta: f64,
    gamma: f64,
    n_iter: usize,
    step_mode: StepMode,
    lipschitz: LipschitzOptions,
    record_trace: bool,
    budget: Budget,
}

impl Default for OtcParams {
    fn default() -> Self {
        Self::new()
    }
}

/// Validated OTC parameters, from [`OtcParams`]' [`Check::check`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OtcValidParams(OtcParams);

impl OtcParams {
    /// The paper's defaults.
    pub const fn new() -> Self {
        Self {
            lambda: 1.0,
            alpha: 0.1,
            beta: 0.1,
            gamma: 0.1,
            n_iter: 25,
            step_mode: StepMode::Paper,
            lipschitz: LipschitzOptions::new(),
            record_trace: false,
            budget: Budget::UNLIMITED,
        }
    }
    graphsparse_base::setters! {
        /// The regulariser `λ > 0` of `‖ρ1‖²`.
        lambda: f64 => lambda,
        /// The `ε` step `α > 0`.
        alpha: f64 => alpha,
        /// The `t` step `β > 0`.
        beta: f64 => beta,
        /// The `ζ` step `γ > 0`.
        gamma: f64 => gamma,
        /// `T ≥ 1`: the loop runs `ℓ = 0..=T` and averages `ℓ = 1..=T`.
        n_iter: usize => n_iter,
        /// Paper or stable steps.
        step_mode: StepMode => step_mode,
        /// Solver and tolerances of the projection onto `T_{F,c}`.
        lipschitz: LipschitzOptions => lipschitz,
        /// Keep `ζ̂^(ℓ)` and `ζ^(ℓ+1)` of every iteration in [`OtcSolution::trace`].
        record_trace: bool => record_trace,
        /// Node/time budget (one node per Mirror Prox iteration).
        budget: Budget => budget,
    }
}

impl Check for OtcParams {
    type Checked = OtcValidParams;
    type Error = OtError;

    /// Validates the parameters.
    ///
    /// # Errors
    /// [`OtError::Input`] naming the first parameter out of range: `lambda`, `alpha`, `beta`,
    /// `gamma` finite and `> 0`, `n_iter >= 1` (the average runs over `l = 1..T`), the
    /// projection's tolerances and cap.
    fn check(self) -> Result<OtcValidParams> {
        check_positive("lambda", self.lambda)?;
        check_positive("alpha", self.alpha)?;
        check_positive("beta", self.beta)?;
        check_positive("gamma", self.gamma)?;
        check_at_least_one("n_iter", self.n_iter)?;
        self.lipschitz.check()?;
        Ok(OtcValidParams(self))
    }
}

impl OtcValidParams {
    /// The parameters back as a builder.
    pub fn into_params(self) -> OtcParams {
        self.0
    }
    /// `λ`.
    pub fn lambda(&self) -> f64 {
        self.0.lambda
    }
    /// The budget.
    pub fn budget(&self) -> Budget {
        self.0.budget
    }
    /// `(α, β, γ)` used for budget `k` (after the stable-mode cap).
    pub fn steps(&self, k: usize) -> (f64, f64, f64) {
        let p = &self.0;
        match p.step_mode {
            StepMode::Paper => (p.alpha, p.beta, p.gamma),
            StepMode::Stable => {
                let cap = p.lambda / (1.0 + k as f64);
                (p.alpha, p.beta.min(cap), p.gamma.min(cap))
            }
        }
    }
}

/// The iterates of one run, per iteration `ℓ = 0..=T` (when asked for).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OtcTrace {
    /// `ζ̂^(ℓ)`, the extrapolated `ζ`.
    pub zeta_hat: Vec<f64>,
    /// `ζ^(ℓ+1)`.
    pub zeta: Vec<f64>,
}

/// The result of compressing one graph.
#[derive(Debug, Clone, PartialEq)]
pub struct OtcSolution {
    /// The kept vertices `S` (sorted, `|S| ≤ k`).
    pub vertices: Vec<u32>,
    /// The averaged relaxation `ε̂ ∈ Ẽ_k`.
    pub eps_hat: Vec<f64>,
    /// The averaged potentials `t̄` (same window as `ε̂`).
    pub t_bar: Vec<f64>,
    /// The averaged multiplier `ζ̄`.
    pub zeta_bar: f64,
    /// The primal estimate `ρ̂1 = ε̂ ⊙ [−(t̄ + ζ̄)]₊ / λ`.
    pub rho1_hat: Vec<f64>,
    /// Mirror Prox iterations made (`T + 1` unless cut short; 0 when `k ≥ n`).
    pub n_iter: usize,
    /// Whether every projection onto `T_{F,c}` met its tolerances.
    pub projections_converged: bool,
    /// Most sweeps one projection took.
    pub max_projection_iterations: usize,
    /// The per-iteration trace (empty unless `record_trace`).
    pub trace: OtcTrace,
    /// Why the run stopped early, if it did (the result then averages the iterations made).
    pub truncation: Option<Truncation>,
}

/// Buffers of one Mirror Prox run, reused across graphs.
#[derive(Debug, Clone, Default)]
pub struct OtcWorkspace {
    eps: Vec<f64>,
    eps_h: Vec<f64>,
    t: Vec<f64>,
    t_h: Vec<f64>,
    ge: Vec<f64>,
    gt: Vec<f64>,
    y: Vec<f64>,
    mu: Vec<f64>,
    mu_h: Vec<f64>,
    acc_e: Vec<f64>,
    acc_t: Vec<f64>,
    lip: LipschitzWork,
}

impl OtcWorkspace {
    fn reset(&mut self, n: usize, m: usize) {
        for v in [
            &mut self.eps,
            &mut self.eps_h,
            &mut self.t,
            &mut self.t_h,
            &mut self.ge,
            &mut self.gt,
            &mut self.y,
            &mut self.acc_e,
            &mut self.acc_t,
        ] {
            v.clear();
            v.resize(n, 0.0);
        }
        for v in [&mut self.mu, &mut self.mu_h] {
            v.clear();
            v.resize(m, 0.0);
        }
    }
}

/// Where a projected step of Mirror Prox writes: the midpoint `(ε̂, t̂)` (with its
/// multipliers `μ̂`) or the next point `(ε, t)` (with `μ`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum StepInto {
    Midpoint,
    Next,
}

impl OtcWorkspace {
    /// The projected step from the current point `(ε, t)` along the gradient in `ge`, `gt`:
    /// `Π_cap(ε − α ∇_ε)` and `Π_Lip(t + β ∇_t)` (warm-started from the target's `μ`).
    ///
    /// # Errors
    /// The capped-simplex projection's error (a non-finite input: an overflow).
    fn step(
        &mut self,
        g: &OtGraph,
        lip: &LipschitzOptions,
        (alpha, beta, k): (f64, f64, f64),
        into: StepInto,
    ) -> std::result::Result<ProjectionInfo, graphsparse_proj::ProjError> {
        let n = self.eps.len();
        for v in 0..n {
            self.y[v] = self.eps[v] - alpha * self.ge[v];
        }
        let eps = match into {
            StepInto::Midpoint => &mut self.eps_h,
            StepInto::Next => &mut self.eps,
        };
        graphsparse_proj::project_capped_simplex_into(&self.y, k, eps)?;
        for v in 0..n {
            self.y[v] = self.t[v] + beta * self.gt[v];
        }
        let (mu, t) = match into {
            StepInto::Midpoint => (&mut self.mu_h, &mut self.t_h),
            StepInto::Next => (&mut self.mu, &mut self.t),
        };
        Ok(project_unchecked(g, &self.y, mu, t, lip, &mut self.lip))
    }
}

/// Checks that the per-vertex inputs of [`grad_phi`] and [`phi`] agree and are finite.
fn check_phi_inputs(eps: &[f64], t: &[f64], zeta: f64, rho0: &[f64], lambda: f64) -> Result<()> {
    check_len("t", t.len(), eps.len())?;
    check_len("rho0", rho0.len(), eps.len())?;
    check_finite("eps", eps)?;
    check_finite("t", t)?;
    check_finite("rho0", rho0)?;
    check_finite("zeta", &[zeta])?;
    check_positive("lambda", lambda)?;
    Ok(())
}

/// The gradient of `Φ` at `(ε, t, ζ)` (spec §3.5).
///
/// With `s_v = [−(t(v) + ζ)]₊` and `ρ̂1(v) = ε(v) s_v / λ`: `∂Φ/∂ε(v) = −s_v²/(2λ)`,
/// `∂Φ/∂t(v) = ρ̂1(v) − ρ0(v)`, `∂Φ/∂ζ = Σ ρ̂1 − 1`.
///
/// # Arguments
/// * `eps`, `t`, `zeta` – the point (finite; `eps` and `t` one value per vertex).
/// * `rho0` – the prior; `lambda` – `λ > 0`.
/// * `ge`, `gt` – outputs for `∂_ε Φ` and `∂_t Φ`, one slot per vertex.
///
/// # Returns
/// `∂Φ/∂ζ = Σ ρ̂1 − 1`.
///
/// # Errors
/// [`crate::OtError::Input`] for inputs or outputs of different lengths, a non-finite entry
/// or a bad `λ`.
///
/// # Complexity
/// O(n), no allocation.
///
/// # Example
/// ```
/// let (mut ge, mut gt) = ([0.0; 3], [0.0; 3]);
/// let rho0 = [0.25, 0.5, 0.25];
/// let gz = graphsparse_ot::grad_phi(&[2.0 / 3.0; 3], &[0.0; 3], 0.0, &rho0, 1.0, &mut ge, &mut gt)?;
/// // the start point of Algorithm 2: no signal, so ∇_ε Φ = 0, ∇_t Φ = −ρ0, ∇_ζ Φ = −1
/// assert_eq!((ge, gt, gz), ([0.0; 3], [-0.25, -0.5, -0.25], -1.0));
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn grad_phi(
    eps: &[f64],
    t: &[f64],
    zeta: f64,
    rho0: &[f64],
    lambda: f64,
    ge: &mut [f64],
    gt: &mut [f64],
) -> Result<f64> {
    check_phi_inputs(eps, t, zeta, rho0, lambda)?;
    check_len("ge", ge.len(), eps.len())?;
    check_len("gt", gt.len(), eps.len())?;
    Ok(grad_phi_unchecked(eps, t, zeta, rho0, lambda, ge, gt))
}

/// [`grad_phi`] on inputs the caller guarantees.
pub(crate) fn grad_phi_unchecked(
    eps: &[f64],
    t: &[f64],
    zeta: f64,
    rho0: &[f64],
    lambda: f64,
    ge: &mut [f64],
    gt: &mut [f64],
) -> f64 {
    let mut total = 0.0;
    for v in 0..eps.len() {
        let s = (-(t[v] + zeta)).max(0.0);
        ge[v] = -s * s / (2.0 * lambda);
        let r = eps[v] * s / lambda;
        gt[v] = r - rho0[v];
        total += r;
    }
    total - 1.0
}

/// The saddle function `Φ(ε, t, ζ) = −(1/2λ) Σ ε(v)[t(v) + ζ]₋² − tᵀρ0 − ζ` (spec §3.3; the
/// paper's `ψ_{ρ0}` of Theorem 5 in its bounded reading).
///
/// # Arguments
/// * `eps`, `t`, `zeta` – the point (finite; `eps` and `t` one value per vertex).
/// * `rho0` – the prior; `lambda` – `λ > 0`.
///
/// # Returns
/// `Φ(ε, t, ζ)`. For `ε = 1_S` its maximum over `t ∈ T_{F,c}`, `ζ ∈ ℝ` is the value `V(1_S)`
/// of problem (3) ([`crate::inner_value`]).
///
/// # Errors
/// As [`grad_phi`].
///
/// # Complexity
/// O(n).
///
/// # Example
/// ```
/// // invariance under (t + a1, ζ − a)
/// let (eps, rho0) = ([0.5, 1.0], [0.4, 0.6]);
/// let a = graphsparse_ot::phi(&eps, &[0.1, -0.3], -0.2, &rho0, 1.0)?;
/// let b = graphsparse_ot::phi(&eps, &[0.6, 0.2], -0.7, &rho0, 1.0)?;
/// assert!((a - b).abs() < 1e-15);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn phi(eps: &[f64], t: &[f64], zeta: f64, rho0: &[f64], lambda: f64) -> Result<f64> {
    check_phi_inputs(eps, t, zeta, rho0, lambda)?;
    Ok(phi_unchecked(eps, t, zeta, rho0, lambda))
}

/// [`phi`] on inputs the caller guarantees.
pub(crate) fn phi_unchecked(eps: &[f64], t: &[f64], zeta: f64, rho0: &[f64], lambda: f64) -> f64 {
    let mut quad = 0.0;
    let mut lin = 0.0;
    for v in 0..eps.len() {
        let s = (-(t[v] + zeta)).max(0.0);
        quad += eps[v] * s * s;
        lin += t[v] * rho0[v];
    }
    -quad / (2.0 * lambda) - lin - zeta
}

/// Rounds `ε̂` to at most `k` vertices (spec §6.1).
///
/// If every `ε̂(v)` is within `1e-9` of 0 or 1, `S = {v : ε̂(v) ≥ ½}`. Otherwise `S` is the
/// first `min(k, n)` vertices in the order of the key `(−round(10¹⁰ ε̂(v)), −ρ0(v), v)`:
/// largest `ε̂` first, values equal after rounding to `10⁻¹⁰` tied, ties to the larger prior,
/// then to the smaller index. The quantisation makes the result independent of summation order.
///
/// # Arguments
/// * `eps_hat` – the relaxed indicator, finite (normally a point of `Ẽ_k`).
/// * `rho0` – the prior (the first tie-break), one value per vertex.
/// * `k` – the budget.
///
/// # Returns
/// The kept vertices, sorted. At most `k` of them whenever `Σ ε̂ ≤ k` (always for Mirror
/// Prox output).
///
/// # Errors
/// [`crate::OtError::Input`] for a length or a non-finite entry.
///
/// # Complexity
/// O(n log n).
///
/// # Example
/// ```
/// // G2 of the specification: vertices 1–4 are tied, the index decides
/// let eps = [0.503817791798, 0.499980017401, 0.499980017401, 0.499980017401, 0.499980017401, 0.496262138596];
/// let rho0 = [3.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, 1.0 / 12.0];
/// assert_eq!(graphsparse_ot::round_top_k(&eps, &rho0, 3)?, vec![0, 1, 2]);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn round_top_k(eps_hat: &[f64], rho0: &[f64], k: usize) -> Result<Vec<u32>> {
    check_len("rho0", rho0.len(), eps_hat.len())?;
    check_finite("eps_hat", eps_hat)?;
    check_finite("rho0", rho0)?;
    Ok(round_unchecked(eps_hat, rho0, k))
}

/// [`round_top_k`] on inputs the caller guarantees.
pub(crate) fn round_unchecked(eps_hat: &[f64], rho0: &[f64], k: usize) -> Vec<u32> {
    let n = eps_hat.len();
    if eps_hat
        .iter()
        .all(|&e| e.abs() <= 1e-9 || (e - 1.0).abs() <= 1e-9)
    {
        return (0..n as u32)
            .filter(|&v| eps_hat[v as usize] >= 0.5)
            .collect();
    }
    let key = |v: usize| (eps_hat[v] * 1e10).round() as i64;
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        key(b)
            .cmp(&key(a))
            .then(rho0[b].total_cmp(&rho0[a]))
            .then(a.cmp(&b))
    });
    order.truncate(k.min(n));
    order.sort_unstable();
    order
}

/// Validates one graph's inputs for [`solve_otc`].
pub(crate) fn check_inputs(g: &OtGraph, rho0: &[f64], k: usize) -> Result<()> {
    check_len("rho0", rho0.len(), g.n_vertices())?;
    if g.n_vertices() > 0 {
        check_distribution("rho0", rho0)?;
    }
    check_at_least_one("k", k)?;
    Ok(())
}

/// Compresses one graph to at most `k` vertices by OTC (Algorithm 2, then rounding).
///
/// # Arguments
/// * `g` – the graph with its edge costs (`c = 0.01` for equal endpoint labels and `0.02`
///   otherwise in the paper; see [`crate::CostRule`]).
/// * `rho0` – the prior, a probability vector (the paper's is [`crate::degree_prior`]).
/// * `k` – the budget, `≥ 1`; `k ≥ n` returns every vertex without iterating.
/// * `params` – checked parameters.
/// * `ctl` – cancellation and progress (one iteration counted per Mirror Prox step).
///
/// # Returns
/// An [`OtcSolution`]: the kept vertices and the diagnostics (`ε̂`, `t̄`, `ζ̄`, `ρ̂1`).
///
/// # Errors
/// [`crate::OtError::Input`] or [`crate::OtError::NotNormalized`] for a bad prior or `k = 0`.
///
/// # Complexity
/// O(T (n + m · I)) time with `I` the sweeps per projection (a few, warm-started), O(n + m)
/// memory. Never dense.
///
/// # Example
/// The golden graph G1 of the specification (path C–C–N):
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_ot::{Check, OtGraph, OtcParams, solve_otc};
/// let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02])?;
/// let sol = solve_otc(&g, &[0.25, 0.5, 0.25], 2, &OtcParams::new().check()?, &RunControl::new())?;
/// assert_eq!(sol.vertices, vec![0, 1]);
/// assert!((sol.eps_hat[1] - 0.672028386167).abs() < 1e-9);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn solve_otc(
    g: &OtGraph,
    rho0: &[f64],
    k: usize,
    params: &OtcValidParams,
    ctl: &RunControl,
) -> Result<OtcSolution> {
    check_inputs(g, rho0, k)?;
    let meter = params.0.budget.start(ctl);
    let mut ws = OtcWorkspace::default();
    solve_unchecked(g, rho0, k, params, &meter, &mut ws)
}

/// [`solve_otc`] on validated inputs with a caller's meter and workspace.
///
/// # Errors
/// [`crate::OtError::Diverged`] when an iterate stops being finite (steps far too large for
/// `λ`, or `λ` so small that `1/λ` overflows): valid parameters, but no usable result.
pub(crate) fn solve_unchecked(
    g: &OtGraph,
    rho0: &[f64],
    k: usize,
    params: &OtcValidParams,
    meter: &Meter<'_>,
    ws: &mut OtcWorkspace,
) -> Result<OtcSolution> {
    let p = &params.0;
    let (n, m) = (g.n_vertices(), g.n_edges());
    let lambda = p.lambda;
    if k >= n {
        return Ok(OtcSolution::everything(n, rho0));
    }
    let (alpha, beta, gamma) = params.steps(k);
    let kf = k as f64;
    ws.reset(n, m);
    ws.eps.fill(kf / n as f64);
    let mut zeta = 0.0_f64;
    let (mut acc_z, mut wsum) = (0.0_f64, 0.0_f64);
    let mut trace = OtcTrace::default();
    let mut conv = true;
    let mut max_pi = 0usize;
    let mut n_done = 0usize;
    let mut truncation = None;
    let diverged = |iteration: usize| crate::OtError::Diverged {
        iteration,
        lambda,
        alpha,
        beta,
        gamma,
    };
    // the capped projection rejects only non-finite input (k >= 1 is checked): an overflow.
    // An overflow on the t side shows in the averages, checked once after the loop, so that
    // the iterations pay for no scan of their own
    let mut step = |ws: &mut OtcWorkspace, into: StepInto, l: usize| {
        let info = ws
            .step(g, &p.lipschitz, (alpha, beta, kf), into)
            .map_err(|_| diverged(l))?;
        conv &= info.converged;
        max_pi = max_pi.max(info.iterations);
        Ok::<(), crate::OtError>(())
    };
    for l in 0..=p.n_iter {
        if !meter.claim_node() {
            truncation = meter.truncation();
            break;
        }
        // gradient step from the current point
        let gz = grad_phi_unchecked(&ws.eps, &ws.t, zeta, rho0, lambda, &mut ws.ge, &mut ws.gt);
        step(ws, StepInto::Midpoint, l)?;
        let zeta_h = zeta + gamma * gz;
        // extra-gradient step, again from the current point
        let gz2 = grad_phi_unchecked(
            &ws.eps_h, &ws.t_h, zeta_h, rho0, lambda, &mut ws.ge, &mut ws.gt,
        );
        step(ws, StepInto::Next, l)?;
        zeta += gamma * gz2;
        if l >= 1 {
            for v in 0..n {
                ws.acc_e[v] += alpha * ws.eps_h[v];
                ws.acc_t[v] += alpha * ws.t_h[v];
            }
            acc_z += alpha * zeta_h;
            wsum += alpha;
        }
        if p.record_trace {
            trace.zeta_hat.push(zeta_h);
            trace.zeta.push(zeta);
        }
        n_done = l + 1;
        meter.control().progress().add_iteration();
    }
    let (eps_hat, t_bar, zeta_bar) = if wsum > 0.0 {
        (
            ws.acc_e.iter().map(|x| x / wsum).collect::<Vec<_>>(),
            ws.acc_t.iter().map(|x| x / wsum).collect::<Vec<_>>(),
            acc_z / wsum,
        )
    } else {
        (ws.eps.clone(), ws.t.clone(), zeta)
    };
    let rho1_hat = eps_hat
        .iter()
        .zip(&t_bar)
        .map(|(&e, &t)| e * (-(t + zeta_bar)).max(0.0) / lambda)
        .collect::<Vec<f64>>();
    let all_finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
    if !(zeta_bar.is_finite() && all_finite(&t_bar) && all_finite(&rho1_hat)) {
        return Err(diverged(n_done));
    }
    Ok(OtcSolution {
        vertices: round_unchecked(&eps_hat, rho0, k),
        eps_hat,
        t_bar,
        zeta_bar,
        rho1_hat,
        n_iter: n_done,
        projections_converged: conv,
        max_projection_iterations: max_pi,
        trace,
        truncation,
    })
}

impl OtcSolution {
    /// The solution for `k ≥ n`: all `n` vertices kept, no iteration.
    fn everything(n: usize, rho0: &[f64]) -> Self {
        Self {
            vertices: (0..n as u32).collect(),
            eps_hat: vec![1.0; n],
            t_bar: vec![0.0; n],
            zeta_bar: 0.0,
            rho1_hat: rho0.to_vec(),
            n_iter: 0,
            projections_converged: true,
            max_projection_iterations: 0,
            trace: OtcTrace::default(),
            truncation: None,
        }
    }
}

impl From<OtcValidParams> for OtcParams {
    fn from(p: OtcValidParams) -> Self {
        p.0
    }
}
