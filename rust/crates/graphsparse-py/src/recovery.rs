//! Convex graph-structured recovery (`graphsparse.recovery`): model (6) of Kuroda & Kitahara
//! and its `λ` path, the lasso and latent group lasso baselines, Graph-IHT / Graph-CoSaMP, the
//! perspective prox, the penalty and `λ_max`.
//!
//! The design `L` (the Python argument `X`) arrives as a C-contiguous 2-D float64 array or as
//! the CSR triple `(indptr, indices, data)` with its shape; everything else as arrays and one
//! dict of parameters. Results leave as typed objects ([`RecoveryFit`], [`RecoveryPathFit`],
//! [`IhtFit`]); a solve's final iterates leave as an opaque [`RecoveryState`] that a later
//! solve takes back as its warm start. Ranges are the core's to check.

use graphsparse::base::{Budget, InputError};
use graphsparse::graph::WeightedGraphError;
use graphsparse::recovery::{
    ANDERSON_MEMORY, Check, CsrOperator, DenseMatrix, HistoryEntry, IhtMethod, IhtParams,
    LatentGroups, LinearOperator, Loss, Model, PenaltyForm, Recovery, RecoveryError,
    RecoveryParams, Solver, WarmStart, WeightedGraph, lambda_max, penalty, prox_perspective_into,
};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::convert::{
    Count, NodeBudget, PyGsErr, Real, Seconds, bad_param, edge_list, extract_params, ids_array,
};
use crate::threads::{Exec, run, threads};

type Arr<'py> = Bound<'py, PyArray1<f64>>;

/// The design matrix, borrowed from NumPy arrays.
enum Design<'py> {
    Dense(PyReadonlyArray2<'py, f64>),
    Csr {
        indptr: PyReadonlyArray1<'py, i64>,
        indices: PyReadonlyArray1<'py, i64>,
        data: PyReadonlyArray1<'py, f64>,
        shape: (usize, usize),
    },
}

impl<'py> Design<'py> {
    fn extract(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(a) = obj.extract::<PyReadonlyArray2<'py, f64>>() {
            return Ok(Design::Dense(a));
        }
        type Parts<'py> = (
            PyReadonlyArray1<'py, i64>,
            PyReadonlyArray1<'py, i64>,
            PyReadonlyArray1<'py, f64>,
            (usize, usize),
        );
        let (indptr, indices, data, shape) = obj.extract::<Parts<'py>>().map_err(|_| {
            bad_param(
                "X must be a 2-D float64 array or a CSR triple (indptr, indices, data, shape)",
            )
        })?;
        Ok(Design::Csr {
            indptr,
            indices,
            data,
            shape,
        })
    }

    /// Calls `f` with the validated core operator.
    ///
    /// The core validates the operator (finite entries included) once, here; a non-finite
    /// entry is reported under the Python name `X` (the core's name is `L`, or `data` for the
    /// CSR arrays), with its position.
    fn with<T>(&self, f: impl FnOnce(&dyn LinearOperator) -> PyResult<T>) -> PyResult<T> {
        match self {
            Design::Dense(a) => {
                let shape = a.shape();
                let op = DenseMatrix::new(a.as_slice()?, shape[0], shape[1])
                    .map_err(|e| design_error(e, Some(shape[1])))?;
                f(&op)
            }
            Design::Csr {
                indptr,
                indices,
                data,
                shape,
            } => {
                let op = CsrOperator::new(
                    indptr.as_slice()?,
                    indices.as_slice()?,
                    data.as_slice()?,
                    shape.0,
                    shape.1,
                )
                .map_err(|e| design_error(e, None))?;
                f(&op)
            }
        }
    }
}

/// A design that does not validate, as the Python exception naming `X`: a non-finite entry
/// by row and column (`n_cols` given: dense) or by stored entry (CSR).
fn design_error(err: RecoveryError, n_cols: Option<usize>) -> PyErr {
    let non_finite = match &err {
        RecoveryError::Input(InputError::NotFinite { index, value, .. })
        | RecoveryError::Graph(WeightedGraphError::Input(InputError::NotFinite {
            index,
            value,
            ..
        })) => Some((*index, f64::from_bits(*value))),
        _ => None,
    };
    match (non_finite, n_cols) {
        (Some((k, v)), Some(cols)) if cols > 0 => bad_param(format!(
            "X contains a non-finite value ({v}) at row {}, column {}",
            k / cols,
            k % cols
        )),
        (Some((k, v)), _) => bad_param(format!(
            "X contains a non-finite value ({v}) at stored entry {k} (X.data[{k}])"
        )),
        (None, _) => PyGsErr::from(err).into(),
    }
}

fn loss(name: &str) -> PyResult<Loss> {
    match name {
        "squared" => Ok(Loss::Squared),
        "absolute" => Ok(Loss::Absolute),
        "logistic" => Ok(Loss::Logistic),
        "hinge" => Ok(Loss::Hinge),
        _ => Err(bad_param(format!(
            "loss must be one of 'squared', 'absolute', 'logistic', 'hinge', got {name:?}"
        ))),
    }
}

/// The solver settings of one solve and of a path (all but `lambda_`), as a dict of Python
/// values.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SolverArgs {
    alpha: Real,
    loss: String,
    penalty_form: String,
    solver: String,
    gamma: Option<Real>,
    tol: Real,
    max_iter: Count,
    check_every: Count,
    op_norm: Option<Real>,
    diff_norm: Option<Real>,
    step_ratio: Real,
    max_nodes: Option<NodeBudget>,
    time_limit: Seconds,
}

/// `λ` of one solve, read from the same dict as its [`SolverArgs`] (a path takes its `λ`
/// values as an array instead).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct LambdaArg {
    lambda_: Real,
}

impl SolverArgs {
    fn params(&self, lam: f64) -> PyResult<RecoveryParams> {
        let form = match self.penalty_form.as_str() {
            "budget" => PenaltyForm::Budget,
            "lagrangian" => PenaltyForm::Lagrangian,
            other => {
                return Err(bad_param(format!(
                    "penalty_form must be 'budget' or 'lagrangian', got {other:?}"
                )));
            }
        };
        let solver = match self.solver.as_str() {
            "auto" => Solver::Auto,
            "anderson" => Solver::Anderson {
                memory: ANDERSON_MEMORY,
            },
            "pdhg" => Solver::Pdhg { adaptive: true },
            "pdhg-fixed" => Solver::Pdhg { adaptive: false },
            "kk" => Solver::KurodaKitahara {
                gamma: self.gamma.map(|g| g.0),
            },
            "ssnal" => Solver::Ssnal,
            other => {
                return Err(bad_param(format!(
                    "solver must be 'auto', 'anderson', 'ssnal', 'pdhg', 'pdhg-fixed' or 'kk', got {other:?}"
                )));
            }
        };
        Ok(RecoveryParams::new(lam, self.alpha.0)
            .loss(loss(&self.loss)?)
            .penalty_form(form)
            .solver(solver)
            .tol(self.tol.0)
            .max_iter(self.max_iter.usize())
            .check_every(self.check_every.usize())
            .op_norm(self.op_norm.map(|r| r.0))
            .diff_norm(self.diff_norm.map(|r| r.0))
            .step_ratio(self.step_ratio.0)
            .budget(
                Budget::new()
                    .max_nodes(self.max_nodes.map(|b| b.0))
                    .time_limit(self.time_limit.0),
            ))
    }
}

fn graph(
    n: usize,
    edges: &PyReadonlyArray2<'_, i64>,
    weights: Option<&PyReadonlyArray1<'_, f64>>,
) -> PyResult<WeightedGraph> {
    let pairs = edge_list(edges)?;
    let w = match weights {
        Some(w) => Some(w.as_slice()?),
        None => None,
    };
    Ok(WeightedGraph::new(n, &pairs, w).map_err(PyGsErr::from)?)
}

/// The final iterates and steps of a solve (the core's `WarmStart`), opaque: a later
/// `recovery_solve` on a problem of the same shape takes it back as `warm`. It pickles (the
/// estimators keep it for `warm_start`).
#[pyclass(frozen, module = "graphsparse._graphsparse")]
struct RecoveryState(WarmStart);

type StateParts<'py> = (
    Arr<'py>,
    Arr<'py>,
    Arr<'py>,
    Arr<'py>,
    Arr<'py>,
    Arr<'py>,
    f64,
    f64,
);

#[pymethods]
impl RecoveryState {
    /// The state from its parts, in the order of `__reduce__` (for unpickling).
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        x: PyReadonlyArray1<'_, f64>,
        sigma: PyReadonlyArray1<'_, f64>,
        dual_data: PyReadonlyArray1<'_, f64>,
        dual_graph: PyReadonlyArray1<'_, f64>,
        aux_data: PyReadonlyArray1<'_, f64>,
        aux_graph: PyReadonlyArray1<'_, f64>,
        tau: f64,
        adapt: f64,
    ) -> PyResult<Self> {
        Ok(Self(WarmStart {
            x: x.to_vec()?,
            sigma: sigma.to_vec()?,
            dual_data: dual_data.to_vec()?,
            dual_graph: dual_graph.to_vec()?,
            aux_data: aux_data.to_vec()?,
            aux_graph: aux_graph.to_vec()?,
            tau,
            adapt,
        }))
    }

    /// The same iterates and steps with the step adaptation restarted: the warm start of a
    /// changed problem (a new `λ` or `α`; see the core's `WarmStart::adapt`).
    fn restarted(&self) -> Self {
        Self(WarmStart {
            adapt: 0.0,
            ..self.0.clone()
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, StateParts<'py>)> {
        let py = slf.py();
        let s = &slf.get().0;
        let a = |v: &[f64]| PyArray1::from_slice(py, v);
        Ok((
            slf.get_type(),
            (
                a(&s.x),
                a(&s.sigma),
                a(&s.dual_data),
                a(&s.dual_graph),
                a(&s.aux_data),
                a(&s.aux_graph),
                s.tau,
                s.adapt,
            ),
        ))
    }
}

/// One column of numbers as an owned NumPy array.
fn column<T: numpy::Element>(py: Python<'_>, values: impl Iterator<Item = T>) -> Py<PyArray1<T>> {
    values.collect::<Vec<_>>().into_pyarray(py).unbind()
}

/// The convergence checks of a solve, one entry per check (the core's `HistoryEntry`, by
/// column).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct RecoveryHistory {
    /// Iterations done at the check, int64.
    iteration: Py<PyArray1<i64>>,
    /// The objective at the feasible primal point.
    primal: Py<PyArray1<f64>>,
    /// The dual objective at the feasible dual point.
    dual: Py<PyArray1<f64>>,
    /// The relative duality gap.
    gap: Py<PyArray1<f64>>,
    /// The norm of the primal residual.
    primal_residual: Py<PyArray1<f64>>,
    /// The norm of the dual residual.
    dual_residual: Py<PyArray1<f64>>,
    /// `max(0, ‖W D σ‖₁ − α)` of the iterate (graph model; 0 otherwise).
    infeasibility: Py<PyArray1<f64>>,
}

impl RecoveryHistory {
    fn new(py: Python<'_>, h: &[HistoryEntry]) -> Self {
        Self {
            iteration: column(py, h.iter().map(|e| e.iteration as i64)),
            primal: column(py, h.iter().map(|e| e.primal)),
            dual: column(py, h.iter().map(|e| e.dual)),
            gap: column(py, h.iter().map(|e| e.gap)),
            primal_residual: column(py, h.iter().map(|e| e.primal_residual)),
            dual_residual: column(py, h.iter().map(|e| e.dual_residual)),
            infeasibility: column(py, h.iter().map(|e| e.infeasibility)),
        }
    }
}

/// How often a solve applied each operator (the core's `OpCounts`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct OpCounts {
    /// Products `L x`.
    forward: u64,
    /// Products `Lᵀ v`.
    adjoint: u64,
    /// Products `W D σ`.
    diff: u64,
    /// Products `Dᵀ W v`.
    diff_adjoint: u64,
    /// Scalar proxes of the penalty.
    prox: u64,
    /// Projections onto the `ℓ1` ball of radius `α`.
    ball_projections: u64,
    /// Multiply-adds of all the operator products.
    work: u64,
}

impl From<graphsparse::recovery::OpCounts> for OpCounts {
    fn from(c: graphsparse::recovery::OpCounts) -> Self {
        Self {
            forward: c.forward,
            adjoint: c.adjoint,
            diff: c.diff,
            diff_adjoint: c.diff_adjoint,
            prox: c.prox,
            ball_projections: c.ball_projections,
            work: c.work,
        }
    }
}

/// One solve of the graph model, the lasso or the latent group lasso and how it went (the
/// core's `Recovery`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct RecoveryFit {
    /// The estimate `x̂` (exact zeros off the support).
    coef: Py<PyArray1<f64>>,
    /// The latent scales `σ` (graph model; empty otherwise).
    sigma: Py<PyArray1<f64>>,
    /// The latent group copies `v` with `x = P v` (latent group lasso; empty otherwise).
    latent: Py<PyArray1<f64>>,
    /// Iterations made.
    n_iter: usize,
    /// Whether the stopping rule held at the last check.
    converged: bool,
    /// The objective at the feasible primal point of the last check.
    objective: f64,
    /// The dual objective at the last check.
    dual_objective: f64,
    /// The relative duality gap at the last check (the certificate `tol` bounds).
    dual_gap: f64,
    /// Why the solve stopped early (`"max_nodes"`, `"time_limit"`, `"cancelled"`), or `None`.
    truncation: Option<&'static str>,
    /// `‖L‖` used for the steps (after the safety factor).
    op_norm: f64,
    /// `‖W D‖` used for the steps.
    diff_norm: f64,
    /// The convergence checks.
    history: Py<RecoveryHistory>,
    /// The operator applications.
    counts: Py<OpCounts>,
    /// The final iterates, to warm-start the next solve.
    state: Py<RecoveryState>,
    /// The method that ran, by its Python name (`"auto"` resolved).
    solver: &'static str,
}

/// The Python name of a method.
fn solver_name(s: Solver) -> &'static str {
    match s {
        Solver::Auto => "auto",
        Solver::Anderson { .. } => "anderson",
        Solver::Pdhg { adaptive: true } => "pdhg",
        Solver::Pdhg { adaptive: false } => "pdhg-fixed",
        Solver::KurodaKitahara { .. } => "kk",
        Solver::Ssnal => "ssnal",
    }
}

impl RecoveryFit {
    fn new(py: Python<'_>, r: Recovery) -> PyResult<Self> {
        Ok(Self {
            history: Py::new(py, RecoveryHistory::new(py, &r.history))?,
            counts: Py::new(py, OpCounts::from(r.counts))?,
            coef: r.x.into_pyarray(py).unbind(),
            sigma: r.sigma.into_pyarray(py).unbind(),
            latent: r.latent.into_pyarray(py).unbind(),
            n_iter: r.n_iter,
            converged: r.converged,
            objective: r.objective,
            dual_objective: r.dual_objective,
            dual_gap: r.gap,
            truncation: r.truncation.map(|t| t.as_str()),
            op_norm: r.op_norm,
            diff_norm: r.diff_norm,
            solver: solver_name(r.solver),
            state: Py::new(py, RecoveryState(r.state))?,
        })
    }
}

/// Extracts the design `x`, the targets and the thread count, then runs `solve(op, y,
/// n_threads)`; a core error it returns becomes its Python exception.
fn solve_on_design<'py, T>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: &PyReadonlyArray1<'py, f64>,
    n_threads: usize,
    solve: impl FnOnce(&dyn LinearOperator, &[f64], usize) -> PyResult<Result<T, RecoveryError>>,
) -> PyResult<T> {
    let design = Design::extract(x)?;
    let y = y.as_slice()?;
    let n_threads = threads(py, n_threads)?;
    Ok(design
        .with(|op| solve(op, y, n_threads))?
        .map_err(PyGsErr::from)?)
}

/// Solves `model` ("graph", "lasso" or "latent") for the design `x` and targets `y`.
///
/// `edges`/`weights` describe the graph ("graph"); `groups` is `(offsets, members, weights)`
/// ("latent"), passed to the core as they are. `params` is a dict (see `SolverArgs`, and
/// `lambda_`); `progress(nodes, iterations, stage, stages, value, seconds)` is called every
/// 100 ms when given; `warm` is the `state` of an earlier result on the same problem shape.
#[pyfunction]
#[pyo3(signature = (model, x, y, params, edges = None, weights = None, groups = None, n_threads = 1, progress = None, warm = None))]
#[allow(clippy::too_many_arguments)]
fn recovery_solve<'py>(
    py: Python<'py>,
    model: &str,
    x: &Bound<'py, PyAny>,
    y: PyReadonlyArray1<'py, f64>,
    params: &Bound<'py, PyAny>,
    edges: Option<PyReadonlyArray2<'py, i64>>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    groups: Option<(
        PyReadonlyArray1<'py, i64>,
        PyReadonlyArray1<'py, i64>,
        PyReadonlyArray1<'py, f64>,
    )>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
    warm: Option<Bound<'py, RecoveryState>>,
) -> PyResult<RecoveryFit> {
    let warm = warm.as_ref().map(|w| &w.get().0);
    let lam = extract_params::<LambdaArg>(params)?.lambda_.0;
    let params = extract_params::<SolverArgs>(params)?
        .params(lam)?
        .check()
        .map_err(PyGsErr::from)?;
    let r = solve_on_design(py, x, &y, n_threads, |op, y, n_threads| {
        let n = op.n_cols();
        match model {
            "graph" => {
                let edges = edges.ok_or_else(|| bad_param("edges are required"))?;
                let g = graph(n, &edges, weights.as_ref())?;
                run(py, Exec::Pool(n_threads), progress, |ctl| {
                    params.solve(op, y, &g, warm, ctl)
                })
            }
            "lasso" => run(py, Exec::Pool(n_threads), progress, |ctl| {
                params.solve_lasso(op, y, warm, ctl)
            }),
            "latent" => {
                let (offsets, members, w) =
                    groups.ok_or_else(|| bad_param("groups are required"))?;
                let groups = LatentGroups::from_offsets(
                    n,
                    offsets.as_slice()?,
                    members.as_slice()?,
                    Some(w.as_slice()?),
                )
                .map_err(PyGsErr::from)?;
                run(py, Exec::Pool(n_threads), progress, |ctl| {
                    params.solve_latent_group(op, y, &groups, warm, ctl)
                })
            }
            other => Err(bad_param(format!(
                "model must be 'graph', 'lasso' or 'latent', got {other:?}"
            ))),
        }
    })?;
    RecoveryFit::new(py, r)
}

/// The solves of a `λ` path of the graph model (the core's `Vec<Recovery>`, by `λ`): one row
/// per `λ` solved, in the order solved.
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct RecoveryPathFit {
    /// The `λ` values solved (fewer than asked for when a budget stopped the path).
    lambdas: Py<PyArray1<f64>>,
    /// The estimates, float64 `(n_lambdas, n_features)`.
    coef: Py<PyArray2<f64>>,
    /// The latent scales `σ`, float64 `(n_lambdas, n_features)`.
    sigma: Py<PyArray2<f64>>,
    /// Iterations of each solve, int64.
    n_iter: Py<PyArray1<i64>>,
    /// Whether each solve's stopping rule held.
    converged: Py<PyArray1<bool>>,
    /// The relative duality gap of each solve.
    dual_gap: Py<PyArray1<f64>>,
    /// The objective of each solve.
    objective: Py<PyArray1<f64>>,
    /// Why the path stopped early (`"max_nodes"`, `"time_limit"`, `"cancelled"`), or `None`.
    truncation: Option<&'static str>,
}

impl RecoveryPathFit {
    fn new(py: Python<'_>, lams: &[f64], p: usize, fits: &[Recovery]) -> PyResult<Self> {
        let k = fits.len();
        let rows = |f: fn(&Recovery) -> &[f64]| -> PyResult<Py<PyArray2<f64>>> {
            let mut flat = Vec::with_capacity(k * p);
            for r in fits {
                flat.extend_from_slice(f(r));
            }
            Ok(flat.into_pyarray(py).reshape([k, p])?.unbind())
        };
        Ok(Self {
            lambdas: lams[..k].to_vec().into_pyarray(py).unbind(),
            coef: rows(|r| &r.x)?,
            sigma: rows(|r| &r.sigma)?,
            n_iter: column(py, fits.iter().map(|r| r.n_iter as i64)),
            converged: column(py, fits.iter().map(|r| r.converged)),
            dual_gap: column(py, fits.iter().map(|r| r.gap)),
            objective: column(py, fits.iter().map(|r| r.objective)),
            truncation: fits.last().and_then(|r| r.truncation).map(|t| t.as_str()),
        })
    }
}

/// Model (6) along a `λ` path in one call (the core's `solve_path`): the design and the graph
/// are built once, each solve starts from the previous one's state (step adaptation
/// restarted) and reuses its norm estimates, and the budget in `params` (a dict, see
/// `SolverArgs`) covers the whole path.
///
/// `lambdas` are the `λ` values in the order solved, or, with `relative`, fractions of
/// `λ_max` (computed here, on the same design).
#[pyfunction]
#[pyo3(signature = (x, y, edges, params, lambdas, weights = None, relative = false, n_threads = 1, progress = None))]
#[allow(clippy::too_many_arguments)]
fn recovery_path<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: PyReadonlyArray1<'py, f64>,
    edges: PyReadonlyArray2<'py, i64>,
    params: &Bound<'py, PyAny>,
    lambdas: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    relative: bool,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<RecoveryPathFit> {
    let lambdas = lambdas.as_slice()?;
    // the path's own λ is never used: any valid value checks the others
    let params = extract_params::<SolverArgs>(params)?
        .params(1.0)?
        .check()
        .map_err(PyGsErr::from)?;
    let (alpha, l) = (params.alpha(), params.loss());
    let (lams, p, fits) = solve_on_design(py, x, &y, n_threads, |op, y, n_threads| {
        let g = graph(op.n_cols(), &edges, weights.as_ref())?;
        let lams = if relative {
            let top = py
                .detach(|| lambda_max(op, y, l, Model::Graph { graph: &g, alpha }))
                .map_err(PyGsErr::from)?;
            if top <= 0.0 {
                return Err(bad_param(
                    "lambda_max is 0 (X.T @ y = 0): every lambda gives w = 0",
                ));
            }
            lambdas.iter().map(|&f| top * f).collect()
        } else {
            lambdas.to_vec()
        };
        let fits = run(py, Exec::Pool(n_threads), progress, |ctl| {
            params.solve_path(op, y, &g, &lams, ctl)
        })?;
        Ok(fits.map(|fits| (lams, op.n_cols(), fits)))
    })?;
    RecoveryPathFit::new(py, &lams, p, &fits)
}

/// `λ_max` of the graph model ("graph"), the lasso ("lasso").
#[pyfunction]
#[pyo3(signature = (x, y, loss_name, alpha, edges = None, weights = None))]
fn recovery_lambda_max<'py>(
    x: &Bound<'py, PyAny>,
    y: PyReadonlyArray1<'py, f64>,
    loss_name: &str,
    alpha: f64,
    edges: Option<PyReadonlyArray2<'py, i64>>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<f64> {
    let design = Design::extract(x)?;
    let (y, l) = (y.as_slice()?, loss(loss_name)?);
    design.with(|op| {
        let v = match edges {
            Some(e) => {
                let g = graph(op.n_cols(), &e, weights.as_ref())?;
                lambda_max(op, y, l, Model::Graph { graph: &g, alpha })
            }
            None => lambda_max(op, y, l, Model::Lasso),
        };
        Ok(v.map_err(PyGsErr::from)?)
    })
}

/// `prox_{cφ}(x, σ)` elementwise.
#[pyfunction]
fn recovery_prox_perspective<'py>(
    py: Python<'py>,
    x: PyReadonlyArray1<'py, f64>,
    sigma: PyReadonlyArray1<'py, f64>,
    c: f64,
) -> PyResult<(Arr<'py>, Arr<'py>)> {
    let (x, sigma) = (x.as_slice()?, sigma.as_slice()?);
    let (mut a, mut b) = (vec![0.0; x.len()], vec![0.0; x.len()]);
    prox_perspective_into(x, sigma, c, &mut a, &mut b).map_err(PyGsErr::from)?;
    Ok((a.into_pyarray(py), b.into_pyarray(py)))
}

/// `Ψ_α(x)` and an optimal `σ` (`(value, sigma, gap, n_iter, converged)`).
#[pyfunction]
#[pyo3(signature = (x, edges, alpha, weights = None, tol = 1e-9, max_iter = 100_000))]
fn recovery_penalty<'py>(
    py: Python<'py>,
    x: PyReadonlyArray1<'py, f64>,
    edges: PyReadonlyArray2<'py, i64>,
    alpha: f64,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    tol: f64,
    max_iter: usize,
) -> PyResult<(f64, Arr<'py>, f64, usize, bool)> {
    let x = x.as_slice()?;
    let g = graph(x.len(), &edges, weights.as_ref())?;
    let p = py
        .detach(|| penalty(&g, x, alpha, tol, max_iter))
        .map_err(PyGsErr::from)?;
    Ok((
        p.value,
        p.sigma.into_pyarray(py),
        p.gap,
        p.n_iter,
        p.converged,
    ))
}

/// The settings of Graph-IHT / Graph-CoSaMP, as a dict of Python values.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct IhtArgs {
    sparsity: Count,
    n_components: Count,
    method: String,
    max_iter: Count,
    tol: Real,
    ratio: Real,
    time_limit: Seconds,
}

/// One Graph-IHT / Graph-CoSaMP run and how it went (the core's `IhtResult`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct IhtFit {
    /// The estimate (supported on `support`).
    coef: Py<PyArray1<f64>>,
    /// The final support (a tail projection), ascending, int64.
    support: Py<PyArray1<i64>>,
    /// Iterations made.
    n_iter: usize,
    /// Whether the iterate stopped moving (relative change `<= tol`).
    converged: bool,
    /// `‖y − L x‖₂` after each iteration.
    residual_norms: Py<PyArray1<f64>>,
    /// PCST runs made by the head and tail projections.
    n_projection_runs: u64,
    /// Why the run stopped early (`"time_limit"`, `"cancelled"`), or `None`.
    truncation: Option<&'static str>,
}

/// Graph-IHT (or Graph-CoSaMP) with the WGM head and tail projections.
#[pyfunction]
#[pyo3(signature = (x, y, edges, params, n_threads = 1, progress = None))]
fn recovery_graph_iht<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: PyReadonlyArray1<'py, f64>,
    edges: PyReadonlyArray2<'py, i64>,
    params: &Bound<'py, PyAny>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<IhtFit> {
    let a = extract_params::<IhtArgs>(params)?;
    let method = match a.method.as_str() {
        "iht" => IhtMethod::Iht,
        "cosamp" => IhtMethod::Cosamp,
        other => {
            return Err(bad_param(format!(
                "method must be 'iht' or 'cosamp', got {other:?}"
            )));
        }
    };
    let params = IhtParams::new(a.sparsity.usize())
        .num_clusters(a.n_components.usize())
        .method(method)
        .max_iter(a.max_iter.usize())
        .tol(a.tol.0)
        .ratio(a.ratio.0)
        .budget(Budget::new().time_limit(a.time_limit.0))
        .check()
        .map_err(PyGsErr::from)?;
    let r = solve_on_design(py, x, &y, n_threads, |op, y, n_threads| {
        let g = graph(op.n_cols(), &edges, None)?;
        run(py, Exec::Pool(n_threads), progress, |ctl| {
            params.solve(op, y, &g, None, ctl)
        })
    })?;
    Ok(IhtFit {
        support: ids_array(py, &r.support).unbind(),
        coef: r.x.into_pyarray(py).unbind(),
        n_iter: r.n_iter,
        converged: r.converged,
        residual_norms: r.residual_norms.into_pyarray(py).unbind(),
        n_projection_runs: r.n_projection_runs,
        truncation: r.truncation.map(|t| t.as_str()),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RecoveryState>()?;
    m.add_class::<RecoveryHistory>()?;
    m.add_class::<OpCounts>()?;
    m.add_class::<RecoveryFit>()?;
    m.add_class::<RecoveryPathFit>()?;
    m.add_class::<IhtFit>()?;
    m.add_function(wrap_pyfunction!(recovery_solve, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_path, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_lambda_max, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_prox_perspective, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_penalty, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_graph_iht, m)?)
}
