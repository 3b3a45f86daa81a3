//! UGI end to end: the real `plyd` binary driven as a UGI arena drives an
//! engine — `ugi`/`ugiok`, `uginewgame`, `query p1turn|gameover|result`,
//! `go` with the first and second player's clocks — through a whole game
//! of Othello and a few turns of the Amazons, and its refusals.

use crate::common::{errors, othello_dir, plugin_dir, Engine, TempDir};

fn ugi_engine() -> (Engine, TempDir) {
    let dir = othello_dir();
    let mut engine = Engine::start(dir.path(), &[], &[]);
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    assert!(lines.iter().any(|l| l.starts_with("id name plyd")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    assert!(!lines.iter().any(|l| l == "uciok"));
    engine.sync();
    (engine, dir)
}

fn query(engine: &mut Engine, what: &str) -> String {
    engine.send(&format!("query {what}"));
    let line = engine.read_until(|l| l.starts_with("response "));
    line.last().unwrap()["response ".len()..].to_string()
}

fn position(moves: &[String]) -> String {
    if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    }
}

#[test]
fn a_whole_othello_game_is_played_and_judged() {
    let (mut engine, _dir) = ugi_engine();
    engine.send("uginewgame");
    engine.send("position startpos");
    assert_eq!(query(&mut engine, "p1turn"), "true");
    assert_eq!(query(&mut engine, "gameover"), "false");
    assert_eq!(query(&mut engine, "result"), "none");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..130 {
        engine.send(&position(&moves));
        if query(&mut engine, "gameover") == "true" {
            break;
        }
        let p1 = query(&mut engine, "p1turn") == "true";
        assert_eq!(
            p1,
            moves.len().is_multiple_of(2),
            "turns alternate (a pass is a move)"
        );
        engine.send("go p1time 3000 p2time 3000 p1inc 10 p2inc 10");
        let lines = engine.until_bestmove();
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert_ne!(best, "(none)");
        moves.push(best.to_string());
    }
    assert_eq!(query(&mut engine, "gameover"), "true");
    let fen = engine.fen();
    let board = fen.split_whitespace().next().unwrap();
    let black = board.matches('X').count();
    let white = board.matches('O').count();
    let expected = match black.cmp(&white) {
        std::cmp::Ordering::Greater => "p1win",
        std::cmp::Ordering::Less => "p2win",
        std::cmp::Ordering::Equal => "draw",
    };
    assert_eq!(query(&mut engine, "result"), expected, "{fen}");
}

#[test]
fn bad_input_is_one_error_and_changes_nothing() {
    let (mut engine, _dir) = ugi_engine();
    engine.send("position startpos moves f5");
    let before = engine.fen();
    for line in ["query colour", "query", "fly"] {
        engine.send(line);
        let lines = engine.sync();
        assert_eq!(errors(&lines).len(), 1, "{line}: {lines:?}");
        // A query that cannot be read is still answered, `none`.
        let responses: Vec<&String> = lines.iter().filter(|l| l.starts_with("response")).collect();
        let expected: &[&str] = if line.starts_with("query") {
            &["response none"]
        } else {
            &[]
        };
        assert_eq!(responses, expected, "{line}: {lines:?}");
        assert_eq!(engine.fen(), before, "{line}");
    }
    assert_eq!(query(&mut engine, "p1turn"), "false");
    // A refused position leaves none: go answers with no move.
    for line in [
        "position startpos moves f5 z9",
        "position startpos moves f5 a1",
    ] {
        engine.send(line);
        engine.send("go p1time 1000 p2time 1000");
        let lines = engine.until_bestmove();
        assert_eq!(errors(&lines).len(), 2, "{line}: {lines:?}");
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{line}");
        // So does a query there: one error line, and `response none`.
        engine.send("query gameover");
        let lines = engine.sync();
        assert_eq!(errors(&lines).len(), 1, "{line}: {lines:?}");
        assert!(
            lines.iter().any(|l| l == "response none"),
            "{line}: {lines:?}"
        );
        engine.send("position startpos moves f5");
        assert_eq!(engine.fen(), before, "{line}");
    }
}

#[test]
fn bestmove_is_the_move_alone_and_go_right_after_stop_starts() {
    let (mut engine, _dir) = ugi_engine();
    engine.send("position startpos");
    // Cute Games reads `bestmove M` and nothing after it.
    for go in ["go depth 4", "go p1time 2000 p2time 2000 p1inc 10 p2inc 10"] {
        engine.send(go);
        let last = engine.until_bestmove().pop().unwrap();
        assert_eq!(last.split_whitespace().count(), 2, "{go}: {last}");
    }
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth 1"));
    engine.send("stop");
    engine.send("go depth 1");
    let mut lines = engine.until_bestmove();
    lines.extend(engine.until_bestmove());
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .all(|l| l.split_whitespace().count() == 2));
}

#[test]
fn the_amazons_are_played_over_ugi_too() {
    let dir = plugin_dir(&[("plyd_game_amazons", "amazons")]);
    let mut engine = Engine::start(dir.path(), &["--protocol", "ugi"], &[]);
    engine.send("uginewgame");
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..4 {
        engine.send(&position(&moves));
        assert_eq!(query(&mut engine, "p1turn"), (ply % 2 == 0).to_string());
        engine.send("go depth 1");
        let lines = engine.until_bestmove();
        moves.push(
            lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string(),
        );
    }
    assert!(errors(&engine.sync()).is_empty());
}
