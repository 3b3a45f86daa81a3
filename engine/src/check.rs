//! `plyd check`: random games through a game plugin, every position
//! checked for what the host takes on trust at every node, where checking
//! would cost the search: that gen_moves writes every move it counts, and
//! counts the same with and without room to list them, that the moves
//! listed are distinct and never the
//! reserved null move, that each move's text reads back as the move, that
//! `unmake_move` restores what `make_move` changed (the hash, the side to
//! move, the position text), that a state set from a position's own text
//! is that position (hash, side, moves: the table's key must not depend on
//! how the position was reached), and that a position without moves is
//! not a game going on. For plugin authors, beside perft.

use std::collections::{BTreeMap, HashSet};

use plyd_api::{Move, NULL_MOVE};
use plyd_util::rng::SplitMix64;

use crate::host::{GameState, Outcome, PluginError, VariantRef};

/// What `plyd check` found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Games played.
    pub games: u32,
    /// Positions checked.
    pub positions: u64,
    /// Moves made and unmade.
    pub moves: u64,
    /// Each kind of problem: how often, and where it was first seen.
    pub problems: BTreeMap<&'static str, (u64, String)>,
}

impl CheckReport {
    fn problem(&mut self, kind: &'static str, at: impl FnOnce() -> String) {
        let entry = self.problems.entry(kind).or_insert_with(|| (0, at()));
        entry.0 += 1;
    }
}

/// The state's hash, side to move and position text.
fn snapshot(state: &GameState) -> Result<(u64, u32, String), PluginError> {
    Ok((state.hash(), state.side_to_move()?, state.position_text()?))
}

/// The legal moves of `state` into `moves`, with how many gen_moves
/// counts when given no room, and how many of those it listed it left
/// unwritten (the buffer is filled with the reserved null move first; the
/// unwritten ones are left out of `moves`).
fn listed(state: &GameState, moves: &mut Vec<Move>) -> Result<(usize, usize), PluginError> {
    let counted = state.count_moves()?;
    moves.clear();
    moves.resize(counted + 64, NULL_MOVE);
    state.legal_moves(moves)?;
    let unwritten = moves
        .iter()
        .rev()
        .take_while(|&&mv| mv == NULL_MOVE)
        .count();
    moves.truncate(moves.len() - unwritten);
    Ok((counted, unwritten))
}

/// Play `games` random games of `variant` from `start` (its start
/// position when `None`), at most `plies` plies each, checking every
/// position on the way. A plugin that fails a call (a panic, garbage) ends
/// the check with that failure.
pub fn run(
    variant: &VariantRef,
    start: Option<&str>,
    games: u32,
    plies: u32,
    seed: u64,
) -> Result<CheckReport, String> {
    let mut report = CheckReport::default();
    let mut rng = SplitMix64::new(seed);
    let failed = |e: PluginError| e.to_string();
    for game in 1..=games {
        let mut state = GameState::new(&variant.plugin, variant.index).map_err(failed)?;
        if let Some(start) = start {
            state.set_position(start).map_err(failed)?;
        }
        report.games = game;
        let mut moves: Vec<Move> = Vec::new();
        'game: for ply in 0..plies {
            let before = snapshot(&state).map_err(failed)?;
            let (hash, side, text) = (before.0, before.1, before.2.as_str());
            let place = |detail: &str| {
                let at = format!("game {game} ply {ply}, position '{text}'");
                if detail.is_empty() {
                    at
                } else {
                    format!("{at}: {detail}")
                }
            };
            let (counted, unwritten) = listed(&state, &mut moves).map_err(failed)?;
            report.positions += 1;
            if unwritten > 0 {
                report.problem("gen_moves counts more moves than it writes", || {
                    place(&format!(
                        "{} counted, the last {unwritten} left unwritten",
                        moves.len() + unwritten
                    ))
                });
            }
            if counted != moves.len() + unwritten {
                report.problem(
                    "gen_moves counts otherwise with no room (a null buffer of capacity 0) than with room",
                    || {
                        place(&format!(
                            "{counted} with no room, {} with room",
                            moves.len() + unwritten
                        ))
                    },
                );
            }
            // The position read back from its own text is the same
            // position: the same hash (the table's key), side and moves.
            let mut read = GameState::new(&variant.plugin, variant.index).map_err(failed)?;
            match read.set_position(text) {
                Err(e) => {
                    report.problem("a position's own text is refused", || place(&e.to_string()))
                }
                Ok(()) => {
                    let mut read_moves = Vec::new();
                    listed(&read, &mut read_moves).map_err(failed)?;
                    let again = snapshot(&read).map_err(failed)?;
                    if again != before || read_moves != moves {
                        report.problem(
                            "a position set from its own text differs (hash, side, text or moves)",
                            || {
                                place(&format!(
                                    "read back: hash {:x}, side {}, '{}', {} moves (played: hash {hash:x}, side {side}, {} moves)",
                                    again.0,
                                    again.1,
                                    again.2,
                                    read_moves.len(),
                                    moves.len()
                                ))
                            },
                        );
                    }
                }
            }
            if moves.is_empty() {
                if state.outcome().map_err(failed)? == Outcome::Ongoing {
                    report.problem("no move listed, and outcome says the game goes on", || {
                        place("")
                    });
                }
                break;
            }
            let distinct: HashSet<Move> = moves.iter().copied().collect();
            if distinct.len() != moves.len() {
                report.problem("a move listed twice", || {
                    place(&format!(
                        "{} moves, {} distinct",
                        moves.len(),
                        distinct.len()
                    ))
                });
            }
            if distinct.contains(&NULL_MOVE) {
                report.problem("the reserved null move listed as legal", || place(""));
            }
            for &mv in &moves {
                let spelled = state.format_move(mv).map_err(failed)?;
                match state.parse_move(&spelled) {
                    Ok(read) if read == mv => {}
                    _ => report.problem("a move's text does not read back as the move", || {
                        place(&format!("move {mv} spelled '{spelled}'"))
                    }),
                }
                state.make_move(mv).map_err(failed)?;
                state.unmake_move(mv).map_err(failed)?;
                report.moves += 1;
                let after = snapshot(&state).map_err(failed)?;
                if after != before {
                    report.problem(
                        "unmake_move does not restore the position (hash, side or text)",
                        || {
                            place(&format!(
                                "after '{spelled}' and back: hash {:x}, side {}, '{}' (before: hash {hash:x}, side {side})",
                                after.0, after.1, after.2
                            ))
                        },
                    );
                    // The state is not what it was: this game stops here.
                    break 'game;
                }
            }
            let pick = moves[rng.below(moves.len() as u64) as usize];
            state.make_move(pick).map_err(failed)?;
        }
    }
    Ok(report)
}
