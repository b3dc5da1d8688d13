/*
 * movement.c - X. Movement Phase: who moves first, moving a Climbing Team
 * one card at a time and paying the exit cost (X.B), the Event draw for
 * the card entered (X.C), caching, unloading, loading, carrying and
 * leaving cards behind (X.A.3-6), and the end of movement.
 */
#include "engine/because-its-there/state.h"

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
  s = bit_emit(events,
               json_pack("{s:s, s:i, s:s, s:i, s:i, s:s}", "type", "strength", "climber", climber,
                         "name", bit_cards[climber].name, "from", before, "to", after, "why", why),
               err);
  if (s != CAIRN_OK || after >= 0)
    return s;
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
      s = bit_emit(events, json_pack("{s:s}", "type", "movement-skipped-storm"), err);
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
    s = bit_emit(events,
                 json_pack("{s:s, s:[i,i], s:[i,i]}", "type", "movement-order", "order",
                           st->order[0], st->order[1], "tie_dice", da, db),
                 err);
    if (s != CAIRN_OK)
      return s;
  }
  st->active = st->order[0];
  return CAIRN_OK;
}

/* X.A: the active seat may move `team` one card in `dir`. */
bool bit_move_ok(const struct bit_state *st, int seat, int team, int dir, int route)
{
  int at, c;

  if (st->phase != BIT_P_MOVE || st->active != seat || st->weather == BIT_STORM)
    return false;
  if (team < 0 || team >= BIT_TEAMS || !st->team[seat][team].used || st->team[seat][team].moved)
    return false;
  if (st->moving >= 0 && st->moving != team)
    return false; /* X.A: one team at a time, completing its movement */
  at = bit_team_at(st, seat, team);
  /* VII.D: Poor weather prevents movement out of Advance Base Camp. */
  if (at == BIT_ABC && st->weather >= BIT_POOR)
    return false;
  if (bit_step_target(st, seat, at, dir, route) == -2)
    return false;
  /* X.2: a Climber on foot at Near Death may not move; carried ones may. */
  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team &&
        l->role == BIT_R_MEMBER && st->strength[c] <= 0)
      return false;
  }
  return true;
}

static enum cairn_status end_team(struct bit_state *st, int seat, int team, json_t *events,
                                  struct cairn_error *err)
{
  if (team >= 0 && st->team[seat][team].used)
    st->team[seat][team].moved = 1;
  if (st->moving == team)
    st->moving = -1;
  return bit_emit(
      events, json_pack("{s:s, s:i, s:i}", "type", "movement-ended", "seat", seat, "team", team),
      err);
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
  s = end_team(st, seat, team, events, err);
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
  s = bit_emit(events,
               json_pack("{s:s, s:i, s:i, s:i, s:i, s:i}", "type", "moved", "seat", seat, "team",
                         team, "from", at, "to", to, "cost", cost),
               err);
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
        s = bit_emit(events,
                     json_pack("{s:s, s:i, s:i, s:s}", "type", "summit", "seat", seat, "climber", c,
                               "name", bit_cards[c].name),
                     err);
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

/* Whether a cargo move (cache, unload, load, carry, leave) may be made on
 * the team now. */
static bool cargo_ok(const struct bit_state *st, int seat, const struct bit_move *m)
{
  int team = m->team, at, sherpa, card = m->type == BIT_M_CARRY ? m->climber : m->card;
  const struct bit_loc *l;
  bool free_sherpa;

  if (st->phase != BIT_P_MOVE || st->active != seat || team < 0 || team >= BIT_TEAMS ||
      !st->team[seat][team].used || st->team[seat][team].moved ||
      (st->moving >= 0 && st->moving != team) || card < 0 || card >= BIT_CARDS)
    return false;
  l = &st->loc[card];
  if (l->zone != BIT_Z_MOUNTAIN || l->seat != seat || l->at == BIT_ABC)
    return false;
  at = bit_team_at(st, seat, team);
  if (at == BIT_ABC || l->at != at)
    return false;
  sherpa = bit_team_sherpa(st, seat, team);
  free_sherpa = sherpa >= 0 && bit_team_count(st, seat, team, -1, BIT_R_LOADED) == 0 &&
                bit_team_count(st, seat, team, -1, BIT_R_CARRIED) == 0;
  switch (m->type) {
  case BIT_M_CACHE:
    return card_at_team(st, seat, card, team, BIT_R_LOADED);
  case BIT_M_UNLOAD: /* X.A.6, X.D.4: Loaded, or Cached with a Climber present */
    return card_at_team(st, seat, card, team, BIT_R_LOADED) ||
           (l->team < 0 && l->role == BIT_R_CACHED);
  case BIT_M_LOAD: /* X.A.5: Cached Supplies; or a Sherpas left here joins */
    if (bit_is(card, BIT_SHERPA))
      return l->role == BIT_R_POSTED && sherpa < 0;
    return l->team < 0 && l->role == BIT_R_CACHED && free_sherpa;
  case BIT_M_CARRY: /* X.A.3 */
    return bit_is(card, BIT_CLIMBER) && free_sherpa && (l->team != team || l->role == BIT_R_MEMBER);
  case BIT_M_LEAVE:
    if (l->team != team)
      return false;
    if (bit_is(card, BIT_CLIMBER))
      return bit_team_count(st, seat, team, BIT_CLIMBER, -1) > 1 && bit_free_team(st, seat) >= 0;
    /* X.A.1 "Sherpas may be left at a Camp without a Climber" (any card
     * here; RULES.md): only without its load. */
    return bit_is(card, BIT_SHERPA) && free_sherpa;
  default:
    return false;
  }
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

  if (!cargo_ok(st, seat, m))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT,
                      "team %d cannot %s card %d now", team,
                      m->type == BIT_M_CACHE    ? "cache"
                      : m->type == BIT_M_UNLOAD ? "unload"
                      : m->type == BIT_M_LOAD   ? "load"
                      : m->type == BIT_M_CARRY  ? "carry"
                                                : "leave",
                      card);
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
  return bit_emit(events,
                  json_pack("{s:s, s:i, s:i, s:i, s:s, s:i}", "type", names[m->type], "seat", seat,
                            "team", team, "card", card, "name", bit_cards[card].name, "at", at),
                  err);
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

  if (st->phase != BIT_P_MOVE || seat != st->active)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_SEQUENCE,
                      "it is not your Movement Phase");
  switch (m->type) {
  case BIT_M_MOVE:
    if (!bit_move_ok(st, seat, m->team, m->dir, m->route))
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT,
                        "team %d may not move %s now", m->team, m->dir > 0 ? "up" : "down");
    s = step(st, seat, m->team, m->dir, m->route, events, err);
    break;
  case BIT_M_END:
    if (m->team != st->moving || m->team < 0)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_MOVEMENT,
                        "team %d is not moving", m->team);
    s = end_team(st, seat, m->team, events, err);
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
