/*
 * bots.c - built-in bot seats, so one person can play any title. A bot is a
 * player whose id starts with GAME_BOT_PREFIX; when it owes a decision the
 * server plays one of its legal moves at random (engine_sample_move) right
 * after the move that handed it the turn (game_commit's last follow-up). Its moves are ordinary log
 * rows, so replay, audit and export treat them like anyone's. The choice comes from libsodium, not
 * the game's generator: which legal move a bot picks is a player's decision, recorded in the log,
 * not a part of the rules. A seat whose player resigned (resign.c) is played
 * the same way from then on.
 *
 * Levels (issue 26): a seat created as `easy` or `strong` is played by the
 * search of bots/, which sees only the seat's view. It thinks on the pool
 * of botpool.c, off the request path, and its move commits through
 * game_commit like anyone's once the log head is where it thought from.
 * Its seed is public: a hash of the bot's player id (random, stored with
 * the seat), the game id, the log's length and the seat, never the game's
 * secret seed, so one game gives one move, and a replay of a bot's
 * thinking needs nothing hidden. A title without a determinize slot has
 * random bots at every level.
 *
 * A change and its bots' reply are separate commits, made by the node that
 * committed the change. Should that node die between the two, another
 * node's sweep (game_bots_sweep, on the sweeper's thread) finds the game
 * once its last change is older than BOT_GRACE_MS and plays the bots; two
 * nodes playing one game's bot at once is harmless, since an append is
 * checked against the log's head and only one of them lands.
 */
#include "game.h"
#include "../bots/bots.h"
#include "../log/log.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* Enough for any title's longest run of bot decisions between two human
 * ones, and a guard against a title that never hands the turn back. */
#define BOT_MOVES_MAX 10000

bool game_seat_is_bot(const struct db_game *row, int seat)
{
  return strncmp(row->seat_player[seat], GAME_BOT_PREFIX, strlen(GAME_BOT_PREFIX)) == 0;
}

bool game_seat_played_by_bot(const struct db_game *row, int seat)
{
  return game_seat_is_bot(row, seat) || row->seat_resigned[seat];
}

void game_new_id(char out[DB_ID_MAX + 1])
{
  uint8_t raw[10]; /* 80 bits: unguessable, short enough to type */

  randombytes_buf(raw, sizeof(raw));
  sodium_bin2hex(out, DB_ID_MAX + 1, raw, sizeof(raw));
}

/* What follows GAME_BOT_PREFIX in a search-level bot's id: "easy-",
 * "strong-" (at most 11 + 20 characters of DB_ID_MAX's 32). A random bot's
 * id has none, as before levels. */
static const char *level_tag(int level)
{
  return level == BOT_EASY ? "easy-" : level == BOT_STRONG ? "strong-" : "";
}

static const char *level_title(int level)
{
  return level == BOT_EASY ? "Easy bot" : level == BOT_STRONG ? "Strong bot" : "Random bot";
}

int game_seat_bot_level(const struct db_game *row, int seat)
{
  const char *tag = row->seat_player[seat] + strlen(GAME_BOT_PREFIX);
  int level;

  if (!game_seat_is_bot(row, seat))
    return BOT_RANDOM; /* a resigned person's seat */
  for (level = BOT_EASY; level < BOT_LEVELS; level++)
    if (strncmp(tag, level_tag(level), strlen(level_tag(level))) == 0)
      return level;
  return BOT_RANDOM;
}

enum cairn_status game_bot_player(struct game_service *svc, int level, struct db_player *out,
                                  struct cairn_error *err)
{
  uint8_t hash[DB_HASH_BYTES];
  char id[DB_ID_MAX + 1];

  memset(out, 0, sizeof(*out));
  game_new_id(id);
  snprintf(out->id, sizeof(out->id), "%s%s%.20s", GAME_BOT_PREFIX, level_tag(level),
           id); /* ids are 20 hex */
  snprintf(out->name, sizeof(out->name), "%s", level_title(level));
  randombytes_buf(hash, sizeof(hash));
  return db_player_create(svc->db, out, hash, err);
}

/* The first seat the server plays (a bot's, or a resigned one) that owes a
 * decision, or -1. */
static int bot_to_act(const struct db_game *row, const struct game_turn *turn)
{
  int i;

  for (i = 0; i < turn->n; i++)
    if (game_seat_played_by_bot(row, turn->seats[i]))
      return turn->seats[i];
  return -1;
}

/* Commit `move` (taken) of `seat` at `state` as a change of `kind`. */
static enum cairn_status play_move(struct game_service *svc, struct db_game *row,
                                   const struct engine_game *state, int seat, json_t *move,
                                   enum game_change_kind kind, struct game_turn *after,
                                   struct cairn_error *err)
{
  struct game_turn ignored;
  struct game_change change = {.kind = kind, .seat = seat, .move = move};
  json_t *events = NULL;
  enum cairn_status st;

  if (!move)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "seat %d owes a decision but has no legal move", seat);
  st = engine_apply(state, seat, move, &change.next, &events, err);
  change.events = events;
  if (st == CAIRN_OK)
    st = game_commit_turn(svc, row, &change, after ? after : &ignored, err);
  json_decref(move);
  json_decref(events);
  return st;
}

enum cairn_status game_play_sampled(struct game_service *svc, struct db_game *row,
                                    const struct engine_game *state, int seat,
                                    enum game_change_kind kind, struct game_turn *after,
                                    struct cairn_error *err)
{
  json_t *move =
      engine_sample_move(state, seat, randombytes_random() | (uint64_t)randombytes_random() << 32);

  return play_move(svc, row, state, seat, move, kind, after, err);
}

/* The bot's seed for its decision in `seat` of `row` now: public facts
 * only (bots.c's header). */
static void bot_seed(const struct db_game *row, int seat, uint8_t seed[ENGINE_SEED_BYTES])
{
  crypto_generichash_state h;
  uint8_t tail[8];

  tail[0] = (uint8_t)row->moves;
  tail[1] = (uint8_t)(row->moves >> 8);
  tail[2] = (uint8_t)(row->moves >> 16);
  tail[3] = (uint8_t)(row->moves >> 24);
  tail[4] = (uint8_t)seat;
  tail[5] = tail[6] = tail[7] = 0;
  crypto_generichash_init(&h, NULL, 0, ENGINE_SEED_BYTES);
  crypto_generichash_update(&h, (const uint8_t *)row->seat_player[seat],
                            strlen(row->seat_player[seat]) + 1);
  crypto_generichash_update(&h, (const uint8_t *)row->id, strlen(row->id) + 1);
  crypto_generichash_update(&h, tail, sizeof(tail));
  crypto_generichash_final(&h, seed, ENGINE_SEED_BYTES);
}

/* Whether `seat`'s bot searches (a level above random in a title that can
 * be played from a view), so it thinks on the pool. */
static bool bot_searches(const struct db_game *row, const struct engine_game *state, int seat)
{
  return game_seat_bot_level(row, seat) != BOT_RANDOM && bot_title_supported(state->module);
}

/* The search bot's move for `seat` at `state` (a new reference), or NULL
 * with *err set. */
static json_t *bot_think(const struct db_game *row, const struct engine_game *state, int seat,
                         struct cairn_error *err)
{
  json_t *options = json_loads(row->options_json ? row->options_json : "{}", 0, NULL);
  uint8_t seed[ENGINE_SEED_BYTES];
  json_t *move = NULL;

  bot_seed(row, seat, seed);
  bot_choose(state, seat, options, seed, (enum bot_level)game_seat_bot_level(row, seat), &move,
             err);
  json_decref(options);
  return move;
}

void game_bots_play(struct game_service *svc, struct db_game *row, const struct game_turn *now)
{
  struct cairn_error err = {0};
  const struct engine_game *state = NULL;
  struct game_turn turn = {.n = 0};
  int moves, seat;

  if (now)
    turn = *now;
  for (moves = 0; moves < BOT_MOVES_MAX; moves++) {
    if (strcmp(row->status, DB_STATUS_ACTIVE) != 0)
      return;
    if (game_live_get(svc, row, &state, &err) != CAIRN_OK)
      break;
    if (!now && moves == 0)
      turn.n = engine_to_act(state, turn.seats); /* nobody told us: ask the title once */
    seat = bot_to_act(row, &turn);
    if (seat < 0)
      return;
    if (bot_searches(row, state, seat) && svc->bot_pool) {
      game_bot_pool_enqueue(svc, row->id); /* a full queue leaves it to the sweep */
      return;
    }
    /* The next round reads who acts from the commit, not the title. */
    if (bot_searches(row, state, seat)) {
      json_t *move = bot_think(row, state, seat, &err);

      enum cairn_status st =
          move ? play_move(svc, row, state, seat, move, GAME_CHANGE_BOT, &turn, &err)
               : CAIRN_EINVAL;

      /* As commit_thought: a refused or missing decision plays at random. */
      if (st == CAIRN_EILLEGAL || st == CAIRN_EINVAL)
        st = game_play_sampled(svc, row, state, seat, GAME_CHANGE_BOT, &turn, &err);
      if (st != CAIRN_OK)
        break;
    } else if (game_play_sampled(svc, row, state, seat, GAME_CHANGE_BOT, &turn, &err) != CAIRN_OK)
      break;
  }
  /* A stale append is another node's (or request's) change landing first:
   * whoever moved the game on also answers for its bots. */
  log_line(err.status == CAIRN_ESTALE ? LOG_INFO : LOG_ERROR, "bots", "bots in game %s stopped: %s",
           row->id, err.detail[0] ? err.detail : "too many bot moves in a row");
}

/* One game of game_bots_resume: re-read under the lock, since a request may
 * have played since the listing. */
static enum cairn_status resume_game(void *arg, const char *game_id, struct cairn_error *err)
{
  struct game_service *svc = arg;
  struct db_game row = {0};
  bool bot = false;
  int seat;

  game_lock(svc, game_id);
  if (db_game_load(svc->db, game_id, &row, err) != CAIRN_OK)
    log_line(LOG_ERROR, "bots", "resuming bots in game %s: %s", game_id, err->detail);
  else if (strcmp(row.status, DB_STATUS_ACTIVE) == 0) {
    for (seat = 0; seat < row.seats && !bot; seat++)
      bot = game_seat_played_by_bot(&row, seat);
    if (bot)
      game_bots_play(svc, &row, NULL);
  }
  game_unlock(svc, game_id);
  db_game_clear(&row);
  return CAIRN_OK; /* one game's trouble does not stop the others */
}

void game_bots_resume(struct game_service *svc)
{
  struct cairn_error err = {0};

  if (db_games_active_each(svc->db, resume_game, svc, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "bots", "resuming bots: %s", err.detail);
}

void game_bots_sweep(struct game_service *svc, int64_t from_ms, int64_t to_ms)
{
  struct cairn_error err = {0};

  if (svc->bots_held)
    return;
  if (db_games_bots_idle(svc->db, from_ms, to_ms, resume_game, svc, &err) != CAIRN_OK)
    log_line(LOG_ERROR, "bots", "sweeping for bots owing a move: %s", err.detail);
}

/* Under the lock of row's game: a copy of the state a search bot of `row`
 * owes a decision at, and the seat, or NULL (nothing for the pool: the
 * game's other bots are played here). */
static struct engine_game *owed_search(struct game_service *svc, struct db_game *row, int *seat)
{
  struct cairn_error err = {0};
  const struct engine_game *state = NULL;
  struct game_turn turn;

  if (strcmp(row->status, DB_STATUS_ACTIVE) != 0 ||
      game_live_get(svc, row, &state, &err) != CAIRN_OK)
    return NULL;
  turn.n = engine_to_act(state, turn.seats);
  *seat = bot_to_act(row, &turn);
  if (*seat < 0)
    return NULL;
  if (!bot_searches(row, state, *seat)) {
    game_bots_play(svc, row, NULL);
    return NULL;
  }
  return engine_clone(state);
}

/* Under the lock: commit `move` (taken; NULL when the bot could not
 * decide) of `seat`, decided when the log had `moves` rows, unless the
 * game moved on since; either way its bots are asked again (the next
 * one, or this one afresh). */
static void commit_thought(struct game_service *svc, struct db_game *row, uint32_t moves, int seat,
                           json_t *move)
{
  struct cairn_error err = {0};
  const struct engine_game *state = NULL;
  struct game_turn turn = {.n = 0};
  enum cairn_status st = CAIRN_OK;

  if (row->moves != moves || strcmp(row->status, DB_STATUS_ACTIVE) != 0 ||
      game_live_get(svc, row, &state, &err) != CAIRN_OK || !engine_may_act(state, seat)) {
    json_decref(move); /* stale: the position it answered is gone */
    game_bots_play(svc, row, NULL);
    return;
  }
  /* No decision (the search failed), or one the rules refuse (a title
   * whose view leaves out a public fact the search had to guess): the
   * seat's own legal moves are its to know, so one of them is played. */
  if (move)
    st = play_move(svc, row, state, seat, move, GAME_CHANGE_BOT, &turn, &err);
  if (!move || st == CAIRN_EILLEGAL || st == CAIRN_EINVAL) {
    log_line(LOG_WARN, "bots", "bot in game %s plays at random: %s", row->id,
             err.detail[0] ? err.detail : "no decision");
    st = game_play_sampled(svc, row, state, seat, GAME_CHANGE_BOT, &turn, &err);
  }
  if (st != CAIRN_OK) {
    log_line(err.status == CAIRN_ESTALE ? LOG_INFO : LOG_ERROR, "bots",
             "bot move in game %s dropped: %s", row->id, err.detail);
    return;
  }
  game_bots_play(svc, row, &turn);
}

void game_bots_think(struct game_service *svc, const char *game_id)
{
  struct cairn_error err = {0};
  struct db_game row = {0};
  struct engine_game *copy = NULL;
  json_t *move = NULL;
  uint32_t moves = 0;
  int seat = -1;

  game_lock(svc, game_id);
  if (db_game_load(svc->db, game_id, &row, &err) == CAIRN_OK) {
    copy = owed_search(svc, &row, &seat);
    moves = row.moves;
  }
  game_unlock(svc, game_id);
  if (!copy) {
    db_game_clear(&row);
    return; /* nothing owed, or the game's other bots were played */
  }
  move = bot_think(&row, copy, seat, &err); /* no lock held: a person may move meanwhile */
  engine_free(copy);
  db_game_clear(&row);
  if (!move)
    log_line(LOG_ERROR, "bots", "bot in game %s could not decide: %s", game_id, err.detail);
  game_lock(svc, game_id);
  if (db_game_load(svc->db, game_id, &row, &err) == CAIRN_OK)
    commit_thought(svc, &row, moves, seat, move);
  else
    json_decref(move);
  game_unlock(svc, game_id);
  db_game_clear(&row);
}

/* Under the lock: a copy of the state `seat` of `row` may be hinted at,
 * or NULL with *err set (game_hint's refusals). */
static struct engine_game *hintable(struct game_service *svc, const struct db_game *row, int seat,
                                    struct cairn_error *err)
{
  const struct engine_game *state = NULL;
  struct engine_game *copy;
  int s, people = 0;

  if (strcmp(row->status, DB_STATUS_ACTIVE) != 0) {
    cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_GAME_NOT_ACTIVE, NULL,
               "game %s is %s: hints are given in active games", row->id, row->status);
    return NULL;
  }
  for (s = 0; s < row->seats; s++)
    people += !game_seat_played_by_bot(row, s);
  if (people != 1 || game_seat_played_by_bot(row, seat)) {
    cairn_fail(err, CAIRN_ECONFLICT, GAME_CODE_NO_HINT, NULL,
               "hints are given only in games with exactly one person's seat (solo scenarios, "
               "games against bots); this one has %d",
               people);
    return NULL;
  }
  if (game_live_get(svc, row, &state, err) != CAIRN_OK)
    return NULL;
  if (!engine_may_act(state, seat)) {
    cairn_fail(err, CAIRN_ETURN, CAIRN_CODE_NOT_YOUR_TURN, NULL,
               "seat %d owes no decision now: a hint answers a decision owed", seat);
    return NULL;
  }
  copy = engine_clone(state);
  if (!copy)
    cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  return copy;
}

/* A hint's seed: public facts as a bot's (bot_seed), with the seat's own
 * player in the bot's place, so asking again gives the same hint. */
enum cairn_status game_hint(struct game_service *svc, const char *game_id, int seat, json_t **move,
                            uint32_t *seq, uint32_t *moves, struct cairn_error *err)
{
  struct db_game row = {0};
  struct engine_game *copy = NULL;
  uint8_t seed[ENGINE_SEED_BYTES];
  json_t *options = NULL;
  enum cairn_status st;

  *move = NULL;
  game_lock(svc, game_id);
  st = db_game_load(svc->db, game_id, &row, err);
  if (st == CAIRN_OK) {
    copy = hintable(svc, &row, seat, err);
    st = copy ? CAIRN_OK : err->status;
  }
  game_unlock(svc, game_id);
  if (st == CAIRN_OK) {
    *seq = copy->seq;
    *moves = row.moves;
    bot_seed(&row, seat, seed);
    options = json_loads(row.options_json ? row.options_json : "{}", 0, NULL);
    st = bot_choose(copy, seat, options, seed, BOT_STRONG, move, err);
  }
  json_decref(options);
  engine_free(copy);
  db_game_clear(&row);
  return st;
}

/* game_hint on this thread, at most GAME_HINTS_MAX at once. */
static enum cairn_status hint_here(struct game_service *svc, const char *game_id, int seat,
                                   json_t **move, uint32_t *seq, struct cairn_error *err)
{
  uint32_t moves;
  enum cairn_status st;

  if (atomic_fetch_add(&svc->hints_running, 1) >= GAME_HINTS_MAX) {
    atomic_fetch_sub(&svc->hints_running, 1);
    return cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_RATE_LIMITED, NULL,
                      "%d hints are being worked out; ask again in a moment", GAME_HINTS_MAX);
  }
  st = game_hint(svc, game_id, seat, move, seq, &moves, err);
  atomic_fetch_sub(&svc->hints_running, 1);
  return st;
}

enum cairn_status game_hint_ask(struct game_service *svc, const char *game_id, int seat,
                                json_t **move, uint32_t *seq, struct cairn_error *err)
{
  struct db_game row = {0};
  struct engine_game *copy = NULL;
  uint32_t moves = 0;
  enum cairn_status st;

  *move = NULL;
  if (!svc->bot_pool)
    return hint_here(svc, game_id, seat, move, seq, err);
  game_lock(svc, game_id); /* the refusals now, not after a search */
  st = db_game_load(svc->db, game_id, &row, err);
  if (st == CAIRN_OK) {
    copy = hintable(svc, &row, seat, err);
    st = copy ? CAIRN_OK : err->status;
    moves = row.moves;
  }
  game_unlock(svc, game_id);
  engine_free(copy);
  db_game_clear(&row);
  if (st != CAIRN_OK)
    return st;
  if (game_bot_pool_hint_find(svc, game_id, moves, seat, move, seq))
    return CAIRN_OK;
  if (!game_bot_pool_hint_enqueue(svc, game_id, seat))
    return cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_RATE_LIMITED, NULL,
                      "the server's bots are busy; ask for the hint again in a moment");
  return CAIRN_DONE;
}
