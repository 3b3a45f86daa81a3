//! The Othello state the host holds, and its [`Game`] implementation: a
//! position plus an undo stack of earlier positions.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use plyd_api::abi::{self, SolveEntry, SolveResult};
use plyd_api::{Game, GameOption, GameOptionKind, Move, MoveSink, Outcome, SolveHost, Variant};

use crate::board::{squares, Color, Position, PASS};
use crate::endgame::{self, Entry, SCORE_INFINITY};
use crate::text;

/// The option naming the most empty squares at which a search of a
/// position is answered by the exact solver, where the move's time allows
/// the solve (the engine decides that, and hands a search bounded by depth
/// or nodes rather than time no more than 18 empty squares); 0: only when
/// the search's depth reaches the empty squares.
pub const ENDGAME_EMPTIES_OPTION: &str = "EndgameEmpties";
/// Default of [`ENDGAME_EMPTIES_OPTION`].
pub const DEFAULT_ENDGAME_EMPTIES: u32 = 24;
/// The option choosing what the solver finds: `exact` (the final disc
/// difference) or `wld` (only win, loss or draw, faster).
pub const ENDGAME_MODE_OPTION: &str = "EndgameMode";

/// [`ENDGAME_EMPTIES_OPTION`]'s value, for every state of the plugin.
static ENDGAME_EMPTIES: AtomicU32 = AtomicU32::new(DEFAULT_ENDGAME_EMPTIES);
/// Whether [`ENDGAME_MODE_OPTION`] is `wld`.
static WIN_LOSS_DRAW: AtomicBool = AtomicBool::new(false);

/// The host's table and stop signal seen as the solver's [`endgame::Table`].
struct HostTable<'h, 'a> {
    host: &'h mut SolveHost<'a>,
}

/// The solver's two bounds and the level of the pass that proved them
/// ([`Entry::level`]) in the one score of a host entry: the host stores
/// the score as given (ABI.md), so the bounds fit in its low 16 bits, each
/// offset to be positive, and the level in the eight above.
fn pack_bounds(lower: i32, upper: i32, level: u32) -> i32 {
    ((level as i32 & 0xff) << 16) | ((lower + 128) << 8) | (upper + 128)
}

/// The bounds and level of [`pack_bounds`], or `None` for a score it did
/// not write.
fn unpack_bounds(score: i32) -> Option<(i32, i32, u32)> {
    let (lower, upper) = (((score >> 8) & 0xff) - 128, (score & 0xff) - 128);
    let valid = (0..1 << 24).contains(&score)
        && -SCORE_INFINITY <= lower
        && lower <= upper
        && upper <= SCORE_INFINITY;
    valid.then_some((lower, upper, (score >> 16) as u32))
}

impl endgame::Table for HostTable<'_, '_> {
    fn probe(&mut self, key: u64) -> Option<Entry> {
        let entry = self.host.probe(key)?;
        let (lower, upper, level) = unpack_bounds(entry.score)?;
        Some(Entry {
            best: entry.best,
            lower,
            upper,
            depth: entry.depth,
            level,
        })
    }

    fn store(&mut self, key: u64, entry: Entry) {
        // The host's bound only steers which entries it keeps: an exact
        // score is kept before a bound.
        let bound = if entry.lower == entry.upper {
            abi::BOUND_EXACT
        } else if entry.upper == SCORE_INFINITY {
            abi::BOUND_LOWER
        } else {
            abi::BOUND_UPPER
        };
        self.host.store(
            key,
            &SolveEntry {
                best: entry.best,
                score: pack_bounds(entry.lower, entry.upper, entry.level),
                depth: entry.depth,
                bound,
            },
        );
    }

    fn poll(&mut self, nodes: u64) -> bool {
        self.host.poll(nodes)
    }
}

/// Version of the state layout described in the crate docs: a pointer to
/// an Othello state points to a `#[repr(C)]` [`Othello`] whose first field is
/// the `#[repr(C)]` [`Position`]. Bump it whenever that prefix changes, so
/// that the host refuses evaluator plugins built against the old one.
pub const STATE_LAYOUT: u32 = 1;

/// Longest possible game: 60 placements, and at most one pass before each
/// (a pass is only ever followed by a placement, as two passes in a row
/// would mean the game had already ended).
const MAX_PLIES: u32 = 120;

/// Static value of each square for move ordering. Corners are worth most
/// because they can never be flipped; the X-squares (diagonally next to a
/// corner) and C-squares (beside a corner) are worst because they tend to
/// hand the corner to the opponent.
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    100, -20,  10,   5,   5,  10, -20, 100,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
     10,  -2,   1,   1,   1,   1,  -2,  10,
      5,  -2,   1,   0,   0,   1,  -2,   5,
      5,  -2,   1,   0,   0,   1,  -2,   5,
     10,  -2,   1,   1,   1,   1,  -2,  10,
    -20, -50,  -2,  -2,  -2,  -2, -50, -20,
    100, -20,  10,   5,   5,  10, -20, 100,
];

/// An Othello game: the current position and the discs before each move
/// played since the last `set_position`, so that `unmake_move` is a pop
/// (every move, the pass included, hands the turn over, so the side to
/// move before it is the other one and need not be kept).
///
/// `#[repr(C)]` so that `position` is at offset 0: that prefix is the state
/// layout external evaluators read ([`STATE_LAYOUT`]); `history` is private
/// to the rules and not part of the contract.
#[derive(Debug, Clone)]
#[repr(C)]
pub struct Othello {
    position: Position,
    history: Vec<[u64; 2]>,
    /// The side to move's legal placements, computed once per position:
    /// the search asks `outcome`, `is_legal` and `gen_moves` of the same
    /// position, and each needs them. [`UNKNOWN`] until first asked.
    placements: Cell<u64>,
}

/// No position has every square as a legal placement (a placement needs a
/// disc next to it), so this marks "not computed yet".
const UNKNOWN: u64 = u64::MAX;

impl Othello {
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side to move's legal placements, from the cache (computed on
    /// first use in each position).
    #[inline]
    pub fn own_placements(&self) -> u64 {
        let cached = self.placements.get();
        if cached != UNKNOWN {
            return cached;
        }
        let placements = self.position.placements();
        self.placements.set(placements);
        placements
    }

    /// Whether the opponent could place a disc (the side to move then
    /// passes instead of the game ending).
    fn opponent_can_place(&self) -> bool {
        let (own, opp) = self.position.own_and_opponent();
        crate::board::legal_placements(opp, own) != 0
    }

    /// Number of moves that `unmake_move` can still take back.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// Solve in `window`: (-1, 1) in the `wld` mode, the full window for
    /// the exact score, or the host's. A finished game gets its final
    /// score (its sign in the `wld` mode) and no move.
    fn solve_in(&self, host: &mut SolveHost<'_>, (alpha, beta): (i32, i32)) -> Option<SolveResult> {
        let wld = WIN_LOSS_DRAW.load(Ordering::Relaxed);
        let exactness = if wld {
            abi::SOLVE_WIN_LOSS_DRAW
        } else {
            abi::SOLVE_EXACT
        };
        let (own, opp) = self.position.own_and_opponent();
        if self.position.is_game_over() {
            let score = endgame::final_score(own, opp);
            return Some(SolveResult {
                score: if wld { score.signum() } else { score },
                best: PASS,
                nodes: 0,
                complete: 1,
                exactness,
            });
        }
        let thread = host.thread();
        let solution = endgame::solve(own, opp, alpha, beta, thread, &mut HostTable { host });
        Some(SolveResult {
            score: solution.score,
            best: solution.best.unwrap_or(PASS),
            nodes: solution.nodes,
            complete: u32::from(solution.complete),
            exactness,
        })
    }
}

/// SplitMix64's finaliser: a bijection on `u64` in which every input bit
/// affects every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Game for Othello {
    const NAME: &'static str = "othello";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const VARIANTS: &'static [Variant] = &[Variant {
        name: "othello",
        start_position: text::START_TEXT,
    }];
    // No null move: zugzwang-like positions are common in Othello, so
    // null-move pruning would be unsound. Late-move reductions are declared
    // (+74 +/- 40 Elo over 300 games at 1 s + 0.01 s); futility pruning is
    // not (-15 +/- 38 Elo in the same test: the evaluation swings too much
    // from one ply to the next for a fixed margin). Perft follows the
    // published figures, which count a game that ended early as a leaf.
    // Singular extensions are recommended: +81 +/- 34 Elo over 400 games at
    // 0.5 s + 0.01 s (docs/search.md), where xiangqi measured no gain.
    const CAPABILITIES: u64 = abi::CAP_PERFT_COUNTS_ENDED_GAMES
        | abi::CAP_REDUCTIONS
        | abi::CAP_PREFERS_SINGULAR
        | abi::CAP_PREFERS_NODE_PROBCUT;
    const MAX_GAME_PLIES: u32 = MAX_PLIES;
    const STATE_LAYOUT: u32 = STATE_LAYOUT;
    const HAS_ORDER_HINTS: bool = true;
    const HAS_IS_LEGAL: bool = true;
    const HAS_SOLVER: bool = true;
    const HAS_COUNT_AFTER: bool = true;
    const OPTIONS: &'static [GameOption] = &[
        GameOption {
            name: ENDGAME_EMPTIES_OPTION,
            kind: GameOptionKind::Spin {
                default: DEFAULT_ENDGAME_EMPTIES as i64,
                min: 0,
                max: 60,
            },
        },
        GameOption {
            name: ENDGAME_MODE_OPTION,
            kind: GameOptionKind::Combo {
                default: "exact",
                choices: &["exact", "wld"],
            },
        },
    ];

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        if name == ENDGAME_EMPTIES_OPTION {
            let empties = value
                .parse::<u32>()
                .ok()
                .filter(|&e| e <= 60)
                .ok_or_else(|| format!("'{value}' is not a number of empty squares in 0..=60"))?;
            ENDGAME_EMPTIES.store(empties, Ordering::Relaxed);
        } else if name == ENDGAME_MODE_OPTION {
            let wld = match value {
                "exact" => false,
                "wld" => true,
                _ => return Err(format!("'{value}' is not exact or wld")),
            };
            WIN_LOSS_DRAW.store(wld, Ordering::Relaxed);
        } else {
            return Err(format!("unknown option '{name}'"));
        }
        Ok(())
    }

    /// The empty squares; solved automatically up to `EndgameEmpties` of
    /// them. A finished game is left to the search (it has no move).
    fn endgame_size(&self) -> Option<(u32, bool)> {
        if self.position.is_game_over() {
            return None;
        }
        let empties = 64 - (self.position.black | self.position.white).count_ones();
        let threshold = ENDGAME_EMPTIES.load(Ordering::Relaxed);
        Some((empties, empties <= threshold))
    }

    /// A finished game is answered too, with its final score and no
    /// move: the host solves each root move's position for several lines,
    /// and a move may end the game.
    fn solve(&mut self, host: &mut SolveHost<'_>) -> Option<SolveResult> {
        let full = if WIN_LOSS_DRAW.load(Ordering::Relaxed) {
            (-1, 1)
        } else {
            (-SCORE_INFINITY, SCORE_INFINITY)
        };
        self.solve_in(host, full)
    }

    /// The exact solve's window, where the mode is `exact`; `wld` solves
    /// as [`Game::solve`] does.
    fn solve_window(
        &mut self,
        host: &mut SolveHost<'_>,
        alpha: i32,
        beta: i32,
    ) -> Option<SolveResult> {
        if WIN_LOSS_DRAW.load(Ordering::Relaxed) {
            return None;
        }
        self.solve_in(host, (alpha, beta))
    }

    fn new(_variant: usize) -> Self {
        // The solver's order weights, decoded here (once), off a search's
        // clock: the host makes a state for every game and position.
        crate::endgame::prepare_order_evaluation();
        Othello {
            position: Position::START,
            history: Vec::with_capacity(MAX_PLIES as usize),
            placements: Cell::new(UNKNOWN),
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), String> {
        // Parse fully before touching `self`, so an error leaves it as it was.
        self.position = text::parse_position(text)?;
        self.history.clear();
        self.placements.set(UNKNOWN);
        Ok(())
    }

    fn position_text(&self) -> String {
        text::format_position(&self.position)
    }

    #[inline]
    fn side_to_move(&self) -> u32 {
        match self.position.side {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    #[inline]
    fn outcome(&self) -> Outcome {
        if self.own_placements() != 0 || self.opponent_can_place() {
            return Outcome::Ongoing;
        }
        let (own, opp) = self.position.own_and_opponent();
        match own.count_ones().cmp(&opp.count_ones()) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Less => Outcome::Loss,
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    const HAS_OUTCOME_REASON: bool = true;

    /// Who won a finished game, and by how many discs: `Black has 39
    /// discs, White 25`; empty while the game goes on.
    fn outcome_reason(&self) -> String {
        if self.outcome() == Outcome::Ongoing {
            return String::new();
        }
        let (black, white) = (
            self.position.black.count_ones(),
            self.position.white.count_ones(),
        );
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => format!("Black has {black} discs, White {white}"),
            std::cmp::Ordering::Less => format!("White has {white} discs, Black {black}"),
            std::cmp::Ordering::Equal => format!("{black} discs each"),
        }
    }

    const HAS_ILLEGAL_REASON: bool = true;

    /// A taken square, a placement that flips nothing, a placement where
    /// the side can only pass, a pass where it has a placement; empty for
    /// a legal move and at a game's end (the host says the game is over).
    fn illegal_reason(&self, mv: Move) -> String {
        if self.is_legal(mv) || self.outcome() != Outcome::Ongoing {
            return String::new();
        }
        let side = match self.position.side {
            Color::Black => "Black",
            Color::White => "White",
        };
        let placements = self.own_placements();
        if mv == PASS {
            let count = placements.count_ones();
            let moves = if count == 1 {
                "placement"
            } else {
                "placements"
            };
            return format!("{side} may pass only with no placement, and has {count} {moves}");
        }
        if mv >= 64 {
            return String::new();
        }
        let square = text::format_move(mv);
        let bit = 1u64 << mv;
        if self.position.black & bit != 0 {
            format!("{square} holds a black disc")
        } else if self.position.white & bit != 0 {
            format!("{square} holds a white disc")
        } else if placements == 0 {
            format!("{side} has no placement and must pass (0000)")
        } else {
            format!("a disc on {square} would flip none of the other side's")
        }
    }

    #[inline]
    fn generate_moves(&self, moves: &mut MoveSink<'_>) {
        let placements = self.own_placements();
        if placements != 0 && moves.counts_only() {
            moves.add_count(placements.count_ones() as usize);
        } else if placements != 0 {
            squares(placements).for_each(|square| moves.push(square));
        } else if self.opponent_can_place() {
            moves.push(PASS);
        }
        // Neither side can place: the game is over and there is no move.
    }

    /// One bit test on the placement bitboard; the pass is legal exactly
    /// when the side to move cannot place but the opponent can (so the game
    /// is not over).
    fn is_legal(&self, mv: Move) -> bool {
        let placements = self.own_placements();
        if mv < 64 {
            placements & (1u64 << mv) != 0
        } else {
            mv == PASS && placements == 0 && self.opponent_can_place()
        }
    }

    #[inline]
    fn make_move(&mut self, mv: Move) {
        debug_assert!(
            mv == PASS || (mv < 64 && self.position.placements() & (1u64 << mv) != 0),
            "illegal move {mv} in {}",
            self.position_text()
        );
        self.history
            .push([self.position.black, self.position.white]);
        self.position = self.position.play(mv);
        self.placements.set(UNKNOWN);
    }

    /// The discs after `mv`, then the placements there: no history push,
    /// no cache to reset. The pass counts as one move, as in
    /// `generate_moves`; a game over has none.
    #[inline]
    fn count_after(&self, mv: Move) -> Option<u64> {
        // The two bitboards of the position after `mv`, its side to move's
        // first, without building a `Position` (whose play stays out of
        // line here).
        let (mover, other) = self.position.own_and_opponent();
        let (own, opp) = if mv == PASS {
            (other, mover)
        } else {
            let disc = 1u64 << (mv & 63);
            let flipped = crate::board::flips(mover, other, disc);
            (other & !flipped, mover | disc | flipped)
        };
        let placements = crate::board::legal_placements(own, opp);
        Some(if placements != 0 {
            u64::from(placements.count_ones())
        } else {
            u64::from(crate::board::legal_placements(opp, own) != 0)
        })
    }

    #[inline]
    fn unmake_move(&mut self, _mv: Move) {
        // The host only takes back moves it made; an empty stack is a host
        // bug, and the panic becomes an error code at the boundary.
        let [black, white] = self
            .history
            .pop()
            .expect("unmake_move called with no move to take back");
        self.position = Position {
            black,
            white,
            side: self.position.side.opponent(),
        };
        self.placements.set(UNKNOWN);
    }

    #[inline]
    fn hash(&self) -> u64 {
        // The side to move picks the key mixed into the black discs, so the
        // same discs with the other side to move hash differently.
        let side_key = match self.position.side {
            Color::Black => 0x9e37_79b9_7f4a_7c15,
            Color::White => 0xd1b5_4a32_d192_ed03,
        };
        mix(mix(self.position.black ^ side_key) ^ self.position.white)
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        text::parse_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        text::format_move(mv)
    }

    fn board_text(&self) -> String {
        text::board_picture(&self.position)
    }

    fn order_hints(&self, moves: &[Move], scores: &mut [i32]) {
        for (mv, score) in moves.iter().zip(scores.iter_mut()) {
            // The pass (and anything unexpected) is neutral.
            *score = SQUARE_VALUE.get(*mv as usize).copied().unwrap_or(0);
        }
    }

    /// Native perft on bare bitboards. Like the host's walk under
    /// `CAP_PERFT_COUNTS_ENDED_GAMES`, it counts a game that ended early as
    /// one leaf, which is how the published figures count (see the `perft`
    /// module).
    fn perft(&mut self, depth: u32) -> u64 {
        let (own, opp) = self.position.own_and_opponent();
        crate::perft::perft(own, opp, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legal moves of `game`.
    fn legal(game: &Othello) -> Vec<Move> {
        let mut buf = [0; 65];
        let mut sink = MoveSink::new(&mut buf);
        game.generate_moves(&mut sink);
        let count = sink.len();
        buf[..count].to_vec()
    }

    #[test]
    fn a_refused_move_says_which_rule_it_breaks() {
        let start = Othello::new(0);
        let why = |text: &str| start.illegal_reason(text::parse_move(text).expect("a move"));
        assert_eq!(why("d4"), "d4 holds a white disc");
        assert_eq!(why("e4"), "e4 holds a black disc");
        assert_eq!(
            why("a1"),
            "a disc on a1 would flip none of the other side's"
        );
        assert_eq!(
            why("0000"),
            "Black may pass only with no placement, and has 4 placements"
        );
        assert_eq!(why("d3"), "", "a legal move has no reason against it");
        // Over random games, every square and the pass: a reason exactly
        // where the move is not legal, and the must-pass reason met.
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut passes_met = 0;
        for _ in 0..200 {
            let mut game = Othello::new(0);
            loop {
                let moves = legal(&game);
                for mv in (0..64).chain([PASS]) {
                    let reason = game.illegal_reason(mv);
                    let ended = game.outcome() != Outcome::Ongoing;
                    assert_eq!(
                        reason.is_empty(),
                        ended || moves.contains(&mv),
                        "{mv}: {reason}"
                    );
                }
                if moves == [PASS] {
                    let side = if game.side_to_move() == 0 {
                        "Black"
                    } else {
                        "White"
                    };
                    let square = (0..64).find(|&sq| {
                        game.position.black & 1 << sq == 0 && game.position.white & 1 << sq == 0
                    });
                    assert_eq!(
                        game.illegal_reason(square.expect("an empty square")),
                        format!("{side} has no placement and must pass (0000)")
                    );
                    passes_met += 1;
                }
                if moves.is_empty() {
                    break;
                }
                let pick = crate::testing::next(&mut rng) % moves.len() as u64;
                game.make_move(moves[pick as usize]);
            }
        }
        assert!(passes_met > 0, "no pass in the random games");
    }

    #[test]
    fn both_solver_bounds_and_the_level_survive_the_host_score() {
        for level in [0, 1, 2, 255] {
            for lower in -SCORE_INFINITY..=SCORE_INFINITY {
                for upper in lower..=SCORE_INFINITY {
                    assert_eq!(
                        unpack_bounds(pack_bounds(lower, upper, level)),
                        Some((lower, upper, level))
                    );
                }
            }
        }
        // Scores the solver never writes are not read as bounds.
        for score in [
            -1,
            1 << 16,
            1 << 24,
            pack_bounds(5, 4, 0),
            pack_bounds(-64, 66, 1),
        ] {
            assert_eq!(unpack_bounds(score), None);
        }
    }
}
