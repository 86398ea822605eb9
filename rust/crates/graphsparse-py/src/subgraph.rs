//! Subgraph-learning bindings: BCGD fits and paths, Adaboost, the cached stump searcher,
//! pattern matching and the Morishita–Kudo bounds.

use std::sync::Arc;

use graphsparse::graph::GraphDatabase;
use graphsparse::gspan::DfsCode;
use graphsparse::subgraph::{
    BcgdParams, BcgdValidParams, Check, DEFAULT_CACHE_BYTES, Logistic, Parallel, SeparableFunction,
    Squared, StumpParams, StumpValidParams, SubgraphError, adaboost, fit_bcgd_path, match_patterns,
};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyList;

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
    /// Working sets between searches of the whole tree (absent: on).
    #[pyo3(default)]
    working_set: Option<Flag>,
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
            .working_set(self.working_set.is_none_or(|f| f.0))
            .record_trace(self.record_trace.0);
        with_search!(builder, search, parallel).check()
    }
}

/// The number of Adaboost rounds, read from the same dict as [`SearchArgs`].
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct AdaBoostArgs {
    n_estimators: Count,
}

type Ids = Py<PyArray1<i64>>;
type Code = Py<PyArray2<i64>>;

/// A DFS code as an owned `(k, 5)` int64 array.
fn code(py: Python<'_>, code: &DfsCode) -> PyResult<Code> {
    Ok(code_array(py, code)?.unbind())
}

/// One column of numbers as an owned NumPy array.
fn column<T: numpy::Element>(py: Python<'_>, values: impl Iterator<Item = T>) -> Py<PyArray1<T>> {
    values.collect::<Vec<_>>().into_pyarray(py).unbind()
}

/// Each pattern's DFS code and graph ids, as two lists of arrays.
fn patterns<'a>(
    py: Python<'_>,
    patterns: impl Iterator<Item = (&'a DfsCode, &'a [u32])>,
) -> PyResult<(Vec<Code>, Vec<Ids>)> {
    let (mut codes, mut ids) = (Vec::new(), Vec::new());
    for (c, graph_ids) in patterns {
        codes.push(code(py, c)?);
        ids.push(ids_array(py, graph_ids).unbind());
    }
    Ok((codes, ids))
}

/// The iterations of a BCGD fit, one entry per iteration (the core's `IterationStats`, by
/// column).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct BcgdHistory {
    /// The objective after the iteration's update (unchanged for the final check).
    objective: Py<PyArray1<f64>>,
    /// The number of nonzero coefficients after the update.
    nonzeros: Py<PyArray1<i64>>,
    /// Tree nodes visited by the search.
    visited: Py<PyArray1<i64>>,
    /// Visited nodes whose column was already seen in the same search.
    skipped: Py<PyArray1<i64>>,
    /// Visited nodes where the Theorem 11 bound pruned the subtree.
    pruned_bound: Py<PyArray1<i64>>,
    /// Visited nodes where safe pattern pruning pruned the subtree.
    pruned_spp: Py<PyArray1<i64>>,
    /// The duality gap at the iterate searched (before the iteration's update).
    duality_gap: Py<PyArray1<f64>>,
    /// The wall time of the iteration in seconds.
    seconds: Py<PyArray1<f64>>,
    /// Whether the iteration searched the whole tree (else it iterated over the working set).
    full_search: Py<PyArray1<bool>>,
}

impl BcgdHistory {
    fn new(py: Python<'_>, h: &[graphsparse::subgraph::IterationStats]) -> Self {
        Self {
            objective: column(py, h.iter().map(|s| s.objective)),
            nonzeros: column(py, h.iter().map(|s| s.nonzeros as i64)),
            visited: column(py, h.iter().map(|s| s.visited as i64)),
            skipped: column(py, h.iter().map(|s| s.skipped as i64)),
            pruned_bound: column(py, h.iter().map(|s| s.pruned_bound as i64)),
            pruned_spp: column(py, h.iter().map(|s| s.pruned_spp as i64)),
            duality_gap: column(py, h.iter().map(|s| s.duality_gap)),
            seconds: column(py, h.iter().map(|s| s.seconds)),
            full_search: column(py, h.iter().map(|s| s.full_search)),
        }
    }
}

/// One BCGD model and how its fit went (the core's `BcgdFit`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct BcgdFit {
    /// The intercept.
    intercept: f64,
    /// The nonzero coefficients, one per selected feature.
    coef: Py<PyArray1<f64>>,
    /// Each feature's representative DFS code, int64 `(k, 5)`.
    codes: Vec<Code>,
    /// Each feature's graphs (sorted ids), int64.
    graph_ids: Vec<Ids>,
    /// Each feature's other patterns with the same graphs, as DFS codes.
    equivalents: Vec<Vec<Code>>,
    /// Updates made.
    n_iter: usize,
    /// Whether the tolerance was reached.
    converged: bool,
    /// Why the fit stopped early (`"max_iter"`, `"max_nodes"`, `"time_limit"`), or `None`.
    truncation: Option<&'static str>,
    /// The duality gap `P - D >= 0` of the model (`inf` when a budget cut the final search).
    dual_gap: f64,
    /// The fit's searches.
    history: Py<BcgdHistory>,
    /// Tree nodes visited, the internal screening path's included.
    total_visited: u64,
    /// Nodes pruned by the bound, the internal path's included.
    total_pruned_bound: u64,
    /// Nodes pruned by safe pattern pruning, the internal path's included.
    total_pruned_spp: u64,
    /// Searches of the internal screening path before the fit.
    path_searches: usize,
    /// Searches of the whole tree, the internal screening path's included.
    full_searches: u64,
    /// The smallest `lambda1` whose model has no feature, when the fit computed it.
    lambda_max: Option<f64>,
    /// When asked for, `(intercept, graph ids per feature, coefficients)` after each update.
    trace: Vec<(f64, Vec<Ids>, Py<PyArray1<f64>>)>,
}

impl BcgdFit {
    fn new(py: Python<'_>, fit: &graphsparse::subgraph::BcgdFit) -> PyResult<Self> {
        let features = &fit.features;
        let (codes, graph_ids) = patterns(
            py,
            features.iter().map(|f| (&f.code, f.graph_ids.as_slice())),
        )?;
        let equivalents = features
            .iter()
            .map(|f| f.equivalents.iter().map(|c| code(py, c)).collect())
            .collect::<PyResult<_>>()?;
        let trace = fit
            .trace
            .iter()
            .map(|step| {
                let ids = step
                    .coefs
                    .iter()
                    .map(|(col, _)| ids_array(py, col).unbind())
                    .collect();
                (
                    step.intercept,
                    ids,
                    column(py, step.coefs.iter().map(|c| c.1)),
                )
            })
            .collect();
        Ok(Self {
            intercept: fit.intercept,
            coef: column(py, features.iter().map(|f| f.coef)),
            codes,
            graph_ids,
            equivalents,
            n_iter: fit.n_iter,
            converged: fit.converged,
            truncation: fit.truncation.map(|t| t.as_str()),
            dual_gap: fit.duality_gap,
            history: Py::new(py, BcgdHistory::new(py, &fit.history))?,
            total_visited: fit.visited(),
            total_pruned_bound: fit.pruned_by_bound(),
            total_pruned_spp: fit.pruned_by_spp(),
            path_searches: fit.path_history.iter().filter(|s| s.full_search).count(),
            full_searches: fit.full_searches(),
            lambda_max: fit.lambda_max,
            trace,
        })
    }
}

/// Fits BCGD models along a `lambda1` grid (warm starts); returns one fit per `lambda1`.
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
) -> PyResult<Vec<BcgdFit>> {
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
    fits.iter().map(|f| BcgdFit::new(py, f)).collect()
}

/// The best stump of one search (the core's `StumpSearch`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct StumpSearch {
    /// The best pattern's DFS code, int64 `(k, 5)` (`None` when the tree is empty).
    code: Option<Code>,
    /// Its graphs (sorted ids), int64.
    graph_ids: Ids,
    /// The stump's sign (+1 or -1).
    sign: f64,
    /// Its gain `sum_i w_i y_i h(g_i)`.
    gain: f64,
    /// Tree nodes visited.
    visited: u64,
    /// Why the search stopped early (`"max_nodes"`, `"time_limit"`), or `None`.
    truncation: Option<&'static str>,
}

impl StumpSearch {
    fn new(py: Python<'_>, s: &graphsparse::subgraph::StumpSearch) -> PyResult<Self> {
        Ok(Self {
            code: s.code.as_ref().map(|c| code(py, c)).transpose()?,
            graph_ids: ids_array(py, &s.graph_ids).unbind(),
            sign: s.sign,
            gain: s.gain,
            visited: s.visited,
            truncation: s.truncation.map(|t| t.as_str()),
        })
    }
}

/// The store of embeddings of a [`StumpSearcher`] (the frontier's ancestors; the core's
/// `FrontierStats`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct FrontierStats {
    /// Expanded nodes whose embeddings are stored.
    entries: usize,
    /// Bytes charged for them (never above `budget`).
    bytes: usize,
    /// The byte budget (0: nothing is stored).
    budget: usize,
    /// Entries evicted to stay within the budget.
    evicted: u64,
    /// Frontier nodes expanded below a stored ancestor (from its embeddings).
    resumed: u64,
    /// Frontier nodes expanded by re-embedding the path to them from the root.
    reembedded: u64,
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

    /// The best stump under `weights` (one per graph, >= 0) and `labels` (+-1).
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        weights: PyReadonlyArray1<'py, f64>,
        labels: PyReadonlyArray1<'py, f64>,
    ) -> PyResult<StumpSearch> {
        let (w, l) = (weights.as_slice()?, labels.as_slice()?);
        let (db, inner) = (&self.db, &mut self.inner);
        let s = run(py, Exec::Pool(self.n_threads), None, |ctl| {
            inner.search(db, w, l, ctl)
        })?
        .map_err(PyGsErr::from)?;
        StumpSearch::new(py, &s)
    }

    /// Tree nodes held in the cache (the root included).
    #[getter]
    fn cached_nodes(&self) -> usize {
        self.inner.cached_nodes()
    }

    /// The store of embeddings (the frontier's ancestors).
    #[getter]
    fn frontier_stats(&self) -> FrontierStats {
        let st = self.inner.frontier_stats();
        FrontierStats {
            entries: st.entries,
            bytes: st.bytes,
            budget: st.budget,
            evicted: st.evicted,
            resumed: st.resumed,
            reembedded: st.reembedded,
        }
    }
}

/// An Adaboost fit with subgraph stumps (the core's `AdaBoostFit`, by column).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct AdaBoostFit {
    /// Each round's DFS code, int64 `(k, 5)`.
    codes: Vec<Code>,
    /// Each round's graphs (sorted ids), int64.
    graph_ids: Vec<Ids>,
    /// Each round's sign (+1 or -1).
    signs: Py<PyArray1<f64>>,
    /// Each round's weight.
    weights: Py<PyArray1<f64>>,
    /// Tree nodes visited by each round's search, int64.
    visited: Py<PyArray1<i64>>,
    /// Why the fit stopped early (`"max_nodes"`, `"time_limit"`), or `None`.
    truncation: Option<&'static str>,
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
) -> PyResult<AdaBoostFit> {
    let n_threads = threads(py, n_threads)?;
    let rounds = extract_params::<AdaBoostArgs>(params)?.n_estimators.usize();
    let params = extract_params::<SearchArgs>(params)?
        .stump_params(Parallel::from(n_threads > 1))
        .map_err(PyGsErr::from)?;
    let (l, db) = (labels.as_slice()?, &db.0);
    let fit = run(py, Exec::Pool(n_threads), progress, |ctl| {
        adaboost(db, l, rounds, &params, ctl)
    })?
    .map_err(PyGsErr::from)?;
    let stumps = &fit.stumps;
    let (codes, graph_ids) =
        patterns(py, stumps.iter().map(|s| (&s.code, s.graph_ids.as_slice())))?;
    Ok(AdaBoostFit {
        codes,
        graph_ids,
        signs: column(py, stumps.iter().map(|s| s.sign)),
        weights: column(py, stumps.iter().map(|s| s.weight)),
        visited: column(py, fit.visited.iter().map(|&v| v as i64)),
        truncation: fit.truncation.map(|t| t.as_str()),
    })
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
    m.add_class::<BcgdFit>()?;
    m.add_class::<BcgdHistory>()?;
    m.add_class::<StumpSearcher>()?;
    m.add_class::<StumpSearch>()?;
    m.add_class::<FrontierStats>()?;
    m.add_class::<AdaBoostFit>()?;
    m.add_function(wrap_pyfunction!(fit_subgraph_adaboost, m)?)?;
    m.add_function(wrap_pyfunction!(match_subgraph_patterns, m)?)?;
    Ok(())
}
