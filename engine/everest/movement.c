/*
 * movement.c - one yeti's movement with its movement points: "Yeti
 * Movement" and "Pushing other Yeti". Works on a bare array of yeti so the
 * conflict check (conflict.c) can run the same code on scratch copies.
 * Who moves when is decided elsewhere (round.c, conflict.c).
 */
#include "engine/everest/state.h"

/* Events are a commentary; a simulation passes NULL and gets none. A
 * failed append is ignored here: movement cannot fail, and a lost event
 * under memory pressure is caught by the caller's final allocation checks
 * (json_array_append_new releases the event either way). */
static void note(json_t *events, json_t *event)
{
  if (!events) {
    json_decref(event);
    return;
  }
  if (event)
    json_array_append_new(events, event);
}

/* A yeti leaves the board: "Moving off the edge of the board, not only ends
 * the yeti's movement, but also cancels any remaining actions for this
 * round." The same holds for a pushed yeti ("looses any unperformed
 * actions"). */
static void leave_board(struct everest_yeti *y, int seat, json_t *events)
{
  y->cell = EVEREST_OFF;
  y->cancelled = true;
  y->left_board = true;
  if (events)
    note(events, everest_object(3, "type", everest_text("left-board"), "seat", json_integer(seat),
                                "seat_name", everest_text(everest_seat_name(seat))));
}

/* "Whenever a yeti falls off a cliff or gets hit by a snowball it takes
 * damage." */
static void fall(struct everest_yeti *y, int seat, json_t *events)
{
  y->damage++;
  if (events)
    note(events,
         everest_object(4, "type", everest_text("fall"), "seat", json_integer(seat), "seat_name",
                        everest_text(everest_seat_name(seat)), "to", everest_cell_json(y->cell)));
}

/* The push into `next` (occupied by `victim`) that a yeti moving in `dir`
 * would make. Returns false when it is forbidden: "A yeti cannot be pushed
 * up a cliff or into a square occupied by another yeti". *cost is the extra
 * MP: +1 to the same or a lower level (off the board counts as lower), +2
 * up one level. */
static bool push_cost(const struct everest_yeti *yeti, int seats, int next, int dir, int *cost)
{
  int beyond = everest_neighbour(next, dir);
  int rise;

  if (beyond == EVEREST_OFF) {
    *cost = 1;
    return true;
  }
  rise = everest_height(beyond) - everest_height(next);
  if (rise >= 2 || everest_occupant(yeti, seats, beyond) >= 0)
    return false;
  *cost = rise == 1 ? 2 : 1;
  return true;
}

static void stop(int seat, const char *reason, json_t *events)
{
  if (events)
    note(events,
         everest_object(4, "type", everest_text("stopped"), "seat", json_integer(seat), "seat_name",
                        everest_text(everest_seat_name(seat)), "reason", everest_text(reason)));
}

void everest_move_yeti(struct everest_yeti *yeti, int seats, int seat, int dir, int mp,
                       const char *why, json_t *events)
{
  struct everest_yeti *y = &yeti[seat];
  int from = y->cell;

  if (y->cell == EVEREST_OFF)
    return;
  while (mp > 0) {
    int next = everest_neighbour(y->cell, dir);
    int rise, cost, extra = 0, victim;
    bool falling;

    if (next == EVEREST_OFF) {
      /* Stepping off costs what a step down costs; any MP left will do. */
      leave_board(y, seat, events);
      break;
    }
    rise = everest_height(next) - everest_height(y->cell);
    if (rise >= 2) {
      /* "If a yeti's movement runs it into a cliff from below, it stops and
       * looses the remainder of it movement for that action." */
      stop(seat, "cliff", events);
      break;
    }
    falling = rise <= -2;
    /* "Move one square to the same or lower level 1 MP. Move one square up a
     * step to a higher-level 2 MP." Falling is a move to a lower level. */
    cost = rise == 1 ? 2 : 1;
    victim = everest_occupant(yeti, seats, next);
    if (victim >= 0) {
      if (!push_cost(yeti, seats, next, dir, &extra)) {
        stop(seat, "cannot-push", events);
        break;
      }
      /* "falling off a cliff gives your yeti a free push" */
      if (falling)
        extra = 0;
    }
    if (mp < cost + extra) {
      /* Not enough for the step up, or "insufficient MP to push another
       * yeti": the movement ends and the rest is lost. */
      stop(seat, victim >= 0 ? "push-too-costly" : "step-too-costly", events);
      break;
    }
    mp -= cost + extra;
    if (victim >= 0) {
      struct everest_yeti *v = &yeti[victim];
      int beyond = everest_neighbour(next, dir);

      if (events)
        note(events, everest_object(
                         7, "type", everest_text("push"), "seat", json_integer(seat), "seat_name",
                         everest_text(everest_seat_name(seat)), "pushed", json_integer(victim),
                         "pushed_name", everest_text(everest_seat_name(victim)), "dir",
                         everest_text(everest_dir_name(dir)), "to", everest_cell_json(beyond)));
      if (beyond == EVEREST_OFF) {
        leave_board(v, victim, events);
      } else {
        bool pushed_off_cliff = everest_height(beyond) - everest_height(next) <= -2;

        v->cell = beyond;
        /* A yeti pushed down a cliff falls off it (RULES.md). */
        if (pushed_off_cliff)
          fall(v, victim, events);
      }
    }
    y->cell = next;
    if (falling)
      fall(y, seat, events); /* "then continues moving in the same direction" */
  }
  if (events)
    note(events, everest_object(7, "type", everest_text("moved"), "seat", json_integer(seat),
                                "seat_name", everest_text(everest_seat_name(seat)), "why",
                                everest_text(why), "dir", everest_text(everest_dir_name(dir)),
                                "from", everest_cell_json(from), "to", everest_cell_json(y->cell)));
}
