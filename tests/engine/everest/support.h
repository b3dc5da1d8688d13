/*
 * support.h - helpers shared by the Everest tests: making games, editing a
 * position directly (the tests' way to build a situation), and driving
 * moves through engine_apply() with the checks every test repeats.
 *
 * Include after the cmocka prelude (stdarg.h, stddef.h, setjmp.h, stdint.h,
 * cmocka.h).
 */
#ifndef TESTS_EVEREST_SUPPORT_H
#define TESTS_EVEREST_SUPPORT_H

#include <jansson.h>

#include "engine/engine.h"
#include "tests/engine/kit.h"
#include "engine/everest/rules.h"
#include "engine/everest/state.h"

/* OUT, caller frees with engine_free: a new game whose seed is `seed` in
 * the first bytes and zeros elsewhere; round_cap 0 means the default (no cap);
 * every seat has chosen its base (es_bases). */
struct engine_game *es_new(int seats, int seed, int round_cap);

/* Seat n chooses inside corner n ("base" moves in seat order), as es_new
 * does for every game it makes. */
void es_bases(struct engine_game **game);

/* OUT, caller frees with engine_free: a new game still at the choice of
 * home bases. */
struct engine_game *es_new_unplaced(int seats, int seed);

/* Borrowed: the Everest state inside `game`, for editing a position. */
struct everest_state *es_state(struct engine_game *game);

/* The cell at 0-based row and col (asserts it is on the board). */
int es_cell(int row, int col);

/* Put seat's yeti at row, col (row -1: off the board). */
void es_place(struct engine_game *game, int seat, int row, int col);

/* Submit plans (JSON array texts, NULL for a seat that owes none) for
 * every seat in seat order. New reference: all events of the last one
 * (the reveal and the execution). */
json_t *es_plans(struct engine_game **game, const char *const *plans);

/* Load the dice: the game's next n die rolls show faces[] (0 null, 1 ace,
 * 2..5), by swapping in a generator seeded so. */
void es_dice(struct engine_game *game, const int *faces, int n);

/* Take every yeti off the board, so a test can place only the ones it
 * needs (a yeti off the board owes no plan). */
void es_quiet(struct engine_game *game);

/* Leave `seat` exactly the coins in `mask` (bit v: coin v), the others set
 * aside, so its plan is as long as the mask has coins (max 3). */
void es_coins(struct engine_game *game, int seat, unsigned mask);

/* Borrowed: seat's entry in a view or serialisation object. */
json_t *es_seat_view(json_t *view, int seat);

/* Give `seat` only coin `coin` and submit the one-coin plan (coin, face
 * "value"/"suit", dir) for it; seats whose yeti is off the board owe none.
 * Used to set up one action per yeti: call es_act for each acting seat,
 * in seat order; the last call resolves the step. New reference: that
 * call's events. */
json_t *es_act(struct engine_game **game, int seat, int coin, const char *face, const char *dir);

#endif
