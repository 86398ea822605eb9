//! The common online protocol (spec §C.0): state, predict-then-update, running averages.

use graphsparse_base::{check_finite, check_len};

use crate::error::{OnlineError, Result, invalid};
use crate::loss::{Loss, check_loss, decision, gradient_into, predict_label};
use crate::rules;

/// The complete state of an online learner; every vector has length `p + 1`, intercept last.
///
/// The fields a learner does not use stay empty. The state round-trips through
/// [`OnlineLearner::set_state`], so a pass can be stopped, stored (for example as NumPy arrays)
/// and continued with the same results.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OnlineState {
    /// The current iterate `w_t` (features, then the intercept).
    pub coef: Vec<f64>,
    /// The running average `w̄_t` of the post-update iterates `w_1 … w_t`.
    pub coef_avg: Vec<f64>,
    /// The running average `ḡ_t` of the gradients (dual-averaging methods and AdaGrad).
    pub grad_avg: Vec<f64>,
    /// The sum of squared gradients `G_t` (AdaGrad).
    pub grad_sq_sum: Vec<f64>,
    /// Adam's first moment `m`.
    pub moment1: Vec<f64>,
    /// Adam's second moment `v`.
    pub moment2: Vec<f64>,
    /// Adam's `β₁ᵗ` for the next step (starts at `β₁`).
    pub beta1_power: f64,
    /// Adam's `β₂ᵗ` for the next step (starts at `β₂`).
    pub beta2_power: f64,
    /// Number of samples seen (`tt` of the next step).
    pub n_seen: u64,
    /// Online mistakes of `w_t` (predict first, then update).
    pub n_mistakes: u64,
    /// Online mistakes of `w̄_t`.
    pub n_mistakes_avg: u64,
}

impl OnlineState {
    /// The zero state for `p` features: `w = w̄ = 0`, nothing seen.
    ///
    /// # Complexity
    /// O(p) time and memory.
    pub fn new(p: usize) -> Self {
        Self {
            coef: vec![0.0; p + 1],
            coef_avg: vec![0.0; p + 1],
            ..Self::default()
        }
    }

    /// Number of features `p`.
    ///
    /// # Complexity
    /// O(1).
    pub fn n_features(&self) -> usize {
        self.coef.len().saturating_sub(1)
    }
}

/// Which optional state vectors a learner keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Needs {
    pub grad_avg: bool,
    pub grad_sq_sum: bool,
    /// Adam's moment decay rates `(β1, β2)`; `None` keeps no moments.
    pub moments: Option<(f64, f64)>,
}

impl Needs {
    /// Only the gradient itself (SGD-style learners).
    pub const GRAD: Self = Self {
        grad_avg: false,
        grad_sq_sum: false,
        moments: None,
    };
    /// The running gradient average of the dual-averaging learners.
    pub const GRAD_AVG: Self = Self {
        grad_avg: true,
        ..Self::GRAD
    };
}

/// Shared machinery: the state, the loss and the gradient buffer.
#[derive(Debug, Clone)]
pub(crate) struct Core {
    pub loss: Loss,
    pub l2: f64,
    pub state: OnlineState,
    pub grad: Vec<f64>,
    pub needs: Needs,
}

/// `avg ← avg·(tt/(tt+1)); avg ← avg + (1/(tt+1))·new`, the reference's running average.
#[inline]
pub(crate) fn running_average(avg: &mut [f64], new: &[f64], tt: f64) {
    let keep = tt / (tt + 1.0);
    let add = 1.0 / (tt + 1.0);
    for (a, &g) in avg.iter_mut().zip(new) {
        *a *= keep;
        *a += add * g;
    }
}

impl Core {
    pub fn new(p: usize, loss: Loss, l2: f64, needs: Needs) -> Result<Self> {
        if p == 0 {
            return Err(invalid("n_features", "at least 1", p));
        }
        rules::l2(l2)?;
        check_loss(loss)?;
        let mut core = Self {
            loss,
            l2,
            state: OnlineState::new(p),
            grad: vec![0.0; p + 1],
            needs,
        };
        core.reset();
        Ok(core)
    }

    pub fn p(&self) -> usize {
        self.grad.len() - 1
    }

    pub fn reset(&mut self) {
        let p = self.p();
        let mut s = OnlineState::new(p);
        if self.needs.grad_avg {
            s.grad_avg = vec![0.0; p + 1];
        }
        if self.needs.grad_sq_sum {
            s.grad_sq_sum = vec![0.0; p + 1];
        }
        if let Some((beta1, beta2)) = self.needs.moments {
            s.moment1 = vec![0.0; p + 1];
            s.moment2 = vec![0.0; p + 1];
            s.beta1_power = beta1;
            s.beta2_power = beta2;
        }
        self.state = s;
    }

    pub fn set_state(&mut self, mut state: OnlineState) -> Result<()> {
        let n = self.p() + 1;
        check_len("coef", state.coef.len(), n)?;
        check_len("coef_avg", state.coef_avg.len(), n)?;
        check_finite("coef", &state.coef)?;
        check_finite("coef_avg", &state.coef_avg)?;
        let need = |name, v: &mut Vec<f64>, used: bool| -> Result<()> {
            if used {
                check_len(name, v.len(), n)?;
                Ok(check_finite(name, v)?)
            } else {
                v.clear();
                Ok(())
            }
        };
        need("grad_avg", &mut state.grad_avg, self.needs.grad_avg)?;
        need(
            "grad_sq_sum",
            &mut state.grad_sq_sum,
            self.needs.grad_sq_sum,
        )?;
        need("moment1", &mut state.moment1, self.needs.moments.is_some())?;
        need("moment2", &mut state.moment2, self.needs.moments.is_some())?;
        if self.needs.grad_sq_sum && state.grad_sq_sum.iter().any(|&g| g < 0.0) {
            return Err(invalid("grad_sq_sum", "non-negative", "a negative entry"));
        }
        if self.needs.moments.is_some() {
            if state.moment2.iter().any(|&g| g < 0.0) {
                return Err(invalid("moment2", "non-negative", "a negative entry"));
            }
            rules::decay_power("beta1_power", state.beta1_power)?;
            rules::decay_power("beta2_power", state.beta2_power)?;
        }
        self.state = state;
        Ok(())
    }

    /// Predicts with `w` and `w̄`, counts mistakes, writes the gradient at `w` to `grad` and,
    /// for the dual-averaging learners, folds it into `grad_avg`. Returns `tt`, the 0-based
    /// index of this sample.
    #[inline]
    pub fn observe(&mut self, x: &[f64], y: f64) -> f64 {
        let tt = self.tt();
        let score = gradient_into(self.loss, x, y, &self.state.coef, self.l2, &mut self.grad);
        if predict_label(score) != label_of(y) {
            self.state.n_mistakes += 1;
        }
        let score_avg = decision(x, &self.state.coef_avg);
        if predict_label(score_avg) != label_of(y) {
            self.state.n_mistakes_avg += 1;
        }
        if self.needs.grad_avg {
            running_average(&mut self.state.grad_avg, &self.grad, tt);
        }
        tt
    }

    /// Folds the new iterate into `w̄` and advances the sample counter.
    #[inline]
    pub fn finish(&mut self) {
        let tt = self.tt();
        running_average(&mut self.state.coef_avg, &self.state.coef, tt);
        self.state.n_seen += 1;
    }

    /// `tt`, the 0-based index of the sample being processed.
    ///
    /// # Complexity
    /// O(1).
    #[inline]
    pub fn tt(&self) -> f64 {
        self.state.n_seen as f64
    }

    pub fn check_sample(&self, x: &[f64], y: f64, index: usize) -> Result<()> {
        check_len("X", x.len(), self.p())?;
        check_finite("X", x)?;
        self.check_label(y, index)
    }

    pub fn check_label(&self, y: f64, index: usize) -> Result<()> {
        let ok = match self.loss {
            Loss::Logistic => y == 1.0 || y == -1.0,
            _ => y.is_finite(),
        };
        if ok {
            Ok(())
        } else {
            Err(OnlineError::InvalidLabel { index, value: y })
        }
    }
}

/// The ±1 class of a target: `+1` for `y > 0`, else `-1` (the identity on ±1 labels).
#[inline]
pub(crate) fn label_of(y: f64) -> f64 {
    if y > 0.0 { 1.0 } else { -1.0 }
}

/// An online learner: predict with the current model, suffer the loss, update, one sample at a
/// time (spec §C.0). Labels are ±1 for the logistic loss and any finite value for the squared loss.
pub trait OnlineLearner {
    /// The learner's state.
    fn state(&self) -> &OnlineState;

    /// Replaces the state (to continue a stored pass); validates lengths and finiteness.
    ///
    /// # Errors
    /// [`OnlineError::Input`] (a length or a non-finite entry) or
    /// [`OnlineError::InvalidParameter`] for a state that does not fit this learner.
    fn set_state(&mut self, state: OnlineState) -> Result<()>;

    /// Back to `w = 0`, nothing seen.
    fn reset(&mut self);

    /// One update on a sample that the caller has validated (length `p`, finite, valid label).
    ///
    /// # Errors
    /// Only from a graph projection that fails (it cannot on validated input).
    fn update(&mut self, x: &[f64], y: f64) -> Result<()>;

    /// Validates then checks one sample; see [`OnlineLearner::update`].
    ///
    /// # Errors
    /// [`OnlineError::Input`] (a length or a non-finite entry) or
    /// [`OnlineError::InvalidLabel`] for a bad sample; the state is then unchanged.
    fn partial_fit(&mut self, x: &[f64], y: f64) -> Result<()>;

    /// Number of features `p`.
    fn n_features(&self) -> usize {
        self.state().n_features()
    }

    /// One online pass over the rows of `x` (row-major, `n × p`) continuing from the current
    /// state; `stop` is polled before every sample and ends the pass with
    /// [`OnlineError::Cancelled`] when it returns true.
    ///
    /// # Errors
    /// Input errors as [`OnlineLearner::partial_fit`], all reported before any update.
    fn partial_fit_rows_until(
        &mut self,
        x: &[f64],
        y: &[f64],
        stop: &dyn Fn() -> bool,
    ) -> Result<()> {
        let p = self.n_features();
        check_len("X", x.len(), y.len() * p)?;
        check_finite("X", x)?;
        for (i, &yi) in y.iter().enumerate() {
            self.check_label(yi, i)?;
        }
        for (row, &yi) in x.chunks_exact(p).zip(y) {
            if stop() {
                return Err(OnlineError::Cancelled);
            }
            self.update(row, yi)?;
        }
        Ok(())
    }

    /// One online pass over the rows of `x` continuing from the current state.
    ///
    /// # Errors
    /// As [`OnlineLearner::partial_fit_rows_until`].
    fn partial_fit_rows(&mut self, x: &[f64], y: &[f64]) -> Result<()> {
        self.partial_fit_rows_until(x, y, &|| false)
    }

    /// Resets, then makes one online pass over the rows of `x`.
    ///
    /// # Errors
    /// As [`OnlineLearner::partial_fit_rows_until`].
    fn fit(&mut self, x: &[f64], y: &[f64]) -> Result<()> {
        self.reset();
        self.partial_fit_rows(x, y)
    }

    /// Checks a label for this learner's loss.
    ///
    /// # Errors
    /// [`OnlineError::InvalidLabel`].
    fn check_label(&self, y: f64, index: usize) -> Result<()>;

    /// The feature weights `w_{1:p}`.
    fn coef(&self) -> &[f64] {
        let s = self.state();
        &s.coef[..s.n_features()]
    }

    /// The intercept `w_b`.
    fn intercept(&self) -> f64 {
        let s = self.state();
        s.coef[s.n_features()]
    }
}

/// Implements the boilerplate [`OnlineLearner`] methods for a learner with a `core` field and an
/// inherent `step(&mut self, x, y) -> Result<()>`.
macro_rules! impl_learner {
    ($ty:ty $(, $gen:ident : $bound:path)?) => {
        impl<$($gen: $bound)?> $crate::learner::OnlineLearner for $ty {
            fn state(&self) -> &$crate::learner::OnlineState {
                &self.core.state
            }
            fn set_state(&mut self, state: $crate::learner::OnlineState) -> $crate::error::Result<()> {
                self.core.set_state(state)
            }
            fn reset(&mut self) {
                self.core.reset();
            }
            fn update(&mut self, x: &[f64], y: f64) -> $crate::error::Result<()> {
                self.step(x, y)
            }
            fn partial_fit(&mut self, x: &[f64], y: f64) -> $crate::error::Result<()> {
                self.core.check_sample(x, y, 0)?;
                self.step(x, y)
            }
            fn check_label(&self, y: f64, index: usize) -> $crate::error::Result<()> {
                self.core.check_label(y, index)
            }
        }
    };
}
pub(crate) use impl_learner;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_average_is_the_mean() {
        let mut avg = vec![0.0];
        for (tt, v) in [3.0, 5.0, 10.0].into_iter().enumerate() {
            running_average(&mut avg, &[v], tt as f64);
        }
        assert!((avg[0] - 6.0).abs() < 1e-15);
    }
}
