/*
 * sseclient.h - a Server-Sent Events reader for the API tests, on a thread
 * of its own (libcurl): one stream's text as it arrives, read until the
 * test's `enough` says so or the time is up. Each test parses the events it
 * cares about in `enough`, embedding struct sse_client first in its own.
 */
#ifndef CAIRN_TESTS_API_SSECLIENT_H
#define CAIRN_TESTS_API_SSECLIENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness.h"

struct sse_client {
  char url[256];
  char auth[200];   /* "Authorization: Bearer ..." or "" */
  char last_id[32]; /* Last-Event-ID to send, "" for none */
  long timeout_s;   /* the whole read's limit (20 by default) */
  /* After each chunk, with text[0..len) so far (NUL-terminated): true to
   * stop reading. Runs on the reader's thread. */
  bool (*enough)(struct sse_client *c);
  _Atomic bool opened; /* the answer's head arrived: the server holds the stream */
  char *text;          /* owned: everything read, grown as it arrives */
  size_t len, cap;
  pthread_t thread;
  bool running; /* the thread was started and not joined */
};

/* Set up a reader of `path` on `s`, as `token` (NULL: anonymously). */
void sse_client_init(struct sse_client *c, const struct harness_server *s, const char *path,
                     const char *token, bool (*enough)(struct sse_client *c));
/* Start reading and return once the server holds the stream (the blank
 * line ending the answer's head: the server registers a stream before it
 * answers, so from then on no event is missed); fails the test after 10 s. */
void sse_client_start(struct sse_client *c);
/* Wait for the reader to end (enough, the time limit, or the stream's end). */
void sse_client_join(struct sse_client *c);
/* Join if still running, and release the text. */
void sse_client_free(struct sse_client *c);

#endif
