//! Projections: ns per element against a plain copy of the same buffer (memory bandwidth).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use graphsparse::proj;

/// Uniform values in [0, 1) from a fixed-seed xorshift generator.
fn uniform(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

fn bench_simplex_family(c: &mut Criterion) {
    let mut g = c.benchmark_group("proj");
    for n in SIZES {
        let v: Vec<f64> = uniform(n, 42).iter().map(|x| 2.0 * x - 1.0).collect();
        let mut out = vec![0.0; n];
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("copy", n), &v, |b, v| {
            b.iter(|| out.copy_from_slice(black_box(v)))
        });
        g.bench_with_input(BenchmarkId::new("simplex", n), &v, |b, v| {
            b.iter(|| proj::project_simplex_into(black_box(v), 1.0, &mut out).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("l1_ball", n), &v, |b, v| {
            b.iter(|| proj::project_l1_ball_into(black_box(v), 1.0, &mut out).unwrap())
        });
        let k = (n / 10) as f64;
        g.bench_with_input(BenchmarkId::new("capped_simplex", n), &v, |b, v| {
            b.iter(|| proj::project_capped_simplex_into(black_box(v), k, &mut out).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("top_k", n), &v, |b, v| {
            b.iter(|| proj::project_top_k_into(black_box(v), n / 100, &mut out).unwrap())
        });
        let eps = uniform(n, 7);
        g.bench_with_input(BenchmarkId::new("weighted_linear", n), &v, |b, v| {
            b.iter(|| {
                proj::project_weighted_simplex_linear_into(black_box(v), &eps, &mut out).unwrap()
            })
        });
        g.bench_with_input(BenchmarkId::new("weighted_sort", n), &v, |b, v| {
            b.iter(|| {
                proj::project_weighted_simplex_sort_into(black_box(v), &eps, &mut out).unwrap()
            })
        });
    }
    g.finish();
}

/// Where the sort-based and the linear weighted variants cross (sets `WEIGHTED_SORT_MAX_LEN`).
fn bench_weighted_crossover(c: &mut Criterion) {
    let mut g = c.benchmark_group("weighted_crossover");
    for n in [8, 16, 32, 64, 128, 256] {
        let v: Vec<f64> = uniform(n, 3).iter().map(|x| 2.0 * x - 1.0).collect();
        let eps = uniform(n, 5);
        let mut out = vec![0.0; n];
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("sort", n), &v, |b, v| {
            b.iter(|| {
                proj::project_weighted_simplex_sort_into(black_box(v), &eps, &mut out).unwrap()
            })
        });
        g.bench_with_input(BenchmarkId::new("linear", n), &v, |b, v| {
            b.iter(|| {
                proj::project_weighted_simplex_linear_into(black_box(v), &eps, &mut out).unwrap()
            })
        });
    }
    g.finish();
}

/// Batched rows: serial against the rayon path (on rayon's global pool here).
fn bench_rows(c: &mut Criterion) {
    let mut g = c.benchmark_group("simplex_rows");
    let (rows, cols) = (1_000, 1_000);
    let data: Vec<f64> = uniform(rows * cols, 11);
    let mut out = vec![0.0; rows * cols];
    g.throughput(Throughput::Elements((rows * cols) as u64));
    for (name, par) in [
        ("serial", proj::Parallel::Serial),
        ("parallel", proj::Parallel::Auto),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| proj::project_simplex_rows(black_box(&data), cols, 1.0, &mut out, par))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_simplex_family,
    bench_weighted_crossover,
    bench_rows
);
criterion_main!(benches);
