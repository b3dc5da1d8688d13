/*
 * seats.c - a game's beginning: building a new game (its row, seed and
 * start position), storing it with its bot seats, and joining it. A join
 * is one change committed through game_commit: the seat, and when it fills
 * the last seat the start with its clocks and webhook deliveries, in one
 * transaction.
 *
 * Creation writes one transaction too (db_game_create: the row and every
 * bot seat). It never starts a game, since a person's seat is always left
 * free (api/games.c refuses bots in every seat), so there are no clocks to
 * start and no bot owes a move until a join fills the game.
 */
#include "game.h"
#include "../bots/bots.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cairn_status game_new(struct game_service *svc, const char *title, json_int_t seats,
                           const json_t *options, const char *creator, struct db_game *row,
                           struct engine_game **state, struct cairn_error *err)
{
  const struct engine_module *m = engine_find(title);
  struct engine_setup setup;

  if (!m)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "title \"%.64s\" is not one of GET /v1/titles", title);
  if (seats < m->min_seats || seats > m->max_seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "seats: %s takes %d to %d seats", m->id, m->min_seats, m->max_seats);
  game_new_id(row->id);
  snprintf(row->title, sizeof(row->title), "%s", m->id);
  snprintf(row->rules_version, sizeof(row->rules_version), "%s", m->rules_version);
  snprintf(row->status, sizeof(row->status), "%s", DB_STATUS_OPEN);
  snprintf(row->creator, sizeof(row->creator), "%s", creator);
  row->seats = (int)seats;
  row->created_ms = svc->now_ms();
  randombytes_buf(row->seed, sizeof(row->seed));
  row->options_json = options ? json_dumps(options, JSON_COMPACT | JSON_SORT_KEYS) : strdup("{}");
  if (!row->options_json)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  setup.seats = row->seats;
  setup.options = options;
  return engine_new(m, &setup, row->seed, state, err);
}

/* A new bot player for each bot seat, named in row's seats for game_create
 * to seat in the game's own transaction. A failure leaves at most a few bot
 * players behind, seated nowhere, whose tokens nobody ever knew. */
static enum cairn_status bot_players(struct game_service *svc, struct db_game *row,
                                     const int levels[ENGINE_MAX_SEATS], struct cairn_error *err)
{
  struct db_player player;
  enum cairn_status st = CAIRN_OK;
  int seat;

  for (seat = 0; st == CAIRN_OK && seat < row->seats; seat++) {
    if (levels[seat] == GAME_NO_BOT)
      continue;
    st = game_bot_player(svc, levels[seat], &player, err);
    if (st == CAIRN_OK) {
      snprintf(row->seat_player[seat], sizeof(row->seat_player[seat]), "%s", player.id);
      snprintf(row->seat_name[seat], sizeof(row->seat_name[seat]), "%s", player.name);
    }
  }
  return st;
}

enum cairn_status game_create(struct game_service *svc, struct db_game *row,
                              const bool bot[ENGINE_MAX_SEATS], struct engine_game *state,
                              struct cairn_error *err)
{
  int levels[ENGINE_MAX_SEATS], seat;

  for (seat = 0; seat < ENGINE_MAX_SEATS; seat++)
    levels[seat] = bot[seat] ? BOT_RANDOM : GAME_NO_BOT;
  return game_create_leveled(svc, row, levels, state, err);
}

enum cairn_status game_create_leveled(struct game_service *svc, struct db_game *row,
                                      const int levels[ENGINE_MAX_SEATS], struct engine_game *state,
                                      struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int seat, people = 0;

  for (seat = 0; seat < row->seats; seat++)
    people += levels[seat] == GAME_NO_BOT;
  /* A game that started at creation would owe clocks and a bot's first
   * move outside any transaction: a person's seat always stays free. */
  if (people == 0)
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "bots: at least one seat must be left for a person");
  if (st == CAIRN_OK)
    st = bot_players(svc, row, levels, err);
  if (st == CAIRN_OK)
    st = db_game_create(svc->db, row, err);
  if (st != CAIRN_OK) {
    engine_free(state);
    return st;
  }
  game_lock(svc, row->id);
  game_live_put(svc->live, row->id, 0, state);
  game_unlock(svc, row->id);
  return CAIRN_OK;
}

/* The seat a joiner of "any seat" takes: the one kept for them (an
 * invitation, issue 25), else the lowest seat neither taken nor kept for
 * another player; -1 when there is none. */
static int first_free_seat(const struct db_game *row, const char *player_id)
{
  int i;

  for (i = 0; i < row->seats; i++)
    if (!row->seat_player[i][0] && strcmp(row->seat_invited[i], player_id) == 0)
      return i;
  for (i = 0; i < row->seats; i++)
    if (!row->seat_player[i][0] && !row->seat_invited[i][0])
      return i;
  return -1;
}

/* Whether a refused join is worth another try on the game read afresh: the
 * game changed since it was read (stale), or a joiner of "any seat" found
 * its pick taken, or kept for an invited player since it was read. */
static bool retry_join(enum cairn_status st, const struct cairn_error *err, int wanted)
{
  if (st == CAIRN_ESTALE)
    return true;
  return st == CAIRN_ECONFLICT && wanted < 0 && err->code &&
         (strcmp(err->code, CAIRN_CODE_SEAT_TAKEN) == 0 ||
          strcmp(err->code, CAIRN_CODE_SEAT_RESERVED) == 0);
}

/* Under the lock. Take the `wanted` seat, or any free one (wanted < 0),
 * committed as one change. Every join takes the game lock, so joiners of
 * one game meet here one at a time; the store still decides races (a
 * conditional write: seat-taken, already-seated, game-not-open) and a
 * joiner that lost reads the game again and, when it asked for any seat,
 * tries the next free one, so it is refused only once none is left. */
static enum cairn_status take_a_seat(struct game_service *svc, struct db_game *row,
                                     const struct db_player *player, int wanted, int *taken,
                                     struct cairn_error *err)
{
  struct game_change change = {
      .kind = GAME_CHANGE_JOIN, .player_id = player->id, .player_name = player->name};
  enum cairn_status st = CAIRN_OK;
  char id[DB_ID_MAX + 1];
  int tries;

  snprintf(id, sizeof(id), "%s", row->id);
  for (tries = 0; tries <= ENGINE_MAX_SEATS; tries++) {
    change.seat = wanted >= 0 ? wanted : first_free_seat(row, player->id);
    *taken = change.seat;
    if (change.seat < 0)
      return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_OPEN, NULL,
                        "every seat of game %s is taken", id);
    st = game_commit(svc, row, &change, err);
    if (!retry_join(st, err, wanted))
      return st;
    db_game_clear(row);
    st = game_load(svc, id, row, err);
    if (st != CAIRN_OK)
      return st;
  }
  return st;
}

enum cairn_status game_join(struct game_service *svc, const char *game_id,
                            const struct db_player *player, const json_int_t *wanted, int *taken,
                            struct cairn_error *err)
{
  struct db_game row = {0};
  enum cairn_status st;

  game_lock(svc, game_id);
  st = game_load(svc, game_id, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (wanted && (*wanted < 0 || *wanted >= row.seats)) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                    "seat must be 0 to %d in this game", row.seats - 1);
    goto cleanup;
  }
  st = take_a_seat(svc, &row, player, wanted ? (int)*wanted : -1, taken, err);
cleanup:
  game_unlock(svc, game_id);
  db_game_clear(&row);
  return st;
}

int game_invited_seat(const struct db_game *row, const char *player_id)
{
  int i;

  for (i = 0; i < row->seats; i++)
    if (strcmp(row->seat_invited[i], player_id) == 0)
      return i;
  return -1;
}

enum cairn_status game_accept(struct game_service *svc, const char *game_id,
                              const struct db_player *player, int *taken, struct cairn_error *err)
{
  struct db_game row = {0};
  enum cairn_status st;
  int seat;

  game_lock(svc, game_id);
  st = game_load(svc, game_id, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  seat = game_invited_seat(&row, player->id);
  if (seat < 0) {
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                    "no invitation of yours to game %s is open", game_id);
    goto cleanup;
  }
  st = take_a_seat(svc, &row, player, seat, taken, err);
cleanup:
  game_unlock(svc, game_id);
  db_game_clear(&row);
  return st;
}

enum cairn_status game_decline(struct game_service *svc, const char *game_id,
                               const struct db_player *player, struct cairn_error *err)
{
  enum cairn_status st;

  game_lock(svc, game_id);
  st = db_invitation_decline(svc->db, game_id, player->id, err);
  game_unlock(svc, game_id);
  return st;
}

enum cairn_status game_cancel(struct game_service *svc, const char *game_id,
                              const struct db_player *player, struct cairn_error *err)
{
  struct db_game row = {0};
  enum cairn_status st;

  game_lock(svc, game_id);
  st = game_load(svc, game_id, &row, err);
  if (st == CAIRN_OK && strcmp(row.creator, player->id) != 0)
    st = cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_CREATOR, NULL,
                    "only the creator of game %s may cancel it", game_id);
  if (st == CAIRN_OK)
    st = db_game_cancel(svc->db, game_id, svc->now_ms(), err);
  game_unlock(svc, game_id);
  db_game_clear(&row);
  return st;
}
