//! The transposition table: one table shared by every search thread, without
//! locks.
//!
//! An entry is three 64-bit atomic words:
//!
//! | word | bits   | field                                              |
//! |------|--------|----------------------------------------------------|
//! | 1    | 0..32  | best move (`NULL_MOVE` when there is none)          |
//! | 1    | 32..64 | score, `i32`, mate scores relative to the node      |
//! | 2    | 0..32  | static evaluation, `i32`                            |
//! | 2    | 32..40 | depth (0 for a quiescence result)                   |
//! | 2    | 40..42 | bound: 0 empty, 1 upper, 2 lower, 3 exact           |
//! | 2    | 42..48 | generation (the search that wrote it, modulo 64)    |
//! | 2    | 48     | proof: written by a search that pruned nothing      |
//! | 0    | 0..64  | `key ^ word1 ^ word2`                               |
//!
//! Threads read and write entries with relaxed loads and stores and no lock,
//! so a reader can see words from two different writes (a torn entry). Word 0
//! holds the key folded with the two data words: a torn entry fails the
//! check `word0 ^ word1 ^ word2 == key` (unless three random words happen to
//! agree, a chance of 2^-64) and reads as a miss. A move that does come back
//! may still belong to another position with the same key, which is why the
//! search checks every table move for legality before playing it.
//!
//! Entries are grouped four to a cluster; a position may sit in any entry of
//! its cluster. A new position replaces the entry of least worth: shallow
//! entries and entries left over from earlier searches go first.
//!
//! A proof search (`go mate`, nothing pruned forward) takes its scores only
//! from entries that proof searches wrote: a bound from a pruned search may
//! have missed a mate below its depth. Their moves still order its moves.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use plyd_api::{Move, NULL_MOVE};

use super::heuristics::{Heuristics, Tables};
use super::score::{is_decisive, MAX_PLY};
use super::worker::Scratch;

/// Entries per cluster.
const CLUSTER: usize = 4;
/// Atomic words per entry.
const WORDS: usize = 3;
/// Bytes in one cluster.
const CLUSTER_BYTES: usize = CLUSTER * WORDS * 8;
/// Generations wrap at this value (6 bits).
const GENERATIONS: u8 = 64;
/// Word 2's mark of an entry a proof search wrote.
const PROOF_BIT: u64 = 1 << 48;

/// What a stored score says about the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (no move reached alpha).
    Upper,
    /// The true score is at least the stored one (a move reached beta).
    Lower,
    /// The stored score is exact.
    Exact,
}

impl Bound {
    fn bits(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A verified entry, as read by [`TranspositionTable::probe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found, if any. It may be illegal here (a key collision).
    pub best: Option<Move>,
    /// The score, already adjusted to the probing node's ply.
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth the score was searched to.
    pub depth: u32,
    /// How the score bounds the true score.
    pub bound: Bound,
    /// Whether the score may decide a node of this search: always, but in
    /// a proof search only where a proof search wrote it.
    pub trusted: bool,
}

impl Bound {
    /// What a fail-soft `value` searched in the window `(alpha, beta)` is:
    /// a lower bound at or above beta, an upper bound at or below alpha,
    /// exact in between.
    pub fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

impl TtHit {
    /// Whether the stored score decides a node searched to `depth` in the
    /// window `(alpha, beta)`: deep enough, and exact or a bound on the
    /// side of the window it falls.
    #[inline]
    pub fn is_usable(&self, depth: u32, alpha: i32, beta: i32) -> bool {
        self.trusted
            && self.depth >= depth
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.score >= beta,
                Bound::Upper => self.score <= alpha,
            }
    }
}

/// The shared table. Its size changes only between searches (`resize`
/// takes `&mut self`).
pub struct TranspositionTable {
    words: Vec<AtomicU64>,
    clusters: usize,
    generation: AtomicU8,
    /// Whether the search now running is a proof search (see the module's
    /// notes).
    proof: AtomicBool,
    /// Whether an entry has been written since the words were last zero.
    written: AtomicBool,
    /// A clear asked for and not yet done (see
    /// [`TranspositionTable::clear_before_next_search`]).
    clear_pending: bool,
    /// Each search thread's histories, kept from one search to the next
    /// (see [`TranspositionTable::take_memory`]) and emptied with the
    /// table.
    memory: parking_lot::Mutex<Vec<Option<(String, Heuristics)>>>,
    /// Each search thread's per-ply buffers from the last search, by the
    /// thread's number (see [`TranspositionTable::take_scratch`]).
    scratch: parking_lot::Mutex<Vec<Option<Scratch>>>,
}

/// Score as stored: a win or loss counted from the node instead of the root,
/// so that it stays true wherever the position is met again.
fn score_to_table(score: i32, ply: usize) -> i32 {
    if is_decisive(score) {
        if score > 0 {
            score + ply as i32
        } else {
            score - ply as i32
        }
    } else {
        score
    }
}

/// The reverse of [`score_to_table`] at the probing node's `ply`.
fn score_from_table(score: i32, ply: usize) -> i32 {
    if is_decisive(score) {
        if score > 0 {
            score - ply as i32
        } else {
            score + ply as i32
        }
    } else {
        score
    }
}

/// `len` zero words, their memory already mapped, or `None` if the memory
/// cannot be had. The allocator hands over zeroed memory whose pages (on
/// Linux) the kernel maps only when first written; each page is written
/// here once (see [`map_pages`]), so that no search pays for that on its
/// clock.
fn zeroed_words(len: usize) -> Option<Vec<AtomicU64>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<AtomicU64>(len).ok()?;
    // SAFETY: the layout has a non-zero size. An all-zero AtomicU64 is a
    // valid 0, and the allocation was made with exactly the layout a
    // Vec<AtomicU64> of capacity `len` frees with.
    let words = unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if ptr.is_null() {
            return None;
        }
        advise_huge_pages(ptr.cast::<u8>(), layout.size());
        Vec::from_raw_parts(ptr, len, len)
    };
    map_pages(&words);
    Some(words)
}

/// Ask the kernel to back the whole 2 MiB pages inside `bytes` bytes
/// from `start` with huge pages, where it offers them: a probe of a large
/// table then seldom misses the processor's page-translation caches
/// (Stockfish asks the same for its table). On Linux only; elsewhere, and
/// where the kernel declines, the table works as before.
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let first = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
        if end > first {
            // SAFETY: the range lies inside the caller's live allocation;
            // the advice changes how the kernel backs its pages, never
            // what they hold. A refusal (an error code) is harmless.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// Words one thread zeroes, or maps, when a table is cleared or
/// allocated: 32 MiB.
const ZERO_CHUNK: usize = 1 << 22;

/// Words in a 4 KiB page of memory.
const WORDS_PER_PAGE: usize = 4096 / 8;

/// Run `work` over `words` in parts, on as many threads as the machine has
/// processors once they hold more than `chunk` words (Stockfish clears its
/// table the same way); a part whose thread cannot be had (an
/// address-space limit may refuse its stack) is worked here instead.
fn in_parts(words: &[AtomicU64], chunk: usize, work: impl Fn(&[AtomicU64]) + Sync) {
    let processors = crate::threads::hardware_threads().unwrap_or(1);
    let threads = processors.min(words.len().div_ceil(chunk)).max(1);
    if threads == 1 {
        work(words);
        return;
    }
    let work = &work;
    let mut parts = words.chunks(words.len().div_ceil(threads));
    let first = parts.next().unwrap_or(&[]);
    std::thread::scope(|scope| {
        for part in parts {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || work(part));
            if spawned.is_err() {
                work(part);
            }
        }
        work(first);
    });
}

/// Write zeros over `words`.
fn zero_in_place(words: &[AtomicU64], chunk: usize) {
    in_parts(words, chunk, |part| {
        part.iter().for_each(|w| w.store(0, Ordering::Relaxed))
    });
}

/// Write a zero into every page of `words` (zero already), so that the
/// kernel maps each page now rather than at a search's first read or
/// write of it. A table allocated and left to be mapped on demand made the
/// first searches after it pay a page fault for each page they touched:
/// with `Hash` 1024, the first one-second search from Othello's start
/// reached depth 8 (14,577 nodes) where one on a mapped table reached 18
/// (7.8 million). The atomic stores are not optimised away, as plain
/// stores of a zero into memory known to be zero may be.
fn map_pages(words: &[AtomicU64]) {
    touch_pages(words, ZERO_CHUNK);
}

/// [`map_pages`] in parts of `chunk` words: a zero written at each part's
/// start, every [`WORDS_PER_PAGE`] words after it and at its end, which
/// lands in every page the part spans.
fn touch_pages(words: &[AtomicU64], chunk: usize) {
    in_parts(words, chunk, |part| {
        for piece in part.chunks(WORDS_PER_LOOK) {
            if STOP_MAPPING.load(Ordering::Relaxed) {
                return;
            }
            piece
                .iter()
                .step_by(WORDS_PER_PAGE)
                .chain(piece.last())
                .for_each(|w| w.store(0, Ordering::Relaxed));
        }
    });
}

/// Words mapped between two looks at [`STOP_MAPPING`]: 2 MiB.
const WORDS_PER_LOOK: usize = 1 << 18;

/// Raised once the daemon has read `quit` or the end of its input: a
/// table still being mapped ([`map_pages`]) stops there. Its pages left
/// unmapped are mapped when first touched, which no search is left to
/// do; `quit` right after a large `Hash` waited for the whole mapping (3
/// GiB on the loaded 2-core machine: 14.7 s).
pub static STOP_MAPPING: AtomicBool = AtomicBool::new(false);

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one cluster). Fails, instead of
    /// aborting the process, when the memory cannot be had.
    pub fn new(mib: usize) -> Result<Self, String> {
        let mut table = TranspositionTable {
            memory: parking_lot::Mutex::new(Vec::new()),
            scratch: parking_lot::Mutex::new(Vec::new()),
            words: Vec::new(),
            clusters: 0,
            generation: AtomicU8::new(0),
            proof: AtomicBool::new(false),
            written: AtomicBool::new(false),
            clear_pending: false,
        };
        table.resize(mib)?;
        Ok(table)
    }

    /// Reallocate for `mib` MiB, emptying the table. The old table is freed
    /// first (under a tight memory limit both may not fit at once); on
    /// failure the table has its old size again, emptied.
    pub fn resize(&mut self, mib: usize) -> Result<(), String> {
        let clusters = (mib.saturating_mul(1 << 20) / CLUSTER_BYTES).max(1);
        if clusters == self.clusters {
            self.clear();
            return Ok(());
        }
        // Emptied, as by `clear`: the histories go with the entries (kept,
        // a search after `Hash` counted neither a fresh process's nodes nor
        // the last search's).
        for (_, heuristics) in self.memory.get_mut().iter_mut().flatten() {
            heuristics.reset();
        }
        let too_big = || format!("cannot allocate a {mib} MiB hash table");
        let len = clusters.checked_mul(CLUSTER * WORDS).ok_or_else(too_big)?;
        let old_len = self.words.len();
        self.words = Vec::new();
        let (words, clusters, result) = match zeroed_words(len) {
            Some(words) => (words, clusters, Ok(())),
            None => {
                // The old size was had a moment ago; a table of one
                // cluster if not even that.
                let (words, clusters) = match zeroed_words(old_len) {
                    Some(words) if old_len > 0 => (words, self.clusters),
                    _ => (zeroed_words(CLUSTER * WORDS).ok_or_else(too_big)?, 1),
                };
                (words, clusters, Err(too_big()))
            }
        };
        self.words = words;
        *self.written.get_mut() = false;
        self.clear_pending = false;
        self.clusters = clusters;
        self.generation.store(0, Ordering::Relaxed);
        result
    }

    /// How many search threads' histories are kept from the last search:
    /// their memory is taken already.
    pub fn kept_histories(&self) -> usize {
        self.memory.lock().iter().filter(|m| m.is_some()).count()
    }

    /// Size in MiB, rounded down.
    pub fn size_mib(&self) -> usize {
        self.clusters * CLUSTER_BYTES / (1 << 20)
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.clusters * CLUSTER
    }

    /// Thread `id`'s histories from the last search, if they were kept
    /// for the same `game` with the same `tables` (killers forgotten: they
    /// belong to the plies of another search); otherwise fresh ones.
    pub(super) fn take_memory(&self, id: usize, game: &str, tables: Tables) -> Heuristics {
        let kept = self.memory.lock().get_mut(id).and_then(Option::take);
        match kept {
            Some((of, mut heuristics)) if of == game && heuristics.tables() == tables => {
                heuristics.clear_all_killers();
                heuristics
            }
            other => {
                // The old tables go before the new ones are allocated:
                // under an address-space limit both may not fit.
                drop(other);
                Heuristics::new(tables)
            }
        }
    }

    /// Drop the histories kept for threads `threads` and above: a search
    /// with fewer threads than the last would otherwise hold them (about
    /// 9 MiB a thread) for good, and zero them at every new game, mapping
    /// pages they never used (after one search on 32 threads, a
    /// `ucinewgame` on one took resident memory from 85 to 321 MiB).
    pub(crate) fn keep_memory_of(&self, threads: usize) {
        let dropped: Vec<_> = {
            let mut memory = self.memory.lock();
            let from = threads.min(memory.len());
            memory.drain(from..).collect()
        };
        drop(dropped);
        let dropped: Vec<_> = {
            let mut scratch = self.scratch.lock();
            let from = threads.min(scratch.len());
            scratch.drain(from..).collect()
        };
        drop(dropped);
    }

    /// Thread `id`'s per-ply buffers from the last search, emptied, or new
    /// ones. Made afresh at every search, they cost a search on many
    /// threads more than its first iteration: about 270 KiB a thread
    /// (lists for 1,025 plies), page faults and all, so that on 2 cores
    /// `go depth 1` on 256 threads took 40 to 110 ms.
    pub(super) fn take_scratch(&self, id: usize) -> Scratch {
        let kept = self.scratch.lock().get_mut(id).and_then(Option::take);
        match kept {
            Some(mut scratch) => {
                scratch.reset();
                scratch
            }
            None => Scratch::new(),
        }
    }

    /// Keep thread `id`'s per-ply buffers for the next search.
    pub(super) fn keep_scratch(&self, id: usize, scratch: Scratch) {
        let mut kept = self.scratch.lock();
        if kept.len() <= id {
            kept.resize_with(id + 1, || None);
        }
        kept[id] = Some(scratch);
    }

    /// Keep thread `id`'s histories of `game` for the next search.
    pub(super) fn keep_memory(&self, id: usize, game: &str, heuristics: Heuristics) {
        let mut memory = self.memory.lock();
        if memory.len() <= id {
            memory.resize_with(id + 1, || None);
        }
        memory[id] = Some((game.to_string(), heuristics));
    }

    /// Forget every entry, and what the histories kept between searches
    /// learned. The histories keep their memory, zeroed here rather than
    /// allocated and zeroed again at the next search's start: a new game
    /// (`ucinewgame`) pays for it before the clock runs.
    pub fn clear(&mut self) {
        for (_, heuristics) in self.memory.get_mut().iter_mut().flatten() {
            heuristics.reset();
        }
        // A table nothing has written to is still zero. Otherwise it is
        // zeroed in place: its pages stay mapped (they were mapped when it
        // was allocated), so the next search pays no page fault on its
        // clock, and zeroing costs no more than the memory's bandwidth.
        if *self.written.get_mut() {
            zero_in_place(&self.words, ZERO_CHUNK);
            *self.written.get_mut() = false;
        }
        self.generation.store(0, Ordering::Relaxed);
        self.clear_pending = false;
    }

    /// Ask for [`TranspositionTable::clear`] to be done when the engine
    /// next waits for nothing but it (`ucinewgame`): see
    /// [`TranspositionTable::settle`].
    pub fn clear_before_next_search(&mut self) {
        self.clear_pending = true;
    }

    /// Whether a clear asked for by
    /// [`TranspositionTable::clear_before_next_search`] is still to do.
    pub fn clear_pending(&self) -> bool {
        self.clear_pending
    }

    /// Do the clear asked for, if any, before a search or at `isready`;
    /// for a search whose clock is running (`on_the_clock`), drop it
    /// instead: zeroing a large table takes long enough to lose a fast
    /// game on time (8 GiB: about 0.65 s on a 2-core machine), and the
    /// entries of the last game are still true of their positions, so
    /// they are kept, to age out as any old entry does. Whether the table
    /// was cleared.
    pub fn settle(&mut self, on_the_clock: bool) -> bool {
        if !self.clear_pending {
            return false;
        }
        if on_the_clock {
            self.clear_pending = false;
            return false;
        }
        self.clear();
        true
    }

    /// Start a new search: entries written before now age by one.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) % GENERATIONS;
        self.generation.store(next, Ordering::Relaxed);
        self.proof.store(false, Ordering::Relaxed);
    }

    /// Make the search now starting a proof search: it writes entries
    /// marked as proven and trusts no others' scores. Until the next
    /// [`TranspositionTable::new_search`].
    pub fn begin_proof(&self) {
        self.proof.store(true, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        u64::from(self.generation.load(Ordering::Relaxed))
    }

    /// First word of the cluster for `key`. The multiply maps the key's
    /// high bits evenly onto the clusters, whatever their number.
    #[inline]
    fn cluster_start(&self, key: u64) -> usize {
        let cluster = ((u128::from(key) * self.clusters as u128) >> 64) as usize;
        cluster * CLUSTER * WORDS
    }

    #[inline]
    fn load(&self, at: usize) -> (u64, u64, u64) {
        (
            self.words[at].load(Ordering::Relaxed),
            self.words[at + 1].load(Ordering::Relaxed),
            self.words[at + 2].load(Ordering::Relaxed),
        )
    }

    /// Let the processor fetch the cluster of `key` ahead of the probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        plyd_api::hint::prefetch(&self.words[self.cluster_start(key)]);
    }

    /// The entry for `key`, if one is stored intact. `ply` is the probing
    /// node's distance from the root, for mate scores.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let start = self.cluster_start(key);
        for slot in 0..CLUSTER {
            let (check, data, info) = self.load(start + slot * WORDS);
            if check ^ data ^ info != key {
                continue;
            }
            let Some(bound) = Bound::from_bits((info >> 40) & 3) else {
                continue;
            };
            let mv = data as u32;
            return Some(TtHit {
                best: (mv != NULL_MOVE).then_some(mv),
                score: score_from_table((data >> 32) as u32 as i32, ply),
                eval: info as u32 as i32,
                depth: ((info >> 32) & 0xff) as u32,
                bound,
                trusted: info & PROOF_BIT != 0 || !self.proof.load(Ordering::Relaxed),
            });
        }
        None
    }

    /// Store a search result for `key`. A result for a position already in
    /// the table replaces it unless the old one is deeper from this same
    /// search and the new one is not exact; its move is kept when the new
    /// result has none.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        best: Option<Move>,
        score: i32,
        eval: i32,
        depth: u32,
        bound: Bound,
        ply: usize,
    ) {
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
        let start = self.cluster_start(key);
        let generation = self.generation();
        let mut victim = start;
        let mut victim_worth = i64::MAX;
        let mut old_move = NULL_MOVE;
        for slot in 0..CLUSTER {
            let at = start + slot * WORDS;
            let (check, data, info) = self.load(at);
            let used = (info >> 40) & 3 != 0;
            if !used || check ^ data ^ info == key {
                victim = at;
                if used {
                    let old_depth = ((info >> 32) & 0xff) as u32;
                    let old_generation = (info >> 42) & 0x3f;
                    if bound != Bound::Exact
                        && old_generation == generation
                        && old_depth > depth + 2
                    {
                        return;
                    }
                    old_move = data as u32;
                }
                break;
            }
            let age = (generation + u64::from(GENERATIONS) - ((info >> 42) & 0x3f))
                % u64::from(GENERATIONS);
            let worth = ((info >> 32) & 0xff) as i64 - 8 * age as i64;
            if worth < victim_worth {
                victim_worth = worth;
                victim = at;
            }
        }
        let mv = best.unwrap_or(old_move);
        let score = score_to_table(score, ply.min(MAX_PLY));
        let data = u64::from(mv) | (u64::from(score as u32) << 32);
        let info = u64::from(eval as u32)
            | (u64::from(depth.min(255)) << 32)
            | (bound.bits() << 40)
            | (generation << 42)
            | if self.proof.load(Ordering::Relaxed) {
                PROOF_BIT
            } else {
                0
            };
        self.words[victim + 1].store(data, Ordering::Relaxed);
        self.words[victim + 2].store(info, Ordering::Relaxed);
        self.words[victim].store(key ^ data ^ info, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written by the current search, for
    /// `info hashfull`.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.clusters.min(250);
        let mut used = 0;
        for cluster in 0..sample {
            for slot in 0..CLUSTER {
                let info =
                    self.words[(cluster * CLUSTER + slot) * WORDS + 2].load(Ordering::Relaxed);
                if (info >> 40) & 3 != 0 && (info >> 42) & 0x3f == generation {
                    used += 1;
                }
            }
        }
        if sample == 0 {
            0
        } else {
            (used * 1000 / (sample * CLUSTER)) as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{loss_in, win_in};

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1).unwrap();
        assert!(tt.probe(42, 0).is_none());
        tt.store(42, Some(7), -123, 55, 9, Bound::Lower, 3);
        let hit = tt.probe(42, 3).unwrap();
        assert_eq!(
            hit,
            TtHit {
                best: Some(7),
                score: -123,
                eval: 55,
                depth: 9,
                bound: Bound::Lower,
                trusted: true,
            }
        );
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1).unwrap();
        // A win 3 plies below a node at ply 5 scores win_in(8) at the root.
        tt.store(1, None, win_in(8), 0, 4, Bound::Exact, 5);
        // Met again at ply 2, the same win is 3 plies away: win_in(5).
        assert_eq!(tt.probe(1, 2).unwrap().score, win_in(5));
        tt.store(2, None, loss_in(6), 0, 4, Bound::Exact, 4);
        assert_eq!(tt.probe(2, 0).unwrap().score, loss_in(2));
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(99, Some(3), 10, 0, 5, Bound::Exact, 0);
        let at = tt.cluster_start(99);
        // Another writer's data word lands between our check and info words.
        tt.words[at + 1].store(0xdead_beef, Ordering::Relaxed);
        assert!(tt.probe(99, 0).is_none());
    }

    #[test]
    fn keeps_the_old_move_when_the_new_result_has_none() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(5, Some(11), 0, 0, 3, Bound::Exact, 0);
        tt.store(5, None, 1, 0, 4, Bound::Upper, 0);
        let hit = tt.probe(5, 0).unwrap();
        assert_eq!((hit.best, hit.depth, hit.score), (Some(11), 4, 1));
    }

    #[test]
    fn shallow_results_do_not_evict_deep_ones_of_the_same_search() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(5, Some(1), 10, 0, 12, Bound::Lower, 0);
        tt.store(5, Some(2), 20, 0, 2, Bound::Upper, 0);
        assert_eq!(tt.probe(5, 0).unwrap().depth, 12);
        // An older search's entry gives way.
        tt.new_search();
        tt.store(5, Some(2), 20, 0, 2, Bound::Upper, 0);
        assert_eq!(tt.probe(5, 0).unwrap().depth, 2);
    }

    #[test]
    fn replacement_prefers_old_and_shallow_entries() {
        let mut tt = TranspositionTable::new(1).unwrap();
        tt.resize(0).unwrap();
        assert_eq!(tt.capacity(), CLUSTER);
        // With one cluster every key lands in it.
        for key in 1..=4u64 {
            tt.store(key, None, 0, 0, 10 + key as u32, Bound::Exact, 0);
        }
        tt.store(100, None, 0, 0, 1, Bound::Exact, 0);
        // The shallowest (key 1, depth 11) gave way.
        assert!(tt.probe(1, 0).is_none());
        assert!(tt.probe(100, 0).is_some());
        tt.new_search();
        tt.new_search();
        tt.store(200, None, 0, 0, 1, Bound::Exact, 0);
        // Everything else is two searches old; the shallowest goes.
        assert!(tt.probe(100, 0).is_none());
        for key in 2..=4u64 {
            assert!(tt.probe(key, 0).is_some());
        }
    }

    /// A proof search trusts no score a pruned search wrote, keeps its
    /// move, and trusts its own; a later search trusts both.
    #[test]
    fn a_proof_search_trusts_only_proven_scores() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.new_search();
        tt.store(5, Some(3), 40, 0, 12, Bound::Upper, 0);
        tt.new_search();
        tt.begin_proof();
        let pruned = tt.probe(5, 0).unwrap();
        assert_eq!(pruned.best, Some(3));
        assert!(!pruned.trusted);
        assert!(!pruned.is_usable(1, 50, 51));
        tt.store(6, None, 40, 0, 12, Bound::Upper, 0);
        assert!(tt.probe(6, 0).unwrap().is_usable(1, 50, 51));
        tt.new_search();
        assert!(tt.probe(5, 0).unwrap().is_usable(1, 50, 51));
        assert!(tt.probe(6, 0).unwrap().is_usable(1, 50, 51));
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let mut tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        let mut key = 1u64;
        for _ in 0..tt.capacity() * 3 {
            key = key
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            tt.store(key, None, 0, 0, 1, Bound::Exact, 0);
        }
        assert!(tt.hashfull() > 900, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.store(key, None, 0, 0, 1, Bound::Exact, 0);
        tt.clear();
        assert!(tt.probe(key, 0).is_none());
    }

    #[test]
    fn histories_are_kept_per_game_until_the_table_is_cleared() {
        let mut tt = TranspositionTable::new(1).unwrap();
        let tables = Tables {
            continuation: true,
            ..Tables::default()
        };
        let mut h = tt.take_memory(0, "xiangqi", tables);
        h.update_history(0, 7, 1000);
        h.add_killer(3, 9);
        tt.keep_memory(0, "xiangqi", h);
        // The same game and tables: the history is back, the killers not.
        let h = tt.take_memory(0, "xiangqi", tables);
        assert_eq!(h.history(0, 7), 1000);
        assert_eq!(h.killers(3), [plyd_api::NULL_MOVE; 2]);
        tt.keep_memory(0, "xiangqi", h);
        // Another game, or other tables, start afresh.
        assert_eq!(tt.take_memory(0, "othello", tables).history(0, 7), 0);
        tt.keep_memory(0, "xiangqi", {
            let mut h = Heuristics::new(tables);
            h.update_history(0, 7, 1000);
            h
        });
        assert_eq!(
            tt.take_memory(0, "xiangqi", Tables::default())
                .history(0, 7),
            0
        );
        // Another thread's slot is its own; a cleared table keeps nothing.
        tt.keep_memory(2, "xiangqi", {
            let mut h = Heuristics::new(tables);
            h.update_history(0, 7, 1000);
            h
        });
        assert_eq!(tt.take_memory(1, "xiangqi", tables).history(0, 7), 0);
        tt.clear();
        assert_eq!(tt.take_memory(2, "xiangqi", tables).history(0, 7), 0);
        // A search on fewer threads drops the slots of the others.
        for id in 0..3 {
            tt.keep_memory(id, "xiangqi", {
                let mut h = Heuristics::new(tables);
                h.update_history(0, 7, 1000);
                h
            });
        }
        tt.keep_memory_of(1);
        assert_eq!(tt.memory.lock().len(), 1);
        assert_eq!(tt.take_memory(0, "xiangqi", tables).history(0, 7), 1000);
        assert_eq!(tt.take_memory(2, "xiangqi", tables).history(0, 7), 0);
    }

    #[test]
    fn a_cleared_table_zeroes_the_kept_histories_in_place() {
        use super::super::heuristics::{context, NO_CONTEXT};
        let mut tt = TranspositionTable::new(1).unwrap();
        let all = Tables {
            continuation: true,
            capture: true,
            counter: true,
            correction: true,
        };
        let (before, last, key) = (context(3, false), context(5, false), 11);
        // What every table reads for the moves learned about below.
        let read = |h: &Heuristics| {
            (
                h.history(0, 7),
                h.continuation(last, key),
                h.capture(0, key),
                h.counter(0, last),
                h.correction(0, last, before),
                h.killers(3),
            )
        };
        let mut h = tt.take_memory(0, "xiangqi", all);
        let fresh = read(&h);
        h.update_quiet(0, 7, key, &[last, before, NO_CONTEXT], 1000);
        h.update_capture(0, key, 1000);
        h.set_counter(0, last, 9);
        h.update_correction(0, last, before, 500, 8, 1000);
        h.add_killer(3, 9);
        let learned = read(&h);
        assert!(
            learned.0 != fresh.0
                && learned.1 != fresh.1
                && learned.2 != fresh.2
                && learned.3 != fresh.3
                && learned.4 != fresh.4
                && learned.5 != fresh.5,
            "every table learned something: {learned:?}"
        );
        tt.keep_memory(0, "xiangqi", h);
        tt.clear();
        let h = tt.take_memory(0, "xiangqi", all);
        assert_eq!(read(&h), fresh);
        assert_eq!(read(&Heuristics::new(all)), fresh);
    }

    /// The share of the 4 KiB pages lying wholly inside `words` that the
    /// kernel has mapped (`mincore`).
    #[cfg(target_os = "linux")]
    fn mapped_share(words: &[AtomicU64]) -> f64 {
        const PAGE: usize = 4096;
        let start = (words.as_ptr() as usize).next_multiple_of(PAGE);
        let end = (words.as_ptr() as usize + std::mem::size_of_val(words)) / PAGE * PAGE;
        let pages = (end - start) / PAGE;
        let mut mapped = vec![0u8; pages];
        // SAFETY: the range lies inside the live allocation of `words` and
        // is page-aligned; `mapped` has one byte for each of its pages.
        let answer =
            unsafe { libc::mincore(start as *mut libc::c_void, end - start, mapped.as_mut_ptr()) };
        assert_eq!(answer, 0);
        mapped.iter().filter(|&&m| m & 1 == 1).count() as f64 / pages as f64
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_table_is_mapped_before_any_search() {
        // 64 MiB: far above what the allocator takes from memory already
        // mapped, so every page comes from the kernel on demand.
        let mut tt = TranspositionTable::new(64).unwrap();
        assert!(tt.words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        assert!(
            mapped_share(&tt.words) > 0.999,
            "{}",
            mapped_share(&tt.words)
        );
        // So is a table resized.
        tt.resize(96).unwrap();
        assert!(
            mapped_share(&tt.words) > 0.999,
            "{}",
            mapped_share(&tt.words)
        );
        // The check can fail: memory freshly allocated is not mapped.
        let layout = std::alloc::Layout::array::<AtomicU64>(8 << 20).unwrap();
        // SAFETY: a non-zero layout; the memory is freed with the same
        // layout below, and read only through `mincore`.
        unsafe {
            let ptr = std::alloc::alloc_zeroed(layout);
            assert!(!ptr.is_null());
            let fresh = std::slice::from_raw_parts(ptr.cast::<AtomicU64>(), 8 << 20);
            assert!(mapped_share(fresh) < 0.5, "{}", mapped_share(fresh));
            std::alloc::dealloc(ptr, layout);
        }
    }

    #[test]
    fn a_clear_asked_for_is_done_off_the_clock_and_dropped_on_it() {
        let mut tt = TranspositionTable::new(1).unwrap();
        assert!(!tt.settle(false), "nothing asked, nothing done");
        tt.store(42, Some(3), 5, 7, 9, Bound::Exact, 0);
        tt.clear_before_next_search();
        assert!(tt.clear_pending());
        assert!(!tt.settle(true), "a search on the clock keeps the table");
        assert!(!tt.clear_pending(), "and the clear is not done later");
        assert!(tt.probe(42, 0).is_some());
        assert!(!tt.settle(false));
        assert!(tt.probe(42, 0).is_some());
        tt.clear_before_next_search();
        assert!(tt.settle(false), "cleared when nothing waits");
        assert!(!tt.clear_pending());
        assert!(tt.probe(42, 0).is_none());
        tt.store(42, Some(3), 5, 7, 9, Bound::Exact, 0);
        tt.clear_before_next_search();
        tt.clear();
        assert!(!tt.clear_pending(), "a clear done meanwhile answers it");
    }

    #[test]
    fn clearing_zeroes_the_words_in_place_once_written() {
        let mut tt = TranspositionTable::new(16).unwrap();
        let start = tt.words.as_ptr();
        tt.clear();
        assert!(!*tt.written.get_mut());
        let mut key = 1u64;
        for _ in 0..tt.capacity() / 2 {
            key = key
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            tt.store(key, Some(3), 5, 7, 9, Bound::Exact, 0);
        }
        assert!(*tt.written.get_mut());
        assert!(
            tt.words
                .iter()
                .filter(|w| w.load(Ordering::Relaxed) != 0)
                .count()
                > 1000
        );
        tt.clear();
        assert_eq!(tt.words.as_ptr(), start, "the same memory");
        assert!(tt.words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        assert!(tt.probe(key, 0).is_none());
        assert!(!*tt.written.get_mut());
        #[cfg(target_os = "linux")]
        assert!(mapped_share(&tt.words) > 0.999);
    }

    #[test]
    fn zeroing_on_several_threads_reaches_every_word() {
        for (len, chunk) in [(10_007, 1_000), (10_007, 10_007), (3, 1), (0, 4)] {
            let words: Vec<AtomicU64> = (0..len).map(|i| AtomicU64::new(i as u64 + 1)).collect();
            zero_in_place(&words, chunk);
            assert!(
                words.iter().all(|w| w.load(Ordering::Relaxed) == 0),
                "{len} {chunk}"
            );
        }
    }

    #[test]
    fn mapping_writes_into_every_page_in_parts() {
        for (len, chunk) in [
            (10_007usize, 1_000usize),
            (10_007, 10_007),
            (3_000, 700),
            (5, 1),
            (0, 4),
        ] {
            let words: Vec<AtomicU64> = (0..len).map(|_| AtomicU64::new(1)).collect();
            touch_pages(&words, chunk);
            let page = |w: &AtomicU64| (w as *const AtomicU64 as usize) / 4096;
            let pages: std::collections::BTreeSet<usize> = words.iter().map(page).collect();
            let written: std::collections::BTreeSet<usize> = words
                .iter()
                .filter(|w| w.load(Ordering::Relaxed) == 0)
                .map(page)
                .collect();
            assert_eq!(written, pages, "{len} {chunk}");
            // One write a page or a few, not the whole memory.
            let zeros = words
                .iter()
                .filter(|w| w.load(Ordering::Relaxed) == 0)
                .count();
            assert!(
                zeros <= 3 * pages.len() + 2 * len.div_ceil(chunk.max(1)),
                "{zeros}"
            );
        }
    }

    #[test]
    fn resize_changes_capacity() {
        let mut tt = TranspositionTable::new(1).unwrap();
        let one = tt.capacity();
        tt.resize(4).unwrap();
        assert!(tt.capacity() >= 4 * one && tt.capacity() < 4 * one + CLUSTER * 4);
        assert!(tt.size_mib() <= 4);
        assert!(TranspositionTable::new(usize::MAX >> 20).is_err());
    }
}
