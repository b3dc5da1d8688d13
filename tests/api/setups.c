/*
 * setups.c - game set-ups shared by the API tests (setups.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "setups.h"

#include <stdio.h>

void setup_invited_game(struct harness_server *s, const char *fields,
                        const struct harness_player *creator, const struct harness_player *invitee,
                        int seat, char id[64])
{
  struct harness_response r;
  char body[512];

  snprintf(body, sizeof body, "{%s,\"seat\":0,\"invite\":[{\"seat\":%d,\"player\":\"%s\"}]}",
           fields, seat, invitee->id);
  harness_call(s, &r, "POST", creator->token, body, "/v1/games");
  HARNESS_EXPECT_JSON(&r, 201);
  snprintf(id, 64, "%s", harness_game_id(r.json));
  harness_response_free(&r);
  harness_call(s, &r, "POST", invitee->token, NULL, "/v1/games/%s/invitation/accept", id);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
}

void setup_resign(struct harness_server *s, const char *token, const char *id)
{
  struct harness_response r;
  json_t *game = harness_get_game(s, NULL, id);
  char body[64];

  snprintf(body, sizeof body, "{\"seq\":%ld}", harness_int(game, "seq"));
  json_decref(game);
  harness_call(s, &r, "POST", token, body, "/v1/games/%s/resign", id);
  HARNESS_EXPECT_JSON(&r, 200);
  harness_response_free(&r);
}

void setup_page_ids(const json_t *page, char *out, size_t size)
{
  const json_t *g;
  size_t i, used = 0;

  out[0] = '\0';
  json_array_foreach(json_object_get(page, "games"), i, g)
  {
    used += (size_t)snprintf(out + used, size - used, "%s%s", i ? "," : "", harness_game_id(g));
    assert_true(used < size);
  }
}
