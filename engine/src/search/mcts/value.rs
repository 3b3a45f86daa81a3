//! From evaluator scores to Monte-Carlo values in `[-1, 1]`, and back to
//! the `score cp` the GUI sees.
//!
//! The evaluator's score `s` lies in `[-B, B]`, `B` its `score_bound`.
//! Two mappings:
//!
//! * **sigmoid** (the default): `v = tanh(s / T)` with `T = B × scale /
//!   1000`. This is seed 003's `σ(x) = 1 / (1 + e^(-2x))` stretched to
//!   `[-1, 1]` (`2σ(x) - 1 = tanh x`). A score of `T` maps to 0.76, `2T`
//!   to 0.96: a clear advantage counts nearly as a win, a small one
//!   stays in proportion.
//! * **linear**: `v = s / B`, for an evaluator whose score already is a
//!   value in `[-1, 1]` scaled by `B` (seed 003's `2q - 1`).
//!
//! The `score cp` of an `info` line is the inverse: `s = T × atanh(v)`
//! (or `v × B`), clamped to `[-B, B]`; a proven result prints as `score
//! mate`.

/// How scores become values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValueMap {
    /// The evaluator's bound `B` (at least 1).
    bound: f64,
    /// `T` of the sigmoid; `None`: linear.
    temperature: Option<f64>,
}

/// The sigmoid's `T` as a share of the bound, in thousandths, by default.
pub const DEFAULT_SCALE_PERMILLE: u32 = 250;

impl ValueMap {
    /// The sigmoid mapping with `T = bound × scale_permille / 1000`.
    pub fn sigmoid(bound: i32, scale_permille: u32) -> Self {
        let bound = f64::from(bound.max(1));
        let t = bound * f64::from(scale_permille.max(1)) / 1000.0;
        ValueMap {
            bound,
            temperature: Some(t.max(1e-9)),
        }
    }

    /// The linear mapping `s / bound`.
    pub fn linear(bound: i32) -> Self {
        ValueMap {
            bound: f64::from(bound.max(1)),
            temperature: None,
        }
    }

    /// The value of an evaluator score (for the same side).
    pub fn value(&self, score: i32) -> f64 {
        let s = f64::from(score).clamp(-self.bound, self.bound);
        match self.temperature {
            Some(t) => (s / t).tanh(),
            None => s / self.bound,
        }
    }

    /// The centipawn-like score of a value, the inverse of
    /// [`ValueMap::value`] within the bound.
    pub fn score(&self, value: f64) -> i32 {
        let v = value.clamp(-1.0, 1.0);
        let s = match self.temperature {
            // atanh(±1) is infinite: the clamp to the bound catches it.
            Some(t) => t * v.atanh(),
            None => v * self.bound,
        };
        s.clamp(-self.bound, self.bound).round() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sigmoid_is_seed003s_stretched_to_plus_minus_one() {
        let map = ValueMap::sigmoid(1000, 250);
        // T = 250: a score of T is tanh(1).
        assert!((map.value(250) - 1f64.tanh()).abs() < 1e-12);
        let sigma = |x: f64| 1.0 / (1.0 + (-2.0 * x).exp());
        for s in [-1000, -300, -1, 0, 7, 250, 999] {
            let x = f64::from(s) / 250.0;
            assert!((map.value(s) - (2.0 * sigma(x) - 1.0)).abs() < 1e-12);
            assert_eq!(map.value(-s), -map.value(s));
        }
        assert_eq!(map.value(0), 0.0);
        // Scores outside the bound are clamped first.
        assert_eq!(map.value(5000), map.value(1000));
    }

    #[test]
    fn scores_come_back_from_values() {
        let map = ValueMap::sigmoid(10_000, 250);
        for s in [-9000, -2500, -100, 0, 1, 42, 2500, 9000] {
            assert!((map.score(map.value(s)) - s).abs() <= 1, "{s}");
        }
        assert_eq!(map.score(1.0), 10_000);
        assert_eq!(map.score(-1.0), -10_000);
        let linear = ValueMap::linear(1000);
        assert_eq!(linear.value(500), 0.5);
        assert_eq!(linear.value(-1000), -1.0);
        assert_eq!(linear.score(-0.25), -250);
    }
}
