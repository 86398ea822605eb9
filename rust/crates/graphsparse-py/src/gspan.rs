//! gSpan bindings: frequent-subgraph mining and minimum DFS codes.

use graphsparse::graph::GraphRef;
use graphsparse::gspan::{
    Check, DfsCode, DfsEdge, Embeddings, Extension, Frontier, GspanError, LevelIndex, MinerParams,
    MinerValidParams, Node, Parallel, ParallelVisitor, PatternSet, Visit, Visitor,
    count_extensions, extend_frontier, mine,
};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

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
        if !node.in_pattern_set() {
            return Visit::Continue;
        }
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
    #[pyo3(default)]
    pattern_set: SetName,
}

/// A pattern set by name: `"all"` (the default), `"closed"` or `"maximal"`.
#[derive(Default)]
struct SetName(PatternSet);

impl<'py> FromPyObject<'_, 'py> for SetName {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let name: Option<String> = obj.extract().ok();
        match name.as_deref() {
            Some("all") => Ok(Self(PatternSet::All)),
            Some("closed") => Ok(Self(PatternSet::Closed)),
            Some("maximal") => Ok(Self(PatternSet::Maximal)),
            _ => Err(bad_param(format!(
                "must be 'all', 'closed' or 'maximal', got {}",
                obj.repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string())
            ))),
        }
    }
}

impl MinerArgs {
    fn params(&self, parallel: Parallel) -> Result<MinerValidParams, GspanError> {
        MinerParams::new()
            .min_support(self.min_support.usize())
            .max_size(self.max_size.map(Count::usize))
            .single_vertices(self.single_vertices.0)
            .max_nodes(self.max_nodes.map(|b| b.0))
            .time_limit(self.time_limit.0)
            .pattern_set(self.pattern_set.0)
            .parallel(parallel)
            .check()
    }
}

/// What `mine_subgraphs` found: the patterns as flat arrays, then what the search did (the
/// core's `MiningResult`, flattened).
///
/// Pattern `k` has the DFS-code rows `codes[code_ptr[k]:code_ptr[k + 1]]` (none for a
/// single-vertex pattern, whose label is `single_label[k]`; -1 for the others) and occurs in the
/// graphs `graph_ids[gid_ptr[k]:gid_ptr[k + 1]]`.
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct MiningResult {
    /// Start of each pattern's rows in `codes`, int64 `(n_patterns + 1,)`.
    code_ptr: Py<PyArray1<i64>>,
    /// The DFS-code rows `(i, j, l_i, l_ij, l_j)` of all patterns, int64 `(rows, 5)`.
    codes: Py<PyArray2<i64>>,
    /// The label of each single-vertex pattern, -1 for edge patterns, int64 `(n_patterns,)`.
    single_label: Py<PyArray1<i64>>,
    /// The number of graphs holding each pattern, int64 `(n_patterns,)`.
    support: Py<PyArray1<i64>>,
    /// Start of each pattern's graphs in `graph_ids`, int64 `(n_patterns + 1,)`.
    gid_ptr: Py<PyArray1<i64>>,
    /// The sorted graph ids of all patterns, int64.
    graph_ids: Py<PyArray1<i64>>,
    /// Enumeration-tree nodes visited.
    nodes_visited: u64,
    /// Why the search stopped early (`"max_nodes"`, `"time_limit"`), or `None`.
    truncation: Option<&'static str>,
    /// Wall time of the search in seconds.
    seconds: f64,
}

/// Mines the frequent connected subgraphs of `db`; returns the patterns as flat arrays.
///
/// `params` is a dict with `min_support` (absolute), `max_size`, `single_vertices`,
/// `max_nodes`, `time_limit` and `pattern_set` (`"all"`, `"closed"` or `"maximal"`); `progress(nodes, iterations, stage, stages, value, seconds)`
/// is called every 100 ms when given.
#[pyfunction]
#[pyo3(signature = (db, params, n_threads = 1, progress = None))]
fn mine_subgraphs<'py>(
    py: Python<'py>,
    db: &Database,
    params: &Bound<'py, PyAny>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<MiningResult> {
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

    let n_rows = flat.codes.len() / 5;
    let support: Vec<i64> = flat.gid_ptr.windows(2).map(|w| w[1] - w[0]).collect();
    Ok(MiningResult {
        code_ptr: flat.code_ptr.into_pyarray(py).unbind(),
        codes: flat.codes.into_pyarray(py).reshape([n_rows, 5])?.unbind(),
        single_label: flat.single_label.into_pyarray(py).unbind(),
        support: support.into_pyarray(py).unbind(),
        gid_ptr: flat.gid_ptr.into_pyarray(py).unbind(),
        graph_ids: flat.graph_ids.into_pyarray(py).unbind(),
        nodes_visited: stats.nodes_visited,
        truncation: stats.truncation.map(|t| t.as_str()),
        seconds: stats.seconds,
    })
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

/// What one round of level-wise mining found in one shard (the core's `LevelCount`): the
/// rightmost-path extensions, minimal or not, of the frontier's patterns that occur in the
/// shard, in increasing code order.
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct LevelCount {
    /// The index of the extended frontier pattern (0 for the root), int64 `(n,)`.
    parents: Py<PyArray1<i64>>,
    /// The appended edge `(i, j, l_i, l_ij, l_j)`, int64 `(n, 5)`.
    edges: Py<PyArray2<i64>>,
    /// The number of the shard's graphs holding the extension, int64 `(n,)`.
    supports: Py<PyArray1<i64>>,
}

impl LevelCount {
    fn new(py: Python<'_>, x: &[Extension]) -> PyResult<Self> {
        let parents: Vec<i64> = x.iter().map(|e| e.parent as i64).collect();
        let supports: Vec<i64> = x.iter().map(|e| e.support as i64).collect();
        let edges = edge_rows(x.iter().map(|e| e.edge));
        Ok(Self {
            parents: parents.into_pyarray(py).unbind(),
            edges: edges.into_pyarray(py).reshape([x.len(), 5])?.unbind(),
            supports: supports.into_pyarray(py).unbind(),
        })
    }
}

/// One shard's frontier as flat arrays (the core's `Frontier`), in the layout
/// [`FrontierParts`] reads back: `level_frontier` returns one, and it (or any object with
/// these attributes) is the `frontier` of the next round.
#[pyclass(
    frozen,
    get_all,
    module = "graphsparse._graphsparse",
    name = "Frontier"
)]
struct FrontierArrays {
    /// Edges per pattern.
    size: usize,
    /// The patterns' DFS codes, `size` rows each, int64 `(n · size, 5)`.
    codes: Py<PyArray2<i64>>,
    /// The embeddings' vertex pairs, each pattern's block from `emb_ptr`, uint32 `(pairs, 2)`.
    pairs: Py<PyArray2<u32>>,
    /// Start of each pattern's block in `pairs`, int64 `(n + 1,)`.
    emb_ptr: Py<PyArray1<i64>>,
    /// Each pattern's `size + 1` level starts within its block, uint32 `(n · (size + 1),)`.
    starts: Py<PyArray1<u32>>,
    /// The patterns' graph ids, each pattern's from `gid_ptr`, uint32.
    gids: Py<PyArray1<u32>>,
    /// Start of each pattern's ids in `gids`, int64 `(n + 1,)`.
    gid_ptr: Py<PyArray1<i64>>,
}

fn edge_rows(edges: impl Iterator<Item = DfsEdge>) -> Vec<i64> {
    edges
        .flat_map(|e| [e.from, e.to, e.from_label, e.edge_label, e.to_label].map(i64::from))
        .collect()
}

/// Round of level-wise mining on one shard: the rightmost-path extensions (minimal or not) of
/// `frontier`'s patterns that occur in `db`, with the index of the extended frontier pattern
/// (0 for the root), the appended edge and the local support.
#[pyfunction]
#[pyo3(signature = (db, frontier, n_threads = 1))]
fn level_extensions<'py>(
    py: Python<'py>,
    db: &Database,
    frontier: &Bound<'py, PyAny>,
    n_threads: usize,
) -> PyResult<LevelCount> {
    let parts: FrontierParts<'_> = frontier.extract()?;
    let n_threads = threads(py, n_threads)?;
    let db = &db.0;
    let index = py.detach(|| LevelIndex::new(db)).map_err(PyGsErr::from)?;
    let frontier = parts.frontier(&index)?;
    let level = run(py, Exec::Pool(n_threads), None, |ctl| {
        count_extensions(db, &index, &frontier, ctl)
    })?
    .map_err(PyGsErr::from)?;
    LevelCount::new(py, &level.extensions)
}

/// The next frontier of one shard: the extensions `(parents[k], edges[k])` of `frontier`'s
/// patterns that occur in `db`, as `(frontier, positions, count)`: the new frontier, the
/// position of each of its patterns in the list given (int64), and, when `grow`, the new
/// frontier's extensions as [`level_extensions`] lists them (else `None`): one round of
/// level-wise mining.
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
) -> PyResult<(
    FrontierArrays,
    Bound<'py, PyArray1<i64>>,
    Option<LevelCount>,
)> {
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
    let arrays = FrontierArrays {
        size: next.size(),
        codes: rows
            .into_pyarray(py)
            .reshape([n * next.size(), 5])?
            .unbind(),
        pairs: pairs.into_pyarray(py).reshape([n_pairs, 2])?.unbind(),
        emb_ptr: emb_ptr.into_pyarray(py).unbind(),
        starts: starts.into_pyarray(py).unbind(),
        gids: gids.into_pyarray(py).unbind(),
        gid_ptr: gid_ptr.into_pyarray(py).unbind(),
    };
    let count = level
        .map(|l| LevelCount::new(py, &l.extensions))
        .transpose()?;
    Ok((arrays, positions.into_pyarray(py), count))
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
    m.add_class::<MiningResult>()?;
    m.add_class::<LevelCount>()?;
    m.add_class::<FrontierArrays>()?;
    m.add_function(wrap_pyfunction!(dfs_codes_are_min, m)?)?;
    m.add_function(wrap_pyfunction!(level_extensions, m)?)?;
    m.add_function(wrap_pyfunction!(level_frontier, m)?)?;
    m.add_function(wrap_pyfunction!(mine_subgraphs, m)?)?;
    m.add_function(wrap_pyfunction!(min_dfs_code, m)?)?;
    Ok(())
}
