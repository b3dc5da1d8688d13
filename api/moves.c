/*
 * moves.c - POST /v1/games/{id}/moves: decode the request, let the game
 * layer play the move (game_play: the turn checks, the rules, game_commit),
 * and answer {seq, events, game}. The answer is rendered under the game
 * lock, from the state the commit (and any bot moves after it) left.
 */
#include "api.h"

#include <string.h>

static const struct api_field move_fields[] = {
    {"seq", API_INT, true},
    {"move", API_OBJECT, true},
    {NULL, 0, false},
};

/* The events `seat` may see, for the move's answer. */
static void write_visible_events(struct json_writer *w, const json_t *events, int seat, bool over)
{
  size_t i;
  json_t *ev;

  jw_array_begin(w);
  json_array_foreach(events, i, ev)
  {
    if (engine_event_visible(ev, seat, over))
      jw_json(w, ev);
  }
  jw_array_end(w);
}

enum cairn_status api_change_answer(struct api_request *req, const struct db_game *row, int seat,
                                    uint32_t seq, const json_t *events, struct api_response *resp,
                                    struct cairn_error *err)
{
  const struct engine_game *now = NULL;
  enum cairn_status st = game_live_get(req->server->game, row, &now, err);
  struct json_writer w;

  if (st != CAIRN_OK)
    return st;
  jw_init(&w);
  jw_object_begin(&w);
  jw_key_int(&w, "seq", seq);
  jw_key(&w, "events");
  /* Over by the rules or by a resignation: the row was mirrored from the
   * commit, and a finished game hides nothing (api_write_game). */
  write_visible_events(&w, events, seat, strcmp(row->status, DB_STATUS_FINISHED) == 0);
  jw_key(&w, "game");
  api_write_game(&w, req, row, now, false);
  jw_object_end(&w);
  return api_answer_json(resp, 200, &w, err);
}

/* Under the game's lock, `row` loaded under it: play the move, blocking
 * through its commit, and answer. */
static enum cairn_status play_locked(struct api_request *req, const json_t *doc,
                                     struct db_game *row, struct api_response *resp,
                                     struct cairn_error *err)
{
  json_t *events = NULL;
  uint32_t seq = 0;
  int seat = api_viewer_seat(req, row);
  enum cairn_status st =
      game_play(req->server->game, row, seat, json_integer_value(json_object_get(doc, "seq")),
                json_object_get(doc, "move"), &events, &seq, err);

  if (st == CAIRN_OK)
    st = api_change_answer(req, row, seat, seq, events, resp, err);
  json_decref(events);
  return st;
}

static enum cairn_status submit_locked(struct api_request *req, const json_t *doc,
                                       struct api_response *resp, struct cairn_error *err)
{
  struct db_game row = {0};
  enum cairn_status st = api_load_game(req, &row, err);

  if (st == CAIRN_OK)
    st = play_locked(req, doc, &row, resp, err);
  db_game_clear(&row);
  return st;
}

/* A move whose commit is on disk, and what its answer needs. */
struct parked_move {
  struct api_later later; /* first: the server holds the move by it */
  struct api_request req; /* a copy: its strings live as long as the request */
  struct db_game row;     /* loaded under the game's lock, which is held until the answer */
  json_t *doc;            /* the request's body */
  int seat;
  struct game_row_job *job;
};

/* On a finishing thread, the commit's verdict in: its follow-ups, the
 * answer, and the game's lock let go. */
static enum cairn_status answer_parked(struct api_later *later, struct api_response *resp,
                                       struct cairn_error *err)
{
  struct parked_move *m = (struct parked_move *)later;
  json_t *events = NULL;
  uint32_t seq = 0;
  enum cairn_status st = game_commit_finish(m->job, &events, &seq, err);

  m->job = NULL;
  if (st == CAIRN_OK)
    st = api_change_answer(&m->req, &m->row, m->seat, seq, events, resp, err);
  json_decref(events);
  game_unlock(m->req.server->game, m->req.id);
  db_game_clear(&m->row);
  json_decref(m->doc);
  m->doc = NULL;
  return st;
}

static void release_parked(struct api_later *later)
{
  free(later);
}

static void commit_ready(void *arg)
{
  api_later_done(arg);
}

/* Whether a bot plays a seat: its replies are commits of their own, made
 * while the answer waits, so such a game's moves take the blocking path. */
static bool bots_reply(const struct db_game *row)
{
  for (int seat = 0; seat < row->seats; seat++)
    if (game_seat_played_by_bot(row, seat))
      return true;
  return false;
}

/* Under the game's lock: play the move with its commit queued and park the
 * answer, which then holds the lock until it is written; or play it
 * blocking (a game with bots: play_locked). */
static enum cairn_status submit_parked(struct api_request *req, json_t *doc,
                                       struct api_response *resp, struct cairn_error *err)
{
  struct parked_move *m = calloc(1, sizeof(*m));
  enum cairn_status st;

  if (!m)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  st = api_load_game(req, &m->row, err);
  if (st == CAIRN_OK && bots_reply(&m->row)) {
    st = play_locked(req, doc, &m->row, resp, err);
    db_game_clear(&m->row);
    free(m);
    return st;
  }
  m->later =
      (struct api_later){.answer = answer_parked, .release = release_parked, .server = req->server};
  m->req = *req;
  if (st == CAIRN_OK) {
    m->seat = api_viewer_seat(req, &m->row);
    m->doc = json_incref(doc);
    st = game_play_async(req->server->game, &m->row, m->seat,
                         json_integer_value(json_object_get(doc, "seq")),
                         json_object_get(doc, "move"), commit_ready, &m->later, &m->job, err);
  }
  if (st != CAIRN_OK) {
    json_decref(m->doc);
    db_game_clear(&m->row);
    free(m);
    return st;
  }
  resp->later = &m->later;
  return CAIRN_OK;
}

enum cairn_status api_moves_submit(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  json_t *doc = NULL;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    return st;
  st = api_body_object(req, move_fields, false, &doc, err);
  if (st != CAIRN_OK)
    return st;
  game_lock(req->server->game, req->id);
  if (req->server->moves_park) {
    st = submit_parked(req, doc, resp, err);
    if (!resp->later) /* else the parked move holds the lock until its answer */
      game_unlock(req->server->game, req->id);
  } else {
    st = submit_locked(req, doc, resp, err);
    game_unlock(req->server->game, req->id);
  }
  json_decref(doc);
  return st;
}
