/*
 * fog.c - what a live game keeps hidden in its log, judged from the stored
 * rows alone (db_move.seq is the game's seq AFTER the row):
 *
 * - A decision that left its step pending (a simultaneous step: the row's
 *   seq equals the seq before it) is its owner's secret until a later title
 *   move resolves the step. If a platform row (a rewind) moves seq on first,
 *   the decision was undone unrevealed and stays hidden while the game runs.
 * - A move with a private event stays its owner's (export.c redacts it).
 * - For takebacks: a row that carried private events, revealed hidden
 *   information (engine_event_reveals) or took part in a simultaneous step
 *   with another seat showed someone something; it is never undone.
 *
 * Finished games hide nothing (api/README.md), so none of this applies then.
 */
#include "api.h"

#include <string.h>

/* Whether a stored row is the platform's own ({"cairn": ...}). */
static bool is_platform(const struct db_move *m)
{
  json_t *move = json_loads(m->move_json, 0, NULL);
  bool platform = api_platform_move(move);

  json_decref(move);
  return platform;
}

/* The game's seq before row i. */
static uint32_t seq_before(const struct db_move *moves, size_t i)
{
  return i ? moves[i - 1].seq : 0;
}

bool api_fog_pending(const struct db_move *moves, size_t i)
{
  return moves[i].seq == seq_before(moves, i) && !is_platform(&moves[i]);
}

/* True when some event of `m` is private_to seats (or the row is unreadable:
 * then nothing of it is shown). */
static bool has_private_event(const struct db_move *m)
{
  json_t *events = json_loads(m->events_json, 0, NULL);
  json_t *ev;
  size_t k;
  bool private = !json_is_array(events);

  json_array_foreach(events, k, ev)
  {
    if (json_object_get(ev, "private_to"))
    private = true;
  }
  json_decref(events);
  return private;
}

/* The pending row i was resolved by a title move (not undone by a rewind,
 * nor still waiting). */
static bool resolved_by_a_move(const struct db_move *moves, size_t n, size_t i)
{
  size_t j;

  for (j = i + 1; j < n; j++)
    if (moves[j].seq != moves[i].seq)
      return !is_platform(&moves[j]);
  return false;
}

bool api_fog_move_visible(const struct db_move *moves, size_t n, size_t i, int viewer)
{
  if (moves[i].seat == viewer)
    return true;
  if (has_private_event(&moves[i]))
    return false;
  return !api_fog_pending(moves, i) || resolved_by_a_move(moves, n, i);
}

/* Row r took part in a simultaneous step with another seat: it left the
 * step pending, or it resolved a step in which another seat had decided. */
static bool simultaneous(const struct db_move *moves, size_t r)
{
  uint32_t before = seq_before(moves, r);
  size_t k;

  if (api_fog_pending(moves, r))
    return true;
  for (k = r; k-- > 0 && moves[k].seq == before;)
    if (moves[k].seat != moves[r].seat && api_fog_pending(moves, k))
      return true;
  return false;
}

/* Static: why an event of row `m` showed someone something, or NULL. */
static const char *event_secret(const struct engine_module *module, const struct db_move *m)
{
  json_t *events = json_loads(m->events_json, 0, NULL);
  const char *why = json_is_array(events) ? NULL : "holds unreadable events";
  json_t *ev;
  size_t k;

  json_array_foreach(events, k, ev)
  {
    if (!why && json_object_get(ev, "private_to"))
      why = "showed a seat private information";
    else if (!why && engine_event_reveals(module, ev))
      why = "revealed hidden information (a card, a roll or a secret decision)";
  }
  json_decref(events);
  return why;
}

const char *api_fog_row_secret(const struct engine_module *module, const struct db_move *moves,
                               size_t r)
{
  const char *why;

  if (is_platform(&moves[r]))
    return NULL; /* requests, answers: they show nothing */
  why = event_secret(module, &moves[r]);
  if (!why && simultaneous(moves, r))
    why = "was part of a simultaneous decision with another seat";
  return why;
}
