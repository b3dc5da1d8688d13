/*
 * commit.c - game_commit(), the one function through which every change to
 * a game goes (a player's move, a bot's move, a timeout, a takeback row, a
 * resignation, a join), and what must follow any change: the cache swap,
 * the clocks, the listener's announcements and webhooks, and the bots
 * owing a decision. As with Redis's call(), a change's maker never knows
 * what follows it, and nothing that must follow one kind of change can be
 * forgotten by another.
 *
 * Under the game lock: the caller loaded the row and applied the change to a
 * copy of the cached state; here the log row is appended with what it owes
 * (seat clocks, webhook deliveries) in one transaction (the store refuses
 * it if another writer got there first) and only after the commit is the
 * new state swapped into the cache. A failure leaves the log, the row and
 * the cache exactly as they were.
 *
 * The title is asked about the new state once (struct after: its result,
 * who acts) and every follow-up is handed the answer: the clocks, the
 * listener, the mirrored row and the bots each asked again before issue 22
 * (8 result and 8 to_act calls per move, by tests/bench/move_path.sh).
 */
#include "game.h"
#include "ratings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The game as it stood before the change, for the listener. */
struct before {
  char status[DB_STATUS_MAX + 1];
  int to_act[ENGINE_MAX_SEATS];
  int n;
};

static void remember_before(struct game_service *svc, const struct db_game *row,
                            const struct game_change *change, struct before *b)
{
  const struct engine_game *prev = game_live_peek(svc->live, row->id);

  /* A join is announced as a change from an open game, started or not;
   * nobody owed a decision before it. */
  if (change->kind == GAME_CHANGE_JOIN) {
    snprintf(b->status, sizeof(b->status), "%s", DB_STATUS_OPEN);
    b->n = 0;
    return;
  }
  snprintf(b->status, sizeof(b->status), "%s", row->status);
  b->n = prev ? engine_to_act(prev, b->to_act) : 0;
}

/* The game as a log row leaves it, read from the title once. */
struct after {
  json_t *result;        /* owned: the title's result, NULL unless the rules ended it */
  bool ends;             /* the row ends the game (by the rules, or a result decided outside) */
  struct game_turn turn; /* who owes a decision then: nobody once it ends */
};

static void read_after(const struct db_game *row, const struct game_change *change,
                       const struct engine_game *next, struct after *a)
{
  a->result = change->result_json ? NULL : engine_result(next);
  a->ends = change->result_json || a->result;
  a->turn.n = 0;
  if (!a->ends && strcmp(row->status, DB_STATUS_ACTIVE) == 0)
    a->turn.n = engine_to_act(next, a->turn.seats);
}

/* A replacement's seat is its new player's (a bot's) from now on (a vote
 * for one, the same kind of change, hands nothing). */
static void hand_seat(struct db_game *row, const struct game_change *change)
{
  snprintf(row->seat_player[change->seat], sizeof(row->seat_player[0]), "%s", change->player_id);
  snprintf(row->seat_name[change->seat], sizeof(row->seat_name[0]), "%s", change->player_name);
}

/* Committed: the row on disk moved on, so mirror it in *row, and make
 * `next` (taken) the cached state. */
static void mirror_row(struct game_service *svc, struct db_game *row,
                       const struct game_change *change, struct engine_game *next,
                       const struct after *a)
{
  row->moves++;
  row->seq = next->seq;
  row->updated_ms = svc->now_ms(); /* close to the row's own time; the clock restarts */
  if (a->ends)
    snprintf(row->status, sizeof(row->status), "%s", DB_STATUS_FINISHED);
  if (change->result_json) {
    free(row->result_json);
    row->result_json = strdup(change->result_json);
  }
  if (change->kind == GAME_CHANGE_RESIGN)
    row->seat_resigned[change->seat] = true;
  if (change->kind == GAME_CHANGE_REPLACE && change->player_id)
    hand_seat(row, change);
  game_live_put(svc->live, row->id, row->moves, next); /* the clocks were saved with the row */
}

/* The row as the change will leave it, for the listener to judge what it
 * owes before it is written: a shallow copy (its strings are borrowed from
 * *row and never freed through it). */
static void row_after(const struct db_game *row, const struct game_change *change,
                      const struct engine_game *next, const struct after *a, struct db_game *after)
{
  *after = *row;
  after->moves = row->moves + 1;
  after->seq = next->seq;
  if (a->ends)
    snprintf(after->status, sizeof(after->status), "%s", DB_STATUS_FINISHED);
  if (change->result_json)
    after->result_json = (char *)change->result_json; /* borrowed, like the rest */
  if (change->kind == GAME_CHANGE_RESIGN)
    after->seat_resigned[change->seat] = true;
  if (change->kind == GAME_CHANGE_REPLACE && change->player_id)
    hand_seat(after, change);
}

/* What the change will owe: the listener's webhook deliveries. `joined`:
 * a join's player, or NULL. */
static void judge_owed(struct game_service *svc, const struct db_game *after,
                       const struct engine_game *state, const struct game_turn *turn,
                       const json_t *result, const struct before *b, const char *joined,
                       struct game_owed *owed)
{
  const struct game_listener *l = svc->listener;
  struct game_committed change = {.row = after,
                                  .state = state,
                                  .to_act = turn->seats,
                                  .n_to_act = turn->n,
                                  .result = result,
                                  .prev_status = b->status,
                                  .prev_to_act = b->to_act,
                                  .prev_n = b->n,
                                  .joined_player = joined};

  if (l && l->owe_webhooks)
    l->owe_webhooks(svc->listener_ctx, &change, owed);
}

static void announce(struct game_service *svc, const struct db_game *row,
                     const struct engine_game *state, const struct game_turn *turn,
                     const struct before *b)
{
  const struct game_listener *l = svc->listener;
  struct game_committed change = {.row = row,
                                  .state = state,
                                  .to_act = turn->seats,
                                  .n_to_act = turn->n,
                                  .prev_status = b->status,
                                  .prev_to_act = b->to_act,
                                  .prev_n = b->n};

  if (l && l->announce)
    l->announce(svc->listener_ctx, &change);
}

static void send_webhooks(struct game_service *svc, struct game_owed *owed, bool committed)
{
  const struct game_listener *l = svc->listener;

  if (l && l->send_webhooks)
    l->send_webhooks(svc->listener_ctx, owed, committed);
}

static int free_seats(const struct db_game *row)
{
  int seat, n = 0;

  for (seat = 0; seat < row->seats; seat++)
    n += !row->seat_player[seat][0];
  return n;
}

/* The committed join in *row: the seat, and the start if it filled the
 * game; then the stored row itself (its seat names), when it can be read. */
static void mirror_join(struct game_service *svc, struct db_game *row, const struct db_game *after)
{
  char id[DB_ID_MAX + 1];
  struct db_game fresh = {0};
  struct cairn_error ignored = {0};

  memcpy(row->seat_player, after->seat_player, sizeof(row->seat_player));
  memcpy(row->status, after->status, sizeof(row->status));
  row->updated_ms = after->updated_ms;
  snprintf(id, sizeof(id), "%s", row->id);
  if (game_load(svc, id, &fresh, &ignored) == CAIRN_OK) {
    db_game_clear(row);
    *row = fresh;
  }
}

/* A join: no log row. The seat, and if it fills the game the start's
 * bookkeeping, the first clocks and the webhook deliveries the start owes,
 * are written in one transaction, conditional on the game being as *row
 * shows it. *state gets the game's state (its start position). */
static enum cairn_status write_join(struct game_service *svc, struct db_game *row,
                                    const struct game_change *change, const struct before *b,
                                    const struct engine_game **state, struct game_turn *turn,
                                    struct game_owed *owed, struct cairn_error *err)
{
  struct db_clock clocks[ENGINE_MAX_SEATS];
  struct db_join join = {.seat = change->seat, .player_id = change->player_id};
  struct db_game after;
  enum cairn_status st = game_live_get(svc, row, state, err);
  bool starts = strcmp(row->status, DB_STATUS_OPEN) == 0 && free_seats(row) == 1 &&
                !row->seat_player[change->seat][0];

  if (st != CAIRN_OK)
    return st;
  after = *row; /* shallow: its strings stay *row's */
  snprintf(after.seat_player[change->seat], sizeof(after.seat_player[change->seat]), "%s",
           change->player_id);
  if (change->player_name)
    snprintf(after.seat_name[change->seat], sizeof(after.seat_name[change->seat]), "%s",
             change->player_name);
  join.expect = starts ? DB_JOIN_STARTS : DB_JOIN_WAITS;
  turn->n = 0; /* an open game waits for its seats: nobody acts */
  if (starts) {
    snprintf(after.status, sizeof(after.status), "%s", DB_STATUS_ACTIVE);
    after.updated_ms = join.at_ms = svc->now_ms();
    turn->n = engine_to_act(*state, turn->seats);
    join.n_clocks = game_clocks_next(svc, &after, turn, clocks);
    join.clocks = clocks;
  }
  judge_owed(svc, &after, *state, turn, NULL, b, change->player_id, owed);
  join.outbox = owed->rows;
  join.n_outbox = owed->n;
  st = db_seat_join(svc->db, row->id, &join, err);
  owed->stored = st == CAIRN_OK;
  if (st == CAIRN_OK)
    mirror_join(svc, row, &after);
  return st;
}

/* A log row on its way to disk: the change and everything its follow-ups
 * need once the store's verdict is in. On the stack of game_commit_turn, or
 * allocated by game_commit_async until game_commit_finish. */
struct game_row_job {
  struct game_service *svc;
  struct db_game *row;       /* borrowed: the caller's, mirrored once committed */
  struct game_change change; /* its `next` is the job's: */
  struct engine_game *next;  /* owned: the state after the row, until it is cached */
  struct before b;
  struct after a;
  struct game_owed owed;
  struct db_clock clocks[ENGINE_MAX_SEATS];
  struct db_move entry; /* the row, its texts the job's: */
  char *move_text, *events_text, *result_text;
  struct game_rating_plan plan; /* what the end of a rated game writes (issue 25) */
  enum cairn_status st;         /* the store's verdict */
  struct cairn_error err;       /* its error, if any */
  /* game_play_async's: the move's events (a reference the job holds), the
   * seq they reached and whom to tell when the verdict is in. */
  json_t *events;
  uint32_t seq_after;
  game_ready_cb ready;
  void *ready_arg;
};

/* The stored result: one decided outside the rules as the caller wrote it,
 * else the title's, NULL while the game runs. */
static const char *stored_result(const struct game_row_job *job)
{
  return job->change.result_json ? job->change.result_json : job->result_text;
}

/* The row to append, with the seat clocks it sets (the same transaction),
 * and what the listener judged it owes. */
static enum cairn_status prepare_row(struct game_row_job *job, struct cairn_error *err)
{
  struct game_service *svc = job->svc;
  const struct game_change *change = &job->change;
  struct db_game after;
  int n_clocks;

  read_after(job->row, change, job->next, &job->a);
  row_after(job->row, change, job->next, &job->a, &after);
  judge_owed(svc, &after, job->next, &job->a.turn, job->a.result, &job->b, NULL, &job->owed);
  n_clocks = game_clocks_next(svc, job->row, &job->a.turn, job->clocks);
  /* The stored form: json_dumps(JSON_COMPACT | JSON_SORT_KEYS)'s bytes. */
  job->move_text = jw_dumps_sorted(change->move);
  job->events_text = jw_dumps_sorted(change->events);
  job->result_text = job->a.result ? jw_dumps_sorted(job->a.result) : NULL;
  job->entry = (struct db_move){.ord = job->row->moves,
                                .seq = job->next->seq,
                                .seat = change->seat,
                                .move_json = job->move_text,
                                .events_json = job->events_text,
                                .at_ms = svc->now_ms(),
                                .clocks = job->clocks,
                                .n_clocks = n_clocks,
                                .outbox = job->owed.rows,
                                .n_outbox = job->owed.n,
                                .resigns = change->kind == GAME_CHANGE_RESIGN,
                                .seat_player_to =
                                    change->kind == GAME_CHANGE_REPLACE ? change->player_id : NULL};
  if (!job->move_text || !job->events_text || (job->a.result && !job->result_text))
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  if (job->a.ends)
    job->entry.rating =
        game_ratings_plan(job->row, stored_result(job), job->entry.at_ms, &job->plan);
  return CAIRN_OK;
}

/* The store's verdict is in (job->st): mirror the committed row in *row and
 * cache its state, or drop the state; either way the job's texts go. */
static void settle_row(struct game_row_job *job)
{
  if (job->st == CAIRN_OK && job->entry.has_hash)
    memcpy(job->row->log_head, job->entry.hash, DB_HASH_BYTES); /* the chain's new head */
  if (job->st == CAIRN_ESTALE)
    cairn_fail(&job->err, CAIRN_ESTALE, CAIRN_CODE_STALE_SEQ, NULL,
               "another move was accepted first; fetch the game and retry");
  job->owed.stored = job->st == CAIRN_OK;
  if (job->st == CAIRN_OK)
    mirror_row(job->svc, job->row, &job->change, job->next, &job->a);
  else
    engine_free(job->next);
  job->next = NULL;
  free(job->move_text);
  free(job->events_text);
  free(job->result_text);
  job->move_text = job->events_text = job->result_text = NULL;
  json_decref(job->a.result);
  job->a.result = NULL;
}

/* Start a row's job: the change (its `next` taken) as it stands before. */
static void job_init(struct game_row_job *job, struct game_service *svc, struct db_game *row,
                     struct game_change *change)
{
  job->svc = svc;
  job->row = row;
  job->change = *change;
  job->next = change->next;
  job->change.next = NULL;
  change->next = NULL; /* taken, on every path */
  remember_before(svc, row, change, &job->b);
}

const char *game_change_kind_name(enum game_change_kind kind)
{
  static const char *const names[GAME_CHANGE_KINDS] = {
      [GAME_CHANGE_MOVE] = "move",       [GAME_CHANGE_BOT] = "bot",
      [GAME_CHANGE_TIMEOUT] = "timeout", [GAME_CHANGE_TAKEBACK] = "takeback",
      [GAME_CHANGE_JOIN] = "join",       [GAME_CHANGE_RESIGN] = "resign",
      [GAME_CHANGE_REPLACE] = "replace",
  };

  return kind >= 0 && kind < GAME_CHANGE_KINDS ? names[kind] : "?";
}

enum cairn_status game_commit(struct game_service *svc, struct db_game *row,
                              struct game_change *change, struct cairn_error *err)
{
  struct game_turn after;

  return game_commit_turn(svc, row, change, &after, err);
}

/* What follows every change, committed (st CAIRN_OK) or not: the count,
 * the announcement, the webhooks (sent, or released) and the bots. */
static void follow_up(struct game_service *svc, struct db_game *row, enum game_change_kind kind,
                      const struct engine_game *state, const struct game_turn *after,
                      const struct before *b, struct game_owed *owed, enum cairn_status st)
{
  if (st == CAIRN_OK) {
    atomic_fetch_add(&svc->committed[kind], 1);
    announce(svc, row, state, after, b);
  }
  send_webhooks(svc, owed, st == CAIRN_OK);
  /* The change is durable and acknowledged whatever the bots do next; a
   * bot's own move leaves the next one to the loop that played it. */
  if (st == CAIRN_OK && kind != GAME_CHANGE_BOT && !svc->bots_held)
    game_bots_play(svc, row, after);
}

/* The follow-ups of a settled row's job; its verdict. */
static enum cairn_status finish_row(struct game_row_job *job, struct game_turn *after,
                                    struct cairn_error *err)
{
  const struct engine_game *state = job->next; /* once cached, borrowed from the cache */

  settle_row(job);
  *after = job->a.turn;
  if (job->st != CAIRN_OK)
    *err = job->err;
  follow_up(job->svc, job->row, job->change.kind, state, after, &job->b, &job->owed, job->st);
  return job->st;
}

enum cairn_status game_commit_turn(struct game_service *svc, struct db_game *row,
                                   struct game_change *change, struct game_turn *after,
                                   struct cairn_error *err)
{
  struct game_row_job job = {0};

  if (change->kind == GAME_CHANGE_JOIN) {
    const struct engine_game *state = NULL;
    struct game_owed owed = {0};
    struct before b;
    enum cairn_status st;

    remember_before(svc, row, change, &b);
    engine_free(change->next);
    change->next = NULL;
    st = write_join(svc, row, change, &b, &state, after, &owed, err);
    follow_up(svc, row, change->kind, state, after, &b, &owed, st);
    return st;
  }
  job_init(&job, svc, row, change);
  job.st = prepare_row(&job, &job.err);
  if (job.st == CAIRN_OK)
    job.st = db_move_append(svc->db, row->id, &job.entry, stored_result(&job), &job.err);
  return finish_row(&job, after, err);
}

/* The store's verdict on an async job's row: tell the job's owner. On the
 * store's committer thread: only wake. */
static void row_stored(void *arg, enum cairn_status st)
{
  struct game_row_job *job = arg;

  job->st = st;
  job->ready(job->ready_arg);
}

enum cairn_status game_commit_async(struct game_service *svc, struct db_game *row,
                                    struct game_change *change, game_ready_cb ready,
                                    void *ready_arg, struct game_row_job **out,
                                    struct cairn_error *err)
{
  struct game_row_job *job = calloc(1, sizeof(*job));
  enum cairn_status st;

  *out = NULL;
  if (!job) {
    engine_free(change->next);
    change->next = NULL;
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  job_init(job, svc, row, change);
  job->events = json_incref((json_t *)change->events);
  job->seq_after = job->next->seq;
  job->ready = ready;
  job->ready_arg = ready_arg;
  st = prepare_row(job, err);
  if (st != CAIRN_OK) {
    struct game_turn ignored;

    job->st = st;
    job->err = *err;
    finish_row(job, &ignored, err);
    json_decref(job->events);
    free(job);
    return st;
  }
  /* The move was read into its stored text: the caller may free it now
   * (api/ frees a request's body on the thread that parsed it). */
  job->change.move = NULL;
  *out = job;
  db_move_append_async(svc->db, row->id, &job->entry, stored_result(job), &job->err, row_stored,
                       job);
  return CAIRN_OK;
}

enum cairn_status game_commit_finish(struct game_row_job *job, json_t **events, uint32_t *seq_after,
                                     struct cairn_error *err)
{
  struct game_turn after;
  enum cairn_status st = finish_row(job, &after, err);

  *events = st == CAIRN_OK ? job->events : NULL;
  if (st != CAIRN_OK)
    json_decref(job->events);
  *seq_after = job->seq_after;
  free(job);
  return st;
}
