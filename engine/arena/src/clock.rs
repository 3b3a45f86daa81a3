//! Time controls and the clocks the arena keeps for each player.
//!
//! The arena, not the engine, is the timekeeper: it measures each move from
//! the moment `go` is written to the moment `bestmove` is read, charges the
//! mover's clock, and decides a loss on time. A small margin forgives the
//! delays of pipes and process scheduling that no engine controls.

use std::fmt;
use std::time::Duration;

/// A clock control: `moves/base+increment`, with the moves part optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockControl {
    /// Moves per period (`40` in `40/10+0.1`); `None` for one period for the
    /// whole game.
    pub moves_per_period: Option<u32>,
    /// Time for a period, in milliseconds.
    pub base_ms: u64,
    /// Time added after each of the player's moves, in milliseconds.
    pub increment_ms: u64,
}

/// How an engine's moves are limited: a clock or a fixed time per move,
/// and optionally a depth or node limit sent with it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Clock with increment (sent as `wtime`/`btime`/`winc`/`binc`).
    pub clock: Option<ClockControl>,
    /// Fixed time per move in milliseconds (sent as `movetime`).
    pub movetime_ms: Option<u64>,
    /// Depth limit (sent as `depth`).
    pub depth: Option<u32>,
    /// Node limit (sent as `nodes`).
    pub nodes: Option<u64>,
}

impl Limits {
    /// The clock as PGN's `TimeControl` tag writes it, in seconds
    /// (`600+5`, `40/300`, `10+0.1`): `None` where the limits are not a
    /// clock alone (a fixed time a move, a depth, a node count).
    pub fn pgn_time_control(&self) -> Option<String> {
        let c = self.clock.filter(|_| {
            self.movetime_ms.is_none() && self.depth.is_none() && self.nodes.is_none()
        })?;
        let moves = c
            .moves_per_period
            .map_or(String::new(), |m| format!("{m}/"));
        let increment = if c.increment_ms > 0 {
            format!("+{}", seconds(c.increment_ms))
        } else {
            String::new()
        };
        Some(format!("{moves}{}{increment}", seconds(c.base_ms)))
    }

    /// Whether any limit is set; `go` without one would never end.
    pub fn is_set(&self) -> bool {
        self.clock.is_some()
            || self.movetime_ms.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
    }

    /// Whether every limit `other` sets is set alike here (an engine's
    /// own limits that repeat the match's and add to them).
    pub fn holds(&self, other: &Limits) -> bool {
        (other.clock.is_none() || self.clock == other.clock)
            && (other.movetime_ms.is_none() || self.movetime_ms == other.movetime_ms)
            && (other.depth.is_none() || self.depth == other.depth)
            && (other.nodes.is_none() || self.nodes == other.nodes)
    }

    /// Whether a move is timed (a clock or a fixed move time), so that an
    /// overstep loses on time. Depth and node limits alone are not timed;
    /// a generous timeout guards them against an engine that never answers.
    pub fn is_timed(&self) -> bool {
        self.clock.is_some() || self.movetime_ms.is_some()
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(c) = self.clock {
            let moves = c
                .moves_per_period
                .map_or(String::new(), |m| format!("{m}/"));
            parts.push(format!(
                "tc={moves}{}+{}",
                seconds(c.base_ms),
                seconds(c.increment_ms)
            ));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("st={}", seconds(ms)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join(" "))
        }
    }
}

/// Milliseconds as seconds, without trailing zeros (`0.1`, `10`).
fn seconds(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Read a time control `[moves/]base[+increment]`, times in seconds
/// (decimals allowed) or `minutes:seconds` for the base: `10+0.1`,
/// `40/60`, `1:30+1`.
pub fn parse_clock(text: &str) -> Result<ClockControl, String> {
    let bad = |why: &str| format!("bad time control '{text}': {why}");
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => {
            let moves: u32 = moves
                .trim()
                .parse()
                .map_err(|_| bad("the moves before '/' must be a whole number"))?;
            if moves == 0 {
                return Err(bad("the moves per period must be at least 1"));
            }
            (Some(moves), rest)
        }
        None => (None, text),
    };
    let (base, increment) = match rest.split_once('+') {
        Some((base, inc)) => (base, Some(inc)),
        None => (rest, None),
    };
    let base_ms = match base.split_once(':') {
        Some((minutes, secs)) => {
            let minutes: u64 = minutes
                .trim()
                .parse()
                .map_err(|_| bad("minutes must be a whole number"))?;
            minutes
                .checked_mul(60_000)
                .and_then(|m| parse_seconds(secs).ok().and_then(|s| m.checked_add(s)))
                .ok_or_else(|| bad("the base time is not a time"))?
        }
        None => parse_seconds(base).map_err(|e| bad(&e))?,
    };
    if base_ms == 0 {
        return Err(bad("the base time must be above zero"));
    }
    let increment_ms = match increment {
        Some(inc) => parse_seconds(inc).map_err(|e| bad(&e))?,
        None => 0,
    };
    Ok(ClockControl {
        moves_per_period: moves,
        base_ms,
        increment_ms,
    })
}

/// Read a number of seconds (`0.1`, `10`) as whole milliseconds.
pub fn parse_seconds(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let value: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    // A week is far beyond any match; the cap keeps the conversion exact.
    if !value.is_finite() || !(0.0..=604_800.0).contains(&value) {
        return Err(format!("'{text}' seconds is out of range"));
    }
    Ok((value * 1000.0).round() as u64)
}

/// Why a move lost on time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overstep {
    /// Time the move took.
    pub used: Duration,
    /// Time the player had for it, margin not included.
    pub allowed: Duration,
}

impl fmt::Display for Overstep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "used {:.3} s of {:.3} s",
            self.used.as_secs_f64(),
            self.allowed.as_secs_f64()
        )
    }
}

/// One player's clock under a [`ClockControl`].
#[derive(Debug, Clone)]
pub struct Clock {
    control: ClockControl,
    /// Time left, to the microsecond: each move is charged what it took,
    /// not its whole milliseconds (moves of 1.6 ms were charged 1 ms).
    remaining: Duration,
    /// Moves left in the current period, for repeating controls.
    moves_left: Option<u32>,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: ClockControl) -> Self {
        Clock {
            control,
            remaining: Duration::from_millis(control.base_ms),
            moves_left: control.moves_per_period,
        }
    }

    /// Time left, in whole milliseconds (`wtime`/`btime`).
    pub fn remaining_ms(&self) -> u64 {
        u64::try_from(self.remaining.as_millis()).unwrap_or(u64::MAX)
    }

    /// The increment, in milliseconds (`winc`/`binc`).
    pub fn increment_ms(&self) -> u64 {
        self.control.increment_ms
    }

    /// Moves until the next period (`movestogo`), for repeating controls.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_left
    }

    /// How long the arena waits for this player's next move before it calls
    /// the move lost on time: the time left plus `margin`.
    pub fn allowance(&self, margin: Duration) -> Duration {
        self.remaining + margin
    }

    /// Charge a move that took `used`. A move that took more than the time
    /// left plus `margin` loses on time; within the margin the clock stops
    /// at zero, so the forgiven overstep does not carry over to the next
    /// move. Then the increment is added and, when a period ends, its base
    /// time.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Overstep> {
        let allowed = self.remaining;
        if used > allowed + margin {
            self.remaining = Duration::ZERO;
            return Err(Overstep { used, allowed });
        }
        self.remaining =
            self.remaining.saturating_sub(used) + Duration::from_millis(self.control.increment_ms);
        if let Some(left) = self.moves_left.as_mut() {
            *left -= 1;
            if *left == 0 {
                *left = self.control.moves_per_period.unwrap_or(1);
                self.remaining += Duration::from_millis(self.control.base_ms);
            }
        }
        Ok(())
    }
}

/// Check a move under a fixed time per move of `movetime_ms`.
pub fn check_movetime(movetime_ms: u64, used: Duration, margin: Duration) -> Result<(), Overstep> {
    let allowed = Duration::from_millis(movetime_ms);
    if used > allowed + margin {
        Err(Overstep { used, allowed })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_hold_those_they_repeat() {
        let tc = Limits {
            clock: Some(ClockControl {
                moves_per_period: None,
                base_ms: 2000,
                increment_ms: 20,
            }),
            ..Limits::default()
        };
        let own = Limits {
            depth: Some(3),
            ..tc
        };
        assert!(own.holds(&tc));
        assert!(!tc.holds(&own));
        assert!(!Limits {
            depth: Some(3),
            ..Limits::default()
        }
        .holds(&tc));
    }

    const MARGIN: Duration = Duration::from_millis(50);

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn reads_time_controls() {
        assert_eq!(
            parse_clock("40/10+0.1").unwrap(),
            ClockControl {
                moves_per_period: Some(40),
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!(
            parse_clock("10+0.1").unwrap(),
            ClockControl {
                moves_per_period: None,
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!(parse_clock("0.5").unwrap().base_ms, 500);
        assert_eq!(parse_clock("1:30+1").unwrap().base_ms, 90_000);
        assert_eq!(parse_clock("1:30+1").unwrap().increment_ms, 1_000);
        for bad in [
            "", "x", "0", "0+1", "-1+0", "10+", "10+x", "/10", "0/10", "a/10", "1e9", "10+nan",
        ] {
            let err = parse_clock(bad).unwrap_err();
            assert!(err.starts_with("bad time control"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_clock_alone_is_a_pgn_time_control() {
        let clock = |text: &str| Limits {
            clock: Some(parse_clock(text).unwrap()),
            ..Limits::default()
        };
        assert_eq!(
            clock("10+0.1").pgn_time_control().as_deref(),
            Some("10+0.1")
        );
        assert_eq!(
            clock("40/300").pgn_time_control().as_deref(),
            Some("40/300")
        );
        assert_eq!(clock("1:30+1").pgn_time_control().as_deref(), Some("90+1"));
        let with_depth = Limits {
            depth: Some(4),
            ..clock("10+0.1")
        };
        assert_eq!(with_depth.pgn_time_control(), None);
        assert_eq!(Limits::default().pgn_time_control(), None);
    }

    #[test]
    fn limits_print_as_they_are_written() {
        let limits = Limits {
            clock: Some(parse_clock("40/10+0.1").unwrap()),
            depth: Some(4),
            ..Limits::default()
        };
        assert_eq!(limits.to_string(), "tc=40/10+0.1 depth=4");
        let st = Limits {
            movetime_ms: Some(250),
            ..Limits::default()
        };
        assert_eq!(st.to_string(), "st=0.25");
        assert!(st.is_timed() && st.is_set());
        let depth = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        assert!(!depth.is_timed() && depth.is_set());
        assert!(!Limits::default().is_set());
    }

    #[test]
    fn increment_is_added_after_each_move() {
        let mut clock = Clock::new(parse_clock("10+0.1").unwrap());
        assert_eq!(clock.moves_to_go(), None);
        clock.charge(ms(1_500), MARGIN).unwrap();
        // 10 000 - 1 500 + 100
        assert_eq!(clock.remaining_ms(), 8_600);
        clock.charge(ms(600), MARGIN).unwrap();
        assert_eq!(clock.remaining_ms(), 8_100);
        assert_eq!(clock.increment_ms(), 100);
    }

    #[test]
    fn moves_are_charged_to_the_microsecond() {
        // Ten moves of 1.6 ms: 16 ms off the clock, not ten whole 1s.
        let mut clock = Clock::new(parse_clock("1+0").unwrap());
        for _ in 0..10 {
            clock.charge(Duration::from_micros(1_600), MARGIN).unwrap();
        }
        assert_eq!(clock.remaining_ms(), 984);
    }

    #[test]
    fn a_repeating_control_adds_the_base_when_a_period_ends() {
        let mut clock = Clock::new(parse_clock("3/1+0").unwrap());
        assert_eq!(clock.moves_to_go(), Some(3));
        clock.charge(ms(300), MARGIN).unwrap();
        assert_eq!((clock.remaining_ms(), clock.moves_to_go()), (700, Some(2)));
        clock.charge(ms(300), MARGIN).unwrap();
        assert_eq!((clock.remaining_ms(), clock.moves_to_go()), (400, Some(1)));
        // The third move ends the period: 400 - 300 + 1 000, and a fresh count.
        clock.charge(ms(300), MARGIN).unwrap();
        assert_eq!(
            (clock.remaining_ms(), clock.moves_to_go()),
            (1_100, Some(3))
        );
    }

    #[test]
    fn overstepping_beyond_the_margin_loses_on_time() {
        let mut clock = Clock::new(parse_clock("1+0").unwrap());
        assert_eq!(clock.allowance(MARGIN), ms(1_050));
        // 40 ms over, inside the 50 ms margin: forgiven, the clock stops at 0.
        clock.charge(ms(1_040), MARGIN).unwrap();
        assert_eq!(clock.remaining_ms(), 0);
        let mut clock = Clock::new(parse_clock("1+0").unwrap());
        let err = clock.charge(ms(1_051), MARGIN).unwrap_err();
        assert_eq!(err.allowed, ms(1_000));
        assert_eq!(err.used, ms(1_051));
        assert_eq!(err.to_string(), "used 1.051 s of 1.000 s");
        // Exactly at the margin still counts as in time.
        let mut clock = Clock::new(parse_clock("1+0").unwrap());
        assert!(clock.charge(ms(1_050), MARGIN).is_ok());
    }

    #[test]
    fn fixed_move_time_allows_the_margin() {
        assert!(check_movetime(100, ms(150), MARGIN).is_ok());
        let err = check_movetime(100, ms(151), MARGIN).unwrap_err();
        assert_eq!(err.allowed, ms(100));
    }

    #[test]
    fn seconds_are_read_to_the_millisecond() {
        assert_eq!(parse_seconds("0.1").unwrap(), 100);
        assert_eq!(parse_seconds(" 2 ").unwrap(), 2_000);
        assert_eq!(parse_seconds("0.001").unwrap(), 1);
        assert!(parse_seconds("-0.1").is_err());
        assert!(parse_seconds("inf").is_err());
    }
}
