/*
 * hookrx.h - a webhook receiver for the API tests that run more than one
 * server (test_pg_work, test_crash_pg): an HTTP server on loopback in the
 * test's own process that records every delivery (path, X-Cairn-Delivery,
 * X-Cairn-Event) and answers 200, or 503 on "/down" while told to.
 * (test_webhooks.c keeps a receiver of its own, with more paths.)
 */
#ifndef TESTS_API_HOOKRX_H
#define TESTS_API_HOOKRX_H

#include <stdbool.h>

#define HOOKRX_MAX 4096 /* deliveries recorded; later ones are counted only */

struct hookrx_seen {
  char path[64];
  char delivery[32];
  char event[16];
  int status;     /* what the receiver answered */
  char body[512]; /* the body's first 511 bytes (test_chat reads chat lines) */
};

/* Start the receiver (fails the test when it cannot); its port is
 * hookrx_port(). One receiver per process. */
void hookrx_start(void);
void hookrx_stop(void);
int hookrx_port(void);

/* While `down`, "/down" answers 503 (and is still recorded). */
void hookrx_set_down(bool down);

/* Requests recorded so far, to `path` (NULL: to any path). */
int hookrx_count(const char *path);

/* A copy of the recorded requests into out[0..max); their number. */
int hookrx_copy(struct hookrx_seen *out, int max);

/* Wait (real time, at most timeout_ms) until `n` requests to `path` have
 * come; how many have. For what the servers send on their own time. */
int hookrx_wait(const char *path, int n, long timeout_ms);

#endif
