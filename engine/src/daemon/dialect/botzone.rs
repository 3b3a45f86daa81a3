//! Botzone's bot protocol over the controller: its Amazons (8x8) and
//! Reversi games, simple or JSON input, always asking to keep running.
//!
//! Botzone sends no greeting, so this dialect is chosen with `--protocol
//! botzone`. The game is `--game` (`amazons8` or `othello`) or, without
//! it, the shape of the first request (6 numbers: Amazons, 2: Reversi).
//! A full input replays the whole history; a kept-running turn adds the
//! opponent's move to the game plyd keeps. Each answer is searched on one
//! thread within Botzone's limit for the turn — the input's `time_limit`
//! when it gives one, taken as the turn's own, else the configuration's
//! `botzone_turn_limit` (1 s unless set, Botzone's limit for C++), doubled
//! on the game's first turn as Botzone doubles it — less what has passed since the turn's input came
//! (since the process started, on its first turn) and a margin for
//! answering. Root moves within a small margin of the best are chosen by a
//! seeded draw (`Variety`), so that an opponent cannot replay a won game.
//! Botzone has no channel for errors: a refused input is reported on
//! stderr (which Botzone keeps in the bot's log) and changes nothing.

use std::time::{Duration, Instant};

use plyd_protocol::GoParams;
use plyd_protocol::{
    BotzoneGame, BotzoneInput, BotzoneMove, Info, Response, StartPosition, KEEP_RUNNING,
};

use super::{search, Dialect};
use crate::daemon::controller::Controller;
use crate::host::Outcome;

/// What a turn keeps back from its limit, past the time the turn has
/// already taken when the search starts: the search's stop, the answer's
/// writing, and the judge's reading on a busy machine (docs/protocols.md
/// gives the answer times measured with it).
const TURN_MARGIN: Duration = Duration::from_millis(120);
/// The same for the process's first turn, which Botzone times from the
/// start of the process (the kernel's start time, where it can be read:
/// a launcher's work before it becomes plyd counts): more for the
/// loading of the program and its plugins before the search.
const FIRST_TURN_MARGIN: Duration = Duration::from_millis(300);
/// The least search time, whatever the clock says.
const LEAST_SEARCH: Duration = Duration::from_millis(20);
/// `Variety` where the configuration leaves it unset: this fraction of the
/// evaluator's score bound (Amazons: 12 points, Othello: 8, a twelfth of
/// a disc).
const VARIETY_PER_BOUND: i32 = 800;

/// The Botzone dialect and what it keeps between turns.
#[derive(Debug, Clone)]
pub(super) struct Botzone {
    /// The command line named the game.
    game_given: bool,
    reader: plyd_protocol::BotzoneReader,
    game: Option<BotzoneGame>,
    /// The game so far, in plyd's moves.
    moves: Vec<String>,
    /// Answer in JSON.
    json: bool,
    /// A search is running for an answer.
    searching: bool,
    /// Botzone's limit for a turn, from a JSON input's `time_limit`.
    time_limit: Option<Duration>,
    /// When the first line of a simple input spread over lines came.
    input_started: Option<Instant>,
    /// Turns answered by this process.
    turns_served: u32,
    /// A line that is not blank has been read.
    lines_seen: bool,
    /// When the last answer was written.
    answered_at: Option<Instant>,
}

/// Whether a plugin of a game Botzone plays (the Amazons on 8x8,
/// Othello) is loaded; else what to say.
pub(super) fn a_game_is_loaded(ctl: &Controller) -> Result<(), String> {
    let games = [BotzoneGame::Amazons, BotzoneGame::Reversi];
    if games
        .iter()
        .any(|g| ctl.session.host.find_variant(g.variant()).is_some())
    {
        return Ok(());
    }
    Err(format!(
        "Botzone: neither amazons8 nor othello is loaded (loaded: {}), so no turn could be \
         answered; put libplyd_game_amazons.so or libplyd_game_othello.so beside plyd or in \
         a folder named by --plugin-path",
        ctl.session.host.variant_list(),
    ))
}

/// An evaluator the command line or the configuration named must be one
/// a game Botzone plays offers (the game named, where one is): a bot
/// would otherwise play every turn with another, and nothing reads its
/// warning on stderr.
pub(super) fn the_evaluator_is_offered(ctl: &Controller, game: Option<&str>) -> Result<(), String> {
    let Some(named) = ctl.named_evaluator.as_deref() else {
        return Ok(());
    };
    let host = &ctl.session.host;
    let name = host.evaluator_name(named);
    let games: Vec<_> = [BotzoneGame::Amazons, BotzoneGame::Reversi]
        .iter()
        .filter(|g| game.is_none_or(|wanted| BotzoneGame::of_variant(wanted) == Some(**g)))
        .filter_map(|g| host.find_variant(g.variant()))
        .collect();
    if games
        .iter()
        .any(|variant| host.game_offers_evaluator(&variant.plugin, name))
    {
        return Ok(());
    }
    let names: Vec<&str> = games.iter().map(|v| v.name()).collect();
    Err(format!(
        "Botzone: evaluator '{named}' is not offered by {} (a bot would play every turn \
         with another evaluator); name one of its evaluators, or none",
        names.join(" or ")
    ))
}

/// A parameter file the command line or the configuration named must
/// have been read, as an evaluator named must be offered: a bot would
/// otherwise play every turn with the evaluator's defaults, and nothing
/// reads its warning on stderr.
pub(super) fn the_params_are_read(ctl: &Controller) -> Result<(), String> {
    let Some(named) = ctl.named_params.as_deref() else {
        return Ok(());
    };
    if ctl
        .session
        .current()
        .is_ok_and(|current| current.eval_params.is_some())
    {
        return Ok(());
    }
    Err(format!(
        "Botzone: the parameter file {} was not read (why is said above; a bot would play \
         every turn with the evaluator's defaults); mend it, or name none",
        named.display()
    ))
}

/// A request of the other game (or of neither) where `game` is played.
fn wrong_game(game: BotzoneGame, request: &BotzoneMove) -> String {
    let (name, numbers) = match game {
        BotzoneGame::Amazons => ("an Amazons", 6),
        BotzoneGame::Reversi => ("a Reversi", 2),
    };
    format!(
        "{name} request ({numbers} numbers) was expected, not '{}'",
        request.answer(false)
    )
}

/// A history of plyd's moves read from Botzone's numbers: a refused move
/// is named in Botzone's numbers too, and where it stood in the input.
fn botzone_position(
    ctl: &mut Controller,
    moves: &[String],
    sources: &[String],
) -> Result<(), String> {
    ctl.session
        .set_position(&StartPosition::StartPos, moves)
        .map_err(|e| {
            // The session numbers the moves from 1 (`move 3 ('c1b1g1')
            // rejected: ...`).
            let index = e
                .strip_prefix("move ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| n.checked_sub(1));
            match index.and_then(|i| sources.get(i)) {
                Some(source) => format!("{e} (in Botzone's numbers, {source})"),
                None => e,
            }
        })
}

impl Botzone {
    /// A fresh dialect; `game_given`: the command line named the game.
    pub(super) fn new(game_given: bool) -> Self {
        Botzone {
            game_given,
            reader: plyd_protocol::BotzoneReader::default(),
            game: None,
            moves: Vec::new(),
            json: false,
            searching: false,
            time_limit: None,
            input_started: None,
            turns_served: 0,
            lines_seen: false,
            answered_at: None,
        }
    }

    /// The search time of a turn whose input began at `started`: the
    /// turn's limit (the input's `time_limit`, else `default_limit`: the
    /// configuration's `botzone_turn_limit`, 1 s unless set, Botzone's
    /// limit for a C++ bot) less the time taken so far and the margin.
    fn budget(&self, started: Instant, first_turn: bool, default_limit: Duration) -> Duration {
        let limit = match self.time_limit {
            // The input's own limit is taken as this turn's: whether
            // Botzone's field already holds a first turn's doubled time is
            // not written down, and doubling it again would lose the game
            // on time where it does.
            Some(limit) => limit,
            None if first_turn => 2 * default_limit,
            None => default_limit,
        };
        let (since, margin) = if self.turns_served == 0 {
            (crate::daemon::process_started(), FIRST_TURN_MARGIN)
        } else {
            (started, TURN_MARGIN)
        };
        limit
            .saturating_sub(since.elapsed() + margin)
            .max(LEAST_SEARCH)
    }

    /// The game of this input, selected in the session the first time.
    fn game(&mut self, ctl: &mut Controller, request: &BotzoneMove) -> Result<BotzoneGame, String> {
        if let Some(game) = self.game {
            if request.game() != Some(game) {
                return Err(wrong_game(game, request));
            }
            return Ok(game);
        }
        let game = if self.game_given {
            let name = ctl.session.current()?.variant.name().to_string();
            let game = BotzoneGame::of_variant(&name)
                .ok_or_else(|| format!("Botzone does not play {name} (amazons8 or othello)"))?;
            if name != game.variant() {
                log::info!("Botzone plays {name} as {}", game.variant());
                ctl.session.select_variant(game.variant())?;
            }
            game
        } else {
            let game = request
                .game()
                .ok_or("a request has 6 numbers (Amazons) or 2 (Reversi)")?;
            ctl.session.select_variant(game.variant())?;
            game
        };
        if request.game() != Some(game) {
            return Err(wrong_game(game, request));
        }
        self.game = Some(game);
        Ok(game)
    }

    fn turn(
        &mut self,
        ctl: &mut Controller,
        input: BotzoneInput,
        started: Instant,
    ) -> Result<(), String> {
        let (moves, json, first_turn) = match input {
            BotzoneInput::Full {
                requests,
                responses,
                json,
                time_limit,
            } => {
                match time_limit {
                    Some(Ok(ms)) => self.time_limit = Some(Duration::from_millis(ms)),
                    Some(Err(e)) => log::warn!("{e}: Botzone's default limits apply"),
                    None => {}
                }
                let mut moves = Vec::new();
                let mut sources = Vec::new();
                // Each request and response of the game's kind (the first
                // request chooses it, where the command line did not).
                for (i, request) in requests.iter().enumerate() {
                    self.game(ctl, request)?;
                    let source = || format!("request {} '{}'", i + 1, request.answer(false));
                    let mv = match request
                        .to_plyd()
                        .map_err(|e| format!("{}: {e}", source()))?
                    {
                        Some(mv) => Some(mv),
                        // Only the first player's first request is empty;
                        // later, all -1 is the opponent's pass.
                        None if i > 0 => Some("pass".to_string()),
                        None => None,
                    };
                    if let Some(mv) = mv {
                        moves.push(mv);
                        sources.push(source());
                    }
                    if let Some(response) = responses.get(i) {
                        self.game(ctl, response)?;
                        let source = format!("response {} '{}'", i + 1, response.answer(false));
                        let mv = response
                            .to_plyd()
                            .map_err(|e| format!("{source}: {e}"))?
                            .unwrap_or_else(|| "pass".to_string());
                        moves.push(mv);
                        sources.push(source);
                    }
                }
                botzone_position(ctl, &moves, &sources)?;
                (moves, json, requests.len() == 1)
            }
            BotzoneInput::Next { request, json } => {
                // Botzone sends a request alone only to a bot kept running
                // after its answer; a first input is a whole history.
                if self.turns_served == 0 {
                    return Err(format!(
                        "'{}' is a request alone, which Botzone sends only to a bot kept \
                         running after an answer: a turn's first input is the turn number and \
                         the history (or one line of JSON)",
                        request.as_sent(json)
                    ));
                }
                self.game(ctl, &request)?;
                let mut moves = self.moves.clone();
                match request.to_plyd()? {
                    Some(mv) => moves.push(mv),
                    None => moves.push("pass".to_string()),
                }
                let mut sources = vec![String::new(); moves.len() - 1];
                sources.push(format!("the request '{}'", request.as_sent(json)));
                botzone_position(ctl, &moves, &sources)?;
                (moves, json, false)
            }
        };
        self.moves = moves;
        self.json = json;
        let over = ctl.session.ask_position(|state| state.outcome())? != Outcome::Ongoing;
        self.searching = true;
        if over {
            self.best(ctl, None, None);
            return Ok(());
        }
        if ctl.settings.variety.is_none() {
            let bound = ctl.session.current()?.evaluator.info().score_bound;
            ctl.settings.variety = Some((bound / VARIETY_PER_BOUND).max(1) as u32);
        }
        let default_limit = Duration::from_millis(u64::from(ctl.settings.botzone_turn_limit_ms));
        let budget = self.budget(started, first_turn, default_limit);
        log::debug!(
            "turn {}: a limit of {} ms{}, {} ms to search",
            self.moves.len() / 2 + 1,
            self.time_limit.unwrap_or(default_limit).as_millis(),
            if first_turn && self.time_limit.is_none() {
                " (doubled)"
            } else {
                ""
            },
            budget.as_millis()
        );
        let go = GoParams {
            movetime: Some(turn_movetime(budget, ctl.settings.move_overhead_ms)),
            ..GoParams::default()
        };
        search(ctl, self, &go, None);
        Ok(())
    }
}

/// The `movetime` of a turn whose search may take `budget`, with `Move
/// Overhead` `overhead_ms`: the overhead is kept back inside the turn's
/// margin, not again, and what is set above its default widens the margin
/// by as much (a judge slower to read the answer than the margin allows
/// for); the search keeps its least time.
fn turn_movetime(budget: Duration, overhead_ms: u32) -> u64 {
    let overhead = u64::from(overhead_ms);
    let default = crate::options::MOVE_OVERHEAD_RANGE.default.max(0) as u64;
    let search = (budget.as_millis() as u64)
        .saturating_sub(overhead.saturating_sub(default))
        .max(LEAST_SEARCH.as_millis() as u64);
    search + overhead
}

impl Dialect for Botzone {
    fn answers_after_end_of_input(&self) -> bool {
        true
    }

    fn times_its_own_turns(&self) -> bool {
        true
    }

    fn errors_go_to_the_log(&self) -> bool {
        true
    }

    /// One line of Botzone input.
    fn line(&mut self, ctl: &mut Controller, line: &str) -> bool {
        let now = Instant::now();
        // Botzone sends nothing between a turn's input and the answer to
        // it: a line that comes while the turn is searched is a history
        // longer than its turn number says, or a `data` or `globaldata`
        // line that is not blank.
        let arrived = ctl.line_arrived.unwrap_or(now);
        let early = self.searching;
        ctl.finish_job(self);
        // Read before the last answer went out (lines that came together
        // with a turn's input, handled once its search ended).
        let early = early || self.answered_at.is_some_and(|answered| arrived < answered);
        if !line.trim().is_empty() {
            self.lines_seen = true;
        }
        if early && !line.trim().is_empty() {
            self.error(
                ctl,
                &format!(
                    "'{}' came before this turn's answer and is skipped: Botzone sends the next \
                     request only after it (a history longer than its turn number, or a data \
                     line that is not blank?)",
                    line.trim()
                ),
            );
            return true;
        }
        let continued = self.reader.reading();
        match self.reader.feed(line) {
            Ok(None) => {
                if self.reader.reading() && !continued {
                    self.input_started = Some(now);
                }
            }
            Ok(Some(input)) => {
                let started = self.input_started.take().filter(|_| continued);
                if let Err(e) = self.turn(ctl, input, started.unwrap_or(now)) {
                    self.error(ctl, &e);
                }
            }
            Err(e) => {
                self.input_started = None;
                self.error(ctl, &e);
            }
        }
        true
    }

    /// An input cut off before its turn was complete, or no input at all,
    /// is said: no answer comes.
    fn end_of_input(&mut self, ctl: &mut Controller) {
        if let Some((read, needed)) = self.reader.lines_read_and_needed() {
            let turns = needed.div_ceil(2);
            self.error(
                ctl,
                &format!(
                    "the input ended after {read} of the {needed} history lines turn {turns} \
                     needs: no turn to answer"
                ),
            );
        } else if !self.lines_seen {
            self.error(
                ctl,
                "the input ended before a turn's input: no turn to answer",
            );
        }
    }

    fn info(&mut self, _ctl: &mut Controller, info: Info) {
        log::debug!("{}", Response::Info(info));
    }

    /// A search ended: answer with its move and ask to keep running.
    fn best(&mut self, ctl: &mut Controller, best: Option<String>, _ponder: Option<String>) {
        if !std::mem::take(&mut self.searching) {
            return;
        }
        let game = self.game.unwrap_or(BotzoneGame::Reversi);
        let answer = match &best {
            Some(mv) => BotzoneMove::from_plyd(game, mv).unwrap_or_else(|e| {
                log::error!("{e}");
                BotzoneMove::from_plyd(game, "pass").unwrap_or(BotzoneMove(Vec::new()))
            }),
            None => BotzoneMove::from_plyd(game, "pass").unwrap_or(BotzoneMove(Vec::new())),
        };
        if let Some(mv) = best {
            self.moves.push(mv);
            let moves = self.moves.clone();
            if let Err(e) = ctl.session.set_position(&StartPosition::StartPos, &moves) {
                log::error!("{e}");
            }
        }
        let json = self.json;
        // Taken before the answer is written: a judge's next line, read
        // once it has the answer, always comes after.
        self.answered_at = Some(Instant::now());
        ctl.raw(&answer.answer(json));
        ctl.raw(KEEP_RUNNING);
        self.turns_served += 1;
    }

    /// Notes go to the log.
    fn write_note(&mut self, _ctl: &mut Controller, text: &str) {
        log::info!("{text}");
    }

    /// stdout carries only answers for the judge; stderr is the bot's log
    /// on Botzone.
    fn write_error(&mut self, _ctl: &mut Controller, text: &str) {
        log::error!("{text}");
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search stops at the budget (`movetime` less the overhead), less
    /// what the overhead is set above its default.
    #[test]
    fn move_overhead_above_its_default_widens_the_margin() {
        let budget = Duration::from_millis(700);
        assert_eq!(turn_movetime(budget, 10) - 10, 700);
        assert_eq!(turn_movetime(budget, 0), 700);
        assert_eq!(turn_movetime(budget, 400) - 400, 310);
        assert_eq!(
            turn_movetime(budget, 5000) - 5000,
            LEAST_SEARCH.as_millis() as u64
        );
    }

    /// The budget is the turn's limit (the configured one doubled on the
    /// game's first turn, the input's as it is) less the margin and the time the turn has taken; the process's
    /// first turn counts from the process's start.
    #[test]
    fn a_turn_searches_its_limit_less_the_margin() {
        let close = |got: Duration, want: Duration| {
            // What passes between taking `now` and the budget's clock.
            assert!(
                got <= want && want - got < Duration::from_millis(30),
                "{got:?} {want:?}"
            );
        };
        let mut bot = Botzone::new(true);
        bot.turns_served = 1;
        let now = Instant::now();
        // The input names no limit: the configured one (1 s by default).
        const TURN_LIMIT: Duration = Duration::from_millis(1_000);
        close(bot.budget(now, false, TURN_LIMIT), TURN_LIMIT - TURN_MARGIN);
        close(
            bot.budget(now, true, TURN_LIMIT),
            2 * TURN_LIMIT - TURN_MARGIN,
        );
        let configured = Duration::from_millis(400);
        close(bot.budget(now, false, configured), configured - TURN_MARGIN);
        bot.time_limit = Some(Duration::from_millis(3_000));
        close(
            bot.budget(now, false, TURN_LIMIT),
            Duration::from_millis(3_000) - TURN_MARGIN,
        );
        // The input's limit is the first turn's as it is, not doubled.
        close(
            bot.budget(now, true, TURN_LIMIT),
            Duration::from_millis(3_000) - TURN_MARGIN,
        );
        let earlier = now - Duration::from_millis(500);
        close(
            bot.budget(earlier, false, TURN_LIMIT),
            Duration::from_millis(2_500) - TURN_MARGIN,
        );
        // A turn that has already used its time still searches a little.
        let long_ago = now - Duration::from_secs(10);
        assert_eq!(bot.budget(long_ago, false, TURN_LIMIT), LEAST_SEARCH);
        // The first turn of the process counts from its start.
        bot.turns_served = 0;
        let since_start = crate::daemon::process_started().elapsed();
        let got = bot.budget(now, true, TURN_LIMIT);
        assert!(got <= Duration::from_millis(3_000) - FIRST_TURN_MARGIN - since_start);
    }
}
