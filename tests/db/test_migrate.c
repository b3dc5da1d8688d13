/*
 * test_migrate.c - the migration runner (db/sqlite/migrate.c) driven with
 * its own lists of migrations on a plain connection, so each rule of
 * running them can be checked in isolation: all or nothing per migration,
 * pending ones only, in order, never onto a newer schema.
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
#include "db/sqlite/internal.h"
#include "db/sqlite/migrations.h"
#include "tmpdb.h"

struct fixture {
  struct tmpdb t;
  sqlite3 *db;
};

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));

  if (!f || tmpdb_make(&f->t) != 0)
    return -1;
  if (sqlite3_open_v2(f->t.path, &f->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
      SQLITE_OK)
    return -1;
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  struct fixture *f = *state;

  sqlite3_close(f->db);
  tmpdb_remove(&f->t);
  free(f);
  return 0;
}

#define SCHEMA_VERSION_TABLE                                                                       \
  "CREATE TABLE schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);"

static const struct db_migration first_two[] = {
    {1, "0001_create_a.sql", SCHEMA_VERSION_TABLE "CREATE TABLE a (x INTEGER);"},
    {2, "0002_create_b.sql", "CREATE TABLE b (y INTEGER);"},
    {0, 0, 0},
};

static int version(sqlite3 *db)
{
  struct cairn_error err = {0};
  int v = -1;

  assert_int_equal(db_sqlite_schema_version(db, &v, &err), CAIRN_OK);
  return v;
}

static int table_exists(sqlite3 *db, const char *name)
{
  sqlite3_stmt *stmt = NULL;
  int n;

  assert_int_equal(sqlite3_prepare_v2(db,
                                      "SELECT count(*) FROM sqlite_master"
                                      " WHERE type = 'table' AND name = ?1",
                                      -1, &stmt, NULL),
                   SQLITE_OK);
  sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
  assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
  n = sqlite3_column_int(stmt, 0);
  sqlite3_finalize(stmt);
  return n;
}

static void test_empty_database_is_version_zero(void **state)
{
  struct fixture *f = *state;

  assert_int_equal(version(f->db), 0);
}

static void test_migrations_apply_in_order_and_set_the_version(void **state)
{
  struct fixture *f = *state;
  struct cairn_error err = {0};

  assert_int_equal(db_sqlite_migrate(f->db, first_two, &err), CAIRN_OK);
  assert_int_equal(version(f->db), 2);
  assert_true(table_exists(f->db, "a"));
  assert_true(table_exists(f->db, "b"));
}

/* Running again would fail on CREATE TABLE if anything were re-applied. */
static void test_only_pending_migrations_run(void **state)
{
  struct fixture *f = *state;
  struct cairn_error err = {0};
  static const struct db_migration three[] = {
      {1, "0001_create_a.sql", SCHEMA_VERSION_TABLE "CREATE TABLE a (x INTEGER);"},
      {2, "0002_create_b.sql", "CREATE TABLE b (y INTEGER);"},
      {3, "0003_create_c.sql", "CREATE TABLE c (z INTEGER);"},
      {0, 0, 0},
  };

  assert_int_equal(db_sqlite_migrate(f->db, first_two, &err), CAIRN_OK);
  assert_int_equal(db_sqlite_migrate(f->db, first_two, &err), CAIRN_OK);
  assert_int_equal(version(f->db), 2);
  assert_int_equal(db_sqlite_migrate(f->db, three, &err), CAIRN_OK);
  assert_int_equal(version(f->db), 3);
  assert_true(table_exists(f->db, "c"));
}

/* A migration that fails half-way leaves no trace: its first statement is
 * rolled back with the rest and the version stays where it was. */
static void test_failed_migration_leaves_the_previous_version(void **state)
{
  struct fixture *f = *state;
  struct cairn_error err = {0};
  static const struct db_migration broken[] = {
      {1, "0001_create_a.sql", SCHEMA_VERSION_TABLE "CREATE TABLE a (x INTEGER);"},
      {2, "0002_create_b.sql", "CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);"},
      {3, "0003_create_c.sql", "CREATE TABLE c (z INTEGER);"},
      {0, 0, 0},
  };

  assert_int_equal(db_sqlite_migrate(f->db, broken, &err), CAIRN_EDB);
  assert_string_equal(err.code, CAIRN_CODE_STORAGE);
  assert_non_null(strstr(err.detail, "0002_create_b.sql"));
  assert_null(strstr(err.detail, "no such table")); /* SQLite's text stays in the log */
  assert_int_equal(version(f->db), 1);
  assert_true(table_exists(f->db, "a"));
  assert_false(table_exists(f->db, "b"));
  assert_false(table_exists(f->db, "c"));
  assert_true(sqlite3_get_autocommit(f->db)); /* no transaction left open */
}

static void test_misordered_list_is_refused(void **state)
{
  struct fixture *f = *state;
  struct cairn_error err = {0};
  static const struct db_migration misordered[] = {
      {2, "0002_create_b.sql", "CREATE TABLE b (y INTEGER);"},
      {1, "0001_create_a.sql", SCHEMA_VERSION_TABLE "CREATE TABLE a (x INTEGER);"},
      {0, 0, 0},
  };

  assert_int_equal(db_sqlite_migrate(f->db, misordered, &err), CAIRN_EINTERNAL);
  assert_false(table_exists(f->db, "b"));
}

static void test_newer_database_is_refused_with_nothing_to_apply(void **state)
{
  struct fixture *f = *state;
  struct cairn_error err = {0};
  static const struct db_migration one[] = {
      {1, "0001_create_a.sql", SCHEMA_VERSION_TABLE "CREATE TABLE a (x INTEGER);"},
      {0, 0, 0},
  };

  assert_int_equal(db_sqlite_migrate(f->db, first_two, &err), CAIRN_OK);
  assert_int_equal(db_sqlite_migrate(f->db, one, &err), CAIRN_EDB);
  assert_non_null(strstr(err.detail, "schema version 2"));
  assert_int_equal(version(f->db), 2);
}

static void test_version_table_without_its_row_is_refused(void **state)
{
  struct fixture *f = *state;
  struct cairn_error err = {0};
  int v;

  assert_int_equal(sqlite3_exec(f->db, SCHEMA_VERSION_TABLE, NULL, NULL, NULL), SQLITE_OK);
  assert_int_equal(db_sqlite_schema_version(f->db, &v, &err), CAIRN_EDB);
  assert_int_equal(db_sqlite_migrate(f->db, first_two, &err), CAIRN_EDB);
  assert_false(table_exists(f->db, "a"));
}

/* The real list: what build.mk compiled from migrations/sqlite/. */
static void test_compiled_migrations_are_ordered_and_apply(void **state)
{
  struct fixture *f = *state;
  struct cairn_error err = {0};
  const struct db_migration *m;
  int last = 0;

  for (m = db_migrations; m->number; m++) {
    assert_true(m->number > last);
    assert_non_null(m->name);
    assert_non_null(m->sql);
    last = m->number;
  }
  assert_true(last >= 1);
  assert_int_equal(db_sqlite_migrate(f->db, db_migrations, &err), CAIRN_OK);
  assert_int_equal(version(f->db), last);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
  const struct CMUnitTest tests[] = {
      T(test_empty_database_is_version_zero),
      T(test_migrations_apply_in_order_and_set_the_version),
      T(test_only_pending_migrations_run),
      T(test_failed_migration_leaves_the_previous_version),
      T(test_misordered_list_is_refused),
      T(test_newer_database_is_refused_with_nothing_to_apply),
      T(test_version_table_without_its_row_is_refused),
      T(test_compiled_migrations_are_ordered_and_apply),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
