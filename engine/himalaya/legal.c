/*
 * legal.c - the list of legal moves. Each candidate is put to the same check
 * apply_move uses (himalaya_check_move), so the list and the rules cannot
 * drift apart; only companion sets that cannot pass are skipped unchecked.
 * Candidates are distinct: one per die value, not per die.
 *
 * One walk serves both uses: write_legal writes each legal move as JSON text
 * as it is found (a list is some hundred moves; as a tree it cost about a
 * thousand allocations per request), and sample_move counts the moves, then
 * walks again to the chosen one.
 */
#include "engine/himalaya/state.h"

#include <stdlib.h>
#include <string.h>

/* One walk over the legal moves, in list order (engine_list: written, or
 * counted and picked). */
struct lister {
  struct engine_list list; /* first: the walk is handed the list */
  const struct himalaya_state *st;
  int seat;
  struct chosen_list *chosen; /* set: the moves are kept here, not listed */
};

struct chosen_list;
static void keep(struct chosen_list *c, const struct himalaya_move *m);

/* One legal move found: kept for the choices tree, or listed. */
static void take(struct lister *l, const struct himalaya_move *m)
{
  if (l->chosen)
    keep(l->chosen, m);
  else
    engine_list_take(&l->list, m);
}

/* After a legal die or card move `m`: the same move picking up each used
 * card at a high camp, where its Sherpas then qualify. Skipped at once when
 * nothing could be picked up, which is nearly always. */
static void offer_restores(struct lister *l, const struct himalaya_move *m)
{
  const struct himalaya_seat *p = &l->st->seat[l->seat];
  struct himalaya_plan plan;
  struct himalaya_move with = *m;
  int k;

  if (m->type == HIMALAYA_MOVE_REROLL || p->spent_count == 0 ||
      (p->camp_used[0] && p->camp_used[1]))
    return;
  with.restore = true;
  for (k = 0; k < HIMALAYA_CARD_KINDS && !l->list.found; k++) {
    with.restore_card = k;
    if (himalaya_check_move(l->st, l->seat, &with, &plan, NULL) == CAIRN_OK)
      take(l, &with);
  }
}

/* Take `m` when it is legal, then its variants picking up a card; whether
 * it was legal (and *plan says where it ends). Once the sampled move is
 * found nothing more is looked at. */
static bool offer(struct lister *l, const struct himalaya_move *m, struct himalaya_plan *plan)
{
  if (l->list.found || himalaya_check_move(l->st, l->seat, m, plan, NULL) != CAIRN_OK)
    return false;
  take(l, m);
  offer_restores(l, m);
  return true;
}

/* The moves of Sherpa `m.sherpa` in a fixed order: up, up with take-along
 * alone and then with each set of companions, down. Companions can only be
 * own Sherpas on the landing field, and a take-along that fails alone fails
 * in any company, so only those sets are tried. */
static void offer_sherpa(struct lister *l, struct himalaya_move m)
{
  struct himalaya_plan plan;
  unsigned company = 0, mask;
  int s;

  m.down = false;
  m.take_along = false;
  m.companions = 0;
  offer(l, &m, &plan);
  m.take_along = true;
  if (offer(l, &m, &plan)) {
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      if (s != m.sherpa && l->st->seat[l->seat].sherpa[s] == plan.landing)
        company |= 1u << s;
    for (mask = 1; mask < (1u << HIMALAYA_SHERPAS); mask++) {
      if ((mask & company) != mask)
        continue;
      m.companions = mask;
      offer(l, &m, &plan);
    }
  }
  m.take_along = false;
  m.companions = 0;
  m.down = true;
  offer(l, &m, &plan);
}

/* Every pawn the die or card of `m` could move: none (dice only), the
 * climber, then each Sherpa. */
static void offer_pawns(struct lister *l, struct himalaya_move m)
{
  struct himalaya_plan plan;
  int s;

  if (m.type == HIMALAYA_MOVE_DIE) {
    m.pawn = HIMALAYA_PAWN_NONE;
    offer(l, &m, &plan);
  }
  m.pawn = HIMALAYA_PAWN_CLIMBER;
  offer(l, &m, &plan);
  m.pawn = HIMALAYA_PAWN_SHERPA;
  for (s = 0; s < HIMALAYA_SHERPAS; s++) {
    m.sherpa = s;
    offer_sherpa(l, m);
  }
}

/* Every legal move of the seat to act, in list order: the re-throw, each
 * die value, each supply card's two numbers. */
static void offer_all(struct lister *l)
{
  const struct himalaya_seat *p = &l->st->seat[l->seat];
  struct himalaya_plan plan;
  struct himalaya_move m;
  int v, k;

  memset(&m, 0, sizeof(m));
  m.type = HIMALAYA_MOVE_REROLL;
  offer(l, &m, &plan);
  m.type = HIMALAYA_MOVE_DIE;
  for (v = 1; v <= HIMALAYA_DIE_SIDES; v++) {
    if (l->st->pool[v] == 0)
      continue;
    m.value = v;
    offer_pawns(l, m);
  }
  m.type = HIMALAYA_MOVE_SUPPLY;
  for (k = 0; k < HIMALAYA_CARD_KINDS; k++) {
    if (!p->has_card[k])
      continue;
    m.card = k;
    for (v = himalaya_card_low(k); v <= himalaya_card_low(k) + 1; v++) {
      m.value = v;
      offer_pawns(l, m);
    }
  }
}

static void write_move(const void *m, struct json_writer *out)
{
  himalaya_move_write(m, out);
}

/* Set up a walk for `seat`; whether the seat owes a decision (else there
 * is nothing to walk). */
static bool lister_init(struct lister *l, const struct engine_game *game, int seat)
{
  memset(l, 0, sizeof(*l));
  l->list.write = write_move;
  l->list.move_size = sizeof(struct himalaya_move);
  l->st = (const struct himalaya_state *)game;
  l->seat = seat;
  return l->st->end == HIMALAYA_RUNNING && seat == l->st->current;
}

static void walk(struct engine_list *list)
{
  offer_all((struct lister *)list);
}

void himalaya_write_legal(const struct engine_game *game, int seat, struct json_writer *out)
{
  struct lister l;

  engine_list_write(&l.list, lister_init(&l, game, seat) ? walk : NULL, out);
}

/* The legal moves of one walk, each with its steps, to be sorted. */
struct chosen {
  struct himalaya_move move;
  struct himalaya_steps steps;
};

struct chosen_list {
  struct chosen *at;
  size_t n, cap;
  bool failed; /* out of memory */
};

static void keep(struct chosen_list *c, const struct himalaya_move *m)
{
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 256;
    struct chosen *grown = c->failed ? NULL : realloc(c->at, cap * sizeof(*grown));

    if (!grown) {
      c->failed = true;
      return;
    }
    c->at = grown;
    c->cap = cap;
  }
  c->at[c->n].move = *m;
  himalaya_move_steps(m, &c->at[c->n].steps);
  c->n++;
}

/* A kept move's key and its place among the kept, to be sorted. */
struct sort_entry {
  uint64_t key;
  size_t at;
};

/* Sort e[0..n) by key, tmp holding n entries: moves in the order
 * engine/choices.c sorts their texts, step by step, and a move that is
 * another's first steps before it (the steps' key; no two legal moves
 * share one). A merge of small entries, not qsort over whole moves and
 * their steps: its call a comparison and copies of 60-byte elements were a
 * sixth of writing Himalaya's tree (issue 22). */
static void sort_entries(struct sort_entry *e, struct sort_entry *tmp, size_t n)
{
  size_t half = n / 2, i = 0, j = half, k = 0;

  if (n <= 8) { /* short runs: insertion, without the merge's copies */
    for (i = 1; i < n; i++) {
      struct sort_entry x = e[i];

      for (j = i; j > 0 && x.key < e[j - 1].key; j--)
        e[j] = e[j - 1];
      e[j] = x;
    }
    return;
  }
  sort_entries(e, tmp, half);
  sort_entries(e + half, tmp, n - half);
  while (i < half && j < n)
    tmp[k++] = e[j].key < e[i].key ? e[j++] : e[i++];
  while (i < half)
    tmp[k++] = e[i++];
  while (j < n)
    tmp[k++] = e[j++];
  memcpy(e, tmp, n * sizeof(*e));
}

/* The kept moves in key order, into a new array (the caller frees it);
 * NULL when out of memory. */
static struct chosen *sorted_chosen(const struct chosen_list *c)
{
  struct sort_entry *entries = malloc(2 * c->n * sizeof(*entries));
  struct chosen *sorted = malloc(c->n * sizeof(*sorted));
  size_t i;

  if (entries && sorted) {
    for (i = 0; i < c->n; i++) {
      entries[i].key = c->at[i].steps.key;
      entries[i].at = i;
    }
    sort_entries(entries, entries + c->n, c->n);
    for (i = 0; i < c->n; i++)
      sorted[i] = c->at[entries[i].at];
  } else {
    free(sorted);
    sorted = NULL;
  }
  free(entries);
  return sorted;
}

/* The node choosing step `depth` of the sorted moves at[0..n), all of
 * which have that step and share the ones before it, composed as text
 * (jw_compose: a call per bracket and key was most of its cost, issue 22);
 * each value is written by the moves' own writer into `value` first. */
static void write_node(const struct chosen *at, size_t n, int depth, struct json_writer *value,
                       struct json_writer *out)
{
  const char *pointer = himalaya_member_pointer(at[0].steps.member[depth]);
  size_t i = 0, end, rest;

  JW_COMPOSE(out, "{\"choose\":\"");
  jw_compose(out, pointer, strlen(pointer)); /* a static "/name": nothing to escape */
  JW_COMPOSE(out, "\",\"options\":[");
  while (i < n) {
    uint8_t rank = at[i].steps.rank[depth];

    for (end = i + 1; end < n && at[end].steps.rank[depth] == rank; end++)
      ;
    /* Moves ending here come first in their group; any after go on. */
    for (rest = i; rest < end && at[rest].steps.n == depth + 1; rest++)
      ;
    if (i > 0)
      JW_COMPOSE(out, ",");
    JW_COMPOSE(out, "{\"value\":");
    jw_reset(value);
    himalaya_member_write(&at[i].move, at[i].steps.member[depth], value);
    if (value->failed)
      out->failed = true;
    else
      jw_compose(out, value->buf, value->len);
    if (rest < end) {
      if (rest > i)
        JW_COMPOSE(out, ",\"done\":true");
      JW_COMPOSE(out, ",\"then\":");
      write_node(at + rest, end - rest, depth + 1, value, out);
    }
    JW_COMPOSE(out, "}");
    i = end;
  }
  JW_COMPOSE(out, "]}");
}

/* The choices tree of the same walk, its moves' members in the order a
 * client chooses them (moves.c): the shared head of a Himalaya move (type,
 * value, card, pawn, no take-along) then branches once, so the tree is
 * about a third of the list (openapi.yaml, test_choices). Built from the
 * moves themselves, sorted by their steps' ranks (himalaya_move_steps):
 * the same bytes engine_choices_from_list makes of their written list,
 * without writing, reading and sorting that text, which was a fifth of the
 * server's CPU per move under bench_load (issue 22). */
void himalaya_write_choices(const struct engine_game *game, int seat, struct json_writer *out)
{
  struct lister l;
  struct chosen_list chosen = {0};
  struct chosen *sorted = NULL;

  if (lister_init(&l, game, seat)) {
    l.chosen = &chosen;
    offer_all(&l);
  }
  if (chosen.failed) {
    out->failed = true;
  } else if (chosen.n == 0) {
    jw_null(out);
  } else if (!(sorted = sorted_chosen(&chosen))) {
    out->failed = true;
  } else {
    struct json_writer value;

    jw_init(&value);
    jw_compose_begin(out);
    write_node(sorted, chosen.n, 0, &value, out);
    jw_discard(&value);
  }
  free(sorted);
  free(chosen.at);
}

/* Move number choice % n of the n that write_legal lists, as
 * engine_sample_move would pick it from the list, found without writing
 * the list: bots and random playouts ask for one move, not a thousand. */
json_t *himalaya_sample_move(const struct engine_game *game, int seat, uint64_t choice)
{
  struct lister l;
  struct himalaya_move picked;

  if (!lister_init(&l, game, seat) || !engine_list_pick(&l.list, walk, choice, &picked))
    return NULL;
  return himalaya_move_json(&picked);
}
