//! UGI over the controller: the game-agnostic UCI of arenas that run many
//! games (its text: [`plyd_protocol::parse_ugi_line`]). plyd's side 0 is
//! the first player; `query` is answered `response true|false` for
//! `p1turn` and `gameover`, `response p1win|p2win|draw|none` for `result`;
//! a search answers `bestmove <move>` alone. Everything else is UCI's,
//! in UCI's words.

use plyd_protocol::{parse_ugi_line, Info, UgiCommand, UgiQuery};

use super::{report, uci, Dialect};
use crate::daemon::controller::Controller;
use crate::host::Outcome;

/// The UGI dialect. It keeps nothing between lines.
#[derive(Clone)]
pub(super) struct Ugi;

impl Ugi {
    fn query(ctl: &Controller, what: UgiQuery) -> Result<&'static str, String> {
        let (side, outcome) = ctl
            .session
            .ask_position(|state| Ok((state.side_to_move()?, state.outcome()?)))?;
        Ok(match what {
            UgiQuery::P1Turn if side == 0 => "true",
            UgiQuery::P1Turn => "false",
            UgiQuery::GameOver if outcome == Outcome::Ongoing => "false",
            UgiQuery::GameOver => "true",
            UgiQuery::Result => match (outcome, side) {
                (Outcome::Ongoing, _) => "none",
                (Outcome::Draw, _) => "draw",
                (Outcome::Win, 0) | (Outcome::Loss, 1) => "p1win",
                (Outcome::Win, _) | (Outcome::Loss, _) => "p2win",
            },
        })
    }
}

/// What `help` says in UGI.
const UGI_HELP: [&str; 5] = [
    "commands (lower case): ugi, isready, uginewgame, setoption name NAME value VALUE, \
     position startpos|fen TEXT [moves M1 M2 ...], go, stop, query p1turn|gameover|result, quit",
    "go takes p1time/p2time/p1inc/p2inc MS, movestogo N, depth N, nodes N, movetime MS, \
     searchmoves M..., infinite; a go with none of them runs until stop",
    "plyd's own: d (the board, its position text and legal moves), eval (the evaluation \
     term by term), go perft N (move counts), bench [GAME] [DEPTH]",
    "ugi lists the options; setoption name UCI_Variant value GAME changes the game",
    "the options and the protocol's details: README.md and docs/ (docs/protocols.md)",
];

impl Dialect for Ugi {
    fn help(&self) -> &'static [&'static str] {
        &UGI_HELP
    }

    fn line(&mut self, ctl: &mut Controller, line: &str) -> bool {
        let command = match parse_ugi_line(line) {
            Ok(Some(command)) => command,
            Ok(None) => return true,
            Err(e) => {
                uci::unreadable(ctl, self, &e);
                // A runner waits for the query's `response`: one that
                // cannot be read still gets one, `none`.
                if line.split_ascii_whitespace().next() == Some("query") {
                    ctl.raw("response none");
                }
                return true;
            }
        };
        match command {
            UgiCommand::Ugi => {
                uci::identify(ctl);
                ctl.raw("ugiok");
            }
            UgiCommand::NewGame => {
                let result = ctl.new_game(self);
                report(ctl, self, result);
            }
            // A query that cannot be answered (no position) is told in
            // one error line and answered `response none`, so that a runner
            // waiting for its response does not wait for ever.
            UgiCommand::Query(what) => match Ugi::query(ctl, what) {
                Ok(answer) => ctl.raw(&format!("response {answer}")),
                Err(e) => {
                    self.error(ctl, &e);
                    ctl.raw("response none");
                }
            },
            UgiCommand::Uci(command) => return uci::command(ctl, self, command),
        }
        true
    }

    fn info(&mut self, ctl: &mut Controller, info: Info) {
        uci::Uci::default().info(ctl, info);
    }

    fn best(&mut self, ctl: &mut Controller, best: Option<String>, _ponder: Option<String>) {
        // UGI arenas (Cute Games) read `bestmove M` and nothing after.
        uci::Uci::default().best(ctl, best, None);
    }

    fn write_note(&mut self, ctl: &mut Controller, text: &str) {
        uci::Uci::default().write_note(ctl, text);
    }

    fn write_error(&mut self, ctl: &mut Controller, text: &str) {
        uci::Uci::default().write_error(ctl, text);
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}
