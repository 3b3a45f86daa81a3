//! The NBoard protocol (version 2) over the controller, for Othello GUIs.
//!
//! `set game` gives the whole game in GGF, `move` adds one, `go` asks for
//! the move the engine would play (answered `=== F5/eval/time`; the board
//! is not changed, the GUI sends `move` if it plays it), `hint n` for the
//! evaluations of the n best moves (`search <pv> <eval> 0 <depth>` lines),
//! and `ping n` stops any search before `pong n`. The GUI sends `ping`
//! after every change of the board, and reads nothing before its `pong`:
//! so a `move` or `set game` that comes during a search drops that search
//! (its answer would be for a board the GUI has left), and the `ping`
//! behind it is answered at once. When the game has a clock (GGF's `TI`,
//! `TB`, `TW`, less the seconds its moves and NBoard's `move`s give), `go`
//! and `hint` keep to it as well as to `set depth`. Evaluations are discs
//! for the side to move (plyd's Othello scores are hundredths of a disc).
//! The protocol has no error reply, so a refused line is reported on the
//! GUI's status line: `status error: ...`, and changes nothing (a refused
//! `set game` leaves no game: `go` then answers with that error alone).

use std::time::Instant;

use plyd_protocol::{
    discs, nboard_move, parse_nboard_line, plyd_move, GgfClock, GgfGame, GgfMove, GoParams, Info,
    NBoardCommand, Score, StartPosition,
};

use super::{main_line_score, one_line, search, Dialect};
use crate::daemon::controller::session::forced_pass;
use crate::daemon::controller::Controller;
use crate::host::Outcome;

/// The midgame depth until `set depth` gives one.
const DEFAULT_DEPTH: u32 = 12;
/// The answer to `go` or `hint` on a finished game.
const GAME_OVER: &str = "the game is over: there is no move to play";

/// What a running search was asked for.
#[derive(Debug, Clone, Copy)]
enum Asked {
    /// `go`: answer `===`.
    Move(Instant),
    /// `hint n`: `search` lines, then an empty status.
    Hint,
    /// Stopped by `ping`: its answer is no longer wanted.
    Dropped,
}

/// The NBoard dialect and what it keeps between lines.
#[derive(Debug, Clone)]
pub(super) struct NBoard {
    depth: u32,
    start: StartPosition,
    moves: Vec<String>,
    asked: Option<Asked>,
    last_score: Option<Score>,
    last_nodes: u64,
    /// The game's clocks, when it has them.
    clock: Option<GameClock>,
    /// The last `===` move and the seconds its search took: charged to
    /// the clock when the GUI's `move` for it carries no time of its own.
    answered: Option<(String, f64)>,
    /// Whether a `set game` was taken: the first is no new game to a
    /// fresh evaluator.
    game_set: bool,
}

impl Default for NBoard {
    fn default() -> Self {
        NBoard {
            depth: DEFAULT_DEPTH,
            start: StartPosition::StartPos,
            moves: Vec::new(),
            asked: None,
            last_score: None,
            last_nodes: 0,
            clock: None,
            answered: None,
            game_set: false,
        }
    }
}

/// Black's and White's clocks and what each player has used of them.
#[derive(Debug, Clone, Copy)]
struct GameClock {
    clocks: [GgfClock; 2],
    used_ms: [u64; 2],
    moves: [u64; 2],
}

/// `value` in an `i64`, the nearest end of its range when past it.
fn saturating_i64(value: i128) -> i64 {
    value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl GameClock {
    fn new(clocks: [GgfClock; 2]) -> Self {
        GameClock {
            clocks,
            used_ms: [0; 2],
            moves: [0; 2],
        }
    }

    /// `side`'s move, which took `seconds` when the GUI says so.
    fn played(&mut self, side: usize, seconds: Option<f64>) {
        self.moves[side] += 1;
        let ms = seconds.map_or(0, |s| (s * 1000.0).round() as u64);
        self.used_ms[side] = self.used_ms[side].saturating_add(ms);
    }

    /// What `side` has left: its main time and increments less what it
    /// used, and its extension once that is spent.
    fn left_ms(&self, side: usize) -> i64 {
        let clock = &self.clocks[side];
        // In i128: clocks of any size read (`TI[1e300]`) neither wrap
        // round nor turn negative.
        let earned = i128::from(clock.main_ms)
            + i128::from(clock.increment_ms) * i128::from(self.moves[side]);
        let mut left = earned - i128::from(self.used_ms[side]);
        if left <= 0 {
            left += i128::from(clock.extension_ms);
        }
        saturating_i64(left)
    }
}

impl NBoard {
    /// Stop a running search, if any, with its answer dropped.
    fn drop_search(&mut self, ctl: &mut Controller) {
        // Learning is not a search whose answer the GUI left behind: it
        // was asked for, and `ping` answers once it is done.
        if ctl.learning() {
            ctl.finish_job(self);
        } else if ctl.busy() {
            self.asked = Some(Asked::Dropped);
            ctl.shut_down(self);
        }
    }

    /// One NBoard command; `false` means quit.
    fn command(
        &mut self,
        ctl: &mut Controller,
        command: NBoardCommand<'_>,
    ) -> Result<bool, String> {
        match command {
            NBoardCommand::Ping(_) | NBoardCommand::Quit => {}
            // A new board (or a new request) during a search: the GUI has
            // moved on, and its `ping` follows; the search's answer is no
            // longer wanted.
            NBoardCommand::Move(_)
            | NBoardCommand::Go
            | NBoardCommand::Hint(_)
            | NBoardCommand::SetGame(_) => self.drop_search(ctl),
            // Settings the running search does not read are taken at once
            // (`set depth` is the next search's), so that nothing queues
            // behind a long search: a `ping` or `quit` after them is
            // served without waiting for it.
            NBoardCommand::NBoard
            | NBoardCommand::SetDepth(_)
            | NBoardCommand::SetOther
            | NBoardCommand::Analyze => {}
            // Learning searches the game: it waits for a running search.
            NBoardCommand::Learn => ctl.finish_job(self),
        }
        match command {
            NBoardCommand::NBoard => ctl.raw(&format!("set myname plyd{}", self.depth)),
            NBoardCommand::SetDepth(depth) => {
                self.depth = depth;
                ctl.raw(&format!("set myname plyd{depth}"));
            }
            NBoardCommand::SetGame(text) => self.set_game(ctl, text)?,
            NBoardCommand::SetOther | NBoardCommand::Analyze => {}
            NBoardCommand::Move(text) => self.play(ctl, text)?,
            NBoardCommand::Hint(lines) => self.search(ctl, Asked::Hint, lines),
            NBoardCommand::Go => self.search(ctl, Asked::Move(Instant::now()), 1),
            NBoardCommand::Ping(n) => {
                self.drop_search(ctl);
                ctl.raw(&format!("pong {n}"));
            }
            // The game goes into the `BookFile` book; `learned` comes when
            // it is there (or at once, after the reason it is not).
            NBoardCommand::Learn => {
                let (start, moves, depth) = (self.start.clone(), self.moves.clone(), self.depth);
                if let Err(e) = ctl.learn(self, &start, &moves, depth) {
                    self.error(ctl, &e.to_string());
                    ctl.raw("learned");
                }
            }
            NBoardCommand::Quit => return Ok(false),
        }
        Ok(true)
    }

    fn set_game(&mut self, ctl: &mut Controller, text: &str) -> Result<(), String> {
        let (start, moves, clock) = NBoard::read_game(ctl, text).map_err(|e| {
            // Nothing of the game the GUI now shows is known.
            ctl.session.refuse_position(e.clone());
            format!("set game: {e}")
        })?;
        ctl.session
            .set_gui_position(&start, &moves)
            .map_err(|e| format!("set game: {e}"))?;
        // A game that neither goes on from the last one nor takes moves
        // of it back is a new game for the evaluator, as `ucinewgame` is
        // (NBoard sends the whole game again after a move is added or
        // taken back); one back at its start is a new game too.
        let goes_on =
            moves.starts_with(&self.moves) || (!moves.is_empty() && self.moves.starts_with(&moves));
        let new_game = self.game_set
            && (start != self.start || !goes_on || (moves.is_empty() && !self.moves.is_empty()));
        self.game_set = true;
        self.start = start;
        self.moves = moves;
        self.clock = clock;
        self.answered = None;
        if new_game {
            ctl.session
                .evaluator_new_game()
                .map_err(|e| format!("set game: {e}"))?;
        }
        Ok(())
    }

    /// A GGF game's start, its moves in plyd's words (with the passes a
    /// record may leave out) and its clocks less the moves' seconds.
    fn read_game(
        ctl: &Controller,
        text: &str,
    ) -> Result<(StartPosition, Vec<String>, Option<GameClock>), String> {
        let game = GgfGame::parse(text).map_err(|e| e.to_string())?;
        // Othello on 8x8 only: another game, or another board, is refused
        // rather than played as Othello.
        if let Some(gm) = game
            .get("GM")
            .filter(|gm| !gm.eq_ignore_ascii_case("othello"))
        {
            return Err(format!("GM[{gm}]: plyd plays Othello here"));
        }
        if let Some(ty) = game.get("TY") {
            let size: String = ty
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(char::is_ascii_digit)
                .collect();
            if size != "8" {
                return Err(format!("TY[{ty}]: plyd plays Othello on 8x8 (TY[8])"));
            }
        }
        let start = match game.start_position().map_err(|e| e.to_string())? {
            Some(board) => StartPosition::Fen(board),
            None => StartPosition::StartPos,
        };
        let mut clock = game
            .clocks()
            .map_err(|e| e.to_string())?
            .map(GameClock::new);
        let mut moves = Vec::new();
        for mv in game.moves() {
            let color = if mv.color == 'W' { 1 } else { 0 };
            moves = NBoard::with_turn_of(ctl, &start, moves, color)?;
            moves.push(plyd_move(&mv.square));
            if let Some(clock) = &mut clock {
                clock.played(color as usize, mv.seconds);
            }
        }
        Ok((start, moves, clock))
    }

    /// `moves` with a pass added when `color` is not on move after them and
    /// the side on move can only pass (a GGF record may leave it out).
    fn with_turn_of(
        ctl: &Controller,
        start: &StartPosition,
        moves: Vec<String>,
        color: u32,
    ) -> Result<Vec<String>, String> {
        let (side, pass) = ctl.session.ask_line(start, &moves, |state| {
            Ok((state.side_to_move()?, forced_pass(state)?))
        })?;
        if side == color {
            return Ok(moves);
        }
        if pass.is_some() {
            let mut moves = moves;
            moves.push("pass".to_string());
            Ok(moves)
        } else {
            Err(format!(
                "{} is not on move",
                if color == 0 { "black" } else { "white" }
            ))
        }
    }

    fn play(&mut self, ctl: &mut Controller, text: &str) -> Result<(), String> {
        if ctl.session.refusal().is_some() {
            return Err(format!(
                "move '{text}': there is no game, the last set game was refused"
            ));
        }
        let wanted = plyd_move(text);
        let start = self.start.clone();
        let mut moves = self.moves.clone();
        moves.push(wanted.clone());
        if ctl.session.set_position(&start, &moves).is_err() {
            // The side on move may have had to pass first.
            moves.pop();
            let side = ctl.session.ask_position(|state| state.side_to_move())?;
            moves = NBoard::with_turn_of(ctl, &start, moves, 1 - side)
                .map_err(|_| format!("move '{text}' is not legal here"))?;
            moves.push(wanted);
            ctl.session
                .set_position(&start, &moves)
                .map_err(|_| format!("move '{text}' is not legal here"))?;
        }
        self.moves = moves;
        if self.clock.is_some() {
            // Sides alternate (a pass is a move), so the mover is the one
            // not on move now.
            let mover = 1 - ctl.session.ask_position(|state| state.side_to_move())? as usize;
            let said = GgfMove::read('B', text);
            // A `move` without its time (`move F5`, as the protocol
            // allows) of the move plyd just answered: the time its search
            // took, measured here, not none.
            let answered = self.answered.take();
            let seconds = said.seconds.or_else(|| {
                answered
                    .filter(|(mv, _)| mv.eq_ignore_ascii_case(&said.square))
                    .map(|(_, seconds)| seconds)
            });
            if let Some(clock) = &mut self.clock {
                clock.played(mover.min(1), seconds);
            }
        }
        Ok(())
    }

    fn search(&mut self, ctl: &mut Controller, asked: Asked, lines: u32) {
        if let Some(why) = ctl.session.refusal() {
            // No board to answer for: the error alone, and no `===` that
            // the GUI would take for a move.
            self.error(ctl, &why);
            return;
        }
        if ctl
            .session
            .ask_position(|state| state.outcome())
            .is_ok_and(|outcome| outcome != Outcome::Ongoing)
        {
            // No move to play (`=== PA` would be one the board then
            // refuses): the error alone, as for a refused board.
            self.error(ctl, GAME_OVER);
            return;
        }
        self.asked = Some(asked);
        self.last_score = None;
        self.last_nodes = 0;
        ctl.raw("status plyd is thinking");
        let clock = self.clock;
        let go = GoParams {
            depth: Some(self.depth),
            wtime: clock.map(|c| c.left_ms(0)),
            btime: clock.map(|c| c.left_ms(1)),
            winc: clock.map(|c| saturating_i64(c.clocks[0].increment_ms.into())),
            binc: clock.map(|c| saturating_i64(c.clocks[1].increment_ms.into())),
            ..GoParams::default()
        };
        let multipv = ctl.settings.multipv;
        ctl.settings.multipv = lines;
        search(ctl, self, &go, None);
        ctl.settings.multipv = multipv;
    }
}

impl Dialect for NBoard {
    fn line(&mut self, ctl: &mut Controller, line: &str) -> bool {
        let result = match parse_nboard_line(line) {
            Ok(Some(command)) => self.command(ctl, command),
            Ok(None) => Ok(true),
            Err(e) => {
                ctl.finish_job(self);
                Err(e.to_string())
            }
        };
        result.unwrap_or_else(|e| {
            self.error(ctl, &e);
            true
        })
    }

    fn info(&mut self, ctl: &mut Controller, info: Info) {
        if let Some(nodes) = info.nodes {
            self.last_nodes = nodes;
        }
        if let Some(score) = main_line_score(&info) {
            self.last_score = Some(score);
        }
        let Some(Asked::Hint) = self.asked else {
            return;
        };
        let (Some((score, None)), Some(depth), false) =
            (info.score, info.depth, info.pv.is_empty())
        else {
            return;
        };
        let pv: Vec<String> = info.pv.iter().map(|m| nboard_move(m)).collect();
        ctl.raw(&format!(
            "search {} {:.2} 0 {depth}",
            pv.join("-"),
            discs(score)
        ));
    }

    fn best(&mut self, ctl: &mut Controller, best: Option<String>, _ponder: Option<String>) {
        let nboard = &mut *self;
        match nboard.asked.take() {
            Some(Asked::Move(started)) => {
                let seconds = started.elapsed().as_secs_f64();
                let nodes = nboard.last_nodes;
                let eval = nboard.last_score.map(discs);
                ctl.raw(&format!("nodestats {nodes} {seconds:.2}"));
                let mv = best.as_deref().map_or("PA".to_string(), nboard_move);
                nboard.answered = Some((mv.clone(), seconds));
                match eval {
                    Some(eval) => ctl.raw(&format!("=== {mv}/{eval:.2}/{seconds:.2}")),
                    // No score (a solve cut short by the clock): the
                    // time all the same, the eval left empty as GGF
                    // leaves it.
                    None => ctl.raw(&format!("=== {mv}//{seconds:.2}")),
                }
                ctl.raw("status");
            }
            Some(Asked::Hint) => ctl.raw("status"),
            // Its answer is dropped, but the GUI still shows the
            // `thinking` status it began with: replace it.
            Some(Asked::Dropped) => ctl.raw("status plyd is waiting"),
            None => {}
        }
    }

    /// Notes go to the log.
    fn write_note(&mut self, _ctl: &mut Controller, text: &str) {
        log::info!("{text}");
    }

    fn write_error(&mut self, ctl: &mut Controller, text: &str) {
        ctl.raw(&format!("status error: {}", one_line(text)));
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}
