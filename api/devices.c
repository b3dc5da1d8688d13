/*
 * devices.c - one player on several devices (issue 24): who the caller is
 * (GET /v1/players/me), a new token in place of all the others (POST
 * /v1/players/me/token: "sign out everywhere"), and a short one-use code
 * that a second device trades for a token of its own (POST
 * /v1/players/me/sign-in-code, then POST /v1/sign-in).
 *
 * A code is a credential for ten minutes: 12 characters of Crockford's
 * base32 (60 random bits), shown once, kept only as a hash, one per
 * player. People type it, so it is read leniently (any case, dashes and
 * spaces ignored, O as 0, I and L as 1); every spelling of one code is the
 * same code, and it works once. Guessing is hopeless within its life: at
 * the anonymous rate limit (100 a second per address) ten minutes try 60,000
 * of 2^60.
 */
#include "api.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

#define CODE_CHARS  12
#define CODE_TTL_MS (10 * 60 * 1000)

static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

static const struct api_field sign_in_fields[] = {
    {"code", API_STRING, true},
    {NULL, 0, false},
};
static const struct api_field no_fields[] = {{NULL, 0, false}};

/* A body that says nothing: absent, empty or {} (anything else is refused
 * as any unknown member is). */
static enum cairn_status body_says_nothing(const struct api_request *req, struct cairn_error *err)
{
  json_t *doc = NULL;
  enum cairn_status st = api_body_object(req, no_fields, true, &doc, err);

  json_decref(doc);
  return st;
}

enum cairn_status api_players_me(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    resp->body = json_pack("{s:s, s:s}", "id", req->player.id, "name", req->player.name);
  return st;
}

/* The answer that shows a token once: {id, name, token}. */
static void token_answer(struct api_response *resp, const struct db_player *p, const char *token)
{
  resp->status = 201;
  resp->body = json_pack("{s:s, s:s, s:s}", "id", p->id, "name", p->name, "token", token);
}

enum cairn_status api_players_rotate_token(struct api_request *req, struct api_response *resp,
                                           struct cairn_error *err)
{
  uint8_t hash[DB_HASH_BYTES];
  char token[64];
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = body_says_nothing(req, err);
  if (st != CAIRN_OK)
    return st;
  api_new_token(token, hash);
  st = db_tokens_replace(req->server->db, req->player.id, hash, err);
  if (st == CAIRN_OK)
    token_answer(resp, &req->player, token);
  sodium_memzero(token, sizeof(token));
  return st;
}

/* `typed` as a code's canonical 12 characters into out[13]; false when it
 * cannot be one. */
static bool canonical_code(const char *typed, char out[CODE_CHARS + 1])
{
  size_t n = 0;

  for (; *typed; typed++) {
    char c = *typed >= 'a' && *typed <= 'z' ? (char)(*typed - 'a' + 'A') : *typed;

    if (c == '-' || c == ' ')
      continue;
    c = c == 'O' ? '0' : c == 'I' || c == 'L' ? '1' : c;
    if (!strchr(crockford, c) || c == '\0' || n == CODE_CHARS)
      return false;
    out[n++] = c;
  }
  out[n] = '\0';
  return n == CODE_CHARS;
}

static void code_hash(const char code[CODE_CHARS + 1], uint8_t hash[DB_HASH_BYTES])
{
  crypto_generichash(hash, DB_HASH_BYTES, (const unsigned char *)code, CODE_CHARS, NULL, 0);
}

enum cairn_status api_players_sign_in_code(struct api_request *req, struct api_response *resp,
                                           struct cairn_error *err)
{
  char code[CODE_CHARS + 1], shown[CODE_CHARS + 3];
  uint8_t raw[CODE_CHARS], hash[DB_HASH_BYTES];
  int64_t expires;
  enum cairn_status st = api_require_player(req, err);

  if (st == CAIRN_OK)
    st = body_says_nothing(req, err);
  if (st != CAIRN_OK)
    return st;
  randombytes_buf(raw, sizeof(raw));
  for (int i = 0; i < CODE_CHARS; i++)
    code[i] = crockford[raw[i] & 31];
  code[CODE_CHARS] = '\0';
  code_hash(code, hash);
  expires = api_now_ms(req->server) + CODE_TTL_MS;
  st = db_sign_in_code_put(req->server->db, req->player.id, hash, expires, err);
  if (st == CAIRN_OK) {
    snprintf(shown, sizeof(shown), "%.4s-%.4s-%.4s", code, code + 4, code + 8);
    resp->status = 201;
    resp->body = json_pack("{s:s, s:o}", "code", shown, "expires_at", api_time_json(expires));
  }
  sodium_memzero(code, sizeof(code));
  sodium_memzero(raw, sizeof(raw));
  return st;
}

enum cairn_status api_sign_in(struct api_request *req, struct api_response *resp,
                              struct cairn_error *err)
{
  struct db_player player;
  char code[CODE_CHARS + 1], token[64];
  uint8_t hash[DB_HASH_BYTES];
  json_t *doc = NULL;
  enum cairn_status st = api_body_object(req, sign_in_fields, false, &doc, err);

  if (st != CAIRN_OK)
    return st;
  if (!canonical_code(json_string_value(json_object_get(doc, "code")), code))
    st = cairn_fail(err, CAIRN_EAUTH, API_CODE_BAD_SIGN_IN_CODE, NULL,
                    "a sign-in code is 12 letters and digits (dashes and spaces are ignored)");
  json_decref(doc);
  if (st != CAIRN_OK)
    return st;
  code_hash(code, hash);
  sodium_memzero(code, sizeof(code));
  st = db_sign_in_code_take(req->server->db, hash, api_now_ms(req->server), &player, err);
  if (st == CAIRN_ENOTFOUND)
    return cairn_fail(err, CAIRN_EAUTH, API_CODE_BAD_SIGN_IN_CODE, NULL,
                      "no such sign-in code, or it expired or was used: ask for a new one");
  if (st != CAIRN_OK)
    return st;
  api_new_token(token, hash);
  st = db_token_add(req->server->db, player.id, hash, api_now_ms(req->server), err);
  if (st == CAIRN_OK)
    token_answer(resp, &player, token);
  sodium_memzero(token, sizeof(token));
  return st;
}
