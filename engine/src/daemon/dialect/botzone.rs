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

use std::io::Write;

use plyd_protocol::{
    BotzoneGame, BotzoneInput, BotzoneMove, GoParams, StartPosition, KEEP_RUNNING,
};

use crate::daemon::Daemon;
use crate::host::Outcome;

/// The search time of the first turn (Botzone allows about 2 s, process
/// start and plugin loading included).
const FIRST_TURN_MS: u64 = 1_200;
/// The search time of later turns (Botzone allows about 1 s).
const TURN_MS: u64 = 650;

/// What Botzone keeps between turns.
#[derive(Debug, Default, Clone)]
pub(super) struct BotzoneState {
    reader: plyd_protocol::BotzoneReader,
    game: Option<BotzoneGame>,
    /// The game so far, in plyd's moves.
    moves: Vec<String>,
    /// Answer in JSON.
    json: bool,
    /// A search is running for an answer.
    searching: bool,
}

impl<W: Write> Daemon<W> {
    /// One line of Botzone input.
    pub(super) fn botzone_line(&mut self, line: &str) -> bool {
        self.finish_job();
        match self.dialects.botzone.reader.feed(line) {
            Ok(None) => {}
            Ok(Some(input)) => {
                if let Err(e) = self.botzone_turn(input) {
                    self.error(&e);
                }
            }
            Err(e) => self.error(&e),
        }
        true
    }

    /// The game of this input, selected in the session the first time.
    fn botzone_game(&mut self, request: &BotzoneMove) -> Result<BotzoneGame, String> {
        if let Some(game) = self.dialects.botzone.game {
            if request.game() != Some(game) {
                return Err(format!("a {game:?} request was expected"));
            }
            return Ok(game);
        }
        let game = if self.dialects.game_given {
            let name = self.session.current()?.variant.name().to_string();
            BotzoneGame::of_variant(&name)
                .ok_or_else(|| format!("Botzone does not play {name} (amazons8 or othello)"))?
        } else {
            let game = request
                .game()
                .ok_or("a request has 6 numbers (Amazons) or 2 (Reversi)")?;
            self.session.select_variant(game.variant())?;
            game
        };
        if request.game() != Some(game) {
            return Err(format!("a {game:?} request was expected"));
        }
        self.dialects.botzone.game = Some(game);
        Ok(game)
    }

    fn botzone_turn(&mut self, input: BotzoneInput) -> Result<(), String> {
        let (moves, json, first_turn) = match input {
            BotzoneInput::Full {
                requests,
                responses,
                json,
            } => {
                self.botzone_game(&requests[0])?;
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
                self.botzone_game(&request)?;
                let mut moves = self.dialects.botzone.moves.clone();
                let first_turn = moves.is_empty() && request.is_none();
                match request.to_plyd()? {
                    Some(mv) => moves.push(mv),
                    None if !first_turn => moves.push("pass".to_string()),
                    None => {}
                }
                (moves, json, first_turn)
            }
        };
        self.session
            .set_position(&StartPosition::StartPos, &moves)?;
        self.dialects.botzone.moves = moves;
        self.dialects.botzone.json = json;
        let over = self.session.ask_position(|state| state.outcome())? != Outcome::Ongoing;
        self.dialects.botzone.searching = true;
        if over {
            self.botzone_best(None);
            return Ok(());
        }
        let go = GoParams {
            movetime: Some(if first_turn { FIRST_TURN_MS } else { TURN_MS }),
            ..GoParams::default()
        };
        self.go(&go);
        Ok(())
    }

    /// A search ended: answer with its move and ask to keep running.
    pub(super) fn botzone_best(&mut self, best: Option<String>) {
        if !std::mem::take(&mut self.dialects.botzone.searching) {
            return;
        }
        let game = self.dialects.botzone.game.unwrap_or(BotzoneGame::Reversi);
        let answer = match &best {
            Some(mv) => BotzoneMove::from_plyd(game, mv).unwrap_or_else(|e| {
                log::error!("{e}");
                BotzoneMove::from_plyd(game, "pass").unwrap_or(BotzoneMove(Vec::new()))
            }),
            None => BotzoneMove::from_plyd(game, "pass").unwrap_or(BotzoneMove(Vec::new())),
        };
        if let Some(mv) = best {
            self.dialects.botzone.moves.push(mv);
            let moves = self.dialects.botzone.moves.clone();
            if let Err(e) = self.session.set_position(&StartPosition::StartPos, &moves) {
                log::error!("{e}");
            }
        }
        let json = self.dialects.botzone.json;
        self.raw(&answer.answer(json));
        self.raw(KEEP_RUNNING);
    }
}
