/*
 * view.c - what each viewer may see, the result, and the canonical
 * serialisation. The only secrets in Everest are the plans and the
 * end-of-round choices of the seats that have submitted them while others
 * still owe theirs; a seat sees its own, nobody sees anyone else's until
 * the reveal (ENGINE_OMNISCIENT sees everything, for the finished-game
 * audit and for serialize).
 */
#include "engine/everest/state.h"

static const char *const phase_name[] = {"plan", "order", "heal", "exec", "over", "base"};
static const char *const stage_name[] = {"roars", "actions", "next"};

static json_t *coin_list(unsigned mask)
{
  json_t *list = json_array();
  int coin;

  for (coin = 0; list && coin < EVEREST_COINS; coin++)
    if (mask & (1u << coin))
      json_array_append_new(list, json_integer(coin));
  return list;
}

static json_t *board_json(void)
{
  json_t *rows = json_array();
  int r, c;

  for (r = 0; rows && r < EVEREST_ROWS; r++) {
    json_t *row = json_array();

    for (c = 0; row && c < EVEREST_COLS; c++)
      json_array_append_new(row, json_integer(everest_height(everest_cell(r, c))));
    json_array_append_new(rows, row);
  }
  return rows;
}

static json_t *seat_json(const struct everest_state *st, int seat, int viewer, bool all)
{
  const struct everest_seat *p = &st->seat[seat];
  const struct everest_yeti *y = &st->yeti[seat];
  bool mine = all || viewer == seat;
  json_t *obj = json_pack(
      "{s:i, s:s, s:o, s:o, s:o, s:o, s:i, s:b, s:b, s:b, s:b, s:b}", "seat", seat, "seat_name",
      everest_seat_name(seat), "at", everest_cell_json(y->cell), "home", everest_cell_json(p->home),
      "coins", coin_list(((1u << EVEREST_COINS) - 1) & ~p->aside), "aside", coin_list(p->aside),
      "damage", y->damage, "cancelled", y->cancelled, "left_board", y->left_board, "planned",
      p->planned, "heal_owed", p->heal_owed, "heal_decided", p->heal_decided);

  if (!obj)
    return NULL;
  /* Plans: one's own always; everybody's once revealed (any phase after
   * planning). An unsubmitted plan is empty anyway. */
  if (mine || st->phase != EVEREST_PHASE_PLAN)
    json_object_set_new(obj, "plan", everest_plan_json(p));
  /* End-of-round choices: hidden until all are in; they take effect at
   * once, after which the fields are reset for the next round. */
  if (mine || st->phase != EVEREST_PHASE_HEAL) {
    json_object_set_new(obj, "heal", json_boolean(p->heal));
    json_object_set_new(obj, "set_aside", coin_list(p->set_aside));
  }
  if (p->running || all) {
    json_object_set_new(obj, "running", json_boolean(p->running));
    /* A direction as every other one in this title's moves and events. */
    json_object_set_new(obj, "run_dir", json_string(everest_dir_name(p->run_dir)));
    json_object_set_new(obj, "run_mp", json_integer(p->run_mp));
  }
  if (all)
    json_object_set_new(obj, "roared_back", json_boolean(p->roared_back));
  return obj;
}

/* The squares without a tile: "notch" squares are off the board. */
static json_t *notches_json(void)
{
  json_t *list = json_array();
  int r, c;

  for (r = 0; list && r < EVEREST_ROWS; r++)
    for (c = 0; c < EVEREST_COLS; c++)
      if (everest_is_notch(r, c))
        json_array_append_new(list, json_pack("[i, i]", r, c));
  return list;
}

/* The inside corners, each with the seat whose home base it is (or null). */
static json_t *corners_json(const struct everest_state *st)
{
  json_t *list = json_array();
  int corner, seat;

  for (corner = 0; list && corner < EVEREST_CORNERS; corner++) {
    int owner = -1;

    for (seat = 0; seat < st->head.seats; seat++)
      if (st->seat[seat].home == everest_corner(corner))
        owner = seat;
    json_array_append_new(
        list, json_pack("{s:o, s:o, s:o}", "at", everest_cell_json(everest_corner(corner)),
                        "home_of", owner >= 0 ? json_integer(owner) : json_null(), "home_of_name",
                        owner >= 0 ? json_string(everest_seat_name(owner)) : json_null()));
  }
  return list;
}

static json_t *seat_or_null(int seat)
{
  return seat >= 0 ? json_integer(seat) : json_null();
}

static json_t *name_or_null(int seat)
{
  return seat >= 0 ? json_string(everest_seat_name(seat)) : json_null();
}

/* The dice of the last conflict, as they lie on the table: rounds of
 * [seat, face] like the conflict event, then the high roller. */
static json_t *last_conflict_json(const struct everest_state *st)
{
  const struct everest_dice_log *log = &st->last_conflict;
  json_t *rolls = json_array();
  int r, seat;

  if (!log->round) {
    json_decref(rolls);
    return json_null();
  }
  for (r = 0; rolls && r < log->n_rounds; r++) {
    json_t *round = json_array();

    for (seat = 0; round && seat < st->head.seats; seat++)
      if (log->face[r][seat] >= 0)
        json_array_append_new(round, json_pack("[i, i]", seat, log->face[r][seat]));
    json_array_append_new(rolls, round);
  }
  return json_pack("{s:i, s:i, s:o, s:o, s:o}", "round", log->round, "step", log->step, "rolls",
                   rolls, "chooser", seat_or_null(log->chooser), "chooser_name",
                   name_or_null(log->chooser));
}

static json_t *roar_json(const struct everest_state *st, const struct everest_roar_record *r)
{
  json_t *checks = json_array();
  int seat;

  for (seat = 0; checks && seat < st->head.seats; seat++)
    if (r->check[seat] >= 0)
      json_array_append_new(checks, json_pack("{s:i, s:s, s:i, s:b}", "seat", seat, "seat_name",
                                              everest_seat_name(seat), "check", r->check[seat],
                                              "affected", r->check[seat] == EVEREST_NULL));
  return json_pack("{s:i, s:s, s:b, s:o, s:o, s:o}", "seat", r->roarer, "seat_name",
                   everest_seat_name(r->roarer), "back", r->back, "target", seat_or_null(r->target),
                   "target_name", name_or_null(r->target), "checks", checks);
}

static const char *roll_outcome(int roll)
{
  return roll >= 2 ? "run" : roll == EVEREST_ACE ? "roar-back" : "shiver";
}

/* The last step's roars: who roared at whom, each side yeti's check die,
 * and every roll on the table with what it made the yeti do. */
static json_t *last_roars_json(const struct everest_state *st)
{
  const struct everest_roar_log *log = &st->last_roars;
  json_t *roars = json_array(), *rolls = json_array();
  int i;

  if (!log->round) {
    json_decref(roars);
    json_decref(rolls);
    return json_null();
  }
  for (i = 0; roars && i < log->n_roars; i++)
    json_array_append_new(roars, roar_json(st, &log->roars[i]));
  for (i = 0; rolls && i < log->n_rolls; i++) {
    const struct everest_roll_record *r = &log->rolls[i];

    json_array_append_new(rolls, json_pack("{s:i, s:s, s:i, s:s, s:i, s:s}", "seat", r->seat,
                                           "seat_name", everest_seat_name(r->seat), "from", r->from,
                                           "from_name", everest_seat_name(r->from), "roll", r->roll,
                                           "outcome", roll_outcome(r->roll)));
  }
  return json_pack("{s:i, s:i, s:o, s:o}", "round", log->round, "step", log->step, "roars", roars,
                   "rolls", rolls);
}

static json_t *position(const struct everest_state *st, int viewer, bool all)
{
  json_t *seats = json_array(), *items = json_array(), *obj;
  int seat, i;

  for (seat = 0; seats && seat < st->head.seats; seat++)
    json_array_append_new(seats, seat_json(st, seat, viewer, all));
  for (i = 0; items && i < st->n_items; i++)
    json_array_append_new(items, everest_item_json(&st->items[i]));
  obj = json_pack("{s:i, s:i, s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:b}", "round", st->round,
                  "round_cap", st->round_cap, "phase", phase_name[st->phase], "step", st->step,
                  "stage", stage_name[st->stage], "peak_holder",
                  st->peak_holder >= 0 ? json_integer(st->peak_holder) : json_null(), "chooser",
                  st->chooser >= 0 ? json_integer(st->chooser) : json_null(), "conflict", items,
                  "seats", seats, "winner",
                  st->winner >= 0 ? json_integer(st->winner) : json_null(), "capped", st->capped);
  if (!obj)
    return NULL;
  json_object_set_new(obj, "base_chooser", seat_or_null(everest_base_chooser(st)));
  json_object_set_new(obj, "corners", corners_json(st));
  json_object_set_new(obj, "last_conflict", last_conflict_json(st));
  json_object_set_new(obj, "last_roars", last_roars_json(st));
  return obj;
}

json_t *everest_view(const struct engine_game *game, int viewer)
{
  const struct everest_state *st = (const struct everest_state *)game;
  json_t *obj = position(st, viewer, viewer == ENGINE_OMNISCIENT);

  /* The heights are fixed, but a client needs them to draw the mountain;
   * the notches are the squares with no tile (height 0), off the board. */
  if (obj) {
    json_object_set_new(obj, "heights", board_json());
    json_object_set_new(obj, "notches", notches_json());
  }
  return obj;
}

json_t *everest_result(const struct engine_game *game)
{
  const struct everest_state *st = (const struct everest_state *)game;

  if (st->phase != EVEREST_PHASE_OVER)
    return NULL;
  if (st->capped)
    return json_pack("{s:[], s:s, s:i}", "winners", "reason", "round-cap", "rounds", st->round);
  return json_pack("{s:[i], s:s, s:s, s:i}", "winners", st->winner, "winner_name",
                   everest_seat_name(st->winner), "reason", "peak", "rounds", st->round);
}

json_t *everest_serialize(const struct engine_game *game)
{
  /* Every field of struct everest_state appears once, secrets included. */
  return position((const struct everest_state *)game, ENGINE_OMNISCIENT, true);
}
