/*
 * test_migrate_db.c - issue 23: "README says how to move an existing SQLite
 * database into PostgreSQL (`cairn migrate-db` ...), keeping ids, players
 * and hashes". A community's store on SQLite - games open, active, timed,
 * resigned and finished, a webhook, a vacation - is moved with `cairn
 * migrate-db` into an empty database on a real PostgreSQL, and a server on
 * it must answer every player as the old one did: the same tokens, views,
 * logs with their chain hashes, signed exports, webhooks and games lists,
 * and the games play on. A target that is not empty, or stores of the
 * wrong kinds, are refused without changing anything.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "pgdb.h"
#include "tests/order.h"

#define PLAYERS 4

struct community {
  struct harness_player p[PLAYERS];
  char finished[64], active[64], open[64], timed[64], resigned[64];
  char hook[64];
  char device[128]; /* a second token of p[0], from a sign-in code */
};

struct fixture {
  struct pgdb db;
  struct harness_server old, moved;
  bool old_started, moved_started;
  struct community c;
};

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));

  if (!f || !pgdb_test_cluster() || !pgdb_create(&f->db, pgdb_test_cluster(), "cairn_api")) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  struct fixture *f = *state;
  int rc = 0;

  if (f->old_started && !harness_stop(&f->old))
    rc = -1;
  if (f->moved_started && !harness_stop(&f->moved))
    rc = -1;
  if (!pgdb_drop(&f->db))
    rc = -1;
  unsetenv("CAIRN_KEY");
  free(f);
  return rc;
}

/* ---- building the community on SQLite ---- */

static void seated_game(struct harness_server *s, const struct harness_player *a,
                        const struct harness_player *b, const char *body, char id[64])
{
  struct harness_response r;

  harness_call(s, &r, "POST", a->token, body, "/v1/games");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, 64, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  harness_join(s, a->token, id, 0);
  if (b)
    harness_join(s, b->token, id, 1);
}

/* Play `n` moves of a two-seat game as whoever is to act. */
static void play(struct harness_server *s, const struct harness_player *a,
                 const struct harness_player *b, const char *id, int n, uint64_t seed)
{
  struct harness_rng rng = {seed};

  for (int i = 0; i < n; i++) {
    json_t *game = harness_get_game(s, a->token, id);
    const struct harness_player *who = harness_may_act(game, 0) ? a : b;
    json_t *mine = who == a ? game : harness_get_game(s, b->token, id);
    json_t *move = harness_choose_move(mine, &rng);
    struct harness_response r;

    harness_post_move(s, &r, who->token, id, harness_int(mine, "seq"), move);
    HARNESS_EXPECT_STATUS(&r, 200);
    harness_response_free(&r);
    json_decref(move);
    if (mine != game)
      json_decref(mine);
    json_decref(game);
  }
}

static void build(struct harness_server *s, struct community *c)
{
  const char *names[PLAYERS] = {"Tenzing", "Hillary", "Mallory", "Irvine"};
  struct harness_player finished_players[3];
  struct harness_response r;

  for (int i = 0; i < PLAYERS; i++)
    harness_new_player(s, names[i], &c->p[i]);
  harness_play_random(s, "journey-to-the-top", 3, NULL, 7, finished_players, c->finished);
  seated_game(s, &c->p[0], &c->p[1], "{\"title\":\"himalaya\",\"seats\":2}", c->active);
  play(s, &c->p[0], &c->p[1], c->active, 9, 11);
  seated_game(s, &c->p[2], NULL, "{\"title\":\"everest-piecepack\",\"seats\":2}", c->open);
  seated_game(s, &c->p[2], &c->p[3],
              "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"move_hours\":24}}",
              c->timed);
  play(s, &c->p[2], &c->p[3], c->timed, 3, 13);
  seated_game(s, &c->p[1], &c->p[3], "{\"title\":\"because-its-there\",\"seats\":2}", c->resigned);
  play(s, &c->p[1], &c->p[3], c->resigned, 2, 17);
  {
    json_t *g = harness_get_game(s, NULL, c->resigned);
    char body[64];

    snprintf(body, sizeof body, "{\"seq\":%ld}", harness_int(g, "seq"));
    json_decref(g);
    harness_call(s, &r, "POST", c->p[3].token, body, "/v1/games/%s/resign", c->resigned);
  }
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  harness_call(s, &r, "POST", c->p[0].token,
               "{\"url\":\"https://hooks.example.com/cairn\",\"format\":\"json\"}", "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(c->hook, sizeof c->hook, "%s", harness_str(r.json, "id"));
  harness_response_free(&r);
  harness_call(s, &r, "POST", c->p[0].token, NULL, "/v1/players/me/sign-in-code");
  HARNESS_EXPECT_STATUS(&r, 201);
  {
    json_t *code = json_pack("{s:s}", "code", harness_str(r.json, "code"));

    harness_response_free(&r);
    harness_call_json(s, &r, "POST", NULL, code, "/v1/sign-in");
    HARNESS_EXPECT_STATUS(&r, 201);
    snprintf(c->device, sizeof c->device, "%s", harness_str(r.json, "token"));
    json_decref(code);
  }
  harness_response_free(&r);
  harness_call(s, &r, "POST", c->p[2].token, "{\"start\":\"2030-01-01T00:00:00Z\",\"hours\":24}",
               "/v1/players/me/vacation");
  HARNESS_EXPECT_STATUS(&r, 201);
  harness_response_free(&r);
}

/* ---- what a player can fetch, before and after ---- */

/* What `token` is answered at `path`, without what depends on the moment
 * it is asked (a clock's time left, an export's date). New reference. */
static json_t *fetched(struct harness_server *s, const char *token, const char *path)
{
  json_t *doc = harness_get_json(s, token, "%s", path);
  const char *volatile_keys[] = {"clocks", "exported_at", "now", NULL};

  for (int i = 0; volatile_keys[i]; i++)
    json_object_del(doc, volatile_keys[i]);
  return doc;
}

/* Everything the community's players fetch, as one document. */
static json_t *everything(struct harness_server *s, const struct community *c)
{
  const char *games[] = {c->finished, c->active, c->open, c->timed, c->resigned};
  json_t *all = json_object();
  char path[200], key[300];

  json_object_set_new(all, "device me", fetched(s, c->device, "/v1/players/me"));
  for (int i = 0; i < PLAYERS; i++) {
    snprintf(key, sizeof key, "%s me", c->p[i].name);
    json_object_set_new(all, key, fetched(s, c->p[i].token, "/v1/players/me"));
    snprintf(key, sizeof key, "%s mygames", c->p[i].name);
    json_object_set_new(all, key, fetched(s, c->p[i].token, "/v1/players/me/games"));
    snprintf(key, sizeof key, "%s webhooks", c->p[i].name);
    json_object_set_new(all, key, fetched(s, c->p[i].token, "/v1/webhooks"));
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
      snprintf(path, sizeof path, "/v1/games/%s", games[g]);
      snprintf(key, sizeof key, "%s view %s", c->p[i].name, games[g]);
      json_object_set_new(all, key, fetched(s, c->p[i].token, path));
    }
  }
  for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
    snprintf(path, sizeof path, "/v1/games/%s/log", games[g]);
    json_object_set_new(all, path, fetched(s, NULL, path));
    snprintf(path, sizeof path, "/v1/games/%s/export", games[g]);
    json_object_set_new(all, path, fetched(s, NULL, path));
  }
  return all;
}

static void expect_same(const json_t *before, const json_t *after)
{
  const char *key;
  json_t *value;

  json_object_foreach((json_t *)before, key, value)
  {
    if (!json_equal(value, json_object_get(after, key))) {
      char *a = harness_dump(value), *b = harness_dump(json_object_get(after, key));

      fail_msg("%s differs after the move to PostgreSQL:\nbefore %.2000s\nafter  %.2000s", key, a,
               b);
    }
  }
  assert_int_equal(json_object_size(before), json_object_size(after));
}

/* Build on SQLite, stop, move to PostgreSQL; *report is migrate-db's. */
static int move_community(struct fixture *f, json_t **report)
{
  char args[1200], key[400];
  int rc;

  harness_start(&f->old);
  f->old_started = true;
  build(&f->old, &f->c);
  harness_pause(&f->old); /* stopped, its store kept */
  snprintf(args, sizeof args, "migrate-db --from '%s' --to '%s'", f->old.db_path, f->db.url);
  rc = harness_run_tool(args, report);
  /* The nodes sign with the old server's key (README). */
  snprintf(key, sizeof key, "%s/server.key", f->old.dir);
  setenv("CAIRN_KEY", key, 1);
  return rc;
}

static void test_a_moved_store_answers_every_player_as_before(void **state)
{
  struct fixture *f = *state;
  struct community *c = &f->c;
  json_t *report = NULL, *before, *after, *copied;
  struct harness_response r;
  int rc = move_community(f, &report);

  assert_int_equal(rc, 0);
  assert_non_null(report);
  assert_true(json_is_true(json_object_get(report, "ok")));
  copied = json_object_get(report, "copied");
  assert_int_equal(harness_int(copied, "players"), PLAYERS + 3);
  assert_int_equal(harness_int(copied, "games"), 5);
  assert_int_equal(harness_int(copied, "webhooks"), 1);
  assert_int_equal(harness_int(copied, "vacations"), 1);
  assert_int_equal(harness_int(copied, "tokens"), 1);
  assert_true(harness_int(copied, "clocks") >= 2);
  /* Issue 25: the finished journey and the resigned duel were rated. */
  assert_int_equal(harness_int(copied, "rated_games"), 2);
  assert_int_equal(harness_int(copied, "ratings"), 5);
  assert_int_equal(harness_int(report, "games_checked"), 5);
  assert_true(harness_int(report, "log_rows_checked") > 14);
  assert_int_equal(json_array_size(json_object_get(report, "differ")), 0);
  json_decref(report);
  /* The copied ratings are the stored ones bit for bit: recomputed on
   * PostgreSQL from the copied games, they agree. */
  {
    char args[1024];

    snprintf(args, sizeof args, "ratings-recompute --db '%s'", f->db.url);
    assert_int_equal(harness_run_tool(args, &report), 0);
    assert_int_equal(harness_int(report, "games"), 2);
    assert_int_equal(harness_int(report, "mismatches"), 0);
    json_decref(report);
  }

  harness_resume(&f->old); /* the old server, to compare with */
  before = everything(&f->old, c);
  harness_start_on(&f->moved, f->db.url);
  f->moved_started = true;
  after = everything(&f->moved, c);
  expect_same(before, after);
  json_decref(before);
  json_decref(after);

  /* Old tokens play on, and the record still verifies. */
  play(&f->moved, &c->p[0], &c->p[1], c->active, 2, 23);
  harness_expect_verifies(&f->moved, c->active);
  harness_expect_verifies(&f->moved, c->finished);
  harness_call(&f->moved, &r, "POST", c->p[1].token, NULL, "/v1/games/%s/join", c->open);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
}

static void test_a_target_that_is_not_empty_is_refused(void **state)
{
  struct fixture *f = *state;
  json_t *report = NULL, *seen_before, *seen_after;
  char args[1200];
  int rc = move_community(f, &report);

  assert_int_equal(rc, 0);
  json_decref(report);
  harness_start_on(&f->moved, f->db.url);
  f->moved_started = true;
  seen_before = everything(&f->moved, &f->c);
  harness_stop(&f->moved);
  f->moved_started = false;

  snprintf(args, sizeof args, "migrate-db --from '%s' --to '%s'", f->old.db_path, f->db.url);
  report = NULL;
  assert_int_equal(harness_run_tool(args, &report), 2);
  assert_null(report);

  harness_start_on(&f->moved, f->db.url);
  f->moved_started = true;
  seen_after = everything(&f->moved, &f->c);
  expect_same(seen_before, seen_after);
  json_decref(seen_before);
  json_decref(seen_after);
}

static void test_stores_of_the_wrong_kind_are_refused(void **state)
{
  struct fixture *f = *state;
  const char *cases[] = {
      "migrate-db --from /tmp/cairn-missing.db --to /tmp/cairn-not-postgres.db", /* a file */
      "migrate-db --from '%s' --to '%s'",         /* the source is not SQLite */
      "migrate-db --to '%s'",                     /* no source */
      "migrate-db --from '%s' --to '%s' --force", /* an unknown flag */
  };
  char args[1200];

  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    json_t *report = NULL;

    snprintf(args, sizeof args, cases[i], f->db.url, f->db.url);
    assert_int_equal(harness_run_tool(args, &report), 2);
    assert_null(report);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_moved_store_answers_every_player_as_before, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_a_target_that_is_not_empty_is_refused, setup, teardown),
      cmocka_unit_test_setup_teardown(test_stores_of_the_wrong_kind_are_refused, setup, teardown),
  };
  int failed;

  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
