//! Write an evaluation file in Edax 4.6's format (`data/eval.dat`), fitted
//! to labelled positions, so that plyd's exact solver can be timed against
//! an Edax that orders its search by a trained evaluation.
//!
//! ```text
//! cargo run --release -p plyd-game-othello --example edax_weights -- \
//!     --load POSITIONS... [--epochs 4] --out eval.dat
//! ```
//!
//! Edax's repository does not ship its weights, and Edax does not start
//! without them; a file of zeros lets it solve exactly, but then its move
//! order at many empty squares, which comes from its evaluation, is poor,
//! and timings against it flatter plyd (docs/othello.md, "Against Edax with
//! fitted weights"). This fits Edax's own pattern layout (46 pattern
//! instances in 12 families, a constant, one weight table for each of 61
//! plies) to the positions of `fit_patterns --save` (or `--relabel`): for
//! each ply, the positions of that ply and the two either side (that ply's
//! twice), by stochastic gradient descent on the squared error in discs,
//! each ply starting from the weights of the ply before. The file holds the
//! weights in 128ths of a disc, each family's table packed by its
//! symmetry, as Edax reads it. It is a measuring aid, not Edax's own
//! evaluation; progress goes to stderr.

#[path = "common/positions.rs"]
mod positions;
use positions::{load_positions, Sample};

/// The squares of Edax's 46 pattern instances, the most significant digit
/// first, grouped by family (instances of one family share one table).
const FAMILIES: [&[&str]; 12] = [
    &[
        "a1 b1 a2 b2 c1 a3 c2 b3 c3",
        "h1 g1 h2 g2 f1 h3 f2 g3 f3",
        "a8 a7 b8 b7 a6 c8 b6 c7 c6",
        "h8 h7 g8 g7 h6 f8 g6 f7 f6",
    ],
    &[
        "a5 a4 a3 a2 a1 b2 b1 c1 d1 e1",
        "h5 h4 h3 h2 h1 g2 g1 f1 e1 d1",
        "a4 a5 a6 a7 a8 b7 b8 c8 d8 e8",
        "h4 h5 h6 h7 h8 g7 g8 f8 e8 d8",
    ],
    &[
        "b2 a1 b1 c1 d1 e1 f1 g1 h1 g2",
        "b7 a8 b8 c8 d8 e8 f8 g8 h8 g7",
        "b2 a1 a2 a3 a4 a5 a6 a7 a8 b7",
        "g2 h1 h2 h3 h4 h5 h6 h7 h8 g7",
    ],
    &[
        "a1 c1 d1 c2 d2 e2 f2 e1 f1 h1",
        "a8 c8 d8 c7 d7 e7 f7 e8 f8 h8",
        "a1 a3 a4 b3 b4 b5 b6 a5 a6 a8",
        "h1 h3 h4 g3 g4 g5 g6 h5 h6 h8",
    ],
    &[
        "a2 b2 c2 d2 e2 f2 g2 h2",
        "a7 b7 c7 d7 e7 f7 g7 h7",
        "b1 b2 b3 b4 b5 b6 b7 b8",
        "g1 g2 g3 g4 g5 g6 g7 g8",
    ],
    &[
        "a3 b3 c3 d3 e3 f3 g3 h3",
        "a6 b6 c6 d6 e6 f6 g6 h6",
        "c1 c2 c3 c4 c5 c6 c7 c8",
        "f1 f2 f3 f4 f5 f6 f7 f8",
    ],
    &[
        "a4 b4 c4 d4 e4 f4 g4 h4",
        "a5 b5 c5 d5 e5 f5 g5 h5",
        "d1 d2 d3 d4 d5 d6 d7 d8",
        "e1 e2 e3 e4 e5 e6 e7 e8",
    ],
    &["a1 b2 c3 d4 e5 f6 g7 h8", "a8 b7 c6 d5 e4 f3 g2 h1"],
    &[
        "b1 c2 d3 e4 f5 g6 h7",
        "h2 g3 f4 e5 d6 c7 b8",
        "a2 b3 c4 d5 e6 f7 g8",
        "g1 f2 e3 d4 c5 b6 a7",
    ],
    &[
        "c1 d2 e3 f4 g5 h6",
        "a3 b4 c5 d6 e7 f8",
        "f1 e2 d3 c4 b5 a6",
        "h3 g4 f5 e6 d7 c8",
    ],
    &[
        "d1 e2 f3 g4 h5",
        "a4 b5 c6 d7 e8",
        "e1 d2 c3 b4 a5",
        "h4 g5 f6 e7 d8",
    ],
    &["d1 c2 b3 a4", "a5 b6 c7 d8", "e1 f2 g3 h4", "h5 g6 f7 e8"],
];

/// Weights a ply in the file: the families' packed tables and the constant.
const PACKED_LEN: usize = 114_364;
/// Plies in the file: 0 (60 empty squares) to 60.
const PLIES: usize = 61;

fn square(name: &str) -> usize {
    let b = name.as_bytes();
    usize::from(b[0] - b'a') + 8 * usize::from(b[1] - b'1')
}

/// A map of (file, rank) to (file, rank).
type SquareMap = fn(usize, usize) -> (usize, usize);

/// The eight symmetries of the board.
fn symmetries() -> [SquareMap; 8] {
    [
        |f, r| (f, r),
        |f, r| (7 - f, r),
        |f, r| (f, 7 - r),
        |f, r| (7 - f, 7 - r),
        |f, r| (r, f),
        |f, r| (7 - r, 7 - f),
        |f, r| (r, 7 - f),
        |f, r| (7 - r, f),
    ]
}

/// The one symmetry of the board that maps a family's first instance onto
/// itself other than the identity, as a permutation of its digits' powers
/// of three: the digit of power `p` of an index becomes the digit of power
/// `perm[p]` of its mirror image.
fn self_symmetry(squares: &[usize]) -> Vec<usize> {
    let n = squares.len();
    let mut found: Option<Vec<usize>> = None;
    for map in symmetries() {
        let image: Option<Vec<usize>> = squares
            .iter()
            .map(|&s| {
                let (f, r) = map(s % 8, s / 8);
                squares.iter().position(|&t| t == f + 8 * r)
            })
            .collect();
        let Some(image) = image else { continue };
        if image.iter().enumerate().all(|(i, &j)| i == j) {
            continue;
        }
        // The square at position i (power n-1-i) goes to position image[i].
        let mut perm = vec![0; n];
        for (i, &j) in image.iter().enumerate() {
            perm[n - 1 - j] = n - 1 - i;
        }
        match &found {
            Some(p) => assert_eq!(p, &perm, "a family with two symmetries"),
            None => found = Some(perm),
        }
    }
    found.expect("every family has a mirror image of itself")
}

/// For each index of an `n`-square pattern, its packed index: an index and
/// its mirror image share the entry numbered at the lower of the two. With
/// the number of packed entries.
fn pack(squares: &[usize]) -> (Vec<u32>, usize) {
    let n = squares.len();
    let perm = self_symmetry(squares);
    let size = 3usize.pow(n as u32);
    let mut packed = vec![0u32; size];
    let mut next = 0;
    for i in 0..size {
        let mut j = 0;
        let mut p3 = 1;
        for &from in &perm {
            j += (i / 3usize.pow(from as u32)) % 3 * p3;
            p3 *= 3;
        }
        packed[i] = if j < i {
            packed[j]
        } else {
            next += 1;
            next - 1
        };
    }
    (packed, next as usize)
}

/// Edax's layout: each instance's squares and its family, and each
/// family's packed table with its offset in a ply's weights and its length.
struct Layout {
    instances: Vec<(Vec<usize>, usize)>,
    tables: Vec<(Vec<u32>, usize, usize)>,
    constant: usize,
}

impl Layout {
    fn new() -> Layout {
        let mut instances = Vec::new();
        let mut tables = Vec::new();
        let mut offset = 0;
        for (family, lines) in FAMILIES.iter().enumerate() {
            let squares: Vec<Vec<usize>> = lines
                .iter()
                .map(|l| l.split(' ').map(square).collect())
                .collect();
            let (table, len) = pack(&squares[0]);
            tables.push((table, offset, len));
            offset += len;
            instances.extend(squares.into_iter().map(|s| (s, family)));
        }
        Layout {
            instances,
            tables,
            constant: offset,
        }
    }

    /// The weights (packed) a position reads, the constant's last.
    fn entries(&self, own: u64, opp: u64, out: &mut [usize; 47]) {
        for (k, (squares, family)) in self.instances.iter().enumerate() {
            let mut index = 0;
            for &s in squares {
                let digit = if own >> s & 1 == 1 {
                    0
                } else if opp >> s & 1 == 1 {
                    1
                } else {
                    2
                };
                index = index * 3 + digit;
            }
            let (table, offset, _) = &self.tables[*family];
            out[k] = offset + table[index] as usize;
        }
        out[46] = self.constant;
    }
}

/// The ply of the file whose table scores a position: 60 less its empty
/// squares (`None` for a board with fewer than four discs).
fn ply(s: &Sample) -> Option<usize> {
    ((s.own | s.opp).count_ones() as usize).checked_sub(4)
}

/// Fit every ply's weights; returns them in 128ths of a disc, ply by ply.
fn fit(layout: &Layout, samples: &[Sample], epochs: usize) -> Vec<i16> {
    let mut by_ply: Vec<Vec<Sample>> = vec![Vec::new(); PLIES];
    for s in samples {
        if let Some(ply) = ply(s) {
            by_ply[ply].push(*s);
        }
    }
    let mut weights = vec![0f32; PACKED_LEN];
    let mut out = Vec::with_capacity(PACKED_LEN * PLIES);
    let mut seed = 1u64;
    let mut entries = [0usize; 47];
    for ply in 0..PLIES {
        let mut set: Vec<Sample> = Vec::new();
        let first = ply.saturating_sub(2);
        for (q, positions) in by_ply.iter().enumerate().take(ply + 3).skip(first) {
            for _ in 0..if q == ply { 2 } else { 1 } {
                set.extend_from_slice(positions);
            }
        }
        let mut mse = 0f64;
        for epoch in 0..epochs {
            for i in (1..set.len()).rev() {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                set.swap(i, ((seed >> 33) % (i as u64 + 1)) as usize);
            }
            let rate = 0.002 / (1 + epoch) as f64;
            mse = 0.0;
            for s in &set {
                layout.entries(s.own, s.opp, &mut entries);
                let sum: f32 = entries.iter().map(|&e| weights[e]).sum();
                let err = f32::from(s.label) - sum;
                mse += f64::from(err * err);
                let step = (rate * f64::from(err)) as f32;
                for &e in &entries {
                    weights[e] += step - 1e-6 * weights[e];
                }
            }
            mse /= set.len().max(1) as f64;
        }
        eprintln!(
            "ply {ply:2}: {} positions, training root mean square error {:.2} discs",
            set.len(),
            mse.sqrt()
        );
        out.extend(
            weights
                .iter()
                .map(|w| (w * 128.0).round().clamp(-32767.0, 32767.0) as i16),
        );
    }
    out
}

/// The file: Edax's header (its tags, a version 4.4.0, a date of zero),
/// then the weights, little-endian.
fn file_bytes(weights: &[i16]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(28 + 2 * weights.len());
    for word in [0x4544_4158u32, 0x4556_414c, 4, 4, 0] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.extend_from_slice(&0f64.to_le_bytes());
    for w in weights {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes
}

fn main() {
    let mut load = Vec::new();
    let mut epochs = 4;
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--load" => load.push(value()),
            "--epochs" => epochs = value().parse().expect("--epochs N"),
            "--out" => out = Some(value()),
            _ => {
                eprintln!("usage: edax_weights --load POSITIONS... [--epochs 4] --out eval.dat");
                std::process::exit(2);
            }
        }
    }
    let out = out.expect("--out FILE");
    let mut samples = Vec::new();
    for path in &load {
        samples.extend(load_positions(path));
        eprintln!("{path}: {} positions in all", samples.len());
    }
    let layout = Layout::new();
    let weights = fit(&layout, &samples, epochs);
    std::fs::write(&out, file_bytes(&weights)).unwrap_or_else(|e| panic!("{out}: {e}"));
    eprintln!("wrote {out}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packed_tables_have_the_sizes_edax_reads() {
        let layout = Layout::new();
        let sizes: Vec<usize> = layout
            .tables
            .iter()
            .map(|(table, _, len)| {
                assert_eq!(*len, *table.iter().max().unwrap() as usize + 1);
                *len
            })
            .collect();
        assert_eq!(
            sizes,
            [10206, 29889, 29646, 29646, 3321, 3321, 3321, 3321, 1134, 378, 135, 45]
        );
        assert_eq!(layout.constant + 1, PACKED_LEN);
        assert_eq!(layout.instances.len(), 46);
    }

    #[test]
    fn a_position_and_its_mirror_images_read_the_same_weights() {
        let layout = Layout::new();
        // Some position of a game and its eight images: each instance of a
        // family reads, in some image, what another instance reads here,
        // so the multisets of entries agree.
        let (own, opp) = (0x0000_1818_3c00_0000u64 | 1, 0x0000_2024_4200_8100u64);
        let image = |bits: u64, map: SquareMap| {
            (0..64)
                .filter(|s| bits >> s & 1 == 1)
                .map(|s| {
                    let (f, r) = map(s % 8, s / 8);
                    1u64 << (f + 8 * r)
                })
                .sum::<u64>()
        };
        let mut first = [0; 47];
        layout.entries(own, opp, &mut first);
        first.sort_unstable();
        for map in symmetries() {
            let mut other = [0; 47];
            layout.entries(image(own, map), image(opp, map), &mut other);
            other.sort_unstable();
            assert_eq!(first, other);
        }
    }

    #[test]
    fn the_fit_comes_close_to_a_label_the_patterns_can_express() {
        // Positions labelled by their disc difference: the constant and the
        // line patterns can express it, so the error must fall well below
        // the labels' own spread.
        let layout = Layout::new();
        let mut samples = Vec::new();
        let mut x = 7u64;
        for game in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let own = x & 0x00ff_ff00_0000_0000 | x >> 40 & 0xffff;
            let opp = !own & (x.rotate_left(23) & 0x0000_00ff_ff00_0000 | 0x0000_0000_0018_0000);
            let label = own.count_ones() as i32 - opp.count_ones() as i32;
            samples.push(Sample {
                own,
                opp,
                label: label.clamp(-64, 64) as i8,
                game,
            });
        }
        let weights = fit(&layout, &samples, 8);
        let bytes = file_bytes(&weights);
        assert_eq!(bytes.len(), 28 + 2 * PACKED_LEN * PLIES);
        let mut entries = [0; 47];
        let (mut err, mut spread) = (0.0, 0.0);
        let mean = samples.iter().map(|s| f64::from(s.label)).sum::<f64>() / 3000.0;
        for s in &samples {
            let ply = ply(s).unwrap();
            layout.entries(s.own, s.opp, &mut entries);
            let sum: f64 = entries
                .iter()
                .map(|&e| f64::from(weights[ply * PACKED_LEN + e]) / 128.0)
                .sum();
            err += (sum - f64::from(s.label)).powi(2);
            spread += (f64::from(s.label) - mean).powi(2);
        }
        assert!(err < spread / 4.0, "error {err}, spread {spread}");
    }
}
