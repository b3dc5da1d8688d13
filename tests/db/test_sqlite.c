/*
 * test_sqlite.c - the SQLite backend through struct db, checked against
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

#include "tests/order.h"
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
 * methods. Caller closes with sqlite3_close. */
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

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);
  for (i = 0; i < 3; i++) {
    db_close(f->db);
    f->db = NULL;
    assert_int_equal(db_open(f->t.path, &f->db, &err), CAIRN_OK);
  }
  tmpdb_load(f->db, "g1", &g);
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

  db_close(f->db);
  f->db = NULL;
  db = raw_open(f->t.path);
  assert_int_equal(sqlite3_exec(db, "UPDATE schema_version SET version = 9999", NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_close(db);
  assert_int_equal(db_open(f->t.path, &f->db, &err), CAIRN_EDB);
  assert_string_equal(err.code, CAIRN_CODE_STORAGE);
  assert_non_null(strstr(err.detail, "9999"));
  snprintf(want, sizeof(want), "up to %d", highest_migration());
  assert_non_null(strstr(err.detail, want));
  /* a failed open leaves nothing to close */
  assert_null(f->db);

  db = raw_open(f->t.path); /* and the database is untouched */
  assert_int_equal(raw_int(db, "SELECT version FROM schema_version"), 9999);
  sqlite3_close(db);
}

static void test_open_failure_keeps_sqlite_text_out_of_detail(void **state)
{
  struct db *db = NULL;
  struct cairn_error err = {0};

  (void)state;
  assert_int_equal(db_open("/nonexistent-cairn-dir/sub/cairn.db", &db, &err), CAIRN_EDB);
  assert_string_equal(err.code, CAIRN_CODE_STORAGE);
  assert_null(strstr(err.detail, "unable to open"));
  assert_null(db);
}

static void test_connection_is_wal_full_sync_with_foreign_keys(void **state)
{
  struct tmpdb_backend *f = *state;
  struct db_sqlite *c = f->db->ctx;
  char mode[16];
  sqlite3 *db = raw_open(f->t.path);

  /* journal_mode is a property of the file: a second connection sees it */
  raw_text(db, "PRAGMA journal_mode", mode, sizeof(mode));
  assert_string_equal(mode, "wal");
  sqlite3_close(db);
  /* synchronous and foreign_keys belong to the backend's own connection */
  assert_int_equal(raw_int(c->db, "PRAGMA synchronous"), 2); /* FULL */
  assert_int_equal(raw_int(c->db, "PRAGMA foreign_keys"), 1);
  assert_string_equal(f->db->methods->name, "sqlite");
}

static void test_repeated_player_id_or_token_is_refused(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player p = {.id = "alice", .name = "Other"};
  uint8_t hash[DB_HASH_BYTES];
  sqlite3 *db;

  tmpdb_add_player(f->db, "alice", 0x01);
  tmpdb_hash_of(hash, 0x09);
  assert_int_equal(db_player_create(f->db, &p, hash, &err), CAIRN_EINTERNAL);
  snprintf(p.id, sizeof(p.id), "carol");
  tmpdb_hash_of(hash, 0x01);
  assert_int_equal(db_player_create(f->db, &p, hash, &err), CAIRN_EINTERNAL);
  assert_string_equal(err.code, CAIRN_CODE_INTERNAL);
  db = raw_open(f->t.path);
  assert_int_equal(raw_int(db, "SELECT count(*) FROM players"), 1);
  sqlite3_close(db);
}

/* The schema, not only this code, keeps the log append-only and dense. */
static void test_schema_refuses_rewriting_the_log(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  sqlite3 *db;

  tmpdb_add_active_game(f->db, "g1", 2);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);
  assert_int_equal(tmpdb_append(f->db, "g1", 1, NULL, &err), CAIRN_OK);
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

/* A game stored before migration 0008 keeps format 1: its rows go on being
 * appended, and read back, in the unkeyed format, and no format-2 hash of
 * them matches (the two formats never agree by accident). */
static void test_a_format_1_game_stays_in_format_1(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct tmpdb_chain_walk walk = {0};
  struct db_chain v2;
  uint8_t other[DB_HASH_BYTES];
  struct db_game g;
  sqlite3 *db;
  int i;

  tmpdb_add_active_game(f->db, "g1", 2);
  /* As migration 0008 leaves a game that existed before it. */
  assert_int_equal(sqlite3_open(f->t.path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db,
                                "DROP TRIGGER games_fixed_8;"
                                "UPDATE games SET chain_format = 1 WHERE id = 'g1'",
                                NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_close(db);
  db_close(f->db);
  f->db = NULL;
  assert_int_equal(db_open(f->t.path, &f->db, &err), CAIRN_OK);
  for (i = 0; i < 3; i++)
    assert_int_equal(tmpdb_append(f->db, "g1", (uint32_t)i, NULL, &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_int_equal(g.chain_format, DB_CHAIN_FORMAT_1);
  db_chain_init(&walk.chain, DB_CHAIN_FORMAT_1, "g1", NULL);
  assert_int_equal(db_moves_load(f->db, "g1", 0, tmpdb_check_link, &walk, &err), CAIRN_OK);
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

/* ---- what a write writes ---- */

/* The pages the WAL holds, each marked in seen[page] (pages < max), read
 * from the frame headers (a page number every page_size + 24 bytes, after
 * the 32-byte file header): with the WAL truncated before, exactly the
 * pages one commit wrote. Their number. */
static int wal_pages(const char *db_path, int page_size, bool *seen, int max)
{
  char path[256];
  unsigned char head[24];
  FILE *wal;
  int frames = 0;

  snprintf(path, sizeof(path), "%s-wal", db_path);
  wal = fopen(path, "rb");
  assert_non_null(wal);
  assert_int_equal(fseek(wal, 32, SEEK_SET), 0);
  while (fread(head, 1, sizeof(head), wal) == sizeof(head)) {
    unsigned page = (unsigned)head[0] << 24 | (unsigned)head[1] << 16 | (unsigned)head[2] << 8 |
                    (unsigned)head[3];

    if (page < (unsigned)max)
      seen[page] = true;
    frames++;
    assert_int_equal(fseek(wal, page_size, SEEK_CUR), 0);
  }
  fclose(wal);
  return frames;
}

static int root_page(sqlite3 *db, const char *name)
{
  char sql[160];

  snprintf(sql, sizeof(sql), "SELECT rootpage FROM sqlite_schema WHERE name = '%s'", name);
  return (int)raw_int(db, sql);
}

/* A move that does not end its game writes the game's row and not the
 * games indexes, which are all partial on status: an UPDATE that assigned
 * status (even its own value) rewrote both index entries, so every move's
 * row change was written three times (issue 22). The games are few, so
 * each index is its root page alone. */
static void test_a_move_leaves_the_games_indexes_alone(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  bool seen[4096] = {false};
  int page_size, active, unfinished, games, moves;
  sqlite3 *db;

  tmpdb_add_active_game(f->db, "g1", 2);
  tmpdb_add_active_game(f->db, "h2", 2);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);
  db = raw_open(f->t.path);
  page_size = (int)raw_int(db, "PRAGMA page_size");
  active = root_page(db, "games_active");
  unfinished = root_page(db, "games_unfinished_by_creator");
  games = root_page(db, "games");
  moves = root_page(db, "moves");
  assert_int_equal(raw_int(db, "SELECT count(*) FROM games WHERE status = 'active'"), 2);
  assert_int_equal(raw_int(db, "PRAGMA wal_checkpoint(TRUNCATE)"), 0); /* 0: not busy */
  assert_int_equal(tmpdb_append(f->db, "g1", 1, NULL, &err), CAIRN_OK);
  assert_true(wal_pages(f->t.path, page_size, seen, 4096) > 0);
  assert_true(seen[games]);   /* the row moved on, */
  assert_true(seen[moves]);   /* the log grew, */
  assert_false(seen[active]); /* and neither index was touched */
  assert_false(seen[unfinished]);
  assert_int_equal(raw_int(db, "SELECT moves FROM games WHERE id = 'g1'"), 2);

  /* The move that ends the game does change both. */
  assert_int_equal(raw_int(db, "PRAGMA wal_checkpoint(TRUNCATE)"), 0);
  memset(seen, 0, sizeof(seen));
  assert_int_equal(tmpdb_append(f->db, "g1", 2, "{\"winners\":[0]}", &err), CAIRN_OK);
  wal_pages(f->t.path, page_size, seen, 4096);
  assert_true(seen[active]);
  assert_true(seen[unfinished]);
  sqlite3_close(db);
}

/* The WAL's length in frames, from its file size. */
static long wal_frames(const char *db_path, int page_size)
{
  char path[256];
  FILE *wal;
  long size;

  snprintf(path, sizeof(path), "%s-wal", db_path);
  wal = fopen(path, "rb");
  assert_non_null(wal);
  assert_int_equal(fseek(wal, 0, SEEK_END), 0);
  size = ftell(wal);
  fclose(wal);
  return size <= 32 ? 0 : (size - 32) / (page_size + 24);
}

/* Checkpoints run on their own thread (checkpoint.c), not inside a
 * commit: the writer's automatic checkpoint is off. Yet the WAL stays
 * short while appends never pause: a copy made beside a writer that keeps
 * committing never reaches the WAL's end, and a WAL not copied to its end
 * is never started over, so without the checkpointer's last pass under
 * the writer's lock it grew by every append (here 12,000 appends of two
 * frames or more, three times the threshold). The file's size is its high-water mark: the writer
 * starts a copied WAL over in place. */
static void test_the_wal_stays_short_while_appends_never_pause(void **state)
{
  struct tmpdb_backend *f = *state;
  struct db_sqlite *c = f->db->ctx;
  struct cairn_error err = {0};
  int page_size = (int)raw_int(c->db, "PRAGMA page_size");
  uint32_t ord;

  assert_int_equal(raw_int(c->db, "PRAGMA wal_autocheckpoint"), 0);
  tmpdb_add_active_game(f->db, "g1", 2);
  for (ord = 0; ord < 3 * DB_SQLITE_CHECKPOINT_FRAMES / 2; ord++)
    assert_int_equal(tmpdb_append(f->db, "g1", ord, NULL, &err), CAIRN_OK);
  assert_true(wal_frames(f->t.path, page_size) < DB_SQLITE_CHECKPOINT_FRAMES * 5 / 4);
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
      T(test_repeated_player_id_or_token_is_refused),
      T(test_schema_refuses_rewriting_the_log),
      T(test_a_format_1_game_stays_in_format_1),
      T(test_a_move_leaves_the_games_indexes_alone),
      T(test_the_wal_stays_short_while_appends_never_pause),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
