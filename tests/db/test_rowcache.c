/*
 * test_rowcache.c - the SQLite backend's copies of rows (db/sqlite/rowcache.c)
 * never show anything the file does not hold: after every kind of write,
 * game_load through the backend that cached the row equals game_load
 * through a backend opened afresh on the same file (whose cache is empty),
 * field by field. Also the player copies, and the webhook count that lets
 * a move skip the webhook query.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/order.h"
#include "db/db.h"
#include "db/sqlite/internal.h"
#include "tmpdb.h"

static void assert_same_text(const char *a, const char *b)
{
  if (!a || !b)
    assert_ptr_equal(a, b);
  else
    assert_string_equal(a, b);
}

static void assert_same_row(const struct db_game *a, const struct db_game *b)
{
  int i;

  assert_string_equal(a->id, b->id);
  assert_string_equal(a->title, b->title);
  assert_string_equal(a->rules_version, b->rules_version);
  assert_string_equal(a->status, b->status);
  assert_int_equal(a->seats, b->seats);
  assert_same_text(a->options_json, b->options_json);
  assert_same_text(a->result_json, b->result_json);
  assert_memory_equal(a->seed, b->seed, ENGINE_SEED_BYTES);
  assert_string_equal(a->creator, b->creator);
  assert_int_equal(a->created_ms, b->created_ms);
  assert_int_equal(a->seq, b->seq);
  assert_int_equal(a->moves, b->moves);
  for (i = 0; i < ENGINE_MAX_SEATS; i++) {
    assert_string_equal(a->seat_player[i], b->seat_player[i]);
    assert_string_equal(a->seat_name[i], b->seat_name[i]);
  }
  assert_memory_equal(a->log_head, b->log_head, DB_HASH_BYTES);
  assert_int_equal(a->updated_ms, b->updated_ms);
  assert_int_equal(a->move_ms, b->move_ms);
  assert_int_equal(a->base_ms, b->base_ms);
  assert_int_equal(a->increment_ms, b->increment_ms);
  assert_int_equal(a->cap_ms, b->cap_ms);
  assert_string_equal(a->on_timeout, b->on_timeout);
}

/* game `id` as the fixture's backend shows it (from its cache, since the
 * test loaded it before) equals what a backend with an empty cache reads
 * from the file. */
static void assert_cache_matches_file(struct tmpdb_backend *f, const char *id)
{
  struct cairn_error err = {0};
  struct db *fresh = NULL;
  struct db_game cached = {0}, stored = {0};

  assert_int_equal(db_open(f->t.path, &fresh, &err), CAIRN_OK);
  tmpdb_load(f->db, id, &cached);
  tmpdb_load(fresh, id, &stored);
  assert_same_row(&cached, &stored);
  db_game_clear(&cached);
  db_game_clear(&stored);
  db_close(fresh);
}

/* Load `id` through the fixture's backend, so its cache holds the row. */
static void warm(struct tmpdb_backend *f, const char *id)
{
  struct db_game g = {0};

  tmpdb_load(f->db, id, &g);
  db_game_clear(&g);
}

static void test_a_cached_row_sees_every_seat_taken(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_add_player(f->db, "bob", 0x02);
  tmpdb_add_game(f->db, "g1", 2, "alice");
  warm(f, "g1");
  assert_int_equal(db_seat_take(f->db, "g1", 0, "alice", &err), CAIRN_OK);
  assert_cache_matches_file(f, "g1");
  /* The last seat also flips the game to active. */
  assert_int_equal(db_seat_take(f->db, "g1", 1, "bob", &err), CAIRN_OK);
  assert_cache_matches_file(f, "g1");
}

static void test_a_cached_row_follows_every_append(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  uint32_t ord;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (ord = 0; ord < 5; ord++) {
    warm(f, "g1");
    assert_int_equal(tmpdb_append(f->db, "g1", ord, NULL, &err), CAIRN_OK);
    assert_cache_matches_file(f, "g1"); /* seq, moves, updated_ms, log_head */
  }
  assert_int_equal(tmpdb_append(f->db, "g1", ord, "{\"winner\":1}", &err), CAIRN_OK);
  assert_cache_matches_file(f, "g1"); /* finished, with its result */
}

static void test_a_refused_append_leaves_the_cached_row_as_stored(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);
  warm(f, "g1");
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_ESTALE);
  assert_cache_matches_file(f, "g1");
}

static void test_a_cached_row_sees_a_touch(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_active_game(f->db, "g1", 2);
  warm(f, "g1");
  assert_int_equal(db_game_touch(f->db, "g1", 1800000000000, &err), CAIRN_OK);
  assert_cache_matches_file(f, "g1");
}

/* The copy is moved on by the append that wrote the row, so another
 * writer's append (here a second backend on the same file, which the
 * server never runs) is the one change it cannot see: the reason one server
 * owns its database. What it must never do is let that stale copy write:
 * the append's own checks read the file. */
static void test_a_stale_copy_cannot_append_over_another_writer(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db *other = NULL;

  tmpdb_add_active_game(f->db, "g1", 2);
  warm(f, "g1");
  assert_int_equal(db_open(f->t.path, &other, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(other, "g1", 0, NULL, &err), CAIRN_OK);
  db_close(other);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_ESTALE);
}

static void test_a_player_is_found_again_and_a_miss_is_not_kept(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player p = {0};
  uint8_t hash[DB_HASH_BYTES];
  int round;

  tmpdb_hash_of(hash, 0x05);
  assert_int_equal(db_player_by_token(f->db, hash, &p, &err), CAIRN_ENOTFOUND);
  tmpdb_add_player(f->db, "carol", 0x05); /* the token that just missed */
  for (round = 0; round < 2; round++) {   /* from the file, then from the copy */
    memset(&p, 0, sizeof(p));
    assert_int_equal(db_player_by_token(f->db, hash, &p, &err), CAIRN_OK);
    assert_string_equal(p.id, "carol");
    assert_string_equal(p.name, "Name of carol");
  }
  tmpdb_hash_of(hash, 0x06);
  assert_int_equal(db_player_by_token(f->db, hash, &p, &err), CAIRN_ENOTFOUND);
}

static enum cairn_status count_hook(void *arg, const struct db_webhook *hook,
                                    struct cairn_error *err)
{
  (void)hook;
  (void)err;
  ++*(int *)arg;
  return CAIRN_OK;
}

static int hooks_of_game(struct db *db, const char *game_id)
{
  struct cairn_error err = {0};
  int n = 0;

  assert_int_equal(db_webhooks_of_game(db, game_id, count_hook, &n, &err), CAIRN_OK);
  return n;
}

static void test_webhooks_are_found_after_create_and_restart_and_not_after_delete(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_webhook hook = {.owner = "g1-p0",
                            .game_id = "g1",
                            .url = "https://example.org/h",
                            .format = "json",
                            .created_ms = 1700000000000};

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(hooks_of_game(f->db, "g1"), 0);
  snprintf(hook.id, sizeof(hook.id), "hook1");
  assert_int_equal(db_webhook_create(f->db, &hook, &err), CAIRN_OK);
  assert_int_equal(hooks_of_game(f->db, "g1"), 1);
  /* A restart counts the hooks already stored. */
  db_close(f->db);
  f->db = NULL;
  assert_int_equal(db_open(f->t.path, &f->db, &err), CAIRN_OK);
  assert_int_equal(hooks_of_game(f->db, "g1"), 1);
  assert_int_equal(db_webhook_delete(f->db, "hook1", "g1-p0", &err), CAIRN_OK);
  assert_int_equal(hooks_of_game(f->db, "g1"), 0);
  /* A refused delete leaves the count alone. */
  assert_int_equal(db_webhook_create(f->db, &hook, &err), CAIRN_OK);
  assert_int_equal(db_webhook_delete(f->db, "hook1", "g1-p1", &err), CAIRN_ENOTFOUND);
  assert_int_equal(hooks_of_game(f->db, "g1"), 1);
}

#define T(name) cmocka_unit_test_setup_teardown(name, tmpdb_backend_setup, tmpdb_backend_teardown)

int main(void)
{
  const struct CMUnitTest tests[] = {
      T(test_a_cached_row_sees_every_seat_taken),
      T(test_a_cached_row_follows_every_append),
      T(test_a_refused_append_leaves_the_cached_row_as_stored),
      T(test_a_cached_row_sees_a_touch),
      T(test_a_stale_copy_cannot_append_over_another_writer),
      T(test_a_player_is_found_again_and_a_miss_is_not_kept),
      T(test_webhooks_are_found_after_create_and_restart_and_not_after_delete),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
