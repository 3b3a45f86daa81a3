//! The end-of-game rules of docs/xiangqi.md, one test per rule: the
//! repetition judgement (perpetual check, perpetual chase, what counts as a
//! chase, which repetitions are plain draws), the no-capture draw, checkmate
//! and stalemate, and the null-move guard.
//!
//! Every test starts from a written-out position and plays a written-out
//! line. The comment above each one draws the board and says why the rules,
//! as documented, give the verdict the test expects. Each move is checked
//! with `is_legal` before it is played. A repetition or no-capture verdict
//! leaves every move listed and legal (the arbiter applies those rules, and
//! a game may go on past them); only a side with no move has lost for good.
//!
//! Squares are a file `a`-`i` and a rank `0`-`9` counted from Red's side.
//! "The start" below is the position a test's FEN sets up.
//!
//! The no-capture length is one setting for the whole plugin; only
//! [`no_capture_draw`] changes it, and only to 0 (off) and back to 120.
//! None of the other tests here come near 120 quiet plies, so they give the
//! same answers whichever of those two values they see while running beside
//! it.

use plyd_api::abi::NULL_MOVE;
use plyd_api::{Game, MoveSink, Outcome};
use plyd_game_xiangqi::game::{no_capture_plies, set_no_capture_plies, DEFAULT_NO_CAPTURE_PLIES};
use plyd_game_xiangqi::judge::chases;
use plyd_game_xiangqi::Xiangqi;

fn game_at(fen: &str) -> Xiangqi {
    let mut game = Xiangqi::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("'{fen}' was refused: {e}"));
    game
}

/// Play one move given as text; it must be legal (so the game must still be
/// going on).
fn play(game: &mut Xiangqi, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|| panic!("'{text}' does not parse"));
    assert!(
        game.is_legal(mv),
        "'{text}' is not legal in {} (outcome {:?})",
        game.position_text(),
        game.outcome()
    );
    game.make_move(mv);
}

/// Play `moves` in order, asserting after each ply but the last that the
/// game goes on.
fn play_line(game: &mut Xiangqi, moves: &[&str]) {
    for (i, text) in moves.iter().enumerate() {
        play(game, text);
        if i + 1 < moves.len() {
            assert_eq!(
                game.outcome(),
                Outcome::Ongoing,
                "decided too early, after '{text}' (ply {} of {moves:?})",
                i + 1
            );
        }
    }
}

/// Number of moves `generate_moves` offers.
fn move_count(game: &Xiangqi) -> usize {
    let mut buf = [0u32; 256];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    sink.len()
}

/// Board and side to move of a position text (the FEN's first two fields).
fn board_and_side(text: &str) -> String {
    text.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// Play `cycle` (which brings the start back) twice: after the first lap
/// the start stands for the second time and nothing is decided; after the
/// second it stands for the third time and the repetition is judged. Returns
/// the verdict, for the side to move at the start.
fn third_occurrence(fen: &str, cycle: &[&str]) -> Outcome {
    let mut game = game_at(fen);
    let start = board_and_side(&game.position_text());
    play_line(&mut game, cycle);
    assert_eq!(
        board_and_side(&game.position_text()),
        start,
        "{cycle:?} is not a cycle"
    );
    assert_eq!(
        game.outcome(),
        Outcome::Ongoing,
        "the second occurrence must not decide anything"
    );
    play_line(&mut game, cycle);
    assert_eq!(board_and_side(&game.position_text()), start);
    let verdict = game.outcome();
    // The verdict takes no move away: the same board set up afresh, with
    // no history, lists as many; and the game can go on.
    let fresh = game_at(&game.position_text());
    assert_eq!(fresh.outcome(), Outcome::Ongoing);
    assert_eq!(move_count(&game), move_count(&fresh));
    let mut going_on = game.clone();
    play(&mut going_on, cycle[0]);
    verdict
}

/// The rule `outcome_reason` names at the third occurrence of `cycle`'s
/// start (see [`third_occurrence`]).
fn third_occurrence_reason(fen: &str, cycle: &[&str]) -> String {
    let mut game = game_at(fen);
    assert_eq!(game.outcome_reason(), "", "the game goes on");
    play_line(&mut game, cycle);
    play_line(&mut game, cycle);
    game.outcome_reason()
}

/// Red checks on every move, Black only steps its general: Red checks
/// perpetually and loses.
///
/// ```text
///  9  . . . . k a . . .     Red chariot a8, Black general e9, advisor f9,
///  8  R . . . . . . . .     horse e7, Red general d0 (on the d-file, so
///  7  . . . . n . . . .     the generals never face each other).
///  0  . . . K . . . . .
/// ```
///
/// a8a9 checks along rank 9 (b9-d9 empty); e9e8 steps out; a9a8 checks
/// along rank 8; e8e9 steps back. After eight plies the start stands for the
/// third time with Red to move: Red has checked with every move, Black's
/// moves were general moves (never checks, never chases), so Red loses.
#[test]
fn perpetual_check_loses() {
    let fen = "4ka3/R8/4n4/9/9/9/9/9/9/3K5 w";
    let cycle = ["a8a9", "e9e8", "a9a8", "e8e9"];
    let mut game = game_at(fen);
    for (i, text) in cycle.iter().enumerate() {
        play(&mut game, text);
        // Red's moves (even indices) check, Black's do not.
        assert_eq!(game.in_check(), i % 2 == 0, "after {text}");
    }
    assert_eq!(game.outcome(), Outcome::Ongoing, "second occurrence");
    assert!(move_count(&game) > 0);
    assert_eq!(third_occurrence(fen, &cycle), Outcome::Loss);
    assert_eq!(
        third_occurrence_reason(fen, &cycle),
        "third repetition, Red checked perpetually"
    );
}

/// Red's chariot attacks Black's lone horse on every move, the horse runs
/// between two squares: Red chases perpetually and loses.
///
/// ```text
///  9  . . R a k . . . .     Red chariot c9, Black advisor d9, general e9,
///  8  . . . . . . . . .     horse b7; Red general d0.
///  7  . n . . . . . . .
///  0  . . . K . . . . .
/// ```
///
/// * c9c7 newly attacks the horse on b7 along rank 7; nothing Black has can
///   recapture on b7, so it is a chase.
/// * b7a9 (leg b8 free): from a9 the horse attacks b7 and c8, no Red piece,
///   so this Black move chases nothing.
/// * c7c9 newly attacks a9 (through the empty b9), again unprotected: a
///   chase of the same horse, followed from b7 to a9. (It also newly attacks
///   the advisor on d9, which the general guards: not a chase.)
/// * a9b7 attacks the chariot on c9 (leg b8 free): a horse attacking a
///   chariot is a chase whatever guards it.
///
/// So Red chased the horse on every move while Black chased on only every
/// other move: at the third occurrence Red (to move) loses.
#[test]
fn perpetual_chase_of_an_unprotected_piece_loses() {
    assert_eq!(
        third_occurrence(
            "2Rak4/9/1n7/9/9/9/9/9/9/3K5 w",
            &["c9c7", "b7a9", "c7c9", "a9b7"]
        ),
        Outcome::Loss
    );
    assert_eq!(
        third_occurrence_reason(
            "2Rak4/9/1n7/9/9/9/9/9/9/3K5 w",
            &["c9c7", "b7a9", "c7c9", "a9b7"]
        ),
        "third repetition, Red chased perpetually"
    );
}

/// The same chase, but now two Black chariots guard the horse's squares:
/// a5 sees a9 up the a-file, b4 sees b7 up the b-file. A chariot attacking
/// a protected horse is not a chase, so Red's moves chase nothing; Black's
/// b7a9 chases nothing either (a9b7 attacks the chariot on c9, but one chase
/// in two moves is not perpetual). A plain repetition: draw.
///
/// ```text
///  9  . . R a k . . . .
///  7  . n . . . . . . .
///  5  r . . . . . . . .
///  4  . r . . . . . . .
///  0  . . . K . . . . .
/// ```
#[test]
fn attacking_a_protected_piece_is_not_a_chase() {
    assert_eq!(
        third_occurrence(
            "2Rak4/9/1n7/9/r8/1r7/9/9/9/3K5 w",
            &["c9c7", "b7a9", "c7c9", "a9b7"]
        ),
        Outcome::Draw
    );
}

/// A horse that attacks a chariot chases it even when the chariot is
/// guarded.
///
/// ```text
///  9  . . . k . . . . .     Black general d9, Black horse b2;
///  5  R . . . . . . . .     Red chariots a5 and a0, Red general e0.
///  2  . n . . . . . . .
///  0  R . . . K . . . .
/// ```
///
/// Red shuffles the a0 chariot to a1 and back; the chariot on a5 guards
/// both a0 and a1 along the a-file. Black's horse follows it: b2c0 (leg b1)
/// newly attacks a1 (leg b0), c0b2 (leg c1) newly attacks a0 (leg b1). Both
/// are horse-on-chariot attacks with a legal capture, hence chases of one
/// chariot followed from a1 to a0. Red's a0a1 attacks nothing (rank 1 is
/// empty), so Red does not chase (its a1a0 attacks the horse on c0, but not
/// on every move). Black chases perpetually: Red, to move at the third
/// occurrence, wins.
#[test]
fn horse_attacking_a_protected_chariot_is_a_chase() {
    assert_eq!(
        third_occurrence(
            "3k5/9/9/9/R8/9/9/1n7/9/R3K4 w",
            &["a0a1", "b2c0", "a1a0", "c0b2"]
        ),
        Outcome::Win
    );
}

/// The same with a cannon.
///
/// ```text
///  9  . . . k . . . . .     Black general d9, Black cannon c0;
///  5  R . . . . . . . .     Red chariots a5 and a0, Red horses b1 and b0
///  1  . N . . . . . . .     (the cannon's screens), Red general e0.
///  0  R N c . K . . . .
/// ```
///
/// Red shuffles a0a1 / a1a0 (a5 guards both squares; the chariot's rank is
/// blocked by its own horse, so it attacks nothing). The cannon follows:
/// c0c1 attacks a1 over the horse on b1, c1c0 attacks a0 over the horse on
/// b0, each newly (from its old square the cannon's screen had no chariot
/// behind it). Cannon on chariot is a chase whatever guards it, so Black
/// chases perpetually and Red, to move, wins. (Along rank 0 to the right the
/// cannon meets the Red general first, with no screen: no check.)
#[test]
fn cannon_attacking_a_protected_chariot_is_a_chase() {
    assert_eq!(
        third_occurrence(
            "3k5/9/9/9/R8/9/9/9/1N7/RNc1K4 w",
            &["a0a1", "c0c1", "a1a0", "c1c0"]
        ),
        Outcome::Win
    );
}

/// Both sides chase perpetually: draw.
///
/// ```text
///  9  . . N . . k . . .     Red horse c9, Black chariot c7, Black general
///  8  . . . . . . . . .     f9, Red general e0. Nothing guards either
///  7  . . r . . . . . .     piece.
///  0  . . . . K . . . .
/// ```
///
/// The horse runs round c9-a8-b6-d7-c9 and the chariot round c7-c8-b8-b7-c7
/// (an eight-ply cycle):
///
/// | ply | move | newly attacks |
/// |---|---|---|
/// | 1 | c9a8 (leg b9) | chariot c7 (leg b8): horse on chariot |
/// | 2 | c7c8 | horse a8 along rank 8 (b8 empty) |
/// | 3 | a8b6 (leg a7) | chariot c8 (leg b7) |
/// | 4 | c8b8 | horse b6 down the b-file (b7 empty) |
/// | 5 | b6d7 (leg c6) | chariot b8 (leg c7) |
/// | 6 | b8b7 | horse d7 along rank 7 (c7 empty) |
/// | 7 | d7c9 (leg d8) | chariot b7 (leg c8) |
/// | 8 | b7c7 | horse c9 up the c-file (c8 empty) |
///
/// None of them checks (the horse's squares never reach f9; the chariot
/// never lines up with e0), every capture would be legal, the horse is
/// unguarded and a horse attacking a chariot is always a chase. Each side
/// chases the other's one piece on every move, so the third occurrence (ply
/// 16) is drawn; after one lap (second occurrence) the game goes on.
#[test]
fn mutual_perpetual_chase_is_a_draw() {
    let fen = "2N2k3/9/2r6/9/9/9/9/9/9/4K4 w";
    let cycle = [
        "c9a8", "c7c8", "a8b6", "c8b8", "b6d7", "b8b7", "d7c9", "b7c7",
    ];
    // A draw would also come out if neither side chased at all, so check
    // the table above move by move with the plugin's own chase test.
    let mut game = game_at(fen);
    for text in cycle {
        let mv = game.parse_move(text).expect("a move");
        let before = *game.position();
        play(&mut game, text);
        assert!(!game.in_check(), "{text} checks");
        assert_ne!(chases(&before, game.position(), mv), 0, "{text} chases");
    }
    assert_eq!(third_occurrence(fen, &cycle), Outcome::Draw);
}

/// Perpetual check against perpetual chase: the checker loses.
///
/// ```text
///  8  . . . k . . . . .     Black general d8, Black chariot d6;
///  6  . . . r . . . . .     Red cannon e2, Red chariot d1, Red general e0.
///  2  . . . . C . . . .
///  1  . . . R . . . . .
///  0  . . . . K . . . .
/// ```
///
/// * e2d2 checks: the cannon on d2 jumps the Black chariot on d6 to d8.
/// * d6e6 takes the screen away, and the chariot on e6 now checks the Red
///   general down the empty e-file.
/// * d2e2 blocks that file and uncovers the Red chariot d1 on d8: check.
/// * e6d6 blocks the d-file, and the chariot on d6 newly attacks the Red
///   chariot on d1, which nothing guards, but which could take it back up
///   the open file: an offered exchange, not a chase. No check.
///
/// Red checked with every move, Black did not: Red, the checker and the
/// side to move at the third occurrence, loses.
#[test]
fn perpetual_check_against_perpetual_chase_loses_for_the_checker() {
    let fen = "9/3k5/9/3r5/9/9/9/4C4/3R5/4K4 w";
    let cycle = ["e2d2", "d6e6", "d2e2", "e6d6"];
    let mut game = game_at(fen);
    for (text, gives_check) in cycle.iter().zip([true, true, true, false]) {
        let mv = game.parse_move(text).expect("a move");
        let before = *game.position();
        play(&mut game, text);
        assert_eq!(game.in_check(), gives_check, "after {text}");
        if !gives_check {
            assert_eq!(chases(&before, game.position(), mv), 0, "{text} chases");
        }
    }
    assert_eq!(third_occurrence(fen, &cycle), Outcome::Loss);
}

/// The verdict at the third occurrence of `cycle` played twice from
/// `fen`, and the rule named.
fn judged(fen: &str, cycle: &[&str]) -> (Outcome, String) {
    (
        third_occurrence(fen, cycle),
        third_occurrence_reason(fen, cycle),
    )
}

/// A chariot stepping back into the line of the other chariot, which
/// could take it, offers an exchange: not a chase. Red's a4 chariot and
/// Black's i4 chariot face each other along rank 4; each in turn steps
/// off and back (Fairy-Stockfish: a draw).
#[test]
fn an_offered_exchange_of_chariots_is_not_a_chase() {
    let fen = "4k4/9/9/9/9/R7r/9/9/9/3K5 w";
    let (verdict, why) = judged(fen, &["a4a3", "i4i3", "a3a4", "i3i4"]);
    assert_eq!(verdict, Outcome::Draw, "{why}");
}

/// A protector that cannot legally recapture protects nothing. The Red
/// horse shuttles d0-c2 and the Black chariot follows it along the
/// files: on d0 the horse stands beside the Red general on e0, but the
/// general taking back on d0 would face the Black general on d9 along
/// the open d-file. Black chases perpetually and loses (Fairy-Stockfish
/// agrees).
#[test]
fn a_protector_whose_recapture_is_illegal_protects_nothing() {
    let fen = "3k5/9/9/9/9/9/3r5/9/9/3NK4 w";
    let (verdict, why) = judged(fen, &["d0c2", "d3c3", "c2d0", "c3d3"]);
    assert_eq!(
        (verdict, why.as_str()),
        (Outcome::Win, "third repetition, Black chased perpetually")
    );
}

/// A chase the move makes of another piece's attack. The Red horse
/// shuttles d0-c2, the Black chariot h0-h2. On h2 the chariot chases the
/// horse on c2 along rank 2. Back on h0, behind Black's cannon on g0, it
/// makes the Red general's recapture on d0 illegal (the chariot would see
/// the general there along rank 0), so the cannon's attack on the horse
/// over the general becomes a chase. The same horse each time: Black
/// chases perpetually and loses (Fairy-Stockfish agrees).
#[test]
fn a_chase_uncovered_by_the_move_counts() {
    let fen = "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w";
    let (verdict, why) = judged(fen, &["d0c2", "h0h2", "c2d0", "h2h0"]);
    assert_eq!(
        (verdict, why.as_str()),
        (Outcome::Win, "third repetition, Black chased perpetually")
    );
}

/// A chase by a piece the move uncovered. Red's cannons on f6 and f4
/// stand around Black's cannon on f5, Black's pawn on f1 below. Red's
/// lower cannon steps to d4, uncovering the upper one's attack on the pawn
/// over the Black cannon (nothing can take back on f1), and back to f4,
/// checking over the upper cannon once Black's cannon has gone to d5. One
/// check and one chase of the same pawn each lap: Red chases perpetually
/// and loses (Fairy-Stockfish agrees).
#[test]
fn a_chase_by_another_piece_than_the_moved_one_counts() {
    let fen = "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w";
    let (verdict, why) = judged(fen, &["f4d4", "f5d5", "d4f4", "d5f5"]);
    assert_eq!(
        (verdict, why.as_str()),
        (Outcome::Loss, "third repetition, Red chased perpetually")
    );
}

/// A move that pins a protector chases what it protected. Black's horse
/// shuttles e3-g4, the Red general e1-f1. Off e3, the horse opens the
/// e-file to Black's cannon on e8 over its pawn, pinning Red's chariot on
/// e2 to its general on e1; back on e3, with the general on f1, the horse
/// pins the chariot itself (the chariot on the horse's leg: moving off, it
/// would let the horse check). Either way the chariot can no longer take
/// back on d2, so Black's chariot on d3 chases the Red horse there on
/// every move: Black chases perpetually and loses (Fairy-Stockfish
/// agrees).
#[test]
fn pinning_a_protector_is_a_chase() {
    let fen = "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b";
    let (verdict, why) = judged(fen, &["e3g4", "e1f1", "g4e3", "f1e1"]);
    assert_eq!(
        (verdict, why.as_str()),
        (Outcome::Loss, "third repetition, Black chased perpetually")
    );
}

/// Both sides check on every move: draw.
///
/// ```text
///  8  . . . k . . . . .     Black general d8, cannon e7, chariot d6;
///  7  . . . . c . . . .     Red cannon e2, chariot d1, general e0.
///  6  . . . r . . . . .
///  2  . . . . C . . . .     At the start the Black cannon checks the Red
///  1  . . . R . . . . .     general over the Red cannon on e2.
///  0  . . . . K . . . .
/// ```
///
/// * e2d2 leaves the e-file (no screen left for the e7 cannon) and checks
///   over the Black chariot on d6.
/// * d6e6 removes that screen and checks twice: the chariot down the e-file
///   and the e7 cannon over it.
/// * d2e2 blocks the e-file (two screens for the e7 cannon now) and
///   uncovers the d1 chariot on d8.
/// * e6d6 blocks the d-file and gives the e7 cannon its single screen on e2
///   again: check.
///
/// Both check perpetually: drawn.
#[test]
fn mutual_perpetual_check_is_a_draw() {
    let fen = "9/3k5/4c4/3r5/9/9/9/4C4/3R5/4K4 w";
    let cycle = ["e2d2", "d6e6", "d2e2", "e6d6"];
    let mut game = game_at(fen);
    assert!(game.in_check(), "the start has Red in check");
    for text in cycle {
        play(&mut game, text);
        assert!(game.in_check(), "{text} checks");
    }
    assert_eq!(third_occurrence(fen, &cycle), Outcome::Draw);
}

/// Advisors shuffling: no check, no attack on anything. The start's second
/// occurrence decides nothing, its third is a draw.
///
/// ```text
///  9  . . . k . a . . .     Black general d9, advisor f9;
///  3  P . . . . . . . .     Red pawn a3 (without it, no side could
///  0  . . . . K A . . .     ever mate: a draw at once); Red general e0,
/// ```                       advisor f0.
#[test]
fn plain_repetition_draws_on_the_third_occurrence() {
    let fen = "3k1a3/9/9/9/9/9/P8/9/9/4KA3 w";
    let cycle = ["f0e1", "f9e8", "e1f0", "e8f9"];
    assert_eq!(third_occurrence(fen, &cycle), Outcome::Draw);
    assert_eq!(
        third_occurrence_reason(fen, &cycle),
        "third repetition, neither side checked or chased perpetually"
    );
    // Ply by ply: nothing before the eighth ply.
    let mut game = game_at(fen);
    for lap in 0..2 {
        for (i, text) in cycle.iter().enumerate() {
            play(&mut game, text);
            let expected = if lap == 1 && i == 3 {
                Outcome::Draw
            } else {
                Outcome::Ongoing
            };
            assert_eq!(game.outcome(), expected, "lap {lap}, after {text}");
        }
    }
}

/// Positions before a capture never count. Since a capture takes material
/// off, no earlier position can come back after it: the count of the new
/// position starts at one, and only its own third occurrence is judged.
///
/// ```text
///  9  . . . k . a . . .     As the plain repetition, plus a Red chariot
///  1  p . . . . . . . .     a0 and a Black pawn a1 it can take.
///  0  R . . . K A . . .
/// ```
///
/// One lap of advisor moves (the start twice), then a0a1 takes the pawn.
/// From there the advisors shuffle again: the position after the capture
/// stands for the second time four plies later (game goes on) and for the
/// third time eight plies later (draw).
#[test]
fn a_capture_restarts_the_repetition_count() {
    let mut game = game_at("3k1a3/9/9/9/9/9/9/9/p8/R3KA3 w");
    play_line(&mut game, &["f0e1", "f9e8", "e1f0", "e8f9"]);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    play(&mut game, "a0a1");
    assert_eq!(game.quiet_plies(), 0);
    let cycle = ["f9e8", "f0e1", "e8f9", "e1f0"];
    play_line(&mut game, &cycle);
    assert_eq!(
        game.outcome(),
        Outcome::Ongoing,
        "second occurrence after the capture"
    );
    play_line(&mut game, &cycle);
    assert_eq!(
        game.outcome(),
        Outcome::Draw,
        "third occurrence after the capture"
    );
}

/// A null move (the search's pass) also ends the window: two passes bring
/// back the same board with the same side to move, but that is not a
/// repetition of the positions before them.
#[test]
fn a_null_move_restarts_the_repetition_count() {
    let fen = "3k1a3/9/9/9/9/9/P8/9/9/4KA3 w";
    let mut game = game_at(fen);
    let cycle = ["f0e1", "f9e8", "e1f0", "e8f9"];
    play_line(&mut game, &cycle);
    assert_eq!(game.outcome(), Outcome::Ongoing, "second occurrence");
    game.make_move(NULL_MOVE);
    game.make_move(NULL_MOVE);
    assert_eq!(
        game.outcome(),
        Outcome::Ongoing,
        "same board a third time, but across null moves"
    );
    play_line(&mut game, &cycle);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    play_line(&mut game, &cycle);
    assert_eq!(
        game.outcome(),
        Outcome::Draw,
        "third occurrence after the passes"
    );
    // Taking a pass back restores the position.
    let mut game = game_at(fen);
    let before = game.position_text();
    game.make_move(NULL_MOVE);
    game.unmake_move(NULL_MOVE);
    assert_eq!(game.position_text(), before);
}

/// A general may attack as often as it likes.
///
/// ```text
///  9  . . . . . k . . .     Black general f9; Red general e2,
///  2  . . . . K . . . .     Black pawn d1 (across the river, so it may
///  1  . . . p . . . . .     be chased).
/// ```
///
/// e2d2 attacks the pawn from behind (a pawn attacks forward and sideways
/// only, so d2 is safe); d1e1 steps sideways; d2e2 attacks it again; e1d1.
/// Every Red move newly attacks the same unguarded pawn, and would be a
/// chase by any other piece; by the general it is free. The pawn's own
/// moves are free too. Plain repetition: draw.
#[test]
fn generals_attack_freely() {
    assert_eq!(
        third_occurrence(
            "5k3/9/9/9/9/9/9/4K4/3p5/9 w",
            &["e2d2", "d1e1", "d2e2", "e1d1"]
        ),
        Outcome::Draw
    );
}

/// A pawn may attack as often as it likes.
///
/// ```text
///  9  . . . . . k . . .     Black general f9, Black chariot d6;
///  6  . . . r . . . . .     Red pawn c5 (across the river, so it moves
///  5  . . P . . . . . .     sideways), Red general e0.
///  0  . . . . K . . . .
/// ```
///
/// c5d5 attacks the chariot on d6; d6c6 runs (and attacks nothing: the
/// c-file below it is empty once the pawn stands on d5); d5c5 attacks it on
/// c6; c6d6 runs back. Every Red move newly attacks the same unguarded
/// chariot, which for a piece other than a general or a pawn would be a
/// perpetual chase. Plain repetition: draw.
#[test]
fn pawns_attack_freely() {
    assert_eq!(
        third_occurrence(
            "5k3/9/9/3r5/2P6/9/9/9/9/4K4 w",
            &["c5d5", "d6c6", "d5c5", "c6d6"]
        ),
        Outcome::Draw
    );
}

/// "One check, one chase" is neither a perpetual check nor a perpetual
/// chase: a check among the chases breaks the chase, as the Asian rules
/// have it (their rule 18; Fairy-Stockfish rules so too).
///
/// ```text
///  9  . . . . k . . . .     Black general e9, Red general d0, and an
///  4  p . R . . . . . .     unguarded Black pawn on a4, across the river,
///  0  . . . K . . . . .     with a Red chariot on c4.
/// ```
///
/// c4c9 checks along rank 9; e9e8 steps out; c9c4 comes back and newly
/// attacks the pawn (b4 empty); e8e9: a draw. Chasing the same pawn on
/// every move instead (it steps a3-b3-a3, the chariot following it on
/// rank 8) is a perpetual chase, and Red loses: Black, to move at the
/// third occurrence, wins. (That a pawn on its own side of the river is
/// never chased is the judge's unit test: such a pawn cannot step aside.)
#[test]
fn one_check_one_chase_is_neither() {
    assert_eq!(
        third_occurrence(
            "4k4/9/9/9/9/p1R6/9/9/9/3K5 w",
            &["c4c9", "e9e8", "c9c4", "e8e9"]
        ),
        Outcome::Draw
    );
    assert_eq!(
        third_occurrence(
            "4k4/R8/9/9/9/9/p8/9/9/3K5 b",
            &["a3b3", "a8b8", "b3a3", "b8a8"]
        ),
        Outcome::Win
    );
}

/// Puts the no-capture length back to the default when dropped, even if
/// an assertion fails while it is changed.
struct DefaultNoCaptureOnDrop;

impl Drop for DefaultNoCaptureOnDrop {
    fn drop(&mut self) {
        set_no_capture_plies(DEFAULT_NO_CAPTURE_PLIES);
    }
}

/// Generals, advisors and elephants alone cannot mate: with no chariot,
/// horse, cannon or pawn on either side the game is drawn at once, moves
/// still listed; one pawn anywhere, or a capture of the last one, decides.
#[test]
fn no_attacking_piece_on_either_side_is_a_draw() {
    let game = game_at("3k5/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w");
    assert_eq!(game.outcome(), Outcome::Draw);
    assert_eq!(
        game.outcome_reason(),
        "no chariot, horse, cannon or pawn left on either side"
    );
    assert!(move_count(&game) > 0);
    // A pawn, even one that cannot reach the general, keeps the game on.
    let game = game_at("3k5/4a4/4b4/9/9/9/P8/4B4/4A4/3AK4 w");
    assert_eq!(game.outcome(), Outcome::Ongoing);
    // Taking the last attacker ends it.
    let mut game = game_at("3k5/4a4/4b4/9/9/9/9/4Bc3/4A4/3AK4 w");
    assert_eq!(game.outcome(), Outcome::Ongoing);
    play(&mut game, "e1f2");
    assert_eq!(game.outcome(), Outcome::Draw);
}

/// The no-capture draw, all in one test because the length is one setting
/// for the whole plugin.
#[test]
fn no_capture_draw() {
    let _restore = DefaultNoCaptureOnDrop;
    assert_eq!(no_capture_plies(), 120);

    // Advisors shuffling (a pawn on a3 keeps the game from being drawn for
    // want of attackers), 118 quiet plies already: one ply later (119) the
    // game goes on, two plies later (120) it is drawn.
    let mut game = game_at("3k1a3/9/9/9/9/9/P8/9/9/4KA3 w - - 118 1");
    play(&mut game, "f0e1");
    assert_eq!(game.quiet_plies(), 119);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    play(&mut game, "f9e8");
    assert_eq!(game.quiet_plies(), 120);
    assert_eq!(game.outcome(), Outcome::Draw);
    assert_eq!(game.outcome_reason(), "120 plies without a capture");
    // The moves stay, for an arbiter that plays on (four of the general
    // and advisor, the pawn's); the draw stands.
    assert_eq!(move_count(&game), 6);
    play(&mut game, "e1f0");
    assert_eq!(game.outcome(), Outcome::Draw);

    // At 119, a capture resets the count: Red's chariot a0 takes the pawn
    // on a1, and the game goes on past the 120th ply; a quiet move instead
    // (the general e0e1) is the 120th quiet ply and draws.
    let fen = "3k5/9/9/9/9/9/9/9/p8/R3K4 w - - 119 1";
    let mut game = game_at(fen);
    play(&mut game, "a0a1");
    assert_eq!(game.quiet_plies(), 0);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    play(&mut game, "d9d8");
    assert_eq!(game.outcome(), Outcome::Ongoing);
    let mut game = game_at(fen);
    play(&mut game, "e0e1");
    assert_eq!(game.outcome(), Outcome::Draw);

    // Checkmate on the 120th quiet ply still wins. Black general d9, Red
    // chariot a0 and general e0: a0d0 checks up the d-file; d8 is on that
    // file and e9 faces the Red general (flying general), so Black has no
    // move: Loss for Black, not a draw. Another quiet move there draws.
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 1";
    let mut game = game_at(fen);
    play(&mut game, "a0d0");
    assert!(game.in_check());
    assert_eq!(game.outcome(), Outcome::Loss);
    let mut game = game_at(fen);
    play(&mut game, "a0a1");
    assert_eq!(game.outcome(), Outcome::Draw);

    // Length 0 turns the rule off: far past 120 quiet plies the game goes
    // on (with the default the same position is drawn at once).
    let fen = "3k1a3/9/9/9/9/9/P8/9/9/4KA3 w - - 500 1";
    assert_eq!(game_at(fen).outcome(), Outcome::Draw);
    set_no_capture_plies(0);
    let mut game = game_at(fen);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    play_line(&mut game, &["f0e1", "f9e8"]);
    assert_eq!(game.quiet_plies(), 502);
    assert_eq!(game.outcome(), Outcome::Ongoing);

    set_no_capture_plies(DEFAULT_NO_CAPTURE_PLIES);
    assert_eq!(game_at(fen).outcome(), Outcome::Draw);
}

/// Checkmate: Black general d9 in check from the chariot d0 (up the
/// d-file); d8 is on that file, e9 would face the Red general on e0. No
/// legal move: Black loses.
#[test]
fn checkmate_loses() {
    let game = game_at("3k5/9/9/9/9/9/9/9/9/3RK4 b");
    assert!(game.in_check());
    assert_eq!(game.outcome(), Outcome::Loss);
    assert_eq!(move_count(&game), 0);
    assert_eq!(game.outcome_reason(), "checkmate");
}

/// Stalemate: Black general d9 alone, not in check; d8 is covered by the
/// Red chariot on a8 along rank 8, e9 would face the Red general on e0. No
/// legal move: Black loses, just as if mated.
#[test]
fn stalemate_loses() {
    let game = game_at("3k5/R8/9/9/9/9/9/9/9/4K4 b");
    assert!(!game.in_check());
    assert_eq!(game.outcome(), Outcome::Loss);
    assert_eq!(move_count(&game), 0);
    assert_eq!(game.outcome_reason(), "stalemate");
}

/// The null-move guard looks at the side to move only: no chariot, horse or
/// cannon, no null move.
#[test]
fn null_move_guard() {
    // Red: general, advisors, elephants, five pawns. Black: general,
    // advisors, chariot a9, horse b9, cannon b7.
    let defensive = "rn1aka3/9/1c7/9/9/9/P1P1P1P1P/9/9/2BAKAB2";
    assert!(!game_at(&format!("{defensive} w")).null_move_ok());
    assert!(game_at(&format!("{defensive} b")).null_move_ok());
    // A bare general.
    assert!(!game_at("3k5/9/9/9/9/9/9/9/9/4K4 w").null_move_ok());
    // Red given one horse (b0), one cannon (b2) or one chariot (a0).
    for red_with_one_more in [
        "rn1aka3/9/1c7/9/9/9/P1P1P1P1P/9/9/1NBAKAB2 w",
        "rn1aka3/9/1c7/9/9/9/P1P1P1P1P/1C7/9/2BAKAB2 w",
        "rn1aka3/9/1c7/9/9/9/P1P1P1P1P/9/9/R1BAKAB2 w",
    ] {
        assert!(
            game_at(red_with_one_more).null_move_ok(),
            "{red_with_one_more}"
        );
    }
    // The start: both sides have everything.
    assert!(Xiangqi::new(0).null_move_ok());
}
