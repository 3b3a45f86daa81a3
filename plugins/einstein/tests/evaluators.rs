//! The evaluators on concrete positions: the document's square weights,
//! each seed001 term where it should appear, colour symmetry, the odds
//! evaluator's probabilities, and parameter errors naming the key.

use plyd_api::{Evaluator, Game};
use plyd_game_einstein::{EinStein, Odds, Seed001};

fn state(text: &str) -> EinStein {
    let mut game = EinStein::new(0);
    game.set_position(text).unwrap();
    game
}

/// The position turned half round with the colours swapped: the same game
/// for the other side.
fn mirrored(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let cells: String = words[0].chars().filter(|&c| c != '/').collect();
    let swapped: Vec<char> = cells
        .chars()
        .rev()
        .map(|c| match c {
            '1'..='6' => (b'a' + c as u8 - b'1') as char,
            'a'..='f' => (b'1' + c as u8 - b'a') as char,
            _ => c,
        })
        .collect();
    let ranks: Vec<String> = swapped.chunks(5).map(|r| r.iter().collect()).collect();
    let side = if words[1] == "r" { "b" } else { "r" };
    let mut out = format!("{} {side} - -", ranks.join("/"));
    if let Some(roll) = words.get(4) {
        out.push(' ');
        out.push_str(roll);
    }
    out
}

const MIDDLE_GAMES: [&str; 4] = [
    "123../45.../6...f/...ed/..cba r s123456 s123456",
    "1.3../.5.2./..d.f/.4..e/....a b s123456 s123456",
    "1.3../.5.2./..d.f/.4..e/....a b s123456 s123456 r3",
    "64.../.3.../..2.b/....d/....c r s641325 s135246",
];

#[test]
fn seed001_square_weights_are_two_to_the_four_minus_steps() {
    let e = Seed001::default();
    // Red heads for e1 (square 4); Blue for a5 (square 20).
    let red = |name: &str| {
        let b = name.as_bytes();
        e.board_value(0, (b[1] - b'1') * 5 + (b[0] - b'a'))
    };
    assert_eq!(red("d2"), 8.0); // one step, inner
    assert_eq!(red("e2"), 10.0); // one step, on the e-file: 8 x 1.25
    assert_eq!(red("d1"), 10.0); // one step, on rank 1
    assert_eq!(red("c3"), 4.0); // two steps
    assert_eq!(red("b4"), 2.0); // three steps
    assert_eq!(red("a5"), 1.0); // four steps, inner for Red
    assert_eq!(red("e5"), 1.25); // four steps, on the e-file
    assert_eq!(red("e1"), 100.0); // the corner
                                  // Blue's board is Red's turned half round.
    for sq in 0..25u8 {
        assert_eq!(e.board_value(1, 24 - sq), e.board_value(0, sq));
    }
}

#[test]
fn both_evaluators_are_colour_symmetric() {
    // The set-up book is not: it rates each side's arrangements from that
    // side's games, and the first player wins more of them.
    let odds = Odds::from_params(Some(
        &plyd_game_einstein::odds::DEFAULT_PARAMS
            .replace("setup_book = true", "setup_book = false"),
    ))
    .unwrap();
    let seed = Seed001::default();
    for text in MIDDLE_GAMES {
        let (a, b) = (state(text), state(&mirrored(text)));
        assert_eq!(odds.evaluate(&a), odds.evaluate(&b), "{text}");
        assert_eq!(seed.evaluate(&a), seed.evaluate(&b), "{text}");
    }
}

#[test]
fn seed001_charges_a_deep_capture_and_credits_a_defensive_one() {
    let e = Seed001::default();
    let terms = |g: &EinStein, side: usize| e.side_terms(g, side);
    // Red's 5 on c3 takes Blue's 4 on d2, one step from Red's target and
    // far from Red's own corner a5: a penalty, no defence.
    let mut g = state("1..../...../..5../...d./....a r s123456 s123456 r5");
    let mv = g.parse_move("c3d2").unwrap();
    g.make_move(mv);
    let t = terms(&g, 0);
    assert!(t.capture_penalty > 0.0, "{t:?}");
    assert_eq!(t.defense, 0.0);
    // Blue's 4 on b4 is one step from a5, and Red's 1 on a5 takes it
    // (diagonally down-right).
    let mut g = state("1..../.d.../...../...../....a r s123456 s123456 r1");
    let mv = g.parse_move("a5b4").unwrap();
    g.make_move(mv);
    let t = terms(&g, 0);
    // b4 is one step from a5 and three from e1: defence is Blue's weight
    // of b4 (one step from its corner, inner: 8).
    assert_eq!(t.defense, 8.0);
    // Blue had its 1 and its 4: face 1 selects the 1, faces 4, 5, 6 the
    // 4, faces 2 and 3 either (one half each), so P[4] = (3 + 1) / 6; b4
    // is one step from Red's own corner a5.
    assert!(
        (t.capture_penalty - (3.0 + 1.0) / 6.0).abs() < 1e-9,
        "{t:?}"
    );
    // No step yet: no such terms.
    let g = state(MIDDLE_GAMES[0]);
    assert_eq!(terms(&g, 0).capture_penalty, 0.0);
}

/// The state after `moves` from the start.
fn after(moves: &str) -> EinStein {
    let mut g = EinStein::new(0);
    for text in moves.split_whitespace() {
        let mv = g.parse_move(text).unwrap();
        g.make_move(mv);
    }
    g
}

#[test]
fn seed001_keeps_a_captures_terms_as_they_stood_when_it_was_made() {
    let e = Seed001::default();
    // Blue's 5 takes Red's 5 on c3, two steps from Blue's corner e1, and
    // Red's 4 takes it back there: Blue's capture still has its penalty
    // (Red's 5 was selected by face 5 alone, 1/6, two steps from e1) and
    // its defence (Red's weight of c3, 4). Both were dropped once the
    // capturing stone was gone.
    let g = after("s123456 s123456 r4 a4b3 r6 e3d3 r5 b4c3 r5 d2c3 r4 b3c3");
    let t = e.side_terms(&g, 1);
    assert!((t.capture_penalty - 2.0 / 6.0).abs() < 1e-9, "{t:?}");
    assert_eq!(t.defense, 4.0, "{t:?}");
    // Red's 5 takes Blue's 5 on d2 while Blue's six stones stand (face 5
    // alone: 1/6, three steps from a5); Blue's 1 then takes its own 4.
    // P[a] is the share of Blue's stones at the capture, not of those
    // left (which made it 1/4).
    let moves = "s123456 s123456 r5 b4c3 r6 e3d3 r5 c3d2";
    let at_capture = e.side_terms(&after(moves), 0);
    let later = e.side_terms(&after(&format!("{moves} r1 e1e2")), 0);
    assert!(
        (at_capture.capture_penalty - 0.5).abs() < 1e-9,
        "{at_capture:?}"
    );
    assert!((later.capture_penalty - 0.5).abs() < 1e-9, "{later:?}");
}

#[test]
fn seed001_static_defence_only_with_two_stones_or_fewer() {
    let e = Seed001::default();
    // Red has two stones; Blue's 1 on d3 can take Red's 2 on c3 (left).
    let g = state("1..../...../..2a./...../....b r - -");
    let t = e.side_terms(&g, 0);
    assert!(t.exposure > 0.0, "{t:?}");
    // Three Red stones: the rule does not apply.
    let g = state("1..../3..../..2a./...../....b r - -");
    assert_eq!(e.side_terms(&g, 0).exposure, 0.0);
}

#[test]
fn odds_is_a_probability_and_prefers_the_nearer_racer() {
    let odds = Odds::default();
    for text in MIDDLE_GAMES {
        let p = odds.probability(state(text).board());
        assert!((0.0..=1.0).contains(&p), "{text}: {p}");
    }
    // Red's 3 is one step from e1 and moves on faces 2 to 6 (its 2 is
    // gone, and a racer gives the shared face 2 to the stone nearer the
    // corner); Blue's stones are four steps from a5.
    let near = state("1..../...../...../...3./a...f r - -");
    let p = odds.probability(near.board());
    assert!(p > 0.95, "{p}");
    // The same with only face 3 for that stone: less sure.
    let narrow = state("1.24./...../...../...3./a...f r - -");
    let q = odds.probability(narrow.board());
    assert!(q < p - 0.2, "{q} against {p}");
    // After a roll the value is the best step's: 1 with a winning step.
    let rolled = state("1..../...../...../...3./a...f r - - r4");
    assert_eq!(odds.probability(rolled.board()), 1.0);
}

#[test]
fn odds_uses_the_table_with_three_stones_and_can_be_told_not_to() {
    let with = Odds::default();
    let without =
        Odds::from_params(Some("scale = 1000\nhorizon = 48\nendgame_table = false\nthreat_mine = 1\nthreat_theirs = 1\nexact_race = true\n")).unwrap();
    let g = state("1..../...../..a../...../....b r - -");
    let exact = plyd_game_einstein::endgame::win_probability(g.board()).unwrap();
    assert_eq!(with.probability(g.board()), exact);
    assert_eq!(without.probability(g.board()), without.race(g.board()));
    assert_ne!(with.probability(g.board()), without.probability(g.board()));
}

#[test]
fn bad_parameters_name_the_key() {
    let err = Odds::from_params(Some("scale = 1000\nhorizon = 0\nendgame_table = true\nthreat_mine = 1\nthreat_theirs = 1\nexact_race = true\n"))
        .err()
        .unwrap();
    assert!(err.contains("horizon"), "{err}");
    let err = Seed001::from_params(Some(
        &plyd_game_einstein::seed001::DEFAULT_PARAMS.replace("k1 = 0.65", "k1 = \"x\""),
    ))
    .err()
    .unwrap();
    assert!(err.contains("k1"), "{err}");
    let err = Seed001::from_params(Some("k1 = 0.65\n")).err().unwrap();
    assert!(err.contains("missing"), "{err}");
}
