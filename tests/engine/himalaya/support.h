/*
 * support.h - helpers shared by the Himalaya tests: making games, editing a
 * position directly (the tests' way to build a situation), and driving
 * moves through engine_apply() with the checks every test repeats.
 *
 * Include after the cmocka prelude (stdarg.h, stddef.h, setjmp.h, stdint.h,
 * cmocka.h).
 */
#ifndef TESTS_HIMALAYA_SUPPORT_H
#define TESTS_HIMALAYA_SUPPORT_H

#include <jansson.h>

#include "engine/engine.h"
#include "tests/engine/kit.h"
#include "engine/himalaya/rules.h"
#include "engine/himalaya/state.h"

/* OUT, caller frees with engine_free: a new game whose seed is `seed` in
 * the first byte and zeros elsewhere. */
struct engine_game *hs_new(int seats, int seed);

/* Borrowed: the Himalaya state inside `game`, for editing a position. */
struct himalaya_state *hs_state(struct engine_game *game);

/* Put seat's four Sherpas on the given fields. */
void hs_sherpas(struct engine_game *game, int seat, int a, int b, int c, int d);

/* Empty the pool and put `n` dice showing values[] in it. */
void hs_pool(struct engine_game *game, const int *values, int n);

/* Replace the undrawn Yeti stack (top first). */
void hs_deck(struct engine_game *game, const int *cards, int n);

/* A quiet board for tests: every climber at base camp, every Sherpa of
 * every seat at base camp, the Yeti on field 39 and seat 0 to act. */
void hs_clear(struct engine_game *game);

/* How many Sherpas of `seat` stand on `field`. */
int hs_own(struct engine_game *game, int seat, int field);

/* True when `move` (JSON text) is among legal_moves for `seat`, compared
 * in canonical form. */
int hs_is_legal(struct engine_game *game, int seat, const char *move);

/* New reference: every move of the move shapes in canonical form (every
 * die value, card, pawn, Sherpa, direction, companion set and restore
 * card, legal or not, but well-formed), for checking legal_moves against apply_move. */
json_t *hs_candidates(void);

/* True when `move` (Borrowed) is json_equal to an element of `list`. */
int hs_listed(const json_t *list, const json_t *move);

/* How a climbing player rates the position after a move for `seat` (the
 * whole-game tests' and the property test's climbing players): its
 * climber's height first, then pairs of its Sherpas within a die's reach
 * ahead of it (the next base camp), then its Sherpas' height; a won
 * summit above all. */
long hs_climbing_value(struct engine_game *game, int seat);

#endif
