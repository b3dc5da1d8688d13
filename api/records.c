/*
 * records.c - a game's record as a resource: GET /v1/games/{id}/verify
 * (the audit of audit.c over the stored log), GET /v1/games/{id}/export and
 * POST /v1/games/import (export.c's document). An import is re-judged from
 * scratch, exactly as `cairn verify` judges a file, and stored in one
 * transaction only if every check passes.
 *
 * Who played is vouched for only by a signature: the chain does not cover
 * the seats, and once a game is finished its seed is public, so anyone can
 * rebuild a whole record under a new id with any seats. An import signed by
 * this server's own key keeps its players, as before; anything else
 * (unsigned, another server's key, a signature that does not check) is
 * stored as an imported game: its seats are names only, linked to no player
 * here, so it shows in nobody's games (sign.h).
 */
#include "api.h"
#include "export.h"

#include <microhttpd.h>

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

/* The stored log of `row`, copied out. */
static enum cairn_status load_log(struct api_request *req, const struct db_game *row,
                                  struct game_log *log, struct cairn_error *err)
{
  return db_moves_load(req->server->db, row->id, 0, game_log_collect, log, err);
}

/* New reference: who vouches for stored game `row` (api_signer_report): this
 * server for a game played here (or imported under its own signature), the
 * document's own signer, if any, for an imported one. */
static json_t *row_signer(struct api_server *server, const struct db_game *row)
{
  uint8_t commitment[32];
  uint8_t sig[DB_SIG_BYTES];
  struct api_signed what;

  api_row_signed(row, commitment, &what);
  if (row->imported)
    return api_signer_report(row->has_signer ? row->signer : NULL,
                             row->has_signer ? row->signature : NULL, &what, &server->key);
  if (!api_sign(&server->key, &what, sig))
    return NULL;
  return api_signer_report(server->key.pk, sig, &what, &server->key);
}

enum cairn_status api_games_verify(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  struct db_game row = {0};
  struct game_log log = {0};
  json_t *options = NULL;
  json_t *report;
  struct game_audit_input in;
  bool finished;
  char hex[2 * ENGINE_SEED_BYTES + 1];
  uint8_t commitment[32];
  enum cairn_status st;

  st = api_load_game(req, &row, err);
  if (st == CAIRN_OK)
    st = load_log(req, &row, &log, err);
  if (st != CAIRN_OK)
    goto cleanup;
  finished = strcmp(row.status, DB_STATUS_FINISHED) == 0;
  options = json_loads(row.options_json ? row.options_json : "{}", 0, NULL);
  in = (struct game_audit_input){.module = engine_find(row.title),
                                 .game_id = row.id,
                                 .seats = row.seats,
                                 .options = options,
                                 /* The server replays with the secret seed even
                                  * while the game runs; it reveals only the verdict. */
                                 .seed = row.seed,
                                 .moves = log.moves,
                                 .n_moves = log.n,
                                 .check_chain = true,
                                 .chain_format = row.chain_format};
  if (!in.module) {
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "this server does not have title %s", row.title);
    goto cleanup;
  }
  report = game_audit_run(&in);
  if (!report) {
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    goto cleanup;
  }
  /* The commitment cannot be checked against itself here: the client
   * compares it with the one it saw when the game began. */
  game_seed_commitment(row.seed, row.id, commitment);
  sodium_bin2hex(hex, sizeof(hex), commitment, sizeof(commitment));
  json_object_set_new(report, "seed_commitment", json_string(hex));
  json_object_set_new(report, "commitment",
                      json_pack("{s:n, s:n, s:s}", "ok", "first_bad_ord", "problem",
                                "compare seed_commitment with the one published at creation"));
  if (finished) {
    sodium_bin2hex(hex, sizeof(hex), row.seed, sizeof(row.seed));
    json_object_set_new(report, "seed", json_string(hex));
  }
  json_object_set_new(report, "game", json_string(row.id));
  json_object_set_new(report, "signer", row_signer(req->server, &row));
  json_object_set_new(report, "imported", json_boolean(row.imported));
  resp->status = 200;
  resp->body = report;
cleanup:
  json_decref(options);
  game_log_clear(&log);
  db_game_clear(&row);
  return st;
}

/* ?chat=true: the export carries the game's chat (issue 25). */
static bool export_wants_chat(struct api_request *req)
{
  const char *v = MHD_lookup_connection_value(req->connection, MHD_GET_ARGUMENT_KIND, "chat");

  return v && strcmp(v, "true") == 0;
}

/* Streamed (export.c, api_export_open): 16 concurrent exports of a long
 * game built as jansson trees took the server from 16 MB to 599 MB. */
enum cairn_status api_games_export(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  struct db_game row = {0};
  struct api_export_stream *stream = NULL;
  enum cairn_status st;

  st = api_load_game(req, &row, err);
  if (st == CAIRN_OK)
    st = api_export_open(req->server, &row, api_viewer_seat(req, &row), &stream, err);
  if (st == CAIRN_OK && export_wants_chat(req))
    api_export_with_chat(stream); /* issue 25: ?chat=true */
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->reader.read = api_export_read;
    resp->reader.free = api_export_close;
    resp->reader.cls = stream;
  }
  db_game_clear(&row);
  return st;
}

/* The first failed check of an audit report, as a problem naming the row. */
static enum cairn_status refuse_record(const json_t *report, struct cairn_error *err)
{
  static const char *const checks[] = {"chain", "commitment", "replay"};
  size_t i;

  for (i = 0; i < 3; i++) {
    const json_t *part = json_object_get(report, checks[i]);

    if (json_is_false(json_object_get(part, "ok")))
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_BAD_RECORD, NULL, "%s check failed: %s",
                        checks[i], json_string_value(json_object_get(part, "problem")));
  }
  return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_BAD_RECORD, NULL, "the record does not verify");
}

/* Everything an import must satisfy before anything is stored. */
static enum cairn_status judge_record(const struct api_record *r, const struct engine_module *m,
                                      struct cairn_error *err)
{
  json_t *options = json_loads(r->row.options_json ? r->row.options_json : "{}", 0, NULL);
  json_t *replayed = NULL;
  json_t *claimed = r->row.result_json ? json_loads(r->row.result_json, 0, NULL) : NULL;
  json_t *report = NULL;
  struct game_audit_input in = api_record_audit(r, m, options);
  enum cairn_status st = CAIRN_OK;

  in.result_out = &replayed;
  report = game_audit_run(&in);
  if (!report)
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  else if (!json_is_true(json_object_get(report, "ok")))
    st = refuse_record(report, err);
  else if (!replayed || !claimed || !json_equal(replayed, claimed))
    st = cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_BAD_RECORD, NULL,
                    "the moves do not lead to the recorded result");
  json_decref(report);
  json_decref(replayed);
  json_decref(claimed);
  json_decref(options);
  return st;
}

static enum cairn_status check_importable(const struct api_record *r,
                                          const struct engine_module **m, struct cairn_error *err)
{
  size_t i;

  *m = engine_find(r->row.title);
  if (!*m)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "title \"%s\" is not one of GET /v1/titles", r->row.title);
  if (strcmp(r->row.rules_version, (*m)->rules_version) != 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "rules_version %s: this server plays %s under %s", r->row.rules_version,
                      (*m)->id, (*m)->rules_version);
  if (strcmp(r->row.status, DB_STATUS_FINISHED) != 0 || !r->has_seed)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "only finished games can be imported: a live game's seed is secret, so "
                      "its moves cannot be re-checked");
  if (r->row.seats < (*m)->min_seats || r->row.seats > (*m)->max_seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "seats: %s takes %d to %d",
                      (*m)->id, (*m)->min_seats, (*m)->max_seats);
  for (i = 0; r->row.id[i]; i++)
    if (!strchr("0123456789abcdefghijklmnopqrstuvwxyz-_", r->row.id[i]))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                        "id must be lowercase letters, digits, '-' or '_'");
  return CAIRN_OK;
}

/* Whether `r` carries this server's own signature, and it checks. */
static bool signed_here(const struct api_server *server, const struct api_record *r)
{
  struct api_signed what;

  if (!r->row.has_signer || sodium_memcmp(r->row.signer, server->key.pk, DB_KEY_BYTES) != 0)
    return false;
  api_record_signed(r, &what);
  return api_sign_check(r->row.signer, r->row.signature, &what);
}

/* Store `r` as a game nobody here played: its seats keep their names and
 * claimed ids as text only (db.h, game_import). */
static void unlink_seats(struct api_record *r)
{
  int i;

  r->row.imported = true;
  for (i = 0; i < r->row.seats; i++)
    r->row.seat_player[i][0] = '\0';
}

enum cairn_status api_games_import(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  struct api_record r;
  struct db_game row = {0};
  const struct engine_module *m = NULL;
  const struct engine_game *state = NULL;
  uint8_t hashes[ENGINE_MAX_SEATS][DB_HASH_BYTES];
  json_t *doc = NULL;
  json_error_t jerr;
  enum cairn_status st;

  memset(&r, 0, sizeof(r));
  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    goto cleanup;
  doc = json_loadb(req->body ? req->body : "", req->body_len, JSON_REJECT_DUPLICATES, &jerr);
  if (!doc) {
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_JSON, NULL,
                    "body is not valid JSON: %s at byte %d", jerr.text, jerr.position);
    goto cleanup;
  }
  st = api_export_parse(doc, &r, err);
  if (st == CAIRN_OK)
    st = check_importable(&r, &m, err);
  if (st == CAIRN_OK)
    st = judge_record(&r, m, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (!signed_here(req->server, &r))
    unlink_seats(&r);
  /* Imported players get a token nobody holds: they exist to be named. */
  randombytes_buf(hashes, sizeof(hashes));
  snprintf(r.row.creator, sizeof(r.row.creator), "%s", req->player.id);
  st = db_game_import(req->server->db, &r.row, r.players, (const uint8_t(*)[DB_HASH_BYTES])hashes,
                      r.log.moves, r.log.n, err);
  if (st != CAIRN_OK)
    goto cleanup;
  memcpy(req->id, r.row.id, sizeof(r.row.id));
  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  game_lock(req->server->game, r.row.id);
  st = game_live_get(req->server->game, &row, &state, err);
  if (st == CAIRN_OK)
    st = api_answer_game(resp, 201, req, &row, state, false, err);
  game_unlock(req->server->game, r.row.id);
cleanup:
  json_decref(doc);
  api_record_clear(&r);
  db_game_clear(&row);
  return st;
}
