/*
 * webhooks.c - the webhook methods of the PostgreSQL backend:
 * registrations, their delivery log and the outbox of deliveries still
 * owed. Rows are copied out before any callback runs, with the connection
 * back in the pool, so callbacks may use other slots.
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns read_hook reads, in its order, of a webhook row named `w`:
 * every query that hands out webhooks selects these first. */
#define HOOK_COLUMNS                                                                               \
  "w.id, w.owner, coalesce(w.game_id, ''), w.url, w.format, w.mention, w.secret, w.created_ms"
#define HOOK_NCOLUMNS 8

enum cairn_status db_pg_webhook_create(void *ctx, const struct db_webhook *hook,
                                       struct cairn_error *err)
{
  struct db_pg_params p = {0};
  char state[6];
  enum cairn_status st;

  assert(ctx && hook);
  db_pg_text(&p, hook->id);
  db_pg_text(&p, hook->owner);
  db_pg_text(&p, hook->game_id);
  db_pg_text(&p, hook->url);
  db_pg_text(&p, hook->format);
  db_pg_text(&p, hook->mention);
  db_pg_bytes(&p, hook->secret, sizeof(hook->secret));
  db_pg_int(&p, hook->created_ms);
  st = db_pg_write(ctx,
                   "INSERT INTO webhooks (id, owner, game_id, url, format, mention, secret,"
                   " created_ms) VALUES ($1, $2, nullif($3, ''), $4, $5, $6, $7, $8)",
                   &p, NULL, state, "registering a webhook", err);
  if (st != CAIRN_OK && db_pg_state_is(state, DB_PG_FOREIGN_KEY_VIOLATION))
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no game %s",
                      hook->game_id);
  return st;
}

/* Row `row`'s webhook (HOOK_COLUMNS) into *h. */
static enum cairn_status read_hook(const PGresult *res, int row, struct db_webhook *h,
                                   struct cairn_error *err)
{
  static const char what[] = "loading webhooks";
  enum cairn_status st;

  memset(h, 0, sizeof(*h));
  st = db_pg_copy(res, row, 0, h->id, sizeof(h->id), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 1, h->owner, sizeof(h->owner), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 2, h->game_id, sizeof(h->game_id), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 3, h->url, sizeof(h->url), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 4, h->format, sizeof(h->format), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, 5, h->mention, sizeof(h->mention), what, err);
  if (st == CAIRN_OK)
    db_pg_bytes_of(res, row, 6, h->secret, sizeof(h->secret));
  h->created_ms = db_pg_int64(res, row, 7);
  return st;
}

/* Run a webhook query (one text parameter) and visit its rows. */
static enum cairn_status each_hook(struct db_pg *c, const char *sql, const char *param,
                                   db_webhook_cb cb, void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  struct db_webhook hook;
  PGresult *res = NULL;
  enum cairn_status st;
  int row;

  db_pg_text(&p, param);
  st = db_pg_read(c, sql, &p, &res, "loading webhooks", err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res); row++) {
    st = read_hook(res, row, &hook, err);
    if (st == CAIRN_OK)
      st = cb(arg, &hook, err);
  }
  PQclear(res);
  return st;
}

enum cairn_status db_pg_webhooks_of_owner(void *ctx, const char *owner, db_webhook_cb cb, void *arg,
                                          struct cairn_error *err)
{
  return each_hook(
      ctx, "SELECT " HOOK_COLUMNS " FROM webhooks w WHERE owner = $1 ORDER BY created_ms, id",
      owner, cb, arg, err);
}

enum cairn_status db_pg_webhooks_of_game(void *ctx, const char *game_id, db_webhook_cb cb,
                                         void *arg, struct cairn_error *err)
{
  return each_hook(ctx,
                   "SELECT " HOOK_COLUMNS " FROM webhooks w WHERE game_id = $1"
                   " OR (game_id IS NULL AND owner IN (SELECT player_id FROM seats"
                   " WHERE game_id = $1)) ORDER BY created_ms, id",
                   game_id, cb, arg, err);
}

enum cairn_status db_pg_webhook_delete(void *ctx, const char *id, const char *owner,
                                       struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  db_pg_text(&p, id);
  db_pg_text(&p, owner);
  /* The delivery log and the outbox go with it (ON DELETE CASCADE). */
  st = db_pg_write(ctx, "DELETE FROM webhooks WHERE id = $1 AND owner = $2", &p, &res, NULL,
                   "deleting a webhook", err);
  if (st == CAIRN_OK && strcmp(PQcmdTuples(res), "0") == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "you have no webhook %s", id);
  PQclear(res);
  return st;
}

enum cairn_status db_pg_delivery_record(void *ctx, const struct db_delivery *d,
                                        struct cairn_error *err)
{
  struct db_pg_params p = {0};
  char state[6];
  enum cairn_status st;

  db_pg_text(&p, d->webhook_id);
  db_pg_text(&p, d->event);
  db_pg_text(&p, d->game_id);
  db_pg_int(&p, d->attempt);
  db_pg_int(&p, d->at_ms);
  db_pg_int(&p, d->http_status);
  db_pg_text(&p, d->error);
  db_pg_text(&p, d->delivered ? "true" : "false");
  st = db_pg_write(ctx,
                   "INSERT INTO deliveries (webhook_id, event, game_id, attempt, at_ms,"
                   " http_status, error, delivered)"
                   " VALUES ($1, $2, $3, $4, $5, nullif($6::integer, 0), nullif($7, ''), $8)",
                   &p, NULL, state, "recording a delivery", err);
  /* The webhook may have been deleted while its delivery was in flight. */
  if (st != CAIRN_OK && db_pg_state_is(state, DB_PG_FOREIGN_KEY_VIOLATION))
    return CAIRN_OK;
  return st;
}

enum cairn_status db_pg_deliveries_of(void *ctx, const char *webhook_id, int limit,
                                      db_delivery_cb cb, void *arg, struct cairn_error *err)
{
  static const char what[] = "loading deliveries";
  struct db_pg_params p = {0};
  struct db_delivery d;
  PGresult *res = NULL;
  enum cairn_status st;
  int row;

  db_pg_text(&p, webhook_id);
  db_pg_int(&p, limit);
  st = db_pg_read(ctx,
                  "SELECT id, webhook_id, event, game_id, attempt, at_ms, coalesce(http_status, 0),"
                  " coalesce(error, ''), delivered FROM deliveries WHERE webhook_id = $1"
                  " ORDER BY id DESC LIMIT $2",
                  &p, &res, what, err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res) && row < limit; row++) {
    memset(&d, 0, sizeof(d));
    d.id = db_pg_int64(res, row, 0);
    st = db_pg_copy(res, row, 1, d.webhook_id, sizeof(d.webhook_id), what, err);
    if (st == CAIRN_OK)
      st = db_pg_copy(res, row, 2, d.event, sizeof(d.event), what, err);
    if (st == CAIRN_OK)
      st = db_pg_copy(res, row, 3, d.game_id, sizeof(d.game_id), what, err);
    if (st == CAIRN_OK)
      st = db_pg_copy(res, row, 7, d.error, sizeof(d.error), what, err);
    d.attempt = (int)db_pg_int64(res, row, 4);
    d.at_ms = db_pg_int64(res, row, 5);
    d.http_status = (int)db_pg_int64(res, row, 6);
    d.delivered = db_pg_bool(res, row, 8);
    if (st == CAIRN_OK)
      st = cb(arg, &d, err);
  }
  PQclear(res);
  return st;
}

/* ---- the outbox: deliveries still owed ---- */

/* What read_owed reads of an outbox row named `o`, after HOOK_COLUMNS. */
#define OWED_COLUMNS                                                                               \
  "o.delivery_id, o.event, o.game_id, o.body, o.attempt, o.due_ms, coalesce(o.claimed_by, ''),"    \
  " o.claimed_until"

/* Append `owed` as the first nine parameters of an outbox insert (the
 * last two its lease, migration 0003). */
static void bind_owed(struct db_pg_params *p, const struct db_outbox *owed)
{
  db_pg_text(p, owed->delivery_id);
  db_pg_text(p, owed->webhook_id);
  db_pg_text(p, owed->event);
  db_pg_text(p, owed->game_id);
  db_pg_text(p, owed->body);
  db_pg_int(p, owed->attempt);
  db_pg_int(p, owed->due_ms);
  db_pg_text(p, owed->claimed_by);
  db_pg_int(p, owed->claimed_until);
}

enum cairn_status db_pg_outbox_put(void *ctx, const struct db_outbox *owed, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  char state[6];
  enum cairn_status st;

  assert(ctx && owed && owed->body);
  bind_owed(&p, owed);
  st = db_pg_write(ctx,
                   "INSERT INTO webhook_outbox (delivery_id, webhook_id, event, game_id, body,"
                   " attempt, due_ms, claimed_by, claimed_until)"
                   " VALUES ($1, $2, $3, $4, $5, $6, $7, nullif($8, ''), $9)"
                   " ON CONFLICT (delivery_id) DO UPDATE SET attempt = excluded.attempt,"
                   " due_ms = excluded.due_ms",
                   &p, NULL, state, "storing a webhook delivery", err);
  if (st != CAIRN_OK && db_pg_state_is(state, DB_PG_FOREIGN_KEY_VIOLATION))
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no webhook %s",
                      owed->webhook_id);
  return st;
}

enum cairn_status db_pg_write_outbox(PGconn *conn, const struct db_outbox *owed, int n,
                                     struct cairn_error *err)
{
  enum cairn_status st = CAIRN_OK;
  int i;

  /* A webhook deleted since the change was judged is owed nothing: its
   * row is skipped rather than failing the move that owes it. */
  for (i = 0; st == CAIRN_OK && i < n; i++) {
    struct db_pg_params p = {0};

    assert(owed[i].body);
    bind_owed(&p, &owed[i]);
    st = db_pg_run(conn,
                   "INSERT INTO webhook_outbox (delivery_id, webhook_id, event, game_id, body,"
                   " attempt, due_ms, claimed_by, claimed_until) SELECT $1, $2, $3, $4, $5,"
                   " $6::integer, $7::bigint, nullif($8::text, ''), $9::bigint"
                   " WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = $2)",
                   &p, "storing the webhook deliveries a change owes", err);
  }
  return st;
}

enum cairn_status db_pg_outbox_remove(void *ctx, const char *delivery_id, struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, delivery_id);
  return db_pg_write(ctx, "DELETE FROM webhook_outbox WHERE delivery_id = $1", &p, NULL, NULL,
                     "forgetting a webhook delivery", err);
}

/* Row `row` of outbox_each's result into *owed and *hook; owed->body
 * points into `res`. */
static enum cairn_status read_owed(const PGresult *res, int row, struct db_outbox *owed,
                                   struct db_webhook *hook, struct cairn_error *err)
{
  static const char what[] = "loading owed webhook deliveries";
  enum cairn_status st = read_hook(res, row, hook, err);

  memset(owed, 0, sizeof(*owed));
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, HOOK_NCOLUMNS, owed->delivery_id, sizeof(owed->delivery_id), what,
                    err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, HOOK_NCOLUMNS + 1, owed->event, sizeof(owed->event), what, err);
  if (st == CAIRN_OK)
    st = db_pg_copy(res, row, HOOK_NCOLUMNS + 2, owed->game_id, sizeof(owed->game_id), what, err);
  if (st != CAIRN_OK)
    return st;
  snprintf(owed->webhook_id, sizeof(owed->webhook_id), "%s", hook->id);
  owed->body = PQgetvalue(res, row, HOOK_NCOLUMNS + 3);
  owed->attempt = (int)db_pg_int64(res, row, HOOK_NCOLUMNS + 4);
  owed->due_ms = db_pg_int64(res, row, HOOK_NCOLUMNS + 5);
  owed->claimed_until = db_pg_int64(res, row, HOOK_NCOLUMNS + 7);
  return db_pg_copy(res, row, HOOK_NCOLUMNS + 6, owed->claimed_by, sizeof(owed->claimed_by), what,
                    err);
}

/* Visit the rows of `res` (HOOK_COLUMNS then OWED_COLUMNS) and clear it. */
static enum cairn_status visit_owed(PGresult *res, enum cairn_status st, db_outbox_cb cb, void *arg,
                                    struct cairn_error *err)
{
  struct db_outbox owed;
  struct db_webhook hook;
  int row;

  for (row = 0; st == CAIRN_OK && row < PQntuples(res); row++) {
    st = read_owed(res, row, &owed, &hook, err);
    if (st == CAIRN_OK)
      st = cb(arg, &owed, &hook, err);
  }
  PQclear(res);
  return st;
}

enum cairn_status db_pg_outbox_each(void *ctx, db_outbox_cb cb, void *arg, struct cairn_error *err)
{
  PGresult *res = NULL;
  enum cairn_status st;

  st = db_pg_read(ctx,
                  "SELECT " HOOK_COLUMNS ", " OWED_COLUMNS
                  " FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id"
                  " ORDER BY o.due_ms, o.delivery_id",
                  NULL, &res, "loading owed webhook deliveries", err);
  return visit_owed(res, st, cb, arg, err);
}

/* ---- leases (migration 0003): which node sends a delivery ---- */

enum cairn_status db_pg_outbox_claim(void *ctx, const char *node, int64_t now_ms, int64_t until_ms,
                                     int max, db_outbox_cb cb, void *arg, int *n,
                                     struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  enum cairn_status st;

  assert(ctx && node && node[0]);
  db_pg_text(&p, node);
  db_pg_int(&p, now_ms);
  db_pg_int(&p, until_ms);
  db_pg_int(&p, max);
  /* SKIP LOCKED: a row another claimer has locked is passed over, not
   * waited for, so of two claimers each gets rows the other did not; the
   * UPDATE's own re-check of the WHERE after a lock (READ COMMITTED) keeps
   * a row claimed meanwhile from being claimed twice. */
  st = db_pg_write(ctx,
                   "WITH c AS (UPDATE webhook_outbox o SET claimed_by = $1, claimed_until = $3"
                   " WHERE o.delivery_id IN (SELECT delivery_id FROM webhook_outbox"
                   " WHERE claimed_until <= $2 ORDER BY due_ms, delivery_id LIMIT $4"
                   " FOR UPDATE SKIP LOCKED) AND o.claimed_until <= $2 RETURNING o.*)"
                   " SELECT " HOOK_COLUMNS ", " OWED_COLUMNS
                   " FROM c o JOIN webhooks w ON w.id = o.webhook_id"
                   " ORDER BY o.due_ms, o.delivery_id",
                   &p, &res, NULL, "claiming owed webhook deliveries", err);
  *n = st == CAIRN_OK ? PQntuples(res) : 0;
  return visit_owed(res, st, cb, arg, err);
}

enum cairn_status db_pg_outbox_renew(void *ctx, const char *node, int64_t until_ms,
                                     struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, node);
  db_pg_int(&p, until_ms);
  return db_pg_write(ctx,
                     "UPDATE webhook_outbox SET claimed_until = greatest(claimed_until, $2)"
                     " WHERE claimed_by = $1",
                     &p, NULL, NULL, "renewing webhook delivery leases", err);
}

enum cairn_status db_pg_outbox_release(void *ctx, const char *node, struct cairn_error *err)
{
  struct db_pg_params p = {0};

  db_pg_text(&p, node);
  return db_pg_write(ctx,
                     "UPDATE webhook_outbox SET claimed_by = NULL, claimed_until = 0"
                     " WHERE claimed_by = $1",
                     &p, NULL, NULL, "releasing webhook delivery leases", err);
}

/* webhook_get's callback: the one row, copied out. */
static enum cairn_status copy_hook(void *arg, const struct db_webhook *hook,
                                   struct cairn_error *err)
{
  struct db_webhook *out = arg;

  (void)err;
  *out = *hook;
  return CAIRN_OK;
}

enum cairn_status db_pg_webhook_get(void *ctx, const char *id, struct db_webhook *out,
                                    struct cairn_error *err)
{
  enum cairn_status st;

  memset(out, 0, sizeof(*out));
  st = each_hook(ctx, "SELECT " HOOK_COLUMNS " FROM webhooks w WHERE id = $1", id, copy_hook, out,
                 err);
  if (st == CAIRN_OK && !out->id[0])
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no webhook %s", id);
  return st;
}

/* ---- per-player mentions ---- */

enum cairn_status db_pg_mention_put(void *ctx, const struct db_mention *m, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  bool removing = m->handle[0] == '\0';
  char state[6];
  enum cairn_status st;

  db_pg_text(&p, m->webhook_id);
  db_pg_text(&p, m->player_id);
  if (!removing)
    db_pg_text(&p, m->handle);
  st =
      db_pg_write(ctx,
                  removing ? "DELETE FROM webhook_mentions WHERE webhook_id = $1 AND player_id = $2"
                           : "INSERT INTO webhook_mentions (webhook_id, player_id, handle)"
                             " VALUES ($1, $2, $3) ON CONFLICT (webhook_id, player_id)"
                             " DO UPDATE SET handle = excluded.handle",
                  &p, &res, state, "registering a mention", err);
  if (st != CAIRN_OK && db_pg_state_is(state, DB_PG_FOREIGN_KEY_VIOLATION))
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no webhook %s",
                    m->webhook_id);
  else if (st == CAIRN_OK && strcmp(PQcmdTuples(res), "0") == 0)
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                    "no mention of %s for webhook %s", m->player_id, m->webhook_id);
  PQclear(res);
  return st;
}

enum cairn_status db_pg_mentions_of(void *ctx, const char *webhook_id, db_mention_cb cb, void *arg,
                                    struct cairn_error *err)
{
  static const char what[] = "loading mentions";
  struct db_pg_params p = {0};
  struct db_mention m;
  PGresult *res = NULL;
  enum cairn_status st;
  int row;

  db_pg_text(&p, webhook_id);
  st = db_pg_read(ctx,
                  "SELECT webhook_id, player_id, handle FROM webhook_mentions"
                  " WHERE webhook_id = $1 ORDER BY player_id",
                  &p, &res, what, err);
  for (row = 0; st == CAIRN_OK && row < PQntuples(res); row++) {
    memset(&m, 0, sizeof(m));
    st = db_pg_copy(res, row, 0, m.webhook_id, sizeof(m.webhook_id), what, err);
    if (st == CAIRN_OK)
      st = db_pg_copy(res, row, 1, m.player_id, sizeof(m.player_id), what, err);
    if (st == CAIRN_OK)
      st = db_pg_copy(res, row, 2, m.handle, sizeof(m.handle), what, err);
    if (st == CAIRN_OK)
      st = cb(arg, &m, err);
  }
  PQclear(res);
  return st;
}
