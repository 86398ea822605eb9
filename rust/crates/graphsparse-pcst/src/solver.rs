//! The event-driven Goemans–Williamson growth phase and the four pruning modes.
//!
//! Notation map (spec §A.3–A.8 → fields):
//! `D` → `deact`, `E` → `next_edge`, cluster fields → the `Vec`s of [`Clusters`],
//! edge-part targets τ → `EdgeState::tau`, `L1` → `merges`, inactive-merge records → `records`,
//! `L2` → `kept`. Every floating-point expression is written in the reference's evaluation
//! order (left to right, no FMA), which is what makes the output bit-identical.

use graphsparse_base::check_len;
use graphsparse_graph::WeightedGraph;

use crate::error::{PcstError, Result};
use crate::pairing_heap::{NIL, PairingArena};
use crate::queue::IndexedQueue;
use crate::{PcstSolution, PcstValidParams, Pruning};

/// Stall guard. In exact arithmetic an edge has at most one growth event between two
/// merges or deactivations (the next one finds it fully covered), so more than
/// `STALL_FACTOR * m + STALL_SLACK` growth events in a row only happen when an edge's
/// remainder is below the floating-point resolution of the current time (for example
/// subnormal costs, costs ~1e-10 times the prizes, or `eps = 0`). `pcst_fast` then loops
/// forever on the same event; here the guard switches on a rescue rule that also merges
/// edges whose remainder is within `RESCUE_TOLERANCE` (relative) of zero. Runs that never
/// trip the guard are unaffected, and so stay identical to `pcst_fast`. The rescue rule
/// also merges edges whose growth would not move the event time (`t + rem / 2 == t`).
const STALL_FACTOR: usize = 4;
const STALL_SLACK: usize = 64;
const RESCUE_TOLERANCE: f64 = 16.0 * f64::EPSILON;

/// The stall guard of the growth phase: growth events since the last merge or deactivation,
/// and whether the rescue rule is on (it stays on once the count passed the limit).
struct Stall {
    limit: usize,
    events: usize,
    rescue: bool,
}

impl Stall {
    fn new(m: usize) -> Self {
        Self {
            limit: STALL_FACTOR * m + STALL_SLACK,
            events: 0,
            rescue: false,
        }
    }

    /// Counts a growth event (an edge not covered by the plain rule); true when the rescue
    /// rule is on.
    #[inline]
    fn growth(&mut self) -> bool {
        self.events += 1;
        self.rescue |= self.events > self.limit;
        self.rescue
    }

    /// A merge or a deactivation.
    #[inline]
    fn reset(&mut self) {
        self.events = 0;
    }
}

/// Largest node or edge count: cluster ids (< 2n) and edge-part ids (< 2m) must fit in `u32`.
const MAX_SIZE: usize = (u32::MAX / 2 - 1) as usize;

/// Per-cluster state that [`PcstSolver::sum`] walks (parent, skip pointer, moats) plus the
/// start time read for the top cluster: one aligned 32-byte record, so a walk step costs one
/// cache line instead of one per field.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct Hot {
    skipsum: f64,
    moat: f64,
    start: f64,
    parent: u32,
    skip: u32,
}

/// Cluster state; ids `0..n` are the singletons, merges append.
#[derive(Clone, Debug, Default)]
struct Clusters {
    hot: Vec<Hot>,
    active: Vec<bool>,
    /// Root of the cluster's pairing heap of edge parts.
    heap: Vec<u32>,
    end: Vec<f64>,
    prize: Vec<f64>,
    submoat: Vec<f64>,
    child1: Vec<u32>,
    child2: Vec<u32>,
    has_root: Vec<bool>,
    necessary: Vec<bool>,
}

impl Clusters {
    fn clear(&mut self, capacity: usize) {
        macro_rules! each {
            ($($f:ident),*) => {$( self.$f.clear(); self.$f.reserve(capacity); )*};
        }
        each!(
            hot, active, heap, end, prize, submoat, child1, child2, has_root, necessary
        );
    }

    fn len(&self) -> usize {
        self.hot.len()
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn push(
        &mut self,
        active: bool,
        has_root: bool,
        end: f64,
        prize: f64,
        submoat: f64,
        child1: u32,
        child2: u32,
    ) -> u32 {
        let id = self.hot.len() as u32;
        self.hot.push(Hot {
            skipsum: 0.0,
            moat: 0.0,
            start: 0.0,
            parent: NIL,
            skip: NIL,
        });
        self.active.push(active);
        self.heap.push(NIL);
        self.has_root.push(has_root);
        self.necessary.push(false);
        self.end.push(end);
        self.prize.push(prize);
        self.submoat.push(submoat);
        self.child1.push(child1);
        self.child2.push(child2);
        id
    }
}

/// Per-edge state, one 32-byte record: cost, the two parts' targets τ, and their endpoints.
/// Part `q` is side `q & 1` of edge `q / 2`; its "deleted" flag lives in its heap node
/// ([`PairingArena::tag`]), where the pop that checks it has just loaded it.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct EdgeState {
    cost: f64,
    tau: [f64; 2],
    ends: [u32; 2],
}

/// A reusable PCST solver: keeps every buffer (heap arena, queues, cluster state, pruning
/// scratch) between calls, so repeated solves on graphs of similar size allocate nothing.
///
/// # Example
/// ```
/// use graphsparse_graph::{EdgeRules, WeightedGraph};
/// use graphsparse_pcst::{PcstSolution, PcstSolver, PcstValidParams};
/// let graph = WeightedGraph::from_edges(
///     4, &[[0usize, 1], [1, 2], [2, 3]], Some(&[1.0, 1.0, 1.0]), EdgeRules::MULTIGRAPH,
/// )?;
/// let mut solver = PcstSolver::new();
/// let mut out = PcstSolution::default();
/// for prizes in [[5.0, 0.0, 0.0, 5.0], [0.1, 0.0, 0.0, 5.0]] {
///     solver.solve_into(&graph, &prizes, &PcstValidParams::default(), &mut out)?;
/// }
/// assert_eq!(out.nodes, vec![3]);
/// # Ok::<(), graphsparse_pcst::PcstError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct PcstSolver {
    arena: PairingArena,
    deact: IndexedQueue,
    next_edge: IndexedQueue,
    cl: Clusters,
    edges: Vec<EdgeState>,
    merges: Vec<u32>,
    /// Inactive-merge record of each edge, or `NIL`.
    edge_record: Vec<u32>,
    /// `(active cluster, inactive cluster, active-side node, inactive-side node)`.
    records: Vec<[u32; 4]>,
    visited: Vec<(u32, f64)>,
    // pruning scratch
    good: Vec<bool>,
    listed: Vec<bool>,
    node_deleted: Vec<bool>,
    kept: Vec<u32>,
    adj_ptr: Vec<u32>,
    adj: Vec<(u32, f64)>,
    stack: Vec<u32>,
    bfs: Vec<u32>,
    comp: Vec<u32>,
    comp_ptr: Vec<u32>,
    comp_nodes: Vec<u32>,
    pay: Vec<f64>,
    dfs_parent: Vec<(u32, f64)>,
    dfs_stack: Vec<(bool, u32)>,
}

/// Checks that every prize is finite and `>= 0` (in index order) and returns their sum.
pub(crate) fn check_prizes(prizes: &[f64]) -> Result<f64> {
    let mut total = 0.0;
    for (index, &value) in prizes.iter().enumerate() {
        if !value.is_finite() {
            return Err(PcstError::NonFinitePrize { index, value });
        }
        if value < 0.0 {
            return Err(PcstError::NegativePrize { index, value });
        }
        total += value;
    }
    Ok(total)
}

impl PcstSolver {
    /// A solver with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Solves and returns a fresh [`PcstSolution`]; see [`solve_into`](Self::solve_into).
    ///
    /// # Errors
    /// As [`solve_into`](Self::solve_into).
    pub fn solve(
        &mut self,
        graph: &WeightedGraph,
        prizes: &[f64],
        params: &PcstValidParams,
    ) -> Result<PcstSolution> {
        let mut out = PcstSolution::default();
        self.solve_into(graph, prizes, params, &mut out)?;
        Ok(out)
    }

    /// Solves the prize-collecting Steiner forest problem on `graph` (its weights are the edge
    /// costs), writing into `out` (its vectors are cleared and reused).
    ///
    /// # Arguments
    /// * `graph` — `m` undirected edges over nodes `0..n` with costs `>= 0`; build it with
    ///   [`EdgeRules::MULTIGRAPH`](graphsparse_graph::EdgeRules::MULTIGRAPH) for `pcst_fast`'s
    ///   input (self-loops and parallel edges kept; a self-loop is never output).
    /// * `prizes` — `n` node prizes, finite and `>= 0`.
    /// * `params` — root, number of trees, pruning and merge tolerance.
    ///
    /// # Returns
    /// `out.nodes` and `out.edges` exactly as `pcst_fast` returns them (same order); edge ids
    /// index [`WeightedGraph::edges`].
    ///
    /// # Errors
    /// [`PcstError`] for prizes of the wrong length, negative or non-finite prizes (in index
    /// order), a root out of range, or inputs too large.
    ///
    /// # Complexity
    /// O((n + m) log n) expected time; O(n + m) memory, all of it kept for the next call.
    pub fn solve_into(
        &mut self,
        graph: &WeightedGraph,
        prizes: &[f64],
        params: &PcstValidParams,
        out: &mut PcstSolution,
    ) -> Result<()> {
        self.solve_scaled_into(graph, prizes, 1.0, params, out)
    }

    /// [`solve_into`](Self::solve_into) with every edge cost multiplied by `cost_scale`
    /// (`λ c_e`, as the head/tail projections' binary search over `λ` asks): no copy of the
    /// graph per run.
    ///
    /// # Errors
    /// As [`solve_into`](Self::solve_into); [`PcstError::Overflow`] also when a scaled cost
    /// is not finite.
    ///
    /// # Complexity
    /// As [`solve_into`](Self::solve_into).
    pub fn solve_scaled_into(
        &mut self,
        graph: &WeightedGraph,
        prizes: &[f64],
        cost_scale: f64,
        params: &PcstValidParams,
        out: &mut PcstSolution,
    ) -> Result<()> {
        out.nodes.clear();
        out.edges.clear();
        self.validate(graph, prizes, cost_scale, params)?;
        if let Some(last) = self.lone_survivor(prizes, params) {
            out.nodes.push(last);
            return Ok(());
        }
        self.grow(prizes, params);
        self.mark_good(prizes.len(), params.root());
        match params.pruning() {
            Pruning::None => self.prune_none(prizes.len(), out),
            Pruning::Simple => {
                self.select_kept();
                self.output(prizes.len(), out);
                out.edges.extend(self.kept.iter().map(|&e| e as usize));
            }
            Pruning::Gw => {
                self.select_kept();
                self.build_adjacency(prizes.len());
                self.prune_gw(out);
                self.output(prizes.len(), out);
            }
            Pruning::Strong => {
                self.select_kept();
                self.build_adjacency(prizes.len());
                self.prune_strong(prizes, params.root());
                self.output(prizes.len(), out);
                for &e in &self.kept {
                    let [u, v] = self.ends(e as usize);
                    if !self.node_deleted[u as usize] && !self.node_deleted[v as usize] {
                        out.edges.push(e as usize);
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks the input (prizes first) and fills the edge records with the scaled costs.
    fn validate(
        &mut self,
        graph: &WeightedGraph,
        prizes: &[f64],
        cost_scale: f64,
        params: &PcstValidParams,
    ) -> Result<()> {
        let n = graph.n_vertices();
        check_len("prizes", prizes.len(), n)?;
        if n > MAX_SIZE {
            return Err(PcstError::TooLarge {
                what: "nodes",
                value: n,
                max: MAX_SIZE,
            });
        }
        if graph.n_edges() > MAX_SIZE {
            return Err(PcstError::TooLarge {
                what: "edges",
                value: graph.n_edges(),
                max: MAX_SIZE,
            });
        }
        if let Some(root) = params.root()
            && root >= n
        {
            return Err(PcstError::RootOutOfRange { root, n_nodes: n });
        }
        let mut total = check_prizes(prizes)?;
        self.edges.clear();
        self.edges.reserve(graph.n_edges());
        for (&ends, &w) in graph.edges().iter().zip(graph.weights()) {
            let cost = cost_scale * w;
            total += cost;
            self.edges.push(EdgeState {
                cost,
                tau: [0.0; 2],
                ends,
            });
        }
        if !(total * 4.0).is_finite() {
            return Err(PcstError::Overflow { total });
        }
        Ok(())
    }

    /// The output, found without the growth phase, of an unrooted one-tree run whose every
    /// edge costs at least twice the largest prize (the first run of a tail projection's
    /// search, at `λ = 2·max π` on unit costs): the node with the largest prize, the last
    /// one on ties, alone.
    ///
    /// Why it is the growth phase's result: every cluster starts active, so each edge part's
    /// first event is at `c_e / 2`, no earlier than the largest deactivation time `max π`;
    /// the loop takes a deactivation whenever its time is not above the next edge event's
    /// (ties go to the deactivation), and a deactivation creates no edge event, so the
    /// singletons deactivate in `(prize, index)` order, with no merge, until one is left
    /// active. That one is the only good node, there is no merge edge to prune, and every
    /// pruning mode outputs it alone (as `pcst_fast` does; the PCST tests compare).
    fn lone_survivor(&self, prizes: &[f64], params: &PcstValidParams) -> Option<usize> {
        if params.root().is_some() || params.num_clusters() != 1 {
            return None;
        }
        let (mut last, mut top) = (None, f64::NEG_INFINITY);
        for (i, &p) in prizes.iter().enumerate() {
            // `>=`: the last of the nodes with the largest prize is deactivated last
            if p >= top {
                (last, top) = (Some(i), p);
            }
        }
        self.edges
            .iter()
            .all(|e| e.cost / 2.0 >= top)
            .then_some(last)
            .flatten()
    }

    /// The endpoints of edge `e`.
    #[inline]
    fn ends(&self, e: usize) -> [u32; 2] {
        self.edges[e].ends
    }

    /// Marks edge part `q` (live in some heap) deleted: it is skipped when popped.
    #[inline]
    fn delete_part(&mut self, q: u32) {
        self.arena.tag(q);
    }

    #[inline]
    fn tau(&mut self, q: u32) -> &mut f64 {
        &mut self.edges[(q / 2) as usize].tau[(q & 1) as usize]
    }

    /// Coverage of an edge part from its endpoint `x` (whose cluster record `hx` the caller
    /// has loaded): the total `S`, the part from finished moats only `Fin`, and the top
    /// cluster; compresses the paths it walks (spec §A.7).
    #[inline]
    fn sum(&mut self, mut x: u32, hx: Hot, t: f64) -> (f64, f64, u32) {
        let hot = &mut self.cl.hot;
        let mut acc = 0.0;
        self.visited.clear();
        let mut h = hx;
        while h.parent != NIL {
            self.visited.push((x, acc));
            if h.skip != NIL {
                acc += h.skipsum;
                x = h.skip;
            } else {
                acc += h.moat;
                x = h.parent;
            }
            h = hot[x as usize];
        }
        for &(y, a) in &self.visited {
            let hy = &mut hot[y as usize];
            hy.skip = x;
            hy.skipsum = acc - a;
        }
        if self.cl.active[x as usize] {
            (acc + (t - h.start), acc, x)
        } else {
            let s = acc + h.moat;
            (s, s, x)
        }
    }

    /// Re-keys cluster `c` in the edge-event queue after its heap changed.
    #[inline]
    fn refresh_next_edge(&mut self, c: u32) {
        let h = self.cl.heap[c as usize];
        if h == NIL {
            self.next_edge.remove(c);
        } else {
            self.next_edge.set(c, self.arena.min_key(h));
        }
    }

    /// The growth phase (spec §A.5–A.6).
    fn grow(&mut self, prizes: &[f64], params: &PcstValidParams) {
        let n = prizes.len();
        let root = params.root().map_or(NIL, |r| r as u32);
        let target = if params.root().is_some() {
            0
        } else {
            params.num_clusters()
        };
        let eps = params.eps();
        self.start_growth(prizes, root);
        let mut n_active = n - usize::from(params.root().is_some());
        let mut stall = Stall::new(self.edges.len());
        while n_active > target {
            let (t_e, c_e) = self.next_edge.min().unwrap_or((f64::INFINITY, NIL));
            let Some((t_d, c_d)) = self.deact.min() else {
                break; // unreachable with finite input: every active cluster is in `deact`
            };
            if t_e < t_d {
                self.edge_event(t_e, c_e, eps, &mut stall, &mut n_active);
            } else {
                stall.reset();
                self.deactivate(t_d, c_d);
                n_active -= 1;
            }
        }
    }

    /// The state at time 0: one active cluster per vertex (the root inactive, no
    /// deactivation), each edge split into two parts by the activity of its endpoints, the
    /// parts in their endpoints' heaps and the clusters with edges in the edge-event queue.
    fn start_growth(&mut self, prizes: &[f64], root: u32) {
        let n = prizes.len();
        let m = self.edges.len();
        self.arena.reset(2 * m);
        self.deact.reset(2 * n);
        self.next_edge.reset(2 * n);
        self.cl.clear(2 * n);
        self.merges.clear();
        self.edge_record.clear();
        self.edge_record.resize(m, NIL);
        self.records.clear();

        for (i, &p) in prizes.iter().enumerate() {
            let is_root = i as u32 == root;
            let end = if is_root { 0.0 } else { -1.0 };
            self.cl.push(!is_root, is_root, end, p, 0.0, NIL, NIL);
            if !is_root {
                self.deact.set(i as u32, p);
            }
        }
        for e in 0..m {
            let EdgeState {
                cost: c,
                ends: [u, v],
                ..
            } = self.edges[e];
            let (au, av) = (self.cl.active[u as usize], self.cl.active[v as usize]);
            let tau = match (au, av) {
                (true, true) => [c / 2.0, c / 2.0],
                (true, false) => [c, 0.0],
                (false, true) => [0.0, c],
                (false, false) => [0.0, 0.0],
            };
            self.edges[e].tau = tau;
            let q = 2 * e as u32;
            self.arena.insert(&mut self.cl.heap[u as usize], q, tau[0]);
            self.arena
                .insert(&mut self.cl.heap[v as usize], q + 1, tau[1]);
        }
        for i in 0..n as u32 {
            let h = self.cl.heap[i as usize];
            if self.cl.active[i as usize] && h != NIL {
                self.next_edge.set(i, self.arena.min_key(h));
            }
        }
    }

    /// The edge event at time `t` of active cluster `c_e`: its first edge part is popped
    /// and, unless deleted or inside one cluster, either merges the two clusters (the edge
    /// is covered) or is split again by the growth still needed from each side.
    #[inline]
    fn edge_event(&mut self, t: f64, c_e: u32, eps: f64, stall: &mut Stall, n_active: &mut usize) {
        // Loads are issued early so that their cache misses overlap with the heap
        // and queue work: the popped part's edge record before the pop, its
        // endpoints' cluster records before the edge-queue update.
        let heap = &mut self.cl.heap[c_e as usize];
        let (_, q) = self
            .arena
            .min(*heap)
            .expect("invariant: queued heaps are non-empty");
        let edge = self.edges[(q / 2) as usize];
        let (_, _, deleted) = self.arena.pop_min_tagged(heap).expect("checked above");
        if deleted {
            self.refresh_next_edge(c_e);
            return;
        }
        let qp = q ^ 1;
        let e = (q / 2) as usize;
        let c = edge.cost;
        let (x, xp) = (edge.ends[(q & 1) as usize], edge.ends[(qp & 1) as usize]);
        let (hx, hxp) = (self.cl.hot[x as usize], self.cl.hot[xp as usize]);
        self.refresh_next_edge(c_e);
        let (s, _fin, cc) = self.sum(x, hx, t);
        // a self-loop's second walk must see the first one's path compression
        let hxp = if xp == x {
            self.cl.hot[x as usize]
        } else {
            hxp
        };
        let (sp, finp, o) = self.sum(xp, hxp, t);
        let rem = (c - s) - sp;
        if cc == o {
            self.delete_part(qp);
            return;
        }
        let covered = rem < eps * c
            || rem == 0.0
            || (stall.growth()
                && (t + rem / 2.0 == t || rem <= RESCUE_TOLERANCE * t.max(c).max(s).max(sp)));
        if covered {
            stall.reset();
            self.merge(e, q, cc, o, t + rem, n_active);
        } else if self.cl.active[o as usize] {
            let tn = t + rem / 2.0;
            *self.tau(q) = s + rem / 2.0;
            self.arena.insert(&mut self.cl.heap[cc as usize], q, tn);
            self.refresh_next_edge(cc);
            let from = (self.cl.hot[o as usize].start + *self.tau(qp)) - finp;
            self.arena
                .set_key(&mut self.cl.heap[o as usize], qp, from, tn);
            self.refresh_next_edge(o);
            *self.tau(qp) = sp + rem / 2.0;
        } else {
            let tn = t + rem;
            *self.tau(q) = c - finp;
            self.arena.insert(&mut self.cl.heap[cc as usize], q, tn);
            self.refresh_next_edge(cc);
            let end_o = self.cl.end[o as usize];
            let from = (end_o + *self.tau(qp)) - finp;
            self.arena
                .set_key(&mut self.cl.heap[o as usize], qp, from, end_o);
            *self.tau(qp) = finp;
        }
    }

    /// Cluster `c_d` runs out of prize at time `t`: it stops growing (its moat is final).
    #[inline]
    fn deactivate(&mut self, t: f64, c_d: u32) {
        self.deact.pop_min();
        let h = &mut self.cl.hot[c_d as usize];
        self.cl.active[c_d as usize] = false;
        self.cl.end[c_d as usize] = t;
        h.moat = self.cl.end[c_d as usize] - h.start;
        self.next_edge.remove(c_d);
    }

    /// Merges along edge `e` (part `q` of active cluster `cc` reached cluster `o`) at time
    /// `tm = t + rem`: records the edge, stops `cc` (and `o` when active), shifts and records
    /// an inactive non-root `o`, and starts the new cluster unless it holds the root.
    #[inline]
    fn merge(&mut self, e: usize, q: u32, cc: u32, o: u32, tm: f64, n_active: &mut usize) {
        self.merges.push(e as u32);
        self.delete_part(q ^ 1);
        let (ci, oi) = (cc as usize, o as usize);
        let has_root = self.cl.has_root[ci] || self.cl.has_root[oi];
        let prize = self.cl.prize[ci] + self.cl.prize[oi];
        let submoat = self.cl.submoat[ci] + self.cl.submoat[oi];
        let new = self
            .cl
            .push(!has_root, has_root, 0.0, prize, submoat, cc, o);
        let ni = new as usize;
        let cl = &mut self.cl;
        cl.active[ci] = false;
        cl.end[ci] = tm;
        cl.hot[ci].parent = new;
        cl.hot[ci].moat = cl.end[ci] - cl.hot[ci].start;
        self.deact.remove(cc);
        self.next_edge.remove(cc);
        *n_active -= 1;
        if cl.active[oi] {
            cl.active[oi] = false;
            cl.end[oi] = tm;
            cl.hot[oi].moat = cl.end[oi] - cl.hot[oi].start;
            self.deact.remove(o);
            self.next_edge.remove(o);
            *n_active -= 1;
        } else if !cl.has_root[oi] {
            self.arena.add_all(cl.heap[oi], tm - cl.end[oi]);
            self.edge_record[e] = self.records.len() as u32;
            let [a, b] = [q, q ^ 1].map(|p| self.edges[e].ends[(p & 1) as usize]);
            self.records.push([cc, o, a, b]);
        }
        cl.hot[oi].parent = new;
        cl.heap[ni] = self.arena.meld(cl.heap[ci], cl.heap[oi]);
        cl.heap[ci] = NIL;
        cl.heap[oi] = NIL;
        cl.submoat[ni] += cl.hot[ci].moat;
        cl.submoat[ni] += cl.hot[oi].moat;
        if cl.active[ni] {
            cl.hot[ni].start = tm;
            self.deact.set(new, (tm + cl.prize[ni]) - cl.submoat[ni]);
            self.refresh_next_edge(new);
            *n_active += 1;
        }
    }

    /// Marks the good nodes: those of the root's top cluster, or of every active cluster.
    fn mark_good(&mut self, n: usize, root: Option<usize>) {
        self.good.clear();
        self.good.resize(n, false);
        self.stack.clear();
        match root {
            Some(_) => {
                if let Some(c) = (0..self.cl.len())
                    .find(|&c| self.cl.has_root[c] && self.cl.hot[c].parent == NIL)
                {
                    self.stack.push(c as u32);
                }
            }
            None => self
                .stack
                .extend((0..self.cl.len() as u32).filter(|&c| self.cl.active[c as usize])),
        }
        while let Some(c) = self.stack.pop() {
            if (c as usize) < n {
                self.good[c as usize] = true;
            } else {
                self.stack.push(self.cl.child1[c as usize]);
                self.stack.push(self.cl.child2[c as usize]);
            }
        }
    }

    /// `none`: every merge edge; their endpoints in merge order, then the remaining good nodes.
    fn prune_none(&mut self, n: usize, out: &mut PcstSolution) {
        self.listed.clear();
        self.listed.resize(n, false);
        for &e in &self.merges {
            out.edges.push(e as usize);
            for x in self.ends(e as usize) {
                if !self.listed[x as usize] {
                    self.listed[x as usize] = true;
                    out.nodes.push(x as usize);
                }
            }
        }
        for i in 0..n {
            if self.good[i] && !self.listed[i] {
                out.nodes.push(i);
            }
        }
    }

    /// `L2`: the merge edges with both endpoints good, in merge order; resets `node_deleted`.
    fn select_kept(&mut self) {
        self.kept.clear();
        for &e in &self.merges {
            let [u, v] = self.ends(e as usize);
            if self.good[u as usize] && self.good[v as usize] {
                self.kept.push(e);
            }
        }
        self.node_deleted.clear();
        self.node_deleted.resize(self.good.len(), false);
    }

    /// Output nodes: good and not deleted, ascending.
    fn output(&self, n: usize, out: &mut PcstSolution) {
        out.nodes
            .extend((0..n).filter(|&i| self.good[i] && !self.node_deleted[i]));
    }

    /// Adjacency lists of the `L2` forest, in CSR form with the reference's neighbour order.
    fn build_adjacency(&mut self, n: usize) {
        self.adj_ptr.clear();
        self.adj_ptr.resize(n + 1, 0);
        for &e in &self.kept {
            for x in self.ends(e as usize) {
                self.adj_ptr[x as usize + 1] += 1;
            }
        }
        for i in 0..n {
            self.adj_ptr[i + 1] += self.adj_ptr[i];
        }
        self.adj.clear();
        self.adj.resize(self.adj_ptr[n] as usize, (NIL, 0.0));
        // `stack` doubles as the fill cursor
        self.stack.clear();
        self.stack.extend_from_slice(&self.adj_ptr[..n]);
        for &e in &self.kept {
            let [u, v] = self.ends(e as usize);
            let c = self.edges[e as usize].cost;
            self.adj[self.stack[u as usize] as usize] = (v, c);
            self.stack[u as usize] += 1;
            self.adj[self.stack[v as usize] as usize] = (u, c);
            self.stack[v as usize] += 1;
        }
    }

    #[inline]
    fn neighbours(&self, x: u32) -> std::ops::Range<usize> {
        self.adj_ptr[x as usize] as usize..self.adj_ptr[x as usize + 1] as usize
    }

    /// Deletes `a` and everything reachable from it in the `L2` forest without entering `b`.
    fn delete_side(&mut self, a: u32, b: u32) {
        self.node_deleted[a as usize] = true;
        self.bfs.clear();
        self.bfs.push(a);
        let mut head = 0;
        while head < self.bfs.len() {
            let x = self.bfs[head];
            head += 1;
            for k in self.neighbours(x) {
                let y = self.adj[k].0;
                if y != b && !self.node_deleted[y as usize] {
                    self.node_deleted[y as usize] = true;
                    self.bfs.push(y);
                }
            }
        }
    }

    /// Marks cluster `x` and its ancestors necessary, up to the first already necessary one.
    fn mark_necessary(&mut self, mut x: u32) {
        while x != NIL && !self.cl.necessary[x as usize] {
            self.cl.necessary[x as usize] = true;
            x = self.cl.hot[x as usize].parent;
        }
    }

    /// `gw` pruning: reverse merge order, keeping edges whose inactive side is necessary.
    fn prune_gw(&mut self, out: &mut PcstSolution) {
        for i in (0..self.kept.len()).rev() {
            let e = self.kept[i] as usize;
            let [u, v] = self.ends(e);
            if self.node_deleted[u as usize] && self.node_deleted[v as usize] {
                continue;
            }
            let r = self.edge_record[e];
            if r == NIL {
                self.mark_necessary(u);
                self.mark_necessary(v);
                out.edges.push(e);
            } else {
                let [_, o, a, b] = self.records[r as usize];
                if self.cl.necessary[o as usize] {
                    out.edges.push(e);
                    self.mark_necessary(b);
                    self.mark_necessary(a);
                } else {
                    self.delete_side(b, a);
                }
            }
        }
    }

    /// `strong` pruning: per component of the `L2` forest, the best subtree (rooted at the
    /// root, or at the best root found by rerooting).
    fn prune_strong(&mut self, prizes: &[f64], root: Option<usize>) {
        let n = prizes.len();
        self.comp.clear();
        self.comp.resize(n, NIL);
        self.comp_ptr.clear();
        self.comp_ptr.push(0);
        self.comp_nodes.clear();
        let mut root_comp = NIL;
        for i in 0..self.kept.len() {
            let u = self.ends(self.kept[i] as usize)[0];
            if self.comp[u as usize] != NIL {
                continue;
            }
            let k = self.comp_ptr.len() as u32 - 1;
            let first = self.comp_nodes.len();
            self.comp[u as usize] = k;
            self.comp_nodes.push(u);
            let mut head = first;
            while head < self.comp_nodes.len() {
                let x = self.comp_nodes[head];
                head += 1;
                if root == Some(x as usize) {
                    root_comp = k;
                }
                for j in self.neighbours(x) {
                    let y = self.adj[j].0;
                    if self.comp[y as usize] == NIL {
                        self.comp[y as usize] = k;
                        self.comp_nodes.push(y);
                    }
                }
            }
            self.comp_ptr.push(self.comp_nodes.len() as u32);
        }
        self.pay.clear();
        self.pay.resize(n, 0.0);
        self.dfs_parent.clear();
        self.dfs_parent.resize(n, (NIL, 0.0));
        for k in 0..self.comp_ptr.len() - 1 {
            let s = if k as u32 == root_comp {
                root.expect("invariant: a root component exists only when rooted") as u32
            } else {
                self.best_root(k, prizes)
            };
            self.prune_from(s, true, prizes);
        }
    }

    /// Post-order "payoff" DFS from `s`: `pay[x]` = prize of `x` plus the positive net payoffs
    /// of its subtrees; with `delete`, subtrees that do not pay for their edge are deleted.
    fn prune_from(&mut self, s: u32, delete: bool, prizes: &[f64]) {
        self.dfs_parent[s as usize] = (NIL, 0.0);
        self.dfs_stack.clear();
        self.dfs_stack.push((true, s));
        while let Some((enter, x)) = self.dfs_stack.pop() {
            let p = self.dfs_parent[x as usize].0;
            if enter {
                self.dfs_stack.push((false, x));
                for j in self.neighbours(x) {
                    let (y, c) = self.adj[j];
                    if y != p {
                        self.dfs_parent[y as usize] = (x, c);
                        self.dfs_stack.push((true, y));
                    }
                }
            } else {
                self.pay[x as usize] = prizes[x as usize];
                for j in self.neighbours(x) {
                    let (y, c) = self.adj[j];
                    if y == p {
                        continue;
                    }
                    let v = self.pay[y as usize] - c;
                    if v <= 0.0 {
                        if delete {
                            self.delete_side(y, x);
                        }
                    } else {
                        self.pay[x as usize] += v;
                    }
                }
            }
        }
    }

    /// The node of component `k` whose rooted payoff is largest (first found on ties).
    fn best_root(&mut self, k: usize, prizes: &[f64]) -> u32 {
        let mut b = self.comp_nodes[self.comp_ptr[k] as usize];
        self.prune_from(b, false, prizes);
        let mut best = self.pay[b as usize];
        self.stack.clear();
        for j in self.neighbours(b) {
            self.stack.push(self.adj[j].0);
        }
        while let Some(x) = self.stack.pop() {
            let (p, c) = self.dfs_parent[x as usize];
            let mut w = self.pay[p as usize];
            if self.pay[x as usize] - c > 0.0 {
                w -= self.pay[x as usize] - c;
            }
            if w > c {
                self.pay[x as usize] += w - c;
            }
            if self.pay[x as usize] > best {
                b = x;
                best = self.pay[x as usize];
            }
            for j in self.neighbours(x) {
                let y = self.adj[j].0;
                if y != p {
                    self.stack.push(y);
                }
            }
        }
        b
    }
}
