//! Mines a dataset and prints the pattern count and timings.
//!
//! ```text
//! cargo run --release -p graphsparse-gspan --example mine -- PATH MIN_SUPPORT [THREADS] [MAX_SIZE]
//! ```
//! `PATH` is a TU dataset folder or a gSpan text file; `THREADS` = 0 runs the serial
//! traversal, k >= 1 the parallel one on a local pool of k threads (default 0).

use graphsparse_base::RunControl;
use std::time::Instant;

use graphsparse_gspan::{Check, MinerParams, Parallel, mine_frequent};

fn cpu_seconds() -> f64 {
    // /proc/self/stat fields 14 and 15: user and system time in clock ticks (Linux only)
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = &s[s.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split(' ').collect();
            let ticks: f64 = f[11].parse::<f64>().ok()? + f[12].parse::<f64>().ok()?;
            Some(ticks / 100.0)
        })
        .unwrap_or(f64::NAN)
}

/// CPU seconds of each thread of this process whose name starts with `prefix` (Linux only).
fn thread_cpu_seconds(prefix: &str) -> Vec<f64> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in dir.flatten() {
        let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
        if !comm.starts_with(prefix) {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if let Some(pos) = stat.rfind(')') {
            let f: Vec<&str> = stat[pos + 2..].split(' ').collect();
            let ticks = f[11].parse::<f64>().unwrap_or(0.0) + f[12].parse::<f64>().unwrap_or(0.0);
            out.push(ticks / 100.0);
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: mine PATH MIN_SUPPORT [THREADS] [MAX_SIZE]");
        std::process::exit(2);
    }
    let path = std::path::Path::new(&args[1]);
    let min_support: usize = args[2].parse().expect("MIN_SUPPORT must be an integer");
    let threads: usize = args
        .get(3)
        .map_or(0, |s| s.parse().expect("THREADS must be an integer"));
    let max_size: Option<usize> = args
        .get(4)
        .map(|s| s.parse().expect("MAX_SIZE must be an integer"));
    let t0 = Instant::now();
    let data = if path.is_dir() {
        graphsparse_graph::read_tu(path, None)
    } else {
        graphsparse_graph::read_gspan(path)
    }
    .expect("cannot read the dataset");
    let load = t0.elapsed().as_secs_f64();
    // the parallel split rule can be tuned from the environment, for experiments
    let env = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
    };
    let mut params = MinerParams::new()
        .min_support(min_support)
        .max_size(max_size);
    if let Some(d) = env("GSPAN_SPLIT_DEPTH") {
        params = params.split_depth(d);
    }
    if let Some(n) = env("GSPAN_SPLIT_EMBEDDINGS") {
        params = params.split_embeddings(n);
    }
    let params = params
        .parallel(Parallel::from(threads > 0))
        .check()
        .unwrap();
    let cancel = RunControl::new();
    let cpu0 = cpu_seconds();
    let mut busy = Vec::new();
    let res = if threads == 0 {
        mine_frequent(&data.db, &params, &cancel).unwrap()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("gspan-worker-{i}"))
            .build()
            .unwrap();
        let res = pool
            .install(|| mine_frequent(&data.db, &params, &cancel))
            .unwrap();
        busy = thread_cpu_seconds("gspan-worker");
        res
    };
    let cpu = cpu_seconds() - cpu0;
    let max_len = res.patterns.iter().map(|p| p.code.len()).max().unwrap_or(0);
    println!(
        "{}: {} graphs, min_support {min_support}, threads {threads}: {} patterns (largest {max_len} edges), \
         {} nodes, {} non-minimal; wall {:.3} s, cpu {:.2} s (load {load:.3} s)",
        path.display(),
        data.db.len(),
        res.patterns.len(),
        res.stats.nodes_visited,
        res.stats.non_minimal,
        res.stats.seconds,
        cpu,
    );
    if !busy.is_empty() {
        // on a machine shared with other work, per-thread CPU time shows the load balance:
        // with every worker busy until the end, the wall time on idle cores is the largest
        let max = busy.iter().copied().fold(0.0, f64::max);
        let total: f64 = busy.iter().sum();
        println!(
            "worker CPU seconds {busy:.2?}; balance (total / max) = {:.2}",
            if max > 0.0 { total / max } else { f64::NAN }
        );
    }
}
