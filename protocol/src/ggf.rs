//! GGF, the Generic Game Format of Othello servers and of NBoard's
//! `set game`: `(;GM[Othello]...BO[8 <64 squares> <side>]B[F5]W[D6]...;)`.
//!
//! Only what a position needs is read: the board size and start board
//! (`BO`), and the moves in order (`B[...]`/`W[...]`, each a square or
//! `PA` for a pass, possibly followed by `/eval/time`). Other properties
//! are kept as they are so a record can be shown or written back.

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
}

/// One move of a GGF game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgfMove {
    /// `'B'` or `'W'`.
    pub color: char,
    /// The square (`F5`) or `PA`, without its eval and time.
    pub square: String,
}

impl GgfGame {
    /// Read the first game of `text`.
    pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
        let start = text.find("(;").ok_or(GgfError::NotAGame)?;
        let body = &text[start + 2..];
        let end = body.find(";)").ok_or(GgfError::NotAGame)?;
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
            let after = &rest[key_len..];
            if key.is_empty() || !after.starts_with('[') {
                let shown: String = rest.chars().take(12).collect();
                return Err(GgfError::NoValue(shown));
            }
            let close = after.find(']').ok_or(GgfError::NoValue(key.to_string()))?;
            properties.push((key.to_string(), after[1..close].to_string()));
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
        let [size, squares, side] = parts[..] else {
            return Err(bad());
        };
        if size != "8" || squares.chars().count() != 64 {
            return Err(bad());
        }
        let side = match side {
            "*" | "X" | "x" | "B" | "b" => "X",
            "O" | "o" | "W" | "w" => "O",
            _ => return Err(bad()),
        };
        let squares: String = squares
            .chars()
            .map(|c| match c {
                '*' | 'x' | 'X' => 'X',
                'o' | 'O' => 'O',
                _ => '-',
            })
            .collect();
        Ok(Some(format!("{squares} {side}")))
    }

    /// The moves in order.
    pub fn moves(&self) -> Vec<GgfMove> {
        self.properties
            .iter()
            .filter(|(k, _)| k == "B" || k == "W")
            .map(|(k, v)| GgfMove {
                color: k.chars().next().unwrap_or('B'),
                square: v.split('/').next().unwrap_or("").trim().to_string(),
            })
            .collect()
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
    fn broken_games_are_refused() {
        assert_eq!(GgfGame::parse("GM[Othello]"), Err(GgfError::NotAGame));
        assert!(GgfGame::parse("(;GM[Othello;)").is_err());
        assert!(GgfGame::parse("(;GM[Othello]BO[8 --- *];)")
            .unwrap()
            .start_position()
            .is_err());
    }
}
