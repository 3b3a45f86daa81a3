//! The labelled positions of `fit_patterns --save`, shared by the examples
//! that read them (each uses a part of it).
#![allow(dead_code)]

/// One labelled position: the side to move's discs, its opponent's, the
/// label (the final disc difference for the side to move, or a blend with
/// a search's value) and the number of the game it comes from.
#[derive(Clone, Copy)]
pub struct Sample {
    pub own: u64,
    pub opp: u64,
    pub label: i8,
    pub game: u32,
}

/// Bytes of one position in a `--save` file: own and opponent discs
/// (`u64` little-endian each), the label (`i8`) and the game (`u32`).
pub const RECORD: usize = 21;

pub fn save_positions(path: &str, samples: &[Sample]) {
    let mut bytes = Vec::with_capacity(samples.len() * RECORD);
    for s in samples {
        bytes.extend_from_slice(&s.own.to_le_bytes());
        bytes.extend_from_slice(&s.opp.to_le_bytes());
        bytes.push(s.label as u8);
        bytes.extend_from_slice(&s.game.to_le_bytes());
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
}

pub fn load_positions(path: &str) -> Vec<Sample> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        bytes.len().is_multiple_of(RECORD),
        "{path}: not a positions file"
    );
    bytes
        .chunks_exact(RECORD)
        .map(|r| Sample {
            own: u64::from_le_bytes(r[0..8].try_into().expect("8 bytes")),
            opp: u64::from_le_bytes(r[8..16].try_into().expect("8 bytes")),
            label: r[16] as i8,
            game: u32::from_le_bytes(r[17..21].try_into().expect("4 bytes")),
        })
        .collect()
}
