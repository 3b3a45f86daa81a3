//! Perft of the Amazons rules: the published start-position figures of
//! both boards (10x10: 2,176 and 4,307,152; 8x8: 1,232 and 1,331,198)
//! through the crate's native perft (`Game::perft`, over the bare board)
//! and through the SDK's walk over the `Game` trait
//! (`plyd_api::sdk::default_perft`: `generate_moves`, `make_move`,
//! `unmake_move`), and through the independent reference in `reference/`;
//! depth 3 of the 8x8 start, where the native perft, the reference and
//! Fairy-Stockfish all count 1,358,441,750 (in a debug build only the
//! reference's depth 2 is checked against the native perft); perft split
//! by first move against the reference from other positions; and a
//! position whose side to move is walled in, which counts nothing.

use crate::reference::RefBoard;
use plyd_amazons_rules::Amazons;
use plyd_api::sdk::default_perft;
use plyd_api::{Game, MoveSink, Outcome};

/// The 8x8 start at depth 3. Fairy-Stockfish (`amazons` with
/// `maxRank = 8`, `maxFile = h` and this start position) counts the same.
const START_8_DEPTH_3: u64 = 1_358_441_750;

/// Published start-position figures: (variant, [depth 1, depth 2]).
const PUBLISHED: [(usize, [u64; 2]); 2] = [(0, [2_176, 4_307_152]), (1, [1_232, 1_331_198])];

/// Positions for the split perft: a 10x10 middle game with arrows, and
/// smaller boards with each side to move.
const SPLIT_POSITIONS: [(&str, u32); 4] = [
    (
        "*2q2q3/10/2*4*2/q3**3q/4*5/1*1Q6/Q8*/3*6/10/3Q2Q3 b - - 0 5",
        2,
    ),
    ("2q3/6/q1*3/5Q/2*3/3Q2 w - - 0 1", 3),
    ("q3q/5/2*2/5/Q3Q b - - 0 7", 3),
    ("q2q/1*2/4/Q2Q w - - 0 1", 4),
];

fn game_at(fen: &str) -> Amazons {
    let mut game = Amazons::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("bad position '{fen}': {e}"));
    game
}

fn legal_moves(game: &Amazons) -> Vec<u32> {
    let mut buf = vec![0u32; 4096];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let count = sink.len();
    assert!(count <= buf.len(), "more than 4096 moves");
    buf.truncate(count);
    buf
}

#[test]
fn native_perft_gives_the_published_figures() {
    for (variant, counts) in PUBLISHED {
        let mut game = Amazons::new(variant);
        let (text, hash) = (game.position_text(), game.hash());
        for (depth, leaves) in (1..).zip(counts) {
            assert_eq!(game.perft(depth), leaves, "variant {variant} depth {depth}");
        }
        assert_eq!(game.perft(0), 1);
        assert_eq!(game.position_text(), text, "perft leaves the position");
        assert_eq!(game.hash(), hash, "perft leaves the hash");
    }
}

#[test]
fn the_make_unmake_walk_gives_the_published_figures() {
    for (variant, counts) in PUBLISHED {
        let mut game = Amazons::new(variant);
        let (text, hash) = (game.position_text(), game.hash());
        for (depth, leaves) in (1..).zip(counts) {
            assert_eq!(
                default_perft(&mut game, depth),
                leaves,
                "variant {variant} depth {depth}"
            );
        }
        assert_eq!(game.position_text(), text, "the walk leaves the position");
        assert_eq!(game.hash(), hash, "the walk leaves the hash");
    }
}

#[test]
fn the_reference_gives_the_published_figures() {
    for (variant, counts) in PUBLISHED {
        let board = RefBoard::from_fen(Amazons::VARIANTS[variant].start_position).unwrap();
        for (depth, leaves) in (1..).zip(counts) {
            assert_eq!(
                board.perft(depth),
                leaves,
                "variant {variant} depth {depth}"
            );
        }
    }
}

/// The reference's perft, its root moves shared among threads.
fn reference_perft_in_threads(board: &RefBoard, depth: u32) -> u64 {
    let split_depth = depth - 1;
    let roots = board.moves();
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                let roots = &roots;
                scope.spawn(move || {
                    roots
                        .iter()
                        .skip(thread)
                        .step_by(threads)
                        .map(|&mv| {
                            let mut after = board.clone();
                            after.make(mv);
                            after.perft(split_depth)
                        })
                        .sum::<u64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a perft thread failed"))
            .sum()
    })
}

#[test]
fn depth_3_of_the_8x8_start_agrees_with_the_reference() {
    let mut game = Amazons::new(1);
    let board = RefBoard::from_fen(&game.position_text()).unwrap();
    if cfg!(debug_assertions) {
        // The reference is too slow unoptimised for depth 3.
        assert_eq!(game.perft(2), reference_perft_in_threads(&board, 2));
        return;
    }
    assert_eq!(game.perft(3), START_8_DEPTH_3, "native");
    assert_eq!(
        reference_perft_in_threads(&board, 3),
        START_8_DEPTH_3,
        "reference"
    );
}

/// Perft split by first move: each legal move made through the `Game`
/// trait, the rest counted by the native perft.
fn plugin_divide(game: &mut Amazons, depth: u32) -> Vec<(String, u64)> {
    let mut split: Vec<(String, u64)> = legal_moves(game)
        .into_iter()
        .map(|mv| {
            game.make_move(mv);
            let count = game.perft(depth - 1);
            game.unmake_move(mv);
            (game.format_move(mv), count)
        })
        .collect();
    split.sort();
    split
}

#[test]
fn divided_perft_matches_the_reference_move_by_move() {
    for (fen, depth) in SPLIT_POSITIONS {
        let mut game = game_at(fen);
        let plugin = plugin_divide(&mut game, depth);
        let reference = RefBoard::from_fen(fen).unwrap().divide(depth);
        let plugin_moves: Vec<&str> = plugin.iter().map(|(m, _)| m.as_str()).collect();
        let reference_moves: Vec<&str> = reference.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(plugin_moves, reference_moves, "root moves of {fen}");
        for ((mv, ours), (_, theirs)) in plugin.iter().zip(&reference) {
            assert_eq!(ours, theirs, "{fen}: subtree of {mv}");
        }
        let total: u64 = plugin.iter().map(|(_, n)| n).sum();
        assert_eq!(game.perft(depth), total, "{fen}");
        assert_eq!(default_perft(&mut game, depth), total, "{fen}");
        assert_eq!(game.position_text(), fen);
    }
}

#[test]
fn a_walled_in_side_to_move_counts_nothing() {
    // The first player's only amazon, on a4, has arrows on a3, b3 and b4.
    let walled = "Q*q1/**2/4/4 w - - 0 1";
    let mut game = game_at(walled);
    assert_eq!(game.outcome(), Outcome::Loss);
    for depth in 1..=3 {
        assert_eq!(game.perft(depth), 0, "native depth {depth}");
        assert_eq!(default_perft(&mut game, depth), 0, "walk depth {depth}");
    }
    assert_eq!(RefBoard::from_fen(walled).unwrap().perft(2), 0);
    // With the second player to move the same board has moves.
    let mut other = game_at("Q*q1/**2/4/4 b - - 0 1");
    assert_eq!(other.outcome(), Outcome::Ongoing);
    let board = RefBoard::from_fen("Q*q1/**2/4/4 b - - 0 1").unwrap();
    assert!(board.perft(1) > 0);
    for depth in 1..=3 {
        assert_eq!(other.perft(depth), board.perft(depth), "depth {depth}");
    }
    // Every second-player move leaves the first player walled in.
    assert_eq!(other.perft(2), 0);
}
