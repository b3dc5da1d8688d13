/*
 * test_archive.c - a player's finished games through the real server
 * (api/archive.c, issue 25): GET /v1/archive lists them, most recently
 * finished first, filtered by title, opponent and result, a page at a
 * time; GET /v1/archive/export streams them as NDJSON, each line the
 * game's own export document, in memory that does not grow with the
 * number of games.
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
#include <unistd.h>

#include "tests/order.h"
#include "harness.h"
#include "rss.h"
#include "setups.h"

#define MANY_GAMES 300
#define EXPORTS    16
/* As test_pages.c's bound for 16 streamed exports of one long game: under
 * AddressSanitizer the server's allocator keeps what each polling thread
 * freed, so a stream's own cost shows as several MiB; what this bounds is
 * an export holding its games, which grows with their number. */
#define EXPORT_GROWTH_KB (48 * 1024)

/* A two-seat `title` game, `a` in seat 0 and `b` in seat 1, ended by
 * `loser`'s resignation; its id into id[64]. The pause keeps each game's
 * end a millisecond apart, so the order a test expects is the order it
 * ended them in. */
static void finished_duel(struct harness_server *s, const char *title,
                          const struct harness_player *a, const struct harness_player *b,
                          const struct harness_player *loser, char id[64])
{
  char fields[128];

  snprintf(fields, sizeof fields, "\"title\":\"%s\",\"seats\":2", title);
  setup_invited_game(s, fields, a, b, 1, id);
  setup_resign(s, loser->token, id);
  usleep(2000);
}

static void expect_archive(struct harness_server *s, const char *token, const char *query,
                           const char *ids)
{
  json_t *page = harness_get_json(s, token, "/v1/archive%s", query);
  char got[1024];

  setup_page_ids(page, got, sizeof got);
  assert_string_equal(got, ids);
  json_decref(page);
}

struct cast {
  struct harness_player alice, bob, carol;
  char won_bob[64], lost_carol[64], lost_bob_everest[64], open[64];
};

/* alice beats bob, loses to carol, loses to bob at Everest; and has a game
 * still open. */
static void play_cast(struct harness_server *s, struct cast *c)
{
  struct harness_response r;

  harness_new_player(s, "alice", &c->alice);
  harness_new_player(s, "bob", &c->bob);
  harness_new_player(s, "carol", &c->carol);
  finished_duel(s, "himalaya", &c->alice, &c->bob, &c->bob, c->won_bob);
  finished_duel(s, "himalaya", &c->carol, &c->alice, &c->alice, c->lost_carol);
  finished_duel(s, "everest-piecepack", &c->bob, &c->alice, &c->alice, c->lost_bob_everest);
  harness_call(s, &r, "POST", c->alice.token, "{\"title\":\"himalaya\",\"seats\":2,\"seat\":0}",
               "/v1/games");
  HARNESS_EXPECT_JSON(&r, 201);
  snprintf(c->open, sizeof c->open, "%s", harness_game_id(r.json));
  harness_response_free(&r);
}

static void test_the_archive_lists_finished_games_by_filter(void **state)
{
  struct harness_server *s = *state;
  struct cast c;
  char want[300], query[160];
  json_t *page, *entry;

  play_cast(s, &c);
  /* Newest first; the open game is no part of it; anyone may ask. */
  snprintf(want, sizeof want, "%s,%s,%s", c.lost_bob_everest, c.lost_carol, c.won_bob);
  snprintf(query, sizeof query, "?player=%s", c.alice.id);
  expect_archive(s, NULL, query, want);
  expect_archive(s, c.alice.token, "", want);

  page = harness_get_json(s, NULL, "/v1/archive?player=%s", c.alice.id);
  entry = json_array_get(json_object_get(page, "games"), 2);
  assert_string_equal(harness_str(entry, "outcome"), "won");
  assert_int_equal(harness_int(entry, "seat"), 0);
  assert_true(json_is_object(json_object_get(entry, "result")));
  entry = json_array_get(json_object_get(page, "games"), 1);
  assert_string_equal(harness_str(entry, "outcome"), "lost");
  assert_int_equal(harness_int(entry, "seat"), 1);
  assert_true(json_is_null(json_object_get(page, "next")));
  json_decref(page);

  snprintf(query, sizeof query, "?player=%s&title=himalaya", c.alice.id);
  snprintf(want, sizeof want, "%s,%s", c.lost_carol, c.won_bob);
  expect_archive(s, NULL, query, want);
  snprintf(query, sizeof query, "?player=%s&opponent=%s", c.alice.id, c.bob.id);
  snprintf(want, sizeof want, "%s,%s", c.lost_bob_everest, c.won_bob);
  expect_archive(s, NULL, query, want);
  snprintf(query, sizeof query, "?player=%s&result=won", c.alice.id);
  expect_archive(s, NULL, query, c.won_bob);
  snprintf(query, sizeof query, "?player=%s&result=lost&opponent=%s", c.alice.id, c.carol.id);
  expect_archive(s, NULL, query, c.lost_carol);
  snprintf(query, sizeof query, "?player=%s&result=drawn", c.alice.id);
  expect_archive(s, NULL, query, "");
  /* bob's side of the same games. */
  snprintf(query, sizeof query, "?player=%s&result=won", c.bob.id);
  expect_archive(s, NULL, query, c.lost_bob_everest);
}

static void test_archive_pages_follow_their_cursor(void **state)
{
  struct harness_server *s = *state;
  struct cast c;
  char seen[3][64], path[300];
  json_t *page;
  int n = 0;

  play_cast(s, &c);
  snprintf(path, sizeof path, "/v1/archive?player=%s&limit=1", c.alice.id);
  for (;;) {
    page = harness_get_json(s, NULL, "%s", path);
    if (json_array_size(json_object_get(page, "games")) == 1) {
      assert_true(n < 3);
      snprintf(seen[n++], 64, "%s",
               harness_game_id(json_array_get(json_object_get(page, "games"), 0)));
    }
    if (json_is_null(json_object_get(page, "next"))) {
      json_decref(page);
      break;
    }
    snprintf(path, sizeof path, "/v1/archive?player=%s&limit=1&cursor=%s", c.alice.id,
             harness_str(page, "next"));
    json_decref(page);
  }
  assert_int_equal(n, 3);
  assert_string_equal(seen[0], c.lost_bob_everest);
  assert_string_equal(seen[1], c.lost_carol);
  assert_string_equal(seen[2], c.won_bob);
}

static void expect_bad_query(struct harness_server *s, const char *path)
{
  struct harness_response r;

  harness_call(s, &r, "GET", NULL, NULL, "%s", path);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
}

static void test_bad_archive_queries_are_refused_by_name(void **state)
{
  struct harness_server *s = *state;

  expect_bad_query(s, "/v1/archive");
  expect_bad_query(s, "/v1/archive/export");
  expect_bad_query(s, "/v1/archive?player=p&result=tied");
  expect_bad_query(s, "/v1/archive?player=p&title=chess");
  expect_bad_query(s, "/v1/archive?player=p&limit=0");
  expect_bad_query(s, "/v1/archive?player=p&limit=51");
  expect_bad_query(s, "/v1/archive?player=p&cursor=zzz");
  expect_bad_query(s, "/v1/archive?player=p&opponent=");
  expect_bad_query(s, "/v1/archive?player=0123456789012345678901234567890123456789");
  expect_bad_query(s, "/v1/archive/export?player=p&limit=10001");
}

/* One GET as a raw body: `*len` bytes, caller frees. */
static char *get_text(struct harness_server *s, const char *path, size_t *len, char **ct)
{
  struct harness_response r;
  char *text;

  harness_call(s, &r, "GET", NULL, NULL, "%s", path);
  HARNESS_EXPECT_STATUS(&r, 200);
  text = malloc(r.body_len + 1);
  assert_non_null(text);
  memcpy(text, r.body, r.body_len + 1);
  *len = r.body_len;
  if (ct)
    *ct = r.content_type ? strdup(r.content_type) : NULL;
  harness_response_free(&r);
  return text;
}

static void test_the_export_gives_each_game_s_own_document_per_line(void **state)
{
  struct harness_server *s = *state;
  struct cast c;
  const char *order[3];
  char path[256], *text, *line, *own, *ct = NULL;
  size_t len, own_len;
  int i;

  play_cast(s, &c);
  order[0] = c.lost_bob_everest;
  order[1] = c.lost_carol;
  order[2] = c.won_bob;
  snprintf(path, sizeof path, "/v1/archive/export?player=%s", c.alice.id);
  text = get_text(s, path, &len, &ct);
  assert_non_null(ct);
  assert_true(harness_media_type_is(ct, "application/x-ndjson"));
  free(ct);
  line = text;
  for (i = 0; i < 3; i++) {
    char *end = strchr(line, '\n');

    assert_non_null(end);
    snprintf(path, sizeof path, "/v1/games/%s/export", order[i]);
    own = get_text(s, path, &own_len, NULL);
    assert_int_equal((size_t)(end - line), own_len);
    assert_memory_equal(line, own, own_len);
    free(own);
    line = end + 1;
  }
  assert_int_equal((size_t)(line - text), len);
  free(text);
  /* Filters and a limit apply as to the listing. */
  snprintf(path, sizeof path, "/v1/archive/export?player=%s&result=won", c.alice.id);
  text = get_text(s, path, &len, NULL);
  assert_non_null(strstr(text, c.won_bob));
  assert_int_equal(strchr(text, '\n') - text + 1, (long)len);
  free(text);
  snprintf(path, sizeof path, "/v1/archive/export?player=%s&limit=2", c.alice.id);
  text = get_text(s, path, &len, NULL);
  assert_null(strstr(text, c.won_bob));
  free(text);
}

/* ---- memory ---- */

struct exporter {
  struct harness_server *s;
  const char *path;
  size_t len;  /* OUT: bytes received */
  int lines;   /* OUT */
  long status; /* OUT */
};

static void *export_once(void *arg)
{
  struct exporter *e = arg;
  struct harness_client c;
  struct harness_response r;
  struct harness_request req = {.method = "GET", .path = e->path};

  harness_client_init(&c, e->s);
  if (harness_send(&c, &req, &r)) {
    e->status = r.status;
    e->len = r.body_len;
    for (size_t i = 0; i < r.body_len; i++)
      e->lines += r.body[i] == '\n';
    harness_response_free(&r);
  }
  harness_client_cleanup(&c);
  return NULL;
}

/* EXPORTS clients at once GET `path`, each expecting `lines` lines; the
 * highest VmRSS of the server meanwhile. */
static long peak_of_exports(struct harness_server *s, const char *path, int lines, size_t *len)
{
  struct exporter e[EXPORTS];
  pthread_t t[EXPORTS];
  struct rss_sampler m;
  long peak;
  int i;

  rss_sampler_start(&m, s->pid);
  for (i = 0; i < EXPORTS; i++) {
    e[i] = (struct exporter){.s = s, .path = path};
    pthread_create(&t[i], NULL, export_once, &e[i]);
  }
  for (i = 0; i < EXPORTS; i++)
    pthread_join(t[i], NULL);
  /* Stopped before any assertion, which would leave this frame (rss.h). */
  peak = rss_sampler_stop(&m);
  for (i = 0; i < EXPORTS; i++) {
    assert_int_equal(e[i].status, 200);
    assert_int_equal(e[i].lines, lines);
  }
  *len = e[0].len;
  return peak;
}

/* MANY_GAMES solo games, each ended by its player's resignation. EXPORTS
 * clients export one of them at once, then all of them: the second may
 * take the server's memory less than EXPORT_GROWTH_KB above the first's
 * peak. An export stream holds one game's export stream and a batch of
 * ids whatever it exports. */
static void test_exporting_many_games_keeps_memory_bounded(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;
  struct exporter warm;
  char one[160], all[160], id[64];
  size_t one_len = 0, all_len = 0;
  long before, peak_one, peak_all;
  int i;

  harness_new_player(s, "hermit", &p);
  for (i = 0; i < MANY_GAMES; i++) {
    harness_call(s, &r, "POST", p.token, "{\"title\":\"because-its-there\",\"seats\":1,\"seat\":0}",
                 "/v1/games");
    HARNESS_EXPECT_JSON(&r, 201);
    snprintf(id, sizeof id, "%s", harness_game_id(r.json));
    harness_response_free(&r);
    setup_resign(s, p.token, id);
  }
  snprintf(one, sizeof one, "/v1/archive/export?player=%s&limit=1", p.id);
  snprintf(all, sizeof all, "/v1/archive/export?player=%s", p.id);
  /* One export first, alone: what any first reading of the games fills
   * (storage's row copies and page cache) is not what is measured. */
  warm = (struct exporter){.s = s, .path = all};
  export_once(&warm);
  assert_int_equal(warm.lines, MANY_GAMES);

  before = rss_kb(s->pid);
  peak_one = peak_of_exports(s, one, 1, &one_len);
  peak_all = peak_of_exports(s, all, MANY_GAMES, &all_len);
  printf("archive export memory: VmRSS %ld KiB before; %d concurrent exports of 1 game (%zu bytes "
         "each): peak %ld KiB; of %d games (%zu bytes each): peak %ld KiB; %ld KiB more (bound %d "
         "KiB; their documents: %zu KiB)\n",
         before, EXPORTS, one_len, peak_one, MANY_GAMES, all_len, peak_all, peak_all - peak_one,
         EXPORT_GROWTH_KB, EXPORTS * all_len / 1024);
  assert_true(peak_all - peak_one < EXPORT_GROWTH_KB);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_the_archive_lists_finished_games_by_filter,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_archive_pages_follow_their_cursor, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_bad_archive_queries_are_refused_by_name, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_the_export_gives_each_game_s_own_document_per_line,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_exporting_many_games_keeps_memory_bounded, harness_setup,
                                      harness_teardown),
  };
  int rc;

  rss_without_asan_quarantine();
  harness_global_init();
  rc = order_run_group_tests_name("api/archive", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
