//! Perft from the positions in `xiangqi.perft`: through the plugin's native
//! perft (`Game::perft`, over the bare position), through the SDK's walk
//! over the `Game` trait (`plyd_api::sdk::default_perft`, which goes through
//! `generate_moves`, `make_move` and `unmake_move` and so through the
//! game-over rules), and, at shallow depths, through the independent
//! reference generator, so the data file itself is checked too.

mod reference;

use plyd_api::sdk::default_perft;
use plyd_api::{Game, MoveSink, Outcome};
use plyd_game_xiangqi::Xiangqi;
use reference::RefBoard;

/// One line of the data file: a position and its (depth, leaves) pairs.
struct PerftCase {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn parse_field(field: &str) -> (u32, u64) {
    let numbers: Vec<u64> = field
        .split_whitespace()
        .map(|n| {
            n.parse()
                .unwrap_or_else(|_| panic!("bad number '{n}' in field '{field}'"))
        })
        .collect();
    match numbers[..] {
        [depth, leaves] => (depth as u32, leaves),
        _ => panic!("field '{field}' is not 'depth leaves'"),
    }
}

fn load_cases() -> Vec<PerftCase> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/xiangqi.perft");
    let text = std::fs::read_to_string(path).expect("tests/xiangqi.perft is readable");
    let cases: Vec<PerftCase> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().expect("a position").trim().to_string();
            let counts: Vec<(u32, u64)> = fields.map(parse_field).collect();
            let depths: Vec<u32> = counts.iter().map(|&(d, _)| d).collect();
            assert_eq!(
                depths,
                (1..=counts.len() as u32).collect::<Vec<_>>(),
                "{fen}: depths must run 1, 2, 3, ..."
            );
            PerftCase { fen, counts }
        })
        .collect();
    assert!(cases.len() >= 10, "xiangqi.perft holds too few positions");
    cases
}

fn game_at(fen: &str) -> Xiangqi {
    let mut game = Xiangqi::new(0);
    game.set_position(fen)
        .unwrap_or_else(|e| panic!("bad position '{fen}': {e}"));
    game
}

fn legal_moves(game: &Xiangqi) -> Vec<u32> {
    let mut buf = vec![0u32; 256];
    let mut sink = MoveSink::new(&mut buf);
    game.generate_moves(&mut sink);
    let count = sink.len();
    assert!(count <= buf.len(), "more than 256 moves");
    buf.truncate(count);
    buf
}

#[test]
fn the_data_file_covers_the_start_position_to_depth_5() {
    let start = Xiangqi::VARIANTS[0].start_position;
    let cases = load_cases();
    let case = cases
        .iter()
        .find(|case| case.fen == start)
        .expect("the start position is in the file");
    assert_eq!(
        case.counts,
        [
            (1, 44),
            (2, 1920),
            (3, 79_666),
            (4, 3_290_240),
            (5, 133_312_995)
        ]
    );
}

#[test]
fn the_file_holds_positions_with_no_legal_move_in_and_out_of_check() {
    let cases = load_cases();
    let mut mated = 0;
    let mut stalemated = 0;
    for case in &cases {
        let game = game_at(&case.fen);
        if legal_moves(&game).is_empty() {
            assert_eq!(game.outcome(), Outcome::Loss, "{}", case.fen);
            assert!(case.counts.iter().all(|&(_, n)| n == 0), "{}", case.fen);
            if game.in_check() {
                mated += 1;
            } else {
                stalemated += 1;
            }
        }
    }
    assert!(
        mated > 0 && stalemated > 0,
        "{mated} mates, {stalemated} stalemates"
    );
}

#[test]
fn native_perft_matches_the_table() {
    for case in load_cases() {
        let mut game = game_at(&case.fen);
        let hash = game.hash();
        for &(depth, leaves) in &case.counts {
            assert_eq!(game.perft(depth), leaves, "{} depth {depth}", case.fen);
        }
        // Perft leaves the state as it found it; the file's FENs are in the
        // form the plugin writes.
        assert_eq!(game.position_text(), case.fen);
        assert_eq!(game.hash(), hash);
    }
}

#[test]
fn the_make_unmake_walk_matches_the_table_to_depth_3() {
    for case in load_cases() {
        let mut game = game_at(&case.fen);
        let hash = game.hash();
        for &(depth, leaves) in case.counts.iter().filter(|&&(d, _)| d <= 3) {
            assert_eq!(
                default_perft(&mut game, depth),
                leaves,
                "{} depth {depth}",
                case.fen
            );
        }
        assert_eq!(game.position_text(), case.fen);
        assert_eq!(game.hash(), hash);
        assert_eq!(game.plies_played(), 0);
    }
}

#[test]
fn the_reference_generator_agrees_with_the_table_to_depth_3() {
    for case in load_cases() {
        let board = RefBoard::from_fen(&case.fen).unwrap();
        assert_eq!(board.fen(), case.fen, "the reference reads the FEN back");
        for &(depth, leaves) in case.counts.iter().filter(|&&(d, _)| d <= 3) {
            assert_eq!(board.perft(depth), leaves, "{} depth {depth}", case.fen);
        }
    }
}

/// Perft split by first move, from the plugin: each legal move made through
/// the `Game` trait, the rest counted by the native perft.
fn plugin_divide(game: &mut Xiangqi, depth: u32) -> Vec<(String, u64)> {
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
    // The crowded Fairy-Stockfish middlegame and the check-evasion position.
    for fen in [
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "5k3/9/C2ar4/9/9/2B3B2/5N3/5Rn2/4K4/3A5 w - - 0 1",
    ] {
        let mut game = game_at(fen);
        let plugin = plugin_divide(&mut game, 3);
        let reference = RefBoard::from_fen(fen).unwrap().divide(3);
        let plugin_moves: Vec<&str> = plugin.iter().map(|(m, _)| m.as_str()).collect();
        let reference_moves: Vec<&str> = reference.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(plugin_moves, reference_moves, "root moves of {fen}");
        for ((mv, ours), (_, theirs)) in plugin.iter().zip(&reference) {
            assert_eq!(ours, theirs, "{fen}: subtree of {mv}");
        }
        assert_eq!(game.position_text(), fen);
    }
}
