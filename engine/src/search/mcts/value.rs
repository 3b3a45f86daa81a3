//! From evaluator scores to Monte-Carlo values in `[-1, 1]`, and back to
//! the `score cp` the GUI sees.
//!
//! The evaluator's score `s` lies in `[-B, B]`, `B` its `score_bound`.
//! Two mappings:
//!
//! * **sigmoid** (the default): `v = tanh((s - c) / T)`, seed 003's
//!   `σ(x) = 1 / (1 + e^(-2x))` stretched to `[-1, 1]` (`2σ(x) - 1 =
//!   tanh x`). The centre `c` and the scale `T` are measured at the root
//!   of a new tree ([`ValueMap::calibrated`]): `c` is the mean score of a
//!   sample of the root's children and `T` twice their mean absolute
//!   deviation, within `[B / 1000, B / 2]`. So the moves at the root spread
//!   over the steep middle of the sigmoid whatever the evaluator's units
//!   (a xiangqi pawn is 1/200 of `classic`'s bound, an Othello disc 1/64
//!   of `patterns`'), and a position that is already won or lost does not
//!   squash every move into the same ±1. `c` is a score for the root's
//!   side, and for the other side `-c`, so a value for one side is still
//!   minus the value for the other.
//! * **linear**: `v = s / B`, for an evaluator whose score already is a
//!   value in `[-1, 1]` scaled by `B` (seed 003's `2q - 1`).
//!
//! The `score cp` of an `info` line is the inverse, for the root's side:
//! `s = c + T × atanh(v)` (or `v × B`), clamped to `[-B, B]`; a proven
//! result prints as `score mate`.

/// How scores become values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValueMap {
    /// The evaluator's bound `B` (at least 1).
    bound: f64,
    /// `T` of the sigmoid; `None`: linear.
    temperature: Option<f64>,
    /// The centre `c`, a score for `root_side`.
    centre: f64,
    /// The side the centre is for.
    root_side: u32,
}

/// The sigmoid's `T` as a share of the bound, in thousandths, when the
/// root gives nothing to measure (a chance root, a single move).
pub const DEFAULT_SCALE_PERMILLE: u32 = 250;
/// `T` over the mean absolute deviation of the root's children's scores.
pub const SPREAD_FACTOR: f64 = 2.0;

impl ValueMap {
    /// The sigmoid mapping with `T = bound × scale_permille / 1000`,
    /// centred on 0.
    pub fn sigmoid(bound: i32, scale_permille: u32) -> Self {
        let bound = f64::from(bound.max(1));
        let t = bound * f64::from(scale_permille.max(1)) / 1000.0;
        ValueMap {
            bound,
            temperature: Some(t.max(1e-9)),
            centre: 0.0,
            root_side: 0,
        }
    }

    /// The sigmoid mapping measured on `scores`, the scores of a sample
    /// of the root's children for `root_side` (see the module docs).
    pub fn calibrated(bound: i32, root_side: u32, scores: &[i32]) -> Self {
        // Fewer than two scores, or one score throughout: nothing to
        // measure a scale on.
        if scores.len() < 2 || scores.iter().all(|&s| s == scores[0]) {
            let mut map = ValueMap::sigmoid(bound, DEFAULT_SCALE_PERMILLE);
            map.root_side = root_side;
            map.centre = scores
                .first()
                .map_or(0.0, |&s| f64::from(s).clamp(-map.bound, map.bound));
            return map;
        }
        let b = f64::from(bound.max(1));
        let n = scores.len() as f64;
        let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / n;
        let deviation = scores
            .iter()
            .map(|&s| (f64::from(s) - mean).abs())
            .sum::<f64>()
            / n;
        let t = (SPREAD_FACTOR * deviation).clamp(b / 1000.0, b / 2.0);
        ValueMap {
            bound: b,
            temperature: Some(t.max(1e-9)),
            centre: mean.clamp(-b, b),
            root_side,
        }
    }

    /// The linear mapping `s / bound`.
    pub fn linear(bound: i32) -> Self {
        ValueMap {
            bound: f64::from(bound.max(1)),
            temperature: None,
            centre: 0.0,
            root_side: 0,
        }
    }

    /// The scale `T`, if the mapping is a sigmoid.
    pub fn temperature(&self) -> Option<f64> {
        self.temperature
    }

    /// The centre for `side`.
    fn centre_for(&self, side: u32) -> f64 {
        if side == self.root_side {
            self.centre
        } else {
            -self.centre
        }
    }

    /// Whether `other` maps scores nearly as this one does: the same kind,
    /// scales within a factor of 3 and centres within two scales (the
    /// spread of a sample of moves varies that much from one position to
    /// the next). A tree valued by one may go on with the other.
    pub fn close_to(&self, other: &ValueMap) -> bool {
        match (self.temperature, other.temperature) {
            (None, None) => self.bound == other.bound,
            (Some(a), Some(b)) => {
                let ratio = a.max(b) / a.min(b);
                let shift = (self.centre_for(0) - other.centre_for(0)).abs();
                ratio <= 3.0 && shift <= 2.0 * a.min(b)
            }
            _ => false,
        }
    }

    /// The value of an evaluator score `score` for `side`.
    pub fn value(&self, score: i32, side: u32) -> f64 {
        let s = f64::from(score).clamp(-self.bound, self.bound);
        match self.temperature {
            Some(t) => ((s - self.centre_for(side)) / t).tanh(),
            None => s / self.bound,
        }
    }

    /// The score of a value for `side`, the inverse of [`ValueMap::value`]
    /// within the bound.
    pub fn score(&self, value: f64, side: u32) -> i32 {
        let v = value.clamp(-1.0, 1.0);
        let s = match self.temperature {
            // atanh(±1) is infinite: the clamp to the bound catches it.
            Some(t) => self.centre_for(side) + t * v.atanh(),
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
        assert!((map.value(250, 0) - 1f64.tanh()).abs() < 1e-12);
        let sigma = |x: f64| 1.0 / (1.0 + (-2.0 * x).exp());
        for s in [-1000, -300, -1, 0, 7, 250, 999] {
            let x = f64::from(s) / 250.0;
            assert!((map.value(s, 0) - (2.0 * sigma(x) - 1.0)).abs() < 1e-12);
            assert_eq!(map.value(-s, 1), -map.value(s, 0));
        }
        assert_eq!(map.value(0, 0), 0.0);
        // Scores outside the bound are clamped first.
        assert_eq!(map.value(5000, 0), map.value(1000, 0));
    }

    #[test]
    fn the_calibrated_sigmoid_is_centred_on_the_root_and_antisymmetric() {
        // Mean 300, mean absolute deviation 50: T = 100.
        let map = ValueMap::calibrated(10_000, 0, &[250, 350, 250, 350]);
        assert_eq!(map.temperature(), Some(100.0));
        assert_eq!(map.value(300, 0), 0.0);
        assert!((map.value(400, 0) - 1f64.tanh()).abs() < 1e-12);
        for s in [-2000, -300, 0, 280, 310, 9000] {
            assert_eq!(map.value(-s, 1), -map.value(s, 0), "{s}");
        }
        // Within a few scales of the centre, scores come back.
        for s in [0, 150, 280, 310, 500] {
            assert!((map.score(map.value(s, 0), 0) - s).abs() <= 1, "{s}");
            assert!((map.score(map.value(s, 1), 1) - s).abs() <= 1, "{s}");
        }
        // The scale stays within [B / 1000, B / 2].
        let flat = ValueMap::calibrated(10_000, 0, &[5, 6, 5, 6]);
        assert_eq!(flat.temperature(), Some(10.0));
        // One score throughout measures no scale: the default, B / 4,
        // centred on that score.
        let even = ValueMap::calibrated(10_000, 0, &[5, 5, 5]);
        assert_eq!(even.temperature(), Some(2500.0));
        assert_eq!(even.value(5, 0), 0.0);
        let wild = ValueMap::calibrated(1000, 0, &[-1000, 1000]);
        assert_eq!(wild.temperature(), Some(500.0));
        assert!(map.close_to(&ValueMap::calibrated(10_000, 0, &[260, 360, 260, 360])));
        assert!(!map.close_to(&flat));
        assert!(!map.close_to(&ValueMap::calibrated(10_000, 0, &[-50, 50])));
    }

    #[test]
    fn scores_come_back_from_values() {
        let map = ValueMap::sigmoid(10_000, 250);
        for s in [-9000, -2500, -100, 0, 1, 42, 2500, 9000] {
            assert!((map.score(map.value(s, 0), 0) - s).abs() <= 1, "{s}");
        }
        assert_eq!(map.score(1.0, 0), 10_000);
        assert_eq!(map.score(-1.0, 0), -10_000);
        let linear = ValueMap::linear(1000);
        assert_eq!(linear.value(500, 0), 0.5);
        assert_eq!(linear.value(-1000, 1), -1.0);
        assert_eq!(linear.score(-0.25, 0), -250);
    }
}
