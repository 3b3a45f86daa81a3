//! GTP end to end for Othello: the real `plyd` binary driven as a GTP
//! controller drives a program under the GTP version 2 text — numbered and
//! plain commands, `=`/`?` answers ended by an empty line, a whole game of
//! `genmove`, `play`, `undo`, clocks and `final_score`, and refusals that
//! change nothing.

use crate::common;

use crate::common::{othello_dir, Engine, TempDir};

fn gtp_engine() -> (Engine, TempDir) {
    let dir = othello_dir();
    (Engine::start(dir.path(), &[], &[]), dir)
}

/// Send a command and read its answer: whether it succeeded, and its text
/// (the lines of the answer joined by newlines, the `=`/`?` and id gone).
fn ask(engine: &mut Engine, command: &str) -> (bool, String) {
    engine.send(command);
    let mut lines = engine.read_until(|l| l.is_empty());
    lines.pop();
    let first = lines.remove(0);
    let ok = first.starts_with('=');
    assert!(ok || first.starts_with('?'), "{command}: {first}");
    let head = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    assert!(head.is_empty() || head.starts_with(' '), "{first}");
    let mut text = head.trim().to_string();
    for line in lines {
        text.push('\n');
        text.push_str(&line);
    }
    (ok, text)
}

fn ok(engine: &mut Engine, command: &str) -> String {
    let (ok, text) = ask(engine, command);
    assert!(ok, "{command}: {text}");
    text
}

fn refused(engine: &mut Engine, command: &str) -> String {
    let (ok, text) = ask(engine, command);
    assert!(!ok, "{command} was accepted: {text}");
    text
}

fn is_square(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 2
        && (b'a'..=b'h').contains(&b[0].to_ascii_lowercase())
        && (b'1'..=b'8').contains(&b[1])
}

#[test]
fn the_administrative_commands_answer_in_gtp_form() {
    let (mut engine, _dir) = gtp_engine();
    assert_eq!(ok(&mut engine, "protocol_version"), "2");
    engine.send("7 name");
    assert_eq!(engine.read_until(|l| l.is_empty()), vec!["=7 plyd", ""]);
    assert_eq!(ok(&mut engine, "known_command genmove"), "true");
    assert_eq!(ok(&mut engine, "known_command fly"), "false");
    // Quarry asks which games an engine plays and picks one.
    assert_eq!(ok(&mut engine, "known_command list_games"), "true");
    assert_eq!(ok(&mut engine, "known_command set_game"), "true");
    assert_eq!(ok(&mut engine, "list_games"), "Othello");
    assert_eq!(ok(&mut engine, "set_game Othello"), "");
    assert_eq!(
        refused(&mut engine, "set_game Go"),
        "unsupported game (list_games: Othello)"
    );
    // A command missing its argument is a syntax error, said so.
    assert!(refused(&mut engine, "set_game").starts_with("syntax error: set_game needs a game"));
    assert!(refused(&mut engine, "known_command").starts_with("syntax error: known_command"));
    let commands = ok(&mut engine, "list_commands");
    for name in ["play", "genmove", "undo", "final_score", "showboard"] {
        assert!(commands.lines().any(|l| l == name), "{commands}");
    }
    ok(&mut engine, "boardsize 8");
    assert_eq!(refused(&mut engine, "boardsize 19"), "unacceptable size");
    ok(&mut engine, "komi 0");
    engine.send("quit");
    engine.read_until(|l| l.is_empty());
    assert!(engine.wait_exit(common::PATIENCE).is_some());
}

#[test]
fn a_full_game_of_genmove_ends_with_the_score() {
    let (mut engine, _dir) = gtp_engine();
    ok(&mut engine, "boardsize 8");
    ok(&mut engine, "clear_board");
    ok(&mut engine, "time_settings 8 0 0");
    let mut passes_in_a_row = 0;
    let mut plies = 0;
    for turn in 0..200 {
        let color = if turn % 2 == 0 { "b" } else { "w" };
        let mv = ok(&mut engine, &format!("genmove {color}"));
        if mv.eq_ignore_ascii_case("pass") {
            passes_in_a_row += 1;
            if passes_in_a_row == 2 {
                break;
            }
        } else {
            assert!(is_square(&mv), "{mv}");
            passes_in_a_row = 0;
            plies += 1;
        }
        ok(&mut engine, &format!("time_left {color} 4 0"));
    }
    assert_eq!(passes_in_a_row, 2, "the game did not end");
    assert!(plies >= 9, "{plies}");
    let score = ok(&mut engine, "final_score");
    let board = ok(&mut engine, "showboard");
    // The rows of the board are the lines that start with their number.
    let rows: String = board
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    let black = rows.matches('X').count() as i32;
    let white = rows.matches('O').count() as i32;
    assert!(black + white > 4, "{board}");
    // The end is said as `d` says it.
    assert!(
        board.lines().last().unwrap().starts_with("Result: "),
        "{board}"
    );
    let expected = if black == white {
        "0".to_string()
    } else if black > white {
        format!("B+{}", 64 - 2 * white)
    } else {
        format!("W+{}", 64 - 2 * black)
    };
    assert_eq!(score, expected, "{board}");
}

#[test]
fn play_and_undo_move_the_game_and_back() {
    let (mut engine, _dir) = gtp_engine();
    ok(&mut engine, "clear_board");
    let start = ok(&mut engine, "showboard");
    ok(&mut engine, "play b d3");
    let after = ok(&mut engine, "showboard");
    assert_ne!(after, start);
    ok(&mut engine, "play white C3");
    ok(&mut engine, "undo");
    assert_eq!(ok(&mut engine, "showboard"), after);
    ok(&mut engine, "undo");
    assert_eq!(ok(&mut engine, "showboard"), start);
    refused(&mut engine, "undo");
    // White answers after Black's move.
    ok(&mut engine, "play b d3");
    let reply = ok(&mut engine, "genmove w");
    assert!(is_square(&reply), "{reply}");
}

#[test]
fn bad_commands_are_refused_and_change_nothing() {
    let (mut engine, _dir) = gtp_engine();
    ok(&mut engine, "clear_board");
    ok(&mut engine, "play b d3");
    let before = ok(&mut engine, "showboard");
    for command in [
        "fly",
        "play b z9",
        "play w a1",
        "play purple c3",
        "play w",
        "genmove",
        "time_left b soon 0",
    ] {
        let text = refused(&mut engine, command);
        assert!(
            !text.is_empty() && !text.contains('\n'),
            "{command}: {text}"
        );
        assert_eq!(ok(&mut engine, "showboard"), before, "{command}");
    }
    assert_eq!(
        refused(&mut engine, "3 fly"),
        "unknown command 'fly' (list_commands lists the commands)"
    );
    // Black is not on move, and has a move of its own: refused.
    refused(&mut engine, "play b c5");
    assert_eq!(ok(&mut engine, "showboard"), before);
}

#[test]
fn commands_sent_ahead_of_an_answer_are_answered_in_order() {
    let (mut engine, _dir) = gtp_engine();
    engine.send("1 clear_board");
    engine.send("2 genmove b");
    engine.send("3 showboard");
    engine.send("4 final_score");
    let lines = engine.read_until(|l| l.starts_with("=4"));
    let answers: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with('=') || l.starts_with('?'))
        .collect();
    assert_eq!(answers.len(), 4, "{lines:?}");
    assert_eq!(answers[0].trim_end(), "=1");
    assert!(answers[1].starts_with("=2 "), "{lines:?}");
    assert!(is_square(answers[1][3..].trim()), "{lines:?}");
    assert_eq!(answers[2].trim_end(), "=3");
    // After Black's first move Black has 4 discs and White 1.
    assert_eq!(answers[3], "=4 B+3");
}

/// GTP's commands are Othello's: a daemon given another game plays
/// Othello once GTP is spoken, and `--protocol gtp` with another game is
/// refused before it starts.
#[test]
fn gtp_plays_othello_whatever_game_was_given() {
    let dir = common::plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_amazons", "amazons"),
    ]);
    let mut engine = Engine::start(dir.path(), &["--game", "amazons8"], &[]);
    assert_eq!(ok(&mut engine, "list_games"), "Othello");
    ok(&mut engine, "play black f5");
    assert!(is_square(&ok(&mut engine, "genmove white")));
    let out = common::run_plyd(dir.path(), &["--protocol", "gtp", "--game", "amazons8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("plyd: GTP plays Othello here, not amazons8; leave the game unnamed"));
}

#[test]
fn time_left_refuses_what_is_not_a_time_and_quit_stops_genmove() {
    let (mut e, _dir) = gtp_engine();
    ok(&mut e, "protocol_version");
    for bad in ["nan", "inf", "1e400", "-1", "abc"] {
        let text = refused(&mut e, &format!("time_left b {bad} 0"));
        assert!(text.starts_with("syntax error: time_left"), "{bad}: {text}");
    }
    ok(&mut e, "time_left b 12.5 0");
    // Ten minutes to think: `quit` stops the search, whose move is still
    // answered, and then quits.
    ok(&mut e, "time_settings 600 0 0");
    e.send("genmove b");
    std::thread::sleep(std::time::Duration::from_millis(200));
    e.send("quit");
    let lines = e.read_until(|l| l.trim_end() == "=");
    assert!(
        lines.first().is_some_and(|l| is_square(&l[2..])),
        "{lines:?}"
    );
    let status = e.wait_exit(std::time::Duration::from_secs(20));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

/// `undo` takes back one command: a `genmove` (or `play`) for the colour
/// not on move, where the side on move can only pass, plays that pass
/// first, and one `undo` takes back both; after the game's end a relayed
/// `pass` is accepted, as GTP has a pass always legal, and `undo` takes it
/// back alone.
#[test]
fn undo_takes_back_one_command_and_a_pass_after_the_end_is_accepted() {
    let (mut e, _dir) = gtp_engine();
    let colours = ["black", "white"];
    // Black, to move after these, can only pass.
    for (i, mv) in "d3 c3 e6 d2 d1 e1 b2 c1".split(' ').enumerate() {
        ok(&mut e, &format!("play {} {mv}", colours[i % 2]));
    }
    ok(&mut e, "play white d6");
    ok(&mut e, "undo");
    let board = ok(&mut e, "showboard");
    assert!(
        board.contains("Black (X) to move") && board.contains("Legal: pass"),
        "{board}"
    );
    ok(&mut e, "undo");
    let board = ok(&mut e, "showboard");
    assert!(
        board.contains("White (O) to move") && board.contains("Legal: c1 b4 d6"),
        "{board}"
    );
    // A wipe-out in 11 plies, Black winning: passes after it.
    ok(&mut e, "clear_board");
    for (i, mv) in "e6 f6 d3 e3 g6 e7 f2 c2 e8 f5 b1".split(' ').enumerate() {
        ok(&mut e, &format!("play {} {mv}", colours[i % 2]));
    }
    assert_eq!(ok(&mut e, "genmove white"), "pass");
    ok(&mut e, "play white pass");
    ok(&mut e, "play black pass");
    ok(&mut e, "undo");
    assert_eq!(ok(&mut e, "final_score"), "B+64");
}

/// A comment before the first command chooses no protocol (GTP's
/// comments were read as an unknown UCI command, and the controller waited
/// for ever); a refusal quotes a long input cut, as every dialect's errors.
#[test]
fn a_comment_first_chooses_nothing_and_a_refusal_cuts_a_long_quotation() {
    let (mut e, _dir) = gtp_engine();
    e.send("# a controller's comment");
    assert_eq!(ok(&mut e, "name"), "plyd");
    let long = "y".repeat(100_000);
    let (answered, text) = ask(&mut e, &long);
    assert!(!answered);
    assert!(
        text.len() < 1_000 && text.contains("(100000 bytes in all)"),
        "{} bytes: {}",
        text.len(),
        &text[..text.len().min(400)]
    );
}

/// A line too long to be read (over 8 MiB) was a command: it is answered
/// `?` (with no id, since it was not read), and the next command with its
/// own.
#[test]
fn a_line_too_long_to_read_is_answered() {
    let (mut e, _dir) = gtp_engine();
    assert_eq!(ok(&mut e, "name"), "plyd");
    e.send(&format!("5 name {}", "x".repeat(9 << 20)));
    let lines = e.read_until(|l| l.is_empty());
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("? a line of ")
            && lines[0].ends_with(" bytes was skipped: lines are limited to 8 MiB"),
        "{lines:?}"
    );
    assert_eq!(ok(&mut e, "2 version"), env!("CARGO_PKG_VERSION"));
}

/// `clear_board` starts a new game as `ucinewgame` does, telling the
/// evaluator: one that panics there is named in the answer, and the board
/// is cleared all the same.
#[test]
fn clear_board_tells_the_evaluator_a_new_game_begins() {
    let dir = othello_dir();
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let mut engine = Engine::start(
        dir.path(),
        &["--option", "Evaluator=odd"],
        &[("PLYD_TEST_EVAL", "new-game-panic")],
    );
    ok(&mut engine, "play b d3");
    let text = refused(&mut engine, "clear_board");
    assert!(text.contains("panicked in new_game"), "{text}");
    // Cleared: d3 is Black's again.
    ok(&mut engine, "play b d3");
    ok(&mut engine, "clear_board");
    ok(&mut engine, "play b d3");
}

/// `clear_board` empties the table before it answers: GTP has no
/// `isready`, and a clocked `genmove` kept the last game's table (said
/// in the log) rather than clear it on its clock.
#[test]
fn clear_board_empties_the_table_before_any_clock() {
    let dir = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut command = crate::common::plyd_command(dir.path());
    command.args(["--protocol", "gtp"]).env("RUST_LOG", "info");
    let out = crate::common::output_with_input(
        &mut command,
        b"time_settings 5 0 0\ngenmove b\nclear_board\ngenmove b\nquit\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.matches("= ").count() + stdout.matches("=\n").count(),
        5,
        "{stdout}"
    );
    assert!(!stderr.contains("the table is kept"), "{stderr}");
}

/// `showboard` where Black must pass writes the pass as GTP does.
#[test]
fn showboard_writes_a_forced_pass_as_gtp_does() {
    let moves = "d3 c3 b3 e3 f3 c5 f6 g2 b5 c6 f4 a5 h1 f5 d6 e7 d7 e6 d8 c4 c7 b7 a8 b6 a4 f8 \
                 g4 b4 e8 a3 a7 g5 g8 c2 h4 g3 a2 h3 c1 d1 d2 e1 f1 f7 a6 h6 e2 b8 g7 c8 h5 g6 \
                 h2 h7 h8 g1 b2 f2";
    let mut input = String::from("clear_board\n");
    for (i, mv) in moves.split_whitespace().enumerate() {
        let colour = if i % 2 == 0 { "b" } else { "w" };
        input.push_str(&format!("play {colour} {mv}\n"));
    }
    input.push_str("showboard\nquit\n");
    let dir = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut command = crate::common::plyd_command(dir.path());
    command.args(["--protocol", "gtp"]);
    let out = crate::common::output_with_input(&mut command, input.as_bytes());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("? "), "{stdout}");
    assert!(stdout.contains("Legal: pass\n"), "{stdout}");
    assert!(!stdout.contains("0000"), "{stdout}");
}
