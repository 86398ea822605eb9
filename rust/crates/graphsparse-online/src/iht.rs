//! Stochastic iterative hard thresholding: StoIHT (spec §C.3) and GraphStoIHT (§C.4).

use graphsparse_graph::WeightedGraph;
use graphsparse_pcst::projection::{
    GraphProjection, GraphProjectionValidParams, SupportProjection, top_support_into,
};

use crate::error::Result;
use crate::head_tail::{HeadTail, graph_projection};
use crate::learner::{Core, Needs, impl_learner};
use crate::loss::Loss;
use crate::rules;

/// StoIHT with block size 1: `w̃ = w − (lr/√t) g` (all `p + 1` coordinates, `t = tt + 1`), then
/// `w` = `w̃` on the top-`s` indices of `|w̃_{1:p}|`, `w_b = w̃_b`.
#[derive(Debug, Clone)]
pub struct StoIht {
    pub(crate) core: Core,
    lr: f64,
    sparsity: usize,
    support: Vec<usize>,
    buf: Vec<f64>,
}

impl StoIht {
    /// StoIHT on `p` features with step `lr` keeping `sparsity` features.
    ///
    /// # Errors
    /// [`crate::OnlineError::Input`] for `lr ≤ 0`, a zero sparsity or `l2 < 0`;
    /// [`crate::OnlineError::InvalidParameter`] for `p = 0`, a sparsity above `p` or an
    /// unsupported loss.
    ///
    /// # Complexity
    /// O(p) time and memory; each update costs O(p) (top-`s` by selection, not sorting).
    pub fn new(p: usize, lr: f64, sparsity: usize, loss: Loss, l2: f64) -> Result<Self> {
        rules::sto_iht(lr)?;
        rules::sparsity(sparsity)?;
        rules::sparsity_within(sparsity, p)?;
        Ok(Self {
            core: Core::new(p, loss, l2, Needs::GRAD)?,
            lr,
            sparsity,
            support: Vec::with_capacity(p),
            buf: vec![0.0; p + 1],
        })
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        let p = self.core.p();
        let t = self.core.observe(x, y) + 1.0;
        let alpha = -self.lr / t.sqrt();
        let st = &mut self.core.state;
        for ((b, &w), &g) in self.buf.iter_mut().zip(&st.coef).zip(&self.core.grad) {
            *b = w + alpha * g;
        }
        top_support_into(
            "gradient step",
            &self.buf[..p],
            self.sparsity,
            &mut self.support,
        )?;
        st.coef.fill(0.0);
        for &i in &self.support {
            st.coef[i] = self.buf[i];
        }
        st.coef[p] = self.buf[p];
        self.core.finish();
        Ok(())
    }
}

impl_learner!(StoIht);

/// GraphStoIHT: StoIHT whose gradient is restricted to a head projection and whose iterate is
/// a tail projection.
///
/// `H = head(g_{1:p})`; `h = P(g, H)` with `h_b = 0` (so the intercept never moves from 0);
/// `w̃ = w − (lr/√t) h`; `T = tail(w̃_{1:p})`; `w = P(w̃, T)`, `w_b = w̃_b`.
#[derive(Debug, Clone)]
pub struct GraphStoIht<P: SupportProjection> {
    pub(crate) core: Core,
    lr: f64,
    head_tail: HeadTail<P>,
}

impl<P: SupportProjection> GraphStoIht<P> {
    /// GraphStoIHT on `p` features with step `lr` and the given head/tail pair.
    ///
    /// # Errors
    /// [`crate::OnlineError::Input`] for `lr ≤ 0` or `l2 < 0`,
    /// [`crate::OnlineError::InvalidParameter`] for `p = 0` or an unsupported loss.
    ///
    /// # Complexity
    /// O(p) time and memory; each update costs O(p) plus one head and one tail projection.
    pub fn with_projection(p: usize, lr: f64, loss: Loss, l2: f64, projection: P) -> Result<Self> {
        rules::sto_iht(lr)?;
        Ok(Self {
            core: Core::new(p, loss, l2, Needs::GRAD)?,
            lr,
            head_tail: HeadTail::new(p, projection),
        })
    }

    /// The head/tail pair.
    ///
    /// # Complexity
    /// O(1).
    pub fn projection(&self) -> &P {
        &self.head_tail.projection
    }

    fn step(&mut self, x: &[f64], y: f64) -> Result<()> {
        let p = self.core.p();
        let t = self.core.observe(x, y) + 1.0;
        let alpha = -self.lr / t.sqrt();
        let grad = &self.core.grad;
        let coef = &mut self.core.state.coef;
        self.head_tail.update(&grad[..p], coef, |buf, head, coef| {
            buf.copy_from_slice(coef);
            for &i in head {
                buf[i] = coef[i] + alpha * grad[i];
            }
        })?;
        self.core.finish();
        Ok(())
    }
}

impl_learner!(GraphStoIht<P>, P: SupportProjection);

impl GraphStoIht<GraphProjection> {
    /// GraphStoIHT on `graph`, one node per feature (`p = graph.n_vertices()`), with its edge
    /// weights as the PCST costs.
    ///
    /// # Errors
    /// As [`GraphProjection::new`] and [`GraphStoIht::with_projection`].
    ///
    /// # Complexity
    /// As [`GraphProjection::new`]; each update costs O(p) plus two projections.
    pub fn new(
        graph: WeightedGraph,
        lr: f64,
        params: &GraphProjectionValidParams,
        loss: Loss,
        l2: f64,
    ) -> Result<Self> {
        let (p, proj) = graph_projection(graph, params)?;
        Self::with_projection(p, lr, loss, l2, proj)
    }
}
