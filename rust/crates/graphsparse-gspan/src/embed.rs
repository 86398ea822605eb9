//! The embedding store of a traversal: compact embeddings, the per-depth arenas of a node's
//! children, and the chain of ancestor embeddings a [`Node`](crate::Node) borrows.
//!
//! A node of code length `d` has its embeddings in `levels[d - 1].children[cur[d - 1]].embs`;
//! each embedding is `(prev, v)`: the index of the parent node's embedding it extends and the
//! data vertex reached by the code's last edge (see the traversal engine in `miner`). Below a
//! parallel fork, the levels above a task's own are borrowed from the forking thread
//! ([`Base`]).

use std::collections::HashMap;

// a fast non-cryptographic hash for the extension map (keys are a few u32s; no DoS concern)
use rustc_hash::FxBuildHasher;

use crate::code::DfsEdge;

/// Embeddings whose parent chains are walked together (a multiple divides the traversal's
/// polling interval).
pub(crate) const WALK_BATCH: usize = 16;

/// One embedding: at depth 0, `prev` and `v` are the data vertices of DFS indices 0 and 1;
/// deeper, `prev` indexes the parent node's embedding and `v` is the data vertex reached by
/// the code's last edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Emb {
    pub(crate) prev: u32,
    pub(crate) v: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct Child {
    pub(crate) edge: DfsEdge,
    pub(crate) embs: Vec<Emb>,
    pub(crate) gids: Vec<u32>,
    pub(crate) counts: Vec<u32>,
    /// cannot reach the minimum support any more: embeddings are no longer stored
    dead: bool,
}

impl Default for Child {
    fn default() -> Self {
        Self {
            edge: DfsEdge::new(0, 0, 0, 0, 0),
            embs: Vec::new(),
            gids: Vec::new(),
            counts: Vec::new(),
            dead: false,
        }
    }
}

impl Child {
    fn clear(&mut self) {
        self.embs.clear();
        self.gids.clear();
        self.counts.clear();
    }

    /// Adds an embedding in graph `gid`, after which the parent occurs in `remaining` more
    /// graphs: a child that can no longer reach `min_support` stops storing embeddings.
    #[inline]
    fn push(&mut self, emb: Emb, gid: u32, remaining: usize, min_support: usize) {
        if self.dead {
            return;
        }
        match self.gids.last() {
            Some(&g) if g == gid => {
                self.embs.push(emb);
                *self.counts.last_mut().expect("invariant: parallel to gids") += 1;
            }
            _ => {
                if self.gids.len() + 1 + remaining < min_support {
                    self.dead = true;
                    self.clear();
                    return;
                }
                self.embs.push(emb);
                self.gids.push(gid);
                self.counts.push(1);
            }
        }
    }
}

/// The children of the node being expanded at one depth.
#[derive(Debug, Default)]
pub(crate) struct Level {
    pub(crate) children: Vec<Child>,
    pub(crate) n: usize,
    map: HashMap<DfsEdge, u32, FxBuildHasher>,
    /// frequent, minimal children in canonical (increasing extension) order
    pub(crate) order: Vec<u32>,
    /// dense extension keys: `(generation, child)` per `(vertex, label pair, direction)`
    table: Vec<(u32, u32)>,
    generation: u32,
    min_support: usize,
}

impl Level {
    /// Empties the level for a new node whose dense key table needs `table_len` slots.
    pub(crate) fn reset(&mut self, table_len: usize, min_support: usize) {
        for c in &mut self.children[..self.n] {
            c.clear();
            c.dead = false;
        }
        self.min_support = min_support;
        self.n = 0;
        self.map.clear();
        self.order.clear();
        if self.table.len() < table_len {
            self.table.resize(table_len, (0, 0));
        }
        if self.generation == u32::MAX {
            self.table.fill((0, 0));
            self.generation = 0;
        }
        self.generation += 1;
    }

    fn new_child(&mut self, key: DfsEdge) -> usize {
        let i = self.n;
        if i == self.children.len() {
            self.children.push(Child::default());
        }
        self.children[i].edge = key;
        self.n += 1;
        i
    }

    /// Adds an embedding to the child `key`, found through the dense table slot `slot` when
    /// given, else through the hash map.
    #[inline]
    pub(crate) fn add(
        &mut self,
        slot: Option<usize>,
        key: DfsEdge,
        emb: Emb,
        gid: u32,
        remaining: usize,
    ) {
        let idx = match slot {
            Some(s) => {
                let (g, i) = self.table[s];
                if g == self.generation {
                    i as usize
                } else {
                    let i = self.new_child(key);
                    self.table[s] = (self.generation, i as u32);
                    i
                }
            }
            None => match self.map.get(&key) {
                Some(&i) => i as usize,
                None => {
                    let i = self.new_child(key);
                    self.map.insert(key, i as u32);
                    i
                }
            },
        };
        self.children[idx].push(emb, gid, remaining, self.min_support);
    }
}

/// Embeddings of the levels above a task's own, borrowed from the thread that forked it:
/// level `t < prefix.len()` is `prefix[t]`, level `prefix.len()` is `top` (the task's root,
/// which occurs in the graphs `top_gids`).
#[derive(Clone, Copy, Default)]
pub(crate) struct Base<'a> {
    pub(crate) prefix: &'a [&'a [Emb]],
    pub(crate) top: Option<&'a [Emb]>,
    pub(crate) top_gids: &'a [u32],
}

impl<'a> Base<'a> {
    pub(crate) fn len(&self) -> usize {
        self.prefix.len() + usize::from(self.top.is_some())
    }

    pub(crate) fn get(&self, t: usize) -> &'a [Emb] {
        if t < self.prefix.len() {
            self.prefix[t]
        } else {
            self.top.expect("invariant: t < len()")
        }
    }
}

/// The embedding arrays of a visited node and its ancestors, as a [`Node`] borrows them: level
/// `t` (code length `t + 1`) is `base.get(t)` below `base.len()`, else the current child of
/// `levels[t]`; `depth` levels in all.
#[derive(Clone, Copy, Default)]
pub(crate) struct Chain<'a> {
    pub(crate) base: Base<'a>,
    pub(crate) levels: &'a [Level],
    pub(crate) cur: &'a [u32],
    pub(crate) depth: usize,
    /// `(graphs, vertices)` of the database.
    pub(crate) shape: (usize, usize),
}

impl std::fmt::Debug for Chain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chain").field("depth", &self.depth).finish()
    }
}

impl<'a> Chain<'a> {
    /// Number of levels (the node's code length; 0 for single vertices).
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// `(graphs, vertices)` of the database traversed.
    pub(crate) fn shape(&self) -> (usize, usize) {
        self.shape
    }

    /// The embeddings of the ancestor at code length `t + 1` (`t < depth`).
    pub(crate) fn get(&self, t: usize) -> &'a [Emb] {
        if t < self.base.len() {
            self.base.get(t)
        } else {
            &self.levels[t].children[self.cur[t] as usize].embs
        }
    }
}

/// Fills `phi[k * n_v..(k + 1) * n_v]` with the vertex map of embedding `i0 + k` of the
/// deepest level of `chains`, for each `k < batch.len()`: the `prev` chains of the batch are
/// walked together, so their independent loads overlap.
#[inline]
pub(crate) fn walk_batch(
    chains: &[&[Emb]],
    code: &[DfsEdge],
    fwd: &[bool],
    i0: usize,
    batch: &mut [u32],
    phi: &mut [u32],
    n_v: usize,
) {
    for (k, b) in batch.iter_mut().enumerate() {
        *b = (i0 + k) as u32;
    }
    for t in (1..chains.len()).rev() {
        let level = chains[t];
        if fwd[t] {
            let to = code[t].to as usize;
            for (k, b) in batch.iter_mut().enumerate() {
                let e = level[*b as usize];
                phi[k * n_v + to] = e.v;
                *b = e.prev;
            }
        } else {
            for b in batch.iter_mut() {
                *b = level[*b as usize].prev;
            }
        }
    }
    for (k, b) in batch.iter().enumerate() {
        let e = chains[0][*b as usize];
        phi[k * n_v] = e.prev;
        phi[k * n_v + 1] = e.v;
    }
}

/// Marks the data vertices of the vertex map `phi` with a fresh stamp (no clearing between
/// embeddings): `vmark[v] = tag | DFS index`. Returns the tag.
#[inline]
pub(crate) fn mark(vmark: &mut [u64], stamp: &mut u32, phi: &[u32]) -> u64 {
    if *stamp == u32::MAX {
        vmark.fill(0);
        *stamp = 0;
    }
    *stamp += 1;
    let tag = u64::from(*stamp) << 32;
    for (x, &v) in phi.iter().enumerate() {
        vmark[v as usize] = tag | x as u64;
    }
    tag
}
