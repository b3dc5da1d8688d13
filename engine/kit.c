/*
 * kit.c - what every title's rules code needs and would otherwise write
 * again: recording an event, and JSON lists of small integers (plain, or
 * mapped through a title's own function such as a card's name). Pure
 * helpers over jansson; engine.h declares them under "Helpers for titles".
 */
#include "engine.h"

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
