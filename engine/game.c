/*
 * game.c - driving a module: creating games and applying moves atomically.
 * The rules themselves live in each title; this file holds what is the same
 * for all of them (seat checks, clone-then-apply, seq, event visibility).
 */
#include "engine.h"
#include "jsonr.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum cairn_status engine_new(const struct engine_module *module, const struct engine_setup *setup,
                             const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game **out,
                             struct cairn_error *err)
{
  struct engine_game *game;
  enum cairn_status st;

  assert(module && setup && seed && out);
  *out = NULL;
  if (setup->seats < module->min_seats || setup->seats > module->max_seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "seats: %s takes %d to %d seats, not %d", module->id, module->min_seats,
                      module->max_seats, setup->seats);
  st = engine_options_check(module, setup->options, err);
  if (st != CAIRN_OK)
    return st;
  game = calloc(1, module->state_size);
  if (!game)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  /* The common head is filled here, once for every title. */
  game->module = module;
  game->seats = setup->seats;
  game->seq = 0;
  st = module->new_game(setup, seed, game, err);
  if (st != CAIRN_OK) {
    free(game);
    return st;
  }
  *out = game;
  return CAIRN_OK;
}

void engine_free(struct engine_game *game)
{
  free(game);
}

/* A state is one flat block (engine.h), so a copy is a memcpy. */
struct engine_game *engine_clone(const struct engine_game *game)
{
  struct engine_game *copy = malloc(game->module->state_size);

  if (copy)
    memcpy(copy, game, game->module->state_size);
  return copy;
}

int engine_to_act(const struct engine_game *game, int seats[ENGINE_MAX_SEATS])
{
  return game->module->to_act(game, seats);
}

/* New reference: the one value a write_* slot wrote, parsed; NULL when
 * out of memory. For callers that want a tree (tools, tests, bots); answers
 * use the text as written. */
static json_t *parsed(void (*write)(const struct engine_game *, int, struct json_writer *),
                      const struct engine_game *game, int who)
{
  struct json_writer w;

  jw_init(&w);
  write(game, who, &w);
  return jw_finish_tree(&w);
}

json_t *engine_legal_moves(const struct engine_game *game, int seat)
{
  return parsed(game->module->write_legal, game, seat);
}

json_t *engine_view(const struct engine_game *game, int viewer)
{
  return parsed(game->module->write_view, game, viewer);
}

void engine_write_legal(const struct engine_game *game, int seat, struct json_writer *out)
{
  game->module->write_legal(game, seat, out);
}

void engine_write_choices(const struct engine_game *game, int seat, struct json_writer *out)
{
  if (game->module->write_choices)
    game->module->write_choices(game, seat, out);
  else
    engine_choices_of_legal(game, seat, out);
}

json_t *engine_choices(const struct engine_game *game, int seat)
{
  return parsed(engine_write_choices, game, seat);
}

void engine_write_view(const struct engine_game *game, int viewer, struct json_writer *out)
{
  game->module->write_view(game, viewer, out);
}

json_t *engine_result(const struct engine_game *game)
{
  return game->module->result(game);
}

bool engine_may_act(const struct engine_game *game, int seat)
{
  int seats[ENGINE_MAX_SEATS];
  int n = engine_to_act(game, seats);
  int i;

  for (i = 0; i < n; i++)
    if (seats[i] == seat)
      return true;
  return false;
}

json_t *engine_sample_move(const struct engine_game *game, int seat, uint64_t choice)
{
  json_t *legal, *move;
  size_t n;

  if (game->module->sample_move)
    return game->module->sample_move(game, seat, choice);
  legal = engine_legal_moves(game, seat);
  n = json_array_size(legal);
  move = n ? json_incref(json_array_get(legal, (size_t)(choice % n))) : NULL;
  json_decref(legal);
  return move;
}

bool engine_is_over(const struct engine_game *game)
{
  json_t *result = engine_result(game);
  bool over = result != NULL;

  json_decref(result);
  return over;
}

/* Whether `seat` may move in `game` now: what engine_apply and the replay
 * steps check before a title sees a move (apply_move's preconditions). */
static enum cairn_status check_turn(const struct engine_game *game, int seat,
                                    struct cairn_error *err)
{
  if (seat < 0 || seat >= game->seats)
    return cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_SEATED, NULL, "seat %d is not in this game",
                      seat);
  if (engine_is_over(game))
    return cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_ACTIVE, NULL,
                      "the game is over; no more moves are accepted");
  if (!engine_may_act(game, seat))
    return cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_YOUR_TURN, NULL,
                      "seat %d does not owe a decision now", seat);
  return CAIRN_OK;
}

/* check_turn, and a move that is an object. */
static enum cairn_status check_move(const struct engine_game *game, int seat, const json_t *move,
                                    struct cairn_error *err)
{
  enum cairn_status st = check_turn(game, seat, err);

  if (st == CAIRN_OK && !json_is_object(move))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "move: expected an object");
  return st;
}

enum cairn_status engine_apply(const struct engine_game *game, int seat, const json_t *move,
                               struct engine_game **next, json_t **events, struct cairn_error *err)
{
  struct engine_game *copy = NULL;
  json_t *list = NULL;
  bool pending = false;
  enum cairn_status st;

  assert(game && next && events);
  *next = NULL;
  *events = NULL;
  st = check_move(game, seat, move, err);
  if (st != CAIRN_OK)
    return st;
  copy = engine_clone(game);
  list = json_array();
  if (!copy || !list) {
    st = cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    goto cleanup;
  }
  st = game->module->apply_move(copy, seat, move, list, &pending, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (!pending)
    copy->seq++;
  *next = copy;
  *events = list;
  copy = NULL;
  list = NULL;
cleanup:
  engine_free(copy);
  json_decref(list);
  return st;
}

enum cairn_status engine_replay_step(struct engine_game *game, int seat, const json_t *move,
                                     struct cairn_error *err)
{
  bool pending = false;
  enum cairn_status st;

  assert(game);
  st = check_move(game, seat, move, err);
  if (st == CAIRN_OK)
    st = game->module->apply_move(game, seat, move, NULL, &pending, err);
  if (st == CAIRN_OK && !pending)
    game->seq++;
  return st;
}

enum cairn_status engine_replay_text(struct engine_game *game, int seat, const char *move,
                                     size_t len, struct cairn_error *err)
{
  bool pending = false;
  json_t *tree;
  enum cairn_status st;

  assert(game && move);
  if (game->module->replay_text) {
    st = check_turn(game, seat, err);
    if (st == CAIRN_OK)
      st = game->module->replay_text(game, seat, move, len, &pending, err);
    if (st == CAIRN_OK && !pending)
      game->seq++;
    if (st != CAIRN_DONE)
      return st;
  }
  tree = jr_parse(move, len);
  if (!tree)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "move: expected an object");
  st = engine_replay_step(game, seat, tree, err);
  json_decref(tree);
  return st;
}

char *engine_serialize_text(const struct engine_game *game)
{
  /* The common head (seq, generator position) is wrapped around the
   * module's own serialisation so no module has to remember it. The key
   * never changes within a game, so the position pins the generator. */
  json_t *doc = json_pack("{s:o?, s:I, s:I, s:i}", "state", game->module->serialize(game), "seq",
                          (json_int_t)game->seq, "rng_drawn", (json_int_t)game->rng.drawn, "seats",
                          game->seats);
  char *text;

  if (!doc)
    return NULL;
  text = json_dumps(doc, JSON_SORT_KEYS | JSON_COMPACT);
  json_decref(doc);
  return text;
}

bool engine_event_visible(const json_t *event, int viewer, bool game_over)
{
  const json_t *to = json_object_get(event, "private_to");
  size_t i;
  const json_t *seat;

  if (!to || game_over || viewer == ENGINE_OMNISCIENT)
    return true;
  json_array_foreach(to, i, seat)
  {
    if (json_integer_value(seat) == viewer)
      return true;
  }
  return false;
}

bool engine_event_reveals(const struct engine_module *module, const json_t *event)
{
  if (module->version < 2 || !module->event_reveals)
    return true;
  return module->event_reveals(event);
}

bool engine_event_is(const json_t *event, const char *const types[])
{
  const char *type = json_string_value(json_object_get(event, "type"));
  size_t i;

  for (i = 0; type && types[i]; i++)
    if (strcmp(type, types[i]) == 0)
      return true;
  return false;
}
