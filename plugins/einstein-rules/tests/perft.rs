//! Perft, each roll its own ply: the crate's native perft and its perft
//! through the `Game` trait against the figures in `einstein.perft`, which
//! the independent reference in `reference/` computed; and the reference
//! itself against the same file, so a change to either side shows.
//!
//! Lines of `einstein.perft`: `<position text> ; <depth> <leaves> ; ...`.
//! The set-up stage's figures need no reference: 720 arrangements for
//! Red, 720 for Blue, then six rolls.

use crate::reference;

use crate::reference::RefGame;
use plyd_api::Game;
use plyd_einstein_rules::EinStein;

const FILE: &str = include_str!("einstein.perft");

/// Deepest depth checked in a debug build, where perft is slower.
const DEBUG_MAX_DEPTH: u32 = 5;

fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    FILE.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';').map(str::trim);
            let fen = fields.next().unwrap().to_string();
            let counts = fields
                .map(|f| {
                    let (d, n) = f.split_once(' ').unwrap();
                    (d.parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// The reference game for a position text with no arrangement pending:
/// read its board back from the ranks.
fn reference_of(text: &str) -> (RefGame, Option<u8>) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut stones = Vec::new();
    for (y, row) in words[0].split('/').enumerate() {
        for (x, ch) in row.bytes().enumerate() {
            let (colour, number) = match ch {
                b'1'..=b'6' => ('R', ch - b'0'),
                b'a'..=b'f' => ('B', ch - b'a' + 1),
                _ => continue,
            };
            stones.push(reference::Stone {
                colour,
                number,
                x: x as i32,
                y: y as i32,
            });
        }
    }
    let to_move = if words[1] == "r" { 'R' } else { 'B' };
    let roll = words.get(4).map(|r| r.as_bytes()[1] - b'0');
    (RefGame { stones, to_move }, roll)
}

#[test]
fn the_set_up_stage_branches_over_both_arrangements_then_six_rolls() {
    let mut game = EinStein::new(0);
    assert_eq!(game.perft(1), 720);
    assert_eq!(game.perft(2), 720 * 720);
    if !cfg!(debug_assertions) {
        assert_eq!(game.perft(3), 720 * 720 * 6);
    }
}

#[test]
fn native_and_trait_perft_give_the_file_figures() {
    for (fen, counts) in cases() {
        let mut game = EinStein::new(0);
        game.set_position(&fen).unwrap();
        for (depth, expected) in counts {
            if cfg!(debug_assertions) && depth > DEBUG_MAX_DEPTH {
                continue;
            }
            assert_eq!(game.perft(depth), expected, "{fen} depth {depth}");
            assert_eq!(
                plyd_api::sdk::default_perft(&mut game, depth),
                expected,
                "{fen} depth {depth} (through the trait)"
            );
        }
    }
}

#[test]
fn the_reference_gives_the_file_figures() {
    for (fen, counts) in cases() {
        let (game, roll) = reference_of(&fen);
        for (depth, expected) in counts {
            let got = match roll {
                None => game.perft_before_roll(depth),
                Some(r) => game.perft_after_roll(r, depth),
            };
            assert_eq!(got, expected, "{fen} depth {depth}");
        }
    }
}
