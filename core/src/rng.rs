//! The shared pseudo-random generator: SplitMix64, twin of `hansa_lab/engine/rng.py`.
//!
//! Every method is defined only in terms of [`Rng::next_u64`], with the same algorithms as
//! the Python class (see its module docstring): rejection sampling for [`Rng::below`],
//! 53-bit floats, Fisher–Yates shuffles from the end, partial Fisher–Yates samples.

pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
const M1: u64 = 0xBF58_476D_1CE4_E5B9;
const M2: u64 = 0x94D0_49BB_1331_11EB;

/// SplitMix64's output function.
pub fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(M1);
    let z = (z ^ (z >> 27)).wrapping_mul(M2);
    z ^ (z >> 31)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    pub state: u64,
}

impl Rng {
    /// `Rng(seed)`: the state starts at `seed` (a Python seed taken mod 2**64).
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The strategy stream of `seat` in the game with `seed` (`seat_stream` in Python).
    pub fn seat_stream(seed: u64, seat: u64) -> Rng {
        Rng {
            state: mix64(mix64(seed) ^ (seat + 1)),
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix64(self.state)
    }

    /// Uniform integer in `[0, n)`, `n >= 1`: draw until `x < 2**64 - (2**64 % n)`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n >= 1);
        let n = n.max(1);
        // rem = 2**64 % n; accept x < 2**64 - rem (every x when rem == 0)
        let rem = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if rem == 0 || x < rem.wrapping_neg() {
                return x % n;
            }
        }
    }

    pub fn random(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Index of a uniform choice among `len` items (`len >= 1`).
    #[inline]
    pub fn choice_index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        let n = x.len();
        if n < 2 {
            return;
        }
        for i in (1..n).rev() {
            let j = self.below(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }

    pub fn sample<T: Clone>(&mut self, population: &[T], k: usize) -> Vec<T> {
        let n = population.len();
        let k = k.min(n);
        let mut pool = population.to_vec();
        for i in 0..k {
            let j = i + self.below((n - i) as u64) as usize;
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_numbers_as_python() {
        // values printed by hansa_lab.engine.rng (doctest)
        assert_eq!(Rng::new(1).next_u64(), 10451216379200822465);
        assert_eq!(Rng::new(7).below(10), 7);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(3);
        let mut v: Vec<u32> = (0..20).collect();
        r.shuffle(&mut v);
        let mut w = v.clone();
        w.sort();
        assert_eq!(w, (0..20).collect::<Vec<u32>>());
    }
}
