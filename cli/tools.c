/*
 * tools.c - the offline commands of the cairn binary:
 *   cairn verify FILE          judge an export document (game/audit.c) with no
 *                              server: chain, seed commitment, full replay;
 *   cairn revalidate [--db P]  replay every stored game under this build's
 *                              rules code and report each one that diverges,
 *                              with the step; no game is changed.
 * Both print JSON and exit 0 when everything checks, 1 otherwise, 2 on a
 * usage or I/O error, so scripts and CI can rely on them. Reading an export
 * document is api/export.c's (the import endpoint reads the same format).
 */
#include "tools.h"

#include "../api/export.h"
#include "../game/audit.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_json(json_t *doc)
{
  json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
  fputc('\n', stdout);
}

/* Who signed the document. Offline, this server's key is not known, so
 * this_server is null; compare public_key with GET /v1/server-key. A bad
 * signature fails the verdict: the document was changed after signing. */
static void add_signer(json_t *report, const struct api_record *r)
{
  struct api_signed what;
  json_t *signer;

  api_record_signed(r, &what);
  signer = api_signer_report(r->row.has_signer ? r->row.signer : NULL,
                             r->row.has_signer ? r->row.signature : NULL, &what, NULL);
  if (strcmp(json_string_value(json_object_get(signer, "signature")), "bad") == 0)
    json_object_set_new(report, "ok", json_false());
  json_object_set_new(report, "signer", signer);
}

int cli_verify(const char *path)
{
  struct api_record r;
  struct cairn_error err = {0};
  const struct engine_module *m;
  json_error_t jerr;
  json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
  json_t *options = NULL;
  json_t *report = NULL;
  struct game_audit_input in;
  int status = 2;

  memset(&r, 0, sizeof(r));
  if (!doc) {
    fprintf(stderr, "cairn verify: %s: %s (line %d)\n", path, jerr.text, jerr.line);
    goto cleanup;
  }
  if (api_export_parse(doc, &r, &err) != CAIRN_OK) {
    fprintf(stderr, "cairn verify: %s: %s\n", path, err.detail);
    goto cleanup;
  }
  m = engine_find(r.row.title);
  if (!m) {
    fprintf(stderr, "cairn verify: this build has no title %s\n", r.row.title);
    goto cleanup;
  }
  if (strcmp(m->rules_version, r.row.rules_version) != 0)
    fprintf(stderr, "cairn verify: note: the game was played under %s, this build has %s\n",
            r.row.rules_version, m->rules_version);
  options = json_loads(r.row.options_json, 0, NULL);
  in = api_record_audit(&r, m, options);
  report = game_audit_run(&in);
  if (!report)
    goto cleanup;
  add_signer(report, &r);
  print_json(report);
  status = json_is_true(json_object_get(report, "ok")) ? 0 : 1;
cleanup:
  json_decref(report);
  json_decref(options);
  json_decref(doc);
  api_record_clear(&r);
  return status;
}

struct revalidation {
  struct db *db;
  json_t *games; /* borrowed: the report's list */
  int diverging;
};

/* Judge one stored game: replay its whole log under this build's code. */
static enum cairn_status revalidate_game(void *arg, const char *game_id, struct cairn_error *err)
{
  struct revalidation *rv = arg;
  struct db_game row = {0};
  struct game_log log = {0};
  const struct engine_module *m;
  json_t *options = NULL;
  json_t *report = NULL;
  json_t *entry;
  enum cairn_status st;

  st = db_game_load(rv->db, game_id, &row, err);
  if (st == CAIRN_OK)
    st = db_moves_load(rv->db, game_id, 0, game_log_collect, &log, err);
  if (st != CAIRN_OK)
    goto cleanup;
  m = engine_find(row.title);
  entry = json_pack("{s:s, s:s, s:s, s:s?, s:I}", "game", row.id, "title", row.title,
                    "rules_version", row.rules_version, "current_rules_version",
                    m ? m->rules_version : NULL, "moves", (json_int_t)log.n);
  if (m) {
    struct game_audit_input in = {.module = m,
                                  .game_id = row.id,
                                  .seats = row.seats,
                                  .seed = row.seed,
                                  .moves = log.moves,
                                  .n_moves = log.n,
                                  .check_chain = true,
                                  .chain_format = row.chain_format};

    options = json_loads(row.options_json ? row.options_json : "{}", 0, NULL);
    in.options = options;
    report = game_audit_run(&in);
    json_object_set(entry, "replay", json_object_get(report, "replay"));
    json_object_set(entry, "chain", json_object_get(report, "chain"));
  }
  if (!m || !json_is_true(json_object_get(json_object_get(entry, "replay"), "ok")) ||
      !json_is_true(json_object_get(json_object_get(entry, "chain"), "ok"))) {
    json_object_set_new(entry, "diverges", json_true());
    rv->diverging++;
  } else {
    json_object_set_new(entry, "diverges", json_false());
  }
  json_array_append_new(rv->games, entry);
cleanup:
  json_decref(report);
  json_decref(options);
  game_log_clear(&log);
  db_game_clear(&row);
  return st;
}

int cli_revalidate(const char *db_url)
{
  struct db *db = NULL;
  struct cairn_error err = {0};
  struct revalidation rv = {.games = json_array()};
  json_t *report;
  int status = 2;

  if (db_open(db_url, &db, &err) != CAIRN_OK) {
    fprintf(stderr, "cairn revalidate: cannot open %s: %s\n", db_url, err.detail);
    json_decref(rv.games);
    return 2;
  }
  rv.db = db;
  if (db_games_each(db, revalidate_game, &rv, &err) != CAIRN_OK) {
    fprintf(stderr, "cairn revalidate: %s\n", err.detail);
  } else {
    report = json_pack("{s:I, s:i, s:O}", "games", (json_int_t)json_array_size(rv.games),
                       "diverging", rv.diverging, "results", rv.games);
    print_json(report);
    json_decref(report);
    status = rv.diverging ? 1 : 0;
  }
  json_decref(rv.games);
  db_close(db);
  return status;
}
