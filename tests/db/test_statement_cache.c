/*
 * test_statement_cache.c - the SQLite backend's statement cache
 * (db/sqlite/common.c): a query run again reuses its statement instead of
 * preparing a new one, a statement handed back holds no transaction and no
 * snapshot whatever way its query ended, the transaction statements keep
 * the semantics sqlite3_exec gave them, and close leaves nothing behind
 * (LeakSanitizer, in the test build, would report a connection that
 * sqlite3_close refused).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "tests/order.h"
#include "db/db.h"
#include "db/sqlite/internal.h"
#include "tmpdb.h"

/* ---- helpers ---- */

/* The backend behind the fixture's store, to look at its connections. */
static struct db_sqlite *backend(const struct tmpdb_backend *f)
{
  return f->db->ctx;
}

/* How many statements `db` holds; fails the test if one is still busy,
 * which would mean a slot returned without handing its statement back. */
static int statements(sqlite3 *db)
{
  sqlite3_stmt *stmt;
  int n = 0;

  for (stmt = sqlite3_next_stmt(db, NULL); stmt; stmt = sqlite3_next_stmt(db, stmt)) {
    if (sqlite3_stmt_busy(stmt))
      fail_msg("statement still busy: %s", sqlite3_sql(stmt));
    n++;
  }
  return n;
}

static enum cairn_status count_cb(void *arg, const struct db_move *move, struct cairn_error *err)
{
  (*(size_t *)arg)++;
  return CAIRN_OK;
}

/* What one move costs the server's storage: the lookups of a GET and a
 * POST, then the append. */
static void play_one(struct tmpdb_backend *f, uint32_t ord)
{
  struct cairn_error err = {0};
  struct db_player p;
  struct db_game g;
  uint8_t hash[DB_HASH_BYTES];
  size_t n = 0;

  tmpdb_seat_token_hash(hash, "g1", 0);
  assert_int_equal(db_player_by_token(f->db, hash, &p, &err), CAIRN_OK);
  assert_int_equal(db_game_load(f->db, "g1", &g, &err), CAIRN_OK);
  assert_int_equal(g.moves, ord);
  db_game_clear(&g);
  assert_int_equal(db_moves_load(f->db, "g1", 0, count_cb, &n, &err), CAIRN_OK);
  assert_int_equal(n, ord);
  assert_int_equal(tmpdb_append(f->db, "g1", ord, NULL, &err), CAIRN_OK);
}

/* ---- reuse ---- */

static void test_repeated_queries_reuse_their_statements(void **state)
{
  struct tmpdb_backend *f = *state;
  int writer, reader;
  uint32_t ord;

  tmpdb_add_active_game(f->db, "g1", 2);
  play_one(f, 0);
  play_one(f, 1); /* the first to read the hash chain */
  writer = statements(backend(f)->db);
  reader = statements(backend(f)->rdb);
  /* BEGIN, COMMIT and the queries are there to be reused. */
  assert_true(writer >= 3);
  assert_true(reader >= 3);
  for (ord = 2; ord < 200; ord++)
    play_one(f, ord);
  assert_int_equal(statements(backend(f)->db), writer);
  assert_int_equal(statements(backend(f)->rdb), reader);
}

static void test_prepare_returns_the_idle_statement_and_skips_a_busy_one(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  sqlite3_stmt *outer = NULL, *inner = NULL, *again = NULL;
  static const char sql[] = "SELECT 1 UNION ALL SELECT 2";

  assert_int_equal(db_sqlite_prepare(backend(f)->rdb, sql, &outer, &err), CAIRN_OK);
  assert_int_equal(sqlite3_step(outer), SQLITE_ROW);
  /* The same text while the first is mid-query: a second statement. */
  assert_int_equal(db_sqlite_prepare(backend(f)->rdb, sql, &inner, &err), CAIRN_OK);
  assert_ptr_not_equal(inner, outer);
  assert_int_equal(sqlite3_step(inner), SQLITE_ROW);
  db_sqlite_release(inner);
  db_sqlite_release(outer);
  /* Both idle now: the next request gets one of them back. */
  assert_int_equal(db_sqlite_prepare(backend(f)->rdb, sql, &again, &err), CAIRN_OK);
  assert_true(again == outer || again == inner);
  assert_int_equal(sqlite3_step(again), SQLITE_ROW);
  assert_int_equal(sqlite3_column_int(again, 0), 1); /* from the start, not where it stopped */
  db_sqlite_release(again);
  db_sqlite_release(NULL);
}

/* ---- no transaction left behind ---- */

static void test_refused_writes_leave_no_transaction(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player p = {0};
  uint8_t hash[DB_HASH_BYTES];

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);

  /* Refused inside its transaction: stale, then a repeated player id. */
  assert_int_equal(tmpdb_append(f->db, "g1", 5, NULL, &err), CAIRN_ESTALE);
  assert_true(sqlite3_get_autocommit(backend(f)->db));
  snprintf(p.id, sizeof(p.id), "g1-p0"); /* seated by tmpdb_add_active_game */
  memset(hash, 0x77, sizeof(hash));
  assert_int_equal(db_player_create(f->db, &p, hash, &err), CAIRN_EINTERNAL);
  assert_true(sqlite3_get_autocommit(backend(f)->db));
  assert_int_equal(db_webhook_delete(f->db, "nope", "g1-p0", &err), CAIRN_ENOTFOUND);
  assert_true(sqlite3_get_autocommit(backend(f)->db));
  statements(backend(f)->db); /* none busy */

  /* ... so the next writes go through. */
  assert_int_equal(tmpdb_append(f->db, "g1", 1, NULL, &err), CAIRN_OK);
  tmpdb_add_player(f->db, "c", 0xc3);
}

static void test_a_read_stopped_early_keeps_no_snapshot(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_vacation v = {0}, out[8];
  int n = 0;
  int i;

  tmpdb_add_player(f->db, "a", 0xa1);
  for (i = 0; i < 2; i++) {
    v.start_ms = 1000 * (i + 1);
    v.end_ms = v.start_ms + 500;
    assert_int_equal(db_vacation_add(f->db, "a", &v, &err), CAIRN_OK);
  }
  /* max 1 leaves the query on its first row; the release must end the
   * read, or the reader would stay on this snapshot. */
  assert_int_equal(db_vacations_of(f->db, "a", 0, out, 1, &n, &err), CAIRN_OK);
  assert_int_equal(n, 1);
  statements(backend(f)->rdb);
  v.start_ms = 5000;
  v.end_ms = 5500;
  assert_int_equal(db_vacation_add(f->db, "a", &v, &err), CAIRN_OK);
  assert_int_equal(db_vacations_of(f->db, "a", 0, out, 8, &n, &err), CAIRN_OK);
  assert_int_equal(n, 3);
}

static enum cairn_status stop_cb(void *arg, const struct db_move *move, struct cairn_error *err)
{
  return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_INTERNAL, NULL, "stop");
}

static void test_failed_walks_keep_no_transaction(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_game g;
  uint32_t ord;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (ord = 0; ord < 3; ord++)
    assert_int_equal(tmpdb_append(f->db, "g1", ord, NULL, &err), CAIRN_OK);
  /* Ended inside its read transaction (no such game), and by the
   * callback. */
  assert_int_equal(db_moves_load(f->db, "nope", 0, count_cb, &(size_t){0}, &err), CAIRN_ENOTFOUND);
  assert_true(sqlite3_get_autocommit(backend(f)->rdb));
  assert_int_equal(db_moves_load(f->db, "g1", 0, stop_cb, NULL, &err), CAIRN_ECONFLICT);
  assert_true(sqlite3_get_autocommit(backend(f)->rdb));
  statements(backend(f)->rdb);
  /* A later write is seen by the next read. */
  assert_int_equal(tmpdb_append(f->db, "g1", 3, NULL, &err), CAIRN_OK);
  assert_int_equal(db_game_load(f->db, "g1", &g, &err), CAIRN_OK);
  assert_int_equal(g.moves, 4);
  db_game_clear(&g);
}

/* ---- the transaction statements ---- */

static void test_transaction_statements_keep_their_semantics(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  sqlite3 *db = backend(f)->db;

  /* ROLLBACK with nothing open is harmless; COMMIT with nothing open is
   * reported. */
  db_sqlite_rollback(db);
  assert_int_equal(db_sqlite_commit(db, &err), CAIRN_EDB);
  assert_string_equal(err.code, CAIRN_CODE_STORAGE);
  /* A BEGIN inside a transaction is refused and leaves it open. */
  assert_int_equal(db_sqlite_begin(db, true, &err), CAIRN_OK);
  assert_int_equal(db_sqlite_begin(db, true, &err), CAIRN_EDB);
  assert_false(sqlite3_get_autocommit(db));
  db_sqlite_rollback(db);
  assert_true(sqlite3_get_autocommit(db));
  /* The statements that failed are fine for the next use. */
  assert_int_equal(db_sqlite_begin(db, false, &err), CAIRN_OK);
  assert_int_equal(db_sqlite_commit(db, &err), CAIRN_OK);
  assert_true(sqlite3_get_autocommit(db));
  statements(db);
}

static void test_begin_immediate_reports_a_busy_database(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  sqlite3 *other = NULL;

  assert_int_equal(sqlite3_open_v2(f->t.path, &other, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
  assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_busy_timeout(backend(f)->db, 0); /* fail now rather than in DB_SQLITE_BUSY_MS */
  assert_int_equal(db_sqlite_begin(backend(f)->db, true, &err), CAIRN_EDB);
  assert_int_equal(sqlite3_errcode(backend(f)->db), SQLITE_BUSY);
  assert_true(sqlite3_get_autocommit(backend(f)->db));
  assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(other);
  sqlite3_busy_timeout(backend(f)->db, DB_SQLITE_BUSY_MS);
  tmpdb_add_player(f->db, "a", 0xa1);
}

/* ---- close ---- */

static void test_close_after_use_leaves_nothing(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  uint32_t ord;
  int i;

  for (i = 0; i < 3; i++) {
    tmpdb_add_active_game(f->db, "g1", 2);
    for (ord = 0; ord < 5; ord++)
      play_one(f, ord);
    assert_true(statements(backend(f)->db) > 0);
    db_close(f->db);
    f->db = NULL;
    /* sqlite3_close refuses a connection with statements; every one of
     * them, and the connection, would then be reported as leaked. */
    tmpdb_remove(&f->t);
    assert_int_equal(tmpdb_make(&f->t), 0);
    assert_int_equal(db_open(f->t.path, &f->db, &err), CAIRN_OK);
    /* Opening caches nothing: the start-up statements are gone. */
    assert_int_equal(statements(backend(f)->db), 0);
    assert_int_equal(statements(backend(f)->rdb), 0);
  }
}

/* The reading connection's mmap limit now (PRAGMA mmap_size). */
static long long map_limit(struct db_sqlite *c)
{
  sqlite3_stmt *stmt = NULL;
  long long limit = -1;

  db_sqlite_rlock(c);
  assert_int_equal(sqlite3_prepare_v2(c->rdb, "PRAGMA mmap_size", -1, &stmt, NULL), SQLITE_OK);
  if (sqlite3_step(stmt) == SQLITE_ROW)
    limit = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  db_sqlite_runlock(c);
  return limit;
}

struct mapped_walk {
  struct db_sqlite *c;
  uint32_t rows;        /* the next row's ord */
  uint32_t mapped_rows; /* rows whose callback found the file mapped */
};

static enum cairn_status note_mapping(void *arg, const struct db_move *move,
                                      struct cairn_error *err)
{
  struct mapped_walk *w = arg;

  assert_int_equal(move->ord, w->rows);
  w->rows++;
  w->mapped_rows += map_limit(w->c) > 0;
  return CAIRN_OK;
}

/* Issue 22: a walk past its first batch (128 rows) reads the file mapped,
 * the first batch and every short walk as before, and the mapping goes
 * with the walk: an idle server's memory never carries the file. The
 * mapping's pragmas are not kept among the cached statements. */
static void test_a_long_walk_maps_the_file_only_while_it_runs(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct mapped_walk w = {.c = backend(f)}, short_walk = {.c = backend(f), .rows = 200};
  int reader;
  uint32_t ord;

  tmpdb_add_active_game(f->db, "g1", 2);
  for (ord = 0; ord < 300; ord++)
    assert_int_equal(tmpdb_append(f->db, "g1", ord, NULL, &err), CAIRN_OK);
  assert_int_equal(db_moves_load_lean(f->db, "g1", 200, note_mapping, &short_walk, &err), CAIRN_OK);
  assert_int_equal(short_walk.rows, 300);
  assert_int_equal(short_walk.mapped_rows, 0); /* one batch: read as before */
  reader = statements(backend(f)->rdb);
  assert_int_equal(db_moves_load_lean(f->db, "g1", 0, note_mapping, &w, &err), CAIRN_OK);
  assert_int_equal(w.rows, 300);
  assert_int_equal(w.mapped_rows, 300 - 128);
  assert_int_equal(map_limit(w.c), 0);
  assert_int_equal(statements(backend(f)->rdb), reader);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, tmpdb_backend_setup, tmpdb_backend_teardown)
  const struct CMUnitTest tests[] = {
      T(test_repeated_queries_reuse_their_statements),
      T(test_prepare_returns_the_idle_statement_and_skips_a_busy_one),
      T(test_refused_writes_leave_no_transaction),
      T(test_a_read_stopped_early_keeps_no_snapshot),
      T(test_failed_walks_keep_no_transaction),
      T(test_transaction_statements_keep_their_semantics),
      T(test_begin_immediate_reports_a_busy_database),
      T(test_close_after_use_leaves_nothing),
      T(test_a_long_walk_maps_the_file_only_while_it_runs),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
