//! gHKL rule ensembles: propositionalisation, one fit and a warm-started path over `C` on a
//! tic-tac-toe-like table (96 training rows, 9 three-valued columns, p = 54 propositions:
//! the paper's 10 % TIC-TAC-TOE setting), serial and on two threads.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use graphsparse::budget::RunControl;
use graphsparse::lattice::{
    Column, GhklParams, PropositionMatrix, PropositionParams, PropositionSet, fit, fit_path,
};

/// `n` random boards (cells x / o / blank as codes 0 / 1 / 2) labelled +1 when x has three in
/// a row, from a fixed-seed xorshift generator.
fn boards(n: usize, seed: u64) -> (Vec<Vec<u32>>, Vec<f64>) {
    let mut s = seed | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 33) % 3
    };
    let cells: Vec<[u32; 9]> = (0..n)
        .map(|_| std::array::from_fn(|_| next() as u32))
        .collect();
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    let y = cells
        .iter()
        .map(|b| {
            if LINES.iter().any(|l| l.iter().all(|&k| b[k] == 0)) {
                1.0
            } else {
                -1.0
            }
        })
        .collect();
    let cols = (0..9)
        .map(|j| cells.iter().map(|b| b[j]).collect())
        .collect();
    (cols, y)
}

fn table(cols: &[Vec<u32>]) -> Vec<Column<'_>> {
    cols.iter()
        .map(|c| Column::Categorical {
            codes: c,
            n_categories: 3,
        })
        .collect()
}

fn bench_rules(c: &mut Criterion) {
    let (cols, y) = boards(96, 20_261_124);
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
    for (rho, cost) in [(1.5, 1.0), (1.1, 1.0), (2.0, 1.0)] {
        let p = GhklParams::new().rho(rho).c(cost).check().unwrap();
        g.bench_function(format!("fit_tic96_rho{rho}_C{cost}"), |b| {
            b.iter(|| fit(&p, black_box(&x), &y, 1, &RunControl::new()).unwrap())
        });
    }
    let cs = [0.01, 0.1, 1.0];
    for threads in [1, 2] {
        let p = GhklParams::new().parallel(threads > 1).check().unwrap();
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
