/*
 * groupcommit.c - the SQLite backend's group commit. A durable commit costs
 * an fsync, which dwarfs the work of an append, so appends queue up and one
 * committer thread takes all that are waiting into one transaction: while
 * it is on disk, the next batch gathers. Nobody hears its verdict before the
 * transaction holding its row is durable.
 *
 * Two ways in. move_append waits on its own condition until its batch is
 * done (one shared condition woke every waiter on every batch, and most went
 * back to sleep). move_append_async returns at once and is called back on
 * the committer thread: the server's thread that took the move serves other
 * connections meanwhile, instead of sleeping through the fsync (issue 22:
 * a blocked thread per move in flight cost 96 threads and about a third of
 * the server's CPU in context switches).
 *
 * Before the committer thread, whichever caller found no commit running
 * committed for the others; a thread of its own is what lets a caller
 * leave without waiting, and it keeps one thread's stack and cache warm.
 */
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Under queue_lock: add `a` at the queue's tail, waking the committer when
 * the queue was empty (otherwise it is awake, or will look again). */
static void enqueue_locked(struct db_sqlite *c, struct db_append *a)
{
  bool was_empty = c->queue == NULL;

  *c->queue_tail = a;
  c->queue_tail = &a->next;
  if (was_empty)
    pthread_cond_signal(&c->queued);
}

/* Tell a batch's members their verdicts. Waiting callers are marked done
 * and woken under the lock (their entries live on their stacks, so nothing
 * may touch them once they can see `done`); async ones are called after
 * it, each read before its callback, which may free nothing of ours but
 * whose caller may reuse its memory at once. */
static void settle(struct db_sqlite *c, struct db_append *batch)
{
  struct db_append *a, *next, *calls = NULL, **calls_tail = &calls;

  pthread_mutex_lock(&c->queue_lock);
  for (a = batch; a; a = next) {
    next = a->next;
    if (a->on_done) {
      a->next = NULL;
      *calls_tail = a;
      calls_tail = &a->next;
    } else {
      a->done = true;
      pthread_cond_signal(&a->wake);
    }
  }
  pthread_mutex_unlock(&c->queue_lock);
  for (a = calls; a; a = next) {
    next = a->next;
    if (a->st == CAIRN_OK) {
      memcpy(a->async_move->hash, a->hash, DB_HASH_BYTES);
      a->async_move->has_hash = true;
    }
    a->on_done(a->on_done_arg, a->st);
    free(a);
  }
}

static void *commit_forever(void *arg)
{
  struct db_sqlite *c = arg;

  pthread_mutex_lock(&c->queue_lock);
  for (;;) {
    struct db_append *batch;

    while (!c->queue && !c->stopping)
      pthread_cond_wait(&c->queued, &c->queue_lock);
    if (!c->queue)
      break; /* stopping, and nothing is left to commit */
    batch = c->queue;
    c->queue = NULL;
    c->queue_tail = &c->queue;
    pthread_mutex_unlock(&c->queue_lock);
    db_sqlite_commit_batch(c, batch);
    settle(c, batch);
    pthread_mutex_lock(&c->queue_lock);
  }
  pthread_mutex_unlock(&c->queue_lock);
  return NULL;
}

bool db_sqlite_committer_start(struct db_sqlite *c)
{
  c->committer_running = pthread_create(&c->committer, NULL, commit_forever, c) == 0;
  return c->committer_running;
}

void db_sqlite_committer_stop(struct db_sqlite *c)
{
  if (!c->committer_running)
    return;
  pthread_mutex_lock(&c->queue_lock);
  c->stopping = true;
  pthread_cond_signal(&c->queued);
  pthread_mutex_unlock(&c->queue_lock);
  pthread_join(c->committer, NULL);
  c->committer_running = false;
}

enum cairn_status db_sqlite_move_append(void *ctx, const char *game_id, struct db_move *move,
                                        const char *result_json, struct cairn_error *err)
{
  struct db_sqlite *c = ctx;
  struct db_append me = {.game_id = game_id, .move = move, .result_json = result_json, .err = err};

  assert(c && game_id && move && move->move_json && move->events_json);
  assert(move->seat >= 0 && move->seat < ENGINE_MAX_SEATS);
  pthread_cond_init(&me.wake, NULL);
  pthread_mutex_lock(&c->queue_lock);
  enqueue_locked(c, &me);
  while (!me.done)
    pthread_cond_wait(&me.wake, &c->queue_lock);
  pthread_mutex_unlock(&c->queue_lock);
  pthread_cond_destroy(&me.wake);
  if (me.st == CAIRN_OK) {
    memcpy(move->hash, me.hash, DB_HASH_BYTES);
    move->has_hash = true;
  }
  return me.st;
}

void db_sqlite_move_append_async(void *ctx, const char *game_id, struct db_move *move,
                                 const char *result_json, struct cairn_error *err,
                                 db_append_done done, void *arg)
{
  struct db_sqlite *c = ctx;
  struct db_append *a = calloc(1, sizeof(*a));

  assert(c && game_id && move && move->move_json && move->events_json && done);
  assert(move->seat >= 0 && move->seat < ENGINE_MAX_SEATS);
  if (!a) {
    done(arg, cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory"));
    return;
  }
  *a = (struct db_append){.game_id = game_id,
                          .move = move,
                          .async_move = move,
                          .result_json = result_json,
                          .err = err,
                          .on_done = done,
                          .on_done_arg = arg};
  pthread_mutex_lock(&c->queue_lock);
  enqueue_locked(c, a);
  pthread_mutex_unlock(&c->queue_lock);
}
