//! The dialects the daemon speaks over one controller: UCI (with plyd's
//! extensions), UCCI, UGI, GTP, NBoard and Botzone.
//!
//! Each is a type implementing [`Dialect`]: it owns what its protocol keeps
//! between lines, reads its lines (parsed by its text module in
//! `plyd-protocol`) into calls on the [`Controller`], and writes what the
//! controller and the search report — progress, the answer, notes and
//! errors — in its own words. The first command chooses the dialect
//! (`uci`, `ucci`, `ugi`, `nboard`, a GTP command), unless `--protocol`
//! chose it already (Botzone, which sends no greeting, needs `--protocol
//! botzone`).

mod botzone;
mod gtp;
mod nboard;
mod ucci;
mod uci;
mod ugi;

use plyd_protocol::{GoParams, Info, Score};

use super::controller::{ControlError, Controller};
use crate::host::GameState;
pub use plyd_util::text::printable;
#[cfg(test)]
use plyd_util::text::MAX_ERROR_CHARS;

/// A protocol the daemon speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// UCI, with plyd's extensions.
    Uci,
    /// UCCI 3.0 (xiangqi).
    Ucci,
    /// UGI, the game-agnostic UCI.
    Ugi,
    /// GTP version 2 (Othello).
    Gtp,
    /// NBoard version 2 (Othello).
    NBoard,
    /// Botzone's bot input and output (Amazons 8x8, Reversi).
    Botzone,
}

impl Protocol {
    /// The names `--protocol` takes.
    pub const NAMES: [&'static str; 6] = ["uci", "ucci", "ugi", "gtp", "nboard", "botzone"];

    /// The protocol called `name` (any case).
    pub fn parse(name: &str) -> Option<Protocol> {
        match name.to_ascii_lowercase().as_str() {
            "uci" => Some(Protocol::Uci),
            "ucci" => Some(Protocol::Ucci),
            "ugi" => Some(Protocol::Ugi),
            "gtp" => Some(Protocol::Gtp),
            "nboard" => Some(Protocol::NBoard),
            "botzone" => Some(Protocol::Botzone),
            _ => None,
        }
    }

    /// The protocol a first line asks for: its greeting, a GTP command, or
    /// UCI for anything else (so a UCI GUI that skips `uci` still works).
    pub(super) fn from_first_line(line: &str) -> Protocol {
        match line.split_ascii_whitespace().next() {
            Some("ucci") => Protocol::Ucci,
            Some("ugi") => Protocol::Ugi,
            Some("nboard") => Protocol::NBoard,
            _ if plyd_protocol::gtp::is_gtp_start(line) => Protocol::Gtp,
            _ => Protocol::Uci,
        }
    }

    /// The dialect that speaks this protocol, fresh, with the controller
    /// set up for it: the game its community plays, unless the command
    /// line chose one (Botzone's game comes with its first request), and
    /// Botzone's one thread.
    pub(super) fn start(self, ctl: &mut Controller) -> Box<dyn Dialect> {
        match self {
            Protocol::Ucci => ctl.play_dialect_game("xiangqi"),
            // Their commands are Othello's (GTP's `list_games`, NBoard's
            // GGF): a game given for the daemon gives way.
            Protocol::Gtp | Protocol::NBoard => ctl.play_only_game("othello"),
            // Botzone runs a bot on one core.
            Protocol::Botzone => {
                if ctl.settings.threads > 1 {
                    log::warn!(
                        "Threads {}: Botzone runs a bot on one core, so its searches use one thread",
                        ctl.settings.threads
                    );
                }
                ctl.settings.threads = 1;
                // A bot that can play neither game would answer no turn
                // and lose each on time: it says why and ends at once.
                let game_named = ctl
                    .game_given
                    .then(|| ctl.session.current().ok())
                    .flatten()
                    .map(|c| c.variant.name().to_string());
                if let Err(e) = botzone::a_game_is_loaded(ctl)
                    .and_then(|()| botzone::the_evaluator_is_offered(ctl, game_named.as_deref()))
                    .and_then(|()| botzone::the_params_are_read(ctl))
                {
                    log::error!("{e}");
                    crate::logpipe::exit(2);
                }
            }
            Protocol::Uci | Protocol::Ugi => {}
        }
        match self {
            Protocol::Uci => Box::new(uci::Uci::default()),
            Protocol::Ucci => Box::<ucci::Ucci>::default(),
            Protocol::Ugi => Box::new(ugi::Ugi),
            Protocol::Gtp => Box::<gtp::Gtp>::default(),
            Protocol::NBoard => Box::<nboard::NBoard>::default(),
            Protocol::Botzone => Box::new(botzone::Botzone::new(ctl.game_given)),
        }
    }
}

/// A protocol spoken over the controller.
pub(crate) trait Dialect: Send {
    /// Handle one input line; `false` means quit.
    fn line(&mut self, ctl: &mut Controller, line: &str) -> bool;

    /// A search's progress.
    fn info(&mut self, ctl: &mut Controller, info: Info);

    /// A search's answer: its move (`None` when it has none) and the reply
    /// it expects.
    fn best(&mut self, ctl: &mut Controller, best: Option<String>, ponder: Option<String>);

    /// A note on a command that worked (an evaluator loaded, more threads
    /// than cores), already made one printable line.
    fn write_note(&mut self, ctl: &mut Controller, text: &str);

    /// A refused line or a failure, already made one printable line.
    fn write_error(&mut self, ctl: &mut Controller, text: &str);

    /// A copy, for the sentry's checkpoint before each line.
    fn boxed_clone(&self) -> Box<dyn Dialect>;

    /// What `help` says, a note a line: UCI's commands unless the
    /// dialect has its own words.
    fn help(&self) -> &'static [&'static str] {
        &uci::HELP
    }

    /// Whether this dialect's errors go to the log (Botzone's, which has
    /// no channel back): the start's problems, logged as they were found,
    /// are then not told again.
    fn errors_go_to_the_log(&self) -> bool {
        false
    }

    /// The input has ended (before the job, if any, is finished): a
    /// dialect whose input was cut off mid-request says so.
    fn end_of_input(&mut self, _ctl: &mut Controller) {}

    /// Whether the end of input lets a running search end by its own
    /// limits and answer, rather than stopping it. A GUI whose input ends
    /// has gone (UCI and the others: stop at once); a Botzone judge may
    /// close a bot's input once the turn is written, and still waits for
    /// the answer.
    fn answers_after_end_of_input(&self) -> bool {
        false
    }

    /// Whether the dialect times its turns itself from when their input
    /// came, the time taken before the search (a fresh process's plugins
    /// loaded) counted in its `movetime` (Botzone's): a late start is then
    /// not the GUI's to mend, and not warned of.
    fn times_its_own_turns(&self) -> bool {
        false
    }

    /// An input line too long to be read, skipped: told as an error,
    /// where a dialect that answers every command (GTP) answers it.
    fn skipped_line(&mut self, ctl: &mut Controller, text: &str) {
        self.error(ctl, text);
    }

    /// A note on a command that worked.
    fn note(&mut self, ctl: &mut Controller, text: &str) {
        self.write_note(ctl, &printable(text));
    }

    /// A refused line or a failure.
    fn error(&mut self, ctl: &mut Controller, text: &str) {
        log::debug!("{text}");
        self.write_error(ctl, &printable(text));
    }
}

/// A dialect that keeps what it would say: for the options set as the
/// daemon starts, before any line of the GUI's (told after its first).
#[derive(Clone, Default)]
pub(crate) struct Collected {
    pub notes: Vec<String>,
    pub errors: Vec<String>,
}

impl Dialect for Collected {
    fn line(&mut self, _ctl: &mut Controller, _line: &str) -> bool {
        true
    }

    fn info(&mut self, _ctl: &mut Controller, _info: Info) {}

    fn best(&mut self, _ctl: &mut Controller, _best: Option<String>, _ponder: Option<String>) {}

    fn write_note(&mut self, _ctl: &mut Controller, text: &str) {
        self.notes.push(text.to_string());
    }

    fn write_error(&mut self, _ctl: &mut Controller, text: &str) {
        self.errors.push(text.to_string());
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Dialect> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// Start a search for `voice`, from `root` or the current position. A
/// refusal is reported, and a search request that still owes its answer
/// gets one with no move; a refusal because a search already runs leaves
/// the answer to that search.
pub(super) fn search(
    ctl: &mut Controller,
    voice: &mut dyn Dialect,
    go: &GoParams,
    root: Option<GameState>,
) {
    let bare = !go.has_a_limit() && !go.infinite && !go.ponder;
    if bare && go.skipped.is_empty() && go.search_moves.is_empty() {
        // A person typing `go` waits for an answer that does not come.
        voice.note(
            ctl,
            "go: no limit given (depth, nodes, movetime, a clock): this search runs until stop, \
             as go infinite does",
        );
    }
    if !go.skipped.is_empty() {
        let endless = if bare {
            ": no limit is left, so this search runs until stop"
        } else {
            ""
        };
        voice.error(
            ctl,
            &format!(
                "go: {} skipped, not a go keyword or its value{endless}",
                quoted_words(&go.skipped)
            ),
        );
    }
    // A `go` with no limit at all searches until `stop`, as `go infinite`
    // does: it does not end at a forced move or a result already seen,
    // which an analysing GUI would take for an answer it did not ask for.
    let endless;
    let go = if bare {
        endless = GoParams {
            infinite: true,
            ..go.clone()
        };
        &endless
    } else {
        go
    };
    if let Err(e) = ctl.go(voice, go, root) {
        voice.error(ctl, &e.to_string());
        if e.owes_an_answer() {
            voice.best(ctl, None, None);
        }
    }
}

/// Report `result`'s error, if any.
pub(super) fn report(
    ctl: &mut Controller,
    voice: &mut dyn Dialect,
    result: Result<(), ControlError>,
) {
    if let Err(e) = result {
        voice.error(ctl, &e.to_string());
    }
}

/// `text` with line breaks made spaces.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// Words in quotes, joined by commas: `'foo', '7'`.
pub(super) fn quoted_words(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    quoted.join(", ")
}

/// The score of the main line of an `info`, if it has one.
fn main_line_score(info: &Info) -> Option<Score> {
    if info.multipv.is_some_and(|n| n > 1) {
        return None;
    }
    info.score.map(|(score, _)| score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_text_is_one_printable_line_of_bounded_length() {
        assert_eq!(
            printable("bad 'a\rb\x1c\u{85}'"),
            "bad 'a\\x0db\\x1c\\u{85}'"
        );
        let long = format!("bad '{}'", "x".repeat(1_000_000));
        let shown = printable(&long);
        assert!(shown.len() < 400, "{}", shown.len());
        assert!(shown.ends_with("x... (1000000 bytes in all)'"), "{shown}");
        assert_eq!(printable("plain"), "plain");
        // A long quotation keeps the reason after it, with the length of
        // what was quoted; one quoted twice is cut twice.
        let input = format!("8/8 b {}", "junk ".repeat(100));
        let twice = format!(
            "bad position '{input}': unexpected text after the side to move; no position until '{input}' is fixed"
        );
        let shown = printable(&twice);
        assert!(shown.len() < 800, "{}", shown.len());
        assert!(
            shown.contains("... (506 bytes in all)': unexpected text after the side to move; no position until '"),
            "{shown}"
        );
        assert!(
            shown.ends_with("... (506 bytes in all)' is fixed"),
            "{shown}"
        );
        // A quote inside the input does not end the quotation.
        let inner = format!("bad '{}x'y {}'", "a".repeat(400), "b".repeat(10));
        assert!(
            printable(&inner).ends_with("... (414 bytes in all)'"),
            "{}",
            printable(&inner)
        );
        // A word as long (a path quoted without marks) is cut alike, the
        // reason after it kept.
        let bare = "y".repeat(5000);
        assert!(printable(&bare).ends_with("... (5000 bytes in all)"));
        assert!(printable(&bare).len() < 400);
        let path = format!("eval params /tmp/{}.toml: no such file", "y".repeat(5000));
        let shown = printable(&path);
        assert!(
            shown.ends_with("y... (5010 bytes in all): no such file") && shown.len() < 400,
            "{shown}"
        );
        // Past MAX_ERROR_CHARS of short words, the whole text is cut.
        let words = "yy ".repeat(2000);
        assert!(printable(&words).ends_with("... (6000 bytes in all)"));
        assert!(printable(&words).len() < MAX_ERROR_CHARS + 40);
    }
}
