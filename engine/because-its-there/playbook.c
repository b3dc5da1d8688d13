/*
 * playbook.c - the built-in bots' rule of thumb for Because It's There!
 * (the bot_policy slot, engine.h): what an expedition leader does without
 * looking ahead. Form teams of Climbers with a Sherpas and Supplies; climb
 * while the weakest walking Climber keeps the Strength to survive the
 * night where it would stop; unload Supplies where a team stops and pitch
 * a Camp there (a Camp and declared Supplies make a night's recovery at
 * least 0: the worst Base Strength Recovery is -2); rest at a Camp until
 * strong while the turns allow; go up to the Summit and come down as far
 * as Strength allows each day. Random play never summits, and a search
 * whose playouts are random or end after a few greedy steps never sees a
 * summit that takes days of climbing and resting, so the search plays
 * its worlds on to the end with this (bots/playout.c).
 *
 * A bot's knowledge of the title, not a rule: it is called only on worlds
 * a bot sampled from its own seat's view and on its playouts of them,
 * reads nothing but the state it is given and draws nothing from its
 * generator. Every move it returns passes the rules' own predicates, so
 * apply_move accepts it.
 */
#include "engine/because-its-there/state.h"

/* Strength kept on arrival beyond what the night there asks (night_floor),
 * for an Event drawn on the way in. In 400 rule-of-thumb games a
 * scenario, a margin of 1 reached the goal 77 times in 1924 and 49 in
 * 1953, 2: 58 and 26, none: 87 and 74 (the time lost is worth more). */
#define ARRIVAL_MARGIN 0

/* The last turn a team not yet on the Summit waits in a Camp to recover:
 * later, the weather (1924 worsens from turn 10, 1953 from 15) and turn
 * 20 leave no time for it. */
static int last_rest_turn(const struct bit_state *st)
{
  return (st->scenario == BIT_1924 ? 9 : 13);
}

static bool own_at(const struct bit_state *st, int seat, int first, int last, int at, int role)
{
  int c;

  for (c = first; c < last; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at == at &&
        st->loc[c].team < 0 && (role < 0 || st->loc[c].role == role))
      return true;
  return false;
}

/* Whether card `at` has a Camp a night there counts (anyone's, IX.D). */
static bool camp_at(const struct bit_state *st, int at)
{
  return own_at(st, 0, BIT_CAMP_FIRST, BIT_SPECIAL_FIRST, at, -1) ||
         own_at(st, 1, BIT_CAMP_FIRST, BIT_SPECIAL_FIRST, at, -1);
}

static bool supplies_at(const struct bit_state *st, int seat, int at)
{
  return own_at(st, seat, BIT_SUPPLY_FIRST, BIT_CAMP_FIRST, at, BIT_R_UNLOADED);
}

/* The least Strength a Climber on `at` survives the night with, whatever
 * the Event drawn: 2 less a Camp and Supplies there, more in a Storm high
 * up. Advance Base Camp and the Summit's descent are handled apart. */
static int night_floor(const struct bit_state *st, int seat, int at)
{
  int floor = 2;

  if (at == BIT_ABC)
    return 0;
  floor -= camp_at(st, at);
  floor -= supplies_at(st, seat, at);
  /* Night 4: the weather of the night is today's (it changes at the
   * next Weather Phase, or by an Event). */
  if (at == BIT_SUMMIT || bit_cards[at].terrain == BIT_EXTREME)
    floor += st->weather == BIT_STORM ? 2 : 0;
  else if (bit_cards[at].terrain == BIT_HIGH)
    floor += st->weather == BIT_STORM ? 1 : 0;
  return floor < 0 ? 0 : floor;
}

/* X.B: what leaving `at` in `dir` costs each Climber. */
static int exit_cost(const struct bit_state *st, int seat, int team, int at, int dir)
{
  int cost;

  if (at == BIT_ABC || at == BIT_SUMMIT)
    return 0;
  cost = dir > 0 ? bit_cards[at].up : bit_cards[at].down;
  if (st->team[seat][team].ropes && cost > 0)
    cost--;
  return cost;
}

/* What a team is: where it stands, its weakest and strongest Climbers
 * (carried ones too: they pay every exit), how many Climbers it has,
 * whether all have been on the Summit, and its Loaded Supplies (-1 none). */
struct team_facts {
  int at, weakest, weakest_card, climbers, strongest_card, loaded;
  bool all_summited;
};

static struct team_facts facts_of(const struct bit_state *st, int seat, int team)
{
  struct team_facts f = {.at = bit_team_at(st, seat, team),
                         .weakest = 99,
                         .weakest_card = -1,
                         .strongest_card = -1,
                         .loaded = -1,
                         .all_summited = true};
  int c;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SPECIAL_FIRST; c++) {
    const struct bit_loc *l = &st->loc[c];

    if (l->zone != BIT_Z_MOUNTAIN || l->seat != seat || l->team != team)
      continue;
    if (bit_is(c, BIT_CLIMBER)) {
      f.climbers++;
      f.all_summited = f.all_summited && st->summited[c];
      if (st->strength[c] < f.weakest) { /* X.B.3: carried ones pay too */
        f.weakest = st->strength[c];
        f.weakest_card = c;
      }
      if (f.strongest_card < 0 || st->strength[c] > st->strength[f.strongest_card])
        f.strongest_card = c;
    } else if (l->role == BIT_R_LOADED) {
      f.loaded = c;
    }
  }
  return f;
}

/* XII: the Climbers a seat has in its scenario. */
static int climbers_of_seat(const struct bit_state *st, int seat)
{
  if (st->scenario == BIT_1963)
    return seat == 0 ? 4 : 2;
  return 6;
}

/* Whether dead Climber `c` was the seat's. The dead pile is one pile with
 * no owners in a view, so this goes by the scenario's Climbers (1963
 * gives Player Two Hornbein and Unsoeld, the last two); a drafted Dream
 * Teams one counts as the seat's (the view does not say). */
static bool own_dead(const struct bit_state *st, int seat, int c)
{
  if (st->scenario == BIT_1963)
    return (c >= BIT_SHERPA_FIRST - 2) == (seat == 1);
  return true;
}

/* Whether some of the seat's Climbers that have not returned wait in its
 * piles. Counted from what the seat sees (its hand, the mountain, the
 * dead and discard piles) and not from the active pile: a world sampled
 * from the view may deal a drafted Dream Teams Climber to either seat's
 * pile. */
static bool climbers_waiting(const struct bit_state *st, int seat)
{
  int c, seen = 0;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
    int zone = st->loc[c].zone;

    if (zone == BIT_Z_DEAD)
      seen += own_dead(st, seat, c);
    else if (st->loc[c].seat == seat && (zone == BIT_Z_HAND || zone == BIT_Z_MOUNTAIN ||
                                         (zone == BIT_Z_DISCARD && st->returned[c])))
      seen++;
  }
  return seen < climbers_of_seat(st, seat);
}

/* ---- Movement ---- */

static bool try_move(const struct bit_state *st, int seat, int team, int dir, int route_index,
                     struct bit_move *out)
{
  if (!bit_move_ok(st, seat, team, dir, route_index))
    return false;
  *out = bit_move_blank(BIT_M_MOVE);
  out->team = team;
  out->dir = dir;
  out->route = route_index >= 0 ? st->route[route_index] : -1;
  return true;
}

static bool try_cargo(const struct bit_state *st, int seat, int type, int team, int card,
                      struct bit_move *out)
{
  struct bit_move m = bit_move_blank(type);

  m.team = team;
  if (type == BIT_M_CARRY)
    m.climber = card;
  else
    m.card = card;
  if (!bit_cargo_move_ok(st, seat, &m))
    return false;
  *out = m;
  return true;
}

/* A team on its way down: one card at a time while its weakest Climber
 * keeps what the night below asks (Advance Base Camp asks nothing: a
 * Climber that arrives there has returned, exhausted or not). 1963's
 * Player Two comes down the South Col, where its return counts. */
static bool descend(const struct bit_state *st, int seat, int team, const struct team_facts *f,
                    struct bit_move *out)
{
  int cost = exit_cost(st, seat, team, f->at, -1);
  int below = bit_step_target(st, seat, f->at, -1, -1);
  bool cross = st->scenario == BIT_1963 && seat == 1 && f->at == BIT_SUMMIT;

  if (cross)
    below = bit_step_target(st, seat, f->at, -1, 0);
  int left, floor_below, floor_here;
  bool last_dash;

  if (below == -2)
    return false;
  left = f->weakest - cost;
  /* On the last day a Climber not back counts for nothing (XII; Dream
   * Teams counts the living, so there the night still matters): go down
   * as far as the exits allow. In 300 rule-of-thumb games 1963's Player
   * Two reached its goal 118 times, 110 without. */
  last_dash = st->turn == BIT_LAST_TURN && st->scenario != BIT_DREAM;
  floor_below = below == BIT_ABC || last_dash ? 0 : night_floor(st, seat, below);
  floor_here = f->at == BIT_SUMMIT ? 99 : night_floor(st, seat, f->at);
  /* Down to where the night is survived, or at least to a safer card
   * than one where it is not (a step down never kills by itself). */
  if (left < 0 || (left < floor_below && !(f->weakest < floor_here && floor_below < floor_here)))
    return false;
  return try_move(st, seat, team, -1, cross ? 0 : -1, out);
}

/* A team on its way up: one card while its weakest Climber keeps what the
 * night there asks and a margin for the Event drawn on arrival. The
 * Summit asks only to survive the free step back down to the card below
 * it (X.A.7: leaving the Summit costs nothing). */
static bool climb(const struct bit_state *st, int seat, int team, const struct team_facts *f,
                  struct bit_move *out)
{
  int cost = exit_cost(st, seat, team, f->at, 1);
  int above = bit_step_target(st, seat, f->at, 1, -1), need;

  if (above == -2)
    return false;
  /* The Summit: enough to survive the night on the card below it (X.A.7:
   * the step back onto it costs nothing). Asking for the Strength to come
   * all the way down to a Camp as well summited a third less often. */
  if (above == BIT_SUMMIT)
    need = night_floor(st, seat, f->at);
  else
    need = night_floor(st, seat, above) + ARRIVAL_MARGIN;
  if (f->weakest - cost < need)
    return false;
  return try_move(st, seat, team, 1, -1, out);
}

/* The highest printed Strength among a team's Climbers, less one: what
 * "strong again" means for a team resting in a Camp. */
static int rested_strength(const struct bit_state *st, int seat, int team)
{
  int c, most = 0;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].team == team &&
        st->loc[c].role == BIT_R_MEMBER && bit_cards[c].strength > most)
      most = bit_cards[c].strength;
  return most - 1;
}

/* Whether a team, not yet up, should spend today resting where it is: a
 * Camp with Supplies, Strength well below its best, turns to spare. */
static bool rests_today(const struct bit_state *st, int seat, int team, const struct team_facts *f)
{
  if (f->at == BIT_ABC || f->all_summited || st->turn > last_rest_turn(st))
    return false;
  if (!camp_at(st, f->at) || !supplies_at(st, seat, f->at))
    return false;
  return f->weakest < rested_strength(st, seat, team) - 1;
}

/* The last turn a team in Advance Base Camp waits for what it lacks. In
 * 300 rule-of-thumb games a scenario, waiting to turn 6 reached the goal
 * 116 times in 1924, 159 in 1953 and 110 as 1963's Player Two (164 as
 * Player One); not waiting: 105, 106, 60 and 132; to turn 4: 113, 146,
 * 117, 160; to turn 8: 116, 152, 114, 162. Without the wait for Player
 * Two's second Climber, Player Two reached it 76 times. */
#define KIT_WAIT_TURN 6

/* Whether a team in Advance Base Camp should wait for what it lacks: a
 * Sherpas with Supplies (without them it pitches no Camp, and high up a
 * night without one wears a Climber down to death), and in 1963 Player
 * Two's second Climber (both must go up and come back). */
static bool waits_in_abc(const struct bit_state *st, int seat, const struct team_facts *f)
{
  if (f->at != BIT_ABC || st->turn > KIT_WAIT_TURN)
    return false;
  if (f->loaded < 0)
    return true;
  return st->scenario == BIT_1963 && seat == 1 && f->climbers < 2 && climbers_waiting(st, seat);
}

/* The next move of team `team` (not ended this phase), or false when it
 * has nothing to do (it is then ended, or left alone). */
static bool team_move(const struct bit_state *st, int seat, int team, struct bit_move *out)
{
  struct team_facts f = facts_of(st, seat, team);
  bool moving = st->moving == team;

  if (f.climbers == 0)
    return false;
  /* A Climber at Near Death on foot holds its team: leave it where it is
   * (its own team) so the others may go on. */
  if (f.weakest == 0 && f.climbers > 1 && f.at != BIT_ABC &&
      try_cargo(st, seat, BIT_M_LEAVE, team, f.weakest_card, out))
    return true;
  if (f.all_summited ? descend(st, seat, team, &f, out)
                     : !rests_today(st, seat, team, &f) && !waits_in_abc(st, seat, &f) &&
                           climb(st, seat, team, &f, out))
    return true;
  /* The weakest holds the team back: leave it here (its own team) when
   * the others could climb on without it. */
  if (!f.all_summited && f.climbers > 1 && f.at != BIT_ABC && !rests_today(st, seat, team, &f)) {
    struct team_facts alone = f;
    struct bit_move unused;

    alone.weakest = st->strength[f.strongest_card];
    if (st->strength[f.weakest_card] < alone.weakest && climb(st, seat, team, &alone, &unused) &&
        try_cargo(st, seat, BIT_M_LEAVE, team, f.weakest_card, out))
      return true;
  }
  /* Stopping here for the night: Supplies unloaded where none are, so a
   * Camp can go up tonight and the night is safe. */
  if (f.at != BIT_ABC && f.at != BIT_SUMMIT && !supplies_at(st, seat, f.at)) {
    if (f.loaded >= 0 && try_cargo(st, seat, BIT_M_UNLOAD, team, f.loaded, out))
      return true;
  }
  if (moving) {
    *out = bit_move_blank(BIT_M_END);
    out->team = team;
    return true;
  }
  return false;
}

/* Oxygen for the own Climber on the mountain that lacks the most Strength,
 * when it lacks at least what the bottle gives. */
static bool oxygen(const struct bit_state *st, int seat, struct bit_move *out)
{
  int card, c;

  for (card = BIT_SPECIAL_FIRST; card < BIT_EVENT_FIRST; card++) {
    int sp = bit_special_of(card), gives = sp == BIT_OPEN_O2 ? 2 : 3, best = -1, lack = 0;

    if ((sp != BIT_OPEN_O2 && sp != BIT_CLOSED_O2) || st->loc[card].zone != BIT_Z_HAND ||
        st->loc[card].seat != seat)
      continue;
    for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++) {
      int missing = bit_cards[c].strength - st->strength[c];

      if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat &&
          st->loc[c].at != BIT_ABC && missing >= gives && missing > lack) {
        best = c;
        lack = missing;
      }
    }
    if (best >= 0) {
      struct bit_move m = bit_move_blank(BIT_M_PLAY);

      m.card = card;
      m.climber = best;
      if (bit_play_ok(st, seat, &m)) {
        *out = m;
        return true;
      }
    }
  }
  return false;
}

/* The height of a team for the order teams move in: the highest first, so
 * the one nearest the Summit climbs before the ones that follow it. */
static int team_height(const struct bit_state *st, int seat, int team)
{
  int at = bit_team_at(st, seat, team);

  if (at == BIT_SUMMIT)
    return 100;
  return at == BIT_ABC ? -1 : bit_index_of(st, at);
}

static struct bit_move movement_move(const struct bit_state *st, int seat)
{
  struct bit_move m = bit_move_blank(BIT_M_DONE);
  bool tried[BIT_TEAMS] = {false};
  int t, round;

  if (oxygen(st, seat, &m))
    return m;
  if (st->moving >= 0) {
    if (!team_move(st, seat, st->moving, &m))
      m = bit_move_blank(BIT_M_DONE);
    return m;
  }
  for (round = 0; round < BIT_TEAMS; round++) {
    int best = -1;

    for (t = 0; t < BIT_TEAMS; t++)
      if (st->team[seat][t].used && !st->team[seat][t].moved && !tried[t] &&
          (best < 0 || team_height(st, seat, t) > team_height(st, seat, best)))
        best = t;
    if (best < 0)
      break;
    tried[best] = true;
    if (team_move(st, seat, best, &m))
      return m;
  }
  return bit_move_blank(BIT_M_DONE);
}

/* ---- The other phases ---- */

static int hand_count_of(const struct bit_state *st, int seat, int kind)
{
  int c, n = 0;

  for (c = 0; c < BIT_CARDS; c++)
    n += st->loc[c].zone == BIT_Z_HAND && st->loc[c].seat == seat && bit_is(c, kind);
  return n;
}

/* Whether the seat has a Climber on a Terrain card (its Camps are wanted). */
static bool climbing(const struct bit_state *st, int seat)
{
  int c;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].at != BIT_ABC)
      return true;
  return false;
}

/* The card of kind `kind` in the seat's hand beyond the first `keep`, -1
 * none (lowest ids first). */
static int spare_in_hand(const struct bit_state *st, int seat, int kind, int keep)
{
  int c, seen = 0;

  for (c = 0; c < BIT_CARDS; c++)
    if (st->loc[c].zone == BIT_Z_HAND && st->loc[c].seat == seat && bit_is(c, kind) &&
        ++seen > keep)
      return c;
  return -1;
}

/* The card to discard this turn, -1 none. A third Camp in hand is dead
 * weight (two are pitched at most on a climb's way). A hand without a
 * Climber while Climbers wait in the piles is stuck: Sherpas deploy only
 * with a Climber and Supplies only with Sherpas, so drawing to five would
 * draw nothing and the Climbers would never come (in 1963 Player Two has
 * two Climbers in fifteen cards, and they stayed in the pile the whole
 * game in one playbook game of four). Keep one Sherpas and one Supplies
 * for the team to come, Camps only while someone climbs. */
static int card_to_discard(const struct bit_state *st, int seat)
{
  int card = spare_in_hand(st, seat, BIT_CAMP, 2);

  if (card >= 0 || hand_count_of(st, seat, BIT_CLIMBER) > 0 || !climbers_waiting(st, seat))
    return card;
  card = spare_in_hand(st, seat, BIT_CAMP, climbing(st, seat) ? 2 : 0);
  if (card < 0)
    card = spare_in_hand(st, seat, BIT_SUPPLIES, 1);
  if (card < 0)
    card = spare_in_hand(st, seat, BIT_SHERPA, 1);
  return card;
}

/* Discard/Draw: the cards that would block the hand, then draw to five. */
static struct bit_move discard_move(const struct bit_state *st, int seat)
{
  struct bit_move m = bit_move_blank(BIT_M_DRAW);
  int card = st->discarded[seat] < 3 ? card_to_discard(st, seat) : -1;

  if (card >= 0) {
    m = bit_move_blank(BIT_M_DISCARD);
    m.card = card;
    return m;
  }
  m.count = bit_draw_max(st, seat);
  return m;
}

/* The team in Advance Base Camp a card from the hand should join: a
 * Sherpas one with a Climber and none, Supplies one with a Sherpas and
 * none, a Climber one with fewer than two Climbers (else a new team). */
static bool deploy_one(const struct bit_state *st, int seat, int card, struct bit_move *out)
{
  int t;

  for (t = 0; t < BIT_TEAMS; t++) {
    if (!st->team[seat][t].used || bit_team_at(st, seat, t) != BIT_ABC ||
        !bit_deploy_ok(st, seat, card, t))
      continue;
    if (bit_is(card, BIT_CLIMBER) && bit_team_count(st, seat, t, BIT_CLIMBER, -1) >= 2)
      continue;
    *out = bit_move_blank(BIT_M_DEPLOY);
    out->card = card;
    out->team = t;
    return true;
  }
  if (bit_is(card, BIT_CLIMBER) && bit_deploy_ok(st, seat, card, -1)) {
    *out = bit_move_blank(BIT_M_DEPLOY);
    out->card = card;
    return true;
  }
  return false;
}

static struct bit_move abc_move(const struct bit_state *st, int seat)
{
  static const int kinds[] = {BIT_SHERPA, BIT_SUPPLIES, BIT_CLIMBER};
  struct bit_move m = bit_move_blank(BIT_M_READY);
  int k, c;

  for (k = 0; k < 3; k++)
    for (c = 0; c < BIT_CARDS; c++)
      if (bit_is(c, kinds[k]) && st->loc[c].zone == BIT_Z_HAND && st->loc[c].seat == seat &&
          deploy_one(st, seat, c, &m))
        return m;
  return bit_move_blank(BIT_M_READY);
}

/* Setup Camp: a Camp on the highest card that takes one. */
static struct bit_move camp_move(const struct bit_state *st, int seat)
{
  struct bit_move m = bit_move_blank(BIT_M_READY);
  int c, at, best_height = -1;

  for (c = BIT_CAMP_FIRST; c < BIT_SPECIAL_FIRST; c++) {
    if (st->loc[c].zone != BIT_Z_HAND || st->loc[c].seat != seat)
      continue;
    for (at = 0; at < BIT_SUMMIT; at++)
      if (bit_index_of(st, at) > best_height && bit_camp_ok(st, seat, c, at)) {
        best_height = bit_index_of(st, at);
        m = bit_move_blank(BIT_M_CAMP);
        m.card = c;
        m.at = at;
      }
    break; /* one Camp card is as good as another */
  }
  return m;
}

/* Night: a Bivouac where own Climbers have no Camp, then rest declaring
 * the Supplies wherever an own Climber is below its printed Strength. */
static struct bit_move night_move(const struct bit_state *st, int seat)
{
  struct bit_move m = bit_move_blank(BIT_M_REST);
  int c, at;

  for (c = BIT_SPECIAL_FIRST; c < BIT_EVENT_FIRST; c++)
    if (bit_special_of(c) == BIT_BIVOUAC && st->loc[c].zone == BIT_Z_HAND &&
        st->loc[c].seat == seat)
      for (at = 0; at < BIT_SUMMIT + 1; at++) {
        struct bit_move play = bit_move_blank(BIT_M_PLAY);

        play.card = c;
        play.at = at;
        if (!camp_at(st, at) && bit_play_ok(st, seat, &play))
          return play;
      }
  for (c = BIT_SUPPLY_FIRST; c < BIT_CAMP_FIRST; c++) {
    bool wanted = false, taken = false;
    int i, x;

    if (!bit_declarable(st, seat, c))
      continue;
    at = st->loc[c].at;
    for (i = 0; i < m.n_use; i++)
      taken = taken || st->loc[m.use[i]].at == at;
    for (x = BIT_CLIMBER_FIRST; x < BIT_SHERPA_FIRST; x++)
      wanted = wanted || (st->loc[x].zone == BIT_Z_MOUNTAIN && st->loc[x].seat == seat &&
                          st->loc[x].at == at && st->strength[x] < bit_cards[x].strength);
    if (wanted && !taken)
      m.use[m.n_use++] = c;
  }
  if (!bit_declaration_ok(st, seat, &m))
    m.n_use = 0;
  return m;
}

/* Draft: the strongest Climber left. Route: the Great Couloir where the
 * seat chooses (one Extreme card fewer than the North Ridge, and 5 VP in
 * Dream Teams), else the first it may take. */
static struct bit_move draft_move(const struct bit_state *st)
{
  struct bit_move m = bit_move_blank(BIT_M_DRAFT);
  int c;

  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_BOX &&
        (m.climber < 0 || bit_cards[c].strength > bit_cards[m.climber].strength))
      m.climber = c;
  return m;
}

static struct bit_move route_move(const struct bit_state *st, int seat)
{
  struct bit_move m = bit_move_blank(BIT_M_ROUTE);
  int r;

  if (bit_route_allowed(st, seat, BIT_GREAT_COULOIR)) {
    m.route = BIT_GREAT_COULOIR;
    return m;
  }
  for (r = 0; r < BIT_ROUTES && m.route < 0; r++)
    if (bit_route_allowed(st, seat, r))
      m.route = r;
  return m;
}

static bool seat_acts(const struct bit_state *st, int seat)
{
  int seats[ENGINE_MAX_SEATS], n = st->head.module->to_act(&st->head, seats), i;

  for (i = 0; i < n; i++)
    if (seats[i] == seat)
      return true;
  return false;
}

/* The bot_policy slot. `draw` is unused: the rule of thumb is the same in
 * every world (the sampled worlds and their dice vary enough). */
json_t *bit_bot_policy(const struct engine_game *game, int seat, uint64_t draw)
{
  const struct bit_state *st = (const struct bit_state *)game;
  struct bit_move m;

  (void)draw;
  if (seat < 0 || seat >= game->seats || !seat_acts(st, seat))
    return NULL;
  switch (st->phase) {
  case BIT_P_DRAFT:
    m = draft_move(st);
    break;
  case BIT_P_ROUTE:
    m = route_move(st, seat);
    break;
  case BIT_P_DISCARD:
    m = discard_move(st, seat);
    break;
  case BIT_P_ABC:
    m = abc_move(st, seat);
    break;
  case BIT_P_MOVE:
    m = movement_move(st, seat);
    break;
  case BIT_P_CAMP:
    m = camp_move(st, seat);
    break;
  default: /* BIT_P_NIGHT */
    m = night_move(st, seat);
    break;
  }
  return bit_move_json(&m);
}
