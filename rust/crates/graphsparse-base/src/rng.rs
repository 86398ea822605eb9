//! The one seeded generator of the house: SplitMix64 (Steele, Lea & Flood, 2014).
//!
//! Generators, randomised pivots, test vectors and benchmarks all draw from it, so a seed means
//! the same stream on every platform and in every crate. It is not cryptographic.

/// The SplitMix64 increment (2⁶⁴ divided by the golden ratio, odd).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective 64-bit mixer, also a good hash of an integer.
///
/// # Example
/// ```
/// use graphsparse_base::mix64;
/// assert_ne!(mix64(1), mix64(2));
/// assert_eq!(mix64(0), 0); // a bijection that fixes 0
/// ```
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seeded SplitMix64 stream. Every seed, 0 included, gives a full-period stream.
///
/// # Example
/// ```
/// use graphsparse_base::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let u = a.uniform();
/// assert!((0.0..1.0).contains(&u));
/// assert!(a.below(10) < 10);
/// // independent streams for the items of one seeded run (graph i of a collection, ...)
/// assert_ne!(SplitMix64::stream(7, 0).next_u64(), SplitMix64::stream(7, 1).next_u64());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The stream of `seed`.
    #[inline]
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// Stream number `stream` of `seed`: the item-`stream` generator of a seeded run, so that
    /// items can be drawn in any order, or in parallel, and still get the same numbers.
    #[inline]
    pub const fn stream(seed: u64, stream: u64) -> Self {
        Self::new(mix64(seed.wrapping_add(GOLDEN_GAMMA)) ^ mix64(stream.wrapping_add(GOLDEN_GAMMA)))
    }

    /// The state: [`SplitMix64::new`] of it resumes the stream where it stands.
    ///
    /// # Example
    /// ```
    /// use graphsparse_base::SplitMix64;
    /// let mut a = SplitMix64::new(3);
    /// a.next_u64();
    /// let mut b = SplitMix64::new(a.state());
    /// assert_eq!(a.next_u64(), b.next_u64());
    /// ```
    #[inline]
    pub const fn state(&self) -> u64 {
        self.state
    }

    /// The next 64 random bits.
    #[inline]
    #[allow(clippy::should_implement_trait)] // not an iterator: it never ends
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix64(self.state)
    }

    /// Uniform in `0..n` by Lemire's multiply-shift (bias below `n`/2⁶⁴); `n = 0` gives 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal draw (Box–Muller, one of the pair).
    #[inline]
    pub fn normal(&mut self) -> f64 {
        // 1 - u is in (0, 1], so the logarithm is finite
        let r = (-2.0 * (1.0 - self.uniform()).ln()).sqrt();
        r * (std::f64::consts::TAU * self.uniform()).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // SplitMix64 from seed 1234567, as published with the algorithm's reference code
        let mut g = SplitMix64::new(1_234_567);
        assert_eq!(g.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(g.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn draws_are_in_range_and_roughly_uniform() {
        let mut g = SplitMix64::new(0);
        let mut counts = [0u32; 8];
        for _ in 0..80_000 {
            counts[g.below(8) as usize] += 1;
            let u = g.uniform();
            assert!((0.0..1.0).contains(&u));
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        let mean = (0..40_000).map(|_| g.normal()).sum::<f64>() / 40_000.0;
        assert!(mean.abs() < 0.03, "{mean}");
    }
}
