//! NBoard protocol text (version 2), for Othello GUIs: its lines parsed
//! into [`NBoardCommand`], its moves (`F5`, `PA`) turned into plyd's
//! Othello moves and back, and scores into discs.

use crate::response::Score;

/// One NBoard command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NBoardCommand<'a> {
    /// `nboard <version>`.
    NBoard,
    /// `set depth <n>`.
    SetDepth(u32),
    /// `set game <GGF>`: the text after `game`.
    SetGame(&'a str),
    /// `set <anything else>` (contempt, later versions' settings): read
    /// and left alone, as the protocol asks of what an engine lacks.
    SetOther,
    /// `move <square>[/eval[/seconds]]`.
    Move(&'a str),
    /// `hint <n>`: the n best moves.
    Hint(u32),
    /// `go`: the move the engine would play.
    Go,
    /// `ping <n>`: answered `pong <n>`.
    Ping(&'a str),
    /// `learn`.
    Learn,
    /// `analyze`.
    Analyze,
    /// `quit`.
    Quit,
}

/// Why an NBoard line was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NBoardError {
    /// A command NBoard does not have.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// `move` without its move.
    #[error("'move' needs a move")]
    NoMove,
    /// `set depth` without a positive number.
    #[error("'set depth' needs a depth, a whole number from 1 to 4294967295")]
    BadDepth,
    /// `hint` with something other than a positive number.
    #[error("'hint' needs a number of lines, a whole number from 1 to 4294967295")]
    BadHint,
    /// `move` whose evaluation or time is not a number.
    #[error("'move {0}': a move is written square[/eval[/seconds]], eval a number and seconds one of 0 or more")]
    BadMove(String),
    /// `set` alone.
    #[error("'set' needs a setting")]
    NoSetting,
}

/// Read an NBoard line; `Ok(None)` for a blank one.
pub fn parse_nboard_line(line: &str) -> Result<Option<NBoardCommand<'_>>, NBoardError> {
    let mut words = line.split_ascii_whitespace();
    let Some(command) = words.next() else {
        return Ok(None);
    };
    Ok(Some(match command {
        "nboard" => NBoardCommand::NBoard,
        "set" => match words.next() {
            Some("depth") => NBoardCommand::SetDepth(
                words
                    .next()
                    .and_then(|d| d.parse::<u32>().ok())
                    .filter(|&d| d > 0)
                    .ok_or(NBoardError::BadDepth)?,
            ),
            Some("game") => {
                NBoardCommand::SetGame(line.split_once("game").map_or("", |(_, rest)| rest))
            }
            Some(_) => NBoardCommand::SetOther,
            None => return Err(NBoardError::NoSetting),
        },
        "move" => {
            let text = words.next().ok_or(NBoardError::NoMove)?;
            if !annotations_read(text) {
                return Err(NBoardError::BadMove(text.to_string()));
            }
            NBoardCommand::Move(text)
        }
        "hint" => NBoardCommand::Hint(match words.next() {
            None => 1,
            Some(n) => n
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(NBoardError::BadHint)?,
        }),
        "go" => NBoardCommand::Go,
        "ping" => NBoardCommand::Ping(words.next().unwrap_or("0")),
        "learn" => NBoardCommand::Learn,
        "analyze" => NBoardCommand::Analyze,
        "quit" => NBoardCommand::Quit,
        other => return Err(NBoardError::Unknown(other.to_string())),
    }))
}

/// Whether a move's `/eval/seconds`, each of which may be left empty, are
/// numbers (the seconds not below zero), with no more parts after them.
fn annotations_read(text: &str) -> bool {
    let mut parts = text.split('/').skip(1);
    let eval = parts.next().unwrap_or("");
    let seconds = parts.next().unwrap_or("");
    parts.next().is_none()
        && (eval.is_empty() || eval.parse::<f64>().is_ok_and(f64::is_finite))
        && (seconds.is_empty()
            || seconds
                .parse::<f64>()
                .is_ok_and(|s| s.is_finite() && s >= 0.0))
}

/// An NBoard move (`F5`, `PA`, with or without `/eval/seconds`) as plyd's
/// Othello reads it.
pub fn plyd_move(text: &str) -> String {
    let square = text.split('/').next().unwrap_or("").trim();
    if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
        "pass".to_string()
    } else {
        square.to_ascii_lowercase()
    }
}

/// A plyd move as NBoard writes it.
pub fn nboard_move(text: &str) -> String {
    match text {
        "0000" | "pass" | "PA" => "PA".to_string(),
        other => other.to_ascii_uppercase(),
    }
}

/// A score in discs for the side to move (plyd's Othello scores are
/// hundredths of a disc; a proven win or loss is all 64).
pub fn discs(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => f64::from(cp) / 100.0,
        Score::Mate(moves) if moves > 0 => 64.0,
        Score::Mate(_) => -64.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_moves_and_scores_read_as_nboard_means_them() {
        assert_eq!(
            parse_nboard_line("nboard 2"),
            Ok(Some(NBoardCommand::NBoard))
        );
        assert_eq!(
            parse_nboard_line("set depth 12"),
            Ok(Some(NBoardCommand::SetDepth(12)))
        );
        assert_eq!(parse_nboard_line("set depth 0"), Err(NBoardError::BadDepth));
        assert_eq!(
            parse_nboard_line("set game (;GM[Othello];)"),
            Ok(Some(NBoardCommand::SetGame(" (;GM[Othello];)")))
        );
        assert_eq!(
            parse_nboard_line("set contempt 0"),
            Ok(Some(NBoardCommand::SetOther))
        );
        assert_eq!(parse_nboard_line("set"), Err(NBoardError::NoSetting));
        assert_eq!(parse_nboard_line("move"), Err(NBoardError::NoMove));
        assert_eq!(parse_nboard_line("hint"), Ok(Some(NBoardCommand::Hint(1))));
        for bad in ["hint 0", "hint -1", "hint abc", "hint 99999999999"] {
            assert_eq!(parse_nboard_line(bad), Err(NBoardError::BadHint), "{bad}");
        }
        for good in [
            "move F5",
            "move F5/0.5/1.2",
            "move F5//3",
            "move F5/-1/",
            "move PA",
        ] {
            assert!(parse_nboard_line(good).is_ok(), "{good}");
        }
        for bad in [
            "move F5/abc/1",
            "move D6/1/-50",
            "move D6/1/2/3",
            "move D6/1/inf",
        ] {
            assert!(
                matches!(parse_nboard_line(bad), Err(NBoardError::BadMove(_))),
                "{bad}"
            );
        }
        assert_eq!(
            parse_nboard_line("set depth 99999999999"),
            Err(NBoardError::BadDepth)
        );
        assert_eq!(
            parse_nboard_line("hint 3"),
            Ok(Some(NBoardCommand::Hint(3)))
        );
        assert_eq!(
            parse_nboard_line("ping 7"),
            Ok(Some(NBoardCommand::Ping("7")))
        );
        assert_eq!(
            parse_nboard_line("fly"),
            Err(NBoardError::Unknown("fly".into()))
        );
        assert_eq!(parse_nboard_line(""), Ok(None));
        assert_eq!(plyd_move("F5/1.2/0.3"), "f5");
        assert_eq!(plyd_move("PA"), "pass");
        assert_eq!(nboard_move("0000"), "PA");
        assert_eq!(nboard_move("c4"), "C4");
        assert_eq!(discs(Score::Cp(-150)), -1.5);
        assert_eq!(discs(Score::Mate(3)), 64.0);
    }
}
