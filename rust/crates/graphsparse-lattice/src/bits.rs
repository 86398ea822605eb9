//! Bit-set helpers over `u64` words (bit `i` is bit `i % 64` of word `i / 64`).

/// Number of words holding `n` bits.
#[inline]
pub(crate) const fn words(n: usize) -> usize {
    n.div_ceil(64)
}

/// Sets bit `i`.
#[inline]
pub(crate) fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1u64 << (i % 64);
}

/// Reads bit `i`.
#[inline]
pub(crate) fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

/// Number of set bits.
#[inline]
pub(crate) fn count(bits: &[u64]) -> usize {
    bits.iter().map(|w| w.count_ones() as usize).sum()
}

/// `out = a & b`; returns the number of set bits of the result.
#[inline]
pub(crate) fn and_into(a: &[u64], b: &[u64], out: &mut [u64]) -> usize {
    let mut n = 0;
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = x & y;
        n += o.count_ones() as usize;
    }
    n
}

/// Number of bits set in both `a` and `b`.
#[inline]
pub(crate) fn and_count(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(&x, &y)| (x & y).count_ones()).sum()
}

/// Appends the positions of the set bits, in increasing order, to `out`.
#[inline]
pub(crate) fn push_ones(bits: &[u64], out: &mut Vec<u32>) {
    for (w, &word) in bits.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let b = x.trailing_zeros();
            out.push((w * 64) as u32 + b);
            x &= x - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_count_and_ones() {
        let mut a = vec![0u64; words(130)];
        for i in [0, 5, 63, 64, 129] {
            set(&mut a, i);
        }
        assert!(get(&a, 63) && get(&a, 129) && !get(&a, 1));
        assert_eq!(count(&a), 5);
        let mut b = vec![0u64; words(130)];
        set(&mut b, 5);
        set(&mut b, 129);
        set(&mut b, 7);
        let mut o = vec![0u64; words(130)];
        assert_eq!(and_into(&a, &b, &mut o), 2);
        assert_eq!(and_count(&a, &b), 2);
        let mut ones = Vec::new();
        push_ones(&o, &mut ones);
        assert_eq!(ones, vec![5, 129]);
    }
}
