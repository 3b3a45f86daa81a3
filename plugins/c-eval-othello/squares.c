/*
 * squares: a stand-alone evaluator plugin for plyd's Othello, in C.
 *
 * The sample for evaluator authors who write C: it adds an evaluation to
 * the Othello game plugin that is already installed, without rebuilding
 * plyd or the game. It scores a position by the kind of square each disc
 * stands on (corner, C-square, X-square, other edge, inner) and by the
 * difference in legal moves, with weights from TOML parameter text.
 *
 * Build (from the repository root):
 *
 *   gcc -std=c11 -O2 -Wall -Wextra -pedantic -shared -fPIC \
 *       -I plugins/api/include plugins/c-eval-othello/squares.c \
 *       -o libplyd_eval_squares.so
 *
 * then, in the daemon: `setoption name EvalFile value ./libplyd_eval_squares.so`
 * (or put the file in a plugin folder). docs/plugins.md has the rest.
 *
 * It is also the sample of an incremental evaluator: the six stack_*
 * entries keep, per search thread, the disc counts by kind of square for
 * each position on the search's path, updated from the discs that changed
 * (the mobility term is counted afresh). `plyd check --game othello
 * --evaluator squares --plugin-path .:target/release` (this library's
 * folder, then plyd's own) compares them with evaluate along random games.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plyd_plugin.h"
#include "plyd_states.h" /* PlydOthelloStateV1: the Othello state it reads */

/* ---- The squares -------------------------------------------------------- */

#define CORNERS 0x8100000000000081ULL
/* b1, g1, a2, h2, a7, h7, b8, g8: on an edge, next to a corner. */
#define C_SQUARES 0x4281000000008142ULL
/* b2, g2, b7, g7: diagonally next to a corner. */
#define X_SQUARES 0x0042000000004200ULL
#define EDGES 0xFF818181818181FFULL
#define OTHER_EDGES (EDGES & ~CORNERS & ~C_SQUARES)
#define INNER (~EDGES & ~X_SQUARES)

/* Files a (bit 0 of each row) and h (bit 7) left out. */
#define NOT_A 0xFEFEFEFEFEFEFEFEULL
#define NOT_H 0x7F7F7F7F7F7F7F7FULL

/* One step of every disc of `b` in direction `dir` (0..7), discs that
 * would leave the board dropped. */
static uint64_t step(uint64_t b, int dir) {
    switch (dir) {
    case 0: return (b << 1) & NOT_A; /* towards h */
    case 1: return (b >> 1) & NOT_H; /* towards a */
    case 2: return b << 8;           /* towards row 8 */
    case 3: return b >> 8;           /* towards row 1 */
    case 4: return (b << 9) & NOT_A;
    case 5: return (b << 7) & NOT_H;
    case 6: return (b >> 7) & NOT_A;
    default: return (b >> 9) & NOT_H;
    }
}

/* The empty squares where `own` may place a disc against `opp`. */
static uint64_t placements(uint64_t own, uint64_t opp) {
    uint64_t empty = ~(own | opp), found = 0;
    for (int dir = 0; dir < 8; dir++) {
        uint64_t run = step(own, dir) & opp;
        for (int i = 0; i < 5; i++) {
            run |= step(run, dir) & opp;
        }
        found |= step(run, dir) & empty;
    }
    return found;
}

/* ---- Parameters --------------------------------------------------------- */

typedef struct {
    int32_t corner, c_square, x_square, edge, inner, mobility;
} Weights;

#define MAX_WEIGHT 1000
/* Every score is declared to lie within this bound, which also scales the
 * search's margins (futility, ProbCut): keep it near the largest score the
 * weights give in play, not the largest they could give. The host clamps
 * a score past it (and `eval` warns of one). */
#define SCORE_BOUND 10000

static const char DEFAULT_PARAMS[] =
    "# Per disc, own minus the opponent's, by the kind of square.\n"
    "corner = 100\n"
    "c_square = -20\n"
    "x_square = -50\n"
    "edge = 10\n"
    "inner = 1\n"
    "# Per legal move, the side to move's minus the opponent's.\n"
    "mobility = 8\n";

/* Parse `key = integer` lines (comments after `#`): the subset of TOML the
 * sample needs. Anything else is refused with a one-line reason naming
 * the key, as the ABI asks. Returns 1 on success. */
static int parse_params(const char *text, Weights *out, char *err, size_t err_cap) {
    Weights w = {100, -20, -50, 10, 1, 8};
    int line_no = 0;
    while (text != NULL && *text != '\0') {
        line_no++;
        const char *end = strchr(text, '\n');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        char line[256];
        if (len >= sizeof line) {
            snprintf(err, err_cap, "line %d is too long", line_no);
            return 0;
        }
        memcpy(line, text, len);
        line[len] = '\0';
        text = end ? end + 1 : text + len;
        char *hash_mark = strchr(line, '#');
        if (hash_mark != NULL) {
            *hash_mark = '\0';
        }
        char key[32], rest[128];
        if (sscanf(line, " %31[a-z_] = %127[^\n]", key, rest) != 2) {
            if (sscanf(line, " %1s", rest) == 1) {
                snprintf(err, err_cap, "line %d: expected `key = integer`", line_no);
                return 0;
            }
            continue; /* blank */
        }
        char *tail;
        long value = strtol(rest, &tail, 10);
        while (*tail == ' ' || *tail == '\t' || *tail == '\r') {
            tail++;
        }
        int32_t *slot = strcmp(key, "corner") == 0     ? &w.corner
                        : strcmp(key, "c_square") == 0 ? &w.c_square
                        : strcmp(key, "x_square") == 0 ? &w.x_square
                        : strcmp(key, "edge") == 0     ? &w.edge
                        : strcmp(key, "inner") == 0    ? &w.inner
                        : strcmp(key, "mobility") == 0 ? &w.mobility
                                                       : NULL;
        if (slot == NULL) {
            snprintf(err, err_cap,
                     "key '%s': unknown (expected corner, c_square, x_square, edge, inner "
                     "or mobility)",
                     key);
            return 0;
        }
        if (tail == rest || *tail != '\0') {
            snprintf(err, err_cap, "key '%s': expected an integer", key);
            return 0;
        }
        if (value < -MAX_WEIGHT || value > MAX_WEIGHT) {
            snprintf(err, err_cap, "key '%s': %ld is outside [-%d, %d]", key, value, MAX_WEIGHT,
                     MAX_WEIGHT);
            return 0;
        }
        *slot = (int32_t)value;
    }
    *out = w;
    return 1;
}

/* ---- The evaluation ----------------------------------------------------- */

/* The raw terms for the side to move, each its own count minus the
 * opponent's: discs on corners, C-squares, X-squares, other edge squares,
 * inner squares, and legal moves. */
static void terms_of(const PlydOthelloStateV1 *s, int32_t t[6]) {
    uint64_t own = s->side == 0 ? s->black : s->white;
    uint64_t opp = s->side == 0 ? s->white : s->black;
    const uint64_t kinds[5] = {CORNERS, C_SQUARES, X_SQUARES, OTHER_EDGES, INNER};
    for (int k = 0; k < 5; k++) {
        t[k] = __builtin_popcountll(own & kinds[k]) - __builtin_popcountll(opp & kinds[k]);
    }
    t[5] = __builtin_popcountll(placements(own, opp)) - __builtin_popcountll(placements(opp, own));
}

static int32_t score_of(const Weights *w, const int32_t t[6]) {
    return w->corner * t[0] + w->c_square * t[1] + w->x_square * t[2] + w->edge * t[3] +
           w->inner * t[4] + w->mobility * t[5];
}

static PlydEvalContext *squares_create(const char *params, char *err, size_t err_cap) {
    Weights w;
    if (!parse_params(params ? params : DEFAULT_PARAMS, &w, err, err_cap)) {
        return NULL;
    }
    Weights *ctx = malloc(sizeof *ctx);
    if (ctx == NULL) {
        snprintf(err, err_cap, "out of memory");
        return NULL;
    }
    *ctx = w;
    return (PlydEvalContext *)ctx;
}

static void squares_destroy(PlydEvalContext *ctx) {
    free(ctx);
}

static int32_t squares_evaluate(const PlydEvalContext *ctx, const PlydState *state,
                                int32_t *out) {
    if (ctx == NULL || state == NULL || out == NULL) {
        return PLYD_STATUS_INVALID;
    }
    int32_t t[6];
    terms_of((const PlydOthelloStateV1 *)state, t);
    *out = score_of((const Weights *)ctx, t);
    return PLYD_STATUS_OK;
}

/* ---- The incremental stack ---------------------------------------------- */

/* One position on a search thread's path: its discs, and each colour's
 * discs by kind of square (the order of terms_of). */
typedef struct {
    uint64_t black, white;
    int8_t counts[2][5]; /* [0] Black's, [1] White's */
} Level;

/* The stack: levels[0] is the search's root, levels[top] the position on
 * top. It grows as needed (a search's path holds at most 1,024 positions
 * above its root). */
typedef struct {
    const Weights *weights;
    Level *levels;
    size_t top, cap;
} Stack;

static const uint64_t KINDS[5] = {CORNERS, C_SQUARES, X_SQUARES, OTHER_EDGES, INNER};

static PlydEvalStack *squares_stack_new(const PlydEvalContext *ctx) {
    Stack *stack = calloc(1, sizeof *stack);
    if (stack == NULL) {
        return NULL;
    }
    stack->weights = (const Weights *)ctx;
    stack->cap = 64;
    stack->levels = malloc(stack->cap * sizeof *stack->levels);
    if (stack->levels == NULL) {
        free(stack);
        return NULL;
    }
    return (PlydEvalStack *)stack;
}

static void squares_stack_free(PlydEvalStack *s) {
    Stack *stack = (Stack *)s;
    free(stack->levels);
    free(stack);
}

static int32_t squares_stack_reset(PlydEvalStack *s, const PlydState *state) {
    Stack *stack = (Stack *)s;
    const PlydOthelloStateV1 *o = (const PlydOthelloStateV1 *)state;
    Level *root = &stack->levels[0];
    root->black = o->black;
    root->white = o->white;
    for (int k = 0; k < 5; k++) {
        root->counts[0][k] = (int8_t)__builtin_popcountll(o->black & KINDS[k]);
        root->counts[1][k] = (int8_t)__builtin_popcountll(o->white & KINDS[k]);
    }
    stack->top = 0;
    return PLYD_STATUS_OK;
}

/* The counts of `colour` moved from `before` to `after`: the discs gained
 * added, the discs lost taken away (a move gains one disc and the flips;
 * the opponent loses the flips; a pass changes nothing). */
static void update(int8_t counts[5], uint64_t before, uint64_t after) {
    uint64_t gained = after & ~before, lost = before & ~after;
    if ((gained | lost) == 0) {
        return;
    }
    for (int k = 0; k < 5; k++) {
        counts[k] = (int8_t)(counts[k] + __builtin_popcountll(gained & KINDS[k]) -
                             __builtin_popcountll(lost & KINDS[k]));
    }
}

static int32_t squares_stack_push(PlydEvalStack *s, const PlydState *state, PlydMove mv) {
    (void)mv; /* the discs that changed say all the move did */
    Stack *stack = (Stack *)s;
    if (stack->top + 1 == stack->cap) {
        Level *grown = realloc(stack->levels, 2 * stack->cap * sizeof *grown);
        if (grown == NULL) {
            return PLYD_STATUS_PANIC; /* out of memory: the host disables it */
        }
        stack->levels = grown;
        stack->cap *= 2;
    }
    const PlydOthelloStateV1 *o = (const PlydOthelloStateV1 *)state;
    const Level *below = &stack->levels[stack->top];
    Level *next = &stack->levels[++stack->top];
    *next = *below;
    next->black = o->black;
    next->white = o->white;
    update(next->counts[0], below->black, o->black);
    update(next->counts[1], below->white, o->white);
    return PLYD_STATUS_OK;
}

static int32_t squares_stack_pop(PlydEvalStack *s) {
    Stack *stack = (Stack *)s;
    if (stack->top == 0) {
        return PLYD_STATUS_INVALID; /* more pops than pushes: a host error */
    }
    stack->top--;
    return PLYD_STATUS_OK;
}

static int32_t squares_stack_evaluate(PlydEvalStack *s, const PlydState *state, int32_t *out) {
    const Stack *stack = (const Stack *)s;
    const PlydOthelloStateV1 *o = (const PlydOthelloStateV1 *)state;
    const Level *top = &stack->levels[stack->top];
    int me = o->side == 0 ? 0 : 1;
    int32_t t[6];
    for (int k = 0; k < 5; k++) {
        t[k] = top->counts[me][k] - top->counts[1 - me][k];
    }
    uint64_t own = me == 0 ? o->black : o->white;
    uint64_t opp = me == 0 ? o->white : o->black;
    t[5] = __builtin_popcountll(placements(own, opp)) - __builtin_popcountll(placements(opp, own));
    *out = score_of(stack->weights, t);
    return PLYD_STATUS_OK;
}

/* Write `text` the snprintf way: at most `cap` bytes with the NUL; return
 * the full length. */
static int64_t write_text(const char *text, char *buf, size_t cap) {
    size_t len = strlen(text);
    if (buf != NULL && cap > 0) {
        size_t n = len < cap - 1 ? len : cap - 1;
        memcpy(buf, text, n);
        buf[n] = '\0';
    }
    return (int64_t)len;
}

static int64_t squares_explain(const PlydEvalContext *ctx, const PlydState *state, char *buf,
                               size_t cap) {
    if (ctx == NULL || state == NULL) {
        return PLYD_STATUS_INVALID;
    }
    int32_t t[6];
    terms_of((const PlydOthelloStateV1 *)state, t);
    char text[256];
    snprintf(text, sizeof text,
             "corners %d\nc_squares %d\nx_squares %d\nedges %d\ninner %d\nmobility %d\n", t[0],
             t[1], t[2], t[3], t[4], t[5]);
    return write_text(text, buf, cap);
}

/* ---- The table ---------------------------------------------------------- */

static const PlydEvaluatorApi SQUARES = {
    .abi_version = PLYD_ABI_VERSION,
    .table_size = sizeof(PlydEvaluatorApi),
    .name = "squares",
    .description = "Discs by the kind of square they stand on, and mobility (a C sample)",
    .game = "othello",
    .state_layout = PLYD_OTHELLO_STATE_LAYOUT,
    .score_bound = SCORE_BOUND,
    .default_params = DEFAULT_PARAMS,
    .create = squares_create,
    .destroy = squares_destroy,
    .evaluate = squares_evaluate,
    .explain = squares_explain,
    .stack_new = squares_stack_new,
    .stack_free = squares_stack_free,
    .stack_reset = squares_stack_reset,
    .stack_push = squares_stack_push,
    .stack_pop = squares_stack_pop,
    .stack_evaluate = squares_stack_evaluate,
};

const PlydEvaluatorApi *plyd_evaluator_api(void) {
    return &SQUARES;
}
