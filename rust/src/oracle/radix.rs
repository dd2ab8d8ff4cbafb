//! LSD radix sorts on 16-bit digits. Passes whose digit is the same for every key are skipped,
//! so small ids and balances cost fewer passes.

const DIGIT_BITS: u32 = 16;
const BUCKETS: usize = 1 << DIGIT_BITS;

pub fn sort_u64(keys: &mut Vec<u64>) {
    sort_by_digits(keys, 4, |k, d| {
        ((k >> (d * DIGIT_BITS)) as usize) & (BUCKETS - 1)
    });
}

pub fn sort_u32(keys: &mut Vec<u32>) {
    sort_by_digits(keys, 2, |k, d| {
        ((k >> (d * DIGIT_BITS)) as usize) & (BUCKETS - 1)
    });
}

/// `digit(k, d)` is the d-th 16-bit digit of `k`, least significant first; it must agree with
/// `Ord` on `T` (true for unsigned integers).
fn sort_by_digits<T: Copy + Default + Ord>(
    keys: &mut Vec<T>,
    digits: u32,
    digit: impl Fn(T, u32) -> usize,
) {
    if keys.len() < 4096 {
        // Small inputs: the histograms would cost more than a comparison sort.
        keys.sort_unstable();
        return;
    }
    // One flat histogram per digit, on the heap (65 536 counters each).
    let mut hist = vec![0usize; BUCKETS * digits as usize];
    for &k in keys.iter() {
        for (d, h) in hist.chunks_exact_mut(BUCKETS).enumerate() {
            h[digit(k, d as u32)] += 1;
        }
    }
    let mut buf = vec![T::default(); keys.len()];
    for (d, h) in hist.chunks_exact_mut(BUCKETS).enumerate() {
        if h.contains(&keys.len()) {
            continue; // every key has the same digit here
        }
        let mut sum = 0;
        for n in h.iter_mut() {
            let c = *n;
            *n = sum;
            sum += c;
        }
        for &k in keys.iter() {
            let b = digit(k, d as u32);
            buf[h[b]] = k;
            h[b] += 1;
        }
        std::mem::swap(keys, &mut buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::SplitMix64;

    #[test]
    fn sorts_like_the_standard_sort() {
        let mut rng = SplitMix64(7);
        for n in [0, 1, 5, 255, 256, 10_000] {
            let mut a: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
            let mut b = a.clone();
            sort_u64(&mut a);
            b.sort_unstable();
            assert_eq!(a, b);
            let mut c: Vec<u32> = (0..n).map(|_| rng.next_u64() as u32 % 1000).collect();
            let mut d = c.clone();
            sort_u32(&mut c);
            d.sort_unstable();
            assert_eq!(c, d);
        }
    }
}
