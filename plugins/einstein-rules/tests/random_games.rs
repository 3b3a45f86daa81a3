//! Random games played to the end side by side on the crate's [`EinStein`]
//! (through the `Game` trait) and on the independent game in
//! `reference/`, from random arrangements of both sides.
//!
//! At every ply: the chance node lists the six rolls, weight 1 each, until
//! the game is over and nothing after; for each of the six rolls, the legal
//! moves (written with `format_move`) are the reference's, every one parses
//! back and `is_legal` accepts it, every other step of the board (all 625
//! from-to pairs) and every arrangement token is refused; the winner is the
//! reference's; make/unmake restores the position text and hash; the board
//! of the position text is the reference's, the hash is the hash of the
//! text read afresh, and the text reads back to itself. At the end the
//! whole game is taken back.

use crate::reference;

use crate::reference::RefGame;
use plyd_api::{ChanceSink, Game, MoveSink, Outcome};
use plyd_einstein_rules::board::{ARRANGE, ROLL};
use plyd_einstein_rules::EinStein;

/// Fewer games in a debug build.
const GAMES: usize = if cfg!(debug_assertions) { 300 } else { 3000 };

/// xorshift64*, seeded per game.
struct XorShift(u64);

impl XorShift {
    fn for_game(index: usize) -> XorShift {
        let mut z = (index as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        XorShift((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A random order of the digits 1..6, as text.
    fn arrangement(&mut self) -> String {
        let mut digits: Vec<char> = "123456".chars().collect();
        for i in (1..6).rev() {
            digits.swap(i, self.below(i + 1));
        }
        digits.into_iter().collect()
    }
}

fn moves(game: &EinStein) -> Vec<u32> {
    let mut buf = [0; 1024];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let n = sink.len();
    buf[..n].to_vec()
}

fn outcomes(game: &EinStein) -> Vec<(u32, u32)> {
    let mut tokens = [0; 16];
    let mut weights = [0; 16];
    let mut sink = ChanceSink::new(&mut tokens, &mut weights);
    game.chance_outcomes(&mut sink);
    let n = sink.len();
    tokens[..n]
        .iter()
        .copied()
        .zip(weights[..n].iter().copied())
        .collect()
}

fn fresh_hash(text: &str) -> u64 {
    let mut other = EinStein::new(0);
    other.set_position(text).unwrap();
    assert_eq!(other.position_text(), text);
    other.hash()
}

fn winner_of(game: &EinStein) -> Option<char> {
    let mover = if game.side_to_move() == 0 { 'R' } else { 'B' };
    let other = if mover == 'R' { 'B' } else { 'R' };
    match game.outcome() {
        Outcome::Ongoing => None,
        Outcome::Win => Some(mover),
        Outcome::Loss => Some(other),
        Outcome::Draw => panic!("EinStein has no draws"),
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut plies = 0;
    let mut captures = 0;
    let mut two_choices = 0;
    let mut endings = [0usize; 2];
    for index in 0..GAMES {
        let mut rng = XorShift::for_game(index);
        let (red, blue) = (rng.arrangement(), rng.arrangement());
        let mut game = EinStein::new(0);
        let mut played = Vec::new();
        for text in [format!("s{red}"), format!("s{blue}")] {
            let mv = game.parse_move(&text).unwrap();
            assert!(game.is_legal(mv), "game {index}: {text}");
            assert!(outcomes(&game).is_empty());
            game.make_move(mv);
            played.push(mv);
        }
        let mut reference = RefGame::after_setup(&red, &blue);
        loop {
            let text = game.position_text();
            assert_eq!(
                text.split(' ').next().unwrap(),
                reference.ranks(),
                "game {index}"
            );
            assert_eq!(game.hash(), fresh_hash(&text), "game {index}: {text}");
            assert_eq!(winner_of(&game), reference.winner(), "game {index}: {text}");
            let chance = outcomes(&game);
            if reference.winner().is_some() {
                assert!(chance.is_empty() && moves(&game).is_empty(), "{text}");
                endings[usize::from(reference.winner() == Some('B'))] += 1;
                break;
            }
            let expected: Vec<(u32, u32)> = (1..=6).map(|f| (ROLL + f, 1)).collect();
            assert_eq!(chance, expected, "game {index}: {text}");
            for roll in 1..=6u8 {
                let token = game.parse_move(&format!("r{roll}")).unwrap();
                assert_eq!(token, ROLL + u32::from(roll));
                assert!(game.is_legal(token));
                game.make_move(token);
                let rolled = game.position_text();
                let listed = moves(&game);
                let mut texts: Vec<String> = listed.iter().map(|&m| game.format_move(m)).collect();
                texts.sort();
                assert_eq!(texts, reference.moves(roll), "game {index}: {rolled}");
                two_choices += usize::from(reference.movable(roll).len() == 2);
                for from in 0..25u32 {
                    for to in 0..25u32 {
                        let mv = from * 32 + to;
                        assert_eq!(game.is_legal(mv), listed.contains(&mv), "{rolled} {mv}");
                    }
                }
                assert!(!game.is_legal(ARRANGE) && !game.is_legal(ROLL + 1));
                for &mv in &listed {
                    assert_eq!(game.parse_move(&game.format_move(mv)), Some(mv));
                    let before = game.hash();
                    game.make_move(mv);
                    game.unmake_move(mv);
                    assert_eq!(game.position_text(), rolled);
                    assert_eq!(game.hash(), before);
                }
                game.unmake_move(token);
                assert_eq!(game.position_text(), text);
            }
            let roll = 1 + rng.below(6) as u8;
            let token = ROLL + u32::from(roll);
            game.make_move(token);
            played.push(token);
            let listed = moves(&game);
            let mv = listed[rng.below(listed.len())];
            let text = game.format_move(mv);
            captures += usize::from(
                reference
                    .stones
                    .iter()
                    .any(|s| reference::name(s.x, s.y) == text[2..]),
            );
            game.make_move(mv);
            played.push(mv);
            reference.play(&text);
            plies += 2;
        }
        while let Some(mv) = played.pop() {
            game.unmake_move(mv);
        }
        assert_eq!(game.position_text(), EinStein::new(0).position_text());
    }
    println!(
        "{GAMES} games, {plies} plies, {captures} captures, {two_choices} rolls with two stones to choose from, won by Red {} / Blue {}",
        endings[0], endings[1]
    );
    assert!(captures > GAMES && two_choices > GAMES);
}
