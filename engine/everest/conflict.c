/*
 * conflict.c - "Executing the plans": whether the actions of one turn
 * conflict, the dice that decide who orders them, and carrying out a turn
 * in an order. A turn is a list of items (one per acting yeti, all
 * snowballs together as one item); round.c builds the turns.
 *
 * "Actions by different yeti are considered to be in conflict, if a
 * different board configuration would result when the actions are
 * performed sequentially in two different orders." We take the text
 * literally: every order of the items is carried out on a scratch copy and
 * the results compared (at most 4! = 24 orders of cheap moves).
 */
#include "engine/everest/state.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/everest/rules.h"

static const char *const kind_name[] = {"move", "run", "snowballs"};

void everest_write_item(struct json_writer *w, const struct everest_item *item)
{
  jw_object_begin(w);
  jw_key_string(w, "kind", kind_name[item->kind]);
  if (item->kind != EVEREST_ITEM_SNOWBALLS) {
    jw_key_int(w, "seat", item->seat);
    jw_key_string(w, "seat_name", everest_seat_name(item->seat));
    jw_key_string(w, "dir", everest_dir_name(item->dir));
    jw_key_int(w, "mp", item->mp);
  }
  jw_object_end(w);
}

json_t *everest_item_json(const struct everest_item *item)
{
  if (item->kind == EVEREST_ITEM_SNOWBALLS)
    return everest_object(1, "kind", everest_text(kind_name[item->kind]));
  return everest_object(5, "kind", everest_text(kind_name[item->kind]), "seat",
                        json_integer(item->seat), "seat_name",
                        everest_text(everest_seat_name(item->seat)), "dir",
                        everest_text(everest_dir_name(item->dir)), "mp", json_integer(item->mp));
}

/* How an item is named in an order move: the seat, or "snowballs". */
static json_t *order_token(const struct everest_item *item)
{
  if (item->kind == EVEREST_ITEM_SNOWBALLS)
    return json_string("snowballs");
  return json_integer(item->seat);
}

/* The same token, written. */
static void write_order_token(struct json_writer *w, const struct everest_item *item)
{
  if (item->kind == EVEREST_ITEM_SNOWBALLS)
    jw_string(w, "snowballs");
  else
    jw_int(w, item->seat);
}

int everest_permutations(int n, int perms[24][EVEREST_MAX_ITEMS])
{
  int count = 0, a[EVEREST_MAX_ITEMS], i;

  for (i = 0; i < n; i++)
    a[i] = i;
  for (;;) {
    int j, k, t;

    memcpy(perms[count++], a, sizeof(a));
    /* next lexicographic permutation */
    for (j = n - 2; j >= 0 && a[j] > a[j + 1]; j--)
      ;
    if (j < 0)
      break;
    for (k = n - 1; a[k] < a[j]; k--)
      ;
    t = a[j], a[j] = a[k], a[k] = t;
    for (i = j + 1, k = n - 1; i < k; i++, k--)
      t = a[i], a[i] = a[k], a[k] = t;
  }
  return count;
}

/* Carry out one item on `yeti`: a function of the board alone (st is only
 * read), which the conflict test below relies on. */
static void apply_item(const struct everest_state *st, struct everest_yeti *yeti,
                       const struct everest_item *item, json_t *events)
{
  if (item->kind == EVEREST_ITEM_SNOWBALLS) {
    everest_throw_snowballs(st, yeti, events);
    return;
  }
  /* A yeti knocked off the board earlier in the order has lost its
   * unperformed actions, its run included. */
  if (yeti[item->seat].cell == EVEREST_OFF || yeti[item->seat].cancelled)
    return;
  everest_move_yeti(yeti, st->head.seats, item->seat, item->dir, item->mp,
                    item->kind == EVEREST_ITEM_RUN ? "run" : "plan", events);
}

void everest_apply_turn(const struct everest_state *st, struct everest_yeti *yeti,
                        const struct everest_item *items, const int *order, int n, json_t *events)
{
  int k;

  for (k = 0; k < n; k++)
    apply_item(st, yeti, &items[order[k]], events);
}

static bool same_board(const struct everest_yeti *a, const struct everest_yeti *b, int seats)
{
  int i;

  /* The board configuration: where each yeti stands, whether it is off the
   * board with its actions lost, and the damage it took (RULES.md). */
  for (i = 0; i < seats; i++)
    if (a[i].cell != b[i].cell || a[i].damage != b[i].damage || a[i].cancelled != b[i].cancelled ||
        a[i].left_board != b[i].left_board)
      return false;
  return true;
}

bool everest_turn_conflicts_by_orders(const struct everest_state *st,
                                      const struct everest_item *items, int n)
{
  int perms[24][EVEREST_MAX_ITEMS];
  struct everest_yeti first[EVEREST_MAX_SEATS], other[EVEREST_MAX_SEATS];
  int count, p;

  if (n < 2)
    return false;
  count = everest_permutations(n, perms);
  memcpy(first, st->yeti, sizeof(first));
  everest_apply_turn(st, first, items, perms[0], n, NULL);
  for (p = 1; p < count; p++) {
    memcpy(other, st->yeti, sizeof(other));
    everest_apply_turn(st, other, items, perms[p], n, NULL);
    if (!same_board(first, other, st->head.seats))
      return true;
  }
  return false;
}

/* The squares a move or run can look at or change in any order, as bits
 * of a cell mask: its yeti's line from where it stands out to one square
 * past its last possible step (a step costs at least 1 MP, and a pushed
 * yeti goes one square ahead of the mover; pushes never chain). None for
 * a yeti off the board or with its actions cancelled: nothing in a turn
 * brings it back, so its item does nothing in any order. */
static uint64_t reach(const struct everest_state *st, const struct everest_item *item)
{
  const struct everest_yeti *y = &st->yeti[item->seat];
  uint64_t cells = 0;
  int cell = y->cell, k;

  if (y->cancelled)
    return 0;
  for (k = 0; k <= item->mp + 1 && cell != EVEREST_OFF; k++) {
    cells |= UINT64_C(1) << cell;
    cell = everest_neighbour(cell, item->dir);
  }
  return cells;
}

/* The squares the step's snowballs can look at or change in any order:
 * each thrower's line from where it stands to the edge. A snowball flies
 * along it until it hits a yeti or a step, and a hit yeti is pushed one
 * square further along the same line. Throwers are the seats throwing on
 * the board as it stands: a seat's coin does not change within a turn, and
 * nothing brings a yeti back or lifts its cancelled actions. */
static uint64_t snowball_reach(const struct everest_state *st)
{
  uint64_t cells = 0;
  int seat;

  for (seat = 0; seat < st->head.seats; seat++) {
    const struct everest_coin *c = everest_step_coin(st, st->yeti, seat, st->step);
    int cell;

    if (!c || everest_action_of(c) != EVEREST_SNOWBALL)
      continue;
    for (cell = st->yeti[seat].cell; cell != EVEREST_OFF; cell = everest_neighbour(cell, c->dir))
      cells |= UINT64_C(1) << cell;
  }
  return cells;
}

/* Whether the items' reaches do not meet: each then reads and changes
 * only squares no other touches, and every order gives one board without
 * trying any. */
static bool apart(const struct everest_state *st, const struct everest_item *items, int n)
{
  uint64_t seen = 0;
  int i;

  for (i = 0; i < n; i++) {
    uint64_t cells =
        items[i].kind == EVEREST_ITEM_SNOWBALLS ? snowball_reach(st) : reach(st, &items[i]);

    if (cells & seen)
      return false;
    seen |= cells;
  }
  return true;
}

/*
 * The same answer from fewer simulated actions (issue 22: the test was a
 * third of a replay's rules). Every order of a set of items ends with one
 * of them, y, after some order of the rest. So when every order of each
 * "rest" gives one board, board(rest), the orders of the set give one
 * board exactly when board(rest) + y agrees for every last item y. Boards
 * are built up over the subsets of the items, smallest first (a subset's
 * bitmask is larger than those of its parts): for four items 32 actions
 * instead of 96. A subset whose orders disagree decides nothing (the whole
 * set may still agree: an action after it can erase the difference), so
 * the walk then leaves the question to the orders themselves; the whole
 * set disagreeing is a conflict outright, shown by two real orders. Items
 * whose reaches do not meet (apart, above) need no walk at all.
 * tests/engine/everest/test_conflict.c holds both answers equal over
 * random positions.
 */
/* everest_turn_conflicts; when there is no conflict and the subset walk
 * found the board every order gives, that board in `agreed` and *known
 * true. */
static bool conflicts(const struct everest_state *st, const struct everest_item *items, int n,
                      struct everest_yeti agreed[EVEREST_MAX_SEATS], bool *known)
{
  struct everest_yeti board[1u << EVEREST_MAX_ITEMS][EVEREST_MAX_SEATS];
  unsigned all = (1u << n) - 1, set;
  int last;

  *known = false;
  if (n < 2 || apart(st, items, n))
    return false;
  memcpy(board[0], st->yeti, sizeof(board[0]));
  for (set = 1; set <= all; set++) {
    bool first = true;

    for (last = 0; last < n; last++) {
      struct everest_yeti after[EVEREST_MAX_SEATS];

      if (!(set & (1u << last)))
        continue;
      /* The first order tried is the set's board; the others must agree. */
      memcpy(first ? board[set] : after, board[set & ~(1u << last)], sizeof(after));
      apply_item(st, first ? board[set] : after, &items[last], NULL);
      if (!first && !same_board(board[set], after, st->head.seats))
        return set == all || everest_turn_conflicts_by_orders(st, items, n);
      first = false;
    }
  }
  memcpy(agreed, board[all], sizeof(board[all]));
  *known = true;
  return false;
}

bool everest_turn_conflicts(const struct everest_state *st, const struct everest_item *items, int n)
{
  struct everest_yeti agreed[EVEREST_MAX_SEATS];
  bool known;

  return conflicts(st, items, n, agreed, &known);
}

/* "all players roll their dice and the player with the high roll gets to
 * choose the order". Faces rank null < ace < 2 < ... < 5; tied high rollers
 * roll again until one is highest (RULES.md). Returns the chooser. Each
 * round of dice is appended to `rolls`, unless it is NULL (no events). */
static int roll_for_order(struct everest_state *st, json_t *rolls)
{
  struct everest_dice_log *log = &st->last_conflict;
  bool in[EVEREST_MAX_SEATS];
  int seat;

  /* The dice stay on the table (the view) until the next conflict. */
  memset(log, 0, sizeof(*log));
  log->round = st->round;
  log->step = st->step;
  for (seat = 0; seat < st->head.seats; seat++)
    in[seat] = true;
  for (;;) {
    int value[EVEREST_MAX_SEATS], best = -1, winner = -1, tied = 0;
    int *faces = log->n_rounds < EVEREST_MAX_ROLL_ROUNDS ? log->face[log->n_rounds++] : NULL;
    json_t *round = rolls ? json_array() : NULL;

    for (seat = 0; seat < EVEREST_MAX_SEATS && faces; seat++)
      faces[seat] = -1;
    for (seat = 0; seat < st->head.seats; seat++) {
      if (!in[seat])
        continue;
      value[seat] = engine_rng_die(&st->head.rng, EVEREST_DIE_SIDES) - 1;
      if (faces)
        faces[seat] = value[seat];
      /* [seat, face] pairs: face 0 null .. 5 */
      if (round)
        json_array_append_new(round, engine_int_list((int[]){seat, value[seat]}, 2));
      if (value[seat] > best)
        best = value[seat], winner = seat, tied = 1;
      else if (value[seat] == best)
        tied++;
    }
    if (rolls)
      json_array_append_new(rolls, round);
    if (tied == 1) {
      log->chooser = winner;
      return winner;
    }
    for (seat = 0; seat < st->head.seats; seat++)
      if (in[seat] && value[seat] != best)
        in[seat] = false;
  }
}

enum cairn_status everest_begin_turn(struct everest_state *st, const struct everest_item *items,
                                     int n, bool *decision, json_t *events, struct cairn_error *err)
{
  int identity[EVEREST_MAX_ITEMS] = {0, 1, 2, 3};
  struct everest_yeti agreed[EVEREST_MAX_SEATS];
  bool known;
  json_t *rolls = NULL, *list = NULL;
  int i;

  *decision = false;
  if (n == 0)
    return CAIRN_OK;
  /* "No conflict -> no roll": any order gives the same board. Without
   * events to tell (a replay), the board the conflict test worked out is
   * that board; with them, the turn is carried out to tell it. */
  if (!conflicts(st, items, n, agreed, &known)) {
    if (known && !events)
      memcpy(st->yeti, agreed, sizeof(agreed));
    else
      everest_apply_turn(st, st->yeti, items, identity, n, events);
    return CAIRN_OK;
  }
  if (events) { /* the dice are the event's; without events none are kept */
    rolls = json_array();
    list = json_array();
    if (!rolls || !list) {
      json_decref(rolls);
      json_decref(list);
      return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    }
  }
  memcpy(st->items, items, sizeof(*items) * (size_t)n);
  st->n_items = n;
  st->chooser = roll_for_order(st, rolls);
  for (i = 0; list && i < n; i++)
    json_array_append_new(list, everest_item_json(&items[i]));
  st->phase = EVEREST_PHASE_ORDER;
  *decision = true;
  return EVEREST_EMIT(events, err, 7, "type", everest_text("conflict"), "round",
                      json_integer(st->round), "step", json_integer(st->step), "items", list,
                      "rolls", rolls, "chooser", json_integer(st->chooser), "chooser_name",
                      everest_text(everest_seat_name(st->chooser)));
}

/* A short name, for refusal messages and the order-chosen event: "seat 2's
 * move" or "the snowballs". */
struct item_label {
  char text[24];
};

struct label {
  char text[112]; /* four item labels and their commas */
};

static struct item_label item_name(const struct everest_item *item)
{
  struct item_label l;

  if (item->kind == EVEREST_ITEM_SNOWBALLS)
    snprintf(l.text, sizeof(l.text), "the snowballs");
  else
    snprintf(l.text, sizeof(l.text), "%s's %s", everest_seat_name(item->seat),
             item->kind == EVEREST_ITEM_RUN ? "run" : "move");
  return l;
}

/* "seat 0's move, seat 2's run, the snowballs" (fits: at most 4 items). */
static struct label items_text(const struct everest_state *st)
{
  struct label l = {{0}};
  int i;

  for (i = 0; i < st->n_items; i++) {
    if (i)
      strcat(l.text, ", ");
    strcat(l.text, item_name(&st->items[i]).text);
  }
  return l;
}

/* New reference, NULL when out of memory: the items' names in `order`. */
static json_t *order_names(const struct everest_state *st, const int *order)
{
  json_t *names = json_array();
  int k;

  for (k = 0; names && k < st->n_items; k++)
    json_array_append_new(names, json_string(item_name(&st->items[order[k]]).text));
  return names;
}

enum cairn_status everest_choose_order(struct everest_state *st, int seat, const json_t *move,
                                       json_t *events, struct cairn_error *err)
{
  const json_t *list = json_object_get(move, "order");
  int order[EVEREST_MAX_ITEMS];
  bool used[EVEREST_MAX_ITEMS] = {false};
  size_t k;
  int i;

  (void)seat;
  if (!list)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "order is required");
  if (!json_is_array(list))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "order: expected an array");
  if (json_array_size(list) != (size_t)st->n_items)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_EXECUTING,
                      "the order must list all %d conflicting actions once, not %zu (%s)",
                      st->n_items, json_array_size(list), items_text(st).text);
  for (k = 0; k < json_array_size(list); k++) {
    const json_t *token = json_array_get(list, k);
    int found = -1;

    if (!json_is_integer(token) && !json_is_string(token))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                        "order[%zu]: a seat number or \"snowballs\"", k);
    for (i = 0; i < st->n_items; i++) {
      json_t *want = order_token(&st->items[i]);

      if (json_equal(want, (json_t *)token))
        found = i;
      json_decref(want);
    }
    if (found < 0)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_EXECUTING,
                        "order[%zu] is none of the conflicting actions (%s)", k,
                        items_text(st).text);
    if (used[found])
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_EXECUTING,
                        "order[%zu] repeats %s; each action is listed once", k,
                        item_name(&st->items[found]).text);
    used[found] = true;
    order[k] = found;
  }
  return everest_order_turn(st, order, list, events, err);
}

enum cairn_status everest_order_turn(struct everest_state *st, const int *order, const json_t *list,
                                     json_t *events, struct cairn_error *err)
{
  if (EVEREST_EMIT(events, err, 5, "type", everest_text("order-chosen"), "seat",
                   json_integer(st->chooser), "seat_name",
                   everest_text(everest_seat_name(st->chooser)), "order", json_deep_copy(list),
                   "order_names", order_names(st, order)) != CAIRN_OK)
    return CAIRN_ENOMEM;
  everest_apply_turn(st, st->yeti, st->items, order, st->n_items, events);
  st->n_items = 0;
  st->chooser = -1;
  st->phase = EVEREST_PHASE_EXEC;
  return CAIRN_OK;
}

/* Every order the chooser may give, as complete moves. */
void everest_write_order_moves(const struct everest_state *st, struct json_writer *w)
{
  int perms[24][EVEREST_MAX_ITEMS];
  int count = everest_permutations(st->n_items, perms), p, k;

  jw_array_begin(w);
  for (p = 0; p < count; p++) {
    jw_object_begin(w);
    jw_key_string(w, "type", "order");
    jw_key(w, "order");
    jw_array_begin(w);
    for (k = 0; k < st->n_items; k++)
      write_order_token(w, &st->items[perms[p][k]]);
    jw_array_end(w);
    jw_object_end(w);
  }
  jw_array_end(w);
}
