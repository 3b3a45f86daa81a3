//! `weights`: a classic Othello evaluator as a stand-alone plyd evaluator
//! plugin — a square-value table, mobility, frontier discs and, near the
//! end, the disc count, each with a weight read from TOML (`weights.toml`
//! next to this crate is the default and the file users copy and tune).
//!
//! It reads Othello states through `plyd-othello-rules`, so it declares the
//! game `othello` and that crate's [`STATE_LAYOUT`]; plyd refuses to load it
//! next to an Othello plugin with another layout.

// No unsafe code of its own; see the game plugin's lib.rs for why this is
// `deny` and not `forbid` (the export macro's #[no_mangle]).
#![deny(unsafe_code)]
#![warn(missing_docs)]

use plyd_api::{Evaluator, Shallow, ShallowResult};
use plyd_othello_rules::board::legal_placements;
use plyd_othello_rules::shallow::{self, Leaves};
use plyd_othello_rules::{Othello, STATE_LAYOUT};
use plyd_params::{check_range, ParamsError};
use serde::Deserialize;

/// The default parameters.
pub const DEFAULT_PARAMS: &str = include_str!("../weights.toml");

/// Largest weight or table value, so that no sum can overflow.
const MAX_WEIGHT: i32 = 1000;

/// The parameter file's shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    terms: Terms,
    endgame: Endgame,
    squares: Squares,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Terms {
    squares: i32,
    mobility: i32,
    frontier: i32,
    discs: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Endgame {
    empties: u32,
    discs: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Squares {
    release_corner_neighbours: bool,
    table: Vec<Vec<i32>>,
}

/// Each corner with its three neighbours (the C- and X-squares).
const CORNER_NEIGHBOURS: [(u32, u64); 4] = [
    (0, (1 << 1) | (1 << 8) | (1 << 9)),
    (7, (1 << 6) | (1 << 15) | (1 << 14)),
    (56, (1 << 48) | (1 << 57) | (1 << 49)),
    (63, (1 << 62) | (1 << 55) | (1 << 54)),
];

/// The evaluator with its weights.
#[derive(Debug, Clone)]
pub struct Weights {
    squares: i32,
    mobility: i32,
    frontier: i32,
    discs: i32,
    endgame_empties: u32,
    endgame_discs: i32,
    release_corner_neighbours: bool,
    table: [i32; 64],
}

/// The raw terms of a position, from the side to move's view, before
/// weighting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms64 {
    /// Table sum over own discs minus over the opponent's.
    pub squares: i64,
    /// Own legal placements minus the opponent's.
    pub mobility: i64,
    /// Opponent's frontier discs minus own.
    pub frontier: i64,
    /// Own discs minus the opponent's.
    pub discs: i64,
    /// Empty squares.
    pub empties: u32,
}

/// Squares next to an empty square, in any of the eight directions.
fn next_to_empty(empty: u64) -> u64 {
    const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // Bit (row * 8 + file): moving one file right is << 1, one row down << 8.
    // The masks stop a shift from wrapping round to the next row.
    let right = (empty << 1) & NOT_A_FILE;
    let left = (empty >> 1) & NOT_H_FILE;
    let row = empty | right | left;
    right | left | (row << 8) | (row >> 8)
}

impl Weights {
    /// Read and check parameters.
    pub fn from_toml(text: &str) -> Result<Self, ParamsError> {
        let p: Params = plyd_params::parse(text)?;
        let weight = |key: &str, value: i32| check_range(key, value, -MAX_WEIGHT, MAX_WEIGHT);
        if p.squares.table.len() != 8 {
            return Err(ParamsError::at_key(
                "squares.table",
                format!("expected 8 rows, found {}", p.squares.table.len()),
            ));
        }
        let mut table = [0; 64];
        for (row, values) in p.squares.table.iter().enumerate() {
            if values.len() != 8 {
                return Err(ParamsError::at_key(
                    &format!("squares.table[{row}]"),
                    format!("expected 8 values, found {}", values.len()),
                ));
            }
            for (file, &value) in values.iter().enumerate() {
                table[row * 8 + file] = weight(&format!("squares.table[{row}][{file}]"), value)?;
            }
        }
        Ok(Weights {
            squares: weight("terms.squares", p.terms.squares)?,
            mobility: weight("terms.mobility", p.terms.mobility)?,
            frontier: weight("terms.frontier", p.terms.frontier)?,
            discs: weight("terms.discs", p.terms.discs)?,
            endgame_empties: check_range("endgame.empties", p.endgame.empties, 0, 60)?,
            endgame_discs: weight("endgame.discs", p.endgame.discs)?,
            release_corner_neighbours: p.squares.release_corner_neighbours,
            table,
        })
    }

    /// The unweighted terms for the side to move.
    pub fn terms(&self, state: &Othello) -> Terms64 {
        let (own, opp) = state.position().own_and_opponent();
        self.terms_of(own, opp)
    }

    /// The unweighted terms of the position with `own` to move against
    /// `opp`.
    pub fn terms_of(&self, own: u64, opp: u64) -> Terms64 {
        let empty = !(own | opp);
        let mut released = 0u64;
        if self.release_corner_neighbours {
            for (corner, neighbours) in CORNER_NEIGHBOURS {
                if empty & (1 << corner) == 0 {
                    released |= neighbours;
                }
            }
        }
        let table_sum = |discs: u64| -> i64 {
            plyd_othello_rules::board::squares(discs & !released)
                .map(|sq| i64::from(self.table[sq as usize]))
                .sum()
        };
        let frontier = next_to_empty(empty);
        Terms64 {
            squares: table_sum(own) - table_sum(opp),
            mobility: i64::from(legal_placements(own, opp).count_ones())
                - i64::from(legal_placements(opp, own).count_ones()),
            frontier: i64::from((opp & frontier).count_ones())
                - i64::from((own & frontier).count_ones()),
            discs: i64::from(own.count_ones()) - i64::from(opp.count_ones()),
            empties: empty.count_ones(),
        }
    }

    /// The weight of the disc difference at `empties` empty squares.
    fn disc_weight(&self, empties: u32) -> i32 {
        if empties <= self.endgame_empties {
            self.endgame_discs
        } else {
            self.discs
        }
    }

    /// Each weighted term, in the order of `explain`.
    fn weighted(&self, t: &Terms64) -> [(&'static str, i64); 4] {
        [
            ("squares", i64::from(self.squares) * t.squares),
            ("mobility", i64::from(self.mobility) * t.mobility),
            ("frontier", i64::from(self.frontier) * t.frontier),
            ("discs", i64::from(self.disc_weight(t.empties)) * t.discs),
        ]
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::from_toml(DEFAULT_PARAMS).expect("the shipped weights.toml is valid")
    }
}

impl Weights {
    /// [`Evaluator::evaluate`] of the position with `own` to move against
    /// `opp`.
    fn score_of(&self, own: u64, opp: u64) -> i32 {
        let total: i64 = self
            .weighted(&self.terms_of(own, opp))
            .iter()
            .map(|t| t.1)
            .sum();
        total.clamp(-i64::from(Self::SCORE_BOUND), i64::from(Self::SCORE_BOUND)) as i32
    }
}

/// Nothing is kept from one position to the next: each leaf is scored
/// from its discs.
impl Leaves for Weights {
    type Kept = ();

    fn keep(&self, _own: u64, _opp: u64) {}

    fn after_placement(&self, _kept: &(), _disc: u64, _flipped: u64) {}

    fn after_pass(&self, _kept: &()) {}

    fn score(
        &self,
        own: u64,
        opp: u64,
        _own_placements: u64,
        _opp_placements: u64,
        _kept: &(),
    ) -> i32 {
        self.score_of(own, opp)
    }
}

impl Evaluator for Weights {
    type State = Othello;
    const NAME: &'static str = "weights";
    const DESCRIPTION: &'static str =
        "Square table, mobility, frontier and endgame disc count, weights in TOML";
    const GAME: &'static str = "othello";
    const STATE_LAYOUT: u32 = STATE_LAYOUT;
    /// Far above what the shipped weights reach (a few thousand); extreme
    /// weights are cut here rather than overflow.
    const SCORE_BOUND: i32 = 1_000_000;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Weights::default()),
            Some(text) => Weights::from_toml(text).map_err(|e| e.to_string()),
        }
    }

    fn evaluate(&self, state: &Othello) -> i32 {
        let (own, opp) = state.position().own_and_opponent();
        self.score_of(own, opp)
    }

    /// The last two plies inside the plugin, scored as `evaluate` scores:
    /// an example of the entry for evaluators of one's own.
    const SHALLOW_PLIES: u32 = 2;

    fn shallow_search(&self, state: &mut Othello, request: Shallow) -> Option<ShallowResult> {
        let (own, opp) = state.position().own_and_opponent();
        Some(shallow::search(self, own, opp, request))
    }

    /// The raw terms, the weighted ones, and the total.
    fn explain(&self, state: &Othello) -> Vec<(String, f64)> {
        let terms = self.terms(state);
        let raw = [
            ("squares", terms.squares),
            ("mobility", terms.mobility),
            ("frontier", terms.frontier),
            ("discs", terms.discs),
        ];
        let mut lines: Vec<(String, f64)> = raw
            .iter()
            .map(|(name, value)| (format!("raw_{name}"), *value as f64))
            .collect();
        lines.push(("empties".to_string(), f64::from(terms.empties)));
        lines.extend(
            self.weighted(&terms)
                .iter()
                .map(|(name, value)| (name.to_string(), *value as f64)),
        );
        lines.push(("total".to_string(), f64::from(self.evaluate(state))));
        lines
    }
}

plyd_api::export_evaluator!(Weights);
