//! The active set `W` on the conjunction lattice: its nodes (as a [`Dag`] of covers), their
//! keys and levels, and the frontier `sources(Wᶜ)` kept up to date as `W` grows.

use graphsparse_base::Meter;
use rustc_hash::FxHashMap;

use crate::bits;
use crate::dag::Dag;
use crate::kernel::Candidate;
use crate::props::PropositionMatrix;

/// The active set `W` on the conjunction lattice.
pub(super) struct Lattice {
    pub(super) dag: Dag,
    pub(super) keys: Vec<Box<[u32]>>,
    pub(super) index: FxHashMap<Box<[u32]>, u32>,
    pub(super) cover_bits: Vec<u64>,
    /// `levels[j]`: nodes of `W` with `j` propositions.
    pub(super) levels: Vec<usize>,
    pub(super) wm: usize,
    pub(super) log_a: f64,
    /// `sources(W^c)` with a non-empty cover, as of the first `frontier_upto` nodes of `W`.
    pub(super) frontier: Vec<Candidate>,
    pub(super) frontier_upto: usize,
}

impl Lattice {
    pub(super) fn new(x: &PropositionMatrix, a: f64) -> Self {
        let m = x.n_examples();
        let wm = x.words_m();
        let mut lat = Self {
            dag: Dag::empty(m),
            keys: Vec::new(),
            index: FxHashMap::default(),
            cover_bits: Vec::new(),
            levels: Vec::new(),
            wm,
            log_a: a.ln(),
            frontier: Vec::new(),
            frontier_upto: 0,
        };
        let mut all = vec![!0u64; wm];
        x.cover_bits_into(&[], &mut all);
        lat.push(Box::new([]), &all);
        lat
    }

    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(super) fn push(&mut self, key: Box<[u32]>, cover_bits: &[u64]) {
        let parents: Vec<u32> = (0..key.len())
            .map(|k| {
                let p: Vec<u32> = key
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, &v)| v)
                    .collect();
                *self
                    .index
                    .get(&p[..])
                    .expect("invariant: every parent of an added node is in W")
            })
            .collect();
        let mut cover = Vec::new();
        bits::push_ones(cover_bits, &mut cover);
        let v = self
            .dag
            .push(&cover, &parents, key.len() as f64 * self.log_a);
        self.index.insert(key.clone(), v);
        if self.levels.len() <= key.len() {
            self.levels.resize(key.len() + 1, 0);
        }
        self.levels[key.len()] += 1;
        self.keys.push(key);
        self.cover_bits.extend_from_slice(cover_bits);
    }

    /// Brings `frontier` up to date with `W`: `sources(W^c)` with a non-empty cover. The first
    /// call generates every source once, from its parent without the largest proposition;
    /// later calls drop the sources that joined `W` and add the new sources, each a child of a
    /// node added since, generated from the first such parent. `false` when `meter` stopped it
    /// (the frontier is then left as it was).
    pub(super) fn update_frontier(&mut self, x: &PropositionMatrix, meter: &Meter) -> bool {
        let (from, n) = (self.frontier_upto, self.len());
        if from == n {
            return true;
        }
        let mut fresh = Vec::new();
        let mut acc = vec![0u64; self.wm];
        let mut probe: Vec<u32> = Vec::new();
        for v in from..n {
            if meter.poll() {
                return false;
            }
            let key = &self.keys[v];
            let bits_v = &self.cover_bits[v * self.wm..(v + 1) * self.wm];
            // on the first call only the canonical parent (largest proposition last) makes
            // a child; afterwards every new node makes its children with any proposition
            let start = if from == 0 {
                key.last().map_or(0, |&l| l + 1)
            } else {
                0
            };
            for c in start..x.n_props() as u32 {
                if key.binary_search(&c).is_ok() {
                    continue;
                }
                let cover = bits::and_into(bits_v, x.prop_bits(c as usize), &mut acc);
                if cover == 0 {
                    continue;
                }
                probe.clear();
                probe.extend_from_slice(key);
                let at = probe.partition_point(|&q| q < c);
                probe.insert(at, c);
                if self.index.contains_key(&probe[..]) {
                    continue;
                }
                // on the first call every node is new: the canonical parent alone decides
                let lo = if from == 0 { v } else { from };
                if !self.parents_in_w(&probe, v, lo) {
                    continue;
                }
                let props: Box<[u32]> = probe.as_slice().into();
                let mut cover_idx = Vec::with_capacity(cover);
                bits::push_ones(&acc, &mut cover_idx);
                fresh.push(Candidate {
                    parent: props[..props.len() - 1].into(),
                    added: props[props.len() - 1],
                    props,
                    cover: cover_idx,
                });
            }
        }
        if from > 0 {
            let index = &self.index;
            self.frontier.retain(|c| !index.contains_key(&c.props));
        }
        self.frontier.extend(fresh);
        self.frontier_upto = n;
        true
    }

    /// Whether every parent of `u` is in `W` and none of them has an index in `lo..v` (`v`,
    /// the parent making `u`, is then the first parent added since `lo`: each new source is
    /// made by exactly one new parent).
    fn parents_in_w(&self, u: &[u32], v: usize, lo: usize) -> bool {
        let mut parent: Vec<u32> = Vec::with_capacity(u.len().saturating_sub(1));
        for skip in 0..u.len() {
            parent.clear();
            parent.extend(
                u.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != skip)
                    .map(|(_, &q)| q),
            );
            match self.index.get(&parent[..]) {
                None => return false,
                Some(&p) if (lo..v).contains(&(p as usize)) => return false,
                Some(_) => {}
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphsparse_base::{Budget, RunControl, SplitMix64};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// `sources(W^c)` with a non-empty cover, by brute force over every subset of the
    /// propositions: key → cover.
    fn sources(lat: &Lattice, x: &PropositionMatrix) -> BTreeMap<Vec<u32>, Vec<u32>> {
        let p = x.n_props();
        let mut out = BTreeMap::new();
        for mask in 1usize..1 << p {
            let u: Vec<u32> = (0..p as u32).filter(|&j| mask >> j & 1 == 1).collect();
            let parents_in = (0..u.len()).all(|k| {
                let mut q = u.clone();
                q.remove(k);
                lat.index.contains_key(&q[..])
            });
            if lat.index.contains_key(&u[..]) || !parents_in {
                continue;
            }
            let mut bits_u = vec![!0u64; lat.wm];
            x.cover_bits_into(&u, &mut bits_u);
            let mut cover = Vec::new();
            bits::push_ones(&bits_u, &mut cover);
            if !cover.is_empty() {
                out.insert(u, cover);
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The frontier kept across rounds equals the sources of `W^c` however `W` grew and
        /// however often it was brought up to date; each source appears once, with its
        /// canonical parent and its cover.
        #[test]
        fn prop_incremental_frontier_equals_brute_force(
            m in 1usize..12,
            p in 1usize..7,
            seed in any::<u64>(),
            picks in proptest::collection::vec((any::<u16>(), any::<bool>()), 1..40),
        ) {
            let mut rng = SplitMix64::new(seed);
            let mut next = move || rng.next_u64();
            let values: Vec<bool> = (0..m * p).map(|_| next() % 3 != 0).collect();
            let x = PropositionMatrix::from_dense(m, p, &values).unwrap();
            let ctl = RunControl::new();
            let meter = Budget::new().start(&ctl);
            let mut lat = Lattice::new(&x, 2.0);
            for (pick, refresh) in picks {
                prop_assert!(lat.update_frontier(&x, &meter));
                let want = sources(&lat, &x);
                let got: BTreeMap<Vec<u32>, Vec<u32>> = lat
                    .frontier
                    .iter()
                    .map(|c| (c.props.to_vec(), c.cover.clone()))
                    .collect();
                prop_assert_eq!(got.len(), lat.frontier.len(), "a source appears twice");
                prop_assert_eq!(&got, &want);
                for c in &lat.frontier {
                    prop_assert_eq!(&c.parent[..], &c.props[..c.props.len() - 1]);
                    prop_assert_eq!(c.added, *c.props.last().unwrap());
                }
                if lat.frontier.is_empty() {
                    break;
                }
                // add one or (without a refresh in between) two sources to W
                let take = if refresh { 1 } else { 2.min(lat.frontier.len()) };
                let chosen: Vec<Box<[u32]>> = (0..take)
                    .map(|t| {
                        let k = (pick as usize + t * 7) % lat.frontier.len();
                        lat.frontier[k].props.clone()
                    })
                    .collect();
                for props in chosen {
                    if lat.index.contains_key(&props) {
                        continue;
                    }
                    let mut bits_u = vec![!0u64; lat.wm];
                    x.cover_bits_into(&props, &mut bits_u);
                    lat.push(props, &bits_u);
                }
            }
        }
    }
}
