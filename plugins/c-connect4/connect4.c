/*
 * Connect Four (7 columns, 6 rows) as a plyd game plugin written in C, with
 * a built-in evaluator, `lines`. It is the sample for plugin authors: it
 * uses nothing but the C standard library and plyd_plugin.h.
 *
 * Build (from the repository root):
 *
 *   cc -std=c11 -O2 -Wall -Wextra -pedantic -shared -fPIC \
 *      -I plugins/api/include plugins/c-connect4/connect4.c \
 *      -o libplyd_game_connect4.so
 *
 * and put libplyd_game_connect4.so in a plyd plugin folder.
 *
 * Rules: players drop discs into columns; X moves first. Four in a row
 * (across, down or diagonal) wins; a full board is a draw.
 *
 * Text: moves are columns `a`..`g` (left to right; `1`..`7` accepted too).
 * A position is the rows from top to bottom separated by `/`, `X` and `O`
 * for discs, digits for runs of empty cells, then the side to move, `X` or
 * `O`: the start is `7/7/7/7/7/7 X`.
 *
 * Perft counts sequences of moves that stop at a win or a full board (an
 * ended game has no moves and counts nothing below it), so the plugin does
 * not declare PLYD_CAP_PERFT_COUNTS_ENDED_GAMES.
 *
 * Board representation: one 64-bit bitboard per player, 7 bits per column
 * (6 cells and an always-empty guard bit on top), bit = column * 7 + row,
 * row 0 at the bottom. The guard bits stop line tests from running from
 * one column into the next.
 *
 * Nothing here is shared between states except constant tables, so calls
 * on different states can run on different threads at once, as the ABI
 * allows.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plyd_plugin.h"

#define COLUMNS 7
#define ROWS 6
#define CELLS (COLUMNS * ROWS)
#define COLUMN_BITS (ROWS + 1)

typedef struct Connect4 {
    uint64_t discs[2];          /* [0] X (first player), [1] O */
    uint8_t height[COLUMNS];    /* discs in each column */
    uint8_t count;              /* discs on the board */
    uint8_t played;             /* moves in history */
    uint8_t history[CELLS];     /* columns played since the last set_position */
} Connect4;

/* Bit of the cell at `column`, `row` (row 0 at the bottom). */
static uint64_t cell(int column, int row) {
    return UINT64_C(1) << (column * COLUMN_BITS + row);
}

/* Whether `discs` holds four in a row in any direction. */
static int has_four(uint64_t discs) {
    /* 1: up a column; 7: along a row; 6 and 8: the two diagonals. */
    static const int steps[4] = {1, COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1};
    for (int i = 0; i < 4; i++) {
        uint64_t pairs = discs & (discs >> steps[i]);
        if (pairs & (pairs >> (2 * steps[i]))) {
            return 1;
        }
    }
    return 0;
}

static int side_of(const Connect4 *g) {
    return g->count & 1;
}

/* The outcome for the side to move: the player who just moved may have
 * made four. */
static int outcome_of(const Connect4 *g) {
    if (has_four(g->discs[side_of(g) ^ 1])) {
        return PLYD_OUTCOME_LOSS;
    }
    if (g->count == CELLS) {
        return PLYD_OUTCOME_DRAW;
    }
    return PLYD_OUTCOME_ONGOING;
}

/* Write `text` the snprintf way: at most `cap` bytes with the NUL; returns
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

/* ---- States ------------------------------------------------------------ */

static PlydState *state_new(uint32_t variant) {
    if (variant != 0) {
        return NULL;
    }
    Connect4 *g = calloc(1, sizeof *g);
    return (PlydState *)g;
}

static PlydState *state_clone(const PlydState *state) {
    Connect4 *copy = malloc(sizeof *copy);
    if (copy != NULL) {
        memcpy(copy, state, sizeof *copy);
    }
    return (PlydState *)copy;
}

static void state_free(PlydState *state) {
    free(state);
}

/* ---- Position text ------------------------------------------------------ */

static int32_t set_position(PlydState *state, const char *text, char *err, size_t err_cap) {
    Connect4 g;
    memset(&g, 0, sizeof g);
    int row = ROWS - 1, column = 0;
    const char *p = text;
    while (*p == ' ') {
        p++;
    }
    for (; *p != '\0' && *p != ' '; p++) {
        if (*p == '/') {
            if (column != COLUMNS) {
                snprintf(err, err_cap, "row %d has %d cells, not 7", ROWS - row, column);
                return PLYD_STATUS_INVALID;
            }
            if (--row < 0) {
                snprintf(err, err_cap, "more than 6 rows");
                return PLYD_STATUS_INVALID;
            }
            column = 0;
        } else if (*p >= '1' && *p <= '7') {
            column += *p - '0';
        } else if (*p == 'X' || *p == 'x' || *p == 'O' || *p == 'o') {
            if (column < COLUMNS) {
                g.discs[(*p == 'O' || *p == 'o') ? 1 : 0] |= cell(column, row);
            }
            column++;
        } else {
            snprintf(err, err_cap, "unexpected '%c' in the board", *p);
            return PLYD_STATUS_INVALID;
        }
        if (column > COLUMNS) {
            snprintf(err, err_cap, "row %d has more than 7 cells", ROWS - row);
            return PLYD_STATUS_INVALID;
        }
    }
    if (row != 0 || column != COLUMNS) {
        snprintf(err, err_cap, "the board needs 6 rows of 7 cells");
        return PLYD_STATUS_INVALID;
    }
    /* Discs rest on the bottom or on another disc. */
    uint64_t all = g.discs[0] | g.discs[1];
    for (int c = 0; c < COLUMNS; c++) {
        int h = 0;
        while (h < ROWS && (all & cell(c, h))) {
            h++;
        }
        for (int r = h; r < ROWS; r++) {
            if (all & cell(c, r)) {
                snprintf(err, err_cap, "a disc floats in column %c", 'a' + c);
                return PLYD_STATUS_INVALID;
            }
        }
        g.height[c] = (uint8_t)h;
        g.count = (uint8_t)(g.count + h);
    }
    while (*p == ' ') {
        p++;
    }
    int side;
    if ((p[0] == 'X' || p[0] == 'x') && p[1] == '\0') {
        side = 0;
    } else if ((p[0] == 'O' || p[0] == 'o') && p[1] == '\0') {
        side = 1;
    } else {
        snprintf(err, err_cap, "the side to move must be X or O");
        return PLYD_STATUS_INVALID;
    }
    /* X moves first, so X has as many discs as O, or one more. */
    int x = __builtin_popcountll(g.discs[0]), o = __builtin_popcountll(g.discs[1]);
    if (x - o != side) {
        snprintf(err, err_cap, "X has %d discs and O %d, so %s is to move", x, o,
                 x == o ? "X" : (x == o + 1 ? "O" : "nobody"));
        return PLYD_STATUS_INVALID;
    }
    if (has_four(g.discs[side])) {
        snprintf(err, err_cap, "the side to move has four in a row already");
        return PLYD_STATUS_INVALID;
    }
    *(Connect4 *)state = g;
    return PLYD_STATUS_OK;
}

static void format_board(const Connect4 *g, char *out) {
    char *w = out;
    for (int row = ROWS - 1; row >= 0; row--) {
        int empty = 0;
        for (int c = 0; c < COLUMNS; c++) {
            uint64_t b = cell(c, row);
            char disc = (g->discs[0] & b) ? 'X' : (g->discs[1] & b) ? 'O' : 0;
            if (disc == 0) {
                empty++;
                continue;
            }
            if (empty > 0) {
                *w++ = (char)('0' + empty);
                empty = 0;
            }
            *w++ = disc;
        }
        if (empty > 0) {
            *w++ = (char)('0' + empty);
        }
        *w++ = row > 0 ? '/' : ' ';
    }
    *w++ = side_of(g) ? 'O' : 'X';
    *w = '\0';
}

static int64_t get_position(const PlydState *state, char *buf, size_t cap) {
    char text[64];
    format_board((const Connect4 *)state, text);
    return write_text(text, buf, cap);
}

static int64_t board_text(const PlydState *state, char *buf, size_t cap) {
    const Connect4 *g = (const Connect4 *)state;
    char text[256];
    char *w = text;
    w += sprintf(w, " a b c d e f g\n");
    for (int row = ROWS - 1; row >= 0; row--) {
        for (int c = 0; c < COLUMNS; c++) {
            uint64_t b = cell(c, row);
            w += sprintf(w, " %c", (g->discs[0] & b) ? 'X' : (g->discs[1] & b) ? 'O' : '.');
        }
        w += sprintf(w, "\n");
    }
    sprintf(w, "%s to move; %d discs\n", side_of(g) ? "O" : "X", g->count);
    return write_text(text, buf, cap);
}

/* ---- Rules -------------------------------------------------------------- */

static int32_t side_to_move(const PlydState *state) {
    return side_of((const Connect4 *)state);
}

static int32_t outcome(const PlydState *state) {
    return outcome_of((const Connect4 *)state);
}

static int64_t gen_moves(const PlydState *state, PlydMove *buf, size_t cap) {
    const Connect4 *g = (const Connect4 *)state;
    if (outcome_of(g) != PLYD_OUTCOME_ONGOING) {
        return 0;
    }
    size_t n = 0;
    for (int c = 0; c < COLUMNS; c++) {
        if (g->height[c] < ROWS) {
            if (n < cap) {
                buf[n] = (PlydMove)c;
            }
            n++;
        }
    }
    return (int64_t)n;
}

static int32_t make_move(PlydState *state, PlydMove mv) {
    Connect4 *g = (Connect4 *)state;
    if (mv >= COLUMNS || g->height[mv] >= ROWS || g->played >= CELLS) {
        return PLYD_STATUS_INVALID;
    }
    g->discs[side_of(g)] |= cell((int)mv, g->height[mv]);
    g->height[mv]++;
    g->count++;
    g->history[g->played++] = (uint8_t)mv;
    return PLYD_STATUS_OK;
}

static int32_t unmake_move(PlydState *state, PlydMove mv) {
    Connect4 *g = (Connect4 *)state;
    if (g->played == 0 || g->history[g->played - 1] != mv) {
        return PLYD_STATUS_INVALID;
    }
    g->played--;
    g->count--;
    g->height[mv]--;
    g->discs[side_of(g)] &= ~cell((int)mv, g->height[mv]);
    return PLYD_STATUS_OK;
}

/* SplitMix64's finaliser: every input bit moves every output bit. */
static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t hash(const PlydState *state) {
    /* The side to move follows from the disc count, so the discs suffice. */
    const Connect4 *g = (const Connect4 *)state;
    return mix(mix(g->discs[0] ^ UINT64_C(0x9e3779b97f4a7c15)) ^ g->discs[1]);
}

static int32_t parse_move(const PlydState *state, const char *text, PlydMove *out) {
    (void)state;
    if (text == NULL || out == NULL || text[0] == '\0' || text[1] != '\0') {
        return PLYD_STATUS_INVALID;
    }
    char c = text[0];
    if (c >= 'a' && c <= 'g') {
        *out = (PlydMove)(c - 'a');
    } else if (c >= 'A' && c <= 'G') {
        *out = (PlydMove)(c - 'A');
    } else if (c >= '1' && c <= '7') {
        *out = (PlydMove)(c - '1');
    } else {
        return PLYD_STATUS_INVALID;
    }
    return PLYD_STATUS_OK;
}

static int64_t format_move(const PlydState *state, PlydMove mv, char *buf, size_t cap) {
    (void)state;
    char text[2] = {(char)('a' + (mv < COLUMNS ? mv : 0)), '\0'};
    if (mv >= COLUMNS) {
        return write_text("?", buf, cap);
    }
    return write_text(text, buf, cap);
}

static int32_t order_hints(const PlydState *state, const PlydMove *moves, size_t count,
                           int32_t *scores) {
    (void)state;
    /* The centre columns take part in the most lines: try them first. */
    for (size_t i = 0; i < count; i++) {
        int c = (int)moves[i];
        scores[i] = 3 - (c > 3 ? c - 3 : 3 - c);
    }
    return PLYD_STATUS_OK;
}

static uint64_t perft_walk(Connect4 *g, uint32_t depth) {
    if (depth == 0) {
        return 1;
    }
    if (outcome_of(g) != PLYD_OUTCOME_ONGOING) {
        return 0;
    }
    uint64_t total = 0;
    for (int c = 0; c < COLUMNS; c++) {
        if (g->height[c] < ROWS) {
            if (depth == 1) {
                total++;
                continue;
            }
            make_move((PlydState *)g, (PlydMove)c);
            total += perft_walk(g, depth - 1);
            unmake_move((PlydState *)g, (PlydMove)c);
        }
    }
    return total;
}

static int32_t perft(PlydState *state, uint32_t depth, uint64_t *out) {
    if (out == NULL) {
        return PLYD_STATUS_INVALID;
    }
    /* Work on a copy, so that a full history cannot stop make_move. */
    Connect4 g = *(Connect4 *)state;
    g.played = 0;
    *out = perft_walk(&g, depth);
    return PLYD_STATUS_OK;
}

/* ---- The `lines` evaluator ---------------------------------------------- */

/* Weights of the `lines` evaluator. */
typedef struct LinesParams {
    int32_t center; /* per own disc in the centre column */
    int32_t one;    /* per line of four cells holding one own disc and no other */
    int32_t two;    /* ... two own discs */
    int32_t three;  /* ... three own discs */
} LinesParams;

/* Near the largest score in play, as the search's margins are fractions of
 * it: with the default weights scores stayed within 460 over 300 random
 * games (`plyd check --evaluator lines`) and 322 in games at depth 6;
 * `plyd bench connect4` searched 280,288 nodes with this bound against
 * 305,622 with a bound of 1,000,000. Weights far above the defaults need a
 * larger bound: scores past it are clamped. */
#define LINES_SCORE_BOUND 1000
#define LINES_MAX_WEIGHT 10000

static const char LINES_DEFAULT_PARAMS[] =
    "# Weights of the `lines` Connect Four evaluator: every line of four\n"
    "# cells that only one player has discs in scores for that player by how\n"
    "# many discs it holds; discs in the centre column score on their own.\n"
    "# Integers from -10000 to 10000.\n"
    "center = 3\n"
    "one = 1\n"
    "two = 8\n"
    "three = 40\n";

/* Every line of four cells on the board, as bitboards: 69 of them. */
static uint64_t LINES[69];
static int LINE_COUNT = 0;

static void build_lines(void) {
    /* (column step, row step) for across, up, and the two diagonals. */
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int n = 0;
    for (int d = 0; d < 4; d++) {
        for (int c = 0; c < COLUMNS; c++) {
            for (int r = 0; r < ROWS; r++) {
                int ec = c + 3 * dirs[d][0], er = r + 3 * dirs[d][1];
                if (ec < 0 || ec >= COLUMNS || er < 0 || er >= ROWS) {
                    continue;
                }
                uint64_t line = 0;
                for (int k = 0; k < 4; k++) {
                    line |= cell(c + k * dirs[d][0], r + k * dirs[d][1]);
                }
                LINES[n++] = line;
            }
        }
    }
    LINE_COUNT = n;
}

/* The table of lines is built once, before any evaluator exists, from the
 * library's constructor; after that it is only read, so evaluators on
 * several threads share it safely. */
__attribute__((constructor)) static void init_lines(void) {
    build_lines();
}

/* Parse `key = integer` lines (comments after `#`). The sample keeps to
 * this subset of TOML and refuses anything else with a reason. */
static int parse_lines_params(const char *text, LinesParams *p, char *err, size_t err_cap) {
    LinesParams q = {3, 1, 8, 40};
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
        int32_t *slot = strcmp(key, "center") == 0 ? &q.center
                        : strcmp(key, "one") == 0  ? &q.one
                        : strcmp(key, "two") == 0  ? &q.two
                        : strcmp(key, "three") == 0 ? &q.three
                                                    : NULL;
        if (slot == NULL) {
            snprintf(err, err_cap, "key '%s': unknown (expected center, one, two or three)", key);
            return 0;
        }
        if (tail == rest || *tail != '\0') {
            snprintf(err, err_cap, "key '%s': expected an integer", key);
            return 0;
        }
        if (value < -LINES_MAX_WEIGHT || value > LINES_MAX_WEIGHT) {
            snprintf(err, err_cap, "key '%s': %ld is outside [-10000, 10000]", key, value);
            return 0;
        }
        *slot = (int32_t)value;
    }
    *p = q;
    return 1;
}

static PlydEvalContext *lines_create(const char *params, char *err, size_t err_cap) {
    LinesParams p;
    if (!parse_lines_params(params ? params : LINES_DEFAULT_PARAMS, &p, err, err_cap)) {
        return NULL;
    }
    LinesParams *ctx = malloc(sizeof *ctx);
    if (ctx == NULL) {
        snprintf(err, err_cap, "out of memory");
        return NULL;
    }
    *ctx = p;
    return (PlydEvalContext *)ctx;
}

static void lines_destroy(PlydEvalContext *ctx) {
    free(ctx);
}

/* The raw terms for the side to move: centre discs and lines of 1, 2, 3
 * own discs, each own minus the opponent's. */
static void lines_terms(const Connect4 *g, int64_t terms[4]) {
    uint64_t own = g->discs[side_of(g)], opp = g->discs[side_of(g) ^ 1];
    uint64_t centre = 0;
    for (int r = 0; r < ROWS; r++) {
        centre |= cell(3, r);
    }
    terms[0] = __builtin_popcountll(own & centre) - __builtin_popcountll(opp & centre);
    terms[1] = terms[2] = terms[3] = 0;
    for (int i = 0; i < LINE_COUNT; i++) {
        int mine = __builtin_popcountll(own & LINES[i]);
        int theirs = __builtin_popcountll(opp & LINES[i]);
        if (mine > 0 && theirs == 0 && mine < 4) {
            terms[mine]++;
        } else if (theirs > 0 && mine == 0 && theirs < 4) {
            terms[theirs]--;
        }
    }
}

static int32_t lines_score(const LinesParams *p, const int64_t terms[4]) {
    int64_t total = p->center * terms[0] + p->one * terms[1] + p->two * terms[2] +
                    p->three * terms[3];
    if (total > LINES_SCORE_BOUND) {
        total = LINES_SCORE_BOUND;
    } else if (total < -LINES_SCORE_BOUND) {
        total = -LINES_SCORE_BOUND;
    }
    return (int32_t)total;
}

static int32_t lines_evaluate(const PlydEvalContext *ctx, const PlydState *state, int32_t *out) {
    if (ctx == NULL || state == NULL || out == NULL) {
        return PLYD_STATUS_INVALID;
    }
    int64_t terms[4];
    lines_terms((const Connect4 *)state, terms);
    *out = lines_score((const LinesParams *)ctx, terms);
    return PLYD_STATUS_OK;
}

static int64_t lines_explain(const PlydEvalContext *ctx, const PlydState *state, char *buf,
                             size_t cap) {
    if (ctx == NULL || state == NULL) {
        return PLYD_STATUS_INVALID;
    }
    int64_t t[4];
    lines_terms((const Connect4 *)state, t);
    char text[256];
    snprintf(text, sizeof text,
             "center %lld\nlines_of_one %lld\nlines_of_two %lld\nlines_of_three %lld\ntotal %d\n",
             (long long)t[0], (long long)t[1], (long long)t[2], (long long)t[3],
             lines_score((const LinesParams *)ctx, t));
    return write_text(text, buf, cap);
}

/* ---- Tables ------------------------------------------------------------- */

static const PlydEvaluatorApi LINES_EVALUATOR = {
    .abi_version = PLYD_ABI_VERSION,
    .table_size = sizeof(PlydEvaluatorApi),
    .name = "lines",
    .description = "Open lines of four weighted by how full they are, plus centre discs",
    .game = "connect4",
    .state_layout = 1,
    .score_bound = LINES_SCORE_BOUND,
    .default_params = LINES_DEFAULT_PARAMS,
    .create = lines_create,
    .destroy = lines_destroy,
    .evaluate = lines_evaluate,
    .explain = lines_explain,
};

static const PlydEvaluatorApi *const EVALUATORS[] = {&LINES_EVALUATOR};

static const PlydVariantInfo VARIANTS[] = {
    {.name = "connect4", .start_position = "7/7/7/7/7/7 X"},
};

static const PlydGameApi GAME = {
    .abi_version = PLYD_ABI_VERSION,
    .table_size = sizeof(PlydGameApi),
    .name = "connect4",
    .plugin_version = "1.0 (C sample)",
    .variant_count = 1,
    .state_layout = 1,
    .variants = VARIANTS,
    /* No null move: Connect Four is a game of zugzwang. */
    .capabilities = 0,
    .max_game_plies = CELLS,
    .evaluator_count = 1,
    .evaluators = EVALUATORS,
    .state_new = state_new,
    .state_clone = state_clone,
    .state_free = state_free,
    .set_position = set_position,
    .get_position = get_position,
    .side_to_move = side_to_move,
    .outcome = outcome,
    .gen_moves = gen_moves,
    .make_move = make_move,
    .unmake_move = unmake_move,
    .hash = hash,
    .parse_move = parse_move,
    .format_move = format_move,
    .board_text = board_text,
    .gen_noisy = NULL,
    .order_hints = order_hints,
    .in_check = NULL,
    .chance_outcomes = NULL,
    .perft = perft,
};

PLYD_EXPORT const PlydGameApi *plyd_game_api(void) {
    return &GAME;
}
