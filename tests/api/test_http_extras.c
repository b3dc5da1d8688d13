/*
 * test_http_extras.c - issue 24, HTTP: "CORS for configured origins, gzip
 * for large answers, ETag/If-None-Match on views and logs", against the
 * real server.
 *
 * An entity tag is attacked as a hash: it must be of the answer's own bytes
 * only, so a tag taken from one seat's view never matches what a spectator
 * or the other seat is sent (no oracle for guessing another's view), and a
 * 304 is only ever the answer to a client holding exactly its own bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "harness.h"
#include "tests/order.h"

/* Send `method path` as `token` with extra header lines (NULL-terminated). */
static void ask(struct harness_server *s, struct harness_response *r, const char *method,
                const char *token, const char *path, const char *const *headers)
{
  struct harness_request req = {.method = method, .path = path, .token = token, .headers = headers};

  assert_true(harness_send(&s->client, &req, r));
}

struct table {
  struct harness_player p[2];
  char id[64], view_path[96], log_path[96];
};

static void new_table(struct harness_server *s, struct table *t)
{
  json_t *g;

  harness_new_player(s, "Tenzing", &t->p[0]);
  harness_new_player(s, "Hillary", &t->p[1]);
  g = harness_new_game(s, t->p[0].token, "himalaya", 2, NULL);
  snprintf(t->id, sizeof t->id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, t->p[0].token, t->id, 0);
  harness_join(s, t->p[1].token, t->id, 1);
  snprintf(t->view_path, sizeof t->view_path, "/v1/games/%s", t->id);
  snprintf(t->log_path, sizeof t->log_path, "/v1/games/%s/log", t->id);
}

/* The ETag of `path` as `token`, copied into out. */
static void etag_of(struct harness_server *s, const char *token, const char *path, char out[64])
{
  struct harness_response r;
  const char *tag;

  ask(s, &r, "GET", token, path, NULL);
  HARNESS_EXPECT_STATUS(&r, 200);
  tag = harness_response_header(&r, "ETag");
  assert_non_null(tag);
  assert_true(strncmp(tag, "W/\"", 3) == 0);
  snprintf(out, 64, "%s", tag);
  harness_response_free(&r);
}

static long status_if_none_match(struct harness_server *s, const char *token, const char *path,
                                 const char *tags)
{
  char line[300];
  const char *headers[] = {line, NULL};
  struct harness_response r;
  long status;

  snprintf(line, sizeof line, "If-None-Match: %s", tags);
  ask(s, &r, "GET", token, path, headers);
  status = r.status;
  if (status == 304) {
    assert_int_equal(r.body_len, 0);
    assert_non_null(harness_response_header(&r, "ETag"));
  }
  harness_response_free(&r);
  return status;
}

/* Play the first legal move of whichever seat may act. */
static void play_one(struct harness_server *s, struct table *t)
{
  for (int seat = 0; seat < 2; seat++) {
    json_t *mine = harness_get_game(s, t->p[seat].token, t->id);
    struct harness_response r;

    if (harness_may_act(mine, seat)) {
      harness_post_move(s, &r, t->p[seat].token, t->id, harness_int(mine, "seq"),
                        json_array_get(json_object_get(mine, "legal"), 0));
      HARNESS_EXPECT_STATUS(&r, 200);
      assert_null(harness_response_header(&r, "ETag")); /* a change is not a representation */
      harness_response_free(&r);
      json_decref(mine);
      return;
    }
    json_decref(mine);
  }
  fail_msg("nobody may act in %s", t->id);
}

static void test_a_view_not_changed_is_answered_304(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  char tag[64], list[200], after[64];

  new_table(s, &t);
  etag_of(s, t.p[0].token, t.view_path, tag);
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, tag), 304);
  snprintf(list, sizeof list, "W/\"00\", \"11\" ,%s", tag);
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, list), 304);
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, tag + 2), 304); /* strong */
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, "*"), 304);
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, "W/\"00\""), 200);
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, "garbage"), 200);
  play_one(s, &t);
  etag_of(s, t.p[0].token, t.view_path, after);
  assert_string_not_equal(tag, after);
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, tag), 200);
}

static void test_a_log_not_changed_is_answered_304(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  char tag[64];

  new_table(s, &t);
  play_one(s, &t);
  etag_of(s, NULL, t.log_path, tag);
  assert_int_equal(status_if_none_match(s, NULL, t.log_path, tag), 304);
  play_one(s, &t);
  assert_int_equal(status_if_none_match(s, NULL, t.log_path, tag), 200);
}

/* Nobody confirms a guess of another viewer's answer with a tag: a seat's
 * tag, sent by the spectator or by the other seat, is never a match. */
static void test_a_tag_is_no_oracle_for_another_viewers_view(void **state)
{
  struct harness_server *s = *state;
  struct table t;
  char seat0[64], seat1[64], spectator[64];

  new_table(s, &t);
  play_one(s, &t);
  etag_of(s, t.p[0].token, t.view_path, seat0);
  etag_of(s, t.p[1].token, t.view_path, seat1);
  etag_of(s, NULL, t.view_path, spectator);
  assert_string_not_equal(seat0, seat1);
  assert_string_not_equal(seat0, spectator);
  assert_int_equal(status_if_none_match(s, NULL, t.view_path, seat0), 200);
  assert_int_equal(status_if_none_match(s, NULL, t.view_path, seat1), 200);
  assert_int_equal(status_if_none_match(s, t.p[1].token, t.view_path, seat0), 200);
  assert_int_equal(status_if_none_match(s, t.p[0].token, t.view_path, seat1), 200);
}

/* `len` gzip bytes inflated; OUT, caller frees. */
static char *gunzip(const char *in, size_t len, size_t *out_len)
{
  z_stream z = {0};
  size_t cap = 1 << 20;
  char *out = malloc(cap);

  assert_non_null(out);
  assert_int_equal(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)len;
  z.next_out = (Bytef *)out;
  z.avail_out = (uInt)cap;
  assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
  *out_len = z.total_out;
  inflateEnd(&z);
  return out;
}

static void test_large_answers_are_gzipped_for_clients_that_accept_it(void **state)
{
  struct harness_server *s = *state;
  const char *gzip[] = {"Accept-Encoding: deflate, gzip;q=0.8", NULL};
  const char *refused[] = {"Accept-Encoding: gzip;q=0, *", NULL};
  const char *any[] = {"Accept-Encoding: *", NULL};
  struct harness_response plain, packed, r;
  struct table t;
  size_t n;
  char *inflated;

  new_table(s, &t);
  ask(s, &plain, "GET", t.p[0].token, t.view_path, NULL);
  HARNESS_EXPECT_STATUS(&plain, 200);
  assert_true(plain.body_len > 1024); /* a Himalaya view with its legal moves */
  assert_null(harness_response_header(&plain, "Content-Encoding"));
  ask(s, &packed, "GET", t.p[0].token, t.view_path, gzip);
  HARNESS_EXPECT_STATUS(&packed, 200);
  assert_string_equal(harness_response_header(&packed, "Content-Encoding"), "gzip");
  assert_non_null(strstr(harness_response_header(&packed, "Vary"), "Accept-Encoding"));
  assert_true(packed.body_len < plain.body_len / 2);
  inflated = gunzip(packed.body, packed.body_len, &n);
  assert_int_equal(n, plain.body_len);
  assert_memory_equal(inflated, plain.body, n);
  /* One tag for both encodings of one body. */
  assert_string_equal(harness_response_header(&packed, "ETag"),
                      harness_response_header(&plain, "ETag"));
  free(inflated);
  harness_response_free(&packed);
  harness_response_free(&plain);

  ask(s, &r, "GET", t.p[0].token, t.view_path, refused);
  assert_null(harness_response_header(&r, "Content-Encoding"));
  harness_response_free(&r);
  ask(s, &r, "GET", t.p[0].token, t.view_path, any);
  assert_string_equal(harness_response_header(&r, "Content-Encoding"), "gzip");
  harness_response_free(&r);
  ask(s, &r, "GET", NULL, "/livez", gzip); /* small: not worth it */
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_null(harness_response_header(&r, "Content-Encoding"));
  harness_response_free(&r);
}

/* ---- CORS: a server started with --cors-origins ---- */

static int start_with_origins(void **state, const char *origins)
{
  struct harness_server *s = calloc(1, sizeof(*s));

  if (!s)
    return -1;
  setenv("CAIRN_CORS_ORIGINS", origins, 1);
  harness_start(s);
  unsetenv("CAIRN_CORS_ORIGINS");
  *state = s;
  return 0;
}

static int setup_listed(void **state)
{
  return start_with_origins(state, "https://bots.example.org,https://club.example.net");
}

static int setup_any(void **state)
{
  return start_with_origins(state, "*");
}

static const char *allowed_origin(struct harness_server *s, const char *method, const char *path,
                                  const char *origin, long *status, char *copy, size_t size)
{
  char line[200];
  const char *headers[] = {line, "Access-Control-Request-Method: POST", NULL};
  struct harness_response r;
  const char *got;

  snprintf(line, sizeof line, "Origin: %s", origin);
  if (strcmp(method, "OPTIONS") != 0)
    headers[1] = NULL;
  ask(s, &r, method, NULL, path, headers);
  *status = r.status;
  got = harness_response_header(&r, "Access-Control-Allow-Origin");
  snprintf(copy, size, "%s", got ? got : "");
  if (got && strcmp(method, "OPTIONS") == 0) {
    assert_non_null(
        strstr(harness_response_header(&r, "Access-Control-Allow-Headers"), "Authorization"));
    assert_non_null(strstr(harness_response_header(&r, "Access-Control-Allow-Methods"), "POST"));
  } else if (got) {
    assert_non_null(strstr(harness_response_header(&r, "Access-Control-Expose-Headers"), "ETag"));
    assert_non_null(strstr(harness_response_header(&r, "Vary"), "Origin"));
  }
  harness_response_free(&r);
  return copy[0] ? copy : NULL;
}

static void test_listed_origins_may_call_and_others_may_not(void **state)
{
  struct harness_server *s = *state;
  char got[200];
  long status;

  assert_string_equal(
      allowed_origin(s, "GET", "/v1/titles", "https://bots.example.org", &status, got, sizeof got),
      "https://bots.example.org");
  assert_int_equal(status, 200);
  assert_string_equal(allowed_origin(s, "OPTIONS", "/v1/games", "https://club.example.net", &status,
                                     got, sizeof got),
                      "https://club.example.net");
  assert_int_equal(status, 204);
  /* Other spellings of a listed origin are other origins. */
  const char *others[] = {"https://evil.example.org",
                          "https://bots.example.org.evil.net",
                          "https://bots.example",
                          "http://bots.example.org",
                          "https://bots.example.org,https://evil.example.org",
                          "null"};
  for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
    assert_null(allowed_origin(s, "GET", "/v1/titles", others[i], &status, got, sizeof got));
    assert_int_equal(status, 200);
    assert_null(allowed_origin(s, "OPTIONS", "/v1/games", others[i], &status, got, sizeof got));
    assert_int_not_equal(status, 204);
  }
  /* A refusal carries the headers too, so the page can read the problem. */
  assert_string_equal(allowed_origin(s, "GET", "/v1/games/nope", "https://bots.example.org",
                                     &status, got, sizeof got),
                      "https://bots.example.org");
  assert_int_equal(status, 404);
}

static void test_a_star_admits_any_origin(void **state)
{
  struct harness_server *s = *state;
  char got[200];
  long status;

  assert_string_equal(
      allowed_origin(s, "GET", "/v1/titles", "https://anyone.example", &status, got, sizeof got),
      "https://anyone.example");
}

static void test_without_the_flag_no_origin_is_admitted(void **state)
{
  struct harness_server *s = *state;
  char got[200];
  long status;

  assert_null(
      allowed_origin(s, "GET", "/v1/titles", "https://bots.example.org", &status, got, sizeof got));
  assert_int_equal(status, 200);
  assert_null(allowed_origin(s, "OPTIONS", "/v1/games", "https://bots.example.org", &status, got,
                             sizeof got));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_view_not_changed_is_answered_304, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_log_not_changed_is_answered_304, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_tag_is_no_oracle_for_another_viewers_view,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_large_answers_are_gzipped_for_clients_that_accept_it,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_listed_origins_may_call_and_others_may_not, setup_listed,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_star_admits_any_origin, setup_any, harness_teardown),
      cmocka_unit_test_setup_teardown(test_without_the_flag_no_origin_is_admitted, harness_setup,
                                      harness_teardown),
  };
  int failed;

  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
