/*
 * test_export_stream.c - the streamed export (api_export_open/read) on
 * generated logs served by a stand-in moves_load: byte for byte the text of
 * api_export_build for every viewer, live and finished, over chunk
 * boundaries and whatever piece size the server asks for; a log that comes
 * up short is cut, never closed. And fog.c's one-pass scan against the
 * rule as it was written before (a look-ahead from each pending row), on
 * random logs with pending rows, private events and rewinds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/order.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "game/audit.h"
#include "api/export.h"

#define ROWS  300 /* more than two chunks of 128 */
#define SEATS 3

static const char REWIND[] = "{\"cairn\":\"rewind\",\"to_ord\":0}";

/* A generated log: strings in fixed buffers. */
struct fake_log {
  struct db_move rows[ROWS];
  char moves[ROWS][64];
  char events[ROWS][96];
  uint32_t served; /* rows moves_load may give (fewer: a log that shrank) */
};

static uint64_t next_rand(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Pending decisions (seq kept), ordinary moves, rewinds, private events. */
static void make_log(struct fake_log *log, uint64_t seed)
{
  uint32_t seq = 0;
  uint32_t i;

  memset(log, 0, sizeof(*log));
  for (i = 0; i < ROWS; i++) {
    uint64_t r = next_rand(&seed);
    struct db_move *m = &log->rows[i];
    int kind = (int)(r % 10);

    m->ord = i;
    m->seat = (int)((r >> 8) % SEATS);
    m->at_ms = 1700000000000 + i;
    if (kind == 0) {
      snprintf(log->moves[i], sizeof(log->moves[i]), "%s", REWIND);
      seq++;
    } else {
      snprintf(log->moves[i], sizeof(log->moves[i]), "{\"type\":\"step\",\"n\":%u}", i);
      if (kind > 4 || i == 0)
        seq++; /* else: pending, the step awaits other seats */
    }
    if ((r >> 16) % 7 == 0)
      snprintf(log->events[i], sizeof(log->events[i]),
               "[{\"type\":\"drew\",\"private_to\":[%d]},{\"type\":\"moved\"}]", m->seat);
    else
      snprintf(log->events[i], sizeof(log->events[i]), "[{\"type\":\"moved\",\"n\":%u}]", i);
    m->seq = seq;
    m->move_json = log->moves[i];
    m->events_json = log->events[i];
    m->has_hash = true;
    memset(m->hash, (int)(i & 0xff), sizeof(m->hash));
  }
  log->served = ROWS;
}

static enum cairn_status fake_moves_load(void *ctx, const char *game_id, uint32_t from_ord,
                                         db_move_cb cb, void *arg, struct cairn_error *err)
{
  struct fake_log *log = ctx;
  uint32_t i;

  for (i = from_ord; i < log->served; i++) {
    enum cairn_status st = cb(arg, &log->rows[i], err);

    if (st == CAIRN_DONE)
      return CAIRN_OK;
    if (st != CAIRN_OK)
      return st;
  }
  return CAIRN_OK;
}

/* A store whose log is the fake one: the only method the export calls. */
static const struct db_methods fake_methods = {.name = "fake-log", .moves_load = fake_moves_load};

static void make_row(struct db_game *row, const char *status)
{
  memset(row, 0, sizeof(*row));
  snprintf(row->id, sizeof(row->id), "g1");
  snprintf(row->title, sizeof(row->title), "everest-piecepack");
  snprintf(row->rules_version, sizeof(row->rules_version), "1");
  snprintf(row->status, sizeof(row->status), "%s", status);
  row->seats = SEATS;
  row->created_ms = 1700000000000;
  row->moves = ROWS;
  snprintf(row->seat_player[0], sizeof(row->seat_player[0]), "p0");
  snprintf(row->seat_name[0], sizeof(row->seat_name[0]), "Ann");
  memset(row->log_head, 0xab, sizeof(row->log_head));
}

/* The whole streamed text, read `piece` bytes at a time; NULL when cut. */
static char *read_all(struct api_export_stream *x, size_t piece, size_t *len)
{
  size_t cap = 1 << 16;
  char *text = malloc(cap);
  ssize_t n;

  *len = 0;
  for (;;) {
    if (cap - *len < piece) {
      cap *= 2;
      text = realloc(text, cap);
    }
    n = api_export_read(x, text + *len, piece);
    if (n < 0) {
      free(text);
      return NULL;
    }
    if (n == 0)
      return text;
    *len += (size_t)n;
  }
}

static void expect_same_text(struct api_server *server, struct fake_log *log, const char *status,
                             int viewer, size_t piece)
{
  struct db_game row;
  struct game_log whole = {.moves = log->rows, .n = ROWS};
  struct api_export_stream *x = NULL;
  struct cairn_error err = {0};
  json_t *doc;
  char *built;
  char *streamed;
  size_t built_len = 0;
  size_t streamed_len = 0;

  make_row(&row, status);
  doc = api_export_build(&row, &whole, viewer, &server->key);
  built = api_json_text(doc, &built_len);
  assert_int_equal(api_export_open(server, &row, viewer, &x, &err), CAIRN_OK);
  streamed = read_all(x, piece, &streamed_len);
  assert_non_null(streamed);
  assert_int_equal(streamed_len, built_len);
  assert_memory_equal(streamed, built, built_len);
  api_export_close(x);
  free(built);
  free(streamed);
  json_decref(doc);
}

static void test_streamed_is_built_byte_for_byte(void **state)
{
  static struct fake_log log;
  struct db store = {.methods = &fake_methods};
  struct api_server server;
  static const size_t pieces[] = {1, 7, 4096, 32 * 1024};
  static const char *const statuses[] = {DB_STATUS_ACTIVE, DB_STATUS_FINISHED};
  int viewers[] = {0, 1, 2, ENGINE_SPECTATOR};
  size_t p, s, v;

  memset(&server, 0, sizeof(server));
  crypto_sign_keypair(server.key.pk, server.key.sk);
  store.ctx = &log;
  server.db = &store;
  make_log(&log, 11);
  for (s = 0; s < 2; s++)
    for (v = 0; v < sizeof(viewers) / sizeof(viewers[0]); v++)
      for (p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++)
        expect_same_text(&server, &log, statuses[s], viewers[v], pieces[p]);
}

/* A log shorter than the game row counted (rows gone behind the server's
 * back) is refused before a byte when the fog pass sees it, and cut short
 * when only the writing pass does. */
static void test_short_log_is_cut(void **state)
{
  static struct fake_log log;
  struct db store = {.methods = &fake_methods};
  struct api_server server;
  struct db_game row;
  struct api_export_stream *x = NULL;
  struct cairn_error err = {0};
  size_t len = 0;

  memset(&server, 0, sizeof(server));
  crypto_sign_keypair(server.key.pk, server.key.sk);
  store.ctx = &log;
  server.db = &store;
  make_log(&log, 12);
  log.served = 200;
  make_row(&row, DB_STATUS_ACTIVE);
  assert_int_equal(api_export_open(&server, &row, 0, &x, &err), CAIRN_EINTERNAL);
  assert_null(x);
  make_row(&row, DB_STATUS_FINISHED);
  assert_int_equal(api_export_open(&server, &row, 0, &x, &err), CAIRN_OK);
  assert_null(read_all(x, 4096, &len));
  api_export_close(x);
}

/* ---- the rule as fog.c wrote it before the scan: a look-ahead ---- */

static bool ref_platform(const struct db_move *m)
{
  return strncmp(m->move_json, "{\"cairn\"", 8) == 0;
}

static bool ref_visible(const struct db_move *moves, size_t n, size_t i, int viewer)
{
  uint32_t before = i ? moves[i - 1].seq : 0;
  size_t j;

  if (moves[i].seat == viewer)
    return true;
  if (strstr(moves[i].events_json, "private_to"))
    return false;
  if (moves[i].seq != before || ref_platform(&moves[i]))
    return true;
  for (j = i + 1; j < n; j++)
    if (moves[j].seq != moves[i].seq)
      return !ref_platform(&moves[j]);
  return false;
}

static void test_scan_is_the_look_ahead_rule(void **state)
{
  static struct fake_log log;
  uint64_t seed;
  size_t n, i;
  int viewer;

  for (seed = 1; seed <= 40; seed++) {
    make_log(&log, seed);
    for (viewer = -1; viewer < SEATS; viewer++) {
      int v = viewer < 0 ? ENGINE_SPECTATOR : viewer;

      /* Every prefix: the live game as it stood after n rows. */
      for (n = 1; n <= ROWS; n += 37) {
        struct game_fog_scan scan;
        struct cairn_error err = {0};

        game_fog_scan_init(&scan, v);
        for (i = 0; i < n; i++)
          assert_int_equal(game_fog_scan_add(&scan, &log.rows[i], &err), CAIRN_OK);
        for (i = 0; i < n; i++)
          assert_int_equal(game_fog_scan_visible(&scan, i), ref_visible(log.rows, n, i, v));
        game_fog_scan_clear(&scan);
      }
    }
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_streamed_is_built_byte_for_byte),
      cmocka_unit_test(test_short_log_is_cut),
      cmocka_unit_test(test_scan_is_the_look_ahead_rule),
  };

  if (sodium_init() < 0)
    return 1;
  return order_run_group_tests(tests, NULL, NULL);
}
