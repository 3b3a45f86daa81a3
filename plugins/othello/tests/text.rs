//! Position text, board strings, move text and the small `Game` entries
//! (outcome, passes, order hints, board picture) through the `Game` trait.

use plyd_api::{Game, MoveSink, Outcome};
use plyd_game_othello::{Othello, PASS};

const START: &str = "8/8/8/3OX3/3XO3/8/8/8 b";
const EDAX_START: &str = "---------------------------OX------XO--------------------------- X";

fn game_at(text: &str) -> Othello {
    let mut game = Othello::new(0);
    game.set_position(text)
        .unwrap_or_else(|e| panic!("'{text}': {e}"));
    game
}

fn moves(game: &Othello) -> Vec<u32> {
    let mut buf = [0u32; 64];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let n = sink.len();
    buf[..n].to_vec()
}

#[test]
fn new_game_is_the_start_position() {
    let game = Othello::new(0);
    assert_eq!(game.position_text(), START);
    assert_eq!(Othello::VARIANTS[0].start_position, START);
    assert_eq!(Othello::VARIANTS[0].name, "othello");
    assert_eq!(game.side_to_move(), 0);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    // d3, c4, f5, e6 with rows counted downwards.
    let names: Vec<String> = moves(&game).iter().map(|&m| game.format_move(m)).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
}

#[test]
fn position_text_round_trips_through_a_game() {
    let mut game = Othello::new(0);
    for name in ["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e6"] {
        let mv = game.parse_move(name).unwrap();
        assert!(moves(&game).contains(&mv), "{name} is legal");
        game.make_move(mv);
        let text = game.position_text();
        let copy = game_at(&text);
        assert_eq!(copy.position_text(), text);
        assert_eq!(copy.hash(), game.hash());
        assert_eq!(copy.side_to_move(), game.side_to_move());
    }
    assert_eq!(game.position_text(), "8/2X5/1OXX4/2OXXO2/2XOXX2/3OO3/8/8 b");
}

#[test]
fn edax_board_string_reads_as_the_start_position() {
    let start = Othello::new(0);
    for text in [
        EDAX_START,
        "  ...........................OX......XO...........................   *  ",
        "---------------------------ox------xo--------------------------- b",
        "---------------------------O*------*O---------------------------\tB",
    ] {
        let game = game_at(text);
        assert_eq!(game.position_text(), START, "{text}");
        assert_eq!(game.hash(), start.hash(), "{text}");
    }
    for side in ["O", "w", "W", "o"] {
        let text = format!("{} {side}", &EDAX_START[..64]);
        assert_eq!(game_at(&text).position_text(), "8/8/8/3OX3/3XO3/8/8/8 w");
    }
}

#[test]
fn the_side_to_move_changes_the_hash() {
    let black = game_at(START);
    let white = game_at("8/8/8/3OX3/3XO3/8/8/8 w");
    assert_ne!(black.hash(), white.hash());
    assert_eq!(white.side_to_move(), 1);
}

#[test]
fn bad_positions_are_refused_and_leave_the_state_unchanged() {
    let cases = [
        ("", "position text is empty"),
        ("   ", "position text is empty"),
        ("8/8/8/3OX3/3XO3/8/8/8", "missing side to move"),
        ("8/8/8/3OX3/3XO3/8/8 b", "expected 8 rows, got 7"),
        ("8/8/8/3OX3/3XO3/8/8/8/8 b", "expected 8 rows, got 9"),
        ("8/8/9/3OX3/3XO3/8/8/8 b", "unknown character '9' in row 3"),
        ("8/8/81/3OX3/3XO3/8/8/8 b", "row 3 has 9 squares"),
        ("8/8/7/3OX3/3XO3/8/8/8 b", "row 3 has 7 squares"),
        ("8/Q7/8/3OX3/3XO3/8/8/8 b", "unknown character 'Q' in row 2"),
        ("8/x7/8/3OX3/3XO3/8/8/8 b", "unknown character 'x' in row 2"),
        (
            "8/8/8/3OX3/3XO3/8/8/8 x",
            "side to move must be 'b' or 'w', got 'x'",
        ),
        (
            "8/8/8/3OX3/3XO3/8/8/8 b junk",
            "unexpected text after the side to move: 'junk' (only FEN's move counters, `0 1` \
             or `- - 0 1`, may follow it)",
        ),
        (
            "--------------------------OX------XO--------------------------- X",
            "board string must have 64 squares, got 63",
        ),
        (
            "---------------------------OX------XO---------------------------",
            "missing side to move",
        ),
        (
            "---------------------------OX------XO-------------------------Q- X",
            "unknown character 'Q' at square g8 of the board string",
        ),
        (
            "---------------------------OX------XO--------------------------- Z",
            "side to move must be 'X' or 'O', got 'Z'",
        ),
    ];
    // A position with history, so that "unchanged" covers the undo stack.
    let mut game = Othello::new(0);
    for name in ["f5", "f6", "e6"] {
        game.make_move(game.parse_move(name).unwrap());
    }
    let text = game.position_text();
    let hash = game.hash();
    for (input, reason) in cases {
        assert_eq!(
            game.set_position(input),
            Err(reason.to_string()),
            "input '{input}'"
        );
        assert_eq!(game.position_text(), text, "after '{input}'");
        assert_eq!(game.hash(), hash, "after '{input}'");
        assert_eq!(game.plies_played(), 3, "after '{input}'");
    }
    // The history survived: all three moves can still be taken back.
    for name in ["e6", "f6", "f5"] {
        game.unmake_move(game.parse_move(name).unwrap());
    }
    assert_eq!(game.position_text(), START);
}

#[test]
fn set_position_clears_the_history() {
    let mut game = Othello::new(0);
    game.make_move(game.parse_move("d3").unwrap());
    assert_eq!(game.plies_played(), 1);
    game.set_position(START).unwrap();
    assert_eq!(game.plies_played(), 0);
}

#[test]
fn moves_parse_and_format() {
    let game = Othello::new(0);
    assert_eq!(game.parse_move("a1"), Some(0));
    assert_eq!(game.parse_move("h1"), Some(7));
    assert_eq!(game.parse_move("a8"), Some(56));
    assert_eq!(game.parse_move("h8"), Some(63));
    assert_eq!(game.parse_move("D3"), Some(19));
    assert_eq!(game.parse_move("E6"), Some(44));
    for pass in ["0000", "pass", "PASS", "Pass", "pa", "PA", "Pa", "pA"] {
        assert_eq!(game.parse_move(pass), Some(PASS), "{pass}");
    }
    for junk in [
        "", "a0", "a9", "i1", "a", "a10", "00", "00000", "passe", "p", "1a", "--", "é1",
    ] {
        assert_eq!(game.parse_move(junk), None, "{junk}");
    }
    assert_eq!(game.format_move(PASS), "0000");
    assert_eq!(game.format_move(0), "a1");
    assert_eq!(game.format_move(63), "h8");
    for mv in 0..=PASS {
        assert_eq!(game.parse_move(&game.format_move(mv)), Some(mv));
    }
}

#[test]
fn a_player_without_placements_must_pass() {
    // White to move has no placement; Black has one (c1: O on b1 flanked by
    // X on a1 along row 1).
    let mut game = game_at("XO6/8/8/8/8/8/8/8 w");
    assert_eq!(moves(&game), [PASS]);
    assert_eq!(game.outcome(), Outcome::Ongoing);
    game.make_move(PASS);
    assert_eq!(game.position_text(), "XO6/8/8/8/8/8/8/8 b");
    assert_eq!(moves(&game), [game.parse_move("c1").unwrap()]);
    game.unmake_move(PASS);
    assert_eq!(game.position_text(), "XO6/8/8/8/8/8/8/8 w");
}

#[test]
fn a_game_without_placements_is_over() {
    let cases = [
        // All 64 squares black.
        (
            "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX b",
            Outcome::Win,
        ),
        (
            "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX w",
            Outcome::Loss,
        ),
        // Two discs each, far apart: no one can place; a draw.
        ("XX6/8/8/8/8/8/8/6OO b", Outcome::Draw),
        // A wipe-out with empty squares left.
        ("8/8/8/3OO3/3OO3/8/8/8 b", Outcome::Loss),
    ];
    for (text, outcome) in cases {
        let mut game = game_at(text);
        assert_eq!(game.outcome(), outcome, "{text}");
        assert!(moves(&game).is_empty(), "{text}");
        // Native perft counts a finished game as one leaf at any depth.
        for depth in 0..3 {
            assert_eq!(game.perft(depth), 1, "{text}");
        }
    }
}

#[test]
fn order_hints_prefer_corners_and_avoid_x_squares() {
    let game = Othello::new(0);
    let probe: Vec<u32> = ["a1", "b2", "b1", "d3", "h8"]
        .iter()
        .map(|s| game.parse_move(s).unwrap())
        .chain([PASS])
        .collect();
    let mut scores = vec![i32::MIN; probe.len()];
    game.order_hints(&probe, &mut scores);
    let [a1, b2, b1, d3, h8, pass] = scores[..] else {
        unreachable!()
    };
    assert_eq!(a1, h8);
    assert!(a1 > d3 && d3 > b1 && b1 > b2, "{scores:?}");
    assert_eq!(pass, 0);
}

#[test]
fn board_text_shows_files_rows_side_and_counts() {
    let game = game_at("8/8/8/3OX3/3XO3/8/8/8 w");
    let text = game.board_text();
    assert!(text.contains("a b c d e f g h"), "{text}");
    assert!(text.contains(" 4 . . . O X . . ."), "{text}");
    assert!(text.contains(" 8 . . . . . . . ."), "{text}");
    assert!(text.contains("White (O) to move"), "{text}");
    assert!(text.contains("X 2, O 2"), "{text}");
}

#[test]
fn clone_copies_position_and_history() {
    let mut game = Othello::new(0);
    let d3 = game.parse_move("d3").unwrap();
    game.make_move(d3);
    let mut copy = game.clone();
    assert_eq!(copy.position_text(), game.position_text());
    copy.unmake_move(d3);
    assert_eq!(copy.position_text(), START);
    // The original is untouched by what happened to the copy.
    assert_eq!(game.plies_played(), 1);
}
