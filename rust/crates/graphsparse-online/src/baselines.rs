//! The non-graph baselines of the benchmark: ℓ1-RDA (§C.5), AdaGrad-ℓ1 (§C.6), DA-GL and DA-SGL
//! (§C.7) and Adam (§C.8).

use crate::da::KappaRounding;
use crate::error::{OnlineError, Result};
use crate::learner::{Core, Needs, impl_learner};
use crate::loss::Loss;
use crate::rules;

/// `sign(x)` with `sign(0) = 0`.
#[inline]
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Enhanced ℓ1-RDA (Xiao 2010, Algorithm 2).
///
/// `λ_t = λ + γρ/√(tt+1)`, `κ = −√(tt+1)/γ`; `w_i = 0` if `|ḡ_i| ≤ λ_t`, else
/// `κ (ḡ_i − λ_t sgn ḡ_i)`; `w_b = κ ḡ_b`. `ρ = 0` is basic ℓ1-RDA.
#[derive(Debug, Clone)]
pub struct L1Rda {
    pub(crate) core: Core,
    lambda: f64,
    gamma: f64,
    rho: f64,
}

impl L1Rda {
    /// ℓ1-RDA on `p` features.
    ///
    /// # Errors
    /// [`OnlineError::Input`] or [`OnlineError::InvalidParameter`] for `p = 0`, `lambda < 0`,
    /// `gamma ≤ 0`, `rho < 0` or
    /// `l2 < 0`.
    ///
    /// # Complexity
    /// O(p) time and memory; each update then costs O(p).
    pub fn new(p: usize, lambda: f64, gamma: f64, rho: f64, loss: Loss, l2: f64) -> Result<Self> {
        rules::l1_rda(lambda, gamma, rho)?;
        Ok(Self {
            core: Core::new(p, loss, l2, Needs::GRAD_AVG)?,
            lambda,
            gamma,
            rho,
        })
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        let p = self.core.p();
        let tt = self.core.observe(x, y);
        let st = &mut self.core.state;
        let lambda_t = self.lambda + (self.gamma * self.rho) / (tt + 1.0).sqrt();
        let kappa = KappaRounding::NegSqrtOverGamma.kappa(tt, self.gamma);
        for (w, &g) in st.coef[..p].iter_mut().zip(&st.grad_avg[..p]) {
            *w = if g.abs() <= lambda_t {
                0.0
            } else {
                kappa * (g - lambda_t * sign(g))
            };
        }
        st.coef[p] = kappa * st.grad_avg[p];
        self.core.finish();
        Ok(())
    }
}

impl_learner!(L1Rda);

/// AdaGrad with ℓ1 regularisation, primal-dual form (Duchi, Hazan & Singer 2011).
///
/// `G ← G + g²`, `ḡ ← running average of g` (all `p + 1` coordinates), then
/// `w_i = sign(−ḡ_i)·η·(tt+1)/(δ + √G_i) · max(|ḡ_i| − λ, 0)`; the intercept uses the same
/// formula without the shrinkage.
#[derive(Debug, Clone)]
pub struct AdaGradL1 {
    pub(crate) core: Core,
    lambda: f64,
    eta: f64,
    delta: f64,
}

impl AdaGradL1 {
    /// AdaGrad-ℓ1 on `p` features (the benchmark uses `delta = 1e-8`).
    ///
    /// # Errors
    /// [`OnlineError::Input`] or [`OnlineError::InvalidParameter`] for `p = 0`, `lambda < 0`,
    /// `eta ≤ 0`, `delta ≤ 0` or
    /// `l2 < 0`.
    ///
    /// # Complexity
    /// O(p) time and memory; each update then costs O(p).
    pub fn new(p: usize, lambda: f64, eta: f64, delta: f64, loss: Loss, l2: f64) -> Result<Self> {
        rules::adagrad_l1(lambda, eta, delta)?;
        let needs = Needs {
            grad_avg: true,
            grad_sq_sum: true,
            ..Needs::GRAD
        };
        Ok(Self {
            core: Core::new(p, loss, l2, needs)?,
            lambda,
            eta,
            delta,
        })
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        let p = self.core.p();
        let tt = self.core.observe(x, y);
        let st = &mut self.core.state;
        for (s, &g) in st.grad_sq_sum.iter_mut().zip(&self.core.grad) {
            *s += g * g;
        }
        for i in 0..=p {
            let g = st.grad_avg[i];
            let shrunk = if i < p {
                (g.abs() - self.lambda).max(0.0)
            } else {
                g.abs()
            };
            st.coef[i] =
                sign(-g) * self.eta * (tt + 1.0) / (self.delta + st.grad_sq_sum[i].sqrt()) * shrunk;
        }
        self.core.finish();
        Ok(())
    }
}

impl_learner!(AdaGradL1);

/// A partition of the features into groups (for DA-GL and DA-SGL), each group ascending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Groups {
    ptr: Vec<usize>,
    idx: Vec<usize>,
}

impl Groups {
    /// Groups from index lists over `p` features. Each list is sorted; a feature may appear in
    /// at most one list; features in no list become singleton groups (appended in index order).
    ///
    /// # Errors
    /// [`OnlineError::InvalidGroups`] for an index `≥ p`, a repeated index or an empty group.
    ///
    /// # Complexity
    /// O(p + Σ|group|) time and memory.
    pub fn new(p: usize, groups: &[Vec<usize>]) -> Result<Self> {
        let mut seen = vec![false; p];
        let mut ptr = vec![0];
        let mut idx = Vec::with_capacity(p);
        for (k, g) in groups.iter().enumerate() {
            if g.is_empty() {
                return Err(OnlineError::InvalidGroups(format!("group {k} is empty")));
            }
            let start = idx.len();
            for &i in g {
                if i >= p {
                    return Err(OnlineError::InvalidGroups(format!(
                        "group {k} has feature {i}, out of range for {p} features"
                    )));
                }
                if seen[i] {
                    return Err(OnlineError::InvalidGroups(format!(
                        "feature {i} is in more than one group (again in group {k})"
                    )));
                }
                seen[i] = true;
                idx.push(i);
            }
            idx[start..].sort_unstable();
            ptr.push(idx.len());
        }
        for (i, _) in seen.iter().enumerate().filter(|(_, s)| !**s) {
            idx.push(i);
            ptr.push(idx.len());
        }
        Ok(Self { ptr, idx })
    }

    /// One singleton group per feature.
    ///
    /// # Complexity
    /// O(p) time and memory.
    pub fn singletons(p: usize) -> Self {
        Self {
            ptr: (0..=p).collect(),
            idx: (0..p).collect(),
        }
    }

    /// Non-overlapping `block × block` squares of a row-major `height × width` grid (node
    /// `r·width + c`), block rows outermost; ragged edge blocks are smaller. The benchmark uses
    /// 3×3 blocks of the 33×33 grid: 121 groups of 9.
    ///
    /// # Complexity
    /// O(height · width) time and memory.
    pub fn grid_blocks(height: usize, width: usize, block: usize) -> Result<Self> {
        graphsparse_base::check_at_least_one("block", block)?;
        let mut lists = Vec::new();
        for br in (0..height).step_by(block) {
            for bc in (0..width).step_by(block) {
                let mut g = Vec::new();
                for r in br..(br + block).min(height) {
                    for c in bc..(bc + block).min(width) {
                        g.push(r * width + c);
                    }
                }
                lists.push(g);
            }
        }
        Self::new(height * width, &lists)
    }

    /// Number of groups.
    ///
    /// # Complexity
    /// O(1).
    pub fn len(&self) -> usize {
        self.ptr.len() - 1
    }

    /// True if there are no groups (only for `p = 0`).
    ///
    /// # Complexity
    /// O(1).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of features covered.
    ///
    /// # Complexity
    /// O(1).
    pub fn n_features(&self) -> usize {
        self.idx.len()
    }

    /// The members of group `k`, ascending.
    ///
    /// # Complexity
    /// O(1).
    pub fn group(&self, k: usize) -> &[usize] {
        &self.idx[self.ptr[k]..self.ptr[k + 1]]
    }
}

/// Online dual-averaging group lasso (DA-GL) or sparse group lasso (DA-SGL) (Yang et al. 2010).
///
/// With `ū` the running average of the gradients and `κ = −√(tt+1)/γ`, for each group `G` of
/// size `d`:
/// * DA-GL: `w_G = κ·max(0, 1 − λ√d/‖ū_G‖)·ū_G` (0 for a zero norm);
/// * DA-SGL: `c_j = sgn(ū_j)·max(0, |ū_j| − λr)`, then `w_G = κ·max(0, 1 − λ√d/‖c_G‖)·c_G`.
///
/// The intercept is `w_b = κ ū_b`.
#[derive(Debug, Clone)]
pub struct DaGroupLasso {
    pub(crate) core: Core,
    lambda: f64,
    gamma: f64,
    /// `Some(r)` for DA-SGL.
    sparse_r: Option<f64>,
    groups: Groups,
    buf: Vec<f64>,
}

impl DaGroupLasso {
    /// DA-GL on `p` features.
    ///
    /// # Errors
    /// [`OnlineError::Input`] or [`OnlineError::InvalidParameter`] for `p = 0`, `lambda < 0`,
    /// `gamma ≤ 0` or `l2 < 0`;
    /// [`OnlineError::InvalidGroups`] if `groups` does not cover exactly `p` features.
    ///
    /// # Complexity
    /// O(p) time and memory; each update then costs O(p) (one pass over the groups).
    pub fn group_lasso(
        p: usize,
        lambda: f64,
        gamma: f64,
        groups: Groups,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        rules::group_lasso(lambda, gamma)?;
        Self::build(p, lambda, gamma, None, groups, loss, l2)
    }

    /// DA-SGL on `p` features with per-group ℓ1 weight `r` (the benchmark uses `r = 1`).
    ///
    /// # Errors
    /// As [`DaGroupLasso::group_lasso`], and for `r < 0`.
    ///
    /// # Complexity
    /// As [`DaGroupLasso::group_lasso`].
    pub fn sparse_group_lasso(
        p: usize,
        lambda: f64,
        gamma: f64,
        r: f64,
        groups: Groups,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        rules::sparse_group_lasso(lambda, gamma, r)?;
        Self::build(p, lambda, gamma, Some(r), groups, loss, l2)
    }

    fn build(
        p: usize,
        lambda: f64,
        gamma: f64,
        sparse_r: Option<f64>,
        groups: Groups,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        if groups.n_features() != p {
            return Err(OnlineError::InvalidGroups(format!(
                "the groups cover {} features, the data has {p}",
                groups.n_features()
            )));
        }
        Ok(Self {
            core: Core::new(p, loss, l2, Needs::GRAD_AVG)?,
            lambda,
            gamma,
            sparse_r,
            groups,
            buf: vec![0.0; p],
        })
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        let p = self.core.p();
        let tt = self.core.observe(x, y);
        let st = &mut self.core.state;
        let kappa = -((tt + 1.0).sqrt() / self.gamma);
        let src: &[f64] = match self.sparse_r {
            None => &st.grad_avg[..p],
            Some(r) => {
                let thr = self.lambda * r;
                for (c, &u) in self.buf.iter_mut().zip(&st.grad_avg[..p]) {
                    *c = sign(u) * (u.abs() - thr).max(0.0);
                }
                &self.buf
            }
        };
        for k in 0..self.groups.len() {
            let g = self.groups.group(k);
            let mut sq = 0.0;
            for &j in g {
                sq += src[j] * src[j];
            }
            let norm = sq.sqrt();
            if norm == 0.0 {
                for &j in g {
                    st.coef[j] = 0.0;
                }
            } else {
                let shrink = (1.0 - self.lambda * (g.len() as f64).sqrt() / norm).max(0.0);
                let factor = kappa * shrink;
                for &j in g {
                    st.coef[j] = factor * src[j];
                }
            }
        }
        st.coef[p] = kappa * st.grad_avg[p];
        self.core.finish();
        Ok(())
    }
}

impl_learner!(DaGroupLasso);

/// Online Adam (Kingma & Ba 2014) over all `p + 1` coordinates.
///
/// `m ← β₁m + (1−β₁)g`, `v ← β₂v + (1−β₂)g²`,
/// `w_i ← w_i − α m_i / ((1−β₁ᵗ)(√(v_i/(1−β₂ᵗ)) + ε))`, with `βᵗ` kept by repeated
/// multiplication (starting at `β` for `t = 1`).
#[derive(Debug, Clone)]
pub struct Adam {
    pub(crate) core: Core,
    alpha: f64,
    beta1: f64,
    beta2: f64,
    epsilon: f64,
}

impl Adam {
    /// Adam on `p` features (the benchmark uses `β₁ = 0.9`, `β₂ = 0.999`, `ε = 1e-8`).
    ///
    /// # Errors
    /// [`OnlineError::Input`] or [`OnlineError::InvalidParameter`] for `p = 0`, `alpha ≤ 0`, a
    /// `beta` outside `[0, 1)`,
    /// `epsilon ≤ 0` or `l2 < 0`.
    ///
    /// # Complexity
    /// O(p) time and memory; each update then costs O(p).
    pub fn new(
        p: usize,
        alpha: f64,
        beta1: f64,
        beta2: f64,
        epsilon: f64,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        rules::adam(alpha, beta1, beta2, epsilon)?;
        let needs = Needs {
            moments: Some((beta1, beta2)),
            ..Needs::GRAD
        };
        Ok(Self {
            core: Core::new(p, loss, l2, needs)?,
            alpha,
            beta1,
            beta2,
            epsilon,
        })
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        self.core.observe(x, y);
        let st = &mut self.core.state;
        let (b1, b2) = (self.beta1, self.beta2);
        let (c1, c2) = (1.0 - st.beta1_power, 1.0 - st.beta2_power);
        for (i, &g) in self.core.grad.iter().enumerate() {
            st.moment1[i] = b1 * st.moment1[i] + (1.0 - b1) * g;
            st.moment2[i] = b2 * st.moment2[i] + (1.0 - b2) * (g * g);
            st.coef[i] -=
                self.alpha * st.moment1[i] / (c1 * ((st.moment2[i] / c2).sqrt() + self.epsilon));
        }
        st.beta1_power *= b1;
        st.beta2_power *= b2;
        self.core.finish();
        Ok(())
    }
}

impl_learner!(Adam);
