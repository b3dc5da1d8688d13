/*
 * db.c - what db.h defines for every backend alike: opening a store by
 * URL, the db_* calls into its methods, releasing a game row, hashing an
 * id. The backends themselves live in their own folders (db/sqlite/,
 * db/postgres/).
 */
#include "db.h"

#include <stdlib.h>
#include <string.h>

#include "backends.h"

/* URL schemes and the backend each opens. */
static const struct db_backend {
  const char *scheme;
  const struct db_methods *methods;
  db_backend_open_fn open;
} db_backends[] = {
    {"sqlite", &db_sqlite_methods, db_sqlite_open},
    {"postgres", &db_postgres_methods, db_postgres_open},
    {"postgresql", &db_postgres_methods, db_postgres_open},
};

/* The length of `url`'s scheme ("sqlite" in "sqlite:x.db"), or 0 when it
 * has none: RFC 3986's ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) then ":".
 * One letter before the colon is not a scheme (a Windows drive), and a
 * plain path such as "./a:b" or ":memory:" has none. */
static size_t scheme_length(const char *url)
{
  size_t n = 0;

  if (!((url[0] >= 'a' && url[0] <= 'z') || (url[0] >= 'A' && url[0] <= 'Z')))
    return 0;
  while (url[n] && url[n] != ':') {
    char c = url[n];

    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' ||
          c == '-' || c == '.'))
      return 0;
    n++;
  }
  return url[n] == ':' && n > 1 ? n : 0;
}

static bool scheme_is(const char *url, size_t n, const char *scheme)
{
  return strlen(scheme) == n && strncmp(url, scheme, n) == 0;
}

/* The backend for `url` and where it points (*location, inside url). */
static enum cairn_status find_backend(const char *url, const struct db_backend **out,
                                      const char **location, struct cairn_error *err)
{
  size_t n = scheme_length(url), i;

  if (n == 0) { /* a plain path: the embedded default */
    *out = &db_backends[0];
    *location = url;
    return CAIRN_OK;
  }
  for (i = 0; i < sizeof(db_backends) / sizeof(db_backends[0]); i++)
    if (scheme_is(url, n, db_backends[i].scheme)) {
      *out = &db_backends[i];
      *location = url + n + 1;
      /* "sqlite://PATH": the URL form of "sqlite:PATH" */
      if (strncmp(*location, "//", 2) == 0)
        *location += 2;
      return CAIRN_OK;
    }
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "db",
                    "unknown storage scheme \"%.*s:\" (this build has sqlite and postgres)", (int)n,
                    url);
}

enum cairn_status db_open(const char *url, struct db **out, struct cairn_error *err)
{
  const struct db_backend *backend = NULL;
  const char *location = NULL;
  enum cairn_status st;
  struct db *db;

  *out = NULL;
  st = find_backend(url, &backend, &location, err);
  if (st != CAIRN_OK)
    return st;
  if (!location[0])
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, "db",
                      "the storage URL names no database");
  db = calloc(1, sizeof(*db));
  if (!db)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL,
                      "out of memory while opening the database");
  st = backend->open(location, &db->ctx, err);
  if (st != CAIRN_OK) {
    free(db);
    return st;
  }
  db->methods = backend->methods;
  *out = db;
  return CAIRN_OK;
}

bool db_local_file(const char *url, char *out, size_t size)
{
  const struct db_backend *backend = NULL;
  const char *location = NULL;
  int n;

  out[0] = '\0';
  if (find_backend(url, &backend, &location, NULL) != CAIRN_OK ||
      backend->methods != &db_sqlite_methods || !location[0] || strcmp(location, ":memory:") == 0)
    return false;
  n = snprintf(out, size, "%s", location);
  if (n < 0 || (size_t)n >= size) {
    out[0] = '\0';
    return false;
  }
  return true;
}

void db_close(struct db *db)
{
  if (!db)
    return;
  db->methods->close(db->ctx);
  free(db);
}

/* ---- one call into the backend per method (db.h has each contract) ---- */

uint32_t db_id_hash(const char *id)
{
  uint32_t h = 2166136261u;

  for (; *id; id++)
    h = (h ^ (uint8_t)*id) * 16777619u;
  return h;
}

void db_game_clear(struct db_game *game)
{
  if (!game)
    return;
  free(game->options_json);
  free(game->result_json);
  memset(game, 0, sizeof(*game));
}

enum cairn_status db_player_create(struct db *db, const struct db_player *player,
                                   const uint8_t token_hash[DB_HASH_BYTES], struct cairn_error *err)
{
  return db->methods->player_create(db->ctx, player, token_hash, err);
}

enum cairn_status db_player_by_token(struct db *db, const uint8_t token_hash[DB_HASH_BYTES],
                                     struct db_player *out, struct cairn_error *err)
{
  return db->methods->player_by_token(db->ctx, token_hash, out, err);
}

enum cairn_status db_game_create(struct db *db, const struct db_game *game, struct cairn_error *err)
{
  return db->methods->game_create(db->ctx, game, err);
}

enum cairn_status db_game_load(struct db *db, const char *game_id, struct db_game *out,
                               struct cairn_error *err)
{
  return db->methods->game_load(db->ctx, game_id, out, err);
}

enum cairn_status db_seat_join(struct db *db, const char *game_id, const struct db_join *join,
                               struct cairn_error *err)
{
  return db->methods->seat_take(db->ctx, game_id, join, err);
}

enum cairn_status db_seat_take(struct db *db, const char *game_id, int seat, const char *player_id,
                               struct cairn_error *err)
{
  struct db_join join = {.seat = seat, .player_id = player_id};

  return db->methods->seat_take(db->ctx, game_id, &join, err);
}

enum cairn_status db_move_append(struct db *db, const char *game_id, struct db_move *move,
                                 const char *result_json, struct cairn_error *err)
{
  return db->methods->move_append(db->ctx, game_id, move, result_json, err);
}

void db_move_append_async(struct db *db, const char *game_id, struct db_move *move,
                          const char *result_json, struct cairn_error *err, db_append_done done,
                          void *arg)
{
  if (db->methods->move_append_async) {
    db->methods->move_append_async(db->ctx, game_id, move, result_json, err, done, arg);
    return;
  }
  done(arg, db->methods->move_append(db->ctx, game_id, move, result_json, err));
}

bool db_appends_queue(const struct db *db)
{
  return db->methods->move_append_async != NULL;
}

enum cairn_status db_backup_to(struct db *db, const char *path, struct cairn_error *err)
{
  if (!db->methods->backup_to)
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                      "%s storage is backed up with its own tools", db->methods->name);
  return db->methods->backup_to(db->ctx, path, err);
}

void db_stats(struct db *db, struct db_stats *out)
{
  memset(out, 0, sizeof(*out));
  if (db->methods->stats)
    db->methods->stats(db->ctx, out);
}

enum cairn_status db_moves_load(struct db *db, const char *game_id, uint32_t from_ord,
                                db_move_cb cb, void *arg, struct cairn_error *err)
{
  return db->methods->moves_load(db->ctx, game_id, from_ord, cb, arg, err);
}

enum cairn_status db_moves_load_lean(struct db *db, const char *game_id, uint32_t from_ord,
                                     db_move_cb cb, void *arg, struct cairn_error *err)
{
  /* A whole row holds everything a lean one does. */
  if (!db->methods->moves_load_lean)
    return db->methods->moves_load(db->ctx, game_id, from_ord, cb, arg, err);
  return db->methods->moves_load_lean(db->ctx, game_id, from_ord, cb, arg, err);
}

enum cairn_status db_game_import(struct db *db, const struct db_game *game,
                                 const struct db_player *players,
                                 const uint8_t (*token_hashes)[DB_HASH_BYTES],
                                 const struct db_move *moves, size_t n_moves,
                                 struct cairn_error *err)
{
  return db->methods->game_import(db->ctx, game, players, token_hashes, moves, n_moves, err);
}

enum cairn_status db_player_games(struct db *db, const char *player_id, db_game_seat_cb cb,
                                  void *arg, struct cairn_error *err)
{
  return db->methods->player_games(db->ctx, player_id, cb, arg, err);
}

enum cairn_status db_games_unfinished_by(struct db *db, const char *creator, int *count,
                                         struct cairn_error *err)
{
  return db->methods->games_unfinished_by(db->ctx, creator, count, err);
}

enum cairn_status db_game_touch(struct db *db, const char *game_id, int64_t at_ms,
                                struct cairn_error *err)
{
  return db->methods->game_touch(db->ctx, game_id, at_ms, err);
}

enum cairn_status db_games_overdue(struct db *db, int64_t now_ms, db_game_id_cb cb, void *arg,
                                   struct cairn_error *err)
{
  return db->methods->games_overdue(db->ctx, now_ms, cb, arg, err);
}

enum cairn_status db_clocks_load(struct db *db, const char *game_id, struct db_clock *out, int *n,
                                 struct cairn_error *err)
{
  return db->methods->clocks_load(db->ctx, game_id, out, n, err);
}

enum cairn_status db_clocks_save(struct db *db, const char *game_id, const struct db_clock *clocks,
                                 int n, struct cairn_error *err)
{
  return db->methods->clocks_save(db->ctx, game_id, clocks, n, err);
}

enum cairn_status db_vacation_add(struct db *db, const char *player_id, const struct db_vacation *v,
                                  struct cairn_error *err)
{
  return db->methods->vacation_add(db->ctx, player_id, v, err);
}

enum cairn_status db_vacations_of(struct db *db, const char *player_id, int64_t from_ms,
                                  struct db_vacation *out, int max, int *n, struct cairn_error *err)
{
  return db->methods->vacations_of(db->ctx, player_id, from_ms, out, max, n, err);
}

enum cairn_status db_webhook_create(struct db *db, const struct db_webhook *hook,
                                    struct cairn_error *err)
{
  return db->methods->webhook_create(db->ctx, hook, err);
}

enum cairn_status db_webhooks_of_owner(struct db *db, const char *owner, db_webhook_cb cb,
                                       void *arg, struct cairn_error *err)
{
  return db->methods->webhooks_of_owner(db->ctx, owner, cb, arg, err);
}

enum cairn_status db_webhooks_of_game(struct db *db, const char *game_id, db_webhook_cb cb,
                                      void *arg, struct cairn_error *err)
{
  return db->methods->webhooks_of_game(db->ctx, game_id, cb, arg, err);
}

enum cairn_status db_webhook_delete(struct db *db, const char *id, const char *owner,
                                    struct cairn_error *err)
{
  return db->methods->webhook_delete(db->ctx, id, owner, err);
}

enum cairn_status db_delivery_record(struct db *db, const struct db_delivery *delivery,
                                     struct cairn_error *err)
{
  return db->methods->delivery_record(db->ctx, delivery, err);
}

enum cairn_status db_deliveries_of(struct db *db, const char *webhook_id, int limit,
                                   db_delivery_cb cb, void *arg, struct cairn_error *err)
{
  return db->methods->deliveries_of(db->ctx, webhook_id, limit, cb, arg, err);
}

enum cairn_status db_games_each(struct db *db, db_game_id_cb cb, void *arg, struct cairn_error *err)
{
  return db->methods->games_each(db->ctx, cb, arg, err);
}

enum cairn_status db_games_active_each(struct db *db, db_game_id_cb cb, void *arg,
                                       struct cairn_error *err)
{
  return db->methods->games_active_each(db->ctx, cb, arg, err);
}

enum cairn_status db_outbox_put(struct db *db, const struct db_outbox *owed,
                                struct cairn_error *err)
{
  return db->methods->outbox_put(db->ctx, owed, err);
}

enum cairn_status db_outbox_remove(struct db *db, const char *delivery_id, struct cairn_error *err)
{
  return db->methods->outbox_remove(db->ctx, delivery_id, err);
}

enum cairn_status db_outbox_each(struct db *db, db_outbox_cb cb, void *arg, struct cairn_error *err)
{
  return db->methods->outbox_each(db->ctx, cb, arg, err);
}

enum cairn_status db_token_add(struct db *db, const char *player_id,
                               const uint8_t token_hash[DB_HASH_BYTES], int64_t at_ms,
                               struct cairn_error *err)
{
  return db->methods->token_add(db->ctx, player_id, token_hash, at_ms, err);
}

enum cairn_status db_tokens_replace(struct db *db, const char *player_id,
                                    const uint8_t token_hash[DB_HASH_BYTES],
                                    struct cairn_error *err)
{
  return db->methods->tokens_replace(db->ctx, player_id, token_hash, err);
}

enum cairn_status db_sign_in_code_put(struct db *db, const char *player_id,
                                      const uint8_t code_hash[DB_HASH_BYTES], int64_t expires_ms,
                                      struct cairn_error *err)
{
  return db->methods->sign_in_code_put(db->ctx, player_id, code_hash, expires_ms, err);
}

enum cairn_status db_sign_in_code_take(struct db *db, const uint8_t code_hash[DB_HASH_BYTES],
                                       int64_t now_ms, struct db_player *out,
                                       struct cairn_error *err)
{
  return db->methods->sign_in_code_take(db->ctx, code_hash, now_ms, out, err);
}

enum cairn_status db_listen_start(struct db *db, db_change_cb cb, void *arg,
                                  struct db_listener **out, struct cairn_error *err)
{
  *out = NULL;
  if (!db->methods->listen_start)
    return CAIRN_OK;
  return db->methods->listen_start(db->ctx, cb, arg, out, err);
}

void db_listen_stop(struct db *db, struct db_listener *listener)
{
  if (listener && db->methods->listen_stop)
    db->methods->listen_stop(db->ctx, listener);
}

/* The slots of work shared across nodes are optional: a store without
 * them (a test's own method table) has nothing to claim or sweep. */
enum cairn_status db_outbox_claim(struct db *db, const char *node, int64_t now_ms, int64_t until_ms,
                                  int max, db_outbox_cb cb, void *arg, int *n,
                                  struct cairn_error *err)
{
  *n = 0;
  if (!db->methods->outbox_claim)
    return CAIRN_OK;
  return db->methods->outbox_claim(db->ctx, node, now_ms, until_ms, max, cb, arg, n, err);
}

enum cairn_status db_outbox_renew(struct db *db, const char *node, int64_t until_ms,
                                  struct cairn_error *err)
{
  if (!db->methods->outbox_renew)
    return CAIRN_OK;
  return db->methods->outbox_renew(db->ctx, node, until_ms, err);
}

enum cairn_status db_outbox_release(struct db *db, const char *node, struct cairn_error *err)
{
  if (!db->methods->outbox_release)
    return CAIRN_OK;
  return db->methods->outbox_release(db->ctx, node, err);
}

enum cairn_status db_games_bots_idle(struct db *db, int64_t from_ms, int64_t to_ms,
                                     db_game_id_cb cb, void *arg, struct cairn_error *err)
{
  if (!db->methods->games_bots_idle)
    return CAIRN_OK;
  return db->methods->games_bots_idle(db->ctx, from_ms, to_ms, cb, arg, err);
}

enum cairn_status db_mention_put(struct db *db, const struct db_mention *mention,
                                 struct cairn_error *err)
{
  return db->methods->mention_put(db->ctx, mention, err);
}

enum cairn_status db_mentions_of(struct db *db, const char *webhook_id, db_mention_cb cb, void *arg,
                                 struct cairn_error *err)
{
  return db->methods->mentions_of(db->ctx, webhook_id, cb, arg, err);
}

enum cairn_status db_webhook_get(struct db *db, const char *id, struct db_webhook *out,
                                 struct cairn_error *err)
{
  return db->methods->webhook_get(db->ctx, id, out, err);
}

enum cairn_status db_games_lobby(struct db *db, const struct db_lobby_query *query,
                                 db_game_id_cb cb, void *arg, struct cairn_error *err)
{
  return db->methods->games_lobby(db->ctx, query, cb, arg, err);
}

enum cairn_status db_invitations_of(struct db *db, const char *player_id, db_game_seat_cb cb,
                                    void *arg, struct cairn_error *err)
{
  return db->methods->invitations_of(db->ctx, player_id, cb, arg, err);
}

enum cairn_status db_invitation_decline(struct db *db, const char *game_id, const char *player_id,
                                        struct cairn_error *err)
{
  return db->methods->invitation_decline(db->ctx, game_id, player_id, err);
}

enum cairn_status db_games_archive(struct db *db, const struct db_archive_query *query,
                                   db_game_seat_cb cb, void *arg, struct cairn_error *err)
{
  return db->methods->games_archive(db->ctx, query, cb, arg, err);
}

enum cairn_status db_game_cancel(struct db *db, const char *game_id, int64_t at_ms,
                                 struct cairn_error *err)
{
  return db->methods->game_cancel(db->ctx, game_id, at_ms, err);
}

/* ---- chat (issue 25) ---- */

enum cairn_status db_chat_post(struct db *db, struct db_chat *msg, const struct db_outbox *owed,
                               int n_owed, struct cairn_error *err)
{
  return db->methods->chat_post(db->ctx, msg, owed, n_owed, err);
}

enum cairn_status db_chat_list(struct db *db, const char *game_id, int channel, uint32_t after,
                               int limit, db_chat_cb cb, void *arg, struct cairn_error *err)
{
  if (!db->methods->chat_list)
    return CAIRN_OK; /* a store without chat (a test's fake) has none */
  return db->methods->chat_list(db->ctx, game_id, channel, after, limit, cb, arg, err);
}

enum cairn_status db_chat_get(struct db *db, const char *id, struct db_chat *out,
                              struct cairn_error *err)
{
  return db->methods->chat_get(db->ctx, id, out, err);
}

enum cairn_status db_chat_delete(struct db *db, const char *id, const char *author, int64_t at_ms,
                                 struct cairn_error *err)
{
  return db->methods->chat_delete(db->ctx, id, author, at_ms, err);
}

/* ---- ratings (issue 25) ---- */

enum cairn_status db_ratings_of(struct db *db, const char *player, db_rating_cb cb, void *arg,
                                struct cairn_error *err)
{
  return db->methods->ratings_of(db->ctx, player, cb, arg, err);
}

enum cairn_status db_leaderboard(struct db *db, const char *title, int offset, int limit,
                                 db_rating_cb cb, void *arg, struct cairn_error *err)
{
  return db->methods->leaderboard(db->ctx, title, offset, limit, cb, arg, err);
}

enum cairn_status db_ratings_each(struct db *db, db_rating_cb cb, void *arg,
                                  struct cairn_error *err)
{
  return db->methods->ratings_each(db->ctx, cb, arg, err);
}

enum cairn_status db_rated_games_each(struct db *db, db_game_id_cb cb, void *arg,
                                      struct cairn_error *err)
{
  return db->methods->rated_games_each(db->ctx, cb, arg, err);
}

enum cairn_status db_player_get(struct db *db, const char *id, struct db_player *out,
                                struct cairn_error *err)
{
  return db->methods->player_get(db->ctx, id, out, err);
}
