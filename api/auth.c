/*
 * auth.c - bearer tokens and ids. Tokens are 32 random bytes from libsodium,
 * shown once; storage keeps only their BLAKE2b-256 hash, so a leaked
 * database yields no usable token. Lookup is by hash: a timing difference
 * in the index search reveals nothing about a 256-bit secret's hash
 * preimage, so no constant-time comparison is needed here.
 */
#include "api.h"

#include <microhttpd.h>
#include <sodium.h>
#include <string.h>
#include <strings.h>

#define TOKEN_PREFIX "cairn_"

static void hash_token(const char *token, uint8_t hash[DB_HASH_BYTES])
{
  crypto_generichash(hash, DB_HASH_BYTES, (const unsigned char *)token, strlen(token), NULL, 0);
}

void api_new_token(char token[64], uint8_t hash[DB_HASH_BYTES])
{
  uint8_t raw[32];

  randombytes_buf(raw, sizeof(raw));
  memcpy(token, TOKEN_PREFIX, sizeof(TOKEN_PREFIX) - 1);
  sodium_bin2base64(token + sizeof(TOKEN_PREFIX) - 1, 64 - (sizeof(TOKEN_PREFIX) - 1), raw,
                    sizeof(raw), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  hash_token(token, hash);
  sodium_memzero(raw, sizeof(raw));
}

enum cairn_status api_authenticate(struct api_request *req, struct cairn_error *err)
{
  const char *header =
      MHD_lookup_connection_value(req->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
  const char *token;
  uint8_t hash[DB_HASH_BYTES];
  enum cairn_status st;

  req->has_player = false;
  if (!header)
    return CAIRN_OK;
  if (strncasecmp(header, "Bearer ", 7) != 0)
    return cairn_fail(err, CAIRN_EAUTH, CAIRN_CODE_BAD_TOKEN, NULL,
                      "Authorization must be \"Bearer <token>\"");
  token = header + 7;
  while (*token == ' ')
    token++;
  if (strncmp(token, TOKEN_PREFIX, sizeof(TOKEN_PREFIX) - 1) != 0 || strlen(token) > 63)
    return cairn_fail(err, CAIRN_EAUTH, CAIRN_CODE_BAD_TOKEN, NULL, "token is not a Cairn token");
  hash_token(token, hash);
  st = db_player_by_token(req->server->db, hash, &req->player, err);
  if (st == CAIRN_ENOTFOUND)
    return cairn_fail(err, CAIRN_EAUTH, CAIRN_CODE_BAD_TOKEN, NULL, "no player holds this token");
  if (st != CAIRN_OK)
    return st;
  req->has_player = true;
  return CAIRN_OK;
}

enum cairn_status api_require_player(const struct api_request *req, struct cairn_error *err)
{
  if (req->has_player)
    return CAIRN_OK;
  return cairn_fail(err, CAIRN_EAUTH, CAIRN_CODE_MISSING_TOKEN, NULL,
                    "this request needs \"Authorization: Bearer <token>\" (POST /v1/players)");
}
