/*
 * db.h - the storage interface. Storage is opened by URL (db_open:
 * "path", "sqlite:path", "postgres://...") and
 * reached only through the db_* functions below, each a one-line call
 * into the backend's const method table (`struct db_methods`, one per
 * backend, in the manner of sqlite3_io_methods), so another backend can be
 * added without touching api/ or engine/ and nothing outside db/ names a
 * backend. Every backend passes the same conformance suite
 * (tests/db/test_conformance.c).
 *
 * Storage does not look inside what the engine produces: moves, events,
 * options and results are stored as JSON text, opaque to it.
 *
 * Truth and derived data. The append-only move log is the truth. A game row
 * holds only what was fixed at creation (title, rules version, options,
 * seed) plus bookkeeping that a move commits in the same transaction as its
 * log row (status, seq, move count, result), so the row never disagrees with
 * the log. Nothing here caches engine state; a backend may keep copies of
 * the rows it returned, provided every slot still answers as the file
 * would (db/sqlite/rowcache.c).
 *
 * Every function returns enum cairn_status and fills `err` on failure:
 * CAIRN_ENOTFOUND for a missing row, CAIRN_ECONFLICT / CAIRN_ESTALE for a
 * lost race (see each slot), CAIRN_EDB for anything storage itself failed
 * at. The backend's own message goes to the server log, never to `err`'s
 * detail, which a client may see.
 *
 * Threads: every slot may be called from any request thread; the backend
 * serialises as it needs to.
 */
#ifndef DB_H
#define DB_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/cairn.h"
#include "../engine/engine.h"

#define DB_ID_MAX      32 /* ids are short ASCII strings */
#define DB_NAME_MAX    64 /* player names, bytes of UTF-8 */
#define DB_TITLE_MAX   64
#define DB_STATUS_MAX  16
#define DB_HASH_BYTES  32 /* token hashes */
#define DB_SIG_BYTES   64 /* an Ed25519 signature */
#define DB_KEY_BYTES   32 /* an Ed25519 public key */
#define DB_NODE_ID_MAX 16 /* a node's id: 16 hex digits drawn when it starts */
/* Player ids of the server's built-in bots start with this (game.h's
 * GAME_BOT_PREFIX is it): games_bots_idle finds bot seats by it. */
#define DB_BOT_PREFIX "bot-"

/* The hash chain's formats (chain.c has the bytes). A game keeps the
 * format it was created with (games.chain_format, migration 0008). */
#define DB_CHAIN_FORMAT_1       1 /* unkeyed: row content hashed in the clear */
#define DB_CHAIN_FORMAT_2       2 /* hiding: content committed under a key from the seed */
#define DB_CHAIN_FORMAT_CURRENT DB_CHAIN_FORMAT_2

/* Game status strings as the API shows them. */
#define DB_STATUS_OPEN      "open"      /* waiting for seats */
#define DB_STATUS_ACTIVE    "active"    /* every seat taken, moves accepted */
#define DB_STATUS_FINISHED  "finished"  /* the engine reported a result */
#define DB_STATUS_CANCELLED "cancelled" /* its creator cancelled it while open (issue 25) */

struct db_player {
  char id[DB_ID_MAX + 1];
  char name[DB_NAME_MAX + 1];
};

/* A game row. Strings inside are owned by the struct; release with
 * db_game_clear(). */
struct db_game {
  char id[DB_ID_MAX + 1];
  char title[DB_TITLE_MAX + 1];
  char rules_version[DB_TITLE_MAX + 1];
  char status[DB_STATUS_MAX + 1];  /* DB_STATUS_* */
  int seats;                       /* 1..ENGINE_MAX_SEATS */
  char *options_json;              /* owned: JSON object text */
  char *result_json;               /* owned: JSON text, NULL while running */
  uint8_t seed[ENGINE_SEED_BYTES]; /* secret until finished */
  char creator[DB_ID_MAX + 1];     /* player id */
  int64_t created_ms;              /* ms since the Unix epoch */
  uint32_t seq;                    /* the game's seq after the last move */
  uint32_t moves;                  /* rows in the move log */
  /* seat_player[i] is the player id in seat i, "" while empty */
  char seat_player[ENGINE_MAX_SEATS][DB_ID_MAX + 1];
  /* seat_name[i] is that player's name, "" while empty */
  char seat_name[ENGINE_MAX_SEATS][DB_NAME_MAX + 1];
  /* seat_resigned[i]: seat i's player resigned (a {"cairn":"resign"} row);
   * in a game that goes on, the server's bot plays the seat from then on */
  bool seat_resigned[ENGINE_MAX_SEATS];
  /* seat_invited[i] is the player seat i is kept for (an invitation, issue
   * 25), "" for none: game_create stores them, game_load reads them, and
   * the join that seats that player (or their decline) removes theirs */
  char seat_invited[ENGINE_MAX_SEATS][DB_ID_MAX + 1];
  /* the chain hash of the last log row; all zero while there is none */
  uint8_t log_head[DB_HASH_BYTES];
  int64_t updated_ms;   /* ms since the epoch: creation, the start, or the last move */
  int64_t move_ms;      /* per-move time control: ms per decision, 0 for none */
  int64_t base_ms;      /* pace time control: the starting bank, 0 for none */
  int64_t increment_ms; /* pace: added to the bank after each decision */
  int64_t cap_ms;       /* pace: the bank's ceiling */
  char on_timeout[16];  /* "move" or "adjudicate" */
  int chain_format;     /* DB_CHAIN_FORMAT_*; 0 in a new row means the current one */
  /* An import this server cannot vouch for (not signed by its own key):
   * its seats are names only (seat_name; seat_player stays ""), never
   * linked to a player here, and import_ids keeps the ids the document
   * claimed, for its export only. The document's signer key and signature
   * are kept as they came (has_signer false when it had none) so the export
   * reproduces them and verification can judge them. */
  bool imported;
  char import_ids[ENGINE_MAX_SEATS][DB_ID_MAX + 1];
  bool has_signer;
  uint8_t signer[DB_KEY_BYTES];
  uint8_t signature[DB_SIG_BYTES];
};

/* One seat's clock in a game with a time control. */
struct db_clock {
  int seat;
  int64_t bank_ms;     /* time left in the bank */
  int64_t since_ms;    /* owing a decision since, 0 when not */
  int64_t deadline_ms; /* when the decision is due, 0 when not owing */
};

/* One row of the append-only move log. */
struct db_move {
  uint32_t ord;            /* 0-based position in the log; rows are dense */
  uint32_t seq;            /* the game's seq after this move */
  int seat;                /* who moved */
  const char *move_json;   /* the move as submitted (validated) */
  const char *events_json; /* the engine's events, a JSON array */
  int64_t at_ms;           /* when it was accepted */
  /* The chain hash (db_chain_hash) of this row. Not read by move_append,
   * which computes it from the previous row inside its transaction and
   * writes it here once the row is durable (the game's new log_head);
   * filled by moves_load. has_hash is false for rows older than the chain. */
  uint8_t hash[DB_HASH_BYTES];
  bool has_hash;
  /* The game's clocks after this move, written by move_append in the
   * move's own transaction (clocks_save's upsert), so a move and the
   * deadlines it sets are stored together or not at all. n_clocks 0 for a
   * game without a time control, or for rows read back: moves_load does
   * not fill them. */
  const struct db_clock *clocks;
  int n_clocks;
  /* The webhook deliveries this row owes, written by move_append in the
   * row's own transaction (outbox_put's rows, each with its delivery_id),
   * so an acknowledged move never loses what it owes to a crash. A row
   * for a webhook deleted before the commit is skipped (a deleted hook is
   * owed nothing). n_outbox 0 for none, and for rows read back. */
  const struct db_outbox *outbox;
  int n_outbox;
  /* This row is `seat`'s resignation: move_append marks the seat resigned
   * (db_game.seat_resigned) in the row's own transaction. False for rows
   * read back. */
  bool resigns;
  /* This row hands `seat` to the player seat_player_to, an existing one (a
   * bot replacing a late seat's person, issue 25): move_append writes the
   * seat's player in the row's own transaction. NULL otherwise, and for
   * rows read back. */
  const char *seat_player_to;
  /* The row ends a rated game (issue 25): move_append updates the ratings
   * and the end order in the row's own transaction. NULL otherwise, and
   * for rows read back. */
  const struct db_rating_update *rating;
};

/* One join: a player taking a seat, with what the join owes when it fills
 * the last seat and so starts the game. Everything is borrowed for the
 * call. */
struct db_join {
  int seat;              /* 0-based */
  const char *player_id; /* an existing player */
  /* What the caller, having read the game under its lock, expects the join
   * to do: DB_JOIN_EITHER takes the seat whatever follows; the others make
   * the write conditional (CAIRN_ESTALE and nothing written when the join
   * would not, or would, fill the last seat), so the clocks and deliveries
   * computed for that outcome are never stored with the other. */
  int expect;
  /* Written only when the join starts the game, in its transaction: */
  int64_t at_ms;                  /* the game's updated_ms (its clocks' start); 0 keeps it */
  const struct db_clock *clocks;  /* the first clocks (clocks_save's upsert) */
  int n_clocks;                   /* 0 for a game without a time control */
  const struct db_outbox *outbox; /* the webhook deliveries it owes (outbox_put's rows) */
  int n_outbox;
};

#define DB_JOIN_EITHER 0 /* no expectation: clocks and outbox are written if given */
#define DB_JOIN_STARTS 1 /* the join must fill the last seat */
#define DB_JOIN_WAITS  2 /* the join must leave a seat empty */

/* A declared vacation: [start_ms, end_ms). */
struct db_vacation {
  int64_t start_ms, end_ms;
};

/* A registered webhook (webhooks.c in api/ explains the formats). */
struct db_webhook {
  char id[DB_ID_MAX + 1];
  char owner[DB_ID_MAX + 1];   /* player id */
  char game_id[DB_ID_MAX + 1]; /* "" for every game of the owner */
  char url[2049];
  char format[16];    /* discord, slack, matrix, json */
  char mention[129];  /* prefix put before the message text */
  uint8_t secret[32]; /* HMAC key */
  int64_t created_ms;
};

/* A player's handle for a webhook that follows a game (issue 24): what
 * that hook's lines ping when the player's seat is to act. api/webhooks.c
 * checks its shape; storage keeps it as given. */
#define DB_HANDLE_MAX 64
struct db_mention {
  char webhook_id[DB_ID_MAX + 1];
  char player_id[DB_ID_MAX + 1];
  char handle[DB_HANDLE_MAX + 1]; /* "" in mention_put: remove */
};

/* One mention; borrowed for the call. */
typedef enum cairn_status (*db_mention_cb)(void *arg, const struct db_mention *mention,
                                           struct cairn_error *err);

/* One delivery attempt of a webhook. */
struct db_delivery {
  int64_t id; /* assigned by the store */
  char webhook_id[DB_ID_MAX + 1];
  char event[16]; /* turn, start, end */
  char game_id[DB_ID_MAX + 1];
  int attempt; /* 1 for the first try */
  int64_t at_ms;
  int http_status; /* 0 when no answer came */
  char error[200]; /* "" when delivered */
  bool delivered;
};

/* A webhook delivery still owed: queued, or waiting to be retried. */
struct db_outbox {
  char delivery_id[17]; /* 16 hex digits: the X-Cairn-Delivery id */
  char webhook_id[DB_ID_MAX + 1];
  char event[16];
  char game_id[DB_ID_MAX + 1];
  const char *body; /* the signed body, sent as is at every attempt */
  int attempt;      /* the next attempt's number, from 1 */
  int64_t due_ms;   /* when it is due */
  /* The lease (issue 23): the node sending it ("" for none) and the real
   * time, ms since the epoch, its lease runs to (0: unclaimed). Written
   * by outbox_put's insert and move_append/seat_take's rows, read back
   * by outbox_each and outbox_claim; outbox_put's update leaves them. */
  char claimed_by[DB_NODE_ID_MAX + 1];
  int64_t claimed_until;
};

/* One owed delivery with its webhook; both borrowed for the call. */
typedef enum cairn_status (*db_outbox_cb)(void *arg, const struct db_outbox *owed,
                                          const struct db_webhook *hook, struct cairn_error *err);

/* ---- ratings (issue 25; docs/ratings.md has the model) ---- */

/* A rated party: a player id, or a solo scenario's pseudo-player
 * ("scenario:<title>:<name>"). */
#define DB_RATED_MAX 128
/* A LIKE pattern of the scenarios' pseudo-players (game/ratings.h's
 * GAME_RATING_SCENARIO_PREFIX): the leaderboards leave them out. */
#define DB_SCENARIO_LIKE "scenario:%"

/* One party's rating in one title. */
struct db_rating {
  char title[DB_TITLE_MAX + 1];
  char player[DB_RATED_MAX + 1];
  bool known;       /* stored before; false: never rated (the rest is zero) */
  double mu, sigma; /* Weng-Lin's mean and deviation */
  double ordinal;   /* mu - 3 sigma: what the leaderboard sorts by */
  int games, wins, draws, losses;
  int64_t updated_ms;         /* the end of its last rated game */
  char name[DB_NAME_MAX + 1]; /* the player's name when listed; "" for a scenario */
};

/* What the append ending a rated game writes besides the row: the ratings
 * of players[0..n) in `title`, read and replaced in the row's own
 * transaction, and the game's place in the end order (rated_games). */
struct db_rating_update {
  const char *title;          /* borrowed */
  int n;                      /* parties rated, 1..DB_RATED_PARTIES */
  const char *const *players; /* borrowed: their ids, distinct */
  /* Called inside the transaction with ratings[0..n) as stored (in the
   * order of `players`; `known` false for a party never rated), to replace
   * them with the new ones. Must not call storage. */
  void (*rate)(void *arg, struct db_rating *ratings, int n);
  void *arg;
};
#define DB_RATED_PARTIES (ENGINE_MAX_SEATS + 1) /* the seats and a scenario */

/* Called with each stored rating (ratings_of, leaderboard, ratings_each),
 * or with each rated game's id in end order (rated_games_each). */
typedef enum cairn_status (*db_rating_cb)(void *arg, const struct db_rating *r,
                                          struct cairn_error *err);

/* ---- chat (issue 25) ---- */

/* A game's two chat channels. Players read both; spectators only theirs. */
#define DB_CHAT_PLAYERS    0 /* the seated players' */
#define DB_CHAT_SPECTATORS 1 /* everyone else's (players may read it too) */
/* A message's text: at most 500 characters (api/chat.c), 4 bytes each. */
#define DB_CHAT_TEXT_MAX 2000

/* One chat message of a game. Chat is not a change to the game: it is
 * stored beside the log, never in it (no seq, no chain hash, no replay). */
struct db_chat {
  char id[DB_ID_MAX + 1]; /* random, what DELETE /v1/chat/{id} names */
  char game_id[DB_ID_MAX + 1];
  int channel;                /* DB_CHAT_PLAYERS or DB_CHAT_SPECTATORS */
  uint32_t n;                 /* 1, 2, ... within its game and channel; set by chat_post */
  char author[DB_ID_MAX + 1]; /* player id */
  char author_name[DB_NAME_MAX + 1];
  char text[DB_CHAT_TEXT_MAX + 1]; /* UTF-8; "" once deleted */
  int64_t at_ms;                   /* when it was posted */
  int64_t deleted_ms;              /* 0 while it stands; when its author deleted it */
};

/* Called once per message by chat_list; `msg` is borrowed for the call. */
typedef enum cairn_status (*db_chat_cb)(void *arg, const struct db_chat *msg,
                                        struct cairn_error *err);

/* Called with one game id (games_each, games_overdue), or a game id and
 * the seat the player holds in it (player_games). */
typedef enum cairn_status (*db_game_id_cb)(void *arg, const char *game_id, struct cairn_error *err);
typedef enum cairn_status (*db_game_seat_cb)(void *arg, const char *game_id, int seat,
                                             struct cairn_error *err);

typedef enum cairn_status (*db_webhook_cb)(void *arg, const struct db_webhook *hook,
                                           struct cairn_error *err);
typedef enum cairn_status (*db_delivery_cb)(void *arg, const struct db_delivery *delivery,
                                            struct cairn_error *err);

/* Called once per row in order by moves_load. The strings in `move` are
 * borrowed until the callback returns. Return CAIRN_OK to continue, CAIRN_DONE
 * to stop early with success (moves_load then returns CAIRN_OK and reads no
 * further rows: a replay to ?at=N of a long game must not walk the rest of
 * the log); any other status stops the walk and is returned by moves_load. */
typedef enum cairn_status (*db_move_cb)(void *arg, const struct db_move *move,
                                        struct cairn_error *err);

/* A change committed to a game by another process (db_listen_start): the
 * game and where it stands now, nothing more (nothing hidden, nothing per
 * seat). Borrowed for the call. */
struct db_change {
  const char *game_id;
  uint32_t seq;   /* the game's seq after the change */
  uint32_t moves; /* its log rows after the change: a join leaves them as they were */
  /* Or a chat message posted (or deleted) in the game (issue 25), which
   * does not change it (seq and moves are 0 then): 1 + its channel
   * (DB_CHAT_*), 0 for a change of the game. Which message, never its
   * words. */
  int chat;
  uint32_t chat_n;
  bool chat_deleted;
  /* Or an invitation that ended with its seat not taken (issue 25):
   * DB_INVITATION_DECLINED or DB_INVITATION_CANCELLED (its game was),
   * 0 otherwise; the seat it kept and its invitee. */
  int invitation;
  int invitation_seat;
  const char *invitee;
};
#define DB_INVITATION_DECLINED  1
#define DB_INVITATION_CANCELLED 2

/* Called by a store's listener (db_listen_start) with each change another
 * process committed; with `change` NULL when some may have been missed
 * (the listener lost its connection and has made a new one), so that
 * whatever a change would have refreshed is refreshed. Runs on the
 * listener's thread, holding nothing of the store: it may call any db_*
 * function. */
typedef void (*db_change_cb)(void *arg, const struct db_change *change);
/* An append's verdict, move_append's return value, delivered by
 * move_append_async once the row is durable or refused. It runs on the
 * store's committer thread (or on the caller's, before move_append_async
 * returns): it must be quick and must not call the store. */
typedef void (*db_append_done)(void *arg, enum cairn_status st);

/* A running listener: the backend's own (db_listen_start). */
struct db_listener;

/* What a backend counted since it opened (db_stats). */
struct db_stats {
  long commits;          /* durable transactions that appended moves */
  long appends;          /* moves they appended */
  double commit_seconds; /* time spent in those COMMITs: the fsync, mostly */
};

/* The lobby (issue 25): one page of the open games (seats to take) or the
 * active ones (to watch), newest first, narrowed by what a player looking
 * for a game asks. Everything is borrowed for the call. */
#define DB_CLOCK_ANY  0 /* any time control, or none */
#define DB_CLOCK_NONE 1 /* no time control */
#define DB_CLOCK_MOVE 2 /* a per-move control (move_ms) */
#define DB_CLOCK_PACE 3 /* a pace control (base_ms) */
/* The archive (issue 25): one page of the finished games a player held a
 * seat in, most recently finished first. Everything is borrowed. */
struct db_archive_query {
  const char *player_id; /* whose games */
  const char *title;     /* a title's id, NULL for every title */
  const char *opponent;  /* only games another seat of which this player held, NULL for any */
  /* The page starts strictly after (after_ms, after_id) in the order
   * (updated_ms, id) descending; a finished game's updated_ms is its last
   * change, which never moves again. after_id NULL: the first page. */
  int64_t after_ms;
  const char *after_id;
  int limit; /* at most this many games, 1 or more */
};

/* The invitations a listing shows at most (invitations_of): a player
 * cannot be made to page through what others piled on them. */
#define DB_INVITATIONS_MAX      100
#define DB_INVITATIONS_MAX_TEXT "100"

struct db_lobby_query {
  const char *status; /* DB_STATUS_OPEN or DB_STATUS_ACTIVE */
  const char *title;  /* a title's id, NULL for every title */
  int seats;          /* games of this many seats, 0 for any */
  int clock;          /* DB_CLOCK_* */
  /* The page starts strictly after the game (after_ms, after_id) in the
   * order (created_ms, id) descending: the last game of the previous page,
   * which may have left the listing since. after_id NULL: the first page. */
  int64_t after_ms;
  const char *after_id;
  int limit; /* at most this many games, 1 or more */
};

/* A backend's methods: one const table per backend. Each slot receives the
 * backend's own state (`ctx`) first; its contract is beside it, and the
 * db_* function of the same name (below) is the only way to call it. */
struct db_methods {
  const char *name; /* the backend, for logs: "sqlite" */

  /* Close and free the backend (ctx). */
  void (*close)(void *ctx);

  /* Insert a player. `token_hash` is a hash of the bearer token; the token
   * itself is never stored. */
  enum cairn_status (*player_create)(void *ctx, const struct db_player *player,
                                     const uint8_t token_hash[DB_HASH_BYTES],
                                     struct cairn_error *err);

  /* Find the player whose token hashes to `token_hash`: the one it was
   * created with (player_create, or the last tokens_replace) or a further
   * one (token_add). CAIRN_ENOTFOUND if none. */
  enum cairn_status (*player_by_token)(void *ctx, const uint8_t token_hash[DB_HASH_BYTES],
                                       struct db_player *out, struct cairn_error *err);

  /* Insert a new game row (seq 0, no moves) and, in the same transaction,
   * seat every player named in game->seat_player (those players must
   * exist: CAIRN_ENOTFOUND otherwise, and nothing is stored). The status is
   * open, or active when that filled every seat. The API seats its bots
   * this way, so a game never exists half-seated. */
  enum cairn_status (*game_create)(void *ctx, const struct db_game *game, struct cairn_error *err);

  /* Load a game row and its seats. On success *out is filled and the caller
   * releases it with db_game_clear(). CAIRN_ENOTFOUND if no such game. */
  enum cairn_status (*game_load)(void *ctx, const char *game_id, struct db_game *out,
                                 struct cairn_error *err);

  /* Seat join->player_id in join->seat of an open game, in one
   * transaction. If this fills the last empty seat the status becomes
   * active, and the start's bookkeeping (updated_ms = join->at_ms), the
   * first clocks and the webhook deliveries the join owes are written, all
   * in the same transaction: a join that starts a game is stored whole or
   * not at all. CAIRN_ECONFLICT with code seat-taken if the seat is taken,
   * already-seated if the player holds another seat of this game,
   * game-not-open if the game is not open; CAIRN_ESTALE stale-seq if the
   * join would not do what join->expect says. Nothing is written on any
   * failure. Returns only after the transaction is durable. */
  enum cairn_status (*seat_take)(void *ctx, const char *game_id, const struct db_join *join,
                                 struct cairn_error *err);

  /* Append one move in one transaction: insert the log row and update the
   * game's seq, move count, status and result. `move->ord` must equal the
   * game's current move count, otherwise nothing is written and the result
   * is CAIRN_ESTALE (another writer got there first). `result_json` is NULL
   * while the game runs; non-NULL sets status finished. The move's clocks
   * and the webhook deliveries it owes (move->outbox), if any, and the
   * seat's resignation (move->resigns), are saved in the same transaction.
   * Returns only after the transaction is durable. */
  enum cairn_status (*move_append)(void *ctx, const char *game_id, struct db_move *move,
                                   const char *result_json, struct cairn_error *err);

  /* move_append without waiting for the fsync: queue the append and return
   * at once; `done(arg, st)` is called exactly once with the verdict
   * move_append would have returned (*err and move->hash filled as it
   * fills them), after the row is durable or refused. Everything passed
   * must stay valid until then. This is what lets a server thread serve
   * other requests while a move's group commit is on disk (issue 22).
   * Optional (NULL: db_move_append_async runs move_append and calls `done`
   * before returning). */
  void (*move_append_async)(void *ctx, const char *game_id, struct db_move *move,
                            const char *result_json, struct cairn_error *err, db_append_done done,
                            void *arg);

  /* Write a copy of the whole store, consistent at one moment, to the new
   * file `path` (absent or empty), while every other slot keeps serving:
   * an online backup, which db_open opens as a store of this backend.
   * Optional (NULL: db_backup_to answers CAIRN_ENOTFOUND: this backend is
   * backed up with its own tools). */
  enum cairn_status (*backup_to)(void *ctx, const char *path, struct cairn_error *err);

  /* Fill `out` with what the backend counted since it opened, for GET
   * /metrics. Optional (NULL: all zero). */
  void (*stats)(void *ctx, struct db_stats *out);

  /* Call `cb` for every log row of the game with ord >= from_ord, in order. */
  enum cairn_status (*moves_load)(void *ctx, const char *game_id, uint32_t from_ord, db_move_cb cb,
                                  void *arg, struct cairn_error *err);

  /* moves_load for a replay, which reads of a row only its ord, seq, seat
   * and move_json: the rows come without the rest (events_json NULL, at_ms
   * 0, has_hash false), so a backend need not read or copy the events,
   * which are most of a row's bytes (issue 22). Optional: a backend
   * without it (NULL) serves db_moves_load_lean with moves_load. */
  enum cairn_status (*moves_load_lean)(void *ctx, const char *game_id, uint32_t from_ord,
                                       db_move_cb cb, void *arg, struct cairn_error *err);

  /* Store a whole game in one transaction, or nothing: the game row (its
   * creation fields; status, seq, move count and result follow from the
   * moves and `game->result_json`), players[i] for each seat i whose
   * players[i].id is not "" (created with token_hashes[i] unless a player
   * with that id exists already, whose stored name then wins), the seats,
   * and the `moves` in order, each chained as move_append would. The caller
   * has checked the record. CAIRN_ECONFLICT code game-exists if the id is
   * taken. Version 5: when game->imported is set no player is created or
   * looked up and no seat row is written; each seat keeps players[i]'s name
   * and claimed id as plain text (with game->signer and signature), so the
   * game belongs to nobody here. */
  enum cairn_status (*game_import)(void *ctx, const struct db_game *game,
                                   const struct db_player *players,
                                   const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                   const struct db_move *moves, size_t n_moves,
                                   struct cairn_error *err);

  /* Call `cb` with the id of every game in which `player_id` holds a seat,
   * and that seat. Ids are read up front, so `cb` may call other slots. */
  enum cairn_status (*player_games)(void *ctx, const char *player_id, db_game_seat_cb cb, void *arg,
                                    struct cairn_error *err);

  /* How many games `creator` created that are not finished (nor
   * cancelled). */
  enum cairn_status (*games_unfinished_by)(void *ctx, const char *creator, int *count,
                                           struct cairn_error *err);

  /* Set the game's updated_ms (its clock's start) to `at_ms`. */
  enum cairn_status (*game_touch)(void *ctx, const char *game_id, int64_t at_ms,
                                  struct cairn_error *err);

  /* Call `cb` with every active game in which a seat's clock has a
   * deadline at or before `now_ms`. Ids are read up front. */
  enum cairn_status (*games_overdue)(void *ctx, int64_t now_ms, db_game_id_cb cb, void *arg,
                                     struct cairn_error *err);

  /* The clocks of `game_id` into out[] (at most ENGINE_MAX_SEATS), their
   * number in *n; none for a game without them yet. */
  enum cairn_status (*clocks_load)(void *ctx, const char *game_id, struct db_clock *out, int *n,
                                   struct cairn_error *err);

  /* Replace the clocks of `game_id` with clocks[0..n). */
  enum cairn_status (*clocks_save)(void *ctx, const char *game_id, const struct db_clock *clocks,
                                   int n, struct cairn_error *err);

  enum cairn_status (*vacation_add)(void *ctx, const char *player_id, const struct db_vacation *v,
                                    struct cairn_error *err);

  /* Vacations of `player_id` that end after `from_ms`, by start, into
   * out[0..max); their number in *n. */
  enum cairn_status (*vacations_of)(void *ctx, const char *player_id, int64_t from_ms,
                                    struct db_vacation *out, int max, int *n,
                                    struct cairn_error *err);

  enum cairn_status (*webhook_create)(void *ctx, const struct db_webhook *hook,
                                      struct cairn_error *err);

  /* The webhooks `owner` registered, oldest first. */
  enum cairn_status (*webhooks_of_owner)(void *ctx, const char *owner, db_webhook_cb cb, void *arg,
                                         struct cairn_error *err);

  /* The webhooks that follow `game_id`: those registered for it, and the
   * game-less ones of the players seated in it. */
  enum cairn_status (*webhooks_of_game)(void *ctx, const char *game_id, db_webhook_cb cb, void *arg,
                                        struct cairn_error *err);

  /* Delete `id` if `owner` owns it (CAIRN_ENOTFOUND otherwise), with its
   * delivery log. */
  enum cairn_status (*webhook_delete)(void *ctx, const char *id, const char *owner,
                                      struct cairn_error *err);

  enum cairn_status (*delivery_record)(void *ctx, const struct db_delivery *delivery,
                                       struct cairn_error *err);

  /* The newest `limit` deliveries of `webhook_id`, newest first. */
  enum cairn_status (*deliveries_of)(void *ctx, const char *webhook_id, int limit,
                                     db_delivery_cb cb, void *arg, struct cairn_error *err);

  /* Call `cb` with the id of every stored game, oldest first. The ids are
   * read up front, so `cb` may call other slots. */
  enum cairn_status (*games_each)(void *ctx, db_game_id_cb cb, void *arg, struct cairn_error *err);

  /* The same, for the active games only (status DB_STATUS_ACTIVE when
   * listed; `cb` re-reads under the game's lock). Served from an index, so
   * it costs what the active games cost, not what the archive holds. */
  enum cairn_status (*games_active_each)(void *ctx, db_game_id_cb cb, void *arg,
                                         struct cairn_error *err);

  /* Deliveries owed survive a restart: */

  /* Store `owed`, or move on the one with its delivery_id (attempt and
   * due_ms). CAIRN_ENOTFOUND if its webhook is gone. */
  enum cairn_status (*outbox_put)(void *ctx, const struct db_outbox *owed, struct cairn_error *err);

  /* Forget `delivery_id`: delivered or given up. Not finding it is fine. */
  enum cairn_status (*outbox_remove)(void *ctx, const char *delivery_id, struct cairn_error *err);

  /* Every owed delivery whose webhook still exists, soonest due first.
   * (Deleting a webhook deletes what it was owed.) */
  enum cairn_status (*outbox_each)(void *ctx, db_outbox_cb cb, void *arg, struct cairn_error *err);

  /* One player on several devices (issue 24). Tokens and codes are seen
   * only as hashes. */

  /* Give `player_id` a further token, beside those it holds (a device
   * signed in with a code). CAIRN_ENOTFOUND if no such player. */
  enum cairn_status (*token_add)(void *ctx, const char *player_id,
                                 const uint8_t token_hash[DB_HASH_BYTES], int64_t at_ms,
                                 struct cairn_error *err);

  /* Make `token_hash` the only token of `player_id`, in one transaction:
   * every other one stops naming it at once (a backend caching players by
   * token forgets them), and its sign-in code, if any, is dropped.
   * CAIRN_ENOTFOUND if no such player. */
  enum cairn_status (*tokens_replace)(void *ctx, const char *player_id,
                                      const uint8_t token_hash[DB_HASH_BYTES],
                                      struct cairn_error *err);

  /* Store `code_hash` as the sign-in code of `player_id` until
   * `expires_ms`, replacing the code it had, if any (one per player).
   * CAIRN_ENOTFOUND if no such player. */
  enum cairn_status (*sign_in_code_put)(void *ctx, const char *player_id,
                                        const uint8_t code_hash[DB_HASH_BYTES], int64_t expires_ms,
                                        struct cairn_error *err);

  /* Use a code: when `code_hash` is a stored code that has not expired at
   * `now_ms`, delete it and fill *out with its player. CAIRN_ENOTFOUND
   * otherwise (never stored, used already, or expired: an expired one is
   * deleted too). Of two takers of one code, exactly one gets it. */
  enum cairn_status (*sign_in_code_take)(void *ctx, const uint8_t code_hash[DB_HASH_BYTES],
                                         int64_t now_ms, struct db_player *out,
                                         struct cairn_error *err);

  /* Start hearing of the changes that other processes sharing the store
   * (other nodes on one PostgreSQL database) commit to games: `cb(arg, ...)`
   * is called on a thread of the backend's own, once per change in commit
   * order, until listen_stop (see db_change_cb). A change this store
   * itself committed is not heard: its caller has announced it. On success
   * *out is the caller's, ended with listen_stop. Optional: NULL for a
   * store that one process owns (SQLite), where there is nobody else. */
  enum cairn_status (*listen_start)(void *ctx, db_change_cb cb, void *arg, struct db_listener **out,
                                    struct cairn_error *err);
  /* Stop the thread listen_start began (it returns from any `cb` first)
   * and free `listener`. */
  void (*listen_stop)(void *ctx, struct db_listener *listener);

  /* Work shared by several nodes on one store (issue 23). An owed
   * delivery is sent by the node holding its lease (db_outbox.claimed_by,
   * claimed_until: real time, so nodes' clocks must agree to well within a
   * lease). A node writes the rows a change owes claimed by itself, renews
   * what it holds well before the lease runs out, releases it when it
   * stops, and claims what nobody holds: so a delivery is attempted by one
   * node at a time while its holder lives, and a dead node's by another
   * once the lease ran out. Sending stays at least once: a node that dies
   * after the receiver's answer and before outbox_remove leaves the row to
   * be sent again, under the same delivery_id. */

  /* Claim for `node` at most `max` owed deliveries whose lease ran out by
   * `now_ms` (claimed_until <= now_ms: never claimed, released, or held by
   * a node that stopped renewing), soonest due first: each is given
   * claimed_by `node` and claimed_until `until_ms` in one transaction, and
   * two claimers, of one node or two, never get the same row (PostgreSQL:
   * FOR UPDATE SKIP LOCKED, so claimers do not wait on each other). Then,
   * after the commit, `cb` is called with each claimed row and its webhook;
   * *n is their number. */
  enum cairn_status (*outbox_claim)(void *ctx, const char *node, int64_t now_ms, int64_t until_ms,
                                    int max, db_outbox_cb cb, void *arg, int *n,
                                    struct cairn_error *err);

  /* Extend to `until_ms` the lease of every row `node` holds. */
  enum cairn_status (*outbox_renew)(void *ctx, const char *node, int64_t until_ms,
                                    struct cairn_error *err);

  /* Release every row `node` holds (claimed_by "", claimed_until 0), so
   * any node may claim it at once: a node stopping. */
  enum cairn_status (*outbox_release)(void *ctx, const char *node, struct cairn_error *err);

  /* Call `cb` with every active game that has a seat the server plays (a
   * bot's, or a resigned one) and whose updated_ms (the last change) is in
   * [from_ms, to_ms). The sweep of game/bots.c (game_bots_sweep) lists by
   * it the games whose last change is older than a grace period and
   * plays any server seat that owes a decision: the bots of a node that
   * died between a change and its bots' reply. Served from the active
   * games (the games_active index), so a sweep costs what the active games
   * cost, with no replay of a game whose last change is outside the
   * window. Ids are read up front. */
  enum cairn_status (*games_bots_idle)(void *ctx, int64_t from_ms, int64_t to_ms, db_game_id_cb cb,
                                       void *arg, struct cairn_error *err);

  /* The webhook `id` into *out (its secret too), whoever owns it;
   * CAIRN_ENOTFOUND when there is none. */
  enum cairn_status (*webhook_get)(void *ctx, const char *id, struct db_webhook *out,
                                   struct cairn_error *err);
  /* Per-player mentions (issue 24). mention_put sets the player's handle
   * for the webhook, replacing any; with handle "" it removes it
   * (CAIRN_ENOTFOUND when there was none). CAIRN_ENOTFOUND too when the
   * webhook is gone; deleting a webhook deletes its mentions. */
  enum cairn_status (*mention_put)(void *ctx, const struct db_mention *mention,
                                   struct cairn_error *err);
  /* The mentions registered for `webhook_id`, by player id. */
  enum cairn_status (*mentions_of)(void *ctx, const char *webhook_id, db_mention_cb cb, void *arg,
                                   struct cairn_error *err);
  /* The lobby (issue 25): call `cb` with the id of each game `query`
   * selects, at most query->limit, in its order (created_ms, id)
   * descending; ids are read up front, so `cb` may call other slots. A
   * game's creation fields never change, so a page boundary stays put
   * while games come and go: paging never shows one game twice. Served
   * from a partial index of the status listed (games_open, games_active). */
  enum cairn_status (*games_lobby)(void *ctx, const struct db_lobby_query *query, db_game_id_cb cb,
                                   void *arg, struct cairn_error *err);

  /* Invitations (issue 25): a seat of an open game kept for a named player
   * (db_game.seat_invited, stored by game_create). seat_take refuses
   * anyone else that seat (CAIRN_ECONFLICT seat-reserved, checked in its
   * transaction) and, seating a player, deletes that player's invitation
   * to the game in the same transaction. */

  /* Call `cb` with each open game `player_id` is invited to and the seat
   * kept for them, at most DB_INVITATIONS_MAX, by game id. Read up front,
   * so `cb` may call other slots. */
  enum cairn_status (*invitations_of)(void *ctx, const char *player_id, db_game_seat_cb cb,
                                      void *arg, struct cairn_error *err);

  /* Delete `player_id`'s invitation to `game_id`, while the game is open:
   * the seat is free for anyone from then on. CAIRN_ENOTFOUND if there is
   * none (never invited, declined already, seated, or the game is no
   * longer open). */
  enum cairn_status (*invitation_decline)(void *ctx, const char *game_id, const char *player_id,
                                          struct cairn_error *err);

  /* The archive (issue 25): call `cb` with each finished game `query`
   * selects and the seat query->player_id held in it, at most
   * query->limit, in the order (updated_ms, id) descending. Ids are read
   * up front, so `cb` may call other slots. */
  enum cairn_status (*games_archive)(void *ctx, const struct db_archive_query *query,
                                     db_game_seat_cb cb, void *arg, struct cairn_error *err);

  /* Cancel the open game `game_id` (issue 25): status cancelled,
   * updated_ms `at_ms`, its invitations deleted, in one transaction; its
   * seats stay as they were. CAIRN_ECONFLICT game-not-open when it is not
   * open (nothing written), CAIRN_ENOTFOUND when there is no such game. */
  enum cairn_status (*game_cancel)(void *ctx, const char *game_id, int64_t at_ms,
                                   struct cairn_error *err);

  /* ---- chat (issue 25) ---- */

  /* Store `msg` (id, game_id, channel, author, author_name, text, at_ms
   * given) as the next message of its game's channel, writing its number
   * into msg->n, and in the same transaction owed[0..n_owed) (the
   * webhook deliveries it calls for, outbox_put's rows; a row for a
   * webhook deleted meanwhile is skipped). CAIRN_ENOTFOUND when the game
   * does not exist. */
  enum cairn_status (*chat_post)(void *ctx, struct db_chat *msg, const struct db_outbox *owed,
                                 int n_owed, struct cairn_error *err);

  /* Call `cb` with the messages of `game_id`'s `channel` numbered after
   * `after`, in order, at most `limit` of them (tombstones included).
   * Rows are read up front. */
  enum cairn_status (*chat_list)(void *ctx, const char *game_id, int channel, uint32_t after,
                                 int limit, db_chat_cb cb, void *arg, struct cairn_error *err);

  /* Load message `id` into *out. CAIRN_ENOTFOUND if none. */
  enum cairn_status (*chat_get)(void *ctx, const char *id, struct db_chat *out,
                                struct cairn_error *err);

  /* Make message `id` of `author` a tombstone (text "", deleted_ms
   * `at_ms`), once: CAIRN_ENOTFOUND when no message of that author has
   * that id, CAIRN_ECONFLICT when it was deleted already. */
  enum cairn_status (*chat_delete)(void *ctx, const char *id, const char *author, int64_t at_ms,
                                   struct cairn_error *err);

  /* ---- ratings (issue 25) ---- */

  /* Call `cb` with every rating of `player` (one per title rated in),
   * by title. */
  enum cairn_status (*ratings_of)(void *ctx, const char *player, db_rating_cb cb, void *arg,
                                  struct cairn_error *err);
  /* Call `cb` with `title`'s ratings of players (not scenarios) by
   * ordinal, highest first (ties by party), skipping `offset`, at most
   * `limit`. */
  enum cairn_status (*leaderboard)(void *ctx, const char *title, int offset, int limit,
                                   db_rating_cb cb, void *arg, struct cairn_error *err);
  /* Call `cb` with every stored rating, by title and party. */
  enum cairn_status (*ratings_each)(void *ctx, db_rating_cb cb, void *arg, struct cairn_error *err);
  /* Load player `id` (its id and name). CAIRN_ENOTFOUND if none. */
  enum cairn_status (*player_get)(void *ctx, const char *id, struct db_player *out,
                                  struct cairn_error *err);
  /* Call `cb` with the id of every rated game in the order their ends
   * committed. */
  enum cairn_status (*rated_games_each)(void *ctx, db_game_id_cb cb, void *arg,
                                        struct cairn_error *err);
};

/* An open store: a backend's const methods and its state. Made by db_open,
 * released by db_close; tests may point one at a method table of their own
 * (a fake log, a failing disk). Call it only through the db_* functions. */
struct db {
  const struct db_methods *methods;
  void *ctx; /* the backend's own state, handed to every method */
};

/* Open the store named by `url` and apply its pending migrations:
 *   "sqlite:PATH", "sqlite://PATH" or a plain PATH: the embedded SQLite
 *   backend on that file (created if missing; ":memory:" for a store that
 *   lives as long as the process).
 *   "postgres://..." or "postgresql://...": the PostgreSQL backend, the URL
 *   as libpq reads it (db/postgres/); a server it cannot reach is CAIRN_EDB.
 * A URL of another scheme is CAIRN_EINVAL code bad-value, naming it. On
 * success *out is the caller's, released with db_close. */
enum cairn_status db_open(const char *url, struct db **out, struct cairn_error *err);

/* The file the store named by `url` lives in, written to out[size]: the
 * server keeps its own files (the signing key) beside it and makes them
 * private. False, with out empty, for a store that is not a local file
 * (":memory:", or a database server). */
bool db_local_file(const char *url, char *out, size_t size);

/* What db_copy_store copied: rows[i] of table[i], in the order copied. */
#define DB_COPY_TABLES 17
struct db_copy_counts {
  const char *table[DB_COPY_TABLES]; /* static names */
  long rows[DB_COPY_TABLES];
};

/* Copy every row of the SQLite store `from_url` (a file; no server may be
 * running on it) into the PostgreSQL database `to_url`, which must hold no
 * player and no game: ids, token hashes, seeds, log rows and their chain
 * hashes, seats, clocks, vacations, webhooks with their secrets and
 * deliveries, the deliveries still owed, players' further tokens and
 * sign-in codes, the invitations still open, chat messages, ratings (their
 * doubles exact) and the rated games' end order, as stored (db/copy.c). Each
 * store's migrations are applied first. All or nothing: on failure the
 * target is left as it was. CAIRN_EINVAL for a source that is not an
 * SQLite file or a target that is not PostgreSQL, CAIRN_ECONFLICT when the
 * target is not empty, CAIRN_EDB when storage fails. */
enum cairn_status db_copy_store(const char *from_url, const char *to_url,
                                struct db_copy_counts *out, struct cairn_error *err);

/* Close the store and free it. Accepts NULL. */
void db_close(struct db *db);

/* Each calls the method of the same name: see its contract above. */
enum cairn_status db_player_create(struct db *db, const struct db_player *player,
                                   const uint8_t token_hash[DB_HASH_BYTES],
                                   struct cairn_error *err);
enum cairn_status db_player_by_token(struct db *db, const uint8_t token_hash[DB_HASH_BYTES],
                                     struct db_player *out, struct cairn_error *err);
enum cairn_status db_game_create(struct db *db, const struct db_game *game,
                                 struct cairn_error *err);
enum cairn_status db_game_load(struct db *db, const char *game_id, struct db_game *out,
                               struct cairn_error *err);
enum cairn_status db_seat_join(struct db *db, const char *game_id, const struct db_join *join,
                               struct cairn_error *err);
/* db_seat_join of a bare join: `player_id` in `seat`, no expectation, nothing
 * else written. */
enum cairn_status db_seat_take(struct db *db, const char *game_id, int seat, const char *player_id,
                               struct cairn_error *err);
enum cairn_status db_move_append(struct db *db, const char *game_id, struct db_move *move,
                                 const char *result_json, struct cairn_error *err);
/* The move_append_async slot (see it), on every backend. */
void db_move_append_async(struct db *db, const char *game_id, struct db_move *move,
                          const char *result_json, struct cairn_error *err, db_append_done done,
                          void *arg);
/* Whether appends on this backend are queued without a waiting thread
 * (move_append_async is the backend's own), so the server can serve
 * with few threads. */
bool db_appends_queue(const struct db *db);
/* The backup_to slot (see it). */
enum cairn_status db_backup_to(struct db *db, const char *path, struct cairn_error *err);
/* The stats slot (see it); all zero for a backend without it. */
void db_stats(struct db *db, struct db_stats *out);
enum cairn_status db_moves_load(struct db *db, const char *game_id, uint32_t from_ord,
                                db_move_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_moves_load_lean(struct db *db, const char *game_id, uint32_t from_ord,
                                     db_move_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_game_import(struct db *db, const struct db_game *game,
                                 const struct db_player *players,
                                 const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                 const struct db_move *moves, size_t n_moves,
                                 struct cairn_error *err);
enum cairn_status db_player_games(struct db *db, const char *player_id, db_game_seat_cb cb,
                                  void *arg, struct cairn_error *err);
enum cairn_status db_games_unfinished_by(struct db *db, const char *creator, int *count,
                                         struct cairn_error *err);
enum cairn_status db_game_touch(struct db *db, const char *game_id, int64_t at_ms,
                                struct cairn_error *err);
enum cairn_status db_games_overdue(struct db *db, int64_t now_ms, db_game_id_cb cb, void *arg,
                                   struct cairn_error *err);
enum cairn_status db_clocks_load(struct db *db, const char *game_id, struct db_clock *out, int *n,
                                 struct cairn_error *err);
enum cairn_status db_clocks_save(struct db *db, const char *game_id, const struct db_clock *clocks,
                                 int n, struct cairn_error *err);
enum cairn_status db_vacation_add(struct db *db, const char *player_id, const struct db_vacation *v,
                                  struct cairn_error *err);
enum cairn_status db_vacations_of(struct db *db, const char *player_id, int64_t from_ms,
                                  struct db_vacation *out, int max, int *n,
                                  struct cairn_error *err);
enum cairn_status db_webhook_create(struct db *db, const struct db_webhook *hook,
                                    struct cairn_error *err);
enum cairn_status db_webhooks_of_owner(struct db *db, const char *owner, db_webhook_cb cb,
                                       void *arg, struct cairn_error *err);
enum cairn_status db_webhooks_of_game(struct db *db, const char *game_id, db_webhook_cb cb,
                                      void *arg, struct cairn_error *err);
enum cairn_status db_webhook_delete(struct db *db, const char *id, const char *owner,
                                    struct cairn_error *err);
enum cairn_status db_delivery_record(struct db *db, const struct db_delivery *delivery,
                                     struct cairn_error *err);
enum cairn_status db_deliveries_of(struct db *db, const char *webhook_id, int limit,
                                   db_delivery_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_games_each(struct db *db, db_game_id_cb cb, void *arg,
                                struct cairn_error *err);
enum cairn_status db_games_active_each(struct db *db, db_game_id_cb cb, void *arg,
                                       struct cairn_error *err);
enum cairn_status db_outbox_put(struct db *db, const struct db_outbox *owed,
                                struct cairn_error *err);
enum cairn_status db_outbox_remove(struct db *db, const char *delivery_id, struct cairn_error *err);
enum cairn_status db_token_add(struct db *db, const char *player_id,
                               const uint8_t token_hash[DB_HASH_BYTES], int64_t at_ms,
                               struct cairn_error *err);
enum cairn_status db_tokens_replace(struct db *db, const char *player_id,
                                    const uint8_t token_hash[DB_HASH_BYTES],
                                    struct cairn_error *err);
enum cairn_status db_sign_in_code_put(struct db *db, const char *player_id,
                                      const uint8_t code_hash[DB_HASH_BYTES], int64_t expires_ms,
                                      struct cairn_error *err);
enum cairn_status db_sign_in_code_take(struct db *db, const uint8_t code_hash[DB_HASH_BYTES],
                                       int64_t now_ms, struct db_player *out,
                                       struct cairn_error *err);
enum cairn_status db_outbox_each(struct db *db, db_outbox_cb cb, void *arg,
                                 struct cairn_error *err);
/* The listen_start slot (see it). CAIRN_OK with *out NULL for a backend
 * without one: nothing to hear. */
enum cairn_status db_listen_start(struct db *db, db_change_cb cb, void *arg,
                                  struct db_listener **out, struct cairn_error *err);
/* The listen_stop slot. Accepts NULL. */
void db_listen_stop(struct db *db, struct db_listener *listener);

enum cairn_status db_outbox_claim(struct db *db, const char *node, int64_t now_ms, int64_t until_ms,
                                  int max, db_outbox_cb cb, void *arg, int *n,
                                  struct cairn_error *err);
enum cairn_status db_outbox_renew(struct db *db, const char *node, int64_t until_ms,
                                  struct cairn_error *err);
enum cairn_status db_outbox_release(struct db *db, const char *node, struct cairn_error *err);
enum cairn_status db_games_bots_idle(struct db *db, int64_t from_ms, int64_t to_ms,
                                     db_game_id_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_webhook_get(struct db *db, const char *id, struct db_webhook *out,
                                 struct cairn_error *err);
enum cairn_status db_mention_put(struct db *db, const struct db_mention *mention,
                                 struct cairn_error *err);
enum cairn_status db_mentions_of(struct db *db, const char *webhook_id, db_mention_cb cb, void *arg,
                                 struct cairn_error *err);
enum cairn_status db_games_lobby(struct db *db, const struct db_lobby_query *query,
                                 db_game_id_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_invitations_of(struct db *db, const char *player_id, db_game_seat_cb cb,
                                    void *arg, struct cairn_error *err);
enum cairn_status db_invitation_decline(struct db *db, const char *game_id, const char *player_id,
                                        struct cairn_error *err);
enum cairn_status db_games_archive(struct db *db, const struct db_archive_query *query,
                                   db_game_seat_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_game_cancel(struct db *db, const char *game_id, int64_t at_ms,
                                 struct cairn_error *err);

/* The chat slots (see them). */
enum cairn_status db_chat_post(struct db *db, struct db_chat *msg, const struct db_outbox *owed,
                               int n_owed, struct cairn_error *err);
enum cairn_status db_chat_list(struct db *db, const char *game_id, int channel, uint32_t after,
                               int limit, db_chat_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_chat_get(struct db *db, const char *id, struct db_chat *out,
                              struct cairn_error *err);
enum cairn_status db_chat_delete(struct db *db, const char *id, const char *author, int64_t at_ms,
                                 struct cairn_error *err);

/* The ratings slots (see them). */
enum cairn_status db_ratings_of(struct db *db, const char *player, db_rating_cb cb, void *arg,
                                struct cairn_error *err);
enum cairn_status db_leaderboard(struct db *db, const char *title, int offset, int limit,
                                 db_rating_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_ratings_each(struct db *db, db_rating_cb cb, void *arg,
                                  struct cairn_error *err);
enum cairn_status db_rated_games_each(struct db *db, db_game_id_cb cb, void *arg,
                                      struct cairn_error *err);
enum cairn_status db_player_get(struct db *db, const char *id, struct db_player *out,
                                struct cairn_error *err);

/* What one game's chain is computed under (chain.c has the bytes). */
struct db_chain {
  int format;                 /* DB_CHAIN_FORMAT_* */
  const char *game_id;        /* borrowed */
  bool has_key;               /* format 2 with the seed known */
  uint8_t key[DB_HASH_BYTES]; /* format 2: the commitment key K */
};

/* Set up the chain of `game_id` in `format`. Format 2 derives its key from
 * `seed`; without the seed (NULL: a live game seen from outside) its rows
 * cannot be hashed, and has_key stays false. */
void db_chain_init(struct db_chain *chain, int format, const char *game_id,
                   const uint8_t seed[ENGINE_SEED_BYTES]);

/* The hash of row `move` after a row hashed `prev` (all zero for ord 0).
 * Covers the game id and every field of `move` except its own hash, so no
 * row can be edited, dropped or moved without breaking the chain from there
 * on. Format 2 needs has_key. */
void db_chain_hash(const struct db_chain *chain, const uint8_t prev[DB_HASH_BYTES],
                   const struct db_move *move, uint8_t out[DB_HASH_BYTES]);

/* Format 2's commitment to `text` under `label` ("move" or "events"). */
void db_chain_commit(const struct db_chain *chain, const char *label, const char *text,
                     uint8_t out[DB_HASH_BYTES]);

/* Release what a game row owns (options_json, result_json) and zero it.
 * Accepts a zeroed struct. */
void db_game_clear(struct db_game *game);

/* FNV-1a of an id: where a cache or a lock stripe keeps it. Ids are random
 * already, so any spread will do. */
uint32_t db_id_hash(const char *id);

#endif
