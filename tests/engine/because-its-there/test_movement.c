/*
 * test_movement.c - X. Movement Phase: exit costs, the Summit, weather,
 * Near Death, carrying, caching/unloading/loading, one team at a time,
 * arriving in Advance Base Camp, and the order of play.
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

#define HILLARY  27
#define TENZING  28
#define EVANS    30
#define SHERPA_A 38
#define SHERPA_B 39
#define SUPPLY_A 46
#define SUPPLY_B 47
#define ICEFALL  72 /* Icefall Shifts: End, immune Experienced+ */
#define GOOD_GO  77 /* Good Going: each team Climber +1 */

static struct engine_game *moving_1953(void)
{
  struct engine_game *g = bt_new("1953", 3);

  bt_clear(g, BIT_P_MOVE, 2);
  return g;
}

static char *move_text(int team, const char *dir)
{
  static char buf[80];
  snprintf(buf, sizeof buf, "{\"type\":\"move\",\"team\":%d,\"dir\":\"%s\"}", team, dir);
  return buf;
}

/* X.B: "Adjust Climber Strength markers down ... by number indicated on the
 * head of the arrow which points to the card just entered." */
static void test_X_B_exit_cost_up_is_paid_by_each_climber(void **state)
{
  struct engine_game *g = moving_1953();
  int team = bt_team(g, 0, bt_route(g, 0, 0), (int[]){HILLARY, EVANS, -1});
  int card = bt_route(g, 0, 0), cost = bit_cards[card].up;
  json_t *ev;

  (void)state;
  /* South Col index 1 is Glacier: an Extreme Event there has no effect */
  bt_event_top(g, 90);
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 8 - cost);
  assert_int_equal(bt_state(g)->strength[EVANS], 6 - cost);
  assert_int_equal(bt_state(g)->loc[HILLARY].at, bt_route(g, 0, 1));
  json_decref(ev);
  engine_free(g);
}

/* X.B: the bottom number is the cost "for exiting the card and moving to a
 * lower Terrain card (or into Advance Base Camp)". */
static void test_X_B_exit_cost_down_into_advance_base_camp(void **state)
{
  struct engine_game *g = moving_1953();
  int card = bt_route(g, 0, 0);
  int team = bt_team(g, 0, card, (int[]){HILLARY, -1});
  json_t *ev;

  (void)state;
  ev = kit_apply(&g, 0, move_text(team, "down"));
  assert_int_equal(bt_state(g)->loc[HILLARY].at, BIT_ABC);
  assert_int_equal(bt_state(g)->strength[HILLARY], 8 - bit_cards[card].down);
  /* entering Advance Base Camp ends the team's movement */
  assert_true(bt_state(g)->team[0][team].moved);
  assert_int_equal(bt_state(g)->moving, -1);
  json_decref(ev);
  engine_free(g);
}

/* X.A.7 "Summit. There is no Strength cost for exiting the Summit card";
 * X.C.5 "Do not draw an Event card for entering the Summit card." */
static void test_X_summit_entry_draws_no_event_and_exit_is_free(void **state)
{
  struct engine_game *g = moving_1953();
  int top = bt_route(g, 0, 5);
  int team = bt_team(g, 0, top, (int[]){HILLARY, -1});
  int deck = bit_pile_count(bt_state(g), BIT_Z_EVENTS, -1);
  json_t *ev;

  (void)state;
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(bt_state(g)->loc[HILLARY].at, BIT_SUMMIT);
  assert_int_equal(kit_count(ev, "event"), 0);
  assert_int_equal(bit_pile_count(bt_state(g), BIT_Z_EVENTS, -1), deck);
  assert_true(bt_state(g)->summited[HILLARY]);
  assert_int_equal(bt_state(g)->strength[HILLARY], 8 - bit_cards[top].up);
  json_decref(ev);
  ev = kit_apply(&g, 0, move_text(team, "down"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 8 - bit_cards[top].up);
  json_decref(ev);
  engine_free(g);
}

/* VII.D "Poor Weather prevents movement out of Advance Base Camp. Storm
 * Weather prevents movement of any kind." */
static void test_VII_D_poor_weather_keeps_teams_in_advance_base_camp(void **state)
{
  struct engine_game *g = moving_1953();
  int team = bt_team(g, 0, BIT_ABC, (int[]){HILLARY, -1});
  int high = bt_team(g, 0, bt_route(g, 0, 2), (int[]){TENZING, -1});

  (void)state;
  bt_state(g)->weather = BIT_POOR;
  kit_reject(g, 0, move_text(team, "up"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_MOVEMENT);
  assert_true(bt_is_legal(g, 0, move_text(high, "up")));
  bt_state(g)->weather = BIT_STORM;
  kit_reject(g, 0, move_text(high, "up"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_MOVEMENT);
  engine_free(g);
}

/* X.2 "Climbers starting the movement phase at the Strength level of Near
 * Death may not move ... Climbers at any Strength level may be carried". */
static void test_X_2_near_death_climber_moves_only_when_carried(void **state)
{
  struct engine_game *g = moving_1953();
  int at = bt_route(g, 0, 2);
  int team = bt_team(g, 0, at, (int[]){HILLARY, SHERPA_A, -1});
  json_t *ev;

  (void)state;
  bt_state(g)->strength[HILLARY] = 0;
  kit_reject(g, 0, move_text(team, "down"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_MOVEMENT);
  ev = kit_apply(&g, 0, "{\"type\":\"carry\",\"team\":0,\"climber\":27}");
  json_decref(ev);
  assert_int_equal(bt_state(g)->loc[HILLARY].role, BIT_R_CARRIED);
  assert_true(bt_is_legal(g, 0, move_text(team, "down")));
  engine_free(g);
}

/* X.B.3 "Carried Climbers pay Strength costs just like Climbers that are
 * not being carried" (and one dropping below Near Death dies, X.B.1). */
static void test_X_B_3_carried_climber_pays_and_may_die(void **state)
{
  struct engine_game *g = moving_1953();
  int at = bt_route(g, 0, 2);
  int team = bt_team(g, 0, at, (int[]){HILLARY, SHERPA_A, -1});
  json_t *ev;

  (void)state;
  bt_state(g)->loc[HILLARY].role = BIT_R_CARRIED;
  bt_state(g)->strength[HILLARY] = 0;
  ev = kit_apply(&g, 0, move_text(team, "down"));
  if (bit_cards[at].down > 0) {
    assert_int_equal(bt_state(g)->loc[HILLARY].zone, BIT_Z_DEAD);
    /* the Sherpas is left alone on the card (posted), the team is gone */
    assert_int_equal(bt_state(g)->loc[SHERPA_A].role, BIT_R_POSTED);
    assert_false(bt_state(g)->team[0][team].used);
  }
  json_decref(ev);
  engine_free(g);
}

/* X.A.3 "One Climber card may be carried by a Sherpas card that is NOT
 * carrying a Supplies card." */
static void test_X_A_3_a_loaded_sherpas_cannot_carry(void **state)
{
  struct engine_game *g = moving_1953();
  int at = bt_route(g, 0, 2);

  (void)state;
  bt_team(g, 0, at, (int[]){HILLARY, EVANS, SHERPA_A, SUPPLY_A, -1});
  kit_reject(g, 0, "{\"type\":\"carry\",\"team\":0,\"climber\":30}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT);
  engine_free(g);
}

/* X.A.5-6: Cached Supplies may be picked up again; Unloaded ones "may
 * NEVER be picked up again". */
static void test_X_A_5_6_cached_can_be_reloaded_unloaded_never(void **state)
{
  struct engine_game *g = moving_1953();
  int at = bt_route(g, 0, 1);
  json_t *ev;

  (void)state;
  bt_team(g, 0, at, (int[]){HILLARY, SHERPA_A, SUPPLY_A, -1});
  ev = kit_apply(&g, 0, "{\"type\":\"cache\",\"team\":0,\"card\":46}");
  json_decref(ev);
  assert_int_equal(bt_state(g)->loc[SUPPLY_A].role, BIT_R_CACHED);
  ev = kit_apply(&g, 0, "{\"type\":\"load\",\"team\":0,\"card\":46}");
  json_decref(ev);
  assert_int_equal(bt_state(g)->loc[SUPPLY_A].role, BIT_R_LOADED);
  ev = kit_apply(&g, 0, "{\"type\":\"unload\",\"team\":0,\"card\":46}");
  json_decref(ev);
  assert_int_equal(bt_state(g)->loc[SUPPLY_A].role, BIT_R_UNLOADED);
  kit_reject(g, 0, "{\"type\":\"load\",\"team\":0,\"card\":46}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT);
  engine_free(g);
}

/* X.A.4 "Supplies cards may only be moved if stacked with a Sherpas card";
 * X.D.4 "Cached Supplies can also be unloaded if a Climber is present." */
static void test_X_A_4_cached_supplies_unloaded_by_a_climber_without_sherpas(void **state)
{
  struct engine_game *g = moving_1953();
  int at = bt_route(g, 0, 1);
  json_t *ev;

  (void)state;
  bt_team(g, 0, at, (int[]){HILLARY, -1});
  bit_place(bt_state(g), SUPPLY_B, 0, at, -1, BIT_R_CACHED);
  kit_reject(g, 0, "{\"type\":\"load\",\"team\":0,\"card\":47}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT);
  ev = kit_apply(&g, 0, "{\"type\":\"unload\",\"team\":0,\"card\":47}");
  json_decref(ev);
  assert_int_equal(bt_state(g)->loc[SUPPLY_B].role, BIT_R_UNLOADED);
  engine_free(g);
}

/* X.A "Players must move Climbing Teams one at a time, completing movement
 * for each before moving another." */
static void test_X_A_one_team_at_a_time(void **state)
{
  struct engine_game *g = moving_1953();
  int a = bt_team(g, 0, BIT_ABC, (int[]){HILLARY, -1});
  int b = bt_team(g, 0, BIT_ABC, (int[]){EVANS, -1});
  json_t *ev;

  (void)state;
  bt_event_top(g, ICEFALL); /* Hillary is Experienced: immune */
  ev = kit_apply(&g, 0, move_text(a, "up"));
  json_decref(ev);
  assert_int_equal(bt_state(g)->moving, a);
  kit_reject(g, 0, move_text(b, "up"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT);
  ev = kit_apply(&g, 0, "{\"type\":\"end\",\"team\":0}");
  json_decref(ev);
  /* X.5: an ended (inverted) team may not move again this phase */
  kit_reject(g, 0, move_text(a, "up"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT);
  assert_true(bt_is_legal(g, 0, move_text(b, "up")));
  engine_free(g);
}

/* X.B.2 "If a Climber ends movement in Advance Base Camp and that
 * Climber's Strength is "Exhausted" or "Near Death," remove that Climber
 * card to the discard pile." */
static void test_X_B_2_exhausted_climber_reaching_abc_is_discarded(void **state)
{
  struct engine_game *g = moving_1953();
  int card = bt_route(g, 0, 0);
  int team = bt_team(g, 0, card, (int[]){HILLARY, SHERPA_A, -1});
  json_t *ev;

  (void)state;
  bt_state(g)->strength[HILLARY] = 1 + bit_cards[card].down;
  ev = kit_apply(&g, 0, move_text(team, "down"));
  json_decref(ev);
  assert_int_equal(bt_state(g)->loc[HILLARY].zone, BIT_Z_DISCARD);
  assert_int_equal(bt_state(g)->strength[HILLARY], 8); /* back at full Strength */
  /* IX: the Sherpas left without a team in ABC is discarded too */
  assert_int_equal(bt_state(g)->loc[SHERPA_A].zone, BIT_Z_DISCARD);
  engine_free(g);
}

/* VI "The player with the fewest Climbers on a Route goes first". */
static void test_VI_fewest_climbers_on_the_route_moves_first(void **state)
{
  struct engine_game *g = bt_new("1963", 5);
  json_t *ev;
  int i;

  (void)state;
  bt_clear(g, BIT_P_CAMP, 3);
  bt_team(g, 0, bt_route(g, 0, 1), (int[]){32, -1});
  bt_team(g, 1, BIT_ABC, (int[]){36, -1});
  bt_state(g)->phase = BIT_P_NIGHT; /* walk through night to the next movement */
  ev = kit_apply(&g, 0, "{\"type\":\"rest\"}");
  json_decref(ev);
  ev = kit_apply(&g, 1, "{\"type\":\"rest\"}");
  json_decref(ev);
  for (i = 0; i < 2; i++) {
    ev = kit_apply(&g, i, "{\"type\":\"draw\"}");
    json_decref(ev);
  }
  for (i = 0; i < 2; i++) {
    ev = kit_apply(&g, i, "{\"type\":\"ready\"}");
    json_decref(ev);
  }
  /* 1963 turns 1-10 are Good: no roll, no Storm */
  assert_int_equal(bt_state(g)->phase, BIT_P_MOVE);
  assert_int_equal(bt_state(g)->order[0], 1);
  assert_int_equal(bt_state(g)->active, 1);
  engine_free(g);
}

#define LASSITUDE 76 /* Glacier Lassitude: ALL Climbers lose 1, no End, no Immunity */
#define EXTREME_0 90 /* an Extreme Event: no effect on Glacier or High cards */

/* The `why` of the only movement-ended event in `ev`, asserting there is
 * exactly one. */
static const char *ended_why(json_t *ev)
{
  assert_int_equal(kit_count(ev, "movement-ended"), 1);
  return json_string_value(json_object_get(kit_event(ev, "movement-ended", 0), "why"));
}

/* X.2 "Climbers which reach Near Death as a result of movement or Event
 * card effects must end movement immediately": a Climber on foot that
 * pays its way down to Near Death in the middle of its team's movement
 * ends the team's movement at once (no carry, no further step). */
static void test_X_2_on_foot_near_death_by_movement_ends_the_team_at_once(void **state)
{
  struct engine_game *g = moving_1953();
  int low = bt_route(g, 0, 0), mid = bt_route(g, 0, 1);
  int team = bt_team(g, 0, low, (int[]){HILLARY, EVANS, SHERPA_A, -1});
  json_t *ev;
  struct cairn_error e;

  (void)state;
  /* Hillary can pay exactly two exits: the first step leaves him above Near Death */
  bt_state(g)->strength[HILLARY] = (int8_t)(bit_cards[low].up + bit_cards[mid].up);
  bt_event_top(g, EXTREME_0);
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(kit_count(ev, "movement-ended"), 0);
  assert_int_equal(bt_state(g)->moving, team);
  json_decref(ev);
  bt_event_top(g, EXTREME_0); /* the next card is Glacier or High: no effect */
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 0);
  assert_string_equal(ended_why(ev), "near-death");
  assert_true(bt_state(g)->team[0][team].moved);
  assert_int_equal(bt_state(g)->moving, -1);
  json_decref(ev);
  e = kit_reject(g, 0, move_text(team, "up"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
                 BIT_RULE_MOVEMENT);
  assert_non_null(strstr(e.detail, "ended movement"));
  /* "immediately": no window to pick the Climber up and go on */
  kit_reject(g, 0, "{\"type\":\"carry\",\"team\":0,\"climber\":27}", CAIRN_EILLEGAL,
             CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT);
  engine_free(g);
}

/* X "Movement will end if ... A Climber reaches a Strength level of "Near
 * Death" (EXCEPTION: Sherpas may carry)"; X.2 "Climbers at any Strength
 * level may be carried": a carried Climber paying down to Near Death does
 * not stop its team. */
static void test_X_2_carried_near_death_by_movement_does_not_end_the_team(void **state)
{
  struct engine_game *g = moving_1953();
  int low = bt_route(g, 0, 0);
  int team = bt_team(g, 0, low, (int[]){HILLARY, EVANS, SHERPA_A, -1});
  json_t *ev;

  (void)state;
  bt_state(g)->loc[HILLARY].role = BIT_R_CARRIED;
  bt_state(g)->strength[HILLARY] = (int8_t)bit_cards[low].up;
  bt_event_top(g, EXTREME_0);
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 0);
  assert_int_equal(kit_count(ev, "movement-ended"), 0);
  assert_false(bt_state(g)->team[0][team].moved);
  assert_int_equal(bt_state(g)->moving, team);
  assert_true(bt_is_legal(g, 0, move_text(team, "up")));
  json_decref(ev);
  engine_free(g);
}

/* X.2 "... or Event card effects must end movement immediately": an Event
 * that takes a Climber on foot to Near Death ends its team's movement. */
static void test_X_2_on_foot_near_death_by_an_event_ends_the_team(void **state)
{
  struct engine_game *g = moving_1953();
  int team = bt_team(g, 0, BIT_ABC, (int[]){HILLARY, EVANS, SHERPA_A, -1});
  json_t *ev;

  (void)state;
  bt_state(g)->strength[HILLARY] = 1;
  bt_event_top(g, LASSITUDE); /* the lowest South Col card is Glacier: it applies */
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 0);
  assert_int_equal(bt_state(g)->strength[EVANS], 5);
  assert_string_equal(ended_why(ev), "near-death");
  assert_true(bt_state(g)->team[0][team].moved);
  json_decref(ev);
  kit_reject(g, 0, move_text(team, "up"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
             BIT_RULE_MOVEMENT);
  engine_free(g);
}

/* X (EXCEPTION: Sherpas may carry): the same Event on a carried Climber
 * leaves its team free to go on. */
static void test_X_2_carried_near_death_by_an_event_does_not_end_the_team(void **state)
{
  struct engine_game *g = moving_1953();
  int team = bt_team(g, 0, BIT_ABC, (int[]){HILLARY, EVANS, SHERPA_A, -1});
  json_t *ev;

  (void)state;
  bt_state(g)->loc[HILLARY].role = BIT_R_CARRIED;
  bt_state(g)->strength[HILLARY] = 1;
  bt_event_top(g, LASSITUDE);
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(bt_state(g)->strength[HILLARY], 0);
  assert_int_equal(kit_count(ev, "movement-ended"), 0);
  assert_int_equal(bt_state(g)->moving, team);
  assert_true(bt_is_legal(g, 0, move_text(team, "up")));
  json_decref(ev);
  engine_free(g);
}

/* X.2 "Climbers which reach Near Death as a result of ... Event card
 * effects must end movement immediately", X.C.3 "ALL Climbers in the
 * Terrain card": a Climber of another team on the card that an Event
 * takes to Near Death ends its own team's movement for the phase
 * (RULES.md "Near Death"). */
static void test_X_2_near_death_by_an_event_ends_another_team_on_the_card(void **state)
{
  struct engine_game *g = moving_1953();
  int low = bt_route(g, 0, 0);
  int waiting = bt_team(g, 0, low, (int[]){TENZING, -1});
  int team = bt_team(g, 0, BIT_ABC, (int[]){HILLARY, -1});
  json_t *ev, *ended;

  (void)state;
  bt_state(g)->strength[TENZING] = 1;
  bt_event_top(g, LASSITUDE);
  ev = kit_apply(&g, 0, move_text(team, "up"));
  assert_int_equal(bt_state(g)->strength[TENZING], 0);
  ended = kit_event(ev, "movement-ended", 0);
  assert_non_null(ended);
  assert_int_equal(kit_int(ended, "team"), waiting);
  assert_true(bt_state(g)->team[0][waiting].moved);
  /* the moving team itself goes on */
  assert_int_equal(bt_state(g)->moving, team);
  json_decref(ev);
  engine_free(g);
}

/* Refusals say why (issue 20): the Climber and the rule that hold a team
 * at Near Death are named. */
static void test_X_2_refusal_names_the_near_death_climber(void **state)
{
  struct engine_game *g = moving_1953();
  int team = bt_team(g, 0, bt_route(g, 0, 2), (int[]){HILLARY, -1});
  struct cairn_error e;

  (void)state;
  bt_state(g)->strength[HILLARY] = 0;
  e = kit_reject(g, 0, move_text(team, "down"), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE,
                 BIT_RULE_MOVEMENT);
  assert_non_null(strstr(e.detail, "Hillary"));
  assert_non_null(strstr(e.detail, "Near Death"));
  engine_free(g);
}

/* Events carry names beside ids (issue 20): "Tenzing drew Avalanche"
 * without the card table. */
static void test_movement_events_carry_names(void **state)
{
  struct engine_game *g = moving_1953();
  int team = bt_team(g, 0, BIT_ABC, (int[]){HILLARY, -1});
  int low = bt_route(g, 0, 0);
  json_t *ev, *x;

  (void)state;
  bt_event_top(g, LASSITUDE);
  ev = kit_apply(&g, 0, move_text(team, "up"));
  x = kit_event(ev, "moved", 0);
  assert_string_equal(json_string_value(json_object_get(x, "from_name")), "Advance Base Camp");
  assert_string_equal(json_string_value(json_object_get(x, "to_name")), bit_cards[low].name);
  x = kit_event(ev, "event", 0);
  assert_string_equal(json_string_value(json_object_get(x, "card_name")), "Glacier Lassitude");
  assert_string_equal(json_string_value(json_object_get(x, "at_name")), bit_cards[low].name);
  x = kit_event(ev, "strength", 0);
  assert_string_equal(json_string_value(json_object_get(x, "climber_name")), "Hillary");
  json_decref(ev);
  engine_free(g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_X_B_exit_cost_up_is_paid_by_each_climber),
      cmocka_unit_test(test_X_B_exit_cost_down_into_advance_base_camp),
      cmocka_unit_test(test_X_summit_entry_draws_no_event_and_exit_is_free),
      cmocka_unit_test(test_VII_D_poor_weather_keeps_teams_in_advance_base_camp),
      cmocka_unit_test(test_X_2_near_death_climber_moves_only_when_carried),
      cmocka_unit_test(test_X_B_3_carried_climber_pays_and_may_die),
      cmocka_unit_test(test_X_A_3_a_loaded_sherpas_cannot_carry),
      cmocka_unit_test(test_X_A_5_6_cached_can_be_reloaded_unloaded_never),
      cmocka_unit_test(test_X_A_4_cached_supplies_unloaded_by_a_climber_without_sherpas),
      cmocka_unit_test(test_X_A_one_team_at_a_time),
      cmocka_unit_test(test_X_B_2_exhausted_climber_reaching_abc_is_discarded),
      cmocka_unit_test(test_VI_fewest_climbers_on_the_route_moves_first),
      cmocka_unit_test(test_X_2_on_foot_near_death_by_movement_ends_the_team_at_once),
      cmocka_unit_test(test_X_2_carried_near_death_by_movement_does_not_end_the_team),
      cmocka_unit_test(test_X_2_on_foot_near_death_by_an_event_ends_the_team),
      cmocka_unit_test(test_X_2_carried_near_death_by_an_event_does_not_end_the_team),
      cmocka_unit_test(test_X_2_near_death_by_an_event_ends_another_team_on_the_card),
      cmocka_unit_test(test_X_2_refusal_names_the_near_death_climber),
      cmocka_unit_test(test_movement_events_carry_names),
  };
  return order_run_group_tests(tests, NULL, NULL);
}
