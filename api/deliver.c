/*
 * deliver.c - sending webhooks, on a worker thread of its own driving
 * libcurl's multi interface, so no request thread ever waits on a remote
 * server.
 *
 * Every delivery is signed: X-Cairn-Timestamp (Unix seconds) and
 * X-Cairn-Signature = "sha256=" + hex HMAC-SHA256(secret, timestamp + "." +
 * body), so a receiver can check both origin and freshness. A failure (no
 * answer, or a status outside 2xx) is retried with exponential backoff, up
 * to DELIVER_ATTEMPTS tries; every attempt is recorded in the delivery log.
 *
 * What is owed survives a restart: a change's deliveries are written to
 * the outbox (db_outbox_*) in the change's own transaction, moved on after
 * each failed attempt and deleted when delivered or given up, and a
 * starting server queues again what the outbox holds, due when it was
 * due, under the same X-Cairn-Delivery id.
 *
 * Several nodes on one store (issue 23): each outbox row has a lease
 * (db.h, outbox_claim). This worker has a node id drawn at start; the rows
 * a change owes are written claimed by it (api_deliver_claim_owed), so it
 * sends them at once as before; every LEASE_RENEW_PART of the lease it
 * renews what it holds, every CLAIM_EVERY_MS it claims the rows whose lease
 * ran out (a dead node's work, or released) and queues them, and when it
 * stops it releases what it still holds. So while its holder lives, one
 * node at a time attempts a delivery. "Exactly once" is what a receiver
 * gets by de-duplicating on X-Cairn-Delivery: the sending is at least once,
 * since a node that dies after the receiver's 2xx and before the row is
 * deleted leaves it to be sent again, under the same id (and a node that
 * stalls past its lease may overlap the next holder once). Leases are
 * timed by the real clock, not --test-clock's, which only games follow.
 *
 * SSRF guard: only http and https; the host is resolved once per attempt
 * and every address it resolves to must be public (no loopback, private,
 * link-local, multicast or unspecified address) unless the server runs with
 * --allow-private-webhooks; curl then connects to that vetted address
 * (CURLOPT_RESOLVE), never follows a redirect, and gives up quickly. An
 * attempt the guard refused is not retried (vet).
 */
#include "deliver.h"
#include "../log/log.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netdb.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#define DELIVER_ATTEMPTS   5
#define DELIVER_TIMEOUT_MS 5000L
#define DELIVER_CONNECT_MS 3000L
#define DELIVER_POLL_MS    50
/* Bounded outbound work: at most this many requests in flight at once, and
 * at most DELIVER_PER_HOST to one receiving host, whatever one event
 * queued; the rest wait their turn in the queue. */
#define DELIVER_MAX_IN_FLIGHT 16
#define DELIVER_PER_HOST      2

/* Leases: a node renews what it holds three times per lease, so a lease
 * runs out only when its holder stopped for two thirds of one; claims of
 * others' expired work are made every CLAIM_EVERY_MS (or every half lease,
 * if shorter), at most CLAIM_BATCH rows a statement. */
#define LEASE_RENEW_PART 3
#define CLAIM_EVERY_MS   2000
#define CLAIM_BATCH      64

#define DELIVER_NOT_PUBLIC "the receiver's address is not public or does not resolve"
/* A test delivery's event (X-Cairn-Event), and what its asker is told when
 * the attempt has not ended by the time the answer is due: curl gives up
 * after DELIVER_TIMEOUT_MS, so only a queue held up by the limits on
 * requests in flight takes longer. */
#define DELIVER_TEST_EVENT     "test"
#define DELIVER_TRIAL_SLACK_MS 3000
#define DELIVER_NO_OUTCOME                                                                         \
  "no outcome: the attempt had not ended when this answer was due (held up behind other "          \
  "deliveries, or the server is stopping)"

struct job {
  char
      delivery_id[17]; /* random hex: X-Cairn-Delivery, the same at every attempt; the outbox key */
  bool owed;           /* written to the outbox (by the worker, off the request's path) */
  bool guard;          /* the SSRF guard refused the address: retrying cannot help */
  struct db_webhook hook;
  char event[16];
  char game_id[DB_ID_MAX + 1];
  char *body; /* owned */
  int attempt;
  int64_t due_ms;
  char host[256]; /* the URL's host, for the per-host limit; "" until known */
  CURL *easy;     /* while in flight */
  struct curl_slist *headers, *resolve;
  struct trial *trial;               /* a test delivery's waiter (shared: trial_let_go), or NULL */
  char error[CURL_ERROR_SIZE];       /* what the hook's owner is shown */
  char curl_detail[CURL_ERROR_SIZE]; /* curl's own words: the operator's log only */
  struct job *next;
};

/* Test deliveries (api_deliver_try): at most one per webhook every
 * DELIVER_TEST_EVERY_MS, so a test cannot turn the server into a request
 * cannon aimed at a third party. The last test's time is kept in a slot
 * chosen by the hook's id; hooks that share a slot share the limit (it
 * only gets stricter), so a fixed table suffices. */
#define DELIVER_TEST_EVERY_MS 10000
#define DELIVER_TEST_SLOTS    1024

struct api_deliver {
  struct db *db;
  int64_t (*now_ms)(void);
  bool allow_private;
  int64_t backoff_ms;
  pthread_mutex_t lock;
  struct job *queue; /* waiting to be due */
  bool stopping;
  pthread_t worker;
  CURLM *multi;
  /* Jobs in flight (the worker's alone: no lock). */
  struct job *flight[DELIVER_MAX_IN_FLIGHT];
  int in_flight;
  /* For GET /metrics (api_deliver_counts): jobs owed and not settled
   * (queued, in flight, or waiting for a retry), and attempts by outcome. */
  atomic_long owed_now;
  atomic_long delivered, failed;
  /* Leases (the worker's alone after start, but node and lease_ms, which
   * api_deliver_claim_owed reads, never change). */
  char node[DB_NODE_ID_MAX + 1];         /* this node's id: random hex, drawn at start */
  int64_t lease_ms;                      /* how long a claim holds without renewal */
  int64_t next_claim_ms;                 /* real time of the next claim of expired leases */
  int64_t next_renew_ms;                 /* real time of the next renewal */
  int64_t tested_ms[DELIVER_TEST_SLOTS]; /* under lock: the last test of the hooks of each slot */
};

/* A test delivery (api_deliver_try): its outcome, and the asking thread's
 * wait for it. Shared by that thread and the job, each holding a
 * reference; whichever lets go last frees it, so a wait that ran out
 * leaves nothing dangling. */
struct trial {
  pthread_mutex_t lock;
  pthread_cond_t settled;
  int refs;
  bool done;
  struct api_deliver_outcome out;
};

/* The leases' clock: real time, ms since the epoch. Leases are shared by
 * nodes, which each may run a --test-clock of their own. */
static int64_t lease_clock_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the address guard ---- */

static bool private_v4(const uint8_t a[4])
{
  return a[0] == 0 || a[0] == 10 || a[0] == 127 || (a[0] == 100 && (a[1] & 0xc0) == 64) ||
         (a[0] == 169 && a[1] == 254) || (a[0] == 172 && (a[1] & 0xf0) == 16) ||
         (a[0] == 192 && a[1] == 168) || a[0] >= 224;
}

static bool private_v6(const uint8_t b[16])
{
  static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  static const uint8_t zero[15] = {0};

  if (memcmp(b, mapped, 12) == 0)
    return private_v4(b + 12);
  return (memcmp(b, zero, 15) == 0 && b[15] <= 1) || /* :: and ::1 */
         (memcmp(b, zero, 12) == 0) ||               /* ::a.b.c.d, IPv4-compatible (deprecated) */
         (b[0] & 0xfe) == 0xfc ||                    /* fc00::/7 unique local */
         (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) ||  /* fe80::/10 link-local */
         (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) ||  /* fec0::/10 site-local (deprecated) */
         (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b) || /* 64:ff9b::/96 NAT64 */
         b[0] == 0xff;                                                     /* multicast */
}

/* The address is copied out of the sockaddr by memcpy, never read through a
 * cast pointer of another struct type: the cast broke under strict aliasing
 * at -O2 (every IPv6 target was refused in the release build). */
bool api_address_is_private(const struct sockaddr *sa)
{
  sa_family_t family;

  memcpy(&family, (const char *)sa + offsetof(struct sockaddr, sa_family), sizeof(family));
  if (family == AF_INET) {
    struct sockaddr_in in;

    memcpy(&in, sa, sizeof(in));
    return private_v4((const uint8_t *)&in.sin_addr.s_addr);
  }
  if (family == AF_INET6) {
    struct sockaddr_in6 in6;

    memcpy(&in6, sa, sizeof(in6));
    return private_v6(in6.sin6_addr.s6_addr);
  }
  return true;
}

/* Parse `url`; only http(s) with a host. Fills scheme-default port. */
static bool split_url(const char *url, char *host, size_t host_size, long *port, char *why,
                      size_t why_size)
{
  CURLU *u = curl_url();
  char *scheme = NULL, *h = NULL, *p = NULL;
  bool ok = false;

  if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
    snprintf(why, why_size, "not a URL");
    goto done;
  }
  if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
      (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)) {
    snprintf(why, why_size, "only http and https URLs are allowed");
    goto done;
  }
  if (curl_url_get(u, CURLUPART_HOST, &h, 0) != CURLUE_OK || strlen(h) >= host_size) {
    snprintf(why, why_size, "the URL has no usable host");
    goto done;
  }
  /* curl keeps IPv6 literals in brackets; getaddrinfo wants them bare. */
  if (h[0] == '[') {
    snprintf(host, host_size, "%.*s", (int)strlen(h) - 2, h + 1);
  } else {
    snprintf(host, host_size, "%s", h);
  }
  *port = strcmp(scheme, "https") == 0 ? 443 : 80;
  if (curl_url_get(u, CURLUPART_PORT, &p, 0) == CURLUE_OK)
    *port = strtol(p, NULL, 10);
  ok = true;
done:
  curl_free(scheme);
  curl_free(h);
  curl_free(p);
  curl_url_cleanup(u);
  return ok;
}

/* Whether `host` ends in the label `suffix` ("localhost" or
 * "x.localhost"), ignoring case and a final dot. */
static bool name_is_under(const char *host, const char *suffix)
{
  size_t n = strlen(host), k = strlen(suffix);

  if (n && host[n - 1] == '.')
    n--;
  if (n < k || strncasecmp(host + n - k, suffix, k) != 0)
    return false;
  return n == k || host[n - k - 1] == '.';
}

static bool never_public_name(const char *host)
{
  return name_is_under(host, "localhost") || name_is_under(host, "local") ||
         name_is_under(host, "internal") || name_is_under(host, "home.arpa");
}

bool api_webhook_url_ok(const char *url, bool allow_private, char *why, size_t why_size)
{
  char host[256];
  long port;
  struct in6_addr a6;
  struct in_addr a4;

  if (!split_url(url, host, sizeof(host), &port, why, why_size))
    return false;
  /* Hostnames are vetted when resolved, at every delivery; a literal
   * address can be judged now, and so can the names that only ever name
   * this machine or its network (RFC 6761's localhost, mDNS's .local,
   * ICANN's private .internal), which would fail every delivery. */
  if (!allow_private && never_public_name(host)) {
    snprintf(why, why_size, "the host %s is never a public address", host);
    return false;
  }
  if (!allow_private && inet_pton(AF_INET, host, &a4) == 1 &&
      private_v4((const uint8_t *)&a4.s_addr)) {
    snprintf(why, why_size, "the address %s is not public", host);
    return false;
  }
  if (!allow_private && inet_pton(AF_INET6, host, &a6) == 1 && private_v6(a6.s6_addr)) {
    snprintf(why, why_size, "the address %s is not public", host);
    return false;
  }
  return true;
}

/* Resolve the job's host once and pin a vetted address for curl. */
static bool vet(struct api_deliver *d, struct job *j)
{
  char host[256], addr[INET6_ADDRSTRLEN], line[400];
  struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL, *ai;
  long port;
  bool ok = false;
  int rc;

  j->guard = false;
  if (!split_url(j->hook.url, host, sizeof(host), &port, j->error, sizeof(j->error)))
    return false;
  /* One answer for "does not resolve" and "resolves to a private address",
   * and one fate: neither is retried (a retry would not pass either, and
   * retrying only one would let a hook owner tell them apart, mapping our
   * internal names by the count of attempts). Only the resolver's own
   * temporary failure (EAI_AGAIN), which says nothing of the name, is
   * retried like any other failure. */
  rc = getaddrinfo(host, NULL, &hints, &res);
  if (rc != 0 || !res) {
    snprintf(j->error, sizeof(j->error), DELIVER_NOT_PUBLIC);
    j->guard = rc != EAI_AGAIN;
    return false;
  }
  for (ai = res; ai; ai = ai->ai_next)
    if (!d->allow_private && api_address_is_private(ai->ai_addr)) {
      snprintf(j->error, sizeof(j->error), DELIVER_NOT_PUBLIC);
      j->guard = true;
      goto done;
    }
  if (res->ai_family == AF_INET)
    inet_ntop(AF_INET, &((struct sockaddr_in *)res->ai_addr)->sin_addr, addr, sizeof(addr));
  else
    inet_ntop(AF_INET6, &((struct sockaddr_in6 *)res->ai_addr)->sin6_addr, addr, sizeof(addr));
  snprintf(line, sizeof(line), res->ai_family == AF_INET6 ? "%s:%ld:[%s]" : "%s:%ld:%s", host, port,
           addr);
  j->resolve = curl_slist_append(NULL, line);
  ok = j->resolve != NULL;
done:
  freeaddrinfo(res);
  return ok;
}

/* ---- signing and sending ---- */

static void sign(const struct job *j, int64_t now_ms, char *ts, size_t ts_size, char *sig,
                 size_t sig_size)
{
  crypto_auth_hmacsha256_state h;
  uint8_t mac[crypto_auth_hmacsha256_BYTES];
  char hex[2 * sizeof(mac) + 1];

  snprintf(ts, ts_size, "%lld", (long long)(now_ms / 1000));
  crypto_auth_hmacsha256_init(&h, j->hook.secret, sizeof(j->hook.secret));
  crypto_auth_hmacsha256_update(&h, (const uint8_t *)ts, strlen(ts));
  crypto_auth_hmacsha256_update(&h, (const uint8_t *)".", 1);
  crypto_auth_hmacsha256_update(&h, (const uint8_t *)j->body, strlen(j->body));
  crypto_auth_hmacsha256_final(&h, mac);
  sodium_bin2hex(hex, sizeof(hex), mac, sizeof(mac));
  snprintf(sig, sig_size, "X-Cairn-Signature: sha256=%s", hex);
}

/* A receiver's answer body is not read: only its status counts. (Without a
 * callback curl writes it to stdout, the server's own, where a delivery
 * made at start, before the listen line, broke that line.) */
static size_t discard_answer(char *data, size_t size, size_t n, void *arg)
{
  (void)data;
  (void)arg;
  return size * n;
}

static bool start(struct api_deliver *d, struct job *j)
{
  char ts[32], sig[128], line[160];

  j->error[0] = '\0';
  j->curl_detail[0] = '\0';
  if (!vet(d, j))
    return false;
  j->easy = curl_easy_init();
  if (!j->easy) {
    snprintf(j->error, sizeof(j->error), "out of memory");
    return false;
  }
  sign(j, d->now_ms(), ts, sizeof(ts), sig, sizeof(sig));
  j->headers = curl_slist_append(j->headers, "Content-Type: application/json");
  snprintf(line, sizeof(line), "X-Cairn-Timestamp: %s", ts);
  j->headers = curl_slist_append(j->headers, line);
  j->headers = curl_slist_append(j->headers, sig);
  snprintf(line, sizeof(line), "X-Cairn-Event: %s", j->event);
  j->headers = curl_slist_append(j->headers, line);
  /* Receivers de-duplicate on this: retries of one delivery share it. */
  snprintf(line, sizeof(line), "X-Cairn-Delivery: %s", j->delivery_id);
  j->headers = curl_slist_append(j->headers, line);
  curl_easy_setopt(j->easy, CURLOPT_URL, j->hook.url);
  curl_easy_setopt(j->easy, CURLOPT_RESOLVE, j->resolve);
  curl_easy_setopt(j->easy, CURLOPT_HTTPHEADER, j->headers);
  curl_easy_setopt(j->easy, CURLOPT_POSTFIELDS, j->body);
  curl_easy_setopt(j->easy, CURLOPT_WRITEFUNCTION, discard_answer);
  curl_easy_setopt(j->easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(j->easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(j->easy, CURLOPT_CONNECTTIMEOUT_MS, DELIVER_CONNECT_MS);
  curl_easy_setopt(j->easy, CURLOPT_TIMEOUT_MS, DELIVER_TIMEOUT_MS);
  curl_easy_setopt(j->easy, CURLOPT_NOSIGNAL, 1L);
  /* A proxy from the environment (http_proxy, ALL_PROXY) would receive the
   * request instead of the vetted address: the guard above would check the
   * hook's address and curl would connect elsewhere. "" turns proxies off. */
  curl_easy_setopt(j->easy, CURLOPT_PROXY, "");
  curl_easy_setopt(j->easy, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(j->easy, CURLOPT_ERRORBUFFER, j->curl_detail);
  curl_easy_setopt(j->easy, CURLOPT_PRIVATE, j);
  curl_easy_setopt(j->easy, CURLOPT_USERAGENT, "cairn-webhooks/1");
  curl_multi_add_handle(d->multi, j->easy);
  return true;
}

/* What the hook's owner reads of a failed attempt: the kind of failure in
 * our words. curl's own text (addresses, resolver and TLS library details)
 * goes to the operator's log only. */
static void describe_failure(struct job *j, CURLcode code)
{
  const char *kind =
      code == CURLE_OPERATION_TIMEDOUT ? "the receiver did not answer in time"
      : code == CURLE_COULDNT_CONNECT  ? "could not connect to the receiver"
      : code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION
          ? "the TLS handshake with the receiver failed"
      : code == CURLE_GOT_NOTHING || code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR
          ? "the connection to the receiver failed"
          : "the delivery failed";

  if (j->curl_detail[0])
    log_line(LOG_WARN, "webhooks", "delivery %s to hook %s: %s", j->delivery_id, j->hook.id,
             j->curl_detail);
  snprintf(j->error, sizeof(j->error), "%s", kind);
}

static void trial_let_go(struct trial *t);

static void free_job(struct job *j)
{
  if (j->trial)
    trial_let_go(j->trial); /* a stop dropped it unsent: the outcome says so */
  curl_slist_free_all(j->headers);
  curl_slist_free_all(j->resolve);
  if (j->easy)
    curl_easy_cleanup(j->easy);
  free(j->body);
  free(j);
}

static bool owe(struct api_deliver *d, const struct job *j);

/* Queue `j` (the queue owns it from here). Once api_deliver_free has
 * drained the queue, a job the worker puts back (not startable yet, or
 * due for a retry) would outlive the worker: it stays owed in the outbox
 * for the next start instead, and is freed now. */
static void queue_job(struct api_deliver *d, struct job *j)
{
  bool stopping;

  pthread_mutex_lock(&d->lock);
  stopping = d->stopping;
  if (!stopping) {
    j->next = d->queue;
    d->queue = j;
  }
  pthread_mutex_unlock(&d->lock);
  if (stopping) {
    if (!j->owed)
      owe(d, j);
    free_job(j);
  }
}

/* Write j to the outbox as owed (its next attempt and when it is due).
 * False when its webhook was deleted meanwhile: nothing is owed any more.
 * A storage failure is only logged: the delivery is still tried from
 * memory, it just would not outlive a restart. */
static bool owe(struct api_deliver *d, const struct job *j)
{
  struct db_outbox owed = {.body = j->body, .attempt = j->attempt, .due_ms = j->due_ms};
  struct cairn_error err = {0};
  enum cairn_status st;

  snprintf(owed.delivery_id, sizeof(owed.delivery_id), "%s", j->delivery_id);
  snprintf(owed.webhook_id, sizeof(owed.webhook_id), "%s", j->hook.id);
  snprintf(owed.event, sizeof(owed.event), "%s", j->event);
  snprintf(owed.game_id, sizeof(owed.game_id), "%s", j->game_id);
  api_deliver_claim_owed(d, &owed); /* an insert is ours; an update keeps the lease */
  st = db_outbox_put(d->db, &owed, &err);
  if (st != CAIRN_OK && st != CAIRN_ENOTFOUND)
    log_line(LOG_ERROR, "webhooks", "cannot store an owed delivery: %s", err.detail);
  return st != CAIRN_ENOTFOUND;
}

/* The delivery is done with (delivered, or given up): nothing is owed. */
static void settle(struct api_deliver *d, const struct job *j)
{
  struct cairn_error err = {0};

  if (db_outbox_remove(d->db, j->delivery_id, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "webhooks", "cannot settle a delivery: %s", err.detail);
}

/* Requeue the attempt's job with backoff or let it go, then record the
 * attempt. The outbox moves first, so once an attempt is in the log a
 * restart resumes from the next one. */
/* What a failed attempt's owner reads, in our words. */
static const char *failure_text(const struct job *j, long status)
{
  return j->error[0]                     ? j->error
         : status >= 300 && status < 400 ? "redirects are not followed"
                                         : "the receiver did not answer 2xx";
}

/* A test delivery's one attempt is over: its outcome goes to the waiting
 * request, not to the outbox or the delivery log (it is owed nothing, and
 * belongs to no game), and it is never retried. */
static void finish_trial(struct job *j, long status)
{
  struct trial *t = j->trial;

  pthread_mutex_lock(&t->lock);
  t->out.done = true;
  t->out.delivered = status >= 200 && status < 300;
  t->out.http_status = (int)status;
  snprintf(t->out.error, sizeof(t->out.error), "%.150s",
           t->out.delivered ? "" : failure_text(j, status));
  pthread_mutex_unlock(&t->lock);
  free_job(j); /* lets the trial go: done */
}

static void finish(struct api_deliver *d, struct job *j, long status, bool retryable)
{
  struct db_delivery rec = {
      .attempt = j->attempt, .at_ms = d->now_ms(), .http_status = (int)status};
  struct cairn_error err = {0};
  bool delivered = status >= 200 && status < 300;
  bool again = !delivered && retryable && j->attempt < DELIVER_ATTEMPTS;

  if (j->trial) {
    finish_trial(j, status);
    return;
  }
  atomic_fetch_add(delivered ? &d->delivered : &d->failed, 1);

  snprintf(rec.webhook_id, sizeof(rec.webhook_id), "%s", j->hook.id);
  snprintf(rec.event, sizeof(rec.event), "%s", j->event);
  snprintf(rec.game_id, sizeof(rec.game_id), "%s", j->game_id);
  rec.delivered = delivered;
  if (!delivered)
    snprintf(rec.error, sizeof(rec.error), "%.150s", failure_text(j, status));
  if (again) {
    j->due_ms = d->now_ms() + d->backoff_ms * (1LL << (j->attempt - 1));
    j->attempt++;
    again = owe(d, j);
  } else {
    settle(d, j);
  }
  if (db_delivery_record(d->db, &rec, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "webhooks", "cannot record a delivery: %s", err.detail);
  if (!again) {
    atomic_fetch_sub(&d->owed_now, 1);
    free_job(j);
    return;
  }
  curl_slist_free_all(j->headers);
  curl_slist_free_all(j->resolve);
  if (j->easy)
    curl_easy_cleanup(j->easy);
  j->headers = j->resolve = NULL;
  j->easy = NULL;
  queue_job(d, j);
}

/* Take the due jobs off the queue. */
static struct job *take_due(struct api_deliver *d, bool *stopping)
{
  struct job *due = NULL, **pj;
  int64_t now = d->now_ms();

  pthread_mutex_lock(&d->lock);
  *stopping = d->stopping;
  for (pj = &d->queue; *pj;) {
    struct job *j = *pj;

    if (j->due_ms <= now) {
      *pj = j->next;
      j->next = due;
      due = j;
    } else {
      pj = &j->next;
    }
  }
  pthread_mutex_unlock(&d->lock);
  return due;
}

/* May `j` start now without passing the limits on requests in flight? */
static bool may_start(struct api_deliver *d, struct job *j)
{
  char why[64];
  long port;
  int i, same_host = 0;

  if (!j->host[0] && !split_url(j->hook.url, j->host, sizeof(j->host), &port, why, sizeof(why)))
    return true; /* start() refuses it at once: it costs nothing */
  if (d->in_flight >= DELIVER_MAX_IN_FLIGHT)
    return false;
  for (i = 0; i < d->in_flight; i++)
    same_host += strcmp(d->flight[i]->host, j->host) == 0;
  return same_host < DELIVER_PER_HOST;
}

static void flight_add(struct api_deliver *d, struct job *j)
{
  d->flight[d->in_flight++] = j;
}

static void flight_remove(struct api_deliver *d, const struct job *j)
{
  int i;

  for (i = 0; i < d->in_flight; i++)
    if (d->flight[i] == j) {
      d->flight[i] = d->flight[--d->in_flight];
      return;
    }
}

static void keep_leases(struct api_deliver *d);

static void *worker_main(void *arg)
{
  struct api_deliver *d = arg;
  bool stopping = false;
  int running = 0;

  while (!stopping || running) {
    struct job *due, *j;

    if (!stopping)
      keep_leases(d);
    due = take_due(d, &stopping);
    CURLMsg *msg;
    int left;

    while ((j = due)) {
      due = j->next;
      /* Owed from before its first attempt; a webhook deleted since owes
       * nothing. */
      if (!j->owed && !owe(d, j)) {
        atomic_fetch_sub(&d->owed_now, 1);
        free_job(j);
        continue;
      }
      j->owed = true;
      if (!may_start(d, j)) {
        queue_job(d, j); /* still due: taken again on the next turn */
        continue;
      }
      /* An address the guard refused will not pass later: no retry. A name
       * that did not resolve may, like any other failure. */
      if (start(d, j))
        flight_add(d, j);
      else
        finish(d, j, 0, !j->guard);
    }
    curl_multi_perform(d->multi, &running);
    while ((msg = curl_multi_info_read(d->multi, &left))) {
      long status = 0;

      if (msg->msg != CURLMSG_DONE)
        continue;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&j);
      curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &status);
      curl_multi_remove_handle(d->multi, msg->easy_handle);
      flight_remove(d, j);
      if (msg->data.result != CURLE_OK)
        describe_failure(j, msg->data.result);
      finish(d, j, msg->data.result == CURLE_OK ? status : 0, true);
    }
    curl_multi_poll(d->multi, NULL, 0, DELIVER_POLL_MS, NULL);
  }
  return NULL;
}

/* A job for `hook`, not yet queued or owed; NULL when out of memory. */
static struct job *new_job(const struct db_webhook *hook, const char *event, const char *game_id,
                           const char *body)
{
  struct job *j = calloc(1, sizeof(*j));

  if (!j)
    return NULL;
  j->body = strdup(body);
  if (!j->body) {
    free(j);
    return NULL;
  }
  j->hook = *hook;
  snprintf(j->event, sizeof(j->event), "%s", event);
  snprintf(j->game_id, sizeof(j->game_id), "%s", game_id);
  j->attempt = 1;
  return j;
}

/* Does this worker hold `delivery_id` already (queued or in flight)? A
 * claim hands back a row of its own when its lease ran out here (the
 * worker stalled past it, or renewals failed): it is sent once, not twice.
 * Called on the worker's thread, or before it starts. */
static bool holds(struct api_deliver *d, const char *delivery_id)
{
  const struct job *j;
  bool found = false;
  int i;

  for (i = 0; i < d->in_flight && !found; i++)
    found = strcmp(d->flight[i]->delivery_id, delivery_id) == 0;
  pthread_mutex_lock(&d->lock);
  for (j = d->queue; j && !found; j = j->next)
    found = strcmp(j->delivery_id, delivery_id) == 0;
  pthread_mutex_unlock(&d->lock);
  return found;
}

/* outbox_claim's callback: queue a delivery this node now holds (a
 * previous run's, or a dead node's). */
static enum cairn_status requeue_owed(void *arg, const struct db_outbox *owed,
                                      const struct db_webhook *hook, struct cairn_error *err)
{
  struct api_deliver *d = arg;
  struct job *j;

  (void)err;
  if (holds(d, owed->delivery_id))
    return CAIRN_OK;
  j = new_job(hook, owed->event, owed->game_id, owed->body);
  if (!j)
    return CAIRN_OK; /* out of memory: it stays owed for the next start */
  snprintf(j->delivery_id, sizeof(j->delivery_id), "%s", owed->delivery_id);
  j->owed = true;
  j->attempt = owed->attempt;
  j->due_ms = owed->due_ms;
  atomic_fetch_add(&d->owed_now, 1);
  queue_job(d, j);
  return CAIRN_OK;
}

/* Claim every owed delivery whose lease ran out, in batches, and queue it. */
static void claim_expired(struct api_deliver *d)
{
  struct cairn_error err = {0};
  int64_t now = lease_clock_ms();
  int n = CLAIM_BATCH, rounds;

  /* Bounded, so a huge backlog cannot hold the worker from what it has in
   * hand; the rest is claimed at the next turn. */
  for (rounds = 0; n == CLAIM_BATCH && rounds < 16; rounds++)
    if (db_outbox_claim(d->db, d->node, now, now + d->lease_ms, CLAIM_BATCH, requeue_owed, d, &n,
                        &err) != CAIRN_OK) {
      log_line(LOG_ERROR, "webhooks", "cannot claim owed deliveries: %s", err.detail);
      return;
    }
}

/* How often this worker claims others' expired work (real ms). */
static int64_t claim_period(const struct api_deliver *d)
{
  return d->lease_ms / 2 < CLAIM_EVERY_MS ? d->lease_ms / 2 : CLAIM_EVERY_MS;
}

/* The worker's turn at its leases: renew what it holds, claim what nobody
 * holds, each on its own rhythm (real time). */
static void keep_leases(struct api_deliver *d)
{
  struct cairn_error err = {0};
  int64_t now = lease_clock_ms();

  if (now >= d->next_renew_ms) {
    if (db_outbox_renew(d->db, d->node, now + d->lease_ms, &err) != CAIRN_OK)
      log_line(LOG_ERROR, "webhooks", "cannot renew delivery leases: %s", err.detail);
    d->next_renew_ms = now + d->lease_ms / LEASE_RENEW_PART;
  }
  if (now >= d->next_claim_ms) {
    claim_expired(d);
    d->next_claim_ms = now + claim_period(d);
  }
}

void api_deliver_claim_owed(const struct api_deliver *d, struct db_outbox *owed)
{
  if (!d)
    return;
  snprintf(owed->claimed_by, sizeof(owed->claimed_by), "%s", d->node);
  owed->claimed_until = lease_clock_ms() + d->lease_ms;
}

struct api_deliver *api_deliver_new(struct db *db, int64_t (*now_ms)(void), bool allow_private,
                                    int64_t backoff_ms, int64_t lease_ms)
{
  struct api_deliver *d = calloc(1, sizeof(*d));

  if (!d)
    return NULL;
  d->db = db;
  d->now_ms = now_ms;
  d->allow_private = allow_private;
  d->backoff_ms = backoff_ms;
  d->lease_ms = lease_ms;
  api_deliver_new_id(d->node);
  pthread_mutex_init(&d->lock, NULL);
  log_line(LOG_INFO, "webhooks", "node %s: delivery leases of %lld ms", d->node,
           (long long)lease_ms);
  /* What nobody holds is ours now (a SQLite store releases every lease
   * when it opens: its one process is this one). */
  claim_expired(d);
  d->next_renew_ms = lease_clock_ms() + lease_ms / LEASE_RENEW_PART;
  d->next_claim_ms = lease_clock_ms() + claim_period(d);
  d->multi = curl_multi_init();
  if (!d->multi || pthread_create(&d->worker, NULL, worker_main, d) != 0) {
    struct cairn_error err = {0};
    struct job *j;

    while ((j = d->queue)) { /* still owed: the outbox keeps them */
      d->queue = j->next;
      free_job(j);
    }
    db_outbox_release(db, d->node, &err); /* for another node, or the next start */
    curl_multi_cleanup(d->multi);
    pthread_mutex_destroy(&d->lock);
    free(d);
    return NULL;
  }
  return d;
}

void api_deliver_free(struct api_deliver *d)
{
  struct cairn_error err = {0};
  struct job *j;

  if (!d)
    return;
  pthread_mutex_lock(&d->lock);
  d->stopping = true;
  /* Queued deliveries stay owed in the outbox for the next start (one
   * queued a moment ago is written now); what is in flight finishes. */
  while ((j = d->queue)) {
    d->queue = j->next;
    if (!j->owed)
      owe(d, j);
    free_job(j);
  }
  pthread_mutex_unlock(&d->lock);
  curl_multi_wakeup(d->multi);
  pthread_join(d->worker, NULL);
  /* Whatever this node still holds (the queue just written back, retries
   * owed) is released, so another node claims it at once, not after the
   * lease. */
  if (db_outbox_release(d->db, d->node, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "webhooks", "cannot release delivery leases: %s", err.detail);
  curl_multi_cleanup(d->multi);
  pthread_mutex_destroy(&d->lock);
  free(d);
}

void api_deliver_new_id(char out[17])
{
  uint8_t random[8]; /* 16 hex digits */

  randombytes_buf(random, sizeof(random));
  sodium_bin2hex(out, 17, random, sizeof(random));
}

void api_deliver_enqueue(struct api_deliver *d, const struct db_webhook *hook,
                         const struct db_outbox *owed, bool stored)
{
  struct job *j;

  if (!d)
    return;
  j = new_job(hook, owed->event, owed->game_id, owed->body);
  if (!j)
    return; /* out of memory: a stored delivery is resumed at the next start */
  snprintf(j->delivery_id, sizeof(j->delivery_id), "%s", owed->delivery_id);
  j->owed = stored; /* else the worker writes it to the outbox, off the request's path */
  atomic_fetch_add(&d->owed_now, 1);
  queue_job(d, j);
  curl_multi_wakeup(d->multi);
}

void api_deliver_counts(struct api_deliver *d, struct api_deliver_counts *out)
{
  memset(out, 0, sizeof(*out));
  if (!d)
    return;
  out->owed = atomic_load(&d->owed_now);
  out->delivered = atomic_load(&d->delivered);
  out->failed = atomic_load(&d->failed);
}

/* ---- test deliveries ---- */

static void trial_let_go(struct trial *t)
{
  bool last;

  pthread_mutex_lock(&t->lock);
  t->done = true;
  last = --t->refs == 0;
  pthread_cond_broadcast(&t->settled);
  pthread_mutex_unlock(&t->lock);
  if (last) {
    pthread_cond_destroy(&t->settled);
    pthread_mutex_destroy(&t->lock);
    free(t);
  }
}

static struct trial *trial_new(void)
{
  struct trial *t = calloc(1, sizeof(*t));
  pthread_condattr_t attr;

  if (!t)
    return NULL;
  pthread_mutex_init(&t->lock, NULL);
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr,
                            CLOCK_MONOTONIC); /* the wait is real time, whatever the game clock */
  pthread_cond_init(&t->settled, &attr);
  pthread_condattr_destroy(&attr);
  t->refs = 2; /* the asking thread's and the job's */
  snprintf(t->out.error, sizeof(t->out.error), "%s", DELIVER_NO_OUTCOME);
  return t;
}

/* Wait (real time, bounded) for the trial's outcome; copies what is known
 * by then into *out. */
static void trial_wait(struct trial *t, int64_t wait_ms, struct api_deliver_outcome *out)
{
  struct timespec until;

  clock_gettime(CLOCK_MONOTONIC, &until);
  until.tv_sec += wait_ms / 1000;
  until.tv_nsec += (wait_ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&t->lock);
  while (!t->done && pthread_cond_timedwait(&t->settled, &t->lock, &until) == 0)
    ;
  *out = t->out;
  pthread_mutex_unlock(&t->lock);
}

/* May `hook` be tested now? If so the test is counted; if not, *wait_s
 * says in how many seconds it may. */
static bool may_test(struct api_deliver *d, const struct db_webhook *hook, int *wait_s)
{
  int64_t *last = &d->tested_ms[db_id_hash(hook->id) % DELIVER_TEST_SLOTS];
  int64_t now = d->now_ms(), left;

  pthread_mutex_lock(&d->lock);
  left = *last ? *last + DELIVER_TEST_EVERY_MS - now : 0;
  if (left <= 0)
    *last = now;
  pthread_mutex_unlock(&d->lock);
  *wait_s = left > 0 ? (int)((left + 999) / 1000) : 0;
  return left <= 0;
}

enum cairn_status api_deliver_try(struct api_deliver *d, const struct db_webhook *hook,
                                  const char *body, struct api_deliver_outcome *out,
                                  struct cairn_error *err)
{
  struct trial *t;
  struct job *j;
  int wait_s;

  memset(out, 0, sizeof(*out));
  if (!d)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "the webhook worker is not running");
  if (!may_test(d, hook, &wait_s)) {
    out->retry_after = wait_s;
    return cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_RATE_LIMITED, NULL,
                      "one test delivery per webhook every %d s; retry in %d s",
                      DELIVER_TEST_EVERY_MS / 1000, wait_s);
  }
  t = trial_new();
  j = t ? new_job(hook, DELIVER_TEST_EVENT, "", body) : NULL;
  if (!j) {
    free(t);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  api_deliver_new_id(j->delivery_id);
  snprintf(t->out.delivery_id, sizeof(t->out.delivery_id), "%s", j->delivery_id);
  j->owed = true; /* never written to the outbox: a test is owed nothing */
  j->trial = t;
  j->due_ms = d->now_ms();
  queue_job(d, j);
  curl_multi_wakeup(d->multi);
  trial_wait(t, DELIVER_TIMEOUT_MS + DELIVER_TRIAL_SLACK_MS, out);
  trial_let_go(t);
  return CAIRN_OK;
}
