//! Closed and maximal patterns inside the search: the closedness test of a node from its
//! embeddings, and CloseGraph's early termination (Yan & Han, KDD 2003).
//!
//! # The test
//!
//! A connected pattern `g` is closed iff no one-edge extension of `g` has the support of `g`,
//! and maximal iff no one-edge extension is frequent: if `g ⊂ h` with `h` connected, edges of
//! `h` can be added to `g` one at a time keeping it connected, and support only shrinks along
//! the way. Extensions are taken from every vertex of `g` (forward: a new vertex; backward: an
//! edge between two vertices of `g` that the pattern does not join), not only from the
//! rightmost path. Every embedding (vertex map) of `g` is stored, so the support of an
//! extension keyed by pattern positions is the number of graphs in which some embedding admits
//! it. With `max_size`, the sets are those of the frequent patterns of at most `max_size`
//! edges, so a node of `max_size` edges is always in them.
//!
//! # Early termination, and when it is safe
//!
//! Let extension `e` of `g` occur in *every* embedding of `g` (equivalent occurrence). For a
//! descendant `h` of `g` in the gSpan tree (its minimum code starts with `g`'s), every
//! embedding `ψ` of `h` restricts to an embedding `φ` of `g`, where `e` is available. If `e`
//! is still available at `ψ` as a *new* edge of `h`, then `h ◇ e` occurs wherever `h` does,
//! so `h` is neither closed nor maximal. This can fail in two ways (the failures the paper
//! points out): `h` may already hold `e` (a new edge between the same positions, or a new
//! neighbour of the same vertex with the same labels), or a vertex of `h` outside `g` may be
//! mapped onto the data vertex `w` that `e` reaches. We prune only children whose whole
//! subtrees avoid both:
//!
//! * **Where `h` can grow.** In a DFS code, new edges attach to the rightmost path only. A
//!   vertex off `g`'s rightmost path never gets a new edge below `g`; a forward child from a
//!   rightmost-path vertex `b` removes every path vertex deeper than `b` from the path for
//!   good; an edge between two vertices of `g` can be added only as a backward edge from the
//!   rightmost vertex `r`, and backward edges from `r` come in increasing target order before
//!   any forward edge (minimum codes).
//! * **Backward `e = (i, j)`, `i < j`.** The data edge of `e` can only be used by an edge of
//!   `h` joining `i` and `j`. If `j = r` and `i` is on the rightmost path, the subtrees that
//!   can add that edge are those of the backward children `(r, t)` with `t <= i`: the others
//!   are pruned. Otherwise no descendant can add it and every child is pruned.
//! * **Forward `e` at vertex `a`**, counted only for embeddings with a *sealed* witness `w`: a
//!   data vertex reached by `e` whose every neighbour other than `φ(a)` is the image of a
//!   vertex of `g` off the rightmost path. A vertex `x` of `h` mapped onto `w` would need an
//!   `h`-neighbour mapped into `N(w)`, i.e. a new edge at `a` or at an off-path vertex; the
//!   latter never happens, so pruned subtrees must be those where `a` never gets a new edge:
//!   when `a` is on the rightmost path, the forward children from path vertices above `a`
//!   (`from < a`); when it is not, every child. (A witness of degree one is sealed.)
//!
//! Each pruned subtree is justified by one such `e`, so several `e` prune the union of their
//! sets. The pruned nodes are never closed or maximal, and the node itself is not either (its
//! extension `e` has its support). With `max_size`, a descendant of `max_size` edges is in the
//! set by definition, so early termination runs only without a size bound.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use crate::code::DfsEdge;
use crate::embed::{Child, Emb, WALK_BATCH, mark, walk_batch};
use crate::params::PatternSet;
use crate::prepared::Prepared;

/// Marks a forward key (no second pattern position).
const FWD: u32 = u32::MAX;

/// Which children of a node early termination keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Keep {
    /// Backward children `(r, t)` are kept iff `t <= backward_to_max` (`None`: none kept).
    backward_to_max: Option<u32>,
    /// Forward children `(f, ..)` are kept iff `f >= forward_from_min` (`None`: none kept).
    forward_from_min: Option<u32>,
}

impl Keep {
    /// Every child.
    pub(crate) const ALL: Self = Self {
        backward_to_max: Some(u32::MAX),
        forward_from_min: Some(0),
    };
    /// No child.
    pub(crate) const NONE: Self = Self {
        backward_to_max: None,
        forward_from_min: None,
    };

    /// The children both keep.
    fn meet(self, other: Self) -> Self {
        Self {
            backward_to_max: self
                .backward_to_max
                .zip(other.backward_to_max)
                .map(|(a, b)| a.min(b)),
            forward_from_min: self
                .forward_from_min
                .zip(other.forward_from_min)
                .map(|(a, b)| a.max(b)),
        }
    }

    /// Whether the child with last edge `e` is kept.
    pub(crate) fn keeps(self, e: &DfsEdge) -> bool {
        if e.is_forward() {
            self.forward_from_min.is_some_and(|m| e.from >= m)
        } else {
            self.backward_to_max.is_some_and(|m| e.to <= m)
        }
    }

    /// True when no child is kept.
    pub(crate) fn is_none(self) -> bool {
        self.backward_to_max.is_none() && self.forward_from_min.is_none()
    }
}

/// The outcome of the test at one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// The node is in the requested pattern set.
    pub(crate) in_set: bool,
    /// The children early termination keeps.
    pub(crate) keep: Keep,
}

impl Verdict {
    /// In the set, every child kept (the plain miner's answer).
    pub(crate) const ALL: Self = Self {
        in_set: true,
        keep: Keep::ALL,
    };
}

/// Counts of one extension key over the embeddings scanned so far.
#[derive(Debug, Clone, Copy)]
struct KeyStats {
    /// `(i, j, pair)`: backward `(i, j)` with `i < j`, or forward at `i` (`j == FWD`) with
    /// the label pair id of the new edge and vertex.
    key: (u32, u32, u32),
    last_graph: u32,
    n_graphs: u32,
    last_emb: u32,
    n_embs: u32,
    last_sealed: u32,
    n_sealed: u32,
}

/// Reused buffers of the test.
#[derive(Debug, Default)]
pub(crate) struct ClosureScratch {
    map: HashMap<(u32, u32, u32), u32, FxBuildHasher>,
    stats: Vec<KeyStats>,
    /// per pattern position pair: joined by a code edge
    pat_edge: Vec<bool>,
    /// per pattern position: some live key is scanned from it
    vertex_live: Vec<bool>,
    /// the keys that can still decide something
    live: Vec<u32>,
    /// the support of each key that is a generated rightmost-path child
    child_support: HashMap<(u32, u32, u32), u32, FxBuildHasher>,
    phi: Vec<u32>,
}

/// What the test reads about the node.
pub(crate) struct NodeView<'a> {
    pub(crate) db: &'a Prepared,
    pub(crate) code: &'a [DfsEdge],
    pub(crate) fwd: &'a [bool],
    /// Embedding arrays of the node's ancestors and the node (code length `chains.len()`).
    pub(crate) chains: &'a [&'a [Emb]],
    /// The node's graphs.
    pub(crate) gids: &'a [u32],
    pub(crate) on_path: &'a [bool],
    pub(crate) n_v: usize,
    pub(crate) r: u32,
    /// The node's rightmost-path children as generated (exact supports; a child that
    /// stopped counting is infrequent).
    pub(crate) children: &'a [Child],
}

/// Whether the node `view` is closed (maximal) under `set`, and, when `early` holds, the
/// children that early termination keeps. `known`: the node is already known not to be in the
/// set (a rightmost-path child has its support, or is frequent), so only early termination
/// is left to decide.
///
/// # Complexity
/// One pass over the node's embeddings, each scanning the data neighbours of the vertices
/// that can still matter (with a forward witness's own neighbours when `early`). Extensions
/// are recorded only while they can still decide something (from the first embedding for
/// early termination, the first graph for closedness, the graphs that can still reach
/// `min_support` for maximality); the pass stops once none of those recorded can.
#[allow(clippy::too_many_arguments)]
pub(crate) fn judge(
    view: &NodeView<'_>,
    set: PatternSet,
    min_support: usize,
    early: bool,
    mut known: bool,
    vmark: &mut [u64],
    stamp: &mut u32,
    s: &mut ClosureScratch,
) -> Verdict {
    let NodeView {
        db,
        code,
        fwd,
        chains,
        gids,
        on_path,
        n_v,
        r,
        children,
    } = *view;
    let support = gids.len();
    let n_embs = chains[chains.len() - 1].len();
    s.map.clear();
    s.stats.clear();
    s.live.clear();
    s.pat_edge.clear();
    s.pat_edge.resize(n_v * n_v, false);
    for e in code {
        let (a, b) = (e.from as usize, e.to as usize);
        s.pat_edge[a * n_v + b] = true;
        s.pat_edge[b * n_v + a] = true;
    }
    s.vertex_live.clear();
    s.vertex_live.resize(n_v, true);
    s.phi.clear();
    s.phi.resize(n_v * WALK_BATCH, 0);

    // what is still to decide: an extension with the node's support (closed), a frequent one
    // (maximal), one in every embedding (early termination)
    let mut need_eq = set == PatternSet::Closed && !known;
    let mut need_freq = set == PatternSet::Maximal && !known;
    if !need_eq && !need_freq && !early {
        return Verdict {
            in_set: !known,
            keep: Keep::ALL,
        };
    }
    // the keys that are rightmost-path children have known supports: below the node's
    // (closed) or below min_support (maximal), else `known` would hold
    s.child_support.clear();
    for c in children {
        let e = c.edge;
        // keyed from the lower DFS index, as the scan below sees the edge
        let (i, j, elabel, to_label) = if e.is_forward() {
            (e.from, FWD, e.edge_label, e.to_label)
        } else {
            (e.to, e.from, db.reverse_label(e.edge_label), e.from_label)
        };
        if let Ok(pair) = db.pairs.binary_search(&(elabel, to_label)) {
            s.child_support
                .insert((i, j, pair as u32), c.gids.len() as u32);
        }
    }
    let mut gpos = 0usize;
    let mut batch = [0u32; WALK_BATCH];
    let mut i0 = 0;
    let mut was_inserting = true;
    'scan: while i0 < n_embs {
        let bn = WALK_BATCH.min(n_embs - i0);
        walk_batch(chains, code, fwd, i0, &mut batch[..bn], &mut s.phi, n_v);
        for k in 0..bn {
            let emb = (i0 + k) as u32;
            let phi = &s.phi[k * n_v..(k + 1) * n_v];
            let gid = db.vgraph[phi[0] as usize];
            while gids[gpos] < gid {
                gpos += 1;
            }
            // graphs after this one
            let after = support - gpos - 1;
            let inserting = (emb == 0 && early)
                || (need_eq && gpos == 0)
                || (need_freq && after + 1 >= min_support);
            if !inserting {
                // keep the recorded extensions that can still decide something
                let from_all = was_inserting;
                was_inserting = false;
                let before = std::mem::take(&mut s.live);
                let candidates: Box<dyn Iterator<Item = u32>> = if from_all {
                    Box::new(0..s.stats.len() as u32)
                } else {
                    Box::new(before.iter().copied())
                };
                s.vertex_live.fill(false);
                for x in candidates {
                    let st = &s.stats[x as usize];
                    // the most graphs it can reach
                    let reach =
                        st.n_graphs as usize + after + usize::from(st.last_graph != gpos as u32);
                    let undecided = !s.child_support.contains_key(&st.key);
                    let live = (need_eq && undecided && reach == support)
                        || (need_freq && undecided && reach >= min_support)
                        || (early && st.n_embs == emb && (st.key.1 != FWD || st.n_sealed == emb));
                    if live {
                        s.vertex_live[st.key.0 as usize] = true;
                        s.live.push(x);
                    }
                }
                let mut before = before;
                before.clear();
                if s.live.is_empty() {
                    break 'scan;
                }
            }
            let tag = mark(vmark, stamp, phi);
            let index_of = |v: u32| {
                let m = vmark[v as usize];
                (m & !0xffff_ffff == tag).then_some(m as u32)
            };
            for (i, &u) in phi.iter().enumerate() {
                if !inserting && !s.vertex_live[i] {
                    continue;
                }
                for a in db.nbrs(u) {
                    let key = match index_of(a.to) {
                        Some(j) if j as usize > i && !s.pat_edge[i * n_v + j as usize] => {
                            (i as u32, j, a.pair)
                        }
                        Some(_) => continue,
                        None => (i as u32, FWD, a.pair),
                    };
                    let idx = match s.map.get(&key) {
                        Some(&x) => x as usize,
                        None if inserting => {
                            s.map.insert(key, s.stats.len() as u32);
                            s.stats.push(KeyStats {
                                key,
                                last_graph: u32::MAX,
                                n_graphs: 0,
                                last_emb: u32::MAX,
                                n_embs: 0,
                                last_sealed: u32::MAX,
                                n_sealed: 0,
                            });
                            s.stats.len() - 1
                        }
                        None => continue,
                    };
                    let st = &mut s.stats[idx];
                    if st.last_emb != emb {
                        st.last_emb = emb;
                        st.n_embs += 1;
                    }
                    if st.last_graph != gpos as u32 {
                        st.last_graph = gpos as u32;
                        st.n_graphs += 1;
                        if need_freq && st.n_graphs as usize >= min_support {
                            need_freq = false;
                            known = true;
                        }
                        if need_eq && st.n_graphs as usize == support {
                            need_eq = false;
                            known = true;
                        }
                    }
                    // a forward witness counts for early termination only when sealed, and
                    // only while every earlier embedding had a sealed one
                    if early
                        && key.1 == FWD
                        && st.n_sealed == emb
                        && st.last_sealed != emb
                        && sealed(db, a.to, u, &index_of, on_path)
                    {
                        st.last_sealed = emb;
                        st.n_sealed += 1;
                    }
                }
            }
        }
        i0 += bn;
    }
    let in_set = !known;
    let mut keep = Keep::ALL;
    if early {
        let n = n_embs as u32;
        for st in &s.stats {
            let (i, j, _) = st.key;
            if j == FWD {
                if st.n_sealed != n {
                    continue;
                }
                keep = keep.meet(if on_path[i as usize] {
                    Keep {
                        backward_to_max: Some(u32::MAX),
                        forward_from_min: Some(i),
                    }
                } else {
                    Keep::NONE
                });
            } else {
                if st.n_embs != n {
                    continue;
                }
                keep = keep.meet(if j == r && on_path[i as usize] {
                    Keep {
                        backward_to_max: Some(i),
                        forward_from_min: None,
                    }
                } else {
                    Keep::NONE
                });
            }
        }
    }
    debug_assert!(
        keep == Keep::ALL || !in_set,
        "early termination at a node in the set"
    );
    Verdict { in_set, keep }
}

/// Whether data vertex `w`, reached from `u` (the image of a pattern vertex), has no other
/// neighbour than `u` and images of pattern vertices off the rightmost path.
#[inline]
fn sealed(
    db: &Prepared,
    w: u32,
    u: u32,
    index_of: &impl Fn(u32) -> Option<u32>,
    on_path: &[bool],
) -> bool {
    db.nbrs(w)
        .iter()
        .all(|b| b.to == u || index_of(b.to).is_some_and(|c| !on_path[c as usize]))
}

/// Whether each frequent vertex label's single-vertex pattern is in the set `set`: `labels`
/// with their supports; one-edge patterns are counted over `db` (whose infrequent edges are
/// already dropped, which changes no answer: an edge with the support of a frequent label,
/// or a frequent edge, is frequent).
///
/// # Complexity
/// O(vertices + edges) of `db`, plus O(labels · label triples).
pub(crate) fn single_vertices_in_set(
    db: &Prepared,
    labels: &[(u32, usize)],
    set: PatternSet,
    min_support: usize,
    max_size: usize,
) -> Vec<bool> {
    if set == PatternSet::All || max_size == 0 {
        return vec![true; labels.len()];
    }
    // support of each (vertex label, edge label, neighbour label)
    let mut edge_support: HashMap<(u32, u32, u32), (u32, usize), FxBuildHasher> =
        HashMap::default();
    for v in 0..db.n_vertices() {
        let g = db.vgraph[v];
        for a in db.nbrs(v as u32) {
            let entry = edge_support
                .entry((db.vlabel[v], a.elabel, a.to_label))
                .or_insert((u32::MAX, 0));
            if entry.0 != g {
                *entry = (g, entry.1 + 1);
            }
        }
    }
    let mut best: HashMap<u32, usize, FxBuildHasher> = HashMap::default();
    for (&(l, _, _), &(_, n)) in &edge_support {
        let b = best.entry(l).or_insert(0);
        *b = (*b).max(n);
    }
    labels
        .iter()
        .map(|&(l, support)| {
            let top = best.get(&l).copied().unwrap_or(0);
            match set {
                PatternSet::Closed => top < support,
                _ => top < min_support,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fwd(from: u32) -> DfsEdge {
        DfsEdge::new(from, 9, 0, 0, 0)
    }

    fn bwd(to: u32) -> DfsEdge {
        DfsEdge::new(8, to, 0, 0, 0)
    }

    #[test]
    fn keep_meets_as_intersection() {
        let a = Keep {
            backward_to_max: Some(u32::MAX),
            forward_from_min: Some(3),
        };
        let b = Keep {
            backward_to_max: Some(2),
            forward_from_min: None,
        };
        assert!(Keep::ALL.keeps(&fwd(0)) && Keep::ALL.keeps(&bwd(0)));
        assert!(Keep::NONE.is_none() && !Keep::NONE.keeps(&fwd(5)));
        assert!(a.keeps(&fwd(3)) && !a.keeps(&fwd(2)) && a.keeps(&bwd(7)));
        let m = a.meet(b);
        assert!(!m.keeps(&fwd(5)) && m.keeps(&bwd(2)) && !m.keeps(&bwd(3)));
        assert!(!m.is_none());
        assert!(m.meet(Keep::NONE).is_none());
        assert_eq!(Keep::ALL.meet(a), a);
    }
}
