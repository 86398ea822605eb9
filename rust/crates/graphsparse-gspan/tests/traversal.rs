//! Traversal properties: tree structure, metamorphic invariance, serial == parallel, pruning,
//! budgets and cancellation.

mod common;

use graphsparse_base::{InputError, RunControl, SplitMix64};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Code, G, arb_graph, to_db, tuples};
use graphsparse_gspan::{
    Check, DfsCode, GspanError, MinerParams, MinerValidParams, Node, Parallel, ParallelVisitor,
    Truncation, Visit, Visitor, mine, mine_frequent,
};
use proptest::prelude::*;

fn arb_db() -> impl Strategy<Value = Vec<G>> {
    (1..=3u32, 1..=3u32)
        .prop_flat_map(|(nv, ne)| prop::collection::vec(arb_graph(6, 9, nv, ne), 1..=5))
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

fn no_cancel() -> RunControl {
    RunControl::new()
}

/// `p` with the parallel policy.
fn in_parallel(p: &MinerValidParams) -> MinerValidParams {
    p.clone()
        .into_params()
        .parallel(Parallel::Auto)
        .check()
        .unwrap()
}

/// Checks the tree: a child's code extends its parent's by one edge and its graph ids are a
/// subset of the parent's (anti-monotonicity); every `pre` has its `post`.
#[derive(Default)]
struct TreeCheck {
    stack: Vec<(DfsCode, Vec<u32>)>,
    errors: Vec<String>,
    pre: usize,
    post: usize,
}

impl Visitor for TreeCheck {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        self.pre += 1;
        let code = node.code();
        if node.vertex_label().is_some() {
            if !code.is_empty() || !self.stack.is_empty() {
                self.errors.push("single vertex inside the tree".into());
            }
        } else if let Some((parent, ids)) = self.stack.last() {
            if code.len() != parent.len() + 1 || code.edges()[..parent.len()] != *parent.edges() {
                self.errors.push(format!("{code} does not extend {parent}"));
            }
            if !node
                .graph_ids()
                .iter()
                .all(|g| ids.binary_search(g).is_ok())
            {
                self.errors
                    .push(format!("support of {code} is not a subset of its parent's"));
            }
        } else if code.len() != 1 {
            self.errors.push(format!("{code} at the top level"));
        }
        if node.graph_ids().windows(2).any(|w| w[0] >= w[1]) {
            self.errors.push(format!("graph ids of {code} not sorted"));
        }
        if node.embedding_counts().len() != node.support() || node.embedding_counts().contains(&0) {
            self.errors.push(format!("bad embedding counts for {code}"));
        }
        self.stack.push((code.clone(), node.graph_ids().to_vec()));
        Visit::Continue
    }

    fn post(&mut self, node: &Node<'_>) {
        self.post += 1;
        match self.stack.pop() {
            Some((c, _)) if c == *node.code() => {}
            _ => self
                .errors
                .push(format!("unbalanced post for {}", node.code())),
        }
    }
}

impl ParallelVisitor for TreeCheck {
    /// A fork checks its subtree below the node it was forked at.
    fn fork(&self) -> Self {
        Self {
            stack: self.stack.clone(),
            ..Self::default()
        }
    }
    fn join(&mut self, child: Self) {
        self.errors.extend(child.errors);
        self.pre += child.pre;
        self.post += child.post;
    }
}

/// Records every event; forks record into their own log, joined back in order.
#[derive(Default)]
struct Recorder {
    log: Vec<String>,
}

impl Visitor for Recorder {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        self.log
            .push(format!("pre {} {:?}", node.code(), node.graph_ids()));
        Visit::Continue
    }
    fn post(&mut self, node: &Node<'_>) {
        self.log.push(format!("post {}", node.code()));
    }
}

impl ParallelVisitor for Recorder {
    fn fork(&self) -> Self {
        Self {
            log: vec!["fork".into()],
        }
    }
    fn join(&mut self, mut child: Self) {
        self.log.push("join".into());
        self.log.append(&mut child.log);
    }
}

fn shuffle<T>(xs: &mut [T], rng: &mut SplitMix64) {
    for i in (1..xs.len()).rev() {
        xs.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_tree_structure_and_antimonotone_support(graphs in arb_db(), single in any::<bool>()) {
        let params = MinerParams::new().min_support(1).single_vertices(single).check().unwrap();
        let mut v = TreeCheck::default();
        let stats = mine(&to_db(&graphs), &params, &mut v, &no_cancel()).unwrap();
        prop_assert!(v.errors.is_empty(), "{:?}", v.errors);
        prop_assert_eq!(v.pre, v.post);
        prop_assert_eq!(v.pre as u64, stats.nodes_visited);
    }

    /// Renumbering the vertices of every graph and reordering the graphs changes nothing but
    /// the graph ids.
    #[test]
    fn prop_invariant_under_renumbering_and_graph_order(graphs in arb_db(), seed in 1u64..u64::MAX, frac in 0.0..1.0f64) {
        let n = graphs.len();
        let min_support = 1 + ((n as f64 * frac) as usize).min(n - 1);
        let params = MinerParams::new().min_support(min_support).single_vertices(true).check().unwrap();
        let mut seed = SplitMix64::new(seed);
        let mut order: Vec<usize> = (0..n).collect();
        shuffle(&mut order, &mut seed);
        let permuted: Vec<G> = order
            .iter()
            .map(|&g| {
                let src = &graphs[g];
                let mut perm: Vec<u32> = (0..src.labels.len() as u32).collect();
                shuffle(&mut perm, &mut seed);
                let mut labels = vec![0; src.labels.len()];
                for (v, &p) in perm.iter().enumerate() {
                    labels[p as usize] = src.labels[v];
                }
                let mut edges: Vec<(u32, u32, u32)> =
                    src.edges.iter().map(|&(a, b, l)| (perm[a as usize], perm[b as usize], l)).collect();
                shuffle(&mut edges, &mut seed);
                G { labels, edges }
            })
            .collect();
        let a = mine_frequent(&to_db(&graphs), &params, &no_cancel()).unwrap();
        let b = mine_frequent(&to_db(&permuted), &params, &no_cancel()).unwrap();
        prop_assert_eq!(a.patterns.len(), b.patterns.len());
        for (pa, pb) in a.patterns.iter().zip(&b.patterns) {
            prop_assert_eq!(&pa.code, &pb.code);
            prop_assert_eq!(pa.vertex_label, pb.vertex_label);
            let mut back: Vec<u32> = pb.graph_ids.iter().map(|&k| order[k as usize] as u32).collect();
            back.sort_unstable();
            prop_assert_eq!(&pa.graph_ids, &back);
        }
    }

    /// The parallel traversal gives the serial result, and every visitor sees the same event
    /// sequence, for 1, 2 and 3 threads and any split rule.
    #[test]
    fn prop_parallel_equals_serial(graphs in arb_db(), split_depth in 0usize..4, split_embeddings in 1usize..40) {
        let params = MinerParams::new()
            .min_support(1)
            .single_vertices(true)
            .split_depth(split_depth)
            .split_embeddings(split_embeddings)
            .check()
            .unwrap();
        let db = to_db(&graphs);
        let serial = mine_frequent(&db, &params, &no_cancel()).unwrap();
        let mut reference_log: Option<Vec<String>> = None;
        for threads in 1..=3 {
            let par = pool(threads).install(|| mine_frequent(&db, &in_parallel(&params), &no_cancel())).unwrap();
            prop_assert_eq!(&par.patterns, &serial.patterns);
            prop_assert_eq!(par.stats.nodes_visited, serial.stats.nodes_visited);
            prop_assert_eq!(par.stats.non_minimal, serial.stats.non_minimal);
            let mut rec = Recorder::default();
            pool(threads).install(|| mine(&db, &in_parallel(&params), &mut rec, &no_cancel())).unwrap();
            match &reference_log {
                None => reference_log = Some(rec.log),
                Some(log) => prop_assert_eq!(log, &rec.log),
            }
        }
        // with forks and joins removed, the log is the serial pre/post sequence
        let mut serial_rec = Recorder::default();
        mine(&db, &params, &mut serial_rec, &no_cancel()).unwrap();
        let flat: Vec<String> = reference_log
            .unwrap()
            .into_iter()
            .filter(|e| e != "fork" && e != "join")
            .collect();
        prop_assert_eq!(flat, serial_rec.log);
    }

    /// Pruning every node of `k` edges is the same as `max_size = k`.
    #[test]
    fn prop_prune_is_max_size(graphs in arb_db(), k in 1usize..4) {
        struct PruneAt(usize, Vec<Code>);
        impl Visitor for PruneAt {
            fn pre(&mut self, node: &Node<'_>) -> Visit {
                self.1.push(tuples(node.code()));
                if node.depth() >= self.0 { Visit::Prune } else { Visit::Continue }
            }
        }
        impl ParallelVisitor for PruneAt {
            fn fork(&self) -> Self { PruneAt(self.0, Vec::new()) }
            fn join(&mut self, child: Self) { self.1.extend(child.1); }
        }
        let db = to_db(&graphs);
        let params = MinerParams::new().min_support(1).check().unwrap();
        let mut v = PruneAt(k, Vec::new());
        let stats = mine(&db, &params, &mut v, &no_cancel()).unwrap();
        let limited = MinerParams::new().min_support(1).max_size(Some(k)).check().unwrap();
        let want = mine_frequent(&db, &limited, &no_cancel()).unwrap();
        let want_codes: Vec<Code> = want.patterns.iter().map(|p| tuples(&p.code)).collect();
        prop_assert_eq!(&v.1, &want_codes);
        let at_k = want.patterns.iter().filter(|p| p.code.len() == k).count() as u64;
        prop_assert_eq!(stats.nodes_pruned, at_k);
    }

    /// A node budget visits a prefix of the canonical order and says so.
    #[test]
    fn prop_max_nodes_gives_a_prefix(graphs in arb_db(), budget in 0u64..30) {
        let db = to_db(&graphs);
        let full = mine_frequent(&db, &MinerParams::new().single_vertices(true).check().unwrap(), &no_cancel()).unwrap();
        let params = MinerParams::new().single_vertices(true).max_nodes(Some(budget)).check().unwrap();
        let cut = mine_frequent(&db, &params, &no_cancel()).unwrap();
        let total = full.patterns.len() as u64;
        prop_assert_eq!(cut.stats.nodes_visited, budget.min(total));
        prop_assert_eq!(&cut.patterns[..], &full.patterns[..budget.min(total) as usize]);
        let want = if budget < total { Some(Truncation::MaxNodes) } else { None };
        prop_assert_eq!(cut.stats.truncation, want);
        // the parallel traversal stops too, with exactly the budget visited
        let par = pool(2).install(|| mine_frequent(&db, &in_parallel(&params), &no_cancel())).unwrap();
        prop_assert_eq!(par.stats.nodes_visited, budget.min(total));
        prop_assert_eq!(par.patterns.len() as u64, budget.min(total));
        prop_assert_eq!(par.stats.truncation, want);
    }
}

/// Many small random graphs with one label each: the tree explodes, so budgets must act.
fn explosive_db() -> graphsparse_graph::GraphDatabase {
    let mut graphs = Vec::new();
    let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..12 {
        let n = 14u32;
        let mut edges = Vec::new();
        for v in 1..n {
            edges.push((rng.below(u64::from(v)) as u32, v, 0));
        }
        for v in 0..n {
            let w = (v + 5) % n;
            if !edges
                .iter()
                .any(|&(a, b, _)| (a, b) == (v, w) || (a, b) == (w, v))
            {
                edges.push((v, w, 0));
            }
        }
        graphs.push(G {
            labels: vec![0; n as usize],
            edges,
        });
    }
    to_db(&graphs)
}

#[test]
fn time_limit_stops_and_reports() {
    let db = explosive_db();
    let params = MinerParams::new()
        .min_support(2)
        .time_limit(Some(Duration::from_millis(150)))
        .check()
        .unwrap();
    let t0 = Instant::now();
    let res = mine_frequent(&db, &params, &no_cancel()).unwrap();
    assert_eq!(res.stats.truncation, Some(Truncation::TimeLimit));
    assert!(!res.patterns.is_empty());
    assert!(
        t0.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t0.elapsed()
    );
    let res = pool(2)
        .install(|| mine_frequent(&db, &in_parallel(&params), &no_cancel()))
        .unwrap();
    assert_eq!(res.stats.truncation, Some(Truncation::TimeLimit));

    let zero = MinerParams::new()
        .time_limit(Some(Duration::ZERO))
        .single_vertices(true)
        .check()
        .unwrap();
    let res = mine_frequent(&db, &zero, &no_cancel()).unwrap();
    assert_eq!(res.stats.truncation, Some(Truncation::TimeLimit));
    assert!(res.patterns.is_empty());
}

/// Mines `db` serially and on two threads, raising the cancellation flag from another thread
/// after `delay`; checks each run says it was cancelled and returns how long after the flag
/// each stopped.
fn stop_latency(
    db: &graphsparse_graph::GraphDatabase,
    params: &MinerValidParams,
    delay: Duration,
) -> [Duration; 2] {
    [false, true].map(|parallel| {
        let cancel = Arc::new(RunControl::new());
        std::thread::scope(|s| {
            let flag = Arc::clone(&cancel);
            let handle = s.spawn(move || {
                std::thread::sleep(delay);
                flag.cancel();
                Instant::now()
            });
            let res = if parallel {
                pool(2)
                    .install(|| mine_frequent(db, &in_parallel(params), &cancel))
                    .unwrap()
            } else {
                mine_frequent(db, params, &cancel).unwrap()
            };
            let done = Instant::now();
            let raised_at = handle.join().unwrap();
            assert_eq!(res.stats.truncation, Some(Truncation::Cancelled));
            done.saturating_duration_since(raised_at)
        })
    })
}

#[test]
fn cancellation_from_another_thread_stops_quickly() {
    let db = explosive_db();
    let params = MinerParams::new().min_support(2).check().unwrap();
    for late in stop_latency(&db, &params, Duration::from_millis(100)) {
        assert!(
            late < Duration::from_millis(500),
            "stopped {late:?} after the flag"
        );
    }
    let preset = RunControl::new();
    preset.cancel();
    let res = mine_frequent(&db, &params, &preset).unwrap();
    assert_eq!(res.stats.truncation, Some(Truncation::Cancelled));
    assert!(res.patterns.is_empty());
}

#[test]
fn truncated_traversal_keeps_pre_post_balanced() {
    let db = explosive_db();
    let params = MinerParams::new()
        .min_support(2)
        .max_nodes(Some(500))
        .check()
        .unwrap();
    let mut v = TreeCheck::default();
    let stats = mine(&db, &params, &mut v, &no_cancel()).unwrap();
    assert_eq!(stats.truncation, Some(Truncation::MaxNodes));
    assert_eq!(v.pre, 500);
    assert_eq!(v.pre, v.post);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
}

#[test]
fn parameter_errors() {
    assert_eq!(
        MinerParams::new().min_support(0).check(),
        Err(GspanError::Input(InputError::OutOfRange {
            arg: "min_support",
            value: 0f64.to_bits(),
            range: ">= 1 (an absolute number of graphs)",
        }))
    );
    assert!(matches!(
        MinerParams::new().split_embeddings(0).check(),
        Err(GspanError::Input(e)) if e.arg() == "split_embeddings"
    ));
    let p = MinerParams::new()
        .min_support(3)
        .max_size(Some(2))
        .check()
        .unwrap();
    assert_eq!((p.min_support(), p.max_size()), (3, Some(2)));
    assert_eq!(p.clone().into_params().check().unwrap(), p);
}

#[test]
fn hand_example_triangle_with_tail() {
    // graph 0: triangle a-a-b with a tail b-c; graph 1: the path a-a-b
    let graphs = vec![
        G {
            labels: vec![0, 0, 1, 2],
            edges: vec![(0, 1, 0), (1, 2, 0), (2, 0, 0), (2, 3, 1)],
        },
        G {
            labels: vec![0, 0, 1],
            edges: vec![(0, 1, 0), (1, 2, 0)],
        },
    ];
    let params = MinerParams::new().min_support(2).check().unwrap();
    let res = mine_frequent(&to_db(&graphs), &params, &no_cancel()).unwrap();
    let got: Vec<(String, Vec<u32>)> = res
        .patterns
        .iter()
        .map(|p| (p.code.to_string(), p.graph_ids.clone()))
        .collect();
    let want = vec![
        ("(0,1,0,0,0)".to_string(), vec![0, 1]),
        ("(0,1,0,0,0) (1,2,0,0,1)".to_string(), vec![0, 1]),
        ("(0,1,0,0,1)".to_string(), vec![0, 1]),
    ];
    assert_eq!(got, want);
    // with support 1 the triangle and the tail appear; the triangle's minimum code:
    let all = mine_frequent(
        &to_db(&graphs),
        &MinerParams::new().check().unwrap(),
        &no_cancel(),
    )
    .unwrap();
    let codes: BTreeMap<String, usize> = all
        .patterns
        .iter()
        .map(|p| (p.code.to_string(), p.support()))
        .collect();
    assert_eq!(codes.get("(0,1,0,0,0) (1,2,0,0,1) (2,0,1,0,0)"), Some(&1));
    assert_eq!(codes.get("(0,1,1,1,2)"), Some(&1));
    assert_eq!(all.patterns.len(), 10);
}

/// Records every node `(code, graph ids, embedding counts)`; nodes of `cut` edges are pruned
/// and their embeddings kept.
#[derive(Default)]
struct CutAt {
    cut: usize,
    seen: Vec<(DfsCode, Vec<u32>, Vec<u32>)>,
    kept: Vec<graphsparse_gspan::Embeddings>,
}

impl Visitor for CutAt {
    fn pre(&mut self, node: &Node<'_>) -> Visit {
        self.seen.push((
            node.code().clone(),
            node.graph_ids().to_vec(),
            node.embedding_counts().to_vec(),
        ));
        if node.depth() == self.cut {
            let e = node.embeddings().expect("edge patterns have embeddings");
            assert_eq!(e.code(), node.code());
            assert_eq!(e.graph_ids(), node.graph_ids());
            assert_eq!(e.len() as u32, node.embedding_counts().iter().sum::<u32>());
            assert!(e.bytes() >= 8 * e.len());
            self.kept.push(e);
            Visit::Prune
        } else {
            Visit::Continue
        }
    }
}

impl ParallelVisitor for CutAt {
    fn fork(&self) -> Self {
        CutAt {
            cut: self.cut,
            ..CutAt::default()
        }
    }
    fn join(&mut self, child: Self) {
        self.seen.extend(child.seen);
        self.kept.extend(child.kept);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Pruning every node of `cut` edges, keeping its embeddings and resuming below each of
    /// them visits, in total and in order, exactly the nodes of the full traversal.
    #[test]
    fn prop_resuming_from_stored_embeddings_equals_the_full_traversal(
        graphs in arb_db(), cut in 1usize..4, min_support in 1usize..3, parallel in any::<bool>(),
    ) {
        use graphsparse_gspan::{MiningIndex, mine_below};
        let db = to_db(&graphs);
        let params = MinerParams::new().min_support(min_support).max_size(Some(5))
            .split_depth(8).split_embeddings(1).check().unwrap();
        let mut full = CutAt { cut: usize::MAX, ..CutAt::default() };
        mine(&db, &params, &mut full, &no_cancel()).unwrap();
        let mut first = CutAt { cut, ..CutAt::default() };
        mine(&db, &params, &mut first, &no_cancel()).unwrap();
        let index = MiningIndex::new(&db, &params).unwrap();
        let ctl = no_cancel();
        let meter = params.budget().start(&ctl);
        // the full pre-order is the pruned one with each kept node's subtree right after it
        let mut resumed = Vec::new();
        let kept = std::mem::take(&mut first.kept);
        for node in first.seen {
            let at = kept.iter().find(|e| *e.code() == node.0);
            resumed.push(node);
            if let Some(e) = at {
                let mut below = CutAt { cut: usize::MAX, ..CutAt::default() };
                let stats = if parallel {
                    pool(3).install(|| mine_below(&index, &in_parallel(&params), e, &mut below, &meter))
                } else {
                    mine_below(&index, &params, e, &mut below, &meter)
                }
                .unwrap();
                prop_assert_eq!(stats.nodes_visited as usize, below.seen.len());
                resumed.extend(below.seen);
            }
        }
        prop_assert_eq!(&resumed, &full.seen);
        // embeddings are tied to their index and parameters
        if let Some(e) = kept.first() {
            let other = MinerParams::new().min_support(min_support + 1).check().unwrap();
            let mut v = CutAt::default();
            prop_assert!(mine_below(&index, &other, e, &mut v, &meter).is_err());
            let mut bigger = graphs.clone();
            bigger.push(G { labels: vec![0, 0], edges: vec![(0, 1, 0)] });
            let other_index = MiningIndex::new(&to_db(&bigger), &params).unwrap();
            prop_assert!(mine_below(&other_index, &params, e, &mut v, &meter).is_err());
        }
    }
}

/// Two unlabelled complete graphs: every pattern is highly symmetric, so one minimum-code
/// check can enumerate thousands of automorphic embeddings; the check itself must poll.
#[test]
fn cancellation_reaches_the_minimum_code_checks_of_symmetric_patterns() {
    let k = |n: u32| G {
        labels: vec![0; n as usize],
        edges: (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v, 0)))
            .collect(),
    };
    let db = to_db(&[k(14), k(14)]);
    let params = MinerParams::new().min_support(2).check().unwrap();
    for late in stop_latency(&db, &params, Duration::from_millis(300)) {
        assert!(
            late < Duration::from_millis(500),
            "stopped {late:?} after the flag"
        );
    }
}
