/*
 * test_backup.c - issue "PostgreSQL: many Cairn nodes", for the embedded
 * default: `cairn backup` (SQLite's online backup, taken by the running
 * server while moves keep coming) and a tested `cairn restore`.
 *
 * A backup is attacked as a secret: it holds every unfinished game's seed
 * and every token's hash, so only the holder of the administrator's token
 * (derived from server.key) gets one. A restore is checked by playing on:
 * a server started on the restored file shows every game at least as far
 * as it was acknowledged before the backup began, each one's record
 * verifies, and its players' tokens still move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "tests/order.h"

#define GAMES 4

struct table {
  struct harness_player p[2];
  char id[GAMES][64];
};

/* Play one move of `id` as whichever seat may act; its new seq, or -1
 * once the game no longer takes moves. */
static long play_one(struct harness_server *s, struct harness_client *c, struct harness_player *p,
                     const char *id, struct harness_rng *rng)
{
  for (int seat = 0; seat < 2; seat++) {
    char path[128], auth[160];
    const char *headers[] = {auth, NULL};
    struct harness_request get = {.method = "GET", .path = path, .headers = headers};
    struct harness_response r;
    json_t *mine, *move, *body;
    long seq = -1;

    snprintf(path, sizeof path, "/v1/games/%s", id);
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", p[seat].token);
    if (!harness_send(c, &get, &r) || r.status != 200) {
      harness_response_free(&r);
      return -1;
    }
    mine = json_incref(r.json);
    harness_response_free(&r);
    if (strcmp(harness_str(mine, "status"), "active") != 0) {
      json_decref(mine);
      return -1;
    }
    if (!harness_may_act(mine, seat)) {
      json_decref(mine);
      continue;
    }
    move = harness_choose_move(mine, rng);
    body = json_pack("{s:I, s:o}", "seq", (json_int_t)harness_int(mine, "seq"), "move", move);
    {
      char *text = json_dumps(body, JSON_COMPACT);
      struct harness_request post = {
          .method = "POST", .headers = headers, .body = text, .body_len = strlen(text)};
      char move_path[160];

      snprintf(move_path, sizeof move_path, "/v1/games/%s/moves", id);
      post.path = move_path;
      if (harness_send(c, &post, &r) && r.status == 200)
        seq = harness_int(json_object_get(r.json, "game"), "seq");
      harness_response_free(&r);
      free(text);
    }
    json_decref(body);
    json_decref(mine);
    (void)s;
    return seq;
  }
  return -1;
}

static void seat_table(struct harness_server *s, struct table *t)
{
  harness_new_player(s, "Tilman", &t->p[0]);
  harness_new_player(s, "Shipton", &t->p[1]);
  for (int g = 0; g < GAMES; g++) {
    json_t *game = harness_new_game(s, t->p[0].token, "himalaya", 2, "{}");

    snprintf(t->id[g], sizeof t->id[g], "%s", harness_game_id(game));
    json_decref(game);
    harness_join(s, t->p[0].token, t->id[g], 0);
    harness_join(s, t->p[1].token, t->id[g], 1);
  }
}

/* Moves made in the last game for as long as `stop` is unset. */
struct mover {
  struct harness_server *s;
  struct table *t;
  atomic_bool stop;
  atomic_long acked; /* the last seq acknowledged */
  long moves;
};

static void *keep_moving(void *arg)
{
  struct mover *m = arg;
  struct harness_client c;
  struct harness_rng rng = {.state = 99};

  harness_client_init(&c, m->s);
  while (!atomic_load(&m->stop)) {
    long seq = play_one(m->s, &c, m->t->p, m->t->id[GAMES - 1], &rng);

    if (seq < 0)
      break;
    atomic_store(&m->acked, seq);
    m->moves++;
  }
  harness_client_cleanup(&c);
  return NULL;
}

/* `cairn backup` of `s` into `file`: its exit status, its report in *out. */
static int backup(struct harness_server *s, const char *file, json_t **out)
{
  char args[1200];

  snprintf(args, sizeof args, "backup --to '%s' --db '%s' --url '%s'", file, s->db_path,
           s->base_url);
  return harness_run_tool(args, out);
}

static int restore(const char *file, const char *db, json_t **out)
{
  char args[1200];

  snprintf(args, sizeof args, "restore --from '%s' --db '%s'", file, db);
  return harness_run_tool(args, out);
}

static void test_a_backup_taken_under_moves_restores_and_plays_on(void **state)
{
  struct harness_server *s = *state, b;
  struct table t;
  struct mover m = {.s = s, .t = &t};
  struct harness_rng rng = {.state = 5};
  long before[GAMES];
  char file[400];
  json_t *report = NULL;
  pthread_t mover;

  seat_table(s, &t);
  for (int g = 0; g < GAMES - 1; g++) {
    before[g] = 0;
    for (int i = 0; i < 3; i++) {
      long seq = play_one(s, &s->client, t.p, t.id[g], &rng);

      if (seq > 0)
        before[g] = seq;
    }
  }
  assert_int_equal(pthread_create(&mover, NULL, keep_moving, &m), 0);
  while (atomic_load(&m.acked) < 3)
    usleep(5000);
  before[GAMES - 1] = atomic_load(&m.acked);
  snprintf(file, sizeof file, "%s/backup.db", s->dir);
  assert_int_equal(backup(s, file, &report), 0);
  atomic_store(&m.stop, true);
  pthread_join(mover, NULL);
  assert_true(json_is_true(json_object_get(report, "ok")));
  assert_int_equal(harness_int(report, "games"), GAMES);
  json_decref(report);
  print_message("%ld moves were made in game 4 while the backup ran\n", m.moves);

  /* Another server, its store replaced by the backup. */
  harness_start(&b);
  harness_pause(&b);
  assert_int_equal(restore(file, b.db_path, &report), 0);
  assert_true(json_is_true(json_object_get(report, "ok")));
  json_decref(report);
  harness_resume(&b);
  for (int g = 0; g < GAMES; g++) {
    json_t *view = harness_get_game(&b, t.p[0].token, t.id[g]);

    /* Every move acknowledged before the backup began is in it. */
    assert_true(harness_int(view, "seq") >= before[g]);
    json_decref(view);
    harness_expect_verifies(&b, t.id[g]);
  }
  /* And the restored games play on, with the restored players' tokens. */
  assert_true(play_one(&b, &b.client, t.p, t.id[0], &rng) > before[0]);
  assert_true(harness_stop(&b));
}

static void test_only_the_administrator_gets_a_backup(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char bearer[160], as_admin[160];
  const char *zeros = "0000000000000000000000000000000000000000000000000000000000000000";
  char zeros_line[100];
  const char *const none[] = {NULL};
  const char *const player_bearer[] = {bearer, NULL};
  const char *const player_as_admin[] = {as_admin, NULL};
  const char *const wrong[] = {zeros_line, NULL};
  const char *const *attempts[] = {none, player_bearer, player_as_admin, wrong};
  static const char *const codes[] = {"missing-token", "missing-token", "bad-token", "bad-token"};

  harness_new_player(s, "Nobody", &p);
  snprintf(bearer, sizeof bearer, "Authorization: Bearer %s", p.token);
  snprintf(as_admin, sizeof as_admin, "X-Admin-Token: %s", p.token);
  snprintf(zeros_line, sizeof zeros_line, "X-Admin-Token: %s", zeros);
  for (size_t i = 0; i < sizeof attempts / sizeof attempts[0]; i++) {
    struct harness_request req = {.method = "GET", .path = "/admin/backup", .headers = attempts[i]};
    struct harness_response r;

    assert_true(harness_send(&s->client, &req, &r));
    HARNESS_EXPECT_PROBLEM(&r, 401, codes[i]);
    assert_null(memmem(r.body, r.body_len, "SQLite format 3", 15));
    harness_response_free(&r);
  }
}

static void test_restore_refuses_a_running_server_and_what_is_not_a_store(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  json_t *report = NULL, *got;
  char junk[400], file[400];
  FILE *f;

  harness_new_player(s, "Kept", &p);
  /* A running server holds its store: restore says so and changes nothing. */
  snprintf(file, sizeof file, "%s/backup.db", s->dir);
  assert_int_equal(backup(s, file, &report), 0);
  json_decref(report);
  report = NULL;
  assert_int_equal(restore(file, s->db_path, &report), 2);
  json_decref(report);
  report = NULL;
  got = harness_get_json(s, p.token, "/v1/players/me/games");
  json_decref(got);
  /* A file that is not a store is refused before anything is replaced. */
  snprintf(junk, sizeof junk, "%s/junk.db", s->dir);
  f = fopen(junk, "w");
  assert_non_null(f);
  fputs("not a database, only some text that is long enough to look like a header.\n", f);
  fclose(f);
  harness_pause(s);
  assert_int_equal(restore(junk, s->db_path, &report), 1);
  assert_true(json_is_false(json_object_get(report, "ok")));
  json_decref(report);
  harness_resume(s);
  got = harness_get_json(s, p.token, "/v1/players/me/games");
  json_decref(got);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_backup_taken_under_moves_restores_and_plays_on,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_only_the_administrator_gets_a_backup, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_restore_refuses_a_running_server_and_what_is_not_a_store,
                                      harness_setup, harness_teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/backup", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
