/*
 * notify.h - game notifications for long-poll and SSE clients (notify.c).
 * Every function is safe to call from any thread.
 */
#ifndef API_NOTIFY_H
#define API_NOTIFY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../db/db.h"
#include "../engine/engine.h"

struct MHD_Connection;
struct api_notify;
struct api_stream;

/* The hub, with its timer thread. NULL when out of resources. Stop it
 * (api_notify_stop) before stopping the HTTP daemon, free it after. */
struct api_notify *api_notify_new(int64_t (*now_ms)(void));
void api_notify_stop(struct api_notify *hub);
void api_notify_free(struct api_notify *hub);

/* Announce that `row` (borrowed) changed; to_act[0..n_to_act) (borrowed)
 * are the seats that owe a decision now, as the game layer read them once
 * for the change (none unless the game is active). */
void api_notify_publish(struct api_notify *hub, const struct db_game *row, const int *to_act,
                        int n_to_act);

/* Another node changed `game` (to `seq`): true when a client here may
 * care (a long-poll or a stream of that game, or any player's stream,
 * whose games the hub does not know), so the change must be published
 * (game_remote_change). False otherwise, and then the hub only notes the
 * seq, so a long-poll that looked at the game before the change and parks
 * after it still answers at once (api_notify_wait): nobody misses it, and
 * a change nobody here watches costs this node no storage read. */
bool api_notify_heed(struct api_notify *hub, const char *game, uint32_t seq);

/* Changes may have been missed (the node lost its connection to the other
 * nodes' changes, and has it again): every parked long-poll is woken to
 * look at its game again (and waits on if it has not moved), and every
 * stream is sent `event: resync`, which tells its client that events were
 * lost and to fetch what it shows again. */
void api_notify_resync(struct api_notify *hub);

/* New reference: the public notification object {game, seq, status, to_act}. */
json_t *api_notice_json(const char *game, uint32_t seq, const char *status, const int *to_act,
                        int n_to_act);

/* Park `conn` until `game` passes seq `after` or `deadline_ms`; false when
 * it should not wait (the game moved on already, or the hub is stopping):
 * answer at once then. */
bool api_notify_wait(struct api_notify *hub, struct MHD_Connection *conn, const char *game,
                     uint32_t after, int64_t deadline_ms);

/* Drop any wait of `conn` on `game` (its request ended). */
void api_notify_forget(struct api_notify *hub, struct MHD_Connection *conn, const char *game);
/* After api_notify_stop: true once every long-poll it woke has been
 * answered and every stream has ended, so the server may close its
 * connections without cutting an answer short. */
bool api_notify_settled(struct api_notify *hub);
/* The clients waiting now: parked long-polls and open SSE streams (for
 * GET /metrics). A NULL hub has none. */
void api_notify_counts(struct api_notify *hub, int *long_polls, int *streams);

/* What a stream that carries its subscriber's view renders with
 * (?view=1, issue 24): render(ctx, game, viewer) gives a new string
 * (free()), the game object GET /v1/games/{id} answers `viewer` (a player
 * id; "" for a spectator) as the game stands, or NULL when it cannot. It
 * is called with no lock of the hub held, on the stream's polling thread. */
typedef char *(*api_view_fn)(void *ctx, const char *game, const char *viewer);
struct api_stream_view {
  api_view_fn render;
  void *ctx;                  /* borrowed for the stream's life */
  char viewer[DB_ID_MAX + 1]; /* the subscriber: a player id, or "" */
};

/* An SSE stream of one game (`game`) or of a player's games (`player`),
 * resuming after event `last_id` (0: from now). With `view` (copied; NULL
 * for none) each event also carries, as `state`, the game as its
 * subscriber may see it (render). Closed by api_stream_close, which the
 * response's free callback calls. */
struct api_stream *api_stream_open(struct api_notify *hub, struct MHD_Connection *conn,
                                   const char *game, const char *player, uint64_t last_id,
                                   const struct api_stream_view *view);
void api_stream_close(struct api_stream *stream);

/* libmicrohttpd content reader for a stream. */
ssize_t api_stream_read(void *cls, uint64_t pos, char *buf, size_t max);

/* ---- chat (issue 25) ---- */

/* Announce that message `n` of `row`'s chat channel `channel` (DB_CHAT_*)
 * was posted, or `deleted`: SSE streams get `event: chat` {game, channel,
 * n, deleted} (the players' channel only on streams of its seated players)
 * and the game's long-polls are woken. */
void api_notify_chat(struct api_notify *hub, const struct db_game *row, int channel, uint32_t n,
                     bool deleted);

/* Invitations answered (issue 25). An invitation to seat `seat` of
 * `row` (as it stands) was declined: `event: invitation` {game, seat,
 * declined: true}, never naming who declined, on the game's streams and
 * on the player streams of its seated players and its creator. */
void api_notify_declined(struct api_notify *hub, const struct db_game *row, int seat);

/* `row` was cancelled (its status says so; its seats as they were): the
 * game notice on the game's streams and long-polls and on the player
 * streams of its seated players, of the players it kept seats for
 * (`invited`, one per seat, "" for none: the row as it was before) and of
 * its creator. */
void api_notify_cancelled(struct api_notify *hub, const struct db_game *row,
                          const char (*invited)[DB_ID_MAX + 1]);

/* The notice of the cancelled `row` for the player streams of `player`
 * alone: the cancel of another node reaches the rest here as a change of
 * the game (api_invitation_remote). */
void api_notify_cancelled_to(struct api_notify *hub, const struct db_game *row, const char *player);

/* Is a client here waiting on `game`: a long-poll or a stream of it, or
 * any player's stream (whose games the hub does not know)? Another node's
 * chat message is worth a storage read only then. Notes nothing. */
bool api_notify_cares(struct api_notify *hub, const char *game);

/* A game's stream is read by `player` (a seated one hears of the players'
 * chat channel); NULL or "" for a reader without a token. */
void api_stream_set_viewer(struct api_stream *stream, const char *player);

#endif
