//! The referee: plays one game between two engine processes, with the game
//! plugin's own rules deciding what is legal and when the game is over.
//!
//! The referee keeps the authoritative position, the clocks and the move
//! list. Engines are only asked for moves; everything they answer is
//! checked against the plugin. Chance events (dice) are not the engines'
//! business: at a chance node the referee draws the outcome with the
//! match's seeded generator and plays it, writing it into the move list so
//! that the engines, and anyone replaying the game, see it.

use std::fmt::Write as _;
use std::time::Duration;

use plyd_host::{GameState, Outcome, VariantRef};

use crate::clock::{check_movetime, Clock, Limits};
use crate::engine::{Answer, EngineProcess};
use crate::openings::{position_command, Opening};
use crate::record::{ClosestCall, Ending, GameRecord, GameResult, NO_SCORE};
use plyd_util::rng::SplitMix64;

/// What every game of a match shares.
pub struct Rules {
    /// The variant played.
    pub variant: VariantRef,
    /// Each engine's limits, by engine (0 for the first `--engine`).
    pub limits: [Limits; 2],
    /// Overstep forgiven before a loss on time.
    pub margin: Duration,
    /// How long an untimed engine (depth or nodes only) may think.
    pub timeout: Duration,
    /// Plies after which a game is scored a draw.
    pub max_plies: Option<u32>,
    /// The match seed.
    pub seed: u64,
}

/// One game to play.
pub struct GameOrder<'a> {
    /// Game number, from 1.
    pub number: usize,
    /// The opening.
    pub opening: &'a Opening,
    /// Which engine plays the first side.
    pub first_engine: usize,
    /// The generator for the game's chance outcomes.
    pub chance: SplitMix64,
}

/// How a game ended, before it is written into a record.
struct Finish {
    result: GameResult,
    ending: Ending,
    reason: String,
}

/// Why a game has no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unfinished {
    /// The referee itself failed (the rules plugin broke); the match ends.
    Referee(String),
    /// The match was interrupted during the game, which is not scored.
    Interrupted,
}

impl From<String> for Unfinished {
    fn from(why: String) -> Self {
        Unfinished::Referee(why)
    }
}

impl From<&str> for Unfinished {
    fn from(why: &str) -> Self {
        Unfinished::Referee(why.to_string())
    }
}

/// Play one game. `engines` are indexed by engine (not by side) and must be
/// ready for a new game. An `Err` means the game has no result: the referee
/// itself failed (the rules plugin broke), which ends the match, or the match
/// was interrupted. Everything an engine does wrong is a game result.
pub fn play_game(
    engines: &mut [EngineProcess; 2],
    rules: &Rules,
    mut order: GameOrder<'_>,
) -> Result<GameRecord, Unfinished> {
    let plugin_error = |e: plyd_host::PluginError| format!("game plugin: {e}");
    let opening = order.opening;
    let mut state = opening.state(&rules.variant)?;
    let mut moves = opening.moves.clone();
    // Engine playing each side.
    let by_side = [order.first_engine, 1 - order.first_engine];
    let mut clocks: [Option<Clock>; 2] =
        [0, 1].map(|side| rules.limits[by_side[side]].clock.map(Clock::new));
    let mut legal = Vec::new();
    let mut chance = Vec::new();
    let mut closest: Option<ClosestCall> = None;
    // The movers' scores, a ply at a time after the opening.
    let (mut scores, mut times, mut nodes) = (Vec::new(), Vec::new(), Vec::new());

    // The ply limit ends a game the rules have not ended at its last ply:
    // a mate on the last ply allowed is a mate.
    let max_plies = |moves: &[String]| {
        rules
            .max_plies
            .filter(|&limit| moves.len() >= limit as usize)
            .map(|limit| Finish {
                result: GameResult::Draw,
                ending: Ending::MaxPlies,
                reason: format!("max plies {limit} reached"),
            })
    };
    let finish = loop {
        state.chance_outcomes(&mut chance).map_err(plugin_error)?;
        if !chance.is_empty() {
            if let Some(finish) = max_plies(&moves) {
                break finish;
            }
            let weights: Vec<u32> = chance.iter().map(|&(_, w)| w).collect();
            let pick = order
                .chance
                .pick_weighted(&weights)
                .ok_or("game plugin: a chance node whose weights are all zero")?;
            let token = chance[pick].0;
            moves.push(state.format_move(token).map_err(plugin_error)?);
            for words in [&mut scores, &mut times, &mut nodes] {
                words.push(NO_SCORE.to_string());
            }
            state.make_move(token).map_err(plugin_error)?;
            continue;
        }
        state.legal_moves(&mut legal).map_err(plugin_error)?;
        let side = state.side_to_move().map_err(plugin_error)?;
        let outcome = state.outcome().map_err(plugin_error)?;
        if legal.is_empty() || outcome != Outcome::Ongoing {
            let result = adjudicate(outcome, side).ok_or_else(|| {
                format!(
                    "game plugin: no legal moves but no result in '{}'",
                    state.position_text().unwrap_or_default()
                )
            })?;
            break Finish {
                result,
                ending: Ending::Rules,
                reason: rules_reason(
                    outcome,
                    legal.is_empty(),
                    state.outcome_reason().ok().flatten(),
                    Some(engines[by_side[side as usize]].name()),
                ),
            };
        }
        if let Some(finish) = max_plies(&moves) {
            break finish;
        }

        let engine_index = by_side[side as usize];
        let limits = &rules.limits[engine_index];
        let go = go_command(&clocks, limits, side);
        // How long the arena waits for the move, and what the mover has
        // for it, margin not included (none for an untimed mover).
        let (allowance, had_ms) = match (&clocks[side as usize], limits.movetime_ms) {
            (Some(clock), _) => (clock.allowance(rules.margin), Some(clock.remaining_ms())),
            (None, Some(ms)) => (Duration::from_millis(ms) + rules.margin, Some(ms)),
            (None, None) => (rules.timeout, None),
        };
        let mut note_left = |used: Duration| {
            if let Some(had) = had_ms {
                let used_ms = i64::try_from(used.as_millis()).unwrap_or(i64::MAX);
                let call = ClosestCall {
                    left_ms: i64::try_from(had).unwrap_or(i64::MAX) - used_ms,
                    ply: moves.len() + 1,
                    side: side as usize,
                };
                closest = Some(closest.map_or(call, |c| c.closer(call)));
            }
        };
        let position = position_command(&opening.start, &moves);
        let engine = &mut engines[engine_index];
        let name = engine.name().to_string();
        let loss = |ending: Ending, reason: String| Finish {
            result: GameResult::loss_for(side),
            ending,
            reason,
        };
        match engine.go(&position, &go, allowance) {
            Answer::Timeout { waited } => {
                note_left(waited);
                // It may still be thinking; its late answer must not be
                // taken for the next game's, so it is restarted.
                engine.mark_unusable("overran its time");
                break if limits.is_timed() {
                    loss(
                        Ending::TimeForfeit,
                        format!(
                            "time forfeit by {name} (no move after {:.3} s)",
                            waited.as_secs_f64()
                        ),
                    )
                } else {
                    loss(
                        Ending::NoAnswer,
                        format!("no answer from {name} within {} s", rules.timeout.as_secs()),
                    )
                };
            }
            Answer::Died { what } => {
                break loss(Ending::Crash, format!("crash of {name}: {what}"));
            }
            Answer::PluginFailed { what } => {
                break loss(
                    Ending::PluginFailure,
                    format!("plugin failure in {name}: {what}"),
                );
            }
            Answer::Interrupted => return Err(Unfinished::Interrupted),
            Answer::BestMove {
                text,
                elapsed,
                said,
                score,
                nodes: searched,
            } => {
                // What the engine said was wrong, where it refused the
                // position or the search (a line the arena wrote in a
                // notation it does not read): shown with its move.
                let said = said.map_or(String::new(), |e| format!(" (it said: {e})"));
                note_left(elapsed);
                let timing = match (&mut clocks[side as usize], limits.movetime_ms) {
                    (Some(clock), _) => clock.charge(elapsed, rules.margin),
                    (None, Some(ms)) => check_movetime(ms, elapsed, rules.margin),
                    (None, None) => Ok(()),
                };
                if let Err(overstep) = timing {
                    break loss(
                        Ending::TimeForfeit,
                        format!("time forfeit by {name} ({overstep})"),
                    );
                }
                let Some(text) = text else {
                    break loss(
                        Ending::IllegalMove,
                        format!("illegal move '' (an empty bestmove) by {name}{said}"),
                    );
                };
                let mv = match state.parse_legal_move(&text) {
                    Ok(mv) => mv,
                    Err(e) => {
                        let hint = rank_notation_hint(&state, &text);
                        // Else the rule the move breaks, where it reads as
                        // a move and the game names one, and what was legal
                        // there, as the plugin's refusal lists it (`(4 legal
                        // here: d3, c4, ...)`), for the engine's author to
                        // see why.
                        let (why, hint) = if hint.is_empty() {
                            let why = state
                                .parse_move(&text)
                                .ok()
                                .and_then(|mv| state.illegal_reason(mv).ok().flatten())
                                .map_or(String::new(), |why| format!(": {why}"));
                            (why, legal_here(&e.to_string()))
                        } else {
                            (String::new(), hint)
                        };
                        break loss(
                            Ending::IllegalMove,
                            format!("illegal move '{text}' by {name}{why}{hint}{said}"),
                        );
                    }
                };
                moves.push(state.format_move(mv).map_err(plugin_error)?);
                scores.push(score.unwrap_or_else(|| NO_SCORE.to_string()));
                times.push(elapsed.as_millis().to_string());
                nodes.push(searched.map_or_else(|| NO_SCORE.to_string(), |n| n.to_string()));
                state.make_move(mv).map_err(plugin_error)?;
            }
        }
    };

    Ok(GameRecord {
        number: order.number,
        variant: rules.variant.name().to_string(),
        players: by_side.map(|e| engines[e].name().to_string()),
        first_engine: order.first_engine,
        opening: opening.label.clone(),
        opening_plies: opening.moves.len(),
        start: opening.start.clone(),
        moves,
        result: finish.result,
        ending: finish.ending,
        reason: finish.reason,
        final_position: state.position_text().map_err(plugin_error)?,
        seed: rules.seed,
        closest,
        scores,
        times,
        nodes,
    })
}

/// The moves legal where a move was refused, from the plugin's refusal
/// `why` (` (4 legal here: d3, c4, f5, e6)`, ` (no move is legal here)`);
/// empty where it lists none.
fn legal_here(why: &str) -> String {
    why.rfind(" (")
        .map(|at| &why[at..])
        .filter(|tail| tail.contains("legal here") || tail.contains("no move is legal"))
        .map_or(String::new(), str::to_string)
}

/// Where an illegal move of coordinates (`b1c3`) is legal with every rank
/// one lower or one higher, the engine most likely numbers ranks from the
/// other end of `0-9` and `1-10` than the arena (Fairy-Stockfish writes
/// xiangqi's ranks `1-10`): said, with the game option that matches it.
fn rank_notation_hint(state: &GameState, text: &str) -> String {
    state.ranks_it_reads_in(text).map_or(String::new(), |(ranks, way)| {
        format!(
            " (legal with its ranks counted {way}: does it write ranks {ranks}? then --game-option MoveRanks={ranks})"
        )
    })
}

/// The rules' verdict on `state` if they have ended the game there, no
/// move played: the `Reason` a game from it would get; `None` while it
/// goes on (a chance node goes on).
pub fn over_already(state: &GameState) -> Result<Option<String>, String> {
    let plugin_error = |e: plyd_host::PluginError| format!("game plugin: {e}");
    let mut chance = Vec::new();
    state.chance_outcomes(&mut chance).map_err(plugin_error)?;
    if !chance.is_empty() {
        return Ok(None);
    }
    let mut legal = Vec::new();
    state.legal_moves(&mut legal).map_err(plugin_error)?;
    let outcome = state.outcome().map_err(plugin_error)?;
    if !legal.is_empty() && outcome == Outcome::Ongoing {
        return Ok(None);
    }
    let reason = state.outcome_reason().ok().flatten();
    Ok(Some(rules_reason(outcome, legal.is_empty(), reason, None)))
}

/// The `Reason` of a game the rules ended: the rule, where the plugin
/// names it (`reason`), else whether the game was over with no move left
/// or the plugin ruled with moves left (a repetition or move-count rule,
/// which an arbiter of its own could rule otherwise); and what for, the
/// side to move named by its engine (`mover`) where a game is played.
fn rules_reason(
    outcome: Outcome,
    no_move: bool,
    reason: Option<String>,
    mover: Option<&str>,
) -> String {
    let side = mover.map_or("the side to move".to_string(), |name| {
        format!("{name}, the side to move")
    });
    let verdict = match outcome {
        Outcome::Win => format!("a win for {side}"),
        Outcome::Loss => format!("a loss for {side}"),
        Outcome::Draw => "a draw".to_string(),
        Outcome::Ongoing => "no result".to_string(),
    };
    if let Some(reason) = reason {
        format!("rules: {reason}, {verdict}")
    } else if no_move {
        format!("rules: game over, {verdict}")
    } else {
        format!("rules: the game's repetition or move-count rules, {verdict}")
    }
}

/// The result of a game that the rules ended, from the plugin's outcome for
/// the side to move. `None` when the plugin says the game goes on.
pub fn adjudicate(outcome: Outcome, side_to_move: u32) -> Option<GameResult> {
    match outcome {
        Outcome::Win => Some(GameResult::win_for(side_to_move)),
        Outcome::Loss => Some(GameResult::loss_for(side_to_move)),
        Outcome::Draw => Some(GameResult::Draw),
        Outcome::Ongoing => None,
    }
}

/// The `go` command for the engine on `side`: both players' clocks
/// (`wtime`/`winc` always the first player's, `btime`/`binc` the second's,
/// whatever the game calls its sides), the mover's `movestogo`, and its
/// move time, depth and node limits.
pub fn go_command(clocks: &[Option<Clock>; 2], limits: &Limits, side: u32) -> String {
    let mut go = String::from("go");
    for (clock, (time, inc)) in clocks.iter().zip([("wtime", "winc"), ("btime", "binc")]) {
        if let Some(clock) = clock {
            let _ = write!(
                go,
                " {time} {} {inc} {}",
                clock.remaining_ms(),
                clock.increment_ms()
            );
        }
    }
    if let Some(n) = clocks[side as usize].as_ref().and_then(Clock::moves_to_go) {
        let _ = write!(go, " movestogo {n}");
    }
    if let Some(ms) = limits.movetime_ms {
        let _ = write!(go, " movetime {ms}");
    }
    if let Some(depth) = limits.depth {
        let _ = write!(go, " depth {depth}");
    }
    if let Some(nodes) = limits.nodes {
        let _ = write!(go, " nodes {nodes}");
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::parse_clock;

    #[test]
    fn the_rules_decide_from_the_side_to_move() {
        assert_eq!(adjudicate(Outcome::Win, 0), Some(GameResult::FirstWins));
        assert_eq!(adjudicate(Outcome::Win, 1), Some(GameResult::SecondWins));
        assert_eq!(adjudicate(Outcome::Loss, 0), Some(GameResult::SecondWins));
        assert_eq!(adjudicate(Outcome::Loss, 1), Some(GameResult::FirstWins));
        assert_eq!(adjudicate(Outcome::Draw, 1), Some(GameResult::Draw));
        assert_eq!(adjudicate(Outcome::Ongoing, 0), None);
    }

    #[test]
    fn go_sends_both_clocks_by_side() {
        let mut first = Clock::new(parse_clock("10+0.1").unwrap());
        first
            .charge(Duration::from_millis(2_000), Duration::ZERO)
            .unwrap();
        let second = Clock::new(parse_clock("40/5+0").unwrap());
        let clocks = [Some(first), Some(second)];
        let limits = Limits::default();
        // The second player moves: its movestogo is sent, the first's
        // clock still goes in wtime/winc.
        assert_eq!(
            go_command(&clocks, &limits, 1),
            "go wtime 8100 winc 100 btime 5000 binc 0 movestogo 40"
        );
        assert_eq!(
            go_command(&clocks, &limits, 0),
            "go wtime 8100 winc 100 btime 5000 binc 0"
        );
    }

    #[test]
    fn go_sends_fixed_limits() {
        let limits = Limits {
            movetime_ms: Some(250),
            depth: Some(6),
            nodes: Some(10_000),
            clock: None,
        };
        assert_eq!(
            go_command(&[None, None], &limits, 0),
            "go movetime 250 depth 6 nodes 10000"
        );
        // An opponent on a clock shows up; the mover has none.
        let clocks = [None, Some(Clock::new(parse_clock("1+0").unwrap()))];
        let depth = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        assert_eq!(
            go_command(&clocks, &depth, 0),
            "go btime 1000 binc 0 depth 2"
        );
    }
}
