//! The C sample plugin (`plugins/c-connect4`), built here with the system C
//! compiler exactly as `docs/plugins.md` tells plugin authors (plus
//! `-Werror`), loaded by the real plyd binary, perft-tested against an
//! independent count and the published figures, and played.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::{errors, plyd_command, Engine, TempDir};
use crate::othello_reference::{Cell, Mailbox};
use plyd_othello_rules::board::{Color, Position};
use plyd_othello_rules::text::{format_move, format_position};

/// Connect Four perft from the empty board, depths 1 to 8, as published
/// (OEIS A212693: sequences of moves that stop at a win or a full board).
const PUBLISHED: [u64; 8] = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];

/// The C compiler: `$CC`, else `cc`.
fn c_compiler() -> String {
    crate::common::compiler("CC", "cc")
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Compile the C file `source` (a path from the repository root, or an
/// absolute one) into the
/// library `lib_name` in the folder `folder` under the build directory,
/// with the command line of docs/plugins.md plus -Werror (a warning in a
/// sample fails the test), and return the library's path.
fn build_c_sample(source: impl AsRef<Path>, lib_name: &str, folder: &str) -> PathBuf {
    let source = source.as_ref();
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let root = repo_root();
    let name = format!(
        "{}{lib_name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    // Built under a temporary name and renamed into place, so that no
    // plyd ever sees half a library.
    let output = dir.join(format!("{name}.{}.tmp", std::process::id()));
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
        .arg(root.join(source))
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{}' (set CC): {e}", c_compiler()));
    assert!(
        out.status.success(),
        "the C file {} does not compile:\n{}",
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let library = dir.join(&name);
    std::fs::rename(&output, &library).unwrap();
    library
}

/// The Connect Four sample, compiled once per test run into a plugin
/// folder of its own.
fn connect4_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let library = build_c_sample(
            "plugins/c-connect4/connect4.c",
            "plyd_game_connect4",
            "c-connect4",
        );
        library.parent().unwrap().to_path_buf()
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
fn the_c_sample_passes_plyd_check() {
    let out = plyd_command(connect4_dir())
        .args(["check", "--game", "connect4", "--games", "20"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.ends_with("no problem found\n"), "{stdout}");
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

/// The Othello evaluator sample (`plugins/c-eval-othello/squares.c`),
/// compiled once per test run; the path of the library.
fn squares_library() -> &'static Path {
    static LIBRARY: OnceLock<PathBuf> = OnceLock::new();
    LIBRARY.get_or_init(|| {
        build_c_sample(
            "plugins/c-eval-othello/squares.c",
            "plyd_eval_squares",
            "c-eval-othello",
        )
    })
}

/// The position text of docs/othello.md for the reference board.
fn position_text(board: &Mailbox) -> String {
    let (black, white) = board.bitboards();
    let side = if board.to_move == Cell::Black {
        Color::Black
    } else {
        Color::White
    };
    format_position(&Position { black, white, side })
}

/// The sample's score by its description, counted square by square on the
/// reference board: per disc, own minus the opponent's, corner, C-square
/// (on an edge next to a corner), X-square (diagonally next to one), other
/// edge square, inner square; then legal moves, own minus the opponent's;
/// weighted by `w` in that order.
fn squares_score(board: &Mailbox, w: [i32; 6]) -> i32 {
    let corner = |r: usize, f: usize| (r == 0 || r == 7) && (f == 0 || f == 7);
    let near = |a: usize| a == 1 || a == 6;
    let end = |a: usize| a == 0 || a == 7;
    let own = board.to_move;
    let opponent = if own == Cell::Black {
        Cell::White
    } else {
        Cell::Black
    };
    let mut score = 0;
    for r in 0..8 {
        for f in 0..8 {
            let c = board.cells[r][f];
            if c == Cell::Empty {
                continue;
            }
            let kind = if corner(r, f) {
                0
            } else if (end(r) && near(f)) || (near(r) && end(f)) {
                1
            } else if near(r) && near(f) {
                2
            } else if end(r) || end(f) {
                3
            } else {
                4
            };
            score += if c == own { w[kind] } else { -w[kind] };
        }
    }
    let mobility = board.placements(own).len() as i32 - board.placements(opponent).len() as i32;
    score + w[5] * mobility
}

/// The score `eval` gives for the position `text`.
fn eval_score(e: &mut Engine, text: &str) -> i32 {
    e.send(&format!("position fen {text}"));
    e.send("eval");
    let lines = e.sync();
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string eval score "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no score in {lines:?}"))
}

#[test]
fn the_c_evaluator_sample_scores_as_its_description_says() {
    let plugins = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut e = Engine::start(plugins.path(), &[], &[]);
    let library = squares_library();
    e.send(&format!(
        "setoption name EvalFile value {}",
        library.display()
    ));
    assert_eq!(
        e.sync(),
        vec![format!(
            "info string evaluator squares loaded from {}",
            library.display()
        )]
    );
    let defaults = [100, -20, -50, 10, 1, 8];
    // Random games, every position of them: positions where the side to
    // move must pass are skipped (the plain board passes no turn).
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut checked = 0;
    for _ in 0..6 {
        let mut board = Mailbox::start();
        loop {
            let moves = board.placements(board.to_move);
            if moves.is_empty() {
                break;
            }
            assert_eq!(
                eval_score(&mut e, &position_text(&board)),
                squares_score(&board, defaults),
                "{}",
                position_text(&board)
            );
            checked += 1;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            board.play(moves[(seed % moves.len() as u64) as usize]);
        }
    }
    assert!(checked > 100, "{checked}");

    // Parameters: a file of weights, then one refused with its key named.
    let files = TempDir::new("squares-params");
    let good = files.path().join("good.toml");
    std::fs::write(&good, "corner = 500\nmobility = 0 # no mobility\n").unwrap();
    let bad = files.path().join("bad.toml");
    std::fs::write(&bad, "corners = 500\n").unwrap();
    e.send(&format!(
        "setoption name EvalParams value {}",
        good.display()
    ));
    assert!(errors(&e.sync()).is_empty());
    let mut board = Mailbox::start();
    // f5 d6 c3 (square row * 8 + file, rows from the top).
    for mv in [37, 43, 18] {
        board.play(mv);
    }
    assert_eq!(
        eval_score(&mut e, &position_text(&board)),
        squares_score(&board, [500, -20, -50, 10, 1, 0])
    );
    e.send(&format!(
        "setoption name EvalParams value {}",
        bad.display()
    ));
    assert_eq!(
        e.sync(),
        vec![format!(
            "info string error: eval params {}: key 'corners': unknown (expected corner, \
             c_square, x_square, edge, inner or mobility)",
            bad.display()
        )]
    );
    // It searches.
    e.send("go depth 4");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = lines.last().unwrap().split(' ').nth(1).unwrap();
    let legal: Vec<String> = board
        .placements(board.to_move)
        .into_iter()
        .map(format_move)
        .collect();
    assert!(legal.iter().any(|m| m == best), "{best} not in {legal:?}");
}

/// A C evaluator plugin for Othello named `name`, bound 100, whose
/// `evaluate` runs `body` (with `out` to write and `calls`, a count of the
/// calls before), built in a folder of its own.
fn c_evaluator(name: &str, body: &str) -> PathBuf {
    let dir = TempDir::new(&format!("c-{name}"));
    let source = dir.path().join(format!("{name}.c"));
    std::fs::write(
        &source,
        format!(
            r#"#include <stdint.h>
#include <stdlib.h>
#include "plyd_plugin.h"
static PlydEvalContext *create(const char *p, char *e, size_t c) {{
    (void)p; (void)e; (void)c;
    return (PlydEvalContext *)malloc(1);
}}
static void destroy(PlydEvalContext *ctx) {{ free(ctx); }}
static int calls;
static int32_t evaluate(const PlydEvalContext *ctx, const PlydState *s, int32_t *out) {{
    (void)ctx; (void)s;
    {body}
    calls++;
    return PLYD_STATUS_OK;
}}
static const PlydEvaluatorApi API = {{
    .abi_version = PLYD_ABI_VERSION, .table_size = sizeof(PlydEvaluatorApi),
    .name = "{name}", .description = "a test evaluator", .game = "othello",
    .state_layout = 1, .score_bound = 100, .default_params = "",
    .create = create, .destroy = destroy, .evaluate = evaluate,
}};
const PlydEvaluatorApi *plyd_evaluator_api(void) {{ return &API; }}
"#
        ),
    )
    .unwrap();
    build_c_sample(
        &source,
        &format!("plyd_eval_{name}"),
        &format!("c-eval-{name}"),
    )
}

/// `plyd check --game othello --games GAMES --evaluator NAME` with Othello
/// and `library` in a plugin folder: its exit status and stdout.
fn check_c_evaluator(library: &Path, name: &str, games: &str) -> (Option<i32>, String) {
    let plugins = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    std::fs::copy(library, plugins.path().join(library.file_name().unwrap())).unwrap();
    let out = crate::common::check_othello_evaluator(plugins.path(), name, games, &[]);
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// The smallest C evaluator, as docs/plugins.md gives it whole, compiles
/// and passes `plyd check`.
#[test]
fn the_smallest_c_evaluator_of_the_docs_passes_plyd_check() {
    let docs = std::fs::read_to_string(repo_root().join("docs/plugins.md")).unwrap();
    let start = docs
        .find("```c\n/* discs.c:")
        .expect("docs/plugins.md gives discs.c")
        + "```c\n".len();
    let end = start + docs[start..].find("```").unwrap();
    let exe = std::env::current_exe().unwrap();
    let source = exe.parent().unwrap().join("docs-discs.c");
    std::fs::write(&source, &docs[start..end]).unwrap();
    let library = build_c_sample(&source, "plyd_eval_discs", "c-discs");
    let (status, stdout) = check_c_evaluator(&library, "discs", "6");
    assert_eq!(status, Some(0), "{stdout}");
    assert!(stdout.ends_with("\nno problem found\n"), "{stdout}");
}

#[test]
fn the_c_evaluator_samples_stack_scores_as_evaluate_does() {
    let (status, stdout) = check_c_evaluator(squares_library(), "squares", "6");
    assert_eq!(status, Some(0), "{stdout}");
    assert!(
        stdout.contains("scores of its stacks compared with evaluate's on 2 threads\n")
            && stdout.contains("\nits scores are the side to move's: ")
            && stdout.ends_with("\nno problem found\n"),
        "{stdout}"
    );
}

#[test]
fn check_finds_a_c_evaluator_past_its_bound() {
    // The SDK clamps a Rust evaluator's score; a C evaluator's comes
    // through as written.
    let library = c_evaluator("loud", "*out = 1000;");
    let (status, stdout) = check_c_evaluator(&library, "loud", "2");
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains("problem: a score of evaluate past the evaluator's score_bound: 122 times, first in game 1 ply 0, position '8/8/8/3OX3/3XO3/8/8/8 b': 1000, bound 100"),
        "{stdout}"
    );
}

/// A search clamps a score past the bound, and says so once on stderr
/// (nothing told of it outside `eval` and `check`).
#[test]
fn a_search_says_once_that_a_c_evaluator_scored_past_its_bound() {
    let library = c_evaluator("loud", "*out = 1000;");
    let plugins = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut e = Engine::start(plugins.path(), &[], &[]);
    e.send(&format!(
        "setoption name EvalFile value {}",
        library.display()
    ));
    for _ in 0..2 {
        e.send("position startpos");
        e.send("go depth 3");
        e.until_bestmove();
    }
    let stderr = e.stderr_lines().join("\n");
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("past its score_bound"))
        .collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(
        said[0].contains("evaluator 'loud' (")
            && said[0].contains(
                "evaluate scored 1000, past its score_bound 100: the search takes it as 100"
            ),
        "{stderr}"
    );
}

#[test]
fn eval_warns_of_any_score_past_the_bound_and_int32_min_is_no_score() {
    // A C evaluator's score reaches the host unclamped: `eval` must see
    // the lowest score past the bound too. INT32_MIN itself is what the
    // host leaves in the output before the call: an evaluator answering
    // it wrote no score, and is disabled.
    let library = c_evaluator("lowest", "*out = calls == 0 ? INT32_MIN + 1 : INT32_MIN;");
    let plugins = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    let mut e = Engine::start(plugins.path(), &[], &[]);
    e.send(&format!(
        "setoption name EvalFile value {}",
        library.display()
    ));
    e.send("position startpos");
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.contains(&"info string eval score -2147483647 (side to move)".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"info string eval warning: the score is at or past the evaluator's bound 100 \
              (its score_bound); searches see at most ±100"
                .to_string()
        ),
        "{lines:?}"
    );
    e.send("eval");
    let lines = e.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        lines[0].contains(
            "plugin evaluator 'lowest' returned garbage from evaluate: returned STATUS_OK without writing a score"
        ),
        "{lines:?}"
    );
}

/// `plyd_states.h` states each game's layout 1 as the Rust types lay it
/// out: the C compiler checks every field's offset and size, the layout
/// numbers and the cell values against the numbers taken from Rust.
#[test]
fn the_state_header_matches_the_games() {
    use std::mem::{offset_of, size_of_val};
    let othello = plyd_othello_rules::board::Position::START;
    let xiangqi = plyd_xiangqi_rules::board::Position::empty();
    let amazons = plyd_amazons_rules::board::Board::empty(10);
    let einstein = plyd_einstein_rules::board::Board::setup();
    // (C type, field, Rust offset, Rust size)
    let fields = [
        (
            "PlydOthelloStateV1",
            "black",
            offset_of!(plyd_othello_rules::board::Position, black),
            size_of_val(&othello.black),
        ),
        (
            "PlydOthelloStateV1",
            "white",
            offset_of!(plyd_othello_rules::board::Position, white),
            size_of_val(&othello.white),
        ),
        (
            "PlydOthelloStateV1",
            "side",
            offset_of!(plyd_othello_rules::board::Position, side),
            size_of_val(&othello.side),
        ),
        (
            "PlydXiangqiStateV1",
            "board",
            offset_of!(plyd_xiangqi_rules::board::Position, board),
            size_of_val(&xiangqi.board),
        ),
        (
            "PlydXiangqiStateV1",
            "side",
            offset_of!(plyd_xiangqi_rules::board::Position, side),
            size_of_val(&xiangqi.side),
        ),
        (
            "PlydAmazonsStateV1",
            "size",
            offset_of!(plyd_amazons_rules::board::Board, size),
            size_of_val(&amazons.size),
        ),
        (
            "PlydAmazonsStateV1",
            "side",
            offset_of!(plyd_amazons_rules::board::Board, side),
            size_of_val(&amazons.side),
        ),
        (
            "PlydAmazonsStateV1",
            "cells",
            offset_of!(plyd_amazons_rules::board::Board, cells),
            size_of_val(&amazons.cells),
        ),
        (
            "PlydEinsteinStateV1",
            "cells",
            offset_of!(plyd_einstein_rules::board::Board, cells),
            size_of_val(&einstein.cells),
        ),
        (
            "PlydEinsteinStateV1",
            "side",
            offset_of!(plyd_einstein_rules::board::Board, side),
            size_of_val(&einstein.side),
        ),
        (
            "PlydEinsteinStateV1",
            "roll",
            offset_of!(plyd_einstein_rules::board::Board, roll),
            size_of_val(&einstein.roll),
        ),
        (
            "PlydEinsteinStateV1",
            "stage",
            offset_of!(plyd_einstein_rules::board::Board, stage),
            size_of_val(&einstein.stage),
        ),
    ];
    let values = [
        (
            "PLYD_OTHELLO_STATE_LAYOUT",
            plyd_othello_rules::STATE_LAYOUT,
        ),
        (
            "PLYD_XIANGQI_STATE_LAYOUT",
            plyd_xiangqi_rules::STATE_LAYOUT,
        ),
        (
            "PLYD_AMAZONS_STATE_LAYOUT",
            plyd_amazons_rules::STATE_LAYOUT,
        ),
        (
            "PLYD_EINSTEIN_STATE_LAYOUT",
            plyd_einstein_rules::STATE_LAYOUT,
        ),
        (
            "PLYD_XIANGQI_EMPTY",
            plyd_xiangqi_rules::board::EMPTY.into(),
        ),
        (
            "PLYD_XIANGQI_GENERAL",
            plyd_xiangqi_rules::board::KING.into(),
        ),
        (
            "PLYD_XIANGQI_ADVISOR",
            plyd_xiangqi_rules::board::ADVISOR.into(),
        ),
        (
            "PLYD_XIANGQI_ELEPHANT",
            plyd_xiangqi_rules::board::ELEPHANT.into(),
        ),
        (
            "PLYD_XIANGQI_HORSE",
            plyd_xiangqi_rules::board::HORSE.into(),
        ),
        (
            "PLYD_XIANGQI_CHARIOT",
            plyd_xiangqi_rules::board::CHARIOT.into(),
        ),
        (
            "PLYD_XIANGQI_CANNON",
            plyd_xiangqi_rules::board::CANNON.into(),
        ),
        ("PLYD_XIANGQI_PAWN", plyd_xiangqi_rules::board::PAWN.into()),
        (
            "PLYD_XIANGQI_BLACK",
            plyd_xiangqi_rules::board::BLACK_FLAG.into(),
        ),
        (
            "PLYD_AMAZONS_EMPTY",
            plyd_amazons_rules::board::EMPTY.into(),
        ),
        (
            "PLYD_AMAZONS_FIRST",
            plyd_amazons_rules::board::FIRST.into(),
        ),
        (
            "PLYD_AMAZONS_SECOND",
            plyd_amazons_rules::board::SECOND.into(),
        ),
        (
            "PLYD_AMAZONS_ARROW",
            plyd_amazons_rules::board::ARROW.into(),
        ),
        (
            "PLYD_EINSTEIN_RED_ARRANGES",
            plyd_einstein_rules::board::STAGE_RED_SETUP.into(),
        ),
        (
            "PLYD_EINSTEIN_BLUE_ARRANGES",
            plyd_einstein_rules::board::STAGE_BLUE_SETUP.into(),
        ),
        (
            "PLYD_EINSTEIN_PLAY",
            plyd_einstein_rules::board::STAGE_PLAY.into(),
        ),
    ];
    let mut code = String::from("#include <stddef.h>\n#include \"plyd_states.h\"\n");
    for (ty, field, offset, size) in fields {
        code += &format!(
            "_Static_assert(offsetof({ty}, {field}) == {offset}, \"{ty}.{field} offset\");\n\
             _Static_assert(sizeof(((const {ty} *)0)->{field}) == {size}, \"{ty}.{field} size\");\n"
        );
    }
    for (name, value) in values {
        let value: u32 = value;
        code += &format!("_Static_assert({name} == {value}u, \"{name}\");\n");
    }
    let dir = TempDir::new("states-header");
    let source = dir.path().join("states.c");
    std::fs::write(&source, &code).unwrap();
    let out = Command::new(c_compiler())
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-fsyntax-only",
            "-I",
        ])
        .arg(repo_root().join("plugins/api/include"))
        .arg(&source)
        .output()
        .expect("run the C compiler");
    assert!(
        out.status.success(),
        "{}\n{code}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A game plugin with a variant named as another loaded game's is
/// refused with one line naming both (a variant is chosen by its name
/// alone: one of them could never be played), and the other game plays
/// on; so is a plugin naming two of its variants alike.
#[test]
fn a_variant_named_as_another_games_is_refused() {
    let original =
        std::fs::read_to_string(repo_root().join("plugins/c-connect4/connect4.c")).unwrap();
    let variants = "{.name = \"connect4\", .start_position = \"7/7/7/7/7/7 X\"}";
    assert!(original.contains(variants));
    let exe = std::env::current_exe().unwrap();
    let sources = exe.parent().unwrap().join("c-connect4-renamed");
    std::fs::create_dir_all(&sources).unwrap();
    for (tag, replacement) in [
        ("othello", "{.name = \"othello\", .start_position = \"7/7/7/7/7/7 X\"}"),
        ("twice", "{.name = \"connect4\", .start_position = \"7/7/7/7/7/7 X\"},\n    {.name = \"connect4\", .start_position = \"7/7/7/7/7/7 X\"}"),
    ] {
        let mut text = original.replace(variants, replacement);
        if tag == "twice" {
            text = text.replace(".variant_count = 1", ".variant_count = 2");
            assert!(text.contains(".variant_count = 2"), "the sample's variant count");
        }
        let source = sources.join(format!("{tag}.c"));
        std::fs::write(&source, text).unwrap();
        let library = build_c_sample(&source, "plyd_game_connect4", &format!("c-connect4-{tag}"));
        let plugins = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
        let path = format!(
            "{}:{}",
            plugins.path().display(),
            library.parent().unwrap().display()
        );
        let mut e = Engine::start(plugins.path(), &["--plugin-path", &path], &[]);
        e.send("uci");
        let lines = e.read_until(|l| l == "uciok");
        let after = e.sync();
        let told = crate::common::errors(&after);
        let expected = if tag == "othello" {
            "variant 'othello' is already a variant of game othello"
        } else {
            "two variants are named 'connect4'"
        };
        assert!(
            told.iter().any(|l| l.contains(expected)),
            "{tag}: {told:?} {lines:?}"
        );
        let variant_line = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant"))
            .unwrap();
        assert_eq!(variant_line.matches("var othello").count(), 1, "{variant_line}");
        assert!(!variant_line.contains("connect4"), "{variant_line}");
        e.send("setoption name UCI_Variant value othello");
        e.send("position startpos");
        assert_eq!(e.fen(), "8/8/8/3OX3/3XO3/8/8/8 b");
    }
}

/// `plyd check` reads back the start position a variant announces (GUIs
/// set the text `uci` shows): one the plugin refuses is a problem.
#[test]
fn check_reads_the_announced_start_position_back() {
    let original =
        std::fs::read_to_string(repo_root().join("plugins/c-connect4/connect4.c")).unwrap();
    let variants = "{.name = \"connect4\", .start_position = \"7/7/7/7/7/7 X\"}";
    let text = original.replace(
        variants,
        "{.name = \"connect4\", .start_position = \"garbage!\"}",
    );
    let exe = std::env::current_exe().unwrap();
    let sources = exe.parent().unwrap().join("c-connect4-start");
    std::fs::create_dir_all(&sources).unwrap();
    let source = sources.join("start.c");
    std::fs::write(&source, text).unwrap();
    let library = build_c_sample(&source, "plyd_game_connect4", "c-connect4-start-lib");
    let out = crate::common::plyd_command(library.parent().unwrap())
        .args(["check", "--game", "connect4", "--games", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "problem: the variant's announced start position is refused: once, first in 'garbage!'"
        ),
        "{stdout}"
    );
    // The sample as shipped passes.
    let out = crate::common::plyd_command(connect4_dir())
        .args(["check", "--game", "connect4", "--games", "2"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// An evaluator that calls `exit` ends the process, which plyd cannot
/// stop: it names the plugin on stderr and ends with status 2, where the
/// daemon ended without a word with the plugin's status (0 for `exit(0)`,
/// which `plyd check` then passed). Linux on x86-64 and AArch64, where
/// plyd names what ends it.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn an_evaluator_calling_exit_is_named_and_ends_plyd_with_status_2() {
    let library = c_evaluator("quitter", "*out = 0;\n    exit(0);");
    let plugins = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    std::fs::copy(&library, plugins.path().join(library.file_name().unwrap())).unwrap();
    let check = plyd_command(plugins.path())
        .args([
            "check",
            "--game",
            "othello",
            "--games",
            "2",
            "--evaluator",
            "quitter",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("plyd: exit called inside the plugin ")
            && stderr.contains("libplyd_eval_quitter"),
        "{stderr}"
    );
    let daemon = crate::common::output_with_input(
        plyd_command(plugins.path()).args(["--option", "Evaluator=quitter"]),
        b"uci\nisready\neval\nisready\n",
    );
    let stderr = String::from_utf8_lossy(&daemon.stderr);
    assert_eq!(daemon.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("plyd: exit called inside the plugin "),
        "{stderr}"
    );
}

/// A fault in a plugin's initialisers (a C constructor, run while it is
/// loaded) is named as one while loading it: nothing was said.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn a_fault_while_loading_a_plugin_is_named() {
    let dir = TempDir::new("c-ctor");
    let source = dir.path().join("ctor.c");
    std::fs::write(
        &source,
        "__attribute__((constructor)) void boom(void) { volatile int *volatile p = 0; *p = 1; }\n\
         const void *plyd_evaluator_api(void) { return 0; }\n",
    )
    .unwrap();
    let library = build_c_sample(&source, "plyd_eval_ctor", "c-eval-ctor");
    let plugins = crate::common::plugin_dir(&[("plyd_game_othello", "othello")]);
    let out = plyd_command(plugins.path())
        .args(["check", "--evaluator"])
        .arg(&library)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("plyd: SIGSEGV while loading the plugin ")
            && stderr.contains("(its initialisers, a constructor)"),
        "{stderr}"
    );
}

/// An evaluator that writes into the state it is given to read (the
/// header's `const`) is a problem `plyd check` names: one that flipped
/// the side to move and back passed.
#[test]
fn check_finds_an_evaluator_that_changes_the_position() {
    // Byte 16 of Othello's state is the side to move.
    let library = c_evaluator("meddler", "((uint8_t *)(void *)s)[16] ^= 1;\n    *out = 0;");
    let (status, stdout) = check_c_evaluator(&library, "meddler", "2");
    assert_eq!(status, Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "problem: evaluate changed the position it was given: 6 times, first in game 1 ply 0, \
             position '8/8/8/3OX3/3XO3/8/8/8 b': then '8/8/8/3OX3/3XO3/8/8/8 w'"
        ),
        "{stdout}"
    );
}

/// A C++ evaluator whose score is the static of an inline function, which
/// g++ exports with GNU-unique binding, built with `flags` (`-DTAG=N`)
/// into `library` (under a temporary name, renamed into place: a new
/// file, as a rebuild makes).
#[cfg(target_os = "linux")]
fn build_cpp_evaluator(library: &Path, flags: &[&str]) {
    let cxx = crate::common::compiler("CXX", "c++");
    let dir = library.parent().unwrap();
    let source = dir.join("tagged.cpp");
    std::fs::write(
        &source,
        r#"#include "plyd_plugin.h"
inline int &tag() { static int t = TAG; return t; }
namespace {
int context;
PlydEvalContext *create(const char *, char *, size_t) { return reinterpret_cast<PlydEvalContext *>(&context); }
void destroy(PlydEvalContext *) {}
int32_t evaluate(const PlydEvalContext *, const PlydState *, int32_t *out) {
    *out = tag();
    return PLYD_STATUS_OK;
}
PlydEvaluatorApi table() {
    PlydEvaluatorApi t{};
    t.abi_version = PLYD_ABI_VERSION; t.table_size = sizeof t;
    t.name = "tagged"; t.description = "a test evaluator"; t.game = "othello";
    t.state_layout = 1; t.score_bound = 100; t.default_params = "";
    t.create = create; t.destroy = destroy; t.evaluate = evaluate;
    return t;
}
const PlydEvaluatorApi API = table();
}
PLYD_EXPORT const PlydEvaluatorApi *plyd_evaluator_api(void) { return &API; }
"#,
    )
    .unwrap();
    let output = dir.join("tagged.so.tmp");
    let out = Command::new(&cxx)
        .args(["-std=c++17", "-O2", "-shared", "-fPIC", "-I"])
        .arg(repo_root().join("plugins/api/include"))
        .args(flags)
        .arg(&source)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C++ compiler '{cxx}' (set CXX): {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&output, library).unwrap();
}

/// A rebuilt C++ evaluator whose first build defined GNU-unique symbols
/// is not loaded again: the loader would bind the new copy's statics to
/// the first copy's objects (a rebuild that changed their layout ended
/// the daemon with a SIGSEGV). The error says how to build it, the
/// evaluator loaded before goes on scoring, and a build without them
/// loads.
#[test]
#[cfg(target_os = "linux")]
fn a_rebuilt_cpp_evaluator_sharing_its_statics_is_not_loaded_again() {
    let dir = TempDir::new("cpp-unique");
    let library = dir.path().join("libplyd_eval_tagged.so");
    build_cpp_evaluator(&library, &["-DTAG=1"]);
    let (mut e, _plugins) = Engine::othello();
    let load = format!("setoption name EvalFile value {}", library.display());
    let start = "8/8/8/3OX3/3XO3/8/8/8 b";
    e.send(&load);
    assert!(errors(&e.sync()).is_empty());
    assert_eq!(eval_score(&mut e, start), 1);
    build_cpp_evaluator(&library, &["-DTAG=2"]);
    e.send(&load);
    let lines = e.sync();
    let told = errors(&lines);
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(
        told[0].contains("defines 1 GNU-unique symbol (_ZZ3tagvE1t: ")
            && told[0].contains("Build it with -fno-gnu-unique"),
        "{lines:?}"
    );
    assert_eq!(eval_score(&mut e, start), 1, "the first build is kept");
    build_cpp_evaluator(&library, &["-DTAG=3", "-fno-gnu-unique"]);
    e.send(&load);
    assert!(errors(&e.sync()).is_empty());
    assert_eq!(eval_score(&mut e, start), 3);
}
