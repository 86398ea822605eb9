//! Sparse learning over all subgraph features (Takigawa & Mamitsuka).
//!
//! Building blocks: [`SeparableFunction`] (Morishita–Kudo bounds, Lemma 8) with the classic
//! objectives built on it ([`WeightedGain`], [`WeightedError`], [`AbsCorrelation`]), and the
//! [`Loss`] trait with [`Logistic`] and [`Squared`] losses.
//!
//! Learners on the gSpan tree:
//! * [`fit_bcgd`] / [`fit_bcgd_path`]: L1 / elastic-net models by block coordinate gradient
//!   descent with the Theorem 11 pruning (paper Figure 7), parameters [`BcgdParams`]; the
//!   visited tree is cached between iterations and along the path (see [`BcgdParams::cache`]).
//!   Safe pattern pruning (Nakagawa et al., KDD 2016) prunes on top of Theorem 11 with a
//!   gap-safe sphere around a dual point (warm from the previous `λ1` on a path, or from an
//!   internal `λ_max → λ1` path in a single fit); every fit reports its duality gap
//!   ([`BcgdFit::duality_gap`]) and the nodes each rule pruned (derivation below).
//! * [`best_stump`]: the branch-and-bound search for the decision stump with the largest
//!   weighted gain (Adaboost's weak learner, LPBoost's pricing step); [`StumpSearcher`] repeats
//!   it under changing weights on a cached tree.
//! * [`match_patterns`]: which graphs contain which patterns (prediction on new graphs).
//!
#![doc = include_str!("spp.md")]

mod bcgd;
mod boost;
mod bounds;
mod cache;
mod dual;
mod error;
mod feature;
mod loss;
mod matching;

pub use bcgd::{
    BcgdFit, BcgdParams, BcgdValidParams, IterationStats, TraceStep, fit_bcgd, fit_bcgd_path,
    objective,
};
pub use boost::{
    AdaBoostFit, Stump, StumpParams, StumpSearch, StumpSearcher, StumpValidParams, adaboost,
    best_stump,
};
pub use bounds::{AbsCorrelation, Bounds, SeparableFunction, WeightedError, WeightedGain};
pub use cache::{DEFAULT_CACHE_BYTES, FrontierStats};
pub use error::{Result, SubgraphError};
pub use feature::Feature;
pub use graphsparse_base::{Budget, Check, Parallel, RunControl, Truncation};
pub use loss::{Logistic, Loss, Squared};
pub use matching::match_patterns;
