//! Exact win probabilities of the small endings: every position with at
//! most three stones on the board (one against one, two against one, one
//! against two), for the side about to roll, under best play by both sides.
//!
//! # How they are computed
//!
//! Retrograde analysis with dice. A position is seen from the side about to
//! roll, turned so that it plays Red's way (towards `e1`): the other side's
//! squares are turned half a turn round the board (`sq -> 24 - sq`) when
//! Blue is to roll. Its value is
//!
//! ```text
//! V(p) = 1/6 Σ_face max over the steps the face allows of
//!          1                     if the step reaches the corner or takes the last enemy stone,
//!          1 - V(p after the step, seen from the other side)   otherwise
//! ```
//!
//! Every step brings a stone nearer its corner or takes a stone off, so no
//! position comes back and one pass of memoised recursion solves them all
//! (no iteration to a fixed point). The die only matters through which
//! numbers a side has: a lone stone moves whatever the roll, so its number
//! is dropped; two stones keep theirs (15 pairs).
//!
//! # The table and its file
//!
//! 469,375 entries: 625 for one stone against one, then 15 × 25³ for two
//! against one and 15 × 25³ for one against two, each the probability
//! × 65535 rounded, as a little-endian `u16` (entries for impossible
//! positions, such as two stones on one square, are 0 and never read).
//! The file `endgame.bin` next to this crate holds a 16-byte header
//! (`PLYDEWN1`, the entry count and an FNV-1a checksum of the entries, both
//! little-endian `u32`) and the entries: 938,766 bytes. It is built into
//! the plugin with `include_bytes!`, so the plugin stays one file and needs
//! no path at run time, and it is checked (header, count, checksum) the
//! first time an evaluator asks for it. Solving takes well under a second
//! in a release build, so the file could be computed at first use instead;
//! it is shipped so that the numbers every game uses are fixed, visible in
//! review, and cost nothing when an engine starts under a clock.
//! Regenerate it with
//!
//! ```sh
//! cargo run --release -p plyd-game-einstein --example build_endgame
//! ```
//!
//! (the test `shipped_table_is_the_solved_one` fails when the file and the
//! solver disagree).

use std::sync::OnceLock;

use plyd_einstein_rules::board::{number, owner, Board, STAGE_PLAY};

/// The shipped file.
const SHIPPED: &[u8] = include_bytes!("../endgame.bin");

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"PLYDEWN1";

/// Entries for one stone against one.
const ONE_ONE: usize = 625;
/// Entries for two stones against one (and for one against two).
const TWO_ONE: usize = 15 * 25 * 25 * 25;
/// Offsets of the three parts.
const OFF_11: usize = 0;
const OFF_21: usize = ONE_ONE;
const OFF_12: usize = ONE_ONE + TWO_ONE;
/// All entries.
pub const ENTRIES: usize = ONE_ONE + 2 * TWO_ONE;

/// The corner the side to roll heads for, once turned to play Red's way.
const CORNER: u8 = 4;
/// The corner of the other side, in the same view.
const THEIR_CORNER: u8 = 20;

/// A stone: its number and square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stone {
    number: u8,
    sq: u8,
}

/// A small ending from the view of the side to roll (playing Red's way).
#[derive(Clone, Copy, Debug)]
struct Ending {
    mine: [Stone; 2],
    my_count: usize,
    theirs: [Stone; 2],
    their_count: usize,
}

/// Index of a pair of numbers `a < b` among the 15.
fn pair(a: u8, b: u8) -> usize {
    debug_assert!(a < b && b <= 6);
    // Pairs (1,2)..(1,6) are 0..4, (2,3)..(2,6) 5..8, and so on.
    let a = usize::from(a);
    let b = usize::from(b);
    (a - 1) * (12 - a) / 2 + (b - a - 1)
}

/// The two stones in number order.
fn ordered(stones: &[Stone; 2]) -> (Stone, Stone) {
    if stones[0].number < stones[1].number {
        (stones[0], stones[1])
    } else {
        (stones[1], stones[0])
    }
}

impl Ending {
    fn index(&self) -> usize {
        match (self.my_count, self.their_count) {
            (1, 1) => OFF_11 + usize::from(self.mine[0].sq) * 25 + usize::from(self.theirs[0].sq),
            (2, 1) => {
                let (lo, hi) = ordered(&self.mine);
                OFF_21
                    + ((pair(lo.number, hi.number) * 25 + usize::from(lo.sq)) * 25
                        + usize::from(hi.sq))
                        * 25
                    + usize::from(self.theirs[0].sq)
            }
            (1, 2) => {
                let (lo, hi) = ordered(&self.theirs);
                OFF_12
                    + ((pair(lo.number, hi.number) * 25 + usize::from(lo.sq)) * 25
                        + usize::from(hi.sq))
                        * 25
                    + usize::from(self.mine[0].sq)
            }
            _ => unreachable!("only endings of three stones or fewer are indexed"),
        }
    }

    /// The same position seen from the other side.
    fn flipped(&self) -> Ending {
        let turn = |s: Stone| Stone {
            number: s.number,
            sq: 24 - s.sq,
        };
        Ending {
            mine: self.theirs.map(turn),
            my_count: self.their_count,
            theirs: self.mine.map(turn),
            their_count: self.my_count,
        }
    }

    /// Whether the position can occur before a roll: distinct squares, no
    /// stone on its corner.
    fn is_valid(&self) -> bool {
        let mine = &self.mine[..self.my_count];
        let theirs = &self.theirs[..self.their_count];
        let all: Vec<u8> = mine.iter().chain(theirs).map(|s| s.sq).collect();
        let distinct = all
            .iter()
            .enumerate()
            .all(|(i, sq)| !all[i + 1..].contains(sq));
        distinct
            && mine.iter().all(|s| s.sq != CORNER)
            && theirs.iter().all(|s| s.sq != THEIR_CORNER)
    }

    /// The stones (by slot) a face lets the side to roll move.
    fn movable(&self, face: u8) -> ([usize; 2], usize) {
        if self.my_count == 1 {
            return ([0, 0], 1);
        }
        let (a, b) = (self.mine[0].number, self.mine[1].number);
        let (lo, hi) = if a < b { (0, 1) } else { (1, 0) };
        let (lo_n, hi_n) = (a.min(b), a.max(b));
        if face <= lo_n {
            ([lo, 0], 1)
        } else if face >= hi_n {
            ([hi, 0], 1)
        } else {
            ([lo, hi], 2)
        }
    }

    /// The value for the side to move after stone `slot` steps to `to`:
    /// 1 for a win, else one minus the other side's value.
    fn after_step(&self, slot: usize, to: u8, solve: &mut impl FnMut(&Ending) -> f64) -> f64 {
        if to == CORNER {
            return 1.0;
        }
        let mut next = *self;
        next.mine[slot].sq = to;
        if let Some(t) = next.theirs[..next.their_count]
            .iter()
            .position(|s| s.sq == to)
        {
            if next.their_count == 1 {
                return 1.0;
            }
            next.theirs[t] = next.theirs[1 - t];
            next.their_count = 1;
        }
        if next.my_count == 2 && next.mine[1 - slot].sq == to {
            next.mine[0] = next.mine[slot];
            next.my_count = 1;
        }
        1.0 - solve(&next.flipped())
    }

    /// `V(p)` from the values of the positions after each step.
    fn value(&self, solve: &mut impl FnMut(&Ending) -> f64) -> f64 {
        let mut total = 0.0;
        for face in 1..=6 {
            let (slots, n) = self.movable(face);
            let mut best: f64 = 0.0;
            for &slot in &slots[..n] {
                let (to, count) = plyd_einstein_rules::board::steps(0, self.mine[slot].sq);
                for &t in &to[..count] {
                    best = best.max(self.after_step(slot, t, solve));
                }
            }
            total += best;
        }
        total / 6.0
    }
}

/// Every ending, from an index (and whether it can occur).
fn ending_at(index: usize) -> Ending {
    let none = Stone { number: 0, sq: 0 };
    let pairs: Vec<(u8, u8)> = (1..=6u8)
        .flat_map(|a| (a + 1..=6).map(move |b| (a, b)))
        .collect();
    if index < OFF_21 {
        let i = index - OFF_11;
        return Ending {
            mine: [
                Stone {
                    number: 1,
                    sq: (i / 25) as u8,
                },
                none,
            ],
            my_count: 1,
            theirs: [
                Stone {
                    number: 1,
                    sq: (i % 25) as u8,
                },
                none,
            ],
            their_count: 1,
        };
    }
    let (base, two_mine) = if index < OFF_12 {
        (index - OFF_21, true)
    } else {
        (index - OFF_12, false)
    };
    let single = (base % 25) as u8;
    let hi_sq = (base / 25 % 25) as u8;
    let lo_sq = (base / 625 % 25) as u8;
    let (a, b) = pairs[base / 15625];
    let two = [
        Stone {
            number: a,
            sq: lo_sq,
        },
        Stone {
            number: b,
            sq: hi_sq,
        },
    ];
    let one = [
        Stone {
            number: 1,
            sq: single,
        },
        none,
    ];
    if two_mine {
        Ending {
            mine: two,
            my_count: 2,
            theirs: one,
            their_count: 1,
        }
    } else {
        Ending {
            mine: one,
            my_count: 1,
            theirs: two,
            their_count: 2,
        }
    }
}

/// Solve every ending: the probabilities, `f64::NAN` for positions that
/// cannot occur.
pub fn solve_all() -> Vec<f64> {
    let mut memo = vec![f64::NAN; ENTRIES];
    let mut done = vec![false; ENTRIES];
    fn solve(e: &Ending, memo: &mut [f64], done: &mut [bool]) -> f64 {
        let i = e.index();
        if done[i] {
            return memo[i];
        }
        let v = e.value(&mut |next: &Ending| solve(next, memo, done));
        memo[i] = v;
        done[i] = true;
        v
    }
    for index in 0..ENTRIES {
        let e = ending_at(index);
        if e.is_valid() && !done[index] {
            solve(&e, &mut memo, &mut done);
        }
    }
    memo
}

/// FNV-1a over bytes.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The file for a solved table.
pub fn encode(values: &[f64]) -> Vec<u8> {
    let mut entries = Vec::with_capacity(values.len() * 2);
    for &v in values {
        let q = if v.is_nan() {
            0
        } else {
            (v * 65535.0).round() as u16
        };
        entries.extend_from_slice(&q.to_le_bytes());
    }
    let mut out = Vec::with_capacity(16 + entries.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(values.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&entries).to_le_bytes());
    out.extend_from_slice(&entries);
    out
}

/// Read a table file, checking its header, size and checksum.
pub fn decode(bytes: &[u8]) -> Result<Vec<u16>, String> {
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err("not an EinStein endgame table (bad header)".to_string());
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let count = word(8) as usize;
    let entries = &bytes[16..];
    if count != ENTRIES || entries.len() != 2 * count {
        return Err(format!(
            "endgame table holds {} bytes for {count} entries; {ENTRIES} entries expected",
            entries.len()
        ));
    }
    if fnv1a(entries) != word(12) {
        return Err("endgame table checksum mismatch".to_string());
    }
    Ok(entries
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect())
}

/// The shipped table, read once.
pub fn table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| decode(SHIPPED).expect("the shipped endgame.bin is valid"))
}

/// The ending of a board with at most three stones in play, seen from the
/// side to move.
fn ending_of(board: &Board) -> Option<Ending> {
    if board.stage != STAGE_PLAY || board.counts[0] + board.counts[1] > 3 || board.is_over() {
        return None;
    }
    let me = board.mover();
    let none = Stone { number: 0, sq: 0 };
    let mut e = Ending {
        mine: [none; 2],
        my_count: 0,
        theirs: [none; 2],
        their_count: 0,
    };
    for (sq, &cell) in board.cells.iter().enumerate() {
        if cell == 0 {
            continue;
        }
        // Blue's view turns the board half round.
        let sq = if me == 0 { sq as u8 } else { 24 - sq as u8 };
        let stone = Stone {
            number: number(cell),
            sq,
        };
        if owner(cell) == me {
            e.mine[e.my_count] = stone;
            e.my_count += 1;
        } else {
            e.theirs[e.their_count] = stone;
            e.their_count += 1;
        }
    }
    Some(e)
}

/// The probability that the side to move wins, for a position in play with
/// at most three stones, from the shipped table: before the roll, the
/// table's entry; after it, the best step's value. `None` for any other
/// position.
pub fn win_probability(board: &Board) -> Option<f64> {
    let e = ending_of(board)?;
    let table = table();
    let mut lookup = |next: &Ending| f64::from(table[next.index()]) / 65535.0;
    if board.roll == 0 {
        return Some(lookup(&e));
    }
    let (slots, n) = e.movable(board.roll);
    let mut best: f64 = 0.0;
    for &slot in &slots[..n] {
        let (to, count) = plyd_einstein_rules::board::steps(0, e.mine[slot].sq);
        for &t in &to[..count] {
            best = best.max(e.after_step(slot, t, &mut lookup));
        }
    }
    Some(best)
}

/// The table's value for the side about to roll with stones `mine` and
/// the other side's `theirs` (number and square, seen from the side to
/// roll, playing Red's way), at most three stones in all, none on its
/// corner, on distinct squares.
pub(crate) fn table_value(mine: &[(u8, u8)], theirs: &[(u8, u8)]) -> f64 {
    debug_assert!(!mine.is_empty() && !theirs.is_empty() && mine.len() + theirs.len() <= 3);
    let none = Stone { number: 0, sq: 0 };
    let mut e = Ending {
        mine: [none; 2],
        my_count: mine.len(),
        theirs: [none; 2],
        their_count: theirs.len(),
    };
    for (slot, &(number, sq)) in mine.iter().enumerate() {
        e.mine[slot] = Stone { number, sq };
    }
    for (slot, &(number, sq)) in theirs.iter().enumerate() {
        e.theirs[slot] = Stone { number, sq };
    }
    f64::from(table()[e.index()]) / 65535.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_numbered_0_to_14() {
        let mut seen = Vec::new();
        for a in 1..=6 {
            for b in a + 1..=6 {
                seen.push(pair(a, b));
            }
        }
        assert_eq!(seen, (0..15).collect::<Vec<_>>());
    }

    #[test]
    fn indices_round_trip() {
        for index in (0..ENTRIES).step_by(7) {
            let e = ending_at(index);
            assert_eq!(e.index(), index);
        }
    }
}
