/*
 * roar.c - "Roaring": who is affected by the roars of one step, the dice
 * they roll, roar-back chains, and who runs away how far. The run-away
 * movement itself is a turn of its own (round.c, conflict.c).
 */
#include "engine/everest/state.h"

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

/* A roar by `roarer` towards `dir` (or at the yeti `target` for a roar
 * back, dir -1): the yeti in the pointed square always, the other three
 * squares' yeti "only ... on the roll of a null on owning player's die".
 * The check die is rolled only when one of those squares holds a yeti. */
static enum cairn_status roar(struct everest_state *st, int roarer, int target,
                              struct affected *next, int *n_next, json_t *events,
                              struct cairn_error *err)
{
  int seats = st->head.seats;
  int from = st->yeti[roarer].cell, dir, others = 0, check = -1;
  json_t *affected = json_array();

  for (dir = 0; dir < EVEREST_DIRS; dir++) {
    int who = everest_occupant(st->yeti, seats, everest_neighbour(from, dir));

    if (who >= 0 && who != target)
      others++;
  }
  if (target >= 0) {
    add(next, n_next, target, roarer, false);
    json_array_append_new(affected, json_integer(target));
  }
  if (others) {
    check = roll(st);
    if (check == EVEREST_NULL)
      for (dir = 0; dir < EVEREST_DIRS; dir++) {
        int who = everest_occupant(st->yeti, seats, everest_neighbour(from, dir));

        if (who >= 0 && who != target) {
          add(next, n_next, who, roarer, false);
          json_array_append_new(affected, json_integer(who));
        }
      }
  }
  return everest_emit(events,
                      json_pack("{s:s, s:i, s:o, s:o, s:o}", "type", "roar", "seat", roarer,
                                "target", target >= 0 ? json_integer(target) : json_null(), "check",
                                check >= 0 ? json_integer(check) : json_null(), "affected",
                                affected),
                      err);
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
  for (seat = 0; seat < seats; seat++) {
    const struct everest_coin *c = everest_step_coin(st, st->yeti, seat, st->step);
    int target;

    if (!c || everest_action_of(c) != EVEREST_ROAR)
      continue;
    /* "The roar always affects a yeti in the square pointed to by the tick
     * mark on the null coin." */
    target = everest_occupant(st->yeti, seats, everest_neighbour(st->yeti[seat].cell, c->dir));
    status = roar(st, seat, target, next, &n_next, events, err);
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
      status =
          everest_emit(events,
                       json_pack("{s:s, s:i, s:i, s:i, s:s}", "type", "roar-roll", "seat", a->seat,
                                 "from", a->source, "roll", value, "outcome", outcome),
                       err);
      if (status != CAIRN_OK)
        return status;
      if (value == EVEREST_ACE) {
        /* "the yeti roars back at the roaring yeti, the original yeti must
         * also make a die roll ... except that any ace result is treated as
         * a null. Yeti in other surrounding squares must make the check die
         * roll as specified above" */
        int k;

        p->roared_back = true;
        status = roar(st, a->seat, a->source, next, &n_next, events, err);
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
