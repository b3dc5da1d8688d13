/*
 * test_game.c - the title-independent half of the engine (engine/game.c,
 * engine/registry.c), checked with a toy title defined here: a counter that
 * seats take turns to raise, with one simultaneous "vote" step, so that
 * atomicity, turn checks, seq and event visibility are tested without
 * depending on any real game's rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/order.h"
#include "engine/engine.h"

struct toy {
  struct engine_game base; /* must be first */
  int total;
  int turn;
  int voted[ENGINE_MAX_SEATS]; /* during the vote step, who has voted */
  bool voting;
};

static enum cairn_status toy_new(const struct engine_setup *setup,
                                 const uint8_t seed[ENGINE_SEED_BYTES], struct engine_game *g,
                                 struct cairn_error *err)
{
  (void)setup;
  (void)err;
  engine_rng_seed(&g->rng, seed);
  return CAIRN_OK;
}

/* {"add": n}: raise the total; the toy mutates BEFORE checking, on purpose,
 * to prove engine_apply protects the caller's state. {"vote": true} during
 * the vote step, which starts when the total passes 5. */
static enum cairn_status toy_apply(struct engine_game *g, int seat, const json_t *move,
                                   json_t *events, bool *pending, struct cairn_error *err)
{
  struct toy *t = (struct toy *)g;
  int i, votes = 0;

  if (t->voting) {
    t->voted[seat] = 1;
    json_array_append_new(events, json_pack("{s:s, s:[i]}", "type", "voted", "private_to", seat));
    for (i = 0; i < g->seats; i++)
      votes += t->voted[i];
    if (votes < g->seats) {
      *pending = true;
      return CAIRN_OK;
    }
    t->voting = false;
    return CAIRN_OK;
  }
  t->total += (int)json_integer_value(json_object_get(move, "add"));
  if (json_integer_value(json_object_get(move, "add")) > 3)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, "toy: Adding", "at most 3");
  json_array_append_new(events, json_pack("{s:s, s:i}", "type", "added", "total", t->total));
  t->turn = (t->turn + 1) % g->seats;
  if (t->total > 5 && t->total < 100) {
    t->voting = true;
    t->total = 100;
  }
  return CAIRN_OK;
}

static int toy_to_act(const struct engine_game *g, int seats[ENGINE_MAX_SEATS])
{
  const struct toy *t = (const struct toy *)g;
  int i, n = 0;

  if (t->total >= 110)
    return 0;
  if (!t->voting) {
    seats[0] = t->turn;
    return 1;
  }
  for (i = 0; i < g->seats; i++)
    if (!t->voted[i])
      seats[n++] = i;
  return n;
}

static void toy_legal(const struct engine_game *g, int seat, struct json_writer *out)
{
  jw_array_begin(out);
  jw_array_end(out);
}

static void toy_view(const struct engine_game *g, int viewer, struct json_writer *out)
{
  jw_object_begin(out);
  jw_key_int(out, "total", ((const struct toy *)g)->total);
  jw_object_end(out);
}

static json_t *toy_result(const struct engine_game *g)
{
  return ((const struct toy *)g)->total >= 110 ? json_pack("{s:[]}", "winners") : NULL;
}

static json_t *toy_serialize(const struct engine_game *g)
{
  const struct toy *t = (const struct toy *)g;

  return json_pack("{s:i, s:i, s:b}", "total", t->total, "turn", t->turn, "voting", t->voting);
}

static bool toy_reveals(const json_t *event)
{
  return false;
}

static const struct engine_module toy_module = {
    .version = ENGINE_MODULE_VERSION,
    .id = "toy",
    .name = "Toy",
    .min_seats = 2,
    .max_seats = 3,
    .rules_version = "toy-1",
    .options_json = "{}",
    .state_size = sizeof(struct toy),
    .new_game = toy_new,
    .apply_move = toy_apply,
    .to_act = toy_to_act,
    .write_legal = toy_legal,
    .write_view = toy_view,
    .result = toy_result,
    .serialize = toy_serialize,
    .event_reveals = toy_reveals,
};

static struct engine_game *new_toy(int seats)
{
  static const uint8_t seed[ENGINE_SEED_BYTES] = {1};
  struct engine_setup setup = {.seats = seats};
  struct engine_game *g = NULL;

  assert_int_equal(engine_new(&toy_module, &setup, seed, &g, NULL), CAIRN_OK);
  return g;
}

static enum cairn_status play(struct engine_game **g, int seat, const char *move_text,
                              struct cairn_error *err)
{
  json_t *move = json_loads(move_text, 0, NULL);
  struct engine_game *next = NULL;
  json_t *events = NULL;
  enum cairn_status st = engine_apply(*g, seat, move, &next, &events, err);

  json_decref(move);
  json_decref(events);
  if (st == CAIRN_OK) {
    engine_free(*g);
    *g = next;
  }
  return st;
}

static void test_seat_count_outside_title_range_is_refused(void **state)
{
  static const uint8_t seed[ENGINE_SEED_BYTES] = {0};
  struct engine_setup setup = {.seats = 4};
  struct engine_game *g = NULL;
  struct cairn_error err = {0};

  assert_int_equal(engine_new(&toy_module, &setup, seed, &g, &err), CAIRN_EINVAL);
  assert_string_equal(err.code, CAIRN_CODE_BAD_VALUE);
  assert_null(g);
}

static void test_rejected_move_leaves_state_untouched(void **state)
{
  struct engine_game *g = new_toy(2);
  struct cairn_error err = {0};
  char *before = engine_serialize_text(g);
  char *after;

  assert_int_equal(play(&g, 0, "{\"add\": 9}", &err), CAIRN_EILLEGAL);
  assert_string_equal(err.rule, "toy: Adding");
  after = engine_serialize_text(g);
  assert_string_equal(before, after);
  assert_int_equal(g->seq, 0);
  free(before);
  free(after);
  engine_free(g);
}

static void test_only_seats_to_act_may_move(void **state)
{
  struct engine_game *g = new_toy(2);
  struct cairn_error err = {0};

  assert_int_equal(play(&g, 1, "{\"add\": 1}", &err), CAIRN_ETURN);
  assert_string_equal(err.code, CAIRN_CODE_NOT_YOUR_TURN);
  assert_int_equal(play(&g, 5, "{\"add\": 1}", &err), CAIRN_ETURN);
  assert_string_equal(err.code, CAIRN_CODE_NOT_SEATED);
  assert_int_equal(play(&g, 0, "[1]", &err), CAIRN_EINVAL);
  assert_int_equal(play(&g, 0, "{\"add\": 1}", &err), CAIRN_OK);
  assert_int_equal(g->seq, 1);
  engine_free(g);
}

static void test_simultaneous_step_advances_seq_once_when_resolved(void **state)
{
  struct engine_game *g = new_toy(3);
  int seats[ENGINE_MAX_SEATS];

  assert_int_equal(play(&g, 0, "{\"add\": 3}", NULL), CAIRN_OK);
  assert_int_equal(play(&g, 1, "{\"add\": 3}", NULL), CAIRN_OK); /* total 6: vote */
  assert_int_equal(g->seq, 2);
  assert_int_equal(engine_to_act(g, seats), 3);
  assert_int_equal(play(&g, 2, "{\"vote\": true}", NULL), CAIRN_OK);
  assert_int_equal(play(&g, 0, "{\"vote\": true}", NULL), CAIRN_OK);
  assert_int_equal(g->seq, 2); /* pending: seq holds */
  assert_int_equal(engine_to_act(g, seats), 1);
  assert_int_equal(seats[0], 1);
  assert_int_equal(play(&g, 1, "{\"vote\": true}", NULL), CAIRN_OK);
  assert_int_equal(g->seq, 3);
  engine_free(g);
}

static void test_finished_game_accepts_no_move(void **state)
{
  struct engine_game *g = new_toy(2);
  struct toy *t = (struct toy *)g;
  struct cairn_error err = {0};

  t->total = 110;
  assert_true(engine_is_over(g));
  assert_int_equal(play(&g, 0, "{\"add\": 1}", &err), CAIRN_ECONFLICT);
  assert_string_equal(err.code, CAIRN_CODE_GAME_NOT_ACTIVE);
  engine_free(g);
}

static void test_private_events_are_seen_only_by_their_seats_until_the_end(void **state)
{
  json_t *ev = json_pack("{s:s, s:[i,i]}", "type", "x", "private_to", 0, 2);
  json_t *pub = json_pack("{s:s}", "type", "y");

  assert_true(engine_event_visible(ev, 0, false));
  assert_true(engine_event_visible(ev, 2, false));
  assert_false(engine_event_visible(ev, 1, false));
  assert_false(engine_event_visible(ev, ENGINE_SPECTATOR, false));
  assert_true(engine_event_visible(ev, ENGINE_SPECTATOR, true));
  assert_true(engine_event_visible(pub, ENGINE_SPECTATOR, false));
  json_decref(ev);
  json_decref(pub);
}

/* The catalog shows options_json as the title wrote it, so a title that
 * names a bound its own way ("min"), adds a word of its own or leaves out
 * the description is refused at start-up, naming the option. */
static void test_an_option_outside_the_catalog_vocabulary_is_refused(void **state)
{
  static const char *const bad[] = {
      "{\"cap\": {\"type\": \"integer\", \"default\": 1, \"min\": 1, \"description\": \"d\"}}",
      "{\"cap\": {\"type\": \"integer\", \"default\": 1, \"step\": 2, \"description\": \"d\"}}",
      "{\"cap\": {\"type\": \"integer\", \"default\": 1}}",
      "{\"cap\": 5}",
      "[]",
  };
  struct engine_module m = *engine_modules()[0];
  struct cairn_error err = {0};
  size_t i;

  (void)state;
  m.options_json = "{\"cap\": {\"type\": \"integer\", \"default\": 1, \"minimum\": 1, "
                   "\"maximum\": 9, \"description\": \"d\"}}";
  assert_int_equal(engine_module_check(&m, &err), CAIRN_OK);
  for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    m.options_json = bad[i];
    assert_int_equal(engine_module_check(&m, &err), CAIRN_EINTERNAL);
    assert_non_null(strstr(err.detail, i < 4 ? "option cap" : "not a JSON object"));
  }
}

/* The toy with declared options, for the central check (options.c). */
static const struct engine_module *toy_with_options(struct engine_module *m)
{
  *m = toy_module;
  m->options_json = "{\"cap\": {\"type\": \"integer\", \"default\": 4, \"minimum\": 1, "
                    "\"maximum\": 9, \"description\": \"d\"}, \"mode\": {\"type\": \"string\", "
                    "\"default\": \"a\", \"values\": [\"a\", \"b\"], \"description\": \"d\"}}";
  return m;
}

/* engine_new refuses `options_text` with `code`, its detail saying `says`,
 * before the title's new_game runs (nothing is allocated). */
static void options_refused(const struct engine_module *m, const char *options_text,
                            const char *code, const char *says)
{
  static const uint8_t seed[ENGINE_SEED_BYTES] = {1};
  json_t *options = json_loads(options_text, 0, NULL);
  struct engine_setup setup = {.seats = 2, .options = options};
  struct engine_game *g = (struct engine_game *)&setup; /* not NULL: a refusal clears it */
  struct cairn_error err = {0};

  assert_int_equal(engine_new(m, &setup, seed, &g, &err), CAIRN_EINVAL);
  assert_null(g);
  assert_string_equal(err.code, code);
  if (!strstr(err.detail, says))
    fail_msg("%s: \"%s\" does not say \"%s\"", options_text, err.detail, says);
  json_decref(options);
}

/* Options are declared once (options_json) and checked by the core before
 * any title sees them: unknown keys (the smallest named, whatever the key
 * order), types, bounds and declared values; a title reads the checked
 * value or the declared default. */
static void test_options_are_checked_against_their_declaration(void **state)
{
  struct engine_module decl;
  const struct engine_module *m = toy_with_options(&decl);
  json_t *given = json_pack("{s:i}", "cap", 7);

  (void)state;
  options_refused(m, "{\"zeta\": 1, \"beta\": 2, \"cap\": 3}", CAIRN_CODE_UNKNOWN_FIELD,
                  "options.beta");
  options_refused(m, "{\"cap\": \"3\"}", CAIRN_CODE_WRONG_TYPE, "options.cap: expected an integer");
  options_refused(m, "{\"cap\": 10}", CAIRN_CODE_BAD_VALUE, "options.cap: must be 1 to 9, not 10");
  options_refused(m, "{\"cap\": 0}", CAIRN_CODE_BAD_VALUE, "not 0");
  options_refused(m, "{\"mode\": \"c\"}", CAIRN_CODE_BAD_VALUE, "options.mode: \"c\"");
  options_refused(m, "{\"mode\": true}", CAIRN_CODE_WRONG_TYPE, "options.mode: expected a string");
  options_refused(&toy_module, "{\"cap\": 3}", CAIRN_CODE_UNKNOWN_FIELD, "takes none");
  options_refused(m, "[1]", CAIRN_CODE_WRONG_TYPE, "options: expected an object");
  assert_int_equal(engine_option_int(m, given, "cap"), 7);
  assert_int_equal(engine_option_int(m, NULL, "cap"), 4); /* the declared default */
  assert_null(engine_option_string(NULL, "mode"));
  json_decref(given);
}

/* The core owns a state's memory: a clone is an equal, separate block. */
static void test_the_core_clones_and_frees_every_state(void **state)
{
  static const uint8_t seed[ENGINE_SEED_BYTES] = {3};
  const struct engine_module *const *m;

  (void)state;
  for (m = engine_modules(); *m; m++) {
    struct engine_setup setup = {.seats = (*m)->min_seats};
    struct engine_game *g = NULL, *copy;
    json_t *a, *b;

    assert_int_equal(engine_new(*m, &setup, seed, &g, NULL), CAIRN_OK);
    copy = engine_clone(g);
    assert_non_null(copy);
    assert_ptr_not_equal(copy, g);
    a = (*m)->serialize(g);
    b = (*m)->serialize(copy);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    engine_free(g);
    engine_free(copy);
  }
}

static void test_every_registered_title_passes_the_interface_check(void **state)
{
  struct cairn_error err = {0};

  assert_int_equal(engine_registry_check(&err), CAIRN_OK);
  assert_non_null(engine_find("himalaya"));
  assert_null(engine_find("chess"));
}

/* The fog (game/fog.c) asks each title which stored events uncovered
 * something; a title that cannot say is taken to reveal everything. */
static void test_titles_say_which_events_reveal(void **state)
{
  static const char *const cases[][3] = {
      {"himalaya", "{\"type\":\"yeti_card\",\"card\":\"up 3\"}", "{\"type\":\"moved\"}"},
      {"everest-piecepack", "{\"type\":\"plans-revealed\"}", "{\"type\":\"moved\"}"},
      {"journey-to-the-top", "{\"type\":\"mountain_drew\"}", "{\"type\":\"bought\"}"},
      {"because-its-there", "{\"type\":\"recovery\"}", "{\"type\":\"deployed\"}"},
  };
  struct engine_module old = toy_module;
  json_t *yes, *no;
  size_t i;

  for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
    yes = json_loads(cases[i][1], 0, NULL);
    no = json_loads(cases[i][2], 0, NULL);
    assert_true(engine_event_reveals(engine_find(cases[i][0]), yes));
    assert_false(engine_event_reveals(engine_find(cases[i][0]), no));
    json_decref(yes);
    json_decref(no);
  }
  old.version = 1;
  old.event_reveals = NULL;
  no = json_pack("{s:s}", "type", "anything");
  assert_true(engine_event_reveals(&old, no));
  assert_false(engine_event_reveals(&toy_module, no));
  json_decref(no);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seat_count_outside_title_range_is_refused),
      cmocka_unit_test(test_rejected_move_leaves_state_untouched),
      cmocka_unit_test(test_only_seats_to_act_may_move),
      cmocka_unit_test(test_simultaneous_step_advances_seq_once_when_resolved),
      cmocka_unit_test(test_finished_game_accepts_no_move),
      cmocka_unit_test(test_private_events_are_seen_only_by_their_seats_until_the_end),
      cmocka_unit_test(test_an_option_outside_the_catalog_vocabulary_is_refused),
      cmocka_unit_test(test_options_are_checked_against_their_declaration),
      cmocka_unit_test(test_the_core_clones_and_frees_every_state),
      cmocka_unit_test(test_every_registered_title_passes_the_interface_check),
      cmocka_unit_test(test_titles_say_which_events_reveal),
  };

  return order_run_group_tests_name("engine/game", tests, NULL, NULL);
}
