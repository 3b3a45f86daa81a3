//! The `patterns` evaluator: its fast pattern indices against a square by
//! square recomputation, symmetry, the weights file's round trip and its
//! refusal of damaged files.

use plyd_api::{Evaluator, Game};
use plyd_game_othello::board::{legal_placements, Position};
use plyd_game_othello::patterns::features::{
    linear_terms, pattern_indices, FAMILIES, LINEAR_COUNT, PATTERN_WEIGHTS, SYMMETRIES,
};
use plyd_game_othello::patterns::file::STAGE_LEN;
use plyd_game_othello::patterns::{PatternFileError, PatternWeights, Patterns};
use plyd_game_othello::text::format_position;
use plyd_game_othello::Othello;

/// A small deterministic generator for the tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
}

/// Positions from random games: every position of 40 games.
fn random_positions() -> Vec<(u64, u64)> {
    let mut rng = Rng(7);
    let mut out = Vec::new();
    for _ in 0..40 {
        let mut position = Position::START;
        loop {
            let (own, opp) = position.own_and_opponent();
            out.push((own, opp));
            let moves = legal_placements(own, opp);
            if moves == 0 {
                if legal_placements(opp, own) == 0 {
                    break;
                }
                position = position.play(plyd_game_othello::PASS);
                continue;
            }
            let mut rest = moves;
            for _ in 0..rng.next() % u64::from(moves.count_ones()) {
                rest &= rest - 1;
            }
            position = position.play(rest.trailing_zeros());
        }
    }
    out
}

/// Symmetry `g` of the board as a map on (row, file), in the order the
/// evaluator builds its images: identity, files mirrored, rows flipped,
/// both, then the same four after a transpose.
fn symmetry(g: usize, row: usize, file: usize) -> (usize, usize) {
    let (r, f) = if g >= 4 { (file, row) } else { (row, file) };
    let f = if g % 2 == 1 { 7 - f } else { f };
    let r = if g % 4 >= 2 { 7 - r } else { r };
    (r, f)
}

/// The image of a bitboard under symmetry `g`, square by square.
fn image(x: u64, g: usize) -> u64 {
    (0..64usize)
        .filter(|s| x >> s & 1 != 0)
        .map(|s| {
            let (r, f) = symmetry(g, s / 8, s % 8);
            1u64 << (r * 8 + f)
        })
        .fold(0, |a, b| a | b)
}

/// A family's index on an image, digit by digit.
fn slow_index(own: u64, opp: u64, squares: &[u8]) -> u32 {
    squares.iter().rev().fold(0, |index, &s| {
        let digit = if own >> s & 1 != 0 {
            1
        } else if opp >> s & 1 != 0 {
            2
        } else {
            0
        };
        index * 3 + digit
    })
}

#[test]
fn pattern_indices_equal_a_square_by_square_recomputation() {
    for (own, opp) in random_positions() {
        let fast = pattern_indices(own, opp);
        for (f, family) in FAMILIES.iter().enumerate() {
            for g in 0..SYMMETRIES {
                let slow = slow_index(image(own, g), image(opp, g), family.squares);
                assert_eq!(
                    fast[f * SYMMETRIES + g],
                    slow,
                    "{} image {g} of {own:#x} {opp:#x}",
                    family.name
                );
            }
        }
    }
}

/// Weights with every entry drawn at random, so that no symmetry holds by
/// accident of zeros.
fn random_weights() -> PatternWeights {
    let mut rng = Rng(11);
    let mut weights = PatternWeights::zeros(5);
    for stage in 0..weights.stages() {
        for w in weights.stage_mut(stage) {
            *w = (rng.next() % 2001) as i16 - 1000;
        }
    }
    weights
}

#[test]
fn symmetric_positions_evaluate_equally() {
    for patterns in [
        Patterns::shipped(),
        Patterns::with_weights(random_weights()),
    ] {
        for (own, opp) in random_positions().into_iter().step_by(7) {
            let score = patterns.score(own, opp);
            for g in 1..SYMMETRIES {
                assert_eq!(
                    patterns.score(image(own, g), image(opp, g)),
                    score,
                    "image {g} of {own:#x} {opp:#x}"
                );
            }
        }
    }
}

#[test]
fn score_is_the_sum_of_table_entries_and_counted_terms() {
    let weights = random_weights();
    let patterns = Patterns::with_weights(weights.clone());
    for (own, opp) in random_positions().into_iter().step_by(11) {
        let empties = 64 - (own | opp).count_ones();
        let stage = weights.stage(weights.stage_of(empties));
        let mut expected = 0i32;
        let mut offset = 0;
        for family in &FAMILIES {
            for g in 0..SYMMETRIES {
                let index = slow_index(image(own, g), image(opp, g), family.squares);
                expected += i32::from(stage[offset + index as usize]);
            }
            offset += family.table_len();
        }
        assert_eq!(offset, PATTERN_WEIGHTS);
        let terms = linear_terms(own, opp);
        for k in 0..LINEAR_COUNT {
            expected += terms[k] * i32::from(stage[PATTERN_WEIGHTS + k]);
        }
        assert_eq!(patterns.score(own, opp), expected);
    }
}

#[test]
fn the_evaluator_scores_for_the_side_to_move() {
    let patterns = Patterns::from_params(None).unwrap();
    let mut game = Othello::new(0);
    for (own, opp) in random_positions().into_iter().step_by(13) {
        for black_to_move in [true, false] {
            let position = Position {
                black: if black_to_move { own } else { opp },
                white: if black_to_move { opp } else { own },
                side: if black_to_move {
                    plyd_game_othello::board::Color::Black
                } else {
                    plyd_game_othello::board::Color::White
                },
            };
            game.set_position(&format_position(&position)).unwrap();
            let expected = patterns.score(own, opp).clamp(-6400, 6400);
            assert_eq!(patterns.evaluate(&game), expected);
            let total = patterns
                .explain(&game)
                .into_iter()
                .find(|(name, _)| name == "total")
                .unwrap()
                .1;
            assert_eq!(total, f64::from(expected));
        }
    }
}

#[test]
fn the_weights_file_round_trips() {
    let weights = random_weights();
    let bytes = weights.encode();
    assert_eq!(PatternWeights::decode(&bytes).unwrap(), weights);
    let zeros = PatternWeights::zeros(4);
    let bytes = zeros.encode();
    assert_eq!(PatternWeights::decode(&bytes).unwrap(), zeros);
    assert_eq!(zeros.stages(), 16);
    assert_eq!(zeros.stage(15).len(), STAGE_LEN);
}

#[test]
fn the_shipped_weights_decode() {
    let patterns = Patterns::shipped();
    assert!(patterns.weights().stages() >= 2);
    // The fitted weights say something about the start position's moves.
    let start = Position::START;
    let (own, opp) = start.own_and_opponent();
    assert!(patterns.score(own, opp).abs() < 6400);
}

#[test]
fn damaged_files_are_refused_with_a_reason() {
    let bytes = random_weights().encode();
    // Every truncation is refused, never accepted nor a panic.
    for cut in [0, 5, 9, 20, 40, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            PatternWeights::decode(&bytes[..cut]).is_err(),
            "cut at {cut}"
        );
    }
    assert!(matches!(
        PatternWeights::decode(&bytes[..20]),
        Err(PatternFileError::Truncated { .. })
    ));
    let mut bad_magic = bytes.clone();
    bad_magic[0] = b'X';
    assert_eq!(
        PatternWeights::decode(&bad_magic),
        Err(PatternFileError::BadMagic)
    );
    let mut new_version = bytes.clone();
    new_version[8] = 2;
    assert_eq!(
        PatternWeights::decode(&new_version),
        Err(PatternFileError::Version { found: 2 })
    );
    let mut wrong_family = bytes.clone();
    wrong_family[16] = 9; // the first family's square count
    assert!(matches!(
        PatternWeights::decode(&wrong_family),
        Err(PatternFileError::Shape(_))
    ));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    assert!(matches!(
        PatternWeights::decode(&flipped),
        Err(PatternFileError::Body(_))
    ));
    let message = PatternWeights::decode(&bytes[..bytes.len() - 1])
        .unwrap_err()
        .to_string();
    assert!(message.contains("body"), "{message}");
}

#[test]
fn parameters_name_a_weights_file_and_errors_are_one_line() {
    let dir = std::env::temp_dir().join(format!("plyd-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.bin");
    std::fs::write(&good, random_weights().encode()).unwrap();
    let params = format!("weights = {:?}", good.display().to_string());
    let loaded = Patterns::from_params(Some(&params)).unwrap();
    assert_eq!(loaded.weights(), &random_weights());

    let missing = format!(
        "weights = {:?}",
        dir.join("missing.bin").display().to_string()
    );
    let error = Patterns::from_params(Some(&missing)).unwrap_err();
    assert!(
        error.contains("missing.bin") && !error.contains('\n'),
        "{error}"
    );

    let damaged = dir.join("damaged.bin");
    std::fs::write(&damaged, b"PLYDPATS\x01\x00").unwrap();
    let params = format!("weights = {:?}", damaged.display().to_string());
    let error = Patterns::from_params(Some(&params)).unwrap_err();
    assert!(
        error.contains("truncated") && !error.contains('\n'),
        "{error}"
    );

    assert!(Patterns::from_params(Some("weights = 3")).is_err());
    assert!(Patterns::from_params(Some("weights = \"\"")).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn representatives_and_stabilisers_match_the_symmetries() {
    use plyd_game_othello::patterns::features::{DISTINCT, REPRESENTATIVES, STABILISERS};
    // The squares each image reads a family's base from, as a set.
    let covered = |squares: &[u8], g: usize| -> u64 {
        squares
            .iter()
            .map(|&b| {
                // The board square that image g puts on square b.
                let s = (0..64usize)
                    .find(|&q| {
                        let (r, f) = symmetry(g, q / 8, q % 8);
                        r * 8 + f == b as usize
                    })
                    .unwrap();
                1u64 << s
            })
            .fold(0, |a, b| a | b)
    };
    let mut distinct = 0;
    for (f, family) in FAMILIES.iter().enumerate() {
        let mut seen: Vec<u64> = Vec::new();
        let mut representatives = Vec::new();
        for g in 0..SYMMETRIES {
            let set = covered(family.squares, g);
            if !seen.contains(&set) {
                seen.push(set);
                representatives.push(g);
            }
        }
        assert_eq!(
            REPRESENTATIVES[f],
            representatives.as_slice(),
            "{}",
            family.name
        );
        let base = covered(family.squares, 0);
        let stabiliser: Vec<usize> = (0..SYMMETRIES)
            .filter(|&g| covered(family.squares, g) == base)
            .collect();
        assert_eq!(STABILISERS[f], stabiliser.as_slice(), "{}", family.name);
        assert_eq!(representatives.len() * stabiliser.len(), SYMMETRIES);
        distinct += representatives.len();
    }
    assert_eq!(distinct, DISTINCT);
}
