//! Projection onto the Lipschitz set `T_{F,c} = {t : |t(u) − t(v)| ≤ c(e)}` (spec §4.2).
//!
//! `Proj_T(y) = argmin_t ½‖t − y‖²` subject to `|(F t)(e)| ≤ c_e` on undirected edges and
//! `(F t)(e) ≤ c_e` on directed ones. Its Fenchel dual is the weighted Lasso (the dual of
//! graph total-variation denoising)
//! `min_μ h(μ) = ½‖Fᵀμ − y‖² + Σ_e c_e |μ_e|` (`μ_e ≥ 0` on directed edges), with
//! `t(μ) = y − Fᵀμ`. Two solvers:
//!
//! * [`LipschitzSolver::Hildreth`] (default): exact dual coordinate descent. `‖F_e‖² = 2`, so
//!   the exact minimiser along `μ_e` is a soft-threshold; geometrically an edge that violates
//!   its slab by `x` moves both endpoints `x/2` towards each other. Linear convergence
//!   (Luo–Tseng).
//! * [`LipschitzSolver::Fdpg`]: FISTA on the dual (Beck & Teboulle 2014, the paper's
//!   reference [45]) with step `1/L`, `L = max_{(u,v)} (deg u + deg v)`.
//!
//! Stopping rule (both): `t = y − Fᵀμ` is recomputed from scratch, and the solve stops when
//! the largest violation is `≤ tol_feas` and the duality gap
//! `Σ_e (c_e|μ_e| − μ_e (F t)_e)` is `≤ tol_gap` in absolute value (each tolerance widened by
//! the rounding error of computing it, so that it stays reachable at any scale). Then
//! `½‖t − t*‖² ≤ gap`. The dual `μ` is kept by the caller and warm-starts the next solve; the
//! projection is unique, so a warm start changes the work, not the result.

use graphsparse_base::{Check, check_at_least_one, check_len, check_nonnegative};

use crate::error::{OtError, Result};
use crate::graph::OtGraph;

/// Which algorithm solves the projection's dual.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LipschitzSolver {
    /// Exact dual coordinate descent (Hildreth's method on slabs); the default.
    #[default]
    Hildreth,
    /// Fast dual proximal gradient (FISTA on the dual).
    Fdpg,
}

/// Tolerances and iteration cap of [`project_lipschitz`] (a builder; see [`Check::check`]).
///
/// Defaults: Hildreth, `tol_feas = 1e-13`, `tol_gap = 1e-15`, `10⁴` sweeps.
///
/// # Example
/// ```
/// use graphsparse_ot::{Check, LipschitzOptions, LipschitzSolver};
/// let o = LipschitzOptions::fdpg().check()?;
/// assert_eq!((o.solver(), o.max_iter()), (LipschitzSolver::Fdpg, 100_000));
/// assert!(LipschitzOptions::new().tol_gap(f64::NAN).check().is_err());
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LipschitzOptions {
    pub(crate) solver: LipschitzSolver,
    pub(crate) tol_feas: f64,
    pub(crate) tol_gap: f64,
    pub(crate) max_iter: usize,
}

impl Default for LipschitzOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl LipschitzOptions {
    /// Hildreth with the default tolerances and `10⁴` sweeps.
    pub const fn new() -> Self {
        Self {
            solver: LipschitzSolver::Hildreth,
            tol_feas: 1e-13,
            tol_gap: 1e-15,
            max_iter: 10_000,
        }
    }

    /// FDPG with its default cap of `10⁵` iterations (tolerances as the default).
    pub const fn fdpg() -> Self {
        Self {
            solver: LipschitzSolver::Fdpg,
            max_iter: 100_000,
            ..Self::new()
        }
    }

    graphsparse_base::setters! {
        /// The solver.
        solver: LipschitzSolver => solver,
        /// Largest accepted constraint violation (absolute, `>= 0`; default `1e-13`).
        tol_feas: f64 => tol_feas,
        /// Largest accepted duality gap (absolute, `>= 0`; default `1e-15`).
        tol_gap: f64 => tol_gap,
        /// Most sweeps (Hildreth) or iterations (FDPG), `>= 1`; defaults `10⁴` and `10⁵`.
        max_iter: usize => max_iter,
    }
}

impl Check for LipschitzOptions {
    type Checked = LipschitzValidOptions;
    type Error = OtError;

    /// Validates the options.
    ///
    /// # Errors
    /// [`OtError::Input`] for a negative or non-finite tolerance or `max_iter = 0`.
    fn check(self) -> Result<LipschitzValidOptions> {
        check_nonnegative("tol_feas", self.tol_feas)?;
        check_nonnegative("tol_gap", self.tol_gap)?;
        check_at_least_one("max_iter", self.max_iter)?;
        Ok(LipschitzValidOptions(self))
    }
}

/// Checked [`LipschitzOptions`], what [`project_lipschitz`] takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LipschitzValidOptions(pub(crate) LipschitzOptions);

impl Default for LipschitzValidOptions {
    /// The default options (Hildreth; always valid).
    fn default() -> Self {
        Self(LipschitzOptions::new())
    }
}

impl LipschitzValidOptions {
    /// FDPG with its default cap (always valid).
    pub const fn fdpg() -> Self {
        Self(LipschitzOptions::fdpg())
    }
    /// The solver.
    pub const fn solver(&self) -> LipschitzSolver {
        self.0.solver
    }
    /// The feasibility tolerance.
    pub const fn tol_feas(&self) -> f64 {
        self.0.tol_feas
    }
    /// The gap tolerance.
    pub const fn tol_gap(&self) -> f64 {
        self.0.tol_gap
    }
    /// The iteration cap.
    pub const fn max_iter(&self) -> usize {
        self.0.max_iter
    }
    /// Back to the builder.
    pub const fn into_options(self) -> LipschitzOptions {
        self.0
    }
}

/// What one projection did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ProjectionInfo {
    /// Sweeps (Hildreth) or iterations (FDPG) made.
    pub iterations: usize,
    /// Whether both tolerances were met (false: the cap was hit; the last `t` is returned).
    pub converged: bool,
    /// Largest constraint violation of the returned `t`.
    pub violation: f64,
    /// Duality gap of the returned `(t, μ)`; bounds `½‖t − t*‖²` when `t` is feasible.
    pub gap: f64,
}

#[inline]
fn soft(z: f64, a: f64) -> f64 {
    if z > a {
        z - a
    } else if z < -a {
        z + a
    } else {
        0.0
    }
}

/// Recomputes `t = y − Fᵀμ` and returns the statistics of `(t, μ)` after `iterations`
/// sweeps or iterations: violation, gap and whether both tolerances hold.
fn evaluate(
    g: &OtGraph,
    y: &[f64],
    mu: &[f64],
    t: &mut [f64],
    opts: &LipschitzOptions,
    iterations: usize,
) -> ProjectionInfo {
    g.apply_ft_unchecked(mu, t);
    for (ti, &yi) in t.iter_mut().zip(y) {
        *ti = yi - *ti;
    }
    let (mut viol, mut gap, mut gap_noise) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut ok_feas = true;
    for (e, &m) in mu.iter().enumerate() {
        let (a, b) = (g.tail()[e] as usize, g.head()[e] as usize);
        let d = t[b] - t[a];
        let c = g.cost()[e];
        let v = if g.directed()[e] { d - c } else { d.abs() - c };
        let noise = 4.0 * f64::EPSILON * (t[a].abs() + t[b].abs() + c);
        if v > opts.tol_feas + noise {
            ok_feas = false;
        }
        viol = viol.max(v);
        gap += c * m.abs() - m * d;
        gap_noise += m.abs() * (c + d.abs() + t[a].abs() + t[b].abs());
    }
    let ok_gap = gap.abs() <= opts.tol_gap + 4.0 * f64::EPSILON * gap_noise;
    ProjectionInfo {
        iterations,
        converged: ok_feas && ok_gap,
        violation: viol.max(0.0),
        gap,
    }
}

/// One Hildreth sweep over the edges in order; returns the largest `|Δμ_e|`.
fn hildreth_sweep(g: &OtGraph, mu: &mut [f64], t: &mut [f64]) -> f64 {
    let mut maxd = 0.0_f64;
    // the edge arrays are read once, outside the loop: the writes to `t` cannot then force a
    // reload of the graph's slices on every edge
    let edges = g
        .tail()
        .iter()
        .zip(g.head())
        .zip(g.cost())
        .zip(g.directed());
    for (mu_e, (((&a, &b), &cost), &directed)) in mu.iter_mut().zip(edges) {
        let (a, b) = (a as usize, b as usize);
        let half = 0.5 * cost;
        let z = *mu_e + 0.5 * (t[b] - t[a]);
        let new = if directed {
            (z - half).max(0.0)
        } else {
            soft(z, half)
        };
        let d = new - *mu_e;
        if d != 0.0 {
            t[b] -= d;
            t[a] += d;
            *mu_e = new;
            maxd = maxd.max(d.abs());
        }
    }
    maxd
}

/// Reusable buffers of the FDPG solver (the extrapolated dual point and `F t`).
#[derive(Debug, Clone, Default)]
pub struct LipschitzWork {
    w: Vec<f64>,
    ft: Vec<f64>,
    tw: Vec<f64>,
}

/// Projects `y` onto the Lipschitz set of `g`, warm-started from the dual `mu`.
///
/// Allocation-free form of [`project_lipschitz`] (apart from the FDPG buffers in `work`,
/// sized once): on return `t` holds the projection and `mu` the dual that produced it (pass
/// it again to warm-start a nearby projection; zeros are a cold start).
///
/// # Arguments
/// * `g` – the graph.
/// * `y` – the point, one finite value per vertex.
/// * `mu` – the dual, one value per stored edge; updated in place.
/// * `t` – output, one value per vertex.
/// * `opts` – solver and tolerances.
/// * `work` – scratch space (only FDPG uses it).
///
/// # Returns
/// A [`ProjectionInfo`]; not converging within `max_iter` is not an error.
///
/// # Errors
/// [`crate::OtError::Input`] for a non-finite `y` or `mu` or bad lengths.
///
/// # Complexity
/// O(n + m) per sweep or iteration; O(n + m) memory.
///
/// # Example
/// ```
/// use graphsparse_ot::{LipschitzValidOptions, LipschitzWork, OtGraph, project_lipschitz_into};
/// let g = OtGraph::undirected(2, &[[0, 1]], &[1.0])?;
/// let (mut mu, mut t) = (vec![0.0], vec![0.0; 2]);
/// let info = project_lipschitz_into(&g, &[0.0, 3.0], &mut mu, &mut t,
///     &LipschitzValidOptions::default(), &mut LipschitzWork::default())?;
/// assert!(info.converged);
/// assert_eq!(t, [1.0, 2.0]); // both ends move 1 towards each other
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn project_lipschitz_into(
    g: &OtGraph,
    y: &[f64],
    mu: &mut [f64],
    t: &mut [f64],
    opts: &LipschitzValidOptions,
    work: &mut LipschitzWork,
) -> Result<ProjectionInfo> {
    let opts = &opts.0;
    check_len("y", y.len(), g.n_vertices())?;
    check_len("t", t.len(), g.n_vertices())?;
    check_len("mu", mu.len(), g.n_edges())?;
    graphsparse_base::check_finite("y", y)?;
    graphsparse_base::check_finite("mu", mu)?;
    for (e, m) in mu.iter_mut().enumerate() {
        if g.directed()[e] && *m < 0.0 {
            *m = 0.0;
        }
    }
    Ok(project_unchecked(g, y, mu, t, opts, work))
}

/// [`project_lipschitz_into`] without validation (inputs are the solver's own).
pub(crate) fn project_unchecked(
    g: &OtGraph,
    y: &[f64],
    mu: &mut [f64],
    t: &mut [f64],
    opts: &LipschitzOptions,
    work: &mut LipschitzWork,
) -> ProjectionInfo {
    if g.n_edges() == 0 {
        t.copy_from_slice(y);
        return ProjectionInfo {
            iterations: 0,
            converged: true,
            violation: 0.0,
            gap: 0.0,
        };
    }
    let info = evaluate(g, y, mu, t, opts, 0);
    if info.converged {
        return info;
    }
    match opts.solver {
        LipschitzSolver::Hildreth => hildreth(g, y, mu, t, opts),
        LipschitzSolver::Fdpg => fdpg(g, y, mu, t, opts, work),
    }
}

fn hildreth(
    g: &OtGraph,
    y: &[f64],
    mu: &mut [f64],
    t: &mut [f64],
    opts: &LipschitzOptions,
) -> ProjectionInfo {
    let mut info = ProjectionInfo::default();
    // A sweep that still moves some μ_e by more than this is not the last one in practice;
    // skipping the O(n + m) check after it saves time and cannot loosen the stopping rule.
    let check_below = 1e3 * opts.tol_feas;
    for it in 1..=opts.max_iter {
        let moved = hildreth_sweep(g, mu, t);
        if moved > check_below && it < opts.max_iter {
            continue;
        }
        info = evaluate(g, y, mu, t, opts, it);
        if info.converged {
            break;
        }
    }
    info
}

fn fdpg(
    g: &OtGraph,
    y: &[f64],
    mu: &mut [f64],
    t: &mut [f64],
    opts: &LipschitzOptions,
    work: &mut LipschitzWork,
) -> ProjectionInfo {
    let (n, m) = (g.n_vertices(), g.n_edges());
    let deg = g.degrees();
    let lip = (0..m)
        .map(|e| f64::from(deg[g.tail()[e] as usize] + deg[g.head()[e] as usize]))
        .fold(1.0_f64, f64::max);
    work.w.clear();
    work.w.extend_from_slice(mu);
    work.ft.resize(m, 0.0);
    work.tw.resize(n, 0.0);
    let mut s = 1.0_f64;
    let mut info = ProjectionInfo::default();
    for it in 1..=opts.max_iter {
        g.apply_ft_unchecked(&work.w, &mut work.tw);
        for (x, &yi) in work.tw.iter_mut().zip(y) {
            *x = yi - *x;
        }
        g.apply_f_unchecked(&work.tw, &mut work.ft);
        let s_new = 0.5 * (1.0 + (1.0 + 4.0 * s * s).sqrt());
        let mom = (s - 1.0) / s_new;
        for (e, mu_e) in mu.iter_mut().enumerate() {
            let z = work.w[e] + work.ft[e] / lip;
            let a = g.cost()[e] / lip;
            let new = if g.directed()[e] {
                (z - a).max(0.0)
            } else {
                soft(z, a)
            };
            work.w[e] = new + mom * (new - *mu_e);
            *mu_e = new;
        }
        s = s_new;
        info = evaluate(g, y, mu, t, opts, it);
        if info.converged {
            break;
        }
    }
    info
}

/// Projects `y` onto the Lipschitz set `{t : |t(u) − t(v)| ≤ c(e)}` of `g` (cold start).
///
/// Directed edges `u → v` constrain one side only: `t(v) − t(u) ≤ c(e)`.
///
/// # Arguments
/// * `g` – the graph.
/// * `y` – the point, one finite value per vertex.
/// * `opts` – solver and tolerances ([`LipschitzValidOptions::default`]: Hildreth, `1e-13`,
///   `1e-15`).
///
/// # Returns
/// `(t, μ, info)`: the projection, the dual that certifies it, and the solve's statistics.
///
/// # Errors
/// As [`project_lipschitz_into`].
///
/// # Complexity
/// O(n + m) per sweep; the number of sweeps is small in practice (linear convergence).
///
/// # Example
/// ```
/// use graphsparse_ot::{LipschitzValidOptions, OtGraph, project_lipschitz};
/// // G1 of the specification, first step: Proj_T(−0.1 ρ0)
/// let g = OtGraph::undirected(3, &[[0, 1], [1, 2]], &[0.01, 0.02])?;
/// let (t, mu, info) = project_lipschitz(&g, &[-0.025, -0.05, -0.025], &LipschitzValidOptions::default())?;
/// let want = [-0.0325, -0.0425, -0.025];
/// assert!(info.converged && t.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15));
/// assert!((mu[0] + 0.0075).abs() < 1e-15 && mu[1] == 0.0);
/// # Ok::<(), graphsparse_ot::OtError>(())
/// ```
pub fn project_lipschitz(
    g: &OtGraph,
    y: &[f64],
    opts: &LipschitzValidOptions,
) -> Result<(Vec<f64>, Vec<f64>, ProjectionInfo)> {
    let mut mu = vec![0.0; g.n_edges()];
    let mut t = vec![0.0; g.n_vertices()];
    let info = project_lipschitz_into(g, y, &mut mu, &mut t, opts, &mut LipschitzWork::default())?;
    Ok((t, mu, info))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Directed;

    fn kkt(g: &OtGraph, y: &[f64], t: &[f64], mu: &[f64]) {
        let mut ftmu = vec![0.0; g.n_vertices()];
        g.apply_ft(mu, &mut ftmu).unwrap();
        for v in 0..g.n_vertices() {
            assert!((t[v] - (y[v] - ftmu[v])).abs() < 1e-12);
        }
        for e in 0..g.n_edges() {
            let d = t[g.head()[e] as usize] - t[g.tail()[e] as usize];
            let c = g.cost()[e];
            if mu[e] > 0.0 {
                assert!((d - c).abs() < 1e-11, "edge {e}: mu>0 but d={d}, c={c}");
            } else if mu[e] < 0.0 {
                assert!(!g.directed()[e]);
                assert!((d + c).abs() < 1e-11);
            }
            assert!(d <= c + 1e-12);
            if !g.directed()[e] {
                assert!(d >= -c - 1e-12);
            }
        }
    }

    #[test]
    fn hildreth_and_fdpg_agree_and_satisfy_kkt() {
        let edges = [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 5], [5, 3]];
        let costs = [0.01, 0.01, 0.01, 0.02, 0.01, 0.02, 0.02];
        let mask = [false, true, false, true, false, false, true];
        let y = [0.3, -0.2, 0.05, 0.4, -0.1, 0.0];
        for dir in [Directed::None, Directed::Mask(&mask)] {
            let g = OtGraph::new(6, &edges, &costs, dir).unwrap();
            let (t1, mu1, i1) =
                project_lipschitz(&g, &y, &LipschitzValidOptions::default()).unwrap();
            let (t2, mu2, i2) = project_lipschitz(&g, &y, &LipschitzValidOptions::fdpg()).unwrap();
            assert!(i1.converged && i2.converged, "{i1:?} {i2:?}");
            kkt(&g, &y, &t1, &mu1);
            kkt(&g, &y, &t2, &mu2);
            for (a, b) in t1.iter().zip(&t2) {
                assert!((a - b).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn identity_cases() {
        let g = OtGraph::undirected(3, &[], &[]).unwrap();
        let (t, _, _) =
            project_lipschitz(&g, &[1.0, -5.0, 2.0], &LipschitzValidOptions::default()).unwrap();
        assert_eq!(t, [1.0, -5.0, 2.0]);
        let g = OtGraph::undirected(2, &[[0, 1]], &[1.0]).unwrap();
        let (t, mu, info) =
            project_lipschitz(&g, &[0.2, 0.9], &LipschitzValidOptions::default()).unwrap();
        assert_eq!((t, mu, info.iterations), (vec![0.2, 0.9], vec![0.0], 0));
    }

    #[test]
    fn directed_edges_are_one_sided() {
        let g = OtGraph::new(2, &[[0, 1]], &[1.0], Directed::All).unwrap();
        // t(1) - t(0) = -3 is allowed for a directed edge 0 -> 1
        let (t, _, _) =
            project_lipschitz(&g, &[3.0, 0.0], &LipschitzValidOptions::default()).unwrap();
        assert_eq!(t, [3.0, 0.0]);
        let (t, _, _) =
            project_lipschitz(&g, &[0.0, 3.0], &LipschitzValidOptions::default()).unwrap();
        assert_eq!(t, [1.0, 2.0]);
    }
}
