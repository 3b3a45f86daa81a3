//! The command line: subcommands, the config file, and bad arguments.

use crate::common;

use std::process::Command;

use crate::common::{errors, othello_dir, plyd_bin, plyd_command, Engine, TempDir};

#[test]
fn perft_subcommand_prints_divided_counts() {
    let dir = othello_dir();
    for native in [false, true] {
        let mut cmd = plyd_command(dir.path());
        cmd.args(["perft", "--game", "othello", "--depth", "6"]);
        if native {
            cmd.arg("--native");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.contains("\nNodes searched: 8200\n"), "{stdout}");
        assert_eq!(
            stdout.lines().filter(|l| l.ends_with(": 2050")).count(),
            4,
            "{stdout}"
        );
    }
}

/// The tools take the game's own options, from `--option` and from the
/// config file's `[options]`, as the daemon does: xiangqi's moves named
/// with ranks 1-10; an engine option there is passed over; a value the
/// game refuses ends the tool with its reason.
#[test]
fn the_tools_take_the_games_own_options() {
    let dir = common::plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let first_move = |args: &[&str]| -> String {
        let out = plyd_command(dir.path()).args(args).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        stdout.lines().next().unwrap().to_string()
    };
    let perft = ["--game", "xiangqi", "perft", "--depth", "1"];
    assert_eq!(first_move(&perft), "a0a1: 1");
    let mut ranked = perft.to_vec();
    ranked.extend(["--option", "MoveRanks=1-10"]);
    assert_eq!(first_move(&ranked), "a1a2: 1");
    let config = dir.path().join("options.toml");
    std::fs::write(&config, "[options]\nMoveRanks = \"1-10\"\nThreads = 2\n").unwrap();
    let mut configured = perft.to_vec();
    configured.extend(["--config", config.to_str().unwrap()]);
    assert_eq!(first_move(&configured), "a1a2: 1");
    let out = plyd_command(dir.path())
        .args(perft)
        .args(["--option", "MoveRanks=2-11"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("option MoveRanks = 2-11 (--option): "),
        "{out:?}"
    );
}

#[test]
fn perft_subcommand_from_a_position_and_bad_input() {
    let dir = othello_dir();
    let out = plyd_command(dir.path())
        .args(["perft", "--depth", "1", "--fen", "8/8/8/3OX3/3XXX2/8/8/8 w"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: 3"));
    for args in [
        &["perft", "--game", "chess", "--depth", "2"][..],
        &["perft", "--depth", "2", "--fen", "rubbish"][..],
        // An evaluator, or parameters, that cannot be had: refused as by
        // every tool (perft counted on).
        &["perft", "--depth", "2", "--evaluator", "nonesuch"][..],
        &[
            "perft",
            "--depth",
            "2",
            "--eval-params",
            "/nonexistent.toml",
        ][..],
    ] {
        let out = plyd_command(dir.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.lines().filter(|l| l.contains("plyd perft:")).count(),
            1,
            "{stderr}"
        );
    }
}

#[test]
fn config_file_sets_the_defaults() {
    let plugins = othello_dir();
    let conf_dir = TempDir::new("config");
    let conf = conf_dir.path().join("plyd.toml");
    std::fs::write(
        &conf,
        format!(
            "plugin_path = \"{}\"\ngame = \"othello\"\nevaluator = \"seed004\"\nhash = 64\nthreads = 2\nmove_overhead = 25\n",
            plugins.path().display()
        ),
    )
    .unwrap();
    // The config's plugin_path is used when PLYD_PLUGIN_PATH is empty.
    let mut e = Engine::start(
        std::path::Path::new(""),
        &["--config", conf.to_str().unwrap()],
        &[],
    );
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for expected in [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Threads type spin default 2 min 1 max 256",
        "option name Move Overhead type spin default 25 min 0 max 5000",
        "option name Evaluator type combo default seed004 var patterns var seed004 var patterns-stack",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "missing {expected}: {lines:#?}"
        );
    }
}

/// The config file's `fixed_options` are set at the start and refused to
/// the protocol in any spelling and dialect; a name that is no option is
/// said, as it leaves open what was meant to be closed.
#[test]
fn fixed_options_are_set_at_the_start_and_refused_to_the_protocol() {
    let plugins = othello_dir();
    let conf_dir = TempDir::new("fixed");
    let conf = conf_dir.path().join("plyd.toml");
    std::fs::write(
        &conf,
        "fixed_options = [\"files\", \"Threads\", \"Thread\"]\n[options]\nThreads = 2\n",
    )
    .unwrap();
    let config = conf.to_str().unwrap();
    let mut e = Engine::start(plugins.path(), &["--config", config], &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 2 ")),
        "{lines:?}"
    );
    let lines: Vec<String> = lines.into_iter().chain(e.sync()).collect();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("fixed_options: 'Thread' is no option"),
        "{lines:?}"
    );
    for line in [
        "setoption name Threads value 1",
        "setoption name evalfile value /no/such/plugin.so",
        "hello setoption name PluginPath value /tmp",
        "setoption name BookFile value /etc/hostname",
        "setoption name EvalParams value /etc/hostname",
        "setoption name SearchParams value /etc/hostname",
    ] {
        e.send(line);
        let lines = e.sync();
        let told = errors(&lines);
        assert_eq!(told.len(), 1, "{line}: {lines:?}");
        assert!(
            told[0].contains("is fixed by the configuration (fixed_options): left as it is"),
            "{line}: {lines:?}"
        );
    }
    // What is not fixed is set as ever.
    e.send("setoption name MultiPV value 2");
    assert!(errors(&e.sync()).is_empty());
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 2 ")),
        "{lines:?}"
    );
    e.send("quit");
    // UCCI's spelling, without `name`.
    let mut e = Engine::start(plugins.path(), &["--config", config], &[]);
    e.send("ucci");
    e.read_until(|l| l == "ucciok");
    e.send("setoption pluginpath /tmp");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("option 'pluginpath' is fixed by the configuration")),
        "{lines:?}"
    );
    e.send("quit");
}

/// A newline in a config key is escaped on stderr as on stdout: the log
/// keeps a line a message, none starting with a forged prefix.
#[test]
fn a_newline_in_a_config_key_does_not_start_a_log_line() {
    let plugins = othello_dir();
    let conf_dir = TempDir::new("newlinekey");
    let conf = conf_dir.path().join("plyd.toml");
    std::fs::write(&conf, "\"we\\n[9.9s ERROR forged] ird\" = 1\n").unwrap();
    let out = common::output_with_input(
        plyd_command(plugins.path()).args(["--config", conf.to_str().unwrap()]),
        b"isready\nquit\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("key 'we\\x0a[9.9s ERROR forged] ird': unknown key"),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .all(|l| l.starts_with("[") && !l.starts_with("[9.9s")),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("readyok"), "{stdout}");
}

#[test]
fn bad_config_and_unknown_game_are_reported_and_the_daemon_runs() {
    let plugins = othello_dir();
    let conf_dir = TempDir::new("badconfig");
    let conf = conf_dir.path().join("plyd.toml");
    std::fs::write(&conf, "hash = 0\nthreads = \"many\"\n").unwrap();
    let mut e = Engine::start(plugins.path(), &["--config", conf.to_str().unwrap()], &[]);
    e.send("go depth 1");
    let lines = e.until_bestmove();
    assert_ne!(lines.last().unwrap(), "bestmove (none)");
    // The GUI is told too, after its first line (a value of the wrong
    // type makes the whole file ignored: one problem).
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("plyd.toml") && told[0].contains("ignoring the file"),
        "{told:?}"
    );
    let log = e.stderr_lines().join("\n");
    assert!(
        log.contains("plyd.toml") && log.contains("threads"),
        "{log}"
    );

    std::fs::write(&conf, "hash = 0\n").unwrap();
    let mut e = Engine::start(
        plugins.path(),
        &["--config", conf.to_str().unwrap(), "--game", "chess"],
        &[],
    );
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin default 16 ")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant type combo default othello")));
    let log = e.stderr_lines().join("\n");
    assert!(
        log.contains(&format!(
            "config {} line 1: key 'hash': 0 is outside",
            conf.display()
        )),
        "{log}"
    );
    assert!(log.contains("game 'chess' is not loaded"), "{log}");
    let told = e.sync();
    assert_eq!(errors(&told).len(), 2, "{told:?}");
    assert!(told[0].contains("key 'hash': 0 is outside"), "{told:?}");
    assert!(told[1].contains("game 'chess' is not loaded"), "{told:?}");
    assert!(e.sync().is_empty(), "told once");
}

#[test]
fn a_relative_plugin_path_in_the_config_file_is_relative_to_the_file() {
    let plugins = othello_dir();
    let conf_dir = TempDir::new("relconfig");
    let conf = conf_dir.path().join("plyd.toml");
    // From the config file's folder to the plugin folder, both in the
    // temporary folder.
    let relative = format!(
        "../{}",
        plugins.path().file_name().unwrap().to_string_lossy()
    );
    std::fs::write(&conf, format!("plugin_path = \"{relative}\"\n")).unwrap();
    let out = Command::new(plyd_bin())
        .env_remove("PLYD_PLUGIN_PATH")
        .current_dir("/")
        .args(["--config", conf.to_str().unwrap(), "bench", "othello", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: "));
}

#[test]
fn bench_refuses_an_evaluator_no_game_offers() {
    let plugins = othello_dir();
    for args in [
        &["bench", "othello", "2", "--evaluator", "nosuch"][..],
        &["bench", "--evaluator", "nosuch"][..],
    ] {
        let out = common::run_plyd(plugins.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("'nosuch'"),
            "{out:?}"
        );
    }
}

/// The bench names the evaluator its counts are of: a configuration's
/// `evaluator` changed the count without a word.
#[test]
fn bench_names_the_evaluator_it_counts_with() {
    let plugins = othello_dir();
    let conf_dir = TempDir::new("benchconfig");
    let conf = conf_dir.path().join("plyd.toml");
    std::fs::write(&conf, "evaluator = \"seed004\"\n").unwrap();
    for (args, named) in [
        (
            vec!["bench", "othello", "2"],
            "Evaluator of othello: patterns (built into othello), params default\n",
        ),
        (
            vec!["--config", conf.to_str().unwrap(), "bench", "othello", "2"],
            "Evaluator of othello: seed004 (built into othello), params default\n",
        ),
    ] {
        let out = common::run_plyd(plugins.path(), &args);
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.starts_with(named), "{stdout}");
    }
}

#[test]
fn a_tool_refuses_a_configuration_it_cannot_use_whole() {
    let plugins = othello_dir();
    let conf_dir = TempDir::new("toolconfig");
    let conf = conf_dir.path().join("plyd.toml");
    for text in ["game = \"othello\"\nhash = \"x\"\n", "hash = 0\n"] {
        std::fs::write(&conf, text).unwrap();
        let out = common::run_plyd(
            plugins.path(),
            &["--config", conf.to_str().unwrap(), "bench", "othello", "2"],
        );
        assert_eq!(out.status.code(), Some(2), "{text}: {out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("plyd.toml"), "{stderr}");
        assert!(
            stderr.contains("a tool does not run with a configuration"),
            "{stderr}"
        );
        // The tool does not go on without the file, and does not say so.
        assert!(!stderr.contains("ignoring the file"), "{stderr}");
    }
}

#[test]
fn a_parameter_file_or_book_that_cannot_be_used_is_told_to_the_gui() {
    let plugins = othello_dir();
    let mut e = Engine::start(
        plugins.path(),
        &[
            "--eval-params",
            "/no/such/params.toml",
            "--config",
            "/no/such/plyd.toml",
        ],
        &[],
    );
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let told = e.sync();
    assert_eq!(errors(&told).len(), 2, "{told:?}");
    assert!(
        told.iter().any(|l| l.contains("/no/such/plyd.toml")),
        "{told:?}"
    );
    assert!(
        told.iter()
            .any(|l| l.contains("eval params /no/such/params.toml")
                && l.ends_with("using the evaluator's defaults")),
        "{told:?}"
    );
    e.send("go depth 2");
    assert_ne!(e.until_bestmove().last().unwrap(), "bestmove (none)");
}

#[test]
fn version_and_help() {
    let out = Command::new(plyd_bin()).arg("--version").output().unwrap();
    let version = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(version.starts_with("plyd ") && version.contains("(commit "));
    // Each tool tells the same version (a packager's check runs
    // `plyd perft --version`).
    for tool in ["perft", "arena", "record"] {
        let out = Command::new(plyd_bin())
            .args([tool, "--version"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{tool}: {out:?}");
        let told = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            told.split_once(' ').map(|(_, v)| v),
            version.split_once(' ').map(|(_, v)| v),
            "{tool}"
        );
    }
    let out = Command::new(plyd_bin()).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("perft") && help.contains("--config"),
        "{help}"
    );
}

#[test]
fn bench_subcommand_prints_a_total_that_repeats() {
    let dir = othello_dir();
    let run = || {
        let out = plyd_command(dir.path())
            .args(["bench", "othello", "4"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let total = stdout
            .lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .unwrap_or_else(|| panic!("{stdout}"))
            .parse::<u64>()
            .unwrap();
        let sum: u64 = stdout
            .lines()
            .filter(|l| l.starts_with("othello "))
            .map(|l| common::number_after(l, "nodes").unwrap() as u64)
            .sum();
        assert_eq!(total, sum, "{stdout}");
        total
    };
    let first = run();
    assert!(first > 0);
    assert_eq!(run(), first);
    // The daemon's bench command agrees with the command line.
    let (mut e, _d) = Engine::othello();
    e.send("bench othello 4");
    let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {first}"));
    // With the core switches set by setoption, as `go` has them (the
    // bench took the techniques alone: LMR off searched the same tree),
    // and the threads and lines asked for left out (one of each).
    let mut bench_nodes = |setting: &str| {
        e.send(setting);
        e.send("bench othello 4");
        let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
        common::last_number(&lines, "searched:")
    };
    let without_lmr = bench_nodes("setoption name LMR value false");
    assert_ne!(without_lmr as u64, first);
    // The command line's `--off` takes the core switches too.
    let out = plyd_command(dir.path())
        .args(["bench", "othello", "4", "--off", "lmr"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("Nodes searched: {without_lmr}")),
        "{stdout}"
    );
    // `all` comes before the names beside it, in either order; a name
    // given to both lists is refused.
    let bench_args = |args: &[&str]| {
        let out = plyd_command(dir.path())
            .args(["bench", "othello", "4"])
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (_, none, _) = bench_args(&["--off", "all"]);
    let (_, one_alone, _) = bench_args(&["--off", "all", "--on", "CounterMoves"]);
    let (_, one_first, _) = bench_args(&["--on", "CounterMoves", "--off", "all"]);
    let count = |out: &str| out.lines().last().unwrap_or("").to_string();
    let nodes = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("Nodes searched"))
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(nodes(&one_alone), nodes(&one_first));
    assert_ne!(nodes(&one_alone), nodes(&none), "{}", count(&one_alone));
    let (status, _, stderr) = bench_args(&["--on", "LMR", "--off", "lmr"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("'LMR' is given to both --on and --off"),
        "{stderr}"
    );
    // Positions of one's own, searched as the bench's are.
    let file = dir.path().join("mine.txt");
    std::fs::write(
        &file,
        "# the start, twice\n8/8/8/3OX3/3XO3/8/8/8 b\n\n8/8/8/3OX3/3XO3/8/8/8 b\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (status, own, stderr) = bench_args(&["--positions", file]);
    assert_eq!(status, Some(0), "{stderr}");
    let counts: Vec<&str> = own
        .lines()
        .filter(|l| l.starts_with("othello "))
        .map(|l| l.split_whitespace().nth(4).unwrap())
        .collect();
    assert_eq!(counts.len(), 2, "{own}");
    assert_eq!(counts[0], counts[1], "{own}");
    let total: u64 = counts.iter().map(|c| c.parse::<u64>().unwrap()).sum();
    assert_eq!(nodes(&own), format!("Nodes searched: {total}"));
    let out = plyd_command(dir.path())
        .args(["bench", "--positions", file])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name the game"));
    std::fs::write(dir.path().join("bad.txt"), "nonsense\n").unwrap();
    let bad = dir.path().join("bad.txt");
    let (status, _, stderr) = bench_args(&["--positions", bad.to_str().unwrap()]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("bad position 'nonsense'"), "{stderr}");
    assert_eq!(bench_nodes("setoption name LMR value true") as u64, first);
    assert_eq!(bench_nodes("setoption name MultiPV value 3") as u64, first);
    assert_eq!(bench_nodes("setoption name Threads value 2") as u64, first);
    e.send("quit");

    let out = plyd_command(dir.path())
        .args(["bench", "chess"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `plyd check ARGS` with plugins from `dir` and `env` set: its exit
/// status and stdout.
fn check(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let out = common::plyd_command(dir)
        .arg("check")
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_passes_the_shipped_games_and_names_an_unmake_that_restores_nothing() {
    let dir = common::plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
        ("plyd_game_amazons", "amazons"),
        ("plyd_game_einstein", "einstein"),
    ]);
    for game in ["othello", "xiangqi", "amazons8", "einstein"] {
        let (status, stdout) = check(
            dir.path(),
            &["--game", game, "--games", "2", "--plies", "120"],
            &[],
        );
        assert_eq!(status, Some(0), "{game}: {stdout}");
        assert!(
            stdout.starts_with(&format!("{game}: 2 games, ")),
            "{stdout}"
        );
        assert!(stdout.ends_with("no problem found\n"), "{stdout}");
    }
    // Broken test plugins: an unmake that restores nothing, a gen_moves
    // that counts one move more than it writes.
    let broken = common::plugin_dir(&[("plyd_test_bad_abi", "forgetful")]);
    for (mode, needles) in [
        (
            "forgetful-unmake",
            &["problem: unmake_move does not restore the position (hash, side or text): 2 times, first in game 1 ply 0, position '10': after '1' and back, changed: hash "][..],
        ),
        (
            "contrary-legal",
            &[
                "problem: is_legal refuses a move gen_moves lists: ",
                "first in game 1 ply 0, position '10': '1'",
                "problem: is_legal accepts a move gen_moves does not list: ",
                "first in game 1 ply 0, position '10': the reserved null move",
            ][..],
        ),
        (
            "over-count",
            &[
                "problem: gen_moves counts more moves than it writes: ",
                "first in game 1 ply 0, position '10': 3 counted, the last 1 left unwritten",
            ][..],
        ),
    ] {
        let (status, stdout) = check(
            broken.path(),
            &["--game", "panicky", "--games", "2"],
            &[("PLYD_TEST_BAD_TABLE", mode)],
        );
        assert_eq!(status, Some(1), "{mode}: {stdout}");
        for needle in needles {
            assert!(stdout.contains(needle), "{mode}: {stdout}");
        }
    }
    // A hash without the side to move: piles met with either side to move
    // share a hash (from a pile of 6, which never reaches the pile of 7
    // where the game panics).
    let (status, stdout) = check(
        broken.path(),
        &["--game", "panicky", "--games", "10", "--fen", "6"],
        &[("PLYD_TEST_BAD_TABLE", "sideless-hash")],
    );
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "problem: two positions with one hash differ in their side to move or their moves"
        ),
        "{stdout}"
    );
    // A side to move that never changes.
    let (status, stdout) = check(
        broken.path(),
        &["--game", "panicky", "--games", "10", "--fen", "6"],
        &[("PLYD_TEST_BAD_TABLE", "constant-side")],
    );
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("problem: the side to move never changed over a whole game"),
        "{stdout}"
    );
    // A null move that unmake_move does not take back is named as that,
    // and the moves' own take-backs after it are not blamed (the first
    // move's was, the position being the null move's).
    let (status, stdout) = check(
        broken.path(),
        &["--game", "panicky", "--games", "2"],
        &[("PLYD_TEST_BAD_TABLE", "null-kept")],
    );
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "problem: unmake_move does not restore the position after a null move (hash, side or text)"
        ),
        "{stdout}"
    );
    assert!(
        !stdout.contains("problem: unmake_move does not restore the position (hash"),
        "{stdout}"
    );
    // A game claiming null moves whose make_move refuses them: a failed
    // call, named as what it is.
    let out = common::plyd_command(broken.path())
        .args(["check", "--game", "panicky", "--games", "2"])
        .env("PLYD_TEST_BAD_TABLE", "null-refused")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "refused the null move, which the game's CAP_NULL_MOVE promises passes the turn"
        ),
        "{stderr}"
    );
}

/// `plyd check` starts each game with the evaluator's `new_game`, as the
/// daemon's `ucinewgame` does: one that fails is found there.
#[test]
fn check_calls_new_game() {
    let out = common::check_with_odd_evaluator("new-game-panic", "2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("panicked in new_game")
            && stderr.contains("while checking the start of game 1"),
        "{stderr}"
    );
}

/// `evaluate` is checked on two threads at once, as the search calls it:
/// one that keeps its scratch in a global scores positions another
/// thread's way (it passed, checked on one thread).
#[test]
fn check_tells_an_evaluator_that_shares_a_global_between_threads() {
    let dir = common::plugin_dir(&[("plyd_game_othello", "othello")]);
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let args = ["--game", "othello", "--games", "20", "--evaluator", "odd"];
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "shared")]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "problem: evaluate scores one position two ways (is something kept between calls, \
             or shared by the threads that call it at once?)"
        ),
        "{stdout}"
    );
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "ok")]);
    assert_eq!(status, Some(0), "{stdout}");
}

/// `plyd check` times an evaluator's calls and finds the memory it keeps
/// and never frees; a slow one gets a note.
#[test]
fn check_times_evaluate_and_finds_a_leak() {
    let dir = common::plugin_dir(&[("plyd_game_othello", "othello")]);
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let args = ["--game", "othello", "--games", "2", "--evaluator", "odd"];
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "ok")]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(stdout.contains("its evaluate: "), "{stdout}");
    assert!(!stdout.contains("never frees"), "{stdout}");
    if cfg!(all(target_os = "linux", target_env = "gnu")) {
        let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "leak")]);
        assert_eq!(status, Some(1), "{stdout}");
        let line = stdout
            .lines()
            .find(|l| l.starts_with("problem: evaluate keeps memory it never frees: "))
            .unwrap_or_else(|| panic!("{stdout}"));
        let bytes: f64 = line
            .split(": ")
            .nth(2)
            .and_then(|rest| rest.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!((256.0..400.0).contains(&bytes), "{line}");
    }
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "slow")]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(stdout.contains("note: evaluate takes "), "{stdout}");
}

#[test]
fn check_tells_an_evaluator_that_scores_for_one_player_whoever_moves() {
    let dir = common::plugin_dir(&[("plyd_game_othello", "othello")]);
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let args = ["--game", "othello", "--games", "6", "--evaluator", "odd"];
    // Black's discs less White's whoever is to move: ranked against the
    // best of its scores a ply on, the opposite order.
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "black")]);
    assert_eq!(status, Some(1), "{stdout}");
    let rho = |stdout: &str, line_start: &str| -> f64 {
        let line = stdout.lines().find(|l| l.starts_with(line_start)).unwrap();
        let rho = line.split("Spearman's ").nth(1).unwrap();
        rho.split(' ').next().unwrap().parse().unwrap()
    };
    assert!(
        stdout.contains("problem: evaluate seems to score for one player whoever is to move"),
        "{stdout}"
    );
    assert!(rho(&stdout, "problem: evaluate seems") <= -0.25, "{stdout}");
    // The same count for the side to move: its own order.
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "ok")]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        rho(&stdout, "its scores are the side to move's") >= 0.25,
        "{stdout}"
    );
    // A disc count runs against the game's own patterns in the middle
    // game, as a negated evaluator would: a warning, not a problem.
    assert!(
        rho(
            &stdout,
            "warning: its scores run against the scores of the game's evaluator patterns"
        ) <= -0.25,
        "{stdout}"
    );
    // A shipped evaluator of other terms rises with them.
    let (status, stdout) = check(
        dir.path(),
        &[
            "--game",
            "othello",
            "--games",
            "6",
            "--evaluator",
            "seed004",
        ],
        &[],
    );
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        rho(
            &stdout,
            "its scores rise with the scores of the game's evaluator patterns"
        ) >= 0.25,
        "{stdout}"
    );
    // Too few positions to tell: said, and no problem.
    let few = [
        "--game",
        "othello",
        "--games",
        "1",
        "--plies",
        "4",
        "--evaluator",
        "odd",
    ];
    let (status, stdout) = check(dir.path(), &few, &[("PLYD_TEST_EVAL", "black")]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        stdout.contains("evaluator odd: 1 game of its own, 4 positions each scored twice")
            && stdout
                .contains("note: whether its scores are the side to move's could not be told: ")
            && stdout.contains(" over 4 positions between them"),
        "{stdout}"
    );
}

/// A Rust evaluator whose `score_bound` is too small has its scores
/// clamped by the SDK, which the bound check cannot see: `plyd check`
/// notes a bound that more than half of the positions reach (the disc
/// count times 100, bound 64).
#[test]
fn check_notes_scores_piled_at_the_bound() {
    let dir = common::plugin_dir(&[("plyd_game_othello", "othello")]);
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let args = ["--game", "othello", "--games", "4", "--evaluator", "odd"];
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "loud")]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        stdout.contains(" scored at its score_bound (64) or past it: a bound set too small"),
        "{stdout}"
    );
    let (_, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "ok")]);
    assert!(!stdout.contains("score_bound (64)"), "{stdout}");
}

/// `plyd check` compares an evaluator's `shallow_search` with the same
/// tree searched whole: a plain alpha-beta passes; one that counts no
/// position, or fails low with a score that is no bound, is told.
#[test]
fn check_compares_shallow_search_with_the_tree() {
    let dir = common::plugin_dir(&[("plyd_game_othello", "othello")]);
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let args = ["--game", "othello", "--games", "4", "--evaluator", "odd"];
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "shallow-ok")]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        stdout.contains(" compared with the same tree searched whole (depths 1 to 2, "),
        "{stdout}"
    );
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "shallow-nodes")]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "problem: shallow_search counts no position below, or more than its tree has: "
        ) && stdout.contains(": 0 counted, the tree has 4"),
        "{stdout}"
    );
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_EVAL", "shallow-bound")]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("problem: shallow_search's score is not the tree's: ")
            && stdout.contains("(failed low, but the tree's score is higher)"),
        "{stdout}"
    );
}

#[test]
fn check_with_an_evaluator_compares_its_stacks_on_two_threads() {
    let dir = common::plugin_dir(&[("plyd_game_othello", "othello")]);
    common::add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let (status, stdout) = check(
        dir.path(),
        &[
            "--game",
            "othello",
            "--games",
            "2",
            "--evaluator",
            "patterns-stack",
        ],
        &[],
    );
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        stdout.contains("\nevaluator patterns-stack: 2 games of its own, ")
            && stdout.contains(" scores of its stacks compared with evaluate's on 2 threads\n")
            && stdout.ends_with("no problem found\n"),
        "{stdout}"
    );
    // A stack that scores one more than evaluate (an evaluator whose
    // scores pass its bound: tests/c_plugin.rs).
    let (status, stdout) = check(
        dir.path(),
        &["--game", "othello", "--games", "2", "--evaluator", "odd"],
        &[("PLYD_TEST_EVAL", "stack-wrong")],
    );
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("problem: stack_evaluate differs from evaluate: ")
            && stdout.contains(
                "first in game 1 ply 0, position '8/8/8/3OX3/3XO3/8/8/8 b': stack 1, evaluate 0"
            ),
        "{stdout}"
    );
    // An evaluator whose evaluate never returns: given up after the
    // configuration's call limit, with exit status 2.
    let config = dir.path().join("plyd.toml");
    std::fs::write(&config, "call_limit = 1000\n").unwrap();
    let check_odd = |mode: &str| {
        common::plyd_command(dir.path())
            .args([
                "check",
                "--game",
                "othello",
                "--evaluator",
                "odd",
                "--config",
            ])
            .arg(&config)
            .env("PLYD_TEST_EVAL", mode)
            .output()
            .unwrap()
    };
    let out = check_odd("hang");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("plyd check: a plugin call did not return within 1 s (call_limit)"),
        "{out:?}"
    );
    // Asleep in the C library, outside the plugin's own code: the
    // position it was checking is still named.
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("in the C library or the kernel (sleeping or waiting)")
                && stderr.contains("while checking game ")
                && stderr.contains(", position '"),
            "{stderr}"
        );
    }
    // One caught in a loop of its own code is named, with the place and
    // the position it was checking.
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    {
        let out = check_odd("spin");
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("did not return within 1 s (call_limit); stuck inside ")
                && stderr.contains("libplyd_eval_odd.so, at 0x")
                && stderr.contains("while checking game ")
                && stderr.contains(" ply 2, position '"),
            "{stderr}"
        );
    }
    // So is a bench (which hung for ever, saying nothing).
    let out = common::plyd_command(dir.path())
        .args(["bench", "othello", "4", "--evaluator", "odd", "--config"])
        .arg(&config)
        .env("PLYD_TEST_EVAL", "hang")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("plyd bench: a plugin call did not return within 1 s (call_limit)")
            && stderr.trim_end().ends_with("; giving up"),
        "{out:?}"
    );
    // An evaluator the game does not have is refused.
    let out = common::run_plyd(
        dir.path(),
        &["check", "--game", "othello", "--evaluator", "nosuch"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("othello has no evaluator 'nosuch'"),
        "{out:?}"
    );
}

/// A `RUST_LOG` that names no level (`warning` for `warn`) is read by the
/// logging crate as a filter for a module of that name: it is said, and
/// errors are still logged; an explicit `off` silences the log.
#[test]
fn a_mistyped_log_level_is_said_and_errors_stay_in_the_log() {
    let dir = othello_dir();
    let stderr_with = |spec: &str| -> String {
        let out = common::output_with_input(
            plyd_command(dir.path())
                .env("RUST_LOG", spec)
                .args(["--game", "nosuch"]),
            b"quit\n",
        );
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let stderr = stderr_with("warning");
    assert!(
        stderr.contains("RUST_LOG: 'warning' is no level (error, warn, info, debug, trace, off)"),
        "{stderr}"
    );
    assert!(stderr.contains("game 'nosuch' is not loaded"), "{stderr}");
    let stderr = stderr_with("plyd=info");
    assert!(!stderr.contains("RUST_LOG"), "{stderr}");
    assert!(stderr.contains("game 'nosuch' is not loaded"), "{stderr}");
    let stderr = stderr_with("off");
    assert!(stderr.is_empty(), "{stderr}");
}

/// Output that cannot be written (a full disk: `/dev/full`) ends a tool
/// with one line and exit status 1, and the daemon, whose answers would
/// reach no one, the same way (a tool panicked; the daemon exited 0).
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_ends_with_one_line_and_status_1() {
    let dir = othello_dir();
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let out = plyd_command(dir.path())
        .args(["perft", "--depth", "3"])
        .stdout(full())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "plyd: cannot write to stdout: No space left on device (os error 28)"
    );
    // The daemon's stdout, the full disk; stdin, what a GUI would send.
    let mut command = plyd_command(dir.path());
    command.stdin(std::process::Stdio::piped());
    let mut child = command
        .stdout(full())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"uci\nisready\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("stdout cannot be written (No space left on device"),
        "{stderr}"
    );
}

/// A config file's `[options]` paths are relative to the file, as its
/// keys' are, and its `PluginPath` is where the plugins are first looked
/// for: a `plugin_path` key naming a folder with no game says nothing,
/// since the option outranks it.
#[test]
fn the_config_files_option_paths_are_relative_to_it() {
    let plugins = othello_dir();
    let root = TempDir::new("option-paths");
    let conf_dir = root.path().join("conf");
    std::fs::create_dir_all(conf_dir.join("sub")).unwrap();
    let plugins_rel = format!(
        "../../{}",
        plugins.path().file_name().unwrap().to_string_lossy()
    );
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/othello/othello.book"),
        conf_dir.join("sub").join("ob.book"),
    )
    .unwrap();
    // `plugin_path` names a folder with no game in it.
    std::fs::create_dir_all(root.path().join("empty")).unwrap();
    let config = conf_dir.join("plyd.toml");
    std::fs::write(
        &config,
        format!(
            "plugin_path = \"../empty\"\n[options]\nPluginPath = \"{}\"\nBookFile = \"sub/ob.book\"\n\
             SearchParams = \"sub/sp.toml\"\n",
            plugins_rel
        ),
    )
    .unwrap();
    // SearchParams too (it was taken from the working folder).
    std::fs::write(conf_dir.join("sub").join("sp.toml"), "lmr_base = 80\n").unwrap();
    let mut e = Engine::start(plugins.path(), &["--config", config.to_str().unwrap()], &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("sub/ob.book: ") && l.contains(" positions of othello")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("search params ") && l.ends_with("sub/sp.toml: lmr_base=80")),
        "{lines:?}"
    );
}

/// `PLYD_CONFIG` names the config file where no `--config` is given (a
/// GUI starts plyd with no arguments); `--config` outranks it.
#[test]
fn plyd_config_names_the_config_file() {
    let dir = othello_dir();
    let conf = TempDir::new("plyd-config");
    let file = conf.path().join("plyd.toml");
    std::fs::write(&file, "[options]\nMultiPV = 3\n").unwrap();
    let other = conf.path().join("other.toml");
    std::fs::write(&other, "[options]\nMultiPV = 5\n").unwrap();
    let multipv = |args: &[&str]| -> String {
        let mut e = Engine::start(dir.path(), args, &[("PLYD_CONFIG", file.to_str().unwrap())]);
        e.send("uci");
        let lines = e.read_until(|l| l == "uciok");
        lines
            .iter()
            .find(|l| l.starts_with("option name MultiPV "))
            .unwrap()
            .clone()
    };
    assert!(multipv(&[]).contains(" default 3 "));
    assert!(multipv(&["--config", other.to_str().unwrap()]).contains(" default 5 "));
}

/// A tool refusing a broken config file that `PLYD_CONFIG` named says to
/// unset it (it said to leave out a `--config` never given).
#[test]
fn a_tool_refusing_plyd_configs_file_names_plyd_config() {
    let dir = othello_dir();
    let conf = TempDir::new("plyd-config-broken");
    let file = conf.path().join("plyd.toml");
    std::fs::write(&file, "threads = \"many\"\n").unwrap();
    let run = |args: &[&str]| {
        let out = common::plyd_command(dir.path())
            .env("PLYD_CONFIG", &file)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let by_env = run(&["perft", "--depth", "1"]);
    assert!(
        by_env.contains("mend it or unset PLYD_CONFIG, which names it"),
        "{by_env}"
    );
    let by_flag = run(&["--config", file.to_str().unwrap(), "perft", "--depth", "1"]);
    assert!(
        by_flag.contains("mend it or leave --config out"),
        "{by_flag}"
    );
}

/// At a chance node `plyd check` compares `chance_outcomes` with
/// `gen_moves` and finds an outcome listed twice; weights all zero count
/// alike, in `check` and in the arena's draws (the arena refused them).
#[test]
fn check_compares_a_chance_nodes_outcomes_with_its_moves() {
    let dir = common::plugin_dir(&[("plyd_test_dice", "dicerace")]);
    let args = ["--game", "dicerace", "--games", "4"];
    // (The test game's hash counts the moves made, on purpose: a problem
    // of its own, the same in every mode.)
    let chance_problems = |stdout: &str| {
        stdout
            .lines()
            .filter(|l| l.starts_with("problem: ") && l.contains("chance"))
            .count()
    };
    let (_, stdout) = check(dir.path(), &args, &[]);
    assert_eq!(chance_problems(&stdout), 0, "{stdout}");
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_DICE", "unlisted")]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "problem: at a chance node, gen_moves does not list the tokens chance_outcomes lists"
        ) && stdout.contains(": gen_moves: none; chance_outcomes: r1 r2 r3"),
        "{stdout}"
    );
    assert!(!stdout.contains("no move listed"), "{stdout}");
    let (status, stdout) = check(dir.path(), &args, &[("PLYD_TEST_DICE", "twice")]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("problem: chance_outcomes lists an outcome twice: ")
            && stdout.contains("3 outcomes, 2 distinct"),
        "{stdout}"
    );
    let (_, stdout) = check(dir.path(), &args, &[("PLYD_TEST_DICE", "zero")]);
    assert_eq!(chance_problems(&stdout), 0, "{stdout}");
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = plyd_command(dir.path())
        .env("PLYD_TEST_DICE", "zero")
        .args([
            "arena", "--game", "dicerace", "--engine", &plyd, "name=a", "--engine", &plyd,
            "name=b", "--depth", "2", "--games", "2", "--seed", "5",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// A check ended by an evaluator's failed call names the position it was
/// checking, and leaves out the side-to-move note it could not make.
#[test]
fn a_failed_evaluator_call_ends_check_naming_the_position() {
    let out = common::check_with_odd_evaluator("panic", "2");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("panicked in evaluate")
            && stderr.contains("(while checking game ")
            && stderr.contains(", position '"),
        "{stderr}"
    );
    assert!(!stdout.contains("could not be told"), "{stdout}");
    // Every game met the failure (at 7 discs): none was played through.
    assert!(
        stdout.contains("evaluator odd: 0 games of its own, "),
        "{stdout}"
    );
}

/// A game plugin that fails a call during `plyd check` (the panicky game
/// panics listing the moves of 7 counters) is named with the position it
/// came at, as a failed evaluator is (it said only `panicked in
/// gen_moves`).
#[test]
fn a_failed_game_call_ends_check_naming_the_position() {
    let dir = common::plugin_dir(&[("plyd_test_panicky", "panicky")]);
    let out = plyd_command(dir.path())
        .args(["check", "--game", "panicky", "--games", "3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("panicked in gen_moves")
            && stderr.contains("(while checking game ")
            && stderr.contains(", position '7' and the moves below it)"),
        "{stderr}"
    );
}

/// A tool refuses an option that is neither plyd's nor a loaded game's (a
/// typo would give another run than the one asked for), and says it
/// passes over one of the engine's given by `--option`.
#[test]
fn tools_refuse_unknown_options_and_name_those_they_pass_over() {
    let dir = common::plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let run = |option: &str| {
        common::plyd_command(dir.path())
            .args([
                "--game", "xiangqi", "perft", "--depth", "1", "--option", option,
            ])
            .output()
            .unwrap()
    };
    let typo = run("MoveRank=1-10");
    let stderr = String::from_utf8_lossy(&typo.stderr);
    assert_eq!(typo.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("option MoveRank=1-10 (--option): unknown option 'MoveRank'"),
        "{stderr}"
    );
    assert!(typo.stdout.is_empty());
    let engine = run("NullMove=false");
    let stderr = String::from_utf8_lossy(&engine.stderr);
    assert!(engine.status.success(), "{stderr}");
    assert!(
        stderr
            .contains("option NullMove=false (--option) is the engine's, which a tool passes over"),
        "{stderr}"
    );
    // The game's own option is taken: ranks counted from 1.
    let ranks = run("moveranks=1-10");
    assert!(ranks.status.success());
    assert!(String::from_utf8_lossy(&ranks.stdout).contains("a1a2: 1"));
}

/// Where the system gives the daemon none of its threads (a sandbox's
/// limit on processes), it says so in one line and ends with status 2:
/// it panicked with a backtrace.
#[cfg(target_os = "linux")]
#[test]
fn a_daemon_given_no_threads_says_so_in_one_line() {
    let (_dir, mut command, _held, _) = common::with_few_threads(1);
    let out = common::output_with_input(&mut command, b"uci\nquit\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("plyd: cannot start the input thread: ")
            && stderr.trim_end().ends_with("plyd cannot run here")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
}

/// `SearchParams` changes the search's numbers: the defaults, printed by
/// `plyd params --search` and loaded back, search the shipped tree; a
/// changed number another one, the same from the command line and the
/// daemon; a refused file keeps the numbers in force.
#[test]
fn search_params_change_the_tree_and_their_defaults_do_not() {
    let dir = othello_dir();
    let files = TempDir::new("search-params");
    let out = plyd_command(dir.path())
        .args(["params", "--search"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let defaults = files.path().join("defaults.toml");
    std::fs::write(&defaults, &out.stdout).unwrap();
    let mine = files.path().join("mine.toml");
    std::fs::write(&mine, "lmr_base = 200\n").unwrap();
    let bad = files.path().join("bad.toml");
    std::fs::write(&bad, "lmr_bse = 200\n").unwrap();
    let bench = |file: Option<&std::path::Path>| {
        let mut command = plyd_command(dir.path());
        command.args(["bench", "othello", "4"]);
        if let Some(file) = file {
            command.arg("--search-params").arg(file);
        }
        let out = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        (out.status.code(), stdout, stderr)
    };
    let nodes = |stdout: &str| common::last_number(&[stdout.to_string()], "searched:");
    let (code, plain, _) = bench(None);
    assert_eq!(code, Some(0));
    let (_, with_defaults, _) = bench(Some(&defaults));
    assert_eq!(nodes(&with_defaults), nodes(&plain), "{with_defaults}");
    let (_, changed, said) = bench(Some(&mine));
    assert_ne!(nodes(&changed), nodes(&plain), "{changed}");
    // What was loaded, on stderr (stdout is the bench's).
    assert_eq!(
        said.trim_end(),
        format!("plyd bench: search params {}: lmr_base=200", mine.display())
    );
    let (code, _, stderr) = bench(Some(&bad));
    assert_eq!(code, Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "plyd bench: search params {}: key 'lmr_bse': unknown field",
            bad.display()
        )),
        "{stderr}"
    );

    let (mut e, _d) = Engine::othello();
    let set = |e: &mut Engine, file: &str| {
        e.send(&format!("setoption name SearchParams value {file}"));
        e.send("isready");
        e.read_until(|l| l == "readyok")
    };
    let bench_nodes = |e: &mut Engine| {
        e.send("bench othello 4");
        let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
        common::last_number(&lines, "searched:")
    };
    let said = set(&mut e, &mine.display().to_string());
    assert!(
        said.contains(&format!(
            "info string search params {}: lmr_base=200",
            mine.display()
        )),
        "{said:?}"
    );
    assert_eq!(bench_nodes(&mut e), nodes(&changed));
    let said = set(&mut e, &bad.display().to_string());
    assert_eq!(errors(&said).len(), 1, "{said:?}");
    assert!(errors(&said)[0].contains("key 'lmr_bse'"), "{said:?}");
    assert_eq!(bench_nodes(&mut e), nodes(&changed));
    e.send("uci");
    let listed = e.read_until(|l| l == "uciok");
    assert!(
        listed.contains(&format!(
            "option name SearchParams type string default {}",
            mine.display()
        )),
        "{listed:?}"
    );
    let said = set(&mut e, "");
    assert!(
        said.contains(&"info string search params default".to_string()),
        "{said:?}"
    );
    assert_eq!(bench_nodes(&mut e), nodes(&plain));
    e.send("quit");
}

/// `--option`s are set in `[options]`' order, the game before its
/// evaluator: an evaluator of the game named after it was refused, the
/// game then still the default's.
#[test]
fn option_flags_set_the_game_before_its_evaluator() {
    let dir = common::plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let mut command = plyd_command(dir.path());
    command.args([
        "--option",
        "Evaluator=seed002",
        "--option",
        "MultiPV=2",
        "--option",
        "UCI_Variant=xiangqi",
    ]);
    let out = common::output_with_input(&mut command, b"uci\nquit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    assert!(errors(&lines).is_empty(), "{stdout}");
    for listed in [
        "option name UCI_Variant type combo default xiangqi",
        "option name Evaluator type combo default seed002",
        "option name MultiPV type spin default 2",
    ] {
        assert!(stdout.contains(listed), "{listed}: {stdout}");
    }
}

/// One config file for every game: its evaluator and parameters are its
/// game's, left out where the command line names another game (a tool
/// was refused: `othello has no evaluator 'seed002'`), and its game gives
/// way to a protocol that plays another (GTP was refused at start).
#[test]
fn a_config_files_game_evaluator_and_parameters_go_together() {
    let dir = common::plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let params = dir.path().join("seed002.toml");
    let out = plyd_command(dir.path())
        .args(["params", "--game", "xiangqi", "--evaluator", "seed002"])
        .output()
        .unwrap();
    std::fs::write(&params, &out.stdout).unwrap();
    let config = dir.path().join("xiangqi.toml");
    std::fs::write(
        &config,
        "game = \"xiangqi\"\nevaluator = \"seed002\"\neval_params = \"seed002.toml\"\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let eval = |args: &[&str]| {
        let out = plyd_command(dir.path())
            .args(["eval", "--config", config])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?} {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(eval(&[]).contains("evaluator seed002"), "{}", eval(&[]));
    assert!(eval(&["--game", "othello"]).contains("evaluator patterns"));
    // Another evaluator of the file's game: the file's parameters were
    // for seed002.
    assert!(eval(&["--evaluator", "classic"]).contains("evaluator classic"));
    // Empty on the command line: the defaults, whatever the file says
    // (`--eval-params ""` was refused as no value).
    assert!(
        eval(&["--eval-params", ""])
            .contains("evaluator seed002 (built into xiangqi) params default"),
        "{}",
        eval(&["--eval-params", ""])
    );
    assert!(eval(&["--evaluator", ""]).contains("evaluator classic"));
    let mut gtp = plyd_command(dir.path());
    gtp.args(["--protocol", "gtp", "--config", config]);
    let out = common::output_with_input(&mut gtp, b"genmove b\nquit\n");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("= "), "{stdout}");
}

/// A value of millions of characters is quoted back cut, on stderr as on
/// stdout (the log line held it whole: 5 MB of stderr).
#[test]
fn a_huge_config_value_is_logged_cut() {
    let dir = othello_dir();
    let config = dir.path().join("huge.toml");
    std::fs::write(&config, format!("game = \"{}\"\n", "x".repeat(1_000_000))).unwrap();
    let mut command = plyd_command(dir.path());
    command.arg("--config").arg(&config);
    let out = common::output_with_input(&mut command, b"uci\nquit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("uciok"), "{stdout}");
    assert!(
        stderr.contains("(1000000 bytes in all)") && stderr.len() < 2_000,
        "{} bytes: {}",
        stderr.len(),
        &stderr[..stderr.len().min(300)]
    );
}

/// `--strict` ends the daemon with exit status 2 at a problem at the start
/// (a game not loaded, no plugin at all, an option value refused), each
/// named on stderr, where the daemon would start on what it could load;
/// with none it serves as usual.
#[test]
fn strict_ends_the_daemon_at_a_problem_at_the_start() {
    let plugins = othello_dir();
    let empty = TempDir::new("strict-empty");
    for (folder, args, named) in [
        (
            plugins.path(),
            &["--game", "xiangqi9"][..],
            "game 'xiangqi9' is not loaded",
        ),
        (
            plugins.path(),
            &["--option", "Hash=abc"][..],
            "'abc' is not an integer",
        ),
        (empty.path(), &[][..], "no usable game plugin in "),
    ] {
        let out = common::output_with_input(
            plyd_command(folder).arg("--strict").args(args),
            b"uci\nquit\n",
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            stderr.contains(named)
                && stderr.contains("--strict: 1 problem at the start: plyd exits"),
            "{args:?}: {stderr}"
        );
    }
    let out = common::output_with_input(
        plyd_command(plugins.path()).args(["--strict", "--game", "othello"]),
        b"uci\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("uciok"));
}
