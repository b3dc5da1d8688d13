/*
 * chain.c - the hash chain over a game's move log, shared by every backend
 * (which stores it) and by verification (which recomputes it).
 *
 * hash(row) = BLAKE2b-256(
 *     "cairn-log-1" || prev(32) || len(game_id) game_id || ord || seq ||
 *     seat || at_ms || len(move_json) move_json || len(events) events_json)
 * with every integer as 8 little-endian bytes and every string prefixed by
 * its length, so no two different rows can encode to the same bytes. prev
 * is the hash of row ord-1, or 32 zero bytes for ord 0. The format is
 * documented in openapi/cairn.yaml (export) so anyone can re-check an
 * exported game without our code.
 */
#include "db.h"

#include <sodium.h>
#include <string.h>

static void put_u64(crypto_generichash_state *h, uint64_t v)
{
  uint8_t b[8];
  int i;

  for (i = 0; i < 8; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  crypto_generichash_update(h, b, sizeof(b));
}

static void put_text(crypto_generichash_state *h, const char *text)
{
  size_t n = strlen(text);

  put_u64(h, n);
  crypto_generichash_update(h, (const uint8_t *)text, n);
}

void db_chain_hash(const uint8_t prev[DB_HASH_BYTES], const char *game_id,
                   const struct db_move *move, uint8_t out[DB_HASH_BYTES])
{
  static const char domain[] = "cairn-log-1";
  crypto_generichash_state h;

  crypto_generichash_init(&h, NULL, 0, DB_HASH_BYTES);
  crypto_generichash_update(&h, (const uint8_t *)domain, sizeof(domain) - 1);
  crypto_generichash_update(&h, prev, DB_HASH_BYTES);
  put_text(&h, game_id);
  put_u64(&h, move->ord);
  put_u64(&h, move->seq);
  put_u64(&h, (uint64_t)move->seat);
  put_u64(&h, (uint64_t)move->at_ms);
  put_text(&h, move->move_json);
  put_text(&h, move->events_json);
  crypto_generichash_final(&h, out, DB_HASH_BYTES);
}
