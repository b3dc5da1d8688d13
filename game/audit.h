/*
 * audit.h - judging a game's record (audit.c): the hash chain, the seed
 * commitment, and a full re-run of the log from the seed. One implementation serves the
 * server (GET /v1/games/{id}/verify), the offline `cairn verify FILE` and
 * `cairn revalidate`, so all three judge a game the same way.
 */
#ifndef GAME_AUDIT_H
#define GAME_AUDIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "../db/db.h"
#include "../engine/engine.h"

/* A game's record, all borrowed for the duration of the call. */
struct game_audit_input {
  const struct engine_module *module;
  const char *game_id;
  int seats;
  const json_t *options;       /* the game's options object */
  const uint8_t *seed;         /* ENGINE_SEED_BYTES, or NULL when not revealed */
  const uint8_t *commitment;   /* 32 bytes to check the seed against, or NULL */
  const struct db_move *moves; /* the log, in stored order */
  size_t n_moves;
  bool check_chain;        /* the moves carry their stored hashes */
  int chain_format;        /* DB_CHAIN_FORMAT_* the hashes were made in */
  const uint8_t *log_head; /* DB_HASH_BYTES the record claims as its head
                              (a signature covers it), or NULL */
  json_t **result_out;     /* if set and the replay succeeds: the
                              final state's result (new reference,
                              NULL while the game runs) */
};

/* New reference: the report
 *   {ok, moves, log_head, chain:{ok, first_bad_ord, problem},
 *    commitment:{ok, problem}, replay:{ok, first_bad_ord, problem}}
 * where a check that could not run (no seed yet) has ok = null and does not
 * make the whole report fail. NULL only when out of memory. */
json_t *game_audit_run(const struct game_audit_input *in);

/* The seed commitment: BLAKE2b-256(seed || game id). */
void game_seed_commitment(const uint8_t seed[ENGINE_SEED_BYTES], const char *game_id,
                          uint8_t out[32]);

/* A list of log rows with their strings owned, for building audit input
 * from storage or from an export document, and for the takeback policy. */
struct game_log {
  struct db_move *moves; /* owned, n long; strings owned (free with game_log_clear) */
  size_t n;
  size_t cap;
};

/* moves_load callback appending a copy of each row to a game_log. */
enum cairn_status game_log_collect(void *arg, const struct db_move *move, struct cairn_error *err);

/* Release what a game_log owns and zero it. */
void game_log_clear(struct game_log *log);

#endif
