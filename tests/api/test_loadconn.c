/*
 * test_loadconn.c - the load generator's own HTTP connection (loadconn.c)
 * against the real server: what it reads is what libcurl reads, over one
 * kept-alive connection, for GETs and POSTs, for answers many times its
 * first buffer, and after the server closes the connection. bench_load's
 * figures are only as good as this client's framing of answers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "tests/api/harness.h"
#include "tests/api/loadconn.h"

/* Wait (at most 10 s) for the answer on c; returns load_conn_on_event's
 * last verdict. */
static int await_answer(int epfd, struct load_conn *c)
{
  int i;

  for (i = 0; i < 1000; i++) {
    struct epoll_event ev;
    int got;

    if (epoll_wait(epfd, &ev, 1, 10) != 1)
      continue;
    assert_int_equal(ev.data.u64, 7);
    got = load_conn_on_event(c, ev.events);
    if (got != 0)
      return got;
  }
  fail_msg("no answer within 10 s");
  return -1;
}

static void headers_of(const struct harness_player *p, char *out, size_t size)
{
  snprintf(out, size, "Authorization: Bearer %s\r\nContent-Type: application/json\r\n", p->token);
}

/* One connection serves a GET, a POST and a GET again, each answer equal
 * to libcurl's; the game view (legal list included) is read whole. */
static void test_answers_equal_libcurls_over_one_connection(void **state)
{
  struct harness_server *s = *state;
  struct harness_player a, b;
  struct harness_response curl_view = {0};
  struct load_conn c;
  char headers[256], path[128], body[512];
  json_t *view, *legal, *move;
  char *move_text;
  int epfd = epoll_create1(EPOLL_CLOEXEC), fd;
  json_t *game;

  harness_new_player(s, "ada", &a);
  harness_new_player(s, "bo", &b);
  game = harness_new_game(s, a.token, "himalaya", 2, "{}");
  snprintf(path, sizeof path, "/v1/games/%s", harness_game_id(game));
  harness_join(s, a.token, harness_game_id(game), 0);
  harness_join(s, b.token, harness_game_id(game), 1);
  harness_call(s, &curl_view, "GET", a.token, NULL, "%s", path);
  HARNESS_EXPECT_JSON(&curl_view, 200);

  load_conn_init(&c, epfd, s->host, s->port, 7);
  headers_of(&a, headers, sizeof headers);
  assert_true(load_conn_request(&c, "GET", path, headers, NULL));
  assert_int_equal(await_answer(epfd, &c), 1);
  assert_int_equal(load_conn_status(&c), 200);
  assert_string_equal(load_conn_body(&c), curl_view.body);
  fd = c.fd;

  view = json_loads(load_conn_body(&c), 0, NULL);
  legal = json_object_get(view, "legal");
  assert_true(json_array_size(legal) > 0);
  move_text = json_dumps(json_array_get(legal, 0), JSON_COMPACT);
  snprintf(body, sizeof body, "{\"seq\":%lld,\"move\":%s}",
           (long long)json_integer_value(json_object_get(view, "seq")), move_text);
  strcat(path, "/moves");
  assert_true(load_conn_request(&c, "POST", path, headers, body));
  assert_int_equal(await_answer(epfd, &c), 1);
  assert_int_equal(load_conn_status(&c), 200);
  assert_int_equal(c.fd, fd); /* kept alive */
  move = json_loads(load_conn_body(&c), 0, NULL);
  assert_non_null(json_object_get(move, "events"));

  /* The same stale POST again: a problem answer, framed as well. */
  assert_true(load_conn_request(&c, "POST", path, headers, body));
  assert_int_equal(await_answer(epfd, &c), 1);
  assert_int_equal(load_conn_status(&c), 409);
  assert_non_null(strstr(load_conn_body(&c), "stale-seq"));
  assert_int_equal(c.connects, 1);

  json_decref(move);
  free(move_text);
  json_decref(view);
  json_decref(game);
  harness_response_free(&curl_view);
  load_conn_close(&c);
  close(epfd);
}

/* An answer many times the first buffer (the OpenAPI document) arrives
 * over several reads and is read whole. */
static void test_a_large_answer_is_read_whole(void **state)
{
  struct harness_server *s = *state;
  struct harness_response spec = {0};
  struct load_conn c;
  int epfd = epoll_create1(EPOLL_CLOEXEC);

  harness_call(s, &spec, "GET", NULL, NULL, "/v1/openapi.yaml");
  HARNESS_EXPECT_STATUS(&spec, 200);
  assert_true(spec.body_len > 4 * 16384);
  load_conn_init(&c, epfd, s->host, s->port, 7);
  assert_true(load_conn_request(&c, "GET", "/v1/openapi.yaml", "", NULL));
  assert_int_equal(await_answer(epfd, &c), 1);
  assert_int_equal(load_conn_status(&c), 200);
  assert_int_equal(strlen(load_conn_body(&c)), spec.body_len);
  assert_string_equal(load_conn_body(&c), spec.body);
  harness_response_free(&spec);
  load_conn_close(&c);
  close(epfd);
}

/* A connection the server dropped while idle reports an error once, and
 * the next request opens a new one. */
static void test_a_closed_connection_is_reopened(void **state)
{
  struct harness_server *s = *state;
  struct load_conn c;
  int epfd = epoll_create1(EPOLL_CLOEXEC);

  load_conn_init(&c, epfd, s->host, s->port, 7);
  assert_true(load_conn_request(&c, "GET", "/v1/titles", "Connection: close\r\n", NULL));
  assert_int_equal(await_answer(epfd, &c), 1);
  assert_int_equal(load_conn_status(&c), 200);
  assert_int_equal(await_answer(epfd, &c), -1); /* the server's close */
  assert_int_equal(c.fd, -1);
  assert_true(load_conn_request(&c, "GET", "/v1/titles", "", NULL));
  assert_int_equal(await_answer(epfd, &c), 1);
  assert_int_equal(load_conn_status(&c), 200);
  assert_non_null(strstr(load_conn_body(&c), "himalaya"));
  assert_int_equal(c.connects, 2);
  load_conn_close(&c);
  close(epfd);
}

/* Nobody listening: the request fails at once instead of hanging. */
static void test_no_server_fails_the_request(void **state)
{
  struct harness_server *s = *state;
  struct load_conn c;
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  int port = s->port;

  harness_stop(s);
  load_conn_init(&c, epfd, "127.0.0.1", port, 7);
  assert_false(load_conn_request(&c, "GET", "/v1/titles", "", NULL));
  assert_int_equal(c.fd, -1);
  load_conn_close(&c);
  close(epfd);
  harness_start(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_answers_equal_libcurls_over_one_connection,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_large_answer_is_read_whole, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_closed_connection_is_reopened, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_no_server_fails_the_request, harness_setup,
                                      harness_teardown),
  };
  int failed;

  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
