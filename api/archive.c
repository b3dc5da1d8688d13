/*
 * archive.c - a player's finished games (issue 25).
 *
 * GET /v1/archive?player=<id>: one page of the finished games the player
 * held a seat in, most recently finished first, narrowed by ?title=,
 * ?opponent=<player id> and ?result=won|lost|drawn (as the title's result
 * says of the player's seat: won when the seat is among `winners`; drawn
 * when not, and the result says `draw`, or names no winner in a game of
 * two seats or more; lost otherwise). ?limit=1..ARCHIVE_MAX_LIMIT, and
 * ?cursor=, the previous page's `next`. A finished game hides nothing, so
 * anyone may ask about anyone; `player` defaults to the caller.
 *
 * GET /v1/archive/export?player=<id>: the same games (same filters, at most
 * ARCHIVE_EXPORT_MAX, from ?cursor= if given) as NDJSON: one line per
 * game, each line byte for byte the document GET /v1/games/{id}/export
 * gives. Streamed: the server holds one batch of ids and one game's
 * export stream (export.c) at a time, whatever the number of games.
 *
 * Both walk storage's keyset (games_archive, (updated_ms, id) descending)
 * a batch at a time and judge the result here, since a title's result is
 * JSON storage does not read. The cursor is that key, sealed as lobby.c's.
 */
#include "api.h"
#include "export.h"

#include <microhttpd.h>
#include <sodium.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARCHIVE_DEFAULT_LIMIT 20
#define ARCHIVE_MAX_LIMIT     50
#define ARCHIVE_BATCH         50
/* Finished games one listing looks at before it answers a page shorter
 * than asked (a rare result filter); `next` then goes on from there. */
#define ARCHIVE_SCAN_MAX    500
#define ARCHIVE_EXPORT_MAX  10000
#define ARCHIVE_CURSOR_TEXT (20 + 1 + DB_ID_MAX + 1)
#define ARCHIVE_CURSOR_MAX  (((ARCHIVE_CURSOR_TEXT + 2) / 3) * 4 + 1)

enum outcome { OUTCOME_ANY, OUTCOME_WON, OUTCOME_LOST, OUTCOME_DRAWN };
static const char *const outcome_names[] = {"", "won", "lost", "drawn"};

/* Where a walk over the archive stands, and what it keeps. */
struct archive_walk {
  struct api_server *server;
  struct db_archive_query q;
  char player[DB_ID_MAX + 1];
  char title[DB_TITLE_MAX + 1];
  char opponent[DB_ID_MAX + 1];
  char after_id[DB_ID_MAX + 1];
  enum outcome wanted;
  bool exhausted; /* storage has no game after the cursor */
};

static enum outcome outcome_of(const struct db_game *row, int seat)
{
  json_t *result = row->result_json ? json_loads(row->result_json, 0, NULL) : NULL;
  const json_t *winners = json_object_get(result, "winners");
  const json_t *w;
  enum outcome o = OUTCOME_LOST;
  size_t i;

  json_array_foreach(winners, i, w)
  {
    if (json_integer_value(w) == seat)
      o = OUTCOME_WON;
  }
  if (o != OUTCOME_WON &&
      (json_is_true(json_object_get(result, "draw")) ||
       (json_array_size(winners) == 0 && row->seats >= 2 && !json_object_get(result, "draw"))))
    o = OUTCOME_DRAWN;
  json_decref(result);
  return o;
}

/* ---- the query ---- */

static const char *query_value(const struct api_request *req, const char *name)
{
  return MHD_lookup_connection_value(req->connection, MHD_GET_ARGUMENT_KIND, name);
}

static enum cairn_status bad_query(struct cairn_error *err, const char *what)
{
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL, "%s", what);
}

static void seal_cursor(int64_t ms, const char *id, char out[ARCHIVE_CURSOR_MAX])
{
  char text[ARCHIVE_CURSOR_TEXT];
  int n = snprintf(text, sizeof(text), "%" PRId64 ":%s", ms, id);

  sodium_bin2base64(out, ARCHIVE_CURSOR_MAX, (const unsigned char *)text, (size_t)n,
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

static enum cairn_status open_cursor(const char *cursor, struct archive_walk *walk,
                                     struct cairn_error *err)
{
  unsigned char text[ARCHIVE_CURSOR_TEXT];
  size_t n = 0;
  char *colon, *end;
  long long ms;

  if (strlen(cursor) >= ARCHIVE_CURSOR_MAX ||
      sodium_base642bin(text, sizeof(text) - 1, cursor, strlen(cursor), NULL, &n, NULL,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
    return bad_query(err, "cursor: not one an archive page gave");
  text[n] = '\0';
  colon = strchr((char *)text, ':');
  if (!colon || colon[1] == '\0' || strlen(colon + 1) > DB_ID_MAX)
    return bad_query(err, "cursor: not one an archive page gave");
  *colon = '\0';
  ms = strtoll((char *)text, &end, 10);
  if (*end != '\0' || end == (char *)text || ms < 0)
    return bad_query(err, "cursor: not one an archive page gave");
  walk->q.after_ms = ms;
  snprintf(walk->after_id, sizeof(walk->after_id), "%s", colon + 1);
  walk->q.after_id = walk->after_id;
  return CAIRN_OK;
}

static enum cairn_status read_outcome(const char *result, enum outcome *out,
                                      struct cairn_error *err)
{
  int i;

  *out = OUTCOME_ANY;
  if (!result)
    return CAIRN_OK;
  for (i = OUTCOME_WON; i <= OUTCOME_DRAWN; i++)
    if (strcmp(result, outcome_names[i]) == 0) {
      *out = (enum outcome)i;
      return CAIRN_OK;
    }
  return bad_query(err, "result must be won, lost or drawn");
}

/* Copy a query value that must fit `size` (an id or a title) into out. */
static enum cairn_status read_id(const char *value, const char *name, char *out, size_t size,
                                 struct cairn_error *err)
{
  if (strlen(value) >= size || !value[0])
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                      "%s must be 1 to %zu characters", name, size - 1);
  snprintf(out, size, "%s", value);
  return CAIRN_OK;
}

/* The filters shared by the listing and the export into *walk. */
static enum cairn_status read_walk(const struct api_request *req, struct archive_walk *walk,
                                   struct cairn_error *err)
{
  const char *player = query_value(req, "player");
  const char *title = query_value(req, "title");
  const char *opponent = query_value(req, "opponent");
  const char *cursor = query_value(req, "cursor");
  enum cairn_status st = CAIRN_OK;

  walk->server = req->server;
  if (!player && !req->has_player)
    return bad_query(err, "player: give a player id (or a token, for your own games)");
  st = read_id(player ? player : req->player.id, "player", walk->player, sizeof(walk->player), err);
  walk->q.player_id = walk->player;
  if (st == CAIRN_OK && title && !engine_find(title))
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                    "title \"%.64s\" is not one of GET /v1/titles", title);
  if (st == CAIRN_OK && title) {
    snprintf(walk->title, sizeof(walk->title), "%s", title);
    walk->q.title = walk->title;
  }
  if (st == CAIRN_OK && opponent) {
    st = read_id(opponent, "opponent", walk->opponent, sizeof(walk->opponent), err);
    walk->q.opponent = walk->opponent;
  }
  if (st == CAIRN_OK)
    st = read_outcome(query_value(req, "result"), &walk->wanted, err);
  if (st == CAIRN_OK && cursor)
    st = open_cursor(cursor, walk, err);
  return st;
}

/* ---- walking ---- */

/* Called with each game of the walk that the filters keep, its row and
 * the player's seat; CAIRN_DONE stops the walk there (the game is taken:
 * the cursor stands on it). */
typedef enum cairn_status (*archive_visit)(void *arg, const struct db_game *row, int seat,
                                           enum outcome o, struct cairn_error *err);

struct batch {
  struct archive_walk *walk;
  archive_visit visit;
  void *arg;
  int listed;
};

static enum cairn_status visit_listed(void *arg, const char *game_id, int seat,
                                      struct cairn_error *err)
{
  struct batch *b = arg;
  struct archive_walk *walk = b->walk;
  struct db_game row = {0};
  enum outcome o;
  enum cairn_status st;

  b->listed++;
  st = game_load(walk->server->game, game_id, &row, err);
  if (st != CAIRN_OK)
    return st;
  /* The cursor stands on every game looked at, kept or not. */
  walk->q.after_ms = row.updated_ms;
  snprintf(walk->after_id, sizeof(walk->after_id), "%s", row.id);
  walk->q.after_id = walk->after_id;
  o = outcome_of(&row, seat);
  if (walk->wanted == OUTCOME_ANY || walk->wanted == o)
    st = b->visit(b->arg, &row, seat, o, err);
  db_game_clear(&row);
  return st;
}

/* One batch of at most `max` games after the cursor, each visited; sets
 * walk->exhausted when storage had fewer. CAIRN_DONE when `visit` stopped
 * it. */
static enum cairn_status walk_batch(struct archive_walk *walk, int max, archive_visit visit,
                                    void *arg, struct cairn_error *err)
{
  struct batch b = {.walk = walk, .visit = visit, .arg = arg};
  enum cairn_status st;

  walk->q.limit = max;
  st = db_games_archive(walk->server->db, &walk->q, visit_listed, &b, err);
  if (st == CAIRN_OK && b.listed < max)
    walk->exhausted = true;
  return st;
}

/* ---- the listing ---- */

struct page {
  json_t *games; /* borrowed: the page being filled */
  int limit;
};

static json_t *archive_entry(const struct db_game *row, int seat, enum outcome o)
{
  json_t *result = row->result_json ? json_loads(row->result_json, 0, NULL) : NULL;

  return json_pack("{s:s, s:s, s:i, s:o, s:i, s:s, s:o, s:I, s:o}", "id", row->id, "title",
                   row->title, "seats", row->seats, "players", api_seats_json(row), "seat", seat,
                   "outcome", outcome_names[o], "result", result ? result : json_null(), "moves",
                   (json_int_t)row->moves, "finished_at", api_time_json(row->updated_ms));
}

static enum cairn_status add_entry(void *arg, const struct db_game *row, int seat, enum outcome o,
                                   struct cairn_error *err)
{
  struct page *p = arg;
  json_t *entry = archive_entry(row, seat, o);

  if (!entry || json_array_append_new(p->games, entry) != 0)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  return (int)json_array_size(p->games) == p->limit ? CAIRN_DONE : CAIRN_OK;
}

static enum cairn_status read_limit(const struct api_request *req, uint32_t fallback, uint32_t max,
                                    uint32_t *limit, struct cairn_error *err)
{
  bool given = false;
  enum cairn_status st;

  *limit = fallback;
  st = api_query_uint(req, "limit", limit, &given, err);
  if (st == CAIRN_OK && (*limit < 1 || *limit > max))
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL, "limit must be 1 to %u", max);
  return st;
}

enum cairn_status api_archive_list(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  struct archive_walk walk = {0};
  struct page p = {0};
  char next[ARCHIVE_CURSOR_MAX];
  uint32_t limit = 0;
  int scanned = 0;
  enum cairn_status st;

  st = read_walk(req, &walk, err);
  if (st == CAIRN_OK)
    st = read_limit(req, ARCHIVE_DEFAULT_LIMIT, ARCHIVE_MAX_LIMIT, &limit, err);
  if (st != CAIRN_OK)
    return st;
  p.limit = (int)limit;
  p.games = json_array();
  while (st == CAIRN_OK && !walk.exhausted && scanned < ARCHIVE_SCAN_MAX) {
    st = walk_batch(&walk, ARCHIVE_BATCH, add_entry, &p, err);
    scanned += ARCHIVE_BATCH;
  }
  if (st != CAIRN_OK && st != CAIRN_DONE) {
    json_decref(p.games);
    return st;
  }
  /* A full page may be the last: the next one is then empty, as a page
   * cut short by the scan's bound may be. */
  if (!walk.exhausted || st == CAIRN_DONE)
    seal_cursor(walk.q.after_ms, walk.after_id, next);
  resp->status = 200;
  resp->body = json_pack("{s:s, s:o, s:o}", "player", walk.player, "games", p.games, "next",
                         !walk.exhausted || st == CAIRN_DONE ? json_string(next) : json_null());
  return CAIRN_OK;
}

/* ---- the export ---- */

/* An NDJSON export in progress: the walk, one batch of ids (storage's
 * next batch is read when it runs out) and one game's export stream. */
struct archive_stream {
  struct archive_walk walk;
  char ids[ARCHIVE_BATCH][DB_ID_MAX + 1];
  int n, next;                    /* ids held, and the next to export */
  int left;                       /* games the export may still give */
  struct api_export_stream *game; /* the game being written, or NULL */
};

static enum cairn_status hold_id(void *arg, const struct db_game *row, int seat, enum outcome o,
                                 struct cairn_error *err)
{
  struct archive_stream *x = arg;

  (void)seat;
  (void)o;
  (void)err;
  snprintf(x->ids[x->n++], sizeof(x->ids[0]), "%s", row->id);
  return CAIRN_OK;
}

/* Open the next game's export stream; false at the end (or on failure,
 * which cuts the answer short: logged by the caller's -1). */
static bool open_next(struct archive_stream *x, bool *failed)
{
  struct cairn_error err = {0};
  struct db_game row = {0};
  enum cairn_status st;

  if (x->left <= 0)
    return false;
  while (x->next == x->n) {
    if (x->walk.exhausted)
      return false;
    x->n = x->next = 0;
    if (walk_batch(&x->walk, ARCHIVE_BATCH, hold_id, x, &err) != CAIRN_OK) {
      *failed = true;
      return false;
    }
  }
  st = game_load(x->walk.server->game, x->ids[x->next++], &row, &err);
  if (st == CAIRN_OK)
    st = api_export_open(x->walk.server, &row, ENGINE_SPECTATOR, &x->game, &err);
  db_game_clear(&row);
  x->left--;
  *failed = st != CAIRN_OK;
  return st == CAIRN_OK;
}

static ssize_t archive_read(void *cls, char *buf, size_t max)
{
  struct archive_stream *x = cls;
  bool failed = false;
  ssize_t n;

  for (;;) {
    if (!x->game && !open_next(x, &failed))
      return failed ? -1 : 0;
    n = api_export_read(x->game, buf, max);
    if (n != 0)
      return n;
    /* The document is over: its line ends. */
    api_export_close(x->game);
    x->game = NULL;
    buf[0] = '\n';
    return 1;
  }
}

static void archive_close(void *cls)
{
  struct archive_stream *x = cls;

  if (x)
    api_export_close(x->game);
  free(x);
}

enum cairn_status api_archive_export(struct api_request *req, struct api_response *resp,
                                     struct cairn_error *err)
{
  struct archive_stream *x = calloc(1, sizeof(*x));
  uint32_t limit = 0;
  enum cairn_status st;

  if (!x)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  st = read_walk(req, &x->walk, err);
  if (st == CAIRN_OK)
    st = read_limit(req, ARCHIVE_EXPORT_MAX, ARCHIVE_EXPORT_MAX, &limit, err);
  if (st != CAIRN_OK) {
    free(x);
    return st;
  }
  x->left = (int)limit;
  resp->status = 200;
  resp->content_type = "application/x-ndjson";
  resp->reader.read = archive_read;
  resp->reader.free = archive_close;
  resp->reader.cls = x;
  return CAIRN_OK;
}
