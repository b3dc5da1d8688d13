/*
 * loadconn.c - the load generator's HTTP/1.1 connection (see loadconn.h).
 */
#include "loadconn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define FIRST_BUFFER 16384 /* a Himalaya view with its legal list fits */

void load_conn_init(struct load_conn *c, int epfd, const char *host, int port, uint64_t tag)
{
  memset(c, 0, sizeof(*c));
  c->fd = -1;
  c->epfd = epfd;
  c->host = host;
  c->port = port;
  c->tag = tag;
}

static void watch(struct load_conn *c, int op, uint32_t events)
{
  struct epoll_event ev = {.events = events, .data.u64 = c->tag};

  epoll_ctl(c->epfd, op, c->fd, &ev);
}

/* A blocking connect (loopback answers at once), then non-blocking use. */
static bool connect_to_server(struct load_conn *c)
{
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)c->port)};
  int one = 1;

  if (inet_pton(AF_INET, c->host, &addr.sin_addr) != 1)
    return false;
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (c->fd < 0)
    return false;
  if (connect(c->fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
    close(c->fd);
    c->fd = -1;
    return false;
  }
  c->connects++;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
  watch(c, EPOLL_CTL_ADD, EPOLLIN);
  return true;
}

static bool reserve(char **buf, size_t *cap, size_t need)
{
  size_t grown_cap = *cap ? *cap : FIRST_BUFFER;
  char *grown;

  if (need <= *cap)
    return true;
  while (grown_cap < need)
    grown_cap *= 2;
  grown = realloc(*buf, grown_cap);
  if (!grown)
    return false;
  *buf = grown;
  *cap = grown_cap;
  return true;
}

/* Send what is left of the request; watch for room if the socket is full. */
static bool flush_request(struct load_conn *c)
{
  while (c->out_sent < c->out_len) {
    ssize_t n = send(c->fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_NOSIGNAL);

    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      watch(c, EPOLL_CTL_MOD, EPOLLIN | EPOLLOUT);
      return true;
    }
    if (n <= 0)
      return false;
    c->out_sent += (size_t)n;
  }
  return true;
}

bool load_conn_request(struct load_conn *c, const char *method, const char *path,
                       const char *headers, const char *body)
{
  size_t body_len = body ? strlen(body) : 0;
  size_t need = strlen(method) + strlen(path) + strlen(c->host) + strlen(headers) + body_len + 96;
  int n;

  if (c->fd < 0 && !connect_to_server(c))
    return false;
  if (!reserve(&c->out, &c->out_cap, need))
    return false;
  n = snprintf(c->out, c->out_cap, "%s %s HTTP/1.1\r\nHost: %s:%d\r\n%sContent-Length: %zu\r\n\r\n",
               method, path, c->host, c->port, headers, body_len);
  if (n < 0 || (size_t)n + body_len >= c->out_cap)
    return false;
  if (body)
    memcpy(c->out + n, body, body_len);
  c->out_len = (size_t)n + body_len;
  c->out_sent = 0;
  c->in_len = c->body_at = c->body_len = 0;
  c->status = 0;
  if (!flush_request(c)) {
    load_conn_close(c);
    return false;
  }
  return true;
}

/* Once the head is in: the status and the body's length. False when the
 * answer cannot be framed. */
static bool read_head(struct load_conn *c)
{
  char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
  const char *line;
  bool has_length = false;

  if (!end)
    return true; /* not all in yet */
  *end = '\0';
  if (sscanf(c->in, "HTTP/1.%*d %d", &c->status) != 1)
    return false;
  for (line = strstr(c->in, "\r\n"); line; line = strstr(line + 2, "\r\n"))
    if (strncasecmp(line + 2, "Content-Length:", 15) == 0) {
      c->body_len = strtoul(line + 17, NULL, 10);
      has_length = true;
    }
  c->body_at = (size_t)(end - c->in) + 4;
  return has_length;
}

int load_conn_on_event(struct load_conn *c, uint32_t events)
{
  ssize_t n;

  if (c->fd < 0)
    return -1;
  if (events & EPOLLOUT) {
    if (!flush_request(c))
      goto fail;
    if (c->out_sent == c->out_len)
      watch(c, EPOLL_CTL_MOD, EPOLLIN);
  }
  if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
    return 0;
  if (!reserve(&c->in, &c->in_cap, c->in_len + FIRST_BUFFER / 2))
    goto fail;
  n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len - 1, 0);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    return 0;
  if (n <= 0)
    goto fail; /* closed before the answer was whole */
  c->in_len += (size_t)n;
  c->in[c->in_len] = '\0';
  if (c->body_at == 0 && !read_head(c))
    goto fail;
  if (c->body_at == 0 || c->in_len < c->body_at + c->body_len)
    return 0;
  c->in[c->body_at + c->body_len] = '\0';
  return 1;
fail:
  load_conn_close(c);
  return -1;
}

int load_conn_status(const struct load_conn *c)
{
  return c->status;
}

const char *load_conn_body(const struct load_conn *c)
{
  return c->in && c->body_at ? c->in + c->body_at : "";
}

void load_conn_close(struct load_conn *c)
{
  if (c->fd >= 0) {
    epoll_ctl(c->epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
  }
  c->fd = -1;
  free(c->out);
  free(c->in);
  c->out = c->in = NULL;
  c->out_len = c->out_sent = c->out_cap = c->in_len = c->in_cap = 0;
  c->body_at = c->body_len = 0;
}
