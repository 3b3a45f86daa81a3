/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * plyd_plugin.h - the plyd plugin ABI, version 1, for plugins written in C
 * or C++.
 *
 * plyd knows no game. A game plugin is a shared library that exports
 *
 *     const PlydGameApi *plyd_game_api(void);
 *
 * and a stand-alone evaluator plugin one that exports
 *
 *     const PlydEvaluatorApi *plyd_evaluator_api(void);
 *
 * Each returns a pointer to a table of plain data and C function pointers
 * that stays valid and unchanged for as long as the library is loaded. This
 * header states the whole contract; it matches the Rust definitions in
 * plugins/api/src/abi.rs field for field (a test in plugins/api/tests checks
 * the names, the order, the offsets and the constants against them).
 *
 * FILE NAMES
 *   A game plugin is named libplyd_game_<name>.so (.dylib on macOS,
 *   plyd_game_<name>.dll on Windows), an evaluator plugin
 *   libplyd_eval_<name>.so; plyd loads both kinds from its plugin folders.
 *   Any file can also be loaded as an evaluator with
 *   `setoption name EvalFile value <path>`.
 *
 * VERSIONING AND GROWTH
 *   Every table starts with two 32-bit words: abi_version and table_size
 *   (sizeof the table as the plugin was built). The host reads abi_version
 *   before anything else and refuses the plugin unless it lies in the range
 *   the host accepts (this version: PLYD_ABI_VERSION_MIN..PLYD_ABI_VERSION),
 *   naming the file and both versions. The ABI grows only by appending
 *   entries at the end of a table: the host reads an entry only if
 *   table_size shows the plugin's table reaches it, so a plugin built
 *   against an older header keeps loading. Appending optional entries does
 *   not change PLYD_ABI_VERSION; anything else (a changed signature, a
 *   reordered or removed entry, a changed meaning) increments it.
 *   Fill table_size with sizeof(PlydGameApi) / sizeof(PlydEvaluatorApi).
 *
 * REQUIRED AND OPTIONAL ENTRIES
 *   In PlydGameApi every entry up to and including board_text is required:
 *   a null one, or a table_size that stops before board_text's end, gets
 *   the plugin refused with a message naming the entry. The entries after
 *   it may be null. In PlydEvaluatorApi, create, destroy and evaluate are
 *   required, explain is optional, and the six stack_* entries come all
 *   together or not at all (an evaluator with some of them is refused).
 *
 * OWNERSHIP
 *   Whoever allocates, frees. States (PlydState) are allocated by the plugin
 *   in state_new/state_clone and freed by it in state_free; evaluator
 *   contexts likewise in create/destroy. Both are opaque to the host. Every
 *   buffer the host passes (text, moves, scores) is owned by the host and
 *   valid only during the call; the plugin must not keep pointers to it.
 *   Strings in the tables (names, start positions, default parameters) are
 *   owned by the plugin and must stay valid while the library is loaded.
 *   The host keeps the library loaded while any state, context or table
 *   pointer from it is alive.
 *
 * TEXT
 *   All text is NUL-terminated UTF-8. Text out goes the snprintf way: the
 *   plugin writes at most cap bytes including the NUL and returns the full
 *   length without the NUL; when that is >= cap the host retries with a
 *   larger buffer. buf may be NULL when cap is 0. A plugin never writes to
 *   stdout, which carries the protocol; diagnostics go to stderr.
 *
 * MOVES
 *   A move is a uint32_t whose meaning only the plugin knows, stable for a
 *   position. PLYD_NULL_MOVE is reserved. Move lists go into a host buffer
 *   of cap moves: write at most cap and return the true count, so the host
 *   can grow its buffer (there is no fixed maximum; counts above 2^20 are
 *   taken as garbage). A forced pass is a move; zero moves means the game
 *   is over. A repetition or move-count verdict of outcome(), which an
 *   arbiter applies and may rule otherwise, may leave the moves listed:
 *   the host scores such a node by outcome() below the root and, asked
 *   for a move at the root, plays one. A host that wants only the count passes buf NULL and cap 0
 *   (perft's last ply): the plugin may then count without listing.
 *
 * STATUS CODES
 *   Functions returning int32_t status return PLYD_STATUS_OK or a negative
 *   PLYD_STATUS_* code. Functions returning int64_t return a length or
 *   count (>= 0) or a negative status. Constructors return NULL on failure.
 *
 * ERRORS AND SAFETY
 *   Nothing may unwind across the boundary: C++ plugins catch every
 *   exception in every entry point and return PLYD_STATUS_PANIC (or NULL);
 *   side_to_move and outcome may return PLYD_STATUS_PANIC too. hash,
 *   state_free and destroy have no failure value: nothing in them may
 *   throw. An exception that reaches the host ends the whole process.
 *   After a panic, or an impossible answer (an unknown status, a negative
 *   or runaway count, text without its NUL or not UTF-8), the host disables
 *   the library: a game plugin until it is reloaded with PluginPath, an
 *   evaluator plugin until it is loaded again with EvalFile (the daemon
 *   goes back to the game's own evaluator). The daemon itself goes on.
 *
 * WHAT A CALLER MUST KEEP TO
 *   Every state and context pointer is one its constructor returned and
 *   that has not been freed: NULL, a freed one or another game's state is
 *   not checked and may end the process (plyd's plugins segfault on NULL).
 *   Text pointers and buffers may be NULL only where said (buf with cap
 *   0). make_move takes a move of the state's legal list (or a chance
 *   outcome of a chance node) and unmake_move the last move made: a move
 *   outside the list is not checked either, and may be played anyway,
 *   leaving a position the rules cannot reach (an Othello disc on a1 at
 *   the start, a chariot taking its own horse); is_legal tells a move of
 *   the list. The plyd host keeps to all of this; a host of its own (a
 *   Python loop through ctypes) must too. A plugin that panics after
 *   such a call (PLYD_STATUS_PANIC) leaves the state in no known
 *   condition: free it.
 *
 * THREADING
 *   Calls on different states may run at the same time on different
 *   threads (one state per search thread); calls on one state never
 *   overlap. Functions taking `const PlydState *` must not modify the
 *   state in any way another thread could see. An evaluator context's
 *   parameters are fixed once created: evaluate and explain may run on
 *   one context from many threads at once, each with its own state. An
 *   evaluator may keep caches of its own, per thread, that change what it
 *   answers as it works (EinStein's odds solves endings exactly a little
 *   at a time, so a position's score turns exact once its ending is
 *   solved; its explain solves it at once): scores are then a function of
 *   the position and the work done before. plyd_game_api and
 *   plyd_evaluator_api may be called more than once and must return the
 *   same table.
 *
 * EVALUATORS AND STATE LAYOUTS
 *   An evaluator reads the game's state memory directly. A game plugin
 *   declares the version of its state layout in state_layout; an evaluator
 *   declares the game name and layout it reads, and the host refuses it for
 *   any other before calling it. A game that wants external evaluators
 *   publishes its layout and increments state_layout whenever it changes;
 *   the four shipped games' layouts are in C in plyd_states.h, next to
 *   this header. Scores are for the side to
 *   move and lie in [-score_bound, score_bound], score_bound at most
 *   PLYD_MAX_SCORE_BOUND; INT32_MIN is never a score (the host reads it as
 *   "no score written" and disables the evaluator).
 */

#ifndef PLYD_PLUGIN_H
#define PLYD_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versions and entry points ---------------------------------------- */

/* The ABI version this header describes. */
#define PLYD_ABI_VERSION 1u
/* The oldest ABI version a host built from this header still accepts. */
#define PLYD_ABI_VERSION_MIN 1u

/* Names of the two entry points, for loaders. */
#define PLYD_GAME_ENTRY_SYMBOL "plyd_game_api"
#define PLYD_EVALUATOR_ENTRY_SYMBOL "plyd_evaluator_api"

/* ---- Moves ------------------------------------------------------------ */

typedef uint32_t PlydMove;

/* "Pass the turn without moving", for null-move pruning. Accepted by
 * make_move/unmake_move only from plugins declaring PLYD_CAP_NULL_MOVE;
 * never in a list of legal moves. */
#define PLYD_NULL_MOVE 0xFFFFFFFFu

/* ---- Status codes ----------------------------------------------------- */

#define PLYD_STATUS_OK 0           /* success */
#define PLYD_STATUS_INVALID (-1)   /* bad input: position text, move text */
#define PLYD_STATUS_PANIC (-2)     /* the plugin failed (panic, exception) */
#define PLYD_STATUS_UNSUPPORTED (-3) /* not supported for this state */
/* PLYD_STATUS_UNSUPPORTED is an answer only from the entries whose
 * comments say what it means there; from any other (evaluate, board_text,
 * make_move, ...) it disables the plugin, as an unknown status does. */

/* ---- Outcomes, for the side to move ----------------------------------- */

#define PLYD_OUTCOME_ONGOING 0
#define PLYD_OUTCOME_WIN 1
#define PLYD_OUTCOME_LOSS 2
#define PLYD_OUTCOME_DRAW 3

/* ---- Capability bits (PlydGameApi.capabilities) ----------------------- */

/* One rule for optional features: an optional entry that is present (not
 * NULL, within table_size) switches its feature on. Capability bits are
 * only the soundness claims the host cannot check. */

/* The three claims below switch on forward pruning (docs/search.md lists
 * each technique and the bit behind it): the search then plays well at a
 * depth it could not reach otherwise, but is no longer exact. A search
 * deep enough to see every line end may then give another score, another
 * mate distance or miss a forced win the game has; without the bits it is
 * full-width alpha-beta and exact there, save for NodeProbCut (on where
 * the plugin sets PLYD_CAP_PREFERS_NODE_PROBCUT, or by the option) and the
 * exchange pruning of a game with see_ge (the SEE option). Claim a bit
 * where the game's evaluation makes the pruning a good bet. */

/* Null-move pruning is sound; make_move(PLYD_NULL_MOVE) passes the turn. */
#define PLYD_CAP_NULL_MOVE (UINT64_C(1) << 0)
/* Retired, reserved, ignored by the host: noisy moves are on exactly when
 * gen_noisy is present. Older plugins may still set it. */
#define PLYD_CAP_NOISY_MOVES (UINT64_C(1) << 1)
/* Retired, reserved, ignored by the host: a game has chance nodes exactly
 * when chance_outcomes is present. Older plugins may still set it. */
#define PLYD_CAP_CHANCE (UINT64_C(1) << 2)
/* Late-move reductions are sound. */
#define PLYD_CAP_REDUCTIONS (UINT64_C(1) << 3)
/* Futility pruning on the evaluation is sound. Also switches on the
 * evaluation-based and move-count pruning that goes with it (reverse
 * futility, Improving, LMP, FutilityMoves, DeepFutility, correction
 * history; ProbCut and razoring where the game has gen_noisy and see_ge). */
#define PLYD_CAP_FUTILITY (UINT64_C(1) << 4)
/* Perft counts a game that ended before the last ply as one leaf (the
 * published Othello convention); without it such a game counts nothing. */
#define PLYD_CAP_PERFT_COUNTS_ENDED_GAMES (UINT64_C(1) << 5)
/* order_hints may write PLYD_HINT_SKIP for moves not worth searching below
 * the root; the host's Selective option decides whether it listens. */
#define PLYD_CAP_SELECTIVE (UINT64_C(1) << 6)
/* The plugin recommends the Monte-Carlo tree search (SearchMode mcts) as
 * the game's default search; the user's SearchMode always wins. */
#define PLYD_CAP_PREFERS_MCTS (UINT64_C(1) << 7)
/* The Monte-Carlo search values a new leaf after a short random playout. */
#define PLYD_CAP_MCTS_PLAYOUTS (UINT64_C(1) << 8)
/* The plugin recommends singular extensions (the Singular option) on by
 * default for the game; the user's Singular always wins. */
#define PLYD_CAP_PREFERS_SINGULAR (UINT64_C(1) << 9)
/* The plugin recommends ProbCut of the whole node (the NodeProbCut
 * option) on by default for the game; the user's NodeProbCut always wins. */
#define PLYD_CAP_PREFERS_NODE_PROBCUT (UINT64_C(1) << 10)
/* The hint of a move the search may skip (with PLYD_CAP_SELECTIVE). */
#define PLYD_HINT_SKIP INT32_MIN
/* The largest score_bound an evaluator may declare (the scores above it
 * are the search's, for won and lost games); the host refuses more. */
#define PLYD_MAX_SCORE_BOUND 50000000

/* Answer bits of see_ge. */
#define PLYD_SEE_PASSES 1 /* the exchange wins at least the threshold */
#define PLYD_SEE_NOISY 2  /* the move is noisy: gen_noisy lists it */

/* move_keys: every key, noisy bit aside, is below the limit. */
#define PLYD_MOVE_KEY_LIMIT 65536u
#define PLYD_MOVE_KEY_NOISY 0x80000000u /* the move is noisy */

/* Kinds of game options (PlydGameOptionInfo.kind). */
#define PLYD_OPTION_CHECK 0u  /* true or false */
#define PLYD_OPTION_SPIN 1u   /* an integer in [min, max] */
#define PLYD_OPTION_COMBO 2u  /* one of choices */
#define PLYD_OPTION_STRING 3u /* any text */

/* ---- Opaque handles --------------------------------------------------- */

/* A game state: allocated, read, changed and freed only by the plugin. */
typedef struct PlydState PlydState;
/* An evaluator's parameter set: immutable once created. */
typedef struct PlydEvalContext PlydEvalContext;
/* One search thread's incremental evaluation state (an evaluator's
 * accumulator stack), opaque to the host. */
typedef struct PlydEvalStack PlydEvalStack;

/* ---- Tables ----------------------------------------------------------- */

/* One variant of a game (`othello`; `amazons` and `amazons8`). */
typedef struct PlydVariantInfo {
    const char *name;           /* lower case, no spaces: what UCI_Variant shows */
    const char *start_position; /* position text of the start position */
} PlydVariantInfo;

/* One setting of a game (a rule, a notation), shown as a UCI option. */
typedef struct PlydGameOptionInfo {
    const char *name;          /* as `uci` shows it */
    uint32_t kind;             /* PLYD_OPTION_* */
    int64_t min;               /* spin: lowest value (else 0) */
    int64_t max;               /* spin: highest value (else 0) */
    const char *default_value; /* the default as text */
    const char *choices;       /* combo: the choices separated by '\n' (else "") */
} PlydGameOptionInfo;

typedef struct PlydEvaluatorApi PlydEvaluatorApi;

/* PlydSolveEntry.bound */
#define PLYD_BOUND_UPPER 1u /* the true score is at most the stored one */
#define PLYD_BOUND_LOWER 2u /* the true score is at least the stored one */
#define PLYD_BOUND_EXACT 3u /* the stored score is the true score */
/* PlydSolveResult.exactness */
#define PLYD_SOLVE_EXACT 0u          /* the score is the exact final score */
#define PLYD_SOLVE_WIN_LOSS_DRAW 1u  /* only its sign is exact */

/* One entry of the host's transposition table as a solver sees it. */
typedef struct PlydSolveEntry {
    PlydMove best;  /* the best move found */
    int32_t score;  /* for the side to move, in final-score units; given
                       back as stored, so a solver may pack more into it */
    uint32_t depth; /* the depth searched (Othello: the empty squares) */
    uint32_t bound; /* PLYD_BOUND_* */
} PlydSolveEntry;

/* What the host lends one call of solve: its shared table and a way to
 * stop. host is passed back to each callback; the callbacks are never NULL
 * and valid only during the call. */
typedef struct PlydSolveRequest {
    uint32_t thread; /* 0 for the main search thread; helpers may vary
                        their move order with it (Lazy SMP) */
    void *host;
    /* 1 and *out filled on a hit, 0 on a miss. The keys are the solver's
     * own: the host keeps them apart from its search's. */
    int32_t (*probe)(void *host, uint64_t key, PlydSolveEntry *out);
    void (*store)(void *host, uint64_t key, const PlydSolveEntry *entry);
    /* Called every few thousand nodes with the nodes so far: 1 means stop
     * now (time, `stop`), 0 go on. */
    int32_t (*poll)(void *host, uint64_t nodes);
} PlydSolveRequest;

/* What one call of solve found. */
typedef struct PlydSolveResult {
    int32_t score;      /* for the side to move, in final-score units (Othello:
                           the disc difference; shown as score cp 100 times it) */
    PlydMove best;      /* the best move (none when the game is over) */
    uint64_t nodes;     /* positions visited */
    uint32_t complete;  /* 1: solved; 0: stopped by poll (best so far only) */
    uint32_t exactness; /* PLYD_SOLVE_* */
} PlydSolveResult;

/* The table a game plugin returns from plyd_game_api(). */
typedef struct PlydGameApi {
    uint32_t abi_version;       /* PLYD_ABI_VERSION; read before anything else */
    uint32_t table_size;        /* sizeof(PlydGameApi) as built */
    const char *name;           /* game name (`othello`) */
    const char *plugin_version; /* free text, recorded by arenas */
    uint32_t variant_count;     /* entries in variants, at least 1 */
    uint32_t state_layout;      /* version of the state layout evaluators read */
    const PlydVariantInfo *variants; /* index 0 is the default */
    uint64_t capabilities;      /* PLYD_CAP_* bits: soundness claims */
    uint32_t max_game_plies;    /* bound on a game's length, 0 if unknown */
    uint32_t evaluator_count;   /* entries in evaluators; plyd plays a game
                                   only if it has at least one */
    const PlydEvaluatorApi *const *evaluators; /* built-in; index 0 default */

    /* -- required -- */

    /* New state at the start of variant `variant`; NULL on failure. */
    PlydState *(*state_new)(uint32_t variant);
    /* Deep copy, history included; NULL on failure. */
    PlydState *(*state_clone)(const PlydState *state);
    /* Free a state from state_new or state_clone. */
    void (*state_free)(PlydState *state);
    /* Replace the position by one read from `text`, clearing the history.
     * On failure leave the state unchanged, write a one-line reason to err
     * (snprintf-style, err_cap bytes) and return PLYD_STATUS_INVALID. */
    int32_t (*set_position)(PlydState *state, const char *text, char *err, size_t err_cap);
    /* Write the position text (the form set_position reads). */
    int64_t (*get_position)(const PlydState *state, char *buf, size_t cap);
    /* 0 if the first player is to move, 1 if the second. */
    int32_t (*side_to_move)(const PlydState *state);
    /* PLYD_OUTCOME_* for the side to move. Repetition and move-count rules
     * are applied here, from the history the state carries. A game over by
     * its rules (no move left, a board decided) has no legal moves; only a
     * repetition or move-count verdict may leave them listed (see MOVES).
     * The host takes any other outcome as given: `plyd check` flags zero
     * moves with an ongoing outcome, not moves listed past a verdict. */
    int32_t (*outcome)(const PlydState *state);
    /* Legal moves into buf (at most cap); returns the true count. */
    int64_t (*gen_moves)(const PlydState *state, PlydMove *buf, size_t cap);
    /* Play a move from this state's legal list (or a chance outcome). */
    int32_t (*make_move)(PlydState *state, PlydMove mv);
    /* Take back the last move made, which is passed again. */
    int32_t (*unmake_move)(PlydState *state, PlydMove mv);
    /* 64-bit hash of the position, side to move included: the host's
     * table takes two positions of one hash for one (`plyd check` flags
     * two that differ in their side to move or their number of moves). */
    uint64_t (*hash)(const PlydState *state);
    /* Read a move in any accepted spelling into *out: PLYD_STATUS_OK, or
     * PLYD_STATUS_INVALID if it is not a move. The host checks legality. */
    int32_t (*parse_move)(const PlydState *state, const char *text, PlydMove *out);
    /* Write the canonical spelling of mv. */
    int64_t (*format_move)(const PlydState *state, PlydMove mv, char *buf, size_t cap);
    /* Write a picture of the board (several lines) for the `d` command. */
    int64_t (*board_text)(const PlydState *state, char *buf, size_t cap);

    /* -- optional (may be NULL; present switches the feature on) -- */

    /* Noisy moves only (captures), for quiescence search. */
    int64_t (*gen_noisy)(const PlydState *state, PlydMove *buf, size_t cap);
    /* A cheap ordering score per move, higher searched first:
     * scores[i] for moves[i]. PLYD_STATUS_UNSUPPORTED: no hints here. */
    int32_t (*order_hints)(const PlydState *state, const PlydMove *moves, size_t count,
                           int32_t *scores);
    /* 1 if the side to move is in check, 0 if not. */
    int32_t (*in_check)(const PlydState *state);
    /* At a chance node, its outcomes (tokens make_move plays) and their
     * relative weights, at most cap; returns their number, 0 where a player
     * moves. */
    int64_t (*chance_outcomes)(const PlydState *state, PlydMove *tokens, uint32_t *weights,
                               size_t cap);
    /* Leaf count at `depth`, computed inside the plugin, into *out. The
     * state is left as it was. */
    int32_t (*perft)(PlydState *state, uint32_t depth, uint64_t *out);
    /* 1 if mv is a legal move (or, at a chance node, one of its outcomes)
     * in this state, 0 if not, or a negative PLYD_STATUS_*. Any value may be
     * passed, PLYD_NULL_MOVE and garbage included, and must get an answer. */
    int32_t (*is_legal)(const PlydState *state, PlydMove mv);
    /* 1 if a null move is worth trying here, 0 if the side to move may be in
     * zugzwang. Asked only under PLYD_CAP_NULL_MOVE; NULL: always worth it. */
    int32_t (*null_move_ok)(const PlydState *state);
    /* The game's settings, shown as UCI options (options may be NULL when
     * option_count is 0). */
    uint32_t option_count;
    const PlydGameOptionInfo *options;
    /* Set option `name` to `value` (checked by the host against its kind)
     * for every state of the plugin. Required when option_count > 0. On
     * failure write a one-line reason to err, return PLYD_STATUS_INVALID. */
    int32_t (*set_option)(const char *name, const char *value, char *err, size_t err_cap);
    /* The exact endgame solver: present together, or neither is used.
     * endgame_size: the size of the endgame left (Othello: empty squares),
     * or a negative PLYD_STATUS_* (PLYD_STATUS_UNSUPPORTED where the solver
     * cannot take this state); a search of that many plies or more is
     * answered by solve. Writes 1 to *auto_solve when the plugin's own
     * settings ask for the solver whatever the depth, else 0. */
    int32_t (*endgame_size)(const PlydState *state, uint32_t *auto_solve);
    /* Solve the state to the end of the game into *result: PLYD_STATUS_OK
     * (also when poll stopped it: result->complete is then 0),
     * PLYD_STATUS_UNSUPPORTED for a state endgame_size refuses, or another
     * status. The state is left as it was. Several threads may solve
     * different states at once, sharing the host's table. */
    int32_t (*solve)(PlydState *state, const PlydSolveRequest *request,
                     PlydSolveResult *result);
    /* Static exchange evaluation: does the exchange on mv's target square
     * (mv, a move of the state's legal list, first) win the side to move at
     * least `threshold`, in the game's material units? Returns the
     * PLYD_SEE_* bits (PLYD_SEE_PASSES when it does, PLYD_SEE_NOISY when mv
     * is one of the moves gen_noisy lists), or a negative PLYD_STATUS_*:
     * PLYD_STATUS_UNSUPPORTED where the plugin does not answer for this
     * move (the host then neither prunes nor reorders it). PLYD_SEE_NOISY
     * does not depend on the threshold: the host asks with INT32_MIN, which
     * every exchange passes, when it wants only that bit, so answer that
     * without weighing the exchange. */
    int32_t (*see_ge)(const PlydState *state, PlydMove mv, int32_t threshold);
    /* A small key for each of `count` moves of the state's legal list,
     * keys[i] for moves[i]: below PLYD_MOVE_KEY_LIMIT, naming what the move
     * does in a way that holds from one position to the next (the moved
     * piece and its target square, say), with PLYD_MOVE_KEY_NOISY added for
     * a noisy move (one gen_noisy lists). The search keeps its histories and
     * countermoves by these keys. Returns a PLYD_STATUS_*. */
    int32_t (*move_keys)(const PlydState *state, const PlydMove *moves, size_t count,
                         uint32_t *keys);
    /* Whether mv, a legal move of the state, gives check: 1 when in_check
     * would answer 1 once mv is made, 0 when 0, or PLYD_STATUS_UNSUPPORTED
     * to let the host make it and ask. The search asks it of moves it would
     * otherwise prune, to spare checks without making them. */
    int32_t (*gives_check)(const PlydState *state, PlydMove mv);
    /* How many legal moves the position after mv (a move of the state's
     * legal list) has: what gen_moves would count once mv is made, the
     * state left as it was. A negative PLYD_STATUS_*, PLYD_STATUS_UNSUPPORTED
     * to leave it to the host (which then makes, counts and takes back).
     * Perft's last ply asks it of every move. */
    int64_t (*count_after)(const PlydState *state, PlydMove mv);
    /* Why outcome() is what it is, as one line for the people watching
     * ("Red checked perpetually", "120 plies without a capture"), written
     * as get_position writes its text; an empty text (return 0) where
     * there is nothing to say, or PLYD_STATUS_UNSUPPORTED. The host adds
     * it to the line that gives a verdict. Optional. */
    int64_t (*outcome_reason)(const PlydState *state, char *buf, size_t cap);
    /* Beside solve, optional: solve within the window (alpha, beta) of
     * final-score units, alpha < beta: a result->score at or below alpha
     * is an upper bound of the exact score, at or above beta a lower
     * bound, between them the exact score. Otherwise as solve (a finished
     * game answered with its final score); PLYD_STATUS_UNSUPPORTED leaves
     * the host to call solve (the full window). Asked for several lines. */
    int32_t (*solve_window)(PlydState *state, const PlydSolveRequest *request,
                            int32_t alpha, int32_t beta, PlydSolveResult *result);
    /* Why mv, a move parse_move read that is not legal in the state, is
     * not: one line for the person who sent it ("the horse's leg at c1 is
     * blocked", "f5 flips no disc"), written as get_position writes its
     * text; an empty text (return 0) where there is nothing to say, or
     * PLYD_STATUS_UNSUPPORTED. The host adds it to the line that refuses
     * the move. Optional; appended after solve_window. */
    int64_t (*illegal_reason)(const PlydState *state, PlydMove mv, char *buf, size_t cap);
} PlydGameApi;

/* The table of one evaluator: listed in PlydGameApi.evaluators, or returned
 * alone by plyd_evaluator_api(). */
struct PlydEvaluatorApi {
    uint32_t abi_version;       /* PLYD_ABI_VERSION; read before anything else */
    uint32_t table_size;        /* sizeof(PlydEvaluatorApi) as built */
    const char *name;           /* unique within its game (`seed004`) */
    const char *description;    /* one line on what it measures */
    const char *game;           /* the game whose states it reads */
    uint32_t state_layout;      /* the game's state layout it was built for */
    int32_t score_bound;        /* every score lies in [-score_bound, score_bound];
                                   0 < score_bound <= PLYD_MAX_SCORE_BOUND */
    const char *default_params; /* default parameters as TOML text (may be "") */

    /* -- required -- */

    /* A context from TOML parameter text (NULL: the defaults). On failure
     * return NULL and write a one-line reason to err; name the key where
     * you can ("key 'weights.mobility': expected a number"). */
    PlydEvalContext *(*create)(const char *params, char *err, size_t err_cap);
    /* Free a context from create. */
    void (*destroy)(PlydEvalContext *ctx);
    /* Score for the side to move (positive: good for it) into *out. */
    int32_t (*evaluate)(const PlydEvalContext *ctx, const PlydState *state, int32_t *out);

    /* -- optional (may be NULL; present switches the feature on) -- */

    /* Each term of the evaluation as `name value` lines, for tuning;
     * PLYD_STATUS_UNSUPPORTED: no terms for this position. */
    int64_t (*explain)(const PlydEvalContext *ctx, const PlydState *state, char *buf,
                       size_t cap);

    /* -- optional, all six or none: incremental evaluation -- */

    /* A stack for one search thread, from ctx (which outlives it); NULL on
     * failure. One stack is never used by two threads at once; several
     * stacks of one context may be used at once. */
    PlydEvalStack *(*stack_new)(const PlydEvalContext *ctx);
    /* Free a stack from stack_new. */
    void (*stack_free)(PlydEvalStack *stack);
    /* Forget everything; state is the only position (a search's root).
     * PLYD_STATUS_UNSUPPORTED: no stack for this search (evaluate is
     * called instead). Called once per stack, which holds at most 1,024
     * positions above the root. */
    int32_t (*stack_reset)(PlydEvalStack *stack, const PlydState *state);
    /* state was reached from the position on top by mv (which may be
     * PLYD_NULL_MOVE or a chance outcome): hold it on top. The work may be
     * left to stack_evaluate (lazy accumulators). */
    int32_t (*stack_push)(PlydEvalStack *stack, const PlydState *state, PlydMove mv);
    /* Take back the last push. Any status but PLYD_STATUS_OK from a push
     * or a pop disables the evaluator (the stack no longer follows). */
    int32_t (*stack_pop)(PlydEvalStack *stack);
    /* Score state, the position on top, exactly as evaluate scores it.
     * PLYD_STATUS_UNSUPPORTED: evaluate scores this position instead. */
    int32_t (*stack_evaluate)(PlydEvalStack *stack, const PlydState *state, int32_t *out);

    /* -- optional: the last plies of the search inside the plugin -- */

    /* A fail-soft alpha-beta search of `depth` plies (1 to shallow_plies)
     * from state, whose game is not over, in the window (alpha, beta), for
     * the side to move: every move searched (a pass is a ply), a position
     * depth plies down scored as evaluate scores it, clamped to
     * score_bound, and a game that ended d plies down as win - d for the
     * side to move there when it has won, -(win - d) when it has lost, 0
     * when drawn. The score goes to *score, the positions reached below
     * state to *nodes. The state is left as it was; several threads may
     * search different states with one context at once. In a game with
     * chance nodes the host asks for depth 1 only (the positions one move
     * down are scored as they stand, chance nodes included).
     * PLYD_STATUS_UNSUPPORTED leaves the node to the host. */
    int32_t (*shallow_search)(const PlydEvalContext *ctx, PlydState *state, uint32_t depth,
                              int32_t alpha, int32_t beta, int32_t win, int32_t *score,
                              uint64_t *nodes);
    /* The most plies shallow_search takes (read only when it is present). */
    uint32_t shallow_plies;

    /* -- optional: a new game -- */

    /* A new game begins (UCI's ucinewgame): forget what was kept from the
     * searches before it that could change a later result (memory that
     * outlives a search, such as a solver's partial work or a budget
     * saved), so that a search then gives what it gives in a fresh
     * process. Called between searches only, never with a search
     * running. PLYD_STATUS_UNSUPPORTED: nothing to forget; any other
     * status but PLYD_STATUS_OK disables the evaluator. */
    int32_t (*new_game)(const PlydEvalContext *ctx);
};

/* Bytes of PlydGameApi up to the end of its last required entry: a table
 * whose table_size is smaller is refused. */
#define PLYD_GAME_API_REQUIRED_SIZE \
    (offsetof(PlydGameApi, board_text) + sizeof(void (*)(void)))
/* Bytes of PlydEvaluatorApi up to the end of evaluate. */
#define PLYD_EVALUATOR_API_REQUIRED_SIZE \
    (offsetof(PlydEvaluatorApi, evaluate) + sizeof(void (*)(void)))

/* ---- Entry points ----------------------------------------------------- */

#if defined(_WIN32)
#define PLYD_EXPORT __declspec(dllexport)
#else
#define PLYD_EXPORT __attribute__((visibility("default")))
#endif

/* A game plugin defines this one ... */
PLYD_EXPORT const PlydGameApi *plyd_game_api(void);
/* ... an evaluator plugin this one. */
PLYD_EXPORT const PlydEvaluatorApi *plyd_evaluator_api(void);

#ifdef __cplusplus
}
#endif

#endif /* PLYD_PLUGIN_H */
