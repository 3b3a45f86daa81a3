//! `plyd arena` end to end: real matches between real processes — plyd
//! against itself, and plyd against small shell-script engines that sleep,
//! answer nonsense or exit — checked through the game log and the table.
//!
//! Only the deliberately broken engines depend on time, and then by a wide
//! margin (a 3 s sleep against a 0.2 s budget); the plyd games are played
//! at fixed depth, so their results do not depend on the machine's speed.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use crate::common::{othello_dir, plugin_dir, plyd_bin, plyd_command, Engine, TempDir};

/// A fake engine in POSIX sh (so the tests that use it run on Unix only): it answers the handshake, and on `go` does
/// what `$1` says.
#[cfg(unix)]
const FAKE_ENGINE: &str = r#"mode="$1"
# crash-once: crashes at its first go, and cannot start again after.
if [ "$mode" = crash-once ] && [ -e "$0.crashed" ]; then exit 7; fi
while IFS= read -r line; do
  case "$line" in
    uci)
      # ucci: an engine of UCCI alone, which ends at a command it does not know.
      if [ "$mode" = ucci ]; then echo "unknown command: uci"; exit 0; fi
      echo "id name fake-$mode"
      if [ "$mode" = ranks1 ]; then variant=xiangqi; else variant=othello; fi
      echo "option name UCI_Variant type combo default $variant var $variant"
      echo uciok ;;
    isready) echo readyok ;;
    "setoption name Thread value"*) echo "No such option: Thread" ;;
    go*)
      case "$mode" in
        sleep) sleep 3; echo "bestmove 0000" ;;
        illegal) echo "bestmove z9" ;;
        a1) echo "bestmove a1" ;;
        f5) echo "bestmove f5" ;;
        ranks1) echo "bestmove b1c3" ;;
        gbk) printf 'info string \326\320\316\304\n'; echo "bestmove f5" ;;
        crash) exit 3 ;;
        crash-once) : > "$0.crashed"; exit 3 ;;
        plugin-fails)
          echo "info string error: plugin evaluator 'mine' panicked in evaluate; the plugin is disabled until it is reloaded"
          echo "bestmove f5" ;;
        fails-after)
          echo "bestmove f5"
          echo "info string error: plugin evaluator 'mine' did not return from a call: the search was given up 1 s after it should have ended; the plugin is disabled until it is loaded again (setoption name EvalFile, or PluginPath)" ;;
        silent) ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
"#;

/// One game of the log: its tags and its `position` line.
#[derive(Debug)]
struct LoggedGame {
    tags: BTreeMap<String, String>,
    position: String,
}

impl LoggedGame {
    fn tag(&self, name: &str) -> &str {
        self.tags
            .get(name)
            .unwrap_or_else(|| panic!("no tag {name} in {self:?}"))
    }

    /// The moves of the position line.
    fn moves(&self) -> Vec<&str> {
        match self.position.split_once(" moves ") {
            Some((_, moves)) => moves.split(' ').collect(),
            None => Vec::new(),
        }
    }
}

/// The games of a game log, in the order of the file (the match header,
/// the first block, is left out).
fn read_log(path: &Path) -> Vec<LoggedGame> {
    let text = std::fs::read_to_string(path).expect("the game log");
    assert!(
        text.starts_with("[Arena \"plyd arena game log 2\"]\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\n\n"),
        "the log ends in a cut record: {text}"
    );
    text.split("\n\n")
        .skip(1)
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut tags = BTreeMap::new();
            let mut position = None;
            for line in block.lines() {
                if let Some(tag) = line.strip_prefix('[') {
                    let (name, value) = tag.split_once(' ').expect("a tag");
                    let value = value.trim_end_matches(']').trim_matches('"');
                    tags.insert(name.to_string(), value.to_string());
                } else {
                    assert!(line.starts_with("position "), "{block}");
                    position = Some(line.to_string());
                }
            }
            LoggedGame {
                tags,
                position: position.unwrap_or_else(|| panic!("no position line in {block}")),
            }
        })
        .collect()
}

/// The tags of a game log's header.
fn read_header(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).expect("the game log");
    let header = text.split("\n\n").next().unwrap();
    header
        .lines()
        .map(|line| {
            let (name, value) = line.strip_prefix('[').unwrap().split_once(' ').unwrap();
            (
                name.to_string(),
                value.trim_end_matches(']').trim_matches('"').to_string(),
            )
        })
        .collect()
}

/// Run `plyd arena` with `args` and plugins from `plugins`.
fn arena<S: AsRef<std::ffi::OsStr>>(plugins: &Path, args: &[S]) -> Output {
    plyd_command(plugins)
        .arg("arena")
        .args(args)
        .output()
        .expect("run plyd arena")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `engine` row of the final table: games, wins, draws, losses.
fn table_row(stdout: &str, engine: &str) -> [u64; 4] {
    let line = stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(engine))
        .unwrap_or_else(|| panic!("no row for {engine} in {stdout}"));
    let numbers: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(4)
        .map(|n| n.parse().unwrap())
        .collect();
    numbers.try_into().unwrap()
}

/// Points of engine `name` in `game`.
fn points(game: &LoggedGame, name: &str) -> f64 {
    let first = game.tag("First") == name;
    assert!(first || game.tag("Second") == name, "{game:?}");
    match (game.tag("Result"), first) {
        ("1/2-1/2", _) => 0.5,
        ("1-0", true) | ("0-1", false) => 1.0,
        _ => 0.0,
    }
}

/// The engine words of a match between the fake engine in `mode` (its
/// words followed by `fake_extra`) and plyd (named `plyd`), in that order
/// when `fake_first`: the caller adds the match's own arguments.
#[cfg(unix)]
fn fake_against_plyd(
    dir: &TempDir,
    mode: &str,
    fake_extra: &[&str],
    fake_first: bool,
) -> Vec<String> {
    let mut fake = vec!["--engine".to_string()];
    fake.extend(fake_engine(dir, mode));
    fake.extend(fake_extra.iter().map(|w| w.to_string()));
    let plyd = vec![
        "--engine".to_string(),
        format!("cmd={}", plyd_bin().display()),
        "name=plyd".to_string(),
    ];
    if fake_first {
        [fake, plyd].concat()
    } else {
        [plyd, fake].concat()
    }
}

/// The arena's words for `games` games at depth 1, logged to `log`.
fn logged_games_at_depth_1(games: u32, log: &Path) -> Vec<String> {
    let games = games.to_string();
    [
        "--depth",
        "1",
        "--games",
        &games,
        "--out",
        log.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

/// Write the fake engine into `dir` and give the engine words to run it.
#[cfg(unix)]
fn fake_engine(dir: &TempDir, mode: &str) -> Vec<String> {
    let script = dir.path().join("fake.sh");
    std::fs::write(&script, FAKE_ENGINE).unwrap();
    vec![
        "cmd=sh".to_string(),
        format!("arg={}", script.display()),
        format!("arg={mode}"),
        "name=fake".to_string(),
    ]
}

#[test]
fn plyd_against_itself_on_othello() {
    let plugins = othello_dir();
    let out_dir = TempDir::new("arena-self");
    let log = out_dir.path().join("games.txt");
    let plyd = plyd_bin();
    let cmd = format!("cmd={}", plyd.display());
    let out = arena(
        plugins.path(),
        &[
            "--game",
            "othello",
            "--engine",
            &cmd,
            "name=deep",
            "depth=3",
            "option.Threads=1",
            "--engine",
            &cmd,
            "name=shallow",
            "depth=1",
            "option.Hash=8",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--openings",
            "random:4",
            "--seed",
            "11",
            "--out",
            log.to_str().unwrap(),
        ],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");

    let games = read_log(&log);
    assert_eq!(games.len(), 4, "{games:#?}");
    let header = read_header(&log);
    assert_eq!(header["Engine1"], "deep");
    assert_eq!(header["Limits2"], "depth=1");
    assert_eq!(header["Seed"], "11");
    assert_eq!(header["Openings"], "random:4");
    let mut numbers: Vec<&str> = games.iter().map(|g| g.tag("Game")).collect();
    numbers.sort();
    assert_eq!(numbers, ["1", "2", "3", "4"]);

    // Replay every game in a plyd daemon: the moves are accepted, the final
    // position is the one logged, and the game is over there.
    let mut daemon = Engine::start(plugins.path(), &[], &[]);
    for game in &games {
        assert_eq!(game.tag("Variant"), "othello");
        assert_eq!(game.tag("Ending"), "rules", "{game:?}");
        assert_eq!(game.moves().len().to_string(), game.tag("Plies"));
        daemon.send(&game.position);
        assert!(common::errors(&daemon.sync()).is_empty(), "{game:?}");
        assert_eq!(daemon.fen(), game.tag("FinalPosition"));
        daemon.send("go depth 1");
        assert_eq!(daemon.until_bestmove().last().unwrap(), "bestmove (none)");
        // A score a ply after the opening, each the mover's last `info`
        // line's: `score/depth`, at the depth its engine was given (or the
        // empty squares left, fewer).
        let scores: Vec<&str> = game.tag("Scores").split(' ').collect();
        let moves = game.moves();
        assert_eq!(scores.len(), moves.len() - 4, "{game:?}");
        for (i, word) in scores.iter().enumerate() {
            let (score, depth) = word.split_once('/').expect(word);
            assert!(score.parse::<i32>().is_ok(), "{word} in {game:?}");
            let ply = 4 + i;
            let mover = if ply % 2 == 0 { "First" } else { "Second" };
            let given = if game.tag(mover) == "deep" { 3 } else { 1 };
            let empties = 60 - moves[..ply].iter().filter(|m| **m != "0000").count();
            assert!(
                depth.parse::<usize>().unwrap() >= given.min(empties),
                "{word} at ply {} in {game:?}",
                ply + 1
            );
        }
    }

    // Each pair plays one opening, each engine first once.
    for pair in 0..2 {
        let of_pair: Vec<&LoggedGame> = games
            .iter()
            .filter(|g| (g.tag("Game").parse::<usize>().unwrap() - 1) / 2 == pair)
            .collect();
        assert_eq!(of_pair.len(), 2);
        assert_eq!(of_pair[0].tag("First"), of_pair[1].tag("Second"));
        assert_eq!(of_pair[0].moves()[..4], of_pair[1].moves()[..4]);
        assert_eq!(of_pair[0].tag("OpeningPlies"), "4");
    }

    // The table adds up, and agrees with the log.
    let deep = table_row(&stdout, "deep");
    let shallow = table_row(&stdout, "shallow");
    assert_eq!(deep[0], 4);
    assert_eq!(deep[1] + deep[2] + deep[3], 4, "{stdout}");
    assert_eq!(
        (deep[1], deep[2], deep[3]),
        (shallow[3], shallow[2], shallow[1])
    );
    let deep_points: f64 = games.iter().map(|g| points(g, "deep")).sum();
    assert_eq!(
        deep_points,
        deep[1] as f64 + deep[2] as f64 / 2.0,
        "{stdout}"
    );
    assert!(stdout.contains("endings: rules 4"), "{stdout}");
    // Untimed games have no closest call.
    assert!(games.iter().all(|g| !g.tags.contains_key("LeastLeft")));
    assert!(!stdout.contains("least time left"), "{stdout}");
    assert!(
        stdout.contains("Elo difference deep - shallow: "),
        "{stdout}"
    );
    // Four games, two colour-swapped pairs, counted by pairs too.
    assert!(stdout.contains("Elo by pairs: "), "{stdout}");
    assert!(stdout.contains("2 colour-swapped pairs"), "{stdout}");
    // The log as training rows: a row a ply, its scores from `Scores`,
    // the result from the side to move's view.
    let rows = plyd_command(plugins.path())
        .args(["record", "--to", "positions"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(rows.status.success(), "{}", text(&rows.stderr));
    let rows = text(&rows.stdout);
    let mut lines = rows.lines();
    assert_eq!(
        lines.next(),
        Some("game\tply\tposition\tmove\tscore\tdepth\tresult")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    let plies: usize = games.iter().map(|g| g.moves().len()).sum();
    assert_eq!(rows.len(), plies, "{rows:?}");
    for game in &games {
        let number = game.tag("Game");
        let of_game: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == number).collect();
        let opening: usize = game.tag("OpeningPlies").parse().unwrap();
        let scores: Vec<&str> = game.tag("Scores").split(' ').collect();
        for (ply, row) in of_game.iter().enumerate() {
            assert_eq!(row[1], ply.to_string());
            assert_eq!(row[3], game.moves()[ply], "{row:?}");
            if ply < opening {
                assert_eq!((row[4], row[5]), ("", ""), "{row:?}");
            } else {
                assert_eq!(format!("{}/{}", row[4], row[5]), scores[ply - opening]);
            }
            // The side to move's result: the first player's at even
            // plies from the start here (no passes this early), the
            // other's at odd.
            let first = match game.tag("Result") {
                "1-0" => "1",
                "0-1" => "0",
                _ => "0.5",
            };
            if ply < 8 {
                let expected = match (ply % 2, first) {
                    (0, r) | (1, r @ "0.5") => r,
                    (_, "1") => "0",
                    _ => "1",
                };
                assert_eq!(row[6], expected, "{row:?}");
            }
        }
        assert_eq!(of_game[0][2], "8/8/8/3OX3/3XO3/8/8/8 b");
    }
    // Analysed, the opening's moves (the arena's, no player's) have the
    // position judged and the move not charged.
    let analysed = plyd_command(plugins.path())
        .args(["record", "--to", "positions", "--analyse", "depth=1"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(analysed.status.success(), "{}", text(&analysed.stderr));
    let analysed = text(&analysed.stdout);
    for line in analysed.lines().skip(1) {
        let row: Vec<&str> = line.split('\t').collect();
        let ply: usize = row[1].parse().unwrap();
        assert!(!row[4].is_empty() && !row[7].is_empty(), "{line}");
        assert_eq!(row[8].is_empty(), ply < 4, "{line}");
        assert_eq!(row[9].is_empty(), ply < 4, "{line}");
    }

    // One progress line per game.
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("game ")).count(),
        4,
        "{stderr}"
    );

    // The same seed plays the same match: fixed-depth search is
    // deterministic, and so are the openings.
    let log2 = out_dir.path().join("again.txt");
    let again = arena(
        plugins.path(),
        &[
            "--engine",
            &cmd,
            "name=deep",
            "depth=3",
            "--engine",
            &cmd,
            "name=shallow",
            "depth=1",
            "--games",
            "4",
            "--openings",
            "random:4",
            "--seed",
            "11",
            "--out",
            log2.to_str().unwrap(),
        ],
    );
    assert!(again.status.success());
    let mut first: Vec<(String, String)> = games
        .iter()
        .map(|g| (g.tag("Game").to_string(), g.position.clone()))
        .collect();
    let mut second: Vec<(String, String)> = read_log(&log2)
        .iter()
        .map(|g| (g.tag("Game").to_string(), g.position.clone()))
        .collect();
    first.sort();
    second.sort();
    assert_eq!(first, second);
}

#[test]
fn timed_games_record_their_closest_call() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-closest");
    let log = dir.path().join("games.txt");
    let cmd = format!("cmd={}", plyd_bin().display());
    let out = arena(
        plugins.path(),
        &[
            "--engine",
            &cmd,
            "name=a",
            "--engine",
            &cmd,
            "name=b",
            "--tc",
            "2+0.05",
            "--games",
            "2",
            "--openings",
            "random:4",
            "--seed",
            "5",
            "--out",
            log.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(games.len(), 2);
    let mut least = Vec::new();
    for game in &games {
        // `37 ms at ply 81 by the second player`
        let tag = game.tag("LeastLeft");
        let words: Vec<&str> = tag.split(' ').collect();
        assert_eq!(words.len(), 9, "{game:?}");
        let left: i64 = words[0].parse().unwrap();
        let ply: usize = words[4].parse().unwrap();
        let plies: usize = game.tag("Plies").parse().unwrap();
        // A timed move after the opening; no more left than the clock
        // can hold by then.
        assert!(ply > 4 && ply <= plies + 1, "{game:?}");
        assert!(left <= 2000 + 50 * ply as i64, "{game:?}");
        let player = if ply % 2 == 1 { "first" } else { "second" };
        assert_eq!(words[8], "player", "{game:?}");
        assert_eq!(
            words[7], player,
            "a pass is a ply: the sides alternate: {game:?}"
        );
        let name = game.tag(if player == "first" { "First" } else { "Second" });
        least.push((left, game.tag("Game").to_string(), name.to_string(), ply));
    }
    // The table names the least of the games' closest calls (the first
    // of them on a tie, in the order the games ended).
    let (left, _, _, _) = least.iter().min_by_key(|l| l.0).unwrap();
    let shown: Vec<String> = least
        .iter()
        .filter(|l| l.0 == *left)
        .map(|(left, game, name, ply)| {
            format!("least time left after a move: {left} ms ({name}, game {game}, ply {ply})")
        })
        .collect();
    assert!(
        shown.iter().any(|line| stdout.contains(line)),
        "{stdout}\n{shown:?}"
    );
}

#[test]
#[cfg(unix)]
fn an_engine_that_oversleeps_loses_on_time() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-sleep");
    let log = dir.path().join("games.txt");
    // Once under a clock, once under a fixed move time.
    for budget in ["tc=0.2+0", "st=0.2"] {
        // A new match does not write over a log that holds one.
        let _ = std::fs::remove_file(&log);
        let mut args = fake_against_plyd(&dir, "sleep", &[budget], true);
        args.extend(["depth=1", "--games", "2", "--out", log.to_str().unwrap()].map(String::from));
        let out = arena(plugins.path(), &args);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
        let games = read_log(&log);
        assert_eq!(games.len(), 2);
        for game in &games {
            assert_eq!(game.tag("Ending"), "time forfeit", "{game:?}");
            assert!(
                game.tag("Reason").starts_with("time forfeit by fake"),
                "{game:?}"
            );
            assert_eq!(points(game, "fake"), 0.0, "{game:?}");
            // The late move is the game's closest call, below zero.
            let fake_side = if game.tag("First") == "fake" {
                "first"
            } else {
                "second"
            };
            let least = game.tag("LeastLeft");
            assert!(
                least.starts_with('-') && least.ends_with(&format!("by the {fake_side} player")),
                "{game:?}"
            );
        }
        assert_eq!(table_row(&stdout, "fake"), [2, 0, 0, 2], "{stdout}");
        assert!(
            stdout.contains("least time left after a move: -")
                && stdout.contains(" ms (fake, game "),
            "{stdout}"
        );
    }
}

/// A move that reads but is not legal is refused naming the rule it
/// breaks, before the moves that were legal.
#[test]
#[cfg(unix)]
fn an_illegal_move_is_refused_with_the_rule_it_breaks() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-illegal-why");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "a1", &[], true);
    args.extend(logged_games_at_depth_1(1, &log));
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(
        games[0].tag("Reason"),
        "illegal move 'a1' by fake: a disc on a1 would flip none of the other side's \
         (4 legal here: d3, c4, f5, e6)"
    );
}

#[test]
#[cfg(unix)]
fn an_illegal_move_loses() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-illegal");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "illegal", &[], true);
    args.extend(logged_games_at_depth_1(2, &log));
    let out = arena(plugins.path(), &args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(games.len(), 2);
    for game in &games {
        // With what was legal there, for the engine's author.
        let reason = game.tag("Reason");
        assert!(
            reason.starts_with("illegal move 'z9' by fake (") && reason.contains(" legal here: "),
            "{game:?}"
        );
        assert_eq!(points(game, "fake"), 0.0);
        // The illegal move is not part of the replayable game.
        assert!(!game.position.contains("z9"), "{game:?}");
    }
    // Fake first: it loses at once. Plyd first: one move, then the loss.
    let plies: Vec<&str> = games.iter().map(|g| g.tag("Plies")).collect();
    assert_eq!(plies, ["0", "1"], "{games:?}");
    assert_eq!(table_row(&stdout, "plyd"), [2, 2, 0, 0], "{stdout}");
}

/// An openings file whose line is refused is quoted in one cut line, its
/// control characters escaped: a file not meant to be shown (a long line,
/// `/proc/self/environ`) was written whole to stderr.
#[test]
fn a_refused_openings_line_is_quoted_cut() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-openings-cut");
    let file = dir.path().join("lines.txt");
    std::fs::write(&file, format!("SECRET{}\u{2028}x\n", "y".repeat(5000))).unwrap();
    let cmd = format!("cmd={}", common::plyd_bin().display());
    let out = arena(
        plugins.path(),
        &[
            "--engine",
            &cmd,
            "name=a",
            "depth=1",
            "--engine",
            &cmd,
            "name=b",
            "depth=1",
            "--games",
            "2",
            "--openings",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.contains("bad position 'SECRET"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.len() < 600, "{line}");
    assert!(line.contains(" bytes in all)'"), "{line}");
    assert!(!stderr.contains('\u{2028}'), "{stderr}");
}

/// Random openings differ from pair to pair while the game has lines
/// enough; past that they repeat, with a warning. Othello has 12 lines
/// of two plies.
#[test]
fn random_openings_repeat_only_when_the_lines_run_out() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-random-distinct");
    let plyd = format!("cmd={}", plyd_bin().display());
    let run = |games: &str, name: &str| {
        let log = dir.path().join(name);
        let out = arena(
            plugins.path(),
            &[
                "--engine",
                &plyd,
                "name=a",
                "--engine",
                &plyd,
                "name=b",
                "--depth",
                "1",
                "--max-plies",
                "2",
                "--games",
                games,
                "--openings",
                "random:2",
                "--seed",
                "5",
                "--out",
                log.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let lines: Vec<Vec<String>> = pair_openings(&read_log(&log))
            .into_iter()
            .map(|(_, moves)| moves)
            .collect();
        (lines, text(&out.stderr))
    };
    let (lines, stderr) = run("24", "twelve.txt");
    let distinct: std::collections::BTreeSet<&Vec<String>> = lines.iter().collect();
    assert_eq!(distinct.len(), 12, "{lines:?}");
    assert!(!stderr.contains("openings repeat"), "{stderr}");
    // Two engines alike, each pair's games alike: said once.
    assert_eq!(
        stderr.matches("are the same move for move").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("the engines played as one player"),
        "{stderr}"
    );
    // Set up apart (a table size that changes no move at depth 1), the
    // warning says the engines chose alike, not that they are one.
    let out = arena(
        plugins.path(),
        &[
            "--engine",
            &plyd,
            "name=a",
            "--engine",
            &plyd,
            "name=b",
            "option.Hash=17",
            "--depth",
            "1",
            "--max-plies",
            "2",
            "--games",
            "4",
            "--openings",
            "random:2",
            "--seed",
            "5",
        ],
    );
    let apart = text(&out.stderr);
    assert!(
        apart.contains("the two engines, set up apart, chose alike at every move")
            && !apart.contains("played as one player"),
        "{apart}"
    );
    let (lines, stderr) = run("30", "fifteen.txt");
    let distinct: std::collections::BTreeSet<&Vec<String>> = lines.iter().collect();
    assert_eq!((lines.len(), distinct.len()), (15, 12), "{lines:?}");
    assert!(
        stderr.contains(
            "warning: 3 of 15 random openings repeat an earlier one, though drawn again: the \
             game has few lines of 2 plies (random:4 gives more)"
        ),
        "{stderr}"
    );
}

/// The openings of a game log, one per pair in game order: each pair's
/// two games must share the opening's label and moves.
fn pair_openings(games: &[LoggedGame]) -> Vec<(String, Vec<String>)> {
    let mut by_number: Vec<&LoggedGame> = games.iter().collect();
    by_number.sort_by_key(|g| g.tag("Game").parse::<usize>().unwrap());
    by_number
        .chunks(2)
        .map(|pair| {
            let plies: usize = pair[0].tag("OpeningPlies").parse().unwrap();
            let opening = |g: &LoggedGame| {
                (
                    g.tag("Opening").to_string(),
                    g.moves()[..plies].iter().map(|m| m.to_string()).collect(),
                )
            };
            let first = opening(pair[0]);
            assert_eq!(first, opening(pair[1]), "one opening per pair: {pair:?}");
            first
        })
        .collect()
}

#[test]
fn variety_openings_are_played_by_the_first_engine() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-variety");
    let plyd = format!("cmd={}", plyd_bin().display());
    let run = |openings: &str, name: &str| -> Vec<LoggedGame> {
        let log = dir.path().join(name);
        let out = arena(
            plugins.path(),
            &[
                "--engine",
                &plyd,
                "name=a",
                "option.Threads=2",
                "--engine",
                &plyd,
                "name=b",
                "--depth",
                "1",
                "--games",
                "8",
                "--openings",
                openings,
                "--seed",
                "21",
                "--out",
                log.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(read_header(&log)["Openings"], openings);
        read_log(&log)
    };

    // Without a margin every pair gets the engine's own line, the moves a
    // daemon plays at the openings' node count.
    let plain = pair_openings(&run("variety:4:0", "plain.txt"));
    let mut daemon = Engine::start(plugins.path(), &[], &[]);
    let mut line: Vec<String> = Vec::new();
    for _ in 0..4 {
        daemon.send(&format!("position startpos moves {}", line.join(" ")));
        daemon.send("go nodes 20000");
        let answer = daemon.until_bestmove();
        let best = answer.last().unwrap().split(' ').nth(1).unwrap();
        line.push(best.to_string());
    }
    for (label, moves) in &plain {
        assert!(label.starts_with("variety 4 plies, seed "), "{label}");
        assert_eq!(moves, &line);
    }

    // With one, the pairs' openings differ, and the same command gives the
    // same ones again.
    let varied = pair_openings(&run("variety:4:300", "varied.txt"));
    let distinct: std::collections::BTreeSet<&Vec<String>> =
        varied.iter().map(|(_, moves)| moves).collect();
    assert!(distinct.len() >= 3, "{varied:?}");
    assert_eq!(pair_openings(&run("variety:4:300", "again.txt")), varied);

    // A first engine in the Monte-Carlo mode, which takes no Variety: its
    // openings are played by the alpha-beta search, and vary (every pair
    // had one opening).
    let log = dir.path().join("mcts.txt");
    let out = arena(
        plugins.path(),
        &[
            "--engine",
            &plyd,
            "name=a",
            "option.SearchMode=mcts",
            "--engine",
            &plyd,
            "name=b",
            "--nodes",
            "200",
            "--max-plies",
            "5",
            "--games",
            "8",
            "--openings",
            "variety:4:300",
            "--seed",
            "21",
            "--out",
            log.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("are the same line"),
        "{}",
        text(&out.stderr)
    );
    let openings = pair_openings(&read_log(&log));
    let distinct: std::collections::BTreeSet<&Vec<String>> =
        openings.iter().map(|(_, moves)| moves).collect();
    assert!(distinct.len() >= 3, "{openings:?}");
}

#[test]
#[cfg(unix)]
fn variety_openings_that_never_vary_are_reported() {
    // The fake engine takes no options and always answers f5, the first
    // ply of every opening here: the arena plays on, with a warning.
    let plugins = othello_dir();
    let dir = TempDir::new("arena-variety-same");
    let mut args = fake_against_plyd(&dir, "f5", &[], true);
    args.extend(["--depth", "1", "--games", "8", "--openings", "variety:1"].map(String::from));
    let out = arena(plugins.path(), &args);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "warning: all 4 variety openings are the same line; does engine fake take the \
             Variety and VarietySeed options, and do its moves' scores lie within the margin \
             (30) of each other?"
        ),
        "{stderr}"
    );
}

#[test]
#[cfg(unix)]
fn an_illegal_move_in_a_variety_opening_stops_the_match() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-variety-illegal");
    let mut args = fake_against_plyd(&dir, "illegal", &[], true);
    args.extend(["--depth", "1", "--games", "2", "--openings", "variety:2"].map(String::from));
    let out = arena(plugins.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("variety openings by engine fake: its move 'z9' after 'position startpos'"),
        "{stderr}"
    );
}

#[test]
#[cfg(unix)]
fn a_line_that_is_not_utf8_is_read_not_taken_for_a_crash() {
    // The fake writes an `info string` in GBK before its move: the move
    // is read (f5, Black's first), and its next one loses as illegal, not
    // as a crash.
    let plugins = othello_dir();
    let dir = TempDir::new("arena-gbk");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "gbk", &[], true);
    args.extend(logged_games_at_depth_1(1, &log));
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(games[0].moves()[0], "f5", "{games:?}");
    assert_eq!(games[0].tag("Ending"), "illegal move", "{games:?}");
}

#[test]
#[cfg(unix)]
fn set_ups_an_engine_refuses_or_that_change_the_game_stop_the_match() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-set-up");
    // Stockfish's family answers an option it lacks with `No such option`.
    let mut args = fake_against_plyd(&dir, "f5", &["option.Thread=1"], true);
    args.extend(["--depth", "1", "--games", "2"].map(String::from));
    let out = arena(plugins.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("engine fake: refused its set-up: No such option: Thread"),
        "{}",
        text(&out.stderr)
    );
    // A variant of the engine's own would have it play another game.
    let mut args = fake_against_plyd(&dir, "f5", &["option.UCI_Variant=chess"], true);
    args.extend(["--depth", "1", "--games", "2"].map(String::from));
    let out = arena(plugins.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("option.UCI_Variant=chess would have it play chess in a match of othello"),
        "{}",
        text(&out.stderr)
    );
    // An engine whose plugins lack the game: the arena's own plugin path
    // does not reach it, and the refusal says how to give it one.
    let xiangqi = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let engine = |name: &str| {
        vec![
            "--engine".to_string(),
            format!("cmd={}", plyd_bin().display()),
            format!("name={name}"),
            "arg=--plugin-path".to_string(),
            format!("arg={}", xiangqi.path().display()),
        ]
    };
    let mut args = [engine("a"), engine("b")].concat();
    args.extend(["--depth", "1", "--games", "2"].map(String::from));
    let out = arena(plugins.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "does not offer the variant 'othello' (it offers: xiangqi; a plyd engine finds the \
             plugins of a folder of one's own by PLYD_PLUGIN_PATH"
        ),
        "{}",
        text(&out.stderr)
    );
    // An outside engine (its id name not plyd's) is not told of plyd's
    // plugin folders.
    let mut args = fake_engine(&dir, "ranks1");
    args.insert(0, "--engine".to_string());
    args.extend(engine("b"));
    args.extend(["--depth", "1", "--games", "2"].map(String::from));
    let out = arena(plugins.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("does not offer the variant 'othello' (it offers: xiangqi; the arena names")
            && !said.contains("PLYD_PLUGIN_PATH"),
        "{said}"
    );
}

#[test]
#[cfg(unix)]
fn an_engine_counting_xiangqi_ranks_from_1_is_told_the_game_option() {
    // The fake answers b1c3, Red's horse as Fairy-Stockfish writes it
    // (ranks 1-10): illegal where ranks count from 0, with the hint.
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("arena-ranks");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "ranks1", &[], true);
    args.extend(["--game", "xiangqi"].map(String::from));
    args.extend(logged_games_at_depth_1(1, &log));
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(
        games[0].tag("Reason"),
        "illegal move 'b1c3' by fake (legal with its ranks counted one lower: does it write ranks 1-10? then --game-option MoveRanks=1-10)"
    );
}

/// An engine that refused the position it was sent (here plyd reading
/// ranks 0-9 where the referee writes 1-10) and so answers no move loses
/// with what it said in the reason.
#[test]
fn a_refused_position_is_quoted_in_the_loss() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("arena-refused-position");
    let log = dir.path().join("games.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let mut args = vec![
        "--game",
        "xiangqi",
        "--game-option",
        "MoveRanks=1-10",
        "--engine",
        &plyd,
        "name=a",
        "option.MoveRanks=1-10",
        "--engine",
        &plyd,
        "name=b",
        "--openings",
        "random:4",
        "--seed",
        "2",
    ]
    .into_iter()
    .map(String::from)
    .collect::<Vec<_>>();
    args.extend(logged_games_at_depth_1(2, &log));
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = read_log(&log);
    let refused = games
        .iter()
        .map(|g| g.tag("Reason"))
        .find(|r| r.starts_with("illegal move '(none)' by b"))
        .unwrap_or_else(|| panic!("{}", text(&out.stderr)));
    assert!(
        refused.contains(" (it said: no position: the last one sent was refused ("),
        "{refused}"
    );
}

#[test]
#[cfg(unix)]
fn a_crashing_engine_loses_and_is_restarted() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-crash");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "crash", &[], true);
    args.extend(logged_games_at_depth_1(3, &log));
    let out = arena(plugins.path(), &args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let games = read_log(&log);
    // Three games: the crashed engine was started again for each.
    assert_eq!(games.len(), 3);
    for game in &games {
        assert_eq!(game.tag("Ending"), "crash", "{game:?}");
        assert_eq!(
            game.tag("Reason"),
            "crash of fake: exit status: 3",
            "{game:?}"
        );
        assert_eq!(points(game, "fake"), 0.0);
    }
    assert!(stdout.contains("endings: crash 3"), "{stdout}");
    // Each restart before a game is told on stderr, with its reason.
    let stderr = text(&out.stderr);
    let restarts: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("; restarting it"))
        .collect();
    assert_eq!(restarts.len(), 2, "{stderr}");
    assert!(
        restarts.iter().all(|l| l.starts_with("engine fake: ")),
        "{stderr}"
    );
}

#[test]
#[cfg(unix)]
fn an_engine_whose_plugin_fails_loses_and_is_restarted() {
    // plyd disables a failed plugin and plays on with another evaluator:
    // not the engine the match was set up to measure.
    let plugins = othello_dir();
    let dir = TempDir::new("arena-plugin-failure");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "plugin-fails", &[], true);
    args.extend(logged_games_at_depth_1(2, &log));
    let out = arena(plugins.path(), &args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.tag("Ending"), "plugin failure", "{game:?}");
        assert_eq!(
            game.tag("Reason"),
            "plugin failure in fake: plugin evaluator 'mine' panicked in evaluate; \
             the plugin is disabled until it is reloaded",
            "{game:?}"
        );
        assert_eq!(points(game, "fake"), 0.0);
    }
    assert!(stdout.contains("endings: plugin failure 2"), "{stdout}");
}

/// A plugin given up after the engine's answer (an evaluator hung in the
/// search that plyd's watchdog answered for) is the engine's loss at its
/// next move, not a game played on with another evaluator.
#[test]
#[cfg(unix)]
fn a_plugin_failure_said_after_the_answer_loses_at_the_next_move() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-plugin-failure-after");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "fails-after", &[], true);
    args.extend(logged_games_at_depth_1(1, &log));
    let out = arena(plugins.path(), &args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(games[0].tag("Ending"), "plugin failure", "{:?}", games[0]);
    assert!(
        games[0]
            .tag("Reason")
            .starts_with("plugin failure in fake: plugin evaluator 'mine' did not return"),
        "{:?}",
        games[0]
    );
    // Its first move stands; the failure is charged at its second.
    assert_eq!(games[0].tag("Plies"), "2", "{:?}", games[0]);
    assert_eq!(points(&games[0], "fake"), 0.0);
}

#[test]
#[cfg(unix)]
fn a_match_broken_off_says_how_to_go_on_with_it() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-abort");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "crash-once", &[], true);
    args.extend(logged_games_at_depth_1(4, &log));
    let out = arena(plugins.path(), &args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    // The crashed game is in the log, and the line says how to play the rest.
    assert_eq!(read_log(&log).len(), 1);
    assert!(
        stderr.contains(&format!(
            "the 1 games finished are in {0}: once mended, run the same command with --resume {0} to play the rest",
            log.display()
        )),
        "{stderr}"
    );
}

#[test]
#[cfg(unix)]
fn sprt_stops_the_match_when_it_decides() {
    // plyd against an engine that only plays illegal moves wins every game.
    // With elo0=0 elo1=50 each win adds ln(0.571463 / 0.5) = 0.1336 to the
    // LLR, so the 23rd win is the first above ln(19) = 2.944 (see the unit
    // tests of the arithmetic): one worker, so exactly 23 games.
    let plugins = othello_dir();
    let dir = TempDir::new("arena-sprt");
    let log = dir.path().join("games.txt");
    let mut args = fake_against_plyd(&dir, "illegal", &[], false);
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "200",
            "--sprt",
            "elo0=0",
            "elo1=50",
            "alpha=0.05",
            "beta=0.05",
            "--out",
            log.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let out = arena(plugins.path(), &args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert_eq!(read_log(&log).len(), 23);
    assert_eq!(table_row(&stdout, "plyd"), [23, 23, 0, 0], "{stdout}");
    assert!(
        stdout.contains(
            "SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR 3.07 (bounds -2.94, 2.94): H1 accepted"
        ),
        "{stdout}"
    );
}

#[test]
fn the_rules_end_games_from_book_positions() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-book");
    let book = dir.path().join("book.txt");
    // Line 2: a full board, all Black: over before it starts, Black (the
    // first player) wins. Line 3: Black has no move and must pass (0000),
    // then White takes the last Black disc and the game is over.
    std::fs::write(
        &book,
        "# test book\nXXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXX w\nposition fen OX6/8/8/8/8/8/8/8 b\n",
    )
    .unwrap();
    let log = dir.path().join("games.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let openings = format!("file:{}", book.display());
    let out = arena(
        plugins.path(),
        &[
            "--engine",
            &plyd,
            "name=a",
            "--engine",
            &plyd,
            "name=b",
            "--depth",
            "2",
            "--games",
            "4",
            "--openings",
            &openings,
            "--out",
            log.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let games = read_log(&log);
    assert_eq!(games.len(), 4);
    for game in &games {
        assert_eq!(game.tag("Ending"), "rules");
        match game.tag("Game") {
            "1" | "2" => {
                assert_eq!(game.tag("Result"), "1-0", "{game:?}");
                // The loser, the second player, named by its engine.
                assert_eq!(
                    game.tag("Reason"),
                    format!(
                        "rules: Black has 64 discs, White 0, a loss for {}, the side to move",
                        game.tag("Second")
                    )
                );
                assert_eq!(game.tag("Plies"), "0");
                assert!(game.tag("Opening").ends_with("book.txt:2"), "{game:?}");
            }
            _ => {
                assert_eq!(game.tag("Result"), "0-1", "{game:?}");
                assert_eq!(game.moves(), ["0000", "c1"], "{game:?}");
                assert_eq!(
                    game.position,
                    "position fen OX6/8/8/8/8/8/8/8 b moves 0000 c1"
                );
            }
        }
    }
    // Every side won twice, so each engine once per pair: an even match.
    assert_eq!(table_row(&stdout, "a"), [4, 2, 0, 2], "{stdout}");
    assert!(stdout.contains("first player won 2, second player won 2, drawn 0"));
    // The line the rules end before a move is named before the match; the
    // one with a pass to play is not.
    let stderr = text(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("is a finished game"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("book.txt:2 is a finished game (rules: Black has 64 discs"),
        "{stderr}"
    );
}

/// The games of a two-game xiangqi match of plyd against itself at
/// `depth`, from the one `opening` of a file, with `extra` arguments.
fn xiangqi_games_from(tag: &str, opening: &str, depth: &str, extra: &[&str]) -> Vec<LoggedGame> {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new(tag);
    let book = dir.path().join("book.txt");
    std::fs::write(&book, format!("{opening}\n")).unwrap();
    let log = dir.path().join("games.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let openings = format!("file:{}", book.display());
    let mut args = vec![
        "--game",
        "xiangqi",
        "--engine",
        &plyd,
        "--engine",
        &plyd,
        "--depth",
        depth,
        "--games",
        "2",
        "--openings",
        &openings,
        "--out",
        log.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    read_log(&log)
}

/// A game the plugin's repetition rules end, moves left: the `Reason`
/// says which rules, apart from a game over with no move left.
#[test]
fn a_repetition_ending_is_named() {
    // The start comes round a third time at the end of the opening.
    let opening = "fen 3k1a3/9/9/9/9/9/9/9/9/4KA3 w - - 0 1 moves \
                   f0e1 f9e8 e1f0 e8f9 f0e1 f9e8 e1f0 e8f9";
    for game in xiangqi_games_from("arena-repetition", opening, "1", &[]) {
        assert_eq!(game.tag("Result"), "1/2-1/2", "{game:?}");
        assert_eq!(game.tag("Ending"), "rules");
        assert_eq!(
            game.tag("Reason"),
            "rules: third repetition, neither side checked or chased perpetually, a draw"
        );
    }
}

/// A mate on the last ply `--max-plies` allows is a mate, not a draw.
#[test]
fn a_mate_on_the_last_ply_allowed_wins() {
    // Red mates in one: a chariot to the black king's rank, the other
    // guarding it.
    let opening = "fen 3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1";
    let games = xiangqi_games_from("arena-last-ply-mate", opening, "2", &["--max-plies", "1"]);
    for game in games {
        assert_eq!(game.tag("Result"), "1-0", "{game:?}");
        assert_eq!(game.tag("Ending"), "rules", "{game:?}");
        assert_eq!(game.moves().len(), 1, "{game:?}");
    }
}

#[test]
fn max_plies_scores_a_draw() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-maxplies");
    let log = dir.path().join("games.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = arena(
        plugins.path(),
        &[
            "--engine",
            &plyd,
            "--engine",
            &plyd,
            "--depth",
            "1",
            "--max-plies",
            "6",
            "--out",
            log.to_str().unwrap(),
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    // Two engines of the same name are told apart.
    assert_eq!(table_row(&stdout, "plyd-1"), [2, 0, 2, 0], "{stdout}");
    for game in read_log(&log) {
        assert_eq!(game.tag("Result"), "1/2-1/2");
        assert_eq!(game.tag("Reason"), "max plies 6 reached");
        assert_eq!(game.moves().len(), 6);
    }
}

#[test]
fn the_arena_draws_chance_outcomes_itself() {
    let plugins = plugin_dir(&[("plyd_test_dice", "dicerace")]);
    let dir = TempDir::new("arena-dice");
    let plyd = format!("cmd={}", plyd_bin().display());
    let run = |log: &Path| {
        let out = arena(
            plugins.path(),
            &[
                "--game",
                "dicerace",
                "--engine",
                &plyd,
                "name=a",
                "--engine",
                &plyd,
                "name=b",
                "--depth",
                "2",
                "--games",
                "4",
                "--seed",
                "5",
                "--out",
                log.to_str().unwrap(),
            ],
        );
        assert!(
            out.status.success(),
            "{}\n{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        read_log(log)
    };
    let games = run(&dir.path().join("one.txt"));
    assert_eq!(games.len(), 4);
    let rolls = |g: &LoggedGame| -> Vec<String> {
        g.moves()
            .iter()
            .filter(|m| m.starts_with('r'))
            .map(|m| m.to_string())
            .collect()
    };
    for game in &games {
        assert_eq!(game.tag("Ending"), "rules", "{game:?}");
        // Rolls and moves alternate, and each move stays within its roll.
        let moves = game.moves();
        assert!(moves.len() >= 8, "{game:?}");
        for turn in moves.chunks(2) {
            let face: u32 = turn[0]
                .strip_prefix('r')
                .expect("a roll first")
                .parse()
                .unwrap();
            if let Some(step) = turn.get(1) {
                let step: u32 = step.parse().expect("a move after the roll");
                assert!((1..=face).contains(&step), "{game:?}");
            }
        }
    }
    // Both games of a pair draw from one stream: the same rolls.
    let by_number = |n: &str| games.iter().find(|g| g.tag("Game") == n).unwrap();
    for (x, y) in [("1", "2"), ("3", "4")] {
        let (rx, ry) = (rolls(by_number(x)), rolls(by_number(y)));
        let common = rx.len().min(ry.len());
        assert_eq!(rx[..common], ry[..common]);
    }
    assert_ne!(rolls(by_number("1")), rolls(by_number("3")));
    // The seed replays the match exactly.
    let again = run(&dir.path().join("two.txt"));
    for game in &again {
        assert_eq!(by_number(game.tag("Game")).position, game.position);
    }
    // All 3s would be weight 3 of 6; all 1s weight 1 of 6. Over every roll
    // of the match, 3 must come up more often than 1.
    let all: Vec<String> = games.iter().flat_map(rolls).collect();
    let count = |face: &str| all.iter().filter(|r| *r == face).count();
    assert!(count("r3") > count("r1"), "{all:?}");
}

/// `--gauntlet`: the first engine plays each of the others, who do not
/// meet; the table ranks by score.
#[test]
#[cfg(unix)]
fn a_gauntlet_plays_the_first_engine_against_each_other() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-gauntlet");
    let folder = dir.path().join("g");
    let plyd = format!("cmd={}", plyd_bin().display());
    let fake = fake_engine(&dir, "illegal");
    let mut args = vec![
        "--engine", &plyd, "name=one", "depth=1", "--engine", &plyd, "name=two", "depth=1",
        "--engine",
    ];
    args.extend(fake.iter().map(String::as_str));
    args.push("depth=1");
    let out_arg = folder.to_str().unwrap();
    args.extend([
        "--games",
        "2",
        "--seed",
        "4",
        "--gauntlet",
        "--out",
        out_arg,
    ]);
    let json = dir.path().join("g.json");
    let json_arg = json.to_str().unwrap();
    args.extend(["--json", json_arg]);
    let out = arena(plugins.path(), &args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.starts_with("gauntlet: one against 2 engines, 2 pairs, 4 games (ranked by score)\n"),
        "{stdout}"
    );
    assert!(folder.join("one-vs-two.txt").exists());
    assert!(folder.join("one-vs-fake.txt").exists());
    assert!(!folder.join("two-vs-fake.txt").exists());
    // The fake lost both its games (illegal moves): last.
    let last = stdout
        .lines()
        .take_while(|l| !l.contains("points against"))
        .last()
        .unwrap();
    assert!(last.split_whitespace().nth(1) == Some("fake"), "{stdout}");
    // The same table as JSON: the fake last, with its two forfeits.
    let json = std::fs::read_to_string(&json).unwrap();
    assert!(
        json.starts_with("{\n  \"kind\": \"gauntlet\",\n  \"engines\": 3,"),
        "{json}"
    );
    assert!(
        json.contains(
            "{\"place\": \"3\", \"engine\": \"fake\", \"games\": 2, \"wins\": 0, \"draws\": 0, \"losses\": 2, \"forfeits\": 2,"
        ),
        "{json}"
    );
    assert!(
        json.contains("\"endings\": {\"rules\": 2, \"illegal move\": 2}"),
        "{json}"
    );
}

/// `--json FILE`: a match's result for a script, the table's figures.
#[test]
#[cfg(unix)]
fn a_match_writes_its_result_as_json() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-json");
    let json = dir.path().join("m.json");
    let mut args = fake_against_plyd(&dir, "illegal", &[], true);
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "2",
            "--json",
            json.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = std::fs::read_to_string(&json).unwrap();
    for said in [
        "\"engines\": [\"fake\", \"plyd\"],",
        "\"games_asked\": 2,",
        "\"complete\": true,",
        "\"games\": 2,",
        "\"wins\": 0,",
        "\"losses\": 2,",
        "\"points\": [0, 2],",
        "\"endings\": {\"illegal move\": 2},",
        "\"sprt\": null,",
    ] {
        assert!(json.contains(said), "{said}: {json}");
    }
    // Every game lost: an Elo of minus infinity, null in JSON, and the
    // table's text beside it.
    assert!(
        json.contains("\"elo\": {\"elo\": null, \"low\": null,"),
        "{json}"
    );
}

/// Three or more engines play a round robin: a match a pair, each
/// pair's log in the `--out` folder, one table of every engine's games; a
/// pair that cannot be played is passed over, said, and the exit status
/// says so; the same command run again goes on from the logs.
#[test]
#[cfg(unix)]
fn three_or_more_engines_play_a_round_robin() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-round-robin");
    let folder = dir.path().join("rr");
    let plyd = format!("cmd={}", plyd_bin().display());
    // The third answers an illegal move at every turn: its losses are
    // forfeits, charged to it.
    let fake = fake_engine(&dir, "illegal");
    let mut args = vec![
        "--engine", &plyd, "name=one", "depth=1", "--engine", &plyd, "name=two", "depth=2",
    ];
    args.push("--engine");
    args.extend(fake.iter().map(String::as_str));
    args.push("depth=1");
    let out_arg = folder.to_str().unwrap();
    let tail = ["--games", "2", "--seed", "4", "--out", out_arg];
    let with_broken = {
        let mut all = args.clone();
        all.extend(["--engine", "cmd=/no/such/engine", "name=broken", "depth=1"]);
        all.extend(tail);
        all
    };
    let out = arena(plugins.path(), &with_broken);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(3), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("round robin: 4 engines, 6 pairs, 6 games\nmade by plyd 0.1.0"),
        "{stdout}"
    );
    // Each pair's own table went to stderr, with its progress.
    assert!(!stdout.contains("Elo difference"), "{stdout}");
    // The games by side and by ending, all pairs together: 6 games, the
    // fake engine's 4 lost by illegal moves.
    let sides = stdout
        .lines()
        .find_map(|l| l.strip_prefix("first player won "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let counts: Vec<u64> = sides
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 6, "{stdout}");
    assert!(
        stdout.contains("endings: rules 2, illegal move 4\n"),
        "{stdout}"
    );
    assert!(stderr.contains("Elo difference one - two: "), "{stderr}");
    assert!(
        stderr.contains("plyd arena: one vs broken not played to its end, passed over: "),
        "{stderr}"
    );
    // Each engine played two games against each other one that started.
    let row = |stdout: &str, name: &str| -> Vec<String> {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no row of {name}: {stdout}"));
        line.split_whitespace().map(String::from).collect()
    };
    for name in ["one", "two", "fake"] {
        assert_eq!(row(&stdout, name)[2], "4", "{stdout}");
    }
    assert_eq!(row(&stdout, "broken")[2], "0", "{stdout}");
    // Games, wins, draws, losses, forfeits.
    assert_eq!(row(&stdout, "fake")[3..7], ["0", "0", "4", "4"], "{stdout}");
    assert_eq!(row(&stdout, "one")[6], "0", "{stdout}");
    // A pair of the engine that did not start after its first is passed
    // over without starting it again.
    assert!(
        stderr.contains("passed over: engine broken could not be set up in an earlier pair"),
        "{stderr}"
    );
    for log in ["one-vs-two.txt", "one-vs-fake.txt", "two-vs-fake.txt"] {
        assert_eq!(read_log(&folder.join(log)).len(), 2, "{log}");
    }
    assert!(!folder.join("one-vs-broken.txt").exists());
    // Again, without the broken engine: every pair resumed, nothing new
    // played, the same table.
    args.extend(tail);
    let again = arena(plugins.path(), &args);
    let stdout_again = text(&again.stdout);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains("two vs fake (") && text(&again.stderr).contains(", resumed)"),
        "{}",
        text(&again.stderr)
    );
    // The same rows, but for the place: fake shared the last with the
    // broken engine, now left out.
    for name in ["one", "two", "fake"] {
        assert_eq!(
            row(&stdout_again, name)[1..],
            row(&stdout, name)[1..],
            "{stdout_again}"
        );
    }
    assert_eq!(row(&stdout, "fake")[0], "3-4", "{stdout}");
    assert_eq!(row(&stdout_again, "fake")[0], "3", "{stdout_again}");
    // A larger --games plays every pair further, from its log.
    let mut longer: Vec<&str> = args[..args.len() - tail.len()].to_vec();
    longer.extend(["--games", "4", "--seed", "4", "--out", out_arg]);
    let further = arena(plugins.path(), &longer);
    assert!(further.status.success(), "{}", text(&further.stderr));
    for name in ["one", "two", "fake"] {
        assert_eq!(
            row(&text(&further.stdout), name)[2],
            "8",
            "{}",
            text(&further.stdout)
        );
    }
    for log in ["one-vs-two.txt", "one-vs-fake.txt", "two-vs-fake.txt"] {
        assert_eq!(read_log(&folder.join(log)).len(), 4, "{log}");
    }
    // The engines listed in another order: each pair goes on from its log
    // in the order it began with, none is played anew.
    let mut reordered: Vec<&str> = vec![
        "--engine", &plyd, "name=two", "depth=2", "--engine", &plyd, "name=one", "depth=1",
        "--engine",
    ];
    reordered.extend(fake.iter().map(String::as_str));
    reordered.extend(["depth=1", "--games", "4", "--seed", "4", "--out", out_arg]);
    let swapped = arena(plugins.path(), &reordered);
    assert!(swapped.status.success(), "{}", text(&swapped.stderr));
    assert!(!folder.join("two-vs-one.txt").exists());
    assert!(
        text(&swapped.stderr).contains("one vs two (")
            && !text(&swapped.stderr).contains("two vs one ("),
        "{}",
        text(&swapped.stderr)
    );
    for name in ["one", "two", "fake"] {
        assert_eq!(
            row(&text(&swapped.stdout), name),
            row(&text(&further.stdout), name),
            "{}",
            text(&swapped.stdout)
        );
    }
    // `--record DIR`: a file of records a pair, named as its log, written
    // from the logs of a round robin run again.
    let records = dir.path().join("records");
    let records_arg = records.to_str().unwrap();
    let mut with_record = longer.clone();
    with_record.extend(["--record", records_arg]);
    let recorded = arena(plugins.path(), &with_record);
    assert!(recorded.status.success(), "{}", text(&recorded.stderr));
    for file in ["one-vs-two.ggf", "one-vs-fake.ggf", "two-vs-fake.ggf"] {
        let games = std::fs::read_to_string(records.join(file)).unwrap();
        assert_eq!(games.matches("(;GM[Othello]").count(), 4, "{file}: {games}");
        // GGF's DT is a date, which the log does not keep: the game's
        // number and seed go with the event.
        assert_eq!(games.matches("PC[plyd arena game ").count(), 4, "{games}");
        assert!(
            games.contains(" seed 4]") && !games.contains("DT["),
            "{games}"
        );
    }
    // An engine changed since (a student's evaluator sent in again, here
    // a deeper search): its pairs' logs are refused, and their games left
    // out of the table, not counted as the new engine's.
    let changed: Vec<&str> = with_record
        .iter()
        .map(|&a| if a == "depth=2" { "depth=3" } else { a })
        .collect();
    let refused = arena(plugins.path(), &changed);
    let (stdout, stderr) = (text(&refused.stdout), text(&refused.stderr));
    assert_eq!(refused.status.code(), Some(3), "{stdout}\n{stderr}");
    assert_eq!(row(&stdout, "two")[2], "0", "{stdout}");
    assert_eq!(row(&stdout, "one")[2], "4", "{stdout}");
    assert!(
        stdout.contains("round robin: 3 engines, 3 pairs, 4 games"),
        "{stdout}"
    );
    let one_two = folder.join("one-vs-two.txt");
    assert!(
        stderr.contains(&format!(
            "its games are left out of the table (to play the pair anew with this command, \
             remove {} and {})",
            one_two.display(),
            records.join("one-vs-two.ggf").display()
        )),
        "{stderr}"
    );
    // Removed as said, the two pairs are played anew.
    for stem in ["one-vs-two", "two-vs-fake"] {
        std::fs::remove_file(folder.join(format!("{stem}.txt"))).unwrap();
        std::fs::remove_file(records.join(format!("{stem}.ggf"))).unwrap();
    }
    let anew = arena(plugins.path(), &changed);
    assert!(anew.status.success(), "{}", text(&anew.stderr));
    assert_eq!(
        row(&text(&anew.stdout), "two")[2],
        "8",
        "{}",
        text(&anew.stdout)
    );
    // Options a round robin cannot take are refused.
    let mut with_sprt = args.clone();
    with_sprt.extend(["--sprt", "elo0=0", "elo1=10"]);
    let refused = arena(plugins.path(), &with_sprt);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("takes no --sprt"),
        "{}",
        text(&refused.stderr)
    );
}

#[test]
fn bad_input_is_one_error_line() {
    let plugins = othello_dir();
    let empty = TempDir::new("arena-noplugins");
    let plyd = format!("cmd={}", plyd_bin().display());
    let cases: Vec<(Vec<&str>, &Path, &str)> = vec![
        (
            vec!["--engine", &plyd, "--engine", &plyd, "--tc", "fast"],
            plugins.path(),
            "bad time control 'fast'",
        ),
        (
            vec!["--engine", &plyd, "--engine", &plyd],
            plugins.path(),
            "no time control",
        ),
        (
            vec!["--engine", &plyd, "--depth", "1"],
            plugins.path(),
            "a match needs two --engine, 1 given",
        ),
        (
            vec![
                "--engine",
                "cmd=/no/such/engine",
                "--engine",
                &plyd,
                "--depth",
                "1",
            ],
            plugins.path(),
            "cannot start '/no/such/engine'",
        ),
        (
            vec![
                "--engine",
                &plyd,
                "option.Hash=lots",
                "--engine",
                &plyd,
                "--depth",
                "1",
            ],
            plugins.path(),
            "refused its set-up",
        ),
        (
            vec![
                "--game", "chess", "--engine", &plyd, "--engine", &plyd, "--depth", "1",
            ],
            plugins.path(),
            "game 'chess' is not loaded",
        ),
        (
            vec!["--engine", &plyd, "--engine", &plyd, "--depth", "1"],
            empty.path(),
            "game 'othello' is not loaded",
        ),
        (
            vec![
                "--engine", &plyd, "--engine", &plyd, "--depth", "1", "--sprt", "elo0=0",
            ],
            plugins.path(),
            "--sprt: elo1 is missing",
        ),
        (
            vec![
                "--engine",
                &plyd,
                "--engine",
                &plyd,
                "--depth",
                "1",
                "--openings",
                "file:/no/book",
            ],
            plugins.path(),
            "cannot read openings file",
        ),
        (
            vec![
                "--engine", &plyd, "--engine", &plyd, "--depth", "1", "--games", "0",
            ],
            plugins.path(),
            "--games must be at least 1",
        ),
        (
            vec![
                "--engine",
                &plyd,
                "--engine",
                &plyd,
                "--depth",
                "1",
                "--evaluator",
                "seed004",
            ],
            plugins.path(),
            "--evaluator does not apply",
        ),
        (
            vec![
                "--engine",
                &plyd,
                "--engine",
                &plyd,
                "--depth",
                "1",
                "--eval-params",
                "params.toml",
            ],
            plugins.path(),
            "--eval-params does not apply",
        ),
    ];
    for (args, plugin_path, expected) in cases {
        let out = arena(plugin_path, &args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("plyd arena: "))
            .collect();
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
        assert!(errors[0].contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn closed_output_pipes_do_not_stop_the_match() {
    // Like `plyd arena ... | head -1`: the reader goes away early. The match
    // still runs to its end and writes its log.
    let plugins = othello_dir();
    let dir = TempDir::new("arena-pipes");
    let log = dir.path().join("games.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let mut child = plyd_command(plugins.path())
        .args([
            "arena", "--engine", &plyd, "--engine", &plyd, "--depth", "1",
        ])
        .args(["--games", "4", "--out", log.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    drop(child.stderr.take());
    let deadline = std::time::Instant::now() + common::PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("plyd arena did not finish with its output closed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    assert_eq!(read_log(&log).len(), 4);
}

/// A `plyd arena` running in the background, its stderr read line by line.
#[cfg(unix)]
struct RunningArena {
    child: std::process::Child,
    stderr: std::sync::mpsc::Receiver<String>,
    stdout: std::thread::JoinHandle<String>,
}

#[cfg(unix)]
impl RunningArena {
    fn start<S: AsRef<std::ffi::OsStr>>(plugins: &Path, args: &[S]) -> Self {
        use std::io::{BufRead, Read};
        let mut child = plyd_command(plugins)
            .arg("arena")
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start plyd arena");
        let mut stdout = child.stdout.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        RunningArena {
            child,
            stderr: rx,
            stdout,
        }
    }

    /// Read stderr up to the first line that starts with `prefix`; return
    /// the lines read.
    fn wait_for(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.stderr.recv_timeout(common::PATIENCE) {
                Ok(line) => {
                    let found = line.starts_with(prefix);
                    seen.push(line);
                    if found {
                        return seen;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no stderr line '{prefix}...' from plyd arena: {seen:#?}");
                }
            }
        }
    }

    /// Send `signal` (`INT`, `TERM`) to the arena.
    fn signal(&self, signal: &str) {
        common::send_signal(self.child.id(), signal);
    }

    /// Wait for the arena to exit: its exit code, stdout and the rest of
    /// its stderr (`earlier` first).
    fn finish(mut self, earlier: Vec<String>) -> (Option<i32>, String, String) {
        let deadline = std::time::Instant::now() + common::PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("plyd arena did not end after the signal");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let stdout = self.stdout.join().unwrap();
        let mut stderr = earlier;
        stderr.extend(self.stderr.iter());
        // Ended by a signal: the status a shell reports, 128 and the
        // signal's number.
        use std::os::unix::process::ExitStatusExt;
        let code = status.code().or(status.signal().map(|s| 128 + s));
        assert!(
            status.code().is_none(),
            "ended by exit, not by the signal: {status:?}"
        );
        (code, stdout, stderr.join("\n"))
    }
}

/// An engine that ends at `uci` (a UCCI engine) is told with what it
/// said and where engines of other protocols are played.
#[test]
#[cfg(unix)]
fn an_engine_that_ends_at_uci_is_told_where_other_protocols_are_played() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-ucci-only");
    let plyd = format!("cmd={}", plyd_bin().display());
    let mut args: Vec<String> = vec!["--engine".to_string()];
    args.extend(fake_engine(&dir, "ucci"));
    args.extend(["--engine", &plyd, "--depth", "1", "--games", "2"].map(String::from));
    let out = arena(plugins.path(), &args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "engine fake stopped: exit status: 0, before its 'uciok'; its last line was \
             'unknown command: uci' (the arena speaks UCI alone"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("UCCI"), "{stderr}");
}

/// A round robin interrupted in a pair ends by the signal, prints the
/// table of what was played, and says to run the same command again, not
/// `--resume` (which a round robin refuses).
#[test]
#[cfg(unix)]
fn an_interrupted_round_robin_says_to_run_it_again() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-round-robin-interrupted");
    let folder = dir.path().join("rr");
    let plyd = format!("cmd={}", plyd_bin().display());
    // The fake engine never answers `go`: its first pair's first game
    // can only end by the signal.
    let fake = fake_engine(&dir, "silent");
    let mut args: Vec<String> = ["--engine", &plyd, "name=one"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    args.push("--engine".to_string());
    args.extend(fake);
    args.extend(
        [
            "--engine",
            &plyd,
            "name=two",
            "--depth",
            "1",
            "--timeout",
            "600",
            "--games",
            "2",
            "--out",
            folder.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let mut arena = RunningArena::start(plugins.path(), &args);
    let seen = arena.wait_for("arena: ");
    arena.signal("INT");
    let (code, stdout, stderr) = arena.finish(seen);
    assert_eq!(code, Some(130), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("round robin: 3 engines, 3 pairs, 0 games"),
        "{stdout}"
    );
    assert!(
        stderr.contains("round robin interrupted; to go on, run the same command again"),
        "{stderr}"
    );
    assert!(!stderr.contains("--resume"), "{stderr}");
}

#[test]
#[cfg(unix)]
fn a_signal_ends_the_game_in_progress_at_once() {
    // The fake engine never answers `go`, and the arena would wait ten
    // minutes for it: the first game can only end by the signal, and
    // must not be scored or written.
    let plugins = othello_dir();
    let dir = TempDir::new("arena-signal");
    let log = dir.path().join("games.txt");
    let records = dir.path().join("games.ggf");
    for signal in ["INT", "TERM"] {
        // A new match does not write over a log that holds one.
        let _ = std::fs::remove_file(&log);
        let mut args = fake_against_plyd(&dir, "silent", &[], true);
        args.extend(
            [
                "--depth",
                "1",
                "--timeout",
                "600",
                "--games",
                "2",
                "--out",
                log.to_str().unwrap(),
                "--record",
                records.to_str().unwrap(),
            ]
            .map(String::from),
        );
        let mut arena = RunningArena::start(plugins.path(), &args);
        // The header line comes once both engines are up; the first game
        // starts right after it.
        let seen = arena.wait_for("arena: ");
        arena.signal(signal);
        let (code, stdout, stderr) = arena.finish(seen);
        // Ended by the signal, as a shell's loop sees it (`$?` 130 and 143).
        let number = if signal == "INT" { 2 } else { 15 };
        assert_eq!(code, Some(128 + number), "{signal}: {stdout}\n{stderr}");
        assert_eq!(table_row(&stdout, "fake"), [0, 0, 0, 0], "{stdout}");
        assert!(stdout.contains("Elo difference: no games"), "{stdout}");
        assert!(
            stderr.contains(&format!(
                "plyd arena: match interrupted after 0 of 2 games; to play the other 2, run the same command with --resume {}",
                log.display()
            )),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        // The log holds its header and no game; no record was written.
        assert!(read_log(&log).is_empty());
        assert_eq!(read_header(&log)["Games"], "2");
        assert_eq!(std::fs::read_to_string(&records).unwrap(), "");
    }
}

/// The match of the resume tests: plyd at depth 3 against plyd at depth 1,
/// one search thread each, so every game is decided by the seed alone.
#[cfg(unix)]
fn resume_match_args(plyd: &str, games: &str) -> Vec<String> {
    let mut args: Vec<String> = [
        "--engine",
        plyd,
        "name=deep",
        "depth=3",
        "option.Threads=1",
        "--engine",
        plyd,
        "name=shallow",
        "depth=1",
        "option.Threads=1",
        "--openings",
        "random:4",
        "--seed",
        "17",
        "--concurrency",
        "2",
    ]
    .map(String::from)
    .to_vec();
    args.extend(["--games".to_string(), games.to_string()]);
    args
}

/// Each game's number with its result and its `position` line.
#[cfg(unix)]
fn results_by_number(path: &Path) -> BTreeMap<usize, (String, String)> {
    let games = read_log(path);
    let by_number: BTreeMap<usize, (String, String)> = games
        .iter()
        .map(|g| {
            (
                g.tag("Game").parse().unwrap(),
                (g.tag("Result").to_string(), g.position.clone()),
            )
        })
        .collect();
    assert_eq!(by_number.len(), games.len(), "a game twice: {games:#?}");
    for game in &games {
        assert_eq!(
            game.moves().len().to_string(),
            game.tag("Plies"),
            "{game:?}"
        );
    }
    by_number
}

/// How many games a GGF file holds.
#[cfg(unix)]
fn ggf_games(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().matches("(;").count()
}

#[test]
#[cfg(unix)]
fn interrupted_and_cut_matches_resume_to_the_uninterrupted_result() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-resume");
    let plyd = format!("cmd={}", plyd_bin().display());
    let games = 12;
    let with = |extra: &[&str]| -> Vec<String> {
        let mut args = resume_match_args(&plyd, &games.to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };

    // The match played in one go.
    let reference = dir.path().join("reference.txt");
    let args = with(&["--out", reference.to_str().unwrap()]);
    let out = arena(plugins.path(), &args);
    let reference_table = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = results_by_number(&reference);
    assert_eq!(expected.len(), games);

    // The same match, Ctrl-C once the first game is in.
    let log = dir.path().join("games.txt");
    let records = dir.path().join("games.ggf");
    let log_arg = log.to_str().unwrap();
    let args = with(&["--out", log_arg, "--record", records.to_str().unwrap()]);
    let mut running = RunningArena::start(plugins.path(), &args);
    let seen = running.wait_for("game ");
    running.signal("INT");
    let (code, stdout, stderr) = running.finish(seen);
    assert_eq!(code, Some(130), "{stdout}\n{stderr}");
    let before = results_by_number(&log);
    let played = before.len();
    assert!((1..games).contains(&played), "{stderr}");
    // The table counts exactly the games of the log, and says so.
    assert_eq!(table_row(&stdout, "deep")[0], played as u64, "{stdout}");
    assert!(
        stderr.contains(&format!(
            "match interrupted after {played} of {games} games; to play the other {}, run the same command with --resume {log_arg}",
            games - played
        )),
        "{stderr}"
    );
    assert_eq!(ggf_games(&records), played);
    for (number, game) in &before {
        assert_eq!(game, &expected[number], "game {number}");
    }
    let interrupted_text = std::fs::read_to_string(&log).unwrap();

    // Resumed: the same command with --resume.
    let mut resumed = args.clone();
    resumed.extend(["--resume", log_arg].map(String::from));
    let out = arena(plugins.path(), &resumed);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(&format!(
            "arena: resuming {log_arg}: {played} of {games} games played, {} to play",
            games - played
        )),
        "{stderr}"
    );
    // Only the missing games were played.
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("game ")).count(),
        games - played,
        "{stderr}"
    );
    assert_eq!(table_row(&stdout, "deep")[0], games as u64, "{stdout}");
    assert_eq!(stdout, reference_table);
    // The games from before are untouched at the head of the file; all
    // games are those of the match played in one go.
    let after_text = std::fs::read_to_string(&log).unwrap();
    assert!(after_text.starts_with(&interrupted_text));
    assert_eq!(results_by_number(&log), expected);
    assert_eq!(ggf_games(&records), games);

    // A log cut in the middle of a record, as a kill -9 while writing
    // leaves it: the cut record is dropped with a warning and played again.
    let full = std::fs::read_to_string(&reference).unwrap();
    let fifth = full.match_indices("[Game ").nth(4).unwrap().0;
    let cut_log = dir.path().join("cut.txt");
    std::fs::write(&cut_log, &full[..fifth + 150]).unwrap();
    let cut_arg = cut_log.to_str().unwrap();
    let args = with(&["--out", cut_arg, "--resume", cut_arg]);
    let out = arena(plugins.path(), &args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(&format!(
            "plyd arena: warning: --resume {cut_arg}: the record at line "
        )) && stderr
            .contains("was cut off while being written; it is dropped and its game played again"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("4 of {games} games played, {} to play", games - 4)),
        "{stderr}"
    );
    assert_eq!(stdout, reference_table);
    assert!(std::fs::read_to_string(&cut_log)
        .unwrap()
        .starts_with(&full[..fifth]));
    assert_eq!(results_by_number(&cut_log), expected);

    // Resuming a finished match plays nothing and prints the same table.
    let args = with(&["--resume", reference.to_str().unwrap()]);
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), reference_table);
    assert_eq!(std::fs::read_to_string(&reference).unwrap(), full);
}

#[test]
fn resume_refuses_a_log_that_is_not_this_matchs() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-refuse");
    let plyd = format!("cmd={}", plyd_bin().display());
    let log = dir.path().join("games.txt");
    let log_arg = log.to_str().unwrap().to_string();
    let base = |seed: &str, second: &str, games: &str| -> Vec<String> {
        [
            "--engine", &plyd, "name=a", "--engine", &plyd, second, "--depth", "1", "--seed", seed,
            "--games", games,
        ]
        .map(String::from)
        .to_vec()
    };
    let mut first = base("5", "name=b", "2");
    first.extend(["--out".to_string(), log_arg.clone()]);
    let args: Vec<&str> = first.iter().map(String::as_str).collect();
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = std::fs::read_to_string(&log).unwrap();
    assert_eq!(read_log(&log).len(), 2);
    // The same command again, without --resume: refused, the log kept.
    let out = arena(plugins.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!(
            "--out {log_arg} already holds {} bytes: add --resume {log_arg} to go on with its match",
            good.len()
        )),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), good);

    let write = |name: &str, content: &str| -> String {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_string()
    };
    let garbage = write("garbage.txt", "hello\nworld\n");
    // A record broken in the middle of the file is damage, not a cut.
    let damaged = write("damaged.txt", &good.replacen("[Plies ", "[Plys ", 1));
    // A result that is not the one the final position gives.
    let result_line = good
        .lines()
        .find(|l| l.starts_with("[Result "))
        .unwrap()
        .to_string();
    let other_result = if result_line == "[Result \"1-0\"]" {
        "[Result \"0-1\"]"
    } else {
        "[Result \"1-0\"]"
    };
    let tampered = write(
        "tampered.txt",
        &good.replacen(&result_line, other_result, 1),
    );
    // An ending that the final position (the rules' end) contradicts.
    assert!(good.contains("[Ending \"rules\"]"), "{good}");
    let forfeit = write(
        "forfeit.txt",
        &good.replacen("[Ending \"rules\"]", "[Ending \"time forfeit\"]", 1),
    );
    let missing = dir.path().join("none.txt").to_str().unwrap().to_string();
    let other_out = dir.path().join("other.txt").to_str().unwrap().to_string();

    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (
            base("5", "name=b", "2"),
            &garbage,
            "it is not a plyd arena game log",
        ),
        (base("5", "name=b", "2"), &missing, "cannot read it"),
        (
            base("6", "name=b", "2"),
            &log_arg,
            "it belongs to another match: its Seed is '5', this command's is '6'",
        ),
        (
            base("5", "name=c", "2"),
            &log_arg,
            "it belongs to another match: its Engine2 is 'b', this command's is 'c'",
        ),
        (
            base("5", "name=b", "1"),
            &log_arg,
            "it holds a match of 2 games, and this command's --games is 1: a match is not made \
             shorter",
        ),
        (base("5", "name=b", "2"), &damaged, "has no Plies tag"),
        (base("5", "name=b", "2"), &tampered, "its Result"),
        (
            base("5", "name=b", "2"),
            &forfeit,
            "its ending (time forfeit) does not fit its final position",
        ),
        (
            {
                let mut args = base("5", "name=b", "2");
                args.extend(["--out".to_string(), other_out.clone()]);
                args
            },
            &log_arg,
            "name different files",
        ),
        // The rule that stops the match, added once games are played.
        (
            {
                let mut args = base("5", "name=b", "2");
                args.extend(
                    ["--sprt", "elo0=0", "elo1=50", "alpha=0.05", "beta=0.05"].map(String::from),
                );
                args
            },
            &log_arg,
            "its SPRT is 'none', this command's is 'elo0=0 elo1=50 alpha=0.05 beta=0.05'",
        ),
    ];
    for (mut args, file, expected) in cases {
        args.extend(["--resume".to_string(), file.to_string()]);
        let before = std::fs::read(file).ok();
        let out = arena(plugins.path(), &args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("plyd arena: "))
            .collect();
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
        assert!(
            errors[0].starts_with(&format!("plyd arena: --resume {file}")),
            "{stderr}"
        );
        assert!(errors[0].contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        // A refused file is left as it was.
        assert_eq!(std::fs::read(file).ok(), before, "{args:?}");
        assert!(!Path::new(&other_out).exists());
    }

    // A larger --games plays the match further: the two games kept as
    // they were, two more after them, and the header's count is the new
    // one, which the next resume reads.
    let mut longer = base("5", "name=b", "4");
    longer.extend(["--resume".to_string(), log_arg.clone()]);
    let out = arena(plugins.path(), &longer);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let grown = std::fs::read_to_string(&log).unwrap();
    assert_eq!(read_header(&log)["Games"], "4");
    let records = |log: &str| log.split_once("\n\n").unwrap().1.to_string();
    assert!(records(&grown).starts_with(&records(&good)), "{grown}");
    let games = read_log(&log);
    let numbers: Vec<&str> = games.iter().map(|g| g.tag("Game")).collect();
    assert_eq!(numbers.len(), 4, "{grown}");
    assert!(
        ["3", "4"].iter().all(|n| numbers.contains(n)),
        "{numbers:?}"
    );
    let out = arena(plugins.path(), &longer);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), grown);
}

/// A `--record` refused, or an engine that cannot start, leaves no
/// `--out` log behind: the next run with the same `--out` would find it
/// and ask for `--resume`.
#[test]
fn a_match_that_does_not_start_leaves_no_log() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-refused-record");
    let plyd = format!("cmd={}", plyd_bin().display());
    let log = dir.path().join("games.txt");
    // Two games at depth 1, the first engine's command `first`, then
    // `extra`.
    let run = |first: &str, extra: &[&str]| {
        let mut args = vec![
            "--engine", first, "name=a", "--engine", &plyd, "name=b", "--depth", "1", "--games",
            "2",
        ];
        args.extend(extra);
        arena(plugins.path(), &args)
    };
    let missing = dir.path().join("no-such-folder").join("games.ggf");
    let out = run(
        &plyd,
        &[
            "--out",
            log.to_str().unwrap(),
            "--record",
            missing.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("its folder does not exist"),
        "{}",
        text(&out.stderr)
    );
    assert!(!log.exists(), "the log was left behind");
    // Nor does an engine that cannot start: the command mended runs.
    let missing_engine = format!("cmd={}", dir.path().join("no-such-engine").display());
    let records = dir.path().join("games.ggf");
    let out = run(
        &missing_engine,
        &[
            "--out",
            log.to_str().unwrap(),
            "--record",
            records.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(!log.exists() && !records.exists(), "files were left behind");
    // A file the user had is left as it was, and one made through a link
    // is removed.
    let had = dir.path().join("had.txt");
    std::fs::write(&had, "").unwrap();
    // A link is made where the system makes one without privileges.
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut outs = vec![(had.clone(), had.clone())];
    #[cfg(unix)]
    {
        let link = dir.path().join("link.txt");
        let target = dir.path().join("target.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        outs.push((link, target));
    }
    for (out_path, file) in &outs {
        let out = run(&missing_engine, &["--out", out_path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert_eq!(file.exists(), file == &had, "{}", file.display());
    }
    let out = run(&plyd, &["--out", log.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// A game log or record file that would never take the writing — a FIFO
/// with no reader (opening it waits for ever), a folder — is refused
/// before the match starts, naming the flag.
#[cfg(unix)]
#[test]
fn output_files_that_cannot_take_the_games_are_refused_at_once() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-outputs");
    let plyd = format!("cmd={}", plyd_bin().display());
    let fifo = dir.path().join("fifo");
    let mut targets = vec![(dir.path().to_path_buf(), "a directory")];
    if common::make_fifo(&fifo) {
        targets.push((fifo.clone(), "a FIFO"));
    }
    for (path, kind) in &targets {
        for flag in ["--out", "--record"] {
            let path = path.to_str().unwrap();
            let args = [
                "--engine", &plyd, "name=a", "--engine", &plyd, "name=b", "--depth", "1",
                "--games", "2", flag, path,
            ];
            let out = arena(plugins.path(), &args);
            assert_eq!(out.status.code(), Some(2), "{flag} {path}");
            assert!(
                text(&out.stderr).contains(&format!("{flag} {path}: not a regular file ({kind})")),
                "{}",
                text(&out.stderr)
            );
        }
    }
}

/// A match whose games went to a `--record` file too, resumed without
/// one: a warning says the file will lack the games played now.
#[test]
fn a_resume_without_the_record_file_is_warned_of() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-resume-record");
    let log = dir.path().join("games.txt");
    let record = dir.path().join("games.ggf");
    let plyd = format!("cmd={}", plyd_bin().display());
    let mut args = vec![
        "--engine".to_string(),
        plyd.clone(),
        "name=a".to_string(),
        "--engine".to_string(),
        plyd,
        "name=b".to_string(),
    ];
    let mut first = args.clone();
    first.extend(logged_games_at_depth_1(4, &log));
    first.extend(["--record".to_string(), record.display().to_string()]);
    let out = arena(plugins.path(), &first);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The log cut after its second game, as an interrupted run leaves it.
    let whole = std::fs::read_to_string(&log).unwrap();
    let third = whole.match_indices("[Game \"").nth(2).unwrap().0;
    std::fs::write(&log, &whole[..third]).unwrap();
    args.extend(["--depth", "1", "--games", "4", "--resume"].map(String::from));
    args.push(log.display().to_string());
    let out = arena(plugins.path(), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!(
            "its games were written to {} too, and this run writes no records",
            record.display()
        )),
        "{}",
        text(&out.stderr)
    );
}

/// What the referee's plugin prints on its stdout (here the test game
/// asked to read the position `print`) goes to stderr: stdout holds the
/// arena's results alone.
#[test]
fn the_referees_plugin_prints_on_stderr_not_in_the_results() {
    let plugins = plugin_dir(&[("plyd_test_panicky", "panicky")]);
    let dir = TempDir::new("arena-plugin-stdout");
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "print\n").unwrap();
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = arena(
        plugins.path(),
        &[
            "--game",
            "panicky",
            "--engine",
            &plyd,
            "--engine",
            &plyd,
            "--each",
            "depth=1",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(text(&out.stdout), "", "{stderr}");
    assert!(
        stderr.contains("panicky: printed on stdout\n")
            && stderr.contains("bad position 'print': asked to print on stdout"),
        "{stderr}"
    );
}

/// An engine given one of the game's own options (a rule, a notation)
/// that the referee does not play by is warned of before the first game;
/// with the same `--game-option` it is not.
#[test]
fn an_engine_given_a_game_option_the_referee_lacks_is_warned_of() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let plyd = format!("cmd={}", plyd_bin().display());
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--game",
            "xiangqi",
            "--engine",
            &plyd,
            "name=ranked",
            "option.MoveRanks=1-10",
            "--engine",
            &plyd,
            "--depth",
            "1",
            "--games",
            "2",
            "--max-plies",
            "4",
        ];
        args.extend_from_slice(extra);
        text(&arena(plugins.path(), &args).stderr)
    };
    let warning = "warning: engine ranked is given the game's option MoveRanks=1-10, but the referee plays without it: add --game-option MoveRanks=1-10";
    let stderr = run(&[]);
    assert!(stderr.contains(warning), "{stderr}");
    let stderr = run(&["--game-option", "MoveRanks=1-10"]);
    assert!(!stderr.contains("warning: engine ranked"), "{stderr}");
}

/// `--option`, which the daemon and the one-game tools take, says what a
/// match takes instead.
#[test]
fn option_is_refused_by_the_arena_with_what_to_give_instead() {
    let plugins = othello_dir();
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = arena(
        plugins.path(),
        &[
            "--engine",
            &plyd,
            "--engine",
            &plyd,
            "--option",
            "Threads=2",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("--option does not apply to a match; give each engine option.NAME=VALUE"),
        "{}",
        text(&out.stderr)
    );
}

/// A parameter file set before the evaluator it is not for is dropped by
/// plyd (`params default`): the match would measure the defaults while
/// its log named the file, so the set-up is refused, saying the order.
#[test]
fn a_parameter_file_dropped_by_a_later_evaluator_refuses_the_set_up() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("arena-params-order");
    let params = dir.path().join("classic.toml");
    let out = plyd_command(plugins.path())
        .args(["params", "--game", "xiangqi"])
        .output()
        .unwrap();
    std::fs::write(&params, &out.stdout).unwrap();
    let plyd = format!("cmd={}", plyd_bin().display());
    let given = format!("option.EvalParams={}", params.display());
    let run = |first: &str, second: &str| {
        arena(
            plugins.path(),
            &[
                "--game", "xiangqi", "--engine", &plyd, "name=x", first, second, "--engine", &plyd,
                "name=y", "--depth", "1", "--games", "2",
            ],
        )
    };
    let out = run(&given, "option.Evaluator=seed002");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr)
            .contains("give option.Evaluator or option.EvalFile before option.EvalParams"),
        "{}",
        text(&out.stderr)
    );
    let out = run("option.Evaluator=classic", &given);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // An evaluator loaded from a file after the parameters drops them too
    // (`params default (FILE is not read again: ...)`).
    let file = format!(
        "option.EvalFile={}",
        common::built_library("plyd_test_xq_stack").display()
    );
    let out = run(&given, &file);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("before option.EvalParams"),
        "{}",
        text(&out.stderr)
    );
}

/// A game log another process holds (here this test, as a second match
/// given the same `--out` would) is refused before anything is written to
/// it: two matches cannot splice their games into one file.
#[cfg(unix)]
#[test]
fn a_log_another_match_is_writing_is_refused() {
    use std::io::Write;
    let plugins = othello_dir();
    let dir = TempDir::new("arena-held-log");
    let log = dir.path().join("games.txt");
    let mut held = plyd_util::files::open_held(&log, true).unwrap();
    held.write_all(b"").unwrap();
    let plyd = format!("cmd={}", plyd_bin().display());
    let play = || {
        let mut args = vec![
            "--engine".to_string(),
            plyd.clone(),
            "--engine".into(),
            plyd.clone(),
        ];
        args.extend(logged_games_at_depth_1(2, &log));
        arena(plugins.path(), &args)
    };
    let out = play();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("another process is writing it"),
        "{}",
        text(&out.stderr)
    );
    drop(held);
    let out = play();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// Records that cannot be written (`/dev/full`: no space left) end a match
/// played to its end with exit status 3, each failure said: the games are
/// in the game log.
#[cfg(target_os = "linux")]
#[test]
fn records_that_cannot_be_written_end_the_match_with_status_3() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-records-lost");
    let log = dir.path().join("games.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let mut args = vec![
        "--engine".to_string(),
        plyd.clone(),
        "--engine".into(),
        plyd,
    ];
    args.extend(logged_games_at_depth_1(2, &log));
    args.extend(["--record", "/dev/full"].map(String::from));
    let out = arena(plugins.path(), &args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("cannot write the record")
            && stderr.contains("plyd arena: the records could not all be written")
            && stderr.contains("every game is in the game log"),
        "{stderr}"
    );
    assert_eq!(read_log(&log).len(), 2);
}

/// Championship records of games from position texts are refused before
/// the match: they would hold none of its games.
#[test]
fn championship_records_of_openings_from_position_texts_are_refused() {
    let plugins = plugin_dir(&[("plyd_game_amazons", "amazons")]);
    let dir = TempDir::new("arena-ccgc-fen");
    let book = dir.path().join("six.txt");
    std::fs::write(&book, "fen 1q2q1/6/q4q/Q4Q/6/1Q2Q1 w\n").unwrap();
    let record = dir.path().join("six.ccgc");
    let plyd = format!("cmd={}", plyd_bin().display());
    let openings = format!("file:{}", book.display());
    let out = arena(
        plugins.path(),
        &[
            "--game",
            "amazons",
            "--engine",
            &plyd,
            "name=a",
            "--engine",
            &plyd,
            "name=b",
            "--depth",
            "1",
            "--openings",
            &openings,
            "--record",
            record.to_str().unwrap(),
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the Chinese championship's records hold games from the start position alone, and opening ")
            && stderr.contains("six.txt:1 starts from a position text"),
        "{stderr}"
    );
    assert!(!record.exists());
}

/// The log, the records and an engine's stderr are refused as one file,
/// before anything is written.
#[test]
fn the_files_of_a_match_are_files_of_their_own() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-one-file");
    let plyd = format!("cmd={}", plyd_bin().display());
    let log = dir.path().join("games.txt");
    let through_dots = dir.path().join(".").join("games.txt");
    let stderr = format!("stderr={}", through_dots.display());
    for extra in [
        vec!["--record".to_string(), through_dots.display().to_string()],
        vec![],
    ] {
        let mut args = vec![
            "--engine".to_string(),
            plyd.clone(),
            "--engine".to_string(),
            plyd.clone(),
            if extra.is_empty() {
                stderr.clone()
            } else {
                "name=b".to_string()
            },
            "--depth".to_string(),
            "1".to_string(),
            "--out".to_string(),
            log.display().to_string(),
        ];
        args.extend(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = arena(plugins.path(), &args);
        let stderr_text = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr_text}");
        assert!(
            stderr_text.contains("name one file: each needs a file of its own"),
            "{stderr_text}"
        );
        assert!(!log.exists());
    }
}

/// `--resume` writes `--record` anew, but not over a file that holds
/// something other than the match's records.
#[test]
fn a_resume_writes_records_over_no_other_file() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-resume-foreign");
    let plyd = format!("cmd={}", plyd_bin().display());
    let log = dir.path().join("games.txt");
    let thesis = dir.path().join("thesis.ggf");
    std::fs::write(&thesis, "my thesis, not a record\n").unwrap();
    let common_args = [
        "--engine", &plyd, "name=a", "--engine", &plyd, "name=b", "--depth", "1", "--games", "2",
    ];
    let mut first: Vec<&str> = common_args.to_vec();
    let log_text = log.display().to_string();
    first.extend(["--out", log_text.as_str()]);
    let out = arena(plugins.path(), &first);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let thesis_text = thesis.display().to_string();
    let mut again: Vec<&str> = common_args.to_vec();
    again.extend([
        "--resume",
        log_text.as_str(),
        "--record",
        thesis_text.as_str(),
    ]);
    let out = arena(plugins.path(), &again);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("holds 24 bytes and is not this match's records (its log names none,"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&thesis).unwrap(),
        "my thesis, not a record\n"
    );
    // A new file is written from the log's games.
    let fresh = dir.path().join("fresh.ggf");
    let fresh_text = fresh.display().to_string();
    let mut again: Vec<&str> = common_args.to_vec();
    again.extend([
        "--resume",
        log_text.as_str(),
        "--record",
        fresh_text.as_str(),
    ]);
    let out = arena(plugins.path(), &again);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let records = std::fs::read(&fresh).unwrap();
    assert!(!records.is_empty());
    // The log still names no records; a file that holds its games as the
    // arena writes them is the match's own all the same (a run resumed
    // with another --record wrote it, and was stopped again), as is one
    // that lacks the end of them (a run killed between the log and the
    // records); one that holds anything more is not.
    let resume_into = |file: &std::path::Path, held: &[u8]| {
        std::fs::write(file, held).unwrap();
        let file_text = file.display().to_string();
        let mut again: Vec<&str> = common_args.to_vec();
        again.extend([
            "--resume",
            log_text.as_str(),
            "--record",
            file_text.as_str(),
        ]);
        arena(plugins.path(), &again)
    };
    let cut = dir.path().join("cut.ggf");
    for (file, held) in [
        (&fresh, &records[..]),
        (&cut, &records[..records.len() - 9]),
    ] {
        let out = resume_into(file, held);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(std::fs::read(file).unwrap(), records);
    }
    let more = [&records[..], b"(;GM[Othello])\n"].concat();
    let out = resume_into(&cut, &more);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("and the file does not hold the log's games"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&cut).unwrap(), more);
}

/// A log's header names the build that ran the match and each engine's
/// program with its contents' fingerprint, to tell results apart; neither
/// is checked on a resume (a rebuilt program may go on with a match).
#[test]
fn a_log_names_the_build_and_the_engines_programs() {
    let plugins = othello_dir();
    let dir = TempDir::new("arena-build");
    let log = dir.path().join("games.txt");
    let plyd = plyd_bin().display().to_string();
    let run = |games: &str, how: &str| {
        arena(
            plugins.path(),
            &[
                "--engine",
                &format!("cmd={plyd}"),
                "name=a",
                "--engine",
                &format!("cmd={plyd}"),
                "name=b",
                "--depth",
                "1",
                "--games",
                games,
                "--seed",
                "3",
                how,
                log.to_str().unwrap(),
            ],
        )
    };
    let out = run("2", "--out");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let header = read_header(&log);
    assert!(header["Build"].starts_with("plyd 0.1.0"), "{header:?}");
    for tag in ["Program1", "Program2"] {
        let (program, print) = header[tag].rsplit_once(' ').unwrap();
        assert_eq!(program, plyd);
        assert!(print.starts_with("fnv1a64:"), "{header:?}");
    }
    // Each game keeps its moves' times and nodes, a word a ply.
    let games = read_log(&log);
    for game in &games {
        let plies = game.moves().len();
        for tag in ["Times", "Nodes"] {
            let words: Vec<&str> = game.tag(tag).split(' ').collect();
            assert_eq!(words.len(), plies, "{tag}");
            assert!(words.iter().all(|w| w.parse::<u64>().is_ok()), "{tag}");
        }
    }
    // Another build named in the log does not stop a resume.
    let edited = std::fs::read_to_string(&log)
        .unwrap()
        .replace(&header["Build"], "plyd 0.0.9 (commit 000000000000)");
    std::fs::write(&log, edited).unwrap();
    let out = run("4", "--resume");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(read_header(&log)["Games"], "4");
}
