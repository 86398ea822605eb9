//! One search of the gSpan tree for BCGD: at each node `T_j` of its column (first sight
//! only), the Theorem 11 and safe-pattern pruning tests, and the dictionary of nonzero
//! features below the node; serial, parallel (fork/join in DFS order) or over the tree cache.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use graphsparse_gspan::{DfsCode, Node, ParallelVisitor, Visit, Visitor};
use rustc_hash::FxBuildHasher;

use crate::cache::CachedSearch;
use crate::dual::SPP_MARGIN;

type FxMap<K, V> = HashMap<K, V, FxBuildHasher>;

pub(super) fn clip_h(h: f64) -> f64 {
    h.clamp(1e-10, 1e10)
}

/// `T_j` of Lemma 10: the minimiser of the one-dimensional quadratic model with the L1 term.
pub(super) fn soft_step(b: f64, lambda1: f64, h: f64) -> f64 {
    if b < -lambda1 {
        -(b + lambda1) / h
    } else if b > lambda1 {
        -(b - lambda1) / h
    } else {
        0.0
    }
}

/// Read-only data of one search.
pub(super) struct Ctx<'a> {
    pub(super) g1: &'a [f64],
    pub(super) g2: &'a [f64],
    pub(super) lambda1: f64,
    pub(super) lambda2: f64,
    pub(super) prune: bool,
    /// `(a₊, a₋)` of `g1` (the dual bound `U`).
    pub(super) balance: (f64, f64),
    /// `(θ, r)` of the safe-pruning sphere.
    pub(super) sphere: Option<(&'a [f64], f64)>,
    pub(super) active_codes: Vec<&'a DfsCode>,
    pub(super) active_c: Vec<f64>,
    pub(super) active_beta: Vec<f64>,
    pub(super) by_col: FxMap<&'a [u32], usize>,
}

/// A column met by the search whose `T_j ≠ 0` or `β_j ≠ 0`.
pub(super) struct Found {
    pub(super) ids: Vec<u32>,
    pub(super) code: DfsCode,
    pub(super) equivalents: Vec<DfsCode>,
    pub(super) t: f64,
    pub(super) h: f64,
    pub(super) sum_g1: f64,
    pub(super) active: Option<usize>,
}

pub(crate) struct Search<'c, 'a> {
    pub(super) ctx: &'c Ctx<'a>,
    pub(super) cand: Vec<u32>,
    pub(super) marks: Vec<usize>,
    pub(super) seen: FxMap<Box<[u32]>, Option<u32>>,
    pub(super) found: Vec<Found>,
    pub(crate) visited: u64,
    pub(super) skipped: u64,
    pub(super) pruned_bound: u64,
    pub(super) pruned_spp: u64,
    /// `U`: a bound on `|x_jᵀθ̃|` over every zero-coefficient pattern met or pruned.
    pub(super) dual_bound: f64,
}

impl<'c, 'a> Search<'c, 'a> {
    pub(super) fn new(ctx: &'c Ctx<'a>, cand: Vec<u32>) -> Self {
        Self {
            ctx,
            cand,
            marks: vec![0],
            seen: FxMap::default(),
            found: Vec::new(),
            visited: 0,
            skipped: 0,
            pruned_bound: 0,
            pruned_spp: 0,
            dual_bound: 0.0,
        }
    }
}

impl Search<'_, '_> {
    /// Dictionary passing: the nonzero features below the node (code prefix match).
    pub(crate) fn enter(&mut self, code: &DfsCode) {
        let depth = code.len();
        let start = *self.marks.last().expect("invariant: marks never empty");
        let new_start = self.cand.len();
        if depth >= 1 {
            let e = code.edges()[depth - 1];
            for idx in start..new_start {
                let k = self.cand[idx];
                let fc = self.ctx.active_codes[k as usize].edges();
                if fc.len() >= depth && fc[depth - 1] == e {
                    self.cand.push(k);
                }
            }
        }
        self.marks.push(new_start);
    }

    pub(crate) fn leave(&mut self) {
        let start = self.marks.pop().expect("invariant: enter pushed a mark");
        self.cand.truncate(start);
    }

    /// `T_j` of the node's column (first sight only) and the Theorem 11 pruning test.
    pub(crate) fn evaluate(&mut self, code: &DfsCode, ids: &[u32]) -> Visit {
        let ctx = self.ctx;
        self.visited += 1;
        let new_start = *self.marks.last().expect("invariant: marks never empty");
        let (mut bup, mut blo) = (0.0f64, 0.0f64);
        for &k in &self.cand[new_start..] {
            let c = ctx.active_c[k as usize];
            bup = bup.max(c);
            blo = blo.min(c);
        }
        let (mut lup, mut llo, mut s1, mut s2) = (0.0, 0.0, 0.0, 0.0);
        for &i in ids {
            let a = ctx.g1[i as usize];
            if a > 0.0 {
                lup += a;
            } else {
                llo += a;
            }
            s1 += a;
            s2 += ctx.g2[i as usize];
        }
        let by_bound = ctx.prune && (lup + bup).max(-llo - blo) <= ctx.lambda1;
        let by_spp = ctx.sphere.is_some_and(|(theta, r)| {
            let (mut tp, mut tn) = (0.0f64, 0.0f64);
            for &i in ids {
                let t = theta[i as usize];
                if t > 0.0 {
                    tp += t;
                } else {
                    tn -= t;
                }
            }
            tp.max(tn) + r * (ids.len() as f64).sqrt() < ctx.lambda1 * (1.0 - SPP_MARGIN)
        });
        self.pruned_bound += u64::from(by_bound);
        self.pruned_spp += u64::from(by_spp);
        let (ap, an) = ctx.balance;
        if by_bound || by_spp {
            self.dual_bound = self.dual_bound.max((ap * lup).max(-an * llo));
        }
        match self.seen.get(ids) {
            Some(slot) => {
                self.skipped += 1;
                if let Some(f) = *slot {
                    self.found[f as usize].equivalents.push(code.clone());
                }
            }
            None => {
                let h = clip_h(s2 + ctx.lambda2);
                let active = ctx.by_col.get(ids).copied();
                if active.is_none() {
                    self.dual_bound = self.dual_bound.max((ap * lup + an * llo).abs());
                }
                let beta = active.map_or(0.0, |k| ctx.active_beta[k]);
                let b = s1 + (ctx.lambda2 - h) * beta;
                let t = soft_step(b, ctx.lambda1, h);
                let slot = if t != 0.0 || active.is_some() {
                    self.found.push(Found {
                        ids: ids.to_vec(),
                        code: code.clone(),
                        equivalents: Vec::new(),
                        t,
                        h,
                        sum_g1: s1,
                        active,
                    });
                    Some((self.found.len() - 1) as u32)
                } else {
                    None
                };
                self.seen.insert(ids.into(), slot);
            }
        }
        if by_bound || by_spp {
            Visit::Prune
        } else {
            Visit::Continue
        }
    }
}

impl CachedSearch for Search<'_, '_> {
    fn enter(&mut self, code: &DfsCode) {
        Search::enter(self, code);
    }
    fn evaluate(&mut self, code: &DfsCode, ids: &[u32]) -> Visit {
        Search::evaluate(self, code, ids)
    }
    fn leave(&mut self) {
        Search::leave(self);
    }
}

impl Visitor for Search<'_, '_> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        self.enter(node.code());
        self.evaluate(node.code(), node.graph_ids())
    }

    fn post(&mut self, _node: &Node<'_>) {
        self.leave();
    }
}

impl ParallelVisitor for Search<'_, '_> {
    fn fork(&self) -> Self {
        let start = *self.marks.last().expect("invariant: marks never empty");
        Self::new(self.ctx, self.cand[start..].to_vec())
    }

    fn join(&mut self, child: Self) {
        self.visited += child.visited;
        self.skipped += child.skipped;
        self.pruned_bound += child.pruned_bound;
        self.pruned_spp += child.pruned_spp;
        self.dual_bound = self.dual_bound.max(child.dual_bound);
        // the child's subtree comes after everything this visitor has seen (DFS order)
        let mut target: Vec<Option<u32>> = vec![None; child.found.len()];
        for (key, slot) in child.seen {
            match self.seen.entry(key) {
                Entry::Occupied(o) => {
                    self.skipped += 1;
                    if let (Some(cf), Some(pf)) = (slot, *o.get()) {
                        target[cf as usize] = Some(pf);
                    }
                }
                Entry::Vacant(v) => {
                    v.insert(None);
                }
            }
        }
        for (cf, f) in child.found.into_iter().enumerate() {
            if let Some(pf) = target[cf] {
                let dst = &mut self.found[pf as usize].equivalents;
                dst.push(f.code);
                dst.extend(f.equivalents);
            } else {
                let idx = self.found.len() as u32;
                *self
                    .seen
                    .get_mut(f.ids.as_slice())
                    .expect("invariant: inserted above") = Some(idx);
                self.found.push(f);
            }
        }
    }
}
