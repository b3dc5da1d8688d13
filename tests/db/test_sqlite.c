/*
 * test_sqlite.c - the SQLite backend through struct db_ops, checked against
 * the contract in db/db.h, plus a raw connection to the same file where a
 * test must see what is actually stored.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <sqlite3.h>

#include "db/db.h"
#include "db/sqlite/internal.h"
#include "db/sqlite/migrations.h"
#include "tmpdb.h"

/* ---- helpers ---- */

static int highest_migration(void)
{
  int n = 0;
  const struct db_migration *m;

  for (m = db_migrations; m->number; m++)
    n = m->number;
  return n;
}

/* A second, plain connection to the test's file, for looking behind the
 * ops. Caller closes with sqlite3_close. */
static sqlite3 *raw_open(const char *path)
{
  sqlite3 *db = NULL;

  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  return db;
}

/* The first column of the first row of `sql` as an integer. */
static sqlite3_int64 raw_int(sqlite3 *db, const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  sqlite3_int64 v;

  assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
  assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
  v = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  return v;
}

/* The first column of the first row of `sql` as text in buf[size]. */
static void raw_text(sqlite3 *db, const char *sql, char *buf, size_t size)
{
  sqlite3_stmt *stmt = NULL;

  assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
  assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
  snprintf(buf, size, "%s", (const char *)sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
}

/* Records what moves_load hands over. */
struct walk {
  uint32_t ords[512];
  size_t n;
  size_t stop_after;      /* return CAIRN_ECONFLICT after this many rows; 0: never */
  size_t done_after;      /* return CAIRN_DONE after this many rows; 0: never */
  struct db_ops *reenter; /* when set, call game_load from inside the callback */
  const char *game;
  int bad_text; /* rows whose strings did not match their ord */
};

static enum cairn_status walk_cb(void *arg, const struct db_move *move, struct cairn_error *err)
{
  struct walk *w = arg;
  char want[64];

  if (w->n < sizeof(w->ords) / sizeof(w->ords[0]))
    w->ords[w->n] = move->ord;
  w->n++;
  snprintf(want, sizeof(want), "{\"type\":\"pass\",\"n\":%u}", (unsigned)move->ord);
  if (strcmp(move->move_json, want) != 0 || move->seq != move->ord + 1 ||
      move->seat != (int)(move->ord % 2) || move->at_ms != 1700000000000 + move->ord)
    w->bad_text++;
  snprintf(want, sizeof(want), "[{\"type\":\"passed\",\"n\":%u}]", (unsigned)move->ord);
  if (strcmp(move->events_json, want) != 0)
    w->bad_text++;
  if (w->reenter) {
    struct db_game g = {0};
    enum cairn_status st = w->reenter->game_load(w->reenter->ctx, w->game, &g, err);

    db_game_clear(&g);
    if (st != CAIRN_OK)
      return st;
  }
  if (w->stop_after && w->n == w->stop_after)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_INTERNAL, NULL, "stop");
  if (w->done_after && w->n == w->done_after)
    return CAIRN_DONE;
  return CAIRN_OK;
}

static size_t count_moves(struct db_ops *ops, const char *game)
{
  struct walk w = {0};
  struct cairn_error err = {0};

  assert_int_equal(ops->moves_load(ops->ctx, game, 0, walk_cb, &w, &err), CAIRN_OK);
  return w.n;
}

/* ---- opening and the schema ---- */

static void test_fresh_open_creates_schema_at_highest_migration(void **state)
{
  struct tmpdb_backend *f = *state;
  sqlite3 *db = raw_open(f->t.path);

  assert_true(highest_migration() >= 1);
  assert_int_equal(raw_int(db, "SELECT version FROM schema_version"), highest_migration());
  assert_int_equal(raw_int(db, "SELECT count(*) FROM schema_version"), 1);
  assert_int_equal(raw_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND"
                               " name IN ('players', 'games', 'seats', 'moves')"),
                   4);
  assert_int_equal(raw_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND"
                               " name IN ('moves_no_update', 'moves_no_delete')"),
                   2);
  sqlite3_close(db);
}

static void test_reopen_is_idempotent_and_keeps_data(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};
  sqlite3 *db;
  int i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  assert_int_equal(tmpdb_append(&f->ops, "g1", 0, NULL, &err), CAIRN_OK);
  for (i = 0; i < 3; i++) {
    f->ops.close(f->ops.ctx);
    memset(&f->ops, 0, sizeof(f->ops));
    assert_int_equal(db_sqlite_open(f->t.path, &f->ops, &err), CAIRN_OK);
  }
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  assert_int_equal(g.moves, 1);
  db_game_clear(&g);
  db = raw_open(f->t.path);
  assert_int_equal(raw_int(db, "SELECT version FROM schema_version"), highest_migration());
  sqlite3_close(db);
}

static void test_newer_schema_version_is_refused(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  char want[32];
  sqlite3 *db;

  f->ops.close(f->ops.ctx);
  memset(&f->ops, 0, sizeof(f->ops));
  db = raw_open(f->t.path);
  assert_int_equal(sqlite3_exec(db, "UPDATE schema_version SET version = 9999", NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_close(db);

  memset(&f->ops, 0xa5, sizeof(f->ops));
  assert_int_equal(db_sqlite_open(f->t.path, &f->ops, &err), CAIRN_EDB);
  assert_string_equal(err.code, CAIRN_CODE_STORAGE);
  assert_non_null(strstr(err.detail, "9999"));
  snprintf(want, sizeof(want), "up to %d", highest_migration());
  assert_non_null(strstr(err.detail, want));
  /* a failed open leaves nothing to close */
  assert_null(f->ops.ctx);
  assert_null(f->ops.close);

  db = raw_open(f->t.path); /* and the database is untouched */
  assert_int_equal(raw_int(db, "SELECT version FROM schema_version"), 9999);
  sqlite3_close(db);
}

static void test_open_failure_keeps_sqlite_text_out_of_detail(void **state)
{
  struct db_ops ops;
  struct cairn_error err = {0};

  (void)state;
  assert_int_equal(db_sqlite_open("/nonexistent-cairn-dir/sub/cairn.db", &ops, &err), CAIRN_EDB);
  assert_string_equal(err.code, CAIRN_CODE_STORAGE);
  assert_null(strstr(err.detail, "unable to open"));
  assert_null(ops.ctx);
}

static void test_connection_is_wal_full_sync_with_foreign_keys(void **state)
{
  struct tmpdb_backend *f = *state;
  struct db_sqlite *c = f->ops.ctx;
  char mode[16];
  sqlite3 *db = raw_open(f->t.path);

  /* journal_mode is a property of the file: a second connection sees it */
  raw_text(db, "PRAGMA journal_mode", mode, sizeof(mode));
  assert_string_equal(mode, "wal");
  sqlite3_close(db);
  /* synchronous and foreign_keys belong to the backend's own connection */
  assert_int_equal(raw_int(c->db, "PRAGMA synchronous"), 2); /* FULL */
  assert_int_equal(raw_int(c->db, "PRAGMA foreign_keys"), 1);
  assert_int_equal(f->ops.version, DB_OPS_VERSION);
}

/* ---- players ---- */

static void test_player_is_found_by_token_hash(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player out;
  uint8_t hash[DB_HASH_BYTES];

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_player(&f->ops, "bob", 0x02);
  tmpdb_hash_of(hash, 0x02);
  assert_int_equal(f->ops.player_by_token(f->ops.ctx, hash, &out, &err), CAIRN_OK);
  assert_string_equal(out.id, "bob");
  assert_string_equal(out.name, "Name of bob");
  tmpdb_hash_of(hash, 0x01);
  assert_int_equal(f->ops.player_by_token(f->ops.ctx, hash, &out, &err), CAIRN_OK);
  assert_string_equal(out.id, "alice");
}

static void test_unknown_token_hash_is_bad_token(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player out;
  uint8_t hash[DB_HASH_BYTES];

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_hash_of(hash, 0x03);
  assert_int_equal(f->ops.player_by_token(f->ops.ctx, hash, &out, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_BAD_TOKEN);
  assert_string_equal(out.id, "");
}

static void test_repeated_player_id_or_token_is_refused(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player p = {.id = "alice", .name = "Other"};
  uint8_t hash[DB_HASH_BYTES];
  sqlite3 *db;

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_hash_of(hash, 0x09);
  assert_int_equal(f->ops.player_create(f->ops.ctx, &p, hash, &err), CAIRN_EINTERNAL);
  snprintf(p.id, sizeof(p.id), "carol");
  tmpdb_hash_of(hash, 0x01);
  assert_int_equal(f->ops.player_create(f->ops.ctx, &p, hash, &err), CAIRN_EINTERNAL);
  assert_string_equal(err.code, CAIRN_CODE_INTERNAL);
  db = raw_open(f->t.path);
  assert_int_equal(raw_int(db, "SELECT count(*) FROM players"), 1);
  sqlite3_close(db);
}

/* ---- games ---- */

static void test_game_round_trips_through_create_and_load(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};
  int i;

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_game(&f->ops, "g1", 3, "alice");
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 1, "alice", &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.id, "g1");
  assert_string_equal(g.title, "himalaya");
  assert_string_equal(g.rules_version, "1.0");
  assert_string_equal(g.status, DB_STATUS_OPEN);
  assert_string_equal(g.creator, "alice");
  assert_int_equal(g.seats, 3);
  assert_string_equal(g.options_json, "{\"scenario\":\"basic\"}");
  assert_null(g.result_json);
  for (i = 0; i < ENGINE_SEED_BYTES; i++)
    assert_int_equal(g.seed[i], (uint8_t)(i * 7 + 1));
  assert_int_equal(g.created_ms, 1700000000000);
  assert_int_equal(g.seq, 0);
  assert_int_equal(g.moves, 0);
  assert_string_equal(g.seat_player[0], "");
  assert_string_equal(g.seat_player[1], "alice");
  assert_string_equal(g.seat_player[2], "");
  assert_string_equal(g.seat_name[1], "Name of alice");
  assert_string_equal(g.seat_name[0], "");
  db_game_clear(&g);
  assert_null(g.options_json);
  db_game_clear(&g); /* a cleared struct may be cleared again */
}

static void test_game_without_options_stores_empty_object(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {.id = "g2",
                      .title = "himalaya",
                      .rules_version = "1",
                      .seats = 2,
                      .creator = "alice",
                      .created_ms = 5};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  assert_int_equal(f->ops.game_create(f->ops.ctx, &g, &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g2", &g);
  assert_string_equal(g.options_json, "{}");
  db_game_clear(&g);
}

static void test_unknown_game_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g;

  assert_int_equal(f->ops.game_load(f->ops.ctx, "nope", &g, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_null(g.options_json);
  db_game_clear(&g);
}

static void test_game_with_unknown_creator_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {.id = "g3",
                      .title = "himalaya",
                      .rules_version = "1",
                      .seats = 2,
                      .creator = "ghost",
                      .options_json = "{}"};

  assert_int_equal(f->ops.game_create(f->ops.ctx, &g, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_int_equal(f->ops.game_load(f->ops.ctx, "g3", &g, &err), CAIRN_ENOTFOUND);
}

static void test_repeated_game_id_is_refused(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {.id = "g1",
                      .title = "other",
                      .rules_version = "1",
                      .seats = 1,
                      .creator = "alice",
                      .options_json = "{}"};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_game(&f->ops, "g1", 2, "alice");
  assert_int_equal(f->ops.game_create(f->ops.ctx, &g, &err), CAIRN_EINTERNAL);
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.title, "himalaya");
  db_game_clear(&g);
}

/* game_create seats the players its row names in the same transaction
 * (the API's bots): the game is open with them seated, active if they fill
 * it, and absent altogether if one of them does not exist. */
static void test_game_created_with_seated_players(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {
      .id = "g4", .title = "himalaya", .rules_version = "1", .seats = 3, .creator = "alice"};
  struct db_game loaded = {0};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_player(&f->ops, "bot1", 0x02);
  tmpdb_add_player(&f->ops, "bot2", 0x03);
  snprintf(g.seat_player[1], sizeof g.seat_player[1], "bot1");
  assert_int_equal(f->ops.game_create(f->ops.ctx, &g, &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g4", &loaded);
  assert_string_equal(loaded.status, DB_STATUS_OPEN);
  assert_string_equal(loaded.seat_player[0], "");
  assert_string_equal(loaded.seat_player[1], "bot1");
  assert_string_equal(loaded.seat_name[1], "Name of bot1");
  db_game_clear(&loaded);

  snprintf(g.id, sizeof g.id, "g5");
  g.seats = 2;
  snprintf(g.seat_player[0], sizeof g.seat_player[0], "bot2");
  assert_int_equal(f->ops.game_create(f->ops.ctx, &g, &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g5", &loaded);
  assert_string_equal(loaded.status, DB_STATUS_ACTIVE);
  db_game_clear(&loaded);

  snprintf(g.id, sizeof g.id, "g6");
  snprintf(g.seat_player[1], sizeof g.seat_player[1], "ghost");
  assert_int_equal(f->ops.game_create(f->ops.ctx, &g, &err), CAIRN_ENOTFOUND);
  assert_int_equal(f->ops.game_load(f->ops.ctx, "g6", &loaded, &err), CAIRN_ENOTFOUND);
  db_game_clear(&loaded);
}

/* A move's clocks are written in the move's transaction: both or neither.
 * (api/moves.c passes the deadlines a move sets; a crash between two
 * commits once could leave a new move with the old deadlines.) */
static void test_a_move_and_its_clocks_commit_together(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_clock clocks[2] = {{.seat = 0, .bank_ms = 500, .since_ms = 0, .deadline_ms = 0},
                               {.seat = 1, .bank_ms = 900, .since_ms = 1000, .deadline_ms = 1900}};
  struct db_clock got[ENGINE_MAX_SEATS];
  struct db_move m = {.ord = 0,
                      .seq = 1,
                      .seat = 0,
                      .move_json = "{}",
                      .events_json = "[]",
                      .at_ms = 1000,
                      .clocks = clocks,
                      .n_clocks = 2};
  int n = -1;

  tmpdb_add_active_game(&f->ops, "g", 2);
  assert_int_equal(f->ops.move_append(f->ops.ctx, "g", &m, NULL, &err), CAIRN_OK);
  assert_int_equal(f->ops.clocks_load(f->ops.ctx, "g", got, &n, &err), CAIRN_OK);
  assert_int_equal(n, 2);
  assert_int_equal(got[0].bank_ms, 500);
  assert_int_equal(got[0].deadline_ms, 0);
  assert_int_equal(got[1].since_ms, 1000);
  assert_int_equal(got[1].deadline_ms, 1900);

  /* Stale: refused, and the clocks it carried are not written either. */
  clocks[1].deadline_ms = 7777;
  assert_int_equal(f->ops.move_append(f->ops.ctx, "g", &m, NULL, &err), CAIRN_ESTALE);
  assert_int_equal(f->ops.clocks_load(f->ops.ctx, "g", got, &n, &err), CAIRN_OK);
  assert_int_equal(got[1].deadline_ms, 1900);
}

/* ---- the webhook outbox ---- */

struct owed_seen {
  int n;
  struct db_outbox first;
  char body[64];
  char url[sizeof(((struct db_webhook *)0)->url)];
};

static enum cairn_status see_owed(void *arg, const struct db_outbox *owed,
                                  const struct db_webhook *hook, struct cairn_error *err)
{
  struct owed_seen *seen = arg;

  (void)err;
  if (seen->n++ == 0) {
    seen->first = *owed;
    snprintf(seen->body, sizeof seen->body, "%s", owed->body);
    snprintf(seen->url, sizeof seen->url, "%s", hook->url);
    seen->first.body = seen->body;
  }
  return CAIRN_OK;
}

/* Owed deliveries are stored, moved on (attempt, due), listed with their
 * webhook soonest first, forgotten, and deleted with their webhook; one
 * for a webhook that is gone is refused. */
static void test_the_outbox_keeps_what_is_owed(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_webhook hook = {.id = "hook1",
                            .owner = "g1-p0",
                            .url = "https://example.org/h",
                            .format = "json",
                            .created_ms = 1};
  struct db_outbox owed = {.delivery_id = "00000000000000a1",
                           .webhook_id = "hook1",
                           .event = "turn",
                           .game_id = "g1",
                           .body = "{\"a\":1}",
                           .attempt = 1,
                           .due_ms = 500};
  struct owed_seen seen = {0};

  tmpdb_add_active_game(&f->ops, "g1", 2);
  assert_int_equal(f->ops.webhook_create(f->ops.ctx, &hook, &err), CAIRN_OK);
  assert_int_equal(f->ops.outbox_put(f->ops.ctx, &owed, &err), CAIRN_OK);
  snprintf(owed.delivery_id, sizeof owed.delivery_id, "00000000000000b2");
  owed.due_ms = 100;
  assert_int_equal(f->ops.outbox_put(f->ops.ctx, &owed, &err), CAIRN_OK);
  owed.attempt = 3; /* moved on: same id */
  owed.due_ms = 900;
  assert_int_equal(f->ops.outbox_put(f->ops.ctx, &owed, &err), CAIRN_OK);

  assert_int_equal(f->ops.outbox_each(f->ops.ctx, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 2);
  assert_string_equal(seen.first.delivery_id, "00000000000000a1"); /* due 500 before 900 */
  assert_string_equal(seen.first.webhook_id, "hook1");
  assert_string_equal(seen.first.event, "turn");
  assert_string_equal(seen.body, "{\"a\":1}");
  assert_string_equal(seen.url, "https://example.org/h");

  assert_int_equal(f->ops.outbox_remove(f->ops.ctx, "00000000000000a1", &err), CAIRN_OK);
  assert_int_equal(f->ops.outbox_remove(f->ops.ctx, "00000000000000a1", &err), CAIRN_OK);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(f->ops.outbox_each(f->ops.ctx, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 1);
  assert_int_equal(seen.first.attempt, 3);
  assert_int_equal(seen.first.due_ms, 900);

  assert_int_equal(f->ops.webhook_delete(f->ops.ctx, "hook1", "g1-p0", &err), CAIRN_OK);
  memset(&seen, 0, sizeof seen);
  assert_int_equal(f->ops.outbox_each(f->ops.ctx, see_owed, &seen, &err), CAIRN_OK);
  assert_int_equal(seen.n, 0);
  assert_int_equal(f->ops.outbox_put(f->ops.ctx, &owed, &err), CAIRN_ENOTFOUND);
}

/* ---- seats ---- */

static void test_filling_the_last_seat_makes_the_game_active(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_player(&f->ops, "bob", 0x02);
  tmpdb_add_game(&f->ops, "g1", 2, "alice");
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 1, "bob", &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_OPEN);
  db_game_clear(&g);
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 0, "alice", &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  assert_string_equal(g.seat_player[0], "alice");
  assert_string_equal(g.seat_player[1], "bob");
  db_game_clear(&g);
}

static void test_taken_seat_is_seat_taken(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_player(&f->ops, "bob", 0x02);
  tmpdb_add_game(&f->ops, "g1", 3, "alice");
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 0, "bob", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_SEAT_TAKEN);
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.seat_player[0], "alice");
  assert_string_equal(g.seat_player[1], "");
  db_game_clear(&g);
}

static void test_second_seat_for_a_player_is_already_seated(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_game(&f->ops, "g1", 3, "alice");
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 0, "alice", &err), CAIRN_OK);
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 2, "alice", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_ALREADY_SEATED);
  /* repeating the same join also says "you are in", not "seat taken" */
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 0, "alice", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_ALREADY_SEATED);
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.seat_player[2], "");
  db_game_clear(&g);
}

static void test_joining_a_started_game_is_game_not_open(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_active_game(&f->ops, "g1", 2);
  tmpdb_add_player(&f->ops, "late", 0x05);
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 1, "late", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_OPEN);
}

static void test_seat_outside_the_game_is_bad_value(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_game(&f->ops, "g1", 2, "alice");
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 2, "alice", &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_BAD_VALUE);
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", -1, "alice", &err), CAIRN_EINVAL);
}

static void test_seat_in_unknown_game_or_for_unknown_player_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_game(&f->ops, "g1", 2, "alice");
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "nope", 0, "alice", &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_int_equal(f->ops.seat_take(f->ops.ctx, "g1", 0, "ghost", &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
}

/* ---- moves ---- */

static void test_moves_append_with_dense_ords(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};
  uint32_t i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  for (i = 0; i < 5; i++)
    assert_int_equal(tmpdb_append(&f->ops, "g1", i, NULL, &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g1", &g);
  assert_int_equal(g.moves, 5);
  assert_int_equal(g.seq, 5);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  db_game_clear(&g);
}

static void test_stale_ord_is_stale_seq_and_writes_nothing(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_active_game(&f->ops, "g1", 2);
  assert_int_equal(tmpdb_append(&f->ops, "g1", 0, NULL, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(&f->ops, "g1", 1, NULL, &err), CAIRN_OK);
  /* behind the log */
  assert_int_equal(tmpdb_append(&f->ops, "g1", 1, NULL, &err), CAIRN_ESTALE);
  assert_string_equal(err.code, CAIRN_CODE_STALE_SEQ);
  /* ahead of it: a gap would break density just as badly */
  assert_int_equal(tmpdb_append(&f->ops, "g1", 3, NULL, &err), CAIRN_ESTALE);
  /* and a result on a stale move does not finish the game */
  assert_int_equal(tmpdb_append(&f->ops, "g1", 0, "{\"winners\":[0]}", &err), CAIRN_ESTALE);
  tmpdb_load(&f->ops, "g1", &g);
  assert_int_equal(g.moves, 2);
  assert_int_equal(g.seq, 2);
  assert_string_equal(g.status, DB_STATUS_ACTIVE);
  assert_null(g.result_json);
  db_game_clear(&g);
  assert_int_equal(count_moves(&f->ops, "g1"), 2);
}

static void test_result_finishes_the_game(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g = {0};

  tmpdb_add_active_game(&f->ops, "g1", 2);
  assert_int_equal(tmpdb_append(&f->ops, "g1", 0, NULL, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(&f->ops, "g1", 1, "{\"winners\":[1]}", &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g1", &g);
  assert_string_equal(g.status, DB_STATUS_FINISHED);
  assert_string_equal(g.result_json, "{\"winners\":[1]}");
  assert_int_equal(g.moves, 2);
  db_game_clear(&g);
  /* a finished game takes no more moves, even with the right ord */
  assert_int_equal(tmpdb_append(&f->ops, "g1", 2, NULL, &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_ACTIVE);
  assert_int_equal(count_moves(&f->ops, "g1"), 2);
}

static void test_moves_on_open_or_unknown_game_are_refused(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};

  tmpdb_add_player(&f->ops, "alice", 0x01);
  tmpdb_add_game(&f->ops, "g1", 2, "alice");
  assert_int_equal(tmpdb_append(&f->ops, "g1", 0, NULL, &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_ACTIVE);
  assert_int_equal(tmpdb_append(&f->ops, "nope", 0, NULL, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
}

/* 300 rows: more than one of moves_load's batches of 128. */
static void test_moves_load_walks_in_order_from_ord(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {0};
  uint32_t i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  tmpdb_add_active_game(&f->ops, "h2", 2); /* another game's rows must not leak in */
  for (i = 0; i < 300; i++)
    assert_int_equal(tmpdb_append(&f->ops, "g1", i, NULL, &err), CAIRN_OK);
  for (i = 0; i < 3; i++)
    assert_int_equal(tmpdb_append(&f->ops, "h2", i, NULL, &err), CAIRN_OK);

  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 300);
  assert_int_equal(w.bad_text, 0);
  for (i = 0; i < 300; i++)
    assert_int_equal(w.ords[i], i);

  memset(&w, 0, sizeof(w));
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 250, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 50);
  for (i = 0; i < 50; i++)
    assert_int_equal(w.ords[i], 250 + i);

  memset(&w, 0, sizeof(w));
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 300, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 0);
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", UINT32_MAX, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 0);
}

static void test_moves_load_stops_when_the_callback_says_so(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {.stop_after = 3};
  uint32_t i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  for (i = 0; i < 200; i++)
    assert_int_equal(tmpdb_append(&f->ops, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 1, walk_cb, &w, &err), CAIRN_ECONFLICT);
  assert_int_equal(w.n, 3);
  assert_string_equal(err.detail, "stop");
  /* and stopping in a later batch releases everything too (LeakSanitizer) */
  memset(&w, 0, sizeof(w));
  w.stop_after = 150;
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 0, walk_cb, &w, &err), CAIRN_ECONFLICT);
  assert_int_equal(w.n, 150);
}

/* CAIRN_DONE ends a walk early with success and reads no further batch: a
 * replay to ?at=N near the start of a long game must not walk the rest. */
static void test_moves_load_ends_with_success_when_the_callback_is_done(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {.done_after = 5};
  uint32_t i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  for (i = 0; i < 300; i++)
    assert_int_equal(tmpdb_append(&f->ops, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 5);
  memset(&w, 0, sizeof(w));
  w.done_after = 140; /* in the second batch */
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 10, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 140);
  assert_int_equal(w.ords[139], 149);
  /* and the connection is free again: a write goes through */
  assert_int_equal(tmpdb_append(&f->ops, "g1", 300, NULL, &err), CAIRN_OK);
}

/* The callback runs without the connection's lock: it may use storage. */
static void test_moves_load_callback_may_call_storage(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {.reenter = &f->ops, .game = "g1"};
  uint32_t i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  for (i = 0; i < 4; i++)
    assert_int_equal(tmpdb_append(&f->ops, "g1", i, NULL, &err), CAIRN_OK);
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 0, walk_cb, &w, &err), CAIRN_OK);
  assert_int_equal(w.n, 4);
}

static void test_moves_load_of_unknown_game_is_not_found(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct walk w = {0};

  assert_int_equal(f->ops.moves_load(f->ops.ctx, "nope", 0, walk_cb, &w, &err), CAIRN_ENOTFOUND);
  assert_string_equal(err.code, CAIRN_CODE_NOT_FOUND);
  assert_int_equal(w.n, 0);
}

/* The schema, not only this code, keeps the log append-only and dense. */
static void test_schema_refuses_rewriting_the_log(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  sqlite3 *db;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  assert_int_equal(tmpdb_append(&f->ops, "g1", 0, NULL, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(&f->ops, "g1", 1, NULL, &err), CAIRN_OK);
  db = raw_open(f->t.path);
  assert_int_equal(
      sqlite3_exec(db, "UPDATE moves SET move_json = '{}' WHERE ord = 0", NULL, NULL, NULL),
      SQLITE_CONSTRAINT);
  assert_int_equal(sqlite3_extended_errcode(db), SQLITE_CONSTRAINT_TRIGGER);
  assert_int_equal(sqlite3_exec(db, "DELETE FROM moves WHERE ord = 1", NULL, NULL, NULL),
                   SQLITE_CONSTRAINT);
  assert_int_equal(sqlite3_exec(db, "DELETE FROM moves", NULL, NULL, NULL), SQLITE_CONSTRAINT);
  /* an insert that skips an ord, or repeats one */
  assert_int_equal(
      sqlite3_exec(db,
                   "INSERT INTO moves (game_id, ord, seq, seat, move_json, events_json, at_ms)"
                   " VALUES ('g1', 5, 6, 0, '{}', '[]', 1)",
                   NULL, NULL, NULL),
      SQLITE_CONSTRAINT);
  assert_int_equal(
      sqlite3_exec(db,
                   "INSERT INTO moves (game_id, ord, seq, seat, move_json, events_json, at_ms)"
                   " VALUES ('g1', 1, 2, 0, '{}', '[]', 1)",
                   NULL, NULL, NULL),
      SQLITE_CONSTRAINT);
  /* what a game was created with, the seed above all, is fixed */
  assert_int_equal(sqlite3_exec(db, "UPDATE games SET seed = zeroblob(32)", NULL, NULL, NULL),
                   SQLITE_CONSTRAINT);
  assert_int_equal(raw_int(db, "SELECT count(*) FROM moves"), 2);
  assert_int_equal(
      raw_int(db, "SELECT count(*) FROM moves WHERE move_json = '{\"type\":\"pass\",\"n\":0}'"), 1);
  sqlite3_close(db);
}

struct chain_walk {
  struct db_chain chain;
  uint8_t prev[DB_HASH_BYTES];
  int rows;
};

static enum cairn_status check_link(void *arg, const struct db_move *move, struct cairn_error *err)
{
  struct chain_walk *w = arg;
  uint8_t expected[DB_HASH_BYTES];

  assert_true(move->has_hash);
  db_chain_hash(&w->chain, w->prev, move, expected);
  assert_memory_equal(move->hash, expected, DB_HASH_BYTES);
  memcpy(w->prev, move->hash, DB_HASH_BYTES);
  w->rows++;
  return CAIRN_OK;
}

/* Each stored row carries the hash of its content chained to the previous
 * row's, and the game row exposes the last one as log_head. */
static void test_appended_rows_form_a_hash_chain(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct chain_walk walk = {0};
  struct db_game g;
  int i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  for (i = 0; i < 3; i++)
    assert_int_equal(tmpdb_append(&f->ops, "g1", (uint32_t)i, NULL, &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g1", &g);
  /* A new game is chained in the current, hiding format. */
  assert_int_equal(g.chain_format, DB_CHAIN_FORMAT_2);
  db_chain_init(&walk.chain, g.chain_format, "g1", g.seed);
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 0, check_link, &walk, &err), CAIRN_OK);
  assert_int_equal(walk.rows, 3);
  assert_memory_equal(g.log_head, walk.prev, DB_HASH_BYTES);
  db_game_clear(&g);
}

/* A game stored before migration 0008 keeps format 1: its rows go on being
 * appended, and read back, in the unkeyed format, and no format-2 hash of
 * them matches (the two formats never agree by accident). */
static void test_a_format_1_game_stays_in_format_1(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct chain_walk walk = {0};
  struct db_chain v2;
  uint8_t other[DB_HASH_BYTES];
  struct db_game g;
  sqlite3 *db;
  int i;

  tmpdb_add_active_game(&f->ops, "g1", 2);
  /* As migration 0008 leaves a game that existed before it. */
  assert_int_equal(sqlite3_open(f->t.path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db,
                                "DROP TRIGGER games_fixed_8;"
                                "UPDATE games SET chain_format = 1 WHERE id = 'g1'",
                                NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_close(db);
  f->ops.close(f->ops.ctx);
  assert_int_equal(db_sqlite_open(f->t.path, &f->ops, &err), CAIRN_OK);
  for (i = 0; i < 3; i++)
    assert_int_equal(tmpdb_append(&f->ops, "g1", (uint32_t)i, NULL, &err), CAIRN_OK);
  tmpdb_load(&f->ops, "g1", &g);
  assert_int_equal(g.chain_format, DB_CHAIN_FORMAT_1);
  db_chain_init(&walk.chain, DB_CHAIN_FORMAT_1, "g1", NULL);
  assert_int_equal(f->ops.moves_load(f->ops.ctx, "g1", 0, check_link, &walk, &err), CAIRN_OK);
  assert_int_equal(walk.rows, 3);
  assert_memory_equal(g.log_head, walk.prev, DB_HASH_BYTES);
  db_chain_init(&v2, DB_CHAIN_FORMAT_2, "g1", g.seed);
  {
    struct db_move m = {.ord = 2, .seq = 3, .seat = 0, .move_json = "{}", .events_json = "[]"};

    db_chain_hash(&v2, walk.prev, &m, other);
    assert_memory_not_equal(other, g.log_head, DB_HASH_BYTES);
  }
  db_game_clear(&g);
}

/* ---- concurrency ---- */

#define RACE_ROUNDS 40

struct racer {
  struct db_ops *ops;
  pthread_barrier_t *start;
  uint32_t ord;
  enum cairn_status st;
  const char *code;
};

static void *race(void *arg)
{
  struct racer *r = arg;
  struct cairn_error err = {0};

  pthread_barrier_wait(r->start);
  r->st = tmpdb_append(r->ops, "g1", r->ord, NULL, &err);
  r->code = err.code;
  return NULL;
}

/* Two appends with the same ord at once; `a` and `b` may be the same ops
 * (threads sharing the connection) or two opens (two connections). */
static void race_rounds(struct db_ops *a, struct db_ops *b)
{
  pthread_barrier_t start;
  struct racer r[2];
  pthread_t t[2];
  uint32_t round;
  int i, wins;

  for (round = 0; round < RACE_ROUNDS; round++) {
    assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
    for (i = 0; i < 2; i++) {
      r[i] = (struct racer){.ops = i ? b : a, .start = &start, .ord = round};
      assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (i = 0; i < 2; i++)
      pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    wins = 0;
    for (i = 0; i < 2; i++) {
      if (r[i].st == CAIRN_OK) {
        wins++;
      } else {
        assert_int_equal(r[i].st, CAIRN_ESTALE);
        assert_string_equal(r[i].code, CAIRN_CODE_STALE_SEQ);
      }
    }
    assert_int_equal(wins, 1);
  }
}

static void test_racing_appends_on_one_connection_one_wins(void **state)
{
  struct tmpdb_backend *f = *state;
  struct db_game g = {0};

  tmpdb_add_active_game(&f->ops, "g1", 2);
  race_rounds(&f->ops, &f->ops);
  tmpdb_load(&f->ops, "g1", &g);
  assert_int_equal(g.moves, RACE_ROUNDS);
  db_game_clear(&g);
  assert_int_equal(count_moves(&f->ops, "g1"), RACE_ROUNDS);
}

/* Group commit under load: many threads appending to their own games at
 * once share commits, and every one of them hears its own verdict (none is
 * left waiting, none is lost). */
#define WRITERS        16
#define WRITER_APPENDS 40

struct writer {
  struct db_ops *ops;
  pthread_barrier_t *start;
  char game[16];
  int failures;
};

static void *write_many(void *arg)
{
  struct writer *w = arg;
  struct cairn_error err = {0};
  uint32_t ord;

  pthread_barrier_wait(w->start);
  for (ord = 0; ord < WRITER_APPENDS; ord++)
    if (tmpdb_append(w->ops, w->game, ord, NULL, &err) != CAIRN_OK)
      w->failures++;
  return NULL;
}

static void test_concurrent_appends_share_commits_and_all_land(void **state)
{
  struct tmpdb_backend *f = *state;
  struct writer w[WRITERS];
  pthread_t t[WRITERS];
  pthread_barrier_t start;
  int i;

  assert_int_equal(pthread_barrier_init(&start, NULL, WRITERS), 0);
  for (i = 0; i < WRITERS; i++) {
    w[i] = (struct writer){.ops = &f->ops, .start = &start};
    /* add_active_game derives token hashes from the first letter */
    snprintf(w[i].game, sizeof w[i].game, "%cw", 'a' + i);
    tmpdb_add_active_game(&f->ops, w[i].game, 2);
  }
  for (i = 0; i < WRITERS; i++)
    assert_int_equal(pthread_create(&t[i], NULL, write_many, &w[i]), 0);
  for (i = 0; i < WRITERS; i++)
    pthread_join(t[i], NULL);
  pthread_barrier_destroy(&start);
  for (i = 0; i < WRITERS; i++) {
    struct db_game g = {0};

    assert_int_equal(w[i].failures, 0);
    tmpdb_load(&f->ops, w[i].game, &g);
    assert_int_equal(g.moves, WRITER_APPENDS);
    db_game_clear(&g);
    assert_int_equal(count_moves(&f->ops, w[i].game), WRITER_APPENDS);
  }
}

/* As two server processes on one file would: each has its own connection,
 * and BEGIN IMMEDIATE plus the busy timeout keep them apart. */
static void test_racing_appends_on_two_connections_one_wins(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_ops other = {0};
  struct db_game g = {0};

  tmpdb_add_active_game(&f->ops, "g1", 2);
  assert_int_equal(db_sqlite_open(f->t.path, &other, &err), CAIRN_OK);
  race_rounds(&f->ops, &other);
  other.close(other.ctx);
  tmpdb_load(&f->ops, "g1", &g);
  assert_int_equal(g.moves, RACE_ROUNDS);
  db_game_clear(&g);
  assert_int_equal(count_moves(&f->ops, "g1"), RACE_ROUNDS);
}

#define T(name) cmocka_unit_test_setup_teardown(name, tmpdb_backend_setup, tmpdb_backend_teardown)

int main(void)
{
  const struct CMUnitTest tests[] = {
      T(test_fresh_open_creates_schema_at_highest_migration),
      T(test_reopen_is_idempotent_and_keeps_data),
      T(test_newer_schema_version_is_refused),
      cmocka_unit_test(test_open_failure_keeps_sqlite_text_out_of_detail),
      T(test_connection_is_wal_full_sync_with_foreign_keys),
      T(test_player_is_found_by_token_hash),
      T(test_unknown_token_hash_is_bad_token),
      T(test_repeated_player_id_or_token_is_refused),
      T(test_game_round_trips_through_create_and_load),
      T(test_game_without_options_stores_empty_object),
      T(test_unknown_game_is_not_found),
      T(test_game_with_unknown_creator_is_not_found),
      T(test_repeated_game_id_is_refused),
      T(test_game_created_with_seated_players),
      T(test_a_move_and_its_clocks_commit_together),
      T(test_the_outbox_keeps_what_is_owed),
      T(test_filling_the_last_seat_makes_the_game_active),
      T(test_taken_seat_is_seat_taken),
      T(test_second_seat_for_a_player_is_already_seated),
      T(test_joining_a_started_game_is_game_not_open),
      T(test_seat_outside_the_game_is_bad_value),
      T(test_seat_in_unknown_game_or_for_unknown_player_is_not_found),
      T(test_moves_append_with_dense_ords),
      T(test_stale_ord_is_stale_seq_and_writes_nothing),
      T(test_result_finishes_the_game),
      T(test_moves_on_open_or_unknown_game_are_refused),
      T(test_moves_load_walks_in_order_from_ord),
      T(test_moves_load_stops_when_the_callback_says_so),
      T(test_moves_load_ends_with_success_when_the_callback_is_done),
      T(test_concurrent_appends_share_commits_and_all_land),
      T(test_moves_load_callback_may_call_storage),
      T(test_moves_load_of_unknown_game_is_not_found),
      T(test_schema_refuses_rewriting_the_log),
      T(test_appended_rows_form_a_hash_chain),
      T(test_a_format_1_game_stays_in_format_1),
      T(test_racing_appends_on_one_connection_one_wins),
      T(test_racing_appends_on_two_connections_one_wins),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
