//! Small shared helpers: the fused finite checks of the chunked passes and index storage in
//! `f64` scratch buffers (plain checks are `graphsparse_base`'s).

use graphsparse_base::InputError;

use crate::error::ProjError;

/// Chunk length of the fused "check, then work" loops: small enough to stay in L1.
pub(crate) const CHUNK: usize = 512;

/// `true` when every entry is finite; a branch-free pass that the compiler vectorises.
#[inline]
#[allow(clippy::eq_op)] // x − x is the point: it is not 0 for a non-finite x
pub(crate) fn all_finite(xs: &[f64]) -> bool {
    // x − x is +0.0 (no bit set) for every finite x and NaN for ±inf and NaN: two vector
    // instructions per pair of values (`is_finite` takes five), and `|` has no early exit
    xs.iter().fold(0_u64, |bits, &x| bits | (x - x).to_bits()) == 0
}

/// The error for the first non-finite entry of `xs`, which must hold one.
#[cold]
pub(crate) fn first_non_finite(xs: &[f64], arg: &'static str, base: usize) -> ProjError {
    let index = xs
        .iter()
        .position(|x| !x.is_finite())
        .expect("invariant: a non-finite entry");
    ProjError::Input(InputError::NotFinite {
        arg,
        index: base + index,
        value: xs[index].to_bits(),
    })
}

/// Sum of `|x|` in a fixed order with eight partial sums (vectorises; deterministic).
pub(crate) fn sum_abs(xs: &[f64]) -> f64 {
    let mut acc = [0.0_f64; 8];
    let chunks = xs.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, x) in acc.iter_mut().zip(c) {
            *a += x.abs();
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for x in rest {
        s += x.abs();
    }
    s
}

/// Stores an index in an `f64` slot of a scratch buffer (bit pattern, never used as a number).
#[inline(always)]
pub(crate) fn enc(i: usize) -> f64 {
    f64::from_bits(i as u64)
}

/// Reads back an index stored with [`enc`].
#[inline(always)]
pub(crate) fn dec(x: f64) -> usize {
    x.to_bits() as usize
}

/// Moves the entries of `s[..len]` that `keep` accepts to the front, in order, and returns
/// how many there are. `keep` sees every entry once, in order, so it may update running sums.
#[inline(always)]
pub(crate) fn retain_front(s: &mut [f64], len: usize, mut keep: impl FnMut(f64) -> bool) -> usize {
    let mut w = 0;
    for i in 0..len {
        let x = s[i];
        if keep(x) {
            s[w] = x;
            w += 1;
        }
    }
    w
}

/// Step 3 of Condat's algorithm: of the entries put aside, `ṽ = s[..t]`, those that `keep`
/// accepts (seen in order) rejoin the candidates `v = s[t..e]`, which move down behind them.
/// Returns the new end of `v`, which now starts at 0.
#[inline(always)]
pub(crate) fn rejoin(s: &mut [f64], t: usize, e: usize, keep: impl FnMut(f64) -> bool) -> usize {
    let w = retain_front(s, t, keep);
    s.copy_within(t..e, w);
    w + (e - t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_checks_find_the_first_bad_entry() {
        let mut xs = vec![1.0; 2000];
        assert!(all_finite(&xs));
        assert!(graphsparse_base::check_finite("v", &xs).is_ok());
        xs[1500] = f64::NEG_INFINITY;
        xs[1700] = f64::NAN;
        assert_eq!(
            graphsparse_base::check_finite("v", &xs).map_err(ProjError::from),
            Err(ProjError::Input(InputError::NotFinite {
                arg: "v",
                index: 1500,
                value: f64::NEG_INFINITY.to_bits()
            }))
        );
        let c = 1500 / CHUNK;
        assert!(!all_finite(&xs[c * CHUNK..(c + 1) * CHUNK]));
        assert_eq!(
            first_non_finite(&xs[c * CHUNK..], "v", c * CHUNK),
            ProjError::Input(InputError::NotFinite {
                arg: "v",
                index: 1500,
                value: f64::NEG_INFINITY.to_bits()
            })
        );
        assert!(!all_finite(&[0.0, f64::NAN]));
        assert!(!all_finite(&[f64::INFINITY]));
        assert!(all_finite(&[f64::MAX, -f64::MAX, 0.0, -0.0, 5e-324]));
    }

    #[test]
    fn indices_round_trip_through_f64_slots() {
        for i in [0usize, 1, 2, 1 << 20, (1 << 40) + 7, usize::MAX >> 12] {
            assert_eq!(dec(enc(i)), i);
        }
    }

    #[test]
    fn sum_abs_matches_a_plain_sum_on_exact_values() {
        let xs: Vec<f64> = (0..37)
            .map(|i| if i % 2 == 0 { i as f64 } else { -(i as f64) })
            .collect();
        assert_eq!(sum_abs(&xs), (0..37).sum::<i32>() as f64);
        assert_eq!(sum_abs(&[]), 0.0);
    }
}
