/*
 * support.h - helpers shared by the Because It's There! tests: making
 * games, editing a position directly, and driving moves through
 * engine_apply() with the checks every test repeats.
 *
 * Include after the cmocka prelude (stdarg.h, stddef.h, setjmp.h, stdint.h,
 * cmocka.h).
 */
#ifndef TESTS_BIT_SUPPORT_H
#define TESTS_BIT_SUPPORT_H

#include <jansson.h>

#include "engine/because-its-there/rules.h"
#include "engine/because-its-there/state.h"
#include "engine/engine.h"
#include "tests/engine/kit.h"

extern const struct engine_module bit_module;

/* OUT, caller frees with engine_free: a new game of `scenario` ("1924",
 * "1953", "1963", "dream-teams") with `seed` in the first bytes. */
struct engine_game *bt_new(const char *scenario, int seed);

/* Borrowed: the state inside `game`, for editing a position. */
struct bit_state *bt_state(struct engine_game *game);

/* True when `move` (JSON text) is in legal_moves for `seat`. */
int bt_is_legal(struct engine_game *game, int seat, const char *move);

/* A quiet position for rule tests: the game (1953 by default, via
 * bt_new) is put in the Movement Phase of turn `turn` with every seat's
 * cards back in their decks, nothing on the mountain, Good weather. */
void bt_clear(struct engine_game *game, int phase, int turn);

/* Put a card from wherever it is into seat's hand. */
void bt_hand(struct engine_game *game, int seat, int card);

/* Form a new team at `at` (Terrain id or BIT_ABC) from the -1-terminated
 * cards (Climbers/Sherpas members, Supplies loaded). Returns its slot. */
int bt_team(struct engine_game *game, int seat, int at, const int *cards);

/* Put `event` on top of the Event deck. */
void bt_event_top(struct engine_game *game, int event);

/* Terrain card at index i of seat's route. */
int bt_route(struct engine_game *game, int seat, int i);

#endif
