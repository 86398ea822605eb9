//! Projections: simplex, l1 ball, weighted and capped simplex, top-k (1-D or row-wise 2-D).
//!
//! Inputs are read in place (C-contiguous float64, which the Python layer guarantees); the
//! result goes into `out` when given, else into a fresh array of the input's shape. The work
//! runs with the GIL released; 2-D inputs spread their rows over a pool of `n_threads` and
//! check for Ctrl-C between blocks of rows.

use graphsparse::base::RunControl;
use graphsparse::proj::{self, Parallel, ProjError};
use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::convert::{Count, PyGsErr, bad_param};
use crate::threads::{self, Exec};

type ProjResult = Result<(), ProjError>;

fn bad(msg: String) -> PyErr {
    bad_param(msg)
}

/// Row policy for a 2-D call on `n_threads` workers (`min_parallel` forces a threshold).
fn parallel(n_threads: usize, min_parallel: Option<usize>) -> Parallel {
    match (n_threads > 1, min_parallel) {
        (false, _) => Parallel::Serial,
        (true, None) => Parallel::Auto,
        (true, Some(t)) => Parallel::Threshold(t),
    }
}

/// Values per block of rows between two checks for Ctrl-C (a few milliseconds of work).
const BLOCK_VALUES: usize = 1 << 20;

/// Runs `rows(first_row, block, n_cols, out_block, par)` over blocks of whole rows, stopping early once `cancel` is set (the caller
/// then raises `KeyboardInterrupt`). Rows are independent, so blocking changes nothing.
fn rows_in_blocks<G>(
    data: &[f64],
    n_cols: usize,
    dst: &mut [f64],
    par: Parallel,
    rows: &G,
    ctl: &RunControl,
) -> ProjResult
where
    G: Fn(usize, &[f64], usize, &mut [f64], Parallel) -> ProjResult + Sync,
{
    if n_cols == 0 || data.is_empty() {
        return rows(0, data, n_cols, dst, par);
    }
    let rows_per_block = (BLOCK_VALUES / n_cols).max(1);
    let block = rows_per_block * n_cols;
    for (b, (x, o)) in data.chunks(block).zip(dst.chunks_mut(block)).enumerate() {
        if ctl.is_cancelled() {
            return Ok(());
        }
        rows(b * rows_per_block, x, n_cols, o, par).map_err(|e| match e {
            ProjError::InRow { row, source } => ProjError::InRow {
                row: row + b * rows_per_block,
                source,
            },
            other => other,
        })?;
    }
    Ok(())
}

/// Shared driver: validates shapes, picks the output buffer, runs `one` (1-D) or `rows` (2-D).
/// `one`'s flag says that the buffer is a fresh `numpy.zeros` array (zeroed, possibly unmapped,
/// memory), which a projection may leave unwritten where its result is zero.
#[allow(clippy::too_many_arguments)]
fn run<'py, F, G>(
    py: Python<'py>,
    arg: &str,
    v: &PyReadonlyArrayDyn<'py, f64>,
    out: Option<Bound<'py, PyArrayDyn<f64>>>,
    n_threads: usize,
    min_parallel: Option<usize>,
    one: F,
    rows: G,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>>
where
    F: Fn(&[f64], &mut [f64], bool) -> ProjResult + Sync,
    G: Fn(usize, &[f64], usize, &mut [f64], Parallel) -> ProjResult + Sync,
{
    let n_threads = threads::threads(py, n_threads)?;
    let shape = v.shape().to_vec();
    if shape.len() != 1 && shape.len() != 2 {
        return Err(bad(format!(
            "{arg} must be a 1-D or 2-D array, got {} dimensions",
            shape.len()
        )));
    }
    let data = v
        .as_slice()
        .map_err(|_| bad(format!("{arg} must be a C-contiguous float64 array")))?;
    let zeroed = out.is_none();
    let out = match out {
        Some(o) => {
            if o.shape() != shape.as_slice() {
                return Err(bad(format!(
                    "out has shape {:?}, expected {:?} (the shape of {arg})",
                    o.shape(),
                    shape
                )));
            }
            o
        }
        None => PyArrayDyn::<f64>::zeros(py, shape.as_slice(), false),
    };
    {
        let mut guard = out.try_readwrite().map_err(|e| {
            bad(format!(
                "out cannot be written ({e}); it must be writeable and not alias {arg}"
            ))
        })?;
        let dst = guard
            .as_slice_mut()
            .map_err(|_| bad("out must be a C-contiguous float64 array".to_owned()))?;
        let res = if shape.len() == 1 {
            py.detach(|| one(data, dst, zeroed))
        } else {
            let par = parallel(n_threads, min_parallel);
            let n_cols = shape[1];
            if data.len() > BLOCK_VALUES {
                // long work: on the pool, in blocks, answering Ctrl-C
                threads::run(py, Exec::Pool(n_threads), None, |ctl| {
                    rows_in_blocks(data, n_cols, dst, par, &rows, ctl)
                })?
            } else if par.use_rayon(shape[0], data.len()) {
                let pool = threads::pool(n_threads)?;
                py.detach(|| pool.install(|| rows(0, data, n_cols, dst, par)))
            } else {
                // small batches never touch a pool (no thread hand-off)
                py.detach(|| rows(0, data, n_cols, dst, Parallel::Serial))
            }
        };
        res.map_err(PyGsErr::from)?;
    }
    Ok(out)
}

/// A `#[pyfunction]` for a projection with one scalar parameter `$p`: `$one` projects a vector
/// into a buffer, `$rows` a row-major batch (the core's `_into` and `_rows` forms).
/// `$one_zeroed`, when given, replaces `$one` for a fresh output array.
macro_rules! scalar_projection {
    ($(#[$doc:meta])* $name:ident($arg:ident, $p:ident: $t:ty $(= $default:tt)?)
        => $one:path, $rows:path $(, zeroed $one_zeroed:path)?) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = ($arg, $p $(= $default)?, *, n_threads = 1, out = None, min_parallel = None))]
        pub fn $name<'py>(
            py: Python<'py>,
            $arg: PyReadonlyArrayDyn<'py, f64>,
            $p: $t,
            n_threads: usize,
            out: Option<Bound<'py, PyArrayDyn<f64>>>,
            min_parallel: Option<usize>,
        ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
            run(
                py,
                stringify!($arg),
                &$arg,
                out,
                n_threads,
                min_parallel,
                |x, o, _zeroed| {
                    $(if _zeroed {
                        return $one_zeroed(x, $p.into(), o);
                    })?
                    $one(x, $p.into(), o)
                },
                |_, x, c, o, par| $rows(x, c, $p.into(), o, par),
            )
        }
    };
}

scalar_projection!(
    /// Euclidean projection onto `{x >= 0, sum x = radius}` (row-wise for 2-D input).
    project_simplex(v, radius: f64 = 1.0)
        => proj::project_simplex_into, proj::project_simplex_rows,
        zeroed proj::project_simplex_zeroed_into
);
scalar_projection!(
    /// Euclidean projection onto `{||x||_1 <= radius}` (row-wise for 2-D input).
    project_l1_ball(v, radius: f64 = 1.0)
        => proj::project_l1_ball_into, proj::project_l1_ball_rows
);
scalar_projection!(
    /// Euclidean projection onto `{x in [0, 1]^n : sum x <= k}` (row-wise for 2-D input).
    project_capped_simplex(y, k: f64)
        => proj::project_capped_simplex_into, proj::project_capped_simplex_rows
);
scalar_projection!(
    /// Keeps the `k` largest-magnitude entries (ties to the lower index), row-wise for 2-D input.
    project_top_k(y, k: Count) => proj::project_top_k_into, proj::project_top_k_rows
);

/// Euclidean projection onto `{x : sum eps_i x_i = 1, eps_i x_i >= 0}` (row-wise for 2-D `y`;
/// `eps` is one row shared by all rows or an array of `y`'s shape).
#[pyfunction]
#[pyo3(signature = (y, eps, *, n_threads = 1, out = None, min_parallel = None))]
pub fn project_weighted_simplex<'py>(
    py: Python<'py>,
    y: PyReadonlyArrayDyn<'py, f64>,
    eps: PyReadonlyArrayDyn<'py, f64>,
    n_threads: usize,
    out: Option<Bound<'py, PyArrayDyn<f64>>>,
    min_parallel: Option<usize>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let ok = eps.ndim() == 1 && y.ndim() >= 1 && eps.shape()[0] == *y.shape().last().unwrap_or(&0)
        || eps.shape() == y.shape();
    if !ok {
        return Err(bad(format!(
            "eps must have shape ({},) or {:?} to match y, got {:?}",
            y.shape().last().unwrap_or(&0),
            y.shape(),
            eps.shape()
        )));
    }
    let w = eps
        .as_slice()
        .map_err(|_| bad("eps must be a C-contiguous float64 array".into()))?;
    run(
        py,
        "y",
        &y,
        out,
        n_threads,
        min_parallel,
        |x, o, _| proj::project_weighted_simplex_into(x, w, o),
        |first, x, c, o, p| {
            // per-row weights follow the block of rows being projected
            let w = if w.len() == c {
                w
            } else {
                &w[first * c..first * c + x.len()]
            };
            proj::project_weighted_simplex_rows(x, c, w, o, p)
        },
    )
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(project_simplex, m)?)?;
    m.add_function(wrap_pyfunction!(project_l1_ball, m)?)?;
    m.add_function(wrap_pyfunction!(project_weighted_simplex, m)?)?;
    m.add_function(wrap_pyfunction!(project_capped_simplex, m)?)?;
    m.add_function(wrap_pyfunction!(project_top_k, m)?)?;
    Ok(())
}
