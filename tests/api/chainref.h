/*
 * chainref.h - the log's hash chain as openapi/cairn.yaml documents it
 * (Export: chain formats 1 and 2), written again from that text with
 * libsodium alone, never with db/chain.c: tests that attack or audit an
 * exported game recompute hashes the way an outsider without our code
 * would.
 */
#ifndef TESTS_API_CHAINREF_H
#define TESTS_API_CHAINREF_H

#include <stddef.h>
#include <stdint.h>

#define CHAINREF_HASH 32

/* One log row: its public fields and its content (compact JSON with sorted
 * keys, as stored). Borrowed. */
struct chainref_row {
  long ord, seq, seat;
  int64_t at_ms;
  const char *move;
  const char *events;
};

/* Format 1: BLAKE2b-256("cairn-log-1" || prev || text(id) || ord || seq ||
 * seat || at_ms || text(move) || text(events)). */
void chainref_hash_v1(const uint8_t prev[CHAINREF_HASH], const char *game_id,
                      const struct chainref_row *r, uint8_t out[CHAINREF_HASH]);

/* Format 2's commitment key: BLAKE2b-256 keyed with `seed` (seed_len
 * bytes) over "cairn-commit-key-2" || text(id). */
void chainref_commit_key(const uint8_t *seed, size_t seed_len, const char *game_id,
                         uint8_t out[CHAINREF_HASH]);

/* Format 2: each of move and events committed as BLAKE2b-256 keyed with
 * `key` (NULL: unkeyed, an attacker's guess) over label || text(content);
 * the row hash is BLAKE2b-256("cairn-log-2" || prev || text(id) || ord ||
 * seq || seat || at_ms || C_move || C_events). */
void chainref_hash_v2(const uint8_t *key, const uint8_t prev[CHAINREF_HASH], const char *game_id,
                      const struct chainref_row *r, uint8_t out[CHAINREF_HASH]);

#endif
