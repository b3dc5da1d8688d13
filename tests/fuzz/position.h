/*
 * position.h - what the fuzz harnesses in tests/fuzz/ share: turning the
 * first bytes of an input into a game position, and throwing a move at that
 * position while checking the engine's promises (engine/engine.h):
 *
 *   - nothing crashes (ASan, UBSan and libFuzzer catch that);
 *   - a move from engine_sample_move is accepted (legal means legal);
 *   - a refused move leaves engine_serialize_text unchanged and fills the
 *     error (a code always, a rule for every CAIRN_EILLEGAL);
 *   - a seat that owes no decision is refused with CAIRN_ETURN;
 *   - an accepted move advances seq by 0 or 1, and the move's stored text
 *     (compact, key-sorted, as the log keeps it) parsed back and applied to
 *     the same state gives the same state and events (replay depends on
 *     it); a clone serialises like its original.
 *
 * A broken promise prints what happened and calls abort(), which libFuzzer
 * reports as a crash and saves the input.
 */
#ifndef TESTS_FUZZ_POSITION_H
#define TESTS_FUZZ_POSITION_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

/* Bytes of an input that choose the position (see fuzz_position). */
#define FUZZ_HEAD_BYTES 12

/* At most this many moves are played to reach a position. Himalaya games
 * end well before (the weather card comes after nine Yeti cards). */
#define FUZZ_MAX_PLAY 512

/* The head of an input, decoded:
 *   byte 0      seats (min_seats + byte % range)
 *   bytes 1-2   moves to play, little-endian, modulo FUZZ_MAX_PLAY + 1
 *   bytes 3-10  a 64-bit number seeding the game's seed and every choice
 *   byte 11     flags for fuzz_try_move
 * Shorter inputs are padded with zeros. */
struct fuzz_head {
  int seats_byte;
  unsigned play;
  uint64_t seed;
  uint8_t flags;
};

/* Decode the head; *rest and *rest_len get the bytes after it. */
struct fuzz_head fuzz_head_read(const uint8_t *data, size_t size, const uint8_t **rest,
                                size_t *rest_len);

/* OUT, caller frees with engine_free: a game of `m` after up to head->play
 * sampled moves (fewer when the game ends first). Recent positions are
 * cached and cloned. A title that refuses a game with default options, or
 * a sampled move, is a finding (fuzz_die). */
struct engine_game *fuzz_position(const struct engine_module *m, const struct fuzz_head *head);

/* Apply `move` (borrowed) at `game` (unchanged) for a seat that owes a
 * decision and for every seat that does not, checking the promises above.
 * With flags bit 0 set and `move` an object, also apply a sampled legal
 * move with `move`'s members written over it (reaches the rules checks
 * behind the shape checks far more often than random text does). */
void fuzz_try_move(const struct engine_game *game, const json_t *move, uint8_t flags,
                   uint64_t choice);

/* Print a message and abort (a finding). */
void fuzz_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
