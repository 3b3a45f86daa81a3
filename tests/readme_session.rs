//! The protocol session printed in the README, replayed against the real
//! binary installed the way the README installs it (plugins next to the
//! executable, no plugin path set). Every line must match, except the
//! `time` and `nps` figures, which depend on the machine.

use std::time::Duration;

use crate::common::{built_library, plyd_bin, Engine, TempDir};

/// One step of the transcript: a line typed, and the lines plyd answers.
struct Step {
    input: String,
    output: Vec<String>,
}

fn readme_session() -> Vec<Step> {
    let readme = include_str!("../README.md");
    let section = readme
        .split("## A session")
        .nth(1)
        .expect("a session section");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a text block in the session section");
    let mut steps: Vec<Step> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("> ") {
            Some(input) => steps.push(Step {
                input: input.to_string(),
                output: Vec::new(),
            }),
            None => steps
                .last_mut()
                .expect("the session starts with input")
                .output
                .push(line.to_string()),
        }
    }
    steps
}

/// Blank out the machine-dependent numbers and the version.
fn normalise(line: &str) -> String {
    let mut out = Vec::new();
    let mut blank_next = false;
    for token in line.split(' ') {
        if blank_next {
            out.push("*");
            blank_next = false;
            continue;
        }
        blank_next = line.starts_with("info ") && matches!(token, "time" | "nps");
        out.push(token);
    }
    out.join(" ").replace(
        &format!("plyd {}", env!("CARGO_PKG_VERSION")),
        "plyd <version>",
    )
}

#[test]
fn the_readme_session_is_what_plyd_answers() {
    let install = TempDir::new("install");
    let binary = install.path().join("plyd");
    std::fs::copy(plyd_bin(), &binary).unwrap();
    // What `cargo build --release --workspace` leaves next to the binary
    // and plyd loads: the four games' plugins and the stand-alone
    // evaluator plugin (the test plugins' files are named otherwise).
    for crate_name in [
        "plyd_game_othello",
        "plyd_game_xiangqi",
        "plyd_game_amazons",
        "plyd_game_einstein",
        "plyd_eval_othello_weights",
    ] {
        let library = built_library(crate_name);
        std::fs::copy(&library, install.path().join(library.file_name().unwrap())).unwrap();
    }

    let steps = readme_session();
    assert!(
        steps.len() >= 8,
        "the README session is too short to be a demo"
    );
    let mut e = Engine::start_installed(&binary);
    for step in &steps {
        e.send(&step.input);
        for expected in &step.output {
            let got = e
                .next_line(Duration::from_secs(60))
                .unwrap_or_else(|| panic!("no answer to '{}'; expected '{expected}'", step.input));
            assert_eq!(
                normalise(&got),
                normalise(expected),
                "answer to '{}'",
                step.input
            );
        }
    }
    let last = steps.last().unwrap();
    assert_eq!(last.input, "quit");
    assert!(e
        .wait_exit(Duration::from_secs(60))
        .expect("plyd exits")
        .success());
}
