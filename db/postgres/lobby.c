/*
 * lobby.c - the lobby's listing for the PostgreSQL backend (issue 25): a
 * page of the open or the active games, newest first, from a keyset cursor.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The status and the time control are in the text, as SQLite's (its
 * lobby.c): a partial index (games_open, games_active) serves a query whose
 * own text implies its WHERE. */
static const char *const clock_terms[] = {
    [DB_CLOCK_ANY] = "",
    [DB_CLOCK_NONE] = " AND move_ms = 0 AND base_ms = 0",
    [DB_CLOCK_MOVE] = " AND move_ms > 0",
    [DB_CLOCK_PACE] = " AND base_ms > 0",
};

enum cairn_status db_pg_games_lobby(void *ctx, const struct db_lobby_query *query, db_game_id_cb cb,
                                    void *arg, struct cairn_error *err)
{
  struct db_pg_params p = {0};
  PGresult *res = NULL;
  char sql[512];
  char(*ids)[DB_ID_MAX + 1] = NULL;
  int n = 0, i;
  enum cairn_status st;

  snprintf(sql, sizeof(sql),
           "SELECT id FROM games WHERE status = '%s'"
           " AND ($1::text IS NULL OR title = $1) AND ($2::int = 0 OR seats = $2)%s"
           " AND (created_ms, id) < ($3::bigint, $4::text COLLATE \"C\")"
           " ORDER BY created_ms DESC, id DESC LIMIT $5",
           strcmp(query->status, DB_STATUS_OPEN) == 0 ? DB_STATUS_OPEN : DB_STATUS_ACTIVE,
           clock_terms[query->clock]);
  db_pg_text(&p, query->title);
  db_pg_int(&p, query->seats);
  db_pg_int(&p, query->after_id ? query->after_ms : INT64_MAX);
  db_pg_text(&p, query->after_id ? query->after_id : "");
  db_pg_int(&p, query->limit);
  /* The ids are copied out and the result cleared before any callback:
   * `cb` may call other slots. */
  st = db_pg_read(ctx, sql, &p, &res, "listing the lobby", err);
  if (st == CAIRN_OK) {
    n = PQntuples(res);
    ids = calloc(n ? (size_t)n : 1, sizeof(*ids));
    if (!ids)
      st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  }
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = db_pg_copy(res, i, 0, ids[i], sizeof(ids[i]), "listing the lobby", err);
  PQclear(res);
  for (i = 0; st == CAIRN_OK && i < n; i++)
    st = cb(arg, ids[i], err);
  free(ids);
  return st;
}
