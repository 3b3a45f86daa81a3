//! Position and move text through the `Game` trait: FEN reading and
//! writing (optional fields, side to move, letter aliases, counters), the
//! reasons given for bad positions, and move text in both rank conventions.
//!
//! The rank convention of move text is one setting for the whole plugin.
//! Every test here that reads or writes move text holds [`move_text_lock`],
//! so the one test that switches to ranks 1-10 cannot disturb the others
//! running beside it.

use std::sync::{Mutex, MutexGuard};

use plyd_api::{Game, MoveSink, Outcome};
use plyd_game_xiangqi::board::{make_move, square};
use plyd_game_xiangqi::text::{ranks_from_one, set_ranks_from_one, START_FEN};
use plyd_game_xiangqi::Xiangqi;

static MOVE_TEXT: Mutex<()> = Mutex::new(());

fn move_text_lock() -> MutexGuard<'static, ()> {
    MOVE_TEXT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Puts the rank convention back to 0-9 when dropped, even if a test
/// fails while it is switched.
struct RanksFromZeroOnDrop;

impl Drop for RanksFromZeroOnDrop {
    fn drop(&mut self) {
        set_ranks_from_one(false);
    }
}

fn game_at(fen: &str) -> Xiangqi {
    let mut game = Xiangqi::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("'{fen}': {e}"));
    game
}

fn legal_moves(game: &Xiangqi) -> Vec<u32> {
    let mut buf = vec![0u32; 256];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let count = sink.len();
    buf.truncate(count);
    buf
}

/// Plays moves given as text, each checked to be legal.
fn play(game: &mut Xiangqi, moves: &[&str]) {
    for name in moves {
        let mv = game
            .parse_move(name)
            .unwrap_or_else(|| panic!("'{name}' does not parse"));
        assert!(legal_moves(game).contains(&mv), "{name} is not legal");
        game.make_move(mv);
    }
}

#[test]
fn new_game_is_the_start_position() {
    let game = Xiangqi::new(0);
    assert_eq!(game.position_text(), START_FEN);
    assert_eq!(Xiangqi::VARIANTS[0].start_position, START_FEN);
    assert_eq!(game.side_to_move(), 0);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    assert!(!game.in_check());
    assert_eq!(legal_moves(&game).len(), 44);
}

#[test]
fn fens_round_trip() {
    for fen in [
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        "3aka3/9/r8/9/r3C4/4C4/9/9/9/3K5 b - - 17 42",
        "4k4/4n4/9/9/9/9/9/9/9/3RKR3 b - - 119 80",
    ] {
        let game = game_at(fen);
        assert_eq!(game.position_text(), fen);
        let again = game_at(&game.position_text());
        assert_eq!(again.hash(), game.hash(), "{fen}");
    }
}

#[test]
fn trailing_fields_are_optional() {
    let board = START_FEN.split(' ').next().unwrap();
    let start = Xiangqi::new(0);
    for (text, written) in [
        (board.to_string(), START_FEN.to_string()),
        (format!("{board} w"), START_FEN.to_string()),
        (format!("{board} r"), START_FEN.to_string()),
        (format!("{board} w -"), START_FEN.to_string()),
        (format!("{board} w - -"), START_FEN.to_string()),
        (format!("{board} w - - 5"), format!("{board} w - - 5 1")),
        (format!("{board} w - - 5 9"), format!("{board} w - - 5 9")),
        (
            format!("  {board}   w  -  -  0   1 "),
            START_FEN.to_string(),
        ),
    ] {
        let game = game_at(&text);
        assert_eq!(game.position_text(), written, "'{text}'");
        assert_eq!(game.hash(), start.hash(), "'{text}'");
    }
}

#[test]
fn black_to_move_is_read_and_hashed() {
    let board = START_FEN.split(' ').next().unwrap();
    let red = Xiangqi::new(0);
    let black = game_at(&format!("{board} b"));
    assert_eq!(black.side_to_move(), 1);
    assert_eq!(black.position_text(), format!("{board} b - - 0 1"));
    assert_ne!(black.hash(), red.hash());
    // Black's moves from the mirrored start: as many as Red's.
    assert_eq!(legal_moves(&black).len(), 44);
    assert_eq!(game_at(&format!("{board} B")).hash(), black.hash());
}

#[test]
fn elephant_and_horse_have_aliases() {
    let start = Xiangqi::new(0);
    for text in [
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w",
        "rhbakaenr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNEAKABHR w",
    ] {
        let game = game_at(text);
        // Written back with the standard letters.
        assert_eq!(game.position_text(), START_FEN, "'{text}'");
        assert_eq!(game.hash(), start.hash(), "'{text}'");
    }
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let start_board = START_FEN.split(' ').next().unwrap();
    let cases: Vec<(String, &[&str])> = vec![
        (String::new(), &["empty"]),
        (
            "rnbakabnr/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["9 ranks", "expected 10"],
        ),
        (format!("9/{start_board} w"), &["11 ranks", "expected 10"]),
        (
            "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["rank 8", "8 files", "expected 9"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/91/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["rank 5", "10 files", "expected 9"],
        ),
        (
            "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["rank 9", "more than 9 files"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAXNR w".into(),
            &["rank 0", "'X'", "not a xiangqi piece"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/4q4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["rank 5", "'q'", "not a xiangqi piece"],
        ),
        (
            "3kk4/9/9/9/9/9/9/9/9/4K4 w".into(),
            &["Black", "2 generals", "expected 1"],
        ),
        (
            "4k4/9/9/9/9/9/9/9/4K4/3K5 b".into(),
            &["Red", "2 generals", "expected 1"],
        ),
        ("9/9/9/9/9/9/9/9/9/4K4 w".into(), &["Black", "0 generals"]),
        ("4k4/9/9/9/9/9/4K4/9/9/9 w".into(), &["Red", "'K'", "e3"]),
        ("4k4/9/9/9/9/9/9/9/9/K8 w".into(), &["Red", "'K'", "a0"]),
        ("4k4/9/9/9/9/4K4/9/9/9/9 w".into(), &["Red", "'K'", "e4"]),
        ("2k6/9/9/9/9/9/9/9/9/4K4 w".into(), &["Black", "'k'", "c9"]),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RBNAKABNR w".into(),
            &["Red", "'B'", "b0"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w".into(),
            &["Red", "'B'", "c5"],
        ),
        (
            "rn1akabnr/9/1c5c1/p1p1p1p1p/9/2b6/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["Black", "'b'", "c4"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKAABNR w".into(),
            &["Red", "'A'", "e0"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CP4C1/9/RNBAKABNR w".into(),
            &["Red", "'P'", "c2"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["Red", "6 'P'", "at most 5"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4p4/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["Black", "6 'p'", "at most 5"],
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/4R4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            &["Red", "3 'R'", "at most 2"],
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/4K4 w".into(),
            &["side not to move", "attacked"],
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/4K4 b".into(),
            &["side not to move", "attacked"],
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/3KR4 w".into(),
            &["side not to move", "attacked"],
        ),
        (format!("{start_board} x"), &["side to move", "'x'"]),
        (format!("{start_board} red"), &["side to move", "'red'"]),
        (format!("{start_board} w KQ - 0 1"), &["'KQ'", "'-'"]),
        (format!("{start_board} w - - x 1"), &["'x'", "not a number"]),
        (
            format!("{start_board} w - - 0 one"),
            &["'one'", "not a number"],
        ),
        (
            format!("{start_board} w - - 0 1 extra"),
            &["extra field", "'extra'"],
        ),
    ];
    // A state with history, so that "unchanged" covers the moves played.
    let _lock = move_text_lock();
    let mut game = Xiangqi::new(0);
    play(&mut game, &["h2e2", "h9g7"]);
    let text = game.position_text();
    let hash = game.hash();
    for (input, fragments) in cases {
        let reason = game
            .set_position(&input)
            .expect_err(&format!("'{input}' was accepted"));
        for fragment in fragments {
            assert!(
                reason.contains(fragment),
                "the reason for '{input}' is '{reason}', which lacks '{fragment}'"
            );
        }
        assert_eq!(game.position_text(), text, "after '{input}'");
        assert_eq!(game.hash(), hash, "after '{input}'");
        assert_eq!(game.plies_played(), 2, "after '{input}'");
    }
    // The chariot check is fine with the checked side to move.
    assert!(game_at("4k4/9/9/9/9/9/9/9/9/3KR4 b").in_check());
}

#[test]
fn counters_follow_the_moves() {
    let _lock = move_text_lock();
    let board = START_FEN.split(' ').next().unwrap();
    let mut game = game_at(&format!("{board} w - - 10 7"));
    play(&mut game, &["h2e2"]);
    assert!(game.position_text().ends_with(" b - - 11 7"));
    play(&mut game, &["h9g7"]);
    assert!(game.position_text().ends_with(" w - - 12 8"));
    // The cannon takes the pawn on e6: the count starts again.
    play(&mut game, &["e2e6"]);
    assert!(game.position_text().ends_with(" b - - 0 8"));
    let text = game.position_text();
    let copy = game_at(&text);
    assert_eq!(copy.position_text(), text);
    assert_eq!(copy.hash(), game.hash());
    for name in ["e2e6", "h9g7", "h2e2"] {
        game.unmake_move(game.parse_move(name).unwrap());
    }
    assert_eq!(game.position_text(), format!("{board} w - - 10 7"));

    // Black first: the move number goes up after Black's move.
    let mut game = game_at(&format!("{board} b - - 0 3"));
    play(&mut game, &["h7e7"]);
    assert!(game.position_text().ends_with(" w - - 1 4"));
    play(&mut game, &["h2e2"]);
    assert!(game.position_text().ends_with(" b - - 2 4"));
}

#[test]
fn move_text_from_rank_zero() {
    let _lock = move_text_lock();
    assert!(!ranks_from_one());
    let game = Xiangqi::new(0);
    let h2e2 = make_move(square(7, 2), square(4, 2));
    assert_eq!(game.parse_move("h2e2"), Some(h2e2));
    assert_eq!(game.parse_move(" h2e2 "), Some(h2e2));
    // Either case, as the other games read moves (ICCS writes `H2-E2`).
    assert_eq!(game.parse_move("H2E2"), Some(h2e2));
    assert_eq!(game.format_move(h2e2), "h2e2");
    let a0a9 = make_move(square(0, 0), square(0, 9));
    assert_eq!(game.parse_move("a0a9"), Some(a0a9));
    assert_eq!(game.format_move(a0a9), "a0a9");
    assert_eq!(
        game.parse_move("i9i0"),
        Some(make_move(square(8, 9), square(8, 0)))
    );
    // Every legal move at the start reads back from its own text.
    for mv in legal_moves(&game) {
        let text = game.format_move(mv);
        assert_eq!(text.len(), 4, "{text}");
        assert_eq!(game.parse_move(&text), Some(mv), "{text}");
    }
    for bad in [
        "", "h2", "h2e", "h2e2e3", "j1a1", "a1j1", "a10a9", "a9a10", "a0a0", "J2E2", "h-2e2",
        "h02e2", "e2 e3", "2h2e",
    ] {
        assert_eq!(game.parse_move(bad), None, "'{bad}'");
    }
}

#[test]
fn move_text_switches_to_ranks_from_one_and_back() {
    let _lock = move_text_lock();
    let _restore = RanksFromZeroOnDrop;
    let mut game = Xiangqi::new(0);
    let h2e2 = make_move(square(7, 2), square(4, 2));
    let a9a8 = make_move(square(0, 9), square(0, 8));

    Xiangqi::set_option("MoveRanks", "1-10").unwrap();
    assert!(ranks_from_one());
    assert_eq!(game.parse_move("h3e3"), Some(h2e2));
    assert_eq!(game.format_move(h2e2), "h3e3");
    assert_eq!(game.parse_move("a10a9"), Some(a9a8));
    assert_eq!(game.format_move(a9a8), "a10a9");
    assert_eq!(
        game.parse_move("i1i10"),
        Some(make_move(square(8, 0), square(8, 9)))
    );
    for mv in legal_moves(&game) {
        let text = game.format_move(mv);
        assert_eq!(game.parse_move(&text), Some(mv), "{text}");
    }
    for bad in ["a0a1", "a1a0", "a11a1", "j1a1", "a1a1", "a01a2", "a10a10"] {
        assert_eq!(game.parse_move(bad), None, "'{bad}' with ranks 1-10");
    }
    // The board picture numbers its ranks the same way.
    assert!(
        game.board_text().starts_with("10 "),
        "{}",
        game.board_text()
    );
    play(&mut game, &["h3e3", "h10g8"]);
    assert!(game.position_text().starts_with("rnbakab1r/9/1c4nc1/"));

    Xiangqi::set_option("MoveRanks", "0-9").unwrap();
    assert!(!ranks_from_one());
    assert_eq!(game.parse_move("h2e2"), Some(h2e2));
    assert_eq!(game.format_move(h2e2), "h2e2");
    assert_eq!(game.parse_move("a10a9"), None);
    assert!(
        game.board_text().starts_with(" 9 "),
        "{}",
        game.board_text()
    );

    assert!(Xiangqi::set_option("MoveRanks", "1-9").is_err());
    assert!(!ranks_from_one());
}
