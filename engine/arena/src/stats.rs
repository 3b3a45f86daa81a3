//! Match statistics: the tally of results, the Elo difference with its
//! confidence interval, and the sequential probability ratio test.
//!
//! Everything is seen from the first engine's side (the first `--engine`):
//! a positive Elo means it is the stronger.
//!
//! * Elo is the logistic model: a score fraction `s` means a rating
//!   difference of `-400 log10(1/s - 1)`.
//! * The 95% interval treats every game as an independent draw of a score
//!   in {0, 1/2, 1}: the standard error of the mean score is the per-game
//!   standard deviation over `sqrt(n)`, and the interval's ends on the score
//!   scale are mapped to Elo.
//! * [`PairTally`] counts the colour-swapped pairs by the first engine's
//!   points in them (0, 1/2, 1, 3/2, 2: the pentanomial model), and
//!   [`EloEstimate::from_pairs`] takes each pair's score as one draw: the
//!   pair's two games share an opening (and a game's chance outcomes), so
//!   what the opening does for one side it does for both engines, and a
//!   pair's score varies less than two independent games' would where
//!   openings are unbalanced.
//! * The SPRT is the generalised SPRT on that same trinomial model, the
//!   test fishtest runs for logistic Elo bounds: the log-likelihood ratio
//!   compares the most likely win/draw/loss probabilities whose expected
//!   score is `s1` (the score `elo1` means) with those whose expected score
//!   is `s0`, each found by maximising the likelihood of the observed
//!   counts under that constraint. A count of zero stands in as 0.001, so a
//!   record without draws (or without losses) still compares finite
//!   probabilities. The test stops at `ln(beta / (1 - alpha))` (H0
//!   accepted) or `ln((1 - beta) / alpha)` (H1 accepted).
//! * [`Sprt::llr_approximation`] is the well-known normal approximation of
//!   that ratio, `n (s1 - s0) (2 s - s0 - s1) / (2 var)`; it agrees closely
//!   when the observed score lies near `s0` and `s1`, the region where a
//!   test spends its time, and the tests compare the two.

use std::fmt;

/// Two-sided 95% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// What stands in for a count of zero in the SPRT, so that a record with
/// no draws or no losses still has a positive variance and a finite LLR.
const ZERO_COUNT: f64 = 1e-3;

/// Wins, draws and losses of the first engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Score fraction in [0, 1]; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }
}

/// The colour-swapped pairs of a match by the first engine's points in
/// them: `counts[k]` pairs scored `k / 2` points (0 to 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PairTally {
    /// Pairs by points: 0, 1/2, 1, 3/2, 2.
    pub counts: [u64; 5],
}

impl PairTally {
    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Count a pair in which the first engine scored `points` (0 to 2, in
    /// halves).
    pub fn add(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }
}

impl fmt::Display for PairTally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points = ["0", "1/2", "1", "3/2", "2"];
        let parts: Vec<String> = points
            .iter()
            .zip(&self.counts)
            .map(|(p, c)| format!("{p}: {c}"))
            .collect();
        write!(f, "{}", parts.join(", "))
    }
}

/// The Elo difference that a score fraction `s` means under the logistic
/// model: infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score fraction of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// The difference the observed score means.
    pub elo: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// Every game had the same result: the interval is Wilson's score
    /// interval, not the per-game standard error's (which is zero then).
    pub alike: bool,
}

impl EloEstimate {
    /// Half the interval's width, the `±` figure.
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Estimate the difference from a tally; `None` before the first game.
    pub fn from_tally(tally: &Tally) -> Option<Self> {
        let s = tally.score()?;
        let n = tally.games() as f64;
        let results = [tally.wins, tally.draws, tally.losses];
        if results.iter().filter(|&&k| k > 0).count() == 1 {
            // One result only (a sweep, or all draws): the per-game
            // spread is zero and would make the interval a point, as if
            // a few games proved the difference exactly. Wilson's score
            // interval for a proportion stays honest there.
            let z2 = Z_95 * Z_95;
            let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
            let half = Z_95 / (1.0 + z2 / n) * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
            // A sweep's interval reaches its own end exactly (the sum can
            // round a hair short of 1 or above 0).
            let low = if s <= 0.0 {
                0.0
            } else {
                (centre - half).max(0.0)
            };
            let high = if s >= 1.0 {
                1.0
            } else {
                (centre + half).min(1.0)
            };
            return Some(EloEstimate {
                elo: elo_from_score(s),
                low: elo_from_score(low),
                high: elo_from_score(high),
                alike: true,
            });
        }
        let stderr =
            (per_game_variance(tally.wins as f64, tally.draws as f64, tally.losses as f64) / n)
                .sqrt();
        Some(EloEstimate {
            elo: elo_from_score(s),
            low: elo_from_score(s - Z_95 * stderr),
            high: elo_from_score(s + Z_95 * stderr),
            alike: false,
        })
    }

    /// Estimate the difference from colour-swapped pairs, each pair's
    /// score (its points over 2) one draw: the mean of the pairs' scores
    /// and its standard error, mapped to Elo as
    /// [`EloEstimate::from_tally`] maps the games'. `None` before the
    /// first pair and where every pair scored the same (no spread to
    /// measure; the per-game figure says what those games say).
    pub fn from_pairs(pairs: &PairTally) -> Option<Self> {
        let n = pairs.pairs() as f64;
        if pairs.counts.iter().filter(|&&c| c > 0).count() < 2 {
            return None;
        }
        let score = |k: usize| k as f64 / 4.0;
        let s = (0..5)
            .map(|k| pairs.counts[k] as f64 * score(k))
            .sum::<f64>()
            / n;
        let variance = (0..5)
            .map(|k| pairs.counts[k] as f64 * (score(k) - s).powi(2))
            .sum::<f64>()
            / n;
        let stderr = (variance / n).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(s),
            low: elo_from_score(s - Z_95 * stderr),
            high: elo_from_score(s + Z_95 * stderr),
            alike: false,
        })
    }

    /// How the interval was found, for the report.
    pub fn method(&self) -> &'static str {
        if self.alike {
            "every game alike: Wilson score interval"
        } else {
            "per-game score standard error"
        }
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} +/- {}", signed(self.elo), unsigned(self.margin()))
    }
}

/// An Elo figure with its sign, one decimal, or `+inf`/`-inf`.
pub fn signed(elo: f64) -> String {
    if elo.is_finite() {
        // Adding zero turns a rounded -0.0 into 0.0, so an even score
        // prints as +0.0.
        let rounded = (elo * 10.0).round() / 10.0 + 0.0;
        format!("{rounded:+.1}")
    } else if elo > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".to_string()
    }
}

/// Counts (wins, draws, losses; or pairs by points) with zeros replaced
/// by [`ZERO_COUNT`].
fn regularized<const N: usize>(counts: [u64; N]) -> [f64; N] {
    counts.map(|c| if c == 0 { ZERO_COUNT } else { c as f64 })
}

/// Scores of a win, a draw and a loss, in the order of the counts.
const OUTCOME_SCORES: [f64; 3] = [1.0, 0.5, 0.0];

/// Scores of a pair of 0, 1/2, 1, 3/2 and 2 points, in the order of
/// [`PairTally::counts`].
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The win/draw/loss probabilities with expected score `mean` under which
/// the observed frequencies `observed` (all positive) are most likely.
///
/// With a Lagrange multiplier `x` for the constraint, the maximum has
/// `q_i = p_i / (1 + x (a_i - mean))`, where `a_i` are the outcome scores,
/// and `x` is the root of `sum p_i (a_i - mean) / (1 + x (a_i - mean)) = 0`.
/// That sum falls steadily from +inf to -inf as `x` crosses the interval
/// where every `q_i` stays positive, so bisection finds the root.
fn most_likely_with_mean<const N: usize>(
    observed: &[f64; N],
    scores: &[f64; N],
    mean: f64,
) -> [f64; N] {
    let offsets = scores.map(|a| a - mean);
    let slope = |x: f64| -> f64 {
        observed
            .iter()
            .zip(&offsets)
            .map(|(p, d)| p * d / (1.0 + x * d))
            .sum()
    };
    // 1 + x d > 0 for d = 1 - mean > 0 and d = -mean < 0 (every set of
    // scores holds 0 and 1).
    let (mut low, mut high) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if mid <= low || mid >= high {
            break;
        }
        if slope(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let x = (low + high) / 2.0;
    std::array::from_fn(|i| observed[i] / (1.0 + x * offsets[i]))
}

/// Variance of one game's score given counts of wins, draws and losses.
fn per_game_variance(wins: f64, draws: f64, losses: f64) -> f64 {
    let n = wins + draws + losses;
    let s = (wins + draws / 2.0) / n;
    (wins * (1.0 - s).powi(2) + draws * (0.5 - s).powi(2) + losses * s.powi(2)) / n
}

/// The parameters of a sequential probability ratio test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// What the test counts: games or colour-swapped pairs.
    pub model: SprtModel,
}

/// What an SPRT counts (`model=` of `--sprt`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// Each game a draw of 0, 1/2 or 1 (the trinomial model), the test
    /// looked at after every game.
    #[default]
    Games,
    /// Each colour-swapped pair a draw of 0 to 2 points in halves (the
    /// pentanomial model), the test looked at as each pair is finished.
    Pairs,
}

/// Where a running SPRT stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound reached yet.
    Continue,
    /// The LLR fell to the lower bound: no better than `elo0`.
    AcceptH0,
    /// The LLR rose to the upper bound: at least `elo1`.
    AcceptH1,
}

impl Sprt {
    /// Read `elo0=0 elo1=10 alpha=0.05 beta=0.05` (every key required,
    /// in any order).
    pub fn parse(words: &[String]) -> Result<Self, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        let mut model = SprtModel::Games;
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{word}' is not key=value"))?;
            if key.trim() == "model" {
                model = match value.trim() {
                    "games" => SprtModel::Games,
                    "pairs" => SprtModel::Pairs,
                    other => {
                        return Err(format!(
                            "--sprt: model: '{other}' is neither 'games' nor 'pairs'"
                        ))
                    }
                };
                continue;
            }
            let number: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: {key}: '{value}' is not a number"))?;
            let slot = match key.trim() {
                "elo0" => &mut elo0,
                "elo1" => &mut elo1,
                "alpha" => &mut alpha,
                "beta" => &mut beta,
                other => {
                    return Err(format!(
                        "--sprt: unknown key '{other}' (expected elo0, elo1, alpha, beta, model)"
                    ))
                }
            };
            *slot = Some(number);
        }
        let need = |v: Option<f64>, key: &str| v.ok_or_else(|| format!("--sprt: {key} is missing"));
        let sprt = Sprt {
            elo0: need(elo0, "elo0")?,
            elo1: need(elo1, "elo1")?,
            alpha: need(alpha, "alpha")?,
            beta: need(beta, "beta")?,
            model,
        };
        if sprt.elo1 <= sprt.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".to_string());
        }
        for (key, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt: {key} must lie between 0 and 0.5"));
            }
        }
        Ok(sprt)
    }

    /// The lower and upper bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `tally`.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let counts = regularized([tally.wins, tally.draws, tally.losses]);
        self.llr_of(counts, &OUTCOME_SCORES)
    }

    /// The log-likelihood ratio of H1 against H0 after the colour-swapped
    /// `pairs` (the pentanomial model: each pair's score is its points
    /// over 2, and the hypotheses' scores are those of a game).
    pub fn llr_pairs(&self, pairs: &PairTally) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        self.llr_of(regularized(pairs.counts), &PAIR_SCORES)
    }

    /// The ratio of the model this test counts by: of `tally`'s games or
    /// of `pairs`.
    pub fn llr_by_model(&self, tally: &Tally, pairs: &PairTally) -> f64 {
        match self.model {
            SprtModel::Games => self.llr(tally),
            SprtModel::Pairs => self.llr_pairs(pairs),
        }
    }

    /// The generalised ratio for `counts` (all positive) of outcomes
    /// scoring `scores`.
    fn llr_of<const N: usize>(&self, counts: [f64; N], scores: &[f64; N]) -> f64 {
        let n: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / n);
        let under_h0 = most_likely_with_mean(&observed, scores, score_from_elo(self.elo0));
        let under_h1 = most_likely_with_mean(&observed, scores, score_from_elo(self.elo1));
        n * observed
            .iter()
            .zip(under_h0.iter().zip(&under_h1))
            .map(|(p, (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum::<f64>()
    }

    /// The normal approximation of [`Sprt::llr`]:
    /// `n (s1 - s0) (2 s - s0 - s1) / (2 var)` with the observed mean score
    /// `s` and per-game variance `var`.
    pub fn llr_approximation(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let [w, d, l] = regularized([tally.wins, tally.draws, tally.losses]);
        let n = w + d + l;
        let s = (w + d / 2.0) / n;
        let var = per_game_variance(w, d, l);
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Whether the test has decided after `tally`.
    pub fn decide(&self, tally: &Tally) -> SprtDecision {
        self.verdict(self.llr(tally))
    }

    /// Where a ratio of `llr` leaves the test.
    pub fn verdict(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )?;
        // Only when it is not the default, so that a log written before
        // there was a choice names the same test.
        if self.model == SprtModel::Pairs {
            write!(f, " model=pairs")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_of_textbook_scores() {
        // 75%: 1/s - 1 = 1/3, and -400 log10(1/3) = 400 * 0.477121 = 190.85.
        assert!(close(elo_from_score(0.75), 190.8485, 1e-3));
        // 64%: 1/s - 1 = 0.5625, -400 log10(0.5625) = 400 * 0.249877 = 99.95,
        // the "100 Elo is about 64%" rule of thumb.
        assert!(close(elo_from_score(0.64), 99.951, 1e-3));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(signed(-0.0), "+0.0");
        assert_eq!(signed(-0.04), "+0.0");
        assert_eq!(signed(-0.06), "-0.1");
        assert!(close(elo_from_score(0.25), -190.8485, 1e-3));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert!(close(score_from_elo(190.8485), 0.75, 1e-6));
    }

    #[test]
    fn elo_interval_of_a_worked_example() {
        // 60 wins, 20 draws, 20 losses. Worked by hand:
        //   s = (60 + 10) / 100 = 0.7
        //   var = (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100
        //       = (5.4 + 0.8 + 9.8) / 100 = 0.16, so sd = 0.4
        //   stderr = 0.4 / sqrt(100) = 0.04; 1.96 * 0.04 = 0.0784
        //   Elo(0.7) = -400 log10(3/7) = 147.19
        //   Elo(0.7 - 0.0784 = 0.6216) = -400 log10(0.6087) = 86.23
        //   Elo(0.7 + 0.0784 = 0.7784) = -400 log10(0.2847) = 218.25
        let est = EloEstimate::from_tally(&tally(60, 20, 20)).unwrap();
        assert!(close(est.elo, 147.19, 0.01), "{est:?}");
        assert!(close(est.low, 86.23, 0.01), "{est:?}");
        assert!(close(est.high, 218.25, 0.01), "{est:?}");
        assert!(close(est.margin(), 66.01, 0.01), "{est:?}");
        assert_eq!(est.to_string(), "+147.2 +/- 66.0");
        assert!(EloEstimate::from_tally(&Tally::default()).is_none());
        // All wins: the estimate is unbounded, and printed as such.
        let all = EloEstimate::from_tally(&tally(3, 0, 0)).unwrap();
        assert_eq!(signed(all.elo), "+inf");
    }

    #[test]
    fn elo_interval_by_pairs_of_a_worked_example() {
        // 10 pairs: 1 at 0 points, 1 at 1/2, 3 at 1, 2 at 3/2, 3 at 2.
        // Pair scores 0, .25, .5, .75, 1: s = (0 + .25 + 1.5 + 1.5 + 3)
        // / 10 = 0.625; deviations -.625, -.375, -.125, .125, .375:
        // var = (.390625 + .140625 + 3 * .015625 + 2 * .015625 + 3 *
        // .140625) / 10 = 1.03125 / 10 = 0.103125; stderr =
        // sqrt(0.0103125) = 0.101551; 1.96 * it = 0.199036, so the score
        // lies within 0.425964 to 0.824036: Elo(0.625) = 88.74,
        // Elo(0.425964) = -400 log10(1.347616) = -51.83,
        // Elo(0.824036) = -400 log10(0.213539) = 268.21.
        let mut pairs = PairTally::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.0, 1.5, 1.5, 2.0, 2.0, 2.0] {
            pairs.add(points);
        }
        assert_eq!(pairs.counts, [1, 1, 3, 2, 3]);
        assert_eq!(pairs.to_string(), "0: 1, 1/2: 1, 1: 3, 3/2: 2, 2: 3");
        let est = EloEstimate::from_pairs(&pairs).unwrap();
        assert!(close(est.elo, 88.74, 0.01), "{est:?}");
        assert!(close(est.low, -51.83, 0.01), "{est:?}");
        assert!(close(est.high, 268.21, 0.01), "{est:?}");
        // No pairs, or pairs that all scored alike: no spread to measure.
        assert!(EloEstimate::from_pairs(&PairTally::default()).is_none());
        let mut alike = PairTally::default();
        alike.add(1.0);
        alike.add(1.0);
        assert!(EloEstimate::from_pairs(&alike).is_none());
    }

    #[test]
    fn a_record_of_one_result_has_a_wilson_interval() {
        // 20 losses. Wilson: z^2 = 3.8415, centre = (0 + 3.8415/40) /
        // (1 + 3.8415/20) = 0.08057, half = 1.96 / 1.19207 *
        // sqrt(3.8415/1600) = 0.08057: the score is within 0 to 0.16113,
        // Elo(0.16113) = -400 log10(0.83887/0.16113) = -286.6.
        let lost = EloEstimate::from_tally(&tally(0, 0, 20)).unwrap();
        assert!(lost.alike);
        assert_eq!(signed(lost.elo), "-inf");
        assert_eq!(signed(lost.low), "-inf");
        assert!(close(lost.high, -286.6, 0.1), "{lost:?}");
        let won = EloEstimate::from_tally(&tally(20, 0, 0)).unwrap();
        assert!(close(won.low, 286.6, 0.1), "{won:?}");
        assert_eq!(signed(won.high), "+inf");
        // Every sweep's interval reaches its estimate, whatever the count
        // (at 10 and 30 the sum once rounded short of 1).
        for n in 1..=200 {
            let won = EloEstimate::from_tally(&tally(n, 0, 0)).unwrap();
            assert_eq!(signed(won.high), "+inf", "{n} wins: {won:?}");
            assert_eq!(won.to_string(), "+inf +/- inf", "{n} wins");
            let lost = EloEstimate::from_tally(&tally(0, 0, n)).unwrap();
            assert_eq!(signed(lost.low), "-inf", "{n} losses: {lost:?}");
        }
        // All draws: even, with a finite interval either side.
        let drawn = EloEstimate::from_tally(&tally(0, 10, 0)).unwrap();
        assert_eq!(signed(drawn.elo), "+0.0");
        assert!(drawn.low < -100.0 && drawn.high > 100.0, "{drawn:?}");
        assert!(close(drawn.low, -drawn.high, 1e-9), "{drawn:?}");
        // Mixed records keep the per-game standard error.
        assert!(!EloEstimate::from_tally(&tally(1, 0, 19)).unwrap().alike);
    }

    #[test]
    fn sprt_bounds() {
        // ln(0.05 / 0.95) = -ln(19) = -2.944439
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Games,
        };
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_439, 1e-6));
        assert!(close(upper, 2.944_439, 1e-6));
        let asymmetric = Sprt {
            alpha: 0.05,
            beta: 0.1,
            ..sprt
        };
        // ln(0.1 / 0.95) = -2.251292, ln(0.9 / 0.05) = ln(18) = 2.890372
        let (lower, upper) = asymmetric.bounds();
        assert!(close(lower, -2.251_292, 1e-6));
        assert!(close(upper, 2.890_372, 1e-6));
    }

    #[test]
    fn sprt_llr_of_worked_examples() {
        // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1 / (1 + 10^(-10/400))
        // = 1 / 1.944061 = 0.514387.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Games,
        };
        // The expected values of the exact ratio come from a separate
        // computation (a short Python script solving the same constrained
        // maximum by bisection), not from this code.
        // 60-20-20: exact 1.38982.
        let llr = sprt.llr(&tally(60, 20, 20));
        assert!(close(llr, 1.389_82, 1e-4), "{llr}");
        // The normal approximation by hand: s = 0.7, var = 0.16, so
        // LLR = 100 * 0.014387 * (1.4 - 1.014387) / 0.32 = 1.7337. Far from
        // the hypotheses (s = 0.7 against 0.5 and 0.514) it overshoots.
        assert!(close(
            sprt.llr_approximation(&tally(60, 20, 20)),
            1.7337,
            1e-3
        ));
        // 25 wins, 50 draws, 20 losses: s = 50 / 95 = 0.526316,
        // var = (25 * 0.473684^2 + 50 * 0.026316^2 + 20 * 0.526316^2) / 95
        //     = 0.117729, so the approximation is
        // 95 * 0.014387 * 0.038244 / 0.235457 = 0.2220; the exact ratio is
        // 0.22104. Near the hypotheses the two agree within half a percent.
        let llr = sprt.llr(&tally(25, 50, 20));
        assert!(close(llr, 0.221_04, 1e-4), "{llr}");
        assert!(close(
            sprt.llr_approximation(&tally(25, 50, 20)),
            0.2220,
            1e-3
        ));
        // Ten times the games, ten times the ratio.
        assert!(close(sprt.llr(&tally(600, 200, 200)), 13.8982, 1e-3));
        assert!(close(sprt.llr(&tally(200, 200, 600)), -14.8819, 1e-3));
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn sprt_llr_by_pairs_of_worked_examples() {
        // Expected values from a separate computation (a short Python
        // script solving the constrained maximum over the five pair
        // outcomes, scores 0, 1/4, 1/2, 3/4, 1, by bisection), not from
        // this code.
        let sprt = Sprt::parse(
            &[
                "elo0=0",
                "elo1=10",
                "alpha=0.05",
                "beta=0.05",
                "model=pairs",
            ]
            .map(String::from),
        )
        .unwrap();
        let pairs = |counts: [u64; 5]| PairTally { counts };
        let llr = sprt.llr_pairs(&pairs([1, 2, 10, 5, 2]));
        assert!(close(llr, 0.259_514, 1e-4), "{llr}");
        // Ten times the pairs, ten times the ratio.
        let llr = sprt.llr_pairs(&pairs([10, 20, 100, 50, 20]));
        assert!(close(llr, 2.595_14, 1e-3), "{llr}");
        let llr = sprt.llr_pairs(&pairs([2, 5, 10, 2, 1]));
        assert!(close(llr, -0.314_042, 1e-4), "{llr}");
        assert_eq!(sprt.llr_pairs(&PairTally::default()), 0.0);
        // The model chooses what is counted.
        let games = tally(60, 20, 20);
        let some = pairs([1, 2, 10, 5, 2]);
        assert_eq!(sprt.llr_by_model(&games, &some), sprt.llr_pairs(&some));
        let by_games = Sprt {
            model: SprtModel::Games,
            ..sprt
        };
        assert_eq!(by_games.llr_by_model(&games, &some), by_games.llr(&games));
        // Zero counts stand in as 0.001 here too: 1 pair of 1 point, 3 of
        // 3/2, 6 of 2 against elo1 = 50.
        let wide = Sprt { elo1: 50.0, ..sprt };
        let llr = wide.llr_pairs(&pairs([0, 0, 1, 3, 6]));
        assert!(close(llr, 1.335_81, 1e-3), "{llr}");
    }

    #[test]
    fn sprt_of_a_one_sided_record() {
        // Only wins: the most likely probabilities with mean s put as much
        // as they can on wins, q_win = s, the rest on losses; so the ratio
        // is n ln(s1 / s0). With elo1 = 50, s1 = 0.571463 and
        // ln(0.571463 / 0.5) = 0.133592 a win: 22 wins give 2.939 (below
        // ln 19 = 2.944), 23 wins 3.073 (above). The 0.001 stand-ins for
        // the empty counts move this in the fifth decimal.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Games,
        };
        assert!(close(sprt.llr(&tally(1, 0, 0)), 0.133_57, 1e-4));
        assert!(close(sprt.llr(&tally(22, 0, 0)), 2.939_00, 1e-4));
        assert_eq!(sprt.decide(&tally(22, 0, 0)), SprtDecision::Continue);
        assert_eq!(sprt.decide(&tally(23, 0, 0)), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(&tally(0, 0, 23)), SprtDecision::AcceptH0);
    }

    #[test]
    fn sprt_arguments() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let sprt = Sprt::parse(&words("elo1=5 elo0=-1.5 beta=0.1 alpha=0.05")).unwrap();
        assert_eq!(
            sprt,
            Sprt {
                elo0: -1.5,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.1,
                model: SprtModel::Games,
            }
        );
        let pairs = Sprt::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.05 model=pairs")).unwrap();
        assert_eq!(pairs.model, SprtModel::Pairs);
        assert_eq!(
            pairs.to_string(),
            "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=pairs"
        );
        // A test by games is written as before there was a choice.
        assert_eq!(sprt.to_string(), "elo0=-1.5 elo1=5 alpha=0.05 beta=0.1");
        for (bad, why) in [
            ("elo0=0 elo1=10 alpha=0.05", "beta is missing"),
            ("elo0=0 elo1=10 alpha=0.05 beta=x", "not a number"),
            ("elo0=10 elo1=0 alpha=0.05 beta=0.05", "greater than"),
            ("elo0=0 elo1=10 alpha=0 beta=0.05", "between"),
            ("elo0=0 elo1=10 alpha=0.05 beta=0.05 gamma=1", "unknown key"),
            ("elo0", "key=value"),
            (
                "elo0=0 elo1=10 alpha=0.05 beta=0.05 model=pentanomial",
                "neither",
            ),
        ] {
            let err = Sprt::parse(&words(bad)).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
