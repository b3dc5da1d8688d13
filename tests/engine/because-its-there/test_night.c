/*
 * test_night.c - X. Night Phase: Base Strength Recovery from a drawn
 * Event, the Camp and Unloaded Supplies bonuses, the Storm penalty,
 * maximum Strength, death, Depleted Supplies, Advance Base Camp +2, and
 * Sherpas Desertion.
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

#define HILLARY 27
#define EVANS   30
#define SHERPA  38
#define SHERPA2 39
#define SUPPLY  46
#define CAMP    56

/* A 1953 game at Night on turn 3 (so the next turn's weather is rolled,
 * but that happens after everything checked here). */
static struct engine_game *night(void)
{
  struct engine_game *g = bt_new("1953", 21);

  bt_clear(g, BIT_P_NIGHT, 3);
  return g;
}

static json_t *rest(struct engine_game **g)
{
  return kit_apply(g, 0, "{\"type\":\"rest\"}");
}

/* Night 1-3: "The highlighted number ... is the Base Strength Recovery",
 * +1 for a Camp, +1 for Unloaded Supplies when declared. */
static void test_night_base_recovery_plus_camp_plus_supplies(void **state)
{
  struct engine_game *g = night();
  int at;
  json_t *ev;

  (void)state;
  at = bt_route(g, 0, 2);
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bt_state(g)->strength[HILLARY] = 2;
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_UNLOADED);
  bit_place(bt_state(g), CAMP, 0, at, -1, BIT_R_CAMP);
  bt_event_top(g, 80); /* BSR -2 */
  ev = kit_apply(&g, 0, "{\"type\":\"rest\",\"use\":[46]}");
  /* -2 + 1 + 1 = 0: no change, supplies kept */
  assert_int_equal(json_integer_value(json_object_get(kit_event(ev, "recovery", 0), "net")), 0);
  assert_int_equal(bt_state(g)->strength[HILLARY], 2);
  assert_int_equal(bt_state(g)->loc[SUPPLY].zone, BIT_Z_MOUNTAIN);
  json_decref(ev);
  engine_free(g);
}

/* Night 7 "If the result ... is negative, and an Unloaded Supplies card is
 * present and the bonus for such was being used, that Supplies card is
 * Depleted". */
static void test_night_7_negative_result_depletes_used_supplies(void **state)
{
  struct engine_game *g = night();
  int at;
  json_t *ev;

  (void)state;
  at = bt_route(g, 0, 2);
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bt_state(g)->strength[HILLARY] = 5;
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_UNLOADED);
  bt_event_top(g, 80); /* BSR -2 */
  ev = kit_apply(&g, 0, "{\"type\":\"rest\",\"use\":[46]}");
  assert_int_equal(bt_state(g)->strength[HILLARY], 4);
  assert_int_equal(bt_state(g)->loc[SUPPLY].zone, BIT_Z_DISCARD);
  json_decref(ev);
  engine_free(g);
}

/* Night 4 "subtract two (-2) ... for Climbers in Extreme Terrain cards";
 * Night 6 "Climber Death". */
static void test_night_4_storm_penalty_can_kill(void **state)
{
  struct engine_game *g = night();
  json_t *ev;

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 4), (int[]){EVANS, -1}); /* Extreme */
  bt_state(g)->strength[EVANS] = 1;
  bt_state(g)->weather = BIT_STORM;
  bt_event_top(g, 72); /* BSR 2 - 2 = 0 */
  ev = rest(&g);
  assert_int_equal(bt_state(g)->strength[EVANS], 1);
  json_decref(ev);
  bt_clear(g, BIT_P_NIGHT, 3);
  bt_team(g, 0, bt_route(g, 0, 4), (int[]){EVANS, -1});
  bt_state(g)->strength[EVANS] = 1;
  bt_state(g)->weather = BIT_STORM;
  bt_event_top(g, 80); /* BSR -2 - 2 = -4 */
  ev = rest(&g);
  assert_int_equal(bt_state(g)->loc[EVANS].zone, BIT_Z_DEAD);
  json_decref(ev);
  engine_free(g);
}

/* Night 6 "A Climber's Strength may never rise above the Strength level
 * that is printed on that Climber's card"; Night 8 ABC is always +2. */
static void test_night_6_8_maximum_strength_and_abc_plus_two(void **state)
{
  struct engine_game *g = night();
  json_t *ev;

  (void)state;
  bt_team(g, 0, bt_route(g, 0, 0), (int[]){HILLARY, -1});
  bt_team(g, 0, BIT_ABC, (int[]){EVANS, -1});
  bt_state(g)->strength[HILLARY] = 7;
  bt_state(g)->strength[EVANS] = 1;
  bt_event_top(g, 79); /* BSR 3 */
  ev = rest(&g);
  assert_int_equal(bt_state(g)->strength[HILLARY], 8);
  assert_int_equal(bt_state(g)->strength[EVANS], 3);
  json_decref(ev);
  engine_free(g);
}

/* Sherpas Desertion: "If any Sherpas cards are on a Terrain card that does
 * not also contain a Climber card, remove that Sherpas card to the dead
 * pile"; at a Camp it may stay (X.A.1, RULES.md). */
static void test_night_C_lone_sherpas_desert_unless_at_a_camp(void **state)
{
  struct engine_game *g = night();
  json_t *ev;

  (void)state;
  bit_place(bt_state(g), SHERPA, 0, bt_route(g, 0, 1), -1, BIT_R_POSTED);
  bit_place(bt_state(g), SHERPA2, 0, bt_route(g, 0, 2), -1, BIT_R_POSTED);
  bit_place(bt_state(g), CAMP, 0, bt_route(g, 0, 2), -1, BIT_R_CAMP);
  ev = rest(&g);
  assert_int_equal(bt_state(g)->loc[SHERPA].zone, BIT_Z_DEAD);
  assert_int_equal(bt_state(g)->loc[SHERPA2].zone, BIT_Z_MOUNTAIN);
  json_decref(ev);
  engine_free(g);
}

/* X.A.6 "at the end of the Night Phase, no more than one Sherpas may be in
 * a Terrain card. Remove any excess to the dead pile." */
static void test_night_C_excess_sherpas_desert(void **state)
{
  struct engine_game *g = night();
  json_t *ev;
  int at;

  (void)state;
  at = bt_route(g, 0, 1);
  bt_team(g, 0, at, (int[]){HILLARY, SHERPA, SUPPLY, -1});
  bit_place(bt_state(g), SHERPA2, 0, at, -1, BIT_R_POSTED);
  ev = rest(&g);
  assert_int_equal(bt_state(g)->loc[SHERPA].zone, BIT_Z_MOUNTAIN); /* the loaded one stays */
  assert_int_equal(bt_state(g)->loc[SHERPA2].zone, BIT_Z_DEAD);
  json_decref(ev);
  engine_free(g);
}

/* Night 3: "players should declare whether they are using it before
 * drawing": only Unloaded Supplies beside the player's Climbers, one per
 * card; the refusal names the card. */
static void test_night_3_supplies_bonus_needs_unloaded_supplies_and_climber(void **state)
{
  struct engine_game *g = night();
  struct cairn_error e;
  int at;

  (void)state;
  at = bt_route(g, 0, 2);
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_UNLOADED);
  e = kit_reject(g, 0, "{\"type\":\"rest\",\"use\":[46]}", CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
                 BIT_RULE_NIGHT);
  assert_non_null(strstr(e.detail, "(card 46)"));
  assert_non_null(strstr(e.detail, "none of your Climbers is there"));
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bit_place(bt_state(g), 47, 0, at, -1, BIT_R_CACHED);
  e = kit_reject(g, 0, "{\"type\":\"rest\",\"use\":[46,47]}", CAIRN_EILLEGAL,
                 CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_NIGHT);
  assert_non_null(strstr(e.detail, "(card 47)"));
  assert_non_null(strstr(e.detail, "one of your Unloaded Supplies"));
  assert_true(bt_is_legal(g, 0, "{\"type\":\"rest\",\"use\":[46]}"));
  assert_true(bt_is_legal(g, 0, "{\"type\":\"rest\"}"));
  assert_false(bt_is_legal(g, 0, "{\"type\":\"rest\",\"use\":[47]}"));
  engine_free(g);
}

/* Night 3 "Add one (+1) ... if the Climbing Team is in an Area containing
 * an Unloaded Supplies card": one bonus per Area, so one declared card per
 * Terrain card, each listed once. */
static void test_night_3_one_declared_supplies_per_area(void **state)
{
  struct engine_game *g = night();
  struct cairn_error e;
  int at;

  (void)state;
  at = bt_route(g, 0, 2);
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bit_place(bt_state(g), SUPPLY, 0, at, -1, BIT_R_UNLOADED);
  bit_place(bt_state(g), 47, 0, at, -1, BIT_R_UNLOADED);
  e = kit_reject(g, 0, "{\"type\":\"rest\",\"use\":[46,47]}", CAIRN_EILLEGAL,
                 CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_NIGHT);
  assert_non_null(strstr(e.detail, "(card 47)"));
  assert_non_null(strstr(e.detail, "+1 per Area"));
  e = kit_reject(g, 0, "{\"type\":\"rest\",\"use\":[47,47]}", CAIRN_EILLEGAL,
                 CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_NIGHT);
  assert_non_null(strstr(e.detail, "listed twice"));
  assert_true(bt_is_legal(g, 0, "{\"type\":\"rest\",\"use\":[47]}"));
  assert_true(bt_is_legal(g, 0, "{\"type\":\"rest\",\"use\":[46]}"));
  engine_free(g);
}

/* `use` is a list of card ids; the old separate `use` move is gone. */
static void test_night_rest_use_is_a_list_of_card_ids(void **state)
{
  struct engine_game *g = night();

  (void)state;
  kit_reject(g, 0, "{\"type\":\"rest\",\"use\":46}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL);
  kit_reject(g, 0, "{\"type\":\"rest\",\"use\":[\"46\"]}", CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE,
             NULL);
  kit_reject(g, 0, "{\"type\":\"rest\",\"use\":[100]}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(g, 0, "{\"type\":\"rest\",\"use\":[46,47,48,49,50,51,52,53,54,55,46]}", CAIRN_EINVAL,
             CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(g, 0, "{\"type\":\"use\",\"card\":46}", CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL);
  kit_reject(g, 0, "{\"type\":\"ready\",\"use\":[]}", CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL);
  engine_free(g);
}

/* README.md "Moves": a seat holds at most six Supplies (1953), so at most
 * 2^6 = 64 `rest` choices, the most declarations first. */
static void test_night_legal_lists_every_declaration_most_first(void **state)
{
  struct engine_game *g = night();
  json_t *legal, *m, *first = NULL;
  size_t i;
  int k, rests = 0;

  (void)state;
  for (k = 0; k < 6; k++) {
    bt_team(g, 0, bt_route(g, 0, k), (int[]){26 + k, -1});
    bit_place(bt_state(g), SUPPLY + k, 0, bt_route(g, 0, k), -1, BIT_R_UNLOADED);
  }
  legal = engine_legal_moves(g, 0);
  json_array_foreach(legal, i, m)
  {
    if (strcmp(json_string_value(json_object_get(m, "type")), "rest") != 0)
      continue;
    if (!first)
      first = m;
    rests++;
  }
  assert_int_equal(rests, 64);
  assert_non_null(first);
  assert_int_equal(json_array_size(json_object_get(first, "use")), 6);
  json_decref(legal);
  engine_free(g);
}

/* New reference: what `viewer` can learn of `g` (view and to_act). */
static json_t *outside(struct engine_game *g, int viewer)
{
  int seats[ENGINE_MAX_SEATS], n = engine_to_act(g, seats), i;
  json_t *to_act = json_array();

  for (i = 0; i < n; i++)
    json_array_append_new(to_act, json_integer(seats[i]));
  return json_pack("{s:o, s:o}", "view", engine_view(g, viewer), "to_act", to_act);
}

/* README.md "Hidden information": a seat's Night declaration stays hidden
 * from the other seat and spectators until the Night resolves. Every
 * `rest` seat 0 may submit leaves the same view, to_act and events for
 * seat 1 and a spectator; only seat 0's own view shows what it declared. */
static void test_night_declaration_looks_the_same_from_outside(void **state)
{
  struct engine_game *g = bt_new("1963", 2);
  json_t *legal, *m, *base_other = NULL, *base_spectator = NULL, *base_own = NULL;
  size_t i;
  int declaring = 0;

  (void)state;
  bt_clear(g, BIT_P_NIGHT, 3);
  bt_team(g, 0, bt_route(g, 0, 1), (int[]){32, -1});
  bt_team(g, 0, bt_route(g, 0, 2), (int[]){34, -1});
  bit_place(bt_state(g), SUPPLY, 0, bt_route(g, 0, 1), -1, BIT_R_UNLOADED);
  bit_place(bt_state(g), 47, 0, bt_route(g, 0, 2), -1, BIT_R_UNLOADED);
  bit_place(bt_state(g), 48, 0, bt_route(g, 0, 2), -1, BIT_R_UNLOADED);
  legal = engine_legal_moves(g, 0);
  json_array_foreach(legal, i, m)
  {
    struct engine_game *h = NULL;
    json_t *events = NULL, *other, *spectator, *own;
    struct cairn_error err = {0};

    assert_int_equal(engine_apply(g, 0, m, &h, &events, &err), CAIRN_OK);
    assert_int_equal(h->seq, g->seq); /* pending: seat 1 still owes its rest */
    assert_int_equal(json_array_size(events), 0);
    other = outside(h, 1);
    spectator = outside(h, ENGINE_SPECTATOR);
    own = outside(h, 0);
    if (!base_other) {
      base_other = other;
      base_spectator = spectator;
      base_own = own;
    } else {
      assert_true(json_equal(other, base_other));
      assert_true(json_equal(spectator, base_spectator));
      declaring += !json_equal(own, base_own); /* the seat itself sees its choice */
      json_decref(other);
      json_decref(spectator);
      json_decref(own);
    }
    json_decref(events);
    engine_free(h);
  }
  assert_int_equal(json_array_size(legal), 6); /* {46 or none} x {47, 48 or none} */
  assert_int_equal(declaring, 5);
  json_decref(base_other);
  json_decref(base_spectator);
  json_decref(base_own);
  json_decref(legal);
  engine_free(g);
}

/* RULES.md "Specials": a Bivouac counts as a Camp (+1) for one card. */
static void test_special_bivouac_counts_as_a_camp(void **state)
{
  struct engine_game *g = bt_new("1963", 2);
  json_t *ev;
  int at;

  (void)state;
  bt_clear(g, BIT_P_NIGHT, 3);
  at = bt_route(g, 0, 2);
  bt_team(g, 0, at, (int[]){32, -1});
  bt_state(g)->strength[32] = 3;
  bt_hand(g, 0, 64);
  /* only on a Terrain card holding the player's Climbers */
  kit_reject(g, 0, "{\"type\":\"play\",\"card\":64,\"at\":19}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SPECIAL);
  bt_event_top(g, 75);
  {
    char buf[64];
    snprintf(buf, sizeof buf, "{\"type\":\"play\",\"card\":64,\"at\":%d}", at);
    ev = kit_apply(&g, 0, buf);
    json_decref(ev);
  }
  ev = kit_apply(&g, 0, "{\"type\":\"rest\"}");
  json_decref(ev);
  ev = kit_apply(&g, 1, "{\"type\":\"rest\"}");
  assert_int_equal(bt_state(g)->strength[32], 5); /* 3 + 1 + 1 */
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_night_base_recovery_plus_camp_plus_supplies),
      cmocka_unit_test(test_night_7_negative_result_depletes_used_supplies),
      cmocka_unit_test(test_night_4_storm_penalty_can_kill),
      cmocka_unit_test(test_night_6_8_maximum_strength_and_abc_plus_two),
      cmocka_unit_test(test_night_C_lone_sherpas_desert_unless_at_a_camp),
      cmocka_unit_test(test_night_C_excess_sherpas_desert),
      cmocka_unit_test(test_night_3_supplies_bonus_needs_unloaded_supplies_and_climber),
      cmocka_unit_test(test_night_3_one_declared_supplies_per_area),
      cmocka_unit_test(test_night_rest_use_is_a_list_of_card_ids),
      cmocka_unit_test(test_night_legal_lists_every_declaration_most_first),
      cmocka_unit_test(test_night_declaration_looks_the_same_from_outside),
      cmocka_unit_test(test_special_bivouac_counts_as_a_camp),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
