/*
 * policy.c - the scripted expedition leader (policy.h). Greedy and
 * deterministic: form teams of two Climbers with a Sherpas and Supplies,
 * climb while the weakest walking Climber has Strength to spare, unload
 * Supplies high on the route and camp there, come down once every Climber
 * of the team has been on the Summit.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "policy.h"

static const char *type_of(const json_t *m)
{
  return json_string_value(json_object_get(m, "type"));
}

static long num(const json_t *o, const char *key)
{
  return (long)json_integer_value(json_object_get(o, key));
}

/* The first legal move of `type` whose members match (NULL/-1 = any). */
static long find(const json_t *legal, const char *type, const char *key, long value,
                 const char *key2, long value2)
{
  size_t i;
  json_t *m;

  json_array_foreach((json_t *)legal, i, m)
  {
    if (strcmp(type_of(m), type) != 0)
      continue;
    if (key && (!json_object_get(m, key) ? value != -1 : num(m, key) != value))
      continue;
    if (key2 && (!json_object_get(m, key2) ? value2 != -1 : num(m, key2) != value2))
      continue;
    return (long)i;
  }
  return -1;
}

static bool in_hand(const json_t *me, long card)
{
  size_t i;
  json_t *c;

  json_array_foreach(json_object_get(me, "hand"), i, c)
  {
    if (num(c, "id") == card)
      return true;
  }
  return false;
}

static const json_t *team_of(const json_t *me, long team)
{
  size_t i;
  json_t *t;

  json_array_foreach(json_object_get(me, "teams"), i, t)
  {
    if (num(t, "team") == team)
      return t;
  }
  return NULL;
}

static int count_kind(const json_t *team, const char *kind)
{
  size_t i;
  json_t *c;
  int n = 0;

  json_array_foreach(json_object_get(team, "cards"), i, c)
  {
    n += strcmp(json_string_value(json_object_get(c, "kind")), kind) == 0;
  }
  return n;
}

/* Weakest walking Climber's Strength, and whether all have summited. */
static void team_state(const json_t *team, long *weakest, bool *all_summited)
{
  size_t i;
  json_t *c;

  *weakest = 99;
  *all_summited = true;
  json_array_foreach(json_object_get(team, "cards"), i, c)
  {
    if (strcmp(json_string_value(json_object_get(c, "kind")), "climber") != 0)
      continue;
    if (!json_is_true(json_object_get(c, "summited")))
      *all_summited = false;
    if (strcmp(json_string_value(json_object_get(c, "role")), "member") == 0 &&
        num(c, "strength") < *weakest)
      *weakest = num(c, "strength");
  }
}

/* Index of Terrain card `at` on any route (0 = lowest), -1 for ABC. */
static long height(const json_t *view, long at)
{
  size_t i, j;
  json_t *r, *c;

  if (at == num(view, "summit"))
    return 6;
  json_array_foreach(json_object_get(view, "routes"), i, r)
  {
    json_array_foreach(json_object_get(r, "terrain"), j, c)
    {
      if (num(c, "id") == at)
        return (long)j;
    }
  }
  return -1;
}

/* The Strength cost of leaving `at` upward (dir 1) or downward. */
static long cost(const json_t *view, long at, int dir)
{
  size_t i, j;
  json_t *r, *c;

  if (at == -1 || at == num(view, "summit"))
    return 0;
  json_array_foreach(json_object_get(view, "routes"), i, r)
  {
    json_array_foreach(json_object_get(r, "terrain"), j, c)
    {
      if (num(c, "id") == at)
        return num(c, dir > 0 ? "up" : "down");
    }
  }
  return 0;
}

/* The first legal "move" of `team` in `dir`; with `routed`, only one that
 * names a route. */
static long find_move(const json_t *legal, long team, const char *dir, bool routed)
{
  size_t j;
  json_t *m;

  json_array_foreach((json_t *)legal, j, m)
  {
    if (strcmp(type_of(m), "move") == 0 && num(m, "team") == team &&
        strcmp(json_string_value(json_object_get(m, "dir")), dir) == 0 &&
        (!routed || json_object_get(m, "route")))
      return (long)j;
  }
  return -1;
}

/* Keep the hand useful: discard a second Camp or a second Supplies. */
static long discard_move(const json_t *legal, const json_t *me)
{
  size_t i;
  json_t *c;
  int camps = 0, supplies = 0;

  json_array_foreach(json_object_get(me, "hand"), i, c)
  {
    const char *kind = json_string_value(json_object_get(c, "kind"));
    long k;
    if (strcmp(kind, "camp") == 0 && ++camps > 1 &&
        (k = find(legal, "discard", "card", num(c, "id"), NULL, 0)) >= 0)
      return k;
    if (strcmp(kind, "supplies") == 0 && ++supplies > 1 &&
        (k = find(legal, "discard", "card", num(c, "id"), NULL, 0)) >= 0)
      return k;
  }
  return find(legal, "draw", NULL, 0, NULL, 0);
}

/* Whether the seat has a card with `role` left at `at`. */
static bool has_left(const json_t *me, long at, const char *role)
{
  size_t i;
  json_t *c;

  json_array_foreach(json_object_get(me, "on_mountain"), i, c)
  {
    if (num(c, "at") == at && strcmp(json_string_value(json_object_get(c, "role")), role) == 0)
      return true;
  }
  return false;
}

static long abc_move(const json_t *legal, const json_t *me)
{
  size_t i;
  json_t *m;

  /* Sherpas, then Supplies, into a team; then Climbers from the hand into
   * a team with fewer than two, or a new one. Never reshuffle ABC. */
  for (int pass = 0; pass < 3; pass++)
    json_array_foreach((json_t *)legal, i, m)
    {
      long card = num(m, "card");
      const json_t *team;
      if (strcmp(type_of(m), "deploy") != 0 || !in_hand(me, card))
        continue;
      team = json_object_get(m, "team") ? team_of(me, num(m, "team")) : NULL;
      if (pass == 0 && card >= 38 && card < 46 && team)
        return (long)i;
      if (pass == 1 && card >= 46 && card < 56 && team)
        return (long)i;
      if (pass == 2 && card >= 20 && card < 38 &&
          ((team && count_kind(team, "climber") < 2 && num(team, "at") == -1) ||
           (!team && find(legal, "deploy", "card", card, "team", -1) == (long)i)))
        return (long)i;
    }
  return find(legal, "ready", NULL, 0, NULL, 0);
}

static long movement_move(const json_t *view, const json_t *legal, const json_t *me)
{
  long moving = num(view, "moving");
  size_t i;
  json_t *t;

  json_array_foreach(json_object_get(me, "teams"), i, t)
  {
    long team = num(t, "team"), at = num(t, "at"), weakest, h = height(view, at), k;
    bool all;
    if (moving >= 0 && team != moving)
      continue;
    if (json_is_true(json_object_get(t, "moved")))
      continue;
    team_state(t, &weakest, &all);
    /* unload Supplies on a High card and stop there so a Camp can go up */
    if (h >= 2 && h < 6 && !all && (k = find(legal, "unload", "team", team, NULL, 0)) >= 0)
      return k;
    if (h >= 2 && h < 6 && !all && moving == team && has_left(me, at, "unloaded") &&
        !has_left(me, at, "camp"))
      return find(legal, "end", "team", team, NULL, 0);
    /* rest in a Camp until strong again */
    if (!all && has_left(me, at, "camp") && weakest < 6 && moving == team)
      return find(legal, "end", "team", team, NULL, 0);
    if (!all && has_left(me, at, "camp") && weakest < 6)
      continue;
    if (all) { /* come down while it is safe; 1963 Player Two by the South Col */
      long down = cost(view, at, -1);
      if (weakest - down >= (h == 0 ? 0 : 1) || weakest == 99) {
        if ((k = find_move(legal, team, "down", true)) >= 0)
          return k;
        if ((k = find_move(legal, team, "down", false)) >= 0)
          return k;
      }
    } else if (weakest - cost(view, at, 1) >= (h == 5 ? 0 : 2)) {
      if ((k = find_move(legal, team, "up", false)) >= 0)
        return k;
    }
    if (moving == team)
      return find(legal, "end", "team", team, NULL, 0);
  }
  return find(legal, "done", NULL, 0, NULL, 0);
}

size_t bt_policy(const json_t *view, const json_t *legal, int seat)
{
  const json_t *me = json_array_get(json_object_get(view, "seats"), (size_t)seat);
  const char *first = type_of(json_array_get(legal, 0));
  long k = -1;

  if (strcmp(first, "draft") == 0 || strcmp(first, "route") == 0)
    k = 0;
  else if (find(legal, "draw", NULL, 0, NULL, 0) >= 0)
    k = discard_move(legal, me);
  else if (find(legal, "rest", NULL, 0, NULL, 0) >= 0)
    k = find(legal, "rest", NULL, 0, NULL, 0); /* legal lists the most Supplies declared first */
  else if (find(legal, "done", NULL, 0, NULL, 0) >= 0)
    k = movement_move(view, legal, me);
  else if (find(legal, "camp", NULL, 0, NULL, 0) >= 0)
    k = find(legal, "camp", NULL, 0, NULL, 0);
  else if (strcmp(json_string_value(json_object_get(view, "phase")), "advance-base-camp") == 0)
    k = abc_move(legal, me);
  else
    k = find(legal, "ready", NULL, 0, NULL, 0);
  return k < 0 ? 0 : (size_t)k;
}
