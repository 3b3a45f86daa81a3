//! A SplitMix64 generator, seeded explicitly so that whatever draws from it
//! can be replayed: an arena match (its random openings and its chance
//! outcomes) from the seed printed in its log, and `plyd bench`'s random
//! positions from its fixed seed.
//!
//! Its users need only a handful of draws and no statistical subtlety, so a
//! few lines of well-known arithmetic serve better than a dependency whose
//! stream might change between versions.

/// A SplitMix64 stream (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The stream that starts at `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// An independent stream for item `index` of a match seeded with
    /// `seed`: the pair's opening or its chance outcomes. Deriving it from
    /// the index, not from a shared generator, keeps every game the same
    /// whatever order the workers happen to play them in.
    pub fn for_item(seed: u64, stream: u64, index: u64) -> Self {
        let mut mixer = SplitMix64::new(seed ^ stream.wrapping_mul(0xA24B_AED4_963E_E407));
        let base = mixer.next_u64();
        SplitMix64::new(base ^ index.wrapping_mul(0x9FB2_1C65_1E98_DF25))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0). The high half of a 128-bit
    /// product maps the 64 random bits onto the range; its bias is below
    /// `bound / 2^64`, far beneath anything a match could notice.
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// The index of one of `weights`, each chosen with probability
    /// proportional to its weight. `None` when the weights sum to zero.
    pub fn pick_weighted(&mut self, weights: &[u32]) -> Option<usize> {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut ticket = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            let w = u64::from(w);
            if ticket < w {
                return Some(i);
            }
            ticket -= w;
        }
        unreachable!("the ticket lies below the total weight")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_stream() {
        // The first outputs for seed 0 as printed by the reference C
        // implementation (splitmix64.c by Sebastiano Vigna): starting from
        // x = 0, the first call returns 0xe220a8397b1dcdaf.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(42);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            let r = rng.below(6) as usize;
            seen[r] += 1;
        }
        // Each face near 1000; a broken mapping (always 0, or never 5)
        // would fail this by hundreds.
        for count in seen {
            assert!((800..1200).contains(&count), "{seen:?}");
        }
    }

    #[test]
    fn weighted_pick_follows_the_weights() {
        let mut rng = SplitMix64::new(7);
        let weights = [1, 0, 3];
        let mut seen = [0u32; 3];
        for _ in 0..4000 {
            seen[rng.pick_weighted(&weights).unwrap()] += 1;
        }
        assert_eq!(seen[1], 0, "a zero weight is never picked");
        assert!((800..1200).contains(&seen[0]), "{seen:?}");
        assert!((2800..3200).contains(&seen[2]), "{seen:?}");
        assert_eq!(rng.pick_weighted(&[0, 0]), None);
        assert_eq!(rng.pick_weighted(&[]), None);
    }

    #[test]
    fn item_streams_are_reproducible_and_distinct() {
        let a = SplitMix64::for_item(1, 0, 5).next_u64();
        assert_eq!(a, SplitMix64::for_item(1, 0, 5).next_u64());
        assert_ne!(a, SplitMix64::for_item(1, 0, 6).next_u64());
        assert_ne!(a, SplitMix64::for_item(1, 1, 5).next_u64());
        assert_ne!(a, SplitMix64::for_item(2, 0, 5).next_u64());
    }
}
