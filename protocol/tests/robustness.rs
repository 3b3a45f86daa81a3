//! Property-style checks: `parse_line` must never panic, whatever a GUI (or a
//! person typing at the console) sends, and its answers must not depend on
//! how tokens are spaced.

use plyd_protocol::{parse_line, Command, ParseError};

/// Lines chosen to poke at edges: blank, odd whitespace, lone keywords,
/// non-ASCII text, huge numbers and very long lines.
fn odd_lines() -> Vec<String> {
    let mut lines: Vec<String> = [
        "",
        " ",
        "\t",
        "\r",
        "\n",
        "\r\n",
        "\u{b}\u{c}",
        "\0",
        "\u{a0}",
        "\u{feff}uci",
        "uci\u{a0}",
        "日本語",
        "go depth ５",
        "setoption name 名前 value 値",
        "position fen ♜♞♝ moves ♙",
        "🦀 go 🦀 depth 3 🦀",
        "go",
        "go go go",
        "go searchmoves",
        "go searchmoves searchmoves",
        "go perft",
        "go perft perft",
        "go depth",
        "go depth -",
        "go depth +",
        "go depth --1",
        "go wtime -",
        "go nodes 99999999999999999999999999999999",
        "go wtime -99999999999999999999999999999999",
        "debug",
        "debug debug",
        "setoption",
        "setoption name",
        "setoption value",
        "setoption name value",
        "setoption value name",
        "register",
        "register name",
        "register code",
        "register later later",
        "position",
        "position fen",
        "position moves",
        "position startpos moves moves",
        "position fen moves moves",
        "bench",
        "bench -",
        "bench +",
        "bench -0",
        "bench 99999999999999999999",
        "moves",
        "name",
        "value",
        "startpos",
        "fen",
        "searchmoves",
        "ponder",
        "infinite",
        "later",
        "d d d",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    lines.push("x".repeat(1 << 20));
    lines.push("go ".repeat(100_000));
    lines.push(format!("go searchmoves {}", "e2e4 ".repeat(100_000)));
    lines.push(format!(
        "position startpos moves {}",
        "a1a2 ".repeat(100_000)
    ));
    lines.push(format!(
        "setoption name {}value {}",
        "n ".repeat(50_000),
        "v ".repeat(50_000)
    ));
    lines.push(format!("{}uci", " \t".repeat(100_000)));
    lines.push(format!("go depth {}", "9".repeat(10_000)));
    lines
}

/// Every word the parser treats specially, plus a few strangers, so random
/// lines built from them hit the interesting paths often.
const VOCABULARY: &[&str] = &[
    "uci",
    "debug",
    "on",
    "off",
    "isready",
    "setoption",
    "name",
    "value",
    "register",
    "later",
    "code",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "bench",
    "0",
    "1",
    "-1",
    "42",
    "4294967296",
    "e2e4",
    "x",
    "日本",
    "",
    "\r",
    "\t",
];

/// A small deterministic generator (xorshift64), so failures reproduce
/// without pulling in a random-number crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_tokens(rng: &mut XorShift) -> Vec<&'static str> {
    let len = rng.below(12);
    (0..len)
        .map(|_| VOCABULARY[rng.below(VOCABULARY.len())])
        .collect()
}

/// Join tokens with a random run of spaces and tabs between them, and maybe
/// some before, after, and a line ending.
fn spaced(tokens: &[&str], rng: &mut XorShift) -> String {
    const GAPS: &[&str] = &[" ", "  ", "\t", " \t ", "\t\t"];
    const ENDS: &[&str] = &["", "\n", "\r\n", "\r", " \r\n"];
    let mut line = String::new();
    if rng.below(2) == 0 {
        line.push_str(GAPS[rng.below(GAPS.len())]);
    }
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            line.push_str(GAPS[rng.below(GAPS.len())]);
        }
        line.push_str(token);
    }
    line.push_str(ENDS[rng.below(ENDS.len())]);
    line
}

/// What must hold for any line at all.
fn check_invariants(line: &str) {
    let result = parse_line(line);
    let blank = line.bytes().all(|b| b.is_ascii_whitespace());
    assert_eq!(
        matches!(result, Ok(None)),
        blank,
        "blank line {blank} but got {result:?}"
    );
    if let Err(error) = &result {
        // Error text is sent back as `info string error: ...`, so it must be
        // one line too.
        let text = error.to_string();
        assert!(!text.contains(['\r', '\n']), "error text {text:?}");
        if let ParseError::UnknownCommand(first) = error {
            assert_eq!(Some(first.as_str()), line.split_ascii_whitespace().next());
        }
    }
}

#[test]
fn odd_lines_never_panic() {
    for line in odd_lines() {
        check_invariants(&line);
    }
}

#[test]
fn random_lines_never_panic() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let tokens = random_tokens(&mut rng);
        check_invariants(&spaced(&tokens, &mut rng));
    }
}

#[test]
fn spacing_does_not_change_the_result() {
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    for _ in 0..20_000 {
        let tokens = random_tokens(&mut rng);
        let plain = tokens.join(" ");
        let spaced = spaced(&tokens, &mut rng);
        assert_eq!(
            parse_line(&plain),
            parse_line(&spaced),
            "{plain:?} vs {spaced:?}"
        );
    }
}

#[test]
fn a_leading_unknown_token_does_not_change_a_command() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for _ in 0..20_000 {
        let line = random_tokens(&mut rng).join(" ");
        let plain = parse_line(&line);
        let prefixed = parse_line(&format!("joho {line}"));
        match plain {
            Ok(Some(_)) => assert_eq!(plain, prefixed, "{line:?}"),
            Ok(None) => assert_eq!(prefixed, Err(ParseError::UnknownCommand("joho".into()))),
            // An error stays an error; only `UnknownCommand` names the new
            // first token.
            Err(ParseError::UnknownCommand(_)) => {
                assert_eq!(prefixed, Err(ParseError::UnknownCommand("joho".into())));
            }
            Err(_) => assert_eq!(plain, prefixed, "{line:?}"),
        }
    }
}

#[test]
fn lone_command_words_parse() {
    // Words that are a whole command on their own.
    for (word, expected) in [
        ("uci", Command::Uci),
        ("isready", Command::IsReady),
        ("ucinewgame", Command::UciNewGame),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit),
        ("quit", Command::Quit),
        ("d", Command::Display),
        ("eval", Command::Eval),
        (
            "bench",
            Command::Bench {
                game: None,
                depth: None,
                skipped: Vec::new(),
            },
        ),
        ("go", Command::Go(Default::default())),
    ] {
        assert_eq!(parse_line(word), Ok(Some(expected)), "{word}");
    }
    // Words that need more.
    for word in ["debug", "setoption", "register", "position"] {
        assert!(
            matches!(parse_line(word), Err(ParseError::MissingArgument { .. })),
            "{word}"
        );
    }
}
