//! Each game written as its community records it (`--record FILE`): the
//! Chinese championship's record for the Amazons and EinStein würfelt
//! nicht, GGF (or SGF, for a `.sgf` file) for Othello, PGN with ICCS
//! moves for xiangqi. The arena's own log
//! (`--out`) stays the complete record; this one is for the tools and
//! archives of each game.

use std::io::Write;

use plyd_protocol::{othello_margin_of, write_record, RecordFormat, RecordGame, RecordResult};

use crate::openings::Start;
use crate::record::{Ending, GameRecord, GameResult};

/// The record format of `variant` written to `path` (Othello: SGF for a
/// `.sgf` file, GGF otherwise), or why it has none. `game_options` are the
/// match's `--game-option`s: xiangqi's moves under `MoveRanks=1-10` are
/// written with ICCS's ranks, 0-9.
pub fn format_for(
    variant: &str,
    path: &std::path::Path,
    game_options: &[String],
) -> Result<RecordFormat, String> {
    let format = RecordFormat::for_variant(variant).ok_or_else(|| {
        format!(
            "--record: no community record format for {variant} (amazons, einstein, othello, xiangqi)"
        )
    })?;
    let format = match format {
        RecordFormat::XiangqiPgn { .. } => RecordFormat::XiangqiPgn {
            ranks_from_one: game_options
                .iter()
                .any(|o| o.replace(' ', "").eq_ignore_ascii_case("MoveRanks=1-10")),
        },
        other => other,
    };
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    // A file named for another format would read as a broken one of that
    // format to the tools that open it.
    let refuse = |format_name: &str, games: &str| {
        Err(format!(
            "--record {}: .{extension} names {format_name}, written for {games} only; {variant} is \
             recorded as {} (give a file not ending in .{extension})",
            path.display(),
            format_description(format)
        ))
    };
    match (format, extension.as_str()) {
        (RecordFormat::Ggf, "sgf") => Ok(RecordFormat::Sgf),
        (_, "sgf") => refuse("SGF", "Othello"),
        (RecordFormat::Ggf, "pgn")
        | (RecordFormat::CcgcAmazons | RecordFormat::CcgcEinstein, "pgn") => {
            refuse("PGN", "xiangqi")
        }
        (
            RecordFormat::XiangqiPgn { .. }
            | RecordFormat::XiangqiPgnChinese
            | RecordFormat::CcgcAmazons
            | RecordFormat::CcgcEinstein,
            "ggf",
        ) => refuse("GGF", "Othello"),
        _ => Ok(format),
    }
}

/// The file name ending of records in `format` (the ending the tools of
/// that format read it by: `plyd record` reads them all), the inverse of
/// [`format_for`]'s reading of a name: a round robin's pair files.
pub fn record_extension(format: RecordFormat) -> &'static str {
    match format {
        RecordFormat::Ggf => "ggf",
        RecordFormat::Sgf => "sgf",
        RecordFormat::XiangqiPgn { .. } | RecordFormat::XiangqiPgnChinese => "pgn",
        RecordFormat::CcgcAmazons | RecordFormat::CcgcEinstein => "txt",
    }
}

/// What `format` is, for an error.
fn format_description(format: RecordFormat) -> &'static str {
    match format {
        RecordFormat::Ggf | RecordFormat::Sgf => "GGF (or SGF in a .sgf file)",
        RecordFormat::XiangqiPgn { .. } | RecordFormat::XiangqiPgnChinese => "PGN",
        RecordFormat::CcgcAmazons | RecordFormat::CcgcEinstein => "its championship format",
    }
}

/// A game's result as the records say it.
pub fn record_result(result: GameResult) -> RecordResult {
    match result {
        GameResult::FirstWins => RecordResult::First,
        GameResult::SecondWins => RecordResult::Second,
        GameResult::Draw => RecordResult::Draw,
    }
}

/// Write `game` in `format`, then a blank line; the error names the game
/// left out.
pub fn write_game(
    format: RecordFormat,
    game: &GameRecord,
    time_control: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    write_one(format, game, time_control, out)
        .map_err(|e| format!("--record: game {} is left out: {e}", game.number))
}

/// [`write_game`]; `time_control` is PGN's `TimeControl` of the match,
/// where both engines played one clock.
fn write_one(
    format: RecordFormat,
    game: &GameRecord,
    time_control: Option<&str>,
    out: &mut impl Write,
) -> Result<(), String> {
    let start = match (&game.start, format) {
        (Start::StartPos, _) => None,
        (Start::Fen(text), RecordFormat::Ggf | RecordFormat::Sgf) => {
            Some(othello_board(text).ok_or_else(|| {
                format!("its start '{text}' is not an Othello position a GGF or SGF board can hold")
            })?)
        }
        (Start::Fen(text), RecordFormat::XiangqiPgn { .. }) => Some(text.clone()),
        (Start::Fen(_), _) => {
            return Err(
                "it starts from a position text, which only GGF, SGF and PGN records can hold"
                    .to_string(),
            )
        }
    };
    // The game's number and seed where the format has a field for free
    // text: GGF's and SGF's `DT` is a date, so there they go with the
    // event (`PC[plyd arena game 2 seed 7]`), and no date is written (the
    // log keeps none: records are written again from it).
    let (date_place, event) = match format {
        RecordFormat::Ggf | RecordFormat::Sgf => (
            String::new(),
            format!("plyd arena game {} seed {}", game.number, game.seed),
        ),
        _ => (
            format!("game {} seed {}", game.number, game.seed),
            "plyd arena".to_string(),
        ),
    };
    let record = RecordGame {
        first: game.players[0].clone(),
        second: game.players[1].clone(),
        result: record_result(game.result),
        date_place,
        event,
        start,
        moves: game.moves.clone(),
        written: Vec::new(),
        margin: (game.ending == Ending::Rules
            && matches!(format, RecordFormat::Ggf | RecordFormat::Sgf))
        .then(|| othello_margin(&game.final_position))
        .flatten(),
        // A game lost otherwise than by the rules, as SGF writes it
        // (`W+T`, `B+F`).
        ending: match game.ending {
            Ending::Rules | Ending::MaxPlies => None,
            Ending::TimeForfeit | Ending::NoAnswer => Some('T'),
            Ending::IllegalMove | Ending::Crash | Ending::PluginFailure => Some('F'),
        },
        comments: Vec::new(),
        // The game's number as PGN's round (the other formats keep it in
        // the when and where), and how it ended, in PGN's words and the
        // arena's (an illegal move's forfeit was a bare `1-0`).
        tags: vec![
            ("Round".to_string(), game.number.to_string()),
            (
                "Termination".to_string(),
                pgn_termination(game.ending).to_string(),
            ),
            ("Reason".to_string(), game.reason.clone()),
        ]
        .into_iter()
        .chain(time_control.map(|tc| ("TimeControl".to_string(), tc.to_string())))
        .collect(),
    };
    let text = write_record(format, &record)?;
    out.write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the record: {e}"))
}

/// PGN's `Termination` for an ending: `normal` by the rules,
/// `adjudication` at the ply limit, `time forfeit`, `rules infraction`
/// for an illegal move, `emergency` for a crash or a failed plugin,
/// `abandoned` for no answer.
fn pgn_termination(ending: Ending) -> &'static str {
    match ending {
        Ending::Rules => "normal",
        Ending::MaxPlies => "adjudication",
        Ending::TimeForfeit => "time forfeit",
        Ending::IllegalMove => "rules infraction",
        Ending::Crash | Ending::PluginFailure => "emergency",
        Ending::NoAnswer => "abandoned",
    }
}

/// Black's and White's discs in an Othello position text (plyd's rows,
/// `8/8/3OX3/...`, or the 64 squares); `None` for a text that is not an
/// Othello board.
pub fn othello_discs(text: &str) -> Option<(i32, i32)> {
    let board = text.split_whitespace().next()?;
    let (mut black, mut white, mut empty) = (0i32, 0i32, 0i32);
    for c in board.chars() {
        match c {
            'X' | 'x' | '*' => black += 1,
            'O' | 'o' => white += 1,
            '-' | '.' => empty += 1,
            '1'..='8' => empty += c as i32 - '0' as i32,
            '/' => {}
            _ => return None,
        }
    }
    (black + white + empty == 64).then_some((black, white))
}

/// Black's disc margin in an Othello position text at the game's end,
/// the empty squares counted to the winner ([`othello_margin_of`]).
pub fn othello_margin(text: &str) -> Option<i32> {
    let (black, white) = othello_discs(text)?;
    Some(othello_margin_of(black, white))
}

/// An Othello position text (plyd's rows, `8/8/8/3OX3/3XO3/8/8/8 b`, or
/// the 64 squares and the side, `-` `X` `O`) as a GGF board holds it: the
/// 64 squares from a1 and `X` or `O` to move.
fn othello_board(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [board, side] = words[..] else {
        return None;
    };
    let side = match side {
        "b" | "B" | "X" | "x" | "*" => "X",
        "w" | "W" | "O" | "o" => "O",
        _ => return None,
    };
    let mut squares = String::new();
    if board.len() == 64 && !board.contains('/') {
        for c in board.chars() {
            squares.push(match c {
                '-' | '.' => '-',
                'X' | 'x' | '*' => 'X',
                'O' | 'o' => 'O',
                _ => return None,
            });
        }
    } else {
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return None;
        }
        for row in rows {
            let before = squares.len();
            for c in row.chars() {
                match c {
                    '1'..='8' => {
                        squares.extend(std::iter::repeat_n('-', c as usize - '0' as usize))
                    }
                    'X' | 'x' => squares.push('X'),
                    'O' | 'o' => squares.push('O'),
                    _ => return None,
                }
            }
            if squares.len() - before != 8 {
                return None;
            }
        }
    }
    Some(format!("{squares} {side}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_margin_counts_the_empty_squares_to_the_winner() {
        // Black 4, White 1, 59 empty: Black's 3 and the 59.
        assert_eq!(othello_margin("8/8/8/3OX3/3XXX2/8/8/8 w"), Some(62));
        // The 64 squares: 40 Black, 24 White.
        let full = format!("{}{} X", "X".repeat(40), "O".repeat(24));
        assert_eq!(othello_margin(&full), Some(16));
        // White 33, Black 30, one empty square: White's by 4.
        let white = format!("{}{}- O", "O".repeat(33), "X".repeat(30));
        assert_eq!(othello_margin(&white), Some(-4));
        let even = format!("{}{}-- X", "O".repeat(31), "X".repeat(31));
        assert_eq!(othello_margin(&even), Some(0));
        assert_eq!(othello_margin("8/8/8/3OX3/3XXX2/8/8 w"), None);
        assert_eq!(othello_margin("8/8/8/3OZ3/3XXX2/8/8/8 w"), None);
    }

    #[test]
    fn the_record_format_follows_the_game_and_the_file_name() {
        let f = |variant: &str, file: &str| format_for(variant, Path::new(file), &[]);
        assert_eq!(f("othello", "g.ggf"), Ok(RecordFormat::Ggf));
        assert_eq!(f("othello", "g.SGF"), Ok(RecordFormat::Sgf));
        assert_eq!(f("amazons8", "g.txt"), Ok(RecordFormat::CcgcAmazons));
        assert_eq!(f("einstein", "g.txt"), Ok(RecordFormat::CcgcEinstein));
        for variant in ["amazons8", "einstein"] {
            let e = f(variant, "g.sgf").unwrap_err();
            assert!(
                e.contains(".sgf names SGF, written for Othello only"),
                "{e}"
            );
            assert!(e.contains("recorded as its championship format"), "{e}");
            assert!(f(variant, "g.pgn").is_err());
            assert!(f(variant, "g.ggf").is_err());
        }
        assert_eq!(
            f("othello", "g.pgn"),
            Err(
                "--record g.pgn: .pgn names PGN, written for xiangqi only; othello is recorded as \
                 GGF (or SGF in a .sgf file) (give a file not ending in .pgn)"
                    .to_string()
            )
        );
        assert!(f("xiangqi", "g.GGF").is_err());
        assert_eq!(
            f("xiangqi", "g.pgn"),
            Ok(RecordFormat::XiangqiPgn {
                ranks_from_one: false
            })
        );
        assert_eq!(
            format_for(
                "xiangqi",
                Path::new("g.pgn"),
                &["MoveRanks=1-10".to_string()]
            ),
            Ok(RecordFormat::XiangqiPgn {
                ranks_from_one: true
            })
        );
        assert!(f("xiangqi", "g.sgf").is_err());
        assert!(f("chess", "g.pgn").is_err());
    }

    #[test]
    fn a_game_from_a_position_text_goes_to_ggf_and_sgf_not_to_ccgc() {
        // Black played f5: White to move on five discs, then f6 and e6.
        let game = GameRecord {
            number: 3,
            variant: "othello".into(),
            players: ["a".into(), "b".into()],
            first_engine: 0,
            opening: "book.txt:2".into(),
            opening_plies: 0,
            start: Start::Fen("8/8/8/3OX3/3XXX2/8/8/8 w".into()),
            moves: vec!["f6".into(), "e6".into()],
            result: GameResult::SecondWins,
            ending: Ending::TimeForfeit,
            reason: "time".into(),
            final_position: String::new(),
            seed: 5,
            closest: None,
            scores: Vec::new(),
            times: Vec::new(),
            nodes: Vec::new(),
        };
        let start = "---------------------------OX------XXX-------------------------- O";
        for format in [RecordFormat::Ggf, RecordFormat::Sgf] {
            let mut out = Vec::new();
            write_game(format, &game, None, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let (_, back) = plyd_protocol::read_record(&text).unwrap();
            assert_eq!(back.start.as_deref(), Some(start), "{text}");
            assert_eq!(back.moves, ["f6", "e6"], "{text}");
            assert_eq!(back.result, RecordResult::Second, "{text}");
        }
        let e = write_game(RecordFormat::CcgcAmazons, &game, None, &mut Vec::new()).unwrap_err();
        assert!(e.contains("game 3 is left out"), "{e}");
    }

    #[test]
    fn an_othello_start_is_read_either_way_for_a_ggf_board() {
        let start = "---------------------------OX------XO--------------------------- X";
        assert_eq!(
            othello_board("8/8/8/3OX3/3XO3/8/8/8 b").as_deref(),
            Some(start)
        );
        assert_eq!(othello_board(start).as_deref(), Some(start));
        let white = othello_board("X7/8/8/3OX3/3XO3/8/8/7O w").unwrap();
        assert!(
            white.starts_with("X-------") && white.ends_with("-O O"),
            "{white}"
        );
        for bad in [
            "8/8/8/3OX3/3XO3/8/8 b",
            "8/8/8/3OX4/3XO3/8/8/8 b",
            "8/8/8/3OX3/3XO3/8/8/8",
            "rnbakabnr/9 w",
        ] {
            assert_eq!(othello_board(bad), None, "{bad}");
        }
    }
}
