//! The matcher and the learners on a directed database: matching a mined directed pattern finds
//! exactly the graphs the miner reported, and reversing every arc changes what matches.

use graphsparse_graph::{GraphDatabase, RandomGraphs};
use graphsparse_gspan::{MinerParams, mine_frequent};
use graphsparse_subgraph::{Check, Parallel, RunControl, match_patterns};

fn random_db(seed: u64) -> GraphDatabase {
    RandomGraphs {
        n_graphs: 40,
        vertices: (4, 7),
        vertex_labels: 2,
        edge_labels: 2,
        extra_edges: 2,
        seed,
    }
    .generate()
    .unwrap()
}

/// The same graphs with every arc turned round.
fn reversed(db: &GraphDatabase) -> GraphDatabase {
    let edges = db.edges().iter().map(|&[u, v]| [v, u]).collect();
    GraphDatabase::new(
        db.node_ptr().to_vec(),
        db.node_labels().to_vec(),
        db.edge_ptr().to_vec(),
        edges,
        db.edge_labels().to_vec(),
    )
    .unwrap()
    .into_directed()
    .unwrap()
}

#[test]
fn matcher_finds_the_graphs_of_mined_directed_patterns() {
    for seed in [1, 2, 3] {
        let db = random_db(seed).into_directed().unwrap();
        let params = MinerParams::new()
            .min_support(3)
            .max_size(Some(4))
            .check()
            .unwrap();
        let res = mine_frequent(&db, &params, &RunControl::new()).unwrap();
        let codes: Vec<_> = res.patterns.iter().map(|p| p.code.clone()).collect();
        assert!(codes.iter().any(|c| c.len() >= 3));
        let found = match_patterns(&db, &codes, Parallel::Serial);
        for (p, ids) in res.patterns.iter().zip(&found) {
            assert_eq!(ids, &p.graph_ids, "pattern {}", p.code);
        }
        // a pattern with an arc against the path direction exists, and on the reversed graphs
        // the matcher answers with the graphs of the reversed pattern, not the same ones
        let back = reversed(&db);
        let on_back = match_patterns(&back, &codes, Parallel::Serial);
        assert_ne!(on_back, found);
        let back_res = mine_frequent(&back, &params, &RunControl::new()).unwrap();
        assert_eq!(back_res.patterns.len(), res.patterns.len());
    }
}
