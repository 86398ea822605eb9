//! Stored embeddings of one tree node, and traversals that resume below such a node.
//!
//! A traversal keeps one frontier of embeddings per depth and reuses it for the next sibling,
//! so a node that was pruned cannot be expanded later without walking down to it again (every
//! ancestor re-embedded). A caller that expects to come back to a node (a search that caches
//! the visited tree) can copy its embeddings with [`Node::embeddings`] while the visitor sees
//! it, and later run [`mine_below`] from that copy: the subtree below
//! the node is visited exactly as a full traversal would visit it, with no work above it.

use std::sync::Mutex;

use graphsparse_base::Meter;
use graphsparse_graph::GraphDatabase;

use crate::code::DfsCode;
use crate::embed::{Base, Emb};
use crate::error::{GspanError, Result};
use crate::miner::{Mode, ParallelMode, SerialMode, Shared, Worker};
use crate::params::MinerValidParams;
use crate::prepared::Prepared;
use crate::visit::{MiningStats, Node, ParallelVisitor, Visitor};

/// The embeddings of one node of the gSpan tree, detached from the traversal that found them
/// (from [`Node::embeddings`]).
///
/// A node of code length `d` keeps its own embeddings and, for each ancestor level, only the
/// ancestor embeddings they extend (8 bytes each, re-indexed): at most `d` times its own count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embeddings {
    code: DfsCode,
    /// All levels, shallowest first; level `t` is `embs[starts[t]..starts[t + 1]]`.
    embs: Vec<Emb>,
    starts: Vec<u32>,
    gids: Vec<u32>,
    /// `(graphs, vertices)` of the database it was found in.
    shape: (usize, usize),
}

impl Embeddings {
    /// The node's minimum DFS code.
    ///
    /// # Complexity
    /// O(1).
    pub fn code(&self) -> &DfsCode {
        &self.code
    }

    /// The graphs containing the node's pattern, sorted.
    ///
    /// # Complexity
    /// O(1).
    pub fn graph_ids(&self) -> &[u32] {
        &self.gids
    }

    /// Number of embeddings of the node itself (its last level).
    ///
    /// # Complexity
    /// O(1).
    pub fn len(&self) -> usize {
        self.level(self.code.len() - 1).len()
    }

    /// Always false: a node has at least one embedding.
    ///
    /// # Complexity
    /// O(1).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes this value occupies, its own size and every heap buffer it holds (by capacity).
    ///
    /// # Complexity
    /// O(1).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.code.len() * std::mem::size_of::<crate::DfsEdge>()
            + self.embs.capacity() * std::mem::size_of::<Emb>()
            + self.starts.capacity() * 4
            + self.gids.capacity() * 4
    }

    fn level(&self, t: usize) -> &[Emb] {
        &self.embs[self.starts[t] as usize..self.starts[t + 1] as usize]
    }

    /// Where each level starts in [`Embeddings::pairs`]: `code().len() + 1` offsets, the
    /// first 0 and the last the number of stored embeddings.
    ///
    /// # Complexity
    /// O(1).
    pub fn level_starts(&self) -> &[u32] {
        &self.starts
    }

    /// Every stored embedding, level after level, as `[prev, v]`: at level 0 the data
    /// vertices of DFS indices 0 and 1; deeper, the index of the parent level's embedding it
    /// extends and the data vertex its last edge reaches.
    ///
    /// # Complexity
    /// O(stored embeddings) as the iterator runs.
    pub fn pairs(&self) -> impl ExactSizeIterator<Item = [u32; 2]> + '_ {
        self.embs.iter().map(|e| [e.prev, e.v])
    }

    /// Rebuilds embeddings from the parts [`Embeddings::code`], [`Embeddings::pairs`] (flat:
    /// `prev, v, prev, v, ...`), [`Embeddings::level_starts`] and [`Embeddings::graph_ids`]
    /// gave (a copy kept outside the process, say), checked against the database of `index`.
    ///
    /// # Errors
    /// [`GspanError::Mismatch`] when the parts are not the embeddings of `code` in that
    /// database: wrong level count, an index out of range, graph ids that are not those of
    /// the embeddings.
    ///
    /// # Complexity
    /// O(`d · e`) for `e` embeddings of a code of length `d`.
    pub fn from_parts(
        index: &MiningIndex,
        code: DfsCode,
        pairs: &[u32],
        starts: Vec<u32>,
        gids: Vec<u32>,
    ) -> Result<Self> {
        let mismatch = |what: &str| GspanError::Mismatch(what.to_string());
        let d = code.len();
        if d == 0 || starts.len() != d + 1 {
            return Err(mismatch(
                "a non-empty code needs one start per level and an end",
            ));
        }
        if pairs.len() % 2 != 0
            || starts[0] != 0
            || starts.windows(2).any(|w| w[0] >= w[1])
            || starts[d] as usize != pairs.len() / 2
        {
            return Err(mismatch(
                "level starts must rise from 0 to the number of pairs",
            ));
        }
        if gids.windows(2).any(|w| w[0] >= w[1]) {
            return Err(mismatch("graph ids must be increasing"));
        }
        let p = &index.prepared;
        let emb = Self {
            code,
            embs: pairs
                .chunks_exact(2)
                .map(|p| Emb {
                    prev: p[0],
                    v: p[1],
                })
                .collect(),
            starts,
            gids,
            shape: (p.n_graphs, p.n_vertices()),
        };
        check_structure(index, &emb)?;
        Ok(emb)
    }
}

impl Node<'_> {
    /// A copy of the node's embeddings from which [`mine_below`] can expand it later; `None`
    /// for single-vertex patterns (they are leaves).
    ///
    /// # Returns
    /// The node's own embeddings and the ancestor embeddings they extend (re-indexed), its code
    /// and graph ids.
    ///
    /// # Complexity
    /// O(`d · e`) time and memory for a node of code length `d` with `e` embeddings.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_graph::parse_gspan;
    /// use graphsparse_gspan::{
    ///     mine, Check, Embeddings, MinerParams, Node, ParallelVisitor, Visit, Visitor,
    /// };
    ///
    /// struct KeepFirst(Option<Embeddings>);
    /// impl Visitor for KeepFirst {
    ///     fn pre(&mut self, node: &Node<'_>) -> Visit {
    ///         self.0 = node.embeddings();
    ///         Visit::Prune // stop at the first one-edge pattern
    ///     }
    /// }
    /// impl ParallelVisitor for KeepFirst {
    ///     fn fork(&self) -> Self {
    ///         KeepFirst(None)
    ///     }
    ///     fn join(&mut self, child: Self) {
    ///         self.0 = self.0.take().or(child.0);
    ///     }
    /// }
    /// let db = parse_gspan("t # 0\nv 0 0\nv 1 0\nv 2 0\ne 0 1 0\ne 1 2 0\n", "<doc>").unwrap().db;
    /// let params = MinerParams::new().check().unwrap();
    /// let mut v = KeepFirst(None);
    /// mine(&db, &params, &mut v, &RunControl::new()).unwrap();
    /// let e = v.0.unwrap();
    /// assert_eq!((e.code().len(), e.len()), (1, 4)); // the edge 0-0, both ways round, twice
    /// ```
    pub fn embeddings(&self) -> Option<Embeddings> {
        let d = self.chain.depth();
        if self.vertex_label.is_some() || d == 0 || d != self.code.len() {
            return None;
        }
        // levels from the node upwards; each level keeps the parents its successor uses (the
        // `prev` of a level are nondecreasing: embeddings are generated scanning the parent's)
        let mut rev: Vec<Vec<Emb>> = Vec::with_capacity(d);
        rev.push(self.chain.get(d - 1).to_vec());
        for t in (1..d).rev() {
            let parent = self.chain.get(t - 1);
            let child = rev.last_mut().expect("invariant: one level pushed");
            let mut kept: Vec<Emb> = Vec::new();
            let mut last = u32::MAX;
            for e in child.iter_mut() {
                if e.prev != last {
                    debug_assert!(last == u32::MAX || e.prev > last, "prev must not decrease");
                    last = e.prev;
                    kept.push(parent[e.prev as usize]);
                }
                e.prev = (kept.len() - 1) as u32;
            }
            rev.push(kept);
        }
        let total: usize = rev.iter().map(Vec::len).sum();
        let mut embs = Vec::with_capacity(total);
        let mut starts = Vec::with_capacity(d + 1);
        starts.push(0u32);
        for level in rev.iter().rev() {
            embs.extend_from_slice(level);
            starts.push(embs.len() as u32);
        }
        Some(Embeddings {
            code: self.code.clone(),
            embs,
            starts,
            gids: self.graph_ids.to_vec(),
            shape: self.chain.shape(),
        })
    }
}

/// The database prepared for [`mine_below`]: built once, used by any number of resumed
/// traversals with the same `min_support`.
#[derive(Debug)]
pub struct MiningIndex {
    prepared: Prepared,
    min_support: usize,
    /// Workers of earlier traversals, reused (a fresh one allocates per-vertex marks).
    spare: Mutex<Vec<Worker>>,
}

impl MiningIndex {
    /// Prepares `db` for traversals with the parameters `params` (only their `min_support`
    /// matters here).
    ///
    /// # Errors
    /// [`GspanError::TooLarge`] for databases beyond the 32-bit embedding store.
    ///
    /// # Complexity
    /// O(vertices + edges) time and memory.
    pub fn new(db: &GraphDatabase, params: &MinerValidParams) -> Result<Self> {
        Ok(Self {
            prepared: Prepared::new(db, params.min_support())?,
            min_support: params.min_support(),
            spare: Mutex::new(Vec::new()),
        })
    }

    /// Bytes of the prepared database's heap buffers (by length; the scratch of idle workers
    /// kept for the next traversal is not counted).
    ///
    /// # Complexity
    /// O(1).
    pub fn bytes(&self) -> usize {
        self.prepared.bytes()
    }
}

/// Checks that `emb` indexes only into `index` (so no traversal from it can read out of range).
fn check(index: &MiningIndex, params: &MinerValidParams, emb: &Embeddings) -> Result<()> {
    if params.min_support() != index.min_support {
        return Err(GspanError::Mismatch(
            "the index was prepared for another min_support".to_string(),
        ));
    }
    check_structure(index, emb)
}

/// The part of [`check`] that does not depend on the parameters.
fn check_structure(index: &MiningIndex, emb: &Embeddings) -> Result<()> {
    let p = &index.prepared;
    let mismatch = |what: &str| GspanError::Mismatch(what.to_string());
    if emb.shape != (p.n_graphs, p.n_vertices()) {
        return Err(mismatch(
            "the embeddings come from another database than the index",
        ));
    }
    let d = emb.code.len();
    let nv = p.n_vertices() as u32;
    for t in 0..d {
        let below = if t == 0 {
            nv
        } else {
            emb.level(t - 1).len() as u32
        };
        if emb.level(t).iter().any(|e| e.prev >= below || e.v >= nv) {
            return Err(mismatch("the embeddings do not index into the database"));
        }
    }
    // the graph of each embedding (its first vertex) must be listed, in order, and every
    // listed graph must hold an embedding (the support is the number listed)
    let top = emb.level(d - 1);
    let mut pos = 0;
    let mut hit = usize::MAX;
    let mut n_hit = 0;
    for e in top {
        let mut i = e.prev;
        for t in (0..d - 1).rev() {
            i = emb.level(t)[i as usize].prev;
        }
        let g = p.vgraph[i as usize];
        while emb.gids.get(pos).is_some_and(|&x| x < g) {
            pos += 1;
        }
        if emb.gids.get(pos) != Some(&g) {
            return Err(mismatch("the embeddings do not match their graph ids"));
        }
        if pos != hit {
            (hit, n_hit) = (pos, n_hit + 1);
        }
    }
    if n_hit != emb.gids.len() {
        return Err(mismatch("a listed graph holds no embedding"));
    }
    Ok(())
}

fn below<V: Visitor, M: Mode<V>>(
    index: &MiningIndex,
    params: &MinerValidParams,
    emb: &Embeddings,
    visitor: &mut V,
    meter: &Meter<'_>,
) -> Result<MiningStats> {
    check(index, params, emb)?;
    Ok(below_checked::<V, M>(
        index, params, emb, visitor, meter, true,
    ))
}

/// [`below`] for embeddings already checked against `index` and `params`; `check_min: false`
/// visits non-minimal children too (see `Shared::without_min_check`).
pub(crate) fn below_checked<V: Visitor, M: Mode<V>>(
    index: &MiningIndex,
    params: &MinerValidParams,
    emb: &Embeddings,
    visitor: &mut V,
    meter: &Meter<'_>,
    check_min: bool,
) -> MiningStats {
    let (nodes_before, seconds_before) = (meter.nodes(), meter.elapsed());
    let mut sh = Shared::new(&index.prepared, params, meter, &index.spare);
    if !check_min {
        sh = sh.without_min_check();
    }
    let d = emb.code.len();
    if d < params.max_size().unwrap_or(usize::MAX) {
        let prefix: Vec<&[Emb]> = (0..d - 1).map(|t| emb.level(t)).collect();
        let base = Base {
            prefix: &prefix,
            top: Some(emb.level(d - 1)),
            top_gids: &emb.gids,
        };
        let mut w = sh.take_worker();
        w.code.clone_from(&emb.code);
        w.ensure_depth(d);
        w.expand::<V, M>(&sh, d, visitor, base);
        sh.give_back(w);
    }
    sh.stats(nodes_before, seconds_before)
}

/// Traverses the subtree below the node whose embeddings are `emb` (not the node itself),
/// calling `visitor` at every node exactly as [`crate::mine`] would below that node (in
/// parallel under the policy and split rule of `params`, as there).
///
/// # Arguments
/// * `index` – the database, prepared with [`MiningIndex::new`] for `params`.
/// * `params` – the parameters of the traversal that produced `emb`.
/// * `emb` – from [`Node::embeddings`] in a traversal of the same database.
/// * `visitor` – receives every node of the subtree.
/// * `meter` – the budget in force (see [`crate::mine_with_meter`]).
///
/// # Returns
/// Statistics of the subtree, with the truncation of `meter` when it stopped early.
///
/// # Errors
/// [`GspanError::Mismatch`] when `index` was prepared for another `min_support` or `emb`
/// does not come from the database of `index`.
///
/// # Complexity
/// As [`crate::mine`] for the subtree; checking `emb` costs O(its size · depth).
///
/// # Example
/// ```
/// use graphsparse_base::{Budget, RunControl};
/// use graphsparse_graph::parse_gspan;
/// use graphsparse_gspan::{
///     mine, mine_below, Check, Embeddings, MinerParams, MiningIndex, Node, ParallelVisitor,
///     Visit, Visitor,
/// };
///
/// /// Records the depths seen; keeps the first node's embeddings and prunes it.
/// struct Codes(Vec<usize>, Option<Embeddings>);
/// impl Visitor for Codes {
///     fn pre(&mut self, node: &Node<'_>) -> Visit {
///         self.0.push(node.depth());
///         if self.0.len() == 1 {
///             self.1 = node.embeddings();
///             return Visit::Prune;
///         }
///         Visit::Continue
///     }
/// }
/// impl ParallelVisitor for Codes {
///     fn fork(&self) -> Self {
///         Codes(Vec::new(), None)
///     }
///     fn join(&mut self, child: Self) {
///         self.0.extend(child.0);
///     }
/// }
/// let db = parse_gspan("t # 0\nv 0 0\nv 1 0\nv 2 0\ne 0 1 0\ne 1 2 0\ne 2 0 0\n", "<doc>")
///     .unwrap()
///     .db;
/// let params = MinerParams::new().check().unwrap();
/// let mut v = Codes(Vec::new(), None);
/// mine(&db, &params, &mut v, &RunControl::new()).unwrap();
/// assert_eq!(v.0, [1]); // the triangle's edge, pruned
/// let index = MiningIndex::new(&db, &params).unwrap();
/// let emb = v.1.take().unwrap();
/// let ctl = RunControl::new();
/// mine_below(&index, &params, &emb, &mut v, &Budget::UNLIMITED.start(&ctl)).unwrap();
/// assert_eq!(v.0, [1, 2, 3]); // the path and the triangle below it
/// ```
pub fn mine_below<V: ParallelVisitor>(
    index: &MiningIndex,
    params: &MinerValidParams,
    emb: &Embeddings,
    visitor: &mut V,
    meter: &Meter<'_>,
) -> Result<MiningStats> {
    if params.parallel().enabled() {
        below::<V, ParallelMode>(index, params, emb, visitor, meter)
    } else {
        below::<V, SerialMode>(index, params, emb, visitor, meter)
    }
}
