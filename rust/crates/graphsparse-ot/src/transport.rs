//! The transport distance itself: Beckmann / Wasserstein-1 on a graph, solved exactly.
//!
//! Primal (spec (1'), mixed graphs §2.3): `min Σ_e c_e (J⁺_e + J⁻_e)` subject to
//! `Fᵀ(J⁺ − J⁻) = ρ1 − ρ0`, `J± ≥ 0`, `J⁻ = 0` on directed edges. Dual (2'):
//! `max_t tᵀ(ρ1 − ρ0)` subject to `|(F t)_e| ≤ c_e` (undirected), `(F t)_e ≤ c_e` (directed).
//!
//! **Algorithm: primal network simplex** on the uncapacitated transshipment problem (two arcs
//! per undirected edge, one per directed edge), with an artificial root joined to every vertex
//! (Big-M start), Cunningham's strongly feasible trees (which rule out cycling) and block
//! pricing. It is exact: the optimum of a transshipment LP is attained at a spanning-tree
//! basis, where the flows are subtree sums of the supplies and the potentials are path sums
//! of the costs. At the end both are recomputed from the final tree in one pass, so the value
//! carries no drift from the pivots; the potentials are the optimal dual `t`, and
//! primal = dual up to rounding. Tree updates touch only the re-hung subtree (O(subtree) per
//! pivot), memory is O(n + m), nothing is dense. This is the method LEMON and POT use for
//! their exact EMD, here on a sparse graph instead of a complete bipartite one.

use graphsparse_base::{Budget, Check, RunControl, Truncation};

use crate::error::{OtError, Result, check_distribution};
use crate::graph::OtGraph;
use graphsparse_base::check_len;

const NONE: u32 = u32::MAX;

/// Result of [`solve_transport`].
#[derive(Debug, Clone, PartialEq)]
pub struct TransportSolution {
    /// `W(ρ0, ρ1)`, `+∞` when `ρ1` cannot be reached (a component's mass differs, or
    /// directed edges point the wrong way). After a truncated solve: the cost of the feasible
    /// flow found so far (an upper bound on `W`), or `+∞` when none was found yet.
    pub value: f64,
    /// Net flow on each stored edge (`J⁺ − J⁻`; positive along `tail → head`).
    pub flow: Vec<f64>,
    /// Optimal potentials `t` (the dual), each weak component shifted to minimum 0. Not a
    /// certificate when the problem is infeasible.
    pub potentials: Vec<f64>,
    /// `tᵀ(ρ1 − ρ0)`, equal to `value` at the optimum (up to rounding).
    pub dual_value: f64,
    /// Whether the returned flow is feasible (mass differences below `4e-9` count as
    /// rounding). After a complete solve, false means `ρ1` cannot be reached.
    pub feasible: bool,
    /// Simplex pivots made.
    pub pivots: u64,
    /// Why the solve stopped early, if it did (see `value` and `feasible`).
    pub truncation: Option<Truncation>,
}

/// The network simplex state.
struct Simplex {
    n: usize,
    root: usize,
    src: Vec<u32>,
    dst: Vec<u32>,
    cost: Vec<f64>,
    flow: Vec<f64>,
    in_tree: Vec<bool>,
    parent: Vec<u32>,
    pred: Vec<u32>,
    up: Vec<bool>,
    first_child: Vec<u32>,
    next_sib: Vec<u32>,
    prev_sib: Vec<u32>,
    depth: Vec<u32>,
    pi: Vec<f64>,
    stack: Vec<u32>,
    /// The tree's nodes in preorder from the root (scratch of the two full passes).
    order: Vec<u32>,
}

impl Simplex {
    /// Fills `order` with the tree's nodes in preorder from the root (children pushed in
    /// sibling order, popped last first).
    fn preorder(&mut self) {
        self.order.clear();
        self.stack.clear();
        self.stack.push(self.root as u32);
        while let Some(u) = self.stack.pop() {
            self.order.push(u);
            let mut c = self.first_child[u as usize];
            while c != NONE {
                self.stack.push(c);
                c = self.next_sib[c as usize];
            }
        }
    }

    fn remove_child(&mut self, p: usize, c: usize) {
        let (ps, ns) = (self.prev_sib[c], self.next_sib[c]);
        if ps == NONE {
            self.first_child[p] = ns;
        } else {
            self.next_sib[ps as usize] = ns;
        }
        if ns != NONE {
            self.prev_sib[ns as usize] = ps;
        }
        self.prev_sib[c] = NONE;
        self.next_sib[c] = NONE;
    }

    fn add_child(&mut self, p: usize, c: usize) {
        let f = self.first_child[p];
        self.next_sib[c] = f;
        self.prev_sib[c] = NONE;
        if f != NONE {
            self.prev_sib[f as usize] = c as u32;
        }
        self.first_child[p] = c as u32;
    }

    /// Sets depth and adds `shift` to the potential of every node below (and at) `top`.
    fn refresh_subtree(&mut self, top: usize, shift: f64) {
        self.stack.clear();
        self.stack.push(top as u32);
        while let Some(u) = self.stack.pop() {
            let u = u as usize;
            self.depth[u] = self.depth[self.parent[u] as usize] + 1;
            self.pi[u] += shift;
            let mut c = self.first_child[u];
            while c != NONE {
                self.stack.push(c);
                c = self.next_sib[c as usize];
            }
        }
    }

    /// Potentials from the tree: `π(root) = 0` and reduced cost 0 on every tree arc.
    fn recompute_potentials(&mut self) {
        self.pi[self.root] = 0.0;
        self.preorder();
        for k in 1..self.order.len() {
            let u = self.order[k] as usize;
            let (p, a) = (self.parent[u] as usize, self.pred[u] as usize);
            // rc = cost + π(src) − π(dst) = 0
            self.pi[u] = if self.up[u] {
                self.pi[p] - self.cost[a]
            } else {
                self.pi[p] + self.cost[a]
            };
        }
    }

    fn rc(&self, a: usize) -> f64 {
        self.cost[a] + self.pi[self.src[a] as usize] - self.pi[self.dst[a] as usize]
    }

    /// One pivot on entering arc `ain`; false when the cycle is unbounded (cannot happen with
    /// non-negative costs).
    fn pivot(&mut self, ain: usize) -> bool {
        let (first, second) = (self.src[ain] as usize, self.dst[ain] as usize);
        let (mut u, mut v) = (first, second);
        while u != v {
            if self.depth[u] > self.depth[v] {
                u = self.parent[u] as usize;
            } else {
                v = self.parent[v] as usize;
            }
        }
        let join = u;
        let mut delta = f64::INFINITY;
        let (mut u_out, mut side) = (NONE as usize, 0);
        let mut u = first;
        while u != join {
            if self.up[u] {
                let d = self.flow[self.pred[u] as usize];
                if d < delta {
                    (delta, u_out, side) = (d, u, 1);
                }
            }
            u = self.parent[u] as usize;
        }
        let mut u = second;
        while u != join {
            if !self.up[u] {
                let d = self.flow[self.pred[u] as usize];
                if d <= delta {
                    (delta, u_out, side) = (d, u, 2);
                }
            }
            u = self.parent[u] as usize;
        }
        if side == 0 {
            return false;
        }
        if delta > 0.0 {
            self.flow[ain] += delta;
            let mut u = first;
            while u != join {
                let a = self.pred[u] as usize;
                self.flow[a] += if self.up[u] { -delta } else { delta };
                u = self.parent[u] as usize;
            }
            let mut u = second;
            while u != join {
                let a = self.pred[u] as usize;
                self.flow[a] += if self.up[u] { delta } else { -delta };
                u = self.parent[u] as usize;
            }
        }
        let (u_in, v_in) = if side == 1 {
            (first, second)
        } else {
            (second, first)
        };
        let sigma = {
            let r = self.rc(ain);
            if u_in == second { r } else { -r }
        };
        let a_out = self.pred[u_out] as usize;
        self.in_tree[a_out] = false;
        self.in_tree[ain] = true;
        // reverse the stem u_in → … → u_out
        let old_parent_out = self.parent[u_out] as usize;
        self.remove_child(old_parent_out, u_out);
        let (mut w, mut new_parent, mut new_pred, mut new_up) =
            (u_in, v_in, ain, self.src[ain] as usize == u_in);
        loop {
            let (p, a, dir) = (self.parent[w] as usize, self.pred[w] as usize, self.up[w]);
            if w != u_out {
                self.remove_child(p, w);
            }
            self.parent[w] = new_parent as u32;
            self.pred[w] = new_pred as u32;
            self.up[w] = new_up;
            self.add_child(new_parent, w);
            if w == u_out {
                break;
            }
            (new_parent, new_pred, new_up) = (w, a, !dir);
            w = p;
        }
        self.refresh_subtree(u_in, sigma);
        true
    }
}

/// Parameters of [`solve_transport`] (a builder; see [`Check::check`]): a pivot cap and a
/// budget.
///
/// # Example
/// ```
/// use graphsparse_ot::{Check, TransportParams};
/// let p = TransportParams::new().max_pivots(Some(100)).check()?;
/// assert_eq!(p.max_pivots(), Some(100));
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TransportParams {
    max_pivots: Option<u64>,
    budget: Budget,
}

impl TransportParams {
    /// No pivot cap beyond the default, no budget.
    pub const fn new() -> Self {
        Self {
            max_pivots: None,
            budget: Budget::UNLIMITED,
        }
    }

    graphsparse_base::setters! {
        /// Most pivots (`None`: `1000 (n + m) + 10⁴`, far above what the method needs; a cap
        /// reached truncates the solve).
        max_pivots: Option<u64> => max_pivots,
        /// Node budget (one node per 256 pivots) and time budget.
        budget: Budget => budget,
    }
}

impl Check for TransportParams {
    type Checked = TransportValidParams;
    type Error = OtError;

    /// Every pivot cap and budget is valid (a cap of 0 returns the starting basis, truncated).
    fn check(self) -> Result<TransportValidParams> {
        Ok(TransportValidParams(self))
    }
}

/// Checked [`TransportParams`]; the default is the one [`graph_ot_distance`] uses.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TransportValidParams(TransportParams);

impl TransportValidParams {
    /// The pivot cap.
    pub const fn max_pivots(&self) -> Option<u64> {
        self.0.max_pivots
    }
    /// The budget.
    pub const fn budget(&self) -> Budget {
        self.0.budget
    }
}

/// Solves the transport problem from `rho0` to `rho1` on `g` exactly.
///
/// # Arguments
/// * `g` – the graph (costs `≥ 0`; directed edges carry flow along their direction only).
/// * `rho0`, `rho1` – probability vectors on the vertices (each sums to 1 within `1e-9`).
/// * `params` – pivot cap and budget; `ctl` – cancellation.
///
/// # Returns
/// A [`TransportSolution`] with the value, the optimal flow and the optimal potentials.
///
/// # Errors
/// [`crate::OtError::Input`] (a length; negative, NaN or infinite mass),
/// [`crate::OtError::NotNormalized`].
///
/// # Complexity
/// O(m) per pricing block and O(cycle + re-hung subtree) per pivot; the number of pivots is
/// small in practice (typically a few times `n`). O(n + m) memory.
///
/// # Example
/// The worked example of spec §2.4 (path 0–1–2, costs 1 and 2):
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_ot::{OtGraph, TransportValidParams, solve_transport};
/// let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[1.0, 2.0])?;
/// let s = solve_transport(&g, &[0.1, 0.6, 0.3], &[0.4, 0.1, 0.5], &TransportValidParams::default(), &RunControl::new())?;
/// assert!((s.value - 0.7).abs() < 1e-15 && (s.dual_value - 0.7).abs() < 1e-15);
/// assert!((s.flow[0] + 0.3).abs() < 1e-15 && (s.flow[1] - 0.2).abs() < 1e-15);
/// assert_eq!(s.potentials, vec![1.0, 0.0, 2.0]);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn solve_transport(
    g: &OtGraph,
    rho0: &[f64],
    rho1: &[f64],
    params: &TransportValidParams,
    ctl: &RunControl,
) -> Result<TransportSolution> {
    let n = g.n_vertices();
    check_len("rho0", rho0.len(), n)?;
    check_len("rho1", rho1.len(), n)?;
    if n > 0 {
        check_distribution("rho0", rho0)?;
        check_distribution("rho1", rho1)?;
    }
    let mut state = Transport::new(g, rho0, rho1);
    let max_pivots = params
        .max_pivots()
        .unwrap_or(1000 * (n as u64 + g.n_edges() as u64) + 10_000);
    let meter = params.budget().start(ctl);
    let mut pivots = 0u64;
    let mut truncation = None;
    while state.n_real > 0 {
        if pivots % 256 == 0 && !meter.claim_node() {
            truncation = meter.truncation();
            break;
        }
        if pivots >= max_pivots {
            truncation = Some(Truncation::MaxNodes);
            break;
        }
        if !state.step() {
            break;
        }
        pivots += 1;
        if pivots % 1024 == 0 {
            state.s.recompute_potentials();
        }
    }
    Ok(state.finish(rho0, rho1, pivots, truncation))
}

/// A transport solve in progress: the network simplex on the arcs of `g` (two per undirected
/// edge, one per directed edge) plus one artificial arc per vertex to the root, and the
/// block-pricing cursor.
struct Transport<'g> {
    g: &'g OtGraph,
    s: Simplex,
    /// The edge each real arc belongs to and its direction along `tail → head`.
    arc_edge: Vec<(usize, f64)>,
    /// `ρ0 − ρ1` per vertex.
    supply: Vec<f64>,
    /// Number of real arcs (the artificial ones follow).
    n_real: usize,
    /// Reduced costs above `−tol` do not enter.
    tol: f64,
    /// Arcs per pricing block.
    block: usize,
    /// Where the next pricing scan starts.
    next: usize,
}

impl<'g> Transport<'g> {
    /// The Big-M starting basis: every vertex hangs from the root by its artificial arc.
    fn new(g: &'g OtGraph, rho0: &[f64], rho1: &[f64]) -> Self {
        let (n, m) = (g.n_vertices(), g.n_edges());
        // arcs: real ones, then one artificial arc per vertex
        let mut src = Vec::with_capacity(2 * m + n);
        let mut dst = Vec::with_capacity(2 * m + n);
        let mut cost = Vec::with_capacity(2 * m + n);
        let mut arc_edge = Vec::with_capacity(2 * m);
        for e in 0..m {
            let (a, b, c) = (g.tail()[e], g.head()[e], g.cost()[e]);
            src.push(a);
            dst.push(b);
            cost.push(c);
            arc_edge.push((e, 1.0));
            if !g.directed()[e] {
                src.push(b);
                dst.push(a);
                cost.push(c);
                arc_edge.push((e, -1.0));
            }
        }
        let n_real = src.len();
        let max_c = g.cost().iter().copied().fold(0.0_f64, f64::max);
        let big_m = 1.0 + 2.0 * (n as f64 + 1.0) * max_c.max(f64::MIN_POSITIVE);
        let root = n;
        let supply: Vec<f64> = rho0.iter().zip(rho1).map(|(a, b)| a - b).collect();
        let mut s = Simplex {
            n,
            root,
            src,
            dst,
            cost,
            flow: vec![0.0; n_real + n],
            in_tree: vec![false; n_real + n],
            parent: vec![NONE; n + 1],
            pred: vec![NONE; n + 1],
            up: vec![false; n + 1],
            first_child: vec![NONE; n + 1],
            next_sib: vec![NONE; n + 1],
            prev_sib: vec![NONE; n + 1],
            depth: vec![0; n + 1],
            pi: vec![0.0; n + 1],
            stack: Vec::new(),
            order: Vec::with_capacity(n + 1),
        };
        for (v, &sv) in supply.iter().enumerate() {
            let a = n_real + v;
            s.parent[v] = root as u32;
            s.pred[v] = a as u32;
            s.depth[v] = 1;
            s.in_tree[a] = true;
            if sv >= 0.0 {
                s.src.push(v as u32);
                s.dst.push(root as u32);
                s.cost.push(0.0);
                s.flow[a] = sv;
                s.up[v] = true;
            } else {
                s.src.push(root as u32);
                s.dst.push(v as u32);
                s.cost.push(big_m);
                s.flow[a] = -sv;
                s.up[v] = false;
            }
        }
        for v in (0..n).rev() {
            s.add_child(root, v);
        }
        s.recompute_potentials();
        Self {
            g,
            s,
            arc_edge,
            supply,
            n_real,
            tol: 64.0 * f64::EPSILON * (big_m + max_c),
            block: ((n_real as f64).sqrt() as usize).max(10).min(n_real.max(1)),
            next: 0,
        }
    }

    /// Block pricing: the most negative reduced cost of the first block that has one, scanning
    /// cyclically from where the last scan stopped; `None` when no arc prices in (optimal).
    fn entering_arc(&mut self) -> Option<usize> {
        let n_real = self.n_real;
        let mut best = (-self.tol, NONE as usize);
        let mut scanned = 0;
        let mut in_block = 0;
        while scanned < n_real {
            let a = self.next;
            self.next = if self.next + 1 == n_real {
                0
            } else {
                self.next + 1
            };
            scanned += 1;
            in_block += 1;
            if !self.s.in_tree[a] {
                let r = self.s.rc(a);
                if r < best.0 {
                    best = (r, a);
                }
            }
            if in_block == self.block {
                in_block = 0;
                if best.1 != NONE as usize {
                    break;
                }
            }
        }
        (best.1 != NONE as usize).then_some(best.1)
    }

    /// One simplex iteration: price, then pivot on the entering arc. False when the basis is
    /// optimal (or the cycle unbounded, which non-negative costs rule out).
    fn step(&mut self) -> bool {
        match self.entering_arc() {
            Some(a) => self.s.pivot(a),
            None => false,
        }
    }

    /// The solution at the current basis: exact tree flows and potentials recomputed from the
    /// tree in one pass (no drift from the pivots), the potentials shifted to minimum 0 per
    /// weak component.
    fn finish(
        mut self,
        rho0: &[f64],
        rho1: &[f64],
        pivots: u64,
        truncation: Option<Truncation>,
    ) -> TransportSolution {
        let (n, m, root) = (self.s.n, self.g.n_edges(), self.s.root);
        let s = &mut self.s;
        s.recompute_potentials();
        // exact tree flows: subtree sums of the supplies, in post-order
        s.preorder();
        let mut sub = vec![0.0_f64; n + 1];
        s.flow.iter_mut().for_each(|f| *f = 0.0);
        for &u in s.order.iter().skip(1).rev() {
            let u = u as usize;
            sub[u] += self.supply[u];
            let a = s.pred[u] as usize;
            s.flow[a] = if s.up[u] { sub[u] } else { -sub[u] }.max(0.0);
            let p = s.parent[u] as usize;
            sub[p] += sub[u];
        }
        debug_assert_eq!(s.order.first().map(|&r| r as usize), Some(root));
        let imbalance: f64 = self.supply.iter().sum::<f64>().abs();
        let artificial: f64 = s.flow[self.n_real..].iter().sum();
        let feasible = artificial <= imbalance + 4.0 * crate::error::MASS_TOL;
        let mut flow = vec![0.0; m];
        let mut value = 0.0;
        for (a, &(e, sign)) in self.arc_edge.iter().enumerate() {
            flow[e] += sign * s.flow[a];
            value += s.cost[a] * s.flow[a];
        }
        let (comp, n_comp) = self.g.components();
        let mut lo = vec![f64::INFINITY; n_comp];
        for v in 0..n {
            lo[comp[v] as usize] = lo[comp[v] as usize].min(s.pi[v]);
        }
        let potentials: Vec<f64> = (0..n).map(|v| s.pi[v] - lo[comp[v] as usize]).collect();
        let dual_value = potentials
            .iter()
            .zip(rho0.iter().zip(rho1))
            .map(|(t, (a, b))| t * (b - a))
            .sum();
        TransportSolution {
            value: if feasible { value } else { f64::INFINITY },
            flow,
            potentials,
            dual_value,
            feasible,
            pivots,
            truncation,
        }
    }
}

/// The transport distance `W(ρ0, ρ1)` on `g` (spec §2): the exact min-cost-flow / LP value.
///
/// `+∞` when `ρ1` cannot be reached from `ρ0` (a component's mass differs, or the directed
/// edges do not allow it). Convenience wrapper of [`solve_transport`] without a budget.
///
/// # Arguments
/// * `g` – the graph; `rho0`, `rho1` – probability vectors on its vertices.
///
/// # Returns
/// `W(ρ0, ρ1)`: the cheapest way to move `ρ0` onto `ρ1` along the edges at their costs.
///
/// # Errors
/// As [`solve_transport`].
///
/// # Complexity
/// As [`solve_transport`].
///
/// # Example
/// ```
/// use graphsparse_ot::{Directed, OtGraph, graph_ot_distance};
/// // triangle with unit costs, all mass from vertex 0 to vertex 1: one edge
/// let g = OtGraph::undirected(3, &[[0, 1], [1, 2], [2, 0]], &[1.0; 3])?;
/// assert_eq!(graph_ot_distance(&g, &[1.0, 0.0, 0.0], &[0.0, 1.0, 0.0])?, 1.0);
/// // a directed edge 0 → 1 cannot carry mass back
/// let d = OtGraph::new(2, &[[0, 1]], &[1.0], Directed::All)?;
/// assert_eq!(graph_ot_distance(&d, &[0.0, 1.0], &[1.0, 0.0])?, f64::INFINITY);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn graph_ot_distance(g: &OtGraph, rho0: &[f64], rho1: &[f64]) -> Result<f64> {
    Ok(solve_transport(
        g,
        rho0,
        rho1,
        &TransportValidParams::default(),
        &RunControl::new(),
    )?
    .value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Directed;

    fn solve(g: &OtGraph, a: &[f64], b: &[f64]) -> TransportSolution {
        solve_transport(
            g,
            a,
            b,
            &TransportValidParams::default(),
            &RunControl::new(),
        )
        .unwrap()
    }

    #[test]
    fn mixed_variants_of_the_worked_example() {
        let (a, b) = ([0.1, 0.6, 0.3], [0.4, 0.1, 0.5]);
        // e0 directed 1 -> 0, e1 undirected: still 0.7
        let g = OtGraph::new(
            3,
            &[[1, 0], [1, 2]],
            &[1.0, 2.0],
            Directed::Mask(&[true, false]),
        )
        .unwrap();
        let s = solve(&g, &a, &b);
        assert!(s.feasible && (s.value - 0.7).abs() < 1e-15);
        // e0 directed 0 -> 1: infeasible
        let g = OtGraph::new(
            3,
            &[[0, 1], [1, 2]],
            &[1.0, 2.0],
            Directed::Mask(&[true, false]),
        )
        .unwrap();
        assert!(!solve(&g, &a, &b).feasible);
    }

    #[test]
    fn disconnected_mass_mismatch_is_infinite_and_match_is_finite() {
        let g = OtGraph::undirected(4, &[[0, 1], [2, 3]], &[1.0, 1.0]).unwrap();
        let s = solve(&g, &[0.5, 0.0, 0.5, 0.0], &[0.0, 0.5, 0.0, 0.5]);
        assert!(s.feasible && (s.value - 1.0).abs() < 1e-15);
        let s = solve(&g, &[1.0, 0.0, 0.0, 0.0], &[0.0, 0.0, 0.0, 1.0]);
        assert!(!s.feasible && s.value == f64::INFINITY);
    }

    #[test]
    fn tree_closed_form_on_a_star() {
        // star: center 0, leaves 1..=4 with costs 1..=4
        let g = OtGraph::undirected(5, &[[0, 1], [0, 2], [0, 3], [0, 4]], &[1.0, 2.0, 3.0, 4.0])
            .unwrap();
        let a = [0.2, 0.2, 0.2, 0.2, 0.2];
        let b = [0.0, 0.5, 0.0, 0.0, 0.5];
        // W = Σ_e c_e |mass difference on the leaf side|
        let want = 0.3 + 2.0 * 0.2 + 3.0 * 0.2 + 4.0 * 0.3;
        let s = solve(&g, &a, &b);
        assert!((s.value - want).abs() < 1e-14 && (s.dual_value - want).abs() < 1e-14);
    }

    #[test]
    fn truncated_solves_report_what_they_have() {
        let edges: Vec<[u32; 2]> = (0..29).map(|i| [i, i + 1]).collect();
        let g = OtGraph::undirected(30, &edges, &[1.0; 29]).unwrap();
        let (mut a, mut b) = (vec![0.0; 30], vec![0.0; 30]);
        a[0] = 1.0;
        b[29] = 1.0;
        let full = solve(&g, &a, &b);
        assert!(full.feasible && (full.value - 29.0).abs() < 1e-12);
        let p = TransportParams::new().max_pivots(Some(3)).check().unwrap();
        let s = solve_transport(&g, &a, &b, &p, &RunControl::new()).unwrap();
        assert_eq!(s.truncation, Some(Truncation::MaxNodes));
        if s.feasible {
            assert!(s.value >= full.value - 1e-12);
        } else {
            assert_eq!(s.value, f64::INFINITY);
        }
        let ctl = RunControl::new();
        ctl.cancel();
        let s = solve_transport(&g, &a, &b, &TransportValidParams::default(), &ctl).unwrap();
        assert_eq!(s.truncation, Some(Truncation::Cancelled));
        assert!(!s.feasible && s.value == f64::INFINITY);
    }

    #[test]
    fn empty_and_edgeless_graphs() {
        let g = OtGraph::undirected(0, &[], &[]).unwrap();
        assert_eq!(graph_ot_distance(&g, &[], &[]).unwrap(), 0.0);
        let g = OtGraph::undirected(2, &[], &[]).unwrap();
        assert_eq!(
            graph_ot_distance(&g, &[0.5, 0.5], &[0.5, 0.5]).unwrap(),
            0.0
        );
        assert_eq!(
            graph_ot_distance(&g, &[1.0, 0.0], &[0.0, 1.0]).unwrap(),
            f64::INFINITY
        );
        assert!(graph_ot_distance(&g, &[0.5, 0.6], &[0.5, 0.5]).is_err());
        assert!(graph_ot_distance(&g, &[1.5, -0.5], &[0.5, 0.5]).is_err());
    }
}
