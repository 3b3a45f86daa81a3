//! The dialects the daemon speaks over one controller: UCI (the main one,
//! handled by the controller itself), UCCI, UGI, GTP, NBoard and Botzone.
//!
//! The first command chooses the dialect (`uci`, `ucci`, `ugi`, `nboard`,
//! a GTP command), unless `--protocol` chose it already (Botzone, which
//! sends no greeting, needs `--protocol botzone`). Each dialect is a
//! module that turns its lines into the controller's actions and the
//! search's events into its own replies; a line a dialect shares with UCI
//! is handed back to the controller as UCI text.

mod botzone;
mod gtp;
mod nboard;
mod ucci;
mod ugi;

use std::io::Write;

use plyd_protocol::{Info, Response, Score};

use super::Daemon;

/// A protocol the daemon speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
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

impl Dialect {
    /// The names `--protocol` takes.
    pub const NAMES: [&'static str; 6] = ["uci", "ucci", "ugi", "gtp", "nboard", "botzone"];

    /// The dialect called `name` (any case).
    pub fn parse(name: &str) -> Option<Dialect> {
        match name.to_ascii_lowercase().as_str() {
            "uci" => Some(Dialect::Uci),
            "ucci" => Some(Dialect::Ucci),
            "ugi" => Some(Dialect::Ugi),
            "gtp" => Some(Dialect::Gtp),
            "nboard" => Some(Dialect::NBoard),
            "botzone" => Some(Dialect::Botzone),
            _ => None,
        }
    }

    /// The dialect a first line asks for: its greeting, a GTP command, or
    /// UCI for anything else (so a UCI GUI that skips `uci` still works).
    fn from_first_line(line: &str) -> Dialect {
        let mut words = line.split_ascii_whitespace();
        let Some(first) = words.next() else {
            return Dialect::Uci;
        };
        match first {
            "ucci" => Dialect::Ucci,
            "ugi" => Dialect::Ugi,
            "nboard" => Dialect::NBoard,
            _ if gtp::is_gtp_start(line) => Dialect::Gtp,
            _ => Dialect::Uci,
        }
    }

    /// The game the dialect's community plays, started unless `--game`
    /// named one.
    fn default_game(self) -> Option<&'static str> {
        match self {
            Dialect::Ucci => Some("xiangqi"),
            Dialect::Gtp | Dialect::NBoard => Some("othello"),
            // Botzone's game comes with its first request.
            Dialect::Uci | Dialect::Ugi | Dialect::Botzone => None,
        }
    }
}

/// The dialect chosen so far and what each dialect keeps between lines.
#[derive(Clone)]
pub(super) struct DialectState {
    chosen: Option<Dialect>,
    game_given: bool,
    ucci: ucci::UcciState,
    gtp: gtp::GtpState,
    nboard: nboard::NBoardState,
    botzone: botzone::BotzoneState,
}

impl DialectState {
    /// Nothing chosen yet; `game_given`: the command line named a game.
    pub(super) fn new(game_given: bool) -> Self {
        DialectState {
            chosen: None,
            game_given,
            ucci: ucci::UcciState::default(),
            gtp: gtp::GtpState::default(),
            nboard: nboard::NBoardState::default(),
            botzone: botzone::BotzoneState::default(),
        }
    }
}

/// What became of a line.
pub(super) enum Routed {
    /// A dialect handled it; `false` means quit.
    Done(bool),
    /// UCI text for the controller.
    Uci(String),
}

impl<W: Write> Daemon<W> {
    /// Speak `dialect` from now on, switching to its game unless the
    /// command line chose one.
    pub(super) fn choose_dialect(&mut self, dialect: Dialect) {
        self.dialects.chosen = Some(dialect);
        if dialect == Dialect::Botzone {
            // Botzone runs a bot on one core.
            self.settings.threads = 1;
        }
        let Some(game) = dialect.default_game() else {
            return;
        };
        if self.dialects.game_given
            || self
                .session
                .current
                .as_ref()
                .is_some_and(|c| c.variant.name() == game)
        {
            return;
        }
        if let Err(e) = self.session.select_variant(game) {
            log::warn!("{dialect:?} plays {game}, which cannot be started: {e}");
        }
    }

    /// Pass `line` to the dialect spoken, choosing it first if need be.
    pub(super) fn dialect_line(&mut self, line: &str) -> Routed {
        let dialect = match self.dialects.chosen {
            Some(dialect) => dialect,
            None if line.trim().is_empty() => return Routed::Done(true),
            None => {
                let dialect = Dialect::from_first_line(line);
                self.choose_dialect(dialect);
                dialect
            }
        };
        match dialect {
            Dialect::Uci => Routed::Uci(line.to_string()),
            Dialect::Ucci => self.ucci_line(line),
            Dialect::Ugi => self.ugi_line(line),
            Dialect::Gtp => Routed::Done(self.gtp_line(line)),
            Dialect::NBoard => Routed::Done(self.nboard_line(line)),
            Dialect::Botzone => Routed::Done(self.botzone_line(line)),
        }
    }

    /// Wait for the running job, if any, to end, printing what it says:
    /// for the dialects whose commands are served in order.
    fn finish_job(&mut self) {
        self.wait_for_job(|_| true, None);
    }

    fn dialect(&self) -> Dialect {
        self.dialects.chosen.unwrap_or(Dialect::Uci)
    }

    /// A search's progress, in the dialect's form.
    pub(super) fn report_info(&mut self, info: Info) {
        match self.dialect() {
            Dialect::Uci | Dialect::Ugi => self.send(&Response::Info(info)),
            Dialect::Ucci => self.ucci_info(&info),
            // GTP has no room for progress: it goes to the log.
            Dialect::Gtp => log::info!("{}", Response::Info(info)),
            Dialect::NBoard => self.nboard_info(&info),
            Dialect::Botzone => log::debug!("{}", Response::Info(info)),
        }
    }

    /// A search's answer, in the dialect's form.
    pub(super) fn report_best(&mut self, best: Option<String>, ponder: Option<String>) {
        match self.dialect() {
            Dialect::Uci => self.send(&Response::BestMove { best, ponder }),
            // UGI arenas (Cute Games) read `bestmove M` and nothing after.
            Dialect::Ugi => self.send(&Response::BestMove { best, ponder: None }),
            Dialect::Ucci => self.ucci_best(best, ponder),
            Dialect::Gtp => self.gtp_best(best),
            Dialect::NBoard => self.nboard_best(best),
            Dialect::Botzone => self.botzone_best(best),
        }
    }

    /// A note on a command that worked (an evaluator loaded, more threads
    /// than cores), in the dialect's form: where the dialect has no line
    /// for it, it goes to the log.
    pub(super) fn report_note(&mut self, what: &str) {
        let what = &printable(what);
        match self.dialect() {
            Dialect::Uci | Dialect::Ugi => self.send(&Response::info_string(what.to_string())),
            Dialect::Ucci => self.raw(&format!("info message {}", one_line(what))),
            Dialect::Gtp | Dialect::NBoard | Dialect::Botzone => log::info!("{what}"),
        }
    }

    /// A refused line or a failure, in the dialect's form.
    pub(super) fn report_error(&mut self, what: &str) {
        let what = &printable(what);
        match self.dialect() {
            Dialect::Uci | Dialect::Ugi => {
                self.send(&Response::info_string(format!("error: {what}")))
            }
            Dialect::Ucci => self.raw(&format!("info message error: {}", one_line(what))),
            Dialect::Gtp => self.gtp_error(what),
            Dialect::NBoard => self.raw(&format!("status error: {}", one_line(what))),
            // stdout carries only answers for the judge; stderr is the
            // bot's log on Botzone.
            Dialect::Botzone => log::error!("{what}"),
        }
    }
}

/// `text` with line breaks made spaces.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// Longest error text shown, in characters: a message quoting a megabyte
/// of input shows its start and says how long it was.
const MAX_ERROR_CHARS: usize = 300;

/// An error text fit for one protocol line: control characters (which
/// input lines may carry, and which a GUI may take for line ends) written
/// as `\x1c` or `\u{85}`, and anything past [`MAX_ERROR_CHARS`] cut.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_ERROR_CHARS + 40));
    for (shown, c) in text.chars().enumerate() {
        if shown == MAX_ERROR_CHARS {
            out.push_str(&format!("... ({} bytes in all)", text.len()));
            break;
        }
        if c.is_control() {
            match u32::from(c) {
                n @ 0..=0x7f => out.push_str(&format!("\\x{n:02x}")),
                n => out.push_str(&format!("\\u{{{n:x}}}")),
            }
        } else {
            out.push(c);
        }
    }
    out
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
        assert!(shown.ends_with("... (1000006 bytes in all)"), "{shown}");
        assert_eq!(printable("plain"), "plain");
    }
}
