/*
 * time.c - the server's clock and how times are written in JSON. All times
 * the server records come from api_server.now_ms, so tests can inject a
 * clock instead of sleeping.
 */
#include "api.h"

#include <stdio.h>
#include <time.h>

int64_t api_clock_realtime(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

json_t *api_time_json(int64_t ms)
{
  time_t secs = (time_t)(ms / 1000);
  struct tm tm;
  char text[80]; /* ample for any int fields, so no truncation is possible */

  gmtime_r(&secs, &tm);
  snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
           tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
  return json_string(text);
}
