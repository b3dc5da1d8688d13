/*
 * determinize.c - a running game rebuilt from what one seat sees (the
 * determinize slot), for bots that must not peek. Everest hides only what
 * other seats decided at the same time as this one: the plans submitted
 * while this seat still owes its own, and the end-of-round choices made
 * while others are still to choose. Everything else (the yeti, coins,
 * damage, the conflict awaiting an order, the dice on the table) is read
 * back from the view. Each hidden decision is drawn from the caller's
 * generator among those the title's sample_move offers that seat (a
 * uniform pick over its legal decisions, not a model of the player), and
 * recorded as the title records a submitted one. The dice to come are
 * unknown too: the sample's generator is fresh. roared_back, which no
 * seat's view shows, only matters inside a roar resolution, which never
 * spans a decision: it is false.
 */
#include "engine/everest/state.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"plan", "order", "heal", "exec", "over", "base"};
static const char *const stage_names[] = {"roars", "actions", "next"};
static const char *const kind_names[] = {"move", "run", "snowballs"};

static int read_dir(struct engine_view_reader *r, const json_t *obj, const char *key)
{
  int dir = everest_dir_parse(engine_vr_string(r, obj, key));

  if (dir < 0)
    r->bad = true;
  return dir < 0 ? 0 : dir;
}

/* A seat number, or -1 for null. */
static int read_seat_or_none(struct engine_view_reader *r, const json_t *obj, const char *key,
                             int seats)
{
  const json_t *v = key ? json_object_get(obj, key) : obj;

  return json_is_null(v) ? -1 : engine_vr_int(r, v, NULL, 0, seats - 1);
}

/* A cell [row, col], or EVEREST_OFF for null. */
static int read_cell(struct engine_view_reader *r, const json_t *obj, const char *key)
{
  const json_t *v = json_object_get(obj, key);
  int cell;

  if (json_is_null(v))
    return EVEREST_OFF;
  if (json_array_size(v) != 2) {
    r->bad = true;
    return EVEREST_OFF;
  }
  cell = everest_cell(engine_vr_int(r, json_array_get(v, 0), NULL, 0, EVEREST_ROWS - 1),
                      engine_vr_int(r, json_array_get(v, 1), NULL, 0, EVEREST_COLS - 1));
  if (cell == EVEREST_OFF)
    r->bad = true;
  return cell;
}

static unsigned read_coins(struct engine_view_reader *r, const json_t *obj, const char *key)
{
  const json_t *list = engine_vr_array(r, obj, key, EVEREST_COINS);
  unsigned mask = 0;
  size_t i;

  for (i = 0; i < json_array_size(list); i++)
    mask |= 1u << engine_vr_int(r, json_array_get(list, i), NULL, 0, EVEREST_COINS - 1);
  return mask;
}

static void read_plan(struct engine_view_reader *r, const json_t *list, struct everest_seat *p)
{
  size_t i;

  if (json_array_size(list) > EVEREST_PLAN_LEN)
    r->bad = true;
  for (i = 0; i < json_array_size(list) && !r->bad; i++) {
    const json_t *coin = json_array_get(list, i);

    p->plan[i].coin = engine_vr_int(r, coin, "coin", 0, EVEREST_COINS - 1);
    p->plan[i].suit = strcmp(engine_vr_string(r, coin, "face"), "suit") == 0;
    p->plan[i].dir = read_dir(r, coin, "dir");
  }
  p->plan_len = (int)json_array_size(list);
}

/* One seat's public part and, where the view shows them, its decisions.
 * *hidden_plan and *hidden_heal say which of them the view kept back. */
static void read_seat(struct engine_view_reader *r, const json_t *v, struct everest_state *st,
                      int seat, bool *hidden_plan, bool *hidden_heal)
{
  struct everest_seat *p = &st->seat[seat];
  struct everest_yeti *y = &st->yeti[seat];

  if (engine_vr_int(r, v, "seat", 0, EVEREST_MAX_SEATS - 1) != seat)
    r->bad = true;
  y->cell = read_cell(r, v, "at");
  p->home = read_cell(r, v, "home");
  p->aside = read_coins(r, v, "aside");
  y->damage = engine_vr_int(r, v, "damage", 0, 1 << 20);
  y->cancelled = engine_vr_bool(r, v, "cancelled");
  y->left_board = engine_vr_bool(r, v, "left_board");
  p->planned = engine_vr_bool(r, v, "planned");
  p->heal_owed = engine_vr_bool(r, v, "heal_owed");
  p->heal_decided = engine_vr_bool(r, v, "heal_decided");
  *hidden_plan = !json_object_get(v, "plan");
  if (!*hidden_plan)
    read_plan(r, engine_vr_array(r, v, "plan", EVEREST_PLAN_LEN), p);
  *hidden_heal = !json_object_get(v, "heal");
  if (!*hidden_heal) {
    p->heal = engine_vr_bool(r, v, "heal");
    p->set_aside = read_coins(r, v, "set_aside");
  }
  if (json_object_get(v, "running")) {
    p->running = engine_vr_bool(r, v, "running");
    p->run_dir = read_dir(r, v, "run_dir");
    p->run_mp = engine_vr_int(r, v, "run_mp", 0, EVEREST_COINS);
  }
}

static void read_items(struct engine_view_reader *r, const json_t *list, struct everest_state *st)
{
  size_t i;

  for (i = 0; i < json_array_size(list) && !r->bad; i++) {
    const json_t *v = json_array_get(list, i);
    struct everest_item *item = &st->items[st->n_items++];

    item->kind = engine_vr_name(r, v, "kind", kind_names, 3);
    item->seat = -1;
    if (item->kind == EVEREST_ITEM_SNOWBALLS)
      continue;
    item->seat = engine_vr_int(r, v, "seat", 0, st->head.seats - 1);
    item->dir = read_dir(r, v, "dir");
    item->mp = engine_vr_int(r, v, "mp", 0, EVEREST_COINS);
  }
}

static void read_last_conflict(struct engine_view_reader *r, const json_t *v,
                               struct everest_state *st)
{
  struct everest_dice_log *log = &st->last_conflict;
  const json_t *rolls;
  size_t i, j;

  memset(log->face, -1, sizeof(log->face));
  log->chooser = -1;
  if (json_is_null(v))
    return;
  log->round = engine_vr_int(r, v, "round", 1, 1 << 20);
  log->step = engine_vr_int(r, v, "step", 0, EVEREST_PLAN_LEN);
  log->chooser = read_seat_or_none(r, v, "chooser", st->head.seats);
  rolls = engine_vr_array(r, v, "rolls", EVEREST_MAX_ROLL_ROUNDS);
  log->n_rounds = (int)json_array_size(rolls);
  for (i = 0; i < json_array_size(rolls); i++)
    for (j = 0; j < json_array_size(json_array_get(rolls, i)); j++) {
      const json_t *roll = json_array_get(json_array_get(rolls, i), j);
      int seat = engine_vr_int(r, json_array_get(roll, 0), NULL, 0, st->head.seats - 1);

      log->face[i][seat] = engine_vr_int(r, json_array_get(roll, 1), NULL, 0, EVEREST_DIE_SIDES);
    }
}

static void read_last_roars(struct engine_view_reader *r, const json_t *v, struct everest_state *st)
{
  struct everest_roar_log *log = &st->last_roars;
  const json_t *roars, *rolls;
  size_t i, j;

  if (json_is_null(v))
    return;
  log->round = engine_vr_int(r, v, "round", 1, 1 << 20);
  log->step = engine_vr_int(r, v, "step", 0, EVEREST_PLAN_LEN);
  roars = engine_vr_array(r, v, "roars", EVEREST_MAX_ROARS);
  log->n_roars = (int)json_array_size(roars);
  for (i = 0; i < json_array_size(roars); i++) {
    const json_t *roar = json_array_get(roars, i);
    const json_t *checks = engine_vr_array(r, roar, "checks", EVEREST_MAX_SEATS);
    struct everest_roar_record *rec = &log->roars[i];

    memset(rec->check, -1, sizeof(rec->check));
    rec->roarer = engine_vr_int(r, roar, "seat", 0, st->head.seats - 1);
    rec->back = engine_vr_bool(r, roar, "back");
    rec->target = read_seat_or_none(r, roar, "target", st->head.seats);
    for (j = 0; j < json_array_size(checks); j++) {
      const json_t *check = json_array_get(checks, j);

      rec->check[engine_vr_int(r, check, "seat", 0, st->head.seats - 1)] =
          engine_vr_int(r, check, "check", 0, EVEREST_DIE_SIDES);
    }
  }
  rolls = engine_vr_array(r, v, "rolls", EVEREST_MAX_ROAR_ROLLS);
  log->n_rolls = (int)json_array_size(rolls);
  for (i = 0; i < json_array_size(rolls); i++) {
    const json_t *roll = json_array_get(rolls, i);

    log->rolls[i].seat = engine_vr_int(r, roll, "seat", 0, st->head.seats - 1);
    log->rolls[i].from = engine_vr_int(r, roll, "from", 0, st->head.seats - 1);
    log->rolls[i].roll = engine_vr_int(r, roll, "roll", 0, EVEREST_DIE_SIDES);
  }
}

/* Draw `seat`'s hidden decision (a plan, or an end-of-round choice) from
 * the moves it could have made, and record it as the title does. */
static void sample_decision(struct engine_view_reader *r, struct everest_state *st, int seat,
                            bool plan, struct engine_rng *rng)
{
  struct cairn_error err = {0};
  bool pending = false;
  json_t *move;
  uint64_t choice;

  if (plan)
    st->seat[seat].planned = false;
  else
    st->seat[seat].heal_decided = false;
  choice = engine_rng_next(rng);
  choice |= (uint64_t)engine_rng_next(rng) << 32;
  move = engine_sample_move(&st->head, seat, choice);
  if (!move ||
      st->head.module->apply_move(&st->head, seat, move, NULL, &pending, &err) != CAIRN_OK ||
      !pending)
    r->bad = true; /* another seat still owes its decision, so this one stays pending */
  json_decref(move);
}

enum cairn_status everest_determinize(const char *text, size_t len, const json_t *options, int seat,
                                      struct engine_rng *rng, struct engine_game *game,
                                      struct cairn_error *err)
{
  struct everest_state *st = (struct everest_state *)game;
  struct engine_view_reader r = {0};
  json_t *view = json_loadb(text, len, 0, NULL);
  const json_t *seats;
  bool hidden_plan[EVEREST_MAX_SEATS] = {false}, hidden_heal[EVEREST_MAX_SEATS] = {false};
  int s;

  (void)options; /* round_cap is in the view */
  if (!json_is_object(view) || !json_is_null(json_object_get(view, "winner")) ||
      json_is_true(json_object_get(view, "capped"))) {
    r.bad = true; /* bots decide only in running games */
    snprintf(r.what, sizeof(r.what), "winner");
  }
  st->round = engine_vr_int(&r, view, "round", 0, 1 << 20);
  st->round_cap = engine_vr_int(&r, view, "round_cap", 0, 1 << 20);
  st->phase = engine_vr_name(&r, view, "phase", phase_names, 6);
  st->step = engine_vr_int(&r, view, "step", 0, EVEREST_PLAN_LEN);
  st->stage = engine_vr_name(&r, view, "stage", stage_names, 3);
  st->peak_holder = read_seat_or_none(&r, view, "peak_holder", game->seats);
  st->chooser = read_seat_or_none(&r, view, "chooser", game->seats);
  st->winner = -1;
  read_items(&r, engine_vr_array(&r, view, "conflict", EVEREST_MAX_ITEMS), st);
  seats = engine_vr_array(&r, view, "seats", EVEREST_MAX_SEATS);
  if (json_array_size(seats) != (size_t)game->seats)
    r.bad = true;
  for (s = 0; s < game->seats && !r.bad; s++)
    read_seat(&r, json_array_get(seats, (size_t)s), st, s, &hidden_plan[s], &hidden_heal[s]);
  read_last_conflict(&r, json_object_get(view, "last_conflict"), st);
  read_last_roars(&r, json_object_get(view, "last_roars"), st);
  for (s = 0; s < game->seats && !r.bad; s++) {
    if (hidden_plan[s] && st->seat[s].planned)
      sample_decision(&r, st, s, true, rng);
    if (hidden_heal[s] && st->seat[s].heal_decided)
      sample_decision(&r, st, s, false, rng);
  }
  engine_rng_fork(rng, &st->head.rng);
  json_decref(view);
  return engine_vr_status(&r, "everest-piecepack", err);
}
