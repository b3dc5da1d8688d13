/*
 * server.h - starting the HTTP daemon (server.c), used by cli/main.c.
 */
#ifndef API_SERVER_H
#define API_SERVER_H

#include <netinet/in.h>

#include "api.h"

struct MHD_Daemon;

/* Open connections at most, idle waiters included (--max-connections). */
#define API_CONNECTION_LIMIT 20000

/* Connections one client address may hold at once (--max-connections-per-address). */
#define API_CONNECTIONS_PER_ADDRESS 64
/* A request's head must arrive within this many seconds of the connection
 * opening or of the previous answer on it (--head-timeout); its body within
 * API_BODY_TIMEOUT_S of the head (--body-timeout). */
#define API_HEAD_TIMEOUT_S 30
#define API_BODY_TIMEOUT_S 60

struct sockaddr;
struct MHD_Connection;
struct api_conn; /* one tracked connection */

/* ---- conns.c: per-address connection caps and request deadlines ---- */

/* A table of open connections with at most `per_address` (0: no cap) per
 * client address, and a sweeper thread that closes, with a 408
 * problem+json, connections whose request head has not arrived within
 * `head_ms` or whose body has not within `body_ms`. NULL when out of
 * memory or the thread cannot start. */
struct api_conns *api_conns_new(int per_address, int64_t head_ms, int64_t body_ms);
/* Stop the sweeper (before the daemon stops); free after it has stopped.
 * Both accept NULL. */
void api_conns_stop(struct api_conns *conns);
void api_conns_free(struct api_conns *conns);

/* The accept policy: false when `addr` already holds its cap. */
bool api_conns_admit(struct api_conns *conns, const struct sockaddr *addr);
/* libmicrohttpd opened or closed a connection: count it, give it its head
 * deadline; forget it. opened may return NULL (untracked), closed accepts
 * NULL. */
struct api_conn *api_conns_opened(struct api_conns *conns, struct MHD_Connection *conn);
void api_conns_closed(struct api_conns *conns, struct api_conn *k);
/* The request's head has arrived: its body's deadline starts. */
bool api_conns_head_done(struct api_conns *conns, struct api_conn *k);
/* The request is complete and being answered or parked: no deadline. */
bool api_conns_answering(struct api_conns *conns, struct api_conn *k);
/* An answer was sent: the next request's head deadline starts. */
void api_conns_answered(struct api_conns *conns, struct api_conn *k);
/* (head_done and answering return false when the sweeper has closed the
 * connection already: the caller then drops it, answering nothing.) */
/* The request is refused, and the connection closed, before its body is
 * read: once libmicrohttpd closes it, keep reading and dropping what the
 * client still sends for a bounded time, so the refusal is not lost to a
 * reset (a lingering close). Accepts NULL. */
void api_conns_linger(struct api_conns *conns, struct api_conn *k);

/* ---- later.c: answers that come later (struct api_later, api.h) ---- */

/* The threads that answer parked requests (api_later_done): new, NULL when
 * none could start; stop waits for those queued and ends the threads
 * (api_later_done answers inline after it); free also stops, and releases
 * the memory, which api_later_done reads until storage's committer ends. */
struct api_finisher *api_finisher_new(void);
void api_finisher_stop(struct api_finisher *finisher);
void api_finisher_free(struct api_finisher *finisher);
/* On the connection's thread, in its handler: park `conn` until `later` is
 * answered; false when it is answered already (send it now). */
bool api_later_park(struct api_server *server, struct MHD_Connection *conn,
                    struct api_later *later);
/* A parked later was answered (api_server_settled counts it no more). */
void api_later_answered(struct api_server *server);
/* The connection ended with `later` parked: wait for its answer, then
 * drop it. */
void api_later_forget(struct api_later *later);

/* Start serving `server` on `addr`, at most server->max_connections (> 0)
 * connections at once. NULL if the daemon could not start. Stop with
 * MHD_stop_daemon(). */
struct MHD_Daemon *api_server_start(struct api_server *server, const struct sockaddr_in *addr);

#endif
