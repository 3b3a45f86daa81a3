//! NBoard end to end: the real `plyd` binary driven as the NBoard Othello
//! GUI drives an engine under the protocol's version 2 text — `nboard 2`,
//! `set depth`, `set game` with a GGF record, `ping`/`pong` before every
//! change, `go` answered by `=== move/eval/time` without changing the
//! board, `move`, `hint n` answered by `search` lines — through a whole
//! game, and its refusals on the status line.

use crate::common::{self, othello_dir, Engine, TempDir};

const EMPTY_GAME: &str = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[5:00]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *];)";

/// The GGF of the example in the protocol's text: eight moves from the start.
const EIGHT_MOVES: &str = "(;GM[Othello]PC[NBoard]PB[x]PW[y]RE[?]TI[15:00]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *]\
B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

struct Gui {
    engine: Engine,
    _dir: TempDir,
    ping: u32,
}

impl Gui {
    fn start() -> Gui {
        let dir = othello_dir();
        let mut engine = Engine::start(dir.path(), &[], &[]);
        engine.send("nboard 2");
        let name = engine.read_until(|l| l.starts_with("set myname"));
        assert!(name.last().unwrap().starts_with("set myname plyd"));
        Gui {
            engine,
            _dir: dir,
            ping: 0,
        }
    }

    /// `ping n` and every line before `pong n`.
    fn sync(&mut self) -> Vec<String> {
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.engine.send(&format!("ping {}", self.ping));
        let mut lines = self.engine.read_until(|l| l == pong);
        lines.pop();
        lines
    }

    /// `set game <GGF>`, which must be taken without a status error.
    fn set_game(&mut self, game: &str) {
        self.engine.send(&format!("set game {game}"));
        assert!(status_errors(&self.sync()).is_empty(), "{game}");
    }

    /// `go`, whose `===` answer must carry the move, its eval and its
    /// time: every line up to it.
    fn scored_go(&mut self) -> Vec<String> {
        self.engine.send("go");
        let lines = self.engine.read_until(|l| l.starts_with("=== "));
        let answer: Vec<&str> = lines.last().unwrap()["=== ".len()..].split('/').collect();
        assert_eq!(answer.len(), 3, "{lines:?}");
        assert!(
            is_nboard_move(answer[0]) && answer[1].parse::<f64>().is_ok(),
            "{lines:?}"
        );
        lines
    }

    /// `go`, and the move of the `===` answer (its eval and time dropped).
    fn go(&mut self) -> String {
        self.engine.send("go");
        let lines = self.engine.read_until(|l| l.starts_with("=== "));
        let answer = lines.last().unwrap()["=== ".len()..].to_string();
        // The time always; the eval where the search has a score (a
        // solve cut short by the clock has none: `=== C1//3.36`).
        let parts: Vec<&str> = answer.split('/').collect();
        assert_eq!(parts.len(), 3, "{answer}");
        assert!(
            parts[1].is_empty() || parts[1].parse::<f64>().is_ok(),
            "{answer}"
        );
        assert!(parts[2].parse::<f64>().is_ok(), "{answer}");
        parts[0].to_string()
    }
}

fn is_nboard_move(text: &str) -> bool {
    let b = text.as_bytes();
    text == "PA" || (b.len() == 2 && (b'A'..=b'H').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]))
}

fn status_errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("status error:"))
        .collect()
}

#[test]
fn a_whole_game_is_played_move_by_move() {
    let mut gui = Gui::start();
    gui.engine.send("set depth 2");
    gui.set_game(EMPTY_GAME);
    let mut squares = 0;
    let mut ended = false;
    for _ in 0..130 {
        gui.engine.send("go");
        let lines = gui
            .engine
            .read_until(|l| l.starts_with("=== ") || l.starts_with("status error"));
        let last = lines.last().unwrap();
        if let Some(why) = last.strip_prefix("status error: ") {
            // The end: no move to play, and nothing else wrong before.
            assert_eq!(why, "the game is over: there is no move to play");
            ended = true;
            break;
        }
        let mv = last["=== ".len()..].split('/').next().unwrap().to_string();
        assert!(is_nboard_move(&mv), "{mv}");
        if mv != "PA" {
            squares += 1;
        }
        // The engine's move is played only when the GUI sends it back.
        gui.sync();
        gui.engine.send(&format!("move {mv}/0.00/0.0"));
        let lines = gui.sync();
        assert!(status_errors(&lines).is_empty(), "{mv}: {lines:?}");
    }
    assert!(ended, "the game did not end");
    assert!(squares >= 9, "{squares} discs played");
}

#[test]
fn go_leaves_the_board_and_hint_gives_several_lines() {
    let mut gui = Gui::start();
    gui.engine.send("set depth 4");
    gui.engine.send(&format!("set game {EIGHT_MOVES}"));
    gui.sync();
    let first = gui.go();
    // The board did not change: the square the engine chose is still free.
    gui.sync();
    gui.engine.send(&format!("move {first}"));
    assert!(status_errors(&gui.sync()).is_empty());
    gui.engine.send(&format!("set game {EIGHT_MOVES}"));
    gui.sync();
    gui.engine.send("hint 3");
    let lines = gui.engine.read_until(|l| l == "status");
    let deepest: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("search ") && l.split_whitespace().nth(4) == Some("4"))
        .collect();
    assert_eq!(deepest.len(), 3, "{lines:?}");
    let mut firsts: Vec<&str> = deepest
        .iter()
        .map(|l| &l.split_whitespace().nth(1).unwrap()[..2])
        .collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    for line in &deepest {
        let eval = line.split_whitespace().nth(2).unwrap();
        assert!(eval.parse::<f64>().is_ok(), "{line}");
        assert_eq!(line.split_whitespace().nth(3), Some("0"), "{line}");
    }
}

#[test]
fn ping_stops_a_search_and_its_answer_is_dropped() {
    let mut gui = Gui::start();
    gui.engine.send("set depth 60");
    gui.engine.send(&format!("set game {EMPTY_GAME}"));
    gui.sync();
    gui.engine.send("go");
    let lines = gui.sync();
    assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
    gui.engine.send("set depth 1");
    gui.sync();
    assert!(is_nboard_move(&gui.go()));
}

#[test]
fn bad_lines_are_one_status_error_and_change_nothing() {
    let mut gui = Gui::start();
    gui.engine.send("set depth 2");
    gui.engine.send(&format!("set game {EMPTY_GAME}"));
    gui.sync();
    for line in [
        "fly",
        "move Z9",
        "move A1",
        "set depth many",
        "move",
        "hint 0",
        "move F5/abc/1",
    ] {
        gui.engine.send(line);
        let lines = gui.sync();
        assert_eq!(status_errors(&lines).len(), 1, "{line}: {lines:?}");
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
    }
    // Still the start: Black's F5 is legal, and White's reply after it.
    gui.engine.send("move F5");
    gui.engine.send("move D6");
    assert!(status_errors(&gui.sync()).is_empty());
}

#[test]
fn a_refused_game_leaves_no_board_to_answer_for() {
    let mut gui = Gui::start();
    gui.engine.send("set depth 2");
    gui.engine.send(&format!("set game {EIGHT_MOVES}"));
    gui.sync();
    for game in [
        "(;GM[Othello]BO[8 --- *];)",
        "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
        "(;GM[Othello]TI[soon]BO[8 ---------------------------O*------*O--------------------------- *];)",
        // Another game, or another board size: not played as Othello.
        "(;GM[Chess]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "(;GM[Othello]TY[10]BO[8 ---------------------------O*------*O--------------------------- *];)",
    ] {
        gui.engine.send(&format!("set game {game}"));
        let lines = gui.sync();
        assert_eq!(status_errors(&lines).len(), 1, "{game}: {lines:?}");
        // Neither a move for the game before nor a pass: the error alone.
        gui.engine.send("go");
        let lines = gui.sync();
        assert_eq!(status_errors(&lines).len(), 1, "{game}: {lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
        gui.engine.send("move F5");
        assert_eq!(status_errors(&gui.sync()).len(), 1, "{game}");
    }
    gui.set_game(EMPTY_GAME);
    assert!(is_nboard_move(&gui.go()));
}

/// Fourteen empty squares, Black to move (h1, g2, b7 or f8): inside the
/// endgame solver's range.
const ENDGAME: &str = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TY[8]\
BO[8 XOOOOOO- XOOXOO-- XXOOOOXX XOXOOOX- XOOXOOX- XOOOOX-X X-XXOX-- -XXX---- *];)";

#[test]
fn hint_in_the_endgame_gives_as_many_exact_lines_as_asked() {
    let mut gui = Gui::start();
    gui.engine.send("set depth 2");
    gui.set_game(ENDGAME);
    gui.engine.send("hint 3");
    let lines = gui.engine.read_until(|l| l == "status");
    // Each line solved to the end (depth 14, the empty squares), with its
    // exact margin: not the won or lost game's 64.00 of an evaluation
    // search's line.
    let searched: Vec<(&str, f64)> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields[3..], ["0", "14"], "{l}");
            (&fields[1][..2], fields[2].parse::<f64>().unwrap())
        })
        .collect();
    assert_eq!(searched.len(), 3, "{lines:?}");
    let mut firsts: Vec<&str> = searched.iter().map(|(mv, _)| *mv).collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    assert!(
        firsts.iter().all(|m| ["H1", "G2", "B7", "F8"].contains(m)),
        "{firsts:?}"
    );
    for pair in searched.windows(2) {
        assert!(pair[0].1 >= pair[1].1, "{lines:?}");
    }
    for (_, eval) in &searched {
        assert!(eval.abs() < 64.0 && eval % 2.0 == 0.0, "{lines:?}");
    }
    // The best line's margin is the root's, solved once by `go`.
    let lines = gui.scored_go();
    let answer: Vec<&str> = lines.last().unwrap()["=== ".len()..].split('/').collect();
    let eval: f64 = answer[1].parse().unwrap();
    assert_eq!((answer[0], eval), searched[0], "{lines:?}");
}

#[test]
fn a_ping_behind_a_new_board_is_answered_without_waiting_for_the_search() {
    let mut gui = Gui::start();
    for change in ["move F5".to_string(), format!("set game {EIGHT_MOVES}")] {
        // A search that would take hours: only its end would otherwise
        // let the `move` or `set game` in, and the `ping` behind it.
        gui.engine.send("set depth 60");
        gui.engine.send(&format!("set game {EMPTY_GAME}"));
        gui.sync();
        gui.engine.send("go");
        gui.engine.send(&change);
        let lines = gui.sync();
        assert!(status_errors(&lines).is_empty(), "{change}: {lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
    }
    // The board is the new one: after EIGHT_MOVES, Black's F5 is taken.
    gui.engine.send("move F5");
    assert_eq!(status_errors(&gui.sync()).len(), 1);
}

#[test]
fn settings_during_a_search_are_taken_at_once_and_the_ping_behind_them_too() {
    let mut gui = Gui::start();
    gui.engine.send("set depth 60");
    gui.engine.send(&format!("set game {EMPTY_GAME}"));
    gui.sync();
    // A hint that would take hours, then settings: none waits for it, so
    // the `ping` behind them stops it at once.
    gui.engine.send("hint 3");
    for line in ["set contempt 0", "analyze", "nboard 2", "set depth 3"] {
        gui.engine.send(line);
    }
    let lines = gui.sync();
    assert!(status_errors(&lines).is_empty(), "{lines:?}");
    let names: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("set myname"))
        .collect();
    assert_eq!(
        names,
        ["set myname plyd60", "set myname plyd3"],
        "{lines:?}"
    );
    // Answered before the hint ended (its closing `status`), not after.
    let named = lines.iter().position(|l| l.starts_with("set myname"));
    let ended = lines.iter().position(|l| l == "status");
    assert!(ended.is_none_or(|e| named.unwrap() < e), "{lines:?}");
    // The new depth is the next search's.
    assert!(is_nboard_move(&gui.go()));
}

#[test]
fn go_and_hint_on_a_finished_game_answer_that_it_is_over() {
    let mut gui = Gui::start();
    // Black has every square but one, which neither side can take.
    let board = format!("{}-", "*".repeat(63));
    let over = format!("(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 {board} O];)");
    gui.engine.send("set depth 2");
    gui.set_game(&over);
    for ask in ["go", "hint 2"] {
        gui.engine.send(ask);
        let lines = gui.sync();
        assert_eq!(
            lines,
            ["status error: the game is over: there is no move to play"],
            "{ask}"
        );
    }
    // A game still going is searched as before.
    gui.engine.send(&format!("set game {EMPTY_GAME}"));
    gui.sync();
    assert!(is_nboard_move(&gui.go()));
}

#[test]
fn a_clock_too_large_to_count_is_a_long_clock() {
    // `TI[1e300]` (milliseconds past what 64 bits hold) and a move said to
    // have taken as long: the clock neither wraps round nor turns
    // negative, so the search at `set depth 7` ends at its depth with its
    // score, not at a hard limit of 1 ms with a move and nothing else.
    let mut gui = Gui::start();
    gui.engine.send("set depth 7");
    let game = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[1e300/1e300/1e300]TY[8]\
        BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
        B[F5//1e300];)";
    gui.set_game(game);
    let lines = gui.scored_go();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("nodestats ") && !l.starts_with("nodestats 0 ")),
        "{lines:?}"
    );
}

#[test]
fn moves_sent_without_their_time_are_charged_what_plyd_measured() {
    // `move F5` carries no time (the protocol allows it): plyd's own moves
    // are charged the time their searches took, so a second a side lasts
    // the game. Charged nothing, every move planned on the whole second,
    // and each side's searches took 2 to 3 s of it in all.
    let mut gui = Gui::start();
    gui.engine.send("set depth 60");
    let game = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[0:01]TY[8]\
        BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)";
    gui.set_game(game);
    let mut spent = [0.0f64; 2];
    for ply in 0..60 {
        gui.engine.send("go");
        let lines = gui
            .engine
            .read_until(|l| l.starts_with("=== ") || l.starts_with("status error"));
        let last = lines.last().unwrap();
        if last.starts_with("status error") {
            assert!(last.contains("the game is over"), "{lines:?}");
            break;
        }
        let answer: Vec<&str> = last["=== ".len()..].split('/').collect();
        // Each search says how long it took: the time the GUI's clock
        // would have charged, give or take the pipe.
        if let Some(seconds) = answer.get(2) {
            spent[ply % 2] += seconds.parse::<f64>().unwrap();
        }
        gui.engine.send(&format!("move {}", answer[0]));
        assert!(status_errors(&gui.sync()).is_empty());
    }
    assert!(
        spent.iter().all(|&s| s < 1.0),
        "seconds searched: {spent:?}"
    );
}

#[test]
fn go_keeps_to_the_game_clock() {
    let mut gui = Gui::start();
    // Depth 60 from the start would run for hours; the clock says Black
    // has two seconds left of three, so the answer must come well before.
    gui.engine.send("set depth 60");
    let game = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[0:03]TY[8]\
        BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
        B[F5//1.0]W[F6//0.5];)";
    gui.set_game(game);
    // The evaluation search answers, with its evaluation: depth 60 reaches
    // the empty squares, but a solve of 58 would not end in two seconds,
    // and one cut short knows no better than a random move.
    gui.scored_go();
    gui.sync();
    // The GUI's `move` lines carry the seconds each move took.
    gui.engine.send("move E6/0.5/1.5");
    gui.engine.send("move F4//0.2");
    assert!(status_errors(&gui.sync()).is_empty());
    assert!(is_nboard_move(&gui.go()));
}

#[test]
fn a_go_sent_with_the_first_lines_is_searched_on_what_its_clock_holds() {
    // NBoard has no `isready`: its first lines, `go` among them, may come
    // while plyd is still loading. The clock runs from the `go`, and the
    // search is planned on what it holds once it starts; planned on the
    // clock as sent, its hard limit had passed, and the first legal move
    // went out unsearched (an X-square, 0 nodes).
    let dir = othello_dir();
    let mut engine = Engine::start(dir.path(), &[], &[]);
    engine.send(
        "nboard 2\nset depth 60\nset game (;GM[Othello]PC[NBoard]PB[you]PW[plyd]RE[?]TI[0:01]TY[8]\
         BO[8 ---------------------------O*------*O--------------------------- *]B[F5//0]W[F6//0]\
         B[E6//0]W[F4//0]B[E3//0]W[C5//0]B[C4//0]W[D3//0]B[C3//0];)\nset contempt 0\nping 1\ngo",
    );
    let lines = engine.read_until(|l| l.starts_with("=== "));
    let nodes = lines
        .iter()
        .find_map(|l| l.strip_prefix("nodestats "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    // Searched, however little a loaded machine leaves of the second
    // (10 nodes once, under a load of 16 on 2 cores).
    assert!(nodes > 0, "{lines:?}");
    let answer: Vec<&str> = lines.last().unwrap()["=== ".len()..].split('/').collect();
    assert!(answer[1].parse::<f64>().is_ok(), "{lines:?}");
    engine.send("quit");
}

/// A `set game` that starts another game tells the evaluator a new game
/// begins, as `ucinewgame` does; one that adds moves to the game or takes
/// some back does not. The evaluator here panics at its `new_game`, so the
/// first `set game` that calls it gets a status error.
#[test]
fn a_set_game_of_another_game_is_a_new_game_for_the_evaluator() {
    let dir = othello_dir();
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let engine = Engine::start(
        dir.path(),
        &["--option", "Evaluator=odd"],
        &[("PLYD_TEST_EVAL", "new-game-panic")],
    );
    let mut gui = Gui {
        engine,
        _dir: dir,
        ping: 0,
    };
    gui.engine.send("nboard 2");
    gui.engine.send("set depth 2");
    gui.set_game(EMPTY_GAME);
    gui.set_game(EIGHT_MOVES);
    gui.engine.send("move G5");
    assert!(status_errors(&gui.sync()).is_empty());
    // Seven of the eight moves: one taken back.
    let taken_back = EIGHT_MOVES.replace("W[F4]", "");
    gui.set_game(&taken_back);
    gui.engine.send(&format!("set game {EMPTY_GAME}"));
    let lines = gui.sync();
    let errors = status_errors(&lines);
    assert!(
        errors.len() == 1 && errors[0].contains("panicked in new_game"),
        "{lines:?}"
    );
    // The new game is set all the same, and played on by the game's own
    // evaluator.
    gui.engine.send("move F5");
    assert!(status_errors(&gui.sync()).is_empty());
    assert!(is_nboard_move(&gui.go()));
}
