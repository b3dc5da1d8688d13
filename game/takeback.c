/*
 * takeback.c - undo, as rows appended to the log (never deletions).
 *
 * The fog comes first, in every mode (solo, against bots, people only): a
 * move is never taken back once the mover (or anyone) learned something
 * from it or after it: when any row from it to the end of the log drew from
 * the generator, carried private events, revealed hidden information (the
 * title's event_reveals: a card turned from a deck shuffled ahead, a roll,
 * other seats' secret decisions) or took part in a simultaneous step with
 * another seat (fog.c). Such a takeback is refused with 409 no-takeback
 * naming the row and the reason, never the secret. Otherwise a seat takes
 * back its own latest move at once when it is the last row or nobody else
 * could be asked (a solo game, or only bots); any other takeback is a
 * request that every other person must accept (one decline, or any move,
 * cancels it).
 *
 * Log rows of the platform carry a "cairn" member, which no title move may
 * have (moves.c):
 *   {"cairn":"takeback-request","to_ord":k}   state unchanged, seq unchanged
 *   {"cairn":"takeback-accept","to_ord":k}    state unchanged, seq unchanged
 *   {"cairn":"takeback-decline","to_ord":k}   state unchanged, seq unchanged
 *   {"cairn":"rewind","to_ord":k}             state = after rows 0..k-1,
 *                                             seq = previous seq + 1
 *   {"cairn":"adjudicate","timed_out":[s...]} state unchanged, seq + 1: the
 *                                             game ended on time (timeouts.c)
 *   {"cairn":"resign"}                        state unchanged, seq + 1: the
 *                                             row's seat resigned (resign.c);
 *                                             never taken back, nor anything
 *                                             before it
 *   {"cairn":"replace-vote",...}, {"cairn":"replace",...}
 *                                             a late seat handed to a bot
 *                                             (replace.c)
 * so a rewind is replayed by rebuilding the prefix of the log before row k,
 * which may itself contain rewinds: the same rule applies all the way down.
 *
 * The endpoints are api/takeback.c's: they decode the request and render
 * the answer; the policy and the rows are here.
 */
#include "audit.h"
#include "fog.h"
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIND_REQUEST    "takeback-request"
#define KIND_ACCEPT     "takeback-accept"
#define KIND_DECLINE    "takeback-decline"
#define KIND_REWIND     "rewind"
#define KIND_ADJUDICATE "adjudicate"
#define KIND_RESIGN     "resign"

bool game_platform_move(const json_t *move)
{
  return json_is_string(json_object_get(move, "cairn"));
}

/* New reference: the events a platform row produces, a function of the row
 * alone so replays and audits rebuild them exactly. */
static json_t *platform_events(const char *kind, int seat, json_int_t to_ord)
{
  const char *type = strcmp(kind, KIND_REQUEST) == 0   ? "takeback_requested"
                     : strcmp(kind, KIND_ACCEPT) == 0  ? "takeback_accepted"
                     : strcmp(kind, KIND_DECLINE) == 0 ? "takeback_declined"
                                                       : "taken_back";

  return json_pack("[{s:s, s:i, s:I}]", "type", type, "seat", seat, "to_ord", to_ord);
}

/* {"cairn":"adjudicate","timed_out":[seats]}: the sweeper ended the game
 * against seats that let their time run out (timeouts.c). The position
 * stays as it was, one step later; the result lives in the game row. */
static enum cairn_status adjudicate(const json_t *move, struct engine_game **state, json_t **events,
                                    struct cairn_error *err)
{
  const json_t *seats = json_object_get(move, "timed_out");
  struct engine_game *next;

  if (!json_is_array(seats))
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "an adjudication row names no seats");
  next = engine_clone(*state);
  if (!next)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  next->seq = (*state)->seq + 1;
  engine_free(*state);
  *state = next;
  *events = json_pack("[{s:s, s:O}]", "type", "adjudicated", "timed_out", seats);
  return CAIRN_OK;
}

/* {"cairn":"resign"}: the row's seat resigned (resign.c). The position
 * stays as it was, one step later; what follows (a result, or the bot
 * taking the seat over) lives in the game row. */
static enum cairn_status resign(const struct db_move *row, struct engine_game **state,
                                json_t **events, struct cairn_error *err)
{
  struct engine_game *next = engine_clone(*state);

  if (!next)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  next->seq = (*state)->seq + 1;
  engine_free(*state);
  *state = next;
  *events = json_pack("[{s:s, s:i}]", "type", "resigned", "seat", row->seat);
  return CAIRN_OK;
}

enum cairn_status game_platform_apply(const json_t *move, const struct db_move *row,
                                      struct engine_game **state, json_t **events,
                                      game_prefix_fn prefix, void *ctx, struct cairn_error *err)
{
  const char *kind = json_string_value(json_object_get(move, "cairn"));
  json_int_t to_ord = json_integer_value(json_object_get(move, "to_ord"));
  struct engine_game *before = NULL;
  enum cairn_status st;

  *events = NULL;
  if (kind && strcmp(kind, KIND_ADJUDICATE) == 0)
    return adjudicate(move, state, events, err);
  if (kind && strcmp(kind, KIND_RESIGN) == 0)
    return resign(row, state, events, err);
  if (kind && game_replace_row(kind))
    return game_replace_apply(move, row, state, events, err);
  if (!kind || !json_is_integer(json_object_get(move, "to_ord")) || to_ord < 0 ||
      to_ord >= row->ord)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "log row %u is a malformed platform row", row->ord);
  if (strcmp(kind, KIND_REWIND) == 0) {
    st = prefix(ctx, (uint32_t)to_ord, &before, err);
    if (st != CAIRN_OK)
      return st;
    before->seq = (*state)->seq + 1; /* a takeback is a step of its own */
    engine_free(*state);
    *state = before;
  } else if (strcmp(kind, KIND_REQUEST) != 0 && strcmp(kind, KIND_ACCEPT) != 0 &&
             strcmp(kind, KIND_DECLINE) != 0) {
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "log row %u is an unknown platform row \"%s\"", row->ord, kind);
  }
  *events = platform_events(kind, row->seat, to_ord);
  return CAIRN_OK;
}

/* ---- the policy ---- */

/* What the log says about takebacks right now. */
struct takeback_scan {
  long target;       /* ord of the caller's latest move since the last rewind, -1 */
  long request;      /* ord of the open request's row, -1 if none */
  json_int_t to_ord; /* the open request's target */
  int requester;     /* the open request's seat */
  bool accepted[ENGINE_MAX_SEATS];
  bool asked; /* the caller has asked since the last title move or rewind */
};

static void scan_log(const struct game_log *log, int seat, struct takeback_scan *scan)
{
  size_t i;

  memset(scan, 0, sizeof(*scan));
  scan->target = -1;
  scan->request = -1;
  for (i = 0; i < log->n; i++) {
    const struct db_move *m = &log->moves[i];
    json_t *move = json_loads(m->move_json, 0, NULL);
    const char *kind = json_string_value(json_object_get(move, "cairn"));

    if (!kind) {
      if (m->seat == seat)
        scan->target = (long)m->ord;
      scan->request = -1; /* moving on cancels an open request */
      scan->asked = false;
    } else if (strcmp(kind, KIND_REWIND) == 0 || strcmp(kind, KIND_RESIGN) == 0 ||
               strcmp(kind, "replace") == 0) {
      /* Nothing before a rewind is taken back again, and nothing before a
       * resignation or a seat's replacement at all: a rewind past it would
       * undo it. */
      scan->target = -1;
      scan->request = -1;
      scan->asked = false;
    } else if (strcmp(kind, KIND_REQUEST) == 0) {
      scan->asked = scan->asked || m->seat == seat;
      scan->request = (long)m->ord;
      scan->to_ord = json_integer_value(json_object_get(move, "to_ord"));
      scan->requester = m->seat;
      memset(scan->accepted, 0, sizeof(scan->accepted));
    } else if (strcmp(kind, KIND_ACCEPT) == 0) {
      scan->accepted[m->seat] = true;
    } else if (strcmp(kind, KIND_DECLINE) == 0) {
      scan->request = -1;
    }
    json_decref(move);
  }
}

struct prefix_ctx {
  struct game_service *svc;
  const struct db_game *row;
};

static enum cairn_status stored_prefix(void *arg, uint32_t rows, struct engine_game **out,
                                       struct cairn_error *err)
{
  struct prefix_ctx *p = arg;

  return game_replay_rows(p->svc, p->row, rows, out, err);
}

/* 409 no-takeback: row `r` showed something since `target`, said without
 * saying what. */
static enum cairn_status refuse(struct cairn_error *err, size_t target, size_t r, const char *why)
{
  return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_NO_TAKEBACK, NULL,
                    "the move of row %zu can never be taken back: row %zu %s", target, r, why);
}

/* The generator's position after the first `rows` rows, into *drawn. */
static enum cairn_status drawn_after(struct game_service *svc, const struct db_game *row,
                                     size_t rows, uint64_t *drawn, struct cairn_error *err)
{
  struct engine_game *state = NULL;
  enum cairn_status st = game_replay_rows(svc, row, (uint32_t)rows, &state, err);

  if (st == CAIRN_OK)
    *drawn = state->rng.drawn;
  engine_free(state);
  return st;
}

/* Refuse when a row from `target` on drew from the generator (a roll, a
 * shuffle), naming the first such row: one replay per row, only once a
 * draw is known to have happened. */
static enum cairn_status check_draws(struct game_service *svc, const struct db_game *row,
                                     const struct game_log *log, size_t target,
                                     const struct engine_game *now, struct cairn_error *err)
{
  uint64_t before, after;
  size_t r;
  enum cairn_status st = drawn_after(svc, row, target, &before, err);

  if (st != CAIRN_OK || before == now->rng.drawn)
    return st;
  for (r = target; r + 1 < log->n; r++) {
    st = drawn_after(svc, row, r + 1, &after, err);
    if (st != CAIRN_OK)
      return st;
    if (after != before)
      break;
  }
  return refuse(err, target, r, "drew from the generator (a roll or a shuffle)");
}

/* The fog (see the file comment): CAIRN_OK when nothing from `target` to
 * the end of the log showed anyone anything. */
static enum cairn_status check_fog(struct game_service *svc, const struct db_game *row,
                                   const struct game_log *log, size_t target,
                                   const struct engine_game *now, struct cairn_error *err)
{
  size_t r;

  for (r = target; r < log->n; r++) {
    const char *why = game_fog_row_secret(now->module, log->moves, r);

    if (why)
      return refuse(err, target, r, why);
  }
  return check_draws(svc, row, log, target, now, err);
}

/* What a takeback committed, for its answer. */
struct outcome {
  json_t *events; /* new reference: the row's events */
  uint32_t seq;   /* the seq it reached */
};

/* Commit the platform row {cairn: kind, to_ord} for `seat`. */
static enum cairn_status append_platform_row(struct game_service *svc, struct db_game *row,
                                             int seat, const char *kind, json_int_t to_ord,
                                             const struct engine_game *now, struct outcome *out,
                                             struct cairn_error *err)
{
  struct prefix_ctx ctx = {svc, row};
  struct db_move probe = {.ord = row->moves, .seq = row->seq, .seat = seat};
  json_t *move = json_pack("{s:s, s:I}", "cairn", kind, "to_ord", to_ord);
  struct engine_game *next = engine_clone(now);
  json_t *events = NULL;
  enum cairn_status st;

  if (!move || !next) {
    engine_free(next);
    json_decref(move);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  st = game_platform_apply(move, &probe, &next, &events, stored_prefix, &ctx, err);
  if (st == CAIRN_OK) {
    struct game_change change = {
        .kind = GAME_CHANGE_TAKEBACK, .seat = seat, .move = move, .events = events, .next = next};

    out->seq = next->seq;
    next = NULL;
    st = game_commit(svc, row, &change, err);
  }
  if (st == CAIRN_OK) {
    out->events = events;
    events = NULL;
  }
  engine_free(next);
  json_decref(events);
  json_decref(move);
  return st;
}

/* Seats other than `seat` held by people. Bots never stand in the way of a
 * takeback: they would have to be asked and could only say yes or no at
 * random, and a bot seat that never answers would leave the request hanging
 * until someone moves. So a request only bots would answer rewinds at once,
 * and otherwise only the people are asked. The fog has been checked first,
 * so no rewind ever shows a bot's secret to anyone. */
static int humans_besides(const struct db_game *row, int seat)
{
  int other, n = 0;

  for (other = 0; other < row->seats; other++)
    if (other != seat && !game_seat_played_by_bot(row, other))
      n++;
  return n;
}

/* POST takeback: the fog, then a rewind when nobody needs asking (the
 * last row, or no other person seated), else a request. */
static enum cairn_status ask(struct game_service *svc, struct db_game *row, int seat,
                             const struct takeback_scan *scan, const struct game_log *log,
                             const struct engine_game *now, struct outcome *out,
                             struct cairn_error *err)
{
  enum cairn_status st;

  if (scan->request >= 0)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_NO_TAKEBACK, NULL,
                      "a takeback of row %lld is already awaiting answers",
                      (long long)scan->to_ord);
  if (scan->target < 0)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_NO_TAKEBACK, NULL,
                      "seat %d has no move to take back", seat);
  /* Request and decline, again and again, grew the log without end and
   * made every takeback replay more of it: one request a turn. */
  if (scan->asked)
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_NO_TAKEBACK, NULL,
                      "seat %d has asked for a takeback since the last move; one request a turn",
                      seat);
  st = check_fog(svc, row, log, (size_t)scan->target, now, err);
  if (st != CAIRN_OK)
    return st;
  if (humans_besides(row, seat) == 0 || (size_t)scan->target + 1 == log->n)
    return append_platform_row(svc, row, seat, KIND_REWIND, scan->target, now, out, err);
  return append_platform_row(svc, row, seat, KIND_REQUEST, scan->target, now, out, err);
}

static enum cairn_status decide(struct game_service *svc, struct db_game *row, int seat,
                                enum game_takeback_action action, const struct game_log *log,
                                const struct engine_game *now, struct outcome *out,
                                struct cairn_error *err)
{
  struct takeback_scan scan;
  int other, missing = 0;
  enum cairn_status st;

  scan_log(log, seat, &scan);
  if (action == GAME_TAKEBACK_ASK)
    return ask(svc, row, seat, &scan, log, now, out, err);
  if (scan.request < 0 || scan.requester == seat || scan.accepted[seat])
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_NO_TAKEBACK, NULL,
                      "there is no takeback awaiting an answer from seat %d", seat);
  if (action == GAME_TAKEBACK_DECLINE)
    return append_platform_row(svc, row, seat, KIND_DECLINE, scan.to_ord, now, out, err);
  for (other = 0; other < row->seats; other++)
    if (other != scan.requester && other != seat && !scan.accepted[other] &&
        !game_seat_played_by_bot(row, other))
      missing++;
  if (missing)
    return append_platform_row(svc, row, seat, KIND_ACCEPT, scan.to_ord, now, out, err);
  /* The last acceptance is the rewind itself: one row, one commit. The fog
   * is judged again, for a request a laxer build may have opened. */
  st = check_fog(svc, row, log, (size_t)scan.to_ord, now, err);
  if (st != CAIRN_OK)
    return st;
  return append_platform_row(svc, row, seat, KIND_REWIND, scan.to_ord, now, out, err);
}

enum cairn_status game_takeback(struct game_service *svc, struct db_game *row, int seat,
                                json_int_t seq, enum game_takeback_action action, json_t **events,
                                uint32_t *seq_after, struct cairn_error *err)
{
  struct game_log log = {0};
  struct outcome out = {0};
  const struct engine_game *now = NULL;
  enum cairn_status st = game_check_turn(row, seat, seq, err);

  *events = NULL;
  if (st == CAIRN_OK)
    st = game_live_get(svc, row, &now, err);
  if (st == CAIRN_OK)
    st = db_moves_load(svc->db, row->id, 0, game_log_collect, &log, err);
  if (st == CAIRN_OK)
    st = decide(svc, row, seat, action, &log, now, &out, err);
  game_log_clear(&log);
  if (st == CAIRN_OK) {
    *events = out.events;
    *seq_after = out.seq;
  }
  return st;
}
