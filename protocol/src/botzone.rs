//! Botzone's bot input and output, for its Amazons (8x8) and Reversi games.
//!
//! A Botzone bot is started, given one turn's input, and answers one line.
//! The input is either simple — a line with the turn number `n`, then the
//! `2n - 1` lines of the requests and the bot's own earlier responses,
//! alternating — or one line of JSON (`{"requests":[...],"responses":[...]}`).
//! A bot that answers and then prints `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`
//! stays alive, and each later turn brings only that turn's request.
//!
//! A move is numbers: Amazons `x0 y0 x1 y1 x2 y2` (from, to, arrow),
//! Reversi `x y`; `x` counts columns from the left and `y` rows from the
//! top, from 0, and all `-1` means no move (the first request of the first
//! player, or a pass). In plyd's notation both games write column `x` as
//! the file letter and row `y` as rank `y + 1` (Botzone's top row holds the
//! Amazons' first player, plyd's rank 1, and Othello's a1 is the top-left
//! square).

use crate::json::Json;

/// Highest turn number read: a game of either Botzone game ends in a
/// hundred turns, and the history of `n` turns is `2n - 1` lines to read.
const MAX_TURNS: usize = 10_000;

/// The line that asks Botzone to keep the bot running.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// The Botzone games plyd plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotzoneGame {
    /// Amazons on 8x8 (plyd's `amazons8`).
    Amazons,
    /// Reversi (plyd's `othello`).
    Reversi,
}

impl BotzoneGame {
    /// The plyd variant.
    pub fn variant(self) -> &'static str {
        match self {
            BotzoneGame::Amazons => "amazons8",
            BotzoneGame::Reversi => "othello",
        }
    }

    /// The game of a plyd variant.
    pub fn of_variant(name: &str) -> Option<BotzoneGame> {
        match name {
            // Botzone's Amazons is played on 8x8 only.
            "amazons8" | "amazons" => Some(BotzoneGame::Amazons),
            "othello" => Some(BotzoneGame::Reversi),
            _ => None,
        }
    }

    fn numbers(self) -> usize {
        match self {
            BotzoneGame::Amazons => 6,
            BotzoneGame::Reversi => 2,
        }
    }

    fn keys(self) -> &'static [&'static str] {
        match self {
            BotzoneGame::Amazons => &["x0", "y0", "x1", "y1", "x2", "y2"],
            BotzoneGame::Reversi => &["x", "y"],
        }
    }
}

/// One move as Botzone writes it: 6 or 2 numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotzoneMove(pub Vec<i32>);

impl BotzoneMove {
    /// The game whose moves have this many numbers.
    pub fn game(&self) -> Option<BotzoneGame> {
        match self.0.len() {
            6 => Some(BotzoneGame::Amazons),
            2 => Some(BotzoneGame::Reversi),
            _ => None,
        }
    }

    /// All `-1`: no move (the first player's first request, or a pass).
    pub fn is_none(&self) -> bool {
        self.0.iter().all(|&n| n == -1)
    }

    /// The move in plyd's notation; `None` for no move.
    pub fn to_plyd(&self) -> Result<Option<String>, String> {
        if self.is_none() {
            return Ok(None);
        }
        let mut text = String::new();
        for pair in self.0.chunks(2) {
            let (x, y) = (pair[0], pair[1]);
            if !(0..8).contains(&x) || !(0..8).contains(&y) {
                return Err(format!("({x}, {y}) is not a square of the 8x8 board"));
            }
            text.push((b'a' + x as u8) as char);
            text += &(y + 1).to_string();
        }
        Ok(Some(text))
    }

    /// A plyd move (or its pass, `0000` or `pass`) in Botzone's numbers.
    pub fn from_plyd(game: BotzoneGame, text: &str) -> Result<BotzoneMove, String> {
        if matches!(text, "0000" | "pass" | "PA") {
            return Ok(BotzoneMove(vec![-1; game.numbers()]));
        }
        let mut numbers = Vec::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let file = bytes[i].to_ascii_lowercase();
            i += 1;
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let rank: i32 = text[start..i]
                .parse()
                .map_err(|_| format!("'{text}' is not a move of squares"))?;
            if !(b'a'..=b'h').contains(&file) || !(1..=8).contains(&rank) {
                return Err(format!("'{text}' leaves the 8x8 board"));
            }
            numbers.push(i32::from(file - b'a'));
            numbers.push(rank - 1);
        }
        if numbers.len() != game.numbers() {
            return Err(format!("'{text}' is not a {game:?} move"));
        }
        Ok(BotzoneMove(numbers))
    }

    /// Read `x0 y0 ...` numbers.
    fn from_words(line: &str) -> Option<BotzoneMove> {
        let numbers: Option<Vec<i32>> = line.split_whitespace().map(|w| w.parse().ok()).collect();
        let mv = BotzoneMove(numbers?);
        mv.game().map(|_| mv)
    }

    /// Read a JSON request object.
    fn from_json(value: &Json) -> Option<BotzoneMove> {
        for game in [BotzoneGame::Amazons, BotzoneGame::Reversi] {
            let numbers: Option<Vec<i32>> = game
                .keys()
                .iter()
                .map(|k| {
                    value
                        .get(k)
                        .and_then(Json::as_i64)
                        .and_then(|n| i32::try_from(n).ok())
                })
                .collect();
            if let Some(numbers) = numbers {
                return Some(BotzoneMove(numbers));
            }
        }
        None
    }

    /// The answer line: the numbers, or a JSON object.
    pub fn answer(&self, json: bool) -> String {
        if !json {
            return self
                .0
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(" ");
        }
        format!("{{\"response\":{}}}", self.object())
    }

    /// The move as a JSON object of Botzone's keys (`{"x":3,"y":2}`), as
    /// a JSON request holds it.
    pub fn object(&self) -> String {
        let game = self.game().unwrap_or(BotzoneGame::Reversi);
        let members: Vec<String> = game
            .keys()
            .iter()
            .zip(&self.0)
            .map(|(k, n)| format!("\"{k}\":{n}"))
            .collect();
        format!("{{{}}}", members.join(","))
    }

    /// The move as the input that held it spelled it: numbers, or a
    /// JSON object where the input was JSON.
    pub fn as_sent(&self, json: bool) -> String {
        if json {
            self.object()
        } else {
            self.answer(false)
        }
    }
}

/// A turn's input, read whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotzoneInput {
    /// The whole history: the requests, and the bot's responses between
    /// them (one fewer).
    Full {
        /// The requests, oldest first.
        requests: Vec<BotzoneMove>,
        /// The bot's earlier responses.
        responses: Vec<BotzoneMove>,
        /// Whether it came as JSON (and wants a JSON answer).
        json: bool,
        /// The JSON input's `time_limit`, Botzone's limit for a turn of
        /// this bot, in milliseconds: `None` when absent (simple input
        /// never has it), `Some(Err)` with what was there when it is not
        /// a number of seconds in (0, 3600].
        time_limit: Option<Result<u64, String>>,
    },
    /// A kept-running bot's next request.
    Next {
        /// The request.
        request: BotzoneMove,
        /// Whether it came as JSON.
        json: bool,
    },
}

/// Reads the lines of a turn's input as they come.
#[derive(Debug, Default, Clone)]
pub struct BotzoneReader {
    /// Lines still to come of a simple input, and those read.
    expecting: Option<(usize, Vec<String>)>,
}

impl BotzoneReader {
    /// Whether a simple input's lines are still coming.
    pub fn reading(&self) -> bool {
        self.expecting.is_some()
    }

    /// For a simple input whose lines are still coming: the history lines
    /// read, and how many its turn number asks for.
    pub fn lines_read_and_needed(&self) -> Option<(usize, usize)> {
        self.expecting
            .as_ref()
            .map(|(left, lines)| (lines.len(), lines.len() + left))
    }

    /// Take one line. `Ok(Some)` when a turn's input is complete,
    /// `Ok(None)` when more lines are needed or the line is one Botzone
    /// adds that plyd does not use (the `data` lines, blank lines).
    pub fn feed(&mut self, line: &str) -> Result<Option<BotzoneInput>, String> {
        let line = line.trim();
        if let Some((left, lines)) = &mut self.expecting {
            lines.push(line.to_string());
            *left -= 1;
            if *left > 0 {
                return Ok(None);
            }
            let (_, lines) = self.expecting.take().unwrap_or_default();
            return simple_history(&lines).map(Some);
        }
        if line.is_empty() {
            return Ok(None);
        }
        if line.starts_with('{') {
            return json_input(line).map(Some);
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [count] = words[..] {
            let turns: usize = count
                .parse()
                .map_err(|_| format!("'{line}' is neither a turn number nor a request"))?;
            if turns == 0 {
                return Err("the turn number starts at 1".to_string());
            }
            if turns > MAX_TURNS {
                return Err(format!(
                    "turn number {turns} is past {MAX_TURNS}: no game lasts that long"
                ));
            }
            self.expecting = Some((2 * turns - 1, Vec::new()));
            return Ok(None);
        }
        match BotzoneMove::from_words(line) {
            Some(request) => Ok(Some(BotzoneInput::Next {
                request,
                json: false,
            })),
            None => Err(format!(
                "'{line}' is not a request (6 numbers for the Amazons, 2 for Reversi)"
            )),
        }
    }
}

fn simple_history(lines: &[String]) -> Result<BotzoneInput, String> {
    let mut requests = Vec::new();
    let mut responses = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mv = BotzoneMove::from_words(line)
            .ok_or_else(|| format!("history line {}: '{line}' is not a move", i + 2))?;
        if i % 2 == 0 {
            requests.push(mv);
        } else {
            responses.push(mv);
        }
    }
    Ok(BotzoneInput::Full {
        requests,
        responses,
        json: false,
        time_limit: None,
    })
}

/// The largest `time_limit` read as seconds: Botzone's turns last a few
/// seconds (1 s for C++, doubled on the first turn), so a larger number
/// is milliseconds (bots published for Botzone read it either way).
const TIME_LIMIT_MOST_SECONDS: f64 = 100.0;

/// Botzone's `time_limit`, as a number or a string of one: seconds up to
/// [`TIME_LIMIT_MOST_SECONDS`], milliseconds above (up to an hour).
fn time_limit(value: &Json) -> Result<u64, String> {
    let number = match value {
        Json::Number(n) => Some(*n),
        Json::String(text) => text.trim().parse::<f64>().ok(),
        _ => None,
    };
    match number {
        Some(s) if s > 0.0 && s <= TIME_LIMIT_MOST_SECONDS => Ok((s * 1000.0).round() as u64),
        Some(ms) if ms > TIME_LIMIT_MOST_SECONDS && ms <= 3_600_000.0 => Ok(ms.round() as u64),
        _ => Err(format!(
            "time_limit {} is not a number of seconds (above 0, up to 100) or of milliseconds \
             (above 100, up to 3,600,000)",
            match value {
                Json::String(text) => format!("'{text}'"),
                Json::Number(n) => n.to_string(),
                _ => "of that kind".to_string(),
            }
        )),
    }
}

/// `n` things in words: `1 request`, `2 requests`.
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Why a JSON value is not a move of either game: the first key of the
/// game its keys are closest to that is missing or not an integer.
fn not_a_move(value: &Json) -> String {
    if !matches!(value, Json::Object(_)) {
        return "is not an object".to_string();
    }
    let game = [BotzoneGame::Amazons, BotzoneGame::Reversi]
        .into_iter()
        .max_by_key(|game| {
            game.keys()
                .iter()
                .filter(|k| value.get(k).is_some())
                .count()
        })
        .unwrap_or(BotzoneGame::Amazons);
    let wanted = game.keys().join(", ");
    for key in game.keys() {
        match value.get(key) {
            None => return format!("has no '{key}' (a move has integers {wanted})"),
            Some(number)
                if number
                    .as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .is_none() =>
            {
                return format!("has '{key}' that is not an integer (a move has integers {wanted})")
            }
            Some(_) => {}
        }
    }
    format!("is not a move (integers {wanted})")
}

fn json_input(line: &str) -> Result<BotzoneInput, String> {
    let value = Json::parse(line)?;
    let moves = |key: &str| -> Result<Vec<BotzoneMove>, String> {
        match value.get(key) {
            Some(Json::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    BotzoneMove::from_json(item)
                        .ok_or_else(|| format!("'{key}' item {i} {}", not_a_move(item)))
                })
                .collect(),
            Some(_) => Err(format!("'{key}' is not a list")),
            None => Ok(Vec::new()),
        }
    };
    if value.get("requests").is_some() {
        let requests = moves("requests")?;
        let responses = moves("responses")?;
        if requests.is_empty() || responses.len() + 1 != requests.len() {
            return Err(format!(
                "{} and {}: a turn's input holds one request more than responses",
                counted(requests.len(), "request", "requests"),
                counted(responses.len(), "response", "responses"),
            ));
        }
        return Ok(BotzoneInput::Full {
            requests,
            responses,
            json: true,
            time_limit: value.get("time_limit").map(time_limit),
        });
    }
    BotzoneMove::from_json(&value)
        .map(|request| BotzoneInput::Next {
            request,
            json: true,
        })
        .ok_or_else(|| {
            "a JSON input holds 'requests' or is a request: integers x and y (Reversi) \
             or x0, y0, x1, y1, x2 and y2 (the Amazons)"
                .to_string()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_map_both_ways() {
        let mv = BotzoneMove(vec![2, 0, 2, 3, 5, 6]);
        assert_eq!(mv.to_plyd().unwrap().unwrap(), "c1c4f7");
        assert_eq!(
            BotzoneMove::from_plyd(BotzoneGame::Amazons, "c1c4f7").unwrap(),
            mv
        );
        assert_eq!(
            BotzoneMove::from_plyd(BotzoneGame::Reversi, "d3").unwrap(),
            BotzoneMove(vec![3, 2])
        );
        assert_eq!(
            BotzoneMove::from_plyd(BotzoneGame::Reversi, "0000").unwrap(),
            BotzoneMove(vec![-1, -1])
        );
        assert_eq!(BotzoneMove(vec![-1, -1]).to_plyd().unwrap(), None);
        assert!(BotzoneMove(vec![8, 0]).to_plyd().is_err());
        assert!(BotzoneMove::from_plyd(BotzoneGame::Amazons, "d3").is_err());
    }

    #[test]
    fn a_turn_count_no_game_reaches_is_refused() {
        let mut reader = BotzoneReader::default();
        for count in ["9223372036854775808", "10001"] {
            assert!(reader.feed(count).unwrap_err().contains("past 10000"));
        }
        // Still reading turns, not waiting for 2^64 - 1 lines.
        assert_eq!(
            reader.feed("3 2"),
            Ok(Some(BotzoneInput::Next {
                request: BotzoneMove(vec![3, 2]),
                json: false
            }))
        );
        assert_eq!(reader.feed("10000"), Ok(None));
    }

    #[test]
    fn simple_input_is_read_whole_then_one_request_a_turn() {
        let mut reader = BotzoneReader::default();
        assert_eq!(reader.feed("2"), Ok(None));
        assert_eq!(reader.feed("-1 -1 -1 -1 -1 -1"), Ok(None));
        assert_eq!(reader.feed("2 0 2 3 5 6"), Ok(None));
        let full = reader.feed("0 5 0 4 1 4").unwrap().unwrap();
        let BotzoneInput::Full {
            requests,
            responses,
            json: false,
            time_limit: None,
        } = full
        else {
            panic!("{full:?}")
        };
        assert_eq!(requests.len(), 2);
        assert_eq!(responses, [BotzoneMove(vec![2, 0, 2, 3, 5, 6])]);
        assert_eq!(reader.feed(""), Ok(None));
        assert_eq!(
            reader.feed("3 2"),
            Ok(Some(BotzoneInput::Next {
                request: BotzoneMove(vec![3, 2]),
                json: false
            }))
        );
        assert!(reader.feed("3 2 1").is_err());
        assert!(reader.feed("x").is_err());
    }

    #[test]
    fn json_input_and_answers() {
        let mut reader = BotzoneReader::default();
        let full = reader
            .feed(r#"{"requests":[{"x":-1,"y":-1}],"responses":[],"data":""}"#)
            .unwrap()
            .unwrap();
        assert!(matches!(
            full,
            BotzoneInput::Full {
                json: true,
                time_limit: None,
                ..
            }
        ));
        assert!(reader
            .feed(r#"{"requests":[{"x":-1,"y":-1}],"responses":[{"x":1,"y":1}]}"#)
            .is_err());
        assert_eq!(
            BotzoneMove(vec![3, 2]).answer(true),
            r#"{"response":{"x":3,"y":2}}"#
        );
        assert_eq!(BotzoneMove(vec![3, 2]).answer(false), "3 2");
    }

    #[test]
    fn a_number_past_any_square_is_not_read_as_no_move() {
        // Cast through i64 and i32, 1e23 once came out as -1: the first
        // turn's "no move".
        for huge in ["99999999999999999999999", "4294967295", "-4294967297"] {
            let line = format!(
                r#"{{"requests":[{{"x0":{huge},"y0":-1,"x1":-1,"y1":-1,"x2":-1,"y2":-1}}],"responses":[]}}"#
            );
            let got = BotzoneReader::default().feed(&line);
            assert!(got.is_err(), "{huge}: {got:?}");
        }
    }

    #[test]
    fn a_json_request_with_a_number_as_text_says_what_a_request_is() {
        let got = BotzoneReader::default().feed(r#"{"x":"2","y":4}"#);
        assert!(
            matches!(got, Err(ref e) if e.contains("integers x and y")),
            "{got:?}"
        );
        assert!(matches!(
            BotzoneReader::default().feed(r#"{"x":2,"y":4}"#),
            Ok(Some(BotzoneInput::Next { .. }))
        ));
    }

    #[test]
    fn the_time_limit_is_read_in_seconds_or_milliseconds() {
        let limit = |field: &str| {
            let line = format!(r#"{{"requests":[{{"x":-1,"y":-1}}],"responses":[]{field}}}"#);
            match BotzoneReader::default().feed(&line) {
                Ok(Some(BotzoneInput::Full { time_limit, .. })) => time_limit,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(limit(""), None);
        assert_eq!(limit(r#","time_limit":1"#), Some(Ok(1000)));
        assert_eq!(limit(r#","time_limit":"6""#), Some(Ok(6000)));
        assert_eq!(
            limit(r#","time_limit":0.5,"memory_limit":256"#),
            Some(Ok(500))
        );
        assert_eq!(limit(r#","time_limit":100"#), Some(Ok(100_000)));
        // Past any turn's seconds: milliseconds.
        assert_eq!(limit(r#","time_limit":1000"#), Some(Ok(1000)));
        assert_eq!(limit(r#","time_limit":"2000""#), Some(Ok(2000)));
        assert_eq!(limit(r#","time_limit":3600000"#), Some(Ok(3_600_000)));
        for bad in [r#""""#, "0", "-1", "1e9", "[1]", r#""fast""#] {
            let got = limit(&format!(r#","time_limit":{bad}"#));
            assert!(
                matches!(got, Some(Err(ref e)) if e.contains("seconds")),
                "{bad}: {got:?}"
            );
        }
    }
}
