/*
 * verdict.h - what a backend answers when a checked write is refused: the
 * judgements every backend makes alike, from facts it read inside its own
 * transaction (its own SQL, its own locks). One place for the wording and
 * the codes, so SQLite and PostgreSQL refuse a stale move or a taken seat
 * in the same words, as the conformance suite expects. For backends only
 * (db/<backend>/).
 */
#ifndef DB_VERDICT_H
#define DB_VERDICT_H

#include "db.h"

/* Who stands in the way of a join (a backend's seat lookup finds it).
 * ALREADY_SEATED wins when both hold: repeating a join, whichever seat it
 * names, answers "you are in" rather than "someone is there". */
enum db_seat_clash {
  DB_SEAT_CLEAR,
  DB_SEAT_ALREADY_SEATED,
  DB_SEAT_TAKEN,
  DB_SEAT_RESERVED /* kept for another player (an invitation, issue 25) */
};

/* An append of row `ord` to a game with `status` and `moves` rows: OK, or
 * game-not-active (status first: a move that lost the race to the game's
 * last move hears that the game is over), or stale-seq. */
enum cairn_status db_verdict_append(const char *game_id, const char *status, uint32_t moves,
                                    uint32_t ord, struct cairn_error *err);

/* A join of a game with `status` and `seats`, given `clash`: OK, or
 * game-not-open, bad-value (the seat out of range), already-seated,
 * seat-taken. */
enum cairn_status db_verdict_join(const char *game_id, const char *status, int seats,
                                  const struct db_join *join, enum db_seat_clash clash,
                                  struct cairn_error *err);

/* The join's seat is in and the game `started` or not: OK, or stale-seq
 * when that is not what the caller expected (join->expect). */
enum cairn_status db_verdict_join_start(const char *game_id, const struct db_join *join,
                                        bool started, struct cairn_error *err);

/* The store's schema version `found` is newer than this build's `known`:
 * logs it and refuses to open. */
enum cairn_status db_verdict_newer_schema(int found, int known, struct cairn_error *err);

/* The invitations a game_load reads in its one statement, as the text
 * "seat:player,seat:player" (NULL or "" for none), into out->seat_invited.
 * False, with nothing written, for text that is not that shape or names a
 * seat outside the game (a hand-edited store). */
bool db_invited_parse(const char *text, struct db_game *out);

#endif
