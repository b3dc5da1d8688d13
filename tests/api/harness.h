/*
 * harness.h - support code for the HTTP integration tests in tests/api/.
 *
 * The API tests link no server code. Each test starts the REAL server binary
 * (the path in env CAIRN_SERVER, set by `make run-tests`) on an ephemeral
 * loopback port with a database in a fresh temporary folder, talks to it over
 * HTTP with libcurl, and stops it again. Everything here has a time limit, so
 * a broken server makes a test fail with a message instead of hanging.
 *
 * Failures inside the harness are reported through cmocka (fail_msg and
 * friends, which jump out of the running test), so callers need not check
 * return values unless a function says otherwise.
 *
 * Ownership follows shared/design/style.md 2.6: "OUT, caller frees with X",
 * "Borrowed until Y", "New reference".
 */
#ifndef TESTS_API_HARNESS_H
#define TESTS_API_HARNESS_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A curl easy handle kept across requests so connections are reused. One per
 * thread: a client must not be used by two threads at once. */
struct harness_client {
  void *curl; /* CURL *, created by harness_client_init */
  const struct harness_server *server;
};

struct harness_server {
  pid_t pid;                    /* the server process, 0 when stopped */
  int out_fd;                   /* read end of the server's stdout, -1 when stopped */
  pthread_t drain;              /* reads (and discards) the server's stdout after the listen line */
  bool drain_running;           /* drain was started and not yet joined */
  char dir[256];                /* the temporary folder holding the database */
  char db_path[300];            /* dir + "/cairn.db", or the URL given to harness_start_on */
  bool in_dir;                  /* the server runs in dir (harness_start_on) */
  char log_path[300];           /* dir + "/server.log": the server's stderr */
  char host[64];                /* as printed in the listen line */
  int port;                     /* as printed in the listen line */
  char base_url[128];           /* "http://HOST:PORT", no trailing slash */
  struct harness_client client; /* the default client for harness_call*() */
};

/* ---- Process-wide setup, once per test binary ---- */

/* curl_global_init. Call from main() before the tests. */
void harness_global_init(void);
/* curl_global_cleanup. Call from main() after the tests. */
void harness_global_cleanup(void);

/* ---- Server lifecycle ---- */

/* Create a temporary folder, start `$CAIRN_SERVER --host 127.0.0.1 --port 0
 * --db DIR/cairn.db` and wait (at most 10 s) for the line
 * `cairn: listening on http://HOST:PORT`. Fails the test if the binary is
 * missing, dies, or stays silent. */
void harness_start(struct harness_server *s);

/* harness_start with the server on the store `db_url` (`--db db_url`, a
 * database server's URL) instead of a file in the folder. The server runs
 * in the folder, which holds what it keeps beside a store that is not a
 * file (its signing key) and goes with harness_stop; the store stays. */
void harness_start_on(struct harness_server *s, const char *db_url);

/* Stop the server (SIGTERM; SIGKILL after 10 s), reap it and remove the
 * temporary folder. Returns true when the server exited by itself with status
 * 0, which is what "SIGTERM stops it cleanly" promises (under ASan a leak
 * makes the exit status non-zero too). Safe on a stopped server. Does not fail
 * the test itself, so it can run in teardown after a failure. */
bool harness_stop(struct harness_server *s);

/* Stop the server without removing the folder and start it again on the same
 * database (the port will differ). Fails the test if the stop was not clean. */
void harness_restart(struct harness_server *s);

/* True while the server process is running. */
bool harness_alive(struct harness_server *s);

/* Stop the server but keep its database (to edit it behind the server's
 * back), then start it again on the same database. */
/* Copy the running server's database (its file and WAL) to `out` (and
 * `out`-wal), for a test to read what is stored: the server holds the file
 * itself and refuses other openers (db/sqlite/internal.h). Consistent when
 * no request is in flight. Fails the test when a copy fails. */
void harness_db_snapshot(const struct harness_server *s, const char *out);
void harness_pause(struct harness_server *s);
void harness_resume(struct harness_server *s);

/* Crash the server: SIGKILL, reap it, keep its database (no clean exit is
 * asked for or checked); harness_resume starts it again on the same
 * database, after which harness_stop and the teardown work as usual. */
void harness_kill(struct harness_server *s);

/* cmocka fixtures: *state becomes a started `struct harness_server *`;
 * teardown stops it and fails when the server died or did not exit cleanly. */
int harness_setup(void **state);
int harness_teardown(void **state);

/* ---- Waiting ---- */

/* Call done(arg) until it returns true or `timeout_ms` of real time pass,
 * pausing 10 ms between calls (done runs at least once); returns its last
 * answer. Only for what happens on its own time outside the test's hands:
 * a webhook reaching the receiver, a process exiting, a connection deadline
 * on the real clock. A server deadline is stepped with harness_advance_clock
 * instead, and the caller says in a comment why it has to wait. */
bool harness_wait_until(bool (*done)(void *arg), void *arg, long timeout_ms);

/* The same, pausing `pause_ms` between calls: for a `done` whose every call
 * costs the server something (a new connection, say). */
bool harness_wait_every(bool (*done)(void *arg), void *arg, long timeout_ms, long pause_ms);

/* The value of the sample in a GET /metrics text whose name and labels are
 * exactly `key` (e.g. "cairn_webhook_backlog"); `absent` when the text has
 * no such line. */
double harness_metrics_sample(const char *text, const char *key, double absent);
/* The same, read from a scrape of `s`'s GET /metrics; -1 when the scrape
 * fails or has no such line. */
double harness_metric(struct harness_server *s, const char *key);

/* POST /v1/test/clock {"advance_ms": ms} on a server started with env
 * CAIRN_TEST_CLOCK=1; expects 200. The server acts on every deadline the
 * step passed before it answers, so the caller may assert at once. */
void harness_advance_clock(struct harness_server *s, long long ms);

/* ---- Requests ---- */

struct harness_request {
  const char *method;         /* "GET", "POST", ... any token */
  const char *path;           /* appended verbatim to the base URL, e.g. "/v1/titles" */
  const char *token;          /* NULL: no Authorization header; else "Bearer <token>" */
  const void *body;           /* NULL: no body (POST/PUT/PATCH then send an empty one) */
  size_t body_len;            /* bytes of body; may contain NULs */
  const char *const *headers; /* NULL or a NULL-terminated list of "Name: value" lines.
                                 By default a body is sent as application/json and
                                 curl's "Expect: 100-continue" is suppressed; a line
                                 naming Content-Type or Expect overrides that, and
                                 "Name:" with no value removes a header. */
};

struct harness_response {
  long status;        /* HTTP status, 0 when no response was received */
  char *content_type; /* OUT: the Content-Type header, or NULL */
  char *body;         /* OUT: the body, NUL-terminated (not counted in body_len) */
  size_t body_len;
  json_t *json;   /* New reference: the body parsed as JSON, or NULL if it is not */
  char **headers; /* OUT: the final response's header lines, "Name: value" */
  size_t n_headers;
  char what[256];  /* "METHOD path", for messages */
  char error[256]; /* transport error text when status is 0 */
};

/* Release everything a response holds and zero it. Accepts a zeroed response. */
void harness_response_free(struct harness_response *r);

/* The value of header `name` (case-insensitive) in `r`, or NULL.
 * Borrowed until harness_response_free(r). */
const char *harness_response_header(const struct harness_response *r, const char *name);

void harness_client_init(struct harness_client *c, const struct harness_server *s);
void harness_client_cleanup(struct harness_client *c);

/* Send one request. `*out` is filled in every case (status 0 and `error` on a
 * transport failure); caller frees with harness_response_free. Returns true
 * when an HTTP response was received. Never fails the test: usable from
 * threads. Time limit: 15 s per request. */
bool harness_send(struct harness_client *c, const struct harness_request *req,
                  struct harness_response *out);

/* Convenience on the server's default client: `body` is a NUL-terminated
 * string sent as application/json (NULL for none), the path is formatted
 * with printf. Fails the test on a transport error. Caller frees *out with
 * harness_response_free. */
void harness_call(struct harness_server *s, struct harness_response *out, const char *method,
                  const char *token, const char *body, const char *path_fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* As harness_call with a JSON body (borrowed), serialised compactly. */
void harness_call_json(struct harness_server *s, struct harness_response *out, const char *method,
                       const char *token, const json_t *body, const char *path_fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* ---- Assertions that print the request and the body when they fail ---- */

#define HARNESS_EXPECT_STATUS(r, status) harness_expect_status((r), (status), __FILE__, __LINE__)
/* Status, Content-Type application/problem+json, and a body with type
 * ("urn:cairn:problem:<code>"), title, status (equal to the HTTP status),
 * detail and code (equal to `code`, or any string when `code` is NULL). */
#define HARNESS_EXPECT_PROBLEM(r, status, code)                                                    \
  harness_expect_problem((r), (status), (code), __FILE__, __LINE__)
/* Status and an application/json body. */
#define HARNESS_EXPECT_JSON(r, status) harness_expect_json((r), (status), __FILE__, __LINE__)

void harness_expect_status(const struct harness_response *r, long status, const char *file,
                           int line);
void harness_expect_problem(const struct harness_response *r, long status, const char *code,
                            const char *file, int line);
void harness_expect_json(const struct harness_response *r, long status, const char *file, int line);

/* Print a message naming the request and its answer, then fail the test. */
void harness_fail_response(const struct harness_response *r, const char *file, int line,
                           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* True when `ct` is `type` optionally followed by parameters (";charset=..."). */
bool harness_media_type_is(const char *ct, const char *type);

/* ---- Resource helpers (each fails the test on an unexpected answer) ---- */

struct harness_player {
  char id[64];
  char name[64];
  char token[128];
};

/* POST /v1/players {name}; expects 201. */
void harness_new_player(struct harness_server *s, const char *name, struct harness_player *p);

/* POST /v1/games {title, seats, options} as `token`; `options_json` may be
 * NULL (no member sent). Expects 201 and status "open". New reference: the
 * game resource. */
json_t *harness_new_game(struct harness_server *s, const char *token, const char *title, int seats,
                         const char *options_json);

/* POST /v1/games/{id}/join, `seat` < 0 for "any" (empty body). Expects 200
 * and returns the seat. */
int harness_join(struct harness_server *s, const char *token, const char *game_id, int seat);

/* Assert that GET /v1/titles lists `id` with this name, seat range and
 * rules version. */
void harness_expect_title(struct harness_server *s, const char *id, const char *name, int min_seats,
                          int max_seats, const char *rules_version);

/* Create `seats` players and a game of `title`, seat them all, and play to
 * the end walking `choices` (views asked with ?legal=none) with `seed`. Fills
 * players[0..seats) and game_id. Fails the test if the game never ends. */
void harness_play_random(struct harness_server *s, const char *title, int seats,
                         const char *options_json, uint64_t seed, struct harness_player players[],
                         char game_id[64]);

/* GET the path (printf-style) as `token` (NULL: anonymous). Expects 200
 * with a JSON body. New reference: the body. */
json_t *harness_get_json(struct harness_server *s, const char *token, const char *path_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* GET /v1/games/{id} as `token` (NULL: spectator). Expects 200. New reference. */
json_t *harness_get_game(struct harness_server *s, const char *token, const char *game_id);

/* GET /v1/games/{id}/log?from=N. Expects 200. New reference: the whole answer. */
json_t *harness_get_log(struct harness_server *s, const char *token, const char *game_id,
                        long from);

/* POST /v1/games/{id}/moves {seq, move} (move borrowed). Caller checks and
 * frees *out. */
void harness_post_move(struct harness_server *s, struct harness_response *out, const char *token,
                       const char *game_id, long seq, const json_t *move);

/* Borrowed from `game`: its "id" string (fails the test if absent). */
const char *harness_game_id(const json_t *game);

/* The integer member `key` of `obj`; fails the test if absent or not an integer. */
long harness_int(const json_t *obj, const char *key);

/* Borrowed from `obj`: the string member `key`; fails the test if absent. */
const char *harness_str(const json_t *obj, const char *key);

/* True when the array `to_act` of `game` holds `seat`. */
bool harness_may_act(const json_t *game, int seat);

/* True when the "events" array of a move's answer holds an event of `type`. */
bool harness_has_event(const json_t *answer, const char *type);

/* GET /v1/games/{id}/verify answers 200 with ok, chain.ok and replay.ok all
 * true: the hash chain holds and the log replays from the seed. Fails the
 * test, showing the report, otherwise. */
void harness_expect_verifies(struct harness_server *s, const char *game_id);

/* Run `$CAIRN_SERVER args` as an offline tool (`verify FILE`,
 * `revalidate --db PATH`): its exit status, and in *out the JSON it printed
 * (new reference, NULL when none). */
int harness_run_tool(const char *args, json_t **out);

/* OUT, caller frees with free(): compact, key-sorted JSON text. */
char *harness_dump(const json_t *j);

/* ---- A small deterministic generator (splitmix64), for picking moves ---- */

struct harness_rng {
  uint64_t state;
};
uint64_t harness_rng_next(struct harness_rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t harness_rng_below(struct harness_rng *r, uint64_t n);

/* A random legal move for the seat whose game resource is `mine`: a walk
 * of its `choices` tree (harness_walk_choices). Fails the test when the
 * seat has no choices. New reference. */
json_t *harness_choose_move(const json_t *mine, struct harness_rng *rng);

/* The reference walker of openapi/base.yaml's Choices in C: a random legal
 * move built by walking `choices` (a tree, borrowed), choosing each node's
 * option with `rng`. New reference. */
json_t *harness_walk_choices(const json_t *choices, struct harness_rng *rng);

#endif
