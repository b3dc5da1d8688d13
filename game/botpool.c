/*
 * botpool.c - where search-level bots think: a few worker threads and a
 * bounded queue of games owing a bot a decision, so a person's move is
 * answered before any bot has thought about its reply (issue 26).
 *
 * A job is a game id only. A worker locks the game, copies the state the
 * bot decides on, unlocks, thinks (bots/), then locks again and commits
 * through game_commit like every change, but only if the game's log head
 * is where it was: a decision about a position that moved on is dropped,
 * and the bots of the game as it is now are asked again. A full queue
 * drops the job (logged): the sweep (game_bots_sweep) finds every game
 * whose bot owes a move once its last change is GAME_BOT_GRACE_MS old, so
 * nothing is lost, only late; so is a job the stop left in the queue,
 * after the next start (game_bots_resume).
 */
#include "game.h"
#include "../log/log.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct game_bot_pool {
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  pthread_t threads[GAME_BOT_THREADS_MAX];
  int n_threads;
  bool stopping;
  char (*queue)[DB_ID_MAX + 1]; /* Owned: a ring of `cap` game ids */
  size_t cap, head, len;
};

/* Whether game `id` already waits in the queue (under the mutex): one job
 * a game is enough, since a worker plays whoever owes then. */
static bool queued(const struct game_bot_pool *pool, const char *id)
{
  size_t i;

  for (i = 0; i < pool->len; i++)
    if (strcmp(pool->queue[(pool->head + i) % pool->cap], id) == 0)
      return true;
  return false;
}

bool game_bot_pool_enqueue(struct game_service *svc, const char *game_id)
{
  struct game_bot_pool *pool = svc->bot_pool;
  bool taken = true;

  pthread_mutex_lock(&pool->mutex);
  if (!queued(pool, game_id)) {
    taken = pool->len < pool->cap && !pool->stopping;
    if (taken) {
      snprintf(pool->queue[(pool->head + pool->len) % pool->cap], DB_ID_MAX + 1, "%s", game_id);
      pool->len++;
      pthread_cond_signal(&pool->wake);
    }
  }
  pthread_mutex_unlock(&pool->mutex);
  if (!taken)
    log_line(LOG_WARN, "bots", "bot queue full: game %s waits for the sweep", game_id);
  return taken;
}

/* The next game id into `id`; false once the pool stops. */
static bool next_job(struct game_bot_pool *pool, char id[DB_ID_MAX + 1])
{
  bool got = false;

  pthread_mutex_lock(&pool->mutex);
  while (!pool->stopping && pool->len == 0)
    pthread_cond_wait(&pool->wake, &pool->mutex);
  if (!pool->stopping) {
    memcpy(id, pool->queue[pool->head], DB_ID_MAX + 1);
    pool->head = (pool->head + 1) % pool->cap;
    pool->len--;
    got = true;
  }
  pthread_mutex_unlock(&pool->mutex);
  return got;
}

static void *worker(void *arg)
{
  struct game_service *svc = arg;
  char id[DB_ID_MAX + 1];

  while (next_job(svc->bot_pool, id))
    game_bots_think(svc, id);
  return NULL;
}

bool game_bot_pool_start(struct game_service *svc, int threads, size_t cap)
{
  struct game_bot_pool *pool = calloc(1, sizeof(*pool));
  int i;

  if (!pool)
    return false;
  pool->queue = calloc(cap, sizeof(*pool->queue));
  if (!pool->queue) {
    free(pool);
    return false;
  }
  pool->cap = cap;
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->wake, NULL);
  svc->bot_pool = pool;
  if (threads > GAME_BOT_THREADS_MAX)
    threads = GAME_BOT_THREADS_MAX;
  for (i = 0; i < threads; i++) {
    if (pthread_create(&pool->threads[i], NULL, worker, svc) != 0)
      break;
    pool->n_threads++;
  }
  if (pool->n_threads == 0) {
    game_bot_pool_stop(svc);
    return false;
  }
  return true;
}

void game_bot_pool_stop(struct game_service *svc)
{
  struct game_bot_pool *pool = svc->bot_pool;
  int i;

  if (!pool)
    return;
  pthread_mutex_lock(&pool->mutex);
  pool->stopping = true;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mutex);
  for (i = 0; i < pool->n_threads; i++)
    pthread_join(pool->threads[i], NULL);
  svc->bot_pool = NULL;
  pthread_mutex_destroy(&pool->mutex);
  pthread_cond_destroy(&pool->wake);
  free(pool->queue);
  free(pool);
}
