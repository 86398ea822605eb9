//! The visited part of the gSpan tree kept between BCGD iterations (beyond the paper).
//!
//! Every node the search has evaluated is stored with its DFS code and graph ids; a node whose
//! children were generated stores their indices (in DFS order), a node that was pruned is a
//! *frontier* node (`children == None`). A search first walks the cached tree, evaluating
//! nodes without any embedding work; the frontier nodes it wants to enter are then expanded by
//! one gSpan traversal that follows only the paths to them (path nodes are re-embedded but not
//! evaluated again), and everything it finds below them joins the cache.

use graphsparse_budget::{Meter, Truncation};
use graphsparse_graph::GraphDatabase;
use graphsparse_gspan::{
    DfsCode, MinerValidParams, Node, ParallelVisitor, Visit, Visitor, mine_parallel_with_meter,
    mine_with_meter,
};

use crate::error::Result;

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
}

impl TreeCache {
    pub(crate) fn new(max_size: Option<usize>) -> Self {
        Self {
            nodes: vec![CNode {
                code: DfsCode::new(),
                ids: Vec::new(),
                children: None,
            }],
            max_size,
        }
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

fn walk<S: CachedSearch>(
    cache: &TreeCache,
    idx: u32,
    search: &mut S,
    need: &mut Vec<(DfsCode, u32)>,
    meter: &Meter<'_>,
) -> Option<Truncation> {
    let children = cache.nodes[idx as usize]
        .children
        .as_ref()
        .expect("invariant: walk enters expanded nodes only");
    for &c in children {
        if !meter.claim_node() {
            return meter.truncation();
        }
        let node = &cache.nodes[c as usize];
        search.enter(&node.code);
        let mut out = None;
        if search.evaluate(&node.code, &node.ids) == Visit::Continue {
            if node.children.is_some() {
                out = walk(cache, c, search, need, meter);
            } else {
                need.push((node.code.clone(), c));
            }
        }
        search.leave();
        if out.is_some() {
            return out;
        }
    }
    None
}

enum Frame {
    Skip,
    Path,
    Target(u32),
    New(u32, bool),
}

struct Expand<'s, S> {
    search: &'s mut S,
    cache: &'s mut TreeCache,
    targets: Vec<(DfsCode, u32)>,
    all: bool,
    frames: Vec<Frame>,
}

impl<S: CachedSearch> Visitor for Expand<'_, S> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        let code = node.code();
        let parent = match self.frames.last() {
            Some(Frame::Target(i) | Frame::New(i, _)) => Some(*i),
            None if self.all => Some(0),
            _ => None,
        };
        if let Some(p) = parent {
            self.search.enter(code);
            let v = self.search.evaluate(code, node.graph_ids());
            let idx = self.cache.nodes.len() as u32;
            let at_max = self.cache.max_size.is_some_and(|m| code.len() >= m);
            self.cache.nodes.push(CNode {
                code: code.clone(),
                ids: node.graph_ids().to_vec(),
                children: at_max.then(Vec::new),
            });
            self.cache.nodes[p as usize]
                .children
                .get_or_insert_with(Vec::new)
                .push(idx);
            self.frames.push(Frame::New(idx, v == Visit::Continue));
            return v;
        }
        if let Ok(k) = self.targets.binary_search_by(|(c, _)| c.cmp(code)) {
            let idx = self.targets[k].1;
            self.cache.nodes[idx as usize].children = Some(Vec::new());
            self.search.enter(code);
            self.frames.push(Frame::Target(idx));
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
            self.search.enter(code);
            self.frames.push(Frame::Path);
            Visit::Continue
        } else {
            self.frames.push(Frame::Skip);
            Visit::Prune
        }
    }

    fn post(&mut self, _node: &Node<'_>) {
        match self.frames.pop() {
            Some(Frame::Skip) | None => {}
            Some(Frame::New(idx, continued)) => {
                if continued {
                    self.cache.nodes[idx as usize]
                        .children
                        .get_or_insert_with(Vec::new);
                }
                self.search.leave();
            }
            Some(Frame::Path | Frame::Target(_)) => self.search.leave(),
        }
    }
}

/// One search through the cache, every node it evaluates or expands claimed from `meter`;
/// returns why it stopped early, if it did.
pub(crate) fn search_cached<S: CachedSearch>(
    cache: &mut TreeCache,
    db: &GraphDatabase,
    miner: &MinerValidParams,
    search: &mut S,
    meter: &Meter<'_>,
) -> Result<Option<Truncation>> {
    let mut need = Vec::new();
    let all = cache.nodes[0].children.is_none();
    if !all && let Some(t) = walk(cache, 0, search, &mut need, meter) {
        return Ok(Some(t));
    }
    if !all && need.is_empty() {
        return Ok(None);
    }
    need.sort_by(|a, b| a.0.cmp(&b.0));
    if all {
        cache.nodes[0].children = Some(Vec::new());
    }
    let mut ex = Expand {
        search,
        cache,
        targets: need,
        all,
        frames: Vec::new(),
    };
    let stats = mine_with_meter(db, miner, &mut ex, meter)?;
    Ok(stats.truncation)
}

/// The first search of an empty cache as a parallel traversal: every forked subtree collects its
/// own nodes, and joins (in child order) append them and hang their roots under the node that
/// split. The tree is the one the serial search builds (children in DFS order); only the order of
/// the node array differs, which nothing depends on.
struct Build<S> {
    search: S,
    nodes: Vec<CNode>,
    /// Local indices of the nodes entered directly below the fork point.
    roots: Vec<u32>,
    /// The nodes entered and not yet left, with whether their subtree is explored.
    frames: Vec<(u32, bool)>,
    max_size: Option<usize>,
}

impl<S: CachedSearch> Visitor for Build<S> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        let code = node.code();
        self.search.enter(code);
        let v = self.search.evaluate(code, node.graph_ids());
        let idx = self.nodes.len() as u32;
        let at_max = self.max_size.is_some_and(|m| code.len() >= m);
        self.nodes.push(CNode {
            code: code.clone(),
            ids: node.graph_ids().to_vec(),
            children: at_max.then(Vec::new),
        });
        match self.frames.last() {
            Some(&(p, _)) => self.nodes[p as usize]
                .children
                .get_or_insert_with(Vec::new)
                .push(idx),
            None => self.roots.push(idx),
        }
        self.frames.push((idx, v == Visit::Continue));
        v
    }

    fn post(&mut self, _node: &Node<'_>) {
        if let Some((idx, continued)) = self.frames.pop() {
            if continued {
                self.nodes[idx as usize]
                    .children
                    .get_or_insert_with(Vec::new);
            }
            self.search.leave();
        }
    }
}

impl<S: CachedSearch + ParallelVisitor> ParallelVisitor for Build<S> {
    fn fork(&self) -> Self {
        Build {
            search: self.search.fork(),
            nodes: Vec::new(),
            roots: Vec::new(),
            frames: Vec::new(),
            max_size: self.max_size,
        }
    }

    fn join(&mut self, child: Self) {
        let off = self.nodes.len() as u32;
        self.nodes.extend(child.nodes.into_iter().map(|mut n| {
            if let Some(ch) = n.children.as_mut() {
                ch.iter_mut().for_each(|c| *c += off);
            }
            n
        }));
        let parent = self.frames.last().map(|&(p, _)| p);
        for r in child.roots {
            match parent {
                Some(p) => self.nodes[p as usize]
                    .children
                    .get_or_insert_with(Vec::new)
                    .push(r + off),
                None => self.roots.push(r + off),
            }
        }
        self.search.join(child.search);
    }
}

/// [`search_cached`] for a cache that is still empty, traversed in parallel on the current
/// rayon pool (`search` must give the same result serially and in parallel).
pub(crate) fn build_cache_parallel<S: CachedSearch + ParallelVisitor>(
    cache: &mut TreeCache,
    db: &GraphDatabase,
    miner: &MinerValidParams,
    search: &mut S,
    meter: &Meter<'_>,
) -> Result<Option<Truncation>> {
    debug_assert!(
        cache.is_unbuilt(),
        "build_cache_parallel needs an empty cache"
    );
    let mut build = Build {
        search: search.fork(),
        nodes: Vec::new(),
        roots: Vec::new(),
        frames: Vec::new(),
        max_size: cache.max_size,
    };
    let stats = mine_parallel_with_meter(db, miner, &mut build, meter)?;
    search.join(build.search);
    // local index i becomes i + 1 behind the root
    cache.nodes.extend(build.nodes.into_iter().map(|mut n| {
        if let Some(ch) = n.children.as_mut() {
            ch.iter_mut().for_each(|c| *c += 1);
        }
        n
    }));
    cache.nodes[0].children = Some(build.roots.into_iter().map(|r| r + 1).collect());
    Ok(stats.truncation)
}
