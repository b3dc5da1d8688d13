/*
 * error.c - filling struct cairn_error. Pure: no allocation, no I/O.
 */
#include "cairn.h"

#include <stdio.h>
#include <string.h>

enum cairn_status cairn_fail(struct cairn_error *err, enum cairn_status status, const char *code,
                             const char *rule, const char *fmt, ...)
{
  va_list ap;

  if (!err)
    return status;
  err->status = status;
  err->code = code;
  err->rule = rule;
  va_start(ap, fmt);
  vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
  va_end(ap);
  return status;
}

void cairn_error_clear(struct cairn_error *err)
{
  if (!err)
    return;
  memset(err, 0, sizeof(*err));
}

const char *cairn_status_name(enum cairn_status status)
{
  static const char *const names[] = {
      [CAIRN_OK] = "ok",
      [CAIRN_EINVAL] = "invalid",
      [CAIRN_EILLEGAL] = "illegal",
      [CAIRN_ETURN] = "turn",
      [CAIRN_ESTALE] = "stale",
      [CAIRN_ENOTFOUND] = "not-found",
      [CAIRN_EAUTH] = "auth",
      [CAIRN_ENOMEM] = "no-memory",
      [CAIRN_EDB] = "storage",
      [CAIRN_EINTERNAL] = "internal",
      [CAIRN_ECONFLICT] = "conflict",
      [CAIRN_ETOOLARGE] = "too-large",
  };

  if ((unsigned)status < sizeof(names) / sizeof(names[0]) && names[status])
    return names[status];
  return "unknown";
}
