//! GTP version 2 over the controller, for Othello.
//!
//! A GTP command is `[id] name [arguments]`; its answer is `=[id] result`
//! or `?[id] message`, ended by an empty line. The controller waits for
//! each answer before the next command, so `genmove` answers when its
//! search ends. Moves are Othello squares as plyd writes them (`d3`, a1 in
//! the top-left corner; either case is read) and `pass`; colours are
//! `black`/`b` (plyd's side 0, who moves first) and `white`/`w`.
//!
//! The game is kept as its list of moves from the start, so `undo` replays
//! all but the last; a `play` or `genmove` for the colour not on move is
//! accepted when the side on move has nothing but a pass, which is then
//! played first.

use std::io::Write;

use plyd_protocol::{GoParams, StartPosition};

use crate::daemon::Daemon;

/// The commands this GTP answers, as `list_commands` shows them.
const COMMANDS: [&str; 18] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "list_games",
    "set_game",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "time_settings",
    "time_left",
    "showboard",
    "final_score",
];

/// The game GTP plays here, as `list_games` names it.
const GAME: &str = "Othello";

/// A search without a clock thinks this long.
const DEFAULT_MOVE_MS: u64 = 1_000;

/// Whether `line` is a GTP command that UCI does not share.
pub(super) fn is_gtp_start(line: &str) -> bool {
    let mut words = line.split_ascii_whitespace();
    let mut first = words.next();
    if first.is_some_and(|w| w.parse::<u32>().is_ok()) {
        first = words.next();
    }
    first.is_some_and(|w| w != "quit" && COMMANDS.contains(&w))
}

/// What GTP keeps between commands.
#[derive(Debug, Default, Clone)]
pub(super) struct GtpState {
    /// The moves played since `clear_board`.
    moves: Vec<String>,
    /// A `genmove` waiting for its search: its id.
    pending: Option<Option<u32>>,
    /// An error met while the pending `genmove` started.
    failure: Option<String>,
    /// `time_settings`: main time and byo-yomi period, milliseconds.
    main_ms: Option<u64>,
    byo_yomi_ms: u64,
    byo_yomi_stones: u32,
    /// `time_left` per colour: milliseconds and stones.
    left: [Option<(u64, u32)>; 2],
}

/// One parsed GTP command.
struct GtpCommand<'a> {
    id: Option<u32>,
    name: &'a str,
    args: Vec<&'a str>,
}

fn parse_command(line: &str) -> Option<GtpCommand<'_>> {
    // Control characters other than tab and newline are dropped, and a `#`
    // starts a comment, as GTP asks.
    let line = line.split('#').next().unwrap_or("");
    let mut words = line
        .split(|c: char| c.is_ascii_whitespace() || c.is_ascii_control())
        .filter(|w| !w.is_empty());
    let mut first = words.next()?;
    let mut id = None;
    if let Ok(n) = first.parse::<u32>() {
        id = Some(n);
        first = words.next().unwrap_or("");
    }
    Some(GtpCommand {
        id,
        name: first,
        args: words.collect(),
    })
}

fn parse_color(text: &str) -> Option<u32> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(0),
        "w" | "white" => Some(1),
        _ => None,
    }
}

impl<W: Write> Daemon<W> {
    fn gtp_answer(&mut self, id: Option<u32>, ok: bool, text: &str) {
        let mark = if ok { '=' } else { '?' };
        let id = id.map(|n| n.to_string()).unwrap_or_default();
        self.raw(&format!("{mark}{id} {text}"));
        self.raw("");
    }

    /// One GTP line; `false` means quit.
    pub(super) fn gtp_line(&mut self, line: &str) -> bool {
        let Some(command) = parse_command(line) else {
            return true;
        };
        if command.name.is_empty() {
            self.gtp_answer(command.id, false, "empty command");
            return true;
        }
        // GTP is answered in order: a command sent before `genmove` has
        // answered waits for it.
        self.finish_job();
        let id = command.id;
        let result = match command.name {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("plyd".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => Ok(command
                .args
                .first()
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            // The games GTP serves here, as Quarry and other GUIs of several
            // games ask before they offer an engine for one: Othello only.
            "list_games" => Ok(GAME.to_string()),
            "set_game" => match command.args.join(" ") {
                name if name.eq_ignore_ascii_case(GAME) => Ok(String::new()),
                _ => Err("unsupported game".to_string()),
            },
            "quit" => {
                self.gtp_answer(id, true, "");
                return false;
            }
            "boardsize" => match command.args.first().map(|s| s.parse::<u32>()) {
                Some(Ok(8)) => Ok(String::new()),
                Some(Ok(_)) => Err("unacceptable size".to_string()),
                _ => Err("boardsize needs an integer".to_string()),
            },
            "clear_board" => self.gtp_replay(Vec::new()).map(|()| String::new()),
            // Othello has no komi; the value is read and forgotten.
            "komi" => match command.args.first().map(|s| s.parse::<f64>()) {
                Some(Ok(_)) => Ok(String::new()),
                _ => Err("komi needs a number".to_string()),
            },
            "play" => self.gtp_play(&command.args).map(|()| String::new()),
            "genmove" => match self.gtp_genmove(id, &command.args) {
                // The answer comes when the search ends.
                Ok(()) => return true,
                Err(e) => Err(e),
            },
            "undo" => {
                let mut moves = self.dialects.gtp.moves.clone();
                if moves.pop().is_none() {
                    Err("cannot undo".to_string())
                } else {
                    self.gtp_replay(moves).map(|()| String::new())
                }
            }
            "time_settings" => self.gtp_time_settings(&command.args),
            "time_left" => self.gtp_time_left(&command.args),
            "showboard" => self
                .session
                .watched_position("drawing the board", |state| state.board_text())
                .map(|board| format!("\n{}", board.trim_end())),
            "final_score" => self.gtp_final_score(),
            other => Err(format!("unknown command '{other}'")),
        };
        match result {
            Ok(text) => self.gtp_answer(id, true, &text),
            Err(e) => self.gtp_answer(id, false, &e),
        }
        true
    }

    /// Set the position to the start plus `moves`, or change nothing.
    fn gtp_replay(&mut self, moves: Vec<String>) -> Result<(), String> {
        self.session
            .set_position(&StartPosition::StartPos, &moves)?;
        self.dialects.gtp.moves = moves;
        Ok(())
    }

    /// Whether the side to move has no move but a pass: its one move.
    fn forced_pass(&self) -> Result<Option<String>, String> {
        self.session.ask_position(|state| {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves)?;
            if moves.len() != 1 {
                return Ok(None);
            }
            let text = state.format_move(moves[0])?;
            Ok((state.parse_move("pass").ok() == Some(moves[0])).then_some(text))
        })
    }

    /// The moves to play before `color` is on move: a forced pass of the
    /// other side, if that is what stands between.
    fn moves_for_turn(&self, color: u32) -> Result<Vec<String>, String> {
        let side = self.session.ask_position(|state| state.side_to_move())?;
        if side == color {
            return Ok(Vec::new());
        }
        match self.forced_pass()? {
            Some(pass) => Ok(vec![pass]),
            None => Err(format!(
                "it is not {}'s turn",
                if color == 0 { "black" } else { "white" }
            )),
        }
    }

    fn gtp_play(&mut self, args: &[&str]) -> Result<(), String> {
        let (Some(color), Some(vertex)) = (args.first(), args.get(1)) else {
            return Err("syntax error: play needs a colour and a move".to_string());
        };
        let color = parse_color(color).ok_or_else(|| format!("syntax error: colour '{color}'"))?;
        let mut moves = self.dialects.gtp.moves.clone();
        let is_pass = vertex.eq_ignore_ascii_case("pass");
        let side = self.session.ask_position(|state| state.side_to_move())?;
        // A pass by the side not on move is a no-op that GTP controllers
        // send after the other side's forced pass was already played.
        if is_pass && side != color {
            return Ok(());
        }
        moves.extend(
            self.moves_for_turn(color)
                .map_err(|e| format!("illegal move: {e}"))?,
        );
        moves.push(vertex.to_ascii_lowercase());
        self.gtp_replay(moves)
            .map_err(|e| format!("illegal move: {e}"))
    }

    fn gtp_genmove(&mut self, id: Option<u32>, args: &[&str]) -> Result<(), String> {
        let color = args
            .first()
            .and_then(|c| parse_color(c))
            .ok_or("syntax error: genmove needs a colour")?;
        let outcome = self.session.ask_position(|state| state.outcome())?;
        if outcome != crate::host::Outcome::Ongoing {
            self.gtp_answer(id, true, "pass");
            return Ok(());
        }
        let before = self.moves_for_turn(color)?;
        if !before.is_empty() {
            let mut moves = self.dialects.gtp.moves.clone();
            moves.extend(before);
            self.gtp_replay(moves)?;
        }
        let go = self.gtp_go_params(color);
        self.dialects.gtp.pending = Some(id);
        self.dialects.gtp.failure = None;
        self.go(&go);
        Ok(())
    }

    fn gtp_go_params(&self, color: u32) -> GoParams {
        let gtp = &self.dialects.gtp;
        let clock = gtp.left[color as usize].map(|(ms, stones)| {
            if stones > 0 {
                // Byo-yomi: `ms` for `stones` moves.
                (ms, Some(stones))
            } else {
                (ms, None)
            }
        });
        let clock = clock.or_else(|| {
            gtp.main_ms
                .filter(|&m| m > 0)
                .map(|m| (m, None))
                .or((gtp.byo_yomi_stones > 0)
                    .then_some((gtp.byo_yomi_ms, Some(gtp.byo_yomi_stones))))
        });
        match clock {
            Some((ms, stones)) => {
                let ms = ms as i64;
                let mut go = GoParams {
                    moves_to_go: stones,
                    ..GoParams::default()
                };
                if color == 0 {
                    go.wtime = Some(ms);
                } else {
                    go.btime = Some(ms);
                }
                go
            }
            None => GoParams {
                movetime: Some(DEFAULT_MOVE_MS),
                ..GoParams::default()
            },
        }
    }

    fn gtp_time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
        let [main, byo, stones] = numbers[..] else {
            return Err("syntax error: time_settings main_time byo_yomi_time stones".into());
        };
        let gtp = &mut self.dialects.gtp;
        gtp.main_ms = Some(main * 1000);
        gtp.byo_yomi_ms = byo * 1000;
        gtp.byo_yomi_stones = stones as u32;
        gtp.left = [None, None];
        Ok(String::new())
    }

    fn gtp_time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let (Some(color), Some(time), Some(stones)) = (
            args.first().and_then(|c| parse_color(c)),
            args.get(1).and_then(|t| t.parse::<f64>().ok()),
            args.get(2).and_then(|s| s.parse::<u32>().ok()),
        ) else {
            return Err("syntax error: time_left colour time stones".into());
        };
        self.dialects.gtp.left[color as usize] = Some(((time.max(0.0) * 1000.0) as u64, stones));
        Ok(String::new())
    }

    /// Disc count: `B+n`, `W+n` or `0`; at the end of the game the empty
    /// squares go to the winner, as in plyd's Othello scoring.
    fn gtp_final_score(&self) -> Result<String, String> {
        let (text, outcome) = self
            .session
            .watched_position("counting the discs", |state| {
                Ok((state.position_text()?, state.outcome()?))
            })?;
        let over = outcome != crate::host::Outcome::Ongoing;
        let board = text.split_whitespace().next().unwrap_or("");
        let (mut black, mut white, mut empty) = (0i32, 0i32, 0i32);
        for c in board.chars() {
            match c {
                'X' | 'x' | '*' => black += 1,
                'O' | 'o' => white += 1,
                '-' | '.' => empty += 1,
                d if d.is_ascii_digit() => empty += d.to_digit(10).unwrap_or(0) as i32,
                _ => {}
            }
        }
        if !over {
            empty = 0;
        }
        Ok(match black.cmp(&white) {
            std::cmp::Ordering::Greater => format!("B+{}", black - white + empty),
            std::cmp::Ordering::Less => format!("W+{}", white - black + empty),
            std::cmp::Ordering::Equal => "0".to_string(),
        })
    }

    /// A `genmove`'s search ended: play its move and answer.
    pub(super) fn gtp_best(&mut self, best: Option<String>) {
        let Some(id) = self.dialects.gtp.pending.take() else {
            return;
        };
        let failure = self.dialects.gtp.failure.take();
        match (best, failure) {
            (Some(mv), _) => {
                let mut moves = self.dialects.gtp.moves.clone();
                moves.push(mv.clone());
                match self.gtp_replay(moves) {
                    Ok(()) => {
                        let shown = if self.forced_pass_text(&mv) {
                            "pass".to_string()
                        } else {
                            mv
                        };
                        self.gtp_answer(id, true, &shown);
                    }
                    Err(e) => self.gtp_answer(id, false, &e),
                }
            }
            (None, Some(e)) => self.gtp_answer(id, false, &e),
            (None, None) => self.gtp_answer(id, true, "pass"),
        }
    }

    /// Whether `mv` is the pass move.
    fn forced_pass_text(&self, mv: &str) -> bool {
        let read = self
            .session
            .ask_position(|state| Ok((state.parse_move(mv).ok(), state.parse_move("pass").ok())));
        match read {
            Ok((Some(a), Some(b))) => a == b,
            Ok(_) => false,
            Err(e) => {
                log::error!("{e}");
                false
            }
        }
    }

    /// An error outside a command's own answer: kept for the pending
    /// `genmove`, logged otherwise.
    pub(super) fn gtp_error(&mut self, what: &str) {
        if self.dialects.gtp.pending.is_some() {
            self.dialects.gtp.failure = Some(what.to_string());
        } else {
            log::warn!("{what}");
        }
    }
}
