//! gSpan bindings: frequent-subgraph mining and minimum DFS codes.

use std::time::Duration;

use graphsparse::graph::GraphRef;
use graphsparse::gspan::{
    DfsCode, MinerParams, Node, ParallelVisitor, Truncation, Visit, Visitor, mine, mine_parallel,
};
use numpy::{
    IntoPyArray, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{InvalidGraphError, InvalidParameterError, PyGsErr};
use crate::graph::DbArrays;

/// Patterns stored flat, ready to become NumPy arrays (no per-pattern allocation).
#[derive(Default)]
struct FlatPatterns {
    code_ptr: Vec<i64>,
    codes: Vec<i64>,
    single_label: Vec<i64>,
    gid_ptr: Vec<i64>,
    graph_ids: Vec<i64>,
}

impl FlatPatterns {
    fn new() -> Self {
        Self {
            code_ptr: vec![0],
            gid_ptr: vec![0],
            ..Self::default()
        }
    }
}

impl Visitor for FlatPatterns {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        for e in node.code().edges() {
            self.codes
                .extend([e.from, e.to, e.from_label, e.edge_label, e.to_label].map(i64::from));
        }
        self.code_ptr.push((self.codes.len() / 5) as i64);
        self.single_label
            .push(node.vertex_label().map_or(-1, i64::from));
        self.graph_ids
            .extend(node.graph_ids().iter().map(|&g| i64::from(g)));
        self.gid_ptr.push(self.graph_ids.len() as i64);
        Visit::Continue
    }
}

impl ParallelVisitor for FlatPatterns {
    fn fork(&self) -> Self {
        Self::new()
    }

    fn join(&mut self, child: Self) {
        let (c0, g0) = ((self.codes.len() / 5) as i64, self.graph_ids.len() as i64);
        self.code_ptr
            .extend(child.code_ptr[1..].iter().map(|&p| p + c0));
        self.gid_ptr
            .extend(child.gid_ptr[1..].iter().map(|&p| p + g0));
        self.codes.extend(child.codes);
        self.single_label.extend(child.single_label);
        self.graph_ids.extend(child.graph_ids);
    }
}

fn bad_param(msg: String) -> PyErr {
    InvalidParameterError::new_err(msg)
}

fn non_negative(name: &str, value: Option<i64>) -> PyResult<Option<u64>> {
    value
        .map(|v| {
            u64::try_from(v).map_err(|_| bad_param(format!("{name} must be >= 0 or None, got {v}")))
        })
        .transpose()
}

fn truncation_name(t: Truncation) -> &'static str {
    match t {
        Truncation::MaxNodes => "max_nodes",
        Truncation::TimeLimit => "time_limit",
        _ => "interrupted",
    }
}

/// Mines the frequent connected subgraphs of a database given as flat int64 arrays.
#[pyfunction]
#[pyo3(signature = (
    db, min_support, max_size, single_vertices, max_nodes, time_limit, n_threads,
))]
#[allow(clippy::too_many_arguments)]
fn mine_subgraphs<'py>(
    py: Python<'py>,
    db: DbArrays<'py>,
    min_support: i64,
    max_size: Option<i64>,
    single_vertices: bool,
    max_nodes: Option<i64>,
    time_limit: Option<f64>,
    n_threads: i64,
) -> PyResult<Bound<'py, PyDict>> {
    if min_support < 1 {
        return Err(bad_param(format!(
            "min_support must be >= 1 (an absolute number of graphs), got {min_support}"
        )));
    }
    let max_size = non_negative("max_size", max_size)?.map(|v| v.min(usize::MAX as u64) as usize);
    let max_nodes = non_negative("max_nodes", max_nodes)?;
    let time_limit = match time_limit {
        None => None,
        Some(t) if t.is_finite() && t >= 0.0 => {
            Some(Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX))
        }
        Some(t) => {
            return Err(bad_param(format!(
                "time_limit must be finite and >= 0 or None, got {t}"
            )));
        }
    };
    if n_threads < 1 {
        return Err(bad_param(format!(
            "n_threads must be >= 1, got {n_threads}"
        )));
    }
    let db = db.database()?;
    let params = MinerParams::new()
        .min_support(min_support as usize)
        .max_size(max_size)
        .single_vertices(single_vertices)
        .max_nodes(max_nodes)
        .time_limit(time_limit)
        .check()
        .map_err(PyGsErr::from)?;
    let n_threads = n_threads as usize;
    let (flat, stats) = crate::threads::run_interruptible(py, n_threads, |cancel| {
        let mut flat = FlatPatterns::new();
        let stats = if n_threads == 1 {
            mine(&db, &params, &mut flat, cancel)
        } else {
            mine_parallel(&db, &params, &mut flat, cancel)
        };
        stats.map(|s| (flat, s))
    })?
    .map_err(PyGsErr::from)?;

    let d = PyDict::new(py);
    let n_edges_total = flat.codes.len() / 5;
    let support: Vec<i64> = flat.gid_ptr.windows(2).map(|w| w[1] - w[0]).collect();
    d.set_item("code_ptr", flat.code_ptr.into_pyarray(py))?;
    d.set_item(
        "codes",
        flat.codes.into_pyarray(py).reshape([n_edges_total, 5])?,
    )?;
    d.set_item("single_label", flat.single_label.into_pyarray(py))?;
    d.set_item("support", support.into_pyarray(py))?;
    d.set_item("gid_ptr", flat.gid_ptr.into_pyarray(py))?;
    d.set_item("graph_ids", flat.graph_ids.into_pyarray(py))?;
    d.set_item("nodes_visited", stats.nodes_visited)?;
    d.set_item("truncated", stats.truncation.map(truncation_name))?;
    d.set_item("seconds", stats.seconds)?;
    Ok(d)
}

fn to_u32(values: &[i64], what: &str) -> PyResult<Vec<u32>> {
    values
        .iter()
        .map(|&x| {
            u32::try_from(x).map_err(|_| {
                InvalidGraphError::new_err(format!("{what} must be in 0..2^32, got {x}"))
            })
        })
        .collect()
}

/// The minimum DFS code of one connected labelled graph, as int64 rows `(i, j, l_i, l_ij, l_j)`.
#[pyfunction]
fn min_dfs_code<'py>(
    py: Python<'py>,
    node_labels: PyReadonlyArray1<'py, i64>,
    edges: PyReadonlyArray2<'py, i64>,
    edge_labels: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
    let shape = edges.shape();
    if shape[1] != 2 && shape[0] != 0 {
        return Err(InvalidGraphError::new_err(format!(
            "edges must have shape (n_edges, 2), got ({}, {})",
            shape[0], shape[1]
        )));
    }
    let labels = to_u32(node_labels.as_slice()?, "node_labels")?;
    let flat = to_u32(edges.as_slice()?, "edges")?;
    let pairs: Vec<[u32; 2]> = flat.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
    let elabels = to_u32(edge_labels.as_slice()?, "edge_labels")?;
    let graph = GraphRef {
        node_labels: &labels,
        edges: &pairs,
        edge_labels: &elabels,
    };
    let code: DfsCode = py
        .detach(|| graphsparse::gspan::min_dfs_code(graph))
        .map_err(PyGsErr::from)?;
    let rows: Vec<i64> = code
        .edges()
        .iter()
        .flat_map(|e| [e.from, e.to, e.from_label, e.edge_label, e.to_label].map(i64::from))
        .collect();
    rows.into_pyarray(py).reshape([code.len(), 5])
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mine_subgraphs, m)?)?;
    m.add_function(wrap_pyfunction!(min_dfs_code, m)?)?;
    Ok(())
}
