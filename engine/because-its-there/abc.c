/*
 * abc.c - IX. Advance Base Camp Phase: forming Climbing Teams from the hand
 * and from cards already in Advance Base Camp, the team slots used across
 * the mountain, and "a Sherpas or Supplies card ... NOT part of a Climbing
 * Team ... must be removed to the player's discard pile".
 */
#include "engine/because-its-there/state.h"

#include <string.h>

int bit_free_team(const struct bit_state *st, int seat)
{
  int t;

  for (t = 0; t < BIT_TEAMS; t++)
    if (!st->team[seat][t].used)
      return t;
  return -1;
}

int bit_new_team(struct bit_state *st, int seat)
{
  int t = bit_free_team(st, seat);

  if (t >= 0) {
    memset(&st->team[seat][t], 0, sizeof(st->team[seat][t]));
    st->team[seat][t].used = 1;
  }
  return t;
}

/* Cards of `kind` (-1 any) with `role` (-1 any) in the team. */
int bit_team_count(const struct bit_state *st, int seat, int team, int kind, int role)
{
  /* Only Climbers, Sherpas and Supplies are ever in a team. */
  int first = kind == BIT_SHERPA     ? BIT_SHERPA_FIRST
              : kind == BIT_SUPPLIES ? BIT_SUPPLY_FIRST
                                     : BIT_CLIMBER_FIRST;
  int last = kind == BIT_CLIMBER  ? BIT_SHERPA_FIRST
             : kind == BIT_SHERPA ? BIT_SUPPLY_FIRST
                                  : BIT_CAMP_FIRST;
  int n = 0, c;

  for (c = first; c < last; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->team == team &&
        (kind < 0 || bit_cards[c].kind == kind) && (role < 0 || l->role == role))
      n++;
  }
  return n;
}

int bit_team_sherpa(const struct bit_state *st, int seat, int team)
{
  int c;

  for (c = BIT_SHERPA_FIRST; c < BIT_SUPPLY_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].team == team)
      return c;
  return -1;
}

/* Where the team stands: a Terrain card, BIT_ABC, or -2 for no team. */
int bit_team_at(const struct bit_state *st, int seat, int team)
{
  int c;

  if (team < 0 || team >= BIT_TEAMS || !st->team[seat][team].used)
    return -2;
  /* A team always holds a Climber (bit_drop_team_if_empty). */
  for (c = BIT_CLIMBER_FIRST; c < BIT_SHERPA_FIRST; c++)
    if (st->loc[c].zone == BIT_Z_MOUNTAIN && st->loc[c].seat == seat && st->loc[c].team == team)
      return st->loc[c].at;
  return -2;
}

/* X.A.1: "A Climbing Team must contain at least one climber". A team left
 * without one breaks up: its Sherpas stays put (posted), its load is
 * Cached. */
void bit_drop_team_if_empty(struct bit_state *st, int seat, int team)
{
  int c;

  if (team < 0 || bit_team_count(st, seat, team, BIT_CLIMBER, -1) > 0)
    return;
  for (c = 0; c < BIT_CARDS; c++) {
    struct bit_loc *l = &st->loc[c];
    if (l->zone != BIT_Z_MOUNTAIN || l->seat != seat || l->team != team)
      continue;
    l->team = -1;
    l->role = bit_is(c, BIT_SHERPA) ? BIT_R_POSTED : BIT_R_CACHED;
  }
  st->team[seat][team].used = 0;
  if (st->moving == team && st->active == seat)
    st->moving = -1;
}

/* IX: Sherpas and Supplies in Advance Base Camp outside a team go to the
 * discard pile. */
enum cairn_status bit_abc_tidy(struct bit_state *st, int seat, json_t *events,
                               struct cairn_error *err)
{
  int c;
  enum cairn_status s;

  for (c = 0; c < BIT_CARDS; c++) {
    const struct bit_loc *l = &st->loc[c];
    if (l->zone == BIT_Z_MOUNTAIN && l->seat == seat && l->at == BIT_ABC && l->team < 0) {
      s = bit_to_discard(st, c, events, "not part of a Climbing Team in Advance Base Camp", err);
      if (s != CAIRN_OK)
        return s;
    }
  }
  return CAIRN_OK;
}

/* IX's team composition: at most one Sherpas and one Supplies, Supplies
 * only with a Sherpas, a Sherpas only with a Climber. Why `card` may not
 * join `team` (static text), or NULL when it may. */
static const char *deploy_refusal(const struct bit_state *st, int seat, int card, int team)
{
  const struct bit_loc *l;
  int kind, from;

  if (st->phase != BIT_P_ABC)
    return "VI: cards are deployed in the Advance Base Camp Phase";
  if (st->done[seat])
    return "you are already ready in this Advance Base Camp Phase";
  if (card < 0 || card >= BIT_CARDS)
    return "no such card";
  l = &st->loc[card];
  kind = bit_cards[card].kind;
  if (kind != BIT_CLIMBER && kind != BIT_SHERPA && kind != BIT_SUPPLIES)
    return "IX Only Climber, Sherpas, and Supplies cards may be deployed to Advance Base Camp";
  if (l->seat != seat ||
      !(l->zone == BIT_Z_HAND || (l->zone == BIT_Z_MOUNTAIN && l->at == BIT_ABC && l->team >= 0)))
    return "IX cards are deployed from your hand or from a team already in Advance Base Camp";
  from = l->zone == BIT_Z_MOUNTAIN ? l->team : -1;
  if (team >= 0 && team == from)
    return "the card is already in that team";
  if (team >= 0 && (team >= BIT_TEAMS || bit_team_at(st, seat, team) != BIT_ABC))
    return "that team is not one of your teams in Advance Base Camp";
  if (team < 0 && kind != BIT_CLIMBER)
    return "IX a Climbing Team is formed around a Climber: a Sherpas or Supplies joins an "
           "existing team";
  if (team < 0 && bit_free_team(st, seat) < 0)
    return "every team slot is in use";
  if (team < 0 && from >= 0 && bit_team_count(st, seat, from, -1, -1) == 1)
    return "the Climber already forms a team alone";
  switch (kind) {
  case BIT_CLIMBER:
    /* Leaving must not strand the old team's Sherpas. */
    return from < 0 || bit_team_count(st, seat, from, BIT_CLIMBER, -1) > 1 ||
                   bit_team_count(st, seat, from, BIT_SHERPA, -1) == 0
               ? NULL
               : "IX A Climbing Team may not contain a Sherpas card unless it also contains at "
                 "least one Climber card: this Climber is its team's last";
  case BIT_SHERPA:
    if (from >= 0 && bit_team_count(st, seat, from, BIT_SUPPLIES, -1) > 0)
      return "IX A Climbing Team may not contain a Supplies card unless it also contains a "
             "Sherpas card: this Sherpas carries its team's Supplies";
    if (bit_team_count(st, seat, team, BIT_SHERPA, -1) > 0)
      return "IX A Climbing Team may contain at most one Sherpas card";
    return NULL;
  default:
    if (bit_team_count(st, seat, team, BIT_SHERPA, -1) != 1)
      return "IX A Climbing Team may not contain a Supplies card unless it also contains a "
             "Sherpas card";
    return bit_team_count(st, seat, team, BIT_SUPPLIES, -1) == 0
               ? NULL
               : "IX A Climbing Team may contain at most one Supplies card";
  }
}

bool bit_deploy_ok(const struct bit_state *st, int seat, int card, int team)
{
  return deploy_refusal(st, seat, card, team) == NULL;
}

/* Deploy `card` (from hand or another team in Advance Base Camp) into
 * `team`, or into a new team when `team` is -1. */
enum cairn_status bit_deploy(struct bit_state *st, int seat, int card, int team, json_t *events,
                             struct cairn_error *err)
{
  const char *why = deploy_refusal(st, seat, card, team);
  int from;

  if (why)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, BIT_RULE_ABC,
                      "%s (card %d) may not be deployed there: %s",
                      card >= 0 && card < BIT_CARDS ? bit_cards[card].name : "?", card, why);
  from = st->loc[card].zone == BIT_Z_MOUNTAIN ? st->loc[card].team : -1;
  if (team < 0)
    team = bit_new_team(st, seat);
  bit_place(st, card, seat, BIT_ABC, team,
            bit_is(card, BIT_SUPPLIES) ? BIT_R_LOADED : BIT_R_MEMBER);
  if (from >= 0)
    bit_drop_team_if_empty(st, seat, from);
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:i, s:s, s:s, s:i}", "type", "deployed", "seat",
                     seat, "card", card, "card_name", bit_cards[card].name, "name",
                     bit_cards[card].name, "team", team);
}
