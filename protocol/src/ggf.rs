//! GGF, the Generic Game Format of Othello servers and of NBoard's
//! `set game`: `(;GM[Othello]...BO[8 <64 squares> <side>]B[F5]W[D6]...;)`.
//!
//! Only what a position and its clocks need is read: the board size and
//! start board (`BO`, its 64 squares in one word or, as GGS writes them,
//! in eight rows), the clocks (`TI` for both players, `TB`/`TW` for one),
//! and the moves in order (`B[...]`/`W[...]`, each a square or `PA` for a
//! pass, possibly followed by `/eval/seconds`). Other properties are kept
//! as they are so a record can be shown or written back.

/// A game read from GGF.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GgfGame {
    /// Every property in order, moves included: `(key, value)`.
    pub properties: Vec<(String, String)>,
}

/// Why a GGF text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GgfError {
    /// No `(;` ... `;)` around the game.
    #[error("a GGF game is written (; ... ;)")]
    NotAGame,
    /// A property without its `[value]`.
    #[error("GGF property '{0}' has no [value]")]
    NoValue(String),
    /// `BO` is not `8 <64 squares> <side>`.
    #[error("GGF board '{0}' is not '8 <64 squares> <side>'")]
    BadBoard(String),
    /// A clock (`TI`, `TB`, `TW`) is not `main[/increment[/extension]]`.
    #[error("GGF clock '{0}' is not 'main[/increment[/extension]]' in [[h:]m:]s")]
    BadClock(String),
}

/// One move of a GGF game.
#[derive(Debug, Clone, PartialEq)]
pub struct GgfMove {
    /// `'B'` or `'W'`.
    pub color: char,
    /// The square (`F5`) or `PA`, without its eval and time.
    pub square: String,
    /// The seconds the move took, when the record gives them.
    pub seconds: Option<f64>,
}

impl GgfMove {
    /// A move as GGF and NBoard's `move` write it: `F5`, `F5/eval` or
    /// `F5/eval/seconds`.
    pub fn read(color: char, text: &str) -> GgfMove {
        let mut parts = text.split('/');
        let square = parts.next().unwrap_or("").trim().to_string();
        let seconds = parts
            .nth(1)
            .and_then(|t| t.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0);
        GgfMove {
            color,
            square,
            seconds,
        }
    }
}

/// A GGF clock (`TI[05:00//02:00]`): the main time, the time added for
/// each move, and the extension a player may run on into once the main
/// time is spent; milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GgfClock {
    /// The main time.
    pub main_ms: u64,
    /// Added after each of the player's moves.
    pub increment_ms: u64,
    /// Usable after the main time.
    pub extension_ms: u64,
}

impl GgfClock {
    /// Read `main[/increment[/extension]]`, each `[[h:]m:]s` or empty (no
    /// time); a `,` starts GGS's options, which change nothing here.
    pub fn read(text: &str) -> Option<GgfClock> {
        let text = text.split(',').next().unwrap_or("").trim();
        let mut parts = text.split('/');
        let main_ms = duration_ms(parts.next()?)?;
        let increment_ms = parts.next().map_or(Some(0), duration_ms)?;
        let extension_ms = parts.next().map_or(Some(0), duration_ms)?;
        if parts.next().is_some() {
            return None;
        }
        Some(GgfClock {
            main_ms,
            increment_ms,
            extension_ms,
        })
    }
}

/// `[[h:]m:]s` in milliseconds; empty is none.
fn duration_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() {
        return Some(0);
    }
    let mut seconds = 0.0;
    for (i, field) in text.split(':').enumerate() {
        if i > 2 {
            return None;
        }
        let value: f64 = field.trim().parse().ok()?;
        if !value.is_finite() || value < 0.0 {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    Some((seconds * 1000.0).round() as u64)
}

impl GgfGame {
    /// Read the first game of `text`.
    pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
        let start = text.find("(;").ok_or(GgfError::NotAGame)?;
        let body = &text[start + 2..];
        // The game ends at `;)` outside a value (a name may hold one, `PB[Bob
        // ;) Smith]`), which a file folded to a line width may split (`;`
        // and `)` on two lines).
        let mut in_value = false;
        let end = body
            .char_indices()
            .find(|&(at, c)| {
                match c {
                    '[' if !in_value => in_value = true,
                    ']' if in_value => in_value = false,
                    ';' if !in_value => return body[at + 1..].trim_start().starts_with(')'),
                    _ => {}
                }
                false
            })
            .map(|(at, _)| at)
            .ok_or(GgfError::NotAGame)?;
        let mut rest = &body[..end];
        let mut properties = Vec::new();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let key_len = rest
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(rest.len());
            let key = &rest[..key_len];
            // A line may be folded between a key and its value.
            let after = rest[key_len..].trim_start();
            if key.is_empty() || !after.starts_with('[') {
                let shown: String = rest.chars().take(12).collect();
                return Err(GgfError::NoValue(shown));
            }
            let close = after.find(']').ok_or(GgfError::NoValue(key.to_string()))?;
            // Line breaks inside a value are a file's folding, not text.
            let value: String = after[1..close]
                .chars()
                .filter(|c| !matches!(c, '\n' | '\r'))
                .collect();
            properties.push((key.to_string(), value));
            rest = &after[close + 1..];
        }
        Ok(GgfGame { properties })
    }

    /// The value of the first property `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The start board as plyd's Othello reads it (the 64-square string
    /// and `X` or `O` to move), or `None` when the game has no `BO`.
    pub fn start_position(&self) -> Result<Option<String>, GgfError> {
        let Some(board) = self.get("BO") else {
            return Ok(None);
        };
        let parts: Vec<&str> = board.split_whitespace().collect();
        let bad = || GgfError::BadBoard(board.to_string());
        // The squares in one word, or in eight rows as GGS writes them.
        let [size, rows @ .., side] = &parts[..] else {
            return Err(bad());
        };
        let squares = rows.concat();
        if *size != "8" || squares.chars().count() != 64 || !(rows.len() == 1 || rows.len() == 8) {
            return Err(bad());
        }
        let side = match *side {
            "*" | "X" | "x" | "B" | "b" => "X",
            "O" | "o" | "W" | "w" => "O",
            _ => return Err(bad()),
        };
        let squares = squares
            .chars()
            .map(|c| match c {
                '*' | 'x' | 'X' => Some('X'),
                'o' | 'O' => Some('O'),
                '-' | '.' => Some('-'),
                _ => None,
            })
            .collect::<Option<String>>()
            .ok_or_else(bad)?;
        Ok(Some(format!("{squares} {side}")))
    }

    /// The moves in order.
    pub fn moves(&self) -> Vec<GgfMove> {
        self.properties
            .iter()
            .filter(|(k, _)| k == "B" || k == "W")
            .map(|(k, v)| GgfMove::read(k.chars().next().unwrap_or('B'), v))
            .collect()
    }

    /// The clocks of Black and White, when the game has them: `TB` and
    /// `TW` each player's, else `TI` both. A clock that does not read is
    /// an error; a game without one has `None`.
    pub fn clocks(&self) -> Result<Option<[GgfClock; 2]>, GgfError> {
        let read = |key: &str| {
            self.get(key)
                .map(|text| {
                    GgfClock::read(text).ok_or_else(|| GgfError::BadClock(text.to_string()))
                })
                .transpose()
        };
        let both = read("TI")?;
        let black = read("TB")?.or(both);
        let white = read("TW")?.or(both);
        // One side's clock alone (`TB` or `TW` without `TI`) stands for
        // both: a search with no clock at all could run to its depth and
        // lose on the clock the record does give.
        Ok(match (black, white) {
            (Some(b), Some(w)) => Some([b, w]),
            (Some(one), None) | (None, Some(one)) => Some([one, one]),
            (None, None) => None,
        })
    }

    /// The game written back as GGF.
    pub fn to_text(&self) -> String {
        let mut text = String::from("(;");
        for (key, value) in &self.properties {
            text += &format!("{key}[{value}]");
        }
        text + ";)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]\
        BO[8 ---------------------------O*------*O--------------------------- *]\
        B[F5]W[F6/-1.5/0.3]B[D3]W[PA];)";

    #[test]
    fn a_game_gives_its_board_and_moves() {
        let game = GgfGame::parse(GAME).unwrap();
        assert_eq!(game.get("PB"), Some("a"));
        assert_eq!(
            game.start_position().unwrap().unwrap(),
            "---------------------------OX------XO--------------------------- X"
        );
        let moves: Vec<String> = game.moves().into_iter().map(|m| m.square).collect();
        assert_eq!(moves, ["F5", "F6", "D3", "PA"]);
        assert_eq!(game.moves()[1].color, 'W');
        assert_eq!(GgfGame::parse(&game.to_text()).unwrap(), game);
    }

    #[test]
    fn a_game_folded_across_lines_reads_the_same() {
        // Folded every 20 characters (inside values too), a break between
        // a key and its value and one inside the closing `;)`.
        let folded: String = GAME
            .chars()
            .collect::<Vec<_>>()
            .chunks(20)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("\n");
        let folded = folded.replace("W[PA];)", "W\n[PA];\n)");
        assert!(folded.contains("W\n[PA]"), "{folded}");
        assert_eq!(GgfGame::parse(&folded), GgfGame::parse(GAME));
    }

    #[test]
    fn a_ggs_board_in_rows_reads_as_one_word() {
        let rows = "(;GM[Othello]BO[8 -------- -------- -------- ---O*--- \
            ---*O--- -------- -------- -------- *];)";
        let one = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)";
        let board = GgfGame::parse(rows).unwrap().start_position().unwrap();
        assert_eq!(
            board,
            GgfGame::parse(one).unwrap().start_position().unwrap()
        );
        assert!(board.is_some());
        // Seven rows, rows that do not add up to 64, or a square that is
        // neither empty nor a disc, are refused.
        for bad in [
            "(;BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- *];)",
            "(;BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- --------- *];)",
            "(;BO[8 ---------------------------Q*------*O--------------------------- *];)",
            "(;BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------? *];)",
        ] {
            assert!(
                GgfGame::parse(bad).unwrap().start_position().is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn clocks_and_move_times_are_read() {
        let game = GgfGame::parse(GAME).unwrap();
        let fifteen = GgfClock {
            main_ms: 900_000,
            ..GgfClock::default()
        };
        assert_eq!(game.clocks().unwrap(), Some([fifteen; 2]));
        let times: Vec<Option<f64>> = game.moves().iter().map(|m| m.seconds).collect();
        assert_eq!(times, [None, Some(0.3), None, None]);
        assert_eq!(
            GgfClock::read("05:00/10/1:00:00"),
            Some(GgfClock {
                main_ms: 300_000,
                increment_ms: 10_000,
                extension_ms: 3_600_000,
            })
        );
        assert_eq!(
            GgfClock::read("05:00//02:00,L").map(|c| c.extension_ms),
            Some(120_000)
        );
        assert_eq!(GgfClock::read("1.5").map(|c| c.main_ms), Some(1_500));
        let own = GgfGame::parse("(;TI[10:00]TW[2:00];)").unwrap();
        let clocks = own.clocks().unwrap().unwrap();
        assert_eq!((clocks[0].main_ms, clocks[1].main_ms), (600_000, 120_000));
        assert_eq!(GgfGame::parse("(;B[F5];)").unwrap().clocks(), Ok(None));
        // One side's clock alone stands for both.
        for one in ["(;TW[0:01];)", "(;TB[0:01];)"] {
            let clocks = GgfGame::parse(one).unwrap().clocks().unwrap().unwrap();
            assert_eq!(
                (clocks[0].main_ms, clocks[1].main_ms),
                (1_000, 1_000),
                "{one}"
            );
        }
        for bad in ["x", "1:2:3:4", "-5", "1/2/3/4"] {
            assert_eq!(GgfClock::read(bad), None, "{bad}");
        }
        assert!(GgfGame::parse("(;TI[soon];)").unwrap().clocks().is_err());
    }

    #[test]
    fn broken_games_are_refused() {
        assert_eq!(GgfGame::parse("GM[Othello]"), Err(GgfError::NotAGame));
        assert!(GgfGame::parse("(;GM[Othello;)").is_err());
        assert!(GgfGame::parse("(;GM[Othello]BO[8 --- *];)")
            .unwrap()
            .start_position()
            .is_err());
    }
}
