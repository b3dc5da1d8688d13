/*
 * test_pg_nodes.c - live updates across nodes (issue 23): two real server
 * processes on one PostgreSQL database, a client waiting on node A (a
 * long-poll, an SSE stream of the game, a player's stream) and moves
 * posted on node B. A hears of them through PostgreSQL's notifications
 * (migrations/postgres/0002_notify.sql, db/postgres/listen.c,
 * game/remote.c) with the payloads a change made on A gets, a spectator's
 * stream carries nothing it could not fetch itself, a node announces its
 * own change once, and a node whose listening connection was ended hears
 * again, missing nothing, once it has made it again. Chat posted on one
 * node reaches the streams on the other, each channel only its readers
 * (issue 25).
 *
 * Each test has a database of its own on the cluster CAIRN_TEST_PG names
 * (`make run-tests` starts one with tests/db/pg_cluster.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <curl/curl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/api/harness.h"
#include "tests/api/sseclient.h"
#include "tests/api/longpoll.h"
#include "tests/api/pgdb.h"

#define MOVES 6 /* a spectator's stream follows this many */

/* ---- a database per test, two nodes on it ---- */

struct fixture {
  struct pgnodes n; /* the test's database and its two nodes */
};

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));

  if (!f || !pgnodes_open(&f->n, "cairn_nodes")) {
    free(f);
    return -1;
  }
  for (int i = 0; i < PGNODES_MAX; i++)
    pgnodes_start(&f->n, i);
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  struct fixture *f = *state;
  int rc = 0;

  if (f->n.started[0])
    kill(f->n.node[0].pid, SIGCONT); /* a failed test may have left it held */
  if (!pgnodes_close(&f->n))
    rc = -1;
  free(f);
  return rc;
}

/* ---- a game, played on one node ---- */

struct duel {
  struct harness_player p[2];
  char id[64];
};

static void start_duel(struct harness_server *s, struct duel *d)
{
  json_t *created;

  harness_new_player(s, "Tenzing", &d->p[0]);
  harness_new_player(s, "Hillary", &d->p[1]);
  created = harness_new_game(s, d->p[0].token, "himalaya", 2, "{}");
  snprintf(d->id, sizeof d->id, "%s", harness_game_id(created));
  json_decref(created);
  harness_join(s, d->p[0].token, d->id, 0);
  harness_join(s, d->p[1].token, d->id, 1);
}

/* What a spectator fetches: {game, seq, status, to_act}, as text (OUT,
 * caller frees with free()): the very members a notice carries. */
static char *public_notice(struct harness_server *s, const char *game_id)
{
  json_t *pub = harness_get_game(s, NULL, game_id);
  json_t *notice =
      json_pack("{s:s, s:O, s:O, s:O}", "game", game_id, "seq", json_object_get(pub, "seq"),
                "status", json_object_get(pub, "status"), "to_act", json_object_get(pub, "to_act"));
  char *text = harness_dump(notice);

  json_decref(notice);
  json_decref(pub);
  return text;
}

/* The seat to act plays its first legal move on `s`; the seq reached. */
static long play_one(struct harness_server *s, struct duel *d)
{
  json_t *pub = harness_get_game(s, NULL, d->id);
  int seat = (int)json_integer_value(json_array_get(json_object_get(pub, "to_act"), 0));
  json_t *mine = harness_get_game(s, d->p[seat].token, d->id);
  json_t *body = json_pack("{s:O, s:O}", "seq", json_object_get(mine, "seq"), "move",
                           json_array_get(json_object_get(mine, "legal"), 0));
  struct harness_response r;
  long seq;

  assert_string_equal(harness_str(pub, "status"), "active");
  harness_call_json(s, &r, "POST", d->p[seat].token, body, "/v1/games/%s/moves", d->id);
  HARNESS_EXPECT_STATUS(&r, 200);
  seq = harness_int(r.json, "seq");
  harness_response_free(&r);
  json_decref(body);
  json_decref(mine);
  json_decref(pub);
  return seq;
}

/* ---- SSE: the shared reader (sseclient.h), keeping each game event ---- */

#define SSE_MAX 16

struct sse {
  struct sse_client base; /* first: the reader */
  const char *kind;       /* the events kept: "game", "chat" or "invitation" */
  int want;               /* stop after this many of them */
  _Atomic int events;
  char *data[SSE_MAX]; /* OUT: each game event's data, compact and key-sorted */
  bool resync;         /* an "event: resync" came */
};

/* A game's start (seq 0): the join on B that started the duel reaches A
 * when A's listener gets to it, which may be just after a stream there
 * opened (and then that stream carries it) or before (and then it does
 * not), so the streams count the moves only. Counting it made a stream
 * waiting for one event stop at the start, before the move (and before a
 * resync) it was opened for, whenever the machine was busy. An open
 * game's cancel is at seq 0 too, and is counted: no join comes before it
 * in the tests that wait for one. */
static bool is_start(const struct sse *c, const json_t *body)
{
  const json_t *seq = json_object_get(body, "seq");
  const json_t *status = json_object_get(body, "status");

  return strcmp(c->kind, "game") == 0 && json_is_integer(seq) && json_integer_value(seq) == 0 &&
         !(json_is_string(status) && strcmp(json_string_value(status), "cancelled") == 0);
}

/* Re-read the whole text: the complete "event: <kind>" blocks so far. */
static bool count_events(struct sse_client *b)
{
  struct sse *c = (struct sse *)b;
  const char *at = b->text, *block;
  char head[32];
  int n = 0;

  snprintf(head, sizeof head, "event: %s\ndata: ", c->kind);
  c->resync = strstr(b->text, "event: resync") != NULL;
  while (n < SSE_MAX && (block = strstr(at, head))) {
    const char *data = block + strlen(head);
    const char *end = strstr(data, "\n\n");
    json_t *body;

    if (!end)
      break;
    body = json_loadb(data, (size_t)(end - data), 0, NULL);
    at = end;
    if (body && is_start(c, body)) {
      json_decref(body);
      continue;
    }
    if (!c->data[n])
      c->data[n] = body ? harness_dump(body) : strdup("(not JSON)");
    json_decref(body);
    n++;
  }
  atomic_store(&c->events, n);
  return n >= c->want;
}

/* Open `path` on `s` (as `token`, or anonymously) on its own thread,
 * keeping the events `kind`, and wait until the server holds the stream. */
static void sse_start_kind(struct sse *c, struct harness_server *s, const char *path,
                           const char *token, int want, const char *kind)
{
  memset(c, 0, sizeof *c);
  sse_client_init(&c->base, s, path, token, count_events);
  c->kind = kind;
  c->want = want;
  sse_client_start(&c->base);
}

/* sse_start_kind of the game events. */
static void sse_start(struct sse *c, struct harness_server *s, const char *path, const char *token,
                      int want)
{
  sse_start_kind(c, s, path, token, want, "game");
}

static void sse_free(struct sse *c)
{
  sse_client_free(&c->base);
  for (int i = 0; i < SSE_MAX; i++)
    free(c->data[i]);
}

/* ---- a long-poll on its own thread ---- */

/* A long-poll on the game, parked on `s` once this returns. */
static void poll_start(struct long_poll *a, struct harness_server *s, const char *game_id,
                       long after)
{
  long_poll_start(a, s, "/v1/games/%s/wait?after=%ld&timeout=30", game_id, after);
  long_poll_let_it_park();
}

/* The long-poll's answer less its "changed", as a notice's text (OUT,
 * caller frees with free()). */
static char *poll_notice(struct long_poll *a)
{
  char *text;

  assert_non_null(a->answer);
  assert_true(json_is_true(json_object_get(a->answer, "changed")));
  json_object_del(a->answer, "changed");
  text = harness_dump(a->answer);
  long_poll_free(a);
  return text;
}

static double now_s(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the tests ---- */

/* A move posted on B wakes, on A, a long-poll on the game, a spectator's
 * stream of it and the stream of a player seated in it, each with the
 * notice a change made on A itself gives: the one B's own stream of the
 * game carries, naming the new seq and the seat now to act. */
static void test_a_move_on_one_node_reaches_the_waiters_on_the_other(void **state)
{
  struct fixture *f = *state;
  struct harness_server *a = &f->n.node[0], *b = &f->n.node[1];
  struct sse on_a, player_on_a, on_b;
  struct long_poll poll;
  struct duel d;
  char path[128], *want, *polled;
  long seq;

  start_duel(b, &d);
  snprintf(path, sizeof path, "/v1/games/%s/events", d.id);
  sse_start(&on_a, a, path, NULL, 1);
  sse_start(&on_b, b, path, NULL, 1);
  sse_start(&player_on_a, a, "/v1/players/me/events", d.p[1].token, 1);
  poll_start(&poll, a, d.id, 0);

  seq = play_one(b, &d);
  assert_int_equal(seq, 1);
  long_poll_join(&poll);
  sse_client_join(&on_a.base);
  sse_client_join(&player_on_a.base);
  sse_client_join(&on_b.base);

  want = public_notice(b, d.id);
  polled = poll_notice(&poll);
  assert_string_equal(polled, want);
  assert_int_equal(atomic_load(&on_b.events), 1);
  assert_string_equal(on_b.data[0], want);
  assert_int_equal(atomic_load(&on_a.events), 1);
  assert_string_equal(on_a.data[0], want);
  assert_int_equal(atomic_load(&player_on_a.events), 1);
  assert_string_equal(player_on_a.data[0], want);
  free(want);
  free(polled);
  sse_free(&on_a);
  sse_free(&on_b);
  sse_free(&player_on_a);
}

/* `who` posts `text` to `channel` (NULL: their own) of game `id` on `s`;
 * the message's id into `msg_id`. */
static void post_chat(struct harness_server *s, const struct harness_player *who, const char *id,
                      const char *channel, const char *text, char msg_id[64])
{
  json_t *body = channel ? json_pack("{s:s, s:s}", "channel", channel, "text", text)
                         : json_pack("{s:s}", "text", text);
  struct harness_response r;

  harness_call_json(s, &r, "POST", who->token, body, "/v1/games/%s/chat", id);
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(msg_id, 64, "%s", harness_str(r.json, "id"));
  harness_response_free(&r);
  json_decref(body);
}

/* Chat posted and deleted on B reaches the streams of the game on A (issue
 * 25), each told only what its reader may read: a seated player's stream
 * hears of both channels, a spectator's (signed in or not) of the
 * spectators' only, never that the players' channel moved; and no event,
 * on any stream, carries a message's words. The players' message goes
 * first: a spectator's stream that holds the later ones would hold it
 * too, had it been sent there (A hears B's commits in their order, and a
 * stream sends in the order A heard). */
static void test_chat_on_one_node_reaches_the_streams_on_the_other_by_channel(void **state)
{
  struct fixture *f = *state;
  struct harness_server *a = &f->n.node[0], *b = &f->n.node[1];
  struct harness_player fan;
  struct sse seated, player_stream, watcher, anonymous;
  struct harness_response r;
  char path[128], secret[64], cheer[64];
  struct duel d;

  start_duel(b, &d);
  harness_new_player(b, "Sherpa fan", &fan);
  snprintf(path, sizeof path, "/v1/games/%s/events", d.id);
  sse_start(&seated, a, path, d.p[1].token, 3);
  sse_start(&watcher, a, path, fan.token, 2);
  sse_start(&anonymous, a, path, NULL, 2);
  sse_start(&player_stream, a, "/v1/players/me/events", d.p[1].token, 3);
  seated.kind = watcher.kind = anonymous.kind = player_stream.kind = "chat";

  post_chat(b, &d.p[0], d.id, "players", "we go left at the col", secret);
  post_chat(b, &fan, d.id, NULL, "allez!", cheer);
  harness_call(b, &r, "DELETE", fan.token, NULL, "/v1/chat/%s", cheer);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  sse_client_join(&seated.base);
  sse_client_join(&watcher.base);
  sse_client_join(&anonymous.base);
  sse_client_join(&player_stream.base);

  char want_players[160], want_cheer[160], want_gone[160];
  snprintf(want_players, sizeof want_players,
           "{\"channel\":\"players\",\"deleted\":false,\"game\":\"%s\",\"n\":1}", d.id);
  snprintf(want_cheer, sizeof want_cheer,
           "{\"channel\":\"spectators\",\"deleted\":false,\"game\":\"%s\",\"n\":1}", d.id);
  snprintf(want_gone, sizeof want_gone,
           "{\"channel\":\"spectators\",\"deleted\":true,\"game\":\"%s\",\"n\":1}", d.id);
  struct sse *hears_all[] = {&seated, &player_stream}, *spectators[] = {&watcher, &anonymous};
  for (int i = 0; i < 2; i++) {
    assert_int_equal(atomic_load(&hears_all[i]->events), 3);
    assert_string_equal(hears_all[i]->data[0], want_players);
    assert_string_equal(hears_all[i]->data[1], want_cheer);
    assert_string_equal(hears_all[i]->data[2], want_gone);
    assert_int_equal(atomic_load(&spectators[i]->events), 2);
    assert_string_equal(spectators[i]->data[0], want_cheer);
    assert_string_equal(spectators[i]->data[1], want_gone);
    assert_null(strstr(spectators[i]->base.text, "players"));
  }
  struct sse *all[] = {&seated, &player_stream, &watcher, &anonymous};
  for (int i = 0; i < 4; i++) {
    assert_null(strstr(all[i]->base.text, "left at the col"));
    assert_null(strstr(all[i]->base.text, "allez"));
    sse_free(all[i]);
  }
}

/* A stream holding at least `events` game events. */
struct stream_at {
  struct sse *c;
  int events;
};

static bool stream_reached(void *arg)
{
  struct stream_at *at = arg;

  return atomic_load(&at->c->events) >= at->events;
}

/* A spectator's stream on A, while both nodes play: one event per change,
 * in order, whichever node made it (a node announces its own change when
 * it commits it and not again when the database tells it), and each event
 * exactly what the spectator fetched from A at that seq: the four public
 * members, nothing of any seat's hidden view. Each move waits for the
 * event of the one before: a change that another overtakes before its
 * node hears of it is announced only as the later state (game/remote.c),
 * so a stream may skip a seq under a race, never repeat one. */
static void test_a_spectators_stream_carries_each_change_once_and_nothing_hidden(void **state)
{
  struct fixture *f = *state;
  char *fetched[MOVES + 1] = {0};
  struct sse c;
  struct duel d;
  char path[128];
  int i;

  start_duel(&f->n.node[1], &d);
  snprintf(path, sizeof path, "/v1/games/%s/events", d.id);
  sse_start(&c, &f->n.node[0], path, NULL, MOVES);
  for (i = 1; i <= MOVES; i++) {
    /* Odd moves on A, even ones on B. */
    long seq = play_one(&f->n.node[i % 2 ? 0 : 1], &d);

    struct stream_at at = {&c, i};

    assert_int_equal(seq, i);
    fetched[i] = public_notice(&f->n.node[0], d.id);
    /* A hears of B's moves on its own time. */
    assert_true(harness_wait_until(stream_reached, &at, 10000));
  }
  sse_client_join(&c.base);
  assert_int_equal(atomic_load(&c.events), MOVES);
  for (i = 1; i <= MOVES; i++)
    assert_string_equal(c.data[i - 1], fetched[i]);
  for (i = 1; i <= MOVES; i++)
    free(fetched[i]);
  sse_free(&c);
}

/* The listening connections of both nodes (application_name
 * cairn-listen: db/postgres/listen.c) on the test's database. */
struct listeners {
  struct fixture *f;
  char pids[128]; /* the ended backends, "pid,pid" */
};

/* End both nodes' listening backends; false when there were not two. */
static bool end_listeners(struct fixture *f, struct listeners *l)
{
  char sql[512], ended[128];

  l->f = f;
  snprintf(sql, sizeof sql,
           "SELECT string_agg(pid::text, ',') FROM pg_stat_activity"
           " WHERE application_name = 'cairn-listen' AND datname = '%s'",
           f->n.db.name);
  pgdb_admin_text(l->f->n.db.cluster, sql, l->pids, sizeof l->pids);
  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
           " WHERE pid IN (%s)) AS ended",
           l->pids[0] ? l->pids : "0");
  pgdb_admin_text(l->f->n.db.cluster, sql, ended, sizeof ended);
  return strcmp(ended, "2") == 0;
}

/* The ended backends are gone: nothing can reach the nodes through them. */
static bool listeners_gone(void *arg)
{
  struct listeners *l = arg;
  char sql[512], left[16];

  snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_stat_activity WHERE pid IN (%s)", l->pids);
  pgdb_admin_text(l->f->n.db.cluster, sql, left, sizeof left);
  return strcmp(left, "0") == 0;
}

/* ...and both nodes listen again, on new backends. */
static bool both_listen_again(void *arg)
{
  struct listeners *l = arg;
  char sql[512], listening[16];

  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'cairn-listen'"
           " AND datname = '%s' AND query LIKE 'LISTEN%%' AND pid NOT IN (%s)",
           l->f->n.db.name, l->pids);
  pgdb_admin_text(l->f->n.db.cluster, sql, listening, sizeof listening);
  return listeners_gone(arg) && strcmp(listening, "2") == 0;
}

/* An ended listening connection is made again: a long-poll on A parked
 * after that hears of a move made on B as before. */
static void test_a_node_whose_listener_was_ended_hears_again(void **state)
{
  struct fixture *f = *state;
  struct harness_server *a = &f->n.node[0], *b = &f->n.node[1];
  struct listeners ended;
  struct long_poll poll;
  struct duel d;
  char *want, *polled;

  start_duel(b, &d);
  assert_true(end_listeners(f, &ended));
  /* The nodes reconnect on their own time (a first pause of 50 ms). */
  assert_true(harness_wait_until(both_listen_again, &ended, 10000));
  poll_start(&poll, a, d.id, 0);
  assert_int_equal(play_one(b, &d), 1);
  long_poll_join(&poll);
  want = public_notice(b, d.id);
  polled = poll_notice(&poll);
  assert_string_equal(polled, want);
  free(want);
  free(polled);
}

/* A move made while A had no listening connection (A held still with
 * SIGSTOP, its backend ended and gone before B moves) never reaches A as
 * a notification. Once A runs again it makes a new connection and wakes
 * every waiter to look again: the parked long-poll answers with the move,
 * and a stream is told "resync" (events were lost), then hears the next
 * move as usual. */
static void test_a_move_made_while_a_node_could_not_listen_reaches_its_waiters(void **state)
{
  struct fixture *f = *state;
  struct harness_server *a = &f->n.node[0], *b = &f->n.node[1];
  struct listeners ended;
  struct long_poll poll;
  struct sse stream;
  struct duel d;
  char path[128], *want, *polled;
  double resumed;

  start_duel(b, &d);
  snprintf(path, sizeof path, "/v1/games/%s/events", d.id);
  sse_start(&stream, a, path, NULL, 1);
  poll_start(&poll, a, d.id, 0);
  assert_int_equal(kill(a->pid, SIGSTOP), 0);
  assert_true(end_listeners(f, &ended));
  assert_true(harness_wait_until(listeners_gone, &ended, 10000));
  assert_int_equal(play_one(b, &d), 1);
  assert_int_equal(kill(a->pid, SIGCONT), 0);
  resumed = now_s();

  long_poll_join(&poll);
  /* A reconnects on its own time, within a second; the long-poll's own
   * timeout (30 s) would answer it too, but late. */
  assert_true(now_s() - resumed < 10.0);
  want = public_notice(b, d.id);
  polled = poll_notice(&poll);
  assert_string_equal(polled, want);
  free(want);
  free(polled);

  assert_int_equal(play_one(b, &d), 2);
  sse_client_join(&stream.base);
  assert_true(stream.resync);
  assert_int_equal(atomic_load(&stream.events), 1);
  want = public_notice(b, d.id);
  assert_string_equal(stream.data[0], want);
  free(want);
  sse_free(&stream);
}

/* ---- invitations answered on the other node (issue 25) ---- */

/* A game opened on B by `creator` in seat 0 with seat 1 kept for
 * `invitee`, and the streams that watch an answer to it: two on A and, for
 * what they should carry, one on B. */
struct invited {
  struct harness_player creator, invitee;
  char id[64], path[128]; /* the game, and its stream's path */
  struct sse on_a[2], on_b;
};

/* New players `creator` and `invitee` on `b`, and their game. */
static void invited_open(struct invited *v, struct harness_server *b, const char *creator,
                         const char *invitee)
{
  struct harness_response r;
  char body[256];

  memset(v, 0, sizeof *v);
  harness_new_player(b, creator, &v->creator);
  harness_new_player(b, invitee, &v->invitee);
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":2,\"seat\":0,"
           "\"invite\":[{\"seat\":1,\"player\":\"%s\"}]}",
           v->invitee.id);
  harness_call(b, &r, "POST", v->creator.token, body, "/v1/games");
  HARNESS_EXPECT_JSON(&r, 201);
  snprintf(v->id, sizeof v->id, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  snprintf(v->path, sizeof v->path, "/v1/games/%s/events", v->id);
}

/* `who` POSTs /v1/games/{id}/`answer` on `b` (200); then the streams end. */
static void invited_answer(struct invited *v, struct harness_server *b,
                           const struct harness_player *who, const char *answer)
{
  struct harness_response r;

  harness_call(b, &r, "POST", who->token, NULL, "/v1/games/%s/%s", v->id, answer);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
  sse_client_join(&v->on_a[0].base);
  sse_client_join(&v->on_a[1].base);
  sse_client_join(&v->on_b.base);
}

/* Each stream on A carried one event, the very one B's carried, which
 * holds `member`; never the invitee's id. Frees the streams. */
static void invited_expect_as_on_b(struct invited *v, const char *member)
{
  assert_int_equal(atomic_load(&v->on_b.events), 1);
  assert_non_null(strstr(v->on_b.data[0], member));
  for (int i = 0; i < 2; i++) {
    assert_int_equal(atomic_load(&v->on_a[i].events), 1);
    assert_string_equal(v->on_a[i].data[0], v->on_b.data[0]);
    assert_null(strstr(v->on_a[i].base.text, v->invitee.id));
    sse_free(&v->on_a[i]);
  }
  sse_free(&v->on_b);
}

/* An invitation declined on B is told on A as on B: `event: invitation`
 * {game, seat, declined} on the game's stream and on the creator's player
 * stream, naming the seat and never who declined. */
static void test_a_decline_on_one_node_reaches_the_streams_on_the_other(void **state)
{
  struct fixture *f = *state;
  struct harness_server *a = &f->n.node[0], *b = &f->n.node[1];
  struct invited v;

  invited_open(&v, b, "Whillans", "Haston");
  sse_start_kind(&v.on_a[0], a, v.path, NULL, 1, "invitation");
  sse_start_kind(&v.on_a[1], a, "/v1/players/me/events", v.creator.token, 1, "invitation");
  sse_start_kind(&v.on_b, b, v.path, NULL, 1, "invitation");
  invited_answer(&v, b, &v.invitee, "invitation/decline");
  assert_non_null(strstr(v.on_b.data[0], "\"seat\":1"));
  invited_expect_as_on_b(&v, "\"declined\":true");
}

/* A game cancelled on B reaches, on A, the player stream of the player it
 * kept a seat for, as well as the game's stream: each with the notice the
 * invitee's stream on B carries (status cancelled). */
static void test_a_cancel_on_one_node_reaches_the_invitees_on_the_other(void **state)
{
  struct fixture *f = *state;
  struct harness_server *a = &f->n.node[0], *b = &f->n.node[1];
  struct invited v;

  invited_open(&v, b, "Bonatti", "Mauri");
  sse_start(&v.on_a[0], a, "/v1/players/me/events", v.invitee.token, 1);
  sse_start(&v.on_a[1], a, v.path, NULL, 1);
  sse_start(&v.on_b, b, "/v1/players/me/events", v.invitee.token, 1);
  invited_answer(&v, b, &v.creator, "cancel");
  invited_expect_as_on_b(&v, "\"status\":\"cancelled\"");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_move_on_one_node_reaches_the_waiters_on_the_other,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          test_a_spectators_stream_carries_each_change_once_and_nothing_hidden, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_node_whose_listener_was_ended_hears_again, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(
          test_a_move_made_while_a_node_could_not_listen_reaches_its_waiters, setup, teardown),
      cmocka_unit_test_setup_teardown(
          test_chat_on_one_node_reaches_the_streams_on_the_other_by_channel, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_decline_on_one_node_reaches_the_streams_on_the_other,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_cancel_on_one_node_reaches_the_invitees_on_the_other,
                                      setup, teardown),
  };
  int failed;

  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
