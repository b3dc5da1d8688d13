/*
 * movement.c - X. Movement Phase: who moves first, moving a Climbing Team
 * one card at a time and paying the exit cost (X.B), the Event draw for
 * the card entered (X.C), caching, unloading, loading, carrying and
 * leaving cards behind (X.A.3-6), and the end of movement.
 */
#include "engine/because-its-there/state.h"

#include <stdio.h>

static enum cairn_status near_death_ends(struct bit_state *st, int climber, int before,
                                         json_t *events, struct cairn_error *err);

/* The name a player reads for a place: a Terrain card, the Summit, or
 * Advance Base Camp. */
const char *bit_place_name(int at)
{
  if (at == BIT_ABC)
    return "Advance Base Camp";
  return at >= 0 && at <= BIT_SUMMIT ? bit_cards[at].name : "?";
}

/* The route (a seat index) a Terrain card is laid in; -1 for the Summit
 * and Advance Base Camp. */
int bit_route_of(const struct bit_state *st, int at)
{
  if (at < 0 || at >= BIT_SUMMIT)
    return -1;
  return st->loc[at].zone == BIT_Z_ROUTE ? st->loc[at].seat : -1;
}

int bit_index_of(const struct bit_state *st, int at)
{
  return at >= 0 && at < BIT_SUMMIT ? st->loc[at].order : -1;
}

/* XII 1963: Player Two climbs the West Ridge and descends the South Col
 * (Player One's route, seat 0), so from the Summit it may go down either,
 * and on the South Col it may only go down. */
static bool cross_descent(const struct bit_state *st, int seat)
{
  return st->scenario == BIT_1963 && seat == 1;
}

/* The card a step leads to (BIT_ABC for Advance Base Camp), or -2 when
 * there is none. `route` is the route index to descend from the Summit,
 * -1 for the seat's own. */
int bit_step_target(const struct bit_state *st, int seat, int at, int dir, int route)
{
  int r, i;

  if (route >= 0 && at != BIT_SUMMIT)
    return -2;
  if (at == BIT_ABC)
    return dir > 0 ? st->route_card[seat][0] : -2;
  if (at == BIT_SUMMIT) {
    if (dir > 0)
      return -2;
    r = route < 0 ? seat : route;
    if (r != seat && !(cross_descent(st, seat) && r == 0))
      return -2;
    return st->route_card[r][st->route_len[r] - 1];
  }
  r = bit_route_of(st, at);
  i = bit_index_of(st, at);
  if (r < 0)
    return -2;
  if (r != seat && dir > 0)
    return -2; /* 1963 Player Two only descends the South Col */
  if (dir > 0)
    return i + 1 < st->route_len[r] ? st->route_card[r][i + 1] : BIT_SUMMIT;
  return i > 0 ? st->route_card[r][i - 1] : BIT_ABC;
}

/* X.B / X.A.7 "Summit": the Strength cost of leaving `at` in `dir`. */
static int exit_cost(int at, int dir)
{
  if (at == BIT_ABC || at == BIT_SUMMIT)
    return 0;
  return dir > 0 ? bit_cards[at].up : bit_cards[at].down;
}

/* VI "fewest Climbers on a Route": Climbers on Terrain cards. */
int bit_climbers_on_route(const struct bit_state *st, int seat)
{
  int c, n = 0;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at != BIT_ABC)
      n++;
  return n;
}

bool bit_has_any_climber(const struct bit_state *st, int at)
{
  int c;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].at == at)
      return true;
  return false;
}

bool bit_has_climber(const struct bit_state *st, int seat, int at)
{
  int c;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at == at)
      return true;
  return false;
}

/* X.A.7: in a Storm, Supplies (Cached or Unloaded) and Camps on Terrain
 * cards without a Climber go to the discard pile. */
enum cairn_status bit_storm_strip(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  int c;
  enum cairn_status s;

  for (c = BIT_SUPPLY_FIRST; c < BIT_SPECIAL_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone != BIT_Z_MOUNTAIN || l->at == BIT_ABC || l->team >= 0 ||
        bit_has_any_climber(st, l->at))
      continue;
    s = bit_to_discard(st, c, events, "storm: unattended", err);
    if (s != CAIRN_OK)
      return s;
  }
  return CAIRN_OK;
}

/* X.B.1 / Night 6: below Near Death (0) the Climber dies. amount 99 kills. */
enum cairn_status bit_lose_strength(struct bit_state *st, int climber, int amount, json_t *events,
                                    const char *why, struct cairn_error *err)
{
  int before = st->strength[climber];
  int after = amount >= 99 ? -1 : before - amount;
  enum cairn_status s;

  if (after > bit_cards[climber].strength)
    after = bit_cards[climber].strength; /* Night 6 "Maximum Strength" */
  st->strength[climber] = (int8_t)(after < 0 ? 0 : after);
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:s, s:i, s:i, s:s}", "type", "strength", "climber",
                  climber, "climber_name", bit_cards[climber].name, "name", bit_cards[climber].name,
                  "from", before, "to", after, "why", why);
  if (s != CAIRN_OK)
    return s;
  if (after >= 0)
    return near_death_ends(st, climber, before, events, err);
  return bit_to_dead(st, climber, events, "climber died", err);
}

/* VI: the seat with the fewest Climbers on its Route moves first, 1D6 to
 * break ties (higher roll first, re-roll equal dice). X.A.7: skip the
 * phase in a Storm. */
enum cairn_status bit_movement_begin(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  int seat, t;
  enum cairn_status s;

  for (seat = 0; seat < BIT_SEATS; seat++)
    for (t = 0; t < BIT_TEAMS; t++) {
      st->team[seat][t].moved = 0;
      st->team[seat][t].ropes = 0;
      st->team[seat][t].ladders = 0;
    }
  st->moving = -1;
  st->mover = 0;
  st->order[0] = 0;
  st->order[1] = 1;
  if (st->weather == BIT_STORM) {
    s = bit_storm_strip(st, events, err);
    if (s == CAIRN_OK)
      s = ENGINE_EMIT(events, err, "{s:s}", "type", "movement-skipped-storm");
    if (s != CAIRN_OK)
      return s;
    return bit_enter_phase(st, BIT_P_CAMP, events, err);
  }
  if (st->head.seats == 2) {
    int a = bit_climbers_on_route(st, 0), b = bit_climbers_on_route(st, 1);
    int da = 0, db = 0;
    if (a == b) {
      do {
        da = engine_rng_die(&st->head.rng, 6);
        db = engine_rng_die(&st->head.rng, 6);
      } while (da == db);
    }
    if (b < a || (a == b && db > da)) {
      st->order[0] = 1;
      st->order[1] = 0;
    }
    s = ENGINE_EMIT(events, err, "{s:s, s:[i,i], s:[i,i]}", "type", "movement-order", "order",
                    st->order[0], st->order[1], "tie_dice", da, db);
    if (s != CAIRN_OK)
      return s;
  }
  st->active = st->order[0];
  return CAIRN_OK;
}

/* Why `team` of the active seat may not act now (moving or handling its
 * cargo), or NULL when it may: X.5 and X.A, one team at a time. */
static const char *team_refusal(const struct bit_state *st, int seat, int team)
{
  if (team < 0 || team >= BIT_TEAMS || !st->team[seat][team].used)
    return "you have no Climbing Team in that slot";
  if (st->team[seat][team].moved)
    return "X.5 that Climbing Team has ended movement this phase";
  if (st->moving >= 0 && st->moving != team)
    return "X.A Climbing Teams move one at a time: end the moving team first";
  return NULL;
}

/* X.A: why the active seat may not move `team` one card in `dir` (a
 * static text), or NULL when it may. *who: a card to name beside the
 * reason, -1 none. */
static const char *move_refusal(const struct bit_state *st, int seat, int team, int dir, int route,
                                int *who)
{
  const char *why;
  int at, c;

  *who = -1;
  if (st->phase != BIT_P_MOVE || st->active != seat)
    return "VI: it is not your Movement Phase";
  if (st->weather == BIT_STORM)
    return "VII.D Storm Weather prevents movement of any kind";
  why = team_refusal(st, seat, team);
  if (why)
    return why;
  at = bit_team_at(st, seat, team);
  if (at == BIT_ABC && st->weather >= BIT_POOR)
    return "VII.D Poor Weather prevents movement out of Advance Base Camp";
  if (bit_step_target(st, seat, at, dir, route) == -2) {
    if (cross_descent(st, seat) && bit_route_of(st, at) == 0 && dir > 0)
      return "XII 1963: Player Two climbs the West Ridge and only descends the South Col";
    if (route >= 0 && at != BIT_SUMMIT)
      return "a route is named only to descend from the Summit";
    return dir > 0 ? "there is no card above on the Route" : "there is no card below on the Route";
  }
  /* X.2: a Climber on foot at Near Death may not move; carried ones may. */
  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team &&
        l->role == BIT_R_MEMBER && st->strength[c] <= 0) {
      *who = c;
      return "X.2 a Climber at Near Death may not move unless a Sherpas carries it";
    }
  }
  return NULL;
}

bool bit_move_ok(const struct bit_state *st, int seat, int team, int dir, int route)
{
  int who;
  return move_refusal(st, seat, team, dir, route, &who) == NULL;
}

/* The refusal of a movement move: "<what>: [<card name> (card N): ]<why>". */
static enum cairn_status refuse(struct cairn_error *err, const char *rule, const char *what,
                                const char *why, int who)
{
  if (who >= 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, rule, "%s: %s (card %d): %s",
                      what, bit_cards[who].name, who, why);
  return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, rule, "%s: %s", what, why);
}

/* X.4-5: the team's movement ends (cards inverted); `why` says which of
 * X's four reasons. Once only: a team already ended stays ended. */
static enum cairn_status end_team(struct bit_state *st, int seat, int team, const char *why,
                                  json_t *events, struct cairn_error *err)
{
  if (st->moving == team && st->active == seat)
    st->moving = -1;
  if (team < 0 || !st->team[seat][team].used || st->team[seat][team].moved)
    return CAIRN_OK;
  st->team[seat][team].moved = 1;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s}", "type", "movement-ended", "seat", seat,
                     "team", team, "why", why);
}

enum cairn_status bit_end_movement(struct bit_state *st, int seat, int team, const char *why,
                                   json_t *events, struct cairn_error *err)
{
  return end_team(st, seat, team, why, events, err);
}

/* X.2 "Climbers which reach Near Death as a result of movement or Event
 * card effects must end movement immediately"; X "Movement will end if
 * ... A Climber reaches a Strength level of "Near Death" (EXCEPTION:
 * Sherpas may carry)": the Climber's team ends at once unless the Climber
 * is being carried. Only in the Movement Phase. */
static enum cairn_status near_death_ends(struct bit_state *st, int climber, int before,
                                         json_t *events, struct cairn_error *err)
{
  const struct bit_loc *l = &st->loc[climber];

  if (st->phase != BIT_P_MOVE || before <= 0 || st->strength[climber] != 0 ||
      l->zone != BIT_Z_MOUNTAIN || l->team < 0 || l->role != BIT_R_MEMBER)
    return CAIRN_OK;
  return end_team(st, l->seat, l->team, "near-death", events, err);
}

/* X.B.2 and XII victory bookkeeping on arriving in Advance Base Camp. */
static enum cairn_status arrive_abc(struct bit_state *st, int seat, int team, int from,
                                    json_t *events, struct cairn_error *err)
{
  int c;
  enum cairn_status s;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
    struct bit_loc *l = &st->loc[c];
    if (l->zone != BIT_Z_MOUNTAIN || l->seat != seat || l->team != team)
      continue;
    l->role = BIT_R_MEMBER;
    /* 1963: Player Two must come down the South Col (route 0). */
    if (st->summited[c] && (!cross_descent(st, seat) || bit_route_of(st, from) == 0))
      st->returned[c] = 1;
  }
  s = end_team(st, seat, team, "advance-base-camp", events, err);
  for (c = BIT_CLIMBER_FIRST; s == CAIRN_OK && c < BIT_SHERPA_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team && st->strength[c] <= 1)
      s = bit_to_discard(st, c, events, "exhausted in Advance Base Camp", err);
  }
  if (s != CAIRN_OK)
    return s;
  return bit_abc_tidy(st, seat, events, err);
}

static enum cairn_status step(struct bit_state *st, int seat, int team, int dir, int route,
                              json_t *events, struct cairn_error *err)
{
  int at = bit_team_at(st, seat, team);
  int to = bit_step_target(st, seat, at, dir, route);
  int cost = exit_cost(at, dir), c, event;
  enum cairn_status s;

  if (st->team[seat][team].ropes && cost > 0)
    cost--; /* Fixed Ropes (RULES.md "Specials") */
  st->moving = team;
  for (c = 0; c < BIT_CARDS; c++) {
    struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team)
      l->at = (int8_t)to;
  }
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:i, s:s, s:i, s:s, s:i}", "type", "moved", "seat",
                  seat, "team", team, "from", at, "from_name", bit_place_name(at), "to", to,
                  "to_name", bit_place_name(to), "cost", cost);
  /* X.B.3: carried Climbers pay too. */
  for (c = BIT_CLIMBER_FIRST; s == CAIRN_OK && c < BIT_SHERPA_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (cost > 0 && l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team)
      s = bit_lose_strength(st, c, cost, events, "exit cost", err);
  }
  if (s != CAIRN_OK)
    return s;
  if (!st->team[seat][team].used)
    return CAIRN_OK; /* everyone died on the way */
  if (to == BIT_ABC)
    return arrive_abc(st, seat, team, at, events, err);
  if (to == BIT_SUMMIT) {
    for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
      const struct bit_loc *l = &st->loc[c];
      if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team && !st->summited[c]) {
        st->summited[c] = 1;
        st->up_route[c] = (int8_t)st->route[bit_route_of(st, at)];
        s = ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:s}", "type", "summit", "seat", seat,
                        "climber", c, "climber_name", bit_cards[c].name, "name", bit_cards[c].name);
        if (s != CAIRN_OK)
          return s;
      }
    }
    return CAIRN_OK; /* X.C.5: no Event on the Summit */
  }
  s = bit_event_draw(st, seat, &event, events, err);
  if (s != CAIRN_OK)
    return s;
  return bit_resolve_event(st, seat, team, event, events, err);
}

/* After anything that may have changed the weather: X.3 a Storm ends all
 * movement. */
static enum cairn_status after(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  if (st->weather == BIT_STORM && st->phase == BIT_P_MOVE)
    return bit_enter_phase(st, BIT_P_CAMP, events, err);
  return CAIRN_OK;
}

static int card_at_team(const struct bit_state *st, int seat, int card, int team, int role)
{
  const struct bit_loc *l = &st->loc[card];
  return l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team &&
         (role < 0 || l->role == role);
}

/* Why a cargo move (cache, unload, load, carry, leave) may not be made on
 * the team now (static text), or NULL when it may. */
static const char *cargo_refusal(const struct bit_state *st, int seat, const struct bit_move *m)
{
  int team = m->team, at, sherpa, card = m->type == BIT_M_CARRY ? m->climber : m->card;
  const struct bit_loc *l;
  bool free_sherpa;
  const char *why;

  if (st->phase != BIT_P_MOVE || st->active != seat)
    return "VI: it is not your Movement Phase";
  why = team_refusal(st, seat, team);
  if (why)
    return why;
  if (card < 0 || card >= BIT_CARDS)
    return "no such card";
  l = &st->loc[card];
  at = bit_team_at(st, seat, team);
  if (l->zone != BIT_Z_MOUNTAIN || l->seat != seat)
    return "the card is not one of yours on the mountain";
  if (at == BIT_ABC)
    return "cards are picked up, cached, unloaded or left on Terrain cards, not in Advance Base "
           "Camp (IX forms teams there)";
  if (l->at != at)
    return "the card is not on the team's Terrain card";
  sherpa = bit_team_sherpa(st, seat, team);
  free_sherpa = sherpa >= 0 && bit_team_count(st, seat, team, -1, BIT_R_LOADED) == 0 &&
                bit_team_count(st, seat, team, -1, BIT_R_CARRIED) == 0;
  switch (m->type) {
  case BIT_M_CACHE:
    return card_at_team(st, seat, card, team, BIT_R_LOADED)
               ? NULL
               : "X.A.5 only Supplies Loaded on the team's Sherpas can be Cached";
  case BIT_M_UNLOAD: /* X.A.6, X.D.4: Loaded, or Cached with a Climber present */
    if (l->role == BIT_R_UNLOADED)
      return "X.A.6 the Supplies are already Unloaded";
    return card_at_team(st, seat, card, team, BIT_R_LOADED) ||
                   (l->team < 0 && l->role == BIT_R_CACHED)
               ? NULL
               : "X.A.6 only the team's Loaded Supplies or Cached Supplies can be Unloaded";
  case BIT_M_LOAD: /* X.A.5: Cached Supplies; or a Sherpas left here joins */
    if (bit_is(card, BIT_SHERPA)) {
      if (l->role != BIT_R_POSTED)
        return "only a Sherpas left on the card (outside a team) can join a team";
      return sherpa < 0 ? NULL : "IX a Climbing Team may contain at most one Sherpas card";
    }
    if (l->role == BIT_R_UNLOADED)
      return "X.A.6 Unloaded Supplies may NEVER be picked up again";
    if (l->team >= 0 || l->role != BIT_R_CACHED)
      return "X.A.5 only Cached Supplies can be picked up";
    if (sherpa < 0)
      return "X.A.4 Supplies cards may only be moved if stacked with a Sherpas card";
    return free_sherpa ? NULL
                       : "X.A.4 a single Sherpas card can carry one Supplies card, and this one "
                         "already carries a load or a Climber";
  case BIT_M_CARRY: /* X.A.3 */
    if (!bit_is(card, BIT_CLIMBER))
      return "X.A.3 only a Climber card can be carried";
    if (l->team == team && l->role == BIT_R_CARRIED)
      return "X.A.3 the Climber is already carried";
    if (sherpa < 0)
      return "X.A.3 Climbers are carried by a Sherpas card and the team has none";
    return free_sherpa ? NULL
                       : "X.A.3 a Climber may be carried only by a Sherpas card that is NOT "
                         "carrying a Supplies card (or another Climber)";
  case BIT_M_LEAVE:
    if (l->team != team)
      return "only a card of this team can be left";
    if (bit_is(card, BIT_CLIMBER)) {
      if (bit_team_count(st, seat, team, BIT_CLIMBER, -1) <= 1)
        return "X.A.1 a Climbing Team must contain at least one Climber: end its movement "
               "instead";
      return bit_free_team(st, seat) >= 0 ? NULL : "every team slot is in use";
    }
    /* X.A.1 "Sherpas may be left at a Camp without a Climber" (any card
     * here; RULES.md): only without its load. */
    if (!bit_is(card, BIT_SHERPA))
      return "only a Climber or a Sherpas can be left; Supplies are Cached or Unloaded";
    return free_sherpa ? NULL
                       : "a Sherpas is left only without its load or carried Climber (cache or "
                         "drop them first)";
  default:
    return "not a cargo move";
  }
}

static bool cargo_ok(const struct bit_state *st, int seat, const struct bit_move *m)
{
  return cargo_refusal(st, seat, m) == NULL;
}

static enum cairn_status cargo(struct bit_state *st, int seat, const struct bit_move *m,
                               json_t *events, struct cairn_error *err)
{
  int team = m->team, at = bit_team_at(st, seat, team);
  int card = m->type == BIT_M_CARRY ? m->climber : m->card;
  int from = st->loc[card].team;
  static const char *const names[] = {[BIT_M_CACHE] = "cached",
                                      [BIT_M_UNLOAD] = "unloaded",
                                      [BIT_M_LOAD] = "loaded",
                                      [BIT_M_CARRY] = "carried",
                                      [BIT_M_LEAVE] = "left"};

  const char *why = cargo_refusal(st, seat, m);

  if (why) {
    char what[64];
    snprintf(what, sizeof what, "team %d may not %s", team,
             m->type == BIT_M_CACHE    ? "cache"
             : m->type == BIT_M_UNLOAD ? "unload"
             : m->type == BIT_M_LOAD   ? "load"
             : m->type == BIT_M_CARRY  ? "carry"
                                       : "leave");
    return refuse(err, BIT_RULE_MOVEMENT, what, why, card >= 0 && card < BIT_CARDS ? card : -1);
  }
  st->moving = team;
  switch (m->type) {
  case BIT_M_CACHE:
    bit_place(st, card, seat, at, -1, BIT_R_CACHED);
    break;
  case BIT_M_UNLOAD:
    bit_place(st, card, seat, at, -1, BIT_R_UNLOADED);
    break;
  case BIT_M_LOAD:
    bit_place(st, card, seat, at, team, bit_is(card, BIT_SHERPA) ? BIT_R_MEMBER : BIT_R_LOADED);
    break;
  case BIT_M_CARRY:
    bit_place(st, card, seat, at, team, BIT_R_CARRIED);
    if (from != team)
      bit_drop_team_if_empty(st, seat, from);
    break;
  default:
    if (bit_is(card, BIT_CLIMBER)) {
      int t = bit_new_team(st, seat);
      bit_place(st, card, seat, at, t, BIT_R_MEMBER);
      st->team[seat][t].moved = 1;
    } else {
      bit_place(st, card, seat, at, -1, BIT_R_POSTED);
    }
    break;
  }
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:i, s:s, s:s, s:i, s:s}", "type",
                     names[m->type], "seat", seat, "team", team, "card", card, "card_name",
                     bit_cards[card].name, "name", bit_cards[card].name, "at", at, "at_name",
                     bit_place_name(at));
}

static enum cairn_status seat_done(struct bit_state *st, json_t *events, struct cairn_error *err)
{
  st->moving = -1;
  st->mover++;
  if (st->mover < st->head.seats) {
    st->active = st->order[st->mover];
    return CAIRN_OK;
  }
  return bit_enter_phase(st, BIT_P_CAMP, events, err);
}

/* One Movement Phase move of the active seat. */
enum cairn_status bit_move(struct bit_state *st, int seat, const struct bit_move *m, json_t *events,
                           struct cairn_error *err)
{
  enum cairn_status s;

  const char *why;
  int who;

  if (st->phase != BIT_P_MOVE || seat != st->active)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SEQUENCE,
                      "VI: players take turns in the Movement Phase and it is not yours%s",
                      st->phase == BIT_P_MOVE ? "" : " (the game is not in the Movement Phase)");
  switch (m->type) {
  case BIT_M_MOVE:
    why = move_refusal(st, seat, m->team, m->dir, m->route, &who);
    if (why) {
      char what[48];
      snprintf(what, sizeof what, "team %d may not move %s", m->team, m->dir > 0 ? "up" : "down");
      return refuse(err, BIT_RULE_MOVEMENT, what, why, who);
    }
    s = step(st, seat, m->team, m->dir, m->route, events, err);
    break;
  case BIT_M_END:
    if (m->team != st->moving || m->team < 0)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT,
                        "team %d is not moving: X.5 ends the movement of the team now moving "
                        "(%s)",
                        m->team, st->moving >= 0 ? "another team" : "none has moved yet");
    s = end_team(st, seat, m->team, "declared", events, err);
    break;
  case BIT_M_DONE:
    s = seat_done(st, events, err);
    break;
  default:
    s = cargo(st, seat, m, events, err);
    break;
  }
  if (s != CAIRN_OK)
    return s;
  return after(st, events, err);
}

/* Exposed for legal.c. */
bool bit_cargo_move_ok(const struct bit_state *st, int seat, const struct bit_move *m)
{
  return cargo_ok(st, seat, m);
}
