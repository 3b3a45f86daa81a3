//! `plyd record FILE`: the games of a community record file (CCGC Amazons
//! or EinStein, GGF or SGF Othello) replayed through the game plugin and printed
//! as the `position startpos moves ...` lines that set them up in plyd.
//!
//! Every move is checked against the rules, so a record that does not
//! replay is refused with the move that fails. A forced pass that a GGF
//! record leaves out is added, as Othello servers do.

use plyd_protocol::read_record;

use crate::host::{GameState, PluginHost, VariantRef};

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
/// writes them.
fn replay(variant: &VariantRef, moves: &[String]) -> Result<Vec<String>, String> {
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
    Ok(played)
}

/// The `position` line of every game in `text`. `game` names the variant
/// when the record's own (`amazons`, `einstein`, `othello`) is not it
/// (`amazons8` for an 8x8 Amazons record).
pub fn position_lines(
    host: &PluginHost,
    text: &str,
    game: Option<&str>,
) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
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
        let moves = found.ok_or_else(|| {
            format!(
                "record {}: {}",
                n + 1,
                failure.unwrap_or_else(|| "it does not replay".to_string())
            )
        })?;
        lines.push(if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        });
    }
    if lines.is_empty() {
        return Err("no record found".to_string());
    }
    Ok(lines)
}
