//! The `plyd` command line: the daemon by default, and tools as subcommands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use std::sync::atomic::Ordering;
use std::sync::Arc;

use plyd::book::{Book, BookBuilder};
use plyd::check::View;
use plyd::daemon::{self, create_evaluator, evaluation_lines, DaemonConfig, Protocol};
use plyd::host::{default_plugin_dirs, GameState, PluginError, PluginHost, VariantRef};
use plyd::options::{names, split_plugin_path, ConfigFile, EngineSettings};
use plyd::perft::Perft;
use plyd::search::bench::BenchTarget;
use plyd::search::{nps, SearchControl};
use plyd::search::{SearchOptions, Techniques};
use plyd_arena::{self as arena, ArenaArgs};
use plyd_protocol::{write_record_tree, write_xqf_tree, RecordFormat, RecordGame, RecordResult};

/// `println!` for the tools' output: to the descriptor stdout was kept in,
/// past whatever a plugin prints on its own stdout.
macro_rules! outln {
    ($($arg:tt)*) => {
        daemon::print_line(format_args!($($arg)*))
    };
}

/// plyd: a game-engine daemon for Amazons, Othello, Xiangqi and EinStein
/// würfelt nicht, driven over stdin/stdout with a UCI-style protocol.
#[derive(Parser, Debug)]
#[command(
    version = env!("PLYD_LONG_VERSION"),
    propagate_version = true,
    about,
    after_help = "Logs go to stderr, stdout carries the protocol or the tool's output; \
                  RUST_LOG sets the log's level (error, warn, info, debug, trace, off; \
                  default warn). The config file and the environment: docs/cli.md."
)]
struct Cli {
    /// Game variant: the daemon's at its start (default: othello); for
    /// `record`, the variant of the records (default: their own); for
    /// `arena`, the match's.
    #[arg(long, global = true)]
    game: Option<String>,
    /// Configuration file (TOML); default: the file PLYD_CONFIG names, if
    /// set.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Plugin directories, joined like PATH (overrides PLYD_PLUGIN_PATH and
    /// the config file's plugin_path, not a PluginPath option; default:
    /// the folder holding plyd, then ../lib/plyd beside it, then the
    /// folder PLYD_PLUGIN_DIR named when building).
    #[arg(long, global = true, value_name = "DIRS")]
    plugin_path: Option<String>,
    /// Evaluator to start with (in `arena`, each engine's
    /// option.Evaluator=NAME instead); "" the game's default, whatever the
    /// config file names.
    #[arg(long, global = true)]
    evaluator: Option<String>,
    /// Parameter file (TOML) for the evaluator (in `arena`, each engine's
    /// option.EvalParams=FILE instead); "" its defaults, whatever the
    /// config file names.
    #[arg(long, global = true, value_name = "FILE", value_parser = parse_path)]
    eval_params: Option<PathBuf>,
    /// The protocol to speak: uci, ucci, ugi, gtp, nboard or botzone (default: chosen by
    /// the first command).
    #[arg(long, value_name = "DIALECT", value_parser = parse_protocol)]
    protocol: Option<Protocol>,
    /// The daemon ends with exit status 2 at a problem at the start (a
    /// game, evaluator, parameter file, option or config value it cannot
    /// use), as the tools do, rather than start on what it could load:
    /// for servers and health checks.
    #[arg(long)]
    strict: bool,
    /// Set an option at the start, engine's or game's, as `setoption`
    /// sets it (repeatable): `--option MoveRanks=1-10 --option Threads=2`;
    /// after the config file's `[options]`. The tools (perft, check, eval,
    /// ...) take the game's options.
    #[arg(long = "option", global = true, value_name = "NAME=VALUE", value_parser = parse_option)]
    options: Vec<(String, String)>,
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand, Debug)]
enum Tool {
    /// Build an opening book from plyd's own searches, or extend one: from
    /// the start position (or --fen), every move of a position is searched
    /// to --depth, the moves within --margin of the best are followed
    /// --plies deep, and the scores are carried back from the deepest
    /// positions (negamax). The game, evaluator and its parameters are the
    /// global --game, --evaluator and --eval-params.
    Book {
        /// The book file, extended when it exists.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// How far the book reaches: the positions searched are those 0
        /// to PLIES - 1 plies below the start (2: the start and its
        /// replies).
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..))]
        plies: u32,
        /// Depth of each move's search.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// Moves scored within this many points of the best are followed
        /// (default: a hundredth of the evaluator's score bound).
        #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(0..))]
        margin: Option<i32>,
        /// Transposition table of the searches, in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Start from this position text instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the start (or --fen), space-separated: each
        /// position along them is added with all its moves scored, and the
        /// book is built from where they end, so that a line typed in is
        /// reached from the start.
        #[arg(long, value_name = "MOVES")]
        line: Option<String>,
    },
    /// Count the leaf nodes of the move tree, per root move.
    Perft {
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Start from this position text instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Count below each root move inside the plugin (no boundary
        /// crossing per node), to measure the rules alone.
        #[arg(long)]
        native: bool,
    },
    /// Search a fixed set of positions of each loaded game (or of GAME) to
    /// a fixed depth on one thread, and print the total node count (the
    /// search's regression signature) and the speed.
    Bench {
        /// Only this game variant.
        #[arg(value_name = "GAME")]
        bench_game: Option<String>,
        /// Depth in plies (default: chosen per game from its branching).
        depth: Option<u32>,
        /// Search switches to switch on, by option name (the core ones,
        /// `NullMove`, `LMR` ..., and the techniques), joined with commas
        /// (`ContHistory,Singular`), or `all` (every technique).
        #[arg(long, value_name = "NAMES")]
        on: Option<String>,
        /// Search switches to switch off (after `--on`), by option name,
        /// joined with commas, or `all` (every technique).
        #[arg(long, value_name = "NAMES")]
        off: Option<String>,
        /// Also print the calls into the plugins per node, by kind (needs
        /// a build with `--features call-counts`).
        #[arg(long)]
        calls: bool,
        /// The search's parameter file (TOML; `plyd params --search`
        /// prints the defaults), as `setoption name SearchParams` loads it.
        #[arg(long, value_name = "FILE")]
        search_params: Option<PathBuf>,
        /// Search the positions of this file (one position text a line;
        /// blank lines and lines starting `#` left out) in place of the
        /// bench's own; a GAME must be named.
        #[arg(long, value_name = "FILE")]
        positions: Option<PathBuf>,
    },
    /// Solve a file of endgame positions with known exact scores (for
    /// Othello, plugins/othello/ffo.txt), printing time, nodes and speed per
    /// position and in total; exits with 1 if a score differs from the file.
    EndgameBench {
        /// The position file.
        file: PathBuf,
        /// First position to solve, by name (default: the first of the file).
        #[arg(long)]
        from: Option<String>,
        /// Last position to solve, by name (default: the last of the file).
        #[arg(long)]
        to: Option<String>,
        /// Search threads (Lazy SMP).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB, emptied before each position.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Print the evaluation of a position, term by term, for people tuning
    /// an evaluator's weights.
    Eval {
        /// The position text (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Play random games through a game plugin and check every position
    /// for what the search takes on trust: distinct moves, never the
    /// reserved null move, move texts that read back, unmake_move
    /// restoring the position, no move only when the game is over. With
    /// --evaluator (or --eval-params), the evaluator too: one score a
    /// position, within its bound, its stacks (if it keeps them) scoring
    /// as evaluate does, every check on two threads at once (a global
    /// shared by the threads shows), and scores for the side to move,
    /// not for one player whoever moves. Exits with 1 if a problem
    /// was found, 2 if the plugin failed a call (a panic, an answer that
    /// cannot be true) and was disabled.
    Check {
        /// Games to play.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Plies of each game at most.
        #[arg(long, default_value_t = 300)]
        plies: u32,
        /// Seed of the random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from this position text instead of the start position.
        #[arg(long)]
        fen: Option<String>,
    },
    /// Print an evaluator's default parameters (TOML, as the evaluator
    /// ships them): a file to copy, edit and load with --eval-params or
    /// `setoption name EvalParams`. The game and evaluator are the global
    /// --game and --evaluator.
    Params {
        /// Print the search's parameters instead (margins, reductions):
        /// a file to load with `setoption name SearchParams` or `plyd
        /// bench --search-params`.
        #[arg(long)]
        search: bool,
    },
    /// Play a match between two engines and report Elo (and an SPRT).
    Arena(Box<ArenaArgs>),
    /// Replay the games of record files (CCGC Amazons or EinStein; GGF,
    /// SGF or PGN Othello, Othello transcripts, WTHOR databases; xiangqi
    /// PGN, XQF, or CCBridge's CBR games and CBL libraries) and print the
    /// `position startpos moves ...` line of each.
    Record {
        /// The record files (XQF files, one game each, given together); `-`
        /// reads the standard input.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print each game's first N plies only (openings for `plyd arena
        /// --openings FILE`), leaving out the games shorter than that; each
        /// game is still replayed and checked whole.
        #[arg(long, value_name = "N")]
        plies: Option<usize>,
        /// Print each game as a record of this format instead of its
        /// `position` line: `pgn` (xiangqi, ICCS moves; `pgn-chinese` with
        /// Chinese moves, `炮二平五`), `ggf` or `sgf`
        /// (Othello), `ccgc` (the Amazons and EinStein); a file converted,
        /// xiangqi's comments kept. `xqf` (xiangqi) writes a file a game
        /// into the `--out` folder. `positions` writes a row a ply, tab
        /// separated (game, ply, position, move, score, depth, result for
        /// the side to move), from any game's records and from a `plyd
        /// arena` log, whose scores it fills in.
        #[arg(long, value_name = "FORMAT")]
        to: Option<String>,
        /// The folder `--to xqf` writes its files into (`1.xqf`, `2.xqf`,
        /// ..., each game's place among the records read: a record that
        /// does not replay leaves its number unused).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Every line of an XQF, CBR or CBL game's move tree, and of a PGN
        /// game's variations, each as a game of its own (the main line
        /// first, with the result), not the main line alone.
        #[arg(long)]
        variations: bool,
        /// Every line of each game, as --variations reads them, written
        /// back as one record with its variations: xiangqi's `--to pgn`,
        /// `pgn-chinese` (nested `(...)`) or `xqf` (its move tree).
        #[arg(long)]
        tree: bool,
        /// With `--to positions`: search every position to this limit
        /// (`depth=N`, `nodes=N`, `movetime=MS`, joined by commas) on one
        /// thread, each search a fresh one, with the global --evaluator and
        /// --eval-params; the score and depth columns are the search's, and
        /// three follow: the best move, the played move's score (searched
        /// alone) and the loss. With `--to pgn`, `pgn-chinese`, `xqf` or
        /// `sgf`: each move's verdict a comment after it
        #[arg(long, value_name = "LIMIT")]
        analyse: Option<String>,
        /// Set a field of every record written (repeatable): `first=NAME`,
        /// `second=NAME`, `event=TEXT`, `place=TEXT` (when and where),
        /// `result=first|second|draw` (or 1-0, 0-1, 1/2-1/2), or any other
        /// NAME=VALUE as a PGN tag (`Round=3`)
        #[arg(long = "header", value_name = "KEY=VALUE", value_parser = parse_header)]
        header: Vec<(String, String)>,
    },
}

/// A `--header KEY=VALUE` of `plyd record`: a record field's name in lower
/// case (`first`, `second`, `event`, `place`, `result`), or a PGN tag's.
fn parse_header(text: &str) -> Result<(String, String), String> {
    let (key, value) = text
        .split_once('=')
        .filter(|(key, _)| !key.trim().is_empty())
        .ok_or_else(|| {
            format!("'{text}' is not KEY=VALUE (first=NAME, event=TEXT, result=first ...)")
        })?;
    let (key, value) = (key.trim(), value.trim());
    // The fields in any case (`Result=1-0` is the result, not a tag).
    let lower = key.to_ascii_lowercase();
    let key = match lower.as_str() {
        "first" | "second" | "event" | "place" | "result" => lower.as_str(),
        _ => key,
    };
    match key {
        "first" | "second" | "event" | "place" => {}
        "result" if header_result(value).is_some() => {}
        "result" => {
            return Err(format!(
                "result '{value}': first, second or draw (or 1-0, 0-1, 1/2-1/2)"
            ))
        }
        tag if tag.chars().all(|c| c.is_alphanumeric() || c == '_')
            && tag.starts_with(|c: char| c.is_uppercase()) => {}
        other => {
            return Err(format!(
                "'{other}' is no field (first, second, event, place, result) nor a PGN tag \
                 (a name in letters and digits, from a capital: Round)"
            ))
        }
    }
    Ok((key.to_string(), value.to_string()))
}

/// The result a `--header result=...` names.
fn header_result(value: &str) -> Option<RecordResult> {
    match value {
        "first" | "1-0" => Some(RecordResult::First),
        "second" | "0-1" => Some(RecordResult::Second),
        "draw" | "1/2-1/2" => Some(RecordResult::Draw),
        _ => None,
    }
}

/// `record` with the fields `--header` sets.
fn with_header(mut record: RecordGame, header: &[(String, String)]) -> RecordGame {
    for (key, value) in header {
        match key.as_str() {
            "first" => record.first = value.clone(),
            "second" => record.second = value.clone(),
            "event" => record.event = value.clone(),
            "place" => record.date_place = value.clone(),
            "result" => record.result = header_result(value).unwrap_or(record.result),
            tag => {
                record
                    .tags
                    .retain(|(name, _)| !name.eq_ignore_ascii_case(tag));
                record.tags.push((tag.to_string(), value.clone()));
            }
        }
    }
    record
}

/// A path as given, the empty one included (which `--eval-params ""`
/// gives for "none", where clap's own reader refuses it).
fn parse_path(text: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(text))
}

/// `NAME=VALUE` of `--option`: the name as `setoption` takes it (spaces
/// allowed: `"Move Overhead=50"`), the value after the first `=`.
fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!(
            "'{text}' is not NAME=VALUE (an option as setoption names it, then its value)"
        )),
    }
}

/// Settings resolved from the command line, the environment and the config
/// file, with the problems met on the way (`problems`).
fn resolve(cli: &Cli) -> DaemonConfig {
    let mut problems = Vec::new();
    let file = match &cli.config {
        Some(path) => ConfigFile::load(path).unwrap_or_else(|e| {
            // The daemon goes on without the file; a tool refuses to run
            // (see `main`), so only the daemon's line says it is ignored.
            problems.push(if cli.command.is_none() {
                format!("{e}; ignoring the file")
            } else {
                e.to_string()
            });
            ConfigFile::default()
        }),
        None => ConfigFile::default(),
    };
    // A relative eval_params in the config file is relative to the file.
    let beside_config = |p: PathBuf| match &cli.config {
        Some(config) if p.is_relative() => config.parent().map_or(p.clone(), |d| d.join(&p)),
        _ => p,
    };
    let config_eval_params = file.eval_params.clone().map(beside_config);
    let book = file.book.clone().map(beside_config);
    let mut settings = EngineSettings::default();
    problems.extend(file.apply(&mut settings));
    let (mut options, refused) = file.option_values();
    problems.extend(refused);
    // The file's `threads` and `hash` are set as their options are, first
    // and in that order: each checked against the memory there is (the
    // table's against the threads'), its problem or note naming the file,
    // line and key, as `[options] Hash` does.
    let defaults = EngineSettings::default();
    let mut first = Vec::new();
    if settings.threads != defaults.threads {
        first.push(("Threads", settings.threads, file.place_of("threads")));
        settings.threads = defaults.threads;
    }
    if settings.hash_mib != defaults.hash_mib {
        first.push(("Hash", settings.hash_mib, file.place_of("hash")));
        settings.hash_mib = defaults.hash_mib;
    }
    options.splice(
        0..0,
        first
            .into_iter()
            .map(|(name, value, place)| (name.to_string(), value.to_string(), place)),
    );
    // The file's paths are relative to the file, as its keys' are; a
    // GUI's `setoption`, and `--option`, are read from the working folder.
    for (name, value, _) in &mut options {
        let name = name.to_ascii_lowercase();
        if ["bookfile", "evalfile", "evalparams", "searchparams"].contains(&name.as_str())
            && !value.trim().is_empty()
        {
            *value = beside_config(PathBuf::from(value.trim()))
                .display()
                .to_string();
        } else if name == "pluginpath" && !value.trim().is_empty() {
            let dirs = split_plugin_path(value).into_iter().map(beside_config);
            if let Ok(joined) = std::env::join_paths(dirs) {
                *value = joined.to_string_lossy().into_owned();
            }
        }
    }
    // `--option`s in the same order as `[options]`: the game before its
    // evaluator, the rest as given.
    let mut given: Vec<_> = cli
        .options
        .iter()
        .map(|(name, value)| (name.clone(), value.clone(), FROM_COMMAND_LINE.to_string()))
        .collect();
    given.sort_by_key(|(name, _, _)| plyd::options::start_rank(name));
    options.extend(given);
    // The `PluginPath` option outranks every other way of naming the
    // folders: the first scan is of its folders (scanning the others
    // first told of their problems, then found the games elsewhere).
    let option_path = options
        .iter()
        .rposition(|(name, value, _)| {
            name.eq_ignore_ascii_case("PluginPath") && !value.trim().is_empty()
        })
        .map(|index| options[index].1.clone());
    if option_path.is_some() {
        options.retain(|(name, _, _)| !name.eq_ignore_ascii_case("PluginPath"));
    }
    let env_path = std::env::var("PLYD_PLUGIN_PATH")
        .ok()
        .filter(|p| !p.trim().is_empty());
    let path_text = option_path
        .or_else(|| cli.plugin_path.clone())
        .or(env_path)
        .or_else(|| {
            // A relative folder in the config file is relative to the
            // file, as its eval_params and book are.
            let dirs = split_plugin_path(file.plugin_path.as_deref()?);
            let joined = std::env::join_paths(dirs.into_iter().map(beside_config)).ok()?;
            Some(joined.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    // A path of no folder (blank, or separators alone: `:`) is none.
    let plugin_dirs = match split_plugin_path(&path_text) {
        dirs if dirs.is_empty() => default_plugin_dirs(),
        dirs => dirs,
    };
    // The config file's evaluator and its parameters are its game's: a
    // command line naming another game leaves both out, and another
    // evaluator the parameters, so that one file serves every game (its
    // xiangqi evaluator was forced on Othello, and refused).
    let other_game = matches!((&cli.game, &file.game),
        (Some(given), Some(filed)) if !given.eq_ignore_ascii_case(filed));
    let other_evaluator = cli.evaluator.as_ref().is_some_and(|given| {
        file.evaluator
            .as_ref()
            .is_none_or(|filed| !given.eq_ignore_ascii_case(filed))
    });
    let file_evaluator = file.evaluator.filter(|_| !other_game);
    let config_eval_params = match config_eval_params {
        Some(params) if other_game || other_evaluator => {
            log::info!(
                "the config file's eval_params {} are left out: they are for {}",
                params.display(),
                if other_game {
                    format!("its game, {}", file.game.as_deref().unwrap_or("?"))
                } else {
                    "its evaluator".to_string()
                }
            );
            None
        }
        params => params,
    };
    DaemonConfig {
        plugin_dirs,
        game: cli.game.clone().or(file.game),
        // An evaluator's file in the config file is relative to the file
        // too; a name is a name.
        // Empty on the command line: the default, the file's left out.
        evaluator: match &cli.evaluator {
            Some(given) if given.trim().is_empty() => None,
            Some(given) => Some(given.clone()),
            None => file_evaluator.map(|e| {
                if plyd::host::names_a_file(&e) {
                    beside_config(PathBuf::from(e)).display().to_string()
                } else {
                    e
                }
            }),
        },
        eval_params: match &cli.eval_params {
            Some(given) if given.as_os_str().is_empty() => None,
            Some(given) => Some(given.clone()),
            None => config_eval_params,
        },
        book,
        settings,
        plugin_path_text: path_text,
        protocol: cli.protocol,
        problems,
        options,
        strict: cli.strict,
    }
}

/// Botzone's name of Othello, `reversi` (its judge's and its game
/// list's), taken for `othello` under `--protocol botzone`, as Botzone's
/// `amazons` is taken for its 8x8 board.
fn botzone_game_name(config: &mut DaemonConfig) {
    if config.protocol == Some(Protocol::Botzone)
        && config
            .game
            .as_deref()
            .is_some_and(|game| game.eq_ignore_ascii_case("reversi"))
    {
        config.game = Some("othello".to_string());
    }
}

/// A config file's game that the protocol fixed on the command line does
/// not play (`game = "xiangqi"` for `--protocol gtp`) gives way to the
/// protocol's, with the file's evaluator and parameters (`from_file`:
/// whether they are the file's), where a game named on the command line
/// is refused: one file serves every protocol.
fn file_game_gives_way(
    config: &mut DaemonConfig,
    evaluator_from_file: bool,
    params_from_file: bool,
) {
    let (Some(protocol), Some(game)) = (config.protocol, config.game.as_deref()) else {
        return;
    };
    let plays = match protocol {
        Protocol::Botzone => plyd_protocol::BotzoneGame::of_variant(game).is_some(),
        Protocol::Gtp | Protocol::NBoard => game == "othello",
        _ => true,
    };
    if plays {
        return;
    }
    log::info!(
        "the config file's game {game} is not played over --protocol {}: left out, with its \
         evaluator and parameters",
        format!("{protocol:?}").to_ascii_lowercase()
    );
    config.game = None;
    if evaluator_from_file {
        config.evaluator = None;
    }
    if params_from_file {
        config.eval_params = None;
    }
}

/// Whether the protocol asked for plays the game asked for: Botzone's
/// games are the Amazons and Reversi, and its judge reads nothing but
/// moves, so a daemon that could never answer one says so before it starts.
fn protocol_plays_game(config: &DaemonConfig) -> Result<(), String> {
    match (config.protocol, config.game.as_deref()) {
        (Some(Protocol::Botzone), Some(game))
            if plyd_protocol::BotzoneGame::of_variant(game).is_none() =>
        {
            Err(format!(
                "Botzone does not play {game} (amazons8 or othello, which its names \
                 amazons and reversi are read as); \
                 leave the game unnamed (--game, the config file's game) to take it from the first request"
            ))
        }
        (Some(protocol @ (Protocol::Gtp | Protocol::NBoard)), Some(game)) if game != "othello" => {
            let name = if protocol == Protocol::Gtp {
                "GTP"
            } else {
                "NBoard"
            };
            Err(format!(
                "{name} plays Othello here, not {game}; leave the game unnamed (--game, the config file's game)"
            ))
        }
        _ => Ok(()),
    }
}

fn parse_protocol(text: &str) -> Result<Protocol, String> {
    Protocol::parse(text).ok_or_else(|| {
        format!(
            "unknown protocol '{text}' (one of {})",
            Protocol::NAMES.join(", ")
        )
    })
}

/// Whether this processor runs what the build was compiled for: x86-64
/// builds target x86-64-v2 with BMI1, BMI2 and LZCNT
/// (`.cargo/config.toml`), whose instructions the compiler may use
/// anywhere. Each feature the build was compiled with is looked for, so a
/// build for another target checks what it needs and no more. The
/// standard library itself is built for the baseline, so this check runs
/// before any of plyd's code.
fn processor_supported() -> Result<(), String> {
    #[cfg(target_arch = "x86_64")]
    {
        let needed: &[(&str, bool)] = &[
            #[cfg(target_feature = "popcnt")]
            ("popcnt", std::arch::is_x86_feature_detected!("popcnt")),
            #[cfg(target_feature = "sse4.2")]
            ("sse4.2", std::arch::is_x86_feature_detected!("sse4.2")),
            #[cfg(target_feature = "bmi1")]
            ("bmi1", std::arch::is_x86_feature_detected!("bmi1")),
            #[cfg(target_feature = "bmi2")]
            ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
            #[cfg(target_feature = "lzcnt")]
            ("lzcnt", std::arch::is_x86_feature_detected!("lzcnt")),
        ];
        let missing: Vec<&str> = needed
            .iter()
            .filter_map(|&(name, present)| (!present).then_some(name))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "this build of plyd uses processor instructions this processor lacks ({}); \
                 rebuild with RUSTFLAGS=\"-C target-cpu=x86-64\"",
                missing.join(", ")
            ));
        }
    }
    Ok(())
}

/// The first word of a `RUST_LOG` value that the logging crate would read
/// as a filter for a module plyd does not have (a mistyped level: a
/// directive with no `=` that names neither a level nor a plyd module).
fn unknown_log_word(spec: &str) -> Option<&str> {
    const LEVELS: [&str; 6] = ["error", "warn", "info", "debug", "trace", "off"];
    spec.split('/')
        .next()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|directive| !directive.is_empty() && !directive.contains('='))
        .find(|name| {
            !LEVELS.iter().any(|level| name.eq_ignore_ascii_case(level))
                && !name.starts_with("plyd")
        })
}

fn main() -> ExitCode {
    // A tool whose output cannot be written has said so and unwound
    // (`daemon::print_line`): exit status 1, not a panic's 101.
    match std::panic::catch_unwind(run) {
        Ok(code) => code,
        Err(payload) if payload.is::<daemon::StdoutFailed>() => ExitCode::from(1),
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// The longest log message written whole, in bytes.
const LOG_LINE_BYTES: usize = 4096;

fn run() -> ExitCode {
    if let Err(message) = processor_supported() {
        eprintln!("plyd: {message}");
        return ExitCode::FAILURE;
    }
    plyd::daemon::process_started();
    // A fault inside a plugin gets a line naming it before the process
    // dies of it.
    plyd::host::crash::install();
    let address_limit = plyd::memory::fit_allocator_to_limits();
    // Each log line starts with the seconds since the process started: what
    // matters under a clock is how far into the game a line came.
    let log_spec = std::env::var("RUST_LOG").ok();
    let mut logger = env_logger::Builder::new();
    match &log_spec {
        // Errors stay in the log under any filter but an explicit `off`:
        // a mistyped level (`RUST_LOG=warning`) reads as a module filter
        // that matches nothing, which silenced them.
        Some(spec) if !spec.trim().is_empty() => logger
            .filter_level(log::LevelFilter::Error)
            .parse_filters(spec),
        _ => logger.filter_level(log::LevelFilter::Warn),
    };
    logger
        .target(env_logger::Target::Pipe(Box::new(plyd::logpipe::LogWriter)))
        .format(|out, record| {
            use std::io::Write;
            let seconds = plyd::daemon::process_started().elapsed().as_secs_f64();
            let message = record.args().to_string();
            // A message past a few kilobytes (a value of millions of
            // characters quoted back) is cut as the GUI's error lines are.
            // A newline or other control character taken from the input
            // (a config key, a file name) is escaped: it would start a
            // line that reads as the log's own.
            let message = if message.len() > LOG_LINE_BYTES {
                plyd::daemon::printable(&message)
            } else {
                plyd_util::text::escaped(&message).into_owned()
            };
            writeln!(
                out,
                "[{seconds:.3}s {} {}] {message}",
                record.level(),
                record.target(),
            )
        })
        .init();
    if let Some(word) = log_spec.as_deref().and_then(unknown_log_word) {
        log::error!(
            "RUST_LOG: '{word}' is no level (error, warn, info, debug, trace, off) and no module of plyd's: \
             read as a filter for a module of that name (errors are logged all the same)"
        );
    }
    if let Some(mib) = address_limit {
        log::info!("address space limited to {mib} MiB: one allocator arena for every thread");
    }
    let mut cli = Cli::parse();
    // The config file a package or a user names once for every start,
    // where the GUI gives plyd no arguments.
    let config_from_env = cli.config.is_none();
    if cli.config.is_none() {
        cli.config = std::env::var_os("PLYD_CONFIG")
            .filter(|path| !path.is_empty())
            .map(PathBuf::from);
    }
    if cli.command.is_some() && !matches!(cli.command, Some(Tool::Arena(_))) {
        // A tool's output piped into `head` ends the tool when the pipe
        // closes, as other command-line tools end, not in a panic on the
        // next print. (The daemon, and the arena, which writes to engines
        // that may have exited, keep Rust's default: they see the error
        // and go on in order.)
        #[cfg(unix)]
        // SAFETY: restoring a signal's default action, before any thread
        // is started.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    // The daemon's stdout is the protocol's, and a tool's its output's (the
    // arena's table included): a plugin's own prints go to stderr.
    daemon::keep_stdout_for_the_protocol();
    if let Some(path) = &cli.config {
        let from = if config_from_env {
            "PLYD_CONFIG"
        } else {
            "--config"
        };
        log::info!("config file {} (from {from})", path.display());
    }
    let mut config = resolve(&cli);
    if cli.game.is_none() {
        file_game_gives_way(
            &mut config,
            cli.evaluator.is_none(),
            cli.eval_params.is_none(),
        );
    }
    botzone_game_name(&mut config);
    if let Err(message) = protocol_plays_game(&config) {
        eprintln!("plyd: {message}");
        return ExitCode::from(2);
    }
    // The daemon starts with defaults for what it could not use (and
    // tells the GUI); a tool's run is one command, which a flawed
    // configuration would quietly turn into another (a match of the
    // default game): refused.
    if cli.command.is_some() && !config.problems.is_empty() {
        for problem in &config.problems {
            eprintln!("plyd: {problem}");
        }
        let leave_out = if config_from_env && cli.config.is_some() {
            "unset PLYD_CONFIG, which names it"
        } else {
            "leave --config out"
        };
        eprintln!(
            "plyd: a tool does not run with a configuration it cannot use whole; mend it or \
             {leave_out}"
        );
        return ExitCode::from(2);
    }
    for problem in &config.problems {
        log::error!("{problem}");
    }
    match &cli.command {
        None => {
            // A stderr nobody reads must not stop the daemon.
            plyd::logpipe::go_async();
            daemon::run(config);
            plyd::logpipe::finish(Duration::from_millis(500));
            ExitCode::SUCCESS
        }
        Some(Tool::Bench {
            bench_game,
            depth,
            on,
            off,
            calls,
            search_params,
            positions,
        }) => {
            let game = bench_game.as_deref().or(config.game.as_deref());
            let given = match (positions, game) {
                (None, _) => Ok(None),
                (Some(_), None) => Err(
                    "--positions: name the game its positions are of (plyd bench GAME \
                     --positions FILE)"
                        .to_string(),
                ),
                (Some(path), Some(_)) => bench_positions(path).map(Some),
            };
            let given = match given {
                Ok(given) => given,
                Err(e) => {
                    eprintln!("plyd bench: {e}");
                    return ExitCode::from(2);
                }
            };
            match chosen_switches(on.as_deref(), off.as_deref())
                .and_then(|mut switches| {
                    if let Some(path) = search_params {
                        switches.params = plyd::search::SearchParams::load(path)?;
                        // On stderr: stdout is the bench's, which tools read.
                        eprintln!(
                            "plyd bench: search params {}: {}",
                            path.display(),
                            switches.params.summary()
                        );
                    }
                    Ok(switches)
                })
                .and_then(|switches| bench(&config, game, *depth, &switches, *calls, given))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("plyd bench: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Tool::EndgameBench {
            file,
            from,
            to,
            threads,
            hash,
        }) => {
            let range = (from.as_deref(), to.as_deref());
            // The daemon's ranges: `--threads 0` ran on none and said so,
            // `--hash 0` had no table.
            let ranges = [
                ("--threads", *threads, plyd::options::THREADS_RANGE),
                ("--hash", *hash, plyd::options::HASH_RANGE),
            ];
            for (flag, value, range) in ranges {
                if range.check(flag, value as i64).is_err() {
                    eprintln!(
                        "plyd endgame-bench: {flag} {value} is outside {}..={}, as the daemon's \
                         option is",
                        range.min, range.max
                    );
                    return ExitCode::from(2);
                }
            }
            match endgame_bench(&config, file, range, *threads, *hash) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("plyd endgame-bench: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Tool::Book {
            out,
            plies,
            depth,
            margin,
            hash,
            fen,
            line,
        }) => {
            let plan = BookPlan {
                out,
                plies: *plies,
                depth: *depth,
                margin: *margin,
                hash: *hash,
                fen: fen.as_deref(),
                line: line.as_deref(),
            };
            match build_book(&config, &plan) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("plyd book: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Tool::Perft { depth, fen, native }) => {
            match perft(&config, *depth, fen.as_deref(), *native) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("plyd perft: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Tool::Eval { fen }) => match eval(&config, fen.as_deref()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("plyd eval: {e}");
                ExitCode::from(2)
            }
        },
        Some(Tool::Check {
            games,
            plies,
            seed,
            fen,
        }) => {
            let host = match load_plugins(&config) {
                Ok(host) => host,
                Err(e) => {
                    eprintln!("plyd check: {e}");
                    return ExitCode::from(2);
                }
            };
            // The evaluator's check runs on threads of its own: every
            // thread of the process is looked at.
            watch_progress(
                "check",
                &config,
                || plyd::check::PROGRESS.load(Ordering::Relaxed),
                plyd::threads::all_ids,
            );
            let checked = configured_variant(&host, &config).and_then(|variant| {
                let rules = plyd::check::run(&variant, fen.as_deref(), *games, *plies, *seed)?;
                // The evaluator too, when one is named.
                let evaluator = if config.evaluator.is_some() || config.eval_params.is_some() {
                    let evaluator = named_evaluator(&config, &host, &variant)?;
                    // The game's own first evaluator, for the sign of the
                    // scores, where it is another one.
                    let reference = host
                        .evaluators_for(&variant.plugin)
                        .into_iter()
                        .next()
                        .filter(|first| first.name() != evaluator.name())
                        .and_then(|first| create_evaluator(&variant.plugin, first, None).ok());
                    let (report, failure) = plyd::check::run_evaluator(
                        &variant,
                        &evaluator,
                        reference.as_ref(),
                        fen.as_deref(),
                        *games,
                        *plies,
                        *seed,
                    );
                    // What a call costs, on one thread, the games done.
                    let (cost, failure) = match failure {
                        Some(failure) => (None, Some(failure)),
                        None => {
                            match plyd::check::evaluate_cost(&variant, &evaluator, fen.as_deref()) {
                                Ok(cost) => (Some(cost), None),
                                Err(e) => (None, Some(format!("{e} (while timing evaluate)"))),
                            }
                        }
                    };
                    Some((
                        evaluator.name().to_string(),
                        evaluator.is_incremental(),
                        report,
                        failure,
                        reference.map(|r| r.name().to_string()),
                        cost,
                    ))
                } else {
                    None
                };
                Ok((variant.name().to_string(), rules, evaluator))
            });
            match checked {
                Ok((game, rules, evaluator)) => {
                    outln!(
                        "{game}: {}, {}, {} made and unmade",
                        plyd::counted(rules.games as usize, "game", "games"),
                        plyd::counted(rules.positions as usize, "position", "positions"),
                        plyd::counted(rules.moves as usize, "move", "moves"),
                    );
                    if rules.unfinished > 0 && rules.unfinished == rules.games {
                        outln!(
                            "note: none of the {} ended within {} (--plies): a game whose outcome never \
                             says it is over never ends in a match either",
                            plyd::counted(rules.games as usize, "game", "games"),
                            plyd::counted(*plies as usize, "ply", "plies"),
                        );
                    }
                    let mut problems: Vec<_> = rules.problems.into_iter().collect();
                    let mut failed = None;
                    let mut side_problem = None;
                    let mut leak_problem = None;
                    if let Some((name, incremental, report, failure, reference, cost)) = evaluator {
                        let compared = if incremental {
                            format!(
                                ", and {} scores of its stacks compared with evaluate's on {} threads",
                                report.from_stack, report.threads
                            )
                        } else {
                            String::new()
                        };
                        outln!(
                            "evaluator {name}: {} of its own, {} each scored twice (to check \
                             for one score a position, within its score_bound){compared}",
                            plyd::counted(report.games as usize, "game", "games"),
                            plyd::counted(report.positions as usize, "position", "positions"),
                        );
                        if report.left_to_evaluate > 0 || report.unsupported_resets > 0 {
                            outln!(
                                "note: its stacks left {} positions to evaluate \
                                 (stack_evaluate answered STATUS_UNSUPPORTED), and {} games \
                                 (stack_reset answered it): those were not compared",
                                report.left_to_evaluate,
                                report.unsupported_resets
                            );
                        }
                        if report.shallow_compared > 0 {
                            let depths = match report.shallow_deepest {
                                1 => "depth 1".to_string(),
                                deepest => format!("depths 1 to {deepest}"),
                            };
                            outln!(
                                "its shallow_search: {} compared with the same tree searched whole \
                                 ({depths}, windows around the tree's score and at random)",
                                plyd::counted(report.shallow_compared as usize, "search", "searches"),
                            );
                        }
                        if report.shallow_left > 0 {
                            outln!(
                                "note: its shallow_search left {} to the host \
                                 (STATUS_UNSUPPORTED): those were not compared",
                                plyd::counted(report.shallow_left as usize, "search", "searches")
                            );
                        }
                        // A bound set too small: scores piled at it (a Rust
                        // evaluator's are clamped there by the SDK, and pass
                        // the check above).
                        // More than half: an evaluation that saturates by design
                        // (a probability of winning, a sigmoid) reaches it at
                        // decided positions, a third of them at most in ten games.
                        if report.positions > 0 && report.at_bound * 2 > report.positions {
                            outln!(
                                "note: {} of {} scored at its score_bound ({}) or past it: a bound \
                                 set too small flattens every score beyond it (`plyd eval` shows a \
                                 position's terms)",
                                report.at_bound,
                                plyd::counted(report.positions as usize, "position", "positions"),
                                report.score_bound,
                            );
                        }
                        let pairs = report.one_ply.len();
                        match report.one_ply.view() {
                            View::SideToMove(rho) => outln!(
                                "its scores are the side to move's: they rank as the best of its \
                                 scores one ply on ranks (Spearman's {rho:.2} over {pairs} positions)"
                            ),
                            View::OnePlayer(rho) => side_problem = Some(format!(
                                "problem: evaluate seems to score for one player whoever is to move, \
                                 not for the side to move: its scores rank opposite to the best of its \
                                 scores one ply on, negated where the other side moves there \
                                 (Spearman's {rho:.2} over {pairs} positions)"
                            )),
                            // A check ended by a failed call has its own line.
                            View::Unclear(_) if failure.is_some() => {}
                            View::Unclear(rho) => outln!(
                                "note: whether its scores are the side to move's could not be told: \
                                 {} over {pairs} positions between them and the best of its scores \
                                 one ply on",
                                rho.map_or("no correlation".to_string(), |rho| format!(
                                    "Spearman's {rho:.2}"
                                ))
                            ),
                        }
                        // A score negated everywhere reads as the side to
                        // move's above; against the game's own evaluator it
                        // runs the other way.
                        if let Some(reference) = &reference {
                            let pairs = report.reference.len();
                            match report.reference.view() {
                                View::SideToMove(rho) => outln!(
                                    "its scores rise with the scores of the game's evaluator \
                                     {reference} (Spearman's {rho:.2} over {pairs} positions)"
                                ),
                                // Not a problem: an evaluator of other terms
                                // may run against it (a disc count against
                                // Othello's patterns: -0.45 over six games).
                                View::OnePlayer(rho) => outln!(
                                    "warning: its scores run against the scores of the game's \
                                     evaluator {reference} (Spearman's {rho:.2} over {pairs} \
                                     positions): is every score negated, for the side that has \
                                     just moved? An evaluator that measures other things may \
                                     disagree (a disc count does in Othello's middle game); \
                                     `plyd arena` against {reference} tells"
                                ),
                                View::Unclear(_) if failure.is_some() => {}
                                View::Unclear(rho) => outln!(
                                    "note: its scores and those of the game's evaluator \
                                     {reference} neither rise nor fall together: {} over {pairs} \
                                     positions",
                                    rho.map_or("no correlation".to_string(), |rho| format!(
                                        "Spearman's {rho:.2}"
                                    ))
                                ),
                            }
                        }
                        if let Some(cost) = cost {
                            outln!(
                                "its evaluate: {} a call ({} of one position, on one thread)",
                                plyd::check::call_time(cost.per_call),
                                plyd::counted(cost.calls as usize, "call", "calls")
                            );
                            // Slow enough to matter to a search: thousands
                            // of positions a second at most.
                            if cost.per_call >= std::time::Duration::from_micros(100) {
                                outln!(
                                    "note: evaluate takes {} a call: a search scores at most \
                                     {:.0} positions a second with it (the shipped evaluators \
                                     take about a microsecond or less)",
                                    plyd::check::call_time(cost.per_call),
                                    1.0 / cost.per_call.as_secs_f64()
                                );
                            }
                            if let Some(kept) = cost
                                .kept_per_call
                                .filter(|&kept| kept >= plyd::check::LEAK_BYTES_PER_CALL)
                            {
                                leak_problem = Some(format!(
                                    "problem: evaluate keeps memory it never frees: {kept:.0} \
                                     bytes a call over {} ({:.1} MB after a million calls, which \
                                     a search makes in seconds)",
                                    plyd::counted(cost.calls as usize, "call", "calls"),
                                    // A byte a call is a megabyte a million.
                                    kept
                                ));
                            }
                        }
                        problems.extend(report.problems);
                        failed = failure;
                    }
                    for (kind, (count, first)) in &problems {
                        let times = if *count == 1 {
                            "once".to_string()
                        } else {
                            format!("{count} times")
                        };
                        outln!("problem: {kind}: {times}, first in {first}");
                    }
                    if let Some(line) = &side_problem {
                        outln!("{line}");
                    }
                    if let Some(line) = &leak_problem {
                        outln!("{line}");
                    }
                    // A failed call ends the check after what it found.
                    if let Some(e) = failed {
                        eprintln!("plyd check: {e}");
                        return ExitCode::from(2);
                    }
                    if problems.is_empty() && side_problem.is_none() && leak_problem.is_none() {
                        outln!("no problem found");
                        return ExitCode::SUCCESS;
                    }
                    ExitCode::from(1)
                }
                Err(e) => {
                    eprintln!("plyd check: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Tool::Params { search: true }) => {
            outln!(
                "{}",
                plyd::search::params::DEFAULT_TEXT
                    .strip_suffix('\n')
                    .unwrap_or(plyd::search::params::DEFAULT_TEXT)
            );
            ExitCode::SUCCESS
        }
        Some(Tool::Params { search: false }) => match default_params(&config) {
            Ok(text) => {
                // The whole text, ended by one newline (none when empty).
                if !text.is_empty() {
                    outln!("{}", text.strip_suffix('\n').unwrap_or(&text));
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("plyd params: {e}");
                ExitCode::from(2)
            }
        },
        Some(Tool::Record {
            files,
            plies,
            to,
            out,
            variations,
            tree,
            analyse,
            header,
        }) => {
            if let Some(to) = to.as_deref().filter(|t| {
                !matches!(
                    *t,
                    "pgn" | "pgn-chinese" | "ggf" | "sgf" | "ccgc" | "xqf" | POSITIONS
                )
            }) {
                eprintln!(
                    "plyd record: --to {to}: the formats are pgn, pgn-chinese, ggf, sgf, ccgc, xqf \
                     and positions"
                );
                return ExitCode::from(2);
            }
            if *tree && !matches!(to.as_deref(), Some("pgn" | "pgn-chinese" | "xqf")) {
                eprintln!("plyd record: --tree writes xiangqi's records with their variations: give --to pgn, pgn-chinese or xqf");
                return ExitCode::from(2);
            }
            if !header.is_empty() && to.is_none() {
                eprintln!(
                    "plyd record: --header sets fields of the records written: give --to FORMAT"
                );
                return ExitCode::from(2);
            }
            let limits = match analyse.as_deref().map(plyd::analysis::parse_limit) {
                Some(Ok(_))
                    if !matches!(
                        to.as_deref(),
                        Some(POSITIONS | "pgn" | "pgn-chinese" | "sgf" | "xqf")
                    ) =>
                {
                    eprintln!("plyd record: --analyse fills the rows of --to positions, or writes its verdicts as comments in a record that keeps them: give --to positions, pgn, pgn-chinese, xqf or sgf");
                    return ExitCode::from(2);
                }
                Some(Ok(_)) if *tree || *variations => {
                    eprintln!("plyd record: --analyse reads each game's main line: leave --tree and --variations out");
                    return ExitCode::from(2);
                }
                Some(Err(e)) => {
                    eprintln!("plyd record: --analyse: {e}");
                    return ExitCode::from(2);
                }
                Some(Ok(limits)) => Some(limits),
                None => None,
            };
            let folder = match (to.as_deref(), out) {
                (Some("xqf"), Some(dir)) => match std::fs::create_dir_all(dir) {
                    Ok(()) => Some(dir.as_path()),
                    Err(_) if dir.exists() && !dir.is_dir() => {
                        eprintln!(
                            "plyd record: --out {}: not a folder (a file of that name is there); \
                             --to xqf writes a file a game into the folder --out names",
                            dir.display()
                        );
                        return ExitCode::from(2);
                    }
                    Err(e) => {
                        eprintln!("plyd record: --out {}: {e}", dir.display());
                        return ExitCode::from(2);
                    }
                },
                (Some("xqf"), None) => {
                    eprintln!("plyd record: --to xqf writes a file a game: give the folder with --out DIR");
                    return ExitCode::from(2);
                }
                (_, Some(_)) => {
                    eprintln!("plyd record: --out is the folder of --to xqf's files");
                    return ExitCode::from(2);
                }
                (_, None) => None,
            };
            let host = match load_plugins(&config) {
                Ok(host) => host,
                Err(e) => {
                    eprintln!("plyd record: {e}");
                    return ExitCode::from(2);
                }
            };
            // A game named that is not loaded is refused before any file,
            // as the other tools refuse it.
            if let Some(Err(e)) = cli.game.as_deref().map(|name| find_variant(&host, name)) {
                eprintln!("plyd record: {e}");
                return ExitCode::from(2);
            }
            // The records may be of any loaded game: each game's own
            // options (`MoveRanks=1-10`) are set on its plugin.
            for variant in host.variants() {
                if let Err(e) = set_game_options(&variant.plugin, &config) {
                    eprintln!("plyd record: {e}");
                    return ExitCode::from(2);
                }
            }
            let mut analyst = match limits {
                Some(limits) => {
                    let make = |variant: &VariantRef| named_evaluator(&config, &host, variant);
                    match plyd::analysis::Analyst::new(limits, Box::new(make)) {
                        Ok(analyst) => Some(analyst),
                        Err(e) => {
                            eprintln!("plyd record: --analyse: {e}");
                            return ExitCode::from(2);
                        }
                    }
                }
                None => None,
            };
            // Each file in turn; the exit code is the worst of them.
            let mut code = 0u8;
            let mut numbered = 0usize;
            if to.as_deref() == Some(POSITIONS) {
                match analyst {
                    Some(_) => outln!(
                        "{}\t{}",
                        plyd::replay::POSITION_COLUMNS,
                        plyd::analysis::ANALYSIS_COLUMNS
                    ),
                    None => outln!("{}", plyd::replay::POSITION_COLUMNS),
                }
            }
            for file in files {
                let wanted = RecordWanted {
                    plies: *plies,
                    to: to.as_deref(),
                    folder,
                    variations: *variations || *tree,
                    tree: *tree,
                    unnamed: config.game.as_deref(),
                    header,
                };
                code = code.max(record_file(
                    &host,
                    file,
                    cli.game.as_deref(),
                    wanted,
                    &mut numbered,
                    analyst.as_mut(),
                ));
            }
            ExitCode::from(code)
        }
        Some(Tool::Arena(args)) => {
            let mut args = args.clone();
            args.build = format!("plyd {}", env!("PLYD_LONG_VERSION"));
            // Each engine chooses its own evaluator (option.Evaluator=...);
            // one given to the arena itself would silently do nothing.
            if cli.evaluator.is_some() {
                eprintln!("plyd arena: --evaluator does not apply to a match; give each engine option.Evaluator=NAME");
                return ExitCode::from(2);
            }
            if cli.eval_params.is_some() {
                eprintln!("plyd arena: --eval-params does not apply to a match; give each engine option.EvalParams=FILE");
                return ExitCode::from(2);
            }
            if !cli.options.is_empty() {
                eprintln!("plyd arena: --option does not apply to a match; give each engine option.NAME=VALUE, and the referee a game's option with --game-option NAME=VALUE");
                return ExitCode::from(2);
            }
            arena::run(&args, &config.plugin_dirs, config.game.as_deref())
        }
    }
}

/// What `plyd record` prints of each game: its first `plies` moves only,
/// and as a record of the format `to` rather than a `position` line.
#[derive(Clone, Copy)]
struct RecordWanted<'a> {
    plies: Option<usize>,
    to: Option<&'a str>,
    /// Where `--to xqf` writes its files.
    folder: Option<&'a Path>,
    /// Every line of an XQF, CBR or CBL game's move tree, and of a PGN
    /// game's variations, not the main line alone.
    variations: bool,
    /// The lines of a game written as one record, its variations in it.
    tree: bool,
    /// The game of the `position` lines among the records where `--game`
    /// names none: the configuration's.
    unnamed: Option<&'a str>,
    /// The fields `--header` sets in every record written.
    header: &'a [(String, String)],
}

/// Print `rows` on stdout, or say why there are none; whether there were.
fn print_rows(rows: Result<Vec<String>, String>, say: &dyn Fn(&dyn std::fmt::Display)) -> bool {
    match rows {
        Ok(rows) => {
            for row in rows {
                outln!("{row}");
            }
            true
        }
        Err(e) => {
            say(&e);
            false
        }
    }
}

/// `--to positions`: one row a ply, tab-separated, for training data
/// ([`plyd::replay::POSITION_COLUMNS`]).
const POSITIONS: &str = "positions";

/// The record format `to` names for a game of `variant`.
fn record_format(to: &str, variant: &str) -> Result<RecordFormat, String> {
    let base = variant.trim_end_matches(char::is_numeric);
    match (to, base) {
        ("pgn", "xiangqi") => Ok(RecordFormat::XiangqiPgn {
            ranks_from_one: false,
        }),
        ("pgn-chinese", "xiangqi") => Ok(RecordFormat::XiangqiPgnChinese),
        ("ggf", "othello") => Ok(RecordFormat::Ggf),
        ("sgf", "othello") => Ok(RecordFormat::Sgf),
        ("ccgc", "amazons") => Ok(RecordFormat::CcgcAmazons),
        ("ccgc", "einstein") => Ok(RecordFormat::CcgcEinstein),
        _ => Err(format!(
            "a game of {variant} is not written as {to} (pgn, pgn-chinese, xqf: xiangqi; ggf, sgf: othello; ccgc: amazons, einstein; positions: every game)"
        )),
    }
}

/// `plyd record`'s work on one file: its games' `position` lines (or
/// records) on stdout, its notes and failures on stderr. 0 when every game
/// replayed, 1 when one did not (or a binary file does not read, or a
/// game cannot be written as asked), 2 when the file could not be read at
/// all. With `plies`, each game is cut to its first `plies` moves (its
/// result then not known), and games with fewer are left out (counted on
/// stderr).
fn record_file(
    host: &PluginHost,
    file: &Path,
    game: Option<&str>,
    wanted: RecordWanted,
    numbered: &mut usize,
    mut analyst: Option<&mut plyd::analysis::Analyst<'_>>,
) -> u8 {
    // A record's text quoted in a message reaches the terminal with its
    // control characters written out, as the daemon's error lines do.
    let say = |what: &dyn std::fmt::Display| {
        eprintln!(
            "plyd record: {}",
            plyd::daemon::printable(&format!("{}: {what}", file.display()))
        )
    };
    // `-`: the standard input (a game piped in from another tool).
    let read = if file == Path::new("-") {
        plyd_util::files::read_stdin(plyd::RECORD_FILE_LIMIT)
    } else {
        plyd_util::files::read_bytes(file, plyd::RECORD_FILE_LIMIT)
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(e) => {
            say(&e);
            return 2;
        }
    };
    // An arena log's games, position by position, with their scores.
    if wanted.to == Some(POSITIONS) {
        let text = plyd_util::files::decode_text(&bytes);
        if plyd::replay::is_arena_log(&text) {
            let mut emit = |rows: Vec<String>| {
                for row in rows {
                    outln!("{row}");
                }
            };
            return match plyd::replay::arena_log_rows(host, &text, analyst, &mut emit) {
                Ok(()) => 0,
                Err(e) => {
                    say(&e);
                    1
                }
            };
        }
    }
    let text = plyd::replay::record_text(&bytes, file, wanted.variations);
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            say(&e);
            return 1;
        }
    };
    let replayed = match plyd::replay::replay_records(host, &text, game, wanted.unnamed) {
        Ok(replayed) => replayed,
        Err(e) => {
            say(&e);
            return 1;
        }
    };
    let mut failed = !replayed.failures.is_empty();
    let mut shorter = 0;
    // Each game to write, with the lines written in it as variations
    // (`--tree`: the other lines of its number).
    let mut entries: Vec<(usize, String, RecordGame, Vec<RecordGame>)> = Vec::new();
    for (number, variant, mut record) in replayed.games {
        if let Some(n) = wanted.plies {
            if record.moves.len() < n {
                shorter += 1;
                continue;
            }
            if record.moves.len() > n {
                record.moves.truncate(n);
                record.comments.retain(|&(at, _)| at <= n);
                record.result = RecordResult::Unknown;
                record.margin = None;
            }
        }
        match entries.last_mut() {
            Some((last, _, _, lines)) if wanted.tree && *last == number => lines.push(record),
            _ => entries.push((number, variant, record, Vec::new())),
        }
    }
    // Games are numbered by their place among the records of every file
    // read, a record that does not replay leaving its number unused (the
    // games after it were renumbered: a collection's puzzle 2 became
    // 1.xqf); each line of a game's variations, written as games of their
    // own, takes the next number free.
    let offset = *numbered;
    let loaded = |name: &str| {
        host.find_variant(name)
            .ok_or_else(|| format!("{name} is not loaded"))
    };
    for (number, variant, record, lines) in entries {
        let number = offset + number;
        let mut record = with_header(record, wanted.header);
        // A record written with the analysis's verdicts as comments.
        if let (Some(analyst), Some(to)) = (analyst.as_deref_mut(), wanted.to) {
            if to != POSITIONS {
                let verdicts = loaded(&variant)
                    .and_then(|v| plyd::replay::game_verdicts(&v, number, &record, analyst));
                match verdicts {
                    Ok(verdicts) => {
                        let chinese = to == "pgn-chinese";
                        record = plyd::replay::with_verdicts(record, &verdicts, chinese)
                    }
                    Err(e) => {
                        say(&e);
                        failed = true;
                        continue;
                    }
                }
            }
        }
        match wanted.to {
            Some("xqf") => {
                let folder = wanted.folder.unwrap_or(Path::new("."));
                // Each game has its number, whether its file could be
                // written or not.
                *numbered = (*numbered + 1).max(number);
                let number = *numbered;
                let done = if variant == "xiangqi" {
                    write_xqf_tree(&record, &lines, &plyd_util::files::encode_gbk).and_then(
                        |bytes| {
                            // A file of an earlier run is not written over.
                            let path = folder.join(format!("{number}.xqf"));
                            std::fs::OpenOptions::new()
                                .write(true)
                                .create_new(true)
                                .open(&path)
                                .and_then(|mut f| std::io::Write::write_all(&mut f, &bytes))
                                .map_err(|e| match e.kind() {
                                    std::io::ErrorKind::AlreadyExists => format!(
                                        "game {number}: {} is there already, not written over",
                                        path.display()
                                    ),
                                    _ => format!("game {number}: {}: {e}", path.display()),
                                })
                        },
                    )
                } else {
                    Err(format!(
                        "game {number}: a game of {variant} is not written as xqf (xiangqi only)"
                    ))
                };
                match done {
                    // What the file could not keep, said: an archive
                    // converted whole would lose it unseen.
                    Ok(()) => {
                        let lost =
                            plyd_protocol::xqf_losses(&record, &plyd_util::files::encode_gbk);
                        if !lost.is_empty() {
                            say(&format!(
                                "record {number}: written as {number}.xqf without all of it: {}",
                                lost.join("; ")
                            ));
                        }
                    }
                    Err(e) => {
                        say(&e);
                        failed = true;
                    }
                }
            }
            Some(POSITIONS) => {
                let rows = loaded(&variant).and_then(|v| {
                    plyd::replay::position_rows(&v, number, &record, &[], 0, analyst.as_deref_mut())
                });
                failed |= !print_rows(rows, &say);
            }
            Some(to) => match record_format(to, &variant)
                .and_then(|f| write_record_tree(f, &record, &lines))
            {
                Ok(text) => {
                    outln!("{text}");
                    // What the format has no room for, said: an archive
                    // converted whole would lose it unseen.
                    let comments = record.comments.len()
                        + lines.iter().map(|l| l.comments.len()).sum::<usize>();
                    if comments > 0 && matches!(to, "ggf" | "ccgc") {
                        say(&format!(
                            "record {number}: {} left out ({to} has no place for them)",
                            plyd::counted(comments, "comment", "comments")
                        ));
                    }
                }
                Err(e) => {
                    say(&format!("record {number}: {e}"));
                    failed = true;
                }
            },
            None => outln!("{}", plyd::replay::position_line(&record)),
        }
    }
    *numbered = (*numbered).max(offset + replayed.records);
    if shorter > 0 {
        say(&format!(
            "games of fewer than {} plies left out: {shorter}",
            wanted.plies.unwrap_or(0)
        ));
    }
    // The results' notes are of whole games, not of openings.
    for note in replayed.notes.iter().filter(|_| wanted.plies.is_none()) {
        say(note);
    }
    for failure in &replayed.failures {
        say(failure);
    }
    u8::from(failed)
}

/// The plugins of the configured folders, and the evaluator plugin's file
/// where `--evaluator` names one (`--evaluator ./libplyd_eval_mine.so`);
/// the folders' load problems go to the log. A file named that cannot be
/// loaded is the tool's error: it names what is wrong with the file (its
/// state layout, its game), where the evaluator's lookup would only find
/// no evaluator of that name.
/// Where an option given by `--option` says it came from.
const FROM_COMMAND_LINE: &str = "--option";

fn load_plugins(config: &DaemonConfig) -> Result<PluginHost, String> {
    let report = PluginHost::scan(&config.plugin_dirs);
    for e in &report.errors {
        log::error!("{e}");
    }
    let mut host = report.host;
    // An option neither plyd's nor a loaded game's is a typo, or meant
    // for another program: the run would be another than the one asked
    // for. The engine's own options mean nothing to a tool: passed over,
    // said where `--option` gave one (a configuration file serves the
    // daemon as well).
    for (name, value, source) in &config.options {
        if host.has_game_option(name) {
            continue;
        }
        if !plyd::daemon::is_engine_option(name) {
            return Err(format!(
                "option {name}={value} ({source}): unknown option '{name}': neither plyd's nor a loaded game's"
            ));
        }
        if source == FROM_COMMAND_LINE {
            log::warn!(
                "option {name}={value} (--option) is the engine's, which a tool passes over; \
                 a tool takes the loaded games' own options"
            );
        }
    }
    let named = config.evaluator.as_deref();
    if let Some(Err(e)) = named.and_then(|wanted| host.add_evaluator_named_by_file(wanted)) {
        return Err(e.to_string());
    }
    Ok(host)
}

/// The evaluator `--evaluator` asks for by name: the one loaded from its
/// file where it names a file.
fn wanted_evaluator<'a>(config: &'a DaemonConfig, host: &'a PluginHost) -> Option<&'a str> {
    Some(host.evaluator_name(config.evaluator.as_deref()?))
}

/// The loaded variant `name`, or an error listing what is loaded.
fn find_variant(host: &PluginHost, name: &str) -> Result<VariantRef, String> {
    host.find_variant(name).ok_or_else(|| {
        format!(
            "game '{name}' is not loaded (loaded: {}){}",
            host.variant_list(),
            host.missing_game_hint()
        )
    })
}

/// The variant `config` names (`--game`, the config file), else the game
/// of an evaluator plugin `--evaluator` loaded from its file (`plyd check
/// --evaluator ./libplyd_eval_mine.so` of an Amazons evaluator checks it
/// on the Amazons), else Othello, the default game.
fn configured_variant(host: &PluginHost, config: &DaemonConfig) -> Result<VariantRef, String> {
    let evaluators_game = config
        .evaluator
        .as_deref()
        .and_then(|wanted| host.evaluator_game_from(Path::new(wanted)));
    let game = config
        .game
        .as_deref()
        .or(evaluators_game)
        .unwrap_or("othello");
    let variant = find_variant(host, game)?;
    set_game_options(&variant.plugin, config)?;
    Ok(variant)
}

/// The game's own options (a rule, a notation) hold in the tools as in
/// the daemon: the config file's `[options]` and `--option` among them
/// are set on `plugin`; the engine's (Threads, Hash) mean nothing to a
/// tool and are passed over.
fn set_game_options(plugin: &plyd::host::GamePlugin, config: &DaemonConfig) -> Result<(), String> {
    for (name, value, source) in &config.options {
        if let Some(option) = plugin.info().option(name) {
            plugin
                .set_option(&option.name, value)
                .map_err(|e| format!("option {} = {value} ({source}): {e}", option.name))?;
        }
    }
    Ok(())
}

/// A state of `variant` at its start, or at the position text `fen`.
fn start_state(variant: &VariantRef, fen: Option<&str>) -> Result<GameState, String> {
    let mut state = GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
    if let Some(fen) = fen {
        state
            .set_position(fen)
            .map_err(|e| format!("bad position '{fen}': {e}"))?;
    }
    Ok(state)
}

/// The search's core switches, by option name, which `plyd bench --on`
/// and `--off` take beside the techniques.
type CoreSwitch = (&'static str, fn(&mut SearchOptions) -> &mut bool);
const CORE_SWITCHES: [CoreSwitch; 8] = [
    (names::NULL_MOVE, |o| &mut o.null_move),
    (names::LMR, |o| &mut o.reductions),
    (names::FUTILITY, |o| &mut o.futility),
    (names::QUIESCENCE, |o| &mut o.quiescence),
    (names::CHECK_EXTENSIONS, |o| &mut o.check_extensions),
    (names::SELECTIVE, |o| &mut o.selective),
    (names::ENDGAME_SOLVER, |o| &mut o.endgame_solver),
    (names::SEE, |o| &mut o.see),
];

/// The default search switches with those named in `on` switched on and
/// those in `off` switched off (names joined with commas). `all` is every
/// technique of the search (`Techniques::SWITCHES`, `ShallowSearch`
/// among them), not the core switches, and is applied first, so that the
/// names given beside it win over it whatever their order (`--off all
/// --on LMP`: LMP alone); a name given to both is refused.
fn chosen_switches(on: Option<&str>, off: Option<&str>) -> Result<SearchOptions, String> {
    let names = |list: Option<&str>| -> Vec<String> {
        list.unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (on, off) = (names(on), names(off));
    if let Some(both) = on
        .iter()
        .find(|n| off.iter().any(|o| o.eq_ignore_ascii_case(n)))
    {
        return Err(format!(
            "'{both}' is given to both --on and --off: name each switch once"
        ));
    }
    let mut options = SearchOptions::default();
    let lists = [(&on, true, "--on"), (&off, false, "--off")];
    for (list, value, _) in lists {
        if list.iter().any(|n| n.eq_ignore_ascii_case("all")) {
            for (switch_name, _) in Techniques::SWITCHES {
                options.techniques.set(switch_name, value);
            }
        }
    }
    for (list, value, flag) in lists {
        for name in list.iter().filter(|n| !n.eq_ignore_ascii_case("all")) {
            if let Some((_, field)) = CORE_SWITCHES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
            {
                *field(&mut options) = value;
            } else if !options.techniques.set(name, value) {
                let known: Vec<&str> = CORE_SWITCHES
                    .iter()
                    .map(|(n, _)| *n)
                    .chain(Techniques::SWITCHES.iter().map(|(n, _)| *n))
                    .collect();
                return Err(format!(
                    "{flag}: no switch '{name}' (known: {}, all)",
                    known.join(", ")
                ));
            }
        }
    }
    Ok(options)
}

fn bench(
    config: &DaemonConfig,
    game: Option<&str>,
    depth: Option<u32>,
    switches: &SearchOptions,
    count_calls: bool,
    positions: Option<Vec<String>>,
) -> Result<(), String> {
    if count_calls && !plyd::host::calls::ENABLED {
        return Err(
            "--calls needs a build that counts them: cargo build --release -p plyd --features call-counts"
                .to_string(),
        );
    }
    let host = load_plugins(config)?;
    let variants = match game {
        Some(name) => vec![find_variant(&host, name)?],
        None => host.variants(),
    };
    if variants.is_empty() {
        return Err("no game plugin is loaded".to_string());
    }
    // An evaluator named must be one a benched game offers (with one game
    // named, that game): a misspelt name would give another count.
    let single = game.is_some();
    if let Some(wanted) = wanted_evaluator(config, &host) {
        if !single && !host.offers_evaluator(wanted) {
            return Err(format!("no game loaded offers an evaluator '{wanted}'"));
        }
    }
    let mut targets = Vec::new();
    for variant in variants {
        let evaluator = if single {
            named_evaluator(config, &host, &variant)?
        } else {
            chosen_evaluator(config, &host, &variant)?
        };
        targets.push(BenchTarget {
            variant,
            evaluator: Arc::new(evaluator),
            positions: positions.clone(),
        });
    }
    // What the counts below are of: another evaluator (one a
    // configuration file names), or its parameters, give another count.
    for target in &targets {
        outln!(
            "Evaluator of {}: {} ({}), params {}",
            target.variant.name(),
            target.evaluator.name(),
            target.evaluator.source().origin(),
            config
                .eval_params
                .as_deref()
                .map_or("default".to_string(), |p| p.display().to_string())
        );
    }
    if count_calls {
        plyd::host::calls::start();
    }
    // Watched as `check` and `eval` are: a plugin call that never returns
    // ends the bench with a line, where it hung saying nothing.
    let control = Arc::new(SearchControl::new(false));
    let _on_roll = control.enter_roll();
    let (beats, threads) = (Arc::clone(&control), Arc::clone(&control));
    watch_progress(
        "bench",
        config,
        move || beats.beats(),
        move || threads.thread_ids(),
    );
    let summary = plyd::search::bench::run(
        &targets,
        depth,
        switches,
        &mut |l| {
            outln!(
                "{:<10} depth {:>2} nodes {:>10} time {:>6} ms  bestmove {:<8} {}",
                l.game,
                l.depth,
                l.nodes,
                l.elapsed.as_millis(),
                l.best,
                l.position
            )
        },
        &control,
    )?;
    outln!("Nodes searched: {}", summary.nodes);
    outln!("Time: {} ms", summary.elapsed.as_millis());
    outln!("Nodes/second: {}", nps(summary.nodes, summary.elapsed));
    if count_calls {
        plyd::host::calls::stop();
        let nodes = summary.nodes.max(1) as f64;
        outln!("Plugin calls per node:");
        for (kind, count) in plyd::host::calls::snapshot() {
            if count > 0 {
                outln!("  {:<16} {:>7.3}", kind.name(), count as f64 / nodes);
            }
        }
    }
    Ok(())
}

/// The positions of a `plyd bench --positions` file: a position text a
/// line, blank lines and `#` comments left out.
fn bench_positions(path: &Path) -> Result<Vec<String>, String> {
    let text = plyd_util::files::read_text(path, plyd::RECORD_FILE_LIMIT)
        .map_err(|e| format!("--positions {}: {e}", path.display()))?;
    let positions: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    if positions.is_empty() {
        return Err(format!("--positions {}: no position in it", path.display()));
    }
    Ok(positions)
}

/// `plyd endgame-bench`: solve the positions of `file` from `range.0` to
/// `range.1`; `Ok(false)` when a score differs from the file's.
fn endgame_bench(
    config: &DaemonConfig,
    file: &std::path::Path,
    range: (Option<&str>, Option<&str>),
    threads: usize,
    hash: usize,
) -> Result<bool, String> {
    use plyd::search::solve_bench;
    let text = plyd_util::files::read_text(file, plyd::RECORD_FILE_LIMIT)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let positions =
        solve_bench::read_positions(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let index_of = |name: &str| {
        positions
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| {
                let names = match positions.as_slice() {
                    [] => "none".to_string(),
                    [only] => only.name.clone(),
                    [first, .., last] => format!(
                        "{} positions, {} to {}",
                        positions.len(),
                        first.name,
                        last.name
                    ),
                };
                format!(
                    "no position named '{name}' in {} (its names: {names})",
                    file.display()
                )
            })
    };
    let first = range.0.map(index_of).transpose()?.unwrap_or(0);
    let last = range
        .1
        .map(index_of)
        .transpose()?
        .unwrap_or(positions.len().saturating_sub(1));
    if positions.is_empty() {
        return Err(format!("{} holds no position to solve", file.display()));
    }
    if first > last {
        return Err(format!(
            "--from {} comes after --to {} in {}: no position to solve",
            positions[first].name,
            positions[last].name,
            file.display()
        ));
    }
    let host = load_plugins(config)?;
    let variant = configured_variant(&host, config)?;
    let source = host
        .evaluators_for(&variant.plugin)
        .first()
        .cloned()
        .ok_or_else(|| format!("{} offers no evaluator", variant.plugin.name()))?;
    let evaluator = create_evaluator(&variant.plugin, source, None)?;
    outln!(
        "{} positions of {}, {threads} thread(s), {hash} MiB table",
        last - first + 1,
        file.display()
    );
    let summary = solve_bench::run(
        &variant,
        &evaluator,
        &positions[first..=last],
        threads,
        hash,
        &mut |l| {
            outln!(
                "{:<8} empties {:>2} score {:>+3} expected {:>+3} {:<5} time {:>9.3} s nodes {:>12} nps {:>10} best {}",
                l.name,
                l.size,
                l.score,
                l.expected,
                if l.is_right() { "ok" } else { "WRONG" },
                l.elapsed.as_secs_f64(),
                l.nodes,
                nps(l.nodes, l.elapsed),
                l.best
            )
        },
    )?;
    outln!(
        "total positions {} wrong {} time {:.3} s nodes {} nps {}",
        summary.positions,
        summary.wrong,
        summary.elapsed.as_secs_f64(),
        summary.nodes,
        nps(summary.nodes, summary.elapsed)
    );
    Ok(summary.wrong == 0)
}

/// `plyd eval`: one evaluation, with its terms.
fn eval(config: &DaemonConfig, fen: Option<&str>) -> Result<(), String> {
    let host = load_plugins(config)?;
    // One evaluation: nothing to show progress, the whole of it watched.
    let main_thread = plyd::threads::current_id();
    watch_progress(
        "eval",
        config,
        || 0,
        move || main_thread.into_iter().collect(),
    );
    let variant = configured_variant(&host, config)?;
    let evaluator = named_evaluator(config, &host, &variant)?;
    let params = config.eval_params.as_deref();
    let state = start_state(&variant, fen)?;
    outln!(
        "position {}",
        state.position_text().map_err(|e| e.to_string())?
    );
    for line in evaluation_lines(&evaluator, &state, params)? {
        outln!("{line}");
    }
    Ok(())
}

/// The default parameters of the evaluator `config` names (or the game's
/// first); an evaluator without any says so.
fn default_params(config: &DaemonConfig) -> Result<String, String> {
    let host = load_plugins(config)?;
    let variant = configured_variant(&host, config)?;
    let source = evaluator_source(config, &host, &variant)?;
    let text = source.info().default_params.clone();
    if text.trim().is_empty() {
        return Err(format!(
            "evaluator '{}' of {} takes no parameters",
            source.name(),
            variant.plugin.name()
        ));
    }
    Ok(text)
}

/// The evaluator `config` names for `variant` (`--evaluator`), else the
/// game's first, with `config`'s parameters: for the bench, whose games
/// without the named evaluator use their own default.
fn chosen_evaluator(
    config: &DaemonConfig,
    host: &PluginHost,
    variant: &VariantRef,
) -> Result<plyd::host::Evaluator, String> {
    let offered = host.evaluators_for(&variant.plugin);
    let source = wanted_evaluator(config, host)
        .and_then(|name| offered.iter().find(|e| e.name().eq_ignore_ascii_case(name)))
        .or(offered.first())
        .cloned()
        .ok_or_else(|| format!("{} offers no evaluator", variant.plugin.name()))?;
    create_evaluator(&variant.plugin, source, config.eval_params.as_deref())
}

/// The evaluator `config` names for `variant` (`--evaluator`; refused
/// with the game's evaluators listed when it has no such one), else the
/// game's first, with `config`'s parameters.
fn named_evaluator(
    config: &DaemonConfig,
    host: &PluginHost,
    variant: &VariantRef,
) -> Result<plyd::host::Evaluator, String> {
    let source = evaluator_source(config, host, variant)?;
    let refused = source.name().to_string();
    create_evaluator(&variant.plugin, source, config.eval_params.as_deref()).map_err(|why| {
        match config.eval_params.as_deref() {
            Some(path) => daemon::with_plugin_owner(why, host, &variant.plugin, &refused, path),
            None => why,
        }
    })
}

/// Where the evaluator `config` names for `variant` comes from (refused
/// with the game's evaluators listed when it has no such one), else the
/// game's first.
fn evaluator_source(
    config: &DaemonConfig,
    host: &PluginHost,
    variant: &VariantRef,
) -> Result<plyd::host::EvaluatorSource, String> {
    let offered = host.evaluators_for(&variant.plugin);
    let source = match wanted_evaluator(config, host) {
        Some(wanted) => offered
            .iter()
            .find(|e| e.name().eq_ignore_ascii_case(wanted))
            .cloned()
            .ok_or_else(|| {
                if let Some(why) = host.why_not_offered(wanted, &variant.plugin) {
                    return why;
                }
                format!(
                    "{} has no evaluator '{wanted}' (it has: {}; {})",
                    variant.plugin.name(),
                    offered
                        .iter()
                        .map(|e| e.name().to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    plyd::host::WHERE_EVALUATORS_COME_FROM
                )
            })?,
        None => offered
            .first()
            .cloned()
            .ok_or_else(|| format!("{} offers no evaluator", variant.plugin.name()))?,
    };
    Ok(source)
}

/// How often `plyd book` says on stderr how far it has got.
const BOOK_PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// What `plyd book` was asked to build.
struct BookPlan<'a> {
    out: &'a Path,
    plies: u32,
    depth: u32,
    margin: Option<i32>,
    hash: usize,
    fen: Option<&'a str>,
    line: Option<&'a str>,
}

/// `plyd book`: build or extend the book at `plan.out`.
fn build_book(config: &DaemonConfig, plan: &BookPlan) -> Result<(), String> {
    let host = load_plugins(config)?;
    let variant = configured_variant(&host, config)?;
    let evaluator = named_evaluator(config, &host, &variant)?;
    // Where it cannot be written is known before any search.
    Book::check_writable(plan.out)?;
    let mut book = if plan.out.exists() {
        Book::load(plan.out)?
    } else {
        Book::new(variant.name())
    };
    if book.game() != variant.name() {
        return Err(format!(
            "book {} is for {}, not {}",
            plan.out.display(),
            book.game(),
            variant.name()
        ));
    }
    let before = book.len();
    let margin = plan
        .margin
        .unwrap_or(evaluator.info().score_bound / 100)
        .max(0);
    let mut state = start_state(&variant, plan.fen)?;
    let fail = |e: PluginError| e.to_string();
    // Its moves are written as the game now spells them: extending a book
    // written in another notation (xiangqi's ranks) would mix the two.
    if let Some(why) = book.notation_refusal(&state) {
        return Err(format!("book {}: {why}", plan.out.display()));
    }
    book.note_spelling(&state).map_err(fail)?;
    book.note_scorer(evaluator.name())
        .map_err(|e| format!("book {}: {e}", plan.out.display()))?;
    // `--line`: read whole before any search, each move legal where it
    // stands.
    let line: Vec<String> = plan
        .line
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let mut line_moves = Vec::with_capacity(line.len());
    {
        let mut probe = state.try_clone().map_err(fail)?;
        for (i, text) in line.iter().enumerate() {
            let mv = probe
                .parse_legal_move(text)
                .map_err(|e| format!("--line: move {} ('{text}'): {e}", i + 1))?;
            probe.make_move(mv).map_err(fail)?;
            line_moves.push(mv);
        }
    }
    let started = Instant::now();
    let control = Arc::new(SearchControl::new(false));
    let mut builder = BookBuilder::new(&evaluator, plan.depth, plan.hash, control)?;
    // The positions along the line, then the book from where it ends.
    builder
        .add_line(&mut book, &mut state, &line, line.len())
        .map_err(fail)?;
    for &mv in &line_moves {
        state.make_move(mv).map_err(fail)?;
    }
    // Written every minute, so that a build stopped midway keeps its
    // searches (the same command then goes on from them).
    let mut saved = Instant::now();
    // Progress on stderr every few seconds (a line a position was tens of
    // thousands of lines for a long build).
    let mut said: Option<Instant> = None;
    builder
        .expand(
            &mut book,
            &mut state,
            plan.plies,
            margin,
            &mut |book, scored| {
                if said.is_none_or(|t| t.elapsed() >= BOOK_PROGRESS_EVERY) {
                    eprintln!(
                        "book: {scored} positions searched, {} in the book, {} s",
                        book.len(),
                        started.elapsed().as_secs()
                    );
                    said = Some(Instant::now());
                }
                if saved.elapsed() >= Duration::from_secs(60) {
                    // A copy: the build goes on with its own positions.
                    if let Err(e) = book.clone().save_merged(plan.out, None, || {}) {
                        eprintln!("book: {e}");
                    }
                    saved = Instant::now();
                }
            },
        )
        .map_err(fail)?;
    for &mv in line_moves.iter().rev() {
        state.unmake_move(mv).map_err(fail)?;
    }
    let best = book.save_merged(plan.out, Some(&mut state), || {})?;
    let root = state.position_text().map_err(fail)?;
    outln!(
        "Book: {} positions ({} new), depth {}, margin {margin}, {} s",
        book.len(),
        book.len() - before,
        plan.depth,
        started.elapsed().as_secs()
    );
    match (best, book.best(&root)) {
        (Some(best), Some(chosen)) => outln!("Start: {} score {best}", chosen.mv),
        // A chance node, which the book holds no moves of.
        (Some(best), None) => outln!("Start: a chance node, score {best} (its outcomes' mean)"),
        (None, _) => {}
    }
    Ok(())
}

fn perft(config: &DaemonConfig, depth: u32, fen: Option<&str>, native: bool) -> Result<(), String> {
    let host = load_plugins(config)?;
    let variant = configured_variant(&host, config)?;
    // No evaluator counts moves, but one named (or its parameters) that
    // cannot be had is refused, as every tool refuses it.
    if config.evaluator.is_some() || config.eval_params.is_some() {
        named_evaluator(config, &host, &variant)?;
    }
    let mut state = start_state(&variant, fen)?;
    let result = Perft::new()
        .divide(&mut state, depth, native, || false)
        .map_err(|e| e.to_string())?;
    for root in &result.roots {
        outln!("{}: {}", root.text, root.nodes);
    }
    outln!("Nodes searched: {}", result.total);
    // Under a millisecond (a native perft of a small tree) has no speed
    // worth printing as 0.
    let speed = match nps(result.total, result.elapsed) {
        0 if result.total > 0 => "too fast to time".to_string(),
        speed => format!("{speed} nodes/s"),
    };
    outln!(
        "Time: {} ms, {speed} ({})",
        result.elapsed.as_millis(),
        if native {
            "inside the plugin"
        } else {
            "through the plugin ABI"
        }
    );
    Ok(())
}

/// Give up on a tool whose `progress` stands still for the configuration's
/// `call_limit` (5 s by default): a plugin call that never returns. The
/// tool then ends with one line on stderr, naming where in which plugin
/// the tool's `threads` are where that can be told, and exit status 2, as
/// the daemon would disable the plugin.
fn watch_progress(
    tool: &'static str,
    config: &DaemonConfig,
    progress: impl Fn() -> u64 + Send + 'static,
    threads: impl Fn() -> Vec<i32> + Send + 'static,
) {
    let limit = Duration::from_millis(u64::from(config.settings.call_limit_ms));
    let spawned = std::thread::Builder::new()
        .name("plyd-tool-watch".into())
        .spawn(move || {
            let mut seen = progress();
            let mut since = Instant::now();
            loop {
                std::thread::sleep((limit / 10).max(Duration::from_millis(10)));
                let now = progress();
                if now != seen {
                    (seen, since) = (now, Instant::now());
                } else if since.elapsed() >= limit {
                    let places = plyd::host::crash::stuck_places(threads());
                    eprintln!(
                        "plyd {tool}: a plugin call did not return within {} s \
                         (call_limit){places}; giving up",
                        limit.as_secs_f64()
                    );
                    std::process::exit(2);
                }
            }
        });
    if let Err(e) = spawned {
        log::warn!("no watch on plugin calls: {e}");
    }
}
