//! Online learners and WGM head/tail projections (`graphsparse.online`).
//!
//! A learner's parameters arrive as one dict, read as [`LearnerArgs`] and, by its `method`,
//! as that method's own struct (one per variant of the core's `Method`); its state travels
//! as an [`OnlineState`] in both directions.

use std::sync::{Mutex, PoisonError};

use graphsparse::online::OnlineLearner as Learner;
use graphsparse::online::{
    Check, EdgeRules, Fallback, GraphProjection, GraphProjectionParams, Groups, LambdaStart,
    LearnerParams, Loss, Method, OnlineError, SupportProjection, WeightedGraph, head_sparsity,
};
use numpy::{
    IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::convert::{Count, PyGsErr, Real, bad_param, edge_list, extract_params, ids_array};
use crate::threads::{Exec, run};

/// One projection's target and binary-search settings, as a dict of Python values.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct ProjectionArgs {
    sparsity: Option<Count>,
    ratio: Real,
    num_clusters: Count,
    max_iter: Count,
    fallback: FallbackArg,
    eps: Real,
}

/// A WGM projection's support and search (the core's `Projection`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct Projection {
    /// The support: nodes of the final PCST forest, ascending, int64.
    nodes: Py<PyArray1<i64>>,
    /// The forest's edges (indices into the input edges, reverse merge order), int64.
    edges: Py<PyArray1<i64>>,
    /// PCST runs of the doubling and bisection phases (the fallback run not counted).
    n_iter: usize,
}

/// GraphDA's binary-search projection of `w` to a support of `s` to `⌊s(1+ratio)⌋` nodes
/// (`s` = `sparsity`, by default the head setting `p / 2`).
#[pyfunction]
fn graph_projection<'py>(
    py: Python<'py>,
    w: PyReadonlyArray1<'py, f64>,
    edges: PyReadonlyArray2<'py, i64>,
    costs: PyReadonlyArray1<'py, f64>,
    params: &Bound<'py, PyAny>,
) -> PyResult<Projection> {
    let a: ProjectionArgs = extract_params(params)?;
    let w = w.as_slice()?;
    let s = a
        .sparsity
        .map_or_else(|| head_sparsity(w.len()), Count::usize);
    let params = GraphProjectionParams::new(s)
        .head_sparsity(Some(s))
        .ratio(a.ratio.0)
        .num_clusters(a.num_clusters.usize())
        .max_iter(a.max_iter.usize())
        .fallback(a.fallback.0)
        .eps(a.eps.0);
    let edges = edge_list(&edges)?;
    let costs = costs.as_slice()?;
    let out = py
        .detach(|| {
            let params = params.check()?;
            let graph =
                WeightedGraph::from_edges(w.len(), &edges, Some(costs), EdgeRules::MULTIGRAPH)?;
            let mut proj = GraphProjection::new(graph, &params)?;
            let mut support = Vec::new();
            proj.tail_into(w, &mut support)?;
            Ok::<_, OnlineError>(proj.last_tail().clone())
        })
        .map_err(PyGsErr::from)?;
    Ok(Projection {
        nodes: ids_array(py, &out.nodes).unbind(),
        edges: ids_array(py, &out.edges).unbind(),
        n_iter: out.n_iter,
    })
}

/// The sparsities and binary-search settings of GraphDA's and GraphStoIHT's projections (keys
/// of the learner's parameter dict).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct GraphArgs {
    sparsity: Count,
    head_sparsity: Option<Count>,
    ratio: Real,
    max_iter: Count,
    num_clusters: Count,
    fallback: FallbackArg,
    lambda_start: LambdaStartArg,
}

impl GraphArgs {
    fn params(&self) -> GraphProjectionParams {
        GraphProjectionParams::new(self.sparsity.usize())
            .head_sparsity(self.head_sparsity.map(Count::usize))
            .ratio(self.ratio.0)
            .num_clusters(self.num_clusters.usize())
            .max_iter(self.max_iter.usize())
            .fallback(self.fallback.0)
            .lambda_start(self.lambda_start.0)
    }
}

/// `"fixed"` or `"previous"`.
struct LambdaStartArg(LambdaStart);

impl<'py> FromPyObject<'_, 'py> for LambdaStartArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<&str>().ok() {
            Some("fixed") => Ok(Self(LambdaStart::Fixed)),
            Some("previous") => Ok(Self(LambdaStart::Previous)),
            _ => Err(bad_param(format!(
                "must be 'fixed' or 'previous', got {}",
                obj.repr()?
            ))),
        }
    }
}

/// `"lambda_high"` or `"closest"`.
struct FallbackArg(Fallback);

impl<'py> FromPyObject<'_, 'py> for FallbackArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<&str>().ok() {
            Some("lambda_high") => Ok(Self(Fallback::LambdaHigh)),
            Some("closest") => Ok(Self(Fallback::Closest)),
            _ => Err(bad_param(format!(
                "must be 'lambda_high' or 'closest', got {}",
                obj.repr()?
            ))),
        }
    }
}

/// `"logistic"` or `"least_squares"` (the squared loss).
struct LossArg(Loss);

impl<'py> FromPyObject<'_, 'py> for LossArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<&str>().ok() {
            Some("logistic") => Ok(Self(Loss::Logistic)),
            Some("least_squares") => Ok(Self(Loss::Squared)),
            _ => Err(bad_param(format!(
                "must be 'logistic' or 'least_squares', got {}",
                obj.repr()?
            ))),
        }
    }
}

/// The parameters every learner has, read from the learner's dict; the method's own are read
/// from the same dict by [`LearnerArgs::method`].
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct LearnerArgs {
    /// `"graph_da"`, `"graph_sto_iht"`, `"da_iht"`, `"sto_iht"`, `"l1_rda"`, `"adagrad_l1"`,
    /// `"da_gl"`, `"da_sgl"` or `"adam"`.
    method: String,
    loss: LossArg,
    l2: Real,
}

/// GraphDA's own parameter (its projections' are [`GraphArgs`]).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct GraphDaArgs {
    gamma: Real,
}

/// GraphStoIHT's own parameter (its projections' are [`GraphArgs`]).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct GraphStoIhtArgs {
    lr: Real,
}

/// DA-IHT's parameters.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct DaIhtArgs {
    gamma: Real,
    sparsity: Count,
}

/// StoIHT's parameters.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct StoIhtArgs {
    lr: Real,
    sparsity: Count,
}

/// ℓ1-RDA's parameters (`lam` is λ).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct L1RdaArgs {
    lam: Real,
    gamma: Real,
    rho: Real,
}

/// AdaGrad-ℓ1's parameters.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct AdaGradL1Args {
    lam: Real,
    eta: Real,
    delta: Real,
}

/// DA group lasso's parameters.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct DaGlArgs {
    lam: Real,
    gamma: Real,
}

/// DA sparse group lasso's parameters.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct DaSglArgs {
    lam: Real,
    gamma: Real,
    r: Real,
}

/// Adam's parameters.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct AdamArgs {
    alpha: Real,
    beta1: Real,
    beta2: Real,
    epsilon: Real,
}

impl LearnerArgs {
    /// The core's `Method` named by `method`, its parameters read from `params` (the same
    /// dict).
    fn method(&self, params: &Bound<'_, PyAny>) -> PyResult<Method> {
        let graph = || extract_params::<GraphArgs>(params).map(|g| g.params());
        Ok(match self.method.as_str() {
            "graph_da" => Method::GraphDa {
                gamma: extract_params::<GraphDaArgs>(params)?.gamma.0,
                graph: graph()?,
            },
            "graph_sto_iht" => Method::GraphStoIht {
                lr: extract_params::<GraphStoIhtArgs>(params)?.lr.0,
                graph: graph()?,
            },
            "da_iht" => {
                let a: DaIhtArgs = extract_params(params)?;
                Method::DaIht {
                    gamma: a.gamma.0,
                    sparsity: a.sparsity.usize(),
                }
            }
            "sto_iht" => {
                let a: StoIhtArgs = extract_params(params)?;
                Method::StoIht {
                    lr: a.lr.0,
                    sparsity: a.sparsity.usize(),
                }
            }
            "l1_rda" => {
                let a: L1RdaArgs = extract_params(params)?;
                Method::L1Rda {
                    lambda: a.lam.0,
                    gamma: a.gamma.0,
                    rho: a.rho.0,
                }
            }
            "adagrad_l1" => {
                let a: AdaGradL1Args = extract_params(params)?;
                Method::AdaGradL1 {
                    lambda: a.lam.0,
                    eta: a.eta.0,
                    delta: a.delta.0,
                }
            }
            "da_gl" => {
                let a: DaGlArgs = extract_params(params)?;
                Method::DaGroupLasso {
                    lambda: a.lam.0,
                    gamma: a.gamma.0,
                }
            }
            "da_sgl" => {
                let a: DaSglArgs = extract_params(params)?;
                Method::DaSparseGroupLasso {
                    lambda: a.lam.0,
                    gamma: a.gamma.0,
                    r: a.r.0,
                }
            }
            "adam" => {
                let a: AdamArgs = extract_params(params)?;
                Method::Adam {
                    alpha: a.alpha.0,
                    beta1: a.beta1.0,
                    beta2: a.beta2.0,
                    epsilon: a.epsilon.0,
                }
            }
            other => return Err(bad_param(format!("unknown online method {other:?}"))),
        })
    }

    /// The core's [`LearnerParams`] (checked by the core).
    fn params(&self, params: &Bound<'_, PyAny>) -> PyResult<LearnerParams> {
        Ok(LearnerParams::new(self.method(params)?)
            .loss(self.loss.0)
            .l2(self.l2.0))
    }
}

/// A 1-D float64 array as a vector (one copy; a strided array is gathered).
fn floats(a: &Bound<'_, PyArray1<f64>>) -> PyResult<Vec<f64>> {
    let a = a.readonly();
    Ok(a.as_slice().map(<[f64]>::to_vec).or_else(|_| a.to_vec())?)
}

/// A learner's state (the core's `OnlineState`), in both directions: `online_pass` returns
/// one and takes one back to continue. Vectors a learner does not keep are empty arrays.
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct OnlineState {
    /// The current iterate `w_t` (features, then the intercept).
    coef: Py<PyArray1<f64>>,
    /// The running average `w̄_t` of the iterates.
    coef_avg: Py<PyArray1<f64>>,
    /// The running average `ḡ_t` of the gradients (dual-averaging methods and AdaGrad).
    grad_avg: Py<PyArray1<f64>>,
    /// The sum of squared gradients `G_t` (AdaGrad).
    grad_sq_sum: Py<PyArray1<f64>>,
    /// Adam's first moment.
    moment1: Py<PyArray1<f64>>,
    /// Adam's second moment.
    moment2: Py<PyArray1<f64>>,
    /// Adam's `β₁ᵗ` for the next step.
    beta1_power: f64,
    /// Adam's `β₂ᵗ` for the next step.
    beta2_power: f64,
    /// Samples seen.
    n_seen: u64,
    /// Online mistakes of `w_t`.
    n_mistakes: u64,
    /// Online mistakes of `w̄_t`.
    n_mistakes_avg: u64,
}

#[pymethods]
impl OnlineState {
    /// A state from its parts (the vectors a learner does not keep may be left out).
    #[new]
    #[pyo3(signature = (*, coef, coef_avg, n_seen, n_mistakes, n_mistakes_avg, grad_avg = None, grad_sq_sum = None, moment1 = None, moment2 = None, beta1_power = 0.0, beta2_power = 0.0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        coef: Py<PyArray1<f64>>,
        coef_avg: Py<PyArray1<f64>>,
        n_seen: u64,
        n_mistakes: u64,
        n_mistakes_avg: u64,
        grad_avg: Option<Py<PyArray1<f64>>>,
        grad_sq_sum: Option<Py<PyArray1<f64>>>,
        moment1: Option<Py<PyArray1<f64>>>,
        moment2: Option<Py<PyArray1<f64>>>,
        beta1_power: f64,
        beta2_power: f64,
    ) -> Self {
        let empty = |a: Option<Py<PyArray1<f64>>>| {
            a.unwrap_or_else(|| PyArray1::zeros(py, 0, false).unbind())
        };
        Self {
            coef,
            coef_avg,
            grad_avg: empty(grad_avg),
            grad_sq_sum: empty(grad_sq_sum),
            moment1: empty(moment1),
            moment2: empty(moment2),
            beta1_power,
            beta2_power,
            n_seen,
            n_mistakes,
            n_mistakes_avg,
        }
    }
}

impl OnlineState {
    fn from_core(py: Python<'_>, s: graphsparse::online::OnlineState) -> Self {
        let arr = |v: Vec<f64>| v.into_pyarray(py).unbind();
        Self {
            coef: arr(s.coef),
            coef_avg: arr(s.coef_avg),
            grad_avg: arr(s.grad_avg),
            grad_sq_sum: arr(s.grad_sq_sum),
            moment1: arr(s.moment1),
            moment2: arr(s.moment2),
            beta1_power: s.beta1_power,
            beta2_power: s.beta2_power,
            n_seen: s.n_seen,
            n_mistakes: s.n_mistakes,
            n_mistakes_avg: s.n_mistakes_avg,
        }
    }

    fn to_core(&self, py: Python<'_>) -> PyResult<graphsparse::online::OnlineState> {
        let v = |a: &Py<PyArray1<f64>>| floats(a.bind(py));
        Ok(graphsparse::online::OnlineState {
            coef: v(&self.coef)?,
            coef_avg: v(&self.coef_avg)?,
            grad_avg: v(&self.grad_avg)?,
            grad_sq_sum: v(&self.grad_sq_sum)?,
            moment1: v(&self.moment1)?,
            moment2: v(&self.moment2)?,
            beta1_power: self.beta1_power,
            beta2_power: self.beta2_power,
            n_seen: self.n_seen,
            n_mistakes: self.n_mistakes,
            n_mistakes_avg: self.n_mistakes_avg,
        })
    }
}

/// Disjoint feature groups from one group id per feature (`-1`: a feature in no listed group,
/// which the core makes a singleton group).
fn groups_from_ids(ids: &[i64], p: usize) -> PyResult<Groups> {
    let mut lists: Vec<Vec<usize>> = Vec::new();
    for (i, &k) in ids.iter().enumerate() {
        if k >= 0 {
            let k = usize::try_from(k).map_err(|_| bad_param("groups: group id too large"))?;
            if k >= ids.len() {
                return Err(bad_param(format!(
                    "groups: group id {k} of feature {i} is not below the number of features"
                )));
            }
            if lists.len() <= k {
                lists.resize(k + 1, Vec::new());
            }
            lists[k].push(i);
        }
    }
    lists.retain(|l| !l.is_empty());
    Groups::new(p, &lists).map_err(|e| PyGsErr::from(e).into())
}

/// The learner `params` describes on `p` features (with its graph or groups), continuing from
/// `state` when one is given.
fn build_learner(
    py: Python<'_>,
    params: &Bound<'_, PyAny>,
    p: usize,
    state: Option<&Bound<'_, OnlineState>>,
    edges: Option<&PyReadonlyArray2<'_, i64>>,
    costs: Option<&PyReadonlyArray1<'_, f64>>,
    groups: Option<&PyReadonlyArray1<'_, i64>>,
) -> PyResult<Box<dyn Learner + Send>> {
    let valid = extract_params::<LearnerArgs>(params)?
        .params(params)?
        .check()
        .map_err(PyGsErr::from)?;
    let edge_list = edges.map(edge_list).transpose()?;
    let cost_slice = costs.map(|c| c.as_slice()).transpose()?;
    let graph = match (&edge_list, cost_slice) {
        (Some(e), Some(c)) => Some(
            WeightedGraph::from_edges(p, e, Some(c), EdgeRules::MULTIGRAPH)
                .map_err(PyGsErr::from)?,
        ),
        (None, None) => None,
        _ => return Err(bad_param("edges and costs must be given together")),
    };
    let groups = match groups {
        None => None,
        Some(g) => Some(groups_from_ids(g.as_slice()?, p)?),
    };
    let mut learner = valid.learner(p, graph, groups).map_err(PyGsErr::from)?;
    if let Some(st) = state {
        learner
            .set_state(st.get().to_core(py)?)
            .map_err(PyGsErr::from)?;
    }
    Ok(learner)
}

/// The rows of `x` (validated first, all of them) through `learner`, with the GIL released: a
/// single row on this thread, more on a worker thread that Ctrl-C can cancel between samples.
fn continue_pass(
    py: Python<'_>,
    learner: &Mutex<Box<dyn Learner + Send>>,
    x: &PyReadonlyArray2<'_, f64>,
    y: &PyReadonlyArray1<'_, f64>,
) -> PyResult<()> {
    let (xs, ys) = (x.as_slice()?, y.as_slice()?);
    let lock = || learner.lock().unwrap_or_else(PoisonError::into_inner);
    let r = if ys.len() <= 1 {
        py.detach(|| lock().partial_fit_rows(xs, ys))
    } else {
        run(py, Exec::Thread, None, |ctl| {
            lock().partial_fit_rows_until(xs, ys, &|| ctl.is_cancelled())
        })?
    };
    match r {
        Ok(()) => Ok(()),
        Err(OnlineError::Cancelled) => Err(PyRuntimeError::new_err("cancelled")),
        Err(err) => Err(PyGsErr::from(err).into()),
    }
}

/// One online pass over the rows of `x` with the learner `params` describes, continuing from
/// `state` (as returned by a previous call) or from zero; returns the new state.
#[pyfunction]
#[pyo3(signature = (params, x, y, state = None, edges = None, costs = None, groups = None))]
#[allow(clippy::too_many_arguments)]
fn online_pass<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyAny>,
    x: PyReadonlyArray2<'py, f64>,
    y: PyReadonlyArray1<'py, f64>,
    state: Option<Bound<'py, OnlineState>>,
    edges: Option<PyReadonlyArray2<'py, i64>>,
    costs: Option<PyReadonlyArray1<'py, f64>>,
    groups: Option<PyReadonlyArray1<'py, i64>>,
) -> PyResult<OnlineState> {
    let p = x.shape()[1];
    let learner = Mutex::new(build_learner(
        py,
        params,
        p,
        state.as_ref(),
        edges.as_ref(),
        costs.as_ref(),
        groups.as_ref(),
    )?);
    continue_pass(py, &learner, &x, &y)?;
    let learner = learner.into_inner().unwrap_or_else(PoisonError::into_inner);
    Ok(OnlineState::from_core(py, learner.state().clone()))
}

/// A learner kept between calls: built once (parameters, graph or groups, projection
/// buffers), then continued row batch by row batch, as `online_pass` would continue from the
/// state it returned. The estimators' `partial_fit` holds one; it is not pickled (the state
/// is, and rebuilds it).
#[pyclass(frozen, name = "OnlineLearner", module = "graphsparse._graphsparse")]
struct PyOnlineLearner {
    learner: Mutex<Box<dyn Learner + Send>>,
    n_features: usize,
}

#[pymethods]
impl PyOnlineLearner {
    /// The learner `params` describes on `n_features` features, from `state` or from zero.
    #[new]
    #[pyo3(signature = (params, n_features, state = None, edges = None, costs = None, groups = None))]
    fn new<'py>(
        py: Python<'py>,
        params: &Bound<'py, PyAny>,
        n_features: usize,
        state: Option<Bound<'py, OnlineState>>,
        edges: Option<PyReadonlyArray2<'py, i64>>,
        costs: Option<PyReadonlyArray1<'py, f64>>,
        groups: Option<PyReadonlyArray1<'py, i64>>,
    ) -> PyResult<Self> {
        let learner = build_learner(
            py,
            params,
            n_features,
            state.as_ref(),
            edges.as_ref(),
            costs.as_ref(),
            groups.as_ref(),
        )?;
        Ok(Self {
            learner: Mutex::new(learner),
            n_features,
        })
    }

    /// Continues the pass with the rows of `x` (`n × n_features`) and their targets `y`; the
    /// rows are all checked before the first update.
    fn partial_fit<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'py, f64>,
        y: PyReadonlyArray1<'py, f64>,
    ) -> PyResult<()> {
        let shape = x.shape();
        if shape[1] != self.n_features || shape[0] != y.len() {
            return Err(bad_param(format!(
                "x must have shape ({}, {}) for {} targets, got ({}, {})",
                y.len(),
                self.n_features,
                y.len(),
                shape[0],
                shape[1]
            )));
        }
        continue_pass(py, &self.learner, &x, &y)
    }

    /// The learner's state (a copy).
    fn state(&self, py: Python<'_>) -> OnlineState {
        let state = self
            .learner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .state()
            .clone();
        OnlineState::from_core(py, state)
    }

    /// Samples seen.
    #[getter]
    fn n_seen(&self) -> u64 {
        self.learner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .state()
            .n_seen
    }

    /// Number of features.
    #[getter]
    fn n_features(&self) -> usize {
        self.n_features
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Projection>()?;
    m.add_class::<OnlineState>()?;
    m.add_class::<PyOnlineLearner>()?;
    m.add_function(wrap_pyfunction!(graph_projection, m)?)?;
    m.add_function(wrap_pyfunction!(online_pass, m)?)?;
    Ok(())
}
