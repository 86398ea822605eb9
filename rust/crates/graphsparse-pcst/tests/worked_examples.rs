//! The worked examples of spec §A.9, for every pruning mode.
//!
//! Node and edge lists are exact (order included). The values stated in the spec were checked
//! against `pcst_fast` 1.0.10; the cases the spec leaves out (some pruning modes) are golden
//! values from `pcst_fast` (`pcst-fast2` 1.1.0) and agree with the spec wherever it states them.

use graphsparse_base::InputError;
use graphsparse_graph::{EdgeRules, WeightedGraph, WeightedGraphError};
use graphsparse_pcst::grid_edges;
use graphsparse_pcst::{
    Check, PcstError, PcstParams, PcstSolver, PcstValidParams, Pruning, solve_pcst,
};

/// A pruning mode (by its name) and the nodes and edges it must output.
type Case<'a> = (&'a str, &'a [usize], &'a [usize]);

/// Every pruning mode, in the order the tables list them.
const PRUNINGS: [Pruning; 4] = [Pruning::None, Pruning::Simple, Pruning::Gw, Pruning::Strong];

/// The same answer from every pruning mode.
fn every<'a>(nodes: &'a [usize], edges: &'a [usize]) -> [Case<'a>; 4] {
    ["none", "simple", "gw", "strong"].map(|pruning| (pruning, nodes, edges))
}

/// One input of the spec (the graph with its prizes and costs) and the solver settings, by
/// default unrooted, one cluster and `eps = 1e-6`.
#[derive(Clone, Copy)]
struct Instance<'a> {
    edges: &'a [[usize; 2]],
    prizes: &'a [f64],
    costs: &'a [f64],
    root: Option<usize>,
    g: usize,
    eps: f64,
}

impl<'a> Instance<'a> {
    fn new(edges: &'a [[usize; 2]], prizes: &'a [f64], costs: &'a [f64]) -> Self {
        Self {
            edges,
            prizes,
            costs,
            root: None,
            g: 1,
            eps: 1e-6,
        }
    }

    fn root(self, root: usize) -> Self {
        Self {
            root: Some(root),
            ..self
        }
    }

    fn clusters(self, g: usize) -> Self {
        Self { g, ..self }
    }

    fn eps(self, eps: f64) -> Self {
        Self { eps, ..self }
    }

    /// Asserts the answer of each pruning mode in `cases`.
    fn expect(self, cases: &[Case<'_>]) {
        let Self { root, g, .. } = self;
        for &(pruning, nodes, want_edges) in cases {
            let params = PcstParams::new()
                .root(root)
                .num_clusters(g)
                .pruning(pruning.parse().unwrap())
                .eps(self.eps)
                .check()
                .unwrap();
            let sol = solve_pcst(self.edges, self.prizes, self.costs, &params).unwrap();
            assert_eq!(
                (sol.nodes.as_slice(), sol.edges.as_slice()),
                (nodes, want_edges),
                "pruning {pruning}, root {root:?}, g {g}"
            );
        }
    }
}

const PATH: [[usize; 2]; 3] = [[0, 1], [1, 2], [2, 3]];

#[test]
fn example_1_path_with_end_prizes() {
    let path = Instance::new(&PATH, &[5.0, 0.0, 0.0, 5.0], &[1.0; 3]);
    path.expect(&[
        ("none", &[0, 1, 2, 3], &[0, 2, 1]),
        ("simple", &[0, 1, 2, 3], &[0, 2, 1]),
        ("gw", &[0, 1, 2, 3], &[1, 2, 0]),
        ("strong", &[0, 1, 2, 3], &[0, 2, 1]),
    ]);
    path.clusters(2).expect(&every(&[0, 3], &[]));
}

#[test]
fn example_2_many_or_zero_clusters() {
    let path = Instance::new(&PATH, &[1.0, 2.0, 3.0, 4.0], &[1.0; 3]);
    for g in [4, 10] {
        path.clusters(g).expect(&every(&[0, 1, 2, 3], &[]));
    }
    path.clusters(0).expect(&[
        ("none", &[0, 1, 2, 3], &[0, 2, 1]),
        ("simple", &[], &[]),
        ("gw", &[], &[]),
        ("strong", &[], &[]),
    ]);
}

#[test]
fn example_3_all_prizes_zero() {
    for c in [1.0, 0.0] {
        Instance::new(&PATH, &[0.0; 4], &[c; 3]).expect(&every(&[3], &[]));
    }
}

#[test]
fn example_4_no_edges() {
    Instance::new(&[], &[1.0, 2.0, 3.0], &[]).expect(&every(&[2], &[]));
    // the g largest prizes survive, the higher index on ties
    Instance::new(&[], &[3.0, 1.0, 3.0, 2.0], &[])
        .clusters(2)
        .expect(&[("gw", &[0, 2], &[])]);
    Instance::new(&[], &[1.0, 1.0, 1.0], &[])
        .clusters(2)
        .expect(&[("strong", &[1, 2], &[])]);
}

#[test]
fn example_5_disconnected() {
    let pair = Instance::new(&[[0, 1]], &[3.0, 3.0, 10.0], &[1.0]);
    pair.expect(&[
        ("none", &[0, 1, 2], &[0]),
        ("simple", &[2], &[]),
        ("gw", &[2], &[]),
        ("strong", &[2], &[]),
    ]);
    pair.clusters(2).expect(&every(&[0, 1, 2], &[0]));
}

#[test]
fn example_6_rooted_path() {
    Instance::new(&PATH, &[5.0, 0.0, 0.0, 5.0], &[1.0; 3])
        .root(0)
        .expect(&[
            ("none", &[2, 3, 1, 0], &[2, 1, 0]),
            ("simple", &[0, 1, 2, 3], &[2, 1, 0]),
            ("gw", &[0, 1, 2, 3], &[0, 1, 2]),
            ("strong", &[0, 1, 2, 3], &[2, 1, 0]),
        ]);
}

#[test]
fn example_7_zero_cost_path() {
    Instance::new(&PATH, &[0.0, 1.0, 0.0, 1.0], &[0.0; 3]).expect(&[
        ("none", &[1, 2, 3], &[1, 2]),
        ("simple", &[1, 2, 3], &[1, 2]),
        ("gw", &[1, 2, 3], &[2, 1]),
        ("strong", &[1, 2, 3], &[1, 2]),
    ]);
}

#[test]
fn example_8_star() {
    let edges: Vec<[usize; 2]> = (1..6).map(|i| [0, i]).collect();
    Instance::new(&edges, &[0.0, 2.0, 2.0, 2.0, 0.5, 0.5], &[1.0; 5]).expect(&[
        ("none", &[0, 1, 2, 3], &[0, 1, 2]),
        ("simple", &[0, 1, 2, 3], &[0, 1, 2]),
        ("gw", &[0, 1, 2, 3], &[2, 1, 0]),
        ("strong", &[0, 1, 2, 3], &[0, 1, 2]),
    ]);
}

#[test]
fn example_9_grid_4x4() {
    let edges = grid_edges(4, 4);
    assert_eq!(edges.len(), 24);
    let prizes: Vec<f64> = (0..16).map(|i| ((7 * i) % 5) as f64).collect();
    let costs = vec![1.0; edges.len()];
    let grid = Instance::new(&edges, &prizes, &costs);
    // the nodes of one cluster, rooted or not: unpruned (in the order GW adds them), after
    // simple or gw pruning, after strong pruning
    let raw: &[usize] = &[1, 2, 3, 7, 4, 8, 6, 9, 13, 11, 12, 14, 5];
    let most: &[usize] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14];
    let lean: &[usize] = &[1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14];
    grid.expect(&[
        ("none", raw, &[2, 6, 8, 11, 17, 13, 21, 22, 5, 15, 3, 10]),
        ("simple", most, &[2, 6, 8, 11, 17, 13, 21, 22, 5, 15, 3, 10]),
        ("gw", most, &[10, 3, 15, 5, 22, 21, 13, 17, 11, 8, 6, 2]),
        ("strong", lean, &[2, 8, 11, 17, 13, 21, 22, 5, 15, 3, 10]),
    ]);
    grid.clusters(2).expect(&[
        (
            "none",
            &[1, 2, 3, 7, 4, 8, 6, 9, 13, 11, 12, 14],
            &[2, 6, 8, 11, 17, 13, 21, 22, 5, 15],
        ),
        (
            "simple",
            &[1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14],
            &[2, 6, 8, 11, 17, 13, 21, 22, 5, 15],
        ),
        (
            "gw",
            &[1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14],
            &[15, 5, 22, 21, 13, 17, 11, 8, 6, 2],
        ),
        (
            "strong",
            &[1, 2, 4, 6, 7, 8, 9, 11, 12, 13, 14],
            &[2, 8, 11, 17, 13, 21, 22, 5, 15],
        ),
    ]);
    grid.root(5).expect(&[
        ("none", raw, &[2, 6, 8, 11, 17, 13, 21, 22, 5, 15, 9, 10]),
        ("simple", most, &[2, 6, 8, 11, 17, 13, 21, 22, 5, 15, 9, 10]),
        ("gw", most, &[10, 9, 15, 5, 22, 21, 13, 17, 11, 8, 6, 2]),
        ("strong", lean, &[2, 8, 11, 17, 13, 21, 22, 5, 15, 9, 10]),
    ]);
}

#[test]
fn example_10_grid_5x3_real_weights() {
    let edges = grid_edges(3, 5);
    assert_eq!(edges.len(), 22);
    let prizes: Vec<f64> = (0..15)
        .map(|i| ((37 * i) % 11) as f64 / 3.0 + 0.01 * (i as f64))
        .collect();
    let costs: Vec<f64> = (0..22)
        .map(|e| 0.5 + ((13 * e) % 7) as f64 / 10.0)
        .collect();
    let raw: &[usize] = &[3, 8, 7, 12, 13, 14, 4, 2, 6, 1, 5, 10, 9];
    let most: &[usize] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14];
    let grid = Instance::new(&edges, &prizes, &costs);
    grid.expect(&[
        ("none", raw, &[7, 14, 21, 6, 20, 13, 5, 11, 3, 10, 17, 9]),
        ("simple", most, &[7, 14, 21, 6, 20, 13, 5, 11, 3, 10, 17, 9]),
        ("gw", most, &[9, 17, 10, 3, 11, 5, 13, 20, 6, 21, 14, 7]),
        ("strong", most, &[7, 14, 21, 6, 20, 13, 5, 11, 3, 10, 17, 9]),
    ]);
    grid.clusters(3).expect(&[
        ("none", raw, &[7, 14, 21, 6, 20, 13, 5, 11, 3, 10]),
        ("simple", most, &[7, 14, 21, 6, 20, 13, 5, 11, 3, 10]),
        ("gw", most, &[10, 3, 11, 5, 13, 20, 6, 21, 14, 7]),
        (
            "strong",
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13],
            &[7, 14, 6, 20, 13, 5, 11, 3, 10],
        ),
    ]);
}

#[test]
fn example_11_errors() {
    let p = PcstValidParams::default();
    assert!(matches!(
        solve_pcst(&[[0, 1]], &[1.0, -1.0], &[1.0], &p),
        Err(PcstError::NegativePrize { index: 1, .. })
    ));
    assert!(matches!(
        solve_pcst(&[[0, 1]], &[1.0, 1.0], &[-1.0], &p),
        Err(PcstError::Graph(WeightedGraphError::InvalidWeight { arg: "costs", index: 0, value }))
            if value < 0.0
    ));
    assert!(matches!(
        solve_pcst(&[[0, 2]], &[1.0, 1.0], &[1.0], &p),
        Err(PcstError::Graph(WeightedGraphError::EndpointOutOfRange {
            edge: 0,
            endpoint: 2,
            n_vertices: 2,
            ..
        }))
    ));
    // prizes are checked before edges, edges in index order
    assert!(matches!(
        solve_pcst(&[[0, 5], [0, 1]], &[1.0, -2.0], &[-1.0, -1.0], &p),
        Err(PcstError::NegativePrize { .. })
    ));
    assert!(matches!(
        solve_pcst(&[[0, 1], [0, 5]], &[1.0, 2.0], &[-1.0, 1.0], &p),
        Err(PcstError::Graph(WeightedGraphError::InvalidWeight { index: 0, value, .. }))
            if value < 0.0
    ));
}

#[test]
fn errors_beyond_pcst_fast() {
    let p = PcstValidParams::default();
    let e = [[0, 1]];
    assert!(matches!(
        solve_pcst(&e, &[f64::NAN, 1.0], &[1.0], &p),
        Err(PcstError::NonFinitePrize { index: 0, .. })
    ));
    assert!(matches!(
        solve_pcst(&e, &[1.0, f64::INFINITY], &[1.0], &p),
        Err(PcstError::NonFinitePrize { index: 1, .. })
    ));
    assert!(matches!(
        solve_pcst(&e, &[1.0, 1.0], &[f64::NAN], &p),
        Err(PcstError::Graph(WeightedGraphError::InvalidWeight { index: 0, value, .. }))
            if value.is_nan()
    ));
    assert!(matches!(
        solve_pcst(&e, &[1.0, 1.0], &[1.0, 2.0], &p),
        Err(PcstError::Graph(WeightedGraphError::WeightsLength {
            arg: "costs",
            expected: 1,
            got: 2
        }))
    ));
    assert!(matches!(
        solve_pcst(&e, &[f64::MAX, f64::MAX], &[1.0], &p),
        Err(PcstError::Overflow { .. })
    ));
    // parameter errors come from `check`, input errors from the solve
    let rooted = |root, num_clusters| {
        p.clone()
            .into_params()
            .root(Some(root))
            .num_clusters(num_clusters)
            .check()
    };
    assert!(matches!(rooted(0, 2), Err(PcstError::RootedNumClusters(2))));
    assert!(matches!(rooted(0, 0), Err(PcstError::RootedNumClusters(0))));
    assert!(matches!(
        solve_pcst(&e, &[1.0, 1.0], &[1.0], &rooted(2, 1).unwrap()),
        Err(PcstError::RootOutOfRange {
            root: 2,
            n_nodes: 2
        })
    ));
    for eps in [-1e-6, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            p.clone().into_params().eps(eps).check(),
            Err(PcstError::Input(InputError::OutOfRange { arg: "eps", .. }))
        ));
    }
    for bad in ["GW", "Strong", "", "gw "] {
        let err = bad.parse::<Pruning>().unwrap_err();
        assert_eq!(err, PcstError::UnknownPruning(bad.to_owned()));
        assert!(
            err.to_string()
                .contains("\"none\", \"simple\", \"gw\", \"strong\"")
        );
    }
    for p in PRUNINGS {
        assert_eq!(p.to_string().parse::<Pruning>().unwrap(), p);
    }
}

#[test]
fn example_12_eps_sensitivity() {
    let pair = Instance::new(&[[0, 1]], &[0.5 + 5e-9, 0.5 - 1e-8, 10.0], &[1.0]);
    pair.expect(&[
        ("none", &[0, 1, 2], &[0]),
        ("simple", &[2], &[]),
        ("gw", &[2], &[]),
        ("strong", &[2], &[]),
    ]);
    pair.eps(1e-10).expect(&every(&[2], &[]));
}

#[test]
fn empty_graph_and_self_loops() {
    let sol = solve_pcst(&[], &[], &[], &PcstValidParams::default()).unwrap();
    assert!(sol.nodes.is_empty() && sol.edges.is_empty());
    // a self-loop is never output
    for pruning in PRUNINGS {
        let params = PcstParams::new().pruning(pruning).check().unwrap();
        let sol = solve_pcst(
            &[[0, 0], [0, 1], [1, 1]],
            &[2.0, 2.0],
            &[0.0, 1.0, 0.0],
            &params,
        )
        .unwrap();
        assert_eq!((sol.nodes, sol.edges), (vec![0, 1], vec![1]), "{pruning}");
    }
}

#[test]
fn solver_reuse_matches_fresh_solves() {
    let big = grid_edges(7, 9);
    type Graph = (Vec<[usize; 2]>, Vec<f64>, Vec<f64>);
    let cases: Vec<Graph> = vec![
        (
            grid_edges(4, 4),
            (0..16).map(|i| ((7 * i) % 5) as f64).collect(),
            vec![1.0; 24],
        ),
        (PATH.to_vec(), vec![5.0, 0.0, 0.0, 5.0], vec![1.0; 3]),
        (
            big.clone(),
            (0..63).map(|i| ((i * i) % 13) as f64 * 0.37).collect(),
            vec![1.5; big.len()],
        ),
        (vec![], vec![1.0, 2.0], vec![]),
    ];
    let mut solver = PcstSolver::new();
    let mut out = Default::default();
    for round in 0..3 {
        for (edges, prizes, costs) in &cases {
            for pruning in PRUNINGS {
                let root = (round == 1).then_some(0);
                let params = PcstParams::new()
                    .pruning(pruning)
                    .root(root)
                    .check()
                    .unwrap();
                let graph = WeightedGraph::from_edges(
                    prizes.len(),
                    edges,
                    Some(costs),
                    EdgeRules::MULTIGRAPH,
                )
                .unwrap();
                solver
                    .solve_into(&graph, prizes, &params, &mut out)
                    .unwrap();
                assert_eq!(out, solve_pcst(edges, prizes, costs, &params).unwrap());
            }
        }
    }
}

/// `pcst_fast` loops forever on this input (found by fuzzing): the subnormal costs leave
/// remainders below the resolution of the event time. The stall guard must end the run with
/// a valid forest.
#[test]
fn stalled_growth_terminates() {
    let edges = [[1, 2], [2, 4], [3, 3], [2, 1], [1, 2], [2, 1], [0, 0]];
    let prizes = [
        1e-12,
        2.2250738585072014e-308,
        1e-300,
        2.2250738585072014e-308,
        1.0000000000000002,
    ];
    let costs = [
        2.2250738585072014e-308,
        5e-324,
        10.0,
        9.999999999999998,
        3.0,
        5e-324,
        3.0,
    ];
    for pruning in PRUNINGS {
        for g in [1, 2] {
            let params = PcstParams::new()
                .num_clusters(g)
                .pruning(pruning)
                .check()
                .unwrap();
            let sol = solve_pcst(&edges, &prizes, &costs, &params).unwrap();
            if pruning != Pruning::None {
                assert_eq!(
                    sol.nodes.len() - sol.edges.len(),
                    g,
                    "{pruning} g={g}: {sol:?}"
                );
            }
        }
    }
    // eps = 0 on a grid with real weights: rounding residues must not stall the run either
    let w = 12;
    let mut grid_edges = vec![];
    for i in 0..w * w {
        if i % w != w - 1 {
            grid_edges.push([i, i + 1]);
        }
        if i + w < w * w {
            grid_edges.push([i, i + w]);
        }
    }
    let prizes: Vec<f64> = (0..w * w)
        .map(|i| ((i * 7919) % 101) as f64 / 7.0)
        .collect();
    let costs: Vec<f64> = (0..grid_edges.len())
        .map(|e| 0.1 + ((e * 31) % 17) as f64 / 3.0)
        .collect();
    for g in [1, 3] {
        let params = PcstParams::new().num_clusters(g).eps(0.0).check().unwrap();
        let sol = solve_pcst(&grid_edges, &prizes, &costs, &params).unwrap();
        assert_eq!(sol.nodes.len() - sol.edges.len(), g);
    }
}
