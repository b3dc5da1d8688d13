/*
 * replay.c - rebuilding a game from its seed and move log. This is the one
 * path from the log (the truth) to an engine state: the live cache, the
 * ?at=N replay and every restart go through it, so they cannot disagree.
 */
#include "api.h"

#include <stdio.h>

struct replay_walk {
  struct engine_game *game; /* owned by the walk until handed out */
  const uint32_t *upto_seq; /* stop before the first row past this seq */
  uint32_t rows;
  bool stopped;
};

static enum cairn_status apply_row(void *arg, const struct db_move *row, struct cairn_error *err)
{
  struct replay_walk *walk = arg;
  struct engine_game *next = NULL;
  json_t *move = NULL;
  json_t *events = NULL;
  json_error_t jerr;
  enum cairn_status st;

  if (walk->stopped)
    return CAIRN_OK;
  if (walk->upto_seq && row->seq > *walk->upto_seq) {
    walk->stopped = true;
    return CAIRN_OK;
  }
  move = json_loads(row->move_json, 0, &jerr);
  if (!move) {
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "log row %u holds unreadable JSON", row->ord);
    goto cleanup;
  }
  st = engine_apply(walk->game, row->seat, move, &next, &events, err);
  if (st != CAIRN_OK) {
    /* The row was accepted once; refusing it now means the rules code or
     * the log changed. Never silently skip: report the step. */
    fprintf(stderr, "cairn: replay: log row %u refused: %s\n", row->ord, err->detail);
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "log row %u does not replay",
                    row->ord);
    goto cleanup;
  }
  if (next->seq != row->seq) {
    st = cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                    "log row %u replays to seq %u, the log says %u", row->ord, next->seq, row->seq);
    goto cleanup;
  }
  engine_free(walk->game);
  walk->game = next;
  next = NULL;
  walk->rows++;
cleanup:
  engine_free(next);
  json_decref(move);
  json_decref(events);
  return st;
}

enum cairn_status api_replay(struct api_server *server, const struct db_game *row,
                             const uint32_t *upto_seq, struct engine_game **out, uint32_t *rows,
                             struct cairn_error *err)
{
  const struct engine_module *module = engine_find(row->title);
  struct replay_walk walk = {.upto_seq = upto_seq};
  json_t *options = NULL;
  json_error_t jerr;
  struct engine_setup setup;
  enum cairn_status st;

  *out = NULL;
  *rows = 0;
  if (!module)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "game %s is of title %s, which this server does not have", row->id,
                      row->title);
  options = json_loads(row->options_json ? row->options_json : "{}", 0, &jerr);
  if (!options)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "game %s has unreadable options", row->id);
  setup.seats = row->seats;
  setup.options = options;
  st = engine_new(module, &setup, row->seed, &walk.game, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = server->db.moves_load(server->db.ctx, row->id, 0, apply_row, &walk, err);
  if (st != CAIRN_OK)
    goto cleanup;
  *out = walk.game;
  *rows = walk.rows;
  walk.game = NULL;
cleanup:
  engine_free(walk.game);
  json_decref(options);
  return st;
}
