//! Dual-averaging learners with support projections: GraphDA (spec §C.1) and DA-IHT (§C.2).

use graphsparse_graph::WeightedGraph;
use graphsparse_pcst::projection::{
    GraphProjection, GraphProjectionValidParams, SupportProjection, top_support_into,
};

use crate::error::Result;
use crate::head_tail::{HeadTail, graph_projection};
use crate::learner::{Core, Needs, impl_learner};
use crate::loss::Loss;
use crate::rules;

/// How `κ = −√(tt+1)/γ` is rounded: the two references differ in the last bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KappaRounding {
    /// `-sqrt(tt+1.)/gamma` (GraphDA, ℓ1-RDA, DA-GL).
    #[default]
    NegSqrtOverGamma,
    /// `-1./gamma*sqrt(tt+1.)` (DA-IHT).
    NegInvGammaTimesSqrt,
}

impl KappaRounding {
    #[inline]
    pub(crate) fn kappa(self, tt: f64, gamma: f64) -> f64 {
        match self {
            Self::NegSqrtOverGamma => -(tt + 1.0).sqrt() / gamma,
            Self::NegInvGammaTimesSqrt => -1.0 / gamma * (tt + 1.0).sqrt(),
        }
    }
}

/// GraphDA (Algorithm 1 of Zhou, Chen & Ying, KDD 2019, in the form of the reference code).
///
/// Per sample, with `tt` the 0-based sample index:
/// 1. predict with `w` and `w̄`, count mistakes, take the gradient `g` at `w`;
/// 2. `ḡ ← running average of g` (all `p + 1` coordinates);
/// 3. `H = head(ḡ_{1:p})`, `b = P(ḡ, H)` with `b_b = ḡ_b`;
/// 4. `w̃ = κ b` with `κ = −√(tt+1)/γ`;
/// 5. `T = tail(w̃_{1:p})`, `w = P(w̃, T)` with `w_b = w̃_b`;
/// 6. `w̄ ← running average of w`.
///
/// With [`GraphProjection`] (the default, built by [`GraphDa::new`]) the head and tail
/// are the WGM binary searches; with [`crate::TopKProjection`] and
/// [`KappaRounding::NegInvGammaTimesSqrt`] it is exactly [`DaIht`].
#[derive(Debug, Clone)]
pub struct GraphDa<P: SupportProjection> {
    pub(crate) core: Core,
    gamma: f64,
    kappa_rounding: KappaRounding,
    head_tail: HeadTail<P>,
}

impl<P: SupportProjection> GraphDa<P> {
    /// GraphDA on `p` features with an explicit head/tail pair.
    ///
    /// # Errors
    /// [`crate::OnlineError::Input`] for `gamma ≤ 0` or `l2 < 0`,
    /// [`crate::OnlineError::InvalidParameter`] for `p = 0` or an unsupported loss.
    ///
    /// # Complexity
    /// O(p) time and memory; each update costs O(p) plus one head and one tail projection.
    pub fn with_projection(
        p: usize,
        gamma: f64,
        loss: Loss,
        l2: f64,
        projection: P,
    ) -> Result<Self> {
        rules::dual_averaging(gamma)?;
        Ok(Self {
            core: Core::new(p, loss, l2, Needs::GRAD_AVG)?,
            gamma,
            kappa_rounding: KappaRounding::default(),
            head_tail: HeadTail::new(p, projection),
        })
    }

    /// Chooses the rounding of `κ` (builder style).
    ///
    /// # Complexity
    /// O(1).
    pub fn kappa_rounding(mut self, rounding: KappaRounding) -> Self {
        self.kappa_rounding = rounding;
        self
    }

    /// The head/tail pair.
    ///
    /// # Complexity
    /// O(1).
    pub fn projection(&self) -> &P {
        &self.head_tail.projection
    }

    /// The tail support `T` of the last update (ascending).
    ///
    /// # Complexity
    /// O(1).
    pub fn last_tail_support(&self) -> &[usize] {
        &self.head_tail.support
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        let p = self.core.p();
        let tt = self.core.observe(x, y);
        let st = &mut self.core.state;
        let kappa = self.kappa_rounding.kappa(tt, self.gamma);
        let avg = &st.grad_avg;
        self.head_tail
            .update(&avg[..p], &mut st.coef, |buf, head, _| {
                buf.fill(0.0);
                for &i in head {
                    buf[i] = kappa * avg[i];
                }
                buf[p] = kappa * avg[p];
            })?;
        self.core.finish();
        Ok(())
    }
}

impl_learner!(GraphDa<P>, P: SupportProjection);

impl GraphDa<GraphProjection> {
    /// GraphDA on `graph`, one node per feature (`p = graph.n_vertices()`), with its edge
    /// weights as the PCST costs.
    ///
    /// # Errors
    /// As [`GraphProjection::new`] and [`GraphDa::with_projection`].
    ///
    /// # Complexity
    /// As [`GraphProjection::new`]; each update costs O(p) plus two projections.
    pub fn new(
        graph: WeightedGraph,
        gamma: f64,
        params: &GraphProjectionValidParams,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        let (p, proj) = graph_projection(graph, params)?;
        Self::with_projection(p, gamma, loss, l2, proj)
    }
}

/// DA-IHT (spec §C.2): dual averaging with the exact top-`s` projection of `ḡ`.
///
/// `w̃ = κ ḡ` with `κ = −1/γ·√(tt+1)`; `w = w̃` on the top-`s` indices of `|ḡ_{1:p}|` (ties to
/// the smaller index), `w_b = w̃_b`.
#[derive(Debug, Clone)]
pub struct DaIht {
    pub(crate) core: Core,
    gamma: f64,
    sparsity: usize,
    support: Vec<usize>,
}

impl DaIht {
    /// DA-IHT on `p` features keeping `sparsity` of them.
    ///
    /// # Errors
    /// [`crate::OnlineError::Input`] for `gamma ≤ 0`, a zero sparsity or `l2 < 0`;
    /// [`crate::OnlineError::InvalidParameter`] for `p = 0`, a sparsity above `p` or an
    /// unsupported loss.
    ///
    /// # Complexity
    /// O(p) time and memory; each update costs O(p) (top-`s` by selection, not sorting).
    pub fn new(p: usize, gamma: f64, sparsity: usize, loss: Loss, l2: f64) -> Result<Self> {
        rules::dual_averaging(gamma)?;
        rules::sparsity(sparsity)?;
        rules::sparsity_within(sparsity, p)?;
        Ok(Self {
            core: Core::new(p, loss, l2, Needs::GRAD_AVG)?,
            gamma,
            sparsity,
            support: Vec::with_capacity(p),
        })
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        let p = self.core.p();
        let tt = self.core.observe(x, y);
        let st = &mut self.core.state;
        let kappa = KappaRounding::NegInvGammaTimesSqrt.kappa(tt, self.gamma);
        top_support_into(
            "gradient average",
            &st.grad_avg[..p],
            self.sparsity,
            &mut self.support,
        )?;
        st.coef.fill(0.0);
        for &i in &self.support {
            st.coef[i] = kappa * st.grad_avg[i];
        }
        st.coef[p] = kappa * st.grad_avg[p];
        self.core.finish();
        Ok(())
    }
}

impl_learner!(DaIht);
