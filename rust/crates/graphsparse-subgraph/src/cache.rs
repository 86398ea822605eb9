//! The visited part of the gSpan tree kept between BCGD iterations (beyond the paper).
//!
//! Every node the search has evaluated is stored with its DFS code and graph ids; a node whose
//! children were generated stores their indices (in DFS order), a node that was pruned is a
//! *frontier* node (`children == None`). A search first walks the cached tree, evaluating
//! nodes without any embedding work (in parallel on the caller's pool when asked, forking the
//! search at the shallow nodes and joining in child order, so the result is the serial one).
//! The frontier nodes it wants to enter are then expanded in code order, by one traversal per
//! group of consecutive targets that follows only the paths to them (path nodes are embedded
//! but not evaluated again), in parallel when asked. A group starts below the deepest ancestor
//! whose embeddings the [`FrontierStore`] still holds ([`graphsparse_gspan::mine_below`]), so
//! nothing above it is re-embedded, or at the root. Everything found below the targets joins
//! the cache, and the embeddings of the nodes expanded join the store.
//!
//! The store keeps the embeddings of the *ancestors* of expanded frontier nodes (the path nodes
//! a traversal re-embeds), not of the frontier itself: on Mutagenicity about 98% of the cached
//! nodes are frontier nodes (avg. 17 KB of embeddings each, gigabytes in all), so a byte-bounded
//! store of frontier embeddings is flushed by every search and copying them costs more than it
//! saves; copying the embeddings of every expanded node when it is created costs ~10% more
//! than re-embedding. Nodes that have served as a path once are the ones the next expansions
//! start below.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use graphsparse_base::Check;
use graphsparse_base::{Meter, Truncation};
use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::{
    DfsCode, DfsEdge, Embeddings, MinerValidParams, MiningIndex, Node, ParallelVisitor, Visit,
    Visitor, mine_below, mine_with_meter,
};
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;

use crate::error::Result;

/// Default byte budget for the stored embeddings of expanded nodes (256 MiB; see
/// [`crate::BcgdParams::cache_bytes`], [`crate::StumpParams::cache_bytes`]).
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;

type Key = Box<[DfsEdge]>;

/// Least embeddings below a node for a parallel frontier expansion to fork there (small in
/// the unit tests, so that their small databases fork).
#[cfg(not(test))]
const EXPAND_SPLIT_EMBEDDINGS: usize = 64_000;
#[cfg(test)]
const EXPAND_SPLIT_EMBEDDINGS: usize = 8;

/// The embeddings of expanded nodes of the cached tree, least recently used evicted first,
/// within a byte budget.
pub(crate) struct FrontierStore {
    budget: usize,
    bytes: usize,
    tick: u64,
    map: HashMap<Key, (Embeddings, u64, usize), FxBuildHasher>,
    order: BTreeMap<u64, Key>,
    evicted: u64,
}

impl FrontierStore {
    pub(crate) fn new(budget: usize) -> Self {
        Self {
            budget,
            bytes: 0,
            tick: 0,
            map: HashMap::default(),
            order: BTreeMap::new(),
            evicted: 0,
        }
    }

    /// Bytes charged for storing `emb`: its buffers, the key in both maps and the map slots.
    fn entry_bytes(emb: &Embeddings) -> usize {
        let key = std::mem::size_of::<Key>() + emb.code().len() * std::mem::size_of::<DfsEdge>();
        // a hash slot (key + value + control byte) and a B-tree slot (tick + key, node overhead)
        let slots = std::mem::size_of::<(Key, (Embeddings, u64, usize))>()
            + 1
            + 2 * (8 + std::mem::size_of::<Key>());
        emb.bytes() + 2 * key + slots
    }

    /// True when `n_embs` embeddings could not fit in the budget (checked before copying).
    fn too_big(&self, n_embs: usize) -> bool {
        n_embs.saturating_mul(8) > self.budget
    }

    /// Stores `emb` as the most recently used entry, evicting the least recently used ones
    /// beyond the budget; an entry larger than the whole budget is not stored.
    fn insert(&mut self, emb: Embeddings) {
        let b = Self::entry_bytes(&emb);
        if b > self.budget {
            return;
        }
        self.tick += 1;
        let key: Key = emb.code().edges().into();
        if let Some((_, t, old)) = self.map.insert(key.clone(), (emb, self.tick, b)) {
            self.order.remove(&t);
            self.bytes -= old;
        }
        self.order.insert(self.tick, key);
        self.bytes += b;
        while self.bytes > self.budget {
            let (_, key) = self
                .order
                .pop_first()
                .expect("invariant: bytes > 0 means entries");
            let (_, _, old) = self
                .map
                .remove(&key)
                .expect("invariant: order and map hold the same codes");
            self.bytes -= old;
            self.evicted += 1;
        }
    }

    fn contains(&self, code: &[DfsEdge]) -> bool {
        self.map.contains_key(code)
    }

    /// Removes and returns the entry of `code` (put it back with `insert` to mark it used).
    fn take(&mut self, code: &[DfsEdge]) -> Option<Embeddings> {
        let (emb, t, b) = self.map.remove(code)?;
        self.order.remove(&t);
        self.bytes -= b;
        Some(emb)
    }

    /// Length of the longest proper prefix of `code` that is stored (0: none).
    fn deepest_stored_ancestor(&self, code: &[DfsEdge]) -> usize {
        (1..code.len())
            .rev()
            .find(|&k| self.contains(&code[..k]))
            .unwrap_or(0)
    }

    /// Stores the embeddings of `node` if the budget can hold them and they are not stored.
    fn keep(store: Option<&Mutex<FrontierStore>>, node: &Node<'_>) {
        let Some(store) = store else { return };
        let n: usize = node.embedding_counts().iter().map(|&c| c as usize).sum();
        {
            let st = store.lock().unwrap_or_else(|p| p.into_inner());
            if st.too_big(n) || st.contains(node.code().edges()) {
                return;
            }
        }
        if let Some(e) = node.embeddings() {
            store.lock().unwrap_or_else(|p| p.into_inner()).insert(e);
        }
    }
}

/// A search that can run over the cached tree: dictionary-passing hooks plus node evaluation.
pub(crate) trait CachedSearch {
    /// Entering a node (before `evaluate`), also for path nodes that are not evaluated.
    fn enter(&mut self, code: &DfsCode);
    /// Evaluates a node; `Prune` skips its subtree.
    fn evaluate(&mut self, code: &DfsCode, ids: &[u32]) -> Visit;
    /// Leaving a node entered with `enter`.
    fn leave(&mut self);
}

struct CNode {
    code: DfsCode,
    ids: Vec<u32>,
    children: Option<Vec<u32>>,
}

/// The cached tree; index 0 is the (empty) root.
pub(crate) struct TreeCache {
    nodes: Vec<CNode>,
    max_size: Option<usize>,
    /// Embeddings of frontier nodes (`None` with a zero budget).
    store: Option<Mutex<FrontierStore>>,
    /// The database prepared for resumed traversals (made at the first resume).
    index: Option<MiningIndex>,
    /// Frontier nodes expanded below a stored ancestor / by re-embedding from the root.
    resumed: u64,
    reembedded: u64,
}

/// What the store of embeddings of a cached search (the frontier's ancestors) holds and has
/// done ([`crate::StumpSearcher::frontier_stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct FrontierStats {
    /// Expanded nodes whose embeddings are stored.
    pub entries: usize,
    /// Bytes charged for them (their buffers, keys and map slots); never above `budget`.
    pub bytes: usize,
    /// The byte budget (0: nothing is stored).
    pub budget: usize,
    /// Entries evicted to stay within the budget.
    pub evicted: u64,
    /// Frontier nodes expanded below a stored ancestor (from its embeddings).
    pub resumed: u64,
    /// Frontier nodes expanded by re-embedding the path to them from the root.
    pub reembedded: u64,
}

impl TreeCache {
    /// An empty cache; `cache_bytes` bounds the stored embeddings (0: none stored).
    pub(crate) fn new(max_size: Option<usize>, cache_bytes: usize) -> Self {
        Self {
            nodes: vec![CNode {
                code: DfsCode::new(),
                ids: Vec::new(),
                children: None,
            }],
            max_size,
            store: (cache_bytes > 0).then(|| Mutex::new(FrontierStore::new(cache_bytes))),
            index: None,
            resumed: 0,
            reembedded: 0,
        }
    }

    /// The frontier store's state.
    pub(crate) fn frontier_stats(&self) -> FrontierStats {
        let mut s = FrontierStats {
            resumed: self.resumed,
            reembedded: self.reembedded,
            ..FrontierStats::default()
        };
        if let Some(st) = &self.store {
            let st = st.lock().unwrap_or_else(|p| p.into_inner());
            s.entries = st.map.len();
            s.bytes = st.bytes;
            s.budget = st.budget;
            s.evicted = st.evicted;
        }
        s
    }

    /// Nodes held, the root included.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True before the first search has filled the cache.
    pub(crate) fn is_unbuilt(&self) -> bool {
        self.nodes[0].children.is_none()
    }
}

/// Evaluates the cached child `c` and walks below it when the search continues there and it
/// is expanded (a frontier node it continues at goes to `need`).
fn visit<S: CachedSearch + ParallelVisitor>(
    cache: &TreeCache,
    c: u32,
    depth: usize,
    search: &mut S,
    need: &mut Need,
    w: &WalkCtx<'_, '_>,
) -> Option<Truncation> {
    if !w.meter.claim_node() {
        return w.meter.truncation();
    }
    let node = &cache.nodes[c as usize];
    search.enter(&node.code);
    let mut out = None;
    if search.evaluate(&node.code, &node.ids) == Visit::Continue {
        if node.children.is_some() {
            out = walk(cache, c, depth + 1, search, need, w);
        } else {
            need.push((node.code.clone(), c));
        }
    }
    search.leave();
    out
}

/// Frontier nodes a walk wants to enter, `(code, cache index)`.
type Need = Vec<(DfsCode, u32)>;

struct WalkCtx<'m, 'a> {
    meter: &'m Meter<'a>,
    /// Fork the search at expanded nodes shallower than this (0: serial walk).
    split_depth: usize,
}

/// Walks the children of the expanded node `idx` (at code length `depth`); in parallel when
/// `depth < split_depth` and it has two or more children: one fork of `search` per child,
/// joined in child order, their frontier lists concatenated in the same order.
fn walk<S: CachedSearch + ParallelVisitor>(
    cache: &TreeCache,
    idx: u32,
    depth: usize,
    search: &mut S,
    need: &mut Need,
    w: &WalkCtx<'_, '_>,
) -> Option<Truncation> {
    let children = cache.nodes[idx as usize]
        .children
        .as_ref()
        .expect("invariant: walk enters expanded nodes only");
    if depth < w.split_depth && children.len() >= 2 {
        let forks: Vec<S> = children.iter().map(|_| search.fork()).collect();
        let done: Vec<(S, Need, Option<Truncation>)> = children
            .par_iter()
            .zip(forks)
            .map(|(&c, mut f)| {
                let mut nd = Vec::new();
                let t = visit(cache, c, depth, &mut f, &mut nd, w);
                (f, nd, t)
            })
            .collect();
        let mut out = None;
        for (f, nd, t) in done {
            search.join(f);
            need.extend(nd);
            out = out.or(t);
        }
        return out;
    }
    for &c in children {
        if let Some(t) = visit(cache, c, depth, search, need, w) {
            return Some(t);
        }
    }
    None
}

/// Where the traversal of an [`Expand`] is, for the node on top of its stack.
#[derive(Clone, Copy)]
enum At {
    /// Pruned: not a target's ancestor.
    Skip,
    /// Above the targets (their ancestor, re-embedded but not evaluated).
    Path,
    /// A cached node being expanded: a target (or the root of an empty cache).
    Cache(u32),
    /// A new node (local index) and whether the search continues below it.
    New(u32, bool),
    /// In a forked visitor: below the node its parent visitor split at.
    Fork,
}

/// Expands cached frontier nodes (`targets`, sorted by code): the traversal runs from the root,
/// or below a stored node, down the paths to them, and everything below them is evaluated and
/// collected as new nodes (local indices), hung under the targets when the expansion is merged
/// into the cache. The embeddings of the path nodes (the targets' ancestors) join the store. As a [`ParallelVisitor`], every fork collects its own nodes and
/// joins (in child order) append them, so the merged tree is the serial one.
struct Expand<'a, S> {
    search: S,
    targets: &'a [(DfsCode, u32)],
    max_size: Option<usize>,
    store: Option<&'a Mutex<FrontierStore>>,
    nodes: Vec<CNode>,
    /// New nodes hung under a cached node (`None`: under the node this fork started below).
    hang: Vec<(Option<u32>, u32)>,
    /// Targets entered (now expanded).
    entered: Vec<u32>,
    frames: Vec<At>,
    /// The state where this visitor starts.
    outer: At,
}

impl<'a, S> Expand<'a, S> {
    fn new(search: S, targets: &'a [(DfsCode, u32)], cache: &'a TreeCache, outer: At) -> Self {
        Self {
            search,
            targets,
            max_size: cache.max_size,
            store: cache.store.as_ref(),
            nodes: Vec::new(),
            hang: Vec::new(),
            entered: Vec::new(),
            frames: Vec::new(),
            outer,
        }
    }

    fn top(&self) -> At {
        self.frames.last().copied().unwrap_or(self.outer)
    }
}

/// Appends `nodes` (indexed among themselves) to `to`, renumbering their children; returns
/// the offset added.
fn append_renumbered(to: &mut Vec<CNode>, nodes: Vec<CNode>) -> u32 {
    let off = to.len() as u32;
    to.extend(nodes.into_iter().map(|mut n| {
        if let Some(ch) = n.children.as_mut() {
            ch.iter_mut().for_each(|c| *c += off);
        }
        n
    }));
    off
}

/// The parts of a finished [`Expand`] that go into the cache.
struct Expansion {
    nodes: Vec<CNode>,
    hang: Vec<(Option<u32>, u32)>,
    entered: Vec<u32>,
}

impl Expansion {
    fn merge_into(self, cache: &mut TreeCache) {
        for &i in &self.entered {
            cache.nodes[i as usize].children = Some(Vec::new());
        }
        let off = append_renumbered(&mut cache.nodes, self.nodes);
        for (p, c) in self.hang {
            let p = p.expect("invariant: only forks hang nodes under their fork point");
            cache.nodes[p as usize]
                .children
                .get_or_insert_with(Vec::new)
                .push(c + off);
        }
    }
}

impl<S: CachedSearch> Visitor for Expand<'_, S> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        let code = node.code();
        let at_max = self.max_size.is_some_and(|m| code.len() >= m);
        let top = self.top();
        if let At::Cache(_) | At::New(..) | At::Fork = top {
            self.search.enter(code);
            let v = self.search.evaluate(code, node.graph_ids());
            let idx = self.nodes.len() as u32;
            self.nodes.push(CNode {
                code: code.clone(),
                ids: node.graph_ids().to_vec(),
                children: at_max.then(Vec::new),
            });
            match top {
                At::New(p, _) => self.nodes[p as usize]
                    .children
                    .get_or_insert_with(Vec::new)
                    .push(idx),
                At::Cache(i) => self.hang.push((Some(i), idx)),
                _ => self.hang.push((None, idx)),
            }
            self.frames.push(At::New(idx, v == Visit::Continue));
            return v;
        }
        if let Ok(k) = self.targets.binary_search_by(|(c, _)| c.cmp(code)) {
            let idx = self.targets[k].1;
            self.entered.push(idx);
            self.search.enter(code);
            self.frames.push(At::Cache(idx));
            return Visit::Continue;
        }
        // Codes order lexicographically with a prefix before its extensions, so the sorted
        // targets extending `code` (if any) start at the first target after it.
        let n = code.len();
        let k = self.targets.partition_point(|(t, _)| t < code);
        if self
            .targets
            .get(k)
            .is_some_and(|(t, _)| t.len() > n && t.edges()[..n] == *code.edges())
        {
            FrontierStore::keep(self.store, node);
            self.search.enter(code);
            self.frames.push(At::Path);
            Visit::Continue
        } else {
            self.frames.push(At::Skip);
            Visit::Prune
        }
    }

    fn post(&mut self, _node: &Node<'_>) {
        match self.frames.pop() {
            Some(At::Skip) | None => {}
            Some(At::New(idx, continued)) => {
                if continued {
                    self.nodes[idx as usize]
                        .children
                        .get_or_insert_with(Vec::new);
                }
                self.search.leave();
            }
            Some(_) => self.search.leave(),
        }
    }
}

impl<S: CachedSearch + ParallelVisitor> ParallelVisitor for Expand<'_, S> {
    fn fork(&self) -> Self {
        let outer = match self.top() {
            At::New(..) => At::Fork,
            other => other,
        };
        Expand {
            search: self.search.fork(),
            targets: self.targets,
            max_size: self.max_size,
            store: self.store,
            nodes: Vec::new(),
            hang: Vec::new(),
            entered: Vec::new(),
            frames: Vec::new(),
            outer,
        }
    }

    fn join(&mut self, child: Self) {
        let off = append_renumbered(&mut self.nodes, child.nodes);
        let top = self.top();
        for (p, c) in child.hang {
            match (p, top) {
                (Some(i), _) => self.hang.push((Some(i), c + off)),
                (None, At::New(j, _)) => self.nodes[j as usize]
                    .children
                    .get_or_insert_with(Vec::new)
                    .push(c + off),
                (None, _) => self.hang.push((None, c + off)),
            }
        }
        self.entered.extend(child.entered);
        self.search.join(child.search);
    }
}

/// What every traversal of one cached search shares: the database, the miner (whose
/// [`Parallel`](graphsparse_base::Parallel) policy says whether the search may run on the
/// current rayon pool) and the budget every node is claimed from.
#[derive(Clone, Copy)]
pub(crate) struct Traversal<'a, 'm> {
    db: &'a GraphDatabase,
    miner: &'a MinerValidParams,
    meter: &'a Meter<'m>,
    /// The walk of the cached tree may fork (else only the expansions run in parallel).
    parallel_walk: bool,
}

impl<'a, 'm> Traversal<'a, 'm> {
    pub(crate) fn new(
        db: &'a GraphDatabase,
        miner: &'a MinerValidParams,
        meter: &'a Meter<'m>,
    ) -> Self {
        Self {
            db,
            miner,
            meter,
            parallel_walk: true,
        }
    }

    /// The same traversal with a serial walk of the cached tree: only the first search and the
    /// frontier expansions run in parallel (when the miner's policy says so).
    pub(crate) fn serial_walk(self) -> Self {
        Self {
            parallel_walk: false,
            ..self
        }
    }

    fn parallel(&self) -> bool {
        self.miner.parallel().enabled()
    }
}

/// One search through the cache, every node it evaluates or expands claimed from `meter`;
/// returns why it stopped early, if it did. In parallel, the first search (which fills the
/// cache), the walk and the expansions run on the current rayon pool; the search (fork/join in
/// DFS order) gives the serial result. The frontier nodes the search enters are expanded in
/// code order, each group of consecutive ones below the same stored node from its embeddings,
/// the others by re-embedding from the root.
pub(crate) fn search_cached<S: CachedSearch + ParallelVisitor>(
    cache: &mut TreeCache,
    tr: &Traversal<'_, '_>,
    search: &mut S,
) -> Result<Option<Truncation>> {
    if cache.is_unbuilt() {
        cache.nodes[0].children = Some(Vec::new());
        return expand(cache, tr, search, None, &[], At::Cache(0));
    }
    let mut need = Vec::new();
    let w = WalkCtx {
        meter: tr.meter,
        split_depth: if tr.parallel() && tr.parallel_walk {
            tr.miner.split_depth()
        } else {
            0
        },
    };
    if let Some(t) = walk(cache, 0, 0, search, &mut need, &w) {
        return Ok(Some(t));
    }
    need.sort_by(|a, b| a.0.cmp(&b.0));
    // consecutive targets with the same deepest stored ancestor (prefix length; 0: the root)
    let mut group: Vec<(DfsCode, u32)> = Vec::new();
    let mut at = 0;
    for (code, idx) in need {
        let k = cache.store.as_ref().map_or(0, |st| {
            st.lock()
                .unwrap_or_else(|p| p.into_inner())
                .deepest_stored_ancestor(code.edges())
        });
        let same = group
            .last()
            .is_some_and(|(g, _)| k == at && g.edges()[..k] == code.edges()[..k]);
        if !same && !group.is_empty() {
            let targets = std::mem::take(&mut group);
            if let Some(t) = expand_group(cache, tr, search, at, &targets)? {
                return Ok(Some(t));
            }
        }
        at = k;
        group.push((code, idx));
    }
    if group.is_empty() {
        return Ok(None);
    }
    expand_group(cache, tr, search, at, &group)
}

/// Expands `targets` (sorted, all extending the stored node of code `targets[0].0[..at]`, or
/// the root when `at == 0`) with one traversal from that node.
fn expand_group<S: CachedSearch + ParallelVisitor>(
    cache: &mut TreeCache,
    tr: &Traversal<'_, '_>,
    search: &mut S,
    at: usize,
    targets: &[(DfsCode, u32)],
) -> Result<Option<Truncation>> {
    let n_targets = targets.len() as u64;
    let from = match (at, cache.store.as_mut()) {
        (0, _) | (_, None) => None,
        (_, Some(st)) => st
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take(&targets[0].0.edges()[..at]),
    };
    let Some(emb) = from else {
        cache.reembedded += n_targets;
        return expand(cache, tr, search, None, targets, At::Path);
    };
    cache.resumed += n_targets;
    if cache.index.is_none() {
        cache.index = Some(MiningIndex::new(tr.db, tr.miner)?);
    }
    // the search enters the stored node's path, as the traversal from the root would
    let edges = emb.code().edges();
    for k in 1..=edges.len() {
        let prefix =
            DfsCode::from_edges(edges[..k].to_vec()).expect("invariant: prefixes of a DFS code");
        search.enter(&prefix);
    }
    let out = expand(cache, tr, search, Some(&emb), targets, At::Path);
    for _ in edges {
        search.leave();
    }
    if let Some(st) = cache.store.as_mut() {
        // used: it becomes the most recent entry
        st.get_mut().unwrap_or_else(|p| p.into_inner()).insert(emb);
    }
    out
}

/// Expands `targets` from the root (or below `from`) with an [`Expand`] starting at `outer`,
/// serially or in parallel, joins its search into `search` and merges what it found into the
/// cache (also after a truncation, as far as it got).
fn expand<S: CachedSearch + ParallelVisitor>(
    cache: &mut TreeCache,
    tr: &Traversal<'_, '_>,
    search: &mut S,
    from: Option<&Embeddings>,
    targets: &[(DfsCode, u32)],
    outer: At,
) -> Result<Option<Truncation>> {
    let Traversal {
        db, miner, meter, ..
    } = *tr;
    let parallel = tr.parallel();
    // below the first search, fork only where a subtree is large: a fork and its join cost the
    // search a merge of what the fork saw, which small subtrees do not repay
    let coarse;
    let miner = if parallel && !matches!(outer, At::Cache(0)) {
        coarse = miner
            .clone()
            .into_params()
            .split_embeddings(miner.split_embeddings().max(EXPAND_SPLIT_EMBEDDINGS))
            .check()?;
        &coarse
    } else {
        miner
    };
    let (stats, found) = {
        let mut ex = Expand::new(search.fork(), targets, cache, outer);
        let stats = match from {
            None => mine_with_meter(db, miner, &mut ex, meter),
            Some(e) => {
                let index = cache
                    .index
                    .as_ref()
                    .expect("invariant: made before resuming");
                mine_below(index, miner, e, &mut ex, meter)
            }
        };
        let Expand {
            search: fork,
            nodes,
            hang,
            entered,
            ..
        } = ex;
        search.join(fork);
        (
            stats,
            Expansion {
                nodes,
                hang,
                entered,
            },
        )
    };
    found.merge_into(cache);
    Ok(stats?.truncation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphsparse_base::RunControl;
    use graphsparse_graph::parse_gspan;
    use graphsparse_gspan::{MinerParams, mine};

    /// The embeddings of every node of a small tree, in pre-order.
    fn all_embeddings() -> Vec<Embeddings> {
        struct All(Vec<Embeddings>);
        impl Visitor for All {
            fn pre(&mut self, node: &Node<'_>) -> Visit {
                self.0.extend(node.embeddings());
                Visit::Continue
            }
        }
        impl ParallelVisitor for All {
            fn fork(&self) -> Self {
                All(Vec::new())
            }
            fn join(&mut self, child: Self) {
                self.0.extend(child.0);
            }
        }
        let text = "t # 0\nv 0 0\nv 1 1\nv 2 0\nv 3 1\ne 0 1 0\ne 1 2 0\ne 2 3 1\ne 3 0 0\n\
                    t # 1\nv 0 0\nv 1 1\nv 2 0\ne 0 1 0\ne 1 2 1\n\
                    t # 2\nv 0 1\nv 1 1\nv 2 0\ne 0 1 0\ne 1 2 0\ne 2 0 0\n";
        let db = parse_gspan(text, "<test>").unwrap().db;
        let params = MinerParams::new().check().unwrap();
        let mut v = All(Vec::new());
        mine(&db, &params, &mut v, &RunControl::new()).unwrap();
        v.0
    }

    fn charged(st: &FrontierStore) -> usize {
        st.map.values().map(|(_, _, b)| *b).sum()
    }

    #[test]
    fn the_store_charges_every_entry_and_stays_within_its_budget() {
        let embs = all_embeddings();
        assert!(embs.len() > 10, "{}", embs.len());
        let sizes: Vec<usize> = embs.iter().map(FrontierStore::entry_bytes).collect();
        // the charge covers at least the embeddings, graph ids and the two keys
        for (e, &b) in embs.iter().zip(&sizes) {
            assert!(b >= e.bytes() + 2 * std::mem::size_of::<DfsCode>());
        }
        let total: usize = sizes.iter().sum();
        for budget in [1, sizes[0] - 1, sizes[0], total / 3, total / 2, total] {
            let mut st = FrontierStore::new(budget);
            let mut accepted = Vec::new();
            for (k, e) in embs.iter().enumerate() {
                st.insert(e.clone());
                if sizes[k] <= budget {
                    accepted.push(k);
                }
                assert!(st.bytes <= budget);
                assert_eq!(st.bytes, charged(&st));
                assert_eq!(st.map.len(), st.order.len());
            }
            // least recently stored go first: what is left is the newest accepted entries
            let kept: Vec<usize> = accepted
                .iter()
                .copied()
                .filter(|&k| st.contains(embs[k].code().edges()))
                .collect();
            assert_eq!(kept, accepted[accepted.len() - kept.len()..]);
            assert_eq!(st.evicted as usize, accepted.len() - kept.len());
            if budget >= total {
                assert_eq!((kept.len(), st.evicted), (embs.len(), 0));
            } else if accepted.iter().map(|&k| sizes[k]).sum::<usize>() > budget {
                assert!(st.evicted > 0, "budget {budget}");
            }
            // taking an entry returns it and releases exactly its charge
            for &k in &kept {
                let before = st.bytes;
                assert_eq!(st.take(embs[k].code().edges()).as_ref(), Some(&embs[k]));
                assert_eq!(before - st.bytes, sizes[k]);
                assert!(st.take(embs[k].code().edges()).is_none());
            }
            assert_eq!((st.bytes, st.map.len(), st.order.len()), (0, 0, 0));
        }
    }

    #[test]
    fn a_zero_budget_stores_nothing() {
        let cache = TreeCache::new(None, 0);
        assert!(cache.store.is_none());
        assert_eq!(cache.frontier_stats(), FrontierStats::default());
        let mut st = FrontierStore::new(0);
        for e in all_embeddings() {
            st.insert(e);
        }
        assert_eq!((st.bytes, st.map.len(), st.evicted), (0, 0, 0));
    }
}
