/*
 * remote.c - a change another node committed, turned into the same
 * announcement a change of this node gets (game_commit's), so clients
 * waiting here (long-polls, SSE streams of the game and of its players)
 * hear of a move made on any node (issue 23). Storage hears of the change
 * (db/postgres/listen.c) and cli/main.c hands it here; how clients wait is
 * the listener's (api/notify.c).
 */
#include "game.h"
#include "../log/log.h"

#include <string.h>

/* Who owes a decision in *row now, from the live state (rebuilt from the
 * log when this node's copy is behind the row: game_live_get compares the
 * move counts). Only an active game has anyone to act. */
static enum cairn_status read_turn(struct game_service *svc, const struct db_game *row,
                                   const struct engine_game **state, struct game_turn *turn,
                                   struct cairn_error *err)
{
  enum cairn_status st;

  *state = NULL;
  turn->n = 0;
  if (strcmp(row->status, DB_STATUS_ACTIVE) != 0)
    return CAIRN_OK;
  st = game_live_get(svc, row, state, err);
  if (st == CAIRN_OK)
    turn->n = engine_to_act(*state, turn->seats);
  return st;
}

/* The listener's announce, as game_commit calls it. What the game was
 * before is not known here (another node changed it), so the change is
 * announced from the status it has, with nobody known to have owed. */
static void announce(struct game_service *svc, const struct db_game *row,
                     const struct engine_game *state, const struct game_turn *turn)
{
  const struct game_listener *l = svc->listener;
  struct game_committed change = {.row = row,
                                  .state = state,
                                  .to_act = turn->seats,
                                  .n_to_act = turn->n,
                                  .prev_status = row->status,
                                  .prev_n = 0};

  if (l && l->announce)
    l->announce(svc->listener_ctx, &change);
}

void game_remote_change(struct game_service *svc, const char *game_id, uint32_t moves)
{
  struct db_game row = {0};
  const struct engine_game *state = NULL;
  struct cairn_error err = {0};
  struct game_turn turn;
  enum cairn_status st;

  game_lock(svc, game_id);
  st = game_load(svc, game_id, &row, &err);
  /* Past `moves`: a later change was committed since, and is announced in
   * its own turn, so this one, announced now, would come after it. */
  if (st == CAIRN_OK && row.moves <= moves) {
    st = read_turn(svc, &row, &state, &turn, &err);
    if (st == CAIRN_OK)
      announce(svc, &row, state, &turn);
  }
  game_unlock(svc, game_id);
  if (st != CAIRN_OK)
    log_line(LOG_ERROR, "game", "another node's change to game %s: %s", game_id, err.detail);
  db_game_clear(&row);
}
