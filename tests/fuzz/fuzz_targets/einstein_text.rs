//! Einstein's position-text and move-text readers (see the crate's comment).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    plyd_fuzz::position_and_moves::<plyd_einstein_rules::EinStein>(data);
});
