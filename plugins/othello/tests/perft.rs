//! Perft from the positions in `othello.perft`, through the native perft
//! (`Game::perft`) and through the SDK's make/unmake walk
//! (`plyd_api::sdk::default_perft`), which exercises `generate_moves`,
//! `make_move` and `unmake_move` as the host uses them. Both count a game
//! that ended early as a leaf, as the published figures do (see the data
//! file); the `ended` column is checked by counting those games directly.

use plyd_api::sdk::default_perft;
use plyd_api::Game;
use plyd_game_othello::Othello;

/// Expected counts at one depth.
#[derive(Debug, Clone, Copy)]
struct Expected {
    depth: u32,
    /// Leaves, counting each game that ended before `depth` once.
    leaves: u64,
    /// How many of the leaves are such finished games.
    ended: u64,
}

/// One line of the data file: a position and its expected counts.
struct PerftCase {
    position: String,
    counts: Vec<Expected>,
}

fn parse_field(field: &str) -> Expected {
    let numbers: Vec<u64> = field
        .split_whitespace()
        .map(|n| {
            n.parse()
                .unwrap_or_else(|_| panic!("bad number in '{field}'"))
        })
        .collect();
    match numbers[..] {
        [depth, leaves] => Expected {
            depth: depth as u32,
            leaves,
            ended: 0,
        },
        [depth, leaves, ended] => Expected {
            depth: depth as u32,
            leaves,
            ended,
        },
        _ => panic!("bad field '{field}'"),
    }
}

fn load_cases() -> Vec<PerftCase> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/othello.perft");
    let text = std::fs::read_to_string(path).expect("tests/othello.perft is readable");
    let cases: Vec<PerftCase> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let position = fields.next().expect("a position").trim().to_string();
            PerftCase {
                position,
                counts: fields.map(parse_field).collect(),
            }
        })
        .collect();
    assert!(!cases.is_empty(), "othello.perft holds no positions");
    cases
}

fn game_at(position: &str) -> Othello {
    let mut game = Othello::new(0);
    game.set_position(position)
        .unwrap_or_else(|e| panic!("bad position '{position}': {e}"));
    game
}

fn check_native(max_depth: u32) {
    for case in load_cases() {
        let mut game = game_at(&case.position);
        for e in case.counts.iter().filter(|e| e.depth <= max_depth) {
            assert_eq!(
                game.perft(e.depth),
                e.leaves,
                "{} depth {}",
                case.position,
                e.depth
            );
        }
        // Perft must leave the state as it found it.
        assert_eq!(game.position_text(), case.position);
    }
}

fn check_make_unmake(max_depth: u32) {
    for case in load_cases() {
        let mut game = game_at(&case.position);
        let hash = game.hash();
        for e in case.counts.iter().filter(|e| e.depth <= max_depth) {
            let walked = default_perft(&mut game, e.depth);
            assert_eq!(walked, e.leaves, "{} depth {}", case.position, e.depth);
        }
        assert_eq!(game.position_text(), case.position);
        assert_eq!(game.hash(), hash);
        assert_eq!(game.plies_played(), 0);
    }
}

#[test]
fn the_data_file_covers_the_start_position_to_depth_11() {
    let start = Othello::VARIANTS[0].start_position;
    let cases = load_cases();
    let case = cases.iter().find(|case| case.position == start).unwrap();
    let depths: Vec<u32> = case.counts.iter().map(|e| e.depth).collect();
    assert_eq!(depths, (1..=11).collect::<Vec<_>>());
}

/// Games that ended at fewer than `depth` plies from `game` (each counted
/// once, where it ended), by a plain walk over the `Game` trait.
fn ended_early(game: &mut Othello, depth: u32) -> u64 {
    if depth == 0 {
        return 0;
    }
    let mut buf = vec![0; 64];
    let mut sink = plyd_api::MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let count = sink.len();
    if count == 0 {
        return 1;
    }
    let mut total = 0;
    for &mv in &buf[..count] {
        game.make_move(mv);
        total += ended_early(game, depth - 1);
        game.unmake_move(mv);
    }
    total
}

#[test]
fn native_perft_matches_the_table() {
    check_native(11);
}

#[test]
fn make_unmake_perft_matches_the_table() {
    check_make_unmake(10);
}

#[test]
fn finished_games_are_counted_as_the_table_says() {
    for case in load_cases() {
        let mut game = game_at(&case.position);
        for e in case.counts.iter().filter(|e| e.depth <= 10) {
            // A game over at the last ply is an ordinary leaf; only those
            // over strictly before it are the `ended` ones.
            let before_last = ended_early(&mut game, e.depth);
            assert_eq!(before_last, e.ended, "{} depth {}", case.position, e.depth);
        }
    }
}

#[test]
fn a_finished_game_is_one_leaf_at_every_depth() {
    // Black to move can take the last white disc (c1 flips b1), after which
    // neither side can place: one game over after one ply.
    let mut game = game_at("XO6/8/8/8/8/8/8/8 b");
    for depth in 1..4 {
        assert_eq!(game.perft(depth), 1, "native depth {depth}");
        assert_eq!(default_perft(&mut game, depth), 1, "walk depth {depth}");
    }
}
