//! Fit the `patterns` evaluator's weights to self-play games.
//!
//! ```text
//! cargo run --release -p plyd-game-othello --example fit_patterns -- \
//!     [--games 12000] [--rounds 6] [--depth 3] [--exact 12] [--epochs 10] \
//!     [--threads 2] [--seed 1] [--stage-width 8] [--rate 0.001] [--decay 0.01] \
//!     [--snapshots 32] [--prior 0.001] [--smooth 0] [--save POSITIONS] \
//!     [--load POSITIONS]... [--start WEIGHTS] [--evaluate WEIGHTS] \
//!     [--init WEIGHTS] [--relabel DEPTH [--blend 0.5]] \
//!     --out WEIGHTS
//! ```
//!
//! The defaults are the settings of the six-round fit, `order.bin`, which
//! the exact solver orders by; the refit's weights followed with `--start
//! order.bin --rounds 3 --depth 4 --exact 18 --seed 2` (its second round),
//! the third fit was fitted with `--rounds 0 --epochs 30 --stage-width 4`
//! to six runs of 12,000 games played by those, the fourth fit the same
//! way to twelve runs played by the third fit, and the shipped
//! `patterns.bin` to twelve runs played by the fourth fit, adding `--init`
//! the fourth fit's file (docs/othello.md, "How patterns.bin was fitted",
//! "The refit", "The third fit", "The fourth fit" and "The fifth fit").
//!
//! Each round plays `--games` games in-process through the rules crate:
//! a random opening of 2 to 14 plies, then every move chosen by an
//! alpha-beta search `--depth` plies deep (the first round's player values
//! mobility and corners; later rounds use the weights fitted so far), and
//! from `--exact` empty squares on the game is played out perfectly by an
//! exact alpha-beta solve (above 12 empty squares, by the plugin's endgame
//! solver). `--start WEIGHTS` makes the first round's player those weights
//! instead of mobility and corners, so that more rounds can follow a
//! finished fit. Every position of a game is labelled with the
//! game's final disc difference (empties to the winner) for its side to
//! move: exact from `--exact` empties on, and the result of the players'
//! play before.
//!
//! The score is linear in its weights, so the fit is a least-squares
//! regression of those labels, per stage, by stochastic gradient descent
//! (a learning rate falling linearly to `--decay` times itself over
//! `--epochs` passes; one pass keeps the full rate) with an L2 prior pulling each weight to zero; the
//! weights written are the mean of `--snapshots` snapshots taken through
//! the last pass. Every tenth game is held
//! out and its mean squared error reported each epoch, and after the last
//! its root mean square error by tens of empty squares; the weights are
//! written in hundredths of a disc (docs/othello.md, "Pattern evaluator"),
//! after every round. `--save FILE` keeps the labelled positions (21
//! bytes each); `--load FILE --rounds 0` fits again from such files
//! without playing; `--load FILE --evaluate WEIGHTS` reports a weights
//! file's errors on the held-out games of FILE instead of fitting. With
//! `--rounds 0`, `--init WEIGHTS` starts the fit from those weights (of
//! the same stage width) instead of zero, and the prior pulls each weight
//! towards where it started: entries the new games rarely or never reach
//! keep what earlier fits learned. `--load FILE... --relabel DEPTH
//! --start WEIGHTS --save OUT` writes the loaded positions again with
//! each label of a position with more than `--exact` empty squares
//! blended with the value of a `DEPTH`-ply search of it by `WEIGHTS`
//! (`--blend` of the search, the rest the game's result), for a fit to
//! learn from the search's own scores; positions at `--exact` empties or
//! fewer keep their exact labels.
//! Progress goes to stderr.

use std::time::Instant;

use plyd_game_othello::board::flips;
use plyd_game_othello::board::legal_placements;
use plyd_game_othello::patterns::features::{
    empties, linear_terms, pattern_indices, FAMILY_COUNT, LINEAR_COUNT, PATTERN_WEIGHTS,
    SYMMETRIES, TABLE_OFFSETS,
};
use plyd_game_othello::patterns::file::STAGE_LEN;
use plyd_game_othello::patterns::{PatternWeights, Patterns};
use plyd_othello_rules::endgame;

#[path = "common/positions.rs"]
mod positions;
use positions::{load_positions, save_positions, Sample};

/// Counted terms enter the fit divided by this, so that their steps are of
/// the same size as a pattern entry's.
const LINEAR_SCALE: f32 = 8.0;

/// A small, fast generator (SplitMix64); each game has its own, seeded by
/// the run's seed and the game's number, so the data do not depend on the
/// number of threads.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The player's evaluation, for the side owning `own`.
enum Player {
    /// Mobility and corners: the first round's player.
    Simple,
    /// The weights fitted so far.
    Patterns(Patterns),
}

impl Player {
    fn evaluate(&self, own: u64, opp: u64) -> i32 {
        match self {
            Player::Simple => {
                const CORNERS: u64 = 0x8100_0000_0000_0081;
                let mobility = legal_placements(own, opp).count_ones() as i32
                    - legal_placements(opp, own).count_ones() as i32;
                let corners =
                    (own & CORNERS).count_ones() as i32 - (opp & CORNERS).count_ones() as i32;
                100 * mobility + 800 * corners
            }
            Player::Patterns(p) => p.score(own, opp),
        }
    }
}

/// The final disc difference for the side owning `own`, empties to the
/// winner.
fn final_score(own: u64, opp: u64) -> i32 {
    let (o, p) = (own.count_ones() as i32, opp.count_ones() as i32);
    let e = 64 - o - p;
    match o.cmp(&p) {
        std::cmp::Ordering::Greater => o - p + e,
        std::cmp::Ordering::Less => o - p - e,
        std::cmp::Ordering::Equal => 0,
    }
}

fn play(own: u64, opp: u64, square: u32) -> (u64, u64) {
    let disc = 1u64 << square;
    let flipped = flips(own, opp, disc);
    (opp & !flipped, own | disc | flipped)
}

/// The exact value (final disc difference) for the side owning `own`.
fn solve(own: u64, opp: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
    let moves = legal_placements(own, opp);
    if moves == 0 {
        if passed {
            return final_score(opp, own).wrapping_neg();
        }
        return -solve(opp, own, -beta, -alpha, true);
    }
    let mut best = -65;
    let mut rest = moves;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        let (next_own, next_opp) = play(own, opp, square);
        let value = -solve(next_own, next_opp, -beta, -alpha, false);
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Up to this many empty squares the perfect part of a game is played by
/// the plain solve above (the settings of the shipped file, whose games do
/// not change); with a larger `--exact` by the plugin's endgame solver.
const PLAIN_SOLVE_MAX: u32 = 12;

thread_local! {
    /// The endgame solver's table, one per game-playing thread.
    static SOLVER_TABLE: std::cell::RefCell<endgame::LocalTable> =
        std::cell::RefCell::new(endgame::LocalTable::new(20));
}

/// More than any search value.
const INFINITE: i32 = 1_000_000;
/// What a search adds to a finished game's final score, beyond any
/// evaluation, so that a won game outranks every unfinished one.
const WIN: i32 = 10_000;

/// A search's value of the finished game for the side owning `own`.
fn ended_value(own: u64, opp: u64) -> i32 {
    let score = final_score(own, opp);
    WIN * score.signum() + score
}

/// The player's search value for the side owning `own`.
fn search(player: &Player, own: u64, opp: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = legal_placements(own, opp);
    if moves == 0 {
        if legal_placements(opp, own) == 0 {
            return ended_value(own, opp);
        }
        return -search(player, opp, own, depth, -beta, -alpha);
    }
    if depth == 0 {
        return player.evaluate(own, opp);
    }
    let mut best = -INFINITE;
    let mut rest = moves;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        let (next_own, next_opp) = play(own, opp, square);
        let value = -search(player, next_own, next_opp, depth - 1, -beta, -alpha);
        if raise(&mut best, &mut alpha, value, beta) {
            break;
        }
    }
    best
}

/// Take a move's `value` into a node's `best` and `alpha`; whether it
/// cuts at `beta`.
fn raise(best: &mut i32, alpha: &mut i32, value: i32, beta: i32) -> bool {
    if value > *best {
        *best = value;
        *alpha = (*alpha).max(value);
    }
    *alpha >= beta
}

/// The move the side owning `own` plays (it has one): perfect at `exact`
/// empties or fewer, else the player's best at `depth`.
fn choose(player: &Player, own: u64, opp: u64, depth: u32, exact: u32) -> u32 {
    let perfect = empties(own, opp) <= exact;
    if perfect && exact > PLAIN_SOLVE_MAX {
        // Deep enough for the plugin's solver to pay: its best move, with
        // the thread's own table. That table is kept from game to game, so
        // among tied moves the choice, and so the games, depend on which
        // games a thread played before: on `--threads`.
        let solution = SOLVER_TABLE.with(|table| {
            endgame::solve(
                own,
                opp,
                -endgame::SCORE_INFINITY,
                endgame::SCORE_INFINITY,
                0,
                &mut *table.borrow_mut(),
            )
        });
        if let Some(square) = solution.best.filter(|&s| s < 64) {
            return square;
        }
    }
    let mut best = (-INFINITE, 0);
    let mut rest = legal_placements(own, opp);
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        let (next_own, next_opp) = play(own, opp, square);
        let value = if perfect {
            -solve(next_own, next_opp, -65, -best.0.max(-65), false)
        } else {
            -search(player, next_own, next_opp, depth - 1, -INFINITE, -best.0)
        };
        if value > best.0 {
            best = (value, square);
        }
    }
    best.1
}

/// Play game number `index`; its labelled positions.
fn play_game(player: &Player, index: u32, seed: u64, depth: u32, exact: u32) -> Vec<Sample> {
    let mut rng = Rng(seed ^ (u64::from(index) << 20) ^ 0x5eed);
    let start = plyd_game_othello::board::Position::START;
    let (mut own, mut opp) = (start.black, start.white);
    let mut black_to_move = true;
    let random_plies = 2 + rng.below(13) as u32;
    let mut positions = Vec::with_capacity(64);
    let mut ply = 0;
    loop {
        let moves = legal_placements(own, opp);
        if moves == 0 {
            if legal_placements(opp, own) == 0 {
                break;
            }
            positions.push((own, opp, black_to_move));
            (own, opp) = (opp, own);
            black_to_move = !black_to_move;
            continue;
        }
        positions.push((own, opp, black_to_move));
        let square = if ply < random_plies {
            let pick = rng.below(u64::from(moves.count_ones()));
            let mut rest = moves;
            for _ in 0..pick {
                rest &= rest - 1;
            }
            rest.trailing_zeros()
        } else {
            choose(player, own, opp, depth, exact)
        };
        (own, opp) = play(own, opp, square);
        black_to_move = !black_to_move;
        ply += 1;
    }
    let black_result = if black_to_move {
        final_score(own, opp)
    } else {
        -final_score(own, opp)
    };
    positions
        .into_iter()
        .map(|(own, opp, black)| Sample {
            own,
            opp,
            label: if black { black_result } else { -black_result } as i8,
            game: index,
        })
        .collect()
}

/// Play games `first..first + count` on `threads` threads.
fn play_games(
    player: &Player,
    first: u32,
    count: u32,
    threads: u32,
    seed: u64,
    depth: u32,
    exact: u32,
) -> Vec<Sample> {
    let mut per_thread: Vec<Vec<(u32, Vec<Sample>)>> = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (first + t..first + count)
                        .step_by(threads as usize)
                        .map(|i| (i, play_game(player, i, seed, depth, exact)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            per_thread.push(handle.join().expect("a game thread panicked"));
        }
    });
    let mut games: Vec<(u32, Vec<Sample>)> = per_thread.into_iter().flatten().collect();
    games.sort_by_key(|(i, _)| *i);
    games.into_iter().flat_map(|(_, s)| s).collect()
}

/// The weights being fitted, in discs, as floats.
struct Model {
    stage_width: u32,
    weights: Vec<f32>,
    /// What the L2 prior pulls each weight towards: zero, or with `--init`
    /// the weights the fit started from.
    centre: Vec<f32>,
}

/// What the weight at place `k` of a stage is multiplied by in a weights
/// file: hundredths of a disc, and the counted terms' scale undone.
fn file_scale(k: usize) -> f32 {
    if k >= PATTERN_WEIGHTS {
        100.0 / LINEAR_SCALE
    } else {
        100.0
    }
}

impl Model {
    fn stage_of(&self, own: u64, opp: u64) -> usize {
        let stages = self.weights.len() / STAGE_LEN;
        ((empties(own, opp) / self.stage_width) as usize).min(stages - 1)
    }

    /// The flat positions of a sample's active weights, and its counted
    /// terms (scaled).
    fn active(
        &self,
        own: u64,
        opp: u64,
        stage: usize,
    ) -> (
        [usize; FAMILY_COUNT * SYMMETRIES],
        [f32; LINEAR_COUNT],
        usize,
    ) {
        let base = stage * STAGE_LEN;
        let indices = pattern_indices(own, opp);
        let mut flat = [0usize; FAMILY_COUNT * SYMMETRIES];
        for (k, index) in indices.iter().enumerate() {
            flat[k] = base + TABLE_OFFSETS[k / SYMMETRIES] + *index as usize;
        }
        let mut terms = [0f32; LINEAR_COUNT];
        for (t, x) in terms.iter_mut().zip(linear_terms(own, opp)) {
            *t = x as f32 / LINEAR_SCALE;
        }
        (flat, terms, base + PATTERN_WEIGHTS)
    }

    fn predict(&self, own: u64, opp: u64) -> f32 {
        let (flat, terms, linear) = self.active(own, opp, self.stage_of(own, opp));
        let patterns: f32 = flat.iter().map(|&i| self.weights[i]).sum();
        let counted: f32 = terms
            .iter()
            .enumerate()
            .map(|(k, x)| x * self.weights[linear + k])
            .sum();
        patterns + counted
    }

    /// [`Model::predict`] within the ±64 discs plyd clamps its score to
    /// (`SCORE_BOUND`): what the errors are measured on.
    fn scored(&self, own: u64, opp: u64) -> f32 {
        self.predict(own, opp).clamp(-64.0, 64.0)
    }

    /// One SGD step on one sample, for the weights of `stage`.
    fn step(&mut self, sample: &Sample, stage: usize, rate: f32, prior: f32) {
        let (flat, terms, linear) = self.active(sample.own, sample.opp, stage);
        let patterns: f32 = flat.iter().map(|&i| self.weights[i]).sum();
        let counted: f32 = terms
            .iter()
            .enumerate()
            .map(|(k, x)| x * self.weights[linear + k])
            .sum();
        let error = patterns + counted - f32::from(sample.label);
        for &i in &flat {
            let pull = prior * (self.weights[i] - self.centre[i]);
            self.weights[i] -= rate * (error + pull);
        }
        for (k, x) in terms.iter().enumerate() {
            let i = linear + k;
            let pull = prior * (self.weights[i] - self.centre[i]);
            self.weights[i] -= rate * (error * x + pull);
        }
    }

    /// The model of a weights file (the inverse of [`Model::to_weights`]).
    fn from_weights(weights: &PatternWeights) -> Model {
        let mut model = Model {
            stage_width: u32::from(weights.stage_width()),
            weights: vec![0.0; weights.stages() * STAGE_LEN],
            centre: vec![0.0; weights.stages() * STAGE_LEN],
        };
        for stage in 0..weights.stages() {
            let floats = &mut model.weights[stage * STAGE_LEN..(stage + 1) * STAGE_LEN];
            for (k, (f, w)) in floats.iter_mut().zip(weights.stage(stage)).enumerate() {
                *f = f32::from(*w) / file_scale(k);
            }
        }
        model
    }

    /// The weights in hundredths of a disc, as the evaluator reads them.
    fn to_weights(&self) -> PatternWeights {
        let mut out = PatternWeights::zeros(self.stage_width as u16);
        for stage in 0..out.stages() {
            let floats = &self.weights[stage * STAGE_LEN..(stage + 1) * STAGE_LEN];
            for (k, (w, f)) in out.stage_mut(stage).iter_mut().zip(floats).enumerate() {
                *w = (f * file_scale(k)).round().clamp(-32767.0, 32767.0) as i16;
            }
        }
        out
    }
}

/// The held-out games' root mean square error by tens of empty squares
/// (1-10, 11-20, ...), in discs: from where the labels are exact (the
/// last `--exact` squares) to where they are a game's result.
fn error_by_empties(model: &Model, samples: &[Sample]) -> String {
    let mut sums = [(0f64, 0usize); 6];
    for s in samples {
        let empties = 64 - (s.own | s.opp).count_ones() as usize;
        let e = f64::from(model.scored(s.own, s.opp)) - f64::from(s.label);
        let cell = &mut sums[(empties.max(1) - 1) / 10];
        cell.0 += e * e;
        cell.1 += 1;
    }
    let parts: Vec<String> = sums
        .iter()
        .enumerate()
        .filter(|(_, (_, n))| *n > 0)
        .map(|(i, (sum, n))| {
            let rms = (sum / *n as f64).sqrt();
            format!("{}-{}: {rms:.2}", 10 * i + 1, 10 * i + 10)
        })
        .collect();
    parts.join(", ")
}

/// Whether a position belongs to the held-out games: every tenth game.
fn held_out(sample: &Sample) -> bool {
    sample.game.is_multiple_of(10)
}

fn mean_squared_error(model: &Model, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let e = f64::from(model.scored(s.own, s.opp)) - f64::from(s.label);
            e * e
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The fit's settings.
#[derive(Clone, Copy)]
struct FitSettings {
    stage_width: u32,
    epochs: u32,
    /// The first epoch's learning rate; it falls linearly to `rate *
    /// decay` in the last epoch.
    rate: f32,
    decay: f32,
    /// The weights written are the mean of this many snapshots taken
    /// through the last epoch (1: the weights at its end). SGD's weights
    /// wander with the last positions seen, the common ones (counted terms,
    /// frequent pattern entries) most; their mean over an epoch does not.
    snapshots: u32,
    /// The L2 prior's weight.
    prior: f32,
    /// Each position also trains the stages next to its own, with the
    /// learning rate times this: neighbouring stages then share what they
    /// see, which matters where a stage has few positions.
    smooth: f32,
    seed: u64,
}

/// Fit by SGD over shuffled samples, from zero weights or from `init`
/// (which the prior then pulls towards instead of zero).
fn fit(samples: &[Sample], settings: FitSettings, init: Option<&PatternWeights>) -> Model {
    let stages = (60 / settings.stage_width + 1) as usize;
    let mut model = match init {
        Some(weights) => {
            let mut model = Model::from_weights(weights);
            assert!(
                model.stage_width == settings.stage_width
                    && model.weights.len() == stages * STAGE_LEN,
                "--init: its stages are {} empty squares wide, the fit's {}",
                model.stage_width,
                settings.stage_width
            );
            model.centre = model.weights.clone();
            model
        }
        None => Model {
            stage_width: settings.stage_width,
            weights: vec![0.0; stages * STAGE_LEN],
            centre: vec![0.0; stages * STAGE_LEN],
        },
    };
    let (held, train): (Vec<Sample>, Vec<Sample>) = samples.iter().partition(|s| held_out(s));
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = Rng(settings.seed ^ 0xf17);
    let epochs = settings.epochs.max(1);
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        // One epoch runs at the full rate (a fall to `decay` needs two).
        let fall = if epochs > 1 {
            epoch as f32 / (epochs - 1) as f32
        } else {
            0.0
        };
        let rate = settings.rate * (1.0 - (1.0 - settings.decay) * fall);
        let last = epoch + 1 == epochs;
        let every = (order.len() / settings.snapshots.max(1) as usize).max(1);
        let mut sum: Vec<f64> = Vec::new();
        let mut taken = 0u32;
        for (n, &i) in order.iter().enumerate() {
            let sample = &train[i as usize];
            let stage = model.stage_of(sample.own, sample.opp);
            model.step(sample, stage, rate, settings.prior);
            if settings.smooth > 0.0 {
                let side_rate = rate * settings.smooth;
                if stage > 0 {
                    model.step(sample, stage - 1, side_rate, settings.prior);
                }
                if stage + 1 < stages {
                    model.step(sample, stage + 1, side_rate, settings.prior);
                }
            }
            if last && settings.snapshots > 1 && (n + 1) % every == 0 {
                if sum.is_empty() {
                    sum = vec![0.0; model.weights.len()];
                }
                for (s, w) in sum.iter_mut().zip(&model.weights) {
                    *s += f64::from(*w);
                }
                taken += 1;
            }
        }
        if taken > 0 {
            for (w, s) in model.weights.iter_mut().zip(&sum) {
                *w = (*s / f64::from(taken)) as f32;
            }
        }
        eprintln!(
            "  epoch {:2}: mean squared error {:.2} (training), {:.2} (held-out games)",
            epoch + 1,
            mean_squared_error(&model, &train),
            mean_squared_error(&model, &held)
        );
    }
    eprintln!(
        "  held-out root mean square error by empty squares: {}",
        error_by_empties(&model, &held)
    );
    model
}

/// [`search`]'s value, found sooner: at two plies or more from the leaves
/// the moves that leave the opponent fewest replies are searched first.
fn ordered_search(
    player: &Player,
    own: u64,
    opp: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if depth < 2 {
        return search(player, own, opp, depth, alpha, beta);
    }
    let moves = legal_placements(own, opp);
    if moves == 0 {
        if legal_placements(opp, own) == 0 {
            return ended_value(own, opp);
        }
        return -ordered_search(player, opp, own, depth, -beta, -alpha);
    }
    let mut children = [(0u32, 0u64, 0u64); 64];
    let mut count = 0;
    let mut rest = moves;
    while rest != 0 {
        let square = rest.trailing_zeros();
        rest &= rest - 1;
        let (next_own, next_opp) = play(own, opp, square);
        children[count] = (
            legal_placements(next_own, next_opp).count_ones(),
            next_own,
            next_opp,
        );
        count += 1;
    }
    let children = &mut children[..count];
    children.sort_unstable_by_key(|c| c.0);
    let mut best = -INFINITE;
    for &(_, next_own, next_opp) in children.iter() {
        let value = -ordered_search(player, next_own, next_opp, depth - 1, -beta, -alpha);
        if raise(&mut best, &mut alpha, value, beta) {
            break;
        }
    }
    best
}

/// The search's value of a position in discs for the side owning `own`: an
/// ended game's final score, else the evaluation's hundredths.
fn search_discs(player: &Player, own: u64, opp: u64, depth: u32) -> f32 {
    let value = ordered_search(player, own, opp, depth, -INFINITE, INFINITE);
    if value.abs() >= WIN {
        (value - WIN * value.signum()) as f32
    } else {
        value as f32 / 100.0
    }
}

/// Blend every label of a position with more than `exact` empty squares
/// with the player's `depth`-ply search value of it: `blend` of the
/// search, the rest the game's result. Positions at `exact` empties or
/// fewer keep their labels, which are exact.
fn relabel_positions(
    samples: &mut [Sample],
    player: &Player,
    depth: u32,
    exact: u32,
    blend: f32,
    threads: u32,
) {
    let chunk = samples.len().div_ceil(threads as usize).max(1);
    std::thread::scope(|scope| {
        for part in samples.chunks_mut(chunk) {
            scope.spawn(move || {
                for s in part.iter_mut().filter(|s| empties(s.own, s.opp) > exact) {
                    let searched = search_discs(player, s.own, s.opp, depth);
                    let mixed = blend * searched + (1.0 - blend) * f32::from(s.label);
                    s.label = mixed.round().clamp(-64.0, 64.0) as i8;
                }
            });
        }
    });
}

/// The command line, as `--help` prints it.
const USAGE: &str = "usage: fit_patterns [--games 12000] [--rounds 6] [--depth 3] [--exact 12]
    [--epochs 10] [--threads 2] [--seed 1] [--stage-width 8] [--rate 0.001]
    [--decay 0.01] [--snapshots 32] [--prior 0.001] [--smooth 0]
    [--save POSITIONS] [--load POSITIONS]... [--start WEIGHTS]
    [--evaluate WEIGHTS] [--init WEIGHTS] [--relabel DEPTH [--blend 0.5]]
    --out WEIGHTS (needed unless --evaluate or --relabel)
(docs/othello.md, \"How patterns.bin was fitted\", explains each)";

/// The command line refused: one line and the usage, exit status 2.
fn refuse(message: &str) -> ! {
    eprintln!("fit_patterns: {message}\n{USAGE}");
    std::process::exit(2)
}

/// The number `text` given to `arg` (a `kind`: N, R, ...), else refused.
fn number<T: std::str::FromStr>(arg: &str, text: &str, kind: &str) -> T {
    text.parse()
        .unwrap_or_else(|_| refuse(&format!("{arg} {kind}: '{text}' is not one")))
}

/// Write `weights` to `out`; the line that says so.
fn write_weights(out: &str, weights: &PatternWeights) -> String {
    let bytes = weights.encode();
    std::fs::write(out, &bytes).unwrap_or_else(|e| panic!("{out}: {e}"));
    format!(
        "wrote {out}: {} bytes, {} stages",
        bytes.len(),
        weights.stages()
    )
}

/// The fitted model, unless the descent diverged (a `--rate` too high):
/// its weights are then not numbers, and nothing is written.
fn finite(model: Model) -> Model {
    if model.weights.iter().all(|w| w.is_finite()) {
        return model;
    }
    eprintln!(
        "fit_patterns: the fit diverged (weights that are not finite numbers): \
         try a lower --rate; nothing written"
    );
    std::process::exit(1)
}

fn main() {
    let mut games = 12_000u32;
    let mut rounds = 6u32;
    let mut depth = 3u32;
    let mut exact = 12u32;
    let mut epochs = 10u32;
    let mut threads = 2u32;
    let mut seed = 1u64;
    let mut stage_width = 8u32;
    let mut out = None;
    let mut rate = 0.001f32;
    let mut prior = 1e-3f32;
    let mut smooth = 0.0f32;
    let mut decay = 0.01f32;
    let mut snapshots = 32u32;
    let mut save = None;
    let mut load = Vec::new();
    let mut start = None;
    let mut evaluate = None;
    let mut init = None;
    let mut relabel = None;
    let mut blend = 0.5f32;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| refuse(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--games" => games = number(&arg, &value(), "N"),
            "--rounds" => rounds = number(&arg, &value(), "N"),
            "--depth" => depth = number(&arg, &value(), "N"),
            "--exact" => exact = number(&arg, &value(), "N"),
            "--epochs" => epochs = number(&arg, &value(), "N"),
            "--threads" => threads = number(&arg, &value(), "N"),
            "--seed" => seed = number(&arg, &value(), "N"),
            "--stage-width" => stage_width = number(&arg, &value(), "N"),
            "--out" => out = Some(value()),
            "--rate" => rate = number(&arg, &value(), "R"),
            "--prior" => prior = number(&arg, &value(), "P"),
            "--smooth" => smooth = number(&arg, &value(), "S"),
            "--decay" => decay = number(&arg, &value(), "F"),
            "--snapshots" => snapshots = number(&arg, &value(), "N"),
            "--save" => save = Some(value()),
            "--load" => load.push(value()),
            "--start" => start = Some(value()),
            "--evaluate" => evaluate = Some(value()),
            "--init" => init = Some(value()),
            "--relabel" => relabel = Some(number(&arg, &value(), "DEPTH")),
            "--blend" => blend = number(&arg, &value(), "B"),
            "--help" | "-h" => {
                println!("{USAGE}");
                return;
            }
            other => refuse(&format!("unknown argument {other}")),
        }
    }
    for (name, value, least, most) in [
        ("--depth", depth, 1, 60),
        ("--threads", threads, 1, 1024),
        ("--stage-width", stage_width, 1, 60),
        ("--epochs", epochs, 1, u32::MAX),
        ("--snapshots", snapshots, 1, u32::MAX),
    ] {
        if !(least..=most).contains(&value) {
            refuse(&format!("{name} {value} is outside {least}..={most}"));
        }
    }
    if load.is_empty() && (evaluate.is_some() || rounds == 0) {
        refuse("--evaluate and --rounds 0 work on loaded positions: give --load POSITIONS");
    }
    let out = match (&out, &evaluate, &relabel) {
        (Some(path), None, None) => {
            // Checked now, not after the games and the fit.
            let folder = std::path::Path::new(path)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            if !folder.is_dir() {
                refuse(&format!("--out {path}: no folder {}", folder.display()));
            }
            path.clone()
        }
        (None, None, None) => refuse("give --out WEIGHTS, the weights file to write"),
        _ => String::new(),
    };
    if init.is_some() && rounds > 0 {
        refuse("--init starts a fit of loaded positions: it needs --rounds 0");
    }
    let started = Instant::now();
    let mut samples = Vec::new();
    for path in &load {
        samples.extend(load_positions(path));
        eprintln!("{path}: {} positions in all", samples.len());
    }
    let settings = FitSettings {
        stage_width,
        epochs,
        rate,
        decay,
        snapshots,
        prior,
        smooth,
        seed,
    };
    if let Some(path) = &evaluate {
        // Measure a weights file on the held-out games of the positions
        // loaded, without fitting.
        let patterns = Patterns::from_file(path).unwrap_or_else(|e| panic!("{e}"));
        let model = Model::from_weights(patterns.weights());
        let held: Vec<Sample> = samples.iter().filter(|s| held_out(s)).copied().collect();
        eprintln!(
            "{path}: mean squared error {:.2} (held-out games); root mean square error by empty squares: {}",
            mean_squared_error(&model, &held),
            error_by_empties(&model, &held)
        );
        return;
    }
    if let Some(relabel_depth) = relabel {
        let (Some(weights), Some(path)) = (&start, &save) else {
            eprintln!(
                "fit_patterns: --relabel needs --start WEIGHTS and --save POSITIONS\n{USAGE}"
            );
            std::process::exit(2);
        };
        let player =
            Player::Patterns(Patterns::from_file(weights).unwrap_or_else(|e| panic!("{e}")));
        let t = Instant::now();
        relabel_positions(&mut samples, &player, relabel_depth, exact, blend, threads);
        save_positions(path, &samples);
        eprintln!(
            "relabelled {} positions in {:.0} s; wrote {path}",
            samples.len(),
            t.elapsed().as_secs_f64()
        );
        return;
    }
    if rounds == 0 {
        let init = init.map(|path| {
            Patterns::from_file(&path)
                .unwrap_or_else(|e| panic!("{e}"))
                .weights()
                .clone()
        });
        let weights = finite(fit(&samples, settings, init.as_ref())).to_weights();
        eprintln!("{}", write_weights(&out, &weights));
        return;
    }
    // The plugin registers this when the host loads it; the solver orders
    // its moves at many empty squares by it.
    plyd_game_othello::register_solver_order();
    let mut player = match &start {
        Some(path) => Player::Patterns(Patterns::from_file(path).unwrap_or_else(|e| panic!("{e}"))),
        None => Player::Simple,
    };
    for round in 0..rounds {
        let t = Instant::now();
        samples.extend(play_games(
            &player,
            round * games,
            games,
            threads,
            seed,
            depth,
            exact,
        ));
        eprintln!(
            "round {}: {} games in {:.0} s, {} positions in all",
            round + 1,
            games,
            t.elapsed().as_secs_f64(),
            samples.len()
        );
        let t = Instant::now();
        if let Some(path) = &save {
            save_positions(path, &samples);
        }
        let fitted = finite(fit(&samples, settings, None));
        eprintln!("  fitted in {:.0} s", t.elapsed().as_secs_f64());
        // Written after every round, so that a long run can be stopped
        // early with usable weights.
        let weights = fitted.to_weights();
        eprintln!(
            "  {}; {:.0} s so far",
            write_weights(&out, &weights),
            started.elapsed().as_secs_f64()
        );
        player = Player::Patterns(Patterns::with_weights(weights));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(rate: f32, epochs: u32) -> FitSettings {
        FitSettings {
            stage_width: 4,
            epochs,
            rate,
            decay: 0.01,
            snapshots: 4,
            prior: 1e-3,
            smooth: 0.0,
            seed: 3,
        }
    }

    /// A few games of a one-ply player, every position labelled with the
    /// shipped weights' own score of it (rounded to a disc), so that a fit
    /// starting from those weights has almost nothing to learn.
    fn samples_the_shipped_weights_agree_with() -> Vec<Sample> {
        let shipped = Patterns::shipped();
        let player = Player::Patterns(shipped.clone());
        (0..8)
            .flat_map(|game| play_game(&player, game, 5, 1, 0))
            .map(|s| Sample {
                label: (shipped.score(s.own, s.opp) as f32 / 100.0)
                    .round()
                    .clamp(-64.0, 64.0) as i8,
                ..s
            })
            .collect()
    }

    /// The largest difference between two weights files' entries, in their
    /// units (hundredths of a disc).
    fn largest_difference(a: &PatternWeights, b: &PatternWeights) -> i32 {
        (0..a.stages())
            .flat_map(|stage| a.stage(stage).iter().zip(b.stage(stage)))
            .map(|(x, y)| (i32::from(*x) - i32::from(*y)).abs())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn relabelling_blends_the_search_into_labels_above_the_exact_empties_only() {
        let shipped = Patterns::shipped();
        let player = Player::Patterns(shipped.clone());
        let games: Vec<Sample> = (0..4)
            .flat_map(|g| play_game(&player, g, 9, 1, 0))
            .collect();
        let exact = 30;
        let mut kept = games.clone();
        relabel_positions(&mut kept, &player, 2, exact, 0.0, 2);
        assert!(games.iter().zip(&kept).all(|(a, b)| a.label == b.label));
        let mut searched = games.clone();
        relabel_positions(&mut searched, &player, 2, exact, 1.0, 2);
        let mut changed = 0;
        for (before, after) in games.iter().zip(&searched) {
            if empties(before.own, before.opp) <= exact {
                assert_eq!(before.label, after.label);
            } else {
                let value = search_discs(&player, before.own, before.opp, 2);
                // The order changes how soon, not what, it finds.
                let full = (-INFINITE, INFINITE);
                assert_eq!(
                    ordered_search(&player, before.own, before.opp, 3, full.0, full.1),
                    search(&player, before.own, before.opp, 3, full.0, full.1)
                );
                assert_eq!(after.label, value.round().clamp(-64.0, 64.0) as i8);
                changed += usize::from(before.label != after.label);
            }
        }
        assert!(changed > 0);
    }

    #[test]
    fn a_fit_from_init_weights_that_does_not_move_writes_them_back() {
        let shipped = Patterns::shipped().weights().clone();
        let samples = samples_the_shipped_weights_agree_with();
        let fitted = fit(&samples, settings(0.0, 1), Some(&shipped)).to_weights();
        assert_eq!(largest_difference(&fitted, &shipped), 0);
    }

    /// A strong prior, so that a prior pulling towards zero would move the
    /// often-used weights far within two passes.
    #[test]
    fn a_fit_from_init_weights_keeps_them_where_the_games_agree() {
        let shipped = Patterns::shipped().weights().clone();
        let samples = samples_the_shipped_weights_agree_with();
        let strong_prior = FitSettings {
            prior: 10.0,
            ..settings(0.001, 2)
        };
        let from_init = fit(&samples, strong_prior, Some(&shipped)).to_weights();
        let from_zero = fit(&samples, strong_prior, None).to_weights();
        let kept = largest_difference(&from_init, &shipped);
        let lost = largest_difference(&from_zero, &shipped);
        assert!(
            kept <= 10,
            "from the shipped weights, an entry moved {kept}"
        );
        assert!(
            lost > 100,
            "from zero, the largest difference is only {lost}"
        );
    }
}
