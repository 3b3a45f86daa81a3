//! WTHOR, the French Othello federation's game databases (`WTH_2004.wtb`,
//! a file a year, with the players in `WTHOR.JOU` and the tournaments in
//! `WTHOR.TRN` beside them).
//!
//! A games file is a header of 16 bytes (its creation date, the number of
//! games as a 32-bit little-endian number at byte 4, the games' year at
//! byte 10, the board size at byte 12: 0 or 8 for 8x8), then 68 bytes a
//! game: the tournament, Black's and White's player numbers (16 bits
//! each), Black's discs at the end (the empty squares counted to the
//! winner), Black's discs by perfect play from some point on, and the 60
//! moves, each `10 * row + column` (`a1` 11, `h8` 88), 0 after the last;
//! passes are left out. The players' and tournaments' files have the same
//! header, then a name of 20 bytes (26 for a tournament) each, in
//! Latin-1.

use crate::records::{RecordGame, RecordResult};

/// The header's length.
const HEADER: usize = 16;

/// A game's length on an 8x8 board.
const GAME: usize = 68;

/// A player's record in `WTHOR.JOU`.
pub const WTHOR_PLAYER: usize = 20;

/// A tournament's record in `WTHOR.TRN`.
pub const WTHOR_TOURNAMENT: usize = 26;

/// Whether `bytes` is a WTHOR games file of an 8x8 board: its length is
/// the header and the number of games its header gives.
pub fn is_wthor(bytes: &[u8]) -> bool {
    if bytes.len() < HEADER + GAME || !matches!(bytes[12], 0 | 8) {
        return false;
    }
    let games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    games
        .checked_mul(GAME)
        .and_then(|n| n.checked_add(HEADER))
        .is_some_and(|len| len == bytes.len())
}

/// The names of a WTHOR players' (`record` 20) or tournaments' (`record`
/// 26) file, in order: the name of player `n` is the `n`-th.
pub fn wthor_names(bytes: &[u8], record: usize) -> Vec<String> {
    bytes
        .get(HEADER..)
        .unwrap_or(&[])
        .chunks_exact(record)
        .map(|name| {
            let name = name.split(|&b| b == 0).next().unwrap_or(&[]);
            // Latin-1: each byte is its code point.
            name.iter()
                .map(|&b| char::from(b))
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}

/// Read the games of a WTHOR games file into plyd's moves from the
/// start, each with its players' names (from `players`, else `player
/// N`), its tournament (from `tournaments`, else `tournament N`) and year,
/// and its result as Black's margin.
pub fn read_wthor(
    bytes: &[u8],
    players: &[String],
    tournaments: &[String],
) -> Result<Vec<RecordGame>, String> {
    if !is_wthor(bytes) {
        return Err(
            "not a WTHOR games file of an 8x8 board (its length is not its header's games times 68 bytes and 16)"
                .to_string(),
        );
    }
    let year = u16::from_le_bytes([bytes[10], bytes[11]]);
    let name = |names: &[String], n: u16, what: &str| {
        names
            .get(usize::from(n))
            .filter(|name| !name.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("{what} {n}"))
    };
    let mut games = Vec::new();
    for (i, game) in bytes[HEADER..].chunks_exact(GAME).enumerate() {
        let number = |at: usize| u16::from_le_bytes([game[at], game[at + 1]]);
        let black_discs = i32::from(game[6]);
        if black_discs > 64 {
            return Err(format!(
                "game {}: Black's {black_discs} discs are more than the board's 64",
                i + 1
            ));
        }
        let mut moves = Vec::new();
        for (k, &square) in game[8..].iter().enumerate() {
            if square == 0 {
                if let Some(more) = game[8 + k..].iter().position(|&b| b != 0) {
                    return Err(format!(
                        "game {}: move {} after the game's last move",
                        i + 1,
                        k + more + 1
                    ));
                }
                break;
            }
            let (row, column) = (square / 10, square % 10);
            if !(1..=8).contains(&row) || !(1..=8).contains(&column) {
                return Err(format!(
                    "game {}: move {} ({square}) is not a square (11 a1 to 88 h8)",
                    i + 1,
                    k + 1
                ));
            }
            moves.push(format!("{}{row}", char::from(b'a' + column - 1)));
        }
        let margin = 2 * black_discs - 64;
        games.push(RecordGame {
            first: name(players, number(2), "player"),
            second: name(players, number(4), "player"),
            result: match margin.signum() {
                1 => RecordResult::First,
                -1 => RecordResult::Second,
                _ => RecordResult::Draw,
            },
            margin: Some(margin),
            ending: None,
            date_place: year.to_string(),
            event: name(tournaments, number(0), "tournament"),
            start: None,
            moves,
            written: Vec::new(),
            comments: Vec::new(),
            tags: Vec::new(),
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WTHOR file of `games`: (tournament, black, white, Black's discs,
    /// moves as `10 * row + column`).
    fn wthor(year: u16, games: &[(u16, u16, u16, u8, &[u8])]) -> Vec<u8> {
        let mut bytes = vec![20, 24, 1, 1];
        bytes.extend((games.len() as u32).to_le_bytes());
        bytes.extend([0, 0]);
        bytes.extend(year.to_le_bytes());
        bytes.extend([8, 0, 22, 0]);
        for &(t, b, w, discs, moves) in games {
            for n in [t, b, w] {
                bytes.extend(n.to_le_bytes());
            }
            bytes.extend([discs, discs]);
            let mut all = [0u8; 60];
            all[..moves.len()].copy_from_slice(moves);
            bytes.extend(all);
        }
        bytes
    }

    fn names(record: usize, names: &[&str]) -> Vec<u8> {
        let mut bytes = vec![0u8; HEADER];
        for name in names {
            let mut field = vec![0u8; record];
            field[..name.len()].copy_from_slice(name.as_bytes());
            bytes.extend(field);
        }
        bytes
    }

    #[test]
    fn games_read_with_their_squares_names_and_margin() {
        // f5 d6 c3 (56, 64, 33), then a game of one move.
        let bytes = wthor(1977, &[(1, 2, 0, 34, &[56, 64, 33]), (0, 9, 1, 20, &[56])]);
        assert!(is_wthor(&bytes));
        let players = wthor_names(&names(WTHOR_PLAYER, &["Inoue", "Heiberg", "Woch"]), 20);
        assert_eq!(players, ["Inoue", "Heiberg", "Woch"]);
        let tournaments = wthor_names(
            &names(WTHOR_TOURNAMENT, &["Paris", "World Championship"]),
            26,
        );
        let games = read_wthor(&bytes, &players, &tournaments).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["f5", "d6", "c3"]);
        assert_eq!(
            (games[0].first.as_str(), games[0].second.as_str()),
            ("Woch", "Inoue")
        );
        assert_eq!(games[0].event, "World Championship");
        assert_eq!(games[0].date_place, "1977");
        assert_eq!(
            (games[0].result, games[0].margin),
            (RecordResult::First, Some(4))
        );
        // A player or tournament the lists do not have is named by number.
        assert_eq!(games[1].first, "player 9");
        assert_eq!(games[1].event, "Paris");
        assert_eq!(
            (games[1].result, games[1].margin),
            (RecordResult::Second, Some(-24))
        );
        let nameless = read_wthor(&bytes, &[], &[]).unwrap();
        assert_eq!(nameless[0].first, "player 2");
        assert_eq!(nameless[0].event, "tournament 1");
    }

    #[test]
    fn broken_files_are_refused() {
        let good = wthor(2004, &[(0, 0, 0, 32, &[56])]);
        assert!(!is_wthor(&good[..good.len() - 1]));
        let mut ten = good.clone();
        ten[12] = 10;
        assert!(!is_wthor(&ten));
        let e = read_wthor(&wthor(2004, &[(0, 0, 0, 32, &[56, 90])]), &[], &[]).unwrap_err();
        assert!(e.contains("game 1: move 2 (90) is not a square"), "{e}");
        let e = read_wthor(&wthor(2004, &[(0, 0, 0, 32, &[56, 0, 64])]), &[], &[]).unwrap_err();
        assert!(e.contains("move 3 after the game's last move"), "{e}");
        let e = read_wthor(&wthor(2004, &[(0, 0, 0, 65, &[56])]), &[], &[]).unwrap_err();
        assert!(e.contains("65 discs"), "{e}");
        assert!(read_wthor(b"hello", &[], &[]).is_err());
    }
}
