/*
 * pgdb.c - a database of its own per test on the throwaway PostgreSQL
 * cluster that CAIRN_TEST_PG names (`make run-tests` starts one with
 * tests/db/pg_cluster.sh and stops it after), for the tests that run the
 * server on PostgreSQL (harness.h has each contract).
 */
#include "harness.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *harness_pg_cluster(void)
{
  const char *url = getenv("CAIRN_TEST_PG");

  if (url && url[0])
    return url;
  fprintf(stderr, "CAIRN_TEST_PG is not set: start a cluster with\n"
                  "  export CAIRN_TEST_PG=$(sh tests/db/pg_cluster.sh start)\n"
                  "(make run-tests does it, and stops it after)\n");
  return NULL;
}

int harness_pg_admin(const char *sql)
{
  PGconn *conn = harness_pg_cluster() ? PQconnectdb(harness_pg_cluster()) : NULL;
  PGresult *res;
  int rc = -1;

  if (!conn)
    return -1;
  res = PQstatus(conn) == CONNECTION_OK ? PQexec(conn, sql) : NULL;
  if (PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK)
    rc = 0;
  else
    fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
  PQclear(res);
  PQfinish(conn);
  return rc;
}

bool harness_pg_create(struct harness_pg_db *db)
{
  static unsigned made;
  const char *query = harness_pg_cluster() ? strchr(harness_pg_cluster(), '?') : NULL;
  char sql[128];

  if (!query)
    return false;
  /* Digits and letters only, so the name needs no quoting. */
  snprintf(db->name, sizeof(db->name), "cairn_api_%ld_%u", (long)getpid(), made++);
  snprintf(db->url, sizeof(db->url), "postgresql:///%s%s", db->name, query);
  snprintf(sql, sizeof(sql), "CREATE DATABASE %s", db->name);
  return harness_pg_admin(sql) == 0;
}

bool harness_pg_drop(const struct harness_pg_db *db)
{
  char sql[128];

  snprintf(sql, sizeof(sql), "DROP DATABASE %s WITH (FORCE)", db->name);
  return harness_pg_admin(sql) == 0;
}
