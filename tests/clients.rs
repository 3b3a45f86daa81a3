//! Real clients, replayed: each file of `tests/fixtures/clients/` is an
//! exchange recorded between plyd and a program of a game's community
//! (Cute Games over UGI, a UCCI referee against ElephantEye and
//! Fairy-Stockfish, a GTP referee in the manner of Quarry and an NBoard one
//! against Edax, a Botzone judge), or written from such a program's
//! behaviour. The programs themselves are not needed: the client's lines
//! are sent again, and plyd's answers must have the shape the client reads.
//!
//! The format (`docs/protocols.md` § Client fixtures says more):
//!
//! * header lines `# client: ...`, `# args: <plyd's arguments>`,
//!   `# chatter: <prefixes of lines to skip>` (default `info`),
//!   `# config: <a line of a configuration file>` (those lines are written
//!   to a file given to plyd with `--config`); other `#` lines are
//!   comments;
//! * `> TEXT`: a line the client sent;
//! * `< TEXT`: a line plyd must answer exactly so;
//! * `<~ TEXT`: a line whose words depend on the search (a move, a score):
//!   the same first word and the same number of words;
//! * `<. TEXT`: the same first word;
//! * `<* TEXT`: the same number of words (a Botzone move, which has no
//!   fixed word).
//!
//! Before the client's next line is sent, plyd's output is read until
//! every expectation before it is met, in order; a blank line or one that
//! starts with a chatter prefix is skipped, and any other line that does
//! not meet the next expectation fails the test.

use crate::common;

use std::path::{Path, PathBuf};

use crate::common::{plugin_dir, Engine, PATIENCE};

/// What a recorded answer line asks of the replayed one.
#[derive(Debug)]
enum Expect {
    Exact(String),
    SameShape(String),
    SameFirstWord(String),
    SameLength(String),
}

impl Expect {
    fn met_by(&self, line: &str) -> bool {
        let words = |text: &str| text.split_whitespace().map(str::to_string).collect();
        let (want, got): (Vec<String>, Vec<String>) = match self {
            Expect::Exact(text) => return line == text,
            Expect::SameShape(text) | Expect::SameFirstWord(text) | Expect::SameLength(text) => {
                (words(text), words(line))
            }
        };
        match self {
            Expect::SameShape(_) => want.first() == got.first() && want.len() == got.len(),
            Expect::SameFirstWord(_) => want.first() == got.first(),
            _ => want.len() == got.len(),
        }
    }
}

#[derive(Debug)]
enum Step {
    Send(String),
    Expect(Expect),
}

struct Fixture {
    args: Vec<String>,
    /// The lines of a configuration file for plyd, if any.
    config: Vec<String>,
    chatter: Vec<String>,
    steps: Vec<Step>,
}

fn read_fixture(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).expect("read the fixture");
    let mut fixture = Fixture {
        args: Vec::new(),
        config: Vec::new(),
        chatter: vec!["info".to_string()],
        steps: Vec::new(),
    };
    for (number, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), number + 1);
        if let Some(args) = line.strip_prefix("# args:") {
            fixture.args = args.split_whitespace().map(str::to_string).collect();
        } else if let Some(config) = line.strip_prefix("# config:") {
            fixture.config.push(config.trim().to_string());
        } else if let Some(chatter) = line.strip_prefix("# chatter:") {
            fixture.chatter = chatter
                .split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
        } else if line.starts_with('#') || line.trim().is_empty() {
        } else if let Some(sent) = line.strip_prefix("> ") {
            fixture.steps.push(Step::Send(sent.to_string()));
        } else {
            let (kind, text) = line.split_once(' ').unwrap_or((line, ""));
            let text = text.to_string();
            let expect = match kind {
                "<" => Expect::Exact(text),
                "<~" => Expect::SameShape(text),
                "<." => Expect::SameFirstWord(text),
                "<*" => Expect::SameLength(text),
                _ => panic!("{}: not a fixture line: {line}", at()),
            };
            fixture.steps.push(Step::Expect(expect));
        }
    }
    fixture
}

/// Every game's plugin, as an installed plyd has them.
fn all_games() -> common::TempDir {
    plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_xiangqi", "xiangqi"),
        ("plyd_game_amazons", "amazons"),
        ("plyd_game_einstein", "einstein"),
    ])
}

fn replay(name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/clients")
        .join(name);
    let fixture = read_fixture(&path);
    let dir = all_games();
    let mut args: Vec<String> = fixture.args.clone();
    if !fixture.config.is_empty() {
        let config = dir.path().join("plyd.toml");
        std::fs::write(&config, fixture.config.join("\n") + "\n").unwrap();
        args.extend(["--config".to_string(), config.display().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut engine = Engine::start(dir.path(), &args, &[]);
    let skipped = |line: &str| {
        line.trim().is_empty() || fixture.chatter.iter().any(|p| line.starts_with(p.as_str()))
    };
    let mut sent = 0;
    let mut met = 0;
    for step in &fixture.steps {
        match step {
            Step::Send(line) => {
                engine.send(line);
                sent += 1;
            }
            Step::Expect(expect) => loop {
                let Some(line) = engine.next_line(PATIENCE) else {
                    panic!(
                        "{name}: no answer after client line {sent}, expected {expect:?}; \
                         last lines: {:?}",
                        engine.transcript.iter().rev().take(8).collect::<Vec<_>>()
                    );
                };
                if skipped(&line) {
                    continue;
                }
                assert!(
                    expect.met_by(&line),
                    "{name}: after client line {sent} plyd said '{line}', expected {expect:?}"
                );
                met += 1;
                break;
            },
        }
    }
    assert!(sent > 0 && met > 0, "{name}: an empty fixture");
}

macro_rules! fixtures {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                replay($file);
            }
        )*

        /// Every fixture on disk is replayed by a test above.
        #[test]
        fn every_fixture_is_replayed() {
            let listed = [$($file),*];
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/clients");
            let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
                .expect("the fixtures folder")
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".txt"))
                .collect();
            on_disk.sort();
            for name in &on_disk {
                assert!(listed.contains(&name.as_str()), "{name} is not replayed");
            }
        }
    };
}

fixtures! {
    cute_games_ugi_othello => "cutegames-ugi-othello.txt",
    cute_games_ugi_xiangqi => "cutegames-ugi-xiangqi.txt",
    cute_games_ugi_amazons => "cutegames-ugi-amazons.txt",
    cute_games_ugi_amazons8 => "cutegames-ugi-amazons8.txt",
    ucci_against_elephanteye => "ucci-elephanteye.txt",
    ucci_against_fairy_stockfish => "ucci-fairy-stockfish.txt",
    ucci_edge_cases => "ucci-edge.txt",
    gtp_like_quarry => "gtp-quarry-othello.txt",
    nboard_like_the_gui => "nboard-gui-othello.txt",
    botzone_amazons => "botzone-amazons.txt",
    botzone_reversi => "botzone-reversi.txt",
}

#[test]
fn the_kinds_of_expectation_hold_what_they_say() {
    assert!(Expect::Exact("bestmove e2e4".into()).met_by("bestmove e2e4"));
    assert!(!Expect::Exact("bestmove e2e4".into()).met_by("bestmove e2e4 ponder e7e5"));
    let shape = Expect::SameShape("bestmove e2e4".into());
    assert!(shape.met_by("bestmove d2d4"));
    assert!(!shape.met_by("bestmove d2d4 ponder d7d5"));
    assert!(!shape.met_by("nobestmove"));
    let first = Expect::SameFirstWord("bestmove e2e4".into());
    assert!(first.met_by("bestmove d2d4 ponder d7d5"));
    assert!(!first.met_by("info depth 1"));
    let length = Expect::SameLength("2 0 2 5 5 2".into());
    assert!(length.met_by("7 7 7 1 1 1"));
    assert!(!length.met_by("7 7 7 1"));
}
