//! `plyd record FILE`: the games of a community record file (CCGC Amazons
//! or EinStein, GGF or SGF Othello) replayed through the game plugin and printed
//! as the `position startpos moves ...` lines that set them up in plyd.
//!
//! Every move is checked against the rules, so a record that does not
//! replay is refused with the move that fails. A forced pass that a GGF
//! record leaves out is added, as Othello servers do. A game that ends by
//! the rules must end as its result says; one that stops before (a
//! resignation, a loss on time) keeps the result it states, unchecked.

use plyd_protocol::{read_record, RecordResult};

use crate::host::{GameState, Outcome, PluginHost, VariantRef};

/// What `plyd record` makes of a file.
#[derive(Debug, Default)]
pub struct Replayed {
    /// The `position` line of every game.
    pub lines: Vec<String>,
    /// A line for each game whose result the rules could not check.
    pub notes: Vec<String>,
}

/// The records in `text`, one per `#[` or `(;` that starts a line.
fn split_records(text: &str) -> Vec<String> {
    let mut records: Vec<String> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start_matches('\u{feff}').trim_start();
        if trimmed.starts_with("#[") || trimmed.starts_with("(;") || records.is_empty() {
            records.push(String::new());
        }
        let current = records.last_mut().expect("one record at least");
        current.push_str(line);
        current.push('\n');
    }
    records.retain(|r| !r.trim().is_empty());
    records
}

/// Play `moves` from the start of `variant`; the moves as the plugin
/// writes them, and the position they reach.
fn replay(variant: &VariantRef, moves: &[String]) -> Result<(Vec<String>, GameState), String> {
    let mut state = GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
    let mut played = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = match state.parse_legal_move(text) {
            Ok(mv) => mv,
            Err(e) => {
                // A pass the record left out: the only legal move.
                let mut legal = Vec::new();
                state.legal_moves(&mut legal).map_err(|e| e.to_string())?;
                let pass = state.parse_move("pass").ok();
                if legal.len() != 1 || pass != Some(legal[0]) {
                    return Err(format!("move {} ('{text}'): {e}", i + 1));
                }
                played.push(state.format_move(legal[0]).map_err(|e| e.to_string())?);
                state.make_move(legal[0]).map_err(|e| e.to_string())?;
                state
                    .parse_legal_move(text)
                    .map_err(|e| format!("move {} ('{text}'): {e}", i + 1))?
            }
        };
        played.push(state.format_move(mv).map_err(|e| e.to_string())?);
        state.make_move(mv).map_err(|e| e.to_string())?;
    }
    Ok((played, state))
}

/// How the rules end the game at `state`, as a record says it; `None`
/// while it goes on.
fn ending(state: &GameState) -> Result<Option<RecordResult>, String> {
    let side = state.side_to_move().map_err(|e| e.to_string())?;
    let first_wins = match state.outcome().map_err(|e| e.to_string())? {
        Outcome::Ongoing => return Ok(None),
        Outcome::Draw => return Ok(Some(RecordResult::Draw)),
        Outcome::Win => side == 0,
        Outcome::Loss => side == 1,
    };
    Ok(Some(if first_wins {
        RecordResult::First
    } else {
        RecordResult::Second
    }))
}

fn result_words(result: RecordResult) -> &'static str {
    match result {
        RecordResult::First => "the first player won",
        RecordResult::Second => "the second player won",
        RecordResult::Draw => "a draw",
        RecordResult::Unknown => "not known",
    }
}

/// The `position` line of every game in `text`. `game` names the variant
/// when the record's own (`amazons`, `einstein`, `othello`) is not it
/// (`amazons8` for an 8x8 Amazons record).
pub fn position_lines(
    host: &PluginHost,
    text: &str,
    game: Option<&str>,
) -> Result<Replayed, String> {
    let mut out = Replayed::default();
    for (n, record) in split_records(text).iter().enumerate() {
        let (variant_name, game_record) =
            read_record(record).map_err(|e| format!("record {}: {e}", n + 1))?;
        let mut names = vec![game.unwrap_or(variant_name)];
        // An Amazons record does not say its board: 10x10 first, then 8x8.
        if game.is_none() && variant_name == "amazons" {
            names.push("amazons8");
        }
        let mut failure = None;
        let mut found = None;
        for name in names {
            let Some(variant) = host.find_variant(name) else {
                failure.get_or_insert(format!("game '{name}' is not loaded"));
                continue;
            };
            match replay(&variant, &game_record.moves) {
                Ok(moves) => {
                    found = Some(moves);
                    break;
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        let (moves, end) = found.ok_or_else(|| {
            format!(
                "record {}: {}",
                n + 1,
                failure.unwrap_or_else(|| "it does not replay".to_string())
            )
        })?;
        let stated = game_record.result;
        match ending(&end).map_err(|e| format!("record {}: {e}", n + 1))? {
            Some(ruled) if stated != RecordResult::Unknown && ruled != stated => {
                return Err(format!(
                    "record {}: its result says {}, but the rules end the game after its {} moves with {}",
                    n + 1,
                    result_words(stated),
                    moves.len(),
                    result_words(ruled)
                ));
            }
            None if stated != RecordResult::Unknown => out.notes.push(format!(
                "record {}: the game has not ended by the rules after its {} moves; its result ({}) is the record's word",
                n + 1,
                moves.len(),
                result_words(stated)
            )),
            _ => {}
        }
        out.lines.push(if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        });
    }
    if out.lines.is_empty() {
        return Err("no record found".to_string());
    }
    Ok(out)
}
