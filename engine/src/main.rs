//! The `plyd` command line: the daemon by default, and tools as subcommands.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use plyd::arena::{self, ArenaArgs};
use plyd::daemon::{self, DaemonConfig};
use plyd::host::{default_plugin_dir, GameState, PluginHost};
use plyd::options::{split_plugin_path, ConfigFile, EngineSettings};
use plyd::perft::Perft;
use plyd::search::nps;

/// plyd: a game-engine daemon for Amazons, Othello, Xiangqi and EinStein
/// würfelt nicht, driven over stdin/stdout with a UCI-style protocol.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    /// Game variant to start with (default: othello).
    #[arg(long, global = true)]
    game: Option<String>,
    /// Configuration file (TOML).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Plugin directories, joined like PATH (overrides PLYD_PLUGIN_PATH and
    /// the config file; default: the folder holding plyd).
    #[arg(long, global = true, value_name = "DIRS")]
    plugin_path: Option<String>,
    /// Evaluator to start with.
    #[arg(long, global = true)]
    evaluator: Option<String>,
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand, Debug)]
enum Tool {
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
    /// Play a match between two engines and report Elo (and an SPRT).
    Arena(Box<ArenaArgs>),
}

/// Settings resolved from the command line, the environment and the config
/// file, with the problems met on the way.
struct Resolved {
    config: DaemonConfig,
    problems: Vec<String>,
}

fn resolve(cli: &Cli) -> Resolved {
    let mut problems = Vec::new();
    let file = match &cli.config {
        Some(path) => ConfigFile::load(path).unwrap_or_else(|e| {
            problems.push(format!("{e}; ignoring the file"));
            ConfigFile::default()
        }),
        None => ConfigFile::default(),
    };
    let mut settings = EngineSettings::default();
    problems.extend(file.apply(&mut settings));
    let env_path = std::env::var("PLYD_PLUGIN_PATH")
        .ok()
        .filter(|p| !p.trim().is_empty());
    let path_text = cli
        .plugin_path
        .clone()
        .or(env_path)
        .or_else(|| file.plugin_path.clone())
        .unwrap_or_default();
    let plugin_dirs = if path_text.trim().is_empty() {
        default_plugin_dir().into_iter().collect()
    } else {
        split_plugin_path(&path_text)
    };
    Resolved {
        config: DaemonConfig {
            plugin_dirs,
            game: cli.game.clone().or(file.game),
            evaluator: cli.evaluator.clone().or(file.evaluator),
            settings,
            plugin_path_text: path_text,
        },
        problems,
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let resolved = resolve(&cli);
    for problem in &resolved.problems {
        log::error!("{problem}");
    }
    match &cli.command {
        None => {
            daemon::run(resolved.config);
            ExitCode::SUCCESS
        }
        Some(Tool::Perft { depth, fen, native }) => {
            match perft(&resolved.config, *depth, fen.as_deref(), *native) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("plyd perft: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Tool::Arena(args)) => {
            // Each engine chooses its own evaluator (option.Evaluator=...);
            // one given to the arena itself would silently do nothing.
            if cli.evaluator.is_some() {
                eprintln!("plyd arena: --evaluator does not apply to a match; give each engine option.Evaluator=NAME");
                return ExitCode::from(2);
            }
            arena::run(
                args,
                &resolved.config.plugin_dirs,
                resolved.config.game.as_deref(),
            )
        }
    }
}

fn perft(config: &DaemonConfig, depth: u32, fen: Option<&str>, native: bool) -> Result<(), String> {
    let report = PluginHost::scan(&config.plugin_dirs);
    for e in &report.errors {
        log::error!("{e}");
    }
    let host = report.host;
    let name = config.game.as_deref().unwrap_or("othello");
    let variant = host.find_variant(name).ok_or_else(|| {
        format!(
            "game '{name}' is not loaded (loaded: {})",
            host.variant_names().join(", ")
        )
    })?;
    let mut state = GameState::new(&variant.plugin, variant.index).map_err(|e| e.to_string())?;
    if let Some(fen) = fen {
        state
            .set_position(fen)
            .map_err(|e| format!("bad position '{fen}': {e}"))?;
    }
    let result = Perft::new()
        .divide(&mut state, depth, native, || false)
        .map_err(|e| e.to_string())?;
    for root in &result.roots {
        println!("{}: {}", root.text, root.nodes);
    }
    println!("Nodes searched: {}", result.total);
    println!(
        "Time: {} ms, {} nodes/s ({})",
        result.elapsed.as_millis(),
        nps(result.total, result.elapsed),
        if native {
            "inside the plugin"
        } else {
            "through the plugin ABI"
        }
    );
    Ok(())
}
