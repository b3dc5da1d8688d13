/*
 * verdict.c - the refusals of checked writes, the same for every backend
 * (verdict.h).
 */
#include "verdict.h"

#include "../log/log.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum cairn_status db_verdict_append(const char *game_id, const char *status, uint32_t moves,
                                    uint32_t ord, struct cairn_error *err)
{
  if (strcmp(status, DB_STATUS_ACTIVE) != 0)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_ACTIVE, NULL,
                      "game %s is %s, not accepting moves", game_id, status);
  if (ord != moves)
    return cairn_fail(err, CAIRN_ESTALE, CAIRN_CODE_STALE_SEQ, NULL,
                      "game %s has %" PRIu32 " moves; move %" PRIu32 " is stale", game_id, moves,
                      ord);
  return CAIRN_OK;
}

enum cairn_status db_verdict_join(const char *game_id, const char *status, int seats,
                                  const struct db_join *join, enum db_seat_clash clash,
                                  struct cairn_error *err)
{
  if (strcmp(status, DB_STATUS_OPEN) != 0)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_OPEN, NULL,
                      "game %s is %s, not open for joining", game_id, status);
  /* The caller cannot know the seat count without a load of its own, so
   * this is a client's bad value rather than a broken contract. */
  if (join->seat < 0 || join->seat >= seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "seat: game %s has seats 0 to %d, not %d", game_id, seats - 1, join->seat);
  if (clash == DB_SEAT_ALREADY_SEATED)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_ALREADY_SEATED, NULL,
                      "player %s already holds a seat in game %s", join->player_id, game_id);
  if (clash == DB_SEAT_TAKEN)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_SEAT_TAKEN, NULL,
                      "seat %d of game %s is taken", join->seat, game_id);
  if (clash == DB_SEAT_RESERVED)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_SEAT_RESERVED, NULL,
                      "seat %d of game %s is kept for an invited player", join->seat, game_id);
  return CAIRN_OK;
}

enum cairn_status db_verdict_join_start(const char *game_id, const struct db_join *join,
                                        bool started, struct cairn_error *err)
{
  if ((join->expect == DB_JOIN_STARTS && !started) || (join->expect == DB_JOIN_WAITS && started))
    return cairn_fail(err, CAIRN_ESTALE, CAIRN_CODE_STALE_SEQ, NULL,
                      "game %s changed since it was read: the join would %s it", game_id,
                      started ? "start" : "not start");
  return CAIRN_OK;
}

enum cairn_status db_verdict_newer_schema(int found, int known, struct cairn_error *err)
{
  log_line(LOG_ERROR, "db", "schema version %d is newer than this server's %d", found, known);
  return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                    "the database has schema version %d but this server knows only up to %d; "
                    "run a newer server (downgrading is not supported)",
                    found, known);
}

bool db_invited_parse(const char *text, struct db_game *out)
{
  char kept[ENGINE_MAX_SEATS][DB_ID_MAX + 1] = {{0}};
  const char *at = text;

  while (at && *at) {
    char *end;
    long seat = strtol(at, &end, 10);
    size_t n;

    if (end == at || *end != ':' || seat < 0 || seat >= out->seats)
      return false;
    at = end + 1;
    n = strcspn(at, ",");
    if (n == 0 || n > DB_ID_MAX)
      return false;
    memcpy(kept[seat], at, n);
    at += n + (at[n] == ',');
  }
  memcpy(out->seat_invited, kept, sizeof(kept));
  return true;
}
