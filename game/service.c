/*
 * service.c - the game service itself: making and releasing it, the
 * per-game stripe locks and loading a game row. What a service does with a
 * game is in the other files of game/ (commit.c first).
 */
#include "game.h"

#include <stdlib.h>

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
  for (i = 0; i < GAME_STRIPES; i++)
    pthread_mutex_init(&svc->locks[i], NULL);
  svc->live = game_live_new(GAME_LIVE_STATES);
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
  for (i = 0; i < GAME_STRIPES; i++)
    pthread_mutex_destroy(&svc->locks[i]);
  free(svc);
}

void game_lock(struct game_service *svc, const char *game_id)
{
  pthread_mutex_lock(&svc->locks[db_id_hash(game_id) % GAME_STRIPES]);
}

void game_unlock(struct game_service *svc, const char *game_id)
{
  pthread_mutex_unlock(&svc->locks[db_id_hash(game_id) % GAME_STRIPES]);
}

enum cairn_status game_load(struct game_service *svc, const char *game_id, struct db_game *row,
                            struct cairn_error *err)
{
  enum cairn_status st = db_game_load(svc->db, game_id, row, err);

  if (st == CAIRN_ENOTFOUND)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s", game_id);
  return st;
}
