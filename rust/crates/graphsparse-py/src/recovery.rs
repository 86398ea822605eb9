//! Convex graph-structured recovery (`graphsparse.recovery`): model (6) of Kuroda & Kitahara,
//! the lasso and latent group lasso baselines, Graph-IHT / Graph-CoSaMP, the perspective prox,
//! the penalty and `λ_max`.
//!
//! The design `L` arrives as a C-contiguous 2-D float64 array or as the CSR triple
//! `(indptr, indices, data)` with its shape; everything else as arrays and one dict of
//! parameters. Ranges are the core's to check.

use graphsparse::base::Budget;
use graphsparse::recovery::{
    Check, CsrOperator, DenseMatrix, IhtMethod, IhtParams, LatentGroups, LinearOperator, Loss,
    Model, PenaltyForm, Recovery, RecoveryError, RecoveryParams, Solver, WarmStart, WeightedGraph,
    lambda_max, penalty, prox_perspective_into,
};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{
    Count, NodeBudget, PyGsErr, Real, Seconds, bad_param, edge_list, extract_params,
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
    fn with<T>(&self, f: impl FnOnce(&dyn LinearOperator) -> PyResult<T>) -> PyResult<T> {
        match self {
            Design::Dense(a) => {
                let shape = a.shape();
                let op =
                    DenseMatrix::new(a.as_slice()?, shape[0], shape[1]).map_err(PyGsErr::from)?;
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
                .map_err(PyGsErr::from)?;
                f(&op)
            }
        }
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

/// The solver settings, as a dict of Python values.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SolveArgs {
    lambda_: Real,
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

impl SolveArgs {
    fn params(&self) -> PyResult<RecoveryParams> {
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
            "pdhg" => Solver::Pdhg { adaptive: true },
            "pdhg-fixed" => Solver::Pdhg { adaptive: false },
            "kk" => Solver::KurodaKitahara {
                gamma: self.gamma.map(|g| g.0),
            },
            other => {
                return Err(bad_param(format!(
                    "solver must be 'pdhg', 'pdhg-fixed' or 'kk', got {other:?}"
                )));
            }
        };
        Ok(RecoveryParams::new(self.lambda_.0, self.alpha.0)
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

/// A warm start: the `state` dict of an earlier result (arrays may be empty: zeros).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct WarmArgs<'py> {
    x: PyReadonlyArray1<'py, f64>,
    sigma: PyReadonlyArray1<'py, f64>,
    dual_data: PyReadonlyArray1<'py, f64>,
    dual_graph: PyReadonlyArray1<'py, f64>,
    aux_data: PyReadonlyArray1<'py, f64>,
    aux_graph: PyReadonlyArray1<'py, f64>,
    tau: f64,
    adapt: f64,
}

impl WarmArgs<'_> {
    fn state(&self) -> PyResult<WarmStart> {
        Ok(WarmStart {
            x: self.x.as_slice()?.to_vec(),
            sigma: self.sigma.as_slice()?.to_vec(),
            dual_data: self.dual_data.as_slice()?.to_vec(),
            dual_graph: self.dual_graph.as_slice()?.to_vec(),
            aux_data: self.aux_data.as_slice()?.to_vec(),
            aux_graph: self.aux_graph.as_slice()?.to_vec(),
            tau: self.tau,
            adapt: self.adapt,
        })
    }
}

fn result<'py>(py: Python<'py>, r: Recovery) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let column = |f: fn(&graphsparse::recovery::HistoryEntry) -> f64| -> Vec<f64> {
        r.history.iter().map(f).collect()
    };
    let its: Vec<i64> = r.history.iter().map(|h| h.iteration as i64).collect();
    d.set_item("history_gap", column(|h| h.gap).into_pyarray(py))?;
    d.set_item("history_primal", column(|h| h.primal).into_pyarray(py))?;
    d.set_item(
        "history_primal_residual",
        column(|h| h.primal_residual).into_pyarray(py),
    )?;
    d.set_item(
        "history_dual_residual",
        column(|h| h.dual_residual).into_pyarray(py),
    )?;
    d.set_item("history_iteration", its.into_pyarray(py))?;
    let c = r.counts;
    d.set_item(
        "op_counts",
        (c.forward, c.adjoint, c.diff, c.diff_adjoint, c.prox),
    )?;
    let s = PyDict::new(py);
    s.set_item("x", r.state.x.into_pyarray(py))?;
    s.set_item("sigma", r.state.sigma.into_pyarray(py))?;
    s.set_item("dual_data", r.state.dual_data.into_pyarray(py))?;
    s.set_item("dual_graph", r.state.dual_graph.into_pyarray(py))?;
    s.set_item("aux_data", r.state.aux_data.into_pyarray(py))?;
    s.set_item("aux_graph", r.state.aux_graph.into_pyarray(py))?;
    s.set_item("tau", r.state.tau)?;
    s.set_item("adapt", r.state.adapt)?;
    d.set_item("state", s)?;
    d.set_item("coef", r.x.into_pyarray(py))?;
    d.set_item("sigma", r.sigma.into_pyarray(py))?;
    d.set_item("latent", r.latent.into_pyarray(py))?;
    d.set_item("n_iter", r.n_iter)?;
    d.set_item("converged", r.converged)?;
    d.set_item("objective", r.objective)?;
    d.set_item("dual_objective", r.dual_objective)?;
    d.set_item("gap", r.gap)?;
    d.set_item("truncated", r.truncation.map(|t| t.as_str()))?;
    d.set_item("op_norm", r.op_norm)?;
    d.set_item("diff_norm", r.diff_norm)?;
    Ok(d)
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
/// `edges`/`weights` describe the graph ("graph"); `groups` is `(ptr, members, weights)`
/// ("latent"). `params` is a dict (see `SolveArgs`); `progress(nodes, iterations, stage,
/// stages, value, seconds)` is called every 100 ms when given; `warm` is the `state` dict of
/// an earlier result on the same problem shape.
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
    warm: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let warm = match warm {
        Some(w) => Some(extract_params::<WarmArgs<'py>>(w)?.state()?),
        None => None,
    };
    let warm = warm.as_ref();
    let params = extract_params::<SolveArgs>(params)?
        .params()?
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
                let (ptr, members, w) = groups.ok_or_else(|| bad_param("groups are required"))?;
                let (ptr, members) = (ptr.as_slice()?, members.as_slice()?);
                let mut lists = Vec::with_capacity(ptr.len().saturating_sub(1));
                for k in 0..ptr.len().saturating_sub(1) {
                    let (a, b) = (ptr[k], ptr[k + 1]);
                    if a < 0 || b < a || b as usize > members.len() {
                        return Err(bad_param(format!("groups: bad offsets at group {k}")));
                    }
                    let mut g = Vec::with_capacity((b - a) as usize);
                    for &v in &members[a as usize..b as usize] {
                        g.push(usize::try_from(v).map_err(|_| {
                            bad_param(format!("groups: negative vertex {v} in group {k}"))
                        })?);
                    }
                    lists.push(g);
                }
                let groups =
                    LatentGroups::new(n, &lists, Some(w.as_slice()?)).map_err(PyGsErr::from)?;
                run(py, Exec::Pool(n_threads), progress, |ctl| {
                    params.solve_latent_group(op, y, &groups, warm, ctl)
                })
            }
            other => Err(bad_param(format!(
                "model must be 'graph', 'lasso' or 'latent', got {other:?}"
            ))),
        }
    })?;
    result(py, r)
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
) -> PyResult<Bound<'py, PyDict>> {
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
    let d = PyDict::new(py);
    let support: Vec<i64> = r.support.iter().map(|&v| v as i64).collect();
    d.set_item("coef", r.x.into_pyarray(py))?;
    d.set_item("support", support.into_pyarray(py))?;
    d.set_item("n_iter", r.n_iter)?;
    d.set_item("converged", r.converged)?;
    d.set_item("residual_norms", r.residual_norms.into_pyarray(py))?;
    d.set_item("truncated", r.truncation.map(|t| t.as_str()))?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(recovery_solve, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_lambda_max, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_prox_perspective, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_penalty, m)?)?;
    m.add_function(wrap_pyfunction!(recovery_graph_iht, m)?)
}
