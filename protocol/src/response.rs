//! Formatting of the lines the engine sends to the GUI.

use std::fmt;

/// Type and limits of an option, as announced by `option name .. type ..`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default <bool>`.
    Check {
        /// Default value.
        default: bool,
    },
    /// `type spin default <n> min <lo> max <hi>`.
    Spin {
        /// Default value.
        default: i64,
        /// Lowest value.
        min: i64,
        /// Highest value.
        max: i64,
    },
    /// `type combo default <x> var <a> var <b> ...`.
    Combo {
        /// Default value.
        default: String,
        /// Allowed values.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default <x>` (`<empty>` for an empty default).
    String {
        /// Default value.
        default: String,
    },
}

/// One `option` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option's name.
    pub name: String,
    /// Its type and limits.
    pub kind: OptionKind,
}

/// A search score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// `cp <n>`: in the evaluator's units.
    Cp(i32),
    /// `mate <n>`: moves to a won end (negative: the engine is being beaten).
    Mate(i32),
}

/// Whether a score is exact or a bound (`lowerbound` / `upperbound`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// An `info` line. Fields that are `None` (or an empty `pv`) are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score cp|mate <n> [lowerbound|upperbound]`.
    pub score: Option<(Score, Option<Bound>)>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull` (per mille).
    pub hashfull: Option<u32>,
    /// `time` in milliseconds.
    pub time_ms: Option<u64>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
    /// `pv <m1> <m2> ...`.
    pub pv: Vec<String>,
    /// `string <text>`: always last on the line.
    pub string: Option<String>,
}

/// One line from the engine to the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    /// `id name <x>`.
    IdName(String),
    /// `id author <x>`.
    IdAuthor(String),
    /// `option name <x> type ...`.
    Option(OptionDecl),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...`.
    Info(Info),
    /// `bestmove <m> [ponder <p>]`; `bestmove (none)` when `best` is `None`.
    BestMove {
        /// The move, or `None` when there is no legal move.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
    },
}

impl Response {
    /// An `info string <text>` line.
    pub fn info_string(text: impl Into<String>) -> Self {
        Response::Info(Info {
            string: Some(text.into()),
            ..Info::default()
        })
    }
}

/// Writes text with every `'\r'` and `'\n'` replaced by a space.
///
/// The GUI reads one response per line, so a line break inside a name, a move
/// or an `info string` would split it and the GUI would try to read the rest
/// as a second response.
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, piece) in self.0.split(['\r', '\n']).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(piece)?;
        }
        Ok(())
    }
}

impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Check { default } => write!(f, "type check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "type combo default {}", OneLine(default))?;
                for var in vars {
                    write!(f, " var {}", OneLine(var))?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("type button"),
            // An empty default would leave "default" with nothing after it,
            // which the UCI text spells `<empty>`.
            OptionKind::String { default } if default.is_empty() => {
                f.write_str("type string default <empty>")
            }
            OptionKind::String { default } => write!(f, "type string default {}", OneLine(default)),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(depth) = self.depth {
            write!(f, " depth {depth}")?;
        }
        if let Some(seldepth) = self.seldepth {
            write!(f, " seldepth {seldepth}")?;
        }
        if let Some(multipv) = self.multipv {
            write!(f, " multipv {multipv}")?;
        }
        if let Some((score, bound)) = self.score {
            match score {
                Score::Cp(cp) => write!(f, " score cp {cp}")?,
                Score::Mate(moves) => write!(f, " score mate {moves}")?,
            }
            match bound {
                Some(Bound::Lower) => f.write_str(" lowerbound")?,
                Some(Bound::Upper) => f.write_str(" upperbound")?,
                None => {}
            }
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes {nodes}")?;
        }
        if let Some(nps) = self.nps {
            write!(f, " nps {nps}")?;
        }
        if let Some(hashfull) = self.hashfull {
            write!(f, " hashfull {hashfull}")?;
        }
        if let Some(time) = self.time_ms {
            write!(f, " time {time}")?;
        }
        if let Some(currmove) = &self.currmove {
            write!(f, " currmove {}", OneLine(currmove))?;
        }
        if let Some(number) = self.currmovenumber {
            write!(f, " currmovenumber {number}")?;
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {}", OneLine(mv))?;
            }
        }
        // `string` must be last: the GUI takes everything after it, to the
        // end of the line, as the text.
        if let Some(text) = &self.string {
            write!(f, " string {}", OneLine(text))?;
        }
        Ok(())
    }
}

/// Formats exactly one line, without the line ending; the writer adds it.
impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(name) => write!(f, "id name {}", OneLine(name)),
            Response::IdAuthor(author) => write!(f, "id author {}", OneLine(author)),
            Response::Option(decl) => {
                write!(f, "option name {} {}", OneLine(&decl.name), decl.kind)
            }
            Response::UciOk => f.write_str("uciok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::Info(info) => info.fmt(f),
            // `(none)` is what GUIs accept when there is no legal move; a
            // ponder move makes no sense without a best move, so it is dropped.
            Response::BestMove { best: None, .. } => f.write_str("bestmove (none)"),
            Response::BestMove {
                best: Some(best),
                ponder,
            } => {
                write!(f, "bestmove {}", OneLine(best))?;
                if let Some(ponder) = ponder {
                    write!(f, " ponder {}", OneLine(ponder))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(name: &str, kind: OptionKind) -> String {
        Response::Option(OptionDecl {
            name: name.to_owned(),
            kind,
        })
        .to_string()
    }

    fn info(info: Info) -> String {
        Response::Info(info).to_string()
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn id_lines() {
        assert_eq!(
            Response::IdName("plyd 0.1".into()).to_string(),
            "id name plyd 0.1"
        );
        assert_eq!(
            Response::IdAuthor("The plyd authors".into()).to_string(),
            "id author The plyd authors"
        );
    }

    #[test]
    fn uciok_and_readyok() {
        assert_eq!(Response::UciOk.to_string(), "uciok");
        assert_eq!(Response::ReadyOk.to_string(), "readyok");
    }

    #[test]
    fn option_check() {
        assert_eq!(
            option("Ponder", OptionKind::Check { default: true }),
            "option name Ponder type check default true"
        );
        assert_eq!(
            option("UCI_ShowCurrLine", OptionKind::Check { default: false }),
            "option name UCI_ShowCurrLine type check default false"
        );
    }

    #[test]
    fn option_spin() {
        assert_eq!(
            option(
                "Hash",
                OptionKind::Spin {
                    default: 16,
                    min: 1,
                    max: 1024,
                }
            ),
            "option name Hash type spin default 16 min 1 max 1024"
        );
        assert_eq!(
            option(
                "Contempt",
                OptionKind::Spin {
                    default: -10,
                    min: -100,
                    max: 100,
                }
            ),
            "option name Contempt type spin default -10 min -100 max 100"
        );
    }

    #[test]
    fn option_combo() {
        assert_eq!(
            option(
                "Style",
                OptionKind::Combo {
                    default: "Normal".into(),
                    vars: strings(&["Solid", "Normal", "Risky"]),
                }
            ),
            "option name Style type combo default Normal var Solid var Normal var Risky"
        );
        assert_eq!(
            option(
                "Empty",
                OptionKind::Combo {
                    default: "x".into(),
                    vars: vec![],
                }
            ),
            "option name Empty type combo default x"
        );
    }

    #[test]
    fn option_button() {
        assert_eq!(
            option("Clear Hash", OptionKind::Button),
            "option name Clear Hash type button"
        );
    }

    #[test]
    fn option_string() {
        assert_eq!(
            option(
                "NalimovPath",
                OptionKind::String {
                    default: "c:\\tb".into(),
                }
            ),
            "option name NalimovPath type string default c:\\tb"
        );
        assert_eq!(
            option(
                "Book File",
                OptionKind::String {
                    default: String::new(),
                }
            ),
            "option name Book File type string default <empty>"
        );
    }

    #[test]
    fn empty_info() {
        assert_eq!(info(Info::default()), "info");
    }

    #[test]
    fn info_every_field_in_order() {
        let full = Info {
            depth: Some(12),
            seldepth: Some(20),
            multipv: Some(2),
            score: Some((Score::Cp(35), None)),
            nodes: Some(123_456),
            nps: Some(1_000_000),
            hashfull: Some(512),
            time_ms: Some(1234),
            currmove: Some("e2e4".into()),
            currmovenumber: Some(1),
            pv: strings(&["e2e4", "e7e5", "g1f3"]),
            string: Some("hello world".into()),
        };
        assert_eq!(
            info(full),
            "info depth 12 seldepth 20 multipv 2 score cp 35 nodes 123456 nps 1000000 \
             hashfull 512 time 1234 currmove e2e4 currmovenumber 1 pv e2e4 e7e5 g1f3 \
             string hello world"
        );
    }

    #[test]
    fn info_each_field_alone() {
        let cases: Vec<(Info, &str)> = vec![
            (
                Info {
                    depth: Some(1),
                    ..Info::default()
                },
                "info depth 1",
            ),
            (
                Info {
                    seldepth: Some(2),
                    ..Info::default()
                },
                "info seldepth 2",
            ),
            (
                Info {
                    multipv: Some(3),
                    ..Info::default()
                },
                "info multipv 3",
            ),
            (
                Info {
                    score: Some((Score::Cp(-4), None)),
                    ..Info::default()
                },
                "info score cp -4",
            ),
            (
                Info {
                    nodes: Some(5),
                    ..Info::default()
                },
                "info nodes 5",
            ),
            (
                Info {
                    nps: Some(6),
                    ..Info::default()
                },
                "info nps 6",
            ),
            (
                Info {
                    hashfull: Some(7),
                    ..Info::default()
                },
                "info hashfull 7",
            ),
            (
                Info {
                    time_ms: Some(8),
                    ..Info::default()
                },
                "info time 8",
            ),
            (
                Info {
                    currmove: Some("a1a2".into()),
                    ..Info::default()
                },
                "info currmove a1a2",
            ),
            (
                Info {
                    currmovenumber: Some(9),
                    ..Info::default()
                },
                "info currmovenumber 9",
            ),
            (
                Info {
                    pv: strings(&["a1a2"]),
                    ..Info::default()
                },
                "info pv a1a2",
            ),
            (
                Info {
                    string: Some("text".into()),
                    ..Info::default()
                },
                "info string text",
            ),
        ];
        for (value, expected) in cases {
            assert_eq!(info(value), expected);
        }
    }

    #[test]
    fn info_string_is_last_and_empty_pv_is_left_out() {
        let value = Info {
            depth: Some(3),
            pv: vec![],
            string: Some("note".into()),
            nodes: Some(10),
            ..Info::default()
        };
        assert_eq!(info(value), "info depth 3 nodes 10 string note");
        assert_eq!(
            Response::info_string("just text").to_string(),
            "info string just text"
        );
    }

    #[test]
    fn info_score_bounds() {
        let scored = |score, bound| {
            info(Info {
                score: Some((score, bound)),
                ..Info::default()
            })
        };
        assert_eq!(scored(Score::Cp(20), None), "info score cp 20");
        assert_eq!(
            scored(Score::Cp(20), Some(Bound::Lower)),
            "info score cp 20 lowerbound"
        );
        assert_eq!(
            scored(Score::Cp(-20), Some(Bound::Upper)),
            "info score cp -20 upperbound"
        );
        assert_eq!(
            scored(Score::Mate(2), Some(Bound::Lower)),
            "info score mate 2 lowerbound"
        );
    }

    #[test]
    fn info_mate_scores() {
        let mate = |moves| {
            info(Info {
                depth: Some(9),
                score: Some((Score::Mate(moves), None)),
                nodes: Some(1),
                ..Info::default()
            })
        };
        assert_eq!(mate(3), "info depth 9 score mate 3 nodes 1");
        assert_eq!(mate(-3), "info depth 9 score mate -3 nodes 1");
        assert_eq!(mate(0), "info depth 9 score mate 0 nodes 1");
    }

    #[test]
    fn bestmove_forms() {
        assert_eq!(
            Response::BestMove {
                best: Some("e2e4".into()),
                ponder: None,
            }
            .to_string(),
            "bestmove e2e4"
        );
        assert_eq!(
            Response::BestMove {
                best: Some("e2e4".into()),
                ponder: Some("e7e5".into()),
            }
            .to_string(),
            "bestmove e2e4 ponder e7e5"
        );
        assert_eq!(
            Response::BestMove {
                best: None,
                ponder: None,
            }
            .to_string(),
            "bestmove (none)"
        );
        // A ponder move without a best move is meaningless and is dropped.
        assert_eq!(
            Response::BestMove {
                best: None,
                ponder: Some("e7e5".into()),
            }
            .to_string(),
            "bestmove (none)"
        );
    }

    #[test]
    fn line_breaks_in_text_become_spaces() {
        assert_eq!(Response::IdName("a\nb".into()).to_string(), "id name a b");
        assert_eq!(
            Response::IdAuthor("a\r\nb".into()).to_string(),
            "id author a  b"
        );
        assert_eq!(
            Response::info_string("line one\nline two\r").to_string(),
            "info string line one line two "
        );
        assert_eq!(
            option(
                "Bad\nName",
                OptionKind::Combo {
                    default: "x\ry".into(),
                    vars: strings(&["p\nq", "r"]),
                }
            ),
            "option name Bad Name type combo default x y var p q var r"
        );
        assert_eq!(
            option(
                "S",
                OptionKind::String {
                    default: "\n".into(),
                }
            ),
            "option name S type string default  "
        );
        assert_eq!(
            info(Info {
                currmove: Some("e2\ne4".into()),
                pv: strings(&["a\rb", "c"]),
                ..Info::default()
            }),
            "info currmove e2 e4 pv a b c"
        );
        assert_eq!(
            Response::BestMove {
                best: Some("e2\ne4".into()),
                ponder: Some("\r".into()),
            }
            .to_string(),
            "bestmove e2 e4 ponder  "
        );
    }

    #[test]
    fn every_response_is_one_line() {
        let nasty = "x\r\ny\nz\r";
        let responses = [
            Response::IdName(nasty.into()),
            Response::IdAuthor(nasty.into()),
            Response::UciOk,
            Response::ReadyOk,
            Response::Option(OptionDecl {
                name: nasty.into(),
                kind: OptionKind::Check { default: true },
            }),
            Response::Option(OptionDecl {
                name: nasty.into(),
                kind: OptionKind::Spin {
                    default: 0,
                    min: i64::MIN,
                    max: i64::MAX,
                },
            }),
            Response::Option(OptionDecl {
                name: nasty.into(),
                kind: OptionKind::Combo {
                    default: nasty.into(),
                    vars: vec![nasty.into(); 3],
                },
            }),
            Response::Option(OptionDecl {
                name: nasty.into(),
                kind: OptionKind::Button,
            }),
            Response::Option(OptionDecl {
                name: nasty.into(),
                kind: OptionKind::String {
                    default: nasty.into(),
                },
            }),
            Response::Info(Info {
                currmove: Some(nasty.into()),
                pv: vec![nasty.into(); 2],
                string: Some(nasty.into()),
                ..Info::default()
            }),
            Response::BestMove {
                best: Some(nasty.into()),
                ponder: Some(nasty.into()),
            },
        ];
        for response in responses {
            let text = response.to_string();
            assert!(!text.contains(['\r', '\n']), "{response:?} gave {text:?}");
        }
    }
}
