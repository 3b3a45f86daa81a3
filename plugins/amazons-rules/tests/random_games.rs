//! Random games played to the end side by side on the crate's [`Amazons`]
//! (through the `Game` trait) and on the independent board in
//! `reference/`, on both variants and from a few other positions (a 10x10
//! middle game with arrows, and boards of every other side from 4 to 9).
//!
//! At every ply: the legal moves from `generate_moves`, written with
//! `format_move`, are the reference's (as sorted lists, so no move comes
//! twice); `Board::count_moves` is their number; `outcome` is a loss
//! exactly when the reference has no move; `is_legal` accepts every legal
//! move and answers for `NULL_MOVE`, random numbers, random moves of the
//! mover's amazons and near misses of legal moves (the arrow or landing
//! square one step off, from and to swapped, the arrow on the landing
//! square, ...) exactly as the reference does; every legal move parses
//! back from its text in all four spellings; make/unmake restores the
//! position text and hash; after each move the position text is the
//! reference's, the incremental hash is the hash of the position read
//! afresh from that text, and the text reads back to itself. At the end
//! the whole game is taken back, position by position.
//!
//! Each game has its own seed, so a failing game can be replayed alone by
//! its number. Run with `--nocapture` to see what the games went through.

use std::collections::{BTreeMap, HashSet};

use crate::reference::{move_name, RefBoard, RefMove, Square, DIRECTIONS};
use plyd_amazons_rules::board::{make_move, Geometry, Sq};
use plyd_amazons_rules::Amazons;
use plyd_api::abi::NULL_MOVE;
use plyd_api::{Game, MoveSink, Outcome};

/// Fewer games in a debug build, where the rules crate runs unoptimised.
const GAMES: usize = if cfg!(debug_assertions) { 24 } else { 240 };
/// Legal moves per ply whose near misses go through `is_legal`.
const NEAR_MISS_SAMPLES: usize = 6;

/// Where the games start: the two variants (by number), then positions.
enum Start {
    Variant(usize),
    Fen(&'static str),
}

const STARTS: [Start; 8] = [
    Start::Variant(0),
    Start::Variant(1),
    // A 10x10 middle game, second player to move, with a `10` run.
    Start::Fen("*2q2q3/10/2*4*2/q3**3q/4*5/1*1Q6/Q8*/3*6/10/3Q2Q3 b - - 0 5"),
    Start::Fen("2q2q3/9/q7q/9/4*4/9/Q7Q/9/3Q2Q2 w - - 0 1"),
    Start::Fen("2q1q2/7/q5q/7/Q5Q/7/2Q1Q2 w - - 0 1"),
    Start::Fen("2q3/6/q1*3/5Q/2*3/3Q2 w - - 0 1"),
    Start::Fen("q3q/5/2*2/5/Q3Q b - - 0 7"),
    Start::Fen("q2q/1*2/4/Q2Q w - - 0 1"),
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

/// What the games went through, to show the comparison reached the parts
/// of the rules worth testing.
#[derive(Default, Debug)]
struct Coverage {
    games: usize,
    positions_compared: usize,
    moves_compared: usize,
    /// Games won by the first player (the second had no move), by side.
    first_player_wins: usize,
    second_player_wins: usize,
    /// Board sides the games were played on, with their game counts.
    sides: BTreeMap<u8, usize>,
    /// Legal moves whose arrow lands on or flies through the from square.
    shots_back_seen: usize,
    /// Near misses and random moves `is_legal` refused, and those it
    /// accepted (the near miss happened to be legal too).
    other_moves_refused: usize,
    other_moves_accepted: usize,
}

impl Coverage {
    fn merge(&mut self, other: Coverage) {
        self.games += other.games;
        self.positions_compared += other.positions_compared;
        self.moves_compared += other.moves_compared;
        self.first_player_wins += other.first_player_wins;
        self.second_player_wins += other.second_player_wins;
        for (side, n) in other.sides {
            *self.sides.entry(side).or_default() += n;
        }
        self.shots_back_seen += other.shots_back_seen;
        self.other_moves_refused += other.other_moves_refused;
        self.other_moves_accepted += other.other_moves_accepted;
    }
}

/// The legal moves through the `Game` trait, however many there are.
fn generate(game: &Amazons) -> Vec<u32> {
    let mut buf = vec![0u32; 1024];
    loop {
        let mut sink = MoveSink::new(&mut buf);
        game.generate_moves(&mut sink);
        let count = sink.len();
        if count <= buf.len() {
            buf.truncate(count);
            return buf;
        }
        buf.resize(count, 0);
    }
}

fn names(game: &Amazons, moves: &[u32]) -> Vec<String> {
    let mut names: Vec<String> = moves.iter().map(|&mv| game.format_move(mv)).collect();
    names.sort();
    names
}

/// The crate's bit number of a square; a square off the board becomes a
/// number that is not a square of the board (the padding column, a rank
/// above the board, or a wrapped-around byte).
fn bit(geometry: &Geometry, (file, rank): Square) -> Sq {
    let size = i32::from(geometry.size);
    if (0..size).contains(&file) && (0..size).contains(&rank) {
        geometry.square(file as u8, rank as u8)
    } else {
        (rank * i32::from(geometry.stride) + file).rem_euclid(256) as Sq
    }
}

/// The crate's number of a move given by its squares.
fn encode(geometry: &Geometry, mv: RefMove) -> u32 {
    make_move(
        bit(geometry, mv.from),
        bit(geometry, mv.to),
        bit(geometry, mv.arrow),
    )
}

/// Whether the arrow of `mv` lands on or passes over the square it left.
fn shoots_back(mv: &RefMove) -> bool {
    let (df, dr) = (mv.arrow.0 - mv.to.0, mv.arrow.1 - mv.to.1);
    let steps = df.abs().max(dr.abs());
    let (sf, sr) = (df.signum(), dr.signum());
    (1..=steps).any(|k| (mv.to.0 + k * sf, mv.to.1 + k * sr) == mv.from)
}

fn step((file, rank): Square, (df, dr): (i32, i32)) -> Square {
    (file + df, rank + dr)
}

/// Moves near a legal one: most are illegal, some happen to be legal.
fn near_misses(mv: RefMove, enemy: &[Square]) -> Vec<RefMove> {
    let RefMove { from, to, arrow } = mv;
    let mut near = Vec::new();
    for d in DIRECTIONS {
        near.push(RefMove {
            arrow: step(arrow, d),
            ..mv
        });
        near.push(RefMove {
            to: step(to, d),
            ..mv
        });
    }
    near.push(RefMove {
        from: to,
        to: from,
        arrow,
    });
    near.push(RefMove {
        from,
        to: arrow,
        arrow: to,
    });
    near.push(RefMove { arrow: to, ..mv });
    near.push(RefMove { to: from, ..mv });
    near.push(RefMove { arrow: from, ..mv });
    for &e in enemy {
        near.push(RefMove { from: e, ..mv });
    }
    near
}

/// Check `is_legal` against the reference: every legal move accepted, and
/// other numbers answered as the reference answers them.
fn check_is_legal(
    game: &Amazons,
    board: &RefBoard,
    legal: &[u32],
    rng: &mut XorShift,
    coverage: &mut Coverage,
    context: &str,
) {
    let geometry = *game.board().geometry();
    let legal_set: HashSet<u32> = legal.iter().copied().collect();
    for &mv in legal {
        assert!(
            game.is_legal(mv),
            "is_legal refuses {} {context}",
            game.format_move(mv)
        );
    }
    let reference_legal: HashSet<String> = board.legal_moves().into_iter().collect();
    let mut tally = |accepted: bool| {
        if accepted {
            coverage.other_moves_accepted += 1;
        } else {
            coverage.other_moves_refused += 1;
        }
    };

    // Moves given by their squares: legal exactly when all three lie on
    // the board and the reference lists the move.
    let mut candidates: Vec<RefMove> = Vec::new();
    let reference_moves = board.moves();
    for _ in 0..NEAR_MISS_SAMPLES.min(reference_moves.len()) {
        let mv = reference_moves[rng.below(reference_moves.len())];
        candidates.extend(near_misses(mv, &board.enemy_amazons()));
    }
    let own = board.own_amazons();
    let size = board.size();
    let random_square = |rng: &mut XorShift| (rng.below(size) as i32, rng.below(size) as i32);
    for _ in 0..8 {
        let from = own[rng.below(own.len())];
        let to = random_square(rng);
        let arrow = random_square(rng);
        candidates.push(RefMove { from, to, arrow });
    }
    for mv in candidates {
        let on_board = [mv.from, mv.to, mv.arrow]
            .iter()
            .all(|&sq| board.on_board(sq));
        let expected = on_board && reference_legal.contains(&move_name(mv));
        let number = encode(&geometry, mv);
        assert_eq!(
            game.is_legal(number),
            expected,
            "is_legal({number:#x}) for {mv:?} ({}) {context}",
            if on_board {
                move_name(mv)
            } else {
                "off the board".to_string()
            }
        );
        tally(expected);
    }

    // Numbers that are not moves of the crate's form at all.
    let mut numbers = vec![NULL_MOVE, 0, u32::MAX];
    for _ in 0..4 {
        let random = rng.next() as u32;
        numbers.push(random);
        numbers.push(random & 0x00ff_ffff);
        numbers.push(random & 0x007f_7f7f);
    }
    let mv = legal[rng.below(legal.len())];
    numbers.push(mv | 1 << 24);
    numbers.push(mv | 0x80 << 24);
    for number in numbers {
        let expected = legal_set.contains(&number);
        assert_eq!(
            game.is_legal(number),
            expected,
            "is_legal({number:#x}) {context}"
        );
        tally(expected);
    }
}

/// Every legal move must read back from its text in every spelling.
fn check_spellings(game: &Amazons, legal: &[u32], context: &str) {
    for &mv in legal {
        let text = game.format_move(mv);
        assert_eq!(game.parse_move(&text), Some(mv), "'{text}' {context}");
        let squares: Vec<String> = {
            let mut starts: Vec<usize> = text
                .char_indices()
                .filter(|(_, c)| c.is_ascii_lowercase())
                .map(|(i, _)| i)
                .collect();
            starts.push(text.len());
            starts
                .windows(2)
                .map(|w| text[w[0]..w[1]].to_string())
                .collect()
        };
        let [from, to, arrow] = &squares[..] else {
            panic!("'{text}' is not three squares {context}");
        };
        for spelling in [
            format!("{from}{to}({arrow})"),
            format!("{from}-{to}/{arrow}"),
            format!("{from}{to},{to}{arrow}"),
        ] {
            assert_eq!(
                game.parse_move(&spelling),
                Some(mv),
                "'{spelling}' {context}"
            );
        }
    }
}

fn play_one_game(index: usize, coverage: &mut Coverage) {
    let mut rng = XorShift::for_game(index);
    let mut game = match STARTS[index % STARTS.len()] {
        Start::Variant(variant) => Amazons::new(variant),
        Start::Fen(fen) => {
            let mut game = Amazons::new(0);
            game.set_position(fen)
                .unwrap_or_else(|e| panic!("'{fen}': {e}"));
            game
        }
    };
    let start = game.position_text();
    if let Start::Fen(fen) = STARTS[index % STARTS.len()] {
        assert_eq!(start, fen, "the start position reads back");
    }
    let mut board = RefBoard::from_fen(&start).unwrap();
    assert_eq!(board.fen(), start, "the reference reads the start back");
    *coverage.sides.entry(game.board().size).or_default() += 1;
    // (move, position text before it, hash before it).
    let mut played: Vec<(u32, String, u64)> = Vec::new();

    loop {
        let ply = played.len();
        let context = format!("in game {index} at ply {ply}: {}", game.position_text());
        let expected = board.legal_moves();
        coverage.positions_compared += 1;
        assert_eq!(
            game.side_to_move(),
            u32::from(!board.first_to_move()),
            "side to move {context}"
        );

        let legal = generate(&game);
        assert_eq!(names(&game, &legal), expected, "legal moves {context}");
        assert_eq!(
            game.board().count_moves(),
            expected.len() as u64,
            "count_moves {context}"
        );
        coverage.moves_compared += expected.len();
        coverage.shots_back_seen += board.moves().iter().filter(|m| shoots_back(m)).count();

        let outcome = game.outcome();
        if expected.is_empty() {
            assert_eq!(outcome, Outcome::Loss, "no legal move loses {context}");
            for number in [NULL_MOVE, 0, make_move(0, 1, 2)] {
                assert!(!game.is_legal(number), "is_legal({number:#x}) {context}");
            }
            if board.first_to_move() {
                coverage.second_player_wins += 1;
            } else {
                coverage.first_player_wins += 1;
            }
            break;
        }
        assert_eq!(outcome, Outcome::Ongoing, "moves left {context}");

        check_is_legal(&game, &board, &legal, &mut rng, coverage, &context);
        check_spellings(&game, &legal, &context);

        let mv = legal[rng.below(legal.len())];
        let name = game.format_move(mv);
        let text = game.position_text();
        let hash = game.hash();
        game.make_move(mv);
        board.play(&name);
        let context = format!("after {name} {context}");
        assert_eq!(
            game.position_text(),
            board.fen(),
            "positions differ {context}"
        );
        assert_ne!(game.hash(), hash, "the hash did not change {context}");

        // The incremental hash is the hash of the position read afresh.
        let mut fresh = Amazons::new(1);
        fresh
            .set_position(&game.position_text())
            .unwrap_or_else(|e| panic!("the crate cannot read its own FEN: {e} {context}"));
        assert_eq!(fresh.hash(), game.hash(), "incremental hash {context}");
        assert_eq!(fresh.position_text(), game.position_text(), "{context}");

        // Unmake at once, then make again.
        game.unmake_move(mv);
        assert_eq!(game.position_text(), text, "unmake text {context}");
        assert_eq!(game.hash(), hash, "unmake hash {context}");
        game.make_move(mv);

        played.push((mv, text, hash));
    }

    coverage.games += 1;

    // Take the whole game back, checking each position on the way.
    for (mv, text, hash) in played.iter().rev() {
        game.unmake_move(*mv);
        assert_eq!(&game.position_text(), text, "unwinding game {index}");
        assert_eq!(game.hash(), *hash, "unwinding game {index}");
    }
    assert_eq!(game.position_text(), start, "unwinding game {index}");
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
    assert_eq!(
        coverage.sides.keys().copied().collect::<Vec<_>>(),
        (4..=10).collect::<Vec<u8>>(),
        "every board side from 4 to 10 played"
    );
    assert!(coverage.first_player_wins > 0, "{coverage:?}");
    assert!(coverage.second_player_wins > 0, "{coverage:?}");
    assert!(coverage.shots_back_seen > 0, "{coverage:?}");
    assert!(coverage.other_moves_accepted > 0, "{coverage:?}");
    assert!(coverage.other_moves_refused > 0, "{coverage:?}");
}
