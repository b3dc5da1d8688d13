/*
 * plan.c - "Making a Plan for your Yeti": checking a secret plan, keeping
 * it hidden until every plan is in, and revealing them all at once. What a
 * plan then does is round.c's business.
 */
#include "engine/everest/state.h"

#include <string.h>

#include "engine/everest/rules.h"

/* A seat owes a plan when its yeti is on the mountain and has a coin to
 * plan with; a yeti off the board or with every coin set aside is dazed
 * for the whole round (RULES.md). */
bool everest_owes_plan(const struct everest_state *st, int seat)
{
  return st->phase == EVEREST_PHASE_PLAN && !st->seat[seat].planned &&
         st->yeti[seat].cell != EVEREST_OFF && everest_available(st, seat) > 0;
}

void everest_write_plan(struct json_writer *w, const struct everest_seat *p)
{
  int i;

  jw_array_begin(w);
  for (i = 0; i < p->plan_len; i++) {
    jw_object_begin(w);
    jw_key_int(w, "coin", p->plan[i].coin);
    jw_key_string(w, "face", p->plan[i].suit ? "suit" : "value");
    jw_key_string(w, "dir", everest_dir_name(p->plan[i].dir));
    jw_object_end(w);
  }
  jw_array_end(w);
}

json_t *everest_plan_json(const struct everest_seat *p)
{
  json_t *list = json_array();
  int i;

  for (i = 0; list && i < p->plan_len; i++)
    json_array_append_new(list,
                          everest_object(3, "coin", json_integer(p->plan[i].coin), "face",
                                         everest_text(p->plan[i].suit ? "suit" : "value"), "dir",
                                         everest_text(everest_dir_name(p->plan[i].dir))));
  return list;
}

static enum cairn_status parse_coin(const json_t *item, int index, struct everest_coin *out,
                                    struct cairn_error *err)
{
  const char *key;
  const json_t *value;
  const json_t *coin = json_object_get(item, "coin");
  const json_t *face = json_object_get(item, "face");
  const json_t *dir = json_object_get(item, "dir");

  if (!json_is_object(item))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "plan[%d]: expected an object", index);
  json_object_foreach((json_t *)item, key, value)
  {
    if (strcmp(key, "coin") && strcmp(key, "face") && strcmp(key, "dir"))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                        "plan[%d]: unknown field %s", index, key);
  }
  if (!coin || !face || !dir)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL,
                      "plan[%d]: coin, face and dir are required", index);
  if (!json_is_integer(coin) || !json_is_string(face) || !json_is_string(dir))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "plan[%d]: coin is an integer, face and dir are strings", index);
  if (json_integer_value(coin) < 0 || json_integer_value(coin) >= EVEREST_COINS)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "plan[%d]: coin is 0 (null) to 5", index);
  out->coin = (int)json_integer_value(coin);
  if (strcmp(json_string_value(face), "value") == 0)
    out->suit = false;
  else if (strcmp(json_string_value(face), "suit") == 0)
    out->suit = true;
  else
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL,
                      "plan[%d]: face is \"value\" or \"suit\"", index);
  out->dir = everest_dir_parse(json_string_value(dir));
  if (out->dir < 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_MOVE, NULL, "plan[%d]: dir is N, E, S or W",
                      index);
  return CAIRN_OK;
}

/* New reference, NULL when out of memory: every seat's plan, in seat order. */
static json_t *plans_json(const struct everest_state *st)
{
  json_t *plans = json_array();
  int seat;

  for (seat = 0; plans && seat < st->head.seats; seat++)
    json_array_append_new(plans, everest_plan_json(&st->seat[seat]));
  return plans;
}

static enum cairn_status reveal(struct everest_state *st, json_t *events, struct cairn_error *err)
{
  enum cairn_status status;

  /* "After all of the plans are finished the players expose them for all
   * to see." */
  status = EVEREST_EMIT(events, err, 3, "type", everest_text("plans-revealed"), "round",
                        json_integer(st->round), "plans", plans_json(st));
  if (status != CAIRN_OK)
    return status;
  st->phase = EVEREST_PHASE_EXEC;
  st->step = 0;
  st->stage = EVEREST_STAGE_ROARS;
  return CAIRN_OK;
}

/* Static: a coin as the players call it. */
static const char *coin_name(int coin)
{
  static const char *const name[EVEREST_COINS] = {"0 (null)", "1 (ace)", "2", "3", "4", "5"};

  return name[coin];
}

struct coin_text {
  char text[64];
};

/* "0 (null), 4" */
static struct coin_text aside_text(unsigned mask)
{
  struct coin_text t = {{0}};
  int coin;

  for (coin = 0; coin < EVEREST_COINS; coin++)
    if (mask & (1u << coin)) {
      if (t.text[0])
        strcat(t.text, ", ");
      strcat(t.text, coin_name(coin)); /* six names of at most 8 bytes fit */
    }
  return t;
}

enum cairn_status everest_submit_plan(struct everest_state *st, int seat, const json_t *move,
                                      json_t *events, bool *pending, struct cairn_error *err)
{
  struct everest_coin plan[EVEREST_PLAN_LEN];
  const json_t *list = json_object_get(move, "plan");
  enum cairn_status status;
  size_t i, n;

  if (!list)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_MISSING_FIELD, NULL, "plan is required");
  if (!json_is_array(list))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL, "plan: expected an array");
  n = json_array_size(list);
  /* Every entry is read first, so a malformed one is a malformed request
   * however long the plan; a well-formed plan of four or more coins is
   * then a rule violation, not a malformed request: "A player builds a
   * plan by secretly selecting three of the player's coins". */
  for (i = 0; i < n; i++) {
    struct everest_coin coin;

    status = parse_coin(json_array_get(list, i), (int)i, &coin, err);
    if (status != CAIRN_OK)
      return status;
    if (i < EVEREST_PLAN_LEN)
      plan[i] = coin;
  }
  return everest_commit_plan(st, seat, plan, n, events, pending, err);
}

enum cairn_status everest_commit_plan(struct everest_state *st, int seat,
                                      const struct everest_coin *plan, size_t n, json_t *events,
                                      bool *pending, struct cairn_error *err)
{
  struct everest_seat *p = &st->seat[seat];
  int want = everest_available(st, seat);
  unsigned used = 0;
  enum cairn_status status;
  size_t i;
  int other;

  if (n > EVEREST_PLAN_LEN)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_PLAN,
                      "a plan is at most three coins, not %zu", n);
  if (want > EVEREST_PLAN_LEN)
    want = EVEREST_PLAN_LEN;
  /* "If you have enough coins to plan three actions, then you must use
   * three coins." With fewer, "make a plan as long as possible". */
  if ((int)n != want)
    return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_PLAN,
                      "the plan must use %d coins, not %zu (%d coins available: a plan uses "
                      "three, or all when fewer)",
                      want, n, everest_available(st, seat));
  for (i = 0; i < n; i++) {
    unsigned bit = 1u << plan[i].coin;

    if (p->aside & bit)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_PLAN,
                        "coin %s is set aside by damage (set-aside coins: %s)",
                        coin_name(plan[i].coin), aside_text(p->aside).text);
    if (used & bit)
      return cairn_fail(err, CAIRN_EILLEGAL, CAIRN_CODE_ILLEGAL_MOVE, EVEREST_RULE_PLAN,
                        "coin %s is used twice; each coin is one action", coin_name(plan[i].coin));
    used |= bit;
  }
  memset(p->plan, 0, sizeof(p->plan));
  memcpy(p->plan, plan, n * sizeof(*plan));
  p->plan_len = (int)n;
  p->planned = true;
  /* Seen only by the submitter until the game ends. */
  status = EVEREST_EMIT(events, err, 6, "type", everest_text("plan-submitted"), "seat",
                        json_integer(seat), "seat_name", everest_text(everest_seat_name(seat)),
                        "round", json_integer(st->round), "plan", everest_plan_json(p),
                        "private_to", engine_int_list(&seat, 1));
  if (status != CAIRN_OK)
    return status;
  for (other = 0; other < st->head.seats; other++)
    if (everest_owes_plan(st, other)) {
      *pending = true;
      return CAIRN_OK;
    }
  *pending = false;
  status = reveal(st, events, err);
  if (status != CAIRN_OK)
    return status;
  return everest_advance(st, events, err);
}

/* The round machine reveals on its own when nobody owes a plan. */
enum cairn_status everest_reveal_plans(struct everest_state *st, json_t *events,
                                       struct cairn_error *err)
{
  return reveal(st, events, err);
}
