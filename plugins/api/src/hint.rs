//! Hints to the processor that change no result, only how soon it comes.
//!
//! A plugin's own tables (a solver's transposition table, a cache of
//! evaluations) are often larger than the processor's nearer caches, so
//! that a look-up waits on memory. Asking for the slot's cache line as
//! soon as its key is known, and doing other work before the look-up,
//! lets the two overlap:
//!
//! ```
//! let table = vec![0u64; 1 << 16];
//! let key = 0x9e37_79b9_7f4a_7c15u64;
//! let slot = (key >> 48) as usize;
//! plyd_api::hint::prefetch(&table[slot]);
//! // ... work that does not need the slot ...
//! assert_eq!(table[slot], 0);
//! ```

/// Ask the processor to bring the cache line holding `value` into its
/// nearest cache, without waiting for it. Does nothing on processors for
/// which the crate knows no such instruction.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = (value as *const T).cast::<i8>();
        // SAFETY: `ptr` comes from a live reference; a prefetch reads and
        // writes nothing the program can see, and never faults.
        unsafe {
            core::arch::x86_64::_mm_prefetch(ptr, core::arch::x86_64::_MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
