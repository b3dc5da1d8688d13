/*
 * test_devices.c - issue 24: "a way to use one player on several devices
 * (GET /v1/players/me, token rotation, and a sign-in link or code)",
 * against the real server.
 *
 * A sign-in code is attacked as a credential: it works once, in any
 * spelling a person might type, for ten minutes; a wrong, used, expired or
 * replaced code mints nothing; of two devices racing one code exactly one
 * gets a token. A rotated token is attacked as revoked: every token the
 * player held before stops working at once, the cached ones included.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tests/order.h"

static int setup(void **state)
{
  setenv("CAIRN_TEST_CLOCK", "1", 1);
  return harness_setup(state);
}

static int teardown(void **state)
{
  unsetenv("CAIRN_TEST_CLOCK");
  return harness_teardown(state);
}

/* GET /v1/players/me as `token`: its status; the id into id[64] on 200. */
static long whoami(struct harness_server *s, const char *token, char id[64])
{
  struct harness_response r;
  long status;

  harness_call(s, &r, "GET", token, NULL, "/v1/players/me");
  status = r.status;
  if (status == 200 && id)
    snprintf(id, 64, "%s", harness_str(r.json, "id"));
  harness_response_free(&r);
  return status;
}

/* A new sign-in code of `token`'s player, as shown ("XXXX-XXXX-XXXX"). */
static void new_code(struct harness_server *s, const char *token, char code[32])
{
  struct harness_response r;

  harness_call(s, &r, "POST", token, NULL, "/v1/players/me/sign-in-code");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(code, 32, "%s", harness_str(r.json, "code"));
  assert_int_equal(strlen(code), 14);
  assert_non_null(json_object_get(r.json, "expires_at"));
  harness_response_free(&r);
}

/* POST /v1/sign-in {code}: its status; the new token into token[128]. */
static long sign_in(struct harness_server *s, const char *code, char token[128])
{
  struct harness_response r;
  json_t *body = json_pack("{s:s}", "code", code);
  long status;

  harness_call_json(s, &r, "POST", NULL, body, "/v1/sign-in");
  status = r.status;
  if (status == 201 && token)
    snprintf(token, 128, "%s", harness_str(r.json, "token"));
  else if (status != 201)
    assert_string_equal(harness_str(r.json, "code"), status == 401 ? "bad-sign-in-code" : "");
  harness_response_free(&r);
  json_decref(body);
  return status;
}

static void test_me_says_who_the_token_is(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;
  char id[64];

  harness_new_player(s, "Tenzing", &p);
  assert_int_equal(whoami(s, p.token, id), 200);
  assert_string_equal(id, p.id);
  harness_call(s, &r, "GET", p.token, NULL, "/v1/players/me");
  assert_string_equal(harness_str(r.json, "name"), "Tenzing");
  assert_null(json_object_get(r.json, "token")); /* never shown again */
  harness_response_free(&r);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/players/me");
  HARNESS_EXPECT_PROBLEM(&r, 401, "missing-token");
  harness_response_free(&r);
}

static void test_a_code_signs_in_a_second_device_once(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char code[32], second[128], id[64];

  harness_new_player(s, "Hillary", &p);
  new_code(s, p.token, code);
  assert_int_equal(sign_in(s, code, second), 201);
  assert_string_not_equal(second, p.token);
  assert_int_equal(whoami(s, second, id), 200);
  assert_string_equal(id, p.id);
  assert_int_equal(whoami(s, p.token, NULL), 200); /* the first device stays signed in */
  assert_int_equal(sign_in(s, code, NULL), 401);   /* used */
  /* The second device acts as the player: it lists the player's games. */
  json_decref(harness_get_json(s, second, "/v1/players/me/games"));
}

static void test_a_code_is_read_as_people_type_it(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char code[32], typed[64];
  size_t n = 0;

  harness_new_player(s, "Norgay", &p);
  new_code(s, p.token, code);
  /* lower case, no dashes, spaces, O for 0 and l for 1 */
  for (const char *c = code; *c; c++) {
    if (*c == '-') {
      typed[n++] = ' ';
      continue;
    }
    typed[n++] = *c == '0' ? 'o' : *c == '1' ? 'l' : (char)tolower((unsigned char)*c);
  }
  typed[n] = '\0';
  assert_int_equal(sign_in(s, typed, NULL), 201);
  assert_int_equal(sign_in(s, code, NULL), 401); /* one code, whatever its spelling */
}

static void test_wrong_expired_and_replaced_codes_mint_nothing(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char code[32], old[32], wrong[32];

  harness_new_player(s, "Mallory", &p);
  new_code(s, p.token, code);
  snprintf(wrong, sizeof wrong, "%s", code);
  wrong[0] = wrong[0] == 'A' ? 'B' : 'A';
  assert_int_equal(sign_in(s, wrong, NULL), 401);
  const char *malformed[] = {"", "ABCD", "ABCD-EFGH-JKMN-P", "ABCD-EFGH-JKM!", "ÄBCD-EFGH-JKMN"};
  for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++)
    assert_int_equal(sign_in(s, malformed[i], NULL), 401);

  snprintf(old, sizeof old, "%s", code);
  new_code(s, p.token, code); /* asking again replaces it */
  assert_int_equal(sign_in(s, old, NULL), 401);

  harness_advance_clock(s, 10 * 60 * 1000 + 1);
  assert_int_equal(sign_in(s, code, NULL), 401); /* expired */
  new_code(s, p.token, code);
  harness_advance_clock(s, 9 * 60 * 1000);
  assert_int_equal(sign_in(s, code, NULL), 201);
}

static void test_a_rotated_token_signs_out_every_other_device(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;
  char code[32], second[128], third[128], fresh[128], id[64];

  harness_new_player(s, "Irvine", &p);
  new_code(s, p.token, code);
  assert_int_equal(sign_in(s, code, second), 201);
  new_code(s, p.token, code);
  assert_int_equal(sign_in(s, code, third), 201);
  new_code(s, second, code); /* left unused: the rotation drops it */
  /* Every token in the cache first, so a stale copy would show. */
  assert_int_equal(whoami(s, p.token, NULL), 200);
  assert_int_equal(whoami(s, second, NULL), 200);
  assert_int_equal(whoami(s, third, NULL), 200);

  harness_call(s, &r, "POST", second, NULL, "/v1/players/me/token");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(fresh, sizeof fresh, "%s", harness_str(r.json, "token"));
  assert_string_equal(harness_str(r.json, "id"), p.id);
  harness_response_free(&r);

  assert_int_equal(whoami(s, p.token, NULL), 401);
  assert_int_equal(whoami(s, second, NULL), 401);
  assert_int_equal(whoami(s, third, NULL), 401);
  assert_int_equal(sign_in(s, code, NULL), 401);
  assert_int_equal(whoami(s, fresh, id), 200);
  assert_string_equal(id, p.id);
  /* And after a restart, from storage alone. */
  harness_restart(s);
  assert_int_equal(whoami(s, p.token, NULL), 401);
  assert_int_equal(whoami(s, fresh, NULL), 200);
}

/* Issue 24's stream tickets last a minute (tickets.c). */
static void test_a_stream_ticket_expires_after_a_minute(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  struct harness_response r;
  char ticket[128];

  harness_new_player(s, "Sandy", &p);
  harness_call(s, &r, "POST", p.token, NULL, "/v1/players/me/stream-ticket");
  HARNESS_EXPECT_STATUS(&r, 201);
  snprintf(ticket, sizeof ticket, "%s", harness_str(r.json, "ticket"));
  harness_response_free(&r);
  harness_advance_clock(s, 60 * 1000);
  harness_call(s, &r, "GET", NULL, NULL, "/v1/players/me/events?ticket=%s", ticket);
  HARNESS_EXPECT_PROBLEM(&r, 401, "bad-token");
  harness_response_free(&r);
}

struct racer {
  struct harness_server *s;
  const char *code;
  pthread_barrier_t *start;
  long status;
};

static void *race(void *arg)
{
  struct racer *r = arg;
  struct harness_client c;
  char body[64];
  struct harness_request req = {.method = "POST", .path = "/v1/sign-in", .body = body};
  struct harness_response out;

  snprintf(body, sizeof body, "{\"code\":\"%s\"}", r->code);
  req.body_len = strlen(body);
  harness_client_init(&c, r->s);
  pthread_barrier_wait(r->start);
  harness_send(&c, &req, &out);
  r->status = out.status;
  harness_response_free(&out);
  harness_client_cleanup(&c);
  return NULL;
}

static void test_two_devices_racing_one_code_get_one_token(void **state)
{
  struct harness_server *s = *state;
  struct harness_player p;
  char code[32];

  harness_new_player(s, "Odell", &p);
  for (int round = 0; round < 10; round++) {
    pthread_barrier_t start;
    struct racer racers[4];
    pthread_t t[4];
    int won = 0;

    new_code(s, p.token, code);
    pthread_barrier_init(&start, NULL, 4);
    for (int i = 0; i < 4; i++) {
      racers[i] = (struct racer){.s = s, .code = code, .start = &start};
      assert_int_equal(pthread_create(&t[i], NULL, race, &racers[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
      pthread_join(t[i], NULL);
      won += racers[i].status == 201;
      assert_true(racers[i].status == 201 || racers[i].status == 401);
    }
    pthread_barrier_destroy(&start);
    assert_int_equal(won, 1);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_me_says_who_the_token_is, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_code_signs_in_a_second_device_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_code_is_read_as_people_type_it, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wrong_expired_and_replaced_codes_mint_nothing, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_a_rotated_token_signs_out_every_other_device, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_two_devices_racing_one_code_get_one_token, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_a_stream_ticket_expires_after_a_minute, setup, teardown),
  };
  int failed;

  harness_global_init();
  failed = order_run_group_tests(tests, NULL, NULL);
  harness_global_cleanup();
  return failed;
}
