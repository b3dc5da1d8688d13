/*
 * test_setup.c - IV. Getting Started and XII. Scenarios: options and seat
 * counts, each scenario's deck, Specials in the Event deck, routes, and
 * the Dream Teams draft.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static int owned(struct engine_game *g, int seat, int kind)
{
  int c, n = 0;
  for (c = 0; c < BIT_CARDS; c++)
    if (bit_is(c, kind) && bt_state(g)->loc[c].seat == seat &&
        bt_state(g)->loc[c].zone != BIT_Z_BOX && bt_state(g)->loc[c].zone != BIT_Z_ROUTE)
      n++;
  return n;
}

static int specials_in_events(struct engine_game *g)
{
  int c, n = 0;
  for (c = BIT_SPECIAL_FIRST; c < BIT_EVENT_FIRST; c++)
    n += bt_state(g)->loc[c].zone == BIT_Z_EVENTS;
  return n;
}

static void new_fails(int seats, const char *options, enum cairn_status status, const char *code)
{
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  json_error_t jerr;
  json_t *o = json_loads(options, 0, &jerr);
  struct engine_setup setup = {.seats = seats, .options = o};
  struct engine_game *g = NULL;
  struct cairn_error err = {0};

  assert_int_equal(engine_new(&bit_module, &setup, seed, &g, &err), status);
  assert_string_equal(err.code, code);
  assert_null(g);
  json_decref(o);
}

/* XII: 1924 and 1953 are solo, 1963 and Dream Teams two players. */
static void test_XII_scenario_fixes_the_seat_count(void **state)
{
  (void)state;
  new_fails(2, "{\"scenario\":\"1953\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE);
  new_fails(1, "{\"scenario\":\"dream-teams\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE);
  new_fails(1, "{\"scenario\":\"1925\"}", CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE);
  new_fails(1, "{\"scenario\":1953}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE);
  new_fails(1, "{\"route\":\"x\"}", CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD);
}

/* XII 1924: six Climbers, four Sherpas, three Camps, four Supplies,
 * "Special: None", Fair on turn 1, a choice of two Routes. */
static void test_XII_1924_deck_and_route_choice(void **state)
{
  struct engine_game *g = bt_new("1924", 1);
  json_t *ev;

  (void)state;
  assert_int_equal(owned(g, 0, BIT_CLIMBER), 6);
  assert_int_equal(owned(g, 0, BIT_SHERPA), 4);
  assert_int_equal(owned(g, 0, BIT_CAMP), 3);
  assert_int_equal(owned(g, 0, BIT_SUPPLIES), 4);
  assert_int_equal(specials_in_events(g), 0);
  assert_int_equal(bt_state(g)->weather, BIT_FAIR);
  assert_int_equal(bt_state(g)->phase, BIT_P_ROUTE);
  assert_true(bt_is_legal(g, 0, "{\"type\":\"route\",\"route\":\"great-couloir\"}"));
  kit_reject(g, 0, "{\"type\":\"route\",\"route\":\"south-col\"}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SCENARIOS);
  ev = kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"great-couloir\"}");
  json_decref(ev);
  assert_int_equal(bt_state(g)->route[0], BIT_GREAT_COULOIR);
  /* Great Couloir: Glacier, High x4, Extreme */
  assert_int_equal(bit_cards[bt_route(g, 0, 0)].terrain, BIT_GLACIER);
  assert_int_equal(bit_cards[bt_route(g, 0, 4)].terrain, BIT_HIGH);
  assert_int_equal(bit_cards[bt_route(g, 0, 5)].terrain, BIT_EXTREME);
  assert_int_equal(bit_pile_count(bt_state(g), BIT_Z_HAND, 0), 5);
  assert_int_equal(bt_state(g)->phase, BIT_P_DISCARD);
  engine_free(g);
}

/* XII 1953: "Special: All cards except Bivouac", Good on turn 1, the South
 * Col Route. */
static void test_XII_1953_deck_without_bivouac(void **state)
{
  struct engine_game *g = bt_new("1953", 1);

  (void)state;
  assert_int_equal(owned(g, 0, BIT_CLIMBER), 6);
  assert_int_equal(owned(g, 0, BIT_SHERPA), 5);
  assert_int_equal(owned(g, 0, BIT_CAMP), 5);
  assert_int_equal(owned(g, 0, BIT_SUPPLIES), 6);
  assert_int_equal(specials_in_events(g), 5);
  assert_int_equal(bt_state(g)->loc[64].zone, BIT_Z_BOX);
  assert_int_equal(bt_state(g)->weather, BIT_GOOD);
  assert_int_equal(bt_state(g)->route[0], BIT_SOUTH_COL);
  assert_int_equal(bit_cards[bt_route(g, 0, 1)].terrain, BIT_GLACIER);
  engine_free(g);
}

/* XII 1963: Player One Whittaker, Gombu, Jerstad, Bishop; Player Two
 * Hornbein, Unsoeld; four Sherpas, four Camps, five Supplies each; fixed
 * routes sharing the Summit. */
static void test_XII_1963_fixed_routes_and_decks(void **state)
{
  struct engine_game *g = bt_new("1963", 1);
  int c;

  (void)state;
  assert_int_equal(owned(g, 0, BIT_CLIMBER), 4);
  assert_int_equal(owned(g, 1, BIT_CLIMBER), 2);
  for (c = 32; c < 36; c++)
    assert_int_equal(bt_state(g)->loc[c].seat, 0);
  assert_int_equal(bt_state(g)->loc[36].seat, 1);
  assert_int_equal(bt_state(g)->loc[37].seat, 1);
  assert_int_equal(owned(g, 1, BIT_SUPPLIES), 5);
  assert_int_equal(owned(g, 0, BIT_SHERPA), 4);
  assert_int_equal(specials_in_events(g), 6);
  assert_int_equal(bt_state(g)->route[0], BIT_SOUTH_COL);
  assert_int_equal(bt_state(g)->route[1], BIT_WEST_RIDGE);
  engine_free(g);
}

/* XII Dream Teams: "Each player rolls 1D6 and the player rolling the
 * higher number selects one card from any of the Climber cards ... players
 * alternate picking Climbers until both players have six Climbers." */
static void test_XII_dream_teams_draft_alternates_from_the_roll_off(void **state)
{
  struct engine_game *g = bt_new("dream-teams", 9);
  struct bit_state *st = bt_state(g);
  int first = st->active, i, seats[ENGINE_MAX_SEATS];
  json_t *ev;
  char buf[64];

  (void)state;
  assert_int_equal(st->phase, BIT_P_DRAFT);
  assert_int_equal(first, st->roll_off[0] > st->roll_off[1] ? 0 : 1);
  assert_int_not_equal(st->roll_off[0], st->roll_off[1]);
  assert_false(engine_may_act(g, 1 - first));
  for (i = 0; i < 12; i++) {
    int seat = i % 2 == 0 ? first : 1 - first;
    assert_int_equal(bit_module.to_act(g, seats), 1);
    assert_int_equal(seats[0], seat);
    snprintf(buf, sizeof buf, "{\"type\":\"draft\",\"climber\":%d}", 37 - i);
    ev = kit_apply(&g, seat, buf);
    json_decref(ev);
  }
  assert_int_equal(owned(g, 0, BIT_CLIMBER), 6);
  assert_int_equal(owned(g, 1, BIT_CLIMBER), 6);
  assert_int_equal(owned(g, 0, BIT_SUPPLIES), 5);
  assert_int_equal(owned(g, 1, BIT_CAMP), 4);
  assert_int_equal(bt_state(g)->phase, BIT_P_ROUTE);
  /* both may choose the same route; routes are drawn separately */
  ev = kit_apply(&g, 0, "{\"type\":\"route\",\"route\":\"great-couloir\"}");
  json_decref(ev);
  ev = kit_apply(&g, 1, "{\"type\":\"route\",\"route\":\"great-couloir\"}");
  json_decref(ev);
  assert_int_equal(bt_state(g)->phase, BIT_P_DISCARD);
  assert_int_not_equal(bt_route(g, 0, 1), bt_route(g, 1, 1));
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_XII_scenario_fixes_the_seat_count),
      cmocka_unit_test(test_XII_1924_deck_and_route_choice),
      cmocka_unit_test(test_XII_1953_deck_without_bivouac),
      cmocka_unit_test(test_XII_1963_fixed_routes_and_decks),
      cmocka_unit_test(test_XII_dream_teams_draft_alternates_from_the_roll_off),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
