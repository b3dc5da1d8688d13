/*
 * snowball.c - "Throwing Snowballs": every snowball of a step at once.
 * Flight and hits are worked out on the board as it stands when the group
 * is thrown, then damage and pushes are applied together, because "all
 * snowball throws still happen simultaneously" (Executing the plans).
 */
#include "engine/everest/state.h"

/* The yeti a snowball thrown from `from` towards `dir` hits, or -1.
 * "A thrown snowball travels in a straight line until it hits a yeti, runs
 * into an upward step or cliff, or flies off the board. ... A snowball
 * freely goes downhill, but if it hits an upward step or cliff, it goes
 * splat and has no effect; unless there is a yeti standing on the square
 * directly at the top of the step or cliff, then the yeti gets hit
 * instead." */
static int flight(const struct everest_yeti *yeti, int seats, int from, int dir, int *end)
{
  int at = from;

  for (;;) {
    int next = everest_neighbour(at, dir);
    int who;

    if (next == EVEREST_OFF) {
      *end = EVEREST_OFF;
      return -1;
    }
    who = everest_occupant(yeti, seats, next);
    if (who >= 0) {
      *end = next;
      return who;
    }
    if (everest_height(next) > everest_height(at)) {
      *end = next;
      return -1; /* splat */
    }
    at = next;
  }
}

void everest_throw_snowballs(const struct everest_state *st, struct everest_yeti *yeti,
                             json_t *events)
{
  int seats = st->head.seats;
  int hits[EVEREST_MAX_SEATS] = {0};
  int push_dir[EVEREST_MAX_SEATS];
  int seat, target;

  for (seat = 0; seat < seats; seat++)
    push_dir[seat] = -1;
  for (seat = 0; seat < seats; seat++) {
    const struct everest_coin *c = everest_step_coin(st, yeti, seat, st->step);
    int end, hit;

    if (!c || everest_action_of(c) != EVEREST_SNOWBALL)
      continue;
    hit = flight(yeti, seats, yeti[seat].cell, c->dir, &end);
    if (events)
      json_array_append_new(
          events, everest_object(7, "type", everest_text("snowball"), "seat", json_integer(seat),
                                 "seat_name", everest_text(everest_seat_name(seat)), "dir",
                                 everest_text(everest_dir_name(c->dir)), "hit",
                                 hit >= 0 ? json_integer(hit) : json_null(), "hit_name",
                                 hit >= 0 ? everest_text(everest_seat_name(hit)) : json_null(),
                                 "end", everest_cell_json(end)));
    if (hit < 0)
      continue;
    hits[hit]++;
    /* A yeti hit from two directions at once is pushed by neither. */
    push_dir[hit] = hits[hit] == 1 || push_dir[hit] == c->dir ? c->dir : EVEREST_DIRS;
  }
  /* Damage first, then pushes measured against the board before any of
   * them: "A snowball cannot push a yeti up a step or cliff or into a
   * square occupied by another yeti; in those cases the hit yeti does not
   * move." Two yeti pushed into one square both stay. */
  {
    int dest[EVEREST_MAX_SEATS];

    for (target = 0; target < seats; target++) {
      int to;

      dest[target] = -2; /* not pushed */
      if (!hits[target])
        continue;
      yeti[target].damage += hits[target];
      if (push_dir[target] < 0 || push_dir[target] == EVEREST_DIRS)
        continue;
      to = everest_neighbour(yeti[target].cell, push_dir[target]);
      if (to != EVEREST_OFF && (everest_height(to) > everest_height(yeti[target].cell) ||
                                everest_occupant(yeti, seats, to) >= 0))
        continue;
      dest[target] = to;
    }
    for (target = 0; target < seats; target++) {
      int other, to = dest[target];
      bool clash = false;

      if (to == -2)
        continue;
      for (other = 0; other < seats; other++)
        if (other != target && dest[other] == to && to != EVEREST_OFF)
          clash = true;
      if (clash)
        continue;
      if (to == EVEREST_OFF) {
        /* "A yeti that is pushed off the edge of the board looses any
         * unperformed actions for this round." */
        yeti[target].cell = EVEREST_OFF;
        yeti[target].cancelled = true;
        yeti[target].left_board = true;
      } else {
        if (everest_height(to) - everest_height(yeti[target].cell) <= -2)
          yeti[target].damage++; /* knocked down a cliff: a fall (RULES.md) */
        yeti[target].cell = to;
      }
      if (events)
        json_array_append_new(events, everest_object(4, "type", everest_text("knocked"), "seat",
                                                     json_integer(target), "seat_name",
                                                     everest_text(everest_seat_name(target)), "to",
                                                     everest_cell_json(to)));
    }
  }
}
