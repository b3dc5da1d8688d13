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
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../db/db.h"
#include "../engine/cairn.h"
#include "../engine/engine.h"
#include "../game/game.h"
#include "sign.h"

#define API_BODY_CAP            (64 * 1024)       /* bytes; larger bodies get 413 */
#define API_IMPORT_CAP          (8 * 1024 * 1024) /* bytes; a whole game's export */
#define API_UNAVAILABLE_RETRY_S 5                 /* Retry-After on every 503 */
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
#define API_CODE_DRAINING          "draining"         /* GET /readyz while the server stops */
#define API_CODE_BAD_SIGN_IN_CODE  "bad-sign-in-code" /* POST /v1/sign-in: no such code (now) */
/* libmicrohttpd's polling threads (server.c) where a move's append blocks
 * (PostgreSQL). A thread owns its connections and a move holds it until
 * durable (about a millisecond of fsync here; figures from when SQLite's
 * appends blocked too), so
 * each connection of a thread waits behind that thread's moves. bench_load,
 * 5 alternating runs each: 100 games in play 2,689-3,893 moves/s with 24
 * threads, 3,768-4,959 with 96 (better in all 5 pairs); 1,000 games within
 * a few percent; 256 threads lost a quarter at 1,000 games. An idle thread
 * costs ~13 KiB of resident memory (bench_idle: 13,520 -> 14,476 KiB). */
#define API_HTTP_THREADS 96
/* ...but when the store queues appends (db_appends_queue: SQLite's group
 * commit), a move parks its connection while its commit is on disk
 * (struct api_later) and no thread waits with it, so a few threads serve
 * every connection and fewer context switches are paid per move. */
#define API_HTTP_THREADS_QUEUED 4

/* Chat messages one player may post per second, with a burst of twice
 * that (limits.c's buckets): a conversation's pace, not a flood's. */
#define API_CHAT_PER_SECOND 1.0

/* Webhook amplification limits (webhooks.c): hooks one player may hold,
 * and hooks registered for one game by all players together. */
#define API_WEBHOOKS_PER_PLAYER 10
#define API_WEBHOOKS_PER_GAME   20

/* The server: one per process, built by cli/main.c, shared by request threads. */
/* Titles whose change answers keep a size hint (api_server.answer_hint). */
#define API_ANSWER_HINT_TITLES 16

struct api_server {
  /* The game layer (game/game.h), owned by cli/main.c: live games, their locks
   * and every change to them. Handlers reach games only through it. */
  struct game_service *game;
  struct db *db;               /* borrowed (cli/main.c owns it): what is not a game's */
  struct api_deliver *deliver; /* owned: the webhook worker, may be NULL */
  bool allow_private_webhooks; /* tests only: let webhooks reach loopback */
  struct api_limits *limits;   /* owned: rate limits, NULL for none */
  int max_open_games;          /* per player, 0 for no cap */
  struct api_notify *notify;   /* owned: long-poll and SSE notifications, may be NULL */
  const char *web_dir;         /* Static: the web client's folder, NULL for none */
  /* Count-then-insert limits (open games per player, webhooks per player
   * and per game) hold this across the count and the insert, so concurrent
   * requests cannot all pass a count taken before any of them was stored.
   * One process owns its database; a shared one needs the check in the
   * store's own transaction instead. */
  pthread_mutex_t caps_lock;
  /* Open connections, waiting clients included, across every polling
   * thread (server.c counts them); past max_connections a new one is
   * closed unanswered. */
  _Atomic int connections;
  int max_connections;
  /* The key this server signs its exports with (sign.h), kept in the data
   * directory so it outlives restarts. */
  struct api_sign_key key;
  struct api_conns *conns;     /* owned: per-address caps and request deadlines (server.h) */
  struct api_metrics *metrics; /* owned: GET /metrics' counters, may be NULL */
  const char *data_dir;        /* borrowed: where server.key lives (and backups are made) */
  /* Set once a stop was asked for: GET /readyz answers 503 so a load
   * balancer sends no more, while everything else is still served. */
  _Atomic bool draining;
  /* Origins whose pages may call the API from a browser (cors.c): ",a,b,"
   * or "" for none; cors_any for "*". Set once at start. */
  char cors_origins[1024];
  bool cors_any;
  /* Where people reach this server's page (--public-url), without a final
   * "/": chat messages link to a game's page there. "" when not known. */
  char public_url[512];
  /* Answers that come later (struct api_later) parked and not answered
   * yet: the stop waits for them before the daemon goes (api_server_settled). */
  _Atomic int laters_parked;
  /* Moves park while their commit is on disk (db_appends_queue) */
  bool moves_park;
  /* The threads that answer parked requests (later.c), owned; NULL until
   * api_server_start. */
  struct api_finisher *finisher;
  /* Per title (its place in engine_modules()), the length of its last
   * change answer (moves.c): a hint for the next one's first buffer. */
  _Atomic size_t answer_hint[API_ANSWER_HINT_TITLES];
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
  int route; /* set by api_route: see api_route_label */
};

/* What a handler answers on success. `body` is owned by the response (a new
 * reference the server releases); `text` is static. */
struct api_response {
  unsigned int status;      /* HTTP status */
  json_t *body;             /* JSON body, or NULL */
  char *json_text;          /* owned (freed by the server): a JSON body already written as
                             * text (api_answer_json), sent as `body` would be; or NULL */
  size_t json_len;          /* bytes of json_text */
  const char *text;         /* Static: a non-JSON body, or NULL */
  char *owned_text;         /* owned (freed by the server): a non-JSON body, or NULL */
  size_t text_len;          /* bytes of text or owned_text */
  const char *content_type; /* Static: for `text`, or a reader's (NULL: JSON) */
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
  /* An answer that comes later (struct api_later, owned), or NULL. */
  struct api_later *later;
  /* A refusal by a limit of the handler's own (chat's rate, a webhook
   * test's): the 429's Retry-After in whole seconds, kept when the handler
   * fails (the rest of the response is dropped); 0 for none. */
  int retry_after;
};

/*
 * An answer that comes later: a handler that started work finishing on
 * another thread (a move's group commit) sets resp->later and returns
 * CAIRN_OK. The server parks the connection (no thread waits with it). When
 * the work is done (api_later_done), one of the server's finishing threads
 * runs `answer`, which finishes the work and fills the response as a handler
 * would; then the connection's own thread sends it. `answer` does not run on
 * the connection's thread because that thread may be waiting for a lock the
 * answer releases (a game's, held across the commit). `release` frees the
 * later once the server is done with it, answered or not.
 */
struct api_later {
  enum cairn_status (*answer)(struct api_later *later, struct api_response *resp,
                              struct cairn_error *err);
  void (*release)(struct api_later *later);
  /* The server's (later.c), under its lock: */
  struct api_server *server;
  struct MHD_Connection *conn;
  bool parked;   /* the connection is suspended, waiting for the answer */
  bool answered; /* `answer` has run: st, err and resp hold its outcome */
  enum cairn_status st;
  struct cairn_error err;
  struct api_response resp; /* what `answer` filled, sent by the connection's thread */
  struct api_later *next;   /* in the finishing queue */
};

/* Release what a response holds (body, texts, reader) and zero it. */
void api_response_clear(struct api_response *resp);
/* The work is done: have `answer` run soon on a finishing thread. Any
 * thread may call it, once; it only queues. */
void api_later_done(struct api_later *later);
/* Whether no later is parked, for the stop. */
bool api_server_settled(const struct api_server *server);

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
/* ---- representation.c: entity tags, 304s and gzip for JSON answers ---- */

/* W/"<32 hex digits>": a hash of `body`, the answer's exact bytes. */
#define API_ETAG_MAX 37
void api_etag_of(const char *body, size_t len, char out[API_ETAG_MAX + 1]);
/* Whether an If-None-Match value (NULL: none) names `etag`, weakly
 * compared, or is "*". */
bool api_etag_matches(const char *if_none_match, const char *etag);
/* Whether an Accept-Encoding value (NULL: none) admits gzip. */
bool api_accepts_gzip(const char *accept_encoding);
/* `body` gzipped into *out (OUT, caller frees), when that is worth it: true
 * only for a body of 1 KiB or more that came out smaller. */
bool api_gzip(const char *body, size_t len, char **out, size_t *out_len);

/* ---- cors.c: cross-origin requests from configured origins ---- */

struct MHD_Response;
/* Take `origins` (--cors-origins: "a,b" or "*"; NULL or "" for none).
 * CAIRN_EINVAL naming the flag when it cannot be read. */
enum cairn_status api_cors_configure(struct api_server *server, const char *origins,
                                     struct cairn_error *err);
/* The request's Origin when it is allowed (borrowed from the request),
 * else NULL. */
const char *api_cors_origin(const struct api_server *server, struct MHD_Connection *conn);
/* An OPTIONS request asking whether another may be made. */
bool api_cors_is_preflight(struct MHD_Connection *conn, const char *method);
/* The CORS headers of an answer to `origin` (NULL: none): a preflight's,
 * or those of any other answer. */
void api_cors_headers(struct MHD_Response *resp, const char *origin, bool preflight);

#define API_ALLOW_MAX 64
enum cairn_status api_route(struct api_request *req, api_handler *out, char allow[API_ALLOW_MAX],
                            struct cairn_error *err);

/* The body cap of the route for method+path (API_BODY_CAP unless the route
 * sets its own). */
size_t api_body_cap(const char *method, const char *path);

/* Routes as GET /metrics labels them: api_route sets req->route to one of
 * [0, api_route_count()): a row of the table, or the web client's files
 * (the last); -1 for a request no route took. api_route_label gives its
 * method and pattern ("*" for the id segment; "static"; "unmatched"). */
int api_route_count(void);
void api_route_label(int route, const char **method, const char **pattern);

/* ---- metrics.c: GET /metrics, in Prometheus' text format ---- */

/* Counters of every answered request, by route and status, with their
 * latency. All updates are lock-free (atomics): a request pays a few
 * additions. OUT: NULL when out of memory; free with api_metrics_free
 * (NULL is fine). */
struct api_metrics *api_metrics_new(void);
void api_metrics_free(struct api_metrics *m);
/* One answer of `route` with HTTP `status`, `ns` after its head arrived
 * (a long-poll's wait included). NULL m: nothing counted. */
void api_metrics_observe(struct api_metrics *m, int route, unsigned int status, int64_t ns);
/* A request a rate limit refused (429). */
void api_metrics_rate_refused(struct api_metrics *m);

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

/* Mint a bearer token into `token` and its storage hash into `hash`. */
void api_new_token(char token[64], uint8_t hash[DB_HASH_BYTES]);

/* ---- games.c ---- */

/* The viewer's seat in `row`, or ENGINE_SPECTATOR. */
int api_viewer_seat(const struct api_request *req, const struct db_game *row);

/* Write the game resource as this request's viewer may see it, as one JSON
 * object, into `out` (the title's view and legal list are written straight
 * in, never built as a tree). `state` is the engine state at the shown
 * position; `replay` marks a historical position (no legal moves). */
void api_write_game(struct json_writer *out, const struct api_request *req,
                    const struct db_game *row, const struct engine_game *state, bool replay);

/* Answer `status` with the game resource (api_write_game). CAIRN_ENOMEM
 * when it could not be written. */
enum cairn_status api_answer_game(struct api_response *resp, unsigned int status,
                                  const struct api_request *req, const struct db_game *row,
                                  const struct engine_game *state, bool replay,
                                  struct cairn_error *err);

/* Answer `status` with what `w` holds (a complete JSON value), which it
 * takes. CAIRN_ENOMEM when writing it failed. */
enum cairn_status api_answer_json(struct api_response *resp, unsigned int status,
                                  struct json_writer *w, struct cairn_error *err);

/* Load the game named by req->id into *row (CAIRN_ENOTFOUND otherwise);
 * caller releases with db_game_clear. */
enum cairn_status api_load_game(struct api_request *req, struct db_game *row,
                                struct cairn_error *err);

/* ---- moves.c ---- */

/* Answer a committed change of `seat` ({seq, events, game}) with the events
 * (borrowed) that seat may see and the game as it stands now. Under the
 * game lock. */
enum cairn_status api_change_answer(struct api_request *req, const struct db_game *row, int seat,
                                    uint32_t seq, const json_t *events, struct api_response *resp,
                                    struct cairn_error *err);

/* ---- listener.c ---- */

/* The HTTP side's follow-ups of every committed change (waking waiting
 * clients, queueing webhooks), given to the game service at start with the
 * api_server as its context. */
extern const struct game_listener api_game_listener;

/* ---- webhooks.c ---- */

/* Add to *owed the webhook deliveries a change of a game calls for, with
 * `change` showing the game as the change leaves it: start/end when the
 * status moved on from change->prev_status, turn notices for seats that
 * came to owe a decision (compared with change->prev_to_act). Each is an
 * outbox row with a fresh delivery id, due now. Nothing without a delivery
 * worker; a failure only leaves deliveries out. */
void api_webhooks_owe(struct api_server *server, const struct game_committed *change,
                      struct game_owed *owed);

/* Add to *owed the chat lines message `msg` (borrowed) of `row`'s game
 * owes (issue 25): one per webhook following the game whose owner may
 * read the message's channel (the players' channel: only hooks of seated
 * players), the author's own hooks left out. Nothing without a delivery
 * worker; a failure only leaves deliveries out. */
void api_webhooks_owe_chat(struct api_server *server, const struct db_game *row,
                           const struct db_chat *msg, struct game_owed *owed);

/* Queue what *owed holds with the delivery worker when `committed`
 * (owed->stored: its outbox rows were written with the change), then
 * release it and zero *owed. */
void api_webhooks_send(struct api_server *server, struct game_owed *owed, bool committed);
/* Invitations (issue 25): once the new game `row` is stored, queue an
 * "invite" delivery to each invitee's game-less webhooks, naming the game
 * and the seat kept. The worker writes each to the outbox before its first
 * attempt (not in the game's transaction: a crash in between loses the
 * notice, never the invitation, which "my games" shows). */
void api_webhooks_invite(struct api_server *server, const struct db_game *row);
/* An invitation to seat `seat` of `row` was declined: "declined" to its
 * creator's game-less webhooks, naming the seat (never who declined). */
void api_webhooks_declined(struct api_server *server, const struct db_game *row, int seat);
/* `row` was cancelled by its creator: "cancelled" to the game-less
 * webhooks of every player seated in it and of every player it kept a
 * seat for (`invited`, per seat, as the row was before), the creator
 * aside, each naming their seat. */
void api_webhooks_cancelled(struct api_server *server, const struct db_game *row,
                            const char (*invited)[DB_ID_MAX + 1]);

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

/* Take one token from `key`'s bucket in `l` (any key: "chat:<player>"),
 * refilled at `rate` per second up to twice that, as api_limits_check
 * does for requests. False, with `refusal` filled, when the bucket is
 * empty; true for a NULL `l` (no limits). */
bool api_limits_take(struct api_limits *l, const char *key, double rate, int64_t now_ms,
                     struct api_rate_refusal *refusal);

/* ---- clocks.c ---- */

/* New reference: the earliest deadline of the game (RFC 3339) or null;
 * with `per_seat`, also a new array [{seat, bank_ms, deadline}]. */
json_t *api_deadline_json(struct api_server *server, const struct db_game *row, json_t **per_seat);

/* ---- time.c ---- */

/* The test clock (--test-clock): the real clock plus what
 * POST /v1/test/clock advanced it by. */
int64_t api_clock_test(void);

/* `ms` since the epoch as an RFC 3339 UTC string with milliseconds,
 * "2026-11-26T01:30:00.000Z": into text (API_TIME_TEXT bytes, NUL
 * included), or as a new JSON string reference. */
#define API_TIME_TEXT 40
void api_time_text(int64_t ms, char text[API_TIME_TEXT]);
json_t *api_time_json(int64_t ms);

/* The real clock, the default for the game service's. */
int64_t api_clock_realtime(void);

/* ---- clocks.c ---- */

/* The one clock the server runs on: the game service's (game->now_ms,
 * chosen by cli/main.c), so the HTTP side keeps none of its own. */
typedef int64_t (*api_clock_fn)(void);
api_clock_fn api_clock(const struct api_server *server);
/* api_clock(server)(): now, in ms since the epoch. */
int64_t api_now_ms(const struct api_server *server);

/* ---- handlers, one per resource file ---- */
enum cairn_status api_players_create(struct api_request *, struct api_response *,
                                     struct cairn_error *);
/* tickets.c: POST /v1/players/me/stream-ticket, and the check of a
 * ?ticket= that stands in for the token of GET /v1/players/me/events:
 * *out gets the ticket's player (its id only). */
enum cairn_status api_stream_ticket_issue(struct api_request *, struct api_response *,
                                          struct cairn_error *);
enum cairn_status api_stream_ticket_check(const struct api_request *req, struct db_player *out,
                                          struct cairn_error *err);
/* devices.c */
enum cairn_status api_players_me(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_players_rotate_token(struct api_request *, struct api_response *,
                                           struct cairn_error *);
enum cairn_status api_players_sign_in_code(struct api_request *, struct api_response *,
                                           struct cairn_error *);
enum cairn_status api_sign_in(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_titles_list(struct api_request *, struct api_response *,
                                  struct cairn_error *);
enum cairn_status api_games_create(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_games_get(struct api_request *, struct api_response *, struct cairn_error *);
/* hint.c: the strong bot's suggestion for the caller's seat (issue 26). */
enum cairn_status api_games_hint(struct api_request *, struct api_response *, struct cairn_error *);
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
enum cairn_status api_games_resign(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_games_replace(struct api_request *, struct api_response *,
                                    struct cairn_error *);
enum cairn_status api_static_get(struct api_request *, struct api_response *, struct cairn_error *);
/* GET /docs: the API document as one HTML page (docs.c). */
enum cairn_status api_docs_get(struct api_request *, struct api_response *, struct cairn_error *);
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
/* POST /v1/webhooks/{id}/test: one marked test delivery, its outcome. */
enum cairn_status api_webhooks_test(struct api_request *, struct api_response *,
                                    struct cairn_error *);
/* PUT and DELETE /v1/webhooks/{id}/mentions/me: the caller's handle for
 * a webhook that follows a game the caller sits in. */
enum cairn_status api_webhooks_mention_put(struct api_request *, struct api_response *,
                                           struct cairn_error *);
enum cairn_status api_webhooks_mention_delete(struct api_request *, struct api_response *,
                                              struct cairn_error *);
enum cairn_status api_test_clock(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_vacation_get(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_vacation_declare(struct api_request *, struct api_response *,
                                       struct cairn_error *);
enum cairn_status api_metrics_get(struct api_request *, struct api_response *,
                                  struct cairn_error *);
enum cairn_status api_meta_live(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_admin_backup(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_meta_ready(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_meta_health(struct api_request *, struct api_response *,
                                  struct cairn_error *);
enum cairn_status api_meta_server_key(struct api_request *, struct api_response *,
                                      struct cairn_error *);
enum cairn_status api_meta_openapi(struct api_request *, struct api_response *,
                                   struct cairn_error *);
/* The lobby, invitations and the archive (issue 25). */
/* The game's time control as its answers show it (new reference): {move_hours},
 * {base_hours, increment_hours, cap_hours} or null; NULL when out of memory. */
json_t *api_time_control_json(const struct db_game *row);
enum cairn_status api_lobby_list(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_invitation_accept(struct api_request *, struct api_response *,
                                        struct cairn_error *);
enum cairn_status api_invitation_decline(struct api_request *, struct api_response *,
                                         struct cairn_error *);
enum cairn_status api_games_rematch(struct api_request *, struct api_response *,
                                    struct cairn_error *);
enum cairn_status api_games_cancel(struct api_request *, struct api_response *,
                                   struct cairn_error *);
/* Another node ended an invitation with its seat not taken
 * (db_change.invitation): a decline announced to the streams here as a
 * decline of this node is; a cancel's game notice to the invitee's player
 * streams here (the game's own streams and its seated players' hear the
 * cancel as a change of the game: game_remote_change). Only when a client
 * here may care. */
void api_invitation_remote(struct api_server *server, const struct db_change *change);
/* Each seat of `row` with its player, {seat, player: {id, name} | null}
 * (new reference; lobby.c). */
json_t *api_seats_json(const struct db_game *row);
enum cairn_status api_archive_list(struct api_request *, struct api_response *,
                                   struct cairn_error *);
enum cairn_status api_archive_export(struct api_request *, struct api_response *,
                                     struct cairn_error *);

/* chat.c (issue 25): a game's chat, its channels' names and a message as
 * the API shows it (a new reference; a tombstone has no text). */
enum cairn_status api_chat_post(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_chat_list(struct api_request *, struct api_response *, struct cairn_error *);
enum cairn_status api_chat_delete(struct api_request *, struct api_response *,
                                  struct cairn_error *);
const char *api_chat_channel_name(int channel); /* Static */
/* Another node stored a chat message (db_change.chat): announced to the
 * streams here as a post of this node is, when a client here may care. */
void api_chat_remote(struct api_server *server, const struct db_change *change);
/* profiles.c (issue 25): a player's profile and a title's leaderboard. */
enum cairn_status api_players_profile(struct api_request *, struct api_response *,
                                      struct cairn_error *);
enum cairn_status api_leaderboard_get(struct api_request *, struct api_response *,
                                      struct cairn_error *);
json_t *api_chat_json(const struct db_chat *msg);

#endif
