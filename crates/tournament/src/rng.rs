//! The seeded generator behind the knsb-1988 draws of lots (K1D).
//!
//! SplitMix64 (Steele, Lea, Flood 2014), written out here so that a draw depends only on the
//! seed stored in the tournament and the draw's number, never on a library's version: draw
//! number `k` (counting from 0 over the whole tournament) is the `k`-th output of SplitMix64
//! seeded with the tournament's seed, [`nth`]`(seed, k)`.

/// SplitMix64's increment.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `n`-th output (from 0) of SplitMix64 seeded with `seed`.
pub const fn nth(seed: u64, n: u64) -> u64 {
    mix(seed.wrapping_add(GAMMA.wrapping_mul(n.wrapping_add(1))))
}

/// SplitMix64 as a stream.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A number below `bound` (`bound` > 0); the tiny modulo bias does not matter here.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_matches_nth() {
        let mut g = SplitMix64::new(1234567);
        for n in 0..10 {
            assert_eq!(g.next_u64(), nth(1234567, n));
        }
    }

    #[test]
    fn reference_values() {
        // The first outputs of SplitMix64 seeded with 1234567, as the reference C code gives.
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
    }
}
