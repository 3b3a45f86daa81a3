//! The plugin host against broken plugins: a wrong ABI version, a missing
//! entry point, missing table entries, and a plugin that panics. None of
//! them may take the daemon down or disturb the games that did load.

use crate::common;

use std::path::Path;

use crate::common::{built_library, errors, plugin_dir, Engine};
use plyd::host::{GameState, LoadError, PluginHost};

fn assert_in_log(e: &mut Engine, needles: &[&str]) {
    let log = e.stderr_lines().join("\n");
    for needle in needles {
        assert!(log.contains(needle), "'{needle}' not in stderr:\n{log}");
    }
}

fn assert_still_plays_othello(e: &mut Engine) {
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_Variant type combo default othello var othello"),
        "{lines:#?}"
    );
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn broken_plugins_are_refused_with_one_message_naming_the_file() {
    // (test library, PLYD_TEST_BAD_TABLE mode, what the refusal must say)
    let cases: [(&str, &str, &[&str]); 6] = [
        (
            "plyd_test_bad_abi",
            "",
            &[
                "libplyd_game_broken",
                "ABI version 999",
                "supports ABI version 1",
            ],
        ),
        (
            "plyd_test_no_entry",
            "",
            &["libplyd_game_broken", "missing symbol 'plyd_game_api'"],
        ),
        (
            "plyd_test_bad_abi",
            "missing-entry",
            &[
                "libplyd_game_broken",
                "missing required entry 'state_clone'",
            ],
        ),
        (
            "plyd_test_bad_abi",
            "short",
            &["libplyd_game_broken", "table size 16 is smaller"],
        ),
        (
            "plyd_test_bad_abi",
            "huge",
            &[
                "libplyd_game_broken",
                "table size 1048576 is past any table's (65536 bytes at most)",
            ],
        ),
        (
            "plyd_test_bad_abi",
            "spaced-name",
            &["libplyd_game_broken", "'name' \"pan icky\" is not one word"],
        ),
    ];
    for (library, mode, needles) in cases {
        let dir = plugin_dir(&[("plyd_game_othello", "othello"), (library, "broken")]);
        let mut e = Engine::start(dir.path(), &[], &[("PLYD_TEST_BAD_TABLE", mode)]);
        assert_still_plays_othello(&mut e);
        let log = e.stderr_lines();
        let refusals: Vec<&String> = log
            .iter()
            .filter(|l| l.contains("libplyd_game_broken"))
            .collect();
        assert_eq!(refusals.len(), 1, "{library} {mode}: {log:#?}");
        for needle in needles {
            assert!(
                refusals[0].contains(needle),
                "'{needle}' not in {refusals:?}"
            );
        }
        // Asked for by the name its file gives, the game is said to be
        // the one whose file did not load.
        e.send("setoption name UCI_Variant value broken");
        let told = e.sync();
        assert!(
            errors(&told)
                .iter()
                .any(|l| l.contains("unknown variant 'broken'")
                    && l.contains("libplyd_game_broken")
                    && l.contains(" did not load")),
            "{library} {mode}: {told:?}"
        );
    }
}

#[test]
fn a_table_without_the_optional_entries_still_loads() {
    // A plugin built before the optional entries were appended declares a
    // shorter table: it must load and play, with those entries absent (the
    // test plugin poisons them, so reading one would show as a panic).
    let dir = plugin_dir(&[("plyd_test_bad_abi", "old")]);
    let env = [("PLYD_TEST_BAD_TABLE", "old")];
    let mut e = Engine::start(dir.path(), &[], &env);
    e.send("position fen 10 moves 1 1");
    assert_eq!(e.fen(), "8");
    e.send("position fen 5");
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send("go perft 3");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 7");

    let native = common::plyd_command(dir.path())
        .args(["perft", "--game", "panicky", "--depth", "2", "--native"])
        .env("PLYD_TEST_BAD_TABLE", "old")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&native.stderr);
    assert_eq!(native.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("does not support perft"), "{stderr}");
}

/// The test plugin's table cut short before an entry that was appended
/// later (`mode`): it loads and searches with `options` on, and the host
/// never calls the entry past its size (the test plugin poisons it, so a
/// call would show as a panic).
fn an_older_table_searches(mode: &str, options: &[&str]) {
    let dir = plugin_dir(&[("plyd_test_bad_abi", mode)]);
    let env = [("PLYD_TEST_BAD_TABLE", mode)];
    let mut e = Engine::start(dir.path(), &[], &env);
    for name in options {
        e.send(&format!("setoption name {name} value true"));
    }
    e.send("position fen 6");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{mode}: {lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)", "{mode}");
}

#[test]
fn a_table_from_before_see_ge_still_loads() {
    an_older_table_searches("before-see", &[]);
}

#[test]
fn a_table_from_before_move_keys_still_loads() {
    // With the techniques that ask for keys on.
    an_older_table_searches(
        "before-keys",
        &[
            "ContHistory",
            "CaptureHistory",
            "CounterMoves",
            "HistoryLMR",
        ],
    );
}

#[test]
fn move_keys_above_the_limit_disable_the_plugin() {
    let dir = plugin_dir(&[("plyd_test_bad_abi", "garbage-keys")]);
    let env = [("PLYD_TEST_BAD_TABLE", "garbage-keys")];
    let mut e = Engine::start(dir.path(), &[], &env);
    e.send("setoption name ContHistory value true");
    e.send("position fen 6");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(errors(&lines)[0].contains("move_keys"), "{lines:?}");
    // The daemon goes on answering.
    e.send("isready");
    assert_eq!(e.read_until(|l| l == "readyok").last().unwrap(), "readyok");
}

#[test]
fn host_api_reports_typed_errors() {
    let mut host = PluginHost::default();
    match host.load_file(&built_library("plyd_test_bad_abi")) {
        Err(LoadError::AbiVersion {
            found, min, max, ..
        }) => {
            assert_eq!(found, 999);
            assert_eq!((min, max), (1, 1));
        }
        Err(other) => panic!("wrong error: {other}"),
        Ok(_) => panic!("a plugin with ABI version 999 was accepted"),
    }
    assert!(matches!(
        host.load_file(&built_library("plyd_test_no_entry")),
        Err(LoadError::MissingSymbol { .. })
    ));
    assert!(matches!(
        host.load_file(Path::new("/no/such/libplyd_game_x.so")),
        Err(LoadError::Open { .. })
    ));
    let othello = host
        .load_file(&built_library("plyd_game_othello"))
        .expect("othello loads");
    assert!(
        host.load_file(&built_library("plyd_game_othello")).is_err(),
        "a second copy is refused"
    );
    assert_eq!(host.games().len(), 1);
    let state = GameState::new(&othello, 0).unwrap();
    assert_eq!(state.position_text().unwrap(), "8/8/8/3OX3/3XO3/8/8/8 b");
}

#[test]
fn missing_plugin_directory_leaves_a_daemon_that_answers() {
    let dir = common::TempDir::new("empty");
    let mut e = Engine::start(&dir.path().join("nowhere"), &[], &[]);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    // The GUI is told once, after its first line, before any search.
    let told = e.sync();
    assert_eq!(errors(&told).len(), 1, "{told:?}");
    // Every reason, in the one line.
    assert!(
        told[0].starts_with("info string error: no game is loaded (see PluginPath): ")
            && told[0].contains("cannot read plugin directory")
            && told[0].contains("no usable game plugin in "),
        "{told:?}"
    );
    e.send("go depth 1");
    let lines = e.until_bestmove();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.send("d");
    assert_eq!(errors(&e.sync()).len(), 1);
    assert_in_log(
        &mut e,
        &["cannot read plugin directory", "no usable game plugin in"],
    );
}

#[test]
fn a_folder_without_games_says_what_it_found_and_what_it_replaced() {
    // A game library misnamed, and a plugin file named where a folder
    // belongs: each error line says why, and that a plugin path of one's
    // own leaves plyd's own folder out.
    let dir = common::TempDir::new("misnamed");
    let misnamed = dir.path().join(format!(
        "{}connectfour{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    std::fs::copy(built_library("plyd_game_othello"), &misnamed).unwrap();
    let own = common::plyd_bin()
        .canonicalize()
        .unwrap()
        .parent()
        .unwrap()
        .display()
        .to_string();
    let replaced = format!("the plugin path replaces plyd's own folder: list {own} too");
    // The hint names plyd's own folder only where that folder holds games
    // (a test build's folder may hold none before `cargo build`).
    let own_has_games = std::fs::read_dir(&own).unwrap().any(|entry| {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        name.starts_with(&format!("{}plyd_game_", std::env::consts::DLL_PREFIX))
            && name.ends_with(std::env::consts::DLL_SUFFIX)
    });
    for (path, reason) in [
        (
            dir.path().to_path_buf(),
            format!(
                "{} not named as a plugin ({}plyd_game_NAME{}",
                misnamed.display(),
                std::env::consts::DLL_PREFIX,
                std::env::consts::DLL_SUFFIX
            ),
        ),
        (
            misnamed.clone(),
            "a file, not a folder: a plugin path names the folders that hold plugins".to_string(),
        ),
    ] {
        let mut e = Engine::start(&path, &[], &[]);
        e.send("uci");
        e.read_until(|l| l == "uciok");
        let told = e.sync();
        assert_eq!(errors(&told).len(), 1, "{told:?}");
        assert!(
            told[0].contains("no usable game plugin in ") && told[0].contains(&reason),
            "{told:?}"
        );
        assert_eq!(
            told[0].contains(&replaced),
            own_has_games,
            "{told:?} (games in {own}: {own_has_games})"
        );
    }
}

/// The configuration's `call_limit` for the daemons of the stuck-plugin
/// tests, in seconds: shorter than the default 5 s, so that each waits
/// less, and still hundreds of times what the calls that do return take.
const CALL_LIMIT_S: u64 = 2;

/// A configuration file in `dir` setting `call_limit` to [`CALL_LIMIT_S`].
fn short_call_limit(dir: &common::TempDir) -> String {
    call_limit_config(dir, CALL_LIMIT_S * 1000)
}

/// A configuration file in `dir` setting `call_limit` to `ms`.
fn call_limit_config(dir: &common::TempDir, ms: u64) -> String {
    let file = dir.path().join("plyd.toml");
    std::fs::write(&file, format!("call_limit = {ms}\n")).unwrap();
    file.display().to_string()
}

/// A plugin folder with Othello and the panicky test game.
fn panicky_dir() -> common::TempDir {
    plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_test_panicky", "panicky"),
    ])
}

/// Choose the panicky game (a pile of 10 counters to start).
fn play_panicky(e: &mut Engine) {
    e.send("setoption name UCI_Variant value panicky");
    // The game's evaluator named: Othello's was in use.
    assert_eq!(
        e.sync(),
        [
            "info string variant panicky startpos 10",
            "info string evaluator pile"
        ]
    );
}

fn panicky_engine() -> (Engine, common::TempDir) {
    panicky_engine_with_call_limit(CALL_LIMIT_S * 1000)
}

/// [`panicky_engine`] with `call_limit` at `ms`.
fn panicky_engine_with_call_limit(ms: u64) -> (Engine, common::TempDir) {
    let dir = panicky_dir();
    let config = call_limit_config(&dir, ms);
    let e = Engine::start(dir.path(), &["--config", &config], &[]);
    (e, dir)
}

/// What a plugin prints on its stdout goes to the log: the GUI reads
/// only the protocol there.
#[test]
fn a_plugins_own_stdout_is_kept_out_of_the_protocol() {
    let (mut e, _dir) = panicky_engine();
    play_panicky(&mut e);
    e.send("position fen print");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("asked to print on stdout"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("printed")), "{lines:?}");
    assert!(
        e.stderr_lines()
            .iter()
            .any(|l| l == "panicky: printed on stdout"),
        "the plugin's line is in the log"
    );
    e.send("position fen 5");
    assert_eq!(e.fen(), "5");
}

/// `STATUS_UNSUPPORTED` from the optional entries that may decline it:
/// no hints (the search plays on, ordering by its own), no rule named (the
/// game's end said without one); the plugin stays enabled.
#[test]
fn optional_entries_may_decline() {
    let dir = plugin_dir(&[("plyd_test_bad_abi", "forgetful")]);
    let mut e = Engine::start(
        dir.path(),
        &["--game", "panicky"],
        &[("PLYD_TEST_BAD_TABLE", "declining")],
    );
    // Piles of 3 and below: none of the game's deliberate panics.
    e.send("position fen 3");
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    e.send("position fen 0");
    e.send("d");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("Result:")), "{lines:?}");
    e.send("position fen 3");
    e.send("go depth 2");
    assert_ne!(e.until_bestmove().last().unwrap(), "bestmove (none)");
}

/// A root list holding the reserved null move (here a `gen_moves` that
/// counts one move more than it writes, the slot left holding the null
/// move) is refused at the root: one error line and `bestmove (none)`,
/// never the null move played as a move.
#[test]
fn a_root_list_holding_the_null_move_is_not_played() {
    let dir = plugin_dir(&[("plyd_test_bad_abi", "forgetful")]);
    let mut e = Engine::start(
        dir.path(),
        &["--game", "panicky"],
        &[("PLYD_TEST_BAD_TABLE", "over-count-null")],
    );
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("returned garbage from gen_moves: listed the reserved null move"),
        "{lines:?}"
    );
}

/// An answer whose text the game plugin's own `parse_move` does not read
/// back (here every move spelled with a `!` after it) still goes out, with
/// one error line before it saying so: the GUI is told why the game may
/// stop at the next `position`.
#[test]
fn an_answer_its_plugin_cannot_read_back_is_told() {
    let dir = plugin_dir(&[("plyd_test_bad_abi", "bangs")]);
    let mut e = Engine::start(
        dir.path(),
        &["--game", "panicky"],
        &[("PLYD_TEST_BAD_TABLE", "bang-text")],
    );
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    let best = lines.last().unwrap().split(' ').nth(1).unwrap();
    assert!(best.ends_with('!'), "{lines:?}");
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains(&format!("spells the move it plays '{best}'"))
            && told[0].contains("plyd check"),
        "{lines:?}"
    );
    // A plugin whose text reads back gets no such line.
    let (mut e, _dir) = panicky_engine();
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

/// A fault inside a plugin, which ends the process, is named on stderr
/// before it does: the signal, the plugin's file and where in it; the
/// process still dies of the signal, as a judge or the arena expects.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn a_fault_inside_a_plugin_is_named_before_the_process_dies_of_it() {
    let (line, _) = last_words_of_faulty("segfault", libc::SIGSEGV);
    assert!(
        line.contains("libplyd_game_faulty.so, at 0x") && line.contains("addr2line"),
        "{line}"
    );
    // The command to run names the file, as the stuck call's line does.
    let file = line
        .strip_prefix("plyd: SIGSEGV inside the plugin ")
        .and_then(|rest| rest.split(", at ").next())
        .unwrap();
    assert!(
        line.contains(&format!("(addr2line -f -C -i -e {file} 0x")),
        "{line}"
    );
}

/// A plugin file written over in place while plyd runs (`cp` onto it)
/// changes the code mapped from it; the fault that follows is named with
/// a line saying the file was written over, and how to install instead.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn a_plugin_written_over_in_place_is_named_at_the_fault() {
    use std::os::unix::process::ExitStatusExt;
    use std::time::Duration;
    let dir = common::plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let mut e = Engine::start(dir.path(), &["--game", "othello"], &[]);
    e.send("position startpos");
    assert!(e.sync().is_empty());
    let othello = dir.path().join("libplyd_game_othello.so");
    std::fs::copy(dir.path().join("libplyd_game_xiangqi.so"), &othello).unwrap();
    for _ in 0..20 {
        e.send("go depth 3");
        if e.wait_exit(Duration::from_millis(300)).is_some() {
            break;
        }
    }
    let status = e
        .wait_exit(Duration::from_secs(10))
        .expect("plyd ran on with its plugin's code written over");
    assert!(status.signal().is_some(), "{status:?}");
    let stderr = e.stderr_lines().join("\n");
    assert!(
        stderr.contains(&format!(
            "plyd: the plugin file {} was written over after it was loaded",
            othello.display()
        )),
        "{stderr}"
    );
}

/// A crash inside an evaluator under `plyd check` names the position it
/// came at, as a panic there does (the address alone was said).
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn a_crash_under_check_names_the_position() {
    use std::os::unix::process::ExitStatusExt;
    let out = common::check_with_odd_evaluator("segfault", "1");
    assert_eq!(out.status.signal(), Some(libc::SIGSEGV), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("plyd: SIGSEGV inside the plugin "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        lines[at + 1].starts_with("plyd: it came while checking game 1 ply ")
            && lines[at + 1].contains(", position '"),
        "{stderr}"
    );
}

/// A `perft` of the `faulty` test game in `mode`, which ends by `signal`:
/// plyd's line on stderr naming the signal inside the plugin, and the
/// plugin folder.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn last_words_of_faulty(mode: &str, signal: i32) -> (String, common::TempDir) {
    use std::os::unix::process::ExitStatusExt;
    let dir = plugin_dir(&[("plyd_test_bad_abi", "faulty")]);
    let out = common::plyd_command(dir.path())
        .args(["perft", "--game", "panicky", "--depth", "1"])
        .env("PLYD_TEST_BAD_TABLE", mode)
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), Some(signal), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = if signal == libc::SIGABRT {
        "SIGABRT"
    } else {
        "SIGSEGV"
    };
    let line = stderr
        .lines()
        .find(|l| l.starts_with(&format!("plyd: {name} inside the plugin ")))
        .unwrap_or_else(|| panic!("{stderr}"))
        .to_string();
    (line, dir)
}

/// A fault signal sent by another process (`kill -SEGV`) ends the daemon
/// by it, without a line (it was taken for no fault and ignored).
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn a_fault_signal_sent_from_outside_ends_the_daemon() {
    use std::io::{BufRead, Write};
    use std::os::unix::process::ExitStatusExt;
    let dir = common::othello_dir();
    for signal in [libc::SIGSEGV, libc::SIGBUS] {
        let mut child = common::plyd_command(dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "isready").unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        while !line.starts_with("readyok") {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "no readyok");
        }
        // SAFETY: kill(2) of our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(!stderr.contains("inside the plugin"), "{stderr}");
        drop(stdin);
    }
}

/// An abort inside a plugin (its `abort`, a failed `assert`, a C++
/// exception leaving an entry) is named too, by where plyd called the
/// plugin; the process still dies of SIGABRT.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn an_abort_inside_a_plugin_is_named_before_the_process_dies_of_it() {
    let (line, dir) = last_words_of_faulty("abort", libc::SIGABRT);
    assert!(
        line.contains("libplyd_game_faulty.so, at 0x")
            && line.contains("(addr2line -f -C -i -e ")
            && line.contains("a C++ exception")
            && line.contains("built with panic = \"abort\""),
        "{line}"
    );
    // The place is the entry plyd called, which addr2line names.
    let offset = line
        .split(", at ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let file = dir.path().join("libplyd_game_faulty.so");
    if let Ok(named) = std::process::Command::new("addr2line")
        .args(["-f", "-C", "-e"])
        .arg(&file)
        .arg(offset)
        .output()
    {
        let named = String::from_utf8_lossy(&named.stdout);
        assert!(named.contains("aborting_gen"), "{named}");
    }
}

/// In the command-line tools too, a plugin's own stdout goes to stderr,
/// not into the tool's output.
#[test]
fn a_plugins_own_stdout_is_kept_out_of_a_tools_output() {
    let dir = panicky_dir();
    let out = common::plyd_command(dir.path())
        .args([
            "perft", "--game", "panicky", "--fen", "print", "--depth", "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("panicky: printed on stdout")
            && stderr.contains("plyd perft: bad position 'print': asked to print on stdout"),
        "{stderr}"
    );
    // The tool's own output still reaches stdout.
    let out = common::plyd_command(dir.path())
        .args(["perft", "--game", "panicky", "--fen", "5", "--depth", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Nodes searched: "),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A perft that fails (its plugin panics on the way), or that cannot
/// start (the plugin is disabled since), ends as every perft does, with
/// `Nodes searched`, after its one error line: a tool waiting for that
/// line does not wait for ever.
#[test]
fn a_failed_perft_still_ends_with_its_count() {
    let (mut e, _dir) = panicky_engine();
    play_panicky(&mut e);
    // Below 8 counters the moves of 7 are generated: a panic.
    e.send("position fen 8");
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 0", "{lines:?}");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(errors(&lines)[0].contains("panicked"), "{lines:?}");
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 0", "{lines:?}");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    // A bench that cannot start (a game not loaded) likewise.
    e.send("bench chess 1");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 0", "{lines:?}");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        errors(&lines)[0].contains("unknown game 'chess'"),
        "{lines:?}"
    );
    // A second game is named as skipped; the bench runs.
    e.send("bench othello abc 1");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    assert_ne!(lines.last().unwrap(), "Nodes searched: 0", "{lines:?}");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        errors(&lines)[0].contains("bench: 'abc' skipped: bench takes one game and one depth"),
        "{lines:?}"
    );
}

/// A move spelled as two words would be read by the GUI as a move and
/// something else (`bestmove 1 1`): it is garbage from the plugin.
#[test]
fn a_move_spelled_as_more_than_one_word_is_refused() {
    let (mut e, _dir) = panicky_engine();
    play_panicky(&mut e);
    e.send("position fen 17");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("plugin panicky returned garbage from format_move: move text \"")
            && told[0].contains("\" is not one word"),
        "{lines:?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains(" pv 1 1") || l.contains(" pv 2 2")),
        "{lines:?}"
    );
}

#[test]
fn plugin_panic_while_reading_a_position_is_contained() {
    let (mut e, _dir) = panicky_engine();
    play_panicky(&mut e);
    e.send("position fen 5");
    assert_eq!(e.fen(), "5");
    e.send("position fen panic");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("panicked in set_position"), "{lines:?}");
    // The plugin is now disabled: using it is an error, not a crash.
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(lines.iter().any(|l| l.contains("disabled")), "{lines:?}");
    // The other game still works.
    e.send("setoption name UCI_Variant value othello");
    e.sync();
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn plugin_panic_during_search_keeps_the_last_answer() {
    let (mut e, _dir) = panicky_engine();
    e.send("setoption name UCI_Variant value panicky");
    // From 9, the moves lead to 8 and 7; generating moves at 7 panics at depth 2.
    e.send("position fen 9");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(error[0].contains("panicked in gen_moves"));
    let best = lines.last().unwrap();
    assert!(best == "bestmove 1" || best == "bestmove 2", "{lines:?}");
    assert!(e.sync().is_empty());
}

#[test]
fn a_plugin_failing_at_the_root_is_called_once_and_its_error_told() {
    // At 7 generating the moves panics: the first generation of the
    // search's root fails, the plugin is disabled and not called again
    // (it had been, once more, by the search), and the error line names
    // the panic, not "disabled after an earlier failure".
    let (mut e, _dir) = panicky_engine();
    e.send("setoption name UCI_Variant value panicky");
    e.send("position fen 7");
    e.send("go depth 1");
    let lines = e.until_bestmove();
    assert_eq!(
        errors(&lines),
        ["info string error: plugin panicky panicked in gen_moves; the plugin is disabled until it is reloaded"],
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.sync();
    let log = e.stderr_lines();
    let panics = log
        .iter()
        .filter(|l| l.starts_with("plugin panicky panicked at "))
        .count();
    assert_eq!(panics, 1, "{log:?}");
}

#[test]
fn plugin_panic_in_the_evaluator_is_contained() {
    let (mut e, _dir) = panicky_engine();
    e.send("setoption name UCI_Variant value panicky");
    // From 14, taking one leaves 13, whose evaluation panics.
    e.send("position fen 14");
    e.send("go depth 1");
    let lines = e.until_bestmove();
    assert!(
        errors(&lines)
            .iter()
            .any(|l| l.contains("panicked in evaluate")),
        "{lines:?}"
    );
    assert!(e.sync().is_empty());
}

#[test]
fn eval_names_the_entry_that_panicked() {
    let (mut e, _dir) = panicky_engine();
    e.send("setoption name UCI_Variant value panicky");
    // The evaluation of 13 panics; the evaluator has no `explain` of its
    // own, and the SDK's calls `evaluate`.
    e.send("position fen 13");
    e.send("eval");
    let lines = e.sync();
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(error[0].contains("panicked in evaluate"), "{lines:?}");
    e.send("position fen 12");
    e.send("go depth 2");
    assert!(e.until_bestmove().last().unwrap().starts_with("bestmove "));
}

/// The resident memory of process `pid`, in MiB.
#[cfg(target_os = "linux")]
fn resident_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        / 1024
}

/// Load the plugins of `dir` (`PluginPath`), with no error; the daemon's
/// resident memory then, in MiB.
#[cfg(target_os = "linux")]
fn reload_plugins(e: &mut Engine, dir: &Path) -> u64 {
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.display()
    ));
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    resident_mib(e.pid())
}

/// Under `RUST_BACKTRACE=1`, a panic in a plugin built with the SDK is one
/// line on stderr, without Rust's report: each reload after a panic is a
/// fresh copy of the plugin, whose own runtime once read the executable's
/// symbols for a backtrace (about 62 MiB a panic that stayed).
#[cfg(target_os = "linux")]
#[test]
fn a_plugin_panic_is_one_line_and_leaves_no_backtrace_memory() {
    let dir = panicky_dir();
    let mut e = Engine::start(dir.path(), &[], &[("RUST_BACKTRACE", "1")]);
    let mut sizes = Vec::new();
    for _ in 0..6 {
        e.send("setoption name UCI_Variant value panicky");
        // From 9 the search reaches 7, where generating the moves panics.
        e.send("position fen 9");
        e.send("go depth 4");
        let lines = e.until_bestmove();
        assert!(
            errors(&lines)
                .iter()
                .any(|l| l.contains("panicked in gen_moves")),
            "{lines:?}"
        );
        e.send(&format!(
            "setoption name PluginPath value {}",
            dir.path().display()
        ));
        e.sync();
        sizes.push(resident_mib(e.pid()));
    }
    assert!(
        sizes[5] < sizes[0] + 40,
        "resident MiB after each: {sizes:?}"
    );
    let log = e.stderr_lines();
    let told: Vec<_> = log
        .iter()
        .filter(|l| {
            l.starts_with("plugin panicky panicked at ")
                && l.ends_with(": asked to panic while generating moves")
        })
        .collect();
    assert_eq!(told.len(), 6, "{log:?}");
    assert!(
        !log.iter().any(|l| l.contains("stack backtrace")),
        "{log:?}"
    );
}

/// Going back and forth between two installs of a plugin maps each once:
/// a library is never unloaded, so going back finds it with its statics
/// (unloaded, the Othello plugin's statics leaked and were built again,
/// about 19 MiB at every switch).
#[cfg(target_os = "linux")]
#[test]
fn switching_between_two_installs_loads_each_once() {
    let (first, second) = (common::othello_dir(), common::othello_dir());
    let mut e = Engine::start(first.path(), &[], &[]);
    let sizes: Vec<u64> = (0..8)
        .map(|round| {
            let dir = if round % 2 == 0 { &second } else { &first };
            reload_plugins(&mut e, dir.path())
        })
        .collect();
    assert!(
        sizes[7] < sizes[1] + 40,
        "resident MiB after each: {sizes:?}"
    );
    e.send("go depth 3");
    assert_ne!(e.until_bestmove().last().unwrap(), "bestmove (none)");
}

/// An install changed once (touched, reinstalled) is copied once: later
/// reloads of the unchanged file are that copy again (each reload once
/// made a copy more, about 22 MiB of the Othello plugin).
#[cfg(target_os = "linux")]
#[test]
fn a_file_changed_once_is_copied_once() {
    let dir = common::othello_dir();
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.sync();
    // A new modification time: the file changed.
    touch_the_othello_plugin(dir.path());
    let sizes: Vec<u64> = (0..7).map(|_| reload_plugins(&mut e, dir.path())).collect();
    assert!(
        sizes[6] < sizes[0] + 40,
        "resident MiB after each: {sizes:?}"
    );
    e.send("go depth 3");
    assert_ne!(e.until_bestmove().last().unwrap(), "bestmove (none)");
}

/// Give the Othello plugin in `dir` a new modification time: a file that
/// changed since it was loaded.
#[cfg(target_os = "linux")]
fn touch_the_othello_plugin(dir: &Path) {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|p| p.to_string_lossy().contains("othello"))
        .unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(later)
        .unwrap();
}

/// A changed plugin is loaded again from a copy made elsewhere when the
/// temporary folder cannot take it (not there here; mounted `noexec`, the
/// same failure at loading rather than at copying).
#[cfg(target_os = "linux")]
#[test]
fn a_changed_plugin_loads_again_where_tmpdir_cannot_hold_its_copy() {
    let dir = common::othello_dir();
    let mut e = Engine::start(dir.path(), &[], &[("TMPDIR", "/no/such/folder")]);
    e.sync();
    touch_the_othello_plugin(dir.path());
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.path().display()
    ));
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(e.fen(), "8/8/8/3OX3/3XO3/8/8/8 b");
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
}

/// Under an address-space limit, reloads of a changed plugin (each copy
/// staying loaded) are refused with one line once the memory left cannot
/// take another, the plugins and game staying: the fifth such reload of
/// the four games under 256 MiB ended the process.
#[cfg(target_os = "linux")]
#[test]
fn reloads_the_memory_cannot_take_are_refused_under_a_limit() {
    let dir = common::othello_dir();
    let mut e = Engine::start_capped(dir.path(), &[], 160 << 20);
    e.sync();
    let mut refused = Vec::new();
    let mut reloaded = 0;
    for _ in 0..10 {
        touch_the_othello_plugin(dir.path());
        e.send(&format!(
            "setoption name PluginPath value {}",
            dir.path().display()
        ));
        let lines = e.sync();
        refused = errors(&lines).into_iter().cloned().collect();
        if !refused.is_empty() {
            break;
        }
        reloaded += 1;
    }
    // Those that fit were taken (Othello's copies, about 25 MiB each).
    assert!(reloaded >= 2, "{reloaded} reloads, then {refused:?}");
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].contains("plugins not reloaded: loading them again may take about"),
        "{refused:?}"
    );
    assert_eq!(e.fen(), "8/8/8/3OX3/3XO3/8/8/8 b");
    e.send("go depth 3");
    assert_ne!(e.until_bestmove().last().unwrap(), "bestmove (none)");
    e.send("quit");
    let status = e.wait_exit(std::time::Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let log = e.stderr_lines();
    assert!(!log.iter().any(|l| l.contains("allocation")), "{log:?}");
}

/// An installed plyd whose own file an upgrade replaced while it ran still
/// finds its plugin folder (`../lib/plyd`) when `PluginPath` is set empty:
/// the system names the old file ` (deleted)`, and the folder was not found.
#[cfg(target_os = "linux")]
#[test]
fn a_running_plyd_replaced_by_an_upgrade_still_finds_its_plugins() {
    let prefix = common::TempDir::new("upgraded-install");
    let bin = prefix.path().join("bin");
    let lib = prefix.path().join("lib").join("plyd");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&lib).unwrap();
    let exe = bin.join("plyd");
    std::fs::copy(common::plyd_bin(), &exe).unwrap();
    std::fs::copy(
        built_library("plyd_game_othello"),
        lib.join(format!(
            "{}plyd_game_othello{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        )),
    )
    .unwrap();
    let mut command = std::process::Command::new(&exe);
    command.env_remove("PLYD_PLUGIN_PATH");
    let mut e = Engine::spawn(command, &[], &[]);
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // The upgrade: a new file moved over the running one.
    let new = bin.join("plyd.new");
    std::fs::copy(common::plyd_bin(), &new).unwrap();
    std::fs::rename(&new, &exe).unwrap();
    e.send("setoption name PluginPath value");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(e.fen(), "8/8/8/3OX3/3XO3/8/8/8 b");
}

/// A reload in which the game in play does not load again (its file
/// broken mid-upgrade) is refused with one line: the plugins before stay,
/// the game and its position with them, where another game took its place.
#[test]
fn a_reload_that_loses_the_game_in_play_to_a_broken_file_keeps_the_plugins() {
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let file = dir.path().join(format!(
        "{}plyd_game_xiangqi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h2e2");
    e.sync();
    let before = e.fen();
    // Replaced as installs replace a file (a new one moved over it: one
    // written over in place would pull the mapped library from under the
    // daemon).
    let replace = |bytes: &[u8]| {
        let new = dir.path().join("new.tmp");
        std::fs::write(&new, bytes).unwrap();
        std::fs::rename(&new, &file).unwrap();
    };
    let good = std::fs::read(&file).unwrap();
    replace(b"not a library");
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.path().display()
    ));
    let lines = e.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("plugins not reloaded: the game in play, xiangqi, did not load again")
            && told[0].contains("libplyd_game_xiangqi")
            && told[0].ends_with("the plugins loaded before stay"),
        "{lines:?}"
    );
    assert_eq!(e.fen(), before);
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
    // Mended, the reload goes through.
    replace(&good);
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.path().display()
    ));
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

#[test]
fn plugin_path_option_reloads_or_keeps_the_old_plugins() {
    let (mut e, dir) = panicky_engine();
    e.send("setoption name PluginPath value /no/such/folder");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert_eq!(e.fen(), "8/8/8/3OX3/3XO3/8/8/8 b", "still Othello");
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.path().display()
    ));
    let lines = e.sync();
    assert_eq!(
        lines,
        vec!["info string variant othello startpos 8/8/8/3OX3/3XO3/8/8/8 b".to_string()]
    );
    // One folder named 20,000 times is read once; 65 folders are more
    // than a reload reads, refused with the plugins kept.
    let folder = dir.path().display().to_string();
    let repeated = vec![folder.as_str(); 20_000].join(":");
    e.send(&format!("setoption name PluginPath value {repeated}"));
    let lines = e.sync();
    assert_eq!(
        lines,
        vec!["info string variant othello startpos 8/8/8/3OX3/3XO3/8/8/8 b".to_string()]
    );
    let many: Vec<String> = (0..65).map(|i| format!("/no/such/folder{i}")).collect();
    e.send(&format!(
        "setoption name PluginPath value {}",
        many.join(":")
    ));
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        errors(&lines)[0].contains("PluginPath names 65 folders, more than the 64 searched"),
        "{lines:?}"
    );
    assert_eq!(e.fen(), "8/8/8/3OX3/3XO3/8/8/8 b", "still Othello");
}

#[test]
fn plugin_path_loads_a_rebuilt_plugin_as_it_now_is() {
    // One file name, two builds: the first is the `cycle` game, then a
    // rebuild installed in its place (a new file moved over it) is the
    // `tactics` game. The loader would hand back the copy it has for the
    // path; the reload must load the file as it now is.
    let dir = plugin_dir(&[("plyd_test_cycle", "mine")]);
    let file = dir.path().join(format!(
        "{}plyd_game_mine{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let mut e = Engine::start(dir.path(), &[], &[]);
    let variants = |e: &mut Engine| {
        e.send("uci");
        let lines = e.read_until(|l| l == "uciok");
        lines
            .into_iter()
            .find(|l| l.starts_with("option name UCI_Variant "))
            .unwrap()
    };
    assert!(variants(&mut e).contains("var cycle"));
    let rebuilt = dir.path().join("rebuilt.tmp");
    std::fs::copy(built_library("plyd_test_tactics"), &rebuilt).unwrap();
    std::fs::rename(&rebuilt, &file).unwrap();
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.path().display()
    ));
    // The game in use is gone with the old build: the new one's is taken.
    let lines = e.sync();
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("info string variant tactics "),
        "{lines:?}"
    );
    let listed = variants(&mut e);
    assert!(
        listed.contains("var tactics") && !listed.contains("var cycle"),
        "{listed}"
    );
    e.send("go depth 2");
    assert!(errors(&e.until_bestmove()).is_empty());
}

#[test]
fn an_option_refused_with_a_reason_that_fills_its_buffer_reads_no_further() {
    // The plugin's `set_option` fills all 256 bytes lent for the reason
    // and writes no NUL: the reason is those bytes, nothing past them.
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_test_bad_abi", "garbage"),
    ]);
    let mut e = Engine::start(
        dir.path(),
        &[],
        &[("PLYD_TEST_BAD_TABLE", "unterminated-reason")],
    );
    e.send("setoption name UCI_Variant value panicky");
    e.sync();
    e.send("setoption name Rule value strict");
    let lines = e.sync();
    assert_eq!(
        errors(&lines),
        [&format!(
            "info string error: option 'Rule': {}",
            "r".repeat(256)
        )],
        "{lines:?}"
    );
    // A refused value, not a broken plugin: the game plays on.
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn a_game_plugin_answering_garbage_is_disabled_and_othello_plays_on() {
    // (mode, command that meets the garbage, what the one error line says)
    let cases = [
        (
            "runaway-count",
            "go depth 2",
            "plugin panicky returned garbage from gen_moves: count 1099511627776 is out of range; the plugin is disabled",
        ),
        (
            "unterminated",
            "d",
            "plugin panicky returned garbage from board_text: text is not NUL-terminated; the plugin is disabled",
        ),
        // Room for what it claimed, and it claims more: garbage at the
        // second call (the buffer grew a byte a call, a million calls).
        (
            "growing",
            "d",
            "plugin panicky returned garbage from board_text: text length 256, then 257 with room for 256; the plugin is disabled",
        ),
    ];
    for (mode, command, expected) in cases {
        let dir = plugin_dir(&[
            ("plyd_game_othello", "othello"),
            ("plyd_test_bad_abi", "garbage"),
        ]);
        let mut e = Engine::start(dir.path(), &[], &[("PLYD_TEST_BAD_TABLE", mode)]);
        e.send("setoption name UCI_Variant value panicky");
        e.sync();
        e.send(command);
        let lines = if command.starts_with("go") {
            e.until_bestmove()
        } else {
            e.sync()
        };
        let error = errors(&lines);
        assert_eq!(error.len(), 1, "{mode}: {lines:?}");
        assert_eq!(
            error[0],
            &format!("info string error: {expected}"),
            "{mode}"
        );
        // From now on the plugin is out of use, with a reason, not a crash.
        e.send("go depth 1");
        let lines = e.until_bestmove();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("is disabled after an earlier failure")),
            "{mode}: {lines:?}"
        );
        assert_eq!(lines.last().unwrap(), "bestmove (none)");
        // The other game is untouched.
        e.send("setoption name UCI_Variant value othello");
        e.sync();
        e.send("go depth 2");
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "{mode}: {lines:?}");
        assert_ne!(lines.last().unwrap(), "bestmove (none)");
        // Choosing the disabled game again says it is disabled.
        e.send("setoption name UCI_Variant value panicky");
        let lines = e.sync();
        assert_eq!(
            errors(&lines),
            ["info string error: plugin panicky is disabled after an earlier failure; reload it with PluginPath or choose another UCI_Variant"],
            "{mode}"
        );
    }
}

/// A small deterministic generator for the random playouts below.
fn next_random(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn othello_is_legal_agrees_with_the_move_list_in_random_positions() {
    let mut host = PluginHost::default();
    let othello = host
        .load_file(&built_library("plyd_game_othello"))
        .expect("othello loads");
    assert!(othello.has_is_legal(), "othello exports is_legal");
    let pass = 64;
    let junk = [65, 100, 1 << 20, u32::MAX - 1, plyd_api::NULL_MOVE];
    let mut seed = 2026;
    let mut moves = Vec::new();
    let mut positions = 0;
    for _game in 0..60 {
        let mut state = GameState::new(&othello, 0).unwrap();
        loop {
            state.legal_moves(&mut moves).unwrap();
            for mv in (0..64).chain([pass]) {
                assert_eq!(
                    state.is_legal(mv).unwrap(),
                    moves.contains(&mv),
                    "move {mv} in {}",
                    state.position_text().unwrap()
                );
            }
            for mv in junk {
                assert!(!state.is_legal(mv).unwrap(), "junk {mv} is not legal");
            }
            positions += 1;
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next_random(&mut seed) % moves.len() as u64) as usize];
            state.make_move(mv).unwrap();
        }
    }
    assert!(positions > 60 * 50, "only {positions} positions");
}

#[test]
fn is_legal_without_the_entry_looks_in_the_move_and_outcome_lists() {
    let mut host = PluginHost::default();
    let dice = host
        .load_file(&built_library("plyd_test_dice"))
        .expect("dice loads");
    assert!(!dice.has_is_legal());
    assert!(dice.has_chance());
    let mut state = GameState::new(&dice, 0).unwrap();
    let mut seed = 7;
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    for _ply in 0..40 {
        state.chance_outcomes(&mut outcomes).unwrap();
        state.legal_moves(&mut moves).unwrap();
        let listed: Vec<u32> = if outcomes.is_empty() {
            moves.clone()
        } else {
            outcomes.iter().map(|&(token, _)| token).collect()
        };
        for mv in (0..300).chain([plyd_api::NULL_MOVE]) {
            assert_eq!(state.is_legal(mv).unwrap(), listed.contains(&mv), "{mv}");
        }
        if listed.is_empty() {
            break;
        }
        let mv = listed[(next_random(&mut seed) % listed.len() as u64) as usize];
        state.make_move(mv).unwrap();
    }
}

#[test]
fn tactics_is_legal_agrees_with_the_move_list() {
    let mut host = PluginHost::default();
    let tactics = host
        .load_file(&built_library("plyd_test_tactics"))
        .expect("tactics loads");
    assert!(tactics.has_is_legal());
    let mut seed = 11;
    let mut moves = Vec::new();
    for _game in 0..50 {
        let mut state = GameState::new(&tactics, 0).unwrap();
        loop {
            state.legal_moves(&mut moves).unwrap();
            for mv in (0..8).chain([1000, plyd_api::NULL_MOVE]) {
                assert_eq!(state.is_legal(mv).unwrap(), moves.contains(&mv), "{mv}");
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next_random(&mut seed) % moves.len() as u64) as usize];
            state.make_move(mv).unwrap();
        }
    }
}

fn stalling_engine() -> (Engine, common::TempDir) {
    let (mut e, dir) = panicky_engine();
    play_panicky(&mut e);
    (e, dir)
}

/// The scheduling policy and nice value of each thread of the daemon, its
/// main thread first (Linux: fields 41 and 19 of `/proc/PID/task/TID/stat`).
#[cfg(target_os = "linux")]
fn thread_priorities(e: &Engine) -> Vec<(u32, i32)> {
    let read = |tid: &str| -> Option<(u32, i32)> {
        let stat = std::fs::read_to_string(format!("/proc/{}/task/{tid}/stat", e.pid())).ok()?;
        // The fields after the name's closing parenthesis start at the third.
        let after: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
        Some((after[41 - 3].parse().ok()?, after[19 - 3].parse().ok()?))
    };
    let main = e.pid().to_string();
    let tasks = std::fs::read_dir(format!("/proc/{main}/task")).unwrap();
    let others = tasks
        .filter_map(|task| Some(task.ok()?.file_name().to_string_lossy().into_owned()))
        .filter(|tid| *tid != main)
        .filter_map(|tid| read(&tid));
    std::iter::once(read(&main).expect("the main thread"))
        .chain(others)
        .collect()
}

/// The thread left in the stuck call is demoted: it takes no core the
/// daemon's own threads want. Some thread is in the idle scheduling class
/// (policy 5) or at nice 19 where the main thread is not; where the main
/// thread is at both already (tests run that way), nothing can be lower.
fn assert_stuck_thread_demoted(e: &Engine) {
    #[cfg(target_os = "linux")]
    {
        const IDLE: u32 = 5;
        let threads = thread_priorities(e);
        let (main_policy, main_nice) = threads[0];
        let lower = |&(policy, nice): &(u32, i32)| {
            (policy == IDLE && main_policy != IDLE) || (nice == 19 && main_nice != 19)
        };
        let bottom = main_policy == IDLE && main_nice == 19;
        assert!(
            bottom || threads[1..].iter().any(lower),
            "no thread of the daemon was demoted: {threads:?}"
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = e;
}

/// After the watchdog gave up on the panicky plugin: its stuck thread is
/// demoted, it is refused until reloaded, Othello plays on, and a reload
/// brings the plugin back.
fn assert_stall_refused_then_reloaded(e: &mut Engine, dir: &Path) {
    assert_stuck_thread_demoted(e);
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(
        errors(&lines).iter().any(|l| l.contains("disabled")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.send("setoption name UCI_Variant value othello");
    e.sync();
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert_ne!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.display()
    ));
    e.send("setoption name UCI_Variant value panicky");
    e.send("position fen 5");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove 2 "),
        "5 - 2 leaves 3: {lines:?}"
    );
    assert!(e.sync().is_empty());
}

/// Wait until the panicky plugin says a call of it is stuck.
fn until_stuck(e: &mut Engine) {
    let deadline = std::time::Instant::now() + common::PATIENCE;
    while !e.stderr_lines().iter().any(|l| l.contains("never returns")) {
        assert!(
            std::time::Instant::now() < deadline,
            "the plugin never stalled"
        );
    }
}

/// The one `bestmove` among `lines`.
fn the_one_bestmove(lines: &[String]) -> &str {
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{lines:?}");
    best[0]
}

/// Lines up to and including the watchdog's error line.
fn until_given_up(e: &mut Engine) -> Vec<String> {
    e.read_until(|l| l.starts_with("info string error:") && l.contains("did not return"))
}

#[test]
fn a_plugin_call_that_never_returns_still_gets_a_timed_bestmove() {
    let (mut e, dir) = stalling_engine();
    // Searching from 20, generating the moves at 19 never returns: the
    // first iteration finishes (it only evaluates 19 and 18), the second
    // does not, and the first's best move is the answer.
    e.send("position fen 20 stall 19");
    e.send("go wtime 2000 btime 2000 winc 0 binc 0");
    let lines = until_given_up(&mut e);
    let best = the_one_bestmove(&lines);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert!(
        best.starts_with("bestmove 2"),
        "20 - 2 leaves 18: {lines:?}"
    );
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(error[0].contains("plugin panicky"), "{error:?}");
    // The daemon answers at once and is idle: nothing more of that search.
    assert!(e.sync().is_empty());
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn a_plugin_stuck_at_the_root_gets_bestmove_none_and_one_error() {
    let (mut e, dir) = stalling_engine();
    // Even the root's moves never come: there is no move to give.
    e.send("position fen 12 stall 12");
    e.send("go movetime 100");
    let lines = until_given_up(&mut e);
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best, vec!["bestmove (none)"], "{lines:?}");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(e.sync().is_empty());
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn stop_answers_a_search_stuck_in_a_plugin_and_quit_still_exits() {
    let (mut e, dir) = stalling_engine();
    e.send("position fen 20 stall 19");
    e.send("go infinite");
    until_stuck(&mut e);
    e.send("stop");
    let lines = until_given_up(&mut e);
    assert!(
        the_one_bestmove(&lines).starts_with("bestmove 2"),
        "{lines:?}"
    );
    assert!(e.sync().is_empty());
    assert_stall_refused_then_reloaded(&mut e, dir.path());
    // A stuck search does not keep the daemon from quitting.
    e.send("position fen 20 stall 19");
    e.send("go infinite");
    until_stuck(&mut e);
    e.send("quit");
    let status = e.wait_exit(common::PATIENCE).expect("plyd exits");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_search_without_a_clock_stuck_in_a_plugin_is_answered_once_it_stops_making_progress() {
    let (mut e, dir) = stalling_engine();
    // As above, but `go depth` has no deadline: the watchdog sees the
    // search give no sign of life for the call limit.
    e.send("position fen 20 stall 19");
    e.send("go depth 12");
    let lines = until_given_up(&mut e);
    assert!(
        the_one_bestmove(&lines).starts_with("bestmove 2"),
        "{lines:?}"
    );
    assert_one_stuck_call(
        &lines,
        &format!("call: the search made no progress for {CALL_LIMIT_S} s"),
    );
    assert!(e.sync().is_empty());
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn a_perft_stuck_in_a_plugin_is_given_up_once_it_stops_making_progress() {
    let (mut e, dir) = stalling_engine();
    // Counting below 20 reaches 17, whose moves never come.
    e.send("position fen 20 stall 17");
    e.send("go perft 4");
    let lines = until_given_up(&mut e);
    assert!(
        !lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:?}"
    );
    assert_one_stuck_call(
        &lines,
        &format!("call: perft made no progress for {CALL_LIMIT_S} s"),
    );
    // After the error, the last line of a perft that fails: no count.
    assert_eq!(e.sync(), ["Nodes searched: 0"]);
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

/// One error line from the controller's own watch, naming the plugin and
/// what it was doing.
fn assert_one_stuck_call(lines: &[String], what: &str) {
    let error = errors(lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(
        error[0].contains("plugin panicky did not return from a call")
            && error[0].contains(what)
            && error[0].contains("disabled"),
        "{error:?}"
    );
}

#[test]
fn an_evaluator_that_never_finishes_reading_its_parameters_costs_the_plugin_not_the_daemon() {
    let (mut e, dir) = stalling_engine();
    let params = common::TempDir::new("params");
    let file = params.path().join("stall.toml");
    std::fs::write(&file, "stall = true\n").unwrap();
    e.send(&format!(
        "setoption name EvalParams value {}",
        file.display()
    ));
    let lines = e.sync();
    assert_one_stuck_call(
        &lines,
        &format!("creating the evaluator was given up after {CALL_LIMIT_S} s"),
    );
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn searchmoves_the_plugin_never_finishes_checking_get_bestmove_none() {
    let (mut e, dir) = stalling_engine();
    // The root's moves never come: neither the `searchmoves` check nor a
    // search can give a move.
    e.send("position fen 12 stall 12");
    e.send("go movetime 100 searchmoves 1");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    assert_one_stuck_call(&lines, "preparing the search was given up");
    assert!(e.sync().is_empty());
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn a_board_the_plugin_never_finishes_drawing_costs_the_plugin_not_the_daemon() {
    let (mut e, dir) = stalling_engine();
    e.send("position fen 4 stall 4");
    e.send("d");
    let lines = e.sync();
    assert_one_stuck_call(&lines, "showing the position was given up");
    assert!(!lines.iter().any(|l| l.starts_with("Fen:")), "{lines:?}");
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn a_position_the_plugin_never_finishes_reading_costs_the_plugin_not_the_daemon() {
    let (mut e, dir) = stalling_engine();
    // A setting made before, to outlive the controller that gets stuck.
    e.send("setoption name Threads value 2");
    assert!(e.sync().is_empty());
    // Reading the move needs the moves of 12 counters, which never come:
    // the controller itself is stuck, on the clock of the `go` after it.
    e.send("position fen 12 stall 12 moves 1");
    e.send("go movetime 100");
    let lines = e.until_bestmove();
    assert_eq!(the_one_bestmove(&lines), "bestmove (none)", "{lines:?}");
    let error = errors(&lines);
    assert!(
        error[0].contains("plugin panicky did not return from a call")
            && error[0].contains(&format!(
                "reading the position was given up after {CALL_LIMIT_S} s"
            ))
            && error[0].contains("disabled"),
        "{error:?}"
    );
    // The position's error, then the go's: nothing else.
    assert_eq!(error.len(), 2, "{lines:?}");
    assert!(e.sync().is_empty());
    e.send("uci");
    let options = e.read_until(|l| l == "uciok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 2 ")),
        "{options:?}"
    );
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn a_search_left_running_by_a_stuck_controller_is_answered_once() {
    let (mut e, dir) = stalling_engine();
    // Below 7 counters: no panic on the way.
    e.send("position fen 6");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth 3 "));
    // A GUI that moves on without `stop`: the next position never reads.
    e.send("position fen 12 stall 12 moves 1");
    let lines = e.until_bestmove();
    assert!(
        the_one_bestmove(&lines).starts_with("bestmove "),
        "{lines:?}"
    );
    assert_ne!(the_one_bestmove(&lines), "bestmove (none)");
    e.send("stop");
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "one go, one bestmove: {lines:?}"
    );
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "the position's error: {lines:?}");
    assert!(
        error[0].contains(&format!(
            "reading the position was given up after {CALL_LIMIT_S} s"
        )),
        "{error:?}"
    );
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

#[test]
fn a_plugin_that_never_finishes_loading_leaves_a_daemon_that_answers() {
    let dir = panicky_dir();
    // The start position of the game asked for never comes.
    let config = short_call_limit(&dir);
    let mut e = Engine::start(
        dir.path(),
        &["--game", "panicky-stuck", "--config", &config],
        &[],
    );
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with("id name plyd")),
        "{lines:?}"
    );
    assert_in_log(
        &mut e,
        &[&format!(
            "did not return from a call: loading the plugins was given up after {} s",
            2 * CALL_LIMIT_S
        )],
    );
    assert_stuck_thread_demoted(&e);
    e.send("go depth 1");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    assert!(
        errors(&lines)
            .iter()
            .any(|l| l.contains("no game is loaded")),
        "{lines:?}"
    );
    // Loading again, with no game named, starts Othello.
    e.send(&format!(
        "setoption name PluginPath value {}",
        dir.path().display()
    ));
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_ne!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
}

#[test]
fn quit_behind_a_position_the_plugin_never_finishes_reading_still_exits() {
    let (mut e, _dir) = stalling_engine();
    e.send("position fen 12 stall 12 moves 1");
    e.send("quit");
    let status = e.wait_exit(common::PATIENCE).expect("plyd exits");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_search_stuck_spinning_in_a_plugin_is_answered_and_its_thread_demoted() {
    let (mut e, dir) = stalling_engine();
    // As with `stall`, but the stuck call spins on a core.
    e.send("position fen 20 spin 19");
    e.send("go movetime 200");
    let lines = until_given_up(&mut e);
    assert!(
        the_one_bestmove(&lines).starts_with("bestmove 2"),
        "{lines:?}"
    );
    // Where it is stuck, for addr2line (Linux on x86-64 and AArch64).
    if cfg!(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    )) {
        let given_up = lines.last().unwrap();
        assert!(
            given_up.contains("; stuck inside ")
                && given_up.contains("libplyd_game_panicky.so, at 0x")
                && given_up.contains(" names the function)"),
            "{given_up}"
        );
    }
    assert!(e.sync().is_empty());
    assert_stall_refused_then_reloaded(&mut e, dir.path());
}

/// Botzone stops a bot that keeps running (`SIGSTOP`) from its answer to
/// its next turn, about a second. A search still in a slow plugin call
/// when the watchdog answered for it is frozen with the daemon; the pause
/// is not the plugin's doing, so the plugin is not given up when the
/// process goes on, even when the pause ends just after the grace that
/// would otherwise have run out. (A `call_limit` of 30 s, which caps how
/// long graces spent waiting for a core may start again, so that a loaded
/// machine stretching the call's 400 ms of processor time does not run
/// past the cap.)
#[cfg(unix)]
#[test]
fn a_daemon_stopped_just_past_the_grace_keeps_a_slow_plugin() {
    let (mut e, _dir) = watchdog_answered_a_slow_search();
    // Stopped for a little more than the grace (1 s) from the answer.
    e.signal("STOP");
    std::thread::sleep(std::time::Duration::from_millis(1050));
    e.signal("CONT");
    // The call ends within 400 ms of going on; the plugin stays usable.
    e.send("position fen 20");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(
        the_one_bestmove(&lines).starts_with("bestmove "),
        "{lines:?}"
    );
    assert!(e.sync().is_empty());
}

/// A panicky engine (`call_limit` 30 s) whose `go movetime 100` from 20
/// counters the watchdog answered: generating the moves at 19 takes 400
/// ms, so depth 1 scores the moves (19 is a leaf there) and depth 2 waits
/// in the call, which goes on after the answer.
#[cfg(unix)]
fn watchdog_answered_a_slow_search() -> (Engine, common::TempDir) {
    let (mut e, dir) = panicky_engine_with_call_limit(30_000);
    play_panicky(&mut e);
    e.send("position fen 20 slow 19");
    e.send("go movetime 100");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    (e, dir)
}

/// Pin every thread of process `pid` (and those it starts later) to `cpu`;
/// a thread that ended between the listing and its pinning is passed by.
#[cfg(target_os = "linux")]
fn pin_process(pid: u32, cpu: usize) {
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let Ok(task) = task else { continue };
        let tid: i32 = task.file_name().to_string_lossy().parse().unwrap();
        if !try_pin_thread(tid, cpu) {
            let gone = !std::path::Path::new(&format!("/proc/{pid}/task/{tid}")).exists();
            assert!(gone, "pinning {tid}");
        }
    }
}

/// Pin the thread `tid` (0: the calling one) to `cpu`.
#[cfg(target_os = "linux")]
fn pin_thread(tid: i32, cpu: usize) {
    assert!(try_pin_thread(tid, cpu), "pinning {tid}");
}

/// Pin the thread `tid` to `cpu`; whether it worked.
#[cfg(target_os = "linux")]
fn try_pin_thread(tid: i32, cpu: usize) -> bool {
    // SAFETY: a zeroed cpu_set_t is an empty set; CPU_SET writes inside it,
    // and sched_setaffinity reads it for the call's duration.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        let size = std::mem::size_of::<libc::cpu_set_t>();
        libc::sched_setaffinity(tid, size, &set) == 0
    }
}

/// A core this process may run on.
#[cfg(target_os = "linux")]
fn a_core_of_ours() -> usize {
    // SAFETY: as in `pin_thread`; sched_getaffinity fills the set.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        assert_eq!(libc::sched_getaffinity(0, size, &mut set), 0);
        (0..libc::CPU_SETSIZE as usize)
            .find(|&cpu| libc::CPU_ISSET(cpu, &set))
            .unwrap()
    }
}

/// The panicky plugin's game in a daemon with the default call limit (5 s),
/// which bounds how long a grace may start again for a busy machine.
#[cfg(target_os = "linux")]
fn busy_core_engine() -> (Engine, common::TempDir) {
    // The daemon tells a busy core by the waits the kernel counts; a
    // kernel built without scheduler statistics would leave it blind.
    assert!(
        std::path::Path::new("/proc/self/schedstat").exists(),
        "this kernel keeps no scheduler statistics (/proc/PID/schedstat)"
    );
    let dir = panicky_dir();
    let mut e = Engine::start(dir.path(), &[], &[]);
    play_panicky(&mut e);
    (e, dir)
}

/// Run `body` with the daemon `e` on one core shared with four threads
/// that spin until `body` returns.
#[cfg(target_os = "linux")]
fn on_a_busy_core(e: &mut Engine, body: impl FnOnce(&mut Engine)) {
    let cpu = a_core_of_ours();
    pin_process(e.pid(), cpu);
    /// Ends the spinning when dropped inside the scope, also when `body`
    /// panics (the scope waits for its threads before it unwinds).
    struct Stop<'a>(&'a std::sync::atomic::AtomicBool);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                pin_thread(0, cpu);
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            });
        }
        let _stop = Stop(&done);
        body(e);
    });
}

/// After a busy core: the plugin still plays, with no error, and the
/// warnings of counts started again (each of `warnings`) were logged.
#[cfg(target_os = "linux")]
fn assert_kept_after_a_busy_core(e: &mut Engine, warnings: &[&str]) {
    e.send("position fen 20");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    let log = e.stderr_lines();
    assert!(errors(&lines).is_empty(), "{lines:?} {log:?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove 2"),
        "20 - 2 leaves 18: {lines:?}"
    );
    for warning in warnings {
        assert!(
            log.iter().any(|l| l.contains(warning)),
            "{warning}: {log:?}"
        );
    }
}

/// A machine too busy to run the search is not a stuck plugin. With the
/// daemon on one core shared with four busy threads, a call that spins for
/// 2 s of the clock (`hold`) outlasts the grace (1 s after the watchdog
/// answered for the search) while its thread waits for the core most of
/// that time; the waits show in the thread's scheduler statistics, the
/// grace starts again, and the plugin stays usable. The same for a perft
/// asked to stop inside the call, whose grace after `stop` is 0.5 s; and,
/// with a `call_limit` of 1 s, for the limits it sets: a search without a
/// clock that gives no sign of life during the call, the controller's own
/// call on the clock, and `d`'s call on a thread of its own. The call's
/// length is the clock's, not processor time, so that other work on the
/// machine does not move it out of the windows the limits set; only the
/// share of it spent waiting grows. (One test, so that none of them share
/// the core.)
#[cfg(target_os = "linux")]
#[test]
fn plugin_calls_slowed_by_a_busy_core_are_not_taken_for_stuck() {
    let (mut e, _dir) = busy_core_engine();
    on_a_busy_core(&mut e, |e| {
        e.send("position fen 20 hold 19");
        e.send("go movetime 100");
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        // The call ends 2 s after it began; the core stays busy until then.
        std::thread::sleep(std::time::Duration::from_millis(3000));
    });
    assert_kept_after_a_busy_core(&mut e, &["waited for a core for most of its grace"]);

    on_a_busy_core(&mut e, |e| {
        // Below 20 counters the first position reached is 19, the held one.
        e.send("position fen 20 hold 19");
        e.send("go perft 3");
        std::thread::sleep(std::time::Duration::from_millis(200));
        e.send("stop");
        let lines = e.read_until(|l| l.starts_with("Nodes searched"));
        let error = errors(&lines);
        assert_eq!(error.len(), 1, "{lines:?}");
        assert!(error[0].contains("perft stopped"), "{lines:?}");
    });
    assert_kept_after_a_busy_core(&mut e, &["waited for a core for most of its grace"]);

    // The limits of `call_limit`, 1 s here, so that the held call (2 s)
    // outlasts each by 1 s and ends 1 s within the cap of three: no sign of
    // life from a search without a clock, the controller's own call on the
    // clock (the sentry's), a call on a thread of its own.
    let (mut e, _dir) = panicky_engine_with_call_limit(1000);
    play_panicky(&mut e);
    on_a_busy_core(&mut e, |e| {
        // Depth 2 reads the moves of 19 once.
        e.send("position fen 20 hold 19");
        e.send("go depth 2");
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 2")),
            "{lines:?}"
        );
        // Checking the move 1 reads the moves of 19, on the controller's
        // thread.
        e.send("position fen 19 hold 19 moves 1");
        let lines = e.sync();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        // `d` draws the board of 19 on a thread of its own.
        e.send("position fen 19 hold 19");
        e.send("d");
        let lines = e.sync();
        assert!(errors(&lines).is_empty(), "{lines:?}");
    });
    assert_kept_after_a_busy_core(
        &mut e,
        &[
            "gave no sign of life",
            "the controller waited for a core for most of a plugin call",
            "showing the position: the call's thread waited for a core",
        ],
    );
}

/// A `go` read while the controller was still busy with the line before
/// it starts its clock when it was read: the time it waited counts
/// against the move, as on the arbiter's clock. Here the line before it
/// plays a move whose check spins for 2 s of the clock (`hold`), and the
/// 300 ms search answers as soon as it starts, its `info` time counting
/// the wait.
#[test]
fn a_search_clock_starts_when_its_go_is_read() {
    let (mut e, _dir) = panicky_engine_with_call_limit(30_000);
    play_panicky(&mut e);
    // Far from the small piles where the plugin's traps lie (moves spelled
    // as two words at 17, panics): the search, planned on what its 300 ms
    // leave, has a moment to search.
    e.send("position fen 300 hold 300 moves 1");
    e.send("go movetime 300");
    let waited = e.until_bestmove();
    assert!(errors(&waited).is_empty(), "{waited:?}");
    assert!(
        the_one_bestmove(&waited).starts_with("bestmove "),
        "{waited:?}"
    );
    // Every search report counts the 2 s the `go` waited: none came
    // within 1.5 s of its clock's start.
    assert!(
        info_times(&waited).iter().all(|&ms| ms >= 1500),
        "{waited:?}"
    );
    // The same search read with nothing before it reports its
    // iterations within its 300 ms.
    e.send("go movetime 300");
    let lines = e.until_bestmove();
    assert!(
        the_one_bestmove(&lines).starts_with("bestmove "),
        "{lines:?}"
    );
    assert!(info_times(&lines).iter().any(|&ms| ms < 1500), "{lines:?}");
    assert!(e.sync().is_empty());
}

/// The `time` of each `info` line that has one, in ms.
fn info_times(lines: &[String]) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l.starts_with("info "))
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "time")?;
            words.get(at + 1)?.parse().ok()
        })
        .collect()
}

#[test]
fn a_plugin_file_cut_short_is_refused_not_mapped() {
    // An interrupted copy: the loader would map the file and the process
    // would die reading past its end.
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    let whole = std::fs::read(built_library("plyd_game_amazons")).unwrap();
    let cut = dir.path().join(format!(
        "{}plyd_game_amazons{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    for len in [1_000, 100_000, whole.len() / 2] {
        std::fs::write(&cut, &whole[..len]).unwrap();
        let mut e = Engine::start(dir.path(), &[], &[]);
        assert_still_plays_othello(&mut e);
        let log = e.stderr_lines();
        assert!(
            log.iter().any(|l| l.contains(&cut.display().to_string())
                && l.contains(&format!(
                    "the file is cut short: its headers need {} bytes, it has {len}",
                    whole.len()
                ))),
            "{len}: {log:#?}"
        );
    }
}

#[test]
fn plugin_path_reloading_the_same_files_maps_nothing_new() {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut e = Engine::start(dir.path(), &[], &[]);
    let maps = |e: &Engine| {
        std::fs::read_to_string(format!("/proc/{}/maps", e.pid()))
            .unwrap()
            .lines()
            .filter(|l| l.contains("plyd_game_othello"))
            .count()
    };
    assert!(e.sync().is_empty());
    let before = maps(&e);
    for _ in 0..3 {
        e.send(&format!(
            "setoption name PluginPath value {}",
            dir.path().display()
        ));
        e.sync();
    }
    assert_eq!(maps(&e), before);
    assert_still_plays_othello(&mut e);
}

/// In a game where a move may earn another (`cycle-bonus`: a move to node
/// 2), the second move of the line after such a move is the same side's,
/// not a reply to ponder on: `bestmove` names no `ponder` move then, and
/// does in the same game where every move passes the turn (`cycle`).
#[test]
fn no_ponder_move_where_the_same_side_moves_again() {
    let dir = plugin_dir(&[("plyd_test_cycle", "cycle")]);
    let mut e = Engine::start(dir.path(), &[], &[]);
    for (variant, ponder) in [("cycle-bonus", false), ("cycle", true)] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.sync();
        // From node 1 the line starts with a move to node 2.
        e.send("position fen 1 0");
        e.send("go depth 6");
        let lines = e.until_bestmove();
        let best = lines.last().unwrap();
        assert!(best.starts_with("bestmove 2"), "{variant}: {lines:?}");
        assert_eq!(best.contains(" ponder "), ponder, "{variant}: {lines:?}");
    }
    // The same where the watchdog answers from the lines printed (its
    // answer named the same side's second move to ponder on).
    for (variant, ponder) in [("cycle-bonus", false), ("cycle", true)] {
        let mut e = Engine::start(dir.path(), &[], &[("PLYD_TEST_CYCLE_SLOW_AFTER", "10")]);
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.sync();
        e.send("position fen 1 0");
        e.send("go movetime 200");
        let lines = e.until_bestmove();
        let best = lines.last().unwrap();
        let line = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth "))
            .unwrap_or_else(|| panic!("{variant}: {lines:?}"));
        assert!(line.contains(" pv 2 "), "{variant}: {lines:?}");
        assert!(best.starts_with("bestmove 2"), "{variant}: {lines:?}");
        assert_eq!(best.contains(" ponder "), ponder, "{variant}: {lines:?}");
        e.send("quit");
    }
}

/// A move sent after the game's end is refused saying the game is over,
/// not that no move is legal "here".
#[test]
fn a_move_after_the_end_is_told_the_game_is_over() {
    let (mut e, _dir) = panicky_engine();
    play_panicky(&mut e);
    e.send("position fen 0 moves 1");
    let lines = e.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("illegal move '1' (the game is over; no move is legal)"),
        "{lines:?}"
    );
}

/// Installed as a package installs it (`bin/plyd`, the plugins in
/// `lib/plyd/`), plyd finds its games with no plugin path named; on a path
/// of several folders a game a folder earlier on gave shadows the same
/// game further on, and a folder that is not there is passed over, both
/// without an error line (a GUI, and the arena, take those for a broken
/// set-up); a path of one folder that is not there is still an error.
#[test]
fn an_installed_layout_and_a_path_of_several_folders_load_without_errors() {
    let root = common::TempDir::new("install");
    let (bin, lib, user) = (
        root.path().join("bin"),
        root.path().join("lib").join("plyd"),
        root.path().join("user"),
    );
    for dir in [&bin, &lib, &user] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::copy(common::plyd_bin(), bin.join("plyd")).unwrap();
    let game_file = |dir: &Path, game: &str| {
        dir.join(format!(
            "{}plyd_game_{game}{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        ))
    };
    std::fs::copy(
        built_library("plyd_game_othello"),
        game_file(&lib, "othello"),
    )
    .unwrap();
    std::fs::copy(
        built_library("plyd_game_othello"),
        game_file(&user, "othello"),
    )
    .unwrap();
    let run = |path: Option<String>| -> (String, String) {
        let mut command = std::process::Command::new(bin.join("plyd"));
        command
            .env_remove("PLYD_PLUGIN_PATH")
            .env_remove("RUST_LOG");
        if let Some(path) = path {
            command.env("PLYD_PLUGIN_PATH", path);
        }
        let out = command
            .args(["perft", "--depth", "3"])
            .current_dir(root.path())
            .output()
            .unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (stdout, stderr) = run(None);
    assert!(
        stdout.contains("\nNodes searched: 56\n"),
        "{stdout}{stderr}"
    );
    assert!(stderr.is_empty(), "{stderr}");
    let several = format!(
        "{}:{}:{}",
        user.display(),
        root.path().join("absent").display(),
        lib.display()
    );
    let (stdout, stderr) = run(Some(several));
    assert!(
        stdout.contains("\nNodes searched: 56\n"),
        "{stdout}{stderr}"
    );
    assert!(stderr.is_empty(), "{stderr}");
    // In the daemon too: no error line after the GUI's first line.
    let both = format!("{}:{}", user.display(), lib.display());
    let mut e = Engine::start(&user, &["--plugin-path", &both], &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let (_, stderr) = run(Some(root.path().join("absent").display().to_string()));
    assert!(stderr.contains("cannot read plugin directory"), "{stderr}");
}

/// Under an address-space limit (`ulimit -v`) too tight for a search, the
/// daemon says so and ends at its start: from 40 to 80 MiB, every daemon
/// that answered `readyok` played its first `go` (some had answered
/// `readyok` and then ended at the `go`, unable to allocate).
#[test]
#[cfg(target_os = "linux")]
fn a_daemon_that_answers_readyok_under_a_memory_cap_can_search() {
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let mut refused = 0;
    for game in ["othello", "xiangqi"] {
        for mib in (40..=80).step_by(2) {
            let mut e = Engine::start_capped(dir.path(), &["--game", game], mib << 20);
            e.send("uci");
            e.send("isready");
            e.send("position startpos");
            e.send("go movetime 50");
            let mut lines = Vec::new();
            while let Some(line) = e.next_line(std::time::Duration::from_secs(10)) {
                let done = line.starts_with("bestmove");
                lines.push(line);
                if done {
                    break;
                }
            }
            let ready = lines.iter().any(|l| l == "readyok");
            let played = lines.iter().any(|l| l.starts_with("bestmove"));
            assert!(!ready || played, "{game} under {mib} MiB: {lines:?}");
            if !ready
                && e.stderr_lines()
                    .iter()
                    .any(|l| l.contains("plyd cannot run here"))
            {
                refused += 1;
            }
        }
    }
    // Some limits of the range are told so, not only ended in a failed
    // allocation.
    assert!(refused > 0);
}

/// A game option set before a `PluginPath` reload stays in force after it,
/// and `uci` lists it: whether the folder is the same (the library loaded
/// again from the same file, which kept the value without the daemon
/// knowing) or another (a fresh library, which would start from its
/// default).
#[test]
fn game_options_survive_a_plugin_path_reload() {
    let first = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let second = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let mut e = Engine::start(first.path(), &[], &[]);
    e.send("setoption name MoveRanks value 1-10");
    assert!(errors(&e.sync()).is_empty());
    for dir in [first.path(), second.path()] {
        e.send(&format!(
            "setoption name PluginPath value {}",
            dir.display()
        ));
        let lines = e.sync();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        e.send("uci");
        let listing = e.read_until(|l| l == "uciok");
        assert!(
            listing
                .iter()
                .any(|l| l == "option name MoveRanks type combo default 1-10 var 0-9 var 1-10"),
            "{listing:?}"
        );
        // The cannon's move to the centre, ranks counted from 1.
        e.send("position startpos moves h3e3");
        let lines = e.sync();
        assert!(errors(&lines).is_empty(), "{} {lines:?}", dir.display());
        e.send("position startpos moves h2e2");
        assert_eq!(errors(&e.sync()).len(), 1);
    }
}

/// A `PluginPath` without the game in play starts the default game with
/// one error line, the game's: the old game's evaluator is not asked of
/// the new one (an error line named xiangqi's `classic` as not offered by
/// Othello).
#[test]
fn a_plugin_path_without_the_game_in_play_names_only_the_game() {
    let both = plugin_dir(&[
        ("plyd_game_xiangqi", "xiangqi"),
        ("plyd_game_othello", "othello"),
    ]);
    let othello = common::othello_dir();
    let mut e = Engine::start(both.path(), &[], &[]);
    e.send("setoption name UCI_Variant value xiangqi");
    e.sync();
    e.send(&format!(
        "setoption name PluginPath value {}",
        othello.path().display()
    ));
    let lines = e.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("game 'xiangqi' is not loaded"),
        "{lines:?}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("info string variant othello"),
        "{lines:?}"
    );
}

/// A move the watchdog plays that no search scored is said on stdout too,
/// before the `bestmove`: here the root's moves take 400 ms to list, four
/// times the move's time.
#[cfg(unix)]
#[test]
fn an_unsearched_answer_is_told_before_it() {
    let (mut e, _dir) = panicky_engine_with_call_limit(30_000);
    play_panicky(&mut e);
    e.send("position fen 20 slow 20");
    e.send("go movetime 100");
    let lines = e.until_bestmove();
    let told = lines
        .iter()
        .position(|l| l.contains("the search had not scored a move in its time"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert_eq!(
        told + 1,
        lines.len() - 1,
        "told just before the answer: {lines:?}"
    );
    assert!(lines[told].starts_with("info string "), "{lines:?}");
    e.send("quit");
}

/// The watchdog's answer says whether a search had scored the move (one
/// no search had, the first in the search's order, was called "its best
/// move so far" all the same): here the first iteration scored its move,
/// and the second is held up in a slow call.
#[cfg(unix)]
#[test]
fn the_watchdog_says_its_move_was_scored() {
    let (mut e, _dir) = watchdog_answered_a_slow_search();
    let log = e.stderr_lines();
    assert!(
        log.iter()
            .any(|l| l.contains("has not answered in time; answered with its best move so far")),
        "{log:?}"
    );
    e.send("quit");
}
