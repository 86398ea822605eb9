//! Graph databases: the frozen handle every graph-collection call takes, and the file readers.

use std::sync::Arc;

use graphsparse::graph::GraphDatabase;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;

use crate::convert::{PyGsErr, bad_graph};

/// A validated, immutable graph database (`GraphDataset` holds one; every mining, fitting,
/// matching and stump-search call borrows it instead of rebuilding it).
#[pyclass(frozen, module = "graphsparse._graphsparse", name = "Database")]
pub struct Database(pub Arc<GraphDatabase>);

type Arrays<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
);

fn to_i64<T: Copy + Into<i64>>(xs: &[T]) -> Vec<i64> {
    xs.iter().map(|&x| x.into()).collect()
}

fn ptr_i64(p: &[usize]) -> Vec<i64> {
    p.iter().map(|&x| x as i64).collect()
}

#[pymethods]
impl Database {
    /// Validates the flat arrays of a collection: `node_ptr`, `node_labels`, `edge_ptr`,
    /// `edges` of shape `(m, 2)` and `edge_labels` (int64); with `directed`, edge `(u, v)` is
    /// the arc `u -> v`.
    #[new]
    #[pyo3(signature = (node_ptr, node_labels, edge_ptr, edges, edge_labels, directed = false))]
    fn new(
        py: Python<'_>,
        node_ptr: PyReadonlyArray1<'_, i64>,
        node_labels: PyReadonlyArray1<'_, i64>,
        edge_ptr: PyReadonlyArray1<'_, i64>,
        edges: PyReadonlyArray2<'_, i64>,
        edge_labels: PyReadonlyArray1<'_, i64>,
        directed: bool,
    ) -> PyResult<Self> {
        let shape = edges.shape();
        if shape[1] != 2 && shape[0] != 0 {
            return Err(bad_graph(format!(
                "edges must have shape (n_edges, 2), got ({}, {})",
                shape[0], shape[1]
            )));
        }
        let (a, b, c, d, e) = (
            node_ptr.as_slice()?,
            node_labels.as_slice()?,
            edge_ptr.as_slice()?,
            edges.as_slice()?,
            edge_labels.as_slice()?,
        );
        let db = py
            .detach(|| {
                let db = GraphDatabase::from_i64(a, b, c, d, e)?;
                if directed { db.into_directed() } else { Ok(db) }
            })
            .map_err(PyGsErr::from)?;
        Ok(Self(Arc::new(db)))
    }

    /// Whether edges are arcs (`(u, v)` is `u -> v`).
    #[getter]
    fn directed(&self) -> bool {
        self.0.directed()
    }

    /// The graphs `ids` (in range, repeats allowed), in that order, as a new database.
    fn select(&self, py: Python<'_>, ids: PyReadonlyArray1<'_, i64>) -> PyResult<Self> {
        let n = self.0.len();
        let ids: Vec<usize> =
            ids.as_slice()?
                .iter()
                .map(|&i| {
                    usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
                        bad_graph(format!("graph id {i} out of range for {n} graphs"))
                    })
                })
                .collect::<PyResult<_>>()?;
        let db = py.detach(|| self.0.select(&ids)).map_err(PyGsErr::from)?;
        Ok(Self(Arc::new(db)))
    }

    /// The flat arrays `(node_ptr, node_labels, edge_ptr, edges, edge_labels)`, int64.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        let db = &self.0;
        let flat: Vec<i64> = db
            .edges()
            .iter()
            .flat_map(|e| [i64::from(e[0]), i64::from(e[1])])
            .collect();
        Ok((
            ptr_i64(db.node_ptr()).into_pyarray(py),
            to_i64(db.node_labels()).into_pyarray(py),
            ptr_i64(db.edge_ptr()).into_pyarray(py),
            flat.into_pyarray(py).reshape([db.edges().len(), 2])?,
            to_i64(db.edge_labels()).into_pyarray(py),
        ))
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }
}

/// What the graph readers return: the database handle, the label tokens and the graph names
/// (the core's `LabeledDatabase`, field for field).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
pub struct LabeledDatabase {
    /// The graphs, labels as dense ids.
    db: Py<Database>,
    /// Vertex-label tokens in canonical order (`vertex_labels[id]` is the token of id `id`).
    vertex_labels: Vec<String>,
    /// What the vertex-label tokens denote: `"integer"`, `"float"` or `"text"`.
    vertex_label_kind: &'static str,
    /// Edge-label tokens in canonical order.
    edge_labels: Vec<String>,
    /// What the edge-label tokens denote.
    edge_label_kind: &'static str,
    /// Per-graph class tokens, when the source had them.
    graph_labels: Option<Vec<String>>,
    /// What the graph-label tokens denote; `None` exactly when `graph_labels` is.
    graph_label_kind: Option<&'static str>,
    /// Per-graph names or ids from the source.
    graph_names: Vec<String>,
}

impl LabeledDatabase {
    fn new(
        py: Python<'_>,
        data: graphsparse::graph::LabeledDatabase,
        directed: bool,
    ) -> PyResult<Self> {
        let db = if directed {
            data.db.into_directed().map_err(PyGsErr::from)?
        } else {
            data.db
        };
        Ok(Self {
            db: Py::new(py, Database(Arc::new(db)))?,
            vertex_labels: data.vertex_labels,
            vertex_label_kind: data.vertex_label_kind.as_str(),
            edge_labels: data.edge_labels,
            edge_label_kind: data.edge_label_kind.as_str(),
            graph_labels: data.graph_labels,
            graph_label_kind: data.graph_label_kind.map(|k| k.as_str()),
            graph_names: data.graph_names,
        })
    }
}

/// Parses gSpan text into the database handle, its label tokens and graph names; with
/// `directed`, `e u v l` is the arc `u -> v`.
#[pyfunction]
#[pyo3(signature = (text, source = "<string>", directed = false))]
fn parse_gspan_text(
    py: Python<'_>,
    text: &str,
    source: &str,
    directed: bool,
) -> PyResult<LabeledDatabase> {
    let data = py
        .detach(|| graphsparse::graph::parse_gspan(text, source))
        .map_err(PyGsErr::from)?;
    LabeledDatabase::new(py, data, directed)
}

/// Reads a gSpan file into the database handle, its label tokens and graph names; with
/// `directed`, `e u v l` is the arc `u -> v`.
#[pyfunction]
#[pyo3(signature = (path, directed = false))]
fn read_gspan_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    directed: bool,
) -> PyResult<LabeledDatabase> {
    let data = py
        .detach(|| graphsparse::graph::read_gspan(&path))
        .map_err(PyGsErr::from)?;
    LabeledDatabase::new(py, data, directed)
}

/// Reads a TU dataset folder into the database handle, its label tokens, graph classes and
/// graph names.
#[pyfunction]
#[pyo3(signature = (path, name = None))]
fn read_tu_folder(
    py: Python<'_>,
    path: std::path::PathBuf,
    name: Option<String>,
) -> PyResult<LabeledDatabase> {
    let data = py
        .detach(|| graphsparse::graph::read_tu(&path, name.as_deref()))
        .map_err(PyGsErr::from)?;
    LabeledDatabase::new(py, data, false)
}

/// The gSpan text of a database with its label tokens and graph names (the writer's checks
/// are the reader's: what it returns reads back as the same graphs, labels and names).
#[pyfunction]
fn format_gspan_text(
    py: Python<'_>,
    db: &Database,
    vertex_tokens: Vec<String>,
    edge_tokens: Vec<String>,
    names: Vec<String>,
) -> PyResult<String> {
    let db = GraphDatabase::clone(&db.0);
    py.detach(|| {
        let data =
            graphsparse::graph::LabeledDatabase::new(db, vertex_tokens, edge_tokens, None, names)?;
        graphsparse::graph::format_gspan(&data)
    })
    .map_err(|e| PyGsErr::from(e).into())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Database>()?;
    m.add_class::<LabeledDatabase>()?;
    m.add_function(wrap_pyfunction!(parse_gspan_text, m)?)?;
    m.add_function(wrap_pyfunction!(read_gspan_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_tu_folder, m)?)?;
    m.add_function(wrap_pyfunction!(format_gspan_text, m)?)?;
    Ok(())
}
