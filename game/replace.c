/*
 * replace.c - a late seat handed to a bot when the other people agree
 * (issue 25).
 *
 * A seat whose deadline has passed (its clock ran out; under on_timeout
 * "wait" the sweeper leaves it so, waiting for this vote) may be replaced:
 * every other seat held by a person that has not resigned votes, and the
 * vote that completes the set hands the seat to a new bot player of the
 * level the first vote named. Each vote is a platform row of the voter's
 * seat, the replacement one of the late seat:
 *   {"cairn":"replace-vote","seat":s,"level":l}   state unchanged, seq unchanged
 *   {"cairn":"replace","level":l,"player":p,"voter":v}
 *                                                 state unchanged, seq + 1: the
 *                                                 row's seat is bot p's from now
 * committed through game_commit (the replacement writes the seat's new
 * player in its row's transaction), replayed by takeback.c's
 * game_platform_apply like every platform row. A move of the late seat
 * cancels the votes before it (its person came back). A seat so replaced
 * holds a bot, so the game is unrated (ratings.c rates only games whose
 * seats are all people), and its person no longer sits in it.
 */
#include "audit.h"
#include "game.h"
#include "../bots/bots.h"

#include <stdio.h>
#include <string.h>

#define KIND_VOTE    "replace-vote"
#define KIND_REPLACE "replace"

bool game_replace_row(const char *kind)
{
  return strcmp(kind, KIND_VOTE) == 0 || strcmp(kind, KIND_REPLACE) == 0;
}

enum cairn_status game_replace_apply(const json_t *move, const struct db_move *row,
                                     struct engine_game **state, json_t **events,
                                     struct cairn_error *err)
{
  const char *kind = json_string_value(json_object_get(move, "cairn"));
  const char *level = json_string_value(json_object_get(move, "level"));
  struct engine_game *next;

  if (!level)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "log row %u is a malformed replacement row", row->ord);
  if (strcmp(kind, KIND_VOTE) == 0) {
    *events = json_pack("[{s:s, s:i, s:O, s:s}]", "type", "replace_voted", "seat", row->seat,
                        "late_seat", json_object_get(move, "seat"), "level", level);
    return *events ? CAIRN_OK
                   : cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                                "log row %u is a malformed vote", row->ord);
  }
  next = engine_clone(*state);
  if (!next)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  next->seq = (*state)->seq + 1; /* a seat changing hands is a step of its own, as a resignation */
  engine_free(*state);
  *state = next;
  *events = json_pack("[{s:s, s:i, s:s, s:O}]", "type", "seat_replaced", "seat", row->seat, "level",
                      level, "voter", json_object_get(move, "voter"));
  return *events ? CAIRN_OK
                 : cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                              "log row %u is a malformed replacement", row->ord);
}

/* ---- the policy ---- */

/* The votes to replace `late` since its last move of its own. */
struct votes {
  bool voted[ENGINE_MAX_SEATS];
  bool open;      /* any vote stands */
  char level[16]; /* the first standing vote's level */
};

static void count_votes(const struct game_log *log, int late, struct votes *v)
{
  size_t i;

  memset(v, 0, sizeof(*v));
  for (i = 0; i < log->n; i++) {
    json_t *move = json_loads(log->moves[i].move_json, 0, NULL);
    const char *kind = json_string_value(json_object_get(move, "cairn"));

    if (!kind && log->moves[i].seat == late) {
      memset(v, 0, sizeof(*v)); /* its person came back */
    } else if (kind && strcmp(kind, KIND_VOTE) == 0 &&
               json_integer_value(json_object_get(move, "seat")) == late) {
      const char *level = json_string_value(json_object_get(move, "level"));

      if (!v->open) /* a row without one (none is written so) names no level: refused below */
        snprintf(v->level, sizeof(v->level), "%s", level ? level : "");
      v->voted[log->moves[i].seat] = true;
      v->open = true;
    }
    json_decref(move);
  }
}

/* The checks on the late seat itself: in range, a person's, out of time. */
static enum cairn_status check_late(struct game_service *svc, const struct db_game *row, int voter,
                                    json_int_t late, struct cairn_error *err)
{
  int overdue[ENGINE_MAX_SEATS], n, i;

  if (late < 0 || late >= row->seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "/seat",
                      "seat must be a seat of the game, 0 to %d", row->seats - 1);
  if (late == voter)
    return cairn_fail(err, CAIRN_ECONFLICT, GAME_CODE_NO_REPLACE, NULL,
                      "seat %d cannot vote on its own replacement", voter);
  if (game_seat_played_by_bot(row, (int)late))
    return cairn_fail(err, CAIRN_ECONFLICT, GAME_CODE_NO_REPLACE, NULL,
                      "seat %d is played by the server already (a bot's, or resigned)", (int)late);
  n = game_clocks_overdue(svc, row, overdue);
  for (i = 0; i < n; i++)
    if (overdue[i] == late)
      return CAIRN_OK;
  return cairn_fail(err, CAIRN_ECONFLICT, GAME_CODE_NO_REPLACE, NULL,
                    "seat %d is not out of time: only a seat whose deadline has passed may be "
                    "replaced",
                    (int)late);
}

/* Commit the platform row `move` as a change of `kind` by `seat`. */
static enum cairn_status commit_row(struct game_service *svc, struct db_game *row,
                                    const struct engine_game *now, struct game_change *change,
                                    json_t **events, uint32_t *seq_after, struct cairn_error *err)
{
  struct db_move probe = {.ord = row->moves, .seq = row->seq, .seat = change->seat};
  struct engine_game *next = engine_clone(now);
  enum cairn_status st;

  if (!next)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  st = game_replace_apply(change->move, &probe, &next, events, err);
  if (st != CAIRN_OK) {
    engine_free(next);
    return st;
  }
  *seq_after = next->seq;
  change->events = *events;
  change->next = next; /* taken by game_commit */
  st = game_commit(svc, row, change, err);
  if (st != CAIRN_OK) {
    json_decref(*events);
    *events = NULL;
  }
  return st;
}

/* The vote that completes the set: a new bot player takes the seat. */
static enum cairn_status replace_seat(struct game_service *svc, struct db_game *row,
                                      const struct engine_game *now, int voter, int late,
                                      enum bot_level level, json_t **events, uint32_t *seq_after,
                                      struct cairn_error *err)
{
  struct db_player bot;
  json_t *move = NULL;
  enum cairn_status st = game_bot_player(svc, level, &bot, err);

  if (st != CAIRN_OK)
    return st;
  move = json_pack("{s:s, s:s, s:s, s:i}", "cairn", KIND_REPLACE, "level", bot_level_name(level),
                   "player", bot.id, "voter", voter);
  if (!move)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  st = commit_row(svc, row, now,
                  &(struct game_change){.kind = GAME_CHANGE_REPLACE,
                                        .seat = late,
                                        .move = move,
                                        .player_id = bot.id,
                                        .player_name = bot.name},
                  events, seq_after, err);
  json_decref(move);
  return st;
}

/* A vote that others still have to join. */
static enum cairn_status vote(struct game_service *svc, struct db_game *row,
                              const struct engine_game *now, int voter, int late,
                              enum bot_level level, json_t **events, uint32_t *seq_after,
                              struct cairn_error *err)
{
  json_t *move = json_pack("{s:s, s:i, s:s}", "cairn", KIND_VOTE, "seat", late, "level",
                           bot_level_name(level));
  enum cairn_status st;

  if (!move)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  st = commit_row(svc, row, now,
                  &(struct game_change){.kind = GAME_CHANGE_REPLACE, .seat = voter, .move = move},
                  events, seq_after, err);
  json_decref(move);
  return st;
}

/* The level of this vote: the standing one's, which a vote may repeat
 * but not change, or the one it names (easy when none). */
static enum cairn_status vote_level(const struct votes *v, const char *named, enum bot_level *level,
                                    struct cairn_error *err)
{
  if (named && !bot_level_named(named, level))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "/level",
                      "level must be \"random\", \"easy\" or \"strong\"");
  if (v->open && named && strcmp(named, v->level) != 0)
    return cairn_fail(err, CAIRN_ECONFLICT, GAME_CODE_NO_REPLACE, NULL,
                      "the standing vote is for a bot of level \"%s\", not \"%s\"", v->level,
                      named);
  if (v->open)
    return bot_level_named(v->level, level)
               ? CAIRN_OK
               : cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                            "a stored vote names an unknown level");
  if (!named)
    *level = BOT_EASY;
  return CAIRN_OK;
}

static enum cairn_status decide(struct game_service *svc, struct db_game *row,
                                const struct engine_game *now, int voter, int late,
                                const char *named, json_t **events, uint32_t *seq_after,
                                struct cairn_error *err)
{
  struct game_log log = {0};
  struct votes v;
  enum bot_level level = BOT_EASY;
  int other, missing = 0;
  enum cairn_status st = db_moves_load(svc->db, row->id, 0, game_log_collect, &log, err);

  if (st == CAIRN_OK) {
    count_votes(&log, late, &v);
    st = vote_level(&v, named, &level, err);
  }
  game_log_clear(&log);
  if (st != CAIRN_OK)
    return st;
  if (v.voted[voter])
    return cairn_fail(err, CAIRN_ECONFLICT, GAME_CODE_NO_REPLACE, NULL,
                      "seat %d has voted to replace seat %d already", voter, late);
  for (other = 0; other < row->seats; other++)
    if (other != voter && other != late && !v.voted[other] && !game_seat_played_by_bot(row, other))
      missing++;
  if (missing)
    return vote(svc, row, now, voter, late, level, events, seq_after, err);
  return replace_seat(svc, row, now, voter, late, level, events, seq_after, err);
}

enum cairn_status game_replace(struct game_service *svc, struct db_game *row, int voter,
                               json_int_t seq, json_int_t late, const char *level, json_t **events,
                               uint32_t *seq_after, struct cairn_error *err)
{
  const struct engine_game *now = NULL;
  enum cairn_status st = game_check_turn(row, voter, seq, err);

  *events = NULL;
  if (st == CAIRN_OK)
    st = check_late(svc, row, voter, late, err);
  if (st == CAIRN_OK)
    st = game_live_get(svc, row, &now, err);
  if (st != CAIRN_OK)
    return st;
  return decide(svc, row, now, voter, (int)late, level, events, seq_after, err);
}
