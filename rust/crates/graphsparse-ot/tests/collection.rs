//! Collections: induced subgraphs, serial == parallel, baselines, budgets, real data.

use std::path::PathBuf;
use std::time::Instant;

use graphsparse_base::{Budget, RunControl, Truncation};
use graphsparse_graph::{GraphDatabase, read_tu};
use graphsparse_ot::{
    Check, Coarsening, Compressed, CostRule, Method, OtcParams, StepMode, TargetSize,
    compress_collection,
};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/data/tu")
}

fn load(name: &str) -> Option<GraphDatabase> {
    let p = data_dir().join(name);
    p.exists().then(|| read_tu(&p, Some(name)).unwrap().db)
}

fn otc(mode: StepMode) -> Method {
    Method::Otc {
        params: OtcParams::new().step_mode(mode).check().unwrap(),
        costs: CostRule::default(),
    }
}

/// Checks that `out` holds, for each graph, the induced subgraph (OTC) on at most `k` vertices.
fn assert_induced(db: &GraphDatabase, out: &Compressed, k: &dyn Fn(usize, usize) -> usize) {
    let mut off = 0;
    for i in 0..db.len() {
        let g = db.graph(i);
        let h = out.db.graph(i);
        let a = &out.assignment[off..off + g.n_vertices()];
        off += g.n_vertices();
        let kept: Vec<usize> = (0..g.n_vertices()).filter(|&v| a[v] != u32::MAX).collect();
        assert_eq!(kept.len(), k(i, g.n_vertices()).min(g.n_vertices()));
        assert_eq!(h.n_vertices(), kept.len());
        for (new, &old) in kept.iter().enumerate() {
            assert_eq!(a[old] as usize, new, "vertices keep their order");
            assert_eq!(h.node_labels[new], g.node_labels[old]);
        }
        let want: Vec<([u32; 2], u32)> = g
            .edges
            .iter()
            .zip(g.edge_labels)
            .filter(|(e, _)| a[e[0] as usize] != u32::MAX && a[e[1] as usize] != u32::MAX)
            .map(|(e, &l)| ([a[e[0] as usize], a[e[1] as usize]], l))
            .collect();
        let got: Vec<([u32; 2], u32)> = h
            .edges
            .iter()
            .copied()
            .zip(h.edge_labels.iter().copied())
            .collect();
        assert_eq!(
            got, want,
            "graph {i}: exactly the edges with both ends kept"
        );
    }
}

#[test]
fn mutag_otc_is_induced_and_thread_independent() {
    let Some(db) = load("MUTAG") else { return };
    let ctl = RunControl::new();
    for mode in [StepMode::Paper, StepMode::Stable] {
        let serial =
            compress_collection(&db, &otc(mode), TargetSize::Ratio(0.5), false, &ctl).unwrap();
        assert_induced(&db, &serial, &|_, n| {
            ((0.5 * n as f64).round() as usize).max(1)
        });
        assert_eq!(serial.eps_hat.len(), db.node_labels().len());
        assert!(serial.eps_hat.iter().all(|e| (0.0..=1.0).contains(e)));
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let par = pool
                .install(|| {
                    compress_collection(&db, &otc(mode), TargetSize::Ratio(0.5), true, &ctl)
                })
                .unwrap();
            assert_eq!(par, serial);
        }
    }
}

#[test]
fn baselines_reach_targets_and_are_thread_independent() {
    let Some(db) = load("MUTAG") else { return };
    let ctl = RunControl::new();
    for method in [
        Coarsening::Rec { seed: 3 },
        Coarsening::HeavyEdge,
        Coarsening::AlgebraicDistance { seed: 3 },
        Coarsening::Affinity { seed: 3 },
    ] {
        let m = Method::Coarsen {
            method,
            max_levels: None,
        };
        let serial = compress_collection(&db, &m, TargetSize::Ratio(0.5), false, &ctl).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let par = pool
            .install(|| compress_collection(&db, &m, TargetSize::Ratio(0.5), true, &ctl))
            .unwrap();
        assert_eq!(par, serial);
        assert!(serial.eps_hat.is_empty());
        for i in 0..db.len() {
            let n = db.graph(i).n_vertices();
            // MUTAG graphs are connected: unlimited levels meet the target exactly
            assert_eq!(
                serial.db.graph(i).n_vertices(),
                ((0.5 * n as f64).round() as usize).max(1)
            );
        }
    }
}

#[test]
fn budgets_and_cancellation_truncate_cleanly() {
    let Some(db) = load("MUTAG") else { return };
    let ctl = RunControl::new();
    ctl.cancel();
    let out =
        compress_collection(&db, &otc(StepMode::Paper), TargetSize::Fixed(5), true, &ctl).unwrap();
    assert_eq!(
        (out.n_done, out.truncation),
        (0, Some(Truncation::Cancelled))
    );
    assert_eq!(out.db.len(), 0);
    let ctl = RunControl::new();
    let m = Method::Otc {
        params: OtcParams::new()
            .budget(Budget::new().max_nodes(Some(26 * 10)))
            .check()
            .unwrap(),
        costs: CostRule::default(),
    };
    let out = compress_collection(&db, &m, TargetSize::Fixed(5), false, &ctl).unwrap();
    assert_eq!(
        (out.n_done, out.truncation),
        (10, Some(Truncation::MaxNodes))
    );
    assert_eq!(out.db.len(), 10);
}

#[test]
fn bad_targets_are_errors() {
    let db = GraphDatabase::new(
        vec![0, 2, 2],
        vec![0, 1],
        vec![0, 1, 1],
        vec![[0, 1]],
        vec![0],
    )
    .unwrap();
    let ctl = RunControl::new();
    let m = otc(StepMode::Paper);
    assert!(compress_collection(&db, &m, TargetSize::Fixed(0), false, &ctl).is_err());
    assert!(compress_collection(&db, &m, TargetSize::Ratio(0.0), false, &ctl).is_err());
    assert!(compress_collection(&db, &m, TargetSize::Ratio(f64::NAN), false, &ctl).is_err());
    assert!(compress_collection(&db, &m, TargetSize::PerGraph(&[1]), false, &ctl).is_err());
    // the empty graph and k >= n are kept as they are
    let out = compress_collection(&db, &m, TargetSize::PerGraph(&[5, 1]), false, &ctl).unwrap();
    assert_eq!(out.db, db);
}

/// Timing on Mutagenicity (`cargo test --profile dev-release -- --ignored --nocapture`).
#[test]
#[ignore = "timing, run by hand"]
fn mutagenicity_timing() {
    let Some(db) = load("Mutagenicity") else {
        return;
    };
    let ctl = RunControl::new();
    for parallel in [false, true] {
        let t0 = Instant::now();
        let out = compress_collection(
            &db,
            &otc(StepMode::Paper),
            TargetSize::Ratio(0.5),
            parallel,
            &ctl,
        )
        .unwrap();
        println!(
            "Mutagenicity OTC parallel={parallel}: {:.3} s for {} graphs",
            t0.elapsed().as_secs_f64(),
            out.n_done
        );
    }
}
