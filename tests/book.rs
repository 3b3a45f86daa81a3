//! Opening books end to end: `plyd book` builds and extends one, the daemon
//! plays from it with `OwnBook` and `BookFile` (and refuses a broken file
//! with one line, keeping the book it had), and NBoard's `learn` adds a
//! game to the book named in the configuration file.

use crate::common;

use std::path::Path;
use std::time::Duration;

use crate::common::{errors, othello_dir, run_plyd, Engine, TempDir};
use plyd::book::Book;

/// `plyd book` in `dir` with `args`; the book read back.
fn build(dir: &Path, book: &Path, args: &[&str]) -> Book {
    let out = book.display().to_string();
    let mut all = vec!["book", "--out", out.as_str()];
    all.extend_from_slice(args);
    let run = run_plyd(dir, &all);
    assert!(run.status.success(), "{run:?}");
    Book::load(book).expect("the book reads back")
}

const START: &str = "8/8/8/3OX3/3XO3/8/8/8 b";

/// A book's position lines: after its first line, the comments (the
/// start's moves as spelled) left out.
fn positions(text: &str) -> impl Iterator<Item = &str> {
    text.lines().skip(1).filter(|l| !l.starts_with('#'))
}

/// Every move of every position of `book` is legal there, and a move whose
/// next position is in the book carries that position's best score,
/// negated (Othello's side changes every move); returns how many did.
fn assert_sound(book: &Book) -> usize {
    let mut host = plyd::host::PluginHost::default();
    let othello = host
        .load_file(&common::built_library("plyd_game_othello"))
        .expect("othello loads");
    let mut state = plyd::host::GameState::new(&othello, 0).unwrap();
    let text = book.write();
    let mut carried = 0;
    for line in positions(&text) {
        let position = line.split('\t').next().unwrap();
        state.set_position(position).unwrap();
        assert_eq!(state.position_text().unwrap(), position);
        for m in book.moves(position).unwrap() {
            let mv = state
                .parse_legal_move(&m.mv)
                .unwrap_or_else(|e| panic!("{position} {}: {e}", m.mv));
            state.make_move(mv).unwrap();
            let child = state.position_text().unwrap();
            state.unmake_move(mv).unwrap();
            if let Some(best) = book.best(&child) {
                assert_eq!(m.score, -best.score, "{position} {}", m.mv);
                carried += 1;
            }
        }
    }
    carried
}

#[test]
fn plyd_book_builds_a_negamaxed_book_and_extends_it() {
    let dir = othello_dir();
    let file = dir.path().join("othello.book");
    let book = build(dir.path(), &file, &["--plies", "2", "--depth", "3"]);
    assert_eq!(book.game(), "othello");
    let start: Vec<&str> = book
        .moves(START)
        .expect("the start position")
        .iter()
        .map(|m| m.mv.as_str())
        .collect();
    assert_eq!(start, ["d3", "c4", "f5", "e6"]);
    assert!(book.len() >= 2, "{}", book.write());
    assert!(assert_sound(&book) > 0, "{}", book.write());
    // Deeper: every position kept, more added.
    let deeper = build(dir.path(), &file, &["--plies", "3", "--depth", "3"]);
    assert!(deeper.len() > book.len());
    for line in positions(&book.write()) {
        let position = line.split('\t').next().unwrap();
        assert!(deeper.moves(position).is_some(), "{position} was dropped");
    }
    // A book of another game is refused, with the file named.
    let other = dir.path().join("amazons.book");
    std::fs::write(&other, "plyd-book 1 amazons\n").unwrap();
    let out = other.display().to_string();
    let run = run_plyd(dir.path(), &["book", "--out", &out, "--plies", "1"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("is for amazons, not othello"), "{stderr}");
    // An evaluator the game does not have is refused, as by `plyd eval`.
    let run = run_plyd(
        dir.path(),
        &["book", "--out", &out, "--evaluator", "nonsense"],
    );
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("othello has no evaluator 'nonsense'"),
        "{stderr}"
    );
    // A file that cannot be written is refused before any search, and a
    // book of no plies is no book.
    let nowhere = dir.path().join("no-such-folder").join("x.book");
    let out = nowhere.display().to_string();
    let run = run_plyd(dir.path(), &["book", "--out", &out, "--depth", "60"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("cannot be written"), "{stderr}");
    let fresh = dir.path().join("fresh.book").display().to_string();
    let run = run_plyd(dir.path(), &["book", "--out", &fresh, "--plies", "0"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(!std::path::Path::new(&fresh).exists());
}

/// The answer to `go depth N` from `position`, and whether it came from
/// the book.
fn go(e: &mut Engine, position: &str, depth: u32) -> (Vec<String>, bool) {
    e.send(position);
    e.send(&format!("go depth {depth}"));
    let lines = e.until_bestmove();
    let from_book = lines.iter().any(|l| l.ends_with("string book"));
    if !from_book {
        let searched = format!("info depth {depth} ");
        assert!(lines.iter().any(|l| l.starts_with(&searched)), "{lines:?}");
    }
    (lines, from_book)
}

/// A daemon with `BookFile` set to `file` and `OwnBook` as given.
fn engine_with_book(dir: &Path, file: &Path, own_book: bool) -> Engine {
    let mut e = Engine::start(dir, &[], &[]);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send(&format!("setoption name BookFile value {}", file.display()));
    e.send(&format!("setoption name OwnBook value {own_book}"));
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e
}

#[test]
fn the_daemon_plays_the_books_best_move_with_own_book() {
    let dir = othello_dir();
    let file = dir.path().join("othello.book");
    let book = build(dir.path(), &file, &["--plies", "2", "--depth", "3"]);
    let best = book.best(START).unwrap().clone();

    let mut e = engine_with_book(dir.path(), &file, true);
    // The book's reply to its move, the move to ponder on.
    e.send(&format!("position startpos moves {}", best.mv));
    let reply = book.best(&e.fen()).unwrap().clone();
    e.send("position startpos");
    e.send("go depth 9");
    let lines = e.until_bestmove();
    assert_eq!(
        lines,
        [
            format!(
                "info depth {} score cp {} nodes 0 pv {} {} string book",
                best.depth, best.score, best.mv, reply.mv
            ),
            format!("bestmove {} ponder {}", best.mv, reply.mv),
        ]
    );
    // Out of the book: a search.
    let (_, from_book) = go(&mut e, "position startpos moves f5 d6 c3 d3 c4", 3);
    assert!(!from_book);
    // MultiPV searches are never the book's.
    e.send("setoption name MultiPV value 2");
    let (_, from_book) = go(&mut e, "position startpos", 2);
    assert!(!from_book);

    // A broken file is refused with one line; the book stays.
    e.send("setoption name MultiPV value 1");
    let broken = dir.path().join("broken.book");
    std::fs::write(&broken, "plyd-book 1 othello\nx\tf5 one 3\n").unwrap();
    e.send(&format!(
        "setoption name BookFile value {}",
        broken.display()
    ));
    let lines = e.sync();
    assert_eq!(
        errors(&lines),
        [&format!(
            "info string error: book {}: line 2: 'one' is not a score",
            broken.display()
        )],
        "{lines:?}"
    );
    e.send("go depth 9");
    let lines = e.until_bestmove();
    assert_eq!(
        lines.last().unwrap(),
        &format!("bestmove {} ponder {}", best.mv, reply.mv)
    );
    assert!(lines[0].ends_with("string book"), "{lines:?}");

    // A book move that is not legal where it stands is passed over: the
    // position is searched, and the GUI and the log are told why.
    let illegal = dir.path().join("illegal.book");
    std::fs::write(
        &illegal,
        format!("plyd-book 1 othello\n{START}\ta1 500 12\n"),
    )
    .unwrap();
    e.send(&format!(
        "setoption name BookFile value {}",
        illegal.display()
    ));
    e.sync();
    e.send("position startpos");
    let (lines, from_book) = go(&mut e, "position startpos", 2);
    assert!(!from_book);
    assert!(
        lines[0].starts_with("info string error: book move 'a1' is not legal in "),
        "{lines:?}"
    );
    let log = e.stderr_lines().join("\n");
    assert!(log.contains("book move 'a1' is not legal in"), "{log}");

    // Beside a legal one, the illegal move is passed over and the best
    // legal one played.
    std::fs::write(
        &illegal,
        format!("plyd-book 1 othello\n{START}\ta1 900 12\tc4 100 12\td3 200 12\n"),
    )
    .unwrap();
    e.send(&format!(
        "setoption name BookFile value {}",
        illegal.display()
    ));
    e.sync();
    let (lines, from_book) = go(&mut e, "position startpos", 2);
    assert!(from_book, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: book move 'a1' is not legal in ")
            && lines[0].ends_with(": passed over"),
        "{lines:?}"
    );
    assert!(
        lines.last().unwrap().starts_with("bestmove d3"),
        "{lines:?}"
    );
}

/// `plyd book --line`: every position along the line typed in is added
/// with all its moves, and the book grows from where it ends, so the line
/// is reached from the start; an illegal move in it is refused before any
/// search.
#[test]
fn a_line_typed_in_is_added_from_the_start() {
    let dir = othello_dir();
    let file = dir.path().join("line.book");
    let book = build(
        dir.path(),
        &file,
        &["--line", "f5 f6 e6 f4", "--plies", "1", "--depth", "1"],
    );
    // The start, the three positions along the line, and its end.
    assert_eq!(book.len(), 5, "{}", book.write());
    assert!(book
        .moves(START)
        .is_some_and(|m| m.iter().any(|m| m.mv == "f5")));
    assert_sound(&book);
    let mut e = engine_with_book(dir.path(), &file, true);
    e.send("position startpos moves f5 f6 e6 f4");
    e.send("book");
    let lines = e.sync();
    assert!(lines[0].starts_with("info string book: "), "{lines:?}");
    assert!(!lines[0].contains("not in the book"), "{lines:?}");
    // Refused before any search, the file as it was.
    let before = std::fs::read_to_string(&file).unwrap();
    let run = run_plyd(
        dir.path(),
        &["book", "--out", file.to_str().unwrap(), "--line", "f5 a1"],
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("--line: move 2 ('a1'): illegal move 'a1'"),
        "{run:?}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
}

/// A book names the evaluator that scored it, and is not extended by
/// another, whose scores are in another scale.
#[test]
fn a_book_is_extended_only_by_the_evaluator_that_scored_it() {
    let dir = othello_dir();
    let file = dir.path().join("scored.book");
    let book = build(dir.path(), &file, &["--plies", "1", "--depth", "1"]);
    assert_eq!(book.scored_by(), Some("patterns"));
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("\n# scored by evaluator patterns\n"));
    let before = std::fs::read_to_string(&file).unwrap();
    let run = run_plyd(
        dir.path(),
        &[
            "--evaluator",
            "seed004",
            "book",
            "--out",
            file.to_str().unwrap(),
            "--plies",
            "2",
            "--depth",
            "1",
        ],
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    assert!(
        String::from_utf8_lossy(&run.stderr)
            .contains("the book was scored by evaluator patterns; extending it with seed004"),
        "{run:?}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    // The same evaluator extends it.
    let wider = build(dir.path(), &file, &["--plies", "2", "--depth", "1"]);
    assert!(wider.len() > book.len());
    // A book of no scorer (written before it was kept) takes the first.
    let old = dir.path().join("old.book");
    std::fs::write(&old, format!("plyd-book 1 othello\n{START}\td3 10 1\n")).unwrap();
    let taken = build(dir.path(), &old, &["--plies", "1", "--depth", "1"]);
    assert_eq!(taken.scored_by(), Some("patterns"));
}

/// `book` lists the book's moves at the current position, best first,
/// with their scores and depths; or says the position is not there.
#[test]
fn the_book_command_shows_the_positions_moves() {
    let dir = othello_dir();
    let file = dir.path().join("shown.book");
    std::fs::write(
        &file,
        format!("plyd-book 1 othello\n{START}\td3 10 8\tc4 30 8\tf5 -5 6\n"),
    )
    .unwrap();
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send("book");
    let lines = e.sync();
    assert_eq!(
        lines,
        ["info string error: book: no book is in use (setoption name BookFile value FILE)"]
    );
    e.send(&format!("setoption name BookFile value {}", file.display()));
    e.sync();
    e.send("position startpos");
    e.send("book");
    assert_eq!(
        e.sync(),
        ["info string book: c4 30 depth 8, d3 10 depth 8, f5 -5 depth 6"]
    );
    e.send("position startpos moves f5");
    e.send("book");
    assert_eq!(
        e.sync(),
        ["info string book: this position is not in the book (1 position of othello)"]
    );
}

/// A book whose last line has no line end (cut short in a copy) is read,
/// and its line says so; one that ends whole does not.
#[test]
fn a_book_cut_short_is_said_so() {
    let dir = othello_dir();
    let cut = dir.path().join("cut.book");
    std::fs::write(&cut, format!("plyd-book 1 othello\n{START}\td3 183 6")).unwrap();
    let whole = dir.path().join("whole.book");
    std::fs::write(&whole, format!("plyd-book 1 othello\n{START}\td3 183 6\n")).unwrap();
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for (file, said) in [(&cut, true), (&whole, false)] {
        e.send(&format!("setoption name BookFile value {}", file.display()));
        let lines = e.sync();
        assert!(
            lines[0].starts_with("info string book ")
                && lines[0].contains("1 position of othello")
                && lines[0].contains("its last line has no line end") == said,
            "{lines:?}"
        );
    }
}

/// The book's moves within `Variety` of the best are drawn among, as the
/// search's root moves are; without it, the first of the best is played.
#[test]
fn variety_draws_among_the_book_moves_within_it() {
    let dir = othello_dir();
    let file = dir.path().join("equal.book");
    std::fs::write(
        &file,
        format!("plyd-book 1 othello\n{START}\td3 10 8\tc4 10 8\tf5 10 8\te6 0 8\n"),
    )
    .unwrap();
    let mut e = engine_with_book(dir.path(), &file, true);
    let mut played = std::collections::BTreeSet::new();
    for seed in 1..=12 {
        e.send(&format!("setoption name VarietySeed value {seed}"));
        e.send("setoption name Variety value 5");
        let (lines, from_book) = go(&mut e, "position startpos", 2);
        assert!(from_book, "{lines:?}");
        played.insert(
            lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string(),
        );
    }
    // The three best, never the one 10 below them.
    assert!(played.len() > 1, "{played:?}");
    assert!(!played.contains("e6"), "{played:?}");
    e.send("setoption name Variety value 0");
    let (lines, _) = go(&mut e, "position startpos", 2);
    assert!(
        lines.last().unwrap().starts_with("bestmove d3"),
        "{lines:?}"
    );
}

#[test]
fn without_own_book_or_for_another_game_the_book_is_not_played() {
    let dir = othello_dir();
    let file = dir.path().join("othello.book");
    build(dir.path(), &file, &["--plies", "1", "--depth", "2"]);
    let mut e = engine_with_book(dir.path(), &file, false);
    assert!(!go(&mut e, "position startpos", 2).1);

    let other = dir.path().join("amazons.book");
    std::fs::write(&other, format!("plyd-book 1 amazons\n{START}\tf5 1 1\n")).unwrap();
    let mut e = engine_with_book(dir.path(), &other, true);
    assert!(!go(&mut e, "position startpos", 2).1);
}

#[test]
fn nboard_learn_adds_the_game_to_the_configured_book() {
    let dir = othello_dir();
    let work = TempDir::new("learn");
    // The book file is not there yet: learning starts it.
    let file = work.path().join("learned.book");
    // An NBoard daemon with the configuration `text`, written to `name`.
    let nboard_with = |name: &str, text: &str| {
        let config = work.path().join(name);
        std::fs::write(&config, text).unwrap();
        let config = config.display().to_string();
        Engine::start(
            dir.path(),
            &["--config", &config, "--protocol", "nboard"],
            &[],
        )
    };
    let mut e = nboard_with("plyd.toml", "book = \"learned.book\"\nown_book = true\n");
    e.send("nboard 2");
    e.send("set depth 3");
    e.send(
        "set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]\
         BO[8 ---------------------------O*------*O--------------------------- *]\
         B[F5]W[F6]B[E6]W[F4];)",
    );
    // The `ping` right behind `learn` waits for it (a search would be
    // dropped): `learned` comes first, and the learning is whole.
    e.send("learn");
    e.send("ping 1");
    let lines = e.read_until(|l| l == "pong 1");
    // The one error line: the book is new (told after the first line).
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(
        errors[0].ends_with(
            "learned.book: no such file: an empty book of othello, which NBoard's learn writes"
        ),
        "{lines:?}"
    );
    assert_eq!(lines[lines.len() - 2..], ["learned", "pong 1"], "{lines:?}");
    let book = Book::load(&file).unwrap();
    // The four positions the moves were played from, the scores carried
    // back along the game: f5 takes the best of the position after it.
    assert_eq!(book.len(), 4, "{}", book.write());
    let after_f5 = book.best("8/8/8/3OX3/3XXX2/8/8/8 w").expect("after f5");
    let f5 = book
        .moves(START)
        .unwrap()
        .iter()
        .find(|m| m.mv == "f5")
        .unwrap();
    assert_eq!(f5.score, -after_f5.score, "{}", book.write());
    // The book is in use at once: `go` at the start answers from it.
    let best = book.best(START).unwrap().mv.to_uppercase();
    e.send("set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    e.send("go");
    let lines = e.read_until(|l| l.starts_with("==="));
    assert!(
        lines.last().unwrap().starts_with(&format!("=== {best}")),
        "{lines:?}"
    );

    // A `learn` with nothing to learn says why and answers all the same.
    let learn_says = |mut e: Engine, said: &str| {
        e.send("nboard 2");
        e.send("learn");
        let lines = e.read_until(|l| l == "learned");
        assert!(lines.iter().any(|l| l.contains(said)), "{lines:?}");
    };
    // No game set yet: nothing to learn, and no book written.
    let fresh = work.path().join("fresh.book");
    learn_says(
        nboard_with("fresh.toml", "book = \"fresh.book\"\n"),
        "learn: the game has no moves to learn",
    );
    assert!(!fresh.exists());
    // Without a book file.
    learn_says(
        Engine::start(dir.path(), &["--protocol", "nboard"], &[]),
        "no book is in use (no BookFile is set",
    );
}

#[test]
fn the_shipped_othello_book_is_sound() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/othello/othello.book");
    let book = Book::load(&path).expect("the shipped book reads");
    assert_eq!(book.game(), "othello");
    assert!(book.len() > 1000, "{} positions", book.len());
    // Every move legal, and the scores carried back along every line.
    assert!(assert_sound(&book) > 1000);
    // Round trip: the file is what the book writes.
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(book.write(), text);
}

/// A daemon speaking NBoard with `config`, at depth 2.
/// A `ping` waits for `learn`; a learning of no end in sight (NBoard's
/// depth has no bound) gave way neither to `quit` nor to the end of the
/// input, and only a signal ended the daemon. Now either stops it.
#[test]
fn a_ping_waiting_on_a_long_learn_gives_way_to_quit_or_the_end_of_input() {
    let dir = othello_dir();
    let work = TempDir::new("learn-quit");
    let config = work.path().join("plyd.toml");
    std::fs::write(&config, "book = \"long.book\"\nown_book = true\n").unwrap();
    let config = config.display().to_string();
    for ending in ["quit", "end of input"] {
        let mut e = Engine::start(
            dir.path(),
            &["--config", &config, "--protocol", "nboard"],
            &[],
        );
        e.send("nboard 2");
        e.send("set depth 99999999");
        e.send(
            "set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[15:00]TY[8]\
             BO[8 ---------------------------O*------*O--------------------------- *]\
             B[F5]W[D6];)",
        );
        e.send("learn");
        e.send("ping 1");
        std::thread::sleep(Duration::from_millis(500));
        if ending == "quit" {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let lines = e.read_until(|l| l == "pong 1");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("learn: stopped before it was done")),
            "{ending}: {lines:?}"
        );
        assert_eq!(lines[lines.len() - 2..], ["learned", "pong 1"], "{lines:?}");
        assert!(
            e.wait_exit(Duration::from_secs(20)).is_some(),
            "{ending}: the daemon did not end"
        );
    }
}

/// A book whose `BookFile` the configuration fixes is not written by
/// `learn`: what the file holds is fixed with its name.
#[test]
fn learn_does_not_write_a_book_the_configuration_fixes() {
    let dir = othello_dir();
    let work = TempDir::new("learn-fixed");
    let config = work.path().join("plyd.toml");
    std::fs::write(
        &config,
        "book = \"fixed.book\"\nown_book = true\nfixed_options = [\"files\"]\n",
    )
    .unwrap();
    let config = config.display().to_string();
    let mut e = Engine::start(
        dir.path(),
        &["--config", &config, "--protocol", "nboard"],
        &[],
    );
    e.send("nboard 2");
    e.send("set depth 2");
    e.send(
        "set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]\
         BO[8 ---------------------------O*------*O--------------------------- *]\
         B[F5]W[F6];)",
    );
    e.send("learn");
    e.send("ping 1");
    let lines = e.read_until(|l| l == "pong 1");
    assert!(
        lines.iter().any(|l| l
            .contains("learn: the book is not written: BookFile is fixed by the configuration")),
        "{lines:?}"
    );
    assert_eq!(lines[lines.len() - 2..], ["learned", "pong 1"], "{lines:?}");
    assert!(!work.path().join("fixed.book").exists());
}

fn learner(plugins: &Path, config: &Path) -> Engine {
    let config = config.display().to_string();
    let mut e = Engine::start(plugins, &["--config", &config, "--protocol", "nboard"], &[]);
    e.send("nboard 2");
    e.send("set depth 2");
    e
}

/// Have `e` learn the game of `moves` (GGF), and read through `learned`.
fn learn_game(e: &mut Engine, moves: &str) -> Vec<String> {
    e.send(&format!(
        "set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]\
         BO[8 ---------------------------O*------*O--------------------------- *]{moves};)"
    ));
    e.send("learn");
    e.send("ping 7");
    e.read_until(|l| l == "pong 7")
}

#[test]
fn daemons_learning_into_one_book_keep_each_others_games() {
    let dir = othello_dir();
    let work = TempDir::new("shared-book");
    let file = work.path().join("shared.book");
    std::fs::write(&file, "plyd-book 1 othello\n").unwrap();
    let config = work.path().join("plyd.toml");
    std::fs::write(&config, "book = \"shared.book\"\nown_book = true\n").unwrap();
    // Both read the book at start; B learns first, then A: A's save must
    // keep B's positions.
    let mut a = learner(dir.path(), &config);
    let mut b = learner(dir.path(), &config);
    learn_game(&mut b, "B[F5]W[F6]B[E6]W[F4]");
    let after_b = Book::load(&file).unwrap();
    learn_game(&mut a, "B[D3]W[C3]B[C4]W[C5]");
    let both = Book::load(&file).unwrap();
    assert!(after_b.len() >= 4, "{}", after_b.write());
    for position in ["8/8/8/3OX3/3XXX2/8/8/8 w", "8/8/3X4/3XX3/3XO3/8/8/8 w"] {
        assert!(
            both.moves(position).is_some(),
            "{position}: {}",
            both.write()
        );
    }
    assert!(!work.path().join("shared.book.lock").exists());
}

#[cfg(unix)]
#[test]
fn learning_writes_through_a_link_and_refuses_a_read_only_book() {
    use std::os::unix::fs::PermissionsExt;
    let dir = othello_dir();
    let work = TempDir::new("book-link");
    let real = work.path().join("real.book");
    std::fs::write(&real, "plyd-book 1 othello\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = work.path().join("link.book");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let config = work.path().join("plyd.toml");
    std::fs::write(&config, "book = \"link.book\"\nown_book = true\n").unwrap();
    let mut e = learner(dir.path(), &config);
    learn_game(&mut e, "B[F5]W[F6]");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(Book::load(&real).unwrap().len() >= 2);
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    // Read-only: refused with one line, the file as it was, and before
    // any search (at depth 40, one would outlast the test's wait).
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o440)).unwrap();
    let before = std::fs::read_to_string(&real).unwrap();
    e.send("set depth 40");
    let asked = std::time::Instant::now();
    let lines = learn_game(&mut e, "B[D3]W[C3]");
    assert!(
        asked.elapsed() < std::time::Duration::from_secs(20),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("cannot be written: the file is read-only")),
        "{lines:?}"
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), before);
}

/// EinStein after both set-ups, Red to roll.
const EINSTEIN_ROLL: &str = "123../45.../6...f/...ed/..cba r s123456 s123456";

#[test]
fn an_einstein_book_holds_no_roll_and_scores_a_roll_by_its_mean() {
    let dir = common::plugin_dir(&[("plyd_game_einstein", "einstein")]);
    let file = dir.path().join("einstein.book");
    let book = build(
        dir.path(),
        &file,
        &[
            "--game",
            "einstein",
            "--fen",
            EINSTEIN_ROLL,
            "--plies",
            "4",
            "--depth",
            "1",
            "--margin",
            "100000",
        ],
    );
    let mut host = plyd::host::PluginHost::default();
    let einstein = host
        .load_file(&common::built_library("plyd_game_einstein"))
        .expect("einstein loads");
    let mut state = plyd::host::GameState::new(&einstein, 0).unwrap();
    let text = book.write();
    let mut means = 0;
    for line in positions(&text) {
        let position = line.split('\t').next().unwrap();
        state.set_position(position).unwrap();
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes).unwrap();
        assert!(outcomes.is_empty(), "a roll in the book: {line}");
        let side = state.side_to_move().unwrap();
        for m in book.moves(position).unwrap() {
            assert!(!m.mv.starts_with('r'), "{line}");
            let mv = state.parse_legal_move(&m.mv).unwrap();
            state.make_move(mv).unwrap();
            // The move leads to a roll: its score is the rolls' mean where
            // the book holds every position after them.
            state.chance_outcomes(&mut outcomes).unwrap();
            let mut values = Vec::new();
            for &(roll, _) in &outcomes {
                state.make_move(roll).unwrap();
                let after = state.position_text().unwrap();
                let mover = state.side_to_move().unwrap();
                if let Some(best) = book.best(&after) {
                    values.push(if mover == side {
                        best.score
                    } else {
                        -best.score
                    });
                }
                state.unmake_move(roll).unwrap();
            }
            state.unmake_move(mv).unwrap();
            if !outcomes.is_empty() && values.len() == outcomes.len() {
                // EinStein's rolls are equally likely.
                let mean = values.iter().sum::<i32>() as f64 / values.len() as f64;
                assert_eq!(m.score, mean.round() as i32, "{line}: {values:?}");
                means += 1;
            }
        }
    }
    assert!(means > 0, "no move carried its rolls' mean: {text}");
    // The daemon answers a roll with no move, book or not, and names no
    // roll as the move to ponder on.
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("setoption name UCI_Variant value einstein");
    e.send(&format!("setoption name BookFile value {}", file.display()));
    e.send("setoption name OwnBook value true");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send(&format!("position fen {EINSTEIN_ROLL}"));
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    e.send(&format!("position fen {EINSTEIN_ROLL} r1"));
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(
        lines.iter().any(|l| l.ends_with("string book")),
        "{lines:?}"
    );
    let best = lines.last().unwrap();
    assert!(!best.contains("ponder"), "{lines:?}");
    e.send("quit");
}

#[test]
fn a_book_move_is_written_in_the_notation_set() {
    let dir = common::plugin_dir(&[("plyd_game_amazons", "amazons")]);
    let file = dir.path().join("amazons8.book");
    let book = build(
        dir.path(),
        &file,
        &["--game", "amazons8", "--plies", "1", "--depth", "1"],
    );
    let start = book.write();
    let first = positions(&start).next().unwrap();
    let position = first.split('\t').next().unwrap().to_string();
    let best = book.best(&position).unwrap().mv.clone();
    assert!(!best.contains(','), "{best}");
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("setoption name UCI_Variant value amazons8");
    e.send(&format!("setoption name BookFile value {}", file.display()));
    e.send("setoption name OwnBook value true");
    e.send("setoption name MoveNotation value d1d7,d7g7");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send(&format!("position fen {position}"));
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let two_part = format!("{},{}{}", &best[..4], &best[2..4], &best[4..]);
    assert_eq!(
        lines.last().unwrap(),
        &format!("bestmove {two_part}"),
        "{lines:?}"
    );
    let info = lines.iter().find(|l| l.ends_with("string book")).unwrap();
    assert!(info.contains(&format!("pv {two_part}")), "{info}");
    e.send("quit");
}

/// A book whose header names no loaded game is kept, not played, and
/// said so (it loaded as `0 positions of othelo`, nothing more).
#[test]
fn a_book_of_a_game_not_loaded_is_said_so() {
    let dir = othello_dir();
    let work = TempDir::new("book-unknown-game");
    let typo = work.path().join("typo.book");
    std::fs::write(&typo, "plyd-book 1 othelo\n").unwrap();
    let right = work.path().join("right.book");
    std::fs::write(&right, "plyd-book 1 othello\n").unwrap();
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send(&format!("setoption name BookFile value {}", typo.display()));
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l
            .ends_with("0 positions of othelo (no game of that name is loaded: kept, not played)")),
        "{lines:?}"
    );
    e.send(&format!(
        "setoption name BookFile value {}",
        right.display()
    ));
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.ends_with("0 positions of othello")),
        "{lines:?}"
    );
}

/// A config file's book not there yet, of a game NBoard does not play:
/// the line names what writes it (it named NBoard's `learn`).
#[test]
fn a_new_configured_book_of_another_game_names_what_writes_it() {
    let dir = common::plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let config = dir.path().join("plyd.toml");
    std::fs::write(
        &config,
        "game = \"xiangqi\"\nbook = \"xq.book\"\nown_book = true\n",
    )
    .unwrap();
    let config = config.display().to_string();
    let mut e = Engine::start(dir.path(), &["--config", &config], &[]);
    e.send("uci");
    let lines = [e.read_until(|l| l == "uciok"), e.sync()].concat();
    let errors = errors(&lines);
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(
        errors[0].ends_with(
            "xq.book: no such file: an empty book of xiangqi, which plyd book --game xiangqi \
             --out FILE writes"
        ),
        "{lines:?}"
    );
}

#[test]
fn a_xiangqi_book_is_refused_under_the_other_move_ranks() {
    // Ranks 0-9 and 1-10 read the same text as different moves: the book
    // keeps the start's moves as it spelled them, and a game that reads
    // them otherwise does not play from it.
    let dir = common::plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let file = dir.path().join("xiangqi.book");
    let book = build(
        dir.path(),
        &file,
        &["--game", "xiangqi", "--plies", "1", "--depth", "1"],
    );
    assert!(
        book.write()
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("# start moves as spelled: a0a1 ")),
        "{}",
        book.write()
    );
    let play = |ranks: &str| {
        let mut e = Engine::start(dir.path(), &[], &[]);
        e.send("setoption name UCI_Variant value xiangqi");
        e.send(&format!("setoption name BookFile value {}", file.display()));
        e.send("setoption name OwnBook value true");
        e.send(&format!("setoption name MoveRanks value {ranks}"));
        let lines = e.sync();
        assert!(errors(&lines).is_empty(), "{lines:?}");
        e.send("position startpos");
        e.send("go depth 2");
        let lines = e.until_bestmove();
        e.send("quit");
        lines
    };
    let same = play("0-9");
    assert!(same.iter().any(|l| l.ends_with("string book")), "{same:?}");
    assert!(errors(&same).is_empty(), "{same:?}");
    let other = play("1-10");
    assert!(
        !other.iter().any(|l| l.ends_with("string book")),
        "{other:?}"
    );
    let told = errors(&other);
    assert_eq!(told.len(), 1, "{other:?}");
    assert!(told[0].contains("another move notation"), "{other:?}");
    // Nor is it extended in the other notation.
    let out = file.display().to_string();
    let run = run_plyd(
        dir.path(),
        &[
            "book",
            "--game",
            "xiangqi",
            "--out",
            &out,
            "--plies",
            "2",
            "--depth",
            "1",
            "--option",
            "MoveRanks=1-10",
        ],
    );
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("another move notation"), "{stderr}");
    assert_eq!(Book::load(&file).unwrap(), book);
}

/// A book's positions and moves the game does not read are counted as the
/// book opens, the first named; the others are played.
#[test]
fn a_books_unreadable_lines_are_counted_as_it_opens() {
    let dir = othello_dir();
    let work = TempDir::new("book-unreadable");
    let file = work.path().join("some.book");
    std::fs::write(
        &file,
        "plyd-book 1 othello\n\
         8/8/8/3OX3/3XO3/8/8/8 b\tf5 1 4\te6 0 4\n\
         8/8/8/3OX3/3XXX2/8/8/8 w\td6 1 4\tz9 0 4\n\
         8/8/8/3OX3/3XO3/8/8/8 q\tf5 1 4\n",
    )
    .unwrap();
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send(&format!("setoption name BookFile value {}", file.display()));
    e.send("setoption name OwnBook value true");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.contains(
            "3 positions of othello; 2 positions the game does not read as written, never \
             played (the first, '8/8/8/3OX3/3XO3/8/8/8 q': "
        )),
        "{lines:?}"
    );
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(
        lines.iter().any(|l| l.ends_with("string book")),
        "{lines:?}"
    );
    assert!(
        lines.last().unwrap().starts_with("bestmove f5"),
        "{lines:?}"
    );
    e.send("quit");
}

/// A xiangqi position sent with other move counters than the book's (a
/// GUI that sends the position after the last capture as a new start) is
/// the book's position: found by the game's hash where its text misses.
#[test]
fn a_book_position_sent_with_other_counters_is_played_from_the_book() {
    let dir = common::plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let file = dir.path().join("xiangqi.book");
    let book = build(
        dir.path(),
        &file,
        &["--game", "xiangqi", "--plies", "2", "--depth", "1"],
    );
    // A position after Red's first move, as the book writes it, and the
    // move the book gives there.
    let written = book.write();
    let line = positions(&written)
        .find(|l| l.contains(" b - - ") && l.split('\t').next().unwrap().ends_with(" 1"))
        .expect("a position after one move")
        .to_string();
    let position = line.split('\t').next().unwrap().to_string();
    let best = book.best(&position).unwrap().mv.clone();
    let mut fields: Vec<&str> = position.split(' ').collect();
    let n = fields.len();
    fields[n - 2] = "0";
    fields[n - 1] = "7";
    let resent = fields.join(" ");
    assert!(book.moves(&resent).is_none(), "{resent}");
    let mut e = Engine::start(dir.path(), &[], &[]);
    e.send("setoption name UCI_Variant value xiangqi");
    e.send(&format!("setoption name BookFile value {}", file.display()));
    e.send("setoption name OwnBook value true");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send(&format!("position fen {resent}"));
    e.send("go depth 3");
    let lines = e.until_bestmove();
    assert!(
        lines.iter().any(|l| l.ends_with("string book")),
        "{lines:?}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with(&format!("bestmove {best}")),
        "{lines:?}"
    );
    // A board the book lacks is still searched.
    e.send(&format!("position fen {resent} moves {best}"));
    e.send("go depth 2");
    let lines = e.until_bestmove();
    assert!(
        !lines.iter().any(|l| l.ends_with("string book")),
        "{lines:?}"
    );
    e.send("quit");
}

/// A book named by a link to a file not made yet is written to that file,
/// the link kept, and nothing is left beside it (the check that it can
/// be written made the link's file empty, then removed the link).
#[test]
#[cfg(unix)]
fn plyd_book_writes_through_a_dangling_link_and_past_planted_names() {
    let dir = othello_dir();
    let work = TempDir::new("book-dangling");
    let real = work.path().join("real.book");
    let link = work.path().join("link.book");
    std::os::unix::fs::symlink("real.book", &link).unwrap();
    let book = build(dir.path(), &link, &["--plies", "1", "--depth", "1"]);
    assert!(!book.is_empty());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(real.is_file());
    // Nothing left beside it.
    let names: Vec<String> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// A book the memory left cannot hold once read (about eight times its
/// file) is refused with one line before it is read, under an
/// address-space limit as a judge sets: reading it ended the process.
#[test]
#[cfg(target_os = "linux")]
fn a_book_the_memory_cannot_hold_is_refused_before_it_is_read() {
    let plugins = othello_dir();
    let dir = TempDir::new("book-too-large");
    let book = dir.path().join("large.book");
    let file = std::fs::File::create(&book).unwrap();
    // Sparse: 40 MiB that take no disk.
    file.set_len(40 << 20).unwrap();
    let mut e = Engine::start_capped(plugins.path(), &[], 192 << 20);
    e.send(&format!("setoption name BookFile value {}", book.display()));
    let told = e.sync();
    let refused = errors(&told);
    assert_eq!(refused.len(), 1, "{told:?}");
    assert!(
        refused[0].contains("cannot be read: its 40 MiB take about 320 MiB once read, more than"),
        "{told:?}"
    );
    e.send("position startpos");
    e.send("go depth 2");
    assert_ne!(e.until_bestmove().last().unwrap(), "bestmove (none)");
}
