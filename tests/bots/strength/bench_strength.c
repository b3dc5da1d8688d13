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
 * Games: CAIRN_BOTS_GAMES per two-sided line (default 40: at 20 a line,
 * 15 and 17 wins gave intervals of 53-89% and 64-95%, too wide to say
 * whether a bot met the 90% mark) and
 * CAIRN_BOTS_SOLO_GAMES per solo line and level (default 8: a solo game is
 * the longest, every decision of it a search at its level), so the whole
 * runs in about twenty minutes on two quiet cores; more games narrow the
 * intervals. CAIRN_BOTS_LINES, when set, runs only the lines whose name
 * contains one of its comma-separated words (himalaya, everest, 1963,
 * dream-teams, journey, 1924, 1953; climbers or mountain: one side of
 * Journey). The lines run on CAIRN_BOTS_THREADS threads (default 2: the
 * engine and the bots share nothing) and print in their order. Every
 * choice is seeded from the game number, so a build prints the same counts
 * each run; only the times vary. CAIRN_BOTS_TRACE=1 prints a line a game
 * on stderr (=moves: every move too).
 */
#include <jansson.h>
#include <math.h>
#include <pthread.h>
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

/* One line of the report: what it plays, and what it found. */
struct line {
  const char *name; /* what CAIRN_BOTS_LINES matches */
  void (*run)(struct line *l);
  int games;
  struct timing t; /* its decisions' times */
  char out[1024];  /* its report, printed in order once every line ran */
  size_t len;
};

/* Append "label k/n = p% 95% CI [low, high]" (Wilson) to the line's report. */
static void report_rate(struct line *l, const char *label, int k, int n, int unfinished)
{
  double z = 1.96, p = n ? (double)k / n : 0, d = 1 + z * z / n;
  double centre = (p + z * z / (2.0 * n)) / d;
  double half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
  double low = centre - half < 0 ? 0 : centre - half, high = centre + half > 1 ? 1 : centre + half;
  int n_out = snprintf(l->out + l->len, sizeof(l->out) - l->len,
                       "%-66s %4d/%-4d = %5.1f%%  95%% CI [%5.1f%%, %5.1f%%]%s\n", label, k, n,
                       100 * p, 100 * low, 100 * high, unfinished ? "  (some unfinished)" : "");

  if (n_out > 0 && (size_t)n_out < sizeof(l->out) - l->len)
    l->len += (size_t)n_out;
}

/* Strong against random in a two-seat game, sides alternated. */
static void head_to_head(struct line *l, const char *title, const char *options)
{
  int g, wins = 0, unfinished = 0;
  char label[128];

  for (g = 0; g < l->games; g++) {
    int strong = g % 2;
    enum bot_level levels[ENGINE_MAX_SEATS] = {BOT_RANDOM, BOT_RANDOM};
    json_t *result;

    levels[strong] = BOT_STRONG;
    result = play(title, 2, options, levels, g, &l->t);
    unfinished += !result;
    wins += result && won(result, strong);
    json_decref(result);
  }
  snprintf(label, sizeof label, "%s%s%s: strong beats random", title, options ? " " : "",
           options ? options : "");
  report_rate(l, label, wins, l->games, unfinished);
}

static void himalaya(struct line *l)
{
  head_to_head(l, "himalaya", NULL);
}

static void everest(struct line *l)
{
  head_to_head(l, "everest-piecepack", NULL);
}

static void bit_1963(struct line *l)
{
  head_to_head(l, "because-its-there", "{\"scenario\": \"1963\"}");
}

/* Dream Teams scores VP (a Climber that reached the Summit and lives), so
 * a side that summits wins where 1963's failures are draws. */
static void bit_dream(struct line *l)
{
  head_to_head(l, "because-its-there", "{\"scenario\": \"dream-teams\"}");
}

/* Journey: the strong bot plays both climbers (side 0), or the Mountain. */
static void journey(struct line *l, int side)
{
  int wins = 0, unfinished = 0, g;

  for (g = 0; g < l->games; g++) {
    enum bot_level levels[ENGINE_MAX_SEATS] = {BOT_RANDOM, BOT_RANDOM, BOT_RANDOM};
    json_t *result;

    if (side == 0)
      levels[0] = levels[1] = BOT_STRONG;
    else
      levels[2] = BOT_STRONG;
    result = play("journey-to-the-top", 3, NULL, levels, g, &l->t);
    unfinished += !result;
    wins += result && won(result, side == 0 ? 0 : 2);
    json_decref(result);
  }
  report_rate(l,
              side == 0 ? "journey-to-the-top: strong climbers beat a random Mountain"
                        : "journey-to-the-top: a strong Mountain beats random climbers",
              wins, l->games, unfinished);
}

static void journey_climbers(struct line *l)
{
  journey(l, 0);
}

static void journey_mountain(struct line *l)
{
  journey(l, 1);
}

/* Because It's There solo: the scenario's objective met, per level. */
static void solo(struct line *l, const char *scenario)
{
  char options[64], label[128];
  int level, g;

  snprintf(options, sizeof options, "{\"scenario\": \"%s\"}", scenario);
  for (level = 0; level < BOT_LEVELS; level++) {
    int wins = 0, unfinished = 0;

    for (g = 0; g < l->games; g++) {
      enum bot_level levels[ENGINE_MAX_SEATS] = {(enum bot_level)level};
      json_t *result = play("because-its-there", 1, options, levels, g, &l->t);

      unfinished += !result;
      wins += result && won(result, 0);
      json_decref(result);
    }
    snprintf(label, sizeof label, "because-its-there %s solo, %s: success", scenario,
             bot_level_name((enum bot_level)level));
    report_rate(l, label, wins, l->games, unfinished);
  }
}

static void bit_1924(struct line *l)
{
  solo(l, "1924");
}

static void bit_1953(struct line *l)
{
  solo(l, "1953");
}

/* Whether the line named `name` runs (CAIRN_BOTS_LINES: comma-separated
 * words, one of which the name contains). */
static bool wanted(const char *name)
{
  const char *only = getenv("CAIRN_BOTS_LINES");
  char words[256], *word, *rest = NULL;

  if (!only)
    return true;
  snprintf(words, sizeof words, "%s", only);
  for (word = strtok_r(words, ",", &rest); word; word = strtok_r(NULL, ",", &rest))
    if (*word && strstr(name, word))
      return true;
  return false;
}

/* The lines a worker takes one at a time, the longest first. */
struct queue {
  pthread_mutex_t mutex;
  struct line *lines;
  size_t n, next;
};

static void *worker(void *arg)
{
  struct queue *q = arg;

  for (;;) {
    struct line *l = NULL;

    pthread_mutex_lock(&q->mutex);
    while (q->next < q->n && !l) {
      struct line *candidate = &q->lines[q->next++];

      if (wanted(candidate->name))
        l = candidate;
    }
    pthread_mutex_unlock(&q->mutex);
    if (!l)
      return NULL;
    l->run(l);
  }
}

static int env_int(const char *name, int fallback, int least)
{
  const char *text = getenv(name);
  int value = text ? atoi(text) : fallback;

  return value < least ? least : value;
}

int main(void)
{
  int games = env_int("CAIRN_BOTS_GAMES", 40, 2),
      solo_games = env_int("CAIRN_BOTS_SOLO_GAMES", 8, 2);
  int threads = env_int("CAIRN_BOTS_THREADS", 2, 1), level, i;
  /* In the report's order; a worker takes the next one left. */
  struct line lines[] = {
      {.name = "because-its-there 1953 solo", .run = bit_1953, .games = solo_games},
      {.name = "because-its-there 1924 solo", .run = bit_1924, .games = solo_games},
      {.name = "because-its-there 1963", .run = bit_1963, .games = games},
      {.name = "because-its-there dream-teams", .run = bit_dream, .games = games},
      {.name = "journey-to-the-top mountain", .run = journey_mountain, .games = games},
      {.name = "journey-to-the-top climbers", .run = journey_climbers, .games = games},
      {.name = "everest-piecepack", .run = everest, .games = games},
      {.name = "himalaya", .run = himalaya, .games = games},
  };
  struct queue q = {.lines = lines, .n = sizeof(lines) / sizeof(lines[0])};
  pthread_t workers[16];
  struct timing total = {{0}, {0}};

  if (threads > 16)
    threads = 16;
  printf("bots: %d games a two-sided line, %d a solo line and level; easy %d, strong %d "
         "iterations a decision (twice that for a title with a rule of thumb); %d threads\n",
         games, solo_games, BOT_EASY_ITERATIONS, BOT_STRONG_ITERATIONS, threads);
  fflush(stdout);
  pthread_mutex_init(&q.mutex, NULL);
  for (i = 0; i < threads; i++)
    pthread_create(&workers[i], NULL, worker, &q);
  for (i = 0; i < threads; i++)
    pthread_join(workers[i], NULL);
  pthread_mutex_destroy(&q.mutex);
  for (i = (int)q.n - 1; i >= 0; i--) /* the titles first, the solo lines last */
    if (lines[i].len)
      fputs(lines[i].out, stdout);
  for (i = 0; i < (int)q.n; i++)
    for (level = 0; level < BOT_LEVELS; level++) {
      total.seconds[level] += lines[i].t.seconds[level];
      total.decisions[level] += lines[i].t.decisions[level];
    }
  for (level = 0; level < BOT_LEVELS; level++)
    printf("time per decision, %-6s: %8.3f ms over %ld decisions\n",
           bot_level_name((enum bot_level)level),
           total.decisions[level] ? 1000 * total.seconds[level] / total.decisions[level] : 0.0,
           total.decisions[level]);
  return 0;
}
