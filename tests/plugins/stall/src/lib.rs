//! A test plugin whose calls never return on request: a take-away game
//! (take one or two counters; whoever faces an empty pile loses) read from
//! `<pile>` or `<pile> stall <k>`. With `stall <k>`, generating the moves
//! of a position of `k` counters never returns (the call says so on stderr,
//! then sleeps in a loop), as a plugin with an endless loop would. The
//! daemon's watchdog must still answer `bestmove` and keep serving other
//! games. The game declares no pruning, and the root's moves are all
//! searched: from `n` counters with `stall <n - 1>`, the first iteration
//! (which only evaluates the two replies) finishes and the second stalls.

use std::time::Duration;

use plyd_api::{Evaluator, Game, Move, MoveSink, Outcome, Variant};

/// The pile, the stall request and the moves that led here.
#[derive(Clone, Debug)]
pub struct Pile {
    pile: u32,
    stall_at: Option<u32>,
    plies: u32,
}

impl Pile {
    /// Never return when the pile is the requested one.
    fn maybe_stall(&self) {
        if self.stall_at == Some(self.pile) {
            eprintln!("stall: this call never returns");
            loop {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

impl Game for Pile {
    const NAME: &'static str = "stall";
    const VERSION: &'static str = "1";
    const VARIANTS: &'static [Variant] = &[Variant {
        name: "stall",
        start_position: "20",
    }];

    fn new(_variant: usize) -> Self {
        Pile {
            pile: 20,
            stall_at: None,
            plies: 0,
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |w: &str| {
            w.parse::<u32>()
                .ok()
                .filter(|&n| n <= 1000)
                .ok_or_else(|| format!("'{w}' is not a pile size up to 1000"))
        };
        let (pile, stall_at) = match words.as_slice() {
            [pile] => (number(pile)?, None),
            [pile, "stall", at] => (number(pile)?, Some(number(at)?)),
            _ => return Err(format!("'{text}' is not '<pile>' or '<pile> stall <k>'")),
        };
        *self = Pile {
            pile,
            stall_at,
            plies: 0,
        };
        Ok(())
    }

    fn position_text(&self) -> String {
        match self.stall_at {
            Some(at) => format!("{} stall {at}", self.pile),
            None => self.pile.to_string(),
        }
    }

    fn side_to_move(&self) -> u32 {
        self.plies % 2
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
        for take in 1..=2 {
            if take <= self.pile {
                moves.push(take);
            }
        }
    }

    fn make_move(&mut self, mv: Move) {
        self.pile -= mv;
        self.plies += 1;
    }

    fn unmake_move(&mut self, mv: Move) {
        self.plies -= 1;
        self.pile += mv;
    }

    fn hash(&self) -> u64 {
        (u64::from(self.pile) << 1 | u64::from(self.plies % 2)) ^ 0x9e37_79b9_7f4a_7c15
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        match text.trim() {
            "1" => Some(1),
            "2" => Some(2),
            _ => None,
        }
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn board_text(&self) -> String {
        format!("pile: {}\n", self.pile)
    }
}

/// Scores the pile by its size modulo 3 (a pile divisible by 3 is lost).
pub struct PileEval;

impl Evaluator for PileEval {
    type State = Pile;
    const NAME: &'static str = "pile";
    const DESCRIPTION: &'static str = "pile size modulo 3";
    const GAME: &'static str = "stall";
    const SCORE_BOUND: i32 = 100;

    fn from_params(_params: Option<&str>) -> Result<Self, String> {
        Ok(PileEval)
    }

    fn evaluate(&self, state: &Pile) -> i32 {
        if state.pile.is_multiple_of(3) {
            -50
        } else {
            50
        }
    }
}

plyd_api::export_game!(Pile, evaluators = [PileEval]);
