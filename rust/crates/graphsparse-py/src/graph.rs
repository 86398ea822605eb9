//! Graph-database readers and validation.

use graphsparse::graph::{GraphDatabase, LabeledDatabase};
use numpy::{
    IntoPyArray, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::PyGsErr;

fn to_i64<T: Copy + Into<i64>>(xs: &[T]) -> Vec<i64> {
    xs.iter().map(|&x| x.into()).collect()
}

/// The flat arrays of a database as a dict of int64 NumPy arrays.
pub fn database_dict<'py>(py: Python<'py>, db: &GraphDatabase) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let ptr = |p: &[usize]| p.iter().map(|&x| x as i64).collect::<Vec<i64>>();
    d.set_item("node_ptr", ptr(db.node_ptr()).into_pyarray(py))?;
    d.set_item("node_labels", to_i64(db.node_labels()).into_pyarray(py))?;
    d.set_item("edge_ptr", ptr(db.edge_ptr()).into_pyarray(py))?;
    let flat: Vec<i64> = db
        .edges()
        .iter()
        .flat_map(|e| [i64::from(e[0]), i64::from(e[1])])
        .collect();
    d.set_item(
        "edges",
        flat.into_pyarray(py).reshape([db.edges().len(), 2])?,
    )?;
    d.set_item("edge_labels", to_i64(db.edge_labels()).into_pyarray(py))?;
    Ok(d)
}

fn labeled_dict<'py>(py: Python<'py>, data: LabeledDatabase) -> PyResult<Bound<'py, PyDict>> {
    let d = database_dict(py, &data.db)?;
    d.set_item("vertex_tokens", data.vertex_labels)?;
    d.set_item("edge_tokens", data.edge_labels)?;
    d.set_item("graph_labels", data.graph_labels)?;
    d.set_item("graph_names", data.graph_names)?;
    Ok(d)
}

/// Parses gSpan text; returns the flat arrays and the label tokens.
#[pyfunction]
#[pyo3(signature = (text, source = "<string>"))]
fn parse_gspan_text<'py>(
    py: Python<'py>,
    text: &str,
    source: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let data = py
        .detach(|| graphsparse::graph::parse_gspan(text, source))
        .map_err(PyGsErr::from)?;
    labeled_dict(py, data)
}

/// Reads a gSpan file; returns the flat arrays and the label tokens.
#[pyfunction]
fn read_gspan_file<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let data = py
        .detach(|| graphsparse::graph::read_gspan(&path))
        .map_err(PyGsErr::from)?;
    labeled_dict(py, data)
}

/// Reads a TU dataset folder; returns the flat arrays, label tokens and graph classes.
#[pyfunction]
#[pyo3(signature = (path, name = None))]
fn read_tu_folder<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    name: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let data = py
        .detach(|| graphsparse::graph::read_tu(&path, name.as_deref()))
        .map_err(PyGsErr::from)?;
    labeled_dict(py, data)
}

/// The five flat int64 arrays of a `GraphDataset`, passed as one tuple (`GraphDataset._arrays()`):
/// `(node_ptr, node_labels, edge_ptr, edges, edge_labels)`.
#[derive(FromPyObject)]
pub struct DbArrays<'py>(
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray2<'py, i64>,
    PyReadonlyArray1<'py, i64>,
);

impl DbArrays<'_> {
    /// Builds (and validates) the database in the core crate's type.
    pub fn database(&self) -> PyResult<GraphDatabase> {
        let DbArrays(node_ptr, node_labels, edge_ptr, edges, edge_labels) = self;
        let shape = edges.shape();
        if shape[1] != 2 && shape[0] != 0 {
            return Err(crate::errors::InvalidGraphError::new_err(format!(
                "edges must have shape (n_edges, 2), got ({}, {})",
                shape[0], shape[1]
            )));
        }
        let db = GraphDatabase::from_i64(
            node_ptr.as_slice()?,
            node_labels.as_slice()?,
            edge_ptr.as_slice()?,
            edges.as_slice()?,
            edge_labels.as_slice()?,
        )
        .map_err(PyGsErr::from)?;
        Ok(db)
    }
}

/// Validates flat database arrays; raises `InvalidGraphError` on the first problem.
#[pyfunction]
fn validate_database(db: DbArrays<'_>) -> PyResult<()> {
    db.database().map(|_| ())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_gspan_text, m)?)?;
    m.add_function(wrap_pyfunction!(read_gspan_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_tu_folder, m)?)?;
    m.add_function(wrap_pyfunction!(validate_database, m)?)?;
    Ok(())
}
