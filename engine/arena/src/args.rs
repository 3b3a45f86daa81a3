//! The `plyd arena` command line and the engine descriptions it holds.
//!
//! Engines are described cutechess-style, by `key=value` words after
//! `--engine`; `--each` gives words that every engine gets before its own.

use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use crate::clock::{parse_clock, parse_seconds, Limits};

/// Why the arena's engine descriptions or limits were refused. The message
/// is the one line `plyd arena:` prints before exiting with status 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    /// Not exactly two `--engine` groups.
    #[error("a match needs two --engine, {given} given (three or more play a round robin: a match for each pair, their logs in the --out folder)")]
    EngineCount {
        /// How many were given.
        given: usize,
    },
    /// A problem in one engine's description.
    #[error("engine {number}: {source}")]
    Engine {
        /// The engine, counted from 1.
        number: usize,
        /// What is wrong with its description.
        source: Box<ArgsError>,
    },
    /// An engine word without `=`.
    #[error("'{word}' is not key=value")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A key this version does not know.
    #[error("unknown key '{key}' (known: cmd, arg, name, dir, option.NAME, tc, st, depth, nodes, stderr)")]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A numeric key whose value is not a number of the kind it needs.
    #[error("{key}: '{value}' is not a {what}")]
    NotANumber {
        /// The key.
        key: String,
        /// Its value.
        value: String,
        /// The kind of number (`whole number`).
        what: &'static str,
    },
    /// A number too big for its key.
    #[error("{key}: '{value}' is too big")]
    TooBig {
        /// The key.
        key: String,
        /// Its value.
        value: String,
    },
    /// `cmd=` that a shell could not split (an unclosed quote).
    #[error("{0}")]
    BadCommand(String),
    /// `cmd=` with no program.
    #[error("cmd= is empty")]
    EmptyCommand,
    /// `name=` with a control character (a line end), which would write
    /// a false row into the table and a log no resume reads.
    #[error("name={}: a name holds no control character (a line end, a tab)", .0.escape_debug())]
    BadName(String),
    /// No `cmd=` at all.
    #[error("cmd= is missing")]
    MissingCommand,
    /// A time control or a number of seconds that does not read.
    #[error("{0}")]
    BadTime(String),
    /// Both `tc=` (a clock) and `st=` (a fixed move time) for one engine.
    #[error("a clock (tc) and a fixed move time (st) exclude each other")]
    ClockAndMoveTime,
    /// `--tc st=` together with `--movetime`.
    #[error("--tc st= and --movetime both give a move time")]
    TwoMoveTimes,
    /// `--tc` (a clock) together with `--movetime`.
    #[error("--tc (a clock) and --movetime exclude each other")]
    TcAndMoveTime,
    /// No limit at all, on the command line or in the engine's words.
    #[error(
        "no time control: give --tc, --movetime, --depth or --nodes (or tc=, st=, depth=, nodes=)"
    )]
    NoTimeControl,
}

/// `plyd arena`: play a match between two engines.
#[derive(Args, Debug, Clone)]
pub struct ArenaArgs {
    /// The build of plyd that runs the match (`plyd 0.1.0 (commit ...)`),
    /// written in the log's header; set by the caller, not a flag.
    #[arg(skip)]
    pub build: String,
    /// The `--engine` groups, one per engine.
    #[command(flatten)]
    pub engines: EngineGroups,
    /// key=value words for both engines, read before each engine's own.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Clock for both engines: [MOVES/]SECONDS[+INCREMENT] (`10+0.1`,
    /// `40/60`; the base also as MINUTES:SECONDS, `1:30+1`), or
    /// st=SECONDS for a fixed time per move.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Fixed time per move, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Depth limit per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Node limit per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Overstep of the clock or move time forgiven before a loss on time.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 50,
        allow_negative_numbers = true
    )]
    pub timemargin: u64,
    /// How long an engine with no clock or move time (depth or nodes only)
    /// may think before it loses for not answering.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub timeout: u64,
    /// Number of games; each opening is played twice, sides swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at the same time, each by its own pair of engine
    /// processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Where games start: startpos, random:PLIES, variety:PLIES[:MARGIN]
    /// (played by the first engine with `Variety`), or file:PATH.
    #[arg(long, default_value = "startpos")]
    pub openings: String,
    /// Seed of the random openings and chance outcomes (default: from the
    /// clock, printed so the match can be repeated).
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Stop early when a sequential probability ratio test decides:
    /// elo0=E elo1=E alpha=P beta=P.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Scores a game that reaches this many plies a draw.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: Option<u32>,
    /// Write every game to this file (the game log); a file that already
    /// holds something is refused: --resume FILE goes on with its match.
    /// In a round robin, the folder of the pairs' logs
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Go on with an interrupted match: read the finished games from its
    /// game log (the --out FILE of the run that was interrupted), count
    /// them, play only the others and append them to that file. Give the
    /// same match arguments as the interrupted run.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Write the match's result as JSON to this file at its end (and when
    /// it is interrupted): the tables' figures for a script to read.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// With three or more engines: the first plays each of the others,
    /// who do not play one another (a gauntlet), instead of a round robin.
    #[arg(long)]
    pub gauntlet: bool,
    /// Whether this match is one pair of a round robin, which goes on by
    /// the same command, not by `--resume`.
    #[arg(skip)]
    pub in_round_robin: bool,
    /// Also write every game as its community records it: the Chinese
    /// championship's format for the Amazons and EinStein, GGF for Othello
    /// (SGF for a FILE ending in `.sgf`), PGN with ICCS moves for xiangqi;
    /// a file that already holds something is refused, as with `--out`.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// A setting of the game plugin the arena referees with (a game option,
    /// as `uci` lists it): `MoveRanks=1-10` makes the arena read and write
    /// xiangqi moves as Fairy-Stockfish does. Repeatable.
    #[arg(long = "game-option", value_name = "NAME=VALUE")]
    pub game_options: Vec<String>,
}

/// The words of each `--engine`, kept apart per occurrence. (clap's derive
/// flattens repeated multi-word options into one list, so this part of the
/// command line is declared by hand.)
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineGroups(pub Vec<Vec<String>>);

const ENGINE_ARG: &str = "engine";

impl FromArgMatches for EngineGroups {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>(ENGINE_ARG)
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineGroups {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new(ENGINE_ARG)
                .long(ENGINE_ARG)
                .num_args(1..)
                .action(ArgAction::Append)
                .required(true)
                .value_name("KEY=VALUE")
                .help(
                    "An engine, as key=value words: cmd=PROGRAM (may hold arguments, \
                     quoted like a shell), arg=ARG (repeatable), name=NAME, dir=FOLDER, \
                     option.NAME=VALUE, tc=.., st=SECONDS, depth=N, nodes=N, stderr=FILE. \
                     Give it twice (three times or more: a round robin, --out naming a folder)",
                ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// One engine: how to start it and how to play it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in tables and logs.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working folder.
    pub dir: Option<PathBuf>,
    /// Options sent with `setoption`, in order, one value per name.
    pub options: Vec<(String, String)>,
    /// How its moves are limited.
    pub limits: Limits,
    /// A file that receives its stderr.
    pub stderr: Option<PathBuf>,
}

impl EngineSpec {
    /// What a resumed match must start the engine with again, as one line:
    /// its arguments and its options (`arg=--eval-params arg=w.toml
    /// option.Hash=64`), or `none`. The program's path is left out, so
    /// that a match can go on with the binary moved or rebuilt.
    pub fn setup(&self) -> String {
        let words: Vec<String> = self
            .args
            .iter()
            .map(|a| format!("arg={a}"))
            .chain(self.options.iter().map(|(k, v)| format!("option.{k}={v}")))
            .collect();
        if words.is_empty() {
            "none".to_string()
        } else {
            words.join(" ")
        }
    }

    /// The files the engine reads its evaluation or book from, by name and
    /// contents, as one line (`option.EvalParams=w.toml:fnv1a64:...`), or
    /// `none`: a resumed match must find them as they were, since a log
    /// records their names only. Taken are the values of the options that
    /// name such files (`EvalFile`, `EvalFileSmall`, `EvalParams`,
    /// `SearchParams`, `BookFile`), given as `option.NAME` or in plyd's
    /// arguments as `--option NAME=FILE`, and the arguments after plyd's
    /// `--eval-params`, `--evaluator` and `--config`, where they name a file (relative to
    /// the engine's `dir`); a file that is not there is left out. Files
    /// an engine writes (a log) are never read here.
    pub fn input_files(&self) -> String {
        const OPTIONS: [&str; 5] = [
            "EvalFile",
            "EvalFileSmall",
            "EvalParams",
            "SearchParams",
            "BookFile",
        ];
        const FLAGS: [&str; 3] = ["--eval-params", "--evaluator", "--config"];
        let from_options = self
            .options
            .iter()
            .filter(|(name, _)| OPTIONS.iter().any(|o| o.eq_ignore_ascii_case(name)))
            .map(|(name, value)| (format!("option.{name}"), value.as_str()));
        let from_args = self
            .args
            .windows(2)
            .filter(|pair| FLAGS.contains(&pair[0].as_str()))
            .map(|pair| (format!("arg={}", pair[0]), pair[1].as_str()));
        // plyd's `--option NAME=VALUE` (or `--option=NAME=VALUE`) in the
        // engine's arguments sets the option as `option.NAME=VALUE` does.
        let option_args = self.args.iter().enumerate().filter_map(|(i, arg)| {
            let setting = match arg.strip_prefix("--option=") {
                Some(setting) => setting,
                None if arg == "--option" => self.args.get(i + 1)?,
                None => return None,
            };
            let (name, value) = setting.split_once('=')?;
            let name = name.trim();
            OPTIONS
                .iter()
                .any(|o| o.eq_ignore_ascii_case(name))
                .then(|| (format!("option.{name}"), value))
        });
        let words: Vec<String> = from_options
            .chain(from_args)
            .chain(option_args)
            .filter_map(|(key, value)| {
                Some(format!(
                    "{key}={value}:{}",
                    fingerprint(&self.in_dir(value))?
                ))
            })
            .collect();
        if words.is_empty() {
            "none".to_string()
        } else {
            words.join(" ")
        }
    }

    /// The file `text` names as the engine reads it: a relative path is
    /// taken from its `dir`.
    fn in_dir(&self, text: &str) -> PathBuf {
        let path = Path::new(text.trim());
        match &self.dir {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path.to_path_buf(),
        }
    }

    /// The engine's program and its contents' fingerprint
    /// (`/usr/bin/plyd fnv1a64:...`), as a log's header keeps it to tell
    /// builds apart; a program that is no file of that path (one found on
    /// the `PATH`) is named alone.
    pub fn program_line(&self) -> String {
        match fingerprint(&self.in_dir(&self.program)) {
            Some(print) => format!("{} {print}", self.program),
            None => self.program.clone(),
        }
    }

    /// What the engine plays with, as one line: its program, arguments,
    /// options and limits, each program or value that names a file
    /// written as the file's contents' fingerprint. Two engines of one
    /// line are one player (a class's two submissions of one evaluator
    /// file, under other names), whatever their names and paths.
    pub fn player(&self) -> String {
        let file_or_text =
            |text: &str| fingerprint(&self.in_dir(text)).unwrap_or_else(|| text.to_string());
        let mut options: Vec<String> = self
            .options
            .iter()
            .map(|(name, value)| format!("{}={}", name.to_ascii_lowercase(), file_or_text(value)))
            .collect();
        options.sort();
        let args: Vec<String> = self.args.iter().map(|a| file_or_text(a)).collect();
        format!(
            "{} {:?} {:?} {}",
            file_or_text(&self.program),
            args,
            options,
            self.limits
        )
    }

    /// Read an engine description from `key=value` words. `defaults` are
    /// the limits from `--tc`, `--movetime`, `--depth` and `--nodes`, used
    /// when the words name none of their own.
    pub fn parse(words: &[String], defaults: Limits) -> Result<Self, ArgsError> {
        let mut spec = EngineSpec {
            name: String::new(),
            program: String::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            limits: Limits::default(),
            stderr: None,
        };
        let mut cmd_args = Vec::new();
        let mut extra_args = Vec::new();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| ArgsError::NotKeyValue { word: word.clone() })?;
            let number = |what: &'static str| -> Result<u64, ArgsError> {
                value.trim().parse().map_err(|_| ArgsError::NotANumber {
                    key: key.to_string(),
                    value: value.to_string(),
                    what,
                })
            };
            match key {
                "cmd" => {
                    let mut words = split_command(value)
                        .map_err(ArgsError::BadCommand)?
                        .into_iter();
                    spec.program = words.next().ok_or(ArgsError::EmptyCommand)?;
                    cmd_args = words.collect();
                }
                "arg" => extra_args.push(value.to_string()),
                "name" => {
                    if value.chars().any(char::is_control) {
                        return Err(ArgsError::BadName(value.to_string()));
                    }
                    spec.name = value.trim().to_string();
                }
                "dir" => spec.dir = Some(value.into()),
                "stderr" => spec.stderr = Some(value.into()),
                "tc" => match value.strip_prefix("st=") {
                    Some(st) => {
                        spec.limits.movetime_ms =
                            Some(parse_seconds(st).map_err(ArgsError::BadTime)?)
                    }
                    None => {
                        spec.limits.clock = Some(parse_clock(value).map_err(ArgsError::BadTime)?)
                    }
                },
                "st" => {
                    spec.limits.movetime_ms =
                        Some(parse_seconds(value).map_err(ArgsError::BadTime)?)
                }
                "depth" => {
                    let depth =
                        u32::try_from(number("whole number")?).map_err(|_| ArgsError::TooBig {
                            key: key.to_string(),
                            value: value.to_string(),
                        })?;
                    spec.limits.depth = Some(depth);
                }
                "nodes" => spec.limits.nodes = Some(number("whole number")?),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.trim().is_empty() => {
                        let name = name.trim().to_string();
                        spec.options.retain(|(n, _)| *n != name);
                        spec.options.push((name, value.to_string()));
                    }
                    _ => {
                        return Err(ArgsError::UnknownKey {
                            key: key.to_string(),
                        })
                    }
                },
            }
        }
        if spec.program.is_empty() {
            return Err(ArgsError::MissingCommand);
        }
        spec.args = cmd_args.into_iter().chain(extra_args).collect();
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.program)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.program.clone());
        }
        if !spec.limits.is_set() {
            spec.limits = defaults;
        }
        if spec.limits.clock.is_some() && spec.limits.movetime_ms.is_some() {
            return Err(ArgsError::ClockAndMoveTime);
        }
        if !spec.limits.is_set() {
            return Err(ArgsError::NoTimeControl);
        }
        Ok(spec)
    }
}

impl ArenaArgs {
    /// The limits given by `--tc`, `--movetime`, `--depth` and `--nodes`.
    pub fn default_limits(&self) -> Result<Limits, ArgsError> {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: self.movetime,
            clock: None,
        };
        if let Some(tc) = &self.tc {
            match tc.strip_prefix("st=") {
                Some(st) => {
                    if self.movetime.is_some() {
                        return Err(ArgsError::TwoMoveTimes);
                    }
                    limits.movetime_ms = Some(parse_seconds(st).map_err(ArgsError::BadTime)?);
                }
                None => limits.clock = Some(parse_clock(tc).map_err(ArgsError::BadTime)?),
            }
        }
        if limits.clock.is_some() && limits.movetime_ms.is_some() {
            return Err(ArgsError::TcAndMoveTime);
        }
        Ok(limits)
    }

    /// Every `--engine`, read after `--each`'s words, with the match's
    /// limits for those it does not name.
    pub fn each_engine(&self) -> Result<Vec<EngineSpec>, ArgsError> {
        let defaults = self.default_limits()?;
        self.engines
            .0
            .iter()
            .enumerate()
            .map(|(i, words)| {
                let all: Vec<String> = self.each.iter().chain(words).cloned().collect();
                EngineSpec::parse(&all, defaults).map_err(|e| ArgsError::Engine {
                    number: i + 1,
                    source: Box::new(e),
                })
            })
            .collect()
    }

    /// The two engines, named apart if they would share a name.
    pub fn engine_specs(&self) -> Result<[EngineSpec; 2], ArgsError> {
        if self.engines.0.len() != 2 {
            return Err(ArgsError::EngineCount {
                given: self.engines.0.len(),
            });
        }
        let [mut a, mut b]: [EngineSpec; 2] = self.each_engine()?.try_into().expect("two engines");
        if a.name == b.name {
            a.name = format!("{}-1", a.name);
            b.name = format!("{}-2", b.name);
        }
        Ok([a, b])
    }
}

/// The names of the engines of `specs` that are one player
/// ([`EngineSpec::player`]), a group for each player two or more of them
/// are.
pub fn same_players(specs: &[EngineSpec]) -> Vec<Vec<String>> {
    let players: Vec<String> = specs.iter().map(EngineSpec::player).collect();
    let mut groups: Vec<Vec<String>> = Vec::new();
    for (i, player) in players.iter().enumerate() {
        if players[..i].contains(player) {
            continue;
        }
        let group: Vec<String> = (i..specs.len())
            .filter(|&j| players[j] == *player)
            .map(|j| specs[j].name.clone())
            .collect();
        if group.len() > 1 {
            groups.push(group);
        }
    }
    groups
}

/// A warning for each group of [`same_players`]: their games measure
/// nothing but chance.
pub fn same_players_warnings(specs: &[EngineSpec]) -> Vec<String> {
    same_players(specs)
        .into_iter()
        .map(|group| {
            format!(
                "plyd arena: warning: engines {} play with the same program, arguments, options, \
                 limits and files (byte for byte): one player under {} names",
                group.join(", "),
                group.len()
            )
        })
        .collect()
}

/// A warning for each engine whose moves plyd draws at random from the
/// clock: a `Skill Level` below 20 or a `Variety` above 0 with no
/// `VarietySeed` of its own (0, the default, seeds each search afresh), so
/// that its games do not repeat with the match's `--seed`, whatever the
/// limits.
pub fn unseeded_draw_warnings(specs: &[EngineSpec]) -> Vec<String> {
    let value = |spec: &EngineSpec, name: &str| {
        spec.options
            .iter()
            .rev()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_string())
    };
    specs
        .iter()
        .filter_map(|spec| {
            let skill = value(spec, "Skill Level")
                .filter(|v| v.parse::<u32>().is_ok_and(|level| level < 20))
                .map(|v| format!("Skill Level {v}"));
            let variety = value(spec, "Variety")
                .filter(|v| v.parse::<u32>().is_ok_and(|margin| margin > 0))
                .map(|v| format!("Variety {v}"));
            let drawn = skill.or(variety)?;
            let seeded = value(spec, "VarietySeed").is_some_and(|v| v != "0");
            (!seeded).then(|| {
                format!(
                    "plyd arena: warning: engine {} plays with {drawn}, whose moves plyd draws \
                     from the clock: its games do not repeat with --seed; give it \
                     option.VarietySeed=N (any N but 0) to draw them from N",
                    spec.name
                )
            })
        })
        .collect()
}

/// Split a command line into words the way a POSIX shell would for plain
/// words, single quotes, double quotes and backslashes (no expansions).
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in '{text}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in '{text}'")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in '{text}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("'{text}' ends in a backslash")),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// The fingerprint of the regular file at `path`'s contents
/// (`fnv1a64:...`), as a log's header keeps it; `None` where it is not a
/// regular file that can be read.
/// Read a piece at a time: a file of any size costs no memory.
pub(crate) fn fingerprint(path: &Path) -> Option<String> {
    use std::io::Read;
    std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let mut file = std::fs::File::open(path).ok()?;
    let mut hash = FNV_START;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hash = fnv1a64(hash, &buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(format!("fnv1a64:{hash:016x}"))
}

/// FNV-1a's starting value.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The 64-bit FNV-1a hash `hash` (from [`FNV_START`]) carried on over
/// `bytes`: a fingerprint of a file's contents, not a guard against
/// tampering.
pub(crate) fn fnv1a64(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_draw_from_the_clock_is_warned_of_unless_seeded() {
        let spec = |name: &str, extra: &[&str]| {
            let mut w = words(&["cmd=plyd", "depth=2"]);
            w.push(format!("name={name}"));
            w.extend(words(extra));
            EngineSpec::parse(&w, Limits::default()).unwrap()
        };
        let specs = [
            spec("weak", &["option.Skill Level=5"]),
            spec("full", &["option.Skill Level=20"]),
            spec("varied", &["option.Variety=30"]),
            spec("seeded", &["option.Skill Level=3", "option.VarietySeed=7"]),
            spec("plain", &[]),
            spec("unseeded", &["option.Variety=10", "option.VarietySeed=0"]),
        ];
        let warnings = unseeded_draw_warnings(&specs);
        let named: Vec<&str> = warnings
            .iter()
            .map(|w| w.split_whitespace().nth(4).unwrap())
            .collect();
        assert_eq!(named, ["weak", "varied", "unseeded"], "{warnings:?}");
        assert!(
            warnings[0].contains("plays with Skill Level 5, whose moves"),
            "{warnings:?}"
        );
    }

    /// Two engines of one program with files of the same contents under
    /// other names are one player; another limit or file's contents, or
    /// another option, makes another.
    #[test]
    fn engines_with_the_same_files_byte_for_byte_are_one_player() {
        let dir = std::env::temp_dir().join(format!("plyd-same-players-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in [("alice.so", "one"), ("bob.so", "one"), ("carol.so", "two")] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let spec = |name: &str, extra: &[&str]| {
            let mut w = words(&["cmd=plyd", "option.Hash=16"]);
            w.push(format!("name={name}"));
            w.push(format!("dir={}", dir.display()));
            w.extend(words(extra));
            EngineSpec::parse(&w, Limits::default()).unwrap()
        };
        let specs = [
            spec("alice", &["option.EvalFile=alice.so", "depth=2"]),
            spec("bob", &["option.EvalFile=bob.so", "depth=2"]),
            spec("carol", &["option.EvalFile=carol.so", "depth=2"]),
            spec("dave", &["option.EvalFile=alice.so", "depth=3"]),
            spec(
                "erin",
                &["option.EvalFile=bob.so", "depth=2", "option.Threads=2"],
            ),
            spec("frank", &["depth=2", "option.evalfile=alice.so"]),
        ];
        assert_eq!(
            same_players(&specs),
            [vec![
                "alice".to_string(),
                "bob".to_string(),
                "frank".to_string()
            ]]
        );
        assert!(same_players(&specs[2..5]).is_empty());
        let warnings = same_players_warnings(&specs[..2]);
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].contains("engines alice, bob play with the same"),
            "{warnings:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn input_files_name_the_files_read_with_their_contents() {
        let dir = std::env::temp_dir().join(format!("plyd-input-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("w.toml"), "a = 1\n").unwrap();
        std::fs::write(dir.join("c.toml"), "hash = 16\n").unwrap();
        let spec = |extra: &[&str]| {
            let mut w = words(&[
                "cmd=plyd",
                "depth=1",
                "arg=--config",
                "arg=c.toml",
                "option.Hash=16",
            ]);
            w.push(format!("dir={}", dir.display()));
            w.extend(words(extra));
            EngineSpec::parse(&w, Limits::default()).unwrap()
        };
        let before = spec(&["option.EvalParams=w.toml", "option.Debug Log File=w.toml"]);
        let line = before.input_files();
        // The options that name files read, and plyd's --config; not the
        // others, nor a file that is not there.
        assert!(
            line.starts_with("option.EvalParams=w.toml:fnv1a64:"),
            "{line}"
        );
        assert!(line.contains(" arg=--config=c.toml:fnv1a64:"), "{line}");
        assert!(!line.contains("Debug"), "{line}");
        assert_eq!(
            spec(&["option.EvalParams=nowhere.toml"])
                .input_files()
                .split(' ')
                .count(),
            1
        );
        assert_eq!(
            EngineSpec::parse(&words(&["cmd=x", "depth=1"]), Limits::default())
                .unwrap()
                .input_files(),
            "none"
        );
        // Same contents, same line; other contents, another.
        assert_eq!(spec(&["option.EvalParams=w.toml"]).input_files(), line);
        // plyd's `--option NAME=FILE` among the arguments, in both
        // spellings, is the option (it was not fingerprinted).
        std::fs::write(dir.join("s.toml"), "lmr_base = 80\n").unwrap();
        for args in [
            &["arg=--option", "arg=SearchParams=s.toml"][..],
            &["arg=--option=SearchParams=s.toml"],
        ] {
            let files = spec(args).input_files();
            assert!(
                files.contains(" option.SearchParams=s.toml:fnv1a64:"),
                "{args:?}: {files}"
            );
        }
        assert!(!spec(&["arg=--option", "arg=Hash=16"])
            .input_files()
            .contains("Hash"));
        std::fs::write(dir.join("w.toml"), "a = 2\n").unwrap();
        assert_ne!(spec(&["option.EvalParams=w.toml"]).input_files(), line);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn splits_commands_like_a_shell() {
        assert_eq!(
            split_command("./plyd --evaluator x").unwrap(),
            words(&["./plyd", "--evaluator", "x"])
        );
        assert_eq!(
            split_command(r#"'/opt/my engine' "a b" c\ d """#).unwrap(),
            words(&["/opt/my engine", "a b", "c d", ""])
        );
        assert!(split_command("'open").is_err());
        assert!(split_command("\"open").is_err());
        assert!(split_command("x\\").is_err());
    }

    #[test]
    fn reads_an_engine() {
        let spec = EngineSpec::parse(
            &words(&[
                "cmd=./target/release/plyd --evaluator seed004",
                "arg=--game",
                "arg=othello",
                "option.Hash=32",
                "option.Move Overhead=30",
                "option.Hash=64",
                "depth=4",
            ]),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(spec.program, "./target/release/plyd");
        assert_eq!(
            spec.args,
            words(&["--evaluator", "seed004", "--game", "othello"])
        );
        assert_eq!(spec.name, "plyd");
        assert_eq!(
            spec.options,
            vec![
                ("Move Overhead".to_string(), "30".to_string()),
                ("Hash".to_string(), "64".to_string())
            ]
        );
        assert_eq!(spec.limits, depth(4));
    }

    #[test]
    fn own_limits_replace_the_defaults() {
        let own = EngineSpec::parse(&words(&["cmd=x", "st=0.2"]), depth(3)).unwrap();
        assert_eq!(own.limits.movetime_ms, Some(200));
        assert_eq!(own.limits.depth, None);
        let default = EngineSpec::parse(&words(&["cmd=x", "name=a"]), depth(3)).unwrap();
        assert_eq!(default.limits, depth(3));
        assert_eq!(default.name, "a");
        let tc =
            EngineSpec::parse(&words(&["cmd=x", "tc=40/10+0.1", "nodes=1000"]), depth(3)).unwrap();
        assert_eq!(tc.limits.clock.unwrap().moves_per_period, Some(40));
        assert_eq!(tc.limits.nodes, Some(1000));
    }

    #[test]
    fn bad_engines() {
        let err = |bad: &[&str]| EngineSpec::parse(&words(bad), depth(1)).unwrap_err();
        assert_eq!(err(&["name=a"]), ArgsError::MissingCommand);
        assert_eq!(
            err(&["cmd=x", "name=cand\nbase 2 2"]),
            ArgsError::BadName("cand\nbase 2 2".to_string())
        );
        assert_eq!(err(&["cmd="]), ArgsError::EmptyCommand);
        assert_eq!(
            err(&["cmd=x", "colour=red"]),
            ArgsError::UnknownKey {
                key: "colour".into()
            }
        );
        assert!(matches!(
            err(&["cmd=x", "depth=deep"]),
            ArgsError::NotANumber { key, .. } if key == "depth"
        ));
        assert!(matches!(
            err(&["cmd=x", "tc=fast"]),
            ArgsError::BadTime(why) if why.starts_with("bad time control")
        ));
        assert_eq!(
            err(&["cmd=x", "tc=10", "st=1"]),
            ArgsError::ClockAndMoveTime
        );
        assert!(matches!(
            err(&["cmd=x", "option.=1"]),
            ArgsError::UnknownKey { .. }
        ));
        assert!(matches!(err(&["cmd"]), ArgsError::NotKeyValue { .. }));
        let err = EngineSpec::parse(&words(&["cmd=x"]), Limits::default()).unwrap_err();
        assert_eq!(err, ArgsError::NoTimeControl);
        assert_eq!(
            ArgsError::Engine {
                number: 2,
                source: Box::new(ArgsError::UnknownKey { key: "colour".into() })
            }
            .to_string(),
            "engine 2: unknown key 'colour' (known: cmd, arg, name, dir, option.NAME, tc, st, depth, nodes, stderr)"
        );
    }
}
