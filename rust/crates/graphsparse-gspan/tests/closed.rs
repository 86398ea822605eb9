//! Closed and maximal mining against filtering the brute-force frequent set by the definition.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use common::{
    Code, G, brute_min_code, brute_patterns, brute_single_vertices, connected_subgraphs, to_db,
    tuples,
};
use graphsparse_base::RunControl;
use graphsparse_gspan::{
    Check, DfsCode, MinerParams, MiningResult, Parallel, PatternGraph, PatternSet, min_dfs_code,
    mine_frequent,
};
use proptest::prelude::*;

fn arb_db() -> impl Strategy<Value = Vec<G>> {
    (1..=3u32, 1..=2u32)
        .prop_flat_map(|(nv, ne)| prop::collection::vec(common::arb_graph(6, 8, nv, ne), 1..=6))
}

/// The code's pattern as a compact graph.
fn graph_of(code: &Code) -> G {
    let n = code
        .iter()
        .map(|e| e[0].max(e[1]) as usize + 1)
        .max()
        .unwrap_or(0);
    let mut labels = vec![0; n];
    for e in code {
        labels[e[0] as usize] = e[2];
        labels[e[1] as usize] = e[4];
    }
    G {
        labels,
        edges: code.iter().map(|e| (e[0], e[1], e[3])).collect(),
    }
}

/// The patterns of `set` by the definition: the frequent patterns (brute force) with no
/// frequent super-pattern of equal support (closed) or none at all (maximal), the containment
/// found by listing every connected subgraph of the larger pattern.
#[allow(clippy::type_complexity)]
fn brute_set(
    graphs: &[G],
    min_support: usize,
    max_size: usize,
    single: bool,
    set: PatternSet,
) -> (BTreeMap<u32, Vec<u32>>, BTreeMap<Code, Vec<u32>>) {
    let full = brute_patterns(graphs, min_support, max_size);
    let subs: BTreeMap<&Code, BTreeSet<Code>> = full
        .keys()
        .map(|q| {
            let g = graph_of(q);
            let s = connected_subgraphs(&g, usize::MAX)
                .iter()
                .map(brute_min_code)
                .collect();
            (q, s)
        })
        .collect();
    let dominated = |support: usize, contained: &dyn Fn(&Code) -> bool| {
        full.iter().any(|(q, ids)| {
            contained(q)
                && match set {
                    PatternSet::Closed => ids.len() == support,
                    _ => true,
                }
        })
    };
    let edges = full
        .iter()
        .filter(|(p, ids)| {
            set == PatternSet::All
                || !dominated(ids.len(), &|q: &Code| {
                    q.len() > p.len() && subs[q].contains(*p)
                })
        })
        .map(|(p, ids)| (p.clone(), ids.clone()))
        .collect();
    let singles = if single {
        brute_single_vertices(graphs, min_support)
            .into_iter()
            .filter(|(l, ids)| {
                set == PatternSet::All
                    || !dominated(ids.len(), &|q: &Code| {
                        q.iter().any(|e| e[2] == *l || e[4] == *l)
                    })
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    (singles, edges)
}

#[allow(clippy::type_complexity)]
fn split(res: &MiningResult) -> (BTreeMap<u32, Vec<u32>>, BTreeMap<Code, Vec<u32>>) {
    let mut singles = BTreeMap::new();
    let mut edges = BTreeMap::new();
    for p in &res.patterns {
        match p.vertex_label {
            Some(l) => {
                singles.insert(l, p.graph_ids.clone());
            }
            None => {
                edges.insert(tuples(&p.code), p.graph_ids.clone());
            }
        }
    }
    (singles, edges)
}

fn mine(graphs: &[G], params: MinerParams) -> MiningResult {
    mine_frequent(&to_db(graphs), &params.check().unwrap(), &RunControl::new()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    /// Closed and maximal mining give exactly the brute-force filtered sets, in canonical
    /// order, with and without a size bound and single vertices.
    #[test]
    fn prop_closed_and_maximal_match_the_definition(
        graphs in arb_db(),
        frac in 0.0..1.0f64,
        max_size in prop::option::of(0usize..5),
        single in any::<bool>(),
        maximal in any::<bool>(),
    ) {
        let n = graphs.len();
        let min_support = 1 + ((n as f64 * frac) as usize).min(n - 1);
        let set = if maximal { PatternSet::Maximal } else { PatternSet::Closed };
        let params = MinerParams::new()
            .min_support(min_support)
            .max_size(max_size)
            .single_vertices(single)
            .pattern_set(set);
        let res = mine(&graphs, params);
        prop_assert!(res.stats.truncation.is_none());
        let (got_single, got) = split(&res);
        prop_assert_eq!(got_single.len() + got.len(), res.patterns.len(), "a pattern repeats");
        let (want_single, want) =
            brute_set(&graphs, min_support, max_size.unwrap_or(usize::MAX), single, set);
        prop_assert_eq!(got_single, want_single);
        prop_assert_eq!(got, want);
        let edge_patterns: Vec<_> = res.patterns.iter().filter(|p| p.vertex_label.is_none()).collect();
        for w in edge_patterns.windows(2) {
            prop_assert!(w[0].code < w[1].code);
        }
    }
}

/// 30 random graphs with few labels (many symmetric embeddings).
fn random_db(seed: u64, labels: u32) -> graphsparse_graph::GraphDatabase {
    graphsparse_graph::RandomGraphs {
        n_graphs: 30,
        vertices: (5, 9),
        vertex_labels: labels,
        edge_labels: 2,
        extra_edges: 2,
        seed,
    }
    .generate()
    .unwrap()
}

/// The closed (maximal) set is the full set filtered through one-edge extensions, whose
/// supports the full set holds: `p` is dominated iff some pattern one edge larger contains
/// it with equal support (is frequent). Checks the miner on databases too large for brute
/// force, and that early termination fires and saves nodes there.
#[test]
fn closed_and_maximal_equal_filtering_the_full_set() {
    let rc = RunControl::new();
    let mut saved = 0;
    let mut terminations = 0;
    for (seed, labels, support) in [(7, 1, 3), (11, 2, 2), (13, 3, 2)] {
        let db = random_db(seed, labels);
        let base = MinerParams::new().min_support(support).max_size(Some(6));
        let full = mine_frequent(&db, &base.clone().check().unwrap(), &rc).unwrap();
        // the full set one edge deeper, to see the extensions of the largest patterns
        let deeper = mine_frequent(&db, &base.clone().max_size(None).check().unwrap(), &rc);
        let deeper = deeper.unwrap();
        let (full_supers, deeper_supers) = (one_edge_supers(&full), one_edge_supers(&deeper));
        for set in [PatternSet::Closed, PatternSet::Maximal] {
            let bounded =
                mine_frequent(&db, &base.clone().pattern_set(set).check().unwrap(), &rc).unwrap();
            let unbounded = mine_frequent(
                &db,
                &base
                    .clone()
                    .max_size(None)
                    .pattern_set(set)
                    .check()
                    .unwrap(),
                &rc,
            )
            .unwrap();
            for (res, all, supers) in [
                (&bounded, &full, &full_supers),
                (&unbounded, &deeper, &deeper_supers),
            ] {
                let want: Vec<_> = all
                    .patterns
                    .iter()
                    .zip(supers.iter())
                    .filter(|(p, sup)| {
                        p.vertex_label.is_none()
                            && match set {
                                PatternSet::Closed => !sup.contains(&p.support()),
                                _ => sup.is_empty(),
                            }
                    })
                    .map(|(p, _)| p.clone())
                    .collect();
                assert_eq!(res.patterns, want, "seed {seed}, {set:?}");
            }
            eprintln!(
                "seed {seed} {set:?}: {} of {} patterns, {} of {} nodes, {} early terminations",
                unbounded.patterns.len(),
                deeper.patterns.len(),
                unbounded.stats.nodes_visited,
                deeper.stats.nodes_visited,
                unbounded.stats.early_terminations
            );
            assert!(unbounded.stats.nodes_visited <= deeper.stats.nodes_visited);
            saved += deeper.stats.nodes_visited - unbounded.stats.nodes_visited;
            terminations += unbounded.stats.early_terminations;
        }
    }
    // random graphs share little: most of their patterns are closed, and early termination
    // fires but cuts only leaves here (the molecules below are where it saves nodes)
    assert!(terminations > 0);
    let _ = saved;
}

/// For each pattern of `all`, the supports of the patterns of `all` one edge larger that
/// contain it: each pattern minus one edge (and the vertex that edge alone held), when still
/// connected, canonicalised by `min_dfs_code`.
fn one_edge_supers(all: &MiningResult) -> Vec<Vec<usize>> {
    let index: HashMap<&DfsCode, usize> = all
        .patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| p.vertex_label.is_none())
        .map(|(k, p)| (&p.code, k))
        .collect();
    let mut supers = vec![Vec::new(); all.patterns.len()];
    for q in &all.patterns {
        let g = q.code.to_graph();
        if g.edges.len() < 2 {
            continue;
        }
        for drop in 0..g.edges.len() {
            let mut deg = vec![0; g.vertex_labels.len()];
            for (k, &[a, b]) in g.edges.iter().enumerate() {
                if k != drop {
                    deg[a as usize] += 1;
                    deg[b as usize] += 1;
                }
            }
            let keep: Vec<u32> = (0..deg.len() as u32)
                .filter(|&v| deg[v as usize] > 0)
                .collect();
            let pos: HashMap<u32, u32> = keep
                .iter()
                .enumerate()
                .map(|(i, &v)| (v, i as u32))
                .collect();
            let sub = PatternGraph {
                vertex_labels: keep.iter().map(|&v| g.vertex_labels[v as usize]).collect(),
                edges: g
                    .edges
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != drop)
                    .map(|(_, &[a, b])| [pos[&a], pos[&b]])
                    .collect(),
                edge_labels: g
                    .edge_labels
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != drop)
                    .map(|(_, &l)| l)
                    .collect(),
            };
            let Ok(code) = min_dfs_code(sub.as_graph_ref()) else {
                continue; // disconnected
            };
            let k = index[&code]; // every connected subgraph of a frequent pattern is listed
            supers[k].push(q.support());
        }
    }
    supers
}

/// The same patterns, in the same order, for 1, 2 and 3 threads and serially.
#[test]
fn closed_and_maximal_do_not_depend_on_the_thread_count() {
    let db = random_db(5, 2);
    let rc = RunControl::new();
    for set in [PatternSet::Closed, PatternSet::Maximal] {
        let params = MinerParams::new().min_support(4).pattern_set(set);
        let serial = mine_frequent(&db, &params.clone().check().unwrap(), &rc).unwrap();
        assert!(!serial.patterns.is_empty());
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let p = params
                .clone()
                .parallel(Parallel::Auto)
                .split_depth(4)
                .split_embeddings(8)
                .check()
                .unwrap();
            let par = pool.install(|| mine_frequent(&db, &p, &rc)).unwrap();
            assert_eq!(par.patterns, serial.patterns, "{set:?}, {threads} threads");
            assert_eq!(par.stats.nodes_visited, serial.stats.nodes_visited);
            assert_eq!(
                par.stats.early_terminations,
                serial.stats.early_terminations
            );
        }
    }
}

/// A node budget and cancellation stop closed mining as they stop the plain miner.
#[test]
fn budgets_and_cancellation_stop_closed_mining() {
    let db = random_db(5, 2);
    let params = MinerParams::new()
        .min_support(2)
        .pattern_set(PatternSet::Closed)
        .max_nodes(Some(50))
        .check()
        .unwrap();
    let res = mine_frequent(&db, &params, &RunControl::new()).unwrap();
    assert_eq!(res.stats.nodes_visited, 50);
    assert!(res.stats.truncation.is_some());
    let ctl = RunControl::new();
    ctl.cancel();
    let params = MinerParams::new()
        .min_support(2)
        .pattern_set(PatternSet::Maximal);
    let res = mine_frequent(&db, &params.check().unwrap(), &ctl).unwrap();
    assert!(res.stats.truncation.is_some());
    assert!(res.patterns.is_empty());
}

/// Hand-made cases where early termination must not cut: the extension that occurs in every
/// embedding can be taken by a larger pattern's own vertices.
#[test]
fn early_termination_failure_cases_keep_closed_patterns() {
    // graph 0: a path A-B-A; graph 1: a star A-B-A with a third A
    let graphs = vec![
        G {
            labels: vec![0, 1, 0],
            edges: vec![(0, 1, 0), (1, 2, 0)],
        },
        G {
            labels: vec![0, 1, 0, 0],
            edges: vec![(0, 1, 0), (1, 2, 0), (1, 3, 0)],
        },
        // a triangle B-A-A and a pendant: the backward edge occurs in every embedding of A-A-B
        G {
            labels: vec![1, 0, 0, 1],
            edges: vec![(0, 1, 0), (1, 2, 0), (2, 0, 0), (2, 3, 1)],
        },
    ];
    for set in [PatternSet::Closed, PatternSet::Maximal] {
        for min_support in 1..=3 {
            let res = mine(
                &graphs,
                MinerParams::new().min_support(min_support).pattern_set(set),
            );
            let (_, got) = split(&res);
            let (_, want) = brute_set(&graphs, min_support, usize::MAX, false, set);
            assert_eq!(got, want, "{set:?} at support {min_support}");
        }
    }
}

#[test]
fn pattern_set_names() {
    assert_eq!(PatternSet::default(), PatternSet::All);
    assert_eq!(PatternSet::Closed.as_str(), "closed");
    assert_eq!(PatternSet::Maximal.as_str(), "maximal");
    assert_eq!(PatternSet::All.as_str(), "all");
    let p = MinerParams::new()
        .pattern_set(PatternSet::Maximal)
        .check()
        .unwrap();
    assert_eq!(p.pattern_set(), PatternSet::Maximal);
}

fn mutag() -> Option<graphsparse_graph::GraphDatabase> {
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../shared/data/tu/MUTAG");
    if !p.exists() {
        eprintln!("skipping: {} not found", p.display());
        return None;
    }
    Some(graphsparse_graph::read_tu(p, None).unwrap().db)
}

/// On MUTAG, closed and maximal mining (parallel, unbounded size) equal the full set filtered
/// through its one-edge extensions, single vertices included, and early termination visits
/// fewer nodes than the full search.
fn check_mutag(min_support: usize) {
    let Some(db) = mutag() else { return };
    let rc = RunControl::new();
    let base = MinerParams::new()
        .min_support(min_support)
        .parallel(Parallel::Auto);
    let full = mine_frequent(&db, &base.clone().check().unwrap(), &rc).unwrap();
    let supers = one_edge_supers(&full);
    for set in [PatternSet::Closed, PatternSet::Maximal] {
        let res = mine_frequent(&db, &base.clone().pattern_set(set).check().unwrap(), &rc).unwrap();
        let want: Vec<_> = full
            .patterns
            .iter()
            .zip(&supers)
            .filter(|(p, sup)| match set {
                PatternSet::Closed => !sup.contains(&p.support()),
                _ => sup.is_empty(),
            })
            .map(|(p, _)| p.clone())
            .collect();
        assert_eq!(res.patterns, want, "{set:?}");
        eprintln!(
            "MUTAG {min_support} {set:?}: {} of {} patterns, {} of {} nodes, {} early terminations",
            res.patterns.len(),
            full.patterns.len(),
            res.stats.nodes_visited,
            full.stats.nodes_visited,
            res.stats.early_terminations
        );
        assert!(res.stats.nodes_visited < full.stats.nodes_visited);
    }
}

#[test]
fn mutag_56_closed_and_maximal() {
    check_mutag(56);
}

#[test]
fn mutag_19_closed_and_maximal() {
    check_mutag(19);
}
