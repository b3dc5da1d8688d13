/*
 * moves.c - the move JSON: parsing a client's move object into a struct
 * himalaya_move (shape only: types, enums, known members) and writing the
 * canonical form back. Whether a well-formed move is allowed is decided in
 * dice.c and the pawn files, never here.
 *
 *   {"type":"die",    "value":V, "pawn":"climber"|"none"}
 *   {"type":"die",    "value":V, "pawn":"sherpa", "sherpa":S,
 *                     "direction":"up"|"down", "take_along":B, "companions":[S...]}
 *   {"type":"supply", "card":"3/4", "value":V, "pawn":"climber"|"sherpa", ...}
 *   {"type":"reroll"}
 * Die and supply moves may add "restore": "1/2" (a used card picked up at
 * a high camp; absent or null: none).
 */
#include "engine/himalaya/state.h"

#include <string.h>

/* The members only a Sherpa move has. */
static const char sherpa_members[][12] = {"sherpa", "direction", "take_along", "companions"};

static bool allowed_member(const void *ctx, const char *key)
{
  const struct himalaya_move *m = ctx;
  size_t i;

  if (strcmp(key, "type") == 0)
    return true;
  if (m->type == HIMALAYA_MOVE_REROLL)
    return false;
  if (strcmp(key, "value") == 0 || strcmp(key, "pawn") == 0 || strcmp(key, "restore") == 0)
    return true;
  if (strcmp(key, "card") == 0)
    return m->type == HIMALAYA_MOVE_SUPPLY;
  if (m->pawn != HIMALAYA_PAWN_SHERPA)
    return false;
  for (i = 0; i < sizeof(sherpa_members) / sizeof(sherpa_members[0]); i++)
    if (strcmp(key, sherpa_members[i]) == 0)
      return true;
  return false;
}

/* Report an unknown member: the smallest, whatever the key order. */
static enum cairn_status check_members(const json_t *json, const struct himalaya_move *m,
                                       struct cairn_error *err)
{
  const char *smallest = himalaya_unknown_key(json, allowed_member, m);

  if (!smallest)
    return CAIRN_OK;
  if (m->type == HIMALAYA_MOVE_REROLL)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                      "%.64s: a reroll move has no other members", smallest);
  if (m->pawn != HIMALAYA_PAWN_SHERPA)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                      "%.64s: not a member of a %s move with pawn \"%s\"", smallest,
                      m->type == HIMALAYA_MOVE_DIE ? "die" : "supply",
                      m->pawn == HIMALAYA_PAWN_CLIMBER ? "climber" : "none");
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                    "%.64s: not a member of a %s move", smallest,
                    m->type == HIMALAYA_MOVE_DIE ? "die" : "supply");
}

/* A required string member. */
static enum cairn_status get_string(const json_t *json, const char *name, const char **out,
                                    struct cairn_error *err)
{
  const json_t *v = json_object_get(json, name);

  if (!v)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "%s: missing", name);
  if (!json_is_string(v))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "%s: expected a string",
                      name);
  *out = json_string_value(v);
  return CAIRN_OK;
}

/* A required integer member in lo..hi; outside it the move names no die,
 * card number or Sherpa that exists, which is a malformed move. */
static enum cairn_status get_int(const json_t *json, const char *name, int lo, int hi, int *out,
                                 struct cairn_error *err)
{
  const json_t *v = json_object_get(json, name);
  json_int_t i;

  if (!v)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "%s: missing", name);
  if (!json_is_integer(v))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "%s: expected an integer",
                      name);
  i = json_integer_value(v);
  if (i < lo || i > hi)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "%s: must be %d to %d, not %lld", name, lo, hi, (long long)i);
  *out = (int)i;
  return CAIRN_OK;
}

static enum cairn_status parse_type(const json_t *json, struct himalaya_move *m,
                                    struct cairn_error *err)
{
  const char *type;
  enum cairn_status status = get_string(json, "type", &type, err);

  if (status != CAIRN_OK)
    return status;
  if (strcmp(type, "die") == 0)
    m->type = HIMALAYA_MOVE_DIE;
  else if (strcmp(type, "supply") == 0)
    m->type = HIMALAYA_MOVE_SUPPLY;
  else if (strcmp(type, "reroll") == 0)
    m->type = HIMALAYA_MOVE_REROLL;
  else
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "type: \"%.64s\" is not one of \"die\", \"supply\", \"reroll\"", type);
  return CAIRN_OK;
}

static enum cairn_status parse_pawn(const json_t *json, struct himalaya_move *m,
                                    struct cairn_error *err)
{
  const char *pawn;
  enum cairn_status status = get_string(json, "pawn", &pawn, err);

  if (status != CAIRN_OK)
    return status;
  if (strcmp(pawn, "climber") == 0)
    m->pawn = HIMALAYA_PAWN_CLIMBER;
  else if (strcmp(pawn, "sherpa") == 0)
    m->pawn = HIMALAYA_PAWN_SHERPA;
  else if (strcmp(pawn, "none") == 0 && m->type == HIMALAYA_MOVE_DIE)
    m->pawn = HIMALAYA_PAWN_NONE;
  else if (m->type == HIMALAYA_MOVE_DIE)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "pawn: \"%.64s\" is not one of \"climber\", \"sherpa\", \"none\"", pawn);
  else
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "pawn: a supply card moves \"climber\" or \"sherpa\", not \"%.64s\"", pawn);
  return CAIRN_OK;
}

static enum cairn_status parse_card(const json_t *json, struct himalaya_move *m,
                                    struct cairn_error *err)
{
  const char *card;
  enum cairn_status status = get_string(json, "card", &card, err);

  if (status != CAIRN_OK)
    return status;
  m->card = himalaya_card_kind(card);
  if (m->card < 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "card: \"%.64s\" is not one of \"1/2\", \"3/4\", \"5/6\"", card);
  return CAIRN_OK;
}

/* "restore": the used card to pick up at a high camp, or absent/null. */
static enum cairn_status parse_restore(const json_t *json, struct himalaya_move *m,
                                       struct cairn_error *err)
{
  const json_t *v = json_object_get(json, "restore");
  const char *card;
  int kind;

  if (!v || json_is_null(v))
    return CAIRN_OK;
  if (!json_is_string(v))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "restore: expected a supply card name or null");
  card = json_string_value(v);
  kind = himalaya_card_kind(card);
  if (kind < 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "restore: \"%.64s\" is not one of \"1/2\", \"3/4\", \"5/6\"", card);
  m->restore = true;
  m->restore_card = kind;
  return CAIRN_OK;
}

static enum cairn_status parse_companions(const json_t *list, struct himalaya_move *m,
                                          struct cairn_error *err)
{
  size_t i;
  const json_t *item;

  if (!json_is_array(list))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "companions: expected an array of Sherpa indices");
  json_array_foreach(list, i, item)
  {
    json_int_t s;

    if (!json_is_integer(item))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                        "companions[%zu]: expected an integer", i);
    s = json_integer_value(item);
    if (s < 0 || s >= HIMALAYA_SHERPAS)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                        "companions[%zu]: must be 0 to %d, not %lld", i, HIMALAYA_SHERPAS - 1,
                        (long long)s);
    if (s == m->sherpa)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                        "companions[%zu]: Sherpa %d is the one moving, not a companion", i,
                        m->sherpa);
    if (m->companions & (1u << s))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                        "companions[%zu]: Sherpa %lld is listed twice", i, (long long)s);
    m->companions |= 1u << s;
  }
  if (m->companions && !m->take_along)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "companions: only a take-along move (\"take_along\": true) has companions");
  return CAIRN_OK;
}

static enum cairn_status parse_sherpa(const json_t *json, struct himalaya_move *m,
                                      struct cairn_error *err)
{
  const json_t *v;
  enum cairn_status status;

  status = get_int(json, "sherpa", 0, HIMALAYA_SHERPAS - 1, &m->sherpa, err);
  if (status != CAIRN_OK)
    return status;
  v = json_object_get(json, "direction");
  if (v) {
    const char *dir;

    if (!json_is_string(v))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                        "direction: expected a string");
    dir = json_string_value(v);
    if (strcmp(dir, "down") == 0)
      m->down = true;
    else if (strcmp(dir, "up") != 0)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                        "direction: \"%.64s\" is not one of \"up\", \"down\"", dir);
  }
  v = json_object_get(json, "take_along");
  if (v) {
    if (!json_is_boolean(v))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                        "take_along: expected true or false");
    m->take_along = json_is_true(v);
  }
  v = json_object_get(json, "companions");
  if (v)
    return parse_companions(v, m, err);
  return CAIRN_OK;
}

enum cairn_status himalaya_move_parse(const json_t *json, struct himalaya_move *out,
                                      struct cairn_error *err)
{
  struct himalaya_move m;
  enum cairn_status status;

  memset(&m, 0, sizeof(m));
  if (!json_is_object(json))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "move: expected an object");
  /* Members are checked in a fixed order (type, pawn, unknown members,
   * value, card, restore, Sherpa members) so the first error reported never depends
   * on the order of keys in the object. */
  status = parse_type(json, &m, err);
  if (status != CAIRN_OK)
    return status;
  if (m.type != HIMALAYA_MOVE_REROLL) {
    status = parse_pawn(json, &m, err);
    if (status != CAIRN_OK)
      return status;
  }
  status = check_members(json, &m, err);
  if (status != CAIRN_OK || m.type == HIMALAYA_MOVE_REROLL)
    goto done;
  status = get_int(json, "value", 1, HIMALAYA_DIE_SIDES, &m.value, err);
  if (status != CAIRN_OK)
    goto done;
  if (m.type == HIMALAYA_MOVE_SUPPLY) {
    status = parse_card(json, &m, err);
    if (status != CAIRN_OK)
      goto done;
  }
  status = parse_restore(json, &m, err);
  if (status != CAIRN_OK)
    goto done;
  if (m.pawn == HIMALAYA_PAWN_SHERPA)
    status = parse_sherpa(json, &m, err);
done:
  /* memcpy keeps the zeroed padding, so equal moves compare equal bytewise. */
  if (status == CAIRN_OK)
    memcpy(out, &m, sizeof(m));
  return status;
}

static const char *const pawn_names[] = {[HIMALAYA_PAWN_NONE] = "none",
                                         [HIMALAYA_PAWN_CLIMBER] = "climber",
                                         [HIMALAYA_PAWN_SHERPA] = "sherpa"};

/* The members only a Sherpa move has, companions in ascending order. */
static void write_sherpa_members(const struct himalaya_move *m, struct json_writer *w)
{
  int s;

  jw_key_int(w, "sherpa", m->sherpa);
  jw_key_string(w, "direction", m->down ? "down" : "up");
  jw_key_bool(w, "take_along", m->take_along);
  jw_key(w, "companions");
  jw_array_begin(w);
  for (s = 0; s < HIMALAYA_SHERPAS; s++)
    if (m->companions & (1u << s))
      jw_int(w, s);
  jw_array_end(w);
}

void himalaya_move_write(const struct himalaya_move *m, struct json_writer *w)
{
  jw_object_begin(w);
  if (m->type == HIMALAYA_MOVE_REROLL) {
    jw_key_string(w, "type", "reroll");
    jw_object_end(w);
    return;
  }
  jw_key_string(w, "type", m->type == HIMALAYA_MOVE_DIE ? "die" : "supply");
  jw_key_int(w, "value", m->value);
  jw_key_string(w, "pawn", pawn_names[m->pawn]);
  if (m->type == HIMALAYA_MOVE_SUPPLY)
    jw_key_string(w, "card", himalaya_card_name(m->card));
  if (m->restore)
    jw_key_string(w, "restore", himalaya_card_name(m->restore_card));
  if (m->pawn == HIMALAYA_PAWN_SHERPA)
    write_sherpa_members(m, w);
  jw_object_end(w);
}

/* The members of a move in the choices tree's order, as the pointers a
 * tree's nodes choose them by. */
static const char *const member_pointers[HIMALAYA_MEMBERS] = {
    [HIMALAYA_MEMBER_TYPE] = "/type",
    [HIMALAYA_MEMBER_VALUE] = "/value",
    [HIMALAYA_MEMBER_CARD] = "/card",
    [HIMALAYA_MEMBER_PAWN] = "/pawn",
    [HIMALAYA_MEMBER_TAKE_ALONG] = "/take_along",
    [HIMALAYA_MEMBER_COMPANIONS] = "/companions",
    [HIMALAYA_MEMBER_DIRECTION] = "/direction",
    [HIMALAYA_MEMBER_SHERPA] = "/sherpa",
    [HIMALAYA_MEMBER_RESTORE] = "/restore",
};

/* Each companion set's place when the sets are ordered by their text, as
 * engine/choices.c orders values: "[0,1,2,3]" first ("," sorts before
 * "]"), "[]" last ("]" after every digit). */
static const uint8_t companions_rank[1u << HIMALAYA_SHERPAS] = {15, 7, 11, 3, 13, 5, 9, 1,
                                                                14, 6, 10, 2, 12, 4, 8, 0};

/* Type and pawn names' places in the same order. */
static const uint8_t type_rank[] = {
    [HIMALAYA_MOVE_DIE] = 0, [HIMALAYA_MOVE_REROLL] = 1, [HIMALAYA_MOVE_SUPPLY] = 2};
static const uint8_t pawn_rank[] = {
    [HIMALAYA_PAWN_CLIMBER] = 0, [HIMALAYA_PAWN_NONE] = 1, [HIMALAYA_PAWN_SHERPA] = 2};

/* Bits a step takes in a move's sort key: rank + 1 (0: no such step)
 * must fit, and the largest rank is a companion set's. */
#define STEP_BITS 5

static void add_step(struct himalaya_steps *s, enum himalaya_member member, unsigned rank)
{
  s->member[s->n] = (uint8_t)member;
  s->rank[s->n] = (uint8_t)rank;
  s->key |= (uint64_t)(rank + 1) << (STEP_BITS * (HIMALAYA_MEMBERS - 1 - s->n));
  s->n++;
}

void himalaya_move_steps(const struct himalaya_move *m, struct himalaya_steps *s)
{
  s->n = 0;
  s->key = 0;
  add_step(s, HIMALAYA_MEMBER_TYPE, type_rank[m->type]);
  if (m->type == HIMALAYA_MOVE_REROLL)
    return;
  add_step(s, HIMALAYA_MEMBER_VALUE, (unsigned)m->value); /* one digit: its text's order */
  if (m->type == HIMALAYA_MOVE_SUPPLY)
    add_step(s, HIMALAYA_MEMBER_CARD, (unsigned)m->card); /* "1/2" < "3/4" < "5/6" */
  add_step(s, HIMALAYA_MEMBER_PAWN, pawn_rank[m->pawn]);
  if (m->pawn == HIMALAYA_PAWN_SHERPA) {
    add_step(s, HIMALAYA_MEMBER_TAKE_ALONG, m->take_along); /* false < true */
    add_step(s, HIMALAYA_MEMBER_COMPANIONS, companions_rank[m->companions]);
    add_step(s, HIMALAYA_MEMBER_DIRECTION, m->down ? 0 : 1); /* "down" < "up" */
    add_step(s, HIMALAYA_MEMBER_SHERPA, (unsigned)m->sherpa);
  }
  if (m->restore)
    add_step(s, HIMALAYA_MEMBER_RESTORE, (unsigned)m->restore_card);
}

const char *himalaya_member_pointer(enum himalaya_member member)
{
  return member_pointers[member];
}

void himalaya_member_write(const struct himalaya_move *m, enum himalaya_member member,
                           struct json_writer *w)
{
  int s;

  switch (member) {
  case HIMALAYA_MEMBER_TYPE:
    jw_string(w, m->type == HIMALAYA_MOVE_REROLL ? "reroll"
                 : m->type == HIMALAYA_MOVE_DIE  ? "die"
                                                 : "supply");
    break;
  case HIMALAYA_MEMBER_VALUE:
    jw_int(w, m->value);
    break;
  case HIMALAYA_MEMBER_CARD:
    jw_string(w, himalaya_card_name(m->card));
    break;
  case HIMALAYA_MEMBER_PAWN:
    jw_string(w, pawn_names[m->pawn]);
    break;
  case HIMALAYA_MEMBER_TAKE_ALONG:
    jw_bool(w, m->take_along);
    break;
  case HIMALAYA_MEMBER_COMPANIONS:
    jw_array_begin(w);
    for (s = 0; s < HIMALAYA_SHERPAS; s++)
      if (m->companions & (1u << s))
        jw_int(w, s);
    jw_array_end(w);
    break;
  case HIMALAYA_MEMBER_DIRECTION:
    jw_string(w, m->down ? "down" : "up");
    break;
  case HIMALAYA_MEMBER_SHERPA:
    jw_int(w, m->sherpa);
    break;
  case HIMALAYA_MEMBER_RESTORE:
  case HIMALAYA_MEMBERS: /* not a member; never asked */
    jw_string(w, himalaya_card_name(m->restore_card));
    break;
  }
}

void himalaya_move_write_choices(const struct himalaya_move *m, struct json_writer *w)
{
  struct himalaya_steps s;

  himalaya_move_steps(m, &s);
  jw_object_begin(w);
  for (int i = 0; i < s.n; i++) {
    jw_key(w, member_pointers[s.member[i]] + 1);
    himalaya_member_write(m, s.member[i], w);
  }
  jw_object_end(w);
}

json_t *himalaya_move_json(const struct himalaya_move *m)
{
  struct json_writer w;

  jw_init(&w);
  himalaya_move_write(m, &w);
  return jw_finish_tree(&w);
}
