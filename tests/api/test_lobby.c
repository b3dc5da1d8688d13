/*
 * test_lobby.c - the lobby through the real server (api/lobby.c, issue
 * 25): GET /v1/lobby lists the open games with a seat to take, or the
 * active ones to watch, newest first, narrowed by title, seats and time
 * control, a page at a time from an opaque cursor, showing only what
 * anyone may see; POST /v1/games with `seat` creates a game and seats
 * its creator in one call; and invitations (api/invitations.c): seats
 * kept for named players, who find them in "my games" and accept or
 * decline them, two racing accepts seating one player; and the rematch of
 * a finished game (POST /v1/games/{id}/rematch): seats moved one along,
 * the asker seated, the other people invited, the bots kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>

#include "tests/order.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "racer.h"
#include "hookrx.h"
#include "sseclient.h"
#include "setups.h"

/* POST /v1/games with `body` (JSON text) as `token`; expects `status`.
 * New reference: the answer. */
static json_t *create(struct harness_server *s, const char *token, const char *body, long status)
{
  struct harness_response r;
  json_t *game;

  harness_call(s, &r, "POST", token, body, "/v1/games");
  HARNESS_EXPECT_JSON(&r, status);
  game = json_incref(r.json);
  harness_response_free(&r);
  return game;
}

/* The id of a new game created by `token` from `body`, into id[64]. The
 * lobby orders by creation time, then id; a pause of 2 ms makes each game
 * of a test newer than the one before, so the order a test expects is the
 * order it created them in, not a tie broken by random ids. */
static void create_id(struct harness_server *s, const char *token, const char *body, char id[64])
{
  json_t *game = create(s, token, body, 201);

  snprintf(id, 64, "%s", harness_game_id(game));
  json_decref(game);
  usleep(2000);
}

/* GET /v1/lobby`query` anonymously. New reference: the page. */
static json_t *lobby(struct harness_server *s, const char *query)
{
  return harness_get_json(s, NULL, "/v1/lobby%s", query);
}

static void expect_lobby(struct harness_server *s, const char *query, const char *ids)
{
  json_t *page = lobby(s, query);
  char got[1024];

  setup_page_ids(page, got, sizeof got);
  assert_string_equal(got, ids);
  json_decref(page);
}

static void test_the_lobby_shows_open_games_and_only_public_facts(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob;
  char first[64], second[64], want[200];
  json_t *page, *entry, *seat0;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  create_id(s, alice.token, "{\"title\":\"himalaya\",\"seats\":2,\"seat\":0}", first);
  create_id(s, bob.token, "{\"title\":\"himalaya\",\"seats\":3}", second);

  page = lobby(s, "");
  assert_int_equal(json_array_size(json_object_get(page, "games")), 2);
  assert_true(json_is_null(json_object_get(page, "next")));
  /* Newest first: bob's game, then alice's with alice seated. */
  entry = json_array_get(json_object_get(page, "games"), 1);
  assert_string_equal(harness_str(entry, "id"), first);
  assert_string_equal(harness_str(entry, "status"), "open");
  assert_int_equal(harness_int(entry, "seats"), 2);
  assert_int_equal(harness_int(entry, "free_seats"), 1);
  seat0 = json_object_get(json_array_get(json_object_get(entry, "players"), 0), "player");
  assert_string_equal(harness_str(seat0, "id"), alice.id);
  assert_string_equal(harness_str(seat0, "name"), "alice");
  assert_true(json_is_null(
      json_object_get(json_array_get(json_object_get(entry, "players"), 1), "player")));
  /* Nothing a spectator of the game itself could not see, and less. */
  assert_null(json_object_get(entry, "seed"));
  assert_null(json_object_get(entry, "view"));
  assert_null(json_object_get(entry, "legal"));
  json_decref(page);

  /* bob fills alice's game: it leaves the open games for the live ones. */
  harness_join(s, bob.token, first, 1);
  expect_lobby(s, "", second);
  expect_lobby(s, "?status=active", first);
  page = lobby(s, "?status=active");
  entry = json_array_get(json_object_get(page, "games"), 0);
  assert_string_equal(harness_str(entry, "status"), "active");
  assert_int_equal(harness_int(entry, "free_seats"), 0);
  assert_true(json_array_size(json_object_get(entry, "to_act")) > 0);
  json_decref(page);
  snprintf(want, sizeof want, "%s", second);
  expect_lobby(s, "?status=open&seats=3", want);
}

static void test_the_lobby_filters_by_title_seats_and_time_control(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char plain[64], per_move[64], paced[64], other[64], want[300];

  harness_new_player(s, "carol", &p);
  create_id(s, p.token, "{\"title\":\"himalaya\",\"seats\":2}", plain);
  create_id(s, p.token, "{\"title\":\"himalaya\",\"seats\":3,\"time_control\":{\"move_hours\":24}}",
            per_move);
  create_id(s, p.token,
            "{\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"base_hours\":48,"
            "\"cap_hours\":72}}",
            paced);
  create_id(s, p.token, "{\"title\":\"everest-piecepack\",\"seats\":2}", other);

  snprintf(want, sizeof want, "%s,%s,%s", paced, per_move, plain);
  expect_lobby(s, "?title=himalaya", want);
  expect_lobby(s, "?title=everest-piecepack", other);
  snprintf(want, sizeof want, "%s,%s", other, plain);
  expect_lobby(s, "?clock=none", want);
  expect_lobby(s, "?clock=move", per_move);
  expect_lobby(s, "?clock=pace", paced);
  expect_lobby(s, "?seats=3", per_move);
  snprintf(want, sizeof want, "%s,%s", paced, plain);
  expect_lobby(s, "?title=himalaya&seats=2", want);
  expect_lobby(s, "?title=everest-piecepack&clock=move", "");
  expect_lobby(s, "?status=active", "");
}

/* Walk every page of `query` (limit 3), appending each id to all[]; a new
 * game is created after the first page, which must not show up later
 * (it is newer than the cursor), and no game may show twice. */
static int walk_pages(struct harness_server *s, const char *token, char all[][64], int max)
{
  char path[512], late[64];
  json_t *page = lobby(s, "?limit=3");
  const json_t *g;
  size_t i;
  int n = 0, pages = 0;

  for (;;) {
    pages++;
    assert_true(json_array_size(json_object_get(page, "games")) <= 3);
    json_array_foreach(json_object_get(page, "games"), i, g)
    {
      assert_true(n < max);
      snprintf(all[n++], 64, "%s", harness_game_id(g));
    }
    if (pages == 1)
      create_id(s, token, "{\"title\":\"himalaya\",\"seats\":2}", late);
    if (json_is_null(json_object_get(page, "next")))
      break;
    snprintf(path, sizeof path, "?limit=3&cursor=%s", harness_str(page, "next"));
    json_decref(page);
    page = lobby(s, path);
  }
  json_decref(page);
  for (i = 0; i < (size_t)n; i++)
    assert_string_not_equal(all[i], late);
  return n;
}

static void test_lobby_pages_follow_a_cursor_without_repeats(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char made[8][64], seen[16][64];
  int i, j, n;

  harness_new_player(s, "dave", &p);
  for (i = 0; i < 8; i++)
    create_id(s, p.token, "{\"title\":\"himalaya\",\"seats\":2}", made[i]);
  n = walk_pages(s, p.token, seen, 16);
  assert_int_equal(n, 8);
  /* Newest first, each once. */
  for (i = 0; i < 8; i++)
    assert_string_equal(seen[i], made[7 - i]);
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++)
      assert_string_not_equal(seen[i], seen[j]);
}

static void expect_bad_query(struct harness_server *s, const char *query)
{
  struct harness_response r;

  harness_call(s, &r, "GET", NULL, NULL, "/v1/lobby%s", query);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
}

static void test_bad_lobby_queries_are_refused_by_name(void **state)
{
  struct harness_server *s = *state;

  expect_bad_query(s, "?status=finished");
  expect_bad_query(s, "?clock=fast");
  expect_bad_query(s, "?seats=0");
  expect_bad_query(s, "?seats=9");
  expect_bad_query(s, "?seats=two");
  expect_bad_query(s, "?limit=0");
  expect_bad_query(s, "?limit=51");
  expect_bad_query(s, "?title=chess");
  expect_bad_query(s, "?cursor=not-a-cursor");
  /* Base64url of a text without the separator. */
  expect_bad_query(s, "?cursor=MTIz");
}

static void test_creating_a_game_can_take_a_seat(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;
  json_t *game;

  harness_new_player(s, "erin", &p);
  game = create(s, p.token, "{\"title\":\"himalaya\",\"seats\":3,\"seat\":2}", 201);
  assert_int_equal(harness_int(game, "your_seat"), 2);
  assert_string_equal(harness_str(game, "status"), "open");
  json_decref(game);
  /* Against a bot: the creator's seat fills the game, which starts. */
  game = create(s, p.token, "{\"title\":\"himalaya\",\"seats\":2,\"bots\":[1],\"seat\":0}", 201);
  assert_int_equal(harness_int(game, "your_seat"), 0);
  assert_string_equal(harness_str(game, "status"), "active");
  json_decref(game);
  /* A seat outside the game, or a bot's, is refused and nothing made. */
  harness_call(s, &r, "POST", p.token, "{\"title\":\"himalaya\",\"seats\":2,\"seat\":2}",
               "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
  harness_call(s, &r, "POST", p.token,
               "{\"title\":\"himalaya\",\"seats\":2,\"bots\":[0],\"seat\":0}", "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-value");
  harness_response_free(&r);
  expect_lobby(s, "?seats=2", "");
}

/* ---- invitations ---- */

/* A game of `seats` himalaya seats by `creator` in seat 0, seat 1 kept for
 * `invitee`; its id into id[64]. */
static void invite_game(struct harness_server *s, const struct harness_player *creator,
                        const struct harness_player *invitee, int seats, char id[64])
{
  char body[256];

  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":%d,\"seat\":0,"
           "\"invite\":[{\"seat\":1,\"player\":\"%s\"}]}",
           seats, invitee->id);
  create_id(s, creator->token, body, id);
}

static void answer(struct harness_server *s, const char *token, const char *id, const char *verb,
                   long status, const char *code)
{
  struct harness_response r;

  harness_call(s, &r, "POST", token, NULL, "/v1/games/%s/invitation/%s", id, verb);
  if (code)
    HARNESS_EXPECT_PROBLEM(&r, status, code);
  else
    HARNESS_EXPECT_JSON(&r, status);
  harness_response_free(&r);
}

/* The entry for `id` in `token`'s GET /v1/players/me/games, or NULL. New
 * reference. */
static json_t *my_entry(struct harness_server *s, const char *token, const char *id)
{
  json_t *mine = harness_get_json(s, token, "/v1/players/me/games");
  json_t *g, *found = NULL;
  size_t i;

  json_array_foreach(json_object_get(mine, "games"), i, g)
  {
    if (strcmp(harness_str(g, "id"), id) == 0)
      found = json_incref(g);
  }
  json_decref(mine);
  return found;
}

/* Only seat `kept` of `seats` (-1: none) is marked kept, and only with true. */
static void expect_kept_only(const json_t *seats, int kept)
{
  const json_t *seat;
  size_t i;

  assert_true(json_array_size(seats) > 0);
  json_array_foreach(seats, i, seat)
  {
    if ((int)i == kept)
      assert_true(json_is_true(json_object_get(seat, "kept")));
    else
      assert_null(json_object_get(seat, "kept"));
  }
}

static void test_an_invited_seat_is_kept_listed_and_accepted(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob, carol;
  struct harness_response r;
  char id[64], *text;
  json_t *entry, *game;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  harness_new_player(s, "carol", &carol);
  invite_game(s, &alice, &bob, 3, id);

  /* bob sees the invitation among his games. */
  entry = my_entry(s, bob.token, id);
  assert_non_null(entry);
  assert_true(json_is_true(json_object_get(entry, "invitation")));
  assert_int_equal(harness_int(entry, "my_seat"), 1);
  assert_string_equal(harness_str(entry, "status"), "open");
  json_decref(entry);
  /* The lobby counts only seat 2 as free, and shows seat 1 kept. */
  game = lobby(s, "");
  entry = json_array_get(json_object_get(game, "games"), 0);
  assert_int_equal(harness_int(entry, "free_seats"), 1);
  expect_kept_only(json_object_get(entry, "players"), 1);
  json_decref(game);
  /* So does the game, to anyone, never for whom; and it names its creator
   * (who may cancel it) while it is open. */
  game = harness_get_game(s, carol.token, id);
  expect_kept_only(json_object_get(game, "seats"), 1);
  assert_string_equal(harness_str(game, "creator"), alice.id);
  text = harness_dump(game);
  assert_null(strstr(text, bob.id));
  free(text);
  json_decref(game);

  /* carol may not take bob's seat; asking for any seat gives her seat 2. */
  harness_call(s, &r, "POST", carol.token, "{\"seat\":1}", "/v1/games/%s/join", id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "seat-reserved");
  harness_response_free(&r);
  assert_int_equal(harness_join(s, carol.token, id, -1), 2);
  /* No seat is free for anyone now: the game leaves the lobby. */
  expect_lobby(s, "", "");

  answer(s, bob.token, id, "accept", 200, NULL);
  game = harness_get_game(s, bob.token, id);
  assert_string_equal(harness_str(game, "status"), "active");
  assert_int_equal(harness_int(game, "your_seat"), 1);
  expect_kept_only(json_object_get(game, "seats"), -1);
  assert_null(json_object_get(game, "creator")); /* nothing to cancel any more */
  json_decref(game);
  entry = my_entry(s, bob.token, id);
  assert_true(json_is_false(json_object_get(entry, "invitation")));
  json_decref(entry);
  /* Answered: nothing left to accept or decline. */
  answer(s, bob.token, id, "accept", 404, "not-found");
  answer(s, bob.token, id, "decline", 404, "not-found");
}

static void test_a_declined_invitation_frees_the_seat(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob, carol;
  char id[64];
  json_t *entry;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  harness_new_player(s, "carol", &carol);
  invite_game(s, &alice, &bob, 2, id);
  expect_lobby(s, "", "");
  /* Only the invitee answers an invitation. */
  answer(s, carol.token, id, "decline", 404, "not-found");
  answer(s, carol.token, id, "accept", 404, "not-found");
  answer(s, NULL, id, "decline", 401, "missing-token");

  answer(s, bob.token, id, "decline", 200, NULL);
  entry = my_entry(s, bob.token, id);
  assert_null(entry);
  answer(s, bob.token, id, "decline", 404, "not-found");
  /* The seat is anyone's: the game is back in the lobby, and carol's. */
  expect_lobby(s, "", id);
  assert_int_equal(harness_join(s, carol.token, id, 1), 1);
  answer(s, bob.token, id, "accept", 404, "not-found");
}

/* Two racers at once on one game: `a` POSTs `path_a`, `b` `path_b`. */
static void race_pair(struct racer x[2], const char *const paths[2], const char *const bodies[2])
{
  for (int i = 0; i < 2; i++) {
    snprintf(x[i].path, sizeof x[i].path, "%s", paths[i]);
    snprintf(x[i].body, sizeof x[i].body, "%s", bodies[i]);
    memset(&x[i].r, 0, sizeof x[i].r);
  }
  racer_run_all(x, 2);
}

/* bob accepts one invitation from two connections at once, ten times; then
 * carol races bob's accept for his seat, ten times. Each time bob holds
 * the seat and exactly one accept succeeds. */
static void test_racing_accepts_of_one_invitation_seat_one_player(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob, carol;
  struct racer x[2];
  pthread_barrier_t start;
  char id[64], accept_path[160], join_path[160];
  json_t *game, *seat1;
  int round, i, won;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  harness_new_player(s, "carol", &carol);
  pthread_barrier_init(&start, NULL, 2);
  for (i = 0; i < 2; i++) {
    memset(&x[i], 0, sizeof x[i]);
    harness_client_init(&x[i].client, s);
    x[i].start = &start;
  }
  for (round = 0; round < 20; round++) {
    invite_game(s, &alice, &bob, 2, id);
    snprintf(accept_path, sizeof accept_path, "/v1/games/%s/invitation/accept", id);
    snprintf(join_path, sizeof join_path, "/v1/games/%s/join", id);
    x[0].token = bob.token;
    x[1].token = round < 10 ? bob.token : carol.token;
    race_pair(x, (const char *const[]){accept_path, round < 10 ? accept_path : join_path},
              (const char *const[]){"", round < 10 ? "" : "{\"seat\":1}"});
    won = 0;
    for (i = 0; i < 2; i++) {
      if (x[i].r.status == 200)
        won++;
      else
        assert_true(x[i].r.status == 404 || x[i].r.status == 409);
      harness_response_free(&x[i].r);
    }
    assert_int_equal(won, 1);
    game = harness_get_game(s, NULL, id);
    assert_string_equal(harness_str(game, "status"), "active");
    seat1 = json_object_get(json_array_get(json_object_get(game, "seats"), 1), "player");
    assert_string_equal(harness_str(seat1, "id"), bob.id);
    json_decref(game);
  }
  for (i = 0; i < 2; i++)
    harness_client_cleanup(&x[i].client);
  pthread_barrier_destroy(&start);
}

static void expect_create_problem(struct harness_server *s, const char *token, const char *body,
                                  const char *code)
{
  struct harness_response r;

  harness_call(s, &r, "POST", token, body, "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 400, code);
  harness_response_free(&r);
}

static void test_bad_invitations_are_refused_and_store_nothing(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob;
  char body[512];
  json_t *mine;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  expect_create_problem(s, alice.token, "{\"title\":\"himalaya\",\"seats\":2,\"invite\":{}}",
                        "wrong-type");
  expect_create_problem(s, alice.token, "{\"title\":\"himalaya\",\"seats\":2,\"invite\":[1]}",
                        "wrong-type");
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":2,\"invite\":[{\"seat\":2,\"player\":\"%s\"}]}",
           bob.id);
  expect_create_problem(s, alice.token, body, "bad-value");
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":2,\"seat\":0,"
           "\"invite\":[{\"seat\":0,\"player\":\"%s\"}]}",
           bob.id);
  expect_create_problem(s, alice.token, body, "bad-value");
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":3,\"invite\":[{\"seat\":0,\"player\":\"%s\"},"
           "{\"seat\":1,\"player\":\"%s\"}]}",
           bob.id, bob.id);
  expect_create_problem(s, alice.token, body, "bad-value");
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":2,\"invite\":[{\"seat\":1,\"player\":\"%s\"}]}",
           alice.id);
  expect_create_problem(s, alice.token, body, "bad-value");
  expect_create_problem(s, alice.token,
                        "{\"title\":\"himalaya\",\"seats\":2,"
                        "\"invite\":[{\"seat\":1,\"player\":\"nobody-here\"}]}",
                        "bad-value");
  expect_create_problem(s, alice.token,
                        "{\"title\":\"himalaya\",\"seats\":2,\"bots\":[1],"
                        "\"invite\":[{\"seat\":1,\"player\":\"nobody-here\"}]}",
                        "bad-value");
  /* Nothing was stored: no game anywhere, for alice or bob. */
  expect_lobby(s, "", "");
  expect_lobby(s, "?status=active", "");
  mine = harness_get_json(s, bob.token, "/v1/players/me/games");
  assert_int_equal(json_array_size(json_object_get(mine, "games")), 0);
  json_decref(mine);
}

/* A game-less json webhook of `owner` to the receiver's `path`. */
static void add_hook(struct harness_server *s, const struct harness_player *owner, const char *path)
{
  struct harness_response r;
  char body[256];

  snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d%s\",\"format\":\"json\"}",
           hookrx_port(), path);
  harness_call(s, &r, "POST", owner->token, body, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  harness_response_free(&r);
}

/* The invitee's webhooks are told: an "invite" delivery to bob's hook, and
 * none to carol's, who was not invited. */
static void test_an_invitees_webhooks_are_told(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob, carol;
  struct hookrx_seen seen[HOOKRX_MAX];
  char id[64];
  int n, i, invites = 0;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  harness_new_player(s, "carol", &carol);
  add_hook(s, &bob, "/lobby-bob");
  add_hook(s, &carol, "/lobby-carol");
  invite_game(s, &alice, &bob, 3, id);
  assert_int_equal(hookrx_wait("/lobby-bob", 1, 10000), 1);
  n = hookrx_copy(seen, HOOKRX_MAX);
  for (i = 0; i < n; i++)
    if (strcmp(seen[i].path, "/lobby-bob") == 0)
      invites += strcmp(seen[i].event, "invite") == 0;
  assert_int_equal(invites, 1);
  assert_int_equal(hookrx_count("/lobby-carol"), 0);
}

static void cancel(struct harness_server *s, const char *token, const char *id, long status,
                   const char *code)
{
  struct harness_response r;

  harness_call(s, &r, "POST", token, NULL, "/v1/games/%s/cancel", id);
  if (code) {
    HARNESS_EXPECT_PROBLEM(&r, status, code);
  } else {
    HARNESS_EXPECT_JSON(&r, status);
    assert_string_equal(harness_str(r.json, "status"), "cancelled");
  }
  harness_response_free(&r);
}

static void test_the_creator_cancels_an_open_game(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob, carol;
  struct harness_response r;
  char id[64], other[64];
  json_t *game, *entry;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  harness_new_player(s, "carol", &carol);
  invite_game(s, &alice, &bob, 3, id);
  assert_int_equal(harness_join(s, carol.token, id, 2), 2);
  cancel(s, carol.token, id, 403, "not-creator");
  cancel(s, NULL, id, 401, "missing-token");
  cancel(s, alice.token, id, 200, NULL);

  game = harness_get_game(s, NULL, id);
  assert_string_equal(harness_str(game, "status"), "cancelled");
  json_decref(game);
  expect_lobby(s, "", "");
  /* Nothing more happens to it: no invitation, no join, no second cancel. */
  assert_null(my_entry(s, bob.token, id));
  answer(s, bob.token, id, "accept", 404, "not-found");
  harness_call(s, &r, "POST", bob.token, "{\"seat\":1}", "/v1/games/%s/join", id);
  HARNESS_EXPECT_PROBLEM(&r, 409, "game-not-open");
  harness_response_free(&r);
  cancel(s, alice.token, id, 409, "game-not-open");
  entry = my_entry(s, carol.token, id);
  assert_non_null(entry);
  assert_string_equal(harness_str(entry, "status"), "cancelled");
  json_decref(entry);
  /* A game that started is not cancelled. */
  create_id(s, alice.token, "{\"title\":\"himalaya\",\"seats\":2,\"seat\":0,\"bots\":[1]}", other);
  cancel(s, alice.token, other, 409, "game-not-open");
  cancel(s, alice.token, "no-such-game", 404, "not-found");
}

/* ---- answers told (issue 25) ---- */

/* A stream read until it holds `until`. */
struct watch {
  struct sse_client base; /* first: the reader */
  char until[96];
};

static bool watch_enough(struct sse_client *c)
{
  return strstr(c->text, ((struct watch *)c)->until) != NULL;
}

static void watch_start(struct watch *w, struct harness_server *s, const char *path,
                        const char *token, const char *until)
{
  sse_client_init(&w->base, s, path, token, watch_enough);
  snprintf(w->until, sizeof w->until, "%s", until);
  w->base.timeout_s = 15;
  sse_client_start(&w->base);
}

/* The data of the events named `event` of game `id` the stream read, in
 * order, as a JSON array (new reference). */
static json_t *events_of(struct watch *w, const char *event, const char *id)
{
  char head[48];
  const char *at = w->base.text ? w->base.text : "";
  json_t *out = json_array();

  snprintf(head, sizeof head, "event: %s\ndata: ", event);
  while ((at = strstr(at, head))) {
    const char *data = at + strlen(head), *end = strstr(data, "\n\n");
    json_t *body = end ? json_loadb(data, (size_t)(end - data), 0, NULL) : NULL;

    if (body && strcmp(harness_str(body, "game"), id) == 0)
      json_array_append(out, body);
    json_decref(body);
    at = data;
  }
  return out;
}

/* The deliveries of `event` to `path` so far; *body gets the last's body. */
static int delivered(const char *path, const char *event, char body[512])
{
  static struct hookrx_seen seen[HOOKRX_MAX];
  int n = hookrx_copy(seen, HOOKRX_MAX), i, count = 0;

  for (i = 0; i < n; i++)
    if (strcmp(seen[i].path, path) == 0 && strcmp(seen[i].event, event) == 0) {
      count++;
      if (body)
        snprintf(body, 512, "%s", seen[i].body);
    }
  return count;
}

/* A decline is told to the creator (webhook "declined", naming the seat,
 * never who declined) and, as `event: invitation`, to the game's streams
 * and the seated players' and creator's; a cancel to every invitee and
 * seated player (webhook "cancelled", the creator aside) and, as the
 * game's notice with status cancelled, on their streams and the game's.
 * Nobody else hears of either: each quiet stream and hook is read until a
 * later game of its own player has been told, so anything about this game
 * would have come before. */
static void test_declines_and_cancels_are_told(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob, carol, dan, eve;
  struct watch game_w, alice_w, carol_w, dan_w, bob_w, eve_w;
  char id[64], later[64], body[512], path[96], cancelled[] = "\"status\":\"cancelled\"";
  json_t *events, *e;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  harness_new_player(s, "carol", &carol);
  harness_new_player(s, "dan", &dan);
  harness_new_player(s, "eve", &eve);
  add_hook(s, &alice, "/told-alice");
  add_hook(s, &bob, "/told-bob");
  add_hook(s, &carol, "/told-carol");
  add_hook(s, &dan, "/told-dan");
  add_hook(s, &eve, "/told-eve");
  snprintf(body, sizeof body,
           "{\"title\":\"himalaya\",\"seats\":4,\"seat\":0,\"invite\":[{\"seat\":1,"
           "\"player\":\"%s\"},{\"seat\":2,\"player\":\"%s\"}]}",
           bob.id, dan.id);
  create_id(s, alice.token, body, id);
  assert_int_equal(harness_join(s, carol.token, id, 3), 3);
  /* bob and eve's later game: its start is what their quiet stream and
   * hooks are read until. */
  create_id(s, bob.token, "{\"title\":\"himalaya\",\"seats\":2,\"seat\":0}", later);

  snprintf(path, sizeof path, "/v1/games/%s/events", id);
  watch_start(&game_w, s, path, NULL, cancelled);
  watch_start(&alice_w, s, "/v1/players/me/events", alice.token, cancelled);
  watch_start(&carol_w, s, "/v1/players/me/events", carol.token, cancelled);
  watch_start(&dan_w, s, "/v1/players/me/events", dan.token, cancelled);
  watch_start(&bob_w, s, "/v1/players/me/events", bob.token, later);
  watch_start(&eve_w, s, "/v1/players/me/events", eve.token, later);

  answer(s, bob.token, id, "decline", 200, NULL);
  assert_int_equal(hookrx_wait("/told-alice", 1, 10000), 1);
  assert_int_equal(delivered("/told-alice", "declined", body), 1);
  e = json_loads(body, 0, NULL);
  assert_non_null(e);
  assert_string_equal(harness_str(e, "game"), id);
  assert_string_equal(harness_str(e, "status"), "open");
  assert_non_null(strstr(harness_str(e, "text"), "(seat 1) was declined"));
  json_decref(e);
  assert_null(strstr(body, "bob"));
  assert_null(strstr(body, bob.id));

  cancel(s, alice.token, id, 200, NULL);
  assert_int_equal(harness_join(s, eve.token, later, 1), 1);
  /* dan: his invitation, then the cancel; bob: his, then his later
   * game's start (and turn); eve: that start (and turn). */
  assert_int_equal(hookrx_wait("/told-dan", 2, 10000), 2);
  assert_int_equal(hookrx_wait("/told-carol", 1, 10000), 1);
  assert_true(hookrx_wait("/told-eve", 1, 10000) >= 1);
  assert_true(hookrx_wait("/told-bob", 2, 10000) >= 2);
  assert_int_equal(delivered("/told-dan", "cancelled", body), 1);
  assert_non_null(strstr(body, "(seat 2) was cancelled by its creator"));
  assert_int_equal(delivered("/told-carol", "cancelled", body), 1);
  assert_non_null(strstr(body, "(seat 3) was cancelled by its creator"));
  assert_int_equal(delivered("/told-alice", "cancelled", NULL), 0);
  assert_int_equal(delivered("/told-bob", "cancelled", NULL), 0); /* declined already */
  assert_int_equal(delivered("/told-eve", "cancelled", NULL), 0);
  assert_int_equal(delivered("/told-eve", "start", NULL), 1);

  struct watch *told[] = {&game_w, &alice_w, &carol_w, &dan_w}, *quiet[] = {&bob_w, &eve_w};
  for (int i = 0; i < 4; i++) {
    sse_client_join(&told[i]->base);
    /* The decline: to the game's streams, its creator's and its seated
     * player's; the seat, never who. */
    events = events_of(told[i], "invitation", id);
    assert_int_equal(json_array_size(events), told[i] == &dan_w ? 0 : 1);
    if (told[i] != &dan_w) {
      e = json_array_get(events, 0);
      assert_int_equal(harness_int(e, "seat"), 1);
      assert_true(json_is_true(json_object_get(e, "declined")));
      assert_int_equal(json_object_size(e), 3);
    }
    json_decref(events);
    events = events_of(told[i], "game", id);
    e = json_array_get(events, json_array_size(events) - 1);
    assert_non_null(e);
    assert_string_equal(harness_str(e, "status"), "cancelled");
    json_decref(events);
    assert_null(strstr(told[i]->base.text, bob.id));
    sse_client_free(&told[i]->base);
  }
  for (int i = 0; i < 2; i++) {
    sse_client_join(&quiet[i]->base);
    assert_non_null(strstr(quiet[i]->base.text, later));
    assert_null(strstr(quiet[i]->base.text, id));
    sse_client_free(&quiet[i]->base);
  }
}

/* ---- rematch ---- */

static json_t *rematch(struct harness_server *s, const char *token, const char *id, long status,
                       const char *code)
{
  struct harness_response r;
  json_t *answer;

  harness_call(s, &r, "POST", token, NULL, "/v1/games/%s/rematch", id);
  if (code)
    HARNESS_EXPECT_PROBLEM(&r, status, code);
  else
    HARNESS_EXPECT_JSON(&r, status);
  answer = json_incref(r.json);
  harness_response_free(&r);
  return answer;
}

/* Borrowed: the player object of `seat` in `game`, or NULL while free. */
static const json_t *seat_player(const json_t *game, int seat)
{
  const json_t *p = json_object_get(json_array_get(json_object_get(game, "seats"), seat), "player");

  return json_is_null(p) ? NULL : p;
}

static void test_a_rematch_rotates_the_seats_and_starts_when_all_accept(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob;
  char id[64], next[64];
  json_t *game, *entry;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  setup_invited_game(s, "\"title\":\"himalaya\",\"seats\":2,\"time_control\":{\"move_hours\":24}",
                     &alice, &bob, 1, id);
  /* Not over yet: no rematch. */
  json_decref(rematch(s, bob.token, id, 409, "game-not-finished"));
  setup_resign(s, bob.token, id);

  game = rematch(s, bob.token, id, 201, NULL);
  snprintf(next, sizeof next, "%s", harness_game_id(game));
  assert_string_not_equal(next, id);
  assert_string_equal(harness_str(game, "title"), "himalaya");
  assert_string_equal(harness_str(game, "status"), "open");
  /* bob held seat 1: he sits in seat 0 now, and alice's seat 1 waits for her. */
  assert_int_equal(harness_int(game, "your_seat"), 0);
  assert_string_equal(harness_str(seat_player(game, 0), "id"), bob.id);
  assert_null(seat_player(game, 1));
  assert_true(json_is_object(json_object_get(game, "time_control")));
  json_decref(game);
  entry = my_entry(s, alice.token, next);
  assert_non_null(entry);
  assert_true(json_is_true(json_object_get(entry, "invitation")));
  assert_int_equal(harness_int(entry, "my_seat"), 1);
  json_decref(entry);

  answer(s, alice.token, next, "accept", 200, NULL);
  game = harness_get_game(s, NULL, next);
  assert_string_equal(harness_str(game, "status"), "active");
  assert_string_equal(harness_str(seat_player(game, 1), "id"), alice.id);
  json_decref(game);
}

static void test_a_rematch_keeps_the_bots_and_is_refused_to_others(void **state)
{
  struct harness_server *s = *state;
  struct harness_player alice, bob, carol;
  char id[64], next[64];
  json_t *game;

  harness_new_player(s, "alice", &alice);
  harness_new_player(s, "bob", &bob);
  harness_new_player(s, "carol", &carol);
  setup_invited_game(s, "\"title\":\"himalaya\",\"seats\":3,\"bots\":[1]", &alice, &bob, 2, id);
  /* With no person left unresigned the game ends. */
  setup_resign(s, alice.token, id);
  setup_resign(s, bob.token, id);

  json_decref(rematch(s, carol.token, id, 403, "not-seated"));
  json_decref(rematch(s, NULL, id, 401, "missing-token"));
  json_decref(rematch(s, alice.token, "no-such-game", 404, "not-found"));

  game = rematch(s, alice.token, id, 201, NULL);
  snprintf(next, sizeof next, "%s", harness_game_id(game));
  /* alice 0 -> 1 (seated), the bot 1 -> 2 (a bot again), bob 2 -> 0 (invited). */
  assert_int_equal(harness_int(game, "your_seat"), 1);
  assert_string_equal(harness_str(seat_player(game, 1), "id"), alice.id);
  assert_int_equal(strncmp(harness_str(seat_player(game, 2), "id"), "bot-", 4), 0);
  assert_null(seat_player(game, 0));
  json_decref(game);
  answer(s, bob.token, next, "accept", 200, NULL);
  game = harness_get_game(s, NULL, next);
  assert_string_equal(harness_str(game, "status"), "active");
  assert_string_equal(harness_str(seat_player(game, 0), "id"), bob.id);
  json_decref(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_the_lobby_shows_open_games_and_only_public_facts,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_the_lobby_filters_by_title_seats_and_time_control,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_lobby_pages_follow_a_cursor_without_repeats,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_bad_lobby_queries_are_refused_by_name, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_creating_a_game_can_take_a_seat, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_an_invited_seat_is_kept_listed_and_accepted,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_declined_invitation_frees_the_seat, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_racing_accepts_of_one_invitation_seat_one_player,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_bad_invitations_are_refused_and_store_nothing,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_an_invitees_webhooks_are_told, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_the_creator_cancels_an_open_game, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_declines_and_cancels_are_told, harness_setup,
                                      harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_rematch_rotates_the_seats_and_starts_when_all_accept,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_a_rematch_keeps_the_bots_and_is_refused_to_others,
                                      harness_setup, harness_teardown),
  };

  /* The servers may deliver to the receiver on loopback. */
  setenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS", "1", 1);
  harness_global_init();
  hookrx_start();
  int rc = order_run_group_tests_name("api/lobby", tests, NULL, NULL);
  hookrx_stop();
  harness_global_cleanup();
  return rc;
}
