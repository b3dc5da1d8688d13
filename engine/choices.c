/*
 * choices.c - the `choices` tree of a seat's legal moves (engine.h, "The
 * choices tree"; openapi/base.yaml, Choices): one compact form every title
 * gives, which a client walks one member at a time.
 *
 * Most titles describe their moves only once, as the list their
 * write_legal slot writes; this file turns that text into the tree. Each
 * move is read as its members in the order the title writes them, each
 * member one step (the pointer "/key" and the value's text, borrowed from
 * the list); the moves are sorted step by step, so moves sharing their
 * first steps lie together and a move that is another's first steps comes
 * just before it; then one pass writes the tree as the sorted moves open
 * and close its nodes. Nothing is parsed into a jansson tree (issue 22):
 * the steps point into the list's own text.
 *
 * What the tree needs of a title's moves: below one chosen prefix, the
 * next member has one name (a node chooses one member). A title whose
 * moves break this (say `{"a":1,"b":2}` beside `{"a":1,"c":3}`) makes the
 * writer fail; tests/engine/test_choices.c walks every title's positions.
 * A title whose moves are too many to list (Everest's plans) writes its
 * own tree with the same shape through the write_choices slot.
 */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

/* Deeper moves are refused: no title's move has more members than this. */
#define MAX_STEPS 16
/* Longest member name a pointer is written for ("/" + name). */
#define MAX_KEY 62

/* One member of one move: Borrowed spans of the list's text. */
struct step {
  const char *key; /* the member's name, without its quotes */
  size_t key_len;
  const char *value; /* the member's value, as written */
  size_t value_len;
};

/* One move: its steps, Borrowed from the steps array. */
struct move_steps {
  const struct step *steps;
  size_t n;
};

/* A move's steps in the steps array (indices: the array grows). */
struct span {
  size_t first, count;
};

/* Growing arrays, freed by free_moves. */
struct moves {
  struct step *steps;
  size_t n_steps, cap_steps;
  struct span *moves; /* each move's steps */
  size_t n, cap;
};

static void free_moves(struct moves *m)
{
  free(m->steps);
  free(m->moves);
}

static bool grow(void **items, size_t *cap, size_t need, size_t size)
{
  size_t cap2 = *cap ? *cap : 16;
  void *p;

  if (need <= *cap)
    return true;
  while (cap2 < need)
    cap2 *= 2;
  p = realloc(*items, cap2 * size);
  if (!p)
    return false;
  *items = p;
  *cap = cap2;
  return true;
}

/* Skip one JSON value starting at *p (text the engine's writer wrote:
 * valid, compact); false at the end of the text or on a bad byte. */
static bool skip_value(const char **p, const char *end)
{
  int depth = 0;

  do {
    if (*p >= end)
      return false;
    if (**p == '"') {
      for ((*p)++; *p < end && **p != '"'; (*p)++)
        if (**p == '\\')
          (*p)++;
      if (*p >= end)
        return false;
      (*p)++;
    } else if (**p == '[' || **p == '{') {
      depth++;
      (*p)++;
    } else if (**p == ']' || **p == '}') {
      depth--;
      (*p)++;
    } else if (**p == ',' || **p == ':') {
      if (depth == 0)
        return false;
      (*p)++;
    } else {
      while (*p < end && !strchr(",:]}", **p))
        (*p)++;
    }
  } while (depth > 0);
  return depth == 0;
}

/* Read one object's members as steps; false when it is not an object of
 * plain keys or has too many. */
static bool read_move(struct moves *m, const char **p, const char *end)
{
  size_t first = m->n_steps;

  if (*p >= end || **p != '{')
    return false;
  (*p)++;
  while (*p < end && **p != '}') {
    struct step s;

    if (**p == ',')
      (*p)++;
    if (*p >= end || **p != '"')
      return false;
    s.key = ++(*p);
    while (*p < end && **p != '"' && **p != '\\')
      (*p)++;
    if (*p >= end || **p != '"')
      return false;
    s.key_len = (size_t)(*p - s.key);
    (*p)++;
    if (*p >= end || **p != ':')
      return false;
    (*p)++;
    s.value = *p;
    if (!skip_value(p, end))
      return false;
    s.value_len = (size_t)(*p - s.value);
    if (s.key_len > MAX_KEY || m->n_steps - first >= MAX_STEPS ||
        !grow((void **)&m->steps, &m->cap_steps, m->n_steps + 1, sizeof(s)))
      return false;
    m->steps[m->n_steps++] = s;
  }
  if (*p >= end)
    return false;
  (*p)++;
  if (!grow((void **)&m->moves, &m->cap, m->n + 1, sizeof(*m->moves)))
    return false;
  m->moves[m->n].first = first;
  m->moves[m->n].count = m->n_steps - first;
  m->n++;
  return true;
}

/* Read the list `[move, ...]`; false when it is no list of moves. */
static bool read_list(struct moves *m, const char *text, size_t len)
{
  const char *p = text, *end = text + len;

  if (p >= end || *p != '[')
    return false;
  p++;
  while (p < end && *p != ']') {
    if (*p == ',')
      p++;
    if (!read_move(m, &p, end))
      return false;
  }
  return p < end;
}

static int compare_spans(const char *a, size_t na, const char *b, size_t nb)
{
  int c = memcmp(a, b, na < nb ? na : nb);

  return c ? c : (na > nb) - (na < nb);
}

static bool is_count(const char *s, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return n > 0;
}

/* Values in a reader's order: counts by size (2 before 10), the rest by
 * their text. */
static int compare_values(const struct step *a, const struct step *b)
{
  if (is_count(a->value, a->value_len) && is_count(b->value, b->value_len) &&
      a->value_len != b->value_len)
    return a->value_len < b->value_len ? -1 : 1;
  return compare_spans(a->value, a->value_len, b->value, b->value_len);
}

static int compare_steps(const struct step *a, const struct step *b)
{
  int c = compare_spans(a->key, a->key_len, b->key, b->key_len);

  return c ? c : compare_values(a, b);
}

static int compare_moves(const void *pa, const void *pb)
{
  const struct move_steps *a = pa, *b = pb;
  size_t i;
  int c;

  for (i = 0; i < a->n && i < b->n; i++) {
    c = compare_steps(&a->steps[i], &b->steps[i]);
    if (c)
      return c;
  }
  return (a->n > b->n) - (a->n < b->n);
}

static size_t common_steps(const struct move_steps *a, const struct move_steps *b)
{
  size_t i = 0;

  while (i < a->n && i < b->n && compare_steps(&a->steps[i], &b->steps[i]) == 0)
    i++;
  return i;
}

void engine_choice_node_begin(struct json_writer *out, const char *pointer)
{
  jw_object_begin(out);
  jw_key_string(out, "choose", pointer);
  jw_key(out, "options");
  jw_array_begin(out);
}

void engine_choice_node_end(struct json_writer *out)
{
  jw_array_end(out);
  jw_object_end(out);
}

/* A node's head, composed: {"choose":"/key","options":[ (keys as the
 * list wrote them, unquoted, hold nothing to escape: read_move stops at a
 * backslash). */
static void compose_node(struct json_writer *out, const struct step *s)
{
  JW_COMPOSE(out, "{\"choose\":\"/");
  jw_compose(out, s->key, s->key_len);
  JW_COMPOSE(out, "\",\"options\":[");
}

/* Close levels from..to+1 of the open nodes: each its open option's
 * object, then the node. */
static void compose_close(struct json_writer *out, size_t from, size_t to)
{
  for (size_t k = from; k > to; k--)
    JW_COMPOSE(out, "}]}");
}

/* Write the tree of the sorted moves `ms`, composed as text (jw_compose:
 * a call per bracket and key was most of its cost, issue 22), the bytes
 * the writer's calls gave. Nodes 0..open-1 are open, each with one option
 * open. */
static void write_tree(struct json_writer *out, const struct move_steps *ms, size_t n)
{
  size_t open = 0, i, d, k;
  bool begun = false;

  for (i = 0; i < n; i++) {
    const struct move_steps *m = &ms[i];

    d = i ? common_steps(&ms[i - 1], m) : 0;
    if (m->n == 0 || d == m->n)
      continue; /* nothing to choose, or a move listed twice */
    if (!begun) {
      jw_compose_begin(out);
      begun = true;
    }
    if (i && d == ms[i - 1].n) {
      if (open == 0)
        out->failed = true;              /* an empty move before: nothing to be its start */
      JW_COMPOSE(out, ",\"done\":true"); /* the one before is this one's start */
    } else if (i) {
      /* Close the previous move's options below the shared steps, then
       * its option at depth d, whose node this move's step d joins. */
      compose_close(out, open, d + 1);
      JW_COMPOSE(out, "}");
      open = d + 1;
      if (compare_spans(ms[i - 1].steps[d].key, ms[i - 1].steps[d].key_len, m->steps[d].key,
                        m->steps[d].key_len) != 0)
        out->failed = true; /* two names for one choice: see the head comment */
    }
    for (k = d; k < m->n; k++) {
      if (k >= open) {
        if (k > 0)
          JW_COMPOSE(out, ",\"then\":");
        compose_node(out, &m->steps[k]);
        open = k + 1;
        JW_COMPOSE(out, "{\"value\":");
      } else {
        JW_COMPOSE(out, ",{\"value\":");
      }
      jw_compose(out, m->steps[k].value, m->steps[k].value_len);
    }
  }
  if (open == 0) {
    jw_null(out);
    return;
  }
  compose_close(out, open, 0);
}

void engine_choices_from_list(const char *list, size_t len, struct json_writer *out)
{
  struct moves m;
  struct move_steps *ms = NULL;
  size_t i;

  memset(&m, 0, sizeof(m));
  if (!read_list(&m, list, len)) {
    out->failed = true;
    goto cleanup;
  }
  ms = malloc((m.n ? m.n : 1) * sizeof(*ms));
  if (!ms) {
    out->failed = true;
    goto cleanup;
  }
  for (i = 0; i < m.n; i++) {
    ms[i].steps = m.steps + m.moves[i].first;
    ms[i].n = m.moves[i].count;
  }
  qsort(ms, m.n, sizeof(*ms), compare_moves);
  write_tree(out, ms, m.n);
cleanup:
  free(ms);
  free_moves(&m);
}

void engine_choices_of_legal(const struct engine_game *game, int seat, struct json_writer *out)
{
  struct json_writer list;
  size_t len;
  char *text;

  jw_init(&list);
  game->module->write_legal(game, seat, &list);
  text = jw_finish(&list, &len);
  if (!text) {
    out->failed = true;
    return;
  }
  engine_choices_from_list(text, len, out);
  free(text);
}
