/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * plyd_states.h - what an evaluator plugin written in C or C++ may read of
 * the states of plyd's four game plugins: state layout 1 of each.
 *
 * An evaluator is handed the game plugin's own `const PlydState *`; cast
 * it to the struct of its game below. Each struct is the state's prefix,
 * the contract: what follows it in memory is private to the game plugin
 * and may change with any build. A change to a prefix bumps its game's
 * layout number, and plyd refuses an evaluator whose `state_layout`
 * differs from the loaded game's, so declare the number given here:
 *
 *     table.game = "othello";
 *     table.state_layout = PLYD_OTHELLO_STATE_LAYOUT;
 *
 * The Rust definitions are in each game's rules crate
 * (plugins/<game>-rules/src/lib.rs, "State layout 1"); a test in
 * tests/c_plugin.rs compiles this header against their offsets and values.
 */
#ifndef PLYD_STATES_H
#define PLYD_STATES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Othello ------------------------------------------------------------ */

#define PLYD_OTHELLO_STATE_LAYOUT 1u

/* Square (file f, row r), both from 0 (a1 is f 0, r 0; h8 is f 7, r 7): bit
 * r * 8 + f of each bitboard. */
typedef struct PlydOthelloStateV1 {
    uint64_t black; /* Black's discs */
    uint64_t white; /* White's discs */
    uint8_t side;   /* 0: Black to move, 1: White */
} PlydOthelloStateV1;

/* ---- Xiangqi ------------------------------------------------------------ */

#define PLYD_XIANGQI_STATE_LAYOUT 1u

/* A square's piece: 0 empty, else its kind, plus PLYD_XIANGQI_BLACK for a
 * Black piece. */
#define PLYD_XIANGQI_EMPTY 0u
#define PLYD_XIANGQI_GENERAL 1u
#define PLYD_XIANGQI_ADVISOR 2u
#define PLYD_XIANGQI_ELEPHANT 3u
#define PLYD_XIANGQI_HORSE 4u
#define PLYD_XIANGQI_CHARIOT 5u
#define PLYD_XIANGQI_CANNON 6u
#define PLYD_XIANGQI_PAWN 7u
#define PLYD_XIANGQI_BLACK 8u

/* Square (file f 0..8 from Red's left, rank r 0..9 from Red's back rank):
 * board[r * 9 + f]. */
typedef struct PlydXiangqiStateV1 {
    uint8_t board[90];
    uint8_t side; /* 0: Red to move, 1: Black */
} PlydXiangqiStateV1;

/* ---- The Amazons -------------------------------------------------------- */

#define PLYD_AMAZONS_STATE_LAYOUT 1u

#define PLYD_AMAZONS_EMPTY 0u
#define PLYD_AMAZONS_FIRST 1u  /* an amazon of the first player */
#define PLYD_AMAZONS_SECOND 2u /* an amazon of the second player */
#define PLYD_AMAZONS_ARROW 3u

/* Board side n (4 to 10; 10 for `amazons`, 8 for `amazons8`); square (file
 * f, rank r), both from 0: cells[r * n + f]; cells from n * n on are 0. */
typedef struct PlydAmazonsStateV1 {
    uint8_t size;
    uint8_t side; /* 0: the first player to move, 1: the second */
    uint8_t cells[100];
} PlydAmazonsStateV1;

/* ---- EinStein wuerfelt nicht -------------------------------------------- */

#define PLYD_EINSTEIN_STATE_LAYOUT 1u

/* stage */
#define PLYD_EINSTEIN_RED_ARRANGES 0u
#define PLYD_EINSTEIN_BLUE_ARRANGES 1u
#define PLYD_EINSTEIN_PLAY 2u

/* The 5x5 board, square (file f, rank r), both from 0: cells[r * 5 + f]
 * (a1 is 0, e1 4, a5 20; Red starts around a5, Blue around e1);
 * a cell holds 0 when empty, 1..6 for Red's stone of that number, 7..12
 * for Blue's stone number n - 6. */
typedef struct PlydEinsteinStateV1 {
    uint8_t cells[25];
    uint8_t side;  /* 0: Red to move (or to roll), 1: Blue */
    uint8_t roll;  /* 0: not rolled yet, else the die's face 1..6 */
    uint8_t stage; /* PLYD_EINSTEIN_RED_ARRANGES ... PLYD_EINSTEIN_PLAY */
} PlydEinsteinStateV1;

#ifdef __cplusplus
}
#endif

#endif /* PLYD_STATES_H */
