/*
 * rematch.c - a finished game's rematch (issue 25): a new game with the
 * same title, options, time control and players, each seat moved one
 * along (the player of seat i sits in seat i + 1, the last in seat 0), so
 * whoever moved first moves second. The player who asks takes their new
 * seat at once; the other people are invited to theirs (seats kept for
 * them: they accept or decline, and the game starts when every seat is
 * taken); a bot's seat stays a bot's, played by a new bot player.
 *
 * This file only plans the new game; it is stored as any new game is
 * (game_create, then the asker's join), so a rematch is one more game
 * and nothing of the finished one changes.
 */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The seat of `old` that `player_id` held, or -1. */
static int seat_of(const struct db_game *old, const char *player_id)
{
  int i;

  for (i = 0; i < old->seats; i++)
    if (strcmp(old->seat_player[i], player_id) == 0)
      return i;
  return -1;
}

static enum cairn_status check_rematch(const struct db_game *old, const char *player_id,
                                       struct cairn_error *err)
{
  if (strcmp(old->status, DB_STATUS_FINISHED) != 0)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_FINISHED, NULL,
                      "game %s is %s: a rematch follows a finished game", old->id, old->status);
  /* An imported game's seats are names, nobody here: nobody holds one. */
  if (seat_of(old, player_id) < 0)
    return cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_SEATED, NULL,
                      "only a player of game %s may ask for its rematch", old->id);
  return CAIRN_OK;
}

/* Who sits where in the rematch: seat i's player moves to seat i + 1. */
static void rotate_seats(const struct db_game *old, const char *player_id, struct db_game *row,
                         int levels[ENGINE_MAX_SEATS], int *own_seat)
{
  int i, to;

  for (i = 0; i < old->seats; i++) {
    to = (i + 1) % old->seats;
    /* A bot's seat keeps its level in the rematch. */
    levels[to] = game_seat_is_bot(old, i) ? game_seat_bot_level(old, i) : GAME_NO_BOT;
    if (strcmp(old->seat_player[i], player_id) == 0)
      *own_seat = to;
    else if (levels[to] == GAME_NO_BOT)
      snprintf(row->seat_invited[to], sizeof(row->seat_invited[to]), "%s", old->seat_player[i]);
  }
}

enum cairn_status game_rematch_plan(struct game_service *svc, const struct db_game *old,
                                    const char *player_id, struct db_game *row,
                                    int levels[ENGINE_MAX_SEATS], int *own_seat,
                                    struct engine_game **state, struct cairn_error *err)
{
  json_t *options = NULL;
  enum cairn_status st;
  int i;

  for (i = 0; i < ENGINE_MAX_SEATS; i++)
    levels[i] = GAME_NO_BOT;
  *own_seat = -1;
  st = check_rematch(old, player_id, err);
  if (st != CAIRN_OK)
    return st;
  options = json_loads(old->options_json ? old->options_json : "{}", 0, NULL);
  if (!options)
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "game %s: its stored options cannot be read", old->id);
  st = game_new(svc, old->title, old->seats, options, player_id, row, state, err);
  json_decref(options);
  if (st != CAIRN_OK)
    return st;
  row->move_ms = old->move_ms;
  row->base_ms = old->base_ms;
  row->increment_ms = old->increment_ms;
  row->cap_ms = old->cap_ms;
  snprintf(row->on_timeout, sizeof(row->on_timeout), "%s", old->on_timeout);
  rotate_seats(old, player_id, row, levels, own_seat);
  return CAIRN_OK;
}
