/*
 * limits.c - abuse limits: token buckets per client address and per bearer
 * token. Each bucket refills at `rate` requests per second up to a burst of
 * twice that; a request finding its bucket empty is answered 429 with
 * Retry-After. Buckets live in a fixed table (direct-mapped by a hash of
 * the key; a collision starts a fresh bucket), so memory stays bounded
 * whatever the number of clients.
 */
#include "api.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 8192

struct bucket {
  uint8_t key[16]; /* hash of "a:" + address or "t:" + token */
  double tokens;
  int64_t at_ms;
};

struct api_limits {
  double per_address, per_token; /* requests per second; 0 = no limit */
  pthread_mutex_t lock;
  struct bucket buckets[BUCKETS];
};

struct api_limits *api_limits_new(double per_address, double per_token)
{
  struct api_limits *l;

  if (per_address <= 0 && per_token <= 0)
    return NULL; /* no limits: nothing to keep */
  l = calloc(1, sizeof(*l));
  if (!l)
    return NULL;
  l->per_address = per_address;
  l->per_token = per_token;
  pthread_mutex_init(&l->lock, NULL);
  return l;
}

void api_limits_free(struct api_limits *l)
{
  if (!l)
    return;
  pthread_mutex_destroy(&l->lock);
  free(l);
}

/* Take one token for `key`; 0 if allowed, else seconds until allowed. */
static int take(struct api_limits *l, const char *key, double rate, int64_t now)
{
  uint8_t h[16];
  struct bucket *b;
  int wait = 0;

  crypto_generichash(h, sizeof(h), (const uint8_t *)key, strlen(key), NULL, 0);
  pthread_mutex_lock(&l->lock);
  b = &l->buckets[(h[0] | h[1] << 8) % BUCKETS];
  if (memcmp(b->key, h, sizeof(h)) != 0) {
    memcpy(b->key, h, sizeof(h));
    b->tokens = 2 * rate;
    b->at_ms = now;
  }
  b->tokens += rate * (double)(now - b->at_ms) / 1000.0;
  if (b->tokens > 2 * rate)
    b->tokens = 2 * rate;
  b->at_ms = now;
  if (b->tokens >= 1)
    b->tokens -= 1;
  else
    wait = 1 + (int)((1 - b->tokens) / rate);
  pthread_mutex_unlock(&l->lock);
  return wait;
}

enum cairn_status api_limits_check(struct api_request *req, int *retry_after,
                                   struct cairn_error *err)
{
  struct api_limits *l = req->server->limits;
  const union MHD_ConnectionInfo *info;
  const char *auth;
  char key[128], addr[INET6_ADDRSTRLEN] = "?";
  int64_t now;

  *retry_after = 0;
  if (!l)
    return CAIRN_OK;
  now = req->server->now_ms();
  info = MHD_get_connection_info(req->connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info && info->client_addr->sa_family == AF_INET)
    inet_ntop(AF_INET, &((const struct sockaddr_in *)info->client_addr)->sin_addr, addr,
              sizeof(addr));
  else if (info && info->client_addr->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)info->client_addr)->sin6_addr, addr,
              sizeof(addr));
  if (l->per_address > 0) {
    snprintf(key, sizeof(key), "a:%s", addr);
    *retry_after = take(l, key, l->per_address, now);
  }
  auth =
      MHD_lookup_connection_value(req->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
  if (!*retry_after && auth && l->per_token > 0) {
    snprintf(key, sizeof(key), "t:%.100s", auth);
    *retry_after = take(l, key, l->per_token, now);
  }
  if (*retry_after)
    return cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_RATE_LIMITED, NULL,
                      "too many requests; retry in %d s", *retry_after);
  return CAIRN_OK;
}
