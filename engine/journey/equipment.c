/*
 * equipment.c - using equipment cards (Player Equipment Card table): Food,
 * Rope, Grappling Hook, Tent, Bow & Arrow and Forecast, each one action of
 * the climbers' turn; the O2 tank works by being held (climbers.c). The
 * Hook and Rope answers to an Avalanche are environment.c's.
 */
#include "engine/journey/state.h"
#include "engine/journey/rules.h"

#include <string.h>

/* One step across an impasse edge: the same quadrant, one level apart, the
 * lower space printed "cannot ascend". */
static bool across_impasse(int from, int to)
{
  int lf = journey_level(from), lt = journey_level(to);
  int low = lf < lt ? from : to;

  if (lf == 0 || lt == 0 || journey_quadrant(from) != journey_quadrant(to))
    return false;
  if (lf - lt != 1 && lt - lf != 1)
    return false;
  return journey_ascend_cost(low) == JOURNEY_IMPASSE;
}

/* Grappling Hook: "Discard to move two spaces in any direction without
 * paying costs. If an impasse is jumped, move one space instead." Read as:
 * up to two ordinary steps with no cost, or a single step across an impasse
 * (RULES.md "Grappling Hook"). */
bool journey_hook_reaches(int from, int to)
{
  int d, e, mid;

  if (from == to)
    return false;
  if (across_impasse(from, to))
    return true;
  for (d = JOURNEY_UP; d <= JOURNEY_COUNTERCLOCKWISE; d++) {
    mid = journey_step(from, d);
    if (mid < 0)
      continue;
    if (mid == to)
      return true;
    for (e = JOURNEY_UP; e <= JOURNEY_COUNTERCLOCKWISE; e++)
      if (journey_step(mid, e) == to)
        return true;
  }
  return false;
}

/* A rule violation; the format is checked by cairn_fail's attribute. */
#define refuse(err, rule, ...)                                                                     \
  cairn_fail((err), CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, (rule), __VA_ARGS__)

enum cairn_status journey_check_use(const struct journey_state *st, int seat,
                                    const struct journey_move *m, struct cairn_error *err)
{
  const struct journey_climber *p = &st->climber[seat];
  const char *who = journey_role_name(seat), *item = journey_item_name(m->item);

  /* Frostbite: "Target player cannot use equipment on their next turn." */
  if (p->no_equipment)
    return refuse(err, JOURNEY_RULE_ENVIRONMENT,
                  "%s has frostbite and cannot use equipment this turn (%s)", who, item);
  if (p->items[m->item] == 0)
    return refuse(err, JOURNEY_RULE_EQUIPMENT, "%s holds no %s", who, item);
  switch (m->item) {
  case JOURNEY_FOOD:
    if (p->health >= JOURNEY_HEALTH)
      return refuse(err, JOURNEY_RULE_EQUIPMENT, "%s is at full health; %s restores nothing", who,
                    item);
    return CAIRN_OK;
  case JOURNEY_ROPE:
    /* "Discard to escape Crevice or combine with Grappling Hook" (the
     * latter only against an Avalanche). */
    if (!p->in_crevice)
      return refuse(err, JOURNEY_RULE_EQUIPMENT,
                    "%s is not in a crevice; a %s is used to escape one (or with a hook against "
                    "an Avalanche)",
                    who, item);
    return CAIRN_OK;
  case JOURNEY_O2_TANK:
    return refuse(err, JOURNEY_RULE_EQUIPMENT,
                  "%s: an %s protects by being held and is never used as an action", who, item);
  case JOURNEY_HOOK:
    if (p->in_crevice)
      return refuse(err, JOURNEY_RULE_ENVIRONMENT,
                    "%s is in a crevice and cannot move, not even with a %s (a Rope escapes it)",
                    who, item);
    if (p->cannot_move)
      return refuse(err, JOURNEY_RULE_ENVIRONMENT,
                    "%s cannot move this turn (%s, played in the Mountain's last turn), not even "
                    "with a %s",
                    who, journey_immobile_cause(st), item);
    if (!journey_hook_reaches(p->space, m->to))
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT,
                        "the grappling hook cannot take %s from %s to %s: two spaces at most, or "
                        "one across an impasse",
                        who, journey_space_name(p->space), journey_space_name(m->to));
    return CAIRN_OK;
  case JOURNEY_TENT:
    if (p->tent == p->space)
      return refuse(err, JOURNEY_RULE_EQUIPMENT, "%s's tent is already pitched here (%s)", who,
                    journey_space_name(p->space));
    return CAIRN_OK;
  case JOURNEY_BOW:
    if (m->target == JOURNEY_BOW_FOOD && !journey_below_tree_line(p->space))
      return refuse(err, JOURNEY_RULE_EQUIPMENT,
                    "%s is above the tree line on %s; the bow finds food only below it", who,
                    journey_space_name(p->space));
    if (m->target == JOURNEY_BOW_YETI && st->yeti_level == 0)
      return refuse(err, JOURNEY_RULE_EQUIPMENT, "%s: there is no Yeti on the mountain to shoot",
                    who);
    return CAIRN_OK;
  default:
    return CAIRN_OK; /* Forecast: even an empty hand may be looked at */
  }
}

static enum cairn_status emit_used(json_t *events, int seat, int item, struct cairn_error *err)
{
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:s}", "type", "used", "seat", seat, "item",
                     journey_item_name(item));
}

/* Bow & Arrow: "Below tree line, roll 2 dice for 8+ to obtain one food.
 * Roll 2 dice for 7+ to deal 2 damage to Yeti." The bow is kept. */
static enum cairn_status shoot(struct journey_state *st, int seat, int target, json_t *events,
                               struct cairn_error *err)
{
  int a = engine_rng_die(&st->head.rng, 6), b = engine_rng_die(&st->head.rng, 6);
  bool hit = a + b >= (target == JOURNEY_BOW_FOOD ? 8 : 7);

  if (hit && target == JOURNEY_BOW_FOOD)
    st->climber[seat].items[JOURNEY_FOOD]++;
  if (hit && target == JOURNEY_BOW_YETI) {
    st->yeti_health -= 2;
    if (st->yeti_health <= 0) {
      st->yeti_health = 0;
      st->yeti_level = 0;
    }
  }
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:[ii], s:b, s:i}", "type", "bow", "seat", seat,
                     "target", target == JOURNEY_BOW_FOOD ? "food" : "yeti", "dice", a, b, "hit",
                     hit, "yeti_health", st->yeti_health);
}

/* Forecast: "Discard to look at the environment's hand. Choose one card
 * from the hand to remove from play for the entirety of the game." The hand
 * goes to this climber only (a private event and its own view). */
static enum cairn_status forecast(struct journey_state *st, int seat, json_t *events,
                                  struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[seat];
  enum cairn_status s;

  journey_drop(st, seat, JOURNEY_FORECAST, 1);
  memcpy(p->forecast_hand, st->hand, sizeof(p->forecast_hand));
  p->forecast_seen = true;
  p->forecast_turn = st->turn;
  p->choosing = journey_hand_size(st) > 0;
  s = emit_used(events, seat, JOURNEY_FORECAST, err);
  if (s != CAIRN_OK)
    return s;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:o, s:[i]}", "type", "forecast", "seat", seat,
                     "hand", journey_card_counts_json(st->hand), "private_to", seat);
}

enum cairn_status journey_use(struct journey_state *st, int seat, const struct journey_move *m,
                              json_t *events, struct cairn_error *err)
{
  struct journey_climber *p = &st->climber[seat];
  int from = p->space;

  switch (m->item) {
  case JOURNEY_FOOD:
    /* "Discard to restore 1 health." */
    journey_drop(st, seat, JOURNEY_FOOD, 1);
    p->health++;
    return emit_used(events, seat, m->item, err);
  case JOURNEY_ROPE:
    journey_drop(st, seat, JOURNEY_ROPE, 1);
    p->in_crevice = false;
    return emit_used(events, seat, m->item, err);
  case JOURNEY_HOOK:
    journey_drop(st, seat, JOURNEY_HOOK, 1);
    journey_place(st, seat, m->to);
    return ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:s, s:s}", "type", "used", "seat", seat,
                       "item", journey_item_name(m->item), "from", journey_space_name(from), "to",
                       journey_space_name(m->to));
  case JOURNEY_TENT:
    /* "Pitch to prevent High Wind damage ..." */
    p->tent = p->space;
    return ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:s}", "type", "used", "seat", seat, "item",
                       journey_item_name(m->item), "pitched_on", journey_space_name(p->space));
  case JOURNEY_BOW:
    return shoot(st, seat, m->target, events, err);
  default:
    return forecast(st, seat, events, err);
  }
}

enum cairn_status journey_check_remove(const struct journey_state *st, int seat,
                                       const struct journey_move *m, struct cairn_error *err)
{
  if (!st->climber[seat].choosing)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT,
                      "%s has no Forecast to choose a card for", journey_role_name(seat));
  if (st->hand[m->card] == 0)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, JOURNEY_RULE_EQUIPMENT,
                      "the environment's hand holds no %s", journey_card_name(m->card));
  return CAIRN_OK;
}

enum cairn_status journey_remove(struct journey_state *st, int seat, const struct journey_move *m,
                                 json_t *events, struct cairn_error *err)
{
  struct journey_climber *other = &st->climber[1 - seat];
  enum cairn_status s;

  st->hand[m->card]--;
  st->removed[m->card]++;
  st->climber[seat].choosing = false;
  s = ENGINE_EMIT(events, err, "{s:s, s:i, s:s}", "type", "card_removed", "seat", seat, "card",
                  journey_card_name(m->card));
  /* Both climbers may look in the same turn; when the first removal empties
   * the hand, the second has nothing left to remove (RULES.md "Forecast"). */
  if (s != CAIRN_OK || !other->choosing || journey_hand_size(st) > 0)
    return s;
  other->choosing = false;
  if (other->actions == 0)
    other->done = true;
  return ENGINE_EMIT(events, err, "{s:s, s:i}", "type", "nothing_to_remove", "seat", 1 - seat);
}
