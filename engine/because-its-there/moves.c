/*
 * moves.c - reading a move object into a `struct bit_move` (and back),
 * rejecting unknown types, unknown or missing members and wrong types.
 * Which moves are legal is the rules files' business.
 */
#include "engine/because-its-there/state.h"

#include <stdlib.h>
#include <string.h>

enum field {
  F_CARD = 1,
  F_TEAM = 2,
  F_DIR = 4,
  F_ROUTE = 8,
  F_AT = 16,
  F_CLIMBER = 32,
  F_COUNT = 64,
  F_USE = 128
};

struct shape {
  const char *name;
  int type;     /* enum bit_move_type */
  int required; /* enum field bits */
  int optional;
};

static const struct shape shapes[] = {
    {"draft", BIT_M_DRAFT, F_CLIMBER, 0},
    {"route", BIT_M_ROUTE, F_ROUTE, 0},
    {"discard", BIT_M_DISCARD, F_CARD, 0},
    {"draw", BIT_M_DRAW, 0, F_COUNT},
    {"deploy", BIT_M_DEPLOY, F_CARD, F_TEAM},
    {"ready", BIT_M_READY, 0, 0},
    {"move", BIT_M_MOVE, F_TEAM | F_DIR, F_ROUTE},
    {"cache", BIT_M_CACHE, F_TEAM | F_CARD, 0},
    {"unload", BIT_M_UNLOAD, F_TEAM | F_CARD, 0},
    {"load", BIT_M_LOAD, F_TEAM | F_CARD, 0},
    {"carry", BIT_M_CARRY, F_TEAM | F_CLIMBER, 0},
    {"leave", BIT_M_LEAVE, F_TEAM | F_CARD, 0},
    {"end", BIT_M_END, F_TEAM, 0},
    {"done", BIT_M_DONE, 0, 0},
    {"play", BIT_M_PLAY, F_CARD, F_TEAM | F_AT | F_CLIMBER},
    {"camp", BIT_M_CAMP, F_CARD | F_AT, 0},
    {"strike", BIT_M_STRIKE, F_CARD, 0},
    {"rest", BIT_M_REST, 0, F_USE},
};

#define SHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

/* Indexed by the bit number of enum field. */
static const char *const field_names[] = {"card", "team",    "dir",   "route",
                                          "at",   "climber", "count", "use"};

static int field_of(const char *key)
{
  int i;

  for (i = 0; i < (int)(sizeof(field_names) / sizeof(field_names[0])); i++)
    if (strcmp(key, field_names[i]) == 0)
      return 1 << i;
  return 0;
}

static enum cairn_status small_int(const json_t *v, const char *key, int lo, int hi, int *out,
                                   struct cairn_error *err)
{
  if (!json_is_integer(v))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "%s must be an integer", key);
  if (json_integer_value(v) < lo || json_integer_value(v) > hi)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL, "%s must be %d..%d", key, lo,
                      hi);
  *out = (int)json_integer_value(v);
  return CAIRN_OK;
}

/* rest's `use`: the Supplies cards declared tonight, an array of card ids;
 * which of them may be declared is night.c's business. */
static enum cairn_status use_list(const json_t *v, struct bit_move *m, struct cairn_error *err)
{
  const json_t *card;
  size_t i;
  enum cairn_status s = CAIRN_OK;

  if (!json_is_array(v))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "use must be an array of card ids");
  if (json_array_size(v) > BIT_SUPPLIES_N)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "use lists at most %d cards (a game has %d Supplies)", BIT_SUPPLIES_N,
                      BIT_SUPPLIES_N);
  json_array_foreach(v, i, card)
  {
    s = small_int(card, "each card of use", 0, BIT_CARDS - 1, &m->use[i], err);
    if (s != CAIRN_OK)
      return s;
  }
  m->n_use = (int)json_array_size(v);
  return CAIRN_OK;
}

enum cairn_status bit_move_parse(const json_t *move, struct bit_move *m, struct cairn_error *err)
{
  const json_t *type;
  const struct shape *sh = NULL;
  const char *key;
  json_t *value;
  int i, seen = 0;
  enum cairn_status s = CAIRN_OK;

  m->type = -1;
  m->card = m->team = m->route = m->at = m->climber = m->count = -1;
  m->dir = 0;
  m->n_use = 0;
  if (!json_is_object(move))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL, "a move is a JSON object");
  type = json_object_get(move, "type");
  if (!type)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "move has no type");
  if (!json_is_string(type))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "type must be a string");
  for (i = 0; i < SHAPES; i++)
    if (strcmp(json_string_value(type), shapes[i].name) == 0)
      sh = &shapes[i];
  if (!sh)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL, "unknown move type %s",
                      json_string_value(type));
  m->type = sh->type;
  json_object_foreach((json_t *)move, key, value)
  {
    int f;
    if (strcmp(key, "type") == 0)
      continue;
    f = field_of(key);
    if (!f || !((sh->required | sh->optional) & f))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                        "move %s has no member %s", sh->name, key);
    seen |= f;
    switch (f) {
    case F_CARD:
      s = small_int(value, key, 0, BIT_CARDS - 1, &m->card, err);
      break;
    case F_AT:
      s = small_int(value, key, 0, BIT_CARDS - 1, &m->at, err);
      break;
    case F_CLIMBER:
      s = small_int(value, key, 0, BIT_CARDS - 1, &m->climber, err);
      break;
    case F_TEAM:
      s = small_int(value, key, 0, BIT_TEAMS - 1, &m->team, err);
      break;
    case F_USE:
      s = use_list(value, m, err);
      break;
    case F_COUNT: /* VIII.B: how many cards to draw; more than five is never possible */
      s = small_int(value, key, 0, BIT_HAND, &m->count, err);
      break;
    case F_DIR:
      if (!json_is_string(value))
        return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "dir must be a string");
      if (strcmp(json_string_value(value), "up") == 0)
        m->dir = 1;
      else if (strcmp(json_string_value(value), "down") == 0)
        m->dir = -1;
      else
        return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                          "dir must be \"up\" or \"down\"");
      break;
    default: /* F_ROUTE */
      if (!json_is_string(value))
        return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "route must be a string");
      m->route = bit_route_by_name(json_string_value(value));
      if (m->route < 0)
        return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL, "unknown route %s",
                          json_string_value(value));
      break;
    }
    if (s != CAIRN_OK)
      return s;
  }
  if ((seen & sh->required) != sh->required)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL,
                      "move %s lacks a required member", sh->name);
  return CAIRN_OK;
}

/* The canonical JSON of a move (members left out at -1). */
void bit_write_move(struct json_writer *w, const struct bit_move *m)
{
  int i;

  jw_object_begin(w);
  for (i = 0; i < SHAPES; i++)
    if (shapes[i].type == m->type)
      jw_key_string(w, "type", shapes[i].name);
  if (m->card >= 0)
    jw_key_int(w, "card", m->card);
  if (m->team >= 0)
    jw_key_int(w, "team", m->team);
  if (m->dir)
    jw_key_string(w, "dir", m->dir > 0 ? "up" : "down");
  if (m->route >= 0)
    jw_key_string(w, "route", bit_route_name(m->route));
  if (m->at >= 0)
    jw_key_int(w, "at", m->at);
  if (m->climber >= 0)
    jw_key_int(w, "climber", m->climber);
  if (m->count >= 0)
    jw_key_int(w, "count", m->count);
  if (m->n_use > 0) {
    jw_key(w, "use");
    jw_int_array(w, m->use, (size_t)m->n_use);
  }
  jw_object_end(w);
}

/* The one writer above makes both the listed and the sampled moves, so
 * what `legal` lists and what sample_move picks cannot drift apart. */
json_t *bit_move_json(const struct bit_move *m)
{
  struct json_writer w;

  jw_init(&w);
  bit_write_move(&w, m);
  return jw_finish_tree(&w);
}
