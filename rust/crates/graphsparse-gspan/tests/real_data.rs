//! Pattern counts on the real datasets in `../shared/data` (skipped when absent).
//!
//! Counts are connected patterns with at least one edge and absolute support, as reported by
//! gSpan and gBolt on the same files. The slow ones are `#[ignore]`d; run them with
//! `cargo test --profile dev-release -p graphsparse-gspan --test real_data -- --include-ignored`.

use graphsparse_base::RunControl;
use std::path::PathBuf;

use graphsparse_graph::{GraphDatabase, read_gspan, read_tu};
use graphsparse_gspan::{Check, MinerParams, MinerValidParams, Parallel, mine_frequent};

fn data(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../shared/data")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipping: {} not found", p.display());
        None
    }
}

fn mutag() -> Option<GraphDatabase> {
    data("tu/MUTAG").map(|p| read_tu(p, None).unwrap().db)
}

fn cpdb() -> Option<GraphDatabase> {
    data("molecules/CPDB/mutagen.gsp").map(|p| read_gspan(p).unwrap().db)
}

fn count(db: &GraphDatabase, min_support: usize) -> usize {
    let params = MinerParams::new().min_support(min_support).check().unwrap();
    let res = mine_frequent(db, &params, &RunControl::new()).unwrap();
    assert!(res.stats.truncation.is_none());
    assert!(res.patterns.windows(2).all(|w| w[0].code < w[1].code));
    assert!(res.patterns.iter().all(|p| p.support() >= min_support));
    res.patterns.len()
}

#[test]
fn mutag_56() {
    let Some(db) = mutag() else { return };
    assert_eq!(count(&db, 56), 638);
}

#[test]
fn cpdb_68_and_34() {
    let Some(db) = cpdb() else { return };
    assert_eq!(count(&db, 68), 324);
    assert_eq!(count(&db, 34), 1085);
}

#[test]
fn mutag_parallel_equals_serial() {
    let Some(db) = mutag() else { return };
    let params = MinerParams::new()
        .min_support(56)
        .single_vertices(true)
        .check()
        .unwrap();
    let serial = serial_equals_parallel(&db, &params, &[2, 3]);
    // 7 vertex labels in MUTAG, of which 3 occur in at least 56 graphs (C, N, O)
    assert_eq!(
        serial
            .patterns
            .iter()
            .filter(|p| p.vertex_label.is_some())
            .count(),
        3
    );
}

/// Pattern counts at lower supports, as `(data set, min_support, count)`.
#[test]
#[ignore = "slow in debug builds; run with --include-ignored"]
fn counts_at_low_support() {
    for (name, load, support, want) in [
        ("CPDB", cpdb as fn() -> Option<GraphDatabase>, 14, 6820),
        ("MUTAG", mutag, 19, 40_220),
        ("CPDB", cpdb, 7, 54_127),
    ] {
        let Some(db) = load() else { continue };
        assert_eq!(count(&db, support), want, "{name} at {support}");
    }
}

#[test]
#[ignore = "slow in debug builds; run with --include-ignored"]
fn mutag_19_parallel() {
    let Some(db) = mutag() else { return };
    let params = MinerParams::new().min_support(19).check().unwrap();
    serial_equals_parallel(&db, &params, &[2]);
}

/// Mines `db` serially and on pools of each thread count; asserts the same patterns.
fn serial_equals_parallel(
    db: &GraphDatabase,
    params: &MinerValidParams,
    threads: &[usize],
) -> graphsparse_gspan::MiningResult {
    let serial = mine_frequent(db, params, &RunControl::new()).unwrap();
    let parallel = params
        .clone()
        .into_params()
        .parallel(Parallel::Auto)
        .check()
        .unwrap();
    for &t in threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap();
        let par = pool
            .install(|| mine_frequent(db, &parallel, &RunControl::new()))
            .unwrap();
        assert_eq!(par.patterns, serial.patterns, "{t} threads");
    }
    serial
}
