/*
 * games.c - the game resource: creating a game, joining it, and showing it
 * (live or at a past position) as one viewer may see it. What a viewer may
 * see is decided by the title's view function; this file only picks the
 * viewer and assembles the envelope.
 */
#include "api.h"
#include "export.h"
#include "../game/audit.h"
#include "../bots/bots.h"

#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int api_viewer_seat(const struct api_request *req, const struct db_game *row)
{
  int i;

  if (!req->has_player)
    return ENGINE_SPECTATOR;
  for (i = 0; i < row->seats; i++)
    if (strcmp(row->seat_player[i], req->player.id) == 0)
      return i;
  return ENGINE_SPECTATOR;
}

enum cairn_status api_load_game(struct api_request *req, struct db_game *row,
                                struct cairn_error *err)
{
  return game_load(req->server->game, req->id, row, err);
}

/* Lowercase hex of the seed commitment (game_seed_commitment): it binds the
 * seed to this game so a commitment cannot be replayed for another one. */
static void write_seed_commitment(struct json_writer *w, const struct db_game *row)
{
  uint8_t digest[32];

  game_seed_commitment(row->seed, row->id, digest);
  jw_hex(w, digest, sizeof(digest));
}

/* The key that vouches for the game's record: this server's for a game
 * played here; for an imported one, its document's signer if that
 * signature checks, else null (nobody vouches for it). */
static void write_signer(struct json_writer *w, const struct api_server *server,
                         const struct db_game *row)
{
  uint8_t commitment[32];
  struct api_signed what;
  const uint8_t *pk = server->key.pk;

  if (row->imported) {
    api_row_signed(row, commitment, &what);
    pk = row->has_signer && api_sign_check(row->signer, row->signature, &what) ? row->signer : NULL;
  }
  if (!pk) {
    jw_null(w);
    return;
  }
  jw_hex(w, pk, DB_KEY_BYTES);
}

static void write_seats(struct json_writer *w, const struct db_game *row)
{
  int i;

  jw_array_begin(w);
  for (i = 0; i < row->seats; i++) {
    jw_object_begin(w);
    jw_key_int(w, "seat", i);
    jw_key(w, "player");
    /* An imported game's seats are names only: nobody here played them. */
    if (row->seat_player[i][0] || row->imported) {
      jw_object_begin(w);
      if (row->seat_player[i][0])
        jw_key_string(w, "id", row->seat_player[i]);
      else
        jw_key_null(w, "id");
      jw_key_string(w, "name", row->seat_name[i]);
      jw_object_end(w);
    } else {
      jw_null(w);
    }
    /* A free seat kept for an invited player (issue 25): nobody else may
     * take it, so a page offers no Join there. For whom stays between the
     * creator and the invitee. */
    if (!row->seat_player[i][0] && row->seat_invited[i][0])
      jw_key_bool(w, "kept", true);
    jw_object_end(w);
  }
  jw_array_end(w);
}

/* What the title says of the position shown, asked once per answer: the
 * rules' result (a new reference, or NULL while the game runs) and who owes
 * a decision. */
struct position {
  json_t *result;
  int to_act[ENGINE_MAX_SEATS];
  int n_to_act;
};

static void read_position(const struct engine_game *state, struct position *p)
{
  p->result = engine_result(state);
  p->n_to_act = engine_to_act(state, p->to_act);
}

static bool owes_decision(const struct position *p, int seat)
{
  int i;

  for (i = 0; i < p->n_to_act; i++)
    if (p->to_act[i] == seat)
      return true;
  return false;
}

/* The status of the position `state` shows. The live position, and the last
 * one a replay can reach, have the row's status (an adjudicated game ended
 * outside the rules); an earlier one was in play unless the rules had ended
 * it, so ?at=N answers as the game stood after move N. */
static const char *position_status(const struct db_game *row, const struct engine_game *state,
                                   const struct position *p, bool replay)
{
  if (!replay || state->seq >= row->seq)
    return row->status;
  return p->result ? DB_STATUS_FINISHED : DB_STATUS_ACTIVE;
}

/* The options as stored, or nothing when they cannot be read (as before:
 * the member was left out). */
/* The options as stored: game_new and the import (export.c) store them as
 * json_dumps(JSON_COMPACT | JSON_SORT_KEYS) writes them, which is what
 * jw_json writes of them parsed, and the games table's trigger keeps them
 * from changing; so they are copied, not parsed on every view (issue 22). */
static void write_options(struct json_writer *w, const struct db_game *row)
{
  const char *options = row->options_json ? row->options_json : "{}";

  jw_key(w, "options");
  jw_raw(w, options, strlen(options));
}

/* The rules' result, or a timeout adjudication's: that ends a game outside
 * the rules, so its result is the game row's, and only the row's own (last)
 * position carries it. */
static void write_result(struct json_writer *w, const struct db_game *row,
                         const struct engine_game *state, const struct position *p, bool replay)
{
  json_t *adjudicated = NULL;

  if (!p->result && row->result_json && (!replay || state->seq >= row->seq))
    adjudicated = json_loads(row->result_json, 0, NULL);
  jw_json(w, p->result ? p->result : adjudicated);
  json_decref(adjudicated);
}

json_t *api_time_control_json(const struct db_game *row)
{
  return row->move_ms ? json_pack("{s:f}", "move_hours", (double)row->move_ms / 3600000.0)
         : row->base_ms
             ? json_pack("{s:f, s:f, s:f}", "base_hours", (double)row->base_ms / 3600000.0,
                         "increment_hours", (double)row->increment_ms / 3600000.0, "cap_hours",
                         (double)row->cap_ms / 3600000.0)
             : json_null();
}

static void write_time_control(struct json_writer *w, const struct db_game *row)
{
  json_t *tc = api_time_control_json(row);

  if (!tc)
    w->failed = true;
  jw_json(w, tc);
  json_decref(tc);
}

static void write_clocks(struct json_writer *w, const struct api_request *req,
                         const struct db_game *row)
{
  json_t *clocks = NULL;
  json_t *deadline = api_deadline_json(req->server, row, &clocks);

  jw_key(w, "deadline");
  jw_json(w, deadline);
  jw_key(w, "clocks");
  jw_json(w, clocks);
  json_decref(deadline);
  json_decref(clocks);
}

/* `?legal=`: "list" (the default while clients move over, issue 24) writes
 * the old list beside `choices`; "none" leaves it out, the compact view. */
static enum cairn_status legal_form(const struct api_request *req, bool *list,
                                    struct cairn_error *err)
{
  const char *text = NULL;
  size_t len = 0;

  *list = true;
  if (!req->connection || MHD_lookup_connection_value_n(req->connection, MHD_GET_ARGUMENT_KIND,
                                                        "legal", 5, &text, &len) != MHD_YES)
    return CAIRN_OK;
  if (text && len == 4 && memcmp(text, "list", 4) == 0)
    return CAIRN_OK;
  if (text && len == 4 && memcmp(text, "none", 4) == 0) {
    *list = false;
    return CAIRN_OK;
  }
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                    "query parameter \"legal\" must be \"list\" or \"none\"");
}

void api_write_game(struct json_writer *w, const struct api_request *req, const struct db_game *row,
                    const struct engine_game *state, bool replay)
{
  struct cairn_error ignored = {0};
  bool list = true;
  bool finished = strcmp(row->status, DB_STATUS_FINISHED) == 0;
  int seat = api_viewer_seat(req, row);
  /* A finished game hides nothing: its seed is out, so anyone could rebuild
   * every hidden card anyway. */
  int viewer = finished ? ENGINE_OMNISCIENT : seat;
  struct position p;
  const char *status;
  char created[API_TIME_TEXT];

  read_position(state, &p);
  status = position_status(row, state, &p, replay);

  jw_object_begin(w);
  jw_key_string(w, "id", row->id);
  jw_key_string(w, "title", row->title);
  jw_key_string(w, "rules_version", row->rules_version);
  jw_key_string(w, "status", status);
  jw_key_int(w, "seq", state->seq);
  jw_key_int(w, "moves", row->moves);
  write_options(w, row);
  api_time_text(row->created_ms, created);
  jw_key_string(w, "created_at", created);
  jw_key(w, "seats");
  write_seats(w, row);
  jw_key(w, "to_act");
  jw_int_array(w, p.to_act, strcmp(status, DB_STATUS_ACTIVE) == 0 ? (size_t)p.n_to_act : 0);
  jw_key(w, "your_seat");
  if (seat >= 0)
    jw_int(w, seat);
  else
    jw_null(w);
  /* Who may cancel it, while that can be done (issue 25). */
  if (strcmp(status, DB_STATUS_OPEN) == 0 && row->creator[0])
    jw_key_string(w, "creator", row->creator);
  jw_key(w, "view");
  engine_write_view(state, viewer, w);
  jw_key(w, "result");
  write_result(w, row, state, &p, replay);
  jw_key(w, "seed_commitment");
  write_seed_commitment(w, row);
  if (replay) {
    jw_key_int(w, "at", state->seq);
  } else {
    /* Publishing the chain's head lets anyone pin the log as it stands. */
    jw_key(w, "log_head");
    jw_hex(w, row->log_head, sizeof(row->log_head));
  }
  jw_key(w, "time_control");
  write_time_control(w, row);
  jw_key_string(w, "on_timeout", row->on_timeout[0] ? row->on_timeout : "move");
  write_clocks(w, req, row);
  if (finished) {
    jw_key(w, "seed");
    jw_hex(w, row->seed, sizeof(row->seed));
  }
  jw_key_bool(w, "imported", row->imported);
  jw_key(w, "signer");
  write_signer(w, req->server, row);
  if (!replay && seat >= 0 && strcmp(row->status, DB_STATUS_ACTIVE) == 0 &&
      owes_decision(&p, seat)) {
    (void)legal_form(req, &list, &ignored); /* refused before, where it is asked */
    jw_key(w, "choices");
    engine_write_choices(state, seat, w);
    if (list) {
      jw_key(w, "legal");
      engine_write_legal(state, seat, w);
    }
  }
  jw_object_end(w);
  json_decref(p.result);
}

enum cairn_status api_answer_json(struct api_response *resp, unsigned int status,
                                  struct json_writer *w, struct cairn_error *err)
{
  resp->json_text = jw_finish(w, &resp->json_len);
  if (!resp->json_text)
    return cairn_fail(err, CAIRN_ENOMEM, CAIRN_CODE_OUT_OF_MEMORY, NULL, "out of memory");
  resp->status = status;
  return CAIRN_OK;
}

enum cairn_status api_answer_game(struct api_response *resp, unsigned int status,
                                  const struct api_request *req, const struct db_game *row,
                                  const struct engine_game *state, bool replay,
                                  struct cairn_error *err)
{
  struct json_writer w;

  jw_init(&w);
  api_write_game(&w, req, row, state, replay);
  return api_answer_json(resp, status, &w, err);
}

static const struct api_field create_fields[] = {
    {"title", API_STRING, true},
    {"seats", API_INT, true},
    {"options", API_OBJECT, false},
    {"bots", API_ANY, false},
    {"time_control", API_OBJECT, false},
    {"on_timeout", API_STRING, false},
    {"seat", API_INT, false},
    {"invite", API_ANY, false},
    {NULL, 0, false},
};

/* `seat` (issue 25): the seat the creator takes in the same call, one of
 * the game's and not a bot's; -1 when absent. */
static enum cairn_status read_own_seat(const json_t *doc, const struct db_game *row,
                                       const int levels[ENGINE_MAX_SEATS], int *seat,
                                       struct cairn_error *err)
{
  const json_t *v = json_object_get(doc, "seat");
  json_int_t wanted;

  *seat = -1;
  if (!v)
    return CAIRN_OK;
  wanted = json_integer_value(v);
  if (wanted < 0 || wanted >= row->seats || levels[wanted] != GAME_NO_BOT)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "seat must be 0 to %d and not one of bots", row->seats - 1);
  *seat = (int)wanted;
  return CAIRN_OK;
}

/* One `invite` entry {seat, player}: a seat of the game that is neither a
 * bot's nor the creator's nor kept already, for a player other than the
 * creator not invited already. Storage checks the player exists. */
static enum cairn_status read_invitation(const json_t *entry, const char *creator,
                                         const int levels[ENGINE_MAX_SEATS], int own_seat,
                                         struct db_game *row, struct cairn_error *err)
{
  const json_t *seat_v = json_object_get(entry, "seat");
  const char *player = json_string_value(json_object_get(entry, "player"));
  json_int_t seat = json_integer_value(seat_v);
  int i;

  if (!json_is_object(entry) || !json_is_integer(seat_v) || !player || json_object_size(entry) != 2)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "invite: each entry must be {\"seat\": n, \"player\": \"id\"}");
  if (seat < 0 || seat >= row->seats || levels[seat] != GAME_NO_BOT || seat == own_seat ||
      row->seat_invited[seat][0])
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "invite: seat %lld is not a free seat of this game (0 to %d, not a bot's, "
                      "not yours, not kept already)",
                      (long long)seat, row->seats - 1);
  if (!player[0] || strlen(player) > DB_ID_MAX || strcmp(player, creator) == 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "invite: player must be another player's id");
  for (i = 0; i < row->seats; i++)
    if (strcmp(row->seat_invited[i], player) == 0)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                        "invite: player %s is invited twice", player);
  snprintf(row->seat_invited[seat], sizeof(row->seat_invited[seat]), "%s", player);
  return CAIRN_OK;
}

/* `invite` (issue 25): seats kept for named players, [{seat, player}...],
 * into row->seat_invited. */
static enum cairn_status read_invitations(const json_t *doc, const char *creator,
                                          const int levels[ENGINE_MAX_SEATS], int own_seat,
                                          struct db_game *row, struct cairn_error *err)
{
  const json_t *list = json_object_get(doc, "invite");
  const json_t *entry;
  enum cairn_status st = CAIRN_OK;
  size_t i;

  if (!list)
    return CAIRN_OK;
  if (!json_is_array(list))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "field \"invite\" must be an array of {seat, player}");
  json_array_foreach(list, i, entry)
  {
    if (st == CAIRN_OK)
      st = read_invitation(entry, creator, levels, own_seat, row, err);
  }
  return st;
}

/* Storage refuses an invitation of a player it does not know (it names
 * them): the client's bad value. */
static enum cairn_status unknown_invitee(enum cairn_status st, const struct db_game *row,
                                         struct cairn_error *err)
{
  char said[sizeof(err->detail)];
  bool invites = false;
  int i;

  for (i = 0; i < row->seats; i++)
    invites = invites || row->seat_invited[i][0];
  if (st != CAIRN_ENOTFOUND || !invites)
    return st;
  snprintf(said, sizeof(said), "%s", err->detail);
  return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL, "invite: %s", said);
}

/* The creator takes `seat` of the game just created: a join like any other
 * (game_join), its own commit, since a join that fills the last seat
 * starts the game with its clocks, webhooks and bots (game_commit); then
 * the row as the join left it. Between the two commits another player who
 * found the game in the lobby may take that very seat: the creator is then
 * answered seat-taken like any joiner, and the game stays open. */
static enum cairn_status take_own_seat(struct api_request *req, struct db_game *row, int seat,
                                       struct cairn_error *err)
{
  json_int_t wanted = seat;
  char id[DB_ID_MAX + 1];
  int taken = -1;
  enum cairn_status st;

  snprintf(id, sizeof(id), "%s", row->id);
  st = game_join(req->server->game, id, &req->player, &wanted, &taken, err);
  if (st != CAIRN_OK)
    return st;
  db_game_clear(row);
  return game_load(req->server->game, id, row, err);
}

/* One entry of `bots`: a seat number (a random bot, the form before
 * levels) or {"seat": n, "level": "random" | "easy" | "strong"}. */
static enum cairn_status read_bot_entry(const json_t *v, int seats, int *seat, int *level,
                                        struct cairn_error *err)
{
  const json_t *s = json_is_object(v) ? json_object_get(v, "seat") : v;
  const json_t *l = json_is_object(v) ? json_object_get(v, "level") : NULL;
  enum bot_level named = BOT_RANDOM;
  const char *key;
  const json_t *ignored;

  if (json_is_object(v))
    json_object_foreach((json_t *)v, key, ignored)
    {
      if (strcmp(key, "seat") != 0 && strcmp(key, "level") != 0)
        return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                          "bots: unknown field \"%s\" in an entry (seat, level)", key);
    }
  if (!json_is_integer(s) || json_integer_value(s) < 0 || json_integer_value(s) >= seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "bots: each entry must be a distinct seat from 0 to %d", seats - 1);
  if (l && (!json_is_string(l) || !bot_level_named(json_string_value(l), &named)))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "bots: level must be \"random\", \"easy\" or \"strong\"");
  *seat = (int)json_integer_value(s);
  *level = named;
  return CAIRN_OK;
}

/* `bots`: distinct seats of this game, leaving at least one for a person;
 * levels[seat] is each bot's level, GAME_NO_BOT for a person's seat. */
static enum cairn_status read_bot_seats(const json_t *doc, int seats, int levels[ENGINE_MAX_SEATS],
                                        struct cairn_error *err)
{
  const json_t *list = json_object_get(doc, "bots");
  const json_t *v;
  size_t i;
  int seat = 0, level = GAME_NO_BOT;

  for (seat = 0; seat < ENGINE_MAX_SEATS; seat++)
    levels[seat] = GAME_NO_BOT;
  if (!list)
    return CAIRN_OK;
  if (!json_is_array(list))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_WRONG_TYPE, NULL,
                      "field \"bots\" must be an array of seats");
  if ((int)json_array_size(list) >= seats)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "bots: at least one seat must be left for a person");
  json_array_foreach(list, i, v)
  {
    enum cairn_status st = read_bot_entry(v, seats, &seat, &level, err);

    if (st != CAIRN_OK)
      return st;
    if (levels[seat] != GAME_NO_BOT)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                        "bots: each entry must be a distinct seat from 0 to %d", seats - 1);
    levels[seat] = level;
  }
  return CAIRN_OK;
}

/* Hours as milliseconds: a number above 0, at most a year. */
static bool hours_ms(const json_t *v, int64_t *ms)
{
  if (!json_is_number(v) || json_number_value(v) <= 0 || json_number_value(v) > 24 * 366)
    return false;
  *ms = (int64_t)(json_number_value(v) * 3600000.0);
  return true;
}

/* `time_control`: {"move_hours": h} (every decision gets h), or a pace
 * {"base_hours": b, "increment_hours": i, "cap_hours": c} (i may be 0, c at
 * least b); `on_timeout`: "move" (default), "adjudicate" or "wait" (issue 25:
 * game/replace.c). */
static enum cairn_status read_time_control(const json_t *doc, struct db_game *row,
                                           struct cairn_error *err)
{
  const json_t *tc = json_object_get(doc, "time_control");
  const char *on_timeout = json_string_value(json_object_get(doc, "on_timeout"));
  const char *key;
  const json_t *v;

  snprintf(row->on_timeout, sizeof(row->on_timeout), "%s", on_timeout ? on_timeout : "move");
  if (strcmp(row->on_timeout, "move") != 0 && strcmp(row->on_timeout, "adjudicate") != 0 &&
      strcmp(row->on_timeout, "wait") != 0)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "on_timeout must be \"move\", \"adjudicate\" or \"wait\"");
  if (!tc)
    return CAIRN_OK;
  json_object_foreach((json_t *)tc, key, v)
  {
    if (strcmp(key, "move_hours") != 0 && strcmp(key, "base_hours") != 0 &&
        strcmp(key, "increment_hours") != 0 && strcmp(key, "cap_hours") != 0)
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_UNKNOWN_FIELD, NULL,
                        "unknown field \"time_control.%.40s\"", key);
  }
  if (json_object_get(tc, "move_hours")) {
    if (json_object_size(tc) != 1 || !hours_ms(json_object_get(tc, "move_hours"), &row->move_ms))
      return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                        "time_control.move_hours: hours above 0, at most a year, alone");
    return CAIRN_OK;
  }
  if (!hours_ms(json_object_get(tc, "base_hours"), &row->base_ms) ||
      !hours_ms(json_object_get(tc, "cap_hours"), &row->cap_ms) || row->cap_ms < row->base_ms)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "time_control: give move_hours, or base_hours and cap_hours (cap at least "
                      "base) with an optional increment_hours");
  v = json_object_get(tc, "increment_hours");
  if (v && !(json_is_number(v) && json_number_value(v) == 0) && !hours_ms(v, &row->increment_ms))
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_VALUE, NULL,
                      "time_control.increment_hours: hours from 0 to a year");
  return CAIRN_OK;
}

/* An abuse limit: one player cannot pile up unfinished games. */
static enum cairn_status check_game_cap(struct api_request *req, struct cairn_error *err)
{
  int count = 0;
  enum cairn_status st;

  if (req->server->max_open_games <= 0)
    return CAIRN_OK;
  st = db_games_unfinished_by(req->server->db, req->player.id, &count, err);
  if (st == CAIRN_OK && count >= req->server->max_open_games)
    st = cairn_fail(err, CAIRN_ECONFLICT, CAIRN_CODE_TOO_MANY_GAMES, NULL,
                    "you have %d unfinished games; finish some before creating more", count);
  return st;
}

/* Store the new game `row` with its bots and start position `state`
 * (taken), seat its creator in `own_seat` (-1: none), and answer 201 with
 * the game. */
static enum cairn_status store_new_game(struct api_request *req, struct api_response *resp,
                                        struct db_game *row, const int levels[ENGINE_MAX_SEATS],
                                        struct engine_game *state, int own_seat,
                                        struct cairn_error *err)
{
  const struct engine_game *start = NULL;
  enum cairn_status st;

  /* The cap is counted and the game stored under one lock: 50 concurrent
   * creates by one player each counted 0 before any was stored. */
  pthread_mutex_lock(&req->server->caps_lock);
  st = check_game_cap(req, err);
  if (st == CAIRN_OK)
    st = unknown_invitee(game_create_leveled(req->server->game, row, levels, state, err), row, err);
  else
    engine_free(state);
  pthread_mutex_unlock(&req->server->caps_lock);
  if (st == CAIRN_OK)
    api_webhooks_invite(req->server, row);
  if (st == CAIRN_OK && own_seat >= 0)
    st = take_own_seat(req, row, own_seat, err);
  if (st != CAIRN_OK)
    return st;
  /* The start position is the cache's now; the answer reads it under the
   * lock like any view. */
  game_lock(req->server->game, row->id);
  st = game_live_get(req->server->game, row, &start, err);
  if (st == CAIRN_OK)
    st = api_answer_game(resp, 201, req, row, start, false, err);
  game_unlock(req->server->game, row->id);
  return st;
}

enum cairn_status api_games_create(struct api_request *req, struct api_response *resp,
                                   struct cairn_error *err)
{
  int bot[ENGINE_MAX_SEATS];
  struct db_game row = {0};
  struct engine_game *state = NULL;
  json_t *doc = NULL;
  int own_seat = -1;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = api_body_object(req, create_fields, false, &doc, err);
  if (st != CAIRN_OK)
    goto cleanup;
  /* The title checks its options in building the start position, which
   * is cached for the first move. */
  st = game_new(req->server->game, json_string_value(json_object_get(doc, "title")),
                json_integer_value(json_object_get(doc, "seats")), json_object_get(doc, "options"),
                req->player.id, &row, &state, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = read_bot_seats(doc, row.seats, bot, err);
  if (st == CAIRN_OK)
    st = read_time_control(doc, &row, err);
  if (st == CAIRN_OK)
    st = read_own_seat(doc, &row, bot, &own_seat, err);
  if (st == CAIRN_OK)
    st = read_invitations(doc, req->player.id, bot, own_seat, &row, err);
  if (st == CAIRN_OK) {
    st = store_new_game(req, resp, &row, bot, state, own_seat, err);
    state = NULL; /* taken */
  }
cleanup:
  engine_free(state);
  json_decref(doc);
  db_game_clear(&row);
  return st;
}

/* A rematch takes no body (or {}). */
static const struct api_field rematch_fields[] = {
    {NULL, 0, false},
};

/* POST /v1/games/{id}/rematch (issue 25): a new game planned from the
 * finished one (game_rematch_plan: seats moved one along, the other people
 * invited, bots kept), stored as any new game, the asker seated. */
enum cairn_status api_games_rematch(struct api_request *req, struct api_response *resp,
                                    struct cairn_error *err)
{
  int bot[ENGINE_MAX_SEATS];
  struct db_game old = {0}, row = {0};
  struct engine_game *state = NULL;
  json_t *doc = NULL;
  int own_seat = -1;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st == CAIRN_OK)
    st = api_body_object(req, rematch_fields, true, &doc, err);
  if (st == CAIRN_OK)
    st = api_load_game(req, &old, err);
  if (st == CAIRN_OK)
    st = game_rematch_plan(req->server->game, &old, req->player.id, &row, bot, &own_seat, &state,
                           err);
  if (st == CAIRN_OK) {
    st = store_new_game(req, resp, &row, bot, state, own_seat, err);
    state = NULL; /* taken */
  }
  engine_free(state);
  json_decref(doc);
  db_game_clear(&old);
  db_game_clear(&row);
  return st;
}

enum cairn_status api_games_get(struct api_request *req, struct api_response *resp,
                                struct cairn_error *err)
{
  struct db_game row = {0};
  struct engine_game *past = NULL;
  const struct engine_game *state = NULL;
  uint32_t at = 0, rows = 0;
  bool has_at = false;
  enum cairn_status st;

  bool list;

  st = api_query_uint(req, "at", &at, &has_at, err);
  if (st == CAIRN_OK)
    st = legal_form(req, &list, err);
  if (st != CAIRN_OK)
    return st;
  st = api_load_game(req, &row, err);
  if (st != CAIRN_OK)
    goto cleanup;
  if (has_at && at > row.seq) {
    st = cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL,
                    "game %s has no position %u: its seq is %u", row.id, at, row.seq);
    goto cleanup;
  }
  if (has_at) {
    /* Historical positions are rebuilt from the log on every request:
     * correct by construction; snapshots can speed this up later. */
    st = game_replay(req->server->game, &row, &at, &past, &rows, err);
    if (st == CAIRN_OK)
      st = api_answer_game(resp, 200, req, &row, past, true, err);
  } else {
    game_lock(req->server->game, row.id);
    st = game_live_get(req->server->game, &row, &state, err);
    if (st == CAIRN_OK)
      st = api_answer_game(resp, 200, req, &row, state, false, err);
    game_unlock(req->server->game, row.id);
  }
cleanup:
  engine_free(past);
  db_game_clear(&row);
  return st;
}

static const struct api_field join_fields[] = {
    {"seat", API_INT, false},
    {NULL, 0, false},
};

enum cairn_status api_games_join(struct api_request *req, struct api_response *resp,
                                 struct cairn_error *err)
{
  json_t *doc = NULL;
  const json_t *wanted;
  json_int_t seat_wanted = 0;
  int seat = -1;
  enum cairn_status st;

  st = api_require_player(req, err);
  if (st != CAIRN_OK)
    goto cleanup;
  st = api_body_object(req, join_fields, true, &doc, err);
  if (st != CAIRN_OK)
    goto cleanup;
  wanted = json_object_get(doc, "seat");
  if (wanted)
    seat_wanted = json_integer_value(wanted);
  st =
      game_join(req->server->game, req->id, &req->player, wanted ? &seat_wanted : NULL, &seat, err);
  if (st != CAIRN_OK)
    goto cleanup;
  resp->status = 200;
  resp->body = json_pack("{s:i}", "seat", seat);
cleanup:
  json_decref(doc);
  return st;
}
