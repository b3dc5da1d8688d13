/*
 * longpoll.c - the API tests' long-poll on a thread of its own (longpoll.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "longpoll.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void *run_poll(void *arg)
{
  struct long_poll *p = arg;
  struct harness_client client;
  struct harness_request req = {.method = "GET", .path = p->path};
  struct harness_response r;

  harness_client_init(&client, p->s);
  harness_send(&client, &req, &r); /* fills r in every case: status 0 when no answer came */
  p->status = r.status;
  p->answer = json_incref(r.json);
  harness_response_free(&r);
  harness_client_cleanup(&client);
  return NULL;
}

void long_poll_start(struct long_poll *p, struct harness_server *s, const char *path_fmt, ...)
{
  va_list ap;

  memset(p, 0, sizeof *p);
  p->s = s;
  va_start(ap, path_fmt);
  vsnprintf(p->path, sizeof p->path, path_fmt, ap);
  va_end(ap);
  assert_int_equal(pthread_create(&p->thread, NULL, run_poll, p), 0);
  p->running = true;
}

void long_poll_let_it_park(void)
{
  usleep(300 * 1000);
}

void long_poll_join(struct long_poll *p)
{
  if (p->running)
    pthread_join(p->thread, NULL);
  p->running = false;
}

void long_poll_free(struct long_poll *p)
{
  long_poll_join(p);
  json_decref(p->answer);
  p->answer = NULL;
}
