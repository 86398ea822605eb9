//! Shared generators of the integration tests (fixed seeds; no dependencies). The example
//! `scaling` and the criterion bench `recovery` include this file too (`#[path]`), for the
//! same generator: keep it free of crate imports.
#![allow(dead_code)]

/// Relative difference `|a − b| / max(|a|, |b|)` (safe at 0).
pub fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(1e-300)
}

/// The house generator (`graphsparse_base::SplitMix64`) as a resumable state.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        let mut g = graphsparse_base::SplitMix64::new(self.0);
        let z = g.next_u64();
        self.0 = g.state();
        z
    }
    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = self.uniform().max(1e-300);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
    pub fn normals(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.normal()).collect()
    }
}

/// A cycle on a random order plus the matching `order[k] ~ order[k + n/2 + 1]` for even `k`
/// (pairs already joined are skipped): connected, degree about 3. The graph of the paper's
/// instance in the criterion bench `recovery` and the example `scaling`.
pub fn cycle_matching_graph(n: usize, rng: &mut Rng) -> Vec<[usize; 2]> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, (rng.uniform() * (i + 1) as f64) as usize);
    }
    let mut edges: Vec<[usize; 2]> = (0..n).map(|k| [order[k], order[(k + 1) % n]]).collect();
    for k in (0..n / 2).map(|k| 2 * k) {
        let (u, v) = (order[k], order[(k + n / 2 + 1) % n]);
        if u != v
            && !edges
                .iter()
                .any(|e| (e[0] == u && e[1] == v) || (e[0] == v && e[1] == u))
        {
            edges.push([u, v]);
        }
    }
    edges
}

/// A signal `x ∈ ℝⁿ` with `k` leading standard-normal entries, then a `j × n` standard-normal
/// matrix (row-major), drawn in that order.
pub fn signal_and_design(n: usize, j: usize, k: usize, rng: &mut Rng) -> (Vec<f64>, Vec<f64>) {
    let mut x = vec![0.0; n];
    x.iter_mut().take(k).for_each(|v| *v = rng.normal());
    (x, rng.normals(j * n))
}

/// `a x` for a row-major `a` with `x.len()` columns (each entry an in-order sum).
pub fn dense_product(a: &[f64], x: &[f64]) -> Vec<f64> {
    a.chunks_exact(x.len())
        .map(|row| row.iter().zip(x).map(|(a, x)| a * x).sum())
        .collect()
}

/// A `j × n` CSR matrix (`ptr`, `idx`, `val`) with `per_row` entries per row at uniform
/// columns (repeats allowed), each a standard normal divided by `scale`.
pub fn random_csr(
    j: usize,
    n: usize,
    per_row: usize,
    scale: f64,
    rng: &mut Rng,
) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
    let (mut ptr, mut idx, mut val) = (vec![0usize], Vec::new(), Vec::new());
    for _ in 0..j {
        for _ in 0..per_row {
            idx.push((rng.uniform() * n as f64) as usize);
            val.push(rng.normal() / scale);
        }
        ptr.push(idx.len());
    }
    (ptr, idx, val)
}

/// A connected graph of degree about 3: a Hamiltonian cycle on a random order plus a random
/// matching (pairs already adjacent are skipped).
pub fn cubic_like_graph(n: usize, rng: &mut Rng) -> Vec<[usize; 2]> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    let mut edges = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |u: usize, v: usize, edges: &mut Vec<[usize; 2]>| {
        if u != v && seen.insert((u.min(v), u.max(v))) {
            edges.push([u, v]);
        }
    };
    for k in 0..n {
        add(order[k], order[(k + 1) % n], &mut edges);
    }
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i + 1);
        perm.swap(i, j);
    }
    for k in (0..n.saturating_sub(1)).step_by(2) {
        add(perm[k], perm[k + 1], &mut edges);
    }
    edges
}

/// A compressed-sensing instance: Gaussian `J × N` matrix, a signal on a connected piece of
/// the graph (BFS from a random vertex), noise of standard deviation `noise`.
pub struct Instance {
    pub a: Vec<f64>,
    pub y: Vec<f64>,
    pub x: Vec<f64>,
    pub edges: Vec<[usize; 2]>,
    pub n: usize,
    pub j: usize,
}

impl Instance {
    /// `sign(y)` as ±1 labels (0 counts as +1), for the classification losses.
    pub fn labels(&self) -> Vec<f64> {
        self.y
            .iter()
            .map(|&v| if v >= 0.0 { 1.0 } else { -1.0 })
            .collect()
    }
}

pub fn instance(n: usize, j: usize, k: usize, noise: f64, seed: u64) -> Instance {
    let mut rng = Rng(seed);
    let edges = cubic_like_graph(n, &mut rng);
    let mut adj = vec![Vec::new(); n];
    for &[u, v] in &edges {
        adj[u].push(v);
        adj[v].push(u);
    }
    let mut x = vec![0.0; n];
    let mut queue = std::collections::VecDeque::from([rng.below(n)]);
    let mut inside = vec![false; n];
    let mut count = 0;
    while let Some(u) = queue.pop_front() {
        if inside[u] || count >= k {
            continue;
        }
        inside[u] = true;
        count += 1;
        x[u] = rng.normal();
        for &v in &adj[u] {
            queue.push_back(v);
        }
    }
    let a = rng.normals(j * n);
    let y = dense_product(&a, &x)
        .iter()
        .map(|v| v + noise * rng.normal())
        .collect();
    Instance {
        a,
        y,
        x,
        edges,
        n,
        j,
    }
}
