//! Online learners and WGM head/tail projections (`graphsparse.online`).

use graphsparse::online::{
    Fallback, GraphProjection, GraphProjectionParams, Groups, LearnerParams, Loss, Method,
    OnlineError, OnlineState, ProjectionParams, SupportProjection, head_sparsity,
};
use numpy::{
    IntoPyArray, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

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
    let params = GraphProjectionParams {
        sparsity: s,
        head_sparsity: Some(s),
        ratio: a.ratio.0,
        search: ProjectionParams {
            num_clusters: a.num_clusters.usize(),
            max_iter: a.max_iter.usize(),
            fallback: a.fallback.0,
            eps: a.eps.0,
        },
    };
    let edges = edge_list(&edges)?;
    let costs = costs.as_slice()?;
    let out = py
        .detach(|| {
            let mut proj = GraphProjection::new(w.len(), &edges, costs, &params)?;
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
        GraphProjectionParams {
            sparsity: self.sparsity.usize(),
            head_sparsity: self.head_sparsity.map(Count::usize),
            ratio: self.ratio.0,
            search: ProjectionParams {
                num_clusters: self.num_clusters.usize(),
                max_iter: self.max_iter.usize(),
                fallback: self.fallback.0,
                ..ProjectionParams::default()
            },
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

/// `"logistic"` or `"least_squares"`.
struct LossArg(Loss);

impl<'py> FromPyObject<'_, 'py> for LossArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<&str>().ok() {
            Some("logistic") => Ok(Self(Loss::Logistic)),
            Some("least_squares") => Ok(Self(Loss::LeastSquares)),
            _ => Err(bad_param(format!(
                "must be 'logistic' or 'least_squares', got {}",
                obj.repr()?
            ))),
        }
    }
}

/// The hyperparameters of each method: one typed struct per [`Method`] variant.
mod method_args {
    use super::{Count, Real};
    use pyo3::prelude::*;

    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct GraphDa {
        pub gamma: Real,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct GraphStoIht {
        pub lr: Real,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct DaIht {
        pub gamma: Real,
        pub sparsity: Count,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct StoIht {
        pub lr: Real,
        pub sparsity: Count,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct L1Rda {
        #[pyo3(item("lam"))]
        pub lambda: Real,
        pub gamma: Real,
        pub rho: Real,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct AdaGradL1 {
        #[pyo3(item("lam"))]
        pub lambda: Real,
        pub eta: Real,
        pub delta: Real,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct DaGroupLasso {
        #[pyo3(item("lam"))]
        pub lambda: Real,
        pub gamma: Real,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct DaSparseGroupLasso {
        #[pyo3(item("lam"))]
        pub lambda: Real,
        pub gamma: Real,
        pub r: Real,
    }
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    pub struct Adam {
        pub alpha: Real,
        pub beta1: Real,
        pub beta2: Real,
        pub epsilon: Real,
    }
}

/// A learner's parameters: `{"method": name, "loss": ..., "l2": ..., <the method's own>}`,
/// converted to the core's [`LearnerParams`] (checked by the core).
fn learner_params(params: &Bound<'_, PyDict>) -> PyResult<LearnerParams> {
    use method_args as a;
    #[derive(FromPyObject)]
    #[pyo3(from_item_all)]
    struct Common {
        method: String,
        loss: LossArg,
        l2: Real,
    }
    let common: Common = extract_params(params.as_any())?;
    let p = params.as_any();
    let method = match common.method.as_str() {
        "graph_da" => {
            let m: a::GraphDa = extract_params(p)?;
            Method::GraphDa {
                gamma: m.gamma.0,
                graph: extract_params::<GraphArgs>(p)?.params(),
            }
        }
        "graph_sto_iht" => {
            let m: a::GraphStoIht = extract_params(p)?;
            Method::GraphStoIht {
                lr: m.lr.0,
                graph: extract_params::<GraphArgs>(p)?.params(),
            }
        }
        "da_iht" => {
            let m: a::DaIht = extract_params(p)?;
            Method::DaIht {
                gamma: m.gamma.0,
                sparsity: m.sparsity.usize(),
            }
        }
        "sto_iht" => {
            let m: a::StoIht = extract_params(p)?;
            Method::StoIht {
                lr: m.lr.0,
                sparsity: m.sparsity.usize(),
            }
        }
        "l1_rda" => {
            let m: a::L1Rda = extract_params(p)?;
            Method::L1Rda {
                lambda: m.lambda.0,
                gamma: m.gamma.0,
                rho: m.rho.0,
            }
        }
        "adagrad_l1" => {
            let m: a::AdaGradL1 = extract_params(p)?;
            Method::AdaGradL1 {
                lambda: m.lambda.0,
                eta: m.eta.0,
                delta: m.delta.0,
            }
        }
        "da_gl" => {
            let m: a::DaGroupLasso = extract_params(p)?;
            Method::DaGroupLasso {
                lambda: m.lambda.0,
                gamma: m.gamma.0,
            }
        }
        "da_sgl" => {
            let m: a::DaSparseGroupLasso = extract_params(p)?;
            Method::DaSparseGroupLasso {
                lambda: m.lambda.0,
                gamma: m.gamma.0,
                r: m.r.0,
            }
        }
        "adam" => {
            let m: a::Adam = extract_params(p)?;
            Method::Adam {
                alpha: m.alpha.0,
                beta1: m.beta1.0,
                beta2: m.beta2.0,
                epsilon: m.epsilon.0,
            }
        }
        other => return Err(bad_param(format!("unknown online method {other:?}"))),
    };
    Ok(LearnerParams::new(method)
        .loss(common.loss.0)
        .l2(common.l2.0))
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
        (Some(e), Some(c)) => Some((e.as_slice(), c)),
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
