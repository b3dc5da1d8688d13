/*
 * views.h - what the bots' tests (tests/bots/) share: a seat's view as
 * the bot is handed it, the title's write_view as JSON text.
 */
#ifndef CAIRN_TESTS_BOTS_VIEWS_H
#define CAIRN_TESTS_BOTS_VIEWS_H

#include "engine/engine.h"

/* Seat `seat`'s view of `game` (ENGINE_SPECTATOR for nobody's), as a
 * NUL-terminated text the caller frees; fails the test when it cannot be
 * written. */
char *bots_test_view_of(const struct engine_game *game, int seat);

#endif
