//! UCCI end to end: the real `plyd` binary driven as a xiangqi GUI drives
//! an engine under the UCCI 3.0 text (xqbase.com): `ucci`/`ucciok`,
//! keyword-less `setoption`, `go` with the engine's and the opponent's
//! clocks, `banmoves`, `nobestmove`, `draw`/`resign`, `probe`/`pophash`,
//! `quit`/`bye`, and its refusals as `info message` lines.

use crate::common::{plugin_dir, Engine, TempDir, PATIENCE};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Both Othello and xiangqi are loaded, so the dialect's own game default
/// is what makes xiangqi the game.
fn ucci_engine(args: &[&str]) -> (Engine, TempDir) {
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let engine = Engine::start(dir.path(), args, &[]);
    (engine, dir)
}

fn handshake(engine: &mut Engine) -> Vec<String> {
    engine.send("ucci");
    engine.read_until(|l| l == "ucciok")
}

/// Send `isready` and return the lines before `readyok`.
fn sync(engine: &mut Engine) -> Vec<String> {
    engine.sync()
}

/// Read through the search's answer: `bestmove ...` or `nobestmove`.
fn answer(engine: &mut Engine) -> Vec<String> {
    engine.read_until(|l| l.starts_with("bestmove") || l == "nobestmove")
}

fn messages(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info message error:"))
        .collect()
}

/// A UCCI move: a file a-i and a rank 0-9, twice.
fn is_ucci_move(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

#[test]
fn the_handshake_lists_ucci_options_and_starts_xiangqi() {
    let (mut engine, _dir) = ucci_engine(&[]);
    let lines = handshake(&mut engine);
    assert!(lines.iter().any(|l| l.starts_with("id name plyd")));
    assert!(lines.contains(&"option usemillisec type check default true".to_string()));
    assert!(lines.contains(&"option newgame type button".to_string()));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option hashsize type spin")),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| !l.starts_with("uciok")));
    // Xiangqi's own options are listed, Othello's (a game the GUI cannot
    // play) and the variant's choice are not, though they can be set.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option NoCaptureDrawPlies type spin")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("option EndgameEmpties") && !l.contains("UCI_Variant")),
        "{lines:?}"
    );
    engine.send("setoption EndgameEmpties 20");
    assert!(messages(&sync(&mut engine)).is_empty());
    assert_eq!(engine.fen(), START);
}

#[test]
fn a_full_game_is_played_to_its_end() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    engine.send("setoption usemillisec true");
    // A short no-capture draw keeps the game short: plyd then says its
    // rules judge the game drawn (and still moves), and the GUI, which
    // adjudicates, ends it.
    engine.send("setoption NoCaptureDrawPlies 30");
    engine.send("setoption newgame");
    assert!(messages(&sync(&mut engine)).is_empty());
    let mut moves: Vec<String> = Vec::new();
    let mut ended = false;
    for _ in 0..400 {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        engine.send(&position);
        engine.send("go time 600000 increment 0 opptime 600000 oppincrement 0 depth 2");
        let lines = answer(&mut engine);
        for line in &lines[..lines.len() - 1] {
            assert!(line.starts_with("info "), "{line}");
            assert!(!line.contains(" cp ") && !line.contains(" mate "), "{line}");
        }
        let last = lines.last().unwrap();
        if last == "nobestmove" {
            ended = true;
            break;
        }
        let words: Vec<&str> = last.split_whitespace().collect();
        assert!(is_ucci_move(words[1]), "{last}");
        moves.push(words[1].to_string());
        let judged = lines
            .iter()
            .any(|l| l.starts_with("info message plyd's rules judge this position: "));
        if judged || words.last() == Some(&"resign") {
            ended = true;
            break;
        }
    }
    assert!(ended, "no end after {} plies", moves.len());
    engine.send("quit");
    engine.read_until(|l| l == "bye");
    assert!(engine.wait_exit(PATIENCE).is_some());
}

#[test]
fn banned_moves_are_not_chosen_until_the_position_changes() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    engine.send("position startpos");
    engine.send("go depth 2");
    let first = answer(&mut engine).pop().unwrap();
    let best = first.split_whitespace().nth(1).unwrap().to_string();
    engine.send(&format!("banmoves {best}"));
    engine.send("go depth 2");
    let second = answer(&mut engine).pop().unwrap();
    assert_ne!(second.split_whitespace().nth(1).unwrap(), best);
    // A new position lifts the ban (the emptied hash table makes the
    // search the same as the first).
    engine.send("setoption clearhash");
    engine.send("position startpos");
    engine.send("go depth 2");
    let third = answer(&mut engine).pop().unwrap();
    assert_eq!(third.split_whitespace().nth(1).unwrap(), best);
    // A ban of a move that is not legal is refused whole.
    engine.send("banmoves h2e2 a0a5");
    assert_eq!(messages(&sync(&mut engine)).len(), 1);
    // Every legal move banned: `nobestmove`, said why.
    engine.send("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    engine.send("banmoves e0e1 e0f0");
    engine.send("go depth 2");
    let lines = answer(&mut engine);
    assert_eq!(
        lines,
        [
            "info message every legal move here is banned (banmoves): there is no move to play",
            "nobestmove"
        ]
    );
}

#[test]
fn a_mated_side_has_no_best_move() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    // Red's b1b9 mates: the chariot on a8 holds rank 8.
    engine.send("position fen 4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1 moves b1b9");
    engine.send("go depth 3");
    let lines = answer(&mut engine);
    assert_eq!(lines.last().unwrap(), "nobestmove", "{lines:?}");
}

#[test]
fn a_draw_offer_is_taken_when_behind_and_a_lost_game_resigned() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    // Black's bare general against a chariot: Black is far behind.
    engine.send("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1");
    engine.send("go draw depth 3");
    let last = answer(&mut engine).pop().unwrap();
    assert!(
        last.ends_with(" draw") || last.ends_with(" resign"),
        "{last}"
    );
    // Red, far ahead, is offered a draw and plays on.
    engine.send("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    engine.send("go draw depth 3");
    let last = answer(&mut engine).pop().unwrap();
    assert_eq!(last.split_whitespace().count(), 2, "{last}");
    // After a0a8 Black is mated next move whatever it plays: it resigns.
    engine.send("position fen 4k4/9/9/9/9/9/9/9/1R7/R2K5 w - - 0 1 moves a0a8");
    engine.send("go depth 4");
    let last = answer(&mut engine).pop().unwrap();
    assert!(last.ends_with(" resign"), "{last}");
}

#[test]
fn bad_input_is_one_message_and_changes_nothing() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    engine.send("position startpos moves h2e2");
    let before = engine.fen();
    for line in ["fly", "setoption nosuchoption 3", "banmoves z9z8"] {
        engine.send(line);
        let lines = sync(&mut engine);
        assert_eq!(messages(&lines).len(), 1, "{line}: {lines:?}");
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
        assert_eq!(engine.fen(), before, "{line}");
    }
    // A go that cannot be read is answered all the same, with no move.
    for line in ["go time soon", "go fly 3", "go depth"] {
        engine.send(line);
        let lines = sync(&mut engine);
        assert_eq!(messages(&lines).len(), 1, "{line}: {lines:?}");
        assert_eq!(lines.len(), 2, "{line}: {lines:?}");
        assert_eq!(lines[1], "nobestmove", "{line}");
        assert_eq!(engine.fen(), before, "{line}");
    }
}

#[test]
fn a_refused_position_leaves_nothing_to_search() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    for line in [
        "position startpos moves h2e2 z9z8",
        "position startpos moves h2e2 h9h8",
        "position fen garbage",
    ] {
        engine.send("position startpos moves h2e2");
        sync(&mut engine);
        engine.send(line);
        assert_eq!(messages(&sync(&mut engine)).len(), 1, "{line}");
        engine.send("go depth 2");
        let lines = answer(&mut engine);
        assert_eq!(messages(&lines).len(), 1, "{line}: {lines:?}");
        assert_eq!(lines.last().unwrap(), "nobestmove", "{line}: {lines:?}");
        // probe has no position to read either.
        engine.send("probe");
        let lines = sync(&mut engine);
        assert!(lines.contains(&"pophash".to_string()), "{lines:?}");
    }
}

#[test]
fn every_go_form_is_answered_and_go_right_after_stop_starts() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    engine.send("position startpos");
    // movetime, in milliseconds as every time is by default.
    engine.send("go movetime 100");
    let last = answer(&mut engine).pop().unwrap();
    assert!(
        is_ucci_move(last.split_whitespace().nth(1).unwrap()),
        "{last}"
    );
    engine.send("go time 2000 increment 0 opptime 2000 oppincrement 0");
    let last = answer(&mut engine).pop().unwrap();
    assert!(last.starts_with("bestmove "), "{last}");
    // UCI's clocks by colour, from a GUI that speaks both (it was answered
    // `nobestmove`), for Red and for Black.
    for position in ["position startpos", "position startpos moves h2e2"] {
        engine.send(position);
        engine.send("go wtime 300 btime 300 winc 0 binc 0");
        let lines = answer(&mut engine);
        assert!(messages(&lines).is_empty(), "{lines:?}");
        let last = lines.last().unwrap();
        assert!(last.starts_with("bestmove "), "{last}");
    }
    for between in [&[][..], &["isready"][..]] {
        engine.send("go infinite");
        engine.read_until(|l| l.starts_with("info depth 1"));
        engine.send("stop");
        for line in between {
            engine.send(line);
        }
        engine.send("go depth 1");
        let mut lines = answer(&mut engine);
        lines.extend(answer(&mut engine));
        assert!(messages(&lines).is_empty(), "{lines:?}");
    }
}

#[test]
fn the_options_ucci_guis_send_are_taken_quietly() {
    let (mut engine, _dir) = ucci_engine(&[]);
    let lines = handshake(&mut engine);
    assert!(
        lines.contains(&"option usemillisec type check default true".to_string()),
        "{lines:?}"
    );
    for line in [
        "setoption usebook false",
        "setoption useegtb false",
        "setoption pruning true",
        "setoption knowledge true",
        "setoption evalapi eval.dll",
        "setoption egtbpaths null",
        "setoption usehash true",
        "setoption bookfiles book.dat",
        "setoption randomness none",
        "setoption usemillisec true",
    ] {
        engine.send(line);
        assert!(sync(&mut engine).is_empty(), "{line}");
    }
    // `usebook` is the GUI's book switch: plyd's OwnBook (it was taken
    // and ignored, a GUI's switch left the book on).
    for (sent, listed) in [("on", "true"), ("false", "false")] {
        engine.send(&format!("setoption usebook {sent}"));
        assert!(sync(&mut engine).is_empty(), "{sent}");
        let lines = handshake(&mut engine);
        assert!(
            lines.contains(&format!("option OwnBook type check default {listed}")),
            "{lines:?}"
        );
    }
    // `randomness` is plyd's Variety, in points; a word it does not know
    // is refused and leaves it.
    engine.send("setoption randomness large");
    assert!(sync(&mut engine).is_empty());
    engine.send("setoption randomness lots");
    let refused = sync(&mut engine);
    assert_eq!(
        messages(&refused),
        ["info message error: option 'randomness' takes none, tiny, small, medium, large or huge"],
        "{refused:?}"
    );
    let lines = handshake(&mut engine);
    assert!(
        lines.contains(&"option Variety type spin default 40 min 0 max 10000".to_string()),
        "{lines:?}"
    );
}

#[test]
fn a_repetition_verdict_with_moves_left_is_answered_by_a_move() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    // Red's chariot has followed Black's pawn across the river from a3 to
    // b3 and back, attacking it on every move: plyd's rules rule a
    // perpetual chase, a loss for Red, and say so, but Black still has
    // moves, and the GUI adjudicates.
    engine.send(
        "position fen 4k4/R8/9/9/9/9/p8/9/9/3K5 b - - 0 1 \
         moves a3b3 a8b8 b3a3 b8a8 a3b3 a8b8 b3a3 b8a8",
    );
    engine.send("go depth 4");
    let lines = answer(&mut engine);
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{lines:?}");
    assert!(
        is_ucci_move(last.split_whitespace().nth(1).unwrap()),
        "{last}"
    );
    assert!(
        lines.iter().any(|l| l
            == "info message plyd's rules judge this position: the side to move has won \
                 (third repetition, Red chased perpetually); \
                 a move is played all the same, for the arbiter to rule"),
        "{lines:?}"
    );
    // Red has checked perpetually and plyd's rules rule it lost: with the
    // checks forbidden, Black mates, and the score is a mate against Red.
    // A GUI whose rules differ plays on, so plyd does not resign on it.
    engine.send(
        "position fen 4ka3/R8/4n4/9/9/9/9/1r7/8r/3K5 w - - 0 1 \
         moves a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
    );
    engine.send("go depth 6");
    let lines = answer(&mut engine);
    let last = lines.last().unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 6 score -99")),
        "{lines:?}"
    );
    assert!(
        last.starts_with("bestmove ") && !last.contains("resign"),
        "{last}"
    );
    // A mate leaves no move: nobestmove, as before.
    engine.send("position fen 4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1 moves b1b9");
    engine.send("go depth 2");
    assert_eq!(answer(&mut engine).pop().unwrap(), "nobestmove");
}

#[test]
fn notes_are_info_message_lines_too() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    // The most threads plyd takes, more than the test machines have cores:
    // served, with one note.
    engine.send("setoption threads 256");
    let lines = sync(&mut engine);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info message Threads 256 is more than the "),
        "{lines:?}"
    );
}

#[test]
fn probe_answers_pophash_and_the_protocol_flag_needs_no_greeting() {
    let (mut engine, _dir) = ucci_engine(&["--protocol", "ucci"]);
    engine.send("isready");
    engine.read_until(|l| l == "readyok");
    assert_eq!(engine.fen(), START);
    // Nothing searched yet: the table knows nothing.
    engine.send("probe startpos");
    engine.read_until(|l| l == "pophash");
    // After a search, the table's entry for the position: its move (the
    // one played) and the score as bounds with their depth.
    engine.send("position startpos");
    engine.send("go depth 4");
    let best = answer(&mut engine).pop().unwrap();
    let best = best.split_whitespace().nth(1).unwrap().to_string();
    engine.send("probe");
    let pophash = engine
        .read_until(|l| l.starts_with("pophash"))
        .pop()
        .unwrap();
    let words: Vec<&str> = pophash.split_whitespace().collect();
    assert_eq!(
        words.get(1..3),
        Some(&["bestmove", best.as_str()][..]),
        "{pophash}"
    );
    assert!(
        pophash.contains(" lowerbound ") || pophash.contains(" upperbound "),
        "{pophash}"
    );
    assert!(pophash.contains(" depth 4"), "{pophash}");
    // A new game empties the table at once for probe, though the clear
    // itself waits for isready (off any clock).
    engine.send("setoption newgame");
    engine.send("probe");
    engine.read_until(|l| l == "pophash");
    engine.send("setoption usemillisec false");
    engine.send("position startpos");
    // One second for the whole move, in UCCI's seconds.
    engine.send("go time 1 opptime 1");
    let last = answer(&mut engine).pop().unwrap();
    assert!(
        is_ucci_move(last.split_whitespace().nth(1).unwrap()),
        "{last}"
    );
}

#[test]
fn ponder_waits_for_ponderhit_and_infinite_for_stop() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    engine.send("setoption usemillisec true");
    engine.send("position startpos moves h2e2");
    engine.send("go ponder time 300 opptime 300");
    // Pondering goes on until the GUI says: isready is answered meanwhile.
    let before = sync(&mut engine);
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    engine.send("ponderhit draw");
    let last = answer(&mut engine).pop().unwrap();
    assert!(last.starts_with("bestmove "), "{last}");
    engine.send("go depth infinite");
    let during = sync(&mut engine);
    assert!(
        !during.iter().any(|l| l.starts_with("bestmove")),
        "{during:?}"
    );
    engine.send("stop");
    let last = answer(&mut engine).pop().unwrap();
    assert!(
        is_ucci_move(last.split_whitespace().nth(1).unwrap()),
        "{last}"
    );
}

#[test]
fn a_go_during_perft_waits_for_it_and_perft_speaks_ucci() {
    let (mut e, _dir) = ucci_engine(&["--game", "xiangqi"]);
    handshake(&mut e);
    // A go sent during a perft waits for its count, then searches.
    e.send("go perft 3");
    e.send("go depth 1");
    let lines = answer(&mut e);
    let counted = lines
        .iter()
        .position(|l| l.starts_with("Nodes searched: "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert_eq!(lines[counted], "Nodes searched: 79666", "{lines:?}");
    assert!(messages(&lines).is_empty(), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    // A stopped perft says so in UCCI's words.
    e.send("go perft 7");
    std::thread::sleep(std::time::Duration::from_millis(100));
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info message perft stopped after ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
}

#[test]
fn a_game_named_but_not_loaded_leaves_ucci_on_xiangqi() {
    let (mut e, _dir) = ucci_engine(&["--game", "xiangqi9"]);
    handshake(&mut e);
    e.send("position startpos");
    e.send("go depth 1");
    let lines = answer(&mut e);
    let best = lines.last().unwrap();
    // A xiangqi move (four characters, files a-i, ranks 0-9), not Othello's.
    let mv = best
        .strip_prefix("bestmove ")
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(mv.len(), 4, "{lines:?}");
    assert!(mv.chars().nth(1).unwrap().is_ascii_digit(), "{lines:?}");
}

#[test]
fn an_option_error_names_the_ucci_option_sent() {
    let (mut e, _dir) = ucci_engine(&["--game", "xiangqi"]);
    handshake(&mut e);
    e.send("setoption hashsize abc");
    let lines = sync(&mut e);
    assert_eq!(
        messages(&lines),
        ["info message error: option 'hashsize' (Hash): 'abc' is not an integer between 1 and 65536"],
        "{lines:?}"
    );
}

#[test]
fn a_book_move_shows_its_line_and_the_word_book() {
    let (mut engine, dir) = ucci_engine(&[]);
    let book = dir.path().join("xiangqi.book");
    let out = book.display().to_string();
    let run = crate::common::run_plyd(
        dir.path(),
        &[
            "book", "--game", "xiangqi", "--out", &out, "--plies", "1", "--depth", "1",
        ],
    );
    assert!(run.status.success(), "{run:?}");
    handshake(&mut engine);
    engine.send(&format!("setoption BookFile {out}"));
    engine.send("setoption OwnBook true");
    let lines = sync(&mut engine);
    assert!(messages(&lines).is_empty(), "{lines:?}");
    engine.send("position startpos");
    engine.send("go time 60000 increment 1000");
    let lines = answer(&mut engine);
    // Its depth, score and line, as a searched move's; then the word (it
    // came as a bare `info message book`).
    let at = lines
        .iter()
        .position(|l| l == "info message book")
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(at > 0, "{lines:?}");
    let line = &lines[at - 1];
    assert!(line.starts_with("info depth 1 score "), "{lines:?}");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(line.contains(&format!(" pv {best}")), "{lines:?}");
}

#[cfg(unix)]
#[test]
fn a_path_sent_in_gbk_names_its_file() {
    use std::os::unix::ffi::OsStrExt;
    // A Chinese GUI on Windows sends a folder named 象棋 in GBK; the file
    // system here holds those bytes. The value was read as U+FFFD each.
    let (mut engine, dir) = ucci_engine(&[]);
    let gbk: &[u8] = b"\xcf\xf3\xc6\xe5";
    let folder = dir.path().join(std::ffi::OsStr::from_bytes(gbk));
    std::fs::create_dir(&folder).unwrap();
    let book = folder.join("xq.book");
    std::fs::write(
        &book,
        "plyd-book 1 xiangqi\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\th2e2 30 4\n",
    )
    .unwrap();
    handshake(&mut engine);
    let mut line = b"setoption BookFile ".to_vec();
    line.extend_from_slice(book.as_os_str().as_bytes());
    line.extend_from_slice(b"\r\n");
    engine.send_raw(&line);
    let lines = sync(&mut engine);
    assert!(messages(&lines).is_empty(), "{lines:?}");
    let shown = format!(
        "{}/象棋/xq.book: 1 position of xiangqi",
        dir.path().display()
    );
    assert!(
        lines.iter().any(|l| l.ends_with(&shown)),
        "{shown}: {lines:?}"
    );
    engine.send("setoption OwnBook true");
    engine.send("position startpos");
    engine.send("go depth 3");
    let lines = answer(&mut engine);
    assert!(
        lines.contains(&"info message book".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove h2e2");
    // A GBK name that is not there is named in Chinese, not as U+FFFD.
    engine.send_raw(b"setoption BookFile /nowhere/\xcf\xf3\xc6\xe5.book\n");
    let lines = sync(&mut engine);
    let errors = messages(&lines);
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("/nowhere/象棋.book"), "{lines:?}");
}

/// Several lines (`MultiPV`) are told apart by UCI's `multipv k`, which
/// UCCI lacks (each looked like the newest main line, the last one not
/// the move played), and `eval` speaks as UCCI's notes do: it answered in
/// UCI's `info string`.
#[test]
fn several_lines_are_numbered_and_eval_answers_in_messages() {
    let (mut engine, _dir) = ucci_engine(&[]);
    handshake(&mut engine);
    engine.send("setoption MultiPV 2");
    engine.send("position startpos moves h2e2");
    engine.send("go depth 2");
    let lines = answer(&mut engine);
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(scored.len() >= 4, "{lines:?}");
    for line in &scored {
        assert!(
            line.contains(" multipv 1 pv ") || line.contains(" multipv 2 pv "),
            "{line}"
        );
    }
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let first = scored
        .iter()
        .rev()
        .find(|l| l.contains(" multipv 1 "))
        .unwrap();
    assert!(first.contains(&format!(" pv {best}")), "{lines:?}");
    // One line, as UCCI GUIs have it: no such word.
    engine.send("setoption MultiPV 1");
    engine.send("go depth 2");
    let lines = answer(&mut engine);
    assert!(lines.iter().all(|l| !l.contains("multipv")), "{lines:?}");
    engine.send("eval");
    let lines = sync(&mut engine);
    assert!(lines.len() > 3, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("info message eval ")),
        "{lines:?}"
    );
    engine.send("quit");
}
