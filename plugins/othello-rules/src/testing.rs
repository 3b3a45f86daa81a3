//! Seeded random play, for tests: this crate's, and those of the plugins
//! built on it. Everything here is deterministic for a given seed.

use crate::board::{squares, Position, PASS};

/// The next number of the SplitMix64 sequence whose state is `state`.
pub fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A legal move of `position` drawn with `state`: [`PASS`] when it has no
/// placement.
pub fn random_move(position: &Position, state: &mut u64) -> u32 {
    let moves: Vec<u32> = squares(position.placements()).collect();
    if moves.is_empty() {
        PASS
    } else {
        moves[(next(state) % moves.len() as u64) as usize]
    }
}

/// A game played from the start with moves drawn with `state`, stopped once
/// `empties` or fewer squares are empty, or earlier when the game ends.
pub fn random_position(state: &mut u64, empties: u32) -> Position {
    let mut position = Position::START;
    while 64 - (position.black | position.white).count_ones() > empties && !position.is_game_over()
    {
        position = position.play(random_move(&position, state));
    }
    position
}
