//! The `classic` evaluator, plyd's default for xiangqi: material,
//! piece-square tables mirrored between the colours, mobility of the
//! chariots, horses and cannons, and general safety, each with a
//! middlegame and an endgame weight blended by the material left.
//!
//! The piece-square tables are built by formulas below (centrality and
//! advance, with the few squares every xiangqi player knows singled out),
//! from Red's side; Black reads them with the ranks turned round. The
//! weights are parameters (`classic.toml` next to this crate is the
//! default), so they can be tuned without rebuilding. On top of the
//! formulas, `[psqt.<kind>]` sections may correct single squares: a key
//! names a square of the left half of the board from the piece's own
//! side (`a0` to `e9`: file `a` the edge, `e` the middle file, rank 0 its
//! own back rank), and its `{ mg, eg }` is added there and on the mirror
//! square across the middle file.

use plyd_api::Evaluator;
use plyd_params::{check_range, ParamsError};
use plyd_xiangqi_rules::board::{
    file_of, kind_of, rank_of, square, Position, ADVISOR, CANNON, CHARIOT, ELEPHANT, EMPTY, HORSE,
    KING, PAWN, RANKS, RED, SQUARES,
};
use plyd_xiangqi_rules::Xiangqi;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The default parameters.
pub const DEFAULT_PARAMS: &str = include_str!("../classic.toml");

/// Every score lies within this bound.
pub const SCORE_BOUND: i32 = 20_000;

/// Phase weight of each kind: a full board has 2 * (2*6 + 2*3 + 2*3) = 48.
const PHASE_WEIGHT: [i32; 8] = [0, 0, 0, 0, 3, 6, 3, 0];
const FULL_PHASE: i32 = 48;

/// A middlegame / endgame pair.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pair {
    mg: i32,
    eg: i32,
}

impl Pair {
    /// Both values within `[-limit, limit]`, else the error naming
    /// `key.mg` or `key.eg`.
    fn check(self, key: &str, limit: i32) -> Result<(), String> {
        for (what, v) in [("mg", self.mg), ("eg", self.eg)] {
            check_range(&format!("{key}.{what}"), v, -limit, limit).map_err(err)?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Material {
    advisor: Pair,
    elephant: Pair,
    horse: Pair,
    chariot: Pair,
    cannon: Pair,
    pawn: Pair,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Mobility {
    horse: Pair,
    chariot: Pair,
    cannon: Pair,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Safety {
    /// Per missing advisor or elephant, times the enemy attackers across
    /// the river.
    missing_defender: i32,
    /// Per enemy chariot, horse or cannon across the river.
    attacker_across: i32,
    /// An enemy cannon on the general's file with nothing between.
    open_cannon: i32,
    /// An enemy cannon on the general's file with one screen.
    screened_cannon: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    material: Material,
    mobility: Mobility,
    safety: Safety,
    tables: Tables,
    /// Bonus for the side to move.
    tempo: i32,
    /// Per-square corrections of the tables.
    #[serde(default)]
    psqt: Psqt,
}

/// Per-square corrections of each kind's table: kind name (`horse`), then
/// square name (`a0` to `e9`, from the piece's own side, mirrored across
/// the middle file).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(transparent)]
struct Psqt(BTreeMap<String, BTreeMap<String, Pair>>);

/// Per-square corrections as (mg, eg), `[kind][file 0-4][own rank]`.
type Corrections = Box<[[[(i32, i32); RANKS]; 5]; 8]>;

/// The kinds a `[psqt.<kind>]` section may name.
const PSQT_KINDS: [(&str, u8); 7] = [
    ("general", KING),
    ("advisor", ADVISOR),
    ("elephant", ELEPHANT),
    ("horse", HORSE),
    ("chariot", CHARIOT),
    ("cannon", CANNON),
    ("pawn", PAWN),
];

impl Psqt {
    /// Each kind's corrections, or the first section that names no kind or
    /// key that names no half-board square.
    fn corrections(&self) -> Result<Corrections, String> {
        let mut out = Box::new([[[(0, 0); RANKS]; 5]; 8]);
        for (name, map) in &self.0 {
            let Some(&(_, kind)) = PSQT_KINDS.iter().find(|(k, _)| k == name) else {
                let kinds: Vec<&str> = PSQT_KINDS.iter().map(|(k, _)| *k).collect();
                return Err(format!(
                    "psqt.{name}: not a kind of piece (one of {})",
                    kinds.join(", ")
                ));
            };
            for (key, pair) in map {
                let bytes = key.as_bytes();
                let (file, rank) = match bytes {
                    [f @ b'a'..=b'e', r @ b'0'..=b'9'] => {
                        (usize::from(f - b'a'), usize::from(r - b'0'))
                    }
                    _ => {
                        return Err(format!(
                            "psqt.{name}: '{key}' is not a square of the left half (a0 to e9)"
                        ))
                    }
                };
                pair.check(&format!("psqt.{name}.{key}"), 1000)?;
                if (pair.mg, pair.eg) != (0, 0) && !stands_on(kind, file, rank) {
                    return Err(format!(
                        "psqt.{name}.{key}: a {name} never stands there (its squares of the left half: {})",
                        squares_of(kind)
                    ));
                }
                out[kind as usize][file][rank] = (pair.mg, pair.eg);
            }
        }
        Ok(out)
    }
}

/// Whether a piece of `kind` can stand on `file` (0-4, the left half)
/// and `rank` (0-9, from its own side): the general and advisors keep to
/// the palace, the elephants to their seven points on their own half, and
/// a pawn is never behind its start, nor off its file before the river.
fn stands_on(kind: u8, file: usize, rank: usize) -> bool {
    match kind {
        KING => (3..=4).contains(&file) && rank <= 2,
        ADVISOR => matches!((file, rank), (3, 0) | (4, 1) | (3, 2)),
        ELEPHANT => matches!((file, rank), (2, 0) | (0, 2) | (4, 2) | (2, 4)),
        PAWN => rank >= 5 || ((3..=4).contains(&rank) && file.is_multiple_of(2)),
        _ => true,
    }
}

/// The squares of the left half where [`stands_on`] says a piece of
/// `kind` can stand, named (`d0 d1 d2 e0 e1 e2`).
fn squares_of(kind: u8) -> String {
    let mut names = Vec::new();
    for file in 0..5 {
        for rank in 0..RANKS {
            if stands_on(kind, file, rank) {
                names.push(format!("{}{rank}", char::from(b'a' + file as u8)));
            }
        }
    }
    names.join(" ")
}

/// Scale of each kind's piece-square table, in percent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Tables {
    general: i32,
    advisor: i32,
    elephant: i32,
    horse: i32,
    chariot: i32,
    cannon: i32,
    pawn: i32,
}

/// The evaluator: parameters folded into per-square tables.
pub struct Classic {
    /// Value (material plus table) of each piece code on each square, for
    /// its own side: `[code][square]` as (mg, eg).
    table: Box<[[(i32, i32); SQUARES]; 16]>,
    mobility: [(i32, i32); 8],
    safety: Safety,
    tempo: i32,
}

/// The position part of a piece's value on a square, from its own side
/// (`rank` 0 is its own back rank, `file` 0-8).
fn square_bonus(kind: u8, file: usize, rank: usize) -> (i32, i32) {
    let centre = 4 - file.abs_diff(4) as i32; // 0 on the edge, 4 in the middle
    let r = rank as i32;
    match kind {
        KING => {
            let off_home = (r * 12) + if file == 4 { 0 } else { 8 };
            (-off_home, -off_home / 2)
        }
        ADVISOR if (file, rank) == (4, 1) => (6, 4),
        ELEPHANT => match (file, rank) {
            (4, 2) => (6, 4),
            (0, 2) | (8, 2) => (-4, -2),
            _ => (0, 0),
        },
        HORSE => {
            let advance = [0, 4, 8, 12, 16, 20, 24, 24, 16, 6][rank];
            let edge = if file == 0 || file == 8 { -14 } else { 0 };
            // The horse on its starting square with the leg ahead of it is
            // slow to develop; the palace-corner squares of the enemy
            // ("horse in the palace corner") are strong.
            let corner = if rank == 7 && (file == 3 || file == 5) {
                10
            } else {
                0
            };
            (
                3 * centre + advance + edge + corner,
                2 * centre + advance / 2,
            )
        }
        CHARIOT => {
            let advance = [0, 2, 2, 4, 8, 8, 12, 16, 14, 8][rank];
            let file_bonus = match file {
                3 | 5 => 6,
                4 => 2,
                0 | 8 => -6,
                _ => 0,
            };
            (advance + file_bonus, advance / 2 + centre)
        }
        CANNON => {
            let home = if rank <= 2 && file == 4 { 14 } else { 0 };
            let advance = [0, 0, 2, 2, 2, 4, 6, 4, 6, 8][rank];
            (home + advance + centre, advance / 2 + centre)
        }
        PAWN => {
            if rank < 5 {
                let centre_pawn = if file == 4 && rank >= 3 { 4 } else { 0 };
                (centre_pawn, 0)
            } else {
                // Across the river: stronger towards the palace files and
                // the ranks in front of the palace; the last rank is dead.
                let by_rank = [0, 0, 0, 0, 0, 20, 34, 46, 40, 6][rank];
                let near_palace = if (3..=5).contains(&file) { 12 } else { 0 };
                (
                    by_rank + near_palace + centre * 2,
                    by_rank + 30 + near_palace + centre,
                )
            }
        }
        _ => (0, 0),
    }
}

impl Classic {
    fn build(params: Params) -> Result<Classic, String> {
        let corrections = params.psqt.corrections()?;
        let m = &params.material;
        let value = |kind: u8| -> Pair {
            match kind {
                ADVISOR => m.advisor,
                ELEPHANT => m.elephant,
                HORSE => m.horse,
                CHARIOT => m.chariot,
                CANNON => m.cannon,
                PAWN => m.pawn,
                _ => Pair { mg: 0, eg: 0 },
            }
        };
        let t = &params.tables;
        let percent = [
            0, t.general, t.advisor, t.elephant, t.horse, t.chariot, t.cannon, t.pawn,
        ];
        let mut table = Box::new([[(0, 0); SQUARES]; 16]);
        for kind in KING..=PAWN {
            let v = value(kind);
            let scale = percent[kind as usize];
            for sq in 0..SQUARES {
                let (file, rank) = (file_of(sq), rank_of(sq));
                for color in [RED, 1] {
                    let own_rank = if color == RED { rank } else { RANKS - 1 - rank };
                    let (mg, eg) = square_bonus(kind, file, own_rank);
                    let (cmg, ceg) = corrections[kind as usize][file.min(8 - file)][own_rank];
                    let code = kind | (color as u8) << 3;
                    table[code as usize][sq] =
                        (v.mg + mg * scale / 100 + cmg, v.eg + eg * scale / 100 + ceg);
                }
            }
        }
        let mut mobility = [(0, 0); 8];
        mobility[HORSE as usize] = (params.mobility.horse.mg, params.mobility.horse.eg);
        mobility[CHARIOT as usize] = (params.mobility.chariot.mg, params.mobility.chariot.eg);
        mobility[CANNON as usize] = (params.mobility.cannon.mg, params.mobility.cannon.eg);
        Ok(Classic {
            table,
            mobility,
            safety: params.safety,
            tempo: params.tempo,
        })
    }

    /// Each term for Red, as (mg, eg), and the phase (0 bare, 48 full).
    fn terms(&self, position: &Position) -> ([(i32, i32); 3], i32) {
        let board = &position.board;
        let mut material = [(0, 0); 2];
        let mut mobility = [(0, 0); 2];
        let mut phase = 0;
        let mut defenders = [0; 2];
        let mut across = [0; 2];
        for color in [RED, 1] {
            for sq in position.squares_of(color) {
                let code = board[sq];
                let kind = kind_of(code);
                let (mg, eg) = self.table[code as usize][sq];
                material[color].0 += mg;
                material[color].1 += eg;
                phase += PHASE_WEIGHT[kind as usize];
                match kind {
                    ADVISOR | ELEPHANT => defenders[color] += 1,
                    HORSE | CHARIOT | CANNON => {
                        let crossed = if color == RED {
                            rank_of(sq) >= 5
                        } else {
                            rank_of(sq) <= 4
                        };
                        across[color] += i32::from(crossed);
                        // Squares it can move to or capture on.
                        let mut reach = 0;
                        position.piece_moves(sq, false, &mut |_| reach += 1);
                        let (wm, we) = self.mobility[kind as usize];
                        mobility[color].0 += wm * reach;
                        mobility[color].1 += we * reach;
                    }
                    _ => {}
                }
            }
        }
        let mut safety = [(0, 0); 2];
        for color in [RED, 1] {
            let enemy = color ^ 1;
            let s = &self.safety;
            let missing = 4 - defenders[color];
            let danger =
                missing * s.missing_defender * across[enemy] + s.attacker_across * across[enemy];
            safety[color] = (-danger, -danger / 4);
        }
        let diff = |t: [(i32, i32); 2]| (t[0].0 - t[1].0, t[0].1 - t[1].1);
        (
            [diff(material), diff(mobility), diff(safety)],
            phase.min(FULL_PHASE),
        )
    }

    /// The danger from enemy cannons on `color`'s general's file.
    fn cannon_danger(&self, position: &Position, color: usize) -> i32 {
        cannon_screens(position, color)
            .map(|screens| match screens {
                0 => self.safety.open_cannon,
                1 => self.safety.screened_cannon,
                _ => 0,
            })
            .sum()
    }

    /// Material, mobility and safety for Red, each blended by the phase,
    /// and the phase.
    fn blended(&self, position: &Position) -> ([i32; 3], i32) {
        let ([material, mobility, safety], phase) = self.terms(position);
        let cannons = self.cannon_danger(position, 1) - self.cannon_danger(position, RED);
        (
            [
                Self::blend(material, phase),
                Self::blend(mobility, phase),
                Self::blend(safety, phase) + cannons * phase / FULL_PHASE,
            ],
            phase,
        )
    }

    /// The score of a bare position for its side to move (what
    /// [`Evaluator::evaluate`] returns for a state holding it).
    pub fn score(&self, position: &Position) -> i32 {
        let (terms, _) = self.blended(position);
        let red: i32 = terms.iter().sum();
        let score = if position.side() == RED { red } else { -red } + self.tempo;
        score.clamp(-SCORE_BOUND, SCORE_BOUND)
    }

    fn blend((mg, eg): (i32, i32), phase: i32) -> i32 {
        (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE
    }
}

/// For each enemy cannon on `color`'s general's file, the number of pieces
/// between it and the general.
fn cannon_screens(position: &Position, color: usize) -> impl Iterator<Item = i32> + '_ {
    let king = position.kings[color] as usize;
    let file = file_of(king);
    let cannon = CANNON | ((color ^ 1) as u8) << 3;
    let rank = rank_of(king);
    (0..RANKS).filter_map(move |r| {
        let sq = square(file, r);
        if position.board[sq] != cannon {
            return None;
        }
        let (lo, hi) = if r < rank { (r, rank) } else { (rank, r) };
        let between = (lo + 1..hi)
            .filter(|&x| position.board[square(file, x)] != EMPTY)
            .count();
        Some(between as i32)
    })
}

impl Evaluator for Classic {
    type State = Xiangqi;
    const NAME: &'static str = "classic";
    const DESCRIPTION: &'static str =
        "material, mirrored piece-square tables, mobility and general safety, tapered by phase";
    const GAME: &'static str = "xiangqi";
    const SCORE_BOUND: i32 = SCORE_BOUND;
    const DEFAULT_PARAMS: &'static str = DEFAULT_PARAMS;

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        let params: Params =
            plyd_params::parse(params.unwrap_or(DEFAULT_PARAMS)).map_err(|e| e.to_string())?;
        let t = &params.tables;
        for (key, value) in [
            ("tables.general", t.general),
            ("tables.advisor", t.advisor),
            ("tables.elephant", t.elephant),
            ("tables.horse", t.horse),
            ("tables.chariot", t.chariot),
            ("tables.cannon", t.cannon),
            ("tables.pawn", t.pawn),
        ] {
            check_range(key, value, 0, 1000).map_err(err)?;
        }
        check_range("tempo", params.tempo, -200, 200).map_err(err)?;
        // Bounded so that no sum over a board can overflow (a chariot of
        // 400,000,000 turned the score's sign).
        let (m, mob, s) = (&params.material, &params.mobility, &params.safety);
        for (key, pair, limit) in [
            ("material.advisor", m.advisor, 10_000),
            ("material.elephant", m.elephant, 10_000),
            ("material.horse", m.horse, 10_000),
            ("material.chariot", m.chariot, 10_000),
            ("material.cannon", m.cannon, 10_000),
            ("material.pawn", m.pawn, 10_000),
            ("mobility.horse", mob.horse, 1_000),
            ("mobility.chariot", mob.chariot, 1_000),
            ("mobility.cannon", mob.cannon, 1_000),
        ] {
            pair.check(key, limit)?;
        }
        for (key, value) in [
            ("safety.missing_defender", s.missing_defender),
            ("safety.attacker_across", s.attacker_across),
            ("safety.open_cannon", s.open_cannon),
            ("safety.screened_cannon", s.screened_cannon),
        ] {
            check_range(key, value, -1_000, 1_000).map_err(err)?;
        }
        Classic::build(params)
    }

    fn evaluate(&self, state: &Xiangqi) -> i32 {
        self.score(state.position())
    }

    fn explain(&self, state: &Xiangqi) -> Vec<(String, f64)> {
        let position = state.position();
        let ([material, mobility, safety], phase) = self.blended(position);
        let sign = if position.side() == RED { 1 } else { -1 };
        let mut lines = vec![("phase".to_string(), f64::from(phase))];
        for (name, value) in [
            ("material", material),
            ("mobility", mobility),
            ("safety", safety),
        ] {
            lines.push((name.to_string(), f64::from(sign * value)));
        }
        lines.push(("tempo".to_string(), f64::from(self.tempo)));
        lines.push(("total".to_string(), f64::from(self.evaluate(state))));
        lines
    }
}

fn err(e: ParamsError) -> String {
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_mirror_between_the_colours() {
        let e = Classic::from_params(None).unwrap();
        for kind in KING..=PAWN {
            for sq in 0..SQUARES {
                let mirror = square(file_of(sq), RANKS - 1 - rank_of(sq));
                assert_eq!(
                    e.table[kind as usize][sq],
                    e.table[(kind | 8) as usize][mirror]
                );
            }
        }
    }

    #[test]
    fn weights_past_their_bounds_are_refused_by_key() {
        for (from, to, message) in [
            (
                "chariot = { mg = 1650, eg = 1239 }",
                "chariot = { mg = 1650, eg = 400000000 }",
                "key 'material.chariot.eg': 400000000 is outside [-10000, 10000]",
            ),
            (
                "horse = { mg = 24, eg = -15 }",
                "horse = { mg = 2400, eg = -15 }",
                "key 'mobility.horse.mg': 2400 is outside [-1000, 1000]",
            ),
        ] {
            assert!(DEFAULT_PARAMS.contains(from), "{from}");
            let text = DEFAULT_PARAMS.replacen(from, to, 1);
            assert_eq!(
                Classic::from_params(Some(&text)).err().as_deref(),
                Some(message)
            );
        }
    }

    /// A `[psqt.<kind>]` entry adds to its square and the mirror square,
    /// for Red and (ranks turned round) for Black, and nowhere else; a key
    /// that names no half-board square, or a section no kind, is refused.
    #[test]
    fn a_square_correction_lands_on_its_square_and_its_mirror() {
        // The shipped weights without their corrections, then with one.
        let base = &DEFAULT_PARAMS[..DEFAULT_PARAMS.find("\n[psqt.").unwrap()];
        let plain = Classic::from_params(Some(base)).unwrap();
        let text = format!("{base}\n[psqt.horse]\nb7 = {{ mg = 30, eg = -12 }}\n");
        let corrected = Classic::from_params(Some(&text)).unwrap();
        for code in 0..16usize {
            for sq in 0..SQUARES {
                let (file, rank) = (file_of(sq), rank_of(sq));
                let own_rank = if code & 8 == 0 {
                    rank
                } else {
                    RANKS - 1 - rank
                };
                let hit = code & 7 == HORSE as usize && (file == 1 || file == 7) && own_rank == 7;
                let (mg, eg) = plain.table[code][sq];
                let expected = if hit { (mg + 30, eg - 12) } else { (mg, eg) };
                assert_eq!(
                    corrected.table[code][sq], expected,
                    "code {code} square {sq}"
                );
            }
        }
        for bad in ["f7", "b", "a10", "z0"] {
            let text = format!("{base}\n[psqt.horse]\n{bad} = {{ mg = 1, eg = 1 }}\n");
            let e = Classic::from_params(Some(&text)).err().expect("refused");
            assert!(e.contains(bad), "{e}");
        }
        let text = format!("{base}\n[psqt.dragon]\nb7 = {{ mg = 1, eg = 1 }}\n");
        let e = Classic::from_params(Some(&text)).err().expect("refused");
        assert!(e.contains("psqt.dragon"), "{e}");
        // A correction where the piece never stands would do nothing:
        // refused, naming the squares it has; a zero there is no
        // correction at all.
        for (kind, square) in [
            ("general", "a9"),
            ("general", "d3"),
            ("advisor", "e0"),
            ("elephant", "c2"),
            ("pawn", "a1"),
            ("pawn", "b3"),
        ] {
            let text = format!("{base}\n[psqt.{kind}]\n{square} = {{ mg = 5, eg = 0 }}\n");
            let e = Classic::from_params(Some(&text)).err().expect("refused");
            assert!(
                e.contains(&format!(
                    "psqt.{kind}.{square}: a {kind} never stands there"
                )),
                "{e}"
            );
            let zero = format!("{base}\n[psqt.{kind}]\n{square} = {{ mg = 0, eg = 0 }}\n");
            assert!(Classic::from_params(Some(&zero)).is_ok(), "{kind} {square}");
        }
        for (kind, square) in [
            ("general", "e2"),
            ("advisor", "e1"),
            ("elephant", "c4"),
            ("pawn", "c4"),
            ("pawn", "b5"),
        ] {
            let text = format!("{base}\n[psqt.{kind}]\n{square} = {{ mg = 5, eg = 0 }}\n");
            assert!(Classic::from_params(Some(&text)).is_ok(), "{kind} {square}");
        }
    }
}
