//! What a GUI's clock shows a move cost beyond what plyd measured: the
//! time between the GUI's sending `go` and plyd's reading it, and between
//! plyd's writing `bestmove` and the GUI's reading it, which plyd cannot
//! see. On an idle machine it is a fraction of a millisecond, which `Move
//! Overhead` covers; on a starved one (an engine pinned to a busy core, at
//! low priority, a host throttling it) it was tens of milliseconds a move,
//! and fast games were lost on time with the default overhead of 10 ms.
//!
//! Each clocked `go` is compared with the side's last one: the clock then,
//! less what plyd took to answer, plus the increment, is what the clock
//! should say now; what it says less is the lag. The most seen over the
//! last [`KEPT`] moves is kept back beside the overhead ([`ClockLag::keep`]).

use std::collections::VecDeque;
use std::time::Duration;

/// The moves whose lags count.
pub(crate) const KEPT: usize = 8;

/// The largest lag believed: more is a clock of another kind (a new
/// period given back less than it was, a GUI's own adjustments). Nor is
/// a lag of more than half the clock expected: that is a clock set anew
/// (GTP's `time_settings` 5 s then 1 s mid-game took 3.8 s for lost, kept
/// 4.7 s of each move back, and the next eight moves were played at once).
const MOST: Duration = Duration::from_secs(5);

/// How far past twice what was expected a clock with no increment must
/// rise to be said: a new period given back comes with `movestogo`.
const RISE_SAID_FROM: Duration = Duration::from_secs(1);

/// One clocked `go`.
#[derive(Debug, Clone, Copy)]
struct Clocked {
    side: u32,
    time: Duration,
    inc: Duration,
    /// From the clock's start to the answer's write; `None` until the
    /// answer went out, and for an answer no move was played from (a
    /// ponder search stopped).
    used: Option<Duration>,
    /// The plies of the position it was for, where the GUI's `position`
    /// was read.
    plies: Option<usize>,
}

/// The lags seen on the last moves of the game.
#[derive(Debug, Default)]
pub(crate) struct ClockLag {
    /// Each side's last clocked `go` (an engine asked for both sides'
    /// moves, as a self-play script asks one process, compares each
    /// side's clock with its own).
    last: [Option<Clocked>; 2],
    /// Which of `last` the latest `go` was.
    latest: Option<usize>,
    /// The most kept back that was said on stderr this game.
    said: Duration,
    seen: VecDeque<Duration>,
    /// The last position the GUI sent: its start's hash, how many moves
    /// followed, and their hash.
    line: Option<(u64, usize, u64)>,
    /// The last `go`'s clock where it rose far past what was expected
    /// with no increment: what was expected, and what came.
    pub(crate) rose: Option<(Duration, Duration)>,
}

fn hash_of(value: &(impl std::hash::Hash + ?Sized)) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(value)
}

impl ClockLag {
    /// A new game: nothing learned carries over.
    pub(crate) fn new_game(&mut self) {
        *self = Self::default();
    }

    /// A position from the GUI: `start` (its text, or `startpos`) with
    /// `moves`. One that does not go on from the last (another start, a
    /// move list that is not the last one's with more after it) is
    /// another game, whose clock is not compared with this one's.
    pub(crate) fn position(&mut self, start: &str, moves: &[String]) {
        let start = hash_of(start);
        let goes_on = self.line.is_some_and(|(last_start, len, last_moves)| {
            last_start == start && moves.len() >= len && hash_of(&moves[..len]) == last_moves
        });
        if !goes_on {
            self.new_game();
        }
        self.line = Some((start, moves.len(), hash_of(moves)));
    }

    /// A `go` for `side` with its clock `time` and increment `inc` (in
    /// milliseconds, as `go` gives them; `time` `None`: no clock, which
    /// ends the comparison). Returns the lag this clock shows, where it
    /// shows one.
    pub(crate) fn on_go(
        &mut self,
        side: u32,
        time: Option<i64>,
        inc: Option<i64>,
    ) -> Option<Duration> {
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        self.rose = None;
        let Some(time) = time.map(ms) else {
            self.last = [None, None];
            return None;
        };
        let inc = inc.map_or(Duration::ZERO, ms);
        let slot = side.min(1) as usize;
        // The same side's last clock, for a position before this one: the
        // same position searched again with another clock (a tuner's
        // harness, an analysis) is no move of a game.
        let plies = self.line.map(|(_, len, _)| len);
        let last = self.last[slot].filter(|last| {
            last.side == side
                && last
                    .plies
                    .zip(plies)
                    .is_none_or(|(before, now)| before < now)
        });
        let expected = last.and_then(|last| (last.time + last.inc).checked_sub(last.used?));
        let lag = expected.and_then(|expected| {
            expected
                .checked_sub(time)
                .filter(|lag| !lag.is_zero() && *lag <= MOST.min(expected / 2))
        });
        // A clock with no increment that rose far past what the last one
        // left (410 s where 40 s were left: a digit too many, typed at a
        // board): planned on as given, but said.
        self.rose = expected
            .filter(|&expected| inc.is_zero() && time > expected * 2 + RISE_SAID_FROM)
            .map(|expected| (expected, time));
        if last.is_some_and(|last| last.used.is_some()) {
            self.seen.push_back(lag.unwrap_or(Duration::ZERO));
            while self.seen.len() > KEPT {
                self.seen.pop_front();
            }
        }
        self.last[slot] = Some(Clocked {
            side,
            time,
            inc,
            used: None,
            plies,
        });
        self.latest = Some(slot);
        lag
    }

    /// The last clocked `go`'s answer went out `used` after its clock
    /// started (`None`: no move was played from it).
    pub(crate) fn answered(&mut self, used: Option<Duration>) {
        if let Some(last) = self.latest.and_then(|slot| self.last[slot].as_mut()) {
            last.used = used;
        }
    }

    /// Whether `kept` is more than any kept back said before this game
    /// (noting it as said): the warning is for a rise, not every move.
    pub(crate) fn rises_to(&mut self, kept: Duration) -> bool {
        let rises = kept > self.said;
        self.said = self.said.max(kept);
        rises
    }

    /// What to keep back of the clock for a move: `overhead`, or the most
    /// lag seen lately and a quarter more, where that is more.
    pub(crate) fn keep(&self, overhead: Duration) -> Duration {
        let most = self.seen.iter().max().copied().unwrap_or_default();
        overhead.max(most + most / 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn a_clock_that_lost_more_than_plyd_measured_is_kept_back() {
        let mut lag = ClockLag::default();
        let overhead = ms(10);
        assert_eq!(lag.on_go(0, Some(1000), Some(10)), None);
        lag.answered(Some(ms(100)));
        // 1000 + 10 - 100 = 910 expected; the GUI says 850: 60 lost.
        assert_eq!(lag.on_go(0, Some(850), Some(10)), Some(ms(60)));
        assert_eq!(lag.keep(overhead), ms(75));
        // A move whose clock agrees counts as no lag; the most of the last
        // eight is kept until it is eight moves old.
        let mut clock = 850;
        for _ in 0..KEPT - 1 {
            lag.answered(Some(ms(40)));
            clock = clock + 10 - 40;
            assert_eq!(lag.on_go(0, Some(clock), Some(10)), None);
            assert_eq!(lag.keep(overhead), ms(75));
        }
        lag.answered(Some(ms(40)));
        clock = clock + 10 - 40;
        lag.on_go(0, Some(clock), Some(10));
        assert_eq!(lag.keep(overhead), overhead);
    }

    #[test]
    fn a_position_that_does_not_go_on_from_the_last_forgets_the_lag() {
        let words = |text: &str| {
            text.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        let mut lag = ClockLag::default();
        lag.position("startpos", &words("f5"));
        lag.on_go(1, Some(1000), None);
        lag.answered(Some(ms(100)));
        lag.position("startpos", &words("f5 d6 c3"));
        assert_eq!(lag.on_go(1, Some(800), None), Some(ms(100)));
        assert_eq!(lag.keep(ms(10)), ms(125));
        // The same line again, and on: kept.
        lag.answered(Some(ms(100)));
        lag.position("startpos", &words("f5 d6 c3 d3 c4"));
        assert_eq!(lag.keep(ms(10)), ms(125));
        // Another game (a GUI starting one with no ucinewgame): its
        // clock, lower than the last game's, is no lag.
        lag.position("startpos", &words("d3"));
        assert_eq!(lag.keep(ms(10)), ms(10));
        assert_eq!(lag.on_go(1, Some(300), None), None);
        lag.answered(Some(ms(10)));
        lag.position("X7/8/8/3OX3/3XO3/8/8/8 b", &words("d3 c5"));
        assert_eq!(lag.on_go(1, Some(100), None), None);
    }

    /// One position searched twice with two clocks (a harness's, an
    /// analysis's) is no move of a game: 260 ms were taken for lost, and
    /// kept back of every later move, `go movetime` answered in 2 ms.
    #[test]
    fn the_same_position_again_is_not_compared() {
        let words = |text: &str| {
            text.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        let mut lag = ClockLag::default();
        lag.position("startpos", &words("f5 d6"));
        lag.on_go(0, Some(400), Some(10));
        lag.answered(Some(ms(37)));
        lag.position("startpos", &words("f5 d6"));
        assert_eq!(lag.on_go(0, Some(120), None), None);
        assert_eq!(lag.keep(ms(10)), ms(10));
        // Two plies on, its clock is compared with the last one's.
        lag.answered(Some(ms(20)));
        lag.position("startpos", &words("f5 d6 c3 d3"));
        assert_eq!(lag.on_go(0, Some(50), None), Some(ms(50)));
    }

    /// GTP's `time_settings` 5 s, then 1 s two plies on: 3.8 s were taken
    /// for lost, and the next eight moves were played at once.
    #[test]
    fn a_clock_of_under_half_what_was_expected_is_a_clock_set_anew() {
        let mut lag = ClockLag::default();
        lag.on_go(1, Some(5000), None);
        lag.answered(Some(ms(200)));
        assert_eq!(lag.on_go(1, Some(1000), None), None);
        assert_eq!(lag.keep(ms(10)), ms(10));
        // Half of it lost is still believed.
        lag.answered(Some(ms(200)));
        assert_eq!(lag.on_go(1, Some(400), None), Some(ms(400)));
    }

    /// 410 s typed where the board's clock held 40 s: said, not believed
    /// as lag.
    #[test]
    fn a_clock_that_rose_far_past_what_was_left_is_noted() {
        let mut lag = ClockLag::default();
        lag.on_go(0, Some(45_000), None);
        lag.answered(Some(ms(2_000)));
        assert_eq!(lag.on_go(0, Some(410_000), None), None);
        assert_eq!(lag.rose, Some((ms(43_000), ms(410_000))));
        // A clock that goes on as expected, or rises by an increment, is not.
        lag.answered(Some(ms(2_000)));
        lag.on_go(0, Some(407_500), None);
        assert_eq!(lag.rose, None);
        lag.answered(Some(ms(2_000)));
        lag.on_go(0, Some(500_000), Some(100_000));
        assert_eq!(lag.rose, None);
        // Said once: a `go` with no clock after it is not said again.
        lag.answered(Some(ms(2_000)));
        lag.on_go(0, Some(1_500_000), None);
        assert!(lag.rose.is_some());
        lag.on_go(0, None, None);
        assert_eq!(lag.rose, None);
    }

    #[test]
    fn only_a_continued_clock_of_the_same_side_is_compared() {
        let mut lag = ClockLag::default();
        lag.on_go(0, Some(1000), None);
        lag.answered(Some(ms(100)));
        // The other side's clock (one engine asked for both sides' moves)
        // is compared with its own, not with this one's.
        assert_eq!(lag.on_go(1, Some(500), None), None);
        lag.answered(Some(ms(50)));
        assert_eq!(lag.on_go(0, Some(880), None), Some(ms(20)));
        lag.answered(Some(ms(50)));
        assert_eq!(lag.on_go(1, Some(440), None), Some(ms(10)));
        // No answer noted (a ponder search stopped): nothing compared.
        lag.answered(None);
        assert_eq!(lag.on_go(1, Some(100), None), None);
        // A clock given more than expected (a new period): no lag.
        lag.answered(Some(ms(10)));
        assert_eq!(lag.on_go(1, Some(5000), None), None);
        // No clock (movetime) ends the comparison.
        lag.answered(Some(ms(10)));
        assert_eq!(lag.on_go(1, None, None), None);
        assert_eq!(lag.on_go(1, Some(10), Some(1000)), None);
        // More lost than the clock held (1,009 of 10): not believed.
        lag.answered(Some(ms(1)));
        assert_eq!(lag.on_go(1, Some(0), None), None);
        lag.new_game();
        assert_eq!(lag.keep(ms(10)), ms(10));
    }
}
