/*
 * test_stream_views.c - notifications that carry their subscriber's own
 * view (?view=1 on GET /v1/games/{id}/events, GET /v1/players/me/events
 * and GET /v1/games/{id}/wait; issue 24), attacked: a spectator and every
 * seat subscribe to the same games of Everest, Himalaya and Journey, and
 * the `state` each event carries must be exactly what GET /v1/games/{id}
 * answered that subscriber at that seq - never another seat's view, never
 * a secret the subscriber's own GET would not show.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/order.h"
#include "harness.h"
#include "sseclient.h"

#define MAX_SEATS   3
#define MAX_VIEWERS (MAX_SEATS + 1) /* the seats, then a spectator */
#define MOVES       14
#define MAX_SEQ     64
#define MAX_AT_SEQ  (MOVES + 1) /* views one seq may show: moves that leave seq alone */

/* ---- SSE: the shared reader (sseclient.h), counting "game" events ---- */

struct sse {
  struct sse_client base; /* first: the reader */
  _Atomic int want;       /* stop after this many "game" events */
  int events;
};

static bool count_game_events(struct sse_client *b)
{
  struct sse *c = (struct sse *)b;
  const char *p;

  c->events = 0;
  for (p = strstr(b->text, "event: game\n"); p; p = strstr(p + 1, "event: game\n"))
    c->events += strstr(p, "\n\n") != NULL;
  return c->events >= c->want;
}

static void sse_open(struct harness_server *s, struct sse *c, const char *path, const char *token,
                     int want)
{
  memset(c, 0, sizeof *c);
  sse_client_init(&c->base, s, path, token, count_game_events);
  c->base.timeout_s = 30;
  c->want = want;
  sse_client_start(&c->base);
}

/* ---- what each subscriber's GET showed, by seq ---- */

/* A game's seq names a position for its clients, but a move may leave it
 * where it was (a plan or a purchase made in secret while others make
 * theirs), so one seq may have shown a viewer several views: all are
 * kept, and a state sent must be one of them. */
struct seen_views {
  char *view[MAX_VIEWERS][MAX_SEQ][MAX_AT_SEQ]; /* owned: canonical text of GET's `view` */
  int n[MAX_VIEWERS][MAX_SEQ];
  int your_seat[MAX_VIEWERS]; /* -1 for the spectator */
};

/* Did GET show the viewer in `slot` exactly `view` at `seq`? */
static bool was_shown(const struct seen_views *seen, int slot, long seq, const char *view)
{
  for (int i = 0; i < seen->n[slot][seq]; i++)
    if (strcmp(seen->view[slot][seq][i], view) == 0)
      return true;
  return false;
}

static char *canonical(const json_t *v)
{
  return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* Record what GET /v1/games/{id} answers each viewer now. */
static void record_views(struct harness_server *s, const struct harness_player *p, int seats,
                         const char *id, struct seen_views *seen)
{
  for (int v = 0; v <= seats; v++) {
    int slot = v < seats ? v : MAX_VIEWERS - 1;
    json_t *g = harness_get_game(s, v < seats ? p[v].token : NULL, id);
    long seq = harness_int(g, "seq");

    assert_true(seq >= 0 && seq < MAX_SEQ && seen->n[slot][seq] < MAX_AT_SEQ);
    seen->view[slot][seq][seen->n[slot][seq]++] = canonical(json_object_get(g, "view"));
    json_decref(g);
  }
}

/* Every event of `c` carries a state that is exactly what the viewer in
 * `slot` was shown by GET at that state's seq. Returns the events checked. */
static int check_stream(const struct sse *c, const struct seen_views *seen, int slot,
                        const char *game)
{
  const char *p = c->base.text;
  int checked = 0;

  while ((p = strstr(p, "event: game\ndata: "))) {
    const char *data = p + strlen("event: game\ndata: ");
    const char *end = strstr(data, "\n\n");
    json_t *event, *state;
    char *view;
    long seq;

    assert_non_null(end);
    event = json_loadb(data, (size_t)(end - data), 0, NULL);
    assert_non_null(event);
    p = end;
    if (strcmp(harness_str(event, "game"), game) != 0) { /* a player's other games */
      json_decref(event);
      continue;
    }
    state = json_object_get(event, "state");
    assert_true(json_is_object(state));
    assert_string_equal(harness_str(state, "id"), game);
    seq = harness_int(state, "seq");
    assert_true(seq >= harness_int(event, "seq") && seq < MAX_SEQ);
    assert_true(seen->n[slot][seq] > 0);
    if (seen->your_seat[slot] < 0)
      assert_true(json_is_null(json_object_get(state, "your_seat")));
    else
      assert_int_equal(harness_int(state, "your_seat"), seen->your_seat[slot]);
    view = canonical(json_object_get(state, "view"));
    if (!was_shown(seen, slot, seq, view))
      fail_msg("viewer %d at seq %ld was sent a view its GET never showed: %.400s", slot, seq,
               view);
    free(view);
    json_decref(event);
    checked++;
  }
  return checked;
}

/* Seats whose GET views differed somewhere: the game had secrets, so a
 * swapped view would have been caught. */
static bool views_ever_differ(const struct seen_views *seen, int seats)
{
  /* The last view of each seq, for each viewer: recorded together. */
  for (int seq = 0; seq < MAX_SEQ; seq++)
    for (int a = 0; a < seats; a++)
      for (int b = 0; b <= seats; b++) {
        int sb = b < seats ? b : MAX_VIEWERS - 1;
        int na = seen->n[a][seq], nb = seen->n[sb][seq];

        if (a != b && na && nb &&
            strcmp(seen->view[a][seq][na - 1], seen->view[sb][seq][nb - 1]) != 0)
          return true;
      }
  return false;
}

/* Play MOVES moves of `title` with every subscriber listening, then check
 * what each was sent. */
static void subscribers_see_only_their_own_view(struct harness_server *s, const char *title,
                                                int seats, bool has_secrets)
{
  struct harness_player p[MAX_SEATS] = {0};
  static struct seen_views seen; /* large: kept off the stack */
  struct sse game_streams[MAX_VIEWERS], player_streams[MAX_SEATS];
  struct harness_rng rng = {0x5eed};
  char id[64], path[160], name[32];
  json_t *g;
  int moves = 0;

  memset(&seen, 0, sizeof seen);
  for (int i = 0; i < seats; i++) {
    snprintf(name, sizeof name, "viewer%d", i);
    harness_new_player(s, name, &p[i]);
    seen.your_seat[i] = i;
  }
  seen.your_seat[MAX_VIEWERS - 1] = -1;
  g = harness_new_game(s, p[0].token, title, seats, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  for (int i = 0; i < seats; i++)
    harness_join(s, p[i].token, id, i);
  record_views(s, p, seats, id, &seen);

  snprintf(path, sizeof path, "/v1/games/%s/events?view=1", id);
  for (int v = 0; v < seats; v++)
    sse_open(s, &game_streams[v], path, p[v].token, MOVES);
  sse_open(s, &game_streams[MAX_VIEWERS - 1], path, NULL, MOVES);
  for (int v = 0; v < seats; v++)
    sse_open(s, &player_streams[v], "/v1/players/me/events?view=1", p[v].token, MOVES);

  while (moves < MOVES) {
    json_t *spec = harness_get_game(s, NULL, id);
    json_t *to_act = json_object_get(spec, "to_act");
    int seat = (int)json_integer_value(json_array_get(to_act, 0));
    json_t *mine, *move;
    struct harness_response r;

    if (json_array_size(to_act) == 0) { /* over early: fewer events to wait for */
      json_decref(spec);
      break;
    }
    mine = harness_get_game(s, p[seat].token, id);
    move = harness_choose_move(mine, &rng);
    harness_post_move(s, &r, p[seat].token, id, harness_int(mine, "seq"), move);
    HARNESS_EXPECT_STATUS(&r, 200);
    harness_response_free(&r);
    json_decref(move);
    json_decref(mine);
    json_decref(spec);
    moves++;
    record_views(s, p, seats, id, &seen);
  }
  for (int v = 0; v < MAX_VIEWERS; v++) {
    if (v >= seats && v != MAX_VIEWERS - 1)
      continue;
    game_streams[v].want = moves; /* read by its thread only at its next bytes */
    sse_client_join(&game_streams[v].base);
    assert_int_equal(check_stream(&game_streams[v], &seen, v, id), moves);
    sse_client_free(&game_streams[v].base);
  }
  for (int v = 0; v < seats; v++) {
    sse_client_join(&player_streams[v].base);
    assert_int_equal(check_stream(&player_streams[v], &seen, v, id), moves);
    sse_client_free(&player_streams[v].base);
  }

  /* The long-poll's answer carries the caller's view too. */
  for (int v = 0; v <= seats; v++) {
    int slot = v < seats ? v : MAX_VIEWERS - 1;
    json_t *got =
        harness_get_json(s, v < seats ? p[v].token : NULL, "/v1/games/%s/wait?after=0&view=1", id);
    json_t *state = json_object_get(got, "state");
    char *view = canonical(json_object_get(state, "view"));
    long seq = harness_int(state, "seq");

    assert_true(seq < MAX_SEQ && seen.n[slot][seq] > 0);
    assert_string_equal(view, seen.view[slot][seq][seen.n[slot][seq] - 1]); /* as it stands */
    free(view);
    json_decref(got);
  }
  if (has_secrets)
    assert_true(views_ever_differ(&seen, seats));
  for (int v = 0; v < MAX_VIEWERS; v++)
    for (int q = 0; q < MAX_SEQ; q++)
      for (int i = 0; i < seen.n[v][q]; i++)
        free(seen.view[v][q][i]);
}

/* Everest's plans stay hidden while they are made. */
static void test_everest_streams_carry_each_subscribers_own_view(void **state)
{
  subscribers_see_only_their_own_view(*state, "everest-piecepack", 2, true);
}

static void test_himalaya_streams_carry_each_subscribers_own_view(void **state)
{
  subscribers_see_only_their_own_view(*state, "himalaya", 2, false);
}

/* Journey's pending buys and forecasts stay hidden. */
static void test_journey_streams_carry_each_subscribers_own_view(void **state)
{
  subscribers_see_only_their_own_view(*state, "journey-to-the-top", 3, true);
}

/* Without ?view=1 the events are as before: no state. And view is 0 or 1. */
static void test_streams_carry_no_state_unless_asked(void **state)
{
  struct harness_server *s = *state;
  struct harness_player a, b;
  struct harness_response r;
  struct sse c;
  char id[64], path[160];
  json_t *g;

  harness_new_player(s, "ann", &a);
  harness_new_player(s, "bob", &b);
  g = harness_new_game(s, a.token, "himalaya", 2, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, a.token, id, 0);
  snprintf(path, sizeof path, "/v1/games/%s/events", id);
  sse_open(s, &c, path, NULL, 1);
  harness_join(s, b.token, id, 1);
  sse_client_join(&c.base);
  assert_int_equal(c.events, 1);
  assert_null(strstr(c.base.text, "\"state\""));
  sse_client_free(&c.base);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/events?view=2", id);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/games/%s/wait?after=0&view=yes", id);
  HARNESS_EXPECT_PROBLEM(&r, 400, "bad-query");
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_everest_streams_carry_each_subscribers_own_view,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_himalaya_streams_carry_each_subscribers_own_view,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_journey_streams_carry_each_subscribers_own_view,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_streams_carry_no_state_unless_asked, harness_setup,
                                      harness_teardown),
  };

  harness_global_init();
  int rc = order_run_group_tests_name("api/stream_views", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
