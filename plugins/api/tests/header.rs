//! The C header `include/plyd_plugin.h` must state the same ABI as
//! `src/abi.rs`. Two checks:
//!
//! * the header's text: every constant's value, and the field names of the
//!   three structs in order, against the Rust definitions;
//! * the C compiler's view: a C file of `_Static_assert`s on every field's
//!   offset and size and every struct's size, with the numbers taken from
//!   Rust, must compile against the header.
//!
//! The field lists below come with their Rust offsets, and a layout check
//! proves each list covers its whole Rust struct (no gap a field could hide
//! in), so a field added to `abi.rs` but not here fails too.

use std::collections::HashMap;
use std::mem::{align_of, offset_of, size_of};
use std::path::{Path, PathBuf};
use std::process::Command;

use plyd_api::abi::{
    self, EvaluatorApi, GameApi, GameOptionInfo, SolveEntry, SolveRequest, SolveResult, VariantInfo,
};

const HEADER: &str = include_str!("../include/plyd_plugin.h");

/// A field: name, offset, size, alignment.
type Field = (&'static str, usize, usize, usize);

/// The field table of a Rust struct, with offsets, sizes and alignments.
macro_rules! fields {
    ($ty:ty; $($field:ident),* $(,)?) => {{
        fn size_and_align<T>(_: *const T) -> (usize, usize) {
            (size_of::<T>(), align_of::<T>())
        }
        let probe = std::mem::MaybeUninit::<$ty>::uninit();
        let base = probe.as_ptr();
        vec![$({
            // SAFETY: addr_of! computes a field address without reading it.
            let (size, align) = size_and_align(unsafe { std::ptr::addr_of!((*base).$field) });
            (stringify!($field), offset_of!($ty, $field), size, align)
        }),*]
    }};
}

fn game_fields() -> Vec<Field> {
    fields!(GameApi;
        abi_version, table_size, name, plugin_version, variant_count, state_layout,
        variants, capabilities, max_game_plies, evaluator_count, evaluators,
        state_new, state_clone, state_free, set_position, get_position, side_to_move,
        outcome, gen_moves, make_move, unmake_move, hash, parse_move, format_move,
        board_text, gen_noisy, order_hints, in_check, chance_outcomes, perft,
        is_legal, null_move_ok, option_count, options, set_option, endgame_size, solve,
        see_ge, move_keys, gives_check, count_after, outcome_reason, solve_window,
        illegal_reason)
}

fn evaluator_fields() -> Vec<Field> {
    fields!(EvaluatorApi;
        abi_version, table_size, name, description, game, state_layout, score_bound,
        default_params, create, destroy, evaluate, explain, stack_new, stack_free, stack_reset,
        stack_push, stack_pop, stack_evaluate, shallow_search, shallow_plies, new_game)
}

fn variant_fields() -> Vec<Field> {
    fields!(VariantInfo; name, start_position)
}

fn option_fields() -> Vec<Field> {
    fields!(GameOptionInfo; name, kind, min, max, default_value, choices)
}

fn solve_entry_fields() -> Vec<Field> {
    fields!(SolveEntry; best, score, depth, bound)
}

fn solve_request_fields() -> Vec<Field> {
    fields!(SolveRequest; thread, host, probe, store, poll)
}

fn solve_result_fields() -> Vec<Field> {
    fields!(SolveResult; score, best, nodes, complete, exactness)
}

/// The list covers the whole struct: fields in increasing order, each gap
/// only padding (smaller than the next field's alignment), and the end
/// padded to the struct's size.
fn assert_covers(what: &str, fields: &[Field], size: usize, align: usize) {
    let mut end = 0;
    for &(name, offset, field_size, field_align) in fields {
        assert!(offset >= end, "{what}.{name} overlaps the field before");
        assert!(
            offset - end < field_align,
            "{what}: a field is missing before {name} (gap of {} bytes)",
            offset - end
        );
        end = offset + field_size;
    }
    assert!(
        size - end < align,
        "{what}: fields are missing after the last one listed"
    );
}

#[test]
fn the_field_lists_cover_the_rust_structs() {
    assert_covers(
        "GameApi",
        &game_fields(),
        size_of::<GameApi>(),
        align_of::<GameApi>(),
    );
    assert_covers(
        "EvaluatorApi",
        &evaluator_fields(),
        size_of::<EvaluatorApi>(),
        align_of::<EvaluatorApi>(),
    );
    assert_covers(
        "VariantInfo",
        &variant_fields(),
        size_of::<VariantInfo>(),
        align_of::<VariantInfo>(),
    );
    assert_covers(
        "GameOptionInfo",
        &option_fields(),
        size_of::<GameOptionInfo>(),
        align_of::<GameOptionInfo>(),
    );
    assert_covers(
        "SolveEntry",
        &solve_entry_fields(),
        size_of::<SolveEntry>(),
        align_of::<SolveEntry>(),
    );
    assert_covers(
        "SolveRequest",
        &solve_request_fields(),
        size_of::<SolveRequest>(),
        align_of::<SolveRequest>(),
    );
    assert_covers(
        "SolveResult",
        &solve_result_fields(),
        size_of::<SolveResult>(),
        align_of::<SolveResult>(),
    );
}

/// The header without its comments.
fn header_code() -> String {
    let mut out = String::new();
    let mut rest = HEADER;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
            out.push(' ');
        } else if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
            out.push('\n');
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The member names of the struct whose body follows `opening`, in order.
fn header_members(opening: &str) -> Vec<String> {
    let code = header_code();
    // The opening ends with the struct's `{`; no member has braces.
    let body = code
        .split(opening)
        .nth(1)
        .unwrap_or_else(|| panic!("'{opening}' not in the header"))
        .split_once('}')
        .expect("the struct's closing brace")
        .0;
    body.split(';')
        .map(str::trim)
        .filter(|decl| !decl.is_empty())
        .map(|decl| {
            // `ret (*name)(params)` for function pointers, else the last
            // identifier of `type name`.
            let name = match decl.split_once("(*") {
                Some((_, rest)) => rest.split(')').next().unwrap(),
                None => decl.rsplit([' ', '*']).next().unwrap(),
            };
            name.trim().to_string()
        })
        .collect()
}

#[test]
fn the_header_names_the_fields_in_the_rust_order() {
    for (opening, fields) in [
        ("typedef struct PlydGameApi {", game_fields()),
        ("struct PlydEvaluatorApi {", evaluator_fields()),
        ("typedef struct PlydVariantInfo {", variant_fields()),
        ("typedef struct PlydGameOptionInfo {", option_fields()),
        ("typedef struct PlydSolveEntry {", solve_entry_fields()),
        ("typedef struct PlydSolveRequest {", solve_request_fields()),
        ("typedef struct PlydSolveResult {", solve_result_fields()),
    ] {
        let rust: Vec<&str> = fields.iter().map(|f| f.0).collect();
        assert_eq!(header_members(&format!("\n{opening}")), rust, "{opening}");
    }
}

/// `#define NAME value` lines of the header, value as written.
fn header_defines() -> HashMap<String, String> {
    header_code()
        .lines()
        .filter_map(|line| line.trim().strip_prefix("#define "))
        .filter_map(|rest| {
            let (name, value) = rest.split_once(char::is_whitespace)?;
            Some((name.to_string(), value.trim().to_string()))
        })
        .collect()
}

/// The value of a `#define` as an integer: `1u`, `(-2)`, `0xFFFFFFFFu`,
/// `(UINT64_C(1) << 5)`.
fn define_value(text: &str) -> i128 {
    let t = text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    if let Some(shift) = t.strip_prefix("UINT64_C(1) << ") {
        return 1i128 << shift.trim().parse::<u32>().unwrap();
    }
    let t = t.trim_end_matches(['u', 'U']);
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => i128::from_str_radix(hex, 16).unwrap(),
        None => t.parse().unwrap_or_else(|_| panic!("cannot read '{text}'")),
    }
}

#[test]
fn the_header_constants_have_the_rust_values() {
    let defines = header_defines();
    let numbers: [(&str, i128); 38] = [
        ("PLYD_ABI_VERSION", abi::ABI_VERSION.into()),
        ("PLYD_ABI_VERSION_MIN", abi::ABI_VERSION_MIN.into()),
        ("PLYD_NULL_MOVE", abi::NULL_MOVE.into()),
        ("PLYD_STATUS_OK", abi::STATUS_OK.into()),
        ("PLYD_STATUS_INVALID", abi::STATUS_INVALID.into()),
        ("PLYD_STATUS_PANIC", abi::STATUS_PANIC.into()),
        ("PLYD_STATUS_UNSUPPORTED", abi::STATUS_UNSUPPORTED.into()),
        ("PLYD_OUTCOME_ONGOING", abi::OUTCOME_ONGOING.into()),
        ("PLYD_OUTCOME_WIN", abi::OUTCOME_WIN.into()),
        ("PLYD_OUTCOME_LOSS", abi::OUTCOME_LOSS.into()),
        ("PLYD_OUTCOME_DRAW", abi::OUTCOME_DRAW.into()),
        ("PLYD_CAP_NULL_MOVE", abi::CAP_NULL_MOVE.into()),
        ("PLYD_CAP_NOISY_MOVES", abi::CAP_NOISY_MOVES.into()),
        ("PLYD_CAP_CHANCE", abi::CAP_CHANCE.into()),
        ("PLYD_CAP_REDUCTIONS", abi::CAP_REDUCTIONS.into()),
        ("PLYD_CAP_FUTILITY", abi::CAP_FUTILITY.into()),
        (
            "PLYD_CAP_PERFT_COUNTS_ENDED_GAMES",
            abi::CAP_PERFT_COUNTS_ENDED_GAMES.into(),
        ),
        ("PLYD_CAP_SELECTIVE", abi::CAP_SELECTIVE.into()),
        ("PLYD_CAP_PREFERS_MCTS", abi::CAP_PREFERS_MCTS.into()),
        ("PLYD_CAP_MCTS_PLAYOUTS", abi::CAP_MCTS_PLAYOUTS.into()),
        (
            "PLYD_CAP_PREFERS_SINGULAR",
            abi::CAP_PREFERS_SINGULAR.into(),
        ),
        (
            "PLYD_CAP_PREFERS_NODE_PROBCUT",
            abi::CAP_PREFERS_NODE_PROBCUT.into(),
        ),
        ("PLYD_OPTION_CHECK", abi::OPTION_CHECK.into()),
        ("PLYD_OPTION_SPIN", abi::OPTION_SPIN.into()),
        ("PLYD_OPTION_COMBO", abi::OPTION_COMBO.into()),
        ("PLYD_OPTION_STRING", abi::OPTION_STRING.into()),
        ("PLYD_BOUND_UPPER", abi::BOUND_UPPER.into()),
        ("PLYD_BOUND_LOWER", abi::BOUND_LOWER.into()),
        ("PLYD_BOUND_EXACT", abi::BOUND_EXACT.into()),
        ("PLYD_SOLVE_EXACT", abi::SOLVE_EXACT.into()),
        ("PLYD_SOLVE_WIN_LOSS_DRAW", abi::SOLVE_WIN_LOSS_DRAW.into()),
        ("PLYD_SEE_PASSES", abi::SEE_PASSES.into()),
        ("PLYD_SEE_NOISY", abi::SEE_NOISY.into()),
        ("PLYD_MOVE_KEY_LIMIT", abi::MOVE_KEY_LIMIT.into()),
        ("PLYD_MOVE_KEY_NOISY", abi::MOVE_KEY_NOISY.into()),
        ("PLYD_MAX_SCORE_BOUND", abi::MAX_SCORE_BOUND.into()),
        ("PLYD_STATUS_OK", 0),
        ("PLYD_OUTCOME_ONGOING", 0),
    ];
    for (name, value) in numbers {
        let text = defines
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not defined in the header"));
        assert_eq!(define_value(text), value, "{name} = {text}");
    }
    assert_eq!(
        defines["PLYD_GAME_ENTRY_SYMBOL"],
        format!("\"{}\"", abi::GAME_ENTRY_SYMBOL)
    );
    assert_eq!(
        defines["PLYD_EVALUATOR_ENTRY_SYMBOL"],
        format!("\"{}\"", abi::EVALUATOR_ENTRY_SYMBOL)
    );
    // INT32_MIN is C's spelling of i32::MIN; the compile test checks the
    // value too.
    assert_eq!(defines["PLYD_HINT_SKIP"], "INT32_MIN");
    assert_eq!(abi::HINT_SKIP, i32::MIN);
    // Every PLYD_ constant of the header is checked above (or is a macro
    // with a C-only meaning checked by the compile test).
    let checked: Vec<&str> = numbers.iter().map(|n| n.0).collect();
    for name in defines.keys() {
        let c_only = [
            "PLYD_PLUGIN_H",
            "PLYD_EXPORT",
            "PLYD_GAME_ENTRY_SYMBOL",
            "PLYD_EVALUATOR_ENTRY_SYMBOL",
            "PLYD_GAME_API_REQUIRED_SIZE",
            "PLYD_EVALUATOR_API_REQUIRED_SIZE",
            "PLYD_HINT_SKIP",
        ];
        assert!(
            checked.contains(&name.as_str()) || c_only.contains(&name.as_str()),
            "{name} is in the header but not checked against abi.rs"
        );
    }
}

/// The C compiler: `$CC`, else `cc`.
pub fn c_compiler() -> String {
    std::env::var("CC")
        .ok()
        .filter(|cc| !cc.trim().is_empty())
        .unwrap_or_else(|| "cc".to_string())
}

fn include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

#[test]
fn a_c_compiler_agrees_on_every_offset_and_size() {
    let mut c = String::from("#include <stddef.h>\n#include \"plyd_plugin.h\"\n");
    let mut check = |ty: &str, fields: Vec<Field>, size: usize| {
        for (name, offset, field_size, _) in fields {
            c.push_str(&format!(
                "_Static_assert(offsetof({ty}, {name}) == {offset}, \"offset of {ty}.{name}\");\n\
                 _Static_assert(sizeof(((const {ty} *)0)->{name}) == {field_size}, \"size of {ty}.{name}\");\n"
            ));
        }
        c.push_str(&format!(
            "_Static_assert(sizeof({ty}) == {size}, \"size of {ty}\");\n"
        ));
    };
    check("PlydGameApi", game_fields(), size_of::<GameApi>());
    check(
        "PlydEvaluatorApi",
        evaluator_fields(),
        size_of::<EvaluatorApi>(),
    );
    check(
        "PlydVariantInfo",
        variant_fields(),
        size_of::<VariantInfo>(),
    );
    check(
        "PlydGameOptionInfo",
        option_fields(),
        size_of::<GameOptionInfo>(),
    );
    check(
        "PlydSolveEntry",
        solve_entry_fields(),
        size_of::<SolveEntry>(),
    );
    check(
        "PlydSolveRequest",
        solve_request_fields(),
        size_of::<SolveRequest>(),
    );
    check(
        "PlydSolveResult",
        solve_result_fields(),
        size_of::<SolveResult>(),
    );
    c.push_str(&format!(
        "_Static_assert(PLYD_GAME_API_REQUIRED_SIZE == {}, \"game required size\");\n\
         _Static_assert(PLYD_EVALUATOR_API_REQUIRED_SIZE == {}, \"evaluator required size\");\n\
         _Static_assert(PLYD_CAP_PERFT_COUNTS_ENDED_GAMES == {}ull, \"cap\");\n\
         _Static_assert(PLYD_HINT_SKIP == ({} - 1), \"hint skip\");\n",
        abi::GAME_API_REQUIRED_SIZE,
        abi::EVALUATOR_API_REQUIRED_SIZE,
        abi::CAP_PERFT_COUNTS_ENDED_GAMES,
        abi::HINT_SKIP + 1,
    ));
    let dir = std::env::temp_dir().join(format!("plyd-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("layout.c");
    std::fs::write(&source, c).unwrap();
    let cc = c_compiler();
    // Compiled as C11 and as C++ would be nicer still; C11 is what the
    // guide promises.
    let out = Command::new(&cc)
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-c",
            "-o",
        ])
        .arg(dir.join("layout.o"))
        .arg("-I")
        .arg(include_dir())
        .arg(&source)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{cc}' (set CC): {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "the header disagrees with abi.rs:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
