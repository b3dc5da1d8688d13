/*
 * hookrx.c - the webhook receiver of hookrx.h: libmicrohttpd with a thread
 * per connection, so a slow answer holds up no other.
 */
#include "hookrx.h"
#include "harness.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
  struct MHD_Daemon *daemon;
  int port;
  pthread_mutex_t lock;
  struct hookrx_seen *seen; /* owned, HOOKRX_MAX long */
  int n;                    /* recorded, may exceed HOOKRX_MAX */
  bool down;
} rx = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void copy_header(struct MHD_Connection *conn, const char *name, char *out, size_t size)
{
  const char *v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);

  snprintf(out, size, "%s", v ? v : "");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *data,
                                  size_t *size, void **req_cls)
{
  static int started; /* only its address is used: "the first call was seen" */
  /* The body so far: one thread per connection runs every call of a
   * request, so the thread's own buffer holds it. */
  static __thread char body[512];
  static __thread size_t body_len;
  struct MHD_Response *resp;
  unsigned status = 200;
  enum MHD_Result ret;

  (void)cls;
  (void)method;
  (void)version;
  if (!*req_cls) {
    *req_cls = &started;
    body_len = 0;
    return MHD_YES;
  }
  if (*size) { /* kept up to the buffer's size */
    size_t n = *size < sizeof body - 1 - body_len ? *size : sizeof body - 1 - body_len;

    memcpy(body + body_len, data, n);
    body_len += n;
    *size = 0;
    return MHD_YES;
  }
  pthread_mutex_lock(&rx.lock);
  if (strcmp(url, "/down") == 0 && rx.down)
    status = 503;
  if (rx.n < HOOKRX_MAX) {
    struct hookrx_seen *s = &rx.seen[rx.n];

    snprintf(s->path, sizeof s->path, "%s", url);
    copy_header(conn, "X-Cairn-Delivery", s->delivery, sizeof s->delivery);
    copy_header(conn, "X-Cairn-Event", s->event, sizeof s->event);
    s->status = (int)status;
    memcpy(s->body, body, body_len);
    s->body[body_len] = '\0';
  }
  rx.n++;
  pthread_mutex_unlock(&rx.lock);
  resp = MHD_create_response_from_buffer(2, (void *)"ok", MHD_RESPMEM_PERSISTENT);
  ret = MHD_queue_response(conn, status, resp);
  MHD_destroy_response(resp);
  return ret;
}

void hookrx_start(void)
{
  const union MHD_DaemonInfo *info;
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};

  rx.seen = calloc(HOOKRX_MAX, sizeof(*rx.seen));
  assert_non_null(rx.seen);
  rx.n = 0;
  rx.down = false;
  rx.daemon =
      MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL,
                       NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_END);
  assert_non_null(rx.daemon);
  info = MHD_get_daemon_info(rx.daemon, MHD_DAEMON_INFO_BIND_PORT);
  rx.port = info->port;
}

void hookrx_stop(void)
{
  if (rx.daemon)
    MHD_stop_daemon(rx.daemon);
  rx.daemon = NULL;
  free(rx.seen);
  rx.seen = NULL;
}

int hookrx_port(void)
{
  return rx.port;
}

void hookrx_set_down(bool down)
{
  pthread_mutex_lock(&rx.lock);
  rx.down = down;
  pthread_mutex_unlock(&rx.lock);
}

int hookrx_count(const char *path)
{
  int i, n = 0;

  pthread_mutex_lock(&rx.lock);
  for (i = 0; i < rx.n && i < HOOKRX_MAX; i++)
    n += !path || strcmp(rx.seen[i].path, path) == 0;
  if (!path)
    n = rx.n;
  pthread_mutex_unlock(&rx.lock);
  return n;
}

int hookrx_copy(struct hookrx_seen *out, int max)
{
  int n;

  pthread_mutex_lock(&rx.lock);
  n = rx.n < HOOKRX_MAX ? rx.n : HOOKRX_MAX;
  n = n < max ? n : max;
  memcpy(out, rx.seen, (size_t)n * sizeof(*out));
  pthread_mutex_unlock(&rx.lock);
  return n;
}

struct arrivals {
  const char *path;
  int want, count;
};

static bool arrived(void *arg)
{
  struct arrivals *a = arg;

  a->count = hookrx_count(a->path);
  return a->count >= a->want;
}

int hookrx_wait(const char *path, int n, long timeout_ms)
{
  struct arrivals a = {.path = path, .want = n};

  harness_wait_until(arrived, &a, timeout_ms);
  return a.count;
}
