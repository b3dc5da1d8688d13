/*
 * view.c - what each viewer sees, and the canonical serialisation.
 *
 * Hidden: every hand but the viewer's own, the order (and so the contents)
 * of every player's active pile and of the Event deck, including the solo
 * player's own pile (shown as counts). Public: the Routes, everything on
 * the mountain and in Advance Base Camp, discard piles, the used Event pile
 * and the dead pile. ENGINE_OMNISCIENT sees everything.
 *
 * The view is written as JSON text (jsonw.h), with no tree built per
 * request.
 */
#include "engine/because-its-there/state.h"

static const char *const role_names[] = {"member",   "carried", "loaded", "cached",
                                         "unloaded", "camp",    "posted"};

/* The members of a card's public face, inside an object the caller opened
 * (and may add to). */
static void write_card_members(struct json_writer *w, const struct bit_state *st, int card)
{
  const struct bit_card *c = &bit_cards[card];

  jw_key_int(w, "id", card);
  jw_key_string(w, "name", c->name);
  jw_key_string(w, "kind", bit_card_kind_name(c->kind));
  bit_write_card_face(w, card);
  if (c->kind == BIT_CLIMBER) {
    static const char *const skills[] = {"novice", "experienced", "veteran"};
    static const char *const specials[] = {NULL, "routefinding", "sherpas", "mechanical"};
    jw_key_int(w, "strength", st->strength[card]);
    jw_key_int(w, "max", c->strength);
    jw_key_string(w, "skill", skills[(int)c->skill]);
    if (c->special)
      jw_key_string(w, "special", specials[(int)c->special]);
    if (st->summited[card])
      jw_key_bool(w, "summited", true);
    if (st->returned[card])
      jw_key_bool(w, "returned", true);
  }
  if (c->kind == BIT_TERRAIN) {
    static const char *const types[] = {"glacier", "high", "extreme", "summit"};
    jw_key_string(w, "terrain", types[(int)c->terrain]);
    jw_key_int(w, "up", c->up);
    jw_key_int(w, "down", c->down);
  }
}

/* A card's public face. */
static void write_card(struct json_writer *w, const struct bit_state *st, int card)
{
  jw_object_begin(w);
  write_card_members(w, st, card);
  jw_object_end(w);
}

/* The cards of a pile, bottom first. */
static void write_pile(struct json_writer *w, const struct bit_state *st, int zone, int seat)
{
  int cards[BIT_CARDS], n = bit_pile(st, zone, seat, cards), i;

  jw_array_begin(w);
  for (i = 0; i < n; i++)
    write_card(w, st, cards[i]);
  jw_array_end(w);
}

/* The Climbing Teams of `seat` in use, each with its cards on the mountain. */
static void write_teams(struct json_writer *w, const struct bit_state *st, int seat)
{
  int t, c;

  jw_array_begin(w);
  for (t = 0; t < BIT_TEAMS; t++) {
    if (!st->team[seat][t].used)
      continue;
    jw_object_begin(w);
    jw_key_int(w, "team", t);
    jw_key_int(w, "at", bit_team_at(st, seat, t));
    jw_key_bool(w, "moved", st->team[seat][t].moved);
    jw_key_bool(w, "fixed_ropes", st->team[seat][t].ropes);
    jw_key_bool(w, "ladders", st->team[seat][t].ladders);
    jw_key(w, "cards");
    jw_array_begin(w);
    for (c = 0; c < BIT_CARDS; c++) {
      const struct bit_loc *l = &st->loc[c];
      if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == t) {
        jw_object_begin(w);
        write_card_members(w, st, c);
        jw_key_string(w, "role", role_names[(int)l->role]);
        jw_object_end(w);
      }
    }
    jw_array_end(w);
    jw_object_end(w);
  }
  jw_array_end(w);
}

/* The cards of `seat` on the mountain in no team (cached, camps...); what
 * it declared for tonight only to itself. */
static void write_left(struct json_writer *w, const struct bit_state *st, int seat, int viewer)
{
  int c;

  jw_array_begin(w);
  for (c = 0; c < BIT_CARDS; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team < 0) {
      jw_object_begin(w);
      write_card_members(w, st, c);
      jw_key_string(w, "role", role_names[(int)l->role]);
      jw_key_int(w, "at", l->at);
      if (viewer == seat || viewer == ENGINE_OMNISCIENT)
        jw_key_bool(w, "use_tonight", st->use_supplies[c]);
      jw_object_end(w);
    }
  }
  jw_array_end(w);
}

/* One seat as `viewer` may see it (its hand and deck only where allowed). */
static void write_seat(struct json_writer *w, const struct bit_state *st, int seat, int viewer)
{
  /* XII Dream Teams "Each player selects a Route": a secret, simultaneous
   * choice, so another seat sees only that one was made until both are. */
  bool route_seen = st->route[seat] >= 0 &&
                    (st->phase != BIT_P_ROUTE || viewer == seat || viewer == ENGINE_OMNISCIENT);

  jw_object_begin(w);
  jw_key_int(w, "seat", seat);
  jw_key_string(w, "route", route_seen ? bit_route_name(st->route[seat]) : NULL);
  jw_key_int(w, "hand_count", bit_pile_count(st, BIT_Z_HAND, seat));
  if (viewer == seat || viewer == ENGINE_OMNISCIENT) {
    jw_key(w, "hand");
    write_pile(w, st, BIT_Z_HAND, seat);
  }
  jw_key_int(w, "deck_count", bit_pile_count(st, BIT_Z_DECK, seat));
  if (viewer == ENGINE_OMNISCIENT) {
    jw_key(w, "deck");
    write_pile(w, st, BIT_Z_DECK, seat);
  }
  jw_key(w, "discard");
  write_pile(w, st, BIT_Z_DISCARD, seat);
  jw_key_bool(w, "done", st->done[seat]);
  jw_key_int(w, "discarded", st->discarded[seat]);
  jw_key(w, "teams");
  write_teams(w, st, seat);
  jw_key(w, "on_mountain");
  write_left(w, st, seat, viewer);
  if (st->phase == BIT_P_OVER || st->scenario == BIT_DREAM)
    jw_key_int(w, "vp", st->vp[seat]);
  jw_object_end(w);
}

/* The laid-out routes, lowest card first. */
static void write_routes(struct json_writer *w, const struct bit_state *st)
{
  int seat, i;

  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++) {
    if (st->route[seat] < 0 || st->route_len[seat] == 0)
      continue;
    jw_object_begin(w);
    jw_key_int(w, "seat", seat);
    jw_key_string(w, "route", bit_route_name(st->route[seat]));
    jw_key(w, "terrain");
    jw_array_begin(w);
    for (i = 0; i < st->route_len[seat]; i++)
      write_card(w, st, st->route_card[seat][i]);
    jw_array_end(w);
    jw_object_end(w);
  }
  jw_array_end(w);
}

/* XII Dream Teams: the roll-off, the picks so far and the Climbers left. */
static void write_draft(struct json_writer *w, const struct bit_state *st)
{
  int c;

  jw_object_begin(w);
  jw_key(w, "roll_off");
  jw_int_array(w, st->roll_off, 2);
  jw_key_int(w, "picks", st->picks);
  jw_key(w, "available");
  jw_array_begin(w);
  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_BOX)
      write_card(w, st, c);
  jw_array_end(w);
  jw_object_end(w);
}

/* The write_view slot: the state as `viewer` may see it. */
void bit_write_view(const struct engine_game *game, int viewer, struct json_writer *w)
{
  const struct bit_state *st = (const struct bit_state *)game;
  static const char *const phases[] = {"draft",    "route",      "discard", "advance-base-camp",
                                       "movement", "setup-camp", "night",   "over"};
  int seat;

  jw_object_begin(w);
  jw_key_string(w, "scenario", bit_scenario_name(st->scenario));
  jw_key_int(w, "turn", st->turn);
  jw_key_string(w, "phase", phases[st->phase]);
  jw_key_string(w, "weather", bit_weather_name(st->weather));
  jw_key_int(w, "active", st->active);
  jw_key_int(w, "moving", st->moving);
  jw_key(w, "routes");
  write_routes(w, st);
  jw_key(w, "seats");
  jw_array_begin(w);
  for (seat = 0; seat < st->head.seats; seat++)
    write_seat(w, st, seat, viewer);
  jw_array_end(w);
  jw_key_int(w, "event_deck_count", bit_pile_count(st, BIT_Z_EVENTS, -1));
  jw_key(w, "used_events");
  write_pile(w, st, BIT_Z_USED, -1);
  jw_key(w, "dead");
  write_pile(w, st, BIT_Z_DEAD, -1);
  jw_key_int(w, "summit", BIT_SUMMIT);
  if (viewer == ENGINE_OMNISCIENT) {
    jw_key(w, "event_deck");
    write_pile(w, st, BIT_Z_EVENTS, -1);
  }
  if (st->scenario == BIT_DREAM) {
    jw_key(w, "draft");
    write_draft(w, st);
  }
  jw_object_end(w);
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
