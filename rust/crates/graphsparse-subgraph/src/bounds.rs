//! Morishita–Kudo bounds for separable functions of subgraph indicators (Lemma 8).
//!
//! For `f(u) = Σ_i f_i(u_i)` on `u ∈ {0,1}^n` and any `v` with `1(v) ⊆ 1(u)` (every pattern
//! below `u` in the gSpan tree occurs in a subset of `u`'s graphs):
//!
//! ```text
//! lower(u) = Σ_{i∈1(u)} min(f_i(0), f_i(1)) + Σ_{i∈0(u)} f_i(0)  ≤  f(v)
//! upper(u) = Σ_{i∈1(u)} max(f_i(0), f_i(1)) + Σ_{i∈0(u)} f_i(0)  ≥  f(v)
//! ```
//!
//! Notation: `delta_i = f_i(1) − f_i(0)`, `base = Σ_i f_i(0)`; then `f(v) = base + Σ_{i∈1(v)} delta_i`,
//! `lower(u) = base + Σ_{i∈1(u)} min(delta_i, 0)` and `upper(u) = base + Σ_{i∈1(u)} max(delta_i, 0)`.

/// A separable function `f(u) = Σ_i f_i(u_i)` stored as `base` and the per-sample increments.
#[derive(Debug, Clone, PartialEq)]
pub struct SeparableFunction {
    base: f64,
    delta: Vec<f64>,
}

/// Lower and upper Morishita–Kudo bounds over a subtree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// `≤ f(v)` for every `v` below the node.
    pub lower: f64,
    /// `≥ f(v)` for every `v` below the node.
    pub upper: f64,
}

impl Bounds {
    /// The largest `|f(v)|` possible below the node: `max(upper, −lower)`.
    ///
    /// # Complexity
    /// O(1).
    pub fn abs_max(&self) -> f64 {
        self.upper.max(-self.lower)
    }
}

impl SeparableFunction {
    /// From the values `f_i(0)` and `f_i(1)` of every sample.
    ///
    /// # Panics
    /// If the two slices differ in length (a programming error, not user input).
    ///
    /// # Complexity
    /// O(n) for `n` samples.
    pub fn new(f0: &[f64], f1: &[f64]) -> Self {
        assert_eq!(
            f0.len(),
            f1.len(),
            "f0 and f1 must have one value per sample"
        );
        let base = f0.iter().sum();
        let delta = f0.iter().zip(f1).map(|(a, b)| b - a).collect();
        Self { base, delta }
    }

    /// From `f_i(0) = 0` and `f_i(1) = w_i` (a weighted count over the occurrences).
    ///
    /// # Complexity
    /// O(n).
    pub fn from_weights(w: &[f64]) -> Self {
        Self {
            base: 0.0,
            delta: w.to_vec(),
        }
    }

    /// Number of samples.
    ///
    /// # Complexity
    /// O(1).
    pub fn len(&self) -> usize {
        self.delta.len()
    }

    /// True when there is no sample.
    ///
    /// # Complexity
    /// O(1).
    pub fn is_empty(&self) -> bool {
        self.delta.is_empty()
    }

    /// `f(v)` for the pattern occurring in the graphs `ids` (sorted or not).
    ///
    /// # Complexity
    /// O(|ids|).
    pub fn value(&self, ids: &[u32]) -> f64 {
        self.base + ids.iter().map(|&i| self.delta[i as usize]).sum::<f64>()
    }

    /// The bounds over every pattern below a node occurring in `ids`, in one pass over `ids`.
    ///
    /// # Complexity
    /// O(|ids|) time, no allocation.
    ///
    /// # Example
    /// ```
    /// use graphsparse_subgraph::SeparableFunction;
    /// let f = SeparableFunction::new(&[0.0, 1.0, 0.0], &[2.0, -1.0, 0.5]);
    /// let b = f.bounds(&[0, 1]);
    /// assert_eq!((b.lower, b.upper), (-1.0, 3.0));
    /// assert!(b.lower <= f.value(&[1]) && f.value(&[1]) <= b.upper);
    /// ```
    pub fn bounds(&self, ids: &[u32]) -> Bounds {
        let (mut lo, mut hi) = (0.0, 0.0);
        for &i in ids {
            let d = self.delta[i as usize];
            if d < 0.0 {
                lo += d;
            } else {
                hi += d;
            }
        }
        Bounds {
            lower: self.base + lo,
            upper: self.base + hi,
        }
    }
}

/// Adaboost's weighted gain `Σ_i w_i y_i h(g_i)` for the stump `h(g) = y'(2 I(x ⊆ g) − 1)`
/// (Kudo et al. 2005), `y_i ∈ {−1, +1}`, as two separable functions (one per sign `y'`).
///
/// With `s = Σ_i w_i y_i`, gain(x, +1) = `2 Σ_{i∈1(x)} w_i y_i − s` and gain(x, −1) = its negation.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedGain {
    plus: SeparableFunction,
}

impl WeightedGain {
    /// From sample weights and labels in {−1, +1}.
    ///
    /// # Complexity
    /// O(n).
    pub fn new(weights: &[f64], labels: &[f64]) -> Self {
        let total: f64 = weights.iter().zip(labels).map(|(w, y)| w * y).sum();
        let f0: Vec<f64> = weights.iter().zip(labels).map(|(w, y)| -w * y).collect();
        let f1: Vec<f64> = weights.iter().zip(labels).map(|(w, y)| w * y).collect();
        let plus = SeparableFunction::new(&f0, &f1);
        debug_assert!((plus.base + total).abs() <= 1e-9 * (1.0 + total.abs()));
        Self { plus }
    }

    /// The gain of the stump with sign `+1` (`gain(−1) = −gain(+1)`).
    ///
    /// # Complexity
    /// O(|ids|).
    pub fn gain_plus(&self, ids: &[u32]) -> f64 {
        self.plus.value(ids)
    }

    /// The best `|gain|` any pattern below the node can reach (Kudo's bound).
    ///
    /// # Complexity
    /// O(|ids|).
    pub fn bound(&self, ids: &[u32]) -> f64 {
        self.plus.bounds(ids).abs_max()
    }
}

/// `|Σ_i r_i I(x ⊆ g_i)|`: the absolute correlation of an indicator with a response or residual
/// (the pricing score of LPBoost with `r_i = u_i y_i`, and of LARS / gPLS).
#[derive(Debug, Clone, PartialEq)]
pub struct AbsCorrelation {
    f: SeparableFunction,
}

impl AbsCorrelation {
    /// From the per-sample response `r`.
    ///
    /// # Complexity
    /// O(n).
    pub fn new(r: &[f64]) -> Self {
        Self {
            f: SeparableFunction::from_weights(r),
        }
    }

    /// The signed correlation `Σ_{i∈1(x)} r_i`.
    ///
    /// # Complexity
    /// O(|ids|).
    pub fn signed(&self, ids: &[u32]) -> f64 {
        self.f.value(ids)
    }

    /// The largest `|Σ_{i∈1(v)} r_i|` below the node.
    ///
    /// # Complexity
    /// O(|ids|).
    pub fn bound(&self, ids: &[u32]) -> f64 {
        self.f.bounds(ids).abs_max()
    }
}

/// Weighted classification error of the stump `h(g) = y'(2 I(x ⊆ g) − 1)`:
/// `Σ_i w_i [h(g_i) ≠ y_i]`, with weights summing to anything.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedError {
    plus: SeparableFunction,
    total: f64,
}

impl WeightedError {
    /// From sample weights and labels in {−1, +1}.
    ///
    /// # Complexity
    /// O(n).
    pub fn new(weights: &[f64], labels: &[f64]) -> Self {
        // sign +1 predicts +1 inside 1(x), −1 outside: an error is y=−1 inside or y=+1 outside
        let f0: Vec<f64> = weights
            .iter()
            .zip(labels)
            .map(|(&w, &y)| if y > 0.0 { w } else { 0.0 })
            .collect();
        let f1: Vec<f64> = weights
            .iter()
            .zip(labels)
            .map(|(&w, &y)| if y < 0.0 { w } else { 0.0 })
            .collect();
        Self {
            plus: SeparableFunction::new(&f0, &f1),
            total: weights.iter().sum(),
        }
    }

    /// Error of the stump with sign `+1`; the sign `−1` stump has `total − error`.
    ///
    /// # Complexity
    /// O(|ids|).
    pub fn error_plus(&self, ids: &[u32]) -> f64 {
        self.plus.value(ids)
    }

    /// The smallest error (over both signs) any pattern below the node can reach.
    ///
    /// # Complexity
    /// O(|ids|).
    pub fn lower_bound(&self, ids: &[u32]) -> f64 {
        let b = self.plus.bounds(ids);
        b.lower.min(self.total - b.upper)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn subset(ids: &[u32], mask: &[bool]) -> Vec<u32> {
        ids.iter()
            .zip(mask)
            .filter(|(_, m)| **m)
            .map(|(&i, _)| i)
            .collect()
    }

    proptest! {
        #[test]
        fn prop_bounds_hold_for_every_subset(
            f in prop::collection::vec((-5.0f64..5.0, -5.0f64..5.0), 1..20),
            mask_u in prop::collection::vec(any::<bool>(), 20),
            mask_v in prop::collection::vec(any::<bool>(), 20),
        ) {
            let (f0, f1): (Vec<f64>, Vec<f64>) = f.iter().copied().unzip();
            let sf = SeparableFunction::new(&f0, &f1);
            let all: Vec<u32> = (0..f.len() as u32).collect();
            let u = subset(&all, &mask_u);
            let v = subset(&u, &mask_v);
            let b = sf.bounds(&u);
            let fv = sf.value(&v);
            // explicit f(v) = Σ_i f_i(v_i)
            let explicit: f64 = (0..f.len()).map(|i| if v.contains(&(i as u32)) { f1[i] } else { f0[i] }).sum();
            prop_assert!((fv - explicit).abs() < 1e-9);
            prop_assert!(b.lower <= fv + 1e-9 && fv <= b.upper + 1e-9);
        }

        #[test]
        fn prop_classic_objectives_match_definitions(
            wy in prop::collection::vec((0.0f64..1.0, any::<bool>()), 1..15),
            mask_u in prop::collection::vec(any::<bool>(), 15),
            mask_v in prop::collection::vec(any::<bool>(), 15),
        ) {
            let w: Vec<f64> = wy.iter().map(|p| p.0).collect();
            let y: Vec<f64> = wy.iter().map(|p| if p.1 { 1.0 } else { -1.0 }).collect();
            let all: Vec<u32> = (0..w.len() as u32).collect();
            let u = subset(&all, &mask_u);
            let v = subset(&u, &mask_v);
            let inside = |i: usize| v.contains(&(i as u32));
            let gain: f64 = (0..w.len()).map(|i| w[i] * y[i] * if inside(i) { 1.0 } else { -1.0 }).sum();
            let g = WeightedGain::new(&w, &y);
            prop_assert!((g.gain_plus(&v) - gain).abs() < 1e-9);
            prop_assert!(gain.abs() <= g.bound(&u) + 1e-9);
            let err: f64 = (0..w.len()).filter(|&i| (if inside(i) { 1.0 } else { -1.0 }) != y[i]).map(|i| w[i]).sum();
            let e = WeightedError::new(&w, &y);
            prop_assert!((e.error_plus(&v) - err).abs() < 1e-9);
            let total: f64 = w.iter().sum();
            prop_assert!(e.lower_bound(&u) <= err.min(total - err) + 1e-9);
            let corr: f64 = (0..w.len()).filter(|&i| inside(i)).map(|i| w[i] * y[i]).sum();
            let r: Vec<f64> = w.iter().zip(&y).map(|(a, b)| a * b).collect();
            let c = AbsCorrelation::new(&r);
            prop_assert!((c.signed(&v) - corr).abs() < 1e-9);
            prop_assert!(corr.abs() <= c.bound(&u) + 1e-9);
        }
    }
}
