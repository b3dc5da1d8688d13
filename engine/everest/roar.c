/*
 * roar.c - "Roaring": who is affected by the roars of one step, the dice
 * they roll, roar-back chains, and who runs away how far. The run-away
 * movement itself is a turn of its own (round.c, conflict.c).
 */
#include "engine/everest/state.h"

#include <string.h>

#include "engine/everest/rules.h"

/* A yeti to roll for: affected by `source`'s roar. `ace_is_null` marks the
 * original roarer answering a roar-back: "any ace result is treated as a
 * null". */
struct affected {
  int seat;
  int source;
  bool ace_is_null;
};

static int roll(struct everest_state *st)
{
  return engine_rng_die(&st->head.rng, EVEREST_DIE_SIDES) - 1; /* 0 null .. 5 */
}

/* The direction from `from` to the orthogonally adjacent `to`. */
static int direction(int from, int to)
{
  int dir;

  for (dir = 0; dir < EVEREST_DIRS; dir++)
    if (everest_neighbour(from, dir) == to)
      return dir;
  return -1;
}

static void add(struct affected *list, int *n, int seat, int source, bool ace_is_null)
{
  int i;

  /* One roll per yeti per wave: "determine all yeti that are affected
   * first, then simultaneously roll" (the first roarer in seat order is the
   * one it runs from; RULES.md). */
  for (i = 0; i < *n; i++)
    if (list[i].seat == seat)
      return;
  list[*n].seat = seat;
  list[*n].source = source;
  list[*n].ace_is_null = ace_is_null;
  (*n)++;
}

static json_t *seat_or_null(int seat)
{
  return seat >= 0 ? json_integer(seat) : json_null();
}

static json_t *name_or_null(int seat)
{
  return seat >= 0 ? json_string(everest_seat_name(seat)) : json_null();
}

/* A new record in the table's view of the last roars (view.c). */
static struct everest_roar_record *record_roar(struct everest_state *st, int roarer, int target)
{
  struct everest_roar_log *log = &st->last_roars;
  struct everest_roar_record *r;
  int seat;

  if (log->n_roars >= EVEREST_MAX_ROARS)
    return NULL; /* cannot happen: each yeti roars once and roars back once a step */
  r = &log->roars[log->n_roars++];
  r->roarer = roarer;
  r->target = target;
  r->back = false;
  for (seat = 0; seat < EVEREST_MAX_SEATS; seat++)
    r->check[seat] = -1;
  return r;
}

/* A roar by `roarer` towards `dir` (or at the yeti `target` for a roar
 * back, dir -1): the yeti in the pointed square always, each yeti in the
 * other three squares "only ... on the roll of a null on owning player's
 * die", one check roll for each of them: "Yeti in other surrounding squares
 * must make the check die roll". */
static enum cairn_status roar(struct everest_state *st, int roarer, int target, bool back,
                              struct affected *next, int *n_next, json_t *events,
                              struct cairn_error *err)
{
  int seats = st->head.seats;
  int from = st->yeti[roarer].cell, dir;
  /* The event's lists, built only when there are events. */
  json_t *affected = events ? json_array() : NULL, *names = events ? json_array() : NULL;
  json_t *checks = events ? json_array() : NULL;
  struct everest_roar_record *r = record_roar(st, roarer, target);

  if (r)
    r->back = back;
  if (target >= 0) {
    add(next, n_next, target, roarer, false);
    if (events) {
      json_array_append_new(affected, json_integer(target));
      json_array_append_new(names, json_string(everest_seat_name(target)));
    }
  }
  for (dir = 0; dir < EVEREST_DIRS; dir++) {
    int who = everest_occupant(st->yeti, seats, everest_neighbour(from, dir)), check;

    if (who < 0 || who == target)
      continue;
    check = roll(st);
    if (r)
      r->check[who] = check;
    if (events)
      json_array_append_new(checks, everest_object(3, "seat", json_integer(who), "seat_name",
                                                   everest_text(everest_seat_name(who)), "check",
                                                   json_integer(check)));
    if (check != EVEREST_NULL)
      continue;
    add(next, n_next, who, roarer, false);
    if (events) {
      json_array_append_new(affected, json_integer(who));
      json_array_append_new(names, json_string(everest_seat_name(who)));
    }
  }
  return EVEREST_EMIT(events, err, 9, "type", everest_text("roar"), "seat", json_integer(roarer),
                      "seat_name", everest_text(everest_seat_name(roarer)), "back",
                      json_boolean(back), "target", seat_or_null(target), "target_name",
                      name_or_null(target), "checks", checks, "affected", affected,
                      "affected_names", names);
}

static enum cairn_status roll_event(struct everest_state *st, const struct affected *a, int value,
                                    const char *outcome, json_t *events, struct cairn_error *err)
{
  struct everest_roar_log *log = &st->last_roars;

  if (log->n_rolls < EVEREST_MAX_ROAR_ROLLS) {
    log->rolls[log->n_rolls].seat = a->seat;
    log->rolls[log->n_rolls].from = a->source;
    log->rolls[log->n_rolls].roll = value;
    log->n_rolls++;
  }
  return EVEREST_EMIT(events, err, 7, "type", everest_text("roar-roll"), "seat",
                      json_integer(a->seat), "seat_name", everest_text(everest_seat_name(a->seat)),
                      "from", json_integer(a->source), "from_name",
                      everest_text(everest_seat_name(a->source)), "roll", json_integer(value),
                      "outcome", everest_text(outcome));
}

/* True when some yeti roars at step st->step. */
static bool anyone_roars(const struct everest_state *st)
{
  int seat;

  for (seat = 0; seat < st->head.seats; seat++) {
    const struct everest_coin *c = everest_step_coin(st, st->yeti, seat, st->step);

    if (c && everest_action_of(c) == EVEREST_ROAR)
      return true;
  }
  return false;
}

enum cairn_status everest_resolve_roars(struct everest_state *st, json_t *events,
                                        struct cairn_error *err)
{
  struct affected wave[EVEREST_MAX_SEATS * EVEREST_MAX_SEATS], next[EVEREST_MAX_SEATS];
  int seats = st->head.seats, n_wave = 0, n_next = 0, seat, i;
  enum cairn_status status;

  for (seat = 0; seat < seats; seat++) {
    st->seat[seat].running = false;
    st->seat[seat].roared_back = false;
  }
  if (!anyone_roars(st))
    return CAIRN_OK;
  /* The last roars stay on the table until the next ones. */
  memset(&st->last_roars, 0, sizeof(st->last_roars));
  st->last_roars.round = st->round;
  st->last_roars.step = st->step;
  for (seat = 0; seat < seats; seat++) {
    const struct everest_coin *c = everest_step_coin(st, st->yeti, seat, st->step);
    int target;

    if (!c || everest_action_of(c) != EVEREST_ROAR)
      continue;
    /* "The roar always affects a yeti in the square pointed to by the tick
     * mark on the null coin." */
    target = everest_occupant(st->yeti, seats, everest_neighbour(st->yeti[seat].cell, c->dir));
    status = roar(st, seat, target, false, next, &n_next, events, err);
    if (status != CAIRN_OK)
      return status;
  }
  while (n_next) {
    n_wave = n_next;
    for (i = 0; i < n_wave; i++)
      wave[i] = next[i];
    n_next = 0;
    for (i = 0; i < n_wave; i++) {
      struct affected *a = &wave[i];
      struct everest_seat *p = &st->seat[a->seat];
      const char *outcome;
      int value;

      /* "once a yeti is determined to be running away from a roar, it does
       * not roll for subsequent roars" */
      if (p->running)
        continue;
      value = roll(st);
      /* A yeti roars back at most once per resolution, which bounds every
       * chain (RULES.md). */
      if (value == EVEREST_ACE && (a->ace_is_null || p->roared_back))
        value = EVEREST_NULL;
      if (value >= 2) {
        /* "the yeti runs away directly away from the roaring yeti using the
         * number of MP shown on the die" */
        p->running = true;
        p->run_mp = value;
        p->run_dir = direction(st->yeti[a->source].cell, st->yeti[a->seat].cell);
        outcome = "run";
      } else if (value == EVEREST_ACE) {
        outcome = "roar-back";
      } else {
        outcome = "shiver";
      }
      status = roll_event(st, a, value, outcome, events, err);
      if (status != CAIRN_OK)
        return status;
      if (value == EVEREST_ACE) {
        /* "the yeti roars back at the roaring yeti, the original yeti must
         * also make a die roll ... except that any ace result is treated as
         * a null. Yeti in other surrounding squares must make the check die
         * roll as specified above" */
        int k;

        p->roared_back = true;
        status = roar(st, a->seat, a->source, true, next, &n_next, events, err);
        if (status != CAIRN_OK)
          return status;
        for (k = 0; k < n_next; k++)
          if (next[k].seat == a->source)
            next[k].ace_is_null = true;
      }
    }
  }
  return CAIRN_OK;
}
