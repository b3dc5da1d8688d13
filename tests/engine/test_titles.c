/*
 * test_titles.c - the generic suite every registered title passes by being
 * registered (issue 21): seeded random playouts over every setting a title
 * offers, checking what must hold for any game whatever its rules. It walks
 * engine_modules() and never names a title, so a fifth title gets all of it
 * by its line in engine/titles.def.
 *
 * Settings: every seat count min..max times every combination of the values
 * of each option whose declaration enumerates "values" (other options keep
 * their defaults, so an opt-in end such as a round cap stays off). A
 * combination new_game refuses with CAIRN_EINVAL is skipped; every seat
 * count must accept at least one.
 *
 * Moves: each seat engine_to_act names plays, in an order drawn for the
 * step, a move from engine_sample_move: for a title without a sampler that
 * is a uniform pick from engine_legal_moves (engine/game.c); a title whose
 * `legal` is a compact description must have a sampler (engine.h), and a
 * title with one plays through it as its bots do (a uniform pick from a
 * complete list does not always end a game: engine/everest/README.md,
 * "Playouts"). When `legal` is a complete list the sampled move must be on
 * it. Choices come from a local splitmix64 stream, never from the game's
 * generator.
 *
 * The properties, one cmocka test per title and property:
 * 1. playouts from legal end: every listed or sampled move is accepted,
 *    seats not to act are refused with CAIRN_ETURN, reading a state never
 *    changes it, and the game ends with winners and a reason within
 *    MOVES_PER_SEAT moves a seat;
 * 2. replay equals live: the (seat, move) log replayed from the seed gives
 *    the same events and byte-equal serialisations at every step, and a
 *    clone serialises equal to its original;
 * 3. views free of others' secrets, judged from what a viewer is shown (its
 *    "face": the view, to_act, its legal list, whether the game is over):
 *    a. a move kept from viewer V (its events all hidden from V, or the
 *       move itself kept from others by the log: pending, or with a
 *       private event) gives V the same face as every legal alternative
 *       also kept from V that shows V the same events (for a move V is
 *       shown nothing of: every such alternative). "Unchanged" would be
 *       too strong: that a seat has acted is public (to_act, a "planned"
 *       or "done" flag);
 *    b. no view, legal list or event holds a word of the generator (key,
 *       current block, upcoming keystream) as a number or as text, and two
 *       playouts forked at such a move and continued with the same moves
 *       give V the same face for as long as V has been shown the same
 *       events (for the spectator: the same public events);
 *    c. the faces of a clone and of a replayed state equal the live ones;
 * 4. determinism: the same seed and choices give the same log and states;
 * 5. the replay step equals apply: the log replayed from the seed with
 *    engine_replay_step (in place, apply_move given no events array, so
 *    the title builds none), and again with engine_replay_text (each move
 *    as the server stores it: compact JSON text, keys sorted; a title's
 *    replay_text reads it without a tree), serialises byte-equal to the
 *    live states (engine_apply's, with events) after every step: a title
 *    that skipped a change of state along with an event it need not
 *    build, or read a text otherwise than its tree, fails here.
 *
 * A failure names the title, seat count, options, seed number, step (moves
 * applied before it) and seat; the run is deterministic, so rerunning
 * reproduces it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

/* The bound on a game's length, derived from the seat count: a title gives
 * no length of its own, and a game's moves grow with its seats (each seat
 * owes its own decisions). bench_endings' 10,000 random games per title
 * (tests/bench/history.log) never took more than 599 moves a seat (1,198 in
 * a two-seat because-its-there game; 581 with one seat); four times that
 * leaves room for an unlucky seed while a game that never ends still fails
 * within seconds. */
#define MOVES_PER_SEAT 2500L

/* Playouts per title and property, spread over its settings (at least one
 * each): enough to reach every phase of every title while the binary stays
 * well under 30 s under ASan. */
#define PLAYOUTS 4

/* Alternatives drawn from the sampler when `legal` is compact. */
#define SAMPLED_ALTERNATIVES 24

/* Forks per playout for the "same shown events, same face" check (3b). */
#define FORKS 4

/* Steps between two checks that a clone, and a replayed state, show every
 * viewer the faces the live state did (3c). Both serialise byte-equal to
 * it at every step (property 2), so only a view reading what the
 * serialisation leaves out could tell them apart; a sample finds that. */
#define FACES_EVERY 4

/* Upcoming keystream words searched for in views (3b). */
#define UPCOMING_WORDS 32

/* Generator words below this are not searched: small numbers are ordinary
 * game values (a 32-bit word falls below it once in 65,536). */
#define SMALLEST_SECRET_WORD 0x10000u

#define MAX_SETTINGS 64
#define NO_SEAT      (-9) /* for messages about no seat in particular */

enum property {
  PLAYOUTS_END,
  REPLAY_EQUALS_LIVE,
  VIEWS_KEEP_SECRETS,
  SAME_SEED_SAME_GAME,
  REPLAY_STEP_EQUALS_APPLY,
  PROPERTIES /* how many */
};

static const char *const property_names[] = {
    "random playouts from legal end within the bound",
    "replay equals live",
    "views free of others' secrets",
    "same seed and choices give the same game",
    "the replay step (no events) gives apply's states",
};

/* One cmocka test: a title and a property. */
struct title_test {
  const struct engine_module *module; /* Static */
  enum property property;
  char name[128];
};

/* Where a check runs, for messages that reproduce the failure. */
struct where {
  const struct engine_module *module; /* Static */
  enum property property;
  int seats;
  const char *options; /* Borrowed: compact JSON text */
  uint64_t seed;       /* the playout's seed number (game seed and choices) */
  long step;           /* the move's index in the log (moves applied before it) */
  int seat;            /* the seat concerned, or NO_SEAT */
};

/* Expected failures: a property a registered title does not meet today.
 * Each is a real finding reported to the lead (issue 21), listed here with
 * its reason so the suite stays green while it is decided, not skipped: the
 * property still runs, a failure matches an entry only when its message
 * holds every fragment, any other failure still fails, and an entry that no
 * longer matches anything fails its test, so the list cannot go stale. */
struct expected_failure {
  const char *title; /* Static: the title's id */
  enum property property;
  const char *fragments[4]; /* Static: NULL-terminated, all in the message */
  const char *why;          /* Static */
};

/* None today: the entry {NULL} keeps the array non-empty (C has no empty
 * initialiser list) and matches nothing, as every loop skips a NULL title. */
static const struct expected_failure expected_failures[] = {
    {NULL, 0, {NULL}, NULL},
};

#define EXPECTED_FAILURES (sizeof(expected_failures) / sizeof(*expected_failures))

/* How often each expected failure matched in this run. */
static int expected_hits[EXPECTED_FAILURES];

static bool is_expected(const struct where *w, const char *message)
{
  size_t i, k;

  for (i = 0; i < EXPECTED_FAILURES; i++) {
    const struct expected_failure *e = &expected_failures[i];

    if (!e->title || strcmp(e->title, w->module->id) != 0 || e->property != w->property)
      continue;
    for (k = 0; e->fragments[k] && strstr(message, e->fragments[k]); k++)
      ;
    if (!e->fragments[k]) {
      expected_hits[i]++;
      return true;
    }
  }
  return false;
}

/* Fails the test with a message that reproduces the failure. Returns only
 * when the failure is an expected one (expected_failures), and only the
 * face comparisons can match one, so their callers go on safely. */
static void fail_at(const struct where *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fail_at(const struct where *w, const char *fmt, ...)
{
  char what[1024], message[1400];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  snprintf(message, sizeof(message),
           "%s, %d seat%s, options %s, seed %#" PRIx64 ", step %ld, seat %d: %s", w->module->id,
           w->seats, w->seats == 1 ? "" : "s", w->options, w->seed, w->step, w->seat, what);
  if (!is_expected(w, message))
    fail_msg("%s", message);
}

/* An expected failure of `t` that matched nothing is stale: fail. */
static void check_expected_failures_happened(const struct engine_module *m, enum property property)
{
  size_t i;

  for (i = 0; i < EXPECTED_FAILURES; i++) {
    const struct expected_failure *e = &expected_failures[i];

    if (e->title && strcmp(e->title, m->id) == 0 && e->property == property &&
        expected_hits[i] == 0)
      fail_msg("%s: the expected failure \"%s\" no longer happens; remove it from "
               "expected_failures",
               m->id, e->why);
  }
}

/* ---- Small helpers ---- */

static uint64_t splitmix(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* New string, caller frees: `json` as canonical text (sorted, compact). */
static char *canonical(const json_t *json)
{
  char *text = json_dumps(json, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);

  assert_non_null(text);
  return text;
}

/* Writes `json` as text to `out` for a message, cut to `size`. */
static void describe(const json_t *json, char *out, size_t size)
{
  char *text = json ? canonical(json) : NULL;

  snprintf(out, size, "%s", text ? text : "(none)");
  if (text && strlen(text) >= size && size > 4)
    memcpy(out + size - 4, "...", 4);
  free(text);
}

/* Writes to `out` where `a` and `b` first differ ("view.seats[1].hand:
 * [3] vs [4]"), starting from `path`. True when they differ. */
static bool first_difference(const json_t *a, const json_t *b, const char *path, char *out,
                             size_t size)
{
  char sub[256], left[160], right[160];
  const char *key;
  json_t *value;
  size_t i;

  if (json_equal(a, b))
    return false;
  if (json_is_object(a) && json_is_object(b)) {
    json_object_foreach((json_t *)a, key, value)
    {
      snprintf(sub, sizeof(sub), "%s.%s", path, key);
      if (first_difference(value, json_object_get(b, key), sub, out, size))
        return true;
    }
    json_object_foreach((json_t *)b, key, value)
    {
      snprintf(sub, sizeof(sub), "%s.%s", path, key);
      if (first_difference(json_object_get(a, key), value, sub, out, size))
        return true;
    }
  }
  if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
    json_array_foreach(a, i, value)
    {
      snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
      if (first_difference(value, json_array_get(b, i), sub, out, size))
        return true;
    }
  }
  describe(a, left, sizeof(left));
  describe(b, right, sizeof(right));
  snprintf(out, size, "%s: %s vs %s", path, left, right);
  return true;
}

/* New reference: the seats that owe a decision, as a JSON array. */
static json_t *to_act_list(const struct engine_game *game)
{
  int seats[ENGINE_MAX_SEATS];
  int n = engine_to_act(game, seats);

  return engine_int_list(seats, n);
}

/* New reference: what `viewer` (a seat or ENGINE_SPECTATOR) is shown of
 * `game`: the view, to_act (public through the API), its legal list, and
 * whether the game is over. Whatever a secret moves here, it leaks. */
static json_t *face(const struct engine_game *game, int viewer)
{
  json_t *f = json_pack("{s:o, s:o, s:o, s:b}", "view", engine_view(game, viewer), "to_act",
                        to_act_list(game), "legal",
                        viewer >= 0 ? engine_legal_moves(game, viewer) : json_null(), "over",
                        engine_is_over(game));

  assert_non_null(f);
  return f;
}

/* True when every event of `events` is hidden from `viewer` in a running
 * game. */
static bool all_hidden_from(const json_t *events, int viewer)
{
  const json_t *event;
  size_t i;

  json_array_foreach(events, i, event)
  {
    if (engine_event_visible(event, viewer, false))
      return false;
  }
  return true;
}

/* New reference: the events of `events` that `viewer` is shown. */
static json_t *shown_to(const json_t *events, int viewer)
{
  json_t *shown = json_array();
  const json_t *event;
  size_t i;

  json_array_foreach(events, i, event)
  {
    if (engine_event_visible(event, viewer, false))
      json_array_append((json_t *)shown, (json_t *)event);
  }
  return shown;
}

/* ---- Settings ---- */

struct setting {
  int seats;
  json_t *options; /* Owned */
  char *text;      /* Owned: the options as compact JSON, for messages */
};

struct settings {
  struct setting items[MAX_SETTINGS];
  int n;
};

/* New reference: every combination of the enumerated options' values, as
 * option objects ([{}] when the title enumerates none). */
static json_t *option_combinations(const struct engine_module *m)
{
  json_t *declared = kit_parse(m->options_json);
  json_t *combos = json_pack("[{}]");
  const char *key;
  json_t *spec;

  json_object_foreach(declared, key, spec)
  {
    json_t *values = json_object_get(spec, "values"), *grown, *combo, *value;
    size_t i, j;

    if (!json_is_array(values))
      continue;
    grown = json_array();
    json_array_foreach(combos, i, combo) json_array_foreach(values, j, value)
    {
      json_t *next = json_deep_copy(combo);

      json_object_set(next, key, value);
      json_array_append_new(grown, next);
    }
    json_decref(combos);
    combos = grown;
  }
  json_decref(declared);
  return combos;
}

static void add_setting(struct settings *out, int seats, json_t *options)
{
  assert_true(out->n < MAX_SETTINGS);
  out->items[out->n].seats = seats;
  out->items[out->n].options = json_incref(options);
  out->items[out->n].text = canonical(options);
  out->n++;
}

/* Every setting of `m` that new_game accepts; fails when a seat count
 * accepts none or a refusal is anything but CAIRN_EINVAL. */
static void settings_of(const struct engine_module *m, struct settings *out)
{
  static const uint8_t seed[ENGINE_SEED_BYTES] = {7};
  json_t *combos = option_combinations(m), *combo;
  int seats;
  size_t i;

  out->n = 0;
  for (seats = m->min_seats; seats <= m->max_seats; seats++) {
    int accepted = 0;

    json_array_foreach(combos, i, combo)
    {
      struct engine_setup setup = {.seats = seats, .options = combo};
      struct engine_game *game = NULL;
      struct cairn_error err = {0};
      enum cairn_status st = engine_new(m, &setup, seed, &game, &err);

      engine_free(game);
      if (st == CAIRN_EINVAL)
        continue;
      if (st != CAIRN_OK)
        fail_msg("%s, %d seats: new_game failed with status %d: %s", m->id, seats, st, err.detail);
      add_setting(out, seats, combo);
      accepted++;
    }
    if (accepted == 0)
      fail_msg("%s: no combination of its options is accepted for %d seats", m->id, seats);
  }
  json_decref(combos);
}

static void free_settings(struct settings *s)
{
  int i;

  for (i = 0; i < s->n; i++) {
    json_decref(s->items[i].options);
    free(s->items[i].text);
  }
}

/* ---- Playouts ---- */

struct playout;

/* A property's checks, run on every move before the playout takes it:
 * `before` is the state the move was played on, `after` its result. */
typedef void (*move_check)(struct playout *p, const struct engine_game *before, int seat,
                           const json_t *move, const struct engine_game *after,
                           const json_t *events);

struct playout {
  struct where at;
  struct engine_setup setup;
  uint8_t seed[ENGINE_SEED_BYTES];
  uint64_t chooser;         /* the local choice stream */
  struct engine_game *game; /* Owned: the live state */
  json_t *moves;            /* Owned: [[seat, move], ...] */
  json_t *events;           /* Owned: one events array per move */
  bool keep_states;         /* only property 1 does without `states` */
  char **states;            /* Owned or NULL: state texts, [0] the start, [i] after move i */
  char **faces;             /* Owned or NULL: per state as in `states`, every viewer's
                             * face as canonical text (3c) */
  json_t *forks;            /* Owned or NULL: [[step, move], ...] where a fork may start */
  move_check check;         /* NULL: no per-move checks */
  long bound;               /* moves after which the game counts as stuck */
};

static void record_state(struct playout *p)
{
  size_t n = json_array_size(p->moves);

  if (!p->keep_states)
    return;
  p->states = realloc(p->states, (n + 1) * sizeof(*p->states));
  assert_non_null(p->states);
  p->states[n] = kit_text(p->game);
}

/* New reference: every viewer's face of `game`, spectator first. */
static json_t *faces_of(const struct engine_game *game)
{
  json_t *all = json_array();
  int viewer;

  for (viewer = ENGINE_SPECTATOR; viewer < game->seats; viewer++)
    json_array_append_new(all, face(game, viewer));
  return all;
}

/* `faces` (every viewer's face of some state, as canonical text) must be
 * what `game` shows: `what` names where `game` came from. */
static void check_same_faces(struct playout *p, const char *faces, const struct engine_game *game,
                             const char *what)
{
  json_t *expected, *actual = faces_of(game);
  char *text = canonical(actual), where[512];

  if (strcmp(text, faces) != 0) {
    expected = kit_parse(faces);
    first_difference(expected, actual, "faces", where, sizeof(where));
    fail_at(&p->at, "%s shows a viewer another face than live: %s", what, where);
    json_decref(expected);
  }
  free(text);
  json_decref(actual);
}

static void start(struct playout *p, const struct title_test *t, const struct setting *s,
                  uint64_t seed)
{
  const struct engine_module *m = t->module;
  uint64_t stream = seed;
  struct cairn_error err = {0};
  int i;

  memset(p, 0, sizeof(*p));
  p->at = (struct where){.module = m,
                         .property = t->property,
                         .seats = s->seats,
                         .options = s->text,
                         .seed = seed,
                         .seat = NO_SEAT};
  p->setup = (struct engine_setup){.seats = s->seats, .options = s->options};
  for (i = 0; i < ENGINE_SEED_BYTES; i += 8) {
    uint64_t word = splitmix(&stream);

    memcpy(p->seed + i, &word, sizeof(word));
  }
  p->chooser = splitmix(&stream);
  if (engine_new(m, &p->setup, p->seed, &p->game, &err) != CAIRN_OK)
    fail_at(&p->at, "new_game refused a setting it accepted before: %s", err.detail);
  p->moves = json_array();
  p->events = json_array();
  p->bound = MOVES_PER_SEAT * s->seats;
  p->keep_states = t->property != PLAYOUTS_END;
  record_state(p);
}

static void finish(struct playout *p)
{
  size_t i;

  for (i = 0; i <= json_array_size(p->moves); i++) {
    if (p->states)
      free(p->states[i]);
    if (p->faces)
      free(p->faces[i]);
  }
  free(p->states);
  free(p->faces);
  engine_free(p->game);
  json_decref(p->moves);
  json_decref(p->events);
  json_decref(p->forks);
}

/* A fresh game from the playout's seed and setting (caller frees). */
static struct engine_game *new_from_seed(const struct playout *p)
{
  struct engine_game *game = NULL;

  assert_int_equal(engine_new(p->at.module, &p->setup, p->seed, &game, NULL), CAIRN_OK);
  return game;
}

/* Apply `move` for `seat` to *game, replacing it; the events are returned
 * (new reference), or NULL with *game untouched when the move is refused. */
static json_t *advance(struct engine_game **game, int seat, const json_t *move,
                       struct cairn_error *err)
{
  struct engine_game *next = NULL;
  json_t *events = NULL;

  if (engine_apply(*game, seat, move, &next, &events, err) != CAIRN_OK)
    return NULL;
  engine_free(*game);
  *game = next;
  return events;
}

static void play_one(struct playout *p, int seat)
{
  struct engine_game *next = NULL;
  json_t *move, *events = NULL;
  struct cairn_error err = {0};
  char shown[200];

  p->at.seat = seat;
  if (p->at.step >= p->bound)
    fail_at(&p->at, "no end after %ld moves (the bound is %ld moves a seat)", p->at.step,
            MOVES_PER_SEAT);
  move = engine_sample_move(p->game, seat, splitmix(&p->chooser));
  if (!move)
    fail_at(&p->at, "a seat that owes a decision was given no move");
  if (engine_apply(p->game, seat, move, &next, &events, &err) != CAIRN_OK) {
    describe(move, shown, sizeof(shown));
    fail_at(&p->at, "the chosen move %s was refused: %s (%s)", shown, err.detail,
            err.code ? err.code : "no code");
  }
  if (p->check)
    p->check(p, p->game, seat, move, next, events);
  json_array_append_new(p->moves, json_pack("[i, o]", seat, move));
  json_array_append_new(p->events, events);
  engine_free(p->game);
  p->game = next;
  p->at.step++;
  record_state(p);
}

/* Fisher-Yates with the local stream: the order in which the seats owing
 * a decision at one step play. */
static void shuffle(int *seats, int n, uint64_t *chooser)
{
  int i;

  for (i = n - 1; i > 0; i--) {
    int j = (int)(splitmix(chooser) % (uint64_t)(i + 1)), t = seats[i];

    seats[i] = seats[j];
    seats[j] = t;
  }
}

/* Play to the end: at each step every seat that owes a decision plays one
 * move, in a drawn order (a seat whose decision another's move took away is
 * passed over). */
static void play_out(struct playout *p)
{
  while (!engine_is_over(p->game)) {
    int seats[ENGINE_MAX_SEATS], n = engine_to_act(p->game, seats), i;

    p->at.seat = NO_SEAT;
    if (n <= 0)
      fail_at(&p->at, "nobody owes a decision in a running game");
    shuffle(seats, n, &p->chooser);
    for (i = 0; i < n; i++)
      if (!engine_is_over(p->game) && engine_may_act(p->game, seats[i]))
        play_one(p, seats[i]);
  }
}

/* ---- 1. Playouts from legal end ---- */

/* Whether `list` holds `move`. */
static bool lists(const json_t *list, const json_t *move)
{
  const json_t *item;
  size_t i;

  json_array_foreach(list, i, item)
  {
    if (json_equal(item, move))
      return true;
  }
  return false;
}

/* How many elements of `legal` engine_apply accepts for `seat`; writes the
 * first refused one to `refused` (NULL when none). */
static size_t count_accepted(const struct engine_game *game, int seat, const json_t *legal,
                             const json_t **refused)
{
  const json_t *item;
  size_t i, accepted = 0;

  *refused = NULL;
  json_array_foreach(legal, i, item)
  {
    if (kit_accepts(game, seat, item))
      accepted++;
    else if (!*refused)
      *refused = item;
  }
  return accepted;
}

/* `legal` for the mover is either a complete list (every element accepted,
 * the chosen move among them) or a compact description (none accepted,
 * which only a title with a sampler may give, and then the chosen sampled
 * move was accepted). A list with some refused elements is neither. */
static void check_legal_list(struct playout *p, const struct engine_game *game, int seat,
                             const json_t *move)
{
  json_t *legal = engine_legal_moves(game, seat);
  const json_t *refused;
  size_t accepted, n = json_array_size(legal);
  char shown[200];

  if (!json_is_array(legal) || n == 0)
    fail_at(&p->at, "a seat that owes a decision has no legal list");
  accepted = count_accepted(game, seat, legal, &refused);
  if (accepted > 0 && accepted < n) {
    describe(refused, shown, sizeof(shown));
    fail_at(&p->at, "legal lists %s, which engine_apply refuses", shown);
  }
  if (accepted == n && !lists(legal, move)) {
    describe(move, shown, sizeof(shown));
    fail_at(&p->at, "the sampler chose %s, which the complete legal list lacks", shown);
  }
  json_decref(legal);
}

/* A seat that owes nothing has an empty legal list, no sampled move, and
 * its move (here the mover's) is refused with CAIRN_ETURN, not-your-turn. */
static void check_idle_seat(struct playout *p, const struct engine_game *game, int idle,
                            const json_t *move)
{
  struct engine_game *next = NULL;
  json_t *legal = engine_legal_moves(game, idle), *sampled = engine_sample_move(game, idle, 1);
  json_t *events = NULL;
  struct cairn_error err = {0};
  enum cairn_status st = engine_apply(game, idle, move, &next, &events, &err);
  int mover = p->at.seat;

  p->at.seat = idle;
  if (!json_is_array(legal) || json_array_size(legal) != 0)
    fail_at(&p->at, "a seat that owes nothing has a non-empty legal list");
  if (sampled)
    fail_at(&p->at, "a seat that owes nothing was sampled a move");
  if (st != CAIRN_ETURN || !err.code || strcmp(err.code, CAIRN_CODE_NOT_YOUR_TURN) != 0 || next ||
      events)
    fail_at(&p->at, "a move by a seat that owes nothing gave status %d (%s), not CAIRN_ETURN", st,
            err.code ? err.code : "no code");
  p->at.seat = mover;
  json_decref(legal);
}

/* Reading a state (every slot a client's request calls) leaves its bytes
 * as they were: a view that draws from the generator, say, would change
 * the game it only looked at. */
static void check_reading_is_pure(struct playout *p, const struct engine_game *game)
{
  struct engine_game *copy = engine_clone(game);
  int viewer;

  assert_non_null(copy);
  for (viewer = ENGINE_SPECTATOR; viewer < game->seats; viewer++)
    json_decref(face(game, viewer));
  for (viewer = 0; viewer < game->seats; viewer++)
    json_decref(engine_sample_move(game, viewer, 3));
  json_decref(engine_view(game, ENGINE_OMNISCIENT));
  json_decref(engine_result(game));
  free(kit_text(game));
  if (memcmp(copy, game, game->module->state_size) != 0)
    fail_at(&p->at, "reading the state (views, legal, to_act, result, sampler) changed it");
  engine_free(copy);
}

/* The same choice gives the same sampled move (engine.h, sample_move). */
static void check_sampler_repeats(struct playout *p, const struct engine_game *game, int seat)
{
  json_t *a = engine_sample_move(game, seat, 12345), *b = engine_sample_move(game, seat, 12345);

  if (!json_equal(a, b))
    fail_at(&p->at, "the same choice sampled two different moves");
  json_decref(a);
  json_decref(b);
}

/* Each event is an object with a "type" (engine.h), and a "private_to"
 * names distinct seats of this game: a malformed one would be shown to
 * nobody or, read another way, to everybody. */
static void check_events_are_well_formed(struct playout *p, const json_t *events)
{
  const json_t *event, *to, *seat;
  size_t i, k;

  if (!json_is_array(events))
    fail_at(&p->at, "the move's events are not an array");
  json_array_foreach(events, i, event)
  {
    int seen = 0;

    if (!json_is_object(event) || !json_is_string(json_object_get(event, "type")))
      fail_at(&p->at, "event %zu has no \"type\"", i);
    to = json_object_get(event, "private_to");
    if (to && (!json_is_array(to) || json_array_size(to) == 0))
      fail_at(&p->at, "event %zu: private_to is not a list of seats", i);
    json_array_foreach(to, k, seat)
    {
      json_int_t s = json_integer_value(seat);

      if (!json_is_integer(seat) || s < 0 || s >= p->at.seats || (seen & (1 << s)))
        fail_at(&p->at, "event %zu: private_to names %s, not distinct seats of this game", i,
                json_is_integer(seat) ? "a seat out of range or twice" : "a non-seat");
      seen |= 1 << s;
    }
  }
}

static void check_move_from_legal(struct playout *p, const struct engine_game *before, int seat,
                                  const json_t *move, const struct engine_game *after,
                                  const json_t *events)
{
  int seats[ENGINE_MAX_SEATS], n = engine_to_act(before, seats), s, i;

  (void)after;
  check_legal_list(p, before, seat, move);
  check_sampler_repeats(p, before, seat);
  for (s = 0; s < before->seats; s++) {
    for (i = 0; i < n && seats[i] != s; i++)
      ;
    if (i == n)
      check_idle_seat(p, before, s, move);
  }
  if (p->at.step % FACES_EVERY == 0) /* it reads every face: a sample is enough */
    check_reading_is_pure(p, before);
  check_events_are_well_formed(p, events);
}

/* The end: a result with winners (distinct seats) and a reason, nobody to
 * act, nothing legal, every move refused. */
static void check_end(struct playout *p)
{
  json_t *result = engine_result(p->game), *winners = json_object_get(result, "winners"), *w;
  const char *reason = json_string_value(json_object_get(result, "reason"));
  int seats[ENGINE_MAX_SEATS], seen = 0, s;
  size_t i;

  p->at.seat = NO_SEAT;
  if (!json_is_array(winners))
    fail_at(&p->at, "the result has no winners array");
  if (!reason || !reason[0])
    fail_at(&p->at, "the result gives no reason");
  json_array_foreach(winners, i, w)
  {
    json_int_t seat = json_integer_value(w);

    if (!json_is_integer(w) || seat < 0 || seat >= p->game->seats || (seen & (1 << seat)))
      fail_at(&p->at, "the winners hold %" JSON_INTEGER_FORMAT ", not distinct seats", seat);
    seen |= 1 << seat;
  }
  if (engine_to_act(p->game, seats) != 0)
    fail_at(&p->at, "a finished game still names seats to act");
  for (s = 0; s < p->game->seats; s++) {
    json_t *legal = engine_legal_moves(p->game, s), *move = json_pack("{s:s}", "type", "pass");

    p->at.seat = s;
    if (json_array_size(legal) != 0)
      fail_at(&p->at, "a finished game still lists legal moves");
    if (kit_accepts(p->game, s, move))
      fail_at(&p->at, "a finished game accepted a move");
    json_decref(legal);
    json_decref(move);
  }
  json_decref(result);
}

/* ---- 2. Replay equals live ---- */

/* A clone of `game` serialises to `text`, its original's serialisation. */
static void check_clone(struct playout *p, const struct engine_game *game, const char *text)
{
  struct engine_game *copy = engine_clone(game);
  char *cloned = kit_text(copy);

  if (strcmp(text, cloned) != 0)
    fail_at(&p->at, "a clone serialises differently from its original");
  free(cloned);
  engine_free(copy);
}

/* Replay the log from the seed: the same events and byte-equal states at
 * every step, a clone of each replayed state (when `clones`) serialising
 * equal too, and (when the playout kept them) the same faces every
 * FACES_EVERY steps. */
static void check_replay(struct playout *p, bool clones)
{
  struct engine_game *game = new_from_seed(p);
  const json_t *entry;
  size_t i;
  char *text = kit_text(game);

  p->at.step = 0;
  p->at.seat = NO_SEAT;
  if (strcmp(text, p->states[0]) != 0)
    fail_at(&p->at, "the same seed gave a different start");
  free(text);
  json_array_foreach(p->moves, i, entry)
  {
    int seat = (int)json_integer_value(json_array_get(entry, 0));
    struct cairn_error err = {0};
    json_t *events = advance(&game, seat, json_array_get(entry, 1), &err);

    p->at.step = (long)i;
    p->at.seat = seat;
    if (!events)
      fail_at(&p->at, "the replayed move was refused: %s", err.detail);
    if (!json_equal(events, json_array_get(p->events, i)))
      fail_at(&p->at, "the replayed move gave other events than live");
    json_decref(events);
    text = kit_text(game);
    if (strcmp(text, p->states[i + 1]) != 0)
      fail_at(&p->at, "the replayed state serialises differently from the live one");
    free(text);
    if (clones)
      check_clone(p, game, p->states[i + 1]);
    if (p->faces && (i + 1) % FACES_EVERY == 0)
      check_same_faces(p, p->faces[i + 1], game, "a replayed state");
  }
  engine_free(game);
}

/* ---- 5. The replay step equals apply ---- */

/* Replay the log from the seed with engine_replay_step (or, `as_text`,
 * engine_replay_text on each move as stored), which build no events:
 * byte-equal states after every step. */
static void check_replay_step(struct playout *p, bool as_text)
{
  struct engine_game *game = new_from_seed(p);
  const json_t *entry;
  size_t i;

  json_array_foreach(p->moves, i, entry)
  {
    int seat = (int)json_integer_value(json_array_get(entry, 0));
    struct cairn_error err = {0};
    char *text = json_dumps(json_array_get(entry, 1), JSON_COMPACT | JSON_SORT_KEYS);
    enum cairn_status st;

    p->at.step = (long)i;
    p->at.seat = seat;
    assert_non_null(text);
    st = as_text ? engine_replay_text(game, seat, text, strlen(text), &err)
                 : engine_replay_step(game, seat, json_array_get(entry, 1), &err);
    if (st != CAIRN_OK)
      fail_at(&p->at, "the replay step%s refused %s, which apply accepted: %s",
              as_text ? " (text)" : "", text, err.detail);
    free(text);
    text = kit_text(game);
    if (strcmp(text, p->states[i + 1]) != 0)
      fail_at(&p->at, "the replay step%s (no events) left another state than apply (events)",
              as_text ? " (text)" : "");
    free(text);
  }
  engine_free(game);
}

/* ---- 3. Views free of others' secrets ---- */

/* The generator's secret words: the key (the seed), the keystream block it
 * holds, and the words it will give next, each also byte-swapped (a word's
 * bytes in memory order are how a seed printed in hex reads). */
struct secret_words {
  uint32_t word[2 * (8 + 16 + UPCOMING_WORDS)];
  int n;
};

static void add_word(struct secret_words *s, uint32_t word)
{
  uint32_t swapped = word >> 24 | (word >> 8 & 0xff00u) | (word << 8 & 0xff0000u) | word << 24;

  if (word >= SMALLEST_SECRET_WORD)
    s->word[s->n++] = word;
  if (swapped >= SMALLEST_SECRET_WORD)
    s->word[s->n++] = swapped;
}

static void secret_words_of(const struct engine_game *game, struct secret_words *s)
{
  struct engine_rng ahead = game->rng;
  int i;

  s->n = 0;
  for (i = 0; i < 8; i++)
    add_word(s, game->rng.key[i]);
  if (game->rng.cache_block != UINT64_MAX)
    for (i = 0; i < 16; i++)
      add_word(s, game->rng.cache[i]);
  for (i = 0; i < UPCOMING_WORDS; i++)
    add_word(s, engine_rng_next(&ahead));
}

static bool is_secret(const struct secret_words *s, uint64_t value)
{
  int i;

  for (i = 0; i < s->n; i++)
    if (s->word[i] == value)
      return true;
  return false;
}

static int hex_value(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Whether the run of `n` hex digits at `run` spells a secret word: eight
 * hex digits, or five to ten decimal ones. The spelling goes to `found`. */
static bool run_holds_word(const struct secret_words *s, const char *run, size_t n, char found[16])
{
  size_t a, k;

  for (a = 0; a < n; a++) {
    uint64_t hex = 0, decimal = 0;
    bool digits = true;

    for (k = a; k < n && k - a < 10; k++) {
      hex = hex << 4 | (uint64_t)hex_value(run[k]);
      digits = digits && run[k] <= '9';
      decimal = decimal * 10 + (uint64_t)hex_value(run[k]);
      if ((k - a == 7 && is_secret(s, hex)) || (digits && k - a >= 4 && is_secret(s, decimal))) {
        snprintf(found, 16, "%.*s", (int)(k - a + 1), run + a);
        return true;
      }
    }
  }
  return false;
}

/* Whether `text` spells a secret word in hex or decimal (run_holds_word). */
static bool text_holds_word(const struct secret_words *s, const char *text, char found[16])
{
  size_t i = 0, j;

  while (text[i]) {
    for (j = i; text[j] && hex_value(text[j]) >= 0; j++)
      ;
    if (j > i && run_holds_word(s, text + i, j - i, found))
      return true;
    i = text[j] ? j + 1 : j;
  }
  return false;
}

/* Put the text of `fmt` in front of `out`: a path grows this way as a
 * search unwinds, so none is built while nothing is found. */
static void prepend(char *out, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void prepend(char *out, size_t size, const char *fmt, ...)
{
  char head[256], *rest = strdup(out);
  va_list ap;

  assert_non_null(rest);
  va_start(ap, fmt);
  vsnprintf(head, sizeof(head), fmt, ap);
  va_end(ap);
  snprintf(out, size, "%s%s", head, rest);
  free(rest);
}

/* Writes to `out` where below `json` a secret word appears (".seats[1].name
 * holds ..."); false if nowhere. */
static bool find_word(const struct secret_words *s, const json_t *json, char *out, size_t size)
{
  char found[16];
  const char *key;
  json_t *value;
  size_t i;

  if ((json_is_integer(json) || json_is_real(json)) &&
      json_number_value(json) >= SMALLEST_SECRET_WORD &&
      is_secret(s, (uint64_t)json_number_value(json)) &&
      json_number_value(json) == (double)(uint64_t)json_number_value(json)) {
    snprintf(out, size, " holds the generator word %.0f", json_number_value(json));
    return true;
  }
  if (json_is_string(json) && text_holds_word(s, json_string_value(json), found)) {
    snprintf(out, size, " holds the generator word as text %s", found);
    return true;
  }
  json_object_foreach((json_t *)json, key, value)
  {
    if (text_holds_word(s, key, found)) {
      snprintf(out, size, ".%s: the key holds the generator word as text %s", key, found);
      return true;
    }
    if (find_word(s, value, out, size)) {
      prepend(out, size, ".%s", key);
      return true;
    }
  }
  json_array_foreach(json, i, value)
  {
    if (find_word(s, value, out, size)) {
      prepend(out, size, "[%zu]", i);
      return true;
    }
  }
  return false;
}

/* `json` (`what`: where `game`'s generator words must not appear) holds
 * none. */
static void check_no_word(struct playout *p, const struct engine_game *game, const json_t *json,
                          const char *what)
{
  struct secret_words s;
  char where[512];

  secret_words_of(game, &s);
  if (find_word(&s, json, where, sizeof(where)))
    fail_at(&p->at, "%s%s", what, where);
}

/* Moves that stand for `move` as alternatives: the complete legal list, or
 * (when `legal` is compact) distinct sampled moves. New reference. */
static json_t *alternatives(const struct engine_game *game, int seat)
{
  json_t *legal = engine_legal_moves(game, seat), *sampled;
  const json_t *refused;
  uint64_t stream = 0x5eed;
  int i;

  if (count_accepted(game, seat, legal, &refused) == json_array_size(legal))
    return legal;
  json_array_clear(legal);
  for (i = 0; i < SAMPLED_ALTERNATIVES; i++) {
    sampled = engine_sample_move(game, seat, splitmix(&stream));
    if (sampled && !lists(legal, sampled))
      json_array_append(legal, sampled);
    json_decref(sampled);
  }
  return legal;
}

/* Whether a move of `mover` is kept from `viewer` (another seat or the
 * spectator): its events are all hidden from the viewer, or the log keeps
 * the move itself from others because its step is still pending or it has
 * a private event (game/fog.c). What the viewer learns of such a move is
 * the events it is shown, and nothing else. */
static bool kept_from(int viewer, int mover, const struct engine_game *before,
                      const struct engine_game *after, const json_t *events)
{
  const json_t *event;
  size_t i;

  if (viewer == mover || engine_is_over(after))
    return false; /* a finished game shows every event */
  if (after->seq == before->seq || all_hidden_from(events, viewer))
    return true;
  json_array_foreach(events, i, event)
  {
    if (json_object_get(event, "private_to"))
      return true;
  }
  return false;
}

/* New reference: the events of the chosen move each viewer is shown,
 * spectator first, or null for a viewer the move is not kept from. */
static json_t *shown_of_kept(int mover, const struct engine_game *before,
                             const struct engine_game *after, const json_t *events)
{
  json_t *shown = json_array();
  int viewer;

  for (viewer = ENGINE_SPECTATOR; viewer < before->seats; viewer++)
    json_array_append_new(shown, kept_from(viewer, mover, before, after, events)
                                     ? shown_to(events, viewer)
                                     : json_null());
  return shown;
}

/* One alternative `alt` against the chosen `move` (3a): each viewer both
 * are kept from and shown the same events of must see the same face
 * (`faces`, borrowed: every viewer's face after the chosen move). Returns
 * whether the spectator was such a viewer, so the alternative can fork. */
static bool compare_alternative(struct playout *p, const struct engine_game *before, int seat,
                                const json_t *move, const json_t *alt, const json_t *shown,
                                const json_t *faces)
{
  struct engine_game *other = engine_clone(before);
  struct cairn_error err = {0};
  json_t *events = advance(&other, seat, alt, &err);
  char alt_text[200], chosen[200], where[512];
  bool spectator = false;
  int viewer;

  describe(alt, alt_text, sizeof(alt_text));
  if (!events)
    fail_at(&p->at, "the alternative %s was refused: %s", alt_text, err.detail);
  for (viewer = ENGINE_SPECTATOR; viewer < before->seats; viewer++) {
    const json_t *chosen_shown = json_array_get(shown, (size_t)(viewer + 1));
    json_t *alt_shown, *theirs;
    bool same;

    if (json_is_null(chosen_shown) || !kept_from(viewer, seat, before, other, events))
      continue;
    alt_shown = shown_to(events, viewer);
    same = json_equal(alt_shown, chosen_shown);
    json_decref(alt_shown);
    if (!same)
      continue;
    spectator = spectator || viewer == ENGINE_SPECTATOR;
    theirs = face(other, viewer);
    if (first_difference(json_array_get(faces, (size_t)(viewer + 1)), theirs, "face", where,
                         sizeof(where))) {
      describe(move, chosen, sizeof(chosen));
      fail_at(&p->at,
              "viewer %d was shown the same events of %s as of the alternative %s, yet sees "
              "another face: %s",
              viewer, chosen, alt_text, where);
    }
    json_decref(theirs);
  }
  json_decref(events);
  engine_free(other);
  return spectator;
}

/* 3a: when the chosen move is kept from some viewer V (kept_from), every
 * alternative also kept from V that shows V the same events leaves V the
 * same face as the chosen move did (`faces`, borrowed: every viewer's face
 * of `after`). The first such alternative for the spectator is kept as a
 * fork point (3b). */
static void check_alternatives(struct playout *p, const struct engine_game *before, int seat,
                               const json_t *move, const struct engine_game *after,
                               const json_t *events, const json_t *faces)
{
  json_t *shown = shown_of_kept(seat, before, after, events), *alts, *alt;
  bool forked = false, any = false;
  size_t i;

  json_array_foreach(shown, i, alt)
  {
    any = any || !json_is_null(alt);
  }
  if (!any) {
    json_decref(shown);
    return;
  }
  alts = alternatives(before, seat);
  json_array_foreach(alts, i, alt)
  {
    if (json_equal(alt, move))
      continue;
    if (compare_alternative(p, before, seat, move, alt, shown, faces) && !forked) {
      json_array_append_new(p->forks, json_pack("[I, O]", (json_int_t)p->at.step, alt));
      forked = true;
    }
  }
  json_decref(alts);
  json_decref(shown);
}

/* Property 3 on the state after `moves` moves: no face (`faces`, borrowed:
 * every viewer's) holds a word of its generator. The faces are kept as
 * text, p->faces[moves], for the replay to compare (3c). */
static void check_state_keeps_secrets(struct playout *p, const struct engine_game *game,
                                      size_t moves, const json_t *faces)
{
  check_no_word(p, game, faces, "faces");
  p->faces = realloc(p->faces, (moves + 1) * sizeof(*p->faces));
  assert_non_null(p->faces);
  p->faces[moves] = canonical(faces);
}

/* Property 3 on one move: the events hold no word of the generator that
 * drew them, the new state keeps its secrets, a clone of it shows every
 * viewer the same face, and the alternatives give nothing away (3a). */
static void check_move_keeps_secrets(struct playout *p, const struct engine_game *before, int seat,
                                     const json_t *move, const struct engine_game *after,
                                     const json_t *events)
{
  json_t *faces = faces_of(after);
  size_t moves = json_array_size(p->moves) + 1; /* the log does not hold this move yet */

  check_no_word(p, before, events, "events");
  check_state_keeps_secrets(p, after, moves, faces);
  if (moves % FACES_EVERY == FACES_EVERY / 2) { /* the replay checks the others */
    struct engine_game *copy = engine_clone(after);

    check_same_faces(p, p->faces[moves], copy, "a clone");
    engine_free(copy);
  }
  check_alternatives(p, before, seat, move, after, events, faces);
  json_decref(faces);
}

/* The state before move `step` of the playout's log (caller frees). */
static struct engine_game *state_before(const struct playout *p, size_t step)
{
  struct engine_game *game = new_from_seed(p);
  size_t i;

  for (i = 0; i < step; i++) {
    const json_t *entry = json_array_get(p->moves, i);

    json_decref(advance(&game, (int)json_integer_value(json_array_get(entry, 0)),
                        json_array_get(entry, 1), NULL));
  }
  return game;
}

/* Compare two games that have shown the viewers in `same` the same events
 * so far: each such viewer must see the same face in both. */
static void compare_forks(struct playout *p, const struct engine_game *a,
                          const struct engine_game *b, const bool same[], const char *fork)
{
  char where[512];
  int viewer;

  for (viewer = ENGINE_SPECTATOR; viewer < a->seats; viewer++) {
    json_t *fa, *fb;

    if (!same[viewer + 1])
      continue;
    fa = face(a, viewer);
    fb = face(b, viewer);
    if (first_difference(fa, fb, "face", where, sizeof(where)))
      fail_at(&p->at, "viewer %d was shown the same events in a game %s, yet sees another face: %s",
              viewer, fork, where);
    json_decref(fa);
    json_decref(fb);
  }
}

/* Stop comparing a viewer once the two games show it different events. */
static bool still_same(bool same[], int seats, const json_t *ea, const json_t *eb)
{
  bool any = false;
  int viewer;

  for (viewer = ENGINE_SPECTATOR; viewer < seats; viewer++) {
    json_t *sa = shown_to(ea, viewer), *sb = shown_to(eb, viewer);

    same[viewer + 1] = same[viewer + 1] && json_equal(sa, sb);
    any = any || same[viewer + 1];
    json_decref(sa);
    json_decref(sb);
  }
  return any;
}

/* 3b: fork the game at `step` to `alt` (a move whose events, like the
 * chosen one's, the spectator was not shown), replay the rest of the log on
 * both, and check every viewer other than the mover sees the same face for
 * as long as it has been shown the same events; stop when a replayed move
 * does not fit the fork or a game ends (an end shows every event). */
static void check_fork(struct playout *p, size_t step, const json_t *alt)
{
  struct engine_game *a = state_before(p, step), *b = engine_clone(a);
  const json_t *entry = json_array_get(p->moves, step);
  int mover = (int)json_integer_value(json_array_get(entry, 0));
  bool same[ENGINE_MAX_SEATS + 1];
  char fork[500], from[200], to[200];
  size_t i;

  describe(json_array_get(entry, 1), from, sizeof(from));
  describe(alt, to, sizeof(to));
  snprintf(fork, sizeof(fork), "forked at step %zu from %s to %s", step, from, to);
  for (i = 0; i < ENGINE_MAX_SEATS + 1; i++)
    same[i] = (int)i - 1 != mover;
  for (i = step; i < json_array_size(p->moves); i++) {
    int seat = (int)json_integer_value(json_array_get(json_array_get(p->moves, i), 0));
    const json_t *move = json_array_get(json_array_get(p->moves, i), 1);
    json_t *ea = advance(&a, seat, move, NULL);
    json_t *eb = advance(&b, seat, i == step ? alt : move, NULL);
    bool go_on = ea && eb && still_same(same, a->seats, ea, eb);

    p->at.step = (long)i;
    p->at.seat = seat;
    json_decref(ea);
    json_decref(eb);
    if (!go_on || engine_is_over(a) || engine_is_over(b))
      break;
    compare_forks(p, a, b, same, fork);
  }
  engine_free(a);
  engine_free(b);
}

/* Up to FORKS fork points, spread over the playout. */
static void check_forks(struct playout *p)
{
  size_t n = json_array_size(p->forks), k;

  for (k = 0; k < FORKS && k < n; k++) {
    const json_t *fork = json_array_get(p->forks, k * n / FORKS);

    check_fork(p, (size_t)json_integer_value(json_array_get(fork, 0)), json_array_get(fork, 1));
  }
}

/* ---- The tests ---- */

static void playout_ends(struct playout *p)
{
  p->check = check_move_from_legal;
  play_out(p);
  check_end(p);
}

static void replay_equals_live(struct playout *p)
{
  play_out(p);
  check_replay(p, true);
}

static void views_keep_secrets(struct playout *p)
{
  json_t *faces = faces_of(p->game);

  check_state_keeps_secrets(p, p->game, 0, faces);
  json_decref(faces);
  p->check = check_move_keeps_secrets;
  p->forks = json_array();
  play_out(p);
  check_replay(p, false);
  check_forks(p);
}

/* `again` is a second playout of the same title, setting and seed: the
 * same moves, events and states, step by step (the first difference is
 * the one reported). */
static void same_seed_same_game(struct playout *p, struct playout *again)
{
  size_t i, n;

  play_out(p);
  play_out(again);
  n = json_array_size(p->moves) < json_array_size(again->moves) ? json_array_size(p->moves)
                                                                : json_array_size(again->moves);
  for (i = 0; i <= n; i++) {
    again->at.step = (long)i;
    again->at.seat = NO_SEAT;
    if (strcmp(p->states[i], again->states[i]) != 0)
      fail_at(&again->at, "the same seed and choices gave another state before this move");
    if (i == n)
      break;
    again->at.seat = (int)json_integer_value(json_array_get(json_array_get(p->moves, i), 0));
    if (!json_equal(json_array_get(p->moves, i), json_array_get(again->moves, i)))
      fail_at(&again->at, "the same seed and choices gave another move");
    if (!json_equal(json_array_get(p->events, i), json_array_get(again->events, i)))
      fail_at(&again->at, "the same seed and choices gave other events");
  }
  if (json_array_size(p->moves) != json_array_size(again->moves))
    fail_at(&again->at, "the same seed and choices gave a game of %zu moves, then one of %zu",
            json_array_size(p->moves), json_array_size(again->moves));
}

static void run_playout(const struct title_test *t, const struct setting *s, uint64_t seed)
{
  struct playout p, again;

  start(&p, t, s, seed);
  switch (t->property) {
  case PLAYOUTS_END:
    playout_ends(&p);
    break;
  case REPLAY_EQUALS_LIVE:
    replay_equals_live(&p);
    break;
  case VIEWS_KEEP_SECRETS:
    views_keep_secrets(&p);
    break;
  case SAME_SEED_SAME_GAME:
    start(&again, t, s, seed);
    same_seed_same_game(&p, &again);
    finish(&again);
    break;
  case REPLAY_STEP_EQUALS_APPLY:
    play_out(&p);
    check_replay_step(&p, false);
    check_replay_step(&p, true);
    break;
  case PROPERTIES:
    fail_msg("not a property");
  }
  finish(&p);
}

static void test_title(void **state)
{
  const struct title_test *t = *state;
  struct settings settings;
  int i, k, per_setting;

  settings_of(t->module, &settings);
  /* At least one playout a setting, PLAYOUTS a title at the least, so a
   * title with a single setting is not played once only. */
  per_setting = (PLAYOUTS + settings.n - 1) / settings.n;
  for (i = 0; i < settings.n; i++)
    for (k = 0; k < per_setting; k++)
      run_playout(t, &settings.items[i],
                  (uint64_t)t->property << 32 | (uint64_t)(i + 1) << 16 | (uint64_t)k);
  free_settings(&settings);
  check_expected_failures_happened(t->module, t->property);
}

/* Every title the suite walks is one the server would accept. */
static void test_registered_titles_pass_the_module_check(void **state)
{
  struct cairn_error err = {0};

  (void)state;
  assert_non_null(engine_modules()[0]);
  if (engine_registry_check(&err) != CAIRN_OK)
    fail_msg("%s", err.detail);
}

int main(void)
{
  const struct engine_module *const *m = engine_modules();
  size_t titles = 0, n = 0, i;
  struct title_test *cases;
  struct CMUnitTest *tests;
  int p, failed;

  while (m[titles])
    titles++;
  cases = calloc(titles * PROPERTIES, sizeof(*cases));
  tests = calloc(titles * PROPERTIES + 1, sizeof(*tests));
  assert_non_null(cases);
  assert_non_null(tests);
  tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_registered_titles_pass_the_module_check);
  for (i = 0; i < titles; i++)
    for (p = PLAYOUTS_END; p < PROPERTIES; p++) {
      struct title_test *c = &cases[i * PROPERTIES + (size_t)p];

      c->module = m[i];
      c->property = (enum property)p;
      snprintf(c->name, sizeof(c->name), "%s: %s", m[i]->id, property_names[p]);
      tests[n++] =
          (struct CMUnitTest){.name = c->name, .test_func = test_title, .initial_state = c};
    }
  failed = order_run_group("titles", tests, n, NULL, NULL);
  free(tests);
  free(cases);
  return failed;
}
