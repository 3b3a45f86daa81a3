//! `plyd arena`: matches between two engines over the protocol, refereed
//! with the game plugins' own rules, with clocks, openings played from both
//! sides, Elo and an optional SPRT.
//!
//! * [`args`] — the command line and the engine descriptions.
//! * [`clock`] — time controls and the clocks the arena keeps.
//! * [`engine`] — one engine process, driven over its pipes.
//! * [`referee`] — one game: rules, clocks, chance, adjudication.
//! * [`openings`] — where games start.
//! * [`tournament`] — workers, engine pairs, scheduling.
//! * [`record`] — the game log.
//! * [`community`] — each game in its community's record format (`--record`).
//! * [`stats`] — Elo, its interval, and the SPRT.
//! * [`report`] — the progress line and the final table.
//!
//! Random openings and chance outcomes draw from `plyd_util::rng`.
//!
//! Exit status: 0 when the match was played (or an SPRT stopped it), 2 when
//! it could not start (bad arguments, missing plugin or game, an engine
//! that does not start), 3 when it broke off (a game plugin failed, an
//! engine could not be restarted, the log could not be written).

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod args;
pub mod clock;
pub mod community;
pub mod engine;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod stats;
pub mod tournament;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub use args::ArenaArgs;

use openings::OpeningSource;
use plyd_host::PluginHost;
use referee::Rules;
use report::Standings;
use stats::{Sprt, SprtDecision};
use tournament::Match;

/// The game played when neither `--game` nor the config file names one.
const DEFAULT_GAME: &str = "othello";

/// Why `plyd arena` stopped with an error, with the exit status it gets.
#[derive(Debug)]
enum ArenaError {
    /// The match could not start.
    Setup(String),
    /// The match broke off.
    Aborted(String),
}

/// Run `plyd arena` with plugins from `plugin_dirs` on `game` (the
/// default game if `None`), printing the result; returns the exit status.
pub fn run(args: &ArenaArgs, plugin_dirs: &[PathBuf], game: Option<&str>) -> ExitCode {
    match play(args, plugin_dirs, game) {
        Ok(()) => ExitCode::SUCCESS,
        Err(ArenaError::Setup(why)) => {
            say(&format!("plyd arena: {why}"));
            ExitCode::from(2)
        }
        Err(ArenaError::Aborted(why)) => {
            say(&format!("plyd arena: match aborted: {why}"));
            ExitCode::from(3)
        }
    }
}

fn play(args: &ArenaArgs, plugin_dirs: &[PathBuf], game: Option<&str>) -> Result<(), ArenaError> {
    let setup = ArenaError::Setup;
    if args.games == 0 {
        return Err(setup("--games must be at least 1".to_string()));
    }
    if args.concurrency == 0 {
        return Err(setup("--concurrency must be at least 1".to_string()));
    }
    if args.timeout == 0 {
        return Err(setup("--timeout must be at least 1 second".to_string()));
    }
    let specs = args.engine_specs().map_err(|e| setup(e.to_string()))?;
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(setup)?;
    let source = OpeningSource::parse(&args.openings).map_err(|e| setup(e.to_string()))?;

    let report = PluginHost::scan(plugin_dirs);
    for e in &report.errors {
        log::warn!("{e}");
    }
    let host = report.host;
    let name = game.unwrap_or(DEFAULT_GAME);
    let variant = host.find_variant(name).ok_or_else(|| {
        let dirs: Vec<String> = plugin_dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        let loaded = host.variant_names();
        setup(format!(
            "game '{name}' is not loaded (loaded: {}; plugin folders: {})",
            if loaded.is_empty() {
                "none".to_string()
            } else {
                loaded.join(", ")
            },
            dirs.join(", ")
        ))
    })?;

    for setting in &args.game_options {
        let (option, value) = setting
            .split_once('=')
            .ok_or_else(|| setup(format!("--game-option '{setting}': expected NAME=VALUE")))?;
        let plugin = &variant.plugin;
        if !plugin.info().options.iter().any(|o| o.name == option) {
            return Err(setup(format!(
                "--game-option: game {} has no option '{option}'",
                plugin.name()
            )));
        }
        plugin
            .set_option(option, value)
            .map_err(|e| setup(format!("--game-option {option}: {e}")))?;
    }

    let seed = args.seed.unwrap_or_else(seed_from_clock);
    let pairs = args.games.div_ceil(2);
    let openings = openings::prepare(&source, &variant, pairs, seed).map_err(setup)?;
    let mut log_file = match &args.out {
        Some(path) => Some(BufWriter::new(File::create(path).map_err(|e| {
            setup(format!("cannot write the game log {}: {e}", path.display()))
        })?)),
        None => None,
    };

    let mut record_file = match &args.record {
        Some(path) => {
            let format = community::format_for(variant.name(), path).map_err(setup)?;
            let file = File::create(path)
                .map_err(|e| setup(format!("cannot write the records {}: {e}", path.display())))?;
            Some((format, BufWriter::new(file)))
        }
        None => None,
    };

    let rules = Rules {
        variant: variant.clone(),
        limits: [specs[0].limits, specs[1].limits],
        margin: Duration::from_millis(args.timemargin),
        timeout: Duration::from_secs(args.timeout),
        max_plies: args.max_plies,
        seed,
    };
    let matched = Match {
        specs: &specs,
        rules: &rules,
        openings: &openings,
        games: args.games,
        concurrency: args.concurrency,
    };
    let pairs = matched.start_engines().map_err(|e| setup(e.to_string()))?;
    say(&format!(
        "arena: {} ({}) vs {} ({}) on {}, {} games, openings {source}, seed {seed}, concurrency {}{}",
        specs[0].name,
        specs[0].limits,
        specs[1].name,
        specs[1].limits,
        variant.name(),
        args.games,
        args.concurrency,
        sprt.map_or(String::new(), |s| format!(", SPRT {s}")),
    ));

    let mut standings = Standings::new([specs[0].name.clone(), specs[1].name.clone()]);
    let mut log_error = None;
    let mut decided = false;
    let outcome = matched.play(pairs, |record| {
        standings.add(record);
        say(&standings.progress_line(record, args.games, sprt.as_ref()));
        if let Some(file) = log_file.as_mut() {
            if let Err(e) = record.write_to(file) {
                log_error.get_or_insert(format!("cannot write the game log: {e}"));
                return false;
            }
        }
        if let Some((format, file)) = record_file.as_mut() {
            if let Err(e) = community::write_game(*format, record, file) {
                say(&format!("plyd arena: {e}"));
            }
        }
        if let Some(sprt) = &sprt {
            let decision = sprt.decide(&standings.tally);
            if decision != SprtDecision::Continue && !decided {
                decided = true;
                say(&format!(
                    "SPRT decided after {} games; no new game starts",
                    standings.tally.games()
                ));
                return false;
            }
        }
        true
    });

    // A closed stdout (`| head`) must not turn into a panic; the games are
    // in the log either way.
    let mut stdout = std::io::stdout().lock();
    let _ = write!(stdout, "{}", standings.final_table(sprt.as_ref()));
    let _ = stdout.flush();
    match (outcome, log_error) {
        (Err(why), _) | (Ok(()), Some(why)) => Err(ArenaError::Aborted(why)),
        (Ok(()), None) => Ok(()),
    }
}

/// Write a progress line to stderr. A closed stderr (the arena piped into
/// `head`) only silences the progress; `eprintln!` would panic instead.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// A seed for a match run without `--seed`: the clock's nanoseconds.
fn seed_from_clock() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}
