//! The end-of-game rules of docs/xiangqi.md, each on a concrete position:
//! perpetual check and perpetual chase lose on the third occurrence, a
//! chase of a protected piece and a plain repetition draw, the no-capture
//! draw, checkmate and stalemate lose, and the null-move guard.
//!
//! The boards are drawn in the comments with Black at the top; every move
//! is checked legal before it is played.

use plyd_api::{Game, MoveSink, Outcome};
use plyd_game_xiangqi::game::{no_capture_plies, set_no_capture_plies};
use plyd_game_xiangqi::Xiangqi;

fn game(fen: &str) -> Xiangqi {
    let mut game = Xiangqi::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    game
}

fn play(game: &mut Xiangqi, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|| panic!("'{text}' is not a move"));
    assert!(
        game.is_legal(mv),
        "{text} is not legal in {}",
        game.position_text()
    );
    game.make_move(mv);
}

fn move_count(game: &Xiangqi) -> usize {
    let mut buf = [0u32; 256];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    sink.len()
}

/// Play `cycle` twice; the start position then occurs for the third time.
/// Asserts the game goes on after the first cycle (second occurrence) and
/// returns the outcome after the second.
fn repeat_twice(fen: &str, cycle: &[&str]) -> Outcome {
    let mut g = game(fen);
    for text in cycle {
        play(&mut g, text);
        assert_eq!(g.outcome(), Outcome::Ongoing, "after {text}");
    }
    assert_eq!(g.position_text().split(' ').next(), fen.split(' ').next());
    for (i, text) in cycle.iter().enumerate() {
        play(&mut g, text);
        if i + 1 < cycle.len() {
            assert_eq!(g.outcome(), Outcome::Ongoing, "after {text}");
        }
    }
    let outcome = g.outcome();
    if outcome != Outcome::Ongoing {
        assert_eq!(move_count(&g), 0, "a decided game has no moves");
    }
    outcome
}

/// ```text
///  9  . . . . k a . . .     Red's chariot checks from a9 and a8 in turn;
///  8  R . . . . . . . .     Black's general can only step between e9 and
///  7  . . . . n . . . .     e8 (f9 is its advisor, e7 its horse).
///  0  . . . K . . . . .
/// ```
#[test]
fn perpetual_check_loses() {
    let outcome = repeat_twice(
        "4ka3/R8/4n4/9/9/9/9/9/9/3K5 w",
        &["a8a9", "e9e8", "a9a8", "e8e9"],
    );
    // Red is to move and checked with every move: Red loses.
    assert_eq!(outcome, Outcome::Loss);
}

/// ```text
///  9  . . R a k . . . .     Red's chariot attacks the black horse, which
///  8  . . . . . . . . .     nothing protects, from c7 (horse on b7) and
///  7  . n . . . . . . .     from c9 through b9 (horse on a9).
///  0  . . . K . . . . .
/// ```
/// Black's a9b7 attacks the chariot on c9 (a horse on a chariot is always
/// a chase), but b7a9 attacks nothing, so Black does not chase on every
/// move.
#[test]
fn perpetual_chase_of_an_unprotected_piece_loses() {
    let outcome = repeat_twice(
        "2Rak4/9/1n7/9/9/9/9/9/9/3K5 w",
        &["c9c7", "b7a9", "c7c9", "a9b7"],
    );
    assert_eq!(outcome, Outcome::Loss);
}

/// The same dance with a black chariot on a4 guarding a9: the attack from
/// c9 hits a protected horse, which is no chase, so Red does not chase the
/// same piece on every move and the repetition is a draw.
#[test]
fn attacking_a_protected_piece_is_no_chase() {
    let outcome = repeat_twice(
        "2Rak4/9/1n7/9/9/r8/9/9/9/3K5 w",
        &["c9c7", "b7a9", "c7c9", "a9b7"],
    );
    assert_eq!(outcome, Outcome::Draw);
}

/// ```text
///  9  . . . k . . . . .     Both sides shuffle an advisor; nothing is
///  8  . . . . a . . . .     attacked, nobody checks.
///  1  . . . . A . . . .
///  0  . . . . K . . . .
/// ```
#[test]
fn a_plain_repetition_draws_on_the_third_occurrence() {
    let outcome = repeat_twice(
        "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w",
        &["e1d2", "e8f7", "d2e1", "f7e8"],
    );
    assert_eq!(outcome, Outcome::Draw);
}

/// The no-capture draw and its setting, in one test because the setting is
/// shared by every state of the process.
#[test]
fn the_no_capture_rule_draws_after_its_count_of_plies() {
    assert_eq!(no_capture_plies(), 120);
    let fen = "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 118 1";
    let mut g = game(fen);
    play(&mut g, "e1d2");
    assert_eq!(g.outcome(), Outcome::Ongoing, "119 plies");
    play(&mut g, "e8f7");
    assert_eq!(g.outcome(), Outcome::Draw, "120 plies");
    assert_eq!(move_count(&g), 0);

    // A capture resets the count: the chariot takes the horse on the
    // 119th ply.
    let mut g = game("3k5/4a4/9/9/9/4n4/9/9/4R4/4K4 w - - 118 1");
    play(&mut g, "e1e4");
    assert_eq!(g.outcome(), Outcome::Ongoing);
    assert_eq!(g.quiet_plies(), 0);

    // Checkmate on the 120th quiet ply is a loss, not a draw: Black's
    // general on e9 is boxed in by the chariot on a8 covering rank 8 and the
    // Red general covering the d-file; Red's second chariot arrives on b9.
    let mut g = game("4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 119 1");
    play(&mut g, "b1b9");
    assert!(g.in_check());
    assert_eq!(g.outcome(), Outcome::Loss);

    set_no_capture_plies(0);
    let mut g = game(fen);
    play(&mut g, "e1d2");
    play(&mut g, "e8f7");
    let unlimited = g.outcome();
    set_no_capture_plies(120);
    assert_eq!(unlimited, Outcome::Ongoing, "the rule turned off");
}

/// ```text
///  9  R . . . k . . . .     Black's general is in check along rank 9;
///  8  . R . . . . . . .     d9 and f9 are on that rank, e8 on rank 8.
///  0  . . . . . K . . .
/// ```
#[test]
fn checkmate_loses() {
    let g = game("R3k4/1R7/9/9/9/9/9/9/9/5K3 b");
    assert!(g.in_check());
    assert_eq!(move_count(&g), 0);
    assert_eq!(g.outcome(), Outcome::Loss);
}

/// ```text
///  9  . . . . k . . . .     Black's general is not in check, but e8 is on
///  8  R . . . . . . . .     the chariot's rank, f9 on the other chariot's
///  1  . . . . . R . . .     file and d9 faces Red's general.
///  0  . . . K . . . . .
/// ```
#[test]
fn stalemate_loses() {
    let g = game("4k4/R8/9/9/9/9/9/9/5R3/3K5 b");
    assert!(!g.in_check());
    assert_eq!(move_count(&g), 0);
    assert_eq!(g.outcome(), Outcome::Loss);
}

#[test]
fn the_null_move_guard_wants_an_attacking_piece() {
    // Red: general, advisor, elephant and pawns only.
    let g = game("4k4/9/9/9/9/9/P3P4/4B4/4A4/3K5 w");
    assert!(!g.null_move_ok());
    // A horse, a cannon or a chariot makes the null move worth trying.
    for piece in ['N', 'C', 'R'] {
        let g = game(&format!("4k4/9/9/9/9/9/P3P4/4B4/4A4/3K1{piece}3 w"));
        assert!(g.null_move_ok(), "with {piece}");
    }
}

/// ```text
///  9  r . N . k . . . .     Red's horse attacks Black's chariot from b7
///  8  . . . . . . . . .     (chariot on a9) and from c9 (chariot on a8);
///  5  r . . . . . . . .     the other black chariot guards both squares.
///  0  . . . K . . . . .
/// ```
/// A horse attacking a chariot is a chase even when the chariot is
/// protected, so Red chases perpetually. Black's a8a9 attacks the horse on
/// c9 but a9a8 attacks nothing, so Black does not.
#[test]
fn a_horse_attacking_a_protected_chariot_chases() {
    let outcome = repeat_twice(
        "r1N1k4/9/9/9/r8/9/9/9/9/3K5 w",
        &["c9b7", "a9a8", "b7c9", "a8a9"],
    );
    assert_eq!(outcome, Outcome::Loss);
}

/// ```text
///  9  . . . k . . . . .     A crossed red pawn steps between d6 and e6,
///  7  . . . . r . . . .     attacking the unprotected black chariot each
///  6  . . . P . . . . .     time as it steps between e7 and d7. Pawns may
///  0  . . . . . K . . .     attack freely: no chase, a draw.
/// ```
#[test]
fn a_pawn_may_attack_over_and_over() {
    let outcome = repeat_twice(
        "3k5/9/4r4/3P5/9/9/9/9/9/5K3 w",
        &["d6e6", "e7d7", "e6d6", "d7e7"],
    );
    assert_eq!(outcome, Outcome::Draw);
}
