//! The fitted rule ensemble: its rules, certificate and statistics, prediction and rule
//! activations, and the warm state a path continues from.

use graphsparse_base::{Loss, Truncation, check_len};

use crate::bits;
use crate::error::Result;
use crate::kernel::CacheStats;
use crate::props::PropositionMatrix;
use crate::solver::State;

/// One rule of a fitted ensemble: a conjunction of propositions with a weight per task.
///
/// # Example
/// ```
/// use graphsparse_base::RunControl;
/// use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit};
/// let rows: Vec<[bool; 2]> = (0..8).map(|i| [i & 1 == 1, i & 2 == 2]).collect();
/// let x = PropositionMatrix::from_dense(8, 2, &rows.concat())?;
/// let y: Vec<f64> = rows.iter().map(|r| if r[0] { 1.0 } else { -1.0 }).collect();
/// let model = fit(&GhklParams::new().c(10.0).check()?, &x, &y, 1, &RunControl::new())?;
/// let top = &model.rules[0];
/// // the strongest rule is proposition 0 alone, firing on 4 examples, with a positive weight
/// assert_eq!((top.props.as_slice(), top.support), (&[0u32][..], 4));
/// assert!(top.weights[0] > 0.0 && top.strength == top.weights[0].abs());
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// `S_w`: the proposition indices of the conjunction, increasing.
    pub props: Vec<u32>,
    /// `f_tw`, one per task: the rule adds `f_tw` to task `t`'s score where it fires.
    pub weights: Vec<f64>,
    /// `Q_w = ‖(f_tw)_t‖₂`.
    pub strength: f64,
    /// Number of training examples where the rule fires.
    pub support: usize,
}

/// A fitted gHKL rule ensemble: `F_t(x) = Σ_rules f_tw φ_w(x) − b_t`.
#[derive(Debug, Clone, PartialEq)]
pub struct GhklFit {
    /// The selected rules, strongest first (ties: by proposition list).
    pub rules: Vec<Rule>,
    /// `b_t`, one per task.
    pub bias: Vec<f64>,
    /// Number of tasks `T`.
    pub tasks: usize,
    /// Number of propositions `p` the model was fitted on.
    pub n_props: usize,
    /// `C` of this fit.
    pub c: f64,
    /// Certified duality gap `P − D ≥ 0` of the whole lattice problem (NaN after a
    /// cancellation).
    pub gap: f64,
    /// Primal objective (5)/(6) of the recovered, unthresholded model.
    pub primal: f64,
    /// The dual lower bound `D` (a lower bound of the optimum).
    pub dual: f64,
    /// `Σ_{t,i} ℓ(y_ti, F_t(x_i))`: the training loss of the recovered model (the primal is
    /// `½Ω² + C · loss_sum`).
    pub loss_sum: f64,
    /// Whether condition (15) certified the result (`gap ≤ ε_tol` up to the inner solves).
    pub converged: bool,
    /// Why the fit stopped early, if it did.
    pub truncation: Option<Truncation>,
    /// Active-set rounds made.
    pub n_rounds: usize,
    /// Mirror-descent iterations made (all rounds).
    pub n_md_iter: usize,
    /// SVM / ridge solves made.
    pub n_inner_solves: usize,
    /// SMO iterations made.
    pub n_svm_iter: usize,
    /// Final active-set size `|W|` (with the root).
    pub active_set_size: usize,
    /// Kernel-cache statistics (cumulative over a path).
    pub cache: CacheStats,
    pub(super) warm: WarmStart,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct WarmStart {
    pub(super) keys: Vec<Box<[u32]>>,
    pub(super) state: State,
}

impl GhklFit {
    /// The dual variables `α` (task-major, `T · m`) of the last restricted problem.
    ///
    /// When identical rows were merged (hinge loss), a merged example's `α` is split evenly
    /// over its rows: a feasible dual point of the original problem with the same value.
    ///
    /// Hinge loss: `0 ≤ α ≤ C` and `y_tᵀ α_t = 0` per task; squared loss: signed, `1ᵀ α_t = 0`.
    /// By weak duality every such `α` gives a lower bound `D(α)` of the optimum (this is how
    /// [`GhklFit::dual`] and the gap are computed), so the values can be checked from outside.
    pub fn dual_coef(&self) -> &[f64] {
        &self.warm.state.alpha
    }

    /// The active set `W` (each node's proposition list; the root is the empty list).
    pub fn active_set(&self) -> impl Iterator<Item = &[u32]> {
        self.warm.keys.iter().map(|k| &k[..])
    }

    /// This fit, certified at a larger `C' ≥ C` without another solve (hinge loss only).
    ///
    /// For the hinge loss the dual bound `D(α)` does not depend on `C` (the box `0 ≤ α ≤ C`
    /// only widens), while the primal of the same model grows by `(C' − C) · loss_sum`. So
    /// the model is a primal-dual pair at `C'` with the exact gap `gap + (C' − C) · loss_sum`;
    /// it is returned when that gap stays within `tol · max(1, primal')`, the tolerance a
    /// fresh fit is held to. Separable data (`loss_sum == 0`) keep the fit for every larger
    /// `C`. The returned fit reports no rounds or iterations of its own.
    pub(super) fn certified_at(&self, loss: Loss, c: f64, tol: f64) -> Option<GhklFit> {
        let usable = loss == Loss::Hinge
            && self.converged
            && self.truncation.is_none()
            && self.gap.is_finite()
            && c >= self.c;
        if !usable {
            return None;
        }
        let extra = (c - self.c) * self.loss_sum;
        let (primal, gap) = (self.primal + extra, self.gap + extra);
        (gap <= tol * primal.max(1.0)).then(|| GhklFit {
            c,
            primal,
            gap,
            n_rounds: 0,
            n_md_iter: 0,
            n_inner_solves: 0,
            n_svm_iter: 0,
            ..self.clone()
        })
    }

    fn check_x(&self, x: &PropositionMatrix) -> Result<()> {
        Ok(check_len("X propositions", x.n_props(), self.n_props)?)
    }

    /// The scores `F_t(x_i)`, sample-major (`m × T`).
    ///
    /// # Errors
    /// [`LatticeError::Input`](crate::LatticeError::Input) when `x` does
    /// not have the fitted number of propositions.
    ///
    /// # Complexity
    /// O(Σ_rules (|S_w| · m/64 + |c_w| T)).
    pub fn decision_function(&self, x: &PropositionMatrix) -> Result<Vec<f64>> {
        self.check_x(x)?;
        let (m, nt) = (x.n_examples(), self.tasks);
        let mut out = vec![0.0; m * nt];
        for row in out.chunks_mut(nt) {
            for (v, b) in row.iter_mut().zip(&self.bias) {
                *v = -b;
            }
        }
        let mut acc = vec![0u64; x.words_m()];
        let mut ones = Vec::new();
        for r in &self.rules {
            acc.iter_mut().for_each(|w| *w = !0);
            x.cover_bits_into(&r.props, &mut acc);
            ones.clear();
            bits::push_ones(&acc, &mut ones);
            for &i in &ones {
                for t in 0..nt {
                    out[i as usize * nt + t] += r.weights[t];
                }
            }
        }
        Ok(out)
    }

    /// Which rules fire on which examples, as CSR (`indptr` of length `m + 1`, column indices
    /// into [`GhklFit::rules`], increasing within a row).
    ///
    /// # Errors
    /// As [`GhklFit::decision_function`].
    ///
    /// # Complexity
    /// O(Σ_rules |S_w| · m/64 + nnz).
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::RunControl;
    /// use graphsparse_lattice::{Check, GhklParams, PropositionMatrix, fit};
    /// let rows: Vec<[bool; 2]> = (0..8).map(|i| [i & 1 == 1, i & 2 == 2]).collect();
    /// let x = PropositionMatrix::from_dense(8, 2, &rows.concat())?;
    /// let y: Vec<f64> = rows.iter().map(|r| if r[0] { 1.0 } else { -1.0 }).collect();
    /// let model = fit(&GhklParams::new().c(10.0).check()?, &x, &y, 1, &RunControl::new())?;
    /// let (indptr, rules) = model.activations(&x)?;
    /// assert_eq!(indptr.len(), 9);
    /// // example 1 satisfies proposition 0, so the rule {0} fires on it
    /// let on_1 = &rules[indptr[1]..indptr[2]];
    /// assert!(on_1.iter().any(|&k| model.rules[k as usize].props == [0]));
    /// # Ok::<(), graphsparse_lattice::LatticeError>(())
    /// ```
    pub fn activations(&self, x: &PropositionMatrix) -> Result<(Vec<usize>, Vec<u32>)> {
        self.check_x(x)?;
        let m = x.n_examples();
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); m];
        let mut acc = vec![0u64; x.words_m()];
        let mut ones = Vec::new();
        for (k, r) in self.rules.iter().enumerate() {
            acc.iter_mut().for_each(|w| *w = !0);
            x.cover_bits_into(&r.props, &mut acc);
            ones.clear();
            bits::push_ones(&acc, &mut ones);
            for &i in &ones {
                rows[i as usize].push(k as u32);
            }
        }
        let mut indptr = Vec::with_capacity(m + 1);
        indptr.push(0);
        let mut indices = Vec::new();
        for r in rows {
            indices.extend_from_slice(&r);
            indptr.push(indices.len());
        }
        Ok((indptr, indices))
    }
}
