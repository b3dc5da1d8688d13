/*
 * tickets.c - stream tickets (issue 24): a browser's EventSource cannot
 * send an Authorization header, so a page that wants the per-player stream
 * (GET /v1/players/me/events) first asks for a ticket with its token (POST
 * /v1/players/me/stream-ticket) and opens the stream with ?ticket=.
 *
 * A ticket is `<player id>.<expiry ms>.<MAC>`, the MAC a BLAKE2b-128 of
 * the rest keyed by a key derived from the server's signing key: nothing
 * is stored, and every node sharing the key (--key) honours it. It is good
 * for 60 seconds, to open a stream of its player's games and nothing
 * else; a stream opened with it stays open as one opened with the token
 * would. Since it travels in a URL, it is short-lived and the access log
 * never writes queries.
 */
#include "api.h"

#include <microhttpd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICKET_TTL_MS 60000
#define TICKET_MAC    16

/* The MAC of "<id>.<expires>" under the ticket key derived from `key`. */
static void ticket_mac(const struct api_sign_key *key, const char *body, size_t len,
                       uint8_t mac[TICKET_MAC])
{
  static const char context[] = "cairn stream ticket, version 1";
  uint8_t mac_key[32];

  crypto_generichash(mac_key, sizeof(mac_key), (const uint8_t *)context, sizeof(context) - 1,
                     key->sk, sizeof(key->sk));
  crypto_generichash(mac, TICKET_MAC, (const uint8_t *)body, len, mac_key, sizeof(mac_key));
  sodium_memzero(mac_key, sizeof(mac_key));
}

enum cairn_status api_stream_ticket_issue(struct api_request *req, struct api_response *resp,
                                          struct cairn_error *err)
{
  char ticket[DB_ID_MAX + 24 + 2 * TICKET_MAC + 3];
  uint8_t mac[TICKET_MAC];
  int64_t expires = api_now_ms(req->server) + TICKET_TTL_MS;
  enum cairn_status st = api_require_player(req, err);
  int n;

  if (st != CAIRN_OK)
    return st;
  n = snprintf(ticket, sizeof(ticket), "%s.%lld", req->player.id, (long long)expires);
  ticket_mac(&req->server->key, ticket, (size_t)n, mac);
  ticket[n++] = '.';
  sodium_bin2hex(ticket + n, sizeof(ticket) - (size_t)n, mac, sizeof(mac));
  resp->status = 201;
  resp->body = json_pack("{s:s, s:o}", "ticket", ticket, "expires_at", api_time_json(expires));
  return CAIRN_OK;
}

enum cairn_status api_stream_ticket_check(const struct api_request *req, struct db_player *out,
                                          struct cairn_error *err)
{
  const char *ticket =
      MHD_lookup_connection_value(req->connection, MHD_GET_ARGUMENT_KIND, "ticket");
  const char *dot1 = ticket ? strchr(ticket, '.') : NULL;
  const char *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
  uint8_t mac[TICKET_MAC], given[TICKET_MAC];
  size_t got = 0;
  char *end = NULL;
  long long expires;

  memset(out, 0, sizeof(*out));
  if (!dot2 || dot1 == ticket || (size_t)(dot1 - ticket) > DB_ID_MAX)
    goto refused;
  expires = strtoll(dot1 + 1, &end, 10);
  if (end != dot2 ||
      sodium_hex2bin(given, sizeof(given), dot2 + 1, strlen(dot2 + 1), NULL, &got, NULL) != 0 ||
      got != sizeof(given))
    goto refused;
  ticket_mac(&req->server->key, ticket, (size_t)(dot2 - ticket), mac);
  if (crypto_verify_16(mac, given) != 0 || expires <= api_now_ms(req->server))
    goto refused;
  snprintf(out->id, sizeof(out->id), "%.*s", (int)(dot1 - ticket), ticket);
  return CAIRN_OK;
refused:
  return cairn_fail(err, CAIRN_EAUTH, CAIRN_CODE_BAD_TOKEN, NULL,
                    "the stream ticket is not one, or expired: ask for a new one "
                    "(POST /v1/players/me/stream-ticket)");
}
