//! The duality gap of the L1 / elastic-net problem and safe pattern pruning (SPP; Nakagawa,
//! Suzumura, Karasuyama, Tsuda & Takeuchi, KDD 2016). The derivation is in the crate docs
//! (`spp.md`).

use graphsparse_gspan::{DfsCode, Node, ParallelVisitor, Visit, Visitor};

use crate::cache::CachedSearch;
use crate::feature::Feature;
use crate::loss::Loss;

/// Relative safety margin of the SPP test against rounding in the sums and the gap.
pub(crate) const SPP_MARGIN: f64 = 1e-9;

/// `(a₊, a₋)`: the factors on the positive and on the negative entries of `g1` that make the
/// sum zero (one of them is 1; both are 1 when `g1` has no positive or no negative entry).
pub(crate) fn balance(g1: &[f64]) -> (f64, f64) {
    let (mut pos, mut neg) = (0.0f64, 0.0f64);
    for &v in g1 {
        if v > 0.0 {
            pos += v;
        } else {
            neg -= v;
        }
    }
    if pos > neg && pos > 0.0 {
        (neg / pos, 1.0)
    } else if neg > pos && neg > 0.0 {
        (1.0, pos / neg)
    } else {
        (1.0, 1.0)
    }
}

/// A dual-feasible point of an iterate, its objective values and the sphere it certifies.
#[derive(Debug, Clone)]
pub(crate) struct DualPoint {
    /// `θ_i` (the scale of `g1`: the constraint is `|x_jᵀθ| ≤ λ1`).
    pub theta: Vec<f64>,
    /// `P − D`, clamped at 0 (`+∞` when the dual is not available).
    pub gap: f64,
    /// The radius `r` of the sphere around `theta` that holds `θ*`.
    pub radius: f64,
}

/// The dual point of the iterate `(μ, nonzero features)` given `dual_bound ≥ max over the
/// zero-coefficient patterns of |x_jᵀθ̃|` (see the module docs).
///
/// # Complexity
/// `O(n + Σ_j |1(x_j)|)` over the nonzero features.
#[allow(clippy::too_many_arguments)]
pub(crate) fn dual_point<L: Loss + ?Sized>(
    loss: &L,
    y: &[f64],
    mu: &[f64],
    g1: &[f64],
    active: &[Feature],
    lambda1: f64,
    lambda2: f64,
    dual_bound: f64,
) -> DualPoint {
    let n = y.len();
    let nf = n as f64;
    let (ap, an) = balance(g1);
    let factor = |v: f64| if v > 0.0 { ap } else { an };
    let mut m = dual_bound;
    let (mut l1, mut l2) = (0.0, 0.0);
    for f in active {
        let c: f64 = f
            .graph_ids
            .iter()
            .map(|&i| g1[i as usize] * factor(g1[i as usize]))
            .sum();
        m = m.max((c + lambda2 * f.coef).abs());
        l1 += f.coef.abs();
        l2 += f.coef * f.coef;
    }
    let scale = if m <= lambda1 {
        1.0
    } else if m.is_finite() {
        lambda1 / m
    } else {
        0.0
    };
    let mut theta = vec![0.0; n];
    let (mut primal, mut conj) = (0.0, 0.0);
    for i in 0..n {
        let d1 = loss.d1(y[i], mu[i]);
        let u = scale * factor(g1[i]) * d1;
        theta[i] = u / nf;
        primal += loss.value(y[i], mu[i]);
        conj += loss.conjugate(y[i], u);
    }
    let primal = primal / nf + lambda1 * l1 + 0.5 * lambda2 * l2;
    let dual = -conj / nf - 0.5 * lambda2 * scale * scale * l2;
    let raw = primal - dual;
    let gap = if raw.is_nan() {
        f64::INFINITY
    } else {
        raw.max(0.0)
    };
    let radius = match loss.smoothness() {
        // the slack covers the rounding of P − D when the gap is near 0
        Some(c) => (2.0 * c * (gap + 1e-14 * (1.0 + primal.abs())) / nf).sqrt(),
        None => f64::INFINITY,
    };
    DualPoint { theta, gap, radius }
}

/// Branch and bound for `max_j |x_jᵀθ|` over every pattern (`λ_max` when `θ` is the null
/// model's dual point): a node is pruned when its Morishita–Kudo bound cannot beat the best.
pub(crate) struct MaxCorrelation<'a> {
    pub theta: &'a [f64],
    pub best: f64,
    pub visited: u64,
}

impl MaxCorrelation<'_> {
    fn eval(&mut self, ids: &[u32]) -> Visit {
        self.visited += 1;
        let (mut p, mut q) = (0.0f64, 0.0f64);
        for &i in ids {
            let t = self.theta[i as usize];
            if t > 0.0 {
                p += t;
            } else {
                q -= t;
            }
        }
        self.best = self.best.max((p - q).abs());
        if p.max(q) <= self.best {
            Visit::Prune
        } else {
            Visit::Continue
        }
    }
}

impl CachedSearch for MaxCorrelation<'_> {
    fn enter(&mut self, _code: &DfsCode) {}
    fn evaluate(&mut self, _code: &DfsCode, ids: &[u32]) -> Visit {
        self.eval(ids)
    }
    fn leave(&mut self) {}
}

impl ParallelVisitor for MaxCorrelation<'_> {
    fn fork(&self) -> Self {
        MaxCorrelation {
            theta: self.theta,
            best: 0.0,
            visited: 0,
        }
    }
    fn join(&mut self, child: Self) {
        self.best = self.best.max(child.best);
        self.visited += child.visited;
    }
}

impl Visitor for MaxCorrelation<'_> {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        self.eval(node.graph_ids())
    }
}

/// The intercept of the model without features: the root of `Σ_i L'(y_i, β0) = 0` by
/// safeguarded Newton steps; `None` when it does not exist (e.g. one logistic class only).
pub(crate) fn null_intercept<L: Loss + ?Sized>(loss: &L, y: &[f64]) -> Option<f64> {
    let mut b = 0.0f64;
    for _ in 0..200 {
        let (mut g, mut h) = (0.0, 0.0);
        for &yi in y {
            g += loss.d1(yi, b);
            h += loss.d2(yi, b);
        }
        if g.abs() <= 1e-13 * y.len() as f64 {
            // |β0| > 30 means one class only (logistic): no useful null model
            return (b.abs() <= 30.0).then_some(b);
        }
        if h.is_nan() || h <= 1e-300 {
            return None;
        }
        let step = (g / h).clamp(-5.0, 5.0);
        b -= step;
        if !b.is_finite() || b.abs() > 50.0 {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loss::{Logistic, Squared};

    #[test]
    fn balance_zeroes_the_sum() {
        let g = [0.3, -0.1, 0.2, -0.05];
        let (ap, an) = balance(&g);
        let s: f64 = g.iter().map(|&v| v * if v > 0.0 { ap } else { an }).sum();
        assert!(s.abs() < 1e-15 && ap < 1.0 && an == 1.0);
        assert_eq!(balance(&[0.0, 0.0]), (1.0, 1.0));
    }

    #[test]
    fn null_intercepts_are_the_closed_forms() {
        let y = [1.0, 0.0, 0.0, 1.0, 1.0];
        let b = null_intercept(&Logistic, &y).unwrap();
        assert!((b - (0.6f64 / 0.4).ln()).abs() < 1e-10);
        let b = null_intercept(&Squared, &[1.0, 2.0, 6.0]).unwrap();
        assert!((b - 3.0).abs() < 1e-12);
        assert_eq!(null_intercept(&Logistic, &[1.0, 1.0]), None);
    }

    /// At the null model the gap is `P − D` with `P` its mean loss; with `dual_bound ≤ λ1` the
    /// point is `g1` itself and the gap vanishes (Fenchel–Young equality).
    #[test]
    fn gap_vanishes_at_an_optimal_null_model() {
        let y = [1.0, 0.0, 0.0, 1.0, 1.0];
        let b = null_intercept(&Logistic, &y).unwrap();
        let mu = vec![b; 5];
        let g1: Vec<f64> = y.iter().map(|&v| Logistic.d1(v, b) / 5.0).collect();
        let dp = dual_point(&Logistic, &y, &mu, &g1, &[], 0.5, 0.0, 0.1);
        assert!(dp.gap < 1e-12, "gap {}", dp.gap);
        // a dual bound above λ1 shrinks θ and opens a gap
        let dp = dual_point(&Logistic, &y, &mu, &g1, &[], 0.05, 0.0, 0.1);
        assert!(dp.gap > 1e-3);
        assert!(
            (dp.theta.iter().map(|v| v.abs()).sum::<f64>()
                - 0.5 * g1.iter().map(|v| v.abs()).sum::<f64>())
            .abs()
                < 1e-12
        );
    }
}
