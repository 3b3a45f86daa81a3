//! The search's numbers, for tuners: margins, reductions and the depths
//! at which techniques apply, read from a TOML file (`SearchParams`,
//! `plyd bench --search-params`). Every key may be left out (its default
//! then holds), so a tuner's file names only what it tunes; the defaults
//! are the search's own numbers, the same tree node for node.
//!
//! The search knows no game, so its margins are shares of the evaluator's
//! bound (`score_bound`): `pawn`, `aspiration`, `futility` and
//! `node_probcut` in millionths of it, the other margins in hundredths of
//! that pawn (a two-hundredth of the bound by default: a soldier of
//! xiangqi's `classic`, a disc of Othello's evaluators at 100 a disc).

use serde::Deserialize;

/// The default file, comments included (`plyd params --search`).
pub const DEFAULT_TEXT: &str = include_str!("search_params.toml");

/// The search's tunable numbers (see the module's documentation and
/// `search_params.toml` for each one's meaning and unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchParams {
    /// The search's pawn, in millionths of the evaluator's bound.
    pub pawn: u32,
    /// Half-width of the first aspiration window, in millionths of the
    /// bound.
    pub aspiration: u32,
    /// Reverse futility's margin per ply without `DeepFutility`, in
    /// millionths of the bound.
    pub futility: u32,
    /// Reverse futility's margin per ply with `DeepFutility`, in
    /// hundredths of a pawn.
    pub deep_futility: u32,
    /// The deepest depth of reverse futility with `DeepFutility`.
    pub deep_futility_depth: u32,
    /// Razoring's margin: this, in hundredths of a pawn ...
    pub razor: u32,
    /// ... and this many hundredths per square of the depth.
    pub razor_depth: u32,
    /// `FutilityMoves`' margin: this, in hundredths of a pawn ...
    pub move_futility: u32,
    /// ... and this many per ply of the move's reduced depth.
    pub move_futility_depth: u32,
    /// The deepest reduced depth at which `FutilityMoves` prunes.
    pub futility_moves_depth: u32,
    /// `QsFutility`'s margin, in hundredths of a pawn.
    pub qs_futility: u32,
    /// Null move's reduction: this many plies ...
    pub null_move_base: u32,
    /// ... and a ply more per this many plies of depth.
    pub null_move_divisor: u32,
    /// Late-move reductions, `base + ln(depth) ln(moves) / divisor` plies:
    /// the base in hundredths of a ply ...
    pub lmr_base: u32,
    /// ... and the divisor in hundredths.
    pub lmr_divisor: u32,
    /// `HistoryLMR`: a ply less reduction per this much history.
    pub history_lmr_divisor: u32,
    /// `LMP`: quiet moves searched at depth d before the rest are pruned,
    /// `base + d²` (half that where the node is not improving).
    pub lmp_base: u32,
    /// The deepest depth at which `LMP` prunes.
    pub lmp_depth: u32,
    /// ProbCut's margin above beta, in hundredths of a pawn.
    pub probcut: u32,
    /// `NodeProbCut`'s margin, in millionths of the bound.
    pub node_probcut: u32,
    /// The shallowest depth at which the table's move is tested for a
    /// singular extension.
    pub singular_depth: u32,
    /// How far below the singular bound the other moves must stay for a
    /// double extension, in hundredths of a pawn.
    pub double_extension: u32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            pawn: 5_000,
            aspiration: 10_000,
            futility: 20_000,
            deep_futility: 150,
            deep_futility_depth: 7,
            razor: 225,
            razor_depth: 150,
            move_futility: 300,
            move_futility_depth: 250,
            futility_moves_depth: 8,
            qs_futility: 200,
            null_move_base: 2,
            null_move_divisor: 4,
            lmr_base: 75,
            lmr_divisor: 225,
            history_lmr_divisor: 10_240,
            lmp_base: 3,
            lmp_depth: 8,
            probcut: 100,
            node_probcut: 78_125,
            singular_depth: 6,
            double_extension: 10,
        }
    }
}

/// Each key's least and greatest value.
const RANGES: [(&str, u32, u32); 22] = [
    ("pawn", 1, 1_000_000),
    ("aspiration", 1, 1_000_000),
    ("futility", 1, 1_000_000),
    ("deep_futility", 0, 100_000),
    ("deep_futility_depth", 0, 64),
    ("razor", 0, 100_000),
    ("razor_depth", 0, 100_000),
    ("move_futility", 0, 100_000),
    ("move_futility_depth", 0, 100_000),
    ("futility_moves_depth", 0, 64),
    ("qs_futility", 0, 100_000),
    ("null_move_base", 0, 64),
    ("null_move_divisor", 1, 64),
    ("lmr_base", 0, 6_400),
    ("lmr_divisor", 1, 100_000),
    ("history_lmr_divisor", 1, 1_000_000),
    ("lmp_base", 0, 10_000),
    ("lmp_depth", 0, 64),
    ("probcut", 0, 100_000),
    ("node_probcut", 1, 1_000_000),
    ("singular_depth", 1, 64),
    ("double_extension", 0, 100_000),
];

/// The late-move reductions by depth and move count, in plies.
pub(crate) type LmrTable = [[u8; 64]; 64];

impl SearchParams {
    /// Each key with its value, in the file's order.
    fn values(&self) -> [u32; 22] {
        [
            self.pawn,
            self.aspiration,
            self.futility,
            self.deep_futility,
            self.deep_futility_depth,
            self.razor,
            self.razor_depth,
            self.move_futility,
            self.move_futility_depth,
            self.futility_moves_depth,
            self.qs_futility,
            self.null_move_base,
            self.null_move_divisor,
            self.lmr_base,
            self.lmr_divisor,
            self.history_lmr_divisor,
            self.lmp_base,
            self.lmp_depth,
            self.probcut,
            self.node_probcut,
            self.singular_depth,
            self.double_extension,
        ]
    }

    /// Read a parameter text: one line naming the key where it is refused
    /// (unknown, not a whole number, out of its range).
    pub fn parse(text: &str) -> Result<Self, plyd_params::ParamsError> {
        // A whole number outside a key's range is told with the range,
        // a negative one or one past 2^32 included (which the reader
        // would refuse as no `u32`).
        if let Ok(table) = text.parse::<toml::Table>() {
            for (key, min, max) in RANGES {
                if let Some(toml::Value::Integer(value)) = table.get(key) {
                    if *value < i64::from(min) || *value > i64::from(max) {
                        return Err(plyd_params::ParamsError::at_key(
                            key,
                            format!("{value} is outside [{min}, {max}]"),
                        ));
                    }
                }
            }
        }
        let params: SearchParams = plyd_params::parse(text)?;
        for ((key, min, max), value) in RANGES.iter().zip(params.values()) {
            plyd_params::check_range(key, value, *min, *max)?;
        }
        Ok(params)
    }

    /// Read the file at `path`; the error, one line, names the file.
    pub fn load(path: &std::path::Path) -> Result<Self, String> {
        let text = plyd_util::files::read_text(path, crate::PARAMS_FILE_LIMIT)
            .map_err(|e| format!("search params {}: cannot be read: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("search params {}: {e}", path.display()))
    }

    /// The keys that differ from the defaults, as `key=value` words
    /// joined by spaces (empty: none).
    pub fn changes(&self) -> String {
        RANGES
            .iter()
            .zip(self.values().into_iter().zip(Self::default().values()))
            .filter(|(_, (value, default))| value != default)
            .map(|((key, _, _), (value, _))| format!("{key}={value}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// What a file set, for the line that says it was read: the keys that
    /// differ from the defaults, or `the defaults`.
    pub fn summary(&self) -> String {
        match self.changes() {
            changes if changes.is_empty() => "the defaults".to_string(),
            changes => changes,
        }
    }

    /// `millionths` of `bound`, at least 1.
    pub(crate) fn of_bound(bound: i32, millionths: u32) -> i32 {
        (i64::from(bound) * i64::from(millionths) / 1_000_000).max(1) as i32
    }

    /// `hundredths` of `pawn`, no more than the largest score a margin
    /// needs (beyond it, every margin prunes nothing).
    pub(crate) fn of_pawn(pawn: i32, hundredths: i64) -> i32 {
        (i64::from(pawn) * hundredths / 100).min(i64::from(i32::MAX / 4)) as i32
    }

    /// The search's pawn for an evaluator of `bound`.
    pub(crate) fn pawn_of(&self, bound: i32) -> i32 {
        Self::of_bound(bound, self.pawn)
    }

    /// The late-move reductions: `base + ln(depth) ln(count) / divisor`
    /// plies, rounded down, for depths and move counts from 1 (0 for 0).
    pub(crate) fn lmr_table(&self) -> Box<LmrTable> {
        let base = f64::from(self.lmr_base) / 100.0;
        let divisor = f64::from(self.lmr_divisor) / 100.0;
        let mut table = Box::new([[0u8; 64]; 64]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (count, r) in row.iter_mut().enumerate().skip(1) {
                let value = base + (depth as f64).ln() * (count as f64).ln() / divisor;
                *r = value.clamp(0.0, 255.0) as u8;
            }
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_file_reads_as_the_defaults() {
        assert_eq!(
            SearchParams::parse(DEFAULT_TEXT),
            Ok(SearchParams::default())
        );
        // Every key is in the file, uncommented, with its range.
        for (key, min, max) in RANGES {
            assert!(
                DEFAULT_TEXT
                    .lines()
                    .any(|l| l.split('=').next().map(str::trim) == Some(key)),
                "{key} not in the file"
            );
            assert!(
                DEFAULT_TEXT.contains(&format!("{min} to {max}")),
                "{key}'s range {min} to {max} not said in the file"
            );
        }
        assert_eq!(SearchParams::default().changes(), "");
    }

    #[test]
    fn a_file_names_only_what_it_changes() {
        let p = SearchParams::parse("null_move_base = 3\nlmr_divisor = 200\n").unwrap();
        assert_eq!(p.null_move_base, 3);
        assert_eq!(p.lmr_divisor, 200);
        assert_eq!(p.pawn, SearchParams::default().pawn);
        assert_eq!(p.changes(), "null_move_base=3 lmr_divisor=200");
    }

    #[test]
    fn a_wrong_key_or_value_is_named() {
        let e = SearchParams::parse("null_move = 3\n").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("null_move"), "{e}");
        let e = SearchParams::parse("lmr_divisor = 0\n").unwrap_err();
        assert_eq!(e.to_string(), "key 'lmr_divisor': 0 is outside [1, 100000]");
        let e = SearchParams::parse("pawn = 1.5\n").unwrap_err();
        assert!(e.to_string().starts_with("key 'pawn': expected"), "{e}");
        let e = SearchParams::parse("pawn = -1\n").unwrap_err();
        assert_eq!(e.to_string(), "key 'pawn': -1 is outside [1, 1000000]");
        let e = SearchParams::parse("razor = 99999999999\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "key 'razor': 99999999999 is outside [0, 100000]"
        );
    }

    /// The defaults give the margins the search had as formulas of the
    /// bound, for every bound an evaluator may declare up to 400,000 and
    /// a sample beyond.
    #[test]
    fn the_defaults_are_the_formulas_of_the_bound() {
        let p = SearchParams::default();
        let bounds =
            (1..=400_000).chain((400_000..crate::search::score::EVAL_LIMIT).step_by(9_973));
        for bound in bounds {
            let pawn = (bound / 200).max(1);
            assert_eq!(p.pawn_of(bound), pawn, "{bound}");
            assert_eq!(
                SearchParams::of_bound(bound, p.aspiration),
                (bound / 100).max(1)
            );
            assert_eq!(
                SearchParams::of_bound(bound, p.futility),
                (bound / 50).max(1)
            );
            assert_eq!(
                SearchParams::of_bound(bound, p.node_probcut),
                (bound * 5 / 64).max(1),
                "{bound}"
            );
            assert_eq!(SearchParams::of_pawn(pawn, p.probcut.into()), pawn);
            assert_eq!(
                SearchParams::of_pawn(pawn, p.double_extension.into()).max(1),
                (bound / 2000).max(1)
            );
            assert_eq!(
                SearchParams::of_pawn(pawn, p.deep_futility.into()),
                pawn * 3 / 2
            );
            assert_eq!(SearchParams::of_pawn(pawn, p.qs_futility.into()), 2 * pawn);
            for d in 1..=3i64 {
                let razor = i64::from(p.razor) + i64::from(p.razor_depth) * d * d;
                let d = d as i32;
                assert_eq!(
                    SearchParams::of_pawn(pawn, razor),
                    pawn * (9 + 6 * d * d) / 4
                );
            }
            for d in 0..=8i64 {
                let margin = i64::from(p.move_futility) + i64::from(p.move_futility_depth) * d;
                let d = d as i32;
                assert_eq!(
                    SearchParams::of_pawn(pawn, margin),
                    pawn * (300 + 250 * d) / 100
                );
            }
        }
    }

    #[test]
    fn the_default_reductions_are_the_log_formula() {
        let table = SearchParams::default().lmr_table();
        for depth in 1..64usize {
            for count in 1..64usize {
                let value = 0.75 + (depth as f64).ln() * (count as f64).ln() / 2.25;
                assert_eq!(table[depth][count], value.max(0.0) as u8, "{depth} {count}");
            }
        }
        assert_eq!(table[0], [0; 64]);
    }
}
