//! UGI, the game-agnostic UCI of arenas that run many games (Cute Games):
//! its lines parsed into [`UgiCommand`].
//!
//! UGI is UCI with `ugi`/`ugiok` and `uginewgame`, clocks named after the
//! first and second player (`p1time`, `p2time`, `p1inc`, `p2inc`; UCI's
//! `wtime` and the rest are read too), and `query` for the arena to ask
//! the engine about the game (`p1turn`, `gameover`, `result`). Every other
//! line is UCI. The engine answers `bestmove <move>` with nothing after
//! it: Cute Games reads no more.

use crate::command::{parse_line_with_clocks, Command, ParseError};

/// One UGI command.
#[derive(Debug, Clone, PartialEq)]
pub enum UgiCommand {
    /// `ugi`: identify, list options, then `ugiok`.
    Ugi,
    /// `uginewgame`.
    NewGame,
    /// `query <what>`: answered `response ...`.
    Query(UgiQuery),
    /// A line UGI shares with UCI, `go` with its clocks read.
    Uci(Command),
}

/// What a `query` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UgiQuery {
    /// `p1turn`: whether the first player is to move.
    P1Turn,
    /// `gameover`: whether the game has ended.
    GameOver,
    /// `result`: `p1win`, `p2win`, `draw` or `none`.
    Result,
}

/// UGI's clock words as UCI's.
fn uci_clock(word: &str) -> &str {
    match word {
        "p1time" => "wtime",
        "p2time" => "btime",
        "p1inc" => "winc",
        "p2inc" => "binc",
        other => other,
    }
}

/// Parse one UGI line; `Ok(None)` for a blank line.
pub fn parse_ugi_line(line: &str) -> Result<Option<UgiCommand>, ParseError> {
    let mut words = line.split_ascii_whitespace();
    Ok(Some(match words.next() {
        None => return Ok(None),
        Some("ugi") => UgiCommand::Ugi,
        Some("uginewgame") => UgiCommand::NewGame,
        Some("query") => UgiCommand::Query(match words.next() {
            Some("p1turn") => UgiQuery::P1Turn,
            Some("gameover") => UgiQuery::GameOver,
            Some("result") => UgiQuery::Result,
            Some(other) => {
                return Err(ParseError::InvalidValue {
                    command: "query",
                    keyword: "what",
                    value: other.to_string(),
                    expected: "p1turn, gameover or result",
                })
            }
            None => {
                return Err(ParseError::MissingArgument {
                    command: "query",
                    what: "p1turn, gameover or result",
                })
            }
        }),
        Some(_) => match parse_line_with_clocks(line, uci_clock)? {
            Some(command) => UgiCommand::Uci(command),
            None => return Ok(None),
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GoParams;

    #[test]
    fn ugi_lines_read_as_their_commands() {
        assert_eq!(parse_ugi_line("ugi"), Ok(Some(UgiCommand::Ugi)));
        assert_eq!(parse_ugi_line("uginewgame"), Ok(Some(UgiCommand::NewGame)));
        assert_eq!(
            parse_ugi_line("query gameover"),
            Ok(Some(UgiCommand::Query(UgiQuery::GameOver)))
        );
        assert!(parse_ugi_line("query colour").is_err());
        assert!(parse_ugi_line("query").is_err());
        assert_eq!(parse_ugi_line("  "), Ok(None));
        let go = GoParams {
            wtime: Some(1000),
            btime: Some(2000),
            winc: Some(10),
            binc: Some(20),
            search_moves: vec!["a1".into()],
            ..GoParams::default()
        };
        assert_eq!(
            parse_ugi_line("go searchmoves a1 p1time 1000 p2time 2000 p1inc 10 p2inc 20"),
            Ok(Some(UgiCommand::Uci(Command::Go(go.clone()))))
        );
        assert_eq!(
            parse_ugi_line("go searchmoves a1 wtime 1000 btime 2000 winc 10 binc 20"),
            Ok(Some(UgiCommand::Uci(Command::Go(go))))
        );
        assert_eq!(
            parse_ugi_line("isready"),
            Ok(Some(UgiCommand::Uci(Command::IsReady)))
        );
    }
}
