//! A DAG of rank-one 0/1 kernels: the structure the restricted problem (14) is solved on.

use std::collections::HashMap;

use graphsparse_base::check_len;

use crate::error::{LatticeError, Result, bad_input};

/// A DAG of nodes `v`, each with a 0/1 feature `φ_v(x_i) = [i ∈ c_v]` (its *cover* `c_v`),
/// so that its kernel is the rank-one `K_v = φ_v φ_vᵀ`, a weight `d_v > 0` and its ancestor
/// set `A(v)` (which includes `v`).
///
/// Nodes are stored in a topological order: every parent of a node has a smaller index. The
/// whole DAG is the set `W` that [`solve_dag`](crate::solve_dag) optimises over (so it is
/// ancestor-closed by construction); the rule lattice grows one of these as its active set.
///
/// # Example
/// ```
/// use graphsparse_lattice::Dag;
/// // root (all 4 examples) -> {0, 1} and {1, 2}
/// let dag = Dag::new(4, &[vec![0, 1, 2, 3], vec![0, 1], vec![1, 2]], &[vec![], vec![0], vec![0]], &[1.0, 2.0, 2.0])?;
/// assert_eq!(dag.ancestors(2), &[0, 2]);
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Dag {
    m: usize,
    log_d: Vec<f64>,
    anc_ptr: Vec<usize>,
    anc: Vec<u32>,
    cover_ptr: Vec<usize>,
    cover: Vec<u32>,
    /// Nodes with the same cover have the same kernel `φφᵀ`: `class[v]` numbers the distinct
    /// covers in order of first appearance, `class_rep[k]` is the first node of class `k`.
    /// The Gram matrix and the projections work per class (many conjunctions of a lattice
    /// cover the same examples once `m` is small next to `|W|`).
    class: Vec<u32>,
    class_rep: Vec<u32>,
    class_index: HashMap<Box<[u32]>, u32>,
}

impl Dag {
    /// An empty DAG over `m` examples.
    pub fn empty(m: usize) -> Self {
        Self {
            m,
            log_d: Vec::new(),
            anc_ptr: vec![0],
            anc: Vec::new(),
            cover_ptr: vec![0],
            cover: Vec::new(),
            class: Vec::new(),
            class_rep: Vec::new(),
            class_index: HashMap::new(),
        }
    }

    /// Builds a DAG from each node's cover, parents and weight.
    ///
    /// # Arguments
    /// * `m` — number of examples.
    /// * `covers` — `covers[v]`: the examples where `φ_v = 1` (any order, no repeats, `< m`).
    /// * `parents` — `parents[v]`: indices `< v` of the parents of `v`.
    /// * `d` — `d[v] > 0`, finite.
    ///
    /// # Errors
    /// [`LatticeError::Input`] when the three slices differ in length;
    /// [`LatticeError::InvalidInput`] for an example index `≥ m` or repeated, a parent index
    /// not below its child, or a weight that is not finite and positive.
    ///
    /// # Complexity
    /// O(Σ_v |A(v)| · |parents(v)| + Σ_v |c_v| log |c_v|).
    pub fn new(m: usize, covers: &[Vec<u32>], parents: &[Vec<u32>], d: &[f64]) -> Result<Self> {
        check_len("parents", parents.len(), covers.len())?;
        check_len("d", d.len(), covers.len())?;
        Self::check_capacity(covers.len())?;
        let mut dag = Self::empty(m);
        for (v, ((c, pa), &dv)) in covers.iter().zip(parents).zip(d).enumerate() {
            if !(dv.is_finite() && dv > 0.0) {
                return Err(bad_input(
                    "d",
                    format!("d[{v}] must be finite and > 0, got {dv}"),
                ));
            }
            if let Some(&p) = pa.iter().find(|&&p| p as usize >= v) {
                return Err(bad_input(
                    "parents",
                    format!("node {v} has parent {p}; parents must come before their children"),
                ));
            }
            let mut c = c.clone();
            c.sort_unstable();
            if let Some(&i) = c.iter().find(|&&i| i as usize >= m) {
                return Err(bad_input(
                    "covers",
                    format!("node {v} covers example {i}, but m = {m}"),
                ));
            }
            if c.windows(2).any(|w| w[0] == w[1]) {
                return Err(bad_input(
                    "covers",
                    format!("node {v} lists an example twice"),
                ));
            }
            dag.push(&c, pa, dv.ln());
        }
        Ok(dag)
    }

    /// Appends a node (cover sorted, parents already present); returns its index.
    pub(crate) fn push(&mut self, cover: &[u32], parents: &[u32], log_d: f64) -> u32 {
        let v = self.len() as u32;
        let start = self.anc.len();
        for &p in parents {
            let (a, b) = (self.anc_ptr[p as usize], self.anc_ptr[p as usize + 1]);
            self.anc.extend_from_within(a..b);
        }
        self.anc.push(v);
        self.anc[start..].sort_unstable();
        // dedup the tail in place
        let mut w = start;
        for r in start..self.anc.len() {
            if w == start || self.anc[r] != self.anc[w - 1] {
                self.anc[w] = self.anc[r];
                w += 1;
            }
        }
        self.anc.truncate(w);
        self.anc_ptr.push(self.anc.len());
        self.cover.extend_from_slice(cover);
        self.cover_ptr.push(self.cover.len());
        self.log_d.push(log_d);
        let next = self.class_rep.len() as u32;
        let k = *self.class_index.entry(cover.into()).or_insert(next);
        if k == next {
            self.class_rep.push(v);
        }
        self.class.push(k);
        v
    }

    /// Drops the nodes from `n` on (those appended last), with the cover classes that only
    /// they had: the DAG is then the one its first `n` nodes made.
    ///
    /// # Complexity
    /// O(Σ |c_k|) over the dropped classes.
    pub(crate) fn truncate(&mut self, n: usize) {
        if n >= self.len() {
            return;
        }
        // classes are numbered in order of first appearance: the dropped ones are a suffix
        let kept = self.class_rep.partition_point(|&r| (r as usize) < n);
        for k in kept..self.class_rep.len() {
            let v = self.class_rep[k] as usize;
            let cover = &self.cover[self.cover_ptr[v]..self.cover_ptr[v + 1]];
            self.class_index.remove(cover);
        }
        self.class_rep.truncate(kept);
        self.class.truncate(n);
        self.anc.truncate(self.anc_ptr[n]);
        self.anc_ptr.truncate(n + 1);
        self.cover.truncate(self.cover_ptr[n]);
        self.cover_ptr.truncate(n + 1);
        self.log_d.truncate(n);
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.log_d.len()
    }

    /// True when there is no node.
    pub fn is_empty(&self) -> bool {
        self.log_d.is_empty()
    }

    /// Number of examples `m`.
    pub fn n_examples(&self) -> usize {
        self.m
    }

    /// `A(v)`, sorted (includes `v`).
    pub fn ancestors(&self, v: usize) -> &[u32] {
        &self.anc[self.anc_ptr[v]..self.anc_ptr[v + 1]]
    }

    /// The cover `c_v`, sorted.
    pub fn cover(&self, v: usize) -> &[u32] {
        &self.cover[self.cover_ptr[v]..self.cover_ptr[v + 1]]
    }

    /// Number of distinct covers among the nodes.
    pub(crate) fn n_classes(&self) -> usize {
        self.class_rep.len()
    }

    /// The cover class of node `v` (see the field docs).
    #[inline]
    pub(crate) fn class(&self, v: usize) -> usize {
        self.class[v] as usize
    }

    /// The cover shared by the nodes of class `k`.
    pub(crate) fn class_cover(&self, k: usize) -> &[u32] {
        self.cover(self.class_rep(k))
    }

    /// `log d_v`.
    pub fn log_weight(&self, v: usize) -> f64 {
        self.log_d[v]
    }

    /// Total number of (ancestor, node) pairs `Σ_v |A(v)|`, the cost of one ζ or gradient
    /// evaluation.
    pub fn n_ancestor_pairs(&self) -> usize {
        self.anc.len()
    }

    /// `out[v·T + t] = Σ_{i ∈ c_v} beta[t·m + i]` for every node (`T = beta.len() / m`).
    pub(crate) fn project_into(&self, beta: &[f64], t: usize, out: &mut [f64]) {
        let m = self.m;
        for v in 0..self.len() {
            let rep = self.class_rep[self.class(v)] as usize;
            if rep < v {
                // same cover as an earlier node: the same sums
                out.copy_within(rep * t..(rep + 1) * t, v * t);
                continue;
            }
            let c = self.cover(v);
            for s in 0..t {
                let b = &beta[s * m..(s + 1) * m];
                out[v * t + s] = c.iter().map(|&i| b[i as usize]).sum();
            }
        }
    }

    /// `out[t·m + i] = Σ_{v ∋ i} coef[v·T + t]` (the adjoint of [`Dag::project_into`]).
    pub(crate) fn expand_into(&self, coef: &[f64], t: usize, out: &mut [f64]) {
        scatter_covers((0..self.len()).map(|v| self.cover(v)), self.m, coef, t, out);
    }

    /// `out[t·m + i] = Σ_{k: i ∈ c_k} coef[k·T + t]` over the cover classes `k` (the adjoint of
    /// [`Dag::project_into`] for weights that are equal within a class, summed per class).
    pub(crate) fn expand_classes_into(&self, coef: &[f64], t: usize, out: &mut [f64]) {
        let covers = (0..self.n_classes()).map(|k| self.class_cover(k));
        scatter_covers(covers, self.m, coef, t, out);
    }

    /// The first node of cover class `k`.
    pub(crate) fn class_rep(&self, k: usize) -> usize {
        self.class_rep[k] as usize
    }

    /// Checks that a node count fits the `u32` indices used here.
    pub(crate) fn check_capacity(n: usize) -> Result<()> {
        if n >= u32::MAX as usize {
            return Err(LatticeError::TooLarge {
                name: "number of DAG nodes",
                value: n as u128,
                reason: "indices are u32",
            });
        }
        Ok(())
    }
}

/// `out[t·m + i] = Σ_{j: i ∈ covers[j]} coef[j·T + t]`: each cover adds its row of `coef`
/// to the examples it covers.
fn scatter_covers<'a>(
    covers: impl Iterator<Item = &'a [u32]>,
    m: usize,
    coef: &[f64],
    t: usize,
    out: &mut [f64],
) {
    out.iter_mut().for_each(|x| *x = 0.0);
    for (j, c) in covers.enumerate() {
        for s in 0..t {
            let w = coef[j * t + s];
            if w != 0.0 {
                let o = &mut out[s * m..(s + 1) * m];
                for &i in c {
                    o[i as usize] += w;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_gives_the_dag_of_the_first_nodes() {
        // nodes 3 and 5 share the cover of node 1; node 4 brings a new class, node 5 none
        let covers = [
            vec![0, 1, 2, 3],
            vec![0, 1],
            vec![1, 2],
            vec![0, 1],
            vec![1],
            vec![0, 1],
        ];
        let parents = [vec![], vec![0], vec![0], vec![1], vec![1, 2], vec![3]];
        let d = [1.0, 2.0, 2.0, 4.0, 4.0, 8.0];
        let full = Dag::new(4, &covers, &parents, &d).unwrap();
        for n in 0..=covers.len() + 1 {
            let k = n.min(covers.len());
            let want = Dag::new(4, &covers[..k], &parents[..k], &d[..k]).unwrap();
            let mut got = full.clone();
            got.truncate(n);
            assert_eq!(got, want, "{n}");
            // and it grows again as the prefix would
            for v in k..covers.len() {
                got.push(&covers[v], &parents[v], d[v].ln());
            }
            assert_eq!(got, full, "{n}");
        }
    }

    #[test]
    fn ancestors_are_closed_and_sorted() {
        // diamond: 0 -> 1, 0 -> 2, {1,2} -> 3
        let dag = Dag::new(
            3,
            &[vec![0, 1, 2], vec![0, 1], vec![1, 2], vec![1]],
            &[vec![], vec![0], vec![0], vec![1, 2]],
            &[1.0, 2.0, 2.0, 4.0],
        )
        .unwrap();
        assert_eq!(dag.ancestors(3), &[0, 1, 2, 3]);
        assert_eq!(dag.n_ancestor_pairs(), 1 + 2 + 2 + 4);
        let mut p = vec![0.0; 4];
        dag.project_into(&[1.0, 2.0, 4.0], 1, &mut p);
        assert_eq!(p, vec![7.0, 3.0, 6.0, 2.0]);
        let mut e = vec![0.0; 3];
        dag.expand_into(&[1.0, 1.0, 1.0, 1.0], 1, &mut e);
        assert_eq!(e, vec![2.0, 4.0, 2.0]);
    }

    #[test]
    fn bad_dags_are_errors() {
        assert!(Dag::new(2, &[vec![2]], &[vec![]], &[1.0]).is_err());
        assert!(Dag::new(2, &[vec![0, 0]], &[vec![]], &[1.0]).is_err());
        assert!(Dag::new(2, &[vec![0]], &[vec![0]], &[1.0]).is_err());
        assert!(Dag::new(2, &[vec![0]], &[vec![]], &[0.0]).is_err());
        assert!(Dag::new(2, &[vec![0]], &[vec![]], &[f64::NAN]).is_err());
        assert!(Dag::new(2, &[vec![0]], &[], &[1.0]).is_err());
    }
}
