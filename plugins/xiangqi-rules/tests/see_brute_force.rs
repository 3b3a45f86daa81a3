//! The static exchange evaluation against a brute-force minimax of the same
//! definition (`plyd_xiangqi_rules::see`'s module docs), on positions from
//! seeded random playouts.
//!
//! The brute force shares nothing with `see` but the piece values: it
//! takes the captures on the target square from the full legal move
//! generator (`Position::legal_moves`, the one perft checks), plays them
//! with `Position::play`, and computes every exchange value exactly with no
//! pruning:
//!
//! ```text
//! gain(P) = max(0, max over legal captures c on t: value(P, t) - gain(P.c))
//! see(m)  = value(start, t) - gain(start.m)
//! ```
//!
//! For every legal move of every position, `see_ge(m, T)` must equal
//! `see(m) >= T` at `T = see(m)` and `see(m) + 1` (so it finds the value
//! exactly), at 0, and at a random threshold.

use plyd_api::Move;
use plyd_util::rng::SplitMix64;
use plyd_xiangqi_rules::board::{to_sq, Position};
use plyd_xiangqi_rules::see::{see_ge, value_on};
use plyd_xiangqi_rules::text::{parse_fen, START_FEN};

fn legal_moves(position: &Position) -> Vec<Move> {
    let mut moves = Vec::new();
    position.legal_moves(false, &mut |mv| moves.push(mv));
    moves
}

/// What the side to move gains at best from the exchange on `target`.
fn brute_gain(position: &mut Position, target: usize) -> i32 {
    let victim = value_on(position.board[target], target);
    let mut captures = Vec::new();
    position.legal_moves(true, &mut |mv| {
        if to_sq(mv) == target {
            captures.push(mv);
        }
    });
    let mut best = 0;
    for mv in captures {
        let captured = position.play(mv);
        let gain = victim - brute_gain(position, target);
        position.take_back(mv, captured);
        best = best.max(gain);
    }
    best
}

/// The exchange value of `mv`.
fn brute_see(position: &mut Position, mv: Move) -> i32 {
    let target = to_sq(mv);
    let won = value_on(position.board[target], target);
    let captured = position.play(mv);
    let value = won - brute_gain(position, target);
    position.take_back(mv, captured);
    value
}

/// Positions met along seeded random playouts from the start. Half the
/// playouts prefer captures, so that crowded exchanges and bare boards
/// are both well represented.
fn playout_positions(games: usize, seed: u64) -> Vec<Position> {
    let start = parse_fen(START_FEN).unwrap().position;
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::new();
    for game in 0..games {
        let greedy = game % 2 == 1;
        let mut position = start;
        for ply in 0..160 {
            let moves = legal_moves(&position);
            if moves.is_empty() {
                break;
            }
            if ply % 2 == 0 {
                positions.push(position);
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| position.board[to_sq(mv)] != 0)
                .collect();
            let mv = if greedy && !captures.is_empty() && rng.below(3) > 0 {
                captures[rng.below(captures.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            position.play(mv);
        }
    }
    positions
}

#[test]
fn see_ge_agrees_with_the_brute_force_on_random_positions() {
    let positions = playout_positions(80, 0x0005_ee0f_0a11);
    assert!(positions.len() >= 3000, "{} positions", positions.len());
    let mut rng = SplitMix64::new(0xc0ffee);
    let (mut moves_checked, mut losing, mut winning) = (0usize, 0usize, 0usize);
    for mut position in positions.iter().copied() {
        for mv in legal_moves(&position) {
            let exact = brute_see(&mut position, mv);
            let random = rng.below(4001) as i32 - 2000;
            for threshold in [exact, exact + 1, 0, random] {
                assert_eq!(
                    see_ge(&position, mv, threshold),
                    Some(exact >= threshold),
                    "see_ge({}, {threshold}) with the exact value {exact} in {}",
                    plyd_xiangqi_rules::text::format_move(mv),
                    plyd_xiangqi_rules::text::format_fen(&position, 0, 1),
                );
            }
            moves_checked += 1;
            losing += usize::from(exact < 0);
            winning += usize::from(exact > 0);
        }
    }
    // The sample holds real exchanges, not only quiet moves.
    assert!(losing > moves_checked / 20, "{losing} of {moves_checked}");
    assert!(winning > moves_checked / 50, "{winning} of {moves_checked}");
    eprintln!(
        "{} positions, {moves_checked} moves: {losing} lose material, {winning} win some",
        positions.len()
    );
}

#[test]
fn hangs_agrees_with_the_brute_force_on_random_positions() {
    use plyd_xiangqi_rules::board::{color_of, kind_of, EMPTY, KING, SQUARES};
    use plyd_xiangqi_rules::see::hangs;
    let positions = playout_positions(40, 0x4a46_0001);
    let (mut pieces, mut hanging) = (0usize, 0usize);
    for position in positions.iter().copied() {
        let us = position.side();
        // The opponent to move, capturing first.
        let mut theirs = position;
        theirs.set_side(us ^ 1);
        for sq in 0..SQUARES {
            let code = position.board[sq];
            let ours = code != EMPTY && color_of(code) == us;
            if ours && kind_of(code) == KING {
                continue;
            }
            let exact = ours && brute_gain(&mut theirs, sq) > 0;
            assert_eq!(
                hangs(&position, sq),
                exact,
                "hangs({sq}) in {}",
                plyd_xiangqi_rules::text::format_fen(&position, 0, 1),
            );
            pieces += usize::from(ours);
            hanging += usize::from(exact);
        }
    }
    // The sample holds hanging pieces, and more safe ones.
    assert!(hanging > pieces / 50, "{hanging} of {pieces}");
    assert!(hanging < pieces / 2, "{hanging} of {pieces}");
}
