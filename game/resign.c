/*
 * resign.c - a seat's resignation: the turn checks, what it means (the
 * game ends, or the server's bot takes the seat over; game.h has the rule),
 * and one platform row {"cairn":"resign"} through game_commit, which marks
 * the seat resigned in the row's transaction. Replay, audit and export meet
 * the row like any platform row (takeback.c's game_platform_apply); the
 * takeback policy never reaches back past it. The endpoint is
 * api/resign.c's.
 */
#include "fog.h"
#include "game.h"

#include <stdlib.h>
#include <string.h>

/* Whether the game ends when `seat` resigns: always with one or two seats;
 * with more, once no seat held by a person is left unresigned. */
static bool resignation_ends(const struct db_game *row, int seat)
{
  int other;

  if (row->seats <= 2)
    return true;
  for (other = 0; other < row->seats; other++)
    if (other != seat && !game_seat_played_by_bot(row, other))
      return false;
  return true;
}

/* OUT, caller frees with free(): the result of a resignation that ends the
 * game, as JSON text; NULL when out of memory. */
static char *resignation_result(const struct db_game *row, int seat)
{
  json_t *winners = json_array();
  json_t *result;
  char *text;
  int other;

  for (other = 0; other < row->seats; other++)
    if (other != seat && !row->seat_resigned[other])
      json_array_append_new(winners, json_integer(other));
  result = json_pack("{s:o, s:s, s:i}", "winners", winners, "reason", "resignation", "seat", seat);
  text = result ? json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(result);
  return text;
}

/* The row, its events and state after it, then the commit. */
static enum cairn_status commit_resignation(struct game_service *svc, struct db_game *row, int seat,
                                            const struct engine_game *now, json_t **events,
                                            uint32_t *seq_after, struct cairn_error *err)
{
  struct db_move probe = {.ord = row->moves, .seq = row->seq, .seat = seat}; /* the row to be */
  json_t *move = json_pack("{s:s}", "cairn", "resign");
  struct engine_game *next = engine_clone(now);
  bool ends = resignation_ends(row, seat);
  char *result = ends ? resignation_result(row, seat) : NULL;
  enum cairn_status st;

  if (!move || !next || (ends && !result)) {
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    goto cleanup;
  }
  st = game_platform_apply(move, &probe, &next, events, NULL, NULL, err);
  if (st == CAIRN_OK) {
    struct game_change change = {.kind = GAME_CHANGE_RESIGN,
                                 .seat = seat,
                                 .move = move,
                                 .events = *events,
                                 .next = next,
                                 .result_json = result};

    *seq_after = next->seq;
    next = NULL; /* taken */
    st = game_commit(svc, row, &change, err);
  }
cleanup:
  if (st != CAIRN_OK) {
    json_decref(*events);
    *events = NULL;
  }
  engine_free(next);
  free(result);
  json_decref(move);
  return st;
}

enum cairn_status game_resign(struct game_service *svc, struct db_game *row, int seat,
                              json_int_t seq, json_t **events, uint32_t *seq_after,
                              struct cairn_error *err)
{
  const struct engine_game *now = NULL;
  enum cairn_status st = game_check_turn(row, seat, seq, err);

  *events = NULL;
  if (st == CAIRN_OK)
    st = game_live_get(svc, row, &now, err);
  if (st != CAIRN_OK)
    return st;
  return commit_resignation(svc, row, seat, now, events, seq_after, err);
}
