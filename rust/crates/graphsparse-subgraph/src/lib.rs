//! Sparse learning over all subgraph features (Takigawa & Mamitsuka).
//!
//! Building blocks: [`SeparableFunction`] (Morishita–Kudo bounds, Lemma 8) with the classic
//! objectives built on it ([`WeightedGain`], [`WeightedError`], [`AbsCorrelation`]), and the
//! [`Loss`] trait with [`Logistic`] and [`Squared`] losses.

mod bounds;
mod loss;

pub use bounds::{AbsCorrelation, Bounds, SeparableFunction, WeightedError, WeightedGain};
pub use loss::{Logistic, Loss, Squared};
