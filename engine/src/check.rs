//! `plyd check`: random games through a game plugin, every position
//! checked for what the host takes on trust at every node, where checking
//! would cost the search: that gen_moves writes every move it counts, and
//! counts the same with and without room to list them, that the moves
//! listed are distinct and never the
//! reserved null move, that each move's text reads back as the move, that
//! `unmake_move` restores what `make_move` changed (the hash, the side to
//! move, the position text), that a state set from a position's own text
//! is that position (hash, side, moves: the table's key must not depend on
//! how the position was reached), that two positions of one hash agree on
//! their side to move and their number of moves, that a game claiming
//! `CAP_NULL_MOVE` passes the turn with a null move and takes it back, and
//! that a position without moves is not a game going on. For plugin
//! authors, beside perft.

use std::collections::{BTreeMap, HashMap, HashSet};

use plyd_api::{Move, NULL_MOVE};
use plyd_util::rng::SplitMix64;

use crate::host::{EvalStack, Evaluator, GameState, Outcome, PluginError, VariantRef};
use crate::search::score::{EVAL_LIMIT, INFINITY, WIN};

/// Signs of life of a check: bumped at every position and every score
/// compared, for a watch that gives up on a plugin call that never
/// returns.
pub static PROGRESS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn alive() {
    PROGRESS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// What `plyd check` found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Games played through.
    pub games: u32,
    /// Positions checked.
    pub positions: u64,
    /// Moves made and unmade.
    pub moves: u64,
    /// Threads the evaluator check ran on.
    pub threads: usize,
    /// Scores the stacks gave, and positions they left to `evaluate`
    /// (`STATUS_UNSUPPORTED` from `stack_evaluate`).
    pub from_stack: u64,
    /// See [`CheckReport::from_stack`].
    pub left_to_evaluate: u64,
    /// Games played without a stack: its reset answered
    /// `STATUS_UNSUPPORTED`.
    pub unsupported_resets: u64,
    /// `shallow_search` calls compared with the tree they search, the
    /// deepest depth compared, and calls the evaluator left to the host
    /// (`STATUS_UNSUPPORTED`).
    pub shallow_compared: u64,
    /// See [`CheckReport::shallow_compared`].
    pub shallow_deepest: u32,
    /// See [`CheckReport::shallow_compared`].
    pub shallow_left: u64,
    /// Games that did not end within the plies asked for.
    pub unfinished: u32,
    /// Positions `evaluate` scored at its `score_bound` or past it, before
    /// the host's clamp (a Rust evaluator's SDK clamps there first).
    pub at_bound: u64,
    /// The evaluator's `score_bound`.
    pub score_bound: i32,
    /// Where the evaluator check was last: a failed call is named with it.
    pub at: String,
    /// Each kind of problem: how often, and where it was first seen.
    pub problems: BTreeMap<&'static str, (u64, String)>,
    /// Each position's score beside the best its side to move gets one
    /// ply on by the same evaluator: an evaluator scoring for one
    /// player, not for the side to move, shows as the two opposed.
    pub one_ply: Agreement,
    /// Each position's score beside the game's own evaluator's (the
    /// reference [`run_evaluator`] is given): a score negated everywhere,
    /// which [`CheckReport::one_ply`] cannot tell, shows as the two
    /// opposed.
    pub reference: Agreement,
}

/// Pairs of numbers, for their rank correlation.
#[derive(Debug, Default, Clone)]
pub struct Agreement {
    pairs: Vec<(f64, f64)>,
}

impl Agreement {
    fn add(&mut self, x: f64, y: f64) {
        self.pairs.push((x, y));
    }

    fn merge(&mut self, other: Agreement) {
        self.pairs.extend(other.pairs);
    }

    /// Pairs seen.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether no pair was seen.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Spearman's rank correlation of the pairs (Pearson's of their
    /// ranks, ties given their mean rank), which a few scores far out (a
    /// mate found, a king attacked) do not sway; `None` with fewer than
    /// two pairs, or where either number never varied.
    pub fn correlation(&self) -> Option<f64> {
        let xs = ranks(self.pairs.iter().map(|p| p.0));
        let ys = ranks(self.pairs.iter().map(|p| p.1));
        let n = xs.len() as f64;
        let mean = (n + 1.0) / 2.0;
        let (mut xy, mut xx, mut yy) = (0.0, 0.0, 0.0);
        for (x, y) in xs.iter().zip(&ys) {
            xy += (x - mean) * (y - mean);
            xx += (x - mean) * (x - mean);
            yy += (y - mean) * (y - mean);
        }
        (xs.len() >= 2 && xx > 0.0 && yy > 0.0).then(|| xy / (xx * yy).sqrt())
    }
}

/// Whose scores an evaluator's are, told by [`Agreement::view`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum View {
    /// The side to move's: its scores and the best one ply on rank alike
    /// (Spearman's correlation, given).
    SideToMove(f64),
    /// One player's whoever moves: the two rank in opposite orders.
    OnePlayer(f64),
    /// Too few positions, or too weak a correlation, to tell.
    Unclear(Option<f64>),
}

impl Agreement {
    /// Positions below which [`Agreement::view`] does not judge.
    pub const FEWEST: usize = 30;
    /// The correlation, either way, from which it does.
    pub const CLEAR: f64 = 0.25;

    /// Whose scores these are. Scores for the side to move rank as the
    /// best score one ply on ranks (each shipped evaluator: 0.51 to 0.97 on
    /// ten random games), and scores for one player in the opposite order
    /// (the same evaluators with Black's scores negated: -0.49 to -0.93);
    /// a score negated everywhere (for the side that has just moved) is
    /// consistent in its own way and reads as the side to move's.
    pub fn view(&self) -> View {
        match self.correlation() {
            Some(rho) if self.len() >= Self::FEWEST && rho >= Self::CLEAR => View::SideToMove(rho),
            Some(rho) if self.len() >= Self::FEWEST && rho <= -Self::CLEAR => View::OnePlayer(rho),
            rho => View::Unclear(rho),
        }
    }
}

/// The rank of each number among them, from 1, ties given their mean rank.
fn ranks(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let values: Vec<f64> = values.collect();
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            ranks[k] = rank;
        }
        i = j + 1;
    }
    ranks
}

impl CheckReport {
    fn problem(&mut self, kind: &'static str, at: impl FnOnce() -> String) {
        let entry = self.problems.entry(kind).or_insert_with(|| (0, at()));
        entry.0 += 1;
    }

    /// Add another thread's report to this one.
    fn merge(&mut self, other: CheckReport) {
        self.games += other.games;
        self.positions += other.positions;
        self.moves += other.moves;
        self.from_stack += other.from_stack;
        self.left_to_evaluate += other.left_to_evaluate;
        self.unsupported_resets += other.unsupported_resets;
        self.at_bound += other.at_bound;
        self.shallow_compared += other.shallow_compared;
        self.shallow_deepest = self.shallow_deepest.max(other.shallow_deepest);
        self.shallow_left += other.shallow_left;
        self.one_ply.merge(other.one_ply);
        self.reference.merge(other.reference);
        for (kind, (count, first)) in other.problems {
            let entry = self.problems.entry(kind).or_insert((0, first));
            entry.0 += count;
        }
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
    // A plugin call that fails (a panic, garbage) ends the check, named
    // with the position it came at, as an evaluator's failure is.
    let at = std::cell::RefCell::new(String::new());
    let failed = |e: PluginError| {
        let at = at.borrow();
        if at.is_empty() {
            e.to_string()
        } else {
            format!("{e} (while checking {at} and the moves below it)")
        }
    };
    let null_moves = claims_null_moves(variant);
    // Every position seen, by hash: its side to move, its number of moves
    // and its text, for positions of one hash that differ.
    let mut seen: HashMap<u64, (u32, usize, String)> = HashMap::new();
    // The start position the plugin announces (`uci`'s `info string
    // variant ... startpos ...`, GUIs set it back) is the one it makes.
    let announced = variant.desc().start_position.clone();
    let made = GameState::new(&variant.plugin, variant.index).map_err(failed)?;
    let mut read = GameState::new(&variant.plugin, variant.index).map_err(failed)?;
    match read.set_position(&announced) {
        Err(e) => report.problem("the variant's announced start position is refused", || {
            format!("'{announced}': {e}")
        }),
        Ok(()) if read.hash() != made.hash() => report.problem(
            "the variant's announced start position is not the one state_new makes",
            || {
                format!(
                    "'{announced}' reads as '{}', state_new makes '{}'",
                    read.position_text().unwrap_or_default(),
                    made.position_text().unwrap_or_default()
                )
            },
        ),
        Ok(()) => {}
    }
    for game in 1..=games {
        let mut state = GameState::new(&variant.plugin, variant.index).map_err(failed)?;
        if let Some(start) = start {
            state.set_position(start).map_err(failed)?;
        }
        report.games = game;
        let mut moves: Vec<Move> = Vec::new();
        // The sides seen to move in this game, and its plies.
        let mut sides_seen = [false; 2];
        let mut played = 0;
        // The moves of the position before, asked of is_legal here as the
        // search asks it of a table's or a killer's move.
        let mut previous: Vec<Move> = Vec::new();
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
            *at.borrow_mut() = place("");
            let (counted, unwritten) = listed(&state, &mut moves).map_err(failed)?;
            report.positions += 1;
            alive();
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
            // One hash, one position: the table takes a position for
            // another of the same hash, so a hash that leaves out the side
            // to move (or what else decides the moves) confuses them.
            match seen.get(&hash) {
                Some((other_side, other_moves, other_text))
                    if *other_side != side || *other_moves != moves.len() + unwritten =>
                {
                    report.problem(
                        "two positions with one hash differ in their side to move or their moves (the hash must take in the side to move and whatever else decides them)",
                        || {
                            place(&format!(
                                "hash {hash:x}: side {side}, {} moves here; side {other_side}, {other_moves} moves at '{other_text}'",
                                moves.len() + unwritten
                            ))
                        },
                    );
                }
                Some(_) => {}
                None => {
                    seen.insert(hash, (side, moves.len() + unwritten, text.to_string()));
                }
            }
            // A null move not taken back leaves another position than the
            // one checked: the game ends there, so that the moves' own
            // take-backs are not blamed for it (the first move's was).
            if null_moves
                && !moves.is_empty()
                && !check_null_move(&mut report, &mut state, before.clone(), &place)
                    .map_err(failed)?
            {
                break 'game;
            }
            let chance_node = variant.plugin.has_chance()
                && check_chance_node(&mut report, &mut state, &moves, &before, &place)
                    .map_err(failed)?;
            if moves.is_empty() {
                // A chance node whose gen_moves lists nothing is told above.
                if state.outcome().map_err(failed)? == Outcome::Ongoing && !chance_node {
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
            if variant.plugin.has_is_legal() {
                check_is_legal(&mut report, &state, &moves, &previous, &place).map_err(failed)?;
                previous.clone_from(&moves);
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
                alive();
                let after = snapshot(&state).map_err(failed)?;
                if after != before {
                    report.problem(
                        "unmake_move does not restore the position (hash, side or text)",
                        || {
                            let mut changed = Vec::new();
                            if after.0 != hash {
                                changed.push(format!("hash {:x} (before: {hash:x})", after.0));
                            }
                            if after.1 != side {
                                changed.push(format!("side {} (before: {side})", after.1));
                            }
                            if after.2 != text {
                                changed.push(format!(
                                    "text '{}' (before: the same as above)",
                                    after.2
                                ));
                            }
                            place(&format!(
                                "after '{spelled}' and back, changed: {}",
                                changed.join(", ")
                            ))
                        },
                    );
                    // The state is not what it was: this game stops here.
                    break 'game;
                }
            }
            sides_seen[side as usize & 1] = true;
            let pick = moves[rng.below(moves.len() as u64) as usize];
            state.make_move(pick).map_err(failed)?;
            played += 1;
            if played == plies {
                report.unfinished += 1;
            }
        }
        // A turn that may stay with one side is allowed, one that never
        // leaves it is a side_to_move that is never updated.
        if played >= NEVER_PASSES_AFTER && !(sides_seen[0] && sides_seen[1]) {
            report.problem(
                "the side to move never changed over a whole game (side_to_move not updated by make_move?)",
                || format!("game {game}, {played} plies"),
            );
        }
    }
    Ok(report)
}

/// For a plugin with its own `is_legal`, which the search asks of moves
/// from elsewhere (the table's, the killers'): it accepts every move
/// listed here (at a roll of the dice, every outcome), and refuses the
/// reserved null move and the position before's moves that are not
/// listed here.
fn check_is_legal(
    report: &mut CheckReport,
    state: &GameState,
    moves: &[Move],
    previous: &[Move],
    place: &dyn Fn(&str) -> String,
) -> Result<(), PluginError> {
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes)?;
    let here: Vec<Move> = if outcomes.is_empty() {
        moves.to_vec()
    } else {
        outcomes.iter().map(|&(token, _)| token).collect()
    };
    let spelled = |mv: Move| {
        state
            .format_move(mv)
            .map_or_else(|_| format!("move {mv}"), |text| format!("'{text}'"))
    };
    for &mv in &here {
        if !state.is_legal(mv)? {
            report.problem("is_legal refuses a move gen_moves lists", || {
                place(&spelled(mv))
            });
        }
    }
    for &mv in previous.iter().chain(&[NULL_MOVE]) {
        if !here.contains(&mv) && state.is_legal(mv)? {
            let what = if mv == NULL_MOVE {
                "the reserved null move".to_string()
            } else {
                format!("{} (a move of the position before)", spelled(mv))
            };
            report.problem("is_legal accepts a move gen_moves does not list", || {
                place(&what)
            });
        }
    }
    Ok(())
}

/// At a chance node (where `chance_outcomes` lists anything): its
/// outcomes are distinct, `gen_moves` lists the same tokens (perft and
/// `check` walk the game by `gen_moves`, the search by `chance_outcomes`),
/// and an outcome `gen_moves` leaves out is made and taken back all the
/// same, so that one `make_move` refuses is named as an outcome. Whether
/// the state is a chance node.
fn check_chance_node(
    report: &mut CheckReport,
    state: &mut GameState,
    moves: &[Move],
    before: &(u64, u32, String),
    place: &dyn Fn(&str) -> String,
) -> Result<bool, PluginError> {
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes)?;
    if outcomes.is_empty() {
        return Ok(false);
    }
    let tokens: HashSet<Move> = outcomes.iter().map(|&(token, _)| token).collect();
    if tokens.len() != outcomes.len() {
        report.problem("chance_outcomes lists an outcome twice", || {
            place(&format!(
                "{} outcomes, {} distinct",
                outcomes.len(),
                tokens.len()
            ))
        });
    }
    let listed: HashSet<Move> = moves.iter().copied().collect();
    if listed != tokens {
        let spelled = |set: &HashSet<Move>| -> String {
            let mut set: Vec<Move> = set.iter().copied().collect();
            set.sort_unstable();
            let words: Vec<String> = set
                .iter()
                .take(8)
                .map(|&mv| state.format_move(mv).unwrap_or_else(|_| mv.to_string()))
                .collect();
            let more = set.len().saturating_sub(words.len());
            match (words.is_empty(), more) {
                (true, _) => "none".to_string(),
                (false, 0) => words.join(" "),
                (false, more) => format!("{} and {more} more", words.join(" ")),
            }
        };
        report.problem(
            "at a chance node, gen_moves does not list the tokens chance_outcomes lists (perft and plyd check walk the game by gen_moves, the search by chance_outcomes: list the outcomes in both)",
            || {
                place(&format!(
                    "gen_moves: {}; chance_outcomes: {}",
                    spelled(&listed),
                    spelled(&tokens)
                ))
            },
        );
    }
    for &(token, _) in &outcomes {
        if listed.contains(&token) {
            continue;
        }
        state.make_move(token)?;
        state.unmake_move(token)?;
        alive();
        if &snapshot(state)? != before {
            report.problem(
                "unmake_move does not restore the position (hash, side or text)",
                || place(&format!("after the outcome {token} and back")),
            );
            break;
        }
    }
    Ok(true)
}

/// Whether the game claims null moves (`CAP_NULL_MOVE`).
fn claims_null_moves(variant: &VariantRef) -> bool {
    variant.plugin.info().capabilities & plyd_api::abi::CAP_NULL_MOVE != 0
}

/// Whether the search would make a null move at `state`, in a game that
/// claims them: not in check, and `null_move_ok`.
fn null_move_here(state: &GameState) -> Result<bool, PluginError> {
    Ok(!state.in_check()? && state.null_move_ok()?)
}

/// Plies after which a game whose side to move never changed is reported.
const NEVER_PASSES_AFTER: u32 = 4;

/// For a game that claims `CAP_NULL_MOVE`: where the search would make a
/// null move (not in check, `null_move_ok`), it is accepted, passes the
/// turn (another side to move, another hash) and is taken back; `false`
/// where it was not taken back (the state is another position now).
fn check_null_move(
    report: &mut CheckReport,
    state: &mut GameState,
    before: (u64, u32, String),
    place: &dyn Fn(&str) -> String,
) -> Result<bool, PluginError> {
    if !null_move_here(state)? {
        return Ok(true);
    }
    if let Err(e) = state.make_move(NULL_MOVE) {
        report.problem(
            "make_move refuses the null move, which CAP_NULL_MOVE promises passes the turn",
            || place(&e.to_string()),
        );
        return Err(e);
    }
    let passed = snapshot(state)?;
    if passed.1 == before.1 || passed.0 == before.0 {
        report.problem(
            "a null move does not pass the turn (the same side to move, or the same hash)",
            || {
                place(&format!(
                    "after it: hash {:x}, side {} (before: hash {:x}, side {})",
                    passed.0, passed.1, before.0, before.1
                ))
            },
        );
    }
    state.unmake_move(NULL_MOVE)?;
    let back = snapshot(state)?;
    if back != before {
        report.problem(
            "unmake_move does not restore the position after a null move (hash, side or text)",
            || {
                place(&format!(
                    "back: hash {:x}, side {}, '{}'",
                    back.0, back.1, back.2
                ))
            },
        );
        return Ok(false);
    }
    Ok(true)
}

/// The stack is reset at the position reached when it holds this many
/// positions above its root (a search's stack holds fewer).
const STACK_DEPTH: u32 = 1000;

/// Play `games` random games of `variant` and check `evaluator` at every
/// position: `evaluate` gives one position one score, within the
/// evaluator's bound, and, for an evaluator with stacks, `stack_evaluate`
/// gives `evaluate`'s score at every position reached by a move (and by
/// two), by a null move where the game has them, and at every position
/// the stack comes back to after pops; and the scores beside the best
/// one ply on ([`CheckReport::one_ply`]). An evaluator with stacks is checked
/// on two threads at once, each with its own stack, so a stack kept in one
/// place for all threads shows. A plugin call that fails ends the check:
/// the report holds what was found before, and the failure.
pub fn run_evaluator(
    variant: &VariantRef,
    evaluator: &Evaluator,
    reference: Option<&Evaluator>,
    start: Option<&str>,
    games: u32,
    plies: u32,
    seed: u64,
) -> (CheckReport, Option<String>) {
    // The search calls an evaluator on several threads at once: a plain
    // `evaluate` that keeps its scratch in a global, a stack kept in one
    // place for all threads, a shallow search's shared context show only
    // there (a global scratch passed on one thread).
    let threads = 2;
    // The second thread starts once the first has had a score: an
    // evaluator that ends the process (`exit`) does so on one thread,
    // where plyd names it (two at once, the second could end it first,
    // unnamed, with the plugin's status).
    let first_scored = std::sync::atomic::AtomicBool::new(false);
    let reports: Vec<(CheckReport, Option<PluginError>)> = std::thread::scope(|scope| {
        let first_scored = &first_scored;
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                scope.spawn(move || {
                    use std::sync::atomic::Ordering;
                    if thread > 0 {
                        while !first_scored.load(Ordering::Acquire) {
                            std::thread::sleep(std::time::Duration::from_millis(1));
                        }
                    }
                    let mine = (1..=games).filter(|game| (*game as usize - 1) % threads == thread);
                    let mut report = CheckReport::default();
                    let failure = evaluator_games(
                        &mut report,
                        variant,
                        (evaluator, reference),
                        start,
                        mine,
                        plies,
                        seed,
                        first_scored,
                    )
                    .err();
                    // Whatever ended this thread's games, the other goes on.
                    first_scored.store(true, Ordering::Release);
                    (report, failure)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    let e = PluginError::Invalid("a check thread panicked".to_string());
                    (CheckReport::default(), Some(e))
                })
            })
            .collect()
    });
    let mut report = CheckReport {
        threads,
        score_bound: evaluator.info().score_bound,
        ..CheckReport::default()
    };
    let mut failures = Vec::new();
    for (thread, failure) in reports {
        let at = thread.at.clone();
        report.merge(thread);
        failures.extend(failure.map(|e| (e, at)));
    }
    // The cause, not the other thread's "disabled after an earlier
    // failure" that followed it, with the position it came at.
    let failure = failures
        .iter()
        .find(|(e, _)| !matches!(e, PluginError::Disabled { .. }))
        .or(failures.first())
        .map(|(e, at)| {
            if at.is_empty() {
                e.to_string()
            } else {
                format!("{e} (while checking {at} and the moves below it)")
            }
        });
    (report, failure)
}

/// What one `evaluate` call costs: its time, and the memory it keeps
/// (allocated and never freed), measured over many calls of one position.
#[derive(Debug, Clone, Copy)]
pub struct CallCost {
    /// Calls measured.
    pub calls: u32,
    /// Their mean time.
    pub per_call: std::time::Duration,
    /// The memory the process holds more after them, a call; `None`
    /// where the allocator cannot say (not glibc).
    pub kept_per_call: Option<f64>,
}

/// Calls measured at most, and for at most this long.
const COST_CALLS: u32 = 20_000;
const COST_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// Kept past this many bytes a call, on average, an evaluator leaks.
pub const LEAK_BYTES_PER_CALL: f64 = 16.0;

/// Measure [`CallCost`] on one thread, with nothing else running: the
/// position a few plies from the start (`start`, or the variant's), its
/// first moves played, scored again and again after a few calls to warm
/// up (an evaluator's scratch made at its first call is not a leak).
pub fn evaluate_cost(
    variant: &VariantRef,
    evaluator: &Evaluator,
    start: Option<&str>,
) -> Result<CallCost, PluginError> {
    let mut state = GameState::new(&variant.plugin, variant.index)?;
    if let Some(start) = start {
        state.set_position(start)?;
    }
    let mut moves = Vec::new();
    for ply in 0..8 {
        if state.outcome()? != Outcome::Ongoing {
            break;
        }
        state.legal_moves(&mut moves)?;
        let Some(&mv) = moves.get(ply % moves.len().max(1)) else {
            break;
        };
        state.make_move(mv)?;
    }
    for _ in 0..100 {
        evaluator.evaluate(&state)?;
    }
    let before = allocated();
    let started = std::time::Instant::now();
    let mut calls = 0;
    while calls < COST_CALLS && started.elapsed() < COST_TIME {
        evaluator.evaluate(&state)?;
        calls += 1;
        alive();
    }
    let per_call = started.elapsed() / calls.max(1);
    let kept_per_call = before
        .zip(allocated())
        .map(|(before, after)| (after as f64 - before as f64) / f64::from(calls.max(1)));
    Ok(CallCost {
        calls,
        per_call,
        kept_per_call,
    })
}

/// `d` for a line: `0.31 µs`, `2.10 ms`.
pub fn call_time(d: std::time::Duration) -> String {
    let micros = d.as_secs_f64() * 1e6;
    if micros >= 1000.0 {
        format!("{:.2} ms", micros / 1000.0)
    } else {
        format!("{micros:.2} µs")
    }
}

/// The bytes the process's allocator has handed out and not had back.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn allocated() -> Option<usize> {
    // SAFETY: mallinfo2 reads the allocator's counts.
    let info = unsafe { libc::mallinfo2() };
    Some(info.uordblks + info.hblkhd)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn allocated() -> Option<usize> {
    None
}

/// One thread's games of [`run_evaluator`], into `report`.
#[allow(clippy::too_many_arguments)]
fn evaluator_games(
    report: &mut CheckReport,
    variant: &VariantRef,
    (evaluator, reference): (&Evaluator, Option<&Evaluator>),
    start: Option<&str>,
    games: impl Iterator<Item = u32>,
    plies: u32,
    seed: u64,
    scored: &std::sync::atomic::AtomicBool,
) -> Result<(), PluginError> {
    // The context a crash's line names is this check's only while it runs.
    struct Forget;
    impl Drop for Forget {
        fn drop(&mut self) {
            crate::host::crash::note_context(None);
        }
    }
    let _forget = Forget;
    let bound = evaluator.info().score_bound;
    let mut stack = evaluator.new_stack()?;
    let null_moves = claims_null_moves(variant);
    // The plies the search hands over: one in a game with chance nodes,
    // none where the evaluator's scores reach the wins' range.
    let shallow_plies = if bound > EVAL_LIMIT {
        0
    } else if variant.plugin.has_chance() {
        evaluator.shallow_plies().min(1)
    } else {
        evaluator.shallow_plies().min(SHALLOW_DEEPEST)
    };
    let mut moves = Vec::new();
    for game in games {
        let mut rng = SplitMix64::new(seed ^ u64::from(game).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        // Its own numbers: the games are the same with it or without.
        let mut shallow_rng = SplitMix64::for_item(seed, 1, u64::from(game));
        let mut state = GameState::new(&variant.plugin, variant.index)?;
        if let Some(start) = start {
            state.set_position(start)?;
        }
        // Each game a new one, as the daemon's `ucinewgame` makes it: the
        // evaluator's `new_game`, where it has one, is checked too.
        report.at = format!("the start of game {game}");
        evaluator.new_game()?;
        // A reset answered UNSUPPORTED: this game without the stack.
        let mut held = match stack.as_mut().map(|s| s.reset(&state)) {
            None => None,
            Some(Err(PluginError::Unsupported { .. })) => {
                report.unsupported_resets += 1;
                None
            }
            Some(Err(e)) => return Err(e),
            Some(Ok(())) => stack.as_mut(),
        };
        let mut depth = 0;
        for ply in 0..plies {
            let text = state.position_text()?;
            let place =
                |detail: String| format!("game {game} ply {ply}, position '{text}'{detail}");
            report.at = place(String::new());
            // Said after a crash's line too, which a panic's names.
            crate::host::crash::note_context(Some(&format!("while checking {}", report.at)));
            alive();
            let hash = state.hash();
            let score = evaluator.evaluate_unclamped(&state)?;
            scored.store(true, std::sync::atomic::Ordering::Release);
            // The state is the evaluator's to read only (`const` in the
            // header): one it wrote into is another position now.
            let now = state.position_text()?;
            let changed = state.hash() != hash || now != text;
            let again = evaluator.evaluate_unclamped(&state)?;
            report.positions += 1;
            if changed {
                report.problem("evaluate changed the position it was given", || {
                    place(format!(": then '{now}'"))
                });
            }
            if again != score {
                report.problem("evaluate scores one position two ways (is something kept between calls, or shared by the threads that call it at once?)", || {
                    place(format!(": {score}, then {again}"))
                });
            }
            if score.abs() >= bound {
                report.at_bound += 1;
            }
            if score.abs() > bound {
                report.problem(
                    "a score of evaluate past the evaluator's score_bound",
                    || place(format!(": {score}, bound {bound}")),
                );
            }
            if let Some(stack) = held.as_deref_mut() {
                let mut walk = Walk {
                    report: &mut *report,
                    stack,
                    evaluator,
                    place: &place,
                };
                walk.compare(&state, "")?;
                state.legal_moves(&mut moves)?;
                for &mv in &moves {
                    let spelled = state.format_move(mv).unwrap_or_else(|_| mv.to_string());
                    walk.two_plies(&mut state, mv, &format!(" after {spelled}"))?;
                    walk.report.moves += 1;
                }
                // A null move, where the game has them and the search would
                // make one (not in check).
                if null_moves && null_move_here(&state)? {
                    walk.two_plies(&mut state, NULL_MOVE, " after a null move")?;
                }
                // Back where the pushes started.
                walk.compare(&state, " after pops")?;
            }
            if let Some(best) = one_ply(evaluator, &mut state)? {
                report.one_ply.add(f64::from(score), best);
            }
            // The reference is the game's own: a failure of it is not the
            // checked evaluator's, and leaves the comparison a pair short.
            if let Some(Ok(theirs)) = reference
                .filter(|_| state.outcome().ok() == Some(Outcome::Ongoing))
                .map(|r| r.evaluate(&state))
            {
                report.reference.add(f64::from(score), f64::from(theirs));
            }
            if shallow_plies > 0 && state.outcome()? == Outcome::Ongoing {
                let mut outcomes = Vec::new();
                state.chance_outcomes(&mut outcomes)?;
                if outcomes.is_empty() {
                    let mut shallow = Shallow {
                        report: &mut *report,
                        evaluator,
                        rng: &mut shallow_rng,
                        place: &place,
                    };
                    shallow.check(&mut state, shallow_plies)?;
                }
            }
            state.legal_moves(&mut moves)?;
            if moves.is_empty() {
                break;
            }
            let pick = moves[rng.below(moves.len() as u64) as usize];
            state.make_move(pick)?;
            if let Some(stack) = held.as_deref_mut() {
                depth += 1;
                if depth >= STACK_DEPTH {
                    stack.reset(&state)?;
                    depth = 0;
                } else {
                    stack.push(&state, pick)?;
                }
            }
        }
        // Counted once played through: a failure part way stops the
        // check, and a game it cut short is not one checked.
        report.games += 1;
    }
    Ok(())
}

/// The best score the side to move at `state` gets one ply on, by
/// `evaluator` alone: each move's position scored for the side to move
/// here (negated where the other side moves there; a roll of the dice
/// there averaged over its outcomes by their weights), moves that end the
/// game left out. `None` at a roll of the dice, at the game's end and
/// where every move ends it.
fn one_ply(evaluator: &Evaluator, state: &mut GameState) -> Result<Option<f64>, PluginError> {
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes)?;
    if !outcomes.is_empty() || state.outcome()? != Outcome::Ongoing {
        return Ok(None);
    }
    let side = state.side_to_move()?;
    let mut moves = Vec::new();
    state.legal_moves(&mut moves)?;
    let mut best: Option<f64> = None;
    for mv in moves {
        state.make_move(mv)?;
        let value = seen_by(evaluator, state, side, &mut outcomes);
        state.unmake_move(mv)?;
        if let Some(value) = value? {
            best = Some(best.map_or(value, |b| b.max(value)));
        }
    }
    Ok(best)
}

/// `evaluator`'s score of `state` for `side`; see [`one_ply`].
fn seen_by(
    evaluator: &Evaluator,
    state: &mut GameState,
    side: u32,
    outcomes: &mut Vec<(Move, u32)>,
) -> Result<Option<f64>, PluginError> {
    if state.outcome()? != Outcome::Ongoing {
        return Ok(None);
    }
    state.chance_outcomes(outcomes)?;
    if outcomes.is_empty() {
        alive();
        let score = f64::from(evaluator.evaluate_unclamped(state)?);
        return Ok(Some(if state.side_to_move()? == side {
            score
        } else {
            -score
        }));
    }
    let rolls = std::mem::take(outcomes);
    let (mut sum, mut weights) = (0.0, 0.0);
    for &(roll, weight) in &rolls {
        state.make_move(roll)?;
        let value = seen_by(evaluator, state, side, outcomes);
        state.unmake_move(roll)?;
        if let Some(value) = value? {
            sum += value * f64::from(weight);
            weights += f64::from(weight);
        }
    }
    Ok((weights > 0.0).then(|| sum / weights))
}

/// The stack of one thread of [`run_evaluator`] at one position of a game.
struct Walk<'r, 's, 'e> {
    report: &'r mut CheckReport,
    stack: &'s mut EvalStack<'e>,
    evaluator: &'e Evaluator,
    place: &'r dyn Fn(String) -> String,
}

impl Walk<'_, '_, '_> {
    /// Make `mv` and push it, compare, and the same for the first replies
    /// on top of it; then take all back.
    fn two_plies(
        &mut self,
        state: &mut GameState,
        mv: Move,
        detail: &str,
    ) -> Result<(), PluginError> {
        state.make_move(mv)?;
        self.stack.push(state, mv)?;
        self.compare(state, detail)?;
        let mut replies = Vec::new();
        state.legal_moves(&mut replies)?;
        for &reply in replies.iter().take(3) {
            state.make_move(reply)?;
            self.stack.push(state, reply)?;
            self.compare(state, detail)?;
            self.stack.pop()?;
            state.unmake_move(reply)?;
        }
        self.stack.pop()?;
        state.unmake_move(mv)
    }

    /// Compare the stack's score of `state` (on top of it) with
    /// `evaluate`'s.
    fn compare(&mut self, state: &GameState, detail: &str) -> Result<(), PluginError> {
        alive();
        let fresh = self.evaluator.evaluate(state)?;
        let Some(from_stack) = self.stack.evaluate_own(state)? else {
            self.report.left_to_evaluate += 1;
            return Ok(());
        };
        self.report.from_stack += 1;
        if from_stack != fresh {
            let place = self.place;
            self.report
                .problem("stack_evaluate differs from evaluate", || {
                    place(format!("{detail}: stack {from_stack}, evaluate {fresh}"))
                });
        }
        Ok(())
    }
}

/// The deepest `shallow_search` that `plyd check` compares.
const SHALLOW_DEEPEST: u32 = 8;
/// The most positions of a tree searched to compare one `shallow_search`
/// with: deeper searches of a position whose tree is larger are left out.
const SHALLOW_TREE: u64 = 20_000;

/// The `shallow_search` of one thread of [`run_evaluator`] at one position
/// of a game.
struct Shallow<'r, 'e> {
    report: &'r mut CheckReport,
    evaluator: &'e Evaluator,
    rng: &'r mut SplitMix64,
    place: &'r dyn Fn(String) -> String,
}

impl Shallow<'_, '_> {
    /// At `state` (a player to move, the game going on), for each depth
    /// from 1 to `plies` whose tree is small enough: the tree searched
    /// whole by the host, then `shallow_search` in windows around its
    /// score and at random: exact strictly inside the window, a bound on
    /// the side it fell outside it, at least one position and at most the
    /// tree's counted, `state` left as it was.
    fn check(&mut self, state: &mut GameState, plies: u32) -> Result<(), PluginError> {
        let before = snapshot(state)?;
        // A win at the position itself, as at some ply of a search.
        let win = WIN - 1 - self.rng.below(64) as i32;
        let bound = self.evaluator.info().score_bound;
        let span = (bound / 20).max(2);
        for depth in 1..=plies {
            let mut budget = SHALLOW_TREE;
            let Some((tree, positions)) =
                tree_score(self.evaluator, state, depth, win, &mut budget)?
            else {
                break;
            };
            let mut windows = vec![
                (-INFINITY, INFINITY),
                (tree - 1, tree + 1),
                (tree, tree + 1),
                (tree - 1, tree),
            ];
            for _ in 0..2 {
                let low = tree - span + self.rng.below(2 * span as u64 + 1) as i32;
                windows.push((low, low + 1 + self.rng.below(span as u64) as i32));
            }
            for (alpha, beta) in windows {
                alive();
                let Some((score, nodes)) = self
                    .evaluator
                    .shallow_search(state, depth, alpha, beta, win)?
                else {
                    self.report.shallow_left += 1;
                    continue;
                };
                self.report.shallow_compared += 1;
                self.report.shallow_deepest = self.report.shallow_deepest.max(depth);
                let searched = || format!("depth {depth}, window ({alpha}, {beta}), win {win}");
                let mut wrong = disagreement(score, alpha, beta, tree);
                if wrong.is_some() {
                    // An evaluator whose scores change as it learns (an
                    // ending solved over several calls) is not faulted
                    // for it here, where the tree searched again agrees.
                    let mut budget = SHALLOW_TREE;
                    let again = tree_score(self.evaluator, state, depth, win, &mut budget)?;
                    if again
                        .is_some_and(|(again, _)| disagreement(score, alpha, beta, again).is_none())
                    {
                        wrong = None;
                    }
                }
                if let Some(wrong) = wrong {
                    let place = self.place;
                    self.report
                        .problem("shallow_search's score is not the tree's", || {
                            place(format!(
                                ": {}: shallow_search {score} ({wrong}), the tree {tree}",
                                searched()
                            ))
                        });
                }
                if nodes == 0 || nodes > positions {
                    let place = self.place;
                    self.report.problem(
                        "shallow_search counts no position below, or more than its tree has",
                        || {
                            place(format!(
                                ": {}: {nodes} counted, the tree has {positions}",
                                searched()
                            ))
                        },
                    );
                }
                let after = snapshot(state)?;
                if after != before {
                    let place = self.place;
                    self.report
                        .problem("shallow_search leaves the position changed", || {
                            place(format!(": {}: now '{}'", searched(), after.2))
                        });
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// What is wrong with `score`, searched in the window `(alpha, beta)`,
/// for a tree whose score is `tree`: fail-soft, it is exact strictly
/// inside the window, at least the tree's score where it fell at or
/// below `alpha`, at most where it fell at or above `beta`.
fn disagreement(score: i32, alpha: i32, beta: i32, tree: i32) -> Option<&'static str> {
    if score > alpha && score < beta {
        (score != tree).then_some("inside the window, not the tree's score")
    } else if score <= alpha {
        (tree > score).then_some("failed low, but the tree's score is higher")
    } else {
        (tree < score).then_some("failed high, but the tree's score is lower")
    }
}

/// The score of `state` searched whole `depth` plies deep for its side to
/// move, as `shallow_search` is to score it (a position `depth` plies down
/// scored by `evaluate`, a game ended `d` plies down `win - d` for the
/// side to move there when it has won, the negation when it has lost, 0
/// drawn), and the positions reached below it; `None` when that takes
/// more than `budget` positions.
fn tree_score(
    evaluator: &Evaluator,
    state: &mut GameState,
    depth: u32,
    win: i32,
    budget: &mut u64,
) -> Result<Option<(i32, u64)>, PluginError> {
    match state.outcome()? {
        Outcome::Win => return Ok(Some((win, 0))),
        Outcome::Loss => return Ok(Some((-win, 0))),
        Outcome::Draw => return Ok(Some((0, 0))),
        Outcome::Ongoing => {}
    }
    if depth == 0 {
        alive();
        return Ok(Some((evaluator.evaluate(state)?, 0)));
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves)?;
    let side = state.side_to_move()?;
    let (mut best, mut positions) = (-INFINITY, 0);
    for mv in moves {
        if *budget == 0 {
            return Ok(None);
        }
        *budget -= 1;
        state.make_move(mv)?;
        let below = tree_score(evaluator, state, depth - 1, win - 1, budget);
        let same_side = state.side_to_move().map(|s| s == side);
        state.unmake_move(mv)?;
        let Some((score, under)) = below? else {
            return Ok(None);
        };
        let score = if same_side? { score } else { -score };
        best = best.max(score);
        positions += 1 + under;
    }
    Ok(Some((best, positions)))
}
