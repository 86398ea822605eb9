//! Level-wise rounds over the parts of a split database find exactly what gSpan finds on the
//! whole, whatever the split, and the frontier survives a round trip through its parts.

mod common;

use std::collections::BTreeMap;

use common::{G, arb_graph, to_db, tuples};
use graphsparse_base::RunControl;
use graphsparse_gspan::{
    Check, DfsCode, DfsEdge, Embeddings, Frontier, LevelIndex, MinerParams, count_extensions,
    extend_frontier, mine_frequent,
};
use proptest::prelude::*;

type Found = BTreeMap<Vec<[u32; 5]>, (usize, Vec<u32>)>;

/// Mines `parts` (given as contiguous slices of `graphs`) in rounds with supports summed
/// across the parts; every pattern with its support and global graph ids.
fn mine_in_rounds(
    graphs: &[G],
    bounds: &[usize],
    min_support: usize,
    max_size: usize,
    threads: usize,
) -> Found {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let ctl = RunControl::new();
    let dbs: Vec<_> = bounds
        .windows(2)
        .map(|w| to_db(&graphs[w[0]..w[1]]))
        .collect();
    let index: Vec<_> = dbs.iter().map(|db| LevelIndex::new(db).unwrap()).collect();
    let mut frontiers: Vec<Frontier> = dbs.iter().map(|_| Frontier::root()).collect();
    let mut found = Found::new();
    for _size in 1..=max_size {
        // supports added over the parts, by code
        let mut total: BTreeMap<DfsCode, usize> = BTreeMap::new();
        for ((db, ix), f) in dbs.iter().zip(&index).zip(&frontiers) {
            let level = pool.install(|| count_extensions(db, ix, f, &ctl).unwrap());
            assert!(level.truncation.is_none());
            let codes: Vec<DfsCode> = level.extensions.iter().map(|x| x.code(f)).collect();
            assert!(codes.windows(2).all(|w| w[0] < w[1]));
            for (code, x) in codes.into_iter().zip(&level.extensions) {
                assert!(x.support >= 1);
                *total.entry(code).or_default() += x.support;
            }
        }
        let frequent: Vec<DfsCode> = total
            .into_iter()
            .filter(|(c, s)| *s >= min_support && c.is_min())
            .map(|(c, _)| c)
            .rev() // any order: positions map back
            .collect();
        if frequent.is_empty() {
            break;
        }
        for (k, ((db, ix), f)) in dbs.iter().zip(&index).zip(frontiers.iter_mut()).enumerate() {
            // each part names the parent by its own frontier index
            let keep: Vec<(usize, DfsEdge)> = frequent
                .iter()
                .map(|c| {
                    let (prefix, last) = c.edges().split_at(c.len() - 1);
                    // the root is parent 0
                    let parent = if f.size() == 0 {
                        0
                    } else {
                        f.patterns()
                            .iter()
                            .position(|p| p.code().edges() == prefix)
                            .unwrap_or(usize::MAX)
                    };
                    (parent, last[0])
                })
                .collect();
            let (next, at) = pool.install(|| extend_frontier(db, ix, f, &keep, &ctl).unwrap());
            for (emb, &a) in next.patterns().iter().zip(&at) {
                assert_eq!(emb.code(), &frequent[a]);
                let entry = found.entry(tuples(emb.code())).or_default();
                entry.0 += emb.graph_ids().len();
                entry
                    .1
                    .extend(emb.graph_ids().iter().map(|&g| g + bounds[k] as u32));
            }
            *f = next;
        }
    }
    found
}

fn whole(graphs: &[G], min_support: usize, max_size: usize) -> Found {
    let params = MinerParams::new()
        .min_support(min_support)
        .max_size(Some(max_size))
        .check()
        .unwrap();
    let res = mine_frequent(&to_db(graphs), &params, &RunControl::new()).unwrap();
    res.patterns
        .into_iter()
        .map(|p| (tuples(&p.code), (p.graph_ids.len(), p.graph_ids)))
        .collect()
}

fn arb_split() -> impl Strategy<Value = (Vec<G>, Vec<usize>, usize)> {
    (1..=3u32, 1..=3u32)
        .prop_flat_map(|(nv, ne)| prop::collection::vec(arb_graph(6, 9, nv, ne), 1..=8))
        .prop_flat_map(|graphs| {
            let n = graphs.len();
            (Just(graphs), prop::collection::vec(0..=n, 0..=5), 1..=n)
        })
        .prop_map(|(graphs, mut cuts, s)| {
            cuts.push(0);
            cuts.push(graphs.len());
            cuts.sort_unstable(); // repeated cuts make empty parts
            (graphs, cuts, s)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rounds_over_any_split_are_gspan_on_the_whole((graphs, bounds, s) in arb_split()) {
        let got = mine_in_rounds(&graphs, &bounds, s, 9, 1);
        prop_assert_eq!(got, whole(&graphs, s, 9));
    }

    #[test]
    fn rounds_do_not_depend_on_the_thread_count((graphs, bounds, s) in arb_split()) {
        prop_assert_eq!(
            mine_in_rounds(&graphs, &bounds, s, 4, 1),
            mine_in_rounds(&graphs, &bounds, s, 4, 3)
        );
    }
}

/// A frontier rebuilt from its parts extends exactly as the original.
#[test]
fn a_frontier_survives_its_parts() {
    let graphs: Vec<G> = (0..6u32)
        .map(|k| G {
            labels: vec![0, 1, 0, 1, k % 2],
            edges: vec![(0, 1, 0), (1, 2, 0), (2, 3, 1), (3, 0, 0), (3, 4, k % 3)],
        })
        .collect();
    let db = to_db(&graphs);
    let ix = LevelIndex::new(&db).unwrap();
    let ctl = RunControl::new();
    let mut f = Frontier::root();
    for _ in 0..3 {
        let level = count_extensions(&db, &ix, &f, &ctl).unwrap();
        let keep: Vec<(usize, DfsEdge)> = level
            .extensions
            .iter()
            .map(|x| (x.parent, x.edge))
            .collect();
        f = extend_frontier(&db, &ix, &f, &keep, &ctl).unwrap().0;
    }
    assert!(!f.patterns().is_empty());
    let rebuilt: Vec<Embeddings> = f
        .patterns()
        .iter()
        .map(|e| {
            let pairs: Vec<u32> = e.pairs().flatten().collect();
            Embeddings::from_parts(
                ix.mining_index(),
                e.code().clone(),
                &pairs,
                e.level_starts().to_vec(),
                e.graph_ids().to_vec(),
            )
            .unwrap()
        })
        .collect();
    let again = Frontier::new(f.size(), rebuilt).unwrap();
    assert_eq!(again, f);
    assert_eq!(
        count_extensions(&db, &ix, &again, &ctl).unwrap(),
        count_extensions(&db, &ix, &f, &ctl).unwrap()
    );
}

/// Parts that are not the embeddings of their code in the database are refused.
#[test]
fn bad_parts_are_refused() {
    let graphs = vec![G {
        labels: vec![0, 0, 1],
        edges: vec![(0, 1, 0), (1, 2, 0)],
    }];
    let db = to_db(&graphs);
    let ix = LevelIndex::new(&db).unwrap();
    let ctl = RunControl::new();
    let root = Frontier::root();
    let level = count_extensions(&db, &ix, &root, &ctl).unwrap();
    let keep: Vec<(usize, DfsEdge)> = level
        .extensions
        .iter()
        .map(|x| (x.parent, x.edge))
        .collect();
    let (f, _) = extend_frontier(&db, &ix, &root, &keep, &ctl).unwrap();
    let e = &f.patterns()[0];
    let pairs: Vec<u32> = e.pairs().flatten().collect();
    let rebuild = |pairs: &[u32], starts: Vec<u32>, gids: Vec<u32>| {
        Embeddings::from_parts(ix.mining_index(), e.code().clone(), pairs, starts, gids)
    };
    assert!(rebuild(&pairs, e.level_starts().to_vec(), vec![0]).is_ok());
    // a vertex beyond the database, a graph with no embedding, a wrong level count
    assert!(rebuild(&[0, 99], vec![0, 1], vec![0]).is_err());
    assert!(rebuild(&pairs, e.level_starts().to_vec(), vec![0, 1]).is_err());
    assert!(rebuild(&pairs, vec![0, 1, 2], vec![0]).is_err());
    assert!(rebuild(&pairs, e.level_starts().to_vec(), vec![]).is_err());
    // frontiers must hold one size, in increasing code order
    let two = vec![e.clone(), e.clone()];
    assert!(Frontier::new(1, two).is_err());
    assert!(Frontier::new(2, vec![e.clone()]).is_err());
    assert!(Frontier::new(0, vec![]).is_err());
}
