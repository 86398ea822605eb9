//! The one place where Python values become Rust values and core errors become Python
//! exceptions.
//!
//! Rules kept here and nowhere else in the binding:
//! * every core error enum maps onto the `graphsparse.exceptions` hierarchy ([`PyGsErr`]): a
//!   malformed graph or edge list is an `InvalidGraphError`, a file that cannot be parsed a
//!   `GraphFormatError`, any other bad argument an `InvalidParameterError`;
//! * scalar parameters arrive in typed structs (`#[derive(FromPyObject)]` over a dict of
//!   parameters, read with [`extract_params`]) whose field types say what Python value is
//!   accepted: [`Real`], [`Count`], [`NodeBudget`], [`Seconds`], [`Flag`]. Ranges are not
//!   checked here: the core's `check()` owns them;
//! * edge arrays and DFS-code arrays are converted by [`edge_list`] and [`dfs_code`] /
//!   [`code_array`].

use std::time::Duration;

use graphsparse::gspan::{DfsCode, DfsEdge};
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyFileNotFoundError, PyKeyError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};
use pyo3::{Borrowed, PyErr, import_exception};

import_exception!(graphsparse.exceptions, GraphSparseError);
import_exception!(graphsparse.exceptions, InvalidGraphError);
import_exception!(graphsparse.exceptions, GraphFormatError);
import_exception!(graphsparse.exceptions, InvalidParameterError);
import_exception!(graphsparse.exceptions, ThreadCountWarning);

/// An `InvalidParameterError` with `msg`.
pub fn bad_param(msg: impl Into<String>) -> PyErr {
    InvalidParameterError::new_err(msg.into())
}

/// An `InvalidGraphError` with `msg`.
pub fn bad_graph(msg: impl Into<String>) -> PyErr {
    InvalidGraphError::new_err(msg.into())
}

// ------------------------------------------------------------------------------------------------
// core errors -> Python exceptions

/// Converts core-crate errors into Python exceptions (orphan-rule newtype).
pub struct PyGsErr(PyErr);

impl From<PyGsErr> for PyErr {
    fn from(err: PyGsErr) -> Self {
        err.0
    }
}

impl From<graphsparse::graph::GraphError> for PyGsErr {
    fn from(err: graphsparse::graph::GraphError) -> Self {
        use graphsparse::graph::GraphError as E;
        let msg = err.to_string();
        Self(match err {
            E::Parse { .. } | E::Inconsistent(_) => GraphFormatError::new_err(msg),
            E::Io { .. } => PyFileNotFoundError::new_err(msg),
            _ => InvalidGraphError::new_err(msg),
        })
    }
}

impl From<graphsparse::gspan::GspanError> for PyGsErr {
    fn from(err: graphsparse::gspan::GspanError) -> Self {
        use graphsparse::gspan::GspanError as E;
        match err {
            E::Graph(g) => Self::from(g),
            E::Input(_) | E::InvalidCode { .. } => Self(bad_param(err.to_string())),
            _ => Self(bad_graph(err.to_string())),
        }
    }
}

impl From<graphsparse::graph::WeightedGraphError> for PyGsErr {
    fn from(err: graphsparse::graph::WeightedGraphError) -> Self {
        use graphsparse::graph::WeightedGraphError as E;
        Self(match err {
            // the weights' length or a matrix's non-finite entry: a bad argument
            E::Input(_) | E::WeightsLength { .. } => bad_param(err.to_string()),
            _ => bad_graph(err.to_string()),
        })
    }
}

impl From<graphsparse::pcst::projection::ProjectionError> for PyGsErr {
    fn from(err: graphsparse::pcst::projection::ProjectionError) -> Self {
        use graphsparse::pcst::projection::ProjectionError as E;
        match err {
            E::Pcst(e) => Self::from(e),
            _ => Self(bad_param(err.to_string())),
        }
    }
}

impl From<graphsparse::pcst::PcstError> for PyGsErr {
    fn from(err: graphsparse::pcst::PcstError) -> Self {
        use graphsparse::pcst::PcstError as E;
        Self(match err {
            E::Graph(g) => return Self::from(g),
            E::TooLarge { .. } => bad_graph(err.to_string()),
            // Python spelling of the choices (the Rust message quotes them Rust-style)
            E::UnknownPruning(name) => bad_param(format!(
                "pruning must be one of 'none', 'simple', 'gw', 'strong' (case-sensitive); \
                 unknown pruning {name:?}"
            )),
            _ => bad_param(err.to_string()),
        })
    }
}

impl From<graphsparse::proj::ProjError> for PyGsErr {
    fn from(err: graphsparse::proj::ProjError) -> Self {
        Self(bad_param(err.to_string()))
    }
}

impl From<graphsparse::online::OnlineError> for PyGsErr {
    fn from(err: graphsparse::online::OnlineError) -> Self {
        use graphsparse::online::OnlineError as E;
        match err {
            E::Graph(g) => Self::from(g),
            E::Projection(p) => Self::from(p),
            _ => Self(bad_param(err.to_string())),
        }
    }
}

impl From<graphsparse::subgraph::SubgraphError> for PyGsErr {
    fn from(err: graphsparse::subgraph::SubgraphError) -> Self {
        use graphsparse::subgraph::SubgraphError as E;
        match err {
            E::Gspan(g) => Self::from(g),
            _ => Self(bad_param(err.to_string())),
        }
    }
}

impl From<graphsparse::recovery::RecoveryError> for PyGsErr {
    fn from(err: graphsparse::recovery::RecoveryError) -> Self {
        use graphsparse::graph::WeightedGraphError as G;
        use graphsparse::recovery::RecoveryError as E;
        Self(match err {
            // a length, a non-finite entry or a malformed design matrix `L`: a bad argument
            E::Graph(
                G::Input(_) | G::WeightsLength { .. } | G::InvalidSparse { name: "matrix", .. },
            ) => bad_param(err.to_string()),
            E::Graph(_) | E::InvalidWeight { .. } | E::GraphSizeMismatch { .. } => {
                bad_graph(err.to_string())
            }
            E::Projection(p) => return Self::from(p),
            _ => bad_param(err.to_string()),
        })
    }
}

impl From<graphsparse::ot::OtError> for PyGsErr {
    fn from(err: graphsparse::ot::OtError) -> Self {
        use graphsparse::ot::OtError as E;
        match err {
            E::Database(g) => Self::from(g),
            E::Graph(g) => Self::from(g),
            _ => Self(bad_param(err.to_string())),
        }
    }
}

impl From<graphsparse::lattice::LatticeError> for PyGsErr {
    fn from(err: graphsparse::lattice::LatticeError) -> Self {
        Self(bad_param(err.to_string()))
    }
}

// ------------------------------------------------------------------------------------------------
// typed parameter structs

/// Extracts a `#[derive(FromPyObject)]` parameter struct from `obj` (a dict of parameters).
///
/// PyO3 reports a field that fails to convert as a `TypeError` ("failed to extract field
/// S.f") whose cause is the field's own error. This unwraps it: a graphsparse error from a
/// field type comes back as that error, prefixed by the field's name, so that every message
/// names its argument; a missing or mistyped field becomes an `InvalidParameterError` naming
/// it.
pub fn extract_params<'py, T>(obj: &Bound<'py, PyAny>) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py, Error = PyErr>,
{
    obj.extract::<T>().map_err(|err| {
        let py = obj.py();
        if err.is_instance_of::<PyKeyError>(py) {
            return bad_param(format!("missing parameter {}", err.value(py)));
        }
        let msg = err.value(py).to_string();
        let Some(path) = msg.strip_prefix("failed to extract field ") else {
            return err;
        };
        let field = path.rsplit('.').next().unwrap_or(path);
        match err.cause(py) {
            Some(cause) if cause.is_instance_of::<GraphSparseError>(py) => {
                let inner = cause.value(py).to_string();
                let renamed = format!("{field} {inner}");
                let ty = cause.get_type(py);
                match ty.call1((renamed,)) {
                    Ok(exc) => PyErr::from_value(exc),
                    Err(e) => e,
                }
            }
            Some(cause) => bad_param(format!("{field}: {}", cause.value(py))),
            None => bad_param(format!("{field}: {msg}")),
        }
    })
}

/// Converts one function argument through a convert type (`Count`, `Real`, ...), naming the
/// argument in the error as [`extract_params`] names a field.
pub fn arg<'py, T>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py, Error = PyErr>,
{
    obj.extract::<T>().map_err(|err| {
        let py = obj.py();
        let inner = err.value(py).to_string();
        if err.is_instance_of::<GraphSparseError>(py) {
            match err.get_type(py).call1((format!("{name} {inner}"),)) {
                Ok(exc) => PyErr::from_value(exc),
                Err(e) => e,
            }
        } else {
            bad_param(format!("{name}: {inner}"))
        }
    })
}

fn type_name(obj: &Borrowed<'_, '_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

fn repr(obj: &Borrowed<'_, '_, PyAny>) -> String {
    obj.repr()
        .map_or_else(|_| type_name(obj), |r| r.to_string())
}

fn is_bool(obj: &Borrowed<'_, '_, PyAny>) -> bool {
    obj.is_instance_of::<PyBool>() || type_name(obj) == "bool" // numpy.bool
}

/// A real number from Python (`int`, `float` or a NumPy scalar; not `bool`). Any value is kept,
/// NaN and infinities included: ranges are the core's to check.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Real(pub f64);

impl<'py> FromPyObject<'_, 'py> for Real {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if is_bool(&obj) || obj.is_instance_of::<pyo3::types::PyString>() {
            return Err(bad_param(format!(
                "must be a real number, got {}",
                repr(&obj)
            )));
        }
        obj.extract::<f64>()
            .map(Real)
            .map_err(|_| bad_param(format!("must be a real number, got {}", repr(&obj))))
    }
}

/// A non-negative integer from Python (`int` or a NumPy integer; not `bool`, not `float`),
/// below 2**63 as every count of the Python API is (`graphsparse._validation.as_count`): a
/// larger one is refused, never saturated into "no limit".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count(pub u64);

fn count(obj: &Borrowed<'_, '_, PyAny>) -> PyResult<u64> {
    let not_int = || bad_param(format!("must be an integer, got {}", repr(obj)));
    if is_bool(obj) || obj.is_instance_of::<PyFloat>() {
        return Err(not_int());
    }
    let index = obj.call_method0("__index__").map_err(|_| not_int())?;
    let int = index.cast::<PyInt>().map_err(|_| not_int())?;
    match int.extract::<i64>() {
        Ok(v) if v >= 0 => Ok(v as u64),
        _ if int.lt(0)? => Err(bad_param(format!("must be >= 0, got {}", repr(obj)))),
        _ => Err(bad_param(format!("must be below 2**63, got {}", repr(obj)))),
    }
}

impl<'py> FromPyObject<'_, 'py> for Count {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        count(&obj).map(Count)
    }
}

impl From<Count> for usize {
    fn from(c: Count) -> usize {
        c.usize()
    }
}

impl Count {
    /// As a `usize` (saturating).
    pub fn usize(self) -> usize {
        usize::try_from(self.0).unwrap_or(usize::MAX)
    }
}

/// A node budget from Python: a positive integer below 2**63. Zero is
/// refused here because a Python caller who asks for no work at all made a mistake; Rust
/// callers may pass 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeBudget(pub u64);

impl<'py> FromPyObject<'_, 'py> for NodeBudget {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match count(&obj) {
            Ok(0) => Err(bad_param("must be >= 1 (or None for no limit), got 0")),
            Ok(v) => Ok(NodeBudget(v)),
            Err(e) if e.value(obj.py()).to_string().starts_with("must be >= 0") => Err(bad_param(
                format!("must be >= 1 (or None for no limit), got {}", repr(&obj)),
            )),
            Err(e) => Err(e),
        }
    }
}

/// A time budget from Python: `None`, or a positive number of seconds. `inf` and durations too
/// long to represent mean no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Seconds(pub Option<Duration>);

impl<'py> FromPyObject<'_, 'py> for Seconds {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(Seconds(None));
        }
        let bad = || {
            bad_param(format!(
                "must be a positive number of seconds (or None for no limit), got {}",
                repr(&obj)
            ))
        };
        let Real(t) = obj.extract::<Real>().map_err(|_| bad())?;
        if t.is_nan() || t <= 0.0 {
            return Err(bad());
        }
        Ok(Seconds(Duration::try_from_secs_f64(t).ok()))
    }
}

/// A boolean from Python (`bool` or `numpy.bool`; not an integer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

impl<'py> FromPyObject<'_, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if !is_bool(&obj) {
            return Err(bad_param(format!(
                "must be True or False, got {}",
                repr(&obj)
            )));
        }
        Ok(Flag(obj.is_truthy()?))
    }
}

// ------------------------------------------------------------------------------------------------
// arrays

/// An `(m, 2)` int64 edge array as `[u, v]` pairs of node ids.
///
/// Shape and sign are checked here (an `InvalidGraphError` naming the first bad row); whether
/// an endpoint is a node of the graph is the core's check.
pub fn edge_list(edges: &PyReadonlyArray2<'_, i64>) -> PyResult<Vec<[usize; 2]>> {
    let shape = edges.shape();
    if shape[1] != 2 && shape[0] != 0 {
        return Err(bad_graph(format!(
            "edges must have shape (m, 2), got ({}, {})",
            shape[0], shape[1]
        )));
    }
    let flat = edges.as_slice()?;
    flat.chunks_exact(2)
        .enumerate()
        .map(
            |(k, uv)| match (usize::try_from(uv[0]), usize::try_from(uv[1])) {
                (Ok(u), Ok(v)) => Ok([u, v]),
                _ => Err(bad_graph(format!(
                    "edges[{k}] = [{}, {}] is negative (a negative endpoint is not a node id)",
                    uv[0], uv[1]
                ))),
            },
        )
        .collect()
}

/// A DFS code from its `(k, 5)` int64 rows `(i, j, l_i, l_ij, l_j)`; `what` names the argument.
pub fn dfs_code(rows: &PyReadonlyArray2<'_, i64>, what: &str) -> PyResult<DfsCode> {
    let flat = rows.as_slice()?;
    if rows.shape()[1] != 5 && !flat.is_empty() {
        return Err(bad_param(format!("{what} must have 5 columns")));
    }
    let mut edges = Vec::with_capacity(flat.len() / 5);
    for r in flat.chunks_exact(5) {
        let mut v = [0u32; 5];
        for (slot, &x) in v.iter_mut().zip(r) {
            *slot = u32::try_from(x)
                .map_err(|_| bad_param(format!("{what} has an entry {x} outside 0..2^32")))?;
        }
        edges.push(DfsEdge::new(v[0], v[1], v[2], v[3], v[4]));
    }
    DfsCode::from_edges(edges).map_err(|e| PyGsErr::from(e).into())
}

/// A DFS code as `(k, 5)` int64 rows `(i, j, l_i, l_ij, l_j)`.
pub fn code_array<'py>(py: Python<'py>, code: &DfsCode) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let rows: Vec<i64> = code
        .edges()
        .iter()
        .flat_map(|e| [e.from, e.to, e.from_label, e.edge_label, e.to_label].map(i64::from))
        .collect();
    rows.into_pyarray(py).reshape([code.len(), 5])
}

/// Graph, vertex or edge ids as an int64 array (ids index memory, so they fit).
pub fn ids_array<'py, T>(py: Python<'py>, ids: &[T]) -> Bound<'py, numpy::PyArray1<i64>>
where
    T: Copy,
    i64: TryFrom<T>,
{
    ids.iter()
        .map(|&i| i64::try_from(i).unwrap_or(i64::MAX))
        .collect::<Vec<_>>()
        .into_pyarray(py)
}
