//! The head/tail update shared by the graph learners (GraphDA, GraphStoIHT): a head
//! projection picks a support, a vector is built on it, and the tail projection of that
//! vector becomes the new iterate.

use graphsparse_graph::WeightedGraph;
use graphsparse_pcst::projection::{
    GraphProjection, GraphProjectionValidParams, SupportProjection,
};

use crate::error::Result;

/// A head/tail pair with the buffers of one update (allocated once; an update allocates
/// nothing).
#[derive(Debug, Clone)]
pub(crate) struct HeadTail<P> {
    pub(crate) projection: P,
    /// The head support during an update, the tail support after it (ascending).
    pub(crate) support: Vec<usize>,
    buf: Vec<f64>,
}

impl<P: SupportProjection> HeadTail<P> {
    /// Buffers for `p` features and the intercept.
    pub(crate) fn new(p: usize, projection: P) -> Self {
        Self {
            projection,
            support: Vec::with_capacity(p),
            buf: vec![0.0; p + 1],
        }
    }

    /// `H = head(head_of)`; `fill(buf, H, coef)` builds `w̃` in `buf` (all `p + 1` entries) from
    /// `H` and the current `coef`; then `coef = P(w̃, tail(w̃_{1:p}))` with the intercept kept.
    pub(crate) fn update(
        &mut self,
        head_of: &[f64],
        coef: &mut [f64],
        fill: impl FnOnce(&mut [f64], &[usize], &[f64]),
    ) -> Result<()> {
        self.projection.head_into(head_of, &mut self.support)?;
        fill(&mut self.buf, &self.support, coef);
        self.projection
            .keep_tail(&self.buf, &mut self.support, coef)?;
        Ok(())
    }
}

/// The PCST head/tail pair on `graph`, one node per feature: `(p, projection)`.
pub(crate) fn graph_projection(
    graph: WeightedGraph,
    params: &GraphProjectionValidParams,
) -> Result<(usize, GraphProjection)> {
    let p = graph.n_vertices();
    Ok((p, GraphProjection::new(graph, params)?))
}
