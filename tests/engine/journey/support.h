/*
 * support.h - helpers shared by the Journey tests: making games, editing a
 * position directly (the tests' way to build a situation), and driving
 * moves through engine_apply() with the checks every test repeats.
 *
 * Include after the cmocka prelude (stdarg.h, stddef.h, setjmp.h, stdint.h,
 * cmocka.h).
 */
#ifndef TESTS_JOURNEY_SUPPORT_H
#define TESTS_JOURNEY_SUPPORT_H

#include <jansson.h>

#include "engine/engine.h"
#include "tests/engine/kit.h"
#include "engine/journey/rules.h"
#include "engine/journey/state.h"

/* OUT, caller frees with engine_free: a new game (buying phase) whose seed
 * is `seed` in the first bytes and zeros elsewhere. */
struct engine_game *js_new(int seed);

/* As js_new with option turn_limit (0: the default). */
struct engine_game *js_new_limit(int seed, int turn_limit);

/* OUT, caller frees with engine_free: a game in the climbers' turn 1 with
 * nothing bought (both climbers sent "done"). */
struct engine_game *js_climbing(int seed);

/* OUT, caller frees with engine_free: a game at the start of the Mountain's
 * turn 1 (both climbers ended turn 1 at base camp). */
struct engine_game *js_mountain(int seed);

/* Borrowed: the Journey state inside `game`, for editing a position. */
struct journey_state *js_state(struct engine_game *game);

/* Set the Mountain's hand to the given counts (by enum journey_card). */
void js_hand(struct engine_game *game, const int counts[JOURNEY_CARDS]);

json_t *js_apply_p(struct engine_game **game, int seat, const char *move, int *pending);

/* True when `move` (JSON text) is among legal_moves for `seat`. */
int js_is_legal(struct engine_game *game, int seat, const char *move);

/* The space numbered by name ("L3-E"), failing on an unknown name. */
int js_space(const char *name);

/* Put climber `seat` on `space` (by name). */
void js_put(struct engine_game *game, int seat, const char *space);

/* Give the game's generator a position from which the next die rolls are
 * known: skips words until the next engine_rng_die(6) gives `first`. */
void js_next_die(struct engine_game *game, int first);

#endif
