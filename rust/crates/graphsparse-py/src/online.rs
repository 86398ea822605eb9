//! Online learners and WGM head/tail projections (`graphsparse.online`).

use graphsparse::online::{
    AdaGradL1, Adam, DaGroupLasso, DaIht, Fallback, GraphDa, GraphProjectionParams, GraphProjector,
    GraphStoIht, Groups, L1Rda, Loss, OnlineError, OnlineLearner, OnlineState, ProjectionParams,
    StoIht,
};
use numpy::{
    IntoPyArray, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{PyGsErr, bad_param, edge_list};
use crate::threads::{Exec, run};

fn bad(msg: String) -> PyErr {
    bad_param(msg)
}

fn fallback_from(s: &str) -> PyResult<Fallback> {
    match s {
        "lambda_high" => Ok(Fallback::LambdaHigh),
        "closest" => Ok(Fallback::Closest),
        other => Err(bad(format!(
            "fallback must be 'lambda_high' or 'closest', got {other:?}"
        ))),
    }
}

/// GraphDA's binary-search projection; returns `(nodes, edges, n_iter)`.
#[pyfunction]
#[pyo3(signature = (w, edges, costs, s_low, s_high, num_clusters = 1, max_iter = 20, fallback = "lambda_high", eps = 1e-10))]
#[allow(clippy::too_many_arguments)]
fn graph_projection<'py>(
    py: Python<'py>,
    w: PyReadonlyArray1<'py, f64>,
    edges: PyReadonlyArray2<'py, i64>,
    costs: PyReadonlyArray1<'py, f64>,
    s_low: usize,
    s_high: usize,
    num_clusters: usize,
    max_iter: usize,
    fallback: &str,
    eps: f64,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, usize)> {
    let w = w.as_slice()?;
    let edges = edge_list(&edges)?;
    let costs = costs.as_slice()?;
    let params = ProjectionParams {
        num_clusters,
        max_iter,
        fallback: fallback_from(fallback)?,
        eps,
    };
    let out = py
        .detach(|| {
            let mut proj = GraphProjector::new(w.len(), &edges, costs)?;
            proj.project(w, s_low, s_high, &params)
        })
        .map_err(PyGsErr::from)?;
    let nodes: Vec<i64> = out.nodes.iter().map(|&v| v as i64).collect();
    let es: Vec<i64> = out.edges.iter().map(|&v| v as i64).collect();
    Ok((
        nodes.into_pyarray(py).into_any(),
        es.into_pyarray(py).into_any(),
        out.n_iter,
    ))
}

struct Params<'a, 'py>(&'a Bound<'py, PyDict>);

impl Params<'_, '_> {
    fn item(&self, key: &str) -> PyResult<Bound<'_, PyAny>> {
        self.0
            .get_item(key)?
            .ok_or_else(|| bad(format!("missing parameter {key:?}")))
    }
    fn f64(&self, key: &str) -> PyResult<f64> {
        self.item(key)?
            .extract()
            .map_err(|_| bad(format!("{key} must be a real number")))
    }
    fn usize(&self, key: &str) -> PyResult<usize> {
        self.item(key)?
            .extract()
            .map_err(|_| bad(format!("{key} must be a non-negative integer")))
    }
    fn opt_usize(&self, key: &str) -> PyResult<Option<usize>> {
        match self.0.get_item(key)? {
            None => Ok(None),
            Some(v) if v.is_none() => Ok(None),
            Some(v) => v
                .extract()
                .map(Some)
                .map_err(|_| bad(format!("{key} must be a positive integer or None"))),
        }
    }
    fn string(&self, key: &str) -> PyResult<String> {
        self.item(key)?
            .extract()
            .map_err(|_| bad(format!("{key} must be a string")))
    }
    fn loss(&self) -> PyResult<Loss> {
        match self.string("loss")?.as_str() {
            "logistic" => Ok(Loss::Logistic),
            "least_squares" => Ok(Loss::LeastSquares),
            other => Err(bad(format!(
                "loss must be 'logistic' or 'least_squares', got {other:?}"
            ))),
        }
    }
    fn graph(&self) -> PyResult<GraphProjectionParams> {
        Ok(GraphProjectionParams {
            sparsity: self.usize("sparsity")?,
            head_sparsity: self.opt_usize("head_sparsity")?,
            ratio: self.f64("ratio")?,
            search: ProjectionParams {
                num_clusters: self.usize("num_clusters")?,
                max_iter: self.usize("max_iter")?,
                fallback: fallback_from(&self.string("fallback")?)?,
                ..ProjectionParams::default()
            },
        })
    }
}

type Learner = Box<dyn OnlineLearner + Send>;

fn build(
    method: &str,
    p: usize,
    params: &Params<'_, '_>,
    graph: Option<(&[[usize; 2]], &[f64])>,
    groups: Option<Groups>,
) -> PyResult<Learner> {
    let loss = params.loss()?;
    let l2 = params.f64("l2")?;
    let need_graph =
        || graph.ok_or_else(|| bad(format!("method {method:?} needs edges and costs")));
    let e = PyGsErr::from;
    let l: Learner = match method {
        "graph_da" => {
            let (edges, costs) = need_graph()?;
            Box::new(
                GraphDa::new(
                    p,
                    edges,
                    costs,
                    params.f64("gamma")?,
                    &params.graph()?,
                    loss,
                    l2,
                )
                .map_err(e)?,
            )
        }
        "graph_sto_iht" => {
            let (edges, costs) = need_graph()?;
            Box::new(
                GraphStoIht::new(
                    p,
                    edges,
                    costs,
                    params.f64("lr")?,
                    &params.graph()?,
                    loss,
                    l2,
                )
                .map_err(e)?,
            )
        }
        "da_iht" => Box::new(
            DaIht::new(p, params.f64("gamma")?, params.usize("sparsity")?, loss, l2).map_err(e)?,
        ),
        "sto_iht" => Box::new(
            StoIht::new(p, params.f64("lr")?, params.usize("sparsity")?, loss, l2).map_err(e)?,
        ),
        "l1_rda" => Box::new(
            L1Rda::new(
                p,
                params.f64("lam")?,
                params.f64("gamma")?,
                params.f64("rho")?,
                loss,
                l2,
            )
            .map_err(e)?,
        ),
        "adagrad_l1" => Box::new(
            AdaGradL1::new(
                p,
                params.f64("lam")?,
                params.f64("eta")?,
                params.f64("delta")?,
                loss,
                l2,
            )
            .map_err(e)?,
        ),
        "da_gl" | "da_sgl" => {
            let groups = groups.unwrap_or_else(|| Groups::singletons(p));
            let (lam, gamma) = (params.f64("lam")?, params.f64("gamma")?);
            let m = if method == "da_gl" {
                DaGroupLasso::group_lasso(p, lam, gamma, groups, loss, l2)
            } else {
                DaGroupLasso::sparse_group_lasso(p, lam, gamma, params.f64("r")?, groups, loss, l2)
            };
            Box::new(m.map_err(e)?)
        }
        "adam" => Box::new(
            Adam::new(
                p,
                params.f64("alpha")?,
                params.f64("beta1")?,
                params.f64("beta2")?,
                params.f64("epsilon")?,
                loss,
                l2,
            )
            .map_err(e)?,
        ),
        other => return Err(bad(format!("unknown online method {other:?}"))),
    };
    Ok(l)
}

fn vec_of(state: &Bound<'_, PyDict>, key: &str) -> PyResult<Vec<f64>> {
    match state.get_item(key)? {
        None => Ok(Vec::new()),
        Some(v) if v.is_none() => Ok(Vec::new()),
        Some(v) => {
            let a: PyReadonlyArray1<'_, f64> = v
                .extract()
                .map_err(|_| bad(format!("state {key:?} must be a 1-d float64 array")))?;
            Ok(a.as_slice().map(<[f64]>::to_vec).or_else(|_| a.to_vec())?)
        }
    }
}

fn state_from(state: &Bound<'_, PyDict>) -> PyResult<OnlineState> {
    let num = |key: &str| -> PyResult<f64> {
        match state.get_item(key)? {
            None => Ok(0.0),
            Some(v) => v
                .extract()
                .map_err(|_| bad(format!("state {key:?} must be a number"))),
        }
    };
    let count = |key: &str| -> PyResult<u64> {
        match state.get_item(key)? {
            None => Ok(0),
            Some(v) => v
                .extract()
                .map_err(|_| bad(format!("state {key:?} must be a non-negative integer"))),
        }
    };
    Ok(OnlineState {
        coef: vec_of(state, "coef")?,
        coef_avg: vec_of(state, "coef_avg")?,
        grad_avg: vec_of(state, "grad_avg")?,
        grad_sq_sum: vec_of(state, "grad_sq_sum")?,
        moment1: vec_of(state, "moment1")?,
        moment2: vec_of(state, "moment2")?,
        beta1_power: num("beta1_power")?,
        beta2_power: num("beta2_power")?,
        n_seen: count("n_seen")?,
        n_mistakes: count("n_mistakes")?,
        n_mistakes_avg: count("n_mistakes_avg")?,
    })
}

fn state_to<'py>(py: Python<'py>, s: OnlineState) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (key, v) in [
        ("coef", s.coef),
        ("coef_avg", s.coef_avg),
        ("grad_avg", s.grad_avg),
        ("grad_sq_sum", s.grad_sq_sum),
        ("moment1", s.moment1),
        ("moment2", s.moment2),
    ] {
        if !v.is_empty() {
            d.set_item(key, v.into_pyarray(py))?;
        }
    }
    d.set_item("beta1_power", s.beta1_power)?;
    d.set_item("beta2_power", s.beta2_power)?;
    d.set_item("n_seen", s.n_seen)?;
    d.set_item("n_mistakes", s.n_mistakes)?;
    d.set_item("n_mistakes_avg", s.n_mistakes_avg)?;
    Ok(d)
}

/// One online pass of `method` over the rows of `x`, continuing from `state` (a dict as
/// returned by a previous call) or from zero; returns the new state dict.
#[pyfunction]
#[pyo3(signature = (method, params, x, y, state = None, edges = None, costs = None, groups = None))]
#[allow(clippy::too_many_arguments)]
fn online_pass<'py>(
    py: Python<'py>,
    method: &str,
    params: &Bound<'py, PyDict>,
    x: PyReadonlyArray2<'py, f64>,
    y: PyReadonlyArray1<'py, f64>,
    state: Option<&Bound<'py, PyDict>>,
    edges: Option<PyReadonlyArray2<'py, i64>>,
    costs: Option<PyReadonlyArray1<'py, f64>>,
    groups: Option<PyReadonlyArray1<'py, i64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let p = x.shape()[1];
    let xs = x.as_slice()?;
    let ys = y.as_slice()?;
    if ys.len() != x.shape()[0] {
        return Err(bad(format!(
            "y has {} entries, X has {} rows",
            ys.len(),
            x.shape()[0]
        )));
    }
    let edge_list = edges.as_ref().map(edge_list).transpose()?;
    let cost_slice = costs.as_ref().map(|c| c.as_slice()).transpose()?;
    let graph = match (&edge_list, cost_slice) {
        (Some(e), Some(c)) => Some((e.as_slice(), c)),
        (None, None) => None,
        _ => return Err(bad("edges and costs must be given together".into())),
    };
    let groups = match groups {
        None => None,
        Some(g) => {
            let labels = g.as_slice()?;
            if labels.len() != p {
                return Err(bad(format!(
                    "groups has {} entries, X has {p} features",
                    labels.len()
                )));
            }
            let n_groups = labels.iter().copied().max().unwrap_or(-1) + 1;
            let mut lists = vec![Vec::new(); n_groups.max(0) as usize];
            for (i, &k) in labels.iter().enumerate() {
                if k >= 0 {
                    lists[k as usize].push(i);
                }
            }
            lists.retain(|l| !l.is_empty());
            Some(Groups::new(p, &lists).map_err(PyGsErr::from)?)
        }
    };
    let mut learner = build(method, p, &Params(params), graph, groups)?;
    if let Some(st) = state {
        learner.set_state(state_from(st)?).map_err(PyGsErr::from)?;
    }
    let result = run(py, Exec::Thread, None, |ctl| {
        let r = learner.partial_fit_rows_until(xs, ys, &|| ctl.is_cancelled());
        (r, learner)
    })?;
    let (r, learner) = result;
    match r {
        Ok(()) => {}
        Err(OnlineError::Cancelled) => return Err(PyRuntimeError::new_err("cancelled")),
        Err(err) => return Err(PyGsErr::from(err).into()),
    }
    state_to(py, learner.state().clone())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(graph_projection, m)?)?;
    m.add_function(wrap_pyfunction!(online_pass, m)?)?;
    Ok(())
}
