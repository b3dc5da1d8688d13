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
