//! Community records end to end: `plyd arena --record` writes each game as
//! the Chinese championship (Amazons, EinStein), GGF (Othello) or PGN
//! (xiangqi) keeps it,
//! and `plyd record` reads the file back into the `position` lines that
//! the arena's own log holds for the same games.

use std::path::Path;

use crate::common::{output_with_input, plugin_dir, plyd_bin, plyd_command, run_plyd, TempDir};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `position` lines of the arena's own log.
fn logged_positions(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("the game log")
        .lines()
        .filter(|l| l.starts_with("position "))
        .map(str::to_string)
        .collect()
}

/// `plyd record` of a file `name` holding `body`, with only the plugin
/// of `crate_name` (game `plugin_game`) loaded.
fn record_of(
    crate_name: &str,
    plugin_game: &str,
    name: &str,
    body: impl AsRef<[u8]>,
) -> std::process::Output {
    record_with(crate_name, plugin_game, name, body, &[])
}

/// [`record_of`] with `args` after `record` (`--to positions`, ...).
fn record_with(
    crate_name: &str,
    plugin_game: &str,
    name: &str,
    body: impl AsRef<[u8]>,
    args: &[&str],
) -> std::process::Output {
    let plugins = plugin_dir(&[(crate_name, plugin_game)]);
    let dir = TempDir::new("records-file");
    let file = dir.path().join(name);
    std::fs::write(&file, body).unwrap();
    let args = [&["record"][..], args, &[file.to_str().unwrap()]].concat();
    run_plyd(plugins.path(), &args)
}

/// Play two games of `game` and check that the records read back.
fn round_trip(crate_name: &str, plugin_game: &str, game: &str, header: &str) -> String {
    round_trip_to(crate_name, plugin_game, game, header, "records.txt")
}

/// [`round_trip`] with the records in a file named `file`.
fn round_trip_to(
    crate_name: &str,
    plugin_game: &str,
    game: &str,
    header: &str,
    file: &str,
) -> String {
    let plugins = plugin_dir(&[(crate_name, plugin_game)]);
    let dir = TempDir::new("records");
    let log = dir.path().join("log.txt");
    let records = dir.path().join(file);
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = run_plyd(
        plugins.path(),
        &[
            "arena",
            "--game",
            game,
            "--engine",
            &plyd,
            "name=a",
            "--engine",
            &plyd,
            "name=b",
            "--depth",
            "1",
            "--games",
            "2",
            "--seed",
            "11",
            "--out",
            log.to_str().unwrap(),
            "--record",
            records.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&records).unwrap();
    assert_eq!(written.matches(header).count(), 2, "{written}");
    let read = run_plyd(
        plugins.path(),
        &["--game", game, "record", records.to_str().unwrap()],
    );
    assert!(read.status.success(), "{}", text(&read.stderr));
    let replayed: Vec<String> = text(&read.stdout).lines().map(str::to_string).collect();
    assert_eq!(replayed, logged_positions(&log), "{written}");
    written
}

#[test]
fn amazons_games_read_back_from_ccgc_records() {
    let written = round_trip("plyd_game_amazons", "amazons", "amazons", "#[AM][");
    assert!(written.contains("#[AM][a][b][") && written.contains("#[AM][b][a]["));
    // Moves are written from-to(arrow), two a line after the move number.
    let second = written.lines().nth(1).unwrap();
    let words: Vec<&str> = second.split(' ').collect();
    assert_eq!(words[0], "1", "{second}");
    assert!(
        words[1].ends_with(')') && words[1].contains('('),
        "{second}"
    );
}

#[test]
fn einstein_games_read_back_from_ccgc_records() {
    let written = round_trip("plyd_game_einstein", "einstein", "einstein", "#[WTN][");
    assert!(written.contains("#[WTN][a R][b B][") && written.contains("#[WTN][b R][a B]["));
    assert!(written
        .lines()
        .any(|l| l.starts_with("R:") && l.matches(';').count() == 5));
    assert!(written.lines().any(|l| l.starts_with("B:")));
    assert!(written
        .lines()
        .any(|l| l.starts_with("1:") && l.contains(";(")));
}

#[test]
fn othello_games_read_back_from_ggf() {
    let written = round_trip("plyd_game_othello", "othello", "othello", "(;GM[Othello]");
    assert!(written.contains("PB[a]PW[b]") || written.contains("PB[b]PW[a]"));
    // Games the rules ended: Black's margin, even (the empty squares are
    // the winner's), a number as GGS writes it.
    for re in written.split("RE[").skip(1) {
        let margin = re.split(']').next().unwrap();
        let discs: i32 = margin
            .strip_suffix(".000")
            .and_then(|m| m.parse().ok())
            .unwrap_or_else(|| panic!("RE[{margin}] is not a margin: {written}"));
        assert!(discs % 2 == 0 && discs.abs() <= 64, "{written}");
    }
    // The same games with their results left out (`RE[?]`): a conversion
    // writes the result the rules gave, the margin too.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let dir = TempDir::new("records-unknown");
    let blank = dir.path().join("blank.ggf");
    let results: Vec<&str> = written
        .split("RE[")
        .skip(1)
        .map(|re| re.split(']').next().unwrap())
        .collect();
    let mut unknown = written.clone();
    for re in &results {
        unknown = unknown.replacen(&format!("RE[{re}]"), "RE[?]", 1);
    }
    std::fs::write(&blank, &unknown).unwrap();
    let out = run_plyd(
        plugins.path(),
        &["record", "--to", "ggf", blank.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let again: Vec<String> = text(&out.stdout)
        .split("RE[")
        .skip(1)
        .map(|re| re.split(']').next().unwrap().to_string())
        .collect();
    assert_eq!(again, results, "{}", text(&out.stdout));
}

#[test]
fn othello_games_read_back_from_sgf() {
    let written = round_trip_to(
        "plyd_game_othello",
        "othello",
        "othello",
        "(;GM[2]FF[4]SZ[8]",
        "records.sgf",
    );
    // Black's first move is one of f5, d3, c4, e6: column and row letters.
    assert!(
        [";B[fe]", ";B[dc]", ";B[cd]", ";B[ef]"]
            .iter()
            .any(|m| written.contains(m)),
        "{written}"
    );
}

#[test]
fn a_record_that_does_not_replay_is_refused_with_its_move() {
    let plugins = plugin_dir(&[("plyd_game_einstein", "einstein")]);
    let dir = TempDir::new("records-bad");
    let file = dir.path().join("bad.txt");
    for (turn, named) in [
        // Red's stone 1 on a5 cannot step to e1 in one turn: named as it
        // is read.
        ("1:1;(R1,E1)", "R1 cannot step from a5 to e1"),
        // A step the board allows but the die does not (a 2 moves stone
        // 2, which is there): named by the replay.
        ("1:2;(R1,B5)", "a5b5"),
    ] {
        std::fs::write(
            &file,
            format!(
                "#[WTN][x R][y B][先手胜][2026.11.23 here][test];\n\
                 R:A5-1;B5-2;C5-3;A4-4;B4-5;A3-6\n\
                 B:E1-1;D1-2;C1-3;E2-4;D2-5;E3-6\n\
                 {turn}\n"
            ),
        )
        .unwrap();
        let out = run_plyd(plugins.path(), &["record", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{turn}");
        let err = text(&out.stderr);
        assert!(err.contains(named), "{turn}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn an_arena_log_is_told_apart_from_a_record() {
    // The arena's own log (--out) is no record: one line says where its
    // records come from.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let dir = TempDir::new("records-arena-log");
    let file = dir.path().join("games.txt");
    std::fs::write(
        &file,
        "[Arena \"plyd arena game log 2\"]\n[Variant \"othello\"]\n\n[Game \"1\"]\n\
         position startpos moves f5 d6\n\n",
    )
    .unwrap();
    let out = run_plyd(plugins.path(), &["record", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("a plyd arena game log (--out), not a game record: the arena writes its games as records with --record FILE"),
        "{err}"
    );
    assert!(err.contains("--to positions reads it"), "{err}");
    assert!(out.stdout.is_empty());
    // A record's games as rows a ply: no scores, the result from the
    // side to move's view (a transcript's game has none known here).
    let transcript = dir.path().join("t.txt");
    std::fs::write(&transcript, "f5d6c3d3c4\n").unwrap();
    let out = run_plyd(
        plugins.path(),
        &["record", "--to", "positions", transcript.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = text(&out.stdout);
    let rows: Vec<&str> = rows.lines().collect();
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert_eq!(rows[1], "1\t0\t8/8/8/3OX3/3XO3/8/8/8 b\tf5\t\t\t");
    assert!(
        rows[5].starts_with("1\t4\t") && rows[5].contains("\tc4\t"),
        "{rows:?}"
    );
}

#[test]
fn the_games_that_replay_are_given_beside_those_that_do_not() {
    // A file saved with a byte-order mark, its second game not one that
    // replays (an archive mixing in other kinds of games): the first and
    // third are given, the second named, and the exit status says so.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let dir = TempDir::new("records-mixed");
    let file = dir.path().join("games.ggf");
    std::fs::write(
        &file,
        "\u{feff}(;GM[Othello]TY[8]B[F5]W[D6];)\n\
         (;GM[Othello]TY[8]B[A1];)\n\
         (;GM[Othello]TY[8]B[F5]W[F6];)\n",
    )
    .unwrap();
    let out = run_plyd(plugins.path(), &["record", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves f5 d6\nposition startpos moves f5 f6\n"
    );
    let err = text(&out.stderr);
    assert!(err.contains("record 2: ply 1 ('a1')"), "{err}");
    assert!(
        !err.contains("record 1") && !err.contains("record 3"),
        "{err}"
    );
}

#[test]
fn a_result_the_rules_contradict_is_refused_and_a_cut_game_is_noted() {
    let written = round_trip("plyd_game_othello", "othello", "othello", "(;GM[Othello]");
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let dir = TempDir::new("records-result");
    let file = dir.path().join("games.txt");
    // The first game with the other side named the winner.
    let first = written.split("(;").nth(1).expect("a game");
    let re = first
        .split("RE[")
        .nth(1)
        .unwrap()
        .split(']')
        .next()
        .unwrap();
    let turned = if re.starts_with('+') && re != "+0.000" {
        "-2.000"
    } else {
        "+2.000"
    };
    let other = first.replace(&format!("RE[{re}]"), &format!("RE[{turned}]"));
    assert_ne!(other, first, "{first}");
    std::fs::write(&file, format!("(;{other}")).unwrap();
    let out = run_plyd(plugins.path(), &["record", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{other}");
    let err = text(&out.stderr);
    assert!(
        err.contains("record 1: its result says") && err.contains("but the rules end the game"),
        "{err}"
    );
    // With the rule that ended it: the discs.
    assert!(err.contains(" discs, "), "{err}");
    assert!(out.stdout.is_empty());
    // Two moves and a result: a resignation, say. Replayed, and the
    // result named as unchecked.
    std::fs::write(&file, "(;GM[Othello]RE[+12.000:r]TY[8]B[F5]W[D6];)\n").unwrap();
    let out = run_plyd(plugins.path(), &["record", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "position startpos moves f5 d6\n");
    let err = text(&out.stderr);
    assert!(
        err.contains("record 1: the game has not ended by the rules after its 2 plies; its result (Black won)"),
        "{err}"
    );
}

#[test]
fn games_on_one_line_from_another_start_and_on_the_smaller_board_are_read() {
    let plugins = plugin_dir(&[
        ("plyd_game_othello", "othello"),
        ("plyd_game_amazons", "amazons"),
    ]);
    let dir = TempDir::new("records-more");
    let file = dir.path().join("games.txt");
    let replay = |body: &str| {
        std::fs::write(&file, body).unwrap();
        run_plyd(plugins.path(), &["record", file.to_str().unwrap()])
    };
    // Three games on one line, the second from the position after f5
    // (White to move, `BO`), as GGS writes a game of a random start.
    let out = replay(
        "(;GM[Othello]RE[?]B[F5]W[D6];)(;GM[Othello]TY[8r]BO[8 ---------------------------O*------***-------------------------- O]W[F4];) (;GM[2];B[fe])\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves f5 d6\n\
         position fen ---------------------------OX------XXX-------------------------- O moves f4\n\
         position startpos moves f5\n"
    );
    // An 8x8 Amazons game (c1 is empty on 10x10) whose second move is
    // blocked: the failure named is the 8x8 board's, at the move that
    // fails there.
    let out = replay("#[AM][a][b][?][x][y];\n1 c1c4(c5) c8c1(c2)\n");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("record 1: ply 2 ('c8c1c2')"), "{err}");
    // A game named for another game's record is said to be that.
    std::fs::write(&file, "(;GM[Othello]B[F5];)\n").unwrap();
    let out = run_plyd(
        plugins.path(),
        &["--game", "amazons", "record", file.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("record 1: a record of othello, not of amazons"),
        "{err}"
    );
}

#[test]
fn xiangqi_games_read_back_from_pgn() {
    let written = round_trip_to(
        "plyd_game_xiangqi",
        "xiangqi",
        "xiangqi",
        "[Game \"Chinese Chess\"]",
        "records.pgn",
    );
    assert!(written.contains("[Format \"ICCS\"]"), "{written}");
    // How each game ended; no clock, no TimeControl.
    assert_eq!(written.matches("[Termination \"").count(), 2, "{written}");
    assert!(!written.contains("TimeControl"), "{written}");
    assert!(
        written.contains("[Red \"a\"]\n[Black \"b\"]")
            && written.contains("[Red \"b\"]\n[Black \"a\"]"),
        "{written}"
    );
    // ICCS moves: `1. H2-E2 ...`, the squares upper-case with a hyphen.
    let first_move = written
        .lines()
        .find(|l| l.starts_with("1. "))
        .and_then(|l| l.split(' ').nth(1))
        .unwrap_or_default();
    assert!(
        first_move.len() == 5 && first_move.as_bytes()[2] == b'-',
        "{written}"
    );
}

#[test]
fn xiangqi_records_in_chinese_and_wxf_notation_replay() {
    // The central cannon against the screen horses in the three
    // notations, and a game from a set position with two cannons and two
    // rooks on one file each (front and rear).
    let fen = "r2k5/9/9/9/r8/4C4/9/4C4/9/4K4 w - - 0 1";
    let games = format!(
        "[Game \"Chinese Chess\"]\n[Format \"Chinese\"]\n[Result \"*\"]\n\n\
         1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 车二进六 卒７进１ *\n\n\
         [Game \"Chinese Chess\"]\n[Format \"WXF\"]\n\n\
         1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 H2+3 4. R2+6 P7+1 *\n\n\
         [Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n\
         1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 4. H0-H6 G6-G5 *\n\n\
         [Game \"Chinese Chess\"]\n[FEN \"{fen}\"]\n\n\
         1. 前炮进一 后车平２ 2. 后炮平四 车１退１ *\n"
    );
    let out = record_of("plyd_game_xiangqi", "xiangqi", "games.pgn", games);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let opening = "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 g6g5";
    assert_eq!(
        text(&out.stdout),
        format!("{opening}\n{opening}\n{opening}\nposition fen {fen} moves e4e5 a9b9 e2f2 a5a6\n")
    );
    // A move the board does not allow is named with the record.
    let out = record_of(
        "plyd_game_xiangqi",
        "xiangqi",
        "games.pgn",
        "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 炮五进五\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("record 1: ply 3 ('炮五进五', e2e7)"), "{err}");
}

#[test]
fn othello_transcripts_replay_with_their_passes() {
    // A game of plyd's self-play whose last moves pass three times, as a
    // transcript leaves the passes out (upper case), and a short one
    // with a space between moves.
    let out = record_of("plyd_game_othello", "othello", "games.txt", "D3C5D6E3F3E2F5F4F1F2G4E6C4F6G3C6G5E1D1C2D2G6B3C3G1H5H6H7B4H4B5H3C7A4A5A6B6H2E7F7F8E8D8C8B7G8B8A8D7C1B1A7B2A3A2A1H1G2G7\n\nf5 d6 c3d3\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves d3 c5 d6 e3 f3 e2 f5 f4 f1 f2 g4 e6 c4 f6 g3 c6 g5 e1 d1 c2 d2 g6 b3 c3 g1 h5 h6 h7 b4 h4 b5 h3 c7 a4 a5 a6 b6 h2 e7 f7 f8 e8 d8 c8 b7 g8 b8 a8 d7 c1 b1 a7 b2 a3 a2 a1 0000 h1 0000 g2 0000 g7\nposition startpos moves f5 d6 c3 d3\n"
    );
}

#[test]
fn xiangqi_records_in_gbk_or_big5_read_as_chinese_software_writes_them() {
    // The same opening in Chinese notation, simplified in GBK and
    // traditional in Big5 (the bytes as Python encodes them).
    let gbk: &[u8] = &[
        91, 71, 97, 109, 101, 32, 34, 67, 104, 105, 110, 101, 115, 101, 32, 67, 104, 101, 115, 115,
        34, 93, 10, 91, 82, 101, 100, 32, 34, 186, 250, 200, 217, 187, 170, 34, 93, 10, 10, 49, 46,
        32, 197, 218, 182, 254, 198, 189, 206, 229, 32, 194, 237, 163, 184, 189, 248, 163, 183, 32,
        50, 46, 32, 194, 237, 182, 254, 189, 248, 200, 253, 32, 179, 181, 163, 185, 198, 189, 163,
        184, 32, 42, 10,
    ];
    let big5: &[u8] = &[
        91, 71, 97, 109, 101, 32, 34, 67, 104, 105, 110, 101, 115, 101, 32, 67, 104, 101, 115, 115,
        34, 93, 10, 91, 82, 101, 100, 32, 34, 173, 74, 186, 97, 181, 216, 34, 93, 10, 10, 49, 46,
        32, 172, 182, 164, 71, 165, 173, 164, 173, 32, 176, 168, 162, 183, 182, 105, 162, 182, 32,
        50, 46, 32, 176, 168, 164, 71, 182, 105, 164, 84, 32, 168, 174, 162, 184, 165, 173, 162,
        183, 32, 42, 10,
    ];
    for (name, bytes) in [("gbk.pgn", gbk), ("big5.pgn", big5)] {
        let out = record_of("plyd_game_xiangqi", "xiangqi", name, bytes);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            "position startpos moves h2e2 h9g7 h0g2 i9h9\n",
            "{name}"
        );
    }
}

/// Two games as xqbase.com exports them, each with its site's footer
/// after the result, in one file: each game reads, the footer is no move.
#[test]
fn xiangqi_games_with_a_sites_footer_after_the_result_read() {
    let footer = "============================\n欢迎访问《象棋百科全书》网站\n\
                  推荐用“象棋巫师”观赏棋谱\nhttps://www.xqbase.com/\n\n";
    let body = format!(
        "[Game \"Chinese Chess\"]\n[Red \"甲\"]\n[Result \"0-1\"]\n  1. 炮二平五 马８进７\n 0-1\n{footer}\
         [Game \"Chinese Chess\"]\n[Red \"乙\"]\n[Result \"*\"]\n１．马二进三 马８进７ 红先和\n{footer}"
    );
    let out = record_of("plyd_game_xiangqi", "xiangqi", "xqbase.pgn", body);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves h2e2 h9g7\nposition startpos moves h0g2 h9g7\n"
    );
}

#[test]
fn sgf_games_from_set_up_stones_replay_from_their_position() {
    // White to move at the standard start (`PL[W]`), and a Black disc
    // added on c3 (`AB[cc]`).
    let out = record_of(
        "plyd_game_othello",
        "othello",
        "games.sgf",
        "(;GM[2]FF[4]SZ[8]PL[W];W[ec])\n(;GM[2]SZ[8]AB[cc];B[fe])\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position fen ---------------------------OX------XO--------------------------- O moves e3\n\
         position fen ------------------X--------OX------XO--------------------------- X moves f5\n"
    );
}

/// An XQF 1.0 file (no keys): the standard start, then `moves` (squares
/// `10 * file + rank`) after the start's own record.
fn xqf_file(moves: &[(u8, u8)]) -> Vec<u8> {
    let mut bytes = vec![0u8; 0x400];
    bytes[..3].copy_from_slice(b"XQ\x0a");
    bytes[16..48].copy_from_slice(&[
        80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59, 69,
        79, 89, 17, 77, 6, 26, 46, 66, 86,
    ]);
    bytes[0x130] = 2;
    bytes[0x131..0x133].copy_from_slice(b"rx");
    let mut records = vec![(0u8, 0u8)];
    records.extend(moves);
    for (i, &(from, to)) in records.iter().enumerate() {
        let next = if i + 1 < records.len() { 0xf0 } else { 0 };
        bytes.extend([from + 24, to + 32, next, 0, 0, 0, 0, 0]);
    }
    bytes
}

#[test]
fn xqf_files_and_pgn_games_are_read_together_black_first_and_ruled_otherwise() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-xqf");
    let write = |name: &str, body: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path.to_str().unwrap().to_string()
    };
    let game = write(
        "game.xqf",
        &xqf_file(&[(23, 24), (79, 67), (63, 64), (17, 27)]),
    );
    // Black to move mates: the result is Black's (`0-1`), Red being the
    // first side whoever moves first.
    let black_first = write(
        "black.pgn",
        b"[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n[FEN \"1r1k5/9/9/9/9/9/9/9/r8/4K4 b\"]\n\n1. ... B9-B0 0-1\n",
    );
    // Red checks perpetually: plyd's rules would give Black the game at
    // the third repetition; the record's draw is kept, with a note.
    let perpetual = write(
        "perpetual.pgn",
        b"[Game \"Chinese Chess\"]\n[Result \"1/2-1/2\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K4R w\"]\n\n\
          1. I0-I9 E9-E8 2. I9-I8 E8-E9 3. I8-I9 E9-E8 4. I9-I8 E8-E9 5. I8-I9 1/2-1/2\n",
    );
    let mut cut = xqf_file(&[(23, 24), (79, 67)]);
    cut.truncate(cut.len() - 6);
    let cut = write("cut.xqf", &cut);
    let out = run_plyd(
        plugins.path(),
        &["record", &game, &black_first, &cut, &perpetual],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        text(&out.stdout),
        "position startpos moves c3c4 h9g7 g3g4 b7c7\n\
         position fen 1r1k5/9/9/9/9/9/9/9/r8/4K4 b moves b9b0\n\
         position fen 4k4/9/9/9/9/9/9/9/9/3K4R w moves i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9\n"
    );
    assert!(
        err.contains("cut.xqf: XQF: the file ends inside the record of move 2"),
        "{err}"
    );
    assert!(
        err.contains("perpetual.pgn: record 1: its result (a draw) is the record's: plyd's rules would end the game after its 9 plies as a win for Black"),
        "{err}"
    );
    assert!(!err.contains("black.pgn"), "{err}");
    // Openings: each game's first plies, the shorter games left out.
    let out = run_plyd(
        plugins.path(),
        &["record", "--plies", "2", &game, &black_first, &perpetual],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves c3c4 h9g7\n\
         position fen 4k4/9/9/9/9/9/9/9/9/3K4R w moves i0i9 e9e8\n"
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("black.pgn: games of fewer than 2 plies left out: 1"),
        "{err}"
    );
    assert!(!err.contains("perpetual.pgn"), "{err}");
    // Converted: the XQF game as PGN, which reads back to the same line.
    let out = run_plyd(plugins.path(), &["record", "--to", "pgn", &game]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pgn = write("game.pgn", &out.stdout);
    assert!(text(&out.stdout).contains("1. C3-C4 H9-G7 2. G3-G4 B7-C7"));
    let out = run_plyd(plugins.path(), &["record", &pgn]);
    assert_eq!(
        text(&out.stdout),
        "position startpos moves c3c4 h9g7 g3g4 b7c7\n"
    );
    // A format that does not hold the game, or none plyd writes.
    let out = run_plyd(plugins.path(), &["record", "--to", "ggf", &game]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(": record 1: a game of xiangqi is not written as ggf"));
    let out = run_plyd(plugins.path(), &["record", "--to", "mp3", &game]);
    assert_eq!(out.status.code(), Some(2));
    // XQF written, a file a game, reads back to the same lines.
    let folder = dir.path().join("xqf");
    let folder_arg = folder.to_str().unwrap();
    let out = run_plyd(plugins.path(), &["record", "--to", "xqf", &game]);
    assert_eq!(out.status.code(), Some(2), "--to xqf needs --out");
    // A file where the folder should be is named as such.
    let out = run_plyd(
        plugins.path(),
        &["record", "--to", "xqf", "--out", &game, &game],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a folder (a file of that name is there)"),
        "{}",
        text(&out.stderr)
    );
    let to_xqf = |files: &[&str]| {
        let mut args = vec!["record", "--to", "xqf", "--out", folder_arg];
        args.extend(files);
        run_plyd(plugins.path(), &args)
    };
    let out = to_xqf(&[&pgn, &black_first]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = folder.join("1.xqf");
    let second = folder.join("2.xqf");
    // Not written over by a second run.
    let again = to_xqf(&[&pgn]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("game 1: ")
            && text(&again.stderr).contains("1.xqf is there already, not written over"),
        "{}",
        text(&again.stderr)
    );
    // A file there holds its number alone: the games after it are still
    // written, each under its own number.
    std::fs::remove_file(&first).unwrap();
    let again = to_xqf(&[&pgn, &black_first]);
    assert_eq!(again.status.code(), Some(1));
    assert!(first.exists(), "{}", text(&again.stderr));
    assert_eq!(
        text(&again.stderr).matches("not written over").count(),
        1,
        "{}",
        text(&again.stderr)
    );
    let out = run_plyd(
        plugins.path(),
        &["record", first.to_str().unwrap(), second.to_str().unwrap()],
    );
    assert_eq!(
        text(&out.stdout),
        "position startpos moves c3c4 h9g7 g3g4 b7c7\n\
         position fen 1r1k5/9/9/9/9/9/9/9/r8/4K4 b moves b9b0\n"
    );
    // A record that does not replay leaves its number unused: the games
    // after it keep their places (a collection's second puzzle was
    // written as 1.xqf).
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    let bad = pgn_text.replace("C3-C4", "C3-C6");
    let three = write(
        "three.pgn",
        format!("{bad}\n{pgn_text}\n{pgn_text}").as_bytes(),
    );
    let numbered = dir.path().join("numbered");
    std::fs::create_dir(&numbered).unwrap();
    let out = run_plyd(
        plugins.path(),
        &[
            "record",
            "--to",
            "xqf",
            "--out",
            numbered.to_str().unwrap(),
            &three,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&numbered)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["2.xqf", "3.xqf"], "{}", text(&out.stderr));
}

#[test]
fn a_xiangqi_record_plays_on_past_a_repetition_that_plyd_rules_drawn() {
    // The horses out and back twice: the start's third time, which plyd's
    // rules draw. The plugin still lists the moves there (the verdict is
    // the arbiter's to apply), so a game that goes on, as real games do,
    // replays; one that ends there with a win the arbiter gave (a
    // resignation, say) keeps it with a note; a move illegal after it is
    // still refused, with the legal ones.
    let repeated = "1. H0-G2 H9-G7 2. G2-H0 G7-H9 3. H0-G2 H9-G7 4. G2-H0 G7-H9";
    let body = format!(
        "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n{repeated} 5. H2-E2 H7-E7 1-0\n\n\
         [Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n{repeated} 1-0\n\n\
         [Game \"Chinese Chess\"]\n[Result \"*\"]\n\n{repeated} 5. H2-H8 *\n"
    );
    let out = record_of("plyd_game_xiangqi", "xiangqi", "repeated.pgn", body);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let start = "position startpos moves h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
    assert_eq!(text(&out.stdout), format!("{start} h2e2 h7e7\n{start}\n"));
    assert!(
        err.contains("record 1: the game has not ended by the rules after its 10 plies"),
        "{err}"
    );
    assert!(
        err.contains("record 2: its result (Red won) is the record's: plyd's rules would end the game after its 8 plies as a draw (third repetition, neither side checked or chased perpetually)"),
        "{err}"
    );
    assert!(
        err.contains(
            "record 3: ply 9 ('H2-H8', h2h8): illegal move 'h2h8': h7 stands in the cannon's \
             way (a cannon jumps only to capture) (44 legal here:"
        ),
        "{err}"
    );
}

/// A CCBridge game (CBR) as its writer lays one out: `title`, Red's and
/// Black's names, the standard start (or an empty board: a library's
/// heading), `moves` by the format's squares (`9 * row + file`, row 0 at
/// Black's back) after the start's own record, `result` (1 Red won).
fn cbr_game(title: &str, names: [&str; 2], start: bool, moves: &[(u8, u8)], result: u8) -> Vec<u8> {
    let mut bytes = vec![0u8; 2214];
    bytes[..16].copy_from_slice(b"CCBridge Record\0");
    for (at, field) in [(180, title), (1076, names[0]), (1300, names[1])] {
        let utf16: Vec<u8> = field.encode_utf16().flat_map(u16::to_le_bytes).collect();
        bytes[at..at + utf16.len()].copy_from_slice(&utf16);
    }
    bytes[2076] = result;
    bytes[2112] = 1;
    if start {
        let back = [1u8, 2, 3, 4, 5, 4, 3, 2, 1];
        for file in 0..9 {
            bytes[2120 + file] = 0x20 | back[file];
            bytes[2120 + 81 + file] = 0x10 | back[file];
        }
        for file in [1, 7] {
            bytes[2120 + 18 + file] = 0x26;
            bytes[2120 + 63 + file] = 0x16;
        }
        for file in [0, 2, 4, 6, 8] {
            bytes[2120 + 27 + file] = 0x27;
            bytes[2120 + 54 + file] = 0x17;
        }
    }
    // The start's record (no comment; the line ends where there is no
    // move), then the moves, the last ending the line.
    bytes.extend([u8::from(moves.is_empty()), 0, 0, 0]);
    for (i, &(from, to)) in moves.iter().enumerate() {
        bytes.extend([u8::from(i + 1 == moves.len()), 0, from, to]);
    }
    bytes
}

/// A CCBridge library (CBL) of `games`, each with its index flags (0x02
/// set: not deleted) and the blocks of 4,096 bytes it takes.
fn cbl_library(games: &[(u32, usize, Vec<u8>)]) -> Vec<u8> {
    let slots = 128;
    let mut bytes = vec![0u8; 66_624 + slots * 276];
    bytes[..16].copy_from_slice(b"CCBridgeLibrary\0");
    bytes[60..64].copy_from_slice(&(slots as u32).to_le_bytes());
    for (i, (flags, blocks, game)) in games.iter().enumerate() {
        let entry = 66_624 + i * 276;
        bytes[entry..entry + 4].copy_from_slice(&flags.to_le_bytes());
        bytes[entry + 8..entry + 12].copy_from_slice(&(*blocks as u32).to_le_bytes());
        bytes[entry + 12..entry + 16].copy_from_slice(&(game.len() as u32).to_le_bytes());
    }
    for (_, blocks, game) in games {
        let mut record = game.clone();
        record.resize(blocks * 4096, 0);
        bytes.extend(record);
    }
    bytes
}

#[test]
fn ccbridge_games_and_libraries_replay_past_a_repetition_without_headings_or_deleted_games() {
    // 马二进三 马８进７ 马三退二 马７退８, twice: plyd's rules draw the
    // game on the third repetition, after which the players went on with
    // 炮二平五 炮８平５ (a record plays on where an arbiter let it).
    let repeated = [(88, 69), (7, 24), (69, 88), (24, 7)];
    let mut moves: Vec<(u8, u8)> = repeated.iter().chain(&repeated).copied().collect();
    moves.extend([(70, 67), (25, 22)]);
    let library = cbl_library(&[
        (7, 1, cbr_game("第一组", ["", ""], false, &[], 0)),
        (
            7,
            1,
            cbr_game("第1局", ["胡荣华", "杨官璘"], true, &moves, 1),
        ),
        (5, 1, cbr_game("删去", ["a", "b"], true, &[(70, 67)], 1)),
        (
            7,
            2,
            cbr_game("第2局", ["柳大华", "李来群"], true, &[(64, 67), (7, 24)], 3),
        ),
    ]);
    let single = cbr_game("单局", ["吕钦", "许银川"], true, &[(70, 67)], 0);
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-cbl");
    let cbl = dir.path().join("lib.cbl");
    std::fs::write(&cbl, &library).unwrap();
    let cbr = dir.path().join("game.cbr");
    std::fs::write(&cbr, &single).unwrap();
    let (cbl, cbr) = (cbl.to_str().unwrap(), cbr.to_str().unwrap());
    let out = run_plyd(plugins.path(), &["record", cbl, cbr]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(
        text(&out.stdout),
        "position startpos moves h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 h2e2 h7e7\n\
         position startpos moves b2e2 h9g7\n\
         position startpos moves h2e2\n"
    );
    assert!(
        err.contains("the library holds 1 deleted game, left out"),
        "{err}"
    );
    assert!(
        err.contains("record 1: a heading ('第一组'), no piece on its board: not a game"),
        "{err}"
    );
    assert!(
        err.contains("record 2: the game has not ended by the rules after its 10 plies"),
        "{err}"
    );
    // The second game is numbered 3 in the library (after the heading
    // and the first game; the deleted one is not counted).
    assert!(err.contains("record 3: the game has not ended"), "{err}");
    assert!(!err.contains("删去"), "{err}");
    // As PGN, with the names.
    let out = run_plyd(plugins.path(), &["record", "--to", "pgn", cbl]);
    let pgn = text(&out.stdout);
    assert!(
        pgn.contains("[Red \"胡荣华\"]") && pgn.contains("[Black \"李来群\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. B2-E2 H9-G7 1/2-1/2"), "{pgn}");
    // A game whose move leaves the board fails alone, by its number.
    let mut broken = library.clone();
    let second = 66_624 + 128 * 276 + 4096;
    broken[second + 2214 + 4 + 3] = 95;
    std::fs::write(dir.path().join("broken.cbl"), &broken).unwrap();
    let broken = dir.path().join("broken.cbl");
    let out = run_plyd(plugins.path(), &["record", broken.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("record 2: CBL: move 1: squares 88 and 95 are not both on the board"),
        "{err}"
    );
    assert_eq!(text(&out.stdout), "position startpos moves b2e2 h9g7\n");
}

#[test]
fn variations_of_xqf_and_ccbridge_games_are_games_of_their_own() {
    // 炮二平五 (or 炮八平五) 马８进７: the first move has an alternative,
    // written after the main line. XQF 1.0: a record's flags 0xf0 for a
    // next move, 0x0f for an alternative; CBR: 0x01 ends a line, 0x02 an
    // alternative follows.
    let mut xqf = xqf_file(&[]);
    xqf.truncate(0x400);
    for (from, to, flags) in [(0u8, 0u8, 0xf0u8), (72, 42, 0xff), (79, 67, 0), (12, 42, 0)] {
        xqf.extend([from + 24, to + 32, flags, 0, 0, 0, 0, 0]);
    }
    let mut cbr = cbr_game("变着", ["红", "黑"], true, &[], 1);
    cbr.truncate(2214);
    cbr.extend([0, 0, 0, 0, 0x02, 0, 70, 67, 0x01, 0, 7, 24, 0x01, 0, 64, 67]);
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-variations");
    let write = |name: &str, body: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path.to_str().unwrap().to_string()
    };
    let (xqf, cbr) = (write("tree.xqf", &xqf), write("tree.cbr", &cbr));
    let pgn = write(
        "tree.pgn",
        "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n[Format \"Chinese\"]\n\n\
         1. 炮二平五 (1. 炮八平五) 马８进７ 1-0\n"
            .as_bytes(),
    );
    for file in [&xqf, &cbr, &pgn] {
        let (main, alternative) = ("h2e2 h9g7", "b2e2");
        let out = run_plyd(plugins.path(), &["record", file]);
        assert_eq!(
            text(&out.stdout),
            format!("position startpos moves {main}\n")
        );
        let out = run_plyd(plugins.path(), &["record", "--variations", file]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            format!("position startpos moves {main}\nposition startpos moves {alternative}\n")
        );
        // The alternative is a game whose result is not given.
        let out = run_plyd(
            plugins.path(),
            &["record", "--variations", "--to", "pgn", file],
        );
        let pgn = text(&out.stdout);
        assert_eq!(pgn.matches("[Game ").count(), 2, "{pgn}");
        assert!(pgn.contains("1. B2-E2 *"), "{pgn}");
    }
}

/// `plyd record --tree --to xqf` of `file` into `folder`.
fn tree_to_xqf(plugins: &Path, folder: &Path, file: &str) -> std::process::Output {
    let folder = folder.to_str().unwrap();
    let args = ["record", "--tree", "--to", "xqf", "--out", folder, file];
    run_plyd(plugins, &args)
}

/// The limit on the moves a file's lines hold, each counted from the
/// start, holds for a PGN file of several games as for one tree file: each
/// game within it, two together past it, is refused with one line.
#[test]
fn pgn_games_whose_lines_together_pass_the_limit_are_refused() {
    // A main line of 1,000 moves with an alternative at every fourth:
    // 250 lines of 4 to 1,000 moves, about 125,000 moves a game.
    let mut moves = String::new();
    for _ in 0..250 {
        moves += "h2e2 (b2e2) h9g7 e2h2 g7h9 ";
    }
    let game = format!("[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n{moves}*\n\n");
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-line-limit");
    let many = dir.path().join("many.pgn");
    // Twenty games: about 2.5 million moves in all.
    std::fs::write(&many, game.repeat(20)).unwrap();
    let out = run_plyd(
        plugins.path(),
        &["record", "--variations", many.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the file's lines hold more than 2000000 moves in all"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_games_variations_are_written_back_as_one_record() {
    // 1. 炮二平五 马８进７ (1... 炮８平５ 2. 马二进三 (2. 马八进七)
    // 2... 马８进７) 2. 马二进三 (2. 马八进七 马２进３) 2... 车９平８
    let pgn = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n\
               1. H2-E2 H9-G7 (1... H7-E7 2. H0-G2 (2. B0-C2) 2... H9-G7) \
               2. H0-G2 (2. B0-C2 B9-C7) 2... I9-H9 1-0\n";
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-tree");
    let write = |name: &str, body: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path.to_str().unwrap().to_string()
    };
    let file = write("game.pgn", pgn.as_bytes());
    let lines = |file: &str| {
        let out = run_plyd(plugins.path(), &["record", "--variations", file]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let expected = lines(&file);
    assert_eq!(expected.lines().count(), 4, "{expected}");
    let out = run_plyd(plugins.path(), &["record", "--tree", "--to", "pgn", &file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = text(&out.stdout);
    assert!(
        written.replace('\n', " ").contains(
            "1. H2-E2 H9-G7 (1... H7-E7 2. H0-G2 (2. B0-C2) 2... H9-G7) 2. H0-G2 \
             (2. B0-C2 B9-C7) 2... I9-H9 1-0"
        ),
        "{written}"
    );
    assert_eq!(written.matches("[Game ").count(), 1, "{written}");
    // Each form read back gives the same lines.
    assert_eq!(lines(&write("back.pgn", written.as_bytes())), expected);
    let out = run_plyd(
        plugins.path(),
        &["record", "--tree", "--to", "pgn-chinese", &file],
    );
    let chinese = text(&out.stdout);
    assert!(chinese.contains("(2. 马八进七 马２进３)"), "{chinese}");
    assert_eq!(
        lines(&write("back-chinese.pgn", chinese.as_bytes())),
        expected
    );
    let folder = dir.path().join("xqf");
    let out = tree_to_xqf(plugins.path(), &folder, &file);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // XQF's lines come deepest alternative first: the same lines.
    let sorted = |text: String| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    let back = lines(folder.join("1.xqf").to_str().unwrap());
    assert_eq!(back.lines().next(), expected.lines().next());
    assert_eq!(sorted(back), sorted(expected.clone()));
    // Cut to two plies: the openings the lines begin with, once each.
    let out = run_plyd(
        plugins.path(),
        &["record", "--tree", "--plies", "2", "--to", "pgn", &file],
    );
    let openings = text(&out.stdout);
    assert!(
        openings.contains("1. H2-E2 H9-G7 (1... H7-E7) *"),
        "{openings}"
    );
    // A tree is written only as a xiangqi record.
    let out = run_plyd(plugins.path(), &["record", "--tree", &file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--tree"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn comments_go_with_the_moves_into_every_xiangqi_record() {
    // A comment on the start, one of two lines whose second starts as a
    // tag does, and one in a variation; then a second game.
    let pgn = "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n{开局}\n1. H2-E2 {中炮\n[Event \"不是对局\"]}\n\
               H9-G7 (1... H7-E7 {顺炮}) 2. H0-G2 *\n\n\
               [Game \"Chinese Chess\"]\n\n1. C3-C4 *\n";
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-comments");
    let file = dir.path().join("games.pgn");
    std::fs::write(&file, pgn).unwrap();
    let file = file.to_str().unwrap();
    let out = run_plyd(plugins.path(), &["record", file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves h2e2 h9g7 h0g2\nposition startpos moves c3c4\n"
    );
    let out = run_plyd(plugins.path(), &["record", "--tree", "--to", "pgn", file]);
    let written = text(&out.stdout);
    assert!(
        written.contains(
            "{开局} 1. H2-E2 {中炮\n[Event \"不是对局\"]} 1... H9-G7 (1... H7-E7 {顺炮}) 2. H0-G2 *"
        ),
        "{written}"
    );
    assert_eq!(written.matches("[Game ").count(), 2, "{written}");
    // Through XQF and back, the same.
    let folder = dir.path().join("xqf");
    let out = tree_to_xqf(plugins.path(), &folder, file);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = folder.join("1.xqf");
    let out = run_plyd(
        plugins.path(),
        &["record", "--tree", "--to", "pgn", first.to_str().unwrap()],
    );
    let back = text(&out.stdout);
    assert!(
        back.contains(
            "{开局} 1. H2-E2 {中炮\n[Event \"不是对局\"]} 1... H9-G7 (1... H7-E7 {顺炮}) 2. H0-G2 *"
        ),
        "{back}"
    );
    // Cut to one ply: the comments after it go.
    let out = run_plyd(
        plugins.path(),
        &["record", "--plies", "1", "--to", "pgn", file],
    );
    let cut = text(&out.stdout);
    assert!(cut.contains("{开局} 1. H2-E2 {中炮"), "{cut}");
    assert!(!cut.contains("顺炮"), "{cut}");
}

#[test]
fn othello_comments_go_with_the_moves_into_sgf_past_the_passes_left_out() {
    // The self-play game of `othello_transcripts_replay_with_their_passes`
    // as PGN, its three passes left out: a comment on the start, after
    // A1 (before the first pass), after H1 (the move after it) and after
    // the result; then the same game as SGF with the passes written.
    let moves = "D3 C5 D6 E3 F3 E2 F5 F4 F1 F2 G4 E6 C4 F6 G3 C6 G5 E1 D1 C2 D2 G6 B3 C3 G1 H5 H6 H7 B4 H4 \
                 B5 H3 C7 A4 A5 A6 B6 H2 E7 F7 F8 E8 D8 C8 B7 G8 B8 A8 D7 C1 B1 A7 B2 A3 A2";
    let pgn = format!(
        "[Black \"a\"]\n[White \"b\"]\n\n{{opening}} {moves} A1 {{corner}} H1 {{after a pass]}} G2 G7 * {{the end}}\n"
    );
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let dir = TempDir::new("records-othello-comments");
    let file = dir.path().join("game.pgn");
    std::fs::write(&file, pgn).unwrap();
    let out = run_plyd(
        plugins.path(),
        &["record", "--to", "sgf", file.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sgf = text(&out.stdout);
    // The pass after A1 and H1 written in (`W[]`, `B[]`), each comment
    // on the node of its move, `]` escaped.
    for part in [
        // The rules ended it, the PGN giving no result: the rules' one.
        "RE[W+50]C[opening];B[dc]",
        ";W[aa]C[corner];B[];W[ha]C[after a pass\\]];B[];W[gb];B[];W[gg]C[the end])",
    ] {
        assert!(sgf.contains(part), "{part}: {sgf}");
    }
    // Read back from SGF: the same record, comments and all.
    let file = dir.path().join("game.sgf");
    std::fs::write(&file, &sgf).unwrap();
    let out = run_plyd(
        plugins.path(),
        &["record", "--to", "sgf", file.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), sgf);
}

/// The games of an arena's GGF file: their moves (passes left out) and
/// Black's margin.
fn ggf_games(written: &str) -> Vec<(Vec<String>, i32)> {
    written
        .split("(;GM[Othello]")
        .skip(1)
        .map(|game| {
            let re = game.split("RE[").nth(1).unwrap().split(']').next().unwrap();
            let margin: i32 = re.strip_suffix(".000").unwrap().parse().unwrap();
            // The moves after the board (`BO[8 ... *]`): `B[D3]W[C3]...`.
            let after_board = game.split_once(" *]").unwrap().1;
            let moves = after_board
                .split(']')
                .filter_map(|m| m.strip_prefix("B[").or_else(|| m.strip_prefix("W[")))
                .filter(|square| *square != "PA")
                .map(str::to_string)
                .collect();
            (moves, margin)
        })
        .collect()
}

/// A margin two discs from `margin`, still one a game can end on.
fn another_margin(margin: i32) -> i32 {
    if margin >= 62 {
        margin - 2
    } else {
        margin + 2
    }
}

#[test]
fn wthor_databases_replay_with_their_names_beside_them() {
    let written = round_trip("plyd_game_othello", "othello", "othello", "(;GM[Othello]");
    let games = ggf_games(&written);
    // The games file: a 16-byte header, then 68 bytes a game, Black's
    // discs with the empty squares the winner's, moves as 10 * row +
    // column.
    let wthor = |games: &[(Vec<String>, i32)]| {
        let mut bytes = vec![20, 25, 1, 1];
        bytes.extend((games.len() as u32).to_le_bytes());
        bytes.extend([0, 0, 0xe9, 0x07, 8, 0, 22, 0]);
        for (moves, margin) in games {
            // Tournament 0, Black player 1, White player 0.
            bytes.extend([0, 0, 1, 0, 0, 0]);
            let discs = ((64 + margin) / 2) as u8;
            bytes.extend([discs, discs]);
            let mut squares: Vec<u8> = moves
                .iter()
                .map(|m| {
                    let m = m.as_bytes();
                    10 * (m[1] - b'0') + (m[0].to_ascii_lowercase() - b'a' + 1)
                })
                .collect();
            squares.resize(60, 0);
            bytes.extend(squares);
        }
        bytes
    };
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let dir = TempDir::new("records-wthor");
    let ggf = dir.path().join("games.ggf");
    std::fs::write(&ggf, &written).unwrap();
    let wtb = dir.path().join("WTH_2025.wtb");
    std::fs::write(&wtb, wthor(&games)).unwrap();
    let mut players = vec![0u8; 16];
    for name in ["Zhang", "Tamenori"] {
        let mut field = name.as_bytes().to_vec();
        field.resize(20, 0);
        players.extend(field);
    }
    std::fs::write(dir.path().join("wthor.jou"), players).unwrap();
    let out = run_plyd(
        plugins.path(),
        &["record", wtb.to_str().unwrap(), ggf.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[..2], lines[2..]);
    // Converted to GGF: the names from `wthor.jou`, Black's margin, the
    // same games.
    let out = run_plyd(
        plugins.path(),
        &["record", "--to", "ggf", wtb.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let converted = text(&out.stdout);
    assert_eq!(
        converted.matches("PB[Tamenori]PW[Zhang]").count(),
        2,
        "{converted}"
    );
    assert!(
        converted.contains(&format!("RE[{:+}.000]", games[0].1)),
        "{converted}"
    );
    std::fs::write(&ggf, &converted).unwrap();
    let out = run_plyd(plugins.path(), &["record", ggf.to_str().unwrap()]);
    assert_eq!(text(&out.stdout).lines().collect::<Vec<_>>(), lines[..2]);
    // A disc count the final position does not have is refused.
    let (moves, margin) = &games[0];
    std::fs::write(&wtb, wthor(&[(moves.clone(), another_margin(*margin))])).unwrap();
    let out = run_plyd(plugins.path(), &["record", wtb.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("its result gives Black a margin of"), "{err}");
}

#[test]
fn othello_pgn_games_replay_and_their_disc_counts_are_checked() {
    // The arena's two games, written again as Othello PGN the way the
    // WTHOR archives' conversions write them: `[Result "47-17"]` (the
    // empty squares the winner's), `1. D3 C3 ...`, passes left out.
    let written = round_trip("plyd_game_othello", "othello", "othello", "(;GM[Othello]");
    let mut pgn = String::new();
    let mut wrong = String::new();
    for (moves, margin) in ggf_games(&written) {
        let body: Vec<String> = moves
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
            .collect();
        let counts = |m: i32| format!("{}-{}", (64 + m) / 2, (64 - m) / 2);
        pgn += &format!(
            "[Event \"arena\"]\n[Black \"a\"]\n[White \"b\"]\n[Result \"{}\"]\n{}\n\n",
            counts(margin),
            body.join("\n")
        );
        if wrong.is_empty() {
            wrong = format!(
                "[Black \"a\"]\n[White \"b\"]\n[Result \"{}\"]\n{}\n",
                counts(another_margin(margin)),
                body.join(" ")
            );
        }
    }
    let ggf = record_of("plyd_game_othello", "othello", "games.ggf", &written);
    let out = record_of("plyd_game_othello", "othello", "games.pgn", &pgn);
    assert!(out.status.success(), "{pgn}\n{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), text(&ggf.stdout), "{pgn}");
    assert_eq!(text(&out.stdout).lines().count(), 2);
    // A disc count the final position does not have is refused.
    let out = record_of("plyd_game_othello", "othello", "wrong.pgn", &wrong);
    assert_eq!(out.status.code(), Some(1), "{wrong}");
    let err = text(&out.stderr);
    assert!(err.contains("its result gives Black a margin of"), "{err}");
}

/// plyd's own `position` lines (what `plyd record` prints, what a GUI
/// sends) are read as games of the game `--game` names: the arena's
/// logged games, written as CCGC records and read back, are the same
/// lines; without `--game` each line is refused saying so.
#[test]
fn position_lines_are_read_as_games_of_the_named_game() {
    let plugins = plugin_dir(&[("plyd_game_einstein", "einstein")]);
    let dir = TempDir::new("records-position-lines");
    let log = dir.path().join("log.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = run_plyd(
        plugins.path(),
        &[
            "arena",
            "--game",
            "einstein",
            "--engine",
            &plyd,
            "--engine",
            &plyd,
            "--depth",
            "1",
            "--games",
            "2",
            "--seed",
            "5",
            "--out",
            log.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let positions = logged_positions(&log);
    let lines = dir.path().join("lines.txt");
    std::fs::write(&lines, positions.join("\n") + "\n").unwrap();
    let ccgc = run_plyd(
        plugins.path(),
        &[
            "--game",
            "einstein",
            "record",
            "--to",
            "ccgc",
            lines.to_str().unwrap(),
        ],
    );
    assert!(ccgc.status.success(), "{}", text(&ccgc.stderr));
    let records = dir.path().join("records.txt");
    std::fs::write(&records, &ccgc.stdout).unwrap();
    assert_eq!(text(&ccgc.stdout).matches("#[WTN][").count(), 2);
    let back = run_plyd(
        plugins.path(),
        &["--game", "einstein", "record", records.to_str().unwrap()],
    );
    assert!(back.status.success(), "{}", text(&back.stderr));
    let read: Vec<String> = text(&back.stdout).lines().map(str::to_string).collect();
    assert_eq!(read, positions);
    // No game named: each line refused, saying what is missing.
    let bare = run_plyd(plugins.path(), &["record", lines.to_str().unwrap()]);
    assert_eq!(bare.status.code(), Some(1));
    assert!(
        text(&bare.stderr)
            .contains("record 1: a `position` line names no game: give it with --game"),
        "{}",
        text(&bare.stderr)
    );
}

/// A record's text quoted on stderr has its control characters written
/// out: a record file cannot send escape sequences to the terminal.
#[test]
fn control_characters_of_a_record_reach_stderr_written_out() {
    let out = record_of(
        "plyd_game_othello",
        "othello",
        "escape.sgf",
        "(;GM[2]FF[4]SZ[8];B[f5];W[zz\u{1b}[2J])\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("\\x1b["), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

/// A game's own option given to `plyd record` (`--option
/// MoveRanks=1-10`) is how it reads the records, and an arena log's
/// `GameOptions` how it reads the log's games: a match against an engine
/// that counts xiangqi's ranks from 1 (each was refused as illegal moves).
#[test]
fn records_and_arena_logs_are_read_with_the_games_options() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-ranks");
    let file = dir.path().join("one.txt");
    std::fs::write(&file, "position startpos moves h3e3 h10g8\n").unwrap();
    let read = |args: &[&str]| run_plyd(plugins.path(), args);
    let out = read(&[
        "record",
        "--game",
        "xiangqi",
        "--option",
        "MoveRanks=1-10",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "position startpos moves h3e3 h10g8\n");
    let out = read(&["record", "--game", "xiangqi", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "ranks 0-9 by default");

    let log = dir.path().join("match.txt");
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = read(&[
        "arena",
        "--game",
        "xiangqi",
        "--game-option",
        "MoveRanks=1-10",
        "--engine",
        &plyd,
        "name=a",
        "option.MoveRanks=1-10",
        "--engine",
        &plyd,
        "name=b",
        "option.MoveRanks=1-10",
        "--depth",
        "1",
        "--games",
        "2",
        "--max-plies",
        "4",
        "--out",
        log.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = read(&["record", "--to", "positions", log.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 1 + 8);
}

/// A match on one clock for both engines names it in its PGN's
/// `TimeControl` (seconds, `2+0.02`), as rating lists read it.
#[test]
fn a_clocked_match_names_its_time_control_in_pgn() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-tc");
    let records = dir.path().join("games.pgn");
    let plyd = format!("cmd={}", plyd_bin().display());
    let out = run_plyd(
        plugins.path(),
        &[
            "arena",
            "--game",
            "xiangqi",
            "--engine",
            &plyd,
            "name=a",
            "--engine",
            &plyd,
            "name=b",
            "--tc",
            "2+0.02",
            "--games",
            "2",
            "--max-plies",
            "4",
            "--record",
            records.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&records).unwrap();
    assert_eq!(
        written.matches("[TimeControl \"2+0.02\"]").count(),
        2,
        "{written}"
    );
}

#[test]
fn an_analysis_scores_every_move_against_the_best() {
    // An Othello ending of 12 empty squares played at random to its end:
    // searched to depth 12, every position is solved exactly, so the
    // played move's score is minus the next position's, the loss is never
    // below 0 and is 0 where the best move was played.
    let plugins = plugin_dir(&[("plyd_game_othello", "othello")]);
    let dir = TempDir::new("records-analysis");
    let file = dir.path().join("ending.txt");
    std::fs::write(
        &file,
        "position fen OOOOOOX1/XOOOOO1O/XOOXXOOO/OOXXXOOO/OOXXOXOO/OOXXXX2/1XXXXX2/X1X2X2 b \
         moves h6 g7 a7 e8 h1 g6 h8 h7 d8 b8 g2 g8\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let args = ["--game", "othello", "record", "--to", "positions"];
    let out = run_plyd(
        plugins.path(),
        &[&args[..], &["--analyse", "depth=12", path]].concat(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some("game\tply\tposition\tmove\tscore\tdepth\tresult\tbest\tplayed\tloss")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 12, "{stdout}");
    let number =
        |word: &str| -> i64 { word.parse().unwrap_or_else(|_| panic!("{word}: {stdout}")) };
    let mut mistakes = 0;
    for (ply, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 10, "{stdout}");
        let (score, played, loss) = (number(row[4]), number(row[8]), number(row[9]));
        // Depth 12 at 12 empty squares: each position to its end.
        assert_eq!(number(row[5]), 12 - ply as i64, "{stdout}");
        assert_eq!(loss, score - played, "{stdout}");
        assert!(loss >= 0, "{stdout}");
        if row[3] == row[7] {
            assert_eq!(loss, 0, "{stdout}");
        } else if loss > 0 {
            mistakes += 1;
        }
        match rows.get(ply + 1) {
            Some(next) => assert_eq!(played, -number(next[4]), "{stdout}"),
            // White's last disc: 33 to 31, 2 discs, 100 a disc.
            None => assert_eq!(played, 200, "{stdout}"),
        }
    }
    assert!(mistakes >= 3, "random moves make mistakes: {stdout}");
    // Its limit read, or refused before any file.
    for (limit, why) in [
        ("depth=0", "above 0"),
        ("depth", "KEY=VALUE"),
        ("time=5", "no limit"),
    ] {
        let out = run_plyd(
            plugins.path(),
            &[&args[..], &["--analyse", limit, path]].concat(),
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
        assert!(out.stdout.is_empty());
    }
    // `movetime` is each search's: six positions take six times it at
    // least (one budget for the whole run ended it after the first).
    let opening = dir.path().join("opening.txt");
    std::fs::write(&opening, "f5d6c3d3c4f4\n").unwrap();
    let started = std::time::Instant::now();
    let out = run_plyd(
        plugins.path(),
        &[
            "record",
            "--to",
            "positions",
            "--analyse",
            "movetime=200",
            opening.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 7);
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(6 * 200),
        "{:?}",
        started.elapsed()
    );
    let out = run_plyd(
        plugins.path(),
        &["--game", "othello", "record", "--analyse", "depth=3", path],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("give --to positions"),
        "{}",
        text(&out.stderr)
    );
}

/// `-` reads a record from the standard input.
#[test]
fn a_record_is_read_from_the_standard_input() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let out = output_with_input(
        plyd_command(plugins.path()).args(["record", "-"]),
        "1. 炮二平五 马８进７\n".as_bytes(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "position startpos moves h2e2 h9g7\n");
}

#[test]
fn an_analysis_weighs_each_roll_of_the_dice() {
    // EinStein's rolls are nobody's choice: a roll's row has no best
    // move; its score is the position's worth before the roll (the mean
    // over the six), `played` its worth after this roll for the same
    // side, and `loss` what the roll cost that side.
    let out = record_with(
        "plyd_game_einstein",
        "einstein",
        "game.txt",
        "position startpos moves s165234 s652143 r2 a4a3 r6 e1d1\n",
        &[
            "--game",
            "einstein",
            "--to",
            "positions",
            "--analyse",
            "depth=2",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 6, "{stdout}");
    let mut rolls = 0;
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 10, "{stdout}");
        for column in [4, 5, 8, 9] {
            assert!(!row[column].is_empty(), "{stdout}");
        }
        let roll = row[3].starts_with('r');
        assert_eq!(row[7].is_empty(), roll, "{stdout}");
        if roll {
            rolls += 1;
            let number = |column: usize| row[column].parse::<i64>().unwrap();
            assert_eq!(number(9), number(4) - number(8), "{stdout}");
            // The roller moves next: the next row's score, same depth.
            assert_eq!(row[8], rows[i + 1][4], "{stdout}");
        }
    }
    assert_eq!(rolls, 2, "{stdout}");
}

/// A `position` line is of the config file's game where `--game` names
/// none (`plyd perft` took it, `plyd record` asked for `--game`); the
/// records that say their game keep it.
#[test]
fn position_lines_are_of_the_configured_game() {
    let plugins = plugin_dir(&[
        ("plyd_game_amazons", "amazons"),
        ("plyd_game_othello", "othello"),
    ]);
    let dir = TempDir::new("records-config-game");
    let config = dir.path().join("event.toml");
    std::fs::write(&config, "game = \"amazons\"\n").unwrap();
    let lines = dir.path().join("game.txt");
    std::fs::write(&lines, "position startpos moves d1d8i3\n").unwrap();
    let transcript = dir.path().join("t.txt");
    std::fs::write(&transcript, "f5d6\n").unwrap();
    let (config, lines, transcript) = (
        config.to_str().unwrap(),
        lines.to_str().unwrap(),
        transcript.to_str().unwrap(),
    );
    let out = run_plyd(
        plugins.path(),
        &["record", "--config", config, lines, transcript],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves d1d8i3\nposition startpos moves f5 d6\n"
    );
    let out = run_plyd(plugins.path(), &["record", lines]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("names no game: give it with --game"));
}

/// An operator's games, kept as `position` lines, written as the
/// championship's records with the names, event, place and result the
/// record needs (they were written empty, `#[AM][][][后手胜][][];`).
#[test]
fn a_record_written_takes_the_header_given() {
    let plugins = plugin_dir(&[("plyd_game_amazons", "amazons")]);
    let dir = TempDir::new("records-header");
    let lines = dir.path().join("game.txt");
    std::fs::write(&lines, "position startpos moves d1d8i3\n").unwrap();
    let lines = lines.to_str().unwrap();
    let out = run_plyd(
        plugins.path(),
        &[
            "--game",
            "amazons",
            "record",
            "--to",
            "ccgc",
            "--header",
            "first=plyd",
            "--header",
            "second=Team B",
            "--header",
            "event=2026 CCGC",
            "--header",
            "place=2026.12.07 Shenyang",
            "--header",
            "result=second",
            lines,
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(
            "#[AM][plyd][Team B][后手胜][2026.12.07 Shenyang][2026 CCGC];\n1 d1d8(i3)"
        ),
        "{}",
        text(&out.stdout)
    );
    // With no record to write, a header is refused rather than dropped.
    let out = run_plyd(
        plugins.path(),
        &[
            "--game",
            "amazons",
            "record",
            "--header",
            "first=plyd",
            lines,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("give --to FORMAT"));
    for bad in ["result=maybe", "round=3", "=x"] {
        let out = run_plyd(
            plugins.path(),
            &[
                "--game", "amazons", "record", "--to", "ccgc", "--header", bad, lines,
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty(), "{bad}");
    }
}

/// `--analyse` with a record format: each move's verdict a comment after
/// it, the record's own comments kept.
#[test]
fn an_analysis_is_written_into_the_record_as_comments() {
    let plugins = plugin_dir(&[("plyd_game_xiangqi", "xiangqi")]);
    let dir = TempDir::new("records-analysis-pgn");
    let file = dir.path().join("game.pgn");
    std::fs::write(
        &file,
        "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. 炮二平五 {中炮} 马８进７ 2. 马二进三 *\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let out = run_plyd(
        plugins.path(),
        &[
            "record",
            "--to",
            "pgn-chinese",
            "--analyse",
            "depth=3",
            file,
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pgn = text(&out.stdout);
    // Three moves, three verdicts: a best move's own score, or the best
    // move with the played one's score and the loss.
    let verdicts = pgn.matches(", best}").count() + pgn.matches(", loss ").count();
    assert_eq!(verdicts, 3, "{pgn}");
    assert!(pgn.contains("炮二平五 {中炮} {"), "{pgn}");
    // A best move other than the played one is written in the record's
    // notation, Chinese here: no ICCS move in the comments.
    let bests: Vec<&str> = pgn
        .split('{')
        .filter_map(|c| c.strip_prefix("best "))
        .map(|c| c.split(' ').next().unwrap())
        .collect();
    assert!(!bests.is_empty(), "{pgn}");
    for best in bests {
        assert_eq!(best.chars().count(), 4, "{pgn}");
        assert!(!best.is_ascii(), "{pgn}");
    }
    // The record written reads back, comments and all.
    let back = dir.path().join("back.pgn");
    std::fs::write(&back, &pgn).unwrap();
    let out = run_plyd(plugins.path(), &["record", back.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "position startpos moves h2e2 h9g7 h0g2\n"
    );
    // A format that keeps no comments is refused.
    let out = run_plyd(
        plugins.path(),
        &[
            "--game",
            "xiangqi",
            "record",
            "--to",
            "ccgc",
            "--analyse",
            "depth=3",
            file,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
}

/// A PGN `Result` tag in words plyd does not read is named, where it was
/// dropped without a word.
#[test]
fn an_unread_result_tag_is_named() {
    let out = record_of(
        "plyd_game_xiangqi",
        "xiangqi",
        "game.pgn",
        "[Game \"Chinese Chess\"]\n[Result \"1:0\"]\n\n1. 炮二平五 马８进７\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "position startpos moves h2e2 h9g7\n");
    assert!(
        text(&out.stderr).contains("its result '1:0' is none plyd reads"),
        "{}",
        text(&out.stderr)
    );
}

/// Lines ended by a lone carriage return (the classic Mac's) read as lines
/// ended by `\n` do: a `;` comment ends with its line, and a file of bare
/// moves reads (the comment swallowed the moves after it, and the bare
/// moves were refused).
#[test]
fn lines_ended_by_a_lone_carriage_return_read_as_lines() {
    for (body, expected) in [
        (
            "[Game \"Chinese Chess\"]\r[Result \"1-0\"]\r\r1. 炮二平五 马８进７ ; note\r2. 马二进三 车９平８ 1-0\r",
            "position startpos moves h2e2 h9g7 h0g2 i9h9\n",
        ),
        (
            "[Game \"Chinese Chess\"]\r\r1. h2e2 h9g7 2. h0g2 h7h0 1-0\r",
            "position startpos moves h2e2 h9g7 h0g2 h7h0\n",
        ),
    ] {
        let out = record_of("plyd_game_xiangqi", "xiangqi", "mac.pgn", body);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), expected);
    }
}

/// A CCGC header's result word: a resignation or a time loss is read as
/// the other side's win, a word plyd does not know is named on stderr
/// (it became `?` without a word), and a bracket inside a name stays in
/// the name (every later field shifted by one, the result lost).
#[test]
fn ccgc_result_words_and_brackets_in_names() {
    let moves = "1 g1i1(h1) d10f10(f3)\n";
    let out = record_with(
        "plyd_game_amazons",
        "amazons",
        "resigned.txt",
        format!("#[AM][a][b][先手认输][d][e];\n{moves}"),
        &["--to", "ccgc"],
    );
    assert!(
        text(&out.stdout).starts_with("#[AM][a][b][后手胜][d][e];"),
        "{}",
        text(&out.stdout)
    );
    let out = record_with(
        "plyd_game_amazons",
        "amazons",
        "unknown.txt",
        format!("#[AM][a][b][先手弃权][d][e];\n{moves}"),
        &["--to", "ccgc"],
    );
    assert!(
        text(&out.stderr).contains("record 1: its result '先手弃权' is none plyd reads"),
        "{}",
        text(&out.stderr)
    );
    let out = record_with(
        "plyd_game_amazons",
        "amazons",
        "bracket.txt",
        format!("#[AM][a][Team [B]][先手胜][2026 place][event];\n{moves}"),
        &["--to", "ccgc"],
    );
    assert!(
        text(&out.stdout).starts_with("#[AM][a][Team (B)][先手胜][2026 place][event];"),
        "{}",
        text(&out.stdout)
    );
}

/// Comments a format has no place for (GGF) are counted on stderr when
/// left out, not dropped unseen; SGF keeps them and says nothing.
#[test]
fn comments_a_format_cannot_hold_are_said_to_be_left_out() {
    let sgf = "(;GM[2]FF[4]SZ[8]PB[a]PW[b];B[fe]C[keep me];W[df])\n";
    let out = record_with(
        "plyd_game_othello",
        "othello",
        "c.sgf",
        sgf,
        &["--to", "ggf"],
    );
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("record 1: 1 comment left out (ggf has no place for them)"),
        "{}",
        text(&out.stderr)
    );
    let out = record_with(
        "plyd_game_othello",
        "othello",
        "c.sgf",
        sgf,
        &["--to", "sgf"],
    );
    assert!(text(&out.stdout).contains("C[keep me]"));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

/// A PGN game's variations, not read without `--variations`, are counted
/// on stderr, not dropped unseen.
#[test]
fn variations_left_out_are_said() {
    let pgn = "[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 (1... h7e7) 2. h0g2 (2. b0c2) *\n";
    let out = record_of("plyd_game_xiangqi", "xiangqi", "var.pgn", pgn);
    assert_eq!(
        text(&out.stdout),
        "position startpos moves h2e2 h9g7 h0g2\n"
    );
    assert!(
        text(&out.stderr).contains("record 1: 2 variations left out (only the main line is read"),
        "{}",
        text(&out.stderr)
    );
    let out = record_with(
        "plyd_game_xiangqi",
        "xiangqi",
        "var.pgn",
        pgn,
        &["--variations"],
    );
    assert!(
        !text(&out.stderr).contains("left out"),
        "{}",
        text(&out.stderr)
    );
}

/// A record that plays on past a position plyd's rules judge (a
/// repetition its arbiter ruled otherwise) says where and what plyd
/// judged, and still replays to its end.
#[test]
fn a_record_played_past_a_verdict_says_so() {
    let cycle = "a8a9 e9e8 a9a8 e8e9";
    let pgn = format!(
        "[Game \"Chinese Chess\"]\n[FEN \"4ka3/R8/4n4/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\
         [Result \"1/2-1/2\"]\n\n{cycle} {cycle} d0e0 f9e8 1/2-1/2\n"
    );
    let out = record_of("plyd_game_xiangqi", "xiangqi", "past.pgn", pgn);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with(" d0e0 f9e8\n"));
    assert!(
        text(&out.stderr).contains(
            "; plyd's rules judge the position after its 8 plies: the side to move has \
             lost (third repetition, Red checked perpetually); the record plays on to its 10 \
             plies (its arbiter ruled otherwise)"
        ),
        "{}",
        text(&out.stderr)
    );
}
