//! A test evaluator plugin that misbehaves as `PLYD_TEST_EVAL` asks:
//!
//! * unset or `layout`: declares game `othello` with state layout 99;
//! * `game`: declares game `checkers`, which no plugin provides;
//! * `segfault`: `evaluate` writes through a bad pointer at 7 discs or
//!   more (a C evaluator's crash);
//! * `capital`: declares game `Othello`, the loaded game's name in other
//!   letters;
//! * `variant`: declares game `amazons8`, a variant's name where the
//!   Amazons' game name is meant;
//! * `abi`: declares ABI version 999;
//! * `short`: declares a table too small for the required entries;
//! * `huge`: declares a table of 1 MiB, more than any ABI version has;
//! * `bound`: declares a score bound past the ABI's largest;
//! * `half-stack`: has `stack_new` but none of the other stack entries;
//! * `panic`: a working disc-count evaluator for `othello` that panics once
//!   a position has 7 discs or more (three plies into a game);
//! * `garbage`: the same, but then answers status 42 from `evaluate`, and
//!   its `explain` writes text without a NUL terminator;
//! * `silent`: the same, but then answers `STATUS_OK` from `evaluate`
//!   without writing a score;
//! * `shallow-panic`: the disc-count evaluator with a `shallow_search` that
//!   leaves every node to the host until a position has 7 discs or more,
//!   and then panics;
//! * `shallow-garbage`: the same, answering status 42 instead;
//! * `shallow-ok`: the disc-count evaluator with a `shallow_search` of up
//!   to two plies, a plain fail-soft alpha-beta;
//! * `shallow-nodes`: the same, counting no position below;
//! * `shallow-bound`: the same, but a search that fails low answers 10
//!   below `alpha` (no bound on the tree's score);
//! * `stack-unsupported`: the disc-count evaluator with a stack whose
//!   `stack_evaluate` answers `STATUS_UNSUPPORTED` (leaving every score
//!   to `evaluate`);
//! * `stack-null`: the same, but `stack_new` answers null;
//! * `stack-push-unsupported`: the same, but `stack_push` answers
//!   `STATUS_UNSUPPORTED`;
//! * `stack-wrong`: the same, but `stack_evaluate` answers one more than
//!   `evaluate`;
//! * `hang`: the disc-count evaluator whose `evaluate` never returns once
//!   a position has 7 discs or more (it sleeps, a second at a time);
//! * `hang-locked`: the disc-count evaluator whose `evaluate` holds a
//!   lock of the library's while it runs, and the first time in the
//!   process a position has 7 discs or more (the file named by
//!   `PLYD_TEST_EVAL_MARK` is not there yet: it is made then) never
//!   returns: a later call into the same copy of the library waits on
//!   that lock for good, one into a fresh copy evaluates;
//! * `params-panic`: the disc-count evaluator, which panics when given
//!   parameters;
//! * `ok`: the disc-count evaluator, well behaved;
//! * `loud`: the disc count times 100, past the bound of 64 it declares;
//! * `black`: Black's discs minus White's whoever is to move (a score for
//!   one player, not for the side to move);
//! * `new-game-panic`: the disc-count evaluator, which panics in
//!   `new_game`;
//! * `shared`: the disc-count evaluator, which leaves its count in a
//!   global for a moment before it answers: called on two threads at
//!   once, one thread's score is the other's.
//! * `leak`: the disc-count evaluator, which keeps 256 bytes it never
//!   frees at every call;
//! * `slow`: the disc-count evaluator, which sleeps a millisecond at every
//!   call.
//!
//! The evaluator is named `odd` in every mode.

use std::ffi::c_char;

use plyd_api::abi::{self, EvalContext, EvaluatorApi, State};
use plyd_api::sdk::{evaluator_table, TableCell};
use plyd_api::Evaluator;
use plyd_othello_rules::{Othello, STATE_LAYOUT};

/// Own discs minus the opponent's, for the side to move.
pub struct DiscCount;

fn discs(state: &Othello) -> u32 {
    let p = state.position();
    (p.black | p.white).count_ones()
}

impl Evaluator for DiscCount {
    type State = Othello;
    const NAME: &'static str = "odd";
    const DESCRIPTION: &'static str = "disc count, with misbehaviour on request";
    const GAME: &'static str = "othello";
    const STATE_LAYOUT: u32 = STATE_LAYOUT;
    const SCORE_BOUND: i32 = 64;

    fn new_game(&self) {
        if mode() == "new-game-panic" {
            panic!("asked to panic at a new game");
        }
    }

    fn from_params(params: Option<&str>) -> Result<Self, String> {
        if mode() == "params-panic" && params.is_some() {
            panic!("asked to panic reading parameters");
        }
        Ok(DiscCount)
    }

    fn evaluate(&self, state: &Othello) -> i32 {
        if mode() == "panic" && discs(state) >= 7 {
            panic!("asked to panic while evaluating");
        }
        if mode() == "segfault" && discs(state) >= 7 {
            // SAFETY: none; the fault is the point.
            unsafe { std::ptr::write_volatile(16 as *mut u32, 1) };
        }
        let _held = (mode() == "hang-locked").then(|| {
            static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
            let held = LOCK.lock().unwrap_or_else(|e| e.into_inner());
            let mark = std::env::var_os("PLYD_TEST_EVAL_MARK").expect("PLYD_TEST_EVAL_MARK");
            if discs(state) >= 7 && std::fs::File::create_new(mark).is_ok() {
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(1));
                }
            }
            held
        });
        if mode() == "hang" && discs(state) >= 7 {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        }
        // A loop in the evaluator's own code (a student's bug), not asleep
        // in the system.
        if mode() == "spin" && discs(state) >= 7 {
            let mut turns = 0u64;
            loop {
                turns = std::hint::black_box(turns.wrapping_add(1));
            }
        }
        if mode() == "black" {
            let p = state.position();
            return p.black.count_ones() as i32 - p.white.count_ones() as i32;
        }
        let (own, opp) = state.position().own_and_opponent();
        let count = own.count_ones() as i32 - opp.count_ones() as i32;
        if mode() == "shared" {
            use std::sync::atomic::{AtomicI32, Ordering};
            static SCRATCH: AtomicI32 = AtomicI32::new(0);
            SCRATCH.store(count, Ordering::Relaxed);
            std::thread::sleep(std::time::Duration::from_micros(20));
            return SCRATCH.load(Ordering::Relaxed);
        }
        if mode() == "leak" {
            std::mem::forget(std::hint::black_box(vec![1u8; 256]));
        }
        if mode() == "slow" {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        if mode() == "loud" {
            count * 100
        } else {
            count
        }
    }
}

fn mode() -> String {
    std::env::var("PLYD_TEST_EVAL").unwrap_or_default()
}

/// The garbage mode's `evaluate`: status 42 once the position has 7 discs
/// (the silent mode's: `STATUS_OK`, and no score written; the unsupported
/// mode's: `STATUS_UNSUPPORTED`, which `evaluate` may not answer).
unsafe extern "C" fn garbage_evaluate(
    _ctx: *const EvalContext,
    state: *const State,
    out: *mut i32,
) -> i32 {
    // SAFETY: the host passes a live Othello state (layout checked) and a
    // writable i32.
    let state = unsafe { &*(state as *const Othello) };
    if discs(state) >= 7 {
        return match mode().as_str() {
            "silent" => abi::STATUS_OK,
            "unsupported" => abi::STATUS_UNSUPPORTED,
            _ => 42,
        };
    }
    // SAFETY: as above.
    unsafe { *out = 0 };
    abi::STATUS_OK
}

/// The garbage mode's `explain`: fills the buffer with text and no NUL.
unsafe extern "C" fn garbage_explain(
    _ctx: *const EvalContext,
    _state: *const State,
    buf: *mut c_char,
    cap: usize,
) -> i64 {
    if cap > 0 && !buf.is_null() {
        // SAFETY: the host passes `cap` writable bytes.
        unsafe { std::ptr::write_bytes(buf, b'x', cap) };
    }
    3
}

/// The half-stack mode's `stack_new`, given without the other five stack
/// entries (never called: the host refuses the table).
unsafe extern "C" fn lone_stack_new(_ctx: *const EvalContext) -> *mut abi::EvalStack {
    std::ptr::null_mut()
}

/// The shallow modes' `shallow_search`: unsupported below 7 discs, then a
/// panic (caught as the SDK catches one) or status 42.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn odd_shallow_search(
    _ctx: *const EvalContext,
    state: *mut State,
    _depth: u32,
    _alpha: i32,
    _beta: i32,
    _win: i32,
    _score: *mut i32,
    _nodes: *mut u64,
) -> i32 {
    // SAFETY: the host passes a live Othello state (layout checked).
    let state = unsafe { &*(state as *const Othello) };
    if discs(state) < 7 {
        return abi::STATUS_UNSUPPORTED;
    }
    if mode() == "shallow-garbage" {
        return 42;
    }
    plyd_api::sdk::guard(abi::STATUS_PANIC, || {
        panic!("asked to panic in a shallow search")
    })
}

/// The fail-soft alpha-beta of `depth` plies below `state` with the disc
/// count at its leaves, and the positions it reached.
fn disc_search(state: &mut Othello, depth: u32, mut alpha: i32, beta: i32, win: i32) -> (i32, u64) {
    use plyd_api::{Game, Outcome};
    match state.outcome() {
        Outcome::Win => return (win, 0),
        Outcome::Loss => return (-win, 0),
        Outcome::Draw => return (0, 0),
        Outcome::Ongoing => {}
    }
    if depth == 0 {
        return (DiscCount.evaluate(state), 0);
    }
    let mut buf = [0 as plyd_api::Move; 64];
    let mut sink = plyd_api::sdk::MoveSink::new(&mut buf);
    state.generate_moves(&mut sink);
    let count = sink.len();
    let (mut best, mut nodes) = (i32::MIN + 1, 0);
    for &mv in &buf[..count] {
        let side = state.side_to_move();
        state.make_move(mv);
        let (score, below) = if state.side_to_move() == side {
            disc_search(state, depth - 1, alpha, beta, win - 1)
        } else {
            let (score, below) = disc_search(state, depth - 1, -beta, -alpha, win - 1);
            (-score, below)
        };
        state.unmake_move(mv);
        nodes += 1 + below;
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    (best, nodes)
}

/// The `shallow_search` of `shallow-ok`, `shallow-nodes` and
/// `shallow-bound`.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn disc_shallow_search(
    _ctx: *const EvalContext,
    state: *mut State,
    depth: u32,
    alpha: i32,
    beta: i32,
    win: i32,
    score: *mut i32,
    nodes: *mut u64,
) -> i32 {
    // SAFETY: the host passes a live Othello state (layout checked), and
    // writable outputs.
    let state = unsafe { &mut *(state as *mut Othello) };
    let (mut found, below) = disc_search(state, depth, alpha, beta, win);
    let mode = mode();
    if mode == "shallow-bound" && found <= alpha {
        found = alpha - 10;
    }
    unsafe {
        *score = found;
        *nodes = if mode == "shallow-nodes" { 0 } else { below };
    }
    abi::STATUS_OK
}

/// The stack modes' stack: nothing but the count of positions on it.
unsafe extern "C" fn odd_stack_new(_ctx: *const EvalContext) -> *mut abi::EvalStack {
    if mode() == "stack-null" {
        return std::ptr::null_mut();
    }
    Box::into_raw(Box::new(0usize)) as *mut abi::EvalStack
}

unsafe extern "C" fn odd_stack_free(stack: *mut abi::EvalStack) {
    // SAFETY: a stack from `odd_stack_new`, freed once.
    drop(unsafe { Box::from_raw(stack as *mut usize) });
}

unsafe extern "C" fn odd_stack_reset(stack: *mut abi::EvalStack, _state: *const State) -> i32 {
    // SAFETY: a live stack from `odd_stack_new`.
    unsafe { *(stack as *mut usize) = 1 };
    abi::STATUS_OK
}

unsafe extern "C" fn odd_stack_push(
    stack: *mut abi::EvalStack,
    _state: *const State,
    _mv: plyd_api::Move,
) -> i32 {
    if mode() == "stack-push-unsupported" {
        return abi::STATUS_UNSUPPORTED;
    }
    // SAFETY: a live stack from `odd_stack_new`.
    unsafe { *(stack as *mut usize) += 1 };
    abi::STATUS_OK
}

unsafe extern "C" fn odd_stack_pop(stack: *mut abi::EvalStack) -> i32 {
    // SAFETY: a live stack from `odd_stack_new`.
    unsafe { *(stack as *mut usize) -= 1 };
    abi::STATUS_OK
}

unsafe extern "C" fn odd_stack_evaluate(
    _stack: *mut abi::EvalStack,
    state: *const State,
    out: *mut i32,
) -> i32 {
    if mode() != "stack-wrong" {
        return abi::STATUS_UNSUPPORTED;
    }
    // SAFETY: the host passes a live Othello state (layout checked) and a
    // writable i32.
    unsafe { *out = DiscCount.evaluate(&*(state as *const Othello)) + 1 };
    abi::STATUS_OK
}

fn table(mode: &str) -> EvaluatorApi {
    let t = evaluator_table::<DiscCount>();
    let mut table = EvaluatorApi { ..*t };
    match mode {
        "game" => table.game = c"checkers".as_ptr(),
        "capital" => table.game = c"Othello".as_ptr(),
        "variant" => table.game = c"amazons8".as_ptr(),
        "abi" => table.abi_version = 999,
        "short" => table.table_size = 16,
        "huge" => table.table_size = 1 << 20,
        "bound" => table.score_bound = abi::MAX_SCORE_BOUND + 1,
        "half-stack" => table.stack_new = Some(lone_stack_new),
        "panic" | "segfault" | "ok" | "loud" | "hang" | "spin" | "hang-locked" | "params-panic"
        | "black" | "new-game-panic" | "shared" | "leak" | "slow" => {}
        "stack-unsupported" | "stack-null" | "stack-push-unsupported" | "stack-wrong" => {
            table.stack_new = Some(odd_stack_new);
            table.stack_free = Some(odd_stack_free);
            table.stack_reset = Some(odd_stack_reset);
            table.stack_push = Some(odd_stack_push);
            table.stack_pop = Some(odd_stack_pop);
            table.stack_evaluate = Some(odd_stack_evaluate);
        }
        "shallow-zero" => table.shallow_search = Some(disc_shallow_search),
        "shallow-ok" | "shallow-nodes" | "shallow-bound" => {
            table.shallow_search = Some(disc_shallow_search);
            table.shallow_plies = 2;
        }
        "shallow-panic" | "shallow-garbage" => {
            table.shallow_search = Some(odd_shallow_search);
            table.shallow_plies = 2;
        }
        "garbage" | "silent" | "unsupported" => {
            table.evaluate = Some(garbage_evaluate);
            table.explain = Some(garbage_explain);
        }
        _ => table.state_layout = 99,
    }
    table
}

/// The entry point, returning the table of the mode asked for.
#[no_mangle]
pub extern "C" fn plyd_evaluator_api() -> *const EvaluatorApi {
    static TABLE: TableCell<EvaluatorApi> = TableCell::new();
    TABLE.get_or_init(|| table(&mode())) as *const EvaluatorApi
}
