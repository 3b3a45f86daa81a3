//! Botzone's bot protocol over the controller: its Amazons (8x8) and
//! Reversi games, simple or JSON input, always asking to keep running.
//!
//! Botzone sends no greeting, so this dialect is chosen with `--protocol
//! botzone`. The game is `--game` (`amazons8` or `othello`) or, without
//! it, the shape of the first request (6 numbers: Amazons, 2: Reversi).
//! A full input replays the whole history; a kept-running turn adds the
//! opponent's move to the game plyd keeps. Each answer is searched on one
//! thread within Botzone's limits (about 2 s for the first turn, 1 s for
//! the others) less a margin for starting, loading and a busy judge.
//! Botzone has no channel for errors: a refused input is reported on
//! stderr (which Botzone keeps in the bot's log) and changes nothing.

use plyd_protocol::GoParams;
use plyd_protocol::{
    BotzoneGame, BotzoneInput, BotzoneMove, Info, Response, StartPosition, KEEP_RUNNING,
};

use super::{search, Dialect};
use crate::daemon::controller::Controller;
use crate::host::Outcome;

/// The search time of the first turn (Botzone allows about 2 s, process
/// start and plugin loading included).
const FIRST_TURN_MS: u64 = 1_200;
/// The search time of later turns (Botzone allows about 1 s).
const TURN_MS: u64 = 650;

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
        }
    }

    /// The game of this input, selected in the session the first time.
    fn game(&mut self, ctl: &mut Controller, request: &BotzoneMove) -> Result<BotzoneGame, String> {
        if let Some(game) = self.game {
            if request.game() != Some(game) {
                return Err(format!("a {game:?} request was expected"));
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
            return Err(format!("a {game:?} request was expected"));
        }
        self.game = Some(game);
        Ok(game)
    }

    fn turn(&mut self, ctl: &mut Controller, input: BotzoneInput) -> Result<(), String> {
        let (moves, json, first_turn) = match input {
            BotzoneInput::Full {
                requests,
                responses,
                json,
            } => {
                self.game(ctl, &requests[0])?;
                let mut moves = Vec::new();
                for (i, request) in requests.iter().enumerate() {
                    match request.to_plyd()? {
                        Some(mv) => moves.push(mv),
                        // Only the first player's first request is empty;
                        // later, all -1 is the opponent's pass.
                        None if i > 0 => moves.push("pass".to_string()),
                        None => {}
                    }
                    if let Some(response) = responses.get(i) {
                        moves.push(response.to_plyd()?.unwrap_or_else(|| "pass".to_string()));
                    }
                }
                (moves, json, requests.len() == 1)
            }
            BotzoneInput::Next { request, json } => {
                self.game(ctl, &request)?;
                let mut moves = self.moves.clone();
                let first_turn = moves.is_empty() && request.is_none();
                match request.to_plyd()? {
                    Some(mv) => moves.push(mv),
                    None if !first_turn => moves.push("pass".to_string()),
                    None => {}
                }
                (moves, json, first_turn)
            }
        };
        ctl.session.set_position(&StartPosition::StartPos, &moves)?;
        self.moves = moves;
        self.json = json;
        let over = ctl.session.ask_position(|state| state.outcome())? != Outcome::Ongoing;
        self.searching = true;
        if over {
            self.best(ctl, None, None);
            return Ok(());
        }
        let go = GoParams {
            movetime: Some(if first_turn { FIRST_TURN_MS } else { TURN_MS }),
            ..GoParams::default()
        };
        search(ctl, self, &go, None);
        Ok(())
    }
}

impl Dialect for Botzone {
    /// One line of Botzone input.
    fn line(&mut self, ctl: &mut Controller, line: &str) -> bool {
        ctl.finish_job(self);
        match self.reader.feed(line) {
            Ok(None) => {}
            Ok(Some(input)) => {
                if let Err(e) = self.turn(ctl, input) {
                    self.error(ctl, &e);
                }
            }
            Err(e) => self.error(ctl, &e),
        }
        true
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
        ctl.raw(&answer.answer(json));
        ctl.raw(KEEP_RUNNING);
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
