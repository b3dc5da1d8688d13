/*
 * tmpdb.h - throwaway database files for the storage tests: a fresh
 * directory under /tmp per test, removed with everything SQLite left in it
 * (the database, its -wal and -shm files).
 */
#ifndef TESTS_DB_TMPDB_H
#define TESTS_DB_TMPDB_H

#include "db/db.h"

struct tmpdb {
  char dir[64];   /* the mkdtemp directory */
  char path[128]; /* dir + "/cairn.db", not yet created */
};

/* Make a new directory and fill *t. Returns 0, or -1 with errno set. */
int tmpdb_make(struct tmpdb *t);

/* Remove the database files and the directory. Accepts a struct whose
 * tmpdb_make failed (dir empty). */
void tmpdb_remove(struct tmpdb *t);

/* The SQLite backend opened on a fresh throwaway file. */
struct tmpdb_backend {
  struct tmpdb t;
  struct db_ops ops;
};

/* cmocka fixtures: *state becomes a struct tmpdb_backend * (setup returns
 * -1 when the file or the backend cannot be made); teardown closes the
 * backend unless a test already did (ops.close NULL) and removes the files. */
int tmpdb_backend_setup(void **state);
int tmpdb_backend_teardown(void **state);

#endif
