//! Prize-collecting Steiner forest (`graphsparse.pcst`).

use graphsparse::pcst::{PcstParams, PcstSolver, Pruning};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::convert::{PyGsErr, bad_param, edge_list};

type IdArrays<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// GW prize-collecting Steiner forest, identical to `pcst_fast.pcst_fast`.
#[pyfunction]
#[pyo3(
    signature = (edges, prizes, costs, root = -1, num_clusters = 1, pruning = "gw", eps = 1e-6),
    text_signature = "(edges, prizes, costs, root=-1, num_clusters=1, pruning='gw', eps=1e-06)"
)]
#[allow(clippy::too_many_arguments)]
fn pcst<'py>(
    py: Python<'py>,
    edges: PyReadonlyArray2<'py, i64>,
    prizes: PyReadonlyArray1<'py, f64>,
    costs: PyReadonlyArray1<'py, f64>,
    root: i64,
    num_clusters: i64,
    pruning: &str,
    eps: f64,
) -> PyResult<IdArrays<'py>> {
    let pruning: Pruning = pruning.parse().map_err(PyGsErr::from)?;
    let root =
        match root {
            -1 => None,
            r => Some(usize::try_from(r).map_err(|_| {
                bad_param(format!("root must be -1 (unrooted) or a node id, got {r}"))
            })?),
        };
    let num_clusters = usize::try_from(num_clusters)
        .map_err(|_| bad_param(format!("num_clusters must be >= 0, got {num_clusters}")))?;
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
        .detach(|| PcstSolver::new().solve(&pairs, prizes, costs, &params))
        .map_err(PyGsErr::from)?;
    let to_i64 = |v: Vec<usize>| v.into_iter().map(|x| x as i64).collect::<Vec<i64>>();
    Ok((
        to_i64(sol.nodes).into_pyarray(py),
        to_i64(sol.edges).into_pyarray(py),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pcst, m)?)
}
