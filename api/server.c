/*
 * server.c - the libmicrohttpd side: gathering a request body under a cap,
 * authenticating, dispatching to a handler through the router, and turning
 * the handler's answer (or its error, through problem.c) into a response.
 *
 * Per-request state is created on the first callback and released in the
 * completion callback (libmicrohttpd's simplepost.c pattern), so no path,
 * including a client that disconnects mid-body, leaks it.
 */
#include "server.h"

#include "notify.h"

#include "../log/log.h"

#include <assert.h>
#include <limits.h>
#include <microhttpd.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* X-Request-Id: the client's own, when it is 1-64 of these characters,
 * else one of ours; on every answer, so a client, a load balancer and the
 * server's log can name the same request. */
#define REQUEST_ID_MAX 64

struct pending {
  char request_id[REQUEST_ID_MAX + 1];
  int64_t head_ns; /* when the head was complete (CLOCK_MONOTONIC), for the latency */
  char *body;      /* owned: the body so far, NUL-terminated */
  size_t len;
  size_t cap;                    /* the route's body cap (api_body_cap) */
  bool too_large;                /* the body passed the cap; the rest is discarded */
  int64_t wait_deadline_ms;      /* a long-poll's deadline across wake-ups */
  char waited_on[DB_ID_MAX + 1]; /* the game it parked on, "" if it never did */
  int route;                     /* api_route's, for the metrics; -1 before it */
  struct api_later *later;       /* owned: an answer parked until its work is ready, or NULL */
};

/* Retry-After, and the IETF draft's RateLimit-* names when a rate limit
 * refused the request, so clients can pace themselves. */
static void add_retry_headers(struct MHD_Response *resp, const struct api_rate_refusal *why)
{
  char text[16];

  if (!why || why->retry_after <= 0)
    return;
  snprintf(text, sizeof(text), "%d", why->retry_after);
  MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, text);
  if (why->limit <= 0)
    return;
  snprintf(text, sizeof(text), "%d", why->limit);
  MHD_add_response_header(resp, "RateLimit-Limit", text);
  MHD_add_response_header(resp, "RateLimit-Remaining", "0");
  snprintf(text, sizeof(text), "%d", why->reset);
  MHD_add_response_header(resp, "RateLimit-Reset", text);
}

static int64_t mono_ns(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool request_id_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == ':';
}

/* The request's id: the client's X-Request-Id when it is one we may echo
 * (nothing that could split a header or a log line), else a new one: this
 * process's random prefix and a count, unique across nodes and restarts
 * without a system call per request. */
static uint32_t request_id_prefix;

static void pick_request_id_prefix(void)
{
  request_id_prefix = randombytes_random();
}

/* The low 4 * `digits` bits of v as lowercase hex, zero-padded (what
 * "%0*x" writes; by hand, since snprintf's format parsing was a tenth of
 * a /v1/health request's instructions in this file). */
static void put_hex(char *out, uint64_t v, int digits)
{
  static const char hex[] = "0123456789abcdef";

  for (int i = digits - 1; i >= 0; i--) {
    out[i] = hex[v & 0xf];
    v >>= 4;
  }
}

static void take_request_id(struct MHD_Connection *conn, char out[REQUEST_ID_MAX + 1])
{
  static atomic_uint_fast64_t count;
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  const char *theirs = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id");
  size_t n = 0;

  while (theirs && n <= REQUEST_ID_MAX && request_id_char(theirs[n]))
    n++;
  if (theirs && n > 0 && n <= REQUEST_ID_MAX && theirs[n] == '\0') {
    memcpy(out, theirs, n + 1);
    return;
  }
  pthread_once(&once, pick_request_id_prefix);
  put_hex(out, request_id_prefix, 8);
  put_hex(out + 8, (uint64_t)atomic_fetch_add(&count, 1) + 1, 12);
  out[20] = '\0';
}

/* Headers some answers add to the usual ones. */
struct extras {
  const char *request_id;             /* X-Request-Id, or NULL */
  const char *allow;                  /* Allow, or NULL */
  const struct api_rate_refusal *why; /* Retry-After and RateLimit-*, or NULL */
  bool close;                         /* Connection: close (the rest of the request is unread) */
  const char *cors_origin;            /* an allowed Origin to answer (cors.c), or NULL */
  const char *etag;                   /* a representation's ETag (representation.c), or NULL */
  bool gzipped;                       /* the body is gzip (Content-Encoding) */
};

/* What every answer carries: its request id, and CORS headers for an
 * allowed origin. */
static void add_request_id(struct MHD_Response *resp, const struct extras *x)
{
  if (x && x->request_id)
    MHD_add_response_header(resp, "X-Request-Id", x->request_id);
  if (x)
    api_cors_headers(resp, x->cors_origin, false);
}

/* 204 to a preflight from an allowed origin: which methods and headers
 * the request it announces may use. */
static enum MHD_Result queue_preflight(struct MHD_Connection *conn, const struct extras *x)
{
  struct MHD_Response *resp = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
  enum MHD_Result ret;

  if (!resp)
    return MHD_NO;
  if (x->request_id)
    MHD_add_response_header(resp, "X-Request-Id", x->request_id);
  api_cors_headers(resp, x->cors_origin, true);
  ret = MHD_queue_response(conn, MHD_HTTP_NO_CONTENT, resp);
  MHD_destroy_response(resp);
  return ret;
}

/* Takes `text` (JSON, `len` bytes; NULL when writing it ran out of memory). */
static enum MHD_Result queue_json_text(struct MHD_Connection *conn, unsigned int status, char *text,
                                       size_t len, const char *content_type, const struct extras *x)
{
  struct MHD_Response *resp;
  enum MHD_Result ret;

  if (!text)
    return MHD_NO; /* out of memory: dropping the connection is all we can do */
  resp = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
  if (!resp) {
    free(text);
    return MHD_NO;
  }
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  /* Vary before the CORS headers, which add Origin to it (cors.c). */
  if (x && x->etag) {
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, x->etag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
  }
  if (x && x->gzipped)
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
  add_request_id(resp, x);
  if (x && x->allow)
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, x->allow);
  if (x)
    add_retry_headers(resp, x->why);
  if (x && x->close)
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
  ret = MHD_queue_response(conn, status, resp);
  MHD_destroy_response(resp);
  return ret;
}

/* A 304 for a client that holds `etag` already: no body, the tag again. */
static enum MHD_Result queue_not_modified(struct MHD_Connection *conn, const char *etag,
                                          const struct extras *x)
{
  struct MHD_Response *resp = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
  enum MHD_Result ret;

  if (!resp)
    return MHD_NO;
  MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, etag);
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
  add_request_id(resp, x);
  ret = MHD_queue_response(conn, MHD_HTTP_NOT_MODIFIED, resp);
  MHD_destroy_response(resp);
  return ret;
}

/* A 200 JSON answer to a GET or HEAD (representation.c): its entity tag,
 * a 304 when the client holds that tag (*status then says so), gzip when
 * the client accepts it. Takes `text`. */
static enum MHD_Result queue_representation(struct MHD_Connection *conn, char *text, size_t len,
                                            const struct extras *x, unsigned int *status)
{
  char etag[API_ETAG_MAX + 1];
  char *gz = NULL;
  size_t gz_len = 0;
  struct extras tagged = *x;

  if (!text)
    return MHD_NO;
  api_etag_of(text, len, etag);
  if (api_etag_matches(
          MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH),
          etag)) {
    free(text);
    *status = MHD_HTTP_NOT_MODIFIED;
    return queue_not_modified(conn, etag, x);
  }
  if (api_accepts_gzip(
          MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING)) &&
      api_gzip(text, len, &gz, &gz_len)) {
    free(text);
    text = gz;
    len = gz_len;
    tagged.gzipped = true;
  }
  tagged.etag = etag;
  return queue_json_text(conn, MHD_HTTP_OK, text, len, "application/json", &tagged);
}

static enum MHD_Result queue_json(struct MHD_Connection *conn, unsigned int status,
                                  const json_t *body, const char *content_type,
                                  const struct extras *x)
{
  size_t len = 0;
  char *text = api_json_text(body, &len);

  return queue_json_text(conn, status, text, len, content_type, x);
}

/* *status gets the answer's HTTP status. */
static enum MHD_Result queue_problem(struct MHD_Connection *conn, const struct cairn_error *err,
                                     struct extras x, unsigned int *status_out)
{
  const struct api_rate_refusal unavailable = {.retry_after = API_UNAVAILABLE_RETRY_S};
  unsigned int status;
  json_t *body = api_problem(err, &status);
  enum MHD_Result ret;

  *status_out = status;
  if (!body)
    return MHD_NO;
  if (status >= 500)
    log_line(LOG_ERROR, "http", "%u %s: %s", status, err->code ? err->code : "-", err->detail);
  /* A 503 is a passing condition (a full disk, a locked database, memory):
   * nothing was changed, so tell clients and bots when a retry makes sense
   * instead of letting them hammer a struggling server. */
  if (status == 503 && (!x.why || x.why->retry_after <= 0))
    x.why = &unavailable;
  ret = queue_json(conn, status, body, "application/problem+json", &x);
  json_decref(body);
  return ret;
}

/* Takes r->owned_text on every path. */
static enum MHD_Result queue_text(struct MHD_Connection *conn, struct api_response *r,
                                  const struct extras *x)
{
  struct MHD_Response *resp =
      r->owned_text
          ? MHD_create_response_from_buffer(r->text_len, r->owned_text, MHD_RESPMEM_MUST_FREE)
          : MHD_create_response_from_buffer(r->text_len, (void *)r->text, MHD_RESPMEM_PERSISTENT);
  enum MHD_Result ret;

  if (!resp) {
    free(r->owned_text);
    return MHD_NO;
  }
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
  add_request_id(resp, x);
  ret = MHD_queue_response(conn, r->status, resp);
  MHD_destroy_response(resp);
  return ret;
}

static void close_stream(void *cls)
{
  api_stream_close(cls);
}

/* An SSE stream's block: the buffer libmicrohttpd allocates (zeroed) with
 * the response and keeps for as long as the stream is open. 0.9.75 writes
 * a chunked (HTTP/1.1) stream into its connection pool instead
 * (notify.c, give_back_pages) and uses the block only for an HTTP/1.0
 * client, so it is resident memory of every idle SSE client for little
 * use (bench_idle, 10,000 clients, half SSE: 11.2 KiB each with 4 KiB,
 * 9.7 KiB with 1 KiB; 5.9 KiB per SSE client with 512 bytes against 6.4
 * with 1 KiB, once the pool's pages are given back). It must hold the
 * longest event whole (api_stream_read never splits one): "id: <20
 * digits>\nevent: game\ndata: " and {"game", "seq", "status", "to_act": up
 * to ENGINE_MAX_SEATS seats} stay under 200 bytes beside the id and the
 * status. */
#define STREAM_BLOCK 512
_Static_assert(STREAM_BLOCK >= 200 + DB_ID_MAX + DB_STATUS_MAX + 4 * ENGINE_MAX_SEATS,
               "an SSE event must fit one stream block");

/* Takes `stream` on every path. */
static enum MHD_Result queue_stream(struct MHD_Connection *conn, struct api_stream *stream,
                                    const struct extras *x)
{
  struct MHD_Response *resp = MHD_create_response_from_callback(
      MHD_SIZE_UNKNOWN, STREAM_BLOCK, api_stream_read, stream, close_stream);
  enum MHD_Result ret;

  if (!resp) {
    api_stream_close(stream);
    return MHD_NO;
  }
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  add_request_id(resp, x);
  ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
  MHD_destroy_response(resp);
  return ret;
}

static ssize_t read_piece(void *cls, uint64_t pos, char *buf, size_t max)
{
  const struct api_response *r = cls;
  ssize_t n = r->reader.read(r->reader.cls, buf, max);

  (void)pos; /* pieces come in order */
  if (n < 0)
    return MHD_CONTENT_READER_END_WITH_ERROR;
  return n ? n : MHD_CONTENT_READER_END_OF_STREAM;
}

static void free_pieces(void *cls)
{
  struct api_response *r = cls;

  r->reader.free(r->reader.cls);
  free(r);
}

/* A JSON body written piece by piece (api_response.reader), chunked.
 * Takes the reader on every path. */
static enum MHD_Result queue_pieces(struct MHD_Connection *conn, const struct api_response *r,
                                    const struct extras *x)
{
  struct api_response *kept = malloc(sizeof(*kept));
  struct MHD_Response *resp = NULL;
  enum MHD_Result ret;

  if (kept) {
    *kept = *r;
    resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024, read_piece, kept,
                                             free_pieces);
  }
  if (!resp) {
    r->reader.free(r->reader.cls);
    free(kept);
    return MHD_NO;
  }
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                          r->content_type ? r->content_type : "application/json");
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  add_request_id(resp, x);
  ret = MHD_queue_response(conn, r->status, resp);
  MHD_destroy_response(resp);
  return ret;
}

/* A body must be JSON; bots often omit the header, so absence is accepted. */
static enum cairn_status check_media_type(const struct api_request *req, struct cairn_error *err)
{
  const char *type =
      MHD_lookup_connection_value(req->connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
  size_t n = strlen("application/json");

  if (!req->body_len || !type)
    return CAIRN_OK;
  if (strncasecmp(type, "application/json", n) == 0 && (type[n] == '\0' || type[n] == ';'))
    return CAIRN_OK;
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MEDIA_TYPE, NULL,
                    "Content-Type must be application/json");
}

void api_response_clear(struct api_response *resp)
{
  json_decref(resp->body);
  free(resp->json_text);
  free(resp->owned_text);
  if (resp->reader.free)
    resp->reader.free(resp->reader.cls);
  *resp = (struct api_response){0};
}

/* An answered later's outcome, moved into *resp and *err; frees the later. */
static enum cairn_status take_answer(struct api_later *later, struct api_response *resp,
                                     struct cairn_error *err)
{
  enum cairn_status st = later->st;

  *resp = later->resp;
  *err = later->err;
  later->release(later);
  return st;
}

/* Answer the request; *status gets the answer's HTTP status, or 0 when the
 * connection was parked (a long-poll: it runs again when woken). */
static enum MHD_Result dispatch(struct api_server *server, struct MHD_Connection *conn,
                                const char *url, const char *method, struct pending *p,
                                unsigned int *status)
{
  struct api_request req = {.server = server,
                            .connection = conn,
                            .method = method,
                            .path = url,
                            .body = p->body,
                            .body_len = p->len,
                            .wait_deadline_ms = &p->wait_deadline_ms,
                            .route = -1};
  struct api_response resp = {0};
  struct cairn_error err = {0};
  api_handler handler = NULL;
  char allow[API_ALLOW_MAX] = "";
  struct api_rate_refusal refused = {0};
  struct cairn_error auth_err = {0}, route_err = {0};
  struct extras x = {.request_id = p->request_id, .cors_origin = api_cors_origin(server, conn)};
  enum cairn_status auth, route_st, st;
  enum MHD_Result ret;

  *status = 0;
  if (p->later) {
    /* Resumed: its answer is ready. */
    st = take_answer(p->later, &resp, &err);
    p->later = NULL;
    api_later_answered(server);
    goto respond;
  }
  if (p->too_large) {
    cairn_fail(&err, CAIRN_ETOOLARGE, CAIRN_CODE_BODY_TOO_LARGE, NULL,
               "request body exceeds %zu bytes", p->cap);
    return queue_problem(conn, &err, x, status);
  }
  /* The token is checked first so the request is charged to its player,
   * whatever the header's spelling; a failed token is charged to the
   * address and reported only after the checks that came before it. */
  auth = api_authenticate(&req, &auth_err);
  /* Routed first so a refusal is counted under its route; a rate limit's
   * refusal still comes before the route's own. */
  route_st = api_route(&req, &handler, allow, &route_err);
  p->route = req.route;
  /* A parked long-poll runs again when woken: that is not a new request. */
  st = p->wait_deadline_ms ? CAIRN_OK : api_limits_check(&req, &refused, &err);
  if (st != CAIRN_OK && refused.retry_after > 0)
    api_metrics_rate_refused(server->metrics);
  if (st == CAIRN_OK && x.cors_origin && api_cors_is_preflight(conn, method)) {
    *status = MHD_HTTP_NO_CONTENT;
    return queue_preflight(conn, &x);
  }
  if (st == CAIRN_OK && route_st != CAIRN_OK) {
    err = route_err;
    st = route_st;
  }
  if (st == CAIRN_OK)
    st = check_media_type(&req, &err);
  if (st == CAIRN_OK && auth != CAIRN_OK) {
    err = auth_err;
    st = auth;
  }
  if (st == CAIRN_OK)
    st = handler(&req, &resp, &err);
  if (st == CAIRN_OK && resp.later) {
    struct api_later *later = resp.later;

    resp.later = NULL;
    if (api_later_park(server, conn, later)) {
      p->later = later;
      return MHD_YES; /* parked: resumed once its answer is ready */
    }
    st = take_answer(later, &resp, &err);
  }
respond:
  if (st != CAIRN_OK) {
    /* A handler's own limit says when to retry; the request limits' own
     * refusal (with its bucket headers) came before any handler ran. */
    if (resp.retry_after > 0 && refused.retry_after <= 0)
      refused.retry_after = resp.retry_after;
    api_response_clear(&resp);
    /* Allow goes with a 405 only (the route is known before the limits). */
    x.allow = allow[0] && err.code && strcmp(err.code, CAIRN_CODE_METHOD) == 0 ? allow : NULL;
    x.why = &refused;
    return queue_problem(conn, &err, x, status);
  }
  if (resp.wait_until_ms) {
    if (api_notify_wait(server->notify, conn, resp.wait_game, resp.wait_after,
                        resp.wait_until_ms)) {
      snprintf(p->waited_on, sizeof(p->waited_on), "%s", resp.wait_game);
      return MHD_YES; /* parked: the handler runs again when woken */
    }
    p->wait_deadline_ms = 1; /* may not wait: the handler answers now */
    return dispatch(server, conn, url, method, p, status);
  }
  *status = resp.status ? resp.status : 200;
  if (resp.stream)
    return queue_stream(conn, resp.stream, &x);
  if (resp.reader.read)
    return queue_pieces(conn, &resp, &x);
  if (resp.text || resp.owned_text)
    return queue_text(conn, &resp, &x);
  if (!resp.json_text)
    resp.json_text = api_json_text(resp.body, &resp.json_len);
  json_decref(resp.body);
  if (*status == MHD_HTTP_OK && (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0))
    return queue_representation(conn, resp.json_text, resp.json_len, &x, status);
  ret = queue_json_text(conn, *status, resp.json_text, resp.json_len, "application/json", &x);
  return ret;
}

/* An answer was queued: count it for GET /metrics and, when asked for,
 * write its access-log line, both from one reading of the clock. */
static void account(struct api_server *server, const struct pending *p, const char *method,
                    const char *url, unsigned int status)
{
  int64_t ns = mono_ns() - p->head_ns;

  api_metrics_observe(server->metrics, p->route, status, ns);
  if (log_access_on())
    log_request(p->request_id, method, url, status, (double)ns / 1e6);
}

/* Dispatch, then count the answer (not a parking) for GET /metrics. */
static enum MHD_Result answer(struct api_server *server, struct MHD_Connection *conn,
                              const char *url, const char *method, struct pending *p)
{
  unsigned int status = 0;
  enum MHD_Result ret;

  log_set_request(p->request_id); /* what this thread logs meanwhile names the request */
  ret = dispatch(server, conn, url, method, p, &status);
  log_set_request(NULL);
  if (status) /* else parked: counted once it is answered */
    account(server, p, method, url, status);
  return ret;
}

/* Append a chunk, or mark the request too large. Never grows past the cap. */
static bool gather(struct pending *p, const char *data, size_t size)
{
  char *grown;

  if (p->too_large)
    return true;
  if (size > p->cap - p->len) {
    p->too_large = true;
    free(p->body);
    p->body = NULL;
    p->len = 0;
    return true;
  }
  grown = realloc(p->body, p->len + size + 1);
  if (!grown)
    return false;
  memcpy(grown + p->len, data, size);
  p->body = grown;
  p->len += size;
  p->body[p->len] = '\0';
  return true;
}

/* The connection's entry in server->conns, or NULL when untracked. */
static struct api_conn *tracked(struct MHD_Connection *conn)
{
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

  return info ? info->socket_context : NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **req_cls)
{
  struct api_server *server = cls;
  struct pending *p = *req_cls;
  struct cairn_error err = {0};

  if (!p) {
    if (!api_conns_head_done(server->conns, tracked(conn)))
      return MHD_NO; /* too late: the sweeper has answered 408 */
    p = calloc(1, sizeof(*p));
    if (!p)
      return MHD_NO;
    p->head_ns = mono_ns();
    p->route = -1;
    take_request_id(conn, p->request_id);
    p->cap = api_body_cap(method, url);
    *req_cls = p;
    /* The head is complete and no body has been read: refuse here what
     * must not be read on, and close (the body's end is unknown). */
    if (api_check_head(conn, url, p->cap, &err) != CAIRN_OK) {
      unsigned int status;
      enum MHD_Result ret;

      api_conns_linger(server->conns, tracked(conn)); /* the body may be on its way */
      ret = queue_problem(conn, &err,
                          (struct extras){.request_id = p->request_id,
                                          .close = true,
                                          .cors_origin = api_cors_origin(server, conn)},
                          &status);
      account(server, p, method, url, status); /* p->route is -1: never routed */
      return ret;
    }
    return MHD_YES;
  }
  if (*upload_size) {
    if (!gather(p, upload, *upload_size))
      return MHD_NO;
    *upload_size = 0;
    return MHD_YES;
  }
  if (!api_conns_answering(server->conns, tracked(conn)))
    return MHD_NO;
  return answer(server, conn, url, method, p);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
  struct pending *p = *req_cls;
  struct api_server *server = cls;

  if (p && p->waited_on[0])
    api_notify_forget(server->notify, conn, p->waited_on);
  if (p && p->later)
    api_later_forget(p->later);
  api_conns_answered(server->conns, tracked(conn));
  if (p) {
    free(p->body);
    free(p);
    *req_cls = NULL;
  }
}

/*
 * The connection cap is ours, not libmicrohttpd's: its
 * MHD_OPTION_CONNECTION_LIMIT is split evenly between the polling threads,
 * so 20,000 over 96 threads refused a thread's 209th connection however
 * few the others held. One count across all threads makes the cap what it
 * says. Threads accepting at the same moment may each admit one past it;
 * the cap guards memory and descriptors, where a few more are harmless.
 */
static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
  struct api_server *server = cls;

  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    server->connections++;
    *socket_context = api_conns_opened(server->conns, conn);
  } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
    server->connections--;
    api_conns_closed(server->conns, *socket_context);
    *socket_context = NULL;
  }
}

/* Refused connections are closed at once, unanswered: answering would take
 * the very resources the cap protects. The per-address cap keeps one
 * address from holding every slot. */
static enum MHD_Result accept_under_cap(void *cls, const struct sockaddr *addr, socklen_t len)
{
  const struct api_server *server = cls;

  if (server->connections >= server->max_connections)
    return MHD_NO;
  return api_conns_admit(server->conns, addr) ? MHD_YES : MHD_NO;
}

struct MHD_Daemon *api_server_start(struct api_server *server, const struct sockaddr_in *addr)
{
  /* Answers parked requests: started before the first can park. */
  if (server->moves_park && !server->finisher && !(server->finisher = api_finisher_new()))
    return NULL;
  unsigned int mhd_limit = UINT_MAX;
  unsigned int threads = server->moves_park ? API_HTTP_THREADS_QUEUED : API_HTTP_THREADS;

  assert(server->max_connections > 0);
  /* libmicrohttpd's own limit, once split per thread, never binds before
   * ours. */
  if ((unsigned int)server->max_connections <= UINT_MAX / threads)
    mhd_limit = (unsigned int)server->max_connections * threads;
  /* A pool of polling threads serves every connection: handlers are short
   * (one SQLite transaction at most) and waiting clients are parked
   * (suspended), so no client holds a thread. On SQLite a move is parked
   * too while its group commit is on disk (later.c), so a few threads do;
   * on PostgreSQL a move's handler blocks through its commit, and more
   * threads are more moves in flight (API_HTTP_THREADS has the figures).
   * The limits keep 10,000 idle long-poll or SSE clients within bounded
   * memory. The 16 KiB connection pool must hold an 8 KiB target or 8 KiB
   * of header fields for framing.c to answer them; a smaller one would
   * not save idle clients' memory anyway: a parked long-poll touches 5.1
   * KiB with pools of 6 to 24 KiB, and a parked stream gives its pool's
   * pages back (notify.c, give_back_pages; before that it cost 6.3 KiB
   * plus half the pool).
   *
   * poll(), not epoll: libmicrohttpd 0.9.75 (Debian 12) in epoll mode now
   * and then left requests unread in their sockets when many arrived at
   * once, until the 30 s idle timeout closed the connections (bench_load
   * with CAIRN_BENCH_WAVES=300: 128 moves stuck in a wave, 6 runs in 99
   * stalled; with poll 0 in 120). Its epoll mode is edge-triggered and keeps its own
   * list of ready connections; poll asks the kernel afresh every turn, so
   * a request that has arrived cannot be forgotten. Each thread polls only
   * its own connections, parked waiters excluded, and the throughput,
   * latency and 10,000-idle-client figures were the same within noise. */
  return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ERROR_LOG |
                              MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC,
                          0, accept_under_cap, server, on_request, server, MHD_OPTION_SOCK_ADDR,
                          addr, MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
                          MHD_OPTION_NOTIFY_CONNECTION, on_connection, server,
                          MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_TIMEOUT,
                          (unsigned int)30, MHD_OPTION_CONNECTION_LIMIT, mhd_limit,
                          MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024), MHD_OPTION_END);
}
