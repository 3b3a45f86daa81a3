//! A test plugin with an unusual table, chosen by `PLYD_TEST_BAD_TABLE`:
//!
//! * unset: the table declares ABI version 999;
//! * `missing-entry`: the right version, but every required entry after
//!   `state_new` is null;
//! * `short`: the declared table size is too small for the required part.
//!
//! In those three, every other field is zero or null, so a host that reads
//! past what it should (or calls anything) fails loudly.
//!
//! * `runaway-count`: the working `panicky` game, except that `gen_moves`
//!   claims 2^40 moves;
//! * `unterminated`: the same game, except that `board_text` fills the
//!   buffer without a NUL terminator;
//! * `old`: a working game (the `panicky` test game) whose table declares
//!   only the required part, as a plugin built before the optional entries
//!   were appended would. The optional entries are present in memory but
//!   poisoned: a host that reads past `table_size` calls a function that
//!   panics.
//! * `before-see`: the same game with the table as it was before `see_ge`
//!   was appended (its size ends at `solve`), `see_ge` and `move_keys`
//!   present in memory but poisoned.
//! * `before-keys`: the table as it was before `move_keys` was appended
//!   (its size ends at `see_ge`), `move_keys` present but poisoned.
//! * `garbage-keys`: the same game whose `move_keys` answers a key above
//!   the limit.
//! * `spaced-name`: the same game named `pan icky`, two words.
//! * `growing`: the same game, except that `board_text` always claims one
//!   byte more than the room it was given.
//! * `forgetful-unmake`: the same game, except that `unmake_move` answers
//!   OK and changes nothing.
//! * `over-count`: the same game, except that `gen_moves` counts one move
//!   more than it writes (given room for them all).
//! * `over-count-null`: the same, the slot it leaves unwritten holding the
//!   reserved null move.
//! * `huge`: the same game, its table size claiming 1 MiB.
//! * `sideless-hash`: the same game, except that `hash` reads the position
//!   text alone, which leaves out the side to move.
//! * `null-refused`: the same game claiming `CAP_NULL_MOVE`, whose
//!   `make_move` refuses the null move.
//! * `constant-side`: the same game, except that `side_to_move` always
//!   answers 0.
//! * `bang-text`: the same game, except that `format_move` spells every
//!   move with a `!` after it, which its `parse_move` does not read.
//! * `segfault`: the same game, except that `gen_moves` writes through a
//!   bad pointer: the process dies of SIGSEGV.
//! * `abort`: the same game, except that `gen_moves` calls `abort` (as a
//!   failed C `assert` does): the process dies of SIGABRT.
//! * `contrary-legal`: the same game, except that `is_legal` answers the
//!   opposite of the game's: every listed move refused, anything else
//!   (the null move included) accepted.
//! * `unterminated-reason`: the same game with a string option `Rule`
//!   whose `set_option` refuses every value, filling the whole reason
//!   buffer without a NUL (as C's `strncpy` of a long reason does).

use std::ffi::c_char;

use plyd_api::abi::{GameApi, ABI_VERSION, GAME_API_REQUIRED_SIZE};
use plyd_api::sdk::{evaluator_table, game_table, TableCell};
// The same game as the panicky plugin, compiled in rather than linked, since
// that crate's own entry point would clash with this one.
#[path = "../../panicky/src/game.rs"]
mod countdown;
use countdown::{Countdown, PileEval};

const NAME: &[u8] = b"badabi\0";

unsafe extern "C" fn never_called(_variant: u32) -> *mut plyd_api::abi::State {
    panic!("the host called into a plugin it should have refused")
}

unsafe extern "C" fn poisoned_perft(
    _state: *mut plyd_api::abi::State,
    _depth: u32,
    _out: *mut u64,
) -> i32 {
    panic!("the host read an entry beyond the declared table size")
}

unsafe extern "C" fn poisoned_is_legal(
    _state: *const plyd_api::abi::State,
    _mv: plyd_api::Move,
) -> i32 {
    panic!("the host read an entry beyond the declared table size")
}

unsafe extern "C" fn poisoned_see_ge(
    _state: *const plyd_api::abi::State,
    _mv: plyd_api::Move,
    _threshold: i32,
) -> i32 {
    panic!("the host read an entry beyond the declared table size")
}

unsafe extern "C" fn poisoned_move_keys(
    _state: *const plyd_api::abi::State,
    _moves: *const plyd_api::Move,
    _count: usize,
    _keys: *mut u32,
) -> i32 {
    panic!("the host read an entry beyond the declared table size")
}

unsafe extern "C" fn garbage_move_keys(
    _state: *const plyd_api::abi::State,
    _moves: *const plyd_api::Move,
    count: usize,
    keys: *mut u32,
) -> i32 {
    for i in 0..count {
        // SAFETY: the host passes `count` writable keys.
        unsafe { *keys.add(i) = plyd_api::abi::MOVE_KEY_LIMIT + 7 };
    }
    plyd_api::abi::STATUS_OK
}

unsafe extern "C" fn runaway_count(
    _state: *const plyd_api::abi::State,
    _buf: *mut plyd_api::Move,
    _cap: usize,
) -> i64 {
    1 << 40
}

unsafe extern "C" fn unterminated_text(
    _state: *const plyd_api::abi::State,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    if cap > 0 && !buf.is_null() {
        // SAFETY: the host passes `cap` writable bytes.
        unsafe { std::ptr::write_bytes(buf, b'x', cap) };
    }
    2
}

unsafe extern "C" fn growing_text(
    _state: *const plyd_api::abi::State,
    _buf: *mut c_char,
    cap: usize,
) -> i64 {
    cap as i64
}

unsafe extern "C" fn forgetful_unmake(_state: *mut plyd_api::abi::State, _mv: u32) -> i32 {
    plyd_api::abi::STATUS_OK
}

/// The game's own `gen_moves`, for `over_count` to call.
static GEN_MOVES: std::sync::OnceLock<
    unsafe extern "C" fn(*const plyd_api::abi::State, *mut plyd_api::Move, usize) -> i64,
> = std::sync::OnceLock::new();

unsafe extern "C" fn over_count(
    state: *const plyd_api::abi::State,
    buf: *mut plyd_api::Move,
    cap: usize,
) -> i64 {
    let gen = GEN_MOVES.get().expect("set with the table");
    // SAFETY: the host's arguments, passed on.
    let count = unsafe { gen(state, buf, cap) };
    if count > 0 {
        // `over-count-null`: the slot past the moves written holds the
        // reserved null move, as a list left short may hand the host.
        if std::env::var("PLYD_TEST_BAD_TABLE").as_deref() == Ok("over-count-null")
            && (count as usize) < cap
        {
            // SAFETY: `buf` has `cap` writable moves, the host's.
            unsafe { *buf.add(count as usize) = plyd_api::abi::NULL_MOVE };
        }
        count + 1
    } else {
        count
    }
}

/// The game's own `get_position` and `make_move`, for the wrappers below.
static GET_POSITION: std::sync::OnceLock<
    unsafe extern "C" fn(*const plyd_api::abi::State, *mut c_char, usize) -> i64,
> = std::sync::OnceLock::new();
static MAKE_MOVE: std::sync::OnceLock<
    unsafe extern "C" fn(*mut plyd_api::abi::State, plyd_api::Move) -> i32,
> = std::sync::OnceLock::new();

/// A hash of the position text alone (FNV-1a), without the side to move.
unsafe extern "C" fn sideless_hash(state: *const plyd_api::abi::State) -> u64 {
    let get = GET_POSITION.get().expect("set with the table");
    let mut text = [0u8; 64];
    // SAFETY: the host's state; the buffer holds 64 bytes.
    let len = unsafe { get(state, text.as_mut_ptr().cast(), text.len()) };
    let len = usize::try_from(len).unwrap_or(0).min(text.len() - 1);
    text[..len].iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The first player, always.
unsafe extern "C" fn constant_side(_state: *const plyd_api::abi::State) -> i32 {
    0
}

/// The game's `make_move`, refusing the null move.
unsafe extern "C" fn null_refused_make(state: *mut plyd_api::abi::State, mv: u32) -> i32 {
    if mv == plyd_api::NULL_MOVE {
        return plyd_api::abi::STATUS_INVALID;
    }
    let make = MAKE_MOVE.get().expect("set with the table");
    // SAFETY: the host's arguments, passed on.
    unsafe { make(state, mv) }
}

/// The game's own `unmake_move`, for `null_kept_unmake` to call.
static UNMAKE_MOVE: std::sync::OnceLock<
    unsafe extern "C" fn(*mut plyd_api::abi::State, plyd_api::Move) -> i32,
> = std::sync::OnceLock::new();

/// The game's `unmake_move`, which leaves a null move made (the turn stays
/// passed).
unsafe extern "C" fn null_kept_unmake(state: *mut plyd_api::abi::State, mv: u32) -> i32 {
    if mv == plyd_api::NULL_MOVE {
        return plyd_api::abi::STATUS_OK;
    }
    let unmake = UNMAKE_MOVE.get().expect("set with the table");
    // SAFETY: the host's arguments, passed on.
    unsafe { unmake(state, mv) }
}

/// A `gen_moves` that writes to address 16: a fault, as a C plugin's bad
/// pointer gives.
unsafe extern "C" fn faulting_gen(
    _state: *const plyd_api::abi::State,
    _buf: *mut plyd_api::Move,
    _cap: usize,
) -> i64 {
    // SAFETY: none; the fault is the point.
    unsafe { std::ptr::write_volatile(16 as *mut u32, 1) };
    0
}

/// A `gen_moves` that aborts, for `abort`.
unsafe extern "C" fn aborting_gen(
    _state: *const plyd_api::abi::State,
    _buf: *mut plyd_api::Move,
    _cap: usize,
) -> i64 {
    std::process::abort()
}

/// The game's own `format_move`, for [`bang_text`].
static FORMAT_MOVE: std::sync::OnceLock<
    unsafe extern "C" fn(*const plyd_api::abi::State, plyd_api::Move, *mut c_char, usize) -> i64,
> = std::sync::OnceLock::new();

/// An `is_legal` answering the opposite of the game's moves (those its
/// `gen_moves`, kept in [`GEN_MOVES`], lists).
unsafe extern "C" fn contrary_is_legal(
    state: *const plyd_api::abi::State,
    mv: plyd_api::Move,
) -> i32 {
    let gen = GEN_MOVES.get().expect("set with the table");
    let mut moves = [0 as plyd_api::Move; 64];
    // SAFETY: the host's live state, and a buffer of 64 moves.
    let count = unsafe { gen(state, moves.as_mut_ptr(), moves.len()) };
    let listed = &moves[..usize::try_from(count).unwrap_or(0).min(moves.len())];
    i32::from(!listed.contains(&mv))
}

/// An `order_hints` with no hints for any position.
unsafe extern "C" fn declining_hints(
    _state: *const plyd_api::abi::State,
    _moves: *const plyd_api::Move,
    _count: usize,
    _scores: *mut i32,
) -> i32 {
    plyd_api::abi::STATUS_UNSUPPORTED
}

/// An `outcome_reason` naming no rule.
unsafe extern "C" fn declining_reason(
    _state: *const plyd_api::abi::State,
    _buf: *mut c_char,
    _cap: usize,
) -> i64 {
    i64::from(plyd_api::abi::STATUS_UNSUPPORTED)
}

/// The game's `format_move` with a `!` written after the move.
unsafe extern "C" fn bang_text(
    state: *const plyd_api::abi::State,
    mv: plyd_api::Move,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    let format = FORMAT_MOVE.get().expect("set with the table");
    // SAFETY: the host's arguments, passed on.
    let len = unsafe { format(state, mv, buf, cap) };
    match usize::try_from(len) {
        Ok(len) if len + 2 <= cap => {
            // SAFETY: `len + 2` bytes fit in the host's `cap`.
            unsafe {
                *buf.add(len) = b'!' as c_char;
                *buf.add(len + 1) = 0;
            }
            len as i64 + 1
        }
        // Too little room: the length it needs.
        Ok(len) => len as i64 + 1,
        Err(_) => len,
    }
}

unsafe extern "C" fn unterminated_reason(
    _name: *const c_char,
    _value: *const c_char,
    err: *mut c_char,
    err_cap: usize,
) -> i32 {
    if err_cap > 0 && !err.is_null() {
        // SAFETY: the host passes `err_cap` writable bytes.
        unsafe { std::ptr::write_bytes(err, b'r', err_cap) };
    }
    plyd_api::abi::STATUS_INVALID
}

fn table(mode: &str) -> GameApi {
    if mode == "unterminated-reason" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        let option = Box::leak(Box::new(plyd_api::abi::GameOptionInfo {
            name: c"Rule".as_ptr(),
            kind: plyd_api::abi::OPTION_STRING,
            min: 0,
            max: 0,
            default_value: c"plain".as_ptr(),
            choices: c"".as_ptr(),
        }));
        t.option_count = 1;
        t.options = option;
        t.set_option = Some(unterminated_reason);
        return t;
    }
    if mode == "sideless-hash"
        || mode == "null-refused"
        || mode == "constant-side"
        || mode == "null-kept"
    {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        if mode == "null-kept" {
            UNMAKE_MOVE.get_or_init(|| t.unmake_move.expect("the SDK's table"));
            t.unmake_move = Some(null_kept_unmake);
            t.capabilities |= plyd_api::abi::CAP_NULL_MOVE;
        } else if mode == "constant-side" {
            t.side_to_move = Some(constant_side);
        } else if mode == "sideless-hash" {
            GET_POSITION.get_or_init(|| t.get_position.expect("the SDK's table"));
            t.hash = Some(sideless_hash);
        } else {
            MAKE_MOVE.get_or_init(|| t.make_move.expect("the SDK's table"));
            t.make_move = Some(null_refused_make);
            t.capabilities |= plyd_api::abi::CAP_NULL_MOVE;
        }
        return t;
    }
    if mode == "over-count" || mode == "over-count-null" || mode == "huge" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        if mode == "huge" {
            t.table_size = 1 << 20;
        } else {
            GEN_MOVES.get_or_init(|| t.gen_moves.expect("the SDK's table lists moves"));
            t.gen_moves = Some(over_count);
        }
        return t;
    }
    if mode == "segfault" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.gen_moves = Some(faulting_gen);
        return t;
    }
    if mode == "abort" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.gen_moves = Some(aborting_gen);
        return t;
    }
    if mode == "declining" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.order_hints = Some(declining_hints);
        t.outcome_reason = Some(declining_reason);
        return t;
    }
    if mode == "contrary-legal" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        GEN_MOVES.get_or_init(|| t.gen_moves.expect("the SDK's table lists moves"));
        t.is_legal = Some(contrary_is_legal);
        return t;
    }
    if mode == "bang-text" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        FORMAT_MOVE.get_or_init(|| t.format_move.expect("the SDK's table"));
        t.format_move = Some(bang_text);
        return t;
    }
    if mode == "forgetful-unmake" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.unmake_move = Some(forgetful_unmake);
        return t;
    }
    if mode == "growing" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.board_text = Some(growing_text);
        return t;
    }
    if mode == "runaway-count" || mode == "unterminated" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        if mode == "runaway-count" {
            t.gen_moves = Some(runaway_count);
        } else {
            t.board_text = Some(unterminated_text);
        }
        return t;
    }
    if mode == "old" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.table_size = GAME_API_REQUIRED_SIZE as u32;
        t.perft = Some(poisoned_perft);
        t.is_legal = Some(poisoned_is_legal);
        t.see_ge = Some(poisoned_see_ge);
        t.move_keys = Some(poisoned_move_keys);
        return t;
    }
    if mode == "before-see" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.table_size = std::mem::offset_of!(GameApi, see_ge) as u32;
        t.see_ge = Some(poisoned_see_ge);
        t.move_keys = Some(poisoned_move_keys);
        return t;
    }
    if mode == "spaced-name" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        t.name = c"pan icky".as_ptr();
        return t;
    }
    if mode == "before-keys" || mode == "garbage-keys" {
        let mut t = game_table::<Countdown>(&[evaluator_table::<PileEval>()]);
        if mode == "before-keys" {
            t.table_size = std::mem::offset_of!(GameApi, move_keys) as u32;
            t.move_keys = Some(poisoned_move_keys);
        } else {
            t.move_keys = Some(garbage_move_keys);
        }
        return t;
    }
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
