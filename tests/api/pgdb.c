/*
 * pgdb.c - databases of their own on a throwaway PostgreSQL cluster, for
 * tests and benches (pgdb.h), over libpq.
 */
#include "pgdb.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A result of `sql` on the cluster's main database; NULL when it cannot
 * be reached. Caller frees with PQclear. */
static PGresult *run(const char *cluster, const char *sql)
{
  PGconn *conn = PQconnectdb(cluster);
  PGresult *res = NULL;

  if (PQstatus(conn) == CONNECTION_OK)
    res = PQexec(conn, sql);
  if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
    fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
  PQfinish(conn);
  return res;
}

int pgdb_admin(const char *cluster, const char *sql)
{
  PGresult *res = run(cluster, sql);
  int rows = -1;

  if (PQresultStatus(res) == PGRES_COMMAND_OK)
    rows = 0;
  else if (PQresultStatus(res) == PGRES_TUPLES_OK)
    rows = PQntuples(res);
  PQclear(res);
  return rows;
}

void pgdb_admin_text(const char *cluster, const char *sql, char *out, size_t size)
{
  PGresult *res = run(cluster, sql);

  out[0] = '\0';
  if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
    snprintf(out, size, "%s", PQgetvalue(res, 0, 0));
  PQclear(res);
}

bool pgdb_create(struct pgdb *d, const char *cluster, const char *prefix)
{
  static unsigned made;
  const char *query = strchr(cluster, '?');
  char sql[160];

  memset(d, 0, sizeof(*d));
  if (!query || strlen(cluster) >= sizeof(d->cluster)) {
    fprintf(stderr, "%s is not a URL tests/db/pg_cluster.sh printed\n", cluster);
    return false;
  }
  snprintf(d->cluster, sizeof(d->cluster), "%s", cluster);
  snprintf(d->name, sizeof(d->name), "%s_%ld_%u", prefix, (long)getpid(), made++);
  snprintf(d->url, sizeof(d->url), "postgresql:///%s%s", d->name, query);
  snprintf(d->key, sizeof(d->key), "/tmp/cairn-%s.key", d->name);
  snprintf(sql, sizeof(sql), "CREATE DATABASE %s", d->name);
  return pgdb_admin(cluster, sql) == 0;
}

bool pgdb_drop(const struct pgdb *d)
{
  char sql[160];

  unlink(d->key);
  snprintf(sql, sizeof(sql), "DROP DATABASE %s WITH (FORCE)", d->name);
  return pgdb_admin(d->cluster, sql) == 0;
}

const char *pgdb_test_cluster(void)
{
  const char *url = getenv("CAIRN_TEST_PG");

  if (url && url[0])
    return url;
  fprintf(stderr, "CAIRN_TEST_PG is not set: start a cluster with\n"
                  "  export CAIRN_TEST_PG=$(sh tests/db/pg_cluster.sh start)\n"
                  "(make run-tests does it, and stops it after)\n");
  return NULL;
}

bool pgdb_text(const struct pgdb *d, const char *sql, char *out, size_t size)
{
  PGresult *res = run(d->url, sql);
  bool ok = PQresultStatus(res) == PGRES_TUPLES_OK;

  out[0] = '\0';
  if (ok && PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
    snprintf(out, size, "%s", PQgetvalue(res, 0, 0));
  PQclear(res);
  return ok;
}

long long pgdb_number(const struct pgdb *d, const char *sql)
{
  char text[64];

  return pgdb_text(d, sql, text, sizeof(text)) ? strtoll(text, NULL, 10) : -1;
}

bool pgnodes_open(struct pgnodes *n, const char *prefix)
{
  memset(n, 0, sizeof(*n));
  return pgdb_test_cluster() && pgdb_create(&n->db, pgdb_test_cluster(), prefix);
}

struct harness_server *pgnodes_start(struct pgnodes *n, int i)
{
  harness_start_on(&n->node[i], n->db.url);
  n->started[i] = true;
  return &n->node[i];
}

bool pgnodes_close(struct pgnodes *n)
{
  bool clean = true;

  for (int i = 0; i < PGNODES_MAX; i++)
    if (n->started[i] && !harness_stop(&n->node[i]))
      clean = false;
  return pgdb_drop(&n->db) && clean;
}
