//! The ranges of the learners' hyperparameters, each written once: the learners' constructors
//! and [`Method::check`](crate::Method::check) both call these (a leaf module: it imports no
//! learner, so the dependency runs one way, `params` → learners → `rules`).

use graphsparse_base::{check_at_least_one, check_nonnegative, check_positive, check_range};

use crate::error::{Result, invalid};

/// `β ∈ [0, 1)`.
fn check_decay(name: &'static str, beta: f64) -> Result<()> {
    Ok(check_range(name, beta, "in [0, 1)", |b| {
        (0.0..1.0).contains(&b)
    })?)
}

/// GraphDA and DA-IHT: `γ > 0`.
pub(crate) fn dual_averaging(gamma: f64) -> Result<()> {
    Ok(check_positive("gamma", gamma)?)
}

/// StoIHT and GraphStoIHT: `lr > 0`.
pub(crate) fn sto_iht(lr: f64) -> Result<()> {
    Ok(check_positive("lr", lr)?)
}

/// A model sparsity: at least 1.
pub(crate) fn sparsity(sparsity: usize) -> Result<()> {
    Ok(check_at_least_one("sparsity", sparsity)?)
}

/// ℓ1-RDA: `λ ≥ 0`, `γ > 0`, `ρ ≥ 0`.
pub(crate) fn l1_rda(lambda: f64, gamma: f64, rho: f64) -> Result<()> {
    check_nonnegative("lambda", lambda)?;
    check_positive("gamma", gamma)?;
    Ok(check_nonnegative("rho", rho)?)
}

/// AdaGrad-ℓ1: `λ ≥ 0`, `η > 0`, `δ > 0`.
pub(crate) fn adagrad_l1(lambda: f64, eta: f64, delta: f64) -> Result<()> {
    check_nonnegative("lambda", lambda)?;
    check_positive("eta", eta)?;
    Ok(check_positive("delta", delta)?)
}

/// DA-GL: `λ ≥ 0`, `γ > 0`.
pub(crate) fn group_lasso(lambda: f64, gamma: f64) -> Result<()> {
    check_nonnegative("lambda", lambda)?;
    Ok(check_positive("gamma", gamma)?)
}

/// DA-SGL: `λ ≥ 0`, `γ > 0`, `r ≥ 0`.
pub(crate) fn sparse_group_lasso(lambda: f64, gamma: f64, r: f64) -> Result<()> {
    group_lasso(lambda, gamma)?;
    Ok(check_nonnegative("r", r)?)
}

/// Adam: `α > 0`, `β₁, β₂ ∈ [0, 1)`, `ε > 0`.
pub(crate) fn adam(alpha: f64, beta1: f64, beta2: f64, epsilon: f64) -> Result<()> {
    check_positive("alpha", alpha)?;
    check_decay("beta1", beta1)?;
    check_decay("beta2", beta2)?;
    Ok(check_positive("epsilon", epsilon)?)
}

/// A stored Adam decay power `βᵗ ∈ [0, 1)`.
pub(crate) fn decay_power(name: &'static str, power: f64) -> Result<()> {
    check_decay(name, power)
}

/// The ℓ2 weight: `≥ 0`.
pub(crate) fn l2(l2: f64) -> Result<()> {
    Ok(check_nonnegative("l2", l2)?)
}

/// A sparsity of at most `p` features (data-dependent).
pub(crate) fn sparsity_within(sparsity: usize, p: usize) -> Result<()> {
    if sparsity == 0 || sparsity > p {
        return Err(invalid("sparsity", "in 1..=n_features", sparsity));
    }
    Ok(())
}
