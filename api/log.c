/*
 * log.c - GET /v1/games/{id}/log: the events each move produced, filtered
 * to what this viewer may see (engine_event_visible), in log order, a page
 * of at most `limit` log rows at a time.
 *
 * Pages are cut by ord, not seq: simultaneous decisions share a seq, so a
 * seq cursor could split their rows across pages or repeat them, while ord
 * is dense and unique. A row is never split (all of its shown events are
 * in one page) and `next` is the ord of the first row not given, to pass as
 * ?from_ord=, or null when the page reached the end of the log as it stood
 * when the game was read.
 */
#include "api.h"

#include <string.h>

#define LOG_PAGE_DEFAULT 500  /* rows, when ?limit= is absent */
#define LOG_PAGE_MAX     1000 /* rows: a page's memory is bounded by this */

struct log_walk {
  uint32_t from_seq; /* only moves whose resulting seq >= this */
  uint32_t end;      /* rows the game row counted: later ones are the next read's */
  uint32_t limit;    /* rows a page holds */
  uint32_t taken;    /* rows in this page so far */
  json_t *next;      /* null, or the ord the next page starts at */
  int viewer;        /* seat or ENGINE_SPECTATOR */
  bool over;         /* finished games reveal everything */
  json_t *out;       /* borrowed: the array being filled */
};

static enum cairn_status add_row(void *arg, const struct db_move *row, struct cairn_error *err)
{
  struct log_walk *walk = arg;
  json_t *events;
  json_t *ev;
  size_t i;

  if (row->ord >= walk->end)
    return CAIRN_DONE;
  if (row->seq < walk->from_seq)
    return CAIRN_OK;
  if (walk->taken == walk->limit) {
    walk->next = json_integer(row->ord);
    return CAIRN_DONE;
  }
  walk->taken++;
  events = json_loads(row->events_json, 0, NULL);
  if (!json_is_array(events)) {
    json_decref(events);
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "log row %u holds unreadable events", row->ord);
  }
  json_array_foreach(events, i, ev)
  {
    if (!engine_event_visible(ev, walk->viewer, walk->over))
      continue;
    json_array_append_new(walk->out, json_pack("{s:I, s:I, s:o, s:O}", "seq", (json_int_t)row->seq,
                                               "ord", (json_int_t)row->ord, "at",
                                               api_time_json(row->at_ms), "event", ev));
  }
  json_decref(events);
  return CAIRN_OK;
}

/* ?from=, ?from_ord= and ?limit=, each checked: a bad one is 400 bad-query
 * naming it. */
static enum cairn_status read_query(struct api_request *req, struct log_walk *walk,
                                    uint32_t *from_ord, struct cairn_error *err)
{
  bool present = false;
  enum cairn_status st;

  walk->limit = LOG_PAGE_DEFAULT;
  st = api_query_uint(req, "from", &walk->from_seq, &present, err);
  if (st == CAIRN_OK)
    st = api_query_uint(req, "from_ord", from_ord, &present, err);
  if (st == CAIRN_OK)
    st = api_query_uint(req, "limit", &walk->limit, &present, err);
  if (st == CAIRN_OK && (walk->limit < 1 || walk->limit > LOG_PAGE_MAX))
    st = cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                    "query parameter \"limit\" must be 1 to %d", LOG_PAGE_MAX);
  return st;
}

enum cairn_status api_log_get(struct api_request *req, struct api_response *resp,
                              struct cairn_error *err)
{
  struct db_game row = {0};
  struct log_walk walk = {0};
  uint32_t from_ord = 0;
  enum cairn_status st;

  st = read_query(req, &walk, &from_ord, err);
  if (st != CAIRN_OK)
    return st;
  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  walk.viewer = api_viewer_seat(req, &row);
  walk.over = strcmp(row.status, DB_STATUS_FINISHED) == 0;
  walk.end = row.moves;
  walk.out = json_array();
  if (from_ord < walk.end)
    st = db_moves_load(req->server->db, row.id, from_ord, add_row, &walk, err);
  if (st != CAIRN_OK)
    goto cleanup;
  resp->status = 200;
  resp->body = json_pack("{s:s, s:I, s:O, s:O?}", "game", row.id, "seq", (json_int_t)row.seq,
                         "events", walk.out, "next", walk.next ? walk.next : json_null());
cleanup:
  json_decref(walk.out);
  json_decref(walk.next);
  db_game_clear(&row);
  return st;
}
