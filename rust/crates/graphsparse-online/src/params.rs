//! One parameter pattern for every online learner: [`LearnerParams`] (a [`Method`] with its
//! hyperparameters, the loss and the ℓ2 weight) → [`Check::check`] → [`LearnerValidParams`] →
//! [`LearnerValidParams::learner`] on the data's feature count.
//!
//! [`Method::check`] applies the ranges of the scalar hyperparameters, which the learners'
//! constructors apply too: both call the rules of the leaf module `rules`, so each rule is
//! written once and the dependency runs one way (this module → the learners → `rules`). What
//! depends on the data (a sparsity of at most `p`, groups covering the `p` features, a graph
//! with one node per feature) is checked when the learner is built.

use graphsparse_base::Check;
use graphsparse_graph::WeightedGraph;
use graphsparse_pcst::projection::GraphProjectionParams;

use crate::baselines::{AdaGradL1, Adam, DaGroupLasso, Groups, L1Rda};
use crate::da::{DaIht, GraphDa};
use crate::error::{OnlineError, Result, invalid};
use crate::iht::{GraphStoIht, StoIht};
use crate::learner::OnlineLearner;
use crate::loss::{Loss, check_loss};
use crate::rules;

/// An online method with its own hyperparameters (spec §C; symbols as in the paper).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Method {
    /// [`GraphDa`]: dual averaging with WGM head/tail projections; `gamma` = `γ > 0`.
    GraphDa {
        /// Learning-rate parameter `γ > 0`.
        gamma: f64,
        /// Sparsity and binary-search settings of the head/tail projections.
        graph: GraphProjectionParams,
    },
    /// [`GraphStoIht`]: stochastic IHT with WGM projections.
    GraphStoIht {
        /// Step `η > 0` (scaled by `1/√t`).
        lr: f64,
        /// Sparsity and binary-search settings of the head/tail projections.
        graph: GraphProjectionParams,
    },
    /// [`DaIht`]: dual averaging with the exact top-`s` projection.
    DaIht {
        /// Learning-rate parameter `γ > 0`.
        gamma: f64,
        /// Support size `s` (`1 ≤ s ≤ p`).
        sparsity: usize,
    },
    /// [`StoIht`]: stochastic IHT with the exact top-`s` projection.
    StoIht {
        /// Step `η > 0`.
        lr: f64,
        /// Support size `s` (`1 ≤ s ≤ p`).
        sparsity: usize,
    },
    /// [`L1Rda`]: enhanced ℓ1-RDA.
    L1Rda {
        /// ℓ1 weight `λ ≥ 0`.
        lambda: f64,
        /// `γ > 0`.
        gamma: f64,
        /// Enhancement `ρ ≥ 0` (`0` is basic ℓ1-RDA).
        rho: f64,
    },
    /// [`AdaGradL1`]: AdaGrad with ℓ1 (composite mirror descent).
    AdaGradL1 {
        /// ℓ1 weight `λ ≥ 0`.
        lambda: f64,
        /// Step `η > 0`.
        eta: f64,
        /// `δ > 0` added to the root of the squared-gradient sums.
        delta: f64,
    },
    /// [`DaGroupLasso::group_lasso`]: dual-averaging group lasso.
    DaGroupLasso {
        /// Group weight `λ ≥ 0`.
        lambda: f64,
        /// `γ > 0`.
        gamma: f64,
    },
    /// [`DaGroupLasso::sparse_group_lasso`]: dual-averaging sparse group lasso.
    DaSparseGroupLasso {
        /// Weight `λ ≥ 0`.
        lambda: f64,
        /// `γ > 0`.
        gamma: f64,
        /// Per-group ℓ1 factor `r ≥ 0`.
        r: f64,
    },
    /// [`Adam`] on all coefficients.
    Adam {
        /// Step `α > 0`.
        alpha: f64,
        /// First-moment decay `β₁ ∈ [0, 1)`.
        beta1: f64,
        /// Second-moment decay `β₂ ∈ [0, 1)`.
        beta2: f64,
        /// `ε > 0`.
        epsilon: f64,
    },
}

impl Method {
    /// The method's snake-case name (`"graph_da"`, `"l1_rda"`, ...).
    ///
    /// # Complexity
    /// O(1).
    pub fn name(&self) -> &'static str {
        match self {
            Self::GraphDa { .. } => "graph_da",
            Self::GraphStoIht { .. } => "graph_sto_iht",
            Self::DaIht { .. } => "da_iht",
            Self::StoIht { .. } => "sto_iht",
            Self::L1Rda { .. } => "l1_rda",
            Self::AdaGradL1 { .. } => "adagrad_l1",
            Self::DaGroupLasso { .. } => "da_gl",
            Self::DaSparseGroupLasso { .. } => "da_sgl",
            Self::Adam { .. } => "adam",
        }
    }

    /// Whether the method needs a graph over the features ([`LearnerValidParams::learner`]).
    ///
    /// # Complexity
    /// O(1).
    pub fn needs_graph(&self) -> bool {
        matches!(self, Self::GraphDa { .. } | Self::GraphStoIht { .. })
    }

    /// Checks the ranges of the hyperparameters that do not depend on the data (the rules the
    /// learners' constructors apply too).
    ///
    /// # Errors
    /// [`OnlineError::Input`] naming the first hyperparameter out of range: `gamma`, `lr`,
    /// `alpha`, `eta`, `delta`, `epsilon` must be finite and `> 0`; `lambda`, `rho`, `r` and
    /// the graph `ratio` and `eps` finite and `≥ 0`; `beta1`, `beta2` in `[0, 1)`;
    /// `sparsity`, `head_sparsity`, `max_iter` and `num_clusters` at least 1 (the graph
    /// settings' errors come as [`OnlineError::Projection`]).
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// use graphsparse_online::Method;
    /// assert!(Method::DaIht { gamma: 1.0, sparsity: 3 }.check().is_ok());
    /// let err = Method::L1Rda { lambda: -1.0, gamma: 1.0, rho: 0.0 }.check().unwrap_err();
    /// assert_eq!(err.to_string(), "lambda must be finite and >= 0, got -1");
    /// ```
    pub fn check(&self) -> Result<()> {
        match *self {
            Self::GraphDa { gamma, graph } => {
                rules::dual_averaging(gamma)?;
                graph.check()?;
            }
            Self::GraphStoIht { lr, graph } => {
                rules::sto_iht(lr)?;
                graph.check()?;
            }
            Self::DaIht { gamma, sparsity } => {
                rules::dual_averaging(gamma)?;
                rules::sparsity(sparsity)?;
            }
            Self::StoIht { lr, sparsity } => {
                rules::sto_iht(lr)?;
                rules::sparsity(sparsity)?;
            }
            Self::L1Rda { lambda, gamma, rho } => rules::l1_rda(lambda, gamma, rho)?,
            Self::AdaGradL1 { lambda, eta, delta } => rules::adagrad_l1(lambda, eta, delta)?,
            Self::DaGroupLasso { lambda, gamma } => rules::group_lasso(lambda, gamma)?,
            Self::DaSparseGroupLasso { lambda, gamma, r } => {
                rules::sparse_group_lasso(lambda, gamma, r)?;
            }
            Self::Adam {
                alpha,
                beta1,
                beta2,
                epsilon,
            } => rules::adam(alpha, beta1, beta2, epsilon)?,
        }
        Ok(())
    }
}

/// A learner's parameters before checking: the method, the loss and the ℓ2 weight.
///
/// # Example
/// ```
/// use graphsparse_online::{Check, LearnerParams, Loss, Method, OnlineLearner};
/// let params = LearnerParams::new(Method::DaIht { gamma: 1.0, sparsity: 1 })
///     .loss(Loss::Logistic)
///     .check()?;
/// let mut model = params.learner(3, None, None)?;
/// model.partial_fit(&[1.0, -2.0, 0.5], 1.0)?;
/// assert_eq!(model.coef().iter().filter(|w| **w != 0.0).count(), 1);
/// # Ok::<(), graphsparse_online::OnlineError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct LearnerParams {
    method: Method,
    loss: Loss,
    l2: f64,
}

impl LearnerParams {
    /// `method` with the logistic loss and no ℓ2 term (the benchmark's setting).
    ///
    /// # Complexity
    /// O(1).
    pub fn new(method: Method) -> Self {
        Self {
            method,
            loss: Loss::Logistic,
            l2: 0.0,
        }
    }

    graphsparse_base::setters! {
        /// The loss ([`Loss::Logistic`] or [`Loss::Squared`]).
        loss: Loss => loss,
        /// The ℓ2 weight `l2 ≥ 0` added to the loss (`l2/2 ‖w‖²`).
        l2: f64 => l2,
    }
}

impl Check for LearnerParams {
    type Checked = LearnerValidParams;
    type Error = OnlineError;

    /// Checks every data-independent rule ([`Method::check`], a supported loss, `l2 ≥ 0`).
    ///
    /// # Errors
    /// [`OnlineError::Input`] or [`OnlineError::Projection`] naming the parameter;
    /// [`OnlineError::InvalidParameter`] for an unsupported loss.
    ///
    /// # Complexity
    /// O(1).
    fn check(self) -> Result<LearnerValidParams> {
        self.method.check()?;
        check_loss(self.loss)?;
        rules::l2(self.l2)?;
        Ok(LearnerValidParams(self))
    }
}

/// Checked [`LearnerParams`]; builds learners for a feature count.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnerValidParams(LearnerParams);

impl LearnerValidParams {
    /// The method.
    ///
    /// # Complexity
    /// O(1).
    pub fn method(&self) -> &Method {
        &self.0.method
    }

    /// The loss.
    ///
    /// # Complexity
    /// O(1).
    pub fn loss(&self) -> Loss {
        self.0.loss
    }

    /// The ℓ2 weight.
    ///
    /// # Complexity
    /// O(1).
    pub fn l2(&self) -> f64 {
        self.0.l2
    }

    /// A fresh learner (`w = 0`) on `p` features.
    ///
    /// # Arguments
    /// * `p` – number of features (`≥ 1`).
    /// * `graph` – the feature graph (one node per feature; its weights are the PCST edge
    ///   costs), required by the graph methods ([`Method::needs_graph`]) and ignored by the
    ///   others.
    /// * `groups` – the feature groups of DA-GL/DA-SGL (`None`: every feature its own group);
    ///   ignored by the other methods.
    ///
    /// # Returns
    /// The learner behind the [`OnlineLearner`] trait, ready for `partial_fit`.
    ///
    /// # Errors
    /// [`OnlineError::InvalidParameter`] for `p = 0`, a sparsity above `p`, or a graph
    /// method without a graph or with one whose node count is not `p` (named `edges`); the
    /// projections' and the groups' own errors.
    ///
    /// # Complexity
    /// O(p + m) for the state and the graph.
    pub fn learner(
        &self,
        p: usize,
        graph: Option<WeightedGraph>,
        groups: Option<Groups>,
    ) -> Result<Box<dyn OnlineLearner + Send>> {
        let (loss, l2) = (self.0.loss, self.0.l2);
        let need_graph = || match graph {
            None => Err(invalid("edges", "given (a feature graph)", "None")),
            Some(g) if g.n_vertices() != p => Err(invalid(
                "edges",
                "a graph with one node per feature",
                format!("{} nodes for {p} features", g.n_vertices()),
            )),
            Some(g) => Ok(g),
        };
        Ok(match self.0.method {
            Method::GraphDa {
                gamma,
                graph: params,
            } => {
                let graph = need_graph()?;
                Box::new(GraphDa::new(graph, gamma, &params.check()?, loss, l2)?)
            }
            Method::GraphStoIht { lr, graph: params } => {
                let graph = need_graph()?;
                Box::new(GraphStoIht::new(graph, lr, &params.check()?, loss, l2)?)
            }
            Method::DaIht { gamma, sparsity } => {
                Box::new(DaIht::new(p, gamma, sparsity, loss, l2)?)
            }
            Method::StoIht { lr, sparsity } => Box::new(StoIht::new(p, lr, sparsity, loss, l2)?),
            Method::L1Rda { lambda, gamma, rho } => {
                Box::new(L1Rda::new(p, lambda, gamma, rho, loss, l2)?)
            }
            Method::AdaGradL1 { lambda, eta, delta } => {
                Box::new(AdaGradL1::new(p, lambda, eta, delta, loss, l2)?)
            }
            Method::DaGroupLasso { lambda, gamma } => {
                let groups = groups.unwrap_or_else(|| Groups::singletons(p));
                Box::new(DaGroupLasso::group_lasso(
                    p, lambda, gamma, groups, loss, l2,
                )?)
            }
            Method::DaSparseGroupLasso { lambda, gamma, r } => {
                let groups = groups.unwrap_or_else(|| Groups::singletons(p));
                Box::new(DaGroupLasso::sparse_group_lasso(
                    p, lambda, gamma, r, groups, loss, l2,
                )?)
            }
            Method::Adam {
                alpha,
                beta1,
                beta2,
                epsilon,
            } => Box::new(Adam::new(p, alpha, beta1, beta2, epsilon, loss, l2)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_methods() -> Vec<Method> {
        let graph = GraphProjectionParams::new(1);
        vec![
            Method::GraphDa { gamma: 1.0, graph },
            Method::GraphStoIht { lr: 0.1, graph },
            Method::DaIht {
                gamma: 1.0,
                sparsity: 1,
            },
            Method::StoIht {
                lr: 0.1,
                sparsity: 1,
            },
            Method::L1Rda {
                lambda: 0.1,
                gamma: 1.0,
                rho: 0.0,
            },
            Method::AdaGradL1 {
                lambda: 0.1,
                eta: 1.0,
                delta: 1e-3,
            },
            Method::DaGroupLasso {
                lambda: 0.1,
                gamma: 1.0,
            },
            Method::DaSparseGroupLasso {
                lambda: 0.1,
                gamma: 1.0,
                r: 1.0,
            },
            Method::Adam {
                alpha: 1e-3,
                beta1: 0.9,
                beta2: 0.999,
                epsilon: 1e-8,
            },
        ]
    }

    #[test]
    fn every_method_builds_and_learns() {
        let graph = WeightedGraph::new(3, &[[0usize, 1], [1, 2]], Some(&[1.0, 1.0])).unwrap();
        for m in all_methods() {
            let name = m.name();
            let params = LearnerParams::new(m).check().unwrap();
            let mut model = params.learner(3, Some(graph.clone()), None).unwrap();
            model.partial_fit(&[1.0, 0.0, -1.0], 1.0).unwrap();
            assert_eq!(model.state().n_seen, 1, "{name}");
        }
    }

    #[test]
    fn graph_methods_need_a_graph_and_rules_name_the_parameter() {
        let m = all_methods().remove(0);
        assert!(m.needs_graph());
        let err = LearnerParams::new(m)
            .check()
            .unwrap()
            .learner(3, None, None);
        assert!(matches!(
            err,
            Err(OnlineError::InvalidParameter { name: "edges", .. })
        ));
        for (m, name) in [
            (
                Method::DaIht {
                    gamma: f64::NAN,
                    sparsity: 1,
                },
                "gamma",
            ),
            (
                Method::StoIht {
                    lr: 1.0,
                    sparsity: 0,
                },
                "sparsity",
            ),
            (
                Method::AdaGradL1 {
                    lambda: 0.0,
                    eta: 1.0,
                    delta: 0.0,
                },
                "delta",
            ),
            (
                Method::Adam {
                    alpha: 1.0,
                    beta1: 0.5,
                    beta2: 1.0,
                    epsilon: 1.0,
                },
                "beta2",
            ),
        ] {
            match LearnerParams::new(m).check() {
                Err(OnlineError::Input(e)) => assert_eq!(e.arg(), name),
                other => panic!("{name}: {other:?}"),
            }
        }
        let l2 = LearnerParams::new(all_methods().remove(2)).l2(-1.0).check();
        assert!(matches!(l2, Err(OnlineError::Input(e)) if e.arg() == "l2"));
        let big = LearnerParams::new(Method::DaIht {
            gamma: 1.0,
            sparsity: 4,
        })
        .check()
        .unwrap();
        assert!(big.learner(3, None, None).is_err());
    }
}
