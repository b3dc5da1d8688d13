/*
 * profiles.c - what others may know of a player's play (issue 25):
 * GET /v1/players/{id} (the player's name and, per title, its rating and
 * rated games, wins, draws and losses) and GET /v1/leaderboards/{title}
 * (a title's players by rating, paginated). Ratings are written by the
 * end of each rated game (game/ratings.c, docs/ratings.md); this file
 * only reads them. A rating is public, as on every site players come
 * from: it says how a player's finished games went, nothing of a live one.
 */
#include "api.h"

#include <stdio.h>
#include <string.h>

#define BOARD_DEFAULT 50     /* players per leaderboard page */
#define BOARD_MAX     100    /* the most a page may ask for */
#define BOARD_DEPTH   100000 /* offsets past this are refused: a page costs its offset */

/* New reference: one rating as the API shows it. `rating` is the ordinal
 * (mu - 3 sigma): what a player's strength is known to be at least, with
 * little doubt, which is what the leaderboard sorts by. */
static json_t *rating_json(const struct db_rating *r)
{
  return json_pack("{s:s, s:f, s:f, s:f, s:i, s:i, s:i, s:i, s:o}", "title", r->title, "rating",
                   r->ordinal, "mu", r->mu, "sigma", r->sigma, "games", r->games, "wins", r->wins,
                   "draws", r->draws, "losses", r->losses, "updated_at",
                   api_time_json(r->updated_ms));
}

static enum cairn_status add_rating(void *arg, const struct db_rating *r, struct cairn_error *err)
{
  (void)err;
  json_array_append_new(arg, rating_json(r));
  return CAIRN_OK;
}

enum cairn_status api_players_profile(struct api_request *req, struct api_response *resp,
                                      struct cairn_error *err)
{
  struct db_player player;
  json_t *ratings = json_array();
  enum cairn_status st;

  st = db_player_get(req->server->db, req->id, &player, err);
  if (st == CAIRN_OK)
    st = db_ratings_of(req->server->db, player.id, add_rating, ratings, err);
  if (st == CAIRN_OK) {
    resp->status = 200;
    resp->body =
        json_pack("{s:s, s:s, s:O}", "id", player.id, "name", player.name, "ratings", ratings);
  }
  json_decref(ratings);
  return st;
}

struct board {
  json_t *players;
  int rank; /* the next entry's place: offset + 1, 2, ... */
};

static enum cairn_status add_entry(void *arg, const struct db_rating *r, struct cairn_error *err)
{
  struct board *b = arg;
  json_t *entry = rating_json(r);

  (void)err;
  json_object_del(entry, "title");
  json_object_set_new(entry, "rank", json_integer(b->rank++));
  json_object_set_new(entry, "player", json_pack("{s:s, s:s}", "id", r->player, "name", r->name));
  json_array_append_new(b->players, entry);
  return CAIRN_OK;
}

enum cairn_status api_leaderboard_get(struct api_request *req, struct api_response *resp,
                                      struct cairn_error *err)
{
  uint32_t offset = 0, limit = BOARD_DEFAULT;
  struct board b = {0};
  bool present;
  enum cairn_status st;

  if (!engine_find(req->id))
    return cairn_fail(err, CAIRN_ENOTFOUND, CAIRN_CODE_NOT_FOUND, NULL, "no title %s", req->id);
  st = api_query_uint(req, "offset", &offset, &present, err);
  if (st == CAIRN_OK)
    st = api_query_uint(req, "limit", &limit, &present, err);
  if (st != CAIRN_OK)
    return st;
  if (limit < 1 || limit > BOARD_MAX || offset > BOARD_DEPTH)
    return cairn_fail(err, CAIRN_EINVAL, CAIRN_CODE_BAD_QUERY, NULL,
                      "limit must be 1 to %d and offset at most %d", BOARD_MAX, BOARD_DEPTH);
  b.players = json_array();
  b.rank = (int)offset + 1;
  /* One more than asked for says whether a next page exists. */
  st = db_leaderboard(req->server->db, req->id, (int)offset, (int)limit + 1, add_entry, &b, err);
  if (st == CAIRN_OK) {
    bool more = json_array_size(b.players) > limit;

    if (more)
      json_array_remove(b.players, limit);
    resp->status = 200;
    resp->body = json_pack("{s:s, s:O, s:o}", "title", req->id, "players", b.players, "next",
                           more ? json_integer(offset + limit) : json_null());
  }
  json_decref(b.players);
  return st;
}
