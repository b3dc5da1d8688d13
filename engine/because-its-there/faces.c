/*
 * faces.c - what is printed on each card, for the view: a person plays
 * from the view alone, so every card shows its effect, immunity, recovery
 * number or Strength beside its name, and a short `text` in the words a
 * player reads (our own short wording of the reconstruction, RULES.md §1).
 */
#include "engine/because-its-there/state.h"

#include <stdio.h>

static const char *const weather_words[] = {"Good", "Fair+", "Poor+", "Storm+"};
static const char *const skill_words[] = {"Novice+", "Experienced+", "Veteran"};
static const char *const special_words[] = {"", "Routefinding", "Sherpas", "Mechanical"};
static const char *const terrain_words[] = {"glacier", "high", "extreme", "summit"};

/* X.C.4: the Immunity printed in the lower left corner ("+" = or better),
 * NULL for none. */
static const char *immunity(const struct bit_card *e)
{
  switch (e->im_kind) {
  case BIT_IM_WEATHER:
    return weather_words[(int)e->im_value];
  case BIT_IM_SKILL:
    return skill_words[(int)e->im_value];
  case BIT_IM_SPECIAL:
    return special_words[(int)e->im_value];
  default:
    return NULL;
  }
}

/* The Strength loss as words: "dies" for 99, else "loses N Strength". */
static void loss(char *buf, size_t n, int amount)
{
  if (amount >= 99)
    snprintf(buf, n, "dies");
  else
    snprintf(buf, n, "loses %d Strength", amount);
}

/* An Event's effect in a sentence (events.c applies exactly this). */
static void event_effect(const struct bit_card *e, char *buf, size_t n)
{
  char l[32];

  loss(l, sizeof l, e->amount);
  switch (e->effect) {
  case BIT_FX_RANDOM:
    if (e->novice)
      snprintf(buf, n, "One Climber chosen at random %s (a Novice loses %d).", l,
               e->amount + e->novice);
    else
      snprintf(buf, n, "One Climber chosen at random %s.", l);
    break;
  case BIT_FX_RANDOM_ANY:
    snprintf(buf, n,
             "One Climber or Sherpas chosen at random: a Climber %s, a Sherpas goes to the dead "
             "pile.",
             l);
    break;
  case BIT_FX_ALL:
    snprintf(buf, n, "ALL Climbers on this Terrain card lose %d Strength.", e->amount);
    break;
  case BIT_FX_TEAM:
    snprintf(buf, n, "Each Climber of the Climbing Team %s %d Strength.",
             e->amount > 0 ? "gains" : "loses", e->amount > 0 ? e->amount : -e->amount);
    break;
  case BIT_FX_TEAM_NONVET:
    snprintf(buf, n, "Each non-Veteran Climber of the Climbing Team loses %d Strength.", e->amount);
    break;
  case BIT_FX_LOSE_LOADED:
    snprintf(buf, n, "The Climbing Team's Loaded Supplies are lost (discarded).");
    break;
  case BIT_FX_DESERT:
    snprintf(buf, n, "One Sherpas on this Terrain card deserts (dead pile).");
    break;
  case BIT_FX_CAMP_LOST:
    snprintf(buf, n, "A Camp on this Terrain card is lost (discarded).");
    break;
  case BIT_FX_WEATHER_WORSE:
    snprintf(buf, n, "The Weather worsens one step.");
    break;
  case BIT_FX_WEATHER_BETTER:
    snprintf(buf, n, "The Weather improves one step.");
    break;
  case BIT_FX_STORM:
    snprintf(buf, n, "The Weather becomes Storm.");
    break;
  default:
    buf[0] = '\0';
    break;
  }
}

/* Event cards: border (terrain), effect, End, oxygen, Immunity, Base
 * Strength Recovery. */
static void event_face(struct json_writer *w, const struct bit_card *e)
{
  char effect[160], text[320];
  const char *im = immunity(e);

  event_effect(e, effect, sizeof effect);
  jw_key_string(w, "terrain", terrain_words[(int)e->terrain]);
  jw_key_string(w, "effect", effect);
  jw_key_bool(w, "ends_movement", e->end);
  jw_key_bool(w, "oxygen", e->oxygen);
  jw_key_string(w, "immunity", im); /* null for none */
  jw_key_int(w, "recovery", e->bsr);
  snprintf(text, sizeof text, "%s event. %s%s%s%s Immunity: %s. Recovery %+d.",
           e->terrain == BIT_GLACIER ? "Glacier"
           : e->terrain == BIT_HIGH  ? "High Altitude"
                                     : "Extreme Altitude",
           effect, effect[0] ? " " : "", e->end ? "The Climbing Team must end movement." : "",
           e->oxygen ? " (Oxygen-related.)" : "", im ? im : "none", e->bsr);
  jw_key_string(w, "text", text);
}

/* Specials: when and how each is played (RULES.md §9). */
static const char *special_text(int special)
{
  static const char *const texts[] = {
      [BIT_BIVOUAC] = "Night Phase, before you rest: one Terrain card with your Climber counts as "
                      "having a Camp tonight (+1).",
      [BIT_FIXED_ROPES] = "Your Movement Phase: one Climbing Team pays 1 less Strength (minimum 0) "
                          "for each card it exits this phase.",
      [BIT_LADDERS] = "Your Movement Phase: one Climbing Team ignores Glacier Events this phase.",
      [BIT_OPEN_O2] = "Your Movement Phase: one of your Climbers on the mountain regains 2 "
                      "Strength (up to its maximum).",
      [BIT_CLOSED_O2] = "Your Movement Phase: one of your Climbers on the mountain regains 3 "
                        "Strength (up to its maximum).",
      [BIT_RADIO] = "Discard/Draw Phase of a turn whose weather was rolled: roll the weather die "
                    "again.",
  };
  return special >= BIT_BIVOUAC && special <= BIT_RADIO ? texts[special] : "";
}

static void climber_text(struct json_writer *w, const struct bit_card *c)
{
  static const char *const skills[] = {"Novice", "Experienced", "Veteran"};
  char text[96];

  snprintf(text, sizeof text, "Climber. Strength %d. %s%s%s.", c->strength, skills[(int)c->skill],
           c->special ? ", " : "", special_words[(int)c->special]);
  jw_key_string(w, "text", text);
}

static void terrain_text(struct json_writer *w, const struct bit_card *c)
{
  char text[128];

  if (c->terrain == BIT_SUMMIT_TYPE)
    snprintf(text, sizeof text, "The Summit. No Strength cost to exit; no Event is drawn here.");
  else
    snprintf(text, sizeof text, "%s Terrain. Exit up: %d Strength; exit down: %d Strength.",
             c->terrain == BIT_GLACIER ? "Glacier"
             : c->terrain == BIT_HIGH  ? "High Altitude"
                                       : "Extreme Altitude",
             c->up, c->down);
  jw_key_string(w, "text", text);
}

/* Write the printed face of `card` as members of its view object, open in
 * `w`. */
void bit_write_card_face(struct json_writer *w, int card)
{
  const struct bit_card *c = &bit_cards[card];

  switch (c->kind) {
  case BIT_TERRAIN:
    terrain_text(w, c);
    break;
  case BIT_CLIMBER:
    climber_text(w, c);
    break;
  case BIT_SHERPA:
    jw_key_string(w, "text",
                  "Sherpas. Carries one Supplies card or one Climber; may not move alone.");
    break;
  case BIT_SUPPLIES:
    jw_key_string(w, "text",
                  "Supplies. Moved only on a Sherpas; Unloaded Supplies give +1 recovery at "
                  "Night.");
    break;
  case BIT_CAMP:
    jw_key_string(w, "text",
                  "Camp. Placed on a Terrain card with your Climber and Unloaded Supplies; +1 "
                  "recovery at Night.");
    break;
  case BIT_SPECIAL:
    jw_key_string(w, "text", special_text(c->special));
    break;
  default:
    event_face(w, c);
    break;
  }
}
