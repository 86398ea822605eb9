//! Subgraph-learning bindings: BCGD fits and paths, the best-stump search, pattern matching.

use std::time::Duration;

use graphsparse::gspan::{DfsCode, DfsEdge, Truncation};
use graphsparse::subgraph::{
    BcgdFit, BcgdParams, Logistic, SeparableFunction, Squared, StumpParams, StumpSearch, adaboost,
    best_stump, fit_bcgd_path, match_patterns,
};
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{InvalidParameterError, PyGsErr};
use crate::graph::DbArrays;

fn bad_param(msg: String) -> PyErr {
    InvalidParameterError::new_err(msg)
}

fn opt_u64(name: &str, value: Option<i64>) -> PyResult<Option<u64>> {
    value
        .map(|v| u64::try_from(v).map_err(|_| bad_param(format!("{name} must be >= 0, got {v}"))))
        .transpose()
}

fn opt_duration(value: Option<f64>) -> PyResult<Option<Duration>> {
    match value {
        None => Ok(None),
        Some(t) if t.is_finite() && t >= 0.0 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(bad_param(format!(
            "time_limit must be finite and >= 0 or None, got {t}"
        ))),
    }
}

fn threads(n_threads: i64) -> PyResult<usize> {
    if n_threads < 1 {
        return Err(bad_param(format!(
            "n_threads must be >= 1, got {n_threads}"
        )));
    }
    Ok(n_threads as usize)
}

fn truncation_name(t: Truncation) -> &'static str {
    match t {
        Truncation::MaxNodes => "max_nodes",
        Truncation::TimeLimit => "time_limit",
        _ => "interrupted",
    }
}

fn code_array<'py>(py: Python<'py>, code: &DfsCode) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let rows: Vec<i64> = code
        .edges()
        .iter()
        .flat_map(|e| [e.from, e.to, e.from_label, e.edge_label, e.to_label].map(i64::from))
        .collect();
    rows.into_pyarray(py).reshape([code.len(), 5])
}

fn ids_array<'py>(py: Python<'py>, ids: &[u32]) -> Bound<'py, numpy::PyArray1<i64>> {
    ids.iter()
        .map(|&i| i64::from(i))
        .collect::<Vec<_>>()
        .into_pyarray(py)
}

/// One per-iteration history column as a NumPy array.
fn set_column<T: numpy::Element>(
    d: &Bound<'_, PyDict>,
    key: &str,
    values: impl Iterator<Item = T>,
) -> PyResult<()> {
    d.set_item(key, values.collect::<Vec<_>>().into_pyarray(d.py()))
}

fn fit_to_dict<'py>(py: Python<'py>, fit: &BcgdFit) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("intercept", fit.intercept)?;
    let coef: Vec<f64> = fit.features.iter().map(|f| f.coef).collect();
    d.set_item("coef", coef.into_pyarray(py))?;
    let codes = PyList::empty(py);
    let ids = PyList::empty(py);
    let eqs = PyList::empty(py);
    for f in &fit.features {
        codes.append(code_array(py, &f.code)?)?;
        ids.append(ids_array(py, &f.graph_ids))?;
        let e = PyList::empty(py);
        for c in &f.equivalents {
            e.append(code_array(py, c)?)?;
        }
        eqs.append(e)?;
    }
    d.set_item("codes", codes)?;
    d.set_item("graph_ids", ids)?;
    d.set_item("equivalents", eqs)?;
    d.set_item("n_iter", fit.n_iter)?;
    d.set_item("converged", fit.converged)?;
    d.set_item("truncated", fit.truncation.map(truncation_name))?;
    let h = &fit.history;
    set_column(&d, "objective", h.iter().map(|s| s.objective))?;
    set_column(&d, "nonzeros", h.iter().map(|s| s.nonzeros as i64))?;
    set_column(&d, "visited", h.iter().map(|s| s.visited as i64))?;
    set_column(&d, "skipped", h.iter().map(|s| s.skipped as i64))?;
    set_column(&d, "seconds", h.iter().map(|s| s.seconds))?;
    let trace = PyList::empty(py);
    for step in &fit.trace {
        let ids = PyList::empty(py);
        for (col, _) in &step.coefs {
            ids.append(ids_array(py, col))?;
        }
        let coefs: Vec<f64> = step.coefs.iter().map(|c| c.1).collect();
        trace.append((step.intercept, ids, coefs.into_pyarray(py)))?;
    }
    d.set_item("trace", trace)?;
    Ok(d)
}

/// Fits BCGD models along a `lambda1` grid (warm starts); returns one dict per `lambda1`.
#[pyfunction]
#[pyo3(signature = (
    db, y, loss, lambdas, lambda2, tol,
    max_iter, min_support, max_size, max_nodes, time_limit, prune, record_trace, n_threads,
    cache = true,
))]
#[allow(clippy::too_many_arguments)]
fn fit_subgraph_bcgd<'py>(
    py: Python<'py>,
    db: DbArrays<'py>,
    y: PyReadonlyArray1<'py, f64>,
    loss: &str,
    lambdas: PyReadonlyArray1<'py, f64>,
    lambda2: f64,
    tol: f64,
    max_iter: i64,
    min_support: i64,
    max_size: Option<i64>,
    max_nodes: Option<i64>,
    time_limit: Option<f64>,
    prune: bool,
    record_trace: bool,
    n_threads: i64,
    cache: bool,
) -> PyResult<Bound<'py, PyList>> {
    let db = db.database()?;
    let n_threads = threads(n_threads)?;
    let max_iter = usize::try_from(max_iter)
        .map_err(|_| bad_param(format!("max_iter must be >= 0, got {max_iter}")))?;
    let min_support = usize::try_from(min_support)
        .map_err(|_| bad_param(format!("min_support must be >= 1, got {min_support}")))?;
    let max_size = opt_u64("max_size", max_size)?.map(|v| v as usize);
    let lambdas = lambdas.as_slice()?.to_vec();
    let first = *lambdas
        .first()
        .ok_or_else(|| bad_param("lambda1 grid is empty".into()))?;
    let params = BcgdParams::new(first)
        .lambda2(lambda2)
        .tol(tol)
        .max_iter(max_iter)
        .min_support(min_support)
        .max_size(max_size)
        .max_nodes(opt_u64("max_nodes", max_nodes)?)
        .time_limit(opt_duration(time_limit)?)
        .prune(prune)
        .parallel(n_threads > 1)
        .cache(cache)
        .record_trace(record_trace)
        .check()
        .map_err(PyGsErr::from)?;
    let y = y.as_slice()?;
    let fits = match loss {
        "logistic" => crate::threads::run_interruptible(py, n_threads, |cancel| {
            fit_bcgd_path(&db, y, &Logistic, &params, &lambdas, cancel)
        })?,
        "squared" => crate::threads::run_interruptible(py, n_threads, |cancel| {
            fit_bcgd_path(&db, y, &Squared, &params, &lambdas, cancel)
        })?,
        other => {
            return Err(bad_param(format!(
                "loss must be 'logistic' or 'squared', got {other:?}"
            )));
        }
    }
    .map_err(PyGsErr::from)?;
    let out = PyList::empty(py);
    for f in &fits {
        out.append(fit_to_dict(py, f)?)?;
    }
    Ok(out)
}

/// The stump `(pattern, sign)` with the largest weighted gain, by branch and bound.
#[pyfunction]
#[pyo3(signature = (
    db, weights, labels, min_support,
    max_size, max_nodes, time_limit, prune, n_threads,
))]
#[allow(clippy::too_many_arguments)]
fn best_subgraph_stump<'py>(
    py: Python<'py>,
    db: DbArrays<'py>,
    weights: PyReadonlyArray1<'py, f64>,
    labels: PyReadonlyArray1<'py, f64>,
    min_support: i64,
    max_size: Option<i64>,
    max_nodes: Option<i64>,
    time_limit: Option<f64>,
    prune: bool,
    n_threads: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let db = db.database()?;
    let n_threads = threads(n_threads)?;
    let params = stump_params(
        min_support,
        max_size,
        max_nodes,
        time_limit,
        prune,
        n_threads > 1,
    )?;
    let (w, l) = (weights.as_slice()?, labels.as_slice()?);
    let s = crate::threads::run_interruptible(py, n_threads, |cancel| {
        best_stump(&db, w, l, &params, cancel)
    })?
    .map_err(PyGsErr::from)?;
    stump_to_dict(py, &s)
}

fn stump_params(
    min_support: i64,
    max_size: Option<i64>,
    max_nodes: Option<i64>,
    time_limit: Option<f64>,
    prune: bool,
    parallel: bool,
) -> PyResult<StumpParams> {
    Ok(StumpParams {
        min_support: usize::try_from(min_support)
            .map_err(|_| bad_param(format!("min_support must be >= 1, got {min_support}")))?,
        max_size: opt_u64("max_size", max_size)?.map(|v| v as usize),
        max_nodes: opt_u64("max_nodes", max_nodes)?,
        time_limit: opt_duration(time_limit)?,
        prune,
        parallel,
    })
}

fn stump_to_dict<'py>(py: Python<'py>, s: &StumpSearch) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match &s.code {
        Some(c) => d.set_item("code", code_array(py, c)?)?,
        None => d.set_item("code", py.None())?,
    }
    d.set_item("graph_ids", ids_array(py, &s.graph_ids))?;
    d.set_item("sign", s.sign)?;
    d.set_item("gain", s.gain)?;
    d.set_item("visited", s.visited)?;
    d.set_item("truncated", s.truncation.map(truncation_name))?;
    Ok(d)
}

/// Repeated best-stump searches on one database sharing a cache of the visited tree
/// (LPBoost's pricing step: one search per column under the master LP's dual weights).
#[pyclass(module = "graphsparse._graphsparse")]
struct StumpSearcher {
    db: graphsparse::graph::GraphDatabase,
    inner: graphsparse::subgraph::StumpSearcher,
    n_threads: usize,
}

#[pymethods]
impl StumpSearcher {
    #[new]
    #[pyo3(signature = (
        db, min_support, max_size, max_nodes,
        time_limit, prune, n_threads = 1,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        db: DbArrays<'_>,
        min_support: i64,
        max_size: Option<i64>,
        max_nodes: Option<i64>,
        time_limit: Option<f64>,
        prune: bool,
        n_threads: i64,
    ) -> PyResult<Self> {
        let n_threads = threads(n_threads)?;
        let db = db.database()?;
        let params = stump_params(
            min_support,
            max_size,
            max_nodes,
            time_limit,
            prune,
            n_threads > 1,
        )?;
        let inner =
            graphsparse::subgraph::StumpSearcher::new(&db, &params).map_err(PyGsErr::from)?;
        Ok(Self {
            db,
            inner,
            n_threads,
        })
    }

    /// The best stump under `weights` (one per graph, >= 0) and `labels` (+-1), as a dict
    /// like `best_subgraph_stump`'s.
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        weights: PyReadonlyArray1<'py, f64>,
        labels: PyReadonlyArray1<'py, f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (w, l) = (weights.as_slice()?, labels.as_slice()?);
        let (db, inner) = (&self.db, &mut self.inner);
        let s = crate::threads::run_interruptible(py, self.n_threads, |cancel| {
            inner.search(db, w, l, cancel)
        })?
        .map_err(PyGsErr::from)?;
        stump_to_dict(py, &s)
    }

    /// Tree nodes held in the cache (the root included).
    #[getter]
    fn cached_nodes(&self) -> usize {
        self.inner.cached_nodes()
    }
}

/// Adaboost with subgraph stumps (searches share a cache of the visited tree).
#[pyfunction]
#[pyo3(signature = (
    db, labels, rounds, min_support,
    max_size, max_nodes, time_limit, n_threads = 1,
))]
#[allow(clippy::too_many_arguments)]
fn fit_subgraph_adaboost<'py>(
    py: Python<'py>,
    db: DbArrays<'py>,
    labels: PyReadonlyArray1<'py, f64>,
    rounds: i64,
    min_support: i64,
    max_size: Option<i64>,
    max_nodes: Option<i64>,
    time_limit: Option<f64>,
    n_threads: i64,
) -> PyResult<Bound<'py, PyDict>> {
    let n_threads = threads(n_threads)?;
    let db = db.database()?;
    let rounds = usize::try_from(rounds)
        .map_err(|_| bad_param(format!("n_estimators must be >= 1, got {rounds}")))?;
    let params = stump_params(
        min_support,
        max_size,
        max_nodes,
        time_limit,
        true,
        n_threads > 1,
    )?;
    let l = labels.as_slice()?;
    let fit = crate::threads::run_interruptible(py, n_threads, |cancel| {
        adaboost(&db, l, rounds, &params, cancel)
    })?
    .map_err(PyGsErr::from)?;
    let d = PyDict::new(py);
    let codes = PyList::empty(py);
    let ids = PyList::empty(py);
    for s in &fit.stumps {
        codes.append(code_array(py, &s.code)?)?;
        ids.append(ids_array(py, &s.graph_ids))?;
    }
    d.set_item("codes", codes)?;
    d.set_item("graph_ids", ids)?;
    let signs: Vec<f64> = fit.stumps.iter().map(|s| s.sign).collect();
    let weights: Vec<f64> = fit.stumps.iter().map(|s| s.weight).collect();
    d.set_item("signs", signs.into_pyarray(py))?;
    d.set_item("weights", weights.into_pyarray(py))?;
    let visited: Vec<i64> = fit.visited.iter().map(|&v| v as i64).collect();
    d.set_item("visited", visited.into_pyarray(py))?;
    d.set_item("truncated", fit.truncation.map(truncation_name))?;
    Ok(d)
}

/// For each pattern (an int64 DFS code of shape `(k, 5)`), the graphs that contain it.
#[pyfunction]
#[pyo3(signature = (db, codes, n_threads))]
#[allow(clippy::too_many_arguments)]
fn match_subgraph_patterns<'py>(
    py: Python<'py>,
    db: DbArrays<'py>,
    codes: Vec<PyReadonlyArray2<'py, i64>>,
    n_threads: i64,
) -> PyResult<Bound<'py, PyList>> {
    let db = db.database()?;
    let n_threads = threads(n_threads)?;
    let mut patterns = Vec::with_capacity(codes.len());
    for (k, c) in codes.iter().enumerate() {
        let flat = c.as_slice()?;
        if flat.len() % 5 != 0 {
            return Err(bad_param(format!("codes[{k}] must have 5 columns")));
        }
        let mut edges = Vec::with_capacity(flat.len() / 5);
        for r in flat.chunks_exact(5) {
            let v: Vec<u32> = r
                .iter()
                .map(|&x| {
                    u32::try_from(x)
                        .map_err(|_| bad_param(format!("codes[{k}] has a negative entry {x}")))
                })
                .collect::<PyResult<_>>()?;
            edges.push(DfsEdge::new(v[0], v[1], v[2], v[3], v[4]));
        }
        patterns.push(DfsCode::from_edges(edges).map_err(PyGsErr::from)?);
    }
    let found = crate::threads::run_interruptible(py, n_threads, |_cancel| {
        match_patterns(&db, &patterns, n_threads > 1)
    })?;
    let out = PyList::empty(py);
    for ids in &found {
        out.append(ids_array(py, ids))?;
    }
    Ok(out)
}

/// `(f(v), lower(u), upper(u))` of the separable function `f_i(0) = f0[i]`, `f_i(1) = f1[i]`
/// for the pattern occurring in `graph_ids`: the Morishita–Kudo primitive every search prunes
/// with, exposed so that the Python suite can check it against a naive evaluation on real trees.
#[pyfunction]
fn separable_bounds(
    f0: PyReadonlyArray1<'_, f64>,
    f1: PyReadonlyArray1<'_, f64>,
    graph_ids: PyReadonlyArray1<'_, i64>,
) -> PyResult<(f64, f64, f64)> {
    let (f0, f1, ids) = (f0.as_slice()?, f1.as_slice()?, graph_ids.as_slice()?);
    if f0.len() != f1.len() {
        return Err(bad_param(format!(
            "f0 ({}) and f1 ({}) need one value per graph",
            f0.len(),
            f1.len()
        )));
    }
    if f0.iter().chain(f1).any(|v| !v.is_finite()) {
        return Err(bad_param("f0 and f1 must be finite".into()));
    }
    let ids: Vec<u32> = ids
        .iter()
        .map(|&i| {
            usize::try_from(i)
                .ok()
                .filter(|&i| i < f0.len())
                .map(|i| i as u32)
                .ok_or_else(|| {
                    bad_param(format!("graph_ids must lie in [0, {}), got {i}", f0.len()))
                })
        })
        .collect::<PyResult<_>>()?;
    let f = SeparableFunction::new(f0, f1);
    let b = f.bounds(&ids);
    Ok((f.value(&ids), b.lower, b.upper))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(separable_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(fit_subgraph_bcgd, m)?)?;
    m.add_function(wrap_pyfunction!(best_subgraph_stump, m)?)?;
    m.add_class::<StumpSearcher>()?;
    m.add_function(wrap_pyfunction!(fit_subgraph_adaboost, m)?)?;
    m.add_function(wrap_pyfunction!(match_subgraph_patterns, m)?)?;
    Ok(())
}
