/*
 * test_pg_backend.c - what the PostgreSQL backend promises beyond the
 * conformance suite (which it passes whole: test_conformance.c), on a real
 * cluster (CAIRN_TEST_PG, see tmpdb.h): its connections come back after the
 * server ended them, and stores opened at once on one empty database
 * migrate it once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libpq-fe.h>
#include <pthread.h>

#include "tests/order.h"
#include "db/db.h"
#include "tmpdb.h"

/* Run `sql` on a connection of its own to the test's database; the value
 * of the first row's first column (0 when none) into *value. */
static void on_test_db(const struct tmpdb_backend *f, const char *sql, long *value)
{
  /* The URL db_open was given is libpq's too. */
  PGconn *conn = PQconnectdb(f->url);
  PGresult *res;

  if (PQstatus(conn) != CONNECTION_OK)
    fail_msg("connecting to %s: %s", f->url, PQerrorMessage(conn));
  res = PQexec(conn, sql);
  if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
    fail_msg("%s: %s", sql, PQerrorMessage(conn));
  if (value)
    *value = PQntuples(res) > 0 ? strtol(PQgetvalue(res, 0, 0), NULL, 10) : 0;
  PQclear(res);
  PQfinish(conn);
}

/* End every connection the store holds, as a restart of the server or an
 * administrator would; the number ended into *ended. */
static void end_store_connections(const struct tmpdb_backend *f, long *ended)
{
  on_test_db(f,
             "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
             " WHERE datname = current_database() AND pid <> pg_backend_pid()",
             ended);
}

/* A pooled connection the server ended is noticed at its next use and
 * replaced, for reads and writes alike: no call fails for it. */
static void test_ended_connections_are_replaced(void **state)
{
  struct tmpdb_backend *f = *state;
  struct cairn_error err = {0};
  struct db_player p = {0};
  uint8_t hash[DB_HASH_BYTES];
  struct db_game g = {0};
  long ended = 0;

  tmpdb_add_active_game(f->db, "g1", 2);
  end_store_connections(f, &ended);
  assert_true(ended >= 1);
  /* a read */
  tmpdb_seat_token_hash(hash, "g1", 1);
  assert_int_equal(db_player_by_token(f->db, hash, &p, &err), CAIRN_OK);
  assert_string_equal(p.id, "g1-p1");
  /* a move, its own transaction */
  end_store_connections(f, &ended);
  assert_int_equal(tmpdb_append(f->db, "g1", 0, NULL, &err), CAIRN_OK);
  /* a single statement, in a transaction of its own */
  end_store_connections(f, &ended);
  assert_int_equal(db_game_touch(f->db, "g1", 1700000009999, &err), CAIRN_OK);
  tmpdb_load(f->db, "g1", &g);
  assert_int_equal(g.moves, 1);
  assert_int_equal(g.updated_ms, 1700000009999);
  db_game_clear(&g);
}

#define NODES 4

struct node {
  const char *url;
  pthread_barrier_t *start;
  struct db *db;
  enum cairn_status st;
};

static void *open_node(void *arg)
{
  struct node *n = arg;
  struct cairn_error err = {0};

  pthread_barrier_wait(n->start);
  n->st = db_open(n->url, &n->db, &err);
  return NULL;
}

/* Nodes starting at once on an empty database: each opens, the schema is
 * made once (one row in schema_version, at the last migration) and every
 * node can use it. */
static void test_stores_opened_at_once_migrate_once(void **state)
{
  struct tmpdb_backend *f = *state;
  struct node nodes[NODES];
  pthread_t t[NODES];
  pthread_barrier_t start;
  long rows = 0, version = 0;
  int i;

  /* The fixture's store migrated the database already: start again from
   * an empty one. */
  db_close(f->db);
  f->db = NULL;
  on_test_db(f, "DROP SCHEMA public CASCADE; CREATE SCHEMA public", NULL);
  assert_int_equal(pthread_barrier_init(&start, NULL, NODES), 0);
  for (i = 0; i < NODES; i++) {
    nodes[i] = (struct node){.url = f->url, .start = &start};
    assert_int_equal(pthread_create(&t[i], NULL, open_node, &nodes[i]), 0);
  }
  for (i = 0; i < NODES; i++)
    pthread_join(t[i], NULL);
  pthread_barrier_destroy(&start);
  for (i = 0; i < NODES; i++)
    assert_int_equal(nodes[i].st, CAIRN_OK);
  on_test_db(f, "SELECT count(*) FROM schema_version", &rows);
  on_test_db(f, "SELECT version FROM schema_version", &version);
  assert_int_equal(rows, 1);
  assert_true(version >= 1);
  for (i = 0; i < NODES; i++) {
    char id[8];

    snprintf(id, sizeof id, "%cn", 'a' + i);
    tmpdb_add_active_game(nodes[i].db, id, 2);
  }
  for (i = 0; i < NODES; i++)
    db_close(nodes[i].db);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_ended_connections_are_replaced, tmpdb_pg_setup,
                                      tmpdb_pg_teardown),
      cmocka_unit_test_setup_teardown(test_stores_opened_at_once_migrate_once, tmpdb_pg_setup,
                                      tmpdb_pg_teardown),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
