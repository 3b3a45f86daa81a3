//! End-to-end conversations with the real plyd binary playing Othello.

use std::time::Duration;

use crate::common::{
    assert_info_well_formed, errors, last_number, number_after, othello_dir, output_with_input,
    plugin_dir, plyd_command, Engine, PATIENCE,
};

const START: &str = "8/8/8/3OX3/3XO3/8/8/8 b";
/// Black's four opening moves (a1 top-left, rows numbered downwards).
const OPENING_MOVES: [&str; 4] = ["d3", "c4", "f5", "e6"];

fn bestmove_of(lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    last.split_whitespace()
        .nth(1)
        .expect("a move after bestmove")
        .to_string()
}

fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// Run each named conversation twice, as `<name>::pvs` and `<name>::mcts`:
/// once with each `SearchMode`, since every promise of the protocol holds
/// for both searches.
macro_rules! in_both_modes {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[test]
                fn pvs() {
                    super::$name("pvs")
                }
                #[test]
                fn mcts() {
                    super::$name("mcts")
                }
            }
        )*
    };
}

in_both_modes!(
    go_depth_reports_each_iteration_and_one_legal_bestmove,
    bestmove_carries_ponder_move_from_the_pv,
    go_movetime_ends_by_itself,
    go_movetime_then_stop_gives_one_bestmove,
    go_infinite_waits_for_stop_and_isready_is_answered_meanwhile,
    words_of_a_go_that_are_no_keyword_are_named,
    quit_during_search_exits,
    ponder_then_ponderhit_or_stop,
    clock_based_go_finishes,
    searchmoves_restricts_the_root,
    go_nodes_is_deterministic_across_ucinewgame,
    game_over_gives_bestmove_none,
    forced_pass_is_played_as_0000,
    a_bare_go_at_a_forced_pass_waits_for_stop,
    one_searchmove_under_a_clock_is_searched_on_its_time,
    a_lone_legal_move_under_a_clock_is_answered_after_a_look,
    malformed_lines_get_one_error_each_and_change_nothing,
    illegal_moves_and_bad_positions_are_refused_whole,
    go_while_searching_is_refused_and_stop_when_idle_is_harmless,
    go_right_after_stop_starts_the_new_search,
    self_play_games_run_to_the_end_with_only_legal_moves,
    hash_threads_and_multipv_change_between_searches,
);

#[test]
fn handshake_lists_identity_and_options() {
    let (mut e, _dir) = Engine::othello();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name plyd "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "option name UCI_Variant type combo default othello var othello",
        "option name Evaluator type combo default patterns",
        "option name Hash type spin default 16 min 1 max",
        "option name Threads type spin default 1 min 1 max",
        "option name Clear Hash type button",
        "option name Move Overhead type spin default 10 min 0 max",
        "option name PluginPath type string default ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "missing '{option}' in {lines:#?}"
        );
    }
    assert!(e.sync().is_empty());
}

#[test]
fn options_are_checked_and_variant_change_is_announced() {
    let (mut e, _dir) = Engine::othello();
    e.send("setoption name Hash value 64");
    e.send("setoption name Threads value 2");
    e.send("setoption name Move Overhead value 30");
    e.send("setoption name Clear Hash");
    e.send("setoption name Evaluator value seed004");
    assert_eq!(e.sync(), ["info string evaluator seed004"]);

    e.send("setoption name UCI_Variant value othello");
    let lines = e.sync();
    assert_eq!(
        lines,
        vec![format!("info string variant othello startpos {START}")]
    );

    for bad in [
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threads value 100000",
        "setoption name Evaluator value nosuch",
        "setoption name UCI_Variant value chess",
        "setoption name Colour value blue",
        "setoption name Hash",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(
            errors(&lines).len(),
            1,
            "'{bad}' should give one error line: {lines:?}"
        );
        assert_eq!(lines.len(), 1, "{lines:?}");
    }
    // Still playing, position untouched.
    assert_eq!(e.fen(), START);
}

#[test]
fn position_with_moves_and_display() {
    let (mut e, _dir) = Engine::othello();
    assert_eq!(e.fen(), START);
    e.send("position startpos moves f5");
    assert_eq!(e.fen(), "8/8/8/3OX3/3XXX2/8/8/8 w");
    e.send("position startpos moves f5 d6");
    assert_eq!(e.fen(), "8/8/8/3OX3/3OXX2/3O4/8/8 b");
    e.send("position fen 8/8/8/3OX3/3OXX2/3O4/8/8 b moves c3");
    assert_eq!(e.fen(), "8/8/2X5/3XX3/3OXX2/3O4/8/8 w");
    // The Edax/NBoard board string is accepted too.
    e.send("position fen ---------------------------OX------XO--------------------------- X");
    assert_eq!(e.fen(), START);
    e.send("d");
    let lines = e.read_until(|l| l.starts_with("Key: "));
    assert!(
        lines.len() >= 10,
        "a board picture, Fen and Key: {lines:#?}"
    );
    assert!(errors(&lines).is_empty());
}

/// `d` lists the moves that may be played, one word each, in every game
/// (a roll's outcomes at EinStein's chance node), none at the game's end,
/// and is answered during a search: a GUI's legal moves while it analyses.
#[test]
fn d_lists_the_moves_in_every_game_and_during_a_search() {
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_einstein", "einstein"),
    ]);
    let mut e = Engine::start(dir.path(), &[], &[]);
    let moves = |e: &mut Engine| -> String {
        e.send("d");
        let lines = e.read_until(|l| l.starts_with("Key: "));
        assert!(errors(&lines).is_empty(), "{lines:?}");
        lines
            .iter()
            .find(|l| l.starts_with("Moves:"))
            .unwrap_or_else(|| panic!("{lines:?}"))
            .clone()
    };
    assert_eq!(moves(&mut e), "Moves: d3 c4 f5 e6");
    e.send("position fen 8/8/8/3XX3/3XX3/8/8/8 w");
    assert_eq!(moves(&mut e), "Moves:");
    e.send("position startpos moves f5");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth "));
    assert_eq!(moves(&mut e), "Moves: f4 d6 f6");
    e.send("stop");
    e.until_bestmove();
    e.send("setoption name UCI_Variant value einstein");
    e.send("position startpos moves s123456 s123456");
    assert_eq!(moves(&mut e), "Moves: r1 r2 r3 r4 r5 r6");
}

/// A move list may run a game's moves together, as Othello transcripts
/// write them, forced passes left out included: the same position as the
/// moves one by one. A word that stops reading is refused whole, saying
/// how far it read, and leaves no position.
#[test]
fn moves_written_together_are_read_as_a_transcript_is() {
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let mut e = Engine::start(dir.path(), &[], &[]);
    let game = "d3 c5 d6 e3 f3 e2 f5 f4 f1 f2 g4 e6 c4 f6 g3 c6 g5 e1 d1 c2 d2 g6 b3 c3 g1 h5 h6 \
                h7 b4 h4 b5 h3 c7 a4 a5 a6 b6 h2 e7 f7 f8 e8 d8 c8 b7 g8 b8 a8 d7 c1 b1 a7 b2 a3 \
                a2 a1 0000 h1 0000 g2 0000 g7";
    e.send(&format!("position startpos moves {game}"));
    let one_by_one = e.fen();
    let transcript: String = game.split(' ').filter(|m| *m != "0000").collect();
    e.send(&format!("position startpos moves {transcript}"));
    assert!(e.sync().is_empty(), "refused");
    assert_eq!(e.fen(), one_by_one);
    // Words of several moves among single ones, upper case as transcripts
    // often are.
    e.send("position startpos moves F5D6 c3 D3C4F4");
    assert_eq!(e.fen(), "8/8/2XO4/2XXXO2/3OOX2/3O4/8/8 b");
    e.send("position startpos moves f5d6c3zz");
    let refused = e.sync();
    assert!(
        refused
            .iter()
            .any(|l| l.contains("move 1 ('f5d6c3zz') rejected")
                && l.contains("its first 3 are legal here and what follows them is not")),
        "{refused:?}"
    );
    e.send("go depth 1");
    let lines = e.until_bestmove();
    assert_eq!(bestmove_of(&lines), "(none)", "{lines:?}");
    // Xiangqi's four-character moves run together too.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h2e2 h9g7");
    let one_by_one = e.fen();
    e.send("position startpos moves h2e2h9g7");
    assert_eq!(e.fen(), one_by_one);
}

fn go_depth_reports_each_iteration_and_one_legal_bestmove(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
    for (i, line) in infos.iter().enumerate() {
        assert_info_well_formed(line);
        assert!(
            line.starts_with(&format!("info depth {} ", i + 1)),
            "{line}"
        );
        for key in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
            assert!(line.contains(key), "'{key}' missing in {line}");
        }
    }
    assert_eq!(infos.len(), 4, "{lines:#?}");
    assert!(
        OPENING_MOVES.contains(&bestmove_of(&lines).as_str()),
        "{lines:?}"
    );
    assert_eq!(count_bestmoves(&lines), 1);
    assert!(e.sync().is_empty(), "nothing after the bestmove");
}

fn bestmove_carries_ponder_move_from_the_pv(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go depth 3");
    let lines = e.until_bestmove();
    let last = lines.last().unwrap();
    let tokens: Vec<&str> = last.split(' ').collect();
    assert_eq!(tokens.len(), 4, "{last}");
    assert_eq!(tokens[2], "ponder");
    let pv_line = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    let pv: Vec<&str> = pv_line.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!((pv[0], pv[1]), (tokens[1], tokens[3]), "{lines:?}");
}

fn go_movetime_ends_by_itself(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go movetime 300");
    let lines = e.until_bestmove();
    assert!(OPENING_MOVES.contains(&bestmove_of(&lines).as_str()));
    assert_eq!(count_bestmoves(&lines), 1);
    // A fixed time already spent (a referee's clock gone negative) is a
    // move at once, not a refused go and no move.
    e.send("go movetime -5");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(
        OPENING_MOVES.contains(&bestmove_of(&lines).as_str()),
        "{lines:?}"
    );
}

fn go_movetime_then_stop_gives_one_bestmove(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go movetime 20000");
    e.read_until(|l| l.starts_with("info depth 2"));
    e.send("stop");
    let lines = e.until_bestmove();
    assert_eq!(count_bestmoves(&lines), 1);
    assert!(e.sync().is_empty());
}

/// The lines a search sends until 300 ms pass without one (at most a
/// thousand): a search left to run on its own.
fn lines_until_quiet(e: &mut Engine) -> Vec<String> {
    let mut lines = Vec::new();
    while let Some(line) = e.next_line(Duration::from_millis(300)) {
        lines.push(line);
        if lines.len() > 1000 {
            break;
        }
    }
    lines
}

fn go_infinite_waits_for_stop_and_isready_is_answered_meanwhile(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth 3"));
    // readyok comes while the search is still running.
    let before_ready = e.sync();
    assert_eq!(count_bestmoves(&before_ready), 0, "{before_ready:?}");
    // And it keeps running on its own for a while.
    let quiet = lines_until_quiet(&mut e);
    assert_eq!(
        count_bestmoves(&quiet),
        0,
        "infinite search ended by itself: {quiet:?}"
    );
    e.send("stop");
    let lines = e.until_bestmove();
    assert!(OPENING_MOVES.contains(&bestmove_of(&lines).as_str()));
    assert!(e.sync().is_empty(), "exactly one bestmove");
}

/// `go movetime100` (a space left out): the word is named in one error
/// line that says the search has no limit left; it searches until `stop`.
/// Words skipped beside a limit are named, and the limit holds.
fn words_of_a_go_that_are_no_keyword_are_named(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go movetime100");
    let lines = e.read_until(|l| l.starts_with("info string error"));
    assert_eq!(
        lines.last().unwrap(),
        "info string error: go: 'movetime100' skipped, not a go keyword or its value: \
         no limit is left, so this search runs until stop"
    );
    e.send("stop");
    let lines = e.until_bestmove();
    assert!(OPENING_MOVES.contains(&bestmove_of(&lines).as_str()));
    e.send("go depth 2 foo 7");
    let lines = e.until_bestmove();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert_eq!(
        told[0],
        "info string error: go: 'foo', '7' skipped, not a go keyword or its value"
    );
}

/// A person at a terminal: `help` lists the commands, a command in the
/// wrong case or an unknown one points to what was meant, a strength
/// option names the limits that weaken the play, and a bare `go` says it
/// runs until `stop`.
#[test]
fn a_person_typing_is_pointed_to_what_was_meant() {
    let (mut e, _dir) = Engine::othello_in("pvs");
    e.send("help");
    let lines = e.sync();
    assert!(lines.len() >= 4, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    assert!(lines[0].contains("position startpos|fen"), "{lines:?}");
    for (line, said) in [
        (
            "Go depth 1",
            "unknown command 'Go' (commands are lower case: go)",
        ),
        ("hint", "unknown command 'hint' (help lists the commands)"),
        (
            "setoption name UCI_Elo value 1500",
            "unknown option 'UCI_Elo' (plyd's strength setting is Skill Level, 0 to 20",
        ),
    ] {
        e.send(line);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
        assert!(
            lines[0].starts_with(&format!("info string error: {said}")),
            "{line}: {lines:?}"
        );
    }
    // A move in the full-width forms of a Chinese input method.
    e.send("position startpos moves ｆ５");
    e.send("d");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: ") && l.ends_with(" w")),
        "{lines:?}"
    );
    e.send("position startpos");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("info string go:"));
    assert_eq!(
        lines.last().unwrap(),
        "info string go: no limit given (depth, nodes, movetime, a clock): this search runs \
         until stop, as go infinite does"
    );
    e.send("stop");
    let lines = e.until_bestmove();
    assert!(OPENING_MOVES.contains(&bestmove_of(&lines).as_str()));
}

/// `help` in the other dialects lists their own commands, and a hint
/// points to the command a dialect has (GTP's `list_commands`); a word
/// already in lower case gets no case hint.
#[test]
fn each_dialect_helps_in_its_own_words() {
    let plugins = othello_dir();
    let session = |protocol: &str| {
        let out = output_with_input(
            plyd_command(plugins.path()).args(["--protocol", protocol]),
            b"help\nHelp\nShowboard\nquit\n",
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let ucci = session("ucci");
    assert!(
        ucci.starts_with("info message commands (lower case): ucci, isready,")
            && ucci.contains("banmoves")
            && ucci.contains(
                "info message error: unknown command 'Help' (commands are lower case: help)"
            )
            && ucci.contains("unknown command 'Showboard' (help lists the commands)"),
        "{ucci}"
    );
    let ugi = session("ugi");
    assert!(
        ugi.starts_with("info string commands (lower case): ugi, isready, uginewgame,")
            && ugi.contains("query p1turn|gameover|result"),
        "{ugi}"
    );
    let gtp = session("gtp");
    assert!(
        gtp.starts_with("? unknown command 'help' (list_commands lists the commands)\n")
            && gtp.contains("? unknown command 'Showboard' (commands are lower case: showboard)"),
        "{gtp}"
    );
}

/// A person at a terminal is greeted with one protocol line naming the
/// game and `help`; a GUI on a pipe is not (every other test here).
#[test]
#[cfg(target_os = "linux")]
fn a_terminal_is_greeted() {
    use std::os::fd::FromRawFd;
    let plugins = othello_dir();
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes the two descriptors it opens.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "no pseudo-terminal");
    // SAFETY: descriptors openpty just opened, each owned once here.
    let (mut typed, terminal) = unsafe {
        (
            std::fs::File::from_raw_fd(master),
            std::process::Stdio::from_raw_fd(slave),
        )
    };
    let child = plyd_command(plugins.path())
        .stdin(terminal)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut typed, b"quit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().next(),
        Some("info string plyd 0.1.0, playing othello: help lists the commands, quit ends"),
        "{stdout}"
    );
}

/// A stdout that is non-blocking (a socket of an event loop, a pipe its
/// parent set `O_NONBLOCK` on) and full while the GUI does not read is
/// waited for: every answer arrives, the `bestmove` included. The writes
/// refused with `EAGAIN` were dropped, without a word.
#[test]
#[cfg(target_os = "linux")]
fn a_full_non_blocking_stdout_loses_no_answer() {
    use std::io::{Read, Write};
    use std::os::fd::FromRawFd;
    let plugins = othello_dir();
    let mut fds = [0i32; 2];
    // SAFETY: pipe writes the two descriptors it opens into the array.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the descriptors just opened; the write end made non-blocking
    // and as small as the system allows, each owned once below.
    let (mut reader, writer) = unsafe {
        let flags = libc::fcntl(fds[1], libc::F_GETFL);
        libc::fcntl(fds[1], libc::F_SETFL, flags | libc::O_NONBLOCK);
        libc::fcntl(fds[1], libc::F_SETPIPE_SZ, 4096);
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::process::Stdio::from_raw_fd(fds[1]),
        )
    };
    let mut child = plyd_command(plugins.path())
        .stdin(std::process::Stdio::piped())
        .stdout(writer)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(b"uci\nuci\nisready\nposition startpos\ngo movetime 300\n")
        .unwrap();
    // Nothing read while the search runs: the pipe fills.
    std::thread::sleep(Duration::from_millis(1000));
    let reading = std::thread::spawn(move || {
        let mut out = String::new();
        reader.read_to_string(&mut out).unwrap();
        out
    });
    std::thread::sleep(Duration::from_millis(300));
    input.write_all(b"quit\n").unwrap();
    drop(input);
    child.wait().unwrap();
    let out = reading.join().unwrap();
    assert_eq!(out.lines().filter(|l| *l == "uciok").count(), 2, "{out}");
    assert_eq!(out.lines().filter(|l| *l == "readyok").count(), 1, "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{out}"
    );
}

/// Passes in hand play: a square typed where the person can only pass is
/// refused, not played for plyd after an implied pass; plyd's own pass is
/// said; a game the person's move ends is told as won or lost.
#[test]
fn hand_play_says_passes_and_who_won() {
    let (mut e, _dir) = Engine::othello();
    let pass_only = "2OOOO2/OXXXXX2/OOXOX3/OXOXX3/OOXXX3/OXXXX3/O1XX4/2OOO3 b";
    e.send(&format!("position fen {pass_only}"));
    e.send("play g3");
    let lines = e.sync();
    assert_eq!(
        lines,
        [
            "info string error: play: 'g3' is not played: the side to move has no move but a \
          pass here; play 0000 to pass"
        ]
    );
    assert_eq!(e.fen(), pass_only);
    // plyd, White, has no move after g8: it passes, and h8 ends the game.
    e.send("position fen XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXOO/XXXXXX2 b");
    e.send("play g8");
    assert_eq!(e.until_bestmove().last().unwrap(), "bestmove 0000");
    assert_eq!(e.sync(), ["info string plyd passes: it has no move"]);
    e.send("play h8");
    assert_eq!(
        e.sync(),
        ["info string game over: you win (Black has 64 discs, White 0)"]
    );
    // The person's last move loses.
    e.send(
        "position fen OOOOOOOO/OOXOOOOO/OOXOOOOO/OOXOOOOO/OOXOOOOO/OOXOOOOO/OOOOOOOO/OOOO1OOO b",
    );
    e.send("play e8");
    assert_eq!(
        e.sync(),
        ["info string game over: plyd wins (White has 57 discs, Black 7)"]
    );
    // A new position is another game: the side the person played before
    // (Black) is not taken for theirs; a game over there is told as the
    // rules say it, not as the last game's "you win".
    e.send(
        "position fen XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX w",
    );
    e.send("play a1");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("you win") && !l.contains("plyd wins")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("game over: the side to move has lost")),
        "{lines:?}"
    );
}

/// One move typed as two words (`play d3 c3`'s squares apart) is refused
/// with the play written again, the two joined, where they are legal so.
#[test]
fn a_move_typed_as_two_words_is_shown_joined() {
    let dir = crate::common::plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("position startpos");
    e.send("play h2 e2");
    let lines = e.sync();
    assert!(
        lines[0].ends_with("(one move typed as two words? play h2e2)"),
        "{lines:?}"
    );
    e.send("play h2e2 h9 g7");
    let lines = e.sync();
    assert!(
        lines[0].ends_with("(one move typed as two words? play h2e2 h9g7)"),
        "{lines:?}"
    );
    // Nothing was played.
    assert!(e.fen().starts_with("rnbakabnr/9/1c5c1/"), "{}", e.fen());
    // Two words that are no move together get no hint.
    e.send("play a3 b9");
    let lines = e.sync();
    assert!(!lines[0].contains("two words"), "{lines:?}");
}

/// `play` goes on from the game kept (a `position` line's, or the plays
/// before), and plyd's reply joins it; `undo` takes plays back, replies
/// and all; a refused move changes nothing.
#[test]
fn a_person_plays_with_play_and_undo() {
    let (mut e, _dir) = Engine::othello();
    let first_legal = |e: &mut Engine| -> String {
        e.send("d");
        let lines = e.sync();
        let legal = lines
            .iter()
            .find_map(|l| l.strip_prefix("Legal: "))
            .unwrap_or_else(|| panic!("{lines:?}"));
        legal.split(' ').next().unwrap().to_string()
    };
    e.send("play f5");
    let reply = bestmove_of(&e.until_bestmove());
    // Black's f5, then White's reply: Black to move again.
    let after_reply = e.fen();
    assert!(after_reply.ends_with(" b"), "{after_reply}");
    assert_ne!(after_reply, START);
    // The same game as a position line reaches the same position.
    e.send(&format!("position startpos moves f5 {reply}"));
    assert_eq!(e.fen(), after_reply);
    let mine = first_legal(&mut e);
    e.send(&format!("play {mine}"));
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // Undone, the play and its reply: the position line's game again.
    e.send("undo");
    assert!(errors(&e.sync()).is_empty());
    assert_eq!(e.fen(), after_reply);
    // No play left since the position line; the position stays.
    e.send("undo");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("undo: no play to take back"), "{lines:?}");
    assert_eq!(e.fen(), after_reply);
    // An illegal move: refused, the position kept, no search.
    e.send("play a1");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("play: move 3 ('a1') rejected"),
        "{lines:?}"
    );
    assert_eq!(e.fen(), after_reply);
    // Two plays taken back at once.
    e.send("position startpos");
    for _ in 0..2 {
        let mine = first_legal(&mut e);
        e.send(&format!("play {mine}"));
        e.until_bestmove();
    }
    e.send("undo 2");
    assert!(errors(&e.sync()).is_empty());
    assert_eq!(e.fen(), START);
    // More than were played: every play taken back, said.
    let mine = first_legal(&mut e);
    e.send(&format!("play {mine}"));
    e.until_bestmove();
    e.send("undo 10");
    assert_eq!(
        e.sync(),
        ["info string undo: 2 moves taken back (every play since the last position line: 1 play)"]
    );
    assert_eq!(e.fen(), START);
}

/// After a refused position, each command that needs one says so with
/// the refusal's first clause, not its list of legal moves again.
#[test]
fn a_refused_position_is_recalled_in_short() {
    let (mut e, _dir) = Engine::othello();
    e.send("position startpos moves f5 a1");
    let lines = e.sync();
    assert!(lines[0].contains("(3 legal here: f4, d6, f6)"), "{lines:?}");
    e.send("d");
    let lines = e.sync();
    assert_eq!(
        lines,
        [
            "info string error: no position: the last one sent was refused (move 2 ('a1') \
          rejected: illegal move 'a1': a disc on a1 would flip none of the other side's; the \
          second player's move there); send a position first"
        ]
    );
}

fn quit_during_search_exits(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth 2"));
    e.send("quit");
    let status = e.wait_exit(PATIENCE).expect("plyd exits on quit");
    assert!(status.success());
}

#[test]
fn a_stopped_bench_says_so_and_ends_with_a_count_of_none() {
    let (mut e, _dir) = Engine::othello();
    e.send("bench");
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    let n = lines.len();
    assert!(n >= 2, "{lines:?}");
    assert!(
        lines[n - 2].starts_with("info string bench stopped after ")
            && lines[n - 2].ends_with("not the bench's count"),
        "{lines:?}"
    );
    assert_eq!(lines[n - 1], "Nodes searched: 0", "{lines:?}");
    // The daemon goes on: a whole bench gives its count.
    e.send("bench othello 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

#[test]
fn end_of_input_exits() {
    let (mut e, _dir) = Engine::othello();
    e.send("isready");
    e.read_until(|l| l == "readyok");
    e.close_stdin();
    assert!(e.wait_exit(PATIENCE).expect("plyd exits at EOF").success());
}

fn ponder_then_ponderhit_or_stop(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves f5");
    e.send("go ponder movetime 200");
    e.read_until(|l| l.starts_with("info depth 2"));
    let quiet: Vec<String> = std::iter::from_fn(|| e.next_line(Duration::from_millis(400)))
        .take(2000)
        .collect();
    assert_eq!(
        count_bestmoves(&quiet),
        0,
        "a ponder search never ends by itself"
    );
    e.send("ponderhit");
    let lines = e.until_bestmove();
    assert_eq!(count_bestmoves(&lines), 1);

    e.send("go ponder wtime 10000 btime 10000");
    // Any depth: a Monte-Carlo search of the same position starts from
    // the tree the last one left, deeper than one ply.
    e.read_until(|l| l.starts_with("info depth "));
    e.send("stop");
    let lines = e.until_bestmove();
    assert_eq!(count_bestmoves(&lines), 1);
    assert!(e.sync().is_empty());
}

fn clock_based_go_finishes(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20");
    let lines = e.until_bestmove();
    assert!(OPENING_MOVES.contains(&bestmove_of(&lines).as_str()));
}

/// A clock for the other side alone (`wtime` is the first player's,
/// Othello's Black, with White to move) is read as no time left, and
/// said: one note, then a move at once; the mover's own clock gets none.
#[test]
fn a_clock_without_the_movers_time_is_said() {
    let (mut e, _dir) = Engine::othello();
    e.send("position startpos moves f5");
    e.send("go wtime 3000");
    let lines = e.until_bestmove();
    let notes: Vec<_> = lines
        .iter()
        .filter(|l| l.contains("no time for the side to move"))
        .collect();
    assert_eq!(notes.len(), 1, "{lines:?}");
    assert!(notes[0].contains("the second player (btime;"), "{lines:?}");
    e.send("go btime 3000 wtime 3000");
    let lines = e.until_bestmove();
    assert!(
        !lines.iter().any(|l| l.contains("no time for")),
        "{lines:?}"
    );
    // movestogo alone is a clock without the time too: said, as winc is.
    e.send("go movestogo 5");
    let lines = e.until_bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("no time for the side to move")),
        "{lines:?}"
    );
}

fn searchmoves_restricts_the_root(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("go depth 3 searchmoves e6");
    let lines = e.until_bestmove();
    assert_eq!(bestmove_of(&lines), "e6");
    e.send("go depth 2 searchmoves c4 zz");
    let lines = e.until_bestmove();
    assert_eq!(
        errors(&lines).len(),
        1,
        "the bad searchmove is reported: {lines:?}"
    );
    assert_eq!(bestmove_of(&lines), "c4");
}

fn go_nodes_is_deterministic_across_ucinewgame(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    let run = |e: &mut Engine| {
        e.send("ucinewgame");
        e.send("position startpos moves f5 d6 c3");
        e.send("go nodes 5000");
        let lines = e.until_bestmove();
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .cloned();
        (
            bestmove_of(&lines),
            last_info.map(|l| l.split(" nps ").next().unwrap().to_string()),
        )
    };
    let first = run(&mut e);
    let second = run(&mut e);
    assert_eq!(first, second);
}

/// A `Hash` given at the start (`--option Hash=1`) is the table's size
/// from the first: the default table was mapped first and then resized,
/// and the process's peak was the default's (48 MB against 33 MB here).
#[cfg(target_os = "linux")]
#[test]
fn a_hash_given_at_the_start_is_mapped_at_its_size_from_the_first() {
    let peak = |args: &[&str]| -> u64 {
        let dir = crate::common::othello_dir();
        let mut e = Engine::start(dir.path(), args, &[]);
        e.send("uci");
        e.read_until(|l| l == "uciok");
        e.sync();
        let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).unwrap();
        e.send("quit");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .expect("VmHWM")
    };
    let default = peak(&[]);
    let small = peak(&["--option", "Hash=1"]);
    assert!(
        small + 8 * 1024 < default,
        "peak {small} kB with Hash 1, {default} kB with the default 16 MiB"
    );
}

/// A byte-order mark before any line, not only the first, is passed over
/// (a client opening a UTF-8 writer with its mark for each command had
/// its `isready` taken for an unknown command, and no `readyok`).
#[test]
fn a_byte_order_mark_before_a_later_line_is_passed_over() {
    let (mut e, _dir) = Engine::othello();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send_raw(b"\xEF\xBB\xBFisready\n");
    let lines = e.read_until(|l| l == "readyok");
    assert!(crate::common::errors(&lines).is_empty(), "{lines:?}");
}

/// A new `Hash` size empties the table and what the histories learned
/// with it: the search after it counts a fresh process's nodes (the kept
/// histories made it count neither those nor the last search's).
#[test]
fn a_new_hash_size_searches_as_a_fresh_daemon_does() {
    let (mut e, _dir) = Engine::othello();
    let nodes = |e: &mut Engine| {
        e.send("position startpos moves f5 d6 c3");
        e.send("go depth 8");
        let lines = e.until_bestmove();
        lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 8 "))
            .and_then(|l| l.split(" nodes ").nth(1))
            .map(|rest| rest.split(' ').next().unwrap().to_string())
            .expect("a depth 8 line")
    };
    let fresh = nodes(&mut e);
    for hash in ["64", "16"] {
        e.send(&format!("setoption name Hash value {hash}"));
        assert!(e.sync().is_empty());
        assert_eq!(nodes(&mut e), fresh, "after Hash {hash}");
    }
}

/// `ucinewgame` empties the table before the next search that waits for
/// nothing else (one without a clock, or any after `isready`), and a
/// search on the clock sent straight after it keeps the last game's
/// entries rather than spend its clock clearing them: fewer nodes for the
/// same depth, the entries of the same search still in the table.
#[test]
fn ucinewgame_clears_the_table_off_the_clock_only() {
    let (mut e, _dir) = Engine::othello();
    let nodes = |e: &mut Engine, before_go: &[&str], go: &str| {
        for line in before_go {
            e.send(line);
        }
        e.send("position startpos moves f5 d6 c3");
        e.send(go);
        let lines = e.until_bestmove();
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .expect("an info line");
        number_after(last_info, "nodes").expect("a node count")
    };
    let fresh = nodes(&mut e, &[], "go depth 9");
    let untimed = nodes(&mut e, &["ucinewgame"], "go depth 9");
    assert_eq!(
        untimed, fresh,
        "a search without a clock waits for the clear"
    );
    let clocked = nodes(&mut e, &["ucinewgame"], "go depth 9 movetime 600000");
    assert!(
        clocked < fresh,
        "a search on the clock keeps the table: {clocked} nodes against {fresh}"
    );
    let after_isready = nodes(
        &mut e,
        &["ucinewgame", "isready"],
        "go depth 9 movetime 600000",
    );
    assert_eq!(after_isready, fresh, "isready clears it");
    let kept = nodes(
        &mut e,
        &["ucinewgame"],
        "go depth 9 wtime 600000 btime 600000",
    );
    assert!(kept < fresh, "{kept} nodes against {fresh}");
    // The clear dropped for the clocked search is not done later, in the
    // middle of the game it began.
    e.sync();
    let next = nodes(&mut e, &[], "go depth 9");
    assert!(next < fresh, "{next} nodes against {fresh}");
}

fn game_over_gives_bestmove_none(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    // Black has wiped out White: nobody can move.
    e.send("position fen 8/8/8/3XX3/3XX3/8/8/8 w");
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
}

fn forced_pass_is_played_as_0000(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    // White to move has no placement, Black does: White must pass.
    e.send("position fen XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXO/XXXXXX2 w");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert_eq!(bestmove_of(&lines), "0000", "{lines:?}");
    for spelling in ["0000", "pass", "PA"] {
        e.send(&format!(
            "position fen XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXO/XXXXXX2 w moves {spelling}"
        ));
        assert!(e.fen().ends_with(" b"), "pass spelled '{spelling}'");
    }
    // A move list that leaves the forced pass out has it added: Black's
    // h8 after White's pass.
    let fen = "XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXO/XXXXXX2 w";
    e.send(&format!("position fen {fen} moves 0000 h8"));
    let with_pass = e.fen();
    e.send(&format!("position fen {fen} moves h8"));
    assert!(e.sync().is_empty(), "refused");
    assert_eq!(e.fen(), with_pass);
    // A move that is not legal after the pass either is refused as it was.
    e.send(&format!("position fen {fen} moves a1"));
    let refused = e.sync();
    assert!(
        refused
            .iter()
            .any(|l| l.contains("move 1 ('a1') rejected") && l.contains("1 legal here: 0000")),
        "{refused:?}"
    );
}

/// A `go` with no limit searches until `stop` as `go infinite` does, even
/// where there is nothing to decide (one move, a pass).
fn a_bare_go_at_a_forced_pass_waits_for_stop(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("position fen XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXO/XXXXXX2 w");
    e.send("go");
    let quiet = lines_until_quiet(&mut e);
    assert_eq!(
        count_bestmoves(&quiet),
        0,
        "a bare go ended by itself: {quiet:?}"
    );
    e.send("stop");
    let lines = e.until_bestmove();
    assert_eq!(bestmove_of(&lines), "0000", "{lines:?}");
    assert!(e.sync().is_empty(), "exactly one bestmove");
}

/// Under a clock, a position with one legal move (a pass here) has
/// nothing to decide: the PVS answers after its first iteration, MCTS
/// after a few visits, not at the end of the move's time.
fn a_lone_legal_move_under_a_clock_is_answered_after_a_look(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("position fen XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXO/XXXXXX2 w");
    e.send("go movetime 5000");
    let lines = e.until_bestmove();
    assert_eq!(bestmove_of(&lines), "0000", "{lines:?}");
    let nodes = last_number(&lines, "nodes");
    assert!(nodes <= 100, "{nodes} nodes: {lines:?}");
}

/// `searchmoves` with one move under a clock asks for that move's
/// analysis: it is searched on its time, not answered after one ply as a
/// position with one legal move is.
fn one_searchmove_under_a_clock_is_searched_on_its_time(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    let started = std::time::Instant::now();
    e.send("go movetime 300 searchmoves f5");
    let lines = e.until_bestmove();
    assert_eq!(bestmove_of(&lines), "f5");
    assert!(
        started.elapsed() >= Duration::from_millis(150),
        "answered after {:?}: {lines:?}",
        started.elapsed()
    );
}

#[test]
fn go_perft_divides_by_root_move() {
    let (mut e, _dir) = Engine::othello();
    e.send("go perft 5");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1396");
    let per_move: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .collect();
    assert_eq!(per_move.len(), 4);
    let sum: u64 = per_move
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1396);
    e.sync();
    // A perft whose depth is missing is answered as one that cannot run.
    e.send("go perft");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(
        lines,
        [
            "info string error: 'go perft' needs a value",
            "Nodes searched: 0"
        ]
    );
}

#[test]
fn a_perft_piped_in_before_quit_is_counted_to_its_end() {
    // `printf 'position startpos\ngo perft 6\nquit\n' | plyd`, as a
    // script comparing counts with another program's runs it: the count
    // is given, not stopped by `quit`.
    let (mut e, _dir) = Engine::othello();
    e.send("position startpos");
    e.send("go perft 6");
    e.send("quit");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8200");
    assert!(e.wait_exit(PATIENCE).is_some());
}

/// A perft whose reader is gone with the input (the controller killed)
/// is stopped, not counted on for nobody: the process ends.
#[test]
fn a_perft_whose_reader_is_gone_ends_with_its_input() {
    use std::io::Write;
    let plugins = othello_dir();
    let mut child = plyd_command(plugins.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(b"uci\nposition startpos\ngo perft 13\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // The reader goes first, then the input, as when a controller dies.
    drop(child.stdout.take());
    drop(input);
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "plyd counted on with nobody to read the count"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn stop_ends_a_deep_perft_or_bench_at_once_and_costs_the_plugin_nothing() {
    let (mut e, _dir) = Engine::othello();
    // Each root move of perft 13 is trillions of leaves: only a stop
    // inside it can end it before the watchdog would give up (0.5 s).
    e.send("go perft 13");
    std::thread::sleep(std::time::Duration::from_millis(100));
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(
        error[0].contains("perft stopped before every root move"),
        "{error:?}"
    );
    // As a stopped bench: no part taken for the whole.
    assert_eq!(lines.last().unwrap(), "Nodes searched: 0", "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string perft stopped after ")
                && l.ends_with(", not the perft's count")),
        "{lines:?}"
    );
    e.send("go perft 5");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1396", "{lines:?}");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send("bench othello 40");
    std::thread::sleep(std::time::Duration::from_millis(100));
    e.send("stop");
    let mut lines = e.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.pop().as_deref(), Some("Nodes searched: 0"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // The first position's search stopped, and the bench with it: no
    // position is reported as searched whole.
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("info string bench othello")),
        "{lines:?}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("info string bench stopped after 0 positions"),
        "{lines:?}"
    );
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(OPENING_MOVES.contains(&bestmove_of(&lines).as_str()));
}

fn malformed_lines_get_one_error_each_and_change_nothing(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("position startpos moves f5");
    let before = e.fen();
    for bad in [
        "go depth x",
        "go depth",
        "go perft",
        "setoption",
        "setoption value 3",
        "debug maybe",
        "frobnicate the engine",
        "go movetime soon",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(errors(&lines).len(), 1, "'{bad}' gave {lines:?}");
        // A go that cannot be read is still answered, with no move (a
        // perft with no count).
        if bad == "go perft" {
            assert_eq!(lines.len(), 2, "'{bad}' gave {lines:?}");
            assert_eq!(lines[1], "Nodes searched: 0", "'{bad}'");
        } else if bad.starts_with("go") {
            assert_eq!(lines.len(), 2, "'{bad}' gave {lines:?}");
            assert_eq!(lines[1], "bestmove (none)", "'{bad}'");
        } else {
            assert_eq!(lines.len(), 1, "'{bad}' gave {lines:?}");
        }
    }
    // Blank lines, lone whitespace and CRLF endings are fine.
    e.send("");
    e.send("   \t ");
    e.send_raw(b"isready\r\n");
    e.read_until(|l| l == "readyok");
    // Bytes that are not UTF-8 are an unknown command, not a crash.
    e.send_raw(b"\xff\xfe garbage\n");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert_eq!(e.fen(), before);
    // A `position` that cannot be read is a refused position: it leaves
    // none, like one naming an illegal move, until one is read.
    for bad in ["position", "position fen"] {
        e.send(bad);
        assert_eq!(errors(&e.sync()).len(), 1, "{bad}");
        e.assert_no_position_until("position startpos moves f5", &before, bad);
    }
}

fn illegal_moves_and_bad_positions_are_refused_whole(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("position startpos moves f5 d6");
    let before = e.fen();
    for bad in [
        "position startpos moves a1",
        "position startpos moves f5 f5",
        "position startpos moves f5 d6 zz9",
        "position startpos moves f5 0000",
        "position fen 8/8/8 b",
        "position fen 8/8/8/3OX3/3XO3/8/8/8",
        "position fen 8/8/8/3OX3/3XO3/8/8/8 q",
        "position fen 9/8/8/3OX3/3XO3/8/8/8 b",
        "position fen 8/8/8/3OZ3/3XO3/8/8/8 b",
        "position fen 8/8/8/3OX3/3XO3/8/8/8/8 b",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(errors(&lines).len(), 1, "'{bad}' gave {lines:?}");
        // The GUI no longer has the old position: a go after the refusal
        // answers with one error and no move, never with a move for it.
        e.send("go depth 2");
        let lines = e.until_bestmove();
        assert_eq!(errors(&lines).len(), 1, "'{bad}' then go gave {lines:?}");
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "'{bad}'");
        e.send("d");
        assert_eq!(errors(&e.sync()).len(), 1, "'{bad}' then d");
        // A position that reads is searched again.
        e.send("position startpos moves f5 d6");
        assert_eq!(e.fen(), before, "'{bad}'");
    }
    e.send("position startpos moves f5 a1");
    e.send("ucinewgame");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(errors(&lines).len() == 1, "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
}

fn go_right_after_stop_starts_the_new_search(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    for between in [&[][..], &["isready"][..]] {
        e.send("go infinite");
        // (The Monte-Carlo search keeps its tree: its first depth may be
        // deep.)
        e.read_until(|l| l.starts_with("info depth "));
        e.send("stop");
        for line in between {
            e.send(line);
        }
        e.send("go depth 1");
        // Two answers, the stopped search's and the new one's, no error.
        let mut lines = e.until_bestmove();
        lines.extend(e.until_bestmove());
        assert!(errors(&lines).is_empty(), "{between:?}: {lines:?}");
        assert!(e.sync().is_empty());
    }
    // perft and bench, stopped, give way to a search too.
    for job in ["go perft 12", "bench othello 30"] {
        e.send(job);
        e.send("stop");
        e.send("go depth 1");
        let lines = e.until_bestmove();
        // The stopped job may say that it was cut short; nothing refuses
        // the search.
        let refusals: Vec<_> = errors(&lines)
            .into_iter()
            .filter(|l| !l.contains("stopped"))
            .collect();
        assert!(refusals.is_empty(), "{job}: {lines:?}");
        assert_eq!(count_bestmoves(&lines), 1, "{job}: {lines:?}");
    }
}

fn go_while_searching_is_refused_and_stop_when_idle_is_harmless(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("stop");
    e.send("ponderhit");
    assert!(e.sync().is_empty());
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth 1"));
    e.send("go depth 1");
    e.send("setoption name Hash value 32");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 2, "{lines:?}");
    e.send("stop");
    let lines = e.until_bestmove();
    assert_eq!(count_bestmoves(&lines), 1);
    assert!(e.sync().is_empty());
}

/// A `stop` sent with its `go` still gets a searched move: the first
/// iteration ends (a ply, milliseconds) and is reported before the
/// `bestmove`, whose move is that line's. Stopped at once, the search
/// answered the first move in its order, unscored, with no `info` line.
#[test]
fn stop_right_after_go_answers_a_move_the_first_iteration_scored() {
    let dir = plugin_dir(&[
        ("plyd_game_amazons", "amazons"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let mut e = Engine::start(dir.path(), &[], &[]);
    for (game, go) in [
        ("amazons", "go infinite"),
        ("xiangqi", "go infinite"),
        ("xiangqi", "go ponder wtime 60000 btime 60000"),
    ] {
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e.send("position startpos");
        e.sync();
        e.send_raw(format!("{go}\nstop\n").as_bytes());
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth "))
            .unwrap_or_else(|| panic!("{game}: no info line before the bestmove: {lines:?}"));
        assert_info_well_formed(last_info);
        let pv_first = last_info
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split(' ').next());
        let best = lines.last().unwrap().split(' ').nth(1);
        assert_eq!(pv_first, best, "{game}: {lines:?}");
    }
}

/// A timed `go` that waited behind the commands before it (a perft counted
/// first, a large `Hash` mapped) says on stderr that its clock ran
/// meanwhile: the GUI sees only a late move.
#[test]
fn a_timed_go_kept_waiting_says_so() {
    let (mut e, _dir) = Engine::othello();
    e.send("position startpos");
    e.send_raw(b"go perft 11\ngo movetime 50\n");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let stderr = e.stderr_lines();
    assert!(
        stderr.iter().any(|l| l.contains("WARN")
            && l.contains("this go was read ")
            && l.contains("send isready")),
        "{stderr:?}"
    );
}

#[test]
fn options_and_a_new_game_right_after_stop_wait_for_the_stopped_search() {
    // As `go` does: a GUI may send `stop` and go on at once.
    let (mut e, _dir) = Engine::othello();
    for command in [
        "setoption name Hash value 32",
        "ucinewgame",
        "setoption name Clear Hash",
        "setoption name MultiPV value 1",
    ] {
        e.send("go infinite");
        e.read_until(|l| l.starts_with("info depth "));
        e.send("stop");
        e.send(command);
        e.send("position startpos moves f5");
        e.send("go depth 1");
        let mut lines = e.until_bestmove();
        lines.extend(e.until_bestmove());
        assert!(errors(&lines).is_empty(), "{command}: {lines:?}");
        assert!(e.sync().is_empty());
    }
}

/// A perft or a bench ends by itself: a `go` sent during one waits for
/// it, as Stockfish runs them before reading on (a GUI's `go perft 1` for
/// the legal moves, then its `go`, was refused with `bestmove (none)`).
#[test]
fn a_go_during_perft_or_bench_waits_for_its_count() {
    let (mut e, _dir) = Engine::othello();
    for job in ["go perft 6", "bench othello 4"] {
        e.send("position startpos");
        e.send(job);
        e.send("go depth 1");
        let lines = e.until_bestmove();
        let counted = lines
            .iter()
            .position(|l| l.starts_with("Nodes searched: "))
            .unwrap_or_else(|| panic!("{job}: {lines:?}"));
        assert_ne!(lines[counted], "Nodes searched: 0", "{job}: {lines:?}");
        assert!(errors(&lines).is_empty(), "{job}: {lines:?}");
        assert!(
            lines[counted..]
                .iter()
                .any(|l| l.starts_with("info depth 1 ")),
            "{job}: the search came after the count: {lines:?}"
        );
        assert_ne!(lines.last().unwrap(), "bestmove (none)", "{job}: {lines:?}");
        assert!(e.sync().is_empty());
    }
}

/// A perft or a bench refused during a search ends, as every one does,
/// with its count of none: a GUI waiting for the count waited for ever.
#[test]
fn a_perft_or_bench_refused_during_a_search_counts_none() {
    let (mut e, _dir) = Engine::othello();
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth "));
    for job in ["go perft 3", "bench othello 2"] {
        e.send(job);
        let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
        assert_eq!(
            lines.last().unwrap(),
            "Nodes searched: 0",
            "{job}: {lines:?}"
        );
        assert_eq!(errors(&lines).len(), 1, "{job}: {lines:?}");
    }
    e.send("stop");
    let lines = e.until_bestmove();
    assert_eq!(count_bestmoves(&lines), 1, "{lines:?}");
}

/// `isready` after `stop` is answered once the stopped search has given
/// its `bestmove`: a GUI takes `readyok` as the sign the old search is
/// over (it came first, and the old `bestmove` read as the next `go`'s).
#[test]
fn isready_after_stop_comes_after_the_stopped_searchs_bestmove() {
    let (mut e, _dir) = Engine::othello();
    for _ in 0..3 {
        e.send("go infinite");
        e.read_until(|l| l.starts_with("info depth "));
        e.send("stop");
        e.send("isready");
        let lines = e.read_until(|l| l == "readyok");
        assert_eq!(count_bestmoves(&lines), 1, "{lines:?}");
    }
    // During a search that was not stopped, at once, with no bestmove.
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth "));
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert_eq!(count_bestmoves(&lines), 0, "{lines:?}");
    e.send("stop");
    e.until_bestmove();
}

#[test]
fn debug_and_register_are_accepted() {
    let (mut e, _dir) = Engine::othello();
    e.send("register later");
    e.send("debug off");
    assert!(e.sync().is_empty());
    // Debug mode says back each line as it was read, until it is off.
    e.send("debug on");
    e.send("position startpos moves f5");
    e.send("debug off");
    e.send("position startpos");
    assert_eq!(
        e.sync(),
        [
            "info string debug: read 'position startpos moves f5'",
            "info string debug: read 'debug off'",
        ]
    );
}

fn self_play_games_run_to_the_end_with_only_legal_moves(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    for nodes in [1, 300, 3000] {
        e.send("ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        loop {
            assert!(
                moves.len() <= 120,
                "an Othello game lasts at most 120 plies"
            );
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send(&format!("go nodes {nodes}"));
            let lines = e.until_bestmove();
            assert!(errors(&lines).is_empty(), "{lines:?}");
            let best = bestmove_of(&lines);
            if best == "(none)" {
                break;
            }
            moves.push(best);
        }
        // The daemon accepted every move it chose; the game is over.
        assert!(
            moves.len() >= 9,
            "no Othello game ends before ply 9: {moves:?}"
        );
        e.send("go depth 1");
        assert_eq!(e.until_bestmove().last().unwrap(), "bestmove (none)");
        let fen = e.fen();
        assert!(e.sync().is_empty(), "{fen}");
    }
}

fn hash_threads_and_multipv_change_between_searches(mode: &str) {
    let (mut e, _dir) = Engine::othello_in(mode);
    e.send("setoption name Hash value 1");
    e.send("setoption name Threads value 2");
    e.send("setoption name MultiPV value 2");
    assert!(errors(&e.sync()).is_empty());
    e.send("position startpos moves f5");
    e.send("go depth 5");
    let lines = e.until_bestmove();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    for line in &infos {
        assert_info_well_formed(line);
        assert!(line.contains(" hashfull "), "{line}");
    }
    let at_depth_5: Vec<&&String> = infos
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    assert_eq!(at_depth_5.len(), 2, "{lines:#?}");
    assert!(at_depth_5[0].contains(" multipv 1 "));
    assert!(at_depth_5[1].contains(" multipv 2 "));
    let first_move = |l: &str| {
        l.split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    assert_ne!(first_move(at_depth_5[0]), first_move(at_depth_5[1]));
    assert_eq!(bestmove_of(&lines), first_move(at_depth_5[0]));
    assert_eq!(count_bestmoves(&lines), 1);

    // Bad values change nothing and leave the daemon working.
    for bad in [
        "setoption name Hash value 0",
        "setoption name Threads value 1000",
        "setoption name MultiPV value none",
        "setoption name LMR value maybe",
    ] {
        e.send(bad);
        assert_eq!(errors(&e.sync()).len(), 1, "{bad}");
    }
    e.send("setoption name Clear Hash");
    e.send("setoption name Hash value 8");
    e.send("setoption name Threads value 1");
    e.send("setoption name MultiPV value 1");
    e.send("ucinewgame");
    assert!(errors(&e.sync()).is_empty());
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(lines.iter().all(|l| !l.contains("multipv")), "{lines:?}");
}

#[test]
fn currmove_is_reported_once_the_search_has_run_a_second() {
    let (mut e, _dir) = Engine::othello();
    e.send("go infinite");
    let lines = e.read_until(|l| l.contains(" currmove "));
    // Nothing of the kind in the first lines: every one before is a
    // finished iteration.
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l.starts_with("info depth") && l.contains(" pv ")));
    let line = lines.last().unwrap();
    assert_info_well_formed(line);
    let tokens: Vec<&str> = line.split(' ').collect();
    let at = tokens.iter().position(|&t| t == "currmove").unwrap();
    assert!(OPENING_MOVES.contains(&tokens[at + 1]), "{line}");
    let number: usize = tokens[at + 3].parse().unwrap();
    assert!((1..=4).contains(&number), "{line}");
    e.send("stop");
    let lines = e.until_bestmove();
    assert_eq!(count_bestmoves(&lines), 1);
}

#[test]
fn bench_command_gives_the_same_node_count_every_time() {
    let (mut e, _dir) = Engine::othello();
    let mut totals = Vec::new();
    for _ in 0..2 {
        e.send("bench othello 4");
        let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
        let positions = lines
            .iter()
            .filter(|l| l.starts_with("info string bench othello depth 4 "))
            .count();
        assert!(positions >= 6, "{lines:#?}");
        assert!(lines
            .iter()
            .any(|l| l.starts_with("info string bench nodes ")));
        totals.push(lines.last().unwrap().clone());
    }
    assert_eq!(totals[0], totals[1]);
    // The daemon is still fine, and bench did not change the position.
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(OPENING_MOVES.contains(&bestmove_of(&lines).as_str()));
    e.send("bench chess");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn search_mode_switches_between_searches_and_bad_values_change_nothing() {
    let (mut e, _dir) = Engine::othello();
    let shown_mode = |e: &mut Engine| {
        e.send("uci");
        let lines = e.read_until(|l| l == "uciok");
        lines
            .iter()
            .find(|l| l.starts_with("option name SearchMode "))
            .cloned()
            .expect("a SearchMode option")
    };
    assert_eq!(
        shown_mode(&mut e),
        "option name SearchMode type combo default pvs var pvs var mcts"
    );
    e.send("position startpos moves f5");
    for mode in ["mcts", "pvs", "MCTS", "pvs", "mcts"] {
        e.send(&format!("setoption name SearchMode value {mode}"));
        assert!(e.sync().is_empty(), "{mode}");
        e.send("go nodes 400");
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        assert_eq!(count_bestmoves(&lines), 1);
        assert_ne!(bestmove_of(&lines), "(none)");
        for line in lines.iter().filter(|l| l.starts_with("info depth")) {
            assert_info_well_formed(line);
        }
    }
    let before = e.fen();
    for bad in [
        "setoption name SearchMode value alphabeta",
        "setoption name SearchMode value",
        "setoption name SearchMode",
    ] {
        e.send(bad);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "'{bad}' gave {lines:?}");
        assert_eq!(errors(&lines).len(), 1, "'{bad}' gave {lines:?}");
    }
    // The last good value stands, and so does the position.
    assert_eq!(
        shown_mode(&mut e),
        "option name SearchMode type combo default mcts var pvs var mcts"
    );
    assert_eq!(e.fen(), before);
    e.send("go nodes 50");
    assert_eq!(count_bestmoves(&e.until_bestmove()), 1);
}

/// MiB the machine can give now, as plyd reads it.
fn available_mib() -> Option<u64> {
    plyd::memory::available_mib()
}

#[test]
fn resource_limits_are_refused_or_served_with_one_line() {
    let (mut e, _dir) = Engine::othello();
    // A table the machine cannot give is refused and the old one kept:
    // a little over nine tenths of what it has available with the old
    // table's 16 MiB given back (it is freed first) and the first search
    // thread's 12 taken (a table served is mapped at once, so the size
    // asked stays within the option's range and no larger than needed).
    // What the machine has available moves with the rest of its work
    // between the test's reading and plyd's: a table served because more
    // came free is given back and the size asked again, three times at
    // most.
    let mut served = None;
    for _ in 0..3 {
        // 64 MiB over the most, for what comes free meanwhile.
        let Some(ask) = available_mib()
            .map(|mib| (mib + 16 - 12) * 9 / 10 + 64)
            .filter(|&ask| ask <= 65536)
        else {
            break;
        };
        e.send(&format!("setoption name Hash value {ask}"));
        let lines = e.sync();
        if errors(&lines).is_empty() {
            e.send("setoption name Hash value 16");
            e.sync();
            served = Some(lines);
            continue;
        }
        assert_eq!(errors(&lines).len(), 1, "{lines:?}");
        assert!(lines[0].contains("the table stays at 16 MiB"), "{lines:?}");
        served = None;
        break;
    }
    assert!(served.is_none(), "served three times: {served:?}");
    // Far more threads than cores: one note, and the search is served.
    e.send("setoption name Threads value 256");
    let lines = e.sync();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 256 {
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string Threads 256 is more than"));
    }
    e.send("go depth 4");
    assert_ne!(bestmove_of(&e.until_bestmove()), "(none)");
    e.send("setoption name Threads value 1");
    // A megabyte of position text: one short error, the position kept.
    e.send("position startpos moves d3");
    e.send(&format!("position fen {}", "x".repeat(1 << 20)));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].len() < 500 && lines[0].contains("bytes in all"),
        "{}",
        lines[0].len()
    );
    // No position is left to show until one is read.
    e.send("d");
    assert_eq!(errors(&e.sync()).len(), 1);
    e.send("position startpos moves d3");
    assert_eq!(e.fen(), "8/8/3X4/3XX3/3XO3/8/8/8 w");
    // 100,000 moves: read up to the first that cannot be played.
    let moves = ["d3", "c5", "f6", "f5"].repeat(25_000).join(" ");
    e.send(&format!("position startpos moves {moves}"));
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("move 5 ('d3')"), "{lines:?}");
    // A line over the 8 MiB cap is skipped with one error; the next is read.
    e.send(&"y".repeat(9 << 20));
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("was skipped"), "{lines:?}");
    // A control character echoed in an error comes back escaped.
    e.send("frob\x1cnicate now");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("\\x1c") && !lines[0].contains('\x1c'),
        "{lines:?}"
    );
}

#[test]
fn a_daemon_whose_answers_nobody_reads_exits() {
    // The GUI closed its end of stdout but not of stdin: the search it
    // asked for would run for nothing.
    use std::io::Write;
    let dir = crate::common::othello_dir();
    let mut child = crate::common::plyd_command(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    drop(child.stdout.take());
    writeln!(stdin, "uci").unwrap();
    writeln!(stdin, "go depth 60").unwrap();
    stdin.flush().unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{status:?}");
    let mut log = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut log).unwrap();
    assert!(log.contains("stdout is closed at the other end"), "{log}");
}

/// A file option naming what is not a file of data — a device that never
/// ends, a FIFO no one writes to, a folder — gets one error line at once,
/// and the daemon plays on as it was: nothing is read from it, nothing
/// waits on it.
#[cfg(unix)]
#[test]
fn file_options_naming_devices_fifos_and_folders_are_refused_at_once() {
    let dir = crate::common::TempDir::new("not-files");
    let fifo = dir.path().join("fifo");
    let mut targets = vec![
        ("/dev/zero".to_string(), "a character device"),
        (dir.path().display().to_string(), "a directory"),
    ];
    if crate::common::make_fifo(&fifo) {
        targets.push((fifo.display().to_string(), "a FIFO"));
    }
    let (mut e, _plugins) = Engine::othello();
    for (target, kind) in &targets {
        for option in ["BookFile", "EvalParams", "EvalFile"] {
            e.send(&format!("setoption name {option} value {target}"));
            let lines = e.sync();
            let error = errors(&lines);
            assert_eq!(error.len(), 1, "{option} {target}: {lines:?}");
            assert!(
                error[0].contains(&format!("not a regular file ({kind})")),
                "{option} {target}: {lines:?}"
            );
        }
    }
    // A parameter file holding a NUL byte is named too.
    let nul = dir.path().join("nul.toml");
    std::fs::write(&nul, "a = 1\n\0\n").unwrap();
    e.send(&format!(
        "setoption name EvalParams value {}",
        nul.display()
    ));
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        lines[0].contains(&format!("eval params {}: holds a NUL byte", nul.display())),
        "{lines:?}"
    );
    e.send("go depth 2");
    assert_eq!(bestmove_of(&e.until_bestmove()), "d3");
}

#[cfg(target_os = "linux")]
#[test]
// The child is reaped by `wait4`, which gives its peak memory too.
#[allow(clippy::zombie_processes)]
fn quit_right_after_a_large_hash_does_not_wait_for_its_mapping() {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    // A table is mapped page by page when set, before `readyok`; `quit`
    // read meanwhile ended the process only once all of it was (3 GiB on
    // a loaded machine: 14.7 s). Now the mapping stops: the process never
    // holds the table's pages.
    let dir = crate::common::othello_dir();
    let mut child = crate::common::plyd_command(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"setoption name Hash value 1024\nquit\n")
        .unwrap();
    drop(stdin);
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it and the status for
    // the child, which it reaps.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as i32);
    let status = std::process::ExitStatus::from_raw(status);
    assert!(status.success(), "{status:?}");
    // Kilobytes on Linux: far below the 1,024 MiB table.
    assert!(usage.ru_maxrss < 400 * 1024, "{} KiB", usage.ru_maxrss);
}

/// A stderr nobody reads (a pipe the program that started plyd never
/// drains, full at 64 KiB) does not stop the daemon: its log lines wait
/// for a thread of their own, and past its queue are dropped and counted.
/// The controller blocked writing a log line, and answered nothing more,
/// `quit` included.
#[test]
fn a_stderr_nobody_reads_does_not_stop_the_daemon() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let dir = crate::common::othello_dir();
    let mut child = crate::common::plyd_command(dir.path())
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Held, never read: the pipe fills.
    let _stderr = child.stderr.take();
    let mut stdin = child.stdin.take().unwrap();
    // Each refused option is a log line of about 60 bytes: 4,000 of them
    // are several pipes' worth.
    let writer = std::thread::spawn(move || {
        for _ in 0..4000 {
            if writeln!(stdin, "setoption name Nonsense value 1").is_err() {
                return;
            }
        }
        let _ = writeln!(stdin, "isready");
        let _ = writeln!(stdin, "quit");
    });
    let (lines_tx, lines_rx) = crossbeam_channel::unbounded();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if lines_tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut errors = 0;
    let ready = loop {
        match lines_rx.recv_timeout(Duration::from_secs(30)) {
            Ok(line) if line == "readyok" => break true,
            Ok(line) => errors += usize::from(line.starts_with("info string error:")),
            Err(_) => break false,
        }
    };
    // `quit` ends it, its log still unread.
    let start = std::time::Instant::now();
    let mut ended = None;
    while ended.is_none() && start.elapsed() < Duration::from_secs(10) {
        ended = child.try_wait().unwrap();
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        ready,
        "no readyok: stuck after {errors} of the 4000 refusals"
    );
    assert_eq!(errors, 4000);
    assert!(ended.is_some_and(|s| s.success()), "{ended:?}");
    writer.join().unwrap();
}

/// A GUI whose clock loses more than plyd measured (a starved engine's
/// waits before reading `go` and after writing `bestmove`) has that
/// kept back of its next moves, said once on stderr; a new game forgets
/// it. Fast games were lost on time with the default Move Overhead.
#[test]
fn a_clock_that_loses_more_than_plyd_measured_is_kept_back() {
    let (mut e, _d) = Engine::othello();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("position startpos");
    e.send("go wtime 2000 btime 2000");
    let best = bestmove_of(&e.until_bestmove());
    // White's reply, listed rather than searched (a search of White's
    // move, with no clock, would end the comparison of Black's clocks).
    e.send(&format!("position startpos moves {best}"));
    e.send("go perft 1");
    let listed = e.read_until(|l| l.starts_with("Nodes searched"));
    let reply = listed[0].split(':').next().unwrap().to_string();
    // Black's clock after its first move, as a GUI that lost 500 ms more
    // than plyd's answer took says it: the most it can say is 1,500.
    e.send(&format!("position startpos moves {best} {reply}"));
    e.send("go wtime 1500 btime 2000");
    e.until_bestmove();
    let log = e.stderr_lines();
    let said: Vec<&String> = log
        .iter()
        .filter(|l| l.contains("the clock lost"))
        .collect();
    assert_eq!(said.len(), 1, "{log:?}");
    let lost: f64 = said[0]
        .split_whitespace()
        .skip_while(|w| *w != "lost")
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!((100.0..=500.0).contains(&lost), "{said:?}");
    assert!(said[0].contains("where Move Overhead is 10 ms"), "{said:?}");
    // A new game: nothing kept, nothing said.
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go wtime 300 btime 300");
    e.until_bestmove();
    e.send("position startpos moves f5 d6");
    e.send("go wtime 300 btime 300");
    e.until_bestmove();
    let log = e.stderr_lines();
    assert!(log.iter().all(|l| !l.contains("the clock lost")), "{log:?}");
    e.send("quit");
}
