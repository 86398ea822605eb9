//! Prize-collecting Steiner forest (`graphsparse.pcst`).

use graphsparse::pcst::{PcstParams, PcstSolver, Pruning};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::errors::{InvalidParameterError, PyGsErr};

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
    let invalid = |msg: String| -> PyErr { InvalidParameterError::new_err(msg) };
    let shape = edges.shape();
    if shape[1] != 2 {
        return Err(invalid(format!(
            "edges must have shape (m, 2), got {shape:?}"
        )));
    }
    let pruning: Pruning = pruning.parse().map_err(PyGsErr::from)?;
    let root = match root {
        -1 => None,
        r if r < 0 => {
            return Err(invalid(format!(
                "root must be -1 (unrooted) or a node, got {r}"
            )));
        }
        r => Some(r as usize),
    };
    let num_clusters = usize::try_from(num_clusters)
        .map_err(|_| invalid(format!("num_clusters must be >= 0, got {num_clusters}")))?;
    let params = PcstParams {
        root,
        num_clusters,
        pruning,
        eps,
    };
    let flat = edges.as_slice()?;
    if let Some(k) = flat.iter().position(|&x| x < 0) {
        return Err(invalid(format!(
            "edges[{}] has negative endpoint {}",
            k / 2,
            flat[k]
        )));
    }
    let (prizes, costs) = (prizes.as_slice()?, costs.as_slice()?);
    let sol = py
        .detach(|| {
            let pairs: Vec<[usize; 2]> = flat
                .chunks_exact(2)
                .map(|p| [p[0] as usize, p[1] as usize])
                .collect();
            PcstSolver::new().solve(&pairs, prizes, costs, &params)
        })
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
