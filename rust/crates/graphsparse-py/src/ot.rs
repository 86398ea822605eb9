//! Graph optimal transport, OTC compression, coarsening baselines and WL features
//! (`graphsparse-ot`): conversion only, ranges are the core's.

use std::sync::Arc;

use graphsparse::base::{Check, Parallel};
use graphsparse::ot::{
    Coarsening, CostRule, Directed, Method, OtGraph, OtcParams, OtcValidParams, StepMode,
    TargetSize, TransportValidParams, WlParams, WlVocabulary, compress_collection, degree_prior,
    solve_otc, solve_transport, wl_subtree_features,
};
use numpy::{IntoPyArray, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::convert::{Count, PyGsErr, Real, bad_graph, bad_param, edge_list, extract_params};
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
) -> PyResult<Bound<'py, PyDict>> {
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
    let d = PyDict::new(py);
    d.set_item("kept", crate::convert::ids_array(py, &sol.vertices))?;
    d.set_item("eps_hat", sol.eps_hat.into_pyarray(py))?;
    d.set_item("t_bar", sol.t_bar.into_pyarray(py))?;
    d.set_item("zeta_bar", sol.zeta_bar)?;
    d.set_item("rho1_hat", sol.rho1_hat.into_pyarray(py))?;
    d.set_item("n_iter", sol.n_iter)?;
    d.set_item("projections_converged", sol.projections_converged)?;
    Ok(d)
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CoarsenArgs {
    seed: Count,
    max_levels: Option<Count>,
}

#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct CostArgs {
    cost_same: Real,
    cost_different: Real,
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
) -> PyResult<Bound<'py, PyDict>> {
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
    let d = PyDict::new(py);
    let assignment: Vec<i64> = out
        .assignment
        .iter()
        .map(|&a| if a == u32::MAX { -1 } else { i64::from(a) })
        .collect();
    d.set_item("db", Database(Arc::new(out.db)))?;
    d.set_item("assignment", assignment.into_pyarray(py))?;
    d.set_item("eps_hat", out.eps_hat.into_pyarray(py))?;
    Ok(d)
}

fn csr<'py>(
    py: Python<'py>,
    x: graphsparse::ot::CsrMatrix<'static>,
) -> PyResult<Bound<'py, PyTuple>> {
    let n_cols = x.n_cols();
    let (indptr, indices, data) = x.into_vecs();
    let indptr: Vec<i64> = indptr.iter().map(|&p| p as i64).collect();
    let indices: Vec<i64> = indices.iter().map(|&c| i64::from(c)).collect();
    (
        indptr.into_pyarray(py),
        indices.into_pyarray(py),
        data.into_pyarray(py),
        n_cols,
    )
        .into_pyobject(py)
}

/// WL features of `db` and the fitted vocabulary (a list of `(ptr, data)` per level).
#[pyfunction]
#[pyo3(signature = (db, n_iter, n_threads = 1, progress = None))]
fn wl_fit_transform<'py>(
    py: Python<'py>,
    db: &Database,
    n_iter: usize,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyTuple>)> {
    let p = WlParams::new()
        .n_iter(n_iter)
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
    let levels = PyList::empty(py);
    for i in 0..=vocab.n_iter() {
        if let Some((ptr, data)) = vocab.level_signatures(i) {
            let ptr: Vec<i64> = ptr.iter().map(|&p| p as i64).collect();
            let data: Vec<i64> = data.iter().map(|&d| i64::from(d)).collect();
            levels.append((ptr.into_pyarray(py), data.into_pyarray(py)))?;
        }
    }
    Ok((levels, csr(py, x)?))
}

/// WL features of `db` in the columns of a fitted vocabulary.
#[pyfunction]
#[pyo3(signature = (db, levels, n_threads = 1, progress = None))]
fn wl_transform<'py>(
    py: Python<'py>,
    db: &Database,
    levels: Vec<(PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>)>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyTuple>> {
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
    let vocab = WlVocabulary::from_signatures(&arrays).map_err(PyGsErr::from)?;
    let n_threads = threads(py, n_threads)?;
    let db = Arc::clone(&db.0);
    let (x, truncation) = run(py, Exec::Pool(n_threads), progress, |ctl| {
        vocab.transform(&db, Parallel::from(n_threads > 1), ctl)
    })?;
    if truncation.is_some() {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("cancelled"));
    }
    csr(py, x)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ot_distance, m)?)?;
    m.add_function(wrap_pyfunction!(ot_select, m)?)?;
    m.add_function(wrap_pyfunction!(ot_compress, m)?)?;
    m.add_function(wrap_pyfunction!(wl_fit_transform, m)?)?;
    m.add_function(wrap_pyfunction!(wl_transform, m)?)?;
    Ok(())
}
