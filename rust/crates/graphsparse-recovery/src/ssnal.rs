//! A semismooth Newton augmented Lagrangian method (SSNAL, after Li, Sun & Toh) for the graph
//! model with the squared loss: a second-order solver, chosen explicitly
//! (`Solver::Ssnal`, Python `solver="ssnal"`); measured below, it is slower than the
//! Anderson-accelerated PDHG that [`crate::Solver::Auto`] picks for a small dense `L`, so
//! `Auto` never picks it.
//!
//! # The dual and its augmented Lagrangian
//!
//! Primal over `z = (x, σ)`: `min ½‖L x − y‖² + G(z) + h(W D σ)` with `G = λ Σ_n φ(x_n, σ_n)`
//! and `h = ι_{B_α}` (the budget form) or `λβ‖·‖₁` (the Lagrangian form). With
//! `K = blockdiag(L, W D)` its Fenchel dual, written as a minimisation over `v = (v₁, v₂)`, is
//! `min f*(v₁) + h*(v₂) + G*(−Kᵀ v)` with `f*(v₁) = ½‖v₁‖² + ⟨v₁, y⟩` and `h*` = `α‖·‖_∞`
//! or `ι_{‖·‖_∞ ≤ λβ}`; the dual point `v` has the meaning of PDHG's (`v₁ = L x − y` at the
//! optimum). Splitting `w = −Kᵀ v` and `ξ = v₂` and augmenting both constraints with the
//! penalty `ρ` and the multipliers `z` (the primal iterate) and `η` (the primal `W D σ`), the
//! minimisation over `w` and `ξ` is explicit, and one outer step minimises over `v` the
//! smooth convex function
//! ```text
//! Φ(v) = f*(v₁) + [h*(ξ*) − ⟨η, ξ* − v₂⟩ + ρ/2 ‖ξ* − v₂‖²]
//!        − G(p) − ‖p − z‖²/(2ρ) − ⟨Kᵀ v, p⟩          (+ a constant)
//! p = (a, b) = prox_{ρG}(z − ρ Kᵀ v),   ξ* = prox_{h*/ρ}(v₂ + η/ρ),
//! ∇Φ(v) = (v₁ + y − L a,  π − W D b),   π = η − ρ(ξ* − v₂) = Π_{B_α}(η + ρ v₂) (budget form),
//! ```
//! then sets `z ← p`, `η ← π` and doubles `ρ` (up to `10⁶/‖L‖²`; it stays when the inner
//! problem hit its step limit). The inner objective also carries a proximal term
//! `(τ/2)‖v₂ − v̄₂‖²` around the `v₂` of the outer step's start, `τ = ρ` at first and halved
//! relative to `ρ` every outer step (Rockafellar's proximal method of multipliers, which needs
//! it only while `v₂` moves): the `v₂` part of `Φ` is piecewise linear along the cycles of the
//! graph off the projection's face, where a generalized Hessian is singular, and without the
//! term the Newton steps there were cut to 1 % by the line search. `∇Φ` is semismooth, and
//! `Φ` is minimised by Newton steps on a generalized Hessian with an Armijo line search on `Φ`
//! (the semismooth Newton method of Zhao, Sun & Toh, SIAM J. Optim. 2010, as used in SSNAL
//! by Li, Sun & Toh, SIAM J. Optim. 2018); an outer step follows when
//! `‖∇Φ‖/(1 + ‖y‖)` falls below 0.3 times the relative outer residual, or after 20 steps.
//!
//! # The generalized Jacobian of the perspective prox (derived here)
//!
//! For `b > 0` (spec §2.1 cases 2–3) the prox solves `s³ + p s − 2X = 0` with `X = |x|/c`,
//! `p = 1 + 2σ/c`, and gives `a = x − c s·sign x`, `b = σ + c(s² − 1)/2`. Implicit
//! differentiation (`∂s/∂|x| = 2/(c q)`, `∂s/∂σ = −2s/(c q)`, `q = 3s² + p`) gives the
//! symmetric Jacobian `I − (2/q) u uᵀ` with `u = (1, −s·sign x)`. With `s = |x|/(b + c)` (from
//! `b = |x|/s − c`, no cancellation) and `q = 2s² + 2(b + c)/c`, its entries are
//! ```text
//! ∂a/∂x = (c s² + b)/Δ,   ∂a/∂σ = ∂b/∂x = c s·sign x/Δ,   ∂b/∂σ = (b + c)/Δ,   Δ = c s² + b + c,
//! ```
//! positive semidefinite with eigenvalues 1 and `b/Δ`. Where `b = 0` (case 1, the inside of
//! `c·P` in the geometric form `prox = z − c Π_P(z/c)`) the prox is constant and the Jacobian
//! is 0; on the boundary between the cases the prox is not differentiable and 0 (the limit from
//! case 1) is the element of the B-subdifferential used. The prox is piecewise smooth, hence
//! strongly semismooth. For `x = 0` the formula reduces to `diag(b/(b + c), 1)`, the derivative
//! of `a = x b/(b + c)`. The generalized Jacobian of `Π_{B_α}` at a point outside the ball is
//! `I − s sᵀ/k` on the `k` nonzero entries of the projection (signs `s`) and 0 elsewhere (the
//! identity inside); that of the clip is the 0/1 mask of the clipped entries.
//!
//! # The Newton system and its cost
//!
//! `H = blockdiag(I, ρ Π' + τ I) + ρ K M Kᵀ` with `M` the 2×2 prox Jacobians:
//! `M_n = 0` off the set `A = {n : b_n > 0}`, so `H` applies `L` and `Lᵀ` to the columns of `A`
//! only (`2 J |A|` multiply-adds with the column copy of a dense `L`), and `W D`, `Dᵀ W` once.
//! It is solved by conjugate gradients with a Jacobi preconditioner (the diagonal of `L_A M
//! L_Aᵀ` costs `J |A|` once per Newton step), to a relative residual of
//! `min(0.1, ‖∇Φ‖_rel^{1/2})`. A dense factorisation would cost `J²|A|/2 + J³/3` per Newton
//! step, some 80 products with `L` on §4's instance, where the conjugate gradients need tens
//! of restricted products.
//!
//! # Measured: slower than Anderson, so [`crate::Solver::Auto`] never picks it
//!
//! On `bench_recovery.py`'s generator (`J = 0.7 N`, a signal on `0.3 N` vertices, `α = 0.3 N`,
//! `λ = 0.02 λ_max`), one thread, operator work in units of one full product `J N`
//! (Anderson / SSNAL, Newton steps in brackets) and the best of three wall-clock times on a
//! shared 2-core machine:
//!
//! | N | tol 1e-5 | tol 1e-6 | tol 1e-8 | time at 1e-5 | time at 1e-8 |
//! |---|---|---|---|---|---|
//! | 100 | 246 / 3102 (70) | 267 / 5358 (87) | 329 / 8696 (109) | 3.9 / 10.5 ms | 1.9 / 21.6 ms |
//! | 250 | 255 / 3603 (82) | 296 / 5147 (94) | 357 / 10180 (122) | 7.8 / 80 ms | 5.4 / 150 ms |
//! | 500 | 333 / 9199 (155) | 394 / 10659 (162) | 474 / 14078 (173) | 15 / 332 ms | 19 / 508 ms |
//! | 1000 | 382 / 9019 (139) | 422 / 9496 (141) | 603 / 11777 (150) | 53 / 1391 ms | 150 / 2704 ms |
//!
//! The Newton steps are not the few of a textbook SSNAL run: the `v₂` part of `Φ` is piecewise
//! linear (the projection onto the `ℓ1` ball, a face of hundreds of edges that changes from
//! step to step), so the line search shortens many steps, and each step costs 50–75 products
//! with `L` (conjugate gradients on the columns of `A`, and the line search). The solver is kept for comparison and as a second, independent
//! certified method; [`crate::Solver::Auto`] stays with Anderson and PDHG.
//!
//! # The certificate
//!
//! After every Newton step the pair `(p, v)` (with its exact products `L a`, `W D b`, `Lᵀ v₁`,
//! `Dᵀ W v₂`) goes to the same duality-gap check as every other solver of this crate
//! ([`crate::pdhg`]'s, spec §3.6), and the solve stops when it certifies `tol`; `n_iter`
//! counts Newton steps and each one is checked (`check_every` does not apply). The residuals of
//! the history are `‖p − z‖/ρ` (the violation of `w = −Kᵀv`, the primal residual) and
//! `‖∇Φ(v)‖` (the dual one).

use graphsparse_base::{Parallel, RunControl};
use graphsparse_proj::project_l1_ball_into;

use crate::error::{RecoveryError, Result, invalid};
use crate::graph::GraphDifference;
use crate::loss::Fit;
use crate::norm::{NORM_SAFETY, estimate_op_norm};
use crate::operator::{ColumnMajor, LinearOperator, apply_adjoint_counted};
use crate::par::{Reducer, dot};
use crate::params::{HistoryEntry, OpCounts, Recovery, RecoveryValidParams, WarmStart};
use crate::pdhg::{GapInput, Penalty, RunEnd, check, load, stop_holds};
use crate::prox::{perspective, prox_persp};

/// Initial `ρ` in units of `1/‖L‖²`.
const RHO0: f64 = 10.0;
/// Growth of `ρ` per outer step.
const RHO_GROW: f64 = 2.0;
/// Largest `ρ` in units of `1/‖L‖²`.
const RHO_MAX: f64 = 1e6;
/// Weight of the proximal term on `v₂` in units of `ρ`.
const V2_PROX: f64 = 1.0;
/// Decay of that weight (relative to `ρ`) per outer step.
const V2_DECAY: f64 = 0.5;
/// Most Newton steps per outer step.
const INNER_MAX: usize = 20;
/// The inner problem stops when `‖∇Φ‖_rel ≤ INNER_FRAC·` the outer residual.
const INNER_FRAC: f64 = 0.3;
/// Most conjugate-gradient steps per Newton step.
const CG_MAX: usize = 400;
/// Armijo constant and the most step halvings.
const ARMIJO: f64 = 1e-4;
const MAX_HALVINGS: usize = 40;
/// Relative change at which the Lanczos estimate of `‖L‖` stops (it only scales `ρ`).
const SSNAL_NORM_TOL: f64 = 1e-3;

/// The generalized Jacobian `[∂a/∂x, ∂a/∂σ (= ∂b/∂x), ∂b/∂σ]` of `prox_{cφ}` at `(x, ·)` whose
/// prox has `σ`-part `b` (module docs); 0 where `b = 0`.
#[inline]
pub(crate) fn prox_jacobian(x: f64, b: f64, c: f64) -> [f64; 3] {
    if b <= 0.0 {
        return [0.0; 3];
    }
    let bc = b + c;
    let s = x.abs() / bc;
    let cs = c * s;
    let den = cs * s + bc;
    if !den.is_finite() {
        // |x| ≫ b + c: the limit (1, 0, 0)
        return [1.0, 0.0, 0.0];
    }
    [(cs * s + b) / den, (cs / den).copysign(x), bc / den]
}

/// The generalized Jacobian of the `v₂` term's gradient (divided by `ρ`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BallJac {
    /// Inside the ball: the identity.
    Identity,
    /// Outside: `I − s sᵀ/k` on the `k` entries with `s_e ≠ 0`.
    Face(usize),
    /// The clip of the Lagrangian form: the 0/1 mask in `s`.
    Mask,
}

/// `L` for the restricted products: the column-major copy of a dense `L`, or the operator.
struct Design<'a, Op: LinearOperator + ?Sized> {
    op: &'a Op,
    cols: Option<&'a [f64]>,
    par: Parallel,
    j: usize,
}

impl<Op: LinearOperator + ?Sized> Design<'_, Op> {
    /// `out_n = (Lᵀ v)_n` for `n ∈ active` (the other entries are left as they are, or set
    /// to the full product without the column copy).
    fn adjoint_on(
        &self,
        v: &[f64],
        active: &[usize],
        out: &mut [f64],
        c: &mut OpCounts,
    ) -> Result<()> {
        match self.cols {
            Some(cols) => {
                let j = self.j;
                for &n in active {
                    out[n] = dot(&cols[n * j..(n + 1) * j], v);
                }
                c.adjoint += 1;
                c.work += (j * active.len()) as u64;
                Ok(())
            }
            None => apply_adjoint_counted(self.op, self.par, v, out, c),
        }
    }

    /// `out = L t` where `t` is zero off `active`.
    fn forward_on(
        &self,
        t: &[f64],
        active: &[usize],
        out: &mut [f64],
        c: &mut OpCounts,
    ) -> Result<()> {
        match self.cols {
            Some(cols) => {
                let j = self.j;
                out.fill(0.0);
                for &n in active {
                    let tn = t[n];
                    if tn != 0.0 {
                        for (o, &a) in out.iter_mut().zip(&cols[n * j..(n + 1) * j]) {
                            *o += tn * a;
                        }
                    }
                }
                c.forward += 1;
                c.work += (j * active.len()) as u64;
                Ok(())
            }
            None => crate::operator::apply_counted(self.op, self.par, t, out, c),
        }
    }

    /// `out_r += w Σ_{n ∈ active} d_n L_{rn}²` (only with the column copy; `false` without).
    fn add_weighted_row_squares(
        &self,
        d: &[f64],
        active: &[usize],
        w: f64,
        out: &mut [f64],
    ) -> bool {
        let Some(cols) = self.cols else {
            return false;
        };
        let j = self.j;
        for &n in active {
            let dn = w * d[n];
            if dn != 0.0 {
                for (o, &a) in out.iter_mut().zip(&cols[n * j..(n + 1) * j]) {
                    *o += dn * a * a;
                }
            }
        }
        true
    }
}

/// Solves the graph model by SSNAL (module docs); the squared loss only.
///
/// # Errors
/// [`RecoveryError::InvalidParameter`] (`loss`) for a loss other than the squared one; as
/// [`crate::RecoveryValidParams::solve`] otherwise.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_ssnal<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    fit: Fit,
    op: &Op,
    y: &[f64],
    graph: &GraphDifference<'_>,
    alpha: f64,
    lagrangian: bool,
    warm: Option<&WarmStart>,
    ctl: &RunControl,
) -> Result<Recovery> {
    if fit != Fit::Squared {
        return Err(invalid(
            "loss",
            "squared with solver ssnal (its Newton system needs the twice-differentiable conjugate of the squared loss; use anderson or pdhg)",
            params.loss(),
        ));
    }
    match ColumnMajor::new(op) {
        Some(cm) => {
            let design = Design {
                op: &cm,
                cols: Some(cm.columns()),
                par: params.parallel(),
                j: op.n_rows(),
            };
            run(params, &design, y, graph, alpha, lagrangian, warm, ctl)
        }
        None => {
            let design = Design {
                op,
                cols: None,
                par: params.parallel(),
                j: op.n_rows(),
            };
            run(params, &design, y, graph, alpha, lagrangian, warm, ctl)
        }
    }
}

/// The state at one dual point `v`: its exact products, the prox `p = (a, b)`, the `v₂` term.
struct Point {
    v1: Vec<f64>,
    v2: Vec<f64>,
    /// `Lᵀ v₁`, `Dᵀ W v₂`.
    ltv: Vec<f64>,
    dtv: Vec<f64>,
    a: Vec<f64>,
    b: Vec<f64>,
    /// `π = η − ρ(ξ* − v₂)`, and `ξ* − v₂`.
    pi: Vec<f64>,
    e: Vec<f64>,
    /// `Φ(v)` (without its constant).
    phi: f64,
}

impl Point {
    fn zeros(j: usize, n: usize, m: usize) -> Self {
        Self {
            v1: vec![0.0; j],
            v2: vec![0.0; m],
            ltv: vec![0.0; n],
            dtv: vec![0.0; n],
            a: vec![0.0; n],
            b: vec![0.0; n],
            pi: vec![0.0; m],
            e: vec![0.0; m],
            phi: 0.0,
        }
    }
}

/// The fixed data of one solve.
struct Problem<'a, Op: LinearOperator + ?Sized> {
    design: &'a Design<'a, Op>,
    y: &'a [f64],
    graph: &'a GraphDifference<'a>,
    alpha: f64,
    lagrangian: bool,
    lam: f64,
    par: Parallel,
    m: usize,
}

/// The outer state: the multipliers and `ρ`.
struct Outer {
    zx: Vec<f64>,
    zs: Vec<f64>,
    eta: Vec<f64>,
    rho: f64,
    /// The proximal centre `v̄₂` and weight `ρ·V2_PROX` of the `v₂` block.
    vbar2: Vec<f64>,
    prox2: f64,
}

impl<Op: LinearOperator + ?Sized> Problem<'_, Op> {
    /// `Lᵀ v₁` and `Dᵀ W v₂` of `pt`.
    fn products(&self, pt: &mut Point, counts: &mut OpCounts) -> Result<()> {
        apply_adjoint_counted(self.design.op, self.par, &pt.v1, &mut pt.ltv, counts)?;
        if self.m > 0 {
            self.graph.diff_adjoint(&pt.v2, &mut pt.dtv, self.par);
            counts.diff_adjoint += 1;
            counts.work += self.graph.diff_cost();
        } else {
            pt.dtv.fill(0.0);
        }
        Ok(())
    }

    /// The prox, the `v₂` term and `Φ` at `pt` (whose products are current).
    fn evaluate(
        &self,
        o: &Outer,
        pt: &mut Point,
        ball: &mut [f64],
        counts: &mut OpCounts,
        it: usize,
    ) -> Result<()> {
        let (rho, lam) = (o.rho, self.lam);
        let c = rho * lam;
        if !(c.is_finite() && c > 0.0) {
            return Err(RecoveryError::Diverged { iteration: it });
        }
        let mut phi_w = 0.0;
        for n in 0..pt.a.len() {
            let (a, b) = prox_persp(o.zx[n] - rho * pt.ltv[n], o.zs[n] - rho * pt.dtv[n], c);
            pt.a[n] = a;
            pt.b[n] = b;
            let (da, db) = (a - o.zx[n], b - o.zs[n]);
            phi_w -= lam * perspective(a, b)
                + (da * da + db * db) / (2.0 * rho)
                + (pt.ltv[n] * a + pt.dtv[n] * b);
        }
        counts.prox += pt.a.len() as u64;
        let phi_1: f64 = pt
            .v1
            .iter()
            .zip(self.y)
            .map(|(&v, &y)| v * (0.5 * v + y))
            .sum();
        let mut phi_2 = 0.0;
        if self.m > 0 {
            if self.lagrangian {
                let cap = self.lam * self.alpha;
                for q in 0..self.m {
                    let u = pt.v2[q] + o.eta[q] / rho;
                    let e = u.clamp(-cap, cap) - pt.v2[q];
                    pt.e[q] = e;
                    pt.pi[q] = o.eta[q] - rho * e;
                }
            } else {
                for ((b, &e), &v) in ball.iter_mut().zip(&o.eta).zip(&pt.v2) {
                    *b = e + rho * v;
                }
                project_l1_ball_into(ball, self.alpha, &mut pt.pi)
                    .map_err(|_| RecoveryError::Diverged { iteration: it })?;
                counts.ball_projections += 1;
                let mut xmax = 0.0f64;
                for q in 0..self.m {
                    let e = (o.eta[q] - pt.pi[q]) / rho;
                    pt.e[q] = e;
                    xmax = xmax.max((pt.v2[q] + e).abs());
                }
                phi_2 += self.alpha * xmax;
            }
            for q in 0..self.m {
                let e = pt.e[q];
                let dv = pt.v2[q] - o.vbar2[q];
                phi_2 += e * (0.5 * rho * e - o.eta[q]) + 0.5 * o.prox2 * dv * dv;
            }
        }
        pt.phi = phi_1 + phi_2 + phi_w;
        if pt.phi.is_nan() {
            return Err(RecoveryError::Diverged { iteration: it });
        }
        Ok(())
    }
}

/// Workspace of the Newton steps (allocated once).
struct Work {
    /// `L a`, `W D b` of the current point.
    la: Vec<f64>,
    db: Vec<f64>,
    /// The gradient `[g₁ | g₂]` and the Newton direction, CG vectors (length `J + m`).
    g: Vec<f64>,
    d: Vec<f64>,
    r: Vec<f64>,
    p: Vec<f64>,
    q: Vec<f64>,
    w: Vec<f64>,
    diag: Vec<f64>,
    /// The prox Jacobians `[m11, m12, m22]` per vertex, and the set `A = {b > 0}`.
    jac: Vec<[f64; 3]>,
    active: Vec<usize>,
    /// Scratch of length `N` for `H p`.
    ex: Vec<f64>,
    es: Vec<f64>,
    tx: Vec<f64>,
    ts: Vec<f64>,
    /// Signs (or mask) of the `v₂` term's Jacobian and its kind.
    sgn: Vec<f64>,
    ball_jac: BallJac,
    ball: Vec<f64>,
    cg_its: usize,
    /// The dual point handed to the certificate: `v₂` (clipped to `[−λβ, λβ]` in the
    /// Lagrangian form, where the dual needs it) and its `Dᵀ W v₂`.
    v2c: Vec<f64>,
    dtvc: Vec<f64>,
}

impl Work {
    /// Workspaces for `j` measurements, `n` variables and `m` graph edges.
    fn new(j: usize, n: usize, m: usize) -> Self {
        let dim = j + m;
        Self {
            la: vec![0.0; j],
            db: vec![0.0; m],
            g: vec![0.0; dim],
            d: vec![0.0; dim],
            r: vec![0.0; dim],
            p: vec![0.0; dim],
            q: vec![0.0; dim],
            w: vec![0.0; dim],
            diag: vec![0.0; dim],
            jac: vec![[0.0; 3]; n],
            active: Vec::with_capacity(n),
            ex: vec![0.0; n],
            es: vec![0.0; n],
            tx: vec![0.0; n],
            ts: vec![0.0; n],
            sgn: vec![0.0; m],
            ball_jac: BallJac::Identity,
            ball: vec![0.0; m],
            cg_its: 0,
            v2c: vec![0.0; m],
            dtvc: vec![0.0; n],
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run<Op: LinearOperator + ?Sized>(
    params: &RecoveryValidParams,
    design: &Design<'_, Op>,
    y: &[f64],
    graph: &GraphDifference<'_>,
    alpha: f64,
    lagrangian: bool,
    warm: Option<&WarmStart>,
    ctl: &RunControl,
) -> Result<Recovery> {
    let op = design.op;
    let par = params.parallel();
    let (j, n, m) = (op.n_rows(), op.n_cols(), graph.graph().n_edges());
    let lam = params.lam();
    let mut counts = OpCounts::default();
    let knorm = match params.op_norm() {
        Some(v) => v,
        None => {
            let e = estimate_op_norm(op, params.norm_iter(), SSNAL_NORM_TOL, par)?;
            counts.forward += e.n_iter as u64;
            counts.adjoint += e.n_iter as u64;
            counts.work += 2 * e.n_iter as u64 * op.cost();
            e.value * NORM_SAFETY
        }
    };
    let knorm = if knorm > 0.0 { knorm } else { 1.0 };
    let dnorm = if m > 0 {
        params
            .diff_norm()
            .unwrap_or_else(|| graph.diff_norm_bound())
    } else {
        0.0
    };
    let unit = 1.0 / (knorm * knorm);
    let prob = Problem {
        design,
        y,
        graph,
        alpha,
        lagrangian,
        lam,
        par,
        m,
    };
    let mut outer = Outer {
        zx: vec![0.0; n],
        zs: vec![0.0; n],
        eta: vec![0.0; m],
        rho: RHO0 * unit,
        vbar2: vec![0.0; m],
        prox2: V2_PROX * RHO0 * unit,
    };
    let mut cur = Point::zeros(j, n, m);
    if let Some(ws) = warm {
        load("warm_start.x", &ws.x, &mut outer.zx)?;
        load("warm_start.sigma", &ws.sigma, &mut outer.zs)?;
        load("warm_start.dual_data", &ws.dual_data, &mut cur.v1)?;
        load("warm_start.dual_graph", &ws.dual_graph, &mut cur.v2)?;
        outer.vbar2.copy_from_slice(&cur.v2);
        outer.zs.iter_mut().for_each(|v| *v = v.max(0.0));
        if m > 0 {
            // η: the graph differences of the warm σ, inside the ball
            let mut ds = vec![0.0; m];
            graph.diff(&outer.zs, &mut ds, par);
            counts.diff += 1;
            if lagrangian {
                outer.eta.copy_from_slice(&ds);
            } else {
                project_l1_ball_into(&ds, alpha, &mut outer.eta)
                    .map_err(|_| RecoveryError::Diverged { iteration: 0 })?;
            }
        }
    }
    let mut trial = Point::zeros(j, n, m);
    let mut wk = Work::new(j, n, m);
    let (mut red, mut comp_sum) = (Reducer::default(), Vec::new());
    let ynorm = dot(y, y).sqrt();
    let meter = params.budget().start(ctl);
    let (max_iter, tol, stop) = (params.max_iter(), params.tol(), params.stop());
    let mut history = Vec::new();
    let mut last: Option<HistoryEntry> = None;
    let mut converged = false;

    prob.products(&mut cur, &mut counts)?;
    prob.evaluate(&outer, &mut cur, &mut wk.ball, &mut counts, 0)?;
    let mut gnorm = gradient(&prob, &outer, &cur, &mut wk, &mut counts)?;
    let mut it = 0;
    let mut inner = 0;
    while it < max_iter {
        // the outer residual at the current point, and whether the inner problem is done
        let (pres, eres) = outer_residuals(&outer, &cur);
        let scale_kt = 1.0 + (dot(&cur.ltv, &cur.ltv) + dot(&cur.dtv, &cur.dtv)).sqrt();
        let r_rel = (pres / outer.rho / scale_kt).max(eres / (1.0 + dot(&cur.v2, &cur.v2).sqrt()));
        let g_rel = gnorm / (1.0 + ynorm);
        if inner > 0 && (g_rel <= INNER_FRAC * r_rel || inner >= INNER_MAX) {
            // outer step: z ← p, η ← π, ρ grows; Φ, its gradient and Jacobians at the new centre
            outer.zx.copy_from_slice(&cur.a);
            outer.zs.copy_from_slice(&cur.b);
            outer.eta.copy_from_slice(&cur.pi);
            let rho_old = outer.rho;
            // ρ grows only after an inner problem solved to its tolerance
            let grow = if inner < INNER_MAX { RHO_GROW } else { 1.0 };
            outer.rho = (outer.rho * grow).min(RHO_MAX * unit);
            // the proximal weight on v₂ decays relative to ρ (the proximal method of multipliers
            // needs it only while v₂ travels; it keeps the Newton systems definite meanwhile)
            outer.prox2 = (outer.prox2 * (outer.rho / rho_old) * V2_DECAY).max(f64::MIN_POSITIVE);
            outer.vbar2.copy_from_slice(&cur.v2);
            prob.evaluate(&outer, &mut cur, &mut wk.ball, &mut counts, it)?;
            gnorm = gradient(&prob, &outer, &cur, &mut wk, &mut counts)?;
            inner = 0;
            continue;
        }
        if !meter.claim_node() {
            break;
        }
        it += 1;
        inner += 1;
        ctl.progress().add_iteration();
        newton_direction(&prob, &outer, &cur, &mut wk, &mut counts, g_rel)?;
        // Armijo backtracking on Φ along d
        let gd = dot(&wk.g, &wk.d);
        if gd.is_nan() || gd >= 0.0 {
            // not a descent direction (numerically): the negative gradient
            for (d, &g) in wk.d.iter_mut().zip(&wk.g) {
                *d = -g;
            }
        }
        let gd = dot(&wk.g, &wk.d).min(0.0);
        let mut t = 1.0;
        let mut accepted = false;
        for _ in 0..MAX_HALVINGS {
            for (k, v) in trial.v1.iter_mut().enumerate() {
                *v = cur.v1[k] + t * wk.d[k];
            }
            for (k, v) in trial.v2.iter_mut().enumerate() {
                *v = cur.v2[k] + t * wk.d[j + k];
            }
            prob.products(&mut trial, &mut counts)?;
            prob.evaluate(&outer, &mut trial, &mut wk.ball, &mut counts, it)?;
            let slack = 1e-14 * cur.phi.abs().max(1.0);
            if trial.phi <= cur.phi + ARMIJO * t * gd + slack {
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        if accepted {
            std::mem::swap(&mut cur, &mut trial);
        }
        gnorm = gradient(&prob, &outer, &cur, &mut wk, &mut counts)?;
        let (pres, _) = outer_residuals(&outer, &cur);
        let entry = certify(
            &prob,
            &cur,
            &mut wk,
            &mut red,
            &mut comp_sum,
            it,
            pres / outer.rho,
            gnorm,
        )?;
        ctl.progress().set_value(entry.gap);
        converged = stop_holds(stop, tol, &entry, [&cur.ltv, &wk.dtvc], [&wk.la, &wk.db]);
        if params.record_history() {
            history.push(entry);
        }
        last = Some(entry);
        if converged {
            break;
        }
        if !accepted {
            // no decrease within the halvings: force an outer step (a new centre and ρ)
            inner = INNER_MAX;
        }
    }
    let last = match last {
        Some(e) => e,
        None => {
            // no Newton step (a budget stop or max_iter = 0): the start point's check, which
            // does not count as converged
            let (pres, _) = outer_residuals(&outer, &cur);
            certify(
                &prob,
                &cur,
                &mut wk,
                &mut red,
                &mut comp_sum,
                it,
                pres / outer.rho,
                gnorm,
            )?
        }
    };
    let end = RunEnd {
        it,
        converged,
        last,
        history,
        truncation: meter.truncation(),
    };
    let Point { v1, v2, a, b, .. } = cur;
    Ok(end.into_recovery(
        a.clone(),
        Vec::new(),
        counts,
        (knorm, dnorm),
        WarmStart {
            x: a,
            sigma: b,
            dual_data: v1,
            dual_graph: v2,
            aux_data: Vec::new(),
            aux_graph: Vec::new(),
            tau: 0.0,
            adapt: 0.0,
        },
    ))
}

/// The shared certificate ([`crate::pdhg`]'s check) at the primal point `p = (a, b)` of `pt`
/// and its dual point; in the Lagrangian form `v₂` is first clipped to `[−λβ, λβ]` (the domain
/// of `h*`, which PDHG's iterates never leave but this method's may).
#[allow(clippy::too_many_arguments)]
fn certify<Op: LinearOperator + ?Sized>(
    prob: &Problem<'_, Op>,
    pt: &Point,
    wk: &mut Work,
    red: &mut Reducer,
    comp_sum: &mut Vec<f64>,
    it: usize,
    pres: f64,
    dres: f64,
) -> Result<HistoryEntry> {
    if prob.lagrangian && prob.m > 0 {
        let cap = prob.lam * prob.alpha;
        for (c, &v) in wk.v2c.iter_mut().zip(&pt.v2) {
            *c = v.clamp(-cap, cap);
        }
        prob.graph.diff_adjoint(&wk.v2c, &mut wk.dtvc, prob.par);
    } else {
        wk.v2c.copy_from_slice(&pt.v2);
        wk.dtvc.copy_from_slice(&pt.dtv);
    }
    check(
        &GapInput {
            fit: Fit::Squared,
            y: prob.y,
            lam: prob.lam,
            pen: Penalty::Graph {
                graph: prob.graph,
                alpha: prob.alpha,
                lagrangian: prob.lagrangian,
            },
            z: &pt.a,
            s: &pt.b,
            kz: &wk.la,
            ds: &wk.db,
            v1: &pt.v1,
            v2: &wk.v2c,
            ktv: &pt.ltv,
            dtv: &wk.dtvc,
            par: prob.par,
        },
        red,
        comp_sum,
        it,
        pres,
        dres,
    )
}

/// `(‖p − z‖, ‖ξ* − v₂‖)` at `pt`.
fn outer_residuals(o: &Outer, pt: &Point) -> (f64, f64) {
    let mut s = 0.0;
    for n in 0..pt.a.len() {
        let (da, db) = (pt.a[n] - o.zx[n], pt.b[n] - o.zs[n]);
        s += da * da + db * db;
    }
    (s.sqrt(), dot(&pt.e, &pt.e).sqrt())
}

/// `L a`, `W D b`, the gradient `∇Φ` into `wk.g`, the prox Jacobians, the set `A` and the
/// `v₂` term's Jacobian at `pt`; returns `‖∇Φ‖`.
fn gradient<Op: LinearOperator + ?Sized>(
    prob: &Problem<'_, Op>,
    o: &Outer,
    pt: &Point,
    wk: &mut Work,
    counts: &mut OpCounts,
) -> Result<f64> {
    let (j, m) = (pt.v1.len(), prob.m);
    let c = o.rho * prob.lam;
    wk.active.clear();
    for n in 0..pt.a.len() {
        let x_in = o.zx[n] - o.rho * pt.ltv[n];
        wk.jac[n] = prox_jacobian(x_in, pt.b[n], c);
        if pt.b[n] > 0.0 {
            wk.active.push(n);
        }
    }
    prob.design
        .forward_on(&pt.a, &wk.active, &mut wk.la, counts)?;
    if m > 0 {
        prob.graph.diff(&pt.b, &mut wk.db, prob.par);
        counts.diff += 1;
        counts.work += prob.graph.diff_cost();
    }
    let (g1, g2) = wk.g.split_at_mut(j);
    for (r, g) in g1.iter_mut().enumerate() {
        *g = pt.v1[r] + prob.y[r] - wk.la[r];
    }
    for (q, g) in g2.iter_mut().enumerate() {
        *g = pt.pi[q] - wk.db[q] + o.prox2 * (pt.v2[q] - o.vbar2[q]);
    }
    // the Jacobian of the v₂ term
    if m > 0 {
        if prob.lagrangian {
            let cap = prob.lam * prob.alpha;
            for q in 0..m {
                let u = pt.v2[q] + o.eta[q] / o.rho;
                wk.sgn[q] = if u.abs() > cap { 1.0 } else { 0.0 };
            }
            wk.ball_jac = BallJac::Mask;
        } else {
            let l1: f64 = (0..m).map(|q| (o.eta[q] + o.rho * pt.v2[q]).abs()).sum();
            if l1 <= prob.alpha {
                wk.ball_jac = BallJac::Identity;
            } else {
                let mut k = 0;
                for q in 0..m {
                    let s = pt.pi[q];
                    wk.sgn[q] = if s > 0.0 {
                        1.0
                    } else if s < 0.0 {
                        -1.0
                    } else {
                        0.0
                    };
                    k += usize::from(s != 0.0);
                }
                wk.ball_jac = BallJac::Face(k);
            }
        }
    }
    let gn = dot(&wk.g, &wk.g).sqrt();
    if gn.is_nan() {
        return Err(RecoveryError::Diverged { iteration: 0 });
    }
    Ok(gn)
}

/// The Newton direction `H d = −∇Φ` by preconditioned conjugate gradients into `wk.d`.
fn newton_direction<Op: LinearOperator + ?Sized>(
    prob: &Problem<'_, Op>,
    o: &Outer,
    pt: &Point,
    wk: &mut Work,
    counts: &mut OpCounts,
    g_rel: f64,
) -> Result<()> {
    let (j, m) = (pt.v1.len(), prob.m);
    let rho = o.rho;
    let mu = o.prox2;
    // Jacobi preconditioner
    {
        let (d1, d2) = wk.diag.split_at_mut(j);
        d1.fill(0.0);
        // ρ Σ_{n∈A} m11_n L_rn²
        for &n in &wk.active {
            wk.ex[n] = wk.jac[n][0];
        }
        if !prob
            .design
            .add_weighted_row_squares(&wk.ex, &wk.active, rho, d1)
        {
            d1.fill(0.0);
        }
        d1.iter_mut().for_each(|v| *v += 1.0);
        if m > 0 {
            let graph = prob.graph.graph();
            for (q, (&[h, t], &w)) in graph.edges().iter().zip(graph.weights()).enumerate() {
                let ball = match wk.ball_jac {
                    BallJac::Identity => 1.0,
                    BallJac::Face(k) => wk.sgn[q].abs() * (1.0 - 1.0 / k.max(1) as f64),
                    BallJac::Mask => wk.sgn[q],
                };
                d2[q] = rho * (ball + w * w * (wk.jac[h as usize][2] + wk.jac[t as usize][2])) + mu;
            }
        }
    }
    // r = −g, d = 0
    for k in 0..j + m {
        wk.r[k] = -wk.g[k];
        wk.d[k] = 0.0;
    }
    let gnorm = dot(&wk.g, &wk.g).sqrt();
    let target = gnorm * g_rel.sqrt().min(0.1);
    for k in 0..j + m {
        wk.w[k] = wk.r[k] / wk.diag[k];
    }
    wk.p.copy_from_slice(&wk.w);
    let mut rz = dot(&wk.r, &wk.w);
    wk.cg_its = 0;
    for _ in 0..CG_MAX.min(j + m) {
        wk.cg_its += 1;
        hess_times(prob, o, wk, counts)?;
        let pq = dot(&wk.p, &wk.q);
        if pq.is_nan() || pq <= 0.0 {
            break;
        }
        let step = rz / pq;
        for k in 0..j + m {
            wk.d[k] += step * wk.p[k];
            wk.r[k] -= step * wk.q[k];
        }
        if dot(&wk.r, &wk.r).sqrt() <= target {
            break;
        }
        for k in 0..j + m {
            wk.w[k] = wk.r[k] / wk.diag[k];
        }
        let rz_new = dot(&wk.r, &wk.w);
        let beta = rz_new / rz;
        rz = rz_new;
        for k in 0..j + m {
            wk.p[k] = wk.w[k] + beta * wk.p[k];
        }
    }
    Ok(())
}

/// `wk.q = H wk.p` (module docs).
fn hess_times<Op: LinearOperator + ?Sized>(
    prob: &Problem<'_, Op>,
    o: &Outer,
    wk: &mut Work,
    counts: &mut OpCounts,
) -> Result<()> {
    let mu = o.prox2;
    let j = prob.y.len();
    let m = prob.m;
    let rho = o.rho;
    let (p1, p2) = wk.p.split_at(j);
    let (q1, q2) = wk.q.split_at_mut(j);
    prob.design.adjoint_on(p1, &wk.active, &mut wk.ex, counts)?;
    if m > 0 {
        prob.graph.diff_adjoint(p2, &mut wk.es, prob.par);
        counts.diff_adjoint += 1;
        counts.work += prob.graph.diff_cost();
    }
    wk.tx.fill(0.0);
    wk.ts.fill(0.0);
    for &n in &wk.active {
        let [m11, m12, m22] = wk.jac[n];
        let es = if m > 0 { wk.es[n] } else { 0.0 };
        wk.tx[n] = rho * (m11 * wk.ex[n] + m12 * es);
        wk.ts[n] = rho * (m12 * wk.ex[n] + m22 * es);
    }
    prob.design.forward_on(&wk.tx, &wk.active, q1, counts)?;
    for (q, &p) in q1.iter_mut().zip(p1) {
        *q += p;
    }
    if m > 0 {
        prob.graph.diff(&wk.ts, q2, prob.par);
        counts.diff += 1;
        counts.work += prob.graph.diff_cost();
        match wk.ball_jac {
            BallJac::Identity => {
                for (q, &p) in q2.iter_mut().zip(p2) {
                    *q += (rho + mu) * p;
                }
            }
            BallJac::Face(k) => {
                let sp: f64 = wk.sgn.iter().zip(p2).map(|(s, p)| s * p).sum();
                let mean = if k > 0 { sp / k as f64 } else { 0.0 };
                for ((q, &p), &s) in q2.iter_mut().zip(p2).zip(&wk.sgn) {
                    *q += rho * s.abs() * (p - s * mean) + mu * p;
                }
            }
            BallJac::Mask => {
                for ((q, &p), &s) in q2.iter_mut().zip(p2).zip(&wk.sgn) {
                    *q += (rho * s + mu) * p;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Central differences of the prox against [`prox_jacobian`] in every case of the prox.
    #[test]
    fn the_prox_jacobian_matches_finite_differences() {
        let cases = [
            (1.3, 0.4, 0.7),   // case 3
            (-2.0, -0.3, 0.5), // case 3, x < 0, σ < 0
            (0.0, 1.5, 1.0),   // case 2
            (0.05, 5.0, 0.2),  // σ large, small x
            (4.0, -3.0, 0.3),  // σ ≪ −c
            (0.1, 0.1, 1.0),   // case 1
        ];
        for (x, s, c) in cases {
            let (_, b) = prox_persp(x, s, c);
            let jac = prox_jacobian(x, b, c);
            let h = 1e-6;
            let dx = |f: fn((f64, f64)) -> f64| {
                (f(prox_persp(x + h, s, c)) - f(prox_persp(x - h, s, c))) / (2.0 * h)
            };
            let ds = |f: fn((f64, f64)) -> f64| {
                (f(prox_persp(x, s + h, c)) - f(prox_persp(x, s - h, c))) / (2.0 * h)
            };
            let fa: fn((f64, f64)) -> f64 = |p| p.0;
            let fb: fn((f64, f64)) -> f64 = |p| p.1;
            let want = [dx(fa), ds(fa), dx(fb), ds(fb)];
            let got = [jac[0], jac[1], jac[1], jac[2]];
            for (w, g) in want.iter().zip(got) {
                assert!((w - g).abs() < 1e-6, "{x} {s} {c}: {want:?} vs {jac:?}");
            }
        }
    }

    /// `Φ`, its gradient and the generalized Hessian agree with finite differences at a
    /// random point of a small problem (both forms of the graph term).
    #[test]
    fn the_gradient_and_the_hessian_match_finite_differences() {
        use crate::{DenseMatrix, WeightedGraph};
        let (j, n) = (5, 6);
        let a: Vec<f64> = (0..j * n)
            .map(|k| ((k * 7919 % 23) as f64 - 11.0) / 7.0)
            .collect();
        let l = DenseMatrix::new(&a, j, n).unwrap();
        let g =
            WeightedGraph::new(n, &[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [0, 5]], None).unwrap();
        let diff = GraphDifference::new(&g);
        let cm = ColumnMajor::new(&l).unwrap();
        let design = Design {
            op: &cm,
            cols: Some(cm.columns()),
            par: Parallel::Serial,
            j,
        };
        let y: Vec<f64> = (0..j).map(|k| (k as f64 - 2.0) * 0.7).collect();
        for lagrangian in [false, true] {
            let m = 6;
            let prob = Problem {
                design: &design,
                y: &y,
                graph: &diff,
                alpha: 0.3,
                lagrangian,
                lam: 0.4,
                par: Parallel::Serial,
                m,
            };
            let outer = Outer {
                zx: vec![0.9, -0.4, 0.0, 1.3, 0.2, -0.8],
                zs: vec![0.7, 0.5, 0.1, 1.1, 0.3, 0.6],
                eta: vec![0.05, -0.1, 0.02, 0.0, 0.07, -0.03],
                rho: 0.8,
                vbar2: vec![0.02, 0.1, -0.2, 0.0, 0.1, 0.3],
                prox2: 0.3,
            };
            let mut counts = OpCounts::default();
            let mut ball = vec![0.0; m];
            let mut pt = Point::zeros(j, n, m);
            pt.v1 = vec![0.3, -0.2, 0.1, 0.4, -0.5];
            pt.v2 = vec![0.1, 0.2, -0.3, 0.05, -0.1, 0.15];
            let mut wk = Work::new(j, n, m);
            prob.products(&mut pt, &mut counts).unwrap();
            prob.evaluate(&outer, &mut pt, &mut ball, &mut counts, 0)
                .unwrap();
            gradient(&prob, &outer, &pt, &mut wk, &mut counts).unwrap();
            let g0 = wk.g.clone();
            let h = 1e-6;
            let at = |k: usize, t: f64, wk: &mut Work| {
                let mut q = Point::zeros(j, n, m);
                q.v1.copy_from_slice(&pt.v1);
                q.v2.copy_from_slice(&pt.v2);
                if k < j {
                    q.v1[k] += t;
                } else {
                    q.v2[k - j] += t;
                }
                let mut c = OpCounts::default();
                let mut ball = vec![0.0; m];
                prob.products(&mut q, &mut c).unwrap();
                prob.evaluate(&outer, &mut q, &mut ball, &mut c, 0).unwrap();
                gradient(&prob, &outer, &q, wk, &mut c).unwrap();
                (q.phi, wk.g.clone())
            };
            let mut scratch = Work::new(j, n, m);
            for (k, &g0k) in g0.iter().enumerate() {
                let (fp, gp) = at(k, h, &mut scratch);
                let (fm, gm) = at(k, -h, &mut scratch);
                let fd = (fp - fm) / (2.0 * h);
                assert!(
                    (fd - g0k).abs() < 1e-6,
                    "{lagrangian} grad {k}: {fd} vs {}",
                    g0k
                );
                // column k of H against the gradient's differences
                wk.p.fill(0.0);
                wk.p[k] = 1.0;
                hess_times(&prob, &outer, &mut wk, &mut counts).unwrap();
                for i in 0..j + m {
                    let fd = (gp[i] - gm[i]) / (2.0 * h);
                    assert!(
                        (fd - wk.q[i]).abs() < 1e-5,
                        "{lagrangian} H[{i}][{k}]: {fd} vs {}",
                        wk.q[i]
                    );
                }
            }
        }
    }

    #[test]
    fn the_prox_jacobian_is_psd_with_eigenvalues_in_the_unit_interval() {
        for k in 0..2000 {
            let x = ((k * 7919 % 2003) as f64 - 1000.0) / 97.0;
            let s = ((k * 104_729 % 1999) as f64 - 999.0) / 211.0;
            let c = 0.01 + (k % 37) as f64 / 9.0;
            let (_, b) = prox_persp(x, s, c);
            let [a11, a12, a22] = prox_jacobian(x, b, c);
            let (tr, det) = (a11 + a22, a11 * a22 - a12 * a12);
            assert!(
                det >= -1e-12 && (0.0..=2.0 + 1e-12).contains(&tr),
                "{x} {s} {c}"
            );
            // eigenvalues ≤ 1: (1 − a11)(1 − a22) ≥ a12²
            assert!((1.0 - a11) * (1.0 - a22) - a12 * a12 >= -1e-12);
        }
    }
}
