//! The exact endgame solver through the real binary and the real Othello
//! plugin: published scores of the FFO positions with 14 to 16 empty
//! squares and of FFO 41 (22, searched selectively first), the solver
//! against a plain minimax over the plugin ABI on positions from random
//! games, the options, and `plyd endgame-bench`.
//!
//! The other positions with 20 empty squares and more (FFO 40-59) are the
//! speed benchmark, not a test: `plyd endgame-bench
//! plugins/othello/ffo.txt --from ffo40 --to ffo59`.

use crate::common;

use std::path::Path;

use crate::common::{assert_info_well_formed, errors, Engine};
use plyd::host::{GameState, Outcome, PluginHost};
use plyd::search::solve_bench::{read_positions, SolvePosition};
use plyd::search::{search, SearchControl, SearchLimits, SearchOptions, TranspositionTable};

const FFO: &str = include_str!("../plugins/othello/ffo.txt");

/// The FFO positions of the file with at most `empties` empty squares.
fn ffo_positions(empties: usize) -> Vec<SolvePosition> {
    read_positions(FFO)
        .unwrap()
        .into_iter()
        .filter(|p| p.position.matches('-').count() <= empties)
        .collect()
}

/// The FFO position named `name` (`ffo40`).
fn ffo_position(name: &str) -> SolvePosition {
    read_positions(FFO)
        .unwrap()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{name} is in ffo.txt"))
}

/// The `score cp` value of an `info` line.
fn cp(line: &str) -> Option<i32> {
    let rest = line.split(" score cp ").nth(1)?;
    rest.split(' ').next()?.parse().ok()
}

/// The solver answered `lines`: its `exact` line, and the score
/// `expected` (in discs) on an `info` line; `what` names the case.
fn assert_solved(lines: &[String], expected: i32, what: &str) {
    assert!(
        lines.contains(&"info string exact".to_string()),
        "{what}: {lines:?}"
    );
    assert!(
        lines.iter().any(|l| cp(l) == Some(100 * expected)),
        "{what}: {lines:?}"
    );
}

/// The first move of an `info` line's `pv`.
fn first_move(line: &str) -> &str {
    let pv = line.split(" pv ").nth(1).expect("a pv");
    pv.split(' ').next().unwrap()
}

/// Search `go` in `position` and return the lines up to `bestmove`.
fn go(engine: &mut Engine, position: &str, go: &str) -> Vec<String> {
    engine.send(&format!("position fen {position}"));
    engine.send(go);
    engine.until_bestmove()
}

#[test]
fn go_depth_at_the_empty_squares_solves_the_ffo_positions_exactly() {
    let (mut engine, _dir) = Engine::othello();
    let positions = ffo_positions(16);
    assert_eq!(positions.len(), 19, "FFO 1-19 have 14 to 16 empty squares");
    // Below the automatic threshold's default (18) and at or past the empty
    // squares: the solver answers either way.
    engine.send("setoption name EndgameEmpties value 0");
    for (i, p) in positions.iter().enumerate() {
        let empties = p.position.matches('-').count();
        let depth = empties + i % 3;
        let lines = go(&mut engine, &p.position, &format!("go depth {depth}"));
        assert!(errors(&lines).is_empty(), "{lines:?}");
        let scored: Vec<&String> = lines.iter().filter(|l| cp(l).is_some()).collect();
        // The root's move, then the whole perfect line (an analysis).
        assert_eq!(scored.len(), 2, "{}: {lines:?}", p.name);
        for line in &scored {
            assert_info_well_formed(line);
            assert_eq!(cp(line), Some(100 * p.expected), "{}", p.name);
            assert!(
                line.starts_with(&format!("info depth {empties} ")),
                "{line}"
            );
        }
        assert_eq!(first_move(scored[0]), first_move(scored[1]));
        assert!(
            lines.contains(&"info string exact".to_string()),
            "{lines:?}"
        );
        // The line played out ends the game with the solve's score.
        let pv = scored[1].split(" pv ").nth(1).unwrap();
        engine.send(&format!("position fen {} moves {pv}", p.position));
        let end = engine.fen();
        let root_black = p.position.ends_with('X');
        let end_black = end.ends_with(" b");
        let score = final_score_of(&end) * if root_black == end_black { 1 } else { -1 };
        assert_eq!(score, p.expected, "{}: {pv} ends at {end}", p.name);
    }
}

#[test]
fn the_threshold_option_decides_when_shallow_searches_solve() {
    let (mut engine, _dir) = Engine::othello();
    let p = &ffo_positions(14)[0];
    // Default threshold 18: a depth-2 search of 14 empty squares solves.
    let lines = go(&mut engine, &p.position, "go depth 2");
    assert_solved(&lines, p.expected, "depth 2");
    // Threshold 10: the evaluation search answers, depth by depth.
    engine.send("setoption name EndgameEmpties value 10");
    let lines = go(&mut engine, &p.position, "go depth 2");
    assert!(!lines.iter().any(|l| l.contains("exact")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 2 ")));
    // Back at 14: solved again.
    engine.send("setoption name EndgameEmpties value 14");
    let lines = go(&mut engine, &p.position, "go depth 1");
    assert!(
        lines.contains(&"info string exact".to_string()),
        "{lines:?}"
    );
    // The engine's EndgameSolver off: the evaluation search, whatever the
    // game's settings say.
    engine.send("setoption name EndgameSolver value false");
    let lines = go(&mut engine, &p.position, "go depth 1");
    assert!(!lines.iter().any(|l| l.contains("exact")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ")));
}

#[test]
fn an_automatic_solve_waits_for_a_move_with_time_for_it() {
    let (mut engine, _dir) = Engine::othello();
    let p = &ffo_positions(14)[0];
    // The evaluation search answered: nothing of the solver's.
    let searched = |lines: &[String]| {
        !lines
            .iter()
            .any(|l| l.contains("exact") || l.starts_with("info string endgame solve"))
    };
    // The solver answered, with the published score.
    let solved = |lines: &[String]| {
        lines.contains(&"info string exact".to_string())
            && lines.iter().any(|l| cp(l) == Some(100 * p.expected))
    };
    // 5 ms a move is too little for 14 empty squares: the evaluation search
    // answers, so a solve cut short never picks the move. (Whether a
    // depth of it ends within 5 ms depends on the machine's load, so only
    // the solver's silence is checked.)
    let lines = go(&mut engine, &p.position, "go movetime 5");
    assert!(searched(&lines), "{lines:?}");
    // With two seconds the solver answers (and ends long before).
    let lines = go(&mut engine, &p.position, "go movetime 2000");
    assert!(solved(&lines), "{lines:?}");
    // `go depth` at the empty squares asks for the solver too, on the same
    // terms: with 5 ms a move the evaluation search answers, and without a
    // time limit the solver does.
    let lines = go(&mut engine, &p.position, "go depth 14 movetime 5");
    assert!(searched(&lines), "{lines:?}");
    let lines = go(&mut engine, &p.position, "go depth 14");
    assert!(solved(&lines), "{lines:?}");
    // A node limit likewise: 20,000 nodes are too few for the solve of 14
    // empty squares (about 45,000), 400,000 are enough.
    let lines = go(&mut engine, &p.position, "go nodes 20000");
    assert!(searched(&lines), "{lines:?}");
    let lines = go(&mut engine, &p.position, "go nodes 400000");
    assert!(solved(&lines), "{lines:?}");
}

#[test]
fn twenty_empty_squares_are_solved_in_a_timed_search_not_in_a_depth_bounded_one() {
    // FFO 40: 20 empty squares, Black wins by 38 (a2). Under the default
    // threshold (24), a search bounded by depth and not by time leaves it
    // to the evaluation search (a solve of 20 empty squares is no answer
    // to `go depth 3`), and a timed one with room for the solve hands it
    // to the solver.
    let p = ffo_position("ffo40");
    assert_eq!(p.position.matches('-').count(), 20);
    let (mut engine, _dir) = Engine::othello();
    let lines = go(&mut engine, &p.position, "go depth 3");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("exact")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    // A depth bound holds under a clock too (NBoard's `set depth` is sent
    // as a level, and the game's clock comes with every `go`).
    let lines = go(
        &mut engine,
        &p.position,
        "go depth 3 wtime 900000 btime 900000",
    );
    assert!(!lines.iter().any(|l| l.contains("exact")), "{lines:?}");
    let lines = go(&mut engine, &p.position, "go movetime 10000");
    assert_solved(&lines, p.expected, "movetime 10000");
    // With the threshold at 18 the timed search is the evaluation's again.
    engine.send("setoption name EndgameEmpties value 18");
    let lines = go(&mut engine, &p.position, "go movetime 200");
    assert!(!lines.iter().any(|l| l.contains("exact")), "{lines:?}");
}

#[test]
fn a_depth_past_the_end_of_a_long_game_is_an_analysis_not_a_solve() {
    // `go depth 100` from the start reaches the end of the game, but a
    // solve of 60 empty squares would never end nor say anything: the
    // evaluation search deepens and reports its scores as it goes.
    let (mut engine, _dir) = Engine::othello();
    engine.send("position startpos");
    engine.send("go depth 100");
    let mut lines =
        engine.read_until(|l| l.starts_with("info depth 4 ") || l.starts_with("bestmove"));
    engine.send("stop");
    lines.extend(engine.until_bestmove());
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("endgame solve") || l.contains("exact")),
        "{lines:?}"
    );
    let scored: Vec<&String> = lines.iter().filter(|l| cp(l).is_some()).collect();
    assert!(scored.len() >= 4, "{lines:?}");
    assert!(
        scored.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
    // At 20 empty squares the same depth is a solve, and it ends.
    let p = ffo_position("ffo40");
    let lines = go(&mut engine, &p.position, "go depth 100");
    assert_solved(&lines, p.expected, "ffo40 at depth 100");
}

#[test]
fn selective_passes_through_the_host_s_table_leave_the_score_exact() {
    // FFO 41 has 22 empty squares and an estimate near a draw (FFO 40,
    // estimated 32 discs up, is solved without the passes): the solver
    // searches it selectively twice before the exact search, its selective
    // bounds marked as such in the host's shared table, which one and two
    // threads then read.
    let p = ffo_position("ffo41");
    let (mut engine, _dir) = Engine::othello();
    for threads in [1, 2] {
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send("ucinewgame");
        let lines = go(&mut engine, &p.position, "go depth 60");
        assert!(errors(&lines).is_empty(), "{lines:?}");
        assert_solved(&lines, p.expected, &format!("{threads} threads"));
    }
}

/// The win-loss-draw solve's line names `p`'s verdict.
fn assert_verdict(lines: &[String], p: &SolvePosition) {
    let verdict = match p.expected.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    };
    assert!(
        lines.contains(&format!("info string exact wld {verdict}")),
        "{}: {lines:?}",
        p.name
    );
}

#[test]
fn win_loss_draw_mode_reports_the_sign_and_two_threads_agree() {
    let (mut engine, _dir) = Engine::othello();
    engine.send("setoption name EndgameMode value wld");
    for p in ffo_positions(15).iter().take(8) {
        engine.send("ucinewgame");
        let lines = go(&mut engine, &p.position, "go depth 60");
        assert_verdict(&lines, p);
        assert!(lines
            .iter()
            .any(|l| cp(l) == Some(100 * p.expected.signum())));
    }
    // Several lines: the verdict of the first, the move played.
    engine.send("setoption name MultiPV value 3");
    for p in ffo_positions(14).iter().take(3) {
        engine.send("ucinewgame");
        let lines = go(&mut engine, &p.position, "go depth 60");
        assert_verdict(&lines, p);
    }
    engine.send("setoption name MultiPV value 1");
    engine.send("setoption name EndgameMode value exact");
    engine.send("setoption name Threads value 2");
    for p in ffo_positions(16).iter().rev().take(4) {
        engine.send("ucinewgame");
        let lines = go(&mut engine, &p.position, "go depth 60");
        assert!(
            lines.iter().any(|l| cp(l) == Some(100 * p.expected)),
            "{}: {lines:?}",
            p.name
        );
    }
}

#[test]
fn bad_option_values_get_one_error_line_and_change_nothing() {
    let (mut engine, _dir) = Engine::othello();
    for bad in [
        "setoption name EndgameEmpties value 61",
        "setoption name EndgameEmpties value -1",
        "setoption name EndgameEmpties value many",
        "setoption name EndgameMode value exactly",
    ] {
        engine.send(bad);
        let lines = engine.sync();
        assert_eq!(errors(&lines).len(), 1, "{bad}: {lines:?}");
        assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    }
    // The defaults still hold: exact scores, solved from 24 empty squares
    // (18 for a search bounded by depth, as this one).
    let p = &ffo_positions(16)[0];
    let lines = go(&mut engine, &p.position, "go depth 1");
    assert_solved(&lines, p.expected, "the defaults");
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name EndgameEmpties type spin default 24 min 0 max 60".to_string())
    );
    assert!(lines.contains(
        &"option name EndgameMode type combo default exact var exact var wld".to_string()
    ));
}

/// The Othello plugin of a fresh install, its variant and its built-in
/// evaluator (the folder kept alive with them).
fn othello() -> (
    common::TempDir,
    plyd::host::VariantRef,
    plyd::host::Evaluator,
) {
    let dir = common::othello_dir();
    let report = PluginHost::scan(&[dir.path().to_path_buf()]);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let variant = report.host.find_variant("othello").unwrap();
    let evaluator = plyd::host::Evaluator::new(
        &variant.plugin,
        plyd::host::EvaluatorSource::BuiltIn {
            game: variant.plugin.clone(),
            index: 0,
        },
        None,
    )
    .unwrap();
    (dir, variant, evaluator)
}

/// Play random moves from the start until at most `empties` squares are
/// empty or the game is over; the position's legal moves are left in
/// `moves`.
fn play_until(
    state: &mut GameState,
    empties: usize,
    moves: &mut Vec<plyd_api::Move>,
    mut next: impl FnMut() -> u64,
) {
    loop {
        state.legal_moves(moves).unwrap();
        let empty = 64 - state.position_text().unwrap().matches(['X', 'O']).count();
        if empty <= empties || moves.is_empty() {
            return;
        }
        let mv = moves[next() as usize % moves.len()];
        state.make_move(mv).unwrap();
    }
}

/// Final disc difference for the side to move in a finished game, the
/// empty squares going to the winner, read from the position text.
fn final_score(state: &GameState) -> i32 {
    final_score_of(&state.position_text().unwrap())
}

/// [`final_score`] of the position text `text`.
fn final_score_of(text: &str) -> i32 {
    let (board, side) = text.split_once(' ').unwrap();
    let (mut black, mut white, mut empty) = (0, 0, 0);
    for c in board.chars() {
        match c {
            'X' => black += 1,
            'O' => white += 1,
            '1'..='8' => empty += c as i32 - '0' as i32,
            _ => {}
        }
    }
    let diff: i32 = if side == "b" {
        black - white
    } else {
        white - black
    };
    match diff.signum() {
        1 => diff + empty,
        -1 => diff - empty,
        _ => 0,
    }
}

/// Plain minimax to the end of the game over the plugin ABI: no pruning,
/// no table, the plugin's own move list and outcome.
fn minimax(state: &mut GameState) -> i32 {
    if state.outcome().unwrap() != Outcome::Ongoing {
        return final_score(state);
    }
    common::best_over_moves(state, minimax)
}

#[test]
fn the_solver_through_the_abi_equals_plain_minimax_on_random_games() {
    let (_dir, variant, evaluator) = othello();
    let tt = TranspositionTable::new(4).unwrap();
    let mut seed = 0x1234_5678u64;
    let mut moves = Vec::new();
    for game in 0..30 {
        let mut state = GameState::new(&variant.plugin, variant.index).unwrap();
        // Play at random until 6 to 9 squares are empty (or the game ends).
        let empties_left = 6 + game % 4;
        play_until(&mut state, empties_left, &mut moves, || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        });
        if moves.is_empty() {
            continue;
        }
        let text = state.position_text().unwrap();
        let mut reference = GameState::new(&variant.plugin, variant.index).unwrap();
        reference.set_position(&text).unwrap();
        let expected = minimax(&mut reference);
        for threads in [1, 2] {
            let limits = SearchLimits {
                depth: Some(60),
                ..SearchLimits::default()
            };
            let options = SearchOptions {
                threads,
                ..SearchOptions::default()
            };
            let mut solved = GameState::new(&variant.plugin, variant.index).unwrap();
            solved.set_position(&text).unwrap();
            let result = search(
                solved,
                &evaluator,
                &tt,
                &limits,
                &SearchControl::new(false),
                &options,
                &mut |_| {},
            )
            .unwrap();
            assert_eq!(result.score, 100 * expected, "{text}, {threads} thread(s)");
            // The best move reaches that score.
            let best = result.best.expect("a move");
            let root_side = reference.side_to_move().unwrap();
            reference.make_move(best).unwrap();
            let side_changed = reference.side_to_move().unwrap() != root_side;
            let after = minimax(&mut reference);
            reference.unmake_move(best).unwrap();
            assert_eq!(
                if side_changed { -after } else { after },
                expected,
                "{text}"
            );
        }
    }
}

#[test]
fn several_lines_through_uci_are_exact_weighed_against_the_time_and_stop() {
    let (mut engine, _dir) = Engine::othello();
    let p = ffo_position("ffo1");
    engine.send("setoption name MultiPV value 3");
    // Three lines, numbered, solved to the end; the first the published
    // score, the others no better.
    let lines = go(&mut engine, &p.position, "go depth 60");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let scored: Vec<&String> = lines.iter().filter(|l| cp(l).is_some()).collect();
    assert_eq!(scored.len(), 3, "{lines:?}");
    for (k, line) in scored.iter().enumerate() {
        assert_info_well_formed(line);
        assert!(
            line.starts_with(&format!("info depth 14 seldepth 14 multipv {} ", k + 1)),
            "{line}"
        );
    }
    assert_eq!(cp(scored[0]), Some(100 * p.expected), "{lines:?}");
    assert!(
        cp(scored[1]) <= cp(scored[0]) && cp(scored[2]) <= cp(scored[1]),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"info string exact".to_string()),
        "{lines:?}"
    );
    // Each line whole (an analysis): played out, each ends the game; the
    // first line's reply is the move to ponder on.
    let best = first_move(scored[0]);
    let first_pv: Vec<&str> = scored[0].split(" pv ").nth(1).unwrap().split(' ').collect();
    assert!(first_pv.len() > 2, "{lines:?}");
    assert_eq!(
        lines.last().unwrap(),
        &format!("bestmove {best} ponder {}", first_pv[1])
    );
    for line in &scored {
        let pv = line.split(" pv ").nth(1).unwrap();
        engine.send(&format!("position fen {} moves {pv}", p.position));
        engine.send("go depth 1");
        let after = engine.until_bestmove();
        assert_eq!(
            after.last().unwrap(),
            "bestmove (none)",
            "{line}: {after:?}"
        );
    }
    // One move alone (`searchmoves`): its line only, the score the one
    // the three lines gave it.
    let second = first_move(scored[1]);
    engine.send("setoption name MultiPV value 1");
    let alone = go(
        &mut engine,
        &p.position,
        &format!("go depth 60 searchmoves {second}"),
    );
    let scored_alone: Vec<&String> = alone.iter().filter(|l| cp(l).is_some()).collect();
    assert_eq!(scored_alone.len(), 1, "{alone:?}");
    assert!(
        scored_alone[0].contains(&format!(" pv {second}")),
        "{alone:?}"
    );
    assert!(!scored_alone[0].contains(" multipv "), "{alone:?}");
    assert_eq!(cp(scored_alone[0]), cp(scored[1]), "{alone:?}");
    // Its line whole, to the game's end; its move to ponder on the reply
    // its line shows.
    let pv: Vec<&str> = scored_alone[0]
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    assert!(pv.len() > 2, "{alone:?}");
    assert_eq!(
        alone.last().unwrap(),
        &format!("bestmove {second} ponder {}", pv[1])
    );
    // A move planned too short for a solve of each move: the evaluation
    // search answers (its lines numbered, none exact).
    engine.send("setoption name MultiPV value 3");
    let quick = go(&mut engine, &p.position, "go movetime 20");
    assert!(!quick.iter().any(|l| l.contains("exact")), "{quick:?}");
    assert!(quick.iter().any(|l| l.contains(" multipv 3 ")), "{quick:?}");
    // Stopped in the root's solve of 24 empty squares: the best move so
    // far, said to be no more than that.
    let big = ffo_position("ffo45");
    engine.send(&format!("position fen {}", big.position));
    engine.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(300));
    engine.send("stop");
    let stopped = engine.until_bestmove();
    assert!(
        stopped.contains(
            &"info string endgame solve stopped before it ended: the move is the best found so far"
                .to_string()
        ),
        "{stopped:?}"
    );
    let played = stopped.last().unwrap().strip_prefix("bestmove ").unwrap();
    let (_dir, variant, _) = othello();
    let mut state = GameState::new(&variant.plugin, variant.index).unwrap();
    state.set_position(&big.position).unwrap();
    let mut legal = Vec::new();
    state.legal_moves(&mut legal).unwrap();
    let played = state.parse_move(played).unwrap();
    assert!(legal.contains(&played), "{stopped:?}");
}

/// Each move's value by plain minimax, for the side to move at `state`.
fn move_values(state: &mut GameState) -> Vec<(String, i32)> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves).unwrap();
    let side = state.side_to_move().unwrap();
    let mut values = Vec::new();
    for mv in moves {
        let text = state.format_move(mv).unwrap();
        state.make_move(mv).unwrap();
        let value = minimax(state);
        let same = state.side_to_move().unwrap() == side;
        state.unmake_move(mv).unwrap();
        values.push((text, if same { value } else { -value }));
    }
    values
}

#[test]
fn several_lines_are_solved_exactly_each_move_as_plain_minimax_scores_it() {
    let (_dir, variant, evaluator) = othello();
    let tt = TranspositionTable::new(4).unwrap();
    let mut rng = plyd_util::rng::SplitMix64::new(0x5eed_1e55);
    let mut moves = Vec::new();
    let mut checked = 0;
    for game in 0..24 {
        let mut state = GameState::new(&variant.plugin, variant.index).unwrap();
        // Play at random until 6 to 8 squares are empty.
        let empties_left = 6 + game % 3;
        play_until(&mut state, empties_left, &mut moves, || rng.next_u64());
        if state.outcome().unwrap() != Outcome::Ongoing {
            continue;
        }
        let text = state.position_text().unwrap();
        let mut values = move_values(&mut state);
        values.sort_by_key(|(_, value)| std::cmp::Reverse(*value));
        // All lines, three, one, and one of the moves alone; on one and
        // two threads.
        let some = values[values.len() / 2].0.clone();
        let cases: [(usize, Vec<String>); 4] = [
            (64, vec![]),
            (3, vec![]),
            (1, vec![some.clone()]),
            (2, vec![some.clone(), values[0].0.clone()]),
        ];
        for (multipv, searched) in cases {
            for threads in [1, 2] {
                let limits = SearchLimits {
                    depth: Some(60),
                    search_moves: searched
                        .iter()
                        .map(|m| state.parse_move(m).unwrap())
                        .collect(),
                    ..SearchLimits::default()
                };
                let options = SearchOptions {
                    threads,
                    multipv,
                    ..SearchOptions::default()
                };
                let mut root = GameState::new(&variant.plugin, variant.index).unwrap();
                root.set_position(&text).unwrap();
                let mut infos = Vec::new();
                let mut answer = None;
                let result = search(
                    root,
                    &evaluator,
                    &tt,
                    &limits,
                    &SearchControl::new(false),
                    &options,
                    &mut |event| match event {
                        plyd::search::SearchEvent::Info(info) => infos.push(info),
                        plyd::search::SearchEvent::BestMove { best, ponder } => {
                            answer = Some((best, ponder))
                        }
                    },
                )
                .unwrap();
                let what = format!(
                    "{text}, MultiPV {multipv}, searchmoves {searched:?}, {threads} thread(s)"
                );
                assert!(
                    infos.iter().any(|i| i.string.as_deref() == Some("exact")),
                    "{what}: {infos:?}"
                );
                let lines: Vec<_> = infos.iter().filter(|i| i.score.is_some()).collect();
                let wanted: Vec<&(String, i32)> = values
                    .iter()
                    .filter(|(mv, _)| searched.is_empty() || searched.contains(mv))
                    .collect();
                assert_eq!(lines.len(), multipv.min(wanted.len()), "{what}: {infos:?}");
                for (k, line) in lines.iter().enumerate() {
                    let numbered = (multipv > 1).then_some(k as u32 + 1);
                    assert_eq!(line.multipv, numbered, "{what}");
                    assert_eq!(line.depth, Some(empties(&text)), "{what}");
                    let value = values.iter().find(|(mv, _)| *mv == line.pv[0]).unwrap().1;
                    // The line's move is scored as minimax scores it, and
                    // the k-th line has the k-th best score.
                    let Some((plyd_protocol::Score::Cp(cp), None)) = line.score else {
                        panic!("{what}: {line:?}");
                    };
                    assert_eq!(cp, 100 * value, "{what}: {line:?}");
                    assert_eq!(value, wanted[k].1, "{what}: {infos:?}");
                }
                assert_eq!(result.score, 100 * wanted[0].1, "{what}");
                let best = state.format_move(result.best.unwrap()).unwrap();
                assert_eq!(best, lines[0].pv[0], "{what}");
                // `bestmove` is the first line's move, and its move to
                // ponder on the line's reply, where it shows one.
                let (answered, ponder) = answer.expect("a bestmove");
                assert_eq!(answered.as_deref(), Some(best.as_str()), "{what}");
                assert_eq!(ponder.as_ref(), lines[0].pv.get(1), "{what}: {infos:?}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "{checked} searches checked");
}

/// A table that keeps nothing and never stops a solve.
struct NoTable;

impl plyd::host::SolveTable for NoTable {
    fn probe(&mut self, _key: u64) -> Option<plyd_api::abi::SolveEntry> {
        None
    }
    fn store(&mut self, _key: u64, _entry: &plyd_api::abi::SolveEntry) {}
    fn poll(&mut self, _nodes: u64) -> bool {
        false
    }
}

#[test]
fn a_solve_in_a_window_bounds_the_score_as_plain_minimax_says() {
    let (_dir, variant, _) = othello();
    let mut rng = plyd_util::rng::SplitMix64::new(0x3141_5926);
    let mut moves = Vec::new();
    let (mut below, mut above, mut exact) = (0, 0, 0);
    for game in 0..40 {
        let mut state = GameState::new(&variant.plugin, variant.index).unwrap();
        assert!(state.solves_in_window());
        let empties_left = 5 + game % 5;
        play_until(&mut state, empties_left, &mut moves, || rng.next_u64());
        let text = state.position_text().unwrap();
        let value = minimax(&mut state);
        for (alpha, beta) in [
            (value - 1, value),
            (value, value + 1),
            (value - 3, value - 1),
            (value + 1, value + 3),
            (value - 2, value + 2),
            (-64, 64),
        ] {
            let solved = state
                .solve(0, &mut NoTable, Some((alpha, beta)))
                .unwrap()
                .expect("solved");
            assert!(solved.complete && !solved.win_loss_draw, "{text}");
            let score = solved.score;
            let what = format!("{text}: value {value}, window ({alpha}, {beta}), score {score}");
            if value <= alpha {
                assert!(score <= alpha && score >= value, "{what}");
                below += 1;
            } else if value >= beta {
                assert!(score >= beta && score <= value, "{what}");
                above += 1;
            } else {
                assert_eq!(score, value, "{what}");
                exact += 1;
            }
        }
        // The state is left as it was.
        assert_eq!(state.position_text().unwrap(), text);
    }
    assert!(
        below > 30 && above > 30 && exact > 30,
        "{below} {above} {exact}"
    );
}

/// The empty squares of an Othello position text.
fn empties(text: &str) -> u32 {
    text.split(' ')
        .next()
        .unwrap()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .sum()
}

#[test]
fn endgame_bench_solves_a_file_and_checks_its_scores() {
    let dir = common::othello_dir();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/othello/ffo.txt");
    let run = |args: &[&str]| {
        common::plyd_command(dir.path())
            .arg("endgame-bench")
            .arg(&file)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--from", "ffo1", "--to", "ffo7", "--threads", "2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert_eq!(stdout.matches(" ok ").count(), 7, "{stdout}");
    assert!(stdout.contains("total positions 7 wrong 0 "), "{stdout}");
    // The daemon's ranges hold: no threads, no table, are refused.
    for (flag, said) in [
        ("--threads", "--threads 0 is outside 1..=256"),
        ("--hash", "--hash 0 is outside 1..=65536"),
    ] {
        let out = run(&["--from", "ffo1", "--to", "ffo1", flag, "0"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(said));
        assert!(out.stdout.is_empty());
    }
    // A file whose score is wrong fails, naming the position.
    let wrong = std::env::temp_dir().join(format!("plyd-wrong-{}.txt", std::process::id()));
    let first = ffo_positions(14).remove(0);
    std::fs::write(
        &wrong,
        format!("mine {} {:+}\n", first.position, first.expected + 2),
    )
    .unwrap();
    let out = common::plyd_command(dir.path())
        .arg("endgame-bench")
        .arg(&wrong)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&wrong);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("mine") && stdout.contains("WRONG"),
        "{stdout}"
    );
    // An unknown name is one error.
    let out = run(&["--from", "ffo99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no position named 'ffo99'"));
}
