//! The plyd line protocol.
//!
//! This crate is pure: it turns one line of text from a GUI or arbiter into a
//! [`Command`], and turns the engine's answers ([`Response`]) back into text.
//! It owns no threads, reads no stdin and keeps no global state, so it can be
//! tested and fuzzed on its own.
//!
//! The main dialect is UCI as published in April 2006, plus three plyd
//! commands: `go perft N`, `d` and `bench`. The other dialects plyd speaks
//! each have a module of their own here where their text differs from UCI's.

#![warn(missing_docs)]

mod botzone;
mod cbr;
mod command;
mod ggf;
pub mod gtp;
mod json;
mod nboard;
mod records;
mod response;
mod tree;
mod ucci;
mod ugi;
mod wthor;
mod xiangqi_pgn;
mod xqf;

pub use botzone::{BotzoneGame, BotzoneInput, BotzoneMove, BotzoneReader, KEEP_RUNNING};
pub use cbr::{
    is_cbl, is_cbr, read_cbl, read_cbl_variations, read_cbr, read_cbr_variations, CblLibrary,
};
pub use command::{parse_line, Command, GoParams, ParseError, Registration, StartPosition};
pub use ggf::{GgfClock, GgfError, GgfGame, GgfMove};
pub use gtp::{gtp_answer, parse_gtp_line, GtpCommand};
pub use json::Json;
pub use nboard::{discs, nboard_move, parse_nboard_line, plyd_move, NBoardCommand, NBoardError};
pub use records::{
    comment_text, half_width, othello_margin_of, position_line_game, read_record, transcript_moves,
    write_record, write_record_tree, RecordFormat, RecordGame, RecordResult,
};
pub use response::{Bound, Info, OptionDecl, OptionKind, Response, Score};
pub use tree::LINE_MOVES_LIMIT;
pub use ucci::{
    format_ucci_info, parse_ucci_line, ucci_score, UcciCommand, UcciGo, UCCI_MATE_SCORE,
};
pub use ugi::{parse_ugi_line, UgiCommand, UgiQuery};
pub use wthor::{is_wthor, read_wthor, wthor_names, WTHOR_PLAYER, WTHOR_TOURNAMENT};
pub use xiangqi_pgn::{pgn_variation_count, pgn_variations, xiangqi_chinese, xiangqi_iccs};
pub use xqf::{is_xqf, read_xqf, read_xqf_variations, write_xqf, write_xqf_tree, xqf_losses};
