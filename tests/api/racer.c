/*
 * racer.c - see racer.h.
 */
#include "racer.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

void racer_set_body(struct racer *x, const json_t *doc)
{
  size_t len = json_dumpb(doc, x->body, sizeof x->body - 1, JSON_COMPACT);

  assert_true(len > 0 && len < sizeof x->body);
  x->body[len] = '\0';
}

void *racer_post(void *arg)
{
  struct racer *x = arg;
  struct harness_request req = {.method = "POST",
                                .path = x->path,
                                .token = x->token,
                                .body = x->body,
                                .body_len = strlen(x->body)};

  pthread_barrier_wait(x->start);
  x->answered = harness_send(&x->client, &req, &x->r);
  return NULL;
}

void racer_run_all(struct racer *racers, int n)
{
  pthread_t th[32];

  assert_true(n <= 32);
  for (int i = 0; i < n; i++)
    assert_int_equal(pthread_create(&th[i], NULL, racer_post, &racers[i]), 0);
  for (int i = 0; i < n; i++)
    pthread_join(th[i], NULL);
  for (int i = 0; i < n; i++)
    if (!racers[i].answered)
      fail_msg("racer %d (POST %s): no answer: %s", i, racers[i].path, racers[i].r.error);
}
