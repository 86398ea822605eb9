//! The README's Rust quickstart: `cargo run --release -p graphsparse --example quickstart`.
//! Uses `../shared/data` when present and a tiny built-in database otherwise.

use std::error::Error;

use graphsparse::base::{Check, RunControl};
use graphsparse::graph::{parse_gspan, read_tu};
use graphsparse::gspan::{MinerParams, mine_frequent};
use graphsparse::pcst::{PcstParams, solve_pcst};

fn main() -> Result<(), Box<dyn Error>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../../shared/data/tu/MUTAG"
    );
    let (data, min_support) = match read_tu(path, None) {
        Ok(data) => (data, 19), // 40,220 patterns
        Err(_) => (
            parse_gspan("t # 0\nv 0 C\nv 1 O\ne 0 1 1\n", "<built-in>")?,
            1,
        ),
    };
    let params = MinerParams::new().min_support(min_support).check()?;
    let found = mine_frequent(&data.db, &params, &RunControl::new())?;
    println!(
        "{} graphs: {} frequent patterns",
        data.db.len(),
        found.patterns.len()
    );

    let pcst = PcstParams::new().check()?;
    let forest = solve_pcst(&[[0, 1], [1, 2]], &[5.0, 0.0, 5.0], &[1.0, 1.0], &pcst)?;
    println!("PCST nodes {:?}, edges {:?}", forest.nodes, forest.edges);

    let x = graphsparse::proj::project_simplex(&[0.3, -1.0, 2.0], 1.0)?;
    println!("simplex projection {x:?}");
    Ok(())
}
