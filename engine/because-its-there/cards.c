/*
 * cards.c - the 100 cards (static table, RULES.md "Card data") and the
 * piles: every card has one location, and an ordered pile is the set of
 * cards in a zone sorted by `order` (highest = top).
 */
#include "engine/because-its-there/state.h"

#include <string.h>

#define TER(n, t, u, d)                                                                            \
  {                                                                                                \
    n, BIT_TERRAIN, t, u, d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0                                       \
  }
#define CLB(n, s, k, x)                                                                            \
  {                                                                                                \
    n, BIT_CLIMBER, 0, 0, 0, s, k, x, 0, 0, 0, 0, 0, 0, 0, 0                                       \
  }
#define SHP                                                                                        \
  {                                                                                                \
    "Sherpas", BIT_SHERPA, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0                                \
  }
#define SUP                                                                                        \
  {                                                                                                \
    "Supplies", BIT_SUPPLIES, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0                             \
  }
#define CMP                                                                                        \
  {                                                                                                \
    "Camp", BIT_CAMP, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0                                     \
  }
#define SPC(n, x)                                                                                  \
  {                                                                                                \
    n, BIT_SPECIAL, 0, 0, 0, 0, 0, x, 0, 0, 0, 0, 0, 0, 0, 0                                       \
  }
#define EVT(n, t, fx, amt, nov, end, o2, imk, imv, bsr)                                            \
  {                                                                                                \
    n, BIT_EVENT, t, 0, 0, 0, 0, 0, fx, amt, nov, end, o2, imk, imv, bsr                           \
  }

#define G  BIT_GLACIER
#define H  BIT_HIGH
#define E  BIT_EXTREME
#define V  BIT_VETERAN
#define X  BIT_EXPERIENCED
#define N  BIT_NOVICE
#define RF BIT_ROUTEFINDING
#define SH BIT_SHERPAS_SKILL
#define ME BIT_MECHANICAL
#define NO BIT_NO_SKILL
#define IW BIT_IM_WEATHER
#define IS BIT_IM_SKILL
#define IX BIT_IM_SPECIAL
#define I0 BIT_IM_NONE

/* game-data.md §1 "Reconstruction", in this order: Terrain 0..19 (19 = the
 * Summit), Climbers 20..37, Sherpas 38..45, Supplies 46..55, Camps 56..63,
 * Specials 64..69, Events 70..99 (Glacier 70..79, High 80..89, Extreme
 * 90..99). */
const struct bit_card bit_cards[BIT_CARDS] = {
    TER("Glacier A", G, 1, 1),
    TER("Glacier B", G, 1, 1),
    TER("Glacier C", G, 2, 1),
    TER("Glacier D", G, 1, 0),
    TER("Glacier E", G, 2, 1),
    TER("High A", H, 2, 1),
    TER("High B", H, 2, 1),
    TER("High C", H, 2, 1),
    TER("High D", H, 2, 1),
    TER("High E", H, 3, 1),
    TER("High F", H, 3, 1),
    TER("High G", H, 2, 2),
    TER("High H", H, 1, 1),
    TER("High I", H, 3, 2),
    TER("Extreme A", E, 3, 2),
    TER("Extreme B", E, 3, 2),
    TER("Extreme C", E, 4, 2),
    TER("Extreme D", E, 3, 1),
    TER("Extreme E", E, 4, 3),
    TER("Summit", BIT_SUMMIT_TYPE, 0, 0),
    /* Climbers 20..37 */
    CLB("Mallory", 7, V, RF),
    CLB("Irvine", 8, N, ME),
    CLB("Finch", 7, X, ME),
    CLB("Somervell", 7, X, NO),
    CLB("Norton", 6, V, NO),
    CLB("Bruce", 6, X, SH),
    CLB("Hunt", 6, V, SH),
    CLB("Hillary", 8, X, RF),
    CLB("Tenzing", 8, V, SH),
    CLB("Bourdillon", 7, X, ME),
    CLB("Evans", 6, X, NO),
    CLB("Lowe", 7, X, RF),
    CLB("Whittaker", 8, X, NO),
    CLB("Gombu", 7, V, SH),
    CLB("Jerstad", 7, X, NO),
    CLB("Bishop", 6, N, NO),
    CLB("Hornbein", 7, X, ME),
    CLB("Unsoeld", 7, V, RF),
    /* Sherpas 38..45, Supplies 46..55, Camps 56..63 */
    SHP,
    SHP,
    SHP,
    SHP,
    SHP,
    SHP,
    SHP,
    SHP,
    SUP,
    SUP,
    SUP,
    SUP,
    SUP,
    SUP,
    SUP,
    SUP,
    SUP,
    SUP,
    CMP,
    CMP,
    CMP,
    CMP,
    CMP,
    CMP,
    CMP,
    CMP,
    /* Specials 64..69 */
    SPC("Bivouac", BIT_BIVOUAC),
    SPC("Fixed Ropes", BIT_FIXED_ROPES),
    SPC("Ladders", BIT_LADDERS),
    SPC("Open-Circuit Oxygen", BIT_OPEN_O2),
    SPC("Closed-Circuit Oxygen", BIT_CLOSED_O2),
    SPC("Radio", BIT_RADIO),
    /* Glacier Events 70..79 */
    EVT("Hidden Crevasse", G, BIT_FX_RANDOM_ANY, 2, 0, 1, 0, IX, RF, 1),
    EVT("Serac Fall", G, BIT_FX_RANDOM_ANY, 99, 0, 0, 0, IW, BIT_GOOD, -2),
    EVT("Icefall Shifts", G, BIT_FX_NONE, 0, 0, 1, 0, IS, X, 2),
    EVT("Snow Bridge Collapses", G, BIT_FX_LOSE_LOADED, 0, 0, 0, 0, IX, RF, 0),
    EVT("Whiteout", G, BIT_FX_ALL, 1, 0, 1, 0, IW, BIT_FAIR, 0),
    EVT("Porters Balk", G, BIT_FX_DESERT, 0, 0, 0, 0, IX, SH, 1),
    EVT("Glacier Lassitude", G, BIT_FX_ALL, 1, 0, 0, 0, I0, 0, 2),
    EVT("Good Going", G, BIT_FX_TEAM, 1, 0, 0, 0, I0, 0, 1),
    EVT("Flank Avalanche", G, BIT_FX_RANDOM, 3, 0, 1, 0, IW, BIT_GOOD, -1),
    EVT("Lost in the Maze", G, BIT_FX_NONE, 0, 0, 1, 0, IX, RF, 3),
    /* High Events 80..89 */
    EVT("Windslab Avalanche", H, BIT_FX_RANDOM_ANY, 99, 0, 0, 0, IS, V, -2),
    EVT("Rockfall", H, BIT_FX_RANDOM, 2, 0, 0, 0, IW, BIT_GOOD, 1),
    EVT("High Winds", H, BIT_FX_ALL, 1, 0, 1, 0, IW, BIT_GOOD, 0),
    EVT("Altitude Sickness", H, BIT_FX_RANDOM, 2, 1, 0, 0, IS, V, 1),
    EVT("Oxygen Set Fails", H, BIT_FX_TEAM, -1, 0, 0, 1, IX, ME, 2),
    EVT("Tents Shredded", H, BIT_FX_CAMP_LOST, 0, 0, 0, 0, IW, BIT_FAIR, 0),
    EVT("Sherpas Refuse", H, BIT_FX_NONE, 0, 0, 1, 0, IX, SH, 2),
    EVT("Weather Closing In", H, BIT_FX_WEATHER_WORSE, 0, 0, 0, 0, I0, 0, 1),
    EVT("Second Wind", H, BIT_FX_TEAM, 1, 0, 0, 0, I0, 0, 3),
    EVT("Frostbite", H, BIT_FX_RANDOM, 2, 0, 0, 0, IW, BIT_FAIR, -1),
    /* Extreme Events 90..99 */
    EVT("Cornice Breaks", E, BIT_FX_RANDOM, 99, 0, 0, 0, IX, RF, -2),
    EVT("Hypoxia", E, BIT_FX_ALL, 2, 0, 0, 0, IX, ME, 0),
    EVT("Oxygen Runs Out", E, BIT_FX_TEAM, -1, 0, 1, 1, IX, ME, 1),
    EVT("Jet Stream", E, BIT_FX_ALL, 1, 0, 1, 0, IW, BIT_GOOD, -1),
    EVT("Storm Breaks", E, BIT_FX_STORM, 0, 0, 0, 0, IW, BIT_GOOD, 0),
    EVT("Snow Blindness", E, BIT_FX_RANDOM, 1, 0, 1, 0, IS, X, 1),
    EVT("Exhaustion", E, BIT_FX_TEAM_NONVET, 1, 0, 0, 0, IS, V, 1),
    EVT("Rock Step", E, BIT_FX_NONE, 0, 0, 1, 0, IX, RF, 2),
    EVT("Clearing Skies", E, BIT_FX_WEATHER_BETTER, 0, 0, 0, 0, I0, 0, 2),
    EVT("Fall", E, BIT_FX_RANDOM, 3, 0, 1, 0, IS, V, 3),
};

bool bit_is(int card, int kind)
{
  return card >= 0 && card < BIT_CARDS && bit_cards[card].kind == kind;
}

/* enum bit_special of a Special card, -1 for any other card. */
int bit_special_of(int card)
{
  return bit_is(card, BIT_SPECIAL) ? bit_cards[card].special : -1;
}

const char *bit_card_kind_name(int kind)
{
  static const char *const names[] = {"terrain", "climber", "sherpas", "supplies",
                                      "camp",    "special", "event"};
  return kind >= 0 && kind <= BIT_EVENT ? names[kind] : "?";
}

static bool in_pile(const struct bit_loc *l, int zone, int seat)
{
  return l->zone == zone && (seat < 0 || l->seat == seat);
}

/* The cards of a pile, bottom first (ascending order, then id), into out
 * (room for BIT_CARDS); returns how many. seat -1 = any seat. */
int bit_pile(const struct bit_state *st, int zone, int seat, int *out)
{
  int n = 0, i, j;

  for (i = 0; i < BIT_CARDS; i++)
    if (in_pile(&st->loc[i], zone, seat))
      out[n++] = i;
  /* insertion sort by order: piles are small */
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && st->loc[out[j - 1]].order > st->loc[out[j]].order; j--) {
      int t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  return n;
}

int bit_pile_count(const struct bit_state *st, int zone, int seat)
{
  int n = 0, i;

  for (i = 0; i < BIT_CARDS; i++)
    n += in_pile(&st->loc[i], zone, seat);
  return n;
}

static int16_t top_order(const struct bit_state *st, int zone, int seat, int sign)
{
  int16_t best = 0;
  int i, any = 0;

  for (i = 0; i < BIT_CARDS; i++)
    if (in_pile(&st->loc[i], zone, seat) && (!any || sign * st->loc[i].order > sign * best)) {
      best = st->loc[i].order;
      any = 1;
    }
  return any ? (int16_t)(best + sign) : 0;
}

static void set_loc(struct bit_state *st, int card, int zone, int seat, int16_t order)
{
  struct bit_loc *l = &st->loc[card];

  memset(l, 0, sizeof(*l));
  l->zone = (int8_t)zone;
  l->seat = (int8_t)seat;
  l->at = BIT_ABC;
  l->team = -1;
  l->order = order;
}

/* Put `card` on top of a pile (seat -1 for shared piles). */
void bit_put(struct bit_state *st, int card, int zone, int seat)
{
  int16_t order = top_order(st, zone, seat, 1);

  st->loc[card].zone = BIT_Z_BOX; /* not counted while looking */
  set_loc(st, card, zone, seat, order);
}

/* Shuffle a pile in place with the game's generator. */
void bit_shuffle(struct bit_state *st, int zone, int seat)
{
  int cards[BIT_CARDS];
  int n = bit_pile(st, zone, seat, cards), i;

  engine_rng_shuffle(&st->head.rng, cards, n);
  for (i = 0; i < n; i++)
    st->loc[cards[i]].order = (int16_t)i;
}

/* The top card of a pile, -1 when empty. */
int bit_top(const struct bit_state *st, int zone, int seat)
{
  int best = -1, i;

  for (i = 0; i < BIT_CARDS; i++)
    if (in_pile(&st->loc[i], zone, seat) && (best < 0 || st->loc[i].order > st->loc[best].order))
      best = i;
  return best;
}

/* Put `card` on the mountain: at a Terrain card or BIT_ABC. */
void bit_place(struct bit_state *st, int card, int seat, int at, int team, int role)
{
  set_loc(st, card, BIT_Z_MOUNTAIN, seat, 0);
  st->loc[card].at = (int8_t)at;
  st->loc[card].team = (int8_t)team;
  st->loc[card].role = (int8_t)role;
}

/* The invariants of the card locations: each kind only where it may be,
 * every team valid, and pile orders distinct. */
bool bit_check_cards(const struct bit_state *st)
{
  int i, j, total = 0;

  for (i = 0; i < BIT_CARDS; i++) {
    const struct bit_loc *l = &st->loc[i];
    int kind = bit_cards[i].kind;

    total++;
    if (l->zone < BIT_Z_BOX || l->zone > BIT_Z_MOUNTAIN)
      return false;
    if (l->zone == BIT_Z_ROUTE && kind != BIT_TERRAIN)
      return false;
    if ((l->zone == BIT_Z_EVENTS || l->zone == BIT_Z_USED) && kind != BIT_EVENT &&
        !(l->zone == BIT_Z_EVENTS && kind == BIT_SPECIAL))
      return false;
    if ((l->zone == BIT_Z_DECK || l->zone == BIT_Z_HAND || l->zone == BIT_Z_DISCARD) &&
        (kind == BIT_TERRAIN || kind == BIT_EVENT))
      return false;
    if (l->zone == BIT_Z_MOUNTAIN) {
      if (kind == BIT_TERRAIN || kind == BIT_EVENT || kind == BIT_SPECIAL)
        return false;
      if (l->team >= 0 && !st->team[l->seat][l->team].used)
        return false;
    }
  }
  /* Orders within the ordered piles are distinct (a deck is a sequence). */
  for (i = 0; i < BIT_CARDS; i++) {
    const struct bit_loc *l = &st->loc[i];
    if (l->zone != BIT_Z_DECK && l->zone != BIT_Z_EVENTS)
      continue;
    for (j = i + 1; j < BIT_CARDS; j++) {
      const struct bit_loc *m = &st->loc[j];
      if (l->zone == m->zone && l->seat == m->seat && l->order == m->order)
        return false;
    }
  }
  return total == BIT_CARDS;
}
