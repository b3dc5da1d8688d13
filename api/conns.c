/*
 * conns.c - what one client may hold: connections per address, and how
 * long a request may take to arrive.
 *
 * libmicrohttpd 0.9.75 times out only idle connections, so a client that
 * trickles a byte every two seconds was never cut off, and nothing stopped
 * one address from holding every connection slot. Here every connection is
 * tracked from libmicrohttpd's connection notifications: its address
 * counts against a per-address cap (checked in the accept policy), and it
 * carries a deadline: the whole head must arrive within `head_ms` of the
 * connection opening or of the previous answer on it, then the whole body
 * within `body_ms` of the head. A connection being answered, or parked
 * (long-poll, SSE), has no deadline.
 *
 * A sweeper thread closes late connections: it writes a 408 problem+json
 * (not to a kept-alive connection idle between requests, which is closed
 * silently, as clients expect of idle ones) and shuts the socket down, so libmicrohttpd's own
 * thread sees the end of the stream and closes the connection the usual way (callbacks, counts).
 * Both happen under the table lock (a request's deadline moves without
 * it: the sweeper claims a late connection atomically, struct api_conn),
 * and libmicrohttpd reports a closed
 * connection (which unlinks it) before closing its socket, so the sweeper
 * never touches a descriptor that could already belong to someone else.
 * Only connections waiting for a request's bytes are late, and
 * libmicrohttpd writes nothing to those, so the 408 is never interleaved
 * with another answer.
 */
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ADDR_SLOTS 4096 /* chains of the per-address table */
#define SWEEP_MS   100
#define TRIM_AFTER 1024 /* connections closed since the peak before memory is trimmed */

/*
 * A lingering close. A request refused before its body is read (a declared
 * length over the cap: 413; bad framing) is answered with Connection:
 * close while the client may still be sending the body. libmicrohttpd
 * then shuts the socket's sending side and closes it, and closing a TCP
 * socket with unread data in it sends a reset, not the end of the stream:
 * a client still writing failed with EPIPE (curl's "Failed sending data
 * to the peer") before it ever read the 413, and a reset may discard an
 * answer it had not read yet. tests/api/test_errors' 1 MiB POST failed so
 * now and then; a client posting 1 MiB in 16 KiB writes failed every time
 * (20 of 20; with this, 20 of 20 read their 413). As nginx's
 * lingering_close does, the socket is kept open a little longer (its own
 * descriptor, duplicated before libmicrohttpd closes its own), what
 * arrives is read and dropped by the sweeper, and it is closed once the
 * client has closed its side, or after LINGER_MS or LINGER_BYTES,
 * whichever comes first. At most LINGER_MAX sockets linger at once; past
 * that one is closed at once, as before.
 */
#define LINGER_MAX     64
#define LINGER_MS      5000
#define LINGER_BYTES   (2 * API_IMPORT_CAP) /* twice the largest body cap */
#define LINGER_POLL_MS 10 /* the longest a new lingering socket waits to be read */

struct lingering {
  int fd;           /* owned: our duplicate of the closed connection's socket */
  int64_t until_ms; /* closed then, however much is still coming */
  size_t left;      /* bytes still to read and drop */
};

struct addr_count {
  struct addr_count *next;
  uint8_t key[17]; /* family, then the address bytes */
  int count;
};

/*
 * A connection's deadline, idleness and lateness in one word, so that a
 * request moves its deadline with one atomic exchange and not under the
 * table lock (three times a request, and the sweeper holds that lock for
 * its walk over every connection: issue 22). The deadline in ms times
 * two, plus 1 when the connection is idle between requests; a deadline of
 * 0 is none (being answered or parked); CONN_LATE once the sweeper has
 * closed it, which nothing changes again. The sweeper claims a late
 * connection by a compare-and-swap of the word it read, and a request
 * moves the deadline by one of the word it read unless that is
 * CONN_LATE, so exactly one of them wins, as under the lock.
 */
#define CONN_LATE INT64_C(-1)

static int64_t conn_state(int64_t deadline_ms, bool idle)
{
  return deadline_ms * 2 + (idle ? 1 : 0);
}

struct api_conn {
  struct api_conn *prev, *next; /* every open connection */
  struct addr_count *addr;      /* NULL when the address is unknown */
  int fd;
  _Atomic int64_t state; /* conn_state(deadline, idle) or CONN_LATE */
  bool linger;           /* refused before its body was read: close lingering */
};

struct api_conns {
  pthread_mutex_t lock;
  int per_address; /* 0: no cap */
  int64_t head_ms, body_ms;
  struct api_conn *all;
  int open;            /* connections in `all` */
  int open_peak;       /* the most open since memory was last trimmed */
  int open_last_sweep; /* `open` at the previous sweep (the sweeper's own) */
  struct addr_count *addrs[ADDR_SLOTS];
  struct lingering lingering[LINGER_MAX]; /* [0, n_lingering) in use */
  int n_lingering;
  char *late_answer; /* the 408, whole */
  size_t late_len;
  pthread_t sweeper;
  bool sweeping;
  _Atomic bool stopping;
};

/* Deadlines use the monotonic clock: --test-clock moves game time, never
 * the network's. */
static int64_t mono_ms(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool address_key(const struct sockaddr *sa, uint8_t key[17])
{
  memset(key, 0, 17);
  if (sa && sa->sa_family == AF_INET) {
    key[0] = 4;
    memcpy(key + 1, &((const struct sockaddr_in *)sa)->sin_addr, 4);
    return true;
  }
  if (sa && sa->sa_family == AF_INET6) {
    key[0] = 6;
    memcpy(key + 1, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
    return true;
  }
  return false;
}

static struct addr_count **slot_of(struct api_conns *c, const uint8_t key[17])
{
  uint32_t h = 2166136261u; /* FNV-1a: spreading, not secrecy (a chain is short) */

  for (int i = 0; i < 17; i++)
    h = (h ^ key[i]) * 16777619u;
  return &c->addrs[h % ADDR_SLOTS];
}

static struct addr_count *find_addr(struct api_conns *c, const uint8_t key[17])
{
  struct addr_count *a;

  for (a = *slot_of(c, key); a; a = a->next)
    if (memcmp(a->key, key, 17) == 0)
      return a;
  return NULL;
}

/* The whole 408 answer, written by problem.c like every other problem. */
static bool build_late_answer(struct api_conns *c)
{
  struct cairn_error err = {0};
  unsigned int status;
  json_t *body;
  char *text;
  size_t len = 0;
  int n;

  cairn_fail(&err, CAIRN_EINVAL, API_CODE_REQUEST_TIMEOUT, NULL,
             "the request did not arrive in time (head %lld ms, body %lld ms)",
             (long long)c->head_ms, (long long)c->body_ms);
  body = api_problem(&err, &status);
  text = body ? api_json_text(body, &len) : NULL;
  json_decref(body);
  if (!text)
    return false;
  n = asprintf(&c->late_answer,
               "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
               "Content-Type: application/problem+json\r\nCache-Control: no-store\r\n"
               "Content-Length: %zu\r\n\r\n%s",
               len, text);
  free(text);
  if (n < 0)
    return false;
  c->late_len = (size_t)n;
  return true;
}

/*
 * After a burst of connections has gone, give the memory they held back to
 * the system. A connection's memory (libmicrohttpd's 16 KiB pool, its
 * structures and ours: 5-6 KiB resident when idle, more once it has
 * answered) comes from the malloc arena of its polling thread, and glibc
 * returns an arena's free memory only from its top, so the pages of
 * closed clients stayed resident between the live allocations that came
 * after them. 5,000 idle SSE clients took a server from 14.9 to 86.4 MB,
 * and it still held 86.4 MB once they had all gone; with notify.c's pages
 * given back, 44.1 MB with them and 44.1 after them; with the trim too,
 * 20.4 after them. malloc_trim gives back every whole free page of every
 * arena (MADV_DONTNEED). It walks each arena under that arena's lock
 * (about 2 ms here), so it runs only on the sweeper's thread, never on a
 * request's path, and once per burst: when TRIM_AFTER (1,024) connections
 * fewer are open than at the peak since the last trim and the count has
 * stopped falling since the previous sweep. A server whose connections
 * come and go at a steady level never trims.
 */
static bool burst_gone(struct api_conns *c)
{
  bool settled = c->open >= c->open_last_sweep;

  c->open_last_sweep = c->open;
  if (!settled || c->open_peak - c->open < TRIM_AFTER)
    return false;
  c->open_peak = c->open;
  return true;
}

/* Read and drop what has arrived on `l`; false once it is done with: the
 * client closed its side, the socket failed, or the byte budget is spent. */
static bool drop_input(struct lingering *l)
{
  char sink[16 * 1024];

  for (;;) {
    ssize_t n = recv(l->fd, sink, sizeof(sink), MSG_DONTWAIT);

    if (n <= 0)
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
    if ((size_t)n >= l->left)
      return false;
    l->left -= (size_t)n;
  }
}

/* Close and forget the lingering sockets marked done in [0, n): from the
 * top down, so a removal (the last entry moved into its place, which may
 * be one added meanwhile) never skips one. Lock held. */
static void end_lingering(struct api_conns *c, const bool *done, int n)
{
  for (int i = n - 1; i >= 0; i--)
    if (done[i]) {
      close(c->lingering[i].fd);
      c->lingering[i] = c->lingering[--c->n_lingering];
    }
}

/*
 * Wait until `until_ms`, reading and dropping what lingering clients send
 * meanwhile. The sweeper's own: other threads only add entries past
 * n_lingering, under the lock, and only the sweeper removes any, so the
 * first `n` it saw under the lock stay where they are while it reads them
 * without it (connections open and close under the lock, and the sweeper walks
 * them under it: no draining under it).
 */
static void linger_until(struct api_conns *c, int64_t until_ms)
{
  struct pollfd fds[LINGER_MAX];
  bool done[LINGER_MAX];
  int64_t now;

  while ((now = mono_ms()) < until_ms) {
    int n, wait_ms = (int)(until_ms - now);

    pthread_mutex_lock(&c->lock);
    n = c->n_lingering;
    pthread_mutex_unlock(&c->lock);
    for (int i = 0; i < n; i++)
      fds[i] = (struct pollfd){.fd = c->lingering[i].fd, .events = POLLIN};
    if (n && wait_ms > LINGER_POLL_MS)
      wait_ms = LINGER_POLL_MS;
    if (poll(fds, (nfds_t)n, wait_ms) < 0)
      memset(fds, 0, sizeof(fds[0]) * (size_t)n);
    now = mono_ms();
    for (int i = 0; i < n; i++)
      done[i] =
          now >= c->lingering[i].until_ms || (fds[i].revents && !drop_input(&c->lingering[i]));
    pthread_mutex_lock(&c->lock);
    end_lingering(c, done, n);
    pthread_mutex_unlock(&c->lock);
  }
}

/* Keep `k`'s socket open past libmicrohttpd's close, on a duplicate of its
 * descriptor, to be read and dropped by the sweeper. Lock held. */
static void start_lingering(struct api_conns *c, const struct api_conn *k)
{
  int fd;

  if (c->n_lingering >= LINGER_MAX)
    return;
  fd = fcntl(k->fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0)
    return;
  shutdown(fd, SHUT_WR); /* the answer has gone: end the stream after it */
  c->lingering[c->n_lingering++] =
      (struct lingering){.fd = fd, .until_ms = mono_ms() + LINGER_MS, .left = LINGER_BYTES};
}

static void *sweep(void *arg)
{
  struct api_conns *c = arg;

  while (!atomic_load(&c->stopping)) {
    int64_t now = mono_ms();
    bool trim;

    pthread_mutex_lock(&c->lock);
    for (struct api_conn *k = c->all; k; k = k->next) {
      int64_t state = atomic_load(&k->state);
      int64_t deadline_ms = state / 2;

      /* A request that moved its deadline meanwhile wins: its new one is
       * looked at next sweep. */
      if (state == CONN_LATE || !deadline_ms || now < deadline_ms ||
          !atomic_compare_exchange_strong(&k->state, &state, CONN_LATE))
        continue;
      /* An idle kept-alive connection is closed silently, as a client
       * expects of one; a late request is told why. Best effort: a full
       * send buffer only loses the explanation. */
      if (!(state & 1))
        send(k->fd, c->late_answer, c->late_len, MSG_NOSIGNAL | MSG_DONTWAIT);
      shutdown(k->fd, SHUT_RDWR);
    }
    trim = burst_gone(c);
    pthread_mutex_unlock(&c->lock);
    if (trim)
      malloc_trim(0);
    linger_until(c, now + SWEEP_MS);
  }
  return NULL;
}

struct api_conns *api_conns_new(int per_address, int64_t head_ms, int64_t body_ms)
{
  struct api_conns *c = calloc(1, sizeof(*c));

  if (!c)
    return NULL;
  c->per_address = per_address;
  c->head_ms = head_ms;
  c->body_ms = body_ms;
  pthread_mutex_init(&c->lock, NULL);
  if (!build_late_answer(c) || pthread_create(&c->sweeper, NULL, sweep, c) != 0) {
    api_conns_free(c);
    return NULL;
  }
  c->sweeping = true;
  return c;
}

void api_conns_stop(struct api_conns *c)
{
  if (!c || !c->sweeping)
    return;
  atomic_store(&c->stopping, true);
  pthread_join(c->sweeper, NULL);
  c->sweeping = false;
}

/* Called after libmicrohttpd has closed every connection, so the lists are
 * empty unless starting failed. */
void api_conns_free(struct api_conns *c)
{
  if (!c)
    return;
  api_conns_stop(c);
  for (int i = 0; i < ADDR_SLOTS; i++)
    while (c->addrs[i]) {
      struct addr_count *a = c->addrs[i];

      c->addrs[i] = a->next;
      free(a);
    }
  while (c->all) {
    struct api_conn *k = c->all;

    c->all = k->next;
    free(k);
  }
  while (c->n_lingering)
    close(c->lingering[--c->n_lingering].fd);
  free(c->late_answer);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

bool api_conns_admit(struct api_conns *c, const struct sockaddr *addr)
{
  uint8_t key[17];
  struct addr_count *a;
  bool ok;

  if (!c->per_address || !address_key(addr, key))
    return true;
  pthread_mutex_lock(&c->lock);
  a = find_addr(c, key);
  ok = !a || a->count < c->per_address;
  pthread_mutex_unlock(&c->lock);
  return ok;
}

/* Count the connection against its address; NULL only when out of
 * memory (the caller then closes it). */
static struct addr_count *count_addr(struct api_conns *c, const struct sockaddr *sa)
{
  uint8_t key[17];
  struct addr_count *a;

  if (!address_key(sa, key))
    return NULL;
  a = find_addr(c, key);
  if (!a) {
    a = calloc(1, sizeof(*a));
    if (!a)
      return NULL;
    memcpy(a->key, key, 17);
    a->next = *slot_of(c, key);
    *slot_of(c, key) = a;
  }
  a->count++;
  return a;
}

static void uncount_addr(struct api_conns *c, struct addr_count *a)
{
  struct addr_count **p;

  if (!a || --a->count > 0)
    return;
  for (p = slot_of(c, a->key); *p != a; p = &(*p)->next)
    ;
  *p = a->next;
  free(a);
}

struct api_conn *api_conns_opened(struct api_conns *c, struct MHD_Connection *conn)
{
  const union MHD_ConnectionInfo *fd =
      MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
  const union MHD_ConnectionInfo *addr =
      MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  struct api_conn *k = calloc(1, sizeof(*k));

  if (!k || !fd) {
    free(k);
    return NULL; /* untracked: out of memory is no reason to refuse a client */
  }
  k->fd = fd->connect_fd;
  atomic_init(&k->state, conn_state(mono_ms() + c->head_ms, false));
  pthread_mutex_lock(&c->lock);
  k->addr = addr ? count_addr(c, addr->client_addr) : NULL;
  k->next = c->all;
  if (c->all)
    c->all->prev = k;
  c->all = k;
  if (++c->open > c->open_peak)
    c->open_peak = c->open;
  pthread_mutex_unlock(&c->lock);
  return k;
}

void api_conns_closed(struct api_conns *c, struct api_conn *k)
{
  if (!k)
    return;
  pthread_mutex_lock(&c->lock);
  if (k->prev)
    k->prev->next = k->next;
  else
    c->all = k->next;
  if (k->next)
    k->next->prev = k->prev;
  c->open--;
  uncount_addr(c, k->addr);
  if (k->linger)
    start_lingering(c, k);
  pthread_mutex_unlock(&c->lock);
  free(k);
}

/* Set the deadline unless the sweeper has already closed the connection;
 * false when it has. No lock: see struct api_conn. */
static bool set_deadline(struct api_conn *k, int64_t deadline, bool idle)
{
  int64_t state;

  if (!k)
    return true;
  state = atomic_load(&k->state);
  do {
    if (state == CONN_LATE)
      return false;
  } while (!atomic_compare_exchange_weak(&k->state, &state, conn_state(deadline, idle)));
  return true;
}

bool api_conns_head_done(struct api_conns *c, struct api_conn *k)
{
  return set_deadline(k, mono_ms() + c->body_ms, false);
}

bool api_conns_answering(struct api_conns *c, struct api_conn *k)
{
  (void)c;
  return set_deadline(k, 0, false);
}

void api_conns_answered(struct api_conns *c, struct api_conn *k)
{
  set_deadline(k, mono_ms() + c->head_ms, true);
}

void api_conns_linger(struct api_conns *c, struct api_conn *k)
{
  if (!k)
    return;
  pthread_mutex_lock(&c->lock);
  k->linger = atomic_load(&k->state) != CONN_LATE;
  pthread_mutex_unlock(&c->lock);
}
