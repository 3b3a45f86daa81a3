//! A learned estimate of the probability that the side to move wins, before
//! its roll: a network of n-tuples trained by temporal differences in games
//! against itself (`examples/train_learned.rs`), the weights shipped in
//! `learned.bin` next to this crate. `odds` uses it in place of the race
//! where no exact value is at hand (`learned = true`).
//!
//! # Features
//!
//! The board is seen from the side to move and turned to play Red's way
//! (its stones head for `e1`, square 4; Blue's board is turned half round).
//! Each square is one of nine states: empty, or a stone of the side to
//! move or of the other side with 1, 2, 3, or 4 or more faces of its die
//! selecting it (its own and those of missing stones next to it by
//! number). What a stone's number is does not matter beyond that.
//!
//! * every 2x2 block of squares (16 tables of 9^4 entries);
//! * every rank, and the two long diagonals (7 tables of 9^5 entries);
//! * the stones each side has, and for each side its nearest stone's
//!   distance to its corner and faces (one table of 14,400 entries).
//!
//! The game is the same mirrored in the diagonal through both corners
//! (`e1`-`a5`, which swaps files and ranks), so every tuple is read
//! twice, on the squares as they are and mirrored, into the same table:
//! a rank's table also reads the files. The estimate is the logistic
//! function of the sum of the entries read.

use std::sync::{Arc, OnceLock};

use plyd_einstein_rules::board::{distance, Board, NO_SQUARE, RED};

/// Square states: 0 empty, 1..=4 the side to move's stone selected by 1,
/// 2, 3 or 4+ faces, 5..=8 the other side's.
const STATES: usize = 9;

/// The tuples, on the board turned to play Red's way.
const TUPLES: [&[u8]; 23] = [
    &[0, 1, 5, 6],
    &[1, 2, 6, 7],
    &[2, 3, 7, 8],
    &[3, 4, 8, 9],
    &[5, 6, 10, 11],
    &[6, 7, 11, 12],
    &[7, 8, 12, 13],
    &[8, 9, 13, 14],
    &[10, 11, 15, 16],
    &[11, 12, 16, 17],
    &[12, 13, 17, 18],
    &[13, 14, 18, 19],
    &[15, 16, 20, 21],
    &[16, 17, 21, 22],
    &[17, 18, 22, 23],
    &[18, 19, 23, 24],
    &[0, 1, 2, 3, 4],
    &[5, 6, 7, 8, 9],
    &[10, 11, 12, 13, 14],
    &[15, 16, 17, 18, 19],
    &[20, 21, 22, 23, 24],
    &[0, 6, 12, 18, 24],
    &[20, 16, 12, 8, 4],
];

/// Entries of the table of counts, distances and faces.
const GLOBAL: usize = 6 * 6 * 5 * 4 * 5 * 4;

/// Where each tuple's table starts, and the table of counts last.
const OFFSETS: [usize; TUPLES.len() + 1] = offsets();

/// Weights in all.
pub const WEIGHTS: usize = OFFSETS[TUPLES.len()] + GLOBAL;

const fn offsets() -> [usize; TUPLES.len() + 1] {
    let mut out = [0; TUPLES.len() + 1];
    let mut t = 0;
    while t < TUPLES.len() {
        out[t + 1] = out[t] + STATES.pow(TUPLES[t].len() as u32);
        t += 1;
    }
    out
}

/// The square mirrored in the diagonal through `a5` and `e1`.
const fn mirror(sq: u8) -> u8 {
    let (f, r) = (sq % 5, sq / 5);
    (4 - r) + 5 * (4 - f)
}

/// Lanes of [`PLACES`]' rows: the tuple features, padded to a multiple
/// of eight so that a row adds as whole vectors of `u16`.
const LANES: usize = 48;

/// For each square (on the board turned to play Red's way), the place
/// value `9^i` it has in each feature that reads it as digit `i` (counted
/// from the last), 0 in the others. A tuple's index is the sum over its
/// squares of the square's state times its place value; every index is
/// below 9^5 = 59,049, so it fits a `u16`.
const PLACES: [[u16; LANES]; 25] = places();

/// Where each feature's table starts: its tuple's offset.
const BASES: [u32; 2 * TUPLES.len()] = bases();

const fn places() -> [[u16; LANES]; 25] {
    let mut out = [[0u16; LANES]; 25];
    let mut t = 0;
    while t < TUPLES.len() {
        let tuple = TUPLES[t];
        let mut i = 0;
        let mut place = 1u16;
        while i < tuple.len() {
            let sq = tuple[tuple.len() - 1 - i];
            out[sq as usize][2 * t] = place;
            out[mirror(sq) as usize][2 * t + 1] = place;
            place *= STATES as u16;
            i += 1;
        }
        t += 1;
    }
    out
}

const fn bases() -> [u32; 2 * TUPLES.len()] {
    let mut out = [0; 2 * TUPLES.len()];
    let mut t = 0;
    while t < TUPLES.len() {
        out[2 * t] = OFFSETS[t] as u32;
        out[2 * t + 1] = OFFSETS[t] as u32;
        t += 1;
    }
    out
}

/// The indices a position reads, one a tuple and mirror and one of the
/// table of counts: `FEATURES` in all.
pub const FEATURES: usize = 2 * TUPLES.len() + 1;

/// Faces of `side`'s die that select each of its stones (index by number;
/// a face offering two stones counts for both): a stone's own face, and
/// every missing number between it and the nearest stones it has on each
/// side by number (or the end of the die).
fn faces(board: &Board, side: usize) -> [u8; 7] {
    // Slot 0 stands for "no stone below": the faces under the lowest
    // stone land there as well as on it, and are wiped at the end.
    let mut out = [0u8; 7];
    let mut below = 0u8;
    for n in 1..=6u8 {
        if board.has(side, n) {
            let gap = n - below - 1;
            out[usize::from(n)] = 1 + gap;
            out[usize::from(below)] += gap;
            below = n;
        }
    }
    out[usize::from(below)] += 6 - below;
    out[0] = 0;
    out
}

/// The indices of the weights that a board in play, before its roll,
/// reads, from the view of its side to move.
pub fn features(board: &Board) -> [u32; FEATURES] {
    let me = board.mover();
    let mut sums = [0u16; LANES];
    let mut nearest = [(5u8, 0u8); 2];
    let mut counts = [0usize; 2];
    for (view, side) in [(0usize, me), (1, 1 - me)] {
        let faces = faces(board, side);
        for (&sq, &f) in board.squares[side][1..].iter().zip(&faces[1..]) {
            if sq == NO_SQUARE {
                continue;
            }
            counts[view] += 1;
            let k = f.clamp(1, 4);
            let turned = if me == RED { sq } else { 24 - sq };
            let state = u16::from(k) + 4 * view as u16;
            for (sum, &place) in sums.iter_mut().zip(&PLACES[usize::from(turned) % 25]) {
                *sum += state * place;
            }
            let d = distance(side, sq);
            if d < nearest[view].0 || (d == nearest[view].0 && k > nearest[view].1) {
                nearest[view] = (d, k);
            }
        }
    }
    let mut out = [0u32; FEATURES];
    for ((slot, &sum), base) in out.iter_mut().zip(&sums).zip(&BASES) {
        *slot = base + u32::from(sum);
    }
    let dist = |d: u8| usize::from(d.min(4));
    let global = ((((counts[0].max(1) - 1) * 6 + counts[1].max(1) - 1) * 5 + dist(nearest[0].0))
        * 4
        + usize::from(nearest[0].1.max(1) - 1))
        * 20
        + dist(nearest[1].0) * 4
        + usize::from(nearest[1].1.max(1) - 1);
    out[FEATURES - 1] = (OFFSETS[TUPLES.len()] + global) as u32;
    out
}

/// The network's weights.
#[derive(Clone)]
pub struct Net {
    /// One weight per table entry, in the order of [`features`]' indices.
    pub weights: Vec<f32>,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Net({} weights)", self.weights.len())
    }
}

impl Default for Net {
    fn default() -> Self {
        Net {
            weights: vec![0.0; WEIGHTS],
        }
    }
}

/// The file's first eight bytes.
const MAGIC: &[u8; 8] = b"plydewn1";

impl Net {
    /// The sum of the weights a position reads (the estimate's logit).
    pub fn logit_of(&self, features: &[u32; FEATURES]) -> f32 {
        features.iter().map(|&i| self.weights[i as usize]).sum()
    }

    /// The estimate for a position that reads `features`: the logistic
    /// function of their sum.
    pub fn probability_of(&self, features: &[u32; FEATURES]) -> f64 {
        let x = f64::from(self.logit_of(features));
        1.0 / (1.0 + (-x).exp())
    }

    /// The probability that the side to move wins `board` (in play, before
    /// its roll).
    pub fn probability(&self, board: &Board) -> f64 {
        self.probability_of(&features(board))
    }

    /// The weights as a file: [`MAGIC`], the count (u32), the scale (f32),
    /// then each weight as an i16 of `weight / scale`, all little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let largest = self.weights.iter().fold(0f32, |m, w| m.max(w.abs()));
        let scale = (largest / 32767.0).max(f32::MIN_POSITIVE);
        let mut out = Vec::with_capacity(16 + 2 * self.weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        out.extend_from_slice(&scale.to_le_bytes());
        for &w in &self.weights {
            out.extend_from_slice(&((w / scale).round() as i16).to_le_bytes());
        }
        out
    }

    /// Read weights written by [`Net::encode`].
    pub fn decode(bytes: &[u8]) -> Result<Net, String> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err("not a plyd EinStein weights file".to_string());
        }
        let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        if count != WEIGHTS || bytes.len() != 16 + 2 * count {
            return Err(format!(
                "weights file holds {count} weights in {} bytes; this build reads {WEIGHTS}",
                bytes.len()
            ));
        }
        let scale = f32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        let weights = bytes[16..]
            .chunks_exact(2)
            .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) * scale)
            .collect();
        Ok(Net { weights })
    }
}

const SHIPPED: &[u8] = include_bytes!("../learned.bin");

/// The shipped network.
pub fn shipped() -> Arc<Net> {
    static NET: OnceLock<Arc<Net>> = OnceLock::new();
    NET.get_or_init(|| Arc::new(Net::decode(SHIPPED).expect("the shipped learned.bin is valid")))
        .clone()
}

/// A network from a weights file.
pub fn from_file(path: &str) -> Result<Arc<Net>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    Net::decode(&bytes)
        .map(Arc::new)
        .map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_games::for_positions_in_play;

    #[test]
    fn mirroring_twice_is_the_square_and_keeps_both_corners() {
        for sq in 0..25u8 {
            assert_eq!(mirror(mirror(sq)), sq);
        }
        assert_eq!(mirror(4), 4);
        assert_eq!(mirror(20), 20);
        assert_eq!(mirror(21), 15);
    }

    /// Each tuple's index read square by square from its list in
    /// [`TUPLES`], each stone's faces counted by asking the rules what
    /// every face selects: the place values that [`features`] adds up
    /// stone by stone, and its counted gaps, must give the same.
    #[test]
    fn the_place_values_give_each_tuples_index() {
        let mut positions = 0;
        for_positions_in_play(0x5851_f42d_4c95_7f2d, 100, |board| {
            let got = features(board);
            let me = board.mover();
            let mut cells = [0usize; 25];
            for (view, side) in [(0usize, me), (1, 1 - me)] {
                // What each face of the die selects, by the rules.
                let mut faces = [0u8; 7];
                for face in 1..=6 {
                    let (stones, n) = board.movable(side, face);
                    for &s in &stones[..n] {
                        faces[usize::from(s)] += 1;
                    }
                }
                for (&sq, &f) in board.squares[side][1..].iter().zip(&faces[1..]) {
                    if sq != NO_SQUARE {
                        let turned = if me == RED { sq } else { 24 - sq };
                        cells[usize::from(turned)] = usize::from(f.clamp(1, 4)) + 4 * view;
                    }
                }
            }
            for (t, tuple) in TUPLES.iter().enumerate() {
                let read = |map: fn(u8) -> u8| {
                    tuple
                        .iter()
                        .fold(0, |index, &sq| index * STATES + cells[usize::from(map(sq))])
                };
                assert_eq!(got[2 * t] as usize, OFFSETS[t] + read(|sq| sq), "tuple {t}");
                assert_eq!(
                    got[2 * t + 1] as usize,
                    OFFSETS[t] + read(mirror),
                    "tuple {t}"
                );
            }
            positions += 1;
        });
        assert!(positions > 1000, "{positions}");
    }

    #[test]
    fn features_stay_in_their_tables_and_the_shipped_file_reads_back() {
        let net = shipped();
        assert_eq!(Net::decode(&net.encode()).unwrap().weights.len(), WEIGHTS);
        let mut positions = 0;
        for_positions_in_play(0x2545_f491_4f6c_dd1d, 200, |board| {
            let f = features(board);
            for (t, &i) in f[..FEATURES - 1].iter().enumerate() {
                let i = i as usize;
                assert!(i >= OFFSETS[t / 2] && i < OFFSETS[t / 2 + 1]);
            }
            assert!((f[FEATURES - 1] as usize) < WEIGHTS);
            let p = net.probability(board);
            assert!((0.0..=1.0).contains(&p));
            positions += 1;
        });
        assert!(positions > 2000, "{positions}");
    }

    /// `board` with its stones moved by `map` and, with `swap`, each
    /// side's stones given to the other side, which moves next.
    fn transformed(board: &Board, map: impl Fn(u8) -> u8, swap: bool) -> Board {
        let mut out = board.clone();
        out.cells = [0; 25];
        out.squares = [[NO_SQUARE; 7]; 2];
        for side in 0..2 {
            let to = if swap { 1 - side } else { side };
            for n in 1..=6u8 {
                let sq = board.squares[side][usize::from(n)];
                if sq != NO_SQUARE {
                    out.squares[to][usize::from(n)] = map(sq);
                    out.cells[usize::from(map(sq))] = n + 6 * to as u8;
                }
            }
            out.counts[to] = board.counts[side];
        }
        if swap {
            out.side ^= 1;
        }
        out
    }

    /// The game is the same mirrored in the diagonal through both corners,
    /// and with the colours swapped and the board turned half round: the
    /// network must say so, whatever its weights (here the shipped ones
    /// and random ones).
    #[test]
    fn mirrored_and_colour_swapped_positions_are_valued_alike() {
        // Weights spread over -1 to 1 by a multiplicative hash of their index.
        let random = Net {
            weights: (0..WEIGHTS as u64)
                .map(|i| ((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 53) as f32 / 1024.0 - 1.0)
                .collect(),
        };
        let shipped = shipped();
        let mut checked = 0;
        for_positions_in_play(0x9E37_79B9_7F4A_7C15, 100, |board| {
            let mirrored = transformed(board, mirror, false);
            let swapped = transformed(board, |sq| 24 - sq, true);
            assert!(!mirrored.is_over() && !swapped.is_over());
            for net in [&random, &*shipped] {
                let p = net.probability(board);
                assert!((p - net.probability(&mirrored)).abs() < 1e-6);
                assert!((p - net.probability(&swapped)).abs() < 1e-6);
            }
            checked += 1;
        });
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn a_bad_file_is_refused() {
        assert!(Net::decode(b"plydewn1").is_err());
        assert!(Net::decode(&[0; 64]).is_err());
        let mut short = Net::default().encode();
        short.pop();
        assert!(Net::decode(&short).is_err());
    }
}
