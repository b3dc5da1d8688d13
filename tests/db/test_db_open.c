/*
 * test_db_open.c - storage opened by URL (db_open in db/db.c): which
 * backend each spelling reaches, what a URL this build cannot serve gets,
 * and where the server keeps its own files for each (db_local_file).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#include "tests/order.h"
#include "db/db.h"
#include "tmpdb.h"

/* Open `url`, which must succeed on the SQLite backend, and close it. */
static void opens_sqlite(const char *url)
{
  struct db *db = NULL;
  struct cairn_error err = {0};

  assert_int_equal(db_open(url, &db, &err), CAIRN_OK);
  assert_non_null(db);
  assert_string_equal(db->methods->name, "sqlite");
  db_close(db);
}

/* Open `url`, which must be refused as a bad value whose detail says
 * `says`, leaving nothing to close. */
static void refused(const char *url, const char *says)
{
  struct db *db = (struct db *)&db; /* not NULL: a refusal must clear it */
  struct cairn_error err = {0};

  assert_int_equal(db_open(url, &db, &err), CAIRN_EINVAL);
  assert_null(db);
  assert_string_equal(err.code, CAIRN_CODE_BAD_VALUE);
  if (!strstr(err.detail, says))
    fail_msg("refusing %s: \"%s\" does not say \"%s\"", url, err.detail, says);
}

/* Open `url`, a PostgreSQL URL naming a server that is not there: the
 * PostgreSQL backend tries it and fails as storage does, leaving nothing
 * to close. */
static void unreachable(const char *url)
{
  struct db *db = (struct db *)&db; /* not NULL: a failure must clear it */
  struct cairn_error err = {0};

  assert_int_equal(db_open(url, &db, &err), CAIRN_EDB);
  assert_null(db);
  assert_string_equal(err.code, CAIRN_CODE_STORAGE);
}

/* A plain path, "sqlite:PATH" and "sqlite://PATH" are one store: a player
 * written through one spelling is found through the others. */
static void test_every_sqlite_spelling_reaches_the_same_file(void **state)
{
  struct tmpdb t;
  char url[256];
  struct db *db = NULL;
  struct db_player found = {0};
  struct cairn_error err = {0};
  uint8_t hash[DB_HASH_BYTES];

  (void)state;
  assert_int_equal(tmpdb_make(&t), 0);
  opens_sqlite(t.path);
  assert_int_equal(access(t.path, F_OK), 0);
  assert_int_equal(db_open(t.path, &db, &err), CAIRN_OK);
  tmpdb_add_player(db, "ann", 0x21);
  db_close(db);
  snprintf(url, sizeof(url), "sqlite:%s", t.path);
  opens_sqlite(url);
  snprintf(url, sizeof(url), "sqlite://%s", t.path); /* sqlite:///tmp/...: an absolute path */
  assert_int_equal(db_open(url, &db, &err), CAIRN_OK);
  tmpdb_hash_of(hash, 0x21);
  assert_int_equal(db_player_by_token(db, hash, &found, &err), CAIRN_OK);
  assert_string_equal(found.id, "ann");
  db_close(db);
  tmpdb_remove(&t);
}

static void test_memory_store_opens(void **state)
{
  (void)state;
  opens_sqlite(":memory:");
  opens_sqlite("sqlite::memory:");
}

/* A scheme this build does not have is refused by name, not mistaken for
 * a file called "mysql:" in the working directory; both spellings of
 * PostgreSQL's reach its backend (issue 23: they were refused by name
 * before it existed), here on a socket directory with no server in it. */
static void test_a_backend_this_build_lacks_is_refused_by_name(void **state)
{
  (void)state;
  unreachable("postgres:///cairn?host=/nonexistent/cairn-test");
  unreachable("postgresql:///cairn?host=/nonexistent/cairn-test");
  refused("mysql://localhost/cairn", "unknown storage scheme \"mysql:\"");
  refused("sqlite:", "names no database");
  refused("", "names no database");
}

/* The server's own files (the signing key) live beside a file store; a
 * store that is not a local file has no such place. */
static void test_local_file_of_each_spelling(void **state)
{
  char file[64];

  (void)state;
  assert_true(db_local_file("data/cairn.db", file, sizeof(file)));
  assert_string_equal(file, "data/cairn.db");
  assert_true(db_local_file("sqlite:data/cairn.db", file, sizeof(file)));
  assert_string_equal(file, "data/cairn.db");
  assert_true(db_local_file("sqlite:///var/lib/cairn/cairn.db", file, sizeof(file)));
  assert_string_equal(file, "/var/lib/cairn/cairn.db");
  assert_false(db_local_file(":memory:", file, sizeof(file)));
  assert_string_equal(file, "");
  assert_false(db_local_file("postgres://localhost/cairn", file, sizeof(file)));
  assert_false(db_local_file("sqlite:", file, sizeof(file)));
  /* too long for the caller's buffer: no truncated path */
  assert_false(
      db_local_file("sqlite:/a/very/long/path/that/does/not/fit/in/a/buffer/of/sixty-four/bytes.db",
                    file, sizeof(file)));
  assert_string_equal(file, "");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_sqlite_spelling_reaches_the_same_file),
      cmocka_unit_test(test_memory_store_opens),
      cmocka_unit_test(test_a_backend_this_build_lacks_is_refused_by_name),
      cmocka_unit_test(test_local_file_of_each_spelling),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
