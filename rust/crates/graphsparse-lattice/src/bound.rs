//! A tighter reading of the sufficient condition (15) that uses what the active set holds.
//!
//! The certificate needs `Ō ≥ O_V(α)`, and App. A.7 of the paper gets it from a feasible `κ`
//! of program (21) that, outside `W`, gives each node `w` to its ancestors in `W^c` in
//! proportion to `d_v`. For a source `u` of `W^c` that bound is
//!
//! `s_u = ‖(M_w / den_W(w)²)_{w ∈ D(u)}‖_{ρ̄}`,  `den_W(w) = Σ_{v ∈ A(w) ∩ W^c} d_v`,
//!
//! and the paper then relaxes it twice: `den_W(w) ≥ Σ_{v ∈ A(w) ∩ D(u)} d_v = a^ℓ (1+a)^k`
//! (with `ℓ = |S_u|`, `k = |S_w \ S_u|`), and `‖·‖_{ρ̄} ≤ ‖·‖_1`. Both are loose on the
//! lattice: deep descendants dominate `K_u`, and for them most subsets of `S_w` lie outside a
//! small `W`. This module undoes part of both relaxations, keeping the entry-wise form:
//!
//! * **Denominators.** `den_W(w) = (1+a)^{ℓ+k} − Σ_{v ∈ W, v ⊆ S_w} a^{|v|}`, and no `v ∈ W`
//!   contains `S_u` (else `u ∈ W`, as `W` is ancestor-closed). With `n_j` nodes of size `j` in
//!   `W`, `den_W(w) ≥ den(ℓ, k) := (1+a)^{ℓ+k} − Σ_j a^j min(n_j, C(ℓ+k, j) − C(k, j − ℓ))`,
//!   which depends on `w` only through `k`. Summing level by level,
//!   `Σ_{w ∈ D(u)} M_w/den(ℓ,k)² = Σ_{i,j ∈ c_u} β_i β_j H_ℓ(N_ij − ℓ)` with
//!   `H_ℓ(n) = Σ_k C(n, k)/den(ℓ, k)²` (`N_ij` = propositions true for both examples). With
//!   `den = a^ℓ (1+a)^k` this is the paper's `K_u`; every level sum is `≥ 0`, so a larger
//!   denominator can only lower the score.
//! * **The `ρ̄`-norm.** `‖x‖_{ρ̄} ≤ ‖x‖_∞^{1 − 1/ρ̄} ‖x‖_1^{1/ρ̄}`, and `‖x‖_∞ ≤ X_u :=
//!   max(M_u / a^{2ℓ}, P_u² / min_{k ≥ 1} den(ℓ, k)²)` with `P_u = max(Σ_{c_u} β⁺, Σ_{c_u} β⁻)`
//!   bounding `|φ_wᵀ β|` over every descendant. For `ρ = 2` (`ρ̄ = 1`) this step is void.
//!
//! Both steps keep a valid upper bound, so the certificate stays a certificate; the score is
//! never above the paper's.

use rayon::prelude::*;

use crate::bits;
use crate::kernel::{Candidate, ROWS_PER_POLL, Scoring, gather_support, stopped_at};

/// The per-round tables of the tightened scores.
#[derive(Debug, Clone)]
pub(crate) struct Tightening {
    rho_bar: f64,
    log_a: f64,
    /// `q^n`, `q = 1 + (1+a)^{−2}`: the paper's kernel entries (times `a^{2ℓ}`).
    q_pow: Vec<f64>,
    /// `one[ℓ][n] = a^{2ℓ} Σ_{k ≥ 1} C(n, k) / den(ℓ, k)²` (the `ℓ1` level sums).
    one: Vec<Vec<f64>>,
    /// `pow[ℓ][n] = a^{2ℓρ̄} Σ_{k ≥ 1} C(n, k) / den(ℓ, k)^{2ρ̄}` (the `ℓρ̄` level sums).
    pow: Vec<Vec<f64>>,
}

/// `C(n, j)` in floating point (exact below 2^53, `inf` past `f64`).
fn binom(n: usize, j: usize) -> f64 {
    if j > n {
        return 0.0;
    }
    let j = j.min(n - j);
    (1..=j).fold(1.0, |acc, i| acc * (n - j + i) as f64 / i as f64)
}

/// `Σ_{k ≥ 1} C(n, k) g^k / r_k^e` for `n = 0..r.len()`, by Pascal's rule on `C(n, k) g^k`.
fn level_sums(g: f64, r: &[f64], e: f64) -> Vec<f64> {
    let kmax = r.len() - 1;
    let w: Vec<f64> = r.iter().map(|&v| v.powf(-e)).collect();
    let mut t = vec![0.0; kmax + 1];
    t[0] = 1.0;
    let mut out = Vec::with_capacity(kmax + 1);
    for n in 0..=kmax {
        if n > 0 {
            for k in (1..=n).rev() {
                t[k] += t[k - 1] * g;
            }
        }
        out.push((1..=n).map(|k| t[k] * w[k]).sum::<f64>());
    }
    out
}

impl Tightening {
    /// Tables for sources of size `1..=max_len` when `W` holds `level_counts[j]` nodes of
    /// size `j`, on `p` propositions with base `a`.
    pub(crate) fn new(
        a: f64,
        rho_bar: f64,
        p: usize,
        level_counts: &[usize],
        max_len: usize,
    ) -> Self {
        let b = 1.0 + a;
        let mut one = vec![Vec::new(); max_len + 1];
        let mut pow = vec![Vec::new(); max_len + 1];
        for l in 1..=max_len.min(p) {
            // r_k = den(ℓ, k) / (a^ℓ (1+a)^k) ∈ [1, ((1+a)/a)^ℓ]
            let top = (b / a).powi(l as i32);
            let r: Vec<f64> = (0..=p - l)
                .map(|k| {
                    let mut held = 0.0;
                    let mut scale = a.powi(-(l as i32)) * b.powi(-(k as i32));
                    for (j, &nj) in level_counts.iter().enumerate().take(l + k + 1) {
                        if nj > 0 {
                            let room = binom(l + k, j) - if j >= l { binom(k, j - l) } else { 0.0 };
                            let cnt = if room.is_finite() {
                                room.min(nj as f64)
                            } else {
                                nj as f64
                            };
                            held += scale * cnt;
                        }
                        scale *= a;
                    }
                    (top - held).max(1.0)
                })
                .collect();
            one[l] = level_sums(b.powi(-2), &r, 2.0);
            pow[l] = level_sums(b.powf(-2.0 * rho_bar), &r, 2.0 * rho_bar);
        }
        let q = 1.0 + 1.0 / (b * b);
        let q_pow = (0..=p).scan(1.0, |v, _| {
            let out = *v;
            *v *= q;
            Some(out)
        });
        Self {
            rho_bar,
            log_a: a.ln(),
            q_pow: q_pow.collect(),
            one,
            pow,
        }
    }

    /// A lower bound of the score candidate `c` gets (the paper's, or the tightened one where
    /// the tables reach), in `O(|c_u| p/64)`: each score is a nonnegative function of
    /// quadratic forms `vᵀFv` with positive semidefinite `F` (`F_ij = f(N_ij − ℓ)` for the
    /// paper's `q^n` and the level sums, nonnegative combinations of the matrices
    /// `[C(N_ij − ℓ, k)] = Σ_{|E| = k} φ_E φ_Eᵀ`), and `vᵀFv ≥ (F_{i·} v)² / F_ii` for any row
    /// `i` (Cauchy–Schwarz in the `F` inner product). The row taken is the covered row with the
    /// largest `Σ_r w_r v_{r,i}²`; on wide tables its own deep conjunctions (the diagonal)
    /// carry most of every score.
    pub(crate) fn pivot_bound(&self, job: &Scoring, c: &Candidate, buf: &mut Vec<f64>) -> f64 {
        let x = job.x;
        let l = c.props.len();
        let m = x.n_examples();
        let mut rows = Vec::new();
        let (n, w) = gather_support(buf, &mut rows, c, job.beta, m, job.tasks, job.coupling);
        if n == 0 {
            return 0.0;
        }
        let norm = |k: usize| -> f64 {
            w.iter()
                .enumerate()
                .map(|(r, &wr)| wr * buf[r * n + k] * buf[r * n + k])
                .sum()
        };
        let piv = (0..n).fold(0, |best, k| if norm(k) > norm(best) { k } else { best });
        let tables = match (self.one.get(l), self.pow.get(l)) {
            (Some(h1), Some(hr)) if !h1.is_empty() => Some((h1, hr)),
            _ => None,
        };
        let rp = x.example_bits(rows[piv] as usize);
        let d = bits::count(rp) - l;
        // (F_{piv·} v_r) for F = q^n, h1, hr, per vector r
        let nv = w.len();
        let mut g = vec![0.0; 3 * nv];
        for (k, &ik) in rows.iter().enumerate() {
            let nk = bits::and_count(rp, x.example_bits(ik as usize)) as usize - l;
            let fq = self.q_pow[nk];
            let (f1, fr) = tables.map_or((0.0, 0.0), |(h1, hr)| (h1[nk], hr[nk]));
            for r in 0..nv {
                let v = buf[r * n + k];
                g[3 * r] += fq * v;
                g[3 * r + 1] += f1 * v;
                g[3 * r + 2] += fr * v;
            }
        }
        let cs = |j: usize, diag: f64| -> f64 {
            if diag > 0.0 {
                (0..nv).map(|r| w[r] * g[3 * r + j].powi(2)).sum::<f64>() / diag
            } else {
                0.0
            }
        };
        let scale = (-2.0 * l as f64 * self.log_a).exp();
        let paper = scale * cs(0, self.q_pow[d]);
        let Some((h1, hr)) = tables else {
            return paper;
        };
        // as in score_one, with the quadratic forms replaced by their lower bounds
        let (mut mu, mut pk) = (0.0, 0.0);
        for (r, &wr) in w.iter().enumerate() {
            let v = &buf[r * n..(r + 1) * n];
            let (pos, neg, tot) = v.iter().fold((0.0, 0.0, 0.0), |(p, q, t), &b| {
                (p + b.max(0.0), q + (-b).max(0.0), t + b)
            });
            mu += wr * tot * tot;
            pk += wr * f64::max(pos, neg).powi(2);
        }
        let xu = mu * scale;
        let s1 = xu + cs(1, h1[d]) * scale;
        let rb = self.rho_bar;
        let sr = if rb > 1.0 {
            (xu.powf(rb) + pk.powf(rb - 1.0) * cs(2, hr[d]) * scale.powf(rb)).powf(1.0 / rb)
        } else {
            s1
        };
        paper.min(s1).min(sr)
    }

    /// The tightened score of one candidate of `job` (its paper score `paper` caps it).
    fn score_one(&self, job: &Scoring, c: &Candidate, buf: &mut Vec<f64>, paper: f64) -> f64 {
        let x = job.x;
        let l = c.props.len();
        let (Some(h1), Some(hr)) = (self.one.get(l), self.pow.get(l)) else {
            return paper;
        };
        if h1.is_empty() {
            return paper;
        }
        let m = x.n_examples();
        let mut rows = Vec::new();
        let (n, w) = gather_support(buf, &mut rows, c, job.beta, m, job.tasks, job.coupling);
        // M_u, the level sums Q (ℓ1 and ℓρ̄ weights), and P̄² ≥ max_w M_w
        let (mut mu, mut q1, mut qr, mut pk) = (0.0, 0.0, 0.0, 0.0);
        for (r, &wr) in w.iter().enumerate() {
            let v = &buf[r * n..(r + 1) * n];
            let (mut s1, mut sr) = (0.0, 0.0);
            for (i, &ia) in rows.iter().enumerate() {
                if i % ROWS_PER_POLL == ROWS_PER_POLL - 1 && job.meter.is_some_and(|mt| mt.poll()) {
                    // stopped: the paper's score stays (a valid bound)
                    return paper;
                }
                let ra = x.example_bits(ia as usize);
                let d = bits::count(ra) - l;
                let (mut a1, mut ar) = (0.5 * h1[d] * v[i], 0.5 * hr[d] * v[i]);
                for (&ib, &vb) in rows[i + 1..].iter().zip(&v[i + 1..]) {
                    let nab = bits::and_count(ra, x.example_bits(ib as usize)) as usize - l;
                    a1 += h1[nab] * vb;
                    ar += hr[nab] * vb;
                }
                s1 += v[i] * a1;
                sr += v[i] * ar;
            }
            let (pos, neg, tot) = v.iter().fold((0.0, 0.0, 0.0), |(p, q, t), &b| {
                (p + b.max(0.0), q + (-b).max(0.0), t + b)
            });
            mu += wr * tot * tot;
            q1 += wr * 2.0 * s1;
            qr += wr * 2.0 * sr;
            pk += wr * f64::max(pos, neg).powi(2);
        }
        let scale = (-2.0 * l as f64 * self.log_a).exp();
        let xu = mu * scale;
        let s1 = xu + q1.max(0.0) * scale;
        let rb = self.rho_bar;
        let sr = if rb > 1.0 {
            (xu.powf(rb) + pk.powf(rb - 1.0) * qr.max(0.0) * scale.powf(rb)).powf(1.0 / rb)
        } else {
            s1
        };
        paper.min(s1).min(sr)
    }

    /// Tightens `scores` (the paper's, from the kernel cache) in place wherever they exceed
    /// `floor`: below it a candidate cannot matter, as the tightened score is never larger.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn tighten(&self, job: &Scoring, floor: f64, scores: &mut [f64]) {
        let one = |buf: &mut Vec<f64>, (k, (c, s)): (usize, (&Candidate, &mut f64))| {
            if *s > floor && !stopped_at(job.meter, k) {
                *s = self.score_one(job, c, buf, *s);
            }
        };
        if job.use_rayon() {
            job.cands
                .par_iter()
                .zip(scores.par_iter_mut())
                .enumerate()
                .for_each_init(Vec::new, one);
        } else {
            let mut buf = Vec::new();
            job.cands
                .iter()
                .zip(scores.iter_mut())
                .enumerate()
                .for_each(|p| one(&mut buf, p));
        }
    }
}

/// Rounds whose candidates hold more pairs of covered rows than this (`Σ_u |c_u|² / 2`, tens
/// of seconds of pairwise work on one core) are screened first ([`screened_scores`]); smaller
/// rounds score every candidate exactly, as they always did, so that fits which could afford
/// the exact check add their violators in the same order as before. (At 2·10⁸ pairs, a
/// 500 × 20 fit, whose later rounds are mostly non-violators, paid for the bounds on top of
/// the exact scores and, adding its violators in another order, grew a different `W`.)
pub(crate) const SCREEN_PAIRS: f64 = 1e10;

/// `M_u / d_u² = a^{−2|S_u|} Σ_r w_r (Σ_{i ∈ c_u} v_{r,i})²`, the term of `u` itself in the
/// scores, for every candidate of `job`: a lower bound of the paper's score (every term of
/// `β_{c_u}ᵀ K_u β_{c_u}` is a square), of both tightened scores (they keep this term as
/// it is: `X_u ≥ M_u / a^{2ℓ}`) and so of the score a candidate gets. `O(Σ_u |c_u|)`.
pub(crate) fn own_terms(job: &Scoring, a: f64) -> Vec<f64> {
    let log_a = a.ln();
    let m = job.x.n_examples();
    let coupled = job.coupling != 0.0 && job.tasks > 1;
    let one = |c: &Candidate| -> f64 {
        let mut sq = 0.0;
        let mut total = 0.0;
        for t in 0..job.tasks {
            let b = &job.beta[t * m..(t + 1) * m];
            let s: f64 = c.cover.iter().map(|&i| b[i as usize]).sum();
            sq += s * s;
            total += s;
        }
        if coupled {
            sq += job.coupling * total * total;
        }
        sq * (-2.0 * c.props.len() as f64 * log_a).exp()
    };
    if job.use_rayon() {
        job.cands.par_iter().map(one).collect()
    } else {
        job.cands.iter().map(one).collect()
    }
}

/// A lower bound of the exact score `‖(M_w / den_W(w)²)_{w ∈ D(u)}‖_{ρ̄}` of candidate `c`
/// (and so of every score it can get, each an upper bound of that norm) from `u` and its
/// children `u ∪ {e}` alone: `den_W(u) = a^ℓ` (every strict subset of a source of `W^c` is
/// in `W`), and `den_W(u ∪ {e}) ≤ a^ℓ + a (1+a)^ℓ` (its ancestors outside `W` are `u` and
/// subsets holding `e`). `O(|c_u| (p/64 + props per row))`.
pub(crate) fn children_bound(job: &Scoring, c: &Candidate, a: f64, rho_bar: f64) -> f64 {
    let x = job.x;
    let m = x.n_examples();
    let p = x.n_props();
    let l = c.props.len() as i32;
    let coupled = job.coupling != 0.0 && job.tasks > 1;
    let nv = job.tasks + usize::from(coupled);
    // acc[r·p + e] = Σ_{i ∈ c_u, e true for i} v_{r,i};  own[r] = Σ_{i ∈ c_u} v_{r,i}
    let mut acc = vec![0.0; nv * p];
    let mut own = vec![0.0; nv];
    let mut v = vec![0.0; nv];
    for &i in &c.cover {
        let mut total = 0.0;
        for (t, vt) in v.iter_mut().enumerate().take(job.tasks) {
            *vt = job.beta[t * m + i as usize];
            total += *vt;
        }
        if coupled {
            v[job.tasks] = total;
        }
        if v.iter().all(|&b| b == 0.0) {
            continue;
        }
        for (r, &vr) in v.iter().enumerate() {
            own[r] += vr;
        }
        for (w, &word) in x.example_bits(i as usize).iter().enumerate() {
            let mut bitsw = word;
            while bitsw != 0 {
                let e = w * 64 + bitsw.trailing_zeros() as usize;
                bitsw &= bitsw - 1;
                for (r, &vr) in v.iter().enumerate() {
                    acc[r * p + e] += vr;
                }
            }
        }
    }
    let weight = |r: usize| if r < job.tasks { 1.0 } else { job.coupling };
    let m_of =
        |sums: &dyn Fn(usize) -> f64| (0..nv).map(|r| weight(r) * sums(r).powi(2)).sum::<f64>();
    let own_term = m_of(&|r| own[r]) * a.powi(-2 * l);
    let den = a.powi(l) + a * (1.0 + a).powi(l);
    let inv = den.powi(-2);
    let mut total = own_term.powf(rho_bar);
    for e in 0..p {
        if c.props.binary_search(&(e as u32)).is_ok() {
            continue;
        }
        let me = m_of(&|r| acc[r * p + e]) * inv;
        if me > 0.0 {
            total += me.powf(rho_bar);
        }
    }
    total.powf(1.0 / rho_bar)
}

/// The candidates' scores for a round that only needs to know which exceed `thr`, ranked
/// by score among the rest: when the round is large (over [`SCREEN_PAIRS`] pairs), every
/// candidate with a lower bound above `thr` is a violator without its `O(|c_u|²)` score and
/// keeps that lower bound as its value. The bounds, each tried on the candidates the previous
/// one left: its own term ([`own_terms`], `O(|c_u|)`), one row's Cauchy–Schwarz bound
/// ([`Tightening::pivot_bound`], `O(|c_u| p/64)`), and the bound from its children
/// ([`children_bound`]). The others get the exact scores of `score` (the paper's `K_u`
/// score tightened above `floor`, as in an unscreened round). Which candidates exceed `thr`
/// is therefore the same as with exact scores; only the order among the screened violators
/// (by their bound) can differ. `None` when `job.meter` or `score` stopped.
pub(crate) fn screened_scores(
    job: &Scoring,
    tight: &Tightening,
    a: f64,
    thr: f64,
    score: impl FnOnce(&Scoring) -> Option<Vec<f64>>,
) -> Option<Vec<f64>> {
    let pairs: f64 = job
        .cands
        .iter()
        .map(|c| c.cover.len() as f64 * c.cover.len() as f64 / 2.0)
        .sum();
    if pairs <= SCREEN_PAIRS {
        return score(job);
    }
    screened_scores_always(job, tight, a, thr, score)
}

/// One screening stage: `bound` on the candidates `idx` (in parallel when the round is);
/// those above `thr` take it as their score in `out`, the others are returned. `None` when
/// the meter stopped.
fn stage(
    job: &Scoring,
    idx: &[usize],
    thr: f64,
    out: &mut [f64],
    bound: impl Fn(&mut Vec<f64>, &Candidate) -> f64 + Sync + Send,
) -> Option<Vec<usize>> {
    let one = |buf: &mut Vec<f64>, (j, &k): (usize, &usize)| -> f64 {
        if stopped_at(job.meter, j) {
            return f64::NAN;
        }
        bound(buf, &job.cands[k])
    };
    let got: Vec<f64> = if job.use_rayon() {
        idx.par_iter().enumerate().map_init(Vec::new, one).collect()
    } else {
        let mut buf = Vec::new();
        idx.iter().enumerate().map(|p| one(&mut buf, p)).collect()
    };
    if job.meter.is_some_and(|mt| mt.is_stopped()) {
        return None;
    }
    let mut rest = Vec::new();
    for (&k, b) in idx.iter().zip(got) {
        if b > thr {
            out[k] = b;
        } else {
            rest.push(k);
        }
    }
    Some(rest)
}

/// [`screened_scores`] whatever the size of the round.
pub(crate) fn screened_scores_always(
    job: &Scoring,
    tight: &Tightening,
    a: f64,
    thr: f64,
    score: impl FnOnce(&Scoring) -> Option<Vec<f64>>,
) -> Option<Vec<f64>> {
    let mut out = own_terms(job, a);
    // a NaN bound (none is expected) is left to the exact score
    let first: Vec<usize> = (0..out.len())
        .filter(|&k| out[k].partial_cmp(&thr) != Some(std::cmp::Ordering::Greater))
        .collect();
    let second = stage(job, &first, thr, &mut out, |buf, c| {
        tight.pivot_bound(job, c, buf)
    })?;
    let rest = stage(job, &second, thr, &mut out, |_, c| {
        children_bound(job, c, a, tight.rho_bar)
    })?;
    if rest.len() == out.len() {
        return score(job);
    }
    if rest.is_empty() {
        return Some(out);
    }
    let sub: Vec<Candidate> = rest.iter().map(|&k| job.cands[k].clone()).collect();
    let exact = score(&Scoring {
        cands: &sub,
        ..*job
    })?;
    for (&k, v) in rest.iter().zip(exact) {
        out[k] = v;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::KernelCache;
    use crate::props::PropositionMatrix;
    use graphsparse_base::Parallel;
    use proptest::prelude::*;

    /// The bits of `mask` as sorted proposition indices.
    fn props_of(mask: usize, p: usize) -> Vec<u32> {
        (0..p as u32).filter(|&j| mask >> j & 1 == 1).collect()
    }

    #[derive(Debug)]
    struct Case {
        x: PropositionMatrix,
        p: usize,
        beta: Vec<f64>,
        tasks: usize,
        coupling: f64,
        a: f64,
        rho_bar: f64,
        /// `W` as a membership table over all `2^p` subsets (ancestor-closed).
        in_w: Vec<bool>,
    }

    impl Case {
        fn m_w(&self, mask: usize) -> f64 {
            let m = self.x.n_examples();
            let cover = self.x.cover_of(&props_of(mask, self.p));
            let dot = |t: usize| {
                cover
                    .iter()
                    .map(|&i| self.beta[t * m + i as usize])
                    .sum::<f64>()
            };
            let per: Vec<f64> = (0..self.tasks).map(dot).collect();
            let total: f64 = per.iter().sum();
            // B = I + c·11ᵀ couples two or more tasks; one task is plain gHKL
            let c = if self.tasks > 1 { self.coupling } else { 0.0 };
            per.iter().map(|d| d * d).sum::<f64>() + c * total * total
        }

        /// `‖(M_w / den_W(w)²)_{w ∈ D(u)}‖_{ρ̄}` over the explicit lattice.
        fn brute(&self, u: usize) -> f64 {
            let full = (1usize << self.p) - 1;
            let mut acc = 0.0;
            for w in (0..=full).filter(|&w| w & u == u) {
                let den: f64 = (0..=w)
                    .filter(|&v| v & w == v && !self.in_w[v])
                    .map(|v| self.a.powi(v.count_ones() as i32))
                    .sum();
                acc += (self.m_w(w) / (den * den)).powf(self.rho_bar);
            }
            acc.powf(1.0 / self.rho_bar)
        }

        /// `sources(W^c)` with a non-empty cover, as candidates.
        fn sources(&self) -> Vec<Candidate> {
            (1..1usize << self.p)
                .filter(|&u| !self.in_w[u])
                .filter(|&u| (0..self.p).all(|j| u >> j & 1 == 0 || self.in_w[u & !(1 << j)]))
                .map(|u| {
                    let props = props_of(u, self.p);
                    Candidate {
                        parent: props[..props.len() - 1].into(),
                        added: *props.last().unwrap(),
                        cover: self.x.cover_of(&props),
                        props: props.into(),
                    }
                })
                .filter(|c| !c.cover.is_empty())
                .collect()
        }

        /// The tables of the tightened scores for this `W`.
        fn tightening(&self) -> Tightening {
            let mut levels = vec![0; self.p + 1];
            for (mask, _) in self.in_w.iter().enumerate().filter(|(_, w)| **w) {
                levels[mask.count_ones() as usize] += 1;
            }
            Tightening::new(self.a, self.rho_bar, self.p, &levels, self.p)
        }

        /// The paper's scores and the tightened ones.
        fn scores(&self, cands: &[Candidate], parallel: Parallel) -> (Vec<f64>, Vec<f64>) {
            let mut cache = KernelCache::new(self.p, self.a, 1 << 20).unwrap();
            let job = Scoring {
                x: &self.x,
                cands,
                beta: &self.beta,
                tasks: self.tasks,
                coupling: self.coupling,
                parallel,
                meter: None,
            };
            let paper = cache.score(&job);
            let mut levels = vec![0; self.p + 1];
            for (mask, _) in self.in_w.iter().enumerate().filter(|(_, w)| **w) {
                levels[mask.count_ones() as usize] += 1;
            }
            let t = Tightening::new(self.a, self.rho_bar, self.p, &levels, self.p);
            let mut tight = paper.clone();
            t.tighten(&job, f64::NEG_INFINITY, &mut tight);
            (paper, tight)
        }
    }

    fn case() -> impl Strategy<Value = Case> {
        (2usize..=6, 3usize..=9, 1usize..=2, any::<u64>())
            .prop_flat_map(|(p, m, tasks, seed)| {
                (
                    Just((p, m, tasks)),
                    proptest::collection::vec(any::<bool>(), m * p),
                    proptest::collection::vec(-3.0f64..3.0, tasks * m),
                    proptest::collection::vec(0usize..1 << p, 0..5),
                    prop_oneof![Just(0.0), Just(0.5)],
                    prop_oneof![Just(1.5), Just(2.0), Just(3.0)],
                    prop_oneof![Just(1.0), Just(1.5), Just(5.5)],
                    Just(seed),
                )
            })
            .prop_map(
                |((p, m, tasks), vals, beta, gens, coupling, a, rho_bar, _)| {
                    // W: the subsets of a few random generators (ancestor-closed, holds ∅)
                    let mut in_w = vec![false; 1 << p];
                    in_w[0] = true;
                    for g in gens {
                        for (v, held) in in_w.iter_mut().enumerate().take(g + 1) {
                            *held |= v & g == v;
                        }
                    }
                    Case {
                        x: PropositionMatrix::from_dense(m, p, &vals).unwrap(),
                        p,
                        beta,
                        tasks,
                        coupling,
                        a,
                        rho_bar,
                        in_w,
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The tightened score bounds the exact `ρ̄`-norm over every descendant from above
        /// and the paper's `K_u` score from below, whatever the thread count.
        #[test]
        fn tightened_scores_sit_between_the_exact_norm_and_the_papers(c in case()) {
            let cands = c.sources();
            let (paper, tight) = c.scores(&cands, Parallel::Serial);
            let (_, tight_par) = c.scores(&cands, Parallel::Threshold(0));
            prop_assert_eq!(&tight, &tight_par);
            for ((cand, &pa), &ti) in cands.iter().zip(&paper).zip(&tight) {
                let mask = cand.props.iter().fold(0usize, |acc, &j| acc | 1 << j);
                let exact = c.brute(mask);
                prop_assert!(ti >= exact * (1.0 - 1e-9) - 1e-12, "{:?}: {ti} < exact {exact}", cand.props);
                prop_assert!(ti <= pa * (1.0 + 1e-12) + 1e-15, "{:?}: {ti} > paper {pa}", cand.props);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// A candidate's own term is a lower bound of its paper score and of its tightened
        /// score; screening a round by it leaves the exact score (from the cache and the
        /// tightening, the reference) wherever the own term does not already pass the
        /// threshold, a value above the threshold wherever it does, and so the same set of
        /// violators, for any threshold.
        #[test]
        fn screening_keeps_the_violators_of_the_exact_scores(
            c in case(),
            at in 0.0f64..1.2,
        ) {
            let cands = c.sources();
            let (paper, tight) = c.scores(&cands, Parallel::Serial);
            let job = Scoring {
                x: &c.x,
                cands: &cands,
                beta: &c.beta,
                tasks: c.tasks,
                coupling: c.coupling,
                parallel: Parallel::Serial,
                meter: None,
            };
            let own = own_terms(&job, c.a);
            let kids: Vec<f64> = cands.iter().map(|u| children_bound(&job, u, c.a, c.rho_bar)).collect();
            let t = c.tightening();
            let mut buf = Vec::new();
            let piv: Vec<f64> = cands.iter().map(|u| t.pivot_bound(&job, u, &mut buf)).collect();
            for (k, u) in cands.iter().enumerate() {
                let mask = u.props.iter().fold(0usize, |acc, &j| acc | 1 << j);
                let exact = c.brute(mask);
                prop_assert!(own[k] <= exact * (1.0 + 1e-9) + 1e-12, "{} > exact {}", own[k], exact);
                prop_assert!(kids[k] <= exact * (1.0 + 1e-9) + 1e-12, "{} > exact {}", kids[k], exact);
                prop_assert!(own[k] <= kids[k] * (1.0 + 1e-12) + 1e-12);
                prop_assert!(own[k] <= tight[k] * (1.0 + 1e-12) + 1e-12, "{} > {}", own[k], tight[k]);
                prop_assert!(kids[k] <= paper[k] * (1.0 + 1e-12) + 1e-12);
                // the pivot's bound is below the exact paper and tightened scores
                prop_assert!(piv[k] <= tight[k] * (1.0 + 1e-9) + 1e-12, "{} > {}", piv[k], tight[k]);
                prop_assert!(piv[k] <= paper[k] * (1.0 + 1e-9) + 1e-12);
            }
            // a threshold among the scores
            let top = tight.iter().copied().fold(0.0f64, f64::max);
            let thr = at * top;
            let exact = |j: &Scoring| -> Option<Vec<f64>> {
                let idx: Vec<usize> = j
                    .cands
                    .iter()
                    .map(|x| cands.iter().position(|y| y.props == x.props).unwrap())
                    .collect();
                Some(idx.iter().map(|&k| tight[k]).collect())
            };
            let got = screened_scores_always(&job, &t, c.a, thr, exact).unwrap();
            for k in 0..cands.len() {
                prop_assert_eq!(got[k] > thr, tight[k] > thr, "candidate {}", k);
                if own[k] > thr {
                    prop_assert_eq!(got[k], own[k]);
                } else if piv[k] > thr {
                    prop_assert_eq!(got[k], piv[k]);
                } else if kids[k] > thr {
                    prop_assert_eq!(got[k], kids[k]);
                } else {
                    prop_assert_eq!(got[k], tight[k]);
                }
            }
            // a small round is not screened
            let all = screened_scores(&job, &t, c.a, thr, exact).unwrap();
            prop_assert_eq!(&all, &tight);
        }
    }

    /// On a small active set, far from holding every subset, the tightening is real.
    #[test]
    fn tightening_is_strict_when_w_is_small() {
        let (m, p) = (12, 6);
        let vals: Vec<bool> = (0..m * p).map(|k| (k * 5 + k / 7) % 4 != 0).collect();
        let beta: Vec<f64> = (0..m).map(|k| ((k as f64) * 1.37).sin()).collect();
        let mut in_w = vec![false; 1 << p];
        in_w[0] = true;
        let mut ratios = Vec::new();
        for rho_bar in [1.0, 1.5] {
            let c = Case {
                x: PropositionMatrix::from_dense(m, p, &vals).unwrap(),
                p,
                beta: beta.clone(),
                tasks: 1,
                coupling: 0.0,
                a: 2.0,
                rho_bar,
                in_w: in_w.clone(),
            };
            let cands = c.sources();
            let (paper, tight) = c.scores(&cands, Parallel::Serial);
            let best_ratio = paper
                .iter()
                .zip(&tight)
                .map(|(pa, ti)| ti / pa)
                .fold(f64::INFINITY, f64::min);
            ratios.push(best_ratio);
        }
        // ρ̄ = 1: the denominators alone; ρ̄ = 1.5: the level-wise Hölder step on top
        assert!(ratios[0] < 0.8, "{ratios:?}");
        assert!(ratios[1] < ratios[0] - 0.05, "{ratios:?}");
    }
}
