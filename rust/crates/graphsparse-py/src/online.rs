//! Online learners and WGM head/tail projections (`graphsparse.online`).

use graphsparse::online::{
    Check, EdgeRules, Fallback, GraphProjection, GraphProjectionParams, Groups, LearnerParams,
    Loss, Method, OnlineError, OnlineState, SupportProjection, WeightedGraph, head_sparsity,
};
use numpy::{
    IntoPyArray, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{Count, PyGsErr, Real, arg, bad_param, edge_list, extract_params, ids_array};
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

/// GraphDA's binary-search projection of `w` to a support of `s` to `⌊s(1+ratio)⌋` nodes
/// (`s` = `sparsity`, by default the head setting `p / 2`); returns `(nodes, edges, n_iter)`.
#[pyfunction]
fn graph_projection<'py>(
    py: Python<'py>,
    w: PyReadonlyArray1<'py, f64>,
    edges: PyReadonlyArray2<'py, i64>,
    costs: PyReadonlyArray1<'py, f64>,
    params: &Bound<'py, PyDict>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, usize)> {
    let a: ProjectionArgs = extract_params(params.as_any())?;
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
    Ok((
        ids_array(py, &out.nodes).into_any(),
        ids_array(py, &out.edges).into_any(),
        out.n_iter,
    ))
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
}

impl GraphArgs {
    fn params(&self) -> GraphProjectionParams {
        GraphProjectionParams::new(self.sparsity.usize())
            .head_sparsity(self.head_sparsity.map(Count::usize))
            .ratio(self.ratio.0)
            .num_clusters(self.num_clusters.usize())
            .max_iter(self.max_iter.usize())
            .fallback(self.fallback.0)
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

/// `params[key]` through the convert type `T`, naming `key` when it is missing or wrong.
fn item<'py, T>(params: &Bound<'py, PyDict>, key: &str) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py, Error = PyErr>,
{
    match params.get_item(key)? {
        Some(value) => arg(&value, key),
        None => Err(bad_param(format!("missing parameter '{key}'"))),
    }
}

/// A learner's parameters: `{"method": name, "loss": ..., "l2": ..., <the method's own>}`
/// (the Python estimators' constructor names, `lam` for λ), converted to the core's
/// [`LearnerParams`] (checked by the core).
fn learner_params(params: &Bound<'_, PyDict>) -> PyResult<LearnerParams> {
    let real = |key: &str| item::<Real>(params, key).map(|r| r.0);
    let count = |key: &str| item::<Count>(params, key).map(Count::usize);
    let graph = || extract_params::<GraphArgs>(params.as_any()).map(|g| g.params());
    let name: String = item(params, "method")?;
    let method = match name.as_str() {
        "graph_da" => Method::GraphDa {
            gamma: real("gamma")?,
            graph: graph()?,
        },
        "graph_sto_iht" => Method::GraphStoIht {
            lr: real("lr")?,
            graph: graph()?,
        },
        "da_iht" => Method::DaIht {
            gamma: real("gamma")?,
            sparsity: count("sparsity")?,
        },
        "sto_iht" => Method::StoIht {
            lr: real("lr")?,
            sparsity: count("sparsity")?,
        },
        "l1_rda" => Method::L1Rda {
            lambda: real("lam")?,
            gamma: real("gamma")?,
            rho: real("rho")?,
        },
        "adagrad_l1" => Method::AdaGradL1 {
            lambda: real("lam")?,
            eta: real("eta")?,
            delta: real("delta")?,
        },
        "da_gl" => Method::DaGroupLasso {
            lambda: real("lam")?,
            gamma: real("gamma")?,
        },
        "da_sgl" => Method::DaSparseGroupLasso {
            lambda: real("lam")?,
            gamma: real("gamma")?,
            r: real("r")?,
        },
        "adam" => Method::Adam {
            alpha: real("alpha")?,
            beta1: real("beta1")?,
            beta2: real("beta2")?,
            epsilon: real("epsilon")?,
        },
        other => return Err(bad_param(format!("unknown online method {other:?}"))),
    };
    Ok(LearnerParams::new(method)
        .loss(item::<LossArg>(params, "loss")?.0)
        .l2(real("l2")?))
}

/// A state vector: a 1-D float64 array in both directions (empty when the learner keeps none).
#[derive(Default)]
struct Floats(Vec<f64>);

impl<'py> FromPyObject<'_, 'py> for Floats {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let a: PyReadonlyArray1<'py, f64> = obj
            .extract()
            .map_err(|_| bad_param("must be a 1-D float64 array"))?;
        Ok(Self(
            a.as_slice().map(<[f64]>::to_vec).or_else(|_| a.to_vec())?,
        ))
    }
}

impl<'py> IntoPyObject<'py> for Floats {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.0.into_pyarray(py).into_any())
    }
}

/// The online state as a dict: the one conversion of [`OnlineState`] in both directions (the
/// field names are the keys; vectors a learner does not keep are empty arrays).
#[derive(FromPyObject, IntoPyObject)]
#[pyo3(from_item_all)]
struct State {
    coef: Floats,
    coef_avg: Floats,
    #[pyo3(default)]
    grad_avg: Floats,
    #[pyo3(default)]
    grad_sq_sum: Floats,
    #[pyo3(default)]
    moment1: Floats,
    #[pyo3(default)]
    moment2: Floats,
    #[pyo3(default)]
    beta1_power: f64,
    #[pyo3(default)]
    beta2_power: f64,
    n_seen: u64,
    n_mistakes: u64,
    n_mistakes_avg: u64,
}

impl From<State> for OnlineState {
    fn from(s: State) -> Self {
        Self {
            coef: s.coef.0,
            coef_avg: s.coef_avg.0,
            grad_avg: s.grad_avg.0,
            grad_sq_sum: s.grad_sq_sum.0,
            moment1: s.moment1.0,
            moment2: s.moment2.0,
            beta1_power: s.beta1_power,
            beta2_power: s.beta2_power,
            n_seen: s.n_seen,
            n_mistakes: s.n_mistakes,
            n_mistakes_avg: s.n_mistakes_avg,
        }
    }
}

impl From<OnlineState> for State {
    fn from(s: OnlineState) -> Self {
        Self {
            coef: Floats(s.coef),
            coef_avg: Floats(s.coef_avg),
            grad_avg: Floats(s.grad_avg),
            grad_sq_sum: Floats(s.grad_sq_sum),
            moment1: Floats(s.moment1),
            moment2: Floats(s.moment2),
            beta1_power: s.beta1_power,
            beta2_power: s.beta2_power,
            n_seen: s.n_seen,
            n_mistakes: s.n_mistakes,
            n_mistakes_avg: s.n_mistakes_avg,
        }
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

/// One online pass over the rows of `x` with the learner `params` describes, continuing from
/// `state` (as returned by a previous call) or from zero; returns the new state.
#[pyfunction]
#[pyo3(signature = (params, x, y, state = None, edges = None, costs = None, groups = None))]
#[allow(clippy::too_many_arguments)]
fn online_pass<'py>(
    py: Python<'py>,
    params: &Bound<'py, PyDict>,
    x: PyReadonlyArray2<'py, f64>,
    y: PyReadonlyArray1<'py, f64>,
    state: Option<&Bound<'py, PyAny>>,
    edges: Option<PyReadonlyArray2<'py, i64>>,
    costs: Option<PyReadonlyArray1<'py, f64>>,
    groups: Option<PyReadonlyArray1<'py, i64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let valid = learner_params(params)?.check().map_err(PyGsErr::from)?;
    let p = x.shape()[1];
    let edge_list = edges.as_ref().map(edge_list).transpose()?;
    let cost_slice = costs.as_ref().map(|c| c.as_slice()).transpose()?;
    let graph = match (&edge_list, cost_slice) {
        (Some(e), Some(c)) => Some(
            WeightedGraph::from_edges(p, e, Some(c), EdgeRules::MULTIGRAPH)
                .map_err(PyGsErr::from)?,
        ),
        (None, None) => None,
        _ => return Err(bad_param("edges and costs must be given together")),
    };
    let groups = match &groups {
        None => None,
        Some(g) => Some(groups_from_ids(g.as_slice()?, p)?),
    };
    let mut learner = valid.learner(p, graph, groups).map_err(PyGsErr::from)?;
    if let Some(st) = state {
        let st: State = extract_params(st)?;
        learner.set_state(st.into()).map_err(PyGsErr::from)?;
    }
    let (xs, ys) = (x.as_slice()?, y.as_slice()?);
    let (r, learner) = run(py, Exec::Thread, None, |ctl| {
        let r = learner.partial_fit_rows_until(xs, ys, &|| ctl.is_cancelled());
        (r, learner)
    })?;
    match r {
        Ok(()) => {}
        Err(OnlineError::Cancelled) => return Err(PyRuntimeError::new_err("cancelled")),
        Err(err) => return Err(PyGsErr::from(err).into()),
    }
    Ok(State::from(learner.state().clone())
        .into_pyobject(py)?
        .into_any())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(graph_projection, m)?)?;
    m.add_function(wrap_pyfunction!(online_pass, m)?)?;
    Ok(())
}
