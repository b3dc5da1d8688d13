/*
 * support.c - shared helpers for the Journey tests (see support.h). Linked
 * into every test binary of this folder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "support.h"

struct engine_game *js_new(int seed)
{
  return js_new_limit(seed, 0);
}

struct engine_game *js_new_limit(int seed, int turn_limit)
{
  uint8_t bytes[ENGINE_SEED_BYTES] = {0};
  json_t *options = turn_limit ? json_pack("{s:i}", "turn_limit", turn_limit) : NULL;
  struct engine_setup setup = {.seats = 3, .options = options};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  bytes[0] = (uint8_t)seed;
  bytes[1] = (uint8_t)(seed >> 8);
  bytes[2] = (uint8_t)(seed >> 16);
  bytes[3] = (uint8_t)(seed >> 24);
  assert_int_equal(engine_new(&journey_module, &setup, bytes, &game, &err), CAIRN_OK);
  assert_non_null(game);
  json_decref(options);
  return game;
}

struct engine_game *js_climbing(int seed)
{
  struct engine_game *game = js_new(seed);

  json_decref(kit_apply(&game, 0, "{\"type\":\"done\"}"));
  json_decref(kit_apply(&game, 1, "{\"type\":\"done\"}"));
  assert_int_equal(js_state(game)->phase, JOURNEY_PHASE_CLIMB);
  return game;
}

struct engine_game *js_mountain(int seed)
{
  struct engine_game *game = js_climbing(seed);

  json_decref(kit_apply(&game, 0, "{\"type\":\"end_turn\"}"));
  json_decref(kit_apply(&game, 1, "{\"type\":\"end_turn\"}"));
  assert_int_equal(js_state(game)->phase, JOURNEY_PHASE_MOUNTAIN);
  return game;
}

struct journey_state *js_state(struct engine_game *game)
{
  return (struct journey_state *)game;
}

void js_hand(struct engine_game *game, const int counts[JOURNEY_CARDS])
{
  memcpy(js_state(game)->hand, counts, sizeof(int) * JOURNEY_CARDS);
}

json_t *js_apply_p(struct engine_game **game, int seat, const char *move, int *pending)
{
  json_t *json = kit_parse(move);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  enum cairn_status st = engine_apply(*game, seat, json, &next, &events, &err);

  if (st != CAIRN_OK)
    fail_msg("move %s by seat %d failed: %s (%s)", move, seat, err.detail,
             err.code ? err.code : "");
  if (pending)
    *pending = next->seq == (*game)->seq;
  json_decref(json);
  engine_free(*game);
  *game = next;
  return events;
}

int js_is_legal(struct engine_game *game, int seat, const char *move)
{
  json_t *json = kit_parse(move);
  json_t *list = engine_legal_moves(game, seat);
  json_t *item;
  size_t i;
  int found = 0;

  json_array_foreach(list, i, item)
  {
    found = found || json_equal(item, json);
  }
  json_decref(json);
  json_decref(list);
  return found;
}

int js_space(const char *name)
{
  int s = journey_space_named(name);

  if (s < 0)
    fail_msg("no space %s", name);
  return s;
}

void js_put(struct engine_game *game, int seat, const char *space)
{
  js_state(game)->climber[seat].space = js_space(space);
}

void js_next_die(struct engine_game *game, int first)
{
  struct engine_rng probe;
  int i;

  for (i = 0; i < 1000; i++) {
    probe = game->rng;
    if (engine_rng_die(&probe, 6) == first)
      return;
    engine_rng_next(&game->rng);
  }
  fail_msg("no die showing %d in 1000 words", first);
}
