//! gSpan bindings: frequent-subgraph mining and minimum DFS codes.

use graphsparse::graph::GraphRef;
use graphsparse::gspan::{
    DfsCode, GspanError, MinerParams, MinerValidParams, Node, ParallelVisitor, Visit, Visitor,
    mine, mine_parallel,
};
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{
    Count, Flag, NodeBudget, PyGsErr, Seconds, bad_graph, code_array, edge_list, extract_params,
};
use crate::graph::Database;
use crate::threads::{Exec, run, threads};

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

/// The parameters of `mine_subgraphs`, as a dict of Python values.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct MinerArgs {
    min_support: Count,
    max_size: Option<Count>,
    single_vertices: Flag,
    max_nodes: Option<NodeBudget>,
    time_limit: Seconds,
}

impl MinerArgs {
    fn params(&self) -> Result<MinerValidParams, GspanError> {
        MinerParams::new()
            .min_support(self.min_support.usize())
            .max_size(self.max_size.map(Count::usize))
            .single_vertices(self.single_vertices.0)
            .max_nodes(self.max_nodes.map(|b| b.0))
            .time_limit(self.time_limit.0)
            .check()
    }
}

/// Mines the frequent connected subgraphs of `db`; returns the patterns as flat arrays.
///
/// `params` is a dict with `min_support` (absolute), `max_size`, `single_vertices`,
/// `max_nodes` and `time_limit`; `progress(nodes, iterations, stage, stages, value, seconds)`
/// is called every 100 ms when given.
#[pyfunction]
#[pyo3(signature = (db, params, n_threads = 1, progress = None))]
fn mine_subgraphs<'py>(
    py: Python<'py>,
    db: &Database,
    params: &Bound<'py, PyAny>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let params = extract_params::<MinerArgs>(params)?
        .params()
        .map_err(PyGsErr::from)?;
    let n_threads = threads(py, n_threads)?;
    let db = &db.0;
    let (flat, stats) = run(py, Exec::Pool(n_threads), progress, |ctl| {
        let mut flat = FlatPatterns::new();
        let stats = if n_threads == 1 {
            mine(db, &params, &mut flat, ctl)
        } else {
            mine_parallel(db, &params, &mut flat, ctl)
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
    d.set_item("truncated", stats.truncation.map(|t| t.as_str()))?;
    d.set_item("seconds", stats.seconds)?;
    Ok(d)
}

fn to_u32(values: &[i64], what: &str) -> PyResult<Vec<u32>> {
    values
        .iter()
        .map(|&x| {
            u32::try_from(x).map_err(|_| bad_graph(format!("{what} must be in 0..2^32, got {x}")))
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
    let labels = to_u32(node_labels.as_slice()?, "node_labels")?;
    let pairs: Vec<[u32; 2]> = edge_list(&edges)?
        .into_iter()
        .map(|[u, v]| match (u32::try_from(u), u32::try_from(v)) {
            (Ok(u), Ok(v)) => Ok([u, v]),
            _ => Err(bad_graph(format!(
                "edge ({u}, {v}) has an endpoint beyond 2^32"
            ))),
        })
        .collect::<PyResult<_>>()?;
    let elabels = to_u32(edge_labels.as_slice()?, "edge_labels")?;
    let graph = GraphRef {
        node_labels: &labels,
        edges: &pairs,
        edge_labels: &elabels,
    };
    let code: DfsCode = py
        .detach(|| graphsparse::gspan::min_dfs_code(graph))
        .map_err(PyGsErr::from)?;
    code_array(py, &code)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mine_subgraphs, m)?)?;
    m.add_function(wrap_pyfunction!(min_dfs_code, m)?)?;
    Ok(())
}
