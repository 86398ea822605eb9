//! Graph optimal transport, OTC compression, coarsening baselines and WL features
//! (`graphsparse-ot`): conversion only, ranges are the core's. Results leave as typed objects
//! ([`OtcSolution`], [`Compressed`], [`WlFeatures`], [`CsrMatrix`]).

use std::sync::Arc;

use graphsparse::base::{Check, Parallel};
use graphsparse::ot::{
    Coarsening, CostRule, Directed, Method, OtGraph, OtcParams, OtcValidParams, StepMode,
    TargetSize, TransportValidParams, WlParams, WlVocabulary, compress_collection, degree_prior,
    solve_otc, solve_transport, wl_subtree_features,
};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::convert::{
    Count, PyGsErr, Real, bad_graph, bad_param, edge_list, extract_params, ids_array,
};
use crate::graph::Database;
use crate::threads::{Exec, run, threads};

fn edges_u32(edges: &PyReadonlyArray2<'_, i64>) -> PyResult<Vec<[u32; 2]>> {
    edge_list(edges)?
        .into_iter()
        .enumerate()
        .map(|(k, [u, v])| match (u32::try_from(u), u32::try_from(v)) {
            (Ok(a), Ok(b)) => Ok([a, b]),
            _ => Err(bad_graph(format!(
                "edges[{k}] = [{u}, {v}] has an endpoint beyond 2^32"
            ))),
        })
        .collect()
}

fn graph(
    n: usize,
    edges: &PyReadonlyArray2<'_, i64>,
    costs: &PyReadonlyArray1<'_, f64>,
    directed: Option<&[bool]>,
) -> PyResult<OtGraph> {
    let e = edges_u32(edges)?;
    let d = directed.map_or(Directed::None, Directed::Mask);
    OtGraph::new(n, &e, costs.as_slice()?, d).map_err(|e| PyGsErr::from(e).into())
}

/// `W(rho0, rho1)` on the graph (`inf` when unreachable).
#[pyfunction]
fn ot_distance(
    py: Python<'_>,
    edges: PyReadonlyArray2<'_, i64>,
    costs: PyReadonlyArray1<'_, f64>,
    rho0: PyReadonlyArray1<'_, f64>,
    rho1: PyReadonlyArray1<'_, f64>,
    directed: PyReadonlyArray1<'_, bool>,
) -> PyResult<f64> {
    let (a, b) = (rho0.as_slice()?, rho1.as_slice()?);
    let g = graph(a.len(), &edges, &costs, Some(directed.as_slice()?))?;
    let out = run(py, Exec::Thread, None, |ctl| {
        solve_transport(&g, a, b, &TransportValidParams::default(), ctl)
    })?
    .map_err(PyGsErr::from)?;
    if out.truncation.is_some() {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"));
    }
    Ok(out.value)
}

/// The OTC (Mirror Prox) settings, as a dict.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct OtcArgs {
    mode: String,
    lambda: Real,
    alpha: Real,
    beta: Real,
    gamma: Real,
    n_iter: Count,
}

impl OtcArgs {
    fn params(&self) -> PyResult<OtcValidParams> {
        let mode = match self.mode.as_str() {
            "paper" => StepMode::Paper,
            "stable" => StepMode::Stable,
            other => {
                return Err(bad_param(format!(
                    "mode must be 'paper' or 'stable', got {other:?}"
                )));
            }
        };
        OtcParams::new()
            .step_mode(mode)
            .lambda(self.lambda.0)
            .alpha(self.alpha.0)
            .beta(self.beta.0)
            .gamma(self.gamma.0)
            .n_iter(self.n_iter.usize())
            .check()
            .map_err(|e| PyGsErr::from(e).into())
    }
}

/// OTC's selection on one graph (the core's `OtcSolution`, without the trace).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct OtcSolution {
    /// The kept vertices `S` (sorted, `|S| <= k`), int64.
    vertices: Py<PyArray1<i64>>,
    /// The averaged relaxation `ε̂`.
    eps_hat: Py<PyArray1<f64>>,
    /// The averaged potentials `t̄`.
    t_bar: Py<PyArray1<f64>>,
    /// The averaged multiplier `ζ̄`.
    zeta_bar: f64,
    /// The primal estimate `ρ̂1`.
    rho1_hat: Py<PyArray1<f64>>,
    /// Mirror Prox iterations made (`T + 1`; 0 when `k >= n`).
    n_iter: usize,
    /// Whether every projection onto `T_{F,c}` met its tolerances.
    projections_converged: bool,
    /// Most sweeps one projection took.
    max_projection_iterations: usize,
}

/// OTC on one graph with given costs and prior (degree prior when `rho0` is None).
#[pyfunction]
#[pyo3(signature = (n, edges, costs, rho0, k, params))]
fn ot_select<'py>(
    py: Python<'py>,
    n: usize,
    edges: PyReadonlyArray2<'_, i64>,
    costs: PyReadonlyArray1<'_, f64>,
    rho0: Option<PyReadonlyArray1<'_, f64>>,
    k: usize,
    params: &Bound<'py, PyAny>,
) -> PyResult<OtcSolution> {
    let p = extract_params::<OtcArgs>(params)?.params()?;
    let g = graph(n, &edges, &costs, None)?;
    let prior = match &rho0 {
        Some(r) => r.as_slice()?.to_vec(),
        None => degree_prior(&g),
    };
    let sol = run(py, Exec::Thread, None, |ctl| {
        solve_otc(&g, &prior, k, &p, ctl)
    })?
    .map_err(PyGsErr::from)?;
    if sol.truncation.is_some() {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"));
    }
    Ok(OtcSolution {
        vertices: ids_array(py, &sol.vertices).unbind(),
        eps_hat: sol.eps_hat.into_pyarray(py).unbind(),
        t_bar: sol.t_bar.into_pyarray(py).unbind(),
        zeta_bar: sol.zeta_bar,
        rho1_hat: sol.rho1_hat.into_pyarray(py).unbind(),
        n_iter: sol.n_iter,
        projections_converged: sol.projections_converged,
        max_projection_iterations: sol.max_projection_iterations,
    })
}

/// The settings of a coarsening baseline, as a dict.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CoarsenArgs {
    seed: Count,
    max_levels: Option<Count>,
}

/// OTC's label costs, read from the same dict as its [`OtcArgs`].
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CostArgs {
    cost_same: Real,
    cost_different: Real,
}

/// A compressed collection (the core's `Compressed`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct Compressed {
    /// The compressed graphs, in input order.
    db: Py<Database>,
    /// For every original vertex (graph after graph), its vertex in the compressed graph, or
    /// -1 when OTC dropped it; int64.
    assignment: Py<PyArray1<i64>>,
    /// OTC only (empty for the baselines): `ε̂` of every original vertex, graph after graph.
    eps_hat: Py<PyArray1<f64>>,
}

/// Compresses every graph of `db` with `method` to its budget `ks[i]`.
#[pyfunction]
#[pyo3(signature = (db, method, params, ks, n_threads = 1, progress = None))]
fn ot_compress<'py>(
    py: Python<'py>,
    db: &Database,
    method: &str,
    params: &Bound<'py, PyAny>,
    ks: PyReadonlyArray1<'_, i64>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Compressed> {
    let method = match method {
        "otc" => {
            let c = extract_params::<CostArgs>(params)?;
            Method::Otc {
                params: extract_params::<OtcArgs>(params)?.params()?,
                costs: CostRule::Labels {
                    same: c.cost_same.0,
                    different: c.cost_different.0,
                },
            }
        }
        name => {
            let a = extract_params::<CoarsenArgs>(params)?;
            let seed = a.seed.0;
            let m = match name {
                "rec" => Coarsening::Rec { seed },
                "heavy_edge" => Coarsening::HeavyEdge,
                "algebraic_distance" => Coarsening::AlgebraicDistance { seed },
                "affinity" => Coarsening::Affinity { seed },
                _ => return Err(bad_param(format!("unknown method {name:?}"))),
            };
            Method::Coarsen {
                method: m,
                max_levels: a.max_levels.map(Count::usize),
            }
        }
    };
    let ks: Vec<usize> = ks
        .as_slice()?
        .iter()
        .map(|&k| usize::try_from(k).map_err(|_| bad_param(format!("k must be >= 1, got {k}"))))
        .collect::<PyResult<_>>()?;
    let n_threads = threads(py, n_threads)?;
    let db = Arc::clone(&db.0);
    let out = run(py, Exec::Pool(n_threads), progress, |ctl| {
        compress_collection(&db, &method, TargetSize::PerGraph(&ks), n_threads > 1, ctl)
    })?
    .map_err(PyGsErr::from)?;
    if out.truncation.is_some() {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"));
    }
    let assignment: Vec<i64> = out
        .assignment
        .iter()
        .map(|&a| if a == u32::MAX { -1 } else { i64::from(a) })
        .collect();
    Ok(Compressed {
        db: Py::new(py, Database(Arc::new(out.db)))?,
        assignment: assignment.into_pyarray(py).unbind(),
        eps_hat: out.eps_hat.into_pyarray(py).unbind(),
    })
}

/// A sparse matrix in CSR form (the core's `CsrMatrix`): row `r` holds the columns
/// `indices[indptr[r]:indptr[r + 1]]` with the values `data[...]`.
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct CsrMatrix {
    /// Row offsets, int64 `(n_rows + 1,)`.
    indptr: Py<PyArray1<i64>>,
    /// Column of each stored entry, int64.
    indices: Py<PyArray1<i64>>,
    /// Value of each stored entry.
    data: Py<PyArray1<f64>>,
    /// The number of columns.
    n_cols: usize,
}

impl CsrMatrix {
    fn new(py: Python<'_>, x: graphsparse::ot::CsrMatrix<'static>) -> Self {
        let n_cols = x.n_cols();
        let (indptr, indices, data) = x.into_vecs();
        Self {
            indptr: ids_array(py, &indptr).unbind(),
            indices: ids_array(py, &indices).unbind(),
            data: data.into_pyarray(py).unbind(),
            n_cols,
        }
    }
}

type Level = (Py<PyArray1<i64>>, Py<PyArray1<i64>>);

/// WL subtree features and the vocabulary that gave them (the core's `WlFeatures`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct WlFeatures {
    /// The vocabulary, one `(ptr, data)` pair of int64 arrays per level: the signatures of
    /// the level's labels, as `wl_transform` takes them back.
    vocabulary: Vec<Level>,
    /// The count matrix, one row per graph, columns stacked by level.
    features: Py<CsrMatrix>,
}

/// WL features of `db` and the fitted vocabulary; `edge_labels` makes the refinement read
/// edge labels.
#[pyfunction]
#[pyo3(signature = (db, n_iter, n_threads = 1, progress = None, edge_labels = false))]
fn wl_fit_transform<'py>(
    py: Python<'py>,
    db: &Database,
    n_iter: usize,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
    edge_labels: bool,
) -> PyResult<WlFeatures> {
    let p = WlParams::new()
        .n_iter(n_iter)
        .edge_labels(edge_labels)
        .parallel(Parallel::Auto)
        .check()
        .map_err(PyGsErr::from)?;
    let n_threads = threads(py, n_threads)?;
    let db = Arc::clone(&db.0);
    let fit = run(py, Exec::Pool(n_threads), progress, |ctl| {
        wl_subtree_features(&db, &p, ctl)
    })?
    .map_err(PyGsErr::from)?;
    if fit.truncation.is_some() {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"));
    }
    let (vocab, x) = (fit.vocabulary, fit.features);
    let mut vocabulary = Vec::with_capacity(vocab.n_iter() + 1);
    for i in 0..=vocab.n_iter() {
        if let Some((ptr, data)) = vocab.level_signatures(i) {
            vocabulary.push((ids_array(py, ptr).unbind(), ids_array(py, data).unbind()));
        }
    }
    Ok(WlFeatures {
        vocabulary,
        features: Py::new(py, CsrMatrix::new(py, x))?,
    })
}

/// WL features of `db` in the columns of a fitted vocabulary (`edge_labels` as at fit time).
#[pyfunction]
#[pyo3(signature = (db, levels, n_threads = 1, progress = None, edge_labels = false))]
fn wl_transform<'py>(
    py: Python<'py>,
    db: &Database,
    levels: Vec<(PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>)>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
    edge_labels: bool,
) -> PyResult<CsrMatrix> {
    let mut arrays = Vec::with_capacity(levels.len());
    for (ptr, data) in &levels {
        let ptr: Vec<usize> = ptr
            .as_slice()?
            .iter()
            .map(|&p| usize::try_from(p).map_err(|_| bad_param("vocabulary: negative offset")))
            .collect::<PyResult<_>>()?;
        let data: Vec<u32> = data
            .as_slice()?
            .iter()
            .map(|&d| u32::try_from(d).map_err(|_| bad_param("vocabulary: label out of range")))
            .collect::<PyResult<_>>()?;
        arrays.push((ptr, data));
    }
    let vocab = WlVocabulary::from_signatures_with(&arrays, edge_labels).map_err(PyGsErr::from)?;
    let n_threads = threads(py, n_threads)?;
    let db = Arc::clone(&db.0);
    let (x, truncation) = run(py, Exec::Pool(n_threads), progress, |ctl| {
        vocab.transform(&db, Parallel::from(n_threads > 1), ctl)
    })?;
    if truncation.is_some() {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"));
    }
    Ok(CsrMatrix::new(py, x))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<OtcSolution>()?;
    m.add_class::<Compressed>()?;
    m.add_class::<CsrMatrix>()?;
    m.add_class::<WlFeatures>()?;
    m.add_function(wrap_pyfunction!(ot_distance, m)?)?;
    m.add_function(wrap_pyfunction!(ot_select, m)?)?;
    m.add_function(wrap_pyfunction!(ot_compress, m)?)?;
    m.add_function(wrap_pyfunction!(wl_fit_transform, m)?)?;
    m.add_function(wrap_pyfunction!(wl_transform, m)?)?;
    Ok(())
}
