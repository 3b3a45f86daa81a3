//! A test plugin for the search: a synthetic game tree that uses every
//! search feature a game can declare — noisy moves (quiescence), checks
//! (extensions and evasions), a sound null move, reductions and futility,
//! and a native legality test.
//!
//! A position is a 64-bit node id reached by mixing the parent's id with
//! the move, so every path leads to its own node (a tree, without
//! transpositions). Each node has 2 to 4 moves; some are noisy, some nodes
//! are "in check", and the game ends at ply 10 or earlier at some nodes,
//! with a win, loss or draw drawn from the id. The evaluation is a number
//! in [-100, 100] drawn from the id as well. Because the tree is a pure
//! function of the id, a test can compute the exact search value by plain
//! recursion and hold the engine to it.

use plyd_api::abi::{CAP_FUTILITY, CAP_NULL_MOVE, CAP_REDUCTIONS};
use plyd_api::{Evaluator, Game, Move, MoveSink, Outcome, Variant, NULL_MOVE};

/// Plies after which every game is over.
pub const LAST_PLY: u32 = 10;

/// SplitMix64's finaliser.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A node of the synthetic tree and the path to it.
#[derive(Clone, Debug)]
pub struct Tactics {
    node: u64,
    ply: u32,
    history: Vec<u64>,
}

impl Tactics {
    fn is_over(&self) -> bool {
        self.ply >= LAST_PLY || (self.ply > 0 && mix(self.node ^ 0x5eed).is_multiple_of(23))
    }

    fn move_count(&self) -> u32 {
        2 + (mix(self.node) % 3) as u32
    }

    /// Whether `mv` is noisy here.
    pub fn is_noisy(&self, mv: Move) -> bool {
        mix(self.node ^ (u64::from(mv) + 7)).is_multiple_of(3)
    }
}

impl Game for Tactics {
    const NAME: &'static str = "tactics";
    const VERSION: &'static str = "1";
    const VARIANTS: &'static [Variant] = &[Variant {
        name: "tactics",
        start_position: "1 0",
    }];
    // Noisy moves are on because `gen_noisy` is present; the bits are the
    // soundness claims.
    const CAPABILITIES: u64 = CAP_NULL_MOVE | CAP_REDUCTIONS | CAP_FUTILITY;
    const MAX_GAME_PLIES: u32 = LAST_PLY;
    const HAS_NOISY_MOVES: bool = true;
    const HAS_ORDER_HINTS: bool = true;
    const HAS_CHECK: bool = true;
    const HAS_IS_LEGAL: bool = true;

    fn new(_variant: usize) -> Self {
        Tactics {
            node: 1,
            ply: 0,
            history: Vec::new(),
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        let mut words = text.split_whitespace();
        let node = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or("expected '<node> <ply>'")?;
        let ply = words
            .next()
            .and_then(|w| w.parse().ok())
            .filter(|&p| p <= LAST_PLY)
            .ok_or("expected '<node> <ply>' with ply at most 10")?;
        *self = Tactics {
            node,
            ply,
            history: Vec::new(),
        };
        Ok(())
    }

    fn position_text(&self) -> String {
        format!("{} {}", self.node, self.ply)
    }

    fn side_to_move(&self) -> u32 {
        self.ply % 2
    }

    fn outcome(&self) -> Outcome {
        if !self.is_over() {
            return Outcome::Ongoing;
        }
        match mix(self.node ^ 0xe4d) % 3 {
            0 => Outcome::Win,
            1 => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        if !self.is_over() {
            for mv in 0..self.move_count() {
                moves.push(mv);
            }
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        !self.is_over() && mv < self.move_count()
    }

    fn generate_noisy(&self, moves: &mut MoveSink<'_>) {
        if !self.is_over() {
            for mv in 0..self.move_count() {
                if self.is_noisy(mv) {
                    moves.push(mv);
                }
            }
        }
    }

    fn make_move(&mut self, mv: Move) {
        self.history.push(self.node);
        let salt = if mv == NULL_MOVE {
            0xabcd_ef01
        } else {
            (u64::from(mv) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        };
        self.node = mix(self.node ^ salt);
        self.ply += 1;
    }

    fn unmake_move(&mut self, _mv: Move) {
        if let Some(node) = self.history.pop() {
            self.node = node;
            self.ply -= 1;
        }
    }

    fn hash(&self) -> u64 {
        self.node
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        text.trim().strip_prefix('m')?.parse().ok()
    }

    fn format_move(&self, mv: Move) -> String {
        format!("m{mv}")
    }

    fn board_text(&self) -> String {
        format!("node {} ply {}\n", self.node, self.ply)
    }

    fn order_hints(&self, moves: &[Move], scores: &mut [i32]) {
        for (score, &mv) in scores.iter_mut().zip(moves) {
            *score = if self.is_noisy(mv) { 10 } else { 0 };
        }
    }

    fn in_check(&self) -> bool {
        !self.is_over() && mix(self.node ^ 99).is_multiple_of(5)
    }
}

/// The evaluation: a number in [-100, 100] drawn from the node id.
pub struct NodeEval;

impl Evaluator for NodeEval {
    type State = Tactics;
    const NAME: &'static str = "node";
    const DESCRIPTION: &'static str = "a pseudo-random value per node";
    const GAME: &'static str = "tactics";
    const SCORE_BOUND: i32 = 100;

    fn from_params(_params: Option<&str>) -> Result<Self, String> {
        Ok(NodeEval)
    }

    fn evaluate(&self, state: &Tactics) -> i32 {
        (mix(state.node ^ 12345) % 201) as i32 - 100
    }
}

plyd_api::export_game!(Tactics, evaluators = [NodeEval]);
