/*
 * determinize.c - a running game rebuilt from what one seat sees (the
 * determinize slot), for bots that must not peek.
 *
 * Read back from the view: the scenario, turn, phase, weather, who acts,
 * the routes, every card on the mountain (teams, roles, Strength), the
 * discard, used-Event and dead piles, the seat's own hand, the counts of
 * the hidden piles and the draft. Sampled from the caller's generator:
 * which cards lie in each hidden pile and in what order (another seat's
 * hand, every active pile, the Event deck), a route another seat chose in
 * secret, and the generator (the dice to come). Which cards can be where
 * follows from the scenario's set-up (new_game on a scratch state): a
 * seat's own cards stay in its piles, Events in the Event deck, Specials
 * (drawn into hands, discarded, shuffled back) and Dream Teams draftees
 * anywhere a seat's hidden cards lie.
 *
 * A few public facts are not in the view, so they are guessed the safe
 * way: no weather die counts as rolled this turn (the Radio's re-roll is
 * not offered), the seat acting moves first this turn, no Bivouac is
 * pitched, another seat declared no Supplies for tonight, a hidden
 * Climber has its printed Strength, and a summiter climbed its seat's
 * route. A bot may so misjudge a rare line; it never sees a hidden card.
 */
#include "engine/because-its-there/state.h"

#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"draft",    "route",      "discard", "advance-base-camp",
                                          "movement", "setup-camp", "night"};
static const char *const role_names[] = {"member",   "carried", "loaded", "cached",
                                         "unloaded", "camp",    "posted"};

/* Cards already placed from the view, so none is placed twice. */
struct placing {
  bool seen[BIT_CARDS];
};

/* A card's id from its public face, with its Strength and flags. */
static int read_card(struct engine_view_reader *r, const json_t *v, struct bit_state *st,
                     struct placing *p)
{
  int card = engine_vr_int(r, v, "id", 0, BIT_CARDS - 1);

  if (p->seen[card])
    r->bad = true;
  p->seen[card] = true;
  if (bit_cards[card].kind == BIT_CLIMBER) {
    st->strength[card] = (int8_t)engine_vr_int(r, v, "strength", 0, 8);
    st->summited[card] = json_is_true(json_object_get(v, "summited"));
    st->returned[card] = json_is_true(json_object_get(v, "returned"));
  }
  return card;
}

/* The cards of a pile as listed (bottom first), put on top one by one. */
static void read_pile(struct engine_view_reader *r, const json_t *list, int zone, int seat,
                      struct bit_state *st, struct placing *p)
{
  size_t i;

  for (i = 0; i < json_array_size(list) && !r->bad; i++)
    bit_put(st, read_card(r, json_array_get(list, i), st, p), zone, seat);
}

static void read_routes(struct engine_view_reader *r, const json_t *routes, struct bit_state *st,
                        struct placing *p)
{
  size_t i, j;

  for (i = 0; i < json_array_size(routes) && !r->bad; i++) {
    const json_t *v = json_array_get(routes, i);
    const json_t *terrain = engine_vr_array(r, v, "terrain", BIT_ROUTE_MAX);
    int seat = engine_vr_int(r, v, "seat", 0, st->head.seats - 1);

    st->route[seat] = bit_route_by_name(engine_vr_string(r, v, "route"));
    st->route_len[seat] = (int32_t)json_array_size(terrain);
    for (j = 0; j < json_array_size(terrain) && !r->bad; j++) {
      int c = read_card(r, json_array_get(terrain, j), st, p);

      st->route_card[seat][j] = c;
      st->loc[c].zone = BIT_Z_ROUTE;
      st->loc[c].seat = (int8_t)seat;
      st->loc[c].order = (int16_t)j;
    }
  }
}

static void read_teams(struct engine_view_reader *r, const json_t *teams, int seat,
                       struct bit_state *st, struct placing *p)
{
  size_t i, j;

  for (i = 0; i < json_array_size(teams) && !r->bad; i++) {
    const json_t *v = json_array_get(teams, i);
    const json_t *cards = engine_vr_array(r, v, "cards", BIT_CARDS);
    int t = engine_vr_int(r, v, "team", 0, BIT_TEAMS - 1);
    int at = engine_vr_int(r, v, "at", BIT_ABC, BIT_SUMMIT);

    st->team[seat][t].used = 1;
    st->team[seat][t].moved = engine_vr_bool(r, v, "moved");
    st->team[seat][t].ropes = engine_vr_bool(r, v, "fixed_ropes");
    st->team[seat][t].ladders = engine_vr_bool(r, v, "ladders");
    for (j = 0; j < json_array_size(cards) && !r->bad; j++) {
      const json_t *card = json_array_get(cards, j);
      int c = read_card(r, card, st, p);

      bit_place(st, c, seat, at, t, engine_vr_name(r, card, "role", role_names, 7));
    }
  }
}

static void read_left(struct engine_view_reader *r, const json_t *left, int seat, int viewer,
                      struct bit_state *st, struct placing *p)
{
  size_t i;

  for (i = 0; i < json_array_size(left) && !r->bad; i++) {
    const json_t *v = json_array_get(left, i);
    int c = read_card(r, v, st, p);

    bit_place(st, c, seat, engine_vr_int(r, v, "at", BIT_ABC, BIT_SUMMIT), -1,
              engine_vr_name(r, v, "role", role_names, 7));
    if (seat == viewer)
      st->use_supplies[c] = engine_vr_bool(r, v, "use_tonight");
  }
}

/* One seat; *hidden_hand is how many of its hand the viewer cannot see. */
static void read_seat(struct engine_view_reader *r, const json_t *v, int seat, int viewer,
                      struct bit_state *st, struct placing *p, int *hidden_hand, int *deck)
{
  const json_t *route = json_object_get(v, "route");
  int hand = engine_vr_int(r, v, "hand_count", 0, BIT_CARDS);

  if (engine_vr_int(r, v, "seat", 0, BIT_SEATS - 1) != seat)
    r->bad = true;
  if (json_is_string(route))
    st->route[seat] = bit_route_by_name(json_string_value(route));
  *hidden_hand = hand;
  if (seat == viewer) {
    read_pile(r, engine_vr_array(r, v, "hand", BIT_CARDS), BIT_Z_HAND, seat, st, p);
    *hidden_hand = 0;
  }
  *deck = engine_vr_int(r, v, "deck_count", 0, BIT_CARDS);
  read_pile(r, engine_vr_array(r, v, "discard", BIT_CARDS), BIT_Z_DISCARD, seat, st, p);
  st->done[seat] = engine_vr_bool(r, v, "done");
  st->discarded[seat] = engine_vr_int(r, v, "discarded", 0, BIT_CARDS);
  read_teams(r, engine_vr_array(r, v, "teams", BIT_TEAMS), seat, st, p);
  read_left(r, engine_vr_array(r, v, "on_mountain", BIT_CARDS), seat, viewer, st, p);
  if (json_object_get(v, "vp"))
    st->vp[seat] = engine_vr_int(r, v, "vp", -1000, 1000);
}

/* Where a hidden card may lie, by the scenario's set-up. */
enum origin { ORIGIN_BOX, ORIGIN_SEAT0, ORIGIN_SEAT1, ORIGIN_EVENTS, ORIGIN_FREE };

/* Dream Teams hands out its Sherpas, Camps and Supplies once the draft is
 * over, in seat order (setup.c's bit_draft): the same cards every game. */
static void dream_supplies(struct bit_state *ref)
{
  static const int kinds[] = {BIT_SHERPA, BIT_CAMP, BIT_SUPPLIES}, counts[] = {4, 4, 5};
  int seat, k, c, n;

  for (seat = 0; seat < 2; seat++)
    for (k = 0; k < 3; k++)
      for (c = 0, n = counts[k]; c < BIT_CARDS && n > 0; c++)
        if (bit_is(c, kinds[k]) && ref->loc[c].zone == BIT_Z_BOX) {
          bit_put(ref, c, BIT_Z_DECK, seat);
          n--;
        }
}

/* Each card's origin in a fresh game of this scenario. */
static void origins(const struct bit_state *st, const json_t *options, struct engine_rng *rng,
                    enum origin origin[BIT_CARDS], struct engine_view_reader *r)
{
  struct bit_state ref;
  struct engine_setup setup = {.seats = st->head.seats, .options = options};
  struct cairn_error err;
  uint8_t seed[ENGINE_SEED_BYTES] = {0};
  int c;

  memset(&ref, 0, sizeof(ref));
  ref.head = st->head;
  seed[0] = (uint8_t)engine_rng_next(rng); /* any seed: only where cards start is read */
  if (bit_new_game(&setup, seed, &ref.head, &err) != CAIRN_OK) {
    r->bad = true;
    return;
  }
  if (st->scenario == BIT_DREAM && st->phase != BIT_P_DRAFT)
    dream_supplies(&ref);
  for (c = 0; c < BIT_CARDS; c++) {
    const struct bit_loc *l = &ref.loc[c];

    if (l->zone == BIT_Z_EVENTS)
      origin[c] = bit_cards[c].kind == BIT_EVENT ? ORIGIN_EVENTS : ORIGIN_FREE;
    else if (l->zone == BIT_Z_DECK || l->zone == BIT_Z_HAND)
      origin[c] = st->scenario == BIT_DREAM && bit_cards[c].kind == BIT_CLIMBER
                      ? ORIGIN_FREE
                      : (l->seat == 0 ? ORIGIN_SEAT0 : ORIGIN_SEAT1);
    else if (st->scenario == BIT_DREAM && bit_cards[c].kind == BIT_CLIMBER)
      origin[c] = ORIGIN_FREE; /* drafted since, unless the view lists it available */
    else
      origin[c] = ORIGIN_BOX;
  }
}

/* Deal the unseen cards into the hidden piles: each seat's own cards and
 * the Events where they belong, a drafted Climber (Dream Teams) to a seat
 * with room, then the Specials into the places left, seats' or the Event
 * deck's, at random. */
static void deal_hidden(struct engine_view_reader *r, struct bit_state *st, const struct placing *p,
                        const enum origin origin[BIT_CARDS], const int hidden_hand[BIT_SEATS],
                        const int deck[BIT_SEATS], int events, struct engine_rng *rng)
{
  int pile[BIT_SEATS + 1][BIT_CARDS], n[BIT_SEATS + 1] = {0}, want[BIT_SEATS + 1] = {0};
  int specials[BIT_CARDS], n_specials = 0, room[BIT_CARDS], n_room = 0, c, s, i;

  for (s = 0; s < st->head.seats; s++)
    want[s] = hidden_hand[s] + deck[s];
  want[BIT_SEATS] = events;
  for (c = 0; c < BIT_CARDS; c++) {
    if (p->seen[c] || origin[c] == ORIGIN_BOX || origin[c] == ORIGIN_FREE)
      continue;
    s = origin[c] == ORIGIN_EVENTS ? BIT_SEATS : origin[c] == ORIGIN_SEAT1 ? 1 : 0;
    pile[s][n[s]++] = c;
  }
  for (c = 0; c < BIT_CARDS; c++) {
    if (p->seen[c] || origin[c] != ORIGIN_FREE)
      continue;
    if (bit_cards[c].kind != BIT_CLIMBER) {
      specials[n_specials++] = c;
      continue;
    }
    /* A drafted Climber: a seat with room, the first one tried at random. */
    s = (int)engine_rng_below(rng, (uint32_t)st->head.seats);
    if (n[s] >= want[s])
      s = st->head.seats - 1 - s;
    pile[s][n[s]++] = c;
  }
  for (s = 0; s <= BIT_SEATS; s++)
    for (i = n[s]; i < want[s] && n_room < BIT_CARDS; i++)
      room[n_room++] = s;
  if (n_room != n_specials) {
    r->bad = true;
    snprintf(r->what, sizeof(r->what), "hidden card counts");
    return;
  }
  engine_rng_shuffle(rng, room, n_room);
  for (i = 0; i < n_specials; i++)
    pile[room[i]][n[room[i]]++] = specials[i];
  for (s = 0; s <= BIT_SEATS && !r->bad; s++) {
    if (n[s] != want[s]) {
      r->bad = true;
      snprintf(r->what, sizeof(r->what), "hidden card counts");
      return;
    }
    engine_rng_shuffle(rng, pile[s], n[s]);
    for (i = 0; i < n[s]; i++)
      bit_put(st, pile[s][i],
              s == BIT_SEATS       ? BIT_Z_EVENTS
              : i < hidden_hand[s] ? BIT_Z_HAND
                                   : BIT_Z_DECK,
              s == BIT_SEATS ? -1 : s);
  }
}

/* What no view shows, guessed as this file's header says. */
static void guess_unshown(struct bit_state *st)
{
  int c, seat;

  st->rolled = 0;
  st->before_roll = st->weather;
  st->order[0] = st->head.seats == 2 ? st->active : 0;
  st->order[1] = 1 - st->order[0];
  st->mover = 0;
  for (seat = 0; seat < BIT_SEATS; seat++)
    st->bivouac[seat] = -1;
  for (c = 0; c < BIT_CARDS; c++)
    st->up_route[c] = st->summited[c] && st->loc[c].seat >= 0
                          ? (int8_t)st->route[(int)st->loc[c].seat]
                          : (int8_t)-1;
}

/* A route another seat chose in secret (Dream Teams, 1924's two seats are
 * one: 1924 is solo), drawn among those it could choose. */
static void sample_secret_routes(struct bit_state *st, int viewer, struct engine_rng *rng)
{
  int seat, route, options[BIT_ROUTES], n;

  if (st->phase != BIT_P_ROUTE)
    return;
  for (seat = 0; seat < st->head.seats; seat++) {
    if (seat == viewer || !st->done[seat] || st->route[seat] >= 0)
      continue;
    st->done[seat] = 0; /* bit_route_allowed asks of a seat still choosing */
    for (route = 0, n = 0; route < BIT_ROUTES; route++)
      if (bit_route_allowed(st, seat, route))
        options[n++] = route;
    st->done[seat] = 1;
    st->route[seat] = n > 0 ? options[engine_rng_below(rng, (uint32_t)n)] : BIT_SOUTH_COL;
  }
}

static void read_draft(struct engine_view_reader *r, const json_t *v, struct bit_state *st,
                       struct placing *p)
{
  const json_t *roll = engine_vr_array(r, v, "roll_off", BIT_SEATS);
  const json_t *available = engine_vr_array(r, v, "available", BIT_CARDS);
  size_t i;

  st->roll_off[0] = engine_vr_int(r, json_array_get(roll, 0), NULL, 0, 6);
  st->roll_off[1] = engine_vr_int(r, json_array_get(roll, 1), NULL, 0, 6);
  st->picks = engine_vr_int(r, v, "picks", 0, 12);
  for (i = 0; i < json_array_size(available) && !r->bad; i++)
    read_card(r, json_array_get(available, i), st, p); /* stays in the box */
}

static void reset_cards(struct bit_state *st)
{
  int c;

  for (c = 0; c < BIT_CARDS; c++) {
    st->loc[c].zone = BIT_Z_BOX;
    st->loc[c].seat = -1;
    st->loc[c].at = BIT_ABC;
    st->loc[c].team = -1;
    st->strength[c] = bit_cards[c].strength;
  }
  st->loc[BIT_SUMMIT].zone = BIT_Z_ROUTE; /* shared by every Route (setup.c) */
}

enum cairn_status bit_determinize(const char *text, size_t len, const json_t *options, int seat,
                                  struct engine_rng *rng, struct engine_game *game,
                                  struct cairn_error *err)
{
  static const char *const scenarios[] = {"1924", "1953", "1963", "dream-teams"};
  static const char *const weathers[] = {"good", "fair", "poor", "storm"};
  struct bit_state *st = (struct bit_state *)game;
  struct engine_view_reader r = {0};
  struct placing p = {{false}};
  enum origin origin[BIT_CARDS];
  int hidden_hand[BIT_SEATS] = {0}, deck[BIT_SEATS] = {0}, s;
  json_t *view = json_loadb(text, len, 0, NULL);
  const json_t *seats;

  if (!json_is_object(view) ||
      strcmp(engine_vr_string(&r, view, "phase"), "over") == 0) { /* bots decide in running games */
    r.bad = true;
    snprintf(r.what, sizeof(r.what), "phase");
  }
  reset_cards(st);
  p.seen[BIT_SUMMIT] = true;
  st->scenario = engine_vr_name(&r, view, "scenario", scenarios, 4);
  st->turn = engine_vr_int(&r, view, "turn", 1, BIT_LAST_TURN + 1);
  st->phase = engine_vr_name(&r, view, "phase", phase_names, 7);
  st->weather = engine_vr_name(&r, view, "weather", weathers, 4);
  st->active = engine_vr_int(&r, view, "active", 0, BIT_SEATS - 1);
  st->moving = engine_vr_int(&r, view, "moving", -1, BIT_TEAMS - 1);
  for (s = 0; s < BIT_SEATS; s++)
    st->route[s] = -1;
  read_routes(&r, engine_vr_array(&r, view, "routes", BIT_SEATS), st, &p);
  seats = engine_vr_array(&r, view, "seats", BIT_SEATS);
  if (json_array_size(seats) != (size_t)game->seats)
    r.bad = true;
  for (s = 0; s < game->seats && !r.bad; s++)
    read_seat(&r, json_array_get(seats, (size_t)s), s, seat, st, &p, &hidden_hand[s], &deck[s]);
  read_pile(&r, engine_vr_array(&r, view, "used_events", BIT_CARDS), BIT_Z_USED, -1, st, &p);
  read_pile(&r, engine_vr_array(&r, view, "dead", BIT_CARDS), BIT_Z_DEAD, -1, st, &p);
  if (st->scenario == BIT_DREAM && !r.bad)
    read_draft(&r, json_object_get(view, "draft"), st, &p);
  if (!r.bad)
    origins(st, options, rng, origin, &r);
  if (!r.bad)
    deal_hidden(&r, st, &p, origin, hidden_hand, deck,
                engine_vr_int(&r, view, "event_deck_count", 0, BIT_CARDS), rng);
  sample_secret_routes(st, seat, rng);
  guess_unshown(st);
  engine_rng_fork(rng, &st->head.rng);
  json_decref(view);
  return engine_vr_status(&r, "because-its-there", err);
}
