/*
 * notify.c - telling clients that a game moved on, without a thread per
 * waiting client.
 *
 * Every committed change publishes one notification, "game X is now at seq
 * N, these seats to act, this status", into a ring of the most recent ones
 * with increasing ids. Clients then fetch their own view, so hidden
 * information keeps one sanitising path (the view), and a notification
 * never carries more than what every spectator may know.
 *
 * Two ways to wait, both on suspended libmicrohttpd connections (no thread
 * is held while a client waits):
 *   long-poll  GET /v1/games/{id}/wait?after=N&timeout=S answers as soon as
 *              the game's seq passes N, or when S seconds have gone by;
 *   SSE        GET /v1/games/{id}/events and GET /v1/players/me/events
 *              stream the notifications of one game, or of every game the
 *              player is seated in; `Last-Event-ID` resumes after the last
 *              event the client saw, and a client that fell further behind
 *              than the ring reaches gets a "resync" event.
 * A timer thread resumes long-polls whose time is up and sends SSE
 * keep-alive comments, which is also how dead SSE clients are noticed.
 *
 * On request (?view=1, issue 24) a stream's events also carry the game as
 * its subscriber may see it (`state`), rendered per stream through the
 * same sanitising path as GET /v1/games/{id} (api_write_game: the
 * subscriber's seat's view, or a spectator's), never from anything the
 * hub holds, so the ring itself still carries nothing secret.
 */
#include "api.h"
#include "notify.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define RING_SIZE 4096 /* notifications kept for Last-Event-ID */
#define SEQ_SLOTS 4096 /* latest seq per game, direct-mapped */
/* Waiting clients are kept in chains by the game (or, for a player's
 * stream, the player) they watch, so a publish visits the chains of its
 * game and its seated players, not every waiting client: with 10,000 idle
 * clients every move walked all of them under the hub's lock, and every
 * finished request walked every long-poll (issue 22). */
#define WATCH_SLOTS       4096
#define KEEPALIVE_MS      20000
#define TIMER_INTERVAL_MS 100

struct notice {
  uint64_t id; /* 0: empty */
  char game[DB_ID_MAX + 1];
  uint32_t seq;
  char status[DB_STATUS_MAX + 1];
  int to_act[ENGINE_MAX_SEATS];
  int n_to_act;
  /* Whose player streams hear it (the player filter): who sits in the game;
   * for an invitation's notice (issue 25) its invitees and creator too. */
  char players[ENGINE_MAX_SEATS + 1][DB_ID_MAX + 1];
  int seats; /* entries of players */
  /* A chat notice (issue 25): 0 for a game notice, else 1 + the channel
   * (DB_CHAT_*) whose message chat_n was posted (or deleted) */
  int chat;
  uint32_t chat_n;
  bool chat_deleted;
  /* An invitation declined (issue 25): 1 + the seat kept, 0 otherwise */
  int declined;
  /* Heard by the players' streams only, not by the game's own streams and
   * long-polls (api_notify_cancelled_to) */
  bool players_only;
};

struct waiter {
  struct MHD_Connection *conn;
  char game[DB_ID_MAX + 1];
  int64_t deadline_ms;
  struct waiter *next;
};

struct api_stream {
  struct api_notify *hub;
  struct MHD_Connection *conn;
  uint32_t slot;              /* its chain in hub->streams: of `game`, or else of `player` */
  char game[DB_ID_MAX + 1];   /* one game's stream, or "" */
  char player[DB_ID_MAX + 1]; /* one player's games, or "" */
  char viewer[DB_ID_MAX + 1]; /* a game's stream: who opened it ("" anonymous), for chat */
  uint64_t cursor;            /* the last notification id sent */
  int64_t last_write_ms;
  bool suspended;
  bool resync; /* the client asked for events the ring no longer has */
  /* With a view (?view=1): events are rendered outside the hub's lock,
   * one at a time, into `pending`, which may be longer than a write
   * buffer and is sent over as many reads as it takes. Only the stream's
   * own reads touch these. */
  bool with_view;
  struct api_stream_view view;
  char *pending;      /* owned: the rest of an event to send, or NULL */
  size_t pending_off; /* bytes of it sent */
  struct api_stream *next, *prev;
};

struct api_notify {
  pthread_mutex_t lock;
  struct notice ring[RING_SIZE];
  uint64_t next_id;
  struct {
    char game[DB_ID_MAX + 1];
    uint32_t seq;
  } latest[SEQ_SLOTS];
  struct waiter *waiters[WATCH_SLOTS];     /* long-polls, by game */
  struct api_stream *streams[WATCH_SLOTS]; /* streams, by game or by player */
  int player_streams;                      /* open streams of a player's games */
  /* Long-polls woken by api_notify_stop and not answered yet: each leaves
   * when its request completes (api_notify_forget), so a stop can wait for
   * their answers (api_notify_settled). */
  struct waiter *woken_at_stop;
  int64_t (*now_ms)(void);
  pthread_t timer;
  bool stopping;
};

static uint32_t slot_hash(const char *id)
{
  uint32_t h = 2166136261u;

  for (; *id; id++)
    h = (h ^ (uint8_t)*id) * 16777619u;
  return h;
}

static uint32_t watch_slot(const char *key)
{
  return slot_hash(key) % WATCH_SLOTS;
}

static void *timer_main(void *arg);

struct api_notify *api_notify_new(int64_t (*now_ms)(void))
{
  struct api_notify *hub = calloc(1, sizeof(*hub));

  if (!hub)
    return NULL;
  pthread_mutex_init(&hub->lock, NULL);
  hub->now_ms = now_ms;
  /* Ids keep growing across restarts (ms of start-up, times 1000), so a
   * client resuming with an id from before a restart is told to resync
   * rather than handed someone else's event numbering. */
  hub->next_id = (uint64_t)now_ms() * 1000;
  if (pthread_create(&hub->timer, NULL, timer_main, hub) != 0) {
    pthread_mutex_destroy(&hub->lock);
    free(hub);
    return NULL;
  }
  return hub;
}

/* Under hub->lock: resume every parked long-poll and suspended stream.
 * At a stop, a long-poll answers and is kept on woken_at_stop until it
 * has (api_notify_settled), and a stream ends; otherwise (a resync) a
 * long-poll's handler runs again, answering if its game moved on or
 * parking again until its own deadline, and a stream is told resync. */
static void wake_everyone(struct api_notify *hub, bool stopping)
{
  struct waiter *w;
  struct api_stream *s;
  size_t i;

  for (i = 0; i < WATCH_SLOTS; i++) {
    while ((w = hub->waiters[i])) {
      hub->waiters[i] = w->next;
      MHD_resume_connection(w->conn);
      if (stopping) {
        w->next = hub->woken_at_stop;
        hub->woken_at_stop = w;
      } else {
        free(w);
      }
    }
    for (s = hub->streams[i]; s; s = s->next) {
      s->resync = s->resync || !stopping;
      if (s->suspended) {
        s->suspended = false;
        MHD_resume_connection(s->conn);
      }
    }
  }
}

void api_notify_stop(struct api_notify *hub)
{
  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  hub->stopping = true;
  /* libmicrohttpd cannot stop with suspended connections: wake them all;
   * long-polls answer, streams end. */
  wake_everyone(hub, true);
  pthread_mutex_unlock(&hub->lock);
}

void api_notify_free(struct api_notify *hub)
{
  struct waiter *w;
  size_t i;

  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  hub->stopping = true;
  pthread_mutex_unlock(&hub->lock);
  pthread_join(hub->timer, NULL);
  for (i = 0; i < WATCH_SLOTS; i++)
    while ((w = hub->waiters[i])) {
      hub->waiters[i] = w->next;
      free(w);
    }
  while ((w = hub->woken_at_stop)) {
    hub->woken_at_stop = w->next;
    free(w);
  }
  pthread_mutex_destroy(&hub->lock);
  free(hub);
}

static bool stream_may_read(const struct api_stream *s, const struct notice *n);

static bool stream_wants(const struct api_stream *s, const struct notice *n)
{
  int i;

  if (!stream_may_read(s, n))
    return false;
  if (s->game[0])
    return !n->players_only && strcmp(s->game, n->game) == 0;
  for (i = 0; i < n->seats; i++)
    if (strcmp(n->players[i], s->player) == 0)
      return true;
  return false;
}

/* Wake the parked streams of chain `slot` that want `n`. Hub lock held. */
static void wake_streams(struct api_notify *hub, uint32_t slot, const struct notice *n)
{
  struct api_stream *s;

  for (s = hub->streams[slot]; s; s = s->next)
    if (s->suspended && stream_wants(s, n)) {
      s->suspended = false;
      MHD_resume_connection(s->conn);
    }
}

/* Wake every waiter and stream that cares about `n`: those in the chains
 * of its game and of its seated players. Hub lock held. */
static void wake_for(struct api_notify *hub, const struct notice *n)
{
  struct waiter **pw = &hub->waiters[watch_slot(n->game)];
  int i;

  while (*pw && !n->players_only) {
    struct waiter *w = *pw;

    if (strcmp(w->game, n->game) == 0) {
      *pw = w->next;
      MHD_resume_connection(w->conn);
      free(w);
    } else {
      pw = &w->next;
    }
  }
  wake_streams(hub, watch_slot(n->game), n);
  for (i = 0; i < n->seats; i++)
    if (n->players[i][0])
      wake_streams(hub, watch_slot(n->players[i]), n);
}

/* The next notice of the ring, about `row` as it stands, heard by its
 * seated players. Hub lock held. */
static struct notice *next_notice(struct api_notify *hub, const struct db_game *row)
{
  struct notice *n;
  int i;

  hub->next_id++;
  n = &hub->ring[hub->next_id % RING_SIZE];
  memset(n, 0, sizeof(*n));
  n->id = hub->next_id;
  snprintf(n->game, sizeof(n->game), "%s", row->id);
  snprintf(n->status, sizeof(n->status), "%s", row->status);
  n->seq = row->seq;
  n->seats = row->seats;
  for (i = 0; i < row->seats; i++)
    memcpy(n->players[i], row->seat_player[i], sizeof(n->players[i]));
  return n;
}

void api_notify_publish(struct api_notify *hub, const struct db_game *row, const int *to_act,
                        int n_to_act)
{
  struct notice *n;
  uint32_t h = slot_hash(row->id) % SEQ_SLOTS;

  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  n = next_notice(hub, row);
  n->n_to_act = n_to_act;
  memcpy(n->to_act, to_act, sizeof(n->to_act[0]) * (size_t)n_to_act);
  snprintf(hub->latest[h].game, sizeof(hub->latest[h].game), "%s", row->id);
  hub->latest[h].seq = row->seq;
  wake_for(hub, n);
  pthread_mutex_unlock(&hub->lock);
}

/* Is a long-poll or a stream of `game` itself parked or open? Hub lock held. */
static bool game_watched(struct api_notify *hub, const char *game)
{
  uint32_t slot = watch_slot(game);
  const struct waiter *w;
  const struct api_stream *s;

  for (w = hub->waiters[slot]; w; w = w->next)
    if (strcmp(w->game, game) == 0)
      return true;
  for (s = hub->streams[slot]; s; s = s->next)
    if (strcmp(s->game, game) == 0)
      return true;
  return false;
}

bool api_notify_heed(struct api_notify *hub, const char *game, uint32_t seq)
{
  uint32_t h = slot_hash(game) % SEQ_SLOTS;
  bool heed;

  if (!hub)
    return false;
  pthread_mutex_lock(&hub->lock);
  heed = hub->player_streams > 0 || game_watched(hub, game);
  /* Noted under the same hold of the lock as the look at the waiters: a
   * long-poll that parks after it sees the seq, one parked before it is
   * woken by the publish the caller makes. A seq older than the one noted
   * (another node's change heard after this node's later one) is not. */
  if (!heed && (strcmp(hub->latest[h].game, game) != 0 || hub->latest[h].seq < seq)) {
    snprintf(hub->latest[h].game, sizeof(hub->latest[h].game), "%s", game);
    hub->latest[h].seq = seq;
  }
  pthread_mutex_unlock(&hub->lock);
  return heed;
}

void api_notify_resync(struct api_notify *hub)
{
  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  wake_everyone(hub, false);
  pthread_mutex_unlock(&hub->lock);
}

json_t *api_notice_json(const char *game, uint32_t seq, const char *status, const int *to_act,
                        int n_to_act)
{
  json_t *seats = json_array();
  int i;

  for (i = 0; i < n_to_act; i++)
    json_array_append_new(seats, json_integer(to_act[i]));
  return json_pack("{s:s, s:I, s:s, s:o}", "game", game, "seq", (json_int_t)seq, "status", status,
                   "to_act", seats);
}

bool api_notify_wait(struct api_notify *hub, struct MHD_Connection *conn, const char *game,
                     uint32_t after, int64_t deadline_ms)
{
  uint32_t h = slot_hash(game) % SEQ_SLOTS;
  struct waiter *w;
  bool parked = false;

  pthread_mutex_lock(&hub->lock);
  if (hub->stopping)
    goto done;
  /* A publish between the caller's look at the game and now would be a
   * lost wake-up; the latest-seq table catches it. */
  if (strcmp(hub->latest[h].game, game) == 0 && hub->latest[h].seq > after)
    goto done;
  w = calloc(1, sizeof(*w));
  if (!w)
    goto done;
  w->conn = conn;
  snprintf(w->game, sizeof(w->game), "%s", game);
  w->deadline_ms = deadline_ms;
  w->next = hub->waiters[watch_slot(game)];
  hub->waiters[watch_slot(game)] = w;
  MHD_suspend_connection(conn);
  parked = true;
done:
  pthread_mutex_unlock(&hub->lock);
  return parked;
}

/* Drop `conn`'s waiters from the list at *pw. */
static void forget_in(struct waiter **pw, struct MHD_Connection *conn)
{
  while (*pw) {
    struct waiter *w = *pw;

    if (w->conn == conn) {
      *pw = w->next;
      free(w);
    } else {
      pw = &w->next;
    }
  }
}

void api_notify_forget(struct api_notify *hub, struct MHD_Connection *conn, const char *game)
{
  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  forget_in(&hub->waiters[watch_slot(game)], conn);
  forget_in(&hub->woken_at_stop, conn);
  pthread_mutex_unlock(&hub->lock);
}

bool api_notify_settled(struct api_notify *hub)
{
  bool settled = true;

  if (!hub)
    return true;
  pthread_mutex_lock(&hub->lock);
  settled = !hub->woken_at_stop;
  for (int i = 0; settled && i < WATCH_SLOTS; i++)
    settled = !hub->streams[i];
  pthread_mutex_unlock(&hub->lock);
  return settled;
}

/* ---- SSE streams ---- */

struct api_stream *api_stream_open(struct api_notify *hub, struct MHD_Connection *conn,
                                   const char *game, const char *player, uint64_t last_id,
                                   const struct api_stream_view *view)
{
  struct api_stream *s = calloc(1, sizeof(*s));

  if (!s)
    return NULL;
  s->with_view = view != NULL;
  if (view)
    s->view = *view;
  s->hub = hub;
  s->conn = conn;
  snprintf(s->game, sizeof(s->game), "%s", game ? game : "");
  snprintf(s->player, sizeof(s->player), "%s", player ? player : "");
  pthread_mutex_lock(&hub->lock);
  s->cursor = last_id ? last_id : hub->next_id;
  /* Ids older than the ring (or from another run) cannot be replayed: say
   * so once, instead of silently skipping what was lost, and go on from
   * now. */
  if (last_id && (last_id > hub->next_id || hub->next_id - last_id >= RING_SIZE)) {
    s->resync = true;
    s->cursor = hub->next_id;
  }
  s->last_write_ms = hub->now_ms();
  s->slot = watch_slot(s->game[0] ? s->game : s->player);
  hub->player_streams += !s->game[0];
  s->next = hub->streams[s->slot];
  if (s->next)
    s->next->prev = s;
  hub->streams[s->slot] = s;
  pthread_mutex_unlock(&hub->lock);
  return s;
}

void api_stream_close(struct api_stream *s)
{
  struct api_notify *hub;

  if (!s)
    return;
  hub = s->hub;
  pthread_mutex_lock(&hub->lock);
  if (s->prev)
    s->prev->next = s->next;
  else
    hub->streams[s->slot] = s->next;
  if (s->next)
    s->next->prev = s->prev;
  hub->player_streams -= !s->game[0];
  pthread_mutex_unlock(&hub->lock);
  free(s->pending);
  free(s);
}

static json_t *chat_notice_json(const struct notice *n);

/* A notice's event name and its data (a new reference). */
static const char *event_of(const struct notice *n, json_t **body)
{
  if (n->chat) {
    *body = chat_notice_json(n);
    return "chat";
  }
  if (n->declined) {
    /* Which seat is free again, never who declined it. */
    *body = json_pack("{s:s, s:i, s:b}", "game", n->game, "seat", n->declined - 1, "declined", 1);
    return "invitation";
  }
  *body = api_notice_json(n->game, n->seq, n->status, n->to_act, n->n_to_act);
  return "game";
}

/* Write one event; 0 if it does not fit in `max` (try again later). */
static size_t format_event(const struct notice *n, char *buf, size_t max)
{
  json_t *body;
  const char *event = event_of(n, &body);
  char *text = api_json_text(body, NULL);
  int len = text ? snprintf(buf, max, "id: %llu\nevent: %s\ndata: %s\n\n",
                            (unsigned long long)n->id, event, text)
                 : -1;

  free(text);
  json_decref(body);
  return len > 0 && (size_t)len < max ? (size_t)len : 0;
}

/*
 * A parked stream's write buffer need not stay resident. libmicrohttpd
 * 0.9.75 hands a chunked stream nearly its whole 16 KiB connection pool as
 * `buf` (16,246 bytes), and the pool's pages are all resident by then: it
 * zeroed the request's 8 KiB read buffer when it shrank it to make room
 * for the answer. That was 9 KiB of every idle SSE client's 14.3
 * (tests/api/bench_idle.c; a long-poll, parked before its answer, costs
 * 5.1). `buf` is ours to write until we return, and a private anonymous
 * page given back with MADV_DONTNEED reads as zeros afterwards, just as
 * if we had zeroed it, so the whole pages inside it are handed back when
 * the stream parks, to be faulted in again (one page per event) when it
 * writes: 14.3 -> 6.4 KiB per SSE client, 118.6 -> 79.0 MB for bench_idle's
 * 100,000 stored games and 10,000 idle clients (76.4 with server.c's
 * smaller STREAM_BLOCK). Only whole pages inside
 * the buffer are touched, never malloc's bookkeeping around it; a buffer
 * of less than a page (an HTTP/1.0 client's: the response's own block)
 * gives back nothing. One madvise per time a stream goes quiet, after the
 * send that emptied it.
 */
static void give_back_pages(char *buf, size_t max)
{
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  const uintptr_t from = ((uintptr_t)buf + page - 1) & ~(page - 1);
  const uintptr_t to = ((uintptr_t)buf + max) & ~(page - 1);

  if (to > from)
    (void)madvise((void *)from, to - from, MADV_DONTNEED);
}

/* Send what fits of the stream's pending event; frees it once sent. */
static size_t flush_pending(struct api_stream *s, char *buf, size_t max)
{
  size_t left = strlen(s->pending + s->pending_off);
  size_t n = left < max ? left : max;

  memcpy(buf, s->pending + s->pending_off, n);
  s->pending_off += n;
  if (n == left) {
    free(s->pending);
    s->pending = NULL;
    s->pending_off = 0;
  }
  return n;
}

/* Make `n` with its subscriber's view the stream's pending event. The
 * view is rendered now, under the game's lock, never the hub's: it is the
 * game as it stands (its own seq may be past the event's), as GET
 * /v1/games/{id} would answer the subscriber. A game that cannot be
 * rendered gets `state: null`: the event itself is never lost. */
static void render_pending(struct api_stream *s, const struct notice *n)
{
  json_t *body = api_notice_json(n->game, n->seq, n->status, n->to_act, n->n_to_act);
  char *notice = api_json_text(body, NULL);
  char *state = s->view.render(s->view.ctx, n->game, s->view.viewer);
  size_t cap;

  json_decref(body);
  if (notice) {
    /* The notice's closing brace gives way to the state member. */
    notice[strlen(notice) - 1] = '\0';
    cap = strlen(notice) + (state ? strlen(state) : 4) + 96;
    s->pending = malloc(cap);
    if (s->pending)
      snprintf(s->pending, cap, "id: %llu\nevent: game\ndata: %s,\"state\":%s}\n\n",
               (unsigned long long)n->id, notice, state ? state : "null");
  }
  s->pending_off = 0;
  free(notice);
  free(state);
}

ssize_t api_stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
  struct api_stream *s = cls;
  struct api_notify *hub = s->hub;
  struct notice taken; /* with a view: the one event to render after unlocking */
  bool have = false;
  size_t used = 0, len;

  if (s->pending)
    return (ssize_t)flush_pending(s, buf, max);
  pthread_mutex_lock(&hub->lock);
  if (hub->stopping) {
    pthread_mutex_unlock(&hub->lock);
    return MHD_CONTENT_READER_END_OF_STREAM;
  }
  if (s->resync) {
    len = (size_t)snprintf(buf, max, "event: resync\ndata: {}\n\n");
    if (len < max) {
      used = len;
      s->resync = false;
    }
  }
  while (s->cursor < hub->next_id) {
    const struct notice *n = &hub->ring[(s->cursor + 1) % RING_SIZE];

    if (n->id != s->cursor + 1) { /* overwritten since: the client is too far behind */
      s->cursor = hub->next_id;
      len = (size_t)snprintf(buf + used, max - used, "event: resync\ndata: {}\n\n");
      used += len < max - used ? len : 0;
      break;
    }
    /* Only a game's change carries the view: chat and invitations are
     * sent as they are. */
    if (stream_wants(s, n) && s->with_view && !n->chat && !n->declined) {
      taken = *n;
      have = true;
      s->cursor++;
      break;
    }
    if (stream_wants(s, n)) {
      len = format_event(n, buf + used, max - used);
      if (!len)
        break;
      used += len;
    }
    s->cursor++;
  }
  if (!used && !have && hub->now_ms() - s->last_write_ms >= KEEPALIVE_MS) {
    len = (size_t)snprintf(buf, max, ": keep-alive\n\n");
    used = len < max ? len : 0;
  }
  if (used || have) {
    s->last_write_ms = hub->now_ms();
  } else {
    /* Nothing to say: park the connection until a publish or the timer
     * wakes it. No thread waits with it. */
    s->suspended = true;
    MHD_suspend_connection(s->conn);
  }
  pthread_mutex_unlock(&hub->lock);
  if (have) {
    render_pending(s, &taken);
    if (s->pending)
      used += flush_pending(s, buf + used, max - used);
  }
  /* The connection is ours until we return (its polling thread runs this
   * call), so a publish that resumes it meanwhile cannot have libmicrohttpd
   * write into `buf` before we are done with it. */
  if (!used && !have)
    give_back_pages(buf, max);
  return (ssize_t)used;
}

/* Resume the long-polls of chain `slot` whose time is up and its streams
 * owed a keep-alive. */
static void tick_slot(struct api_notify *hub, uint32_t slot, int64_t now)
{
  struct waiter **pw = &hub->waiters[slot];
  struct api_stream *s;

  while (*pw) {
    struct waiter *w = *pw;

    if (w->deadline_ms <= now) {
      *pw = w->next;
      MHD_resume_connection(w->conn);
      free(w);
    } else {
      pw = &w->next;
    }
  }
  for (s = hub->streams[slot]; s; s = s->next)
    if (s->suspended && now - s->last_write_ms >= KEEPALIVE_MS) {
      s->suspended = false;
      MHD_resume_connection(s->conn);
    }
}

/* Every chain, ten times a second: not per move. */
static void tick(struct api_notify *hub)
{
  int64_t now = hub->now_ms();
  uint32_t slot;

  for (slot = 0; slot < WATCH_SLOTS; slot++)
    tick_slot(hub, slot, now);
}

static void *timer_main(void *arg)
{
  struct api_notify *hub = arg;
  struct timespec pause = {0, TIMER_INTERVAL_MS * 1000000L};

  for (;;) {
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&hub->lock);
    if (hub->stopping) {
      pthread_mutex_unlock(&hub->lock);
      return NULL;
    }
    tick(hub);
    pthread_mutex_unlock(&hub->lock);
  }
}

void api_notify_counts(struct api_notify *hub, int *long_polls, int *streams)
{
  *long_polls = *streams = 0;
  if (!hub)
    return;
  /* Walked on each scrape rather than counted on every park and wake-up:
   * a scrape comes every few seconds, a wake-up with every move. */
  pthread_mutex_lock(&hub->lock);
  for (int i = 0; i < WATCH_SLOTS; i++) {
    for (const struct waiter *w = hub->waiters[i]; w; w = w->next)
      (*long_polls)++;
    for (const struct api_stream *s = hub->streams[i]; s; s = s->next)
      (*streams)++;
  }
  pthread_mutex_unlock(&hub->lock);
}

/* ---- chat notices (issue 25) ---- */

/* Whether the stream's reader may hear of `n`: anyone of a game notice or
 * of the spectators' channel; of the players' channel only a player seated
 * in the game (a player's own stream, or a game's stream opened with a
 * seated player's token), so a spectator learns nothing of it, not even
 * that it moved. */
static bool stream_may_read(const struct api_stream *s, const struct notice *n)
{
  const char *reader = s->game[0] ? s->viewer : s->player;
  int i;

  if (n->chat != 1 + DB_CHAT_PLAYERS)
    return true;
  if (!reader[0])
    return false;
  for (i = 0; i < n->seats; i++)
    if (strcmp(n->players[i], reader) == 0)
      return true;
  return false;
}

/* New reference: {game, channel, n, deleted}: which message to fetch,
 * never its text (GET /v1/games/{id}/chat applies the channel rule). */
static json_t *chat_notice_json(const struct notice *n)
{
  return json_pack("{s:s, s:s, s:I, s:b}", "game", n->game, "channel",
                   api_chat_channel_name(n->chat - 1), "n", (json_int_t)n->chat_n, "deleted",
                   n->chat_deleted);
}

bool api_notify_cares(struct api_notify *hub, const char *game)
{
  bool cares;

  if (!hub)
    return false;
  pthread_mutex_lock(&hub->lock);
  cares = hub->player_streams > 0 || game_watched(hub, game);
  pthread_mutex_unlock(&hub->lock);
  return cares;
}

void api_stream_set_viewer(struct api_stream *s, const char *player)
{
  pthread_mutex_lock(&s->hub->lock);
  snprintf(s->viewer, sizeof(s->viewer), "%s", player ? player : "");
  pthread_mutex_unlock(&s->hub->lock);
}

void api_notify_chat(struct api_notify *hub, const struct db_game *row, int channel, uint32_t n_msg,
                     bool deleted)
{
  struct notice *n;

  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  n = next_notice(hub, row);
  n->chat = 1 + channel;
  n->chat_n = n_msg;
  n->chat_deleted = deleted;
  /* The game's seq is not noted (hub->latest): chat does not move it. The
   * long-polls of the game are woken all the same: a chat long-poll
   * (chat.c) looks again, a /wait finds its game where it was and parks
   * again. */
  wake_for(hub, n);
  pthread_mutex_unlock(&hub->lock);
}

/* ---- invitations answered (issue 25) ---- */

/* Add `player` to who hears `n`, once. Hub lock held. */
static void add_hearer(struct notice *n, const char *player)
{
  int i;

  if (!player[0] || n->seats == (int)(sizeof(n->players) / sizeof(n->players[0])))
    return;
  for (i = 0; i < n->seats; i++)
    if (strcmp(n->players[i], player) == 0)
      return;
  snprintf(n->players[n->seats++], sizeof(n->players[0]), "%s", player);
}

/* Seated players first; a seat nobody sits in is left out of the filter,
 * so room is left for the others who hear it. Hub lock held. */
static struct notice *next_notice_of_seated(struct api_notify *hub, const struct db_game *row)
{
  struct notice *n = next_notice(hub, row);
  int i;

  n->seats = 0;
  for (i = 0; i < row->seats; i++)
    add_hearer(n, row->seat_player[i]);
  return n;
}

void api_notify_declined(struct api_notify *hub, const struct db_game *row, int seat)
{
  struct notice *n;

  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  n = next_notice_of_seated(hub, row);
  add_hearer(n, row->creator);
  n->declined = 1 + seat;
  wake_for(hub, n);
  pthread_mutex_unlock(&hub->lock);
}

void api_notify_cancelled(struct api_notify *hub, const struct db_game *row,
                          const char (*invited)[DB_ID_MAX + 1])
{
  struct notice *n;
  int i;

  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  n = next_notice_of_seated(hub, row);
  for (i = 0; i < row->seats; i++)
    add_hearer(n, invited[i]);
  add_hearer(n, row->creator);
  wake_for(hub, n);
  pthread_mutex_unlock(&hub->lock);
}

void api_notify_cancelled_to(struct api_notify *hub, const struct db_game *row, const char *player)
{
  struct notice *n;

  if (!hub)
    return;
  pthread_mutex_lock(&hub->lock);
  n = next_notice(hub, row);
  n->seats = 0;
  add_hearer(n, player);
  n->players_only = true;
  wake_for(hub, n);
  pthread_mutex_unlock(&hub->lock);
}
