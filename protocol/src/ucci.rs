//! UCCI, the xiangqi engine protocol of xqbase.com (version 3.0): its
//! lines parsed into [`UcciCommand`] and the engine's answers written in its
//! form.
//!
//! UCCI is UCI's cousin: `position` is the same, but `setoption` drops the
//! `name`/`value` keywords, `go` gives the engine's own clock and the
//! opponent's (`time`/`opptime`, in seconds unless the GUI turned
//! `usemillisec` on) instead of White's and Black's, a search may end in
//! `nobestmove`, and a score has no `cp`/`mate` word.

use crate::command::{parse_line, Command, ParseError, StartPosition};
use crate::response::{Info, Score};

/// One UCCI command.
#[derive(Debug, Clone, PartialEq)]
pub enum UcciCommand {
    /// `ucci`: identify, list options, then `ucciok`.
    Ucci,
    /// `isready`.
    IsReady,
    /// `setoption <name> [<value>]` (also accepted in UCI's
    /// `setoption name <name> value <value>` form).
    SetOption {
        /// The option name.
        name: String,
        /// The rest of the line, if any.
        value: Option<String>,
    },
    /// `position startpos|fen <fen> [moves ...]`.
    Position {
        /// Where the position starts.
        start: StartPosition,
        /// Moves played from there.
        moves: Vec<String>,
    },
    /// `banmoves <m1> ...`: moves the next search must not choose.
    BanMoves(Vec<String>),
    /// `go [ponder|draw] ...`.
    Go(UcciGo),
    /// `ponderhit [draw]`.
    PonderHit {
        /// The opponent offers a draw.
        draw: bool,
    },
    /// `stop`.
    Stop,
    /// `probe [position]`: what the hash table knows of a position.
    Probe,
    /// `quit`: answered with `bye`.
    Quit,
    /// A UCI line plyd also understands in UCCI (`d`, `eval`, `go perft`,
    /// `bench`, `ucinewgame`).
    Extension(Command),
}

/// The limits of a UCCI `go`, times in milliseconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UcciGo {
    /// `ponder`: search on the opponent's time.
    pub ponder: bool,
    /// `draw`: the opponent offers a draw.
    pub draw: bool,
    /// `time`: the engine's clock.
    pub time_ms: Option<i64>,
    /// `increment`: the engine's increment.
    pub increment_ms: Option<i64>,
    /// `opptime`: the opponent's clock.
    pub opp_time_ms: Option<i64>,
    /// `oppincrement`: the opponent's increment.
    pub opp_increment_ms: Option<i64>,
    /// `movestogo`: moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// `movetime`: think this long (not in UCCI 3.0; GUIs that speak UCI
    /// too send it, in the same unit as `time`).
    pub movetime_ms: Option<i64>,
    /// UCI's clocks by colour, `wtime` `btime` `winc` `binc` (Red's and
    /// Black's; not in UCCI 3.0, sent by GUIs that speak UCI too, in the
    /// same unit as `time`): the side to move's stand for `time` and
    /// `increment` where those are not given.
    pub colour_clocks: [Option<i64>; 4],
    /// `depth <d>`.
    pub depth: Option<u32>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// `infinite` or `depth infinite`.
    pub infinite: bool,
}

/// Parse one UCCI line; `Ok(None)` for a blank line. `millisec` says whether
/// times are in milliseconds (the `usemillisec` option) or seconds.
pub fn parse_ucci_line(line: &str, millisec: bool) -> Result<Option<UcciCommand>, ParseError> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((first, args)) = tokens.split_first() else {
        return Ok(None);
    };
    let command = match *first {
        "ucci" => UcciCommand::Ucci,
        "isready" => UcciCommand::IsReady,
        "setoption" => parse_setoption(args)?,
        "position" => match parse_line(line)? {
            Some(Command::Position { start, moves }) => UcciCommand::Position { start, moves },
            _ => return Err(ParseError::UnknownCommand((*first).to_owned())),
        },
        "banmoves" => UcciCommand::BanMoves(args.iter().map(|t| (*t).to_owned()).collect()),
        "go" if args.first() == Some(&"perft") => UcciCommand::Extension(
            parse_line(line)?.ok_or_else(|| ParseError::UnknownCommand("go".into()))?,
        ),
        "go" => UcciCommand::Go(parse_go(args, millisec)?),
        "ponderhit" => UcciCommand::PonderHit {
            draw: args.first() == Some(&"draw"),
        },
        "stop" => UcciCommand::Stop,
        "probe" => UcciCommand::Probe,
        "quit" => UcciCommand::Quit,
        "d" | "eval" | "bench" | "ucinewgame" | "help" => UcciCommand::Extension(
            parse_line(line)?.ok_or_else(|| ParseError::UnknownCommand((*first).to_owned()))?,
        ),
        other => return Err(ParseError::UnknownCommand(other.to_owned())),
    };
    Ok(Some(command))
}

/// `setoption <name> [<value>]`, or UCI's keyword form.
fn parse_setoption(args: &[&str]) -> Result<UcciCommand, ParseError> {
    if args.first() == Some(&"name") {
        if let Some(Command::SetOption { name, value }) =
            parse_line(&format!("setoption {}", args.join(" ")))?
        {
            return Ok(UcciCommand::SetOption { name, value });
        }
    }
    let Some((name, rest)) = args.split_first() else {
        return Err(ParseError::MissingArgument {
            command: "setoption",
            what: "an option name",
        });
    };
    Ok(UcciCommand::SetOption {
        name: (*name).to_owned(),
        value: (!rest.is_empty()).then(|| rest.join(" ")),
    })
}

fn parse_go(args: &[&str], millisec: bool) -> Result<UcciGo, ParseError> {
    let mut go = UcciGo::default();
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        let value = args.get(i + 1).copied();
        let time = |keyword: &'static str| -> Result<i64, ParseError> {
            let text = value.ok_or(ParseError::MissingValue {
                command: "go",
                keyword,
            })?;
            let seconds_or_ms: f64 = text.parse().map_err(|_| ParseError::InvalidValue {
                command: "go",
                keyword,
                value: text.to_owned(),
                expected: "a number",
            })?;
            let ms = if millisec {
                seconds_or_ms
            } else {
                seconds_or_ms * 1000.0
            };
            Ok(ms.round() as i64)
        };
        let count = |keyword: &'static str| -> Result<u64, ParseError> {
            let text = value.ok_or(ParseError::MissingValue {
                command: "go",
                keyword,
            })?;
            text.parse().map_err(|_| ParseError::InvalidValue {
                command: "go",
                keyword,
                value: text.to_owned(),
                expected: "a non-negative integer",
            })
        };
        i += match keyword {
            "ponder" => {
                go.ponder = true;
                1
            }
            "draw" => {
                go.draw = true;
                1
            }
            "infinite" => {
                go.infinite = true;
                1
            }
            "time" => {
                go.time_ms = Some(time("time")?);
                2
            }
            "increment" => {
                go.increment_ms = Some(time("increment")?);
                2
            }
            "opptime" => {
                go.opp_time_ms = Some(time("opptime")?);
                2
            }
            "oppincrement" => {
                go.opp_increment_ms = Some(time("oppincrement")?);
                2
            }
            "movetime" => {
                go.movetime_ms = Some(time("movetime")?);
                2
            }
            "movestogo" => {
                go.moves_to_go = Some(count("movestogo")?.min(u64::from(u32::MAX)) as u32);
                2
            }
            "wtime" => {
                go.colour_clocks[0] = Some(time("wtime")?);
                2
            }
            "btime" => {
                go.colour_clocks[1] = Some(time("btime")?);
                2
            }
            "winc" => {
                go.colour_clocks[2] = Some(time("winc")?);
                2
            }
            "binc" => {
                go.colour_clocks[3] = Some(time("binc")?);
                2
            }
            // The opponent's moves to go change nothing in plyd's budget.
            "oppmovestogo" => 2,
            "depth" if value == Some("infinite") => {
                go.infinite = true;
                2
            }
            "depth" => {
                go.depth = Some(count("depth")?.min(u64::from(u32::MAX)) as u32);
                2
            }
            "nodes" => {
                go.nodes = Some(count("nodes")?);
                2
            }
            other => {
                return Err(ParseError::InvalidValue {
                    command: "go",
                    keyword: "keyword",
                    value: other.to_owned(),
                    expected: "a word of UCCI's go (time, increment, opptime, oppincrement, \
                               movestogo, depth, nodes, infinite, ponder, draw) or UCI's \
                               (movetime, wtime, btime, winc, binc)",
                })
            }
        };
    }
    Ok(go)
}

/// The score UCCI shows for a mate: a large number less the plies to it,
/// as xiangqi programs print it.
pub const UCCI_MATE_SCORE: i32 = 10_000;

/// A score as UCCI writes it: centipawns, or a mate as the mate score less
/// the plies to it.
pub fn ucci_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(moves) if moves > 0 => UCCI_MATE_SCORE - (2 * moves - 1),
        Score::Mate(moves) => -UCCI_MATE_SCORE - 2 * moves,
    }
}

/// The `info` lines of `info` in UCCI form: one with its UCCI fields,
/// where it has any, then its text as `info message <text>` (a book
/// move's `book`, an error); none when it has neither.
pub fn format_ucci_info(info: &Info) -> Vec<String> {
    let mut line = String::from("info");
    if let Some(depth) = info.depth {
        line += &format!(" depth {depth}");
    }
    if let Some((score, _)) = info.score {
        line += &format!(" score {}", ucci_score(score));
    }
    if let Some(time) = info.time_ms {
        line += &format!(" time {time}");
    }
    if let Some(nodes) = info.nodes {
        line += &format!(" nodes {nodes}");
    }
    // UCCI has no word for it: UCI's, where several lines are asked for
    // (`MultiPV` above 1), so that they can be told apart.
    if let Some(k) = info.multipv {
        line += &format!(" multipv {k}");
    }
    if let Some(mv) = &info.currmove {
        line += &format!(" currmove {mv}");
    }
    if !info.pv.is_empty() {
        line += &format!(" pv {}", info.pv.join(" "));
    }
    let mut lines = Vec::new();
    if line.len() > 4 {
        lines.push(line);
    }
    if let Some(text) = &info.string {
        lines.push(format!("info message {}", one_line(text)));
    }
    lines
}

fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_seconds_or_milliseconds() {
        let go = |line: &str, ms: bool| match parse_ucci_line(line, ms) {
            Ok(Some(UcciCommand::Go(go))) => go,
            other => panic!("{line}: {other:?}"),
        };
        let g = go(
            "go draw time 300 increment 2 opptime 250 movestogo 40",
            false,
        );
        assert!(g.draw && !g.ponder);
        assert_eq!(g.time_ms, Some(300_000));
        assert_eq!(g.increment_ms, Some(2_000));
        assert_eq!(g.opp_time_ms, Some(250_000));
        assert_eq!(g.moves_to_go, Some(40));
        let g = go("go ponder time 1500 opptime 900", true);
        assert!(g.ponder);
        assert_eq!(g.time_ms, Some(1_500));
        assert!(go("go depth infinite", false).infinite);
        assert_eq!(go("go depth 7", false).depth, Some(7));
        assert!(parse_ucci_line("go time x", false).is_err());
        assert!(parse_ucci_line("go sideways", false).is_err());
        // UCI's clocks by colour, in the same unit.
        let g = go("go wtime 1000 btime 2 winc 10 binc 20", true);
        assert_eq!(g.colour_clocks, [Some(1000), Some(2), Some(10), Some(20)]);
        let g = go("go btime 3 wtime 1.5", false);
        assert_eq!(g.colour_clocks, [Some(1500), Some(3000), None, None]);
        assert!(parse_ucci_line("go wtime", true).is_err());
    }

    #[test]
    fn setoption_takes_both_forms() {
        assert_eq!(
            parse_ucci_line("setoption usemillisec true", false),
            Ok(Some(UcciCommand::SetOption {
                name: "usemillisec".into(),
                value: Some("true".into())
            }))
        );
        assert_eq!(
            parse_ucci_line("setoption newgame", false),
            Ok(Some(UcciCommand::SetOption {
                name: "newgame".into(),
                value: None
            }))
        );
        assert_eq!(
            parse_ucci_line("setoption name Hash value 32", false),
            Ok(Some(UcciCommand::SetOption {
                name: "Hash".into(),
                value: Some("32".into())
            }))
        );
    }

    #[test]
    fn unknown_commands_are_errors() {
        assert_eq!(
            parse_ucci_line("joho go", false),
            Err(ParseError::UnknownCommand("joho".into()))
        );
        assert_eq!(parse_ucci_line("  ", false), Ok(None));
    }

    #[test]
    fn info_has_bare_scores() {
        let info = Info {
            depth: Some(3),
            score: Some((Score::Mate(2), None)),
            nodes: Some(10),
            pv: vec!["h2e2".into()],
            ..Info::default()
        };
        assert_eq!(
            format_ucci_info(&info),
            ["info depth 3 score 9997 nodes 10 pv h2e2"]
        );
        assert_eq!(
            format_ucci_info(&Info {
                string: Some("a\nb".into()),
                ..Info::default()
            }),
            ["info message a b"]
        );
        // A line with both (a book move's) keeps both, its words after.
        assert_eq!(
            format_ucci_info(&Info {
                string: Some("book".into()),
                ..info
            }),
            [
                "info depth 3 score 9997 nodes 10 pv h2e2",
                "info message book"
            ]
        );
        assert!(format_ucci_info(&Info::default()).is_empty());
    }
}
