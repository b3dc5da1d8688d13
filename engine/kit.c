/*
 * kit.c - what every title's rules code needs and would otherwise write
 * again: recording an event, JSON lists of small integers (plain, or
 * mapped through a title's own function such as a card's name), and one
 * walk over a title's legal moves serving both its written list and its
 * sampled move (engine_list). Pure helpers over jansson and jsonw; engine.h
 * declares them under "Helpers for titles".
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cairn_status engine_emit(json_t *events, json_t *event, struct cairn_error *err)
{
  /* json_array_append_new releases `event` on failure too, so the caller
   * never cleans up after us, and a NULL from a failed json_pack is
   * reported the same way. */
  if (!event || json_array_append_new(events, event) != 0)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while recording an event");
  return CAIRN_OK;
}

json_t *engine_int_list(const int *items, int n)
{
  return engine_mapped_list(items, n, NULL);
}

json_t *engine_mapped_list(const int *items, int n, json_t *(*item)(int))
{
  json_t *list = json_array();
  int i;

  for (i = 0; list && i < n; i++)
    if (json_array_append_new(list, item ? item(items[i]) : json_integer(items[i])) != 0) {
      json_decref(list);
      list = NULL;
    }
  return list;
}

void engine_list_take(struct engine_list *list, const void *move)
{
  if (list->out)
    list->write(move, list->out);
  if (list->picking && list->taken == list->wanted) {
    memcpy(list->picked, move, list->move_size);
    list->found = true;
  }
  list->taken++;
}

void engine_list_write(struct engine_list *list, void (*walk)(struct engine_list *list),
                       struct json_writer *out)
{
  jw_array_begin(out);
  if (walk) {
    list->out = out;
    walk(list);
    list->out = NULL;
  }
  jw_array_end(out);
}

bool engine_list_pick(struct engine_list *list, void (*walk)(struct engine_list *list),
                      uint64_t choice, void *picked)
{
  list->out = NULL;
  list->picking = false;
  list->taken = 0;
  walk(list); /* count */
  if (list->taken == 0)
    return false;
  list->wanted = choice % list->taken;
  list->taken = 0;
  list->picking = true;
  list->picked = picked;
  walk(list);
  list->picking = false;
  return list->found;
}

bool engine_can_determinize(const struct engine_module *module)
{
  return module->determinize != NULL;
}

bool engine_bot_evaluate(const struct engine_game *game, int seat, double *score)
{
  double value;

  if (!game->module->bot_evaluate)
    return false;
  value = game->module->bot_evaluate(game, seat);
  /* Clamped here, so a title's rounding never hands a search a reward
   * outside the one range its statistics assume. */
  *score = value < 0 ? 0 : value > 1 ? 1 : value;
  return true;
}

void engine_rng_fork(struct engine_rng *source, struct engine_rng *target)
{
  uint8_t seed[ENGINE_SEED_BYTES];
  size_t i;

  for (i = 0; i < sizeof(seed); i += 4) {
    uint32_t word = engine_rng_next(source);

    seed[i] = (uint8_t)word;
    seed[i + 1] = (uint8_t)(word >> 8);
    seed[i + 2] = (uint8_t)(word >> 16);
    seed[i + 3] = (uint8_t)(word >> 24);
  }
  engine_rng_seed(target, seed);
}

enum cairn_status engine_determinize(const struct engine_module *module, int seats, uint32_t seq,
                                     const char *view, size_t len, const json_t *options, int seat,
                                     struct engine_rng *rng, struct engine_game **out,
                                     struct cairn_error *err)
{
  struct engine_game *game;
  enum cairn_status st;

  *out = NULL;
  if (!module->determinize)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "%s cannot build a game from a seat's view", module->id);
  if (seats < module->min_seats || seats > module->max_seats || seat < 0 || seat >= seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "seat %d of %d seats is not one %s has", seat, seats, module->id);
  /* The core owns every state's memory (engine.h): the title fills the block. */
  game = calloc(1, module->state_size);
  if (!game)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while sampling a game");
  game->module = module;
  game->seats = seats;
  game->seq = seq;
  st = module->determinize(view, len, options, seat, rng, game, err);
  if (st != CAIRN_OK) {
    free(game);
    return st;
  }
  *out = game;
  return CAIRN_OK;
}

/* Records the first problem only: later ones often follow from it. */
static void vr_fail(struct engine_view_reader *r, const char *key)
{
  if (r->bad)
    return;
  r->bad = true;
  snprintf(r->what, sizeof(r->what), "%s", key ? key : "an element");
}

int engine_vr_int(struct engine_view_reader *r, const json_t *obj, const char *key, int min,
                  int max)
{
  const json_t *v = key ? json_object_get(obj, key) : obj;
  json_int_t n;

  if (!json_is_integer(v)) {
    vr_fail(r, key);
    return min;
  }
  n = json_integer_value(v);
  if (n < min || n > max) {
    vr_fail(r, key);
    return min;
  }
  return (int)n;
}

bool engine_vr_bool(struct engine_view_reader *r, const json_t *obj, const char *key)
{
  const json_t *v = json_object_get(obj, key);

  if (!json_is_boolean(v))
    vr_fail(r, key);
  return json_is_true(v);
}

const json_t *engine_vr_array(struct engine_view_reader *r, const json_t *obj, const char *key,
                              size_t max)
{
  const json_t *v = json_object_get(obj, key);

  if (!json_is_array(v) || json_array_size(v) > max) {
    vr_fail(r, key);
    return NULL;
  }
  return v;
}

const char *engine_vr_string(struct engine_view_reader *r, const json_t *obj, const char *key)
{
  const json_t *v = json_object_get(obj, key);

  if (!json_is_string(v)) {
    vr_fail(r, key);
    return "";
  }
  return json_string_value(v);
}

int engine_vr_name(struct engine_view_reader *r, const json_t *obj, const char *key,
                   const char *const *names, int n)
{
  const char *name = engine_vr_string(r, obj, key);

  for (int i = 0; i < n; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  vr_fail(r, key);
  return 0;
}

enum cairn_status engine_vr_status(const struct engine_view_reader *r, const char *title,
                                   struct cairn_error *err)
{
  if (!r->bad)
    return CAIRN_OK;
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "not a running %s game's view: member \"%s\" is missing or wrong", title,
                    r->what);
}
