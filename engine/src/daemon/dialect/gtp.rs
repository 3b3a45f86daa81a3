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

use plyd_arena::community::{othello_discs, othello_margin};
use plyd_protocol::gtp::{parse_color, parse_seconds_ms, parse_stones, COMMANDS, GAME};
use plyd_protocol::{gtp_answer, parse_gtp_line, GoParams, Info, Response, StartPosition};

use super::{search, Dialect};
use crate::daemon::controller::Controller;
use crate::host::Outcome;

/// A search without a clock thinks this long.
const DEFAULT_MOVE_MS: u64 = 1_000;

/// The GTP dialect and what it keeps between commands.
#[derive(Debug, Default, Clone)]
pub(super) struct Gtp {
    /// The moves played since `clear_board`.
    moves: Vec<String>,
    /// The length of `moves` before each `play` and `genmove` that added
    /// to it: `undo` takes back one command's plies, the forced pass that
    /// came before its move included.
    marks: Vec<usize>,
    /// The length of `moves` when the pending `genmove` began.
    pending_mark: usize,
    /// A `genmove` waiting for its search: its id.
    pending: Option<Option<u32>>,
    /// An error met while the pending `genmove` started.
    failure: Option<String>,
    /// `time_settings`: main time and byo-yomi period, milliseconds.
    main_ms: Option<u64>,
    byo_yomi_ms: u64,
    byo_yomi_stones: u32,
    /// Each colour's clock, milliseconds and stones (0: main time): as
    /// `time_left` last gave it, less what plyd's own moves took since;
    /// `None`: as `time_settings` starts it.
    left: [Option<(u64, u32)>; 2],
    /// The colour of the pending `genmove` and when its search began.
    thinking: Option<(u32, std::time::Instant)>,
}

impl Gtp {
    fn answer(ctl: &mut Controller, id: Option<u32>, ok: bool, text: &str) {
        // A refusal quotes the input as every dialect's error lines do:
        // control characters written out, a long quotation cut.
        let text = if ok {
            text.to_string()
        } else {
            super::printable(text)
        };
        ctl.raw(&gtp_answer(id, ok, &text));
        ctl.raw("");
    }

    /// One GTP line; `false` means quit.
    fn command(&mut self, ctl: &mut Controller, line: &str) -> bool {
        let Some(command) = parse_gtp_line(line) else {
            return true;
        };
        if command.name.is_empty() {
            Gtp::answer(ctl, command.id, false, "empty command");
            return true;
        }
        // GTP is answered in order: a command sent before `genmove` has
        // answered waits for it; `quit` stops it first (its move is still
        // answered), as the end of the input does.
        if command.name == "quit" {
            ctl.shut_down(self);
        }
        ctl.finish_job(self);
        let id = command.id;
        let result = match command.name {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("plyd".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => match command.args.first() {
                Some(c) => Ok(COMMANDS.contains(c).to_string()),
                None => Err("syntax error: known_command needs a command name".to_string()),
            },
            "list_commands" => Ok(COMMANDS.join("\n")),
            // The games GTP serves here, as Quarry and other GUIs of several
            // games ask before they offer an engine for one: Othello only.
            "list_games" => Ok(GAME.to_string()),
            "set_game" => match command.args.join(" ") {
                name if name.eq_ignore_ascii_case(GAME) => Ok(String::new()),
                name if name.is_empty() => Err(format!(
                    "syntax error: set_game needs a game (list_games: {GAME})"
                )),
                _ => Err(format!("unsupported game (list_games: {GAME})")),
            },
            "quit" => {
                Gtp::answer(ctl, id, true, "");
                return false;
            }
            "boardsize" => match command.args.first().map(|s| s.parse::<u32>()) {
                Some(Ok(8)) => Ok(String::new()),
                Some(Ok(_)) => Err("unacceptable size".to_string()),
                _ => Err("boardsize needs an integer".to_string()),
            },
            // A new game, as `ucinewgame` starts one (the evaluator told,
            // the table emptied); the clocks start again from
            // `time_settings`. The board is cleared whatever the evaluator
            // answers.
            "clear_board" => {
                let fresh = ctl.new_game(self).map_err(|e| e.to_string());
                // GTP has no `isready`: the table is emptied here, before
                // the answer and any clock (it was kept for the game's
                // first search on the clock, as after a `ucinewgame` with
                // no `isready`).
                ctl.settle_table(false);
                self.left = [None, None];
                self.marks.clear();
                self.replay(ctl, Vec::new())
                    .and(fresh)
                    .map(|()| String::new())
            }
            // Othello has no komi; the value is read and forgotten.
            "komi" => match command.args.first().map(|s| s.parse::<f64>()) {
                Some(Ok(_)) => Ok(String::new()),
                _ => Err("komi needs a number".to_string()),
            },
            "play" => self.play(ctl, &command.args).map(|()| String::new()),
            "genmove" => match self.genmove(ctl, id, &command.args) {
                // The answer comes when the search ends.
                Ok(()) => return true,
                Err(e) => Err(e),
            },
            "undo" => match self.marks.last() {
                None => Err("cannot undo".to_string()),
                Some(&mark) => {
                    let moves = self.moves[..mark.min(self.moves.len())].to_vec();
                    self.replay(ctl, moves).map(|()| {
                        self.marks.pop();
                        String::new()
                    })
                }
            },
            "time_settings" => self.time_settings(&command.args).inspect(|_| {
                // A clock set anew: what the last one lost says nothing.
                ctl.clock_lag_forgotten();
            }),
            "time_left" => self.time_left(&command.args),
            // The board, and at the end the verdict `d` gives.
            "showboard" => {
                ctl.session.show_position().map(|(board, _, _, verdict)| {
                    // A forced pass in GTP's word, not UCI's `0000`.
                    let board = board.trim_end().replace("0000 (a pass)", "pass");
                    match verdict {
                        Some(verdict) => format!("\n{board}\nResult: {verdict}"),
                        None => format!("\n{board}"),
                    }
                })
            }
            "final_score" => Gtp::final_score(ctl),
            other => Err(format!(
                "unknown command '{other}' ({})",
                match other.to_ascii_lowercase() {
                    lower if lower != other && COMMANDS.contains(&lower.as_str()) => {
                        format!("commands are lower case: {lower}")
                    }
                    _ => "list_commands lists the commands".to_string(),
                }
            )),
        };
        match result {
            Ok(text) => Gtp::answer(ctl, id, true, &text),
            Err(e) => Gtp::answer(ctl, id, false, &e),
        }
        true
    }

    /// Set the position to the start plus `moves`, or change nothing.
    fn replay(&mut self, ctl: &mut Controller, moves: Vec<String>) -> Result<(), String> {
        ctl.session.set_position(&StartPosition::StartPos, &moves)?;
        self.moves = moves;
        Ok(())
    }

    /// Whether the side to move has no move but a pass: its one move.
    fn forced_pass(ctl: &Controller) -> Result<Option<String>, String> {
        ctl.session.ask_position(|state| {
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
    fn moves_for_turn(ctl: &Controller, color: u32) -> Result<Vec<String>, String> {
        let side = ctl.session.ask_position(|state| state.side_to_move())?;
        if side == color {
            return Ok(Vec::new());
        }
        match Gtp::forced_pass(ctl)? {
            Some(pass) => Ok(vec![pass]),
            None => Err(format!(
                "it is not {}'s turn",
                if color == 0 { "black" } else { "white" }
            )),
        }
    }

    fn play(&mut self, ctl: &mut Controller, args: &[&str]) -> Result<(), String> {
        let (Some(color), Some(vertex)) = (args.first(), args.get(1)) else {
            return Err("syntax error: play needs a colour and a move".to_string());
        };
        let color = parse_color(color).ok_or_else(|| format!("syntax error: colour '{color}'"))?;
        let mut moves = self.moves.clone();
        let is_pass = vertex.eq_ignore_ascii_case("pass");
        let (side, outcome) = ctl
            .session
            .ask_position(|state| Ok((state.side_to_move()?, state.outcome()?)))?;
        // A pass by the side not on move is a no-op that GTP controllers
        // send after the other side's forced pass was already played; so is
        // one after the game's end, where GTP has a pass always legal and
        // a referee relays the `pass` a `genmove` answered.
        // Each is a move for `undo` to take back, of no plies.
        if is_pass && (side != color || outcome != Outcome::Ongoing) {
            self.marks.push(moves.len());
            return Ok(());
        }
        let mark = moves.len();
        moves.extend(Gtp::moves_for_turn(ctl, color).map_err(|e| format!("illegal move: {e}"))?);
        moves.push(vertex.to_ascii_lowercase());
        self.replay(ctl, moves)
            .map_err(|e| format!("illegal move: {e}"))?;
        self.marks.push(mark);
        Ok(())
    }

    fn genmove(
        &mut self,
        ctl: &mut Controller,
        id: Option<u32>,
        args: &[&str],
    ) -> Result<(), String> {
        let color = args
            .first()
            .and_then(|c| parse_color(c))
            .ok_or("syntax error: genmove needs a colour")?;
        let outcome = ctl.session.ask_position(|state| state.outcome())?;
        if outcome != Outcome::Ongoing {
            // A move of no plies, for `undo`, as a relayed pass is.
            self.marks.push(self.moves.len());
            Gtp::answer(ctl, id, true, "pass");
            return Ok(());
        }
        let before = Gtp::moves_for_turn(ctl, color)?;
        self.pending_mark = self.moves.len();
        if !before.is_empty() {
            let mut moves = self.moves.clone();
            moves.extend(before);
            self.replay(ctl, moves)?;
        }
        let go = self.go_params(color);
        // The move's clock runs from when its line was read (a queued
        // `genmove` waited on it), as the GUI's does.
        self.thinking = Some((color, ctl.clock_start()));
        self.pending = Some(id);
        self.failure = None;
        search(ctl, self, &go, None);
        Ok(())
    }

    /// `color`'s clock now: milliseconds, and stones left in a byo-yomi
    /// period (0: main time); `None` without a clock.
    fn clock_of(&self, color: u32) -> Option<(u64, u32)> {
        self.left[color as usize].or_else(|| {
            self.main_ms
                .filter(|&m| m > 0)
                .map(|m| (m, 0))
                .or_else(|| self.byo_yomi())
        })
    }

    /// The byo-yomi that follows main time: a period's milliseconds and
    /// stones, where there is one.
    fn byo_yomi(&self) -> Option<(u64, u32)> {
        (self.byo_yomi_stones > 0).then_some((self.byo_yomi_ms, self.byo_yomi_stones))
    }

    /// Charge `color` the `ms` its move took, as a clock would: a GUI that
    /// sends no `time_left` (GTP does not require it) still has plyd keep
    /// to what is left, not to the whole main time at every move. A move
    /// that runs past the main time enters byo-yomi, as Canadian byo-yomi
    /// has it: its overrun comes off the first period, and it is that
    /// period's first stone; a period whose stones are played starts again.
    fn charge(&mut self, color: u32, ms: u64) {
        let Some((left, stones)) = self.clock_of(color) else {
            return;
        };
        let byo_yomi = self.byo_yomi();
        let (left, stones) = match (stones, byo_yomi) {
            (0, Some((period, period_stones))) if ms > left => {
                (period.saturating_sub(ms - left), period_stones)
            }
            (0, _) => (left.saturating_sub(ms), 0),
            _ => (left.saturating_sub(ms), stones),
        };
        // `stones` counted the move just played: one fewer left.
        self.left[color as usize] = Some(match (stones, byo_yomi) {
            (0, _) => (left, 0),
            (1, Some(fresh)) => fresh,
            (1, None) => (left, 0),
            (more, _) => (left, more - 1),
        });
    }

    /// The most moves main time is planned over when byo-yomi follows: a
    /// main time that would last longer at the byo-yomi's pace is planned
    /// as a clock of its own, as in sudden death.
    const MAIN_MOVES_BEFORE_BYO_YOMI: u64 = 30;

    /// `color`'s clock as the search plans it: milliseconds, and the moves
    /// they are for where that is known.
    fn planned_clock(&self, color: u32) -> Option<(u64, Option<u32>)> {
        let (ms, stones) = self.clock_of(color)?;
        Some(match (stones, self.byo_yomi()) {
            // Byo-yomi: `ms` for `stones` moves.
            (1.., _) => (ms, Some(stones)),
            // Main time with byo-yomi to come, short enough to be spent at
            // the byo-yomi's pace within a few dozen moves: planned with
            // the first period, over the moves main time lasts at that
            // pace and the period's stones (2 s main and 3 s for 5 stones
            // had used 1.9 s in a game and no byo-yomi at all).
            (0, Some((period, period_stones))) => {
                let pace = (period / u64::from(period_stones)).max(1);
                let main_moves = ms.div_ceil(pace);
                if main_moves <= Self::MAIN_MOVES_BEFORE_BYO_YOMI {
                    let moves = u32::try_from(main_moves).unwrap_or(u32::MAX);
                    (
                        ms.saturating_add(period),
                        Some(moves.saturating_add(period_stones)),
                    )
                } else {
                    (ms, None)
                }
            }
            (0, None) => (ms, None),
        })
    }

    fn go_params(&self, color: u32) -> GoParams {
        match self.planned_clock(color) {
            Some((ms, stones)) => {
                let ms = i64::try_from(ms).unwrap_or(i64::MAX);
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

    fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        let parsed = match args {
            &[main, byo, stones] => parse_seconds_ms(main)
                .zip(parse_seconds_ms(byo))
                .zip(parse_stones(stones)),
            _ => None,
        };
        let Some(((main, byo), stones)) = parsed else {
            return Err(
                "syntax error: time_settings main_time byo_yomi_time stones (times in seconds, at least 0)"
                    .into(),
            );
        };
        self.left = [None, None];
        if byo > 0 && stones == 0 {
            // GTP's way of saying no time limits (byo-yomi time with no
            // stones): each `genmove` gets the default second, as with no
            // `time_settings` (it was played as sudden death of the main
            // time).
            self.main_ms = None;
            self.byo_yomi_ms = 0;
            self.byo_yomi_stones = 0;
            return Ok(String::new());
        }
        self.main_ms = Some(main);
        self.byo_yomi_ms = byo;
        self.byo_yomi_stones = stones;
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[&str]) -> Result<String, String> {
        let parsed = match args {
            &[color, time, stones] => parse_color(color)
                .zip(parse_seconds_ms(time))
                .zip(parse_stones(stones)),
            _ => None,
        };
        let Some(((color, time), stones)) = parsed else {
            return Err(
                "syntax error: time_left colour time stones (time in seconds, at least 0)".into(),
            );
        };
        self.left[color as usize] = Some((time, stones));
        Ok(String::new())
    }

    /// Disc count: `B+n`, `W+n` or `0`; at the end of the game the empty
    /// squares go to the winner, as in plyd's Othello scoring.
    fn final_score(ctl: &Controller) -> Result<String, String> {
        let (text, outcome) = ctl
            .session
            .watched_position("counting the discs", |state| {
                Ok((state.position_text()?, state.outcome()?))
            })?;
        let (black, white) = othello_discs(&text)
            .ok_or_else(|| format!("'{text}' is not an Othello board to count"))?;
        // Before the end the empty squares are nobody's.
        let margin = if outcome != Outcome::Ongoing {
            othello_margin(&text).unwrap_or(black - white)
        } else {
            black - white
        };
        Ok(match margin.signum() {
            1 => format!("B+{margin}"),
            -1 => format!("W+{}", -margin),
            _ => "0".to_string(),
        })
    }

    /// Whether `mv` is the pass move.
    fn is_pass(ctl: &Controller, mv: &str) -> bool {
        let read = ctl
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
}

impl Dialect for Gtp {
    fn line(&mut self, ctl: &mut Controller, line: &str) -> bool {
        self.command(ctl, line)
    }

    /// GTP has no room for progress: it goes to the log.
    fn info(&mut self, _ctl: &mut Controller, info: Info) {
        log::info!("{}", Response::Info(info));
    }

    /// A `genmove`'s search ended: play its move and answer.
    fn best(&mut self, ctl: &mut Controller, best: Option<String>, _ponder: Option<String>) {
        let Some(id) = self.pending.take() else {
            return;
        };
        if let Some((color, started)) = self.thinking.take() {
            // Whole milliseconds, rounded up: rounded down, each move lost
            // half of one on average, and a 1 s game of thirty moves ran up
            // to 19 ms past its clock.
            let took = started.elapsed().as_micros().div_ceil(1000);
            self.charge(color, u64::try_from(took).unwrap_or(u64::MAX));
        }
        let failure = self.failure.take();
        let mark = self.pending_mark;
        match (best, failure) {
            (Some(mv), _) => {
                let mut moves = self.moves.clone();
                moves.push(mv.clone());
                match self.replay(ctl, moves) {
                    Ok(()) => {
                        let shown = if Gtp::is_pass(ctl, &mv) {
                            "pass".to_string()
                        } else {
                            mv
                        };
                        Gtp::answer(ctl, id, true, &shown);
                    }
                    Err(e) => Gtp::answer(ctl, id, false, &e),
                }
            }
            (None, Some(e)) => Gtp::answer(ctl, id, false, &e),
            (None, None) => Gtp::answer(ctl, id, true, "pass"),
        }
        // Whatever the command added (its move, the forced pass before
        // it included) is one `undo`'s.
        if self.moves.len() > mark {
            self.marks.push(mark);
        }
    }

    /// A line too long to read was a command, which GTP answers: `?`
    /// with no id (it was not read), as a controller waiting for the
    /// answer must have one; in the log too. (During a `genmove`, whose
    /// answer must come first, the log alone.)
    fn skipped_line(&mut self, ctl: &mut Controller, text: &str) {
        log::warn!("{text}");
        if self.pending.is_none() {
            Gtp::answer(ctl, None, false, text);
        }
    }

    /// Notes go to the log.
    fn write_note(&mut self, _ctl: &mut Controller, text: &str) {
        log::info!("{text}");
    }

    /// An error outside a command's own answer: kept for the pending
    /// `genmove`, logged otherwise.
    fn write_error(&mut self, _ctl: &mut Controller, text: &str) {
        if self.pending.is_some() {
            self.failure = Some(text.to_string());
        } else {
            log::warn!("{text}");
        }
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_read_whole_and_past_the_range_of_milliseconds() {
        let mut gtp = Gtp::default();
        // Each word is read: one that is not a number refuses the command.
        assert!(gtp.time_settings(&["10", "x", "0", "5"]).is_err());
        assert!(gtp.time_settings(&["10", "0"]).is_err());
        assert!(gtp.time_settings(&["-1", "0", "0"]).is_err());
        assert!(gtp.time_left(&["b", "1.5", "0", "extra"]).is_err());
        // Byo-yomi time with no stones: no time limits, the default second.
        gtp.time_settings(&["2", "5", "0"]).unwrap();
        assert_eq!(gtp.go_params(0).movetime, Some(DEFAULT_MOVE_MS));
        assert_eq!(gtp.go_params(0).wtime, None);
        gtp.time_settings(&["1.5", "0", "0"]).unwrap();
        assert_eq!(gtp.go_params(0).wtime, Some(1_500));
        // A clock too large for milliseconds is the largest clock, never a
        // negative one (which had the search answer at once).
        gtp.time_settings(&["99999999999999999999", "0", "0"])
            .unwrap();
        assert_eq!(gtp.go_params(0).wtime, Some(i64::MAX));
        gtp.time_left(&["w", "99999999999999999999", "99999999999"])
            .unwrap();
        let go = gtp.go_params(1);
        assert_eq!(go.btime, Some(i64::MAX));
        assert_eq!(go.moves_to_go, Some(u32::MAX));
    }

    #[test]
    fn plyd_s_own_moves_are_charged_to_its_clock() {
        // No `time_left` ever comes: each move's time is taken off what
        // `time_settings` gave, not the whole main time searched again.
        let mut gtp = Gtp::default();
        gtp.time_settings(&["5", "0", "0"]).unwrap();
        gtp.charge(0, 1_200);
        gtp.charge(0, 1_300);
        assert_eq!(gtp.go_params(0).wtime, Some(2_500));
        assert_eq!(gtp.go_params(1).btime, Some(5_000));
        gtp.charge(0, 9_000);
        assert_eq!(gtp.go_params(0).wtime, Some(0));
        // Canadian byo-yomi, 1 s main and 3 s for 2 stones: main time is
        // planned with the first period (1 s at 1.5 s a move is one move,
        // then the period's two stones).
        gtp.time_settings(&["1", "3", "2"]).unwrap();
        let go = gtp.go_params(1);
        assert_eq!((go.btime, go.moves_to_go), (Some(4_000), Some(3)));
        // A move past the main time: its overrun comes off the first
        // period, of which it is the first stone.
        gtp.charge(1, 1_500);
        let go = gtp.go_params(1);
        assert_eq!((go.btime, go.moves_to_go), (Some(2_500), Some(1)));
        // The period's stones played, a fresh period.
        gtp.charge(1, 1_000);
        let go = gtp.go_params(1);
        assert_eq!((go.btime, go.moves_to_go), (Some(3_000), Some(2)));
        gtp.charge(1, 1_000);
        let go = gtp.go_params(1);
        assert_eq!((go.btime, go.moves_to_go), (Some(2_000), Some(1)));
        // A main time that lasts longer than 30 moves at the period's
        // pace is planned as sudden death, as without byo-yomi.
        gtp.time_settings(&["600", "30", "5"]).unwrap();
        let go = gtp.go_params(0);
        assert_eq!((go.wtime, go.moves_to_go), (Some(600_000), None));
        // `time_left` says where the clock stands, and charging goes on
        // from there.
        gtp.time_settings(&["5", "0", "0"]).unwrap();
        gtp.time_left(&["b", "4", "0"]).unwrap();
        gtp.charge(0, 500);
        assert_eq!(gtp.go_params(0).wtime, Some(3_500));
    }
}
