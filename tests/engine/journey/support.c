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

  json_decref(js_apply(&game, 0, "{\"type\":\"done\"}"));
  json_decref(js_apply(&game, 1, "{\"type\":\"done\"}"));
  assert_int_equal(js_state(game)->phase, JOURNEY_PHASE_CLIMB);
  return game;
}

struct engine_game *js_mountain(int seed)
{
  struct engine_game *game = js_climbing(seed);

  json_decref(js_apply(&game, 0, "{\"type\":\"end_turn\"}"));
  json_decref(js_apply(&game, 1, "{\"type\":\"end_turn\"}"));
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

char *js_text(const struct engine_game *game)
{
  char *text = engine_serialize_text(game);

  assert_non_null(text);
  return text;
}

static json_t *parse(const char *text)
{
  json_error_t jerr;
  json_t *json = json_loads(text, 0, &jerr);

  if (!json)
    fail_msg("bad JSON in test: %s (%s)", text, jerr.text);
  return json;
}

json_t *js_apply_p(struct engine_game **game, int seat, const char *move, int *pending)
{
  json_t *json = parse(move);
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

json_t *js_apply(struct engine_game **game, int seat, const char *move)
{
  return js_apply_p(game, seat, move, NULL);
}

struct cairn_error js_reject(struct engine_game *game, int seat, const char *move,
                             enum cairn_status status, const char *code, const char *rule)
{
  json_t *json = parse(move);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  char *before = js_text(game);
  char *after;
  enum cairn_status st = engine_apply(game, seat, json, &next, &events, &err);

  json_decref(json);
  if (st == CAIRN_OK) {
    engine_free(next);
    json_decref(events);
    fail_msg("move %s by seat %d was accepted", move, seat);
  }
  assert_int_equal(st, status);
  assert_null(next);
  assert_null(events);
  assert_string_equal(err.code, code);
  if (rule)
    assert_string_equal(err.rule, rule);
  else
    assert_null(err.rule);
  assert_true(err.detail[0] != '\0');
  after = js_text(game);
  assert_string_equal(before, after);
  free(before);
  free(after);
  return err;
}

json_t *js_event(json_t *events, const char *type, int nth)
{
  size_t i;
  json_t *ev;

  json_array_foreach(events, i, ev)
  {
    if (strcmp(json_string_value(json_object_get(ev, "type")), type) == 0 && nth-- == 0)
      return ev;
  }
  return NULL;
}

int js_count(json_t *events, const char *type)
{
  size_t i;
  json_t *ev;
  int n = 0;

  json_array_foreach(events, i, ev)
  {
    n += strcmp(json_string_value(json_object_get(ev, "type")), type) == 0;
  }
  return n;
}

int js_int(const json_t *obj, const char *key)
{
  const json_t *v = json_object_get(obj, key);

  if (!json_is_integer(v))
    fail_msg("member %s is missing or not an integer", key);
  return (int)json_integer_value(v);
}

int js_is_legal(struct engine_game *game, int seat, const char *move)
{
  json_t *json = parse(move);
  json_t *list = game->module->legal_moves(game, seat);
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
