//! The C sample plugin (`plugins/c-connect4`), built here with the system C
//! compiler exactly as `docs/plugins.md` tells plugin authors (plus
//! `-Werror`), loaded by the real plyd binary, perft-tested against an
//! independent count and the published figures, and played.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::{errors, plyd_command, Engine, TempDir};

/// Connect Four perft from the empty board, depths 1 to 8, as published
/// (OEIS A212693: sequences of moves that stop at a win or a full board).
const PUBLISHED: [u64; 8] = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];

/// The C compiler: `$CC`, else `cc`.
fn c_compiler() -> String {
    std::env::var("CC")
        .ok()
        .filter(|cc| !cc.trim().is_empty())
        .unwrap_or_else(|| "cc".to_string())
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Compile the sample once per test run into a plugin folder of its own
/// under the build directory, and return that folder.
fn connect4_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let dir = exe.parent().unwrap().join("c-connect4");
        std::fs::create_dir_all(&dir).unwrap();
        let root = repo_root();
        let name = format!(
            "{}plyd_game_connect4{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        );
        // Built under a temporary name and renamed into place, so that no
        // plyd ever sees half a library.
        let output = dir.join(format!("{name}.{}.tmp", std::process::id()));
        // The command line of docs/plugins.md, with -Werror so that a
        // warning in the sample fails the test.
        let out = Command::new(c_compiler())
            .args([
                "-std=c11",
                "-O2",
                "-Wall",
                "-Wextra",
                "-pedantic",
                "-Werror",
            ])
            .args(["-shared", "-fPIC", "-I"])
            .arg(root.join("plugins/api/include"))
            .arg(root.join("plugins/c-connect4/connect4.c"))
            .arg("-o")
            .arg(&output)
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run the C compiler '{}' (set CC): {e}", c_compiler())
            });
        assert!(
            out.status.success(),
            "the C sample does not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::rename(&output, dir.join(&name)).unwrap();
        dir
    })
}

fn connect4() -> Engine {
    let mut e = Engine::start(connect4_dir(), &[], &[]);
    e.send("setoption name UCI_Variant value connect4");
    assert_eq!(
        e.sync(),
        vec!["info string variant connect4 startpos 7/7/7/7/7/7 X".to_string()]
    );
    e
}

/// An independent Connect Four, written plainly for the tests: a grid and
/// a scan for four in a row around the last disc.
#[derive(Clone)]
struct Grid {
    cells: [[u8; 6]; 7],
    heights: [usize; 7],
    discs: usize,
    won: bool,
}

impl Grid {
    fn new() -> Self {
        Grid {
            cells: [[0; 6]; 7],
            heights: [0; 7],
            discs: 0,
            won: false,
        }
    }

    fn over(&self) -> bool {
        self.won || self.discs == 42
    }

    fn legal(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..7).filter(|&c| self.heights[c] < 6).collect()
    }

    fn play(&mut self, column: usize) {
        let player = (self.discs % 2) as u8 + 1;
        let row = self.heights[column];
        self.cells[column][row] = player;
        self.heights[column] += 1;
        self.discs += 1;
        let at = |c: i32, r: i32| -> bool {
            (0..7).contains(&c)
                && (0..6).contains(&r)
                && self.cells[c as usize][r as usize] == player
        };
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut c, mut r) = (column as i32 + sign * dc, row as i32 + sign * dr);
                while at(c, r) {
                    run += 1;
                    c += sign * dc;
                    r += sign * dr;
                }
            }
            if run >= 4 {
                self.won = true;
            }
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|c| {
                let mut next = self.clone();
                next.play(c);
                next.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn an_independent_count_agrees_with_the_published_figures() {
    let grid = Grid::new();
    for (depth, &expected) in (1..=8).zip(PUBLISHED.iter()) {
        assert_eq!(grid.perft(depth), expected, "depth {depth}");
    }
}

#[test]
fn go_perft_through_the_plugin_matches_the_published_figures() {
    let mut e = connect4();
    for (depth, &expected) in (1..=8).zip(PUBLISHED.iter()) {
        e.send(&format!("go perft {depth}"));
        let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {expected}")
        );
        // One line per column, each column's share of the total.
        let per_move: Vec<&String> = lines
            .iter()
            .filter(|l| l.len() > 3 && l.as_bytes()[1] == b':')
            .collect();
        assert_eq!(per_move.len(), 7, "{lines:?}");
    }
    // From a position: the first player wins at d1 or loses the column race.
    e.send("position startpos moves a a b b c c");
    e.send("go perft 2");
    let lines = e.read_until(|l| l.starts_with("Nodes searched:"));
    // d wins at once (0 below it); the other six columns have 7 replies each.
    assert!(lines.contains(&"d: 0".to_string()), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 42");
}

#[test]
fn perft_subcommand_matches_inside_and_through_the_boundary() {
    for native in [false, true] {
        let mut cmd = plyd_command(connect4_dir());
        cmd.args(["perft", "--game", "connect4", "--depth", "8"]);
        if native {
            cmd.arg("--native");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.contains("\nNodes searched: 5673234\n"), "{stdout}");
    }
}

#[test]
fn the_search_takes_a_win_and_blocks_a_loss() {
    let mut e = connect4();
    // X has a1 b1 c1: d1 wins.
    e.send("position startpos moves a a b b c c");
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove d");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    // O to move against the same threat: only d holds.
    e.send("position startpos moves a a b b c");
    e.send("go depth 4");
    let lines = e.until_bestmove();
    assert!(lines.last().unwrap().starts_with("bestmove d"), "{lines:?}");
    // Position text round trip, and a refused one.
    e.send("position fen 7/7/7/7/3O3/2XX3 O");
    assert_eq!(e.fen(), "7/7/7/7/3O3/2XX3 O");
    e.send("position fen 7/7/7/7/3O3/2XX3 X");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(lines[0].contains("X has 2 discs and O 1, so O is to move"));
    e.assert_no_position_until(
        "position fen 7/7/7/7/3O3/2XX3 O",
        "7/7/7/7/3O3/2XX3 O",
        "X to move with more discs",
    );
}

#[test]
fn a_self_play_game_runs_to_the_end() {
    let mut e = connect4();
    let mut moves: Vec<String> = Vec::new();
    let mut grid = Grid::new();
    loop {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 4");
        let lines = e.until_bestmove();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
        if best == "(none)" {
            break;
        }
        let column = (best.as_bytes()[0] - b'a') as usize;
        assert!(
            grid.legal().contains(&column),
            "illegal {best} after {moves:?}"
        );
        grid.play(column);
        moves.push(best);
        assert!(moves.len() <= 42, "the game did not end: {moves:?}");
    }
    // plyd says the game is over exactly when the independent rules do.
    assert!(grid.over(), "bestmove (none) in an open game: {moves:?}");
    assert!(e.sync().is_empty());
}

#[test]
fn the_c_evaluator_takes_parameters_and_refuses_bad_ones() {
    let files = TempDir::new("c4params");
    let good = files.path().join("good.toml");
    std::fs::write(
        &good,
        "# threes matter most\ncenter = 0\none = 0\ntwo = 0\nthree = 100\n",
    )
    .unwrap();
    let bad = files.path().join("bad.toml");
    std::fs::write(&bad, "three = many\n").unwrap();
    let mut e = connect4();
    e.send("position startpos moves a a b b c");
    e.send("eval");
    let lines = e.sync();
    assert_eq!(
        lines[0],
        "info string eval evaluator lines (built into connect4) params default"
    );
    assert!(
        lines.contains(&"info string eval lines_of_three -1".to_string()),
        "{lines:?}"
    );
    e.send(&format!(
        "setoption name EvalParams value {}",
        good.display()
    ));
    e.send("eval");
    let lines = e.sync();
    // O to move, X holds one open three: 100 * -1.
    assert!(
        lines.contains(&"info string eval score -100 (side to move)".to_string()),
        "{lines:?}"
    );
    e.send(&format!(
        "setoption name EvalParams value {}",
        bad.display()
    ));
    assert_eq!(
        e.sync(),
        vec![format!(
            "info string error: eval params {}: key 'three': expected an integer",
            bad.display()
        )]
    );
}
