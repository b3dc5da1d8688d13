/*
 * fuzz_move.c - libFuzzer harness: bytes -> a position of every registered
 * title -> the rest of the bytes as a move's JSON text.
 *
 * Input: FUZZ_HEAD_BYTES choosing the position (position.h: seats, how many
 * sampled legal moves to play, the seed of the game and of every choice,
 * flags), then the move text. The text is read the way the server reads a
 * body (json_loadb with JSON_REJECT_DUPLICATES); text that is not JSON
 * stops there, as the server would answer bad-json. The move then goes to
 * engine_apply for a seat that owes a decision and for every seat that does
 * not, and each title in engine_modules() gets the same input, so a new
 * title is fuzzed as soon as titles.def lists it.
 *
 * Build and run: `make fuzz` (FUZZ_SECONDS, default 60); `make test` runs a
 * short pass. Seeds: tests/fuzz/corpus/fuzz_move/; crashes found earlier:
 * tests/fuzz/regressions/fuzz_move/.
 */
#include <stddef.h>
#include <stdint.h>

#include "position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const struct engine_module *const *m;
  const uint8_t *text;
  size_t text_len;
  struct fuzz_head head = fuzz_head_read(data, size, &text, &text_len);
  json_t *move =
      json_loadb((const char *)text, text_len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);

  if (!move)
    return 0;
  for (m = engine_modules(); *m; m++) {
    struct engine_game *game = fuzz_position(*m, &head);

    fuzz_try_move(game, move, head.flags, head.seed ^ head.play);
    engine_free(game);
  }
  json_decref(move);
  return 0;
}
