//! The `classic` evaluator, plyd's default for the Amazons: territory and
//! position from queen- and king-move distance maps (bitboard floods), the
//! mobility of each amazon with trapped and dead amazons penalised, and an
//! exact-by-counting score once the board has split into regions that no
//! two enemy amazons share.
//!
//! # Terms (all from the side to move's view)
//!
//! * `queen_territory`: empty squares our amazons reach in fewer queen
//!   moves than theirs, minus the reverse; a tie counts `tempo` for the
//!   side to move (it gets there first).
//! * `king_territory`: the same with king-move distances, which see
//!   further into walled-off areas and matter most in the opening.
//! * `queen_position`: `Σ 2^(1-d_us) - 2^(1-d_them)` over the empty
//!   squares, `d` the queen-move distance: how close our amazons are to
//!   the squares still in play.
//! * `king_position`: `Σ clamp((k_them - k_us) / 6, -1, 1)`, `k` the
//!   king-move distance.
//! * `reach`: for every square an amazon reaches in one queen move, the
//!   number of empty squares around it divided by the number of steps to
//!   it, summed over our amazons minus theirs: how much room the squares
//!   within a move's reach give.
//! * `mobility`: per amazon, a table entry indexed by the number of squares
//!   it can move to (the last entry for any higher number), ours minus
//!   theirs. The table is steep at the bottom: an amazon with one or two
//!   squares left is nearly lost, one with none is dead for the rest of the
//!   game.
//!
//! Each term, and each entry of the mobility table, has an opening value
//! and an ending value; the value used is blended by the share of the
//! board still empty. Boards of 8x8 and smaller may have weights of their
//! own (`small_board`), since a square there is a larger share of the game. The sum is rounded and clamped to `±SCORE_BOUND`.
//! `examples/tune_classic.rs` fits all of them to game results.
//!
//! # Decided positions
//!
//! When no empty square is reachable by both players (king-move floods
//! that never meet), the board has split into separate regions and the
//! game is a count: each player can make about as many moves as there are
//! empty squares in its regions. The side to move wins when it has more
//! than the opponent. The score is then `decided_base + per_move * margin`
//! for the winner's side (negated for the loser), well above every
//! undecided score, so the search steers into won separations and away
//! from lost ones. Regions of up to 12 empty squares are counted exactly,
//! defective ones included ([`crate::regions`]); larger ones count their
//! empty squares, an upper bound, so the score is a strong estimate, not a
//! proof, and it stays below the search's mate scores.

use plyd_amazons_rules::board::{squares, Board};
use plyd_amazons_rules::flood::{queen_step, Contest};
use plyd_amazons_rules::Amazons;
use plyd_api::Evaluator;
use plyd_params::{self as params, ParamsError};
use serde::Deserialize;

use crate::seed000;

/// The default parameters, shipped as plugins/amazons/classic.toml.
pub const DEFAULT_PARAMS: &str = include_str!("../classic.toml");

/// Every score lies within this bound.
pub const SCORE_BOUND: i32 = 10_000;

/// Entries of the mobility table.
pub const MOBILITY_ENTRIES: usize = 16;

/// The weight of each term in one phase.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Per square of queen-move territory.
    pub queen_territory: f64,
    /// Per square of king-move territory.
    pub king_territory: f64,
    /// Per unit of queen-move position.
    pub queen_position: f64,
    /// Per unit of king-move position.
    pub king_position: f64,
    /// Per unit of reach.
    pub reach: f64,
    /// Value of one amazon with 0, 1, ... squares to move to, the last
    /// entry for that many or more ([`MOBILITY_ENTRIES`] entries).
    pub mobility: Vec<f64>,
}

/// What decided (separated) positions score.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decided {
    /// Score of a won count by a margin of one move.
    pub base: f64,
    /// Added per move of margin.
    pub per_move: f64,
}

impl Decided {
    /// The score of a separated board whose regions hold `ours` empty
    /// squares for the side to move and `theirs` for the other: the side
    /// to move wins with more (it runs out first on a tie).
    pub fn score(&self, ours: u32, theirs: u32) -> f64 {
        let margin = f64::from(ours) - f64::from(theirs);
        if margin > 0.0 {
            self.base + self.per_move * margin
        } else {
            -self.base + self.per_move * (margin - 1.0)
        }
    }

    /// Check the scores: `base` positive, `per_move` not negative, both
    /// within the score bound.
    pub fn check(&self) -> Result<(), ParamsError> {
        let finite = |x: f64| x.is_finite() && x.abs() <= f64::from(SCORE_BOUND);
        if !(finite(self.base) && self.base > 0.0) {
            return Err(ParamsError::at_key(
                "decided.base",
                "expected a positive number within the score bound",
            ));
        }
        if !(finite(self.per_move) && self.per_move >= 0.0) {
            return Err(ParamsError::at_key(
                "decided.per_move",
                "expected a number >= 0 within the score bound",
            ));
        }
        Ok(())
    }
}

/// The parameters of [`Classic`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// Share of a tied square for the side to move, in `[0, 1)`.
    pub tempo: f64,
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

/// An opening and an ending set of weights.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phases {
    /// Weights when the board is empty.
    pub opening: Weights,
    /// Weights when the board is full.
    pub ending: Weights,
}

/// Largest board side that reads `small_board`.
pub const SMALL_BOARD: u8 = 8;

impl Params {
    fn check(&self) -> Result<(), ParamsError> {
        if !(0.0..1.0).contains(&self.tempo) {
            return Err(ParamsError::at_key("tempo", "expected a number in [0, 1)"));
        }
        let finite = |x: f64| x.is_finite() && x.abs() <= f64::from(SCORE_BOUND);
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
            for (key, value) in [
                ("queen_territory", w.queen_territory),
                ("king_territory", w.king_territory),
                ("queen_position", w.queen_position),
                ("king_position", w.king_position),
                ("reach", w.reach),
            ] {
                if !finite(value) {
                    return Err(ParamsError::at_key(
                        &format!("{name}.{key}"),
                        "expected a finite number within the score bound",
                    ));
                }
            }
            if let Some(i) = w.mobility.iter().position(|&v| !finite(v)) {
                return Err(ParamsError::at_key(
                    &format!("{name}.mobility[{i}]"),
                    "expected a finite number within the score bound",
                ));
            }
        }
        self.decided.check()
    }
}

/// The raw terms of one position, side to move first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terms {
    /// Queen-move territory.
    pub queen_territory: f64,
    /// King-move territory.
    pub king_territory: f64,
    /// Queen-move position.
    pub queen_position: f64,
    /// King-move position.
    pub king_position: f64,
    /// Reach, ours minus theirs.
    pub reach: f64,
    /// Amazons with `i` squares to move to (the last entry: that many or
    /// more), ours minus theirs.
    pub mobility: [i32; MOBILITY_ENTRIES],
    /// Share of the board still empty, 0..=1.
    pub empty_share: f64,
    /// Whether the board is 8x8 or smaller.
    pub small: bool,
    /// `Some((ours, theirs))` empty squares of each side's regions when
    /// the board has split.
    pub separated: Option<(u32, u32)>,
}

/// The `classic` evaluator.
#[derive(Debug, Clone)]
pub struct Classic {
    params: Params,
}

impl Classic {
    /// The evaluator with these parameters.
    pub fn with_params(params: Params) -> Result<Self, ParamsError> {
        params.check()?;
        Ok(Classic { params })
    }

    /// The parameters in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The raw terms of `board`.
    pub fn terms(&self, board: &Board) -> Terms {
        let us = usize::from(board.side);
        let them = us ^ 1;
        let empty = board.empties();
        let cells = u32::from(board.size) * u32::from(board.size);
        let pieces = board.amazons[0].count_ones() + board.amazons[1].count_ones();
        let empty_share = f64::from(empty.count_ones()) / f64::from((cells - pieces).max(1));
        let king = Contest::king(board);
        let [k_us, k_them] = king.reached;
        if k_us & k_them == 0 {
            return Terms {
                empty_share,
                small: board.size <= SMALL_BOARD,
                separated: Some((
                    crate::regions::moves_left(board, board.amazons[us]),
                    crate::regions::moves_left(board, board.amazons[them]),
                )),
                ..Terms::default()
            };
        }
        let queen = Contest::queen(board);
        let tempo = self.params.tempo;
        let mut mobility = [0i32; MOBILITY_ENTRIES];
        for (player, sign) in [(us, 1), (them, -1)] {
            for sq in squares(board.amazons[player]) {
                let moves = queen_step(board.geometry(), 1u128 << sq, empty).count_ones() as usize;
                mobility[moves.min(MOBILITY_ENTRIES - 1)] += sign;
            }
        }
        Terms {
            queen_territory: queen.territory(tempo),
            king_territory: king.territory(tempo),
            queen_position: queen.halves,
            king_position: king.clipped(),
            // seed000's mobility `m` is exactly this term.
            reach: seed000::mobility(board),
            mobility,
            empty_share,
            small: board.size <= SMALL_BOARD,
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

    /// The value of the mobility term at this point of the game.
    fn mobility_value(&self, terms: &Terms) -> f64 {
        let share = terms.empty_share;
        let (o, e) = self.phases(terms.small);
        let (o, e) = (&o.mobility, &e.mobility);
        (0..MOBILITY_ENTRIES)
            .map(|i| f64::from(terms.mobility[i]) * (e[i] + (o[i] - e[i]) * share))
            .sum()
    }

    /// Each weighted term and the total (before rounding).
    fn weighted(&self, terms: &Terms) -> [(&'static str, f64); 7] {
        if let Some((ours, theirs)) = terms.separated {
            let total = self.params.decided.score(ours, theirs);
            return [
                ("queen_territory", 0.0),
                ("king_territory", 0.0),
                ("queen_position", 0.0),
                ("king_position", 0.0),
                ("reach", 0.0),
                ("mobility", 0.0),
                ("decided", total),
            ];
        }
        let (o, e) = self.phases(terms.small);
        let blend = |a: f64, b: f64| b + (a - b) * terms.empty_share;
        [
            (
                "queen_territory",
                blend(o.queen_territory, e.queen_territory) * terms.queen_territory,
            ),
            (
                "king_territory",
                blend(o.king_territory, e.king_territory) * terms.king_territory,
            ),
            (
                "queen_position",
                blend(o.queen_position, e.queen_position) * terms.queen_position,
            ),
            (
                "king_position",
                blend(o.king_position, e.king_position) * terms.king_position,
            ),
            ("reach", blend(o.reach, e.reach) * terms.reach),
            ("mobility", self.mobility_value(terms)),
            ("decided", 0.0),
        ]
    }

    fn score(&self, board: &Board) -> i32 {
        let terms = self.terms(board);
        let total: f64 = self.weighted(&terms).iter().map(|(_, v)| v).sum();
        let bound = f64::from(SCORE_BOUND);
        total.round().clamp(-bound, bound) as i32
    }
}

impl Evaluator for Classic {
    type State = Amazons;
    const NAME: &'static str = "classic";
    const DESCRIPTION: &'static str = "territory and position from queen and king distance floods, amazon mobility with trapped amazons penalised, separated boards scored by counting moves";
    const GAME: &'static str = "amazons";
    const STATE_LAYOUT: u32 = plyd_amazons_rules::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(text: Option<&str>) -> Result<Self, String> {
        let params: Params =
            params::parse(text.unwrap_or(DEFAULT_PARAMS)).map_err(|e| e.to_string())?;
        Classic::with_params(params).map_err(|e| e.to_string())
    }

    fn evaluate(&self, state: &Amazons) -> i32 {
        self.score(state.board())
    }

    fn explain(&self, state: &Amazons) -> Vec<(String, f64)> {
        let terms = self.terms(state.board());
        let mut out = vec![
            ("raw.queen_territory".to_string(), terms.queen_territory),
            ("raw.king_territory".to_string(), terms.king_territory),
            ("raw.queen_position".to_string(), terms.queen_position),
            ("raw.king_position".to_string(), terms.king_position),
            ("raw.reach".to_string(), terms.reach),
            ("empty_share".to_string(), terms.empty_share),
        ];
        if let Some((ours, theirs)) = terms.separated {
            out.push(("separated.ours".to_string(), f64::from(ours)));
            out.push(("separated.theirs".to_string(), f64::from(theirs)));
        }
        out.extend(
            terms
                .mobility
                .iter()
                .enumerate()
                .map(|(i, &n)| (format!("raw.mobility[{i}]"), f64::from(n))),
        );
        out.extend(
            self.weighted(&terms)
                .iter()
                .map(|&(name, v)| (name.to_string(), v)),
        );
        out.push(("total".to_string(), f64::from(self.score(state.board()))));
        out
    }
}
