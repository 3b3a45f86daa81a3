//! A test plugin with repetitions: two players take turns moving one token
//! along the arrows of a small directed graph. A position (token and side
//! to move) that already occurred since `set_position` (the position set
//! included) is a draw; nothing else ends the game. The evaluation gives
//! each node a fixed value, so a position's value from a repetition (a
//! draw, 0) differs from its value when reached afresh, and a score stored
//! in a transposition table from one path is wrong on another.
//!
//! ```text
//!   0 -> 1, 4        node values for the first player:
//!   1 -> 0, 2          0: 0   1: 0   2: +5   3: -10
//!   2 -> 1, 3          4 to 8: -80 (a trap for the first player)
//!   3 -> 1, 2
//!   4 -> 5 -> 6 -> 7 -> 8 -> 4
//! ```
//!
//! Position text: `<node> <side>`, e.g. `0 1` (token on node 0, second
//! player to move). A move is the node the token goes to, written as its
//! number.
//!
//! The variant `cycle-bonus` is the same game, except that a move to node
//! 2 earns its player another move: the side to move does not change.

use plyd_api::{Evaluator, Game, Move, MoveSink, Outcome, Variant};

/// The arrows out of each node.
const ARROWS: [&[u8]; 9] = [
    &[1, 4],
    &[0, 2],
    &[1, 3],
    &[1, 2],
    &[5],
    &[6],
    &[7],
    &[8],
    &[4],
];
/// Each node's value for the first player.
const VALUES: [i32; 9] = [0, 0, 5, -10, -80, -80, -80, -80, -80];

/// The node whose move earns another in `cycle-bonus`.
const BONUS_NODE: u8 = 2;

/// The token, the side to move and every position since `set_position`.
#[derive(Clone, Debug)]
pub struct Cycle {
    node: u8,
    to_move: u32,
    /// Whether a move to [`BONUS_NODE`] earns another (`cycle-bonus`).
    bonus: bool,
    /// Every position so far as (node, side), the current one last.
    history: Vec<(u8, u32)>,
}

impl Game for Cycle {
    const NAME: &'static str = "cycle";
    const VERSION: &'static str = "1";
    const VARIANTS: &'static [Variant] = &[
        Variant {
            name: "cycle",
            start_position: "0 0",
        },
        Variant {
            name: "cycle-bonus",
            start_position: "0 0",
        },
    ];
    // There are 18 positions; the 19th position of a game repeats one.
    const MAX_GAME_PLIES: u32 = 2 * ARROWS.len() as u32;

    fn new(variant: usize) -> Self {
        Cycle {
            node: 0,
            to_move: 0,
            bonus: variant == 1,
            history: vec![(0, 0)],
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [node, side] = words[..] else {
            return Err(format!("'{text}' is not 'node side'"));
        };
        let node = node
            .parse::<u8>()
            .ok()
            .filter(|&n| usize::from(n) < ARROWS.len())
            .ok_or_else(|| format!("'{node}' is not a node (0 to {})", ARROWS.len() - 1))?;
        let to_move = match side {
            "0" => 0,
            "1" => 1,
            _ => return Err(format!("side '{side}' is not 0 or 1")),
        };
        *self = Cycle {
            node,
            to_move,
            bonus: self.bonus,
            history: vec![(node, to_move)],
        };
        Ok(())
    }

    fn position_text(&self) -> String {
        format!("{} {}", self.node, self.to_move)
    }

    fn side_to_move(&self) -> u32 {
        self.to_move
    }

    fn outcome(&self) -> Outcome {
        let (current, earlier) = self.history.split_last().expect("the current position");
        if earlier.contains(current) {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        if self.outcome() == Outcome::Ongoing {
            for &to in ARROWS[usize::from(self.node)] {
                moves.push(Move::from(to));
            }
        }
    }

    fn make_move(&mut self, mv: Move) {
        self.node = mv as u8;
        if !(self.bonus && self.node == BONUS_NODE) {
            self.to_move ^= 1;
        }
        self.history.push((self.node, self.to_move));
    }

    fn unmake_move(&mut self, _mv: Move) {
        self.history.pop();
        (self.node, self.to_move) = *self.history.last().expect("the position set");
    }

    fn hash(&self) -> u64 {
        // The position only, not the path: that is what makes a stored
        // score reusable (and, across a repetition, wrong).
        let code = u64::from(self.node) * 2 + u64::from(self.to_move) + 1;
        code.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        text.trim()
            .parse::<Move>()
            .ok()
            .filter(|&n| (n as usize) < ARROWS.len())
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn board_text(&self) -> String {
        format!(
            "token on node {}, side {} to move\n",
            self.node, self.to_move
        )
    }
}

/// The node's value, for the side to move.
pub struct NodeValue;

impl Evaluator for NodeValue {
    type State = Cycle;
    const NAME: &'static str = "nodevalue";
    const DESCRIPTION: &'static str = "the token's node value for the side to move";
    const GAME: &'static str = "cycle";
    const SCORE_BOUND: i32 = 100;

    fn from_params(_params: Option<&str>) -> Result<Self, String> {
        Ok(NodeValue)
    }

    fn evaluate(&self, state: &Cycle) -> i32 {
        slow_down();
        let value = VALUES[usize::from(state.node)];
        if state.to_move == 0 {
            value
        } else {
            -value
        }
    }
}

plyd_api::export_game!(Cycle, evaluators = [NodeValue]);

/// With `PLYD_TEST_CYCLE_SLOW_AFTER=N`, every evaluation after the first
/// `N` of the process takes 300 ms: a timed search then stops answering
/// in time, after iterations that have printed their lines, and the
/// daemon's watchdog answers for it.
fn slow_down() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static AFTER: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let after = AFTER.get_or_init(|| {
        std::env::var("PLYD_TEST_CYCLE_SLOW_AFTER")
            .ok()
            .and_then(|n| n.parse().ok())
    });
    if let Some(after) = *after {
        if CALLS.fetch_add(1, Ordering::Relaxed) >= after {
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
    }
}
