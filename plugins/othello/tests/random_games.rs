//! Random games played side by side on the crate's [`Othello`] and on the
//! independent mailbox board in `reference/`, checking at every ply that
//! both agree on the legal moves (passes and game ends included), on the
//! board after each move and on the result, that `count_after` gives the
//! reference's count of moves after each legal move, and that unmake
//! restores the position text and hash exactly.

use crate::reference::{Cell, Mailbox, PASS};
use plyd_api::sdk::default_perft;
use plyd_api::{Game, MoveSink, Outcome};
use plyd_game_othello::board::Color;
use plyd_game_othello::Othello;

const GAMES: usize = 2000;

/// xorshift64*: a tiny seeded generator, so failures reproduce.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn legal_moves(game: &Othello) -> Vec<u32> {
    let mut buf = [0u32; 64];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let count = sink.len();
    assert!(count <= 64, "more moves than squares");
    let mut moves = buf[..count].to_vec();
    moves.sort_unstable();
    moves
}

fn assert_same_board(game: &Othello, mailbox: &Mailbox, context: &str) {
    let position = game.position();
    assert_eq!(
        (position.black, position.white),
        mailbox.bitboards(),
        "boards differ {context}"
    );
    let side = match mailbox.to_move {
        Cell::Black => Color::Black,
        _ => Color::White,
    };
    assert_eq!(position.side, side, "side to move differs {context}");
    assert_eq!(game.side_to_move(), u32::from(side == Color::White));
}

/// What the games went through, to show they reached the corners of the
/// rules worth testing.
#[derive(Default, Debug)]
struct Coverage {
    plies: usize,
    passes: usize,
    games_ended_with_empty_squares: usize,
    outcomes: [usize; 3],
}

fn play_one_game(rng: &mut XorShift, game_index: usize, coverage: &mut Coverage) {
    let mut game = Othello::new(0);
    let mut mailbox = Mailbox::start();
    // (position text, hash) before each move, to check unmake on the way back.
    let mut before: Vec<(String, u64)> = Vec::new();
    let mut played: Vec<u32> = Vec::new();

    loop {
        let context = format!("in game {game_index} at ply {}", played.len());
        let moves = legal_moves(&game);
        assert_eq!(moves, mailbox.legal_moves(), "legal moves differ {context}");
        assert_eq!(
            game.outcome(),
            mailbox.outcome(),
            "outcome differs {context}"
        );

        // Equal positions hash equally, whatever the history behind them.
        let mut fresh = Othello::new(0);
        fresh.set_position(&game.position_text()).unwrap();
        assert_eq!(
            fresh.hash(),
            game.hash(),
            "hash depends on history {context}"
        );

        // Native perft, the make/unmake walk and the reference agree here,
        // passes and early game ends included. Both count a game that ended
        // early as a leaf, as the published figures do.
        if game_index < 100 && played.len() % 7 == 3 {
            let (reached, ended) = mailbox.perft_split(3);
            assert_eq!(
                game.clone().perft(3),
                reached + ended,
                "native perft {context}"
            );
            assert_eq!(
                default_perft(&mut game, 3),
                reached + ended,
                "default perft {context}"
            );
        }

        // The count after each move, without making it, is the
        // reference's after making it (a pass counts as one move).
        for &mv in &moves {
            let mut after = mailbox.clone();
            after.play(mv);
            assert_eq!(
                game.count_after(mv),
                Some(after.legal_moves().len() as u64),
                "count_after({mv}) {context}"
            );
        }

        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        if mv == PASS {
            coverage.passes += 1;
        }

        let text = game.position_text();
        let hash = game.hash();
        game.make_move(mv);
        mailbox.play(mv);
        assert_same_board(&game, &mailbox, &context);
        assert_ne!(
            game.hash(),
            hash,
            "a move left the hash unchanged {context}"
        );

        // Unmake at once and make again.
        game.unmake_move(mv);
        assert_eq!(game.position_text(), text, "unmake {context}");
        assert_eq!(game.hash(), hash, "unmake hash {context}");
        game.make_move(mv);

        before.push((text, hash));
        played.push(mv);
    }

    coverage.plies += played.len();
    if mailbox.count(Cell::Empty) > 0 {
        coverage.games_ended_with_empty_squares += 1;
    }
    let outcome = game.outcome();
    let slot = match outcome {
        Outcome::Win => 0,
        Outcome::Loss => 1,
        Outcome::Draw => 2,
        Outcome::Ongoing => panic!("game {game_index} has no moves but is ongoing"),
    };
    coverage.outcomes[slot] += 1;

    // A clone carries the history: it can take every move back too.
    let mut copy = game.clone();
    for (&mv, (text, hash)) in played.iter().zip(&before).rev() {
        game.unmake_move(mv);
        assert_eq!(&game.position_text(), text, "unwinding game {game_index}");
        assert_eq!(game.hash(), *hash, "unwinding game {game_index}");
        copy.unmake_move(mv);
        assert_eq!(
            copy.hash(),
            *hash,
            "unwinding the clone of game {game_index}"
        );
    }
    assert_eq!(game.position_text(), Othello::VARIANTS[0].start_position);
    assert_eq!(game.plies_played(), 0);
}

#[test]
fn random_games_agree_with_the_mailbox_reference() {
    let mut rng = XorShift(0x0123_4567_89ab_cdef);
    let mut coverage = Coverage::default();
    for game_index in 0..GAMES {
        play_one_game(&mut rng, game_index, &mut coverage);
    }
    println!("{coverage:?}");
    // The games must have reached passes and early game ends, or the
    // comparison above proved less than it claims.
    assert!(coverage.passes > 0, "no game had a pass: {coverage:?}");
    assert!(coverage.games_ended_with_empty_squares > 0, "{coverage:?}");
    assert!(coverage.outcomes.iter().all(|&n| n > 0), "{coverage:?}");
}
