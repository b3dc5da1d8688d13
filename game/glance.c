/*
 * glance.c - reading a live game from outside: its row and who owes a
 * decision, under the game's lock, for the HTTP side's listings and
 * waits, which so never load rows and states themselves. What a viewer may
 * see of a game (its view) is rendered by api/games.c from the cached
 * state, under the same lock.
 */
#include "game.h"

#include <string.h>

enum cairn_status game_glance(struct game_service *svc, const char *game_id,
                              const char *only_status, struct db_game *row,
                              int to_act[ENGINE_MAX_SEATS], int *n_to_act, struct cairn_error *err)
{
  const struct engine_game *state = NULL;
  enum cairn_status st;

  *n_to_act = 0;
  game_lock(svc, game_id);
  st = game_load(svc, game_id, row, err);
  if (st == CAIRN_OK && strcmp(row->status, DB_STATUS_ACTIVE) == 0 &&
      (!only_status || strcmp(only_status, row->status) == 0)) {
    st = game_live_get(svc, row, &state, err);
    if (st == CAIRN_OK)
      *n_to_act = engine_to_act(state, to_act);
  }
  game_unlock(svc, game_id);
  if (st != CAIRN_OK)
    db_game_clear(row);
  return st;
}
