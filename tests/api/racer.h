/*
 * racer.h - a POST sent from a thread of its own the moment every racer
 * reaches a barrier, for the tests that race requests on one game (moves
 * on one seq, joins of one seat, accepts of one invitation, votes). Each
 * racer has its own connection, so the server sees the requests at once.
 */
#ifndef CAIRN_TESTS_API_RACER_H
#define CAIRN_TESTS_API_RACER_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>

#include "harness.h"

struct racer {
  struct harness_client client; /* its own connection (harness_client_init) */
  pthread_barrier_t *start;     /* shared by the racers of a round */
  const char *token;            /* as whom; NULL: anonymously */
  char path[160];
  char body[1024];           /* the request's JSON text */
  struct harness_response r; /* the answer, once joined */
  bool answered;             /* an answer came (r.error says why not) */
};

/* The body: `doc` as compact JSON text (fails the test if it does not fit). */
void racer_set_body(struct racer *x, const json_t *doc);

/* The thread's function (pthread_create(..., racer_post, racer)): wait at
 * the barrier, POST the body to the path, keep the answer. */
void *racer_post(void *arg);

/* Start n racers (at most 32) on threads of their own, join them all, and
 * fail the test if any got no answer. */
void racer_run_all(struct racer *racers, int n);

#endif
