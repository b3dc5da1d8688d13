/*
 * export.c - the self-contained export document of a game, and reading one
 * back. One format serves GET /v1/games/{id}/export, POST
 * /v1/games/import and the offline `cairn verify FILE`:
 *
 *   {format: "cairn-export-2", id, title, rules_version, options, status,
 *    created_ms, created_at, seats: [{seat, player: {id, name}}],
 *    seed_commitment, seed (finished only), result, log_head, chain_format,
 *    server_key, signature,
 *    moves: [{ord, seq, seat, move, events, at_ms, at, hash}],
 *    chat: {players: [message], spectators: [message]}}
 *
 * chain_format says how the row hashes were made (db/chain.c). server_key
 * and signature (hex, or null) are an Ed25519 signature over the bytes
 * sign.c documents: every member above but moves and the *_at texts, which
 * log_head pins through the chain. A game played here is signed with this
 * server's key; a game imported from a document this server did not sign
 * is exported with that document's own server_key and signature (null when
 * it had none), never re-signed, since this server did not see it played.
 * "cairn-export-1" documents (no chain_format, always format 1; no
 * signature) are still read.
 *
 * chat (issue 25; the streamed document only, when asked for:
 * api_export_with_chat, GET .../export?chat=true) holds the game's chat
 * channels its viewer may read, as GET /v1/games/{id}/chat shows them,
 * tombstones included: the players' channel for a seated viewer only. Chat
 * is not part of the log: neither the chain nor the signature covers it,
 * and an import does not read it.
 *
 * A finished game is exported whole. A live game is exported as its viewer
 * may see it: private events are left out and another seat's move is
 * redacted (move null, "redacted": true) when it has a private event or is
 * a pending simultaneous decision (game/fog.c); such a document can be read
 * but not imported.
 */
#include "export.h"
#include "../log/log.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_FORMAT    "cairn-export-2"
#define EXPORT_FORMAT_V1 "cairn-export-1" /* read only: chain format 1, unsigned */

static json_t *hex_json(const uint8_t *bytes, size_t n)
{
  char hex[2 * 64 + 1];

  sodium_bin2hex(hex, sizeof(hex), bytes, n);
  return json_string(hex);
}

/* The player ids an export names: an imported game's are the ones its
 * document claimed, kept as text (db.h). */
static const char (*export_ids(const struct db_game *row))[DB_ID_MAX + 1]
{
  return row->imported ? row->import_ids : row->seat_player;
}

static json_t *seats_json(const struct db_game *row)
{
  const char(*ids)[DB_ID_MAX + 1] = export_ids(row);
  json_t *seats = json_array();
  int i;

  for (i = 0; i < row->seats; i++)
    json_array_append_new(seats, json_pack("{s:i, s:o}", "seat", i, "player",
                                           ids[i][0] ? json_pack("{s:s, s:s}", "id", ids[i], "name",
                                                                 row->seat_name[i])
                                                     : json_null()));
  return seats;
}

void api_row_signed(const struct db_game *row, uint8_t commitment[32], struct api_signed *out)
{
  game_seed_commitment(row->seed, row->id, commitment);
  *out = (struct api_signed){
      .format = EXPORT_FORMAT,
      .row = row,
      .ids = export_ids(row),
      .commitment = commitment,
      .seed = strcmp(row->status, DB_STATUS_FINISHED) == 0 ? row->seed : NULL,
      .log_head = row->log_head,
  };
}

void api_record_signed(const struct api_record *r, struct api_signed *out)
{
  *out = (struct api_signed){
      .format = r->format,
      .row = &r->row,
      .ids = r->row.seat_player,
      .commitment = r->commitment,
      .seed = r->has_seed ? r->row.seed : NULL,
      .log_head = r->row.log_head,
  };
}

/* Set server_key and signature on `doc`: this server's signature over a
 * game it saw played, or an imported game's own (see the file comment). */
static void sign_json(json_t *doc, const struct db_game *row, const struct api_sign_key *key)
{
  uint8_t commitment[32];
  uint8_t sig[DB_SIG_BYTES];
  struct api_signed what;
  const uint8_t *pk = NULL;
  const uint8_t *shown = NULL;

  if (row->imported || !key) {
    if (row->has_signer) {
      pk = row->signer;
      shown = row->signature;
    }
  } else {
    api_row_signed(row, commitment, &what);
    if (api_sign(key, &what, sig)) {
      pk = key->pk;
      shown = sig;
    }
  }
  json_object_set_new(doc, "server_key", pk ? hex_json(pk, DB_KEY_BYTES) : json_null());
  json_object_set_new(doc, "signature", shown ? hex_json(shown, DB_SIG_BYTES) : json_null());
}

/* New reference: one log row for `viewer`; see the file comment. Whether
 * the move itself shows is `visible` (game_fog_move_visible). */
static json_t *move_json(const struct db_move *m, int viewer, bool whole, bool visible)
{
  json_t *events = json_loads(m->events_json, 0, NULL);
  json_t *shown = json_array();
  json_t *entry;
  json_t *ev;
  size_t i;

  json_array_foreach(events, i, ev)
  {
    if (whole || engine_event_visible(ev, viewer, false))
      json_array_append(shown, ev);
  }
  entry = json_pack("{s:I, s:I, s:i, s:o, s:I, s:o, s:o}", "ord", (json_int_t)m->ord, "seq",
                    (json_int_t)m->seq, "seat", m->seat, "events", shown, "at_ms",
                    (json_int_t)m->at_ms, "at", api_time_json(m->at_ms), "hash",
                    m->has_hash ? hex_json(m->hash, DB_HASH_BYTES) : json_null());
  if (whole || visible) {
    json_object_set_new(entry, "move", json_loads(m->move_json, 0, NULL));
  } else {
    json_object_set_new(entry, "move", json_null());
    json_object_set_new(entry, "redacted", json_true());
  }
  json_decref(events);
  return entry;
}

/* New reference: the document without `moves`, which come last (so a
 * stream can write them after it). */
static json_t *head_json(const struct db_game *row, const struct api_sign_key *key)
{
  bool finished = strcmp(row->status, DB_STATUS_FINISHED) == 0;
  uint8_t commitment[32];
  json_t *doc;

  game_seed_commitment(row->seed, row->id, commitment);
  doc = json_pack(
      "{s:s, s:s, s:s, s:s, s:o?, s:s, s:I, s:o, s:o, s:o, s:o, s:o}", "format", EXPORT_FORMAT,
      "id", row->id, "title", row->title, "rules_version", row->rules_version, "options",
      json_loads(row->options_json ? row->options_json : "{}", 0, NULL), "status", row->status,
      "created_ms", (json_int_t)row->created_ms, "created_at", api_time_json(row->created_ms),
      "seats", seats_json(row), "seed_commitment", hex_json(commitment, sizeof(commitment)),
      "result", row->result_json ? json_loads(row->result_json, 0, NULL) : json_null(), "log_head",
      hex_json(row->log_head, DB_HASH_BYTES));
  if (!doc)
    return NULL;
  if (finished)
    json_object_set_new(doc, "seed", hex_json(row->seed, ENGINE_SEED_BYTES));
  json_object_set_new(
      doc, "chain_format",
      json_integer(row->chain_format ? row->chain_format : DB_CHAIN_FORMAT_CURRENT));
  sign_json(doc, row, key);
  return doc;
}

json_t *api_export_build(const struct db_game *row, const struct game_log *log, int viewer,
                         const struct api_sign_key *key)
{
  bool finished = strcmp(row->status, DB_STATUS_FINISHED) == 0;
  struct game_fog_scan fog;
  struct cairn_error err = {0};
  json_t *moves = json_array();
  json_t *doc = head_json(row, key);
  size_t i;

  game_fog_scan_init(&fog, viewer);
  for (i = 0; i < log->n && !finished; i++)
    if (game_fog_scan_add(&fog, &log->moves[i], &err) != CAIRN_OK)
      break;
  for (i = 0; i < log->n; i++)
    json_array_append_new(moves, move_json(&log->moves[i], viewer, finished,
                                           finished || game_fog_scan_visible(&fog, i)));
  game_fog_scan_clear(&fog);
  json_object_set_new(doc, "moves", moves);
  return doc;
}

/* ---- the same document streamed: memory bounded by a chunk of rows ---- */

#define EXPORT_CHUNK 128 /* rows read and written at a time: moves_load's batch */

struct api_export_stream {
  struct api_server *server; /* borrowed: outlives every response */
  char game[DB_ID_MAX + 1];
  int viewer;
  bool whole;               /* a finished game: nothing hidden */
  uint32_t n;               /* rows log_head covers: later ones are not this document's */
  uint32_t next;            /* the next row to write */
  struct game_fog_scan fog; /* live games: which rows the viewer may see */
  char *text;               /* owned: written, not yet handed out; reused chunk to chunk */
  size_t len, off, cap;
  bool ended; /* "]}" is in text */
  /* The chat after the moves (issue 25), when asked for (with_chat), a
   * page of a channel per refill: the channel being written (-1 before the
   * first), the last message number written in it, and whether it has one
   * yet. */
  bool with_chat;
  int chat_channel;
  uint32_t chat_after;
  bool chat_any;
};

/* Append `len` bytes to the stream's pending text. The buffer grows to the
 * largest chunk and stays: no allocation per row. */
static bool put(struct api_export_stream *x, const char *bytes, size_t len)
{
  if (len > x->cap - x->len) {
    size_t cap = x->cap ? x->cap : 16 * 1024;
    char *grown;

    while (cap - x->len < len)
      cap *= 2;
    grown = realloc(x->text, cap);
    if (!grown)
      return false;
    x->text = grown;
    x->cap = cap;
  }
  memcpy(x->text + x->len, bytes, len);
  x->len += len;
  return true;
}

/* moves_load callback of the fog pass: every row of the document. */
static enum cairn_status scan_row(void *arg, const struct db_move *m, struct cairn_error *err)
{
  struct api_export_stream *x = arg;

  if (m->ord >= x->n)
    return CAIRN_DONE;
  return game_fog_scan_add(&x->fog, m, err);
}

/* moves_load callback of one chunk: each row serialized on its own. */
static enum cairn_status write_row(void *arg, const struct db_move *m, struct cairn_error *err)
{
  struct api_export_stream *x = arg;
  bool whole = x->whole;
  json_t *entry;
  char *text;
  size_t len = 0;
  bool ok;

  /* A chunk ends at a multiple of EXPORT_CHUNK (refill empties text first). */
  if (m->ord >= x->n || m->ord != x->next || (x->next % EXPORT_CHUNK == 0 && x->len))
    return CAIRN_DONE;
  entry = move_json(m, x->viewer, whole, whole || game_fog_scan_visible(&x->fog, m->ord));
  text = entry ? api_json_text(entry, &len) : NULL;
  json_decref(entry);
  ok = text && (m->ord == 0 || put(x, ",", 1)) && put(x, text, len);
  free(text);
  if (!ok)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  x->next++;
  return CAIRN_OK;
}

void api_export_close(void *cls)
{
  struct api_export_stream *x = cls;

  if (!x)
    return;
  game_fog_scan_clear(&x->fog);
  free(x->text);
  free(x);
}

/* The document's text up to the first row: the head without its closing
 * brace, then the opening of `moves`. */
static enum cairn_status open_text(struct api_export_stream *x, const struct db_game *row,
                                   const struct api_sign_key *key, struct cairn_error *err)
{
  json_t *head = head_json(row, key);
  size_t len = 0;
  char *text = head ? api_json_text(head, &len) : NULL;
  bool ok = text && len > 1 && put(x, text, len - 1) && put(x, ",\"moves\":[", 10);

  json_decref(head);
  free(text);
  return ok ? CAIRN_OK
            : cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
}

enum cairn_status api_export_open(struct api_server *server, const struct db_game *row, int viewer,
                                  struct api_export_stream **out, struct cairn_error *err)
{
  struct api_export_stream *x = calloc(1, sizeof(*x));
  enum cairn_status st;

  *out = NULL;
  if (!x)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  x->server = server;
  snprintf(x->game, sizeof(x->game), "%s", row->id);
  x->viewer = viewer;
  x->whole = strcmp(row->status, DB_STATUS_FINISHED) == 0;
  x->n = row->moves;
  x->chat_channel = -1;
  game_fog_scan_init(&x->fog, viewer);
  st = open_text(x, row, &server->key, err);
  if (st == CAIRN_OK && !x->whole && x->n)
    st = db_moves_load(server->db, x->game, 0, scan_row, x, err);
  if (st == CAIRN_OK && x->fog.n != (x->whole ? 0 : x->n))
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "game %s: %zu log rows found, %u expected", x->game, x->fog.n, x->n);
  if (st != CAIRN_OK) {
    api_export_close(x);
    return st;
  }
  *out = x;
  return CAIRN_OK;
}

/* Refill x->text with the next chunk of rows, or the document's end. */
static bool chat_refill(struct api_export_stream *x);

static bool refill(struct api_export_stream *x)
{
  struct cairn_error err = {0};
  uint32_t before = x->next;

  x->len = x->off = 0;
  if (x->next >= x->n && x->with_chat)
    return chat_refill(x);
  if (x->next >= x->n) {
    x->ended = true;
    return put(x, "]}", 2);
  }
  if (db_moves_load(x->server->db, x->game, x->next, write_row, x, &err) != CAIRN_OK) {
    log_line(LOG_ERROR, "export", "export of %s cut at row %u: %s", x->game, x->next, err.detail);
    return false;
  }
  return x->next > before; /* rows vanished: the document cannot be finished */
}

ssize_t api_export_read(void *cls, char *buf, size_t max)
{
  struct api_export_stream *x = cls;
  size_t n;

  while (x->off == x->len) {
    if (x->ended)
      return 0;
    if (!refill(x))
      return -1;
  }
  n = x->len - x->off < max ? x->len - x->off : max;
  memcpy(buf, x->text + x->off, n);
  x->off += n;
  return (ssize_t)n;
}

/* ---- reading a document back: every member checked, named on failure ---- */

static enum cairn_status member(const json_t *obj, const char *where, const char *name,
                                json_type type, const json_t **out, struct cairn_error *err)
{
  const json_t *v = json_object_get(obj, name);

  *out = v;
  if (!v)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "%s%s is required", where,
                      name);
  if (json_typeof(v) != type && !(type == JSON_REAL && json_is_integer(v)))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "%s%s has the wrong type",
                      where, name);
  return CAIRN_OK;
}

static enum cairn_status text_member(const json_t *obj, const char *where, const char *name,
                                     char *buf, size_t size, struct cairn_error *err)
{
  const json_t *v;
  enum cairn_status st = member(obj, where, name, JSON_STRING, &v, err);

  if (st != CAIRN_OK)
    return st;
  if (json_string_length(v) == 0 || json_string_length(v) >= size)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "%s%s must be 1 to %zu bytes",
                      where, name, size - 1);
  memcpy(buf, json_string_value(v), json_string_length(v) + 1);
  return CAIRN_OK;
}

static enum cairn_status hex_member(const json_t *obj, const char *where, const char *name,
                                    uint8_t *out, size_t n, struct cairn_error *err)
{
  const json_t *v;
  enum cairn_status st = member(obj, where, name, JSON_STRING, &v, err);
  size_t got = 0;

  if (st != CAIRN_OK)
    return st;
  if (json_string_length(v) != 2 * n ||
      sodium_hex2bin(out, n, json_string_value(v), 2 * n, NULL, &got, NULL) != 0 || got != n)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "%s%s must be %zu hex characters", where, name, 2 * n);
  return CAIRN_OK;
}

static enum cairn_status int_member(const json_t *obj, const char *where, const char *name,
                                    json_int_t lo, json_int_t hi, json_int_t *out,
                                    struct cairn_error *err)
{
  const json_t *v;
  enum cairn_status st = member(obj, where, name, JSON_INTEGER, &v, err);

  if (st != CAIRN_OK)
    return st;
  *out = json_integer_value(v);
  if (*out < lo || *out > hi)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "%s%s is out of range", where,
                      name);
  return CAIRN_OK;
}

static enum cairn_status parse_seats(const json_t *doc, struct api_record *r,
                                     struct cairn_error *err)
{
  const json_t *seats;
  const json_t *entry;
  char where[48];
  size_t i;
  enum cairn_status st = member(doc, "", "seats", JSON_ARRAY, &seats, err);

  if (st != CAIRN_OK)
    return st;
  if (json_array_size(seats) < 1 || json_array_size(seats) > ENGINE_MAX_SEATS)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "seats: 1 to %d entries",
                      ENGINE_MAX_SEATS);
  r->row.seats = (int)json_array_size(seats);
  json_array_foreach(seats, i, entry)
  {
    const json_t *player = json_object_get(entry, "player");

    snprintf(where, sizeof(where), "seats[%zu].", i);
    if (!json_is_object(player))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "%splayer must be an object",
                        where);
    snprintf(where, sizeof(where), "seats[%zu].player.", i);
    st = text_member(player, where, "id", r->players[i].id, sizeof(r->players[i].id), err);
    if (st == CAIRN_OK)
      st = text_member(player, where, "name", r->players[i].name, sizeof(r->players[i].name), err);
    if (st != CAIRN_OK)
      return st;
    memcpy(r->row.seat_player[i], r->players[i].id, sizeof(r->players[i].id));
    memcpy(r->row.seat_name[i], r->players[i].name, sizeof(r->players[i].name));
  }
  return CAIRN_OK;
}

static enum cairn_status parse_move(const json_t *entry, size_t i, struct api_record *r,
                                    struct cairn_error *err)
{
  struct db_move m = {0};
  const json_t *move;
  const json_t *events;
  char where[32];
  json_int_t v;
  enum cairn_status st;

  snprintf(where, sizeof(where), "moves[%zu].", i);
  if (!json_is_object(entry))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "%s must be an object",
                      where);
  st = int_member(entry, where, "ord", 0, UINT32_MAX, &v, err);
  m.ord = (uint32_t)v;
  if (st == CAIRN_OK)
    st = int_member(entry, where, "seq", 0, UINT32_MAX, &v, err);
  m.seq = (uint32_t)v;
  if (st == CAIRN_OK)
    st = int_member(entry, where, "seat", 0, ENGINE_MAX_SEATS - 1, &v, err);
  m.seat = (int)v;
  if (st == CAIRN_OK)
    st = int_member(entry, where, "at_ms", 0, INT64_MAX, &v, err);
  m.at_ms = v;
  if (st == CAIRN_OK)
    st = member(entry, where, "move", JSON_OBJECT, &move, err);
  if (st == CAIRN_OK)
    st = member(entry, where, "events", JSON_ARRAY, &events, err);
  if (st != CAIRN_OK)
    return st;
  if (json_object_get(entry, "hash") && !json_is_null(json_object_get(entry, "hash"))) {
    st = hex_member(entry, where, "hash", m.hash, DB_HASH_BYTES, err);
    if (st != CAIRN_OK)
      return st;
    m.has_hash = true;
  }
  /* Stored the way the server stores them, so hashes compare. */
  m.move_json = json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS);
  m.events_json = json_dumps(events, JSON_COMPACT | JSON_SORT_KEYS);
  st = game_log_collect(&r->log, &m, err);
  free((char *)m.move_json);
  free((char *)m.events_json);
  return st;
}

/* A member that may be null or absent: *present says whether it was hex. */
static enum cairn_status optional_hex(const json_t *obj, const char *name, uint8_t *out, size_t n,
                                      bool *present, struct cairn_error *err)
{
  const json_t *v = json_object_get(obj, name);

  *present = v && !json_is_null(v);
  return *present ? hex_member(obj, "", name, out, n, err) : CAIRN_OK;
}

/* format, and what it decides: the chain format and whether the document
 * can carry a signature. */
static enum cairn_status parse_format(const json_t *doc, struct api_record *r,
                                      struct cairn_error *err)
{
  const json_t *v;
  json_int_t format;
  bool key = false, sig = false;
  enum cairn_status st = member(doc, "", "format", JSON_STRING, &v, err);

  if (st != CAIRN_OK)
    return st;
  if (strcmp(json_string_value(v), EXPORT_FORMAT_V1) == 0) {
    snprintf(r->format, sizeof(r->format), "%s", EXPORT_FORMAT_V1);
    r->row.chain_format = DB_CHAIN_FORMAT_1;
    return CAIRN_OK;
  }
  if (strcmp(json_string_value(v), EXPORT_FORMAT) != 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "format must be \"%s\" (or \"%s\")", EXPORT_FORMAT, EXPORT_FORMAT_V1);
  snprintf(r->format, sizeof(r->format), "%s", EXPORT_FORMAT);
  st = int_member(doc, "", "chain_format", DB_CHAIN_FORMAT_1, DB_CHAIN_FORMAT_2, &format, err);
  if (st == CAIRN_OK)
    st = hex_member(doc, "", "log_head", r->row.log_head, DB_HASH_BYTES, err);
  if (st == CAIRN_OK)
    st = optional_hex(doc, "server_key", r->row.signer, DB_KEY_BYTES, &key, err);
  if (st == CAIRN_OK)
    st = optional_hex(doc, "signature", r->row.signature, DB_SIG_BYTES, &sig, err);
  if (st != CAIRN_OK)
    return st;
  if (key != sig)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "server_key and signature come together, or not at all");
  r->row.chain_format = (int)format;
  r->row.has_signer = key;
  r->has_log_head = true;
  return CAIRN_OK;
}

enum cairn_status api_export_parse(const json_t *doc, struct api_record *r, struct cairn_error *err)
{
  const json_t *v;
  const json_t *moves;
  json_int_t created;
  size_t i;
  enum cairn_status st;

  memset(r, 0, sizeof(*r));
  if (!json_is_object(doc))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "an export document is a JSON object");
  st = parse_format(doc, r, err);
  if (st != CAIRN_OK)
    return st;
  st = text_member(doc, "", "id", r->row.id, sizeof(r->row.id), err);
  if (st == CAIRN_OK)
    st = text_member(doc, "", "title", r->row.title, sizeof(r->row.title), err);
  if (st == CAIRN_OK)
    st = text_member(doc, "", "rules_version", r->row.rules_version, sizeof(r->row.rules_version),
                     err);
  if (st == CAIRN_OK)
    st = text_member(doc, "", "status", r->row.status, sizeof(r->row.status), err);
  if (st == CAIRN_OK)
    st = int_member(doc, "", "created_ms", 0, INT64_MAX, &created, err);
  if (st == CAIRN_OK)
    st = member(doc, "", "options", JSON_OBJECT, &v, err);
  if (st != CAIRN_OK)
    return st;
  r->row.created_ms = created;
  r->row.options_json = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
  v = json_object_get(doc, "result");
  if (v && !json_is_null(v))
    r->row.result_json = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
  st = parse_seats(doc, r, err);
  if (st == CAIRN_OK)
    st = hex_member(doc, "", "seed_commitment", r->commitment, sizeof(r->commitment), err);
  if (st != CAIRN_OK)
    return st;
  if (json_object_get(doc, "seed")) {
    st = hex_member(doc, "", "seed", r->row.seed, ENGINE_SEED_BYTES, err);
    if (st != CAIRN_OK)
      return st;
    r->has_seed = true;
  }
  st = member(doc, "", "moves", JSON_ARRAY, &moves, err);
  if (st != CAIRN_OK)
    return st;
  json_array_foreach(moves, i, v)
  {
    st = parse_move(v, i, r, err);
    if (st != CAIRN_OK)
      return st;
  }
  return CAIRN_OK;
}

void api_record_clear(struct api_record *r)
{
  db_game_clear(&r->row);
  game_log_clear(&r->log);
}

struct game_audit_input api_record_audit(const struct api_record *r, const struct engine_module *m,
                                         const json_t *options)
{
  struct game_audit_input in = {
      .module = m,
      .game_id = r->row.id,
      .seats = r->row.seats,
      .options = options,
      .seed = r->has_seed ? r->row.seed : NULL,
      .commitment = r->commitment,
      .moves = r->log.moves,
      .n_moves = r->log.n,
      .log_head = r->has_log_head ? r->row.log_head : NULL,
      .check_chain = true,
      .chain_format = r->row.chain_format,
  };

  return in;
}

/* ---- the chat after the moves (issue 25) ---- */

#define EXPORT_CHAT_PAGE 50 /* messages read and written at a time */
/* put() of a string literal, its NUL left out. */
#define PUT_TEXT(x, literal) put((x), (literal), sizeof(literal) - 1)

/* chat_list callback: one message, after a comma unless it is the
 * channel's first. */
static enum cairn_status write_chat(void *arg, const struct db_chat *m, struct cairn_error *err)
{
  struct api_export_stream *x = arg;
  json_t *entry = api_chat_json(m);
  size_t len = 0;
  char *text = entry ? api_json_text(entry, &len) : NULL;
  bool ok = text && (!x->chat_any || put(x, ",", 1)) && put(x, text, len);

  json_decref(entry);
  free(text);
  if (!ok)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  x->chat_any = true;
  x->chat_after = m->n;
  return CAIRN_OK;
}

/* Open the next channel the viewer may read (the players' only for a
 * seated viewer), or end the document. */
static bool next_channel(struct api_export_stream *x)
{
  const char *name;
  bool comma;

  if (x->chat_channel < 0 && x->viewer >= 0)
    x->chat_channel = DB_CHAT_PLAYERS;
  else if (x->chat_channel < DB_CHAT_SPECTATORS)
    x->chat_channel = DB_CHAT_SPECTATORS;
  else {
    x->ended = true;
    return PUT_TEXT(x, "}}");
  }
  x->chat_after = 0;
  x->chat_any = false;
  comma = x->chat_channel == DB_CHAT_SPECTATORS && x->viewer >= 0;
  name = api_chat_channel_name(x->chat_channel);
  return (!comma || PUT_TEXT(x, ",")) && PUT_TEXT(x, "\"") && put(x, name, strlen(name)) &&
         PUT_TEXT(x, "\":[");
}

/* The chat's next piece: its opening, a page of the channel being
 * written, or the channel's end and the next one's opening. */
static bool chat_refill(struct api_export_stream *x)
{
  struct cairn_error err = {0};
  uint32_t before;

  if (x->chat_channel < 0)
    return PUT_TEXT(x, "],\"chat\":{") && next_channel(x);
  before = x->chat_after;
  if (db_chat_list(x->server->db, x->game, x->chat_channel, x->chat_after, EXPORT_CHAT_PAGE,
                   write_chat, x, &err) != CAIRN_OK) {
    log_line(LOG_ERROR, "export", "export of %s cut in its chat: %s", x->game, err.detail);
    return false;
  }
  if (x->chat_after != before)
    return true;
  return PUT_TEXT(x, "]") && next_channel(x); /* the channel is written out */
}

void api_export_with_chat(struct api_export_stream *x)
{
  x->with_chat = true;
}
