//! The head/tail pair a learner projects with: the graph model or exact top-`s`.

use crate::error::OnlineError;
use crate::error::{Result, invalid};

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

    /// The last step of GraphDA and GraphStoIHT: `coef = w` on the tail support of `w`'s
    /// feature part, 0 elsewhere, and `coef`'s intercept (last entry) `= w`'s.
    ///
    /// # Errors
    /// As [`SupportProjection::head_into`].
    ///
    /// # Complexity
    /// One tail projection plus O(p).
    fn keep_tail(&mut self, w: &[f64], support: &mut Vec<usize>, coef: &mut [f64]) -> Result<()> {
        let p = w.len() - 1;
        self.tail_into(&w[..p], support)?;
        coef.fill(0.0);
        for &i in support.iter() {
            coef[i] = w[i];
        }
        coef[p] = w[p];
        Ok(())
    }
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
    ///
    /// # Complexity
    /// O(1); each projection is an O(p) selection.
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
        top_support_into("head input", v, self.head_sparsity, support)
    }
    fn tail_into(&mut self, v: &[f64], support: &mut Vec<usize>) -> Result<()> {
        top_support_into("tail input", v, self.tail_sparsity, support)
    }
}

/// The top-`s` support of `v` from `graphsparse-proj` (`s` capped at the length): larger
/// magnitudes first, ties to the smaller index.
///
/// # Errors
/// [`OnlineError::NonFinite`] naming `what` when `v` holds NaN or ±inf (an iterate that
/// overflowed).
pub(crate) fn top_support_into(
    what: &'static str,
    v: &[f64],
    s: usize,
    support: &mut Vec<usize>,
) -> Result<()> {
    graphsparse_proj::top_k_support_into(v, s.min(v.len()), support).map_err(|e| match e {
        graphsparse_proj::ProjError::Input(graphsparse_proj::InputError::NotFinite {
            index,
            ..
        }) => OnlineError::NonFinite { name: what, index },
        other => unreachable!("invariant: k <= len was ensured above ({other})"),
    })
}
