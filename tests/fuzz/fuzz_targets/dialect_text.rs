//! The readers of the other dialects and of game records: a UCCI, UGI,
//! GTP or NBoard line, a GGF game (with its clocks and moves), a JSON
//! value, Botzone's turn input (line by line) and a championship record. The first byte picks the reader; none may panic,
//! loop or grow without bound, whatever the text.
#![no_main]

use plyd_protocol::{
    parse_gtp_line, parse_nboard_line, parse_ucci_line, parse_ugi_line, read_record, BotzoneReader,
    GgfGame, Json,
};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match which % 8 {
        0 => {
            for line in text.lines() {
                let _ = parse_ucci_line(line, which & 0x80 != 0);
            }
        }
        1 => {
            if let Ok(game) = GgfGame::parse(text) {
                let _ = (game.start_position(), game.clocks(), game.moves());
            }
        }
        2 => {
            let _ = Json::parse(text);
        }
        3 => {
            let mut reader = BotzoneReader::default();
            for line in text.lines() {
                let _ = reader.feed(line);
            }
        }
        4 => {
            let _ = read_record(text);
        }
        5 => {
            for line in text.lines() {
                let _ = parse_ugi_line(line);
            }
        }
        6 => {
            for line in text.lines() {
                let _ = parse_gtp_line(line);
            }
        }
        _ => {
            for line in text.lines() {
                let _ = parse_nboard_line(line);
            }
        }
    }
});
