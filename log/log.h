/*
 * log.h - the server's log: one JSON object per line on stderr, for every
 * layer but the engine (which does no I/O). An operator's tools (journald,
 * Loki, jq) read it without a parser of ours, and a line written while a
 * request is being answered carries that request's id, the one its
 * X-Request-Id header gave the client, so one failed request can be
 * followed from the client's report to the server's line.
 *
 *   {"time":"2026-11-26T04:45:05.123Z","level":"error","component":"db",
 *    "message":"...","request_id":"9f3c41a0000000000017"}
 *
 * A line is written with one writev(2), so lines from several threads never
 * interleave. Messages name no token and no hidden information: callers
 * write what an operator may read.
 */
#ifndef LOG_LOG_H
#define LOG_LOG_H

#include <stdbool.h>

enum log_level { LOG_INFO, LOG_WARN, LOG_ERROR };

/* Write one line: `component` names the part of the server ("db",
 * "http", "webhooks", ...); the message is printf-formatted. */
void log_line(enum log_level level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The request this thread is answering, for the lines it writes meanwhile
 * (NULL: none). The string is borrowed until the next call on this thread. */
void log_set_request(const char *request_id);

/* One answered request (the access log), written only once
 * log_set_access(true) turned it on: a line per request costs a system
 * call on the hot path, so it is an operator's choice (--access-log). */
void log_set_access(bool on);
bool log_access_on(void);
void log_request(const char *request_id, const char *method, const char *path, unsigned int status,
                 double ms);

#endif
