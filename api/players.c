/*
 * players.c - POST /v1/players: registering a player and minting the token
 * that is shown this once and stored only as a hash.
 */
#include "api.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

static const struct api_field player_fields[] = {
    {"name", API_STRING, true},
    {NULL, 0, false},
};

/* Names are shown to other players and in chat relays: printable, one line. */
static enum cairn_status check_name(const char *name, struct cairn_error *err)
{
  size_t len = strlen(name);
  size_t i;

  if (len == 0 || len > DB_NAME_MAX)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "name must be 1 to %d bytes of UTF-8", DB_NAME_MAX);
  for (i = 0; i < len; i++)
    if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                        "name must not contain control characters");
  return CAIRN_OK;
}

enum cairn_status api_players_create(struct api_request *req, struct api_response *resp,
                                     struct cairn_error *err)
{
  struct db_player player = {0};
  uint8_t hash[DB_HASH_BYTES];
  char token[64];
  json_t *doc = NULL;
  const char *name;
  enum cairn_status st;

  st = api_body_object(req, player_fields, false, &doc, err);
  if (st != CAIRN_OK)
    goto cleanup;
  name = json_string_value(json_object_get(doc, "name"));
  st = check_name(name, err);
  if (st != CAIRN_OK)
    goto cleanup;
  game_new_id(player.id); /* players, games and webhooks share one id format */
  snprintf(player.name, sizeof(player.name), "%s", name);
  api_new_token(token, hash);
  st = db_player_create(req->server->db, &player, hash, err);
  if (st != CAIRN_OK)
    goto cleanup;
  resp->status = 201;
  resp->body = json_pack("{s:s, s:s, s:s}", "id", player.id, "name", player.name, "token", token);
cleanup:
  sodium_memzero(token, sizeof(token));
  json_decref(doc);
  return st;
}
