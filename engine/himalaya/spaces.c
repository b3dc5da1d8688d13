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

#include <stdio.h>

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

enum cairn_status himalaya_check_supply_start(const char *who, int field, struct cairn_error *err)
{
  /* "Snowfields: On these spaces ... movement with a supply card is not
   * allowed." A pawn leaving a snowfield begins its movement on it; passing
   * over one is not movement "on" it, as the Yeti cave's "Movement across
   * the space" is told apart from standing there (RULES.md). */
  if (himalaya_is_snowfield(field))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "%s stands on snowfield %d and cannot leave it with a supply card: on "
                      "snowfields movement with a supply card is not allowed",
                      who, field);
  return CAIRN_OK;
}

/* "If two or more Sherpas of a player meet in a high camp, then a supply
 * card that has already been used may be picked up and taken into the hand
 * again. However this gain is allowed only once per camp!" Picking up is a
 * choice (a move's "restore" member), made by the player on any die or card
 * move after which two of its Sherpas stand together in a camp whose gain
 * it has not taken (RULES.md "High camps"). */
int himalaya_restore_camp(const struct himalaya_state *st, int seat,
                          const int fields[HIMALAYA_SHERPAS])
{
  int c, s, n;

  for (c = 0; c < HIMALAYA_HIGH_CAMPS; c++) {
    if (st->seat[seat].camp_used[c])
      continue;
    for (s = 0, n = 0; s < HIMALAYA_SHERPAS; s++)
      n += fields[s] == himalaya_high_camp(c);
    if (n >= 2)
      return c;
  }
  return -1;
}

/* Why no high camp serves `seat`: each camp's count and whether its gain is
 * spent, for the refusal message. */
static void camps_text(const struct himalaya_state *st, int seat,
                       const int fields[HIMALAYA_SHERPAS], char *buf, size_t size)
{
  size_t used = 0;
  int c, s, n;

  buf[0] = '\0';
  for (c = 0; c < HIMALAYA_HIGH_CAMPS && used < size; c++) {
    for (s = 0, n = 0; s < HIMALAYA_SHERPAS; s++)
      n += fields[s] == himalaya_high_camp(c);
    used += (size_t)snprintf(buf + used, size - used, "%shigh camp %d: %d Sherpa%s%s",
                             c ? "; " : "", himalaya_high_camp(c), n, n == 1 ? "" : "s",
                             st->seat[seat].camp_used[c] ? ", gain already taken" : "");
  }
}

enum cairn_status himalaya_check_restore(const struct himalaya_state *st, int seat,
                                         const struct himalaya_move *m,
                                         const int fields[HIMALAYA_SHERPAS],
                                         struct cairn_error *err)
{
  const struct himalaya_seat *p = &st->seat[seat];
  const char *name = himalaya_card_name(m->restore_card);
  char why[96];

  if (!p->has_card[m->restore_card])
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "restore %s: seat %d was not dealt this supply card", name, seat);
  /* "a supply card that has already been used": the card powering this
   * very move is not yet one of them (RULES.md). */
  if (m->type == HIMALAYA_MOVE_SUPPLY && m->card == m->restore_card)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "restore %s: this move plays card %s; only a card used before it may be "
                      "picked up at a high camp",
                      name, name);
  if (!himalaya_card_spent(p, m->restore_card))
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                      "restore %s: seat %d still holds this supply card; only a used one may be "
                      "picked up",
                      name, seat);
  if (himalaya_restore_camp(st, seat, fields) >= 0)
    return CAIRN_OK;
  if (err)
    camps_text(st, seat, fields, why, sizeof(why));
  return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, HIMALAYA_RULE_SPACES,
                    "restore %s: after this move no high camp holds two Sherpas of seat %d with "
                    "its gain unused (%s); the gain is allowed only once per camp",
                    name, seat, err ? why : "");
}

enum cairn_status himalaya_restore(struct himalaya_state *st, int seat, int card, json_t *events,
                                   struct cairn_error *err)
{
  struct himalaya_seat *p = &st->seat[seat];
  int c = himalaya_restore_camp(st, seat, p->sherpa);
  int i, j;

  if (c < 0)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "restore: no high camp qualifies after a checked move");
  for (i = 0, j = 0; i < p->spent_count; i++)
    if (p->spent[i] != card)
      p->spent[j++] = p->spent[i];
  p->spent_count = j;
  p->camp_used[c] = true;
  return ENGINE_EMIT(events, err, "{s:s, s:i, s:s, s:i}", "type", "supply_restored", "seat", seat,
                     "card", himalaya_card_name(card), "camp", himalaya_high_camp(c));
}

json_t *himalaya_field_name(int field)
{
  switch (field) {
  case HIMALAYA_BASE_CAMP:
    return json_string("Base Camp");
  case HIMALAYA_HIGH_CAMP_1:
    return json_string("High Camp I");
  case HIMALAYA_HIGH_CAMP_2:
    return json_string("High Camp II");
  case HIMALAYA_YETI_CAVE:
    return json_string("Yeti Cave");
  case HIMALAYA_SUMMIT:
    return json_string("Summit");
  default:
    return json_sprintf("field %d", field);
  }
}

static void write_slides(struct json_writer *w)
{
  size_t i;

  jw_array_begin(w);
  for (i = 0; i < COUNT(slides); i++) {
    jw_object_begin(w);
    jw_key_int(w, "from", slides[i].from);
    jw_key_int(w, "to", slides[i].to);
    jw_key_string(w, "kind", slides[i].avalanche ? "avalanche" : "landslide");
    jw_object_end(w);
  }
  jw_array_end(w);
}

void himalaya_write_board(struct json_writer *w)
{
  jw_object_begin(w);
  jw_key_int(w, "base_camp", HIMALAYA_BASE_CAMP);
  jw_key_int(w, "summit", HIMALAYA_SUMMIT);
  jw_key(w, "camps");
  jw_int_array(w, camps, COUNT(camps));
  jw_key(w, "high_camps");
  jw_int_array(w, camps + 1, COUNT(camps) - 1);
  jw_key(w, "snowfields");
  jw_int_array(w, snowfields, COUNT(snowfields));
  jw_key(w, "slides");
  write_slides(w);
  jw_key_int(w, "yeti_cave", HIMALAYA_YETI_CAVE);
  jw_key(w, "sherpa_start");
  jw_int_array(w, sherpa_start, HIMALAYA_SHERPAS);
  jw_object_end(w);
}
