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
#include "fog.h"

#include <stdlib.h>
#include <string.h>

/* Whether a stored row is the platform's own ({"cairn": ...}). */
static bool is_platform(const struct db_move *m)
{
  json_t *move = json_loads(m->move_json, 0, NULL);
  bool platform = game_platform_move(move);

  json_decref(move);
  return platform;
}

/* The game's seq before row i. */
static uint32_t seq_before(const struct db_move *moves, size_t i)
{
  return i ? moves[i - 1].seq : 0;
}

/* The one statement of "pending": a title move after which the game's seq
 * did not move on, so its step still awaited other seats. */
static bool left_pending(const struct db_move *m, uint32_t seq_before_m, bool platform)
{
  return m->seq == seq_before_m && !platform;
}

bool game_fog_pending(const struct db_move *moves, size_t i)
{
  return left_pending(&moves[i], seq_before(moves, i), is_platform(&moves[i]));
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

/* What the scan knows of a row (game_fog_scan). */
enum {
  FOG_SHOWN = 1,   /* visible to the scan's viewer */
  FOG_WAITING = 2, /* a pending decision: shown once a title move resolves its step */
};

/* The one statement of the rule (fog.h, game_fog_move_visible), decided as
 * far as row m alone allows. */
static uint8_t classify(const struct db_move *m, uint32_t seq_before_m, bool platform, int viewer)
{
  if (m->seat == viewer)
    return FOG_SHOWN;
  if (has_private_event(m))
    return 0;
  return left_pending(m, seq_before_m, platform) ? FOG_WAITING : FOG_SHOWN;
}

void game_fog_scan_init(struct game_fog_scan *scan, int viewer)
{
  *scan = (struct game_fog_scan){.viewer = viewer};
}

void game_fog_scan_clear(struct game_fog_scan *scan)
{
  free(scan->rows);
  *scan = (struct game_fog_scan){0};
}

/* Rows run..n-1 share the seq of the last row; row m is the first whose seq
 * differs, so it settles their pending decisions: a title move resolved
 * the step, a platform row (a rewind) undid them unrevealed. */
static void settle_run(struct game_fog_scan *scan, bool resolved)
{
  size_t k;

  for (k = scan->run; k < scan->n; k++)
    if (scan->rows[k] == FOG_WAITING)
      scan->rows[k] = resolved ? FOG_SHOWN : 0;
}

enum cairn_status game_fog_scan_add(struct game_fog_scan *scan, const struct db_move *m,
                                    struct cairn_error *err)
{
  uint32_t before = scan->n ? scan->last_seq : 0;
  bool platform = is_platform(m);

  if (scan->n == scan->cap) {
    size_t cap = scan->cap ? 2 * scan->cap : 256;
    uint8_t *grown = realloc(scan->rows, cap);

    if (!grown)
      return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
    scan->rows = grown;
    scan->cap = cap;
  }
  if (scan->n && m->seq != scan->last_seq) {
    settle_run(scan, !platform);
    scan->run = scan->n;
  }
  scan->rows[scan->n++] = classify(m, before, platform, scan->viewer);
  scan->last_seq = m->seq;
  return CAIRN_OK;
}

bool game_fog_scan_visible(const struct game_fog_scan *scan, size_t i)
{
  return i < scan->n && scan->rows[i] == FOG_SHOWN;
}

/* One scan per question: O(n), for callers holding a short log in memory
 * (tests); exports scan once (game_fog_scan). */
bool game_fog_move_visible(const struct db_move *moves, size_t n, size_t i, int viewer)
{
  struct game_fog_scan scan;
  struct cairn_error err = {0};
  bool visible = false;
  size_t k;

  game_fog_scan_init(&scan, viewer);
  for (k = 0; k < n && game_fog_scan_add(&scan, &moves[k], &err) == CAIRN_OK; k++)
    ;
  visible = k == n && game_fog_scan_visible(&scan, i);
  game_fog_scan_clear(&scan);
  return visible;
}

/* Row r took part in a simultaneous step with another seat: it left the
 * step pending, or it resolved a step in which another seat had decided. */
static bool simultaneous(const struct db_move *moves, size_t r)
{
  uint32_t before = seq_before(moves, r);
  size_t k;

  if (game_fog_pending(moves, r))
    return true;
  for (k = r; k-- > 0 && moves[k].seq == before;)
    if (moves[k].seat != moves[r].seat && game_fog_pending(moves, k))
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

const char *game_fog_row_secret(const struct engine_module *module, const struct db_move *moves,
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
