/*
 * tmpdb.c - throwaway database files for the storage tests, and the
 * backend opened on one (tmpdb.h); throwaway databases on a PostgreSQL
 * cluster for the same tests of that backend.
 */
#include "tmpdb.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tmpdb_make(struct tmpdb *t)
{
  memset(t, 0, sizeof(*t));
  snprintf(t->dir, sizeof(t->dir), "/tmp/cairn-db-test-XXXXXX");
  if (!mkdtemp(t->dir)) {
    t->dir[0] = '\0';
    return -1;
  }
  snprintf(t->path, sizeof(t->path), "%s/cairn.db", t->dir);
  return 0;
}

void tmpdb_remove(struct tmpdb *t)
{
  static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
  char file[sizeof(t->path) + 16];
  size_t i;

  if (!t->dir[0])
    return;
  for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
    snprintf(file, sizeof(file), "%s%s", t->path, suffixes[i]);
    unlink(file);
  }
  rmdir(t->dir);
  t->dir[0] = '\0';
}

int tmpdb_backend_setup(void **state)
{
  struct tmpdb_backend *b = calloc(1, sizeof(*b));
  struct cairn_error err = {0};

  if (!b || tmpdb_make(&b->t) != 0) {
    free(b);
    return -1;
  }
  snprintf(b->url, sizeof(b->url), "sqlite:%s", b->t.path);
  if (db_open(b->url, &b->db, &err) != CAIRN_OK) {
    fprintf(stderr, "open: %s\n", err.detail);
    tmpdb_remove(&b->t);
    free(b);
    return -1;
  }
  *state = b;
  return 0;
}

int tmpdb_backend_teardown(void **state)
{
  struct tmpdb_backend *b = *state;

  db_close(b->db); /* NULL when a test closed it already */
  tmpdb_remove(&b->t);
  free(b);
  return 0;
}

/* ---- rows for the backend tests ---- */

/* The token fill of seat `seat`'s player in tmpdb_add_active_game(`id`). */
static uint8_t seat_fill(const char *id, int seat)
{
  return (uint8_t)(0x10 * (seat + 1) + (uint8_t)id[0]);
}

void tmpdb_seat_token_hash(uint8_t hash[DB_HASH_BYTES], const char *id, int seat)
{
  tmpdb_hash_of(hash, seat_fill(id, seat));
}

void tmpdb_hash_of(uint8_t hash[DB_HASH_BYTES], uint8_t fill)
{
  memset(hash, fill, DB_HASH_BYTES);
  hash[0] = 0xc0; /* not all one byte, so a truncated blob would not match */
}

void tmpdb_add_player(struct db *db, const char *id, uint8_t fill)
{
  struct db_player p = {0};
  struct cairn_error err = {0};
  uint8_t hash[DB_HASH_BYTES];

  snprintf(p.id, sizeof(p.id), "%s", id);
  snprintf(p.name, sizeof(p.name), "Name of %s", id);
  tmpdb_hash_of(hash, fill);
  assert_int_equal(db_player_create(db, &p, hash, &err), CAIRN_OK);
}

void tmpdb_add_game(struct db *db, const char *id, int seats, const char *creator)
{
  struct db_game g = {0};
  struct cairn_error err = {0};
  int i;

  snprintf(g.id, sizeof(g.id), "%s", id);
  snprintf(g.title, sizeof(g.title), "himalaya");
  snprintf(g.rules_version, sizeof(g.rules_version), "1.0");
  snprintf(g.creator, sizeof(g.creator), "%s", creator);
  g.seats = seats;
  g.options_json = "{\"scenario\":\"basic\"}";
  for (i = 0; i < ENGINE_SEED_BYTES; i++)
    g.seed[i] = (uint8_t)(i * 7 + 1);
  g.created_ms = 1700000000000;
  assert_int_equal(db_game_create(db, &g, &err), CAIRN_OK);
}

void tmpdb_add_active_game(struct db *db, const char *id, int seats)
{
  struct cairn_error err = {0};
  char pid[DB_ID_MAX + 1];
  int i;

  for (i = 0; i < seats; i++) {
    snprintf(pid, sizeof(pid), "%s-p%d", id, i);
    tmpdb_add_player(db, pid, seat_fill(id, i));
  }
  snprintf(pid, sizeof(pid), "%s-p0", id);
  tmpdb_add_game(db, id, seats, pid);
  for (i = 0; i < seats; i++) {
    snprintf(pid, sizeof(pid), "%s-p%d", id, i);
    assert_int_equal(db_seat_take(db, id, i, pid, &err), CAIRN_OK);
  }
}

void tmpdb_load(struct db *db, const char *id, struct db_game *g)
{
  struct cairn_error err = {0};

  assert_int_equal(db_game_load(db, id, g, &err), CAIRN_OK);
}

enum cairn_status tmpdb_append(struct db *db, const char *game, uint32_t ord,
                               const char *result_json, struct cairn_error *err)
{
  char move_json[64];
  char events_json[64];
  struct db_move m = {0};

  snprintf(move_json, sizeof(move_json), "{\"type\":\"pass\",\"n\":%u}", (unsigned)ord);
  snprintf(events_json, sizeof(events_json), "[{\"type\":\"passed\",\"n\":%u}]", (unsigned)ord);
  m.ord = ord;
  m.seq = ord + 1;
  m.seat = (int)(ord % 2);
  m.move_json = move_json;
  m.events_json = events_json;
  m.at_ms = 1700000000000 + ord;
  return db_move_append(db, game, &m, result_json, err);
}

enum cairn_status tmpdb_check_link(void *arg, const struct db_move *move, struct cairn_error *err)
{
  struct tmpdb_chain_walk *w = arg;
  uint8_t expected[DB_HASH_BYTES];

  assert_true(move->has_hash);
  db_chain_hash(&w->chain, w->prev, move, expected);
  assert_memory_equal(move->hash, expected, DB_HASH_BYTES);
  memcpy(w->prev, move->hash, DB_HASH_BYTES);
  w->rows++;
  return CAIRN_OK;
}

/* ---- the PostgreSQL fixture ---- */

/* The cluster every PostgreSQL test uses, or NULL with a message. */
static const char *pg_cluster(void)
{
  static bool told; /* once per binary, not once per test */
  const char *url = getenv("CAIRN_TEST_PG");

  if (url && url[0])
    return url;
  if (told)
    return NULL;
  told = true;
  fprintf(stderr, "CAIRN_TEST_PG is not set: the PostgreSQL tests need a cluster. Start one with\n"
                  "  export CAIRN_TEST_PG=$(sh tests/db/pg_cluster.sh start)\n"
                  "and stop it with\n"
                  "  sh tests/db/pg_cluster.sh stop \"$CAIRN_TEST_PG\"\n"
                  "(make run-tests does both)\n");
  return NULL;
}

/* Run `sql` on a connection of its own to the cluster's main database. */
static int pg_admin(const char *sql)
{
  const char *cluster = pg_cluster();
  PGconn *conn;
  PGresult *res;
  int rc = -1;

  if (!cluster)
    return -1;
  conn = PQconnectdb(cluster);
  if (PQstatus(conn) != CONNECTION_OK) {
    fprintf(stderr, "CAIRN_TEST_PG=%s: %s", cluster, PQerrorMessage(conn));
    PQfinish(conn);
    return -1;
  }
  res = PQexec(conn, sql);
  if (PQresultStatus(res) == PGRES_COMMAND_OK)
    rc = 0;
  else
    fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
  PQclear(res);
  PQfinish(conn);
  return rc;
}

/* A URL for database `name` on the cluster: its own with the name put in
 * place of the path (the cluster's URL is "postgresql:///DB?host=..."). */
static int pg_url_of(const char *name, char *out, size_t size)
{
  const char *cluster = pg_cluster();
  const char *query = cluster ? strchr(cluster, '?') : NULL;
  int n;

  if (!cluster)
    return -1;
  n = snprintf(out, size, "postgresql:///%s%s", name, query ? query : "");
  return n > 0 && (size_t)n < size ? 0 : -1;
}

int tmpdb_pg_setup(void **state)
{
  static unsigned made; /* per process; the pid tells processes apart */
  struct tmpdb_backend *b = calloc(1, sizeof(*b));
  struct cairn_error err = {0};
  char sql[128];

  if (!b)
    return -1;
  /* Digits and letters only, so the name needs no quoting. */
  snprintf(b->pg_db, sizeof(b->pg_db), "cairn_test_%ld_%u", (long)getpid(), made++);
  snprintf(sql, sizeof(sql), "CREATE DATABASE %s", b->pg_db);
  if (pg_url_of(b->pg_db, b->url, sizeof(b->url)) != 0 || pg_admin(sql) != 0) {
    free(b);
    return -1;
  }
  if (db_open(b->url, &b->db, &err) != CAIRN_OK) {
    fprintf(stderr, "open %s: %s\n", b->url, err.detail);
    snprintf(sql, sizeof(sql), "DROP DATABASE %s", b->pg_db);
    pg_admin(sql);
    free(b);
    return -1;
  }
  *state = b;
  return 0;
}

int tmpdb_pg_teardown(void **state)
{
  struct tmpdb_backend *b = *state;
  char sql[128];
  int rc;

  db_close(b->db); /* NULL when a test closed it already */
  /* FORCE: a connection a failed test left open must not keep it. */
  snprintf(sql, sizeof(sql), "DROP DATABASE %s WITH (FORCE)", b->pg_db);
  rc = pg_admin(sql);
  free(b);
  return rc;
}
