/*
 * test_property.c - random games through the public interface. Thousands
 * of games, each decision drawn by a local generator (never the game's)
 * from legal_moves, with the simultaneous climbers interleaved at random.
 * Checked: every game ends with one of the text's ends (no turn limit), every
 * listed move is accepted, only seats in to_act have moves, a seed and a
 * move log replay to the same events and byte-identical state, and no view
 * for a climber or a spectator ever holds the Mountain's hand or the deck
 * order: views are compared before and after the hidden cards are dealt
 * anew, and events carrying cards must be private to the right seat.
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

#define GAMES 2000
/* The games are played as the text has them, with no turn limit (winter is
 * an opt-in option the text does not have): random climbers never win, and
 * the Mountain wears one of them down within a few dozen turns. */
#define NO_WINTER   0
#define CLIMB_GAMES 20
/* No rule caps a game's length; this is only the test's alarm bell. A
 * round is at most 2 * (3 actions + a Forecast choice + end_turn) climber
 * moves, at most 34 Mountain cards + yeti + end_turn and at most 2 answers
 * per card, and random games end within a few hundred moves (the longest
 * is printed): a game still running here is a stall. */
#define MAX_MOVES 20000

static uint64_t next_choice(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

struct log {
  json_t *moves;  /* [[seat, move], ...] */
  json_t *events; /* one array per move */
  char *final;
  const char *reason; /* Static */
  int moves_made;
};

/* Names beside ids (the platform's convention), on every event: a seat
 * number has its role's name, a card or item its printed name, so "Tenzing
 * took 2 damage from Avalanche" is printable from the event alone. */
static void check_names(const json_t *ev)
{
  const json_t *seat = json_object_get(ev, "seat");
  const char *card = json_string_value(json_object_get(ev, "card"));
  const char *item = json_string_value(json_object_get(ev, "item"));
  const json_t *cards = json_object_get(ev, "cards");

  if (json_is_integer(seat))
    assert_string_equal(json_string_value(json_object_get(ev, "seat_name")),
                        journey_role_title((int)json_integer_value(seat)));
  if (card && journey_card_named(card) >= 0)
    assert_string_equal(json_string_value(json_object_get(ev, "card_name")),
                        journey_card_title(journey_card_named(card)));
  if (item && journey_item_named(item) >= 0)
    assert_string_equal(json_string_value(json_object_get(ev, "item_name")),
                        journey_item_title(journey_item_named(item)));
  if (json_is_array(cards))
    assert_int_equal(json_array_size(json_object_get(ev, "card_names")), json_array_size(cards));
  if (json_is_object(json_object_get(ev, "hand")))
    assert_int_equal(json_object_size(json_object_get(ev, "hand_names")),
                     json_object_size(json_object_get(ev, "hand")));
}

/* Events that name cards of the hand are private: "drew" to the Mountain,
 * "forecast" to the climber who used it. */
static void check_events(const json_t *events, int seat)
{
  size_t i;
  const json_t *ev;

  json_array_foreach(events, i, ev)
  {
    const char *type = json_string_value(json_object_get(ev, "type"));
    const json_t *to = json_object_get(ev, "private_to");

    assert_non_null(type);
    check_names(ev);
    if (strcmp(type, "drew") == 0) {
      assert_int_equal(json_array_size(to), 1);
      assert_int_equal(json_integer_value(json_array_get(to, 0)), JOURNEY_MOUNTAIN);
    } else if (strcmp(type, "forecast") == 0) {
      assert_int_equal(json_array_size(to), 1);
      assert_int_equal(json_integer_value(json_array_get(to, 0)), seat);
    } else {
      assert_null(to);
      assert_null(json_object_get(ev, "hand"));
      assert_null(json_object_get(ev, "cards") && json_is_array(json_object_get(ev, "cards"))
                      ? json_object_get(ev, "cards")
                      : NULL);
    }
  }
}

/* Deal the hidden cards anew: the hand (same size) and the deck (same
 * size) are drawn at random from their union. */
static void redeal(struct journey_state *st, uint64_t *chooser)
{
  int pool[JOURNEY_DECK_SIZE];
  int n = 0, c, i, hand = journey_hand_size(st);

  for (c = 0; c < JOURNEY_CARDS; c++)
    for (i = 0; i < st->hand[c]; i++)
      pool[n++] = c;
  for (i = 0; i < st->deck_len; i++)
    pool[n++] = st->deck[i];
  for (i = n - 1; i > 0; i--) {
    int j = (int)(next_choice(chooser) % (uint64_t)(i + 1)), t = pool[i];

    pool[i] = pool[j];
    pool[j] = t;
  }
  memset(st->hand, 0, sizeof(st->hand));
  for (i = 0; i < hand; i++)
    st->hand[pool[i]]++;
  memcpy(st->deck, pool + hand, sizeof(int) * (size_t)st->deck_len);
}

static char *view_text(const struct engine_game *game, int viewer)
{
  json_t *view = engine_view(game, viewer);
  char *text;

  assert_non_null(view);
  text = json_dumps(view, JSON_SORT_KEYS | JSON_COMPACT);
  json_decref(view);
  return text;
}

/* No view but the Mountain's (and the audit's) depends on the hidden
 * cards, and no climber's view depends on the other climber's Forecast
 * look: for each viewer, the hidden cards are dealt anew and the other
 * climber's snapshot is scrambled, and the view must not change. */
static void check_views_hide_the_hand(const struct engine_game *game, uint64_t *chooser)
{
  int viewers[3] = {JOURNEY_TENZING, JOURNEY_HILLARY, ENGINE_SPECTATOR};
  int v, c, k;

  for (v = 0; v < 3; v++) {
    struct engine_game *copy = engine_clone(game);
    char *before = view_text(game, viewers[v]), *after;

    redeal(js_state(copy), chooser);
    for (c = 0; c < JOURNEY_CLIMBERS; c++)
      for (k = 0; c != viewers[v] && k < JOURNEY_CARDS; k++)
        js_state(copy)->climber[c].forecast_hand[k] = (int)(next_choice(chooser) % 4);
    after = view_text(copy, viewers[v]);
    assert_string_equal(before, after);
    assert_null(strstr(after, "\"deck\":"));
    free(after);
    free(before);
    engine_free(copy);
  }
}

/* Every well-formed move of every shape, legal or not, in canonical form. */
static json_t *candidates(void)
{
  json_t *all = json_array();
  struct journey_move m;
  int t, a, b;

  for (t = JOURNEY_MOVE_BUY; t <= JOURNEY_MOVE_AVALANCHE; t++)
    for (a = 0; a < JOURNEY_SPACES; a++)
      for (b = 0; b < 7; b++) {
        memset(&m, 0, sizeof(m));
        m.type = (enum journey_move_type)t;
        m.item = a < JOURNEY_ITEMS ? a : JOURNEY_NO_ITEM;
        m.card = a < JOURNEY_CARDS ? a : 0;
        m.to = a;
        m.quadrant = b % JOURNEY_QUADRANTS;
        m.direction = b % 5;
        m.target = b % 2;
        m.protect = b % 3;
        m.discard = b % 2;
        if ((t == JOURNEY_MOVE_BUY || t == JOURNEY_MOVE_GIVE || t == JOURNEY_MOVE_USE ||
             (t == JOURNEY_MOVE_ROCKSLIDE && m.discard)) &&
            a >= JOURNEY_ITEMS)
          continue;
        if ((t == JOURNEY_MOVE_REMOVE || t == JOURNEY_MOVE_DISCARD || t == JOURNEY_MOVE_PLAY) &&
            a >= JOURNEY_CARDS)
          continue;
        if (t == JOURNEY_MOVE_PLAY && m.card == JOURNEY_BLIZZARD && m.direction == JOURNEY_STAY)
          continue;
        if (t == JOURNEY_MOVE_USE && m.item == JOURNEY_HOOK)
          m.to = (a * 7 + b) % JOURNEY_SPACES;
        json_array_append_new(all, journey_move_json(&m));
      }
  return all;
}

/* True when engine_apply accepts `move` for `seat`; a refusal must be a
 * rule violation, never a malformed-move error. */
static int accepts(const struct engine_game *game, int seat, const json_t *move)
{
  struct engine_game *next = NULL;
  json_t *events = NULL;
  struct cairn_error err = {0};
  enum cairn_status st = engine_apply(game, seat, move, &next, &events, &err);

  engine_free(next);
  json_decref(events);
  if (st != CAIRN_OK && st != CAIRN_EILLEGAL)
    fail_msg("a well-formed candidate was refused as malformed: %s", err.detail);
  return st == CAIRN_OK;
}

static int listed(const json_t *list, const json_t *move)
{
  size_t i;
  const json_t *item;

  json_array_foreach(list, i, item)
  {
    if (json_equal(item, move))
      return 1;
  }
  return 0;
}

/* Only seats that owe a decision have moves, and they always have one.
 * lists[s] (New reference, or NULL for a seat that may not act) is the
 * caller's. */
static void check_turn(struct engine_game *game, int *seats, int *n, json_t *lists[JOURNEY_SEATS])
{
  int s;

  *n = journey_module.to_act(game, seats);
  assert_true(*n >= 1 && *n <= 2);
  for (s = 0; s < JOURNEY_SEATS; s++) {
    json_t *list = engine_legal_moves(game, s);
    int acts = 0, i;

    for (i = 0; i < *n; i++)
      acts |= seats[i] == s;
    if ((json_array_size(list) > 0) != acts) {
      json_t *view = engine_view(game, ENGINE_OMNISCIENT);
      char *text;

      json_object_del(view, "board");
      json_object_del(view, "deck");
      json_object_del(view, "climbers");
      text = json_dumps(view, JSON_SORT_KEYS | JSON_INDENT(1));
      print_error("%s\n", text);
      fail_msg("seat %d acts=%d but has %zu moves", s, acts, json_array_size(list));
    }
    lists[s] = list;
  }
}

/* The climbing policy: buy an O2 tank and food; go up until the top was
 * reached at the end of a turn, then down; otherwise random. */
static long climb_value(struct engine_game *game, int seat)
{
  const struct journey_state *st = js_state(game);
  const struct journey_climber *p = &st->climber[seat];
  int level = journey_level(p->space);

  if (st->end == JOURNEY_END_CLIMBERS)
    return 1000000;
  if (st->phase == JOURNEY_PHASE_BUY)
    return (p->items[JOURNEY_O2_TANK] > 0) * 1000 + p->items[JOURNEY_FOOD] * 10 +
           (p->items[JOURNEY_O2_TANK] < 2) - p->done;
  return (p->summited ? 100 * (JOURNEY_LEVELS - level) + 1000 : 100 * level) + p->health +
         3 * p->items[JOURNEY_FOOD];
}

static json_t *choose(struct engine_game *game, int seat, json_t *list, uint64_t *chooser,
                      int climb)
{
  json_t *move, *best = NULL;
  long best_value = -1000000000L;
  size_t i;

  if (!climb || seat == JOURNEY_MOUNTAIN)
    return json_array_get(list, next_choice(chooser) % json_array_size(list));
  json_array_foreach(list, i, move)
  {
    struct engine_game *next = NULL;
    json_t *events = NULL;
    long value;

    assert_int_equal(engine_apply(game, seat, move, &next, &events, NULL), CAIRN_OK);
    value = climb_value(next, seat) * 8 + (long)(next_choice(chooser) % 8);
    if (value > best_value)
      best_value = value, best = move;
    json_decref(events);
    engine_free(next);
  }
  return best;
}

static void play(int seed, int limit, uint64_t *chooser, int keep, int climb, int deep,
                 struct log *log, const json_t *all)
{
  struct engine_game *game = js_new_limit(seed, limit);
  json_t *result;

  memset(log, 0, sizeof(*log));
  if (keep) {
    log->moves = json_array();
    log->events = json_array();
  }
  while (!engine_is_over(game)) {
    int seats[ENGINE_MAX_SEATS], n, seat, s;
    json_t *lists[JOURNEY_SEATS], *list, *pick, *events = NULL;
    struct engine_game *next = NULL;
    struct cairn_error err = {0};

    check_turn(game, seats, &n, lists);
    if (deep) {
      size_t i;
      json_t *any;

      check_views_hide_the_hand(game, chooser);
      /* The list is exactly what apply_move accepts: everything listed
       * is accepted, and random other well-formed moves are accepted
       * only when listed. */
      for (s = 0; s < JOURNEY_SEATS; s++) {
        json_array_foreach(lists[s], i, any)
        {
          assert_true(accepts(game, s, any));
        }
        for (i = 0; all && i < 6; i++) {
          any = json_array_get(all, next_choice(chooser) % json_array_size(all));
          if (lists[s] && json_array_size(lists[s]) > 0)
            assert_int_equal(accepts(game, s, any), listed(lists[s], any));
        }
      }
    }
    /* Simultaneous climbers: either may send its next action. */
    seat = seats[next_choice(chooser) % (uint64_t)n];
    list = lists[seat];
    pick = choose(game, seat, list, chooser, climb);
    if (engine_apply(game, seat, pick, &next, &events, &err) != CAIRN_OK)
      fail_msg("seed %d: listed move refused: %s", seed, err.detail);
    check_events(events, seat);
    if (keep) {
      json_array_append_new(log->moves, json_pack("[i, O]", seat, pick));
      json_array_append_new(log->events, events);
    } else {
      json_decref(events);
    }
    for (s = 0; s < JOURNEY_SEATS; s++)
      json_decref(lists[s]);
    engine_free(game);
    game = next;
    if (++log->moves_made > MAX_MOVES)
      fail_msg("seed %d: still running after %d moves", seed, log->moves_made);
  }
  assert_int_equal(journey_module.to_act(game, (int[ENGINE_MAX_SEATS]){0}), 0);
  result = journey_module.result(game);
  assert_non_null(result);
  assert_true(json_array_size(json_object_get(result, "winners")) >= 1);
  {
    const char *r = json_string_value(json_object_get(result, "reason"));

    log->reason = strcmp(r, "summit-and-back") == 0 ? "summit-and-back"
                  : strcmp(r, "death") == 0         ? "death"
                                                    : "winter";
    assert_true(strcmp(r, log->reason) == 0);
  }
  json_decref(result);
  log->final = kit_text(game);
  engine_free(game);
}

static void replay(int seed, int limit, const struct log *log)
{
  kit_replay_matches(js_new_limit(seed, limit), log->moves, log->events, log->final);
}

static void free_log(struct log *log)
{
  json_decref(log->moves);
  json_decref(log->events);
  free(log->final);
}

/* Random games end with a winner or at the turn limit, never stall, accept
 * what they list, replay exactly (every 10th), and never show a climber or
 * a spectator the hidden cards (every 100th game checks every position). */
static void test_random_games_end_replay_and_hide_the_hand(void **state)
{
  uint64_t chooser = 2014;
  json_t *all = candidates();
  int deaths = 0, longest = 0, i;

  for (i = 0; i < kit_games(GAMES); i++) {
    struct log log;

    play(i + 1, NO_WINTER, &chooser, i % 10 == 0, 0, i % 100 == 0, &log, all);
    deaths += strcmp(log.reason, "death") == 0;
    longest = log.moves_made > longest ? log.moves_made : longest;
    if (log.moves)
      replay(i + 1, NO_WINTER, &log);
    free_log(&log);
  }
  json_decref(all);
  print_message("random games: %d, deaths %d, longest %d moves\n", kit_games(GAMES), deaths,
                longest);
  /* Without the opt-in winter the text's own ends are all there is. */
  assert_int_equal(deaths, kit_games(GAMES));
}

/* Climbers who head for the top and then for base camp sometimes win:
 * "both players reach the summit and then return to the base camp". */
static void test_climbing_games_are_sometimes_won_by_the_climbers(void **state)
{
  uint64_t chooser = 8848;
  int wins = 0, i;

  for (i = 0; i < CLIMB_GAMES; i++) {
    struct log log;

    play(70000 + i, 0, &chooser, 1, 1, i % 10 == 0, &log, NULL);
    wins += strcmp(log.reason, "summit-and-back") == 0;
    replay(70000 + i, 0, &log);
    free_log(&log);
  }
  print_message("climbing games: %d, climbers won %d\n", CLIMB_GAMES, wins);
  assert_true(wins > 0);
}

/* The same seed and the same moves give the same game on every run. */
static void test_same_seed_and_moves_give_the_same_game(void **state)
{
  uint64_t a = 99, b = 99;
  struct log first, second;

  play(4242, 0, &a, 1, 0, 0, &first, NULL);
  play(4242, 0, &b, 1, 0, 0, &second, NULL);
  assert_true(json_equal(first.moves, second.moves));
  assert_true(json_equal(first.events, second.events));
  assert_string_equal(first.final, second.final);
  free_log(&first);
  free_log(&second);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_games_end_replay_and_hide_the_hand),
      cmocka_unit_test(test_climbing_games_are_sometimes_won_by_the_climbers),
      cmocka_unit_test(test_same_seed_and_moves_give_the_same_game),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
