//! The engine driver: one engine process spoken to over its stdin and
//! stdout with the protocol, as a GUI would.
//!
//! A reader thread turns the engine's stdout into a channel of lines, each
//! stamped with the instant it was read, so the arena can wait for an
//! answer with a deadline and measure a move from `go` to `bestmove`
//! without counting its own delays in picking the line up. The engine's
//! stderr goes nowhere unless the engine's `stderr=` names a file.
//!
//! Every wait also watches the match's [`Cancel`]: when the match is
//! interrupted, a wait for `bestmove` or `readyok` ends at once. Engines run
//! in a process group of their own, so a Ctrl-C typed at the terminal reaches
//! the arena only, and the arena decides what becomes of them.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{select, unbounded, Receiver};

use crate::args::EngineSpec;
use crate::interrupt::Cancel;

/// How long an engine may take to answer `uci` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long `quit` is given before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How long to wait for the exit status of an engine whose stdout closed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// Something the reader thread saw on the engine's stdout.
enum Event {
    /// A line, with the instant it was read.
    Line(Instant, String),
    /// The end of the output: the engine exited or closed stdout.
    Closed,
}

/// What a wait on the engine's output brought.
enum Wait {
    /// Something the reader thread saw (a closed channel reads as `Closed`).
    Event(Event),
    /// The deadline passed.
    Timeout,
    /// The match was interrupted.
    Interrupted,
}

/// Why an engine could not be used.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("engine {name}: cannot start '{command}': {reason}")]
    Spawn {
        /// Engine name.
        name: String,
        /// The program.
        command: String,
        /// What the system said.
        reason: String,
    },
    /// The process ended, or its pipes broke.
    #[error("engine {name} stopped: {what}")]
    Died {
        /// Engine name.
        name: String,
        /// How it ended (`exit status: 3`).
        what: String,
    },
    /// No answer in time during set-up.
    #[error("engine {name}: no '{expected}' within {} s{}{}", .waited.as_secs(), heard_text(.last), uci_hint(.expected))]
    Silent {
        /// Engine name.
        name: String,
        /// The line waited for.
        expected: &'static str,
        /// How long the arena waited.
        waited: Duration,
        /// The last line it wrote meanwhile, if any.
        last: Option<String>,
    },
    /// The engine refused its set-up (an option or the variant).
    #[error("engine {name}: {what}")]
    Refused {
        /// Engine name.
        name: String,
        /// What it refused.
        what: String,
    },
    /// The engine said that a plugin of its failed and was disabled, after
    /// its last answer.
    #[error("engine {name}: a plugin failed after its last answer: {what}")]
    PluginFailed {
        /// Engine name.
        name: String,
        /// plyd's words for the failure.
        what: String,
    },
    /// The match was interrupted while the arena waited for the engine.
    #[error("engine {name}: interrupted")]
    Interrupted {
        /// Engine name.
        name: String,
    },
}

/// The answer to one `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A `bestmove` line: its move word (`None` when the line had none) and
    /// the time since `go` was sent.
    BestMove {
        /// The move as written, if any.
        text: Option<String>,
        /// Time from `go` to the line.
        elapsed: Duration,
        /// The engine's last error line since the `position` was sent
        /// (plyd's `info string error: ...`, after the prefix): why its
        /// answer may be no move, or one of another position.
        said: Option<String>,
        /// The score of its last `info` line with one (the first line of
        /// several), as the log's `Scores` tag writes it (`34/12`, `#-3/9`):
        /// see [`info_score`].
        score: Option<String>,
        /// The nodes its last `info` line with a count said it searched.
        nodes: Option<u64>,
    },
    /// Nothing within the allowance.
    Timeout {
        /// How long the arena waited.
        waited: Duration,
    },
    /// The engine exited (or closed its output) before answering.
    Died {
        /// How it ended.
        what: String,
    },
    /// Before its answer the engine reported that a plugin failed and was
    /// disabled (plyd's `info string error: ... the plugin is disabled
    /// ...`): it would play on without it.
    PluginFailed {
        /// The engine's line, after `info string error: `.
        what: String,
    },
    /// The match was interrupted before the answer came.
    Interrupted,
}

/// The nodes an `info` line says were searched (`nodes 12345`), as the
/// game log's `Nodes` tag keeps them; none for a `string` line, or one
/// without a count.
pub fn info_nodes(line: &str) -> Option<u64> {
    let mut words = line.strip_prefix("info ")?.split_whitespace();
    while let Some(word) = words.next() {
        match word {
            // What follows is the engine's free text, or its line's moves.
            "string" | "pv" => return None,
            "nodes" => return words.next()?.parse().ok(),
            _ => {}
        }
    }
    None
}

/// The score an `info` line gives its move, written as the game log's
/// `Scores` tag has it: `score cp 34` at `depth 12` is `34/12`, `score
/// mate -3` is `#-3` (the mover mated in three of its moves), the depth
/// left out where the line has none. A score the line marks as a bound
/// (`lowerbound`, `upperbound`), one of a line other than the first
/// (`multipv 2`) and a `string` line give none; the text after `string`
/// in a scored line (plyd's book moves end with `string book`) is read as
/// text.
pub fn info_score(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let (mut depth, mut score) = (None, None);
    while let Some(word) = words.next() {
        match word {
            // The rest of the line is text.
            "string" => break,
            "depth" => depth = words.next().and_then(|d| d.parse::<u32>().ok()),
            "multipv" if words.next() != Some("1") => return None,
            "score" => {
                let kind = words.next()?;
                let value: i64 = words.next()?.parse().ok()?;
                score = Some(match kind {
                    "cp" => value.to_string(),
                    "mate" => format!("#{value}"),
                    _ => return None,
                });
            }
            "lowerbound" | "upperbound" => return None,
            _ => {}
        }
    }
    let score = score?;
    Some(match depth {
        Some(depth) => format!("{score}/{depth}"),
        None => score,
    })
}

/// The failure a line reports, when it is plyd's word that a plugin failed
/// and was disabled; `None` for any other line.
pub fn plugin_failure(line: &str) -> Option<&str> {
    let what = line.strip_prefix("info string error:")?.trim();
    what.contains("the plugin is disabled").then_some(what)
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
    /// The name the engine gave in `id name`.
    id_name: Option<String>,
    /// Set once the process is known to be gone or unusable.
    dead: Option<String>,
    /// Fires when the match is interrupted.
    cancel: Cancel,
}

impl EngineProcess {
    /// Start the engine of `spec`, hold the `uci` handshake, select the
    /// variant `game` and send the spec's options. Every wait on the engine
    /// ends early when `cancel` fires.
    pub fn start(spec: &EngineSpec, game: &str, cancel: &Cancel) -> Result<Self, EngineError> {
        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        // A Ctrl-C at the terminal goes to the whole foreground process
        // group; in their own group the engines do not die of it mid-game
        // (which would read as a crash), and the arena ends them itself.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        #[cfg(windows)]
        {
            use std::os::windows::process::CommandExt;
            const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
            command.creation_flags(CREATE_NEW_PROCESS_GROUP);
        }
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let spawn_error = |reason: String| EngineError::Spawn {
            name: spec.name.clone(),
            command: spec.program.clone(),
            reason,
        };
        match &spec.stderr {
            Some(path) => {
                plyd_util::files::check_writable(path)
                    .map_err(|e| spawn_error(format!("stderr file {}: {e}", path.display())))?;
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| spawn_error(format!("stderr file {}: {e}", path.display())))?;
                command.stderr(file);
            }
            None => {
                command.stderr(Stdio::null());
            }
        }
        let mut child = command.spawn().map_err(|e| spawn_error(e.to_string()))?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, events) = unbounded();
        std::thread::Builder::new()
            .name(format!("arena-{}", spec.name))
            .spawn(move || {
                // Lines read as bytes: one that is not UTF-8 (an `info
                // string` in GBK, as xiangqi engines may write) is read
                // with replacement characters, not taken for the end of
                // the engine's output.
                let mut reader = BufReader::new(stdout);
                let mut bytes = Vec::new();
                while matches!(reader.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
                    let text = String::from_utf8_lossy(&bytes);
                    let line = text.trim_end_matches(['\n', '\r']).to_string();
                    bytes.clear();
                    if tx.send(Event::Line(Instant::now(), line)).is_err() {
                        return;
                    }
                }
                let _ = tx.send(Event::Closed);
            })
            .map_err(|e| spawn_error(format!("cannot start a reader thread: {e}")))?;
        let mut engine = EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            events,
            id_name: None,
            dead: None,
            cancel: cancel.clone(),
        };
        engine.handshake(spec, game)?;
        Ok(engine)
    }

    /// `uci` … `uciok`, the variant, the options, `isready` … `readyok`.
    fn handshake(&mut self, spec: &EngineSpec, game: &str) -> Result<(), EngineError> {
        self.send("uci")?;
        let lines = self.wait_for("uciok", HANDSHAKE_TIMEOUT)?;
        let mut variants: Option<Vec<String>> = None;
        for line in &lines {
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            }
            if let Some(vars) = variant_choices(line) {
                variants = Some(vars);
            }
        }
        // An engine that lists its variants must list this one; one that
        // lists none is told anyway, as UCI engines ignore unknown options.
        if let Some(vars) = &variants {
            if !vars.is_empty() && !vars.iter().any(|v| v.eq_ignore_ascii_case(game)) {
                // Where plyd's plugins are found, for a plyd engine; an
                // outside engine may know the game by another name.
                let hint = if self
                    .id_name
                    .as_deref()
                    .is_some_and(|n| n.to_ascii_lowercase().starts_with("plyd"))
                {
                    "a plyd engine finds the plugins of a folder of one's own by \
                     PLYD_PLUGIN_PATH in the arena's environment or by arg=--plugin-path \
                     arg=DIRS: the arena's own --plugin-path does not reach it"
                } else {
                    "the arena names the variant as plyd's plugin does, and an engine that \
                     knows the game by another name cannot be given it"
                };
                return Err(EngineError::Refused {
                    name: self.name.clone(),
                    what: format!(
                        "does not offer the variant '{game}' (it offers: {}; {hint})",
                        vars.join(", ")
                    ),
                });
            }
        }
        // The arena sets the variant: one of the engine's own options
        // naming another would have it play another game.
        if let Some((_, value)) = spec.options.iter().find(|(name, value)| {
            name.eq_ignore_ascii_case("UCI_Variant") && !value.eq_ignore_ascii_case(game)
        }) {
            return Err(EngineError::Refused {
                name: self.name.clone(),
                what: format!(
                    "option.UCI_Variant={value} would have it play {value} in a match of {game}; leave the option out, the arena sets the variant"
                ),
            });
        }
        self.send(&format!("setoption name UCI_Variant value {game}"))?;
        for (name, value) in &spec.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        let lines = self.ready_without_errors()?;
        // A parameter file set before the evaluator it is not for: plyd's
        // evaluator chosen after it starts from its defaults, says so
        // (`info string evaluator seed002 params default`; one loaded from
        // a file, `... params default (FILE is not read again: ...)`), and
        // the match measured the defaults while the log named the file.
        let params_given = spec
            .options
            .iter()
            .any(|(name, value)| name.eq_ignore_ascii_case("EvalParams") && !value.is_empty());
        let dropped = |l: &String| {
            l.starts_with("info string evaluator ")
                && (l.ends_with(" params default") || l.contains(" params default ("))
        };
        if params_given && lines.iter().any(dropped) {
            return Err(EngineError::Refused {
                name: self.name.clone(),
                what: "refused its set-up: the evaluator chosen after option.EvalParams dropped \
                       its parameter file (it said 'params default'): give option.Evaluator \
                       or option.EvalFile before option.EvalParams"
                    .to_string(),
            });
        }
        Ok(())
    }

    /// Set one option, refusing what the engine refuses.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.drain();
        self.send(&format!("setoption name {name} value {value}"))?;
        self.ready_without_errors().map(|_| ())
    }

    /// `isready` … `readyok`, failing when a line before `readyok` reports
    /// an error; the lines before `readyok`.
    fn ready_without_errors(&mut self) -> Result<Vec<String>, EngineError> {
        self.send("isready")?;
        let lines = self.wait_for("readyok", HANDSHAKE_TIMEOUT)?;
        // plyd answers a setting it cannot use with `info string error: ...`;
        // playing a match with an option silently ignored would measure the
        // wrong thing, so it stops here.
        // Stockfish and its family say `No such option: Thread`.
        if let Some(error) = lines.iter().find_map(|l| {
            l.strip_prefix("info string error")
                .or_else(|| l.starts_with("No such option").then_some(l.as_str()))
        }) {
            return Err(EngineError::Refused {
                name: self.name.clone(),
                what: format!(
                    "refused its set-up: {}",
                    error.trim_start_matches(':').trim()
                ),
            });
        }
        Ok(lines)
    }

    /// The arena's name for the engine.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name the engine gave itself in `id name`.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Whether the process is known to have died or stopped answering, so
    /// that it must be restarted before another game.
    pub fn is_dead(&self) -> bool {
        self.dead.is_some()
    }

    /// Why the process must be restarted, where it must.
    pub fn dead_reason(&self) -> Option<&str> {
        self.dead.as_deref()
    }

    /// Mark the engine unusable (it overran its time and may still be
    /// searching, so a late `bestmove` would be mistaken for the next one).
    pub fn mark_unusable(&mut self, why: &str) {
        self.dead.get_or_insert_with(|| why.to_string());
    }

    /// Prepare for a new game: `ucinewgame`, then `isready` … `readyok`.
    /// A plugin failure said after the last game's last answer (an
    /// evaluator given up a second after the move it hung in was answered
    /// for it) is an error: the engine would play on with another
    /// evaluator than its own.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        let failed = self.drain();
        self.send("ucinewgame")?;
        self.send("isready")?;
        let seen = self.wait_for("readyok", HANDSHAKE_TIMEOUT)?;
        let failed = failed.or_else(|| {
            seen.iter()
                .find_map(|line| plugin_failure(line).map(str::to_string))
        });
        match failed {
            Some(what) => {
                self.mark_unusable("a plugin failed");
                Err(EngineError::PluginFailed {
                    name: self.name.clone(),
                    what,
                })
            }
            None => Ok(()),
        }
    }

    /// Send `position` and `go`, and wait up to `allowance` for `bestmove`.
    pub fn go(&mut self, position: &str, go: &str, allowance: Duration) -> Answer {
        if self.cancel.is_set() {
            return Answer::Interrupted;
        }
        // A plugin given up after the engine's last answer (an evaluator
        // hung in that move's search, answered for by plyd's watchdog a
        // second before it gave the plugin up): the move about to be asked
        // for would come from another evaluator.
        if let Some(what) = self.drain() {
            self.mark_unusable("a plugin failed");
            return Answer::PluginFailed { what };
        }
        if let Err(e) = self.send(position).and_then(|()| self.send(go)) {
            return Answer::Died {
                what: died_text(&e),
            };
        }
        let sent = Instant::now();
        let deadline = sent + allowance;
        let mut said = None;
        let mut score = None;
        let mut nodes = None;
        loop {
            match self.next_event(deadline) {
                Wait::Event(Event::Line(at, line)) => {
                    if let Some(error) = line.strip_prefix("info string error:") {
                        said = Some(error.trim().to_string());
                    }
                    if let Some(this) = info_score(&line) {
                        score = Some(this);
                    }
                    if let Some(this) = info_nodes(&line) {
                        nodes = Some(this);
                    }
                    if let Some(what) = plugin_failure(&line) {
                        // It answers all the same; that answer must not be
                        // taken for the next game's.
                        self.mark_unusable("a plugin failed");
                        return Answer::PluginFailed {
                            what: what.to_string(),
                        };
                    }
                    let mut words = line.split_whitespace();
                    if words.next() == Some("bestmove") {
                        return Answer::BestMove {
                            text: words.next().map(str::to_string),
                            elapsed: at.saturating_duration_since(sent),
                            said,
                            score,
                            nodes,
                        };
                    }
                }
                Wait::Event(Event::Closed) => {
                    let what = self.exit_text();
                    self.dead = Some(what.clone());
                    return Answer::Died { what };
                }
                Wait::Timeout => {
                    return Answer::Timeout {
                        waited: sent.elapsed(),
                    }
                }
                Wait::Interrupted => {
                    // It is searching: it must not be given another game.
                    self.mark_unusable("interrupted");
                    return Answer::Interrupted;
                }
            }
        }
    }

    /// The next thing seen on the engine's output before `deadline`, unless
    /// the match is interrupted first.
    fn next_event(&self, deadline: Instant) -> Wait {
        let timeout = deadline.saturating_duration_since(Instant::now());
        select! {
            recv(self.events) -> event => Wait::Event(event.unwrap_or(Event::Closed)),
            recv(self.cancel.receiver()) -> _ => Wait::Interrupted,
            default(timeout) => Wait::Timeout,
        }
    }

    /// Ask the engine to quit, and kill it if it does not.
    pub fn quit(mut self) {
        self.shut_down();
    }

    /// End the process: `quit` with a short grace if it is still usable,
    /// else at once.
    pub fn shut_down(&mut self) {
        if self.dead.is_none() {
            self.dead = Some("shut down".to_string());
            let _ = writeln!(self.stdin, "quit");
            let _ = self.stdin.flush();
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Write one line.
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("arena > {}: {line}", self.name);
        let result = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        result.map_err(|_| {
            let what = self.exit_text();
            self.dead = Some(what.clone());
            EngineError::Died {
                name: self.name.clone(),
                what,
            }
        })
    }

    /// Read lines until one equal to `expected`; return those before it.
    fn wait_for(
        &mut self,
        expected: &'static str,
        timeout: Duration,
    ) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.next_event(deadline) {
                Wait::Event(Event::Line(_, line)) => {
                    log::debug!("arena < {}: {line}", self.name);
                    if line.trim() == expected {
                        return Ok(seen);
                    }
                    seen.push(line);
                }
                Wait::Interrupted => {
                    self.mark_unusable("interrupted");
                    return Err(EngineError::Interrupted {
                        name: self.name.clone(),
                    });
                }
                Wait::Event(Event::Closed) => {
                    let what = self.exit_text();
                    self.dead = Some(what.clone());
                    // An engine of another protocol may end at `uci` (a
                    // UCCI engine takes it for a command it does not know):
                    // told as one that stays silent is.
                    let what = if expected == "uciok" {
                        format!(
                            "{what}, before its 'uciok'{}{}",
                            heard_text(&seen.pop()),
                            uci_hint(expected)
                        )
                    } else {
                        what
                    };
                    return Err(EngineError::Died {
                        name: self.name.clone(),
                        what,
                    });
                }
                Wait::Timeout => {
                    self.dead = Some(format!("no '{expected}'"));
                    return Err(EngineError::Silent {
                        name: self.name.clone(),
                        expected,
                        waited: timeout,
                        last: seen.pop(),
                    });
                }
            }
        }
    }

    /// Throw away lines already read (`info` lines of an earlier search);
    /// the first plugin failure among them, if any.
    fn drain(&mut self) -> Option<String> {
        let mut failure = None;
        while let Ok(Event::Line(_, line)) = self.events.try_recv() {
            if failure.is_none() {
                failure = plugin_failure(&line).map(str::to_string);
            }
        }
        failure
    }

    /// How the process ended, waiting briefly for the system to say.
    fn exit_text(&mut self) -> String {
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => return "closed its output".to_string(),
                Err(e) => return format!("cannot be waited for: {e}"),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Never leave a child behind, whatever ended the match.
        if let Ok(None) = self.child.try_wait() {
            self.shut_down();
        }
    }
}

/// What an engine that never answered said last: `; its last line was
/// '...'` (its first 100 characters), or nothing.
fn heard_text(last: &Option<String>) -> String {
    match last {
        Some(line) => {
            let shown: String = line.chars().take(100).collect();
            let more = if shown.len() < line.len() { "..." } else { "" };
            format!("; its last line was '{shown}{more}'")
        }
        None => "; it wrote nothing".to_string(),
    }
}

/// For an engine that never answered `uci`: the arena speaks UCI alone,
/// and where the programs of other protocols are played.
fn uci_hint(expected: &str) -> &'static str {
    if expected == "uciok" {
        " (the arena speaks UCI alone: Edax over GTP or NBoard, and UCCI \
         engines, are played by the match scripts of docs/protocols.md, Real clients)"
    } else {
        ""
    }
}

fn died_text(e: &EngineError) -> String {
    match e {
        EngineError::Died { what, .. } => what.clone(),
        other => other.to_string(),
    }
}

/// The variants listed by an `option name UCI_Variant type combo ... var ...`
/// line, if `line` is one.
fn variant_choices(line: &str) -> Option<Vec<String>> {
    let rest = line.strip_prefix("option name UCI_Variant ")?;
    let mut words = rest.split_whitespace();
    let mut vars = Vec::new();
    while let Some(word) = words.next() {
        if word == "var" {
            if let Some(v) = words.next() {
                vars.push(v.to_string());
            }
        }
    }
    Some(vars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_engine_is_quoted_with_its_last_line() {
        let silent = |last: Option<&str>| {
            EngineError::Silent {
                name: "b".into(),
                expected: "uciok",
                waited: Duration::from_secs(30),
                last: last.map(str::to_string),
            }
            .to_string()
        };
        assert_eq!(
            silent(Some("hello there")),
            "engine b: no 'uciok' within 30 s; its last line was 'hello there' (the arena \
             speaks UCI alone: Edax over GTP or NBoard, and UCCI engines, are played by the \
             match scripts of docs/protocols.md, Real clients)"
        );
        assert!(silent(None)
            .starts_with("engine b: no 'uciok' within 30 s; it wrote nothing (the arena"));
        let long = "x".repeat(150);
        assert!(silent(Some(&long)).contains(&format!("'{}...' (", "x".repeat(100))));
    }

    #[test]
    fn reads_the_variant_list() {
        assert_eq!(
            variant_choices(
                "option name UCI_Variant type combo default othello var othello var amazons"
            ),
            Some(vec!["othello".to_string(), "amazons".to_string()])
        );
        assert_eq!(
            variant_choices("option name UCI_Variant type string default chess"),
            Some(vec![])
        );
        assert_eq!(variant_choices("option name Hash type spin"), None);
    }

    #[test]
    fn reads_the_nodes_of_an_info_line() {
        for (line, nodes) in [
            (
                "info depth 12 score cp 34 nodes 100 nps 5 pv f5 d6",
                Some(100),
            ),
            ("info nodes 7", Some(7)),
            ("info depth 3 pv a1 nodes 9", None),
            ("info string nodes 3", None),
            ("info depth 3 score cp 1", None),
            ("bestmove f5", None),
        ] {
            assert_eq!(info_nodes(line), nodes, "{line}");
        }
    }

    #[test]
    fn reads_the_score_of_an_info_line() {
        for (line, score) in [
            (
                "info depth 12 seldepth 20 score cp 34 nodes 100 pv f5 d6",
                Some("34/12"),
            ),
            ("info depth 9 score mate -3 pv a1", Some("#-3/9")),
            ("info score cp -7 time 3", Some("-7")),
            ("info depth 5 multipv 1 score cp 2 pv d3", Some("2/5")),
            ("info depth 5 multipv 2 score cp 1 pv c4", None),
            ("info depth 5 score cp 20 lowerbound pv d3", None),
            ("info depth 5 score cp 20 upperbound", None),
            ("info depth 5 nodes 100", None),
            ("info string score cp 3", None),
            (
                "info depth 6 score cp 2794 nodes 0 pv f5 d6 string book",
                Some("2794/6"),
            ),
            (
                "info depth 6 score cp 5 string depth 9 score cp 7",
                Some("5/6"),
            ),
            ("info depth 5 score wdl 1 2 3", None),
            ("bestmove d3", None),
        ] {
            assert_eq!(info_score(line).as_deref(), score, "{line}");
        }
    }

    #[test]
    fn knows_plyds_words_for_a_failed_plugin() {
        use plyd_host::PluginError;
        for error in [
            PluginError::Panicked {
                plugin: "evaluator 'mine'".to_string(),
                entry: "evaluate",
            },
            PluginError::Garbage {
                plugin: "othello".to_string(),
                entry: "gen_moves",
                what: "a move count of -1".to_string(),
            },
        ] {
            let line = format!("info string error: {error}");
            assert_eq!(plugin_failure(&line), Some(error.to_string().as_str()));
        }
        // The watchdog's words for a call that never returned.
        assert!(plugin_failure(
            "info string error: plugin othello did not return from a call: the search was \
             given up after 5 s; the plugin is disabled until it is loaded again \
             (setoption name PluginPath)"
        )
        .is_some());
        for other in [
            "info string error: illegal move 'z9'",
            "info string evaluator 'mine' is disabled after a failure; using patterns",
            "info depth 3 score cp 10 pv f5",
        ] {
            assert_eq!(plugin_failure(other), None, "{other}");
        }
    }
}
