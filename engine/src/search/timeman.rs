//! Time management: how much of the clock one move may use, and whether the
//! next iteration is worth starting.
//!
//! Two limits come out of the clock. The soft limit is the time the move
//! should normally take; the search does not start an iteration after it,
//! nor one that it predicts cannot finish before the hard limit. The hard
//! limit aborts the search mid-iteration and is what keeps plyd from ever
//! losing on time: it never exceeds three quarters of what is left on the
//! clock after the move overhead. While the best move keeps changing, the
//! soft limit stretches (up to the hard limit); when it stays put, the
//! search stops a little earlier.

use std::time::Duration;

/// Moves assumed left in the game when the GUI sends no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Of a game whose plugin solves its endgame and says how many plies are
/// left at most (Othello: its empty squares), the moves at the end that
/// take little of the clock: the side's last 12, 24 plies. In Othello
/// games of 60 s the last 11 moves took 0 to 4 s in all (the solver takes
/// over at 18 to 24 empty squares); with 8 set aside, games of 6 s to 60 s
/// ended with 15% to 30% of the clock unused.
const SOLVED_TAIL_MOVES: u32 = 12;
/// The fewest moves to go assumed from the plies left, so that a game that
/// runs on past the solver's usual start still keeps time for its end.
const ENDGAME_MIN_MOVES_TO_GO: u32 = 4;

/// Moves to go for the time manager when the GUI sends no `movestogo` and
/// the game has `plies_left` plies at most: the side's share of them, less
/// the moves the solver answers at the end. An Othello game with 56 empty
/// squares counts 16 moves to go, where the default 30 left about half the
/// clock unused at the end of the game.
pub fn endgame_moves_to_go(plies_left: u32) -> u32 {
    (plies_left.div_ceil(2))
        .saturating_sub(SOLVED_TAIL_MOVES)
        .clamp(ENDGAME_MIN_MOVES_TO_GO, DEFAULT_MOVES_TO_GO as u32)
}

/// The increment counts in full (three quarters of it) while the clock
/// holds at least this many increments; below, in proportion. A short clock
/// with an increment would otherwise run down to nothing: moves that take
/// a little more than the increment give back, move after move, until a
/// few milliseconds of scheduling delay lose the game.
const INC_FULL_AT: u64 = 20;

/// With `movestogo`, the most one move may take, in shares of what is left
/// for the moves to go: 3/2.
const HARD_SHARES_NUM: u64 = 3;
const HARD_SHARES_DEN: u64 = 2;

/// The least a move is planned for, in microseconds, where the clock
/// leaves twice that usable; on a clock shorter than that, half of what
/// it leaves. A budget that did not shrink below a millisecond took a
/// millisecond and a little more from a clock of one, past its end.
const LEAST_SOFT_US: u64 = 1000;
/// The least a clock is planned on, in microseconds, at 0 or below.
pub const LEAST_USABLE_US: u64 = 100;
/// The longest clock or increment planned on, in microseconds (about 35
/// years): a longer one is planned as this long, so that no product of
/// the plan overflows (a clock of 2^64 microseconds and a little more had
/// wrapped round to nothing and was answered at once).
const LONGEST_US: u64 = 1 << 50;
/// In sudden death (no increment, no `movestogo`), the clock kept back,
/// in `Move Overhead`s, for a game that goes on and on: planned as a
/// share of what is left, the clock shrinks geometrically until every
/// move costs what answering costs whatever its budget (a few tenths of
/// a millisecond from the arbiter's side), and a long enough game ran it
/// out. 50 ms at the default overhead, and no less at a smaller one: the
/// reserve is for plyd's own cost of answering, which a `Move Overhead`
/// of 0 does not remove (with none, Othello at 1 s lost every game on
/// time, its solver's last moves planned on what the reserve keeps).
const SUDDEN_DEATH_RESERVE_OVERHEADS: u64 = 5;
/// The least sudden-death reserve, in microseconds.
const SUDDEN_DEATH_LEAST_RESERVE_US: u64 = 50_000;
/// In sudden death, a move plans on this share of the clock at least,
/// the reserve included: what is kept back is spent a hundredth at a
/// time (half a millisecond a move on a clock of 50 ms) rather than a
/// searched ply a move, the least budget.
const SUDDEN_DEATH_TAIL_MOVES: u64 = 100;

/// The soft and hard limits for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start an iteration after this.
    pub soft: Duration,
    /// Abort the search at this.
    pub hard: Duration,
}

/// The budget for a move with `time` ms left, `inc` ms added per move and
/// `moves_to_go` moves until the next time control (if the GUI says).
pub fn clock_budget(
    time: i64,
    inc: i64,
    moves_to_go: Option<u32>,
    overhead: Duration,
) -> TimeBudget {
    // In microseconds: a clock of a few milliseconds is planned in
    // fractions of one.
    let micros = |ms: i64| (ms.max(0) as u64).saturating_mul(1000).min(LONGEST_US);
    let time = micros(time);
    let inc = micros(inc);
    let overhead = overhead.as_micros() as u64;
    // Never plan to use more than what is left after the overhead (and, in
    // sudden death, the reserve, which a hundredth of the clock a move
    // spends below); otherwise a clock shorter than the overhead plays on
    // half of itself, up to a millisecond.
    let reserve = if inc == 0 && moves_to_go.is_none() {
        (overhead * SUDDEN_DEATH_RESERVE_OVERHEADS).max(SUDDEN_DEATH_LEAST_RESERVE_US)
    } else {
        0
    };
    let usable = if reserve > 0 {
        time.saturating_sub(overhead + reserve)
    } else {
        time.saturating_sub(overhead).max((time / 2).min(1000))
    }
    .max(LEAST_USABLE_US);
    let (moves_to_go, pool, hard_cap) = match moves_to_go {
        None => (DEFAULT_MOVES_TO_GO, usable, u64::MAX),
        Some(m) => {
            // A clock that must last `m` more moves keeps the overhead of
            // each of them aside, and no move may take much more than its
            // share: were every move to run to a hard limit of four shares
            // (iterations in a wide game grow tenfold and more, so many
            // do), the clock would shrink like the fourth power of the
            // moves left and be gone before the control.
            let m = u64::from(m).clamp(1, 60);
            let pool = time.saturating_sub(overhead * (m + 1)).max(1000);
            (m, pool, pool * HARD_SHARES_NUM / (HARD_SHARES_DEN * m))
        }
    };
    let inc_share = (inc * 3 / 4).min(usable * 3 / (4 * INC_FULL_AT));
    let share = pool / moves_to_go + inc_share;
    let mut soft = share.min(usable / 2).max(LEAST_SOFT_US.min(usable / 2));
    let mut hard = (soft * 4).min(usable * 3 / 4).min(hard_cap).max(soft);
    if reserve > 0 && time / SUDDEN_DEATH_TAIL_MOVES > soft {
        soft = time / SUDDEN_DEATH_TAIL_MOVES;
        hard = hard.max(soft * 2);
    }
    TimeBudget {
        soft: Duration::from_micros(soft),
        hard: Duration::from_micros(hard),
    }
}

/// What the iterative deepening loop tells the time manager after each
/// finished iteration.
#[derive(Debug, Default)]
pub struct IterationClock {
    /// Time spent on each finished iteration, newest last.
    durations: Vec<Duration>,
    /// Decaying count of best-move changes between iterations.
    instability: f64,
    /// The best score of each finished iteration, newest last.
    scores: Vec<i32>,
    /// A pawn in the evaluation's units, the measure of a falling score;
    /// 0: the score is not looked at.
    pawn: i32,
}

/// How much more time a score that fell by one pawn gets.
const FALL_PER_PAWN: f64 = 0.3;
/// The least and most a falling (or rising) score scales the soft limit.
const FALL_RANGE: (f64, f64) = (0.85, 1.6);

impl IterationClock {
    /// A clock that also stretches the soft limit while the score falls,
    /// measured in `pawn`s of the evaluation, as Stockfish's does.
    pub fn with_pawn(pawn: i32) -> Self {
        IterationClock {
            pawn: pawn.max(0),
            ..IterationClock::default()
        }
    }

    /// Record a finished iteration that took `took`; `best_changed` says
    /// whether it changed the best move, `score` is its best score.
    pub fn finished(&mut self, took: Duration, best_changed: bool, score: i32) {
        self.durations.push(took);
        self.instability = self.instability * 0.5 + if best_changed { 1.0 } else { 0.0 };
        self.scores.push(score);
    }

    /// How a falling score scales the soft limit: the last iteration's
    /// score against the mean of the (up to) three before it, `1 +
    /// FALL_PER_PAWN` per pawn lost, within [`FALL_RANGE`]. A decided
    /// score (a mate found or feared) leaves it at 1.
    fn falling(&self) -> f64 {
        let n = self.scores.len();
        if n < 2 {
            return 1.0;
        }
        let last = self.scores[n - 1];
        let before = &self.scores[n.saturating_sub(4)..n - 1];
        if self.pawn == 0
            || super::score::is_decisive(last)
            || before.iter().any(|&s| super::score::is_decisive(s))
        {
            return 1.0;
        }
        let mean = before.iter().map(|&s| f64::from(s)).sum::<f64>() / before.len() as f64;
        let drop = (mean - f64::from(last)) / f64::from(self.pawn);
        (1.0 + FALL_PER_PAWN * drop).clamp(FALL_RANGE.0, FALL_RANGE.1)
    }

    /// Ratio between the last two iterations' durations: a guess of how
    /// much longer the next one will take than the last.
    fn growth(&self) -> f64 {
        match self.durations.as_slice() {
            [.., a, b] if a.as_micros() > 200 => {
                (b.as_secs_f64() / a.as_secs_f64()).clamp(1.5, 8.0)
            }
            _ => 3.0,
        }
    }

    /// The soft limit after stretching for instability and a falling
    /// score.
    pub fn stretched_soft(&self, budget: TimeBudget) -> Duration {
        let factor = (0.8 + self.instability * 0.7).clamp(0.8, 2.5) * self.falling();
        budget.soft.mul_f64(factor).min(budget.hard)
    }

    /// Whether to start another iteration, `thinking` into the move (see
    /// [`SearchControl::thinking_elapsed`]) and `elapsed` on its clock,
    /// under a clock budget: the soft limit bounds the first, the hard
    /// limit the second.
    ///
    /// [`SearchControl::thinking_elapsed`]: super::SearchControl::thinking_elapsed
    pub fn start_next(&self, thinking: Duration, elapsed: Duration, budget: TimeBudget) -> bool {
        if thinking >= self.stretched_soft(budget) {
            return false;
        }
        let Some(&last) = self.durations.last() else {
            return true;
        };
        // Starting an iteration that cannot finish wastes the time: its
        // partial result is rarely better than the finished one.
        elapsed + last.mul_f64(self.growth()) <= budget.hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_plans_past_the_clock() {
        for time in [1, 5, 20, 100, 1_000, 60_000, 3_600_000] {
            for inc in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(40)] {
                    let b = clock_budget(time, inc, mtg, ms(10));
                    assert!(b.soft <= b.hard);
                    let left = (time as u64).saturating_sub(10).max(1);
                    assert!(
                        b.hard.as_millis() as u64 <= left.max(1),
                        "{time} {inc} {mtg:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_clock_of_a_few_milliseconds_keeps_a_quarter() {
        // A budget with a floor of a whole millisecond took all of a
        // 1-ms clock and more.
        for time in 1..=40 {
            for inc in [0, 1, 10] {
                for mtg in [None, Some(1), Some(40)] {
                    for overhead in [0, 10, 30] {
                        let b = clock_budget(time, inc, mtg, ms(overhead));
                        assert!(b.soft > Duration::ZERO, "{time} {inc} {mtg:?} {overhead}");
                        assert!(
                            b.hard.as_micros() as u64 * 4 <= time as u64 * 3000,
                            "{time} {inc} {mtg:?} {overhead}: {b:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sudden_death_keeps_its_reserve_at_any_overhead() {
        // With no overhead the reserve was gone: Othello at 1 s lost
        // every game on time. A move may dip into it by the tail's
        // share alone (a fiftieth of the clock).
        for overhead in [0, 1, 5, 10] {
            for time in (51..=3000).step_by(7) {
                let b = clock_budget(time, 0, None, ms(overhead));
                let left = (time as u64 * 1000).saturating_sub(b.hard.as_micros() as u64);
                assert!(
                    left + time as u64 * 1000 / 50 >= SUDDEN_DEATH_LEAST_RESERVE_US,
                    "{time} {overhead}: {b:?}"
                );
            }
        }
    }

    #[test]
    fn a_clock_too_long_to_count_in_microseconds_is_a_long_clock() {
        // 18,446,744,073,709,552 ms is just past 2^64 microseconds.
        let hour = Duration::from_secs(3600);
        for time in [18_446_744_073_709_552, i64::MAX] {
            for inc in [0, i64::MAX] {
                for mtg in [None, Some(1), Some(40)] {
                    let b = clock_budget(time, inc, mtg, ms(10));
                    assert!(b.soft >= hour, "{time} {inc} {mtg:?}: {b:?}");
                    assert!(b.hard >= b.soft, "{time} {inc} {mtg:?}: {b:?}");
                }
            }
        }
    }

    #[test]
    fn last_move_before_the_control_may_use_much_of_the_clock() {
        let b = clock_budget(10_000, 0, Some(1), ms(0));
        assert_eq!(b.soft, ms(5_000));
        assert_eq!(b.hard, ms(7_500));
        // Sudden death keeps its reserve of 50 ms with no overhead too.
        let b = clock_budget(10_000, 0, None, ms(0));
        assert_eq!(b.soft, Duration::from_micros(331_666));
    }

    /// Play `moves` moves on a clock of `base` ms plus `inc`, each taking
    /// `took(budget)` plus `delay` ms; with a `period`, `movestogo` counts
    /// down the moves of one period (`moves` is at most `period`). The
    /// lowest the clock falls before a move.
    fn lowest_clock(
        base: i64,
        inc: i64,
        moves: u32,
        period: Option<u32>,
        delay: i64,
        took: fn(TimeBudget) -> i64,
    ) -> i64 {
        let mut clock = base;
        let mut lowest = clock;
        for played in 0..moves {
            lowest = lowest.min(clock);
            let budget = clock_budget(clock, inc, period.map(|p| p - played), ms(10));
            clock += inc - took(budget) - delay;
        }
        lowest
    }

    #[test]
    fn a_short_clock_with_an_increment_does_not_run_down() {
        // Moves that stop between the soft and the hard limit, and moves
        // that all run to the hard limit, 3 ms late each.
        let typical = |b: TimeBudget| (b.soft.as_millis() * 3 / 2).min(b.hard.as_millis()) as i64;
        let longest = |b: TimeBudget| b.hard.as_millis() as i64;
        for (base, inc) in [(100, 10), (1_000, 10), (50, 10), (10_000, 100)] {
            let low = lowest_clock(base, inc, 300, None, 3, typical);
            assert!(low >= base.min(6 * inc), "{base}+{inc}: {low}");
            let low = lowest_clock(base, inc, 300, None, 3, longest);
            assert!(low >= base.min(3 * inc), "{base}+{inc}: {low}");
        }
    }

    /// Moves played in sudden death on `base` ms before the clock runs
    /// out, each taking `took(budget)` plus `cost` microseconds, told the
    /// clock in whole milliseconds as arbiters do.
    fn sudden_death_moves(base: i64, cost: i64, took: fn(TimeBudget) -> i64) -> u32 {
        let mut clock_us = base * 1000;
        let mut moves = 0;
        while clock_us > 0 && moves < 1000 {
            let budget = clock_budget(clock_us / 1000, 0, None, ms(10));
            clock_us -= took(budget) + cost;
            moves += 1;
        }
        moves
    }

    #[test]
    fn a_sudden_death_clock_lasts_a_long_game() {
        // Moves that stop between the soft and the hard limit, and moves
        // that all run to the hard limit, each 0.5 ms more from the
        // arbiter's side. Without the reserve the clock lasted 88 and 41
        // moves here; in xiangqi games at 1 s a build without it lost on
        // time after 80 to 118 moves (plies 160 to 235).
        let typical = |b: TimeBudget| (b.soft.as_micros() * 3 / 2).min(b.hard.as_micros()) as i64;
        let longest = |b: TimeBudget| b.hard.as_micros() as i64;
        assert!(sudden_death_moves(1_000, 500, typical) >= 140);
        assert!(sudden_death_moves(1_000, 500, longest) >= 80);
        // A long clock keeps back no more than the reserve.
        let b = clock_budget(60_000, 0, None, ms(10));
        assert_eq!(b.soft, Duration::from_micros((60_000_000 - 60_000) / 30));
    }

    #[test]
    fn a_repeating_control_lasts_to_its_last_move() {
        // Every move runs to its hard limit (an Amazons search whose next
        // iteration is ten times the last), and arrives as late as the move
        // overhead allows for; from 5 s on, 50% later too.
        let longest = |b: TimeBudget| b.hard.as_millis() as i64;
        for (base, moves) in [(5_000, 40), (1_000, 40), (60_000, 40), (2_000, 10)] {
            let delays: &[i64] = if base >= 5_000 {
                &[0, 10, 15]
            } else {
                &[0, 10]
            };
            for &delay in delays {
                let low = lowest_clock(base, 0, moves, Some(moves), delay, longest);
                assert!(low >= 20, "{moves}/{base} +{delay}: {low}");
            }
        }
        // The first move of 40 in 5 s may take a little over 3/2 of its
        // share.
        let first = clock_budget(5_000, 0, Some(40), ms(10));
        assert_eq!(
            first,
            TimeBudget {
                soft: Duration::from_micros(114_750),
                hard: Duration::from_micros(172_125)
            }
        );
    }

    #[test]
    fn increment_adds_time() {
        let without = clock_budget(10_000, 0, None, ms(0));
        let with = clock_budget(10_000, 1_000, None, ms(0));
        assert!(with.soft > without.soft);
    }

    #[test]
    fn instability_stretches_the_soft_limit() {
        let budget = TimeBudget {
            soft: ms(100),
            hard: ms(400),
        };
        let mut steady = IterationClock::default();
        let mut unsteady = IterationClock::default();
        for _ in 0..4 {
            steady.finished(ms(1), false, 0);
            unsteady.finished(ms(1), true, 0);
        }
        assert!(steady.stretched_soft(budget) < budget.soft);
        assert!(unsteady.stretched_soft(budget) > budget.soft);
        assert!(unsteady.stretched_soft(budget) <= budget.hard);
    }

    #[test]
    fn a_falling_score_stretches_the_soft_limit() {
        let budget = TimeBudget {
            soft: ms(100),
            hard: ms(400),
        };
        let run = |scores: &[i32], pawn: i32| {
            let mut clock = IterationClock::with_pawn(pawn);
            for &score in scores {
                clock.finished(ms(1), false, score);
            }
            clock.stretched_soft(budget)
        };
        let steady = run(&[50, 50, 50, 50], 100);
        // Two pawns lost against the mean of the three before: 1.6 times.
        let falling = run(&[50, 50, 50, -150], 100);
        assert_eq!(falling, steady.mul_f64(1.6));
        // A rising score gives a little back, no more than the range.
        let rising = run(&[50, 50, 50, 550], 100);
        assert_eq!(rising, steady.mul_f64(0.85));
        // Without a pawn, or with a mate in view, the score is not read.
        assert_eq!(run(&[50, 50, 50, -150], 0), steady);
        let mate = super::super::score::win_in(5);
        assert_eq!(run(&[50, 50, 50, mate], 100), steady);
        assert_eq!(run(&[-150], 100), steady);
    }

    #[test]
    fn does_not_start_an_iteration_that_cannot_finish() {
        let budget = TimeBudget {
            soft: ms(100),
            hard: ms(200),
        };
        let mut clock = IterationClock::default();
        assert!(clock.start_next(ms(0), ms(0), budget));
        clock.finished(ms(10), false, 0);
        clock.finished(ms(40), false, 0);
        // Next one is expected to take about 160 ms: 30 + 160 <= 200 is fine,
        // 50 + 160 is not.
        assert!(clock.start_next(ms(30), ms(30), budget));
        assert!(!clock.start_next(ms(50), ms(50), budget));
        assert!(!clock.start_next(ms(100), ms(100), budget));
        // The soft limit bounds the thinking (a search that pondered 90 ms
        // stops 10 ms into its clock), the hard limit the clock's time.
        assert!(!clock.start_next(ms(90), ms(10), budget));
        assert!(clock.start_next(ms(30), ms(10), budget));
        assert!(!clock.start_next(ms(30), ms(50), budget));
    }
}
