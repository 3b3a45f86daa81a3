//! Three or more engines: a round robin, every pair a match of its own
//! (the same settings, openings and seed for each), its games in a log of
//! its own in the `--out` folder, and one table of every engine's games
//! against the rest at the end.
//!
//! A pair that cannot be played (an engine that does not start, a match
//! that breaks off) is said and passed over: the other pairs are played.
//! Run again, the same command goes on from the logs: a pair whose log is
//! there is resumed (a finished one only counted again).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::args::{ArenaArgs, EngineGroups, EngineSpec};
use crate::interrupt::{self, Cancel, INTERRUPTED_STATUS};
use crate::record::{Ending, GameResult};
use crate::report::{endings_list, side_column, sides_line};
use crate::stats::{EloEstimate, Tally};
use crate::{play, say, ArenaError};

/// Play the round robin of `args`' engines; the exit status.
pub(crate) fn run(
    args: &ArenaArgs,
    plugin_dirs: &[PathBuf],
    game: Option<&str>,
    cancel: &Cancel,
) -> ExitCode {
    let refuse = |why: String| {
        say(&format!("plyd arena: {why}"));
        ExitCode::from(2)
    };
    let specs = match args.each_engine() {
        Ok(specs) => specs,
        Err(e) => return refuse(e.to_string()),
    };
    let names = match engine_names(&specs) {
        Ok(names) => names,
        Err(why) => return refuse(why),
    };
    for (flag, given) in [
        ("--resume", args.resume.is_some()),
        ("--sprt", args.sprt.is_some()),
    ] {
        if given {
            return refuse(format!(
                "a round robin ({} engines) takes no {flag}: each pair's log is in the --out \
                 folder, and the same command run again goes on from them",
                names.len()
            ));
        }
    }
    let Some(folder) = args.out.clone() else {
        return refuse(format!(
            "a round robin ({} engines) needs --out FOLDER: each pair's games go to a log of its \
             own there, and the same command run again goes on from them",
            names.len()
        ));
    };
    // `--record DIR` is a folder here: a file a pair, in its game's format.
    let records = match &args.record {
        Some(dir) => {
            let variant = game.unwrap_or(crate::DEFAULT_GAME);
            let Some(format) = plyd_protocol::RecordFormat::for_variant(variant) else {
                return refuse(format!(
                    "--record: no community record format for {variant} (amazons, einstein, \
                     othello, xiangqi)"
                ));
            };
            if let Err(e) = std::fs::create_dir_all(dir) {
                return refuse(format!(
                    "--record {}: {e} (in a round robin --record names a folder, which gets a \
                     file of records a pair)",
                    dir.display()
                ));
            }
            Some((dir.clone(), crate::community::record_extension(format)))
        }
        None => None,
    };
    if let Err(e) = std::fs::create_dir_all(&folder) {
        return refuse(format!("--out {}: {e}", folder.display()));
    }
    // Engines that are one player under other names (a class's copied
    // submission): said before the first pair.
    for warning in crate::args::same_players_warnings(&specs) {
        say(&warning);
    }
    for warning in crate::args::unseeded_draw_warnings(&specs) {
        say(&warning);
    }
    let setup = TableSetup {
        build: &args.build,
        gauntlet: args.gauntlet,
        json: args.json.as_deref(),
    };
    let groups = &args.engines.0;
    // A gauntlet: the first engine against each of the others.
    let pairs: Vec<(usize, usize)> = if args.gauntlet {
        (1..groups.len()).map(|j| (0, j)).collect()
    } else {
        (0..groups.len())
            .flat_map(|i| (i + 1..groups.len()).map(move |j| (i, j)))
            .collect()
    };
    let mut not_played = Vec::new();
    // Pairs whose log this command refused to resume (an engine's files
    // or settings changed since its games: a student's plugin sent in
    // again): their games are another match's, left out of the table.
    let mut stale: Vec<(usize, usize)> = Vec::new();
    // Engines whose set-up failed in a pair (a program that does not
    // start, or answers nothing within the limit): the same failure waits
    // in each of their pairs, which are passed over.
    let mut failed_setup = vec![false; names.len()];
    for (k, &(i, j)) in pairs.iter().enumerate() {
        if let Some(&e) = [i, j].iter().find(|&&e| failed_setup[e]) {
            let why = format!("engine {} could not be set up in an earlier pair", names[e]);
            say(&format!(
                "plyd arena: {} vs {} passed over: {why}",
                names[i], names[j]
            ));
            not_played.push(format!("{} vs {}: {why}", names[i], names[j]));
            continue;
        }
        // A pair begun with its engines the other way round (listed in
        // another order since) goes on from its log, in its order.
        let (i, j) = played_order(&folder, &names, i, j);
        let log = pair_log(&folder, &names[i], &names[j]);
        let mut pair_args = args.clone();
        // `--record DIR`: each pair's records in a file of their own
        // there, named as its log, written anew from the log on a resume.
        pair_args.record = match (&records, log.file_stem()) {
            (Some((dir, extension)), Some(stem)) => {
                let mut name = stem.to_os_string();
                name.push(format!(".{extension}"));
                Some(dir.join(name))
            }
            _ => None,
        };
        pair_args.engines = EngineGroups(vec![groups[i].clone(), groups[j].clone()]);
        pair_args.in_round_robin = true;
        let resumed = std::fs::metadata(&log).is_ok_and(|m| m.len() > 0);
        pair_args.resume = resumed.then(|| log.clone());
        pair_args.out = Some(log.clone());
        say(&format!(
            "plyd arena: round robin, pair {} of {}: {} vs {} ({}{})",
            k + 1,
            pairs.len(),
            names[i],
            names[j],
            log.display(),
            if resumed { ", resumed" } else { "" }
        ));
        match play(&pair_args, plugin_dirs, game, cancel) {
            Ok(()) => {}
            Err(ArenaError::Interrupted) => {
                print_table(&folder, &names, &pairs, &stale, &not_played, &setup);
                say(
                    "plyd arena: round robin interrupted; to go on, run the same command again \
                     (each pair's log is resumed)",
                );
                interrupt::end_by_the_signal();
                return ExitCode::from(INTERRUPTED_STATUS);
            }
            Err(ArenaError::Setup(why)) => {
                for e in [i, j] {
                    if why.starts_with(&format!("engine {}: ", names[e])) {
                        failed_setup[e] = true;
                    }
                }
                let why = if resumed && why.starts_with("--resume ") {
                    stale.push((i, j));
                    format!(
                        "{why}; its games are left out of the table (to play the pair anew with \
                         this command, remove {}{})",
                        log.display(),
                        match &pair_args.record {
                            Some(record) => format!(" and {}", record.display()),
                            None => String::new(),
                        }
                    )
                } else {
                    why
                };
                say(&format!(
                    "plyd arena: {} vs {} not played to its end, passed over: {why}",
                    names[i], names[j]
                ));
                not_played.push(format!("{} vs {}: {why}", names[i], names[j]));
            }
            Err(ArenaError::Aborted(why) | ArenaError::RecordsLost(why)) => {
                say(&format!(
                    "plyd arena: {} vs {} not played to its end, passed over: {why}",
                    names[i], names[j]
                ));
                not_played.push(format!("{} vs {}: {why}", names[i], names[j]));
            }
        }
    }
    print_table(&folder, &names, &pairs, &stale, &not_played, &setup);
    if not_played.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}

/// Each engine's name (`name=`, else its program's), as a pair's match
/// names it; two of one name are refused (the logs and the table tell
/// engines by name).
fn engine_names(specs: &[EngineSpec]) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        if let Some(first) = names.iter().position(|n| *n == spec.name) {
            return Err(format!(
                "engines {} and {} are both named {}: give each a name of its own (name=...)",
                first + 1,
                i + 1,
                spec.name
            ));
        }
        names.push(spec.name.clone());
    }
    Ok(names)
}

/// The log of the pair `a` and `b` in `folder`: `a-vs-b.txt`, the names'
/// characters other than letters (of any script), digits, `.`, `_` and
/// `-` written `_`, and a name so changed followed by a fingerprint of
/// itself (`bob_2-d308a72a`): `bob 2` and `bob/2` would otherwise share
/// a log, and resuming one would take the other's games.
fn pair_log(folder: &Path, a: &str, b: &str) -> PathBuf {
    let file = |name: &str| -> String {
        let plain: String = name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if plain == name {
            plain
        } else {
            let hash = crate::args::fnv1a64(crate::args::FNV_START, name.as_bytes());
            format!("{plain}-{:08x}", hash as u32)
        }
    };
    folder.join(format!("{}-vs-{}.txt", file(a), file(b)))
}

/// The pair of engines `i` and `j` in the order its log in `folder` has
/// them: `(j, i)` where only `j-vs-i.txt` is there (the engines listed in
/// another order than when the pair began: played anew, the pair's games
/// would be counted twice), else `(i, j)`.
fn played_order(folder: &Path, names: &[String], i: usize, j: usize) -> (usize, usize) {
    let there = |a: usize, b: usize| pair_log(folder, &names[a], &names[b]).exists();
    if !there(i, j) && there(j, i) {
        (j, i)
    } else {
        (i, j)
    }
}

/// Each engine's results against all (`tally[i][j]`: engine i's results
/// against j).
fn row_totals(tally: &[Vec<Tally>]) -> Vec<Tally> {
    tally
        .iter()
        .map(|row| {
            row.iter().fold(Tally::default(), |sum, t| Tally {
                wins: sum.wins + t.wins,
                draws: sum.draws + t.draws,
                losses: sum.losses + t.losses,
            })
        })
        .collect()
}

/// Each engine's Sonneborn-Berger score: the points it took from each
/// opponent times that opponent's points (`tally[i][j]`: engine i's
/// results against j; `totals`: each one's against all).
fn sonneborn_berger(tally: &[Vec<Tally>], totals: &[Tally]) -> Vec<f64> {
    (0..totals.len())
        .map(|i| {
            (0..totals.len())
                .filter(|&j| j != i)
                .map(|j| tally[i][j].points() * totals[j].points())
                .sum()
        })
        .collect()
}

/// The table's order and each row's place. By points (in a `gauntlet`,
/// whose first engine plays every game, by the share of its points an
/// engine took); among engines equal on that, by the points they took
/// from one another (the direct encounter), then by Sonneborn-Berger
/// (`sonneborn`), then by wins. Engines equal on all of these share their
/// place (`2-3`), listed in the order of the command line.
fn standings(
    tally: &[Vec<Tally>],
    totals: &[Tally],
    sonneborn: &[f64],
    gauntlet: bool,
) -> (Vec<usize>, Vec<String>) {
    let n = totals.len();
    let first_key = |i: usize| {
        if gauntlet {
            totals[i].score().unwrap_or(-1.0)
        } else {
            totals[i].points()
        }
    };
    // Points and half points, and their products, are exact in f64.
    let direct: Vec<f64> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i && first_key(j) == first_key(i))
                .map(|j| tally[i][j].points())
                .sum()
        })
        .collect();
    let compare = |a: usize, b: usize| {
        first_key(b)
            .total_cmp(&first_key(a))
            .then(direct[b].total_cmp(&direct[a]))
            .then(sonneborn[b].total_cmp(&sonneborn[a]))
            .then(totals[b].wins.cmp(&totals[a].wins))
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| compare(a, b).then(a.cmp(&b)));
    let mut places = Vec::with_capacity(n);
    let mut start = 0;
    while start < n {
        let end = (start..n)
            .find(|&k| compare(order[start], order[k]).is_ne())
            .unwrap_or(n);
        let place = if end - start == 1 {
            (start + 1).to_string()
        } else {
            format!("{}-{end}", start + 1)
        };
        places.extend(std::iter::repeat_n(place, end - start));
        start = end;
    }
    (order, places)
}

/// What the round robin's table says besides the games: the build that
/// made it, whether it is a gauntlet's, and the `--json` file it is
/// written to too.
struct TableSetup<'a> {
    build: &'a str,
    gauntlet: bool,
    json: Option<&'a Path>,
}

/// Every engine's games against the rest, from the pairs' logs (those
/// there, but for the `stale` pairs' whose log another match wrote),
/// best first, with the cross table of the pairs' points.
fn print_table(
    folder: &Path,
    names: &[String],
    pairs: &[(usize, usize)],
    stale: &[(usize, usize)],
    not_played: &[String],
    setup: &TableSetup,
) {
    let TableSetup {
        build,
        gauntlet,
        json,
    } = *setup;
    let n = names.len();
    // tally[i][j]: engine i's results against engine j.
    let mut tally = vec![vec![Tally::default(); n]; n];
    // Each engine's games lost by a forfeit of its own: on time, by an
    // illegal move, a crash, no answer, a plugin failing (any loss not by
    // the rules).
    let mut forfeits = vec![0u64; n];
    // Every game's result by side (first player, second, drawn) and
    // how the games ended, as each pair's table gives its own.
    let mut by_side = [0u64; 3];
    let mut endings = std::collections::BTreeMap::new();
    for &(i, j) in pairs {
        let (i, j) = played_order(folder, names, i, j);
        if stale.contains(&(i, j)) {
            continue;
        }
        let Ok((_, log)) = crate::read_log(&pair_log(folder, &names[i], &names[j])) else {
            continue;
        };
        for game in &log.games {
            let (Some(first), Some(second), Some(result)) = (
                game.tags.get("First"),
                game.tags.get("Second"),
                game.tags.get("Result"),
            ) else {
                continue;
            };
            let index = |name: &String| names.iter().position(|n| n == name);
            let (Some(a), Some(b)) = (index(first), index(second)) else {
                continue;
            };
            let forfeit = game.tags.get("Ending").is_some_and(|e| e != "rules");
            if let Some(Ok(ending)) = game.tags.get("Ending").map(|tag| tag.parse::<Ending>()) {
                *endings.entry(ending).or_insert(0u64) += 1;
            }
            if let Ok(played) = result.parse::<GameResult>() {
                by_side[side_column(played)] += 1;
            }
            match result.as_str() {
                "1-0" => {
                    tally[a][b].wins += 1;
                    tally[b][a].losses += 1;
                    forfeits[b] += u64::from(forfeit);
                }
                "0-1" => {
                    tally[a][b].losses += 1;
                    tally[b][a].wins += 1;
                    forfeits[a] += u64::from(forfeit);
                }
                "1/2-1/2" => {
                    tally[a][b].draws += 1;
                    tally[b][a].draws += 1;
                }
                _ => {}
            }
        }
    }
    let totals = row_totals(&tally);
    let tie_break = sonneborn_berger(&tally, &totals);
    let (order, places) = standings(&tally, &totals, &tie_break, gauntlet);
    let games: u64 = totals.iter().map(Tally::games).sum::<u64>() / 2;
    // Columns by the names' width on a terminal (a CJK character takes
    // two).
    let width = names
        .iter()
        .map(|n| crate::report::display_width(n))
        .max()
        .unwrap_or(6)
        .max(6);
    let mut out = String::new();
    out += &if gauntlet {
        format!(
            "gauntlet: {} against {} engines, {} pairs, {games} games (ranked by score)\n",
            names[0],
            n - 1,
            pairs.len()
        )
    } else {
        format!(
            "round robin: {n} engines, {} pairs, {games} games\n",
            pairs.len()
        )
    };
    // The build the table was made by (each pair's log names the build
    // that played it, and its engines' programs).
    if !build.is_empty() {
        out += &format!("made by {build}; each pair's log names its build and programs\n");
    }
    out += &format!(
        "{:>4}  {:<width$} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7} {:>7} {:>7}  Elo against the rest (95% interval)\n",
        "rank", "engine", "games", "wins", "draws", "losses", "forfeits", "points", "S-B", "score"
    );
    for (&i, place) in order.iter().zip(&places) {
        let t = &totals[i];
        let score = t
            .score()
            .map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0));
        let elo = EloEstimate::from_tally(t).map_or("-".to_string(), |e| {
            format!(
                "{} ({} to {})",
                crate::stats::signed(e.elo),
                crate::stats::signed(e.low),
                crate::stats::signed(e.high)
            )
        });
        out += &format!(
            "{:>4}  {} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7} {:>7} {:>7}  {elo}\n",
            place,
            crate::report::padded(&names[i], width),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            forfeits[i],
            format!("{:.1}", t.points()),
            format!("{:.2}", tie_break[i]),
            score
        );
    }
    // The cross table: each engine's points against each other, in the
    // table's order, columns numbered by rank.
    out += &format!("{:>4}  {:<width$}", "", "points against");
    for rank in 1..=n {
        out += &format!(" {rank:>7}");
    }
    out.push('\n');
    for (rank, &i) in order.iter().enumerate() {
        out += &format!(
            "{:>4}  {}",
            rank + 1,
            crate::report::padded(&names[i], width)
        );
        for &j in &order {
            let t = &tally[i][j];
            let cell = if i == j {
                "-".to_string()
            } else if t.games() == 0 {
                ".".to_string()
            } else {
                format!("{}/{}", t.points(), t.games())
            };
            out += &format!(" {cell:>7}");
        }
        out.push('\n');
    }
    out += &format!("{}\n", sides_line(&by_side));
    if !endings.is_empty() {
        out += &format!("endings: {}\n", endings_list(&endings));
    }
    for line in not_played {
        out += &format!("not played to its end: {line}\n");
    }
    let _ = std::io::Write::write_all(&mut plyd_util::output::out(), out.as_bytes());
    if let Some(path) = json {
        use crate::report::{json_elo, json_endings, json_number, json_string};
        let standings: Vec<String> = order
            .iter()
            .zip(&places)
            .map(|(&i, place)| {
                let t = &totals[i];
                format!(
                    "    {{\"place\": {}, \"engine\": {}, \"games\": {}, \"wins\": {}, \"draws\": {}, \"losses\": {}, \"forfeits\": {}, \"points\": {}, \"sonneborn_berger\": {}, \"score\": {}, \"elo\": {}}}",
                    json_string(place),
                    json_string(&names[i]),
                    t.games(),
                    t.wins,
                    t.draws,
                    t.losses,
                    forfeits[i],
                    json_number(t.points()),
                    json_number(tie_break[i]),
                    t.score().map_or("null".to_string(), json_number),
                    json_elo(EloEstimate::from_tally(t)),
                )
            })
            .collect();
        // Each played pair from each side: the points one took from the
        // other, and their games.
        let cross: Vec<String> = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .filter(|&(i, j)| i != j && tally[i][j].games() > 0)
            .map(|(i, j)| {
                format!(
                    "    {{\"engine\": {}, \"against\": {}, \"points\": {}, \"games\": {}}}",
                    json_string(&names[i]),
                    json_string(&names[j]),
                    json_number(tally[i][j].points()),
                    tally[i][j].games()
                )
            })
            .collect();
        let not_played: Vec<String> = not_played.iter().map(|l| json_string(l)).collect();
        let text = format!(
            "{{\n  \"kind\": {},\n  \"engines\": {n},\n  \"pairs\": {},\n  \"games\": {games},\n  \"standings\": [\n{}\n  ],\n  \"cross\": [\n{}\n  ],\n  \"first_player_won\": {},\n  \"second_player_won\": {},\n  \"drawn\": {},\n  \"endings\": {},\n  \"not_played\": [{}]\n}}\n",
            json_string(if gauntlet { "gauntlet" } else { "round robin" }),
            pairs.len(),
            standings.join(",\n"),
            cross.join(",\n"),
            by_side[0],
            by_side[1],
            by_side[2],
            json_endings(&endings),
            not_played.join(", "),
        );
        if let Err(e) = std::fs::write(path, text) {
            say(&format!("plyd arena: --json {}: {e}", path.display()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results of a round robin from `results[i][j]`, engine i's wins,
    /// draws and losses against j: the table's order and places.
    fn placed(results: &[&[(u64, u64, u64)]]) -> (Vec<usize>, Vec<String>) {
        let (tally, totals, sonneborn) = tables(results);
        standings(&tally, &totals, &sonneborn, false)
    }

    /// The tallies, totals and Sonneborn-Berger scores of `results`.
    fn tables(results: &[&[(u64, u64, u64)]]) -> (Vec<Vec<Tally>>, Vec<Tally>, Vec<f64>) {
        let tally: Vec<Vec<Tally>> = results
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&(wins, draws, losses)| Tally {
                        wins,
                        draws,
                        losses,
                    })
                    .collect()
            })
            .collect();
        let totals = row_totals(&tally);
        let sonneborn = sonneborn_berger(&tally, &totals);
        (tally, totals, sonneborn)
    }

    #[test]
    fn engines_equal_on_every_tie_break_share_their_place() {
        let o = (0, 0, 0);
        // Every pair split: four engines share the first place.
        let split = (1, 0, 1);
        let (order, places) = placed(&[
            &[o, split, split, split],
            &[split, o, split, split],
            &[split, split, o, split],
            &[split, split, split, o],
        ]);
        assert_eq!(order, [0, 1, 2, 3]);
        assert_eq!(places, ["1-4", "1-4", "1-4", "1-4"]);
        // Engines 1 and 2 equal on points (3 each), 1 ahead on
        // Sonneborn-Berger (9 against 7.5), but 2 won both their games: 2
        // goes first though the command line lists it after.
        let (order, places) = placed(&[
            &[o, (0, 1, 1), (2, 0, 0), (2, 0, 0)],
            &[(1, 1, 0), o, (0, 0, 2), (1, 1, 0)],
            &[(0, 0, 2), (2, 0, 0), o, (1, 0, 1)],
            &[(0, 0, 2), (0, 1, 1), (1, 0, 1), o],
        ]);
        assert_eq!(order, [0, 2, 1, 3]);
        assert_eq!(places, ["1", "2", "3", "4"]);
        // Equal on points and with each other, and on Sonneborn-Berger:
        // shared; the first engine's place its own.
        let (order, places) = placed(&[
            &[o, (1, 0, 0), (1, 0, 0)],
            &[(0, 0, 1), o, (0, 1, 0)],
            &[(0, 0, 1), (0, 1, 0), o],
        ]);
        assert_eq!(order, [0, 1, 2]);
        assert_eq!(places, ["1", "2-3", "2-3"]);
    }

    #[test]
    fn a_gauntlet_ranks_by_score() {
        let o = (0, 0, 0);
        // The first engine scores 2 of 6 against three that met only it:
        // by points it would rank second, above two that took half their
        // games from it.
        let results: [&[(u64, u64, u64)]; 4] = [
            &[o, (0, 0, 2), (1, 0, 1), (1, 0, 1)],
            &[(2, 0, 0), o, o, o],
            &[(1, 0, 1), o, o, o],
            &[(1, 0, 1), o, o, o],
        ];
        let (tally, totals, sonneborn) = tables(&results);
        let (order, places) = standings(&tally, &totals, &sonneborn, true);
        assert_eq!(order, [1, 2, 3, 0]);
        assert_eq!(places, ["1", "2-3", "2-3", "4"]);
        let (order, _) = standings(&tally, &totals, &sonneborn, false);
        assert_eq!(order, [1, 0, 2, 3]);
    }

    #[test]
    fn a_pairs_log_is_named_by_its_engines_in_file_characters() {
        assert_eq!(
            pair_log(Path::new("rr"), "one", "bob 2"),
            Path::new("rr").join("one-vs-bob_2-d308a72a.txt")
        );
        let log = pair_log(Path::new("rr"), "alice", "bob 2/x");
        let name = log.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("alice-vs-bob_2_x-"), "{name}");
        assert!(name.ends_with(".txt"), "{name}");
        // Names that would be written alike keep logs of their own; those
        // of any script are kept as they are.
        assert_ne!(
            pair_log(Path::new("rr"), "a", "bob 2"),
            pair_log(Path::new("rr"), "a", "bob/2")
        );
        assert_ne!(
            pair_log(Path::new("rr"), "a", "bob 2"),
            pair_log(Path::new("rr"), "a", "bob_2")
        );
        assert_eq!(
            pair_log(Path::new("rr"), "象眼甲", "象眼乙"),
            Path::new("rr").join("象眼甲-vs-象眼乙.txt")
        );
    }
}
