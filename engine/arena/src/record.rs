//! The game log: a header naming the match, then one record per game, in a
//! PGN-like form of `[Tag "value"]` lines. The header is tags only; a game
//! record ends with the game's `position` command; each ends with a blank
//! line, so a record cut short (the arena killed while writing it) is one
//! that does not end in a blank line.
//!
//! The header holds what the match's games depend on (variant, engines and
//! their limits, openings, seed, games, ply limit), so that `--resume` can
//! tell whether a log belongs to the command it was given, and can take
//! the seed of a match whose seed came from the clock.
//!
//! The `position` line is exactly what the engines were last sent, plus the
//! move that ended the game if it was legal, so any game can be replayed by
//! pasting it into plyd (or checked move by move with the plugin). Chance
//! outcomes that the arena drew are in it like moves.

use std::fmt;
use std::io::Write;

use crate::openings::{position_command, Start};

/// Who won, by side: the first player is side 0 (Othello's Black), whatever
/// the game calls its sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// The first player won (`1-0`).
    FirstWins,
    /// The second player won (`0-1`).
    SecondWins,
    /// A draw (`1/2-1/2`).
    Draw,
}

impl GameResult {
    /// The result with the given side as the winner.
    pub fn win_for(side: u32) -> Self {
        if side == 0 {
            GameResult::FirstWins
        } else {
            GameResult::SecondWins
        }
    }

    /// The result with the given side as the loser.
    pub fn loss_for(side: u32) -> Self {
        Self::win_for(1 - side.min(1))
    }

    /// Points of the player on `side`: 1, 1/2 or 0.
    pub fn points_for(self, side: u32) -> f64 {
        match (self, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::FirstWins, 0) | (GameResult::SecondWins, 1) => 1.0,
            _ => 0.0,
        }
    }
}

impl std::str::FromStr for GameResult {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "1-0" => Ok(GameResult::FirstWins),
            "0-1" => Ok(GameResult::SecondWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            other => Err(format!("'{other}' is not a result")),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

/// How a game ended, as counted in the final table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ending {
    /// The rules ended it: no legal moves, and the plugin's outcome.
    Rules,
    /// It reached the ply limit and was scored a draw.
    MaxPlies,
    /// A player used more than its time plus the margin.
    TimeForfeit,
    /// A player with no time limit gave no move within the timeout.
    NoAnswer,
    /// A player answered an illegal or unreadable move.
    IllegalMove,
    /// A player's process exited.
    Crash,
    /// A player's daemon reported a plugin of its (the game's or its
    /// evaluator's) failed and was disabled: it would play on with another
    /// evaluator, or none, which is not the engine set up for the match.
    PluginFailure,
}

impl Ending {
    /// Every ending, in the order of the final table.
    pub const ALL: [Ending; 7] = [
        Ending::Rules,
        Ending::MaxPlies,
        Ending::TimeForfeit,
        Ending::NoAnswer,
        Ending::IllegalMove,
        Ending::Crash,
        Ending::PluginFailure,
    ];
}

impl std::str::FromStr for Ending {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Ending::ALL
            .into_iter()
            .find(|e| e.to_string() == text)
            .ok_or_else(|| format!("'{text}' is not an ending"))
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ending::Rules => "rules",
            Ending::MaxPlies => "max plies",
            Ending::TimeForfeit => "time forfeit",
            Ending::NoAnswer => "no answer",
            Ending::IllegalMove => "illegal move",
            Ending::Crash => "crash",
            Ending::PluginFailure => "plugin failure",
        })
    }
}

/// Everything recorded about one finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Game number, from 1, in the order games were scheduled.
    pub number: usize,
    /// The variant played.
    pub variant: String,
    /// The names of the first and the second player.
    pub players: [String; 2],
    /// Which engine (0 for the first `--engine`) was the first player.
    pub first_engine: usize,
    /// Where the opening came from.
    pub opening: String,
    /// How many of `moves` the opening played.
    pub opening_plies: usize,
    /// The start of the game.
    pub start: Start,
    /// Every move and chance outcome, opening included.
    pub moves: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// How the game ended.
    pub ending: Ending,
    /// One line on how the game ended (`illegal move 'z9' by b`).
    pub reason: String,
    /// The position text at the end.
    pub final_position: String,
    /// The match seed (openings and chance outcomes follow from it).
    pub seed: u64,
    /// The move that left its player the least time, if any was timed.
    pub closest: Option<ClosestCall>,
    /// The movers' scores of the plies after the opening, one a ply, as
    /// the `Scores` tag writes them ([`NO_SCORE`] for a chance outcome or
    /// a move its engine gave no score for); empty where none was kept.
    pub scores: Vec<String>,
    /// The milliseconds each ply after the opening took its engine, from
    /// the `go` sent to the `bestmove` read, as the `Times` tag writes
    /// them ([`NO_SCORE`] for a chance outcome); empty where none was
    /// kept (logs written before the tag).
    pub times: Vec<String>,
    /// The nodes each ply's engine said it searched (its last `info`
    /// line's `nodes`), as the `Nodes` tag writes them ([`NO_SCORE`] for a
    /// chance outcome or a move whose engine said none); empty where none
    /// was kept.
    pub nodes: Vec<String>,
}

/// The timed move of a game that left its player the least time: how close
/// the game came to a loss on time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosestCall {
    /// Milliseconds the player had left when the move came: its clock (or
    /// its move time) less the time the move took. Below zero for a move
    /// late by less than the margin, or one that lost on time.
    pub left_ms: i64,
    /// The move's ply, from 1, opening plies and chance outcomes counted.
    pub ply: usize,
    /// The side that made it: 0 for the first player.
    pub side: usize,
}

impl ClosestCall {
    /// The one of `self` and `other` that left less time; `self` on a tie.
    pub fn closer(self, other: ClosestCall) -> ClosestCall {
        if other.left_ms < self.left_ms {
            other
        } else {
            self
        }
    }

    /// The tag value, `37 ms at ply 81 by the second player`.
    fn tag_value(&self) -> String {
        let side = if self.side == 0 { "first" } else { "second" };
        format!(
            "{} ms at ply {} by the {side} player",
            self.left_ms, self.ply
        )
    }
}

impl std::str::FromStr for ClosestCall {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad =
            || format!("'{text}' is not a LeastLeft (like '37 ms at ply 81 by the first player')");
        let (left, rest) = text.split_once(" ms at ply ").ok_or_else(bad)?;
        let (ply, side) = rest.split_once(" by the ").ok_or_else(bad)?;
        let side = match side {
            "first player" => 0,
            "second player" => 1,
            _ => return Err(bad()),
        };
        Ok(ClosestCall {
            left_ms: left.parse().map_err(|_| bad())?,
            ply: ply.parse().map_err(|_| bad())?,
            side,
        })
    }
}

impl GameRecord {
    /// Points of engine `engine` (0 or 1) in this game.
    pub fn points_of_engine(&self, engine: usize) -> f64 {
        let side = if engine == self.first_engine { 0 } else { 1 };
        self.result.points_for(side)
    }

    /// The `position` command that replays the whole game.
    pub fn position_line(&self) -> String {
        position_command(&self.start, &self.moves)
    }

    /// Write the record, then a blank line.
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let tag = tag_line;
        let mut text = String::new();
        text += &tag("Game", &self.number.to_string());
        text += &tag("Variant", &self.variant);
        text += &tag("First", &self.players[0]);
        text += &tag("Second", &self.players[1]);
        text += &tag("Opening", &self.opening);
        text += &tag("OpeningPlies", &self.opening_plies.to_string());
        text += &tag("Seed", &self.seed.to_string());
        text += &tag("Plies", &self.moves.len().to_string());
        text += &tag("Result", &self.result.to_string());
        text += &tag("Ending", &self.ending.to_string());
        text += &tag("Reason", &self.reason);
        text += &tag("FinalPosition", &self.final_position);
        if let Some(closest) = &self.closest {
            text += &tag(LEAST_LEFT_TAG, &closest.tag_value());
        }
        for (name, words) in [
            (SCORES_TAG, &self.scores),
            (TIMES_TAG, &self.times),
            (NODES_TAG, &self.nodes),
        ] {
            if words.iter().any(|s| s != NO_SCORE) {
                text += &tag(name, &words.join(" "));
            }
        }
        text += &self.position_line();
        text += "\n\n";
        out.write_all(text.as_bytes())?;
        out.flush()
    }
}

/// What identifies a match: the first block of its game log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchHeader {
    /// The variant played.
    pub variant: String,
    /// The engines' names, the first `--engine` first.
    pub engines: [String; 2],
    /// Each engine's limits, as the arena prints them (`depth=4`).
    pub limits: [String; 2],
    /// Games in the match (`--games`).
    pub games: usize,
    /// `--openings`, as the arena prints it (`random:4`).
    pub openings: String,
    /// The match seed.
    pub seed: u64,
    /// `--max-plies`, if given.
    pub max_plies: Option<u32>,
    /// Each engine's arguments and options ([`crate::args::EngineSpec::setup`]);
    /// `None` for a log written before they were recorded.
    pub setups: Option<[String; 2]>,
    /// The referee's `--game-option` settings (`MoveRanks=1-10`, `none`);
    /// `None` for a log written before they were recorded.
    pub game_options: Option<String>,
    /// The files each engine reads its evaluation or book from, with their
    /// contents' fingerprints ([`crate::args::EngineSpec::input_files`]);
    /// `None` for a log written before they were recorded.
    pub files: Option<[String; 2]>,
    /// The SPRT asked for (`elo0=0 elo1=5 alpha=0.05 beta=0.05`, `none`):
    /// a resume may not change the rule that stops the match; `None` for a
    /// log written before it was recorded.
    pub sprt: Option<String>,
    /// The fingerprint of the openings file's contents (`fnv1a64:...`),
    /// `none` for openings of no file: the
    /// lines a resume has still to play must be those the match began
    /// with; `None` for a log written before it was recorded.
    pub openings_file: Option<String>,
    /// The `--record` file the games are written to as well (`none`): not
    /// checked on a resume, which may write them elsewhere, but told when
    /// a resume writes none; `None` for a log written before it was kept.
    pub record: Option<String>,
    /// The build of plyd whose arena began the match (`plyd 0.1.0 (commit
    /// ...)`), and each engine's program with its fingerprint
    /// ([`crate::args::EngineSpec::program_line`]): written to tell
    /// results apart, never checked on a resume (a rebuilt program may go
    /// on with a match); `None` for a log written before they were kept.
    pub build: Option<String>,
    /// See [`MatchHeader::build`].
    pub programs: Option<[String; 2]>,
}

/// The tag of a game's move times ([`GameRecord::times`]); logs written
/// before it have none.
pub const TIMES_TAG: &str = "Times";
/// The tag of a game's node counts ([`GameRecord::nodes`]); logs written
/// before it have none.
pub const NODES_TAG: &str = "Nodes";

/// Whether `word` is a word of the `Times` or `Nodes` tag: a whole
/// number, or [`NO_SCORE`].
pub fn is_count_word(word: &str) -> bool {
    word == NO_SCORE || (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
}

/// The tag of a game's [`ClosestCall`]; logs written before it have none.
pub const LEAST_LEFT_TAG: &str = "LeastLeft";

/// The tag of a game's scores: one word a ply after the opening, the
/// mover's score as its engine's last `info` line before the move gave it
/// (`34/12`: `score cp 34` at depth 12; `#-3/9`: mated in three), or
/// [`NO_SCORE`].
pub const SCORES_TAG: &str = "Scores";

/// A ply of the `Scores` tag without a score: a chance outcome, or a move
/// whose engine gave none.
pub const NO_SCORE: &str = "-";

/// Whether `word` is one ply of a `Scores` tag.
pub fn is_score_word(word: &str) -> bool {
    if word == NO_SCORE {
        return true;
    }
    let (value, depth) = match word.split_once('/') {
        Some((value, depth)) => (value, Some(depth)),
        None => (word, None),
    };
    let number = |text: &str| {
        let digits = text.strip_prefix('-').unwrap_or(text);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    number(value.strip_prefix('#').unwrap_or(value))
        && depth.is_none_or(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// The tag that opens a log's header, and the log format it names.
pub const HEADER_TAG: &str = "Arena";
/// The format written in the header's first tag.
pub const LOG_FORMAT: &str = "plyd arena game log 2";

impl MatchHeader {
    /// The header as `(tag, value)` pairs, in the order written.
    pub fn tags(&self) -> Vec<(&'static str, String)> {
        vec![
            (HEADER_TAG, LOG_FORMAT.to_string()),
            ("Variant", self.variant.clone()),
            ("Engine1", self.engines[0].clone()),
            ("Limits1", self.limits[0].clone()),
            ("Engine2", self.engines[1].clone()),
            ("Limits2", self.limits[1].clone()),
            ("Games", self.games.to_string()),
            ("Openings", self.openings.clone()),
            ("Seed", self.seed.to_string()),
            (
                "MaxPlies",
                self.max_plies.map_or("none".to_string(), |n| n.to_string()),
            ),
        ]
        .into_iter()
        .chain(
            self.setups
                .iter()
                .flat_map(|[a, b]| [("Setup1", a.clone()), ("Setup2", b.clone())]),
        )
        .chain(self.game_options.iter().map(|o| ("GameOptions", o.clone())))
        .chain(
            self.files
                .iter()
                .flat_map(|[a, b]| [("Files1", a.clone()), ("Files2", b.clone())]),
        )
        .chain(self.sprt.iter().map(|s| ("Sprt", s.clone())))
        .chain(
            self.openings_file
                .iter()
                .map(|f| ("OpeningsFile", f.clone())),
        )
        .chain(self.record.iter().map(|r| ("Record", r.clone())))
        .chain(self.build.iter().map(|b| ("Build", b.clone())))
        .chain(
            self.programs
                .iter()
                .flat_map(|[a, b]| [("Program1", a.clone()), ("Program2", b.clone())]),
        )
        .collect()
    }

    /// Write the header, then a blank line.
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut text = String::new();
        for (name, value) in self.tags() {
            text += &tag_line(name, &value);
        }
        text += "\n";
        out.write_all(text.as_bytes())?;
        out.flush()
    }
}

/// One `[Name "value"]` line.
fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", escape(value))
}

/// Tag values are quoted; a quote or backslash inside is escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Read a `[Name "value"]` line back: the name and the unescaped value, or
/// `None` if the line is not one.
pub fn parse_tag(line: &str) -> Option<(&str, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, quoted) = inner.split_once(' ')?;
    let quoted = quoted.strip_prefix('"')?.strip_suffix('"')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_by_side() {
        assert_eq!(GameResult::win_for(0), GameResult::FirstWins);
        assert_eq!(GameResult::loss_for(0), GameResult::SecondWins);
        assert_eq!(GameResult::loss_for(1), GameResult::FirstWins);
        assert_eq!(GameResult::FirstWins.points_for(0), 1.0);
        assert_eq!(GameResult::FirstWins.points_for(1), 0.0);
        assert_eq!(GameResult::Draw.points_for(1), 0.5);
        assert_eq!(GameResult::Draw.to_string(), "1/2-1/2");
    }

    #[test]
    fn a_record_reads_back() {
        let record = GameRecord {
            number: 7,
            variant: "othello".into(),
            players: ["b".into(), "a".into()],
            first_engine: 1,
            opening: "book.txt:3".into(),
            opening_plies: 1,
            start: Start::StartPos,
            moves: vec!["f5".into()],
            result: GameResult::FirstWins,
            ending: Ending::IllegalMove,
            reason: "illegal move 'z\"9' by a".into(),
            final_position: "8/8 w".into(),
            seed: 1,
            closest: Some(ClosestCall {
                left_ms: -3,
                ply: 1,
                side: 0,
            }),
            scores: vec![NO_SCORE.to_string()],
            times: Vec::new(),
            nodes: Vec::new(),
        };
        let mut out = Vec::new();
        record.write_to(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("[Game \"7\"]\n[Variant \"othello\"]\n[First \"b\"]\n"));
        assert!(text.contains("[Reason \"illegal move 'z\\\"9' by a\"]\n"));
        assert!(text.ends_with(
            "[LeastLeft \"-3 ms at ply 1 by the first player\"]\nposition startpos moves f5\n\n"
        ), "{text}");
        assert_eq!(
            "-3 ms at ply 1 by the first player".parse::<ClosestCall>(),
            Ok(record.closest.unwrap())
        );
        for bad in [
            "",
            "3 ms",
            "x ms at ply 1 by the first player",
            "3 ms at ply 1 by the third player",
        ] {
            assert!(bad.parse::<ClosestCall>().is_err(), "{bad}");
        }
        // Engine 1 played first and won.
        assert_eq!(record.points_of_engine(1), 1.0);
        assert_eq!(record.points_of_engine(0), 0.0);
        // No score kept: no Scores tag.
        assert!(!text.contains("Scores"), "{text}");
        let scored = GameRecord {
            moves: vec!["f5".into(), "d6".into(), "c3".into()],
            scores: vec!["12/5".into(), NO_SCORE.into()],
            times: Vec::new(),
            nodes: Vec::new(),
            closest: None,
            ..record
        };
        let mut out = Vec::new();
        scored.write_to(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.ends_with("[Scores \"12/5 -\"]\nposition startpos moves f5 d6 c3\n\n"),
            "{text}"
        );
    }

    #[test]
    fn score_words() {
        for good in ["-", "0", "34/12", "-7", "-7/1", "#3", "#-3/9", "#0/0"] {
            assert!(is_score_word(good), "{good}");
        }
        for bad in [
            "", "--", "/3", "3/", "3/-1", "#", "#-", "cp", "3.5", "3/x", "+3", "1/2/3",
        ] {
            assert!(!is_score_word(bad), "{bad}");
        }
    }
}
