//! Criterion benches of the WGM projections and a GraphDA pass on the 33×33 benchmark grid.

use criterion::{Criterion, criterion_group, criterion_main};
use graphsparse::online::{
    Check, EdgeRules, GraphDa, GraphProjectionParams, GraphProjector, Loss, OnlineLearner,
    ProjectionValidParams, WeightedGraph,
};
use graphsparse::pcst::grid_edges;

/// Deterministic pseudo-normal draws (splitmix64 + Box–Muller), so the bench needs no rand.
fn normals(seed: u64, n: usize) -> Vec<f64> {
    let mut g = graphsparse::base::SplitMix64::new(seed);
    let mut uniform = || ((g.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    (0..n)
        .map(|_| {
            let (u, v) = (uniform(), uniform());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        })
        .collect()
}

fn projections(c: &mut Criterion) {
    let edges = grid_edges(33, 33);
    let costs = vec![1.0; edges.len()];
    let mut w = normals(1, 1089);
    for v in &mut w[470..480] {
        *v += 2.0;
    }
    let graph = WeightedGraph::from_edges(1089, &edges, Some(&costs), EdgeRules::MULTIGRAPH);
    let mut proj = GraphProjector::new(graph.unwrap()).unwrap();
    let params = ProjectionValidParams::default();
    let mut g = c.benchmark_group("wgm_projection_33x33");
    g.bench_function("head_544_598", |b| {
        b.iter(|| proj.project(&w, 544, 598, &params).unwrap())
    });
    g.bench_function("tail_26_28", |b| {
        b.iter(|| proj.project(&w, 26, 28, &params).unwrap())
    });
    g.finish();
}

fn graph_da_pass(c: &mut Criterion) {
    let (p, n) = (1089, 50);
    let edges = grid_edges(33, 33);
    let costs = vec![1.0; edges.len()];
    let x = normals(2, n * p);
    let y: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let params = GraphProjectionParams::new(26).check().unwrap();
    let graph = WeightedGraph::from_edges(p, &edges, Some(&costs), EdgeRules::MULTIGRAPH).unwrap();
    let mut model = GraphDa::new(graph, 10.0, &params, Loss::Logistic, 0.0).unwrap();
    let mut g = c.benchmark_group("graph_da");
    g.sample_size(10);
    g.bench_function("pass_50_samples_33x33", |b| {
        b.iter(|| model.fit(&x, &y).unwrap())
    });
    g.finish();
}

criterion_group!(benches, projections, graph_da_pass);
criterion_main!(benches);
