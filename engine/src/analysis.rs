//! `plyd record --to positions --analyse LIMIT`: every position of a game
//! searched, its best move and score set beside the move played and its
//! own score, for finding a game's mistakes.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::host::{Evaluator, GameState, PluginError, VariantRef};
use crate::search::{self, SearchControl, SearchEvent, SearchLimits, SearchOptions};
use plyd_api::Move;
use plyd_protocol::Score;

/// The columns `--analyse` adds after [`crate::replay::POSITION_COLUMNS`]:
/// the best move found, the played move's own score (a search of it alone,
/// to the same limit) and what playing it lost against the best.
pub const ANALYSIS_COLUMNS: &str = "best\tplayed\tloss";

/// The table an analysis searches with, MiB: emptied before each search.
const ANALYSIS_HASH_MIB: usize = 64;

/// How often the analysis says how far it has got.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// How far each position is searched: `depth=N`, `nodes=N`,
/// `movetime=MS`, several joined by commas (the search stops at the first
/// reached).
pub fn parse_limit(text: &str) -> Result<SearchLimits, String> {
    let mut limits = SearchLimits::default();
    let mut seen: Vec<String> = Vec::new();
    for word in text.split(',').map(str::trim) {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("'{word}' is not KEY=VALUE (depth=N, nodes=N, movetime=MS)"))?;
        let number: u64 = value
            .trim()
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{key}: '{value}' is not a whole number above 0"))?;
        let key = key.trim().to_ascii_lowercase();
        if seen.contains(&key) {
            return Err(format!("{key} is given twice"));
        }
        seen.push(key.clone());
        match key.as_str() {
            "depth" => {
                let depth = u32::try_from(number)
                    .ok()
                    .filter(|&d| d as usize <= search::score::MAX_PLY)
                    .ok_or_else(|| format!("depth {number} is over {}", search::score::MAX_PLY))?;
                limits.depth = Some(depth);
            }
            "nodes" => limits.nodes = Some(number),
            "movetime" => limits.movetime = Some(Duration::from_millis(number)),
            other => {
                return Err(format!(
                    "'{other}' is no limit (depth=N, nodes=N, movetime=MS)"
                ))
            }
        }
    }
    Ok(limits)
}

/// What the analysis found of one position and the move played there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The position's score for the side to move: `N` (the evaluator's
    /// units) or `#N` (a win in N moves, `#-N` a loss), as an arena log's
    /// `Scores` words write them.
    pub score: String,
    /// The depth that score was searched to; `None` with no score (an
    /// exact solve stopped by `movetime` before it had one).
    pub depth: Option<u32>,
    /// The best move found.
    pub best: String,
    /// The score of the move played, searched alone (the best move's own
    /// where it was played).
    pub played: String,
    /// `score` less `played`, a mate counting as the evaluator's bound
    /// ([`worth`]); `None` where either search ended with no score.
    pub loss: Option<i64>,
}

impl Verdict {
    /// The row's columns this verdict fills: score, depth (in the row's
    /// place for them) and the added columns.
    pub fn columns(&self) -> (String, String, String) {
        let depth = self.depth.map(|d| d.to_string()).unwrap_or_default();
        let loss = self.loss.map(|l| l.to_string()).unwrap_or_default();
        (
            self.score.clone(),
            depth,
            format!("{}\t{}\t{loss}", self.best, self.played),
        )
    }
}

/// Makes the evaluator of a game variant.
pub type MakeEvaluator<'a> = Box<dyn Fn(&VariantRef) -> Result<Evaluator, String> + 'a>;

/// Searches each position it is given, one evaluator a game variant.
pub struct Analyst<'a> {
    limits: SearchLimits,
    tt: search::TranspositionTable,
    options: SearchOptions,
    /// Makes the evaluator of a variant the first time one of its games
    /// is analysed.
    make: MakeEvaluator<'a>,
    evaluators: HashMap<String, Evaluator>,
    /// The variant of the game now analysed.
    current: Option<String>,
    /// Positions searched so far.
    pub searched: usize,
    /// When the analysis began, and when its progress was last said.
    started: Instant,
    said: Instant,
}

impl<'a> Analyst<'a> {
    /// An analyst searching each position within `limits` on one thread,
    /// with evaluators made by `make`.
    pub fn new(limits: SearchLimits, make: MakeEvaluator<'a>) -> Result<Self, String> {
        Ok(Analyst {
            limits,
            tt: search::TranspositionTable::new(ANALYSIS_HASH_MIB)?,
            options: SearchOptions::default(),
            make,
            evaluators: HashMap::new(),
            current: None,
            searched: 0,
            started: Instant::now(),
            said: Instant::now(),
        })
    }

    /// Begin a game of `variant`: the evaluator's `new_game`.
    pub fn new_game(&mut self, variant: &VariantRef) -> Result<(), String> {
        let name = variant.name().to_string();
        if !self.evaluators.contains_key(&name) {
            let evaluator = (self.make)(variant)?;
            self.evaluators.insert(name.clone(), evaluator);
        }
        self.evaluators[&name]
            .new_game()
            .map_err(|e| e.to_string())?;
        self.current = Some(name);
        Ok(())
    }

    /// The verdict on `played` in `state` (at a chance node, on the
    /// outcome: [`Analyst::judge_roll`]); where `played` is `None`, on the
    /// position alone (its score and best move; `played` and `loss` left
    /// empty, nothing more searched); `None` where the search found no
    /// move.
    pub fn judge(
        &mut self,
        state: &GameState,
        played: Option<Move>,
    ) -> Result<Option<Verdict>, String> {
        let fail = |e: PluginError| e.to_string();
        if crate::book::is_chance_node(state).map_err(fail)? {
            let verdict = self.judge_roll(state, played)?;
            self.searched_one();
            return Ok(Some(verdict));
        }
        let best = self.search(state, Vec::new())?;
        let best_move = match best.best {
            Some(mv) => mv,
            None => return Ok(None),
        };
        let played_score = match played {
            None => None,
            Some(played) if state.format_move(played).map_err(fail)? == best_move => best.score,
            Some(played) => self.search(state, vec![played])?.score,
        };
        let bound = i64::from(search::score::eval_bound(self.evaluator()?));
        // A search stopped before it had a score (Othello's exact solve cut
        // by `movetime`) leaves what needs it empty.
        let loss = best
            .score
            .zip(played_score)
            .map(|(best, played)| worth(best, bound) - worth(played, bound));
        self.searched_one();
        Ok(Some(Verdict {
            score: best.score.map(score_word).unwrap_or_default(),
            depth: best.score.map(|_| best.depth),
            best: best_move,
            played: played_score.map(score_word).unwrap_or_default(),
            loss,
        }))
    }

    /// The verdict on the outcome `rolled` of the chance node `state`: its
    /// value before the roll (the mean over the outcomes), the value
    /// after this one, both for the side to move before the roll, and
    /// what the roll cost that side (`loss`, below 0 for a good roll); no
    /// best move (nobody chooses). With no outcome, the value before the
    /// roll alone.
    fn judge_roll(&mut self, state: &GameState, rolled: Option<Move>) -> Result<Verdict, String> {
        let fail = |e: PluginError| e.to_string();
        let before = self.search(state, Vec::new())?;
        let mut outcome = None;
        if let Some(rolled) = rolled {
            let mut after = state.try_clone().map_err(fail)?;
            after.make_move(rolled).map_err(fail)?;
            outcome = self.search(&after, Vec::new())?.score;
            if after.side_to_move().map_err(fail)? != state.side_to_move().map_err(fail)? {
                outcome = outcome.map(|score| match score {
                    Score::Cp(n) => Score::Cp(-n),
                    Score::Mate(n) => Score::Mate(-n),
                });
            }
        }
        let bound = i64::from(search::score::eval_bound(self.evaluator()?));
        let loss = before
            .score
            .zip(outcome)
            .map(|(before, outcome)| worth(before, bound) - worth(outcome, bound));
        Ok(Verdict {
            score: before.score.map(score_word).unwrap_or_default(),
            depth: before.score.map(|_| before.depth),
            best: String::new(),
            played: outcome.map(score_word).unwrap_or_default(),
            loss,
        })
    }

    /// Count one position judged, and say the progress on stderr every
    /// few seconds (a long game at a deep limit takes minutes).
    fn searched_one(&mut self) {
        self.searched += 1;
        if self.said.elapsed() >= PROGRESS_EVERY {
            eprintln!(
                "analysis: {} searched, {} s",
                crate::counted(self.searched, "position", "positions"),
                self.started.elapsed().as_secs()
            );
            self.said = Instant::now();
        }
    }

    /// The evaluator of the game now analysed.
    fn evaluator(&self) -> Result<&Evaluator, String> {
        self.current
            .as_ref()
            .map(|name| &self.evaluators[name])
            .ok_or_else(|| "no game begun for the analysis".to_string())
    }

    /// Search `state` within the limits, the root's moves `only` these
    /// where any are given: the last full line's score and depth, and the
    /// best move. Each search is a fresh `go`'s: its own clock (one clock
    /// for the whole analysis gave every position after the first the
    /// time left of one `movetime`) and an empty table (a table kept from
    /// the position before scored one move 213 where a fresh search gave
    /// -59, and a played move above the best).
    fn search(&mut self, state: &GameState, only: Vec<Move>) -> Result<Searched, String> {
        self.tt.clear();
        let control = SearchControl::new(false);
        let evaluator = self.evaluator()?;
        let limits = SearchLimits {
            search_moves: only,
            ..self.limits.clone()
        };
        let mut found = Searched {
            best: None,
            score: None,
            depth: 0,
        };
        search::search(
            state.try_clone().map_err(|e| e.to_string())?,
            evaluator,
            &self.tt,
            &limits,
            &control,
            &self.options,
            &mut |event| match event {
                SearchEvent::Info(info) => {
                    // A line's exact score (not a bound), the first line's.
                    if let (Some((score, None)), None | Some(1)) = (info.score, info.multipv) {
                        found.score = Some(score);
                        found.depth = info.depth.unwrap_or(0);
                    }
                }
                SearchEvent::BestMove { best, .. } => found.best = best,
            },
        )
        .map_err(|e| e.to_string())?;
        Ok(found)
    }
}

/// What a score is worth in a loss: its points, and a mate the
/// evaluator's score bound, a win `bound` and a loss `-bound`, whatever
/// its distance (a win thrown away to a draw then loses `bound`, one kept
/// loses nothing).
pub fn worth(score: Score, bound: i64) -> i64 {
    match score {
        Score::Cp(n) => i64::from(n),
        Score::Mate(n) if n > 0 => bound,
        Score::Mate(_) => -bound,
    }
}

/// One search's answer.
struct Searched {
    best: Option<String>,
    /// `None` where the search stopped before its first score.
    score: Option<Score>,
    depth: u32,
}

/// A score as an arena log's `Scores` words write it: `N` or `#N`.
pub fn score_word(score: Score) -> String {
    match score {
        Score::Cp(n) => n.to_string(),
        Score::Mate(n) => format!("#{n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_and_bad_ones_are_refused() {
        let limits = parse_limit("depth=6").unwrap();
        assert_eq!(limits.depth, Some(6));
        let limits = parse_limit("nodes=5000, movetime=300").unwrap();
        assert_eq!(limits.nodes, Some(5000));
        assert_eq!(limits.movetime, Some(Duration::from_millis(300)));
        assert!(parse_limit("depth").unwrap_err().contains("KEY=VALUE"));
        assert!(parse_limit("depth=0").unwrap_err().contains("above 0"));
        assert!(parse_limit("depth=x").is_err());
        assert!(parse_limit("time=5").unwrap_err().contains("no limit"));
        assert!(parse_limit("depth=99999").unwrap_err().contains("over"));
        assert!(parse_limit("depth=12,DEPTH=4")
            .unwrap_err()
            .contains("twice"));
    }

    /// An exact solve stopped by `movetime` before it had a score: the
    /// row keeps its best move, its other columns empty.
    #[test]
    fn a_verdict_with_no_score_leaves_its_columns_empty() {
        let verdict = Verdict {
            score: String::new(),
            depth: None,
            best: "h7".to_string(),
            played: "-3800".to_string(),
            loss: None,
        };
        assert_eq!(
            verdict.columns(),
            (String::new(), String::new(), "h7\t-3800\t".to_string())
        );
    }

    #[test]
    fn a_mate_is_worth_the_bound() {
        assert_eq!(worth(Score::Cp(-35), 1000), -35);
        assert_eq!(worth(Score::Mate(3), 1000), 1000);
        assert_eq!(worth(Score::Mate(-2), 1000), -1000);
        assert_eq!(worth(Score::Mate(0), 1000), -1000);
    }

    #[test]
    fn scores_are_written_as_arena_logs_write_them() {
        assert_eq!(score_word(Score::Cp(-35)), "-35");
        assert_eq!(score_word(Score::Mate(3)), "#3");
        assert_eq!(score_word(Score::Mate(-2)), "#-2");
    }
}
