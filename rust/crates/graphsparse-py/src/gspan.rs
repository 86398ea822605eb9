//! gSpan bindings: frequent-subgraph mining and minimum DFS codes.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use graphsparse::base::RunControl;
use graphsparse::graph::GraphRef;
use graphsparse::gspan::{
    Check, DfsCode, DfsEdge, Embeddings, Extension, Frontier, GspanError, LevelIndex, MinerParams,
    MinerValidParams, MiningStats, Node, Parallel, ParallelVisitor, PatternSet, Visit, Visitor,
    count_extensions, extend_frontier, mine,
};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::convert::{
    Count, Flag, NodeBudget, PyGsErr, Seconds, bad_graph, bad_param, code_array, edge_list,
    extract_params,
};
use crate::graph::Database;
use crate::threads::{Exec, run, threads};

/// Which per-graph occurrence counts a search reports with its patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CountKind {
    /// Embeddings of the DFS code: label-preserving subgraph monomorphisms
    /// ([`Node::embedding_counts`]).
    Embeddings,
    /// Distinct vertex sets the embeddings cover ([`Node::vertex_set_counts`]).
    VertexSets,
}

impl CountKind {
    fn parse(name: Option<&str>) -> PyResult<Option<Self>> {
        match name {
            None => Ok(None),
            Some("embeddings") => Ok(Some(Self::Embeddings)),
            Some("vertex_sets") => Ok(Some(Self::VertexSets)),
            Some(other) => Err(bad_param(format!(
                "counts must be None, \"embeddings\" or \"vertex_sets\", got {other:?}"
            ))),
        }
    }
}

/// Patterns stored flat, ready to become NumPy arrays (no per-pattern allocation); `counts`
/// is empty or parallel to `graph_ids`.
#[derive(Default)]
struct FlatPatterns {
    code_ptr: Vec<i64>,
    codes: Vec<i64>,
    single_label: Vec<i64>,
    gid_ptr: Vec<i64>,
    graph_ids: Vec<i64>,
    counts: Vec<i64>,
}

/// One chunk's share of the concatenated arrays (see [`FlatPatterns::concat`]).
struct Piece<'a> {
    src: &'a FlatPatterns,
    code_ptr: &'a mut [i64],
    codes: &'a mut [i64],
    single_label: &'a mut [i64],
    gid_ptr: &'a mut [i64],
    graph_ids: &'a mut [i64],
    counts: &'a mut [i64],
    row0: i64,
    gid0: i64,
}

/// The first `n` items of `*rest`, leaving the others there.
fn cut<'a>(rest: &mut &'a mut [i64], n: usize) -> &'a mut [i64] {
    let (head, tail) = std::mem::take(rest).split_at_mut(n);
    *rest = tail;
    head
}

impl FlatPatterns {
    fn new() -> Self {
        Self {
            code_ptr: vec![0],
            gid_ptr: vec![0],
            ..Self::default()
        }
    }

    /// Number of patterns.
    fn len(&self) -> usize {
        self.single_label.len()
    }

    fn is_empty(&self) -> bool {
        self.single_label.is_empty()
    }

    /// Appends the pattern of `node`, with its per-graph counts when asked.
    fn push(&mut self, node: &Node<'_>, counts: Option<CountKind>) {
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
        match counts {
            None => {}
            Some(CountKind::Embeddings) => self
                .counts
                .extend(node.embedding_counts().iter().map(|&c| i64::from(c))),
            Some(CountKind::VertexSets) => self
                .counts
                .extend(node.vertex_set_counts().into_iter().map(i64::from)),
        }
    }

    /// Keeps the first `n` patterns.
    fn truncate(&mut self, n: usize) {
        if n >= self.len() {
            return;
        }
        self.single_label.truncate(n);
        self.code_ptr.truncate(n + 1);
        self.codes.truncate(self.code_ptr[n] as usize * 5);
        self.gid_ptr.truncate(n + 1);
        let g = self.gid_ptr[n] as usize;
        self.graph_ids.truncate(g);
        self.counts.truncate(g);
    }

    /// The patterns of `chunks`, in order, as one block: each chunk is copied once, the
    /// chunks in parallel on the current rayon pool.
    fn concat(mut chunks: Vec<Self>) -> Self {
        chunks.retain(|c| !c.is_empty());
        match chunks.len() {
            0 => return Self::new(),
            1 => return chunks.pop().expect("invariant: one chunk"),
            _ => {}
        }
        let total = |f: fn(&Self) -> usize| chunks.iter().map(f).sum::<usize>();
        let n = total(Self::len);
        let mut out = Self {
            code_ptr: vec![0; n + 1],
            codes: vec![0; total(|c| c.codes.len())],
            single_label: vec![0; n],
            gid_ptr: vec![0; n + 1],
            graph_ids: vec![0; total(|c| c.graph_ids.len())],
            counts: vec![0; total(|c| c.counts.len())],
        };
        let mut code_ptr = &mut out.code_ptr[1..];
        let mut codes = &mut out.codes[..];
        let mut single_label = &mut out.single_label[..];
        let mut gid_ptr = &mut out.gid_ptr[1..];
        let mut graph_ids = &mut out.graph_ids[..];
        let mut counts = &mut out.counts[..];
        let (mut row0, mut gid0) = (0i64, 0i64);
        let mut pieces = Vec::with_capacity(chunks.len());
        for c in &chunks {
            pieces.push(Piece {
                src: c,
                code_ptr: cut(&mut code_ptr, c.len()),
                codes: cut(&mut codes, c.codes.len()),
                single_label: cut(&mut single_label, c.len()),
                gid_ptr: cut(&mut gid_ptr, c.len()),
                graph_ids: cut(&mut graph_ids, c.graph_ids.len()),
                counts: cut(&mut counts, c.counts.len()),
                row0,
                gid0,
            });
            row0 += (c.codes.len() / 5) as i64;
            gid0 += c.graph_ids.len() as i64;
        }
        pieces.into_par_iter().for_each(|p| {
            for (o, &x) in p.code_ptr.iter_mut().zip(&p.src.code_ptr[1..]) {
                *o = x + p.row0;
            }
            for (o, &x) in p.gid_ptr.iter_mut().zip(&p.src.gid_ptr[1..]) {
                *o = x + p.gid0;
            }
            p.codes.copy_from_slice(&p.src.codes);
            p.single_label.copy_from_slice(&p.src.single_label);
            p.graph_ids.copy_from_slice(&p.src.graph_ids);
            p.counts.copy_from_slice(&p.src.counts);
        });
        out
    }

    /// The patterns as a [`MiningResult`], with the search's statistics.
    fn into_result(
        self,
        py: Python<'_>,
        counted: bool,
        nodes_visited: u64,
        truncation: Option<&'static str>,
        seconds: f64,
    ) -> PyResult<MiningResult> {
        let n_rows = self.codes.len() / 5;
        let support: Vec<i64> = self.gid_ptr.windows(2).map(|w| w[1] - w[0]).collect();
        Ok(MiningResult {
            code_ptr: self.code_ptr.into_pyarray(py).unbind(),
            codes: self.codes.into_pyarray(py).reshape([n_rows, 5])?.unbind(),
            single_label: self.single_label.into_pyarray(py).unbind(),
            support: support.into_pyarray(py).unbind(),
            gid_ptr: self.gid_ptr.into_pyarray(py).unbind(),
            graph_ids: self.graph_ids.into_pyarray(py).unbind(),
            counts: counted.then(|| self.counts.into_pyarray(py).unbind()),
            nodes_visited,
            truncation,
            seconds,
        })
    }
}

/// The visitor of `mine_subgraphs`: the patterns in pre-order, as a list of chunks that
/// `join` moves (never copies) and [`Collect::finish`] concatenates once.
///
/// Under `max_patterns` it keeps the first patterns of the pre-order (increasing DFS code),
/// whatever the thread count, and prunes nodes that cannot be among them: a fork may keep the
/// budget left when it was made (the patterns before its subtree come first), and it also
/// watches how many patterns the subtrees before its own have kept so far ([`Cap`]), so that a
/// later subtree stops once earlier ones hold the budget. Pruning only nodes with at least
/// `max_patterns` patterns before them keeps every one of the first; `finish` cuts the joined
/// list to the budget.
struct Collect {
    done: Vec<FlatPatterns>,
    cur: FlatPatterns,
    counts: Option<CountKind>,
    /// The most patterns this visitor keeps.
    limit: usize,
    kept: usize,
    /// A node that cannot be among the first `max_patterns` was pruned.
    overflow: bool,
    /// The budget's shared counters (`None` without `max_patterns`).
    cap: Option<Cap>,
}

/// One subtree before a fork's in pre-order, in a list (see [`Cap`]).
struct Earlier {
    /// The patterns its visitor and that visitor's forks have kept so far.
    kept: Arc<AtomicUsize>,
    prev: Option<Arc<Earlier>>,
}

/// How a `max_patterns` budget is shared between the forks of a parallel traversal.
#[derive(Default)]
struct Cap {
    /// The counters of this visitor and of the forks it descends from: each kept pattern adds
    /// one to each, so a counter follows its whole subtree while it runs.
    mine: Vec<Arc<AtomicUsize>>,
    /// The earlier siblings of this visitor and of the forks it descends from: every pattern
    /// they keep comes before this visitor's in pre-order.
    earlier: Option<Arc<Earlier>>,
    /// The list the next fork of the current split starts from (forks are made in child
    /// order, all before the first join).
    tail: std::cell::RefCell<Option<Arc<Earlier>>>,
    /// `pre` calls so far (the earlier subtrees are summed every [`CAP_LOOK`] calls).
    calls: usize,
    /// The earlier subtrees and this one hold the budget: every later node is pruned.
    full: bool,
}

/// `pre` calls between two sums of the earlier subtrees' counters.
const CAP_LOOK: usize = 64;

impl Collect {
    fn new(counts: Option<CountKind>, limit: Option<usize>) -> Self {
        Self {
            done: Vec::new(),
            cur: FlatPatterns::new(),
            counts,
            limit: limit.unwrap_or(usize::MAX),
            kept: 0,
            overflow: false,
            cap: limit.map(|_| Cap::default()),
        }
    }

    /// Whether no later node of this visitor can be among the first `max_patterns`: it has
    /// kept its budget, or (looked at now and then) the earlier subtrees and it have kept it.
    fn beyond_cap(&mut self) -> bool {
        if self.kept >= self.limit {
            return true;
        }
        let Some(cap) = &mut self.cap else {
            return false;
        };
        if !cap.full && cap.calls % CAP_LOOK == 0 {
            let mut before = 0usize;
            let mut link = cap.earlier.as_deref();
            while let Some(l) = link {
                before = before.saturating_add(l.kept.load(Ordering::Relaxed));
                link = l.prev.as_deref();
            }
            cap.full = before.saturating_add(self.kept) >= self.limit;
        }
        cap.calls += 1;
        cap.full
    }

    /// The patterns kept, in pre-order, and whether `max_patterns` cut them.
    fn finish(mut self) -> (FlatPatterns, bool) {
        self.done.push(self.cur);
        let mut overflow = self.overflow;
        let mut left = self.limit;
        let mut chunks = Vec::with_capacity(self.done.len());
        for mut c in self.done {
            if c.len() > left {
                c.truncate(left);
                overflow = true;
            }
            left -= c.len();
            chunks.push(c);
        }
        (FlatPatterns::concat(chunks), overflow)
    }
}

impl Visitor for Collect {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        if self.beyond_cap() {
            self.overflow = true;
            return Visit::Prune;
        }
        if !node.in_pattern_set() {
            return Visit::Continue;
        }
        self.cur.push(node, self.counts);
        self.kept += 1;
        if let Some(cap) = &self.cap {
            for c in &cap.mine {
                c.fetch_add(1, Ordering::Relaxed);
            }
        }
        Visit::Continue
    }
}

impl ParallelVisitor for Collect {
    fn fork(&self) -> Self {
        let mut child = Self::new(self.counts, None);
        child.limit = self.limit.saturating_sub(self.kept);
        if let Some(cap) = &self.cap {
            let own = Arc::new(AtomicUsize::new(0));
            let before = cap.tail.borrow().clone();
            *cap.tail.borrow_mut() = Some(Arc::new(Earlier {
                kept: Arc::clone(&own),
                prev: before.clone(),
            }));
            let mut mine = cap.mine.clone();
            mine.push(own);
            child.cap = Some(Cap {
                mine,
                earlier: before.clone(),
                tail: std::cell::RefCell::new(before),
                ..Cap::default()
            });
        }
        child
    }

    fn join(&mut self, mut child: Self) {
        if !self.cur.is_empty() {
            self.done
                .push(std::mem::replace(&mut self.cur, FlatPatterns::new()));
        }
        self.done.append(&mut child.done);
        self.cur = child.cur;
        self.kept += child.kept;
        self.overflow |= child.overflow;
        if let Some(cap) = &self.cap {
            // the split is over: the next one's forks start after this visitor's earlier list
            *cap.tail.borrow_mut() = cap.earlier.clone();
        }
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
    max_patterns: Option<Count>,
    #[pyo3(default)]
    counts: Option<String>,
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

    /// The checked parameters for `n_threads` workers (checked before the thread count, as
    /// they always were), the counts asked for and the pattern budget.
    fn checked(
        &self,
        py: Python<'_>,
        n_threads: usize,
    ) -> PyResult<(MinerValidParams, Option<CountKind>, Option<usize>, usize)> {
        self.params(Parallel::Serial).map_err(PyGsErr::from)?;
        let counts = CountKind::parse(self.counts.as_deref())?;
        let n_threads = threads(py, n_threads)?;
        let params = self
            .params(Parallel::from(n_threads > 1))
            .map_err(PyGsErr::from)?;
        Ok((
            params,
            counts,
            self.max_patterns.map(Count::usize),
            n_threads,
        ))
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
    /// The occurrence counts asked for, parallel to `graph_ids` (int64), or `None`.
    counts: Option<Py<PyArray1<i64>>>,
    /// Enumeration-tree nodes visited.
    nodes_visited: u64,
    /// Why the search stopped early (`"max_nodes"`, `"time_limit"`, `"max_patterns"`), or
    /// `None`.
    truncation: Option<&'static str>,
    /// Wall time of the search in seconds.
    seconds: f64,
}

/// Why a search stopped: the budget's reason first, else the pattern budget.
fn truncation_of(stats: &MiningStats, overflow: bool) -> Option<&'static str> {
    stats
        .truncation
        .map(|t| t.as_str())
        .or(overflow.then_some("max_patterns"))
}

/// Mines the frequent connected subgraphs of `db`; returns the patterns as flat arrays.
///
/// `params` is a dict with `min_support` (absolute), `max_size`, `single_vertices`,
/// `max_nodes` and `time_limit`, and optionally `pattern_set` (`"all"`, `"closed"` or
/// `"maximal"`), `max_patterns` (keep the first patterns in
/// DFS-code order) and `counts` (`"embeddings"` or `"vertex_sets"`); `progress(nodes,
/// iterations, stage, stages, value, seconds)` is called every 100 ms when given.
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
    let (params, counts, limit, n_threads) = args.checked(py, n_threads)?;
    let db = &db.0;
    let (flat, overflow, stats) = run(py, Exec::Pool(n_threads), progress, |ctl| {
        let mut v = Collect::new(counts, limit);
        let stats = mine(db, &params, &mut v, ctl)?;
        let (flat, overflow) = v.finish();
        Ok::<_, GspanError>((flat, overflow, stats))
    })?
    .map_err(PyGsErr::from)?;
    let truncation = truncation_of(&stats, overflow);
    flat.into_result(
        py,
        counts.is_some(),
        stats.nodes_visited,
        truncation,
        stats.seconds,
    )
}

/// Patterns per message of a stream.
const STREAM_BATCH: usize = 256;
/// Messages a stream's channel holds before the search waits for the consumer.
const STREAM_QUEUE: usize = 4;
/// How often a waiting consumer looks at signals.
const STREAM_POLL: Duration = Duration::from_millis(100);
/// A part-filled batch is sent with the first pattern found this long after the previous
/// batch (slow searches still stream).
const STREAM_LATENCY: Duration = Duration::from_millis(50);

/// The visitor of a stream: sends the patterns through a bounded channel in batches of
/// [`STREAM_BATCH`] (fewer when [`STREAM_LATENCY`] has passed), a fork also when its subtree ends (so
/// that memory is the search frontier plus a few batches per worker and the queue, never the
/// result).
struct Stream {
    tx: SyncSender<FlatPatterns>,
    cur: FlatPatterns,
    counts: Option<CountKind>,
    /// Patterns claimed so far by every visitor of the stream (the `max_patterns` budget).
    claimed: Arc<AtomicUsize>,
    limit: usize,
    overflow: Arc<AtomicBool>,
    /// Open `pre` calls of a fork (`None` for the root visitor, which never flushes early).
    depth: Option<usize>,
    /// When this visitor last sent a batch (or started).
    since: Instant,
}

impl Stream {
    /// Sends the patterns held (a consumer that went away is ignored: the search is cancelled
    /// by then).
    fn flush(&mut self) {
        if !self.cur.is_empty() {
            let batch = std::mem::replace(&mut self.cur, FlatPatterns::new());
            let _ = self.tx.send(batch);
        }
        self.since = Instant::now();
    }
}

impl Visitor for Stream {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        if let Some(d) = &mut self.depth {
            *d += 1;
        }
        if self.limit != usize::MAX && self.claimed.load(Ordering::Relaxed) >= self.limit {
            self.overflow.store(true, Ordering::Relaxed);
            return Visit::Prune;
        }
        if !node.in_pattern_set() {
            return Visit::Continue;
        }
        if self.limit != usize::MAX && self.claimed.fetch_add(1, Ordering::Relaxed) >= self.limit {
            self.overflow.store(true, Ordering::Relaxed);
            return Visit::Prune;
        }
        self.cur.push(node, self.counts);
        if self.cur.len() >= STREAM_BATCH || self.since.elapsed() >= STREAM_LATENCY {
            self.flush();
        }
        Visit::Continue
    }

    fn post(&mut self, _: &Node<'_>) {
        if let Some(d) = &mut self.depth {
            *d -= 1;
            if *d == 0 {
                self.flush();
            }
        }
    }
}

impl ParallelVisitor for Stream {
    fn fork(&self) -> Self {
        Self {
            tx: self.tx.clone(),
            cur: FlatPatterns::new(),
            counts: self.counts,
            claimed: Arc::clone(&self.claimed),
            limit: self.limit,
            overflow: Arc::clone(&self.overflow),
            depth: Some(0),
            since: Instant::now(),
        }
    }

    fn join(&mut self, mut child: Self) {
        child.flush();
    }
}

/// The consumer's side of a stream.
struct StreamState {
    rx: Option<Receiver<FlatPatterns>>,
    worker: Option<JoinHandle<Result<MiningStats, GspanError>>>,
    stats: Option<MiningStats>,
}

/// The patterns of a search running on a background thread, in batches as it finds them
/// (`iter_subgraphs`): iterating yields one [`MiningResult`] per batch (their statistics are
/// empty); once exhausted (or closed), `truncation`, `nodes_visited` and `seconds` describe
/// the search.
#[pyclass(frozen, module = "graphsparse._graphsparse")]
struct PatternStream {
    state: Mutex<StreamState>,
    ctl: Arc<RunControl>,
    overflow: Arc<AtomicBool>,
    counted: bool,
}

impl PatternStream {
    fn lock(&self) -> std::sync::MutexGuard<'_, StreamState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for the search thread (it ends soon once the channel is gone or the search is
    /// cancelled) and keeps its statistics.
    fn join(&self, py: Python<'_>) -> PyResult<()> {
        let out = py.detach(|| {
            let mut st = self.lock();
            st.rx = None;
            st.worker.take().map(JoinHandle::join)
        });
        match out {
            None => Ok(()),
            Some(Ok(Ok(stats))) => {
                self.lock().stats = Some(stats);
                Ok(())
            }
            Some(Ok(Err(e))) => Err(PyGsErr::from(e).into()),
            Some(Err(_)) => Err(PyRuntimeError::new_err(
                "internal error: the search thread of a pattern stream panicked",
            )),
        }
    }

    fn stats(&self) -> Option<MiningStats> {
        self.lock().stats
    }
}

impl Drop for PatternStream {
    fn drop(&mut self) {
        self.ctl.cancel();
        let st = self.state.get_mut().unwrap_or_else(|p| p.into_inner());
        st.rx = None;
        if let Some(w) = st.worker.take() {
            let _ = w.join();
        }
    }
}

#[pymethods]
impl PatternStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next batch of patterns; waits with the GIL released, looking for Ctrl-C every
    /// 100 ms (then the search is cancelled and joined, and `KeyboardInterrupt` raised).
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<MiningResult>> {
        loop {
            let got = py.detach(|| match &self.lock().rx {
                Some(rx) => rx.recv_timeout(STREAM_POLL),
                None => Err(RecvTimeoutError::Disconnected),
            });
            match got {
                Ok(batch) => {
                    return batch.into_result(py, self.counted, 0, None, 0.0).map(Some);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.join(py)?;
                    return Ok(None);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(err) = py.check_signals() {
                        self.close(py)?;
                        return Err(err);
                    }
                }
            }
        }
    }

    /// Stops the search (when still running) and waits for its thread; idempotent.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.ctl.cancel();
        self.join(py)
    }

    /// True once the search thread has ended and been joined.
    #[getter]
    fn finished(&self) -> bool {
        self.stats().is_some()
    }

    /// Why the search stopped early (`"max_nodes"`, `"time_limit"`, `"max_patterns"`,
    /// `"cancelled"`), or `None`; `None` also while it runs.
    #[getter]
    fn truncation(&self) -> Option<&'static str> {
        self.stats()
            .and_then(|s| truncation_of(&s, self.overflow.load(Ordering::SeqCst)))
    }

    /// Enumeration-tree nodes visited (0 while the search runs).
    #[getter]
    fn nodes_visited(&self) -> u64 {
        self.stats().map_or(0, |s| s.nodes_visited)
    }

    /// Wall time of the search in seconds (0 while it runs).
    #[getter]
    fn seconds(&self) -> f64 {
        self.stats().map_or(0.0, |s| s.seconds)
    }
}

/// Starts mining `db` on a background thread (on a pool of `n_threads` workers of its own,
/// ended with the search) and returns
/// the stream of its patterns; `params` as for [`mine_subgraphs`]. Under `max_patterns` the
/// stream stops after that many patterns, the first ones found (which ones may depend on the
/// thread count).
#[pyfunction]
#[pyo3(signature = (db, params, n_threads = 1))]
fn iter_subgraphs(
    py: Python<'_>,
    db: &Database,
    params: &Bound<'_, PyAny>,
    n_threads: usize,
) -> PyResult<PatternStream> {
    let args = extract_params::<MinerArgs>(params)?;
    let (params, counts, limit, n_threads) = args.checked(py, n_threads)?;
    // its own pool: the cached ones serve the calls the consumer makes between two patterns,
    // which would wait forever for workers blocked on a full channel
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n_threads)
        .thread_name(|i| format!("graphsparse-stream-{i}"))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search pool: {e}")))?;
    let db = Arc::clone(&db.0);
    let ctl = Arc::new(RunControl::new());
    let overflow = Arc::new(AtomicBool::new(false));
    let (tx, rx) = sync_channel(STREAM_QUEUE);
    let mut root = Stream {
        tx,
        cur: FlatPatterns::new(),
        counts,
        claimed: Arc::new(AtomicUsize::new(0)),
        limit: limit.unwrap_or(usize::MAX),
        overflow: Arc::clone(&overflow),
        depth: None,
        since: Instant::now(),
    };
    let worker_ctl = Arc::clone(&ctl);
    let worker = std::thread::Builder::new()
        .name("graphsparse-stream".into())
        .spawn(move || {
            pool.install(|| {
                let stats = mine(&db, &params, &mut root, &worker_ctl)?;
                root.flush();
                Ok(stats)
            })
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
    Ok(PatternStream {
        state: Mutex::new(StreamState {
            rx: Some(rx),
            worker: Some(worker),
            stats: None,
        }),
        ctl,
        overflow,
        counted: counts.is_some(),
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

/// The minimum DFS code of one connected labelled graph, as int64 rows `(i, j, l_i, l_ij, l_j)`;
/// with `directed`, edges are arcs and `l_ij` is the arc label `2 * label + (1 if j -> i)`.
#[pyfunction]
#[pyo3(signature = (node_labels, edges, edge_labels, directed = false))]
fn min_dfs_code<'py>(
    py: Python<'py>,
    node_labels: PyReadonlyArray1<'py, i64>,
    edges: PyReadonlyArray2<'py, i64>,
    edge_labels: PyReadonlyArray1<'py, i64>,
    directed: bool,
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
        .detach(|| {
            if directed {
                graphsparse::gspan::min_dfs_code_directed(graph)
            } else {
                graphsparse::gspan::min_dfs_code(graph)
            }
        })
        .map_err(PyGsErr::from)?;
    code_array(py, &code)
}

/// Stacked DFS codes `(rows, 5)` and, per code, the index of the pattern it came from.
type CodesAndOwners<'py> = (
    Bound<'py, numpy::PyArray2<i64>>,
    Bound<'py, numpy::PyArray1<i64>>,
);

/// The minimum DFS codes of every one-edge-smaller connected subgraph of each (undirected)
/// pattern: `codes` `(edges, 5)` with pattern `k` in rows `ptr[k]..ptr[k + 1]`; returns the
/// codes stacked `(rows, 5)` and the pattern each came from (a code of pattern `k` has one
/// edge fewer than it), the patterns spread over `n_threads` workers.
#[pyfunction]
#[pyo3(signature = (codes, ptr, n_threads = 1))]
fn one_edge_smaller_codes<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray2<'py, i64>,
    ptr: PyReadonlyArray1<'py, i64>,
    n_threads: usize,
) -> PyResult<CodesAndOwners<'py>> {
    let (rows, ptr) = (codes.as_slice()?, ptr.as_slice()?);
    let edges = edges_of(rows, "codes")?;
    if ptr.is_empty() || usize::try_from(ptr[ptr.len() - 1]).ok() != Some(edges.len()) {
        return Err(bad_param("ptr must end at the number of code rows"));
    }
    let patterns = (0..ptr.len() - 1)
        .map(|k| {
            let r = span(ptr, k, "ptr")?;
            DfsCode::from_edges(edges[r].to_vec()).map_err(|e| PyGsErr::from(e).into())
        })
        .collect::<PyResult<Vec<_>>>()?;
    let pool = crate::threads::pool(threads(py, n_threads)?)?;
    // each pattern's codes are computed on their own, so the result is the same on any pool
    let subs = py
        .detach(|| {
            pool.install(|| {
                patterns
                    .par_iter()
                    .map(graphsparse::gspan::one_edge_smaller)
                    .collect::<Result<Vec<_>, _>>()
            })
        })
        .map_err(PyGsErr::from)?;
    let mut out = Vec::new();
    let mut owner = Vec::new();
    for (k, codes) in subs.iter().enumerate() {
        for code in codes {
            owner.push(k as i64);
            out.extend(code.edges().iter().flat_map(|e| {
                [e.from, e.to, e.from_label, e.edge_label, e.to_label].map(i64::from)
            }));
        }
    }
    let n = out.len() / 5;
    Ok((
        out.into_pyarray(py).reshape([n, 5])?,
        owner.into_pyarray(py),
    ))
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
/// is the minimum DFS code of its graph (of its directed graph, edge labels being arc labels,
/// with `directed`).
#[pyfunction]
#[pyo3(signature = (codes, size, directed = false))]
fn dfs_codes_are_min<'py>(
    py: Python<'py>,
    codes: PyReadonlyArray2<'py, i64>,
    size: usize,
    directed: bool,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let codes = codes_of(codes.as_slice()?, size, "codes")?;
    let test = if directed {
        DfsCode::is_min_directed
    } else {
        DfsCode::is_min
    };
    let mins: Vec<bool> = py.detach(|| codes.iter().map(test).collect());
    Ok(mins.into_pyarray(py))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MiningResult>()?;
    m.add_class::<PatternStream>()?;
    m.add_class::<LevelCount>()?;
    m.add_class::<FrontierArrays>()?;
    m.add_function(wrap_pyfunction!(dfs_codes_are_min, m)?)?;
    m.add_function(wrap_pyfunction!(level_extensions, m)?)?;
    m.add_function(wrap_pyfunction!(level_frontier, m)?)?;
    m.add_function(wrap_pyfunction!(mine_subgraphs, m)?)?;
    m.add_function(wrap_pyfunction!(iter_subgraphs, m)?)?;
    m.add_function(wrap_pyfunction!(min_dfs_code, m)?)?;
    m.add_function(wrap_pyfunction!(one_edge_smaller_codes, m)?)?;
    Ok(())
}
