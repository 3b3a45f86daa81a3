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

use std::io::Write;
use std::time::Instant;

use plyd_protocol::{GgfClock, GgfGame, GgfMove, GoParams, Info, Score, StartPosition};

use super::main_line_score;
use crate::daemon::Daemon;

/// The midgame depth until `set depth` gives one.
const DEFAULT_DEPTH: u32 = 12;

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

/// What NBoard keeps between lines.
#[derive(Debug, Clone)]
pub(super) struct NBoardState {
    depth: u32,
    start: StartPosition,
    moves: Vec<String>,
    asked: Option<Asked>,
    last_score: Option<Score>,
    last_nodes: u64,
    /// The game's clocks, when it has them.
    clock: Option<GameClock>,
}

/// Black's and White's clocks and what each player has used of them.
#[derive(Debug, Clone, Copy)]
struct GameClock {
    clocks: [GgfClock; 2],
    used_ms: [u64; 2],
    moves: [u64; 2],
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
        self.used_ms[side] += seconds.map_or(0, |s| (s * 1000.0).round() as u64);
    }

    /// What `side` has left: its main time and increments less what it
    /// used, and its extension once that is spent.
    fn left_ms(&self, side: usize) -> i64 {
        let clock = &self.clocks[side];
        let earned = clock.main_ms + clock.increment_ms * self.moves[side];
        let left = earned as i64 - self.used_ms[side] as i64;
        if left > 0 {
            left
        } else {
            left + clock.extension_ms as i64
        }
    }
}

impl Default for NBoardState {
    fn default() -> Self {
        NBoardState {
            depth: DEFAULT_DEPTH,
            start: StartPosition::StartPos,
            moves: Vec::new(),
            asked: None,
            last_score: None,
            last_nodes: 0,
            clock: None,
        }
    }
}

/// An NBoard move (`F5`, `PA`) as plyd's Othello reads it.
fn plyd_move(text: &str) -> String {
    let square = text.split('/').next().unwrap_or("").trim();
    if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
        "pass".to_string()
    } else {
        square.to_ascii_lowercase()
    }
}

/// A plyd move as NBoard writes it.
fn nboard_move(text: &str) -> String {
    match text {
        "0000" | "pass" | "PA" => "PA".to_string(),
        other => other.to_ascii_uppercase(),
    }
}

/// A score in discs for the side to move.
fn discs(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => f64::from(cp) / 100.0,
        Score::Mate(moves) if moves > 0 => 64.0,
        Score::Mate(_) => -64.0,
    }
}

impl<W: Write> Daemon<W> {
    /// One NBoard line; `false` means quit.
    pub(super) fn nboard_line(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return true;
        };
        match (command, args.first().copied()) {
            ("ping" | "quit", _) => {}
            // A new board (or a new request) during a search: the GUI has
            // moved on, and its `ping` follows; the search's answer is no
            // longer wanted.
            ("move" | "go" | "hint", _) | ("set", Some("game")) => self.drop_nboard_search(),
            // Other commands are served in order: one that comes during a
            // search waits for its end.
            _ => self.finish_job(),
        }
        let result = match command {
            "nboard" => {
                self.raw(&format!("set myname plyd{}", self.dialects.nboard.depth));
                Ok(())
            }
            "set" => self.nboard_set(line, args),
            "move" => match args.first() {
                Some(text) => self.nboard_move(text),
                None => Err("'move' needs a move".to_string()),
            },
            "hint" => {
                let count = args
                    .first()
                    .and_then(|n| n.parse::<u32>().ok())
                    .unwrap_or(1);
                self.nboard_search(Asked::Hint, count.max(1));
                Ok(())
            }
            "go" => {
                self.nboard_search(Asked::Move(Instant::now()), 1);
                Ok(())
            }
            "ping" => {
                self.drop_nboard_search();
                self.raw(&format!("pong {}", args.first().unwrap_or(&"0")));
                Ok(())
            }
            // plyd has no book to learn into; the reply says it is done.
            "learn" => {
                self.raw("learned");
                Ok(())
            }
            "analyze" => Ok(()),
            "quit" => return false,
            other => Err(format!("unknown command '{other}'")),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        true
    }

    /// Stop a running search, if any, with its answer dropped.
    fn drop_nboard_search(&mut self) {
        if self.job.is_some() {
            self.dialects.nboard.asked = Some(Asked::Dropped);
            self.shut_down();
        }
    }

    fn nboard_set(&mut self, line: &str, args: &[&str]) -> Result<(), String> {
        match args.first().copied() {
            Some("depth") => {
                let depth = args
                    .get(1)
                    .and_then(|d| d.parse::<u32>().ok())
                    .filter(|&d| d > 0)
                    .ok_or("'set depth' needs a positive depth")?;
                self.dialects.nboard.depth = depth;
                self.raw(&format!("set myname plyd{depth}"));
                Ok(())
            }
            Some("game") => {
                let text = line.split_once("game").map_or("", |(_, rest)| rest);
                self.nboard_set_game(text)
            }
            // Contempt and the settings of later versions are read and
            // left alone, as the protocol asks of what an engine lacks.
            Some(_) => Ok(()),
            None => Err("'set' needs a setting".to_string()),
        }
    }

    fn nboard_set_game(&mut self, text: &str) -> Result<(), String> {
        let read = GgfGame::parse(text)
            .and_then(|game| Ok((game.start_position()?, game.clocks()?, game.moves())))
            .map_err(|e| e.to_string());
        let (board, clocks, ggf_moves) = match read {
            Ok(read) => read,
            Err(e) => {
                // Nothing of the game the GUI now shows is known.
                self.session.refuse_position(e.clone());
                return Err(format!("set game: {e}"));
            }
        };
        let start = match board {
            Some(board) => StartPosition::Fen(board),
            None => StartPosition::StartPos,
        };
        let mut clock = clocks.map(GameClock::new);
        let mut moves = Vec::new();
        for mv in ggf_moves {
            let color = if mv.color == 'W' { 1 } else { 0 };
            moves = match self.with_turn_of(&start, moves, color) {
                Ok(moves) => moves,
                Err(e) => {
                    self.session.refuse_position(e.clone());
                    return Err(format!("set game: {e}"));
                }
            };
            moves.push(plyd_move(&mv.square));
            if let Some(clock) = &mut clock {
                clock.played(color as usize, mv.seconds);
            }
        }
        self.session
            .set_gui_position(&start, &moves)
            .map_err(|e| format!("set game: {e}"))?;
        self.dialects.nboard.start = start;
        self.dialects.nboard.moves = moves;
        self.dialects.nboard.clock = clock;
        Ok(())
    }

    /// `moves` with a pass added when `color` is not on move after them and
    /// the side on move can only pass (a GGF record may leave it out).
    fn with_turn_of(
        &mut self,
        start: &StartPosition,
        moves: Vec<String>,
        color: u32,
    ) -> Result<Vec<String>, String> {
        let (side, legal, pass) = self.session.ask_line(start, &moves, |state| {
            let mut legal = Vec::new();
            state.legal_moves(&mut legal)?;
            Ok((state.side_to_move()?, legal, state.parse_move("pass").ok()))
        })?;
        if side == color {
            return Ok(moves);
        }
        if legal.len() == 1 && pass == Some(legal[0]) {
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

    fn nboard_move(&mut self, text: &str) -> Result<(), String> {
        if self.session.position_refused() {
            return Err(format!(
                "move '{text}': there is no game, the last set game was refused"
            ));
        }
        let wanted = plyd_move(text);
        let start = self.dialects.nboard.start.clone();
        let mut moves = self.dialects.nboard.moves.clone();
        moves.push(wanted.clone());
        if self.session.set_position(&start, &moves).is_err() {
            // The side on move may have had to pass first.
            moves.pop();
            let side = self.session.ask_position(|state| state.side_to_move())?;
            moves = self
                .with_turn_of(&start, moves, 1 - side)
                .map_err(|_| format!("move '{text}' is not legal here"))?;
            moves.push(wanted);
            self.session
                .set_position(&start, &moves)
                .map_err(|_| format!("move '{text}' is not legal here"))?;
        }
        self.dialects.nboard.moves = moves;
        if self.dialects.nboard.clock.is_some() {
            // Sides alternate (a pass is a move), so the mover is the one
            // not on move now.
            let mover = 1 - self.session.ask_position(|state| state.side_to_move())? as usize;
            let seconds = GgfMove::read('B', text).seconds;
            if let Some(clock) = &mut self.dialects.nboard.clock {
                clock.played(mover.min(1), seconds);
            }
        }
        Ok(())
    }

    fn nboard_search(&mut self, asked: Asked, lines: u32) {
        if self.session.position_refused() {
            // No board to answer for: the error alone, and no `===` that
            // the GUI would take for a move.
            let why = self.session.copy_position().err().unwrap_or_default();
            self.error(&why);
            return;
        }
        self.dialects.nboard.asked = Some(asked);
        self.dialects.nboard.last_score = None;
        self.dialects.nboard.last_nodes = 0;
        self.raw("status plyd is thinking");
        let clock = self.dialects.nboard.clock;
        let go = GoParams {
            depth: Some(self.dialects.nboard.depth),
            wtime: clock.map(|c| c.left_ms(0)),
            btime: clock.map(|c| c.left_ms(1)),
            winc: clock.map(|c| c.clocks[0].increment_ms as i64),
            binc: clock.map(|c| c.clocks[1].increment_ms as i64),
            ..GoParams::default()
        };
        let multipv = self.settings.multipv;
        self.settings.multipv = lines;
        self.go(&go);
        self.settings.multipv = multipv;
    }

    pub(super) fn nboard_info(&mut self, info: &Info) {
        if let Some(nodes) = info.nodes {
            self.dialects.nboard.last_nodes = nodes;
        }
        if let Some(score) = main_line_score(info) {
            self.dialects.nboard.last_score = Some(score);
        }
        let Some(Asked::Hint) = self.dialects.nboard.asked else {
            return;
        };
        let (Some((score, None)), Some(depth), false) =
            (info.score, info.depth, info.pv.is_empty())
        else {
            return;
        };
        let pv: Vec<String> = info.pv.iter().map(|m| nboard_move(m)).collect();
        self.raw(&format!(
            "search {} {:.2} 0 {depth}",
            pv.join("-"),
            discs(score)
        ));
    }

    pub(super) fn nboard_best(&mut self, best: Option<String>) {
        let nboard = &mut self.dialects.nboard;
        match nboard.asked.take() {
            Some(Asked::Move(started)) => {
                let seconds = started.elapsed().as_secs_f64();
                let nodes = nboard.last_nodes;
                let eval = nboard.last_score.map(discs);
                self.raw(&format!("nodestats {nodes} {seconds:.2}"));
                let mv = best.as_deref().map_or("PA".to_string(), nboard_move);
                match eval {
                    Some(eval) => self.raw(&format!("=== {mv}/{eval:.2}/{seconds:.2}")),
                    None => self.raw(&format!("=== {mv}")),
                }
                self.raw("status");
            }
            Some(Asked::Hint) => self.raw("status"),
            Some(Asked::Dropped) | None => {}
        }
    }
}
