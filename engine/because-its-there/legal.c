/*
 * legal.c - every move a seat may submit now, as complete move objects
 * (no compact form). Each candidate is checked with the same predicate
 * apply_move uses, so listed == accepted.
 */
#include "engine/because-its-there/state.h"

#include <stdlib.h>

struct bit_move bit_move_blank(int type)
{
  struct bit_move m = {.type = type,
                       .card = -1,
                       .team = -1,
                       .dir = 0,
                       .route = -1,
                       .at = -1,
                       .climber = -1,
                       .count = -1,
                       .n_use = 0};
  return m;
}

/* The moves found so far; room for every candidate the enumerators try.
 * The Night is the bound: at most 432 `rest` declarations (ten Supplies
 * spread over the seven Terrain cards of one route, three cards holding
 * two, four one: 3^3 * 2^4) plus a Bivouac per Terrain card; the deals of
 * today give a seat at most six Supplies, so 64 (README.md, Moves). */
struct found {
  int n;
  struct bit_move moves[512];
};

static void add(struct found *list, const struct bit_move *m)
{
  if (list->n < (int)(sizeof(list->moves) / sizeof(list->moves[0])))
    list->moves[list->n++] = *m;
}

static bool seat_acts(const struct bit_state *st, int seat)
{
  int seats[ENGINE_MAX_SEATS], n, i;

  n = st->head.module ? st->head.module->to_act(&st->head, seats) : 0;
  for (i = 0; i < n; i++)
    if (seats[i] == seat)
      return true;
  return false;
}

static void specials(const struct bit_state *st, int seat, struct found *list)
{
  int c, t, x;

  for (c = BIT_SPECIAL_FIRST; c < BIT_EVENT_FIRST; c++) {
    struct bit_move m = bit_move_blank(BIT_M_PLAY);
    m.card = c;
    if (st->loc[c].zone != BIT_Z_HAND || st->loc[c].seat != seat)
      continue;
    switch (bit_special_of(c)) {
    case BIT_BIVOUAC:
      for (x = 0; x <= BIT_SUMMIT; x++) {
        m.at = x;
        if (bit_play_ok(st, seat, &m))
          add(list, &m);
      }
      break;
    case BIT_FIXED_ROPES:
    case BIT_LADDERS:
      for (t = 0; t < BIT_TEAMS; t++) {
        m.team = t;
        if (bit_play_ok(st, seat, &m))
          add(list, &m);
      }
      break;
    case BIT_OPEN_O2:
    case BIT_CLOSED_O2:
      for (x = BIT_CLIMBER_FIRST; x < BIT_SHERPA_FIRST; x++) {
        m.climber = x;
        if (bit_play_ok(st, seat, &m))
          add(list, &m);
      }
      break;
    default:
      if (bit_play_ok(st, seat, &m))
        add(list, &m);
      break;
    }
  }
}

static void strikes(const struct bit_state *st, int seat, struct found *list)
{
  int c;

  for (c = BIT_CAMP_FIRST; c < BIT_SPECIAL_FIRST; c++) {
    struct bit_move m = bit_move_blank(BIT_M_STRIKE);
    m.card = c;
    if (bit_strike_ok(st, seat, c))
      add(list, &m);
  }
}

/* Orders `rest` moves the most declarations first, then by the cards
 * listed (each list is ascending). */
static int fewer_declarations(const void *a, const void *b)
{
  const struct bit_move *x = a, *y = b;
  int i;

  if (x->n_use != y->n_use)
    return y->n_use - x->n_use;
  for (i = 0; i < x->n_use; i++)
    if (x->use[i] != y->use[i])
      return x->use[i] - y->use[i];
  return 0;
}

/* Night: the seat's one decision, a `rest` for every set of its Unloaded
 * Supplies it may declare together (the empty set included), the most
 * declarations first. */
static void rests(const struct bit_state *st, int seat, struct found *list)
{
  int declarable[BIT_SUPPLIES_N], n = 0, c, mask, i, first = list->n;

  for (c = BIT_SUPPLY_FIRST; c < BIT_CAMP_FIRST; c++)
    if (bit_declarable(st, seat, c))
      declarable[n++] = c;
  for (mask = 0; mask < 1 << n; mask++) {
    struct bit_move m = bit_move_blank(BIT_M_REST);
    for (i = 0; i < n; i++)
      if (mask & 1 << i)
        m.use[m.n_use++] = declarable[i];
    if (bit_declaration_ok(st, seat, &m))
      add(list, &m);
  }
  qsort(list->moves + first, (size_t)(list->n - first), sizeof(list->moves[0]), fewer_declarations);
}

static void movement(const struct bit_state *st, int seat, struct found *list)
{
  static const int cargo_types[] = {BIT_M_CACHE, BIT_M_UNLOAD, BIT_M_LOAD, BIT_M_CARRY,
                                    BIT_M_LEAVE};
  int t, d, c, k;

  for (t = 0; t < BIT_TEAMS; t++) {
    if (!st->team[seat][t].used)
      continue;
    for (d = 1; d >= -1; d -= 2) {
      struct bit_move m = bit_move_blank(BIT_M_MOVE);
      m.team = t;
      m.dir = d;
      if (bit_move_ok(st, seat, t, d, -1))
        add(list, &m);
      /* 1963 Player Two descending the South Col from the Summit */
      if (d < 0 && seat == 1 && st->scenario == BIT_1963 && bit_move_ok(st, seat, t, d, 0)) {
        m.route = st->route[0];
        add(list, &m);
      }
    }
    for (k = 0; k < 5; k++)
      for (c = BIT_CLIMBER_FIRST; c < BIT_CAMP_FIRST; c++) {
        struct bit_move m = bit_move_blank(cargo_types[k]);
        m.team = t;
        if (cargo_types[k] == BIT_M_CARRY)
          m.climber = c;
        else
          m.card = c;
        if (bit_cargo_move_ok(st, seat, &m))
          add(list, &m);
      }
  }
  if (st->moving >= 0) {
    struct bit_move m = bit_move_blank(BIT_M_END);
    m.team = st->moving;
    add(list, &m);
  }
  specials(st, seat, list);
  strikes(st, seat, list);
  {
    struct bit_move m = bit_move_blank(BIT_M_DONE);
    add(list, &m);
  }
}

/* New reference: the moves `seat` may make now. */
static void enumerate(const struct bit_state *st, int seat, struct found *list)
{
  int c, t, x;

  list->n = 0;
  if (seat < 0 || seat >= st->head.seats || !seat_acts(st, seat))
    return;
  switch (st->phase) {
  case BIT_P_DRAFT:
    for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
      if (st->loc[c].zone == BIT_Z_BOX) {
        struct bit_move m = bit_move_blank(BIT_M_DRAFT);
        m.climber = c;
        add(list, &m);
      }
    break;
  case BIT_P_ROUTE:
    for (x = 0; x < BIT_ROUTES; x++)
      if (bit_route_allowed(st, seat, x)) {
        struct bit_move m = bit_move_blank(BIT_M_ROUTE);
        m.route = x;
        add(list, &m);
      }
    break;
  case BIT_P_DISCARD:
    for (c = 0; c < BIT_CARDS && st->discarded[seat] < 3; c++)
      if (st->loc[c].zone == BIT_Z_HAND && st->loc[c].seat == seat) {
        struct bit_move m = bit_move_blank(BIT_M_DISCARD);
        m.card = c;
        add(list, &m);
      }
    specials(st, seat, list);
    /* VIII.B "may draw ... to a maximum of five": every count, the most
     * first (the bare {"type":"draw"} is accepted too and means the most). */
    for (x = bit_draw_max(st, seat); x >= 0; x--) {
      struct bit_move m = bit_move_blank(BIT_M_DRAW);
      m.count = x;
      add(list, &m);
    }
    break;
  case BIT_P_ABC:
    for (c = BIT_CLIMBER_FIRST; c < BIT_CAMP_FIRST; c++)
      for (t = -1; t < BIT_TEAMS; t++)
        if ((t < 0 || st->team[seat][t].used) && bit_deploy_ok(st, seat, c, t)) {
          struct bit_move m = bit_move_blank(BIT_M_DEPLOY);
          m.card = c;
          m.team = t;
          add(list, &m);
        }
    {
      struct bit_move m = bit_move_blank(BIT_M_READY);
      add(list, &m);
    }
    break;
  case BIT_P_MOVE:
    movement(st, seat, list);
    break;
  case BIT_P_CAMP:
    for (c = BIT_CAMP_FIRST; c < BIT_SPECIAL_FIRST; c++)
      for (x = 0; x <= BIT_SUMMIT; x++)
        if (bit_camp_ok(st, seat, c, x)) {
          struct bit_move m = bit_move_blank(BIT_M_CAMP);
          m.card = c;
          m.at = x;
          add(list, &m);
        }
    strikes(st, seat, list);
    {
      struct bit_move m = bit_move_blank(BIT_M_READY);
      add(list, &m);
    }
    break;
  case BIT_P_NIGHT:
    specials(st, seat, list);
    rests(st, seat, list);
    break;
  default:
    break;
  }
}

/* The moves `seat` may make now, as complete move objects. */
void bit_write_legal(const struct engine_game *game, int seat, struct json_writer *w)
{
  struct found found;
  int i;

  enumerate((const struct bit_state *)game, seat, &found);
  jw_array_begin(w);
  for (i = 0; i < found.n; i++)
    bit_write_move(w, &found.moves[i]);
  jw_array_end(w);
}

/* New reference: the legal move number `choice` modulo their count, or
 * NULL when the seat may not act. Never touches the game's generator. */
json_t *bit_sample_move(const struct engine_game *game, int seat, uint64_t choice)
{
  struct found found;

  enumerate((const struct bit_state *)game, seat, &found);
  if (found.n == 0)
    return NULL;
  return bit_move_json(&found.moves[choice % (uint64_t)found.n]);
}
