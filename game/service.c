/*
 * service.c - the game service itself: making and releasing it, the
 * per-game stripe locks and loading a game row. What a service does with a
 * game is in the other files of game/ (commit.c first).
 */
#include "game.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct game_service *game_service_new(struct db *db, int64_t (*now_ms)(void), int vacation_days,
                                      const struct game_listener *listener, void *ctx)
{
  struct game_service *svc = calloc(1, sizeof(*svc));
  int i;

  if (!svc)
    return NULL;
  svc->db = db;
  svc->now_ms = now_ms;
  svc->vacation_days = vacation_days;
  svc->listener = listener;
  svc->listener_ctx = ctx;
  for (i = 0; i < GAME_STRIPES; i++) {
    pthread_mutex_init(&svc->stripes[i].mutex, NULL);
    pthread_cond_init(&svc->stripes[i].released, NULL);
  }
  svc->live = game_live_new(GAME_LIVE_STATES, svc->stripes);
  svc->checkpoints = game_checkpoints_new(); /* a cache: the service runs without it */
  if (!svc->live) {
    game_service_free(svc);
    return NULL;
  }
  return svc;
}

void game_service_free(struct game_service *svc)
{
  int i;

  if (!svc)
    return;
  game_sweeper_stop(svc);
  game_live_free(svc->live);
  game_checkpoints_free(svc->checkpoints);
  for (i = 0; i < GAME_STRIPES; i++) {
    pthread_mutex_destroy(&svc->stripes[i].mutex);
    pthread_cond_destroy(&svc->stripes[i].released);
  }
  free(svc);
}

static struct game_stripe *stripe_of(struct game_service *svc, const char *game_id)
{
  return &svc->stripes[db_id_hash(game_id) % GAME_STRIPES];
}

/* The place of `game_id` in the stripe's held[] ("" finds a free place),
 * or NULL. */
static char *held_place(struct game_stripe *s, const char *game_id)
{
  int i;

  for (i = 0; i < GAME_HELD_MAX; i++)
    if (strcmp(s->held[i], game_id) == 0)
      return s->held[i];
  return NULL;
}

/*
 * A game is locked by marking its id in its stripe, under the stripe's
 * mutex, which is let go at once: the game's moves hold the mark through
 * their durable commit, the stripe's mutex only for a few comparisons.
 * (The lock was the stripe's mutex itself until issue 22: a move's fsync
 * then stalled every game of its stripe.) A waiter sleeps on the stripe's
 * condition, which every unlock of the stripe broadcasts: with 1,024
 * stripes, rarely more than one game of a stripe is in use.
 */
void game_lock(struct game_service *svc, const char *game_id)
{
  struct game_stripe *s = stripe_of(svc, game_id);
  char *place = NULL;

  pthread_mutex_lock(&s->mutex);
  while (held_place(s, game_id) || !(place = held_place(s, "")))
    pthread_cond_wait(&s->released, &s->mutex);
  snprintf(place, DB_ID_MAX + 1, "%s", game_id);
  pthread_mutex_unlock(&s->mutex);
}

void game_unlock(struct game_service *svc, const char *game_id)
{
  struct game_stripe *s = stripe_of(svc, game_id);
  char *place;

  pthread_mutex_lock(&s->mutex);
  place = held_place(s, game_id);
  assert(place); /* unlocking a game nobody locked is a caller's bug */
  if (place)
    place[0] = '\0';
  pthread_cond_broadcast(&s->released);
  pthread_mutex_unlock(&s->mutex);
}

enum cairn_status game_load(struct game_service *svc, const char *game_id, struct db_game *row,
                            struct cairn_error *err)
{
  enum cairn_status st = db_game_load(svc->db, game_id, row, err);

  if (st == CAIRN_ENOTFOUND)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
  return st;
}
