//! Algorithm 3 as a state machine: a [`Fitter`] holds the active set, the warm state and the
//! caches (reused along a path); each round solves the restricted problem on `W`, scores the
//! sources of `Wᶜ` and either grows `W` with the violators of condition (15), re-solves `W`
//! more tightly, or certifies it.

use std::time::Duration;

use graphsparse_base::{Budget, Meter, RunControl, Truncation};

use super::active_set::Lattice;
use super::certificate::{Certificate, certificate};
use super::model::{GhklFit, Rule, WarmStart};
use super::params::{GhklValidParams, check_targets};
use crate::bits;
use crate::bound::{Tightening, screened_scores};
use crate::error::Result;
use crate::kernel::{KernelCache, Scoring};
use crate::props::PropositionMatrix;
use crate::solver::{
    Problem, Restricted, Settings, State, Work, beta_into, fit_bias, solve_restricted,
};

/// Most re-solves of a final active set whose certified gap is above the tolerance (each
/// with ten times tighter mirror-descent, MKL and SVM tolerances; they stop early once one
/// fails to halve the gap).
const REFINEMENTS: usize = 3;

/// A round that adds at least `|W| / GROWTH_DIVISOR` nodes changes the restricted problem
/// much; the next solve then starts a fresh step schedule and stops at `LOOSE_MD_TOL` times
/// `md_tol`: it only has to point at the next candidates. Smaller additions continue the
/// schedule at `md_tol`, and a final `W` is always solved at `md_tol` before it is certified.
const GROWTH_DIVISOR: usize = 100;
const LOOSE_MD_TOL: f64 = 100.0;

/// Bounds of the grace a fit cut by its time limit gets to score the certificate of what it
/// has (a twentieth of the limit, clamped to these): a cut fit returns within about a second
/// of its limit. (A quarter of the limit up to 30 s made a 60 s fit return at 75 s.)
const GRACE_MIN: Duration = Duration::from_millis(200);
const GRACE_MAX: Duration = Duration::from_secs(1);

/// The grace of a fit with time limit `limit` (see [`GRACE_MIN`]).
fn grace(limit: Duration) -> Duration {
    (limit / 20).clamp(GRACE_MIN, GRACE_MAX)
}

/// The meters of one fit: one for nodes added to `W`, one for time and cancellation.
pub(super) struct Meters<'a> {
    nodes: Meter<'a>,
    time: Meter<'a>,
}

impl Meters<'_> {
    fn truncation(&self) -> Option<Truncation> {
        self.time.truncation().or(self.nodes.truncation())
    }
}

/// What one run of Algorithm 3 carries from round to round: the solver settings (whose
/// tolerances the schedule changes), the refinements of a final `W`, the counts and the
/// certificates found on the way.
struct FitRun {
    set: Settings,
    /// Re-solves of a final `W` so far, and the gap the last one certified.
    refinements: usize,
    refined_gap: f64,
    rounds: usize,
    md: usize,
    inner: usize,
    svm: usize,
    /// The certificate of a converged `W`, when the refinement test already computed it.
    final_cert: Option<Certificate>,
    /// The best certified point of the current `W`: a refinement re-solves `W` more tightly,
    /// but its best mirror-descent iterate (by the dual value) can certify a larger gap.
    best_of_w: Option<(usize, Certificate, State)>,
}

impl FitRun {
    fn new(set: Settings) -> Self {
        Self {
            set,
            refinements: 0,
            refined_gap: f64::INFINITY,
            rounds: 0,
            md: 0,
            inner: 0,
            svm: 0,
            final_cert: None,
            best_of_w: None,
        }
    }

    /// Adds the iterations of a restricted solve to the totals.
    fn count(&mut self, r: &Restricted) {
        self.md += r.md_iter;
        self.inner += r.inner_solves;
        self.svm += r.svm_iter;
    }
}

/// What a round decided.
enum Step {
    /// Solve `W` again (grown, or more tightly).
    Again,
    /// `W` is certified; the scores of its sources.
    Certified(Vec<f64>),
    /// A meter stopped the fit.
    Stopped,
}

/// The last solved point before `W` grew: what a fit goes back to when the budget stops the
/// first iteration of the grown `W` in its kernel build or ridge solve (the dense kernel of a
/// large `W` can take longer to build than the time a fit has left).
struct Checkpoint {
    /// `|W|` before it grew.
    n: usize,
    last: Restricted,
    state: State,
}

/// A fit in progress: the lattice, the warm state and the caches, reused along a path.
pub(super) struct Fitter<'a> {
    params: &'a GhklValidParams,
    x: &'a PropositionMatrix,
    y: &'a [f64],
    tasks: usize,
    /// Per-example multiplicity (merged identical rows; all 1 otherwise).
    weight: Vec<f64>,
    lat: Lattice,
    pub(super) state: State,
    cache: KernelCache,
    work: Work,
    /// Set by [`Fitter::grow`], taken by the next restricted solve.
    checkpoint: Option<Checkpoint>,
}

impl<'a> Fitter<'a> {
    pub(super) fn new(
        params: &'a GhklValidParams,
        x: &'a PropositionMatrix,
        y: &'a [f64],
        tasks: usize,
        weight: Vec<f64>,
    ) -> Result<Self> {
        let m = x.n_examples();
        check_targets(params.0.loss, y, tasks, m)?;
        debug_assert_eq!(weight.len(), m);
        let p = &params.0;
        let work = Work::new(m, tasks, p.solver_form, p.loss, p.coupling.c())?;
        Ok(Self {
            params,
            x,
            y,
            tasks,
            weight,
            lat: Lattice::new(x, params.0.a),
            state: State::new(1, tasks, m),
            cache: KernelCache::new(x.n_props(), params.0.a, params.0.kernel_cache_bytes)?,
            work,
            checkpoint: None,
        })
    }

    fn problem(&self) -> Problem<'_> {
        Problem {
            dag: &self.lat.dag,
            y: self.y,
            tasks: self.tasks,
            weight: &self.weight,
        }
    }

    /// The restricted solve of `W`. When `meter` stops its first iteration (in the kernel build
    /// or the ridge solve, [`Restricted::aborted`]) after `W` grew, nothing of the grown `W`
    /// was solved: `W` and the state go back to the solved point before the growth (the
    /// [`Checkpoint`]), whose result is returned (with no iterations counted); without a
    /// growth since the last solve, the warm start stands as it is.
    fn restricted(&mut self, set: &Settings, meter: &Meter) -> Restricted {
        let pb = Problem {
            dag: &self.lat.dag,
            y: self.y,
            tasks: self.tasks,
            weight: &self.weight,
        };
        let out = solve_restricted(&pb, set, &mut self.state, &mut self.work, Some(meter));
        match self.checkpoint.take() {
            Some(cp) if out.aborted => {
                self.lat.truncate(cp.n);
                self.state = cp.state;
                Restricted {
                    md_iter: 0,
                    inner_solves: 0,
                    svm_iter: out.svm_iter,
                    ..cp.last
                }
            }
            _ => out,
        }
    }

    /// Scores of `sources(W^c)` (`self.lat.frontier`, brought up to date): the paper's `K_u`
    /// from the cache, tightened above `floor`; `None` when `meter` stopped the scoring. With
    /// `thr` (a round that only asks which scores exceed it, and ranks those) and no
    /// `max_add` (which ranks by the exact scores), a large round is screened first (bound.rs,
    /// [`screened_scores`]): a candidate with a lower bound above `thr` keeps that bound as
    /// its score, the others get exact ones; the violators are the same.
    fn score(
        &mut self,
        set: &Settings,
        floor: f64,
        thr: Option<f64>,
        meter: &Meter,
    ) -> Option<Vec<f64>> {
        if !self.lat.update_frontier(self.x, meter) {
            return None;
        }
        beta_into(set.loss, self.y, &self.state.alpha, &mut self.work.beta);
        let job = Scoring {
            x: self.x,
            cands: &self.lat.frontier,
            beta: &self.work.beta,
            tasks: self.tasks,
            coupling: set.coupling,
            parallel: set.parallel,
            meter: Some(meter),
        };
        let (cache, levels, params, n_props) = (
            &mut self.cache,
            &self.lat.levels,
            self.params,
            self.x.n_props(),
        );
        let tight = Tightening::new(params.0.a, set.ex.rho_bar, n_props, levels, levels.len());
        let mut exact = |job: &Scoring| -> Option<Vec<f64>> {
            let mut s = cache.score(job);
            if meter.is_stopped() {
                return None;
            }
            // the paper's K_u screens; the scores that could matter are tightened (bound.rs),
            // and a score left untightened by a stop is still a valid bound
            tight.tighten(job, floor, &mut s);
            Some(s)
        };
        match thr {
            Some(thr) if params.0.max_add.is_none() => {
                screened_scores(&job, &tight, params.0.a, thr, exact)
            }
            _ => exact(&job),
        }
    }

    /// The meter of the final certificate's scoring: the fit's remaining time plus a grace
    /// of a twentieth of its time limit, 0.2–1 s ([`GRACE_MIN`], [`GRACE_MAX`]), so that a
    /// fit cut by time still reports the gap it reached when that is quick, and stops within
    /// about a second of its limit when it is not (the gap is then left NaN).
    fn grace_meter<'c>(&self, meters: &Meters<'c>) -> Meter<'c> {
        let limit = self.params.0.budget.time_limit;
        let grace = limit.map(|t| {
            let left = t.saturating_sub(meters.time.elapsed());
            left + grace(t)
        });
        Budget::new().time_limit(grace).start(meters.time.control())
    }

    /// Algorithm 3 at cost `c`, warm-started from the current lattice and state: rounds of
    /// [`Fitter::solve`] and [`Fitter::step`] until `W` is certified or a meter stops the fit,
    /// then [`Fitter::finish`].
    pub(super) fn run(&mut self, cost: f64, meters: &Meters) -> GhklFit {
        let mut run = FitRun::new(self.params.settings(cost));
        self.checkpoint = None;
        let (last, scores) = loop {
            let mut last = self.solve(&mut run, meters);
            if meters.time.is_stopped() {
                break (last, None);
            }
            match self.step(&mut run, &mut last, meters) {
                Step::Again => {}
                Step::Certified(s) => break (last, Some(s)),
                Step::Stopped => break (last, None),
            }
        };
        self.finish(run, &last, scores, cost, meters)
    }

    /// One round's restricted solve of `W`.
    fn solve(&mut self, run: &mut FitRun, meters: &Meters) -> Restricted {
        run.rounds += 1;
        meters
            .time
            .control()
            .progress()
            .set_stage(run.rounds as u64 - 1, 0);
        let last = self.restricted(&run.set, &meters.time);
        run.count(&last);
        last
    }

    /// Scores the sources of `Wᶜ` against condition (15) at the solution `last` of `W`: grows
    /// `W` with the violators, or, when there are none, checks whether `W` is done.
    fn step(&mut self, run: &mut FitRun, last: &mut Restricted, meters: &Meters) -> Step {
        let eps_tol = run.set.tol_gap * last.g.abs().max(1.0);
        let thr = last.r + 2.0 * (eps_tol - last.mkl_gap);
        let Some(s) = self.score(&run.set, thr.min(last.r), Some(thr), &meters.time) else {
            return Step::Stopped;
        };
        let viol: Vec<usize> = (0..s.len()).filter(|&k| s[k] > thr).collect();
        if viol.is_empty() {
            self.check_complete(run, last, s, eps_tol)
        } else {
            self.grow(run, viol, &s, last, meters)
        }
    }

    /// `W` satisfies (15) (its sources' scores are `s`). When it was solved loosely, it is
    /// solved again at the set tolerance; when the certified gap, which also carries the
    /// restricted solve's own error, is above the tolerance, again more tightly, as long as
    /// that keeps halving the gap; else it is certified, by the best certificate `W` had.
    fn check_complete(
        &mut self,
        run: &mut FitRun,
        last: &Restricted,
        s: Vec<f64>,
        eps_tol: f64,
    ) -> Step {
        let md_tol = self.params.0.md_tol;
        if run.set.md_tol > md_tol {
            run.set.md_tol = md_tol;
            run.set.md_steps_before += last.md_iter;
            return Step::Again;
        }
        let cert = (run.refinements < REFINEMENTS)
            .then(|| certificate(&self.problem(), &run.set, last, &self.state, Some(&s)));
        let gap = cert.as_ref().map_or(0.0, |c| c.gap);
        if let Some(c) = &cert {
            let n = self.lat.len();
            if run
                .best_of_w
                .as_ref()
                .is_none_or(|(bn, b, _)| *bn != n || c.gap < b.gap)
            {
                run.best_of_w = Some((n, c.clone(), self.state.clone()));
            }
        }
        if gap > eps_tol && gap < 0.5 * run.refined_gap {
            run.refined_gap = gap;
            run.refinements += 1;
            run.set.md_tol *= 0.1;
            run.set.mkl_tol *= 0.1;
            run.set.svm_tol *= 0.1;
            run.set.md_steps_before += last.md_iter;
            return Step::Again;
        }
        run.final_cert = cert;
        if let Some((n, best, state)) = run.best_of_w.take()
            && n == self.lat.len()
            && run.final_cert.as_ref().is_some_and(|c| best.gap < c.gap)
        {
            run.final_cert = Some(best);
            self.state = state;
        }
        Step::Certified(s)
    }

    /// Adds the strongest violators `viol` of (15) (scores `s`) to `W`, at most `max_add`, each
    /// claimed from the node budget, and sets the tolerance schedule of the next solve. When
    /// the node budget or the time limit is used up (the clock is read every 64 nodes), `W`
    /// as grown is solved once more (into `last`) and the fit stops. The solved point before
    /// the growth is kept (a [`Checkpoint`]) for a next solve that the budget stops.
    fn grow(
        &mut self,
        run: &mut FitRun,
        mut viol: Vec<usize>,
        s: &[f64],
        last: &mut Restricted,
        meters: &Meters,
    ) -> Step {
        viol.sort_by(|&i, &j| s[j].total_cmp(&s[i]).then(i.cmp(&j)));
        if let Some(k) = self.params.0.max_add {
            viol.truncate(k);
        }
        let checkpoint = Checkpoint {
            n: self.lat.len(),
            last: last.clone(),
            state: self.state.clone(),
        };
        let mut added = 0;
        let mut bits_u = vec![0u64; self.lat.wm];
        for &k in &viol {
            // adding tens of thousands of nodes (a wide table's second round) takes seconds
            if (added % 64 == 63 && meters.time.poll()) || !meters.nodes.claim_node() {
                break;
            }
            let props = self.lat.frontier[k].props.clone();
            bits_u.iter_mut().for_each(|b| *b = !0);
            self.x.cover_bits_into(&props, &mut bits_u);
            self.lat.push(props, &bits_u);
            added += 1;
        }
        if added > 0 {
            self.checkpoint = Some(checkpoint);
        }
        self.state.grow(self.lat.len());
        let md_tol = self.params.0.md_tol;
        if added * GROWTH_DIVISOR >= self.lat.len() {
            // W changed much: a fresh step schedule, and a loose solve, since the next
            // round's candidates will change W again
            run.set.md_steps_before = 0;
            run.set.md_tol = md_tol * LOOSE_MD_TOL;
        } else {
            // a few nodes more: the warm start is close, so the step schedule goes on
            run.set.md_steps_before += last.md_iter;
            run.set.md_tol = run.set.md_tol.min(md_tol);
        }
        if meters.nodes.is_stopped() || meters.time.is_stopped() {
            if added > 0 {
                run.set.md_tol = run.set.md_tol.min(md_tol);
                *last = self.restricted(&run.set, &meters.time);
                run.count(last);
            }
            return Step::Stopped;
        }
        Step::Again
    }

    /// The fit at the end of a run: the certificate (the one the last check computed, else
    /// one from the sources' scores, scored now under a grace meter when a stop left them
    /// out), the rules above the threshold, their refitted bias and the statistics.
    fn finish(
        &mut self,
        run: FitRun,
        last: &Restricted,
        scores: Option<Vec<f64>>,
        cost: f64,
        meters: &Meters,
    ) -> GhklFit {
        let certified = scores.is_some();
        let truncation = meters.truncation();
        let cancelled = truncation == Some(Truncation::Cancelled);
        let scores_now = if cancelled {
            None
        } else {
            match scores {
                Some(s) => Some(s),
                None => {
                    let grace = self.grace_meter(meters);
                    self.score(&run.set, last.r, None, &grace)
                }
            }
        };
        let cert = run.final_cert.unwrap_or_else(|| {
            certificate(
                &self.problem(),
                &run.set,
                last,
                &self.state,
                scores_now.as_deref(),
            )
        });
        let rules = self.read_rules(&cert);
        let mut fit = GhklFit {
            rules,
            bias: Vec::new(),
            tasks: self.tasks,
            n_props: self.x.n_props(),
            c: cost,
            gap: cert.gap,
            primal: cert.primal,
            dual: cert.dual,
            loss_sum: cert.loss_sum,
            // certified by (15) and within the tolerance: a final set whose refinements
            // could not bring the gap under `tol` is reported as not converged
            converged: certified
                && truncation.is_none()
                && cert.gap <= run.set.tol_gap * last.g.abs().max(1.0),
            truncation,
            n_rounds: run.rounds,
            n_md_iter: run.md,
            n_inner_solves: run.inner,
            n_svm_iter: run.svm,
            active_set_size: self.lat.len(),
            cache: self.cache.stats(),
            warm: WarmStart {
                keys: self.lat.keys.clone(),
                state: self.state.clone(),
            },
        };
        fit.bias = self.refit_bias(&run.set, &fit, &cert.bias);
        if let Some(v) = (cert.gap.is_finite()).then_some(cert.gap) {
            meters.time.control().progress().set_value(v);
        }
        fit
    }

    fn read_rules(&self, cert: &Certificate) -> Vec<Rule> {
        let nt = self.tasks;
        let n = self.lat.len();
        let strength: Vec<f64> = (0..n)
            .map(|w| {
                cert.f[w * nt..(w + 1) * nt]
                    .iter()
                    .map(|v| v * v)
                    .sum::<f64>()
                    .sqrt()
            })
            .collect();
        let smax = strength.iter().skip(1).copied().fold(0.0f64, f64::max);
        let thr = self.params.0.rule_threshold * smax;
        let mut rules: Vec<Rule> = (1..n)
            .filter(|&w| strength[w] > thr && strength[w] > 0.0)
            .map(|w| Rule {
                props: self.lat.keys[w].to_vec(),
                weights: cert.f[w * nt..(w + 1) * nt].to_vec(),
                strength: strength[w],
                support: self
                    .lat
                    .dag
                    .cover(w)
                    .iter()
                    .map(|&i| self.weight[i as usize] as usize)
                    .sum(),
            })
            .collect();
        rules.sort_by(|a, b| {
            b.strength
                .total_cmp(&a.strength)
                .then_with(|| a.props.cmp(&b.props))
        });
        rules
    }

    /// The bias of the thresholded ensemble: optimal for the training loss, closest to the
    /// certificate's.
    fn refit_bias(&mut self, set: &Settings, fit: &GhklFit, reference: &[f64]) -> Vec<f64> {
        let (m, nt) = (self.x.n_examples(), self.tasks);
        let mut f = vec![0.0; nt * m];
        let mut acc = vec![0u64; self.x.words_m()];
        let mut ones = Vec::new();
        for r in &fit.rules {
            acc.iter_mut().for_each(|w| *w = !0);
            self.x.cover_bits_into(&r.props, &mut acc);
            ones.clear();
            bits::push_ones(&acc, &mut ones);
            for &i in &ones {
                for t in 0..nt {
                    f[t * m + i as usize] += r.weights[t];
                }
            }
        }
        let mut b = reference.to_vec();
        let mut order = Vec::new();
        fit_bias(set.loss, self.y, &f, &self.weight, &mut b, &mut order);
        b
    }
}

/// The meters of a fit (or a path) under the budget of `params`.
pub(super) fn start_meters<'c>(params: &GhklValidParams, ctl: &'c RunControl) -> Meters<'c> {
    Meters {
        nodes: Budget::new()
            .max_nodes(params.0.budget.max_nodes)
            .start(ctl),
        time: Budget::new()
            .time_limit(params.0.budget.time_limit)
            .start(ctl),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ghkl::GhklParams;
    use crate::solver::SolverForm;
    use graphsparse_base::{Check, SplitMix64};

    /// When the time limit stops the first kernel build of a grown `W`, the fit goes back to
    /// the solve before the growth (`W`, state and solution) and returns from there: cut by
    /// time, with the rules of that `W` weighted as its solution says.
    #[test]
    fn a_stopped_build_after_a_growth_goes_back_to_the_last_solve() {
        // 400 rows (every kernel build polls its meter), 8 random propositions
        let (m, p) = (400, 8);
        let mut rng = SplitMix64::new(7);
        let values: Vec<bool> = (0..m * p).map(|_| rng.next_u64() % 2 == 0).collect();
        let x = PropositionMatrix::from_dense(m, p, &values).unwrap();
        let y: Vec<f64> = (0..m)
            .map(|i| {
                let r = &values[i * p..(i + 1) * p];
                let noise = rng.next_u64() % 10 == 0;
                if ((r[0] && r[1]) || r[2]) != noise {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect();
        let params = GhklParams::new()
            .c(10.0)
            .solver_form(SolverForm::Dual)
            .check()
            .unwrap();
        let mut f = Fitter::new(&params, &x, &y, 1, vec![1.0; m]).unwrap();
        let ctl = RunControl::new();
        let meters = start_meters(&params, &ctl);
        let mut run = FitRun::new(params.settings(10.0));
        let mut last = f.solve(&mut run, &meters);
        // rounds until a `W` beyond the root grows
        let (n0, state0, last0, keys0) = loop {
            assert!(!last.aborted);
            let (n, state, keys) = (f.lat.len(), f.state.clone(), f.lat.keys.clone());
            let before = last.clone();
            assert!(
                matches!(f.step(&mut run, &mut last, &meters), Step::Again),
                "the fit ended before W grew twice"
            );
            if n > 1 && f.lat.len() > n {
                break (n, state, before, keys);
            }
            last = f.solve(&mut run, &meters);
        };
        // the next solve finds the time limit spent
        let spent = Meters {
            nodes: Budget::new().start(&ctl),
            time: Budget::new().time_limit(Some(Duration::ZERO)).start(&ctl),
        };
        let back = f.solve(&mut run, &spent);
        assert_eq!(spent.truncation(), Some(Truncation::TimeLimit));
        assert_eq!(f.lat.len(), n0);
        assert_eq!(f.lat.keys, keys0);
        assert_eq!(f.state, state0);
        let want = Restricted {
            md_iter: 0,
            inner_solves: 0,
            svm_iter: 0,
            ..last0.clone()
        };
        assert_eq!(back, want);
        let cert = certificate(&f.problem(), &run.set, &last0, &state0, None);
        let fit = f.finish(run, &back, None, 10.0, &spent);
        assert_eq!(fit.truncation, Some(Truncation::TimeLimit));
        assert!(!fit.converged && fit.active_set_size == n0);
        assert_eq!(fit.warm.state, state0);
        assert_eq!(fit.warm.keys, keys0);
        // (no time limit in the parameters: the grace scores every source)
        assert!(fit.gap.is_finite() && fit.gap >= 0.0 && fit.dual <= fit.primal);
        assert_eq!(fit.primal, cert.primal);
        assert!(!fit.rules.is_empty());
        for r in &fit.rules {
            let w = f.lat.index[&r.props[..]] as usize;
            assert_eq!(r.weights, cert.f[w..w + 1]);
        }
        let dec = fit.decision_function(&x).unwrap();
        assert!(dec.iter().all(|v| v.is_finite()));
    }

    /// A fit cut by its time limit gets at most a second, and at least a fifth of one, to
    /// certify what it has, whatever the limit (a minute's fit once overran by 15 s here).
    #[test]
    fn the_grace_past_a_time_limit_is_short() {
        for (limit, want) in [
            (0.5, 0.2),
            (2.0, 0.2),
            (10.0, 0.5),
            (60.0, 1.0),
            (3600.0, 1.0),
        ] {
            let g = grace(Duration::from_secs_f64(limit)).as_secs_f64();
            assert!((g - want).abs() < 1e-9, "{limit} s: {g}");
        }
    }
}
