//! Each game written as its community records it (`--record FILE`): the
//! Chinese championship's record for the Amazons and EinStein würfelt
//! nicht, GGF (or SGF, for a `.sgf` file) for Othello. The arena's own log
//! (`--out`) stays the complete record; this one is for the tools and
//! archives of each game.

use std::io::Write;

use plyd_protocol::{write_record, RecordFormat, RecordGame, RecordResult};

use crate::openings::Start;
use crate::record::{GameRecord, GameResult};

/// The record format of `variant` written to `path` (Othello: SGF for a
/// `.sgf` file, GGF otherwise), or why it has none.
pub fn format_for(variant: &str, path: &std::path::Path) -> Result<RecordFormat, String> {
    let format = RecordFormat::for_variant(variant).ok_or_else(|| {
        format!("--record: no community record format for {variant} (amazons, einstein, othello)")
    })?;
    let sgf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
    match format {
        RecordFormat::Ggf if sgf => Ok(RecordFormat::Sgf),
        // SGF is Othello's here: another game's record in a `.sgf` file
        // would read as a broken SGF to the tools that open it.
        _ if sgf => Err(format!(
            "--record {}: SGF is written for Othello only; {variant} is recorded in its championship format (give a file not ending in .sgf)",
            path.display()
        )),
        _ => Ok(format),
    }
}

/// Write `game` in `format`, then a blank line; the error names the game
/// left out.
pub fn write_game(
    format: RecordFormat,
    game: &GameRecord,
    out: &mut impl Write,
) -> Result<(), String> {
    write_one(format, game, out)
        .map_err(|e| format!("--record: game {} is left out: {e}", game.number))
}

fn write_one(format: RecordFormat, game: &GameRecord, out: &mut impl Write) -> Result<(), String> {
    if game.start != Start::StartPos {
        return Err("it starts from a position text, which these records cannot hold".to_string());
    }
    let record = RecordGame {
        first: game.players[0].clone(),
        second: game.players[1].clone(),
        result: match game.result {
            GameResult::FirstWins => RecordResult::First,
            GameResult::SecondWins => RecordResult::Second,
            GameResult::Draw => RecordResult::Draw,
        },
        date_place: format!("game {} seed {}", game.number, game.seed),
        event: "plyd arena".to_string(),
        moves: game.moves.clone(),
    };
    let text = write_record(format, &record)?;
    out.write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the record: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_record_format_follows_the_game_and_the_file_name() {
        let f = |variant: &str, file: &str| format_for(variant, Path::new(file));
        assert_eq!(f("othello", "g.ggf"), Ok(RecordFormat::Ggf));
        assert_eq!(f("othello", "g.SGF"), Ok(RecordFormat::Sgf));
        assert_eq!(f("amazons8", "g.txt"), Ok(RecordFormat::CcgcAmazons));
        assert_eq!(f("einstein", "g.txt"), Ok(RecordFormat::CcgcEinstein));
        for variant in ["amazons8", "einstein"] {
            let e = f(variant, "g.sgf").unwrap_err();
            assert!(e.contains("SGF is written for Othello only"), "{e}");
        }
        assert!(f("xiangqi", "g.txt").is_err());
    }
}
