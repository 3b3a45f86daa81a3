//! Botzone end to end: a judge written from Botzone's bot documentation
//! runs two real `plyd --protocol botzone` bots against each other, turn by
//! turn, in keep-running mode — the first turn's full input, then one
//! request a turn — for a whole Amazons (8x8, simple input) and Reversi
//! (JSON input) game. A third plyd, spoken to in UGI, referees: every
//! answer must be a legal move and the game must end. Each answer's time is
//! measured and reported, not judged (the machine may be busy).

use crate::common;

use std::time::{Duration, Instant};

use crate::common::{errors, plugin_dir, Engine, TempDir};

const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

#[derive(Clone, Copy, PartialEq)]
enum Game {
    Amazons,
    Reversi,
}

impl Game {
    fn variant(self) -> &'static str {
        match self {
            Game::Amazons => "amazons8",
            Game::Reversi => "othello",
        }
    }

    fn numbers(self) -> usize {
        match self {
            Game::Amazons => 6,
            Game::Reversi => 2,
        }
    }

    fn keys(self) -> &'static [&'static str] {
        match self {
            Game::Amazons => &["x0", "y0", "x1", "y1", "x2", "y2"],
            Game::Reversi => &["x", "y"],
        }
    }
}

fn plugins() -> TempDir {
    plugin_dir(&[
        ("plyd_game_amazons", "amazons"),
        ("plyd_game_othello", "othello"),
    ])
}

/// A plyd move (`a6a4b5`) as Botzone's numbers: the inverse of
/// [`referee_move`].
#[cfg(target_os = "linux")]
fn botzone_numbers(mv: &str) -> Vec<i32> {
    let bytes = mv.as_bytes();
    let mut numbers = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let x = i32::from(bytes[i] - b'a');
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let rank: i32 = mv[start..i].parse().expect("a rank");
        numbers.extend([x, rank - 1]);
    }
    numbers
}

/// A move's numbers in the referee's notation: column x is the file letter,
/// row y (from the top, where the Amazons' first player and Othello's a1
/// are) is rank y + 1; all -1 is a pass.
fn referee_move(numbers: &[i32]) -> String {
    if numbers.iter().all(|&n| n == -1) {
        return "pass".to_string();
    }
    numbers
        .chunks(2)
        .map(|p| format!("{}{}", (b'a' + p[0] as u8) as char, p[1] + 1))
        .collect()
}

/// Read the numbers of an answer line, simple or JSON.
fn answer_numbers(game: Game, line: &str, json: bool) -> Vec<i32> {
    if !json {
        let numbers: Vec<i32> = line
            .split_whitespace()
            .map(|w| w.parse().unwrap_or_else(|_| panic!("not numbers: {line}")))
            .collect();
        assert_eq!(numbers.len(), game.numbers(), "{line}");
        return numbers;
    }
    assert!(line.starts_with("{\"response\":{"), "{line}");
    game.keys()
        .iter()
        .map(|k| {
            let at = line
                .find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("no {k} in {line}"));
            let rest = &line[at + k.len() + 3..];
            let end = rest.find([',', '}']).unwrap();
            rest[..end].trim().parse().unwrap()
        })
        .collect()
}

fn request_text(game: Game, numbers: &[i32], json: bool) -> String {
    if json {
        let members: Vec<String> = game
            .keys()
            .iter()
            .zip(numbers)
            .map(|(k, n)| format!("\"{k}\":{n}"))
            .collect();
        format!("{{{}}}", members.join(","))
    } else {
        numbers
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Send one turn's input to a bot and read its answer and the keep-running
/// line; returns the numbers and how long the answer took.
fn turn(bot: &mut Engine, game: Game, input: &[String], json: bool) -> (Vec<i32>, Duration) {
    let started = Instant::now();
    for line in input {
        bot.send(line);
    }
    let answer = bot.next_line(common::PATIENCE).expect("the bot answers");
    let took = started.elapsed();
    assert_eq!(
        bot.next_line(common::PATIENCE).as_deref(),
        Some(KEEP_RUNNING)
    );
    (answer_numbers(game, &answer, json), took)
}

struct Referee {
    engine: Engine,
    moves: Vec<String>,
}

impl Referee {
    fn new(dir: &TempDir, game: Game) -> Referee {
        let mut engine = Engine::start(
            dir.path(),
            &["--protocol", "ugi", "--game", game.variant()],
            &[],
        );
        engine.send("uginewgame");
        Referee {
            engine,
            moves: Vec::new(),
        }
    }

    /// Play `mv`, which must be legal.
    fn play(&mut self, mv: String) {
        self.moves.push(mv);
        self.engine
            .send(&format!("position startpos moves {}", self.moves.join(" ")));
        let lines = self.engine.sync();
        assert!(
            errors(&lines).is_empty(),
            "illegal: {:?}: {lines:?}",
            self.moves
        );
    }

    fn game_over(&mut self) -> bool {
        self.engine.send("query gameover");
        let lines = self.engine.read_until(|l| l.starts_with("response "));
        lines.last().unwrap() == "response true"
    }
}

/// The configuration's `botzone_turn_limit` for the simple-input game,
/// which carries no `time_limit`: what this judge gives a turn.
const SIMPLE_TURN_LIMIT_MS: u64 = 300;

fn play_a_game(game: Game, json: bool) -> usize {
    let dir = plugins();
    let config = dir.path().join("plyd.toml");
    std::fs::write(
        &config,
        format!("botzone_turn_limit = {SIMPLE_TURN_LIMIT_MS}\n"),
    )
    .unwrap();
    let config = config.display().to_string();
    let args = ["--protocol", "botzone", "--config", &config];
    // Each turn's limit is logged at debug level.
    let env = [("RUST_LOG", "plyd::daemon::dialect::botzone=debug")];
    let mut bots = [
        Engine::start(dir.path(), &args, &env),
        Engine::start(dir.path(), &args, &env),
    ];
    let mut referee = Referee::new(&dir, game);
    let none = vec![-1; game.numbers()];
    let mut last = none.clone();
    let mut slowest = [Duration::ZERO, Duration::ZERO];
    let mut plies = 0;
    for ply in 0..130 {
        let side = ply % 2;
        let input = if ply < 2 {
            // A bot's first turn: the whole (one-request) history.
            if json {
                // Botzone's fields; this judge gives 0.3 s a turn.
                vec![format!(
                    "{{\"requests\":[{}],\"responses\":[],\"data\":\"\",\"globaldata\":\"\",\"time_limit\":0.3,\"memory_limit\":256}}",
                    request_text(game, &last, true)
                )]
            } else {
                vec![
                    "1".to_string(),
                    request_text(game, &last, false),
                    String::new(),
                    String::new(),
                ]
            }
        } else {
            vec![request_text(game, &last, json)]
        };
        let (numbers, took) = turn(&mut bots[side], game, &input, json);
        slowest[side] = slowest[side].max(took);
        referee.play(referee_move(&numbers));
        plies += 1;
        last = numbers;
        if referee.game_over() {
            break;
        }
    }
    assert!(referee.game_over(), "no end after {plies} plies");
    // The simple input names no limit: the configured one applies (doubled
    // on the first turn); the JSON input's `time_limit` of 0.3 s is each
    // turn's as it is, the first's too.
    for bot in &mut bots {
        let log = bot.stderr_lines();
        let limits: Vec<&String> = log.iter().filter(|l| l.contains(": a limit of ")).collect();
        assert!(limits.len() >= plies / 2, "{log:?}");
        let first = if json {
            "turn 1: a limit of 300 ms,"
        } else {
            "turn 1: a limit of 300 ms (doubled)"
        };
        assert!(limits[0].contains(first), "{limits:?}");
        assert!(
            limits[1..].iter().all(|l| l.contains("a limit of 300 ms,")),
            "{limits:?}"
        );
    }
    eprintln!(
        "{} ({}): {plies} plies, slowest answers {:?} and {:?}",
        game.variant(),
        if json { "JSON" } else { "simple" },
        slowest[0],
        slowest[1]
    );
    plies
}

#[test]
fn a_whole_amazons_game_in_keep_running_mode() {
    let plies = play_a_game(Game::Amazons, false);
    assert!(plies >= 10, "{plies}");
}

#[test]
fn a_whole_reversi_game_in_keep_running_mode() {
    let plies = play_a_game(Game::Reversi, true);
    assert!(plies >= 9, "{plies}");
}

#[test]
fn a_bot_started_late_replays_the_history() {
    let dir = plugins();
    let mut bot = Engine::start(dir.path(), &["--protocol", "botzone"], &[]);
    // Black's first request (nothing yet), its answer c4, White's c3:
    // Black, started afresh, answers from the whole history.
    let input: Vec<String> = ["2", "-1 -1", "2 3", "2 2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (numbers, _) = turn(&mut bot, Game::Reversi, &input, false);
    let mut referee = Referee::new(&dir, Game::Reversi);
    referee.play("c4".to_string());
    referee.play("c3".to_string());
    referee.play(referee_move(&numbers));
}

#[test]
fn game_amazons_is_botzones_eight_by_eight() {
    let dir = plugins();
    let mut bot = Engine::start(
        dir.path(),
        &["--protocol", "botzone", "--game", "amazons"],
        &[],
    );
    let input: Vec<String> = ["1", "-1 -1 -1 -1 -1 -1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (numbers, _) = turn(&mut bot, Game::Amazons, &input, false);
    let mut referee = Referee::new(&dir, Game::Amazons);
    referee.play(referee_move(&numbers));
}

#[test]
fn game_reversi_is_botzones_othello() {
    let dir = plugins();
    let mut bot = Engine::start(
        dir.path(),
        &["--protocol", "botzone", "--game", "reversi"],
        &[],
    );
    let input: Vec<String> = ["1", "-1 -1"].iter().map(|s| s.to_string()).collect();
    let (numbers, _) = turn(&mut bot, Game::Reversi, &input, false);
    let mut referee = Referee::new(&dir, Game::Reversi);
    referee.play(referee_move(&numbers));
}

#[test]
fn a_game_botzone_does_not_play_is_refused_at_start() {
    let dir = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let out = common::run_plyd(dir.path(), &["--protocol", "botzone", "--game", "xiangqi"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("Botzone does not play xiangqi"), "{stderr}");
}

#[test]
fn a_turn_whose_input_is_closed_is_still_searched_and_answered() {
    // A judge may close the bot's input once the turn is written. The
    // search must still run to its own limit: from the Amazons' start,
    // depth 2 takes tens of milliseconds of the turn's 1.7 s (depth 3
    // about a second), where a search stopped by the end of input ends
    // within depth 1.
    let dir = plugins();
    let mut bot = Engine::start(
        dir.path(),
        &["--protocol", "botzone", "--game", "amazons8"],
        &[("RUST_LOG", "debug")],
    );
    bot.send("1");
    bot.send("-1 -1 -1 -1 -1 -1");
    bot.close_stdin();
    let answer = bot
        .next_line(Duration::from_secs(30))
        .expect("an answer after the input was closed");
    let numbers = answer_numbers(Game::Amazons, &answer, false);
    let mut referee = Referee::new(&dir, Game::Amazons);
    referee.play(referee_move(&numbers));
    assert!(bot.wait_exit(Duration::from_secs(30)).is_some(), "exits");
    let log = bot.stderr_lines();
    assert!(
        log.iter().any(|l| l.contains("info depth 2 seldepth")),
        "no depth 2 finished: {log:?}"
    );
}

#[test]
fn bad_input_is_refused_and_the_game_goes_on() {
    let dir = plugins();
    let mut bot = Engine::start(
        dir.path(),
        &["--protocol", "botzone", "--game", "amazons8"],
        &[],
    );
    let (first, _) = turn(
        &mut bot,
        Game::Amazons,
        &["1".to_string(), "-1 -1 -1 -1 -1 -1".to_string()],
        false,
    );
    let mut referee = Referee::new(&dir, Game::Amazons);
    referee.play(referee_move(&first));
    // A line that is no request, a request of the wrong game, a square off
    // the board and an illegal move (an amazon that is not there): no answer
    // to any, and the next good request is answered as if they never came.
    for bad in ["hello", "3 2", "0 5 0 9 1 4", "4 4 4 5 4 6"] {
        bot.send(bad);
    }
    let reply = [0, 5, 0, 4, 1, 4];
    referee.play(referee_move(&reply));
    let (numbers, _) = turn(
        &mut bot,
        Game::Amazons,
        &[request_text(Game::Amazons, &reply, false)],
        false,
    );
    referee.play(referee_move(&numbers));
    let stderr = bot.stderr_lines();
    assert!(stderr.len() >= 4, "{stderr:?}");
}

/// The `nodes` and the move of `go depth 3` from the start of the Amazons
/// (8x8), one thread.
#[cfg(target_os = "linux")]
fn amazons_depth_3(engine: &mut Engine) -> (u64, String) {
    engine.send("setoption name UCI_Variant value amazons8");
    engine.send("position startpos");
    engine.send("go depth 3");
    let lines = engine.until_bestmove();
    let nodes = common::last_number(&lines, "nodes") as u64;
    (nodes, lines.last().unwrap().clone())
}

/// Botzone gives some games 256 MB; read as an address-space cap
/// (`ulimit -v 262144`), plyd still answers, and searches as it does
/// without the cap (the same tree: one allocator arena for every thread).
#[test]
#[cfg(target_os = "linux")]
fn a_bot_under_a_256_mb_address_space_cap_plays() {
    const CAP: u64 = 256 << 20;
    let dir = plugins();
    let mut bot = Engine::start_capped(dir.path(), &["--protocol", "botzone"], CAP);
    let first = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1,"x2":-1,"y2":-1}],"responses":[],"time_limit":0.2}"#;
    let (numbers, _) = turn(&mut bot, Game::Amazons, &[first.to_string()], true);
    let mut referee = Referee::new(&dir, Game::Amazons);
    referee.play(referee_move(&numbers));
    // The referee's own move for White, then the bot's answer to it.
    referee.engine.send(&format!(
        "position startpos moves {}",
        referee.moves.join(" ")
    ));
    referee.engine.send("go depth 1");
    let best = referee.engine.until_bestmove();
    let reply = best
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let reply_numbers = botzone_numbers(&reply);
    referee.play(reply);
    let request = request_text(Game::Amazons, &reply_numbers, true);
    let (numbers, _) = turn(&mut bot, Game::Amazons, &[request], true);
    referee.play(referee_move(&numbers));
    let log = bot.stderr_lines();
    assert!(!log.iter().any(|l| l.contains("allocation")), "{log:?}");

    let mut capped = Engine::start_capped(dir.path(), &[], CAP);
    let mut free = Engine::start(dir.path(), &[], &[]);
    assert_eq!(amazons_depth_3(&mut capped), amazons_depth_3(&mut free));
    // Several threads under the cap too.
    capped.send("setoption name Threads value 4");
    capped.send("setoption name Hash value 64");
    let (nodes, best) = amazons_depth_3(&mut capped);
    assert!(nodes > 0 && best.starts_with("bestmove "), "{best}");
    // A table the cap cannot hold is refused, and the old one kept.
    capped.send("setoption name Hash value 1024");
    let answer = capped.sync();
    assert_eq!(errors(&answer).len(), 1, "{answer:?}");
    capped.send("quit");
    free.send("quit");
}

/// Under a limit on threads that leaves the daemon none for its search
/// (a sandbox's: here the daemon's user is brought up to its limit once
/// the daemon is idle), the search runs on the controller's thread and answers a
/// searched move: a Botzone turn was answered `-1 -1`, a forfeit.
#[cfg(target_os = "linux")]
#[test]
fn a_search_with_no_thread_of_its_own_runs_on_the_controllers() {
    let (_dir, command, _held, limit) = common::with_few_threads(64);
    let mut e = Engine::spawn(command, &[], &[]);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    assert!(e.sync().is_empty());
    // No thread more for the daemon from now on: its user's processes
    // brought up to its limit.
    let _fillers = common::fill_threads_of_user_of(e.pid(), limit);
    e.send("position startpos");
    e.send("go movetime 300");
    let lines = e.until_bestmove();
    let best = lines.last().unwrap();
    assert!(
        ["d3", "c4", "f5", "e6"]
            .iter()
            .any(|m| best.starts_with(&format!("bestmove {m}"))),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let log = e.stderr_lines();
        assert!(
            log.iter()
                .any(|l| l.contains("cannot start the thread plyd-search")
                    && l.contains("its job runs on the controller's thread")),
            "{log:?}"
        );
    }
    e.send("quit");
}

/// `quit`, and a clean exit with no allocation failed on the way.
#[cfg(target_os = "linux")]
fn quits_with_no_failed_allocation(mut e: Engine) {
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let log = e.stderr_lines();
    assert!(!log.iter().any(|l| l.contains("allocation")), "{log:?}");
}

/// A long Monte-Carlo search under Botzone's cap: its tree stops growing
/// where the memory left comes down to its margin, the nodes' move lists
/// counted (the nodes' array alone was, and xiangqi's lists, as large
/// again, ended the process at about 500,000 visits), and the move is
/// answered. On a slow machine the tree may not reach the cap in the time:
/// the search must still answer.
#[test]
#[cfg(target_os = "linux")]
fn a_long_monte_carlo_search_under_a_256_mb_cap_answers() {
    const CAP: u64 = 256 << 20;
    let dir = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let mut e = Engine::start_capped(dir.path(), &[], CAP);
    // The default table (16 MiB) beside it: with 1 MiB the nodes'
    // array stopped where the lists had room left.
    e.send("setoption name SearchMode value mcts");
    assert!(errors(&e.sync()).is_empty());
    e.send("position startpos");
    e.send("go movetime 8000");
    let best = e.until_bestmove();
    assert_ne!(best.last().unwrap(), "bestmove (none)", "{best:?}");
    quits_with_no_failed_allocation(e);
}

/// Under Botzone's cap, a `Hash` set after `Threads` counts the memory the
/// threads will take at the first search (a table that left them none was
/// taken, and that search ended the process), and a smaller table
/// replacing a large one counts the large one as freed (it is freed
/// first: the smaller one was refused).
#[test]
#[cfg(target_os = "linux")]
fn a_table_set_after_threads_leaves_them_their_memory() {
    const CAP: u64 = 256 << 20;
    let dir = plugins();
    let mut e = Engine::start_capped(dir.path(), &[], CAP);
    e.send("setoption name Hash value 150");
    let told = e.sync();
    assert!(errors(&told).is_empty(), "{told:?}");
    e.send("setoption name Hash value 100");
    let told = e.sync();
    assert!(errors(&told).is_empty(), "{told:?}");
    e.send("setoption name Hash value 16");
    e.send("setoption name Threads value 12");
    let told = e.sync();
    assert!(errors(&told).is_empty(), "{told:?}");
    e.send("setoption name Hash value 128");
    let told = e.sync();
    assert_eq!(errors(&told).len(), 1, "{told:?}");
    assert!(
        told[0].contains("less 12 search threads' 144 MiB"),
        "{told:?}"
    );
    e.send("go movetime 100");
    let best = e.until_bestmove();
    assert_ne!(best.last().unwrap(), "bestmove (none)", "{best:?}");
    quits_with_no_failed_allocation(e);
}

/// Under a cap far below Botzone's (62 MiB of address space, where the
/// first search's 8 MiB continuation history cannot be had beside the
/// 4 MiB kept for what is not optional; 56 MiB, where it once ended the
/// process, no longer leaves the 6 MiB a search needs, and the daemon
/// says so at its start), a search does without what it cannot have:
/// every `go` is answered, on one thread and on two, and nothing fails to
/// be allocated.
#[test]
#[cfg(target_os = "linux")]
fn searches_under_a_62_mib_address_space_cap_do_without_what_they_cannot_have() {
    const CAP: u64 = 62 << 20;
    let dir = plugins();
    let mut e = Engine::start_capped(dir.path(), &[], CAP);
    let mut moves: Vec<String> = Vec::new();
    for threads in [1, 2, 1] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.sync();
        for _ in 0..3 {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go movetime 50");
            let best = e.until_bestmove();
            let mv = best.last().unwrap().split_whitespace().nth(1).unwrap();
            assert_ne!(mv, "(none)", "{best:?}");
            moves.push(mv.to_string());
        }
    }
    quits_with_no_failed_allocation(e);
}

/// A configuration file's `hash` that the cap cannot hold is told to the
/// GUI after its first line, like every other problem of the start, and
/// the daemon runs on the default table.
#[test]
#[cfg(target_os = "linux")]
fn a_configured_hash_the_memory_cannot_hold_is_told_to_the_gui() {
    const CAP: u64 = 256 << 20;
    let dir = plugins();
    let config = TempDir::new("hash-config");
    let file = config.path().join("plyd.toml");
    std::fs::write(&file, "hash = 1024\n").unwrap();
    let mut e = Engine::start_capped(dir.path(), &["--config", file.to_str().unwrap()], CAP);
    e.send("uci");
    let options = e.read_until(|l| l == "uciok");
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 16 ")),
        "{options:?}"
    );
    let told = e.sync();
    assert_eq!(errors(&told).len(), 1, "{told:?}");
    assert!(
        told[0].contains("option 'Hash': 1024 MiB is more than this machine can give now")
            && told[0].contains("(config ")
            && told[0].contains(" line 1: key 'hash')")
            && told[0].ends_with("; the table stays at 16 MiB"),
        "{told:?}"
    );
    e.send("quit");
}

/// The C++ compiler: `$CXX`, else `c++`.
#[cfg(target_os = "linux")]
fn cxx() -> String {
    common::compiler("CXX", "c++")
}

#[test]
#[cfg(target_os = "linux")]
fn the_launcher_bot_starts_plyd_from_the_storage() {
    // docs/protocols.md, "Deploying on Botzone": the C++ bot copies plyd
    // and its game plugin out of `data` and becomes plyd.
    let dir = TempDir::new("botzone-launcher");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/tools/botzone_launcher.cpp");
    let bot = dir.path().join("bot");
    let out = std::process::Command::new(cxx())
        .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&bot)
        .arg(&source)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C++ compiler '{}' (set CXX): {e}", cxx()));
    assert!(
        out.status.success(),
        "the launcher does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::copy(common::plyd_bin(), data.join("plyd")).unwrap();
    std::fs::copy(
        common::built_library("plyd_game_amazons"),
        data.join("libplyd_game_amazons.so"),
    )
    .unwrap();
    // The first turn as Botzone writes it, its input closed behind it:
    // plyd answers and exits.
    let copies = dir.path().join("tmp");
    std::fs::create_dir(&copies).unwrap();
    let first_turn = || {
        let mut child = std::process::Command::new(&bot)
            .current_dir(dir.path())
            .env("TMPDIR", &copies)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"1\n-1 -1 -1 -1 -1 -1\n\n\n").unwrap();
        }
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(
            lines.len(),
            2,
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let numbers: Vec<i32> = lines[0]
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(numbers.len(), 6, "{stdout}");
        assert!(numbers.iter().all(|n| (0..8).contains(n)), "{stdout}");
        assert_eq!(lines[1], ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
    };
    // It runs from copies in one folder under $TMPDIR, which its later
    // starts use as it is while the storage's files are the same, and
    // replace when they are not.
    let folder = || {
        let entries: Vec<_> = std::fs::read_dir(&copies)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(entries.len(), 1, "{entries:?}");
        let stamp = std::fs::read_to_string(entries[0].join("stamp")).unwrap();
        let copied = std::fs::metadata(entries[0].join("plyd"))
            .unwrap()
            .modified()
            .unwrap();
        (entries[0].clone(), stamp, copied)
    };
    first_turn();
    let (made, stamp, copied) = folder();
    assert!(made
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("plyd-botzone-"));
    first_turn();
    assert_eq!(folder(), (made.clone(), stamp.clone(), copied));
    // A new upload: another file (not a plugin, which plyd reports and
    // passes over).
    std::fs::copy(common::plyd_bin(), data.join("libplyd_game_othello.so")).unwrap();
    first_turn();
    let (again, restamped, _) = folder();
    assert_eq!(again, made);
    assert_ne!(restamped, stamp);
    assert!(restamped.contains("libplyd_game_othello.so"), "{restamped}");
    // A folder at its name that others may write (in a shared /tmp,
    // anyone may make one of any name) is not trusted, stamp or not: its
    // `plyd` is never run.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(made.join("plyd"), "#!/bin/sh\necho planted\n").unwrap();
        std::fs::set_permissions(made.join("plyd"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        std::fs::set_permissions(&made, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    first_turn();
    // A copy that cannot be made whole (here files are held to 1 MiB, as
    // a full $TMPDIR stops them) says why, and leaves nothing behind: a
    // partial copy was left at every start.
    std::fs::write(data.join("libplyd_game_othello.so"), "changed").unwrap();
    let entries = || {
        let mut names: Vec<_> = std::fs::read_dir(&copies)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let before = entries();
    let out = {
        use std::os::unix::process::CommandExt;
        let mut command = std::process::Command::new(&bot);
        command
            .current_dir(dir.path())
            .env("TMPDIR", &copies)
            .stdin(std::process::Stdio::null());
        // SAFETY: the closure runs in the child between fork and exec and
        // makes async-signal-safe system calls only.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let limit = libc::rlimit {
                    rlim_cur: 1 << 20,
                    rlim_max: 1 << 20,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        command.output().unwrap()
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("launcher: copying data/plyd to ")
            && stderr.contains("failed: File too large"),
        "{stderr}"
    );
    assert_eq!(entries(), before);
    // Without the plugin it says why on stderr, and exits.
    std::fs::remove_file(data.join("libplyd_game_amazons.so")).unwrap();
    std::fs::remove_file(data.join("libplyd_game_othello.so")).unwrap();
    let out = std::process::Command::new(&bot)
        .current_dir(dir.path())
        .env("TMPDIR", &copies)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("launcher: data needs plyd and a game plugin"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An option refused at the start (an unknown one, a book that is not
/// there) is logged and the bot plays on; with `--strict` it ends the
/// bot instead, for an author who would rather lose a test game than
/// play every turn without what was set up.
#[test]
fn an_option_refused_at_the_start_ends_a_strict_bot() {
    let dir = plugins();
    for option in ["Bogus=1", "BookFile=/no/such/book"] {
        for strict in [false, true] {
            let mut command = common::plyd_command(dir.path());
            command.args([
                "--protocol",
                "botzone",
                "--game",
                "othello",
                "--option",
                option,
            ]);
            if strict {
                command.arg("--strict");
            }
            let out = common::output_with_input(&mut command, b"1\n-1 -1\n");
            let stderr = String::from_utf8_lossy(&out.stderr);
            if strict {
                assert_eq!(out.status.code(), Some(2), "{option} {out:?}");
                assert!(out.stdout.is_empty(), "{option} {out:?}");
                assert!(
                    stderr.contains("--strict: 1 problem at the start: plyd exits"),
                    "{stderr}"
                );
            } else {
                assert_eq!(out.status.code(), Some(0), "{option} {out:?}");
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout).lines().count(),
                    2,
                    "{out:?}"
                );
            }
        }
    }
}

/// An evaluator named that the game does not offer: the bot ends at its
/// start, as for a game it does not play (it played every turn with the
/// game's default, saying so only on stderr); one the game offers plays.
#[test]
fn an_evaluator_the_game_does_not_offer_is_refused_at_start() {
    let dir = plugins();
    let refused = [
        &["--game", "amazons", "--evaluator", "nonesuch"][..],
        &["--evaluator", "nonesuch"],
        &["--game", "othello", "--evaluator", "classic"],
    ];
    for args in refused {
        let mut command = common::plyd_command(dir.path());
        command.args(["--protocol", "botzone"]).args(args);
        let out = common::output_with_input(&mut command, b"1\n-1 -1\n");
        assert_eq!(out.status.code(), Some(2), "{args:?} {out:?}");
        assert!(out.stdout.is_empty(), "{args:?} {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "Botzone: evaluator '{}' is not offered by",
                args[args.len() - 1]
            )),
            "{stderr}"
        );
    }
    let mut bot = Engine::start(
        dir.path(),
        &[
            "--protocol",
            "botzone",
            "--game",
            "amazons",
            "--evaluator",
            "classic",
        ],
        &[],
    );
    let input: Vec<String> = ["1", "-1 -1 -1 -1 -1 -1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (numbers, _) = turn(&mut bot, Game::Amazons, &input, false);
    let mut referee = Referee::new(&dir, Game::Amazons);
    referee.play(referee_move(&numbers));
}

/// A parameter file named that cannot be read (missing, or with a key
/// the evaluator lacks) ends the bot at its start, as an evaluator not
/// offered does (it played every turn with the defaults); one read plays.
#[test]
fn a_parameter_file_that_is_not_read_is_refused_at_start() {
    let dir = plugins();
    let typo = dir.path().join("typo.toml");
    std::fs::write(&typo, "no_such_key = 1\n").unwrap();
    let missing = dir.path().join("missing.toml");
    // The bot's first turn with the parameter file `file`.
    let first_turn = |file: &std::path::Path| {
        let mut command = common::plyd_command(dir.path());
        command
            .args([
                "--protocol",
                "botzone",
                "--game",
                "amazons",
                "--eval-params",
            ])
            .arg(file);
        common::output_with_input(&mut command, b"1\n-1 -1 -1 -1 -1 -1\n")
    };
    for file in [&typo, &missing] {
        let out = first_turn(file);
        assert_eq!(out.status.code(), Some(2), "{file:?} {out:?}");
        assert!(out.stdout.is_empty(), "{file:?} {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "Botzone: the parameter file {} was not read",
                file.display()
            )),
            "{stderr}"
        );
    }
    let shipped = common::run_plyd(dir.path(), &["params", "--game", "amazons"]);
    let good = dir.path().join("good.toml");
    std::fs::write(&good, &shipped.stdout).unwrap();
    let out = first_turn(&good);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!out.stdout.is_empty(), "{out:?}");
}

#[test]
fn a_bot_with_no_botzone_game_loaded_ends_at_once_saying_why() {
    // Only xiangqi: the bot could answer no turn, and would lose each on
    // time if it waited for them.
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let out = std::process::Command::new(common::plyd_bin())
        .env("PLYD_PLUGIN_PATH", plugins.path())
        .args(["--protocol", "botzone"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "Botzone: neither amazons8 nor othello is loaded (loaded: xiangqi), so no turn \
             could be answered"
        ),
        "{stderr}"
    );
}

/// `input` given whole to a Botzone bot on the Amazons with 100 ms turns,
/// its input closed behind it: what it wrote on stdout and on stderr.
fn botzone_run(dir: &TempDir, input: &[u8]) -> (String, String) {
    let config = dir.path().join("botzone-100ms.toml");
    std::fs::write(&config, "botzone_turn_limit = 100\n").unwrap();
    let out = common::output_with_input(
        common::plyd_command(dir.path())
            .args(["--protocol", "botzone", "--game", "amazons8", "--config"])
            .arg(&config),
        input,
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Inputs Botzone never sends, each told on stderr in one line: a
/// history cut short, a history longer than its turn number (one answer,
/// the lines past it skipped), a request alone as a first input, and no
/// input at all; a byte-order mark before the first line is skipped.
#[test]
fn malformed_turn_inputs_are_told_and_answered_at_most_once() {
    let dir = plugins();
    let errors = |stderr: &str| -> Vec<String> {
        stderr
            .lines()
            .filter(|l| l.contains(" ERROR "))
            .map(str::to_string)
            .collect()
    };
    let (stdout, stderr) = botzone_run(&dir, b"3\n-1 -1 -1 -1 -1 -1\n2 0 2 5 5 2\n0 5 0 4 1 4\n");
    assert_eq!(stdout, "", "{stderr}");
    let told = errors(&stderr);
    assert_eq!(told.len(), 1, "{stderr}");
    assert!(
        told[0].contains("the input ended after 3 of the 5 history lines turn 3 needs"),
        "{stderr}"
    );
    let (stdout, stderr) = botzone_run(&dir, b"1\n-1 -1 -1 -1 -1 -1\n2 0 2 5 5 2\n0 5 0 4 1 4\n");
    assert_eq!(stdout.lines().count(), 2, "one answer: {stdout} {stderr}");
    let told = errors(&stderr);
    assert_eq!(told.len(), 2, "{stderr}");
    assert!(
        told[0].contains("'2 0 2 5 5 2' came before this turn's answer and is skipped"),
        "{stderr}"
    );
    let (stdout, stderr) = botzone_run(&dir, b"2 0 2 5 5 2\n");
    assert_eq!(stdout, "", "{stderr}");
    assert!(
        errors(&stderr)[0].contains(
            "'2 0 2 5 5 2' is a request alone, which Botzone sends only to a bot kept running"
        ),
        "{stderr}"
    );
    // A JSON request is quoted as JSON.
    let (stdout, stderr) = botzone_run(&dir, b"{\"x\":3,\"y\":2}\n");
    assert_eq!(stdout, "", "{stderr}");
    assert!(
        errors(&stderr)[0].contains("'{\"x\":3,\"y\":2}' is a request alone"),
        "{stderr}"
    );
    let (stdout, stderr) = botzone_run(&dir, b"");
    assert_eq!(stdout, "", "{stderr}");
    assert!(
        errors(&stderr)[0].contains("the input ended before a turn's input"),
        "{stderr}"
    );
    let (stdout, stderr) = botzone_run(&dir, b"\xEF\xBB\xBF1\n-1 -1 -1 -1 -1 -1\n");
    assert_eq!(stdout.lines().count(), 2, "{stdout} {stderr}");
    assert!(errors(&stderr).is_empty(), "{stderr}");
    // A move refused is named in Botzone's numbers too: an arrow shot
    // through the amazon on f1.
    let (stdout, stderr) = botzone_run(&dir, b"1\n2 0 6 0 6 1\n");
    assert_eq!(stdout, "", "{stderr}");
    assert!(
        errors(&stderr)[0].contains("(in Botzone's numbers, request 1 '2 0 6 0 6 1')"),
        "{stderr}"
    );
}

/// The start's problems (a bad configuration key, an option refused) are
/// logged once: Botzone's only channel is the log, where they were
/// already written as they were found.
#[test]
fn the_starts_problems_are_logged_once() {
    let dir = plugins();
    let config = dir.path().join("bad.toml");
    std::fs::write(&config, "bogus_key = 1\n[options]\nNoSuch = 3\n").unwrap();
    let out = common::output_with_input(
        common::plyd_command(dir.path())
            .args(["--protocol", "botzone", "--game", "amazons8", "--config"])
            .arg(&config)
            .args(["--option", "Hash=100000"]),
        b"1\n-1 -1 -1 -1 -1 -1\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    for said in [
        "key 'bogus_key': unknown key",
        "option NoSuch=3 (config ",
        "line 3: key 'NoSuch'): unknown option 'NoSuch'",
        "option Hash=100000 (--option): option 'Hash'",
    ] {
        assert_eq!(stderr.matches(said).count(), 1, "{said}: {stderr}");
    }
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}

/// The Monte-Carlo tree grows only as far as the memory lets it: under a
/// tight address-space cap the default `MctsTreeNodes` once ended the
/// first search (`memory allocation of 13631488 bytes failed`), and a
/// tree kept for the next move the one after it; now the tree stops
/// growing where the memory ends, and a kept tree that cannot be copied
/// is given up.
#[test]
#[cfg(target_os = "linux")]
fn a_monte_carlo_tree_grows_only_as_far_as_the_memory_lets_it() {
    const CAP: u64 = 80_000 << 10;
    let dir = common::othello_dir();
    let mut e = Engine::start_capped(dir.path(), &[], CAP);
    e.send("setoption name SearchMode value mcts");
    e.sync();
    for (moves, ms) in [("", 2000), (" moves d3 c3", 1000)] {
        e.send(&format!("position startpos{moves}"));
        e.send(&format!("go movetime {ms}"));
        let best = e.until_bestmove();
        assert_ne!(best.last().unwrap(), "bestmove (none)", "{best:?}");
    }
    quits_with_no_failed_allocation(e);
}

/// A `position` line of 8 MB (1.6 million xiangqi plies, as the input's
/// line limit allows) is searched under Botzone's cap: each search
/// thread's copy of the game doubled its history at its first move, and
/// the process ended (`memory allocation of 76800000 bytes failed`).
#[test]
#[cfg(target_os = "linux")]
fn a_position_line_at_the_input_limit_is_searched_under_botzones_cap() {
    const CAP: u64 = 256 << 20;
    let dir = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let mut e = Engine::start_capped(dir.path(), &["--game", "xiangqi"], CAP);
    let moves = vec!["b0c2 b9c7 c2b0 c7b9"; 400_000].join(" ");
    e.send(&format!("position startpos moves {moves}"));
    e.sync();
    e.send("go wtime 2000 btime 2000");
    let best = e.until_bestmove();
    assert_ne!(best.last().unwrap(), "bestmove (none)", "{best:?}");
    quits_with_no_failed_allocation(e);
}
