/*
 * kit.c - what every title's rules code needs and would otherwise write
 * again: recording an event, JSON lists of small integers (plain, or
 * mapped through a title's own function such as a card's name), and one
 * walk over a title's legal moves serving both its written list and its
 * sampled move (engine_list). Pure helpers over jansson and jsonw; engine.h
 * declares them under "Helpers for titles".
 */
#include "engine.h"

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
