//! `--resume FILE`: read back the game log of an interrupted match, so that
//! the match can go on where it stopped.
//!
//! Reading is in two steps. [`parse_log`] reads the text alone: the header,
//! the complete game records, and where the last complete record ends; a
//! record the arena was killed while writing (a last block that does not end
//! in a blank line) is left out, to be played again. [`check_games`] then
//! holds every record against the match the command describes — its number,
//! sides, seed and opening must be those the match would have given it, and
//! its moves must replay through the game plugin to its final position — so
//! a log of another match is refused rather than mixed in.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use plyd_host::{Outcome, VariantRef};
pub use plyd_util::files::same_file;

use crate::openings::{play_text, Opening, Start};
use crate::record::{
    is_count_word, is_score_word, parse_tag, ClosestCall, Ending, GameRecord, GameResult,
    MatchHeader, HEADER_TAG, LEAST_LEFT_TAG, LOG_FORMAT, NODES_TAG, NO_SCORE, SCORES_TAG,
    TIMES_TAG,
};
use crate::referee::adjudicate;

/// The tags every game record has.
const GAME_TAGS: [&str; 12] = [
    "Game",
    "Variant",
    "First",
    "Second",
    "Opening",
    "OpeningPlies",
    "Seed",
    "Plies",
    "Result",
    "Ending",
    "Reason",
    "FinalPosition",
];

/// A game log as read from its text.
#[derive(Debug, Clone)]
pub struct ParsedLog {
    /// The match header.
    pub header: MatchHeader,
    /// The complete game records, in the order of the file.
    pub games: Vec<RawGame>,
    /// Bytes of the file up to the end of the last complete record: where
    /// new games are appended.
    pub complete_len: u64,
    /// The line where a half-written last record starts, if there is one.
    pub half_written_at: Option<usize>,
    /// Bytes of the file as it was read: a log that has another length
    /// once held for writing was written meanwhile.
    pub read_len: u64,
}

/// One game record's tags and `position` line, not yet checked.
#[derive(Debug, Clone)]
pub struct RawGame {
    /// The line the record starts on (from 1).
    pub line: usize,
    /// The tags.
    pub tags: BTreeMap<String, String>,
    /// The `position` command.
    pub position: String,
}

/// Read a game log's text. An `Err` is one line on why it cannot be
/// resumed from (not a game log, or a record broken before its end).
pub fn parse_log(text: &str) -> Result<ParsedLog, String> {
    let mut blocks = Vec::new();
    let mut at = 0;
    let mut line = 1;
    let mut half_written_at = None;
    while at < text.len() {
        // Tolerate extra blank lines between blocks.
        let rest = &text[at..];
        let skipped = rest.len() - rest.trim_start_matches('\n').len();
        line += skipped;
        at += skipped;
        if at == text.len() {
            break;
        }
        match text[at..].find("\n\n") {
            Some(end) => {
                let block = &text[at..at + end];
                blocks.push((line, block));
                line += block.lines().count() + 1;
                at += end + 2;
            }
            None => {
                // The arena writes each record whole and ends it with a
                // blank line; a last block without one was cut short.
                if blocks.is_empty() && !text[at..].starts_with(&format!("[{HEADER_TAG} ")) {
                    return Err(not_a_log());
                }
                if !text[at..].starts_with('[') {
                    return Err(format!("line {line} is neither a tag nor a position line"));
                }
                half_written_at = Some(line);
                break;
            }
        }
    }
    let complete_len = match half_written_at {
        Some(_) => at as u64,
        None => text.len() as u64,
    };
    let mut blocks = blocks.into_iter();
    let Some((_, first)) = blocks.next() else {
        return Err(format!(
            "it holds no complete match header (it should start with [{HEADER_TAG} \"{LOG_FORMAT}\"])"
        ));
    };
    let header = parse_header(first)?;
    let games = blocks
        .map(|(line, block)| parse_game(line, block))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(ParsedLog {
        header,
        games,
        complete_len,
        half_written_at,
        read_len: text.len() as u64,
    })
}

/// The tags of a block that must hold tags only.
fn header_tags(block: &str) -> Option<BTreeMap<String, String>> {
    block
        .lines()
        .map(|l| parse_tag(l).map(|(name, value)| (name.to_string(), value)))
        .collect()
}

/// Why a file is refused when it does not start like a game log.
fn not_a_log() -> String {
    format!(
        "it is not a plyd arena game log (it should start with [{HEADER_TAG} \"{LOG_FORMAT}\"])"
    )
}

fn parse_header(block: &str) -> Result<MatchHeader, String> {
    let first = block.lines().next().and_then(parse_tag);
    match first {
        Some((HEADER_TAG, format)) if format == LOG_FORMAT => {}
        Some((HEADER_TAG, format)) => {
            return Err(format!(
                "its format is '{format}'; this arena reads '{LOG_FORMAT}'"
            ))
        }
        _ => return Err(not_a_log()),
    }
    let tags =
        header_tags(block).ok_or_else(|| "its header has a line that is not a tag".to_string())?;
    let get = |name: &str| {
        tags.get(name)
            .cloned()
            .ok_or_else(|| format!("its header has no {name} tag"))
    };
    let number = |name: &str| -> Result<u64, String> {
        let value = get(name)?;
        value
            .parse()
            .map_err(|_| format!("its header's {name} '{value}' is not a whole number"))
    };
    let max_plies = match get("MaxPlies")?.as_str() {
        "none" => None,
        text => Some(
            text.parse()
                .map_err(|_| format!("its header's MaxPlies '{text}' is not a whole number"))?,
        ),
    };
    Ok(MatchHeader {
        variant: get("Variant")?,
        engines: [get("Engine1")?, get("Engine2")?],
        limits: [get("Limits1")?, get("Limits2")?],
        games: number("Games")? as usize,
        openings: get("Openings")?,
        seed: number("Seed")?,
        max_plies,
        setups: match (tags.get("Setup1"), tags.get("Setup2")) {
            (Some(a), Some(b)) => Some([a.clone(), b.clone()]),
            _ => None,
        },
        game_options: tags.get("GameOptions").cloned(),
        files: match (tags.get("Files1"), tags.get("Files2")) {
            (Some(a), Some(b)) => Some([a.clone(), b.clone()]),
            _ => None,
        },
        sprt: tags.get("Sprt").cloned(),
        openings_file: tags.get("OpeningsFile").cloned(),
        record: tags.get("Record").cloned(),
        build: tags.get("Build").cloned(),
        programs: match (tags.get("Program1"), tags.get("Program2")) {
            (Some(a), Some(b)) => Some([a.clone(), b.clone()]),
            _ => None,
        },
    })
}

fn parse_game(line: usize, block: &str) -> Result<RawGame, String> {
    let broken = |why: &str| format!("the record at line {line} {why}");
    let mut tags = BTreeMap::new();
    let mut position = None;
    for text in block.lines() {
        if position.is_some() {
            return Err(broken("goes on after its position line"));
        }
        if text.starts_with("position ") {
            position = Some(text.to_string());
        } else {
            let (name, value) = parse_tag(text)
                .ok_or_else(|| broken(&format!("has a line that is not a tag: '{text}'")))?;
            tags.insert(name.to_string(), value);
        }
    }
    let position = position.ok_or_else(|| broken("has no position line"))?;
    if let Some(missing) = GAME_TAGS.iter().find(|t| !tags.contains_key(**t)) {
        return Err(broken(&format!("has no {missing} tag")));
    }
    Ok(RawGame {
        line,
        tags,
        position,
    })
}

/// Where a match header read from a log differs from the command's, as one
/// line naming the first difference; `None` when they agree.
/// A log written before the engines' setups were recorded is checked
/// without them.
pub fn header_difference(log: &MatchHeader, command: &MatchHeader) -> Option<String> {
    let in_log = log.tags();
    command
        .tags()
        .into_iter()
        .find_map(|(name, in_command)| {
            // Where the records go may change from run to run, and so may
            // the build (a rebuilt program may go on with a match).
            if matches!(name, "Record" | "Build" | "Program1" | "Program2") {
                return None;
            }
            let in_log = match in_log.iter().find(|(n, _)| *n == name) {
                Some((_, value)) => value.clone(),
                None if name.starts_with("Setup")
                    || name.starts_with("Files")
                    || matches!(name, "GameOptions" | "Sprt" | "OpeningsFile") =>
                {
                    return None
                }
                None => String::new(),
            };
            if in_log == in_command || same_openings_file(name, &in_log, &in_command) {
                return None;
            }
            // A match is made longer by a larger --games: the first pairs'
            // openings and chance outcomes do not depend on the count.
            if name == "Games" && log.games < command.games {
                return None;
            }
            Some(if name == "Games" {
                format!(
                    "it holds a match of {in_log} games, and this command's --games is \
                     {in_command}: a match is not made shorter (a larger --games plays it further)"
                )
            } else if name == "OpeningsFile" {
                format!(
                    "its openings file is not as it was when its games were played: its {name} is \
                     '{in_log}', this command's is '{in_command}' (the games to come would start from \
                     other lines: restore the file, or start a new log)"
                )
            } else if name == "Sprt" {
                format!(
                    "it belongs to another match: its SPRT is '{in_log}', this command's is \
                     '{in_command}' (the rule that stops a match is not changed once games are played)"
                )
            } else if name.starts_with("Files") {
                format!(
                    "an engine's files are not as they were when its games were played: its {name} is '{in_log}', \
                     this command's is '{in_command}' (the games would mix two versions: restore the files, or \
                     start a new log)"
                )
            } else {
                format!(
                    "it belongs to another match: its {name} is '{in_log}', this command's is '{in_command}'"
                )
            })
        })
}

/// Check the log's games against the match: each game's number must be in
/// the match and appear once, and its variant, seed, players by side and
/// opening must be those the match gives that number; its moves must
/// replay through the plugin to the final position it records. Returns the
/// games as records, in the order of the log.
pub fn check_games(
    raw: &[RawGame],
    header: &MatchHeader,
    openings: &[Opening],
    variant: &VariantRef,
) -> Result<Vec<GameRecord>, String> {
    let mut seen = BTreeSet::new();
    let mut games = Vec::new();
    for game in raw {
        let record = check_game(game, header, openings, variant)
            .map_err(|why| format!("the game at line {}: {why}", game.line))?;
        if !seen.insert(record.number) {
            return Err(format!(
                "game {} is in it twice (again at line {})",
                record.number, game.line
            ));
        }
        games.push(record);
    }
    Ok(games)
}

fn check_game(
    game: &RawGame,
    header: &MatchHeader,
    openings: &[Opening],
    variant: &VariantRef,
) -> Result<GameRecord, String> {
    let tag = |name: &str| game.tags[name].as_str();
    let whole = |name: &str| -> Result<u64, String> {
        tag(name)
            .parse()
            .map_err(|_| format!("its {name} '{}' is not a whole number", tag(name)))
    };
    let number = whole("Game")? as usize;
    if number == 0 || number > header.games {
        return Err(format!(
            "game {number} is not in a match of {} games",
            header.games
        ));
    }
    let differs = |what: &str, found: &str, expected: &str| {
        format!("game {number} does not belong to this match: its {what} is '{found}', not '{expected}'")
    };
    if tag("Variant") != header.variant {
        return Err(differs("Variant", tag("Variant"), &header.variant));
    }
    if whole("Seed")? != header.seed {
        return Err(differs("Seed", tag("Seed"), &header.seed.to_string()));
    }
    // Game n (from 0) has the first engine first when n is even.
    let first_engine = (number - 1) % 2;
    let players = [
        header.engines[first_engine].clone(),
        header.engines[1 - first_engine].clone(),
    ];
    for (name, player) in ["First", "Second"].into_iter().zip(&players) {
        if tag(name) != player {
            return Err(differs(name, tag(name), player));
        }
    }
    let (start, moves) = parse_position(&game.position)
        .ok_or_else(|| format!("its position line does not read: '{}'", game.position))?;
    if whole("Plies")? != moves.len() as u64 {
        return Err(format!(
            "its Plies {} is not the {} moves of its position line",
            tag("Plies"),
            moves.len()
        ));
    }
    let opening = &openings[(number - 1) / 2];
    let opening_plies = whole("OpeningPlies")? as usize;
    if !same_opening_label(tag("Opening"), &opening.label)
        || start != opening.start
        || opening_plies != opening.moves.len()
        || !moves.starts_with(&opening.moves)
    {
        return Err(format!(
            "game {number} does not belong to this match: it does not start from the opening this match gives it ({})",
            opening.label
        ));
    }
    let mut state = opening.state(variant)?;
    for (ply, text) in moves.iter().enumerate().skip(opening_plies) {
        play_text(&mut state, text).map_err(|e| format!("move {} '{text}': {e}", ply + 1))?;
    }
    let final_position = state.position_text().map_err(|e| e.to_string())?;
    if final_position != tag("FinalPosition") {
        return Err(format!(
            "its moves end in '{final_position}', not in its FinalPosition '{}'",
            tag("FinalPosition")
        ));
    }
    // The result must be the one its ending gives: the rules' verdict on
    // the final position, a draw at the ply limit, otherwise a loss for the
    // player to move there (whose move was late, illegal or missing).
    let result: GameResult = tag("Result").parse()?;
    let ending: Ending = tag("Ending").parse()?;
    // Logs written before the tag have none.
    let closest = match game.tags.get(LEAST_LEFT_TAG) {
        Some(text) => {
            let closest: ClosestCall = text.parse()?;
            if closest.ply == 0 || closest.ply > moves.len() + 1 {
                return Err(format!(
                    "its {LEAST_LEFT_TAG} is at ply {}, not one of its {} plies",
                    closest.ply,
                    moves.len() + 1
                ));
            }
            Some(closest)
        }
        None => None,
    };
    // Logs written before a tag, and games with nothing to write in it,
    // have none.
    let plies_after = moves.len() - opening_plies;
    let scores = ply_words(
        game,
        SCORES_TAG,
        plies_after,
        is_score_word,
        &format!("a score (like '34/12', '#-3/9' or '{NO_SCORE}')"),
    )?;
    let times = ply_words(
        game,
        TIMES_TAG,
        plies_after,
        is_count_word,
        &format!("milliseconds (a whole number, or '{NO_SCORE}')"),
    )?;
    let nodes = ply_words(
        game,
        NODES_TAG,
        plies_after,
        is_count_word,
        &format!("a node count (a whole number, or '{NO_SCORE}')"),
    )?;
    let side = || state.side_to_move().map_err(|e| e.to_string());
    // A game the rules ended cannot have ended otherwise (a player's late
    // or illegal move would have come before the end).
    if !matches!(ending, Ending::Rules | Ending::MaxPlies)
        && state.outcome().map_err(|e| e.to_string())? != Outcome::Ongoing
    {
        return Err(format!(
            "its ending ({ending}) does not fit its final position, where the rules have ended the game"
        ));
    }
    let expected = match ending {
        Ending::Rules => adjudicate(state.outcome().map_err(|e| e.to_string())?, side()?),
        Ending::MaxPlies => Some(GameResult::Draw),
        _ => Some(GameResult::loss_for(side()?)),
    };
    if expected != Some(result) {
        return Err(format!(
            "its Result {result} is not what its ending ({ending}) gives in its final position"
        ));
    }
    Ok(GameRecord {
        number,
        variant: header.variant.clone(),
        players,
        first_engine,
        opening: opening.label.clone(),
        opening_plies,
        start,
        moves,
        result,
        ending,
        reason: tag("Reason").to_string(),
        final_position,
        seed: header.seed,
        closest,
        scores,
        times,
        nodes,
    })
}

/// The words of a game's tag `name` that holds one word a ply after the
/// opening (`Scores`, `Times`, `Nodes`), each checked by `fits` (`what`
/// says what it must be); none where the game has no such tag.
fn ply_words(
    game: &RawGame,
    name: &str,
    plies: usize,
    fits: fn(&str) -> bool,
    what: &str,
) -> Result<Vec<String>, String> {
    let Some(text) = game.tags.get(name) else {
        return Ok(Vec::new());
    };
    let words: Vec<String> = text.split(' ').map(str::to_string).collect();
    if let Some(bad) = words.iter().find(|w| !fits(w)) {
        return Err(format!("its {name} has '{bad}', not {what}"));
    }
    if words.len() != plies {
        return Err(format!(
            "its {name} has {} words, not one for each of its {plies} plies after the opening",
            words.len(),
        ));
    }
    Ok(words)
}

/// Read a `position startpos|fen <text> [moves ...]` line.
fn parse_position(line: &str) -> Option<(Start, Vec<String>)> {
    let rest = line.strip_prefix("position ")?;
    let (head, moves) = match rest.split_once(" moves ") {
        Some((head, moves)) => (head, moves.split(' ').map(str::to_string).collect()),
        None => (rest, Vec::new()),
    };
    let start = match head {
        "startpos" => Start::StartPos,
        _ => Start::Fen(head.strip_prefix("fen ")?.to_string()),
    };
    Some((start, moves))
}

/// The game numbers (from 0) of a match of `games` games that `done` does
/// not hold, in order.
pub fn pending_games(games: usize, done: &[GameRecord]) -> Vec<usize> {
    let done: BTreeSet<usize> = done.iter().map(|g| g.number - 1).collect();
    (0..games).filter(|n| !done.contains(n)).collect()
}

/// Whether two openings' labels are the same, a file's line (`PATH:LINE`)
/// named by two paths to one file included.
fn same_opening_label(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (a.rsplit_once(':'), b.rsplit_once(':')) {
        (Some((file_a, line_a)), Some((file_b, line_b))) => {
            line_a == line_b && same_file(Path::new(file_a), Path::new(file_b))
        }
        _ => false,
    }
}

/// Whether two `Openings` values are one file named two ways
/// (`file:open.txt` and `file:/here/open.txt`).
fn same_openings_file(tag: &str, a: &str, b: &str) -> bool {
    match (tag, a.strip_prefix("file:"), b.strip_prefix("file:")) {
        ("Openings", Some(a), Some(b)) => same_file(Path::new(a), Path::new(b)),
        _ => false,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::record::{Ending, GameResult};

    fn header() -> MatchHeader {
        MatchHeader {
            variant: "othello".into(),
            engines: ["a".into(), "b \"quoted\"".into()],
            limits: ["depth=2".into(), "depth=1".into()],
            games: 4,
            openings: "startpos".into(),
            seed: 9,
            max_plies: None,
            setups: Some(["none".into(), "option.EvalParams=w.toml".into()]),
            game_options: Some("MoveRanks=1-10".into()),
            files: Some([
                "none".into(),
                "option.EvalParams=w.toml:fnv1a64:00000000000000aa".into(),
            ]),
            sprt: Some("none".into()),
            openings_file: Some("none".into()),
            record: Some("none".into()),
            build: Some("plyd 0.1.0".into()),
            programs: Some(["plyd".into(), "plyd".into()]),
        }
    }

    fn game(number: usize) -> GameRecord {
        GameRecord {
            number,
            variant: "othello".into(),
            players: ["a".into(), "b \"quoted\"".into()],
            first_engine: 0,
            opening: "startpos".into(),
            opening_plies: 0,
            start: Start::StartPos,
            moves: vec!["f5".into(), "d6".into()],
            result: GameResult::Draw,
            ending: Ending::MaxPlies,
            reason: "max plies 2 reached".into(),
            final_position: "x".into(),
            seed: 9,
            closest: None,
            scores: Vec::new(),
            times: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// A log of `games`, as the arena writes one.
    pub(crate) fn log_text(games: &[usize]) -> String {
        let mut out = Vec::new();
        header().write_to(&mut out).unwrap();
        for &n in games {
            game(n).write_to(&mut out).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn reads_back_what_the_arena_writes() {
        let text = log_text(&[1, 3]);
        let log = parse_log(&text).unwrap();
        assert_eq!(log.header, header());
        assert_eq!(log.complete_len, text.len() as u64);
        assert_eq!(log.half_written_at, None);
        assert_eq!(log.games.len(), 2);
        assert_eq!(log.games[1].tags["Game"], "3");
        assert_eq!(log.games[1].tags["Second"], "b \"quoted\"");
        assert_eq!(log.games[0].position, "position startpos moves f5 d6");
        assert_eq!(log.games[0].line, 23);
        assert_eq!(log.games[1].line, 37);
        // A header alone: a match interrupted before its first game.
        assert_eq!(parse_log(&log_text(&[])).unwrap().games.len(), 0);
    }

    #[test]
    fn a_half_written_last_record_is_left_out() {
        let whole = log_text(&[1, 2]);
        let before = log_text(&[1]).len();
        // Cut anywhere inside the second record, even after its position
        // line but before the blank line that ends it.
        for cut in [before + 1, before + 40, whole.len() - 1] {
            let log = parse_log(&whole[..cut]).unwrap();
            assert_eq!(log.games.len(), 1, "cut at {cut}");
            assert_eq!(log.complete_len, before as u64);
            assert_eq!(log.half_written_at, Some(37));
        }
    }

    #[test]
    fn refuses_what_is_not_a_log() {
        let err = |text: &str| parse_log(text).unwrap_err();
        assert!(err("").contains("no complete match header"));
        assert!(err("hello\nworld\n\n").contains("not a plyd arena game log"));
        assert!(err("[Event \"x\"]\n\n").contains("not a plyd arena game log"));
        assert!(err("[Arena \"plyd arena game log 9\"]\n\n").contains("its format is"));
        assert!(err("garbage").contains("not a plyd arena game log"));
        let junk = log_text(&[1]) + "junk";
        assert!(err(&junk).contains("line 37 is neither a tag nor a position line"));
        // A broken record that is not the last one is damage, not a cut.
        let text = log_text(&[1, 2]).replacen("[Plies \"2\"]\n", "", 1);
        assert!(
            err(&text).contains("the record at line 23 has no Plies tag"),
            "{}",
            err(&text)
        );
        let text = log_text(&[1]).replacen("[Seed \"9\"]\n[Plies", "Seed 9\n[Plies", 1);
        assert!(err(&text).contains("not a tag: 'Seed 9'"));
    }

    #[test]
    fn an_openings_file_named_two_ways_is_one_file() {
        let dir = std::env::temp_dir().join(format!("plyd-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("open.txt");
        std::fs::write(&file, "position startpos\n").unwrap();
        let plain = file.display().to_string();
        let dotted = dir.join(".").join("open.txt").display().to_string();
        assert!(same_opening_label(
            &format!("{plain}:3"),
            &format!("{dotted}:3")
        ));
        assert!(!same_opening_label(
            &format!("{plain}:3"),
            &format!("{dotted}:4")
        ));
        assert!(same_openings_file(
            "Openings",
            &format!("file:{plain}"),
            &format!("file:{dotted}")
        ));
        assert!(!same_openings_file(
            "Seed",
            &format!("file:{plain}"),
            &format!("file:{dotted}")
        ));
        assert!(!same_opening_label("random 4 plies", "random 5 plies"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn header_differences_name_the_tag() {
        let mut other = header();
        assert_eq!(header_difference(&header(), &other), None);
        other.seed = 10;
        assert_eq!(
            header_difference(&header(), &other).unwrap(),
            "it belongs to another match: its Seed is '9', this command's is '10'"
        );
        // Another engine option is another match.
        let mut other = header();
        other.setups = Some(["none".into(), "option.EvalParams=v.toml".into()]);
        assert_eq!(
            header_difference(&header(), &other).unwrap(),
            "it belongs to another match: its Setup2 is 'option.EvalParams=w.toml', this command's is 'option.EvalParams=v.toml'"
        );
        // A log from before setups were recorded is checked without them.
        let mut old_log = header();
        old_log.setups = None;
        assert_eq!(header_difference(&old_log, &other), None);
        // The referee's game options are the match's too.
        let mut other = header();
        other.game_options = Some("none".into());
        assert_eq!(
            header_difference(&header(), &other).unwrap(),
            "it belongs to another match: its GameOptions is 'MoveRanks=1-10', this command's is 'none'"
        );
        // A file an engine reads, changed since: told as such.
        let mut other = header();
        other.files = Some([
            "none".into(),
            "option.EvalParams=w.toml:fnv1a64:00000000000000bb".into(),
        ]);
        assert!(header_difference(&header(), &other).unwrap().starts_with(
            "an engine's files are not as they were when its games were played: its Files2 is"
        ));
        // A log from before the files were recorded is checked without them.
        let mut old_log = header();
        old_log.files = None;
        assert_eq!(header_difference(&old_log, &other), None);
        // The setups and files are read back from the header written.
        let mut text = Vec::new();
        header().write_to(&mut text).unwrap();
        let read = parse_header(String::from_utf8(text).unwrap().trim_end()).unwrap();
        assert_eq!(read.setups, header().setups);
        assert_eq!(read.files, header().files);
    }

    #[test]
    fn positions_and_pending_games() {
        assert_eq!(
            parse_position("position fen 8/8 b moves f5 0000"),
            Some((
                Start::Fen("8/8 b".into()),
                vec!["f5".to_string(), "0000".to_string()]
            ))
        );
        assert_eq!(
            parse_position("position startpos"),
            Some((Start::StartPos, vec![]))
        );
        assert_eq!(parse_position("position nowhere"), None);
        assert_eq!(pending_games(5, &[game(2), game(5)]), vec![0, 2, 3]);
    }
}
