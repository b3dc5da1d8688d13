/*
 * bench_strength.c - how well the built-in bots play (`make bots`, issue
 * 26; not part of `make test` or `make bench`: it plays thousands of
 * searching decisions). For each title, games in its two-sided setting
 * with the strong bot on one side and the random bot on the other (sides
 * alternated), Because It's There's solo scenarios at every level, and
 * Journey with the strong bot as the climbers and as the Mountain. Each
 * rate is printed with its 95% Wilson interval; the time per decision per
 * level is wall time on this machine (noisy when it is shared), beside
 * the search's fixed iteration budgets.
 *
 * Games: CAIRN_BOTS_GAMES per line (default 40); CAIRN_BOTS_LINES, when
 * set, runs only the lines whose title contains it (himalaya, everest,
 * 1963, journey, 1924, 1953), so lines can run side by side. Every choice
 * is seeded from the game number, so a build prints the same counts each
 * run.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/bots.h"
#include "engine/engine.h"

#define DECISIONS_MAX 20000 /* a game longer than this is reported stuck */

struct timing {
  double seconds[BOT_LEVELS];
  long decisions[BOT_LEVELS];
};

static double now_s(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The bot's seed for one decision: the game number, step and seat. */
static void decision_seed(int game_no, uint32_t step, int seat, uint8_t seed[ENGINE_SEED_BYTES])
{
  memset(seed, 0, ENGINE_SEED_BYTES);
  memcpy(seed, &game_no, sizeof(game_no));
  memcpy(seed + 8, &step, sizeof(step));
  seed[16] = (uint8_t)seat;
  seed[17] = 0xb0;
}

/* With CAIRN_BOTS_TRACE set, one line a game on stderr: its number, the
 * turn it reached, its result and each seat's measure at the end (the
 * title's bot_evaluate on the finished game; a bench may look at the whole
 * state, a bot never does), to see how far the lines that failed got. */
static void trace(const char *title, const struct engine_game *game,
                  const enum bot_level levels[ENGINE_MAX_SEATS], int game_no)
{
  json_t *result;
  char *text;
  double measure;
  int s;

  if (!getenv("CAIRN_BOTS_TRACE"))
    return;
  result = engine_result(game);
  text = result ? json_dumps(result, JSON_COMPACT) : NULL;
  fprintf(stderr, "%s game %d: %s", title, game_no, text ? text : "unfinished");
  for (s = 0; s < game->seats; s++)
    if (engine_bot_evaluate(game, s, &measure))
      fprintf(stderr, " seat %d (%s) %.3f", s, bot_level_name(levels[s]), measure);
  fputc('\n', stderr);
  free(text);
  json_decref(result);
}

/* Play one game with levels[seat] at each seat; the result (a new
 * reference), or NULL when it did not finish. */
static json_t *play(const char *title, int seats, const char *options_text,
                    const enum bot_level levels[ENGINE_MAX_SEATS], int game_no, struct timing *t)
{
  const struct engine_module *m = engine_find(title);
  json_t *options = options_text ? json_loads(options_text, 0, NULL) : NULL;
  struct engine_setup setup = {.seats = seats, .options = options};
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  struct engine_game *game = NULL;
  struct cairn_error err = {0};
  json_t *result = NULL;
  int to_act[ENGINE_MAX_SEATS], n;
  uint32_t step;

  memcpy(seed, &game_no, sizeof(game_no));
  seed[31] = 0x5e;
  if (engine_new(m, &setup, seed, &game, &err) != CAIRN_OK) {
    fprintf(stderr, "%s: %s\n", title, err.detail);
    exit(1);
  }
  for (step = 0; step < DECISIONS_MAX && (n = engine_to_act(game, to_act)) > 0; step++) {
    int seat = to_act[0];
    enum bot_level level = levels[seat];
    json_t *move = NULL;
    double start = now_s();

    decision_seed(game_no, step, seat, seed);
    if (bot_choose(game, seat, options, seed, level, &move, &err) != CAIRN_OK ||
        engine_replay_step(game, seat, move, &err) != CAIRN_OK) {
      /* As the server does: a refused decision plays at random. */
      json_decref(move);
      move = engine_sample_move(game, seat, (uint64_t)game_no * 7919u + step);
      if (engine_replay_step(game, seat, move, &err) != CAIRN_OK) {
        json_decref(move);
        break;
      }
    }
    if (getenv("CAIRN_BOTS_TRACE") && strcmp(getenv("CAIRN_BOTS_TRACE"), "moves") == 0) {
      char *text = json_dumps(move, JSON_COMPACT);

      fprintf(stderr, "  step %u seat %d (%s): %s\n", step, seat, bot_level_name(level), text);
      free(text);
    }
    t->seconds[level] += now_s() - start;
    t->decisions[level]++;
    json_decref(move);
  }
  result = engine_result(game);
  trace(title, game, levels, game_no);
  engine_free(game);
  json_decref(options);
  return result;
}

static bool won(const json_t *result, int seat)
{
  const json_t *winners = json_object_get(result, "winners");
  size_t i;

  for (i = 0; i < json_array_size(winners); i++)
    if (json_integer_value(json_array_get(winners, i)) == seat)
      return true;
  return false;
}

/* The 95% Wilson interval of k successes in n. */
static void print_rate(const char *label, int k, int n, int unfinished)
{
  double z = 1.96, p = n ? (double)k / n : 0, d = 1 + z * z / n;
  double centre = (p + z * z / (2.0 * n)) / d;
  double half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;

  double low = centre - half < 0 ? 0 : centre - half, high = centre + half > 1 ? 1 : centre + half;

  printf("%-58s %4d/%-4d = %5.1f%%  95%% CI [%5.1f%%, %5.1f%%]%s\n", label, k, n, 100 * p,
         100 * low, 100 * high, unfinished ? "  (some unfinished)" : "");
  fflush(stdout);
}

/* Strong against random in a two-seat game, sides alternated. */
static void head_to_head(const char *title, const char *options, int games, struct timing *t)
{
  int g, wins = 0, unfinished = 0;
  char label[128];

  for (g = 0; g < games; g++) {
    int strong = g % 2;
    enum bot_level levels[ENGINE_MAX_SEATS] = {BOT_RANDOM, BOT_RANDOM};
    json_t *result;

    levels[strong] = BOT_STRONG;
    result = play(title, 2, options, levels, g, t);
    unfinished += !result;
    wins += result && won(result, strong);
    json_decref(result);
  }
  snprintf(label, sizeof label, "%s%s%s: strong beats random", title, options ? " " : "",
           options ? options : "");
  print_rate(label, wins, games, unfinished);
}

/* Journey: the strong bot plays both climbers, or the Mountain. */
static void journey(int games, struct timing *t)
{
  int side, g;

  for (side = 0; side < 2; side++) {
    int wins = 0, unfinished = 0;

    for (g = 0; g < games; g++) {
      enum bot_level levels[ENGINE_MAX_SEATS] = {BOT_RANDOM, BOT_RANDOM, BOT_RANDOM};
      json_t *result;

      if (side == 0)
        levels[0] = levels[1] = BOT_STRONG;
      else
        levels[2] = BOT_STRONG;
      result = play("journey-to-the-top", 3, NULL, levels, g, t);
      unfinished += !result;
      wins += result && won(result, side == 0 ? 0 : 2);
      json_decref(result);
    }
    print_rate(side == 0 ? "journey-to-the-top: strong climbers beat a random Mountain"
                         : "journey-to-the-top: a strong Mountain beats random climbers",
               wins, games, unfinished);
  }
}

/* Because It's There solo: the scenario's objective met, per level. */
static void solo(const char *scenario, int games, struct timing *t)
{
  char options[64], label[128];
  int level, g;

  snprintf(options, sizeof options, "{\"scenario\": \"%s\"}", scenario);
  for (level = 0; level < BOT_LEVELS; level++) {
    int wins = 0, unfinished = 0;

    for (g = 0; g < games; g++) {
      enum bot_level levels[ENGINE_MAX_SEATS] = {(enum bot_level)level};
      json_t *result = play("because-its-there", 1, options, levels, g, t);

      unfinished += !result;
      wins += result && won(result, 0);
      json_decref(result);
    }
    snprintf(label, sizeof label, "because-its-there %s solo, %s: success", scenario,
             bot_level_name((enum bot_level)level));
    print_rate(label, wins, games, unfinished);
  }
}

/* Whether the line named `name` runs (CAIRN_BOTS_LINES). */
static bool wanted(const char *name)
{
  const char *only = getenv("CAIRN_BOTS_LINES");

  return !only || strstr(name, only) != NULL;
}

int main(void)
{
  const char *env = getenv("CAIRN_BOTS_GAMES");
  int games = env ? atoi(env) : 40, level;
  struct timing t = {{0}, {0}};

  if (games < 2)
    games = 2;
  printf("bots: %d games a line; easy %d, strong %d iterations a decision\n", games,
         BOT_EASY_ITERATIONS, BOT_STRONG_ITERATIONS);
  if (wanted("himalaya"))
    head_to_head("himalaya", NULL, games, &t);
  if (wanted("everest"))
    head_to_head("everest-piecepack", NULL, games, &t);
  if (wanted("1963"))
    head_to_head("because-its-there", "{\"scenario\": \"1963\"}", games, &t);
  if (wanted("journey"))
    journey(games, &t);
  if (wanted("1924"))
    solo("1924", games, &t);
  if (wanted("1953"))
    solo("1953", games, &t);
  for (level = 0; level < BOT_LEVELS; level++)
    printf("time per decision, %-6s: %8.3f ms over %ld decisions\n",
           bot_level_name((enum bot_level)level),
           t.decisions[level] ? 1000 * t.seconds[level] / t.decisions[level] : 0.0,
           t.decisions[level]);
  return 0;
}
