/*
 * moves.c - the move JSON: the names of items, cards, roles, quadrants and
 * directions, parsing a client's move object into a struct journey_move
 * (shape only: types, names, known members) and writing the canonical form
 * back. Whether a well-formed move is allowed is decided by the phase files
 * (setup.c, climbers.c, equipment.c, mountain.c, environment.c).
 */
#include "engine/journey/state.h"

#include <string.h>

static const char item_names[JOURNEY_ITEMS][16] = {
    "food", "rope", "o2_tank", "grappling_hook", "tent", "bow_and_arrow", "forecast"};
static const char card_names[JOURNEY_CARDS][12] = {"high_wind", "avalanche", "rockslide", "yeti",
                                                   "crevice",   "frostbite", "blizzard"};
static const char role_names[JOURNEY_SEATS][10] = {"tenzing", "hillary", "mountain"};
static const char quadrant_names[JOURNEY_QUADRANTS][2] = {"N", "E", "S", "W"};
static const char direction_names[][18] = {"up", "down", "clockwise", "counterclockwise", "stay"};
static const char protect_names[][14] = {"none", "hook", "hook_and_rope"};
static const char bow_names[][5] = {"food", "yeti"};

/* The names a player reads, beside the names above in events (the
 * platform's convention): the card tables' own spelling, and the roles as
 * the text calls them. */
static const char item_titles[JOURNEY_ITEMS][16] = {
    "Food", "Rope", "O\u2082 Tank", "Grappling Hook", "Tent", "Bow & Arrow", "Forecast"};
static const char card_titles[JOURNEY_CARDS][12] = {"High Wind", "Avalanche", "Rockslide", "Yeti",
                                                    "Crevice",   "Frostbite", "Blizzard"};
static const char role_titles[JOURNEY_SEATS][12] = {"Tenzing", "Hillary", "Mt. Everest"};

/* The move types, indexed by enum journey_move_type. */
static const char type_names[][10] = {"buy",  "done",   "move",      "use",
                                      "give", "remove", "end_turn",  "discard",
                                      "play", "yeti",   "rockslide", "avalanche"};
#define N_TYPES ((int)(sizeof(type_names) / sizeof(type_names[0])))

static int find(const char *name, const char (*names)[18], int n)
{
  int i;

  for (i = 0; i < n; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  return -1;
}

const char *journey_item_name(int item)
{
  return item_names[item];
}

int journey_item_named(const char *name)
{
  int i;

  for (i = 0; i < JOURNEY_ITEMS; i++)
    if (strcmp(name, item_names[i]) == 0)
      return i;
  return -1;
}

const char *journey_card_name(int card)
{
  return card_names[card];
}

int journey_card_named(const char *name)
{
  int i;

  for (i = 0; i < JOURNEY_CARDS; i++)
    if (strcmp(name, card_names[i]) == 0)
      return i;
  return -1;
}

const char *journey_role_name(int seat)
{
  return role_names[seat];
}

int journey_climber_named(const char *name)
{
  int i;

  for (i = 0; i < JOURNEY_CLIMBERS; i++)
    if (strcmp(name, role_names[i]) == 0)
      return i;
  return -1;
}

const char *journey_item_title(int item)
{
  return item_titles[item];
}

const char *journey_card_title(int card)
{
  return card_titles[card];
}

const char *journey_role_title(int seat)
{
  return role_titles[seat];
}

const char *journey_move_type_name(int type)
{
  return type_names[type];
}

const char *journey_quadrant_name(int q)
{
  return quadrant_names[q];
}

int journey_quadrant_named(const char *name)
{
  int i;

  for (i = 0; i < JOURNEY_QUADRANTS; i++)
    if (strcmp(name, quadrant_names[i]) == 0)
      return i;
  return -1;
}

const char *journey_direction_name(int d)
{
  return direction_names[d];
}

int journey_direction_named(const char *name)
{
  return find(name, direction_names, 5);
}

/* ---- parsing ---- */

/* The members each move may carry besides "type"; a member is allowed when
 * the move's type (and, for "use" and "play", its item or card) names it. */
static bool allowed_member(const struct journey_move *m, const char *key)
{
  switch (m->type) {
  case JOURNEY_MOVE_BUY:
  case JOURNEY_MOVE_GIVE:
    return strcmp(key, "item") == 0;
  case JOURNEY_MOVE_STEP:
    return strcmp(key, "to") == 0;
  case JOURNEY_MOVE_USE:
    return strcmp(key, "item") == 0 || (strcmp(key, "to") == 0 && m->item == JOURNEY_HOOK) ||
           (strcmp(key, "target") == 0 && m->item == JOURNEY_BOW);
  case JOURNEY_MOVE_REMOVE:
  case JOURNEY_MOVE_DISCARD:
    return strcmp(key, "card") == 0;
  case JOURNEY_MOVE_PLAY:
    return strcmp(key, "card") == 0 ||
           (strcmp(key, "quadrant") == 0 && m->card == JOURNEY_AVALANCHE) ||
           (strcmp(key, "direction") == 0 && m->card == JOURNEY_BLIZZARD) ||
           (strcmp(key, "target") == 0 &&
            (m->card == JOURNEY_ROCKSLIDE || m->card == JOURNEY_CREVICE ||
             m->card == JOURNEY_FROSTBITE));
  case JOURNEY_MOVE_YETI:
    return strcmp(key, "direction") == 0;
  case JOURNEY_MOVE_ROCKSLIDE:
    return strcmp(key, "choice") == 0 || (strcmp(key, "item") == 0 && m->discard);
  case JOURNEY_MOVE_AVALANCHE:
    return strcmp(key, "protect") == 0;
  case JOURNEY_MOVE_DONE:
  case JOURNEY_MOVE_END_TURN:
    return false;
  }
  return false;
}

/* Report the smallest unknown member, so the message never depends on the
 * object's key order. */
static enum cairn_status check_members(const json_t *json, const struct journey_move *m,
                                       struct cairn_error *err)
{
  const char *key, *smallest = NULL;
  const json_t *value;

  json_object_foreach((json_t *)json, key, value)
  {
    (void)value;
    if (strcmp(key, "type") != 0 && !allowed_member(m, key) &&
        (!smallest || strcmp(key, smallest) < 0))
      smallest = key;
  }
  if (!smallest)
    return CAIRN_OK;
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                    "%.64s: not a member of this \"%s\" move", smallest, type_names[m->type]);
}

/* A required string member naming one of `n` things found by `lookup`. */
static enum cairn_status get_name(const json_t *json, const char *member,
                                  int (*lookup)(const char *), const char *expected, int *out,
                                  struct cairn_error *err)
{
  const json_t *v = json_object_get(json, member);
  int i;

  if (!v)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "%s: missing", member);
  if (!json_is_string(v))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "%s: expected a string",
                      member);
  i = lookup(json_string_value(v));
  if (i < 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL, "%s: \"%.64s\" is not %s",
                      member, json_string_value(v), expected);
  *out = i;
  return CAIRN_OK;
}

static int type_named(const char *name)
{
  int i;

  for (i = 0; i < N_TYPES; i++)
    if (strcmp(name, type_names[i]) == 0)
      return i;
  return -1;
}

static int protect_named(const char *name)
{
  int i;

  for (i = 0; i < 3; i++)
    if (strcmp(name, protect_names[i]) == 0)
      return i;
  return -1;
}

static int bow_named(const char *name)
{
  return strcmp(name, "food") == 0   ? JOURNEY_BOW_FOOD
         : strcmp(name, "yeti") == 0 ? JOURNEY_BOW_YETI
                                     : -1;
}

static int choice_named(const char *name)
{
  return strcmp(name, "health") == 0 ? 0 : strcmp(name, "discard") == 0 ? 1 : -1;
}

static int blizzard_named(const char *name)
{
  int d = journey_direction_named(name);

  return d == JOURNEY_STAY ? -1 : d;
}

#define ITEMS                                                                                      \
  "an equipment card (food, rope, o2_tank, grappling_hook, tent, bow_and_arrow, forecast)"
#define CARDS                                                                                      \
  "an environment card (high_wind, avalanche, rockslide, yeti, crevice, frostbite, blizzard)"
#define CLIMBER "a climber (tenzing, hillary)"

/* The members that depend on the type, read after the type (and the item
 * or card it keys on) is known. */
static enum cairn_status parse_rest(const json_t *json, struct journey_move *m,
                                    struct cairn_error *err)
{
  enum cairn_status s = CAIRN_OK;
  int choice = 0;

  switch (m->type) {
  case JOURNEY_MOVE_STEP:
    return get_name(json, "to", journey_space_named, "a space (base_camp, L1-N .. L7-W)", &m->to,
                    err);
  case JOURNEY_MOVE_USE:
    if (m->item == JOURNEY_HOOK)
      return get_name(json, "to", journey_space_named, "a space (base_camp, L1-N .. L7-W)", &m->to,
                      err);
    if (m->item == JOURNEY_BOW)
      return get_name(json, "target", bow_named, "a Bow & Arrow target (food, yeti)", &m->target,
                      err);
    return CAIRN_OK;
  case JOURNEY_MOVE_PLAY:
    if (m->card == JOURNEY_AVALANCHE)
      return get_name(json, "quadrant", journey_quadrant_named, "a quadrant (N, E, S, W)",
                      &m->quadrant, err);
    if (m->card == JOURNEY_BLIZZARD)
      return get_name(json, "direction", blizzard_named,
                      "a direction (up, down, clockwise, counterclockwise)", &m->direction, err);
    if (m->card == JOURNEY_ROCKSLIDE || m->card == JOURNEY_CREVICE || m->card == JOURNEY_FROSTBITE)
      return get_name(json, "target", journey_climber_named, CLIMBER, &m->target, err);
    return CAIRN_OK;
  case JOURNEY_MOVE_YETI:
    return get_name(json, "direction", journey_direction_named, "a direction (up, down, stay)",
                    &m->direction, err);
  case JOURNEY_MOVE_ROCKSLIDE:
    s = get_name(json, "choice", choice_named, "a choice (health, discard)", &choice, err);
    m->discard = choice == 1;
    if (s == CAIRN_OK && m->discard)
      s = get_name(json, "item", journey_item_named, ITEMS, &m->item, err);
    return s;
  case JOURNEY_MOVE_AVALANCHE:
    return get_name(json, "protect", protect_named, "a protection (none, hook, hook_and_rope)",
                    &m->protect, err);
  default:
    return CAIRN_OK;
  }
}

enum cairn_status journey_move_parse(const json_t *json, struct journey_move *out,
                                     struct cairn_error *err)
{
  struct journey_move m;
  enum cairn_status s;
  int type;

  memset(&m, 0, sizeof(m));
  m.item = JOURNEY_NO_ITEM;
  if (!json_is_object(json))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "move: expected an object");
  /* A fixed order (type, the keying item or card, unknown members, the
   * rest) so the first error never depends on the object's key order. */
  s = get_name(json, "type", type_named,
               "a move type (buy, done, move, use, give, remove, end_turn, discard, play, yeti, "
               "rockslide, avalanche)",
               &type, err);
  if (s != CAIRN_OK)
    return s;
  m.type = (enum journey_move_type)type;
  if (m.type == JOURNEY_MOVE_BUY || m.type == JOURNEY_MOVE_USE || m.type == JOURNEY_MOVE_GIVE)
    s = get_name(json, "item", journey_item_named, ITEMS, &m.item, err);
  else if (m.type == JOURNEY_MOVE_REMOVE || m.type == JOURNEY_MOVE_DISCARD ||
           m.type == JOURNEY_MOVE_PLAY)
    s = get_name(json, "card", journey_card_named, CARDS, &m.card, err);
  else if (m.type == JOURNEY_MOVE_ROCKSLIDE) {
    const json_t *c = json_object_get(json, "choice");

    m.discard = json_is_string(c) && strcmp(json_string_value(c), "discard") == 0;
  }
  if (s != CAIRN_OK)
    return s;
  s = check_members(json, &m, err);
  if (s != CAIRN_OK)
    return s;
  s = parse_rest(json, &m, err);
  if (s == CAIRN_OK)
    memcpy(out, &m, sizeof(m));
  return s;
}

/* ---- writing ---- */

/* One member of a written move: every value is a name. */
struct member {
  const char *key, *value; /* Static */
};
#define MOVE_MEMBERS 3 /* "type" and at most two more */

/* The members of `m` after "type", in canonical order, written to out[];
 * how many. */
static int members_after_type(const struct journey_move *m, struct member *out)
{
  switch (m->type) {
  case JOURNEY_MOVE_BUY:
  case JOURNEY_MOVE_GIVE:
    out[0] = (struct member){"item", item_names[m->item]};
    return 1;
  case JOURNEY_MOVE_STEP:
    out[0] = (struct member){"to", journey_space_name(m->to)};
    return 1;
  case JOURNEY_MOVE_USE:
    out[0] = (struct member){"item", item_names[m->item]};
    if (m->item == JOURNEY_HOOK)
      out[1] = (struct member){"to", journey_space_name(m->to)};
    else if (m->item == JOURNEY_BOW)
      out[1] = (struct member){"target", bow_names[m->target]};
    else
      return 1;
    return 2;
  case JOURNEY_MOVE_REMOVE:
  case JOURNEY_MOVE_DISCARD:
    out[0] = (struct member){"card", card_names[m->card]};
    return 1;
  case JOURNEY_MOVE_PLAY:
    out[0] = (struct member){"card", card_names[m->card]};
    if (m->card == JOURNEY_AVALANCHE)
      out[1] = (struct member){"quadrant", quadrant_names[m->quadrant]};
    else if (m->card == JOURNEY_BLIZZARD)
      out[1] = (struct member){"direction", direction_names[m->direction]};
    else if (m->card == JOURNEY_ROCKSLIDE || m->card == JOURNEY_CREVICE ||
             m->card == JOURNEY_FROSTBITE)
      out[1] = (struct member){"target", role_names[m->target]};
    else
      return 1;
    return 2;
  case JOURNEY_MOVE_YETI:
    out[0] = (struct member){"direction", direction_names[m->direction]};
    return 1;
  case JOURNEY_MOVE_ROCKSLIDE:
    out[0] = (struct member){"choice", m->discard ? "discard" : "health"};
    if (!m->discard)
      return 1;
    out[1] = (struct member){"item", item_names[m->item]};
    return 2;
  case JOURNEY_MOVE_AVALANCHE:
    out[0] = (struct member){"protect", protect_names[m->protect]};
    return 1;
  case JOURNEY_MOVE_DONE:
  case JOURNEY_MOVE_END_TURN:
    break;
  }
  return 0;
}

/* The members of `m`, "type" first, written to out[]; how many. One list
 * serves both the tree (events) and the text (legal lists). */
static int move_members(const struct journey_move *m, struct member out[MOVE_MEMBERS])
{
  out[0] = (struct member){"type", type_names[m->type]};
  return 1 + members_after_type(m, out + 1);
}

json_t *journey_move_json(const struct journey_move *m)
{
  struct member members[MOVE_MEMBERS];
  int n = move_members(m, members), i;
  json_t *json = json_object();

  for (i = 0; json && i < n; i++)
    if (json_object_set_new_nocheck(json, members[i].key, json_string(members[i].value)) != 0) {
      json_decref(json);
      json = NULL;
    }
  return json;
}

void journey_move_write(const struct journey_move *m, struct json_writer *w)
{
  struct member members[MOVE_MEMBERS];
  int n = move_members(m, members), i;

  jw_object_begin(w);
  for (i = 0; i < n; i++)
    jw_key_string(w, members[i].key, members[i].value);
  jw_object_end(w);
}
