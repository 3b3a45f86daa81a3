//! Parsing of the lines a GUI sends to the engine.

/// One command of the protocol, parsed from one input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list options, then `uciok`.
    Uci,
    /// `debug on` / `debug off`.
    Debug(bool),
    /// `isready`: answer `readyok` as soon as possible.
    IsReady,
    /// `setoption name <id> [value <x>]`. Both parts may contain spaces.
    SetOption {
        /// Option name, internal whitespace collapsed to single spaces.
        name: String,
        /// Option value, if a `value` part was given.
        value: Option<String>,
    },
    /// `register later` or `register name <x> code <y>`.
    Register(Registration),
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <text> [moves <m1> ...]`.
    Position {
        /// Where the position starts.
        start: StartPosition,
        /// Moves to play from there, as text.
        moves: Vec<String>,
    },
    /// `go ...` (a search).
    Go(GoParams),
    /// `go perft <depth>` (plyd extension).
    Perft {
        /// Depth in plies.
        depth: u32,
    },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: print the board and the position text (plyd extension).
    Display,
    /// `eval`: print the evaluation of the current position, term by term
    /// (plyd extension).
    Eval,
    /// `book`: print the opening book's moves at the current position,
    /// with their scores and depths (plyd extension).
    Book,
    /// `help`: the commands, in a few notes (plyd extension, as
    /// Stockfish's).
    Help,
    /// `play M1 M2 ...`: the moves played on from the current position,
    /// and plyd's reply (plyd extension, for a person playing by hand); a
    /// bare `play`, plyd's move now.
    Play(Vec<String>),
    /// `undo [N]`: the last `N` `play`s taken back, 1 by default (plyd
    /// extension).
    Undo(u32),
    /// `bench [game] [depth]` (plyd extension).
    Bench {
        /// Game or variant to bench; all loaded games when absent.
        game: Option<String>,
        /// Depth; the engine's default when absent.
        depth: Option<u32>,
        /// A second game or depth (`bench othello abc`, `bench 7 8`),
        /// skipped: for the engine to say.
        skipped: Vec<String>,
    },
}

/// The two forms of `register`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registration {
    /// `register later`.
    Later,
    /// `register name <x> code <y>`; either part may be missing.
    Details {
        /// The name part.
        name: Option<String>,
        /// The code part.
        code: Option<String>,
    },
}

/// The starting point of a `position` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartPosition {
    /// `startpos`: the current variant's start position.
    StartPos,
    /// `fen <text>`: the position text, tokens joined by single spaces.
    Fen(String),
}

/// Parameters of `go`. Times are in milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `searchmoves <m1> <m2> ...`: restrict the root to these moves.
    pub search_moves: Vec<String>,
    /// `ponder`.
    pub ponder: bool,
    /// `wtime <ms>` (may be negative when a GUI reports an overstepped clock).
    pub wtime: Option<i64>,
    /// `btime <ms>`.
    pub btime: Option<i64>,
    /// `winc <ms>`.
    pub winc: Option<i64>,
    /// `binc <ms>`.
    pub binc: Option<i64>,
    /// `movestogo <n>`.
    pub moves_to_go: Option<u32>,
    /// `depth <plies>`.
    pub depth: Option<u32>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// `mate <moves>`.
    pub mate: Option<u32>,
    /// `movetime <ms>`.
    pub movetime: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// Words that are no `go` keyword nor a keyword's value, skipped as UCI
    /// asks (`go movetime100`, `go depth 3 foo 7`): for the engine to
    /// tell the GUI, since a `go` left with no limit searches until `stop`.
    pub skipped: Vec<String>,
}

impl GoParams {
    /// The clock of `side` (0 the first player, any other the second):
    /// its time and its increment, `wtime`/`winc` or `btime`/`binc`.
    pub fn clock(&self, side: u32) -> (Option<i64>, Option<i64>) {
        if side == 0 {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        }
    }

    /// Whether the search ends on its own: a limit of depth, nodes, mate,
    /// time or a clock, and neither `infinite` nor `ponder`.
    pub fn has_a_limit(&self) -> bool {
        !self.infinite
            && !self.ponder
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.mate.is_some()
                || self.movetime.is_some()
                || self.wtime.is_some()
                || self.btime.is_some()
                || self.winc.is_some()
                || self.binc.is_some()
                || self.moves_to_go.is_some())
    }
}

/// Why a line could not be understood. Each variant's text is one line fit
/// to follow `info string error: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// No known command anywhere on the line.
    #[error("unknown command '{0}'{hint}", hint = unknown_command_hint(.0))]
    UnknownCommand(String),
    /// A command needs an argument that is missing (`debug`, `position`,
    /// `setoption`, `register`).
    #[error("'{command}' needs {what}")]
    MissingArgument {
        /// The command.
        command: &'static str,
        /// What is missing, in words.
        what: &'static str,
    },
    /// A keyword that takes a value was last on the line.
    #[error("'{command} {keyword}' needs a value")]
    MissingValue {
        /// The command.
        command: &'static str,
        /// The keyword without a value.
        keyword: &'static str,
    },
    /// A value that does not parse as what the keyword takes.
    #[error("'{command} {keyword}': '{value}' is not {expected}")]
    InvalidValue {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: &'static str,
        /// The offending text.
        value: String,
        /// What was expected, in words ("a non-negative integer").
        expected: &'static str,
    },
}

impl ParseError {
    /// Whether the refused line was a search request (`go`, but not `go
    /// perft`), which a GUI waits to see answered with a move or none.
    pub fn refused_a_search(&self) -> bool {
        match self {
            ParseError::MissingValue { command, keyword }
            | ParseError::InvalidValue {
                command, keyword, ..
            } => *command == "go" && *keyword != "perft",
            ParseError::MissingArgument { command, .. } => *command == "go",
            ParseError::UnknownCommand(_) => false,
        }
    }

    /// Whether the refused line was a `go perft` (a missing or bad depth),
    /// which is answered as a perft that could not run is answered: with
    /// its last line, `Nodes searched: 0`.
    pub fn refused_a_perft(&self) -> bool {
        matches!(
            self,
            ParseError::MissingValue {
                command: "go",
                keyword: "perft"
            } | ParseError::InvalidValue {
                command: "go",
                keyword: "perft",
                ..
            }
        )
    }

    /// Whether the refused line was a `position`: like a `position` that
    /// names an illegal move, it leaves no position to search.
    pub fn refused_a_position(&self) -> bool {
        match self {
            ParseError::MissingValue { command, .. }
            | ParseError::InvalidValue { command, .. }
            | ParseError::MissingArgument { command, .. } => *command == "position",
            ParseError::UnknownCommand(_) => false,
        }
    }
}

/// The command words [`parse_line`] knows.
const COMMAND_WORDS: [&str; 18] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "book",
    "bench",
    "help",
    "play",
    "undo",
];

/// What follows an unknown command's error: the command meant where only
/// its case is wrong (`Go`), else where to find the commands.
fn unknown_command_hint(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    if lower != word && COMMAND_WORDS.contains(&lower.as_str()) {
        format!(" (commands are lower case: {lower})")
    } else {
        " (help lists the commands)".to_string()
    }
}

/// Parse one input line. `Ok(None)` for a blank line.
///
/// Tokens are separated by any run of ASCII whitespace, so tabs, repeated
/// spaces and a trailing `"\r"` or `"\r\n"` make no difference. Command words
/// and keywords are matched case-sensitively, as the UCI text defines them in
/// lower case. As the UCI text asks, unknown tokens are skipped: the first
/// known command word on the line is the command, and unknown tokens inside a
/// command are ignored where they cannot be mistaken for a value.
///
/// ```
/// use plyd_protocol::{parse_line, Command, GoParams};
///
/// let go = parse_line("joho go\tdepth 5 wtime -20\r\n").unwrap();
/// let expected = GoParams {
///     depth: Some(5),
///     wtime: Some(-20),
///     ..GoParams::default()
/// };
/// assert_eq!(go, Some(Command::Go(expected)));
/// assert_eq!(parse_line("   \r\n"), Ok(None));
/// ```
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    parse_line_with_clocks(line, |word| word)
}

/// [`parse_line`] in a dialect that names the `go` clocks its own way:
/// `clock` turns each `go` word into UCI's (`p1time` into `wtime`).
pub(crate) fn parse_line_with_clocks(
    line: &str,
    clock: fn(&str) -> &str,
) -> Result<Option<Command>, ParseError> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Ok(None);
    };
    for (at, word) in tokens.iter().enumerate() {
        let args = &tokens[at + 1..];
        let command = match *word {
            "uci" => Command::Uci,
            "debug" => parse_debug(args)?,
            "isready" => Command::IsReady,
            "setoption" => parse_setoption(args)?,
            "register" => parse_register(args)?,
            "ucinewgame" => Command::UciNewGame,
            "position" => parse_position(args)?,
            "go" => parse_go(args, clock)?,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "d" => Command::Display,
            "eval" => Command::Eval,
            "book" => Command::Book,
            "help" => Command::Help,
            "play" => Command::Play(args.iter().map(|m| (*m).to_owned()).collect()),
            "undo" => match args.first() {
                None => Command::Undo(1),
                Some(n) => Command::Undo(n.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    ParseError::InvalidValue {
                        command: "undo",
                        keyword: "N",
                        value: (*n).to_owned(),
                        expected: "a count of plays above 0",
                    }
                })?),
            },
            "bench" => parse_bench(args)?,
            // Not a command word: the UCI text says to skip it and try the
            // rest of the line ("joho debug on" is "debug on").
            _ => continue,
        };
        return Ok(Some(command));
    }
    Err(ParseError::UnknownCommand((*first).to_owned()))
}

/// `debug on|off`. Unknown tokens before the switch are skipped like anywhere
/// else; if none of the tokens is `on` or `off`, the first one is reported.
fn parse_debug(args: &[&str]) -> Result<Command, ParseError> {
    if let Some(switch) = args.iter().find(|t| matches!(**t, "on" | "off")) {
        return Ok(Command::Debug(*switch == "on"));
    }
    match args.first() {
        None => Err(ParseError::MissingArgument {
            command: "debug",
            what: "'on' or 'off'",
        }),
        Some(other) => Err(ParseError::InvalidValue {
            command: "debug",
            keyword: "on|off",
            value: (*other).to_owned(),
            expected: "'on' or 'off'",
        }),
    }
}

/// `setoption name <id> [value <x>]`. The first `value` ends the name, so a
/// name cannot contain the word `value`, but a value may (the UCI text has the
/// same limit).
fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    let Some(name_at) = args.iter().position(|t| *t == "name") else {
        return Err(ParseError::MissingArgument {
            command: "setoption",
            what: "'name <id>'",
        });
    };
    let rest = &args[name_at + 1..];
    let (name, value) = match rest.iter().position(|t| *t == "value") {
        // An empty value is kept as `Some("")`: GUIs send `value` with
        // nothing after it to set a string option to the empty string.
        Some(value_at) => (&rest[..value_at], Some(rest[value_at + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(ParseError::MissingArgument {
            command: "setoption",
            what: "an option name after 'name'",
        });
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// Which part of `register` the following tokens belong to.
#[derive(Clone, Copy)]
enum RegisterPart {
    Neither,
    Name,
    Code,
}

/// `register later` or `register name <x> code <y>`. The words `name` and
/// `code` switch which part the following tokens belong to, so the two parts
/// may come in either order; a part whose keyword is present but has no
/// tokens is `Some("")`.
fn parse_register(args: &[&str]) -> Result<Command, ParseError> {
    let mut part = RegisterPart::Neither;
    let mut name: Option<Vec<&str>> = None;
    let mut code: Option<Vec<&str>> = None;
    for token in args {
        match (*token, part) {
            ("name", _) => {
                part = RegisterPart::Name;
                name.get_or_insert_with(Vec::new);
            }
            ("code", _) => {
                part = RegisterPart::Code;
                code.get_or_insert_with(Vec::new);
            }
            ("later", RegisterPart::Neither) => return Ok(Command::Register(Registration::Later)),
            // Unknown token before any part: skip it.
            (_, RegisterPart::Neither) => {}
            (_, RegisterPart::Name) => name.get_or_insert_with(Vec::new).push(token),
            (_, RegisterPart::Code) => code.get_or_insert_with(Vec::new).push(token),
        }
    }
    if name.is_none() && code.is_none() {
        return Err(ParseError::MissingArgument {
            command: "register",
            what: "'later' or 'name <x> code <y>'",
        });
    }
    Ok(Command::Register(Registration::Details {
        name: name.map(|tokens| tokens.join(" ")),
        code: code.map(|tokens| tokens.join(" ")),
    }))
}

/// `position startpos|fen <text> [moves <m1> ...]`. Unknown tokens before
/// `startpos`/`fen`, and between `startpos` and `moves`, are skipped; every
/// token after `moves` is a move. Tokens after `startpos` with no `moves`
/// at all are refused: they are moves without their keyword, as a rule,
/// and skipping them would set up another position than the one meant.
fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let Some(kind_at) = args.iter().position(|t| matches!(*t, "startpos" | "fen")) else {
        return Err(ParseError::MissingArgument {
            command: "position",
            what: "'startpos' or 'fen <text>'",
        });
    };
    let rest = &args[kind_at + 1..];
    let (before_moves, moves) = match rest.iter().position(|t| *t == "moves") {
        Some(moves_at) => (&rest[..moves_at], &rest[moves_at + 1..]),
        None => (rest, &[][..]),
    };
    let start = if args[kind_at] == "startpos" {
        if moves.is_empty() && !before_moves.is_empty() && !rest.contains(&"moves") {
            return Err(ParseError::InvalidValue {
                command: "position",
                keyword: "startpos",
                value: before_moves.join(" "),
                expected: "'moves' and the moves (position startpos moves <m1> ...)",
            });
        }
        StartPosition::StartPos
    } else if before_moves.is_empty() {
        return Err(ParseError::MissingArgument {
            command: "position",
            what: "a position text after 'fen'",
        });
    } else {
        StartPosition::Fen(before_moves.join(" "))
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
    })
}

/// Every keyword `go` knows. `searchmoves` takes tokens up to the next one.
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// The `expected` text for keywords that take an unsigned number.
const NON_NEGATIVE: &str = "a non-negative integer";
/// The `expected` text of `go mate`.
const POSITIVE_MATE: &str = "a positive integer (a mate in one move or more)";
/// What a number too large for its keyword is not.
const TOO_LARGE: &str = "an integer small enough for it";
/// The `expected` text for clock keywords, read as numbers of milliseconds.
const CLOCK: &str = "a number of milliseconds";

/// `go ...`. Unknown tokens between keywords are skipped. A keyword given
/// twice keeps its last value. If `perft N` appears anywhere the result is
/// [`Command::Perft`], but the rest of the line must still parse, so a typo
/// next to `perft` is reported rather than silently dropped.
fn parse_go(args: &[&str], clock: fn(&str) -> &str) -> Result<Command, ParseError> {
    let mut params = GoParams::default();
    let mut perft = None;
    let mut tokens = args.iter().copied().peekable();
    while let Some(token) = tokens.next() {
        match clock(token) {
            "searchmoves" => {
                while let Some(mv) = tokens.next_if(|t| !GO_KEYWORDS.contains(&clock(t))) {
                    params.search_moves.push(mv.to_owned());
                }
            }
            "ponder" => params.ponder = true,
            "infinite" => params.infinite = true,
            "wtime" => params.wtime = Some(go_clock(&mut tokens, "wtime")?),
            "btime" => params.btime = Some(go_clock(&mut tokens, "btime")?),
            "winc" => params.winc = Some(go_clock(&mut tokens, "winc")?),
            "binc" => params.binc = Some(go_clock(&mut tokens, "binc")?),
            "movestogo" => {
                params.moves_to_go = Some(go_value(&mut tokens, "movestogo", NON_NEGATIVE)?);
            }
            "depth" => params.depth = Some(go_value(&mut tokens, "depth", NON_NEGATIVE)?),
            "nodes" => params.nodes = Some(go_value(&mut tokens, "nodes", NON_NEGATIVE)?),
            "mate" => {
                let moves: u32 = go_value(&mut tokens, "mate", POSITIVE_MATE)?;
                // A mate in no move is no search: the game is over, or
                // it is not (`go mate 0` searched one ply and played a
                // move without a word).
                if moves == 0 {
                    return Err(ParseError::InvalidValue {
                        command: "go",
                        keyword: "mate",
                        value: "0".to_owned(),
                        expected: POSITIVE_MATE,
                    });
                }
                params.mate = Some(moves);
            }
            "movetime" => {
                // Negative: the time is spent already, a move at once (no
                // move would cost the game).
                let ms = go_clock(&mut tokens, "movetime")?;
                params.movetime = Some(u64::try_from(ms).unwrap_or(0));
            }
            "perft" => perft = Some(go_value(&mut tokens, "perft", NON_NEGATIVE)?),
            // Unknown token: skip it, as the UCI text asks (and say so).
            _ => params.skipped.push(token.to_owned()),
        }
    }
    Ok(match perft {
        Some(depth) => Command::Perft { depth },
        None => Command::Go(params),
    })
}

/// Take the value after a `go` keyword. The next token is always taken, even
/// if it is another keyword: `go depth wtime 5` is an error, not a guess.
fn go_value<'a, T: std::str::FromStr>(
    tokens: &mut impl Iterator<Item = &'a str>,
    keyword: &'static str,
    expected: &'static str,
) -> Result<T, ParseError> {
    let text = tokens.next().ok_or(ParseError::MissingValue {
        command: "go",
        keyword,
    })?;
    text.parse().map_err(|_| ParseError::InvalidValue {
        command: "go",
        keyword,
        value: text.to_owned(),
        expected: unreadable_as(text, expected),
    })
}

/// Take the milliseconds after a clock keyword (`wtime`, `movetime`):
/// an integer, one past the range of `i64` held at its end, or a number
/// with a fraction or exponent rounded down (`1000.5`, `1e3`), which some
/// GUIs send: a clock refused would cost the game a move (`bestmove
/// (none)`), a clock read this way costs nothing.
fn go_clock<'a>(
    tokens: &mut impl Iterator<Item = &'a str>,
    keyword: &'static str,
) -> Result<i64, ParseError> {
    let text = tokens.next().ok_or(ParseError::MissingValue {
        command: "go",
        keyword,
    })?;
    if let Ok(ms) = text.parse::<i64>() {
        return Ok(ms);
    }
    if looks_like_integer(text) {
        return Ok(if text.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        });
    }
    match text.parse::<f64>() {
        // `as` saturates at the ends of the range.
        Ok(ms) if ms.is_finite() => Ok(ms.floor() as i64),
        _ => Err(ParseError::InvalidValue {
            command: "go",
            keyword,
            value: text.to_owned(),
            expected: CLOCK,
        }),
    }
}

/// What `token`, refused for an unsigned keyword that takes `expected`,
/// is not: a whole number refused only for its size
/// (`99999999999999999999`) is not [`TOO_LARGE`]; a negative one, or
/// anything else, is not `expected`.
fn unreadable_as(token: &str, expected: &'static str) -> &'static str {
    if looks_like_integer(token) && !token.starts_with('-') {
        TOO_LARGE
    } else {
        expected
    }
}

/// `bench [game] [depth]`, in either order. A token that looks like an
/// integer is the depth and must fit a `u32` (so `bench -3` is an error, not
/// a game called "-3"); any other token is the game. When a part is given
/// twice the first one counts and the rest are skipped, kept in `skipped` for
/// the engine to say.
fn parse_bench(args: &[&str]) -> Result<Command, ParseError> {
    let mut game = None;
    let mut depth = None;
    let mut skipped = Vec::new();
    for token in args {
        if looks_like_integer(token) {
            let value = token.parse::<u32>().map_err(|_| ParseError::InvalidValue {
                command: "bench",
                keyword: "depth",
                value: (*token).to_owned(),
                expected: unreadable_as(token, NON_NEGATIVE),
            })?;
            if depth.is_some() {
                skipped.push((*token).to_owned());
            }
            depth.get_or_insert(value);
        } else if game.is_some() {
            skipped.push((*token).to_owned());
        } else {
            game = Some((*token).to_owned());
        }
    }
    Ok(Command::Bench {
        game,
        depth,
        skipped,
    })
}

/// An optional sign followed by at least one ASCII digit and nothing else.
fn looks_like_integer(token: &str) -> bool {
    let digits = token.strip_prefix(['+', '-']).unwrap_or(token);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parse a line that must give a command.
    fn cmd(line: &str) -> Command {
        match parse_line(line) {
            Ok(Some(command)) => command,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    /// Parse a line that must fail.
    fn err(line: &str) -> ParseError {
        match parse_line(line) {
            Err(error) => error,
            other => panic!("{line:?} gave {other:?}, expected an error"),
        }
    }

    fn go(line: &str) -> GoParams {
        match cmd(line) {
            Command::Go(params) => params,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    fn missing_value(keyword: &'static str) -> ParseError {
        ParseError::MissingValue {
            command: "go",
            keyword,
        }
    }

    fn invalid(keyword: &'static str, value: &str, expected: &'static str) -> ParseError {
        ParseError::InvalidValue {
            command: "go",
            keyword,
            value: value.to_owned(),
            expected,
        }
    }

    // ----- blank lines and whitespace -----

    #[test]
    fn blank_lines_are_none() {
        for line in ["", " ", "\t", "  \t  ", "\r", "\r\n", "\n", " \t\r\n"] {
            assert_eq!(parse_line(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn line_endings_are_accepted() {
        assert_eq!(cmd("isready\r\n"), Command::IsReady);
        assert_eq!(cmd("isready\r"), Command::IsReady);
        assert_eq!(cmd("isready\n"), Command::IsReady);
        assert_eq!(cmd("debug on\r\n"), Command::Debug(true));
        assert_eq!(
            cmd("position startpos moves e2e4\r\n"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: strings(&["e2e4"]),
            }
        );
    }

    #[test]
    fn spaces_and_tabs_between_tokens() {
        assert_eq!(cmd("  \tdebug \t\t  on  "), Command::Debug(true));
        assert_eq!(
            cmd("setoption   name\tHash  \t value  \t 128"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("128".into()),
            }
        );
        assert_eq!(
            cmd("position\tfen  a  b\t\tc   moves \t e2e4    e7e5\t"),
            Command::Position {
                start: StartPosition::Fen("a b c".into()),
                moves: strings(&["e2e4", "e7e5"]),
            }
        );
        assert_eq!(go("go\tdepth\t\t7").depth, Some(7));
    }

    // ----- unknown commands and tokens -----

    #[test]
    fn leading_unknown_tokens_are_skipped() {
        assert_eq!(cmd("joho debug on"), Command::Debug(true));
        assert_eq!(cmd("foo bar isready"), Command::IsReady);
        assert_eq!(go("xyzzy go depth 3").depth, Some(3));
    }

    #[test]
    fn unknown_command_reports_first_token() {
        assert_eq!(err("foo"), ParseError::UnknownCommand("foo".into()));
        assert_eq!(
            err("  hello there world\r\n"),
            ParseError::UnknownCommand("hello".into())
        );
    }

    #[test]
    fn command_words_are_case_sensitive() {
        assert_eq!(err("UCI"), ParseError::UnknownCommand("UCI".into()));
        assert_eq!(err("IsReady"), ParseError::UnknownCommand("IsReady".into()));
    }

    #[test]
    fn error_text_is_one_line() {
        let error = err("foo");
        assert_eq!(
            error.to_string(),
            "unknown command 'foo' (help lists the commands)"
        );
        // A command in the wrong case is named as it is spelled.
        assert_eq!(
            err("Go movetime 100").to_string(),
            "unknown command 'Go' (commands are lower case: go)"
        );
        assert_eq!(cmd("help"), Command::Help);
        assert_eq!(err("go depth").to_string(), "'go depth' needs a value");
        assert_eq!(
            err("go depth x").to_string(),
            "'go depth': 'x' is not a non-negative integer"
        );
        assert_eq!(
            err("position").to_string(),
            "'position' needs 'startpos' or 'fen <text>'"
        );
    }

    // ----- commands without arguments -----

    #[test]
    fn simple_commands() {
        assert_eq!(cmd("uci"), Command::Uci);
        assert_eq!(cmd("isready"), Command::IsReady);
        assert_eq!(cmd("ucinewgame"), Command::UciNewGame);
        assert_eq!(cmd("stop"), Command::Stop);
        assert_eq!(cmd("ponderhit"), Command::PonderHit);
        assert_eq!(cmd("quit"), Command::Quit);
        assert_eq!(cmd("d"), Command::Display);
        assert_eq!(cmd("eval"), Command::Eval);
        assert_eq!(cmd("book"), Command::Book);
    }

    #[test]
    fn eval_is_found_after_unknown_words_and_ignores_what_follows() {
        assert_eq!(cmd("joho eval"), Command::Eval);
        assert_eq!(cmd("eval now\r\n"), Command::Eval);
        // Inside another command the word is that command's argument.
        assert_eq!(
            cmd("setoption name EvalFile value /tmp/eval"),
            Command::SetOption {
                name: "EvalFile".into(),
                value: Some("/tmp/eval".into()),
            }
        );
    }

    #[test]
    fn trailing_tokens_after_simple_commands_are_ignored() {
        assert_eq!(cmd("uci please"), Command::Uci);
        assert_eq!(cmd("quit now"), Command::Quit);
        assert_eq!(cmd("d board"), Command::Display);
    }

    // ----- debug -----

    #[test]
    fn debug_on_off() {
        assert_eq!(cmd("debug on"), Command::Debug(true));
        assert_eq!(cmd("debug off"), Command::Debug(false));
        // Unknown tokens before the switch are skipped.
        assert_eq!(cmd("debug please off"), Command::Debug(false));
    }

    #[test]
    fn debug_without_switch_is_missing_argument() {
        assert_eq!(
            err("debug"),
            ParseError::MissingArgument {
                command: "debug",
                what: "'on' or 'off'",
            }
        );
        assert!(matches!(
            err("debug \r\n"),
            ParseError::MissingArgument {
                command: "debug",
                ..
            }
        ));
    }

    #[test]
    fn debug_with_other_word_is_invalid_value() {
        assert_eq!(
            err("debug maybe"),
            ParseError::InvalidValue {
                command: "debug",
                keyword: "on|off",
                value: "maybe".into(),
                expected: "'on' or 'off'",
            }
        );
        // Case matters, as everywhere else.
        assert!(matches!(
            err("debug ON"),
            ParseError::InvalidValue {
                command: "debug",
                ..
            }
        ));
    }

    // ----- setoption -----

    #[test]
    fn setoption_simple() {
        assert_eq!(
            cmd("setoption name Hash value 64"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some("64".into()),
            }
        );
    }

    #[test]
    fn setoption_spaces_in_name_and_value() {
        assert_eq!(
            cmd("setoption name Nalimov   Path value c:\\chess  tb\\4 ;c:\\chess\ttb\\5"),
            Command::SetOption {
                name: "Nalimov Path".into(),
                value: Some("c:\\chess tb\\4 ;c:\\chess tb\\5".into()),
            }
        );
    }

    #[test]
    fn setoption_without_value_is_a_button() {
        assert_eq!(
            cmd("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None,
            }
        );
    }

    #[test]
    fn setoption_empty_value_is_empty_string() {
        assert_eq!(
            cmd("setoption name Book File value"),
            Command::SetOption {
                name: "Book File".into(),
                value: Some(String::new()),
            }
        );
        assert_eq!(
            cmd("setoption name Book File value   \r\n"),
            Command::SetOption {
                name: "Book File".into(),
                value: Some(String::new()),
            }
        );
    }

    #[test]
    fn setoption_first_value_ends_name_and_later_ones_belong_to_value() {
        assert_eq!(
            cmd("setoption name Motto value value is value"),
            Command::SetOption {
                name: "Motto".into(),
                value: Some("value is value".into()),
            }
        );
    }

    #[test]
    fn setoption_skips_tokens_before_name() {
        assert_eq!(
            cmd("setoption please name Threads value 4"),
            Command::SetOption {
                name: "Threads".into(),
                value: Some("4".into()),
            }
        );
    }

    #[test]
    fn setoption_without_name_is_missing_argument() {
        for line in ["setoption", "setoption Hash value 3", "setoption value 3"] {
            assert_eq!(
                err(line),
                ParseError::MissingArgument {
                    command: "setoption",
                    what: "'name <id>'",
                },
                "{line:?}"
            );
        }
    }

    #[test]
    fn setoption_with_empty_name_is_missing_argument() {
        for line in [
            "setoption name",
            "setoption name value 3",
            "setoption name  \r\n",
        ] {
            assert_eq!(
                err(line),
                ParseError::MissingArgument {
                    command: "setoption",
                    what: "an option name after 'name'",
                },
                "{line:?}"
            );
        }
    }

    // ----- register -----

    #[test]
    fn register_later() {
        assert_eq!(
            cmd("register later"),
            Command::Register(Registration::Later)
        );
        assert_eq!(
            cmd("register  please later"),
            Command::Register(Registration::Later)
        );
    }

    #[test]
    fn register_name_and_code() {
        assert_eq!(
            cmd("register name Stefan MK code 4359874324"),
            Command::Register(Registration::Details {
                name: Some("Stefan MK".into()),
                code: Some("4359874324".into()),
            })
        );
        // Either order.
        assert_eq!(
            cmd("register code 12 34 name Ann"),
            Command::Register(Registration::Details {
                name: Some("Ann".into()),
                code: Some("12 34".into()),
            })
        );
    }

    #[test]
    fn register_with_one_part() {
        assert_eq!(
            cmd("register name Stefan"),
            Command::Register(Registration::Details {
                name: Some("Stefan".into()),
                code: None,
            })
        );
        assert_eq!(
            cmd("register code 42"),
            Command::Register(Registration::Details {
                name: None,
                code: Some("42".into()),
            })
        );
        // A keyword with nothing after it gives an empty part, not a missing one.
        assert_eq!(
            cmd("register name code 42"),
            Command::Register(Registration::Details {
                name: Some(String::new()),
                code: Some("42".into()),
            })
        );
    }

    #[test]
    fn register_later_inside_a_name_is_part_of_the_name() {
        assert_eq!(
            cmd("register name See You later"),
            Command::Register(Registration::Details {
                name: Some("See You later".into()),
                code: None,
            })
        );
    }

    #[test]
    fn bare_register_is_missing_argument() {
        let expected = ParseError::MissingArgument {
            command: "register",
            what: "'later' or 'name <x> code <y>'",
        };
        assert_eq!(err("register"), expected);
        assert_eq!(err("register soon"), expected);
    }

    // ----- position -----

    #[test]
    fn position_startpos() {
        assert_eq!(
            cmd("position startpos"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec![],
            }
        );
    }

    #[test]
    fn position_startpos_with_moves() {
        assert_eq!(
            cmd("position startpos moves e2e4 e7e5 g1f3"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: strings(&["e2e4", "e7e5", "g1f3"]),
            }
        );
    }

    #[test]
    fn position_moves_without_moves_is_empty_list() {
        assert_eq!(
            cmd("position startpos moves"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec![],
            }
        );
        assert_eq!(
            cmd("position fen 8/8/8 w moves"),
            Command::Position {
                start: StartPosition::Fen("8/8/8 w".into()),
                moves: vec![],
            }
        );
    }

    #[test]
    fn position_fen() {
        assert_eq!(
            cmd("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
            Command::Position {
                start: StartPosition::Fen(
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".into()
                ),
                moves: vec![],
            }
        );
    }

    #[test]
    fn position_fen_with_moves() {
        assert_eq!(
            cmd("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1b1 h1g1"),
            Command::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: strings(&["a1b1", "h1g1"]),
            }
        );
    }

    #[test]
    fn position_skips_unknown_tokens() {
        assert_eq!(
            cmd("position now startpos then moves d2d4"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: strings(&["d2d4"]),
            }
        );
    }

    #[test]
    fn moves_after_startpos_without_their_keyword_are_refused() {
        let e = err("position startpos d3 c3");
        assert_eq!(
            e,
            ParseError::InvalidValue {
                command: "position",
                keyword: "startpos",
                value: "d3 c3".into(),
                expected: "'moves' and the moves (position startpos moves <m1> ...)",
            }
        );
        assert!(e.refused_a_position());
        // A bare `moves` is no move at all.
        assert_eq!(
            cmd("position startpos moves"),
            Command::Position {
                start: StartPosition::StartPos,
                moves: vec![],
            }
        );
    }

    #[test]
    fn position_without_start_is_missing_argument() {
        let expected = ParseError::MissingArgument {
            command: "position",
            what: "'startpos' or 'fen <text>'",
        };
        assert_eq!(err("position"), expected);
        assert_eq!(err("position moves e2e4"), expected);
        assert_eq!(err("position start"), expected);
    }

    #[test]
    fn position_empty_fen_is_missing_argument() {
        let expected = ParseError::MissingArgument {
            command: "position",
            what: "a position text after 'fen'",
        };
        assert_eq!(err("position fen"), expected);
        assert_eq!(err("position fen moves e2e4"), expected);
        assert_eq!(err("position fen   \r\n"), expected);
    }

    // ----- go -----

    #[test]
    fn bare_go_is_default() {
        assert_eq!(cmd("go"), Command::Go(GoParams::default()));
        assert_eq!(cmd("go\r\n"), Command::Go(GoParams::default()));
    }

    #[test]
    fn go_every_keyword() {
        let params = go(
            "go searchmoves e2e4 d2d4 ponder wtime 300000 btime 299000 winc 2000 \
             binc 1000 movestogo 40 depth 12 nodes 5000000 mate 3 movetime 1500 infinite",
        );
        assert_eq!(
            params,
            GoParams {
                search_moves: strings(&["e2e4", "d2d4"]),
                ponder: true,
                wtime: Some(300_000),
                btime: Some(299_000),
                winc: Some(2000),
                binc: Some(1000),
                moves_to_go: Some(40),
                depth: Some(12),
                nodes: Some(5_000_000),
                mate: Some(3),
                movetime: Some(1500),
                infinite: true,
                skipped: Vec::new(),
            }
        );
    }

    #[test]
    fn go_each_keyword_alone() {
        assert!(go("go ponder").ponder);
        assert!(go("go infinite").infinite);
        assert_eq!(go("go wtime 100").wtime, Some(100));
        assert_eq!(go("go btime 200").btime, Some(200));
        assert_eq!(go("go winc 10").winc, Some(10));
        assert_eq!(go("go binc 20").binc, Some(20));
        assert_eq!(go("go movestogo 5").moves_to_go, Some(5));
        assert_eq!(go("go depth 9").depth, Some(9));
        assert_eq!(go("go nodes 18446744073709551615").nodes, Some(u64::MAX));
        assert_eq!(go("go mate 2").mate, Some(2));
        assert_eq!(go("go movetime 999").movetime, Some(999));
        assert_eq!(go("go searchmoves a1a2").search_moves, strings(&["a1a2"]));
    }

    #[test]
    fn go_clock_values_may_be_negative() {
        let params = go("go wtime -150 btime -1 winc -5 binc -0");
        assert_eq!(params.wtime, Some(-150));
        assert_eq!(params.btime, Some(-1));
        assert_eq!(params.winc, Some(-5));
        assert_eq!(params.binc, Some(0));
    }

    #[test]
    fn go_searchmoves_ends_at_next_keyword() {
        for keyword in GO_KEYWORDS.iter().filter(|k| **k != "searchmoves") {
            // Give every keyword a value so the line parses whatever it is.
            let value = match *keyword {
                "ponder" | "infinite" => "",
                _ => " 1",
            };
            let line = format!("go searchmoves e2e4 e7e5 {keyword}{value}");
            match cmd(&line) {
                Command::Go(params) => {
                    assert_eq!(params.search_moves, strings(&["e2e4", "e7e5"]), "{line}");
                }
                Command::Perft { depth } => assert_eq!((*keyword, depth), ("perft", 1)),
                other => panic!("{line:?} gave {other:?}"),
            }
        }
        let params = go("go searchmoves e2e4 d2d4 depth 5 wtime 10");
        assert_eq!(params.search_moves, strings(&["e2e4", "d2d4"]));
        assert_eq!(params.depth, Some(5));
        assert_eq!(params.wtime, Some(10));
    }

    #[test]
    fn go_searchmoves_empty() {
        assert_eq!(go("go searchmoves").search_moves, Vec::<String>::new());
        assert_eq!(
            go("go searchmoves infinite"),
            GoParams {
                infinite: true,
                ..GoParams::default()
            }
        );
    }

    #[test]
    fn go_unknown_tokens_are_skipped() {
        assert_eq!(go("go foo depth 5").depth, Some(5));
        assert_eq!(
            go("go depth 5 bar"),
            GoParams {
                depth: Some(5),
                skipped: strings(&["bar"]),
                ..GoParams::default()
            }
        );
        let quickly = go("go quickly please");
        assert_eq!(quickly.skipped, strings(&["quickly", "please"]));
        assert!(!quickly.has_a_limit());
        // A typo that leaves the search with no limit (it would run until
        // stop): the engine is told which word was skipped.
        let typo = go("go movetime100");
        assert_eq!(typo.movetime, None);
        assert_eq!(typo.skipped, strings(&["movetime100"]));
        assert!(!typo.has_a_limit());
        assert!(go("go depth 3 foo 7").has_a_limit());
        assert!(!go("go infinite depth 3").has_a_limit());
    }

    #[test]
    fn go_repeated_keyword_keeps_last_value() {
        assert_eq!(go("go depth 3 depth 8").depth, Some(8));
    }

    #[test]
    fn go_missing_value_for_every_numeric_keyword() {
        for keyword in [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "mate",
            "movetime",
            "perft",
        ] {
            let line = format!("go {keyword}");
            assert_eq!(err(&line), missing_value(keyword), "{line}");
            let line = format!("go infinite {keyword} \r\n");
            assert_eq!(err(&line), missing_value(keyword), "{line}");
        }
    }

    #[test]
    fn go_invalid_value_for_every_numeric_keyword() {
        for keyword in ["wtime", "btime", "winc", "binc", "movetime"] {
            let line = format!("go {keyword} soon");
            assert_eq!(err(&line), invalid(keyword, "soon", CLOCK), "{line}");
        }
        for (keyword, expected) in [
            ("movestogo", NON_NEGATIVE),
            ("depth", NON_NEGATIVE),
            ("nodes", NON_NEGATIVE),
            ("mate", POSITIVE_MATE),
            ("perft", NON_NEGATIVE),
        ] {
            let line = format!("go {keyword} many");
            assert_eq!(err(&line), invalid(keyword, "many", expected), "{line}");
            let line = format!("go {keyword} -1");
            assert_eq!(err(&line), invalid(keyword, "-1", expected), "{line}");
        }
    }

    #[test]
    fn go_mate_zero_is_refused() {
        let e = err("go mate 0").to_string();
        assert!(e.contains("a positive integer"), "{e}");
        assert_eq!(
            parse_line("go mate 1").unwrap(),
            Some(Command::Go(GoParams {
                mate: Some(1),
                ..GoParams::default()
            }))
        );
    }

    #[test]
    fn go_value_out_of_range_is_invalid() {
        assert_eq!(
            err("go depth 4294967296"),
            invalid("depth", "4294967296", TOO_LARGE)
        );
        assert_eq!(
            err("go nodes 18446744073709551616"),
            invalid("nodes", "18446744073709551616", TOO_LARGE)
        );
        // Clocks past their range are held at its ends, not refused.
        assert_eq!(go("go wtime 9223372036854775808").wtime, Some(i64::MAX));
        assert_eq!(go("go wtime -9223372036854775809").wtime, Some(i64::MIN));
        assert_eq!(go("go depth 4294967295").depth, Some(u32::MAX));
        assert_eq!(go("go wtime -9223372036854775808").wtime, Some(i64::MIN));
    }

    #[test]
    fn go_negative_depth_is_invalid() {
        assert_eq!(err("go depth -3"), invalid("depth", "-3", NON_NEGATIVE));
    }

    #[test]
    fn go_keyword_is_not_taken_as_a_value() {
        assert_eq!(
            err("go depth wtime 5"),
            invalid("depth", "wtime", NON_NEGATIVE)
        );
    }

    // ----- go perft -----

    #[test]
    fn go_perft() {
        assert_eq!(cmd("go perft 5"), Command::Perft { depth: 5 });
        assert_eq!(cmd("go perft 0"), Command::Perft { depth: 0 });
        assert_eq!(cmd("go  foo perft\t6\r\n"), Command::Perft { depth: 6 });
        // perft wins over the search keywords around it.
        assert_eq!(
            cmd("go depth 3 perft 4 infinite"),
            Command::Perft { depth: 4 }
        );
    }

    #[test]
    fn go_perft_without_number_is_missing_value() {
        assert_eq!(err("go perft"), missing_value("perft"));
    }

    #[test]
    fn go_perft_invalid_number() {
        assert_eq!(err("go perft x"), invalid("perft", "x", NON_NEGATIVE));
        assert_eq!(err("go perft -2"), invalid("perft", "-2", NON_NEGATIVE));
        assert_eq!(
            err("go perft 99999999999"),
            invalid("perft", "99999999999", TOO_LARGE)
        );
    }

    #[test]
    fn clocks_past_their_range_or_with_a_fraction_are_read() {
        let go = |line: &str| match parse_line(line) {
            Ok(Some(Command::Go(params))) => params,
            other => panic!("{line}: {other:?}"),
        };
        let params = go("go wtime 99999999999999999999 btime -99999999999999999999 winc 10.7 binc 1e3 movetime 250.9");
        assert_eq!(params.wtime, Some(i64::MAX));
        assert_eq!(params.btime, Some(i64::MIN));
        assert_eq!(params.winc, Some(10));
        assert_eq!(params.binc, Some(1000));
        assert_eq!(params.movetime, Some(250));
        assert_eq!(err("go wtime soon"), invalid("wtime", "soon", CLOCK));
        assert_eq!(err("go wtime inf"), invalid("wtime", "inf", CLOCK));
        assert_eq!(go("go movetime -5").movetime, Some(0));
    }

    #[test]
    fn go_perft_with_bad_other_keyword_is_still_an_error() {
        assert_eq!(
            err("go perft 3 depth x"),
            invalid("depth", "x", NON_NEGATIVE)
        );
    }

    // ----- bench -----

    #[test]
    fn bench_forms() {
        assert_eq!(
            cmd("bench"),
            Command::Bench {
                game: None,
                depth: None,
                skipped: Vec::new(),
            }
        );
        assert_eq!(
            cmd("bench othello"),
            Command::Bench {
                game: Some("othello".into()),
                depth: None,
                skipped: Vec::new(),
            }
        );
        assert_eq!(
            cmd("bench 7"),
            Command::Bench {
                game: None,
                depth: Some(7),
                skipped: Vec::new(),
            }
        );
        let both = Command::Bench {
            game: Some("othello".into()),
            depth: Some(7),
            skipped: Vec::new(),
        };
        assert_eq!(cmd("bench othello 7"), both);
        assert_eq!(cmd("bench 7 othello"), both);
        assert_eq!(cmd("bench\t7   othello\r\n"), both);
    }

    #[test]
    fn bench_extra_tokens_keep_the_first() {
        assert_eq!(
            cmd("bench othello 7 chess 9"),
            Command::Bench {
                game: Some("othello".into()),
                depth: Some(7),
                skipped: strings(&["chess", "9"]),
            }
        );
    }

    #[test]
    fn bench_bad_depth_is_invalid_value() {
        for (value, expected) in [("-3", NON_NEGATIVE), ("4294967296", TOO_LARGE)] {
            assert_eq!(
                err(&format!("bench {value}")),
                ParseError::InvalidValue {
                    command: "bench",
                    keyword: "depth",
                    value: value.into(),
                    expected,
                }
            );
        }
    }

    #[test]
    fn integer_shape() {
        assert!(looks_like_integer("0"));
        assert!(looks_like_integer("+12"));
        assert!(looks_like_integer("-12"));
        assert!(!looks_like_integer("-"));
        assert!(!looks_like_integer(""));
        assert!(!looks_like_integer("1a"));
        assert!(!looks_like_integer("othello8"));
    }
}
