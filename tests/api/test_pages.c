/*
 * test_pages.c - the log in pages and the export streamed (api/README.md,
 * "Log" and "Export"): pages of any size put together give the whole log,
 * no row split or repeated; bad page parameters are 400 bad-query naming
 * the parameter; a finished game's streamed export imports into another
 * server and exports byte for byte the same; and 16 concurrent exports of a
 * live game of LONG_ROWS rows keep the server's resident memory within
 * EXPORT_GROWTH_KB of where it started, sampled from /proc/<pid>/status.
 *
 * Measured (this test's printed line, 16 exports of 3,000 rows, 1.43 MB
 * each): the release server grew 3.4 MiB; the ASan server 30 MiB; the
 * release server before exports were streamed 113 MiB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/order.h"
#include "harness.h"
#include "rss.h"

#define LONG_ROWS        3000        /* rows of the long game: 23 chunks of 128 */
#define EXPORTS          16          /* concurrent exports, as in the issue */
#define EXPORT_GROWTH_KB (48 * 1024) /* the unstreamed release server took 113 MiB */
#define SEATS            4

/* ---- the log in pages ---- */

/* The whole log of `id` as the spectator sees it, in pages of `limit` rows;
 * checks every page's rows follow the last one's without a gap or overlap. */
static json_t *log_in_pages(struct harness_server *s, const char *id, long limit, int *pages)
{
  json_t *all = json_array();
  long from_ord = 0;
  long last_ord = -1;

  *pages = 0;
  for (;;) {
    struct harness_response r;
    json_t *ev;
    json_t *next;
    size_t i;

    harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/log?from_ord=%ld&limit=%ld", id, from_ord,
                 limit);
    HARNESS_EXPECT_JSON(&r, 200);
    (*pages)++;
    json_array_foreach(json_object_get(r.json, "events"), i, ev)
    {
      long ord = harness_int(ev, "ord");

      assert_true(ord >= from_ord);        /* nothing of an earlier page again */
      assert_true(ord < from_ord + limit); /* no more rows than asked */
      assert_true(ord >= last_ord);        /* in log order */
      last_ord = ord;
      json_array_append(all, ev);
    }
    next = json_object_get(r.json, "next");
    if (json_is_null(next)) {
      harness_response_free(&r);
      return all;
    }
    assert_true(json_is_integer(next));
    /* A full page: the next one starts right after its rows. */
    assert_int_equal(json_integer_value(next), from_ord + limit);
    from_ord = (long)json_integer_value(next);
    harness_response_free(&r);
  }
}

static void test_log_pages(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[5];
  char id[64];
  struct harness_response r;
  json_t *whole;
  json_t *paged;
  long rows;
  int pages;
  long limits[] = {1, 7, 0, 1000};
  size_t k;

  harness_play_random(s, "himalaya", 5, "{}", 77, p, id);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/log?limit=1000", id);
  HARNESS_EXPECT_JSON(&r, 200);
  whole = json_incref(json_object_get(r.json, "events"));
  rows = harness_int(json_array_get(whole, json_array_size(whole) - 1), "ord") + 1;
  assert_true(rows > 7);
  assert_true(rows <= 1000);
  assert_true(json_is_null(json_object_get(r.json, "next")));
  harness_response_free(&r);
  limits[2] = rows / 2 + 1; /* two pages, the second short */
  for (k = 0; k < sizeof(limits) / sizeof(limits[0]); k++) {
    paged = log_in_pages(s, id, limits[k], &pages);
    assert_true(json_equal(paged, whole));
    assert_int_equal(pages, (rows + limits[k] - 1) / limits[k]);
    json_decref(paged);
  }
  /* Without limit the default page is 500 rows. */
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/log", id);
  HARNESS_EXPECT_JSON(&r, 200);
  if (rows > 500)
    assert_int_equal(harness_int(r.json, "next"), 500);
  else
    assert_true(json_is_null(json_object_get(r.json, "next")));
  harness_response_free(&r);
  /* Past the end: an empty page, and no next. */
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/log?from_ord=%ld", id, rows + 5);
  HARNESS_EXPECT_JSON(&r, 200);
  assert_int_equal(json_array_size(json_object_get(r.json, "events")), 0);
  assert_true(json_is_null(json_object_get(r.json, "next")));
  harness_response_free(&r);
  json_decref(whole);
}

static void test_log_bad_pages(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[2];
  char id[64];
  static const char *const bad[][2] = {
      {"limit=0", "limit"},         {"limit=1001", "limit"}, {"limit=-1", "limit"},
      {"limit=abc", "limit"},       {"limit=", "limit"},     {"from_ord=-3", "from_ord"},
      {"from_ord=1e3", "from_ord"}, {"from=x", "from"},      {"limit=99999999999", "limit"},
  };
  size_t i;

  harness_play_random(s, "himalaya", 2, "{}", 5, p, id);
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    struct harness_response r;

    harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/log?%s", id, bad[i][0]);
    HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
    if (!strstr(harness_str(r.json, "detail"), bad[i][1]))
      fail_msg("?%s: detail does not name %s: %s", bad[i][0], bad[i][1],
               harness_str(r.json, "detail"));
    harness_response_free(&r);
  }
}

/* ---- the export streamed ---- */

static char *export_text(struct harness_server *s, const char *token, const char *id, size_t *len)
{
  struct harness_response r;
  char *text;

  harness_call(s, &r, "GET", token, NULL, "/v1/games/%s/export", id);
  HARNESS_EXPECT_JSON(&r, 200);
  text = malloc(r.body_len + 1);
  assert_non_null(text);
  memcpy(text, r.body, r.body_len + 1);
  *len = r.body_len;
  harness_response_free(&r);
  return text;
}

/* A finished game of more rows than one chunk: its streamed export is one
 * valid document that imports elsewhere and comes back byte for byte. */
static void test_export_round_trip(void **state)
{
  struct harness_server *s = *state;
  struct harness_server other;
  struct harness_player p[5];
  struct harness_player importer;
  struct harness_response r;
  char id[64];
  char *first;
  char *again;
  size_t len1, len2;
  size_t rows;
  uint64_t seed;
  json_t *doc;

  /* Game lengths vary with the server's seed: play until one is longer
   * than a chunk (128 rows), so the document crosses chunk boundaries. */
  for (seed = 77;; seed++) {
    /* A bound only against looping forever: each game's length depends on
     * the server's own seed, and 12 tries once all ended under 129 rows. */
    assert_true(seed < 77 + 40);
    harness_play_random(s, "himalaya", 5, "{}", seed, p, id);
    first = export_text(s, NULL, id, &len1);
    doc = json_loadb(first, len1, JSON_REJECT_DUPLICATES, NULL);
    assert_non_null(doc);
    rows = json_array_size(json_object_get(doc, "moves"));
    json_decref(doc);
    if (rows > 128)
      break;
    free(first);
  }
  harness_expect_verifies(s, id);

  memset(&other, 0, sizeof(other));
  harness_start(&other);
  harness_new_player(&other, "importer", &importer);
  {
    struct harness_request req = {.method = "POST",
                                  .path = "/v1/games/import",
                                  .token = importer.token,
                                  .body = first,
                                  .body_len = len1};
    char path[128];

    assert_true(harness_send(&other.client, &req, &r));
    HARNESS_EXPECT_JSON(&r, 201);
    harness_response_free(&r);
    snprintf(path, sizeof(path), "%s", id);
    again = export_text(&other, NULL, path, &len2);
  }
  assert_int_equal(len1, len2);
  assert_memory_equal(first, again, len1);
  free(first);
  free(again);
  assert_true(harness_stop(&other));
}

/* Play the long Everest game to LONG_ROWS rows (round_cap 5000: random play
 * does not end it), as bench_long does. */
static void play_long(struct harness_server *s, struct harness_player p[SEATS], const char *id)
{
  struct harness_rng rng = {.state = 2026};
  json_t *game = harness_get_game(s, NULL, id);
  long rows = 0;

  while (rows < LONG_ROWS && strcmp(harness_str(game, "status"), "active") == 0) {
    int seat = (int)json_integer_value(json_array_get(json_object_get(game, "to_act"), 0));
    json_t *mine = harness_get_game(s, p[seat].token, id);
    json_t *move = harness_choose_move(mine, &rng);
    struct harness_response r;

    harness_post_move(s, &r, p[seat].token, id, harness_int(mine, "seq"), move);
    HARNESS_EXPECT_JSON(&r, 200);
    rows++;
    json_decref(game);
    game = json_incref(json_object_get(r.json, "game"));
    harness_response_free(&r);
    json_decref(move);
    json_decref(mine);
  }
  assert_int_equal(rows, LONG_ROWS);
  json_decref(game);
}

struct exporter {
  struct harness_server *s;
  const char *id;
  size_t len;  /* OUT: bytes received */
  long status; /* OUT */
  bool parsed; /* OUT: one JSON object with LONG_ROWS moves */
};

static void *export_once(void *arg)
{
  struct exporter *e = arg;
  struct harness_client c;
  struct harness_response r;
  char path[128];
  struct harness_request req = {.method = "GET", .path = path};

  snprintf(path, sizeof(path), "/v1/games/%s/export", e->id);
  harness_client_init(&c, e->s);
  if (harness_send(&c, &req, &r)) {
    e->status = r.status;
    e->len = r.body_len;
    e->parsed =
        json_is_object(r.json) && json_array_size(json_object_get(r.json, "moves")) == LONG_ROWS;
    harness_response_free(&r);
  }
  harness_client_cleanup(&c);
  return NULL;
}

static void test_export_memory(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p[SEATS];
  struct exporter e[EXPORTS];
  pthread_t t[EXPORTS];
  struct rss_sampler m;
  json_t *created;
  json_t *doc;
  char id[64];
  char *text;
  size_t len;
  long before, peak;
  int i;

  for (i = 0; i < SEATS; i++) {
    char name[24];

    snprintf(name, sizeof(name), "yeti-%d", i);
    harness_new_player(s, name, &p[i]);
  }
  created = harness_new_game(s, p[0].token, "everest-piecepack", SEATS, "{\"round_cap\":5000}");
  snprintf(id, sizeof(id), "%s", harness_game_id(created));
  json_decref(created);
  for (i = 0; i < SEATS; i++)
    harness_join(s, p[i].token, id, i);
  play_long(s, p, id);

  /* The live game's streamed export: one document, every row, and the
   * server still verifies the game it describes. */
  text = export_text(s, p[1].token, id, &len);
  doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
  assert_non_null(doc);
  assert_int_equal(json_array_size(json_object_get(doc, "moves")), LONG_ROWS);
  assert_int_equal(harness_int(json_array_get(json_object_get(doc, "moves"), LONG_ROWS - 1), "ord"),
                   LONG_ROWS - 1);
  json_decref(doc);
  free(text);
  harness_expect_verifies(s, id);

  before = rss_sampler_start(&m, s->pid);
  for (i = 0; i < EXPORTS; i++) {
    e[i] = (struct exporter){.s = s, .id = id};
    pthread_create(&t[i], NULL, export_once, &e[i]);
  }
  for (i = 0; i < EXPORTS; i++)
    pthread_join(t[i], NULL);
  /* Stopped before any assertion: a failing one leaves this frame, and the
   * sampler would go on reading `m` from a dead stack (UBSan caught it as a
   * "load of value 48" for m.stop, and the failure itself was lost with
   * the buffered output). */
  peak = rss_sampler_stop(&m);
  for (i = 0; i < EXPORTS; i++) {
    if (e[i].status != 200 || !e[i].parsed)
      fail_msg("export %d: status %ld, %zu bytes, %s", i, e[i].status, e[i].len,
               e[i].parsed ? "parsed" : "not one document of every row");
  }
  printf("export memory: %d concurrent exports of %d rows (%zu bytes each): VmRSS %ld KiB before, "
         "peak %ld KiB, growth %ld KiB (bound %d KiB)\n",
         EXPORTS, LONG_ROWS, e[0].len, before, peak, peak - before, EXPORT_GROWTH_KB);
  assert_true(peak - before < EXPORT_GROWTH_KB);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_log_pages, harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_log_bad_pages, harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_export_round_trip, harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_export_memory, harness_setup, harness_teardown),
  };
  int rc;

  rss_without_asan_quarantine();
  harness_global_init();
  rc = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
