//! The `tables` evaluator: every empty square valued by a table indexed by
//! how far each side is from it, by queen moves and by king moves, plus the
//! mobility of each amazon; fitted to game results.
//!
//! # Terms (all from the side to move's view)
//!
//! For each empty square `A`, let `q_us`, `q_them` be the queen-move
//! distances of the two sides' nearest amazons (every amazon and arrow
//! blocks) and `k_us`, `k_them` the king-move distances. Each distance
//! falls in one of [`BINS`] bins: 1, 2, 3, 4, 5, 6 or more, and never
//! (the square is walled off from that side).
//!
//! * `queen[i][j]`: the value of a square in queen bin `i` for the side to
//!   move and `j` for the opponent. The table holds what the usual terms
//!   spell out by formula: a square nearer to us is ours (territory), a
//!   tie is worth something to the side to move (it gets there first), a
//!   square at distance 1 counts more than one at distance 4 (position),
//!   and a square no enemy can ever reach is ours outright, whatever our
//!   distance.
//! * `king[i][j]`: the same with king-move distances, which see further
//!   into walled-off areas and matter most in the opening.
//! * `mobility`: per amazon, an entry indexed by the number of squares it
//!   can move to (the last entry for that many or more), ours minus
//!   theirs; steep at the bottom, since an amazon with one or two squares
//!   left is nearly lost and one with none is dead.
//! * `reach`: `seed000`'s mobility `m` (the empty squares around every
//!   square an amazon reaches in one move, divided by the steps to it),
//!   ours minus theirs.
//!
//! Every weight has an opening and an ending value, blended by the share
//! of the board still empty; boards of 8x8 and smaller may have weights
//! of their own (`small_board`). `examples/fit_tables.rs` fits them all to
//! game results: the score is linear in its weights.
//!
//! # Decided positions
//!
//! As for `classic`: when the king-move floods of the two sides never meet,
//! the board has split into separate regions, and the score is
//! `decided.base + decided.per_move × margin` for the side with more moves
//! left in its regions, negated for the other: counted exactly for regions
//! of up to 12 empty squares, defective ones included, and as the empty
//! squares of larger ones ([`crate::regions`]).

use plyd_amazons_rules::board::Board;
use plyd_amazons_rules::flood::{queen_step, sides};
use plyd_amazons_rules::Amazons;
use plyd_api::Evaluator;
use plyd_params::{self as params, ParamsError};
use serde::Deserialize;

use crate::classic::Decided;
use crate::regions;
use crate::seed000;

/// The default parameters, shipped as plugins/amazons/tables.toml.
pub const DEFAULT_PARAMS: &str = include_str!("../tables.toml");

/// Every score lies within this bound.
pub const SCORE_BOUND: i32 = 10_000;

/// Distance bins: 1, 2, 3, 4, 5, 6 or more, never.
pub const BINS: usize = 7;

/// The bin of squares a side can never reach.
pub const NEVER: usize = BINS - 1;

/// Entries of the mobility table.
pub const MOBILITY_ENTRIES: usize = 16;

/// Largest board side that reads `small_board`.
pub const SMALL_BOARD: u8 = 8;

/// A table of square values, `[our bin][their bin]`.
pub type PairTable = [[f64; BINS]; BINS];

/// The weights of one phase.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Value of an empty square by queen-move distance bins, ours first.
    pub queen: PairTable,
    /// Value of an empty square by king-move distance bins, ours first.
    pub king: PairTable,
    /// Value of one amazon with 0, 1, ... squares to move to, the last
    /// entry for that many or more ([`MOBILITY_ENTRIES`] entries).
    pub mobility: Vec<f64>,
    /// Per unit of `seed000`'s mobility `m`.
    pub reach: f64,
}

/// An opening and an ending set of weights.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phases {
    /// Weights when the board is empty.
    pub opening: Weights,
    /// Weights when the board is full.
    pub ending: Weights,
}

/// The parameters of [`Tables`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Weights when the board is empty.
    pub opening: Weights,
    /// Weights when the board is full.
    pub ending: Weights,
    /// Weights for boards of 8x8 and smaller, when given (else `opening`
    /// and `ending` serve every board).
    pub small_board: Option<Phases>,
    /// Scores of separated positions.
    pub decided: Decided,
}

impl Params {
    fn check(&self) -> Result<(), ParamsError> {
        let finite = |x: f64| x.is_finite() && x.abs() <= f64::from(SCORE_BOUND);
        let bad = |key: String| {
            ParamsError::at_key(&key, "expected a finite number within the score bound")
        };
        let mut sets = vec![("opening", &self.opening), ("ending", &self.ending)];
        if let Some(small) = &self.small_board {
            sets.push(("small_board.opening", &small.opening));
            sets.push(("small_board.ending", &small.ending));
        }
        for (name, w) in sets {
            if w.mobility.len() != MOBILITY_ENTRIES {
                return Err(ParamsError::at_key(
                    &format!("{name}.mobility"),
                    format!(
                        "expected {MOBILITY_ENTRIES} numbers, found {}",
                        w.mobility.len()
                    ),
                ));
            }
            for (key, table) in [("queen", &w.queen), ("king", &w.king)] {
                for (i, row) in table.iter().enumerate() {
                    if let Some(j) = row.iter().position(|&v| !finite(v)) {
                        return Err(bad(format!("{name}.{key}[{i}][{j}]")));
                    }
                }
            }
            if let Some(i) = w.mobility.iter().position(|&v| !finite(v)) {
                return Err(bad(format!("{name}.mobility[{i}]")));
            }
            if !finite(w.reach) {
                return Err(bad(format!("{name}.reach")));
            }
        }
        self.decided.check()
    }
}

/// The raw terms of one position, side to move first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terms {
    /// Empty squares by queen-move bins, `[ours][theirs]`.
    pub queen: [[u32; BINS]; BINS],
    /// Empty squares by king-move bins, `[ours][theirs]`.
    pub king: [[u32; BINS]; BINS],
    /// Amazons with `i` squares to move to (the last entry: that many or
    /// more), ours minus theirs.
    pub mobility: [i32; MOBILITY_ENTRIES],
    /// `seed000`'s mobility `m`, ours minus theirs.
    pub reach: f64,
    /// Share of the board still empty, 0..=1.
    pub empty_share: f64,
    /// Whether the board is 8x8 or smaller.
    pub small: bool,
    /// `Some((ours, theirs))` empty squares of each side's regions when
    /// the board has split.
    pub separated: Option<(u32, u32)>,
}

/// The empty squares of each distance bin from `start`, `step` giving the
/// squares one move from a set (flooding through `empty` only).
#[inline]
pub fn binned(start: u128, empty: u128, step: impl Fn(u128) -> u128) -> [u128; BINS] {
    let mut bins = [0u128; BINS];
    let mut reached = 0u128;
    let mut frontier = start;
    let mut d = 0;
    while frontier != 0 {
        let next = step(frontier) & empty & !reached;
        reached |= next;
        bins[d.min(BINS - 2)] |= next;
        d += 1;
        frontier = next;
    }
    bins[NEVER] = empty & !reached;
    bins
}

/// [`binned`] for a step whose reach is the same as the king step's (a
/// queen move crosses only empty squares, so the two connect the same
/// squares): the flood stops after the last finite bin, the squares of
/// `reachable` left over fall in the 6-or-more bin and the others in
/// [`NEVER`].
#[inline]
pub fn binned_within(
    start: u128,
    empty: u128,
    reachable: u128,
    step: impl Fn(u128) -> u128,
) -> [u128; BINS] {
    let mut bins = [0u128; BINS];
    let mut reached = 0u128;
    let mut frontier = start;
    for bin in bins.iter_mut().take(BINS - 2) {
        if frontier == 0 {
            break;
        }
        let next = step(frontier) & empty & !reached;
        reached |= next;
        *bin = next;
        frontier = next;
    }
    bins[BINS - 2] = reachable & !reached;
    bins[NEVER] = empty & !reachable;
    bins
}

/// Count the squares of each pair of bins.
#[inline]
fn pair_counts(ours: &[u128; BINS], theirs: &[u128; BINS]) -> [[u32; BINS]; BINS] {
    let mut counts = [[0u32; BINS]; BINS];
    for (i, &a) in ours.iter().enumerate() {
        if a == 0 {
            continue;
        }
        for (j, &b) in theirs.iter().enumerate() {
            counts[i][j] = (a & b).count_ones();
        }
    }
    counts
}

/// The `tables` evaluator.
#[derive(Debug, Clone)]
pub struct Tables {
    params: Params,
}

impl Tables {
    /// The evaluator with these parameters.
    pub fn with_params(params: Params) -> Result<Self, ParamsError> {
        params.check()?;
        Ok(Tables { params })
    }

    /// The parameters in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The raw terms of `board`.
    pub fn terms(board: &Board) -> Terms {
        let g = *board.geometry();
        let empty = board.empties();
        let [ours, theirs] = sides(board);
        let cells = u32::from(board.size) * u32::from(board.size);
        let pieces = ours.count_ones() + theirs.count_ones();
        let empty_share = f64::from(empty.count_ones()) / f64::from((cells - pieces).max(1));
        let small = board.size <= SMALL_BOARD;
        let king_us = binned(ours, empty, |f| g.neighbours(f));
        let king_them = binned(theirs, empty, |f| g.neighbours(f));
        let (reach_us, reach_them) = (empty & !king_us[NEVER], empty & !king_them[NEVER]);
        if reach_us & reach_them == 0 {
            return Terms {
                empty_share,
                small,
                separated: Some((
                    regions::moves_left(board, ours),
                    regions::moves_left(board, theirs),
                )),
                ..Terms::default()
            };
        }
        let queen_us = binned_within(ours, empty, reach_us, |f| queen_step(&g, f, empty));
        let queen_them = binned_within(theirs, empty, reach_them, |f| queen_step(&g, f, empty));
        let mut mobility = [0i32; MOBILITY_ENTRIES];
        let reach = seed000::mobility_and_moves(board, |ours, moves| {
            mobility[(moves as usize).min(MOBILITY_ENTRIES - 1)] += if ours { 1 } else { -1 };
        });
        Terms {
            queen: pair_counts(&queen_us, &queen_them),
            king: pair_counts(&king_us, &king_them),
            mobility,
            reach,
            empty_share,
            small,
            separated: None,
        }
    }

    /// The opening and ending weights for a small board or a large one.
    pub fn phases(&self, small: bool) -> (&Weights, &Weights) {
        match (&self.params.small_board, small) {
            (Some(p), true) => (&p.opening, &p.ending),
            _ => (&self.params.opening, &self.params.ending),
        }
    }

    /// Each weighted term: queen table, king table, mobility, reach,
    /// decided.
    fn weighted(&self, terms: &Terms) -> [(&'static str, f64); 5] {
        if let Some((ours, theirs)) = terms.separated {
            let total = self.params.decided.score(ours, theirs);
            return [
                ("queen", 0.0),
                ("king", 0.0),
                ("mobility", 0.0),
                ("reach", 0.0),
                ("decided", total),
            ];
        }
        let (o, e) = self.phases(terms.small);
        let s = terms.empty_share;
        let blend = |a: f64, b: f64| b + (a - b) * s;
        let table = |counts: &[[u32; BINS]; BINS], o: &PairTable, e: &PairTable| {
            let mut sum = 0.0;
            for i in 0..BINS {
                for j in 0..BINS {
                    if counts[i][j] != 0 {
                        sum += f64::from(counts[i][j]) * blend(o[i][j], e[i][j]);
                    }
                }
            }
            sum
        };
        let mobility = (0..MOBILITY_ENTRIES)
            .filter(|&i| terms.mobility[i] != 0)
            .map(|i| f64::from(terms.mobility[i]) * blend(o.mobility[i], e.mobility[i]))
            .sum();
        [
            ("queen", table(&terms.queen, &o.queen, &e.queen)),
            ("king", table(&terms.king, &o.king, &e.king)),
            ("mobility", mobility),
            ("reach", blend(o.reach, e.reach) * terms.reach),
            ("decided", 0.0),
        ]
    }

    fn score(&self, board: &Board) -> i32 {
        let terms = Self::terms(board);
        let total: f64 = self.weighted(&terms).iter().map(|(_, v)| v).sum();
        let bound = f64::from(SCORE_BOUND);
        total.round().clamp(-bound, bound) as i32
    }
}

impl Evaluator for Tables {
    type State = Amazons;
    const NAME: &'static str = "tables";
    const DESCRIPTION: &'static str = "every empty square valued by a table of both sides' queen- and king-move distances, amazon mobility with trapped amazons penalised, fitted to game results; separated boards scored by counting moves";
    const GAME: &'static str = "amazons";
    const STATE_LAYOUT: u32 = plyd_amazons_rules::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(text: Option<&str>) -> Result<Self, String> {
        let params: Params =
            params::parse(text.unwrap_or(DEFAULT_PARAMS)).map_err(|e| e.to_string())?;
        Tables::with_params(params).map_err(|e| e.to_string())
    }

    fn evaluate(&self, state: &Amazons) -> i32 {
        self.score(state.board())
    }

    fn explain(&self, state: &Amazons) -> Vec<(String, f64)> {
        let terms = Self::terms(state.board());
        let mut out = vec![("empty_share".to_string(), terms.empty_share)];
        if let Some((ours, theirs)) = terms.separated {
            out.push(("separated.ours".to_string(), f64::from(ours)));
            out.push(("separated.theirs".to_string(), f64::from(theirs)));
        }
        out.push(("raw.reach".to_string(), terms.reach));
        out.extend(
            self.weighted(&terms)
                .iter()
                .map(|&(name, v)| (name.to_string(), v)),
        );
        out.push(("total".to_string(), f64::from(self.score(state.board()))));
        out
    }
}
