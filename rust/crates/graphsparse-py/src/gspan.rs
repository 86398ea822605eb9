//! gSpan bindings: frequent-subgraph mining and minimum DFS codes.

use graphsparse::graph::GraphRef;
use graphsparse::gspan::{
    Check, DfsCode, DfsEdge, Embeddings, Extension, Frontier, GspanError, LevelIndex, MinerParams,
    MinerValidParams, Node, Parallel, ParallelVisitor, Visit, Visitor, count_extensions,
    extend_frontier, mine,
};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{
    Count, Flag, NodeBudget, PyGsErr, Seconds, bad_graph, bad_param, code_array, edge_list,
    extract_params,
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
    fn params(&self, parallel: Parallel) -> Result<MinerValidParams, GspanError> {
        MinerParams::new()
            .min_support(self.min_support.usize())
            .max_size(self.max_size.map(Count::usize))
            .single_vertices(self.single_vertices.0)
            .max_nodes(self.max_nodes.map(|b| b.0))
            .time_limit(self.time_limit.0)
            .parallel(parallel)
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
    let args = extract_params::<MinerArgs>(params)?;
    // the parameters are checked before the thread count, as they always were
    args.params(Parallel::Serial).map_err(PyGsErr::from)?;
    let n_threads = threads(py, n_threads)?;
    let params = args
        .params(Parallel::from(n_threads > 1))
        .map_err(PyGsErr::from)?;
    let db = &db.0;
    let (flat, stats) = run(py, Exec::Pool(n_threads), progress, |ctl| {
        let mut flat = FlatPatterns::new();
        mine(db, &params, &mut flat, ctl).map(|s| (flat, s))
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

/// One shard's frontier as flat arrays: the attributes of the Python object passed.
///
/// `size` edges per pattern; `codes` `(patterns · size, 5)`; `pairs` `(embeddings, 2)`, each
/// pattern's block from `emb_ptr`; `starts` `(patterns · (size + 1),)`, each pattern's level
/// starts within its block; `gids` with `gid_ptr`. Size 0 is the root (no arrays read).
#[derive(FromPyObject)]
struct FrontierParts<'py> {
    size: usize,
    codes: PyReadonlyArray2<'py, i64>,
    pairs: PyReadonlyArray2<'py, u32>,
    emb_ptr: PyReadonlyArray1<'py, i64>,
    starts: PyReadonlyArray1<'py, u32>,
    gids: PyReadonlyArray1<'py, u32>,
    gid_ptr: PyReadonlyArray1<'py, i64>,
}

/// `rows` of `(i, j, l_i, l_ij, l_j)` as DFS edges.
fn edges_of(rows: &[i64], what: &str) -> PyResult<Vec<DfsEdge>> {
    if rows.len() % 5 != 0 {
        return Err(bad_param(format!("{what} must have 5 columns")));
    }
    rows.chunks_exact(5)
        .map(|e| {
            let v: Vec<u32> = e
                .iter()
                .map(|&x| u32::try_from(x))
                .collect::<Result<_, _>>()
                .map_err(|_| bad_param(format!("{what} holds {e:?}, out of range")))?;
            Ok(DfsEdge::new(v[0], v[1], v[2], v[3], v[4]))
        })
        .collect()
}

/// `rows` of `(i, j, l_i, l_ij, l_j)`, `size` at a time, as DFS codes.
fn codes_of(rows: &[i64], size: usize, what: &str) -> PyResult<Vec<DfsCode>> {
    if size == 0 || rows.len() % (5 * size) != 0 {
        return Err(bad_param(format!(
            "{what} must hold whole codes of {size} edges"
        )));
    }
    let edges = edges_of(rows, what)?;
    edges
        .chunks_exact(size)
        .map(|c| DfsCode::from_edges(c.to_vec()).map_err(|e| PyGsErr::from(e).into()))
        .collect()
}

fn span(ptr: &[i64], k: usize, what: &str) -> PyResult<std::ops::Range<usize>> {
    let (a, b) = (ptr[k], ptr[k + 1]);
    match (usize::try_from(a), usize::try_from(b)) {
        (Ok(a), Ok(b)) if a <= b => Ok(a..b),
        _ => Err(bad_param(format!("{what} must not decrease"))),
    }
}

impl FrontierParts<'_> {
    fn frontier(&self, index: &LevelIndex) -> PyResult<Frontier> {
        if self.size == 0 {
            return Ok(Frontier::root());
        }
        let codes = codes_of(self.codes.as_slice()?, self.size, "frontier codes")?;
        let (pairs, emb_ptr) = (self.pairs.as_slice()?, self.emb_ptr.as_slice()?);
        let (starts, gids, gid_ptr) = (
            self.starts.as_slice()?,
            self.gids.as_slice()?,
            self.gid_ptr.as_slice()?,
        );
        let p = codes.len();
        if emb_ptr.len() != p + 1 || gid_ptr.len() != p + 1 || starts.len() != p * (self.size + 1) {
            return Err(bad_param(
                "frontier arrays disagree on the number of patterns",
            ));
        }
        let patterns = codes
            .into_iter()
            .enumerate()
            .map(|(k, code)| {
                let r = span(emb_ptr, k, "emb_ptr")?;
                let block = pairs
                    .get(2 * r.start..2 * r.end)
                    .ok_or_else(|| bad_param("emb_ptr runs past pairs"))?;
                let ids = gids
                    .get(span(gid_ptr, k, "gid_ptr")?)
                    .ok_or_else(|| bad_param("gid_ptr runs past gids"))?;
                let lv = starts[k * (self.size + 1)..(k + 1) * (self.size + 1)].to_vec();
                Embeddings::from_parts(index.mining_index(), code, block, lv, ids.to_vec())
                    .map_err(|e| PyGsErr::from(e).into())
            })
            .collect::<PyResult<Vec<_>>>()?;
        Frontier::new(self.size, patterns).map_err(|e| PyGsErr::from(e).into())
    }
}

type Proposed<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
);

fn edge_rows(edges: impl Iterator<Item = DfsEdge>) -> Vec<i64> {
    edges
        .flat_map(|e| [e.from, e.to, e.from_label, e.edge_label, e.to_label].map(i64::from))
        .collect()
}

/// Round of level-wise mining on one shard: the rightmost-path extensions (minimal or not) of
/// `frontier`'s patterns that occur in `db`, as `(parents (n,), edges (n, 5), supports (n,))`:
/// the index of the extended frontier pattern (0 for the root), the appended edge, the local
/// support.
#[pyfunction]
#[pyo3(signature = (db, frontier, n_threads = 1))]
fn level_extensions<'py>(
    py: Python<'py>,
    db: &Database,
    frontier: &Bound<'py, PyAny>,
    n_threads: usize,
) -> PyResult<Proposed<'py>> {
    let parts: FrontierParts<'_> = frontier.extract()?;
    let n_threads = threads(py, n_threads)?;
    let db = &db.0;
    let index = py.detach(|| LevelIndex::new(db)).map_err(PyGsErr::from)?;
    let frontier = parts.frontier(&index)?;
    let level = run(py, Exec::Pool(n_threads), None, |ctl| {
        count_extensions(db, &index, &frontier, ctl)
    })?
    .map_err(PyGsErr::from)?;
    proposed(py, &level.extensions)
}

type FrontierArrays<'py> = (
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<u32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
);

fn proposed<'py>(py: Python<'py>, x: &[Extension]) -> PyResult<Proposed<'py>> {
    let parents: Vec<i64> = x.iter().map(|e| e.parent as i64).collect();
    let supports: Vec<i64> = x.iter().map(|e| e.support as i64).collect();
    let edges = edge_rows(x.iter().map(|e| e.edge));
    Ok((
        parents.into_pyarray(py),
        edges.into_pyarray(py).reshape([x.len(), 5])?,
        supports.into_pyarray(py),
    ))
}

/// The next frontier of one shard: the extensions `(parents[k], edges[k])` of `frontier`'s
/// patterns that occur in `db`, as the arrays `(codes, pairs, emb_ptr, starts, gids, gid_ptr,
/// positions in the list given)`, and, when `grow`, the new frontier's extensions as
/// [`level_extensions`] lists them (else `None`): one round of level-wise mining.
#[pyfunction]
#[pyo3(signature = (db, frontier, parents, edges, grow, n_threads = 1))]
fn level_frontier<'py>(
    py: Python<'py>,
    db: &Database,
    frontier: &Bound<'py, PyAny>,
    parents: PyReadonlyArray1<'py, i64>,
    edges: PyReadonlyArray2<'py, i64>,
    grow: bool,
    n_threads: usize,
) -> PyResult<(FrontierArrays<'py>, Option<Proposed<'py>>)> {
    let parts: FrontierParts<'_> = frontier.extract()?;
    let n_threads = threads(py, n_threads)?;
    let edges = edges_of(edges.as_slice()?, "edges")?;
    let parents = parents.as_slice()?;
    if parents.len() != edges.len() {
        return Err(bad_param(
            "parents and edges must have one row per extension",
        ));
    }
    let keep: Vec<(usize, DfsEdge)> = parents
        .iter()
        .zip(&edges)
        .map(|(&p, &e)| (usize::try_from(p).unwrap_or(usize::MAX), e))
        .collect();
    let db = &db.0;
    let index = py.detach(|| LevelIndex::new(db)).map_err(PyGsErr::from)?;
    let frontier = parts.frontier(&index)?;
    let (next, positions, level) = run(py, Exec::Pool(n_threads), None, |ctl| {
        let (next, positions) = extend_frontier(db, &index, &frontier, &keep, ctl)?;
        let level = if grow {
            Some(count_extensions(db, &index, &next, ctl)?)
        } else {
            None
        };
        Ok::<_, GspanError>((next, positions, level))
    })?
    .map_err(PyGsErr::from)?;
    let n = next.patterns().len();
    let (mut pairs, mut emb_ptr, mut starts) = (Vec::new(), vec![0i64], Vec::new());
    let (mut gids, mut gid_ptr) = (Vec::new(), vec![0i64]);
    for e in next.patterns() {
        pairs.extend(e.pairs().flatten());
        emb_ptr.push((pairs.len() / 2) as i64);
        starts.extend_from_slice(e.level_starts());
        gids.extend_from_slice(e.graph_ids());
        gid_ptr.push(gids.len() as i64);
    }
    let n_pairs = pairs.len() / 2;
    let rows = edge_rows(
        next.patterns()
            .iter()
            .flat_map(|e| e.code().edges().iter().copied()),
    );
    let positions: Vec<i64> = positions.into_iter().map(|p| p as i64).collect();
    let arrays = (
        rows.into_pyarray(py).reshape([n * next.size(), 5])?,
        pairs.into_pyarray(py).reshape([n_pairs, 2])?,
        emb_ptr.into_pyarray(py),
        starts.into_pyarray(py),
        gids.into_pyarray(py),
        gid_ptr.into_pyarray(py),
        positions.into_pyarray(py),
    );
    let proposals = level.map(|l| proposed(py, &l.extensions)).transpose()?;
    Ok((arrays, proposals))
}

/// For each code of `codes` (rows of `(i, j, l_i, l_ij, l_j)`, `size` per code), whether it
/// is the minimum DFS code of its graph.
#[pyfunction]
fn dfs_codes_are_min<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray2<'py, i64>,
    size: usize,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let codes = codes_of(codes.as_slice()?, size, "codes")?;
    let mins: Vec<bool> = py.detach(|| codes.iter().map(DfsCode::is_min).collect());
    Ok(mins.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dfs_codes_are_min, m)?)?;
    m.add_function(wrap_pyfunction!(level_extensions, m)?)?;
    m.add_function(wrap_pyfunction!(level_frontier, m)?)?;
    m.add_function(wrap_pyfunction!(mine_subgraphs, m)?)?;
    m.add_function(wrap_pyfunction!(min_dfs_code, m)?)?;
    Ok(())
}
