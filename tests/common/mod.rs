//! Shared helpers for the end-to-end tests: plugin folders made to measure,
//! and a running plyd process to hold a protocol conversation with.
//!
//! Timeouts here only keep a broken build from hanging the test run; they
//! are generous and no test passes or fails on how fast plyd answers.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Send process `pid` the signal named `signal` (`INT`, `TERM`, `STOP`,
/// `CONT`) with `kill`, which must succeed.
pub fn send_signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {pid}: {status}");
}

/// Upper bound on any single wait, far above what a correct build needs.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The plyd binary under test.
pub fn plyd_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_plyd"))
}

/// Where cargo put the plugin libraries this test depends on.
fn build_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent().expect("deps folder").to_path_buf()
}

/// The compiler the environment variable `var` names (`CC`, `CXX`), else
/// `fallback`: an unset or blank variable counts as none.
pub fn compiler(var: &str, fallback: &str) -> String {
    std::env::var(var)
        .ok()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| fallback.to_string())
}

/// Path of the built library of crate `crate_name` (underscores).
pub fn built_library(crate_name: &str) -> PathBuf {
    let file = format!(
        "{}{crate_name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let deps = build_dir();
    let candidates = [deps.join(&file), deps.parent().unwrap().join(&file)];
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .unwrap_or_else(|| panic!("{file} was not built (looked in {candidates:?})"))
}

/// A `plyd` command that looks for plugins in `plugins` only, with the
/// caller's `RUST_LOG` left out.
pub fn plyd_command(plugins: &Path) -> Command {
    let mut cmd = Command::new(plyd_bin());
    cmd.env("PLYD_PLUGIN_PATH", plugins)
        .env_remove("RUST_LOG")
        .env_remove("PLYD_CONFIG");
    cmd
}

/// Copy the built library of `crate_name` into `dir` as
/// `libplyd_eval_<name>.so`, where the host's scan finds evaluators.
pub fn add_evaluator(dir: &Path, crate_name: &str, name: &str) -> PathBuf {
    let dest = dir.join(format!(
        "{}plyd_eval_{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    std::fs::copy(built_library(crate_name), &dest).expect("copy evaluator");
    dest
}

/// Run `plyd ARGS` to its end with plugins from `plugins`.
pub fn run_plyd(plugins: &Path, args: &[&str]) -> Output {
    plyd_command(plugins).args(args).output().expect("run plyd")
}

/// Run `command` with `input` on its stdin, closed after it, and stdout
/// and stderr caught unless `command` sends them elsewhere.
pub fn output_with_input(command: &mut Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run plyd");
    // A process that ends before reading its input (one that cannot
    // start) closes the pipe: its output is what the test reads.
    match child.stdin.take().unwrap().write_all(input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    child.wait_with_output().unwrap()
}

/// A temporary folder, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty folder.
    pub fn new(tag: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("plyd-test-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A plugin folder holding the listed libraries, each copied under the
/// game-plugin name `plyd_game_<game>`: `(crate_name, game)`.
pub fn plugin_dir(plugins: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new("plugins");
    for (crate_name, game) in plugins {
        let dest = dir.path().join(format!(
            "{}plyd_game_{game}{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        ));
        std::fs::copy(built_library(crate_name), dest).expect("copy plugin");
    }
    dir
}

/// `plyd check` of Othello's games (`games` of them) with the `odd` test
/// evaluator in `mode` (its `PLYD_TEST_EVAL`).
pub fn check_with_odd_evaluator(mode: &str, games: &str) -> Output {
    let dir = plugin_dir(&[("plyd_game_othello", "othello")]);
    add_evaluator(dir.path(), "plyd_test_odd_eval", "odd");
    check_othello_evaluator(dir.path(), "odd", games, &[("PLYD_TEST_EVAL", mode)])
}

/// `plyd check --game othello --games GAMES --evaluator NAME` with the
/// plugins of `plugins`, and `env` set.
pub fn check_othello_evaluator(
    plugins: &Path,
    name: &str,
    games: &str,
    env: &[(&str, &str)],
) -> Output {
    plyd_command(plugins)
        .args([
            "check",
            "--game",
            "othello",
            "--games",
            games,
            "--evaluator",
            name,
        ])
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

/// A plugin folder with only the Othello plugin.
pub fn othello_dir() -> TempDir {
    plugin_dir(&[("plyd_game_othello", "othello")])
}

/// A copy of plyd in a folder of the Othello plugin that another user
/// may run, and a command that runs it with at most `threads` processes
/// and threads (`RLIMIT_NPROC`) for its user: where the tests run as root
/// (whom the limit does not hold), as a user of its own that nothing else
/// runs as (a high number no account has; `nobody` where the system maps
/// no such number: its other processes, a build run as `nobody`, count
/// against the limit), else as this user, its threads now counted in
/// (above a limit of one). The lock is held while such commands run
/// (all of one user's count against the limit).
/// The limit set is the last of the four.
#[cfg(target_os = "linux")]
pub fn with_few_threads(
    threads: u64,
) -> (TempDir, Command, std::sync::MutexGuard<'static, ()>, u64) {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    static FEW_THREADS: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let held = FEW_THREADS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = othello_dir();
    let plyd = dir.path().join("plyd");
    std::fs::copy(plyd_bin(), &plyd).unwrap();
    for (path, mode) in [(dir.path(), 0o755), (plyd.as_path(), 0o755)] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    // A limit of one holds whatever the user runs already.
    let limit = if root || threads <= 1 {
        threads
    } else {
        threads + threads_of_this_user()
    };
    let mut command = Command::new(&plyd);
    command.env("PLYD_PLUGIN_PATH", dir.path());
    let own_user = 2_000_000_000 + std::process::id() % 1_000_000;
    // SAFETY: the closure runs in the child between fork and exec and
    // makes async-signal-safe system calls only.
    unsafe {
        command.pre_exec(move || {
            let become_user = |id: u32| libc::setgid(id) == 0 && libc::setuid(id) == 0;
            if root && !become_user(own_user) && !become_user(65534) {
                return Err(std::io::Error::last_os_error());
            }
            let limit = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_NPROC, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    (dir, command, held, limit)
}

/// Processes of the user process `pid` runs as (sleeping a minute, killed
/// on drop), enough that the user's threads are `up_to`: a process of
/// that user limited to `up_to` ([`with_few_threads`]) can then start no
/// thread more.
#[cfg(target_os = "linux")]
pub fn fill_threads_of_user_of(pid: u32, up_to: u64) -> Fillers {
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::process::CommandExt;
    let uid = std::fs::metadata(format!("/proc/{pid}")).unwrap().uid();
    let count = threads_of_user(uid);
    let mut fillers = Fillers(Vec::new());
    for _ in count..up_to {
        let mut command = Command::new("sleep");
        command.arg("60");
        // SAFETY: async-signal-safe calls only, between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if libc::geteuid() != uid && (libc::setgid(uid) != 0 || libc::setuid(uid) != 0) {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        fillers.0.push(command.spawn().unwrap());
    }
    fillers
}

/// Processes that hold a user's count of threads up, killed on drop.
pub struct Fillers(Vec<std::process::Child>);

impl Drop for Fillers {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The threads of this user's processes now (`/proc`).
#[cfg(target_os = "linux")]
fn threads_of_this_user() -> u64 {
    // SAFETY: getuid has no preconditions.
    threads_of_user(unsafe { libc::getuid() })
}

/// The threads of the processes of user `uid` now (`/proc`).
#[cfg(target_os = "linux")]
fn threads_of_user(uid: u32) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter(|e| e.metadata().is_ok_and(|m| m.uid() == uid))
        .filter_map(|e| std::fs::read_dir(e.path().join("task")).ok())
        .map(|tasks| tasks.count() as u64)
        .sum()
}

/// A FIFO made at `path` with the system's `mkfifo`, if it could be made
/// (the tests that use one leave it out otherwise).
#[cfg(unix)]
pub fn make_fifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// A running plyd daemon.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
    /// Everything read from stdout so far.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Start plyd with `args`, plugins from `plugin_path`, and extra `env`.
    pub fn start(plugin_path: &Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(plyd_bin());
        command.env("PLYD_PLUGIN_PATH", plugin_path);
        Self::spawn(command, args, env)
    }

    /// Start plyd as [`Engine::start`] does, in the working directory `dir`.
    pub fn start_in(plugin_path: &Path, dir: &Path) -> Self {
        let mut command = Command::new(plyd_bin());
        command
            .env("PLYD_PLUGIN_PATH", plugin_path)
            .current_dir(dir);
        Self::spawn(command, &[], &[])
    }

    /// Start plyd as [`Engine::start`] does, with its address space capped
    /// at `bytes` (`ulimit -v`), as a judge may cap a bot's memory (Linux:
    /// macOS does not enforce the cap, Windows has none).
    #[cfg(target_os = "linux")]
    pub fn start_capped(plugin_path: &Path, args: &[&str], bytes: u64) -> Self {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(plyd_bin());
        command.env("PLYD_PLUGIN_PATH", plugin_path);
        // SAFETY: the closure runs in the child between fork and exec and
        // makes one async-signal-safe system call.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        Self::spawn(command, args, &[])
    }

    /// Start the plyd executable at `binary` with no plugin path set, so it
    /// finds its plugins next to itself.
    pub fn start_installed(binary: &Path) -> Self {
        let mut command = Command::new(binary);
        command.env_remove("PLYD_PLUGIN_PATH");
        Self::spawn(command, &[], &[])
    }

    /// Start `command` (plyd, set up by the caller) with `args` and `env`.
    pub fn spawn(mut command: Command, args: &[&str], env: &[(&str, &str)]) -> Self {
        command
            .args(args)
            .env("RUST_BACKTRACE", "0")
            .env_remove("RUST_LOG")
            .env_remove("PLYD_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("spawn plyd");
        let stdout = child.stdout.take().unwrap();
        let stderr_pipe = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { break };
                if etx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            transcript: Vec::new(),
        }
    }

    /// Start plyd with only the Othello plugin.
    pub fn othello() -> (Self, TempDir) {
        let dir = othello_dir();
        (Engine::start(dir.path(), &[], &[]), dir)
    }

    /// Start plyd with only the Othello plugin, its search set to `mode`
    /// (`pvs` or `mcts`).
    pub fn othello_in(mode: &str) -> (Self, TempDir) {
        let (mut engine, dir) = Engine::othello();
        engine.send(&format!("setoption name SearchMode value {mode}"));
        (engine, dir)
    }

    /// Send one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to plyd");
        stdin.flush().unwrap();
    }

    /// Send raw bytes, exactly as given.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to plyd");
        stdin.flush().unwrap();
    }

    /// Close stdin.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next stdout line, or `None` if none comes within `wait`.
    pub fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Read lines up to and including the first for which `done` holds.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                None => panic!(
                    "plyd did not answer as expected; lines so far: {seen:#?}\nstderr: {:#?}",
                    self.stderr_lines()
                ),
            }
        }
    }

    /// After a refused `position`: none is left to search (a `go` answers
    /// with one error and `bestmove (none)`) until `restore` is sent, which
    /// gives back the position `fen`; `what` names the case in failures.
    pub fn assert_no_position_until(&mut self, restore: &str, fen: &str, what: &str) {
        self.send("go depth 1");
        let lines = self.until_bestmove();
        assert_eq!(errors(&lines).len(), 1, "{what}: {lines:?}");
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{what}");
        self.send(restore);
        assert_eq!(self.fen(), fen, "{what}");
    }

    /// Send `isready` and return every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Read up to and including the `bestmove` line.
    pub fn until_bestmove(&mut self) -> Vec<String> {
        self.read_until(|l| l.starts_with("bestmove"))
    }

    /// Send `d` and return the `Fen:` text (reading through the `Key:`
    /// line that ends the answer).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until(|l| l.starts_with("Key: "));
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: "));
        fen.unwrap_or_else(|| panic!("no Fen line in {lines:?}"))
            .to_string()
    }

    /// Every stderr line so far (waiting briefly for stragglers).
    pub fn stderr_lines(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(line) = self.stderr.recv_timeout(Duration::from_millis(200)) {
            out.push(line);
        }
        out
    }

    /// Wait for the process to exit; `None` if it is still running after `wait`.
    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Send the process `signal` (`STOP`, `CONT` ...), see [`send_signal`].
    pub fn signal(&self, signal: &str) {
        send_signal(self.child.id(), signal);
    }

    pub fn wait_exit(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The number after the word `key` (`nodes`, `cp`) in `line`, if any.
pub fn number_after(line: &str, key: &str) -> Option<i64> {
    let mut words = line.split_whitespace();
    words.position(|w| w == key)?;
    words.next()?.parse().ok()
}

/// The number after `key` in the last of `lines` that has one: a
/// search's final count (`nodes`) or score (`cp`).
pub fn last_number(lines: &[String], key: &str) -> i64 {
    lines
        .iter()
        .rev()
        .find_map(|l| number_after(l, key))
        .unwrap_or_else(|| panic!("no line with {key}: {lines:?}"))
}

/// The lines among `lines` that report an error.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

/// Check that an `info` line is well formed: known keywords in UCI order,
/// each with a value of the right shape, `pv` and `string` last.
pub fn assert_info_well_formed(line: &str) {
    let tokens: Vec<&str> = line.split(' ').collect();
    assert_eq!(tokens[0], "info", "{line}");
    let mut i = 1;
    let number = |t: Option<&&str>| t.is_some_and(|t| t.parse::<i64>().is_ok());
    while i < tokens.len() {
        match tokens[i] {
            "depth" | "seldepth" | "nodes" | "nps" | "time" | "hashfull" | "multipv"
            | "currmovenumber" => {
                assert!(
                    number(tokens.get(i + 1)),
                    "bad value after {} in {line}",
                    tokens[i]
                );
                i += 2;
            }
            "score" => {
                assert!(
                    matches!(tokens.get(i + 1), Some(&"cp") | Some(&"mate")),
                    "{line}"
                );
                assert!(number(tokens.get(i + 2)), "{line}");
                i += 3;
                if matches!(tokens.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
            }
            "currmove" => i += 2,
            "pv" => {
                assert!(tokens.len() > i + 1, "empty pv in {line}");
                return;
            }
            "string" => return,
            other => panic!("unknown info keyword '{other}' in {line}"),
        }
    }
}

/// The best of `value` over the positions one move from `state`, each
/// taken for the side to move at `state` (negated where the side changed),
/// the state left as it was; `i32::MIN` when there is no move.
pub fn best_over_moves(
    state: &mut plyd::host::GameState,
    mut value: impl FnMut(&mut plyd::host::GameState) -> i32,
) -> i32 {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves).unwrap();
    let side = state.side_to_move().unwrap();
    let mut best = i32::MIN;
    for mv in moves {
        state.make_move(mv).unwrap();
        let found = value(state);
        let found = if state.side_to_move().unwrap() == side {
            found
        } else {
            -found
        };
        state.unmake_move(mv).unwrap();
        best = best.max(found);
    }
    best
}
