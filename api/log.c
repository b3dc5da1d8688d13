/*
 * log.c - GET /v1/games/{id}/log: the events each move produced, filtered
 * to what this viewer may see (engine_event_visible), in log order.
 */
#include "api.h"

#include <string.h>

struct log_walk {
  uint32_t from_seq; /* only moves whose resulting seq >= this */
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

  if (row->seq < walk->from_seq)
    return CAIRN_OK;
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

enum cairn_status api_log_get(struct api_request *req, struct api_response *resp,
                              struct cairn_error *err)
{
  struct db_game row = {0};
  struct log_walk walk = {0};
  bool has_from = false;
  enum cairn_status st;

  st = api_query_uint(req, "from", &walk.from_seq, &has_from, err);
  if (st != CAIRN_OK)
    return st;
  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  walk.viewer = api_viewer_seat(req, &row);
  walk.over = strcmp(row.status, DB_STATUS_FINISHED) == 0;
  walk.out = json_array();
  st = req->server->db.moves_load(req->server->db.ctx, row.id, 0, add_row, &walk, err);
  if (st != CAIRN_OK)
    goto cleanup;
  resp->status = 200;
  resp->body =
      json_pack("{s:s, s:I, s:O}", "game", row.id, "seq", (json_int_t)row.seq, "events", walk.out);
cleanup:
  json_decref(walk.out);
  db_game_clear(&row);
  return st;
}
