/*
 * crashkit.h - what the crash tests share (test_crash: one SQLite server
 * killed with SIGKILL mid-game; test_crash_pg: one of two nodes on one
 * PostgreSQL database killed the same way): a client thread per game
 * playing random legal moves and recording every move the server answered
 * 200, and the check, after a restart, that every such move is in the log
 * at its row, that no seq or move count went backwards, that the log's
 * seqs never decrease and that the game verifies (hash chain and replay).
 */
#ifndef TESTS_API_CRASHKIT_H
#define TESTS_API_CRASHKIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

/* One move the server answered 200. */
struct crash_ack {
  long ord;   /* the row it was stored as */
  long seq;   /* the answer's seq */
  int seat;   /* who moved */
  char *move; /* owned: the move sent, compact and key-sorted */
};

/* A game being played, and what the server promised about it. */
struct crash_game {
  char id[64];
  int seats;
  /* Borrowed from the test: seat i's player; NULL for a bot's seat */
  struct harness_player *players[5];
  bool has_bot;           /* a seat is the server's: answers include its replies */
  struct crash_ack *acks; /* owned, n_acks long (crash_game_free) */
  size_t n_acks, cap_acks;
  long seen_seq;   /* the highest seq any answer showed */
  long seen_moves; /* the highest move count any answer showed */
  bool finished;
};

/* One client thread's work for one round (crash_drive's argument). */
struct crash_driver {
  struct harness_server *server; /* the node this client plays through */
  struct crash_game *game;
  const atomic_bool *stop;
  struct harness_rng rng;
  char error[768]; /* set when the server broke a promise; "" otherwise */
  long posted;     /* moves answered 200 in this round */
  long unanswered; /* moves sent whose answer the kill cut off */
};

/* The number in env `env` (> 0), else `fallback`. */
long crash_rounds(const char *env, long fallback);

/* CAIRN_CRASH_SEED, else one from the time and the pid. */
uint64_t crash_seed(void);

/* A client thread (pthread start routine, arg a struct crash_driver *):
 * plays random legal moves until told to stop or the server goes away,
 * waiting while a bot's seat owes the move. Uses no cmocka calls: a broken
 * promise goes to the driver's error. */
void *crash_drive(void *arg);

/* Every promise the server made about `g`, checked through `s` (after a
 * restart); fails the test on a broken one. */
void crash_check_game(struct harness_server *s, struct crash_game *g);

/* A new Himalaya game of `seats` seats, players[i] in seat i. */
void crash_new_game(struct harness_server *s, struct crash_game *g, int seats,
                    struct harness_player *players);

/* A new two-seat Himalaya game: `me` in seat 0, the built-in bot in seat 1. */
void crash_new_bot_game(struct harness_server *s, struct crash_game *g, struct harness_player *me);

/* Release what `g` owns. */
void crash_game_free(struct crash_game *g);

#endif
