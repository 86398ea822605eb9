//! Online learning with graph-structured sparsity (Zhou, Chen & Ying, KDD 2019).
//!
//! * online learners, each an [`OnlineLearner`] with `partial_fit(x_row, y)` and `fit`:
//!   [`GraphDa`], [`DaIht`], [`StoIht`], [`GraphStoIht`], [`L1Rda`], [`AdaGradL1`],
//!   [`DaGroupLasso`] (DA-GL and DA-SGL) and [`Adam`], with the [`Loss::Logistic`] or
//!   [`Loss::Squared`] loss (the library's one [`Loss`]; the others are refused);
//! * the head and tail projections they use, re-exported from
//!   [`graphsparse_pcst::projection`] (where graph-structured recovery uses them too):
//!   [`GraphProjector`] (the binary search over prize-collecting Steiner forests of GraphDA,
//!   spec §B.4) and [`TopKProjection`] (the exact top-`s` projection of the non-graph model).
//!
//! Notation (spec §C.0): the model is `w ∈ ℝ^{p+1}` with the intercept `w_b` last; `tt` is the
//! 0-based index of the current sample and `t = tt + 1`; `ḡ` is the running average of the
//! gradients and `w̄` that of the iterates; labels are ±1.
//!
//! # Example
//! ```
//! use graphsparse_online::{DaIht, Loss, OnlineLearner};
//! let mut model = DaIht::new(3, 1.0, 1, Loss::Logistic, 0.0).unwrap();
//! model.partial_fit(&[1.0, -2.0, 0.5], 1.0).unwrap();
//! // one non-zero feature; the gradient at w = 0 is -0.5·y·x, so w = κ ḡ picks feature 1
//! assert_eq!(model.coef().iter().filter(|w| **w != 0.0).count(), 1);
//! assert!(model.coef()[1] < 0.0);
//! ```

mod baselines;
mod da;
mod error;
mod head_tail;
mod iht;
mod learner;
mod loss;
mod params;
mod rules;

pub use baselines::{AdaGradL1, Adam, DaGroupLasso, Groups, L1Rda};
pub use da::{DaIht, GraphDa, KappaRounding};
pub use error::{OnlineError, Result};
pub use graphsparse_base::Check;
pub use graphsparse_graph::{EdgeRules, WeightedGraph};
pub use graphsparse_pcst::projection::{
    Fallback, GraphProjection, GraphProjectionParams, GraphProjectionValidParams, GraphProjector,
    LambdaStart, PROJECTION_EPS, Projection, ProjectionError, ProjectionParams,
    ProjectionValidParams, SupportProjection, TopKProjection, head_sparsity, sparsity_range,
};
pub use iht::{GraphStoIht, StoIht};
pub use learner::{OnlineLearner, OnlineState};
pub use loss::{Loss, check_loss, decision, predict_label, sigmoid};
pub use params::{LearnerParams, LearnerValidParams, Method};
