//! The exact solver sorting its moves by the shipped `patterns` weights, as
//! the plugin sets it up when the host loads it, finds the scores of a plain
//! alpha-beta that sorts nothing: the order changes how many nodes a solve
//! takes, never its answer.

use plyd_game_othello::board::{flips, legal_placements, squares, Position, PASS};
use plyd_othello_rules::endgame::{final_score, solve, LocalTable, SCORE_INFINITY};

/// Alpha-beta to the end of the game in square order, with no table.
fn alpha_beta(own: u64, opp: u64, mut alpha: i32, beta: i32) -> i32 {
    let moves = legal_placements(own, opp);
    if moves == 0 {
        if legal_placements(opp, own) == 0 {
            return final_score(own, opp);
        }
        return -alpha_beta(opp, own, -beta, -alpha);
    }
    let mut best = -SCORE_INFINITY;
    for square in squares(moves) {
        let disc = 1u64 << square;
        let flipped = flips(own, opp, disc);
        let value = -alpha_beta(opp & !flipped, own | flipped | disc, -beta, -alpha);
        if value > best {
            best = value;
            if value >= beta {
                return value;
            }
            alpha = alpha.max(value);
        }
    }
    best
}

fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn ordered_by_the_patterns_the_solver_finds_the_plain_scores() {
    plyd_game_othello::register_solver_order();
    let mut rng = 2026;
    let mut solved = 0;
    while solved < 24 {
        // A random game stopped at 12 or 13 empty squares: the solver sorts
        // by the evaluation from 12 up.
        let stop = 12 + (next(&mut rng) % 2) as u32;
        let mut position = Position::START;
        while 64 - (position.black | position.white).count_ones() > stop && !position.is_game_over()
        {
            let moves: Vec<u32> = squares(position.placements()).collect();
            let mv = if moves.is_empty() {
                PASS
            } else {
                moves[(next(&mut rng) % moves.len() as u64) as usize]
            };
            position = position.play(mv);
        }
        if position.is_game_over() {
            continue;
        }
        let (own, opp) = position.own_and_opponent();
        let expected = alpha_beta(own, opp, -SCORE_INFINITY, SCORE_INFINITY);
        let solution = solve(
            own,
            opp,
            -SCORE_INFINITY,
            SCORE_INFINITY,
            0,
            &mut LocalTable::new(16),
        );
        assert!(solution.complete);
        assert_eq!(solution.score, expected, "own {own:#x} opp {opp:#x}");
        // A null window on either side of the score says which side it is.
        for cut in [expected - 1, expected] {
            let probe = solve(own, opp, cut, cut + 1, 0, &mut LocalTable::new(16));
            assert_eq!(probe.score > cut, expected > cut, "cut {cut}");
        }
        solved += 1;
    }
}
