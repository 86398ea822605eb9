//! The entry points: a fit, a warm-started path over `C`, and the restricted problem on a
//! fixed DAG with its dual objective (for checks).

use graphsparse_base::{Budget, Loss, RunControl, Truncation, check_len};
use rustc_hash::FxHashMap;

use super::certificate::certificate;
use super::fitter::{Fitter, start_meters};
use super::model::GhklFit;
use super::params::{GhklValidParams, check_targets};
use crate::dag::Dag;
use crate::error::{Result, bad_input, bad_param};
use crate::props::PropositionMatrix;
use crate::solver::{
    Problem, State, Work, gradient_into, log_zeta_into, node_m, solve_inner, solve_restricted,
};

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
/// the dense `m × m` effective kernel of the dual form cannot be allocated (under
/// [`SolverForm::Auto`](crate::SolverForm::Auto) the fit then takes the primal form when it
/// can).
///
/// # Complexity
/// For the hinge loss, rows with the same propositions and labels are first merged into one
/// weighted example (exact; `m` below is then the number of distinct rows, and
/// [`GhklFit::dual_coef`] still has one value per original row).
/// Per active-set round: `O(log |W|)` mirror-descent steps, each an inner MKL solve of
/// `O(Σ_w |c_w|² + SMO)`; candidate scoring `O(Σ_u |c_u|² · T)` over `sources(Wᶜ)` (about
/// `|W| · p` nodes). Memory: `O(m²)` for the effective kernel in the dual form, `O(nnz)` of the
/// cover classes in the primal form ([`GhklParams::solver_form`](crate::GhklParams)), plus the
/// kernel cache budget.
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
    let merged = merge_rows(params, x, y, tasks)?;
    let (xm, ym, wm) = merged.as_ref().map_or_else(
        || (x, y, vec![1.0; x.n_examples()]),
        |g| (&g.x, &g.y[..], g.weight.clone()),
    );
    let mut f = Fitter::new(params, xm, ym, tasks, wm)?;
    let meters = start_meters(params, ctl);
    let mut out = f.run(params.0.c, &meters);
    if let Some(g) = &merged {
        g.expand_alpha(&mut out, tasks);
    }
    Ok(out)
}

/// The training rows merged into one weighted example per distinct (proposition pattern,
/// labels) pair, for the hinge loss.
///
/// Rows with the same propositions are the same point for every lattice kernel, so rows that
/// also share their labels have the same margin in every model: `k` of them are one example of
/// weight `k` (box `[0, C k]` in the SVM dual, loss `k · ξ` in the primal), an exact reduction
/// of the problem, certificate included. With few cut points (`cut_rule="tree"`) thousands of
/// rows fall into tens of patterns, and the dense `m × m` kernel, the SVM and the candidate
/// scores, all quadratic in the rows, shrink with it. The squared loss is left unmerged.
struct Merged {
    x: PropositionMatrix,
    y: Vec<f64>,
    weight: Vec<f64>,
    /// The merged example of each original row.
    group: Vec<u32>,
}

impl Merged {
    /// Rewrites the fit's dual variables on the original rows: a merged `α_g` is split evenly
    /// over its rows (a feasible dual point with the same value).
    fn expand_alpha(&self, fit: &mut GhklFit, tasks: usize) {
        let (m, mc) = (self.group.len(), self.weight.len());
        let ac = &fit.warm.state.alpha;
        let mut a = vec![0.0; tasks * m];
        for t in 0..tasks {
            for (i, &g) in self.group.iter().enumerate() {
                let g = g as usize;
                a[t * m + i] = ac[t * mc + g] / self.weight[g];
            }
        }
        fit.warm.state.alpha = a;
    }
}

/// [`Merged`] rows of `x` and `y`, or `None` when the loss is not the hinge or no two rows
/// merge. Targets are checked first, so bad ones report as without merging.
fn merge_rows(
    params: &GhklValidParams,
    x: &PropositionMatrix,
    y: &[f64],
    tasks: usize,
) -> Result<Option<Merged>> {
    let m = x.n_examples();
    check_targets(params.0.loss, y, tasks, m)?;
    if params.0.loss != Loss::Hinge {
        return Ok(None);
    }
    let mut index: FxHashMap<(&[u64], Vec<u64>), u32> = FxHashMap::default();
    let mut group = Vec::with_capacity(m);
    let mut reps: Vec<usize> = Vec::new();
    for i in 0..m {
        let labels: Vec<u64> = (0..tasks).map(|t| y[t * m + i].to_bits()).collect();
        let next = reps.len() as u32;
        let g = *index.entry((x.example_bits(i), labels)).or_insert(next);
        if g == next {
            reps.push(i);
        }
        group.push(g);
    }
    let mc = reps.len();
    if mc == m {
        return Ok(None);
    }
    let mut weight = vec![0.0; mc];
    for &g in &group {
        weight[g as usize] += 1.0;
    }
    let covers: Vec<Vec<u32>> = (0..x.n_props())
        .map(|j| {
            (0..mc as u32)
                .filter(|&g| x.get(reps[g as usize], j) == Some(true))
                .collect()
        })
        .collect();
    let xc = PropositionMatrix::from_covers(mc, &covers)?;
    let yc = (0..tasks)
        .flat_map(|t| reps.iter().map(move |&i| y[t * m + i]))
        .collect();
    Ok(Some(Merged {
        x: xc,
        y: yc,
        weight,
        group,
    }))
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
    let merged = merge_rows(params, x, y, tasks)?;
    let (xm, ym, wm) = merged.as_ref().map_or_else(
        || (x, y, vec![1.0; x.n_examples()]),
        |g| (&g.x, &g.y[..], g.weight.clone()),
    );
    let mut f = Fitter::new(params, xm, ym, tasks, wm)?;
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
    if let Some(g) = &merged {
        for fit in &mut out {
            g.expand_alpha(fit, tasks);
        }
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
    let ones = vec![1.0; m];
    let pb = Problem {
        dag,
        y,
        tasks,
        weight: &ones,
    };
    let mut st = State::new(dag.len(), tasks, m);
    let mut wk = Work::new(m, tasks, set.form, set.loss, set.coupling)?;
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
    let ones = vec![1.0; m];
    let pb = Problem {
        dag,
        y,
        tasks,
        weight: &ones,
    };
    let n = dag.len();
    let mut st = State::new(n, tasks, m);
    let mut wk = Work::new(m, tasks, set.form, set.loss, set.coupling)?;
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
