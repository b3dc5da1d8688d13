/*
 * longpoll.h - a long-poll (a GET the server parks until something changes
 * or its timeout) on a thread of its own, for the API tests: start it, make
 * the change on the test's thread, join it and read the answer.
 */
#ifndef CAIRN_TESTS_API_LONGPOLL_H
#define CAIRN_TESTS_API_LONGPOLL_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>

#include "harness.h"

struct long_poll {
  struct harness_server *s;
  char path[200];
  long status;    /* the answer's HTTP status, 0 when none came */
  json_t *answer; /* New reference: the answer's JSON body, NULL when none */
  pthread_t thread;
  bool running; /* the thread was started and not joined */
};

/* GET the path (printf-style, anonymously) on `s` on a thread of its own. */
void long_poll_start(struct long_poll *p, struct harness_server *s, const char *path_fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A long-poll parks without a word and no public count says when the server
 * holds it: the one fixed pause, giving the request time to arrive. A change
 * that overtakes it is answered all the same (its seq is past `after`), only
 * without exercising the wake. */
void long_poll_let_it_park(void);
/* Wait for the answer (status and answer are set from then on). */
void long_poll_join(struct long_poll *p);
/* Join if still running, and release the answer. */
void long_poll_free(struct long_poll *p);

#endif
