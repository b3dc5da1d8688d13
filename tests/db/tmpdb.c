/*
 * tmpdb.c - throwaway database files for the storage tests, and the
 * backend opened on one (tmpdb.h).
 */
#include "tmpdb.h"

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
  if (db_sqlite_open(b->t.path, &b->ops, &err) != CAIRN_OK) {
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

  if (b->ops.close)
    b->ops.close(b->ops.ctx);
  tmpdb_remove(&b->t);
  free(b);
  return 0;
}
