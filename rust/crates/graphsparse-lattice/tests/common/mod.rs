//! Naive references shared by the integration tests: the explicit conjunction lattice of a
//! few propositions, brute-force `K_u`, the primal objective evaluated node by node, and a
//! weak-duality lower bound computed from scratch.
#![allow(dead_code, clippy::needless_range_loop)]

use std::collections::HashMap;

use graphsparse_base::SplitMix64;
use graphsparse_lattice::{Dag, PropositionMatrix};

/// A random `m × p` 0/1 matrix (row-major) and ±1 labels from a random conjunction with
/// label noise; both classes always present.
pub fn random_problem(seed: u64, m: usize, p: usize) -> (Vec<bool>, Vec<f64>) {
    let mut rng = SplitMix64::new(seed);
    loop {
        let x: Vec<bool> = (0..m * p).map(|_| rng.uniform() < 0.55).collect();
        let a = (rng.next_u64() % p as u64) as usize;
        let b = (rng.next_u64() % p as u64) as usize;
        let y: Vec<f64> = (0..m)
            .map(|i| {
                let r = x[i * p + a] && x[i * p + b];
                let r = if rng.uniform() < 0.1 { !r } else { r };
                if r { 1.0 } else { -1.0 }
            })
            .collect();
        if y.contains(&1.0) && y.contains(&-1.0) {
            return (x, y);
        }
    }
}

/// The full conjunction lattice of `p` propositions over `m` examples, nodes in a
/// topological order (by size, then mask).
pub struct Lattice {
    pub m: usize,
    pub p: usize,
    pub masks: Vec<u32>,
    pub index: HashMap<u32, usize>,
    pub covers: Vec<Vec<u32>>,
    pub d: Vec<f64>,
    pub dag: Dag,
}

impl Lattice {
    pub fn new(x: &[bool], m: usize, p: usize, a: f64) -> Self {
        let mut masks: Vec<u32> = (0..1u32 << p).collect();
        masks.sort_by_key(|&s| (s.count_ones(), s));
        let index: HashMap<u32, usize> = masks.iter().enumerate().map(|(k, &s)| (s, k)).collect();
        let covers: Vec<Vec<u32>> = masks
            .iter()
            .map(|&s| {
                (0..m as u32)
                    .filter(|&i| (0..p).all(|j| s >> j & 1 == 0 || x[i as usize * p + j]))
                    .collect()
            })
            .collect();
        let parents: Vec<Vec<u32>> = masks
            .iter()
            .map(|&s| {
                (0..p)
                    .filter(|&j| s >> j & 1 == 1)
                    .map(|j| index[&(s & !(1 << j))] as u32)
                    .collect()
            })
            .collect();
        let d: Vec<f64> = masks
            .iter()
            .map(|s| a.powi(s.count_ones() as i32))
            .collect();
        let dag = Dag::new(m, &covers, &parents, &d).unwrap();
        Self {
            m,
            p,
            masks,
            index,
            covers,
            d,
            dag,
        }
    }

    pub fn n(&self) -> usize {
        self.masks.len()
    }

    pub fn phi(&self, w: usize, i: usize) -> bool {
        self.covers[w].binary_search(&(i as u32)).is_ok()
    }

    /// `w ∈ D(v)`.
    pub fn below(&self, v: usize, w: usize) -> bool {
        self.masks[w] & self.masks[v] == self.masks[v]
    }

    /// The node of a proposition list.
    pub fn node(&self, props: &[u32]) -> usize {
        self.index[&props.iter().fold(0u32, |s, &q| s | 1 << q)]
    }

    /// Brute force `K_u = Σ_{w ∈ D(u)} K_w / (Σ_{v ∈ A(w) ∩ D(u)} d_v)²`, dense `m × m`.
    pub fn ku_brute(&self, u: usize) -> Vec<f64> {
        let m = self.m;
        let mut k = vec![0.0; m * m];
        for w in 0..self.n() {
            if !self.below(u, w) {
                continue;
            }
            let den: f64 = (0..self.n())
                .filter(|&v| self.below(u, v) && self.below(v, w))
                .map(|v| self.d[v])
                .sum();
            for &i in &self.covers[w] {
                for &j in &self.covers[w] {
                    k[i as usize * m + j as usize] += 1.0 / (den * den);
                }
            }
        }
        k
    }

    pub fn matrix(x: &[bool], m: usize, p: usize) -> PropositionMatrix {
        PropositionMatrix::from_dense(m, p, x).unwrap()
    }
}

/// `B = I + c·11ᵀ` and its inverse `I − c/(1 + cT) 11ᵀ`.
pub fn task_kernel(tasks: usize, c: f64) -> (Vec<f64>, Vec<f64>) {
    let shrink = c / (1.0 + c * tasks as f64);
    let mut b = vec![c; tasks * tasks];
    let mut binv = vec![-shrink; tasks * tasks];
    for t in 0..tasks {
        b[t * tasks + t] += 1.0;
        binv[t * tasks + t] += 1.0;
    }
    (b, binv)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Loss {
    Hinge,
    Squared,
}

/// The smallest total loss of one task over its bias, by brute force over the breakpoints
/// (hinge) or the mean residual (squared).
fn best_task_loss(loss: Loss, y: &[f64], s: &[f64]) -> f64 {
    let total = |b: f64| -> f64 {
        y.iter()
            .zip(s)
            .map(|(&y, &s)| match loss {
                Loss::Hinge => (1.0 - y * (s - b)).max(0.0),
                Loss::Squared => 0.5 * (y - s + b) * (y - s + b),
            })
            .sum()
    };
    match loss {
        Loss::Hinge => y
            .iter()
            .zip(s)
            .map(|(&y, &s)| total(s - y))
            .fold(f64::INFINITY, f64::min),
        Loss::Squared => {
            let b = s.iter().zip(y).map(|(s, y)| s - y).sum::<f64>() / y.len() as f64;
            total(b)
        }
    }
}

/// The primal objective `½ Ω_T(f)² + C Σ ℓ` of node weights `f` (node-major `n × T`) with the
/// best biases, summing over the explicit lattice (`Q_w² = f_wᵀ B⁻¹ f_w`).
#[allow(clippy::too_many_arguments)]
pub fn primal_brute(
    lat: &Lattice,
    f: &[f64],
    tasks: usize,
    binv: &[f64],
    rho: f64,
    c: f64,
    loss: Loss,
    y: &[f64],
) -> f64 {
    let n = lat.n();
    let q: Vec<f64> = (0..n)
        .map(|w| {
            let mut s = 0.0;
            for t in 0..tasks {
                for u in 0..tasks {
                    s += binv[t * tasks + u] * f[w * tasks + t] * f[w * tasks + u];
                }
            }
            s.max(0.0).sqrt()
        })
        .collect();
    let omega: f64 = (0..n)
        .map(|v| {
            let inner: f64 = (0..n)
                .filter(|&w| lat.below(v, w))
                .map(|w| q[w].powf(rho))
                .sum();
            lat.d[v] * inner.powf(1.0 / rho)
        })
        .sum();
    let m = lat.m;
    let mut total_loss = 0.0;
    for t in 0..tasks {
        let s: Vec<f64> = (0..m)
            .map(|i| {
                (0..n)
                    .filter(|&w| lat.phi(w, i))
                    .map(|w| f[w * tasks + t])
                    .sum()
            })
            .collect();
        total_loss += best_task_loss(loss, &y[t * m..(t + 1) * m], &s);
    }
    0.5 * omega * omega + c * total_loss
}

/// `M_w = Σ_{t,t'} B_{tt'} (φ_wᵀ β_t)(φ_wᵀ β_{t'})` on the explicit lattice.
pub fn node_m(lat: &Lattice, beta: &[f64], tasks: usize, b: &[f64]) -> Vec<f64> {
    let m = lat.m;
    (0..lat.n())
        .map(|w| {
            let pr: Vec<f64> = (0..tasks)
                .map(|t| {
                    lat.covers[w]
                        .iter()
                        .map(|&i| beta[t * m + i as usize])
                        .sum()
                })
                .collect();
            let mut s = 0.0;
            for t in 0..tasks {
                for u in 0..tasks {
                    s += b[t * tasks + u] * pr[t] * pr[u];
                }
            }
            s.max(0.0)
        })
        .collect()
}

/// `log ζ_w(η)` over the explicit lattice (`η > 0`).
pub fn log_zeta(lat: &Lattice, eta: &[f64], rho: f64) -> Vec<f64> {
    (0..lat.n())
        .map(|w| {
            let terms: Vec<f64> = (0..lat.n())
                .filter(|&v| lat.below(v, w))
                .map(|v| rho * lat.d[v].ln() + (1.0 - rho) * eta[v].ln())
                .collect();
            let mx = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lse = mx + terms.iter().map(|t| (t - mx).exp()).sum::<f64>().ln();
            lse / (1.0 - rho)
        })
        .collect()
}

/// An upper bound of `O(α) = max_η (Σ_w ζ_w(η) M_w^ρ̄)^{1/ρ̄}` from the feasible `κ_vw =
/// d_v^ρ η_v^{1−ρ} ζ_w^{ρ−1}` of program (21) at a strictly positive `η`.
pub fn o_upper(lat: &Lattice, eta: &[f64], rho: f64, mw: &[f64]) -> f64 {
    let rb = rho / (2.0 * (rho - 1.0));
    let lz = log_zeta(lat, eta, rho);
    let n = lat.n();
    let mut best = 0.0f64;
    for v in 0..n {
        let mut s = 0.0;
        for w in 0..n {
            if lat.below(v, w) && mw[w] > 0.0 {
                let lk = rho * lat.d[v].ln() + (1.0 - rho) * eta[v].ln() + (rho - 1.0) * lz[w];
                s += (rb * (2.0 * lk + mw[w].ln())).exp();
            }
        }
        best = best.max(s.powf(1.0 / rb) / (lat.d[v] * lat.d[v]));
    }
    best
}

/// `h(η) = (Σ_w ζ_w M_w^ρ̄)^{1/ρ̄}` and its gradient.
pub fn h_and_grad(lat: &Lattice, eta: &[f64], rho: f64, mw: &[f64]) -> (f64, Vec<f64>) {
    let rb = rho / (2.0 * (rho - 1.0));
    let lz = log_zeta(lat, eta, rho);
    let n = lat.n();
    let s: f64 = (0..n).map(|w| lz[w].exp() * mw[w].powf(rb)).sum();
    let mut g = vec![0.0; n];
    if s <= 0.0 {
        return (0.0, g);
    }
    for (i, gi) in g.iter_mut().enumerate() {
        let ds: f64 = (0..n)
            .filter(|&w| lat.below(i, w))
            .map(|w| mw[w].powf(rb) * (rho * lz[w] + rho * lat.d[i].ln() - rho * eta[i].ln()).exp())
            .sum();
        *gi = s.powf(1.0 / rb - 1.0) / rb * ds;
    }
    (s.powf(1.0 / rb), g)
}

/// The weak-duality lower bound `D(α) = Σ −Cφ*(−α/C) − ½ Ō` with `Ō ≥ O(α)` the best bound
/// [`o_upper`] finds along a projected-gradient ascent of `h` started at `eta_hint` (the
/// projection onto the simplex is `graphsparse_proj::project_simplex`). Valid for any
/// feasible `α` whatever the hint; the hint only makes it tight.
#[allow(clippy::too_many_arguments)]
pub fn lower_bound(
    lat: &Lattice,
    alpha: &[f64],
    y: &[f64],
    tasks: usize,
    b: &[f64],
    rho: f64,
    c: f64,
    loss: Loss,
    eta_hint: &[f64],
    ascent_steps: usize,
) -> f64 {
    let m = lat.m;
    let n = lat.n();
    for t in 0..tasks {
        let (ys, als) = (&y[t * m..(t + 1) * m], &alpha[t * m..(t + 1) * m]);
        match loss {
            Loss::Hinge => {
                assert!(
                    als.iter()
                        .all(|&a| (-1e-12..=c * (1.0 + 1e-12)).contains(&a))
                );
                let net: f64 = ys.iter().zip(als).map(|(y, a)| y * a).sum();
                assert!(
                    net.abs() <= 1e-9 * (1.0 + c * m as f64),
                    "y^T alpha = {net}"
                );
            }
            Loss::Squared => {
                let net: f64 = als.iter().sum();
                assert!(net.abs() <= 1e-9 * (1.0 + als.iter().map(|a| a.abs()).sum::<f64>()));
            }
        }
    }
    let (beta, loss_part): (Vec<f64>, f64) = match loss {
        Loss::Hinge => (
            y.iter().zip(alpha).map(|(y, a)| y * a).collect(),
            alpha.iter().sum(),
        ),
        Loss::Squared => (
            alpha.to_vec(),
            y.iter()
                .zip(alpha)
                .map(|(y, a)| y * a - a * a / (2.0 * c))
                .sum(),
        ),
    };
    let mw = node_m(lat, &beta, tasks, b);
    let interior = |e: &[f64]| -> Vec<f64> {
        let eps = 1e-12;
        e.iter()
            .map(|&v| (1.0 - eps) * v.max(0.0) + eps / n as f64)
            .collect()
    };
    let mut eta = graphsparse_proj::project_simplex(eta_hint, 1.0).unwrap();
    let mut best = o_upper(lat, &interior(&eta), rho, &mw);
    for k in 1..=ascent_steps {
        let e = interior(&eta);
        let (_, g) = h_and_grad(lat, &e, rho, &mw);
        let gmax = g.iter().copied().fold(0.0f64, f64::max);
        if gmax <= 0.0 {
            break;
        }
        let step = 0.05 / (k as f64).sqrt() / gmax;
        let moved: Vec<f64> = eta.iter().zip(&g).map(|(e, g)| e + step * g).collect();
        eta = graphsparse_proj::project_simplex(&moved, 1.0).unwrap();
        best = best.min(o_upper(lat, &interior(&eta), rho, &mw));
    }
    loss_part - 0.5 * best
}
