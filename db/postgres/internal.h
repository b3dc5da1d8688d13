/*
 * internal.h - what the files of the PostgreSQL backend share: the context
 * behind struct db's ctx, its pool of connections, and the plumbing every
 * query file uses. Nothing here is visible outside db/postgres/.
 *
 * A PGconn is not thread-safe, and a transaction is a sequence of
 * statements on one connection, so each slot borrows a connection from the
 * pool for its whole work (db_pg_acquire) and hands it back before any
 * callback of the caller's runs (rows are copied out first), so a callback
 * may call another slot without waiting on itself. The pool opens
 * connections as they are asked for, up to DB_PG_POOL_MAX, and a borrower
 * finding none free waits for one.
 *
 * Unlike SQLite, the database is a server that other processes (other
 * Cairn nodes) write to at the same time, so nothing is cached here and
 * every check that guards a write runs inside the writing transaction
 * under a row lock on the game (SELECT ... FOR UPDATE): two writers racing
 * the same ord or the same seat, in one process or in two, give exactly
 * one winner.
 *
 * Every statement is sent with PQexecParams, its values as parameters:
 * no value is ever pasted into SQL text.
 */
#ifndef DB_POSTGRES_INTERNAL_H
#define DB_POSTGRES_INTERNAL_H

#include <libpq-fe.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../backends.h"
#include "../db.h"
#include "migrations.h"

/* Connections one store may hold open. A slot holds one for the length of
 * a transaction; a busy server's request threads beyond this wait their
 * turn, which bounds what one node asks of the database server
 * (max_connections is 100 by default, shared by every node). */
#define DB_PG_POOL_MAX 8

/* The key of the advisory lock migrations are applied under: any fixed
 * number works, as long as every Cairn node uses the same one ("cairn" in
 * ASCII). */
#define DB_PG_MIGRATION_LOCK 0x636169726eLL

/* A node's name on the database: 16 hex digits drawn at open, set as
 * cairn.node on every connection it opens, which the notification
 * triggers (migrations/postgres/0002_notify.sql) copy into their payload,
 * so a node knows its own changes when it hears them (listen.c). */
#define DB_PG_NODE_HEX 16

/* The channel those triggers notify on. */
#define DB_PG_CHANNEL "cairn_games"

/* The backend behind struct db's ctx: made by db_postgres_open, freed by
 * its close method. */
struct db_pg {
  char node[DB_PG_NODE_HEX + 1]; /* this store's cairn.node */
  char *conninfo;                /* owned: the libpq URL every connection opens */
  pthread_mutex_t lock;          /* guards the fields below */
  pthread_cond_t freed;          /* signalled when a connection comes back */
  PGconn *idle[DB_PG_POOL_MAX];
  int n_idle;
  int n_open; /* idle ones and those lent out */
};

/* ---- conn.c: the pool, statements, transactions, errors ---- */

/* Open the first connection to `conninfo`, to check it works; *out is the
 * caller's (PQfinish). CAIRN_EDB when the server cannot be reached. */
enum cairn_status db_pg_connect(const char *conninfo, PGconn **out, struct cairn_error *err);

/* Borrow a connection: an idle one (reset first if it broke), a new one,
 * or the next one handed back. Return it with db_pg_release. */
enum cairn_status db_pg_acquire(struct db_pg *c, PGconn **out, struct cairn_error *err);
/* Hand `conn` back (NULL is fine). One left inside a transaction (a slot
 * failing between BEGIN and COMMIT) is rolled back first; a broken one is
 * closed, and the next borrower opens another. */
void db_pg_release(struct db_pg *c, PGconn *conn);

/* A statement's parameters, in order ($1, $2, ...). Values are text
 * except bytes (binary); the buffers for numbers live here, so a struct
 * db_pg_params must outlive the statement it is bound to. */
#define DB_PG_PARAMS_MAX 20
struct db_pg_params {
  int n;
  const char *values[DB_PG_PARAMS_MAX]; /* borrowed, or into numbers[] */
  int lengths[DB_PG_PARAMS_MAX];
  int formats[DB_PG_PARAMS_MAX]; /* 0 text, 1 binary */
  char numbers[DB_PG_PARAMS_MAX][24];
};

void db_pg_text(struct db_pg_params *p, const char *text); /* NULL binds SQL NULL */
void db_pg_int(struct db_pg_params *p, int64_t value);
void db_pg_bytes(struct db_pg_params *p, const uint8_t *bytes, size_t n);

/* Run `sql` with `params` (NULL for none). On success *out holds the
 * result (PQclear it): rows for a query, none for a command. On failure
 * *out is NULL, PostgreSQL's message goes to the server log and the
 * status is CAIRN_EDB storage-unavailable (CAIRN_ENOMEM for memory),
 * `what` naming the operation; *sqlstate (when not NULL) gets the failure's
 * SQLSTATE ("" when the connection failed), for callers that map a
 * constraint to a verdict of their own (db_pg_is_unique, ...). */
enum cairn_status db_pg_exec(PGconn *conn, const char *sql, const struct db_pg_params *params,
                             PGresult **out, char sqlstate[6], const char *what,
                             struct cairn_error *err);
/* db_pg_exec for a statement whose rows (if any) are not wanted. */
enum cairn_status db_pg_run(PGconn *conn, const char *sql, const struct db_pg_params *params,
                            const char *what, struct cairn_error *err);

/* The classes of SQLSTATE a slot turns into a verdict of its own. */
#define DB_PG_UNIQUE_VIOLATION      "23505"
#define DB_PG_FOREIGN_KEY_VIOLATION "23503"
bool db_pg_state_is(const char sqlstate[6], const char *code);
/* Any integrity constraint (class 23): a unique, foreign key, check or not
 * null violation, or a trigger's refusal (raised as check_violation). */
bool db_pg_state_is_integrity(const char sqlstate[6]);

/* One read on a connection borrowed for it alone; *out as db_pg_exec's. */
enum cairn_status db_pg_read(struct db_pg *c, const char *sql, const struct db_pg_params *params,
                             PGresult **out, const char *what, struct cairn_error *err);

/* How db_pg_each_row reads row `i` of `res` into `row`. */
typedef enum cairn_status (*db_pg_row_reader)(const PGresult *res, int i, void *row,
                                              struct cairn_error *err);
/* What db_pg_each_row hands each row it read to, with its `arg`. */
typedef enum cairn_status (*db_pg_row_visitor)(void *arg, const void *row, struct cairn_error *err);
/* db_pg_read `sql` (while `what`), read every row with `read` into an
 * array of `row_size`-byte rows and release the result; only then hand
 * the rows in order to `visit` until one fails, so a visitor runs with no
 * connection or result held and may use the store itself. */
enum cairn_status db_pg_each_row(struct db_pg *c, const char *sql,
                                 const struct db_pg_params *params, const char *what,
                                 size_t row_size, db_pg_row_reader read, db_pg_row_visitor visit,
                                 void *arg, struct cairn_error *err);
/* One writing statement in a transaction of its own on a borrowed
 * connection: BEGIN, the statement, COMMIT. The BEGIN is what makes it
 * safe to retry on a fresh connection when the pooled one broke (conn.c);
 * the statement itself is never sent twice. *out (NULL: not wanted) and
 * *sqlstate as db_pg_exec's. Durable when it returns CAIRN_OK. */
enum cairn_status db_pg_write(struct db_pg *c, const char *sql, const struct db_pg_params *params,
                              PGresult **out, char sqlstate[6], const char *what,
                              struct cairn_error *err);

enum cairn_status db_pg_begin(PGconn *conn, struct cairn_error *err);
enum cairn_status db_pg_commit(PGconn *conn, struct cairn_error *err);
/* Roll back the open transaction, if any; failure is only logged. */
void db_pg_rollback(PGconn *conn);

/* Reading a result's text (every result is in text format). Each fails
 * with CAIRN_EDB and a log line naming `what` when the value is NULL or
 * does not fit, which the schema's checks make impossible. */
enum cairn_status db_pg_copy(const PGresult *res, int row, int col, char *buf, size_t size,
                             const char *what, struct cairn_error *err);
/* OUT, caller frees with free(): a copy of the text, or NULL for SQL NULL. */
enum cairn_status db_pg_dup(const PGresult *res, int row, int col, char **out, const char *what,
                            struct cairn_error *err);
/* The value as an integer; 0 for SQL NULL. */
int64_t db_pg_int64(const PGresult *res, int row, int col);
/* A boolean column: true for 't'. */
bool db_pg_bool(const PGresult *res, int row, int col);
/* A bytea column of exactly `n` bytes into out[n]: false (out untouched)
 * for SQL NULL or another length. */
bool db_pg_bytes_of(const PGresult *res, int row, int col, uint8_t *out, size_t n);

/* Take the row lock on game `game_id` for the open transaction and read
 * its status, seat count and move count (either pointer may be NULL).
 * CAIRN_ENOTFOUND if no such game. Every write that checks a game's state
 * takes this first, so checks and writes of two transactions never
 * interleave. */
enum cairn_status db_pg_lock_game(PGconn *conn, const char *game_id, char *status, size_t size,
                                  int *seats, uint32_t *moves, struct cairn_error *err);

/* ---- migrate.c ---- */

/* Bring the schema up to the last entry of `list` (ordered by number,
 * ended by number 0): each pending migration in its own transaction,
 * holding the advisory lock DB_PG_MIGRATION_LOCK and recording its number
 * in schema_version. Refuses (CAIRN_EDB) a database newer than `list`. */
enum cairn_status db_pg_migrate(PGconn *conn, const struct db_pg_migration *list,
                                struct cairn_error *err);

/* ---- statements shared by several slots (inside the caller's transaction) ---- */

enum cairn_status db_pg_insert_game(PGconn *conn, const struct db_game *game,
                                    struct cairn_error *err);
enum cairn_status db_pg_insert_seat(PGconn *conn, const char *game_id, int seat,
                                    const char *player_id, struct cairn_error *err);
/* Flip an open game to active once no seat is empty, with updated_ms
 * `at_ms` (0 keeps it). *started: it flipped. */
enum cairn_status db_pg_start_if_full(PGconn *conn, const char *game_id, int64_t at_ms,
                                      bool *started, struct cairn_error *err);
/* Upsert clocks[0..n) of game_id. */
enum cairn_status db_pg_write_clocks(PGconn *conn, const char *game_id,
                                     const struct db_clock *clocks, int n, struct cairn_error *err);
/* Insert owed[0..n) into the outbox, skipping rows whose webhook is gone. */
enum cairn_status db_pg_write_outbox(PGconn *conn, const struct db_outbox *owed, int n,
                                     struct cairn_error *err);
/* Insert log row `move` chained to the row before it; *hash gets its
 * chain hash. */
enum cairn_status db_pg_insert_move(PGconn *conn, const char *game_id, const struct db_move *move,
                                    uint8_t hash[DB_HASH_BYTES], struct cairn_error *err);
/* The game row's bookkeeping after `move` (seq, move count, updated_ms;
 * status and result when `result_json` ends the game). */
enum cairn_status db_pg_update_game(PGconn *conn, const char *game_id, const struct db_move *move,
                                    const char *result_json, struct cairn_error *err);

/* ---- the methods, one file per concern ---- */

/* listen.c: hearing the other nodes' changes (LISTEN on a connection of
 * its own, outside the pool) */
enum cairn_status db_pg_listen_start(void *ctx, db_change_cb cb, void *arg,
                                     struct db_listener **out, struct cairn_error *err);
void db_pg_listen_stop(void *ctx, struct db_listener *listener);

/* players.c */
enum cairn_status db_pg_player_create(void *ctx, const struct db_player *player,
                                      const uint8_t token_hash[DB_HASH_BYTES],
                                      struct cairn_error *err);
enum cairn_status db_pg_player_by_token(void *ctx, const uint8_t token_hash[DB_HASH_BYTES],
                                        struct db_player *out, struct cairn_error *err);

/* games.c */
enum cairn_status db_pg_game_create(void *ctx, const struct db_game *game, struct cairn_error *err);
enum cairn_status db_pg_game_load(void *ctx, const char *game_id, struct db_game *out,
                                  struct cairn_error *err);
enum cairn_status db_pg_player_games(void *ctx, const char *player_id, db_game_seat_cb cb,
                                     void *arg, struct cairn_error *err);
enum cairn_status db_pg_games_unfinished_by(void *ctx, const char *creator, int *count,
                                            struct cairn_error *err);
enum cairn_status db_pg_game_touch(void *ctx, const char *game_id, int64_t at_ms,
                                   struct cairn_error *err);
enum cairn_status db_pg_games_overdue(void *ctx, int64_t now_ms, db_game_id_cb cb, void *arg,
                                      struct cairn_error *err);
enum cairn_status db_pg_games_each(void *ctx, db_game_id_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_pg_games_active_each(void *ctx, db_game_id_cb cb, void *arg,
                                          struct cairn_error *err);

/* seats.c */
enum cairn_status db_pg_seat_take(void *ctx, const char *game_id, const struct db_join *join,
                                  struct cairn_error *err);

/* moves.c */
enum cairn_status db_pg_move_append(void *ctx, const char *game_id, struct db_move *move,
                                    const char *result_json, struct cairn_error *err);
enum cairn_status db_pg_moves_load(void *ctx, const char *game_id, uint32_t from_ord, db_move_cb cb,
                                   void *arg, struct cairn_error *err);
enum cairn_status db_pg_moves_load_lean(void *ctx, const char *game_id, uint32_t from_ord,
                                        db_move_cb cb, void *arg, struct cairn_error *err);

/* import.c */
enum cairn_status db_pg_game_import(void *ctx, const struct db_game *game,
                                    const struct db_player *players,
                                    const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                    const struct db_move *moves, size_t n_moves,
                                    struct cairn_error *err);

/* clocks.c */
enum cairn_status db_pg_clocks_load(void *ctx, const char *game_id, struct db_clock *out, int *n,
                                    struct cairn_error *err);
enum cairn_status db_pg_clocks_save(void *ctx, const char *game_id, const struct db_clock *clocks,
                                    int n, struct cairn_error *err);
enum cairn_status db_pg_vacation_add(void *ctx, const char *player_id, const struct db_vacation *v,
                                     struct cairn_error *err);
enum cairn_status db_pg_vacations_of(void *ctx, const char *player_id, int64_t from_ms,
                                     struct db_vacation *out, int max, int *n,
                                     struct cairn_error *err);

/* webhooks.c */
enum cairn_status db_pg_webhook_create(void *ctx, const struct db_webhook *hook,
                                       struct cairn_error *err);
enum cairn_status db_pg_webhooks_of_owner(void *ctx, const char *owner, db_webhook_cb cb, void *arg,
                                          struct cairn_error *err);
enum cairn_status db_pg_webhooks_of_game(void *ctx, const char *game_id, db_webhook_cb cb,
                                         void *arg, struct cairn_error *err);
enum cairn_status db_pg_webhook_delete(void *ctx, const char *id, const char *owner,
                                       struct cairn_error *err);
enum cairn_status db_pg_delivery_record(void *ctx, const struct db_delivery *delivery,
                                        struct cairn_error *err);
enum cairn_status db_pg_webhook_get(void *ctx, const char *id, struct db_webhook *out,
                                    struct cairn_error *err);
enum cairn_status db_pg_mention_put(void *ctx, const struct db_mention *mention,
                                    struct cairn_error *err);
enum cairn_status db_pg_mentions_of(void *ctx, const char *webhook_id, db_mention_cb cb, void *arg,
                                    struct cairn_error *err);
enum cairn_status db_pg_deliveries_of(void *ctx, const char *webhook_id, int limit,
                                      db_delivery_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_pg_outbox_put(void *ctx, const struct db_outbox *owed,
                                   struct cairn_error *err);
enum cairn_status db_pg_outbox_remove(void *ctx, const char *delivery_id, struct cairn_error *err);
enum cairn_status db_pg_outbox_each(void *ctx, db_outbox_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_pg_outbox_claim(void *ctx, const char *node, int64_t now_ms, int64_t until_ms,
                                     int max, db_outbox_cb cb, void *arg, int *n,
                                     struct cairn_error *err);
enum cairn_status db_pg_outbox_renew(void *ctx, const char *node, int64_t until_ms,
                                     struct cairn_error *err);
enum cairn_status db_pg_outbox_release(void *ctx, const char *node, struct cairn_error *err);
enum cairn_status db_pg_games_bots_idle(void *ctx, int64_t from_ms, int64_t to_ms, db_game_id_cb cb,
                                        void *arg, struct cairn_error *err);

/* lobby.c */
enum cairn_status db_pg_games_lobby(void *ctx, const struct db_lobby_query *query, db_game_id_cb cb,
                                    void *arg, struct cairn_error *err);
enum cairn_status db_pg_invitations_of(void *ctx, const char *player_id, db_game_seat_cb cb,
                                       void *arg, struct cairn_error *err);
enum cairn_status db_pg_invitation_decline(void *ctx, const char *game_id, const char *player_id,
                                           struct cairn_error *err);
enum cairn_status db_pg_games_archive(void *ctx, const struct db_archive_query *query,
                                      db_game_seat_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_pg_game_cancel(void *ctx, const char *game_id, int64_t at_ms,
                                    struct cairn_error *err);
/* In the caller's transaction on `conn`: keep `seat` of `game_id` for
 * `player_id` (CAIRN_ENOTFOUND when no such player). */
enum cairn_status db_pg_insert_invitation(PGconn *conn, const char *game_id, int seat,
                                          const char *player_id, struct cairn_error *err);
/* In the caller's transaction on `conn`: delete `player_id`'s invitation to
 * `game_id`, if any; *deleted (NULL: not wanted) says whether there was. */
enum cairn_status db_pg_uninvite(PGconn *conn, const char *game_id, const char *player_id,
                                 bool *deleted, struct cairn_error *err);

/* tokens.c */
enum cairn_status db_pg_token_add(void *ctx, const char *player_id,
                                  const uint8_t token_hash[DB_HASH_BYTES], int64_t at_ms,
                                  struct cairn_error *err);
enum cairn_status db_pg_tokens_replace(void *ctx, const char *player_id,
                                       const uint8_t token_hash[DB_HASH_BYTES],
                                       struct cairn_error *err);
enum cairn_status db_pg_sign_in_code_put(void *ctx, const char *player_id,
                                         const uint8_t code_hash[DB_HASH_BYTES], int64_t expires_ms,
                                         struct cairn_error *err);
enum cairn_status db_pg_sign_in_code_take(void *ctx, const uint8_t code_hash[DB_HASH_BYTES],
                                          int64_t now_ms, struct db_player *out,
                                          struct cairn_error *err);

/* chat.c (issue 25) */
enum cairn_status db_pg_chat_post(void *ctx, struct db_chat *msg, const struct db_outbox *owed,
                                  int n_owed, struct cairn_error *err);
enum cairn_status db_pg_chat_list(void *ctx, const char *game_id, int channel, uint32_t after,
                                  int limit, db_chat_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_pg_chat_get(void *ctx, const char *id, struct db_chat *out,
                                 struct cairn_error *err);
enum cairn_status db_pg_chat_delete(void *ctx, const char *id, const char *author, int64_t at_ms,
                                    struct cairn_error *err);

/* ratings.c (issue 25) */
/* Inside the open transaction: the update `u` of the append ending game_id. */
enum cairn_status db_pg_write_ratings(PGconn *conn, const char *game_id, int64_t at_ms,
                                      const struct db_rating_update *u, struct cairn_error *err);
enum cairn_status db_pg_ratings_of(void *ctx, const char *player, db_rating_cb cb, void *arg,
                                   struct cairn_error *err);
enum cairn_status db_pg_leaderboard(void *ctx, const char *title, int offset, int limit,
                                    db_rating_cb cb, void *arg, struct cairn_error *err);
enum cairn_status db_pg_ratings_each(void *ctx, db_rating_cb cb, void *arg,
                                     struct cairn_error *err);
enum cairn_status db_pg_player_get(void *ctx, const char *id, struct db_player *out,
                                   struct cairn_error *err);
enum cairn_status db_pg_rated_games_each(void *ctx, db_game_id_cb cb, void *arg,
                                         struct cairn_error *err);

#endif
