//! Xiangqi end to end: the real `plyd` binary with the xiangqi plugin, over
//! the protocol — the variant, its FEN and move text in both rank
//! conventions, its game options, refused input, perft and mates; and the
//! static exchange evaluation through the loaded plugin.

use crate::common;

use crate::common::{errors, plugin_dir, Engine, TempDir};
use plyd::host::{GameState, PluginHost, SeeAnswer};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Red mates at once with b1b9: the chariot on a8 holds rank 8 and Red's
/// general holds the d-file.
const MATE_IN_1: &str = "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1";
/// Red mates in two (a0a8, taking rank 8 so that Black's general must go
/// to f9, then b1b9, is one way; there are others), never in one.
const MATE_IN_2: &str = "4k4/9/9/9/9/9/9/9/1R7/R2K5 w - - 0 1";

fn xiangqi() -> (Engine, TempDir) {
    let dir = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let mut engine = Engine::start(dir.path(), &[], &[]);
    engine.send("setoption name UCI_Variant value xiangqi");
    let lines = engine.sync();
    assert_eq!(
        lines,
        vec![format!("info string variant xiangqi startpos {START}")]
    );
    (engine, dir)
}

fn bestmove(lines: &[String]) -> String {
    let line = lines.last().expect("a bestmove line");
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn uci_lists_the_game_options() {
    let (mut engine, _dir) = xiangqi();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    assert!(lines
        .contains(&"option name MoveRanks type combo default 0-9 var 0-9 var 1-10".to_string()));
    assert!(lines.contains(
        &"option name NoCaptureDrawPlies type spin default 120 min 0 max 1000".to_string()
    ));
}

#[test]
fn moves_are_played_and_shown() {
    let (mut engine, _dir) = xiangqi();
    engine.send("position startpos moves h2e2 h9g7");
    assert_eq!(
        engine.fen(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    engine.send("d");
    let lines = engine.read_until(|l| l.starts_with("Key: "));
    assert!(lines
        .iter()
        .any(|l| l.trim_end() == " 2  . C . . C . . . ."));
    assert!(lines.iter().any(|l| l.trim() == "a b c d e f g h i"));
    assert!(
        !lines.iter().any(|l| l.starts_with("Result: ")),
        "{lines:?}"
    );
    // A finished game says so, with the rule, in the same words in every
    // game.
    engine.send(
        "position startpos moves b2b4 b7b0 a0b0 i6i5 b4c4 h7c7 c4g4 e6e5 g4g9 f9e8 g9i9 h9f8 h2h9",
    );
    engine.send("d");
    let lines = engine.read_until(|l| l.starts_with("Key: "));
    assert!(
        lines.contains(&"Result: the side to move has lost (checkmate)".to_string()),
        "{lines:?}"
    );
}

/// A hand-played game that plyd's reply ends is told as plyd's win, by
/// its rule (xiangqi's stalemate loses), not as the side to move's loss.
#[test]
fn a_play_that_plyd_wins_is_told_so() {
    let (mut engine, _dir) = xiangqi();
    // Red's king has one move; the chariots then leave it none.
    engine.send("position fen 3k5/9/9/9/9/9/9/1r7/r8/4K4 w");
    engine.send("play e0f0");
    assert_eq!(bestmove(&engine.until_bestmove()), "a1e1");
    assert_eq!(
        engine.sync(),
        [
            "info string plyd plays 车１平５",
            "info string game over: plyd wins (stalemate)"
        ]
    );
}

/// A position's moves in WXF or Chinese notation, as broadcasts and
/// records write them, are read on the board where they are played, in
/// either rank numbering.
#[test]
fn wxf_and_chinese_moves_are_read_in_a_position() {
    let (mut engine, _dir) = xiangqi();
    let after = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
    for moves in ["炮二平五 马８进７", "C2.5 H8+7", "c2.5 马8进7", "h2e2 H8+7"] {
        engine.send(&format!("position startpos moves {moves}"));
        assert!(errors(&engine.sync()).is_empty(), "{moves}");
        assert_eq!(engine.fen(), after, "{moves}");
    }
    engine.send("setoption name MoveRanks value 1-10");
    engine.send("position startpos moves 炮二平五 h10g8");
    assert!(errors(&engine.sync()).is_empty());
    assert_eq!(engine.fen(), after);
    engine.send("setoption name MoveRanks value 0-9");
    // Played by hand, plyd's reply is said in Chinese notation too.
    engine.send("position startpos");
    engine.send("play 炮二平五");
    let reply = bestmove(&engine.until_bestmove());
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let chinese = lines[0].strip_prefix("info string plyd plays ").unwrap();
    assert_eq!(chinese.chars().count(), 4, "{lines:?}");
    engine.send(&format!("position startpos moves h2e2 {reply}"));
    let expected = engine.fen();
    engine.send(&format!("position startpos moves h2e2 {chinese}"));
    assert_eq!(engine.fen(), expected);
    // A move no piece can make so is refused, read as written.
    engine.send("position startpos moves C2.5 R1+5");
    let lines = engine.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains(
            "move 2 ('R1+5') rejected: read as WXF or Chinese notation, illegal move 'a9a4'"
        ),
        "{lines:?}"
    );
}

#[test]
fn move_ranks_switch_between_0_9_and_1_10() {
    let (mut engine, _dir) = xiangqi();
    engine.send("setoption name MoveRanks value 1-10");
    engine.send("position startpos moves h3e3 h10g8");
    assert!(errors(&engine.sync()).is_empty());
    assert_eq!(
        engine.fen(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    engine.send(&format!("position fen {MATE_IN_1}"));
    engine.send("go depth 3");
    assert_eq!(bestmove(&engine.until_bestmove()), "b2b10");

    // A value that is not a choice is refused and changes nothing.
    engine.send("setoption name MoveRanks value 2-11");
    let lines = engine.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    engine.send("go depth 3");
    assert_eq!(bestmove(&engine.until_bestmove()), "b2b10");

    engine.send("setoption name MoveRanks value 0-9");
    engine.send("go depth 3");
    assert_eq!(bestmove(&engine.until_bestmove()), "b1b9");

    // A move of the other numbering is refused, and the error shows the
    // numbering in force by the legal moves it names.
    engine.send("setoption name MoveRanks value 1-10");
    engine.send("position startpos moves h2e2");
    let lines = engine.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("illegal move 'h2e2': no piece stands on h2 (44 legal here: a1a2, a1a3, ")
            && told[0].contains(
                "it is legal with its ranks counted one higher: if the GUI writes ranks 0-9, \
                 send setoption name MoveRanks value 0-9"
            ),
        "{lines:?}"
    );
    // And the other way round (cutechess and Fairy-Stockfish write 1-10).
    engine.send("setoption name MoveRanks value 0-9");
    engine.send("position startpos moves h3e3");
    let lines = engine.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains(
            "it is legal with its ranks counted one lower: if the GUI writes ranks 1-10, \
             send setoption name MoveRanks value 1-10"
        ),
        "{lines:?}"
    );
}

#[test]
fn bad_moves_and_positions_are_refused_and_leave_no_position() {
    let (mut engine, _dir) = xiangqi();
    engine.send("position startpos moves h2e2");
    let before = engine.fen();
    for line in [
        "position startpos moves h2e2 h9h8",
        "position startpos moves h2e2 z9z8",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9 w",
        "position fen rnbakakbnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
        // Two Red pawns on the a-file before the river: no game's.
        "position fen 4k4/9/9/9/9/P8/P8/9/9/3K5 w",
    ] {
        engine.send(line);
        let lines = engine.sync();
        assert_eq!(errors(&lines).len(), 1, "{line}: {lines:?}");
        engine.assert_no_position_until("position startpos moves h2e2", &before, line);
    }
}

#[test]
fn mates_are_found_and_scored() {
    let (mut engine, _dir) = xiangqi();
    for (fen, mate, first) in [(MATE_IN_1, 1, Some("b1b9")), (MATE_IN_2, 2, None)] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 6");
        let lines = engine.until_bestmove();
        assert!(
            last_info(&lines).contains(&format!("score mate {mate} ")),
            "{fen}: {lines:?}"
        );
        if let Some(first) = first {
            assert_eq!(bestmove(&lines), first, "{fen}");
        }
    }
}

/// The Monte-Carlo search proves a forced win in the same positions. It
/// stops at the first proof, which need not be the fastest: the mate it
/// reports is never shorter than the fastest (nor far longer here), and
/// the move it plays keeps the win (the PVS then sees the other side
/// mated).
#[test]
fn mates_are_found_and_scored_by_mcts() {
    let (mut engine, _dir) = xiangqi();
    for (fen, mate) in [(MATE_IN_1, 1), (MATE_IN_2, 2)] {
        engine.send("setoption name SearchMode value mcts");
        engine.send(&format!("position fen {fen}"));
        engine.send("go nodes 400000");
        let lines = engine.until_bestmove();
        let info = last_info(&lines);
        let found: i32 = info
            .split(" score mate ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{fen}: no mate in {info}"));
        assert!((mate..=mate + 3).contains(&found), "{fen}: {info}");
        let nodes: u64 = info
            .split(" nodes ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(nodes < 400_000, "a proven root ends the search: {info}");
        let best = bestmove(&lines);
        engine.send("setoption name SearchMode value pvs");
        engine.send(&format!("position fen {fen} moves {best}"));
        engine.send(&format!("go depth {}", 2 * found));
        let lines = engine.until_bestmove();
        assert!(
            last_info(&lines).contains("score mate -")
                || (found == 1 && bestmove(&lines) == "(none)"),
            "{fen} after {best}: {lines:?}"
        );
    }
}

/// `go mate N` in the Monte-Carlo search ends at the proof, not at the
/// mate's depth.
#[test]
fn go_mate_ends_at_the_proof_in_mcts() {
    let (mut engine, _dir) = xiangqi();
    engine.send("setoption name SearchMode value mcts");
    engine.send(&format!("position fen {MATE_IN_2}"));
    engine.send("go mate 2");
    let lines = engine.until_bestmove();
    assert!(last_info(&lines).contains(" score mate "), "{lines:?}");
    assert_ne!(bestmove(&lines), "(none)");
}

fn last_info(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .map_or("", |l| l.as_str())
}

/// The line of plyd's verdict on the root, when it has one.
const JUDGED: &str = "info string plyd's rules judge this position: ";

#[test]
fn the_no_capture_draw_follows_its_option() {
    let (mut engine, _dir) = xiangqi();
    // Two quiet plies already played: with the option at 2 the game is
    // drawn, said so, and a move is still played (the arbiter rules); every
    // line ends in the draw, so the score is 0.
    engine.send("setoption name NoCaptureDrawPlies value 2");
    engine.send("position fen 3k5/4a4/9/9/9/9/P8/9/4A4/4K4 w - - 2 1");
    engine.send("go depth 3");
    let lines = engine.until_bestmove();
    assert!(
        lines.contains(&format!(
            "{JUDGED}the game is drawn (2 plies without a capture); \
             a move is played all the same, for the arbiter to rule"
        )),
        "{lines:?}"
    );
    assert_ne!(bestmove(&lines), "(none)");
    assert!(last_info(&lines).contains(" score cp 0 "), "{lines:?}");
    engine.send("setoption name NoCaptureDrawPlies value 120");
    engine.send("go depth 3");
    let lines = engine.until_bestmove();
    assert!(!lines.iter().any(|l| l.starts_with(JUDGED)), "{lines:?}");
    assert_ne!(bestmove(&lines), "(none)");
    engine.send("setoption name NoCaptureDrawPlies value -1");
    assert_eq!(errors(&engine.sync()).len(), 1);
}

/// Whether `lines` hold plyd's verdict of a draw on the root.
fn judged_drawn(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with(&format!("{JUDGED}the game is drawn")))
}

/// An arbiter whose repetition rules differ from plyd's may play on past
/// plyd's verdict: the moves after it are taken, and `go` answers each
/// position with a legal move, never `(none)` (which would forfeit).
#[test]
fn play_goes_on_past_a_repetition_verdict() {
    let (mut engine, _dir) = xiangqi();
    let start = "3k1a3/9/9/9/9/9/P8/9/9/4KA3 w - - 0 1";
    let lap = "f0e1 f9e8 e1f0 e8f9";
    // The start stands for the third time: a plain repetition, drawn.
    engine.send(&format!("position fen {start} moves {lap} {lap}"));
    engine.send("go depth 4");
    let lines = engine.until_bestmove();
    assert!(judged_drawn(&lines), "{lines:?}");
    let first = bestmove(&lines);
    assert_ne!(first, "(none)");
    // Two laps more, then the answer: all taken, and a move each time.
    for (i, more) in ["", lap, &format!("{lap} {lap}")].iter().enumerate() {
        engine.send(&format!(
            "position fen {start} moves {lap} {lap} {more} {first}"
        ));
        assert!(errors(&engine.sync()).is_empty(), "lap {i}");
        engine.send("go depth 3");
        let lines = engine.until_bestmove();
        assert_ne!(bestmove(&lines), "(none)", "lap {i}: {lines:?}");
    }
    // A perpetual check that plyd rules lost for the checker: the side
    // to move (the checker) is told it has lost, and still plays.
    let checks = "4ka3/R8/4n4/9/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = "a8a9 e9e8 a9a8 e8e9";
    engine.send(&format!("position fen {checks} moves {cycle} {cycle}"));
    engine.send("go depth 3");
    let lines = engine.until_bestmove();
    assert!(
        lines.contains(&format!(
            "{JUDGED}the side to move has lost (third repetition, Red checked perpetually); \
             a move is played all the same, for the arbiter to rule"
        )),
        "{lines:?}"
    );
    assert_ne!(bestmove(&lines), "(none)");
    // A mate leaves no move at all: `(none)`, as before.
    engine.send(&format!("position fen {MATE_IN_1} moves b1b9"));
    engine.send("go depth 2");
    assert_eq!(bestmove(&engine.until_bestmove()), "(none)");
    // The Monte-Carlo search plays on past the verdict too.
    engine.send("setoption name SearchMode value mcts");
    engine.send(&format!("position fen {start} moves {lap} {lap}"));
    engine.send("go nodes 300");
    let lines = engine.until_bestmove();
    assert!(judged_drawn(&lines), "{lines:?}");
    assert_ne!(bestmove(&lines), "(none)", "{lines:?}");
    // Searched: the root is not taken for the end of the game.
    assert!(last_info(&lines).contains(" nodes 300 "), "{lines:?}");
}

#[test]
fn perft_from_the_start() {
    let (mut engine, _dir) = xiangqi();
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 79666");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 45);
}

/// The xiangqi plugin loaded by the host (not through the daemon), and a
/// maker of its states from FEN.
fn host_states() -> (impl Fn(&str) -> GameState, TempDir) {
    let dir = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let report = PluginHost::scan(&[dir.path().to_path_buf()]);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let variant = report.host.find_variant("xiangqi").unwrap();
    assert!(variant.plugin.has_see());
    assert!(variant.plugin.has_move_keys());
    let state = move |fen: &str| {
        let mut state = GameState::new(&variant.plugin, variant.index).unwrap();
        state.set_position(fen).unwrap();
        state
    };
    (state, dir)
}

#[test]
fn static_exchanges_cross_the_abi() {
    let (state_of, _dir) = host_states();
    // The red chariot on a2 screens the red cannon on a0; the black chariot
    // on a9 defends the soldier on a5 (see plugins/xiangqi-rules/src/see.rs).
    let state = state_of("r3k4/9/9/9/p8/9/9/R8/9/C4K3 w - - 0 1");
    let see = |text: &str, threshold: i32| {
        let mv = state.parse_legal_move(text).unwrap();
        state.see_ge(mv, threshold).unwrap()
    };
    let answer = |passes: bool, noisy: bool| Some(SeeAnswer { passes, noisy });
    // The cannon wins the soldier (104) and keeps it.
    assert_eq!(see("a0a5", 104), answer(true, true));
    assert_eq!(see("a0a5", 105), answer(false, true));
    // The chariot wins the soldier and loses itself: 104 - 1770.
    assert_eq!(see("a2a5", -1666), answer(true, true));
    assert_eq!(see("a2a5", -1665), answer(false, true));
    // A quiet move to a safe square, and the lowest threshold.
    assert_eq!(see("f0f1", 0), answer(true, false));
    assert_eq!(see("a2a5", i32::MIN), answer(true, true));
}

#[test]
fn the_see_option_switches_the_exchange_off() {
    let (mut engine, _dir) = xiangqi();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name SEE type check default true".to_string()),
        "{lines:?}"
    );
    for see in ["false", "true"] {
        engine.send(&format!("setoption name SEE value {see}"));
        engine.send(&format!("position fen {MATE_IN_1}"));
        engine.send("go depth 3");
        let lines = engine.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        assert_eq!(bestmove(&lines), "b1b9", "SEE {see}");
    }
}

#[test]
fn move_keys_cross_the_abi() {
    let (state_of, _dir) = host_states();
    let state = state_of("r3k4/9/9/9/p8/9/9/R8/9/C4K3 w - - 0 1");
    let key = |state: &GameState, text: &str| {
        let mv = state.parse_legal_move(text).unwrap();
        let mut keys = Vec::new();
        state.move_keys(&[mv], &mut keys).unwrap();
        keys[0]
    };
    let noisy = plyd_api::abi::MOVE_KEY_NOISY;
    // Captures carry the noisy bit, quiet moves do not; every key is
    // below the limit once the bit is cleared.
    let capture = key(&state, "a2a5");
    assert_ne!(capture & noisy, 0);
    let quiet = key(&state, "a2a3");
    assert_eq!(quiet & noisy, 0);
    assert!(capture & !noisy < plyd_api::abi::MOVE_KEY_LIMIT);
    // The key names the piece and its target square, not the square it
    // came from: the chariot reaching a5 from a2 or from a3 is one key.
    let moved = state_of("r3k4/9/9/9/p8/9/R8/9/9/C4K3 w - - 0 1");
    assert_eq!(capture & !noisy, key(&moved, "a3a5") & !noisy);
    // Another piece to the same square is another key.
    assert_ne!(key(&state, "a0a1"), key(&state, "a2a1"));
    // A batch answers as the moves one by one do.
    let mut moves = Vec::new();
    state.legal_moves(&mut moves).unwrap();
    let mut keys = Vec::new();
    state.move_keys(&moves, &mut keys).unwrap();
    for (&mv, &batch) in moves.iter().zip(&keys) {
        let mut one = Vec::new();
        state.move_keys(&[mv], &mut one).unwrap();
        assert_eq!(one[0], batch);
    }
}

/// Every search technique, switched from its default (on for those off,
/// off for those on): the option is listed with its default, takes effect
/// (the depth-9 search of a middle-game position visits another number of
/// nodes; `ShallowSearch`, which xiangqi's evaluators do not offer, the
/// same number), and the search still finds the mates in one and two.
#[test]
fn each_search_technique_switches_and_keeps_the_mates() {
    let (mut engine, _dir) = xiangqi();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok");
    let middle = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 4";
    let nodes = |engine: &mut Engine| {
        engine.send(&format!("position fen {middle}"));
        engine.send("go depth 9");
        let lines = engine.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        common::number_after(last_info(&lines), "nodes").unwrap() as u64
    };
    for (name, switch) in plyd::search::Techniques::SWITCHES {
        let default = *switch(&mut plyd::search::Techniques::default());
        assert!(
            lines.contains(&format!("option name {name} type check default {default}")),
            "{name}: {lines:?}"
        );
        // The reductions by history read the history that ContHistory's
        // bonus sharpens; with the gentle bonus alone they barely move.
        let needs = (name == "HistoryLMR").then_some("ContHistory");
        if let Some(needs) = needs {
            engine.send(&format!("setoption name {needs} value true"));
        }
        engine.send("ucinewgame");
        let plain = nodes(&mut engine);
        engine.send(&format!("setoption name {name} value {}", !default));
        engine.send("ucinewgame");
        let changed = nodes(&mut engine);
        if name == "ShallowSearch" {
            // No xiangqi evaluator searches its last plies itself: the
            // switch has nothing to hand over.
            assert_eq!(changed, plain, "{name} changes the xiangqi search");
        } else {
            assert_ne!(changed, plain, "{name} changes nothing");
        }
        finds_the_mates(&mut engine, name);
        engine.send(&format!("setoption name {name} value {default}"));
        if let Some(needs) = needs {
            engine.send(&format!("setoption name {needs} value false"));
        }
    }
    // All of them at once.
    for (name, _) in plyd::search::Techniques::SWITCHES {
        engine.send(&format!("setoption name {name} value true"));
    }
    finds_the_mates(&mut engine, "all");
}

/// The engine, as set, scores the mates in one and two at depth 8.
fn finds_the_mates(engine: &mut Engine, setting: &str) {
    for (fen, mate) in [(MATE_IN_1, 1), (MATE_IN_2, 2)] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 8");
        let lines = engine.until_bestmove();
        assert!(
            last_info(&lines).contains(&format!("score mate {mate} ")),
            "{setting} {fen}: {lines:?}"
        );
    }
}

/// A quiet check that late-move or futility pruning would skip is searched
/// all the same with `SpareChecks`: here (from a game against
/// Fairy-Stockfish) Red mates in two with quiet checks, which the depth-7
/// search finds with the checks spared, and without them only a mate in
/// four. Which moves are late depends on the evaluation's ordering, so the
/// weights are the ones the position was found with (the results-only fit;
/// with today's `classic.toml` the plain search orders the mating check
/// early enough to find it anyway).
#[test]
fn spared_checks_find_the_short_mate() {
    let (mut engine, _dir) = xiangqi();
    let weights = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/params/xiangqi-classic-results-fit.toml");
    engine.send(&format!(
        "setoption name EvalParams value {}",
        weights.display()
    ));
    let lines = engine.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let fen = "1n2k1b2/5R3/4bCN2/2PR5/p5p1p/9/P5P1P/9/3c5/2BK5 w - - 3 47";
    let mut search = |spare: bool| {
        engine.send(&format!("setoption name SpareChecks value {spare}"));
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 7");
        let lines = engine.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        last_info(&lines).to_string()
    };
    let spared = search(true);
    assert!(spared.contains("score mate 2 "), "{spared}");
    let pruned = search(false);
    assert!(!pruned.contains("score mate 2 "), "{pruned}");
}

/// The number after `key` in an `info` line.
fn field(info: &str, key: &str) -> u64 {
    info.split(&format!(" {key} "))
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {info}"))
}

/// Monte-Carlo trees: the node limit is exact on two threads, the
/// alpha-beta search's options keep a tree and the game's evaluator does
/// not, and a tree past a lowered `MctsTreeNodes` is dropped (`hashfull`
/// stays a per-mille).
#[test]
fn mcts_trees_follow_the_options_and_the_node_limit() {
    let (mut engine, _dir) = xiangqi();
    engine.send("setoption name SearchMode value mcts");
    engine.send("setoption name Threads value 2");
    engine.send("position startpos");
    engine.send("go nodes 5000");
    let lines = engine.until_bestmove();
    assert_eq!(field(last_info(&lines), "nodes"), 5000, "{lines:?}");
    // NullMove is the alpha-beta search's: the tree, deeper than 2
    // plies, answers `go depth 2` at once, with its own depth (the main
    // thread's one visit; the helper's few before it is halted depend on
    // the machine's load: 42 in one run under a full test command).
    engine.send("setoption name NullMove value false");
    engine.send("go depth 2");
    let lines = engine.until_bestmove();
    assert!(field(last_info(&lines), "depth") > 2, "{lines:?}");
    assert!(field(last_info(&lines), "nodes") < 5000, "{lines:?}");
    // A tree of some 5,000 nodes a thread, the limit lowered to 1,000:
    // a fresh tree, within the limit.
    engine.send("setoption name MctsTreeNodes value 1000");
    engine.send("go nodes 300");
    let lines = engine.until_bestmove();
    for info in lines.iter().filter(|l| l.starts_with("info depth")) {
        assert!(field(info, "hashfull") <= 1000, "{info}");
    }
    assert_eq!(field(last_info(&lines), "nodes"), 300, "{lines:?}");
    // Another evaluator drops the tree: `go depth 2` searches.
    engine.send("setoption name MctsTreeNodes value 2000000");
    engine.send("go nodes 5000");
    engine.until_bestmove();
    engine.send("setoption name Evaluator value seed002");
    engine.send("go depth 2");
    let lines = engine.until_bestmove();
    assert!(field(last_info(&lines), "nodes") > 1, "{lines:?}");
}

/// Options set at the start, by `--option` and by the config file's
/// `[options]` (here Fairy-Stockfish's ranks 1-10, which a GUI that can
/// only name the engine's command line could not set): in force before
/// the first line; a refusal is one error line after it.
#[test]
fn options_are_set_at_the_start_from_the_command_line_and_the_config_file() {
    let dir = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let mut e = Engine::start(
        dir.path(),
        &[
            "--game",
            "xiangqi",
            "--option",
            "MoveRanks=1-10",
            "--option",
            "Nonsense=3",
        ],
        &[],
    );
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // Listed with the value in force, as the engine's options are.
    assert!(
        lines
            .iter()
            .any(|l| l == "option name MoveRanks type combo default 1-10 var 0-9 var 1-10"),
        "{lines:?}"
    );
    let told = e.sync();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].starts_with("info string error: option Nonsense=3 (--option): unknown option"),
        "{told:?}"
    );
    // Ranks 1-10: h3e3 is the central cannon.
    e.send("position startpos moves h3e3");
    e.send("d");
    assert!(
        e.sync()
            .iter()
            .any(|l| l.starts_with("Fen: ") && l.contains("/1C2C4/")),
        "the move is read with ranks 1-10"
    );

    let conf_dir = TempDir::new("options");
    let conf = conf_dir.path().join("plyd.toml");
    std::fs::write(
        &conf,
        "game = \"xiangqi\"\n[options]\nMoveRanks = \"1-10\"\nMultiPV = 2\nWrong = [1]\n",
    )
    .unwrap();
    let mut e = Engine::start(dir.path(), &["--config", conf.to_str().unwrap()], &[]);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let told = e.sync();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].contains("option 'Wrong': its value is a TOML array"),
        "{told:?}"
    );
    e.send("position startpos moves h3e3");
    e.send("go depth 1");
    let lines = e.until_bestmove();
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

/// With several lines, `go mate N` proves each to the proof's depth: a
/// puzzle with two mates in 3 (g9i9 and f0e0, each checked by a
/// brute-force solver) showed the second as `score cp`, the search
/// stopped at the first line's mate.
#[test]
fn go_mate_with_several_lines_shows_every_mate_among_them() {
    let (mut engine, _dir) = xiangqi();
    engine.send("setoption name MultiPV value 4");
    engine.send("position fen 6R1n/9/3k5/9/2P6/9/9/9/9/5K3 w - - 0 1");
    engine.send("go mate 3");
    let lines = engine.until_bestmove();
    let last_depth = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .and_then(|l| l.split(' ').nth(2))
        .expect("an info line")
        .to_string();
    let mates: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with(&format!("info depth {last_depth} ")))
        .filter(|l| l.contains(" score mate 3 "))
        .filter_map(|l| l.split(" pv ").nth(1)?.split(' ').next())
        .collect();
    assert!(
        mates.contains(&"g9i9") && mates.contains(&"f0e0"),
        "{mates:?}: {lines:?}"
    );
}

#[test]
fn go_mate_finds_mates_the_pruned_search_misses() {
    // Study positions whose shortest mates the pruned search missed: a
    // quiet second move (d1e1), a win by stalemate (the Black general
    // boxed in with moves left to nobody), a quiet first move (f1e1).
    // Each shortest mate checked by a brute-force solver.
    let (mut engine, _dir) = xiangqi();
    for (fen, go, mate, first) in [
        (
            "3a5/9/4k4/8R/9/9/9/7N1/3K5/9 w - - 0 1",
            "go mate 3",
            3,
            "i6e6",
        ),
        (
            "9/4k4/9/9/9/9/1CN4R1/9/9/5K3 w - - 0 1",
            "go mate 2",
            2,
            "h3h8",
        ),
        (
            "3k5/8P/9/9/9/6N2/9/9/5K3/2N6 w - - 0 1",
            "go mate 3",
            3,
            "f1e1",
        ),
    ] {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        engine.send(go);
        let lines = engine.until_bestmove();
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .expect("an info line");
        assert!(
            last.contains(&format!(" score mate {mate} ")),
            "{fen}: {lines:?}"
        );
        assert_eq!(bestmove(&lines), first, "{fen}: {lines:?}");
    }
    // A depth asked for is searched to, a mate seen on the way or not.
    engine.send("ucinewgame");
    engine.send("position fen 3a5/9/4k4/8R/9/9/9/7N1/3K5/9 w - - 0 1");
    engine.send("go depth 12");
    let lines = engine.until_bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 12 ")),
        "{lines:?}"
    );
}

/// A position text of another loaded game is refused with that game
/// named; one no game reads gets no such hint.
#[test]
fn a_position_of_another_game_is_named() {
    let dir = plugin_dir(&[
        ("plyd_game_xiangqi", "xiangqi"),
        ("plyd_game_othello", "othello"),
    ]);
    let mut engine = Engine::start(dir.path(), &[], &[]);
    engine.send("setoption name UCI_Variant value othello");
    engine.sync();
    engine.send(&format!("position fen {START}"));
    let told = engine.sync();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].contains(
            "; it looks like a position of xiangqi (setoption name UCI_Variant value xiangqi \
             chooses that game); no position is set until one is read"
        ),
        "{told:?}"
    );
    engine.send("position fen 9/9/9 w");
    let told = engine.sync();
    assert!(!told[0].contains("looks like"), "{told:?}");
    engine.send("setoption name UCI_Variant value xiangqi");
    engine.sync();
    engine.send("position fen 8/8/8/3OX3/3XO3/8/8/8 b");
    let told = engine.sync();
    assert!(
        told[0].contains("; it looks like a position of othello "),
        "{told:?}"
    );
}
