/*
 * deliver.h - the webhook delivery worker (deliver.c).
 */
#ifndef API_DELIVER_H
#define API_DELIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "../db/db.h"

struct api_deliver;

/* Start the worker. `db` is borrowed for its lifetime; deliveries are
 * retried after backoff_ms, 2 x backoff_ms, ... The worker is a node of
 * its own (a random id): it holds the deliveries it sends under leases of
 * lease_ms (real time), renewed while it lives, and claims at start and
 * every few seconds those whose lease ran out (deliver.c). NULL on
 * failure. */
struct api_deliver *api_deliver_new(struct db *db, int64_t (*now_ms)(void), bool allow_private,
                                    int64_t backoff_ms, int64_t lease_ms);

/* Mark `owed` (a row a change is about to write) as held by this node for
 * a lease from now, so no other node claims it while this one sends it. A
 * NULL worker leaves it unclaimed. */
void api_deliver_claim_owed(const struct api_deliver *d, struct db_outbox *owed);

/* Stop the worker (in-flight deliveries finish, queued retries are dropped). */
void api_deliver_free(struct api_deliver *d);

/* A fresh delivery id (16 hex digits): X-Cairn-Delivery and the outbox key. */
void api_deliver_new_id(char out[17]);

/* Queue the delivery `owed` (copied, its body too) for `hook` (copied);
 * returns at once. `stored`: its outbox row was written already (with the
 * log row of the change that owes it); otherwise the worker writes it
 * before the first attempt. */
void api_deliver_enqueue(struct api_deliver *d, const struct db_webhook *hook,
                         const struct db_outbox *owed, bool stored);

/* A test delivery's outcome (api_deliver_try). */
struct api_deliver_outcome {
  char delivery_id[17]; /* X-Cairn-Delivery of the request sent */
  bool done;            /* the attempt ended before the answer was due */
  bool delivered;       /* the receiver answered 2xx */
  int http_status;      /* the receiver's status; 0 when it did not answer */
  char error[160];      /* why it failed, in our words; "" when delivered */
  int retry_after;      /* refused (rate-limited): whole seconds until a test may go */
};

/* Send `body` (copied) to `hook` once, as event "test", through the
 * worker like any delivery (signed, the address guard, the limits on
 * requests in flight), and wait for the attempt's outcome: at most the
 * delivery timeout and a few seconds more (out->done false when that ran
 * out). A test is never retried, never written to the outbox and not
 * recorded in the delivery log: the answer is its record. Blocks the
 * calling thread meanwhile. One test per hook every 10 s (of the server's
 * clock): a sooner one is refused, CAIRN_ETOOLARGE code rate-limited. */
enum cairn_status api_deliver_try(struct api_deliver *d, const struct db_webhook *hook,
                                  const char *body, struct api_deliver_outcome *out,
                                  struct cairn_error *err);

/* What GET /metrics shows of the webhook worker: deliveries owed now
 * (queued, in flight or waiting for a retry: the backlog) and attempts
 * since start by outcome. A NULL worker has none. */
struct api_deliver_counts {
  long owed;
  long delivered;
  long failed;
};
void api_deliver_counts(struct api_deliver *d, struct api_deliver_counts *out);

/* May a webhook be registered for `url`? Checks the scheme and any literal
 * address; `why` says what is wrong. */
bool api_webhook_url_ok(const char *url, bool allow_private, char *why, size_t why_size);

/* True for loopback, private, link-local, multicast and unspecified. */
bool api_address_is_private(const struct sockaddr *sa);

#endif
