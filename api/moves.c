/*
 * moves.c - POST /v1/games/{id}/moves: decode the request, let the game
 * layer play the move (game_play: the turn checks, the rules, game_commit),
 * and answer {seq, events, game}. The answer is rendered under the game
 * lock, from the state the commit (and any bot moves after it) left.
 */
#include "api.h"

#include <stdlib.h>
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

/* Per title, the length of its last change answer, so the next one's
 * buffer is allocated once at about its size: a move's answer is 2-4 KiB
 * (a view with its choices), where the writer's first buffer is 16 KiB,
 * and every allocation past glibc's per-thread caches (1,032 bytes) goes
 * to the shared heap and its consolidation (issue 22). A hint only: a
 * stale or raced value costs a realloc, never a wrong answer. */
#define ANSWER_HINT_SLACK 512 /* a longer answer than the last (more choices) still fits */

static _Atomic size_t *hint_of(struct api_server *server, const struct engine_module *m)
{
  const struct engine_module *const *all = engine_modules();

  for (size_t i = 0; all[i] && i < API_ANSWER_HINT_TITLES; i++)
    if (all[i] == m)
      return &server->answer_hint[i];
  return NULL;
}

/* A writer whose first buffer is the hinted size (none yet: jw_init's). */
static void init_sized(struct json_writer *w, _Atomic size_t *hint)
{
  size_t size = hint ? atomic_load_explicit(hint, memory_order_relaxed) : 0;

  jw_init(w);
  if (size == 0)
    return;
  w->buf = malloc(size + ANSWER_HINT_SLACK);
  w->cap = w->buf ? size + ANSWER_HINT_SLACK : 0;
}

enum cairn_status api_change_answer(struct api_request *req, const struct db_game *row, int seat,
                                    uint32_t seq, const json_t *events, struct api_response *resp,
                                    struct cairn_error *err)
{
  const struct engine_game *now = NULL;
  enum cairn_status st = game_live_get(req->server->game, row, &now, err);
  struct json_writer w;
  _Atomic size_t *hint;

  if (st != CAIRN_OK)
    return st;
  hint = hint_of(req->server, now->module);
  init_sized(&w, hint);
  jw_object_begin(&w);
  jw_key_int(&w, "seq", seq);
  jw_key(&w, "events");
  /* Over by the rules or by a resignation: the row was mirrored from the
   * commit, and a finished game hides nothing (api_write_game). */
  write_visible_events(&w, events, seat, strcmp(row->status, DB_STATUS_FINISHED) == 0);
  jw_key(&w, "game");
  api_write_game(&w, req, row, now, false);
  jw_object_end(&w);
  if (hint && !w.failed)
    atomic_store_explicit(hint, w.len + 1, memory_order_relaxed);
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
    /* The body is read by then (the move's stored text is written before
     * this returns): it is freed on this thread, where it was made. */
    st = game_play_async(req->server->game, &m->row, m->seat,
                         json_integer_value(json_object_get(doc, "seq")),
                         json_object_get(doc, "move"), commit_ready, &m->later, &m->job, err);
  }
  if (st != CAIRN_OK) {
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
