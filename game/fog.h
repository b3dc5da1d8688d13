/*
 * fog.h - what a live game's log keeps hidden (fog.c), and the platform's
 * own log rows (takeback.c: takeback requests, answers, rewinds and
 * adjudications), which every walk over a log must tell from title moves.
 * Both are judged from stored rows alone, so the server, exports and the
 * offline tools agree.
 */
#ifndef GAME_FOG_H
#define GAME_FOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../db/db.h"
#include "../engine/engine.h"

/* ---- platform rows (takeback.c) ---- */

/* A source of "the state after the first `rows` rows of this log". */
typedef enum cairn_status (*game_prefix_fn)(void *ctx, uint32_t rows, struct engine_game **out,
                                            struct cairn_error *err);

/* True when `move` (a stored log row's move) is a platform row. */
bool game_platform_move(const json_t *move);

/* Replay the platform row `row` (its parsed `move`) on *state: a rewind
 * replaces *state (freed) with prefix(to_ord) one step later; the others
 * leave it as it is. *events (new reference) are the row's events. */
enum cairn_status game_platform_apply(const json_t *move, const struct db_move *row,
                                      struct engine_game **state, json_t **events,
                                      game_prefix_fn prefix, void *ctx, struct cairn_error *err);

/* ---- the fog (fog.c) ---- */

/* True when row i of `moves` (a whole stored log, in order) is a title move
 * that left its step pending (a simultaneous decision). */
bool game_fog_pending(const struct db_move *moves, size_t i);

/* May `viewer` (a seat or ENGINE_SPECTATOR) see the move of row i of the
 * live game whose log is moves[0..n)? Its own rows always; another seat's
 * only when no event of it is private and, if it left its step pending, a
 * later title move resolved the step (a pending decision undone by a
 * rewind is never shown while the game runs). */
bool game_fog_move_visible(const struct db_move *moves, size_t n, size_t i, int viewer);

/* The visibility of every row of a live log for one viewer, learned in one
 * pass in log order: one byte per row, never the rows, so an export can
 * stream a log of any length (a pending row's fate is known only when a
 * later row moves seq on). Rows still pending at the end stay hidden. */
struct game_fog_scan {
  int viewer;    /* a seat or ENGINE_SPECTATOR */
  uint8_t *rows; /* owned: per row, what fog.c knows of it */
  size_t n, cap; /* rows added; bytes allocated */
  size_t run;    /* first row sharing the last row's seq */
  uint32_t last_seq;
};
void game_fog_scan_init(struct game_fog_scan *scan, int viewer);
/* Add the next row of the log (CAIRN_ENOMEM only). */
enum cairn_status game_fog_scan_add(struct game_fog_scan *scan, const struct db_move *m,
                                    struct cairn_error *err);
/* May the viewer see the move of row i, given the rows added so far? */
bool game_fog_scan_visible(const struct game_fog_scan *scan, size_t i);
void game_fog_scan_clear(struct game_fog_scan *scan);

/* Static: why row r of `moves` (a `module` game) showed someone something
 * it must never take back (private events, revealed information, a
 * simultaneous step with another seat), worded without the secret; NULL
 * when it showed nothing. Generator draws are judged by the caller, who
 * can replay. */
const char *game_fog_row_secret(const struct engine_module *module, const struct db_move *moves,
                                size_t r);

#endif
