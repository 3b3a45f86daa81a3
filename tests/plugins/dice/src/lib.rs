//! A test plugin with chance: a dice race. Before each move a die with
//! faces 1, 2 and 3 (weighted 1:2:3) is rolled; the player then advances
//! 1 up to the roll. Whoever first reaches 12 wins.
//!
//! Rolls are chance outcomes written `r1`, `r2`, `r3`; moves are written
//! `1`, `2`, `3`. At a roll, `gen_moves` lists the roll tokens too, so a
//! host that replays `position ... moves r2 2 ...` with its legality check
//! accepts them.
//!
//! `PLYD_TEST_DICE` makes it misbehave: `unlisted` leaves the rolls out of
//! `gen_moves`; `twice` lists the roll `r3` twice among the outcomes, in
//! place of `r1`; `zero` gives every outcome weight 0 (which counts them
//! alike); `spelled-alike` spells the move 3 as `2`, as the move 2 is
//! (which reads back as 2).

use plyd_api::{ChanceSink, Evaluator, Game, Move, MoveSink, Outcome, Variant};

/// The misbehaviour asked for (`PLYD_TEST_DICE`), read once.
fn mode() -> &'static str {
    static MODE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MODE.get_or_init(|| std::env::var("PLYD_TEST_DICE").unwrap_or_default())
}

/// The square that wins.
const GOAL: u32 = 12;
/// Move values from this up are roll tokens: `ROLL + face`.
const ROLL: Move = 100;
/// Die faces and their weights.
const FACES: [(u32, u32); 3] = [(1, 1), (2, 2), (3, 3)];

/// Both runners, whose turn it is, and the roll that turn has.
#[derive(Clone, Debug)]
pub struct DiceRace {
    squares: [u32; 2],
    to_move: u32,
    roll: Option<u32>,
    /// Each move with the roll it replaced, for unmake.
    history: Vec<(Move, Option<u32>)>,
}

impl DiceRace {
    fn is_over(&self) -> bool {
        self.squares.iter().any(|&s| s >= GOAL)
    }
}

impl Game for DiceRace {
    const NAME: &'static str = "dicerace";
    const VERSION: &'static str = "1";
    const VARIANTS: &'static [Variant] = &[Variant {
        name: "dicerace",
        start_position: "0 0 0",
    }];
    const HAS_CHANCE: bool = true;
    // A turn (roll and move) advances at least one square, and the race
    // ends by 2 * (GOAL - 1) + 1 turns.
    const MAX_GAME_PLIES: u32 = 2 * (2 * (GOAL - 1) + 1);

    fn new(_variant: usize) -> Self {
        DiceRace {
            squares: [0, 0],
            to_move: 0,
            roll: None,
            history: Vec::new(),
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |w: &str| {
            w.parse::<u32>()
                .map_err(|_| format!("'{w}' is not a number"))
        };
        let (a, b, side, roll) = match words[..] {
            [a, b, side] => (a, b, side, None),
            [a, b, side, roll] => (a, b, side, Some(roll)),
            _ => return Err(format!("'{text}' is not 'square square side [roll]'")),
        };
        let squares = [number(a)?.min(GOAL), number(b)?.min(GOAL)];
        let to_move = match side {
            "0" => 0,
            "1" => 1,
            _ => return Err(format!("side '{side}' is not 0 or 1")),
        };
        let roll = match roll {
            None => None,
            Some(r) => Some(
                r.strip_prefix('r')
                    .and_then(|f| f.parse::<u32>().ok())
                    .filter(|f| (1..=3).contains(f))
                    .ok_or_else(|| format!("roll '{r}' is not r1, r2 or r3"))?,
            ),
        };
        *self = DiceRace {
            squares,
            to_move,
            roll,
            history: Vec::new(),
        };
        Ok(())
    }

    fn position_text(&self) -> String {
        let base = format!("{} {} {}", self.squares[0], self.squares[1], self.to_move);
        match self.roll {
            Some(r) => format!("{base} r{r}"),
            None => base,
        }
    }

    fn side_to_move(&self) -> u32 {
        self.to_move
    }

    fn outcome(&self) -> Outcome {
        if self.squares[1 - self.to_move as usize] >= GOAL {
            Outcome::Loss
        } else {
            Outcome::Ongoing
        }
    }

    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        if self.is_over() {
            return;
        }
        match self.roll {
            None if mode() == "unlisted" => {}
            None => FACES.iter().for_each(|&(face, _)| moves.push(ROLL + face)),
            Some(roll) => (1..=roll).for_each(|step| moves.push(step)),
        }
    }

    fn chance_outcomes(&self, outcomes: &mut ChanceSink<'_>) {
        if !self.is_over() && self.roll.is_none() {
            for (face, weight) in FACES {
                match mode() {
                    "twice" if face == 1 => outcomes.push(ROLL + 3, weight),
                    "zero" => outcomes.push(ROLL + face, 0),
                    _ => outcomes.push(ROLL + face, weight),
                }
            }
        }
    }

    fn make_move(&mut self, mv: Move) {
        self.history.push((mv, self.roll));
        if mv > ROLL {
            self.roll = Some(mv - ROLL);
        } else {
            self.squares[self.to_move as usize] += mv;
            self.roll = None;
            self.to_move ^= 1;
        }
    }

    fn unmake_move(&mut self, mv: Move) {
        let (_, roll) = self.history.pop().expect("a move to take back");
        if mv <= ROLL {
            self.to_move ^= 1;
            self.squares[self.to_move as usize] -= mv;
        }
        self.roll = roll;
    }

    fn hash(&self) -> u64 {
        // The moves made since `set_position` are part of the key: the
        // same squares are reached after different numbers of moves (3 + 3
        // or 2 + 2 + 2), that is with different depths left, and the
        // search tests compare with a fixed-depth expectiminimax, which a
        // deeper table entry answering a shallower node would not match.
        let moves = self.history.iter().filter(|&&(mv, _)| mv <= ROLL).count();
        u64::from(self.squares[0])
            | u64::from(self.squares[1]) << 8
            | u64::from(self.to_move) << 16
            | u64::from(self.roll.unwrap_or(0)) << 24
            | (moves as u64) << 32
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        let text = text.trim();
        let (base, digits) = match text.strip_prefix('r') {
            Some(face) => (ROLL, face),
            None => (0, text),
        };
        match digits.parse::<u32>() {
            Ok(n @ 1..=3) => Some(base + n),
            _ => None,
        }
    }

    fn format_move(&self, mv: Move) -> String {
        if mv > ROLL {
            format!("r{}", mv - ROLL)
        } else if mv == 3 && mode() == "spelled-alike" {
            "2".to_string()
        } else {
            mv.to_string()
        }
    }

    fn board_text(&self) -> String {
        format!(
            "first on {}, second on {}, goal {GOAL}\n",
            self.squares[0], self.squares[1]
        )
    }
}

/// How far ahead the side to move is.
pub struct Lead;

impl Evaluator for Lead {
    type State = DiceRace;
    const NAME: &'static str = "lead";
    const DESCRIPTION: &'static str = "squares ahead of the opponent";
    const GAME: &'static str = "dicerace";
    const SCORE_BOUND: i32 = 100;

    fn from_params(_params: Option<&str>) -> Result<Self, String> {
        Ok(Lead)
    }

    fn evaluate(&self, state: &DiceRace) -> i32 {
        let me = state.squares[state.to_move as usize] as i32;
        let other = state.squares[1 - state.to_move as usize] as i32;
        me - other
    }
}

plyd_api::export_game!(DiceRace, evaluators = [Lead]);
