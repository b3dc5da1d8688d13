/*
 * open.c - opening and closing the PostgreSQL backend: the pool, the
 * start-up migrations, and the method table that hands the slots to
 * db_open.
 */
#include "internal.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* db_open took the scheme and its "//" off ("postgres://" or
 * "postgresql://"); libpq wants a URL back, which it takes in either
 * spelling. Around the URL's own parameters go two of ours: first a
 * connect_timeout, so a server that does not answer fails the start-up (or
 * a reconnection) after 10 s instead of never, which the URL may change;
 * last the settings every query relies on, which it may not: bytea read
 * back as hex (conn.c decodes only that) and UTC for any timestamp the
 * server prints. (libpq takes the last of a repeated parameter.) */
static char *conninfo_of(const char *location, const char *node)
{
  static const char first[] = "connect_timeout=10";
  /* The node's name goes with the settings: the notification triggers
   * read it (internal.h, DB_PG_NODE_HEX). */
  static const char last[] = "options=-c%20bytea_output%3Dhex%20-c%20TimeZone%3DUTC"
                             "%20-c%20cairn.node%3D";
  const char *query = strchr(location, '?');
  int path_len = query ? (int)(query - location) : (int)strlen(location);
  size_t size =
      strlen("postgresql://") + strlen(location) + sizeof(first) + sizeof(last) + strlen(node) + 4;
  char *out = malloc(size);

  if (!out)
    return NULL;
  snprintf(out, size, "postgresql://%.*s?%s%s%s&%s%s", path_len, location, first,
           query && query[1] ? "&" : "", query ? query + 1 : "", last, node);
  return out;
}

/* A fresh name for this node: two nodes drawing the same one would each
 * take the other's changes for its own (1 in 2^64). */
static void draw_node(char out[DB_PG_NODE_HEX + 1])
{
  uint8_t raw[DB_PG_NODE_HEX / 2];

  randombytes_buf(raw, sizeof(raw));
  sodium_bin2hex(out, DB_PG_NODE_HEX + 1, raw, sizeof(raw));
}

static void close_backend(void *ctx)
{
  struct db_pg *c = ctx;

  if (!c)
    return;
  /* Every slot has returned its connection by now (db_close is the last
   * call), so the idle ones are all there are. */
  while (c->n_idle > 0)
    PQfinish(c->idle[--c->n_idle]);
  pthread_cond_destroy(&c->freed);
  pthread_mutex_destroy(&c->lock);
  free(c->conninfo);
  free(c);
}

enum cairn_status db_postgres_open(const char *location, void **ctx, struct cairn_error *err)
{
  struct db_pg *c = calloc(1, sizeof(*c));
  enum cairn_status st;
  PGconn *conn = NULL;

  *ctx = NULL;
  if (c)
    draw_node(c->node);
  if (!c || !(c->conninfo = conninfo_of(location, c->node))) {
    free(c);
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while opening the database");
  }
  pthread_mutex_init(&c->lock, NULL);
  pthread_cond_init(&c->freed, NULL);
  st = db_pg_connect(c->conninfo, &conn, err);
  if (st == CAIRN_OK)
    st = db_pg_migrate(conn, db_pg_migrations, err);
  if (st != CAIRN_OK) {
    if (conn)
      PQfinish(conn);
    close_backend(c);
    return st;
  }
  /* The first connection joins the pool: it has shown the server works. */
  c->idle[c->n_idle++] = conn;
  c->n_open = 1;
  *ctx = c;
  return CAIRN_OK;
}

const struct db_methods db_postgres_methods = {
    .name = "postgres",
    .close = close_backend,
    .player_create = db_pg_player_create,
    .player_by_token = db_pg_player_by_token,
    .game_create = db_pg_game_create,
    .game_load = db_pg_game_load,
    .seat_take = db_pg_seat_take,
    .move_append = db_pg_move_append,
    .moves_load = db_pg_moves_load,
    .moves_load_lean = db_pg_moves_load_lean,
    .game_import = db_pg_game_import,
    .player_games = db_pg_player_games,
    .games_unfinished_by = db_pg_games_unfinished_by,
    .game_touch = db_pg_game_touch,
    .games_overdue = db_pg_games_overdue,
    .clocks_load = db_pg_clocks_load,
    .clocks_save = db_pg_clocks_save,
    .vacation_add = db_pg_vacation_add,
    .vacations_of = db_pg_vacations_of,
    .webhook_create = db_pg_webhook_create,
    .webhooks_of_owner = db_pg_webhooks_of_owner,
    .webhooks_of_game = db_pg_webhooks_of_game,
    .webhook_delete = db_pg_webhook_delete,
    .webhook_get = db_pg_webhook_get,
    .mention_put = db_pg_mention_put,
    .mentions_of = db_pg_mentions_of,
    .delivery_record = db_pg_delivery_record,
    .deliveries_of = db_pg_deliveries_of,
    .games_each = db_pg_games_each,
    .games_active_each = db_pg_games_active_each,
    .outbox_put = db_pg_outbox_put,
    .outbox_remove = db_pg_outbox_remove,
    .outbox_each = db_pg_outbox_each,
    .token_add = db_pg_token_add,
    .tokens_replace = db_pg_tokens_replace,
    .sign_in_code_put = db_pg_sign_in_code_put,
    .sign_in_code_take = db_pg_sign_in_code_take,
    .listen_start = db_pg_listen_start,
    .listen_stop = db_pg_listen_stop,
    .outbox_claim = db_pg_outbox_claim,
    .outbox_renew = db_pg_outbox_renew,
    .outbox_release = db_pg_outbox_release,
    .games_bots_idle = db_pg_games_bots_idle,
    .games_lobby = db_pg_games_lobby,
    .invitations_of = db_pg_invitations_of,
    .invitation_decline = db_pg_invitation_decline,
    .games_archive = db_pg_games_archive,
    .game_cancel = db_pg_game_cancel,
    .chat_post = db_pg_chat_post,
    .chat_list = db_pg_chat_list,
    .chat_get = db_pg_chat_get,
    .chat_delete = db_pg_chat_delete,
    .ratings_of = db_pg_ratings_of,
    .leaderboard = db_pg_leaderboard,
    .ratings_each = db_pg_ratings_each,
    .rated_games_each = db_pg_rated_games_each,
    .player_get = db_pg_player_get,
};
