/*
 * checkpoint.c - copying the WAL back into the database file, off the
 * commit path.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that pushes the WAL
 * past its threshold: that commit (and so every move of its group commit,
 * and every move queued behind it) waits while a thousand pages are read
 * back from the WAL, written to the database file and fsynced. Here the
 * writer's automatic checkpoint is off; its WAL hook, called after each
 * commit with the WAL's length, only wakes this thread, which checkpoints
 * on a connection of its own in PASSIVE mode: it copies what it can
 * without waiting for, or blocking, the writer or the readers. The writer
 * starts the WAL over once a checkpoint has copied all of it.
 *
 * Durability is unchanged: a move is acknowledged when its frames are
 * fsynced in the WAL; a checkpoint cut short by a crash leaves the WAL in
 * place, and the next start copies it again.
 */
#include "internal.h"
#include "../../log/log.h"

#include <stdio.h>
#include <stdlib.h>

struct db_checkpointer {
  sqlite3 *db;                  /* owned: used by the thread only */
  pthread_mutex_t *writer_lock; /* borrowed: held around every use of the writer */
  pthread_t thread;
  pthread_mutex_t lock; /* guards due and stop */
  pthread_cond_t wake;
  bool due, stop;
  /* Frames of the current WAL the last checkpoint copied. A copied WAL
   * keeps its length until the writer starts it over, so without this
   * every commit in between would ask for another, useless, checkpoint. */
  atomic_int copied;
};

/* The writer's WAL hook: runs after each commit, with the writer's lock
 * held, so it only raises a flag. `frames` is the WAL's length. */
static int on_wal_commit(void *arg, sqlite3 *db, const char *schema, int frames)
{
  struct db_checkpointer *k = arg;
  int copied = atomic_load(&k->copied);

  (void)db;
  (void)schema;
  if (frames < copied) { /* the writer started the WAL over */
    atomic_store(&k->copied, 0);
    copied = 0;
  }
  if (frames - copied < DB_SQLITE_CHECKPOINT_FRAMES)
    return SQLITE_OK;
  pthread_mutex_lock(&k->lock);
  if (!k->due) {
    k->due = true;
    pthread_cond_signal(&k->wake);
  }
  pthread_mutex_unlock(&k->lock);
  return SQLITE_OK;
}

/*
 * Copy the WAL into the database file, in two passes. The first runs
 * beside the writer and copies the bulk; commits go on meanwhile, so it
 * ends with frames it did not copy, and a WAL never copied to its end is
 * never started over: under steady load it would grow without bound. The
 * second pass holds the writer's lock, so no commit comes in between, and
 * copies the few frames the first left: the WAL is then wholly copied and
 * the next commit starts it over. Commits wait only for that short tail
 * (and the database file's fsync), not for the whole copy as they did
 * when SQLite checkpointed inside a COMMIT.
 * BUSY: the close's own checkpoint is running; the next commit's hook asks
 * again. A reader that still needs older frames makes the copy partial
 * (*copied says how far it went).
 */
static int copy_wal(struct db_checkpointer *k, int *copied)
{
  int rc = sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, copied);

  if (rc != SQLITE_OK)
    return rc;
  pthread_mutex_lock(k->writer_lock);
  rc = sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, copied);
  pthread_mutex_unlock(k->writer_lock);
  return rc;
}

static void *checkpoint_loop(void *arg)
{
  struct db_checkpointer *k = arg;
  int rc, copied = 0;

  pthread_mutex_lock(&k->lock);
  for (;;) {
    while (!k->due && !k->stop)
      pthread_cond_wait(&k->wake, &k->lock);
    if (k->stop)
      break;
    k->due = false;
    pthread_mutex_unlock(&k->lock);
    rc = copy_wal(k, &copied);
    if (rc == SQLITE_OK && copied > 0)
      atomic_store(&k->copied, copied);
    if (rc != SQLITE_OK && rc != SQLITE_BUSY)
      log_line(LOG_WARN, "db", "checkpoint: %s (%d); the WAL is kept and copied later",
               sqlite3_errmsg(k->db), rc);
    pthread_mutex_lock(&k->lock);
    /* Hooks that ran during the copy counted from before it: the frames
     * they saw are copied now. */
    k->due = false;
  }
  pthread_mutex_unlock(&k->lock);
  return NULL;
}

/* The checkpointer's own connection to `path`, in *out (NULL on failure).
 * A connection opens the WAL at its first read; until then SQLite (3.40)
 * answers a checkpoint with success and does nothing, so it reads once. */
static enum cairn_status open_connection(const char *path, sqlite3 **out, struct cairn_error *err)
{
  int rc = sqlite3_open_v2(path, out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, DB_SQLITE_VFS);

  if (rc == SQLITE_OK)
    rc = sqlite3_exec(*out, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
  if (rc != SQLITE_OK) {
    enum cairn_status st = db_sqlite_fail(*out, rc, "opening the database to checkpoint", err);

    sqlite3_close(*out); /* accepts NULL; also frees the handle a failed open returns */
    *out = NULL;
    return st;
  }
  return CAIRN_OK;
}

enum cairn_status db_sqlite_checkpointer_start(sqlite3 *writer, pthread_mutex_t *writer_lock,
                                               const char *path, struct db_checkpointer **out,
                                               struct cairn_error *err)
{
  struct db_checkpointer *k = calloc(1, sizeof(*k));
  enum cairn_status st;

  *out = NULL;
  if (!k)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while opening the database");
  st = open_connection(path, &k->db, err);
  if (st != CAIRN_OK) {
    free(k);
    return st;
  }
  k->writer_lock = writer_lock;
  pthread_mutex_init(&k->lock, NULL);
  pthread_cond_init(&k->wake, NULL);
  if (pthread_create(&k->thread, NULL, checkpoint_loop, k) != 0) {
    pthread_cond_destroy(&k->wake);
    pthread_mutex_destroy(&k->lock);
    sqlite3_close(k->db);
    free(k);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "could not start the checkpoint thread");
  }
  sqlite3_wal_autocheckpoint(writer, 0); /* also clears any earlier hook */
  sqlite3_wal_hook(writer, on_wal_commit, k);
  *out = k;
  return CAIRN_OK;
}

void db_sqlite_checkpointer_stop(sqlite3 *writer, struct db_checkpointer *k)
{
  if (!k)
    return;
  sqlite3_wal_hook(writer, NULL, NULL);
  pthread_mutex_lock(&k->lock);
  k->stop = true;
  pthread_cond_signal(&k->wake);
  pthread_mutex_unlock(&k->lock);
  pthread_join(k->thread, NULL);
  pthread_cond_destroy(&k->wake);
  pthread_mutex_destroy(&k->lock);
  sqlite3_close(k->db);
  free(k);
}
