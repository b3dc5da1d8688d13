/*
 * log.c - one JSON line per log entry (log.h). The text is built with the
 * engine's JSON writer, which escapes whatever a message holds, then written
 * with a single writev(2).
 */
#include "log.h"

#include "../engine/jsonw.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/uio.h>
#include <unistd.h>

static _Thread_local const char *current_request;
static atomic_bool access_on;

static const char *level_name(enum log_level level)
{
  return level == LOG_ERROR ? "error" : level == LOG_WARN ? "warn" : "info";
}

/* RFC 3339 in UTC with milliseconds: the log's own clock, the wall's
 * (--test-clock moves game time, not the log's). */
static void now_text(char out[32])
{
  struct timespec ts;
  struct tm tm;

  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);

  snprintf(out + n, 32 - n, ".%03uZ", (unsigned)(ts.tv_nsec / 1000000) % 1000u);
}

/* Start a line: time, level, component. */
static void begin(struct json_writer *w, enum log_level level, const char *component)
{
  char now[32];

  now_text(now);
  jw_init(w);
  jw_object_begin(w);
  jw_key_string(w, "time", now);
  jw_key_string(w, "level", level_name(level));
  jw_key_string(w, "component", component);
}

/* End the line and write it whole (one writev, so lines of several
 * threads never interleave); the writer is released. */
static void finish(struct json_writer *w)
{
  size_t len = 0;
  char *text;

  jw_object_end(w);
  text = jw_finish(w, &len);
  if (!text)
    return; /* out of memory: the line is lost, never the server */
  struct iovec line[2] = {{.iov_base = text, .iov_len = len}, {.iov_base = "\n", .iov_len = 1}};
  while (writev(STDERR_FILENO, line, 2) < 0 && errno == EINTR)
    ;
  free(text);
}

void log_line(enum log_level level, const char *component, const char *fmt, ...)
{
  struct json_writer w;
  char message[1024];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  begin(&w, level, component);
  jw_key_string(&w, "message", message);
  if (current_request)
    jw_key_string(&w, "request_id", current_request);
  finish(&w);
}

void log_set_request(const char *request_id)
{
  current_request = request_id;
}

void log_set_access(bool on)
{
  atomic_store(&access_on, on);
}

bool log_access_on(void)
{
  return atomic_load_explicit(&access_on, memory_order_relaxed);
}

void log_request(const char *request_id, const char *method, const char *path, unsigned int status,
                 double ms)
{
  struct json_writer w;
  size_t path_len = strcspn(path, "?"); /* a query may hold what the log should not */
  char bare[1024];

  snprintf(bare, sizeof(bare), "%.*s", (int)(path_len < sizeof(bare) ? path_len : sizeof(bare) - 1),
           path);
  begin(&w, status >= 500 ? LOG_ERROR : LOG_INFO, "http");
  jw_key_string(&w, "message", "request");
  jw_key_string(&w, "request_id", request_id);
  jw_key_string(&w, "method", method);
  jw_key_string(&w, "path", bare);
  jw_key_int(&w, "status", status);
  jw_key(&w, "ms");
  snprintf(bare, sizeof(bare), "%.3f", ms);
  jw_raw(&w, bare, strlen(bare));
  finish(&w);
}
