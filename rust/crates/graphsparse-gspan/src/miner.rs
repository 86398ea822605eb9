//! The traversal engine: rightmost-path extension over compact embedding arenas, serial and
//! rayon-parallel.
//!
//! Notation (gSpan / gBolt): a node of code length `d` has its embeddings in
//! `levels[d - 1].children[cur[d - 1]].embs`; each embedding is `(prev, v)`: the index of the
//! parent node's embedding it extends and the data vertex reached by the code's last edge.
//! Walking `prev` pointers down to depth 0 recovers the vertex map (`phi`), marked in a stamp
//! array (no clearing between embeddings). Whether a data edge between two mapped vertices is
//! already used depends only on the code (it is used iff the code joins their DFS indices),
//! so edges need no marks. A node's children are generated into `levels[d]`, one buffer per
//! distinct extension edge, and the buffers are reused by the next sibling's children: memory
//! is one frontier per depth, never the whole tree.
//!
//! Parallel mode: where the split rule fires, each child subtree becomes a rayon task with
//! its own `Worker` (from a pool) and a `Base` that borrows the forking thread's ancestor
//! embeddings, which stay untouched until every task has finished.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use graphsparse_base::{Meter, RunControl};
use graphsparse_graph::GraphDatabase;
use rayon::prelude::*;

use crate::closed::{ClosureScratch, Keep, NodeView, Verdict, judge, single_vertices_in_set};
use crate::code::{DfsCode, DfsEdge};
use crate::embed::{Base, Chain, Child, Emb, Level, WALK_BATCH, mark, walk_batch};
use crate::error::Result;
use crate::mincode::MinCodeScratch;
use crate::params::{MinerValidParams, PatternSet};
use crate::prepared::Prepared;
use crate::visit::{MiningStats, Node, ParallelVisitor, Visit, Visitor};

const NONE: u32 = u32::MAX;
/// Embeddings processed between two polls of the cancellation flag and the clock.
const POLL_EVERY: usize = 1024;
// the poll in `gen_children` falls on batch boundaries
const _: () = assert!(POLL_EVERY % WALK_BATCH == 0);

/// State shared by every worker of one traversal.
pub(crate) struct Shared<'a> {
    db: &'a Prepared,
    min_support: usize,
    max_size: usize,
    split_depth: usize,
    split_embeddings: usize,
    /// The budget in force (node count, deadline, cancellation, first stop reason).
    meter: &'a Meter<'a>,
    pruned: AtomicU64,
    non_min: AtomicU64,
    /// Idle workers (their buffers are reused by the next task).
    spare: &'a Mutex<Vec<Worker>>,
    /// Visit only children with minimal codes (off: every child, the caller tests minimality).
    check_min: bool,
    /// Which patterns the visitor is told are in the set.
    pattern_set: PatternSet,
    /// Nodes whose children early termination cut, wholly or in part.
    early_terminated: AtomicU64,
}

impl<'a> Shared<'a> {
    pub(crate) fn new(
        db: &'a Prepared,
        params: &MinerValidParams,
        meter: &'a Meter<'a>,
        spare: &'a Mutex<Vec<Worker>>,
    ) -> Self {
        Shared {
            db,
            min_support: params.min_support(),
            max_size: params.max_size().unwrap_or(usize::MAX),
            split_depth: params.split_depth(),
            split_embeddings: params.split_embeddings(),
            meter,
            pruned: AtomicU64::new(0),
            non_min: AtomicU64::new(0),
            spare,
            check_min: true,
            pattern_set: params.pattern_set(),
            early_terminated: AtomicU64::new(0),
        }
    }

    /// Visits every frequent child, minimal or not: the level-wise rounds count extensions
    /// without the minimality test, which then runs once per globally frequent extension.
    pub(crate) fn without_min_check(mut self) -> Self {
        self.check_min = false;
        self
    }

    /// The statistics of a traversal that started when the meter stood at the given values.
    pub(crate) fn stats(
        &self,
        nodes_before: u64,
        seconds_before: std::time::Duration,
    ) -> MiningStats {
        MiningStats {
            nodes_visited: self.meter.nodes() - nodes_before,
            nodes_pruned: self.pruned.load(Ordering::SeqCst),
            non_minimal: self.non_min.load(Ordering::SeqCst),
            early_terminations: self.early_terminated.load(Ordering::SeqCst),
            truncation: self.meter.truncation(),
            seconds: (self.meter.elapsed() - seconds_before).as_secs_f64(),
        }
    }

    /// Whether early termination may cut subtrees: closed or maximal patterns, no size bound
    /// (a pattern of `max_size` edges is in the set by definition) and minimal codes only
    /// (the proof reads the order of minimum codes).
    fn early(&self) -> bool {
        self.pattern_set != PatternSet::All && self.max_size == usize::MAX && self.check_min
    }

    fn shape(&self) -> (usize, usize) {
        (self.db.n_graphs, self.db.n_vertices())
    }

    /// Checks the cancellation flag and the clock; true when the traversal must stop.
    fn poll(&self) -> bool {
        self.meter.poll()
    }

    /// Claims one node of the budget; false when the traversal must stop instead.
    fn begin_node(&self) -> bool {
        self.meter.claim_node()
    }

    pub(crate) fn take_worker(&self) -> Worker {
        let spare = self.spare.lock().unwrap_or_else(|p| p.into_inner()).pop();
        spare.unwrap_or_else(|| Worker::new(self.db))
    }

    pub(crate) fn give_back(&self, w: Worker) {
        self.spare.lock().unwrap_or_else(|p| p.into_inner()).push(w);
    }
}

/// Per-thread traversal state.
#[derive(Debug)]
pub(crate) struct Worker {
    levels: Vec<Level>,
    cur: Vec<u32>,
    pub(crate) code: DfsCode,
    /// `stamp << 32 | DFS index` for the data vertices of the embedding being extended
    vmark: Vec<u64>,
    stamp: u32,
    /// per DFS index: already joined to the rightmost vertex by a code edge
    r_adj: Vec<bool>,
    /// per code position: forward edge
    fwd: Vec<bool>,
    phi: Vec<u32>,
    parent: Vec<u32>,
    rmpath: Vec<u32>,
    rm_fwd: Vec<(u32, u32)>,
    rm_thr: Vec<u32>,
    into_label: Vec<u32>,
    on_path: Vec<bool>,
    dfs_label: Vec<u32>,
    mincode: MinCodeScratch,
    closure: ClosureScratch,
}

/// Whether [`Worker::prepare`] generated the node's children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Generated {
    No,
    Yes,
    /// The traversal stopped while generating them.
    Stopped,
}

/// Serial or parallel expansion of the children of a node.
pub(crate) trait Mode<V: Visitor> {
    /// Runs the children of the node at depth `d` in parallel when the split rule says so;
    /// `Some(stopped)` when it did.
    fn split(w: &mut Worker, sh: &Shared<'_>, d: usize, v: &mut V, base: Base<'_>) -> Option<bool>;
}

pub(crate) struct SerialMode;

impl<V: Visitor> Mode<V> for SerialMode {
    fn split(_: &mut Worker, _: &Shared<'_>, _: usize, _: &mut V, _: Base<'_>) -> Option<bool> {
        None
    }
}

pub(crate) struct ParallelMode;

impl<V: ParallelVisitor> Mode<V> for ParallelMode {
    fn split(w: &mut Worker, sh: &Shared<'_>, d: usize, v: &mut V, base: Base<'_>) -> Option<bool> {
        let n_children = w.levels[d].order.len();
        if n_children < 2 {
            return None;
        }
        let level = &w.levels[d];
        let n_embs: usize = level
            .order
            .iter()
            .map(|&c| level.children[c as usize].embs.len())
            .sum();
        if d >= sh.split_depth && n_embs < sh.split_embeddings {
            return None;
        }
        let forks: Vec<V> = level.order.iter().map(|_| v.fork()).collect();
        // the tasks borrow this thread's levels (read only until they are all done)
        let prefix: Vec<&[Emb]> = (0..d).map(|t| w.chain(base, t)).collect();
        let code = w.code.edges();
        let done: Vec<(V, bool)> = level
            .order
            .par_iter()
            .zip(forks)
            .map(|(&c, mut fv)| {
                let child = &level.children[c as usize];
                let mut worker = sh.take_worker();
                let base = Base {
                    prefix: &prefix,
                    top: Some(&child.embs),
                    top_gids: &child.gids,
                };
                let stopped = worker.run_task::<V>(sh, code, child, base, &mut fv);
                sh.give_back(worker);
                (fv, stopped)
            })
            .collect();
        let mut stopped = false;
        for (fv, s) in done {
            v.join(fv);
            stopped |= s;
        }
        Some(stopped)
    }
}

impl Worker {
    pub(crate) fn new(db: &Prepared) -> Self {
        Self {
            levels: Vec::new(),
            cur: Vec::new(),
            code: DfsCode::new(),
            vmark: vec![0; db.n_vertices()],
            stamp: 0,
            r_adj: Vec::new(),
            fwd: Vec::new(),
            phi: Vec::new(),
            parent: Vec::new(),
            rmpath: Vec::new(),
            rm_fwd: Vec::new(),
            rm_thr: Vec::new(),
            into_label: Vec::new(),
            on_path: Vec::new(),
            dfs_label: Vec::new(),
            mincode: MinCodeScratch::new(db.directed),
            closure: ClosureScratch::default(),
        }
    }

    pub(crate) fn ensure_depth(&mut self, d: usize) {
        while self.levels.len() <= d {
            self.levels.push(Level::default());
        }
        if self.cur.len() <= d {
            self.cur.resize(d + 1, 0);
        }
    }

    /// Expands the node of code length `d` (the root when `d == 0`): generates, filters and
    /// visits its children. Returns true when the traversal stopped.
    pub(crate) fn expand<V: Visitor, M: Mode<V>>(
        &mut self,
        sh: &Shared<'_>,
        d: usize,
        v: &mut V,
        base: Base<'_>,
    ) -> bool {
        self.generate(sh, d, base) || self.visit_children::<V, M>(sh, d, v, base, Keep::ALL)
    }

    /// Generates the children of the node of code length `d` into `levels[d]`. Returns true
    /// when the traversal stopped.
    fn generate(&mut self, sh: &Shared<'_>, d: usize, base: Base<'_>) -> bool {
        self.ensure_depth(d);
        if d == 0 {
            self.gen_root(sh)
        } else {
            self.gen_children(sh, d, base)
        }
    }

    /// Keeps the generated children of `levels[d]` that are frequent, minimal and kept by
    /// `keep`, and visits them. Returns true when the traversal stopped.
    fn visit_children<V: Visitor, M: Mode<V>>(
        &mut self,
        sh: &Shared<'_>,
        d: usize,
        v: &mut V,
        base: Base<'_>,
        keep: Keep,
    ) -> bool {
        if keep.is_none() {
            sh.early_terminated.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        self.select_children(sh, d, keep);
        if let Some(stopped) = M::split(self, sh, d, v, base) {
            return stopped;
        }
        let order = std::mem::take(&mut self.levels[d].order);
        let mut stopped = false;
        for &c in &order {
            let edge = self.levels[d].children[c as usize].edge;
            self.code.push(edge);
            stopped = self.visit_child::<V, M>(sh, d, c, v, base);
            self.code.pop();
            if stopped {
                break;
            }
        }
        self.levels[d].order = order;
        stopped
    }

    /// Visits child `c` of `levels[d]` (whose edge is already on `self.code`) and its subtree.
    fn visit_child<V: Visitor, M: Mode<V>>(
        &mut self,
        sh: &Shared<'_>,
        d: usize,
        c: u32,
        v: &mut V,
        base: Base<'_>,
    ) -> bool {
        if !sh.begin_node() {
            return true;
        }
        self.cur[d] = c;
        let (verdict, generated) = self.prepare(sh, d + 1, base);
        let visit = v.pre(&self.child_node(sh, d, c, base, verdict.in_set));
        let stopped = self.descend::<V, M>(sh, visit, d + 1, v, base, verdict, generated);
        v.post(&self.child_node(sh, d, c, base, verdict.in_set));
        stopped
    }

    /// The visitor's view of child `c` of `levels[d]` (whose edge is on `self.code`).
    fn child_node<'s>(
        &'s self,
        sh: &Shared<'_>,
        d: usize,
        c: u32,
        base: Base<'s>,
        in_set: bool,
    ) -> Node<'s> {
        let chain = Chain {
            base,
            levels: &self.levels,
            cur: &self.cur,
            depth: d + 1,
            shape: sh.shape(),
        };
        edge_node(
            &self.code,
            &self.levels[d].children[c as usize],
            chain,
            in_set,
        )
    }

    /// Before the visitor sees the node of code length `d` (its code on `self.code`, its
    /// embeddings the current child of `levels[d - 1]` or `base.top`): for closed or maximal
    /// patterns below the size bound, generates its children and tests the node (the
    /// children's supports answer the test for most nodes, see [`judge`]). Returns the verdict
    /// ([`Verdict::ALL`] for [`PatternSet::All`] and at the size bound) and whether the
    /// children were generated.
    fn prepare(&mut self, sh: &Shared<'_>, d: usize, base: Base<'_>) -> (Verdict, Generated) {
        if sh.pattern_set == PatternSet::All || self.code.len() >= sh.max_size {
            return (Verdict::ALL, Generated::No);
        }
        if self.generate(sh, d, base) {
            let stopped = Verdict {
                in_set: false,
                keep: Keep::NONE,
            };
            return (stopped, Generated::Stopped);
        }
        // the rightmost-path children hold exact supports (a child that stopped counting
        // is infrequent): one of the node's support, or a frequent one, decides the test
        let support = self.node_support(d, base);
        let level = &self.levels[d];
        let best = level.children[..level.n]
            .iter()
            .map(|c| c.gids.len())
            .max()
            .unwrap_or(0);
        let known = match sh.pattern_set {
            PatternSet::Closed => best == support,
            _ => best >= sh.min_support,
        };
        (self.judge(sh, d, base, known), Generated::Yes)
    }

    /// The support of the node of code length `d >= 1`.
    fn node_support(&self, d: usize, base: Base<'_>) -> usize {
        if d == base.len() {
            base.top_gids.len()
        } else {
            self.levels[d - 1].children[self.cur[d - 1] as usize]
                .gids
                .len()
        }
    }

    /// The closedness (maximality) test of the node of code length `d` and the children
    /// early termination keeps; `known`: the node is already known not to be in the set.
    fn judge(&mut self, sh: &Shared<'_>, d: usize, base: Base<'_>, known: bool) -> Verdict {
        let (n_v, r) = self.index_rightmost_path(sh.db);
        self.ensure_depth(d);
        let Self {
            levels,
            cur,
            vmark,
            stamp,
            code,
            fwd,
            on_path,
            closure,
            ..
        } = self;
        let chains: Vec<&[Emb]> = (0..d)
            .map(|t| {
                if t < base.len() {
                    base.get(t)
                } else {
                    levels[t].children[cur[t] as usize].embs.as_slice()
                }
            })
            .collect();
        let gids: &[u32] = if d == base.len() {
            base.top_gids
        } else {
            &levels[d - 1].children[cur[d - 1] as usize].gids
        };
        let view = NodeView {
            db: sh.db,
            code: code.edges(),
            fwd,
            chains: &chains,
            gids,
            on_path,
            n_v,
            r,
            children: &levels[d].children[..levels[d].n],
        };
        judge(
            &view,
            sh.pattern_set,
            sh.min_support,
            sh.early(),
            known,
            vmark,
            stamp,
            closure,
        )
    }

    /// After the visitor's `pre` at the node of code length `d` (the code on `self.code`):
    /// counts a pruned node, or expands the node unless it has the largest size, visiting the
    /// children `verdict` keeps (already generated by [`Self::prepare`] when `generated`).
    /// Returns true when the traversal stopped.
    #[allow(clippy::too_many_arguments)]
    fn descend<V: Visitor, M: Mode<V>>(
        &mut self,
        sh: &Shared<'_>,
        visit: Visit,
        d: usize,
        v: &mut V,
        base: Base<'_>,
        verdict: Verdict,
        generated: Generated,
    ) -> bool {
        match (visit, generated) {
            (_, Generated::Stopped) => true,
            (Visit::Prune, _) => {
                sh.pruned.fetch_add(1, Ordering::Relaxed);
                false
            }
            (Visit::Continue, Generated::No) => {
                self.code.len() < sh.max_size && self.expand::<V, M>(sh, d, v, base)
            }
            (Visit::Continue, Generated::Yes) => {
                self.visit_children::<V, M>(sh, d, v, base, verdict.keep)
            }
        }
    }

    /// One-edge patterns `(0, 1, a, e, b)` with `(a, e) <= (b, e')` for the label `e'` of the
    /// same edge seen from its other end (`a <= b` undirected): always minimal.
    fn gen_root(&mut self, sh: &Shared<'_>) -> bool {
        let db = sh.db;
        let out = &mut self.levels[0];
        out.reset(0, sh.min_support);
        for v in 0..db.n_vertices() as u32 {
            if v as usize % POLL_EVERY == POLL_EVERY - 1 && sh.poll() {
                return true;
            }
            let lv = db.vlabel[v as usize];
            let gid = db.vgraph[v as usize];
            for a in db.nbrs(v) {
                if (lv, a.elabel) <= (a.to_label, db.reverse_label(a.elabel)) {
                    let key = DfsEdge::new(0, 1, lv, a.elabel, a.to_label);
                    let remaining = db.n_graphs - 1 - gid as usize;
                    out.add(None, key, Emb { prev: v, v: a.to }, gid, remaining);
                }
            }
        }
        false
    }

    /// Indexes the rightmost path of the current code for [`Self::gen_children`]: parents,
    /// DFS labels, the rightmost path (deepest first), the label pair of the path edge leaving
    /// each path vertex with its first allowed pair id, the vertices already joined to the
    /// rightmost vertex, and which code edges are forward. Returns `(n_v, r)`, the number of
    /// pattern vertices and the rightmost one.
    fn index_rightmost_path(&mut self, db: &Prepared) -> (usize, u32) {
        let code = self.code.edges();
        // rightmost path of the current code
        let n_v = code
            .iter()
            .map(|e| e.from.max(e.to))
            .max()
            .map_or(0, |m| m as usize + 1);
        let r = n_v as u32 - 1;
        self.parent.clear();
        self.parent.resize(n_v, NONE);
        self.dfs_label.clear();
        self.dfs_label.resize(n_v, 0);
        self.rm_fwd.clear();
        self.rm_fwd.resize(n_v, (0, 0));
        self.into_label.clear();
        self.into_label.resize(n_v, 0);
        self.on_path.clear();
        self.on_path.resize(n_v, false);
        for e in code {
            self.dfs_label[e.from as usize] = e.from_label;
            self.dfs_label[e.to as usize] = e.to_label;
            if e.is_forward() {
                self.parent[e.to as usize] = e.from;
                self.into_label[e.to as usize] = e.edge_label;
            }
        }
        // rm_fwd[j] = (label of the rightmost-path edge leaving j, label of its other end)
        self.rmpath.clear();
        let mut x = r;
        loop {
            self.on_path[x as usize] = true;
            self.rmpath.push(x);
            if x == 0 {
                break;
            }
            let p = self.parent[x as usize];
            self.rm_fwd[p as usize] = (self.into_label[x as usize], self.dfs_label[x as usize]);
            x = p;
        }
        // r_adj[j]: the code already joins j to the rightmost vertex (its data edge is used)
        self.r_adj.clear();
        self.r_adj.resize(n_v, false);
        self.fwd.clear();
        for e in code {
            if e.from == r {
                self.r_adj[e.to as usize] = true;
            } else if e.to == r {
                self.r_adj[e.from as usize] = true;
            }
            self.fwd.push(e.is_forward());
        }
        // rm_thr[k]: first label-pair id allowed for forward edges from rmpath[k]
        self.rm_thr.clear();
        for &j in &self.rmpath {
            let key = self.rm_fwd[j as usize];
            self.rm_thr
                .push(db.pairs.partition_point(|&p| p < key) as u32);
        }
        (n_v, r)
    }

    /// Rightmost-path extensions of every embedding of the node of code length `d >= 1`.
    ///
    /// Embeddings are scanned in order, and consecutive ones usually share most of their
    /// ancestor chain; only the levels where the chain changed are unmarked and re-marked
    /// (`chain[t]` is the index, at level `t`, of the embedding currently marked).
    fn gen_children(&mut self, sh: &Shared<'_>, d: usize, base: Base<'_>) -> bool {
        let db = sh.db;
        let (n_v, r) = self.index_rightmost_path(db);
        let code = self.code.edges();
        self.phi.clear();
        self.phi.resize(n_v * WALK_BATCH, 0);

        let Self {
            levels,
            cur,
            vmark,
            stamp,
            phi,
            rmpath,
            rm_thr,
            rm_fwd,
            on_path,
            r_adj,
            fwd,
            dfs_label,
            ..
        } = self;
        let path = RightmostPath {
            db,
            n_v,
            r,
            lr: dfs_label[r as usize],
            min_label: code[0].from_label,
            rmpath,
            rm_thr,
            rm_fwd,
            on_path,
            r_adj,
            dfs_label,
        };
        let (lower, upper) = levels.split_at_mut(d);
        let out = &mut upper[0];
        out.reset(
            if db.dense_keys {
                (n_v + 1) * db.n_pairs * 2
            } else {
                0
            },
            sh.min_support,
        );
        let chains: Vec<&[Emb]> = (0..d)
            .map(|t| {
                if t < base.len() {
                    base.get(t)
                } else {
                    lower[t].children[cur[t] as usize].embs.as_slice()
                }
            })
            .collect();
        let n_parent = chains[d - 1].len();
        let parent_gids: &[u32] = if d == base.len() {
            base.top_gids
        } else {
            &lower[d - 1].children[cur[d - 1] as usize].gids
        };
        let mut gpos = 0;
        let mut i0 = 0;
        let mut batch = [0u32; WALK_BATCH];
        while i0 < n_parent {
            if i0 % POLL_EVERY == 0 && i0 > 0 && sh.poll() {
                return true;
            }
            let bn = WALK_BATCH.min(n_parent - i0);
            walk_batch(&chains, code, fwd, i0, &mut batch[..bn], phi, n_v);
            for k in 0..bn {
                let phi = &phi[k * n_v..(k + 1) * n_v];
                let tag = mark(vmark, stamp, phi);
                let gid = db.vgraph[phi[0] as usize];
                while parent_gids[gpos] < gid {
                    gpos += 1;
                }
                let remaining = parent_gids.len() - 1 - gpos;
                let at = Marked {
                    phi,
                    vmark,
                    tag,
                    prev: (i0 + k) as u32,
                };
                path.extend(out, &at, gid, remaining);
            }
            i0 += bn;
        }
        false
    }

    /// Keeps the frequent children with minimal codes that `keep` keeps, in canonical order.
    fn select_children(&mut self, sh: &Shared<'_>, d: usize, keep: Keep) {
        let level = &mut self.levels[d];
        level.order.clear();
        let mut cut = false;
        for c in 0..level.n {
            if level.children[c].gids.len() >= sh.min_support {
                if keep.keeps(&level.children[c].edge) {
                    level.order.push(c as u32);
                } else {
                    cut = true;
                }
            }
        }
        if cut {
            sh.early_terminated.fetch_add(1, Ordering::Relaxed);
        }
        let children = &level.children;
        level.order.sort_unstable_by(|&a, &b| {
            children[a as usize]
                .edge
                .cmp_extension(&children[b as usize].edge)
        });
        if d == 0 || !sh.check_min {
            return;
        }
        let mut order = std::mem::take(&mut level.order);
        order.retain(|&c| {
            let edge = self.levels[d].children[c as usize].edge;
            self.code.push(edge);
            let min = self.mincode.is_min(self.code.edges());
            self.code.pop();
            if !min {
                sh.non_min.fetch_add(1, Ordering::Relaxed);
            }
            min
        });
        self.levels[d].order = order;
    }

    /// The embeddings of the current node's ancestor at code length `t + 1`.
    fn chain<'a>(&'a self, base: Base<'a>, t: usize) -> &'a [Emb] {
        if t < base.len() {
            base.get(t)
        } else {
            &self.levels[t].children[self.cur[t] as usize].embs
        }
    }

    /// Runs a forked subtree: its root `child` (code `parent_code` + `child.edge`, embeddings
    /// `base.top`) is visited with the forked visitor, then expanded on this worker.
    fn run_task<V: ParallelVisitor>(
        &mut self,
        sh: &Shared<'_>,
        parent_code: &[DfsEdge],
        child: &Child,
        base: Base<'_>,
        v: &mut V,
    ) -> bool {
        self.code.truncate(0);
        for &e in parent_code {
            self.code.push(e);
        }
        self.code.push(child.edge);
        self.ensure_depth(base.len());
        if !sh.begin_node() {
            return true;
        }
        let chain = Chain {
            base,
            levels: &[],
            cur: &[],
            depth: base.len(),
            shape: sh.shape(),
        };
        let (verdict, generated) = self.prepare(sh, base.len(), base);
        let visit = v.pre(&edge_node(&self.code, child, chain, verdict.in_set));
        let stopped =
            self.descend::<V, ParallelMode>(sh, visit, base.len(), v, base, verdict, generated);
        v.post(&edge_node(&self.code, child, chain, verdict.in_set));
        stopped
    }
}

/// One embedding being extended: its vertex map, the marks of its vertices and its index in
/// the parent level.
struct Marked<'a> {
    phi: &'a [u32],
    vmark: &'a [u64],
    tag: u64,
    prev: u32,
}

impl Marked<'_> {
    /// The DFS index of data vertex `v` when it is in the embedding.
    #[inline]
    fn index_of(&self, v: u32) -> Option<u32> {
        let m = self.vmark[v as usize];
        (m & !0xffff_ffff == self.tag).then_some(m as u32)
    }
}

/// The index of the current code's rightmost path built by
/// [`Worker::index_rightmost_path`], read by the extension of each embedding.
struct RightmostPath<'a> {
    db: &'a Prepared,
    n_v: usize,
    r: u32,
    /// Label of the rightmost vertex.
    lr: u32,
    /// Label of the code's first vertex: no vertex of a minimal code has a smaller one.
    min_label: u32,
    rmpath: &'a [u32],
    rm_thr: &'a [u32],
    rm_fwd: &'a [(u32, u32)],
    on_path: &'a [bool],
    r_adj: &'a [bool],
    dfs_label: &'a [u32],
}

impl RightmostPath<'_> {
    /// Adds to `out` the rightmost-path extensions of one embedding of graph `gid` (with
    /// `remaining` graphs of the parent after it) that can have minimal codes.
    #[inline]
    fn extend(&self, out: &mut Level, at: &Marked<'_>, gid: u32, remaining: usize) {
        let (db, r, lr) = (self.db, self.r, self.lr);
        let n_pairs = db.n_pairs;
        let dense = db.dense_keys;
        let emb = |v| Emb { prev: at.prev, v };
        // backward edges from the rightmost vertex to the rightmost path
        for a in db.nbrs(at.phi[r as usize]) {
            let Some(j) = at.index_of(a.to) else {
                continue;
            };
            if !self.on_path[j as usize] || self.r_adj[j as usize] {
                continue;
            }
            // a minimal code's path edge leaving j is no larger than this edge seen from j
            let (fl, ftl) = self.rm_fwd[j as usize];
            let back = db.reverse_label(a.elabel);
            if fl < back || (fl == back && ftl <= lr) {
                let key = DfsEdge::new(r, j, lr, a.elabel, a.to_label);
                let slot = dense.then(|| (j as usize * n_pairs + a.pair as usize) * 2 + 1);
                out.add(slot, key, emb(a.to), gid, remaining);
            }
        }
        // forward edges from the rightmost-path vertices, the rightmost one first (its
        // threshold is 0); minimality needs (edge label, to label) >= the pair of the path
        // edge leaving the vertex, and pair ids follow that order
        for (&j, &thr) in self.rmpath.iter().zip(self.rm_thr) {
            let lj = self.dfs_label[j as usize];
            for a in db.nbrs(at.phi[j as usize]) {
                if at.index_of(a.to).is_some() || a.pair < thr || a.to_label < self.min_label {
                    continue;
                }
                let key = DfsEdge::new(j, self.n_v as u32, lj, a.elabel, a.to_label);
                let slot = dense.then(|| (j as usize * n_pairs + a.pair as usize) * 2);
                out.add(slot, key, emb(a.to), gid, remaining);
            }
        }
    }
}

/// The visitor's view of the edge pattern `code` whose embeddings are `child`, with the
/// embedding arrays of its ancestors in `chain`.
fn edge_node<'s>(code: &'s DfsCode, child: &'s Child, chain: Chain<'s>, in_set: bool) -> Node<'s> {
    Node {
        code,
        vertex_label: None,
        graph_ids: &child.gids,
        counts: &child.counts,
        chain,
        in_set,
    }
}

/// Runs the single-vertex patterns (when enabled) and the edge tree through `v`.
fn traverse<V: Visitor, M: Mode<V>>(
    db: &GraphDatabase,
    params: &MinerValidParams,
    v: &mut V,
    meter: &Meter<'_>,
) -> Result<MiningStats> {
    let prepared = Prepared::new(db, params.min_support())?;
    Ok(traverse_prepared::<V, M>(db, &prepared, params, v, meter))
}

fn traverse_prepared<V: Visitor, M: Mode<V>>(
    db: &GraphDatabase,
    prepared: &Prepared,
    params: &MinerValidParams,
    v: &mut V,
    meter: &Meter<'_>,
) -> MiningStats {
    let (nodes_before, seconds_before) = (meter.nodes(), meter.elapsed());
    let spare = Mutex::new(Vec::new());
    let sh = Shared::new(prepared, params, meter, &spare);
    let mut stopped = false;
    if params.single_vertices() {
        stopped = visit_single_vertices(db, &sh, v);
    }
    if !stopped && sh.max_size >= 1 {
        let mut w = Worker::new(prepared);
        w.expand::<V, M>(&sh, 0, v, Base::default());
    }
    sh.stats(nodes_before, seconds_before)
}

fn visit_single_vertices<V: Visitor>(db: &GraphDatabase, sh: &Shared<'_>, v: &mut V) -> bool {
    let mut per_label: HashMap<u32, (Vec<u32>, Vec<u32>)> = HashMap::new();
    for g in 0..db.len() {
        for &l in db.graph(g).node_labels {
            let (gids, counts) = per_label.entry(l).or_default();
            if gids.last() == Some(&(g as u32)) {
                *counts.last_mut().expect("invariant: parallel to gids") += 1;
            } else {
                gids.push(g as u32);
                counts.push(1);
            }
        }
    }
    let mut labels: Vec<(u32, usize)> = per_label
        .iter()
        .filter(|(_, (gids, _))| gids.len() >= sh.min_support)
        .map(|(&l, (gids, _))| (l, gids.len()))
        .collect();
    labels.sort_unstable();
    let in_set =
        single_vertices_in_set(sh.db, &labels, sh.pattern_set, sh.min_support, sh.max_size);
    let empty = DfsCode::new();
    for (&(l, _), in_set) in labels.iter().zip(in_set) {
        let (gids, counts) = &per_label[&l];
        if !sh.begin_node() {
            return true;
        }
        let node = Node {
            code: &empty,
            vertex_label: Some(l),
            graph_ids: gids,
            counts,
            chain: Chain::default(),
            in_set,
        };
        if v.pre(&node) == Visit::Prune {
            sh.pruned.fetch_add(1, Ordering::Relaxed);
        }
        v.post(&node);
    }
    false
}

/// Traverses the gSpan tree of `db`, calling `visitor` at every node.
///
/// Nodes are the connected patterns with support >= `min_support` and at most `max_size`
/// edges, each visited once through its minimum DFS code, in pre-order with children in
/// increasing code order (so the pre-order is the increasing DFS-code order). Single-vertex
/// patterns, when enabled, come first, by label.
///
/// With [`MinerParams::parallel`](crate::MinerParams::parallel) other than
/// [`Parallel::Serial`](graphsparse_base::Parallel::Serial), sibling subtrees run in parallel on
/// the current rayon pool: call it inside `pool.install(..)` to choose the pool; the crate never
/// builds or configures the global pool. Every node (with two or more children) shallower than
/// `split_depth` edges, and every deeper one whose frequent children hold at least
/// `split_embeddings` embeddings, forks the visitor once per child and joins the forks back in
/// child order (see [`ParallelVisitor`]); rayon's work stealing spreads the subtrees. A complete
/// traversal gives the same joined result for any number of threads; a truncated one (node or
/// time budget, cancellation) stops wherever each thread was. A serial traversal never calls
/// `fork` or `join`.
///
/// With [`PatternSet::Closed`] or [`PatternSet::Maximal`], every node still reaches the
/// visitor, with [`Node::in_pattern_set`] telling whether it is closed (maximal); each node
/// is tested before its `pre` from its own embeddings and children. Without `max_size`,
/// CloseGraph's early termination (Yan & Han, KDD 2003) skips the children whose subtrees
/// provably hold no pattern of the set: when an extension occurs in every embedding of a node
/// and no descendant in those subtrees can contain it or take its data vertex (the conditions
/// and their proof are in the source of the `closed` module), and
/// [`MiningStats::early_terminations`] counts the nodes cut that way. The nodes visited then
/// depend on the set, never on the number of threads.
///
/// # Arguments
/// * `db` – the graphs (may be disconnected; patterns are connected).
/// * `params` – validated parameters ([`crate::MinerParams`] through [`Check`](crate::Check)).
/// * `visitor` – receives every node; [`Visit::Prune`] skips a subtree.
/// * `ctl` – the caller's handle: [`RunControl::cancel`] (from another thread) stops the
///   traversal within a few milliseconds; its progress counts the nodes visited.
///
/// # Returns
/// Statistics, including [`MiningStats::truncation`] when the budget of `params` or a
/// cancellation cut the traversal short.
///
/// # Errors
/// [`crate::GspanError::TooLarge`] for databases beyond the 32-bit embedding store.
///
/// # Complexity
/// Memory is one frontier of embeddings per depth (8 bytes each), not the whole tree; the
/// parallel traversal spreads the same total work over the pool.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_gspan::{mine, Check, MinerParams, Node, ParallelVisitor, Visit, Visitor};
///
/// struct Count(usize);
/// impl Visitor for Count {
///     fn pre(&mut self, _: &Node<'_>) -> Visit {
///         self.0 += 1;
///         Visit::Continue
///     }
/// }
/// impl ParallelVisitor for Count {
///     fn fork(&self) -> Self {
///         Count(0)
///     }
///     fn join(&mut self, child: Self) {
///         self.0 += child.0;
///     }
/// }
/// let db = parse_gspan("t # 0\nv 0 0\nv 1 0\nv 2 0\ne 0 1 0\ne 1 2 0\ne 2 0 0\n", "<doc>")
///     .unwrap()
///     .db;
/// let params = MinerParams::new().min_support(1).check().unwrap();
/// let mut count = Count(0);
/// let stats = mine(&db, &params, &mut count, &RunControl::new()).unwrap();
/// assert_eq!(count.0, 3); // an edge, a path of two edges, the triangle
/// assert_eq!(stats.nodes_visited, 3);
/// assert!(stats.truncation.is_none());
/// ```
pub fn mine<V: ParallelVisitor>(
    db: &GraphDatabase,
    params: &MinerValidParams,
    visitor: &mut V,
    ctl: &RunControl,
) -> Result<MiningStats> {
    mine_with_meter(db, params, visitor, &params.budget().start(ctl))
}

/// As [`mine`], under a budget the caller already started: the traversal claims its nodes from
/// `meter` (and the budget of `params` is not used), so that several traversals can share one
/// budget, as the iterations of a subgraph learner do.
///
/// # Errors
/// As [`mine`].
///
/// # Complexity
/// As [`mine`].
pub fn mine_with_meter<V: ParallelVisitor>(
    db: &GraphDatabase,
    params: &MinerValidParams,
    visitor: &mut V,
    meter: &Meter<'_>,
) -> Result<MiningStats> {
    if params.parallel().enabled() {
        traverse::<V, ParallelMode>(db, params, visitor, meter)
    } else {
        traverse::<V, SerialMode>(db, params, visitor, meter)
    }
}

/// [`mine_with_meter`] on the calling thread for a visitor that cannot fork (the crate's own
/// level-wise counters), whatever the policy of `params`.
pub(crate) fn mine_serial_with_meter<V: Visitor>(
    db: &GraphDatabase,
    params: &MinerValidParams,
    visitor: &mut V,
    meter: &Meter<'_>,
) -> Result<MiningStats> {
    traverse::<V, SerialMode>(db, params, visitor, meter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::MinerParams;
    use graphsparse_base::Check;

    /// The patterns of a traversal, `(code, graph ids)` in visiting order.
    #[derive(Default)]
    struct Patterns(Vec<(DfsCode, Vec<u32>)>);

    impl Visitor for Patterns {
        fn pre(&mut self, node: &Node<'_>) -> Visit {
            self.0
                .push((node.code().clone(), node.graph_ids().to_vec()));
            Visit::Continue
        }
    }

    /// 24 random graphs: 9 vertices, 3 vertex labels, 2 edge labels.
    fn random_db() -> GraphDatabase {
        graphsparse_graph::RandomGraphs {
            n_graphs: 24,
            vertices: (9, 9),
            vertex_labels: 3,
            edge_labels: 2,
            extra_edges: 3,
            seed: 0x2545_f491_4f6c_dd1d,
        }
        .generate()
        .unwrap()
    }

    #[test]
    fn hashed_extension_keys_equal_dense_keys() {
        let db = random_db();
        let params = MinerParams::new().min_support(2).check().unwrap();
        let ctl = RunControl::new();
        let mut prepared = Prepared::new(&db, 2).unwrap();
        assert!(prepared.dense_keys);
        let mut dense = Patterns::default();
        let s1 = traverse_prepared::<_, SerialMode>(
            &db,
            &prepared,
            &params,
            &mut dense,
            &params.budget().start(&ctl),
        );
        prepared.dense_keys = false;
        let mut hashed = Patterns::default();
        let s2 = traverse_prepared::<_, SerialMode>(
            &db,
            &prepared,
            &params,
            &mut hashed,
            &params.budget().start(&ctl),
        );
        assert!(dense.0.len() > 100, "{} patterns", dense.0.len());
        assert_eq!(dense.0, hashed.0);
        assert_eq!(
            (s1.nodes_visited, s1.non_minimal),
            (s2.nodes_visited, s2.non_minimal)
        );
    }

    #[test]
    fn infrequent_edges_are_dropped_before_mining() {
        let db = random_db();
        let all = Prepared::new(&db, 1).unwrap();
        let some = Prepared::new(&db, 20).unwrap();
        assert_eq!(all.adj.len(), 2 * db.edges().len());
        assert!(some.adj.len() < all.adj.len());
        assert!(some.pairs.windows(2).all(|w| w[0] < w[1]));
        for v in 0..some.n_vertices() as u32 {
            let nb = some.nbrs(v);
            assert!(nb.windows(2).all(|w| w[0].pair <= w[1].pair));
            assert!(
                nb.iter()
                    .all(|a| some.pairs[a.pair as usize] == (a.elabel, a.to_label))
            );
        }
    }
}
