/*
 * view.c - what each viewer may see, the result, and the canonical
 * serialisation. The only secrets in Everest are the plans and the
 * end-of-round choices of the seats that have submitted them while others
 * still owe theirs; a seat sees its own, nobody sees anyone else's until
 * the reveal (ENGINE_OMNISCIENT sees everything, for the finished-game
 * audit and for serialize).
 *
 * The view is written as JSON text (jsonw.h), with no tree built per
 * request; serialize, which only replay checks and snapshots call, parses
 * the omniscient position the same writer gives, so the two cannot drift.
 */
#include "engine/everest/state.h"

#include <stdlib.h>

static const char *const phase_name[] = {"plan", "order", "heal", "exec", "over", "base"};
static const char *const stage_name[] = {"roars", "actions", "next"};

/* A seat number, or null for none (-1). */
static void write_seat_or_null(struct json_writer *w, int seat)
{
  if (seat >= 0)
    jw_int(w, seat);
  else
    jw_null(w);
}

/* A seat's name, or null for none (-1). */
static void write_name_or_null(struct json_writer *w, int seat)
{
  jw_string(w, seat >= 0 ? everest_seat_name(seat) : NULL);
}

static void write_seat(struct json_writer *w, const struct everest_state *st, int seat, int viewer,
                       bool all)
{
  const struct everest_seat *p = &st->seat[seat];
  const struct everest_yeti *y = &st->yeti[seat];
  bool mine = all || viewer == seat;

  jw_object_begin(w);
  jw_key_int(w, "seat", seat);
  jw_key_string(w, "seat_name", everest_seat_name(seat));
  jw_key(w, "at");
  everest_write_cell(w, y->cell);
  jw_key(w, "home");
  everest_write_cell(w, p->home);
  jw_key(w, "coins");
  everest_write_coins(w, ((1u << EVEREST_COINS) - 1) & ~p->aside);
  jw_key(w, "aside");
  everest_write_coins(w, p->aside);
  jw_key_int(w, "damage", y->damage);
  jw_key_bool(w, "cancelled", y->cancelled);
  jw_key_bool(w, "left_board", y->left_board);
  jw_key_bool(w, "planned", p->planned);
  jw_key_bool(w, "heal_owed", p->heal_owed);
  jw_key_bool(w, "heal_decided", p->heal_decided);
  /* Plans: one's own always; everybody's once revealed (any phase after
   * planning). An unsubmitted plan is empty anyway. */
  if (mine || st->phase != EVEREST_PHASE_PLAN) {
    jw_key(w, "plan");
    everest_write_plan(w, p);
  }
  /* End-of-round choices: hidden until all are in; they take effect at
   * once, after which the fields are reset for the next round. */
  if (mine || st->phase != EVEREST_PHASE_HEAL) {
    jw_key_bool(w, "heal", p->heal);
    jw_key(w, "set_aside");
    everest_write_coins(w, p->set_aside);
  }
  if (p->running || all) {
    jw_key_bool(w, "running", p->running);
    /* A direction as every other one in this title's moves and events. */
    jw_key_string(w, "run_dir", everest_dir_name(p->run_dir));
    jw_key_int(w, "run_mp", p->run_mp);
  }
  if (all)
    jw_key_bool(w, "roared_back", p->roared_back);
  jw_object_end(w);
}

/* The heights are fixed, but a client needs them to draw the mountain. */
static void write_heights(struct json_writer *w)
{
  int r, c;

  jw_array_begin(w);
  for (r = 0; r < EVEREST_ROWS; r++) {
    jw_array_begin(w);
    for (c = 0; c < EVEREST_COLS; c++)
      jw_int(w, everest_height(everest_cell(r, c)));
    jw_array_end(w);
  }
  jw_array_end(w);
}

/* The squares without a tile: "notch" squares are off the board. */
static void write_notches(struct json_writer *w)
{
  int r, c;

  jw_array_begin(w);
  for (r = 0; r < EVEREST_ROWS; r++)
    for (c = 0; c < EVEREST_COLS; c++)
      if (everest_is_notch(r, c)) {
        int at[2] = {r, c};

        jw_int_array(w, at, 2);
      }
  jw_array_end(w);
}

/* The inside corners, each with the seat whose home base it is (or null). */
static void write_corners(struct json_writer *w, const struct everest_state *st)
{
  int corner, seat;

  jw_array_begin(w);
  for (corner = 0; corner < EVEREST_CORNERS; corner++) {
    int owner = -1;

    for (seat = 0; seat < st->head.seats; seat++)
      if (st->seat[seat].home == everest_corner(corner))
        owner = seat;
    jw_object_begin(w);
    jw_key(w, "at");
    everest_write_cell(w, everest_corner(corner));
    jw_key(w, "home_of");
    write_seat_or_null(w, owner);
    jw_key(w, "home_of_name");
    write_name_or_null(w, owner);
    jw_object_end(w);
  }
  jw_array_end(w);
}

/* The dice of the last conflict, as they lie on the table: rounds of
 * [seat, face] like the conflict event, then the high roller. */
static void write_last_conflict(struct json_writer *w, const struct everest_state *st)
{
  const struct everest_dice_log *log = &st->last_conflict;
  int r, seat;

  if (!log->round) {
    jw_null(w);
    return;
  }
  jw_object_begin(w);
  jw_key_int(w, "round", log->round);
  jw_key_int(w, "step", log->step);
  jw_key(w, "rolls");
  jw_array_begin(w);
  for (r = 0; r < log->n_rounds; r++) {
    jw_array_begin(w);
    for (seat = 0; seat < st->head.seats; seat++)
      if (log->face[r][seat] >= 0) {
        int roll[2] = {seat, log->face[r][seat]};

        jw_int_array(w, roll, 2);
      }
    jw_array_end(w);
  }
  jw_array_end(w);
  jw_key(w, "chooser");
  write_seat_or_null(w, log->chooser);
  jw_key(w, "chooser_name");
  write_name_or_null(w, log->chooser);
  jw_object_end(w);
}

static void write_roar(struct json_writer *w, const struct everest_state *st,
                       const struct everest_roar_record *r)
{
  int seat;

  jw_object_begin(w);
  jw_key_int(w, "seat", r->roarer);
  jw_key_string(w, "seat_name", everest_seat_name(r->roarer));
  jw_key_bool(w, "back", r->back);
  jw_key(w, "target");
  write_seat_or_null(w, r->target);
  jw_key(w, "target_name");
  write_name_or_null(w, r->target);
  jw_key(w, "checks");
  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++)
    if (r->check[seat] >= 0) {
      jw_object_begin(w);
      jw_key_int(w, "seat", seat);
      jw_key_string(w, "seat_name", everest_seat_name(seat));
      jw_key_int(w, "check", r->check[seat]);
      jw_key_bool(w, "affected", r->check[seat] == EVEREST_NULL);
      jw_object_end(w);
    }
  jw_array_end(w);
  jw_object_end(w);
}

static const char *roll_outcome(int roll)
{
  return roll >= 2 ? "run" : roll == EVEREST_ACE ? "roar-back" : "shiver";
}

static void write_roll(struct json_writer *w, const struct everest_roll_record *r)
{
  jw_object_begin(w);
  jw_key_int(w, "seat", r->seat);
  jw_key_string(w, "seat_name", everest_seat_name(r->seat));
  jw_key_int(w, "from", r->from);
  jw_key_string(w, "from_name", everest_seat_name(r->from));
  jw_key_int(w, "roll", r->roll);
  jw_key_string(w, "outcome", roll_outcome(r->roll));
  jw_object_end(w);
}

/* The last step's roars: who roared at whom, each side yeti's check die,
 * and every roll on the table with what it made the yeti do. */
static void write_last_roars(struct json_writer *w, const struct everest_state *st)
{
  const struct everest_roar_log *log = &st->last_roars;
  int i;

  if (!log->round) {
    jw_null(w);
    return;
  }
  jw_object_begin(w);
  jw_key_int(w, "round", log->round);
  jw_key_int(w, "step", log->step);
  jw_key(w, "roars");
  jw_array_begin(w);
  for (i = 0; i < log->n_roars; i++)
    write_roar(w, st, &log->roars[i]);
  jw_array_end(w);
  jw_key(w, "rolls");
  jw_array_begin(w);
  for (i = 0; i < log->n_rolls; i++)
    write_roll(w, &log->rolls[i]);
  jw_array_end(w);
  jw_object_end(w);
}

/* The members of the position as `viewer` sees it (every one with `all`),
 * inside an object the caller opened. */
static void write_position(struct json_writer *w, const struct everest_state *st, int viewer,
                           bool all)
{
  int seat, i;

  jw_key_int(w, "round", st->round);
  jw_key_int(w, "round_cap", st->round_cap);
  jw_key_string(w, "phase", phase_name[st->phase]);
  jw_key_int(w, "step", st->step);
  jw_key_string(w, "stage", stage_name[st->stage]);
  jw_key(w, "peak_holder");
  write_seat_or_null(w, st->peak_holder);
  jw_key(w, "chooser");
  write_seat_or_null(w, st->chooser);
  jw_key(w, "conflict");
  jw_array_begin(w);
  for (i = 0; i < st->n_items; i++)
    everest_write_item(w, &st->items[i]);
  jw_array_end(w);
  jw_key(w, "seats");
  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++)
    write_seat(w, st, seat, viewer, all);
  jw_array_end(w);
  jw_key(w, "winner");
  write_seat_or_null(w, st->winner);
  jw_key_bool(w, "capped", st->capped);
  jw_key(w, "base_chooser");
  write_seat_or_null(w, everest_base_chooser(st));
  jw_key(w, "corners");
  write_corners(w, st);
  jw_key(w, "last_conflict");
  write_last_conflict(w, st);
  jw_key(w, "last_roars");
  write_last_roars(w, st);
}

void everest_write_view(const struct engine_game *game, int viewer, struct json_writer *w)
{
  const struct everest_state *st = (const struct everest_state *)game;

  jw_object_begin(w);
  write_position(w, st, viewer, viewer == ENGINE_OMNISCIENT);
  /* The notches are the squares with no tile (height 0), off the board. */
  jw_key(w, "heights");
  write_heights(w);
  jw_key(w, "notches");
  write_notches(w);
  jw_object_end(w);
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
  /* Every field of struct everest_state appears once, secrets included:
   * the omniscient position, written by the one writer the views use. */
  struct json_writer w;

  jw_init(&w);
  jw_object_begin(&w);
  write_position(&w, (const struct everest_state *)game, ENGINE_OMNISCIENT, true);
  jw_object_end(&w);
  return jw_finish_tree(&w);
}
