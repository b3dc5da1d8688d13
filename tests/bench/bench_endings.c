/*
 * bench_endings.c - how games end: 10,000 random playouts per title, spread
 * over every setting the title offers (each seat count, and each value of
 * an enumerated option such as a scenario), reporting for each setting how
 * many games reached each end (the result's "reason"), how many had no
 * winner, the wins by seat and the game lengths.
 *
 * A game that never ends is a defect, not a figure: a playout that reaches
 * MOVE_CAP moves, finds nobody to act in a running game, gets no move from
 * sample_move or has its sampled move refused is counted as stuck, and the
 * bench exits 1 after printing everything. Nothing here asserts a time.
 *
 * Moves come from engine_sample_move (the title's own sampler, as bots and
 * the other benches use), choices from a fixed xorshift: the same build
 * prints the same counts.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "tests/bench/figures.h"

#define GAMES_PER_TITLE 10000
#define MOVE_CAP        100000
#define MAX_REASONS     16
#define MAX_SETTINGS    64

/* The bench's own choices (which seat of several, which move), not the
 * game's randomness. */
struct chooser {
  uint64_t state;
};

static uint64_t choose(struct chooser *c)
{
  c->state ^= c->state << 13;
  c->state ^= c->state >> 7;
  c->state ^= c->state << 17;
  return c->state;
}

static double now_s(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One playable setting of a title: a seat count and options. */
struct setting {
  int seats;
  json_t *options; /* Owned */
};

/* What the playouts of one setting came to. */
struct tally {
  int games, stuck, no_winner;
  long moves, longest;
  int wins[ENGINE_MAX_SEATS];
  int reasons;
  char reason[MAX_REASONS][48];
  int reason_games[MAX_REASONS];
  char first_stuck[160];
};

static void count_reason(struct tally *t, const char *reason)
{
  int i;

  for (i = 0; i < t->reasons; i++)
    if (strcmp(t->reason[i], reason) == 0)
      break;
  if (i == t->reasons) {
    if (t->reasons == MAX_REASONS)
      i = MAX_REASONS - 1; /* folded into the last slot; never seen so far */
    else
      snprintf(t->reason[t->reasons++], sizeof(t->reason[0]), "%s", reason);
  }
  t->reason_games[i]++;
}

static void note_stuck(struct tally *t, int game, long moves, const char *why)
{
  t->stuck++;
  if (!t->first_stuck[0])
    snprintf(t->first_stuck, sizeof(t->first_stuck), "game %d stuck after %ld moves: %s", game,
             moves, why);
}

static void count_result(struct tally *t, const struct engine_game *g)
{
  json_t *result = engine_result(g);
  json_t *winners = json_object_get(result, "winners"), *w;
  const char *reason = json_string_value(json_object_get(result, "reason"));
  size_t i;

  count_reason(t, reason ? reason : "(no reason given)");
  if (json_array_size(winners) == 0)
    t->no_winner++;
  json_array_foreach(winners, i, w)
  {
    json_int_t seat = json_integer_value(w);

    if (seat >= 0 && seat < ENGINE_MAX_SEATS)
      t->wins[seat]++;
  }
  json_decref(result);
}

/* Play one game of `s` to its end (or until it is found stuck). */
static void playout(const struct engine_module *m, const struct setting *s, int game,
                    struct chooser *c, struct tally *t)
{
  struct engine_setup setup = {.seats = s->seats, .options = s->options};
  struct engine_game *g = NULL;
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  long moves = 0;

  memcpy(seed, &game, sizeof(game));
  seed[30] = (uint8_t)s->seats;
  seed[31] = 0xe7; /* other seeds than bench_engine's */
  if (engine_new(m, &setup, seed, &g, NULL) != CAIRN_OK) {
    note_stuck(t, game, 0, "the setting was refused at creation");
    return;
  }
  while (!engine_is_over(g)) {
    int to_act[ENGINE_MAX_SEATS], n = engine_to_act(g, to_act), seat;
    struct engine_game *next = NULL;
    json_t *move, *events = NULL;
    struct cairn_error err = {0};

    if (moves >= MOVE_CAP) {
      note_stuck(t, game, moves, "the move cap was reached");
      break;
    }
    if (n <= 0) {
      note_stuck(t, game, moves, "nobody may act in a running game");
      break;
    }
    seat = to_act[choose(c) % (uint64_t)n];
    move = engine_sample_move(g, seat, choose(c));
    if (!move) {
      note_stuck(t, game, moves, "sample_move gave no move to a seat that must act");
      break;
    }
    if (engine_apply(g, seat, move, &next, &events, &err) != CAIRN_OK) {
      note_stuck(t, game, moves, "a sampled move was refused");
      json_decref(move);
      break;
    }
    json_decref(move);
    json_decref(events);
    engine_free(g);
    g = next;
    moves++;
  }
  if (engine_is_over(g))
    count_result(t, g);
  t->games++;
  t->moves += moves;
  if (moves > t->longest)
    t->longest = moves;
  engine_free(g);
}

/* Every setting of `m` that engine_new accepts: each seat count times each
 * combination of its enumerated options' values (other options keep their
 * defaults: an opt-in end such as a round cap stays off). Returns how many. */
static int settings_of(const struct engine_module *m, struct setting out[MAX_SETTINGS])
{
  json_t *schema = json_loads(m->options_json ? m->options_json : "{}", 0, NULL);
  json_t *combos = json_array(), *spec;
  const char *key;
  int seats, n = 0;
  size_t i;

  json_array_append_new(combos, json_object());
  json_object_foreach(schema, key, spec)
  {
    json_t *values = json_object_get(spec, "values"), *grown = json_array(), *combo, *v;
    size_t j;

    if (!json_is_array(values)) {
      json_decref(grown);
      continue;
    }
    json_array_foreach(combos, i, combo) json_array_foreach(values, j, v)
    {
      json_t *next = json_deep_copy(combo);

      json_object_set(next, key, v);
      json_array_append_new(grown, next);
    }
    json_decref(combos);
    combos = grown;
  }
  for (seats = m->min_seats; seats <= m->max_seats; seats++) {
    json_t *combo;

    json_array_foreach(combos, i, combo)
    {
      struct engine_setup setup = {.seats = seats, .options = combo};
      struct engine_game *g = NULL;
      uint8_t seed[ENGINE_SEED_BYTES] = {0};

      if (n == MAX_SETTINGS || engine_new(m, &setup, seed, &g, NULL) != CAIRN_OK)
        continue;
      engine_free(g);
      out[n].seats = seats;
      out[n++].options = json_incref(combo);
    }
  }
  json_decref(combos);
  json_decref(schema);
  return n;
}

/* A key part for options' compact text: {"scenario":"1924"} becomes
 * scenario=1924, {} becomes default (letters, digits, '-', '=', '+'). */
static void options_key(const char *text, char *key, size_t size)
{
  size_t n = 0;

  for (; text && *text && n + 1 < size; text++) {
    char c = *text;

    if (c == ':')
      key[n++] = '=';
    else if (c == ',')
      key[n++] = '+';
    else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '-' || c == '_')
      key[n++] = c;
  }
  key[n] = '\0';
  if (n == 0)
    snprintf(key, size, "default");
}

static void print_tally(const struct engine_module *m, const struct setting *s,
                        const struct tally *t, double seconds)
{
  char key[96];

  char *options = json_dumps(s->options, JSON_COMPACT | JSON_SORT_KEYS);
  int i;

  printf("%-18s %d seat%s %-26s %5d games, %6.1f moves/game (longest %ld), %.0f games/s\n", m->id,
         s->seats, s->seats == 1 ? " " : "s", options ? options : "?", t->games,
         t->games ? (double)t->moves / t->games : 0.0, t->longest, t->games / seconds);
  printf("    ends:");
  for (i = 0; i < t->reasons; i++)
    printf(" %s %d (%.1f%%)%s", t->reason[i], t->reason_games[i],
           100.0 * t->reason_games[i] / t->games, i + 1 < t->reasons ? ";" : "");
  printf("\n    no winner %d (%.1f%%); wins by seat:", t->no_winner,
         100.0 * t->no_winner / t->games);
  for (i = 0; i < s->seats; i++)
    printf(" %d", t->wins[i]);
  printf("; stuck %d\n", t->stuck);
  if (t->stuck)
    printf("    STUCK: %s\n", t->first_stuck);
  options_key(options, key, sizeof key);
  figure(FIGURE_HIGHER, t->games / seconds, "endings.%s.%d.%s.games_per_s", m->id, s->seats, key);
  free(options);
}

/* All settings of one title, GAMES_PER_TITLE games between them. Returns
 * the stuck games. */
static int bench_title(const struct engine_module *m)
{
  struct setting settings[MAX_SETTINGS];
  int n = settings_of(m, settings), i, stuck = 0;

  for (i = 0; i < n; i++) {
    struct tally t = {0};
    struct chooser c = {.state = 0x9e3779b97f4a7c15ull ^ (uint64_t)(i + 1)};
    int games = GAMES_PER_TITLE / n + (i < GAMES_PER_TITLE % n), game;
    double t0 = now_s();

    for (game = 0; game < games; game++)
      playout(m, &settings[i], game, &c, &t);
    print_tally(m, &settings[i], &t, now_s() - t0);
    stuck += t.stuck;
    json_decref(settings[i].options);
  }
  return stuck;
}

int main(void)
{
  const struct engine_module *const *m;
  int stuck = 0;

  printf("How random games end: %d playouts per title over its settings (moves from "
         "sample_move)\n",
         GAMES_PER_TITLE);
  for (m = engine_modules(); *m; m++)
    stuck += bench_title(*m);
  if (stuck)
    printf("FAILED: %d games never reached an end of the rules\n", stuck);
  return stuck ? 1 : 0;
}
