//! The `patterns` weights file: a small header and the weights as 16-bit
//! integers, with runs of zeros packed.
//!
//! # Format, version 1 (all integers little-endian)
//!
//! | bytes | field |
//! |-------|-------|
//! | 8 | magic `PLYDPATS` |
//! | 2 | version, 1 |
//! | 2 | stage width `w` in empty squares (1 to 60) |
//! | 2 | number of stages, `60 / w + 1` |
//! | 2 | number of pattern families, 11 |
//! | 2 per family | its number of squares, in the order of [`FAMILIES`] |
//! | 2 | number of counted terms, 5 |
//! | 4 | body length in bytes |
//! | 4 | FNV-1a (32-bit) hash of the body |
//! | body | the weights |
//!
//! A position with `e` empty squares uses stage `min(e / w, stages - 1)`.
//! The body lists every stage in turn; a stage is every family's table
//! (`3^squares` entries, indexed as in [`super::features`]) end to end, then
//! the counted terms' weights in the order of [`LINEAR_NAMES`]. Each weight
//! is an `i16` in hundredths of a disc (the evaluator's score unit).
//!
//! The body is a sequence of LEB128 varints. An even varint `2n` stands
//! for `n` zeros (`n ≥ 1`); an odd one `2z + 1` for the single non-zero
//! weight whose zigzag code is `z` (0 ↦ 0, -1 ↦ 1, 1 ↦ 2, -2 ↦ 3, ...).
//! Most table entries are configurations that never occur, so the zero runs
//! keep the file small.
//!
//! [`LINEAR_NAMES`]: super::features::LINEAR_NAMES

use std::fmt;

use super::features::{FAMILIES, FAMILY_COUNT, LINEAR_COUNT, PATTERN_WEIGHTS};

/// The first eight bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"PLYDPATS";
/// The format version this code reads and writes.
pub const VERSION: u16 = 1;
/// Weights in one stage.
pub const STAGE_LEN: usize = PATTERN_WEIGHTS + LINEAR_COUNT;
/// Largest number of empty squares a position can have.
const MAX_EMPTIES: u16 = 60;
/// Header length in bytes.
const HEADER_LEN: usize = 8 + 2 * 4 + 2 * FAMILY_COUNT + 2 + 4 + 4;

/// Weights of every stage, as the evaluator uses them.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    stage_width: u16,
    stages: usize,
    weights: Vec<i16>,
}

impl fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatternWeights")
            .field("stage_width", &self.stage_width)
            .field("stages", &self.stages)
            .finish_non_exhaustive()
    }
}

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternFileError {
    /// Shorter than the header.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes found.
        found: usize,
    },
    /// Not a weights file.
    BadMagic,
    /// Another format version.
    Version {
        /// The file's version.
        found: u16,
    },
    /// A header field disagrees with this build's patterns.
    Shape(String),
    /// The body was damaged (hash mismatch) or decodes to the wrong size.
    Body(String),
}

impl fmt::Display for PatternFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternFileError::Truncated { needed, found } => {
                write!(f, "truncated: {found} bytes, at least {needed} needed")
            }
            PatternFileError::BadMagic => write!(f, "not a patterns weights file (bad magic)"),
            PatternFileError::Version { found } => {
                write!(
                    f,
                    "format version {found}, this build reads version {VERSION}"
                )
            }
            PatternFileError::Shape(what) => write!(f, "does not fit these patterns: {what}"),
            PatternFileError::Body(what) => write!(f, "damaged weights: {what}"),
        }
    }
}

impl std::error::Error for PatternFileError {}

impl PatternWeights {
    /// All-zero weights with stages `stage_width` empties wide.
    pub fn zeros(stage_width: u16) -> Self {
        assert!(
            (1..=MAX_EMPTIES).contains(&stage_width),
            "stage width {stage_width}"
        );
        let stages = usize::from(MAX_EMPTIES / stage_width) + 1;
        PatternWeights {
            stage_width,
            stages,
            weights: vec![0; stages * STAGE_LEN],
        }
    }

    /// Stage width in empty squares.
    pub fn stage_width(&self) -> u16 {
        self.stage_width
    }

    /// Number of stages.
    pub fn stages(&self) -> usize {
        self.stages
    }

    /// The stage of a position with `empties` empty squares.
    #[inline]
    pub fn stage_of(&self, empties: u32) -> usize {
        ((empties / u32::from(self.stage_width)) as usize).min(self.stages - 1)
    }

    /// One stage's weights: the pattern tables, then the counted terms.
    #[inline]
    pub fn stage(&self, stage: usize) -> &[i16] {
        &self.weights[stage * STAGE_LEN..(stage + 1) * STAGE_LEN]
    }

    /// One stage's weights, to be written.
    pub fn stage_mut(&mut self, stage: usize) -> &mut [i16] {
        &mut self.weights[stage * STAGE_LEN..(stage + 1) * STAGE_LEN]
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut body = Vec::new();
        let mut zeros = 0u64;
        for &w in &self.weights {
            if w == 0 {
                zeros += 1;
                continue;
            }
            if zeros > 0 {
                write_varint(&mut body, 2 * zeros);
                zeros = 0;
            }
            write_varint(&mut body, 2 * u64::from(zigzag(w)) + 1);
        }
        if zeros > 0 {
            write_varint(&mut body, 2 * zeros);
        }
        let mut out = Vec::with_capacity(HEADER_LEN + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.stage_width.to_le_bytes());
        out.extend_from_slice(&(self.stages as u16).to_le_bytes());
        out.extend_from_slice(&(FAMILY_COUNT as u16).to_le_bytes());
        for family in &FAMILIES {
            out.extend_from_slice(&(family.squares.len() as u16).to_le_bytes());
        }
        out.extend_from_slice(&(LINEAR_COUNT as u16).to_le_bytes());
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Read a file's bytes, checking every header field and the body.
    pub fn decode(bytes: &[u8]) -> Result<Self, PatternFileError> {
        if bytes.len() < 10 {
            return Err(PatternFileError::Truncated {
                needed: HEADER_LEN,
                found: bytes.len(),
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(PatternFileError::BadMagic);
        }
        let mut reader = Reader { bytes, at: 8 };
        let version = reader.u16()?;
        if version != VERSION {
            return Err(PatternFileError::Version { found: version });
        }
        let stage_width = reader.u16()?;
        if !(1..=MAX_EMPTIES).contains(&stage_width) {
            return Err(PatternFileError::Shape(format!(
                "stage width {stage_width}, expected 1 to {MAX_EMPTIES}"
            )));
        }
        let stages = reader.u16()?;
        let expected_stages = MAX_EMPTIES / stage_width + 1;
        if stages != expected_stages {
            return Err(PatternFileError::Shape(format!(
                "{stages} stages, expected {expected_stages} for width {stage_width}"
            )));
        }
        let families = reader.u16()?;
        if usize::from(families) != FAMILY_COUNT {
            return Err(PatternFileError::Shape(format!(
                "{families} pattern families, expected {FAMILY_COUNT}"
            )));
        }
        for family in &FAMILIES {
            let squares = reader.u16()?;
            if usize::from(squares) != family.squares.len() {
                return Err(PatternFileError::Shape(format!(
                    "family {} has {squares} squares, expected {}",
                    family.name,
                    family.squares.len()
                )));
            }
        }
        let linear = reader.u16()?;
        if usize::from(linear) != LINEAR_COUNT {
            return Err(PatternFileError::Shape(format!(
                "{linear} counted terms, expected {LINEAR_COUNT}"
            )));
        }
        let body_len = reader.u32()? as usize;
        let hash = reader.u32()?;
        let body = &bytes[HEADER_LEN..];
        if body.len() != body_len {
            return Err(PatternFileError::Body(format!(
                "{} body bytes, the header says {body_len}",
                body.len()
            )));
        }
        if fnv1a(body) != hash {
            return Err(PatternFileError::Body("hash mismatch".to_string()));
        }
        let mut weights = PatternWeights::zeros(stage_width);
        decode_body(body, &mut weights.weights)?;
        Ok(weights)
    }
}

/// Fill `out` from the varint stream, which must cover it exactly.
fn decode_body(body: &[u8], out: &mut [i16]) -> Result<(), PatternFileError> {
    let mut at = 0;
    let mut filled = 0usize;
    while at < body.len() {
        let token = read_varint(body, &mut at)?;
        if token % 2 == 0 {
            let run = token / 2;
            if run == 0 || run > (out.len() - filled) as u64 {
                return Err(PatternFileError::Body(format!(
                    "zero run of {run} at weight {filled}"
                )));
            }
            filled += run as usize; // already zero
        } else {
            let code = u16::try_from(token / 2)
                .map_err(|_| PatternFileError::Body(format!("weight {filled} out of range")))?;
            if filled == out.len() {
                return Err(PatternFileError::Body("more weights than expected".into()));
            }
            out[filled] = unzigzag(code);
            filled += 1;
        }
    }
    if filled != out.len() {
        return Err(PatternFileError::Body(format!(
            "{filled} weights, expected {}",
            out.len()
        )));
    }
    Ok(())
}

/// Reads the header's fixed-size fields.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], PatternFileError> {
        let end = self.at + N;
        if self.bytes.len() < HEADER_LEN || end > self.bytes.len() {
            return Err(PatternFileError::Truncated {
                needed: HEADER_LEN,
                found: self.bytes.len(),
            });
        }
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.at..end]);
        self.at = end;
        Ok(out)
    }

    fn u16(&mut self) -> Result<u16, PatternFileError> {
        self.take::<2>().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, PatternFileError> {
        self.take::<4>().map(u32::from_le_bytes)
    }
}

fn zigzag(w: i16) -> u16 {
    ((w << 1) ^ (w >> 15)) as u16
}

fn unzigzag(z: u16) -> i16 {
    ((z >> 1) as i16) ^ -((z & 1) as i16)
}

fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn read_varint(bytes: &[u8], at: &mut usize) -> Result<u64, PatternFileError> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes
            .get(*at)
            .ok_or_else(|| PatternFileError::Body("varint cut short".into()))?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(PatternFileError::Body("varint too long".into()))
}

/// FNV-1a, 32-bit: enough to catch a damaged or hand-edited file.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_round_trips() {
        for w in [i16::MIN, -2, -1, 0, 1, 2, i16::MAX] {
            assert_eq!(unzigzag(zigzag(w)), w);
        }
    }
}
