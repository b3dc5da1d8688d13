/*
 * bots.c - built-in bot seats, so one person can play any title. A bot is a
 * player whose id starts with GAME_BOT_PREFIX; when it owes a decision the
 * server plays one of its legal moves at random (engine_sample_move) right
 * after the move that handed it the turn (game_commit's last follow-up). Its moves are ordinary log
 * rows, so replay, audit and export treat them like anyone's. The choice comes from libsodium, not
 * the game's generator: which legal move a bot picks is a player's decision, recorded in the log,
 * not a part of the rules. A seat whose player resigned (resign.c) is played
 * the same way from then on.
 *
 * A change and its bots' reply are separate commits, made by the node that
 * committed the change. Should that node die between the two, another
 * node's sweep (game_bots_sweep, on the sweeper's thread) finds the game
 * once its last change is older than BOT_GRACE_MS and plays the bots; two
 * nodes playing one game's bot at once is harmless, since an append is
 * checked against the log's head and only one of them lands.
 */
#include "game.h"
#include "../log/log.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* Enough for any title's longest run of bot decisions between two human
 * ones, and a guard against a title that never hands the turn back. */
#define BOT_MOVES_MAX 10000

bool game_seat_is_bot(const struct db_game *row, int seat)
{
  return strncmp(row->seat_player[seat], GAME_BOT_PREFIX, strlen(GAME_BOT_PREFIX)) == 0;
}

bool game_seat_played_by_bot(const struct db_game *row, int seat)
{
  return game_seat_is_bot(row, seat) || row->seat_resigned[seat];
}

void game_new_id(char out[DB_ID_MAX + 1])
{
  uint8_t raw[10]; /* 80 bits: unguessable, short enough to type */

  randombytes_buf(raw, sizeof(raw));
  sodium_bin2hex(out, DB_ID_MAX + 1, raw, sizeof(raw));
}

enum cairn_status game_bot_player(struct game_service *svc, struct db_player *out,
                                  struct cairn_error *err)
{
  uint8_t hash[DB_HASH_BYTES];
  char id[DB_ID_MAX + 1];

  memset(out, 0, sizeof(*out));
  game_new_id(id);
  snprintf(out->id, sizeof(out->id), "%s%.20s", GAME_BOT_PREFIX, id); /* ids are 20 hex */
  snprintf(out->name, sizeof(out->name), "Random bot");
  randombytes_buf(hash, sizeof(hash));
  return db_player_create(svc->db, out, hash, err);
}

/* The first seat the server plays (a bot's, or a resigned one) that owes a
 * decision, or -1. */
static int bot_to_act(const struct db_game *row, const struct game_turn *turn)
{
  int i;

  for (i = 0; i < turn->n; i++)
    if (game_seat_played_by_bot(row, turn->seats[i]))
      return turn->seats[i];
  return -1;
}

enum cairn_status game_play_sampled(struct game_service *svc, struct db_game *row,
                                    const struct engine_game *state, int seat,
                                    enum game_change_kind kind, struct game_turn *after,
                                    struct cairn_error *err)
{
  struct game_turn ignored;
  json_t *move =
      engine_sample_move(state, seat, randombytes_random() | (uint64_t)randombytes_random() << 32);
  struct game_change change = {.kind = kind, .seat = seat, .move = move};
  json_t *events = NULL;
  enum cairn_status st;

  if (!move)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "seat %d owes a decision but has no legal move", seat);
  st = engine_apply(state, seat, move, &change.next, &events, err);
  change.events = events;
  if (st == CAIRN_OK)
    st = game_commit_turn(svc, row, &change, after ? after : &ignored, err);
  json_decref(move);
  json_decref(events);
  return st;
}

void game_bots_play(struct game_service *svc, struct db_game *row, const struct game_turn *now)
{
  struct cairn_error err = {0};
  const struct engine_game *state = NULL;
  struct game_turn turn = {.n = 0};
  int moves, seat;

  if (now)
    turn = *now;
  for (moves = 0; moves < BOT_MOVES_MAX; moves++) {
    if (strcmp(row->status, DB_STATUS_ACTIVE) != 0)
      return;
    if (game_live_get(svc, row, &state, &err) != CAIRN_OK)
      break;
    if (!now && moves == 0)
      turn.n = engine_to_act(state, turn.seats); /* nobody told us: ask the title once */
    seat = bot_to_act(row, &turn);
    if (seat < 0)
      return;
    /* The next round reads who acts from the commit, not the title. */
    if (game_play_sampled(svc, row, state, seat, GAME_CHANGE_BOT, &turn, &err) != CAIRN_OK)
      break;
  }
  /* A stale append is another node's (or request's) change landing first:
   * whoever moved the game on also answers for its bots. */
  log_line(err.status == CAIRN_ESTALE ? LOG_INFO : LOG_ERROR, "bots", "bots in game %s stopped: %s",
           row->id, err.detail[0] ? err.detail : "too many bot moves in a row");
}

/* One game of game_bots_resume: re-read under the lock, since a request may
 * have played since the listing. */
static enum cairn_status resume_game(void *arg, const char *game_id, struct cairn_error *err)
{
  struct game_service *svc = arg;
  struct db_game row = {0};
  bool bot = false;
  int seat;

  game_lock(svc, game_id);
  if (db_game_load(svc->db, game_id, &row, err) != CAIRN_OK)
    log_line(LOG_ERROR, "bots", "resuming bots in game %s: %s", game_id, err->detail);
  else if (strcmp(row.status, DB_STATUS_ACTIVE) == 0) {
    for (seat = 0; seat < row.seats && !bot; seat++)
      bot = game_seat_played_by_bot(&row, seat);
    if (bot)
      game_bots_play(svc, &row, NULL);
  }
  game_unlock(svc, game_id);
  db_game_clear(&row);
  return CAIRN_OK; /* one game's trouble does not stop the others */
}

void game_bots_resume(struct game_service *svc)
{
  struct cairn_error err = {0};

  if (db_games_active_each(svc->db, resume_game, svc, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "bots", "resuming bots: %s", err.detail);
}

void game_bots_sweep(struct game_service *svc, int64_t from_ms, int64_t to_ms)
{
  struct cairn_error err = {0};

  if (svc->bots_held)
    return;
  if (db_games_bots_idle(svc->db, from_ms, to_ms, resume_game, svc, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "bots", "sweeping for bots owing a move: %s", err.detail);
}
