//! The endgame table: the shipped file is what the solver produces, and its
//! entries agree with a plain expectimax over the rules (the `Game` trait:
//! `chance_outcomes`, `generate_moves`, `outcome`), memoised by position
//! text, on positions drawn at random from each part of the table.

use std::collections::HashMap;

use plyd_api::{ChanceSink, Game, MoveSink, Outcome};
use plyd_game_einstein::endgame::{self, win_probability};
use plyd_game_einstein::EinStein;

/// The probability that the side to move at `game` wins, by expectimax.
fn expectimax(game: &mut EinStein, memo: &mut HashMap<String, f64>) -> f64 {
    match game.outcome() {
        Outcome::Win => return 1.0,
        Outcome::Loss => return 0.0,
        Outcome::Draw => return 0.5,
        Outcome::Ongoing => {}
    }
    let key = game.position_text();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut tokens = [0; 8];
    let mut weights = [0; 8];
    let mut sink = ChanceSink::new(&mut tokens, &mut weights);
    game.chance_outcomes(&mut sink);
    let n = sink.len();
    let value = if n > 0 {
        let total: u32 = weights[..n].iter().sum();
        let mut sum = 0.0;
        for i in 0..n {
            game.make_move(tokens[i]);
            // A roll keeps the side: no change of view.
            sum += f64::from(weights[i]) * expectimax(game, memo);
            game.unmake_move(tokens[i]);
        }
        sum / f64::from(total)
    } else {
        let mut buf = [0; 16];
        let mut sink = MoveSink::new(&mut buf);
        game.generate_moves(&mut sink);
        let n = sink.len();
        let mut best: f64 = 0.0;
        for &mv in &buf[..n] {
            game.make_move(mv);
            best = best.max(1.0 - expectimax(game, memo));
            game.unmake_move(mv);
        }
        best
    };
    memo.insert(key, value);
    value
}

/// A random position text with the given stones (`1`..`6` Red, `a`..`f`
/// Blue) on distinct squares, none on its own target corner, `side` to
/// move.
fn random_position(rng: &mut u64, stones: &[char], side: char, roll: Option<u8>) -> String {
    loop {
        let mut cells = ['.'; 25];
        let mut ok = true;
        for &s in stones {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            let sq = (*rng % 25) as usize;
            // Row 0 of the text is rank 5: a5 is text cell 0, e1 cell 24.
            let corner = if s.is_ascii_digit() { 24 } else { 0 };
            if cells[sq] != '.' || sq == corner {
                ok = false;
                break;
            }
            cells[sq] = s;
        }
        if !ok {
            continue;
        }
        let ranks: Vec<String> = cells.chunks(5).map(|r| r.iter().collect()).collect();
        let mut text = format!("{} {side} - -", ranks.join("/"));
        if let Some(r) = roll {
            text.push_str(&format!(" r{r}"));
        }
        return text;
    }
}

/// The game at `text`, if it has not ended there.
fn ongoing_game(text: &str) -> Option<EinStein> {
    let mut game = EinStein::new(0);
    game.set_position(text).unwrap();
    (game.outcome() == Outcome::Ongoing).then_some(game)
}

#[test]
fn shipped_table_is_the_solved_one() {
    let solved = endgame::encode(&endgame::solve_all());
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/endgame.bin")).unwrap();
    assert!(
        solved == shipped,
        "endgame.bin differs from the solver; regenerate it with \
         cargo run --release -p plyd-game-einstein --example build_endgame"
    );
    assert_eq!(endgame::table().len(), endgame::ENTRIES);
}

#[test]
fn table_entries_agree_with_a_plain_expectimax() {
    let mut rng = 0x1234_5678_9abc_def1u64;
    let mut memo = HashMap::new();
    let sets: [&[char]; 6] = [
        &['3', 'c'],
        &['1', '6', 'b'],
        &['2', '3', 'f'],
        &['4', 'a', 'e'],
        &['5', 'b', 'c'],
        &['6', 'a', 'f'],
    ];
    let mut checked = 0;
    for stones in sets {
        for side in ['r', 'b'] {
            for case in 0..12 {
                let roll = (case % 3 == 2).then_some((case % 6 + 1) as u8);
                let text = random_position(&mut rng, stones, side, roll);
                let Some(mut game) = ongoing_game(&text) else {
                    continue;
                };
                let exact = expectimax(&mut game, &mut memo);
                let table = win_probability(game.board()).unwrap();
                assert!(
                    (exact - table).abs() < 2.0 / 65535.0,
                    "{text}: expectimax {exact}, table {table}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
    // Four stones are beyond the table.
    let mut game = EinStein::new(0);
    game.set_position("1...a/...../...../...../2...b r - -")
        .unwrap();
    assert_eq!(win_probability(game.board()), None);
}

#[test]
fn sure_things_are_sure() {
    let mut game = EinStein::new(0);
    // Red's lone stone on d2 reaches e1 whatever the roll.
    game.set_position("..a../...../...../...1./..... r - -")
        .unwrap();
    assert_eq!(win_probability(game.board()), Some(1.0));
    // Blue to roll, Blue's stone far away: Blue cannot stop Red's next step.
    game.set_position("...../...../....a/...1./..... b - -")
        .unwrap();
    assert!(win_probability(game.board()).unwrap() < 0.01);
}

/// Four-stone endings, solved when asked, agree with the plain
/// expectimax; a small budget answers `None` at first and, called again,
/// finishes the same ending with the same value.
#[test]
fn endings_beyond_the_table_are_solved_exactly() {
    use plyd_game_einstein::exact;
    let mut rng = 0x0fed_cba9_8765_4321u64;
    let mut memo = HashMap::new();
    let sets: [&[char]; 4] = [
        &['1', '6', 'a', 'f'],
        &['2', '3', 'b', 'e'],
        &['1', '2', '4', 'c'],
        &['5', 'a', 'd', 'f'],
    ];
    let mut checked = 0;
    for stones in sets {
        for side in ['r', 'b'] {
            for case in 0..2 {
                let roll = (case == 1).then_some(4);
                let text = random_position(&mut rng, stones, side, roll);
                let Some(mut game) = ongoing_game(&text) else {
                    continue;
                };
                let plain = expectimax(&mut game, &mut memo);
                let solved = if roll.is_some() {
                    // After the roll: the best step, each child solved.
                    let mut best: f64 = 0.0;
                    let board = game.board().clone();
                    board.for_each_step(board.roll, &mut |mv| {
                        let mut child = board.clone();
                        child.play(mv);
                        let v = match child.winner() {
                            Some(_) => 1.0,
                            None => {
                                1.0 - exact::win_probability(&child, 4, usize::MAX)
                                    .or_else(|| win_probability(&child))
                                    .unwrap()
                            }
                        };
                        best = best.max(v);
                    });
                    best
                } else {
                    exact::win_probability(game.board(), 4, usize::MAX).unwrap()
                };
                assert!(
                    (plain - solved).abs() < 1e-4,
                    "{text}: expectimax {plain}, solver {solved}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "{checked}");
    // More stones than asked for: no answer.
    let mut game = EinStein::new(0);
    game.set_position("1...a/...../..2../...../...cb r - -")
        .unwrap();
    assert_eq!(exact::win_probability(game.board(), 4, usize::MAX), None);
    // A budget too small for the whole ending: None first, then the
    // same value once later calls have finished it (with a solver of its
    // own, so that nothing is solved yet: the threads' solvers outlive
    // their threads).
    let mut game = EinStein::new(0);
    game.set_position("...../.12../...../..a../...b. r - -")
        .unwrap();
    let ending = exact::Ending::of(game.board()).unwrap();
    let mut solver = exact::Solver::new();
    assert_eq!(solver.solve(&ending, 50), None);
    let mut calls = 1;
    let value = loop {
        calls += 1;
        if let Some(v) = solver.solve(&ending, 50) {
            break v;
        }
    };
    assert!(calls > 2, "{calls}");
    let mut memo = HashMap::new();
    let plain = expectimax(&mut game, &mut memo);
    assert!((plain - value).abs() < 1e-4, "{plain} against {value}");
}

/// Five stones (the default `exact_stones`): the solver's value of random
/// three-against-two and four-against-one positions, before the roll, is
/// the plain expectimax's.
#[test]
fn five_stone_endings_are_solved_exactly() {
    use plyd_game_einstein::exact;
    let mut rng = 0x1357_9bdf_2468_ace0u64;
    let mut memo = HashMap::new();
    let sets: [&[char]; 3] = [
        &['1', '6', '3', 'a', 'f'],
        &['2', 'b', 'c', 'e', 'f'],
        &['1', '2', '5', '6', 'd'],
    ];
    let mut checked = 0;
    for stones in sets {
        for side in ['r', 'b'] {
            let text = random_position(&mut rng, stones, side, None);
            let Some(mut game) = ongoing_game(&text) else {
                continue;
            };
            let plain = expectimax(&mut game, &mut memo);
            let solved = exact::win_probability(game.board(), 5, usize::MAX).unwrap();
            assert!(
                (plain - solved).abs() < 1e-4,
                "{text}: expectimax {plain}, solver {solved}"
            );
            // Four stones asked for: no answer for five.
            assert_eq!(exact::win_probability(game.board(), 4, usize::MAX), None);
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked}");
}
