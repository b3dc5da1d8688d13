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
 *
 * Hints (GET /v1/games/{id}/hint) are worked out here too: a hint job
 * names the seat, and its answer waits in a small ring of recent hints
 * (HINTS_KEPT), keyed by game, log length and seat, until asked for again.
 */
#include "game.h"
#include "../log/log.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HINTS_KEPT 64 /* hints worked out and not yet asked for again, the oldest dropped */

/* A job: a game whose bot owes a decision (seat -1), or a hint for `seat`. */
struct job {
  char id[DB_ID_MAX + 1];
  int seat;
};

/* A hint worked out: `move` for `seat` of game `id` when its log had `moves` rows. */
struct kept_hint {
  char id[DB_ID_MAX + 1];
  uint32_t moves, seq;
  int seat;
  char *move; /* Owned: the move's JSON text; NULL for an empty slot */
};

struct game_bot_pool {
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  pthread_t threads[GAME_BOT_THREADS_MAX];
  int n_threads;
  bool stopping;
  struct job *queue; /* Owned: a ring of `cap` jobs */
  size_t cap, head, len;
  struct kept_hint hints[HINTS_KEPT];
  size_t next_hint; /* the slot the next hint takes */
  /* For GET /metrics (game_bot_pool_counts), under the mutex. */
  long bot_jobs, hint_jobs; /* jobs done, by kind */
  double seconds;           /* time the workers spent on them */
};

/* Whether the job (`id`, `seat`) already waits in the queue (under the
 * mutex): one bot job a game is enough, since a worker plays whoever owes
 * then, and one hint job a seat. */
static bool queued(const struct game_bot_pool *pool, const char *id, int seat)
{
  size_t i;

  for (i = 0; i < pool->len; i++) {
    const struct job *j = &pool->queue[(pool->head + i) % pool->cap];

    if (j->seat == seat && strcmp(j->id, id) == 0)
      return true;
  }
  return false;
}

/* Queue (`id`, `seat`) once; false when the queue is full or stopping. */
static bool enqueue(struct game_bot_pool *pool, const char *id, int seat)
{
  bool taken = true;

  pthread_mutex_lock(&pool->mutex);
  if (!queued(pool, id, seat)) {
    taken = pool->len < pool->cap && !pool->stopping;
    if (taken) {
      struct job *j = &pool->queue[(pool->head + pool->len) % pool->cap];

      snprintf(j->id, sizeof(j->id), "%s", id);
      j->seat = seat;
      pool->len++;
      pthread_cond_signal(&pool->wake);
    }
  }
  pthread_mutex_unlock(&pool->mutex);
  return taken;
}

bool game_bot_pool_enqueue(struct game_service *svc, const char *game_id)
{
  bool taken = enqueue(svc->bot_pool, game_id, -1);

  if (!taken)
    log_line(LOG_WARN, "bots", "bot queue full: game %s waits for the sweep", game_id);
  return taken;
}

bool game_bot_pool_hint_enqueue(struct game_service *svc, const char *game_id, int seat)
{
  return enqueue(svc->bot_pool, game_id, seat);
}

bool game_bot_pool_hint_find(struct game_service *svc, const char *game_id, uint32_t moves,
                             int seat, json_t **move, uint32_t *seq)
{
  struct game_bot_pool *pool = svc->bot_pool;
  size_t i;

  *move = NULL;
  pthread_mutex_lock(&pool->mutex);
  for (i = 0; i < HINTS_KEPT && !*move; i++) {
    const struct kept_hint *h = &pool->hints[i];

    if (h->move && h->moves == moves && h->seat == seat && strcmp(h->id, game_id) == 0) {
      *move = json_loads(h->move, 0, NULL);
      *seq = h->seq;
    }
  }
  pthread_mutex_unlock(&pool->mutex);
  return *move != NULL;
}

/* Keep a hint worked out, in the oldest slot. */
static void keep_hint(struct game_bot_pool *pool, const char *id, uint32_t moves, uint32_t seq,
                      int seat, const json_t *move)
{
  char *text = json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS);
  struct kept_hint *h;

  if (!text)
    return;
  pthread_mutex_lock(&pool->mutex);
  h = &pool->hints[pool->next_hint];
  pool->next_hint = (pool->next_hint + 1) % HINTS_KEPT;
  free(h->move);
  snprintf(h->id, sizeof(h->id), "%s", id);
  h->moves = moves;
  h->seq = seq;
  h->seat = seat;
  h->move = text;
  pthread_mutex_unlock(&pool->mutex);
}

/* A hint job: worked out (game_hint) and kept; a refusal is not kept, so
 * the next ask reports it. */
static void work_out_hint(struct game_service *svc, const struct job *j)
{
  struct cairn_error err = {0};
  json_t *move = NULL;
  uint32_t moves = 0, seq = 0;

  if (game_hint(svc, j->id, j->seat, &move, &seq, &moves, &err) == CAIRN_OK)
    keep_hint(svc->bot_pool, j->id, moves, seq, j->seat, move);
  else
    log_line(LOG_INFO, "bots", "hint for game %s: %s", j->id, err.detail);
  json_decref(move);
}

/* The next job into *j; false once the pool stops. */
static bool next_job(struct game_bot_pool *pool, struct job *j)
{
  bool got = false;

  pthread_mutex_lock(&pool->mutex);
  while (!pool->stopping && pool->len == 0)
    pthread_cond_wait(&pool->wake, &pool->mutex);
  if (!pool->stopping) {
    *j = pool->queue[pool->head];
    pool->head = (pool->head + 1) % pool->cap;
    pool->len--;
    got = true;
  }
  pthread_mutex_unlock(&pool->mutex);
  return got;
}

static double monotonic_s(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Count a job done in `seconds` (for GET /metrics). */
static void count_job(struct game_bot_pool *pool, bool hint, double seconds)
{
  pthread_mutex_lock(&pool->mutex);
  if (hint)
    pool->hint_jobs++;
  else
    pool->bot_jobs++;
  pool->seconds += seconds;
  pthread_mutex_unlock(&pool->mutex);
}

static void *worker(void *arg)
{
  struct game_service *svc = arg;
  struct job j;

  while (next_job(svc->bot_pool, &j)) {
    double start = monotonic_s();

    if (j.seat < 0)
      game_bots_think(svc, j.id);
    else
      work_out_hint(svc, &j);
    count_job(svc->bot_pool, j.seat >= 0, monotonic_s() - start);
  }
  return NULL;
}

void game_bot_pool_counts(struct game_service *svc, struct game_bot_pool_counts *out)
{
  struct game_bot_pool *pool = svc ? svc->bot_pool : NULL;

  memset(out, 0, sizeof(*out));
  if (!pool)
    return;
  pthread_mutex_lock(&pool->mutex);
  out->threads = pool->n_threads;
  out->queued = (long)pool->len;
  out->bot_jobs = pool->bot_jobs;
  out->hint_jobs = pool->hint_jobs;
  out->seconds = pool->seconds;
  pthread_mutex_unlock(&pool->mutex);
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
  for (i = 0; i < HINTS_KEPT; i++)
    free(pool->hints[i].move);
  free(pool->queue);
  free(pool);
}
