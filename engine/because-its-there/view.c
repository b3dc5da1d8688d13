/*
 * view.c - what each viewer sees, and the canonical serialisation.
 *
 * Hidden: every hand but the viewer's own, the order (and so the contents)
 * of every player's active pile and of the Event deck, including the solo
 * player's own pile (shown as counts). Public: the Routes, everything on
 * the mountain and in Advance Base Camp, discard piles, the used Event pile
 * and the dead pile. ENGINE_OMNISCIENT sees everything.
 */
#include "engine/because-its-there/state.h"

static const char *const role_names[] = {"member",   "carried", "loaded", "cached",
                                         "unloaded", "camp",    "posted"};

/* New reference: a card's public face. */
json_t *bit_card_json(const struct bit_state *st, int card)
{
  const struct bit_card *c = &bit_cards[card];
  json_t *o = json_pack("{s:i, s:s, s:s}", "id", card, "name", c->name, "kind",
                        bit_card_kind_name(c->kind));

  if (!o)
    return NULL;
  bit_card_face(o, card);
  if (c->kind == BIT_CLIMBER) {
    static const char *const skills[] = {"novice", "experienced", "veteran"};
    static const char *const specials[] = {NULL, "routefinding", "sherpas", "mechanical"};
    json_object_set_new(o, "strength", json_integer(st->strength[card]));
    json_object_set_new(o, "max", json_integer(c->strength));
    json_object_set_new(o, "skill", json_string(skills[(int)c->skill]));
    if (c->special)
      json_object_set_new(o, "special", json_string(specials[(int)c->special]));
    if (st->summited[card])
      json_object_set_new(o, "summited", json_true());
    if (st->returned[card])
      json_object_set_new(o, "returned", json_true());
  }
  if (c->kind == BIT_TERRAIN) {
    static const char *const types[] = {"glacier", "high", "extreme", "summit"};
    json_object_set_new(o, "terrain", json_string(types[(int)c->terrain]));
    json_object_set_new(o, "up", json_integer(c->up));
    json_object_set_new(o, "down", json_integer(c->down));
  }
  return o;
}

/* New reference: the cards of a pile, bottom first. */
static json_t *pile_json(const struct bit_state *st, int zone, int seat)
{
  int cards[BIT_CARDS], n = bit_pile(st, zone, seat, cards), i;
  json_t *list = json_array();

  for (i = 0; list && i < n; i++)
    json_array_append_new(list, bit_card_json(st, cards[i]));
  return list;
}

/* New reference: one seat as `viewer` may see it (its hand and deck only
 * where allowed). */
static json_t *seat_json(const struct bit_state *st, int seat, int viewer)
{
  json_t *o = json_object(), *teams = json_array(), *left = json_array();
  int t, c;

  if (!o || !teams || !left) {
    json_decref(o);
    json_decref(teams);
    json_decref(left);
    return NULL;
  }
  json_object_set_new(o, "seat", json_integer(seat));
  /* XII Dream Teams "Each player selects a Route": a secret, simultaneous
   * choice, so another seat sees only that one was made until both are. */
  json_object_set_new(o, "route",
                      st->route[seat] >= 0 && (st->phase != BIT_P_ROUTE || viewer == seat ||
                                               viewer == ENGINE_OMNISCIENT)
                          ? json_string(bit_route_name(st->route[seat]))
                          : json_null());
  json_object_set_new(o, "hand_count", json_integer(bit_pile_count(st, BIT_Z_HAND, seat)));
  if (viewer == seat || viewer == ENGINE_OMNISCIENT)
    json_object_set_new(o, "hand", pile_json(st, BIT_Z_HAND, seat));
  json_object_set_new(o, "deck_count", json_integer(bit_pile_count(st, BIT_Z_DECK, seat)));
  if (viewer == ENGINE_OMNISCIENT)
    json_object_set_new(o, "deck", pile_json(st, BIT_Z_DECK, seat));
  json_object_set_new(o, "discard", pile_json(st, BIT_Z_DISCARD, seat));
  json_object_set_new(o, "done", json_boolean(st->done[seat]));
  json_object_set_new(o, "discarded", json_integer(st->discarded[seat]));
  for (t = 0; t < BIT_TEAMS; t++) {
    json_t *team, *cards;
    if (!st->team[seat][t].used)
      continue;
    cards = json_array();
    for (c = 0; c < BIT_CARDS; c++) {
      const struct bit_loc *l = &st->loc[c];
      if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == t) {
        json_t *card = bit_card_json(st, c);
        json_object_set_new(card, "role", json_string(role_names[(int)l->role]));
        json_array_append_new(cards, card);
      }
    }
    team = json_pack("{s:i, s:i, s:b, s:b, s:b, s:o}", "team", t, "at", bit_team_at(st, seat, t),
                     "moved", st->team[seat][t].moved, "fixed_ropes", st->team[seat][t].ropes,
                     "ladders", st->team[seat][t].ladders, "cards", cards);
    json_array_append_new(teams, team);
  }
  for (c = 0; c < BIT_CARDS; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team < 0) {
      json_t *card = bit_card_json(st, c);
      json_object_set_new(card, "role", json_string(role_names[(int)l->role]));
      json_object_set_new(card, "at", json_integer(l->at));
      if (viewer == seat || viewer == ENGINE_OMNISCIENT)
        json_object_set_new(card, "use_tonight", json_boolean(st->use_supplies[c]));
      json_array_append_new(left, card);
    }
  }
  json_object_set_new(o, "teams", teams);
  json_object_set_new(o, "on_mountain", left);
  if (st->phase == BIT_P_OVER || st->scenario == BIT_DREAM)
    json_object_set_new(o, "vp", json_integer(st->vp[seat]));
  return o;
}

/* New reference: the laid-out routes, lowest card first. */
static json_t *routes_json(const struct bit_state *st)
{
  json_t *list = json_array();
  int seat, i;

  for (seat = 0; list && seat < st->head.seats; seat++) {
    json_t *cards = json_array();
    if (st->route[seat] < 0 || st->route_len[seat] == 0) {
      json_decref(cards);
      continue;
    }
    for (i = 0; cards && i < st->route_len[seat]; i++)
      json_array_append_new(cards, bit_card_json(st, st->route_card[seat][i]));
    json_array_append_new(list, json_pack("{s:i, s:s, s:o}", "seat", seat, "route",
                                          bit_route_name(st->route[seat]), "terrain", cards));
  }
  return list;
}

/* New reference: the state as `viewer` may see it. */
json_t *bit_view(const struct engine_game *game, int viewer)
{
  const struct bit_state *st = (const struct bit_state *)game;
  static const char *const phases[] = {"draft",    "route",      "discard", "advance-base-camp",
                                       "movement", "setup-camp", "night",   "over"};
  json_t *v, *seats = json_array();
  int seat;

  for (seat = 0; seats && seat < st->head.seats; seat++)
    json_array_append_new(seats, seat_json(st, seat, viewer));
  v = json_pack("{s:s, s:i, s:s, s:s, s:i, s:i, s:o, s:o, s:i, s:o, s:o, s:i}", "scenario",
                bit_scenario_name(st->scenario), "turn", st->turn, "phase", phases[st->phase],
                "weather", bit_weather_name(st->weather), "active", st->active, "moving",
                st->moving, "routes", routes_json(st), "seats", seats, "event_deck_count",
                bit_pile_count(st, BIT_Z_EVENTS, -1), "used_events", pile_json(st, BIT_Z_USED, -1),
                "dead", pile_json(st, BIT_Z_DEAD, -1), "summit", BIT_SUMMIT);
  if (!v)
    return NULL;
  if (viewer == ENGINE_OMNISCIENT)
    json_object_set_new(v, "event_deck", pile_json(st, BIT_Z_EVENTS, -1));
  if (st->scenario == BIT_DREAM) {
    json_t *avail = json_array();
    int c;
    for (c = BIT_CLIMBER_FIRST; avail && c < BIT_SHERPA_FIRST; c++)
      if (st->loc[c].zone == BIT_Z_BOX)
        json_array_append_new(avail, bit_card_json(st, c));
    json_object_set_new(v, "draft",
                        json_pack("{s:[i,i], s:i, s:o}", "roll_off", st->roll_off[0],
                                  st->roll_off[1], "picks", st->picks, "available", avail));
  }
  return v;
}

/* New references: small arrays for the serialisation. */
static json_t *ints8(const int8_t *a, int n)
{
  json_t *l = json_array();
  int i;

  for (i = 0; l && i < n; i++)
    json_array_append_new(l, json_integer(a[i]));
  return l;
}

static json_t *ints32(const int32_t *a, int n)
{
  json_t *l = json_array();
  int i;

  for (i = 0; l && i < n; i++)
    json_array_append_new(l, json_integer(a[i]));
  return l;
}

/* New reference: every field of the state (the head is added by
 * engine_serialize_text). */
json_t *bit_serialize(const struct engine_game *game)
{
  const struct bit_state *st = (const struct bit_state *)game;
  json_t *locs = json_array(), *teams = json_array();
  int c, seat, t;

  for (c = 0; locs && c < BIT_CARDS; c++) {
    const struct bit_loc *l = &st->loc[c];
    json_array_append_new(
        locs, json_pack("[i,i,i,i,i,i]", l->zone, l->seat, l->at, l->team, l->role, l->order));
  }
  for (seat = 0; teams && seat < BIT_SEATS; seat++)
    for (t = 0; t < BIT_TEAMS; t++) {
      const struct bit_team *tm = &st->team[seat][t];
      json_array_append_new(teams,
                            json_pack("[i,i,i,i]", tm->used, tm->moved, tm->ropes, tm->ladders));
    }
  return json_pack(
      "{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
      "s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
      "scenario", st->scenario, "phase", st->phase, "turn", st->turn, "weather", st->weather,
      "rolled", st->rolled, "before_roll", st->before_roll, "active", st->active, "order",
      ints32(st->order, BIT_SEATS), "mover", st->mover, "moving", st->moving, "done",
      ints32(st->done, BIT_SEATS), "discarded", ints32(st->discarded, BIT_SEATS), "bivouac",
      ints32(st->bivouac, BIT_SEATS), "route", ints32(st->route, BIT_SEATS), "route_len",
      ints32(st->route_len, BIT_SEATS), "route_card",
      ints32(&st->route_card[0][0], BIT_SEATS * BIT_ROUTE_MAX), "roll_off",
      ints32(st->roll_off, BIT_SEATS), "picks", st->picks, "winner", ints32(st->winner, BIT_SEATS),
      "success", ints32(st->success, BIT_SEATS), "vp", ints32(st->vp, BIT_SEATS), "loc", locs,
      "teams", teams, "strength", ints8(st->strength, BIT_CARDS), "summited",
      ints8(st->summited, BIT_CARDS), "returned", ints8(st->returned, BIT_CARDS), "up_route",
      ints8(st->up_route, BIT_CARDS), "use_supplies", ints8(st->use_supplies, BIT_CARDS));
}
