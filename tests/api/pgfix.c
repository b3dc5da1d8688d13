/*
 * pgfix.c - a throwaway database per test on the test cluster (pgfix.h).
 */
#include "pgfix.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *cluster(void)
{
  const char *url = getenv("CAIRN_TEST_PG");

  if (url && url[0])
    return url;
  fprintf(stderr, "CAIRN_TEST_PG is not set: start a cluster with\n"
                  "  export CAIRN_TEST_PG=$(sh tests/db/pg_cluster.sh start)\n"
                  "(make run-tests does it, and stops it after)\n");
  return NULL;
}

/* Run `sql` on the cluster's main database; true when it succeeded. */
static bool admin(const char *sql)
{
  PGconn *conn = cluster() ? PQconnectdb(cluster()) : NULL;
  PGresult *res = NULL;
  bool ok = false;

  if (!conn)
    return false;
  if (PQstatus(conn) == CONNECTION_OK)
    res = PQexec(conn, sql);
  ok = PQresultStatus(res) == PGRES_COMMAND_OK;
  if (!ok)
    fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
  PQclear(res);
  PQfinish(conn);
  return ok;
}

bool pgfix_make(struct pgfix *f)
{
  static unsigned made;
  const char *query = cluster() ? strchr(cluster(), '?') : NULL;
  char sql[128];

  memset(f, 0, sizeof(*f));
  if (!query)
    return false;
  /* Digits and letters only, so the name needs no quoting. */
  snprintf(f->db, sizeof(f->db), "cairn_work_%ld_%u", (long)getpid(), made++);
  snprintf(f->url, sizeof(f->url), "postgresql:///%s%s", f->db, query);
  snprintf(f->key, sizeof(f->key), "/tmp/cairn-%s.key", f->db);
  snprintf(sql, sizeof(sql), "CREATE DATABASE %s", f->db);
  return admin(sql);
}

bool pgfix_drop(struct pgfix *f)
{
  char sql[128];

  unlink(f->key);
  snprintf(sql, sizeof(sql), "DROP DATABASE %s WITH (FORCE)", f->db);
  return admin(sql);
}

void pgfix_text(const struct pgfix *f, const char *sql, char *out, int size)
{
  PGconn *conn = PQconnectdb(f->url);
  PGresult *res = NULL;

  out[0] = '\0';
  if (PQstatus(conn) == CONNECTION_OK)
    res = PQexec(conn, sql);
  if (PQresultStatus(res) != PGRES_TUPLES_OK) {
    fprintf(stderr, "%s: %s", sql, PQerrorMessage(conn));
    PQclear(res);
    PQfinish(conn);
    fail_msg("a query of the test's database failed");
  }
  if (PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
    snprintf(out, (size_t)size, "%s", PQgetvalue(res, 0, 0));
  PQclear(res);
  PQfinish(conn);
}

long long pgfix_number(const struct pgfix *f, const char *sql)
{
  char text[64];

  pgfix_text(f, sql, text, sizeof(text));
  return strtoll(text, NULL, 10);
}
