/*
 * test_conflict.c - "Executing the plans" (engine/everest/conflict.c):
 * the conflict test, worked through every example the rules list, the
 * dice for the order, the high roller's order move, and "no conflict, no
 * roll".
 *
 * "Actions by different yeti are considered to be in conflict, if a
 * different board configuration would result when the actions are
 * performed sequentially in two different orders."
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>

#include <string.h>

#include "support.h"

#define AT(r, c) everest_cell(r, c)

static struct engine_game *quiet(void)
{
  struct engine_game *game = es_new(4, 11, 0);

  es_quiet(game);
  return game;
}

static struct everest_item move(int seat, int dir, int mp)
{
  struct everest_item item = {.kind = EVEREST_ITEM_MOVE, .seat = seat, .dir = dir, .mp = mp};

  return item;
}

static struct everest_item snowballs(void)
{
  struct everest_item item = {.kind = EVEREST_ITEM_SNOWBALLS, .seat = -1};

  return item;
}

/* Give `seat` a first coin thrown suit side up towards `dir`. */
static void throws(struct engine_game *game, int seat, int dir)
{
  struct everest_seat *p = &es_state(game)->seat[seat];

  p->plan_len = 1;
  p->plan[0].coin = 2;
  p->plan[0].suit = true;
  p->plan[0].dir = dir;
}

/* Example: "two or more yeti want to end the their action in the same
 * square" - here from two sides, at the corner r1c1. */
static void test_two_yeti_ending_in_the_same_square_conflict(void **state)
{
  struct engine_game *game = quiet();
  struct everest_item items[2] = {move(0, EVEREST_N, 1), move(1, EVEREST_W, 2)};

  es_place(game, 0, 1, 0);
  es_place(game, 1, 0, 2);
  assert_true(everest_turn_conflicts(es_state(game), items, 2));
  engine_free(game);
}

/* Example: "a yeti wants to move through the square of a stationary yeti".
 * The stationary yeti throws a snowball south: from where it stands it
 * splats on the cliff; pushed one square east first, it hits the yeti at
 * the cliff top. A stationary yeti doing nothing at all gives one acting
 * yeti, hence only one order and no conflict. */
static void test_moving_through_a_stationary_yeti(void **state)
{
  struct engine_game *game = quiet();
  struct everest_item items[2] = {move(0, EVEREST_E, 3), snowballs()};

  es_place(game, 0, 0, 1);
  es_place(game, 1, 0, 3);
  es_place(game, 2, 1, 4);
  throws(game, 1, EVEREST_S);
  assert_true(everest_turn_conflicts(es_state(game), items, 2));
  assert_false(everest_turn_conflicts(es_state(game), items, 1));
  engine_free(game);
}

/* Example: "two yeti are moving in the same or opposite directions and have
 * overlapping paths". Same direction: the follower pushes the leader or
 * not. Opposite: whoever goes first gets further. Paths that do not
 * overlap do not conflict. */
static void test_overlapping_paths_in_the_same_or_opposite_direction(void **state)
{
  struct engine_game *game = quiet();
  struct everest_item same[2] = {move(0, EVEREST_E, 3), move(1, EVEREST_E, 2)};
  struct everest_item opposite[2] = {move(0, EVEREST_E, 2), move(1, EVEREST_W, 3)};
  struct everest_item apart[2] = {move(0, EVEREST_E, 2), move(1, EVEREST_E, 2)};

  es_place(game, 0, 0, 0);
  es_place(game, 1, 0, 2);
  assert_true(everest_turn_conflicts(es_state(game), same, 2));
  es_place(game, 1, 0, 5);
  assert_true(everest_turn_conflicts(es_state(game), opposite, 2));
  es_place(game, 1, 0, 4);
  assert_false(everest_turn_conflicts(es_state(game), apart, 2));
  engine_free(game);
}

/* Example: "a thrown snowball could miss due to the movement of the target
 * yeti". A target stepping out of the line conflicts; a target walking
 * along the line is hit either way and ends on the same square. */
static void test_a_snowball_that_could_miss(void **state)
{
  struct engine_game *game = quiet();
  struct everest_item out_of_line[2] = {snowballs(), move(1, EVEREST_S, 1)};
  struct everest_item along[2] = {snowballs(), move(1, EVEREST_E, 1)};

  es_place(game, 0, 0, 0);
  throws(game, 0, EVEREST_E);
  es_place(game, 1, 0, 7);
  assert_true(everest_turn_conflicts(es_state(game), out_of_line, 2));
  es_place(game, 1, 0, 4);
  assert_false(everest_turn_conflicts(es_state(game), along, 2));
  engine_free(game);
}

/* Example: "Two yeti moving in 90-degree orthogonal paths do not conflict,
 * unless one of them wants to end its movement in the intersecting square
 * of their paths." Paths cross at r2c2. */
static void test_ninety_degree_paths_conflict_only_when_one_ends_at_the_crossing(void **state)
{
  struct engine_game *game = quiet();
  struct everest_item through[2] = {move(0, EVEREST_S, 3), move(1, EVEREST_E, 4)};
  struct everest_item ends[2] = {move(0, EVEREST_S, 3), move(1, EVEREST_E, 2)};

  es_place(game, 0, 0, 1);
  es_place(game, 1, 1, 0);
  assert_false(everest_turn_conflicts(es_state(game), through, 2));
  assert_true(everest_turn_conflicts(es_state(game), ends, 2));
  engine_free(game);
}

/* Two yeti meeting at r1c1 through real plans, for the whole flow. */
static struct engine_game *meeting(const int *dice, int n, json_t **events)
{
  struct engine_game *game = quiet();

  es_place(game, 0, 1, 0);
  es_place(game, 1, 0, 2);
  json_decref(es_act(&game, 0, 1, "value", "N"));
  es_dice(game, dice, n);
  *events = es_act(&game, 1, 2, "value", "W");
  return game;
}

/* everest, Executing the plans: "If there is a conflict, then all players
 * roll their dice and the player with the high roll gets to choose the
 * order for all the actions". Seat 1 rolls highest and alone owes the
 * order move; legal lists both orders; the order it gives is carried out. */
static void test_the_high_roller_chooses_the_order(void **state)
{
  static const int dice[] = {2, 5, 0, 1};
  json_t *events, *conflict, *legal, *view, *last;
  struct engine_game *game = meeting(dice, 4, &events);
  int to_act[ENGINE_MAX_SEATS];

  conflict = kit_event(events, "conflict", 0);
  assert_non_null(conflict);
  assert_int_equal(kit_int(conflict, "chooser"), 1);
  assert_int_equal(json_array_size(json_array_get(json_object_get(conflict, "rolls"), 0)), 4);
  assert_int_equal(everest_module.to_act(game, to_act), 1);
  assert_int_equal(to_act[0], 1);
  legal = engine_legal_moves(game, 1);
  assert_int_equal(json_array_size(legal), 2);
  json_decref(legal);
  legal = engine_legal_moves(game, 0);
  assert_int_equal(json_array_size(legal), 0);
  json_decref(legal);
  json_decref(events);
  /* The dice stay on the table for everyone to see: the view keeps the
   * last conflict's rolls and the high roller. */
  view = engine_view(game, ENGINE_SPECTATOR);
  last = json_object_get(view, "last_conflict");
  assert_int_equal(kit_int(last, "chooser"), 1);
  assert_string_equal(json_string_value(json_object_get(last, "chooser_name")), "seat 1");
  assert_int_equal(json_integer_value(json_array_get(
                       json_array_get(json_array_get(json_object_get(last, "rolls"), 0), 1), 1)),
                   5);
  json_decref(view);
  /* Seat 1 first: it reaches the corner; seat 0 cannot push it off the
   * board with its one MP (a push costs 1 more) and stays. */
  events = kit_apply(&game, 1, "{\"type\":\"order\",\"order\":[1,0]}");
  assert_non_null(kit_event(events, "order-chosen", 0));
  assert_string_equal(json_string_value(json_array_get(
                          json_object_get(kit_event(events, "order-chosen", 0), "order_names"), 0)),
                      "seat 1's move");
  assert_int_equal(es_state(game)->yeti[1].cell, AT(0, 0));
  assert_int_equal(es_state(game)->yeti[0].cell, AT(1, 0));
  json_decref(events);
  engine_free(game);
}

/* RULES.md "Tied high rolls": the tied high rollers roll again until one
 * is highest. */
static void test_tied_high_rollers_roll_again(void **state)
{
  static const int dice[] = {5, 5, 2, 0, 3, 4};
  json_t *events;
  struct engine_game *game = meeting(dice, 6, &events);
  json_t *conflict = kit_event(events, "conflict", 0);

  assert_int_equal(kit_int(conflict, "chooser"), 1);
  assert_int_equal(json_array_size(json_object_get(conflict, "rolls")), 2);
  assert_int_equal(json_array_size(json_array_get(json_object_get(conflict, "rolls"), 1)), 2);
  json_decref(events);
  engine_free(game);
}

/* everest, Executing the plans: an order must list every conflicting
 * action once; other moves are refused and change nothing. */
static void test_a_bad_order_is_refused(void **state)
{
  static const int dice[] = {2, 5, 0, 1};
  json_t *events;
  struct engine_game *game = meeting(dice, 4, &events);
  struct cairn_error err;

  json_decref(events);
  /* Each refusal names the actions it is about. */
  err = kit_reject(game, 1, "{\"type\":\"order\",\"order\":[1]}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_EXECUTING);
  assert_non_null(strstr(err.detail, "seat 0's move, seat 1's move"));
  err = kit_reject(game, 1, "{\"type\":\"order\",\"order\":[1,1]}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_EXECUTING);
  assert_non_null(strstr(err.detail, "repeats seat 1's move"));
  err = kit_reject(game, 1, "{\"type\":\"order\",\"order\":[1,\"snowballs\"]}", CAIRN_EILLEGAL,
                   CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_EXECUTING);
  assert_non_null(strstr(err.detail, "none of the conflicting actions"));
  kit_reject(game, 1, "{\"type\":\"order\",\"order\":[1,true]}", CAIRN_EINVAL,
             CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(game, 1, "{\"type\":\"order\"}", CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL);
  kit_reject(game, 1, "{\"type\":\"plan\",\"plan\":[]}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             EVEREST_RULE_EXECUTING);
  kit_reject(game, 0, "{\"type\":\"order\",\"order\":[0,1]}", CAIRN_ETURN, CAIRN_CODE_NOT_YOUR_TURN,
             NULL);
  engine_free(game);
}

/* "If there is a conflict, then all players roll": without one, nobody
 * rolls and nobody is asked. */
static void test_no_conflict_means_no_roll(void **state)
{
  struct engine_game *game = quiet();
  json_t *events;
  uint64_t drawn;

  es_place(game, 0, 0, 0);
  es_place(game, 1, 0, 4);
  json_decref(es_act(&game, 0, 2, "value", "E"));
  drawn = game->rng.drawn;
  events = es_act(&game, 1, 2, "value", "E");
  assert_int_equal(kit_count(events, "conflict"), 0);
  assert_int_equal(game->rng.drawn, drawn);
  assert_int_equal(es_state(game)->phase, EVEREST_PHASE_HEAL);
  assert_int_equal(es_state(game)->yeti[0].cell, AT(0, 2));
  assert_int_equal(es_state(game)->yeti[1].cell, AT(0, 6));
  json_decref(events);
  engine_free(game);
}

/* everest, Executing the plans: "with one restriction: all snowball throws
 * still happen simultaneously" - the snowballs are one item of the order,
 * named "snowballs". */
static void test_snowballs_are_one_item_of_the_order(void **state)
{
  static const int dice[] = {5, 0, 0, 0};
  struct engine_game *game = quiet();
  json_t *events, *legal;

  es_place(game, 0, 0, 0);
  es_place(game, 1, 0, 7);
  es_place(game, 2, 5, 0);
  json_decref(es_act(&game, 0, 2, "suit", "E"));
  json_decref(es_act(&game, 1, 1, "value", "S"));
  es_dice(game, dice, 4);
  events = es_act(&game, 2, 3, "suit", "E");
  assert_int_equal(kit_count(events, "conflict"), 1);
  legal = engine_legal_moves(game, 0);
  assert_int_equal(json_array_size(legal), 2); /* [1,"snowballs"] and ["snowballs",1] */
  json_decref(legal);
  json_decref(events);
  events = kit_apply(&game, 0, "{\"type\":\"order\",\"order\":[\"snowballs\",1]}");
  /* Hit first, pushed off the east edge: the move south never happens. */
  assert_int_equal(es_state(game)->yeti[1].cell, EVEREST_OFF);
  assert_int_equal(es_state(game)->yeti[1].damage, 1);
  json_decref(events);
  engine_free(game);
}

/* ---- The subset walk against every order (issue 22) ---- */

static uint64_t next_random(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static int below(uint64_t *s, int n)
{
  return (int)(next_random(s) % (uint64_t)n);
}

/* A random board for `seats` yeti: distinct squares (anywhere, in one row
 * or column, or within one 3x3 window), some yeti off the board, any damage, and plans whose coins
 * at st->step are thrown suit side up by the seats marked in *throwers (a random set). */
static void random_board(struct everest_state *st, uint64_t *s, unsigned *throwers)
{
  int seat, k, rows = EVEREST_ROWS, cols = EVEREST_COLS, row0 = 0, col0 = 0;

  *throwers = 0;
  st->step = below(s, EVEREST_PLAN_LEN);
  switch (below(s, 4)) {
  case 0: /* anywhere */
    break;
  case 1: /* one row: moves and snowballs meet from afar */
    rows = 1;
    row0 = below(s, EVEREST_ROWS);
    break;
  case 2: /* one column */
    cols = 1;
    col0 = below(s, EVEREST_COLS);
    break;
  default: /* a 3x3 window: paths cross */
    rows = cols = 3;
    row0 = below(s, EVEREST_ROWS - 2);
    col0 = below(s, EVEREST_COLS - 2);
  }
  for (seat = 0; seat < st->head.seats; seat++) {
    struct everest_yeti *y = &st->yeti[seat];
    struct everest_seat *p = &st->seat[seat];
    bool taken;

    do {
      y->cell = below(s, 6) == 0 ? EVEREST_OFF
                                 : everest_cell(row0 + below(s, rows), col0 + below(s, cols));
      taken = y->cell != EVEREST_OFF && everest_occupant(st->yeti, seat, y->cell) >= 0;
    } while (taken || (y->cell == EVEREST_OFF && below(s, 2)));
    y->damage = below(s, 4);
    y->left_board = y->cell == EVEREST_OFF && below(s, 2);
    y->cancelled = y->left_board || below(s, 8) == 0;
    p->plan_len = below(s, 4);
    for (k = 0; k < EVEREST_PLAN_LEN; k++) {
      p->plan[k].coin = below(s, EVEREST_COINS);
      p->plan[k].suit = false;
      p->plan[k].dir = below(s, EVEREST_DIRS);
    }
    if (below(s, 3) == 0) {
      p->plan[st->step].suit = true;
      *throwers |= 1u << seat;
    }
  }
}

/* Random items for that board: a move or a run for some seats that throw
 * nothing, and the snowballs as one item when anyone throws, in a random
 * order; returns how many (at most four). */
static int random_items(const struct everest_state *st, uint64_t *s, unsigned throwers,
                        struct everest_item items[EVEREST_MAX_ITEMS])
{
  int seat, n = 0, i;

  for (seat = 0; seat < st->head.seats; seat++) {
    int kind = below(s, 4);

    if ((throwers & (1u << seat)) || kind == 3)
      continue;
    items[n].kind = kind == 2 ? EVEREST_ITEM_RUN : EVEREST_ITEM_MOVE;
    items[n].seat = seat;
    items[n].dir = below(s, EVEREST_DIRS);
    items[n].mp = 1 + below(s, 5);
    n++;
  }
  if (throwers && n < EVEREST_MAX_ITEMS)
    items[n++] = snowballs();
  for (i = n - 1; i > 0; i--) { /* Fisher-Yates */
    int j = below(s, i + 1);
    struct everest_item t = items[i];

    items[i] = items[j];
    items[j] = t;
  }
  return n;
}

/* Whether some proper subset of the items (two or more) conflicts: the
 * case where the subset walk must fall back on every order. */
static bool a_part_conflicts(const struct everest_state *st, const struct everest_item *items,
                             int n)
{
  unsigned set, all = (1u << n) - 1;

  for (set = 1; set < all; set++) {
    struct everest_item part[EVEREST_MAX_ITEMS];
    int k = 0, i;

    for (i = 0; i < n; i++)
      if (set & (1u << i))
        part[k++] = items[i];
    if (k >= 2 && everest_turn_conflicts_by_orders(st, part, k))
      return true;
  }
  return false;
}

/* everest_turn_conflicts gives the answer of trying every order, on
 * random boards of two, three and four yeti, conflicts and calm turns
 * both seen many times. The fallback's case, a conflicting part inside a
 * calm whole, is rare on random boards (34 in 200,000 four-yeti turns), so
 * the test below sets one up. */
static void test_the_subset_walk_answers_as_every_order_does(void **state)
{
  uint64_t s = 22;
  int seats;

  (void)state;
  for (seats = EVEREST_MIN_SEATS; seats <= EVEREST_MAX_SEATS; seats++) {
    struct engine_game *game = es_new(seats, seats, 0);
    struct everest_state *st = es_state(game);
    int conflicts = 0, calm = 0, calm_with_a_conflicting_part = 0, round;

    for (round = 0; round < 20000; round++) {
      struct everest_item items[EVEREST_MAX_ITEMS];
      unsigned throwers;
      int n;
      bool expected;

      random_board(st, &s, &throwers);
      n = random_items(st, &s, throwers, items);
      expected = everest_turn_conflicts_by_orders(st, items, n);
      assert_int_equal(everest_turn_conflicts(st, items, n), expected);
      if (expected)
        conflicts++;
      else if (n >= 3 && a_part_conflicts(st, items, n))
        calm_with_a_conflicting_part++;
      else if (n >= 2)
        calm++;
    }
    print_message("%d seats: %d conflicts, %d without, %d without but with a conflicting part\n",
                  seats, conflicts, calm, calm_with_a_conflicting_part);
    assert_true(conflicts > 100);
    assert_true(calm > 1000);
    engine_free(game);
  }
}

/* Found by the random boards above: seats 0 and 1 conflict (seat 0's move
 * east ends on seat 1's square or pushes it), yet with seat 2's move all
 * three orders give one board. The subset walk sees the conflicting pair
 * first and must not call the whole a conflict. */
static void test_a_conflicting_pair_inside_a_calm_turn(void **state)
{
  struct engine_game *game = es_new(3, 11, 0);
  struct everest_state *st = es_state(game);
  struct everest_item items[3] = {move(2, EVEREST_N, 5), move(0, EVEREST_E, 5),
                                  move(1, EVEREST_N, 5)};

  (void)state;
  st->step = 1;
  es_place(game, 0, 2, 5);
  es_place(game, 1, 2, 6);
  es_place(game, 2, 0, 6);
  st->yeti[0].damage = 2;
  st->yeti[1].damage = 1;
  st->yeti[2].damage = 0;
  assert_true(a_part_conflicts(st, items, 3));
  assert_false(everest_turn_conflicts_by_orders(st, items, 3));
  assert_false(everest_turn_conflicts(st, items, 3));
  engine_free(game);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_yeti_ending_in_the_same_square_conflict),
      cmocka_unit_test(test_moving_through_a_stationary_yeti),
      cmocka_unit_test(test_overlapping_paths_in_the_same_or_opposite_direction),
      cmocka_unit_test(test_a_snowball_that_could_miss),
      cmocka_unit_test(test_ninety_degree_paths_conflict_only_when_one_ends_at_the_crossing),
      cmocka_unit_test(test_the_high_roller_chooses_the_order),
      cmocka_unit_test(test_tied_high_rollers_roll_again),
      cmocka_unit_test(test_a_bad_order_is_refused),
      cmocka_unit_test(test_no_conflict_means_no_roll),
      cmocka_unit_test(test_snowballs_are_one_item_of_the_order),
      cmocka_unit_test(test_the_subset_walk_answers_as_every_order_does),
      cmocka_unit_test(test_a_conflicting_pair_inside_a_calm_turn),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
