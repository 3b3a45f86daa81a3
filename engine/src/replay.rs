//! `plyd record FILE...`: the games of community record files (CCGC
//! Amazons or EinStein; GGF, SGF or PGN Othello, Othello transcripts,
//! WTHOR databases; xiangqi PGN, XQF, CBR or CBL) replayed through the game plugin
//! and printed as the `position startpos moves ...` lines that set them up
//! in plyd.
//!
//! Every move is checked against the rules, so a record that does not
//! replay is refused with the move that fails. A forced pass that a GGF
//! record leaves out is added, as Othello servers do. A game that ends by
//! the rules with no move left must end as its result says (and an
//! Othello game on its disc margin, where the record gives one); where
//! moves are left and a repetition rule ends it, the record's result is
//! kept with a note, as is the result of a game that stops before its end
//! (a resignation, a loss on time).

use std::path::Path;

use plyd_arena::community::{othello_discs, othello_margin, record_result};
use plyd_arena::referee::adjudicate;
use plyd_protocol::{
    is_cbl, is_cbr, is_wthor, is_xqf, pgn_variation_count, pgn_variations, position_line_game,
    read_cbl, read_cbl_variations, read_cbr, read_cbr_variations, read_record, read_wthor,
    read_xqf, read_xqf_variations, transcript_moves, write_record, wthor_names, RecordFormat,
    RecordGame, RecordResult, WTHOR_PLAYER, WTHOR_TOURNAMENT,
};

use crate::analysis::{Analyst, Verdict};
use crate::host::{GameState, PluginError, PluginHost, VariantRef};

/// What `plyd record` makes of a file.
#[derive(Debug, Default)]
pub struct Replayed {
    /// Every game that replays, in the file's order: its number in the
    /// file (a game's variations share it), the variant that replayed it
    /// and the record, its moves as played (passes added);
    /// [`position_line`] gives its line.
    pub games: Vec<(usize, String, RecordGame)>,
    /// A line for each game whose result the rules could not check.
    pub notes: Vec<String>,
    /// A line for each record that does not read or replay, or whose
    /// result the rules contradict.
    pub failures: Vec<String>,
    /// The records of the file, those that failed among them: the last
    /// record's number.
    pub records: usize,
}

/// A record file as text, with what was said of it on the way.
#[derive(Debug, Default)]
pub struct RecordText {
    /// The records, as text.
    pub text: String,
    /// Each record's number in the file, where it is not its place in
    /// `text` (a library whose headings or unreadable games are left out
    /// of it, a game's variations, which share its number); empty
    /// otherwise.
    pub numbers: Vec<usize>,
    /// A line for each entry of the file that is not a game.
    pub notes: Vec<String>,
    /// A line for each game of the file that does not read.
    pub failures: Vec<String>,
}

impl RecordText {
    fn plain(text: String) -> RecordText {
        RecordText {
            text,
            ..RecordText::default()
        }
    }
}

/// `text` with its lines ended by `\n` alone: a lone `\r` (the classic
/// Mac's line end) ends a line too, as `\r\n` does. Read as they were, a
/// PGN's `;` comment ran to the end of the file, swallowing every move
/// after it, and a file of moves alone did not read at all.
fn line_ends(text: String) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    }
}

/// A record file's text: UTF-8, or GBK or Big5 as Chinese software writes
/// records (names in a CCGC record, a xiangqi PGN in Chinese notation),
/// without a byte-order mark. Binary databases are given as the text
/// records they hold: an XQF or CBR file (one xiangqi game) and a CBL
/// library (many) as PGN, a WTHOR games file (Othello) as GGF games, its
/// players and tournaments named from the `WTHOR.JOU` and `WTHOR.TRN`
/// files beside `file` where they are. With `variations`, every line of
/// an XQF, CBR or CBL game's move tree, or of a PGN game's, is a game (the
/// main line first), the lines of one game sharing its number.
pub fn record_text(bytes: &[u8], file: &Path, variations: bool) -> Result<RecordText, String> {
    let xiangqi_pgn = RecordFormat::XiangqiPgn {
        ranks_from_one: false,
    };
    // One game's lines (the main line alone without `variations`), all
    // numbered 1, as the file's one game.
    let lines = |games: Vec<RecordGame>| -> Result<RecordText, String> {
        let mut out = RecordText::default();
        for game in &games {
            out.text += &write_record(xiangqi_pgn, game)?;
            out.numbers.push(1);
        }
        Ok(out)
    };
    if is_xqf(bytes) {
        let decode = &plyd_util::files::decode_chinese;
        let games = if variations {
            read_xqf_variations(bytes, decode)
        } else {
            read_xqf(bytes, decode).map(|game| vec![game])
        };
        return lines(games.map_err(|e| format!("XQF: {e}"))?);
    }
    if is_cbr(bytes) {
        let games = if variations {
            read_cbr_variations(bytes)
        } else {
            read_cbr(bytes).map(|game| vec![game])
        };
        return lines(games.map_err(|e| format!("CBR: {e}"))?);
    }
    if is_cbl(bytes) {
        let library = if variations {
            read_cbl_variations(bytes)
        } else {
            read_cbl(bytes)
        }
        .map_err(|e| format!("CBL: {e}"))?;
        let mut out = RecordText::default();
        if library.deleted > 0 {
            let n = library.deleted;
            let games = if n == 1 { "game" } else { "games" };
            out.notes
                .push(format!("the library holds {n} deleted {games}, left out"));
        }
        for (n, title) in library.headings {
            out.notes.push(format!(
                "record {n}: a heading ('{title}'), no piece on its board: not a game"
            ));
        }
        for (n, game) in library.games {
            match game.and_then(|game| write_record(xiangqi_pgn, &game)) {
                Ok(text) => {
                    out.text += &text;
                    out.numbers.push(n);
                }
                Err(e) => out.failures.push(format!("record {n}: CBL: {e}")),
            }
        }
        return Ok(out);
    }
    if is_wthor(bytes) {
        let beside = |name: &str, record: usize| {
            let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
            let entries = std::fs::read_dir(dir.unwrap_or(Path::new("."))).ok()?;
            let path = entries
                .flatten()
                .map(|e| e.path())
                .find(|p| p.file_name().is_some_and(|n| n.eq_ignore_ascii_case(name)))?;
            let bytes = plyd_util::files::read_bytes(&path, crate::RECORD_FILE_LIMIT).ok()?;
            Some(wthor_names(&bytes, record))
        };
        let players = beside("WTHOR.JOU", WTHOR_PLAYER).unwrap_or_default();
        let tournaments = beside("WTHOR.TRN", WTHOR_TOURNAMENT).unwrap_or_default();
        let games = read_wthor(bytes, &players, &tournaments).map_err(|e| format!("WTHOR: {e}"))?;
        let mut text = String::new();
        for game in &games {
            text += &write_record(RecordFormat::Ggf, game)?;
        }
        return Ok(RecordText::plain(text));
    }
    let text = line_ends(plyd_util::files::decode_text(bytes));
    if is_arena_log(&text) {
        return Err(
            "a plyd arena game log (--out), not a game record: the arena writes its games as \
             records with --record FILE, and its match run again with --resume LOG --record FILE \
             writes them from the log without playing a game; --to positions reads it, its \
             scores with its positions"
                .to_string(),
        );
    }
    if !variations {
        // A PGN game's variations are not read: said, not lost unseen.
        let mut out = RecordText::default();
        for (n, record) in split_records(&text).iter().enumerate() {
            let left_out = pgn_variation_count(record);
            if left_out > 0 {
                out.notes.push(format!(
                    "record {}: {} left out (only the main line is read: --variations reads \
                     each line, --tree writes them with --to pgn, pgn-chinese or xqf)",
                    n + 1,
                    crate::counted(left_out, "variation", "variations")
                ));
            }
        }
        out.text = text;
        return Ok(out);
    }
    // A PGN game's variations, each a game numbered as its game.
    let mut out = RecordText::default();
    // The moves of every line given, each counted from the start: the
    // limit a tree file's lines keep to holds for the whole file here
    // too (it held for each game: 8 games of a million moves each took
    // 2.8 GB).
    let mut moves = 0usize;
    for (n, record) in split_records(&text).into_iter().enumerate() {
        let games = pgn_variations(&record)
            .map_err(|e| format!("record {}: {e}", n + 1))?
            .unwrap_or_else(|| vec![record]);
        for game in games {
            moves += game
                .lines()
                .filter(|l| !l.trim_start().starts_with('['))
                .map(|l| l.split_whitespace().count())
                .sum::<usize>();
            if moves > plyd_protocol::LINE_MOVES_LIMIT {
                return Err(format!(
                    "record {}: the file's lines hold more than {} moves in all, each counted \
                     from the start: too many to give (read it without --variations)",
                    n + 1,
                    plyd_protocol::LINE_MOVES_LIMIT
                ));
            }
            out.text += &game;
            out.numbers.push(n + 1);
        }
    }
    Ok(out)
}

/// Whether `game`'s last word is a PGN result (`*`, `1-0`, `0-1`,
/// `1/2-1/2`, Othello's disc counts `34-30`): after a game's moves, what
/// follows is not its moves.
fn ends_with_result(game: &str) -> bool {
    let last = game.split_whitespace().next_back().unwrap_or("");
    let counts = last.split_once('-').is_some_and(|(a, b)| {
        !a.is_empty() && !b.is_empty() && (a.bytes().chain(b.bytes())).all(|c| c.is_ascii_digit())
    });
    matches!(last, "*" | "1/2-1/2") || counts
}

/// Whether a PGN game's text has a line past its tags (its moves).
fn pgn_has_moves(game: &str) -> bool {
    game.lines().any(|l| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('[')
    })
}

/// The records in `text`: one at each `#[` that starts a line, one at
/// each `(;` outside a game's brackets and values (GGF and SGF games may
/// share a line; an SGF variation, `(;` inside a game, belongs to its
/// game), one at each PGN tag line (`[Event "..."]`) that follows a
/// game's moves, and each Othello transcript line (`f5d6c3...`). Text
/// before the first is a record of its own, which does not read.
fn split_records(text: &str) -> Vec<String> {
    let mut records: Vec<String> = Vec::new();
    let mut current = String::new();
    // How deep inside a GGF or SGF game's parentheses, and whether inside
    // one of its `[...]` values; whether inside a PGN game's comment
    // (`{...}`, which may hold lines of any kind).
    let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
    let mut in_comment = false;
    // Whether `current` has a line past a PGN game's tags
    // ([`pgn_has_moves`]), kept as lines are added: looked for in the
    // whole record at every line, a game of 30,000 tags took 16 s.
    let mut has_moves = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        // A line that goes on with a comment starts nothing.
        let continuing = in_comment;
        // A PGN game's moves (not its tags), where `{` opens a comment.
        let game = current.trim_start();
        let pgn_moves =
            game.starts_with('[') && !game.starts_with("#[") && !trimmed.starts_with('[');
        if !in_value && !continuing && trimmed.starts_with("#[") {
            records.push(std::mem::take(&mut current));
            has_moves = false;
            depth = 0;
        }
        // An Othello transcript is a game a line, outside a PGN game's
        // moves (which may be written as bare squares, `F5 D6 C3`): before
        // a PGN game, or after one whose moves ended with its result.
        let in_pgn =
            || current.trim_start().starts_with('[') && !(has_moves && ends_with_result(&current));
        if !in_value
            && !continuing
            && depth == 0
            && (transcript_moves(line).is_some() || position_line_game(line).is_some())
            && !in_pgn()
        {
            records.push(std::mem::take(&mut current));
            has_moves = false;
            records.push(line.to_string());
            continue;
        }
        // A PGN game's tags after the last game's moves start the next.
        if !in_value
            && !continuing
            && depth == 0
            && trimmed.starts_with('[')
            && !trimmed.starts_with("#[")
            && has_moves
        {
            records.push(std::mem::take(&mut current));
            has_moves = false;
        }
        // Where this line's text starts in `current` (0 once a record
        // starts inside it).
        let mut line_start = current.len();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_comment {
                in_comment = c != '}';
            } else if (pgn_moves || continuing) && depth == 0 && c == '{' {
                in_comment = true;
            } else if in_value {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == ']' {
                    in_value = false;
                }
            } else if depth > 0 && c == '[' {
                in_value = true;
            } else if c == '(' && depth > 0 {
                depth += 1;
            } else if c == '(' && chars.peek() == Some(&';') {
                records.push(std::mem::take(&mut current));
                has_moves = false;
                line_start = 0;
                depth = 1;
            } else if c == ')' && depth > 0 {
                depth -= 1;
            }
            current.push(c);
        }
        has_moves |= pgn_has_moves(&current[line_start..]);
    }
    records.push(current);
    records.retain(|r| !r.trim().is_empty());
    records
}

/// Why a record did not replay, and how many of its moves did first.
struct Failure {
    replayed: usize,
    why: String,
}

impl Failure {
    fn at(replayed: usize) -> impl Fn(String) -> Failure {
        move |why| Failure { replayed, why }
    }
}

/// Why move `i` (from 0), `text` in plyd's notation, was refused: the
/// move named as the record wrote it too, where that differs, and counted
/// in plies, both sides' moves (`ply 3 ('炮五进五', e2e7): ...`, Red's
/// second move), as no record numbers its moves one way.
fn refusal(written: &[String], i: usize, text: &str, why: impl std::fmt::Display) -> String {
    let name = match written.get(i) {
        Some(w) if w != text => format!("'{w}', {text}"),
        _ => format!("'{text}'"),
    };
    format!("ply {} ({name}): {why}", i + 1)
}

/// The moves of a replayed record as the plugin writes them (passes the
/// record left out added), and the position they reach.
struct Played {
    played: Vec<String>,
    end: GameState,
    /// For each of the record's moves, how many moves were played up to
    /// it, it included (more than its number where passes were added).
    through: Vec<usize>,
    /// The first position the rules judged before the record's end (a
    /// repetition or move-count verdict, moves still listed, which the
    /// game's arbiter ruled otherwise): the plies played to it and the
    /// verdict in words.
    judged_before_end: Option<(usize, String)>,
}

/// Play `moves` from `start` (the start of `variant` when `None`).
/// `written` holds the moves as the record wrote them, for messages.
fn replay(
    variant: &VariantRef,
    start: Option<&str>,
    moves: &[String],
    written: &[String],
) -> Result<Played, Failure> {
    let text_of = |e: PluginError| e.to_string();
    let mut state = GameState::new(&variant.plugin, variant.index)
        .map_err(text_of)
        .map_err(Failure::at(0))?;
    if let Some(start) = start {
        state
            .set_position(start)
            .map_err(|e| format!("its start '{start}': {e}"))
            .map_err(Failure::at(0))?;
    }
    let mut played = Vec::new();
    let mut through = Vec::with_capacity(moves.len());
    let mut judged_before_end = None;
    for (i, text) in moves.iter().enumerate() {
        let failed = Failure::at(i);
        if judged_before_end.is_none() && i > 0 {
            if let Ok(Some(verdict)) = crate::search::verdict(&state) {
                judged_before_end = Some((played.len(), verdict));
            }
        }
        let mv = match state.parse_legal_move(text) {
            Ok(mv) => mv,
            Err(e) => {
                // A pass the record left out: the only legal move.
                let mut legal = Vec::new();
                state
                    .legal_moves(&mut legal)
                    .map_err(text_of)
                    .map_err(&failed)?;
                let pass = state.parse_move("pass").ok();
                if legal.len() != 1 || pass != Some(legal[0]) {
                    return Err(failed(refusal(written, i, text, e)));
                }
                played.push(
                    state
                        .format_move(legal[0])
                        .map_err(text_of)
                        .map_err(&failed)?,
                );
                state
                    .make_move(legal[0])
                    .map_err(text_of)
                    .map_err(&failed)?;
                state
                    .parse_legal_move(text)
                    .map_err(|e| failed(refusal(written, i, text, e)))?
            }
        };
        played.push(state.format_move(mv).map_err(text_of).map_err(&failed)?);
        state.make_move(mv).map_err(text_of).map_err(&failed)?;
        through.push(played.len());
    }
    Ok(Played {
        played,
        end: state,
        through,
        judged_before_end,
    })
}

/// How the rules end a game: the result, as a record says it, and the
/// rule where the side to move still has moves (a repetition or
/// move-count rule, which an arbiter may rule otherwise).
struct Ending {
    result: RecordResult,
    ruling: Option<String>,
}

/// How the rules end the game at `state`; `None` while it goes on.
fn ending(state: &GameState) -> Result<Option<Ending>, String> {
    let side = state.side_to_move().map_err(|e| e.to_string())?;
    let outcome = state.outcome().map_err(|e| e.to_string())?;
    let Some(result) = adjudicate(outcome, side).map(record_result) else {
        return Ok(None);
    };
    let mut legal = Vec::new();
    state.legal_moves(&mut legal).map_err(|e| e.to_string())?;
    let ruling = if legal.is_empty() {
        None
    } else {
        Some(
            state
                .outcome_reason()
                .map_err(|e| e.to_string())?
                .unwrap_or_else(|| "a repetition or move-count rule".to_string()),
        )
    };
    Ok(Some(Ending { result, ruling }))
}

/// A result in words, the winner named as the game names its sides
/// (xiangqi's Red and Black, Othello's Black and White; the first and
/// second player elsewhere), whoever moved first in the record.
fn result_words(result: RecordResult, variant: &str) -> &'static str {
    match (result, variant) {
        (RecordResult::First, "xiangqi") => "Red won",
        (RecordResult::Second, "xiangqi") => "Black won",
        (RecordResult::First, "othello") => "Black won",
        (RecordResult::Second, "othello") => "White won",
        (RecordResult::First, _) => "the first player won",
        (RecordResult::Second, _) => "the second player won",
        (RecordResult::Draw, _) => "a draw",
        (RecordResult::Unknown, _) => "not known",
    }
}

/// A result as what the game ended as ("a win for Red", "a draw").
fn result_noun(result: RecordResult, variant: &str) -> &'static str {
    match (result, variant) {
        (RecordResult::First, "xiangqi") => "a win for Red",
        (RecordResult::Second, "xiangqi") => "a win for Black",
        (RecordResult::First, "othello") => "a win for Black",
        (RecordResult::Second, "othello") => "a win for White",
        (RecordResult::First, _) => "a win for the first player",
        (RecordResult::Second, _) => "a win for the second player",
        (RecordResult::Draw, _) => "a draw",
        (RecordResult::Unknown, _) => "not known",
    }
}

/// Every game in `text` that replays, and a line for each that does not
/// (a GGS archive mixes in games of other kinds: the others are still
/// given). `game` names the variant when the record's own (`amazons`,
/// `einstein`, `othello`) is not it (`amazons8` for an 8x8 Amazons
/// record).
pub fn replay_records(
    host: &PluginHost,
    text: &RecordText,
    game: Option<&str>,
    unnamed: Option<&str>,
) -> Result<Replayed, String> {
    let mut out = Replayed {
        notes: text.notes.clone(),
        failures: text.failures.clone(),
        records: text.numbers.iter().copied().max().unwrap_or(0),
        ..Replayed::default()
    };
    let records = split_records(&text.text);
    if records.is_empty() && out.failures.is_empty() {
        return Err("no record found".to_string());
    }
    for (i, record) in records.iter().enumerate() {
        // Numbered as the file numbers them.
        let n = text.numbers.get(i).map_or(i, |n| n - 1);
        out.records = out.records.max(n + 1);
        match replay_record(host, record, game, unnamed) {
            Ok(ReplayedGame {
                note,
                variant,
                record,
            }) => {
                out.games.push((n + 1, variant, record));
                if let Some(note) = note {
                    out.notes.push(format!("record {}: {note}", n + 1));
                }
            }
            Err(e) => out.failures.push(format!("record {}: {e}", n + 1)),
        }
    }
    Ok(out)
}

/// The `position` line that sets up `game` in plyd: `position startpos`
/// or `position fen ...`, then its moves.
pub fn position_line(game: &RecordGame) -> String {
    let from = match &game.start {
        Some(start) => format!("position fen {start}"),
        None => "position startpos".to_string(),
    };
    if game.moves.is_empty() {
        from
    } else {
        format!("{from} moves {}", game.moves.join(" "))
    }
}

/// The header of `plyd record --to positions`: one row a ply, its
/// columns separated by tabs.
pub const POSITION_COLUMNS: &str = "game\tply\tposition\tmove\tscore\tdepth\tresult";

/// The rows of `plyd record --to positions` for game `number` of
/// `variant`: for each ply, the position before it (its text), the move
/// played, the mover's score and depth where `scores` (an arena log's
/// `Scores` words, one a ply from `opening_plies` on) give one, and what
/// the game's `result` gave the side to move there: 1, 0.5 or 0, empty
/// where the result is not known. With an `analyst`, the score and depth
/// are its search's, and its [`crate::analysis::ANALYSIS_COLUMNS`] follow
/// (at a chance node, the roll's worth; a move of an arena log's opening
/// is not charged).
pub fn position_rows(
    variant: &VariantRef,
    number: usize,
    game: &RecordGame,
    scores: &[&str],
    opening_plies: usize,
    mut analyst: Option<&mut Analyst<'_>>,
) -> Result<Vec<String>, String> {
    if let Some(analyst) = analyst.as_deref_mut() {
        analyst
            .new_game(variant)
            .map_err(|e| format!("game {number}: {e}"))?;
    }
    let mut rows = Vec::with_capacity(game.moves.len());
    replay_game(variant, number, game, |ply, text, state, mv| {
        let position = state.position_text().map_err(|e| e.to_string())?;
        let side = state.side_to_move().map_err(|e| e.to_string())?;
        let (mut score, mut depth) = ply
            .checked_sub(opening_plies)
            .and_then(|i| scores.get(i))
            .filter(|word| **word != plyd_arena::record::NO_SCORE)
            .map_or((String::new(), String::new()), |word| {
                let (score, depth) = word.split_once('/').unwrap_or((word, ""));
                (score.to_string(), depth.to_string())
            });
        let result = match (game.result, side) {
            (RecordResult::Draw, _) => "0.5",
            (RecordResult::First, 0) | (RecordResult::Second, 1) => "1",
            (RecordResult::First, 1) | (RecordResult::Second, 0) => "0",
            _ => "",
        };
        // An analysis's columns: its own score and depth in their places,
        // the best move, the played move's score and the loss after.
        let mut added = String::new();
        if let Some(analyst) = analyst.as_deref_mut() {
            added = "\t\t\t".to_string();
            score.clear();
            depth.clear();
            // A move of the match's opening (a random one drawn by the
            // arena) is no player's choice: the position is judged, the
            // move is not charged (nor searched).
            let charged = (ply >= opening_plies).then_some(mv);
            if let Some(verdict) = judge_ply(analyst, number, ply, state, charged)? {
                let (s, d, rest) = verdict.columns();
                (score, depth, added) = (s, d, format!("\t{rest}"));
            }
        }
        rows.push(format!(
            "{number}\t{ply}\t{position}\t{text}\t{score}\t{depth}\t{result}{added}"
        ));
        Ok(())
    })?;
    Ok(rows)
}

/// Replay game `number` of `variant` from its start, each move read as
/// legal, `visit` called with the ply, the move's text, the position
/// before it and the move.
fn replay_game<F>(
    variant: &VariantRef,
    number: usize,
    game: &RecordGame,
    mut visit: F,
) -> Result<(), String>
where
    F: FnMut(usize, &str, &GameState, plyd_api::Move) -> Result<(), String>,
{
    let mut state = GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
    if let Some(start) = &game.start {
        state
            .set_position(start)
            .map_err(|e| format!("game {number}: bad position '{start}': {e}"))?;
    }
    for (ply, text) in game.moves.iter().enumerate() {
        let mv = state
            .parse_legal_move(text)
            .map_err(|e| format!("game {number}: ply {} ('{text}'): {e}", ply + 1))?;
        visit(ply, text, &state, mv)?;
        state.make_move(mv).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The analyst's verdict on `mv`, played at `ply` of game `number` (on
/// the position alone where `None`).
fn judge_ply(
    analyst: &mut Analyst<'_>,
    number: usize,
    ply: usize,
    state: &GameState,
    mv: Option<plyd_api::Move>,
) -> Result<Option<Verdict>, String> {
    analyst
        .judge(state, mv)
        .map_err(|e| format!("game {number}: ply {ply}: {e}"))
}

/// The analysis of every ply of game `number` of `variant`: the
/// analyst's verdict on each move played, `None` at a chance node.
pub fn game_verdicts(
    variant: &VariantRef,
    number: usize,
    game: &RecordGame,
    analyst: &mut Analyst<'_>,
) -> Result<Vec<Option<Verdict>>, String> {
    analyst
        .new_game(variant)
        .map_err(|e| format!("game {number}: {e}"))?;
    let mut verdicts = Vec::with_capacity(game.moves.len());
    replay_game(variant, number, game, |ply, _, state, mv| {
        verdicts.push(judge_ply(analyst, number, ply, state, Some(mv))?);
        Ok(())
    })?;
    Ok(verdicts)
}

/// `game` with each analysed move's verdict as a comment after it (`best
/// b2e2 12, played -30, loss 42`; the best move's own: `12, best`), where
/// a record writes comments; the best move in Chinese notation where
/// `chinese` (a xiangqi record written so: `best 炮二平五 12, ...`).
pub fn with_verdicts(
    mut game: RecordGame,
    verdicts: &[Option<Verdict>],
    chinese: bool,
) -> RecordGame {
    for (ply, verdict) in verdicts.iter().enumerate() {
        let Some(v) = verdict else { continue };
        // The best move as the record writes its moves: in Chinese
        // notation for a xiangqi record written so.
        let best = if chinese {
            plyd_protocol::xiangqi_chinese(game.start.as_deref(), &game.moves[..ply], &v.best)
                .unwrap_or_else(|| v.best.clone())
        } else {
            v.best.clone()
        };
        let scored = match v.depth {
            Some(depth) => format!("{}/{depth}", v.score),
            None => "(stopped with no score)".to_string(),
        };
        let text = match &v.loss {
            _ if v.best == game.moves[ply] => format!("{scored}, best"),
            Some(loss) => format!("best {best} {scored}, played {}, loss {loss}", v.played),
            None => format!("best {best} {scored}, played {}", v.played),
        };
        game.comments.push((ply + 1, text));
    }
    // The record's own comments first at each place, in their order.
    game.comments.sort_by_key(|(at, _)| *at);
    game
}

/// The rows of `plyd record --to positions` for every game of the arena
/// log `text` (see [`position_rows`]), with each game's `Scores`, handed
/// to `emit` a game at a time (an analysis of a long log is written as
/// it goes, not lost whole when it is stopped).
pub fn arena_log_rows(
    host: &PluginHost,
    text: &str,
    mut analyst: Option<&mut Analyst<'_>>,
    emit: &mut dyn FnMut(Vec<String>),
) -> Result<(), String> {
    let log = plyd_arena::resume::parse_log(text)?;
    let variant = host.find_variant(&log.header.variant).ok_or_else(|| {
        format!(
            "its games are of {}, which is not loaded",
            log.header.variant
        )
    })?;
    // The referee's game options (`MoveRanks=1-10`, a match against an
    // engine that counts xiangqi's ranks from 1) are how its moves are
    // written.
    for setting in log
        .header
        .game_options
        .as_deref()
        .filter(|o| *o != "none")
        .unwrap_or("")
        .split_whitespace()
    {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("its header's GameOptions word '{setting}' is no NAME=VALUE"))?;
        variant
            .plugin
            .set_option(name, value)
            .map_err(|e| format!("its header's game option {setting}: {e}"))?;
    }
    for raw in &log.games {
        let tag = |name: &str| raw.tags.get(name).map(String::as_str).unwrap_or("");
        let number: usize = tag("Game").parse().unwrap_or(0);
        let mut game = position_line_game(&raw.position)
            .ok_or_else(|| format!("game {number}: its position line does not read"))?;
        game.result = tag("Result")
            .parse()
            .map_or(RecordResult::Unknown, record_result);
        let scores: Vec<&str> = tag(plyd_arena::record::SCORES_TAG)
            .split_whitespace()
            .collect();
        let opening: usize = tag("OpeningPlies").parse().unwrap_or(0);
        emit(position_rows(
            &variant,
            number,
            &game,
            &scores,
            opening,
            analyst.as_deref_mut(),
        )?);
    }
    Ok(())
}

/// Whether `text` (a file's, decoded) is a plyd arena game log.
pub fn is_arena_log(text: &str) -> bool {
    let arena_log = format!("[{} \"", plyd_arena::record::HEADER_TAG);
    text.trim_start_matches('\u{feff}').starts_with(&arena_log)
}

/// One record replayed.
struct ReplayedGame {
    /// A note where the rules could not check its result.
    note: Option<String>,
    /// The variant that replayed it.
    variant: String,
    /// The record, its moves as played.
    record: RecordGame,
}

/// One record replayed: a note, the game as played.
fn replay_record(
    host: &PluginHost,
    record: &str,
    game: Option<&str>,
    unnamed: Option<&str>,
) -> Result<ReplayedGame, String> {
    let (variant_name, game_record) = read_record(record)?;
    // A `position` line is of the game the reader names, or else of the
    // configuration's game.
    let variant_name =
        match (variant_name, game.or(unnamed)) {
            ("", Some(given)) => given,
            ("", None) => return Err(
                "a `position` line names no game: give it with --game (or the config file's game)"
                    .to_string(),
            ),
            (name, _) => name,
        };
    // A game named for another game's record would only fail on its
    // first move: said as it is.
    if let Some(given) = game.filter(|g| !g.starts_with(variant_name)) {
        return Err(format!(
            "a record of {variant_name}, not of {given} (leave --game out, or name a variant of {variant_name})"
        ));
    }
    let mut names = vec![game.unwrap_or(variant_name)];
    // An Amazons record does not say its board: 10x10 first, then 8x8.
    if game.is_none() && variant_name == "amazons" {
        names.push("amazons8");
    }
    // Where every board fails, the one that replayed the most moves
    // names the failure (the first on a tie).
    let mut failure: Option<Failure> = None;
    let mut found = None;
    for name in names {
        let Some(variant) = host.find_variant(name) else {
            failure.get_or_insert(Failure::at(0)(format!("game '{name}' is not loaded")));
            continue;
        };
        match replay(
            &variant,
            game_record.start.as_deref(),
            &game_record.moves,
            &game_record.written,
        ) {
            Ok(moves) => {
                found = Some((name, moves));
                break;
            }
            Err(e) => {
                if failure.as_ref().is_none_or(|f| e.replayed > f.replayed) {
                    failure = Some(e);
                }
            }
        }
    }
    let (
        variant_played,
        Played {
            played: moves,
            end,
            through,
            judged_before_end,
        },
    ) = found.ok_or_else(|| failure.map_or_else(|| "it does not replay".to_string(), |f| f.why))?;
    let stated = game_record.result;
    let ended = ending(&end)?;
    let note = match &ended {
        Some(ruled) if stated != RecordResult::Unknown && ruled.result != stated => {
            let ruled_words = result_noun(ruled.result, variant_played);
            match &ruled.ruling {
                // A repetition ruled otherwise by the game's arbiter: the
                // record's word, noted.
                Some(rule) => Some(format!(
                    "its result ({}) is the record's: plyd's rules would end the game after its {} as {ruled_words} ({rule})",
                    result_words(stated, variant_played),
                    crate::counted(moves.len(), "ply", "plies"),
                )),
                None => {
                    // The rule that ended it, where the game names one
                    // (stalemate, checkmate, a disc count).
                    let why = end
                        .outcome_reason()
                        .ok()
                        .flatten()
                        .map_or_else(String::new, |reason| format!(" ({reason})"));
                    return Err(format!(
                        "its result says {}, but the rules end the game after its {} as {ruled_words}{why}",
                        result_words(stated, variant_played),
                        crate::counted(moves.len(), "ply", "plies"),
                    ));
                }
            }
        }
        None if stated != RecordResult::Unknown => Some(format!(
            "the game has not ended by the rules after its {}; its result ({}) is taken from the record (a resignation, a time loss or an agreement)",
            crate::counted(moves.len(), "ply", "plies"),
            result_words(stated, variant_played)
        )),
        // A result in words no reader knows (a PGN's `1:0`, a CCGC
        // header's `先手弃权`).
        _ if stated == RecordResult::Unknown => game_record.tag("Result").map(|unread| {
            format!(
                "its result '{unread}' is none plyd reads (1-0, 0-1, 1/2-1/2, 红胜, 黑胜, 先手胜, \
                 后手负, 红方认输, 和棋 ...): the result is taken as unknown"
            )
        }),
        _ => None,
    };
    // An Othello record's margin, where the rules ended the game, must be
    // the final position's: with the empty squares counted to the winner
    // (WTHOR, the WOF's rules), or without (the plain disc difference).
    if let (Some(stated), Some(Ending { ruling: None, .. })) = (game_record.margin, &ended) {
        let position = end.position_text().map_err(|e| e.to_string())?;
        if let (Some((black, white)), Some(margin)) =
            (othello_discs(&position), othello_margin(&position))
        {
            if stated != margin && stated != black - white {
                return Err(format!(
                    "its result gives Black a margin of {stated:+}, but the game ends {black}-{white} (Black's margin {margin:+}, the empty squares to the winner)"
                ));
            }
        }
    }
    // The comments are keyed by the record's moves: each goes to the
    // position after the same move played (a pass the record left out
    // before it counted; one past the record's moves, to the end).
    let comments = game_record
        .comments
        .iter()
        .map(|(at, text)| {
            let at = match at.checked_sub(1) {
                None => 0,
                Some(last) => through.get(last).copied().unwrap_or(moves.len()),
            };
            (at, text.clone())
        })
        .collect();
    // A game the rules ended whose record leaves its result out (`?`,
    // `*`, no tag), or an Othello margin out (`B+`, `1-0`): the rules'
    // result and the final margin, as a conversion then writes them.
    let (mut result, mut margin) = (game_record.result, game_record.margin);
    if let Some(Ending {
        result: ruled,
        ruling: None,
    }) = &ended
    {
        if result == RecordResult::Unknown {
            result = *ruled;
        }
        if margin.is_none() && result == *ruled {
            margin = othello_margin(&end.position_text().map_err(|e| e.to_string())?);
        }
    }
    let played = RecordGame {
        moves,
        written: Vec::new(),
        comments,
        result,
        margin,
        ..game_record
    };
    // A game its players (or arbiter) played on past plyd's verdict.
    let judged = judged_before_end.map(|(plies, verdict)| {
        format!(
            "plyd's rules judge the position after its {}: {verdict}; the record plays on to \
             its {} (its arbiter ruled otherwise)",
            crate::counted(plies, "ply", "plies"),
            crate::counted(played.moves.len(), "ply", "plies")
        )
    });
    let note = match (note, judged) {
        (Some(note), Some(judged)) => Some(format!("{note}; {judged}")),
        (note, judged) => note.or(judged),
    };
    Ok(ReplayedGame {
        note,
        variant: variant_played.to_string(),
        record: played,
    })
}

#[cfg(test)]
mod tests {
    use super::split_records;

    #[test]
    fn games_are_split_where_they_start_even_on_one_line() {
        let ggf = "(;GM[Othello]B[F5];)(;GM[Othello]C[a (; in a comment \\] still]B[D3];) (;GM[2];B[fe])\n";
        let records = split_records(ggf);
        assert_eq!(records.len(), 3, "{records:?}");
        assert!(records[1].contains("C[a (; in a comment"), "{records:?}");
        let ccgc = "#[AM][a][b][先手胜][x][y];\n1 d1d7(g7) g10g8(c4)\n#[AM][b][a][后手胜][x][y];\n1 a4a5(a6)\n";
        let records = split_records(ccgc);
        assert_eq!(records.len(), 2, "{records:?}");
        assert!(records[0].ends_with("g10g8(c4)\n"), "{records:?}");
        // Text before the first game is a record of its own (that does
        // not read), not part of the game.
        assert_eq!(split_records("hello\n(;GM[2];B[fe])").len(), 2);
        // An SGF game's variations are its own, not games of their own.
        let sgf = "(;GM[2];B[fe](;W[dd];B[cc])(;W[fd]))\n(;GM[2];B[cd])";
        let records = split_records(sgf);
        assert_eq!(records.len(), 2, "{records:?}");
        assert!(records[0].contains("(;W[fd]))"), "{records:?}");
        // PGN games: the tags after a game's moves start the next one.
        let pgn = "[Game \"Chinese Chess\"]\n[Red \"a\"]\n\n1. H2-E2 H9-G7 *\n\n[Game \"Chinese Chess\"]\n[Red \"b\"]\n\n1. B2-E2 *\n";
        let records = split_records(pgn);
        assert_eq!(records.len(), 2, "{records:?}");
        assert!(
            records[1].starts_with("[Game") && records[1].contains("B2-E2"),
            "{records:?}"
        );
        // A comment's lines are its game's, even one that starts as a tag
        // or a CCGC record does, or is a transcript; the game after it
        // starts at its tags.
        let pgn = "[Game \"Chinese Chess\"]\n\n1. H2-E2 {a\n[Red \"b\"]\n#[AM]\nf5d6c3\n} {\n[x]} H9-G7 *\n\n[Game \"Chinese Chess\"]\n\n1. B2-E2 *\n";
        let records = split_records(pgn);
        assert_eq!(records.len(), 2, "{records:?}");
        assert!(records[0].contains("[x]} H9-G7"), "{records:?}");
        assert!(records[1].contains("B2-E2"), "{records:?}");
        // Othello transcripts, a game a line.
        let records = split_records("f5d6c3\nF5F6E6F4\n\n(;GM[2];B[fe])\n");
        assert_eq!(records.len(), 3, "{records:?}");
        assert_eq!(records[1].trim(), "F5F6E6F4");
        // A PGN game's moves as bare squares are its own, not transcripts.
        let pgn = "[Black \"a\"]\n\nF5 D6 C3 D3\nC4 F4\n\n[Black \"b\"]\n\nf5 f6\n";
        let records = split_records(pgn);
        assert_eq!(records.len(), 2, "{records:?}");
        assert!(records[0].contains("C4 F4"), "{records:?}");
        // After a PGN game's result, a transcript is a game of its own;
        // before the result, or in a comment, it is the game's.
        for (result, games) in [("*", 3), ("34-30", 3), ("1-0", 3), ("", 2)] {
            let pgn = format!("[Black \"a\"]\n\n1. f5 d6 2. c3 {result}\nf5d6c3d3\n\n[Black \"b\"]\n\nf5 {{c\nf5d6\n}} *\n");
            let records = split_records(&pgn);
            assert_eq!(records.len(), games, "{result}: {records:?}");
            assert!(records[games - 1].contains("f5d6\n}"), "{records:?}");
        }
    }

    #[test]
    fn a_pgn_game_ends_with_its_result_after_its_moves() {
        // As `split_records` reads it: moves, then a result.
        let pgn_ended = |game: &str| super::pgn_has_moves(game) && super::ends_with_result(game);
        for ended in [
            "[a \"b\"]\n\n1. f5 *\n",
            "1. f5 1-0",
            "f5 0-1 ",
            "f5 1/2-1/2",
            "f5 34-30\n",
        ] {
            assert!(pgn_ended(ended), "{ended}");
        }
        for going_on in [
            "[Result \"1-0\"]\n",
            "[a \"*\"]\n",
            "1. f5 d6",
            "f5 {1-0}",
            "f5 -1",
            "f5 a-0",
        ] {
            assert!(!pgn_ended(going_on), "{going_on}");
        }
    }
}
