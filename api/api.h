/*
 * api.h - what the files of api/ share: the server context, one request as
 * the handlers see it, the response they fill, and the helpers that cross
 * files. Handlers never touch libmicrohttpd directly except through the
 * accessors here, so each resource file reads as "decode, check, act, answer".
 */
#ifndef API_H
#define API_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../db/db.h"
#include "../engine/cairn.h"
#include "../engine/engine.h"
#include "sign.h"

#define API_GAME_STRIPES        1024              /* divides the live cache's set count */
#define API_BODY_CAP            (64 * 1024)       /* bytes; larger bodies get 413 */
#define API_IMPORT_CAP          (8 * 1024 * 1024) /* bytes; a whole game's export */
#define API_UNAVAILABLE_RETRY_S 5                 /* Retry-After on every 503 */
#define API_LIVE_STATES         8192              /* engine states the live cache holds (live.c) */
/* A request head's limits (framing.c), below libmicrohttpd's 16 KiB memory
 * pool so that we, not it, answer a head past them (with problem+json). */
#define API_TARGET_MAX  8192 /* bytes of path and query: 414 uri-too-long */
#define API_HEADERS_MAX 8192 /* bytes of header fields in all: 431 headers-too-large */

/* Codes of the HTTP layer's own refusals (the engine's are in cairn.h). */
#define API_CODE_URI_TOO_LONG      "uri-too-long"
#define API_CODE_HEADERS_TOO_LARGE "headers-too-large"
#define API_CODE_BAD_FRAMING       "bad-framing"
#define API_CODE_LENGTH_REQUIRED   "length-required"
#define API_CODE_TRANSFER_CODING   "unsupported-transfer-coding"
#define API_CODE_REQUEST_TIMEOUT   "request-timeout"
#define API_CODE_BAD_REQUEST       "bad-request"
#define API_CODE_HTTP_VERSION      "http-version-not-supported"
/* libmicrohttpd's polling threads (server.c). A thread owns its connections
 * and a move holds it until durable (about a millisecond of fsync here), so
 * each connection of a thread waits behind that thread's moves. bench_load,
 * 5 alternating runs each: 100 games in play 2,689-3,893 moves/s with 24
 * threads, 3,768-4,959 with 96 (better in all 5 pairs); 1,000 games within
 * a few percent; 256 threads lost a quarter at 1,000 games. An idle thread
 * costs ~13 KiB of resident memory (bench_idle: 13,520 -> 14,476 KiB). */
#define API_HTTP_THREADS 96

struct api_live;        /* live.c: cache of engine states, derived and disposable */
struct api_checkpoints; /* replay.c: states every API_CHECKPOINT_EVERY rows, derived */

/* Log rows between replay checkpoints: ?at=N then costs at most this many
 * applies beyond a copy, however long the game. */
#define API_CHECKPOINT_EVERY 64

/* Webhook amplification limits (webhooks.c): hooks one player may hold,
 * and hooks registered for one game by all players together. */
#define API_WEBHOOKS_PER_PLAYER 10
#define API_WEBHOOKS_PER_GAME   20

/* The server: one per process, built by main.c, shared by request threads. */
struct api_server {
  struct db *db;                       /* storage, the only way to the database */
  struct api_live *live;               /* owned: cache of live engine states */
  struct api_checkpoints *checkpoints; /* owned: replay checkpoints, may be NULL */
  struct api_deliver *deliver;         /* owned: the webhook worker, may be NULL */
  bool allow_private_webhooks;         /* tests only: let webhooks reach loopback */
  int vacation_days;                   /* each player's vacation bank per year */
  struct api_limits *limits;           /* owned: rate limits, NULL for none */
  int max_open_games;                  /* per player, 0 for no cap */
  struct api_notify *notify;           /* owned: long-poll and SSE notifications, may be NULL */
  const char *web_dir;                 /* Static: the web client's folder, NULL for none */
  int64_t (*now_ms)(void);             /* the clock; one injectable source of time */
  /* Per-game serialisation, striped: a game's moves, its cache slot and its
   * clocks are touched only under its stripe (api_game_lock), so different
   * games proceed in parallel. live.c's slots line up with the stripes. */
  pthread_mutex_t game_locks[API_GAME_STRIPES];
  /* Count-then-insert limits (open games per player, webhooks per player
   * and per game) hold this across the count and the insert, so concurrent
   * requests cannot all pass a count taken before any of them was stored.
   * One process owns its database; a shared one needs the check in the
   * store's own transaction instead. */
  pthread_mutex_t caps_lock;
  pthread_t sweeper;     /* sweeper.c: acts on expired deadlines */
  _Atomic bool stopping; /* tells background threads to finish */
  /* Open connections, waiting clients included, across every polling
   * thread (server.c counts them); past max_connections a new one is
   * closed unanswered. */
  _Atomic int connections;
  int max_connections;
  /* The key this server signs its exports with (sign.h), kept in the data
   * directory so it outlives restarts. */
  struct api_sign_key key;
  struct api_conns *conns; /* owned: per-address caps and request deadlines (server.h) */
};

/* One request, as handlers see it. Everything is borrowed until the
 * response is queued. */
struct api_request {
  struct api_server *server;
  struct MHD_Connection *connection;
  const char *method;
  const char *path;
  char id[DB_ID_MAX + 1]; /* the {id} path segment, "" if none */
  const char *body;       /* NUL-terminated copy of the body, NULL if none */
  size_t body_len;
  int64_t *wait_deadline_ms; /* a long-poll's deadline, kept across its wake-ups; 0 at first */
  bool has_player;           /* a valid bearer token was presented */
  struct db_player player;
};

/* What a handler answers on success. `body` is owned by the response (a new
 * reference the server releases); `text` is static. */
struct api_response {
  unsigned int status;      /* HTTP status */
  json_t *body;             /* JSON body, or NULL */
  const char *text;         /* Static: a non-JSON body, or NULL */
  char *owned_text;         /* owned (freed by the server): a non-JSON body, or NULL */
  size_t text_len;          /* bytes of text or owned_text */
  const char *content_type; /* Static: for `text` */
  /* A long-poll that should wait: park the connection until `wait_game`
   * passes seq `wait_after` or `wait_until_ms`, then run the handler again. */
  int64_t wait_until_ms; /* 0: answer now */
  char wait_game[DB_ID_MAX + 1];
  uint32_t wait_after;
  struct api_stream *stream; /* owned: answer with this SSE stream */
  /* A JSON body written piece by piece (a long export), so its memory is
   * bounded by a piece: read(cls, buf, max) gives the next bytes, 0 at the
   * end, -1 when it cannot go on (the answer is cut short, never finished
   * wrongly); free(cls) once the answer is over, or not sent. */
  struct {
    ssize_t (*read)(void *cls, char *buf, size_t max);
    void (*free)(void *cls);
    void *cls;
  } reader;
};

/* A handler: fill `resp` and return CAIRN_OK, or return a failure from
 * cairn_fail() and the server answers with problem+json. */
typedef enum cairn_status (*api_handler)(struct api_request *req, struct api_response *resp,
                                         struct cairn_error *err);

/* ---- router.c ---- */

/* Find the handler for method+path; copies an {id} segment into req->id.
 * CAIRN_ENOTFOUND for an unknown path; CAIRN_EINVAL with code
 * method-not-allowed (and `allow` filled with the Allow header value: every
 * method the path takes, HEAD beside GET) for a known path with another
 * method; `allow` is "" otherwise. */
#define API_ALLOW_MAX 64
enum cairn_status api_route(struct api_request *req, api_handler *out, char allow[API_ALLOW_MAX],
                            struct cairn_error *err);

/* The body cap of the route for method+path (API_BODY_CAP unless the route
 * sets its own). */
size_t api_body_cap(const char *method, const char *path);

/* ---- problem.c ---- */

/* New reference: the RFC 9457 problem body for `err`; *http_status gets
 * the HTTP status it maps to. */
json_t *api_problem(const struct cairn_error *err, unsigned int *http_status);

/* ---- json_text.c: the text of JSON answers ---- */

/* Compact text of `doc` (an object or array), byte for byte what
 * json_dumps(doc, JSON_COMPACT) writes, several times faster (no cycle
 * check: answers are trees). OUT: NUL-terminated, caller frees with free();
 * *len (if non-NULL) gets its length. NULL when out of memory or when `doc`
 * is not an object or array. */
char *api_json_text(const json_t *doc, size_t *len);

/* ---- body.c: strict JSON decoding ---- */

enum api_field_type { API_INT, API_STRING, API_OBJECT, API_ANY };

struct api_field {
  const char *name;
  enum api_field_type type;
  bool required;
};

/* Decode the request body as a JSON object whose members are all listed in
 * `fields` (NULL-name terminated) with the listed types. An absent or empty
 * body counts as {} when `empty_ok`. On success *out is a new reference. */
enum cairn_status api_body_object(const struct api_request *req, const struct api_field *fields,
                                  bool empty_ok, json_t **out, struct cairn_error *err);

/* Parse a query parameter as a non-negative integer. *present says whether
 * it was given at all; when it was not, *out keeps its value (the
 * caller's default). CAIRN_EINVAL bad-query if it is not a number. */
enum cairn_status api_query_uint(const struct api_request *req, const char *name, uint32_t *out,
                                 bool *present, struct cairn_error *err);

/* ---- auth.c ---- */

/* Resolve the Authorization header into req->player. No header is fine
 * (spectator); a malformed or unknown token is CAIRN_EAUTH bad-token. */
enum cairn_status api_authenticate(struct api_request *req, struct cairn_error *err);

/* CAIRN_EAUTH missing-token unless the request carries a valid token. */
enum cairn_status api_require_player(const struct api_request *req, struct cairn_error *err);

/* Fill `out` with a fresh random id: 20 lowercase hex characters. */
void api_new_id(char out[DB_ID_MAX + 1]);

/* Mint a bearer token into `token` and its storage hash into `hash`. */
void api_new_token(char token[64], uint8_t hash[DB_HASH_BYTES]);

/* ---- replay.c ---- */

/* Rebuild a game from its row and log. With `upto_seq` NULL, every row is
 * applied; otherwise rows are applied while their seq <= *upto_seq. On
 * success *out is the caller's (engine_free) and *rows the number applied.
 * A log that does not replay is CAIRN_EINTERNAL. */
enum cairn_status api_replay(struct api_server *server, const struct db_game *row,
                             const uint32_t *upto_seq, struct engine_game **out, uint32_t *rows,
                             struct cairn_error *err);

/* Replay checkpoints (replay.c). Free accepts NULL. */
struct api_checkpoints *api_checkpoints_new(void);
void api_checkpoints_free(struct api_checkpoints *checkpoints);

/* The state after the first `rows` log rows (api_replay_rows). On success
 * *out is the caller's (engine_free). */
enum cairn_status api_replay_rows(struct api_server *server, const struct db_game *row,
                                  uint32_t rows, struct engine_game **out, struct cairn_error *err);

/* ---- takeback.c: the platform's own log rows ---- */

/* A source of "the state after the first `rows` rows of this log". */
typedef enum cairn_status (*api_prefix_fn)(void *ctx, uint32_t rows, struct engine_game **out,
                                           struct cairn_error *err);

/* True when `move` (a stored log row's move) is a platform row. */
bool api_platform_move(const json_t *move);

/* Replay the platform row `row` (its parsed `move`) on *state: a rewind
 * replaces *state (freed) with prefix(to_ord) one step later; the others
 * leave it as it is. *events (new reference) are the row's events. */
enum cairn_status api_platform_apply(const json_t *move, const struct db_move *row,
                                     struct engine_game **state, json_t **events,
                                     api_prefix_fn prefix, void *ctx, struct cairn_error *err);

/* ---- fog.c: what a live game's log keeps hidden ---- */

/* True when row i of `moves` (a whole stored log, in order) is a title move
 * that left its step pending (a simultaneous decision). */
bool api_fog_pending(const struct db_move *moves, size_t i);

/* May `viewer` (a seat or ENGINE_SPECTATOR) see the move of row i of the
 * live game whose log is moves[0..n)? Its own rows always; another seat's
 * only when no event of it is private and, if it left its step pending, a
 * later title move resolved the step (a pending decision undone by a
 * rewind is never shown while the game runs). */
bool api_fog_move_visible(const struct db_move *moves, size_t n, size_t i, int viewer);

/* The visibility of every row of a live log for one viewer, learned in one
 * pass in log order: one byte per row, never the rows, so an export can
 * stream a log of any length (a pending row's fate is known only when a
 * later row moves seq on). Rows still pending at the end stay hidden. */
struct api_fog_scan {
  int viewer;    /* a seat or ENGINE_SPECTATOR */
  uint8_t *rows; /* owned: per row, what fog.c knows of it */
  size_t n, cap; /* rows added; bytes allocated */
  size_t run;    /* first row sharing the last row's seq */
  uint32_t last_seq;
};
void api_fog_scan_init(struct api_fog_scan *scan, int viewer);
/* Add the next row of the log (CAIRN_ENOMEM only). */
enum cairn_status api_fog_scan_add(struct api_fog_scan *scan, const struct db_move *m,
                                   struct cairn_error *err);
/* May the viewer see the move of row i, given the rows added so far? */
bool api_fog_scan_visible(const struct api_fog_scan *scan, size_t i);
void api_fog_scan_clear(struct api_fog_scan *scan);

/* Static: why row r of `moves` (a `module` game) showed someone something
 * it must never take back (private events, revealed information, a
 * simultaneous step with another seat), worded without the secret; NULL
 * when it showed nothing. Generator draws are judged by the caller, who
 * can replay. */
const char *api_fog_row_secret(const struct engine_module *module, const struct db_move *moves,
                               size_t r);

/* The stripe of `game_id` is db_id_hash(game_id) % API_GAME_STRIPES, the
 * hash live.c picks its sets by too. */
void api_game_lock(struct api_server *server, const char *game_id);
void api_game_unlock(struct api_server *server, const char *game_id);

/* ---- live.c: cache of current states, all calls under server->game_lock ---- */

/* A cache of at most `slots` states (a multiple of 8 * API_GAME_STRIPES). */
struct api_live *api_live_new(size_t slots);
void api_live_free(struct api_live *live);

/* Borrowed until the lock is released or the entry is replaced: the current
 * state of `row`, from the cache when it matches the row's move count,
 * rebuilt from the log otherwise. */
enum cairn_status api_live_get(struct api_server *server, const struct db_game *row,
                               const struct engine_game **out, struct cairn_error *err);

/* Borrowed (as api_live_get): the cached state of `game_id` whatever its
 * move count, or NULL. */
const struct engine_game *api_live_peek(struct api_live *live, const char *game_id);

/* Takes `game`: it becomes the cached state of `game_id` after `moves` rows. */
void api_live_put(struct api_live *live, const char *game_id, uint32_t moves,
                  struct engine_game *game);

/* ---- games.c ---- */

/* The viewer's seat in `row`, or ENGINE_SPECTATOR. */
int api_viewer_seat(const struct api_request *req, const struct db_game *row);

/* New reference: the game resource as this request's viewer may see it.
 * `state` is the engine state at the shown position; `replay` marks a
 * historical position (no legal moves). */
json_t *api_game_json(const struct api_request *req, const struct db_game *row,
                      const struct engine_game *state, bool replay);

/* Load the game named by req->id into *row (CAIRN_ENOTFOUND otherwise);
 * caller releases with db_game_clear. */
enum cairn_status api_load_game(struct api_request *req, struct db_game *row,
                                struct cairn_error *err);

/* ---- moves.c ---- */

/* The checks api.md orders before the title sees a move: seated
 * (not-seated), active (game-not-active), rules version current
 * (rules-version-retired), `seq` current (stale-seq). */
enum cairn_status api_check_turn(const struct db_game *row, int seat, json_int_t seq,
                                 struct cairn_error *err);

/* Append `move` (borrowed) with its `events` (borrowed) for `seat` as the
 * game's next log row, mirror the commit in *row and make `next` the cached
 * state. Takes `next` on every path. Call under server->game_lock. */
enum cairn_status api_append_row(struct api_server *server, struct db_game *row, int seat,
                                 const json_t *move, const json_t *events, struct engine_game *next,
                                 struct cairn_error *err);

/* api_append_row for a row that ends the game with `result_json` (static
 * text or borrowed) decided outside the title: a timeout adjudication. */
enum cairn_status api_append_finished(struct api_server *server, struct db_game *row, int seat,
                                      const json_t *move, const json_t *events,
                                      struct engine_game *next, const char *result_json,
                                      struct cairn_error *err);

/* api_append_row, then let bot seats play (api_bots_play), then answer
 * {seq, events, game} in `resp`. Takes `next` on every path. */
enum cairn_status api_commit_row(struct api_request *req, struct db_game *row, int seat,
                                 const json_t *move, const json_t *events, struct engine_game *next,
                                 struct api_response *resp, struct cairn_error *err);

/* ---- bots.c ---- */

#define API_BOT_PREFIX "bot-" /* player ids of built-in bots; human ids are hex */

/* True when the player in `seat` of `row` is a built-in bot. */
bool api_seat_is_bot(const struct db_game *row, int seat);

/* While the game is active and a bot seat owes a decision, play it: a
 * legal move chosen at random, appended like any move. Bounded, and a
 * failure only stops the bots (logged): what was committed stays. Call
 * under server->game_lock; *row is kept in step with the log. */
void api_bots_play(struct api_server *server, struct db_game *row);

/* Create the player of a new bot seat in *out (its token is one nobody
 * holds). */
enum cairn_status api_bot_player(struct api_server *server, struct db_player *out,
                                 struct cairn_error *err);

/* ---- webhooks.c ---- */

/* Queue the webhooks a change of `row` calls for: start/end when the status
 * moved on from `prev_status`, turn notices for seats that came to owe a
 * decision (compared with `prev_to_act`). `state` is the current state. */
void api_webhooks_publish(struct api_server *server, const struct db_game *row,
                          const char *prev_status, const int *prev_to_act, int prev_n,
                          const struct engine_game *state);

/* ---- framing.c ---- */

/* Check a parsed request head before its body is read: target and header
 * sizes (414, 431), framing (400 bad-framing for Content-Length with
 * Transfer-Encoding or repeated, 411 for chunked, 501 for another transfer
 * coding) and a declared length over `body_cap` (413). The server answers
 * a failure at once and closes the connection. */
enum cairn_status api_check_head(struct MHD_Connection *conn, const char *url, size_t body_cap,
                                 struct cairn_error *err);

/* ---- library_answers.c ---- */

/* True once libmicrohttpd's own MHD_queue_response has been found, which
 * library_answers.c's replacement (turning the library's HTML error
 * answers into problem+json) passes every answer to. Checked at start. */
bool api_library_answers_ready(void);

/* ---- limits.c ---- */

struct api_limits;

/* Rate limits: requests per second per client address (anonymous calls,
 * and calls whose token failed) and per player (calls with a checked
 * token); 0 turns one off. NULL when both are 0. Free accepts NULL. */
struct api_limits *api_limits_new(double per_address, double per_token);
void api_limits_free(struct api_limits *limits);

/* Why a request was refused: the 429's Retry-After and the IETF draft's
 * RateLimit-Limit (the burst), RateLimit-Remaining (0) and RateLimit-Reset
 * (seconds until the bucket is full again). All 0 when not refused. */
struct api_rate_refusal {
  int retry_after;
  int limit;
  int reset;
};

/* Charge the request to its caller: the player when req->has_player, the
 * client address otherwise. CAIRN_ETOOLARGE code rate-limited (429) with
 * `refusal` filled when the caller's bucket is empty. */
enum cairn_status api_limits_check(struct api_request *req, struct api_rate_refusal *refusal,
                                   struct cairn_error *err);

/* ---- clocks.c ---- */

/* True when the game has a time control. */
bool api_has_time_control(const struct db_game *row);

/* After any change of `row` (and at its start): seats that stopped owing a
 * decision pay for its time, seats that started owing one start their
 * clock, deadlines are recomputed (vacations included). Call under the
 * game lock. */
void api_clocks_update(struct api_server *server, const struct db_game *row,
                       const struct engine_game *state);

/* What api_clocks_update would save, without saving it: the clocks of
 * `row` once `state` is its position (`active`: the game still takes
 * moves) in clocks[], and their number; 0 for a game without a time
 * control (or whose clocks cannot be read). A move passes them to
 * move_append, which stores them in the move's transaction. */
int api_clocks_next(struct api_server *server, const struct db_game *row,
                    const struct engine_game *state, bool active,
                    struct db_clock clocks[ENGINE_MAX_SEATS]);

/* The seats whose deadline has passed, into seats[]; their number. */
int api_clocks_overdue(struct api_server *server, const struct db_game *row, int seats[]);

/* New reference: the earliest deadline of the game (RFC 3339) or null;
 * with `per_seat`, also a new array [{seat, bank_ms, deadline}]. */
json_t *api_deadline_json(struct api_server *server, const struct db_game *row, json_t **per_seat);

/* ---- sweeper.c ---- */

/* The test clock (--test-clock): the real clock plus what
 * POST /v1/test/clock advanced it by. */
int64_t api_clock_test(void);

/* Start / stop the deadline sweeper thread. */
bool api_sweeper_start(struct api_server *server);
void api_sweeper_stop(struct api_server *server);

/* ---- time.c ---- */

/* New reference: `ms` since the epoch as an RFC 3339 UTC string. */
json_t *api_time_json(int64_t ms);

/* The real clock, the default for server->now_ms. */
int64_t api_clock_realtime(void);

/* ---- handlers, one per resource file ---- */
enum cairn_status api_players_create(struct api_request *, struct api_response *,
                                     struct cairn_error *);
enum cairn_status api_titles_list(struct api_request *, struct api_response *,
                                  struct cairn_error *);
enum cairn_status api_games_create(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_games_get(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_games_join(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_moves_submit(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_log_get(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_games_verify(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_games_export(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_games_import(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_takeback_request(struct api_request *, struct api_response *,
                                       struct cairn_error *);
enum cairn_status api_takeback_accept(struct api_request *, struct api_response *,
                                      struct cairn_error *);
enum cairn_status api_takeback_decline(struct api_request *, struct api_response *,
                                       struct cairn_error *);
enum cairn_status api_static_get(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_players_my_games(struct api_request *, struct api_response *,
                                       struct cairn_error *);
enum cairn_status api_games_wait(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_games_events(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_players_events(struct api_request *, struct api_response *,
                                     struct cairn_error *);
enum cairn_status api_webhooks_create(struct api_request *, struct api_response *,
                                      struct cairn_error *);
enum cairn_status api_webhooks_list(struct api_request *, struct api_response *,
                                    struct cairn_error *);
enum cairn_status api_webhooks_delete(struct api_request *, struct api_response *,
                                      struct cairn_error *);
enum cairn_status api_webhooks_deliveries(struct api_request *, struct api_response *,
                                          struct cairn_error *);
enum cairn_status api_test_clock(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_vacation_get(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_vacation_declare(struct api_request *, struct api_response *,
                                       struct cairn_error *);
enum cairn_status api_meta_health(struct api_request *, struct api_response *,
                                  struct cairn_error *);
enum cairn_status api_meta_server_key(struct api_request *, struct api_response *,
                                      struct cairn_error *);
enum cairn_status api_meta_openapi(struct api_request *, struct api_response *,
                                   struct cairn_error *);

#endif
