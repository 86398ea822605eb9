//! The head/tail pair a learner projects with: the graph model or exact top-`s`.

use crate::error::{Result, invalid};
use crate::topk::top_s_support_into;

/// A head and a tail projection onto supports (spec §B.1): each writes the selected support of
/// `v` (the `p` feature coordinates, intercept excluded) into `support`, ascending.
pub trait SupportProjection {
    /// Head projection `H = head(v)`.
    ///
    /// # Errors
    /// Only for invalid input (non-finite `v`), which the learners never pass.
    fn head_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<()>;
    /// Tail projection `T = tail(v)`.
    ///
    /// # Errors
    /// As [`SupportProjection::head_into`].
    fn tail_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<()>;
}

/// Exact head and tail of the non-graph model `{S : |S| ≤ s}`: the top-`s` coordinates by
/// magnitude, ties to the smaller index (spec §B.8, Theorem 2 of the paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopKProjection {
    /// Support size of the head projection.
    pub head_sparsity: usize,
    /// Support size of the tail projection.
    pub tail_sparsity: usize,
}

impl TopKProjection {
    /// Head keeps `head_sparsity` coordinates, tail keeps `tail_sparsity`.
    ///
    /// # Errors
    /// [`crate::OnlineError::InvalidParameter`] if either is 0.
    pub fn new(head_sparsity: usize, tail_sparsity: usize) -> Result<Self> {
        if head_sparsity == 0 {
            return Err(invalid("head_sparsity", ">= 1", head_sparsity));
        }
        if tail_sparsity == 0 {
            return Err(invalid("sparsity", ">= 1", tail_sparsity));
        }
        Ok(Self {
            head_sparsity,
            tail_sparsity,
        })
    }
}

impl SupportProjection for TopKProjection {
    fn head_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<()> {
        top_s_support_into(v, self.head_sparsity, support);
        Ok(())
    }
    fn tail_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<()> {
        top_s_support_into(v, self.tail_sparsity, support);
        Ok(())
    }
}
