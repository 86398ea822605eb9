//! Chunked loops and fixed-order reductions: the same bits whatever the thread count.
//!
//! Elementwise loops split their index range into chunks of [`CHUNK`] entries and may run the
//! chunks on the caller's rayon pool; each entry is computed by the same expression either way.
//! Reductions compute one partial sum per chunk (serially inside the chunk) and add the
//! partials left to right, so a parallel run adds exactly the same numbers in the same order as
//! a serial one.

use std::ops::Range;

use graphsparse_base::Parallel;
use rayon::prelude::*;

/// Entries per chunk of every chunked loop and reduction (fixed: never derived from the
/// number of threads).
pub(crate) const CHUNK: usize = 4096;

/// Whether a loop over `n` entries goes to rayon under `par`.
#[inline]
pub(crate) fn use_rayon(par: Parallel, n: usize) -> bool {
    par.use_rayon(n.div_ceil(CHUNK), n)
}

/// Runs `f(offset, chunk)` over the [`CHUNK`]-sized chunks of `out`.
pub(crate) fn for_chunks<F>(par: Parallel, out: &mut [f64], f: F)
where
    F: Fn(usize, &mut [f64]) + Sync + Send,
{
    if use_rayon(par, out.len()) {
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(k, c)| f(k * CHUNK, c));
    } else {
        out.chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(k, c)| f(k * CHUNK, c));
    }
}

/// Runs `f(offset, a_chunk, b_chunk)` over matching chunks of two equally long buffers.
pub(crate) fn for_chunks2<F>(par: Parallel, a: &mut [f64], b: &mut [f64], f: F)
where
    F: Fn(usize, &mut [f64], &mut [f64]) + Sync + Send,
{
    debug_assert_eq!(a.len(), b.len());
    if use_rayon(par, a.len()) {
        a.par_chunks_mut(CHUNK)
            .zip(b.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(k, (x, y))| f(k * CHUNK, x, y));
    } else {
        a.chunks_mut(CHUNK)
            .zip(b.chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(k, (x, y))| f(k * CHUNK, x, y));
    }
}

/// A reusable buffer of per-chunk partial results, for reductions without allocation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reducer {
    partials: Vec<[f64; 2]>,
}

impl Reducer {
    /// Fills the buffer with `f(chunk_k)` for the chunks of `0..n` (in parallel or not).
    fn fill<F>(&mut self, par: Parallel, n: usize, f: F) -> &[[f64; 2]]
    where
        F: Fn(Range<usize>) -> [f64; 2] + Sync + Send,
    {
        let n_chunks = n.div_ceil(CHUNK);
        let range = |k: usize| k * CHUNK..((k + 1) * CHUNK).min(n);
        if use_rayon(par, n) {
            (0..n_chunks)
                .into_par_iter()
                .map(|k| f(range(k)))
                .collect_into_vec(&mut self.partials);
        } else {
            self.partials.clear();
            self.partials.extend((0..n_chunks).map(|k| f(range(k))));
        }
        &self.partials
    }

    /// `Σ_k f(chunk_k)` over the chunks of `0..n`, added left to right (bitwise the same for
    /// every thread count).
    pub(crate) fn sum<F>(&mut self, par: Parallel, n: usize, f: F) -> f64
    where
        F: Fn(Range<usize>) -> f64 + Sync + Send,
    {
        self.sum2(par, n, |r| [f(r), 0.0])[0]
    }

    /// Two sums in one pass: `Σ_k f(chunk_k)` componentwise, added left to right.
    pub(crate) fn sum2<F>(&mut self, par: Parallel, n: usize, f: F) -> [f64; 2]
    where
        F: Fn(Range<usize>) -> [f64; 2] + Sync + Send,
    {
        self.fill(par, n, f)
            .iter()
            .fold([0.0, 0.0], |acc, p| [acc[0] + p[0], acc[1] + p[1]])
    }

    /// `max(0, max_k f(chunk_k))`.
    pub(crate) fn max<F>(&mut self, par: Parallel, n: usize, f: F) -> f64
    where
        F: Fn(Range<usize>) -> f64 + Sync + Send,
    {
        self.fill(par, n, |r| [f(r), 0.0])
            .iter()
            .fold(0.0, |m, p| m.max(p[0]))
    }
}

/// `Σ a_i b_i` in a fixed order with eight partial sums (vectorises; deterministic).
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0_f64; 8];
    let ca = a.chunks_exact(8);
    let cb = b.chunks_exact(8);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// `Σ a_i²` in a fixed order.
#[inline]
pub(crate) fn sum_sq(a: &[f64]) -> f64 {
    dot(a, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_agree_between_serial_and_forced_parallel() {
        let v: Vec<f64> = (0..20_011)
            .map(|i| ((i * 7919) % 1013) as f64 * 1e-3 - 0.4)
            .collect();
        let mut r = Reducer::default();
        let f = |rg: Range<usize>| v[rg].iter().map(|x| x * x).sum::<f64>();
        let a = r.sum(Parallel::Serial, v.len(), f);
        let b = r.sum(Parallel::Threshold(0), v.len(), f);
        assert_eq!(a.to_bits(), b.to_bits());
        let m = |rg: Range<usize>| v[rg].iter().fold(0.0, |m: f64, x| m.max(x.abs()));
        assert_eq!(
            r.max(Parallel::Serial, v.len(), m),
            r.max(Parallel::Threshold(0), v.len(), m)
        );
        assert_eq!(r.sum(Parallel::Serial, 0, f), 0.0);
    }

    #[test]
    fn dot_is_exact_on_small_integers() {
        let a: Vec<f64> = (0..19).map(f64::from).collect();
        assert_eq!(dot(&a, &a), (0..19).map(|i| (i * i) as f64).sum::<f64>());
        assert_eq!(sum_sq(&[]), 0.0);
    }
}
