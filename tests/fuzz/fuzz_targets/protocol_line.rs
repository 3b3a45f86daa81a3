//! The protocol parser: any line gives a command, nothing, or a typed
//! error, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(line) = std::str::from_utf8(data) {
        let _ = plyd_protocol::parse_line(line);
    }
});
