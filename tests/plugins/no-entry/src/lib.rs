//! A test library that is named like a game plugin but exports no
//! `plyd_game_api` entry point. The host must refuse it by name.

/// Some unrelated export, so the library is not empty.
#[no_mangle]
pub extern "C" fn plyd_not_a_game() -> u32 {
    42
}
