/*
 * bots.c - built-in bot seats, so one person can play any title. A bot is a
 * player whose id starts with API_BOT_PREFIX; when it owes a decision the
 * server plays one of its legal moves at random (engine_sample_move) right
 * after the move that handed it the turn. Its moves are ordinary log rows,
 * so replay, audit and export treat them like anyone's. The choice comes
 * from libsodium, not the game's generator: which legal move a bot picks is
 * a player's decision, recorded in the log, not a part of the rules.
 */
#include "api.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* Enough for any title's longest run of bot decisions between two human
 * ones, and a guard against a title that never hands the turn back. */
#define BOT_MOVES_MAX 10000

bool api_seat_is_bot(const struct db_game *row, int seat)
{
  return strncmp(row->seat_player[seat], API_BOT_PREFIX, strlen(API_BOT_PREFIX)) == 0;
}

enum cairn_status api_bot_player(struct api_server *server, struct db_player *out,
                                 struct cairn_error *err)
{
  uint8_t hash[DB_HASH_BYTES];
  char id[DB_ID_MAX + 1];

  memset(out, 0, sizeof(*out));
  api_new_id(id);
  snprintf(out->id, sizeof(out->id), "%s%.20s", API_BOT_PREFIX, id); /* ids are 20 hex */
  snprintf(out->name, sizeof(out->name), "Random bot");
  randombytes_buf(hash, sizeof(hash));
  return db_player_create(server->db, out, hash, err);
}

/* The first bot seat that owes a decision, or -1. */
static int bot_to_act(const struct db_game *row, const struct engine_game *state)
{
  int seats[ENGINE_MAX_SEATS];
  int n = state->module->to_act(state, seats);
  int i;

  for (i = 0; i < n; i++)
    if (api_seat_is_bot(row, seats[i]))
      return seats[i];
  return -1;
}

static enum cairn_status play_one(struct api_server *server, struct db_game *row,
                                  const struct engine_game *state, int seat,
                                  struct cairn_error *err)
{
  json_t *move =
      engine_sample_move(state, seat, randombytes_random() | (uint64_t)randombytes_random() << 32);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  enum cairn_status st;

  if (!move)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "bot in seat %d owes a decision but has no legal move", seat);
  st = engine_apply(state, seat, move, &next, &events, err);
  if (st == CAIRN_OK)
    st = api_append_row(server, row, seat, move, events, next, err);
  json_decref(move);
  json_decref(events);
  return st;
}

void api_bots_play(struct api_server *server, struct db_game *row)
{
  struct cairn_error err = {0};
  const struct engine_game *state = NULL;
  int moves, seat;

  for (moves = 0; moves < BOT_MOVES_MAX; moves++) {
    if (strcmp(row->status, DB_STATUS_ACTIVE) != 0)
      return;
    if (api_live_get(server, row, &state, &err) != CAIRN_OK)
      break;
    seat = bot_to_act(row, state);
    if (seat < 0)
      return;
    if (play_one(server, row, state, seat, &err) != CAIRN_OK)
      break;
  }
  fprintf(stderr, "cairn: bots in game %s stopped: %s\n", row->id,
          err.detail[0] ? err.detail : "too many bot moves in a row");
}
