/*
 * replay.c - rebuilding a game from its seed and move log. This is the one
 * path from the log (the truth) to an engine state: the live cache, the
 * ?at=N replay and every restart go through it, so they cannot disagree.
 *
 * Checkpoints. Replaying a long game from move 0 for every ?at=N would cost
 * O(N) per request, so every GAME_CHECKPOINT_EVERY log rows the walk keeps a
 * copy of the state, and a later replay starts from the nearest checkpoint
 * at or before the position asked for. The log is append-only, so a
 * checkpoint of a past position never goes stale; like every cache here it
 * is derived, bounded (direct-mapped by game id, a collision evicts) and may
 * be dropped at any time.
 */
#include "game.h"
#include "../log/log.h"
#include "fog.h"
#include "../engine/jsonr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECKPOINT_SLOTS 1024

struct checkpoint {
  uint32_t rows;            /* log rows applied to reach `game` */
  struct engine_game *game; /* owned */
};

struct checkpoint_list {
  char id[DB_ID_MAX + 1]; /* "" when empty */
  struct checkpoint *at;  /* owned, n long, rows ascending */
  size_t n, cap;
};

struct game_checkpoints {
  pthread_mutex_t lock;
  struct checkpoint_list slots[CHECKPOINT_SLOTS];
};

struct game_checkpoints *game_checkpoints_new(void)
{
  struct game_checkpoints *c = calloc(1, sizeof(*c));

  if (c)
    pthread_mutex_init(&c->lock, NULL);
  return c;
}

static void list_clear(struct checkpoint_list *l)
{
  size_t i;

  for (i = 0; i < l->n; i++)
    engine_free(l->at[i].game);
  free(l->at);
  memset(l, 0, sizeof(*l));
}

void game_checkpoints_free(struct game_checkpoints *c)
{
  size_t i;

  if (!c)
    return;
  for (i = 0; i < CHECKPOINT_SLOTS; i++)
    list_clear(&c->slots[i]);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

static struct checkpoint_list *list_of(struct game_checkpoints *c, const char *id)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  struct checkpoint_list *l;

  for (const char *p = id; *p; p++)
    h = (h ^ (uint8_t)*p) * 16777619u;
  l = &c->slots[h % CHECKPOINT_SLOTS];
  if (strcmp(l->id, id) != 0) {
    list_clear(l);
    snprintf(l->id, sizeof(l->id), "%s", id);
  }
  return l;
}

/* A copy of the latest checkpoint of `id` at or before seq `upto` (any,
 * when upto is NULL) and within the first `upto_rows` rows, or NULL. */
static struct engine_game *nearest(struct game_checkpoints *c, const char *id, const uint32_t *upto,
                                   uint32_t upto_rows, uint32_t *rows)
{
  struct checkpoint_list *l;
  struct engine_game *copy = NULL;
  size_t i;

  if (!c)
    return NULL;
  pthread_mutex_lock(&c->lock);
  l = list_of(c, id);
  for (i = l->n; i-- > 0;) {
    if ((!upto || l->at[i].game->seq <= *upto) && l->at[i].rows <= upto_rows) {
      copy = engine_clone(l->at[i].game);
      *rows = l->at[i].rows;
      break;
    }
  }
  pthread_mutex_unlock(&c->lock);
  return copy;
}

/* Keep a copy of `game` after `rows` rows unless one is held already. */
static void remember(struct game_checkpoints *c, const char *id, uint32_t rows,
                     const struct engine_game *game)
{
  struct checkpoint_list *l;
  struct engine_game *copy;

  if (!c)
    return;
  pthread_mutex_lock(&c->lock);
  l = list_of(c, id);
  if (l->n && l->at[l->n - 1].rows >= rows)
    goto done; /* checkpoints are kept in order; this one is known */
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    struct checkpoint *grown = realloc(l->at, cap * sizeof(*grown));

    if (!grown)
      goto done; /* a cache may always decline */
    l->at = grown;
    l->cap = cap;
  }
  copy = engine_clone(game);
  if (copy)
    l->at[l->n++] = (struct checkpoint){rows, copy};
done:
  pthread_mutex_unlock(&c->lock);
}

struct replay_walk {
  struct game_service *svc;
  const struct db_game *row;
  struct engine_game *game; /* owned by the walk until handed out */
  const uint32_t *upto_seq; /* stop before the first row past this seq */
  uint32_t upto_rows;       /* stop after this many rows */
  uint32_t rows;            /* rows applied, counted from the log's start */
};

static enum cairn_status walk_prefix(void *arg, uint32_t rows, struct engine_game **out,
                                     struct cairn_error *err)
{
  struct replay_walk *walk = arg;

  return game_replay_rows(walk->svc, walk->row, rows, out, err);
}

/* A stored row that is a platform row (a takeback, a resignation...),
 * applied to walk->game from its parsed `move`. */
static enum cairn_status platform_step(struct replay_walk *walk, const struct db_move *row,
                                       const json_t *move, struct cairn_error *err)
{
  json_t *events = NULL;
  enum cairn_status st;

  st = game_platform_apply(move, row, &walk->game, &events, walk_prefix, walk, err);
  json_decref(events);
  return st;
}

/* Apply one stored row, a title move or a platform row, to walk->game. A
 * title move is applied in place and builds no events (the walk wants the
 * state only): a row that does not replay ends the whole walk, whose state
 * is then dropped, so no clone has to keep the state as it was. A platform
 * row has a "cairn" member and a title's move never has one (titles refuse
 * members they do not know), so a text without the word is the title's,
 * handed over as text: a title that reads its own moves builds no tree
 * (engine_replay_text). Unless it holds a backslash: an escape could spell
 * the member ("\u0063airn", in an imported record) where the word is not
 * found, and the audit, which reads trees, would take the row for a
 * platform row that the replay then handed to the title. */
static enum cairn_status step(struct replay_walk *walk, const struct db_move *row,
                              struct cairn_error *err)
{
  size_t len = strlen(row->move_json);
  json_t *move;
  enum cairn_status st;

  if (!strstr(row->move_json, "\"cairn\"") && !strchr(row->move_json, '\\'))
    return engine_replay_text(walk->game, row->seat, row->move_json, len, err);
  move = jr_parse(row->move_json, len); /* json_loads's tree, sooner */
  if (!move)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "log row %u holds unreadable JSON", row->ord);
  if (game_platform_move(move))
    st = platform_step(walk, row, move, err);
  else
    st = engine_replay_step(walk->game, row->seat, move, err);
  json_decref(move);
  return st;
}

static enum cairn_status apply_row(void *arg, const struct db_move *row, struct cairn_error *err)
{
  struct replay_walk *walk = arg;
  enum cairn_status st;

  if (walk->rows >= walk->upto_rows || (walk->upto_seq && row->seq > *walk->upto_seq))
    return CAIRN_DONE; /* the rest of the log is not needed */
  st = step(walk, row, err);
  if (st != CAIRN_OK) {
    /* The row was accepted once; refusing it now means the rules code or
     * the log changed. Never silently skip: report the step. */
    log_line(LOG_ERROR, "replay", "log row %u refused: %s", row->ord, err->detail);
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "log row %u does not replay",
                      row->ord);
  }
  if (walk->game->seq != row->seq)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "log row %u replays to seq %u, the log says %u", row->ord, walk->game->seq,
                      row->seq);
  walk->rows++;
  if (walk->rows % GAME_CHECKPOINT_EVERY == 0)
    remember(walk->svc->checkpoints, walk->row->id, walk->rows, walk->game);
  return CAIRN_OK;
}

/* The start position of `row`'s game. */
static enum cairn_status start_position(const struct db_game *row, struct engine_game **out,
                                        struct cairn_error *err)
{
  const struct engine_module *module = engine_find(row->title);
  json_t *options;
  struct engine_setup setup;
  enum cairn_status st;

  if (!module)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "game %s is of title %s, which this server does not have", row->id,
                      row->title);
  options = json_loads(row->options_json ? row->options_json : "{}", 0, NULL);
  if (!options)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "game %s has unreadable options", row->id);
  setup.seats = row->seats;
  setup.options = options;
  st = engine_new(module, &setup, row->seed, out, err);
  json_decref(options);
  return st;
}

/* Replay `row`'s log from the nearest checkpoint, stopping at `upto_seq`
 * (if given) or after `upto_rows` rows, whichever comes first. */
static enum cairn_status replay(struct game_service *svc, const struct db_game *row,
                                const uint32_t *upto_seq, uint32_t upto_rows,
                                struct engine_game **out, uint32_t *rows, struct cairn_error *err)
{
  struct replay_walk walk = {.svc = svc, .row = row, .upto_seq = upto_seq, .upto_rows = upto_rows};
  enum cairn_status st = CAIRN_OK;

  *out = NULL;
  *rows = 0;
  walk.game = nearest(svc->checkpoints, row->id, upto_seq, upto_rows, &walk.rows);
  if (!walk.game)
    st = start_position(row, &walk.game, err);
  if (st == CAIRN_OK && walk.rows < upto_rows)
    st = db_moves_load_lean(svc->db, row->id, walk.rows, apply_row, &walk, err); /* no events */
  if (st != CAIRN_OK) {
    engine_free(walk.game);
    return st;
  }
  *out = walk.game;
  *rows = walk.rows;
  return CAIRN_OK;
}

enum cairn_status game_replay(struct game_service *svc, const struct db_game *row,
                              const uint32_t *upto_seq, struct engine_game **out, uint32_t *rows,
                              struct cairn_error *err)
{
  return replay(svc, row, upto_seq, UINT32_MAX, out, rows, err);
}

enum cairn_status game_replay_rows(struct game_service *svc, const struct db_game *row,
                                   uint32_t rows, struct engine_game **out, struct cairn_error *err)
{
  uint32_t applied = 0;
  enum cairn_status st = replay(svc, row, NULL, rows, out, &applied, err);

  if (st == CAIRN_OK && applied != rows) {
    engine_free(*out);
    *out = NULL;
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "game %s has fewer than %u log rows", row->id, rows);
  }
  return st;
}
