//! `plyd arena`: matches between two engines over the protocol, refereed
//! with the game plugins' own rules, with clocks, openings played from both
//! sides, Elo and an optional SPRT; a round robin of three or more
//! ([`round_robin`]).
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
//! * [`interrupt`] — Ctrl-C and SIGTERM: ending a match early.
//! * [`resume`] — reading an interrupted match's log back (`--resume`).
//!
//! Random openings and chance outcomes draw from `plyd_util::rng`.
//!
//! Exit status: 0 when the match was played (or an SPRT stopped it), 2 when
//! it could not start (bad arguments, missing plugin or game, an engine
//! that does not start, a `--resume` file that does not fit), 3 when it
//! broke off (a game plugin failed, an engine could not be restarted, the
//! log could not be written), 130 when Ctrl-C or SIGTERM interrupted it.

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod args;
pub mod clock;
pub mod community;
pub mod engine;
pub mod interrupt;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod resume;
mod round_robin;
pub mod stats;
pub mod tournament;

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub use args::ArenaArgs;

use interrupt::INTERRUPTED_STATUS;
use openings::OpeningSource;
use plyd_host::PluginHost;
use record::{GameRecord, MatchHeader};
use referee::Rules;
use report::Standings;
use resume::ParsedLog;
use stats::Sprt;
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
    /// Ctrl-C or SIGTERM ended the match; what to say has been said.
    Interrupted,
    /// The match was played, but records could not all be written.
    RecordsLost(String),
}

/// Run `plyd arena` with plugins from `plugin_dirs` on `game` (the
/// default game if `None`), printing the result; returns the exit status.
pub fn run(args: &ArenaArgs, plugin_dirs: &[PathBuf], game: Option<&str>) -> ExitCode {
    // First, so that a Ctrl-C during the set-up (engines can take a while
    // to start) already ends the match in order; once, for every match of
    // a round robin.
    let cancel = interrupt::install();
    if args.engines.0.len() > 2 {
        return round_robin::run(args, plugin_dirs, game, &cancel);
    }
    match play(args, plugin_dirs, game, &cancel) {
        Ok(()) => ExitCode::SUCCESS,
        Err(ArenaError::Setup(why)) => {
            say(&format!("plyd arena: {why}"));
            ExitCode::from(2)
        }
        Err(ArenaError::Aborted(why)) => {
            say(&format!("plyd arena: match aborted: {why}"));
            ExitCode::from(3)
        }
        Err(ArenaError::Interrupted) => {
            interrupt::end_by_the_signal();
            ExitCode::from(INTERRUPTED_STATUS)
        }
        Err(ArenaError::RecordsLost(why)) => {
            say(&format!("plyd arena: {why}"));
            ExitCode::from(3)
        }
    }
}

fn play(
    args: &ArenaArgs,
    plugin_dirs: &[PathBuf],
    game: Option<&str>,
    cancel: &interrupt::Cancel,
) -> Result<(), ArenaError> {
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
    // Said once for a round robin, before its first pair.
    if !args.in_round_robin {
        for warning in crate::args::unseeded_draw_warnings(&specs) {
            say(&warning);
        }
    }
    // Limits given for the match that neither engine takes (each names
    // limits of its own, `--each depth=3` with `--tc`): said, since the
    // header shows only the engines' own.
    if let Ok(global) = args.default_limits() {
        if global.is_set() && specs.iter().all(|spec| !spec.limits.holds(&global)) {
            say(&format!(
                "plyd arena: warning: the match's limits ({global}) are used by neither engine: \
                 each names limits of its own ({}; {}), which replace them whole",
                specs[0].limits, specs[1].limits
            ));
        }
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(setup)?;
    let source = OpeningSource::parse(&args.openings).map_err(|e| setup(e.to_string()))?;
    // The game log: --out, or with --resume the file resumed (which --out
    // may name again, but not another file).
    let log_path = match (&args.resume, &args.out) {
        (Some(resume), Some(out)) if !resume::same_file(resume, out) => {
            return Err(setup(format!(
                "--resume {} and --out {} name different files; the games are appended to the file resumed",
                resume.display(),
                out.display()
            )))
        }
        (Some(resume), _) => Some(resume.clone()),
        (None, out) => out.clone(),
    };
    // Two of the files this match writes being one file would mix them:
    // a log with records or engine logs in it cannot be resumed.
    let mut written: Vec<(String, &Path)> = Vec::new();
    if let Some(path) = &log_path {
        let flag = if args.resume.is_some() {
            "--resume"
        } else {
            "--out"
        };
        written.push((flag.to_string(), path));
    }
    if let Some(path) = &args.record {
        written.push(("--record".to_string(), path));
    }
    for spec in &specs {
        if let Some(path) = &spec.stderr {
            written.push((format!("engine {}'s stderr=", spec.name), path));
        }
    }
    for (i, (first, a)) in written.iter().enumerate() {
        for (second, b) in &written[i + 1..] {
            // Engines may append their logs to one file.
            let both_logs = first.ends_with('=') && second.ends_with('=');
            if !both_logs && resume::same_file(a, b) {
                return Err(setup(format!(
                    "{first}{}{} and {second}{}{} name one file: each needs a file of its own",
                    if first.ends_with('=') { "" } else { " " },
                    a.display(),
                    if second.ends_with('=') { "" } else { " " },
                    b.display()
                )));
            }
        }
    }
    // Files to be written that would never take it (a FIFO with no
    // reader waits for ever), or whose folder does not exist, are refused
    // before the match starts: before its log is opened, which the next
    // run's `--out` would otherwise find.
    for (flag, path) in [("--out", &args.out), ("--record", &args.record)] {
        if let Some(path) = path {
            let refuse = |why: String| setup(format!("{flag} {}: {why}", path.display()));
            plyd_util::files::check_writable(path).map_err(|e| refuse(e.to_string()))?;
            let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
            if folder.is_some_and(|folder| !folder.is_dir()) {
                return Err(refuse("its folder does not exist".to_string()));
            }
        }
    }
    // A new match never writes over games: the file may be the log of an
    // interrupted match that was to be resumed.
    if args.resume.is_none() {
        for (flag, path) in [("--out", &args.out), ("--record", &args.record)] {
            let Some(path) = path else { continue };
            if let Ok(meta) = std::fs::metadata(path) {
                if meta.len() > 0 {
                    let resume = if flag == "--out" {
                        format!("add --resume {} to go on with its match; ", path.display())
                    } else {
                        "a match resumed with --resume and its --out log writes it again; "
                            .to_string()
                    };
                    return Err(setup(format!(
                        "{flag} {} already holds {} bytes: {resume}to start anew, remove it or name another file",
                        path.display(),
                        meta.len()
                    )));
                }
            }
        }
    }
    let resumed = args
        .resume
        .as_deref()
        .map(read_log)
        .transpose()
        .map_err(setup)?;

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
            "game '{name}' is not loaded (loaded: {}; plugin folders: {}){}",
            if loaded.is_empty() {
                "none".to_string()
            } else {
                loaded.join(", ")
            },
            dirs.join(", "),
            host.missing_game_hint()
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
    // An engine given a rule of the game (option.NAME of one of the game's
    // own options) that the referee does not play by: its moves under the
    // rule would be lost as illegal. Said before the first game.
    for spec in &specs {
        for (name, value) in &spec.options {
            let Some(option) = variant.plugin.info().option(name) else {
                continue;
            };
            let refereed = args.game_options.iter().any(|setting| {
                setting.split_once('=').is_some_and(|(n, v)| {
                    n.eq_ignore_ascii_case(&option.name) && v.trim() == value.trim()
                })
            });
            if !refereed {
                say(&format!(
                    "plyd arena: warning: engine {} is given the game's option {}={value}, \
                     but the referee plays without it: add --game-option {}={value} if the \
                     engine's moves depend on it",
                    spec.name, option.name, option.name
                ));
            }
        }
    }

    // A resumed match keeps the seed of its log, which a seed from the
    // clock could not give again.
    let seed = args
        .seed
        .or(resumed.as_ref().map(|(_, log)| log.header.seed))
        .unwrap_or_else(seed_from_clock);
    let header = MatchHeader {
        variant: variant.name().to_string(),
        engines: [specs[0].name.clone(), specs[1].name.clone()],
        limits: [specs[0].limits.to_string(), specs[1].limits.to_string()],
        games: args.games,
        openings: source.to_string(),
        seed,
        max_plies: args.max_plies,
        setups: Some([specs[0].setup(), specs[1].setup()]),
        game_options: Some(if args.game_options.is_empty() {
            "none".to_string()
        } else {
            args.game_options.join(" ")
        }),
        files: Some([specs[0].input_files(), specs[1].input_files()]),
        sprt: Some(sprt.as_ref().map_or("none".to_string(), |s| s.to_string())),
        openings_file: Some(openings_file_fingerprint(&source)),
        record: Some(
            args.record
                .as_ref()
                .map_or("none".to_string(), |p| p.display().to_string()),
        ),
        build: Some(args.build.clone()).filter(|b| !b.is_empty()),
        programs: Some([specs[0].program_line(), specs[1].program_line()]),
    };
    let pairs = args.games.div_ceil(2);
    let openings = match openings::prepare(&source, &variant, pairs, seed, &specs[0], cancel) {
        Ok(openings) => openings,
        Err(_) if cancel.is_set() => {
            say("plyd arena: interrupted while preparing the openings; no game was played");
            return Err(ArenaError::Interrupted);
        }
        Err(e) => return Err(setup(e)),
    };
    let repeated = openings::repeats(&openings);
    match source {
        // An engine without `Variety` ignores the option and plays its
        // own line every time.
        OpeningSource::Variety { margin, .. }
            if margin > 0
                && openings.len() >= 4
                && openings.windows(2).all(|w| w[0].moves == w[1].moves) =>
        {
            say(&format!(
                "plyd arena: warning: all {} variety openings are the same line; does engine {} \
                 take the Variety and VarietySeed options, and do its moves' scores lie within \
                 the margin ({margin}) of each other?",
                openings.len(),
                specs[0].name
            ));
        }
        OpeningSource::Variety { plies, margin } if margin > 0 && repeated > 0 => {
            say(&format!(
                "plyd arena: warning: {repeated} of {} variety openings repeat an earlier one, \
                 though drawn again: a wider margin (variety:{plies}:{}) or more plies vary them \
                 more",
                openings.len(),
                margin * 2
            ));
        }
        OpeningSource::Random(plies) if repeated > 0 => {
            say(&format!(
                "plyd arena: warning: {repeated} of {} random openings repeat an earlier one, \
                 though drawn again: the game has few lines of {plies} plies (random:{} gives \
                 more)",
                openings.len(),
                plies + 2
            ));
        }
        OpeningSource::File(ref path) if repeated > 0 => {
            say(&format!(
                "plyd arena: warning: {repeated} of the {} pairs' openings repeat an earlier \
                 pair's: {}'s lines are played in order, from the first again after the last, \
                 and some are alike",
                openings.len(),
                path.display()
            ));
        }
        _ => {}
    }
    if let OpeningSource::File(_) = source {
        // A line the rules have already ended is played as a game of no
        // move, decided by the opening: the pair's two games cancel out,
        // and the match measures less than its game count says.
        let mut seen = std::collections::HashSet::new();
        for opening in &openings {
            if !seen.insert(opening.label.as_str()) {
                continue;
            }
            let state = opening.state(&variant).map_err(setup)?;
            if let Some(reason) = referee::over_already(&state).map_err(setup)? {
                say(&format!(
                    "plyd arena: warning: opening {} is a finished game ({reason}): its games \
                     are decided before either engine moves",
                    opening.label
                ));
            }
        }
    }

    // The games of the log being resumed, checked against this match.
    let mut done: Vec<GameRecord> = Vec::new();
    if let Some((path, log)) = &resumed {
        let refuse = |why: String| setup(format!("--resume {}: {why}", path.display()));
        if let Some(why) = resume::header_difference(&log.header, &header) {
            return Err(refuse(why));
        }
        done = resume::check_games(&log.games, &header, &openings, &variant).map_err(refuse)?;
        // The games were written as records too, and this run writes
        // none: the record file would lack the games played now.
        if let (Some(kept), None) = (log.header.record.as_deref(), &args.record) {
            if kept != "none" {
                say(&format!(
                    "plyd arena: warning: --resume {}: its games were written to {kept} too, and \
                     this run writes no records: {kept} will lack the games played now (resume \
                     with --record {kept}, which writes it anew from the log's games)",
                    path.display()
                ));
            }
        }
        if let Some(line) = log.half_written_at {
            say(&format!(
                "plyd arena: warning: --resume {}: the record at line {line} was cut off while being written; it is dropped and its game played again",
                path.display()
            ));
        }
    }
    let pending = resume::pending_games(args.games, &done);

    // PGN's `TimeControl`, where both engines play one clock and no other
    // limit.
    let time_control = specs[0]
        .limits
        .pgn_time_control()
        .filter(|_| specs[0].limits == specs[1].limits);
    let time_control = time_control.as_deref();
    // A `--record` in a format the game has none of is refused before the
    // log is opened, as the paths above; the records are written once the
    // log is open, a log refused leaving them as they were.
    let record = match &args.record {
        Some(path) => Some((
            path,
            community::format_for(variant.name(), path, &args.game_options).map_err(setup)?,
        )),
        None => None,
    };
    // Records are written anew over the match's own: the file the log
    // names, or one that holds the log's games as this run writes them (a
    // run resumed before with another --record wrote them there; one
    // killed between the log and the records lacks the last one). A file
    // of something else that holds anything is not written over.
    if let (Some((path, log)), Some((record, format))) = (&resumed, record) {
        let kept = log.header.record.as_deref().unwrap_or("none");
        let named = kept != "none" && resume::same_file(record, Path::new(kept));
        let held = std::fs::metadata(record).map_or(0, |m| m.len());
        if !named && held > 0 && !holds_records_of(record, format, time_control, &done) {
            return Err(setup(format!(
                "--resume {}: --record {} holds {held} bytes and is not this match's records \
                 (its log names {kept}, and the file does not hold the log's games): remove it \
                 or name another, which is written anew from the log's games",
                path.display(),
                record.display()
            )));
        }
    }
    // The championship's records hold games from the start alone: with
    // openings from position texts, every game would be left out of them.
    if let Some((
        path,
        plyd_protocol::RecordFormat::CcgcAmazons | plyd_protocol::RecordFormat::CcgcEinstein,
    )) = record
    {
        if let Some(opening) = openings
            .iter()
            .find(|o| o.start != openings::Start::StartPos)
        {
            return Err(setup(format!(
                "--record {}: the Chinese championship's records hold games from the start \
                 position alone, and opening {} starts from a position text: its games would \
                 be left out (give openings from the start: random:N, variety:N, or `startpos \
                 moves ...` lines)",
                path.display(),
                opening.label
            )));
        }
    }
    // The files this run makes (a path through a link, the file it
    // names), to be removed should no game be played: none the user had.
    let made: Vec<PathBuf> = [log_path.as_ref(), args.record.as_ref()]
        .into_iter()
        .flatten()
        .filter(|path| !path.exists())
        .cloned()
        .collect();
    let mut log_file = match &log_path {
        Some(path) => {
            Some(open_log(path, &header, resumed.as_ref().map(|(_, l)| l)).map_err(setup)?)
        }
        None => None,
    };
    // Games whose record could not be written (a full disk): the match
    // goes on, the games being in the log, and ends with exit status 3.
    let mut records_lost = 0u64;
    let mut record_file = match record {
        Some((path, format)) => {
            let file = plyd_util::files::open_held(path, true)
                .map_err(|e| setup(format!("cannot write the records {}: {e}", path.display())))?;
            let mut file = BufWriter::new(file);
            // Written anew from the log, so that the records match it even
            // if the interrupted run was killed between the two files.
            for game in &done {
                if let Err(e) = community::write_game(format, game, time_control, &mut file) {
                    say(&format!("plyd arena: {e}"));
                    records_lost += 1;
                }
            }
            Some((format, file))
        }
        None => None,
    };

    let mut standings = Standings::new([specs[0].name.clone(), specs[1].name.clone()]);
    let mut decided = false;
    for game in &done {
        standings.add(game);
        decided |= sprt.as_ref().is_some_and(|s| standings.sprt_decided(s));
    }
    if let Some((path, _)) = &resumed {
        say(&format!(
            "arena: resuming {}: {} of {} games played, {} to play{}",
            path.display(),
            done.len(),
            args.games,
            if decided { 0 } else { pending.len() },
            if decided {
                " (the SPRT has decided)"
            } else {
                ""
            }
        ));
    }
    let finished = Finished {
        standings: &standings,
        sprt: sprt.as_ref(),
        games: args.games,
        log_path: log_path.as_deref(),
        in_round_robin: args.in_round_robin,
        json: args.json.as_deref().filter(|_| !args.in_round_robin),
    };
    if pending.is_empty() || decided {
        finished.print_table();
        return Ok(());
    }

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
        pending: &pending,
        concurrency: args.concurrency,
        cancel,
    };
    let pairs = match matched.start_engines() {
        Ok(pairs) => pairs,
        Err(_) if cancel.is_set() => {
            finished.print_table();
            return Err(finished.interrupted());
        }
        Err(e) => {
            // No game was played: a log and records this run made would
            // only stand in the way of the command run again, mended (a
            // log holding a header asks for --resume, which the mended
            // engine's settings would then refuse).
            if resumed.is_none() {
                drop(log_file.take());
                drop(record_file.take());
                // Regular files only (a device such as `/dev/null` was
                // there before anyway), reached through a link.
                for path in &made {
                    if let Ok(file) = std::fs::canonicalize(path) {
                        if std::fs::metadata(&file).is_ok_and(|m| m.is_file()) {
                            let _ = std::fs::remove_file(file);
                        }
                    }
                }
            }
            return Err(setup(e.to_string()));
        }
    };
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

    let mut standings = standings.clone();
    let mut log_error = None;
    let mut alike_said = false;
    let same_setup = specs[0].player() == specs[1].player();
    let outcome = matched.play(pairs, |record| {
        if standings.add(record) && !std::mem::replace(&mut alike_said, true) {
            let other = if record.number % 2 == 0 {
                record.number - 1
            } else {
                record.number + 1
            };
            // Two set-ups that differ can choose alike where the choices
            // are few (EinStein: both games of a pair share their rolls).
            let why = if same_setup {
                "the engines played as one player (the same program and settings; with \
                 Variety on, a VarietySeed of each engine's own), and such a pair measures \
                 nothing"
            } else {
                "the two engines, set up apart, chose alike at every move (where the choices \
                 are few, as with the shared rolls of a game of dice, such pairs come; where \
                 they are many, look for one program and settings under two names)"
            };
            say(&format!(
                "plyd arena: warning: games {} and {} are the same move for move: {why} (the \
                 table counts them)",
                other.min(record.number),
                other.max(record.number)
            ));
        }
        say(&standings.progress_line(record, args.games, sprt.as_ref()));
        if let Some(file) = log_file.as_mut() {
            if let Err(e) = record.write_to(file) {
                log_error.get_or_insert(format!("cannot write the game log: {e}"));
                return false;
            }
        }
        if let Some((format, file)) = record_file.as_mut() {
            if let Err(e) = community::write_game(*format, record, time_control, file) {
                say(&format!("plyd arena: {e}"));
                records_lost += 1;
            }
        }
        if let Some(sprt) = &sprt {
            if standings.sprt_decided(sprt) && !decided {
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
    // Every record was flushed as it was written; these flushes only make
    // sure nothing is left in a buffer, whatever ended the match.
    if let Some(file) = log_file.as_mut() {
        if let Err(e) = file.flush() {
            log_error.get_or_insert(format!("cannot write the game log: {e}"));
        }
    }
    if let Some((_, file)) = record_file.as_mut() {
        if let Err(e) = file.flush() {
            say(&format!("plyd arena: cannot write the records: {e}"));
            records_lost += 1;
        }
    }

    let finished = Finished {
        standings: &standings,
        ..finished
    };
    finished.print_table();
    let log_whole = log_error.is_none();
    match (outcome, log_error) {
        (Err(why), _) | (Ok(()), Some(why)) => {
            // The games finished are in the log: once the cause is mended
            // (an engine that cannot start again), the match goes on.
            let played = standings.tally.games();
            let how = match (finished.log_path, played < args.games as u64 && log_whole) {
                (Some(path), true) if args.in_round_robin => format!(
                    "; the {played} games finished are in {}: once mended, the same command \
                     plays the rest",
                    path.display()
                ),
                (Some(path), true) => format!(
                    "; the {played} games finished are in {}: once mended, run the same command with --resume {} to play the rest",
                    path.display(),
                    path.display()
                ),
                _ => String::new(),
            };
            Err(ArenaError::Aborted(format!("{why}{how}")))
        }
        (Ok(()), None) => {
            let complete = standings.tally.games() >= args.games as u64 || decided;
            if cancel.is_set() && !complete {
                Err(finished.interrupted())
            } else if records_lost > 0 {
                Err(ArenaError::RecordsLost(format!(
                    "the records could not all be written ({records_lost} failed writes, each \
                     said above){}",
                    finished.log_path.map_or(String::new(), |path| format!(
                        "; every game is in the game log {}",
                        path.display()
                    ))
                )))
            } else {
                Ok(())
            }
        }
    }
}

/// The standings at the end of a match, and what is printed from them.
#[derive(Clone, Copy)]
struct Finished<'a> {
    standings: &'a Standings,
    sprt: Option<&'a Sprt>,
    games: usize,
    log_path: Option<&'a Path>,
    /// One pair of a round robin, which goes on by the same command.
    in_round_robin: bool,
    /// `--json FILE`: the result written there too.
    json: Option<&'a Path>,
}

impl Finished<'_> {
    /// The final table, on stdout (as kept from the referee's plugins'
    /// prints, [`plyd_util::output`]). A closed stdout (`| head`) must not
    /// turn into a panic; the games are in the log either way.
    /// A pair of a round robin writes its table on stderr, beside its
    /// progress: stdout holds the round robin's own table alone.
    fn print_table(&self) {
        if let Some(path) = self.json {
            let complete = self.standings.tally.games() >= self.games as u64;
            let text = self.standings.to_json(self.sprt, self.games, complete);
            if let Err(e) = std::fs::write(path, text) {
                say(&format!("plyd arena: --json {}: {e}", path.display()));
            }
        }
        let table = self.standings.final_table(self.sprt);
        if self.in_round_robin {
            let _ = write!(std::io::stderr(), "{table}");
            return;
        }
        let mut stdout = plyd_util::output::out();
        let _ = write!(stdout, "{table}");
        let _ = stdout.flush();
    }

    /// Say that the match was interrupted, and how to go on with it.
    fn interrupted(&self) -> ArenaError {
        let played = self.standings.tally.games();
        let left = self.games as u64 - played.min(self.games as u64);
        let how = match self.log_path {
            Some(path) if self.in_round_robin => format!(
                "its games are in {}, and the round robin's command run again plays the other {left}",
                path.display()
            ),
            Some(path) => format!(
                "to play the other {left}, run the same command with --resume {}",
                path.display()
            ),
            None => "it was played without --out, so it cannot be resumed".to_string(),
        };
        say(&format!(
            "plyd arena: match interrupted after {played} of {} games; {how}",
            self.games
        ));
        ArenaError::Interrupted
    }
}

/// The most bytes an openings file or a game log to resume may have.
pub(crate) const FILE_LIMIT: u64 = 256 << 20;

/// Read the game log to resume, as one line on what is wrong if it cannot be.
fn read_log(path: &Path) -> Result<(PathBuf, ParsedLog), String> {
    let bytes = plyd_util::files::read_bytes(path, FILE_LIMIT)
        .map_err(|e| format!("--resume {}: cannot read it: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "--resume {}: it is not a plyd arena game log (not text)",
            path.display()
        )
    })?;
    let log =
        resume::parse_log(&text).map_err(|why| format!("--resume {}: {why}", path.display()))?;
    Ok((path.to_path_buf(), log))
}

/// Open the game log: a new one gets the match header; one being resumed
/// is cut after its last complete record (dropping a half-written one) and
/// appended to.
fn open_log(
    path: &Path,
    header: &MatchHeader,
    resumed: Option<&ParsedLog>,
) -> Result<BufWriter<File>, String> {
    let cannot = |e: std::io::Error| format!("cannot write the game log {}: {e}", path.display());
    match resumed {
        Some(log) => {
            let mut file = plyd_util::files::open_held(path, false).map_err(cannot)?;
            // Read before it was held: another process that wrote it in
            // between (a round robin started twice on one folder, the
            // first finishing the pair's last game as the second read
            // it) would lose its games to this one's.
            if file.metadata().map_err(cannot)?.len() != log.read_len {
                return Err(format!(
                    "cannot write the game log {}: it changed while it was being read (another \
                     plyd arena given the same file, which has let it go since?); run the \
                     command again to go on from it as it is now",
                    path.display()
                ));
            }
            if log.header.games != header.games {
                // A match made longer: its header says so, for the next
                // resume. The log is written again from its start (the
                // count may take more digits), in one write.
                let mut text = Vec::new();
                File::open(path)
                    .and_then(|f| f.take(log.complete_len).read_to_end(&mut text))
                    .map_err(cannot)?;
                let text = with_games(&text, log.header.games, header.games).ok_or_else(|| {
                    format!(
                        "cannot write the game log {}: its header's Games tag was not found",
                        path.display()
                    )
                })?;
                file.seek(SeekFrom::Start(0)).map_err(cannot)?;
                file.write_all(&text).map_err(cannot)?;
                file.set_len(text.len() as u64).map_err(cannot)?;
            } else {
                file.set_len(log.complete_len).map_err(cannot)?;
            }
            file.seek(SeekFrom::End(0)).map_err(cannot)?;
            Ok(BufWriter::new(file))
        }
        None => {
            let mut file = BufWriter::new(plyd_util::files::open_held(path, true).map_err(cannot)?);
            header.write_to(&mut file).map_err(cannot)?;
            Ok(file)
        }
    }
}

/// A game log's text `log` with its header's `Games` tag changed from
/// `before` to `after`; `None` where its header has no such tag.
fn with_games(log: &[u8], before: usize, after: usize) -> Option<Vec<u8>> {
    let old = format!("[Games \"{before}\"]\n");
    let header_end = log
        .windows(2)
        .position(|w| w == b"\n\n")
        .map_or(log.len(), |at| at + 1);
    let at = log[..header_end]
        .windows(old.len())
        .position(|w| w == old.as_bytes())?;
    let mut text = log[..at].to_vec();
    text.extend_from_slice(format!("[Games \"{after}\"]\n").as_bytes());
    text.extend_from_slice(&log[at + old.len()..]);
    Some(text)
}

/// Whether the file at `path` holds the records of `games` in `format` as
/// the arena writes them, or the start of them (a run killed between
/// writing a game to its log and to its records).
fn holds_records_of(
    path: &Path,
    format: plyd_protocol::RecordFormat,
    time_control: Option<&str>,
    games: &[GameRecord],
) -> bool {
    let mut written = Vec::new();
    for game in games {
        if community::write_game(format, game, time_control, &mut written).is_err() {
            return false;
        }
    }
    let mut held = Vec::new();
    let read = File::open(path).and_then(|file| {
        // No more than the records could be: a large file of something
        // else is not read whole.
        file.take(written.len() as u64 + 1).read_to_end(&mut held)
    });
    read.is_ok() && !held.is_empty() && written.starts_with(&held)
}

/// Write a progress line to stderr, fit for one line whatever it quotes
/// (a file's line quoted in an error is cut, its control characters
/// escaped). A closed stderr (the arena piped into `head`) only silences
/// the progress; `eprintln!` would panic instead.
pub(crate) fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{}", plyd_util::text::printable(line));
}

/// A seed for a match run without `--seed`: the clock's nanoseconds.
fn seed_from_clock() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// The fingerprint of `source`'s openings file (`fnv1a64:...`), or
/// `none` for openings read from no file.
fn openings_file_fingerprint(source: &OpeningSource) -> String {
    match source {
        // The path is the Openings tag's, which a resume may spell
        // otherwise (relative, absolute): the contents alone here.
        OpeningSource::File(path) => {
            crate::args::fingerprint(path).unwrap_or_else(|| "unread".to_string())
        }
        _ => "none".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log written by another process after this one read it (the
    /// other finishing a pair's last game as a second round robin on the
    /// same folder came to it) is not cut back and appended to.
    #[test]
    fn a_log_written_after_it_was_read_is_not_taken_over() {
        let dir = std::env::temp_dir().join(format!("plyd-arena-log-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a-vs-b.txt");
        std::fs::write(&path, resume::tests::log_text(&[1])).unwrap();
        let (_, read) = read_log(&path).unwrap();
        // Unchanged since it was read: taken up.
        drop(open_log(&path, &read.header, Some(&read)).unwrap());
        std::fs::write(&path, resume::tests::log_text(&[1, 2])).unwrap();
        let err = open_log(&path, &read.header, Some(&read)).unwrap_err();
        assert!(err.contains("it changed while it was being read"), "{err}");
        // The other's game is kept.
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            resume::tests::log_text(&[1, 2])
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
