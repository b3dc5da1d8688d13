/*
 * test_fair.c - the bots decide from their seat's view alone (bots/,
 * issue 26). For each title with a determinize slot, at positions reached
 * by random play:
 *   - sampled worlds are consistent: the sampled state's view for the seat
 *     is the real view, byte for byte, and its hidden parts do vary;
 *   - fairness: a second real state that differs from the first only in
 *     what the seat cannot see (its views for the seat byte-identical, its
 *     full serialisation not) gets the same decision with the same seed;
 *   - determinism: the same state and seed give the same move, and the
 *     move is legal in the real game.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <stdlib.h>
#include <string.h>

#include "bots/bots.h"
#include "tests/bots/views.h"
#include "engine/himalaya/state.h"
#include "engine/because-its-there/state.h"
#include "engine/everest/state.h"
#include "engine/journey/state.h"

/* Changes `game` only where `seat` cannot see (the title's hidden parts),
 * drawing from `rng`; false when nothing is hidden from that seat now. */
typedef bool (*hide_fn)(struct engine_game *game, int seat, struct engine_rng *rng);

struct title_case {
  const char *id;
  int seats;
  const char *options; /* JSON text, or NULL */
  hide_fn hide;
};

/* Himalaya hides the undrawn Yeti cards' order and the dice to come. */
static bool himalaya_hide(struct engine_game *game, int seat, struct engine_rng *rng)
{
  struct himalaya_state *st = (struct himalaya_state *)game;

  (void)seat;
  engine_rng_shuffle(rng, st->deck, st->deck_len);
  engine_rng_fork(rng, &st->head.rng);
  return true;
}

/* Journey hides the deck order from everyone and the Mountain's hand from
 * the climbers: deal the hand again from hand and deck (the Mountain keeps
 * its own), and the dice to come. */
static bool journey_hide(struct engine_game *game, int seat, struct engine_rng *rng)
{
  struct journey_state *st = (struct journey_state *)game;
  int pool[JOURNEY_DECK_SIZE], n = 0, hand_size = 0, card, i;

  for (card = 0; card < JOURNEY_CARDS; card++)
    for (i = 0; i < st->hand[card] && seat != JOURNEY_MOUNTAIN; i++, hand_size++)
      pool[n++] = card;
  memcpy(pool + n, st->deck, sizeof(int) * (size_t)st->deck_len);
  n += st->deck_len;
  engine_rng_shuffle(rng, pool, n);
  if (seat != JOURNEY_MOUNTAIN) {
    memset(st->hand, 0, sizeof(st->hand));
    for (i = 0; i < hand_size; i++)
      st->hand[pool[i]]++;
  }
  memcpy(st->deck, pool + hand_size, sizeof(int) * (size_t)st->deck_len);
  engine_rng_fork(rng, &st->head.rng);
  return true;
}

/* Everest hides the plans and end-of-round choices other seats made while
 * `seat` still owes its own: make each again, as another legal one. */
static bool everest_hide(struct engine_game *game, int seat, struct engine_rng *rng)
{
  struct everest_state *st = (struct everest_state *)game;
  struct cairn_error err = {0};
  bool changed = false, pending;
  int s;

  for (s = 0; s < game->seats; s++) {
    bool plan = st->phase == EVEREST_PHASE_PLAN && st->seat[s].planned;
    bool heal = st->phase == EVEREST_PHASE_HEAL && st->seat[s].heal_decided;
    json_t *move;

    if (s == seat || (!plan && !heal))
      continue;
    if (plan)
      st->seat[s].planned = false;
    else
      st->seat[s].heal_decided = false;
    move = engine_sample_move(game, s, engine_rng_next(rng));
    assert_non_null(move);
    assert_int_equal(game->module->apply_move(game, s, move, NULL, &pending, &err), CAIRN_OK);
    assert_true(pending);
    json_decref(move);
    changed = true;
  }
  engine_rng_fork(rng, &game->rng);
  return changed;
}

/* Because It's There hides every active pile's order, the Event deck's and
 * the other seat's hand: shuffle them all, and deal the other hand again
 * from that seat's hand and pile. */
static bool bit_hide(struct engine_game *game, int seat, struct engine_rng *rng)
{
  struct bit_state *st = (struct bit_state *)game;
  int s, i, cards[BIT_CARDS], n, hand;

  engine_rng_fork(rng, &game->rng); /* bit_shuffle draws from the game's */
  for (s = 0; s < game->seats; s++) {
    if (s != seat) {
      hand = bit_pile(st, BIT_Z_HAND, s, cards);
      for (i = 0; i < hand; i++)
        bit_put(st, cards[i], BIT_Z_DECK, s);
      bit_shuffle(st, BIT_Z_DECK, s);
      n = bit_pile(st, BIT_Z_DECK, s, cards);
      for (i = 0; i < hand && i < n; i++)
        bit_put(st, cards[n - 1 - i], BIT_Z_HAND, s);
    }
    bit_shuffle(st, BIT_Z_DECK, s);
  }
  bit_shuffle(st, BIT_Z_EVENTS, -1);
  engine_rng_fork(rng, &game->rng);
  return true;
}

static const struct title_case cases[] = {
    {"himalaya", 2, NULL, himalaya_hide},
    {"himalaya", 4, NULL, himalaya_hide},
    {"everest-piecepack", 2, NULL, everest_hide},
    {"everest-piecepack", 4, "{\"round_cap\": 30}", everest_hide},
    {"journey-to-the-top", 3, NULL, journey_hide},
    {"because-its-there", 1, "{\"scenario\": \"1924\"}", bit_hide},
    {"because-its-there", 1, "{\"scenario\": \"1953\"}", bit_hide},
    {"because-its-there", 2, "{\"scenario\": \"1963\"}", bit_hide},
    {"because-its-there", 2, "{\"scenario\": \"dream-teams\"}", bit_hide},
    {"journey-to-the-top", 3, "{\"turn_limit\": 40}", journey_hide},
};

static struct engine_game *new_game(const struct title_case *c, json_t *options, uint8_t salt)
{
  uint8_t seed[ENGINE_SEED_BYTES] = {salt, 7, 3};
  struct engine_setup setup = {.seats = c->seats, .options = options};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};

  assert_int_equal(engine_new(engine_find(c->id), &setup, seed, &game, &err), CAIRN_OK);
  return game;
}

/* Play `steps` random moves (fewer when the game ends first). */
static void advance(struct engine_game **game, int steps, struct engine_rng *rng)
{
  struct cairn_error err = {0};
  int seats[ENGINE_MAX_SEATS];

  while (steps-- > 0 && engine_to_act(*game, seats) > 0) {
    json_t *move = engine_sample_move(*game, seats[0], engine_rng_next(rng));

    assert_non_null(move);
    assert_int_equal(engine_replay_step(*game, seats[0], move, &err), CAIRN_OK);
    json_decref(move);
  }
}

/* The module's serialisation without the common head (whose generator
 * always differs), so hidden cards and plans are what is compared. */
static char *rules_text(const struct engine_game *game)
{
  json_t *tree = game->module->serialize(game);
  char *text = json_dumps(tree, JSON_COMPACT | JSON_SORT_KEYS);

  json_decref(tree);
  assert_non_null(text);
  return text;
}

/* Four worlds sampled from `seat`'s view; true when some differed from
 * the real game beyond the generator (a hidden card or order sampled). */
static bool check_consistent(const struct engine_game *game, int seat, json_t *options)
{
  char *view = bots_test_view_of(game, seat), *real = rules_text(game);
  struct engine_rng rng;
  uint8_t seed[ENGINE_SEED_BYTES] = {42};
  bool varied = false;
  int k;

  engine_rng_seed(&rng, seed);
  for (k = 0; k < 4; k++) {
    struct engine_game *world = NULL;
    struct cairn_error err = {0};
    char *sampled_view, *sampled;

    if (engine_determinize(game->module, game->seats, game->seq, view, strlen(view), options, seat,
                           &rng, &world, &err) != CAIRN_OK)
      fail_msg("%s, seat %d at step %u: %s\nview: %s", game->module->id, seat, game->seq,
               err.detail, view);
    sampled_view = bots_test_view_of(world, seat);
    assert_string_equal(sampled_view, view);
    sampled = rules_text(world);
    varied |= strcmp(sampled, real) != 0;
    free(sampled);
    free(sampled_view);
    engine_free(world);
  }
  free(view);
  free(real);
  return varied;
}

/* Whether the fairness check ran: false when nothing was hidden from
 * `seat` at this position (the title's hide found nothing to change). */
static bool check_fair(const struct title_case *c, const struct engine_game *game, int seat,
                       json_t *options, struct engine_rng *rng)
{
  struct engine_game *twin = engine_clone(game);
  uint8_t seed[ENGINE_SEED_BYTES] = {9, 9, 9};
  struct cairn_error err = {0};
  char *view = bots_test_view_of(game, seat), *twin_view, *a, *b;
  json_t *move = NULL, *twin_move = NULL, *again = NULL;

  assert_non_null(twin);
  if (!c->hide(twin, seat, rng)) {
    engine_free(twin);
    free(view);
    return false;
  }
  twin_view = bots_test_view_of(twin, seat);
  assert_string_equal(twin_view, view); /* the bot's seat cannot tell them apart */
  a = rules_text(game);
  b = rules_text(twin);
  if (strcmp(a, b) == 0) { /* the hidden decision was drawn again as it was */
    free(a);
    free(b);
    free(twin_view);
    free(view);
    engine_free(twin);
    return false;
  }
  assert_int_equal(bot_choose(game, seat, options, seed, BOT_EASY, &move, &err), CAIRN_OK);
  assert_int_equal(bot_choose(twin, seat, options, seed, BOT_EASY, &twin_move, &err), CAIRN_OK);
  assert_int_equal(bot_choose(game, seat, options, seed, BOT_EASY, &again, &err), CAIRN_OK);
  assert_true(json_equal(move, twin_move));
  assert_true(json_equal(move, again));
  {
    struct engine_game *next = NULL;
    json_t *events = NULL;

    assert_int_equal(engine_apply(game, seat, move, &next, &events, &err), CAIRN_OK);
    engine_free(next);
    json_decref(events);
  }
  json_decref(move);
  json_decref(twin_move);
  json_decref(again);
  free(a);
  free(b);
  free(twin_view);
  free(view);
  engine_free(twin);
  return true;
}

/* Sampled worlds are consistent for every seat at every fifth step of
 * three random games, to their end (cheap: no search); the bot decides
 * fairly at three of those steps (a search each, so fewer). */
static void check_title(const struct title_case *c)
{
  json_t *options = c->options ? json_loads(c->options, 0, NULL) : NULL;
  struct engine_rng rng;
  uint8_t seed[ENGINE_SEED_BYTES] = {1, 2, 3};
  int game_no, step, seat, seats[ENGINE_MAX_SEATS], varied = 0, fair = 0;

  engine_rng_seed(&rng, seed);
  for (game_no = 0; game_no < 3; game_no++) {
    struct engine_game *game = new_game(c, options, (uint8_t)game_no);

    for (step = 0; step < 5000 && engine_to_act(game, seats) > 0; step += 5) {
      for (seat = 0; seat < game->seats; seat++)
        varied += check_consistent(game, seat, options);
      /* Two decisions a game, from its third hidden-information position on. */
      if (step >= 10 && fair < 2 * (game_no + 1))
        fair += check_fair(c, game, seats[0], options, &rng);
      advance(&game, 5, &rng);
    }
    engine_free(game);
  }
  assert_true(varied > 0); /* hidden parts are sampled, not copied from the real game */
  assert_true(fair > 0);   /* the decision was checked where something was hidden */
  json_decref(options);
}

static void test_titles_sample_consistent_worlds_and_decide_fairly(void **state)
{
  size_t i;

  (void)state;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    check_title(&cases[i]);
}

/* A view that is not a running game's is refused by name, never guessed. */
static void test_a_view_not_written_by_the_title_is_refused(void **state)
{
  const struct engine_module *m = engine_find("himalaya");
  struct engine_rng rng;
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  struct engine_game *world = NULL;
  struct cairn_error err = {0};
  const char *bad = "{\"seat_to_act\": 0, \"yeti\": 99, \"result\": null}";

  (void)state;
  engine_rng_seed(&rng, seed);
  assert_int_equal(engine_determinize(m, 2, 0, bad, strlen(bad), NULL, 0, &rng, &world, &err),
                   CAIRN_EINVAL);
  assert_null(world);
  assert_non_null(strstr(err.detail, "yeti"));
}

/* Levels by name, and a bad one refused. */
static void test_levels_are_named(void **state)
{
  enum bot_level level;

  (void)state;
  assert_true(bot_level_named("strong", &level));
  assert_int_equal(level, BOT_STRONG);
  assert_true(bot_level_named("random", &level));
  assert_int_equal(level, BOT_RANDOM);
  assert_false(bot_level_named("godlike", &level));
  assert_string_equal(bot_level_name(BOT_EASY), "easy");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_titles_sample_consistent_worlds_and_decide_fairly),
      cmocka_unit_test(test_a_view_not_written_by_the_title_is_refused),
      cmocka_unit_test(test_levels_are_named),
  };

  return order_run_group_tests(tests, NULL, NULL);
}
