//! The `seed003` evaluator: the evaluation function of design document
//! `seeds/003`, a Monte Carlo tree search program whose leaves are scored
//! by territory, position and mobility in three phases (the search itself
//! is not part of this module).
//!
//! # What it computes
//!
//! "Player 1" is the side to move, player 2 the other side; sums run over
//! the empty squares. `D1`, `D2` are the queen-move and king-move
//! distances of [`seed000`](crate::seed000) (every amazon and arrow
//! blocks, `∞` when unreachable), and the territory and position terms are
//! the same figures:
//!
//! * `t_i = Σ Δ(D_i(1, A), D_i(2, A))`, `Δ` being 0 when both are `∞`,
//!   `κ` when both are equal and finite (the side to move's advantage,
//!   `κ = 0.2`), `+1` when player 1 is nearer and `-1` when player 2 is;
//! * `p1 = Σ (2^(1 - D1(1, A)) - 2^(1 - D1(2, A)))`, `2^-∞ = 0`;
//! * `p2 = Σ clip((D2(2, A) - D2(1, A)) / 6, -1, 1)`, a finite distance
//!   against `∞` giving `±1`.
//!
//! Mobility: `M_i(k)` is the number of squares amazon `k` of player `i`
//! can reach in one queen move, `M_i = Σ_k M_i(k) + 4 min_k M_i(k)` over
//! that player's amazons, and `m = (M_1 + ε) / (M_1 + M_2 + 2ε)` with
//! `ε = 1e-10`.
//!
//! With `σ(x) = 1 / (1 + e^(-2x))`,
//! `q = α σ(t1) + β σ(t2) + γ σ(p1) + δ σ(p2) + ε_m m`, the weights
//! depending on the ply `n`:
//!
//! | `n`      | α    | β    | γ    | δ    | ε_m  |
//! |----------|------|------|------|------|------|
//! | 1..=15   | 0.14 | 0.37 | 0.13 | 0.13 | 0.23 |
//! | 16..=35  | 0.3  | 0.25 | 0.2  | 0.2  | 0.05 |
//! | 36 on    | 0.8  | 0.1  | 0.05 | 0.05 | 0    |
//!
//! and the score is `round((2q - 1) × scale)`, `scale = 1000`.
//!
//! # Readings chosen
//!
//! * **"可能行动数" (possible actions of an amazon)**: the number of
//!   squares the amazon can move to, not the number of whole moves
//!   (move and arrow) it has.
//! * **`n`, "回合数"**: the number of the ply about to be played, the
//!   arrows on the board plus one, so the first move of the game is ply 1
//!   and a position text carries its own phase.
//! * The document defines `D2` as the distance "by queen moves" a second
//!   time; that is a slip for king moves, as its name (King move) says.
//! * The document's `min` runs over four amazons; here it runs over the
//!   amazons the player has (any number a position text gives), 0 when
//!   there are none.
//!
//! # How it is computed
//!
//! The territory and position terms come from the lockstep floods of
//! [`Contest`] (no level cap, no
//! allocation); the mobility figures from walking each amazon's eight
//! lines through seed000's byte table of empty squares.
//!
//! # Parameters and bound
//!
//! The phases (their first ply and five weights), `κ`, `ε` and the scale
//! are read from TOML; `seed003.toml` next to this crate holds the
//! document's values and is the default. Reading checks that the first
//! phase starts at ply 1 and the starts increase, that each weight is at
//! least 0 and each phase's weights add up to 1 within 1e-6, that
//! `-1 < κ < 1`, `ε > 0` and `0 < scale ≤ 1000`. Then every `σ` lies in
//! `[0, 1]` and `m` in `[0, 1]`, so `q` lies in `[0, 1 + 1e-6]` and
//! `|2q - 1| × scale` rounds to at most `scale`: the bound
//! [`SCORE_BOUND`] is the largest scale allowed, 1000. The score is
//! clamped to it as well, which only ever guards against rounding.

use plyd_amazons_rules::board::{squares, Board, Geometry};
use plyd_amazons_rules::flood::{sides, Contest};
use plyd_amazons_rules::Amazons;
use plyd_api::Evaluator;
use plyd_params::ParamsError;
use serde::Deserialize;

use crate::seed000::{empty_table, SquareTable, TABLE_OFFSET};

/// The default parameters: the values of design document 003.
pub const DEFAULT_PARAMS: &str = include_str!("../seed003.toml");

/// Every score lies within this; it is also the largest scale accepted.
pub const SCORE_BOUND: i32 = 1000;

/// How far a phase's weights may add up from 1.
const WEIGHT_SUM_TOLERANCE: f64 = 1e-6;

/// The parameter file's shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    kappa: f64,
    epsilon: f64,
    scale: f64,
    phases: Vec<PhaseParams>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PhaseParams {
    first_ply: u32,
    t1: f64,
    t2: f64,
    p1: f64,
    p2: f64,
    m: f64,
}

/// One phase: where it starts and the weights of `t1, t2, p1, p2, m`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Phase {
    first_ply: u32,
    weights: [f64; 5],
}

/// The features of one position from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features {
    /// Queen-move territory.
    pub t1: f64,
    /// King-move territory.
    pub t2: f64,
    /// Queen-move position.
    pub p1: f64,
    /// King-move position.
    pub p2: f64,
    /// `M_1`, the side to move's mobility figure.
    pub mobility_us: u32,
    /// `M_2`, the other side's.
    pub mobility_them: u32,
    /// The ply `n` about to be played.
    pub ply: u32,
}

/// The seed003 evaluator and its parameters.
#[derive(Debug, Clone)]
pub struct Seed003 {
    kappa: f64,
    epsilon: f64,
    scale: f64,
    /// At least one, the first starting at ply 1, starts increasing.
    phases: Vec<Phase>,
}

impl Default for Seed003 {
    fn default() -> Self {
        Seed003::from_toml(DEFAULT_PARAMS).expect("the shipped seed003.toml is valid")
    }
}

/// The document's normalisation, `1 / (1 + e^(-2x))`.
#[inline]
pub fn sigma(x: f64) -> f64 {
    1.0 / (1.0 + (-2.0 * x).exp())
}

/// `M = Σ_k M(k) + 4 min_k M(k)` over the amazons of `amazons`, walking
/// each amazon's lines through the table of empty squares.
#[inline]
fn mobility_figure(g: &Geometry, amazons: u128, empty: &SquareTable) -> u32 {
    let mut sum = 0;
    let mut least = u32::MAX;
    for from in squares(amazons) {
        let mut count = 0;
        for &d in &g.dirs {
            let step = d as isize;
            let mut at = (usize::from(from) + TABLE_OFFSET).wrapping_add_signed(step);
            while empty[at] != 0 {
                count += 1;
                at = at.wrapping_add_signed(step);
            }
        }
        sum += count;
        least = least.min(count);
    }
    if amazons == 0 {
        0
    } else {
        sum + 4 * least
    }
}

impl Seed003 {
    /// Read and check parameters.
    pub fn from_toml(text: &str) -> Result<Self, ParamsError> {
        let p: Params = plyd_params::parse(text)?;
        if !(p.kappa > -1.0 && p.kappa < 1.0) {
            return Err(ParamsError::at_key(
                "kappa",
                format!("{} is outside (-1, 1)", p.kappa),
            ));
        }
        if !(p.epsilon > 0.0 && p.epsilon.is_finite()) {
            return Err(ParamsError::at_key(
                "epsilon",
                format!("{} is not a number greater than 0", p.epsilon),
            ));
        }
        if !(p.scale > 0.0 && p.scale <= f64::from(SCORE_BOUND)) {
            return Err(ParamsError::at_key(
                "scale",
                format!("{} is outside (0, {SCORE_BOUND}]", p.scale),
            ));
        }
        if p.phases.is_empty() {
            return Err(ParamsError::at_key("phases", "no phase given"));
        }
        let mut phases: Vec<Phase> = Vec::with_capacity(p.phases.len());
        for (i, phase) in p.phases.iter().enumerate() {
            let key = format!("phases[{i}]");
            let expected_first = match phases.last() {
                None if phase.first_ply != 1 => Some("1".to_string()),
                Some(before) if phase.first_ply <= before.first_ply => {
                    Some(format!("a ply after {}", before.first_ply))
                }
                _ => None,
            };
            if let Some(expected) = expected_first {
                return Err(ParamsError::at_key(
                    &format!("{key}.first_ply"),
                    format!("{}, expected {expected}", phase.first_ply),
                ));
            }
            let weights = [phase.t1, phase.t2, phase.p1, phase.p2, phase.m];
            for (name, weight) in ["t1", "t2", "p1", "p2", "m"].into_iter().zip(weights) {
                if !(weight >= 0.0 && weight.is_finite()) {
                    return Err(ParamsError::at_key(
                        &format!("{key}.{name}"),
                        format!("{weight} is not a number of at least 0"),
                    ));
                }
            }
            let sum: f64 = weights.iter().sum();
            if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE {
                return Err(ParamsError::at_key(
                    &key,
                    format!("the weights add up to {sum}, expected 1"),
                ));
            }
            phases.push(Phase {
                first_ply: phase.first_ply,
                weights,
            });
        }
        Ok(Seed003 {
            kappa: p.kappa,
            epsilon: p.epsilon,
            scale: p.scale,
            phases,
        })
    }

    /// The features of `board`.
    pub fn features(&self, board: &Board) -> Features {
        let queen = Contest::queen(board);
        let king = Contest::king(board);
        let g = board.geometry();
        let empty = empty_table(board);
        let [ours, theirs] = sides(board);
        Features {
            t1: queen.territory(self.kappa),
            t2: king.territory(self.kappa),
            p1: queen.halves,
            p2: king.clipped(),
            mobility_us: mobility_figure(g, ours, &empty),
            mobility_them: mobility_figure(g, theirs, &empty),
            ply: board.arrows.count_ones() + 1,
        }
    }

    /// The index of the phase of ply `ply`.
    fn phase_of(&self, ply: u32) -> usize {
        self.phases
            .iter()
            .rposition(|phase| phase.first_ply <= ply)
            .unwrap_or(0)
    }

    /// The mobility share `m`.
    fn share(&self, f: &Features) -> f64 {
        let (ours, theirs) = (f64::from(f.mobility_us), f64::from(f.mobility_them));
        (ours + self.epsilon) / (ours + theirs + 2.0 * self.epsilon)
    }

    /// The five normalised features `σ(t1), σ(t2), σ(p1), σ(p2), m`.
    fn normalised(&self, f: &Features) -> [f64; 5] {
        [
            sigma(f.t1),
            sigma(f.t2),
            sigma(f.p1),
            sigma(f.p2),
            self.share(f),
        ]
    }

    /// `q`, in `[0, 1]`.
    fn blend(&self, f: &Features) -> f64 {
        let weights = &self.phases[self.phase_of(f.ply)].weights;
        weights
            .iter()
            .zip(self.normalised(f))
            .map(|(w, x)| w * x)
            .sum()
    }

    /// The integer score of `q`.
    fn score(&self, q: f64) -> i32 {
        let bound = f64::from(SCORE_BOUND);
        ((2.0 * q - 1.0) * self.scale).round().clamp(-bound, bound) as i32
    }
}

impl Evaluator for Seed003 {
    type State = Amazons;
    const NAME: &'static str = "seed003";
    const DESCRIPTION: &'static str =
        "Territory, position and mobility squashed and weighted in three phases, from design document 003";
    const GAME: &'static str = "amazons";
    const STATE_LAYOUT: u32 = plyd_amazons_rules::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Seed003::default()),
            Some(text) => Seed003::from_toml(text).map_err(|e| e.to_string()),
        }
    }

    fn evaluate(&self, state: &Amazons) -> i32 {
        let features = self.features(state.board());
        self.score(self.blend(&features))
    }

    /// The raw features (`t1`, `t2`, `p1`, `p2`, and the mobility figures
    /// `M1`, `M2`), the normalised ones (`sigma_t1` .. `sigma_p2`, `m`),
    /// the ply `n`, the phase (from 1), `q` in `[0, 1]` and the integer
    /// total.
    fn explain(&self, state: &Amazons) -> Vec<(String, f64)> {
        let f = self.features(state.board());
        let [s_t1, s_t2, s_p1, s_p2, m] = self.normalised(&f);
        let q = self.blend(&f);
        [
            ("t1", f.t1),
            ("t2", f.t2),
            ("p1", f.p1),
            ("p2", f.p2),
            ("M1", f64::from(f.mobility_us)),
            ("M2", f64::from(f.mobility_them)),
            ("sigma_t1", s_t1),
            ("sigma_t2", s_t2),
            ("sigma_p1", s_p1),
            ("sigma_p2", s_p2),
            ("m", m),
            ("n", f64::from(f.ply)),
            ("phase", (self.phase_of(f.ply) + 1) as f64),
            ("q", q),
            ("total", f64::from(self.score(q))),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect()
    }
}
