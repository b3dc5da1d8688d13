/*
 * migrate.c - `cairn migrate-db`: move an embedded SQLite store into an
 * empty PostgreSQL database, keeping everything (issue 23).
 *
 *   cairn migrate-db --from PATH --to URL
 *
 * With every server on PATH stopped. The copy itself is db_copy_store
 * (db/copy.c: all rows as stored, in one PostgreSQL transaction). Then
 * this command reads every game back through each backend's own slots and
 * compares them - the row (status, seq, move count, result, seats and
 * their players, resignations, the chain's head) and every log row with
 * its hash - so what it reports was checked by the code the nodes will
 * run, not only by row counts. Prints a JSON report; exits 0 when copied
 * and checked, 1 when a game reads back differently, 2 on a usage or
 * storage error (the target then stays as it was).
 *
 * The signing key is not in the store: give the nodes the old server's
 * key (`--key data/server.key`), so exports stay signed by the same key.
 */
#include "tools.h"

#include "../db/db.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One log row, as the comparison needs it (owned strings). */
struct logged_row {
  uint32_t ord, seq;
  int seat;
  int64_t at_ms;
  char *move_json, *events_json;
  bool has_hash;
  uint8_t hash[DB_HASH_BYTES];
};

struct game_log {
  struct logged_row *rows;
  size_t n, cap;
};

static void game_log_clear(struct game_log *log)
{
  for (size_t i = 0; i < log->n; i++) {
    free(log->rows[i].move_json);
    free(log->rows[i].events_json);
  }
  free(log->rows);
  memset(log, 0, sizeof(*log));
}

static enum cairn_status keep_row(void *arg, const struct db_move *move, struct cairn_error *err)
{
  struct game_log *log = arg;
  struct logged_row *row;

  if (log->n == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 64;
    struct logged_row *grown = realloc(log->rows, cap * sizeof(*grown));

    if (!grown)
      return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    log->rows = grown;
    log->cap = cap;
  }
  row = &log->rows[log->n];
  *row = (struct logged_row){.ord = move->ord,
                             .seq = move->seq,
                             .seat = move->seat,
                             .at_ms = move->at_ms,
                             .move_json = strdup(move->move_json),
                             .events_json = strdup(move->events_json ? move->events_json : ""),
                             .has_hash = move->has_hash};
  memcpy(row->hash, move->hash, DB_HASH_BYTES);
  log->n++;
  if (!row->move_json || !row->events_json)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  return CAIRN_OK;
}

static bool same_string(const char *a, const char *b)
{
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The fields of a game row either backend must read back alike. */
static bool same_game(const struct db_game *a, const struct db_game *b)
{
  bool same = strcmp(a->title, b->title) == 0 && strcmp(a->rules_version, b->rules_version) == 0 &&
              strcmp(a->status, b->status) == 0 && a->seats == b->seats &&
              same_string(a->options_json, b->options_json) &&
              same_string(a->result_json, b->result_json) &&
              memcmp(a->seed, b->seed, sizeof(a->seed)) == 0 &&
              strcmp(a->creator, b->creator) == 0 && a->created_ms == b->created_ms &&
              a->seq == b->seq && a->moves == b->moves && a->updated_ms == b->updated_ms &&
              memcmp(a->log_head, b->log_head, sizeof(a->log_head)) == 0 &&
              a->chain_format == b->chain_format && a->imported == b->imported &&
              a->move_ms == b->move_ms && a->base_ms == b->base_ms &&
              a->increment_ms == b->increment_ms && a->cap_ms == b->cap_ms &&
              strcmp(a->on_timeout, b->on_timeout) == 0 && a->has_signer == b->has_signer;

  for (int i = 0; same && i < a->seats; i++)
    same = strcmp(a->seat_player[i], b->seat_player[i]) == 0 &&
           strcmp(a->seat_name[i], b->seat_name[i]) == 0 &&
           a->seat_resigned[i] == b->seat_resigned[i] &&
           strcmp(a->import_ids[i], b->import_ids[i]) == 0;
  return same;
}

static bool same_log(const struct game_log *a, const struct game_log *b)
{
  if (a->n != b->n)
    return false;
  for (size_t i = 0; i < a->n; i++) {
    const struct logged_row *x = &a->rows[i], *y = &b->rows[i];

    if (x->ord != y->ord || x->seq != y->seq || x->seat != y->seat || x->at_ms != y->at_ms ||
        strcmp(x->move_json, y->move_json) != 0 || strcmp(x->events_json, y->events_json) != 0 ||
        x->has_hash != y->has_hash || memcmp(x->hash, y->hash, DB_HASH_BYTES) != 0)
      return false;
  }
  return true;
}

struct comparison {
  struct db *from, *to;
  long games, rows;
  json_t *differ; /* ids of games that read back differently */
};

/* Read one game from both stores and compare. A difference is reported,
 * not fatal: the walk goes on so the report names every such game. */
static enum cairn_status compare_game(void *arg, const char *game_id, struct cairn_error *err)
{
  struct comparison *c = arg;
  struct db_game a = {0}, b = {0};
  struct game_log la = {0}, lb = {0};
  enum cairn_status st = db_game_load(c->from, game_id, &a, err);

  if (st == CAIRN_OK)
    st = db_game_load(c->to, game_id, &b, err);
  if (st == CAIRN_OK)
    st = db_moves_load(c->from, game_id, 0, keep_row, &la, err);
  if (st == CAIRN_OK)
    st = db_moves_load(c->to, game_id, 0, keep_row, &lb, err);
  if (st == CAIRN_OK) {
    c->games++;
    c->rows += (long)la.n;
    if (!same_game(&a, &b) || !same_log(&la, &lb))
      json_array_append_new(c->differ, json_string(game_id));
  } else if (st == CAIRN_ENOTFOUND) {
    json_array_append_new(c->differ, json_string(game_id));
    st = CAIRN_OK;
  }
  db_game_clear(&a);
  db_game_clear(&b);
  game_log_clear(&la);
  game_log_clear(&lb);
  return st;
}

static void print_report(json_t *doc)
{
  json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
  fputc('\n', stdout);
  json_decref(doc);
}

/* Compare every game of both stores; 0 alike, 1 some differ, 2 error. */
static int compare_stores(const char *from, const char *to, json_t *report)
{
  struct cairn_error err = {0};
  struct comparison c = {.differ = json_array()};
  enum cairn_status st = db_open(from, &c.from, &err);

  if (st == CAIRN_OK)
    st = db_open(to, &c.to, &err);
  if (st == CAIRN_OK)
    st = db_games_each(c.from, compare_game, &c, &err);
  db_close(c.from);
  db_close(c.to);
  if (st != CAIRN_OK) {
    fprintf(stderr, "cairn migrate-db: copied, but checking it failed: %s\n", err.detail);
    json_decref(c.differ);
    return 2;
  }
  json_object_set_new(report, "games_checked", json_integer(c.games));
  json_object_set_new(report, "log_rows_checked", json_integer(c.rows));
  json_object_set_new(report, "differ", c.differ);
  return json_array_size(c.differ) ? 1 : 0;
}

int cli_migrate_db(int argc, char **argv)
{
  const char *from = NULL, *to = NULL;
  struct db_copy_counts counts;
  struct cairn_error err = {0};
  json_t *report, *copied;
  int rc;

  for (int i = 0; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--from") == 0)
      from = argv[i + 1];
    else if (strcmp(argv[i], "--to") == 0)
      to = argv[i + 1];
    else
      from = to = NULL, i = argc; /* an unknown flag: usage */
  }
  if (!from || !to || argc % 2 != 0) {
    fprintf(stderr, "usage: cairn migrate-db --from SQLITE_FILE --to postgresql://...\n");
    return 2;
  }
  if (db_copy_store(from, to, &counts, &err) != CAIRN_OK) {
    fprintf(stderr, "cairn migrate-db: %s\n", err.detail);
    return 2;
  }
  copied = json_object();
  for (int i = 0; i < DB_COPY_TABLES; i++)
    json_object_set_new(copied, counts.table[i], json_integer(counts.rows[i]));
  report = json_pack("{s:o}", "copied", copied);
  rc = compare_stores(from, to, report);
  json_object_set_new(report, "ok", json_boolean(rc == 0));
  print_report(report);
  return rc;
}
