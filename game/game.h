/*
 * game.h - the game layer: everything about live games that knows nothing
 * of HTTP. It sits between api/ (which parses requests and renders answers)
 * and engine/ + db/ (rules and storage), and it alone changes games.
 *
 * One service per process (`struct game_service`) holds the storage handle,
 * the cache of live states, the per-game stripe locks, the replay
 * checkpoints, the clock and the listener. Every change to a game - a
 * player's move, a bot's move, a timeout, a takeback row, a resignation, a
 * join - goes through game_commit(), which writes it and then runs what
 * must follow any change (the cache swap, clocks, announcements, webhooks,
 * bots owing a decision), as Redis's call() does for every command
 * whatever its source.
 *
 * What follows a commit on the HTTP side (waking waiting clients, queueing
 * webhooks) is reached through `struct game_listener`, a const table of
 * function pointers given at start: this layer includes nothing of api/.
 *
 * Locks. A game's log, its cache entry and its clocks are touched only under
 * its own lock (game_lock): functions below say "under the lock" when the
 * caller must hold it, and take it themselves otherwise.
 */
#ifndef GAME_GAME_H
#define GAME_GAME_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../db/db.h"
#include "../engine/cairn.h"
#include "../engine/engine.h"

#define GAME_STRIPES     1024 /* lock stripes; divides the live cache's set count */
#define GAME_LIVE_STATES 8192 /* engine states the live cache holds (live.c) */
/* Log rows between replay checkpoints: ?at=N then costs at most this many
 * applies beyond a copy, however long the game. */
#define GAME_CHECKPOINT_EVERY 64

#define GAME_BOT_PREFIX DB_BOT_PREFIX /* "bot-": player ids of built-in bots; human ids are hex */

struct game_live; /* live.c: cache of engine states, derived and disposable */

/* Games of one stripe locked at once; a further one waits for a place.
 * At most the live cache's ways (live.c), so a set always has an entry
 * that no locked game is using. */
#define GAME_HELD_MAX 8

/* One stripe of the game locks (service.c). A game's lock is its id in
 * held[]: marked and cleared under `mutex`, which is held only for that
 * and for live.c's set of this stripe, never across storage. So a move
 * holds its own game through its durable commit, and the other games of
 * its stripe go on. */
struct game_stripe {
  pthread_mutex_t mutex;                   /* short: held[] and the cache's set */
  pthread_cond_t released;                 /* a game of the stripe was unlocked */
  char held[GAME_HELD_MAX][DB_ID_MAX + 1]; /* the games locked now; "" a free place */
};
struct game_checkpoints; /* replay.c: states every GAME_CHECKPOINT_EVERY rows, derived */

/* Who owes a decision in a game: read from the title once per change
 * (game_commit) and handed to everything that follows it, which so never
 * asks the title again. */
struct game_turn {
  int seats[ENGINE_MAX_SEATS];
  int n; /* 0 when nobody does: the game is not active */
};

/* What a committed change looked like, for the listener: all borrowed for
 * the call, which runs under the game's lock. */
struct game_committed {
  const struct db_game *row; /* the game row after the change */
  /* its current state; NULL (announce only) for another node's change to
   * a game that is not active (game_remote_change), whose state nobody
   * needs */
  const struct engine_game *state;
  const int *to_act; /* seats that owe a decision after it, */
  int n_to_act;      /* and how many (0 unless the game is active) */
  /* The title's result when the change ended the game by the rules; NULL
   * otherwise (a result decided outside them is row->result_json). */
  const json_t *result;
  const char *prev_status; /* DB_STATUS_* before the change */
  const int *prev_to_act;  /* seats that owed a decision before, */
  int prev_n;              /* and how many (0 when unknown) */
  /* A join: the player just seated, whose seat storage does not hold yet
   * while what the join owes is judged (it is written with them); NULL
   * otherwise. */
  const char *joined_player;
};

/* The webhook deliveries a change owes, judged before it is written so that
 * they are stored in its log row's transaction (db_move.outbox). */
struct game_owed {
  struct db_outbox *rows; /* the listener's: n outbox rows, bodies included */
  int n;
  bool stored; /* written with the change's log row (a join has none) */
  void *hooks; /* the listener's own: what it needs to send them */
};

/* The HTTP side's follow-ups, given once at start (cli/main.c), called by
 * game_commit under the game's lock, so they must not call back into the
 * game layer for this game. Every slot may be NULL. */
struct game_listener {
  /* Before the change is written: fill *owed (empty on entry) with the
   * webhook deliveries it will owe; `change` shows the game as the change
   * will leave it. Leave it empty for none; never fail the change. */
  void (*owe_webhooks)(void *ctx, const struct game_committed *change, struct game_owed *owed);
  /* After a committed change: wake clients waiting on the game (long-poll,
   * SSE). */
  void (*announce)(void *ctx, const struct game_committed *change);
  /* After every change, committed (`committed`) or refused: hand *owed
   * (what owe_webhooks filled, maybe nothing) to the delivery worker if
   * committed, then release what it holds. */
  void (*send_webhooks)(void *ctx, struct game_owed *owed, bool committed);
};

/* What a change to a game is (struct game_change, below). */
enum game_change_kind {
  GAME_CHANGE_MOVE,     /* a seated player's title move */
  GAME_CHANGE_BOT,      /* a bot seat's move (game_commit's own follow-up) */
  GAME_CHANGE_TIMEOUT,  /* a late seat's move, or an adjudication, by the sweeper */
  GAME_CHANGE_TAKEBACK, /* a takeback row: request, answer or rewind */
  GAME_CHANGE_JOIN,     /* a seat taken (no log row); may start the game */
  GAME_CHANGE_RESIGN,   /* a seat's resignation: a platform row, which marks the seat */
  GAME_CHANGE_REPLACE,  /* a late seat handed to a bot (replace.c): a platform row */
};
#define GAME_CHANGE_KINDS (GAME_CHANGE_REPLACE + 1)

/* The kind's name, for GET /metrics' labels ("move", "bot", ...). */
const char *game_change_kind_name(enum game_change_kind kind);

/* The service: one per process, shared by every request thread. */
struct game_service {
  struct db *db;           /* borrowed: storage, outlives the service */
  int64_t (*now_ms)(void); /* the clock; one injectable source of time */
  int vacation_days;       /* each player's vacation bank per year */
  /* Tests only (CAIRN_TEST_HOLD_BOTS=1): bots owe their moves but do not
   * play them, as after a crash between a change and the bots' reply, so a
   * test can show that a restart plays them (game_bots_resume). */
  bool bots_held;
  const struct game_listener *listener; /* Static, or NULL: no follow-ups */
  void *listener_ctx;                   /* borrowed: handed to the listener */
  struct game_live *live;               /* owned: cache of live engine states */
  struct game_checkpoints *checkpoints; /* owned: replay checkpoints, may be NULL */
  /* Per-game serialisation: a game's moves, its cache entry and its clocks
   * are touched only under its lock (game_lock), which is the game's own;
   * the stripes only find it. live.c's sets line up with the stripes. */
  struct game_stripe stripes[GAME_STRIPES];
  pthread_t sweeper;     /* timeouts.c: acts on expired deadlines */
  bool sweeping;         /* the sweeper thread runs */
  _Atomic bool stopping; /* tells the sweeper to finish */
  /* botpool.c: where search-level bots think, NULL while not started
   * (then they think inline, as tools and unit tests need). */
  struct game_bot_pool *bot_pool;
  atomic_int hints_running; /* bots.c: game_hint searches under way, at most GAME_HINTS_MAX */
  /* Changes committed since start, by kind (commit.c), for GET /metrics. */
  atomic_long committed[GAME_CHANGE_KINDS];
};

/* A service over `db` (borrowed). `listener` (static) and `ctx` (borrowed)
 * may be NULL. OUT: caller frees with game_service_free (accepts NULL);
 * NULL when out of memory. */
struct game_service *game_service_new(struct db *db, int64_t (*now_ms)(void), int vacation_days,
                                      const struct game_listener *listener, void *ctx);
void game_service_free(struct game_service *svc);

/* The lock of game `game_id` alone: another thread's game_lock of the same
 * game waits until game_unlock, one of another game does not (unless
 * GAME_HELD_MAX games of its stripe, db_id_hash(game_id) % GAME_STRIPES,
 * are locked already). Not recursive: a thread never locks a game it holds. */
void game_lock(struct game_service *svc, const char *game_id);
void game_unlock(struct game_service *svc, const char *game_id);

/* Load the game row `game_id` into *row (CAIRN_ENOTFOUND not-found
 * otherwise); caller releases with db_game_clear. */
enum cairn_status game_load(struct game_service *svc, const char *game_id, struct db_game *row,
                            struct cairn_error *err);

/* Under no lock (it takes the game's): the row of `game_id` into *row
 * (caller releases with db_game_clear; CAIRN_ENOTFOUND not-found) and,
 * while the game is active, the seats owing a decision into to_act[] and
 * their number into *n_to_act (0 otherwise), read from the live state as
 * it stood under the same hold of the lock, so the row and its to_act
 * never disagree. With `only_status` set, a game of another status is
 * returned without reading its state (*n_to_act 0): listings filtered by
 * status skip the replay. For api/'s listings and waits (glance.c). */
enum cairn_status game_glance(struct game_service *svc, const char *game_id,
                              const char *only_status, struct db_game *row,
                              int to_act[ENGINE_MAX_SEATS], int *n_to_act, struct cairn_error *err);

/* ---- live.c: cache of current states ---- */

/* A cache of at most `slots` states (a multiple of 8 * GAME_STRIPES).
 * `stripes` (borrowed, GAME_STRIPES long; NULL for a cache used by one
 * thread alone) guard its sets: each call takes the set's stripe mutex,
 * and an entry whose game is locked is never evicted, so what
 * game_live_get lends stays valid until the game is unlocked. */
struct game_live *game_live_new(size_t slots, struct game_stripe *stripes);
void game_live_free(struct game_live *live);

/* Under the lock. Borrowed until the lock is released or the entry is
 * replaced: the current state of `row`, from the cache when it matches the
 * row's move count, rebuilt from the log otherwise. */
enum cairn_status game_live_get(struct game_service *svc, const struct db_game *row,
                                const struct engine_game **out, struct cairn_error *err);

/* Borrowed (as game_live_get): the cached state of `game_id` whatever its
 * move count, or NULL. */
const struct engine_game *game_live_peek(struct game_live *live, const char *game_id);

/* Takes `game`: it becomes the cached state of `game_id` after `moves` rows. */
void game_live_put(struct game_live *live, const char *game_id, uint32_t moves,
                   struct engine_game *game);

/* ---- replay.c: the one path from the log to a state ---- */

/* Rebuild a game from its row and log. With `upto_seq` NULL, every row is
 * applied; otherwise rows are applied while their seq <= *upto_seq. On
 * success *out is the caller's (engine_free) and *rows the number applied.
 * A log that does not replay is CAIRN_EINTERNAL. */
enum cairn_status game_replay(struct game_service *svc, const struct db_game *row,
                              const uint32_t *upto_seq, struct engine_game **out, uint32_t *rows,
                              struct cairn_error *err);

/* The state after the first `rows` log rows. On success *out is the
 * caller's (engine_free). */
enum cairn_status game_replay_rows(struct game_service *svc, const struct db_game *row,
                                   uint32_t rows, struct engine_game **out,
                                   struct cairn_error *err);

/* Replay checkpoints. Free accepts NULL. */
struct game_checkpoints *game_checkpoints_new(void);
void game_checkpoints_free(struct game_checkpoints *checkpoints);

/* ---- commit.c: the one way a game changes ---- */

/* One change to commit. */
struct game_change {
  enum game_change_kind kind;
  int seat;                 /* who made it */
  const json_t *move;       /* borrowed: the log row's move; NULL for a join */
  const json_t *events;     /* borrowed: the row's events; NULL for a join */
  struct engine_game *next; /* taken by game_commit: the state after the row; NULL for a join */
  const char *result_json;  /* borrowed: a result decided outside the rules
                               (an adjudication, a resignation) as compact
                               JSON with sorted keys, stored as is; or NULL */
  const char *player_id;    /* borrowed: a join's or a replacement's player, who takes `seat`;
                               NULL otherwise */
  const char *player_name;  /* borrowed: that player's name */
};

/* Under the lock. Commit `change` to the game `row` (loaded under this
 * lock, at the state game_live_get gives), then do what follows every
 * change, each follow-up handed what the title said of the new state
 * (result, who acts) rather than asking it again:
 *   1. a log row is appended with everything it owes in its own
 *      transaction: the seat clocks it sets and the webhook deliveries the
 *      listener judged it owes (the store refuses it, CAIRN_ESTALE
 *      stale-seq, if another writer got there first, and writes nothing);
 *      or, for a join, the seat is written, and if it fills the last seat
 *      the game's start, its first clocks and the deliveries it owes go in
 *      the same transaction (the store refuses seat-taken, already-seated,
 *      game-not-open, or CAIRN_ESTALE when the game changed since *row was
 *      read, and writes nothing);
 *   2. *row mirrors the commit and `next` becomes the cached state;
 *   3. the listener announces it and sends its webhooks;
 *   4. unless the change is a bot's own, bot seats owing a decision play,
 *      each move committed through here (a failure only stops the bots).
 * Takes change->next on every path. On failure nothing was written. */
enum cairn_status game_commit(struct game_service *svc, struct db_game *row,
                              struct game_change *change, struct cairn_error *err);

/* game_commit, and on success *after is who owes a decision right after
 * the change (before any bot replies to it): a bot's loop reads it. */
enum cairn_status game_commit_turn(struct game_service *svc, struct db_game *row,
                                   struct game_change *change, struct game_turn *after,
                                   struct cairn_error *err);

/* A change's log row on its way to disk without a thread waiting for it
 * (game_commit_async): owned by the game layer from game_commit_async to
 * game_commit_finish. */
struct game_row_job;

/* Called once the store's verdict on a game_row_job is in, on the store's
 * committer thread (or on the caller's, before game_commit_async returns,
 * for a store that cannot queue): it must only arrange for
 * game_commit_finish to be called, soon, by whoever holds the game's lock. */
typedef void (*game_ready_cb)(void *arg);

/* Under the lock: game_commit's first step for a log row (never a join),
 * queued: on CAIRN_OK the row is on its way and `ready(ready_arg)` will be
 * called once; *job is then the caller's to finish, keeping *row and the
 * game's lock until game_commit_finish. `change->events` is held by the job
 * (a reference) for the answer; `change->move` is borrowed only until this
 * returns. On failure nothing was queued or written,
 * *job is NULL and change->next was taken. */
enum cairn_status game_commit_async(struct game_service *svc, struct db_game *row,
                                    struct game_change *change, game_ready_cb ready,
                                    void *ready_arg, struct game_row_job **job,
                                    struct cairn_error *err);

/* Still under the lock, after `ready`: the rest of game_commit (steps 2 to 4)
 * with the store's verdict, which it returns. On success *events is the
 * change's events (a new reference) and *seq_after the seq the row reached;
 * *row mirrors the commit and any bot moves after it. Frees the job. */
enum cairn_status game_commit_finish(struct game_row_job *job, json_t **events, uint32_t *seq_after,
                                     struct cairn_error *err);

/* ---- moves.c: a seated player's move ---- */

/* The checks api.md orders before the title sees a move: seated
 * (not-seated), active (game-not-active), the seat not resigned
 * (already-resigned), rules version current (rules-version-retired), `seq`
 * current (stale-seq). */
enum cairn_status game_check_turn(const struct db_game *row, int seat, json_int_t seq,
                                  struct cairn_error *err);

/* Under the lock. `seat` (of *row, loaded under this lock) plays `move`
 * (borrowed) at `seq`: the turn checks, the title's rules, game_commit.
 * On success *events (new reference, caller releases) are the move's
 * events and *seq_after the seq it reached; *row is the game after any bot
 * moves that followed. */
enum cairn_status game_play(struct game_service *svc, struct db_game *row, int seat, json_int_t seq,
                            const json_t *move, json_t **events, uint32_t *seq_after,
                            struct cairn_error *err);

/* game_play with its commit queued (game_commit_async): on CAIRN_OK the
 * move passed every check and rule and its row is on its way; `ready` will
 * be called, and game_commit_finish then gives game_play's answer. A
 * refused move fails here, as from game_play, with *job NULL. */
enum cairn_status game_play_async(struct game_service *svc, struct db_game *row, int seat,
                                  json_int_t seq, const json_t *move, game_ready_cb ready,
                                  void *ready_arg, struct game_row_job **job,
                                  struct cairn_error *err);

/* ---- resign.c: a seat's resignation ---- */

/* Under the lock. `seat` of *row resigns at `seq`: the turn checks
 * (game_check_turn: not-seated, game-not-active, already-resigned,
 * stale-seq), then one platform row {"cairn":"resign"} through
 * game_commit, which marks the seat resigned in the row's transaction.
 * What it means does not depend on the title (yet):
 *   - one or two seats: the game ends; the seats that did not resign win
 *     (none in a solo game, the other seat in a two-seat one);
 *   - more seats: the server's bot plays the seat from then on, unless no
 *     seat held by a person is left unresigned: then the game ends, won by
 *     the seats that did not resign (the bots'), since a game of bots
 *     alone would be played out for nobody.
 * A result so decided is {"winners": [...], "reason": "resignation",
 * "seat": s}. On success *events (new reference) are the row's events
 * and *seq_after the seq it reached. */
enum cairn_status game_resign(struct game_service *svc, struct db_game *row, int seat,
                              json_int_t seq, json_t **events, uint32_t *seq_after,
                              struct cairn_error *err);

/* ---- replace.c: a late seat handed to a bot (issue 25) ---- */

/* The problem code of a replacement refused (409). */
#define GAME_CODE_NO_REPLACE "no-replace"

/* Under the lock. `voter` of *row, at `seq`, votes to hand the seat `late`
 * to a bot of `level` ("random", "easy", "strong"; NULL for the standing
 * vote's, or easy). The turn checks (game_check_turn: not-seated,
 * game-not-active, already-resigned, stale-seq), then bad-value for a seat
 * out of range or an unknown level, and 409 no-replace when `late` is the
 * voter's own seat, is played by the server already, is not past its
 * deadline, when `voter` voted already, or names a level other than the
 * standing vote's. The vote is the platform row {"cairn":"replace-vote"};
 * the one that completes the votes of every other unresigned person is
 * instead {"cairn":"replace"}, which gives the seat to a new bot player in
 * its own transaction, after which the bot plays (game_commit). On success
 * *events (new reference) are the row's events, *seq_after the seq. */
enum cairn_status game_replace(struct game_service *svc, struct db_game *row, int voter,
                               json_int_t seq, json_int_t late, const char *level, json_t **events,
                               uint32_t *seq_after, struct cairn_error *err);

/* Whether platform row kind `kind` is replace.c's, and its replay (a
 * function of the row alone, as game_platform_apply's). */
bool game_replace_row(const char *kind);
enum cairn_status game_replace_apply(const json_t *move, const struct db_move *row,
                                     struct engine_game **state, json_t **events,
                                     struct cairn_error *err);

/* ---- create and join (seats.c) ---- */

/* Build a new game's row and start position from `title`, `seats` and
 * `options` (borrowed, NULL for defaults): an id, the seed, the creator.
 * The title checks the options. On success *state is the caller's
 * (engine_free) and *row is filled (db_game_clear). */
enum cairn_status game_new(struct game_service *svc, const char *title, json_int_t seats,
                           const json_t *options, const char *creator, struct db_game *row,
                           struct engine_game **state, struct cairn_error *err);

/* Store the new game `row` with a new bot player in each seat bot[] marks,
 * seated in the game's own transaction, and cache `state` (taken on every
 * path) as its start position. */
enum cairn_status game_create(struct game_service *svc, struct db_game *row,
                              const bool bot[ENGINE_MAX_SEATS], struct engine_game *state,
                              struct cairn_error *err);

/* Seat `player` in game `game_id`: in *wanted (0-based), or the lowest
 * free seat when `wanted` is NULL. Under the game lock: load, check the
 * seat's range (bad-value), then commit the join (GAME_CHANGE_JOIN: the
 * seat, and the start with its clocks and webhook deliveries, in one
 * transaction; announcements and bots follow). The store still decides
 * races (seat-taken, already-seated, game-not-open). *taken gets the
 * seat. */
enum cairn_status game_join(struct game_service *svc, const char *game_id,
                            const struct db_player *player, const json_int_t *wanted, int *taken,
                            struct cairn_error *err);

/* Invitations (issue 25): a seat kept for a named player
 * (db_game.seat_invited, set before game_create). */

/* The seat of `row` kept for `player_id`, or -1. */
int game_invited_seat(const struct db_game *row, const char *player_id);

/* `player` takes the seat kept for them in `game_id`, as game_join does
 * (one change, under the game lock; the store deletes the invitation in
 * the join's transaction). CAIRN_ENOTFOUND when no seat is kept for them:
 * never invited, declined, or seated already, so of two racing accepts
 * one takes the seat and the other hears not-found. *taken gets the seat. */
enum cairn_status game_accept(struct game_service *svc, const char *game_id,
                              const struct db_player *player, int *taken, struct cairn_error *err);

/* `player` declines their invitation to `game_id`: the seat is free for
 * anyone from then on and the game stays open (nothing is logged: no
 * seat changed). CAIRN_ENOTFOUND when there is none to decline. */
enum cairn_status game_decline(struct game_service *svc, const char *game_id,
                               const struct db_player *player, struct cairn_error *err);

/* `player`, the creator of the open game `game_id`, cancels it: status
 * cancelled, its invitations gone, its seats as they were (db_game_cancel),
 * under the game lock so no join lands in between. not-creator
 * (CAIRN_ETURN) for anyone else, game-not-open once it started. Nothing is
 * logged (a game that never started has no log) and nobody waiting on the
 * game is woken: its next read shows the status. */
enum cairn_status game_cancel(struct game_service *svc, const char *game_id,
                              const struct db_player *player, struct cairn_error *err);

/* ---- rematch.c ---- */

/* Plan the rematch of the finished game `old` asked by `player_id`, one of
 * its players: a new row and start position as game_new builds them (same
 * title, seats, options; the same time control), every seat moved one
 * along (seat i's player to seat i + 1 mod seats): levels[] gives the
 * bots' new seats their old level (GAME_NO_BOT for a person's seat),
 * *own_seat the asker's, and row->seat_invited the other
 * people's. Store it as a new game (game_create_leveled, then the asker's join).
 * game-not-finished (CAIRN_ECONFLICT) for a game still open or active,
 * not-seated (CAIRN_ETURN) for anyone else. On success *state and *row
 * are the caller's, as game_new's. */
enum cairn_status game_rematch_plan(struct game_service *svc, const struct db_game *old,
                                    const char *player_id, struct db_game *row,
                                    int levels[ENGINE_MAX_SEATS], int *own_seat,
                                    struct engine_game **state, struct cairn_error *err);

/* ---- bots.c ---- */

/* True when the player in `seat` of `row` is a built-in bot. */
bool game_seat_is_bot(const struct db_game *row, int seat);

/* True when the server plays `seat` of `row`: a bot's seat, or one whose
 * player resigned. Such a seat is never asked anything (takebacks). */
bool game_seat_played_by_bot(const struct db_game *row, int seat);

/* Under the lock. While the game is active and a bot seat owes a decision,
 * play it (a random legal move) through game_commit. `now` (borrowed, or
 * NULL to ask the title) is who owes a decision in *row's current state.
 * Bounded; a failure only stops the bots (logged): what was committed
 * stays. */
void game_bots_play(struct game_service *svc, struct db_game *row, const struct game_turn *now);

/* Play every bot that owes a move in any active game, each under its game's
 * lock. A change and the bots' reply to it are separate commits, so a crash
 * between them leaves a bot owing a move that nothing would ever ask for:
 * the sweeper runs this once when it starts. */
void game_bots_resume(struct game_service *svc);

/* How long a game's last change must be past before another node's sweep
 * plays its bots: the committing node answers within milliseconds, so
 * this only passes for a node that died between a change and its bots'
 * reply (or whose bots stopped on a failure). */
#define GAME_BOT_GRACE_MS 2000

/* Play the server's seats that owe a decision in every active game with
 * such a seat whose last change (updated_ms, the service's clock) is in
 * [from_ms, to_ms), each under its lock as game_bots_resume does. The
 * sweeper calls it about once a second with a window ending
 * GAME_BOT_GRACE_MS ago (timeouts.c); nothing while bots are held. */
void game_bots_sweep(struct game_service *svc, int64_t from_ms, int64_t to_ms);

/* Play for `seat` of `state` (borrowed: the cached state of `row`) the move
 * a bot would choose (engine_sample_move, from fresh randomness) and commit
 * it as a change of `kind` (a bot's move, or a late seat's under on_timeout
 * "move"). Call with the game lock held. On success *after (may be NULL)
 * is who owes a decision once it is committed. */
enum cairn_status game_play_sampled(struct game_service *svc, struct db_game *row,
                                    const struct engine_game *state, int seat,
                                    enum game_change_kind kind, struct game_turn *after,
                                    struct cairn_error *err);

/* Create the player of a new bot seat of `level` (enum bot_level) in
 * *out (its token is one nobody holds). The level is in the player's id
 * (GAME_BOT_PREFIX, then "easy-" or "strong-" for a search level), so it
 * is stored with the seat and survives a restart. */
enum cairn_status game_bot_player(struct game_service *svc, int level, struct db_player *out,
                                  struct cairn_error *err);

/* The bot level (enum bot_level) that plays `seat` of `row`: its bot's,
 * or random for a resigned person's seat. */
int game_seat_bot_level(const struct db_game *row, int seat);

/* game_create with a level (enum bot_level) per bot seat, GAME_NO_BOT for
 * a person's. */
#define GAME_NO_BOT (-1)
enum cairn_status game_create_leveled(struct game_service *svc, struct db_game *row,
                                      const int levels[ENGINE_MAX_SEATS], struct engine_game *state,
                                      struct cairn_error *err);

/* A pool worker's job (botpool.c): under the lock of game `game_id`, find
 * the search-level bot that owes a decision, think outside the lock on a
 * copy, and commit its move if the log head did not move meanwhile;
 * otherwise ask the game's bots again. */
void game_bots_think(struct game_service *svc, const char *game_id);

/* The problem code of a hint refused in a game with more than one person
 * (game_hint). */
#define GAME_CODE_NO_HINT "no-hint"
#define GAME_HINTS_MAX    2 /* hints searched at once: each is a strong bot's search */

/* The strong bot's suggestion for `seat` (a person's) of game `game_id`:
 * *move (a new reference, the caller's), *seq, the step it answers, and
 * *moves, the log's length then. Takes the game's lock only to copy the
 * state; searches without it, on the caller's thread. Refused unless
 * exactly one seat is a person's (solo scenarios, games against bots):
 * CAIRN_ECONFLICT GAME_CODE_NO_HINT; game-not-active, not-your-turn (the
 * seat owes no decision). */
enum cairn_status game_hint(struct game_service *svc, const char *game_id, int seat, json_t **move,
                            uint32_t *seq, uint32_t *moves, struct cairn_error *err);

/* The hint for a request: game_hint's checks at once, then the hint the
 * pool worked out for this step (CAIRN_OK, *move and *seq as game_hint),
 * or CAIRN_DONE when it is being worked out now (queued on the pool: ask
 * again). Without a pool, game_hint on this thread, at most GAME_HINTS_MAX
 * at once (then rate-limited). A full queue is rate-limited too. */
enum cairn_status game_hint_ask(struct game_service *svc, const char *game_id, int seat,
                                json_t **move, uint32_t *seq, struct cairn_error *err);

/* ---- botpool.c: search-level bots think off the request path ---- */

#define GAME_BOT_THREADS_MAX 8
#define GAME_BOT_THREADS     2    /* the server's default: bots share the cores with requests */
#define GAME_BOT_QUEUE       1024 /* games waiting for a bot at once; more wait for the sweep */

/* Start `threads` workers (at most GAME_BOT_THREADS_MAX) over a queue of
 * `cap` games; false when none could start. Stop with game_bot_pool_stop
 * before the service is freed. */
bool game_bot_pool_start(struct game_service *svc, int threads, size_t cap);

/* Wake and join the workers; accepts a service whose pool never started.
 * A job still queued is dropped: the next start's resume plays it. */
void game_bot_pool_stop(struct game_service *svc);

/* Queue game `game_id` for a worker (once: a queued game is not queued
 * twice); false (logged) when the queue is full or stopping. */
bool game_bot_pool_enqueue(struct game_service *svc, const char *game_id);

/* Queue a hint for `seat` of game `game_id` (once); false when full. */
bool game_bot_pool_hint_enqueue(struct game_service *svc, const char *game_id, int seat);

/* The hint kept for `seat` of game `game_id` at log length `moves`:
 * *move (a new reference) and *seq; false when none is kept. */
bool game_bot_pool_hint_find(struct game_service *svc, const char *game_id, uint32_t moves,
                             int seat, json_t **move, uint32_t *seq);

/* What GET /metrics tells of the pool: its workers, the jobs waiting, the
 * jobs done by kind (a bot's turn, a hint) and the time spent on them. */
struct game_bot_pool_counts {
  int threads;
  long queued;
  long bot_jobs, hint_jobs;
  double seconds;
};

/* The pool's counts now (all 0 when it never started). */
void game_bot_pool_counts(struct game_service *svc, struct game_bot_pool_counts *out);

/* Fill `out` with a fresh random id: 20 lowercase hex characters. */
void game_new_id(char out[DB_ID_MAX + 1]);

/* ---- clocks.c: time controls and vacation banks ---- */

/* True when the game has a time control. */
bool game_has_time_control(const struct db_game *row);

/* What the clocks of `row` become once `turn` owe a decision (n 0: the
 * game takes no more moves), into clocks[]; their number, 0 for a game
 * without a time control (or whose clocks cannot be read). */
int game_clocks_next(struct game_service *svc, const struct db_game *row,
                     const struct game_turn *turn, struct db_clock clocks[ENGINE_MAX_SEATS]);

/* Under the lock. Compute and save the clocks of `row` at `state` (seats
 * that stopped owing pay for the decision, seats that started owing start
 * their clock, deadlines recomputed with vacations). */
void game_clocks_update(struct game_service *svc, const struct db_game *row,
                        const struct engine_game *state);

/* The seats whose deadline has passed, into seats[]; their number. */
int game_clocks_overdue(struct game_service *svc, const struct db_game *row, int seats[]);

/* The stored clocks of an active game with a time control into
 * clocks[] (at most ENGINE_MAX_SEATS); their number, 0 otherwise. */
int game_clocks_of(struct game_service *svc, const struct db_game *row,
                   struct db_clock clocks[ENGINE_MAX_SEATS]);

#define GAME_VACATIONS_MAX 64 /* vacations of one player read at a time */

/* Vacations of `player_id` ending after `from_ms`, by start, into
 * out[0..GAME_VACATIONS_MAX); their number. */
int game_vacations_of(struct game_service *svc, const char *player_id, int64_t from_ms,
                      struct db_vacation *out);

/* Hours of vacation `player_id` has declared to start in the calendar year
 * (UTC) of `at_ms`. */
int64_t game_vacation_hours_used(struct game_service *svc, const char *player_id, int64_t at_ms);

/* Declare a vacation of `hours` from `start_ms` for `player_id`: not in the
 * past, 1 hour to what is left of that year's bank (bad-value otherwise).
 * Stored, then the player's deadlines move out at once. */
enum cairn_status game_vacation_declare(struct game_service *svc, const char *player_id,
                                        int64_t start_ms, int64_t hours, struct cairn_error *err);

/* ---- takeback.c: undo as appended log rows ---- */

enum game_takeback_action { GAME_TAKEBACK_ASK, GAME_TAKEBACK_ACCEPT, GAME_TAKEBACK_DECLINE };

/* Under the lock. `seat` of *row asks for, accepts or declines a takeback
 * at `seq`: the turn checks, the policy (the fog first: 409 no-takeback),
 * then the platform row through game_commit. On success *events (new
 * reference) are the row's events and *seq_after the seq it reached. */
enum cairn_status game_takeback(struct game_service *svc, struct db_game *row, int seat,
                                json_int_t seq, enum game_takeback_action action, json_t **events,
                                uint32_t *seq_after, struct cairn_error *err);

/* ---- timeouts.c: the deadline sweeper ---- */

/* Start / stop the sweeper thread, which acts on seats past their deadline
 * every 100 ms (a random legal move, or an adjudication), through
 * game_commit. Stop accepts a service whose sweeper never started. */
bool game_sweeper_start(struct game_service *svc);
void game_sweeper_stop(struct game_service *svc);

/* One sweep, on the calling thread: exactly what one tick of the sweeper
 * does (the overdue games from storage, each re-checked and acted on under
 * its game lock), so when it returns every seat already past its deadline
 * by svc->now_ms has been acted on. The test clock calls it after moving on
 * (api/time.c); it may run beside the thread's own tick, as the per-game
 * re-check makes a game's timeout happen once. One game's trouble is logged
 * and skipped; the status is storage's listing of the overdue games. */
enum cairn_status game_sweep_now(struct game_service *svc, struct cairn_error *err);

/* ---- remote.c: changes committed by another node ---- */

/* Another node on the same database committed a change to `game_id` that
 * left it at `moves` log rows (storage heard it: db_listen_start). Under
 * the game's lock (taken here): the row is read again and, unless it has
 * moved past `moves` since (a later change, which will be heard of in its
 * turn or was this node's own and announced when it committed), the
 * listener announces it as game_commit announces a change of this node:
 * the row, and who owes a decision read from the live state, which the
 * move count brings up to date (live.c). Nothing else follows (the
 * committing node owns the bots and webhooks of its change). Any trouble
 * is logged: the waiting clients then hear of the game at its next change
 * or their own time-out. */
void game_remote_change(struct game_service *svc, const char *game_id, uint32_t moves);

#endif
