//! Random games played side by side on the plugin's [`Xiangqi`] and on the
//! independent generator in `reference/`. At every ply both must agree on
//! the legal moves, on check, on the board after the move; the plugin's
//! noisy moves must be exactly the legal captures, `is_legal` must accept
//! every legal move and refuse other moves, `gives_check` must say of every
//! legal move what `in_check` says once it is made, make/unmake must restore the
//! position text and hash, and the incremental hash must equal the hash of
//! the same position read fresh from its FEN.
//!
//! The reference knows nothing of repetition or of the no-capture draw, so a
//! game stops as soon as the plugin says it is over; move lists through the
//! `Game` trait are compared only while the plugin says the game goes on,
//! and the bare position's generator is compared at the final position too.
//!
//! Run with `--nocapture` to see what the games went through.

mod reference;

use std::collections::{BTreeMap, HashSet};

use plyd_api::abi::NULL_MOVE;
use plyd_api::{Game, MoveSink, Outcome};
use plyd_game_xiangqi::board::{color_of, make_move, EMPTY, SQUARES};
use plyd_game_xiangqi::game::DEFAULT_NO_CAPTURE_PLIES;
use plyd_game_xiangqi::Xiangqi;
use reference::RefBoard;

/// Fewer games in a debug build, where the rules crate runs unoptimised.
const GAMES: usize = if cfg!(debug_assertions) { 500 } else { 1500 };
const MAX_PLIES: usize = 150;

/// Every fifth game starts from one of these instead of the start position,
/// for more open generals and pieces deep in enemy land.
const OTHER_STARTS: [&str; 3] = [
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "2bak4/4a4/4c4/p1p3p1p/9/9/P1P3P1P/1C5C1/9/cNB1KABNR w - - 0 1",
];

/// xorshift64*, seeded per game so that any game can be replayed alone.
struct XorShift(u64);

impl XorShift {
    fn for_game(index: usize) -> XorShift {
        // Spread the index over the bits (splitmix64's finaliser); never 0.
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
}

/// How a game stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum End {
    Checkmate,
    Stalemate,
    RepetitionWin,
    RepetitionLoss,
    RepetitionDraw,
    NoCaptureDraw,
    PlyLimit,
}

/// What the games went through, to show the comparison reached the parts
/// of the rules worth testing.
#[derive(Default, Debug)]
struct Coverage {
    games: usize,
    positions_compared: usize,
    checks_seen: usize,
    captures_played: usize,
    /// Pseudo-legal moves (the piece may go there) that leave the general
    /// exposed, each refused by `is_legal`.
    exposing_moves_refused: usize,
    /// Random from/to pairs and other numbers refused by `is_legal`.
    random_moves_refused: usize,
    perft_spot_checks: usize,
    ends: BTreeMap<End, usize>,
}

impl Coverage {
    fn merge(&mut self, other: Coverage) {
        self.games += other.games;
        self.positions_compared += other.positions_compared;
        self.checks_seen += other.checks_seen;
        self.captures_played += other.captures_played;
        self.exposing_moves_refused += other.exposing_moves_refused;
        self.random_moves_refused += other.random_moves_refused;
        self.perft_spot_checks += other.perft_spot_checks;
        for (end, n) in other.ends {
            *self.ends.entry(end).or_default() += n;
        }
    }
}

fn collect(fill: impl FnOnce(&mut MoveSink<'_>)) -> Vec<u32> {
    let mut buf = vec![0u32; 256];
    let mut sink = MoveSink::new(&mut buf);
    fill(&mut sink);
    let count = sink.len();
    assert!(count <= buf.len(), "more than 256 moves");
    buf.truncate(count);
    buf
}

fn names(game: &Xiangqi, moves: &[u32]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(|&mv| game.format_move(mv)).collect();
    names.sort();
    names
}

/// The board and side fields of a FEN (the counters differ by design: the
/// reference writes `0 1`).
fn board_and_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Whether a move in text captures on the reference board.
fn captures(board: &RefBoard, name: &str) -> bool {
    let (_, to) = reference::parse_move(name).expect("reference move text");
    board.at(to).is_some()
}

/// Check `gives_check` of every legal move against making it and asking
/// `in_check`, and that the state is left as it was.
fn check_gives_check(game: &mut Xiangqi, legal: &[u32], context: &str) {
    let before = game.position_text();
    for &mv in legal {
        let said = game.gives_check(mv);
        game.make_move(mv);
        let check = game.in_check();
        game.unmake_move(mv);
        assert_eq!(
            said,
            Some(check),
            "gives_check of {} {context}",
            game.format_move(mv)
        );
    }
    assert_eq!(game.position_text(), before, "{context}");
}

/// Check `is_legal` against the legal list: every legal move accepted,
/// every pseudo-legal move that the filter removed refused, and a sample
/// of other numbers refused.
fn check_is_legal(
    game: &Xiangqi,
    legal: &[u32],
    rng: &mut XorShift,
    coverage: &mut Coverage,
    context: &str,
) {
    let legal_set: HashSet<u32> = legal.iter().copied().collect();
    for &mv in legal {
        assert!(
            game.is_legal(mv),
            "is_legal refuses {} {context}",
            game.format_move(mv)
        );
    }
    let mut exposing = Vec::new();
    game.position().pseudo_moves(false, &mut |mv| {
        if !legal_set.contains(&mv) {
            exposing.push(mv);
        }
    });
    for mv in exposing {
        assert!(
            !game.is_legal(mv),
            "is_legal accepts {}, which exposes the general, {context}",
            game.format_move(mv)
        );
        coverage.exposing_moves_refused += 1;
    }
    let position = game.position();
    let own: Vec<usize> = (0..SQUARES)
        .filter(|&sq| {
            position.board[sq] != EMPTY && color_of(position.board[sq]) == position.side()
        })
        .collect();
    let mut samples = vec![
        NULL_MOVE,
        make_move(127, 127),
        make_move(own[0], own[0]),
        make_move(own[0], SQUARES),
        make_move(own[0], 1) | 1 << 20,
    ];
    for _ in 0..6 {
        samples.push(make_move(own[rng.below(own.len())], rng.below(SQUARES)));
    }
    for _ in 0..2 {
        samples.push(make_move(rng.below(SQUARES), rng.below(SQUARES)));
    }
    for mv in samples {
        let expected = legal_set.contains(&mv);
        assert_eq!(
            game.is_legal(mv),
            expected,
            "is_legal({mv:#x}) ({}) {context}",
            game.format_move(mv)
        );
        if !expected {
            coverage.random_moves_refused += 1;
        }
    }
}

/// Pick a move: now and then a capture or a checking move when there is
/// one, so the games reach sharp positions and mates, else any move.
fn choose(game: &mut Xiangqi, legal: &[u32], noisy: &[u32], rng: &mut XorShift) -> u32 {
    match rng.below(8) {
        0..=2 if !noisy.is_empty() => noisy[rng.below(noisy.len())],
        3 | 4 => {
            let checking: Vec<u32> = legal
                .iter()
                .copied()
                .filter(|&mv| {
                    game.make_move(mv);
                    let check = game.in_check();
                    game.unmake_move(mv);
                    check
                })
                .collect();
            if checking.is_empty() {
                legal[rng.below(legal.len())]
            } else {
                checking[rng.below(checking.len())]
            }
        }
        _ => legal[rng.below(legal.len())],
    }
}

fn play_one_game(index: usize, coverage: &mut Coverage) {
    let mut rng = XorShift::for_game(index);
    let start = if index % 5 == 4 {
        OTHER_STARTS[index / 5 % OTHER_STARTS.len()]
    } else {
        Xiangqi::VARIANTS[0].start_position
    };
    let mut game = Xiangqi::new(0);
    game.set_position(start).unwrap();
    let mut board = RefBoard::from_fen(start).unwrap();
    // (move, position text before it, hash before it).
    let mut played: Vec<(u32, String, u64)> = Vec::new();

    let end = loop {
        let ply = played.len();
        let context = format!("in game {index} at ply {ply}: {}", game.position_text());
        let expected = board.legal_moves();
        let in_check = board.in_check();
        assert_eq!(game.in_check(), in_check, "in_check {context}");
        coverage.positions_compared += 1;
        if in_check {
            coverage.checks_seen += 1;
        }

        let outcome = game.outcome();
        if outcome != Outcome::Ongoing {
            // A verdict takes no move away: the moves listed are still the
            // reference's (none after a mate or stalemate), each legal.
            let listed = collect(|sink| game.generate_moves(sink));
            assert_eq!(
                names(&game, &listed),
                expected,
                "moves after a verdict {context}"
            );
            assert!(
                listed.iter().all(|&mv| game.is_legal(mv)),
                "a listed move refused after a verdict {context}"
            );
            if expected.is_empty() {
                assert_eq!(outcome, Outcome::Loss, "no legal move loses {context}");
                break if in_check {
                    End::Checkmate
                } else {
                    End::Stalemate
                };
            }
            if game.quiet_plies() >= DEFAULT_NO_CAPTURE_PLIES {
                assert_eq!(outcome, Outcome::Draw, "{context}");
                break End::NoCaptureDraw;
            }
            assert!(ply >= 8, "a repetition needs 8 plies {context}");
            break match outcome {
                Outcome::Win => End::RepetitionWin,
                Outcome::Loss => End::RepetitionLoss,
                _ => End::RepetitionDraw,
            };
        }

        let legal = collect(|sink| game.generate_moves(sink));
        assert_eq!(names(&game, &legal), expected, "legal moves {context}");
        assert!(!legal.is_empty(), "ongoing without moves {context}");

        let noisy = collect(|sink| game.generate_noisy(sink));
        let expected_noisy: Vec<String> = expected
            .iter()
            .filter(|name| captures(&board, name))
            .cloned()
            .collect();
        assert_eq!(
            names(&game, &noisy),
            expected_noisy,
            "noisy moves {context}"
        );

        check_is_legal(&game, &legal, &mut rng, coverage, &context);
        check_gives_check(&mut game, &legal, &context);

        // Now and then, two plies of perft against the reference.
        if index < 8 && ply % 16 == 8 {
            assert_eq!(game.perft(2), board.perft(2), "perft 2 {context}");
            coverage.perft_spot_checks += 1;
        }

        if ply == MAX_PLIES {
            break End::PlyLimit;
        }

        let mv = choose(&mut game, &legal, &noisy, &mut rng);
        let name = game.format_move(mv);
        if captures(&board, &name) {
            coverage.captures_played += 1;
        }
        let text = game.position_text();
        let hash = game.hash();
        game.make_move(mv);
        board.play(&name);
        let context = format!("after {name} {context}");
        assert_eq!(
            board_and_side(&game.position_text()),
            board_and_side(&board.fen()),
            "boards differ {context}"
        );
        assert_ne!(game.hash(), hash, "the hash did not change {context}");

        // The incremental hash is the hash of the position read afresh.
        let mut fresh = Xiangqi::new(0);
        fresh
            .set_position(&game.position_text())
            .unwrap_or_else(|e| panic!("the plugin cannot read its own FEN: {e} {context}"));
        assert_eq!(fresh.hash(), game.hash(), "incremental hash {context}");
        assert_eq!(fresh.position_text(), game.position_text(), "{context}");

        // Unmake at once, then make again.
        game.unmake_move(mv);
        assert_eq!(game.position_text(), text, "unmake text {context}");
        assert_eq!(game.hash(), hash, "unmake hash {context}");
        game.make_move(mv);

        played.push((mv, text, hash));
    };

    coverage.games += 1;
    *coverage.ends.entry(end).or_default() += 1;

    // Take the whole game back, checking each position on the way.
    for (mv, text, hash) in played.iter().rev() {
        game.unmake_move(*mv);
        assert_eq!(&game.position_text(), text, "unwinding game {index}");
        assert_eq!(game.hash(), *hash, "unwinding game {index}");
    }
    assert_eq!(game.position_text(), start);
    assert_eq!(game.plies_played(), 0);
}

#[test]
fn random_games_agree_with_the_reference() {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    let mut coverage = Coverage::default();
    let parts: Vec<Coverage> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                scope.spawn(move || {
                    let mut part = Coverage::default();
                    for index in (thread..GAMES).step_by(threads) {
                        play_one_game(index, &mut part);
                    }
                    part
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a game thread failed"))
            .collect()
    });
    for part in parts {
        coverage.merge(part);
    }
    println!("{coverage:#?}");
    assert_eq!(coverage.games, GAMES);
    assert!(coverage.checks_seen > 0, "{coverage:?}");
    assert!(coverage.captures_played > 0, "{coverage:?}");
    assert!(coverage.exposing_moves_refused > 0, "{coverage:?}");
    assert!(coverage.perft_spot_checks > 0, "{coverage:?}");
    assert!(
        coverage.ends.get(&End::Checkmate).copied().unwrap_or(0) >= 5,
        "too few checkmates: {coverage:?}"
    );
}
