//! Head/tail projections: the golden cases of spec §B.4 and the checklist properties 10–12.

use graphsparse_online::{
    Check, EdgeRules, Fallback, GraphDa, GraphProjectionParams, GraphProjector, LambdaStart, Loss,
    OnlineLearner, ProjectionParams, ProjectionValidParams, WeightedGraph, sparsity_range,
};
use graphsparse_pcst::grid_edges;
use proptest::prelude::*;

fn search(max_iter: usize) -> ProjectionParams {
    ProjectionParams::new().num_clusters(1).max_iter(max_iter)
}

fn params(max_iter: usize) -> ProjectionValidParams {
    search(max_iter).check().unwrap()
}

/// The projector on the multigraph `edges` over `n` nodes with the given costs.
fn projector(
    n: usize,
    edges: &[[usize; 2]],
    costs: &[f64],
) -> Result<GraphProjector, Box<dyn std::error::Error>> {
    let graph = WeightedGraph::from_edges(n, edges, Some(costs), EdgeRules::MULTIGRAPH)?;
    Ok(GraphProjector::new(graph)?)
}

#[test]
fn golden_cases_of_graph_da_head_tail_binsearch() {
    let edges = grid_edges(6, 6);
    assert_eq!(edges.len(), 60);
    let w: Vec<f64> = (0..36).map(|i| ((17 * i) % 13) as f64 / 6.0).collect();
    let mut proj = projector(36, &edges, &vec![1.0; 60]).unwrap();
    type Case = (
        (usize, usize, usize),
        &'static [usize],
        &'static [usize],
        usize,
    );
    let cases: [Case; 5] = [
        ((5, 5, 20), &[29], &[], 20),
        (
            (8, 8, 20),
            &[3, 9, 15, 16, 22, 28, 29, 35],
            &[42, 52, 28, 18, 54, 31, 7],
            8,
        ),
        (
            (10, 11, 20),
            &[3, 9, 15, 16, 22, 28, 29, 35],
            &[42, 52, 28, 18, 54, 31, 7],
            20,
        ),
        (
            (18, 19, 20),
            &[
                2, 3, 6, 9, 12, 15, 16, 18, 19, 20, 21, 22, 25, 28, 29, 31, 32, 35,
            ],
            &[
                37, 35, 29, 47, 33, 23, 56, 28, 42, 7, 54, 52, 36, 31, 18, 12, 4,
            ],
            4,
        ),
        ((3, 3, 5), &[29], &[], 5),
    ];
    for ((lo, hi, it), nodes, edges_want, n_iter) in cases {
        let got = proj.project(&w, lo, hi, &params(it)).unwrap();
        assert_eq!(got.nodes, nodes, "nodes for {lo},{hi},{it}");
        assert_eq!(got.edges, edges_want, "edges for {lo},{hi},{it}");
        assert_eq!(got.n_iter, n_iter, "iterations for {lo},{hi},{it}");
        // the closest fallback is never further from the range
        let closest = proj
            .project(
                &w,
                lo,
                hi,
                &search(it).fallback(Fallback::Closest).check().unwrap(),
            )
            .unwrap();
        let d = |k: usize| if k < lo { lo - k } else { k.saturating_sub(hi) };
        assert!(d(closest.nodes.len()) <= d(got.nodes.len()));
        assert_eq!(closest.n_iter, got.n_iter);
    }
}

#[test]
fn all_zero_prizes_give_the_last_node() {
    let edges = grid_edges(3, 3);
    let mut proj = projector(9, &edges, &vec![1.0; edges.len()]).unwrap();
    let got = proj.project(&[0.0; 9], 2, 3, &params(20)).unwrap();
    assert_eq!(got.nodes, vec![8]);
}

#[test]
fn sparsity_ranges_follow_graph_da() {
    assert_eq!(sparsity_range(26, 0.1, 1089), (26, 28));
    assert_eq!(sparsity_range(46, 0.1, 1089), (46, 50));
    assert_eq!(sparsity_range(92, 0.1, 1089), (92, 101));
    assert_eq!(sparsity_range(132, 0.1, 1089), (132, 145));
    assert_eq!(sparsity_range(544, 0.1, 1089), (544, 598));
    assert_eq!(sparsity_range(10, 0.5, 12), (10, 12));
}

#[test]
fn invalid_projection_input_is_an_error() {
    let edges = grid_edges(2, 2);
    assert!(projector(4, &[[0, 4]], &[1.0]).is_err());
    assert!(projector(4, &edges, &[1.0, -1.0, 1.0, 1.0]).is_err());
    assert!(projector(4, &edges, &[1.0]).is_err());
    let mut p = projector(4, &edges, &[1.0; 4]).unwrap();
    assert!(p.project(&[1.0; 4], 0, 2, &params(5)).is_err());
    assert!(p.project(&[1.0; 4], 3, 2, &params(5)).is_err());
    assert!(p.project(&[1.0; 4], 1, 5, &params(5)).is_err());
    assert!(search(0).check().is_err());
    assert!(
        p.project(&[1.0, f64::NAN, 0.0, 0.0], 1, 2, &params(5))
            .is_err()
    );
    assert!(
        p.project(&[1e200, 0.0, 0.0, 0.0], 1, 2, &params(5))
            .is_err()
    );
    assert!(p.project(&[1.0; 3], 1, 2, &params(5)).is_err());
}

struct Normal(u64);
impl Normal {
    fn uniform(&mut self) -> f64 {
        let mut g = graphsparse_base::SplitMix64::new(self.0);
        let z = g.next_u64();
        self.0 = g.state();
        ((z >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    fn sample(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

const GRAPH01: [usize; 26] = [
    475, 505, 506, 507, 508, 509, 510, 511, 512, 539, 540, 541, 542, 543, 544, 545, 576, 609, 642,
    643, 644, 645, 646, 647, 679, 712,
];

#[test]
fn head_on_the_benchmark_grid_needs_one_pcst_run() {
    let edges = grid_edges(33, 33);
    assert_eq!(edges.len(), 2112);
    let mut proj = projector(1089, &edges, &vec![1.0; 2112]).unwrap();
    let mut rng = Normal(42);
    for _ in 0..5 {
        let w: Vec<f64> = (0..1089)
            .map(|i| rng.sample() + if GRAPH01.contains(&i) { 2.0 } else { 0.0 })
            .collect();
        let before = proj.n_pcst_runs();
        let head = proj.project(&w, 544, 598, &params(20)).unwrap();
        assert!((544..=598).contains(&head.nodes.len()));
        assert_eq!(head.n_iter, 1);
        assert_eq!(proj.n_pcst_runs() - before, 1);
        let tail = proj.project(&w, 26, 28, &params(20)).unwrap();
        assert!(tail.n_iter <= 20);
        assert!(tail.nodes.len() <= 28);
    }
}

fn random_graph(seed: u64, n: usize, m: usize) -> (Vec<[usize; 2]>, Vec<f64>) {
    let mut rng = Normal(seed);
    // a random spanning tree plus extra edges, so the graph is connected
    let mut edges: Vec<[usize; 2]> = (1..n)
        .map(|i| [(rng.uniform() * i as f64) as usize, i])
        .collect();
    for _ in 0..m {
        edges.push([
            (rng.uniform() * n as f64) as usize,
            (rng.uniform() * n as f64) as usize,
        ]);
    }
    let costs = edges.iter().map(|_| 0.5 + rng.uniform()).collect();
    (edges, costs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_projection_lands_in_range_or_falls_back(seed in 0u64..10_000, n in 2usize..40,
                                                   extra in 0usize..40, lo in 1usize..40,
                                                   width in 0usize..5, max_iter in 1usize..25,
                                                   zeros in 0.0f64..0.7) {
        let (edges, costs) = random_graph(seed, n, extra);
        let lo = lo.min(n);
        let hi = (lo + width).min(n);
        let mut rng = Normal(seed ^ 0xABCD);
        let w: Vec<f64> = (0..n).map(|_| if rng.uniform() < zeros { 0.0 } else { rng.sample() }).collect();
        let mut proj = projector(n, &edges, &costs).unwrap();
        let before = proj.n_pcst_runs();
        let got = proj.project(&w, lo, hi, &params(max_iter)).unwrap();
        let k = got.nodes.len();
        prop_assert!(got.n_iter <= max_iter);
        prop_assert!(proj.n_pcst_runs() - before <= max_iter as u64);
        if !(lo..=hi).contains(&k) {
            prop_assert_eq!(got.n_iter, max_iter);
        }
        // nodes ascending and distinct; every edge joins two support nodes; a forest
        prop_assert!(got.nodes.windows(2).all(|p| p[0] < p[1]));
        for &e in &got.edges {
            prop_assert!(got.nodes.binary_search(&edges[e][0]).is_ok());
            prop_assert!(got.nodes.binary_search(&edges[e][1]).is_ok());
        }
        prop_assert!(got.edges.len() < k.max(1));
        // deterministic and invariant under scaling w by a power of two (exact in floating point)
        let again = proj.project(&w, lo, hi, &params(max_iter)).unwrap();
        prop_assert_eq!(&again, &got);
        let scaled: Vec<f64> = w.iter().map(|x| x * 4.0).collect();
        let s = proj.project(&scaled, lo, hi, &params(max_iter)).unwrap();
        prop_assert_eq!(&s.nodes, &got.nodes);
        // sign flips change nothing (prizes are squares)
        let neg: Vec<f64> = w.iter().map(|x| -x).collect();
        prop_assert_eq!(proj.project(&neg, lo, hi, &params(max_iter)).unwrap(), got);
    }
}

#[test]
fn graph_da_iterates_live_on_the_tail_support() {
    let (h, wd) = (5, 6);
    let p = h * wd;
    let edges = grid_edges(h, wd);
    let costs = vec![1.0; edges.len()];
    let params = GraphProjectionParams::new(4)
        .head_sparsity(Some(12))
        .check()
        .unwrap();
    let graph = WeightedGraph::from_edges(p, &edges, Some(&costs), EdgeRules::MULTIGRAPH).unwrap();
    let mut m = GraphDa::new(graph, 5.0, &params, Loss::Logistic, 0.0).unwrap();
    assert_eq!(m.projection().head_range(), (12, 13));
    assert_eq!(m.projection().tail_range(), (4, 4));
    let mut rng = Normal(3);
    for t in 0..40 {
        let y = if t % 2 == 0 { 1.0 } else { -1.0 };
        let x: Vec<f64> = (0..p)
            .map(|i| rng.sample() + if i < 4 { 0.8 * y } else { 0.0 })
            .collect();
        m.partial_fit(&x, y).unwrap();
        let st = m.state();
        let tail = &m.projection().last_tail().nodes;
        assert_eq!(m.last_tail_support(), &tail[..]);
        // w is zero off the tail support and equal to κ·ḡ on its head-selected part
        let kappa = -((t + 1) as f64).sqrt() / 5.0;
        let head = &m.projection().last_head().nodes;
        for i in 0..p {
            let want = if tail.contains(&i) && head.contains(&i) {
                kappa * st.grad_avg[i]
            } else {
                0.0
            };
            assert_eq!(st.coef[i], want, "coordinate {i} at step {t}");
        }
        let nnz = st.coef[..p].iter().filter(|v| **v != 0.0).count();
        assert_eq!(
            nnz,
            tail.iter()
                .filter(|i| head.contains(i) && st.grad_avg[**i] != 0.0)
                .count()
        );
        assert_eq!(st.coef[p], kappa * st.grad_avg[p]);
    }
}

/// GraphDA's binary search written out plainly, every PCST run made on a fresh solver and the
/// fallback always run again at `λ_h`: the reference the projector's shortcuts (its reused
/// solver and buffers, the kept solution at `λ_h`, the early stops) must reproduce.
fn reference_search(
    graph: &WeightedGraph,
    w: &[f64],
    (s_low, s_high): (usize, usize),
    max_iter: usize,
    closest_on: bool,
) -> (Vec<usize>, Vec<usize>, usize) {
    use graphsparse_pcst::{PcstParams, PcstSolution, PcstSolver, Pruning};
    let pcst = PcstParams::new()
        .pruning(Pruning::Gw)
        .num_clusters(1)
        .eps(1e-10)
        .check()
        .unwrap();
    let prizes: Vec<f64> = w.iter().map(|x| x * x).collect();
    let run = |lambda: f64| {
        let mut sol = PcstSolution::default();
        PcstSolver::new()
            .solve_scaled_into(graph, &prizes, lambda, &pcst, &mut sol)
            .unwrap();
        sol
    };
    let dist = |k: usize| {
        if k < s_low {
            s_low - k
        } else {
            k.saturating_sub(s_high)
        }
    };
    let mut sorted = prizes.clone();
    sorted.sort_by(f64::total_cmp);
    let mut lambda_h = 2.0 * sorted[s_high - 1];
    if lambda_h == 0.0 {
        lambda_h = 2.0 * sorted[s_low - 1];
        if lambda_h == 0.0 {
            lambda_h = 2.0 * sorted[sorted.len() - 1];
        }
    }
    let mut best: Option<(usize, PcstSolution)> = None;
    let note = |sol: &PcstSolution, best: &mut Option<(usize, PcstSolution)>| {
        let d = dist(sol.nodes.len());
        if closest_on && best.as_ref().is_none_or(|b| d < b.0) {
            *best = Some((d, sol.clone()));
        }
    };
    let (mut lambda_l, mut it) = (0.0, 0);
    let mut sol;
    loop {
        it += 1;
        sol = run(lambda_h);
        note(&sol, &mut best);
        if !(sol.nodes.len() > s_high && it < max_iter) {
            break;
        }
        if lambda_h * 2.0 == lambda_h {
            it = max_iter;
            break;
        }
        lambda_h *= 2.0;
    }
    if it < max_iter && sol.nodes.len() >= s_low {
        return (sol.nodes, sol.edges, it);
    }
    while it < max_iter {
        it += 1;
        let lambda_m = (lambda_l + lambda_h) / 2.0;
        sol = run(lambda_m);
        note(&sol, &mut best);
        let k = sol.nodes.len();
        if s_low <= k && k <= s_high {
            return (sol.nodes, sol.edges, it);
        }
        let (low, high) = (lambda_l, lambda_h);
        if k > s_high {
            lambda_l = lambda_m;
        } else {
            lambda_h = lambda_m;
        }
        if lambda_l == low && lambda_h == high {
            it = max_iter;
        }
    }
    let mut sol = run(lambda_h);
    if let Some((d, b)) = best
        && dist(sol.nodes.len()) > d
    {
        sol = b;
    }
    (sol.nodes, sol.edges, it)
}

/// The graph (and its edge list), the sparsity range `[lo, hi]` (clamped to `n`) and the
/// fallback of a stream test.
fn stream_setup(
    seed: u64,
    n: usize,
    extra: usize,
    lo: usize,
    width: usize,
    closest: bool,
) -> (WeightedGraph, Vec<[usize; 2]>, usize, usize, Fallback) {
    let (edges, costs) = random_graph(seed, n, extra);
    let graph = WeightedGraph::from_edges(n, &edges, Some(&costs), EdgeRules::MULTIGRAPH).unwrap();
    let lo = lo.min(n);
    let hi = (lo + width).min(n);
    let fallback = if closest {
        Fallback::Closest
    } else {
        Fallback::LambdaHigh
    };
    (graph, edges, lo, hi, fallback)
}

/// One step of a slowly changing input stream, zeros included (the tail's input is sparse).
fn drift(w: &mut [f64], rng: &mut Normal, zeros: f64) {
    for x in w {
        *x = if rng.uniform() < zeros {
            0.0
        } else {
            0.8 * *x + 0.3 * rng.sample()
        };
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The projector (one per graph, reused across a stream of inputs, as the learners use it)
    /// returns what the plain search returns, for both fallbacks, on random graphs and weights.
    #[test]
    fn prop_projector_equals_the_plain_search(seed in 0u64..100_000, n in 2usize..60,
                                             extra in 0usize..60, lo in 1usize..30,
                                             width in 0usize..4, max_iter in 1usize..25,
                                             zeros in 0.0f64..0.8, steps in 1usize..6,
                                             closest in any::<bool>()) {
        let (graph, _, lo, hi, fallback) = stream_setup(seed, n, extra, lo, width, closest);
        let params = search(max_iter).fallback(fallback).check().unwrap();
        let mut proj = GraphProjector::new(graph.clone()).unwrap();
        let mut rng = Normal(seed ^ 0x5EED);
        let mut w: Vec<f64> = (0..n).map(|_| rng.sample()).collect();
        for _ in 0..steps {
            drift(&mut w, &mut rng, zeros);
            let got = proj.project(&w, lo, hi, &params).unwrap();
            let (nodes, edges_want, n_iter) = reference_search(&graph, &w, (lo, hi), max_iter, closest);
            prop_assert_eq!(&got.nodes, &nodes);
            prop_assert_eq!(&got.edges, &edges_want);
            prop_assert_eq!(got.n_iter, n_iter);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `LambdaStart::Previous` on a stream of slowly changing inputs: the first search of a
    /// range is the fixed one; every result keeps the search's guarantees (at most `max_iter`
    /// runs, a miss only once they are used up, a forest on ascending nodes); the stream is
    /// deterministic and invariant under scaling `w` by 4 (exact in floating point); and
    /// fixed-start searches on the same projector are unaffected by the kept state.
    #[test]
    fn prop_previous_start_keeps_the_search_guarantees(seed in 0u64..100_000, n in 2usize..60,
                                                      extra in 0usize..60, lo in 1usize..30,
                                                      width in 0usize..4, max_iter in 1usize..25,
                                                      zeros in 0.0f64..0.8, steps in 1usize..8,
                                                      closest in any::<bool>()) {
        let (graph, edges, lo, hi, fallback) = stream_setup(seed, n, extra, lo, width, closest);
        let fixed = search(max_iter).fallback(fallback).check().unwrap();
        let previous = search(max_iter)
            .fallback(fallback)
            .lambda_start(LambdaStart::Previous)
            .check()
            .unwrap();
        let mut proj = GraphProjector::new(graph.clone()).unwrap();
        let mut twin = GraphProjector::new(graph.clone()).unwrap();
        let mut scaled = GraphProjector::new(graph.clone()).unwrap();
        let mut rng = Normal(seed ^ 0x5EED);
        let mut w: Vec<f64> = (0..n).map(|_| rng.sample()).collect();
        for step in 0..steps {
            drift(&mut w, &mut rng, zeros);
            let before = proj.n_pcst_runs();
            let got = proj.project(&w, lo, hi, &previous).unwrap();
            prop_assert!(proj.n_pcst_runs() - before <= max_iter as u64);
            prop_assert!(got.n_iter <= max_iter);
            let k = got.nodes.len();
            prop_assert!(proj.n_pcst_runs() - before <= got.n_iter as u64);
            prop_assert!(got.nodes.windows(2).all(|p| p[0] < p[1]));
            for &e in &got.edges {
                prop_assert!(got.nodes.binary_search(&edges[e][0]).is_ok());
                prop_assert!(got.nodes.binary_search(&edges[e][1]).is_ok());
            }
            prop_assert!(got.edges.len() < k.max(1));
            let (nodes, edges_want, n_iter) =
                reference_search(&graph, &w, (lo, hi), max_iter, closest);
            if step == 0 {
                prop_assert_eq!(&got.nodes, &nodes);
                prop_assert_eq!(&got.edges, &edges_want);
                prop_assert_eq!(got.n_iter, n_iter);
            }
            prop_assert_eq!(&twin.project(&w, lo, hi, &previous).unwrap(), &got);
            let w4: Vec<f64> = w.iter().map(|x| 4.0 * x).collect();
            let s = scaled.project(&w4, lo, hi, &previous).unwrap();
            prop_assert_eq!(&s.nodes, &got.nodes);
            prop_assert_eq!(s.n_iter, got.n_iter);
            // a fixed-start search in between is the plain one and leaves the stream as is
            let f = twin.project(&w, lo, hi, &fixed).unwrap();
            prop_assert_eq!(&f.nodes, &nodes);
            prop_assert_eq!(&f.edges, &edges_want);
            prop_assert_eq!(f.n_iter, n_iter);
        }
    }
}

#[test]
fn previous_start_saves_tail_runs_on_the_benchmark_grid() {
    let edges = grid_edges(33, 33);
    let graph =
        WeightedGraph::from_edges(1089, &edges, Some(&vec![1.0; 2112]), EdgeRules::MULTIGRAPH)
            .unwrap();
    let previous = search(20)
        .lambda_start(LambdaStart::Previous)
        .check()
        .unwrap();
    let (mut cold, mut warm) = (
        GraphProjector::new(graph.clone()).unwrap(),
        GraphProjector::new(graph).unwrap(),
    );
    let mut rng = Normal(7);
    let signal = |i: usize| if GRAPH01.contains(&i) { 2.0 } else { 0.0 };
    let mut w: Vec<f64> = (0..1089).map(|i| rng.sample() + signal(i)).collect();
    let (mut in_range_cold, mut in_range_warm) = (0, 0);
    for _ in 0..30 {
        // a running average: each step moves the input a little
        for (i, x) in w.iter_mut().enumerate() {
            *x = 0.95 * *x + 0.05 * (rng.sample() + signal(i));
        }
        let c = cold.project(&w, 26, 28, &params(20)).unwrap();
        let h = warm.project(&w, 26, 28, &previous).unwrap();
        eprintln!(
            "cold {} {} warm {} {}",
            c.n_iter,
            c.nodes.len(),
            h.n_iter,
            h.nodes.len()
        );
        in_range_cold += usize::from((26..=28).contains(&c.nodes.len()));
        in_range_warm += usize::from((26..=28).contains(&h.nodes.len()));
    }
    let (runs_cold, runs_warm) = (cold.n_pcst_runs(), warm.n_pcst_runs());
    assert!(
        2 * runs_warm < runs_cold,
        "runs: previous {runs_warm}, fixed {runs_cold}"
    );
    assert!(
        in_range_warm >= in_range_cold,
        "in range: previous {in_range_warm}, fixed {in_range_cold}"
    );
}
