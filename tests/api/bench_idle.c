/*
 * bench_idle.c - 10,000 idle clients held on loopback: half waiting on
 * long-polls, half on SSE streams, none holding a server thread. Prints the
 * server's resident memory before and with them, and checks a move still
 * wakes them. Prints figures only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <arpa/inet.h>
#include <cmocka.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"

#define CLIENTS 10000

static long rss_kib(pid_t pid)
{
  char path[64], line[256];
  long kib = -1;
  FILE *f;

  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  f = fopen(path, "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
      break;
  fclose(f);
  return kib;
}

static long threads_of(pid_t pid)
{
  char path[64], line[256];
  long n = -1;
  FILE *f;

  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  f = fopen(path, "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %ld", &n) == 1)
      break;
  fclose(f);
  return n;
}

/* A raw socket that sends one request and then just waits. */
static int open_idle(int port, const char *request)
{
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  int fd = socket(AF_INET, SOCK_STREAM, 0);

  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
      write(fd, request, strlen(request)) != (ssize_t)strlen(request)) {
    if (fd >= 0)
      close(fd);
    return -1;
  }
  return fd;
}

int main(void)
{
  static int fds[CLIENTS];
  struct harness_server s;
  struct harness_player p[2];
  struct rlimit lim;
  json_t *g;
  char id[64], poll_req[256], sse_req[256];
  long before, with, woken = 0;
  int i, open_ok = 0;

  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  harness_global_init();
  memset(&s, 0, sizeof s);
  harness_start(&s);
  harness_new_player(&s, "a", &p[0]);
  harness_new_player(&s, "b", &p[1]);
  g = harness_new_game(&s, p[0].token, "himalaya", 2, "{}");
  snprintf(id, sizeof id, "%s", harness_game_id(g));
  json_decref(g);
  harness_join(&s, p[0].token, id, 0);
  harness_join(&s, p[1].token, id, 1);
  snprintf(poll_req, sizeof poll_req,
           "GET /v1/games/%s/wait?after=0&timeout=300 HTTP/1.1\r\nHost: x\r\n\r\n", id);
  snprintf(sse_req, sizeof sse_req, "GET /v1/games/%s/events HTTP/1.1\r\nHost: x\r\n\r\n", id);
  before = rss_kib(s.pid);
  for (i = 0; i < CLIENTS; i++) {
    fds[i] = open_idle(s.port, i % 2 ? sse_req : poll_req);
    open_ok += fds[i] >= 0;
  }
  sleep(2); /* a settling window before the measurement, not a wait for a condition */
  with = rss_kib(s.pid);
  printf("idle clients: %d of %d held (half long-poll, half SSE); server RSS %ld KiB before, "
         "%ld KiB with them (%.1f KiB per client); server threads %ld\n",
         open_ok, CLIENTS, before, with, open_ok ? (double)(with - before) / open_ok : 0.0,
         threads_of(s.pid));
  {
    json_t *mine = harness_get_game(&s, p[0].token, id);
    json_t *body = json_pack("{s:i, s:O}", "seq", 0, "move",
                             json_array_get(json_object_get(mine, "legal"), 0));
    struct harness_response r;
    char buf[512];

    harness_call_json(&s, &r, "POST", p[0].token, body, "/v1/games/%s/moves", id);
    harness_response_free(&r);
    json_decref(body);
    json_decref(mine);
    sleep(2); /* the figure is what one move wakes within 2 s: a window, not a wait */
    for (i = 0; i < CLIENTS; i++) {
      ssize_t n;

      if (fds[i] < 0)
        continue;
      n = recv(fds[i], buf, sizeof buf, MSG_DONTWAIT);
      woken += n > 0;
    }
    printf("idle clients: one move woke %ld of them within 2 s\n", woken);
  }
  for (i = 0; i < CLIENTS; i++)
    if (fds[i] >= 0)
      close(fds[i]);
  harness_stop(&s);
  harness_global_cleanup();
  return 0;
}
