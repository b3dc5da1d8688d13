/*
 * listen.c - hearing the changes other nodes commit (issue 23): one
 * connection of its own, outside the pool, LISTENs on DB_PG_CHANNEL, which
 * the triggers of migrations/postgres/0002_notify.sql notify in every
 * transaction that changes a game, and on CHAT_CHANNEL, which those of
 * 0009_notify_chat.sql notify for every chat message posted or deleted
 * (issue 25), and on INVITATION_CHANNEL, which 0010_notify_invitations.sql
 * notifies for every invitation declined or withdrawn by a cancel, and a
 * thread of its own hands each notification of another
 * node to the caller's callback. What the caller
 * does with it (the game layer publishes it) is not this file's concern.
 *
 * The thread sleeps in poll() on the connection's socket and on a pipe,
 * whose one byte is how listen_stop wakes it. A connection that breaks
 * (the server restarted, an administrator ended it) is made again, with a
 * growing pause between attempts; notifications sent meanwhile are lost
 * to this node, so after each reconnection the callback is told so
 * (change NULL) and the caller re-checks whatever it was waiting for.
 */
#include "internal.h"
#include "../../log/log.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Pauses between attempts to connect again: from the first, doubling up to
 * the last, so a node finds a restarted server within a second or two and
 * a server that stays down is not asked more than every 5 s. */
#define RETRY_FIRST_MS 50
#define RETRY_MAX_MS   5000

/* Over TCP, a connection whose peer vanished (a cable, a crashed host)
 * looks idle for ever to a listener that only reads: the kernel's
 * keep-alive probes find it after about a minute instead of two hours.
 * They come first in the URL, so the operator's own values win. */
static const char keepalives[] = "keepalives_idle=30&keepalives_interval=10&keepalives_count=3&";
/* Named, so an operator (and test_pg_nodes) can find it in
 * pg_stat_activity; last, so it is ours whatever the URL says. */
static const char app_name[] = "&application_name=cairn-listen";

/* The channel 0009_notify_chat.sql's triggers notify on. */
#define CHAT_CHANNEL "cairn_chat"
/* The channel 0010_notify_invitations.sql's trigger notifies on. */
#define INVITATION_CHANNEL "cairn_invitations"

struct db_listener {
  struct db_pg *c; /* borrowed: the store, for its conninfo and node */
  db_change_cb cb;
  void *arg;
  char *conninfo; /* owned: the store's, with keepalives_* and application_name */
  PGconn *conn;   /* the LISTENing connection, NULL while it is being made again */
  int wake[2];    /* a pipe: a byte written to wake[1] stops the thread */
  pthread_t thread;
  _Atomic bool stopping;
};

/* The store's URL with the listener's parameters around its own. */
static char *listen_conninfo(const char *conninfo)
{
  const char *query = strchr(conninfo, '?');
  size_t size = strlen(conninfo) + sizeof(keepalives) + sizeof(app_name);
  char *out = malloc(size);

  if (!out || !query) {
    free(out);
    return NULL;
  }
  snprintf(out, size, "%.*s%s%s%s", (int)(query + 1 - conninfo), conninfo, keepalives, query + 1,
           app_name);
  return out;
}

/* A new connection that LISTENs; NULL (logged) when it cannot be made. */
static PGconn *connect_listening(const struct db_listener *l)
{
  struct cairn_error err = {0};
  PGconn *conn = NULL;
  PGresult *res;

  if (db_pg_connect(l->conninfo, &conn, &err) != CAIRN_OK)
    return NULL;
  res =
      PQexec(conn, "LISTEN " DB_PG_CHANNEL "; LISTEN " CHAT_CHANNEL "; LISTEN " INVITATION_CHANNEL);
  if (PQresultStatus(res) != PGRES_COMMAND_OK || PQsetnonblocking(conn, 1) != 0) {
    log_line(LOG_ERROR, "db", "listening for other nodes' changes: %s", PQerrorMessage(conn));
    PQclear(res);
    PQfinish(conn);
    return NULL;
  }
  PQclear(res);
  return conn;
}

/* A payload "<game> <seq> <moves> <node>" into *out (its game_id points
 * into `id`); false for one that is not, which only a writer other than
 * the triggers could send. */
static bool parse_payload(const char *payload, char id[DB_ID_MAX + 1],
                          char node[DB_PG_NODE_HEX + 2], struct db_change *out)
{
  unsigned long seq, moves;

  node[0] = '\0';
  memset(out, 0, sizeof(*out));
  /* DB_ID_MAX and DB_PG_NODE_HEX + 1 characters at most: a longer node
   * cannot be ours. */
  if (sscanf(payload, "%32s %lu %lu %17s", id, &seq, &moves, node) < 3 || seq > UINT32_MAX ||
      moves > UINT32_MAX)
    return false;
  out->game_id = id;
  out->seq = (uint32_t)seq;
  out->moves = (uint32_t)moves;
  return true;
}

/* A chat payload "<game> <channel> <n> <deleted> <node>" into *out, as
 * parse_payload does a game's. */
static bool parse_chat_payload(const char *payload, char id[DB_ID_MAX + 1],
                               char node[DB_PG_NODE_HEX + 2], struct db_change *out)
{
  unsigned long n;
  int channel, deleted;

  node[0] = '\0';
  memset(out, 0, sizeof(*out));
  if (sscanf(payload, "%32s %d %lu %d %17s", id, &channel, &n, &deleted, node) < 4 ||
      (channel != DB_CHAT_PLAYERS && channel != DB_CHAT_SPECTATORS) || n < 1 || n > UINT32_MAX ||
      (deleted != 0 && deleted != 1))
    return false;
  out->game_id = id;
  out->chat = 1 + channel;
  out->chat_n = (uint32_t)n;
  out->chat_deleted = deleted == 1;
  return true;
}

/* An invitation's payload "<game> <seat> <invitee> <how> <node>" into
 * *out (its invitee points into `invitee`), as parse_payload does a
 * game's. */
static bool parse_invitation_payload(const char *payload, char id[DB_ID_MAX + 1],
                                     char invitee[DB_ID_MAX + 1], char node[DB_PG_NODE_HEX + 2],
                                     struct db_change *out)
{
  char how[16];
  int seat;

  node[0] = '\0';
  memset(out, 0, sizeof(*out));
  if (sscanf(payload, "%32s %d %32s %15s %17s", id, &seat, invitee, how, node) < 4 || seat < 0 ||
      seat >= ENGINE_MAX_SEATS)
    return false;
  if (strcmp(how, "declined") == 0)
    out->invitation = DB_INVITATION_DECLINED;
  else if (strcmp(how, "cancelled") == 0)
    out->invitation = DB_INVITATION_CANCELLED;
  else
    return false;
  out->game_id = id;
  out->invitation_seat = seat;
  out->invitee = invitee;
  return true;
}

/* A notification on `channel` into *out, false when it is not what that
 * channel carries; what it should have been into *what. */
static bool parse_notification(const char *channel, const char *payload, char id[DB_ID_MAX + 1],
                               char invitee[DB_ID_MAX + 1], char node[DB_PG_NODE_HEX + 2],
                               struct db_change *out, const char **what)
{
  if (strcmp(channel, CHAT_CHANNEL) == 0) {
    *what = "a chat message's";
    return parse_chat_payload(payload, id, node, out);
  }
  if (strcmp(channel, INVITATION_CHANNEL) == 0) {
    *what = "an invitation's end";
    return parse_invitation_payload(payload, id, invitee, node, out);
  }
  *what = "a game's change";
  return parse_payload(payload, id, node, out);
}

/* Hand the notifications read so far to the callback, but this node's own:
 * it announced those itself when it committed them. */
static void deliver(struct db_listener *l)
{
  PGnotify *n;

  while ((n = PQnotifies(l->conn))) {
    char id[DB_ID_MAX + 1], invitee[DB_ID_MAX + 1], node[DB_PG_NODE_HEX + 2];
    struct db_change change;
    const char *what;

    if (!parse_notification(n->relname, n->extra, id, invitee, node, &change, &what))
      log_line(LOG_ERROR, "db", "a notification on %s that is not %s", n->relname, what);
    else if (strcmp(node, l->c->node) != 0)
      l->cb(l->arg, &change);
    PQfreemem(n);
  }
}

/* Sleep up to `ms`, or until listen_stop; true when stopping. */
static bool pause_unless_stopped(struct db_listener *l, int ms)
{
  struct pollfd wake = {.fd = l->wake[0], .events = POLLIN};

  if (atomic_load(&l->stopping))
    return true;
  poll(&wake, 1, ms);
  return atomic_load(&l->stopping);
}

/* Until the connection is LISTENing again (true), or listen_stop (false).
 * Then the callback hears that changes may have been missed meanwhile:
 * the LISTEN came first, so none is missed after it. */
static bool reconnect(struct db_listener *l)
{
  int retry_ms = RETRY_FIRST_MS;

  log_line(LOG_WARN, "db", "the connection hearing other nodes' changes broke; reconnecting");
  for (;;) {
    if (pause_unless_stopped(l, retry_ms))
      return false;
    l->conn = connect_listening(l);
    if (l->conn)
      break;
    retry_ms = retry_ms * 2 < RETRY_MAX_MS ? retry_ms * 2 : RETRY_MAX_MS;
  }
  log_line(LOG_INFO, "db", "hearing other nodes' changes again");
  l->cb(l->arg, NULL);
  deliver(l); /* any that came with the LISTEN's answer */
  return true;
}

/* Wait for the socket (or the pipe) and read what came; false when the
 * connection broke. */
static bool read_some(struct db_listener *l)
{
  struct pollfd fds[2] = {{.fd = PQsocket(l->conn), .events = POLLIN},
                          {.fd = l->wake[0], .events = POLLIN}};

  if (poll(fds, 2, -1) < 0)
    return errno == EINTR;
  if (fds[1].revents || !fds[0].revents)
    return true; /* listen_stop, which the loop sees */
  if (!PQconsumeInput(l->conn) || PQstatus(l->conn) != CONNECTION_OK)
    return false;
  deliver(l);
  return true;
}

static void *listen_main(void *arg)
{
  struct db_listener *l = arg;

  deliver(l); /* any that came with the first LISTEN's answer */
  while (!atomic_load(&l->stopping)) {
    if (read_some(l))
      continue;
    PQfinish(l->conn);
    l->conn = NULL;
    if (!reconnect(l))
      break;
  }
  return NULL;
}

static void free_listener(struct db_listener *l)
{
  if (l->conn)
    PQfinish(l->conn);
  if (l->wake[0] >= 0)
    close(l->wake[0]);
  if (l->wake[1] >= 0)
    close(l->wake[1]);
  free(l->conninfo);
  free(l);
}

enum cairn_status db_pg_listen_start(void *ctx, db_change_cb cb, void *arg,
                                     struct db_listener **out, struct cairn_error *err)
{
  struct db_listener *l = calloc(1, sizeof(*l));

  *out = NULL;
  if (!l)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  l->c = ctx;
  l->cb = cb;
  l->arg = arg;
  l->wake[0] = l->wake[1] = -1;
  l->conninfo = listen_conninfo(l->c->conninfo);
  if (!l->conninfo || pipe2(l->wake, O_CLOEXEC) != 0) {
    free_listener(l);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of resources while listening for other nodes' changes");
  }
  /* The first connection is made here, so a node that cannot listen does
   * not start; and nothing can have been missed before it. */
  l->conn = connect_listening(l);
  if (!l->conn) {
    free_listener(l);
    return cairn_fail(err, CAIRN_EDB, CAIRN_CODE_STORAGE, NULL,
                      "cannot listen for other nodes' changes");
  }
  if (pthread_create(&l->thread, NULL, listen_main, l) != 0) {
    free_listener(l);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "cannot start the thread hearing other nodes' changes");
  }
  *out = l;
  return CAIRN_OK;
}

void db_pg_listen_stop(void *ctx, struct db_listener *l)
{
  (void)ctx;
  if (!l)
    return;
  atomic_store(&l->stopping, true);
  if (write(l->wake[1], "x", 1) != 1)
    log_line(LOG_ERROR, "db", "cannot wake the listener: %s", strerror(errno));
  pthread_join(l->thread, NULL);
  free_listener(l);
}
