/*
 * legal.c - what a seat may submit now (`legal`) and a pick among it
 * (`sample_move`). Plans are too many to list (up to 6*5*4 coin orders times
 * 2^3 faces times 4^3 directions = 61440), so planning is described by one
 * compact "plan-options" object (README.md, openapi.yaml); home bases,
 * conflict orders and end-of-round choices are listed in full.
 *
 * sample_move is the server's random player (bots, timed-out seats,
 * playouts). A uniform pick among plans never wins: measured over 100
 * two-seat games of 5,000 rounds, 7 ended, because a yeti walking at random
 * spends 95% of its time on the bottom ring (README.md "sample_move"). So
 * it plays like a beginner who knows the aim: it draws a few plans at
 * random and keeps the one that, tried alone on the current board, leaves
 * its yeti nearest the peak and its rivals off it.
 */
#include "engine/everest/state.h"

#include <string.h>

static bool may_act(const struct everest_state *st, int seat)
{
  if (seat < 0 || seat >= st->head.seats)
    return false;
  if (st->phase == EVEREST_PHASE_ORDER)
    return seat == st->chooser;
  if (st->phase == EVEREST_PHASE_BASE)
    return seat == everest_base_chooser(st);
  return everest_owes_plan(st, seat) || everest_owes_heal(st, seat);
}

static int plan_length(const struct everest_state *st, int seat)
{
  int n = everest_available(st, seat);

  return n < EVEREST_PLAN_LEN ? n : EVEREST_PLAN_LEN;
}

/* The one compact description of every plan (README.md, openapi.yaml). */
static void write_plan_options(struct json_writer *w, const struct everest_state *st, int seat)
{
  int dir;

  jw_object_begin(w);
  jw_key_string(w, "type", "plan-options");
  jw_key(w, "coins");
  everest_write_coins(w, ((1u << EVEREST_COINS) - 1) & ~st->seat[seat].aside);
  jw_key_int(w, "length", plan_length(st, seat));
  jw_key(w, "faces");
  jw_array_begin(w);
  jw_string(w, "value");
  jw_string(w, "suit");
  jw_array_end(w);
  jw_key(w, "directions");
  jw_array_begin(w);
  for (dir = 0; dir < EVEREST_DIRS; dir++)
    jw_string(w, everest_dir_name(dir));
  jw_array_end(w);
  jw_object_end(w);
}

static int bits(unsigned mask)
{
  int n = 0;

  for (; mask; mask &= mask - 1)
    n++;
  return n;
}

/* Every end-of-round choice: heal (unless the yeti left the board this
 * round), or set aside exactly `damage` of the available coins. */
static void write_heal_moves(struct json_writer *w, const struct everest_state *st, int seat)
{
  const struct everest_seat *p = &st->seat[seat];
  unsigned mask;

  jw_array_begin(w);
  if (!st->yeti[seat].left_board) {
    jw_object_begin(w);
    jw_key_string(w, "type", "heal");
    jw_key_bool(w, "heal", true);
    jw_object_end(w);
  }
  for (mask = 0; mask < (1u << EVEREST_COINS); mask++)
    if (!(mask & p->aside) && bits(mask) == st->yeti[seat].damage) {
      jw_object_begin(w);
      jw_key_string(w, "type", "heal");
      jw_key_bool(w, "heal", false);
      jw_key(w, "set_aside");
      everest_write_coins(w, mask);
      jw_object_end(w);
    }
  jw_array_end(w);
}

/* Every free inside corner, in corner order (NW, NE, SE, SW). */
static void write_base_moves(struct json_writer *w, const struct everest_state *st)
{
  int corner;

  jw_array_begin(w);
  for (corner = 0; corner < EVEREST_CORNERS; corner++)
    if (everest_corner_free(st, corner)) {
      jw_object_begin(w);
      jw_key_string(w, "type", "base");
      jw_key(w, "base");
      everest_write_cell(w, everest_corner(corner));
      jw_object_end(w);
    }
  jw_array_end(w);
}

void everest_write_legal(const struct engine_game *game, int seat, struct json_writer *w)
{
  const struct everest_state *st = (const struct everest_state *)game;

  if (!may_act(st, seat)) {
    jw_array_begin(w);
    jw_array_end(w);
  } else if (st->phase == EVEREST_PHASE_BASE) {
    write_base_moves(w, st);
  } else if (st->phase == EVEREST_PHASE_PLAN) {
    jw_array_begin(w);
    write_plan_options(w, st, seat);
    jw_array_end(w);
  } else if (st->phase == EVEREST_PHASE_ORDER) {
    everest_write_order_moves(st, w);
  } else {
    write_heal_moves(w, st, seat);
  }
}

/* The nodes' pointers, by step: named from a table, not formatted, since a
 * plan's tree has dozens of nodes (issue 22). */
_Static_assert(EVEREST_PLAN_LEN == 3, "a pointer table names each step of a plan");
static const char *const coin_pointers[EVEREST_PLAN_LEN] = {"/plan/0/coin", "/plan/1/coin",
                                                            "/plan/2/coin"};
static const char *const face_pointers[EVEREST_PLAN_LEN] = {"/plan/0/face", "/plan/1/face",
                                                            "/plan/2/face"};
static const char *const dir_pointers[EVEREST_PLAN_LEN] = {"/plan/0/dir", "/plan/1/dir",
                                                           "/plan/2/dir"};

/* `s` at buf[at] (the caller sized buf); where it ends. */
static size_t put_text(char *buf, size_t at, const char *s)
{
  size_t n = strlen(s);

  memcpy(buf + at, s, n);
  return at + n;
}

/* The last step's node: the coins not `taken` (a bit per coin), each with
 * nothing after it. Most of a plan's tree (6*5*4 options under 6*5 such
 * nodes for three coins), so each node is composed here and written whole
 * as the writer would write it (test_plan compares). */
static void write_last_coins(struct json_writer *w, int step, unsigned taken)
{
  static const char *const options[EVEREST_COINS] = {"{\"value\":0}", "{\"value\":1}",
                                                     "{\"value\":2}", "{\"value\":3}",
                                                     "{\"value\":4}", "{\"value\":5}"};
  char text[160]; /* 36 bytes of head, 6 options of 11 and their commas, 2 to close */
  size_t n = 0;
  const char *comma = "";
  int coin;

  n = put_text(text, n, "{\"choose\":\"");
  n = put_text(text, n, coin_pointers[step]);
  n = put_text(text, n, "\",\"options\":[");
  for (coin = 0; coin < EVEREST_COINS; coin++)
    if (!(taken & (1u << coin))) {
      n = put_text(text, n, comma);
      n = put_text(text, n, options[coin]);
      comma = ",";
    }
  n = put_text(text, n, "]}");
  jw_raw(w, text, n);
}

/* The choices of coin `step` onwards of a plan of `length` coins, `used`
 * (a bit per coin) taken by the steps before. */
static void write_coin_choices(struct json_writer *w, const struct everest_state *st, int seat,
                               int step, int length, unsigned used)
{
  int coin;

  if (step + 1 == length) {
    write_last_coins(w, step, st->seat[seat].aside | used);
    return;
  }
  engine_choice_node_begin(w, coin_pointers[step]);
  for (coin = 0; coin < EVEREST_COINS; coin++) {
    if ((st->seat[seat].aside | used) & (1u << coin))
      continue;
    jw_object_begin(w);
    jw_key_int(w, "value", coin);
    jw_key(w, "then");
    write_coin_choices(w, st, seat, step + 1, length, used | 1u << coin);
    jw_object_end(w);
  }
  engine_choice_node_end(w);
}

/* Planning as a tree: the coins in order (each one not used before), and
 * beside them each step's face and direction, which any coin may take
 * (README.md "Moves": 6*5*4 coin orders times 8 faces times 64
 * directions, too many to list, but small as parts of an "all"). */
static void write_plan_choices(struct json_writer *w, const struct everest_state *st, int seat)
{
  int length = plan_length(st, seat), step, dir;

  engine_choice_node_begin(w, "/type");
  jw_object_begin(w);
  jw_key_string(w, "value", "plan");
  jw_key(w, "then");
  jw_object_begin(w);
  jw_key(w, "all");
  jw_array_begin(w);
  write_coin_choices(w, st, seat, 0, length, 0);
  for (step = 0; step < length; step++) {
    engine_choice_node_begin(w, face_pointers[step]);
    jw_object_begin(w);
    jw_key_string(w, "value", "value");
    jw_object_end(w);
    jw_object_begin(w);
    jw_key_string(w, "value", "suit");
    jw_object_end(w);
    engine_choice_node_end(w);
    engine_choice_node_begin(w, dir_pointers[step]);
    for (dir = 0; dir < EVEREST_DIRS; dir++) {
      jw_object_begin(w);
      jw_key_string(w, "value", everest_dir_name(dir));
      jw_object_end(w);
    }
    engine_choice_node_end(w);
  }
  jw_array_end(w);
  jw_object_end(w);
  jw_object_end(w);
  engine_choice_node_end(w);
}

void everest_write_choices(const struct engine_game *game, int seat, struct json_writer *w)
{
  const struct everest_state *st = (const struct everest_state *)game;

  if (may_act(st, seat) && st->phase == EVEREST_PHASE_PLAN)
    write_plan_choices(w, st, seat);
  else
    engine_choices_of_legal(game, seat, w);
}

/* splitmix64 finaliser: spreads `choice` so that its low digits below are
 * independent; a pure function, the game's generator is never touched. */
static uint64_t mix(uint64_t z)
{
  z += 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static int take(uint64_t *z, int n)
{
  int pick = (int)(*z % (uint64_t)n);

  *z /= (uint64_t)n;
  return pick;
}

/* A uniform plan: an ordered choice of distinct available coins, then a
 * face and a direction for each (6*5*4*8*64 < 2^64, so one mixed word
 * does). Returns its length. */
static int draw_plan(const struct everest_state *st, int seat, uint64_t z,
                     struct everest_coin plan[EVEREST_PLAN_LEN])
{
  int coins[EVEREST_COINS], n = 0, coin, i, length = plan_length(st, seat);

  for (coin = 0; coin < EVEREST_COINS; coin++)
    if (!(st->seat[seat].aside & (1u << coin)))
      coins[n++] = coin;
  for (i = 0; i < length; i++) {
    int k = take(&z, n - i), t;

    t = coins[i], coins[i] = coins[i + k], coins[i + k] = t;
    plan[i].coin = coins[i];
    plan[i].suit = take(&z, 2) != 0;
    plan[i].dir = take(&z, EVEREST_DIRS);
  }
  return length;
}

/* Squares a yeti must walk from `cell` to the peak tile along a route it
 * can climb (never up a cliff), by a breadth-first search back from the
 * peak; far for a yeti off the board. The straight-line distance would
 * leave a yeti under a cliff thinking it is nearly there. */
static int peak_distance(int cell)
{
  int dist[EVEREST_CELLS], queue[EVEREST_CELLS], head = 0, tail = 0, c;

  if (cell == EVEREST_OFF)
    return 2 * EVEREST_CELLS;
  for (c = 0; c < EVEREST_CELLS; c++) {
    dist[c] = -1;
    if (everest_height(c) && everest_on_peak(c)) {
      dist[c] = 0;
      queue[tail++] = c;
    }
  }
  while (head < tail) {
    int at = queue[head++], dir;

    for (dir = 0; dir < EVEREST_DIRS; dir++) {
      int from = everest_neighbour(at, dir);

      /* `from` can step to `at` unless that climbs a cliff. */
      if (from == EVEREST_OFF || dist[from] >= 0 || everest_height(at) - everest_height(from) >= 2)
        continue;
      dist[from] = dist[at] + 1;
      queue[tail++] = from;
    }
  }
  return dist[cell] >= 0 ? dist[cell] : 2 * EVEREST_CELLS;
}

/* How a plan looks to a beginner (lower is better): the plan carried out
 * alone on the current board, the other yeti standing still and roars
 * ignored (their dice are unknown). Near the peak, unhurt, rivals off it. */
static int plan_score(const struct everest_state *st, int seat,
                      const struct everest_coin plan[EVEREST_PLAN_LEN], int length)
{
  struct everest_state copy = *st, *scratch = &copy; /* POD: state.h */
  int step, other, score;

  for (other = 0; other < st->head.seats; other++)
    scratch->seat[other].plan_len = 0;
  memcpy(scratch->seat[seat].plan, plan, sizeof(scratch->seat[seat].plan));
  scratch->seat[seat].plan_len = length;
  for (step = 0; step < length; step++) {
    const struct everest_coin *c = everest_step_coin(scratch, scratch->yeti, seat, step);

    if (!c)
      break;
    scratch->step = step;
    if (everest_action_of(c) == EVEREST_MOVE)
      everest_move_yeti(scratch->yeti, st->head.seats, seat, c->dir, c->coin, "plan", NULL);
    else if (everest_action_of(c) == EVEREST_SNOWBALL)
      everest_throw_snowballs(scratch, scratch->yeti, NULL);
  }
  score = 10 * peak_distance(scratch->yeti[seat].cell) + 4 * scratch->yeti[seat].damage;
  for (other = 0; other < st->head.seats; other++)
    if (other != seat && everest_on_peak(scratch->yeti[other].cell))
      score += 12;
  return score;
}

static json_t *plan_move(const struct everest_coin *plan, int length)
{
  json_t *list = json_array();
  int i;

  for (i = 0; list && i < length; i++)
    json_array_append_new(list, json_pack("{s:i, s:s, s:s}", "coin", plan[i].coin, "face",
                                          plan[i].suit ? "suit" : "value", "dir",
                                          everest_dir_name(plan[i].dir)));
  return json_pack("{s:s, s:o}", "type", "plan", "plan", list);
}

/* The best of a few uniform plans (PLAN_DRAWS: enough that a beginner
 * usually finds a climbing move or a snowball at a rival on the peak, few
 * enough that it still blunders). */
#define PLAN_DRAWS 8

static json_t *sample_plan(const struct everest_state *st, int seat, uint64_t z)
{
  struct everest_coin best[EVEREST_PLAN_LEN], plan[EVEREST_PLAN_LEN];
  int best_score = 0, length = 0, k;

  for (k = 0; k < PLAN_DRAWS; k++) {
    int score;

    z = mix(z);
    length = draw_plan(st, seat, z, plan);
    score = plan_score(st, seat, plan, length);
    if (k == 0 || score < best_score) {
      memcpy(best, plan, sizeof(best));
      best_score = score;
    }
  }
  return plan_move(best, length);
}

/* End of round: stay when unhurt (healing sends a yeti home); when hurt,
 * heal once fewer than three coins would be left, else set aside coins
 * drawn at random. */
static json_t *sample_heal(const struct everest_state *st, int seat, uint64_t z)
{
  json_t *list = engine_legal_moves(&st->head, seat), *move = NULL;
  int left = everest_available(st, seat) - st->yeti[seat].damage;
  size_t n = json_array_size(list), first_stay = st->yeti[seat].left_board ? 0 : 1;

  if (!n) {
    json_decref(list);
    return NULL;
  }
  if (left < EVEREST_PLAN_LEN && !st->yeti[seat].left_board)
    move = json_array_get(list, 0); /* heal */
  else if (n > first_stay)
    move = json_array_get(list, first_stay + (size_t)(z % (n - first_stay)));
  else
    move = json_array_get(list, 0);
  json_incref(move);
  json_decref(list);
  return move;
}

json_t *everest_sample_move(const struct engine_game *game, int seat, uint64_t choice)
{
  const struct everest_state *st = (const struct everest_state *)game;
  uint64_t z = mix(choice);
  json_t *list, *move;

  if (!may_act(st, seat))
    return NULL;
  if (st->phase == EVEREST_PHASE_PLAN)
    return sample_plan(st, seat, z);
  if (st->phase == EVEREST_PHASE_HEAL)
    return sample_heal(st, seat, z);
  /* Home bases (the default: any free corner) and conflict orders. */
  list = engine_legal_moves(game, seat);
  move = json_array_size(list)
             ? json_incref(json_array_get(list, (size_t)(z % json_array_size(list))))
             : NULL;
  json_decref(list);
  return move;
}
