/*
 * tmpdb.h - throwaway database files for the storage tests: a fresh
 * directory under /tmp per test, removed with everything SQLite left in it
 * (the database, its -wal and -shm files).
 */
#ifndef TESTS_DB_TMPDB_H
#define TESTS_DB_TMPDB_H

#include <stdint.h>

#include "db/db.h"

struct tmpdb {
  char dir[64];   /* the mkdtemp directory */
  char path[128]; /* dir + "/cairn.db", not yet created */
};

/* Make a new directory and fill *t. Returns 0, or -1 with errno set. */
int tmpdb_make(struct tmpdb *t);

/* Remove the database files and the directory. Accepts a struct whose
 * tmpdb_make failed (dir empty). */
void tmpdb_remove(struct tmpdb *t);

/* A backend opened on a fresh, empty store, by its URL: a throwaway file
 * for SQLite, a throwaway database for PostgreSQL. */
struct tmpdb_backend {
  struct tmpdb t; /* SQLite: the file's directory */
  char url[256];  /* what db_open was given */
  char pg_db[64]; /* PostgreSQL: the database made for this test; "" for SQLite */
  struct db *db;
};

/* cmocka fixtures: *state becomes a struct tmpdb_backend * (setup returns
 * -1 when the file or the backend cannot be made); teardown closes the
 * backend unless a test already did (db NULL) and removes the files. */
int tmpdb_backend_setup(void **state);
int tmpdb_backend_teardown(void **state);

/* The same for the PostgreSQL backend: a database of its own per test, on
 * the cluster whose URL CAIRN_TEST_PG holds (tests/db/pg_cluster.sh
 * prints it; `make run-tests` starts one and sets it). Without it setup
 * fails, saying how to start one: no test is skipped. Teardown drops the
 * database. */
int tmpdb_pg_setup(void **state);
int tmpdb_pg_teardown(void **state);

/* ---- rows for the backend tests (each fails the test when refused) ---- */

/* A token hash made of `fill` bytes, the first one 0xc0 so a truncated
 * blob would not match. */
void tmpdb_hash_of(uint8_t hash[DB_HASH_BYTES], uint8_t fill);
/* Player `id`, "Name of <id>", with the token hash of `fill`. */
void tmpdb_add_player(struct db *db, const char *id, uint8_t fill);
/* An open himalaya game `id` of `seats` seats created by `creator`. */
void tmpdb_add_game(struct db *db, const char *id, int seats, const char *creator);
/* Players <id>-p0..<id>-p(seats-1) and game `id` with them all seated:
 * active. Distinct first letters of `id` give distinct tokens. */
void tmpdb_add_active_game(struct db *db, const char *id, int seats);
/* The token hash of seat `seat`'s player in tmpdb_add_active_game(`id`). */
void tmpdb_seat_token_hash(uint8_t hash[DB_HASH_BYTES], const char *id, int seat);
/* Load game `id` into *g (the caller's, db_game_clear); fails the test
 * unless found. */
void tmpdb_load(struct db *db, const char *id, struct db_game *g);
/* Log row `ord` of `game` (seq ord + 1, seat ord % 2, move
 * {"type":"pass","n":ord}, events [{"type":"passed","n":ord}], at
 * 1700000000000 + ord); `result_json` finishes the game. */
enum cairn_status tmpdb_append(struct db *db, const char *game, uint32_t ord,
                               const char *result_json, struct cairn_error *err);

/* Walks a log with moves_load, checking that each row's stored hash is
 * db_chain_hash of the row after the previous one. Set `chain` (and
 * `prev`, all zero for a walk from ord 0) before the walk. */
struct tmpdb_chain_walk {
  struct db_chain chain;
  uint8_t prev[DB_HASH_BYTES];
  int rows;
};
enum cairn_status tmpdb_check_link(void *arg, const struct db_move *move, struct cairn_error *err);

#endif
