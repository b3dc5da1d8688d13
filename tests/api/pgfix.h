/*
 * pgfix.h - a PostgreSQL database of its own for a test of several nodes
 * (test_pg_work, test_crash_pg), on the cluster CAIRN_TEST_PG names
 * (`make run-tests` starts one with tests/db/pg_cluster.sh), and a way to
 * read what the nodes stored behind their backs.
 */
#ifndef TESTS_API_PGFIX_H
#define TESTS_API_PGFIX_H

#include <stdbool.h>

struct pgfix {
  char db[64];   /* the database made for the test */
  char url[300]; /* what the servers are given (--db) */
  char key[128]; /* a signing key's path the nodes share (CAIRN_KEY) */
};

/* Make a fresh database; false (with a message saying how to start a
 * cluster, when none is set) when it cannot. */
bool pgfix_make(struct pgfix *f);

/* Drop the database (the servers must be stopped); false when that failed. */
bool pgfix_drop(struct pgfix *f);

/* The first column of the first row of `sql` on the test's database, as
 * text into out[size] ("" for none or NULL); fails the test on an error. */
void pgfix_text(const struct pgfix *f, const char *sql, char *out, int size);

/* The same, as a number. */
long long pgfix_number(const struct pgfix *f, const char *sql);

#endif
