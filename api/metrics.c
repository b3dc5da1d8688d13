/*
 * metrics.c - GET /metrics: what an operator of several nodes watches, in
 * Prometheus' text exposition format (version 0.0.4), one scrape per
 * node: requests and their latency by route and status, moves committed,
 * the group commit's fsyncs and their time, open connections and waiting
 * clients, the webhook backlog and failures, rate-limit refusals.
 *
 * Labels name routes by their pattern ("/v1/games/{id}/moves"), never by a
 * game, a player or a token, so a scrape reveals only how busy the node is:
 * nothing of any game's hidden information, nor who plays.
 *
 * Every request's counters are atomics in fixed arrays indexed by route and
 * status, so counting takes no lock and no allocation; a scrape reads them
 * (each value on its own: a scrape racing requests may see a request's
 * count before its latency, which Prometheus tolerates).
 */
#include "api.h"
#include "deliver.h"
#include "notify.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Upper bounds of the latency buckets, in seconds. */
static const double bucket_le[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                   0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
#define N_BUCKETS  (sizeof(bucket_le) / sizeof(bucket_le[0]))
#define MIN_STATUS 100
#define N_STATUS   500 /* 100..599 */

struct route_counts {
  atomic_long by_status[N_STATUS];
  atomic_long in_bucket[N_BUCKETS + 1]; /* the last: above every bound */
  atomic_llong ns_sum;
};

struct api_metrics {
  int n_routes; /* api_route_count(), plus one for unmatched requests */
  atomic_long rate_refused;
  struct route_counts routes[]; /* [route + 1]: unmatched (-1) first */
};

struct api_metrics *api_metrics_new(void)
{
  int n = api_route_count() + 1;
  struct api_metrics *m = calloc(1, sizeof(*m) + (size_t)n * sizeof(struct route_counts));

  if (m)
    m->n_routes = n;
  return m;
}

void api_metrics_free(struct api_metrics *m)
{
  free(m);
}

void api_metrics_observe(struct api_metrics *m, int route, unsigned int status, int64_t ns)
{
  struct route_counts *r;
  size_t b = 0;

  if (!m || route < -1 || route + 1 >= m->n_routes || status < MIN_STATUS ||
      status >= MIN_STATUS + N_STATUS)
    return;
  r = &m->routes[route + 1];
  atomic_fetch_add_explicit(&r->by_status[status - MIN_STATUS], 1, memory_order_relaxed);
  while (b < N_BUCKETS && (double)ns > bucket_le[b] * 1e9)
    b++;
  atomic_fetch_add_explicit(&r->in_bucket[b], 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&r->ns_sum, ns, memory_order_relaxed);
}

void api_metrics_rate_refused(struct api_metrics *m)
{
  if (m)
    atomic_fetch_add_explicit(&m->rate_refused, 1, memory_order_relaxed);
}

/* The text being written: a growing buffer (ownership passes to the
 * response). `failed` once memory ran out. */
struct out {
  char *text;
  size_t len, cap;
  bool failed;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
  va_list ap;
  int n;

  if (o->failed)
    return;
  for (;;) {
    va_start(ap, fmt);
    n = vsnprintf(o->text ? o->text + o->len : NULL, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
      o->failed = true;
      return;
    }
    if ((size_t)n < o->cap - o->len) {
      o->len += (size_t)n;
      return;
    }
    size_t cap = o->cap ? 2 * o->cap : 16384;
    while (cap - o->len <= (size_t)n)
      cap *= 2;
    char *grown = realloc(o->text, cap);
    if (!grown) {
      o->failed = true;
      return;
    }
    o->text = grown;
    o->cap = cap;
  }
}

static void family(struct out *o, const char *name, const char *type, const char *help)
{
  put(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A route's labels: method, and the pattern with "{id}" for its "*". */
static void route_labels(int route, char *buf, size_t size)
{
  const char *method, *pattern, *star;

  api_route_label(route, &method, &pattern);
  star = strchr(pattern, '*');
  if (star)
    snprintf(buf, size, "method=\"%s\",route=\"%.*s{id}%s\"", method, (int)(star - pattern),
             pattern, star + 1);
  else
    snprintf(buf, size, "method=\"%s\",route=\"%s\"", method, pattern);
}

static void put_requests(struct out *o, const struct api_metrics *m)
{
  char labels[160];

  family(o, "cairn_http_requests_total", "counter", "Requests answered, by route and HTTP status.");
  for (int i = 0; i < m->n_routes; i++) {
    route_labels(i - 1, labels, sizeof(labels));
    for (int s = 0; s < N_STATUS; s++) {
      long n = atomic_load_explicit(&m->routes[i].by_status[s], memory_order_relaxed);

      if (n)
        put(o, "cairn_http_requests_total{%s,status=\"%d\"} %ld\n", labels, s + MIN_STATUS, n);
    }
  }
}

static void put_latency(struct out *o, const struct api_metrics *m)
{
  char labels[160];

  family(o, "cairn_http_request_duration_seconds", "histogram",
         "Time from a request's head to its answer (a long-poll's wait included).");
  for (int i = 0; i < m->n_routes; i++) {
    const struct route_counts *r = &m->routes[i];
    long seen = 0;

    for (size_t b = 0; b <= N_BUCKETS; b++)
      seen += atomic_load_explicit(&r->in_bucket[b], memory_order_relaxed);
    if (!seen)
      continue;
    route_labels(i - 1, labels, sizeof(labels));
    seen = 0;
    for (size_t b = 0; b <= N_BUCKETS; b++) {
      seen += atomic_load_explicit(&r->in_bucket[b], memory_order_relaxed);
      if (b < N_BUCKETS)
        put(o, "cairn_http_request_duration_seconds_bucket{%s,le=\"%g\"} %ld\n", labels,
            bucket_le[b], seen);
      else
        put(o, "cairn_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %ld\n", labels, seen);
    }
    put(o, "cairn_http_request_duration_seconds_sum{%s} %.9f\n", labels,
        (double)atomic_load_explicit(&r->ns_sum, memory_order_relaxed) / 1e9);
    put(o, "cairn_http_request_duration_seconds_count{%s} %ld\n", labels, seen);
  }
}

static void put_game_and_storage(struct out *o, const struct api_server *server)
{
  struct db_stats st;

  family(o, "cairn_changes_committed_total", "counter",
         "Log rows committed, by kind (a player's move, a bot's, a timeout, ...).");
  for (int k = 0; k < GAME_CHANGE_KINDS; k++)
    if (k != GAME_CHANGE_JOIN) /* a join writes a seat, not a log row */
      put(o, "cairn_changes_committed_total{kind=\"%s\"} %ld\n", game_change_kind_name(k),
          server->game ? atomic_load(&server->game->committed[k]) : 0L);
  db_stats(server->db, &st);
  family(o, "cairn_db_commits_total", "counter",
         "Durable transactions that appended moves (each one fsync: a group commit).");
  put(o, "cairn_db_commits_total %ld\n", st.commits);
  family(o, "cairn_db_appended_moves_total", "counter", "Moves those transactions appended.");
  put(o, "cairn_db_appended_moves_total %ld\n", st.appends);
  family(o, "cairn_db_commit_seconds_total", "counter",
         "Time spent committing them, the fsync mostly.");
  put(o, "cairn_db_commit_seconds_total %.9f\n", st.commit_seconds);
}

static void put_bots(struct out *o, const struct api_server *server)
{
  struct game_bot_pool_counts bots;

  game_bot_pool_counts(server->game, &bots);
  family(o, "cairn_bot_threads", "gauge", "Threads the search bots think on (--bot-threads).");
  put(o, "cairn_bot_threads %d\n", bots.threads);
  family(o, "cairn_bot_queue_length", "gauge",
         "Games waiting for a bot's decision, and hints waiting to be worked out.");
  put(o, "cairn_bot_queue_length %ld\n", bots.queued);
  family(o, "cairn_bot_decisions_total", "counter",
         "Decisions the bot workers made, by kind: a bot's move in a game, a hint.");
  put(o, "cairn_bot_decisions_total{kind=\"move\"} %ld\n", bots.bot_jobs);
  put(o, "cairn_bot_decisions_total{kind=\"hint\"} %ld\n", bots.hint_jobs);
  family(o, "cairn_bot_thinking_seconds_total", "counter", "Time the bot workers spent on them.");
  put(o, "cairn_bot_thinking_seconds_total %.9f\n", bots.seconds);
}

static void put_clients(struct out *o, const struct api_server *server, const struct api_metrics *m)
{
  struct api_deliver_counts hooks;
  int polls, streams;

  family(o, "cairn_connections_open", "gauge", "Open client connections, waiting ones included.");
  put(o, "cairn_connections_open %d\n", atomic_load(&server->connections));
  api_notify_counts(server->notify, &polls, &streams);
  family(o, "cairn_waiting_clients", "gauge", "Clients waiting for a change, by kind.");
  put(o, "cairn_waiting_clients{kind=\"long_poll\"} %d\n", polls);
  put(o, "cairn_waiting_clients{kind=\"stream\"} %d\n", streams);
  api_deliver_counts(server->deliver, &hooks);
  family(o, "cairn_webhook_backlog", "gauge",
         "Webhook deliveries owed: queued, in flight or waiting for a retry.");
  put(o, "cairn_webhook_backlog %ld\n", hooks.owed);
  family(o, "cairn_webhook_attempts_total", "counter", "Webhook delivery attempts, by outcome.");
  put(o, "cairn_webhook_attempts_total{outcome=\"delivered\"} %ld\n", hooks.delivered);
  put(o, "cairn_webhook_attempts_total{outcome=\"failed\"} %ld\n", hooks.failed);
  family(o, "cairn_rate_limit_refusals_total", "counter", "Requests a rate limit refused (429).");
  put(o, "cairn_rate_limit_refusals_total %ld\n", atomic_load(&m->rate_refused));
}

enum cairn_status api_metrics_get(struct api_request *req, struct api_response *resp,
                                  struct cairn_error *err)
{
  const struct api_metrics *m = req->server->metrics;
  struct out o = {0};

  if (!m)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no metrics are kept");
  put_requests(&o, m);
  put_latency(&o, m);
  put_game_and_storage(&o, req->server);
  put_bots(&o, req->server);
  put_clients(&o, req->server, m);
  if (o.failed) {
    free(o.text);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  resp->status = 200;
  resp->owned_text = o.text;
  resp->text_len = o.len;
  resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
  return CAIRN_OK;
}
