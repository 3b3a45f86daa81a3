//! Counts of the calls made into plugins, by kind, for `plyd bench
//! --calls`. Only a build with the `calls` feature (the `plyd` package's
//! `call-counts`) counts: the count costs a few percent of a search's
//! speed, so the default build compiles it away.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A kind of call into a plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// `make_move`.
    MakeMove,
    /// `unmake_move`.
    UnmakeMove,
    /// `side_to_move`.
    SideToMove,
    /// `outcome`.
    Outcome,
    /// `hash`.
    Hash,
    /// `in_check`.
    InCheck,
    /// `gives_check`.
    GivesCheck,
    /// `gen_moves`.
    GenMoves,
    /// `count_after`.
    CountAfter,
    /// `gen_noisy`.
    GenNoisy,
    /// `order_hints`.
    OrderHints,
    /// `move_keys`.
    MoveKeys,
    /// `is_legal`.
    IsLegal,
    /// `see_ge`.
    SeeGe,
    /// `chance_outcomes`.
    ChanceOutcomes,
    /// `null_move_ok`.
    NullMoveOk,
    /// An evaluator's `evaluate`.
    Evaluate,
    /// An evaluator's `stack_reset`.
    StackReset,
    /// An evaluator's `stack_push`.
    StackPush,
    /// An evaluator's `stack_pop`.
    StackPop,
    /// An evaluator's `stack_evaluate`.
    StackEvaluate,
    /// An evaluator's `shallow_search`.
    ShallowSearch,
}

/// Every kind, in the order [`snapshot`] reports them.
pub const CALLS: [Call; 22] = [
    Call::MakeMove,
    Call::UnmakeMove,
    Call::SideToMove,
    Call::Outcome,
    Call::Hash,
    Call::InCheck,
    Call::GivesCheck,
    Call::GenMoves,
    Call::CountAfter,
    Call::GenNoisy,
    Call::OrderHints,
    Call::MoveKeys,
    Call::IsLegal,
    Call::SeeGe,
    Call::ChanceOutcomes,
    Call::NullMoveOk,
    Call::Evaluate,
    Call::StackReset,
    Call::StackPush,
    Call::StackPop,
    Call::StackEvaluate,
    Call::ShallowSearch,
];

impl Call {
    /// The entry's name in the ABI.
    pub fn name(self) -> &'static str {
        match self {
            Call::MakeMove => "make_move",
            Call::UnmakeMove => "unmake_move",
            Call::SideToMove => "side_to_move",
            Call::Outcome => "outcome",
            Call::Hash => "hash",
            Call::InCheck => "in_check",
            Call::GivesCheck => "gives_check",
            Call::GenMoves => "gen_moves",
            Call::CountAfter => "count_after",
            Call::GenNoisy => "gen_noisy",
            Call::OrderHints => "order_hints",
            Call::MoveKeys => "move_keys",
            Call::IsLegal => "is_legal",
            Call::SeeGe => "see_ge",
            Call::ChanceOutcomes => "chance_outcomes",
            Call::NullMoveOk => "null_move_ok",
            Call::Evaluate => "evaluate",
            Call::StackReset => "stack_reset",
            Call::StackPush => "stack_push",
            Call::StackPop => "stack_pop",
            Call::StackEvaluate => "stack_evaluate",
            Call::ShallowSearch => "shallow_search",
        }
    }
}

static COUNTING: AtomicBool = AtomicBool::new(false);
static COUNTS: [AtomicU64; CALLS.len()] = [const { AtomicU64::new(0) }; CALLS.len()];

/// Whether this build counts calls.
pub const ENABLED: bool = cfg!(feature = "calls");

/// Count one call of `kind`, if counting is on.
#[inline(always)]
pub(crate) fn count(kind: Call) {
    if ENABLED && COUNTING.load(Ordering::Relaxed) {
        COUNTS[kind as usize].fetch_add(1, Ordering::Relaxed);
    }
}

/// Start counting every thread's calls, from zero.
pub fn start() {
    for count in &COUNTS {
        count.store(0, Ordering::Relaxed);
    }
    COUNTING.store(true, Ordering::Relaxed);
}

/// Stop counting.
pub fn stop() {
    COUNTING.store(false, Ordering::Relaxed);
}

/// The counts since [`start`], every kind in [`CALLS`] order.
pub fn snapshot() -> Vec<(Call, u64)> {
    CALLS
        .iter()
        .map(|&kind| (kind, COUNTS[kind as usize].load(Ordering::Relaxed)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_at_its_own_index() {
        for (i, kind) in CALLS.iter().enumerate() {
            assert_eq!(*kind as usize, i, "{}", kind.name());
        }
    }
}
