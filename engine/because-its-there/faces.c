/*
 * faces.c - what is printed on each card, for the view: a person plays
 * from the view alone, so every card shows its effect, immunity, recovery
 * number or Strength beside its name, and a short `text` in the words a
 * player reads (our own short wording of the reconstruction, RULES.md §1).
 */
#include "engine/because-its-there/state.h"

#include <stddef.h>
#include <string.h>

/*
 * The texts are assembled with a small appender, not snprintf: every view
 * writes the face of every card in sight, and formatting them was a tenth
 * of the server's CPU per move under bench_load (issue 22). Each text fits
 * its buffer by construction (the longest words and numbers are known); an
 * overlong one would be cut, never overflow.
 */
struct text {
  char *buf;
  size_t size, len; /* len < size; buf[len] is NUL */
};

static void text_start(struct text *t, char *buf, size_t size)
{
  t->buf = buf;
  t->size = size;
  t->len = 0;
  buf[0] = '\0';
}

/* `s` at the end, cut where the buffer ends. One copy of a measured span,
 * not a byte loop: the words are most of a view's text (issue 22). */
static void add(struct text *t, const char *s)
{
  size_t n = strlen(s), room = t->size - 1 - t->len;

  if (n > room)
    n = room;
  memcpy(t->buf + t->len, s, n);
  t->len += n;
  t->buf[t->len] = '\0';
}

/* The text as the value of member `key`: its length is known, so the
 * writer need not measure it again. */
static void write_text(struct json_writer *w, const char *key, const struct text *t)
{
  jw_key(w, key);
  jw_string_n(w, t->buf, t->len);
}

/* `v` in decimal; with `plus`, a "+" before a positive or zero number. */
static void add_int(struct text *t, int v, bool plus)
{
  char digits[16];
  unsigned int u = v < 0 ? 0u - (unsigned int)v : (unsigned int)v;
  size_t n = 0;

  if (v < 0)
    add(t, "-");
  else if (plus)
    add(t, "+");
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  while (n && t->len + 1 < t->size)
    t->buf[t->len++] = digits[--n];
  t->buf[t->len] = '\0';
}

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
static void add_loss(struct text *t, int amount)
{
  if (amount >= 99) {
    add(t, "dies");
    return;
  }
  add(t, "loses ");
  add_int(t, amount, false);
  add(t, " Strength");
}

/* An Event's effect in a sentence (events.c applies exactly this). */
static void event_effect(const struct bit_card *e, struct text *t)
{
  switch (e->effect) {
  case BIT_FX_RANDOM:
    add(t, "One Climber chosen at random ");
    add_loss(t, e->amount);
    if (e->novice) {
      add(t, " (a Novice loses ");
      add_int(t, e->amount + e->novice, false);
      add(t, ")");
    }
    add(t, ".");
    break;
  case BIT_FX_RANDOM_ANY:
    add(t, "One Climber or Sherpas chosen at random: a Climber ");
    add_loss(t, e->amount);
    add(t, ", a Sherpas goes to the dead pile.");
    break;
  case BIT_FX_ALL:
    add(t, "ALL Climbers on this Terrain card lose ");
    add_int(t, e->amount, false);
    add(t, " Strength.");
    break;
  case BIT_FX_TEAM:
    add(t, e->amount > 0 ? "Each Climber of the Climbing Team gains "
                         : "Each Climber of the Climbing Team loses ");
    add_int(t, e->amount > 0 ? e->amount : -e->amount, false);
    add(t, " Strength.");
    break;
  case BIT_FX_TEAM_NONVET:
    add(t, "Each non-Veteran Climber of the Climbing Team loses ");
    add_int(t, e->amount, false);
    add(t, " Strength.");
    break;
  case BIT_FX_LOSE_LOADED:
    add(t, "The Climbing Team's Loaded Supplies are lost (discarded).");
    break;
  case BIT_FX_DESERT:
    add(t, "One Sherpas on this Terrain card deserts (dead pile).");
    break;
  case BIT_FX_CAMP_LOST:
    add(t, "A Camp on this Terrain card is lost (discarded).");
    break;
  case BIT_FX_WEATHER_WORSE:
    add(t, "The Weather worsens one step.");
    break;
  case BIT_FX_WEATHER_BETTER:
    add(t, "The Weather improves one step.");
    break;
  case BIT_FX_STORM:
    add(t, "The Weather becomes Storm.");
    break;
  default:
    break;
  }
}

static const char *terrain_name(int terrain)
{
  return terrain == BIT_GLACIER ? "Glacier"
         : terrain == BIT_HIGH  ? "High Altitude"
                                : "Extreme Altitude";
}

/* Event cards: border (terrain), effect, End, oxygen, Immunity, Base
 * Strength Recovery. */
static void event_face(struct json_writer *w, const struct bit_card *e)
{
  char effect_buf[160], text[320];
  const char *im = immunity(e);
  struct text effect, t;

  text_start(&effect, effect_buf, sizeof effect_buf);
  event_effect(e, &effect);
  jw_key_string(w, "terrain", terrain_words[(int)e->terrain]);
  write_text(w, "effect", &effect);
  jw_key_bool(w, "ends_movement", e->end);
  jw_key_bool(w, "oxygen", e->oxygen);
  jw_key_string(w, "immunity", im); /* null for none */
  jw_key_int(w, "recovery", e->bsr);
  text_start(&t, text, sizeof text);
  add(&t, terrain_name(e->terrain));
  add(&t, " event. ");
  add(&t, effect.buf);
  add(&t, effect.len ? " " : "");
  add(&t, e->end ? "The Climbing Team must end movement." : "");
  add(&t, e->oxygen ? " (Oxygen-related.)" : "");
  add(&t, " Immunity: ");
  add(&t, im ? im : "none");
  add(&t, ". Recovery ");
  add_int(&t, e->bsr, true);
  add(&t, ".");
  write_text(w, "text", &t);
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
  struct text t;

  text_start(&t, text, sizeof text);
  add(&t, "Climber. Strength ");
  add_int(&t, c->strength, false);
  add(&t, ". ");
  add(&t, skills[(int)c->skill]);
  add(&t, c->special ? ", " : "");
  add(&t, special_words[(int)c->special]);
  add(&t, ".");
  write_text(w, "text", &t);
}

static void terrain_text(struct json_writer *w, const struct bit_card *c)
{
  char text[128];
  struct text t;

  if (c->terrain == BIT_SUMMIT_TYPE) {
    jw_key_string(w, "text", "The Summit. No Strength cost to exit; no Event is drawn here.");
    return;
  }
  text_start(&t, text, sizeof text);
  add(&t, terrain_name(c->terrain));
  add(&t, " Terrain. Exit up: ");
  add_int(&t, c->up, false);
  add(&t, " Strength; exit down: ");
  add_int(&t, c->down, false);
  add(&t, " Strength.");
  write_text(w, "text", &t);
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
