//! UGI over the controller: the game-agnostic UCI of arenas that run many
//! games.
//!
//! UGI is UCI with `ugi`/`ugiok` and `uginewgame`, clocks named after the
//! first and second player (`p1time`, `p2time`, `p1inc`, `p2inc`; plyd's
//! side 0 is the first player), and `query` for the arena to ask the engine
//! about the game (`response true|false` for `p1turn` and `gameover`,
//! `response p1win|p2win|draw|none` for `result`). Every other line is UCI.

use std::io::Write;

use plyd_protocol::{OptionDecl, Response};

use super::Routed;
use crate::daemon::Daemon;
use crate::host::Outcome;

impl<W: Write> Daemon<W> {
    pub(super) fn ugi_line(&mut self, line: &str) -> Routed {
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        match tokens.as_slice() {
            ["ugi", ..] => {
                self.ugi_identify();
                Routed::Done(true)
            }
            ["uginewgame", rest @ ..] => Routed::Uci(format!("ucinewgame {}", rest.join(" "))),
            ["query", what, ..] => {
                match self.ugi_query(what) {
                    Ok(answer) => self.raw(&format!("response {answer}")),
                    Err(e) => self.error(&e),
                }
                Routed::Done(true)
            }
            ["query"] => {
                self.error("'query' needs p1turn, gameover or result");
                Routed::Done(true)
            }
            ["go", rest @ ..] => {
                let renamed: Vec<&str> = rest
                    .iter()
                    .map(|t| match *t {
                        "p1time" => "wtime",
                        "p2time" => "btime",
                        "p1inc" => "winc",
                        "p2inc" => "binc",
                        other => other,
                    })
                    .collect();
                Routed::Uci(format!("go {}", renamed.join(" ")))
            }
            _ => Routed::Uci(line.to_string()),
        }
    }

    fn ugi_identify(&mut self) {
        self.send(&Response::IdName(format!(
            "plyd {}",
            env!("CARGO_PKG_VERSION")
        )));
        self.send(&Response::IdAuthor("the plyd developers".to_string()));
        let decls: Vec<OptionDecl> = self.option_decls();
        for decl in decls {
            self.send(&Response::Option(decl));
        }
        self.raw("ugiok");
    }

    fn ugi_query(&self, what: &str) -> Result<&'static str, String> {
        let (side, outcome) = self
            .session
            .ask_position(|state| Ok((state.side_to_move()?, state.outcome()?)))?;
        Ok(match what {
            "p1turn" if side == 0 => "true",
            "p1turn" => "false",
            "gameover" if outcome == Outcome::Ongoing => "false",
            "gameover" => "true",
            "result" => match (outcome, side) {
                (Outcome::Ongoing, _) => "none",
                (Outcome::Draw, _) => "draw",
                (Outcome::Win, 0) | (Outcome::Loss, 1) => "p1win",
                (Outcome::Win, _) | (Outcome::Loss, _) => "p2win",
            },
            other => {
                return Err(format!(
                    "unknown query '{other}' (p1turn, gameover or result)"
                ))
            }
        })
    }
}
