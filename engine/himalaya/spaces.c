/*
 * spaces.c - Special Spaces: the board as data (camps, snowfields,
 * avalanches and landslides, the Yeti cave) and the rules attached to the
 * spaces: where a pawn may stop, where a supply card may not carry it, and
 * freshening supplies at the high camps. How pawns move is left to
 * sherpas.c and climbers.c.
 *
 * The printed board is lost; this layout is the reconstruction of
 * shared/research/game-data.md section 4 (RULES.md "The path").
 */
#include "engine/himalaya/state.h"
#include "engine/himalaya/rules.h"

struct slide {
  int from, to;   /* a Sherpa landing on `from` slides down to `to` */
  bool avalanche; /* else a landslide; the two act alike */
};

/* Arrow targets are never special fields, so a slide never ends on a
 * snowfield, a camp, the cave or another arrow. */
static const struct slide slides[] = {
    {7, 3, false}, {12, 8, false}, {19, 16, true}, {24, 20, true}, {31, 29, true}, {35, 32, true},
};

static const int snowfields[] = {10, 25, 34, 37, 38};

/* Base camp first, then the two high camps ("2 Zwischenlager"). */
static const int camps[] = {HIMALAYA_BASE_CAMP, HIMALAYA_HIGH_CAMP_1, HIMALAYA_HIGH_CAMP_2};

static const int sherpa_start[HIMALAYA_SHERPAS] = {1, 2, 3, 4};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int himalaya_sherpa_start(int sherpa)
{
  return sherpa_start[sherpa];
}

int himalaya_high_camp(int c)
{
  return camps[c + 1];
}

int himalaya_slide_target(int field)
{
  size_t i;

  for (i = 0; i < COUNT(slides); i++)
    if (slides[i].from == field)
      return slides[i].to;
  return field;
}

bool himalaya_is_snowfield(int field)
{
  size_t i;

  for (i = 0; i < COUNT(snowfields); i++)
    if (snowfields[i] == field)
      return true;
  return false;
}

bool himalaya_is_camp(int field)
{
  size_t i;

  for (i = 0; i < COUNT(camps); i++)
    if (camps[i] == field)
      return true;
  return false;
}

int himalaya_last_camp(int field)
{
  int best = HIMALAYA_BASE_CAMP;
  size_t i;

  for (i = 0; i < COUNT(camps); i++)
    if (camps[i] < field && camps[i] > best)
      best = camps[i];
  return best;
}

int himalaya_sherpas_on(const struct himalaya_state *st, int field)
{
  int seat, n = 0;

  for (seat = 0; seat < st->head.seats; seat++)
    n += himalaya_own_sherpas_on(st, seat, field);
  return n;
}

int himalaya_own_sherpas_on(const struct himalaya_state *st, int seat, int field)
{
  int s, n = 0;

  for (s = 0; s < HIMALAYA_SHERPAS; s++)
    n += st->seat[seat].sherpa[s] == field;
  return n;
}

enum cairn_status himalaya_check_stop(const struct himalaya_state *st, const char *who, int field,
                                      struct cairn_error *err)
{
  /* "Yeti Cave: ... Here, no pawn may stand during the entire game, other
   * than the Yeti. Movement across the space is of course allowed." */
  if (field == HIMALAYA_YETI_CAVE)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "%s cannot stop on field %d: it is the Yeti cave, where no pawn may stand",
                      who, field);
  /* "On the space that the Yeti stands, no other pawns may be moved.
   * Jumping across this field is allowed." */
  if (field == st->yeti)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "%s cannot stop on field %d: the Yeti stands there", who, field);
  return CAIRN_OK;
}

enum cairn_status himalaya_check_supply_stop(const char *who, int field, struct cairn_error *err)
{
  /* "Snowfields: On these spaces and on the summit space (goal) movement
   * with a supply card is not allowed." */
  if (himalaya_is_snowfield(field))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "%s cannot reach field %d with a supply card: it is a snowfield", who, field);
  if (field >= HIMALAYA_SUMMIT)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "%s cannot reach the summit with a supply card", who);
  return CAIRN_OK;
}

/* "If two or more Sherpas of a player meet in a high camp, then a supply
 * card that has already been used may be picked up and taken into the hand
 * again. However this gain is allowed only once per camp!" Taking the card
 * back never hurts, so it happens without asking; the camp is used up only
 * when a card actually comes back (RULES.md "High camps"). */
enum cairn_status himalaya_resupply(struct himalaya_state *st, json_t *events,
                                    struct cairn_error *err)
{
  enum cairn_status status;
  int seat, c, card;

  for (seat = 0; seat < st->head.seats; seat++) {
    struct himalaya_seat *p = &st->seat[seat];

    for (c = 0; c < HIMALAYA_HIGH_CAMPS; c++) {
      if (p->camp_used[c] || p->spent_count == 0 ||
          himalaya_own_sherpas_on(st, seat, himalaya_high_camp(c)) < 2)
        continue;
      card = p->spent[--p->spent_count];
      p->camp_used[c] = true;
      status =
          himalaya_emit(events,
                        json_pack("{s:s, s:i, s:s, s:i}", "type", "supply_restored", "seat", seat,
                                  "card", himalaya_card_name(card), "camp", himalaya_high_camp(c)),
                        err);
      if (status != CAIRN_OK)
        return status;
    }
  }
  return CAIRN_OK;
}

json_t *himalaya_board_json(void)
{
  json_t *list = json_array();
  json_t *board = NULL;
  size_t i;

  for (i = 0; list && i < COUNT(slides); i++)
    if (json_array_append_new(
            list, json_pack("{s:i, s:i, s:s}", "from", slides[i].from, "to", slides[i].to, "kind",
                            slides[i].avalanche ? "avalanche" : "landslide")) != 0) {
      json_decref(list);
      list = NULL;
    }
  if (!list)
    return NULL;
  board = json_pack(
      "{s:i, s:i, s:o, s:o, s:o, s:o, s:i, s:o}", "base_camp", HIMALAYA_BASE_CAMP, "summit",
      HIMALAYA_SUMMIT, "camps", himalaya_int_array(camps, (int)COUNT(camps)), "high_camps",
      himalaya_int_array(camps + 1, (int)COUNT(camps) - 1), "snowfields",
      himalaya_int_array(snowfields, (int)COUNT(snowfields)), "slides", list, "yeti_cave",
      HIMALAYA_YETI_CAVE, "sherpa_start", himalaya_int_array(sherpa_start, HIMALAYA_SHERPAS));
  return board;
}
