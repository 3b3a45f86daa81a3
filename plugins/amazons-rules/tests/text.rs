//! Position and move text through the `Game` trait: the start positions of
//! both variants; FEN reading and writing on every board side (runs of
//! `10`, arrows, either side to move, optional trailing fields, the move
//! number and how it goes up, stopping at the largest one); each kind of
//! bad FEN refused with an error and the position left as it was; every
//! accepted move spelling, on both boards and with two-digit ranks; move
//! text refused when a square is off the board, when there are too few or
//! too many squares, when the Fairy-Stockfish form names two different
//! middle squares, or when it is not move text at all; and the board
//! picture carrying the FEN.

use plyd_amazons_rules::game::{START_10, START_8};
use plyd_amazons_rules::Amazons;
use plyd_api::{Game, MoveSink, Outcome};

/// The 10x10 start with the second player to move.
const START_10_SECOND: &str = "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 b - - 0 1";

fn game_at(fen: &str) -> Amazons {
    let mut game = Amazons::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("'{fen}': {e}"));
    game
}

fn legal_moves(game: &Amazons) -> Vec<u32> {
    let mut buf = vec![0u32; 4096];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let count = sink.len();
    assert!(count <= buf.len(), "more than 4096 moves");
    buf.truncate(count);
    buf
}

/// Plays moves given as text, each checked to be legal.
fn play(game: &mut Amazons, moves: &[&str]) {
    for name in moves {
        let mv = game
            .parse_move(name)
            .unwrap_or_else(|| panic!("'{name}' does not parse"));
        assert!(legal_moves(game).contains(&mv), "{name} is not legal");
        game.make_move(mv);
    }
}

#[test]
fn the_variants_start_where_they_should() {
    assert_eq!(Amazons::VARIANTS.len(), 2);
    assert_eq!(Amazons::VARIANTS[0].name, "amazons");
    assert_eq!(Amazons::VARIANTS[1].name, "amazons8");
    for (variant, start, size, moves) in [(0, START_10, 10, 2_176), (1, START_8, 8, 1_232)] {
        let game = Amazons::new(variant);
        assert_eq!(Amazons::VARIANTS[variant].start_position, start);
        assert_eq!(game.position_text(), start);
        assert_eq!(game.board().size, size);
        assert_eq!(game.side_to_move(), 0);
        assert_eq!(game.outcome(), Outcome::Ongoing);
        assert_eq!(legal_moves(&game).len(), moves);
    }
    assert_eq!(
        START_10, "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1",
        "Q on a4 d1 g1 j4, q on a7 d10 g10 j7"
    );
    assert_eq!(
        START_8, "2q2q2/8/q6q/8/8/Q6Q/8/2Q2Q2 w - - 0 1",
        "Q on c1 f1 a3 h3, q on a6 h6 c8 f8"
    );
}

#[test]
fn fens_round_trip() {
    for fen in [
        START_10,
        START_8,
        "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 b - - 0 1",
        "*2q2q3/10/2*4*2/q3**3q/4*5/1*1Q6/Q8*/3*6/10/3Q2Q3 b - - 0 5",
        "**********/*********q/10/10/10/10/10/10/Q*********/********** w - - 0 40",
        "2q2q3/9/q7q/9/4*4/9/Q7Q/9/3Q2Q2 w - - 0 1",
        "2q2q2/8/q6q/8/3**3/Q6Q/8/2Q2Q2 b - - 0 2",
        "2q1q2/7/q5q/7/Q5Q/7/2Q1Q2 w - - 0 1",
        "2q3/6/q1*3/5Q/2*3/3Q2 w - - 0 12",
        "q3q/5/2*2/5/Q3Q b - - 0 7",
        "q2q/1*2/4/Q2Q w - - 0 1",
        "Q*q1/**2/4/4 w - - 0 1",
    ] {
        let game = game_at(fen);
        assert_eq!(game.position_text(), fen);
        let mut again = Amazons::new(1);
        again.set_position(&game.position_text()).unwrap();
        assert_eq!(again.hash(), game.hash(), "{fen}");
        assert_eq!(again.position_text(), fen);
    }
}

#[test]
fn trailing_fields_are_optional() {
    let board = "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3";
    assert_eq!(game_at(board).position_text(), START_10);
    assert_eq!(game_at(&format!("{board} w")).position_text(), START_10);
    assert_eq!(game_at(&format!("{board} w -")).position_text(), START_10);
    assert_eq!(game_at(&format!("{board} w - -")).position_text(), START_10);
    assert_eq!(
        game_at(&format!("{board} w - - 0")).position_text(),
        START_10
    );
    let black = game_at(&format!("{board} b"));
    assert_eq!(black.side_to_move(), 1);
    assert_eq!(black.position_text(), format!("{board} b - - 0 1"));
    // The no-progress counter means nothing here and is written as 0.
    assert_eq!(
        game_at(&format!("{board} b - - 7 23")).position_text(),
        format!("{board} b - - 0 23")
    );
}

#[test]
fn the_move_number_goes_up_after_the_second_player_moves() {
    let mut game = Amazons::new(1);
    play(&mut game, &["c1c6c7"]);
    assert_eq!(
        game.position_text(),
        "2q2q2/2*5/q1Q4q/8/8/Q6Q/8/5Q2 b - - 0 1"
    );
    play(&mut game, &["f8f2e1"]);
    assert_eq!(
        game.position_text(),
        "2q5/2*5/q1Q4q/8/8/Q6Q/5q2/4*Q2 w - - 0 2"
    );
    let mut from_black = game_at("q3q/5/2*2/5/Q3Q b - - 0 7");
    play(&mut from_black, &["a5b5a5"]);
    assert_eq!(from_black.position_text(), "*q2q/5/2*2/5/Q3Q w - - 0 8");
    play(&mut from_black, &["a1a2a1"]);
    assert_eq!(from_black.position_text(), "*q2q/5/2*2/Q4/*3Q b - - 0 8");
    from_black.unmake_move(from_black.parse_move("a1a2a1").unwrap());
    from_black.unmake_move(from_black.parse_move("a5b5a5").unwrap());
    assert_eq!(from_black.position_text(), "q3q/5/2*2/5/Q3Q b - - 0 7");
}

#[test]
fn the_largest_move_number_does_not_overflow() {
    let mut game = game_at("q3q/5/2*2/5/Q3Q b - - 0 4294967295");
    play(&mut game, &["a5b5a5"]);
    assert_eq!(game.position_text(), "*q2q/5/2*2/5/Q3Q w - - 0 4294967295");
    assert!(game
        .set_position("q3q/5/5/5/Q3Q w - - 0 4294967296")
        .is_err());
}

#[test]
fn bad_positions_are_refused_and_leave_the_game_as_it_was() {
    let start = "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3";
    for (why, bad) in [
        ("empty text", String::new()),
        ("only spaces", "   ".to_string()),
        ("a letter that is no piece", start.replace("3Q2Q3", "3Q2K3")),
        ("an arrow written as x", start.replace("Q8Q", "Q7xQ")),
        ("a run of 0", start.replace("3Q2Q3", "3Q2Q0*2")),
        ("a rank too wide", start.replace("3Q2Q3", "3Q2Q4")),
        ("a rank too narrow", start.replace("3Q2Q3", "3Q2Q2")),
        (
            "a run too long to count",
            start.replace("3Q2Q3", "3Q2Q99999999999999999999999999"),
        ),
        ("a piece past the edge", start.replace("q8q", "q9q")),
        ("11 ranks", format!("10/{start}")),
        ("3 ranks", "q2/3/Q2".to_string()),
        ("1 rank", "Qq".to_string()),
        (
            "no first-player amazon",
            "3q2q3/10/10/q8q/10/10/10/10/10/10".to_string(),
        ),
        (
            "no second-player amazon",
            "10/10/10/10/10/10/Q8Q/10/10/3Q2Q3".to_string(),
        ),
        ("an empty board", "4/4/4/4".to_string()),
        ("side to move x", format!("{start} x - - 0 1")),
        ("side to move white", format!("{start} white")),
        (
            "a move number that is no number",
            format!("{start} w - - 0 one"),
        ),
        (
            "junk after the move number",
            format!("{start} w - - 0 1 junk"),
        ),
        ("a trailing slash", format!("{start}/")),
    ] {
        let mut game = game_at("q2q/1*2/4/Q2Q b - - 0 3");
        let (text, hash) = (game.position_text(), game.hash());
        assert!(
            game.set_position(&bad).is_err(),
            "{why}: '{bad}' was accepted"
        );
        assert_eq!(game.position_text(), text, "{why}: the position changed");
        assert_eq!(game.hash(), hash, "{why}: the hash changed");
        assert!(Amazons::from_fen(&bad).is_err(), "{why}");
    }
    // Ranks of 10 squares in a text of 7 ranks: the error names the rank
    // count, since a board is as wide as it is tall.
    let seven = "3q2q3/10/10/q8q/10/10/Q8Q";
    let error = game_at("q2q/1*2/4/Q2Q b - - 0 3")
        .set_position(seven)
        .unwrap_err();
    assert!(
        error.contains("rank 7 has 10 squares, but the text has 7 ranks: a board is square"),
        "{error}"
    );
}

#[test]
fn every_move_spelling_is_read() {
    for (fen, spellings, canonical) in [
        (
            START_10,
            &["d1d7g7", "d1d7(g7)", "d1-d7/g7", "d1d7,d7g7"][..],
            "d1d7g7",
        ),
        (
            START_10_SECOND,
            &["g10g9g10", "g10g9(g10)", "g10-g9/g10", "g10g9,g9g10"][..],
            "g10g9g10",
        ),
        (
            START_10_SECOND,
            &["j7j10h10", "j7j10(h10)", "j7-j10/h10", "j7j10,j10h10"][..],
            "j7j10h10",
        ),
        (
            START_10_SECOND,
            &["a7a10c10", "a7a10(c10)", "a7-a10/c10", "a7a10,a10c10"][..],
            "a7a10c10",
        ),
        (
            START_8,
            &["c1c6c7", "c1c6(c7)", "c1-c6/c7", "c1c6,c6c7"][..],
            "c1c6c7",
        ),
        (
            START_8,
            &["a3e7e1", "a3e7(e1)", "a3-e7/e1", "a3e7,e7e1"][..],
            "a3e7e1",
        ),
        (
            START_8,
            &["h3h5h3", "h3h5(h3)", "h3-h5/h3", "h3h5,h5h3"][..],
            "h3h5h3",
        ),
    ] {
        let game = game_at(fen);
        let legal = legal_moves(&game);
        let mv = game.parse_move(canonical).unwrap();
        assert!(legal.contains(&mv), "{canonical} is legal in {fen}");
        assert_eq!(game.format_move(mv), canonical);
        for spelling in spellings {
            assert_eq!(game.parse_move(spelling), Some(mv), "'{spelling}' in {fen}");
        }
    }
}

#[test]
fn move_text_is_read_without_judging_legality() {
    // Well-formed text of an illegal move parses; is_legal refuses it.
    let game = Amazons::new(0);
    for text in ["a1a1a1", "e5e6e7", "d10d9d8", "d1d10d9"] {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|| panic!("'{text}' does not parse"));
        assert_eq!(game.format_move(mv), text);
        assert!(!game.is_legal(mv), "{text}");
    }
}

#[test]
fn bad_move_text_is_refused() {
    let ten = Amazons::new(0);
    let eight = Amazons::new(1);
    for (why, game, text) in [
        ("file k on 10x10", &ten, "k1k2k3"),
        ("rank 11 on 10x10", &ten, "d1d11d10"),
        ("rank 0", &ten, "d0d1d2"),
        ("j10 on 8x8", &eight, "c1c8j10"),
        ("file i on 8x8", &eight, "c1c2i2"),
        ("rank 9 on 8x8", &eight, "c1c9c8"),
        ("two squares", &ten, "d1d7"),
        ("two squares in the comma form", &ten, "d1d7,"),
        ("one square", &ten, "d1"),
        ("five squares", &ten, "d1d7,d7g7g8"),
        ("four squares, the middle two differ", &ten, "d1d7,e7g7"),
        (
            "four squares written plainly, middle two differ",
            &ten,
            "d1d7e7g7",
        ),
        ("empty", &ten, ""),
        ("a word", &ten, "hello"),
        ("a rank missing", &ten, "d1d7g"),
        ("a digit first", &ten, "1d1d7g7"),
        ("a stray character", &ten, "d1d7g7!"),
        ("a space inside a square", &ten, "d 1d7g7"),
        ("a null move", &ten, "0000"),
        ("a pass", &ten, "pass"),
    ] {
        assert_eq!(game.parse_move(text), None, "{why}: '{text}'");
    }
}

#[test]
fn the_board_picture_draws_every_square_and_the_side_to_move() {
    for (fen, mover, arrows) in [
        (START_10, "Q", 0),
        (START_8, "Q", 0),
        (
            "*2q2q3/10/2*4*2/q3**3q/4*5/1*1Q6/Q8*/3*6/10/3Q2Q3 b - - 0 5",
            "q",
            9,
        ),
        ("q2q/1*2/4/Q2Q w - - 0 1", "Q", 1),
    ] {
        let game = game_at(fen);
        let picture = game.board_text();
        let size = usize::from(game.board().size);
        let lines: Vec<&str> = picture.lines().collect();
        // The ranks, top first, read back as the position text's board.
        let rows: Vec<String> = lines[..size]
            .iter()
            .map(|l| l.split_whitespace().skip(1).collect())
            .collect();
        let board: Vec<String> = fen
            .split(' ')
            .next()
            .unwrap()
            .split('/')
            .map(|rank| {
                rank.replace("10", &".".repeat(10))
                    .chars()
                    .flat_map(|c| match c.to_digit(10) {
                        Some(n) => vec!['.'; n as usize],
                        None => vec![c],
                    })
                    .collect()
            })
            .collect();
        assert_eq!(rows, board, "{picture}");
        assert_eq!(
            lines.last().unwrap(),
            &format!("{mover} to move; arrows {arrows}"),
            "{picture}"
        );
        // The daemon adds the position text; the picture does not repeat it.
        assert!(!picture.contains("Fen:"), "{picture}");
    }
}
