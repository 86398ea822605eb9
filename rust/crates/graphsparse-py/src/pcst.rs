//! Prize-collecting Steiner forest (`graphsparse.pcst`).

use graphsparse::pcst::{Check, PcstParams, Pruning, solve_pcst};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::convert::{Count, PyGsErr, arg, bad_param, edge_list, ids_array};

/// A prize-collecting Steiner forest (the core's `PcstSolution`).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct PcstSolution {
    /// The selected nodes, int64 (ascending, except with `pruning="none"`).
    nodes: Py<PyArray1<i64>>,
    /// The selected edges, as int64 indices into the input edge list.
    edges: Py<PyArray1<i64>>,
}

/// GW prize-collecting Steiner forest, identical to `pcst_fast.pcst_fast`.
#[pyfunction]
#[pyo3(
    signature = (edges, prizes, costs, root = None, num_clusters = None, pruning = "gw", eps = 1e-6),
    text_signature = "(edges, prizes, costs, root=None, num_clusters=None, pruning='gw', eps=1e-06)"
)]
#[allow(clippy::too_many_arguments)]
fn pcst<'py>(
    py: Python<'py>,
    edges: PyReadonlyArray2<'py, i64>,
    prizes: PyReadonlyArray1<'py, f64>,
    costs: PyReadonlyArray1<'py, f64>,
    root: Option<&Bound<'py, PyAny>>,
    num_clusters: Option<&Bound<'py, PyAny>>,
    pruning: &str,
    eps: f64,
) -> PyResult<PcstSolution> {
    let pruning: Pruning = pruning.parse().map_err(PyGsErr::from)?;
    // -1 (or None from Python) is unrooted; an int beyond i64 is out of range like any other
    let root = match root.map(|r| r.extract::<i64>()) {
        None | Some(Ok(-1)) => None,
        Some(Ok(r)) if r >= 0 => Some(usize::try_from(r).unwrap_or(usize::MAX)),
        _ => {
            return Err(bad_param(format!(
                "root {} is out of range: root must be -1 (unrooted) or a node id in [0, {})",
                root.map_or(Ok(String::new()), |r| r.repr().map(|s| s.to_string()))?,
                prizes.as_slice()?.len()
            )));
        }
    };
    let num_clusters = num_clusters
        .map_or(Ok(Count(1)), |g| arg::<Count>(g, "num_clusters"))?
        .usize();
    let params = PcstParams::new()
        .root(root)
        .num_clusters(num_clusters)
        .pruning(pruning)
        .eps(eps)
        .check()
        .map_err(PyGsErr::from)?;
    let pairs = edge_list(&edges)?;
    let (prizes, costs) = (prizes.as_slice()?, costs.as_slice()?);
    let sol = py
        .detach(|| solve_pcst(&pairs, prizes, costs, &params))
        .map_err(PyGsErr::from)?;
    Ok(PcstSolution {
        nodes: ids_array(py, &sol.nodes).unbind(),
        edges: ids_array(py, &sol.edges).unbind(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PcstSolution>()?;
    m.add_function(wrap_pyfunction!(pcst, m)?)
}
