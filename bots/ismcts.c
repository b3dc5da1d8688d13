/*
 * ismcts.c - single-observer information-set Monte Carlo tree search with
 * determinization (bots.h). Each iteration samples one world consistent
 * with the bot's view (engine_determinize, drawing from the bot's own
 * generator), walks the one tree of moves shared by all worlds, choosing
 * among the moves legal in this world by UCB1 with availability counts,
 * adds one node, plays the world on (playout.c: by the title's rule of
 * thumb to the end where it has one, greedily by its measure of positions
 * where it has that, otherwise at random to the end) and credits every
 * node on the path with the reward of the seat that chose it. The move
 * played is the root's most visited child. A title with a rule of thumb
 * (the bot_policy slot) is searched one step deep around it: the rule's
 * move is tried first and played unless another is clearly better
 * (choose_against_policy).
 *
 * Nodes are keyed by a move's canonical text, so the same move found in
 * two worlds is one node. Only the view enters: a world is rebuilt from
 * it at every iteration, and the tree never sees the real state.
 */
#include "bots/bots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Moves considered at one node: a title whose list is longer (or compact)
 * offers this many draws of engine_sample_move, enough for the titles'
 * usual turns and a bound on a node's cost. */
#define CANDIDATES_MAX 48
/* Depth of a walk down the tree, a bound no title's game comes near. */
#define DEPTH_MAX 600
/* UCB1's exploration constant for rewards in [0, 1]. */
#define EXPLORATION 0.7

struct node {
  json_t *move;           /* Owned: the move leading here (NULL at the root) */
  char *text;             /* Owned: its canonical text */
  int actor;              /* the seat that chose `move` */
  double visits, avail;   /* times chosen, times it was legal when its parent was left */
  double reward;          /* sum of `actor`'s rewards through here */
  double measure;         /* a root child's: the actor's measure just after it, -1 none */
  uint64_t draws;         /* the seed of the draws a compact list offers here, 0 until one */
  struct node **children; /* Owned, with each child */
  size_t n_children, cap_children;
};

/* One legal move offered at a node, with its child when it has one. */
struct candidate {
  json_t *move; /* Owned */
  char *text;   /* Owned */
  struct node *child;
};

static const char *const level_names[BOT_LEVELS] = {"random", "easy", "strong"};

const char *bot_level_name(enum bot_level level)
{
  return level_names[level];
}

bool bot_level_named(const char *name, enum bot_level *out)
{
  int i;

  for (i = 0; i < BOT_LEVELS; i++)
    if (strcmp(name, level_names[i]) == 0) {
      *out = (enum bot_level)i;
      return true;
    }
  return false;
}

bool bot_title_supported(const struct engine_module *module)
{
  return engine_can_determinize(module);
}

static void node_free(struct node *n)
{
  size_t i;

  if (!n)
    return;
  for (i = 0; i < n->n_children; i++)
    node_free(n->children[i]);
  free(n->children);
  json_decref(n->move);
  free(n->text);
  free(n);
}

static void candidates_clear(struct candidate *c, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++) {
    json_decref(c[i].move);
    free(c[i].text);
  }
}

/* Adds `move` (taken) to out[] unless its text is there already; matched
 * to `parent`'s child for it. Returns the new count. */
static size_t offer_one(json_t *move, const struct node *parent, struct candidate *out, size_t n)
{
  char *text = move ? json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  size_t i;

  for (i = 0; text && i < n; i++)
    if (strcmp(out[i].text, text) == 0)
      break;
  if (!text || i < n) {
    json_decref(move);
    free(text);
    return n;
  }
  out[n] = (struct candidate){.move = move, .text = text, .child = NULL};
  for (i = 0; i < parent->n_children; i++)
    if (strcmp(parent->children[i]->text, text) == 0)
      out[n].child = parent->children[i];
  return n + 1;
}

/* The choice of draw `i` from a compact list at node `n`: the same at every
 * visit, so the node offers the same moves whenever a world allows them.
 * Drawn afresh each iteration, every visit offered new moves: Everest's
 * root had 256 plans of one visit each, and the plan played was the first
 * one drawn, the random bot's. The seed is drawn once, when first needed
 * (a title without a compact list draws exactly as before). */
static uint64_t node_choice(struct node *n, struct engine_rng *rng, size_t i)
{
  uint64_t z;

  if (!n->draws)
    n->draws = bot_draw64(rng) | 1;
  z = n->draws + (i + 1) * 0x9e3779b97f4a7c15u; /* splitmix64 */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* The distinct moves `seat` may make in `world`: the title's whole legal
 * list when it is a plain one of at most CANDIDATES_MAX moves (one walk of
 * the rules), otherwise CANDIDATES_MAX draws from engine_sample_move: of a
 * compact form, the node's own (node_choice); of a longer list, fresh
 * ones. Returns how many. */
static size_t offer_moves(const struct engine_game *world, int seat, struct node *parent,
                          struct engine_rng *rng, struct candidate out[CANDIDATES_MAX])
{
  json_t *legal = engine_legal_moves(world, seat);
  bool short_list = json_array_size(legal) <= CANDIDATES_MAX;
  bool compact = short_list && !bot_plain_list(world, seat, legal);
  size_t n = 0, i;

  if (short_list && !compact) {
    for (i = 0; i < json_array_size(legal); i++)
      n = offer_one(json_incref(json_array_get(legal, i)), parent, out, n);
  } else {
    for (i = 0; i < CANDIDATES_MAX; i++) {
      uint64_t choice = compact ? node_choice(parent, rng, i) : bot_draw64(rng);

      n = offer_one(engine_sample_move(world, seat, choice), parent, out, n);
    }
  }
  json_decref(legal);
  return n;
}

/* A new child of `parent` for candidate `c` (taking its move and text),
 * or NULL when out of memory. */
static struct node *add_child(struct node *parent, struct candidate *c, int actor)
{
  struct node *child;

  if (parent->n_children == parent->cap_children) {
    size_t cap = parent->cap_children ? parent->cap_children * 2 : 8;
    struct node **grown = realloc(parent->children, cap * sizeof(*grown));

    if (!grown)
      return NULL;
    parent->children = grown;
    parent->cap_children = cap;
  }
  child = calloc(1, sizeof(*child));
  if (!child)
    return NULL;
  child->move = c->move;
  child->text = c->text;
  child->actor = actor;
  c->move = NULL;
  c->text = NULL;
  parent->children[parent->n_children++] = child;
  return child;
}

static double ucb(const struct node *n)
{
  return n->reward / n->visits + EXPLORATION * sqrt(log(n->avail) / n->visits);
}

/* One step down from `n` in `world`: the move chosen (applied to the world)
 * and its node, or NULL once the world is over, a node was added (the
 * walk ends there) or something failed. *added says whether it was. */
static struct node *descend(struct node *n, struct engine_game *world, int actor,
                            struct engine_rng *rng, const char *first, bool *added)
{
  struct candidate offered[CANDIDATES_MAX];
  size_t count = offer_moves(world, actor, n, rng, offered), i, unexpanded = 0, pick;
  struct node *next = NULL;
  struct cairn_error err;

  *added = false;
  for (i = 0; i < count; i++) {
    if (offered[i].child)
      offered[i].child->avail++;
    else
      unexpanded++;
  }
  /* The title's rule of thumb is tried before any other move. */
  for (i = 0; first && unexpanded > 0 && i < count && !next; i++)
    if (!offered[i].child && strcmp(offered[i].text, first) == 0) {
      next = add_child(n, &offered[i], actor);
      *added = next != NULL;
    }
  if (next) {
    /* the rule of thumb's move, expanded above */
  } else if (unexpanded > 0) {
    pick = engine_rng_below(rng, (uint32_t)unexpanded);
    for (i = 0; i < count && !next; i++)
      if (!offered[i].child && pick-- == 0) {
        next = add_child(n, &offered[i], actor);
        *added = next != NULL;
      }
  } else {
    for (i = 0; i < count; i++)
      if (!next || ucb(offered[i].child) > ucb(next))
        next = offered[i].child;
  }
  candidates_clear(offered, count);
  if (next && engine_replay_step(world, actor, next->move, &err) != CAIRN_OK)
    next = NULL;
  if (next && *added && !n->move && !engine_bot_evaluate(world, actor, &next->measure))
    next->measure = -1; /* a root child: its immediate measure (choose_move) */
  return next;
}

/* One iteration on `world` (a fresh sample, the iteration's own).
 * `policy`: the title's rule of thumb's move at the root (canonical text),
 * or NULL when the title has none. With one, the tree is the root's
 * moves alone and every world is played on by the rule of thumb: below
 * the root a tree of a few hundred iterations would pick its moves at
 * random while it expands (a Because It's There team's second step a
 * random one), which costs more than the rule of thumb's plan. */
static void iterate(struct node *root, struct engine_game *world, int seat, struct engine_rng *rng,
                    const char *policy)
{
  struct node *path[DEPTH_MAX];
  double reward[ENGINE_MAX_SEATS];
  size_t depth = 0, i, depth_max = policy ? 1 : DEPTH_MAX;
  struct node *n = root;
  bool added = false;
  int actor = seat; /* the root's decision is the bot's, whoever else owes one */

  while (!added && depth < depth_max && actor >= 0) {
    n = descend(n, world, actor, rng, depth == 0 ? policy : NULL, &added);
    if (!n)
      return;
    path[depth++] = n;
    actor = bot_next_actor(world);
  }
  if (!bot_playout(world, rng, reward))
    return;
  for (i = 0; i < depth; i++) {
    path[i]->visits++;
    path[i]->reward += reward[path[i]->actor];
  }
}

/* A title with a rule of thumb gets this many times the level's budget:
 * its iterations play one world on by the rule, a microsecond or two a
 * step, where a greedy playout tries four moves on copies at every step,
 * so twice the iterations cost about what the others' do (130-230 us an
 * iteration of Because It's There, about half of it sampling the world).
 * In 8 solo games a scenario the strong bot reached the goal 2 and 5
 * times with 256 iterations, 4 and 8 times with 512 (1924, 1953). */
#define POLICY_BUDGET_FACTOR 2

static int iterations_of(const struct engine_module *module, enum bot_level level)
{
  int budget = level == BOT_STRONG ? BOT_STRONG_ITERATIONS
               : level == BOT_EASY ? BOT_EASY_ITERATIONS
                                   : 0;

  return module->bot_policy ? POLICY_BUDGET_FACTOR * budget : budget;
}

/* A world sampled from the view, or NULL with *err set. */
static struct engine_game *sample_world(const struct bot_input *in, struct engine_rng *rng,
                                        struct cairn_error *err)
{
  struct engine_game *world = NULL;

  if (engine_determinize(in->module, in->seats, in->seq, in->view, in->view_len, in->options,
                         in->seat, rng, &world, err) != CAIRN_OK)
    return NULL;
  if (!engine_may_act(world, in->seat)) {
    engine_free(world);
    cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_NOT_YOUR_TURN, NULL,
               "seat %d owes no decision in this view", in->seat);
    return NULL;
  }
  return world;
}

/* A title with a rule of thumb: its move, unless the search found one
 * clearly better. The most visited root child is played instead when it
 * was tried at least DEVIATION_VISITS times and its mean reward beats the
 * rule of thumb's by DEVIATION_MARGIN: a few hundred playouts spread over
 * a dozen moves measure each within a tenth or so, and following noise
 * away from a sound plan (a team that rests where it should climb,
 * Supplies left and loaded again) loses more than the search's finds win.
 * Without the visits an easy search (32 iterations, two or three a move)
 * followed a single lucky playout: 0 goals in 16 solo games, where the
 * rule of thumb alone reaches one in five. */
#define DEVIATION_MARGIN 0.05
#define DEVIATION_VISITS 16

static json_t *choose_against_policy(const struct node *root, const char *policy)
{
  const struct node *best = NULL, *rule = NULL;
  size_t i;

  for (i = 0; i < root->n_children; i++) {
    const struct node *c = root->children[i];

    if (strcmp(c->text, policy) == 0)
      rule = c;
    if (!best || c->visits > best->visits)
      best = c;
  }
  if (rule && best && best != rule && rule->visits > 0 &&
      (best->visits < DEVIATION_VISITS ||
       best->reward / best->visits <= rule->reward / rule->visits + DEVIATION_MARGIN))
    best = rule;
  return best ? json_incref(best->move) : NULL;
}

/* The move to play (a new reference), or NULL: the root's most visited
 * child, but where the title has a measure, among the children that do
 * not lower it at once (below `before`, the position's own) when there
 * are any. Among moves whose worth the search cannot tell apart (a Card
 * moved from one team to another in Advance Base Camp, or the phase's
 * "ready") a bot chose by noise and went round in a phase for hundreds of
 * moves; a title's measure breaks such a circle by making each of its
 * steps a loss or a gain (engine/because-its-there/bot.c), and a loss is
 * never taken while something else keeps what the seat has. */
#define MEASURE_EPSILON 1e-9 /* a measure's rounding, not a loss */

static json_t *choose_move(const struct node *root, double before, const char *policy)
{
  const struct node *best = NULL;
  bool keeping = false;
  size_t i;

  if (policy)
    return choose_against_policy(root, policy);
  for (i = 0; i < root->n_children; i++)
    keeping = keeping || root->children[i]->measure >= before - MEASURE_EPSILON;
  for (i = 0; i < root->n_children; i++) {
    const struct node *c = root->children[i];

    if (keeping && c->measure < before - MEASURE_EPSILON)
      continue;
    if (!best || c->visits > best->visits)
      best = c;
  }
  return best ? json_incref(best->move) : NULL;
}

/* The seat's one legal move in `world` (a new reference) when it has
 * exactly one, else NULL: nothing to search (a Night with nothing to
 * declare, a phase's lone "ready"). */
static json_t *only_move(const struct engine_game *world, int seat)
{
  json_t *legal = engine_legal_moves(world, seat), *only = NULL;

  if (json_array_size(legal) == 1 && bot_plain_list(world, seat, legal))
    only = json_incref(json_array_get(legal, 0));
  json_decref(legal);
  return only;
}

/* The canonical text of the title's rule of thumb's move for `seat` in
 * `world` (the caller's, free), or NULL when the title has none. It reads
 * the seat's own cards and the public mountain, so it is the same move in
 * every world the view allows; the first world's stands for all. */
static char *policy_text(const struct engine_game *world, int seat, struct engine_rng *rng)
{
  json_t *move;
  char *text;

  if (!world->module->bot_policy)
    return NULL;
  move = world->module->bot_policy(world, seat, bot_draw64(rng));
  text = move ? json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(move);
  return text;
}

enum cairn_status bot_decide(const struct bot_input *in, enum bot_level level, json_t **move,
                             struct cairn_error *err)
{
  struct engine_rng rng;
  struct engine_game *world;
  struct node *root;
  int i, iterations = iterations_of(in->module, level);
  double before;
  char *policy;

  *move = NULL;
  engine_rng_seed(&rng, in->seed);
  world = sample_world(in, &rng, err);
  if (!world)
    return err->status;
  if (iterations == 0 || (*move = only_move(world, in->seat)) != NULL) {
    if (!*move)
      *move = engine_sample_move(world, in->seat, bot_draw64(&rng));
    engine_free(world);
    return *move ? CAIRN_OK
                 : cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                              "out of memory while choosing a move");
  }
  if (!engine_bot_evaluate(world, in->seat, &before))
    before = -1; /* no measure: every child's is -1 too */
  policy = policy_text(world, in->seat, &rng);
  root = calloc(1, sizeof(*root));
  for (i = 0; root && i < iterations && world; i++) {
    iterate(root, world, in->seat, &rng, policy);
    engine_free(world);
    world = i + 1 < iterations ? sample_world(in, &rng, err) : NULL;
  }
  engine_free(world);
  *move = root ? choose_move(root, before, policy) : NULL;
  node_free(root);
  free(policy);
  if (!*move)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while searching");
  return CAIRN_OK;
}
