/*
 * tmpdb.h - throwaway database files for the storage tests: a fresh
 * directory under /tmp per test, removed with everything SQLite left in it
 * (the database, its -wal and -shm files).
 */
#ifndef TESTS_DB_TMPDB_H
#define TESTS_DB_TMPDB_H

struct tmpdb {
  char dir[64];   /* the mkdtemp directory */
  char path[128]; /* dir + "/cairn.db", not yet created */
};

/* Make a new directory and fill *t. Returns 0, or -1 with errno set. */
int tmpdb_make(struct tmpdb *t);

/* Remove the database files and the directory. Accepts a struct whose
 * tmpdb_make failed (dir empty). */
void tmpdb_remove(struct tmpdb *t);

#endif
