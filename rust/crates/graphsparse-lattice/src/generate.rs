//! A built-in table for examples, tests and benchmarks that need no files.

use graphsparse_base::SplitMix64;

/// The eight lines of a 3 × 3 board (cells numbered row by row).
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

/// `n` random tic-tac-toe boards, the concept of the UCI TIC-TAC-TOE set: each of the 9 cells
/// is x / o / blank (codes 0 / 1 / 2) uniformly, and a board is labelled `+1` when x has three
/// in a row, else `−1`. The cells are drawn from the house generator [`SplitMix64`], so the
/// same `seed` always gives the same boards.
///
/// # Returns
/// The 9 columns of category codes (each of length `n`, 3 categories) and the `n` labels.
///
/// # Complexity
/// O(n).
///
/// # Example
/// ```
/// use graphsparse_lattice::{Check, Column, PropositionParams, PropositionSet, tic_tac_toe_boards};
/// let (cols, y) = tic_tac_toe_boards(96, 7);
/// let table: Vec<Column> = cols
///     .iter()
///     .map(|c| Column::Categorical { codes: c, n_categories: 3 })
///     .collect();
/// let props = PropositionSet::fit(&PropositionParams::new().check()?, &table)?;
/// assert_eq!((props.len(), y.len()), (54, 96)); // the paper's p for TIC-TAC-TOE
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
pub fn tic_tac_toe_boards(n: usize, seed: u64) -> (Vec<Vec<u32>>, Vec<f64>) {
    let mut rng = SplitMix64::new(seed);
    let mut cell = move || (rng.next_u64() % 3) as u32;
    let boards: Vec<[u32; 9]> = (0..n).map(|_| std::array::from_fn(|_| cell())).collect();
    let y = boards
        .iter()
        .map(|b| {
            let x_wins = LINES.iter().any(|l| l.iter().all(|&k| b[k] == 0));
            if x_wins { 1.0 } else { -1.0 }
        })
        .collect();
    let cols = (0..9)
        .map(|j| boards.iter().map(|b| b[j]).collect())
        .collect();
    (cols, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_rows_of_x() {
        let (cols, y) = tic_tac_toe_boards(500, 3);
        assert_eq!(cols.len(), 9);
        for (i, &yi) in y.iter().enumerate() {
            let b: Vec<u32> = cols.iter().map(|c| c[i]).collect();
            let wins = LINES.iter().any(|l| l.iter().all(|&k| b[k] == 0));
            assert_eq!(yi > 0.0, wins);
        }
        assert!(y.iter().any(|&v| v > 0.0) && y.iter().any(|&v| v < 0.0));
        assert_eq!(tic_tac_toe_boards(500, 3), (cols, y));
    }
}
