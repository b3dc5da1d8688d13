/*
 * limits.c - rate limits: one token bucket per caller. A caller is the
 * player once its token has been checked (so every spelling of the
 * Authorization header that authenticates as one player shares one
 * bucket), and the client address otherwise (anonymous calls and calls
 * whose token failed). Each bucket refills at `rate` requests per second
 * up to a burst of twice that; a request finding its bucket empty is
 * answered 429.
 *
 * The table is bounded: LIMIT_SETS sets of LIMIT_WAYS buckets (65,536 in
 * all, about 2 MiB), a caller's set chosen by a hash keyed with a secret
 * drawn at start, so nobody can aim callers at one set. A newcomer takes a
 * free way or a way whose bucket has refilled to the burst: a full bucket
 * is exactly what a fresh one would be, so dropping it forgets nothing.
 * Nobody's partly spent bucket is ever reset. When every way of the set is
 * partly spent (LIMIT_WAYS callers of one set all active within the last
 * two seconds) the newcomer is refused with 429 until one refills, rather
 * than handed a fresh bucket that would let it evade its limit.
 */
#include "api.h"

#include <arpa/inet.h>
#include <math.h>
#include <microhttpd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT_SETS 4096
#define LIMIT_WAYS 16

struct bucket {
  uint8_t key[16]; /* keyed hash of "a:" + address or "p:" + player id; zero = free */
  double rate;     /* its caller's rate: an address's and a player's differ */
  double tokens;
  int64_t at_ms; /* when `tokens` was last brought up to date */
};

struct limit_set {
  pthread_mutex_t lock;
  struct bucket ways[LIMIT_WAYS];
};

struct api_limits {
  double per_address, per_player; /* requests per second; 0 = no limit */
  uint8_t secret[crypto_generichash_KEYBYTES];
  struct limit_set sets[LIMIT_SETS];
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
  l->per_player = per_token;
  randombytes_buf(l->secret, sizeof(l->secret));
  for (int i = 0; i < LIMIT_SETS; i++)
    pthread_mutex_init(&l->sets[i].lock, NULL);
  return l;
}

void api_limits_free(struct api_limits *l)
{
  if (!l)
    return;
  for (int i = 0; i < LIMIT_SETS; i++)
    pthread_mutex_destroy(&l->sets[i].lock);
  free(l);
}

/* Tokens the bucket holds at `now`, at most its burst. Judged at the
 * bucket's own rate: judged at a newcomer's, an address's half-spent
 * bucket looked full to a player (whose burst is smaller) and was taken. */
static double level(const struct bucket *b, int64_t now)
{
  double t = b->tokens + b->rate * (double)(now - b->at_ms) / 1000.0;

  return t > 2 * b->rate ? 2 * b->rate : t;
}

static bool is_free(const struct bucket *b)
{
  static const uint8_t zero[16];

  return memcmp(b->key, zero, sizeof(zero)) == 0;
}

/* The caller's bucket in `set`, or a free or full way made its own, or
 * NULL when every way holds someone's partly spent bucket. */
static struct bucket *find(struct limit_set *set, const uint8_t key[16], double rate, int64_t now)
{
  struct bucket *spare = NULL;

  for (int i = 0; i < LIMIT_WAYS; i++) {
    struct bucket *b = &set->ways[i];

    if (memcmp(b->key, key, 16) == 0)
      return b;
    if (!spare && (is_free(b) || level(b, now) >= 2 * b->rate))
      spare = b;
  }
  if (spare) {
    memcpy(spare->key, key, 16);
    spare->rate = rate;
    spare->tokens = 2 * rate;
    spare->at_ms = now;
  }
  return spare;
}

/* Seconds until `b` holds `want` tokens, at least 1. */
static int seconds_until(const struct bucket *b, double want)
{
  double s = ceil((want - b->tokens) / b->rate);

  return s < 1 ? 1 : (int)s;
}

/* Take one token for `key` at `rate`; fills `out` when refused. */
static bool take(struct api_limits *l, const char *key, double rate, int64_t now,
                 struct api_rate_refusal *out)
{
  uint8_t h[16];
  struct limit_set *set;
  struct bucket *b;
  bool ok;

  crypto_generichash(h, sizeof(h), (const uint8_t *)key, strlen(key), l->secret, sizeof(l->secret));
  h[0] |= 1; /* never the all-zero key of a free way */
  set = &l->sets[(h[1] | h[2] << 8) % LIMIT_SETS];
  pthread_mutex_lock(&set->lock);
  b = find(set, h, rate, now);
  if (b) {
    b->tokens = level(b, now);
    b->at_ms = now;
  }
  ok = b && b->tokens >= 1;
  if (ok)
    b->tokens -= 1;
  out->limit = (int)ceil(2 * rate);
  out->retry_after = b ? seconds_until(b, 1) : 2;
  out->reset = b ? seconds_until(b, 2 * rate) : 2;
  pthread_mutex_unlock(&set->lock);
  return ok;
}

static void client_address(struct MHD_Connection *conn, char addr[INET6_ADDRSTRLEN])
{
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

  strcpy(addr, "?");
  if (info && info->client_addr->sa_family == AF_INET)
    inet_ntop(AF_INET, &((const struct sockaddr_in *)info->client_addr)->sin_addr, addr,
              INET6_ADDRSTRLEN);
  else if (info && info->client_addr->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)info->client_addr)->sin6_addr, addr,
              INET6_ADDRSTRLEN);
}

enum cairn_status api_limits_check(struct api_request *req, struct api_rate_refusal *refusal,
                                   struct cairn_error *err)
{
  struct api_limits *l = req->server->limits;
  char key[16 + DB_ID_MAX + INET6_ADDRSTRLEN], addr[INET6_ADDRSTRLEN];
  double rate;

  memset(refusal, 0, sizeof(*refusal));
  if (!l)
    return CAIRN_OK;
  if (req->has_player) {
    snprintf(key, sizeof(key), "p:%s", req->player.id);
    rate = l->per_player;
  } else {
    client_address(req->connection, addr);
    snprintf(key, sizeof(key), "a:%s", addr);
    rate = l->per_address;
  }
  if (rate <= 0 || take(l, key, rate, api_now_ms(req->server), refusal)) {
    memset(refusal, 0, sizeof(*refusal));
    return CAIRN_OK;
  }
  return cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_RATE_LIMITED, NULL,
                    "too many requests; retry in %d s", refusal->retry_after);
}

bool api_limits_take(struct api_limits *l, const char *key, double rate, int64_t now_ms,
                     struct api_rate_refusal *refusal)
{
  memset(refusal, 0, sizeof(*refusal));
  if (!l || rate <= 0)
    return true;
  if (take(l, key, rate, now_ms, refusal)) {
    memset(refusal, 0, sizeof(*refusal));
    return true;
  }
  return false;
}
