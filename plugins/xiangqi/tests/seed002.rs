//! The seed002 evaluator against values worked out by hand.
//!
//! FEN ranks run from rank 9 (Black's back rank) down to rank 0; a square
//! is written file letter then rank, `a0` being Red's left corner. Table
//! rows count from the piece's own back rank (the square's rank for Red,
//! 9 - rank for Black) and columns are files, a = 0.

use plyd_api::{Evaluator, Game, MoveSink};
use plyd_game_xiangqi::seed002::Seed002;
use plyd_game_xiangqi::Xiangqi;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn game_at(fen: &str) -> Xiangqi {
    let mut game = Xiangqi::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("'{fen}': {e}"));
    game
}

/// The same FEN with the other side to move.
fn other_side(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    fields.join(" ")
}

/// The default evaluator, or the code-quirks one.
fn evaluator(quirks: bool) -> Seed002 {
    if quirks {
        let text = edited("follow_code_quirks = false", "follow_code_quirks = true");
        Seed002::from_params(Some(&text)).unwrap()
    } else {
        Seed002::from_params(None).unwrap()
    }
}

/// The named term of `explain`.
fn term(eval: &Seed002, game: &Xiangqi, name: &str) -> i32 {
    let value = eval
        .explain(game)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no term {name}"))
        .1;
    assert_eq!(value.fract(), 0.0);
    value as i32
}

/// A side's raw part (the sign explain gives it undone).
fn part(eval: &Seed002, game: &Xiangqi, color: &str, name: &str) -> i32 {
    let signed = term(eval, game, &format!("{color}_{name}"));
    let to_move = if game.side_to_move() == 0 {
        "red"
    } else {
        "black"
    };
    if color == to_move {
        signed
    } else {
        -signed
    }
}

/// Check the score with Red to move and with Black to move: Black's figure
/// minus Red's is `black_minus_red`.
fn check_score(eval: &Seed002, fen: &str, black_minus_red: i32) {
    let red = game_at(fen);
    assert_eq!(red.side_to_move(), 0, "{fen}");
    assert_eq!(eval.evaluate(&red), -black_minus_red, "{fen}");
    let black_fen = other_side(fen);
    if let Ok(()) = Xiangqi::new(0).set_position(&black_fen) {
        let black = game_at(&black_fen);
        assert_eq!(eval.evaluate(&black), black_minus_red, "{black_fen}");
    }
}

/// The FEN with colours swapped and ranks mirrored (files kept), and the
/// other side to move: the same position seen from the other side.
fn colour_flipped(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    fields[0] = ranks.join("/");
    fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_string();
    fields.join(" ")
}

/// A small seeded xorshift64.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The FENs of `games` random games of up to `plies` plies from the start.
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<String> {
    let mut rng = XorShift(seed);
    let mut fens = Vec::new();
    let mut buf = vec![0; 512];
    for _ in 0..games {
        let mut game = Xiangqi::new(0);
        for _ in 0..plies {
            fens.push(game.position_text());
            let mut sink = MoveSink::new(&mut buf);
            game.generate_moves(&mut sink);
            let count = sink.len();
            assert!(count <= buf.len());
            if count == 0 {
                break;
            }
            let mv = buf[rng.below(count)];
            game.make_move(mv);
        }
    }
    fens
}

/// The shipped parameter text with `from` replaced by `to` (which must
/// occur, so a renamed key cannot make a test pass by accident).
fn edited(from: &str, to: &str) -> String {
    assert!(
        Seed002::DEFAULT_PARAMS.contains(from),
        "'{from}' not in seed002.toml"
    );
    Seed002::DEFAULT_PARAMS.replacen(from, to, 1)
}

#[test]
fn names_and_game() {
    assert_eq!(Seed002::NAME, "seed002");
    assert_eq!(Seed002::GAME, "xiangqi");
}

#[test]
fn start_position_is_level() {
    for quirks in [false, true] {
        let eval = evaluator(quirks);
        for fen in [START.to_string(), other_side(START)] {
            let game = game_at(&fen);
            assert_eq!(eval.evaluate(&game), 0, "{fen}");
            for color in ["red", "black"] {
                // 80 + 2*300 + 2*500 + 2*300 + 5*100.
                assert_eq!(part(&eval, &game, color, "material"), 2780);
                // General 5 on its home square, horses -3 each, chariots
                // -6 each, pawns -2 -2 +6 -2 -2, the rest 0.
                assert_eq!(part(&eval, &game, color, "position"), -15);
            }
            // Each cannon sees the enemy horse on its file over the enemy
            // cannon: +100 twice per side, or with the code's quirks no
            // horse-or-cannon case and nothing else.
            let next = if quirks { 0 } else { 200 };
            assert_eq!(part(&eval, &game, "red", "next_move"), next);
            assert_eq!(part(&eval, &game, "black", "next_move"), next);
        }
    }
}

#[test]
fn red_up_a_chariot() {
    // The start without Black's a9 chariot: Black loses 500 of material and
    // the chariot's -6 on its corner. No capture changes: Red's a0 chariot
    // still stops at its own pawn on a3.
    let fen = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for quirks in [false, true] {
        let eval = evaluator(quirks);
        check_score(&eval, fen, -(500 - 6));
        let game = game_at(fen);
        assert_eq!(part(&eval, &game, "black", "material"), 2280);
    }
}

#[test]
fn tables_are_read_from_each_sides_own_back_rank() {
    // Red: general d0, chariot a1, horse c2, elephant e2, pawn e6.
    // Black: general f9, advisor e8, cannon c7, horse h5.
    // Nothing attacks an enemy piece, so only material and position count.
    //
    // Red rows are ranks: general row 0 col 3 = 1, chariot row 1 col 0 =
    // 5, horse row 2 col 2 = 6, elephant row 2 col 4 = 3, pawn row 6 col 4
    // = 42: 57. Black rows are 9 - rank: general row 0 col 5 = 1, advisor
    // row 1 col 4 = 3, cannon row 2 col 2 = 4, horse row 4 col 7 = 10: 18.
    // Material: Red 80 + 500 + 300 + 100 = 980, Black 80 + 300 + 300 = 680.
    // Black - Red = 698 - 1037 = -339.
    let fen = "5k3/4a4/2c6/4P4/7n1/9/9/2N1B4/R8/3K5 w - - 0 1";
    for quirks in [false, true] {
        let eval = evaluator(quirks);
        let game = game_at(fen);
        assert_eq!(part(&eval, &game, "red", "position"), 57);
        assert_eq!(part(&eval, &game, "black", "position"), 18);
        assert_eq!(part(&eval, &game, "red", "next_move"), 0);
        assert_eq!(part(&eval, &game, "black", "next_move"), 0);
        check_score(&eval, fen, -339);
    }
}

#[test]
fn the_odd_length_tables_are_read_as_documented() {
    // Red: general d0, horse b6, pawn e8. Black: general f9, horse e4,
    // pawns e2 and f0. Nothing attacks an enemy piece.
    //
    // Ten-row tables: Red horse row 6 col 1 = 20, pawn row 8 col 4 = 70;
    // Black horse row 5 col 4 = 16, pawns row 7 col 4 = 55 (the row taken
    // from the cannon table) and row 9 col 5 = 2. Generals 1 each.
    // Red 1 + 20 + 70 = 91, Black 1 + 16 + 55 + 2 = 74.
    //
    // The code's arrays: horse rank 6 reads row 5 (12), rank 5 row 4 (15);
    // pawn rank 8 reads row 9 (4), rank 7 row 8 (70), rank 9 nothing (0).
    // Red 1 + 12 + 4 = 17, Black 1 + 15 + 70 + 0 = 86.
    //
    // Material: Red 80 + 300 + 100 = 480, Black 80 + 300 + 200 = 580.
    let fen = "5k3/4P4/9/1N7/9/4n4/9/4p4/9/3K1p3 w - - 0 1";
    let eval = evaluator(false);
    let game = game_at(fen);
    assert_eq!(part(&eval, &game, "red", "position"), 91);
    assert_eq!(part(&eval, &game, "black", "position"), 74);
    check_score(&eval, fen, (580 + 74) - (480 + 91));

    let eval = evaluator(true);
    assert_eq!(part(&eval, &game, "red", "position"), 17);
    assert_eq!(part(&eval, &game, "black", "position"), 86);
    check_score(&eval, fen, (580 + 86) - (480 + 17));
}

#[test]
fn next_move_terms() {
    // Red (to move, in check): general e0, chariot a5, horse h3, pawn i4.
    // Black: general d9, chariot e5, cannon g5, horse a7, pawn i5.
    //
    // Red chariot a5 sees Black's chariot e5 and horse a7: the chariot
    // case wins, 500. Red horse h3 (leg h4 free) sees cannon g5 and pawn
    // i5: 100 - 20 = 80. Red pawn i4 sees pawn i5: -20. Red: 560.
    // Black chariot e5 sees the general e0 (and Red's chariot a5): 9999.
    // Black cannon g5 jumps its own chariot e5 to Red's chariot a5: 500.
    // Black pawn i5 sees pawn i4: -20. Black horse a7 sees nothing. Black:
    // 10479.
    //
    // Material: Red 80 + 500 + 300 + 100 = 980; Black 80 + 500 + 300 +
    // 300 + 100 = 1280. Position: Red general row 0 col 4 = 5, chariot row
    // 5 col 0 = 8, horse row 3 col 7 = 6, pawn row 4 col 8 = 3: 22; Black
    // general 1, chariot row 4 col 4 = 15, cannon row 4 col 6 = -2, horse
    // row 2 col 0 = 5, pawn row 4 col 8 = 3: 22.
    let fen = "3k5/9/n8/9/R3r1c1p/8P/7N1/9/9/4K4 w - - 0 1";
    let game = game_at(fen);

    let eval = evaluator(false);
    assert_eq!(part(&eval, &game, "red", "next_move"), 560);
    assert_eq!(part(&eval, &game, "black", "next_move"), 10479);
    assert_eq!(
        eval.evaluate(&game),
        -((1280 + 22 + 10479) - (980 + 22 + 560))
    );

    // The code: horse-or-cannon never scores (Red's horse gets -20 only),
    // and every piece's figure goes to both sides: 500 - 20 - 20 + 9999 +
    // 500 - 20 = 10939 each, so only material and position remain.
    let eval = evaluator(true);
    assert_eq!(part(&eval, &game, "red", "next_move"), 10939);
    assert_eq!(part(&eval, &game, "black", "next_move"), 10939);
    assert_eq!(eval.evaluate(&game), -300);
}

#[test]
fn next_move_figures_are_parameters() {
    // The position of next_move_terms with horse 40, cannon 70, pawn -5:
    // Red's horse sees a cannon and a pawn, 70 - 5; its pawn -5.
    let text = edited("horse = 100", "horse = 40")
        .replacen("cannon = 100", "cannon = 70", 1)
        .replacen("pawn = -20", "pawn = -5", 1);
    let eval = Seed002::from_params(Some(&text)).unwrap();
    let game = game_at("3k5/9/n8/9/R3r1c1p/8P/7N1/9/9/4K4 w - - 0 1");
    assert_eq!(part(&eval, &game, "red", "next_move"), 500 + 65 - 5);
    // Black: 9999 + 500 - 5.
    assert_eq!(part(&eval, &game, "black", "next_move"), 9999 + 500 - 5);
    // The general's figure.
    let eval = Seed002::from_params(Some(&edited("general = 9999", "general = 1000"))).unwrap();
    assert_eq!(part(&eval, &game, "black", "next_move"), 1000 + 500 - 20);
}

#[test]
fn colour_flipped_positions_score_the_same() {
    let mut fens = vec![
        START.to_string(),
        "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".to_string(),
        "5k3/4a4/2c6/4P4/7n1/9/9/2N1B4/R8/3K5 w - - 0 1".to_string(),
        "5k3/4P4/9/1N7/9/4n4/9/4p4/9/3K1p3 w - - 0 1".to_string(),
        "3k5/9/n8/9/R3r1c1p/8P/7N1/9/9/4K4 w - - 0 1".to_string(),
    ];
    fens.extend(random_positions(0x5eed_0002, 8, 80));
    for quirks in [false, true] {
        let eval = evaluator(quirks);
        for fen in &fens {
            let flipped = colour_flipped(fen);
            let (a, b) = (game_at(fen), game_at(&flipped));
            assert_eq!(eval.evaluate(&a), eval.evaluate(&b), "{fen} / {flipped}");
        }
    }
}

#[test]
fn explain_terms_add_up_to_the_total() {
    let mut fens = vec![
        START.to_string(),
        "3k5/9/n8/9/R3r1c1p/8P/7N1/9/9/4K4 w - - 0 1".to_string(),
    ];
    fens.extend(random_positions(0x0002_5eed, 4, 60));
    for quirks in [false, true] {
        let eval = evaluator(quirks);
        for fen in &fens {
            let game = game_at(fen);
            let terms = eval.explain(&game);
            let names: Vec<&str> = terms.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(
                names,
                [
                    "red_material",
                    "red_position",
                    "red_next_move",
                    "black_material",
                    "black_position",
                    "black_next_move",
                    "total"
                ]
            );
            let (parts, total) = terms.split_at(terms.len() - 1);
            let sum: f64 = parts.iter().map(|(_, v)| v).sum();
            assert_eq!(sum, total[0].1, "{fen}");
            assert_eq!(total[0].1, f64::from(eval.evaluate(&game)), "{fen}");
        }
    }
}

#[test]
fn scores_stay_within_the_bound() {
    let fens = random_positions(0x2545_f491_4f6c_dd1d, 24, 200);
    // The shipped parameters, the code's reading, and every figure at the
    // end of its range that pushes Black's side up.
    let extreme = {
        let mut text = String::from("follow_code_quirks = false\n[values]\n");
        for kind in [
            "general", "advisor", "elephant", "horse", "chariot", "cannon", "pawn",
        ] {
            text.push_str(&format!("{kind} = 1000\n"));
        }
        text.push_str(
            "[next_move]\ngeneral = 10000\nchariot = 1000\nhorse = 1000\ncannon = 1000\npawn = 1000\n[tables]\n",
        );
        let row = format!("[{}]", ["100"; 9].join(", "));
        let table = format!("[{}]", vec![row; 10].join(", "));
        for kind in [
            "general", "advisor", "elephant", "horse", "chariot", "cannon", "pawn",
        ] {
            text.push_str(&format!("{kind} = {table}\n"));
        }
        Seed002::from_params(Some(&text)).unwrap()
    };
    let evals = [evaluator(false), evaluator(true), extreme];
    let mut largest = 0;
    for fen in &fens {
        let game = game_at(fen);
        for eval in &evals {
            let score = eval.evaluate(&game);
            assert!(score.abs() <= Seed002::SCORE_BOUND, "{fen}: {score}");
            largest = largest.max(score.abs());
        }
    }
    // The games did reach positions with something to take.
    assert!(largest > 1000, "{largest}");
    // A double check from the chariot e5 and the horse g1 (leg f1 free),
    // counted as the document's text says: 9999 twice for Black.
    let fen = "3k5/9/9/9/4r4/9/9/9/6n2/4K4 w - - 0 1";
    let eval = evaluator(false);
    let game = game_at(fen);
    assert_eq!(part(&eval, &game, "black", "next_move"), 2 * 9999);
    assert!(eval.evaluate(&game).abs() <= Seed002::SCORE_BOUND);
}

#[test]
fn the_shipped_parameters_are_the_default() {
    let shipped = Seed002::from_params(Some(Seed002::DEFAULT_PARAMS)).unwrap();
    let default = Seed002::from_params(None).unwrap();
    let game = game_at("3k5/9/n8/9/R3r1c1p/8P/7N1/9/9/4K4 w - - 0 1");
    assert_eq!(shipped.evaluate(&game), default.evaluate(&game));
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/seed002.toml"));
    assert_eq!(on_disk.unwrap(), Seed002::DEFAULT_PARAMS);
}

#[test]
fn bad_parameters_name_the_key() {
    let cases = [
        (
            edited("chariot = 500", "chariot = \"lots\""),
            "key 'values.chariot': expected an integer, found a string \"lots\"",
        ),
        (
            edited("horse = 300", "horse = 3000"),
            "key 'values.horse': 3000 is outside [0, 1000]",
        ),
        (
            edited("general = 9999", "general = 20000"),
            "key 'next_move.general': 20000 is outside [-10000, 10000]",
        ),
        (
            edited("pawn = -20", "pawn = -2000"),
            "key 'next_move.pawn': -2000 is outside [-1000, 1000]",
        ),
        (
            edited("follow_code_quirks = false", "follow_code_quirks = 1"),
            "key 'follow_code_quirks': expected true or false, found an integer 1",
        ),
        (
            edited(
                "[0, 0, 0, 1, 5, 1, 0, 0, 0]",
                "[0, 0, 0, 1, 500, 1, 0, 0, 0]",
            ),
            "key 'tables.general[0][4]': 500 is outside [-100, 100]",
        ),
        (
            edited("[0, 0, 0, 1, 5, 1, 0, 0, 0]", "[0, 0, 0, 1, 5, 1, 0, 0]"),
            "key 'tables.general[0]': 8 values, expected 9",
        ),
        (
            edited("[0, -3, 2, 0, 2, 0, 2, -3, 0],", ""),
            "key 'tables.horse': 9 rows, expected 10",
        ),
        (
            edited(
                "[0, 1, 2, 2, 2, 2, 2, 1, 0]",
                "[0, 1, 2, 2.5, 2, 2, 2, 1, 0]",
            ),
            "key 'tables.cannon[1][3]': expected an integer, found a number 2.5",
        ),
        (
            edited("pawn = -20", "pawn = -20\nadvisor = 5"),
            "key 'next_move.advisor': unknown field `advisor`",
        ),
    ];
    for (text, expected) in cases {
        let got = Seed002::from_params(Some(&text)).err();
        assert!(
            got.as_deref().is_some_and(|e| e.starts_with(expected)),
            "got {got:?}, expected {expected}"
        );
    }
    // A file missing a key is refused rather than half-read.
    let missing = edited("follow_code_quirks = false\n", "");
    let e = Seed002::from_params(Some(&missing)).unwrap_err();
    assert!(e.starts_with("key 'follow_code_quirks': missing"), "{e}");
}
