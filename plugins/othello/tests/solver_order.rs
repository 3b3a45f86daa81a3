//! The exact solver sorting its moves by the shipped `patterns` weights, and
//! from 14 empty squares up narrowing on the score from an estimate by those
//! weights, as the plugin sets it up when the host loads it, finds the
//! scores and moves of a plain alpha-beta that sorts nothing: the order and
//! the windows change how many nodes a solve takes, never its answer.

use plyd_game_othello::board::{flips, legal_placements, squares, PASS};
use plyd_othello_rules::endgame::{final_score, solve, Entry, LocalTable, Table, SCORE_INFINITY};
use plyd_othello_rules::testing::{next, random_position};

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

/// The exact score after `best` is played, from the mover's side.
fn score_after(own: u64, opp: u64, best: u32) -> i32 {
    if best == PASS {
        return -alpha_beta(opp, own, -SCORE_INFINITY, SCORE_INFINITY);
    }
    let disc = 1u64 << best;
    assert_ne!(
        legal_placements(own, opp) & disc,
        0,
        "illegal best move {best}"
    );
    let flipped = flips(own, opp, disc);
    -alpha_beta(
        opp & !flipped,
        own | flipped | disc,
        -SCORE_INFINITY,
        SCORE_INFINITY,
    )
}

/// The solver's exact score and best move on `thread`, with a table of
/// `2^bits` entries of its own; the solve must complete.
fn exact_solve(own: u64, opp: u64, thread: u32, bits: u32) -> (i32, Option<u32>) {
    let solution = solve(
        own,
        opp,
        -SCORE_INFINITY,
        SCORE_INFINITY,
        thread,
        &mut LocalTable::new(bits),
    );
    assert!(solution.complete);
    (solution.score, solution.best)
}

#[test]
fn ordered_by_the_patterns_the_solver_finds_the_plain_scores() {
    plyd_game_othello::register_solver_order();
    let mut rng = 2026;
    let mut solved = 0;
    while solved < 20 {
        // A random game stopped at 12 to 14 empty squares: the solver sorts
        // by the evaluation from 12 up, and narrows from 14 up.
        let stop = 12 + (next(&mut rng) % 3) as u32;
        let position = random_position(&mut rng, stop);
        if position.is_game_over() {
            continue;
        }
        let (own, opp) = position.own_and_opponent();
        let expected = alpha_beta(own, opp, -SCORE_INFINITY, SCORE_INFINITY);
        let context = format!("own {own:#x} opp {opp:#x}");
        for thread in [0, 1] {
            let (score, best) = exact_solve(own, opp, thread, 16);
            assert_eq!(score, expected, "{context}");
            if thread == 0 {
                let best = best.expect("a move");
                assert_eq!(score_after(own, opp, best), expected, "{context}");
            }
        }
        // Windows that hold the score, lie below it or above it: the score
        // is exact inside and a bound on the right side outside.
        for (alpha, beta) in [
            (expected - 4, expected + 4),
            (expected + 2, SCORE_INFINITY),
            (-SCORE_INFINITY, expected - 2),
            (expected - 1, expected),
            (expected, expected + 1),
        ] {
            let score = solve(own, opp, alpha, beta, 0, &mut LocalTable::new(16)).score;
            if score <= alpha {
                assert!(expected <= score, "{context} ({alpha}, {beta}): {score}");
            } else if score >= beta {
                assert!(expected >= score, "{context} ({alpha}, {beta}): {score}");
            } else {
                assert_eq!(score, expected, "{context} ({alpha}, {beta})");
            }
            assert_eq!(score > alpha, expected > alpha, "{context}");
            assert_eq!(score < beta, expected < beta, "{context}");
        }
        solved += 1;
    }
}

/// A table of its own that notes whether a selective pass stored in it.
struct NotesPasses(LocalTable, bool);

impl Table for NotesPasses {
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.0.probe(key)
    }
    fn store(&mut self, key: u64, entry: Entry) {
        self.1 |= entry.level != 0;
        self.0.store(key, entry);
    }
    fn poll(&mut self, _nodes: u64) -> bool {
        false
    }
}

#[test]
fn sorted_by_shallow_searches_the_solver_scores_each_node_by_its_children() {
    // From 18 empty squares the solver sorts by a two-ply search of the
    // evaluation, below 18 by the evaluation alone, and it searches
    // selectively (probable cuts from 16 empty squares, bounds marked in
    // the table) before it solves exactly. Each child of an 18-square
    // position is solved on its own (17 squares: neither), and the
    // position's score must be the best of theirs.
    plyd_game_othello::register_solver_order();
    let mut rng = 77;
    let mut solved = 0;
    let mut with_passes = 0;
    while solved < 3 {
        let position = random_position(&mut rng, 18);
        let (own, opp) = position.own_and_opponent();
        let moves = legal_placements(own, opp);
        if moves == 0 {
            continue;
        }
        let context = format!("own {own:#x} opp {opp:#x}");
        let mut children = std::collections::HashMap::new();
        for square in squares(moves) {
            let disc = 1u64 << square;
            let flipped = flips(own, opp, disc);
            let (child, _) = exact_solve(opp & !flipped, own | flipped | disc, 0, 20);
            children.insert(square, -child);
        }
        let expected = *children.values().max().expect("a move");
        for thread in [0, 1] {
            let (score, best) = exact_solve(own, opp, thread, 20);
            assert_eq!(score, expected, "{context} thread {thread}");
            let best = best.expect("a move");
            assert_eq!(children[&best], expected, "{context} thread {thread}");
        }
        let mut table = NotesPasses(LocalTable::new(20), false);
        let solution = solve(own, opp, -SCORE_INFINITY, SCORE_INFINITY, 0, &mut table);
        assert_eq!(solution.score, expected, "{context}");
        with_passes += usize::from(table.1);
        solved += 1;
    }
    // The passes are left out near a wipe-out only: these positions are
    // not all that near one, so some were searched selectively first.
    assert!(with_passes > 0);
}
