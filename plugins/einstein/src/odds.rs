//! The `odds` evaluator, plyd's default for EinStein: an estimate of the
//! probability that the side to move wins, reported as
//! `(2p - 1) × scale`.
//!
//! # Small endings: exact
//!
//! With three stones or fewer on the board the probability is exact, from
//! the retrograde table of [`crate::endgame`] (best play by both sides,
//! every roll weighed). With four or five (`exact_stones`, 5 by default)
//! it is exact once the
//! thread's solver ([`crate::exact`]) has solved the ending, which it does
//! a paced share at a time; until then it is estimated as below.
//!
//! # Otherwise: learned, or the race to the corner
//!
//! By default (`learned = true`) the estimate is that of the n-tuple
//! network of [`crate::learned`], trained by temporal differences in games
//! against itself. With `learned = false` it is the race, below.
//!
//! Each side races for its corner. A stone `d` king steps away needs `d`
//! of its side's turns in which the die selects it; a stone that `k` faces
//! of the die select (its own face, and the faces of missing stones next
//! to it) is selected with probability `k/6` each turn. A face that lets
//! the player choose between two stones goes to the stone nearer its
//! corner (the choice a racing player makes). One stone moves a turn, so
//! the side has not finished after `t` of its turns with the multinomial
//! probability that every stone has had fewer than its `d` turns:
//!
//! ```text
//! S(t) = t! [z^t] Π_stones Σ_(j<d) (k z / 6)^j / j!
//! ```
//!
//! a polynomial of degree 18 at most (`exact_race = true`, the default;
//! `false` takes the stones as independent, `S(t) = Π P(Binomial(t, k/6) <
//! d)`, the first version, kept for comparison). The side to move, which
//! plays first, wins the race with probability
//! `Σ_t (S_me(t-1) - S_me(t)) · S_them(t-1)` (its `t`-th turn comes before
//! the opponent's `t`-th). Races still running after `horizon` turns count
//! one half.
//!
//! The race knows which stones cover most faces: capturing one's own
//! stone, or losing one, gives its faces to its neighbours by number, and
//! the estimate follows.
//!
//! # Captures to come
//!
//! A stone that an enemy stone could take with its next step is taken off
//! in a share `w · f / 6` of the cases, `f` being the faces of the enemy's
//! next roll that let it move an attacker and `w` the weight
//! (`threat_mine` for the stones of the side to move, `threat_theirs` for
//! the others', 1 by default). The race is counted again for each case (up
//! to three attacked stones a side, so at most eight cases), with the faces
//! of the stones taken off passed to their neighbours, and the cases are
//! averaged by their shares.
//!
//! Once the die is cast for the side to move, the evaluation is the best
//! of its steps: 1 for a step that wins, else one minus the opponent's
//! probability after it. At the set-up stage every position scores 0.
//!
//! # The set-up book
//!
//! In a game whose arrangements are known, the estimate is shifted by the
//! set-up book's judgement of the two arrangements, fully at the first
//! position of play and less as the stones leave their start squares
//! ([`crate::setup`]; `setup_book = false` leaves it out), so that the
//! search over the set-up ply picks the book's arrangement.

use plyd_api::{Evaluator, Game, Outcome, Shallow, ShallowResult};
use plyd_einstein_rules::board::{distance, steps, Board, NO_SQUARE, STAGE_PLAY};
use plyd_einstein_rules::EinStein;
use plyd_params::ParamsError;
use serde::Deserialize;

use std::sync::Arc;

use crate::{endgame, exact, learned, setup};
use plyd_api::pooled::{Pool, Pooled};

/// The default parameters.
pub const DEFAULT_PARAMS: &str = include_str!("../odds.toml");

/// Every score lies within this; it is also the largest scale accepted.
pub const SCORE_BOUND: i32 = 1000;

/// `t!` for the exact race's coefficients (its polynomials have degree 18
/// at most: six stones, each at most four steps away).
const FACTORIAL: [f64; 25] = {
    let mut f = [1.0; 25];
    let mut t = 1;
    while t < 25 {
        f[t] = f[t - 1] * t as f64;
        t += 1;
    }
    f
};

/// Entries of each thread's cache of counted positions (a power of two).
const CACHE_BITS: u32 = 16;

/// A per-thread cache for one evaluator (`owner`) and one game (see
/// [`exact::forget_solved`]: a count found here earns the solver no
/// budget, so a cache kept from an earlier game would pace this game's
/// solves otherwise): direct-mapped, `1 << bits` slots, the newest entry
/// in a slot staying; the key is the whole input, so a hit is never
/// another input's.
struct Cache<V> {
    owner: u64,
    game: u64,
    bits: u32,
    empty: V,
    keys: Vec<u64>,
    values: Vec<V>,
}

impl<V: Copy> Cache<V> {
    const fn new(bits: u32, empty: V) -> Self {
        Cache {
            owner: 0,
            game: 0,
            bits,
            empty,
            keys: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The value kept for `key`, else the one `count` gives, kept when
    /// `count` says it is final. The cache is emptied first when it is
    /// another owner's or an earlier game's (or not made yet). A hit is copied once, straight
    /// from its slot (a side's count is 20 numbers).
    fn get_or_count(&mut self, owner: u64, key: u64, count: impl FnOnce() -> (V, bool)) -> V {
        let game = exact::game();
        if self.owner != owner || self.game != game || self.keys.is_empty() {
            self.owner = owner;
            self.game = game;
            self.keys.clear();
            self.keys.resize(1 << self.bits, NO_KEY);
            self.values.clear();
            self.values.resize(1 << self.bits, self.empty);
        }
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        if self.keys[slot] == key {
            return self.values[slot];
        }
        let (value, keep) = count();
        if keep {
            self.keys[slot] = key;
            self.values[slot] = value;
        }
        value
    }
}

/// [`CACHE`]s left by threads that have ended (see [`plyd_api::pooled`]).
static COUNTS: Pool<Cache<f64>> = Pool::new();

thread_local! {
    /// What [`Odds::before_roll`] counted, by position.
    static CACHE: std::cell::RefCell<Pooled<Cache<f64>>> =
        std::cell::RefCell::new(COUNTS.take_or(|| Cache::new(CACHE_BITS, 0.0)));
}

/// The highest degree of the exact race's polynomial: six stones, each at
/// most four steps away, give `6 × 3`.
const MAX_DEGREE: usize = 18;

/// One side's counted `S(t)`: [`MAX_DEGREE`] + 1 coefficients, then the
/// value of every later `t`.
type Counted = [f64; MAX_DEGREE + 2];

/// Entries of each thread's cache of counted sides (a power of two).
const SIDE_BITS: u32 = 14;

/// [`SIDES`] caches left by threads that have ended (see [`plyd_api::pooled`]).
static SIDE_COUNTS: Pool<Cache<Counted>> = Pool::new();

thread_local! {
    /// What [`Odds::not_finished_exact`] counted for one side, by its
    /// stones and the threats to them. A position's two sides recur far
    /// more often than the position: a move changes one side's stones.
    static SIDES: std::cell::RefCell<Pooled<Cache<Counted>>> =
        std::cell::RefCell::new(SIDE_COUNTS.take_or(|| {
            Cache::new(SIDE_BITS, [0.0; MAX_DEGREE + 2])
        }));
}

/// A key no position has.
const NO_KEY: u64 = u64::MAX;

/// Each evaluator's number, so that two evaluators (other parameters) in
/// one thread never read each other's counts.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The position in play as a number: each stone's square (five bits, 31
/// for a stone off the board) and the side to move. All the race and the
/// table read.
fn position_key(board: &Board) -> u64 {
    let mut key = u64::from(board.side & 1);
    for side in 0..2 {
        for &sq in &board.squares[side][1..] {
            key = key << 5 | u64::from(if sq == NO_SQUARE { 31 } else { sq & 31 });
        }
    }
    key
}

/// The longest horizon accepted, in turns of each side.
const MAX_HORIZON: usize = 96;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    scale: f64,
    horizon: usize,
    endgame_table: bool,
    threat_mine: f64,
    threat_theirs: f64,
    exact_race: bool,
    /// Absent in files written before the exact solver: the defaults.
    #[serde(default = "default_exact_stones")]
    exact_stones: usize,
    #[serde(default = "default_exact_budget")]
    exact_budget: usize,
    #[serde(default = "default_exact_rate")]
    exact_rate: f64,
    #[serde(default = "default_setup_book")]
    setup_book: bool,
    /// Absent in files written before the learned estimate: the race.
    #[serde(default)]
    learned: bool,
    #[serde(default)]
    learned_weights: String,
    /// Absent in files written before the blend: the learned estimate alone.
    #[serde(default)]
    race_share: f64,
}

fn default_setup_book() -> bool {
    true
}

fn default_exact_rate() -> f64 {
    0.5
}

fn default_exact_stones() -> usize {
    5
}

fn default_exact_budget() -> usize {
    20_000
}

/// The odds evaluator and its parameters.
#[derive(Debug, Clone)]
pub struct Odds {
    scale: f64,
    horizon: usize,
    endgame_table: bool,
    threat_mine: f64,
    threat_theirs: f64,
    exact_race: bool,
    /// Endings of up to this many stones are solved exactly ([`exact`]).
    exact_stones: usize,
    /// New positions one evaluation may solve.
    exact_budget: usize,
    /// Positions earned for the solver by each position counted.
    exact_rate: f64,
    /// Shift the estimate by the set-up book while stones stand on their
    /// start squares ([`crate::setup`]).
    setup_book: bool,
    /// The learned estimate in place of the race ([`crate::learned`]).
    learned: Option<Arc<learned::Net>>,
    /// With `learned`, the race's share of the estimate, blended in log-odds.
    race_share: f64,
    /// `reach[k][d][t]`: probability that a stone selected by `k` faces
    /// has made `d` steps within `t` turns.
    reach: Vec<[[f64; MAX_HORIZON + 1]; 5]>,
    /// This evaluator's number in the threads' caches.
    id: u64,
}

impl Default for Odds {
    fn default() -> Self {
        Odds::from_toml(DEFAULT_PARAMS).expect("the shipped odds.toml is valid")
    }
}

impl Odds {
    /// The shipped parameters with the race in place of the learned
    /// estimate (`learned = false`), as the set-up book was built.
    pub fn racing() -> Self {
        Odds {
            learned: None,
            ..Odds::default()
        }
    }
}

/// The log-odds of `p` as `race_share` blends them, a sure result counted
/// as one in a million.
fn log_odds(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    (p / (1.0 - p)).ln()
}

/// Faces of the die that select each stone of `side` (index by number), a
/// shared face going to the stone nearer its corner.
pub fn racing_faces(board: &Board, side: usize) -> [u8; 7] {
    let (alive, dist) = stones_of(board, side);
    faces_of(alive, &dist)
}

/// The stones `side` has on the board (bit n for stone n) and each one's
/// distance from its corner.
fn stones_of(board: &Board, side: usize) -> (u8, [usize; 7]) {
    let mut alive = 0u8;
    let mut dist = [0usize; 7];
    for s in 1..=6u8 {
        let sq = board.squares[side][usize::from(s)];
        if sq != NO_SQUARE {
            alive |= 1 << s;
            dist[usize::from(s)] = usize::from(distance(side, sq));
        }
    }
    (alive, dist)
}

/// [`racing_faces`] of the stones in `alive` (bit n for stone n), at
/// distances `dist` from their corner.
fn faces_of(alive: u8, dist: &[usize; 7]) -> [u8; 7] {
    let mut faces = [0; 7];
    for face in 1..=6usize {
        let pick = if alive & 1 << face != 0 {
            face
        } else {
            let lower = (1..face).rev().find(|&s| alive & 1 << s != 0);
            let higher = (face + 1..=6).find(|&s| alive & 1 << s != 0);
            match (lower, higher) {
                (Some(l), Some(h)) => {
                    if dist[h] < dist[l] {
                        h
                    } else {
                        l
                    }
                }
                (Some(s), None) | (None, Some(s)) => s,
                (None, None) => continue,
            }
        };
        faces[pick] += 1;
    }
    faces
}

/// Entries of each thread's cache of race polynomials (a power of two).
const POLY_BITS: u32 = 14;

/// A race polynomial and its degree.
type Polynomial = ([f64; MAX_DEGREE + 1], usize);

/// [`POLYNOMIALS`] caches left by threads that have ended (see [`plyd_api::pooled`]).
static RACE_POLYNOMIALS: Pool<Cache<Polynomial>> = Pool::new();

thread_local! {
    /// The race polynomials counted by [`race_polynomial`], by their
    /// stones' distances. They depend on the stones alone, not on an
    /// evaluator's parameters, so every evaluator shares them (owner 0).
    static POLYNOMIALS: std::cell::RefCell<Pooled<Cache<Polynomial>>> =
        std::cell::RefCell::new(RACE_POLYNOMIALS.take_or(|| {
            Cache::new(POLY_BITS, ([0.0; MAX_DEGREE + 1], 0))
        }));
}

/// `Π_stones Σ_(j<d) (k/6 · z)^j / j!` for the stones in `alive` (bit n
/// for stone n) at distances `dist`, `k` their [`faces_of`], and its
/// degree; from this thread's cache when counted before.
fn race_polynomial(alive: u8, dist: &[usize; 7]) -> Polynomial {
    // Each stone's distance plus one, or 0 where it is gone: 3 bits each.
    let mut key = 0u64;
    for (s, &d) in dist.iter().enumerate().skip(1) {
        if alive & 1 << s != 0 {
            key |= (d as u64 + 1) << (3 * (s - 1));
        }
    }
    POLYNOMIALS.with(|cache| {
        cache
            .borrow_mut()
            .get_or_count(0, key, || (multiply_out(alive, dist), true))
    })
}

/// [`race_polynomial`] counted.
fn multiply_out(alive: u8, dist: &[usize; 7]) -> Polynomial {
    let faces = faces_of(alive, dist);
    // The product, in place: a stone's factor has degree d - 1, so each
    // coefficient is rebuilt from the top down out of the lower ones,
    // summed in the order of the schoolbook product.
    let mut poly = [0.0f64; MAX_DEGREE + 1];
    poly[0] = 1.0;
    let mut degree = 0;
    for s in 1..=6usize {
        if alive & 1 << s == 0 || faces[s] == 0 {
            continue;
        }
        let p = f64::from(faces[s]) / 6.0;
        let d = dist[s];
        // Σ_(j<d) p^j / j!
        let mut factor = [0.0f64; 5];
        let mut term = 1.0;
        for (j, f) in factor.iter_mut().enumerate().take(d) {
            *f = term;
            term *= p / (j + 1) as f64;
        }
        let top = degree + d - 1;
        for k in (0..=top).rev() {
            let lo = k.saturating_sub(degree);
            let hi = k.min(d - 1);
            let mut sum = 0.0;
            for b in (lo..=hi).rev() {
                sum += poly[k - b] * factor[b];
            }
            poly[k] = sum;
        }
        degree = top;
    }
    (poly, degree)
}

impl Odds {
    /// Read and check parameters.
    pub fn from_toml(text: &str) -> Result<Self, ParamsError> {
        let p: Params = plyd_params::parse(text)?;
        plyd_params::check_range("scale", p.scale, 1.0, f64::from(SCORE_BOUND))?;
        plyd_params::check_range("horizon", p.horizon, 1, MAX_HORIZON)?;
        let mut reach = vec![[[0.0; MAX_HORIZON + 1]; 5]; 7];
        for (k, by_distance) in reach.iter_mut().enumerate() {
            let q = k as f64 / 6.0;
            // Probability of exactly j successes in t trials, j = 0..=4.
            let mut exactly = [1.0, 0.0, 0.0, 0.0, 0.0];
            for t in 0..=MAX_HORIZON {
                let mut at_least: f64 = 1.0;
                for (d, row) in by_distance.iter_mut().enumerate() {
                    if d > 0 {
                        at_least -= exactly[d - 1];
                    }
                    row[t] = at_least.max(0.0);
                }
                for j in (0..5).rev() {
                    exactly[j] =
                        exactly[j] * (1.0 - q) + if j > 0 { exactly[j - 1] * q } else { 0.0 };
                }
            }
        }
        Ok(Odds {
            scale: p.scale,
            horizon: p.horizon,
            endgame_table: p.endgame_table,
            threat_mine: plyd_params::check_range("threat_mine", p.threat_mine, 0.0, 1.0)?,
            threat_theirs: plyd_params::check_range("threat_theirs", p.threat_theirs, 0.0, 1.0)?,
            exact_race: p.exact_race,
            exact_stones: plyd_params::check_range("exact_stones", p.exact_stones, 3, 12)?,
            exact_budget: plyd_params::check_range("exact_budget", p.exact_budget, 0, 1 << 24)?,
            exact_rate: plyd_params::check_range("exact_rate", p.exact_rate, 0.0, 1000.0)?,
            setup_book: p.setup_book,
            learned: match (p.learned, p.learned_weights.as_str()) {
                (false, _) => None,
                (true, "") => Some(learned::shipped()),
                (true, path) => Some(
                    learned::from_file(path)
                        .map_err(|e| ParamsError::at_key("learned_weights", e))?,
                ),
            },
            race_share: plyd_params::check_range("race_share", p.race_share, 0.0, 1.0)?,
            reach,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// `S(t)` for `side`, for t = 0..=horizon, its stones discounted by
    /// `threat` times the chance that the enemy's next roll lets it take
    /// them.
    fn not_finished(
        &self,
        board: &Board,
        side: usize,
        threat: f64,
        out: &mut [f64; MAX_HORIZON + 1],
    ) {
        let faces = racing_faces(board, side);
        let enemy = 1 - side;
        // For each enemy stone, the faces that let the enemy move it.
        let mut selectable = [0u8; 7];
        for face in 1..=6u8 {
            let (stones, n) = board.movable(enemy, face);
            for &e in &stones[..n] {
                selectable[usize::from(e)] |= 1 << face;
            }
        }
        out[..=self.horizon].fill(1.0);
        for s in 1..=6u8 {
            let sq = board.squares[side][usize::from(s)];
            if sq == NO_SQUARE {
                continue;
            }
            let d = usize::from(distance(side, sq));
            let row = &self.reach[usize::from(faces[usize::from(s)])][d];
            // The faces of the enemy's next roll that let it take this stone.
            let mut attack = 0u8;
            for e in 1..=6u8 {
                let at = board.squares[enemy][usize::from(e)];
                if at != NO_SQUARE {
                    let (to, n) = steps(enemy, at);
                    if to[..n].contains(&sq) {
                        attack |= selectable[usize::from(e)];
                    }
                }
            }
            let lost = threat * f64::from(attack.count_ones()) / 6.0;
            for (o, r) in out[..=self.horizon].iter_mut().zip(row) {
                *o *= lost + (1.0 - lost) * (1.0 - r);
            }
        }
    }

    /// `S(t)` for `side` counted exactly: the die selects one stone a
    /// turn, so the side has not finished after `t` turns with the
    /// multinomial probability that every stone has had fewer turns than
    /// its distance, `t! [z^t] Π_stones Σ_(j<d) (k/6 · z)^j / j!`. A stone
    /// the enemy may take next is taken off in a share `threat` × (faces
    /// of the enemy's roll that allow it) / 6 of the cases, its faces then
    /// going to its neighbours by number. `S(0..=MAX_DEGREE)`, then the
    /// value of every later `t`, from this thread's cache of counted
    /// sides when counted before.
    fn not_finished_exact(&self, board: &Board, side: usize, threat: f64) -> Counted {
        let enemy = 1 - side;
        let (alive, dist) = stones_of(board, side);
        // The key of the count: the side and its threat's role, then 8 bits
        // a stone: its square (31 if gone) and the count of faces that
        // attack it.
        let stone_shift = |s: u8| 2 + 8 * u32::from(s - 1);
        let mut key = side as u64 | u64::from(threat == self.threat_mine) << 1;
        for s in 1..=6u8 {
            let sq = board.squares[side][usize::from(s)];
            key |= u64::from(if sq == NO_SQUARE { 31 } else { sq & 31 }) << stone_shift(s);
        }
        // The stones the enemy may take next, with that chance.
        let mut attacked = [(0u8, 0.0f64); 3];
        let mut attacked_count = 0;
        if threat > 0.0 {
            // For each square, the faces of the enemy's roll that let it
            // step there.
            let mut reaching = [0u8; 25];
            for face in 1..=6u8 {
                let (stones, n) = board.movable(enemy, face);
                for &e in &stones[..n] {
                    let (to, m) = steps(enemy, board.squares[enemy][usize::from(e)]);
                    for &sq in &to[..m] {
                        reaching[usize::from(sq)] |= 1 << face;
                    }
                }
            }
            for s in 1..=6u8 {
                let sq = board.squares[side][usize::from(s)];
                if sq == NO_SQUARE {
                    continue;
                }
                let attack = reaching[usize::from(sq)];
                if attack != 0 && attacked_count < attacked.len() {
                    attacked[attacked_count] = (s, threat * f64::from(attack.count_ones()) / 6.0);
                    attacked_count += 1;
                    key |= u64::from(attack.count_ones()) << (stone_shift(s) + 5);
                }
            }
        }
        SIDES.with(|sides| {
            sides.borrow_mut().get_or_count(self.id, key, || {
                (
                    self.count_side(alive, &dist, &attacked[..attacked_count]),
                    true,
                )
            })
        })
    }

    /// `S(t)` for the stones in `alive` (bit n for stone n) at distances
    /// `dist`, some of them taken off by the enemy in the given shares:
    /// `S(0..=MAX_DEGREE)`, then the value of every later `t` (the share
    /// of the cases in which no stone is left).
    fn count_side(&self, alive: u8, dist: &[usize; 7], attacked: &[(u8, f64)]) -> Counted {
        let mut out = [0.0; MAX_DEGREE + 2];
        for subset in 0..1u32 << attacked.len() {
            let mut weight = 1.0;
            let mut left = alive;
            for (i, &(s, lost)) in attacked.iter().enumerate() {
                if subset >> i & 1 == 1 {
                    weight *= lost;
                    left &= !(1 << s);
                } else {
                    weight *= 1.0 - lost;
                }
            }
            if weight == 0.0 {
                continue;
            }
            if left == 0 {
                for o in out.iter_mut() {
                    *o += weight;
                }
                continue;
            }
            let (poly, degree) = race_polynomial(left, dist);
            for (t, o) in out[..=degree].iter_mut().enumerate() {
                *o += weight * FACTORIAL[t] * poly[t];
            }
        }
        out
    }

    /// The race estimate for the side to move, before its roll.
    pub fn race(&self, board: &Board) -> f64 {
        let me = board.mover();
        if self.exact_race {
            let mine = self.not_finished_exact(board, me, self.threat_mine);
            let theirs = self.not_finished_exact(board, 1 - me, self.threat_theirs);
            // Past the highest degree every value is the last one.
            let at = |c: &Counted, t: usize| c[t.min(MAX_DEGREE + 1)];
            let mut p = 0.0;
            for t in 1..=self.horizon {
                p += (at(&mine, t - 1) - at(&mine, t)) * at(&theirs, t - 1);
            }
            return p + 0.5 * at(&mine, self.horizon) * at(&theirs, self.horizon);
        }
        let mut mine = [0.0; MAX_HORIZON + 1];
        let mut theirs = [0.0; MAX_HORIZON + 1];
        self.not_finished(board, me, self.threat_mine, &mut mine);
        self.not_finished(board, 1 - me, self.threat_theirs, &mut theirs);
        let mut p = 0.0;
        for t in 1..=self.horizon {
            p += (mine[t - 1] - mine[t]) * theirs[t - 1];
        }
        p + 0.5 * mine[self.horizon] * theirs[self.horizon]
    }

    /// The probability that the side to move wins, before its roll:
    /// looked up in this thread's cache of positions already counted, else
    /// counted and kept there (an estimate made because the exact solver
    /// ran out of budget is not kept, so that the next visit solves on).
    fn before_roll(&self, board: &Board) -> f64 {
        let key = position_key(board);
        CACHE.with(|cache| {
            cache
                .borrow_mut()
                .get_or_count(self.id, key, || self.count_before_roll(board))
        })
    }

    /// [`Odds::before_roll`] without the cache, and whether the answer is
    /// final (not an estimate standing in for an unfinished exact solve).
    fn count_before_roll(&self, board: &Board) -> (f64, bool) {
        if self.endgame_table {
            if let Some(p) = endgame::win_probability(board) {
                return (p, true);
            }
            let stones = usize::from(board.counts[0] + board.counts[1]);
            if stones > self.exact_stones {
                exact::earn(self.exact_rate, self.exact_budget);
            } else {
                return match exact::paced_win_probability(
                    board,
                    self.exact_stones,
                    self.exact_rate,
                    self.exact_budget,
                ) {
                    Some(p) => (p, true),
                    None => (self.estimate(board), false),
                };
            }
        }
        (self.estimate(board), true)
    }

    /// The estimate where no exact value is at hand: the learned network's
    /// with `learned`, else the race's.
    fn estimate(&self, board: &Board) -> f64 {
        match &self.learned {
            Some(net) if self.race_share > 0.0 => {
                let x = (1.0 - self.race_share) * log_odds(net.probability(board))
                    + self.race_share * log_odds(self.race(board));
                1.0 / (1.0 + (-x).exp())
            }
            Some(net) => net.probability(board),
            None => self.race(board),
        }
    }

    /// The estimated probability that the side to move wins.
    pub fn probability(&self, board: &Board) -> f64 {
        if board.stage != STAGE_PLAY {
            return 0.5;
        }
        if let Some(w) = board.winner() {
            return if w == board.mover() { 1.0 } else { 0.0 };
        }
        if board.roll == 0 {
            return self.before_roll(board);
        }
        if self.endgame_table {
            if let Some(p) = endgame::win_probability(board) {
                return p;
            }
        }
        let mut best: f64 = 0.0;
        let mut steps = [0u32; 6];
        let mut n = 0;
        board.for_each_step(board.roll, &mut |mv| {
            steps[n] = mv;
            n += 1;
        });
        let mut child = board.clone();
        for &mv in &steps[..n] {
            let undo = child.play(mv);
            let value = match child.winner() {
                Some(_) => 1.0,
                None => 1.0 - self.before_roll(&child),
            };
            child.take_back(mv, undo);
            best = best.max(value);
        }
        best
    }

    /// The step this evaluator rates best one ply deep, after the roll: a
    /// winning step, else the one leaving the opponent the least chance.
    /// The simulations of the examples play by it. `board` must be in play
    /// with the die rolled.
    pub fn best_step(&self, board: &Board) -> u32 {
        let mut best = (f64::MIN, 0);
        board.for_each_step(board.roll, &mut |mv| {
            let mut child = board.clone();
            child.play(mv);
            let v = if child.is_over() {
                2.0
            } else {
                1.0 - self.probability(&child)
            };
            if v > best.0 {
                best = (v, mv);
            }
        });
        best.1
    }

    /// `p` shifted by the set-up book ([`setup::red_shift`]) in a game in
    /// play whose arrangements are known, the estimate not exact (more
    /// than `exact_stones` stones).
    fn with_setup_book(&self, state: &EinStein, p: f64) -> f64 {
        let board = state.board();
        if !self.setup_book
            || board.stage != STAGE_PLAY
            || board.is_over()
            || usize::from(board.counts[0] + board.counts[1]) <= self.exact_stones
        {
            return p;
        }
        let [Some(red), Some(blue)] = state.arrangements() else {
            return p;
        };
        let shift = setup::red_shift(board, usize::from(red), usize::from(blue));
        let shift = if board.mover() == 0 { shift } else { -shift };
        (p + shift).clamp(0.0, 1.0)
    }
}

impl Evaluator for Odds {
    type State = EinStein;
    const NAME: &'static str = "odds";
    const DESCRIPTION: &'static str =
        "Probability of winning: exact for four stones or fewer, else learned in self-play (or the race to the corner by die odds)";
    const GAME: &'static str = "einstein";
    const STATE_LAYOUT: u32 = plyd_einstein_rules::STATE_LAYOUT;
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        match params {
            None => Ok(Odds::default()),
            Some(text) => Odds::from_toml(text).map_err(|e| e.to_string()),
        }
    }

    /// The endings' solvers start the game empty: what they solved in an
    /// earlier game is true, but how far a paced solve gets, and so
    /// whether a position is scored exactly or estimated, would depend on
    /// the games before. The caches of counts stay: their values are the
    /// same whatever came before.
    fn new_game(&self) {
        crate::exact::forget_solved();
    }

    fn evaluate(&self, state: &EinStein) -> i32 {
        let p = self.with_setup_book(state, self.probability(state.board()));
        ((2.0 * p - 1.0) * self.scale)
            .round()
            .clamp(-f64::from(SCORE_BOUND), f64::from(SCORE_BOUND)) as i32
    }

    /// The host hands over the last ply of a node after its roll (in a
    /// game with chance nodes it hands over no more: the positions one
    /// step down wait for the opponent's roll, and with no plies left a
    /// chance node is scored as it stands).
    const SHALLOW_PLIES: u32 = 1;

    /// Every step of the rolled stone or stones, the position it reaches
    /// scored as [`Odds::evaluate`] scores it, a step that wins the game as
    /// a win one ply down; fail-soft alpha-beta over them, in the order the
    /// rules list them. The set-up stage and a position before its roll
    /// stay with the host.
    fn shallow_search(&self, state: &mut EinStein, request: Shallow) -> Option<ShallowResult> {
        let board = state.board();
        if request.depth != 1 || board.stage != STAGE_PLAY || board.roll == 0 || board.is_over() {
            return None;
        }
        // Two stones at most move on a roll, each in three directions.
        let mut moves = [0u32; 8];
        let mut count = 0;
        board.for_each_move(|mv| {
            if let Some(slot) = moves.get_mut(count) {
                *slot = mv;
            }
            count += 1;
        });
        if count == 0 || count > moves.len() {
            return None;
        }
        // The children are leaves: only `beta` decides anything here.
        let mut best = i32::MIN;
        let mut nodes = 0;
        for &mv in &moves[..count] {
            state.make_move(mv);
            nodes += 1;
            let value = match state.outcome() {
                Outcome::Ongoing => -self.evaluate(state),
                Outcome::Win => -request.ended(1, std::cmp::Ordering::Greater),
                Outcome::Loss => -request.ended(1, std::cmp::Ordering::Less),
                Outcome::Draw => 0,
            };
            state.unmake_move(mv);
            best = best.max(value);
            if best >= request.beta {
                break;
            }
        }
        Some(ShallowResult { score: best, nodes })
    }

    fn explain(&self, state: &EinStein) -> Vec<(String, f64)> {
        let board = state.board();
        let mut out = Vec::new();
        if board.stage == STAGE_PLAY && !board.is_over() {
            let exact = self.endgame_table
                && (endgame::win_probability(board).is_some()
                    || exact::win_probability(board, self.exact_stones, self.exact_budget)
                        .is_some());
            out.push(("exact_ending".to_string(), f64::from(u8::from(exact))));
            if board.roll == 0 {
                out.push(("race".to_string(), self.race(board)));
                if let Some(net) = &self.learned {
                    out.push(("learned".to_string(), net.probability(board)));
                }
            }
        }
        let p = self.probability(board);
        let shifted = self.with_setup_book(state, p);
        if shifted != p {
            out.push(("setup_book".to_string(), shifted - p));
        }
        out.push(("probability".to_string(), shifted));
        out.push(("total".to_string(), f64::from(self.evaluate(state))));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `racing` counts the race where the shipped `odds` asks the network,
    /// and the two differ there.
    #[test]
    fn racing_is_the_shipped_odds_with_the_race() {
        let racing = Odds::racing();
        let shipped = Odds::default();
        assert!(racing.learned.is_none());
        assert!(shipped.learned.is_some());
        let mut differ = 0;
        crate::test_games::for_positions_in_play(0x5151_2323_7878_9A9A, 20, |board| {
            if board.counts[0] + board.counts[1] > 4 {
                assert_eq!(racing.count_before_roll(board).0, racing.race(board));
                differ += usize::from(shipped.count_before_roll(board).0 != racing.race(board));
            }
        });
        assert!(differ > 100, "{differ}");
    }

    /// `race_share` blends the network's and the race's log-odds: 1 gives
    /// the race, a half their mean; out of 0 to 1 it is refused by name.
    #[test]
    fn race_share_blends_the_two_estimates() {
        let shipped = Odds::default();
        let racing = Odds::racing();
        let with =
            |share: &str| Odds::from_toml(&DEFAULT_PARAMS.replace("race_share = 0.0", share));
        let (half, all) = (
            with("race_share = 0.5").unwrap(),
            with("race_share = 1.0").unwrap(),
        );
        let mut compared = 0;
        crate::test_games::for_positions_in_play(0x0B1E_0D5E_7777_1234, 20, |board| {
            if board.counts[0] + board.counts[1] > 4 {
                let (net, race) = (shipped.estimate(board), racing.estimate(board));
                assert!((all.estimate(board) - race).abs() < 2e-6);
                let mean = (log_odds(net) + log_odds(race)) / 2.0;
                assert!((log_odds(half.estimate(board)) - mean).abs() < 1e-6);
                compared += 1;
            }
        });
        assert!(compared > 100, "{compared}");
        for bad in ["race_share = 1.5", "race_share = -0.1"] {
            let err = with(bad).unwrap_err().to_string();
            assert!(err.contains("race_share"), "{err}");
        }
    }

    /// Random games from random set-ups: at every position before a roll
    /// the cached probability is the one counted afresh, asked twice (the
    /// second from the cache); an evaluator with other parameters in the
    /// same thread counts its own.
    #[test]
    fn the_cache_returns_what_counting_returns() {
        let odds = Odds::default();
        let independent = Odds::from_toml(
            &DEFAULT_PARAMS
                .replace("exact_race = true", "exact_race = false")
                .replace("\nlearned = true\n", "\nlearned = false\n"),
        )
        .unwrap();
        let mut positions = 0;
        crate::test_games::for_positions_in_play(0x1234_5678_9ABC_DEF0, 200, |board| {
            for evaluator in [&odds, &independent] {
                let (counted, kept) = evaluator.count_before_roll(board);
                let first = evaluator.before_roll(board);
                if kept {
                    assert_eq!(first, counted);
                    assert_eq!(evaluator.before_roll(board), counted);
                }
            }
            positions += 1;
        });
        assert!(positions > 2_000, "{positions}");
    }

    /// `S(t)` counted the long way: the chance, turn by turn, that no stone
    /// of `side` has yet had as many turns as its distance, each case of
    /// the enemy's captures played out on its own board and weighed.
    fn not_finished_by_turns(board: &Board, side: usize, threat: f64, turns: usize) -> Vec<f64> {
        let enemy = 1 - side;
        let mut attacked = Vec::new();
        for s in 1..=6u8 {
            let sq = board.squares[side][usize::from(s)];
            if sq == NO_SQUARE {
                continue;
            }
            let faces = (1..=6u8)
                .filter(|&face| {
                    let (stones, n) = board.movable(enemy, face);
                    stones[..n].iter().any(|&e| {
                        let (to, m) = steps(enemy, board.squares[enemy][usize::from(e)]);
                        to[..m].contains(&sq)
                    })
                })
                .count();
            if faces > 0 && attacked.len() < 3 {
                attacked.push((s, threat * faces as f64 / 6.0));
            }
        }
        let mut out = vec![0.0; turns + 1];
        for subset in 0..1usize << attacked.len() {
            let mut scenario = board.clone();
            let mut weight = 1.0;
            for (i, &(s, lost)) in attacked.iter().enumerate() {
                if subset >> i & 1 == 1 {
                    weight *= lost;
                    let sq = scenario.squares[side][usize::from(s)];
                    scenario.cells[usize::from(sq)] = 0;
                    scenario.squares[side][usize::from(s)] = NO_SQUARE;
                    scenario.counts[side] -= 1;
                } else {
                    weight *= 1.0 - lost;
                }
            }
            if scenario.counts[side] == 0 {
                out.iter_mut().for_each(|o| *o += weight);
                continue;
            }
            // The faces by the rules' own choice of movable stones, the
            // one nearer its corner taking a shared face.
            let mut faces = [0u8; 7];
            for face in 1..=6 {
                let (stones, n) = scenario.movable(side, face);
                let d = |s: u8| distance(side, scenario.squares[side][usize::from(s)]);
                let pick = if n == 2 && d(stones[1]) < d(stones[0]) {
                    stones[1]
                } else {
                    stones[0]
                };
                if n > 0 {
                    faces[usize::from(pick)] += 1;
                }
            }
            let need = |s: usize| {
                let sq = scenario.squares[side][s];
                (sq != NO_SQUARE).then(|| distance(side, sq))
            };
            // Turns each stone has had, for the cases none has arrived.
            let mut cases = std::collections::HashMap::from([([0u8; 7], 1.0f64)]);
            for o in out.iter_mut() {
                *o += weight * cases.values().sum::<f64>();
                let mut next = std::collections::HashMap::new();
                for (had, p) in &cases {
                    for s in 1..=6 {
                        if faces[s] == 0 {
                            continue;
                        }
                        let mut after = *had;
                        after[s] += 1;
                        if Some(after[s]) < need(s).map(|d| d.max(1)) {
                            *next.entry(after).or_insert(0.0) += p * f64::from(faces[s]) / 6.0;
                        }
                    }
                }
                cases = next;
            }
        }
        out
    }

    /// The exact race's counts, whether multiplied out or from the caches,
    /// are the turn-by-turn chances, for both sides and both threat
    /// weights, at positions of random games.
    #[test]
    fn the_exact_race_counts_turn_by_turn() {
        let odds = Odds::default();
        let mut checked = 0;
        crate::test_games::for_positions_in_play(0x0F1E_2D3C_4B5A_6978, 60, |board| {
            for side in 0..2 {
                for threat in [odds.threat_mine, odds.threat_theirs] {
                    let expected = not_finished_by_turns(board, side, threat, 24);
                    for _ in 0..2 {
                        let counted = odds.not_finished_exact(board, side, threat);
                        for (t, &e) in expected.iter().enumerate() {
                            let c = counted[t.min(MAX_DEGREE + 1)];
                            assert!((c - e).abs() < 1e-12, "t {t}: {c} against {e}");
                        }
                    }
                    checked += 1;
                }
            }
        });
        assert!(checked > 2_000, "{checked}");
    }
}
