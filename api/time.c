/*
 * time.c - the server's clock and how times are written in JSON. All times
 * the server records come from one clock function, which cli/main.c hands to
 * the game service and the HTTP side alike, so tests can inject a clock
 * instead of sleeping: with --test-clock it runs `offset` ahead of the real
 * one and POST /v1/test/clock {"advance_ms": N} moves it on and acts on
 * the deadlines that passed (game_sweep_now) before it answers.
 */
#include "api.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

int64_t api_clock_realtime(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Days since 1970-01-01 to a civil date (proleptic Gregorian): Howard
 * Hinnant's civil_from_days. By hand, not gmtime_r + snprintf: a
 * game's answer writes a time, and the library pair cost about 3,400
 * instructions a call (callgrind), mostly the time zone lock and printf's
 * format parsing. */
static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
  int64_t era;
  unsigned doe, yoe, doy, mp;

  z += 719468;
  era = (z >= 0 ? z : z - 146096) / 146097;
  doe = (unsigned)(z - era * 146097);
  yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static char *put_digits(char *out, unsigned v, int width)
{
  for (int i = width - 1; i >= 0; i--) {
    out[i] = (char)('0' + v % 10);
    v /= 10;
  }
  return out + width;
}

void api_time_text(int64_t ms, char text[API_TIME_TEXT])
{
  int64_t days = ms / 86400000, rest = ms % 86400000, y;
  unsigned m, d, secs;
  char *p = text;

  if (rest < 0) { /* before 1970: floor, so the time of day is positive */
    rest += 86400000;
    days--;
  }
  civil_from_days(days, &y, &m, &d);
  secs = (unsigned)(rest / 1000);
  if (y < 0 || y > 9999) { /* past four digits: no time Cairn records, but still true */
    snprintf(text, API_TIME_TEXT, "%04lld-%02u-%02uT%02u:%02u:%02u.%03uZ", (long long)y, m, d,
             secs / 3600, secs / 60 % 60, secs % 60, (unsigned)(rest % 1000));
    return;
  }
  p = put_digits(p, (unsigned)y, 4);
  *p++ = '-';
  p = put_digits(p, m, 2);
  *p++ = '-';
  p = put_digits(p, d, 2);
  *p++ = 'T';
  p = put_digits(p, secs / 3600, 2);
  *p++ = ':';
  p = put_digits(p, secs / 60 % 60, 2);
  *p++ = ':';
  p = put_digits(p, secs % 60, 2);
  *p++ = '.';
  p = put_digits(p, (unsigned)(rest % 1000), 3);
  *p++ = 'Z';
  *p = '\0';
}

json_t *api_time_json(int64_t ms)
{
  char text[API_TIME_TEXT];

  api_time_text(ms, text);
  return json_string(text);
}

static _Atomic int64_t test_offset_ms; /* the test clock's lead; process-wide, as the clock is */

int64_t api_clock_test(void)
{
  return api_clock_realtime() + atomic_load(&test_offset_ms);
}

static const struct api_field clock_fields[] = {
    {"advance_ms", API_INT, true},
    {NULL, 0, false},
};

enum cairn_status api_test_clock(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  json_t *doc = NULL;
  json_int_t ms;
  enum cairn_status st;

  if (api_clock(req->server) != api_clock_test)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                      "no resource at %s (the server runs on the real clock)", req->path);
  st = api_body_object(req, clock_fields, false, &doc, err);
  if (st != CAIRN_OK)
    return st;
  ms = json_integer_value(json_object_get(doc, "advance_ms"));
  json_decref(doc);
  if (ms < 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "the clock only moves on");
  atomic_fetch_add(&test_offset_ms, (int64_t)ms);
  /* Act on what the step made overdue before answering, so a test asserts
   * right after the advance instead of sleeping for the sweeper's tick. */
  st = game_sweep_now(req->server->game, err);
  if (st != CAIRN_OK)
    return st;
  resp->status = 200;
  resp->body = json_pack("{s:o}", "now", api_time_json(api_clock_test()));
  return CAIRN_OK;
}
