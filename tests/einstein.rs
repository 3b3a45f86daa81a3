//! EinStein würfelt nicht end to end: the real `plyd` binary with the
//! einstein plugin, over the protocol — the set-up stage and its `go`, a
//! game written as an arbiter writes it (set-ups, rolls, steps), `go`
//! before and after a roll, refused input that leaves the daemon and the
//! position as they were, perft with each roll its own ply, and both
//! evaluators.

use crate::common::{self, errors, plugin_dir, Engine, TempDir};

const START: &str = "...../...../...../...../..... r - -";
const AFTER_SETUP: &str = "123../45.../6...f/...ed/..cba r s123456 s123456";

fn einstein() -> (Engine, TempDir) {
    let dir = plugin_dir(&[("plyd_game_einstein", "einstein")]);
    let mut engine = Engine::start(dir.path(), &[], &[]);
    engine.send("setoption name UCI_Variant value einstein");
    assert_eq!(
        engine.sync(),
        vec![format!("info string variant einstein startpos {START}")]
    );
    (engine, dir)
}

fn bestmove(lines: &[String]) -> String {
    let line = lines.last().expect("a bestmove line");
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn uci_lists_the_variant_and_both_evaluators() {
    let (mut engine, _dir) = einstein();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .unwrap();
    assert!(variant.contains("var einstein"), "{variant}");
    assert!(
        lines.contains(
            &"option name Evaluator type combo default odds var odds var seed001".to_string()
        ),
        "{lines:?}"
    );
}

#[test]
fn an_arbiters_game_reads_and_shows_both_set_ups_and_the_roll() {
    let (mut engine, _dir) = einstein();
    engine.send("position startpos moves s123456 s654321 r4 a4b3 r2 d2c2");
    assert!(errors(&engine.sync()).is_empty());
    assert_eq!(
        engine.fen(),
        "123../.5.../64..a/..b.c/..def r s123456 s654321"
    );
    engine.send("position startpos moves s123456 s654321 r4 a4b3 r2 d2c2 r6");
    assert!(errors(&engine.sync()).is_empty());
    engine.send("d");
    let lines = engine.read_until(|l| l.starts_with("Key: "));
    assert!(lines.iter().any(|l| l.trim() == "a b c d e"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l == "Red to move, rolled 6"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: 123../.5.../64..a/..b.c/..def r s123456 s654321 r6")),
        "{lines:?}"
    );
}

#[test]
fn go_at_the_set_up_answers_an_arrangement() {
    let (mut engine, _dir) = einstein();
    for (moves, side) in [("", "Red"), (" moves s123456", "Blue")] {
        engine.send(&format!("position startpos{moves}"));
        engine.send("go depth 2");
        let best = bestmove(&engine.until_bestmove());
        assert!(best.starts_with('s') && best.len() == 7, "{side}: {best}");
        let mut digits: Vec<char> = best[1..].chars().collect();
        digits.sort();
        assert_eq!(digits.into_iter().collect::<String>(), "123456", "{best}");
        // The answer is accepted as the next move.
        engine.send(&format!(
            "position startpos{moves}{} {best}",
            if moves.is_empty() { " moves" } else { "" }
        ));
        assert!(errors(&engine.sync()).is_empty(), "{best}");
    }
}

#[test]
fn go_before_the_roll_reports_the_expected_value_and_no_move() {
    let (mut engine, _dir) = einstein();
    engine.send(&format!("position fen {AFTER_SETUP}"));
    engine.send("go depth 3");
    let lines = engine.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    // Said first, for a person with no GUI to roll.
    assert_eq!(
        lines[0],
        "info string chance moves first here (in EinStein, the roll of the die): the search \
         weighs every outcome and answers bestmove (none); send the outcome as a move (go \
         perft 1 lists them), then go"
    );
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 3"))
        .expect("an info line at depth 3");
    assert!(info.contains(" score cp "), "{info}");
    // The pv starts with a roll.
    let pv = info.split(" pv ").nth(1).unwrap();
    assert!(pv.starts_with('r'), "{info}");
    // The die chooses the roll: `searchmoves` of rolls is refused with
    // one line, and every roll is searched as before.
    engine.send("go depth 3 searchmoves r3");
    let restricted = engine.until_bestmove();
    assert_eq!(
        restricted[1],
        "info string error: searchmoves does not apply before the roll: every outcome of the chance node is searched"
    );
    assert_eq!(restricted.last().unwrap(), "bestmove (none)");
    // Every roll searched: the line starts with the first roll, as before
    // (the table, warm now, changes the counts).
    let again = restricted
        .iter()
        .find(|l| l.starts_with("info depth 3"))
        .expect("an info line at depth 3");
    assert_eq!(again.split(" pv ").nth(1), Some(pv), "{again}");
}

#[test]
fn go_after_the_roll_moves_the_rolled_stone_and_takes_a_win() {
    let (mut engine, _dir) = einstein();
    // Red's 3 is gone: a roll of 3 lets Red move its 2 or its 4.
    engine.send("position fen 12.../45.../6...f/...ed/..cba r s123456 s123456 r3");
    engine.send("go depth 3");
    let best = bestmove(&engine.until_bestmove());
    assert!(best.starts_with("b5") || best.starts_with("a4"), "{best}");
    // Red's 1 on d2 rolled 1: d2e1 wins at once.
    engine.send("position fen 2..../...../..f../...1./a.... r - - r1");
    engine.send("go depth 2");
    let lines = engine.until_bestmove();
    assert_eq!(bestmove(&lines), "d2e1");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    engine.send("position fen 2..../...../..f../...1./a.... r - - r1 moves d2e1");
    engine.send("go depth 1");
    assert_eq!(bestmove(&engine.until_bestmove()), "(none)");
}

#[test]
fn bad_input_is_refused_with_one_line_and_leaves_no_position() {
    let (mut engine, _dir) = einstein();
    engine.send("position startpos moves s123456 s654321 r4");
    let before = engine.fen();
    for line in [
        // Five stone numbers; a stone twice; a seventh stone.
        "position startpos moves s12345",
        "position startpos moves s123456 s113456",
        "position startpos moves s1234567",
        // No die has a 7 or a 0.
        "position startpos moves s123456 s654321 r7",
        "position startpos moves s123456 s654321 r0",
        // A step before the roll, a step of a stone the roll did not pick,
        // a step backwards, two rolls in a row, an arrangement in play.
        "position startpos moves s123456 s654321 a4b3",
        "position startpos moves s123456 s654321 r4 b4c3",
        "position startpos moves s123456 s654321 r4 a4a5",
        "position startpos moves s123456 s654321 r4 r5",
        "position startpos moves s123456 s654321 r4 a4b3 s123456",
        // Position texts: a stone twice, a short rank, a bad side, a bad
        // roll, a roll at the set-up stage, a malformed set-up field.
        "position fen 11.../45.../6...f/...ed/..cba r - -",
        "position fen 123./45.../6...f/...ed/..cba r - -",
        "position fen 123../45.../6...f/...ed/..cba x - -",
        "position fen 123../45.../6...f/...ed/..cba r - - r9",
        "position fen ...../...../...../...../..... r - - r3",
        "position fen 123../45.../6...f/...ed/..cba r s12345 -",
    ] {
        engine.send(line);
        let lines = engine.sync();
        assert_eq!(errors(&lines).len(), 1, "{line}: {lines:?}");
        engine.assert_no_position_until(
            "position startpos moves s123456 s654321 r4",
            &before,
            line,
        );
    }
    engine.send("go depth 2");
    assert_ne!(bestmove(&engine.until_bestmove()), "(none)");
}

#[test]
fn perft_counts_each_roll_as_a_ply() {
    let (mut engine, _dir) = einstein();
    // Figures of the independent reference (plugins/einstein-rules/tests).
    for (position, depth, nodes, root) in [
        (format!("fen {AFTER_SETUP}"), 4, 324u64, 6usize),
        (format!("fen {AFTER_SETUP}"), 6, 6162, 6),
        ("startpos".to_string(), 1, 720, 720),
    ] {
        engine.send(&format!("position {position}"));
        engine.send(&format!("go perft {depth}"));
        let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
        assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {nodes}"));
        assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), root + 1);
    }
}

#[test]
fn both_evaluators_play_and_explain() {
    let (mut engine, _dir) = einstein();
    for evaluator in ["odds", "seed001"] {
        engine.send(&format!("setoption name Evaluator value {evaluator}"));
        engine.send(&format!("position fen {AFTER_SETUP} r5"));
        engine.send("eval");
        let lines = engine.sync();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string eval score ")),
            "{evaluator}: {lines:?}"
        );
        engine.send("go depth 3");
        let best = bestmove(&engine.until_bestmove());
        assert!(best.starts_with("b4"), "{evaluator}: {best}");
    }
}

/// The Monte-Carlo search at chance nodes: before the roll it draws rolls
/// by weight, reports the root's expected value with a roll first in its
/// line, and plays nothing; after the roll it steps the rolled stone and
/// proves a win at once.
#[test]
fn mcts_draws_rolls_and_takes_a_win() {
    let (mut engine, _dir) = einstein();
    engine.send("setoption name SearchMode value mcts");
    engine.send(&format!("position fen {AFTER_SETUP}"));
    engine.send("go nodes 3000");
    let lines = engine.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    let info = last_info(&lines);
    assert!(info.contains(" score cp "), "{info}");
    let pv = info.split(" pv ").nth(1).unwrap();
    assert!(pv.starts_with('r'), "{info}");
    engine.send("position fen 12.../45.../6...f/...ed/..cba r s123456 s123456 r3");
    engine.send("go nodes 3000");
    let best = bestmove(&engine.until_bestmove());
    assert!(best.starts_with("b5") || best.starts_with("a4"), "{best}");
    engine.send("position fen 2..../...../..f../...1./a.... r - - r1");
    engine.send("go nodes 100000");
    let lines = engine.until_bestmove();
    assert_eq!(bestmove(&lines), "d2e1");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
}

/// The last `info depth` line of a search.
fn last_info(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line")
}

/// The Monte-Carlo tree grown for one move is searched on a move pair
/// later (the move, the roll, the reply, the next roll: four plies on):
/// a search of one visit there already reports the depth of the kept
/// subtree. The roots of EinStein have too few moves to measure a value
/// scale that a kept tree could be compared with.
#[test]
fn mcts_keeps_its_tree_a_move_pair_on() {
    let (mut engine, _dir) = einstein();
    engine.send("setoption name SearchMode value mcts");
    let start = "startpos moves s123456 s123456 r4";
    engine.send(&format!("position {start}"));
    engine.send("go nodes 20000");
    let lines = engine.until_bestmove();
    let info = last_info(&lines);
    let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert!(pv.len() >= 5, "{info}");
    engine.send(&format!("position {start} {}", pv[..4].join(" ")));
    engine.send("go nodes 1");
    let lines = engine.until_bestmove();
    let depth = common::last_number(&lines, "depth");
    assert!(depth >= 2, "the kept subtree: {lines:?}");
    // After `ucinewgame` the tree is gone: one visit is one ply.
    engine.send("ucinewgame");
    engine.send(&format!("position {start} {}", pv[..4].join(" ")));
    engine.send("go nodes 1");
    let lines = engine.until_bestmove();
    assert_eq!(common::last_number(&lines, "depth"), 1, "{lines:?}");
}

/// The Monte-Carlo search's options: listed, refused outside their
/// ranges, and in force: a tree of 1,000 nodes is full (`hashfull
/// 1000`), and another exploration constant or widening factor grows
/// another tree from the same visits on one thread.
#[test]
fn mcts_options_shape_the_tree() {
    let (mut engine, _dir) = einstein();
    engine.send("uci");
    let listed = engine.read_until(|l| l == "uciok");
    for line in [
        "option name MctsExploration type spin default 600 min 0 max 10000",
        "option name MctsWidening type spin default 1000 min 1 max 100000",
        "option name MctsTreeNodes type spin default 2000000 min 1000 max 100000000",
    ] {
        assert!(listed.contains(&line.to_string()), "{line}");
    }
    for bad in [
        "MctsExploration value -1",
        "MctsWidening value 0",
        "MctsTreeNodes value 999",
    ] {
        engine.send(&format!("setoption name {bad}"));
        assert_eq!(errors(&engine.sync()).len(), 1, "{bad}");
    }
    engine.send("setoption name SearchMode value mcts");
    let position = "position startpos moves s123456 s123456 r4";
    // The last `info` line, less its speed and time.
    let last = |engine: &mut Engine, setting: &str| {
        engine.send("ucinewgame");
        engine.send(&format!("setoption name {setting}"));
        assert!(errors(&engine.sync()).is_empty(), "{setting}");
        engine.send(position);
        engine.send("go nodes 5000");
        let lines = engine.until_bestmove();
        let info = last_info(&lines);
        let words: Vec<&str> = info.split(' ').collect();
        let mut kept = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if words[i] == "nps" || words[i] == "time" {
                i += 2;
            } else {
                kept.push(words[i]);
                i += 1;
            }
        }
        kept.join(" ")
    };
    let default = last(&mut engine, "MctsTreeNodes value 2000000");
    assert!(!default.contains("hashfull 1000"), "{default}");
    let small = last(&mut engine, "MctsTreeNodes value 1000");
    assert!(small.contains("hashfull 1000"), "{small}");
    assert_eq!(last(&mut engine, "MctsTreeNodes value 2000000"), default);
    assert_ne!(last(&mut engine, "MctsExploration value 3000"), default);
    assert_eq!(last(&mut engine, "MctsExploration value 600"), default);
    assert_ne!(last(&mut engine, "MctsWidening value 4000"), default);
}

/// The best arrangement for `side` (1: Red, 2: Blue) in the shipped
/// set-up book, read here on its own: the line with the highest score in
/// that column.
fn book_best(column: usize) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../plugins/einstein/setup_book.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut best = (f64::MIN, String::new());
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let score: f64 = fields[column].parse().unwrap();
        if score > best.0 {
            best = (score, fields[0].to_string());
        }
    }
    best.1
}

#[test]
fn the_set_up_plays_the_books_best_arrangement_and_can_be_told_not_to() {
    let (mut engine, _dir) = einstein();
    engine.send("position startpos");
    engine.send("go depth 2");
    assert_eq!(bestmove(&engine.until_bestmove()), book_best(1));
    for red in ["s123456", "s654321"] {
        engine.send(&format!("position startpos moves {red}"));
        engine.send("go depth 2");
        assert_eq!(
            bestmove(&engine.until_bestmove()),
            book_best(2),
            "after {red}"
        );
    }
    // Without the book every arrangement races alike: the first of equals.
    let params = TempDir::new("setup-book-off");
    let file = params.path().join("odds.toml");
    let shipped = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../plugins/einstein/odds.toml"),
    )
    .unwrap();
    std::fs::write(
        &file,
        shipped.replace("setup_book = true", "setup_book = false"),
    )
    .unwrap();
    engine.send(&format!(
        "setoption name EvalParams value {}",
        file.display()
    ));
    assert!(errors(&engine.sync()).is_empty());
    engine.send("position startpos");
    engine.send("go depth 2");
    assert_eq!(bestmove(&engine.until_bestmove()), "s123456");
}

/// The learned estimate (the shipped default) and the race score the same
/// position differently beyond four stones; `learned = false` brings the
/// race back, a weights file the network was trained into is read, and a
/// missing or broken one is refused with one line, the evaluator in use
/// kept.
#[test]
fn the_learned_estimate_can_be_swapped_for_the_race_or_another_file() {
    let (mut engine, _dir) = einstein();
    let shipped_dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../plugins/einstein");
    let shipped = std::fs::read_to_string(shipped_dir.join("odds.toml")).unwrap();
    assert!(shipped.contains("\nlearned = true\n"));
    let params = TempDir::new("learned-params");
    let eval_of = |engine: &mut Engine| {
        engine.send(&format!("position fen {AFTER_SETUP}"));
        engine.send("eval");
        let lines = engine.sync();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        lines
            .iter()
            .find_map(|l| l.strip_prefix("info string eval score "))
            .map(|s| s.split_whitespace().next().unwrap().to_string())
            .expect("an eval line")
    };
    let set = |engine: &mut Engine, name: &str, text: String| {
        let file = params.path().join(name);
        std::fs::write(&file, text).unwrap();
        engine.send(&format!(
            "setoption name EvalParams value {}",
            file.display()
        ));
        engine.sync()
    };
    let learned = eval_of(&mut engine);
    assert!(errors(&set(
        &mut engine,
        "race.toml",
        shipped.replace("\nlearned = true\n", "\nlearned = false\n")
    ))
    .is_empty());
    let race = eval_of(&mut engine);
    assert_ne!(learned, race);
    // The shipped weights named as a file: the shipped estimate again.
    let copy = params.path().join("copy.bin");
    std::fs::copy(shipped_dir.join("learned.bin"), &copy).unwrap();
    let named = shipped.replace(
        "learned_weights = \"\"",
        &format!("learned_weights = \"{}\"", copy.display()),
    );
    assert!(errors(&set(&mut engine, "named.toml", named.clone())).is_empty());
    assert_eq!(eval_of(&mut engine), learned);
    // A missing file and a broken one: one error line each, the estimate
    // in use kept.
    std::fs::write(params.path().join("broken.bin"), b"plydewn1 not weights").unwrap();
    for (name, text) in [
        ("missing.toml", named.replace("copy.bin", "missing.bin")),
        ("broken.toml", named.replace("copy.bin", "broken.bin")),
    ] {
        let lines = set(&mut engine, name, text);
        assert_eq!(errors(&lines).len(), 1, "{name}: {lines:?}");
        assert!(errors(&lines)[0].contains("learned_weights"), "{lines:?}");
        assert_eq!(eval_of(&mut engine), learned, "{name}");
    }
    engine.send(&format!("position fen {AFTER_SETUP} r5"));
    engine.send("go depth 3");
    assert_ne!(bestmove(&engine.until_bestmove()), "(none)");
}

#[test]
fn an_answer_with_no_time_left_never_throws_the_dice() {
    // With no time the watchdog answers for the search, from what was
    // noted as it began: before the roll that is no move (the arbiter
    // throws the dice), and after a step no die roll to ponder on.
    let (mut e, _dir) = einstein();
    for _ in 0..3 {
        e.send("position startpos moves s123456 s123456");
        e.send("go wtime 0 btime 0");
        let lines = e.until_bestmove();
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
        e.send("position startpos moves s123456 s123456 r3");
        e.send("go wtime 1 btime 1");
        let lines = e.until_bestmove();
        let words: Vec<&str> = lines.last().unwrap().split(' ').collect();
        assert_eq!(words.len(), 2, "{lines:?}");
        assert!(!words[1].starts_with('r'), "{lines:?}");
    }
}

#[test]
fn a_clock_is_not_spent_before_the_roll() {
    // The clock is for the player's own moves: before the roll the answer
    // is `bestmove (none)` after one ply, not after a share of 240 s.
    // `movetime` still analyses the roll.
    let (mut e, _dir) = einstein();
    e.send("position startpos moves s123456 s123456");
    e.send("go wtime 240000 btime 240000");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    let depths: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|rest| rest.split(' ').next().unwrap())
        .collect();
    assert_eq!(depths, ["1"], "{lines:?}");
    e.send("go movetime 300");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
}

#[test]
fn a_move_that_is_no_move_names_what_is_legal() {
    let (mut e, _dir) = einstein();
    e.send("position startpos moves s123456 s123456 r7");
    assert_eq!(
        e.sync(),
        [
            "info string error: move 3 ('r7') rejected: 'r7' is not a move of einstein \
          (6 legal here: r1, r2, r3, r4, r5, r6); a chance move comes first there (in \
          EinStein, the roll of the die); no position is set until one is read"
        ]
    );
    // A step typed before its roll: the roll is named as what comes first.
    e.send("position startpos moves s123456 s123456 r2 b5c4 b4c3");
    let said = e.sync();
    assert!(
        said[0].contains("move 5 ('b4c3') rejected: illegal move 'b4c3' (6 legal here: r1,")
            && said[0].contains("a chance move comes first there"),
        "{said:?}"
    );
    // A reply left out: whose move it was is said.
    e.send("position startpos moves s123456 s123456 r2 b5c4 r1 zz");
    let said = e.sync();
    assert!(
        said[0].contains("move 6 ('zz') rejected")
            && said[0].contains("the second player's move there"),
        "{said:?}"
    );
}

/// After `ucinewgame` a fixed-depth search gives what it gives in a fresh
/// daemon: `odds` empties its endings' solvers and their caches, whose
/// paced work would otherwise carry the earlier searches into it.
#[test]
fn a_new_game_searches_as_a_fresh_daemon() {
    let position = "position fen 1.6../.3.../...../...d./....a r s123456 s123456 r3";
    let search = |engine: &mut Engine| {
        engine.send(position);
        engine.send("go depth 7");
        let lines = engine.until_bestmove();
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 7 "))
            .cloned()
            .expect("depth 7 reached");
        let nodes = last.split(" nodes ").nth(1).unwrap();
        (
            nodes.split(' ').next().unwrap().to_string(),
            bestmove(&lines),
        )
    };
    let (mut engine, _dir) = einstein();
    let fresh = search(&mut engine);
    // Other endings searched in between.
    for other in [
        "position fen 1.2../.3.../...../...d./...ca b s123456 s123456 r2",
        "position fen ..2../.3.../...b./...d./....a r s123456 s123456 r4",
    ] {
        engine.send(other);
        engine.send("go depth 6");
        engine.until_bestmove();
    }
    for _ in 0..2 {
        engine.send("ucinewgame");
        engine.send("isready");
        engine.read_until(|l| l == "readyok");
        assert_eq!(search(&mut engine), fresh);
    }
}

/// With helper threads the Monte-Carlo search's last `info` line is the
/// line `bestmove` and its `ponder` move come from: the reports read the
/// main thread's tree alone, where the answer took the line from the tree
/// that visited the move most (`pv s165234 s125346` and `bestmove s165234
/// ponder s145236`).
#[test]
fn mcts_on_two_threads_reports_the_line_it_answers_with() {
    let (mut engine, _dir) = einstein();
    engine.send("setoption name SearchMode value mcts");
    engine.send("setoption name Threads value 2");
    for _ in 0..3 {
        engine.send("ucinewgame");
        engine.send("position startpos");
        engine.send("go nodes 3000");
        let lines = engine.until_bestmove();
        let best: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
        let pv = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info ") && l.contains(" pv "))
            .expect("an info line with a pv");
        let pv: Vec<&str> = pv
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(pv[0], best[1], "{lines:?}");
        if best.len() == 4 {
            assert_eq!(pv.get(1), Some(&best[3]), "{lines:?}");
        }
    }
}

/// Hand play with the dice: a roll the person gives for themselves waits
/// for their move, a roll for plyd gets its move, a roll due is said, and
/// a winning step ends the play there, the roll typed after it not played.
#[test]
fn play_waits_for_the_persons_own_roll_and_stops_at_the_end() {
    let (mut engine, _dir) = einstein();
    // Red's set-up: plyd sets Blue's up.
    engine.send("play s123456");
    assert!(bestmove(&engine.until_bestmove()).starts_with('s'));
    let lines = engine.sync();
    assert!(
        lines.iter().any(|l| l.contains("a chance move comes next")),
        "{lines:?}"
    );
    // Red's own roll: Red's move is the person's, not plyd's.
    engine.send("play r3");
    assert_eq!(engine.sync(), ["info string your move"]);
    // Red's move: Blue's roll comes next, which the person gives.
    engine.send("play c5c4");
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string a chance move comes next: play one of r1 "),
        "{lines:?}"
    );
    engine.send("play r4");
    let lines = engine.until_bestmove();
    assert_ne!(bestmove(&lines), "(none)", "{lines:?}");
    // Red's roll is next: said after plyd's move.
    let lines = engine.sync();
    assert_eq!(
        lines,
        ["info string a chance move comes next: play it, then your move"]
    );
    // A winning step with the next roll typed after it.
    engine.send("position fen ...../.ab../...../...1./..... r s123456 s123456");
    engine.send("play r1 d2e1 r3");
    let lines = engine.sync();
    // Told as the person's win, the rule in words.
    assert_eq!(
        lines,
        [
            "info string play: game over, you win (Red reached the corner e1): r3 not played",
            "info string game over: you win (Red reached the corner e1)"
        ]
    );
    // One play of two plies: undone whole.
    engine.send("undo");
    assert_eq!(engine.sync(), ["info string undo: 2 moves taken back"]);
    assert!(engine.fen().starts_with("...../.ab../...../...1./..... r"));
}
