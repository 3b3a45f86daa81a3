//! Evaluators end to end, through the real binary: switching evaluators and
//! parameter files in one running daemon, loading evaluator plugins at scan
//! time and with `EvalFile`, refusing mismatched or broken ones with one
//! clear line, and surviving one that panics or answers garbage mid-search.

use crate::common;

use std::path::{Path, PathBuf};

use crate::common::{
    add_evaluator, built_library, errors, plugin_dir, plyd_command, Engine, TempDir,
};

/// A plugin folder with Othello and the `weights` evaluator.
fn othello_and_weights() -> TempDir {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    add_evaluator(dir.path(), "plyd_eval_othello_weights", "othello_weights");
    dir
}

/// The shipped seed004 parameters with `from` replaced by `to`.
fn seed004_params(edits: &[(&str, &str)]) -> String {
    let mut text = include_str!("../plugins/othello/seed004.toml").to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "'{from}' not in seed004.toml");
        text = text.replacen(from, to, 1);
    }
    text
}

/// `go depth N`: the score of the last completed iteration and the move.
fn search(e: &mut Engine, depth: u32) -> (String, String) {
    e.send(&format!("go depth {depth}"));
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with(&format!("info depth {depth} ")))
        .unwrap_or_else(|| panic!("no depth {depth} line in {lines:?}"));
    let score = last_info
        .split(" score ")
        .nth(1)
        .and_then(|rest| rest.split(" nodes ").next())
        .expect("a score")
        .to_string();
    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    (score, best)
}

/// The `option name Evaluator ...` line of `uci`.
fn evaluator_option(e: &mut Engine) -> String {
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    lines
        .into_iter()
        .find(|l| l.starts_with("option name Evaluator "))
        .expect("an Evaluator option")
}

/// An evaluator plugin named by its file on the command line is
/// `EvalFile`'s value in `uci`, as one loaded by `setoption` is; one that
/// did not load is not.
#[test]
fn an_evaluator_file_given_at_start_is_eval_files_value() {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    let files = TempDir::new("eval-file-at-start");
    let file = add_evaluator(files.path(), "plyd_eval_othello_weights", "othello_weights");
    let eval_file = |given: &str| {
        let mut e = Engine::start(dir.path(), &["--evaluator", given], &[]);
        e.send("uci");
        let lines = e.read_until(|l| l == "uciok");
        e.send("quit");
        lines
            .into_iter()
            .find(|l| l.starts_with("option name EvalFile "))
            .expect("an EvalFile option")
    };
    let given = file.display().to_string();
    assert_eq!(
        eval_file(&given),
        format!("option name EvalFile type string default {given}")
    );
    let missing = files.path().join("libplyd_eval_none.so");
    assert_eq!(
        eval_file(&missing.display().to_string()),
        "option name EvalFile type string default <empty>"
    );
}

#[test]
fn evaluators_and_parameters_change_between_searches_in_one_daemon() {
    let plugins = othello_and_weights();
    let files = TempDir::new("params");
    let mobility_only = files.path().join("mobility-only.toml");
    std::fs::write(
        &mobility_only,
        seed004_params(&[
            ("piece_difference = 1.0", "piece_difference = 0.0"),
            ("corner_occupancy = 1.0", "corner_occupancy = 0.0"),
            ("corner_closeness = 1.0", "corner_closeness = 0.0"),
        ]),
    )
    .unwrap();
    let mut e = Engine::start(plugins.path(), &[], &[]);
    assert_eq!(
        evaluator_option(&mut e),
        "option name Evaluator type combo default patterns var patterns var seed004 var patterns-stack var weights"
    );
    e.send("setoption name Evaluator value seed004");
    assert_eq!(e.sync(), ["info string evaluator seed004"]);
    // After f5 d6 c3 d3 c4, White chooses among b3 f3 f4 b5 g5 g6.
    e.send("position startpos moves f5 d6 c3 d3 c4");
    let (seed_score, seed_move) = search(&mut e, 4);

    e.send(&format!(
        "setoption name EvalParams value {}",
        mobility_only.display()
    ));
    assert_eq!(
        e.sync(),
        vec![format!(
            "info string evaluator seed004 params {}",
            mobility_only.display()
        )]
    );
    let (mobility_score, mobility_move) = search(&mut e, 4);
    assert_ne!(mobility_score, seed_score, "the weights changed nothing");
    // New parameters empty the table: the search answers as a daemon
    // started with them does, not from the old evaluator's scores (which
    // once made it play another move here).
    let mut fresh = Engine::start(plugins.path(), &[], &[]);
    fresh.send("setoption name Evaluator value seed004");
    fresh.send(&format!(
        "setoption name EvalParams value {}",
        mobility_only.display()
    ));
    fresh.sync();
    fresh.send("position startpos moves f5 d6 c3 d3 c4");
    assert_eq!(
        search(&mut fresh, 4),
        (mobility_score.clone(), mobility_move.clone())
    );

    // The evaluator or the variant in use named again (as GUIs do at
    // every new game) keeps the parameters.
    e.send("setoption name Evaluator value seed004");
    assert_eq!(e.sync(), ["info string evaluator seed004"]);
    e.send("setoption name UCI_Variant value othello");
    assert!(errors(&e.sync()).is_empty());
    e.send("position startpos moves f5 d6 c3 d3 c4");
    assert_eq!(
        search(&mut e, 4),
        (mobility_score.clone(), mobility_move.clone())
    );

    // Another evaluator drops them, and says so.
    e.send("setoption name Evaluator value weights");
    assert_eq!(
        e.sync(),
        vec!["info string evaluator weights params default".to_string()]
    );
    let (weights_score, weights_move) = search(&mut e, 4);
    assert_ne!(weights_score, seed_score);
    assert!(["b3", "f3", "f4", "b5", "g5", "g6"].contains(&weights_move.as_str()));

    // Back to seed004: its defaults again, and the first answer again.
    e.send("setoption name Evaluator value seed004");
    assert_eq!(e.sync(), ["info string evaluator seed004"]);
    assert_eq!(search(&mut e, 4), (seed_score.clone(), seed_move.clone()));
    // The parameters once more, then the empty value for the defaults.
    e.send(&format!(
        "setoption name EvalParams value {}",
        mobility_only.display()
    ));
    e.sync();
    assert_eq!(search(&mut e, 4), (mobility_score, mobility_move));
    e.send("setoption name EvalParams value");
    assert_eq!(
        e.sync(),
        vec!["info string evaluator seed004 params default".to_string()]
    );
    assert_eq!(search(&mut e, 4), (seed_score, seed_move));
}

#[test]
fn bad_parameter_files_are_refused_and_the_evaluator_stays() {
    let plugins = othello_and_weights();
    let files = TempDir::new("params");
    let typo = files.path().join("typo.toml");
    std::fs::write(
        &typo,
        seed004_params(&[("mobility = 1.0", "mobility = \"high\"")]),
    )
    .unwrap();
    let range = files.path().join("range.toml");
    std::fs::write(&range, seed004_params(&[("scale = 100", "scale = 0")])).unwrap();
    let weights_file = files.path().join("weights.toml");
    std::fs::write(&weights_file, plyd_eval_othello_weights::DEFAULT_PARAMS).unwrap();
    let binary = files.path().join("weights.bin");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x80]).unwrap();

    let mut e = Engine::start(plugins.path(), &["--evaluator", "seed004"], &[]);
    e.send("position startpos moves f5 d6");
    let before = search(&mut e, 3);
    let cases = [
        (
            typo.clone(),
            format!(
                "info string error: eval params {}: key 'weights.mobility': expected a number, found a string \"high\"",
                typo.display()
            ),
        ),
        (
            range.clone(),
            format!(
                "info string error: eval params {}: key 'scale': 0 is outside [1, 100]",
                range.display()
            ),
        ),
        (
            // The other evaluator's file: its keys are not seed004's.
            weights_file.clone(),
            format!(
                "info string error: eval params {}: key 'terms': unknown field `terms`",
                weights_file.display()
            ),
        ),
        (
            files.path().join("missing.toml"),
            format!(
                "info string error: eval params {}: cannot be read:",
                files.path().join("missing.toml").display()
            ),
        ),
        (
            // A binary file: the line says a parameter file is text.
            binary.clone(),
            format!(
                "info string error: eval params {}: cannot be read: stream did not contain valid UTF-8 (a parameter file is TOML text, as plyd params prints one",
                binary.display()
            ),
        ),
    ];
    for (file, expected) in cases {
        e.send(&format!(
            "setoption name EvalParams value {}",
            file.display()
        ));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with(&expected),
            "{} vs {expected}",
            lines[0]
        );
        assert_eq!(search(&mut e, 3), before, "the evaluator changed");
    }
    // The weights evaluator takes the weights file.
    e.send("setoption name Evaluator value weights");
    e.send(&format!(
        "setoption name EvalParams value {}",
        weights_file.display()
    ));
    assert_eq!(
        e.sync(),
        vec![
            "info string evaluator weights".to_string(),
            format!(
                "info string evaluator weights params {}",
                weights_file.display()
            )
        ]
    );
}

#[test]
fn eval_command_prints_the_terms_and_the_parameters_in_use() {
    let plugins = othello_and_weights();
    let files = TempDir::new("params");
    let half = files.path().join("half.toml");
    std::fs::write(
        &half,
        seed004_params(&[("mobility = 1.0", "mobility = 0.5")]),
    )
    .unwrap();
    // --eval-params applies to the starting evaluator.
    let mut e = Engine::start(
        plugins.path(),
        &[
            "--evaluator",
            "seed004",
            "--eval-params",
            half.to_str().unwrap(),
        ],
        &[],
    );
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&format!(
            "option name EvalParams type string default {}",
            half.display()
        )),
        "{lines:#?}"
    );
    e.send("position startpos moves f5");
    e.send("eval");
    let lines = e.sync();
    assert_eq!(
        lines[0],
        format!(
            "info string eval evaluator seed004 (built into othello) params {}",
            half.display()
        )
    );
    for expected in [
        "info string eval weight_mobility 0.5",
        "info string eval weight_piece_difference 1",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "{expected}: {lines:#?}"
        );
    }
    // After f5, White to move: 4 black discs to 1, Black 3 placements to
    // White's 3. Terms are Black's view; the score is White's.
    assert!(
        lines.contains(&"info string eval piece_difference 80".to_string()),
        "{lines:#?}"
    );
    let total = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string eval total "))
        .expect("a total");
    assert_eq!(
        lines[lines.len() - 2..],
        [
            format!("info string eval score {total} (side to move)"),
            "info string eval score_bound 10000".to_string()
        ]
    );

    e.send("setoption name Evaluator value weights");
    assert_eq!(
        e.sync(),
        vec!["info string evaluator weights params default".to_string()]
    );
    e.send("eval");
    let lines = e.sync();
    assert!(lines[0].starts_with("info string eval evaluator weights ("));
    assert!(lines[0].ends_with("libplyd_eval_othello_weights.so) params default"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string eval frontier ")));
}

#[test]
fn eval_file_loads_an_evaluator_between_searches() {
    // The evaluator is not in the plugin folder: EvalFile brings it in.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let elsewhere = TempDir::new("evalfile");
    let file = elsewhere.path().join("my-evaluator.so");
    std::fs::copy(built_library("plyd_eval_othello_weights"), &file).unwrap();

    let mut e = Engine::start(plugins.path(), &[], &[]);
    assert_eq!(
        evaluator_option(&mut e),
        "option name Evaluator type combo default patterns var patterns var seed004 var patterns-stack"
    );
    e.send("position startpos moves f5 f6");
    let seed = search(&mut e, 3);
    e.send(&format!("setoption name EvalFile value {}", file.display()));
    assert_eq!(
        e.sync(),
        vec![format!(
            "info string evaluator weights loaded from {}",
            file.display()
        )]
    );
    assert_eq!(
        evaluator_option(&mut e),
        "option name Evaluator type combo default weights var patterns var seed004 var patterns-stack var weights"
    );
    let weights = search(&mut e, 3);
    assert_ne!(weights.0, seed.0);
    // Loading the same file again replaces the earlier load.
    e.send(&format!("setoption name EvalFile value {}", file.display()));
    assert_eq!(e.sync().len(), 1);
    assert_eq!(
        evaluator_option(&mut e),
        "option name Evaluator type combo default weights var patterns var seed004 var patterns-stack var weights"
    );
    assert_eq!(search(&mut e, 3), weights);
    // An empty value, as GUIs send at start-up, loads nothing.
    e.send("setoption name EvalFile value");
    assert!(e.sync().is_empty());
}

#[test]
fn eval_file_is_loaded_again_when_plugin_path_reloads() {
    // `PluginPath` reloads every plugin: an evaluator loaded by `EvalFile`
    // comes back from its file, ahead of one of the same name in a folder.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let with_weights = plugin_dir(&[("plyd_game_othello", "othello")]);
    let folder_copy = with_weights.path().join(format!(
        "{}plyd_eval_weights{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    std::fs::copy(built_library("plyd_eval_othello_weights"), &folder_copy).unwrap();
    let elsewhere = TempDir::new("evalfile-reload");
    let file = elsewhere.path().join("mine.so");
    std::fs::copy(built_library("plyd_eval_othello_weights"), &file).unwrap();
    let mut e = Engine::start(plugins.path(), &[], &[]);
    e.send(&format!("setoption name EvalFile value {}", file.display()));
    assert_eq!(e.sync().len(), 1);
    let variant = "info string variant othello startpos 8/8/8/3OX3/3XO3/8/8/8 b".to_string();
    let evaluator_line = |e: &mut Engine| {
        e.send("eval");
        e.sync().remove(0)
    };
    for dir in [plugins.path(), with_weights.path()] {
        e.send(&format!(
            "setoption name PluginPath value {}",
            dir.display()
        ));
        assert_eq!(e.sync(), vec![variant.clone()]);
        assert_eq!(
            evaluator_line(&mut e),
            format!(
                "info string eval evaluator weights ({}) params default",
                file.display()
            )
        );
    }
    // The file gone: one line says so, and the folder's evaluator of that
    // name is taken.
    std::fs::remove_file(&file).unwrap();
    e.send(&format!(
        "setoption name PluginPath value {}",
        with_weights.path().display()
    ));
    assert_eq!(
        e.sync(),
        vec![
            format!(
                "info string error: plugin {}: cannot be loaded: there is no such file \
                 (the EvalFile loaded before; not loaded again)",
                file.display()
            ),
            variant.clone()
        ]
    );
    assert_eq!(
        evaluator_line(&mut e),
        format!(
            "info string eval evaluator weights ({}) params default",
            folder_copy.display()
        )
    );
    // Forgotten since: the next reload says nothing of it.
    e.send(&format!(
        "setoption name PluginPath value {}",
        with_weights.path().display()
    ));
    assert_eq!(e.sync(), vec![variant]);
}

#[test]
fn evaluator_may_name_its_file_in_the_tools_and_at_start() {
    // `--evaluator FILE` loads the evaluator plugin in FILE, as EvalFile
    // does, where no evaluator of that name is offered.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let elsewhere = TempDir::new("evaluator-file");
    let file = elsewhere.path().join("mine.so");
    std::fs::copy(built_library("plyd_eval_othello_weights"), &file).unwrap();
    let file_s = file.display().to_string();
    let out = plyd_command(plugins.path())
        .args(["check", "--evaluator", &file_s, "--games", "3"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("evaluator weights: 3 games of its own, "),
        "{stdout}"
    );
    let out = plyd_command(plugins.path())
        .args(["eval", "--evaluator", &file_s])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().nth(1),
        Some(format!("evaluator weights ({file_s}) params default").as_str())
    );
    // In a config file, a file beside it.
    let config = elsewhere.path().join("plyd.toml");
    std::fs::write(&config, "evaluator = \"mine.so\"\n").unwrap();
    let out = plyd_command(plugins.path())
        .args(["eval", "--config", &config.display().to_string()])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().nth(1),
        Some(format!("evaluator weights ({file_s}) params default").as_str()),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut e = Engine::start(plugins.path(), &["--evaluator", &file_s], &[]);
    e.send("eval");
    assert_eq!(
        e.sync()[0],
        format!("info string eval evaluator weights ({file_s}) params default")
    );
    // A file that is not there: the tool says so and stops.
    let gone = elsewhere.path().join("gone.so").display().to_string();
    let out = plyd_command(plugins.path())
        .args(["check", "--evaluator", &gone, "--games", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "plugin {gone}: cannot be loaded: there is no such file"
        )),
        "{stderr}"
    );
}

/// An evaluator whose library is in a plugin folder but was refused as
/// it loaded: named by where it is (the message told how libraries are
/// named, as if it were not there).
#[test]
fn an_evaluator_refused_as_it_loaded_is_named_by_its_file() {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    let library = add_evaluator(dir.path(), "plyd_test_no_entry", "broken");
    let out = common::run_plyd(dir.path(), &["eval", "--evaluator", "broken"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "plyd eval: evaluator 'broken': its library {} is in a plugin folder but was not \
             loaded (said when the folder was read)",
            library.display()
        )),
        "{stderr}"
    );
}

#[test]
fn eval_file_takes_a_bare_name_from_the_working_directory() {
    // The dynamic loader would search its library path for a bare name.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let elsewhere = TempDir::new("evalfile-bare");
    std::fs::copy(
        built_library("plyd_eval_othello_weights"),
        elsewhere.path().join("mine.so"),
    )
    .unwrap();
    let mut e = Engine::start_in(plugins.path(), elsewhere.path());
    e.send("setoption name EvalFile value mine.so");
    assert_eq!(
        e.sync(),
        vec!["info string evaluator weights loaded from mine.so".to_string()]
    );
}

#[test]
fn eval_file_refusals_name_the_file_and_keep_the_evaluator() {
    let weights_file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/othello/patterns.bin");
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let odd = built_library("plyd_test_odd_eval");
    let game = built_library("plyd_game_othello");
    let odd_s = odd.display().to_string();
    // (PLYD_TEST_EVAL mode, file, what the one error line must say)
    let cases: Vec<(&str, PathBuf, Vec<String>)> = vec![
        (
            "layout",
            odd.clone(),
            vec![
                format!("evaluator plugin {odd_s}: evaluator 'odd' reads othello state layout 99"),
                "but the current game othello has state layout 1".to_string(),
            ],
        ),
        (
            "game",
            odd.clone(),
            vec![
                format!("evaluator plugin {odd_s}: evaluator 'odd' reads checkers state layout 1"),
                "but the current game is othello, another game".to_string(),
            ],
        ),
        (
            "abi",
            odd.clone(),
            vec![format!(
                "plugin {odd_s}: ABI version 999, but this plyd supports ABI version 1"
            )],
        ),
        (
            "short",
            odd.clone(),
            vec![format!(
                "plugin {odd_s}: evaluator table size 16 is smaller"
            )],
        ),
        (
            "huge",
            odd.clone(),
            vec![format!(
                "plugin {odd_s}: evaluator table size 1048576 is past any table's"
            )],
        ),
        (
            "bound",
            odd.clone(),
            vec![format!(
                "plugin {odd_s}: evaluator 'odd' has score bound 50000001, outside 1 to 50000000"
            )],
        ),
        (
            "shallow-zero",
            odd.clone(),
            vec![format!(
                "plugin {odd_s}: evaluator 'odd' gives shallow_search with shallow_plies 0 (at least 1)"
            )],
        ),
        (
            "",
            game.clone(),
            vec![format!(
                "plugin {}: is a game plugin, not an evaluator plugin",
                game.display()
            )],
        ),
        (
            "",
            PathBuf::from("/no/such/libplyd_eval_x.so"),
            vec!["plugin /no/such/libplyd_eval_x.so: cannot be loaded".to_string()],
        ),
        (
            "",
            built_library("plyd_test_no_entry"),
            vec![
                "missing symbol 'plyd_evaluator_api' (not a plyd evaluator plugin? In Rust, \
                 plyd_api::export_evaluator!(T) exports it)"
                    .to_string()
            ],
        ),
        (
            // A weights file where a library belongs: the line says where
            // it goes.
            "",
            weights_file.clone(),
            vec![
                format!("plugin {}: cannot be loaded", weights_file.display()),
                "(EvalFile loads an evaluator plugin library; a parameter or weights file goes to EvalParams)".to_string(),
            ],
        ),
    ];
    for (mode, file, needles) in cases {
        let mut e = Engine::start(plugins.path(), &[], &[("PLYD_TEST_EVAL", mode)]);
        e.send("position startpos moves f5 d6");
        let before = search(&mut e, 3);
        e.send(&format!("setoption name EvalFile value {}", file.display()));
        let lines = e.sync();
        assert_eq!(errors(&lines).len(), 1, "{mode}: {lines:?}");
        assert_eq!(lines.len(), 1, "{mode}: {lines:?}");
        for needle in &needles {
            assert!(
                lines[0].contains(needle.as_str()),
                "{mode}: '{needle}' not in {}",
                lines[0]
            );
        }
        // Nothing changed: same evaluator, same list, same answer.
        assert_eq!(
            evaluator_option(&mut e),
            "option name Evaluator type combo default patterns var patterns var seed004 var patterns-stack",
            "{mode}"
        );
        assert_eq!(search(&mut e, 3), before, "{mode}");
    }
}

#[test]
fn mismatched_evaluators_in_the_plugin_folder_are_refused_at_scan() {
    let cases: [(&str, &[&str]); 5] = [
        (
            "layout",
            &[
                "evaluator 'odd' reads othello state layout 99",
                "but the loaded othello plugin",
                "has state layout 1",
            ],
        ),
        (
            "game",
            &[
                "evaluator 'odd' reads checkers state layout 1",
                "but no checkers game plugin is loaded",
                "othello state layout 1",
            ],
        ),
        (
            "capital",
            &[
                "evaluator 'odd' reads Othello state layout 1",
                "but no Othello game plugin is loaded",
                "(game names are matched exactly: 'Othello' is not 'othello')",
            ],
        ),
        (
            "variant",
            &[
                "evaluator 'odd' reads amazons8 state layout 1",
                "but no amazons8 game plugin is loaded",
                "('amazons8' is a variant of the game amazons: an evaluator names the game, \
                 'amazons', and reads the states of all its variants)",
            ],
        ),
        (
            "half-stack",
            &["evaluator 'odd' has some of the six stack entries but not stack_free, stack_reset, stack_push, stack_pop, stack_evaluate (null or past the end of its table of "],
        ),
    ];
    for (mode, needles) in cases {
        let dir = plugin_dir(&[
            ("plyd_game_othello", "othello"),
            ("plyd_game_amazons", "amazons"),
        ]);
        let file = add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
        let mut e = Engine::start(dir.path(), &[], &[("PLYD_TEST_EVAL", mode)]);
        assert_eq!(
            evaluator_option(&mut e),
            "option name Evaluator type combo default patterns var patterns var seed004 var patterns-stack"
        );
        e.send("go depth 2");
        // The GUI is told of the refusal once, after its first line; the
        // search goes on with the evaluators that loaded.
        let lines = e.until_bestmove();
        let told = errors(&lines);
        assert_eq!(told.len(), 1, "{mode}: {lines:?}");
        assert!(told[0].contains(&file.display().to_string()), "{told:?}");
        let log = e.stderr_lines();
        let refusals: Vec<&String> = log
            .iter()
            .filter(|l| l.contains(&file.display().to_string()))
            .collect();
        assert_eq!(refusals.len(), 1, "{mode}: {log:#?}");
        for needle in needles {
            assert!(
                refusals[0].contains(needle),
                "{mode}: '{needle}' not in {}",
                refusals[0]
            );
        }
    }
}

/// A daemon with Othello and the `odd` test evaluator in mode `mode`.
fn odd_engine(mode: &str) -> (Engine, TempDir) {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let mut e = Engine::start(dir.path(), &[], &[("PLYD_TEST_EVAL", mode)]);
    assert_eq!(
        evaluator_option(&mut e),
        "option name Evaluator type combo default patterns var patterns var seed004 var patterns-stack var odd"
    );
    e.send("setoption name Evaluator value odd");
    assert_eq!(e.sync(), ["info string evaluator odd"]);
    (e, dir)
}

/// [`odd_engine`] with a parameter file of its own set (`EvalParams`),
/// and the file.
fn odd_engine_with_params(mode: &str) -> (Engine, TempDir, std::path::PathBuf) {
    let (mut e, dir) = odd_engine(mode);
    let file = dir.path().join("odd.toml");
    std::fs::write(&file, "anything = 1\n").unwrap();
    e.send(&format!(
        "setoption name EvalParams value {}",
        file.display()
    ));
    assert!(errors(&e.sync()).is_empty());
    (e, dir, file)
}

/// After a failed evaluator: the next command brings back the default (patterns), with one
/// note saying so (the failure had its one error line), and the daemon searches as before.
fn assert_back_on_the_default(e: &mut Engine) {
    let lines = e.sync();
    assert_eq!(
        lines,
        vec!["info string evaluator 'odd' is disabled after a failure; using patterns".to_string()]
    );
    assert_default_plays_on(e);
}

/// The rest of [`assert_back_on_the_default`], once its note was read.
fn assert_default_plays_on(e: &mut Engine) {
    assert_eq!(
        evaluator_option(e),
        "option name Evaluator type combo default patterns var patterns var seed004 var patterns-stack var odd"
    );
    e.send("position startpos moves f5 d6 c3");
    let (_, best) = search(e, 3);
    assert_ne!(best, "(none)");
    // Choosing the failed evaluator again is refused with the reason.
    e.send("setoption name Evaluator value odd");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("evaluator 'odd' is disabled after an earlier failure"));
}

/// An evaluator that panics in `evaluate`, or in `shallow_search`, or
/// answers garbage from `shallow_search` once a position has 7 discs.
#[test]
fn an_evaluator_that_fails_mid_search_is_dropped_and_play_goes_on() {
    for (mode, says) in [
        ("panic", "plugin evaluator 'odd' panicked in evaluate"),
        (
            "shallow-panic",
            "plugin evaluator 'odd' panicked in shallow_search",
        ),
        (
            "shallow-garbage",
            "returned garbage from shallow_search: unexpected status 42",
        ),
    ] {
        let (mut e, _dir) = odd_engine(mode);
        // The start has 4 discs; three plies in there are 7. Below that
        // the shallow modes leave every node to the engine.
        e.send("go depth 2");
        assert!(errors(&e.until_bestmove()).is_empty(), "fine at 6 discs");
        e.send("go depth 4");
        let lines = e.until_bestmove();
        let error = errors(&lines);
        assert_eq!(error.len(), 1, "{lines:?}");
        assert!(error[0].contains(says), "{lines:?}");
        // The search still answers with a legal move from the depths it
        // finished.
        assert!(
            ["bestmove d3", "bestmove c4", "bestmove f5", "bestmove e6"]
                .iter()
                .any(|b| lines.last().unwrap().starts_with(b)),
            "{lines:?}"
        );
        assert_back_on_the_default(&mut e);
        // Where the call was made, for the evaluator's author, on stderr:
        // a position of 7 discs or more (it named none).
        let stderr = e.stderr_lines();
        let at = stderr
            .iter()
            .find_map(|l| l.split("; the call was made at position '").nth(1))
            .unwrap_or_else(|| panic!("{mode}: {stderr:?}"));
        let board = at.split(' ').next().unwrap();
        assert!(
            board.chars().filter(|c| matches!(c, 'X' | 'O')).count() >= 7,
            "{mode}: {at}"
        );
    }
}

#[test]
fn eval_warns_of_a_score_past_the_evaluators_bound() {
    // Bound 64, scores of 100 a disc: three discs down after f5 is -300,
    // which the SDK clamps to -64.
    let (mut e, _dir) = odd_engine("loud");
    e.send("position startpos moves f5");
    e.send("eval");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.iter().any(|l| l.ends_with("total -300")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("score -64 (side to move)")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.ends_with(
            "warning: the score is at or past the evaluator's bound 64 (its score_bound); \
             searches see at most ±64"
        )),
        "{lines:?}"
    );
    // Within its bound, no warning.
    let (mut e, _dir) = odd_engine("ok");
    e.send("position startpos moves f5");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.ends_with("score -3 (side to move)")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("warning")), "{lines:?}");
}

#[test]
fn the_stack_follows_every_move_of_the_search_quiescence_and_null_moves_included() {
    // xiangqi has captures searched in quiescence and null moves: the
    // test evaluator panics if a position it scores is not on top of its
    // stack.
    let dir = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    add_evaluator(dir.path(), "plyd_test_xq_stack", "stackcheck");
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("setoption name Evaluator value stackcheck");
    assert_eq!(e.sync(), ["info string evaluator stackcheck"]);
    for threads in [1, 2] {
        e.send(&format!("setoption name Threads value {threads}"));
        // A middle game with captures to look at.
        e.send("position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7");
        e.send("go depth 6");
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "Threads {threads}: {lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 6 ")),
            "{lines:?}"
        );
    }
}

#[test]
fn stack_failures_are_told_once_and_unsupported_scores_are_left_to_evaluate() {
    // stack_evaluate answering UNSUPPORTED everywhere: the same search as
    // the plain evaluator's, with no error.
    let (mut e, _dir) = odd_engine("ok");
    e.send("position startpos moves f5 d6");
    let plain = search(&mut e, 5);
    let (mut e, _dir) = odd_engine("stack-unsupported");
    e.send("position startpos moves f5 d6");
    assert_eq!(search(&mut e, 5), plain);
    // A stack that cannot be made, or a push answered UNSUPPORTED: one
    // line naming the entry, then the default evaluator.
    for (mode, needle) in [
        (
            "stack-null",
            "plugin evaluator 'odd' returned garbage from stack_new: returned null (no stack could be made); the plugin is disabled",
        ),
        (
            "stack-push-unsupported",
            "plugin evaluator 'odd' returned garbage from stack_push: answered STATUS_UNSUPPORTED, which a stack cannot",
        ),
    ] {
        let (mut e, _dir) = odd_engine(mode);
        e.send("go depth 4");
        let lines = e.until_bestmove();
        let error = errors(&lines);
        assert_eq!(error.len(), 1, "{mode}: {lines:?}");
        assert!(error[0].contains(needle), "{mode}: {lines:?}");
        // No move was searched yet: the game's own evaluator searches
        // this `go` instead, to its depth.
        assert!(
            lines.contains(
                &"info string evaluator 'odd' failed before a move was searched; searching with patterns"
                    .to_string()
            ),
            "{mode}: {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 4 ")),
            "{mode}: {lines:?}"
        );
        assert_back_on_the_default(&mut e);
    }
}

/// A daemon of Othello whose evaluator `odd`, in use, never returns from
/// a position of 7 discs on (three plies in), with a call limit of 2 s.
fn hanging_odd_engine(dir: &Path) -> Engine {
    let config = dir.join("plyd.toml");
    std::fs::write(&config, "call_limit = 2000\n").unwrap();
    let config = config.display().to_string();
    let mut e = Engine::start(dir, &["--config", &config], &[("PLYD_TEST_EVAL", "hang")]);
    e.send("setoption name Evaluator value odd");
    assert_eq!(e.sync(), ["info string evaluator odd"]);
    e
}

/// One error line, blaming `odd` alone for a call that did not return
/// while `doing`, and Othello back on its default evaluator.
fn assert_odd_given_up(lines: &[String], doing: &str) {
    let error = errors(lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(
        error[0].contains("plugin evaluator 'odd' (")
            && error[0].contains(&format!(") did not return from a call: {doing}"))
            && error[0].contains("(setoption name EvalFile, or PluginPath)")
            && !error[0].contains("othello"),
        "{error:?}"
    );
    assert!(
        lines.contains(
            &"info string evaluator 'odd' is disabled after a failure; using patterns".to_string()
        ),
        "{lines:?}"
    );
}

/// A bench stuck in an evaluator plugin disables it as a search does (it
/// said the plugin was disabled, blamed "the job's plugin", and the next
/// search hung in it again) and ends with `Nodes searched: 0`, the last
/// line of a bench that fails.
#[test]
fn a_bench_stuck_in_an_evaluator_disables_it_and_ends_without_a_count() {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let mut e = hanging_odd_engine(dir.path());
    e.send("bench othello 4");
    let lines = e.read_until(|l| l.starts_with("Nodes searched: "));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 0", "{lines:?}");
    let lines = [lines, e.sync()].concat();
    assert_odd_given_up(&lines, "bench made no progress for 2 s");
    assert_eq!(search(&mut e, 3).1.len(), 2);
}

#[test]
fn a_search_stuck_in_an_evaluator_disables_the_evaluator_not_the_game() {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let mut e = hanging_odd_engine(dir.path());
    // Three plies in, the evaluator never returns.
    e.send("position startpos moves f5 d6");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    let lines = [lines, e.sync()].concat();
    // Othello plays on, with its default evaluator.
    assert_odd_given_up(&lines, "the search made no progress for 2 s");
    assert_eq!(search(&mut e, 3).1.len(), 2);

    // The same through `eval`, which calls the evaluator alone.
    let mut e = hanging_odd_engine(dir.path());
    e.send("position startpos moves f5 d6 c3");
    e.send("eval");
    let lines = e.sync();
    assert_odd_given_up(&lines, "evaluating the position");
    // The evaluation asked for comes, by the evaluator now in use.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string eval evaluator patterns")),
        "{lines:?}"
    );
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

#[test]
fn an_evaluator_file_loaded_again_after_it_got_stuck_is_a_fresh_copy() {
    // The stuck call holds a lock of the library's: the same copy loaded
    // again would wait on it at its first evaluation.
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    let file = add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    let config = dir.path().join("plyd.toml");
    std::fs::write(&config, "call_limit = 2000\n").unwrap();
    let config = config.display().to_string();
    let mark = dir.path().join("hung");
    let mark_text = mark.display().to_string();
    let mut e = Engine::start(
        dir.path(),
        &["--config", &config],
        &[
            ("PLYD_TEST_EVAL", "hang-locked"),
            ("PLYD_TEST_EVAL_MARK", &mark_text),
        ],
    );
    let load = |e: &mut Engine| {
        e.send(&format!("setoption name EvalFile value {}", file.display()));
        assert_eq!(
            e.sync(),
            [format!(
                "info string evaluator odd loaded from {}",
                file.display()
            )]
        );
    };
    load(&mut e);
    e.send("position startpos moves f5 d6");
    e.send("go depth 4");
    let lines = [e.until_bestmove(), e.sync()].concat();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(mark.exists());
    // Loaded again from the same, unchanged file: a fresh copy, whose
    // lock is free, evaluates.
    load(&mut e);
    e.send("go depth 4");
    let lines = [e.until_bestmove(), e.sync()].concat();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("disabled")), "{lines:?}");
}

#[test]
fn a_panic_reading_parameters_is_told_with_its_message() {
    let (mut e, dir) = odd_engine("params-panic");
    let file = dir.path().join("odd.toml");
    std::fs::write(&file, "anything = 1\n").unwrap();
    e.send(&format!(
        "setoption name EvalParams value {}",
        file.display()
    ));
    let lines = e.sync();
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(
        error[0].contains(
            "the evaluator panicked while reading them: asked to panic reading parameters"
        ),
        "{lines:?}"
    );
    // The evaluator in use stays.
    assert_eq!(search(&mut e, 2).1.len(), 2);
}

#[test]
fn eval_file_again_says_the_parameters_are_the_defaults() {
    let (mut e, dir, file) = odd_engine_with_params("ok");
    let library = dir.path().join(format!(
        "{}plyd_eval_odd{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    e.send(&format!(
        "setoption name EvalFile value {}",
        library.display()
    ));
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            "info string evaluator odd params default ({} is not read again: send EvalParams for it)",
            file.display()
        ),
        "{lines:?}"
    );
}

/// The note of a failed evaluator's replacement says that its parameter
/// file went with it: a reload of it starts from its defaults.
#[test]
fn a_failed_evaluators_parameters_are_said_to_be_dropped() {
    let (mut e, _dir, file) = odd_engine_with_params("garbage");
    e.send("go depth 4");
    assert_eq!(errors(&e.until_bestmove()).len(), 1);
    assert_eq!(
        e.sync(),
        [format!(
            "info string evaluator 'odd' is disabled after a failure; using patterns \
             (its params {} are dropped: send EvalParams again after reloading it)",
            file.display()
        )]
    );
}

#[test]
fn an_evaluator_that_answers_garbage_is_dropped() {
    // Status 42 from evaluate, at 7 discs.
    let (mut e, _dir) = odd_engine("garbage");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(
        error[0].contains("returned garbage from evaluate: unexpected status 42"),
        "{lines:?}"
    );
    assert_back_on_the_default(&mut e);

    // STATUS_OK from evaluate with no score written, at 7 discs.
    let (mut e, _dir) = odd_engine("silent");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(
        error[0]
            .contains("returned garbage from evaluate: returned STATUS_OK without writing a score"),
        "{lines:?}"
    );
    assert_back_on_the_default(&mut e);

    // STATUS_UNSUPPORTED from evaluate, which must score every position:
    // dropped too, where it left every later search unsearched.
    let (mut e, _dir) = odd_engine("unsupported");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    let error = errors(&lines);
    assert_eq!(error.len(), 1, "{lines:?}");
    assert!(
        error[0].contains(
            "returned garbage from evaluate: answered STATUS_UNSUPPORTED, which evaluate may not \
             answer"
        ),
        "{lines:?}"
    );
    assert_back_on_the_default(&mut e);

    // An explanation without its NUL terminator.
    let (mut e, _dir) = odd_engine("garbage");
    e.send("eval");
    let lines = e.read_until(|l| l.starts_with("info string error:"));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("returned garbage from explain: text is not NUL-terminated"),
        "{lines:?}"
    );
    // The note, then the evaluation asked for, by the default.
    let lines = e.sync();
    assert_eq!(
        lines[0],
        "info string evaluator 'odd' is disabled after a failure; using patterns"
    );
    assert!(
        lines[1].starts_with("info string eval evaluator patterns")
            && lines[1..]
                .iter()
                .all(|l| l.starts_with("info string eval "))
            && lines
                .last()
                .unwrap()
                .starts_with("info string eval score_bound"),
        "{lines:?}"
    );
    assert_default_plays_on(&mut e);
}

#[test]
fn eval_subcommand_prints_terms_for_tuning() {
    let plugins = othello_and_weights();
    let files = TempDir::new("params");
    let params = files.path().join("w.toml");
    std::fs::write(
        &params,
        plyd_eval_othello_weights::DEFAULT_PARAMS.replacen("mobility = 12", "mobility = 100", 1),
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = plyd_command(plugins.path()).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    // Black to move after f5 d6 has 5 placements, White 4 (from `d`).
    let fen = "8/8/8/3OX3/3OXX2/3O4/8/8 b";
    let (code, stdout, _) = run(&["eval", "--evaluator", "weights", "--fen", fen]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.starts_with(&format!("position {fen}\nevaluator weights (")),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nraw_mobility 1\nraw_frontier "),
        "{stdout}"
    );
    assert!(stdout.contains("\nmobility 12\n"), "{stdout}");
    let p = params.to_str().unwrap();
    let (code, stdout, _) = run(&[
        "eval",
        "--evaluator",
        "weights",
        "--eval-params",
        p,
        "--fen",
        fen,
    ]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains(&format!(") params {p}\n")), "{stdout}");
    assert!(stdout.contains("\nmobility 100\n"), "{stdout}");
    // patterns by default, and errors with exit code 2 and one line.
    let (code, stdout, _) = run(&["eval"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("evaluator patterns (built into othello) params default\n"));
    let (code, _, stderr) = run(&["eval", "--evaluator", "seed004", "--eval-params", p]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr.trim(),
        format!("plyd eval: eval params {p}: key 'terms': unknown field `terms`, expected one of `scale`, `weights`, `corners` (read by evaluator seed004; the file holds the parameters of weights: select weights, or give seed004 a file of its own)")
    );
    // The same file given to the default evaluator names the evaluator
    // plugin it is for too (it said only `unknown field`).
    let (code, _, stderr) = run(&["eval", "--eval-params", p]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.trim().ends_with(
            "(read by evaluator patterns; the file holds the parameters of weights: select weights, or give patterns a file of its own)"
        ),
        "{stderr}"
    );
    // A file another built-in evaluator takes: named as that one's.
    let (_, seed004_params, _) = run(&["params", "--evaluator", "seed004"]);
    let other = params.with_file_name("seed004.toml");
    std::fs::write(&other, seed004_params).unwrap();
    let o = other.to_str().unwrap();
    let (code, _, stderr) = run(&["eval", "--eval-params", o]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.trim().ends_with(
            "(read by evaluator patterns; the file holds the parameters of seed004: select seed004, or give patterns a file of its own)"
        ),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["eval", "--evaluator", "nonsense"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("othello has no evaluator 'nonsense' (it has: patterns, seed004, patterns-stack, weights; an evaluator plugin is offered when its library, named libplyd_eval_NAME.so, is in a plugin folder (--plugin-path, PluginPath), or, in the daemon, loaded from its file (EvalFile))"),
        "{stderr}"
    );
}

#[test]
fn params_subcommand_prints_the_defaults_that_load_back() {
    let plugins = othello_and_weights();
    let files = TempDir::new("params-out");
    let run = |args: &[&str]| plyd_command(plugins.path()).args(args).output().unwrap();
    // The evaluator plugin's defaults, as it ships them.
    let out = run(&["params", "--evaluator", "weights"]);
    assert_eq!(out.status.code(), Some(0));
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        printed.trim_end(),
        plyd_eval_othello_weights::DEFAULT_PARAMS.trim_end()
    );
    // Printed, saved and loaded back, they evaluate as the defaults do.
    let out = run(&["params", "--evaluator", "seed004"]);
    assert_eq!(out.status.code(), Some(0));
    let saved = files.path().join("seed004.toml");
    std::fs::write(&saved, &out.stdout).unwrap();
    let score = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--evaluator",
            "seed004",
            "--fen",
            "8/8/8/3OX3/3OXX2/3O4/8/8 b",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().last().unwrap().to_string()
    };
    assert_eq!(
        score(&["--eval-params", saved.to_str().unwrap()]),
        score(&[])
    );
    // An evaluator that is not there is named with those that are.
    let out = run(&["params", "--evaluator", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("plyd params: othello has no evaluator 'nonsense'"));
}

/// The `patterns-stack` evaluator and the plain `patterns` of one loaded
/// Othello plugin.
fn stacked_and_plain() -> (
    std::sync::Arc<plyd::host::GamePlugin>,
    plyd::host::Evaluator,
    plyd::host::Evaluator,
) {
    let mut host = plyd::host::PluginHost::default();
    let othello = host
        .load_file(&built_library("plyd_game_othello"))
        .expect("othello loads");
    let stacked = evaluator_named(&host, &othello, "patterns-stack");
    let plain = evaluator_named(&host, &othello, "patterns");
    (othello, stacked, plain)
}

/// The evaluator called `name` among those `host` offers for `game`,
/// with its default parameters.
fn evaluator_named(
    host: &plyd::host::PluginHost,
    game: &std::sync::Arc<plyd::host::GamePlugin>,
    name: &str,
) -> plyd::host::Evaluator {
    evaluator_with_params(host, game, name, None)
}

/// [`evaluator_named`] with parameter text (`None`: the defaults).
fn evaluator_with_params(
    host: &plyd::host::PluginHost,
    game: &std::sync::Arc<plyd::host::GamePlugin>,
    name: &str,
    params: Option<&str>,
) -> plyd::host::Evaluator {
    let source = host
        .evaluators_for(game)
        .into_iter()
        .find(|e| e.name() == name)
        .unwrap_or_else(|| panic!("no evaluator {name}"));
    plyd::host::Evaluator::new(game, source, params).expect("evaluator")
}

#[test]
fn a_stack_refuses_states_of_another_game_at_every_entry() {
    // The stack would hand the plugin memory of another layout: each of
    // reset, push and evaluate checks the state's game first.
    use plyd::host::GameState;
    let mut host = plyd::host::PluginHost::default();
    let othello = host
        .load_file(&built_library("plyd_game_othello"))
        .expect("othello loads");
    let xiangqi = host
        .load_file(&built_library("plyd_game_xiangqi"))
        .expect("xiangqi loads");
    let stacked = evaluator_named(&host, &othello, "patterns-stack");
    let mut stack = stacked.new_stack().unwrap().expect("a stack");
    let state = GameState::new(&othello, 0).unwrap();
    let other = GameState::new(&xiangqi, 0).unwrap();
    let refusal = "reads othello states, not xiangqi states";
    stack.reset(&state).unwrap();
    let mut moves = Vec::new();
    other.legal_moves(&mut moves).unwrap();
    for error in [
        stack.reset(&other).unwrap_err(),
        stack.push(&other, moves[0]).unwrap_err(),
        stack.evaluate_own(&other).unwrap_err(),
        stack.evaluate(&other).unwrap_err(),
    ] {
        assert!(error.to_string().contains(refusal), "{error}");
    }
    // Refused before the plugin was called: the stack still serves.
    assert_eq!(
        stack.evaluate(&state).unwrap(),
        stacked.evaluate(&state).unwrap()
    );
}

#[test]
fn incremental_stacks_score_every_node_as_from_scratch_on_several_threads() {
    use plyd::host::GameState;
    use std::sync::atomic::Ordering;
    let (othello, stacked, plain) = stacked_and_plain();
    assert!(stacked.is_incremental());
    assert!(!plain.is_incremental());
    assert!(plain.new_stack().unwrap().is_none());
    let checked = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        for thread in 0..4u64 {
            let (othello, stacked, plain, checked) = (&othello, &stacked, &plain, &checked);
            scope.spawn(move || {
                let mut rng = plyd_util::rng::SplitMix64::new(0x5eed + thread);
                let mut moves = Vec::new();
                let mut replies = Vec::new();
                for _game in 0..6 {
                    let mut state = GameState::new(othello, 0).unwrap();
                    let mut stack = stacked.new_stack().unwrap().expect("a stack");
                    stack.reset(&state).unwrap();
                    let mut line = Vec::new();
                    loop {
                        // The stack's score is the plain score, here and
                        // after every reply (made, scored, taken back).
                        let score = stack.evaluate(&state).unwrap();
                        assert_eq!(score, plain.evaluate(&state).unwrap());
                        assert_eq!(score, stacked.evaluate(&state).unwrap());
                        state.legal_moves(&mut moves).unwrap();
                        if moves.is_empty() {
                            break;
                        }
                        for &mv in &moves {
                            state.make_move(mv).unwrap();
                            stack.push(&state, mv).unwrap();
                            state.legal_moves(&mut replies).unwrap();
                            for &reply in &replies {
                                state.make_move(reply).unwrap();
                                stack.push(&state, reply).unwrap();
                                let deep = stack.evaluate(&state).unwrap();
                                assert_eq!(deep, plain.evaluate(&state).unwrap());
                                state.unmake_move(reply).unwrap();
                                stack.pop().unwrap();
                            }
                            let score = stack.evaluate(&state).unwrap();
                            assert_eq!(score, plain.evaluate(&state).unwrap());
                            state.unmake_move(mv).unwrap();
                            stack.pop().unwrap();
                            checked.fetch_add(1 + replies.len() as u64, Ordering::Relaxed);
                        }
                        let mv = moves[rng.below(moves.len() as u64) as usize];
                        state.make_move(mv).unwrap();
                        stack.push(&state, mv).unwrap();
                        line.push(mv);
                    }
                    // Back to the start through every pop.
                    for &mv in line.iter().rev() {
                        state.unmake_move(mv).unwrap();
                        stack.pop().unwrap();
                        assert_eq!(
                            stack.evaluate(&state).unwrap(),
                            plain.evaluate(&state).unwrap()
                        );
                    }
                }
            });
        }
    });
    assert!(checked.load(Ordering::Relaxed) > 10_000);
}

#[test]
fn a_search_through_the_stack_visits_the_same_nodes() {
    let dir = common::othello_dir();
    let nodes = |evaluator: &str| {
        let out = common::run_plyd(
            dir.path(),
            &["bench", "othello", "7", "--evaluator", evaluator],
        );
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .unwrap_or_else(|| panic!("no node count in {text}"))
            .to_string()
    };
    assert_eq!(nodes("patterns-stack"), nodes("patterns"));
}

/// The value of a full-width negamax of `depth` plies from `state` with
/// `evaluator` at the leaves, scored as the host's search scores: an ended
/// game `plies` below as `win - plies` (lost: the negation, drawn: 0).
/// Also the positions in the tree below `state`.
fn negamax(
    state: &mut plyd::host::GameState,
    evaluator: &plyd::host::Evaluator,
    depth: u32,
    win: i32,
) -> (i32, u64) {
    use plyd::host::Outcome;
    match state.outcome().unwrap() {
        Outcome::Win => return (win, 0),
        Outcome::Loss => return (-win, 0),
        Outcome::Draw => return (0, 0),
        Outcome::Ongoing => {}
    }
    if depth == 0 {
        return (evaluator.evaluate(state).unwrap(), 0);
    }
    let mut nodes = 0;
    let best = common::best_over_moves(state, |state| {
        let (value, below) = negamax(state, evaluator, depth - 1, win - 1);
        nodes += 1 + below;
        value
    });
    (best, nodes)
}

/// A shallow search of a node whose full-width value is `value`, run by
/// `search(alpha, beta)` with windows around and away from it: a score
/// strictly inside the window is the value, one at or past an edge a
/// fail-soft bound on the right side of it.
fn check_windows(value: i32, mut search: impl FnMut(i32, i32) -> i32) {
    for (alpha, beta) in [
        (value - 1, value + 1),
        (value - 300, value - 100),
        (value + 100, value + 300),
        (value, value + 1),
        (value - 1, value),
    ] {
        let score = search(alpha, beta);
        if score <= alpha {
            assert!(value <= score, "{value} above fail-low {score}");
        } else if score >= beta {
            assert!(value >= score, "{value} below fail-high {score}");
        } else {
            assert_eq!(score, value);
        }
    }
}

/// `patterns`, `patterns-stack` and the stand-alone `weights` search their
/// last plies inside their plugins. On six threads at once, from positions of random games to
/// their ends (passes and ended games included), every depth they take and
/// windows around and away from the value: the full window gives the
/// negamax value of the host's scoring (having visited the whole tree at
/// one ply), and any window a fail-soft bound on the right side of it. The state is
/// left as it was. `seed004` has no shallow search.
#[test]
fn shallow_searches_give_the_full_width_value_of_the_hosts_scoring() {
    use plyd::host::{GameState, Outcome};
    use std::sync::atomic::{AtomicU64, Ordering};
    let mut host = plyd::host::PluginHost::default();
    let othello = host
        .load_file(&built_library("plyd_game_othello"))
        .expect("othello loads");
    host.load_evaluator_file(&built_library("plyd_eval_othello_weights"))
        .expect("weights loads");
    let named = |name: &str| evaluator_named(&host, &othello, name);
    let seed004 = named("seed004");
    assert_eq!(seed004.shallow_plies(), 0);
    let mut state = GameState::new(&othello, 0).unwrap();
    assert_eq!(
        seed004
            .shallow_search(&mut state, 1, -10, 10, 1000)
            .unwrap(),
        None
    );
    let checked = AtomicU64::new(0);
    let ended_below = AtomicU64::new(0);
    let evaluators = [named("patterns"), named("patterns-stack"), named("weights")];
    std::thread::scope(|scope| {
        for thread in 0..6u64 {
            let (othello, evaluators) = (&othello, &evaluators);
            let (checked, ended_below) = (&checked, &ended_below);
            scope.spawn(move || {
                let evaluator = &evaluators[thread as usize % 3];
                let plies = evaluator.shallow_plies();
                assert_eq!(plies, 2);
                // Above every evaluator's bound, as the engine's win
                // scores are.
                let win = 90_000_000;
                let mut rng = plyd_util::rng::SplitMix64::new(0x5a11 + thread);
                let mut moves = Vec::new();
                for _game in 0..3 {
                    let mut state = GameState::new(othello, 0).unwrap();
                    while state.outcome().unwrap() == Outcome::Ongoing {
                        let hash = state.hash();
                        for depth in 1..=plies {
                            let (value, tree) = negamax(&mut state, evaluator, depth, win);
                            if value.abs() > 80_000_000 {
                                ended_below.fetch_add(1, Ordering::Relaxed);
                            }
                            let (score, nodes) = evaluator
                                .shallow_search(&mut state, depth, -win - 1, win + 1, win)
                                .unwrap()
                                .expect("a shallow search");
                            assert_eq!(score, value, "depth {depth}");
                            // One ply down nothing is cut with the full
                            // window; further down alpha-beta cuts.
                            if depth == 1 {
                                assert_eq!(nodes, tree);
                            } else {
                                assert!(nodes <= tree && nodes > 0, "{nodes} of {tree}");
                            }
                            assert_eq!(state.hash(), hash);
                            check_windows(value, |alpha, beta| {
                                evaluator
                                    .shallow_search(&mut state, depth, alpha, beta, win)
                                    .unwrap()
                                    .expect("a shallow search")
                                    .0
                            });
                            checked.fetch_add(1, Ordering::Relaxed);
                        }
                        state.legal_moves(&mut moves).unwrap();
                        let mv = moves[rng.below(moves.len() as u64) as usize];
                        state.make_move(mv).unwrap();
                    }
                }
            });
        }
    });
    assert!(checked.load(Ordering::Relaxed) > 900);
    assert!(ended_below.load(Ordering::Relaxed) > 0, "no ended game met");
}

/// EinStein's `odds` searches the last ply of a node after its roll
/// inside its plugin (the engine hands games with chance nodes one ply at
/// most): on positions of random games to their ends, the full window
/// gives the one-ply value of the host's scoring, every step visited, and
/// any window a fail-soft bound on the right side of it; the state is left
/// as it was. The set-up stage is left to the host. The endings are
/// valued by the table alone (`exact_stones = 3`): the paced solver of
/// larger endings may finish one between two calls, after which the same
/// position is valued exactly where a moment before it was estimated.
#[test]
fn einstein_shallow_search_gives_the_one_ply_value_of_the_hosts_scoring() {
    use plyd::host::{GameState, Outcome};
    let mut host = plyd::host::PluginHost::default();
    let einstein = host
        .load_file(&built_library("plyd_game_einstein"))
        .expect("einstein loads");
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plugins/einstein/odds.toml"
    ))
    .expect("odds.toml");
    let params = shipped.replace("exact_stones = 5", "exact_stones = 3");
    assert_ne!(params, shipped, "odds.toml sets exact_stones = 5");
    let odds = evaluator_with_params(&host, &einstein, "odds", Some(&params));
    assert_eq!(odds.shallow_plies(), 1);
    let win = 90_000_000;
    let mut rng = plyd_util::rng::SplitMix64::new(0xe1e5);
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let (mut checked, mut ended_below, mut left_to_host) = (0, 0, 0);
    for _game in 0..60 {
        let mut state = GameState::new(&einstein, 0).unwrap();
        let mut rolled = false;
        while state.outcome().unwrap() == Outcome::Ongoing {
            state.chance_outcomes(&mut outcomes).unwrap();
            if !outcomes.is_empty() {
                let (roll, _) = outcomes[rng.below(outcomes.len() as u64) as usize];
                state.make_move(roll).unwrap();
                rolled = true;
                continue;
            }
            let hash = state.hash();
            let found = odds
                .shallow_search(&mut state, 1, -win - 1, win + 1, win)
                .unwrap();
            match found {
                None => {
                    assert!(!rolled, "a position after a roll left to the host");
                    left_to_host += 1;
                }
                Some((score, nodes)) => {
                    let (value, tree) = negamax(&mut state, &odds, 1, win);
                    assert_eq!(score, value);
                    assert_eq!(nodes, tree);
                    if value.abs() > 80_000_000 {
                        ended_below += 1;
                    }
                    check_windows(value, |alpha, beta| {
                        let (score, nodes) = odds
                            .shallow_search(&mut state, 1, alpha, beta, win)
                            .unwrap()
                            .expect("a shallow search");
                        assert!(nodes >= 1 && nodes <= tree);
                        score
                    });
                    checked += 1;
                }
            }
            assert_eq!(state.hash(), hash);
            state.legal_moves(&mut moves).unwrap();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            state.make_move(mv).unwrap();
        }
    }
    assert!(checked > 500, "{checked} positions checked");
    assert!(ended_below > 0, "no winning step met");
    assert!(left_to_host > 0, "the set-up stage never met");
}

#[test]
fn the_game_named_again_keeps_its_parameters_as_read() {
    // The file is not read again: an edit, or a break, made since it was
    // loaded changes nothing until EvalParams names it again.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let files = TempDir::new("params-kept");
    let file = files.path().join("mine.toml");
    std::fs::write(
        &file,
        seed004_params(&[("mobility = 1.0", "mobility = 0.5")]),
    )
    .unwrap();
    let mut e = Engine::start(plugins.path(), &[], &[]);
    e.send("setoption name Evaluator value seed004");
    e.send(&format!(
        "setoption name EvalParams value {}",
        file.display()
    ));
    assert!(errors(&e.sync()).is_empty());
    let eval = |e: &mut Engine| {
        e.send("position startpos moves f5");
        e.send("eval");
        e.sync()
    };
    let before = eval(&mut e);
    assert!(
        before.contains(&"info string eval weight_mobility 0.5".to_string()),
        "{before:?}"
    );
    std::fs::write(&file, "not = [toml").unwrap();
    for again in ["setoption name UCI_Variant value othello", "ucinewgame"] {
        e.send(again);
        let lines = e.sync();
        assert!(errors(&lines).is_empty(), "{again}: {lines:?}");
        assert_eq!(eval(&mut e), before, "{again}");
    }
}

#[test]
fn the_default_spelled_empty_is_the_empty_string() {
    // `uci` shows an empty string default as `<empty>`; a GUI that sends
    // it back means no file.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut e = Engine::start(plugins.path(), &[], &[]);
    e.send("setoption name EvalFile value <empty>");
    e.send("setoption name BookFile value <empty>");
    assert!(e.sync().is_empty());
    e.send("setoption name EvalParams value <empty>");
    assert_eq!(
        e.sync(),
        ["info string evaluator patterns params default".to_string()]
    );
}

#[test]
fn a_relative_parameter_file_not_found_says_where_it_was_looked_for() {
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let cwd = TempDir::new("params-cwd");
    let mut e = Engine::start_in(plugins.path(), cwd.path());
    e.send("setoption name EvalParams value nothere.toml");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let folder = cwd
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    assert!(
        lines[0].starts_with("info string error: eval params nothere.toml: cannot be read:")
            && lines[0].contains("(looked in ")
            && lines[0].ends_with(&format!("{folder})")),
        "{lines:?}"
    );
}

/// A daemon started with an evaluator file that cannot be loaded says why
/// (no such file), then that it plays with the game's default instead,
/// not that no evaluator of that name is offered.
#[test]
fn an_evaluator_file_that_cannot_be_loaded_is_told_as_such_at_the_start() {
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut e = Engine::start(plugins.path(), &["--evaluator", "./nothere.so"], &[]);
    // The start's problems follow the answer to the GUI's first line.
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let lines = e.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 2, "{lines:?}");
    assert!(told[0].contains("there is no such file"), "{lines:?}");
    assert!(
        told[1]
            .ends_with("evaluator file ./nothere.so was not loaded (said above); using patterns"),
        "{lines:?}"
    );
}

#[test]
fn a_tool_given_an_evaluator_file_of_another_game_checks_it_on_its_game() {
    // `plyd check --evaluator FILE` with no --game, the way tuning.md
    // shows it: an Amazons or xiangqi evaluator was refused as one
    // Othello lacks ("othello has no evaluator ..., loaded from its file").
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
    ]);
    let other = TempDir::new("evaluator-file");
    let file = add_evaluator(other.path(), "plyd_test_xq_stack", "stackcheck");
    let file = file.display().to_string();
    let run = common::run_plyd(
        dir.path(),
        &[
            "check",
            "--evaluator",
            &file,
            "--games",
            "1",
            "--plies",
            "20",
        ],
    );
    assert!(run.status.success(), "{run:?}");
    // A game named that it does not read: that is the reason given.
    let run = common::run_plyd(
        dir.path(),
        &["eval", "--game", "othello", "--evaluator", &file],
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("evaluator 'stackcheck' reads xiangqi, not othello"),
        "{stderr}"
    );
    // And in the daemon told to play Othello.
    let mut e = Engine::start(
        dir.path(),
        &["--game", "othello", "--evaluator", &file],
        &[],
    );
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    let lines: Vec<String> = lines.into_iter().chain(e.sync()).collect();
    let errors = errors(&lines);
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(
        errors[0].contains("reads xiangqi, not othello: choose that game"),
        "{lines:?}"
    );
    e.send("quit");
    // Told no game, the daemon starts in the evaluator's, as the tools do.
    let mut e = Engine::start(dir.path(), &["--evaluator", &file], &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    let lines: Vec<String> = lines.into_iter().chain(e.sync()).collect();
    assert!(common::errors(&lines).is_empty(), "{lines:?}");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.contains("evaluator stackcheck")),
        "{lines:?}"
    );
    assert!(e.fen().starts_with("rnbakabnr/"), "{}", e.fen());
    e.send("quit");
}

/// An `EvalFile` whose evaluator has the name of one from another file
/// takes its place and says so: the first could no longer be chosen, and
/// nothing told.
#[test]
fn an_eval_file_replacing_another_files_evaluator_says_so() {
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let elsewhere = TempDir::new("evalfile-twins");
    let [first, second] = ["first.so", "second.so"].map(|name| elsewhere.path().join(name));
    for file in [&first, &second] {
        std::fs::copy(built_library("plyd_eval_othello_weights"), file).unwrap();
    }
    let mut e = Engine::start(plugins.path(), &[], &[]);
    e.send(&format!(
        "setoption name EvalFile value {}",
        first.display()
    ));
    assert_eq!(
        e.sync(),
        vec![format!(
            "info string evaluator weights loaded from {}",
            first.display()
        )]
    );
    e.send(&format!(
        "setoption name EvalFile value {}",
        second.display()
    ));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].ends_with(&format!(
            "in place of the evaluator of that name from {} (no longer offered; two evaluators need two names)",
            first.display()
        )),
        "{lines:?}"
    );
    // Its own file again: a reload, nothing replaced.
    e.send(&format!(
        "setoption name EvalFile value {}",
        second.display()
    ));
    assert_eq!(
        e.sync(),
        vec![format!(
            "info string evaluator weights loaded from {}",
            second.display()
        )]
    );
}

/// The variants of one game share its evaluator's parameters (an
/// Amazons file holds both boards' tables): a change of variant keeps
/// them, where it dropped them without a word. A change of game, whose
/// evaluator is another, names the evaluator that now plays.
#[test]
fn a_change_of_variant_keeps_the_parameters_and_a_change_of_game_names_the_evaluator() {
    let dir = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_amazons", "amazons"),
    ]);
    let out = common::run_plyd(dir.path(), &["params", "--game", "amazons"]);
    assert!(out.status.success());
    let params = dir.path().join("mine.toml");
    std::fs::write(&params, &out.stdout).unwrap();
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("setoption name UCI_Variant value amazons8");
    assert_eq!(
        e.sync()[1..],
        ["info string evaluator tables"],
        "Othello's patterns gave way"
    );
    e.send(&format!(
        "setoption name EvalParams value {}",
        params.display()
    ));
    e.sync();
    e.send("setoption name UCI_Variant value amazons");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "nothing changed but the board: {lines:?}");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines[0].ends_with(&format!("params {}", params.display())),
        "{lines:?}"
    );
    e.send("setoption name UCI_Variant value othello");
    assert_eq!(
        e.sync()[1..],
        ["info string evaluator patterns params default"]
    );
}
