//! GTP version 2 text, as plyd speaks it for Othello: a command is
//! `[id] name [arguments]`, its answer `=[id] result` or `?[id] message`
//! followed by an empty line. Control characters other than tab and
//! newline are dropped, and a `#` starts a comment, as GTP asks.

/// The commands plyd's GTP answers, as `list_commands` shows them.
pub const COMMANDS: [&str; 18] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "list_games",
    "set_game",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "time_settings",
    "time_left",
    "showboard",
    "final_score",
];

/// The game plyd plays over GTP, as `list_games` names it (Quarry and
/// other GUIs of several games ask before they offer an engine for one).
pub const GAME: &str = "Othello";

/// One GTP command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GtpCommand<'a> {
    /// The id the answer repeats.
    pub id: Option<u32>,
    /// The command's name (empty for a line of an id alone).
    pub name: &'a str,
    /// Its arguments.
    pub args: Vec<&'a str>,
}

/// Whether `line` is a GTP command that UCI does not share: the first line
/// of a GTP controller.
pub fn is_gtp_start(line: &str) -> bool {
    let mut words = line.split_ascii_whitespace();
    let mut first = words.next();
    if first.is_some_and(|w| w.parse::<u32>().is_ok()) {
        first = words.next();
    }
    // GTP's `play` names a colour first; plyd's UCI `play` (a person
    // playing by hand) names a move.
    if first == Some("play") {
        return words.next().is_some_and(|colour| {
            ["b", "w", "black", "white"].contains(&colour.to_ascii_lowercase().as_str())
        });
    }
    first.is_some_and(|w| w != "quit" && COMMANDS.contains(&w))
}

/// Read a GTP line; `None` for a line with nothing but space or comment.
pub fn parse_gtp_line(line: &str) -> Option<GtpCommand<'_>> {
    let line = line.split('#').next().unwrap_or("");
    let mut words = line
        .split(|c: char| c.is_ascii_whitespace() || c.is_ascii_control())
        .filter(|w| !w.is_empty());
    let mut first = words.next()?;
    let mut id = None;
    if let Ok(n) = first.parse::<u32>() {
        id = Some(n);
        first = words.next().unwrap_or("");
    }
    Some(GtpCommand {
        id,
        name: first,
        args: words.collect(),
    })
}

/// A GTP colour: `0` for black (who moves first), `1` for white.
pub fn parse_color(text: &str) -> Option<u32> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(0),
        "w" | "white" => Some(1),
        _ => None,
    }
}

/// A GTP time in seconds (whole, or with a fraction) as milliseconds: at
/// least 0 and finite; a time past what a `u64` of milliseconds holds
/// counts as that much.
pub fn parse_seconds_ms(text: &str) -> Option<u64> {
    let seconds: f64 = text.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then_some((seconds * 1000.0) as u64)
}

/// A count of stones (moves) of a byo-yomi period; a count past `u32`
/// counts as that much.
pub fn parse_stones(text: &str) -> Option<u32> {
    let count: u64 = text.parse().ok()?;
    Some(u32::try_from(count).unwrap_or(u32::MAX))
}

/// An answer's first line: `=[id] text` or `?[id] text`; an empty line
/// ends the answer.
pub fn gtp_answer(id: Option<u32>, ok: bool, text: &str) -> String {
    let mark = if ok { '=' } else { '?' };
    let id = id.map(|n| n.to_string()).unwrap_or_default();
    format!("{mark}{id} {text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_ids_comments_and_colours_are_read() {
        let command = parse_gtp_line("12 play\tb d3 # a comment").unwrap();
        assert_eq!(command.id, Some(12));
        assert_eq!(command.name, "play");
        assert_eq!(command.args, ["b", "d3"]);
        assert_eq!(parse_gtp_line("# only a comment"), None);
        assert_eq!(parse_gtp_line("7").unwrap().name, "");
        assert_eq!(parse_color("White"), Some(1));
        assert_eq!(parse_color("red"), None);
        assert_eq!(parse_seconds_ms("90"), Some(90_000));
        assert_eq!(parse_seconds_ms("0.25"), Some(250));
        assert_eq!(parse_seconds_ms("99999999999999999999"), Some(u64::MAX));
        assert_eq!(parse_seconds_ms("-1"), None);
        assert_eq!(parse_seconds_ms("inf"), None);
        assert_eq!(parse_seconds_ms("ten"), None);
        assert_eq!(parse_stones("25"), Some(25));
        assert_eq!(parse_stones("99999999999"), Some(u32::MAX));
        assert_eq!(parse_stones("-1"), None);
        assert_eq!(parse_stones("1.5"), None);
        assert!(is_gtp_start("1 list_games"));
        assert!(!is_gtp_start("quit"));
        assert!(!is_gtp_start("uci"));
        // GTP's play names a colour; plyd's UCI play, a move.
        assert!(is_gtp_start("play black f5") && is_gtp_start("2 play W pass"));
        assert!(!is_gtp_start("play f5") && !is_gtp_start("play h2e2 h9g7"));
        assert_eq!(
            gtp_answer(Some(3), false, "illegal move"),
            "?3 illegal move"
        );
        assert_eq!(gtp_answer(None, true, ""), "= ");
    }
}
