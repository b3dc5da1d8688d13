/*
 * replay.c - Everest's own stored moves read without a tree (the
 * replay_text slot): a replay of a long game spent more on building and
 * freeing each move's jansson tree than on the rules (issue 22), a plan
 * move alone being fifteen values. The text is read with jsonr.h's cursor
 * into the values the tree's readers (plan.c, conflict.c, round.c,
 * setup.c) would have taken from it, and handed to the same rules
 * (everest_commit_plan and its siblings), so both ways meet the same
 * checks. Anything the tree's readers would refuse or read differently is
 * left to them: this file gives such a text up (CAIRN_DONE) before
 * touching the state.
 */
#include "engine/everest/state.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "engine/jsonr.h"

/* The members a move may hold, as bits of `seen`. */
enum member { M_TYPE = 1, M_BASE = 2, M_PLAN = 4, M_ORDER = 8, M_HEAL = 16, M_SET_ASIDE = 32 };

/* One token of an order move: a seat, or "snowballs". */
struct token {
  bool snowballs;
  json_int_t seat;
};

/* What the text said, member by member. */
struct text_move {
  unsigned seen; /* enum member bits */
  const char *type;
  size_t type_len;
  int cell;                                   /* base */
  struct everest_coin plan[EVEREST_PLAN_LEN]; /* plan */
  size_t n_plan;
  struct token order[EVEREST_MAX_ITEMS]; /* order */
  size_t n_order;
  bool heal;      /* heal */
  unsigned aside; /* set_aside, as a mask of distinct coins */
  int aside_count;
};

/* An integer in lo..hi. */
static bool read_int_in(struct jr_cursor *c, json_int_t lo, json_int_t hi, json_int_t *v)
{
  return jr_integer(c, v) && *v >= lo && *v <= hi;
}

/* [row, col] on the board (parse_base's checks). */
static bool read_base(struct jr_cursor *c, int *cell)
{
  json_int_t row, col;

  if (!jr_take(c, '[') || !read_int_in(c, 0, EVEREST_ROWS - 1, &row) || !jr_take(c, ',') ||
      !read_int_in(c, 0, EVEREST_COLS - 1, &col) || !jr_take(c, ']'))
    return false;
  *cell = (int)(row * EVEREST_COLS + col);
  return true;
}

/* {coin, face, dir}, each once, nothing else (parse_coin's checks). */
static bool read_coin(struct jr_cursor *c, struct everest_coin *out)
{
  unsigned seen = 0;
  const char *key, *s;
  size_t n, len;
  json_int_t coin;

  if (!jr_take(c, '{'))
    return false;
  do {
    if (!jr_string(c, &key, &n) || !jr_take(c, ':'))
      return false;
    if (jr_is(key, n, "coin") && !(seen & 1) && read_int_in(c, 0, EVEREST_COINS - 1, &coin)) {
      out->coin = (int)coin;
      seen |= 1;
    } else if (jr_is(key, n, "face") && !(seen & 2) && jr_string(c, &s, &len) &&
               (jr_is(s, len, "value") || jr_is(s, len, "suit"))) {
      out->suit = jr_is(s, len, "suit");
      seen |= 2;
    } else if (jr_is(key, n, "dir") && !(seen & 4) && jr_string(c, &s, &len) && len == 1) {
      char name[2] = {s[0], '\0'};

      out->dir = everest_dir_parse(name);
      if (out->dir < 0)
        return false;
      seen |= 4;
    } else {
      return false;
    }
  } while (jr_take(c, ','));
  return seen == 7 && jr_take(c, '}');
}

/* A JSON array of at most `max` items, item(c, m, i) reading item i; *n
 * how many. */
static bool read_list(struct jr_cursor *c, struct text_move *m, size_t max, size_t *n,
                      bool (*item)(struct jr_cursor *c, struct text_move *m, size_t i))
{
  *n = 0;
  if (!jr_take(c, '['))
    return false;
  if (jr_take(c, ']'))
    return true;
  do {
    if (*n == max || !item(c, m, *n))
      return false;
    (*n)++;
  } while (jr_take(c, ','));
  return jr_take(c, ']');
}

static bool plan_item(struct jr_cursor *c, struct text_move *m, size_t i)
{
  return read_coin(c, &m->plan[i]);
}

/* A seat number or "snowballs"; another string names no item, which the
 * tree's reader refuses. */
static bool order_item(struct jr_cursor *c, struct text_move *m, size_t i)
{
  struct token *t = &m->order[i];
  const char *s;
  size_t n;

  t->snowballs = jr_string(c, &s, &n);
  if (t->snowballs)
    return jr_is(s, n, "snowballs");
  return jr_integer(c, &t->seat);
}

/* A coin not yet in the mask (parse_coins refuses a coin twice). */
static bool aside_item(struct jr_cursor *c, struct text_move *m, size_t i)
{
  json_int_t coin;

  (void)i;
  if (!read_int_in(c, 0, EVEREST_COINS - 1, &coin) || (m->aside & (1u << coin)))
    return false;
  m->aside |= 1u << coin;
  m->aside_count++;
  return true;
}

/* The member a key names, 0 for none. Literal words, so jr_is compares
 * each inline. */
static enum member member_named(const char *key, size_t n)
{
  if (jr_is(key, n, "type"))
    return M_TYPE;
  if (jr_is(key, n, "plan"))
    return M_PLAN;
  if (jr_is(key, n, "heal"))
    return M_HEAL;
  if (jr_is(key, n, "set_aside"))
    return M_SET_ASIDE;
  if (jr_is(key, n, "order"))
    return M_ORDER;
  if (jr_is(key, n, "base"))
    return M_BASE;
  return 0;
}

/* One member's value, by its key; false for an unknown or repeated key. */
static bool read_member(struct jr_cursor *c, const char *key, size_t n, struct text_move *m)
{
  enum member bit = member_named(key, n);

  if (!bit || (m->seen & bit))
    return false;
  m->seen |= bit;
  switch (bit) {
  case M_TYPE:
    return jr_string(c, &m->type, &m->type_len);
  case M_BASE:
    return read_base(c, &m->cell);
  case M_PLAN:
    return read_list(c, m, EVEREST_PLAN_LEN, &m->n_plan, plan_item);
  case M_ORDER:
    return read_list(c, m, EVEREST_MAX_ITEMS, &m->n_order, order_item);
  case M_HEAL:
    return jr_boolean(c, &m->heal);
  case M_SET_ASIDE:
    return read_list(c, m, EVEREST_COINS, &(size_t){0}, aside_item);
  }
  return false;
}

static bool read_move(const char *text, size_t len, struct text_move *m)
{
  struct jr_cursor c;
  const char *key;
  size_t n;

  jr_cursor_init(&c, text, len);
  if (!jr_take(&c, '{'))
    return false;
  do {
    if (!jr_string(&c, &key, &n) || !jr_take(&c, ':') || !read_member(&c, key, n, m))
      return false;
  } while (jr_take(&c, ','));
  return jr_take(&c, '}') && jr_at_end(&c);
}

/* ---- The text as Cairn stores it ----
 *
 * A stored move is json_dumps(move, JSON_COMPACT | JSON_SORT_KEYS)
 * (game/commit.c): no whitespace, the keys sorted. A plan or a heal spelled
 * exactly so is read by matching its bytes, a tenth of the cursor's work
 * (a plan was some 2,000 instructions, issue 22). Every value it takes is
 * one the cursor would take from the same bytes (a digit 0..5, a letter
 * everest_dir_parse knows, the words), so both read the same move; any
 * other spelling or value is left to the cursor (read_move). */

struct bytes {
  const char *p;   /* Borrowed: the next byte */
  const char *end; /* Borrowed: one past the last */
};

/* Whether the `n` bytes at `p` are those of `w`. With a literal `w`, n is
 * a constant and the comparison is two loads of the text, overlapping when
 * n is not a power of two (memcpy into an integer is one load): the
 * stored-text matcher's words are 1 to 16 bytes. */
static inline bool same_bytes(const char *p, const char *w, size_t n)
{
  uint64_t a, b, c, d;
  uint32_t e, f, g, h;

  if (n > 16)
    return memcmp(p, w, n) == 0;
  if (n >= 8) {
    memcpy(&a, p, 8);
    memcpy(&b, w, 8);
    memcpy(&c, p + n - 8, 8);
    memcpy(&d, w + n - 8, 8);
    return a == b && c == d;
  }
  if (n >= 4) {
    memcpy(&e, p, 4);
    memcpy(&f, w, 4);
    memcpy(&g, p + n - 4, 4);
    memcpy(&h, w + n - 4, 4);
    return e == f && g == h;
  }
  return (n < 1 || p[0] == w[0]) && (n < 2 || p[1] == w[1]) && (n < 3 || p[2] == w[2]);
}

/* Whether `word` comes next; consumes it when it does. Inline, so with a
 * literal the length is a constant. */
static inline bool next_is(struct bytes *b, const char *word)
{
  size_t n = strlen(word);

  if ((size_t)(b->end - b->p) < n || !same_bytes(b->p, word, n))
    return false;
  b->p += n;
  return true;
}

/* A coin, one digit 0..5 (a canonical integer below ten has one). */
static bool next_coin(struct bytes *b, int *coin)
{
  if (b->p == b->end || *b->p < '0' || *b->p >= '0' + EVEREST_COINS)
    return false;
  *coin = *b->p++ - '0';
  return true;
}

/* {"coin":D,"dir":"L","face":"value"} or ..."suit"} */
static bool stored_coin(struct bytes *b, struct everest_coin *out)
{
  char name[2] = {0, 0};

  if (!next_is(b, "{\"coin\":") || !next_coin(b, &out->coin) || !next_is(b, ",\"dir\":\"") ||
      b->p == b->end)
    return false;
  name[0] = *b->p++;
  out->dir = everest_dir_parse(name);
  if (out->dir < 0 || !next_is(b, "\",\"face\":\""))
    return false;
  out->suit = next_is(b, "suit\"}");
  return out->suit || next_is(b, "value\"}");
}

/* {"plan":[C,C,C],"type":"plan"}, one to three coins. */
static bool stored_plan(struct bytes *b, struct text_move *m)
{
  if (!next_is(b, "{\"plan\":["))
    return false;
  do {
    if (m->n_plan == EVEREST_PLAN_LEN || !stored_coin(b, &m->plan[m->n_plan]))
      return false;
    m->n_plan++;
  } while (next_is(b, ","));
  m->type = b->p + sizeof("],\"type\":\"") - 1;
  m->type_len = strlen("plan");
  m->seen = M_TYPE | M_PLAN;
  return next_is(b, "],\"type\":\"plan\"}");
}

/* {"heal":true,"type":"heal"}, or false, with or without
 * "set_aside":[D,...] (distinct coins) between. */
static bool stored_heal(struct bytes *b, struct text_move *m)
{
  int coin;

  if (!next_is(b, "{\"heal\":"))
    return false;
  m->heal = next_is(b, "true");
  if (!m->heal && !next_is(b, "false"))
    return false;
  m->seen = M_TYPE | M_HEAL;
  if (next_is(b, ",\"set_aside\":[")) {
    m->seen |= M_SET_ASIDE;
    if (!next_is(b, "]")) {
      do {
        if (!next_coin(b, &coin) || (m->aside & (1u << coin)))
          return false;
        m->aside |= 1u << coin;
        m->aside_count++;
      } while (next_is(b, ","));
      if (!next_is(b, "]"))
        return false;
    }
  }
  m->type = b->p + sizeof(",\"type\":\"") - 1;
  m->type_len = strlen("heal");
  return next_is(b, ",\"type\":\"heal\"}");
}

/* A plan or a heal as stored, and nothing after it. */
static bool read_stored(const char *text, size_t len, struct text_move *m)
{
  struct bytes b = {text, text + len};

  if (len > 2 && text[2] == 'p')
    return stored_plan(&b, m) && b.p == b.end;
  return stored_heal(&b, m) && b.p == b.end;
}

/* Whether `m` is the move the phase expects with only its members
 * (module.c's check_shape, which refuses anything else). */
static bool expected_shape(const struct everest_state *st, const struct text_move *m)
{
  const char *type = "heal";
  unsigned members = M_TYPE | M_HEAL, optional = M_SET_ASIDE;

  if (st->phase == EVEREST_PHASE_BASE)
    type = "base", members = M_TYPE | M_BASE, optional = 0;
  else if (st->phase == EVEREST_PHASE_PLAN)
    type = "plan", members = M_TYPE | M_PLAN, optional = 0;
  else if (st->phase == EVEREST_PHASE_ORDER)
    type = "order", members = M_TYPE | M_ORDER, optional = 0;
  return m->type && jr_is(m->type, m->type_len, type) && (m->seen & ~optional) == members;
}

/* The item indices an order's tokens name, each once and all of them
 * (choose_order's checks; the last item a token matches, as there). */
static bool order_of(const struct everest_state *st, const struct text_move *m,
                     int order[EVEREST_MAX_ITEMS])
{
  bool used[EVEREST_MAX_ITEMS] = {false};
  size_t k;
  int i;

  if (m->n_order != (size_t)st->n_items)
    return false;
  for (k = 0; k < m->n_order; k++) {
    int found = -1;

    for (i = 0; i < st->n_items; i++) {
      const struct everest_item *item = &st->items[i];
      bool snowballs = item->kind == EVEREST_ITEM_SNOWBALLS;

      if (m->order[k].snowballs ? snowballs : !snowballs && item->seat == m->order[k].seat)
        found = i;
    }
    if (found < 0 || used[found])
      return false;
    used[found] = true;
    order[k] = found;
  }
  return true;
}

enum cairn_status everest_replay_text(struct engine_game *game, int seat, const char *move,
                                      size_t len, bool *pending, struct cairn_error *err)
{
  struct everest_state *st = (struct everest_state *)game;
  struct text_move m;
  int order[EVEREST_MAX_ITEMS];
  enum cairn_status status;

  memset(&m, 0, sizeof(m));
  *pending = false;
  if (!read_stored(move, len, &m)) {
    memset(&m, 0, sizeof(m)); /* what the bytes matched before they did not */
    if (!read_move(move, len, &m))
      return CAIRN_DONE;
  }
  if (!expected_shape(st, &m))
    return CAIRN_DONE;
  switch (st->phase) {
  case EVEREST_PHASE_BASE:
    assert(seat == everest_base_chooser(st));
    return everest_place_base(st, seat, m.cell, NULL, err);
  case EVEREST_PHASE_PLAN:
    return everest_commit_plan(st, seat, m.plan, m.n_plan, NULL, pending, err);
  case EVEREST_PHASE_ORDER:
    assert(seat == st->chooser);
    if (!order_of(st, &m, order))
      return CAIRN_DONE;
    status = everest_order_turn(st, order, NULL, NULL, err);
    if (status != CAIRN_OK)
      return status;
    return everest_advance(st, NULL, err);
  default:
    return everest_commit_heal(st, seat, m.heal, m.aside, m.aside_count, NULL, pending, err);
  }
}
