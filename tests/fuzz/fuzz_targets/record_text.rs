//! Game records (`plyd record`): any text reads as a game or gives an
//! error, never a panic; a xiangqi PGN game that reads is written again
//! in ICCS and in Chinese notation and reads back to the same moves, and an Othello transcript
//! gives one move per square it holds. Bytes that start as an XQF file
//! read as one or give an error; a game that reads is written as PGN and
//! reads back to the same moves, start and result (what `plyd record`
//! does with it). Bytes that are a WTHOR games file read as its games or
//! give an error; each game written as GGF reads back to the same moves,
//! result and margin. Bytes that start as a CCBridge game (CBR) or
//! library (CBL) read as the XQF file does (a CBR game's bytes are also
//! read as the records of a small library built around them); an XQF or CBR game read with
//! its variations starts with the same main line, and every line writes
//! and reads back; a PGN game's variations, written as games, start with
//! its main line, which reads to the game's moves. The lines of an XQF or
//! CBR game, written back as one game with its variations (PGN in both
//! notations, XQF), read back to the same lines (those no other line
//! begins with), the main line first, with their comments; a game's
//! comments read back wherever it is written. An Othello game written as
//! SGF reads back to its start, its number of moves and its comments.
#![no_main]

use plyd_protocol::{
    is_cbl, is_cbr, is_wthor, is_xqf, pgn_variations, read_cbl, read_cbl_variations, read_cbr,
    read_cbr_variations, read_record, read_wthor, read_xqf, read_xqf_variations, transcript_moves,
    write_record, write_record_tree, write_xqf_tree, RecordFormat, RecordGame,
};

fn rewritten(game: &RecordGame) {
    let iccs = RecordFormat::XiangqiPgn {
        ranks_from_one: false,
    };
    for format in [iccs, RecordFormat::XiangqiPgnChinese] {
        let written = write_record(format, game).expect("a game read writes");
        let (again, back) = read_record(&written).expect("a written game reads");
        assert_eq!(again, "xiangqi");
        assert_eq!(back.moves, game.moves, "{written}");
        assert_eq!(back.start, game.start, "{written}");
        assert_eq!(back.result, game.result, "{written}");
        assert_eq!(back.comments, game.comments, "{written}");
    }
}

/// An Othello game that reads and writes as SGF reads back to the same
/// start and as many moves, with its comments (those on one position one
/// comment, a blank line apart), and writes again the same.
fn othello_rewritten(game: &RecordGame) {
    let Ok(written) = write_record(RecordFormat::Sgf, game) else {
        return;
    };
    let (again, back) = read_record(&written).expect("a written game reads");
    assert_eq!(again, "othello");
    assert_eq!(back.moves.len(), game.moves.len(), "{written}");
    assert_eq!(back.start, game.start, "{written}");
    let mut joined: Vec<(usize, String)> = Vec::new();
    for (at, text) in &game.comments {
        match joined.last_mut() {
            Some((last, kept)) if last == at => *kept = format!("{kept}\n\n{text}"),
            _ => joined.push((*at, text.clone())),
        }
    }
    assert_eq!(back.comments, joined, "{written}");
    assert_eq!(
        write_record(RecordFormat::Sgf, &back).as_ref(),
        Ok(&written)
    );
}

/// `games` (a game's lines, the main line first) written as one game with
/// variations, in each format that holds them, read back: the lines no
/// other line begins with, their moves and comments.
fn tree_rewritten(games: &[RecordGame]) {
    let (main, variations) = games.split_first().expect("a game has its main line");
    let line = |g: &RecordGame| (g.moves.clone(), g.comments.clone());
    // Each kept line's comments: at each position, those of the first
    // line through it that has some there (lines may share a position
    // and differ in its comments).
    let comments_along = |moves: &[String]| -> Vec<(usize, String)> {
        (0..=moves.len())
            .flat_map(|ply| {
                let first = games.iter().find(|g| {
                    g.moves.starts_with(&moves[..ply]) && g.comments.iter().any(|c| c.0 == ply)
                });
                first
                    .into_iter()
                    .flat_map(move |g| g.comments.iter().filter(move |c| c.0 == ply).cloned())
            })
            .collect()
    };
    let mut kept: Vec<_> = games
        .iter()
        .filter(|l| {
            !games
                .iter()
                .any(|o| o.moves.len() > l.moves.len() && o.moves.starts_with(&l.moves))
        })
        .map(|g| (g.moves.clone(), comments_along(&g.moves)))
        .collect();
    kept.sort();
    kept.dedup();
    let check = |back: Vec<RecordGame>, written: &dyn std::fmt::Debug| {
        assert!(back[0].moves.starts_with(&main.moves), "{written:?}");
        let mut back: Vec<_> = back.iter().map(line).collect();
        back.sort();
        assert_eq!(back, kept, "{written:?}");
    };
    let iccs = RecordFormat::XiangqiPgn {
        ranks_from_one: false,
    };
    for format in [iccs, RecordFormat::XiangqiPgnChinese] {
        let written = write_record_tree(format, main, variations).expect("a game read writes");
        let lines = match pgn_variations(&written).expect("a written game reads") {
            Some(lines) => lines,
            None => vec![written.clone()],
        };
        let back = lines
            .iter()
            .map(|line| read_record(line).expect("a written line reads").1)
            .collect();
        check(back, &written);
    }
    // XQF holds at most the pieces of a set (a CBR board may hold more).
    let same = |text: &str| text.as_bytes().to_vec();
    let Ok(written) = write_xqf_tree(main, variations, &same) else {
        return;
    };
    let lossy = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let back = read_xqf_variations(&written, &lossy).expect("a written tree reads");
    check(back, &written);
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if is_wthor(data) {
        if let Ok(games) = read_wthor(data, &[], &[]) {
            for game in games {
                let written = write_record(RecordFormat::Ggf, &game).expect("a game read writes");
                let (again, back) = read_record(&written).expect("a written game reads");
                assert_eq!(again, "othello");
                assert_eq!(back.moves, game.moves, "{written}");
                assert_eq!(back.result, game.result, "{written}");
                assert_eq!(back.margin, game.margin, "{written}");
            }
        }
        return;
    }
    if is_xqf(data) {
        let lossy = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        if let Ok(game) = read_xqf(data, &lossy) {
            rewritten(&game);
            // With its variations (which may not read where the main
            // line does): the same main line first.
            if let Ok(games) = read_xqf_variations(data, &lossy) {
                assert_eq!(games[0], game);
                games.iter().for_each(rewritten);
                tree_rewritten(&games);
            }
        }
        return;
    }
    if is_cbr(data) {
        if let Ok(game) = read_cbr(data) {
            rewritten(&game);
            if let Ok(games) = read_cbr_variations(data) {
                assert_eq!(games[0], game);
                games.iter().for_each(rewritten);
                tree_rewritten(&games);
            }
        }
        // The same bytes as a library's records (a library is larger
        // than the inputs tried): an index of two entries whose flags
        // and blocks come from the game's spare header bytes, the game
        // in the first, the rest of the blocks zeros.
        if data.len() < 25 {
            return;
        }
        let mut library = vec![0u8; 66_624 + 2 * 276];
        library[..16].copy_from_slice(b"CCBridgeLibrary\0");
        library[60] = 2;
        let mut blocks = 0;
        for entry in 0..2 {
            let at = 66_624 + entry * 276;
            library[at] = data[20 + entry] & 0x07;
            library[at + 8] = data[22 + entry] % 3;
            blocks += usize::from(library[at + 8]);
        }
        library.extend(data.iter().take(blocks * 4096));
        let short = usize::from(blocks > 0 && data[24] % 2 == 1);
        library.resize(66_624 + 2 * 276 + blocks * 4096 - short, 0);
        let read = read_cbl(&library).expect("a library's header reads");
        let games = read.games.len() + read.headings.len() + read.deleted;
        assert!(games <= 2, "{read:?}");
        if let Ok(all) = read_cbl_variations(&library) {
            assert!(all.games.len() >= read.games.len());
        }
        return;
    }
    if is_cbl(data) {
        if let Ok(library) = read_cbl_variations(data) {
            for game in library.games.into_iter().filter_map(|(_, game)| game.ok()) {
                rewritten(&game);
            }
        }
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(moves) = transcript_moves(text) {
        // Every word but the move numbers (`2.`) is squares run together.
        let move_number = |word: &str| {
            let digits = word.trim_end_matches('.');
            digits.len() < word.len()
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
        };
        let squares: usize = text
            .split_ascii_whitespace()
            .filter(|word| !move_number(word))
            .map(|word| word.chars().count())
            .sum();
        assert_eq!(moves.len() * 2, squares);
    }
    // A PGN game's variations are games of their own, the main line's
    // first: it reads as the game does.
    let lines = pgn_variations(text);
    let Ok((variant, game)) = read_record(text) else {
        return;
    };
    if variant == "xiangqi" {
        rewritten(&game);
    }
    if variant == "othello" {
        othello_rewritten(&game);
    }
    if let Ok(Some(lines)) = lines {
        let (_, main) = read_record(&lines[0]).expect("the main line reads as its game");
        assert_eq!(main.moves, game.moves, "{}", lines[0]);
        for line in &lines[1..] {
            let _ = read_record(line);
        }
    }
});
