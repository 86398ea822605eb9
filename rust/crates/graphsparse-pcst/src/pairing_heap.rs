//! Pairing heaps with lazy key offsets, replicating `pcst_fast`'s `PairingHeap` exactly.
//!
//! All heaps of one solver share an arena of nodes ([`PairingArena`]); a heap is just the
//! index of its root node (or [`NIL`] when empty), so melding two heaps is one `link`. A node's
//! index is chosen by the caller: the solver uses the edge-part id, since every edge part has at
//! most one live node at any time.
//!
//! The *true key* of a node is its `value` plus the `offset` of every proper ancestor, which
//! makes [`PairingArena::add_all`] O(1). Tie handling and the order of the pairing and fold
//! passes decide which of several equal keys pops first; they follow spec §A.4 to the letter
//! (a strict `<` in `link`, so on a tie the *second* argument becomes the parent).

/// The "no node" / "empty heap" marker.
pub const NIL: u32 = u32::MAX;

/// One heap node. `prev` is the parent for a first child, the left sibling otherwise, and
/// [`NIL`] for a root. Aligned so that a node never straddles two cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct Node {
    value: f64,
    offset: f64,
    child: u32,
    sibling: u32,
    prev: u32,
    /// Caller's mark (the solver's "deleted edge part"), returned by `pop_min_tagged`.
    tagged: bool,
}

const EMPTY_NODE: Node = Node {
    value: 0.0,
    offset: 0.0,
    child: NIL,
    sibling: NIL,
    prev: NIL,
    tagged: false,
};

/// `link` for two non-empty roots: the one with the strictly smaller value becomes the parent
/// (on a tie, `b`); the other becomes its first child and absorbs the parent's offset.
#[inline(always)]
fn link_roots(nodes: &mut [Node], a: u32, b: u32) -> u32 {
    // one range check for both ids lets the compiler drop the per-access ones below
    assert!((a as usize) < nodes.len() && (b as usize) < nodes.len());
    let (s, l) = if nodes[a as usize].value < nodes[b as usize].value {
        (a, b)
    } else {
        (b, a)
    };
    let (s_child, s_offset) = (nodes[s as usize].child, nodes[s as usize].offset);
    nodes[s as usize].child = l;
    if s_child != NIL {
        nodes[s_child as usize].prev = l;
    }
    let ln = &mut nodes[l as usize];
    ln.sibling = s_child;
    ln.prev = s;
    ln.value -= s_offset;
    ln.offset -= s_offset;
    s
}

/// Arena holding the nodes of any number of pairing heaps.
#[derive(Clone, Debug, Default)]
pub struct PairingArena {
    nodes: Vec<Node>,
}

impl PairingArena {
    /// An empty arena; call [`reset`](Self::reset) before use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes room for node ids `0..capacity`, forgetting every heap (keeps the allocation).
    pub fn reset(&mut self, capacity: usize) {
        self.nodes.clear();
        self.nodes.resize(capacity, EMPTY_NODE);
    }

    /// Links two heap roots; on equal values `b` becomes the parent.
    #[inline(always)]
    fn link(&mut self, a: u32, b: u32) -> u32 {
        if a == NIL {
            return b;
        }
        if b == NIL {
            return a;
        }
        link_roots(&mut self.nodes, a, b)
    }

    /// Inserts node `id` with key `key` into the heap rooted at `*root`.
    #[inline]
    pub fn insert(&mut self, root: &mut u32, id: u32, key: f64) {
        self.nodes[id as usize] = Node {
            value: key,
            ..EMPTY_NODE
        };
        *root = self.link(*root, id);
    }

    /// The minimum `(key, id)` of the heap rooted at `root`, if any.
    #[inline]
    pub fn min(&self, root: u32) -> Option<(f64, u32)> {
        (root != NIL).then(|| (self.nodes[root as usize].value, root))
    }

    /// The minimum key of a non-empty heap.
    #[inline]
    pub fn min_key(&self, root: u32) -> f64 {
        self.nodes[root as usize].value
    }

    /// Adds `delta` to every key of the heap rooted at `root` (no-op when empty).
    #[inline]
    pub fn add_all(&mut self, root: u32, delta: f64) {
        if root != NIL {
            let r = &mut self.nodes[root as usize];
            r.value += delta;
            r.offset += delta;
        }
    }

    /// Removes and returns the minimum `(key, id)` of the heap rooted at `*root`.
    #[inline]
    pub fn pop_min(&mut self, root: &mut u32) -> Option<(f64, u32)> {
        self.pop_min_tagged(root).map(|(key, id, _)| (key, id))
    }

    /// Marks the live node `id`; the mark comes back from
    /// [`pop_min_tagged`](Self::pop_min_tagged) and is cleared when the node is popped.
    #[inline]
    pub fn tag(&mut self, id: u32) {
        self.nodes[id as usize].tagged = true;
    }

    /// Removes and returns the minimum `(key, id, tagged)` of the heap rooted at `*root`.
    ///
    /// The children of the old root, most recently linked first, get the root's offset
    /// added, are linked in pairs from left to right (`link(B[j], B[j+1])`), and the pairs
    /// are folded from the last one back to the first (`root = link(root, P[k])`). The pair
    /// list is threaded through the winners' `sibling` fields, most recent first, so no
    /// scratch buffer is needed; `prev` and `sibling` are only cleared on the final root,
    /// since `link` overwrites them on every other node.
    pub fn pop_min_tagged(&mut self, root: &mut u32) -> Option<(f64, u32, bool)> {
        let x = *root;
        if x == NIL {
            return None;
        }
        let Node {
            value,
            offset,
            child,
            tagged,
            ..
        } = self.nodes[x as usize];
        self.nodes[x as usize] = EMPTY_NODE;
        let nodes = &mut self.nodes[..];
        // pairing pass, left to right
        let mut pairs = NIL;
        let mut c = child;
        while c != NIL {
            let a = c;
            let an = &mut nodes[a as usize];
            an.value += offset;
            an.offset += offset;
            let b = an.sibling;
            let p = if b == NIL {
                c = NIL;
                a
            } else {
                let bn = &mut nodes[b as usize];
                bn.value += offset;
                bn.offset += offset;
                c = bn.sibling;
                link_roots(nodes, a, b)
            };
            nodes[p as usize].sibling = pairs;
            pairs = p;
        }
        // fold pass, from the last pair back to the first; a node that wins a link keeps its
        // `sibling`, so each one is cleared before it can win
        let mut r = pairs;
        if r != NIL {
            let mut k = nodes[r as usize].sibling;
            nodes[r as usize].sibling = NIL;
            while k != NIL {
                let next = nodes[k as usize].sibling;
                nodes[k as usize].sibling = NIL;
                r = link_roots(nodes, r, k);
                k = next;
            }
            nodes[r as usize].prev = NIL;
        }
        *root = r;
        Some((value, x, tagged))
    }

    /// Changes the key of node `id` from `from` (the caller's value of its current true key) to
    /// `to`; `pcst_fast`'s `decrease_key`, also used to increase keys.
    ///
    /// The node keeps its subtree; `offset += from - value` keeps its children's true keys
    /// (up to the rounding the reference also has), then it is cut out and relinked at the
    /// root unless it already is the root.
    pub fn set_key(&mut self, root: &mut u32, id: u32, from: f64, to: f64) {
        let n = &mut self.nodes[id as usize];
        n.offset += from - n.value;
        n.value = to;
        let prev = n.prev;
        let sibling = n.sibling;
        if prev == NIL {
            return;
        }
        if self.nodes[prev as usize].child == id {
            self.nodes[prev as usize].child = sibling;
        } else {
            self.nodes[prev as usize].sibling = sibling;
        }
        if sibling != NIL {
            self.nodes[sibling as usize].prev = prev;
        }
        let n = &mut self.nodes[id as usize];
        n.prev = NIL;
        n.sibling = NIL;
        *root = self.link(*root, id);
    }

    /// Melds the heaps rooted at `a` and `b` (in that argument order) and returns the new root.
    #[inline]
    pub fn meld(&mut self, a: u32, b: u32) -> u32 {
        self.link(a, b)
    }

    /// The true key of node `id` (walks to the root; for tests and debugging).
    #[cfg(test)]
    fn true_key(&self, id: u32) -> f64 {
        // climb: the parent of a node is the `prev` of its leftmost sibling
        let mut key = self.nodes[id as usize].value;
        let mut x = id;
        loop {
            let mut p = self.nodes[x as usize].prev;
            while p != NIL && self.nodes[p as usize].child != x {
                x = p;
                p = self.nodes[x as usize].prev;
            }
            if p == NIL {
                return key;
            }
            key += self.nodes[p as usize].offset;
            x = p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arena(n: usize) -> PairingArena {
        let mut a = PairingArena::new();
        a.reset(n);
        a
    }

    fn children(a: &PairingArena, id: u32) -> Vec<u32> {
        let mut out = vec![];
        let mut c = a.nodes[id as usize].child;
        while c != NIL {
            out.push(c);
            c = a.nodes[c as usize].sibling;
        }
        out
    }

    fn drain(a: &mut PairingArena, root: &mut u32) -> Vec<(f64, u32)> {
        std::iter::from_fn(|| a.pop_min(root)).collect()
    }

    #[test]
    fn link_tie_makes_second_argument_the_parent() {
        let mut a = arena(2);
        let mut r = NIL;
        a.insert(&mut r, 0, 1.0);
        a.insert(&mut r, 1, 1.0); // link(old root 0, new 1): tie -> 1 is the parent
        assert_eq!(r, 1);
        assert_eq!(children(&a, 1), vec![0]);
        // strictly smaller first argument stays the parent
        let mut a = arena(2);
        let mut r = NIL;
        a.insert(&mut r, 0, 0.5);
        a.insert(&mut r, 1, 1.0);
        assert_eq!(r, 0);
        assert_eq!(children(&a, 0), vec![1]);
        // meld follows the same rule
        let mut a = arena(2);
        let (mut h1, mut h2) = (NIL, NIL);
        a.insert(&mut h1, 0, 2.0);
        a.insert(&mut h2, 1, 2.0);
        assert_eq!(a.meld(h1, h2), 1);
    }

    #[test]
    fn equal_keys_pop_in_heap_shape_order() {
        // inserts of equal keys: each new node becomes the root, so the newest pops first
        let mut a = arena(4);
        let mut r = NIL;
        for id in 0..4 {
            a.insert(&mut r, id, 3.0);
        }
        assert_eq!(r, 3);
        assert_eq!(children(&a, 3), vec![2]);
        // root 3 has the single child 2, which has child 1, ... (a path)
        let order: Vec<u32> = drain(&mut a, &mut r).into_iter().map(|x| x.1).collect();
        assert_eq!(order, vec![3, 2, 1, 0]);
    }

    #[test]
    fn pop_min_pairs_left_to_right_then_folds_right_to_left() {
        // root 0 (key 0) with children linked in order 1..=5, all key 1: child list is
        // [5, 4, 3, 2, 1] (most recent first).
        let mut a = arena(6);
        let mut r = NIL;
        a.insert(&mut r, 0, 0.0);
        for id in 1..6 {
            a.insert(&mut r, id, 1.0);
        }
        assert_eq!(children(&a, 0), vec![5, 4, 3, 2, 1]);
        assert_eq!(a.pop_min(&mut r), Some((0.0, 0)));
        // pairing: link(5,4) -> 4, link(3,2) -> 2, 1 alone; fold: link(1, 2) -> 2,
        // link(2, 4) -> 4.
        assert_eq!(r, 4);
        assert_eq!(children(&a, 4), vec![2, 5]);
        assert_eq!(children(&a, 2), vec![1, 3]);
        // pop 4: pair link(2, 5) -> 5; pop 5 -> 2; pop 2: pair link(1, 3) -> 3; then 1
        let order: Vec<u32> = drain(&mut a, &mut r).into_iter().map(|x| x.1).collect();
        assert_eq!(order, vec![4, 5, 2, 3, 1]);
    }

    #[test]
    fn tags_come_back_once() {
        let mut a = arena(3);
        let mut r = NIL;
        a.insert(&mut r, 0, 1.0);
        a.insert(&mut r, 1, 2.0);
        a.insert(&mut r, 2, 3.0);
        a.tag(1);
        assert_eq!(a.pop_min_tagged(&mut r), Some((1.0, 0, false)));
        assert_eq!(a.pop_min_tagged(&mut r), Some((2.0, 1, true)));
        a.insert(&mut r, 1, 2.5); // a reinserted node starts untagged
        assert_eq!(a.pop_min_tagged(&mut r), Some((2.5, 1, false)));
        assert_eq!(a.pop_min_tagged(&mut r), Some((3.0, 2, false)));
        assert_eq!(a.pop_min_tagged(&mut r), None);
    }

    #[test]
    fn add_all_shifts_every_key() {
        let mut a = arena(5);
        let mut r = NIL;
        for (id, k) in [(0, 4.0), (1, 1.0), (2, 3.0), (3, 2.0), (4, 5.0)] {
            a.insert(&mut r, id, k);
        }
        a.pop_min(&mut r); // give the heap some depth
        a.add_all(r, 10.0);
        for id in [0, 2, 3, 4] {
            assert!(a.true_key(id) >= 12.0);
        }
        let keys: Vec<f64> = drain(&mut a, &mut r).into_iter().map(|x| x.0).collect();
        assert_eq!(keys, vec![12.0, 13.0, 14.0, 15.0]);
        a.add_all(NIL, 1.0); // empty heap: no-op
    }

    #[test]
    fn set_key_on_root_keeps_it_in_place() {
        let mut a = arena(3);
        let mut r = NIL;
        a.insert(&mut r, 0, 1.0);
        a.insert(&mut r, 1, 2.0);
        a.insert(&mut r, 2, 3.0);
        a.set_key(&mut r, 0, 1.0, 0.5);
        assert_eq!(r, 0);
        assert_eq!(a.min(r), Some((0.5, 0)));
        // offset absorbed from - value = 0: children unchanged
        assert_eq!(a.true_key(1), 2.0);
        assert_eq!(a.true_key(2), 3.0);
    }

    #[test]
    fn set_key_on_non_root_cuts_and_relinks() {
        let mut a = arena(4);
        let mut r = NIL;
        a.insert(&mut r, 0, 1.0);
        a.insert(&mut r, 1, 2.0);
        a.insert(&mut r, 2, 3.0);
        a.insert(&mut r, 3, 4.0);
        assert_eq!(children(&a, 0), vec![3, 2, 1]);
        // a middle child (prev is its left sibling)
        a.set_key(&mut r, 2, 3.0, 0.25);
        assert_eq!(r, 2);
        assert_eq!(children(&a, 2), vec![0]);
        assert_eq!(children(&a, 0), vec![3, 1]);
        // a first child (prev is its parent)
        a.set_key(&mut r, 0, 1.0, 0.125);
        assert_eq!(r, 0);
        assert_eq!(children(&a, 0), vec![2, 3, 1]);
        let keys: Vec<(f64, u32)> = drain(&mut a, &mut r);
        assert_eq!(keys, vec![(0.125, 0), (0.25, 2), (2.0, 1), (4.0, 3)]);
    }

    #[test]
    fn set_key_offset_uses_callers_from_value() {
        // a node with a child: the offset absorbs (from - value), so a `from` that differs
        // from the stored key shifts the child's true key by the difference
        let mut a = arena(2);
        let mut r = NIL;
        a.insert(&mut r, 0, 1.0);
        a.insert(&mut r, 1, 2.0);
        a.set_key(&mut r, 0, 1.5, 1.0);
        assert_eq!(a.true_key(1), 2.5);
    }

    /// The house generator, as a function of its state (keeps the calls below short).
    fn rng(state: &mut graphsparse_base::SplitMix64) -> u64 {
        state.next_u64()
    }

    #[test]
    fn randomised_against_reference_multiset() {
        let mut s = graphsparse_base::SplitMix64::new(7);
        for _round in 0..200 {
            let n = 1 + (rng(&mut s) % 60) as usize;
            let mut a = arena(n);
            let mut r = NIL;
            let mut live: Vec<(u32, f64)> = vec![];
            let mut free: Vec<u32> = (0..n as u32).rev().collect();
            let mut last_pop = f64::NEG_INFINITY;
            for _ in 0..400 {
                match rng(&mut s) % 5 {
                    0 | 1 if !free.is_empty() => {
                        let id = free.pop().unwrap();
                        // integer keys produce ties; keys never drop below the last pop
                        let k = last_pop.max(0.0) + (rng(&mut s) % 8) as f64;
                        a.insert(&mut r, id, k);
                        live.push((id, k));
                    }
                    2 if !live.is_empty() => {
                        let d = (rng(&mut s) % 4) as f64;
                        a.add_all(r, d);
                        live.iter_mut().for_each(|x| x.1 += d);
                    }
                    3 if !live.is_empty() => {
                        let i = (rng(&mut s) as usize) % live.len();
                        let (id, k) = live[i];
                        let base = last_pop.max(0.0);
                        let to = base + ((k - base) / 2.0).floor();
                        a.set_key(&mut r, id, k, to);
                        live[i].1 = to;
                    }
                    _ => {
                        let got = a.pop_min(&mut r);
                        let want = live.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
                        match got {
                            None => assert!(live.is_empty()),
                            Some((k, id)) => {
                                assert_eq!(k, want);
                                assert!(k >= last_pop);
                                last_pop = k;
                                let i = live.iter().position(|x| x.0 == id).unwrap();
                                assert_eq!(live[i].1, k);
                                live.swap_remove(i);
                                free.push(id);
                            }
                        }
                    }
                }
                for &(id, k) in &live {
                    assert_eq!(a.true_key(id), k);
                }
            }
        }
    }
}
