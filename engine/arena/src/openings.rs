//! Openings: where each pair of games starts. A pair plays one opening
//! twice, the engines swapping sides, so that neither profits from a lucky
//! start.
//!
//! An opening is a start (the variant's start position or a position text)
//! and a list of moves played from it. Openings come from a file, from
//! random legal plies, from the first engine's short searches with
//! `Variety`, or are just the start position. Every opening is played
//! through the game plugin when it is made, so a bad line is reported
//! before the first game and never reaches an engine.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use plyd_host::{GameState, VariantRef};

use crate::args::EngineSpec;
use crate::engine::{Answer, EngineProcess, HANDSHAKE_TIMEOUT};
use crate::interrupt::Cancel;

use plyd_util::rng::SplitMix64;

/// Stream number of the random-opening generator (see [`SplitMix64::for_item`]).
const OPENING_STREAM: u64 = 1;
/// How many times a random opening is drawn again when the game ends
/// before its last ply.
const RANDOM_ATTEMPTS: u32 = 1000;
/// `Variety` of `variety:N` openings where the source names none, in the
/// units of `score cp` (in Othello, where plyd scores a disc 100, under a
/// third of a disc).
pub const DEFAULT_VARIETY_MARGIN: u32 = 30;
/// The search behind each move of a `variety:N` opening: a node count, so
/// that one thread gives the same openings on any machine and at any load.
pub const VARIETY_NODES: u64 = 20_000;
/// How many seeds a `variety:N` opening tries before giving up when the
/// games it plays end before its last ply.
const VARIETY_ATTEMPTS: u32 = 20;
/// How many times a random opening that repeats an earlier pair's is
/// drawn again before it is kept all the same (a game with few lines of
/// that many plies).
const DISTINCT_RANDOM_ATTEMPTS: u32 = 100;
/// The same for `variety:N` openings, each try a game of searches.
const DISTINCT_VARIETY_ATTEMPTS: u32 = 8;
/// The largest `VarietySeed` plyd takes.
const VARIETY_SEED_LIMIT: u64 = 1 << 30;

/// Where a game starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Start {
    /// The variant's start position (`position startpos`).
    StartPos,
    /// A position text (`position fen <text>`).
    Fen(String),
}

/// One opening: a start and the moves played from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// Where it came from, for the game log (`book.txt:12`, `random 6 plies`).
    pub label: String,
    /// The start.
    pub start: Start,
    /// Moves from the start, in the plugin's canonical spelling.
    pub moves: Vec<String>,
}

/// What `--openings` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game from the start position.
    StartPos,
    /// Openings from a file, one a line, used in order and repeated.
    File(std::path::PathBuf),
    /// This many random legal plies from the start, a fresh opening per pair.
    Random(u32),
    /// This many plies from the start chosen by the first engine's short
    /// searches with `Variety` (a seeded bonus of up to `margin` points
    /// on each root move), a fresh opening per pair.
    Variety {
        /// Plies per opening.
        plies: u32,
        /// The engine's `Variety`, in `score cp` points.
        margin: u32,
    },
}

/// Why an `--openings` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningSourceError {
    /// `random:N` where N is not a whole number.
    #[error("--openings: 'random:{plies}' needs a whole number of plies")]
    BadPlies {
        /// The text after `random:`.
        plies: String,
    },
    /// `variety:N[:MARGIN]` where N or MARGIN is not a whole number.
    #[error("--openings: 'variety:{text}' needs a whole number of plies and optionally ':MARGIN' (score points)")]
    BadVariety {
        /// The text after `variety:`.
        text: String,
    },
    /// `file:` with nothing after it (or an empty value).
    #[error("--openings: the file name is missing")]
    MissingFile,
}

impl OpeningSource {
    /// Read `startpos`, `random:N`, `variety:N[:MARGIN]` or `file:PATH` (a
    /// bare path means a file).
    pub fn parse(text: &str) -> Result<Self, OpeningSourceError> {
        if text == "startpos" {
            Ok(OpeningSource::StartPos)
        } else if let Some(n) = text.strip_prefix("random:") {
            n.trim()
                .parse()
                .map(OpeningSource::Random)
                .map_err(|_| OpeningSourceError::BadPlies {
                    plies: n.to_string(),
                })
        } else if let Some(rest) = text.strip_prefix("variety:") {
            let bad = || OpeningSourceError::BadVariety {
                text: rest.to_string(),
            };
            let (plies, margin) = match rest.split_once(':') {
                Some((plies, margin)) => (plies, Some(margin)),
                None => (rest, None),
            };
            let plies = plies.trim().parse().map_err(|_| bad())?;
            let margin = match margin {
                Some(m) => m.trim().parse().map_err(|_| bad())?,
                None => DEFAULT_VARIETY_MARGIN,
            };
            Ok(OpeningSource::Variety { plies, margin })
        } else {
            let path = text.strip_prefix("file:").unwrap_or(text);
            if path.is_empty() {
                return Err(OpeningSourceError::MissingFile);
            }
            Ok(OpeningSource::File(path.into()))
        }
    }
}

impl fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::StartPos => f.write_str("startpos"),
            OpeningSource::File(path) => write!(f, "file:{}", path.display()),
            OpeningSource::Random(n) => write!(f, "random:{n}"),
            OpeningSource::Variety { plies, margin } => write!(f, "variety:{plies}:{margin}"),
        }
    }
}

/// The openings for `pairs` pairs of games, one per pair. `engine` (the
/// match's first engine) plays `variety:N` openings; `cancel` ends that
/// early.
pub fn prepare(
    source: &OpeningSource,
    variant: &VariantRef,
    pairs: usize,
    seed: u64,
    engine: &EngineSpec,
    cancel: &Cancel,
) -> Result<Vec<Opening>, String> {
    match source {
        OpeningSource::StartPos => Ok(vec![
            Opening {
                label: "startpos".to_string(),
                start: Start::StartPos,
                moves: Vec::new(),
            };
            pairs
        ]),
        OpeningSource::File(path) => {
            let book = load_file(path, variant)?;
            Ok(book.iter().cycle().take(pairs).cloned().collect())
        }
        OpeningSource::Random(plies) => {
            let mut seen = HashSet::new();
            (0..pairs)
                .map(|pair| {
                    let mut rng = SplitMix64::for_item(seed, OPENING_STREAM, pair as u64);
                    distinct(&mut seen, DISTINCT_RANDOM_ATTEMPTS, || {
                        random_opening(variant, *plies, &mut rng)
                    })
                })
                .collect()
        }
        OpeningSource::Variety { plies, margin } => {
            variety_openings(engine, variant, *plies, *margin, pairs, seed, cancel)
        }
    }
}

/// An opening drawn by `draw` whose moves no earlier one in `seen` has,
/// drawn again up to `attempts` times; the last drawn if none is new.
fn distinct(
    seen: &mut HashSet<Vec<String>>,
    attempts: u32,
    mut draw: impl FnMut() -> Result<Opening, String>,
) -> Result<Opening, String> {
    let mut opening = draw()?;
    for _ in 0..attempts {
        if !seen.contains(&opening.moves) {
            break;
        }
        opening = draw()?;
    }
    seen.insert(opening.moves.clone());
    Ok(opening)
}

/// How many of `openings` repeat an earlier one's start and moves.
pub fn repeats(openings: &[Opening]) -> usize {
    let mut seen = HashSet::new();
    openings
        .iter()
        .filter(|o| !seen.insert((&o.start, &o.moves)))
        .count()
}

/// Read an openings file. Each line that is not blank or a `#` comment is
/// one opening: `startpos [moves ...]`, `fen <text> [moves ...]`, or a bare
/// position text with optional `moves ...`; a leading `position` is
/// allowed, so lines copied from a game log work.
pub fn load_file(path: &Path, variant: &VariantRef) -> Result<Vec<Opening>, String> {
    let text = plyd_util::files::read_text(path, crate::FILE_LIMIT)
        .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let label = format!("{}:{}", path.display(), i + 1);
        let opening =
            parse_line(line, label.clone(), variant).map_err(|e| format!("{label}: {e}"))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!("openings file {} has no openings", path.display()));
    }
    Ok(openings)
}

/// Read one opening line and check it by playing it.
fn parse_line(line: &str, label: String, variant: &VariantRef) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let words = match words.first() {
        Some(&"position") => &words[1..],
        _ => &words[..],
    };
    let split = words.iter().position(|&w| w == "moves");
    let (head, moves) = match split {
        Some(at) => (&words[..at], &words[at + 1..]),
        None => (words, &[][..]),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["fen", text @ ..] if !text.is_empty() => Start::Fen(text.join(" ")),
        [] | ["fen"] => return Err("no position before 'moves'".to_string()),
        text => Start::Fen(text.join(" ")),
    };
    let mut opening = Opening {
        label,
        start,
        moves: Vec::new(),
    };
    let mut state = opening.start_state(variant)?;
    for text in moves {
        let canonical = play_text(&mut state, text)?;
        opening.moves.push(canonical);
    }
    Ok(opening)
}

/// Play `plies` random plies from the start: legal moves chosen uniformly,
/// chance outcomes by their weights. A draw that ends the game early is
/// thrown away and drawn again.
fn random_opening(
    variant: &VariantRef,
    plies: u32,
    rng: &mut SplitMix64,
) -> Result<Opening, String> {
    let mut moves = Vec::new();
    let mut chance = Vec::new();
    'attempt: for _ in 0..RANDOM_ATTEMPTS {
        let mut state =
            GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
        let mut texts = Vec::new();
        for _ in 0..plies {
            state
                .chance_outcomes(&mut chance)
                .map_err(|e| e.to_string())?;
            let mv = if chance.is_empty() {
                state.legal_moves(&mut moves).map_err(|e| e.to_string())?;
                if moves.is_empty() {
                    continue 'attempt;
                }
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                draw_outcome(&chance, rng)?
            };
            texts.push(state.format_move(mv).map_err(|e| e.to_string())?);
            state.make_move(mv).map_err(|e| e.to_string())?;
        }
        return Ok(Opening {
            label: format!("random {plies} plies"),
            start: Start::StartPos,
            moves: texts,
        });
    }
    Err(format!(
        "no random opening of {plies} plies found in {RANDOM_ATTEMPTS} tries: games end sooner"
    ))
}

/// A chance node's outcome (a move token), drawn by the plugin's weights.
fn draw_outcome(chance: &[(u32, u32)], rng: &mut SplitMix64) -> Result<u32, String> {
    let weights: Vec<u32> = chance.iter().map(|&(_, w)| w).collect();
    let pick = rng
        .pick_weighted(&weights)
        .ok_or("the plugin gave a chance node whose weights are all zero")?;
    Ok(chance[pick].0)
}

/// Options the arena sets itself on the engine playing `variety:N`
/// openings: `SearchMode` too, since `Variety` applies to the alpha-beta
/// search only (a first engine in the Monte-Carlo mode gave every pair
/// one opening).
const VARIETY_OPTIONS: [&str; 4] = ["Threads", "Variety", "VarietySeed", "SearchMode"];

/// `pairs` openings of `plies` plies, each played by one process of
/// `engine` set to one thread and `Variety` `margin`, with a `VarietySeed`
/// drawn for the pair and `VARIETY_NODES` nodes a move: the same command
/// gives the same openings. Chance outcomes are drawn by the arena, as in
/// games. A seed whose game ends before the last ply is replaced by another.
fn variety_openings(
    engine: &EngineSpec,
    variant: &VariantRef,
    plies: u32,
    margin: u32,
    pairs: usize,
    seed: u64,
    cancel: &Cancel,
) -> Result<Vec<Opening>, String> {
    let mut spec = engine.clone();
    spec.options
        .retain(|(name, _)| !VARIETY_OPTIONS.iter().any(|o| name.eq_ignore_ascii_case(o)));
    spec.options.push(("Threads".to_string(), "1".to_string()));
    spec.options
        .push(("Variety".to_string(), margin.to_string()));
    if engine
        .options
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("SearchMode"))
    {
        spec.options
            .push(("SearchMode".to_string(), "pvs".to_string()));
    }
    let failed = |e: String| format!("variety openings by engine {}: {e}", engine.name);
    let mut process =
        EngineProcess::start(&spec, variant.name(), cancel).map_err(|e| failed(e.to_string()))?;
    // Without a margin every pair's opening is the engine's own line.
    let attempts = if margin == 0 {
        0
    } else {
        DISTINCT_VARIETY_ATTEMPTS
    };
    let mut seen = HashSet::new();
    let openings = (0..pairs)
        .map(|pair| {
            let mut rng = SplitMix64::for_item(seed, OPENING_STREAM, pair as u64);
            distinct(&mut seen, attempts, || {
                variety_opening(&mut process, variant, plies, &mut rng)
            })
            .map_err(failed)
        })
        .collect();
    process.quit();
    openings
}

/// One `variety:N` opening (see [`variety_openings`]).
fn variety_opening(
    process: &mut EngineProcess,
    variant: &VariantRef,
    plies: u32,
    rng: &mut SplitMix64,
) -> Result<Opening, String> {
    let go = format!("go nodes {VARIETY_NODES}");
    let mut chance = Vec::new();
    'attempt: for _ in 0..VARIETY_ATTEMPTS {
        let variety_seed = 1 + rng.below(VARIETY_SEED_LIMIT - 1);
        process.new_game().map_err(|e| e.to_string())?;
        process
            .set_option("VarietySeed", &variety_seed.to_string())
            .map_err(|e| e.to_string())?;
        let mut state =
            GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
        let mut texts: Vec<String> = Vec::new();
        for _ in 0..plies {
            state
                .chance_outcomes(&mut chance)
                .map_err(|e| e.to_string())?;
            let position = position_command(&Start::StartPos, &texts);
            let text = if chance.is_empty() {
                if state.count_moves().map_err(|e| e.to_string())? == 0 {
                    continue 'attempt;
                }
                match process.go(&position, &go, HANDSHAKE_TIMEOUT) {
                    Answer::BestMove {
                        text: Some(text), ..
                    } => text,
                    Answer::BestMove { text: None, .. } => {
                        return Err(format!("'bestmove' without a move after '{position}'"))
                    }
                    Answer::Timeout { waited } => {
                        return Err(format!(
                            "no 'bestmove' within {} s after '{position}'",
                            waited.as_secs()
                        ))
                    }
                    Answer::Died { what } => return Err(format!("stopped: {what}")),
                    Answer::PluginFailed { what } => {
                        return Err(format!("a plugin failed: {what}"))
                    }
                    Answer::Interrupted => return Err("interrupted".to_string()),
                }
            } else {
                let outcome = draw_outcome(&chance, rng)?;
                state.format_move(outcome).map_err(|e| e.to_string())?
            };
            let canonical = play_text(&mut state, &text)
                .map_err(|e| format!("its move '{text}' after '{position}': {e}"))?;
            texts.push(canonical);
        }
        return Ok(Opening {
            label: format!("variety {plies} plies, seed {variety_seed}"),
            start: Start::StartPos,
            moves: texts,
        });
    }
    Err(format!(
        "no opening of {plies} plies in {VARIETY_ATTEMPTS} seeds: games end sooner"
    ))
}

impl Opening {
    /// A state at the opening's start, before its moves.
    pub fn start_state(&self, variant: &VariantRef) -> Result<GameState, String> {
        let mut state =
            GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
        if let Start::Fen(text) = &self.start {
            state
                .set_position(text)
                .map_err(|e| format!("bad position '{text}': {e}"))?;
        }
        Ok(state)
    }

    /// A state after the opening's moves.
    pub fn state(&self, variant: &VariantRef) -> Result<GameState, String> {
        let mut state = self.start_state(variant)?;
        for text in &self.moves {
            play_text(&mut state, text)?;
        }
        Ok(state)
    }
}

/// The `position` command for a game from `start` with `moves` played.
pub fn position_command(start: &Start, moves: &[String]) -> String {
    let mut line = match start {
        Start::StartPos => "position startpos".to_string(),
        Start::Fen(text) => format!("position fen {text}"),
    };
    if !moves.is_empty() {
        line.push_str(" moves");
        for mv in moves {
            line.push(' ');
            line.push_str(mv);
        }
    }
    line
}

/// Play the move (or chance outcome) written `text` if it is allowed here,
/// returning its canonical spelling.
pub fn play_text(state: &mut GameState, text: &str) -> Result<String, String> {
    let mut chance = Vec::new();
    state
        .chance_outcomes(&mut chance)
        .map_err(|e| e.to_string())?;
    let mv = if chance.is_empty() {
        state.parse_legal_move(text).map_err(|e| e.to_string())?
    } else {
        let mv = state.parse_move(text).map_err(|e| e.to_string())?;
        if !chance.iter().any(|&(token, _)| token == mv) {
            return Err(format!("'{text}' is not an outcome of this chance node"));
        }
        mv
    };
    let canonical = state.format_move(mv).map_err(|e| e.to_string())?;
    state.make_move(mv).map_err(|e| e.to_string())?;
    Ok(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources() {
        assert_eq!(
            OpeningSource::parse("startpos").unwrap(),
            OpeningSource::StartPos
        );
        assert_eq!(
            OpeningSource::parse("random:6").unwrap(),
            OpeningSource::Random(6)
        );
        assert_eq!(
            OpeningSource::parse("file:a b.txt").unwrap(),
            OpeningSource::File("a b.txt".into())
        );
        assert_eq!(
            OpeningSource::parse("book.txt").unwrap(),
            OpeningSource::File("book.txt".into())
        );
        assert_eq!(
            OpeningSource::parse("random:x"),
            Err(OpeningSourceError::BadPlies { plies: "x".into() })
        );
        assert_eq!(
            OpeningSource::parse("file:"),
            Err(OpeningSourceError::MissingFile)
        );
        assert_eq!(OpeningSource::Random(4).to_string(), "random:4");
        assert_eq!(
            OpeningSource::parse("variety:6").unwrap(),
            OpeningSource::Variety {
                plies: 6,
                margin: DEFAULT_VARIETY_MARGIN
            }
        );
        assert_eq!(
            OpeningSource::parse("variety:4:50").unwrap().to_string(),
            "variety:4:50"
        );
        for bad in [
            "variety:",
            "variety:x",
            "variety:4:",
            "variety:4:-1",
            "variety:4:5:6",
        ] {
            assert_eq!(
                OpeningSource::parse(bad),
                Err(OpeningSourceError::BadVariety {
                    text: bad["variety:".len()..].to_string()
                }),
                "{bad}"
            );
        }
    }

    #[test]
    fn position_commands() {
        assert_eq!(position_command(&Start::StartPos, &[]), "position startpos");
        assert_eq!(
            position_command(
                &Start::Fen("8/8 b".into()),
                &["f5".to_string(), "0000".to_string()]
            ),
            "position fen 8/8 b moves f5 0000"
        );
    }
}
