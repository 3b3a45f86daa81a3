//! UCI, with plyd's extensions (`go perft`, `d`, `eval`, `bench`): the
//! dialect of chess-style GUIs, and the commands UCCI and UGI share with
//! it ([`command`]).

use plyd_protocol::{parse_line, Command, GoParams, Info, ParseError, Response, StartPosition};

use crate::host::Outcome;

use super::{report, search, Dialect};
use crate::daemon::controller::{ControlError, Controller};

/// How long plyd thinks over its reply to a `play`.
const PLAY_REPLY_MS: u64 = 1_000;

/// The longest game a `position` line gives that `play` keeps the moves
/// of (a longer one, a GUI's or a test's, is kept as the position it
/// reaches: its moves would hold memory a capped process needs).
const KEPT_MOVES: usize = 4_096;

/// The UCI dialect. Between lines it keeps only the game that `play`
/// and `undo` go on from (a GUI's `position` lines need nothing kept).
#[derive(Clone, Default)]
pub(super) struct Uci {
    /// The game as the last `position`, `play` or `undo` left it: its
    /// start, its moves, and the position text they reach (a position
    /// set otherwise since, a new variant, is told by that text).
    game: Option<(StartPosition, Vec<String>, String)>,
    /// The moves each `play` added (the person's and plyd's reply), for
    /// `undo`.
    plays: Vec<usize>,
    /// Whether the search running answers a `play`: its move joins the
    /// game.
    replying: bool,
    /// The side the person plays: the mover of the last move a `play`
    /// gave at a player's turn (a roll is no one's); plyd does not reply
    /// where that side is to move again (the person rolled for
    /// themselves). `None` after a bare `play`, which hands plyd the move.
    person: Option<u32>,
}

/// Where a game stands for `play`: the side to move, whether chance
/// moves next (a roll), and the verdict of a finished game with its
/// winner (`None` in a draw) and the rule that ended it.
struct Turn {
    side: u32,
    chance: bool,
    over: Option<String>,
    winner: Option<u32>,
    reason: Option<String>,
}

impl Turn {
    /// A finished game's verdict told to the person playing it: `you
    /// win (checkmate)`, `plyd wins`, `a draw (repetition)`; the plugin's
    /// verdict (`the side to move has lost ...`) where neither side's
    /// player is known.
    fn told(&self, person: Option<u32>, plyd: Option<u32>) -> Option<String> {
        let verdict = self.over.as_ref()?;
        // Two players: knowing one side knows the other.
        let (person, plyd) = (
            person.or(plyd.map(|p| 1 - p.min(1))),
            plyd.or(person.map(|p| 1 - p.min(1))),
        );
        let words = match self.winner {
            Some(w) if Some(w) == person => "you win",
            Some(w) if Some(w) == plyd => "plyd wins",
            None if person.is_some() || plyd.is_some() => "a draw",
            _ => return Some(verdict.clone()),
        };
        Some(match &self.reason {
            Some(reason) => format!("{words} ({reason})"),
            None => words.to_string(),
        })
    }
}

impl Uci {
    /// Carry out a UCI command: the game `play` keeps, then
    /// [`command`]'s.
    fn command(&mut self, ctl: &mut Controller, parsed: Command) -> bool {
        match parsed {
            Command::Position { start, moves } => {
                let result = ctl.set_position(&start, &moves);
                self.plays.clear();
                // Another game: the side the person played in the last
                // one is not known to be theirs in this one.
                self.person = None;
                self.game = match &result {
                    Ok(()) if moves.len() <= KEPT_MOVES => {
                        Uci::reached(ctl).ok().map(|text| (start, moves, text))
                    }
                    _ => None,
                };
                report(ctl, self, result);
                true
            }
            Command::Play(moves) => {
                if let Err(e) = self.play(ctl, moves) {
                    self.error(ctl, &format!("play: {e}"));
                }
                true
            }
            Command::Undo(count) => {
                if let Err(e) = self.undo(ctl, count as usize) {
                    self.error(ctl, &format!("undo: {e}"));
                }
                true
            }
            // The board, with the last move of the game kept where it is
            // the position shown (a person listening to the board hears
            // what was played; a GUI knows).
            Command::Display => {
                let now = Uci::reached(ctl).ok();
                let last = match &self.game {
                    Some((_, moves, reached)) if Some(reached) == now.as_ref() => {
                        moves.last().cloned()
                    }
                    _ => None,
                };
                display(ctl, self, last.as_deref());
                true
            }
            other => command(ctl, self, other),
        }
    }

    /// Why `play` or `undo` waits: plyd's reply being searched, or
    /// another search.
    fn busy(replying: bool) -> String {
        if replying {
            "plyd's reply is being searched: wait for its bestmove (or send stop)".to_string()
        } else {
            "a search is running: send stop first".to_string()
        }
    }

    /// Whether the side to move has no move but a pass.
    fn only_pass(ctl: &Controller) -> Result<bool, String> {
        Ok(ctl.session.spelled_moves()? == [PASS])
    }

    /// The current position's text.
    fn reached(ctl: &Controller) -> Result<String, String> {
        ctl.session.ask_position(|s| s.position_text())
    }

    /// The game `play` goes on from: the one kept where it still is the
    /// current position, else that position with no moves (its history
    /// then unknown).
    fn current_game(&self, ctl: &Controller) -> Result<(StartPosition, Vec<String>), String> {
        let now = Uci::reached(ctl)?;
        Ok(match &self.game {
            Some((start, moves, reached)) if *reached == now => (start.clone(), moves.clone()),
            _ => (StartPosition::Fen(now), Vec::new()),
        })
    }

    /// Set the position to `start` and `moves`, kept as the game; the
    /// position is unchanged where they are refused.
    fn set_game(
        &mut self,
        ctl: &mut Controller,
        start: StartPosition,
        moves: Vec<String>,
    ) -> Result<(), String> {
        ctl.session.set_position(&start, &moves)?;
        self.game = Some((start, moves, Uci::reached(ctl)?));
        Ok(())
    }

    /// `play M1 M2 ...`: the moves played on, then plyd's reply searched
    /// (a `go movetime 1000`), its `bestmove` joining the game. Where the
    /// side to move after them is no player (a roll to come) or the game
    /// is over, the search says so and nothing is added.
    fn play(&mut self, ctl: &mut Controller, played: Vec<String>) -> Result<(), String> {
        if ctl.searching() {
            return Err(Uci::busy(self.replying));
        }
        let (start, base) = self.current_game(ctl)?;
        // Each move on its own, to know who made it; a game that ends
        // part way keeps the moves up to its end (a winning step typed
        // with plyd's roll after it).
        let mut moves = base.clone();
        let mut person = None;
        for (i, mv) in played.iter().enumerate() {
            let before = Uci::turn(ctl)?;
            if let Some(told) = before.told(person.or(self.person), None) {
                self.note(
                    ctl,
                    &format!(
                        "play: game over, {told}: {} not played",
                        played[i..].join(" ")
                    ),
                );
                break;
            }
            // A square typed where the side to move can only pass would
            // be read as a position line reads it, the pass put in before
            // it: the person would move for plyd.
            if Uci::only_pass(ctl)? && !is_pass(mv) {
                if i > 0 {
                    let _ = self.set_game(ctl, start.clone(), base.clone());
                }
                return Err(format!(
                    "'{mv}' is not played: the side to move has no move but a pass here; \
                     play {PASS} to pass"
                ));
            }
            moves.push(mv.clone());
            if let Err(e) = self.set_game(ctl, start.clone(), moves.clone()) {
                // One move typed in two words (`play h2 e2`): said, where
                // the two together are legal here.
                let hint = played
                    .get(i + 1)
                    .map(|next| format!("{mv}{next}"))
                    .filter(|joined| {
                        let before = &moves[..moves.len() - 1];
                        ctl.session
                            .ask_line(&start, before, |state| {
                                Ok(state.parse_legal_move(joined).is_ok())
                            })
                            .unwrap_or(false)
                    })
                    .map_or(String::new(), |joined| {
                        // The whole play again, the two words joined:
                        // nothing of it was played.
                        let again: Vec<&str> = played[..i]
                            .iter()
                            .map(String::as_str)
                            .chain([joined.as_str()])
                            .chain(played[i + 2..].iter().map(String::as_str))
                            .collect();
                        format!(" (one move typed as two words? play {})", again.join(" "))
                    });
                // Back to where the play began.
                let _ = self.set_game(ctl, start, base);
                return Err(format!("{e}{hint}"));
            }
            if !before.chance {
                person = Some(before.side);
            }
        }
        self.plays.push(moves.len() - base.len());
        if played.is_empty() {
            self.person = None;
        } else if person.is_some() {
            self.person = person;
        }
        let now = Uci::turn(ctl)?;
        if let Some(told) = now.told(self.person, None) {
            self.note(ctl, &format!("game over: {told}"));
            return Ok(());
        }
        if now.chance {
            let outcomes = ctl.session.spelled_moves()?;
            self.note(
                ctl,
                &format!(
                    "a chance move comes next: play one of {}",
                    outcomes.join(" ")
                ),
            );
            return Ok(());
        }
        if !played.is_empty() && self.person == Some(now.side) {
            self.note(ctl, "your move");
            return Ok(());
        }
        self.replying = true;
        let go = GoParams {
            movetime: Some(PLAY_REPLY_MS),
            ..GoParams::default()
        };
        search(ctl, self, &go, None);
        Ok(())
    }

    /// Where the current position stands.
    fn turn(ctl: &Controller) -> Result<Turn, String> {
        ctl.session.ask_position(|s| {
            let side = s.side_to_move()?;
            let judged = crate::search::judgement(s)?;
            let winner = judged.as_ref().and_then(|(outcome, _)| match outcome {
                Outcome::Win => Some(side),
                Outcome::Loss => Some(1 - side.min(1)),
                Outcome::Draw | Outcome::Ongoing => None,
            });
            let over = judged
                .as_ref()
                .map(|(outcome, reason)| crate::search::verdict_text(*outcome, reason.as_deref()));
            Ok(Turn {
                side,
                chance: crate::book::is_chance_node(s)?,
                over,
                winner,
                reason: judged.and_then(|(_, reason)| reason),
            })
        })
    }

    /// `undo N`: the last `N` plays taken back, plyd's replies with them.
    fn undo(&mut self, ctl: &mut Controller, count: usize) -> Result<(), String> {
        if ctl.searching() {
            return Err(Uci::busy(self.replying));
        }
        if self.plays.is_empty() {
            return Err(
                "no play to take back since the last position line (undo takes back play's \
                 moves)"
                    .to_string(),
            );
        }
        // More than were made: back to where the plays began, said.
        let all = count > self.plays.len();
        let count = count.min(self.plays.len());
        let (start, mut moves) = self.current_game(ctl)?;
        let back: usize = self.plays[self.plays.len() - count..].iter().sum();
        if back > moves.len() {
            return Err("the position was set since the plays".to_string());
        }
        moves.truncate(moves.len() - back);
        self.set_game(ctl, start, moves)?;
        self.plays.truncate(self.plays.len() - count);
        let plays = if all {
            format!(
                " (every play since the last position line: {})",
                crate::counted(count, "play", "plays")
            )
        } else {
            String::new()
        };
        self.note(
            ctl,
            &format!(
                "undo: {} taken back{plays}",
                crate::counted(back, "move", "moves")
            ),
        );
        Ok(())
    }
}

/// `id name` and `id author`, as UCI and UGI say them.
pub(super) fn identify(ctl: &mut Controller) {
    ctl.send(&Response::IdName(format!(
        "plyd {}",
        env!("CARGO_PKG_VERSION")
    )));
    ctl.send(&Response::IdAuthor("the plyd developers".to_string()));
    for decl in ctl.option_decls() {
        ctl.send(&Response::Option(decl));
    }
}

/// The pass's spelling, UCI's null move.
const PASS: &str = "0000";

/// Whether `text` is a pass as a person types it.
fn is_pass(text: &str) -> bool {
    [PASS, "pass", "pa", "@@"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(text))
}

/// `help`'s notes: the commands, for a person at a terminal.
pub(super) const HELP: [&str; 7] = [
    "commands (lower case): uci, isready, ucinewgame, setoption name NAME value VALUE, \
     position startpos|fen TEXT [moves M1 M2 ...], go, stop, ponderhit, quit",
    "go takes depth N, nodes N, movetime MS, wtime/btime/winc/binc MS, movestogo N, \
     mate N, searchmoves M..., ponder, infinite; a go with none of them runs until stop",
    "plyd's own: d (the board, its position text and legal moves), eval (the evaluation \
     term by term), book (the opening book's moves here), go perft N (move counts), bench \
     [GAME] [DEPTH]",
    "playing by hand: play M (your move; plyd replies after a second and both join the \
     game; a bare play: plyd moves now), undo [N] (the last N plays taken back), d (the \
     board)",
    "uci lists the options; setoption name UCI_Variant value GAME changes the game",
    "a weaker game: setoption name Skill Level value 5 (0 to 20, 20 the full strength; \
     play's replies too); a faster one: go depth 2, go nodes 5000 or go movetime 500",
    "playing by hand, the options and the games: README.md and docs/ (docs/options.md)",
];

/// `d`: the board and the position's lines, with `Last move: X` before
/// the `Fen:` line where `last` gives it.
fn display(ctl: &mut Controller, voice: &mut dyn Dialect, last: Option<&str>) {
    match ctl.display() {
        Ok(mut lines) => {
            if let (Some(last), Some(at)) =
                (last, lines.iter().position(|l| l.starts_with("Fen: ")))
            {
                lines.insert(at, format!("Last move: {last}"));
            }
            for line in lines {
                ctl.raw(&line);
            }
        }
        Err(e) => voice.error(ctl, &e.to_string()),
    }
}

/// Report a line that could not be read. Every go gets exactly one
/// bestmove, even one that could not be read (a running search gives its
/// own).
pub(super) fn unreadable(ctl: &mut Controller, voice: &mut dyn Dialect, e: &ParseError) {
    voice.error(ctl, &e.to_string());
    if e.refused_a_position() {
        ctl.session.refuse_position(e.to_string());
    }
    if e.refused_a_search() && !ctl.searching() {
        voice.best(ctl, None, None);
    }
    if e.refused_a_perft() && !ctl.searching() {
        ctl.raw("Nodes searched: 0");
    }
}

/// Carry out a UCI command for `voice`, which reports in its own words;
/// `false` means quit.
pub(super) fn command(ctl: &mut Controller, voice: &mut dyn Dialect, command: Command) -> bool {
    match command {
        Command::Uci => {
            identify(ctl);
            ctl.send(&Response::UciOk);
        }
        Command::Debug(on) => ctl.debug = on,
        Command::IsReady => ctl.ready(voice),
        Command::SetOption { name, value } => {
            let result = ctl.set_option(voice, &name, value.as_deref());
            report(ctl, voice, result);
        }
        Command::Register(_) => {}
        Command::UciNewGame => {
            let result = ctl.new_game(voice);
            report(ctl, voice, result);
        }
        Command::Position { start, moves } => {
            let result = ctl.set_position(&start, &moves);
            report(ctl, voice, result);
        }
        Command::Go(go) => search(ctl, voice, &go, None),
        Command::Perft { depth } => {
            let result = ctl.perft(voice, depth);
            report_count(ctl, voice, result);
        }
        Command::Stop => ctl.stop_job(),
        Command::PonderHit => ctl.ponderhit(),
        Command::Quit => return false,
        Command::Display => display(ctl, voice, None),
        Command::Book => match ctl.book_report() {
            Ok(line) => voice.note(ctl, &line),
            Err(e) => voice.error(ctl, &e.to_string()),
        },
        Command::Eval => {
            let mut evaluated = ctl.eval();
            if let Err(e) = &evaluated {
                voice.error(ctl, &e.to_string());
                // An evaluator plugin the call disabled gives way (said):
                // the evaluation asked for is the one now in use.
                if ctl.replace_failed_evaluator(voice) {
                    evaluated = ctl.eval();
                    if let Err(e) = &evaluated {
                        voice.error(ctl, &e.to_string());
                    }
                }
            }
            // As the dialect writes its notes (UCCI: `info message`).
            for line in evaluated.unwrap_or_default() {
                voice.note(ctl, &format!("eval {line}"));
            }
        }
        Command::Help => {
            for line in voice.help() {
                voice.note(ctl, line);
            }
        }
        // The game they go on from is UCI's (another dialect's lines that
        // fall through to UCI's reach here).
        Command::Play(_) | Command::Undo(_) => voice.error(
            ctl,
            "play and undo are plyd's UCI commands (plyd --protocol uci); here, send the \
             whole game in position",
        ),
        Command::Bench {
            game,
            depth,
            skipped,
        } => {
            if !skipped.is_empty() {
                voice.error(
                    ctl,
                    &format!(
                        "bench: {} skipped: bench takes one game and one depth",
                        super::quoted_words(&skipped)
                    ),
                );
            }
            let result = ctl.bench(voice, game.as_deref(), depth);
            report_count(ctl, voice, result);
        }
    }
    true
}

/// Report a perft's or a bench's start: one that cannot start ends, as
/// every perft and bench does, with its count (none, after the error
/// line: a tool waiting for the line would wait for ever), one refused
/// for a search that runs included (that search ends with a `bestmove`,
/// no count; a perft or bench running is waited for, not refused).
fn report_count(ctl: &mut Controller, voice: &mut dyn Dialect, result: Result<(), ControlError>) {
    let counted_none = result.is_err();
    report(ctl, voice, result);
    if counted_none {
        ctl.raw("Nodes searched: 0");
    }
}

impl Dialect for Uci {
    fn line(&mut self, ctl: &mut Controller, text: &str) -> bool {
        match parse_line(text) {
            Ok(Some(parsed)) => self.command(ctl, parsed),
            Ok(None) => true,
            Err(e) => {
                unreadable(ctl, self, &e);
                true
            }
        }
    }

    fn info(&mut self, ctl: &mut Controller, info: Info) {
        ctl.send(&Response::Info(info));
    }

    fn best(&mut self, ctl: &mut Controller, best: Option<String>, ponder: Option<String>) {
        // A reply to `play` joins the game, and the play's count.
        let reply = std::mem::take(&mut self.replying)
            .then(|| best.clone())
            .flatten();
        ctl.send(&Response::BestMove { best, ponder });
        if let Some(reply) = reply {
            let passed = reply == PASS;
            // plyd's side: the one to move before its reply.
            let plyd = ctl.session.ask_position(|s| s.side_to_move()).ok();
            let joined = self.current_game(ctl).and_then(|(start, mut moves)| {
                // A xiangqi reply in Chinese notation too, as a person at
                // the board reads moves (ranks 0-9, the default).
                let chinese = (ctl.session.variant_name().as_deref() == Some("xiangqi"))
                    .then(|| Uci::reached(ctl).ok())
                    .flatten()
                    .and_then(|fen| plyd_protocol::xiangqi_chinese(Some(&fen), &[], &reply));
                moves.push(reply);
                self.set_game(ctl, start, moves)?;
                Ok(chinese)
            });
            match joined {
                Ok(chinese) => {
                    if let Some(last) = self.plays.last_mut() {
                        *last += 1;
                    }
                    if let Some(chinese) = chinese {
                        self.note(ctl, &format!("plyd plays {chinese}"));
                    }
                    if passed {
                        self.note(ctl, "plyd passes: it has no move");
                    }
                    match Uci::turn(ctl) {
                        Ok(turn) if turn.over.is_some() => {
                            let told = turn.told(self.person, plyd).unwrap_or_default();
                            self.note(ctl, &format!("game over: {told}"));
                        }
                        Ok(Turn { chance: true, .. }) => {
                            self.note(ctl, "a chance move comes next: play it, then your move")
                        }
                        _ => {
                            if Uci::only_pass(ctl).unwrap_or(false) {
                                self.note(ctl, &format!("you have no move: play {PASS} to pass"));
                            }
                        }
                    }
                }
                Err(e) => self.error(ctl, &format!("play: the reply not played: {e}")),
            }
        }
    }

    fn write_note(&mut self, ctl: &mut Controller, text: &str) {
        ctl.send(&Response::info_string(text.to_string()));
    }

    fn write_error(&mut self, ctl: &mut Controller, text: &str) {
        ctl.send(&Response::info_string(format!("error: {text}")));
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}
