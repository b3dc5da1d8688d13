/*
 * test_players_titles.c - the small resources: POST /v1/players, GET
 * /v1/titles, GET /v1/health and GET /v1/openapi.yaml, against the real
 * server (shared/design/api.md "Resources", api/README.md "Decisions").
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/order.h"

#include <ctype.h>
#include <string.h>

#include "tests/api/harness.h"

static bool all_lower_hex(const char *s, size_t len)
{
  if (strlen(s) != len)
    return false;
  for (size_t i = 0; i < len; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

static bool is_base64url(const char *s, size_t len)
{
  if (strlen(s) != len)
    return false;
  for (size_t i = 0; i < len; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_'))
      return false;
  return true;
}

/* api.md: "POST /v1/players {name} | anyone | 201 {id, name, token}";
 * README: ids are 20 lowercase hex characters, tokens `cairn_` + 43
 * base64url characters, shown once. */
static void test_creating_a_player_returns_id_name_and_token(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;

  harness_call(s, &r, "POST", NULL, "{\"name\":\"Tenzing\"}", "/v1/players");
  HARNESS_EXPECT_JSON(&r, 201);
  assert_true(json_is_object(r.json));
  assert_string_equal(harness_str(r.json, "name"), "Tenzing");
  const char *id = harness_str(r.json, "id");
  if (!all_lower_hex(id, 20))
    harness_fail_response(&r, __FILE__, __LINE__, "id is not 20 lowercase hex characters");
  const char *token = harness_str(r.json, "token");
  if (strncmp(token, "cairn_", 6) != 0 || !is_base64url(token + 6, 43))
    harness_fail_response(&r, __FILE__, __LINE__, "token is not cairn_ + 43 base64url chars");
  harness_response_free(&r);
}

/* Ids and tokens are random: two players never share either. */
static void test_two_players_get_different_ids_and_tokens(void **state)
{
  struct harness_server *s = *state;
  struct harness_player a, b;
  harness_new_player(s, "Hillary", &a);
  harness_new_player(s, "Hillary", &b);
  assert_string_not_equal(a.id, b.id);
  assert_string_not_equal(a.token, b.token);
}

/* The token is a credential: with it, a player may create a game (the
 * endpoint needs a player), and the game shows the player once seated. */
static void test_a_new_token_authenticates_its_player(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  harness_new_player(s, "Messner", &p);
  json_t *game = harness_new_game(s, p.token, "himalaya", 2, NULL);
  const char *gid = harness_game_id(game);
  assert_int_equal(harness_join(s, p.token, gid, -1), 0);

  json_t *view = harness_get_game(s, p.token, gid);
  json_t *seat0 = json_array_get(json_object_get(view, "seats"), 0);
  json_t *player = json_object_get(seat0, "player");
  assert_string_equal(harness_str(player, "id"), p.id);
  assert_string_equal(harness_str(player, "name"), "Messner");
  assert_int_equal(harness_int(view, "your_seat"), 0);
  json_decref(view);
  json_decref(game);
}

/* api.md: "No token = spectator: sees only public information"; a player
 * without a seat in the game is no more than a spectator there. */
static void test_a_player_without_a_seat_sees_what_a_spectator_sees(void **state)
{
  struct harness_server *s = *state;
  struct harness_player a, b, c;
  harness_new_player(s, "a", &a);
  harness_new_player(s, "b", &b);
  harness_new_player(s, "c", &c);
  json_t *game = harness_new_game(s, a.token, "himalaya", 2, NULL);
  const char *gid = harness_game_id(game);
  harness_join(s, a.token, gid, -1);
  harness_join(s, b.token, gid, -1);
  json_t *spectator = harness_get_game(s, NULL, gid);
  json_t *outsider = harness_get_game(s, c.token, gid);
  assert_true(json_equal(spectator, outsider));
  assert_true(json_is_null(json_object_get(outsider, "your_seat")));
  assert_null(json_object_get(outsider, "legal"));
  assert_null(json_object_get(outsider, "seed"));
  json_decref(spectator);
  json_decref(outsider);
  json_decref(game);
}

/* api.md: "GET /v1/titles | anyone | the catalog: [{id, name, min_seats,
 * max_seats, options, rules_version}]". Himalaya is for 2-5 players. */
static void test_titles_list_himalaya_with_seats_options_and_rules_version(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;

  harness_call(s, &r, "GET", NULL, NULL, "/v1/titles");
  HARNESS_EXPECT_JSON(&r, 200);
  if (!json_is_array(r.json))
    harness_fail_response(&r, __FILE__, __LINE__, "the catalog is not a JSON array");
  json_t *himalaya = NULL;
  size_t i;
  json_t *t;
  json_array_foreach(r.json, i, t)
  {
    assert_true(json_is_object(t));
    assert_true(json_is_string(json_object_get(t, "id")));
    assert_true(json_is_string(json_object_get(t, "name")));
    assert_true(json_is_integer(json_object_get(t, "min_seats")));
    assert_true(json_is_integer(json_object_get(t, "max_seats")));
    assert_true(json_is_object(json_object_get(t, "options")));
    assert_true(json_is_string(json_object_get(t, "rules_version")));
    if (strcmp(harness_str(t, "id"), "himalaya") == 0)
      himalaya = t;
  }
  if (!himalaya)
    harness_fail_response(&r, __FILE__, __LINE__, "no title with id 'himalaya'");
  assert_int_equal(harness_int(himalaya, "min_seats"), 2);
  assert_int_equal(harness_int(himalaya, "max_seats"), 5);
  assert_true(strlen(harness_str(himalaya, "rules_version")) > 0);
  assert_true(strlen(harness_str(himalaya, "name")) > 0);
  harness_response_free(&r);
}

/* The catalog is public, and a player's token changes nothing in it. */
static void test_titles_are_the_same_for_players_and_spectators(void **state)
{
  struct harness_server *s = *state;
  struct harness_response anon, player;
  struct harness_player p;
  harness_new_player(s, "Norgay", &p);
  harness_call(s, &anon, "GET", NULL, NULL, "/v1/titles");
  harness_call(s, &player, "GET", p.token, NULL, "/v1/titles");
  HARNESS_EXPECT_JSON(&anon, 200);
  HARNESS_EXPECT_JSON(&player, 200);
  assert_true(json_equal(anon.json, player.json));
  harness_response_free(&anon);
  harness_response_free(&player);
}

/* README: "GET /v1/health → {"status":"ok"}". */
static void test_health_says_ok(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  harness_call(s, &r, "GET", NULL, NULL, "/v1/health");
  HARNESS_EXPECT_JSON(&r, 200);
  assert_string_equal(harness_str(r.json, "status"), "ok");
  harness_response_free(&r);
}

/* api.md: the server serves its OpenAPI 3.1 description at
 * GET /v1/openapi.yaml. We accept any YAML media type. */
static void test_openapi_yaml_is_served_as_yaml_text(void **state)
{
  struct harness_server *s = *state;
  struct harness_response r;
  harness_call(s, &r, "GET", NULL, NULL, "/v1/openapi.yaml");
  HARNESS_EXPECT_STATUS(&r, 200);
  const char *ct = r.content_type ? r.content_type : "";
  if (!strstr(ct, "yaml"))
    harness_fail_response(&r, __FILE__, __LINE__, "Content-Type does not name YAML");
  if (r.json)
    harness_fail_response(&r, __FILE__, __LINE__, "the body is JSON, not YAML text");
  assert_int_equal(strlen(r.body), r.body_len); /* text: no NUL bytes */
  if (!strstr(r.body, "openapi: 3.1") && !strstr(r.body, "openapi: \"3.1") &&
      !strstr(r.body, "openapi: '3.1"))
    harness_fail_response(&r, __FILE__, __LINE__, "no 'openapi: 3.1' line");
  static const char *const paths[] = {"/v1/players", "/v1/titles", "/v1/games",
                                      "/moves",      "/log",       "/join"};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
    if (!strstr(r.body, paths[i]))
      harness_fail_response(&r, __FILE__, __LINE__, "the description never mentions '%s'",
                            paths[i]);
  harness_response_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_creating_a_player_returns_id_name_and_token),
      cmocka_unit_test(test_two_players_get_different_ids_and_tokens),
      cmocka_unit_test(test_a_new_token_authenticates_its_player),
      cmocka_unit_test(test_a_player_without_a_seat_sees_what_a_spectator_sees),
      cmocka_unit_test(test_titles_list_himalaya_with_seats_options_and_rules_version),
      cmocka_unit_test(test_titles_are_the_same_for_players_and_spectators),
      cmocka_unit_test(test_health_says_ok),
      cmocka_unit_test(test_openapi_yaml_is_served_as_yaml_text),
  };
  harness_global_init();
  int failed = order_run_group_tests(tests, harness_setup, harness_teardown);
  harness_global_cleanup();
  return failed;
}
