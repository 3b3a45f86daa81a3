//! The `seed001` evaluator: the attack-and-defence evaluation of design
//! document 001, `Value = k1·Attack + k2·Defense` with `k1 = 0.65`,
//! `k2 = 0.35`, the board-value weights, the dynamic defence and the static
//! defence.
//!
//! # What the document says
//!
//! * A stone's value comes from the probability that the die selects it
//!   and the value of its square. The board value of a square is
//!   `2^(4-n)`, `n` being the fewest steps from it to the enemy corner; a
//!   square on the border is worth a little more than an inner square as
//!   far away (a border stone is threatened from one direction, an inner
//!   one from three); the enemy corner itself gets a weight above any
//!   `Value`.
//! * Attack of a step to square `(i, j)`: `boardvalue[i][j] - P[a]·distance`,
//!   `P[a]` being the probability that the enemy stone `a` standing there
//!   (captured by the step) would move next turn, 0 when the square is
//!   empty, and `distance` the fewest steps from the square to the side's
//!   own corner: taking stones deep in enemy ground makes the enemy's die
//!   less random, which the document counts against the capture.
//! * Dynamic defence: when an enemy stone is 1 or 2 steps from the side's
//!   own corner and a step can take it, that step scores
//!   `Defense = boardvalue[4-i][4-j]`, the board value seen from the enemy;
//!   otherwise `Defense = 0`.
//! * Static defence: when the side has 2 stones or fewer and could lose
//!   them all, it prefers the steps that make a capture of its stones by
//!   the enemy's next move least likely; and it always takes the corner
//!   when a stone is one step from it.
//!
//! # Readings chosen where the text is ambiguous
//!
//! * **A move scorer made a position evaluator.** The document scores the
//!   three steps of the selected stone and plays the best; plyd's search
//!   needs a score for a position. Here each side gets
//!   `V = k1·Attack + k2·Defense (+ static term)` and the evaluation for
//!   the side to move is `(V_me − V_them) × scale`. `Attack` sums, over the
//!   side's stones, the probability that its next roll selects the stone
//!   times the board value of the stone's square (the document's "value
//!   from selection probability and square value"), minus the capture
//!   penalty of formula (2) for the side's most recent step; `Defense` is
//!   formula (3) for that step. With a search of one ply this picks the
//!   step whose square, capture and defence the document prefers.
//! * **`2^(4-n)`**: the text prints "24-n次冪", a superscript lost in
//!   extraction; read as 2 to the power `4 - n`, so 16 next to the corner
//!   down to 1 four steps away, `n` counted in king steps (a diagonal step
//!   is one step).
//! * **Figure 2 is missing.** The border premium is not given in numbers:
//!   border squares (the rank and the file that meet at the enemy corner,
//!   where the document's figure 3 shows a stone threatened from one side
//!   only) get `border_factor = 1.25` times the weight. The corner gets
//!   `corner = 100`, above any `Value`; it matters only to `plyd eval` on a
//!   finished game, since the search scores a won game itself.
//! * **"Probability of being selected"**: the faces that select the stone
//!   alone count fully; a face that lets the side choose between two
//!   stones (its own stone is gone) counts one half for each.
//! * **`P[a]`** is the captured stone's selection probability for the enemy
//!   just before the capture (from the enemy's stones as they stood then);
//!   **`distance`** is the king-step distance from
//!   the capture square to the capturing side's own (starting) corner.
//! * **Dynamic defence** applies to the side's most recent step when it
//!   captured an enemy stone 1 or 2 steps from the side's own corner; the
//!   value is the enemy's board value of that square (formula 3 turns the
//!   board for the enemy). Only the most recent step of each side is
//!   known to count, as the document scores one step at a time; both
//!   terms stay when the enemy has taken the capturing stone back since.
//! * **Static defence**: "could lose them all" is read as "has 2 stones or
//!   fewer and one of them can be captured by the enemy's next move"; then
//!   the side's `V` is lowered by `static_weight` times the probability that
//!   the enemy's next roll selects a stone that can capture one of them
//!   (`static_weight = 16`, the largest square weight: the document gives
//!   no number but says this rule takes priority). Taking the corner when
//!   one step away needs no term: the search sees the win.
//!
//! The capture terms read the state's most recent steps, which the
//! position hash does not include, so a transposition-table entry may hold
//! a value computed after other last steps; for a baseline evaluator that
//! is accepted.
//!
//! # Parameters and bound
//!
//! `seed001.toml` holds the values above; scores are `scale = 100` times
//! `V_me − V_them`, clamped to [`SCORE_BOUND`].

use plyd_api::Evaluator;
use plyd_einstein_rules::board::{distance, file, number, owner, rank, steps, Board, STAGE_PLAY};
use plyd_einstein_rules::EinStein;
use plyd_params::ParamsError;
use serde::Deserialize;

/// The default parameters: the document's values and the readings above.
pub const DEFAULT_PARAMS: &str = include_str!("../seed001.toml");

/// Every score lies within this.
pub const SCORE_BOUND: i32 = 10_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    k1: f64,
    k2: f64,
    border_factor: f64,
    corner: f64,
    static_weight: f64,
    scale: f64,
}

/// The seed001 evaluator and its parameters.
#[derive(Debug, Clone)]
pub struct Seed001 {
    k1: f64,
    k2: f64,
    static_weight: f64,
    scale: f64,
    /// Board value of each square for each side.
    board_value: [[f64; 25]; 2],
}

impl Default for Seed001 {
    fn default() -> Self {
        Seed001::from_toml(DEFAULT_PARAMS).expect("the shipped seed001.toml is valid")
    }
}

/// The probability that `side`'s next roll selects each stone (index by
/// number), a shared face counting one half for each stone.
pub fn selection_shares(board: &Board, side: usize) -> [f64; 7] {
    let mut share = [0.0; 7];
    for face in 1..=6 {
        let (stones, n) = board.movable(side, face);
        for &s in &stones[..n] {
            share[usize::from(s)] += 1.0 / (6.0 * n as f64);
        }
    }
    share
}

/// The terms of one side.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SideTerms {
    /// Σ selection probability × board value.
    pub stones: f64,
    /// Formula (2)'s penalty for the most recent step.
    pub capture_penalty: f64,
    /// Formula (3) for the most recent step.
    pub defense: f64,
    /// The static-defence probability (0 when the rule does not apply).
    pub exposure: f64,
}

impl Seed001 {
    /// Read and check parameters.
    pub fn from_toml(text: &str) -> Result<Self, ParamsError> {
        let p: Params = plyd_params::parse(text)?;
        for (key, value) in [
            ("k1", p.k1),
            ("k2", p.k2),
            ("corner", p.corner),
            ("static_weight", p.static_weight),
        ] {
            plyd_params::check_range(key, value, 0.0, 1000.0)?;
        }
        plyd_params::check_range("border_factor", p.border_factor, 1.0, 4.0)?;
        plyd_params::check_range("scale", p.scale, 0.001, 100.0)?;
        let mut board_value = [[0.0; 25]; 2];
        for (side, values) in board_value.iter_mut().enumerate() {
            for sq in 0..25u8 {
                let n = distance(side, sq);
                let target_rank = if side == 0 { 0 } else { 4 };
                let target_file = if side == 0 { 4 } else { 0 };
                let border = rank(sq) == target_rank || file(sq) == target_file;
                values[usize::from(sq)] = if n == 0 {
                    p.corner
                } else if border {
                    f64::from(1u32 << (4 - n)) * p.border_factor
                } else {
                    f64::from(1u32 << (4 - n))
                };
            }
        }
        Ok(Seed001 {
            k1: p.k1,
            k2: p.k2,
            static_weight: p.static_weight,
            scale: p.scale,
            board_value,
        })
    }

    /// The board value of `sq` for `side`.
    pub fn board_value(&self, side: usize, sq: u8) -> f64 {
        self.board_value[side][usize::from(sq)]
    }

    /// The terms of `side` in `state`.
    pub fn side_terms(&self, state: &EinStein, side: usize) -> SideTerms {
        let board = state.board();
        let share = selection_shares(board, side);
        let stones = (1..=6u8)
            .filter(|&s| board.has(side, s))
            .map(|s| {
                share[usize::from(s)] * self.board_value(side, board.squares[side][usize::from(s)])
            })
            .sum();
        let mut terms = SideTerms {
            stones,
            ..SideTerms::default()
        };
        // The side's most recent step: the last step if the other side is
        // to move now, else the one before.
        let back = usize::from(board.mover() == side);
        // Steps alternate, so that step is the side's whatever stands on
        // its square now (an enemy stone that took the capturing stone
        // back: the terms were dropped then).
        if let Some(step) = state.recent_step(back) {
            if step.captured != 0 && owner(step.captured) != side {
                let enemy = 1 - side;
                // The enemy's shares as they were just before the capture
                // (only which of its stones stand counts): the captured
                // stone back, and one of its own that the enemy's step
                // since took (its shares were those of the stones then).
                let mut before = board.clone();
                before.squares[enemy][usize::from(number(step.captured))] = step.to;
                if let Some(since) = state.recent_step(0).filter(|_| back == 1) {
                    if since.captured != 0 && owner(since.captured) == enemy {
                        before.squares[enemy][usize::from(number(since.captured))] = since.to;
                    }
                }
                let p_a = selection_shares(&before, enemy)[usize::from(number(step.captured))];
                let own_corner = distance(enemy, step.to);
                terms.capture_penalty = p_a * f64::from(own_corner);
                if (1..=2).contains(&distance(enemy, step.to)) {
                    terms.defense = self.board_value(enemy, step.to);
                }
            }
        }
        if board.counts[side] <= 2 {
            terms.exposure = exposure(board, side);
        }
        terms
    }

    /// `V` of one side.
    pub fn side_value(&self, t: &SideTerms) -> f64 {
        self.k1 * (t.stones - t.capture_penalty) + self.k2 * t.defense
            - self.static_weight * t.exposure
    }

    fn score(&self, state: &EinStein) -> f64 {
        let board = state.board();
        if board.stage != STAGE_PLAY {
            return 0.0;
        }
        let me = board.mover();
        let mine = self.side_value(&self.side_terms(state, me));
        let theirs = self.side_value(&self.side_terms(state, 1 - me));
        (mine - theirs) * self.scale
    }
}

/// The probability that the enemy's next roll selects a stone that can
/// step onto one of `side`'s stones (the static defence's figure); 0 when
/// no stone of `side` can be taken.
pub fn exposure(board: &Board, side: usize) -> f64 {
    let enemy = 1 - side;
    let share = selection_shares(board, enemy);
    let mut total = 0.0;
    for s in 1..=6u8 {
        if !board.has(enemy, s) {
            continue;
        }
        let (to, n) = steps(enemy, board.squares[enemy][usize::from(s)]);
        let threatens = to[..n].iter().any(|&t| {
            let cell = board.cells[usize::from(t)];
            cell != 0 && owner(cell) == side
        });
        if threatens {
            total += share[usize::from(s)];
        }
    }
    total
}

impl Evaluator for Seed001 {
    type State = EinStein;
    const NAME: &'static str = "seed001";
    const DESCRIPTION: &'static str =
        "Attack and defence from square weights and die probabilities, from design document 001";
    const GAME: &'static str = "einstein";
    const STATE_LAYOUT: u32 = plyd_einstein_rules::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Seed001::default()),
            Some(text) => Seed001::from_toml(text).map_err(|e| e.to_string()),
        }
    }

    fn evaluate(&self, state: &EinStein) -> i32 {
        let score = self.score(state).round();
        score.clamp(-f64::from(SCORE_BOUND), f64::from(SCORE_BOUND)) as i32
    }

    fn explain(&self, state: &EinStein) -> Vec<(String, f64)> {
        let board = state.board();
        let mut out = Vec::new();
        if board.stage == STAGE_PLAY {
            for (name, side) in [("me", board.mover()), ("them", 1 - board.mover())] {
                let t = self.side_terms(state, side);
                out.push((format!("{name}_stones"), t.stones));
                out.push((format!("{name}_capture_penalty"), t.capture_penalty));
                out.push((format!("{name}_defense"), t.defense));
                out.push((format!("{name}_exposure"), t.exposure));
                out.push((format!("{name}_value"), self.side_value(&t)));
            }
        }
        out.push(("total".to_string(), f64::from(self.evaluate(state))));
        out
    }
}
