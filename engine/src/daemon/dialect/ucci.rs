//! UCCI 3.0 over the controller: xiangqi GUIs and leagues.
//!
//! plyd's xiangqi move text already is UCCI's (files `a`-`i`, ranks `0`-`9`
//! from Red's side) and its FEN is the one UCCI uses, so moves and positions
//! pass through unchanged (with the `MoveRanks` option left at `0-9`). What
//! UCCI adds is mapped here: `banmoves` becomes the root move list of the
//! next search, the engine's and the opponent's clocks become the side to
//! move's, a draw offer is accepted when the search judges the position
//! no better than level, a search that sees itself mated resigns, and
//! `quit` is answered with `bye`.

use plyd_protocol::{
    format_ucci_info, parse_ucci_line, ucci_score, GoParams, Info, OptionKind, Score, UcciCommand,
    UcciGo,
};

use super::{main_line_score, one_line, report, search, uci, Dialect};
use crate::daemon::controller::{ControlError, Controller};
use crate::host::Outcome;
use crate::options::names;
use crate::search::score::to_protocol;
use crate::search::tt::Bound;

/// UCCI's options that plyd accepts and leaves as they are: they ask for
/// things plyd does not have (books in other formats, endgame tables, a
/// playing style, a pluggable evaluation) or do not need (batch mode,
/// idle time), or switch off what plyd always uses (`usehash`,
/// `pruning`, `knowledge`). UCCI GUIs send them to every engine.
/// (`usebook` is `OwnBook`.)
const IGNORED_OPTIONS: [&str; 16] = [
    "batch",
    "debug",
    "bookfiles",
    "loadbook",
    "useegtb",
    "egtbpaths",
    "evalapi",
    "usehash",
    "pruning",
    "knowledge",
    "idle",
    "selectivity",
    "style",
    "promotion",
    "repetition",
    "drawmoves",
];

/// Where a UCCI search starts (see [`Ucci::root`]).
struct UcciRoot {
    side: u32,
    allowed: Option<Vec<String>>,
    judged: bool,
}

/// The UCCI dialect and what it keeps between lines.
#[derive(Debug, Clone)]
pub(super) struct Ucci {
    /// `usemillisec`: `go` times are in milliseconds, not seconds. On
    /// until the GUI turns it off: the UCCI engines GUIs are set up for
    /// (ElephantEye, Fairy-Stockfish) read milliseconds.
    millisec: bool,
    /// `banmoves` for the current position.
    banned: Vec<String>,
    /// The opponent offered a draw in this search.
    draw_offered: bool,
    /// The main line's last score in this search.
    last_score: Option<Score>,
    /// plyd's own rules judged this search's root (a repetition): its
    /// scores rest on rules the GUI may not share, and plyd does not
    /// resign on them.
    root_judged: bool,
}

impl Default for Ucci {
    fn default() -> Self {
        Ucci {
            millisec: true,
            banned: Vec::new(),
            draw_offered: false,
            last_score: None,
            root_judged: false,
        }
    }
}

impl Ucci {
    fn identify(&self, ctl: &mut Controller) {
        ctl.raw(&format!("id name plyd {}", env!("CARGO_PKG_VERSION")));
        ctl.raw("id author the plyd developers");
        let millisec = self.millisec;
        ctl.raw(&format!("option usemillisec type check default {millisec}"));
        ctl.raw("option newgame type button");
        for decl in ctl.option_decls_in_play() {
            let name = match decl.name.as_str() {
                names::HASH => "hashsize".to_string(),
                names::THREADS => "threads".to_string(),
                names::PONDER => "ponder".to_string(),
                other => other.to_string(),
            };
            if matches!(decl.kind, OptionKind::Button) && name == names::CLEAR_HASH {
                ctl.raw(&format!("option clearhash {}", decl.kind));
                continue;
            }
            ctl.raw(&format!("option {} {}", name.replace(' ', ""), decl.kind));
        }
        ctl.raw("ucciok");
    }

    fn set_option(
        &mut self,
        ctl: &mut Controller,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), String> {
        // A search told to stop is waited for, as `go` waits for it.
        if ctl.job_in_the_way(self).is_err() {
            return Err(
                "options cannot change while a search is running; send stop first".to_string(),
            );
        }
        let lower = name.to_ascii_lowercase();
        let flag = |value: Option<&str>| match value.map(|v| v.trim().to_ascii_lowercase()) {
            Some(v) if v == "true" || v == "on" => Ok("true"),
            Some(v) if v == "false" || v == "off" => Ok("false"),
            _ => Err(format!("option '{name}' takes true or false")),
        };
        // An error about plyd's option names the UCCI one the GUI sent
        // too (`option 'hashsize' (Hash)`).
        let sent = name;
        let engine = |ctl: &mut Controller, voice: &mut Ucci, name: &str, value: Option<&str>| {
            ctl.set_option(voice, name, value).map_err(|e| {
                let text = e.to_string();
                if sent.eq_ignore_ascii_case(name) {
                    text
                } else {
                    text.replace(
                        &format!("option '{name}'"),
                        &format!("option '{sent}' ({name})"),
                    )
                }
            })
        };
        match lower.as_str() {
            "usemillisec" => self.millisec = flag(value)? == "true",
            "newgame" => {
                ctl.new_game(self).map_err(|e| e.to_string())?;
                self.banned.clear();
            }
            "hashsize" => engine(ctl, self, names::HASH, value)?,
            "threads" => engine(ctl, self, names::THREADS, value)?,
            "ponder" => engine(ctl, self, names::PONDER, Some(flag(value)?))?,
            // The GUI's book switch: plyd's own book (`BookFile`).
            "usebook" => engine(ctl, self, names::OWN_BOOK, Some(flag(value)?))?,
            "clearhash" => ctl.clear_hash().map_err(|e| e.to_string())?,
            "moveoverhead" => engine(ctl, self, names::MOVE_OVERHEAD, value)?,
            // UCCI's five steps of randomness, as `Variety`: a root move
            // within so many points of the best may be played.
            "randomness" => {
                let points = match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                    Some("none") => 0,
                    Some("tiny") => 5,
                    Some("small") => 10,
                    Some("medium") => 20,
                    Some("large") => 40,
                    Some("huge") => 80,
                    _ => {
                        return Err(format!(
                            "option '{name}' takes none, tiny, small, medium, large or huge"
                        ))
                    }
                };
                engine(ctl, self, names::VARIETY, Some(&points.to_string()))?
            }
            _ if IGNORED_OPTIONS.contains(&lower.as_str()) => {
                log::debug!("UCCI option {name} is not used by plyd");
            }
            _ => {
                let value = match value.map(|v| v.trim().to_ascii_lowercase()) {
                    Some(v) if v == "on" => Some("true".to_string()),
                    Some(v) if v == "off" => Some("false".to_string()),
                    _ => value.map(str::to_string),
                };
                engine(ctl, self, name, value.as_deref())?;
            }
        }
        Ok(())
    }

    /// Refuse every move of the list, or none when one is not a legal move.
    fn ban_moves(&mut self, ctl: &mut Controller, moves: Vec<String>) {
        let texts = moves.clone();
        let checked = ctl
            .session
            .watched_position("checking banmoves", move |state| {
                Ok(texts.into_iter().find_map(|text| {
                    let refused = state.parse_legal_move(&text).err()?;
                    Some(format!("banmoves: '{text}' is not a legal move: {refused}"))
                }))
            });
        match checked {
            Ok(None) => self.banned = moves,
            Ok(Some(refusal)) => self.error(ctl, &refusal),
            Err(e) => self.error(ctl, &e),
        }
    }

    /// What the next search plays from: the side to move and the legal
    /// moves that are not banned (`None` when nothing is banned). Where
    /// plyd's repetition rules have judged the game, the moves are still
    /// listed and the search plays one for the GUI to adjudicate.
    fn root(&self, ctl: &Controller) -> Result<UcciRoot, String> {
        let banned = self.banned.clone();
        ctl.session.ask_position(move |root| {
            let side = root.side_to_move()?;
            let judged = root.outcome()? != Outcome::Ongoing;
            let allowed = if banned.is_empty() {
                None
            } else {
                let mut moves = Vec::new();
                root.legal_moves(&mut moves)?;
                let mut allowed = Vec::new();
                for mv in moves {
                    let text = root.format_move(mv)?;
                    if !banned.contains(&text) {
                        allowed.push(text);
                    }
                }
                Some(allowed)
            };
            Ok(UcciRoot {
                side,
                allowed,
                judged,
            })
        })
    }

    fn go(&mut self, ctl: &mut Controller, go: &UcciGo) {
        // A search that runs (and was not stopped) keeps its draw offer
        // and score, and gives the answer.
        if let Err(e) = ctl.job_in_the_way(self) {
            self.error(ctl, &e.to_string());
            // perft gives no answer of a search: a refused `go` is owed its
            // own.
            if !matches!(e, ControlError::Busy) {
                ctl.raw("nobestmove");
            }
            return;
        }
        self.draw_offered = go.draw;
        self.last_score = None;
        let UcciRoot {
            side,
            allowed,
            judged,
        } = match self.root(ctl) {
            Ok(found) => found,
            Err(e) => {
                self.error(ctl, &e);
                ctl.raw("nobestmove");
                return;
            }
        };
        self.root_judged = judged;
        let search_moves = match allowed {
            // Every legal move is banned: nothing can be played, and said
            // (as a stalemate's `nobestmove` is).
            Some(moves) if moves.is_empty() => {
                self.note(
                    ctl,
                    "every legal move here is banned (banmoves): there is no move to play",
                );
                ctl.raw("nobestmove");
                return;
            }
            Some(moves) => moves,
            None => Vec::new(),
        };
        let (mine, theirs) = (
            (go.time_ms, go.increment_ms),
            (go.opp_time_ms, go.opp_increment_ms),
        );
        let ((wtime, winc), (btime, binc)) = if side == 0 {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        // UCI's clocks by colour, from a GUI that speaks UCI too, where
        // UCCI's own words leave them out.
        let [uci_wtime, uci_btime, uci_winc, uci_binc] = go.colour_clocks;
        let (wtime, btime, winc, binc) = (
            wtime.or(uci_wtime),
            btime.or(uci_btime),
            winc.or(uci_winc),
            binc.or(uci_binc),
        );
        let params = GoParams {
            search_moves,
            ponder: go.ponder,
            wtime,
            btime,
            winc,
            binc,
            moves_to_go: go.moves_to_go,
            movetime: go.movetime_ms.map(|ms| ms.max(0) as u64),
            depth: go.depth,
            nodes: go.nodes,
            infinite: go.infinite,
            ..GoParams::default()
        };
        search(ctl, self, &params, None);
    }

    /// `probe`: what the hash table holds for the current position, as
    /// `pophash [bestmove M] [lowerbound V depth D] [upperbound V depth D]`
    /// (an exact score is both bounds); a bare `pophash` when it holds
    /// nothing, or a move that is not legal here (another position's). A
    /// table `setoption newgame` emptied holds nothing, though its clear
    /// waits for `isready` or the next search.
    fn probe(&mut self, ctl: &mut Controller) {
        let mut line = String::from("pophash");
        let key = ctl.session.ask_position(|state| Ok(state.hash()));
        let emptied = ctl.tt.clear_pending();
        let hit = key
            .ok()
            .filter(|_| !emptied)
            .and_then(|key| ctl.tt.probe(key, 0));
        if let Some(hit) = hit {
            // The stored move, shown only if it is legal here.
            let best = hit.best.and_then(|mv| {
                let shown = ctl
                    .session
                    .watched_position("reading the stored move", move |state| {
                        let mut legal = Vec::new();
                        state.legal_moves(&mut legal)?;
                        legal
                            .contains(&mv)
                            .then(|| state.format_move(mv))
                            .transpose()
                    });
                shown.unwrap_or_else(|e| {
                    log::error!("{e}");
                    None
                })
            });
            if let Some(best) = best {
                line += &format!(" bestmove {best}");
            }
            let value = ucci_score(to_protocol(hit.score));
            if matches!(hit.bound, Bound::Lower | Bound::Exact) {
                line += &format!(" lowerbound {value} depth {}", hit.depth);
            }
            if matches!(hit.bound, Bound::Upper | Bound::Exact) {
                line += &format!(" upperbound {value} depth {}", hit.depth);
            }
        }
        ctl.raw(&line);
    }
}

/// What `help` says in UCCI.
const UCCI_HELP: [&str; 5] = [
    "commands (lower case): ucci, isready, setoption NAME VALUE, position startpos|fen TEXT \
     [moves M1 M2 ...], banmoves M1 M2 ..., go, stop, ponderhit [draw], probe, quit",
    "go takes time/increment/opptime/oppincrement (seconds; milliseconds after setoption \
     usemillisec true), \
     movestogo N, depth N|infinite, nodes N, movetime MS, ponder, draw; a go with none of \
     them runs until stop",
    "plyd's own: d (the board, its position text and legal moves), eval (the evaluation \
     term by term), go perft N (move counts), bench [GAME] [DEPTH], ucinewgame",
    "ucci lists the options",
    "the options and the protocol's details: README.md and docs/ (docs/protocols.md)",
];

impl Dialect for Ucci {
    fn help(&self) -> &'static [&'static str] {
        &UCCI_HELP
    }

    fn line(&mut self, ctl: &mut Controller, line: &str) -> bool {
        let command = match parse_ucci_line(line, self.millisec) {
            Ok(Some(command)) => command,
            Ok(None) => return true,
            Err(e) => {
                uci::unreadable(ctl, self, &e);
                return true;
            }
        };
        match command {
            UcciCommand::Ucci => self.identify(ctl),
            UcciCommand::IsReady => ctl.ready(self),
            UcciCommand::SetOption { name, value } => {
                if let Err(e) = self.set_option(ctl, &name, value.as_deref()) {
                    self.error(ctl, &e);
                }
            }
            UcciCommand::Position { start, moves } => {
                let result = ctl.set_position(&start, &moves);
                if result.is_ok() {
                    self.banned.clear();
                }
                report(ctl, self, result);
            }
            UcciCommand::BanMoves(moves) => self.ban_moves(ctl, moves),
            UcciCommand::Go(go) => self.go(ctl, &go),
            UcciCommand::PonderHit { draw } => {
                if ctl.busy() {
                    self.draw_offered |= draw;
                    ctl.ponderhit();
                }
            }
            UcciCommand::Stop => ctl.stop_job(),
            UcciCommand::Probe => self.probe(ctl),
            UcciCommand::Quit => {
                ctl.shut_down(self);
                ctl.raw("bye");
                return false;
            }
            // `d`, `eval`, `go perft`, `bench`, `ucinewgame`: as UCI has them.
            UcciCommand::Extension(command) => return uci::command(ctl, self, command),
        }
        true
    }

    fn info(&mut self, ctl: &mut Controller, info: Info) {
        if let Some(score) = main_line_score(&info) {
            self.last_score = Some(score);
        }
        for line in format_ucci_info(&info) {
            ctl.raw(&line);
        }
    }

    fn best(&mut self, ctl: &mut Controller, best: Option<String>, ponder: Option<String>) {
        let Some(best) = best else {
            ctl.raw("nobestmove");
            return;
        };
        let mut line = format!("bestmove {best}");
        if let Some(ponder) = ponder {
            line += &format!(" ponder {ponder}");
        }
        match self.last_score {
            Some(Score::Mate(moves)) if moves < 0 && !self.root_judged => line += " resign",
            Some(Score::Cp(cp)) if self.draw_offered && cp <= 0 => line += " draw",
            _ => {}
        }
        self.draw_offered = false;
        ctl.raw(&line);
    }

    fn write_note(&mut self, ctl: &mut Controller, text: &str) {
        ctl.raw(&format!("info message {}", one_line(text)));
    }

    fn write_error(&mut self, ctl: &mut Controller, text: &str) {
        ctl.raw(&format!("info message error: {}", one_line(text)));
    }

    fn boxed_clone(&self) -> Box<dyn Dialect> {
        Box::new(self.clone())
    }
}
