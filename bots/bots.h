/*
 * bots.h - the built-in bots' minds: given what one seat may see, choose
 * its move. Pure C like the engine (no I/O, no clock, no globals), using
 * the engine's public interface only (engine/engine.h), so a bot's
 * decision is a function of its input and nothing else.
 *
 * Fair by construction: the input is the seat's view (the title's
 * write_view for that seat, the very text a person in that seat is sent)
 * and the game's public facts (title, seats, step, options). The full
 * state never reaches this folder. The search (ismcts.c) samples worlds
 * consistent with the view (the title's determinize slot) and plays them
 * out: single-observer information-set Monte Carlo tree search with
 * determinization (Cowling, Powley and Whitehouse, 2012).
 *
 * Deterministic: the budget is a count of iterations, never wall time,
 * and every random draw comes from `seed`, so one input gives one move.
 */
#ifndef BOTS_BOTS_H
#define BOTS_BOTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

enum bot_level {
  BOT_RANDOM, /* a legal move at random: no search */
  BOT_EASY,   /* a small search (BOT_EASY_ITERATIONS) */
  BOT_STRONG, /* a larger one (BOT_STRONG_ITERATIONS) */
  BOT_LEVELS
};

#define BOT_EASY_ITERATIONS   32
#define BOT_STRONG_ITERATIONS 256

/* Static: "random", "easy" or "strong". */
const char *bot_level_name(enum bot_level level);

/* The level named `name` into *out; false when there is none. */
bool bot_level_named(const char *name, enum bot_level *out);

/* Everything a bot may know. All borrowed for the call. */
struct bot_input {
  const struct engine_module *module; /* Static: the title */
  int seats;                          /* seats of the game */
  int seat;                           /* the seat to decide for: it owes a decision */
  uint32_t seq;                       /* the game's step (public) */
  const char *view;                   /* Borrowed: write_view's text for `seat` */
  size_t view_len;                    /* bytes of `view` */
  const json_t *options;              /* Borrowed: the game's options, or NULL */
  uint8_t seed[ENGINE_SEED_BYTES];    /* the bot's own seed, never the game's */
};

/* Whether `module` has bots that decide from a view (its determinize
 * slot); without it the server's bots for that title play at random. */
bool bot_title_supported(const struct engine_module *module);

/* Choose the move of `in->seat` at `level`. On success *move (a new
 * reference, a move apply_move accepts in every world the view allows) is
 * the caller's. CAIRN_EINVAL when the title cannot be played from a view
 * or the view is not a running game's in which the seat owes a decision;
 * CAIRN_ENOMEM. */
enum cairn_status bot_decide(const struct bot_input *in, enum bot_level level, json_t **move,
                             struct cairn_error *err);

/* Play `world` (a sampled world, the search's own) on from where the
 * search's tree left it and write each seat's reward for where it ended,
 * in [0, 1], to reward[]: a title with a rule of thumb (engine.h,
 * bot_policy) by it to the end, one with a measure of positions
 * (bot_evaluate) a short greedy way, both scored by the measure where
 * they did not win, any other at random to its end and scored by its
 * result (playout.c). False when a step failed (out of memory). */
bool bot_playout(struct engine_game *world, struct engine_rng *rng,
                 double reward[ENGINE_MAX_SEATS]);

/* Whether `legal` (the title's legal list for `seat` in `world`) is a
 * plain list of moves: the title's own first sampled move is its first
 * element. A compact form (Everest's plans) is not, nor is an empty list. */
bool bot_plain_list(const struct engine_game *world, int seat, const json_t *legal);

/* 64 bits from `rng`; the seat that owes the next decision of `world`
 * (the first, when several do), or -1 once it is over. */
uint64_t bot_draw64(struct engine_rng *rng);
int bot_next_actor(const struct engine_game *world);

/* bot_decide for `seat` of `game` (borrowed): the seat's view written
 * from the game, the game's public facts and `options` (borrowed, NULL
 * for none), and nothing else of the state; the server's and the tests'
 * way in (input.c). */
enum cairn_status bot_choose(const struct engine_game *game, int seat, const json_t *options,
                             const uint8_t seed[ENGINE_SEED_BYTES], enum bot_level level,
                             json_t **move, struct cairn_error *err);

#endif
