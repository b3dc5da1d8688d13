/*
 * pgdb.h - a database of its own on a throwaway PostgreSQL cluster
 * (tests/db/pg_cluster.sh), for the tests and benches that run real
 * servers on PostgreSQL (test_pg_nodes, bench_load, bench_pg_notify), and
 * SQL run on the cluster's main database beside them.
 */
#ifndef TESTS_API_PGDB_H
#define TESTS_API_PGDB_H

#include <stdbool.h>
#include <stddef.h>

struct pgdb {
  char cluster[300]; /* the cluster's URL, as pg_cluster.sh printed it */
  char name[64];     /* the database made: letters, digits and _ only */
  char url[400];     /* the URL a server is given for it */
  char key[128]; /* a signing key's path nodes on it may share (CAIRN_KEY); pgdb_drop removes it */
};

/* The cluster `make run-tests` started (CAIRN_TEST_PG), or NULL, saying on
 * stderr how to start one, when it is not set. */
const char *pgdb_test_cluster(void);

/* CREATE DATABASE <prefix>_<pid>_<n> on `cluster`; false (and a line on
 * stderr) when it cannot be made. */
bool pgdb_create(struct pgdb *d, const char *cluster, const char *prefix);

/* DROP DATABASE ... WITH (FORCE); false when that failed. */
bool pgdb_drop(const struct pgdb *d);

/* The first column of the first row `sql` returns on the test's own
 * database, as text into out[size] ("" for none or NULL); false (said on
 * stderr) when the query failed. */
bool pgdb_text(const struct pgdb *d, const char *sql, char *out, size_t size);
/* The same as a number; -1 when the query failed. */
long long pgdb_number(const struct pgdb *d, const char *sql);

/* Run `sql` on the cluster's main database: the rows it returned (0 for a
 * command), -1 when it failed (said on stderr). */
int pgdb_admin(const char *cluster, const char *sql);

/* The one value `sql` returns into out[size]; "" for none or NULL. */
void pgdb_admin_text(const char *cluster, const char *sql, char *out, size_t size);

/* ---- nodes: real servers on one test database ---- */

#include "harness.h"

#define PGNODES_MAX 2
struct pgnodes {
  struct pgdb db;
  struct harness_server node[PGNODES_MAX];
  bool started[PGNODES_MAX];
};

/* A fresh database `<prefix>_<pid>_<n>` on the cluster CAIRN_TEST_PG names;
 * false when there is none or it cannot be made. */
bool pgnodes_open(struct pgnodes *n, const char *prefix);
/* Start node i (0 <= i < PGNODES_MAX) on it; the node. */
struct harness_server *pgnodes_start(struct pgnodes *n, int i);
/* Stop every node started, then drop the database: false when a node did
 * not stop cleanly or the drop failed. Safe after a failed test. */
bool pgnodes_close(struct pgnodes *n);

#endif
