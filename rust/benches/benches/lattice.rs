//! gHKL rule ensembles: propositionalisation, one fit and a warm-started path over `C` on a
//! tic-tac-toe-like table (96 training rows, 9 three-valued columns, p = 54 propositions:
//! the paper's 10 % TIC-TAC-TOE setting), serial and on two threads.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use graphsparse::base::{Check, Parallel, RunControl};
use graphsparse::lattice::{
    Column, GhklParams, PropositionMatrix, PropositionParams, PropositionSet, fit, fit_path,
    tic_tac_toe_boards,
};

fn table(cols: &[Vec<u32>]) -> Vec<Column<'_>> {
    cols.iter()
        .map(|c| Column::Categorical {
            codes: c,
            n_categories: 3,
        })
        .collect()
}

fn bench_rules(c: &mut Criterion) {
    let (cols, y) = tic_tac_toe_boards(96, 20_261_124);
    let params = PropositionParams::new().check().unwrap();
    let mut g = c.benchmark_group("lattice");
    g.sample_size(10);
    g.bench_function("propositions_fit_transform_96x9", |b| {
        b.iter(|| {
            let set = PropositionSet::fit(&params, black_box(&table(&cols))).unwrap();
            set.transform(&table(&cols)).unwrap()
        })
    });
    let set = PropositionSet::fit(&params, &table(&cols)).unwrap();
    let x: PropositionMatrix = set.transform(&table(&cols)).unwrap();
    assert_eq!(x.n_props(), 54);
    // C = 1000 is where SMO's Newton steps matter (the SVM solves dominate there)
    for (rho, cost) in [(1.5, 1.0), (1.1, 1.0), (2.0, 1.0), (1.1, 1000.0)] {
        let p = GhklParams::new().rho(rho).c(cost).check().unwrap();
        g.bench_function(format!("fit_tic96_rho{rho}_C{cost}"), |b| {
            b.iter(|| fit(&p, black_box(&x), &y, 1, &RunControl::new()).unwrap())
        });
    }
    let cs = [0.01, 0.1, 1.0];
    for threads in [1, 2] {
        let p = GhklParams::new()
            .parallel(Parallel::from(threads > 1))
            .check()
            .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(format!("fit_path_tic96_3C_threads{threads}"), |b| {
            b.iter(|| {
                pool.install(|| fit_path(&p, black_box(&x), &y, 1, &cs, &RunControl::new()))
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_rules);
criterion_main!(benches);
