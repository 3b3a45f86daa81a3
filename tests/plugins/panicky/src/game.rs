//! The take-away game and its evaluator, with their deliberate panics and
//! stalls.

use std::time::Duration;

use plyd_api::{Evaluator, Game, Move, MoveSink, Outcome, Variant};

/// The pile, the pile whose moves are never generated, and the moves that
/// led here.
#[derive(Clone, Debug)]
pub struct Countdown {
    pile: u32,
    stall_at: Option<u32>,
    /// What a call at `stall_at` does.
    how: Stall,
    history: Vec<u32>,
}

/// What a call at the pile asked for does (the word in the position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stall {
    /// `stall`: sleep for ever.
    Sleep,
    /// `spin`: spin on a core for ever.
    Spin,
    /// `slow`: spin until the thread has run for [`SLOW`], then return.
    Slow,
    /// `hold`: spin for [`HOLD`] of the clock, then return.
    Hold,
}

impl Stall {
    /// The word for it in a position.
    fn word(self) -> &'static str {
        match self {
            Stall::Sleep => "stall",
            Stall::Spin => "spin",
            Stall::Slow => "slow",
            Stall::Hold => "hold",
        }
    }
}

/// How much of a core a `slow` call takes.
pub const SLOW: Duration = Duration::from_millis(400);

/// How long a `hold` call takes, by the clock, however busy its core.
pub const HOLD: Duration = Duration::from_secs(2);

/// This thread's processor time so far (Linux: `utime + stime` of
/// `/proc/thread-self/stat`, in ticks of 10 ms), else the wall clock's.
fn thread_time(start: std::time::Instant) -> Duration {
    let ticks = std::fs::read_to_string("/proc/thread-self/stat")
        .ok()
        .and_then(|stat| {
            let after = stat[stat.rfind(')')? + 2..].to_string();
            let fields: Vec<&str> = after.split_whitespace().collect();
            Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
        });
    match ticks {
        Some(t) => Duration::from_millis(t * 10),
        None => start.elapsed(),
    }
}

/// Spin on a core until this thread has run for [`SLOW`]: time the
/// process spends stopped does not count, as for a search's own work.
fn run_slowly() {
    let start = std::time::Instant::now();
    let from = thread_time(start);
    while thread_time(start) < from + SLOW {
        std::hint::spin_loop();
    }
}

/// Spin on a core until [`HOLD`] has passed since the call began: a call
/// whose length no load changes, only whether its thread spends it
/// running or waiting for the core.
fn hold() {
    let start = std::time::Instant::now();
    while start.elapsed() < HOLD {
        std::hint::spin_loop();
    }
}

/// Say so on stderr, then never return, as an endless loop would.
fn never_return() -> ! {
    eprintln!("panicky: this call never returns");
    loop {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// As [`never_return`], but spinning on a core all the while.
fn spin_for_ever() -> ! {
    eprintln!("panicky: this call never returns (spinning)");
    loop {
        std::hint::spin_loop();
    }
}

impl Countdown {
    /// At the pile asked for: never return (`stall`, `spin`), or take a
    /// long time (`slow`, `hold`).
    fn maybe_stall(&self) {
        if self.stall_at == Some(self.pile) {
            match self.how {
                Stall::Sleep => never_return(),
                Stall::Spin => spin_for_ever(),
                Stall::Slow => run_slowly(),
                Stall::Hold => hold(),
            }
        }
    }
}

impl Game for Countdown {
    const NAME: &'static str = "panicky";
    const VERSION: &'static str = "1";
    const HAS_COUNT_AFTER: bool = true;
    const VARIANTS: &'static [Variant] = &[
        Variant {
            name: "panicky",
            start_position: "10",
        },
        // Its start position is never made.
        Variant {
            name: "panicky-stuck",
            start_position: "10",
        },
    ];

    fn new(variant: usize) -> Self {
        if variant == 1 {
            never_return();
        }
        Countdown {
            pile: 10,
            stall_at: None,
            how: Stall::Sleep,
            history: Vec::new(),
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let text = text.trim();
        if text == "panic" {
            panic!("asked to panic while reading a position");
        }
        if text == "print" {
            // A plugin that writes on its stdout, as a forgotten debugging
            // line would: the host must keep it out of the protocol.
            println!("panicky: printed on stdout");
            return Err("asked to print on stdout".to_string());
        }
        let number = |w: &str| {
            w.parse::<u32>()
                .ok()
                .filter(|&n| n <= 1000)
                .ok_or_else(|| format!("'{w}' is not a pile size"))
        };
        let (pile, stall_at, how) = match text.split_whitespace().collect::<Vec<_>>()[..] {
            [pile] => (number(pile)?, None, Stall::Sleep),
            [pile, word, at] => {
                let how = [Stall::Sleep, Stall::Spin, Stall::Slow, Stall::Hold]
                    .into_iter()
                    .find(|how| how.word() == word)
                    .ok_or_else(|| format!("'{word}' is not stall, spin, slow or hold"))?;
                (number(pile)?, Some(number(at)?), how)
            }
            _ => {
                return Err(format!(
                    "'{text}' is not '<pile>' or '<pile> <stall|spin|slow|hold> <k>'"
                ))
            }
        };
        *self = Countdown {
            pile,
            stall_at,
            how,
            history: Vec::new(),
        };
        Ok(())
    }

    fn position_text(&self) -> String {
        match self.stall_at {
            Some(at) => format!("{} {} {at}", self.pile, self.how.word()),
            None => self.pile.to_string(),
        }
    }

    fn side_to_move(&self) -> u32 {
        (self.history.len() % 2) as u32
    }

    fn outcome(&self) -> Outcome {
        if self.pile == 0 {
            Outcome::Loss
        } else {
            Outcome::Ongoing
        }
    }

    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        self.maybe_stall();
        if self.pile == 7 {
            panic!("asked to panic while generating moves");
        }
        for take in 1..=2 {
            if take <= self.pile {
                moves.push(take);
            }
        }
    }

    /// Panics when the move leaves a pile of 4; leaves an odd pile to the
    /// host (which then makes the move and counts, so a pile of 7 still
    /// panics in `generate_moves`).
    fn count_after(&self, mv: Move) -> Option<u64> {
        let pile = self.pile - mv;
        if pile == 4 {
            panic!("asked to panic while counting after a move");
        }
        pile.is_multiple_of(2).then_some(u64::from(pile.min(2)))
    }

    fn make_move(&mut self, mv: Move) {
        self.pile -= mv;
        self.history.push(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        self.history.pop();
        self.pile += mv;
    }

    fn hash(&self) -> u64 {
        u64::from(self.pile) * 2 + self.history.len() as u64 % 2
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        match text.trim() {
            "1" => Some(1),
            "2" => Some(2),
            _ => None,
        }
    }

    fn format_move(&self, mv: Move) -> String {
        // At 17 counters a move is spelled as two words: a move text the
        // host must not pass on to the protocol.
        if self.pile == 17 {
            return format!("{mv} {mv}");
        }
        mv.to_string()
    }

    fn board_text(&self) -> String {
        self.maybe_stall();
        format!("pile: {}\n", self.pile)
    }
}

/// Scores the pile by its size modulo 3 (a pile divisible by 3 is lost).
pub struct PileEval;

impl Evaluator for PileEval {
    type State = Countdown;
    const NAME: &'static str = "pile";
    const DESCRIPTION: &'static str = "pile size modulo 3";
    const GAME: &'static str = "panicky";
    const SCORE_BOUND: i32 = 100;

    /// Parameters that mention `stall` are never finished reading.
    fn from_params(params: Option<&str>) -> Result<Self, String> {
        if params.is_some_and(|text| text.contains("stall")) {
            never_return();
        }
        Ok(PileEval)
    }

    fn evaluate(&self, state: &Countdown) -> i32 {
        if state.pile == 13 {
            panic!("asked to panic while evaluating");
        }
        if state.pile.is_multiple_of(3) {
            -50
        } else {
            50
        }
    }
}
