/*
 * kit.c - the shared engine-test helpers (kit.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

json_t *kit_parse(const char *text)
{
  json_error_t jerr;
  json_t *json = json_loads(text, 0, &jerr);

  if (!json)
    fail_msg("bad JSON in test: %s (%s)", text, jerr.text);
  return json;
}

char *kit_text(const struct engine_game *game)
{
  char *text = engine_serialize_text(game);

  assert_non_null(text);
  return text;
}

json_t *kit_apply(struct engine_game **game, int seat, const char *move)
{
  json_t *json = kit_parse(move);
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

struct cairn_error kit_reject(struct engine_game *game, int seat, const char *move,
                              enum cairn_status status, const char *code, const char *rule)
{
  json_t *json = kit_parse(move);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  char *before = kit_text(game);
  char *after;
  enum cairn_status st = engine_apply(game, seat, json, &next, &events, &err);

  json_decref(json);
  if (st == CAIRN_OK) {
    engine_free(next);
    json_decref(events);
    fail_msg("move %s by seat %d was accepted", move, seat);
  }
  assert_int_equal(st, status);
  assert_int_equal(err.status, status);
  assert_null(next);
  assert_null(events);
  assert_string_equal(err.code, code);
  if (rule)
    assert_string_equal(err.rule, rule);
  else
    assert_null(err.rule);
  assert_true(err.detail[0] != '\0');
  after = kit_text(game);
  assert_string_equal(before, after);
  free(before);
  free(after);
  return err;
}

json_t *kit_event(json_t *events, const char *type, int nth)
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

int kit_count(json_t *events, const char *type)
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

int kit_int(const json_t *obj, const char *key)
{
  const json_t *value = json_object_get(obj, key);

  if (!json_is_integer(value))
    fail_msg("no integer member %s", key);
  return (int)json_integer_value(value);
}

int kit_accepts(const struct engine_game *game, int seat, const json_t *move)
{
  struct engine_game *next = NULL;
  json_t *events = NULL;
  enum cairn_status st = engine_apply(game, seat, move, &next, &events, NULL);

  engine_free(next);
  json_decref(events);
  return st == CAIRN_OK;
}

void kit_replay_matches(struct engine_game *start, const json_t *moves, const json_t *events,
                        const char *final)
{
  struct engine_game *game = start;
  const json_t *entry;
  size_t i;
  char *text;

  json_array_foreach(moves, i, entry)
  {
    struct engine_game *next = NULL;
    json_t *produced = NULL;
    struct cairn_error err = {0};
    int seat = (int)json_integer_value(json_array_get(entry, 0));

    if (engine_apply(game, seat, json_array_get(entry, 1), &next, &produced, &err) != CAIRN_OK)
      fail_msg("replayed move %zu refused: %s", i, err.detail);
    assert_true(json_equal(produced, json_array_get(events, i)));
    json_decref(produced);
    engine_free(game);
    game = next;
  }
  text = kit_text(game);
  assert_string_equal(text, final);
  free(text);
  engine_free(game);
}

int kit_games(int full)
{
  const char *cap = getenv("CAIRN_PROPERTY_GAMES");
  long n = cap ? strtol(cap, NULL, 10) : 0;

  return n > 0 && n < full ? (int)n : full;
}
