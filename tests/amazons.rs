//! The Amazons end to end: the real `plyd` binary with the amazons plugin,
//! over the protocol — both boards, every move spelling, refused input,
//! perft, the selective options, a won position and a lost one.

use crate::common::{errors, number_after, plugin_dir, Engine, TempDir};

const START_10: &str = "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1";
const START_8: &str = "2q2q2/8/q6q/8/8/Q6Q/8/2Q2Q2 w - - 0 1";

/// The second player's only amazon, on a10, has one free neighbour (b9);
/// an arrow there ends the game: `e1e6b9` is one of the winning moves.
const WIN_IN_1: &str = "q*8/*9/10/10/10/10/10/10/10/4Q5 w - - 0 1";

fn amazons(variant: &str) -> (Engine, TempDir) {
    let dir = plugin_dir(&[("plyd_game_amazons", "amazons")]);
    let mut engine = Engine::start(dir.path(), &[], &[]);
    engine.send(&format!("setoption name UCI_Variant value {variant}"));
    let start = if variant == "amazons8" {
        START_8
    } else {
        START_10
    };
    let lines = engine.sync();
    assert_eq!(
        lines,
        vec![format!("info string variant {variant} startpos {start}")]
    );
    (engine, dir)
}

fn bestmove(lines: &[String]) -> String {
    let line = lines.last().expect("a bestmove line");
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn uci_lists_both_variants_and_the_selective_options() {
    let (mut engine, _dir) = amazons("amazons");
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .expect("a UCI_Variant option");
    assert!(variant.contains("var amazons ") || variant.ends_with("var amazons"));
    assert!(variant.contains("var amazons8"), "{variant}");
    assert!(lines.contains(&"option name Selective type check default false".to_string()));
    assert!(lines
        .contains(&"option name SelectiveWidth type spin default 24 min 0 max 5000".to_string()));
    assert!(lines.contains(
        &"option name MoveNotation type combo default d1d7g7 var d1d7g7 var d1d7,d7g7".to_string()
    ));
}

#[test]
fn move_notation_switches_to_the_two_part_form() {
    let (mut engine, _dir) = amazons("amazons");
    engine.send("setoption name MoveNotation value d1d7,d7g7");
    engine.send(&format!("position fen {WIN_IN_1}"));
    engine.send("go depth 1");
    let best = bestmove(&engine.until_bestmove());
    let (queen, arrow) = best.split_once(',').expect("a two-part move");
    assert_eq!(queen.len(), 4, "{best}");
    assert_eq!(&arrow[..2], &queen[2..], "{best}");
    assert_eq!(&arrow[2..], "b9", "{best}");
    engine.send("setoption name MoveNotation value d1-d7/g7");
    assert_eq!(errors(&engine.sync()).len(), 1);
    engine.send("setoption name MoveNotation value d1d7g7");
    engine.send("go depth 1");
    let best = bestmove(&engine.until_bestmove());
    assert!(!best.contains(','), "{best}");
}

#[test]
fn every_move_spelling_is_read() {
    let (mut engine, _dir) = amazons("amazons");
    // Canonical, the championship records' brackets, dash and slash, and
    // Fairy-Stockfish's two-part form, one per ply.
    engine.send("position startpos moves d1d7g7 a7b6(b2) g1-g4/e2 d10d9,d9c10");
    assert!(errors(&engine.sync()).is_empty());
    assert_eq!(
        engine.fen(),
        "2*3q3/3q6/10/3Q2*2q/1q8/10/Q5Q2Q/10/1*2*5/10 w - - 0 3"
    );
    engine.send("d");
    let lines = engine.read_until(|l| l.starts_with("Key: "));
    assert!(lines.iter().any(|l| l.trim() == "a b c d e f g h i j"));
}

#[test]
fn the_8x8_board_plays_its_own_squares() {
    let (mut engine, _dir) = amazons("amazons8");
    engine.send("position startpos moves c1c7e5");
    assert!(errors(&engine.sync()).is_empty());
    assert_eq!(engine.fen(), "2q2q2/2Q5/q6q/4*3/8/Q6Q/8/5Q2 b - - 0 1");
    // j10 is off this board.
    engine.send("position startpos moves c1c7j10");
    assert_eq!(errors(&engine.sync()).len(), 1);
    engine.assert_no_position_until(
        "position startpos moves c1c7e5",
        "2q2q2/2Q5/q6q/4*3/8/Q6Q/8/5Q2 b - - 0 1",
        "j10",
    );
}

#[test]
fn bad_moves_and_positions_are_refused_and_leave_no_position() {
    let (mut engine, _dir) = amazons("amazons");
    engine.send("position startpos moves d1d7g7");
    let before = engine.fen();
    for line in [
        // d10 holds an enemy amazon.
        "position startpos moves d1d10d9",
        // Not a queen line.
        "position startpos moves d1e3e4",
        // The arrow crosses an amazon.
        "position startpos moves a4b4j4",
        // The opponent's amazon.
        "position startpos moves a7a6a5",
        "position startpos moves d1d7",
        "position startpos moves zz",
        "position fen 3q2q3/10/10/q8q/10/10/Q8Q/10/3Q2Q3 w",
        "position fen 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q2 w",
        "position fen 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 x",
        "position fen 10/10/10/10/10/10/Q8Q/10/10/3Q2Q3 w",
    ] {
        engine.send(line);
        let lines = engine.sync();
        assert_eq!(errors(&lines).len(), 1, "{line}: {lines:?}");
        engine.assert_no_position_until("position startpos moves d1d7g7", &before, line);
    }
}

#[test]
fn perft_on_both_boards() {
    for (variant, depth, nodes, root_moves) in [
        ("amazons", 2, 4_307_152u64, 2_176usize),
        ("amazons8", 2, 1_331_198, 1_232),
    ] {
        let (mut engine, _dir) = amazons(variant);
        engine.send("position startpos");
        engine.send(&format!("go perft {depth}"));
        let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {nodes}"),
            "{variant}"
        );
        assert_eq!(
            lines.iter().filter(|l| l.contains(": ")).count(),
            root_moves + 1,
            "{variant}"
        );
    }
}

#[test]
fn a_win_in_one_is_found_with_and_without_selectivity() {
    let (mut engine, _dir) = amazons("amazons");
    for selective in ["true", "false"] {
        engine.send(&format!("setoption name Selective value {selective}"));
        engine.send(&format!("position fen {WIN_IN_1}"));
        engine.send("go depth 3");
        let lines = engine.until_bestmove();
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .expect("info lines");
        assert!(last_info.contains("score mate 1 "), "{last_info}");
        let best = bestmove(&lines);
        assert!(best.ends_with("b9"), "{best}");
        // The move really wins: afterwards the second player has nothing.
        engine.send(&format!("position fen {WIN_IN_1} moves {best}"));
        engine.send("go depth 1");
        assert_eq!(bestmove(&engine.until_bestmove()), "(none)");
    }
}

#[test]
fn selective_width_is_checked_and_applied() {
    let (mut engine, _dir) = amazons("amazons8");
    engine.send("setoption name Selective value true");
    engine.send("setoption name SelectiveWidth value 5001");
    assert_eq!(errors(&engine.sync()).len(), 1);
    for width in ["0", "8", "24"] {
        engine.send(&format!("setoption name SelectiveWidth value {width}"));
        engine.send("position startpos");
        engine.send("go depth 3");
        let lines = engine.until_bestmove();
        assert!(errors(&lines).is_empty(), "{width}: {lines:?}");
        assert_ne!(bestmove(&lines), "(none)");
    }
}

#[test]
fn a_node_limit_with_two_threads_plays_a_searched_move() {
    // 1,000 nodes, fewer than the start's 2,176 moves: the other thread may
    // spend them before the main one begins, which must still search a
    // move and print it before answering.
    let (mut e, _dir) = amazons("amazons");
    e.send("setoption name Threads value 2");
    for _ in 0..6 {
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go nodes 1000");
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth "))
            .unwrap_or_else(|| panic!("no info line: {lines:?}"));
        let pv = info.split(" pv ").nth(1).expect("a pv");
        let best = lines.last().unwrap().split(' ').nth(1).unwrap();
        assert_eq!(pv.split(' ').next(), Some(best), "{lines:?}");
    }
}

/// A search cut short in an iteration (here by a node limit, one thread,
/// so the same every run) still ends with as many lines as `MultiPV`
/// asks, numbered in order, and the first is the line `bestmove` and its
/// `ponder` move come from. Several limits: some end inside an
/// iteration whose lines were only partly searched again.
#[test]
fn a_search_cut_short_reports_every_line_and_the_ponder_moves_line() {
    let (mut engine, _dir) = amazons("amazons8");
    engine.send("setoption name MultiPV value 3");
    for nodes in (3_000..=45_000).step_by(3_000) {
        engine.send("position startpos");
        engine.send(&format!("go nodes {nodes}"));
        let lines = engine.until_bestmove();
        let pvs: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
        let last: Vec<Option<i64>> = pvs[pvs.len() - 3..]
            .iter()
            .map(|l| number_after(l, "multipv"))
            .collect();
        assert_eq!(
            last,
            [Some(1), Some(2), Some(3)],
            "nodes {nodes}: {lines:#?}"
        );
        let first: Vec<&str> = pvs[pvs.len() - 3]
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .collect();
        let answer: Vec<&str> = lines.last().unwrap().split(' ').collect();
        assert_eq!(answer[1], first[0], "nodes {nodes}: {lines:#?}");
        if let Some(reply) = first.get(1) {
            assert_eq!(answer.get(3), Some(reply), "nodes {nodes}: {lines:#?}");
        }
    }
    // One move to search, MultiPV 3: its line is still numbered.
    engine.send("position startpos");
    engine.send("go depth 2 searchmoves c1c7g3");
    let lines = engine.until_bestmove();
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.contains(" multipv 1 ")),
        "{lines:#?}"
    );
}
