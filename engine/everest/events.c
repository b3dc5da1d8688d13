/*
 * events.c - the objects Everest's events (and the plans inside them) are
 * built from, member by member. json_pack read its format string and
 * checked every key and string as UTF-8 on every call: some 4,500
 * instructions for a plan's {coin, face, dir}, a tenth of an Everest move's
 * server instructions in all (issue 22). The keys and the strings here are
 * the title's own ASCII constants, so nothing needs checking.
 */
#include "state.h"

#include <stdarg.h>

json_t *everest_object(int n, ...)
{
  json_t *object = json_object();
  bool ok = object != NULL;
  va_list ap;
  int i;

  va_start(ap, n);
  for (i = 0; i < n; i++) {
    const char *key = va_arg(ap, const char *);
    json_t *value = va_arg(ap, json_t *);

    /* Every value is taken, the ones after a failure too. */
    if (ok && value)
      ok = json_object_set_new_nocheck(object, key, value) == 0;
    else {
      json_decref(value);
      ok = false;
    }
  }
  va_end(ap);
  if (!ok) {
    json_decref(object);
    return NULL;
  }
  return object;
}

json_t *everest_text(const char *ascii)
{
  return ascii ? json_string_nocheck(ascii) : NULL;
}
