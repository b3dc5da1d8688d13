/*
 * fuzz_request.c - libFuzzer harness for the request-decoding code that can
 * run without a connection. The first byte picks the path:
 *
 *   0  a move request body: api_body_object with the fields of POST
 *      /v1/games/{id}/moves (api/moves.c; the decoder only reads the
 *      request's body, so a request with no connection will do), then the
 *      decoded "move" through the engine at a position chosen by the next
 *      FUZZ_HEAD_BYTES, as in fuzz_move (position.h), for every title;
 *   1  an export document (POST /v1/games/import, `cairn verify FILE`):
 *      json_loadb with JSON_REJECT_DUPLICATES, api_export_parse, then the
 *      audit of what was read (chain, commitment, replay through the
 *      engine, rewinds included), and for a finished game export -> parse
 *      again, which must read back the same record; and any document read
 *      must be written by api_json_text exactly as json_dumps writes it;
 *   2  routing: "METHOD\nPATH" through api_route and api_body_cap.
 *
 * The libmicrohttpd side (headers, chunked bodies, the body cap) is
 * exercised over real sockets by tests/api/test_garbage.c.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/export.h"
#include "position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The members of a move request, as api/moves.c declares them. */
static const struct api_field move_fields[] = {
    {"seq", API_INT, true},
    {"move", API_OBJECT, true},
    {NULL, 0, false},
};

/* OUT, caller frees: `n` bytes plus a NUL, as server.c hands bodies over. */
static char *copy_text(const uint8_t *bytes, size_t n)
{
  char *text = malloc(n + 1);

  if (text) {
    memcpy(text, bytes, n);
    text[n] = '\0';
  }
  return text;
}

static void fuzz_move_body(const uint8_t *data, size_t size)
{
  const struct engine_module *const *m;
  const uint8_t *body_bytes;
  size_t body_len;
  struct fuzz_head head = fuzz_head_read(data, size, &body_bytes, &body_len);
  char *body = copy_text(body_bytes, body_len);
  struct api_request req = {.method = "POST", .path = "/v1/games/0/moves"};
  struct cairn_error err = {0};
  json_t *doc = NULL;
  enum cairn_status st;

  if (!body)
    return;
  req.body = body;
  req.body_len = body_len;
  st = api_body_object(&req, move_fields, false, &doc, &err);
  if (st != CAIRN_OK) {
    if (doc || !err.code || err.status != st)
      fuzz_die("api_body_object refused a body (status %d) without a clean error", st);
    free(body);
    return;
  }
  if (!json_is_integer(json_object_get(doc, "seq")) ||
      !json_is_object(json_object_get(doc, "move")) || json_object_size(doc) != 2)
    fuzz_die("api_body_object accepted a body that is not exactly {seq: int, move: object}");
  for (m = engine_modules(); *m; m++) {
    struct engine_game *game = fuzz_position(*m, &head);

    fuzz_try_move(game, json_object_get(doc, "move"), head.flags, head.seed ^ head.play);
    engine_free(game);
  }
  json_decref(doc);
  free(body);
}

/* The parts of a record that export -> parse must keep. */
static bool same_record(const struct api_record *a, const struct api_record *b)
{
  size_t i;
  int s;

  if (strcmp(a->row.id, b->row.id) || strcmp(a->row.title, b->row.title) ||
      strcmp(a->row.rules_version, b->row.rules_version) || strcmp(a->row.status, b->row.status) ||
      a->row.created_ms != b->row.created_ms || a->row.seats != b->row.seats ||
      strcmp(a->row.options_json, b->row.options_json) ||
      (a->row.result_json == NULL) != (b->row.result_json == NULL) ||
      (a->row.result_json && strcmp(a->row.result_json, b->row.result_json)) ||
      a->log.n != b->log.n)
    return false;
  for (s = 0; s < a->row.seats; s++)
    if (strcmp(a->players[s].id, b->players[s].id) ||
        strcmp(a->players[s].name, b->players[s].name))
      return false;
  for (i = 0; i < a->log.n; i++) {
    const struct db_move *x = &a->log.moves[i], *y = &b->log.moves[i];

    if (x->ord != y->ord || x->seq != y->seq || x->seat != y->seat || x->at_ms != y->at_ms ||
        x->has_hash != y->has_hash || (x->has_hash && memcmp(x->hash, y->hash, DB_HASH_BYTES)) ||
        strcmp(x->move_json, y->move_json) || strcmp(x->events_json, y->events_json))
      return false;
  }
  return true;
}

/* api_json_text must write any document as json_dumps does (api/json_text.c). */
static void same_text(const json_t *doc)
{
  char *want, *got;

  if (!json_is_object(doc) && !json_is_array(doc))
    return;
  want = json_dumps(doc, JSON_COMPACT);
  got = api_json_text(doc, NULL);
  if (!want || !got || strcmp(want, got) != 0)
    fuzz_die("api_json_text differs from json_dumps");
  free(want);
  free(got);
}

static void fuzz_export(const uint8_t *data, size_t size)
{
  json_t *doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
  struct api_record r, again;
  struct cairn_error err = {0};
  const struct engine_module *m;
  json_t *options = NULL, *report = NULL, *rebuilt = NULL;
  struct game_audit_input in;

  memset(&again, 0, sizeof(again));
  if (!doc)
    return;
  same_text(doc);
  if (api_export_parse(doc, &r, &err) != CAIRN_OK) {
    if (!err.code)
      fuzz_die("api_export_parse failed without an error code");
    goto cleanup;
  }
  m = engine_find(r.row.title);
  options = json_loads(r.row.options_json, 0, NULL);
  if (m && options) {
    in = api_record_audit(&r, m, options);
    report = game_audit_run(&in);
    if (!report || !json_is_boolean(json_object_get(report, "ok")))
      fuzz_die("game_audit_run gave no verdict");
  }
  /* Import keeps a finished game as it is: export -> import -> export is
   * identical (api/README.md "Export / import"). */
  if (strcmp(r.row.status, DB_STATUS_FINISHED) == 0) {
    rebuilt = api_export_build(&r.row, &r.log, ENGINE_OMNISCIENT, NULL);
    if (!rebuilt)
      fuzz_die("api_export_build failed on a record api_export_parse accepted");
    if (api_export_parse(rebuilt, &again, &err) != CAIRN_OK)
      fuzz_die("an exported record does not parse: %s", err.detail);
    if (!same_record(&r, &again))
      fuzz_die("export -> parse changed the record");
  }
cleanup:
  api_record_clear(&again);
  api_record_clear(&r);
  json_decref(rebuilt);
  json_decref(report);
  json_decref(options);
  json_decref(doc);
}

static void fuzz_route(const uint8_t *data, size_t size)
{
  char *text = copy_text(data, size);
  char *path;
  struct api_request req = {0};
  api_handler handler = NULL;
  char allow[API_ALLOW_MAX] = "";
  struct cairn_error err = {0};
  enum cairn_status st;

  if (!text)
    return;
  path = strchr(text, '\n');
  if (path) {
    *path++ = '\0';
    req.method = text;
    req.path = path;
    st = api_route(&req, &handler, allow, &err);
    if ((st == CAIRN_OK) != (handler != NULL))
      fuzz_die("api_route: status %d with handler %p", st, (void *)handler);
    if (st != CAIRN_OK && !err.code)
      fuzz_die("api_route refused without an error code");
    if (strlen(req.id) > DB_ID_MAX)
      fuzz_die("api_route copied an id longer than DB_ID_MAX");
    if (api_body_cap(req.method, req.path) < API_BODY_CAP)
      fuzz_die("a route's body cap is below the default");
  }
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  switch (data[0] % 3) {
  case 0:
    fuzz_move_body(data + 1, size - 1);
    break;
  case 1:
    fuzz_export(data + 1, size - 1);
    break;
  default:
    fuzz_route(data + 1, size - 1);
    break;
  }
  return 0;
}
