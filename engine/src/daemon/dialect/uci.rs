//! UCI, with plyd's extensions (`go perft`, `d`, `eval`, `bench`): the
//! dialect of chess-style GUIs, and the commands UCCI and UGI share with
//! it ([`command`]).

use plyd_protocol::{parse_line, Command, Info, ParseError, Response};

use super::{report, search, Dialect};
use crate::daemon::controller::{ControlError, Controller};

/// The UCI dialect. It keeps nothing between lines.
#[derive(Clone)]
pub(super) struct Uci;

/// `id name` and `id author`, as UCI and UGI say them.
pub(super) fn identify(ctl: &mut Controller) {
    ctl.send(&Response::IdName(format!(
        "plyd {}",
        env!("CARGO_PKG_VERSION")
    )));
    ctl.send(&Response::IdAuthor("the plyd developers".to_string()));
    for decl in ctl.option_decls() {
        ctl.send(&Response::Option(decl));
    }
}

/// `help`'s notes: the commands, for a person at a terminal.
pub(super) const HELP: [&str; 6] = [
    "commands (lower case): uci, isready, ucinewgame, setoption name NAME value VALUE, \
     position startpos|fen TEXT [moves M1 M2 ...], go, stop, ponderhit, quit",
    "go takes depth N, nodes N, movetime MS, wtime/btime/winc/binc MS, movestogo N, \
     mate N, searchmoves M..., ponder, infinite; a go with none of them runs until stop",
    "plyd's own: d (the board, its position text and legal moves), eval (the evaluation \
     term by term), go perft N (move counts), bench [GAME] [DEPTH]",
    "uci lists the options; setoption name UCI_Variant value GAME changes the game",
    "a weaker or faster game: go depth 2, go nodes 5000 or go movetime 500; \
     setoption name Variety value 300 varies the moves",
    "playing by hand, the options and the games: README.md and docs/ (docs/options.md)",
];

/// Read a UCI line and carry it out for `voice`; `false` means quit.
pub(super) fn line(ctl: &mut Controller, voice: &mut dyn Dialect, line: &str) -> bool {
    match parse_line(line) {
        Ok(Some(parsed)) => command(ctl, voice, parsed),
        Ok(None) => true,
        Err(e) => {
            unreadable(ctl, voice, &e);
            true
        }
    }
}

/// Report a line that could not be read. Every go gets exactly one
/// bestmove, even one that could not be read (a running search gives its
/// own).
pub(super) fn unreadable(ctl: &mut Controller, voice: &mut dyn Dialect, e: &ParseError) {
    voice.error(ctl, &e.to_string());
    if e.refused_a_position() {
        ctl.session.refuse_position(e.to_string());
    }
    if e.refused_a_search() && !ctl.searching() {
        voice.best(ctl, None, None);
    }
    if e.refused_a_perft() && !ctl.searching() {
        ctl.raw("Nodes searched: 0");
    }
}

/// Carry out a UCI command for `voice`, which reports in its own words;
/// `false` means quit.
pub(super) fn command(ctl: &mut Controller, voice: &mut dyn Dialect, command: Command) -> bool {
    match command {
        Command::Uci => {
            identify(ctl);
            ctl.send(&Response::UciOk);
        }
        Command::Debug(on) => ctl.debug = on,
        Command::IsReady => ctl.ready(voice),
        Command::SetOption { name, value } => {
            let result = ctl.set_option(voice, &name, value.as_deref());
            report(ctl, voice, result);
        }
        Command::Register(_) => {}
        Command::UciNewGame => {
            let result = ctl.new_game(voice);
            report(ctl, voice, result);
        }
        Command::Position { start, moves } => {
            let result = ctl.set_position(&start, &moves);
            report(ctl, voice, result);
        }
        Command::Go(go) => search(ctl, voice, &go, None),
        Command::Perft { depth } => {
            let result = ctl.perft(voice, depth);
            report_count(ctl, voice, result);
        }
        Command::Stop => ctl.stop_job(),
        Command::PonderHit => ctl.ponderhit(),
        Command::Quit => return false,
        Command::Display => match ctl.display() {
            Ok(lines) => {
                for line in lines {
                    ctl.raw(&line);
                }
            }
            Err(e) => voice.error(ctl, &e.to_string()),
        },
        Command::Eval => {
            let mut evaluated = ctl.eval();
            if let Err(e) = &evaluated {
                voice.error(ctl, &e.to_string());
                // An evaluator plugin the call disabled gives way (said):
                // the evaluation asked for is the one now in use.
                if ctl.replace_failed_evaluator(voice) {
                    evaluated = ctl.eval();
                    if let Err(e) = &evaluated {
                        voice.error(ctl, &e.to_string());
                    }
                }
            }
            // As the dialect writes its notes (UCCI: `info message`).
            for line in evaluated.unwrap_or_default() {
                voice.note(ctl, &format!("eval {line}"));
            }
        }
        Command::Help => {
            for line in voice.help() {
                voice.note(ctl, line);
            }
        }
        Command::Bench {
            game,
            depth,
            skipped,
        } => {
            if !skipped.is_empty() {
                voice.error(
                    ctl,
                    &format!(
                        "bench: {} skipped: bench takes one game and one depth",
                        super::quoted_words(&skipped)
                    ),
                );
            }
            let result = ctl.bench(voice, game.as_deref(), depth);
            report_count(ctl, voice, result);
        }
    }
    true
}

/// Report a perft's or a bench's start: one that cannot start ends, as
/// every perft and bench does, with its count (none, after the error
/// line: a tool waiting for the line would wait for ever), one refused
/// for a search that runs included (that search ends with a `bestmove`,
/// no count; a perft or bench running is waited for, not refused).
fn report_count(ctl: &mut Controller, voice: &mut dyn Dialect, result: Result<(), ControlError>) {
    let counted_none = result.is_err();
    report(ctl, voice, result);
    if counted_none {
        ctl.raw("Nodes searched: 0");
    }
}

impl Dialect for Uci {
    fn line(&mut self, ctl: &mut Controller, text: &str) -> bool {
        line(ctl, self, text)
    }

    fn info(&mut self, ctl: &mut Controller, info: Info) {
        ctl.send(&Response::Info(info));
    }

    fn best(&mut self, ctl: &mut Controller, best: Option<String>, ponder: Option<String>) {
        ctl.send(&Response::BestMove { best, ponder });
    }

    fn write_note(&mut self, ctl: &mut Controller, text: &str) {
        ctl.send(&Response::info_string(text.to_string()));
    }

    fn write_error(&mut self, ctl: &mut Controller, text: &str) {
        ctl.send(&Response::info_string(format!("error: {text}")));
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}
