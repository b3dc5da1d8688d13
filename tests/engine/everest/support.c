/*
 * support.c - shared helpers for the Everest tests (see support.h). Linked
 * into every test binary of this folder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

struct engine_game *es_new(int seats, int seed, int round_cap)
{
  uint8_t bytes[ENGINE_SEED_BYTES] = {0};
  json_t *options = round_cap ? json_pack("{s:i}", "round_cap", round_cap) : NULL;
  struct engine_setup setup = {.seats = seats, .options = options};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  bytes[0] = (uint8_t)seed;
  bytes[1] = (uint8_t)(seed >> 8);
  bytes[2] = (uint8_t)(seed >> 16);
  bytes[3] = (uint8_t)(seed >> 24);
  assert_int_equal(engine_new(&everest_module, &setup, bytes, &game, &err), CAIRN_OK);
  assert_non_null(game);
  json_decref(options);
  return game;
}

struct everest_state *es_state(struct engine_game *game)
{
  return (struct everest_state *)game;
}

int es_cell(int row, int col)
{
  int cell = everest_cell(row, col);

  assert_int_not_equal(cell, EVEREST_OFF);
  return cell;
}

void es_place(struct engine_game *game, int seat, int row, int col)
{
  es_state(game)->yeti[seat].cell = row < 0 ? EVEREST_OFF : es_cell(row, col);
}

char *es_text(const struct engine_game *game)
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

json_t *es_apply(struct engine_game **game, int seat, const char *move)
{
  json_t *json = parse(move);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  enum cairn_status st = engine_apply(*game, seat, json, &next, &events, &err);

  if (st != CAIRN_OK)
    fail_msg("move %s by seat %d failed: %s (%s)", move, seat, err.detail,
             err.code ? err.code : "");
  json_decref(json);
  engine_free(*game);
  *game = next;
  return events;
}

json_t *es_plans(struct engine_game **game, const char *const *plans)
{
  json_t *events = NULL;
  int seat;

  for (seat = 0; seat < (*game)->seats; seat++) {
    char move[512];

    if (!plans[seat])
      continue;
    snprintf(move, sizeof(move), "{\"type\":\"plan\",\"plan\":%s}", plans[seat]);
    json_decref(events);
    events = es_apply(game, seat, move);
  }
  return events;
}

struct cairn_error es_reject(struct engine_game *game, int seat, const char *move,
                             enum cairn_status status, const char *code, const char *rule)
{
  json_t *json = parse(move);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  char *before = es_text(game), *after;

  assert_int_equal(engine_apply(game, seat, json, &next, &events, &err), status);
  assert_null(next);
  assert_null(events);
  assert_string_equal(err.code, code);
  if (rule)
    assert_string_equal(err.rule, rule);
  else
    assert_null(err.rule);
  after = es_text(game);
  assert_string_equal(before, after);
  free(before);
  free(after);
  json_decref(json);
  return err;
}

json_t *es_event(json_t *events, const char *type, int nth)
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

int es_count(json_t *events, const char *type)
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

int es_int(const json_t *obj, const char *key)
{
  const json_t *value = json_object_get(obj, key);

  if (!json_is_integer(value))
    fail_msg("no integer %s", key);
  return (int)json_integer_value(value);
}

int es_accepts(const struct engine_game *game, int seat, const json_t *move)
{
  struct engine_game *next = NULL;
  json_t *events = NULL;
  enum cairn_status st = engine_apply(game, seat, move, &next, &events, NULL);

  engine_free(next);
  json_decref(events);
  return st == CAIRN_OK;
}

void es_dice(struct engine_game *game, const int *faces, int n)
{
  uint32_t s;

  /* Find a seed whose next n rolls show `faces` and put that generator in
   * the game: the test's way to load the dice, without touching the
   * engine's code. */
  for (s = 1; s < 50000000u; s++) {
    uint8_t bytes[ENGINE_SEED_BYTES] = {0};
    struct engine_rng rng;
    int i;

    bytes[0] = (uint8_t)s;
    bytes[1] = (uint8_t)(s >> 8);
    bytes[2] = (uint8_t)(s >> 16);
    bytes[3] = (uint8_t)(s >> 24);
    bytes[31] = 0xd1;
    engine_rng_seed(&rng, bytes);
    for (i = 0; i < n && engine_rng_die(&rng, EVEREST_DIE_SIDES) - 1 == faces[i]; i++)
      ;
    if (i == n) {
      engine_rng_seed(&game->rng, bytes);
      return;
    }
  }
  fail_msg("no seed gives those dice");
}

void es_quiet(struct engine_game *game)
{
  int seat;

  for (seat = 0; seat < game->seats; seat++)
    es_state(game)->yeti[seat].cell = EVEREST_OFF;
}

void es_coins(struct engine_game *game, int seat, unsigned mask)
{
  es_state(game)->seat[seat].aside = ((1u << EVEREST_COINS) - 1) & ~mask;
}

json_t *es_seat_view(json_t *view, int seat)
{
  return json_array_get(json_object_get(view, "seats"), (size_t)seat);
}

json_t *es_act(struct engine_game **game, int seat, int coin, const char *face, const char *dir)
{
  char move[160];

  es_coins(*game, seat, 1u << coin);
  snprintf(move, sizeof(move),
           "{\"type\":\"plan\",\"plan\":[{\"coin\":%d,\"face\":\"%s\",\"dir\":\"%s\"}]}", coin,
           face, dir);
  return es_apply(game, seat, move);
}
