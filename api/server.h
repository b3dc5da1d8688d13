/*
 * server.h - starting the HTTP daemon (server.c), used by main.c.
 */
#ifndef API_SERVER_H
#define API_SERVER_H

#include <netinet/in.h>

#include "api.h"

struct MHD_Daemon;

/* Open connections at most, idle waiters included (--max-connections). */
#define API_CONNECTION_LIMIT 20000

/* Start serving `server` on `addr`, at most server->max_connections (> 0)
 * connections at once. NULL if the daemon could not start. Stop with
 * MHD_stop_daemon(). */
struct MHD_Daemon *api_server_start(struct api_server *server, const struct sockaddr_in *addr);

#endif
