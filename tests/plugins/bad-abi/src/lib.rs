//! A test plugin with a broken table. By default its table declares ABI
//! version 999; with `PLYD_TEST_BAD_TABLE=missing-entry` it declares the
//! right version but leaves every required entry after `state_new` null,
//! and with
//! `PLYD_TEST_BAD_TABLE=short` its declared table size is too small. Every
//! other field is zero or null, so a host that reads past what it should
//! (or calls anything) fails loudly.

use std::ffi::c_char;

use plyd_api::abi::{GameApi, ABI_VERSION};
use plyd_api::sdk::TableCell;

const NAME: &[u8] = b"badabi\0";

unsafe extern "C" fn never_called(_variant: u32) -> *mut plyd_api::abi::State {
    panic!("the host called into a plugin it should have refused")
}

fn table(mode: &str) -> GameApi {
    // SAFETY: GameApi is a repr(C) struct of integers, raw pointers and
    // Option<fn> values, for all of which all-zero bytes are valid (0, null,
    // None).
    let mut t: GameApi = unsafe { std::mem::zeroed() };
    t.table_size = std::mem::size_of::<GameApi>() as u32;
    t.name = NAME.as_ptr() as *const c_char;
    t.plugin_version = NAME.as_ptr() as *const c_char;
    match mode {
        "missing-entry" | "short" => {
            t.abi_version = ABI_VERSION;
            // The first required entry is set (to a function that must never
            // run); the next, state_clone, is missing.
            t.state_new = Some(never_called);
            if mode == "short" {
                t.table_size = 16;
            }
        }
        _ => t.abi_version = 999,
    }
    t
}

/// The entry point, returning the broken table.
#[no_mangle]
pub extern "C" fn plyd_game_api() -> *const GameApi {
    static TABLE: TableCell<GameApi> = TableCell::new();
    let mode = std::env::var("PLYD_TEST_BAD_TABLE").unwrap_or_default();
    TABLE.get_or_init(|| table(&mode)) as *const GameApi
}
