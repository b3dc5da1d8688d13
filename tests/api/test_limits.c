/*
 * test_limits.c - abuse limits and a clean stop: a client over its rate
 * gets 429 with Retry-After; a player cannot pile up unfinished games; no
 * endpoint lets another player act for a seat it does not hold or read
 * another's webhooks; SIGTERM finishes cleanly and leaves no WAL behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

static void test_client_over_its_rate_gets_429_with_retry_after(void **state)
{
  struct harness_server s;
  struct harness_response r;
  int i, limited = 0, ok = 0;

  setenv("CAIRN_RATE_LIMIT", "5,5", 1);
  memset(&s, 0, sizeof s);
  harness_start(&s);
  for (i = 0; i < 40; i++) {
    harness_call(&s, &r, "GET", NULL, NULL, "/v1/health");
    if (r.status == 429) {
      HARNESS_EXPECT_PROBLEM(&r, 429, "rate-limited");
      assert_non_null(harness_response_header(&r, "Retry-After"));
      limited++;
    } else {
      ok += r.status == 200;
    }
    harness_response_free(&r);
  }
  assert_true(ok >= 5); /* the burst */
  assert_true(limited > 0);
  assert_true(harness_stop(&s));
  setenv("CAIRN_RATE_LIMIT", "0", 1);
}

static void test_a_player_cannot_pile_up_unfinished_games(void **state)
{
  struct harness_server s;
  struct harness_player p;
  struct harness_response r;
  const char *body = "{\"title\":\"himalaya\",\"seats\":2}";

  setenv("CAIRN_MAX_OPEN_GAMES", "2", 1);
  memset(&s, 0, sizeof s);
  harness_start(&s);
  harness_new_player(&s, "hoarder", &p);
  json_decref(harness_new_game(&s, p.token, "himalaya", 2, "{}"));
  json_decref(harness_new_game(&s, p.token, "himalaya", 2, "{}"));
  harness_call(&s, &r, "POST", p.token, body, "/v1/games");
  HARNESS_EXPECT_PROBLEM(&r, 409, "too-many-games");
  harness_response_free(&r);
  assert_true(harness_stop(&s));
  setenv("CAIRN_MAX_OPEN_GAMES", "0", 1);
}

/* Issue "Speed, load and faults", 4: "no endpoint lets a spectator or
 * another seat ... act for a seat it does not hold (tests try every
 * endpoint with the wrong token)". */
static void test_every_acting_endpoint_refuses_a_player_without_the_seat(void **state)
{
  struct harness_server *s = *state;
  struct harness_player a, b, stranger;
  struct harness_response r;
  char id[64], hook_body[128];
  json_t *g;
  static const char *const acts[] = {"moves", "takeback", "takeback/accept", "takeback/decline"};
  size_t i;

  harness_new_player(s, "seat0", &a);
  harness_new_player(s, "seat1", &b);
  harness_new_player(s, "stranger", &stranger);
  g = harness_new_game(s, a.token, "himalaya", 2, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(s, a.token, id, 0);
  harness_join(s, b.token, id, 1);
  for (i = 0; i < sizeof acts / sizeof *acts; i++) {
    const char *body = strcmp(acts[i], "moves") == 0 ? "{\"seq\":0,\"move\":{\"type\":\"reroll\"}}"
                                                     : "{\"seq\":0}";

    harness_call(s, &r, "POST", stranger.token, body, "/v1/games/%s/%s", id, acts[i]);
    HARNESS_EXPECT_PROBLEM(&r, 403, "not-seated");
    harness_response_free(&r);
    harness_call(s, &r, "POST", NULL, body, "/v1/games/%s/%s", id, acts[i]);
    HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
    harness_response_free(&r);
    harness_call(s, &r, "POST", "cairn_forged", body, "/v1/games/%s/%s", id, acts[i]);
    HARNESS_EXPECT_PROBLEM(&r, 401, "bad-token");
    harness_response_free(&r);
  }
  /* Seat 1 may not move for seat 0, whose turn it is. */
  harness_call(s, &r, "POST", b.token, "{\"seq\":0,\"move\":{\"type\":\"reroll\"}}",
               "/v1/games/%s/moves", id);
  HARNESS_EXPECT_PROBLEM(&r, 403, "not-your-turn");
  harness_response_free(&r);
  /* Nobody but the seat itself is offered its legal moves. */
  g = harness_get_game(s, stranger.token, id);
  assert_null(json_object_get(g, "legal"));
  json_decref(g);
  g = harness_get_game(s, NULL, id);
  assert_null(json_object_get(g, "legal"));
  json_decref(g);
  /* Webhooks are their owner's only. */
  snprintf(hook_body, sizeof hook_body, "{\"url\":\"http://example.org/h\",\"format\":\"json\"}");
  harness_call(s, &r, "POST", a.token, hook_body, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(id, sizeof id, "%s", harness_str(r.json, "id"));
  harness_response_free(&r);
  harness_call(s, &r, "GET", stranger.token, NULL, "/v1/webhooks/%s/deliveries", id);
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  harness_call(s, &r, "DELETE", stranger.token, NULL, "/v1/webhooks/%s", id);
  HARNESS_EXPECT_PROBLEM(&r, 404, "not-found");
  harness_response_free(&r);
  harness_call(s, &r, "GET", stranger.token, NULL, "/v1/webhooks");
  HARNESS_EXPECT_STATUS(&r, 200);
  assert_int_equal(json_array_size(json_object_get(r.json, "webhooks")), 0);
  harness_response_free(&r);
}

/* Issue "Speed, load and faults", 5: SIGTERM finishes and checkpoints the
 * WAL. */
static void test_sigterm_stops_cleanly_and_checkpoints_the_wal(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char wal[400];
  struct stat st;
  int i;

  for (i = 0; i < 5; i++) {
    char name[16];

    snprintf(name, sizeof name, "w%d", i);
    harness_new_player(s, name, &p);
  }
  harness_pause(s); /* SIGTERM; asserts a clean exit */
  snprintf(wal, sizeof wal, "%s-wal", s->db_path);
  assert_true(stat(wal, &st) != 0 || st.st_size == 0);
  harness_resume(s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_client_over_its_rate_gets_429_with_retry_after),
      cmocka_unit_test(test_a_player_cannot_pile_up_unfinished_games),
      cmocka_unit_test_setup_teardown(test_every_acting_endpoint_refuses_a_player_without_the_seat,
                                      harness_setup, harness_teardown),
      cmocka_unit_test_setup_teardown(test_sigterm_stops_cleanly_and_checkpoints_the_wal,
                                      harness_setup, harness_teardown),
  };

  harness_global_init();
  int rc = cmocka_run_group_tests_name("api/limits", tests, NULL, NULL);
  harness_global_cleanup();
  return rc;
}
