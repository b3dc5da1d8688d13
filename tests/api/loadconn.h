/*
 * loadconn.h - one keep-alive HTTP/1.1 connection for the load generator
 * (bench_load.c), on a non-blocking socket the caller watches with epoll.
 *
 * Why not libcurl, which the rest of tests/api uses: the generator shares
 * the machine's cores with the server it measures, and profiling it under
 * bench_load put two thirds of its CPU in libcurl's per-transfer work (a
 * liveness poll, epoll_ctl calls on every state change, header parsing,
 * URL handling) - about 130 us per move, a third of what the server spent.
 * Everything it does here is one send() per request and, usually, one
 * recv() per answer, so the figures measure the server, not the client.
 *
 * It speaks only what the generator needs and the server sends: one
 * request at a time per connection, answers framed by Content-Length. An
 * answer it cannot frame (no length, chunked, a closed connection) is an
 * error; the connection is closed and reopened on the next request.
 */
#ifndef TESTS_API_LOADCONN_H
#define TESTS_API_LOADCONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct load_conn {
  int fd; /* -1 while closed */
  int epfd;
  uint64_t tag; /* the epoll data of fd, chosen by the caller */
  const char *host;
  int port;
  char *out; /* owned: the request not yet sent */
  size_t out_len, out_sent, out_cap;
  char *in; /* owned: the answer so far, NUL-terminated */
  size_t in_len, in_cap;
  size_t body_at;  /* offset of the body once the head is read, else 0 */
  size_t body_len; /* from Content-Length */
  int status;      /* the answer's HTTP status once the head is read */
  long connects;   /* connections opened so far: more than one means reconnects */
};

/* Set up *c closed; nothing is allocated until the first request. `host`
 * is borrowed for c's life. Events on its socket come with data.u64 `tag`. */
void load_conn_init(struct load_conn *c, int epfd, const char *host, int port, uint64_t tag);

/* Start a request (connecting first if closed): `method` `path` with the
 * extra header lines `headers` (each ending "\r\n", may be "") and `body`
 * (NULL for none). Returns false if it could not connect or send. */
bool load_conn_request(struct load_conn *c, const char *method, const char *path,
                       const char *headers, const char *body);

/* Handle epoll `events` on c's socket. Returns 1 when the whole answer is
 * in (see load_conn_status and load_conn_body), 0 while more is due, -1 on
 * an error (the connection is then closed). */
int load_conn_on_event(struct load_conn *c, uint32_t events);

/* The last complete answer's status, and its body: borrowed, NUL-
 * terminated, valid until the next request on c. */
int load_conn_status(const struct load_conn *c);
const char *load_conn_body(const struct load_conn *c);

/* Close the socket and free the buffers. */
void load_conn_close(struct load_conn *c);

#endif
