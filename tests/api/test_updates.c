/*
 * test_updates.c - telling clients that a game moved on (api/notify.c,
 * api/updates.c, api/mygames.c): long-poll wakes on the move and times out
 * without one; an SSE client that disconnects and resumes with
 * Last-Event-ID loses no event; a player's stream carries only that
 * player's games; "my games" lists the games awaiting the caller first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <curl/curl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/order.h"
#include "harness.h"
#include "sseclient.h"
#include "longpoll.h"

struct duel {
  struct harness_player p[2];
  char id[64];
};

static void start_duel(struct harness_server *s, struct duel *d, const char *a, const char *b)
{
  json_t *created;

  harness_new_player(s, a, &d->p[0]);
  harness_new_player(s, b, &d->p[1]);
  created = harness_new_game(s, d->p[0].token, "himalaya", 2, "{}");
  snprintf(d->id, sizeof d->id, "%s", harness_game_id(created));
  json_decref(created);
  harness_join(s, d->p[0].token, d->id, 0);
  harness_join(s, d->p[1].token, d->id, 1);
}

/* The seat to act plays its first legal move. */
static void play_one(struct harness_server *s, struct duel *d)
{
  json_t *spec = harness_get_game(s, NULL, d->id);
  int seat = (int)json_integer_value(json_array_get(json_object_get(spec, "to_act"), 0));
  json_t *mine = harness_get_game(s, d->p[seat].token, d->id);
  json_t *body = json_pack("{s:O, s:O}", "seq", json_object_get(mine, "seq"), "move",
                           json_array_get(json_object_get(mine, "legal"), 0));
  struct harness_response r;

  harness_call_json(s, &r, "POST", d->p[seat].token, body, "/v1/games/%s/moves", d->id);
  HARNESS_EXPECT_STATUS(&r, 200);
  harness_response_free(&r);
  json_decref(body);
  json_decref(mine);
  json_decref(spec);
}

/* ---- SSE: the shared reader (sseclient.h), counting "id:" events ---- */

struct sse {
  struct sse_client base; /* first: the reader */
  int want;               /* stop after this many events */
  int events;
  unsigned long long ids[64];
  long seqs[64];
};

/* Count complete events: "id: N" ... "data: {...seq...}" blocks. */
static bool count_events(struct sse_client *b)
{
  struct sse *c = (struct sse *)b;
  char *line;

  c->events = 0;
  for (line = strstr(b->text, "id: "); line && c->events < 64; line = strstr(line + 1, "id: ")) {
    char *data_line = strstr(line, "data: ");
    char *end = data_line ? strstr(data_line, "\n\n") : NULL;
    json_t *body;

    if (!end)
      break;
    c->ids[c->events] = strtoull(line + 4, NULL, 10);
    body = json_loadb(data_line + 6, (size_t)(end - data_line - 6), 0, NULL);
    c->seqs[c->events] = (long)json_integer_value(json_object_get(body, "seq"));
    json_decref(body);
    c->events++;
  }
  return c->events >= c->want;
}

static void sse_init(struct sse *c, struct harness_server *s, const char *path, const char *token,
                     int want)
{
  memset(c, 0, sizeof *c);
  sse_client_init(&c->base, s, path, token, count_events);
  c->want = want;
}

/* ---- long-poll ---- */

/* Issue "Asynchronous play", 2: "long-poll wakes on the move". */
static void test_long_poll_wakes_on_the_move(void **state)
{
  struct harness_server *s = *state;
  struct long_poll a;
  struct duel d;

  start_duel(s, &d, "waiter", "mover");
  long_poll_start(&a, s, "/v1/games/%s/wait?after=0&timeout=60", d.id);
  long_poll_let_it_park();
  play_one(s, &d);
  long_poll_join(&a);
  assert_non_null(a.answer);
  assert_true(json_is_true(json_object_get(a.answer, "changed")));
  assert_int_equal(json_integer_value(json_object_get(a.answer, "seq")), 1);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(a.answer, "to_act"), 0)), 1);
  long_poll_free(&a);
}

static void test_long_poll_without_a_move_answers_at_its_timeout(void **state)
{
  struct harness_server *s = *state;
  struct long_poll a;
  struct duel d;

  start_duel(s, &d, "patient", "idle");
  long_poll_start(&a, s, "/v1/games/%s/wait?after=0&timeout=1", d.id);
  long_poll_join(&a);
  assert_non_null(a.answer);
  assert_true(json_is_false(json_object_get(a.answer, "changed")));
  assert_int_equal(json_integer_value(json_object_get(a.answer, "seq")), 0);
  long_poll_free(&a);
}

/* Without `timeout` a long-poll waits (30 s, the document's default): a
 * move made while it is parked wakes it, where an answer given at once
 * would say changed: false. */
static void test_long_poll_without_timeout_waits(void **state)
{
  struct harness_server *s = *state;
  struct long_poll a;
  struct duel d;

  start_duel(s, &d, "unhurried", "mover");
  long_poll_start(&a, s, "/v1/games/%s/wait?after=0", d.id);
  long_poll_let_it_park();
  play_one(s, &d);
  long_poll_join(&a);
  assert_non_null(a.answer);
  assert_true(json_is_true(json_object_get(a.answer, "changed")));
  long_poll_free(&a);
}

static void test_long_poll_needs_after(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct duel d;

  start_duel(s, &d, "q1", "q2");
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/wait", d.id);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
}

/* Issue "Asynchronous play", 2: "SSE resumes after a disconnect with no
 * event lost". */
static void test_sse_resumes_after_a_disconnect_with_no_event_lost(void **state)
{
  struct harness_server *s = *state;
  struct sse first, second;
  struct duel d;
  char path[128];
  int i;

  start_duel(s, &d, "viewer", "other");
  snprintf(path, sizeof path, "/v1/games/%s/events", d.id);
  sse_init(&first, s, path, NULL, 2);
  sse_client_start(&first.base);
  play_one(s, &d);
  play_one(s, &d);
  sse_client_join(&first.base); /* the client leaves after two events */
  assert_int_equal(first.events, 2);
  assert_int_equal(first.seqs[0], 1);
  assert_int_equal(first.seqs[1], 2);

  for (i = 0; i < 3; i++) /* moves while nobody listens */
    play_one(s, &d);
  sse_init(&second, s, path, NULL, 4);
  snprintf(second.base.last_id, sizeof second.base.last_id, "%llu", first.ids[1]);
  sse_client_start(&second.base);
  play_one(s, &d);
  sse_client_join(&second.base);
  assert_int_equal(second.events, 4);
  for (i = 0; i < 4; i++) {
    assert_int_equal(second.seqs[i], 3 + i);
    assert_true(second.ids[i] > first.ids[1]);
  }
  sse_client_free(&first.base);
  sse_client_free(&second.base);
}

/* A Last-Event-ID the server no longer holds (here: from before it
 * started) is answered with one "resync", then the stream goes on. */
static void test_sse_resume_from_a_forgotten_id_says_resync_once(void **state)
{
  struct harness_server *s = *state;
  struct sse c;
  struct duel d;
  char path[128];
  const char *first, *second;

  start_duel(s, &d, "late", "early");
  snprintf(path, sizeof path, "/v1/games/%s/events", d.id);
  sse_init(&c, s, path, NULL, 1);
  snprintf(c.base.last_id, sizeof c.base.last_id, "1");
  sse_client_start(&c.base);
  play_one(s, &d);
  sse_client_join(&c.base);
  assert_int_equal(c.events, 1);
  assert_int_equal(c.seqs[0], 1);
  first = strstr(c.base.text, "event: resync");
  assert_non_null(first);
  second = strstr(first + 1, "event: resync");
  assert_null(second);
  sse_client_free(&c.base);
}

static void test_player_stream_carries_only_that_players_games(void **state)
{
  struct harness_server *s = *state;
  struct duel mine, theirs;
  struct sse c;

  start_duel(s, &mine, "me", "you");
  start_duel(s, &theirs, "x", "y");
  sse_init(&c, s, "/v1/players/me/events", mine.p[0].token, 2);
  sse_client_start(&c.base);
  play_one(s, &theirs);
  play_one(s, &mine);
  play_one(s, &theirs);
  play_one(s, &mine);
  sse_client_join(&c.base);
  assert_int_equal(c.events, 2);
  assert_null(strstr(c.base.text, theirs.id));
  assert_non_null(strstr(c.base.text, mine.id));
  sse_client_free(&c.base);
}

/* A ticket of `token`'s player (POST /v1/players/me/stream-ticket). */
static void stream_ticket(struct harness_server *s, const char *token, char ticket[128])
{
  struct harness_response r;

  harness_call(s, &r, "POST", token, NULL, "/v1/players/me/stream-ticket");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(ticket, 128, "%s", harness_str(r.json, "ticket"));
  harness_response_free(&r);
}

/* Issue 24: "a way for browsers to open the per-player stream". */
static void test_a_ticket_opens_the_players_stream_without_a_token(void **state)
{
  struct harness_server *s = *state;
  struct duel mine, theirs;
  struct sse c;
  char ticket[128], path[256];

  start_duel(s, &mine, "browser", "other");
  start_duel(s, &theirs, "x2", "y2");
  stream_ticket(s, mine.p[0].token, ticket);
  snprintf(path, sizeof path, "/v1/players/me/events?ticket=%s", ticket);
  sse_init(&c, s, path, NULL, 1);
  sse_client_start(&c.base);
  play_one(s, &theirs);
  play_one(s, &mine);
  sse_client_join(&c.base);
  assert_int_equal(c.events, 1);
  assert_non_null(strstr(c.base.text, mine.id));
  assert_null(strstr(c.base.text, theirs.id));
  sse_client_free(&c.base);
}

/* A ticket is attacked as a credential: altered in any part, or used where
 * it was not made for, it opens nothing. */
static void test_an_altered_ticket_opens_nothing(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  struct duel d;
  char ticket[128], other[128], forged[300];
  char *mac, *expiry;

  start_duel(s, &d, "victim", "thief");
  stream_ticket(s, d.p[0].token, ticket);
  stream_ticket(s, d.p[1].token, other);
  mac = strrchr(ticket, '.');
  expiry = strchr(ticket, '.');
  const char *cases[6];
  char flipped[128], swapped[300], later[300];

  snprintf(flipped, sizeof flipped, "%s", ticket);
  flipped[strlen(flipped) - 1] = flipped[strlen(flipped) - 1] == '0' ? '1' : '0';
  /* the thief's id with the victim's expiry and MAC */
  snprintf(swapped, sizeof swapped, "%.*s%s", (int)(strchr(other, '.') - other), other, expiry);
  /* the victim's ticket, made to last a day longer */
  snprintf(later, sizeof later, "%.*s.%lld%s", (int)(expiry - ticket), ticket,
           strtoll(expiry + 1, NULL, 10) + 86400000LL, mac);
  cases[0] = flipped;
  cases[1] = swapped;
  cases[2] = later;
  cases[3] = "";
  cases[4] = "garbage";
  cases[5] = d.p[0].token; /* a token is not a ticket */
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(forged, sizeof forged, "/v1/players/me/events?ticket=%s", cases[i]);
    harness_call(s, &r, "GET", NULL, NULL, "%s", forged);
    HARNESS_EXPECT_PROBLEM(&r, 401, "bad-token");
    harness_response_free(&r);
  }
  /* Only the stream takes one. */
  harness_call(s, &r, "GET", NULL, NULL, "/v1/players/me/games?ticket=%s", ticket);
  HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
  harness_response_free(&r);
}

/* Issue "Asynchronous play", 1: "the ones awaiting the caller first". */
static void test_my_games_lists_games_awaiting_me_first(void **state)
{
  struct harness_server *s = *state;
  struct harness_player me, a, b;
  struct harness_response r;
  json_t *g1, *g2, *games;
  char id1[64], id2[64];

  harness_new_player(s, "busy", &me);
  harness_new_player(s, "a", &a);
  harness_new_player(s, "b", &b);
  g1 = harness_new_game(s, me.token, "himalaya", 2, "{}");
  g2 = harness_new_game(s, me.token, "himalaya", 2, "{}");
  snprintf(id1, sizeof id1, "%s", harness_game_id(g1));
  snprintf(id2, sizeof id2, "%s", harness_game_id(g2));
  harness_join(s, a.token, id1, 0); /* a moves first in game 1 */
  harness_join(s, me.token, id1, 1);
  harness_join(s, me.token, id2, 0); /* I move first in game 2 */
  harness_join(s, b.token, id2, 1);

  harness_call(s, &r, "GET", me.token, NULL, "/v1/players/me/games");
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_int_equal(json_integer_value(json_object_get(r.json, "awaiting")), 1);
  games = json_object_get(r.json, "games");
  assert_int_equal(json_array_size(games), 2);
  assert_string_equal(harness_str(json_array_get(games, 0), "id"), id2);
  assert_true(json_is_true(json_object_get(json_array_get(games, 0), "my_turn")));
  assert_false(json_is_true(json_object_get(json_array_get(games, 1), "my_turn")));
  harness_response_free(&r);

  harness_call(s, &r, "GET", me.token, NULL, "/v1/players/me/games?status=finished");
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_int_equal(json_array_size(json_object_get(r.json, "games")), 0);
  harness_response_free(&r);
  harness_call(s, &r, "GET", me.token, NULL, "/v1/players/me/games?status=sideways");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/players/me/games");
  HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
  harness_response_free(&r);
  json_decref(g1);
  json_decref(g2);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_long_poll_wakes_on_the_move),
      cmocka_unit_test(test_long_poll_without_a_move_answers_at_its_timeout),
      cmocka_unit_test(test_long_poll_without_timeout_waits),
      cmocka_unit_test(test_long_poll_needs_after),
      cmocka_unit_test(test_sse_resumes_after_a_disconnect_with_no_event_lost),
      cmocka_unit_test(test_sse_resume_from_a_forgotten_id_says_resync_once),
      cmocka_unit_test(test_player_stream_carries_only_that_players_games),
      cmocka_unit_test(test_my_games_lists_games_awaiting_me_first),
      cmocka_unit_test(test_a_ticket_opens_the_players_stream_without_a_token),
      cmocka_unit_test(test_an_altered_ticket_opens_nothing),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/updates", tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return rc;
}
