//! Subgraph-learning bindings: BCGD fits and paths, Adaboost, the cached stump searcher,
//! pattern matching and the Morishita–Kudo bounds.

use std::sync::Arc;

use graphsparse::graph::GraphDatabase;
use graphsparse::gspan::DfsCode;
use graphsparse::subgraph::{
    BcgdFit, BcgdParams, BcgdValidParams, Check, DEFAULT_CACHE_BYTES, Logistic, Parallel,
    SeparableFunction, Squared, StumpParams, StumpSearch, StumpValidParams, SubgraphError,
    adaboost, fit_bcgd_path, match_patterns,
};
use numpy::{IntoPyArray, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{
    Count, Flag, NodeBudget, PyGsErr, Real, Seconds, bad_param, code_array, dfs_code,
    extract_params, ids_array,
};
use crate::graph::Database;
use crate::threads::{Exec, run, threads};

/// The pattern-search parameters of BCGD and of the stump searches (boosting), as a dict.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct SearchArgs {
    min_support: Count,
    max_size: Option<Count>,
    max_nodes: Option<NodeBudget>,
    time_limit: Seconds,
    prune: Flag,
    /// Byte budget of the frontier embeddings (absent: the core's default).
    #[pyo3(default)]
    cache_bytes: Option<Count>,
}

/// `$builder` (a `BcgdParams` or a `StumpParams`: their setters share names, not a trait) with
/// the settings of `$search` (a [`SearchArgs`]) and `parallel` set to `$parallel`.
macro_rules! with_search {
    ($builder:expr, $search:expr, $parallel:expr) => {{
        let s: &SearchArgs = $search;
        $builder
            .min_support(s.min_support.usize())
            .max_size(s.max_size.map(Count::usize))
            .max_nodes(s.max_nodes.map(|b| b.0))
            .time_limit(s.time_limit.0)
            .prune(s.prune.0)
            .parallel($parallel)
            .cache_bytes(s.cache_bytes.map_or(DEFAULT_CACHE_BYTES, Count::usize))
    }};
}

impl SearchArgs {
    fn stump_params(&self, parallel: Parallel) -> Result<StumpValidParams, SubgraphError> {
        with_search!(StumpParams::new(), self, parallel).check()
    }
}

/// The parameters of a BCGD fit besides its [`SearchArgs`] and `lambda1` (which is the path),
/// read from the same dict.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct BcgdArgs {
    lambda2: Real,
    tol: Real,
    max_iter: Count,
    cache: Flag,
    screening: Flag,
    record_trace: Flag,
}

impl BcgdArgs {
    fn params(
        &self,
        search: &SearchArgs,
        lambda1: f64,
        parallel: Parallel,
    ) -> Result<BcgdValidParams, SubgraphError> {
        let builder = BcgdParams::new(lambda1)
            .lambda2(self.lambda2.0)
            .tol(self.tol.0)
            .max_iter(self.max_iter.usize())
            .cache(self.cache.0)
            .screening(self.screening.0)
            .record_trace(self.record_trace.0);
        with_search!(builder, search, parallel).check()
    }
}

/// The number of Adaboost rounds, read from the same dict as [`SearchArgs`].
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct RoundsArg {
    n_estimators: Count,
}

/// One per-iteration history column as a NumPy array.
fn set_column<T: numpy::Element>(
    d: &Bound<'_, PyDict>,
    key: &str,
    values: impl Iterator<Item = T>,
) -> PyResult<()> {
    d.set_item(key, values.collect::<Vec<_>>().into_pyarray(d.py()))
}

/// Sets `codes` (a `(k, 5)` DFS-code array per pattern) and `graph_ids` (the graphs of each).
fn set_patterns<'a>(
    d: &Bound<'_, PyDict>,
    patterns: impl Iterator<Item = (&'a DfsCode, &'a [u32])>,
) -> PyResult<()> {
    let py = d.py();
    let codes = PyList::empty(py);
    let ids = PyList::empty(py);
    for (code, graph_ids) in patterns {
        codes.append(code_array(py, code)?)?;
        ids.append(ids_array(py, graph_ids))?;
    }
    d.set_item("codes", codes)?;
    d.set_item("graph_ids", ids)
}

fn fit_to_dict<'py>(py: Python<'py>, fit: &BcgdFit) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("intercept", fit.intercept)?;
    let coef: Vec<f64> = fit.features.iter().map(|f| f.coef).collect();
    d.set_item("coef", coef.into_pyarray(py))?;
    let features = &fit.features;
    set_patterns(
        &d,
        features.iter().map(|f| (&f.code, f.graph_ids.as_slice())),
    )?;
    let eqs = PyList::empty(py);
    for f in features {
        let e = PyList::empty(py);
        for c in &f.equivalents {
            e.append(code_array(py, c)?)?;
        }
        eqs.append(e)?;
    }
    d.set_item("equivalents", eqs)?;
    d.set_item("n_iter", fit.n_iter)?;
    d.set_item("converged", fit.converged)?;
    d.set_item("truncated", fit.truncation.map(|t| t.as_str()))?;
    let h = &fit.history;
    set_column(&d, "objective", h.iter().map(|s| s.objective))?;
    set_column(&d, "nonzeros", h.iter().map(|s| s.nonzeros as i64))?;
    set_column(&d, "visited", h.iter().map(|s| s.visited as i64))?;
    set_column(&d, "skipped", h.iter().map(|s| s.skipped as i64))?;
    set_column(&d, "seconds", h.iter().map(|s| s.seconds))?;
    set_column(&d, "pruned_bound", h.iter().map(|s| s.pruned_bound as i64))?;
    set_column(&d, "pruned_spp", h.iter().map(|s| s.pruned_spp as i64))?;
    set_column(&d, "duality_gap", h.iter().map(|s| s.duality_gap))?;
    d.set_item("gap", fit.duality_gap)?;
    d.set_item("total_visited", fit.visited())?;
    d.set_item("total_pruned_bound", fit.pruned_by_bound())?;
    d.set_item("total_pruned_spp", fit.pruned_by_spp())?;
    d.set_item("path_searches", fit.path_history.len())?;
    d.set_item("lambda_max", fit.lambda_max)?;
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
///
/// `loss` is `"logistic"` or `"squared"`; `params` a dict of the other parameters.
#[pyfunction]
#[pyo3(signature = (db, y, loss, lambdas, params, n_threads = 1, progress = None))]
#[allow(clippy::too_many_arguments)]
fn fit_subgraph_bcgd<'py>(
    py: Python<'py>,
    db: &Database,
    y: PyReadonlyArray1<'py, f64>,
    loss: &str,
    lambdas: PyReadonlyArray1<'py, f64>,
    params: &Bound<'py, PyAny>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let args = extract_params::<BcgdArgs>(params)?;
    let search = extract_params::<SearchArgs>(params)?;
    let n_threads = threads(py, n_threads)?;
    let lambdas = lambdas.as_slice()?;
    let first = *lambdas
        .first()
        .ok_or_else(|| bad_param("lambdas must hold at least one lambda1"))?;
    let params = args
        .params(&search, first, Parallel::from(n_threads > 1))
        .map_err(PyGsErr::from)?;
    let (y, db) = (y.as_slice()?, &db.0);
    let exec = Exec::Pool(n_threads);
    let fits = match loss {
        "logistic" => run(py, exec, progress, |ctl| {
            fit_bcgd_path(db, y, &Logistic, &params, lambdas, ctl)
        })?,
        "squared" => run(py, exec, progress, |ctl| {
            fit_bcgd_path(db, y, &Squared, &params, lambdas, ctl)
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
    d.set_item("truncated", s.truncation.map(|t| t.as_str()))?;
    Ok(d)
}

/// Repeated best-stump searches on one database sharing a cache of the visited tree
/// (LPBoost's pricing step: one search per column under the master LP's dual weights).
#[pyclass(module = "graphsparse._graphsparse")]
struct StumpSearcher {
    db: Arc<GraphDatabase>,
    inner: graphsparse::subgraph::StumpSearcher,
    n_threads: usize,
}

#[pymethods]
impl StumpSearcher {
    #[new]
    #[pyo3(signature = (db, params, n_threads = 1))]
    fn new(
        py: Python<'_>,
        db: &Database,
        params: &Bound<'_, PyAny>,
        n_threads: usize,
    ) -> PyResult<Self> {
        let n_threads = threads(py, n_threads)?;
        let params = extract_params::<SearchArgs>(params)?
            .stump_params(Parallel::from(n_threads > 1))
            .map_err(PyGsErr::from)?;
        let inner = graphsparse::subgraph::StumpSearcher::new(&db.0, &params);
        Ok(Self {
            db: Arc::clone(&db.0),
            inner,
            n_threads,
        })
    }

    /// The best stump under `weights` (one per graph, >= 0) and `labels` (+-1), as a dict
    /// with `code`, `graph_ids`, `sign`, `gain`, `visited` and `truncated`.
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        weights: PyReadonlyArray1<'py, f64>,
        labels: PyReadonlyArray1<'py, f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (w, l) = (weights.as_slice()?, labels.as_slice()?);
        let (db, inner) = (&self.db, &mut self.inner);
        let s = run(py, Exec::Pool(self.n_threads), None, |ctl| {
            inner.search(db, w, l, ctl)
        })?
        .map_err(PyGsErr::from)?;
        stump_to_dict(py, &s)
    }

    /// Tree nodes held in the cache (the root included).
    #[getter]
    fn cached_nodes(&self) -> usize {
        self.inner.cached_nodes()
    }

    /// The store of embeddings (the frontier's ancestors) as a dict: `entries`, `bytes`,
    /// `budget`, `evicted`, `resumed` (frontier nodes expanded below a stored ancestor) and
    /// `reembedded` (from the root).
    #[getter]
    fn frontier_stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let st = self.inner.frontier_stats();
        let d = PyDict::new(py);
        d.set_item("entries", st.entries)?;
        d.set_item("bytes", st.bytes)?;
        d.set_item("budget", st.budget)?;
        d.set_item("evicted", st.evicted)?;
        d.set_item("resumed", st.resumed)?;
        d.set_item("reembedded", st.reembedded)?;
        Ok(d)
    }
}

/// Adaboost with subgraph stumps (searches share a cache of the visited tree); `params` holds
/// `n_estimators` and the stump-search parameters.
#[pyfunction]
#[pyo3(signature = (db, labels, params, n_threads = 1, progress = None))]
fn fit_subgraph_adaboost<'py>(
    py: Python<'py>,
    db: &Database,
    labels: PyReadonlyArray1<'py, f64>,
    params: &Bound<'py, PyAny>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let n_threads = threads(py, n_threads)?;
    let rounds = extract_params::<RoundsArg>(params)?.n_estimators.usize();
    let params = extract_params::<SearchArgs>(params)?
        .stump_params(Parallel::from(n_threads > 1))
        .map_err(PyGsErr::from)?;
    let (l, db) = (labels.as_slice()?, &db.0);
    let fit = run(py, Exec::Pool(n_threads), progress, |ctl| {
        adaboost(db, l, rounds, &params, ctl)
    })?
    .map_err(PyGsErr::from)?;
    let d = PyDict::new(py);
    let stumps = &fit.stumps;
    set_patterns(&d, stumps.iter().map(|s| (&s.code, s.graph_ids.as_slice())))?;
    let signs: Vec<f64> = fit.stumps.iter().map(|s| s.sign).collect();
    let weights: Vec<f64> = fit.stumps.iter().map(|s| s.weight).collect();
    d.set_item("signs", signs.into_pyarray(py))?;
    d.set_item("weights", weights.into_pyarray(py))?;
    let visited: Vec<i64> = fit.visited.iter().map(|&v| v as i64).collect();
    d.set_item("visited", visited.into_pyarray(py))?;
    d.set_item("truncated", fit.truncation.map(|t| t.as_str()))?;
    Ok(d)
}

/// For each pattern (an int64 DFS code of shape `(k, 5)`), the graphs of `db` that contain it.
#[pyfunction]
#[pyo3(signature = (db, codes, n_threads = 1))]
fn match_subgraph_patterns<'py>(
    py: Python<'py>,
    db: &Database,
    codes: Vec<PyReadonlyArray2<'py, i64>>,
    n_threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let n_threads = threads(py, n_threads)?;
    let patterns = codes
        .iter()
        .enumerate()
        .map(|(k, c)| dfs_code(c, &format!("codes[{k}]")))
        .collect::<PyResult<Vec<_>>>()?;
    let db = &db.0;
    let found = run(py, Exec::Pool(n_threads), None, |_ctl| {
        match_patterns(db, &patterns, Parallel::from(n_threads > 1))
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
        return Err(bad_param("f0 and f1 must be finite"));
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
    m.add_class::<StumpSearcher>()?;
    m.add_function(wrap_pyfunction!(fit_subgraph_adaboost, m)?)?;
    m.add_function(wrap_pyfunction!(match_subgraph_patterns, m)?)?;
    Ok(())
}
