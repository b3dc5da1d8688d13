/*
 * kit.h - test helpers shared by every title's engine tests: driving moves
 * through engine_apply() with the checks each rules test repeats, and
 * reading events. Title-specific helpers (building positions) stay in
 * tests/engine/<title>/support.c.
 *
 * Include after the cmocka prelude (stdarg.h, stddef.h, setjmp.h, stdint.h,
 * cmocka.h).
 */
#ifndef TESTS_ENGINE_KIT_H
#define TESTS_ENGINE_KIT_H

#include <jansson.h>

#include "engine/engine.h"

/* New reference: `text` parsed as JSON, failing the test when it is not. */
json_t *kit_parse(const char *text);

/* New string, caller frees: engine_serialize_text(game), never NULL. */
char *kit_text(const struct engine_game *game);

/* Apply `move` (JSON text) for `seat`, asserting success; *game is replaced
 * by the new state. New reference: the events, caller decrefs. */
json_t *kit_apply(struct engine_game **game, int seat, const char *move);

/* Apply `move` for `seat`, asserting it fails with `status`, `code` and
 * `rule` (NULL for none), with a detail, and leaves the game unchanged.
 * Returns the error so the test can look at the detail. */
struct cairn_error kit_reject(struct engine_game *game, int seat, const char *move,
                              enum cairn_status status, const char *code, const char *rule);

/* Borrowed from `events`: the nth (0-based) event of `type`, or NULL. */
json_t *kit_event(json_t *events, const char *type, int nth);

/* How many events of `type` there are. */
int kit_count(json_t *events, const char *type);

/* An integer member of `obj`, failing the test when it is missing. */
int kit_int(const json_t *obj, const char *key);

/* True when engine_apply accepts `move` (borrowed) for `seat`; the game is
 * not changed either way. */
int kit_accepts(const struct engine_game *game, int seat, const json_t *move);

/* How many random games a property loop plays: `full`, or fewer when
 * CAIRN_PROPERTY_GAMES caps it. make test runs the property tests twice:
 * under the sanitizers with a cap (every path they check, at a fraction of
 * the cost: a game is about ten times slower there), then built -O2 with
 * every game (build.mk, run-tests). */
int kit_games(int full);

/* Replay `moves` ([[seat, move], ...]) from `start` (taken, freed here) and
 * assert that each move is accepted with exactly the recorded `events` (one
 * array per move) and that the final state serialises to `final`: the
 * property "replay == live state, bit for bit". */
void kit_replay_matches(struct engine_game *start, const json_t *moves, const json_t *events,
                        const char *final);

#endif
