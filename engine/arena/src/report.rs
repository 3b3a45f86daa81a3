//! What the arena prints: a progress line after every game and the final
//! table, both built from the running [`Standings`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::record::{ClosestCall, Ending, GameRecord, GameResult};
use crate::stats::{signed, EloEstimate, PairTally, Sprt, SprtDecision, Tally};

/// The running totals of a match.
#[derive(Debug, Clone)]
pub struct Standings {
    /// The engines' names, the first `--engine` first.
    pub names: [String; 2],
    /// Results of the first engine.
    pub tally: Tally,
    /// The colour-swapped pairs both of whose games are counted, by the
    /// first engine's points in them.
    pub pairs: PairTally,
    /// The first engine's points in each pair one of whose games is
    /// counted, and that game's moves, by the pair's number (from 0).
    pub open_pairs: BTreeMap<usize, (f64, Vec<String>)>,
    /// The finished pairs whose two games were the same move for move:
    /// the engines played as one player.
    pub alike_pairs: u64,
    /// Games by how they ended.
    pub endings: BTreeMap<Ending, u64>,
    /// Wins of the first player, wins of the second player, draws.
    pub by_side: [u64; 3],
    /// The move that left its player the least time, in any game.
    pub closest: Option<MatchClosest>,
    /// Where the SPRT first crossed a bound: its decision, after how many
    /// games, and the LLR then. Games that were in play at that moment
    /// are counted after it and may move the LLR back inside the bounds;
    /// the test still stopped there.
    pub sprt_crossed: Option<(SprtDecision, u64, f64)>,
}

/// The column of `result` in a table's games by side: the first
/// player's wins, the second's, draws.
pub(crate) fn side_column(result: GameResult) -> usize {
    match result {
        GameResult::FirstWins => 0,
        GameResult::SecondWins => 1,
        GameResult::Draw => 2,
    }
}

/// The games by side, as the tables say them.
pub(crate) fn sides_line(by_side: &[u64; 3]) -> String {
    format!(
        "first player won {}, second player won {}, drawn {}",
        by_side[0], by_side[1], by_side[2]
    )
}

/// The games by ending, `rules 12, time forfeit 1` (`none` where none).
pub(crate) fn endings_list(endings: &BTreeMap<Ending, u64>) -> String {
    if endings.is_empty() {
        return "none".to_string();
    }
    let endings: Vec<String> = endings
        .iter()
        .map(|(ending, count)| format!("{ending} {count}"))
        .collect();
    endings.join(", ")
}

/// The closest call of a match: the move and the game it came in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchClosest {
    /// The move.
    pub call: ClosestCall,
    /// Its game's number.
    pub game: usize,
    /// The player who made it.
    pub player: String,
}

impl Standings {
    /// Nothing played yet.
    pub fn new(names: [String; 2]) -> Self {
        Standings {
            names,
            tally: Tally::default(),
            pairs: PairTally::default(),
            open_pairs: BTreeMap::new(),
            alike_pairs: 0,
            endings: BTreeMap::new(),
            by_side: [0; 3],
            closest: None,
            sprt_crossed: None,
        }
    }

    /// Whether `sprt` has decided: on the games counted so far, or at an
    /// earlier crossing, which stands whatever the later games do.
    pub fn sprt_decided(&mut self, sprt: &Sprt) -> bool {
        if self.sprt_crossed.is_none() {
            let llr = self.llr(sprt);
            let decision = sprt.verdict(llr);
            if decision != SprtDecision::Continue {
                self.sprt_crossed = Some((decision, self.tally.games(), llr));
            }
        }
        self.sprt_crossed.is_some()
    }

    /// `sprt`'s ratio on what it counts: the games or the finished pairs.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        sprt.llr_by_model(&self.tally, &self.pairs)
    }

    /// Count a finished game. Returns whether it finished a pair whose
    /// other game it repeats move for move.
    pub fn add(&mut self, record: &GameRecord) -> bool {
        let points = record.points_of_engine(0);
        if points == 1.0 {
            self.tally.wins += 1;
        } else if points == 0.0 {
            self.tally.losses += 1;
        } else {
            self.tally.draws += 1;
        }
        // Games 2k+1 and 2k+2 are pair k's (numbers from 1).
        let pair = record.number.saturating_sub(1) / 2;
        let mut alike = false;
        match self.open_pairs.remove(&pair) {
            Some((first, moves)) => {
                self.pairs.add(first + points);
                // Games of no move (an opening the rules had ended) are
                // alike by their opening, not by their players.
                alike = !moves.is_empty() && moves == record.moves;
                self.alike_pairs += u64::from(alike);
            }
            None => {
                self.open_pairs.insert(pair, (points, record.moves.clone()));
            }
        }
        *self.endings.entry(record.ending).or_default() += 1;
        self.by_side[side_column(record.result)] += 1;
        if let Some(call) = record.closest {
            let closer = self
                .closest
                .as_ref()
                .is_none_or(|c| call.left_ms < c.call.left_ms);
            if closer {
                self.closest = Some(MatchClosest {
                    call,
                    game: record.number,
                    player: record.players[call.side.min(1)].clone(),
                });
            }
        }
        alike
    }

    /// One line after a game: the game, then the totals so far.
    pub fn progress_line(
        &self,
        record: &GameRecord,
        planned: usize,
        sprt: Option<&Sprt>,
    ) -> String {
        let t = &self.tally;
        let mut line = format!(
            "game {} ({}/{planned}): {} vs {}: {} {} | {} vs {}: +{} ={} -{}",
            record.number,
            t.games(),
            record.players[0],
            record.players[1],
            record.result,
            record.reason,
            self.names[0],
            self.names[1],
            t.wins,
            t.draws,
            t.losses,
        );
        if let Some(elo) = EloEstimate::from_tally(t) {
            let _ = write!(line, " | Elo {elo}");
        }
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let _ = write!(
                line,
                " | LLR {:.2} ({lower:.2}, {upper:.2})",
                self.llr(sprt)
            );
        }
        line
    }

    /// The final table.
    pub fn final_table(&self, sprt: Option<&Sprt>) -> String {
        let t = &self.tally;
        let n = t.games();
        let mut out = String::new();
        let width = self
            .names
            .iter()
            .map(|n| display_width(n))
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = writeln!(
            out,
            "{:<width$}  {:>6} {:>6} {:>6} {:>6} {:>7} {:>7}",
            "engine", "games", "wins", "draws", "losses", "points", "score"
        );
        let rows = [
            (&self.names[0], t.wins, t.losses),
            (&self.names[1], t.losses, t.wins),
        ];
        for (name, wins, losses) in rows {
            let points = wins as f64 + t.draws as f64 / 2.0;
            let score = if n == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * points / n as f64)
            };
            let name = padded(name, width);
            let _ = writeln!(
                out,
                "{name}  {n:>6} {wins:>6} {:>6} {losses:>6} {points:>7.1} {score:>7}",
                t.draws
            );
        }
        let _ = writeln!(out, "{}", sides_line(&self.by_side));
        let _ = writeln!(out, "endings: {}", endings_list(&self.endings));
        if let Some(c) = &self.closest {
            let _ = writeln!(
                out,
                "least time left after a move: {} ms ({}, game {}, ply {})",
                c.call.left_ms, c.player, c.game, c.call.ply
            );
        }
        match EloEstimate::from_tally(t) {
            Some(elo) => {
                let _ = writeln!(
                    out,
                    "Elo difference {} - {}: {elo} (95% interval {} to {}; {})",
                    self.names[0],
                    self.names[1],
                    signed(elo.low),
                    signed(elo.high),
                    elo.method()
                );
            }
            None => {
                let _ = writeln!(out, "Elo difference: no games");
            }
        }
        if let Some(line) = self.pairs_line() {
            let _ = writeln!(out, "{line}");
        }
        if self.alike_pairs > 0 {
            let _ = writeln!(
                out,
                "pairs whose two games were the same move for move: {} of {}",
                self.alike_pairs,
                self.pairs.pairs()
            );
        }
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let (decision, llr, later) = match self.sprt_crossed {
                Some((decision, games, llr)) => (decision, llr, t.games() - games),
                None => (sprt.verdict(self.llr(sprt)), self.llr(sprt), 0),
            };
            let verdict = match decision {
                SprtDecision::AcceptH1 => format!(
                    "H1 accepted (elo1={} favoured over elo0={})",
                    sprt.elo1, sprt.elo0
                ),
                SprtDecision::AcceptH0 => format!(
                    "H0 accepted (elo0={} favoured over elo1={})",
                    sprt.elo0, sprt.elo1
                ),
                SprtDecision::Continue => "no decision".to_string(),
            };
            let _ = write!(
                out,
                "SPRT {sprt}: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}): {verdict}"
            );
            if later > 0 {
                // The games in play at the crossing, counted since.
                let _ = write!(
                    out,
                    " after {} games; with the {later} game{} in play then, counted since: LLR {:.2}",
                    t.games() - later,
                    if later == 1 { "" } else { "s" },
                    self.llr(sprt)
                );
            }
            let _ = writeln!(out);
        }
        out
    }
}

/// `text` as a JSON string, quoted and escaped.
pub(crate) fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `value` as a JSON number, `null` where it is not finite (an Elo of a
/// match won every game).
pub(crate) fn json_number(value: f64) -> String {
    if value == 0.0 {
        // Not `-0`.
        "0".to_string()
    } else if value.is_finite() {
        format!("{value}")
    } else {
        "null".to_string()
    }
}

/// The games by ending as a JSON object (`{"rules": 12, "time forfeit":
/// 1}`), as [`endings_list`] says them in words.
pub(crate) fn json_endings(endings: &BTreeMap<Ending, u64>) -> String {
    let members: Vec<String> = endings
        .iter()
        .map(|(ending, count)| format!("{}: {count}", json_string(&ending.to_string())))
        .collect();
    format!("{{{}}}", members.join(", "))
}

/// An Elo estimate as a JSON object (`null` where there is none): the
/// difference and the interval's ends, each `null` where infinite, and
/// the line's own text, with its `inf`s.
pub(crate) fn json_elo(elo: Option<EloEstimate>) -> String {
    elo.map_or("null".to_string(), |e| {
        format!(
            "{{\"elo\": {}, \"low\": {}, \"high\": {}, \"text\": {}}}",
            json_number(e.elo),
            json_number(e.low),
            json_number(e.high),
            json_string(&format!(
                "{e} (95% interval {} to {})",
                signed(e.low),
                signed(e.high)
            ))
        )
    })
}

impl Standings {
    /// The match's result as one JSON object, for a script to read
    /// (`--json FILE`): the engines, the first engine's wins, draws and
    /// losses and each one's points, the games by side and by ending,
    /// the Elo by games and by pairs, and the SPRT's state; `complete`
    /// whether every game asked for was played.
    pub fn to_json(&self, sprt: Option<&Sprt>, games_asked: usize, complete: bool) -> String {
        let t = &self.tally;
        let points = [
            t.wins as f64 + t.draws as f64 / 2.0,
            t.losses as f64 + t.draws as f64 / 2.0,
        ];
        let elo_by_pairs = (self.pairs.pairs() > 0)
            .then(|| EloEstimate::from_pairs(&self.pairs))
            .flatten();
        let sprt = sprt.map_or("null".to_string(), |sprt| {
            let (lower, upper) = sprt.bounds();
            let (decision, llr) = match self.sprt_crossed {
                Some((decision, _, llr)) => (decision, llr),
                None => (sprt.verdict(self.llr(sprt)), self.llr(sprt)),
            };
            let decision = match decision {
                SprtDecision::AcceptH1 => "H1",
                SprtDecision::AcceptH0 => "H0",
                SprtDecision::Continue => "none",
            };
            format!(
                "{{\"elo0\": {}, \"elo1\": {}, \"llr\": {}, \"lower\": {}, \"upper\": {}, \"decision\": {}}}",
                json_number(sprt.elo0),
                json_number(sprt.elo1),
                json_number(llr),
                json_number(lower),
                json_number(upper),
                json_string(decision)
            )
        });
        let least = self.closest.as_ref().map_or("null".to_string(), |c| {
            format!(
                "{{\"ms\": {}, \"engine\": {}, \"game\": {}, \"ply\": {}}}",
                c.call.left_ms,
                json_string(&c.player),
                c.game,
                c.call.ply
            )
        });
        format!(
            "{{\n  \"engines\": [{}, {}],\n  \"games_asked\": {games_asked},\n  \"complete\": {complete},\n  \"games\": {},\n  \"wins\": {},\n  \"draws\": {},\n  \"losses\": {},\n  \"points\": [{}, {}],\n  \"first_player_won\": {},\n  \"second_player_won\": {},\n  \"drawn\": {},\n  \"endings\": {},\n  \"elo\": {},\n  \"pairs\": {},\n  \"elo_by_pairs\": {},\n  \"alike_pairs\": {},\n  \"sprt\": {sprt},\n  \"least_time_left\": {least}\n}}\n",
            json_string(&self.names[0]),
            json_string(&self.names[1]),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            json_number(points[0]),
            json_number(points[1]),
            self.by_side[0],
            self.by_side[1],
            self.by_side[2],
            json_endings(&self.endings),
            json_elo(EloEstimate::from_tally(t)),
            self.pairs.pairs(),
            json_elo(elo_by_pairs),
            self.alike_pairs,
        )
    }

    /// The Elo line by colour-swapped pairs (see
    /// [`EloEstimate::from_pairs`]), with the pairs' points and the games
    /// left out; `None` before the first pair is complete.
    fn pairs_line(&self) -> Option<String> {
        let n = self.pairs.pairs();
        if n == 0 {
            return None;
        }
        let unpaired = match self.open_pairs.len() {
            0 => String::new(),
            1 => "; 1 game without its pair left out".to_string(),
            k => format!("; {k} games without their pair left out"),
        };
        let pairs = format!(
            "{n} colour-swapped pair{}, the first engine's points in them {}{unpaired}",
            if n == 1 { "" } else { "s" },
            self.pairs
        );
        Some(match EloEstimate::from_pairs(&self.pairs) {
            Some(elo) => format!(
                "Elo by pairs: {elo} (95% interval {} to {}; {pairs}; pair score standard error)",
                signed(elo.low),
                signed(elo.high)
            ),
            None => format!("Elo by pairs: no interval, every pair scored alike ({pairs})"),
        })
    }
}

/// The columns `text` takes on a terminal: two for each wide character
/// (the CJK blocks, Hangul, full-width forms), one for any other, so
/// that a table of Chinese names stays in its columns.
/// `name` with blanks after it to `width` columns on a terminal
/// ([`display_width`]).
pub(crate) fn padded(name: &str, width: usize) -> String {
    let pad = width.saturating_sub(display_width(name));
    format!("{name}{}", " ".repeat(pad))
}

pub(crate) fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            let wide = matches!(u32::from(c),
                0x1100..=0x115F
                | 0x2E80..=0x303E
                | 0x3041..=0x33FF
                | 0x3400..=0x4DBF
                | 0x4E00..=0x9FFF
                | 0xA000..=0xA4CF
                | 0xAC00..=0xD7A3
                | 0xF900..=0xFAFF
                | 0xFE30..=0xFE4F
                | 0xFF00..=0xFF60
                | 0xFFE0..=0xFFE6
                | 0x20000..=0x3FFFD);
            if wide {
                2
            } else {
                1
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_strings_and_numbers_are_written_as_json_reads_them() {
        use super::{json_elo, json_number, json_string};
        assert_eq!(
            json_string("b \"q\"\\n\u{1}\u{e9}"),
            "\"b \\\"q\\\"\\\\n\\u0001\u{e9}\""
        );
        assert_eq!(json_number(-0.0), "0");
        assert_eq!(json_number(1.5), "1.5");
        assert_eq!(json_number(f64::INFINITY), "null");
        assert_eq!(json_elo(None), "null");
    }

    #[test]
    fn wide_names_keep_their_columns() {
        assert_eq!(super::display_width("甲队"), 4);
        assert_eq!(super::display_width("plyd-1"), 6);
        assert_eq!(super::display_width("Ａ"), 2);
    }

    use super::*;
    use crate::openings::Start;

    fn record(
        number: usize,
        first_engine: usize,
        result: GameResult,
        ending: Ending,
    ) -> GameRecord {
        let names = ["a".to_string(), "b".to_string()];
        GameRecord {
            number,
            variant: "othello".into(),
            players: if first_engine == 0 {
                names.clone()
            } else {
                [names[1].clone(), names[0].clone()]
            },
            first_engine,
            opening: "startpos".into(),
            opening_plies: 0,
            start: Start::StartPos,
            moves: Vec::new(),
            result,
            ending,
            reason: ending.to_string(),
            final_position: String::new(),
            seed: 1,
            closest: None,
            scores: Vec::new(),
            times: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// A game still in play when the SPRT crossed a bound is counted after
    /// it; the verdict stays the crossing's (it read `no decision` when
    /// that game brought the LLR back inside the bounds).
    #[test]
    fn the_sprt_verdict_is_the_crossings() {
        let sprt = Sprt::parse(&["elo0=0", "elo1=50", "alpha=0.05", "beta=0.05"].map(String::from))
            .unwrap();
        // a wins as the first player and as the second.
        let won_by_a = |n: usize| match n % 2 {
            0 => record(n, 0, GameResult::FirstWins, Ending::Rules),
            _ => record(n, 1, GameResult::SecondWins, Ending::Rules),
        };
        let mut s = Standings::new(["a".into(), "b".into()]);
        for n in 1..=23 {
            s.add(&won_by_a(n));
            assert_eq!(s.sprt_decided(&sprt), n == 23, "{n}");
        }
        s.add(&record(24, 1, GameResult::FirstWins, Ending::IllegalMove));
        assert!(s.sprt_decided(&sprt));
        assert_eq!(sprt.decide(&s.tally), SprtDecision::Continue);
        let table = s.final_table(Some(&sprt));
        assert!(
            table.contains(
                "SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR 3.07 (bounds -2.94, 2.94): \
                 H1 accepted (elo1=50 favoured over elo0=0) after 23 games; with the 1 game \
                 in play then, counted since: LLR 2.92\n"
            ),
            "{table}"
        );
        // Decided by the last game counted: the line as it was.
        let mut s = Standings::new(["a".into(), "b".into()]);
        for n in 1..=23 {
            s.add(&won_by_a(n));
            s.sprt_decided(&sprt);
        }
        let table = s.final_table(Some(&sprt));
        assert!(
            table.contains(
                "LLR 3.07 (bounds -2.94, 2.94): H1 accepted (elo1=50 favoured over elo0=0)\n"
            ),
            "{table}"
        );
    }

    #[test]
    fn pairs_played_alike_are_counted() {
        let mut s = Standings::new(["a".into(), "b".into()]);
        let played = |number: usize, first: usize, moves: &[&str]| {
            let mut r = record(number, first, GameResult::FirstWins, Ending::Rules);
            r.moves = moves.iter().map(|m| m.to_string()).collect();
            r
        };
        assert!(!s.add(&played(1, 0, &["f5", "d6"])));
        assert!(s.add(&played(2, 1, &["f5", "d6"])));
        assert!(!s.add(&played(3, 0, &["f5", "d6"])));
        assert!(!s.add(&played(4, 1, &["f5", "f6"])));
        // No moves at all: alike by the opening, not by the players.
        assert!(!s.add(&played(5, 0, &[])));
        assert!(!s.add(&played(6, 1, &[])));
        assert_eq!(s.alike_pairs, 1);
        let table = s.final_table(None);
        assert!(
            table.contains("pairs whose two games were the same move for move: 1 of 3\n"),
            "{table}"
        );
        let mut unlike = Standings::new(["a".into(), "b".into()]);
        unlike.add(&played(1, 0, &["f5"]));
        unlike.add(&played(2, 1, &["d3"]));
        assert!(!unlike.final_table(None).contains("move for move"));
    }

    /// An SPRT by pairs moves only as a pair is finished: 23 pairs won
    /// both ways decide it (as 23 games do by games), after game 46.
    #[test]
    fn an_sprt_by_pairs_decides_at_a_pairs_end() {
        let sprt = Sprt::parse(
            &[
                "elo0=0",
                "elo1=50",
                "alpha=0.05",
                "beta=0.05",
                "model=pairs",
            ]
            .map(String::from),
        )
        .unwrap();
        let mut s = Standings::new(["a".into(), "b".into()]);
        for n in 1..=46 {
            s.add(&record(n, (n + 1) % 2, GameResult::Draw, Ending::Rules));
            s.tally = Tally {
                wins: n as u64,
                ..Tally::default()
            };
        }
        // The pairs count, not the games' tally: drawn pairs (1 point
        // each) beside a tally made to read all wins, and the ratio is
        // below 0.
        assert!(s.llr(&sprt) < 0.0);
        let mut s = Standings::new(["a".into(), "b".into()]);
        let won_by_a = |n: usize| match n % 2 {
            1 => record(n, 0, GameResult::FirstWins, Ending::Rules),
            _ => record(n, 1, GameResult::SecondWins, Ending::Rules),
        };
        let mut before = 0.0;
        for n in 1..=46 {
            s.add(&won_by_a(n));
            assert_eq!(s.sprt_decided(&sprt), n == 46, "{n}");
            let llr = s.llr(&sprt);
            if n % 2 == 1 {
                assert_eq!(
                    llr, before,
                    "game {n} of an unfinished pair moved the ratio"
                );
            } else {
                assert!(llr > before, "{n}");
            }
            before = llr;
        }
        let table = s.final_table(Some(&sprt));
        assert!(
            table.contains(
                "SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05 model=pairs: LLR 3.07 (bounds -2.94, \
                 2.94): H1 accepted (elo1=50 favoured over elo0=0)\n"
            ),
            "{table}"
        );
    }

    #[test]
    fn counts_from_the_first_engines_side() {
        let mut s = Standings::new(["a".into(), "b".into()]);
        // a first and wins; b first and wins (a loses); a second and the
        // first player (b) loses; a draw.
        s.add(&record(1, 0, GameResult::FirstWins, Ending::Rules));
        s.add(&record(2, 1, GameResult::FirstWins, Ending::TimeForfeit));
        s.add(&record(3, 1, GameResult::SecondWins, Ending::IllegalMove));
        s.add(&record(4, 0, GameResult::Draw, Ending::MaxPlies));
        assert_eq!(
            s.tally,
            Tally {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(s.by_side, [2, 1, 1]);
        let table = s.final_table(None);
        assert!(
            table.contains("a            4      2      1      1     2.5   62.5%"),
            "{table}"
        );
        assert!(
            table.contains("b            4      1      1      2     1.5   37.5%"),
            "{table}"
        );
        assert!(
            table.contains("endings: rules 1, max plies 1, time forfeit 1, illegal move 1"),
            "{table}"
        );
        assert!(table.contains("first player won 2, second player won 1, drawn 1"));
        assert!(!table.contains("least time left"), "no timed move: {table}");
        // 62.5%: -400 log10(0.6) = +88.7
        assert!(
            table.contains("Elo difference a - b: +88.7 +/- "),
            "{table}"
        );
        let line = s.progress_line(&record(4, 0, GameResult::Draw, Ending::MaxPlies), 10, None);
        assert!(
            line.starts_with(
                "game 4 (4/10): a vs b: 1/2-1/2 max plies | a vs b: +2 =1 -1 | Elo +88.7"
            ),
            "{line}"
        );
        // Pair 0: a won game 1 and lost game 2 (1 point); pair 1: a won
        // game 3 and drew game 4 (3/2). Pair scores 0.5 and 0.75: mean
        // 0.625, variance 0.015625, standard error sqrt(0.015625 / 2) =
        // 0.088388, 1.96 of it 0.173240: 0.451760 to 0.798240, Elo -33.6
        // to +238.9, +/- 136.3.
        assert!(
            table.contains(
                "Elo by pairs: +88.7 +/- 136.3 (95% interval -33.6 to +238.9; 2 colour-swapped \
                 pairs, the first engine's points in them 0: 0, 1/2: 0, 1: 1, 3/2: 1, 2: 0; \
                 pair score standard error)"
            ),
            "{table}"
        );
        s.add(&record(5, 0, GameResult::FirstWins, Ending::Rules));
        let table = s.final_table(None);
        assert!(
            table.contains("3/2: 1, 2: 0; 1 game without its pair left out;"),
            "{table}"
        );
        s.add(&record(6, 1, GameResult::SecondWins, Ending::Rules));
        let table = s.final_table(None);
        assert!(
            table.contains(
                "3 colour-swapped pairs, the first engine's points in them 0: 0, \
                 1/2: 0, 1: 1, 3/2: 1, 2: 1; pair"
            ),
            "{table}"
        );
        let mut alike = Standings::new(["a".into(), "b".into()]);
        assert!(!alike.final_table(None).contains("pairs"));
        alike.add(&record(2, 1, GameResult::Draw, Ending::Rules));
        alike.add(&record(1, 0, GameResult::Draw, Ending::Rules));
        assert!(
            alike.final_table(None).contains(
                "Elo by pairs: no interval, every pair scored alike (1 colour-swapped pair, the \
                 first engine's points in them 0: 0, 1/2: 0, 1: 1, 3/2: 0, 2: 0)"
            ),
            "{}",
            alike.final_table(None)
        );
    }

    #[test]
    fn the_closest_call_of_the_match_names_its_game_and_player() {
        let mut s = Standings::new(["a".into(), "b".into()]);
        let timed = |number, first_engine, left_ms, ply, side| GameRecord {
            closest: Some(ClosestCall { left_ms, ply, side }),
            ..record(number, first_engine, GameResult::Draw, Ending::Rules)
        };
        s.add(&timed(1, 0, 40, 9, 1));
        // Game 2 has b first: its second player, at 12 ms, is a.
        s.add(&timed(2, 1, 12, 81, 1));
        // A tie does not move the record; neither does a game without one.
        s.add(&timed(3, 0, 12, 5, 0));
        s.add(&record(4, 1, GameResult::Draw, Ending::Rules));
        let table = s.final_table(None);
        assert!(
            table.contains("least time left after a move: 12 ms (a, game 2, ply 81)"),
            "{table}"
        );
        s.add(&timed(5, 0, -4, 7, 0));
        assert!(
            s.final_table(None)
                .contains("least time left after a move: -4 ms (a, game 5, ply 7)"),
            "{table}"
        );
    }
}
