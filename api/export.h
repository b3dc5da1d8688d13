/*
 * export.h - the export document (export.c has the format), shared by the
 * HTTP endpoints and the offline tools.
 */
#ifndef API_EXPORT_H
#define API_EXPORT_H

#include "api.h"
#include "../game/audit.h"
#include "../game/fog.h"
#include "sign.h"

#include <sys/types.h>

/* A game read from an export document. Owned strings inside; release with
 * api_record_clear(). */
struct api_record {
  struct db_game row;                         /* creation fields, status, result */
  struct db_player players[ENGINE_MAX_SEATS]; /* per seat */
  struct game_log log;                        /* the moves, with their hashes */
  uint8_t commitment[32];                     /* the published seed commitment */
  bool has_seed;                              /* row.seed was in the document */
  char format[16];                            /* the document's format */
  /* row.log_head holds the document's log_head (format 2 documents; a
   * format 1 document had one too but it was never checked), and
   * row.has_signer, signer and signature its server_key and signature. */
  bool has_log_head;
};

/* New reference: the export document of `row` and its `log` as `viewer` (a
 * seat or ENGINE_SPECTATOR) may see it; a finished game is exported whole.
 * Signed with `key` unless the game was imported from a document this
 * server did not sign (then the row's own signer and signature, if any, are
 * shown) or `key` is NULL (then the row's own, as for a parsed record). */
json_t *api_export_build(const struct db_game *row, const struct game_log *log, int viewer,
                         const struct api_sign_key *key);

/* The export document of stored game `row` as `viewer` may see it, written
 * piece by piece (api_response.reader): byte for byte the text of
 * api_export_build (unless api_export_with_chat asks for the chat too), but holding only the head,
 * a chunk of EXPORT_CHUNK rows and, for a live game, one byte per row (fog.c's scan, done here,
 * before the first byte, so a failure is still a problem answer). The rows are the first row->moves
 * of the log, the ones log_head covers. */
struct api_export_stream;
enum cairn_status api_export_open(struct api_server *server, const struct db_game *row, int viewer,
                                  struct api_export_stream **out, struct cairn_error *err);
/* Add the game's chat that the stream's viewer may read after the moves
 * (issue 25: a "chat" member, outside the signature); call before the
 * first read. Without it the document is api_export_build's, byte for
 * byte. */
void api_export_with_chat(struct api_export_stream *x);
/* The next bytes into buf (at most max): their count, 0 at the end, -1 when
 * the log could not be read (the answer must be cut short). */
ssize_t api_export_read(void *cls, char *buf, size_t max);
/* Release the stream (NULL accepted). */
void api_export_close(void *cls);

/* What the signature of the export of stored game `row` covers; commitment
 * is the caller's 32 bytes, filled here. Borrows from row. */
void api_row_signed(const struct db_game *row, uint8_t commitment[32], struct api_signed *out);

/* What the signature of a parsed record covers. Borrows from r. */
void api_record_signed(const struct api_record *r, struct api_signed *out);

/* Read `doc` (borrowed) into *r, checking every member's presence, type and
 * range; a failure names the member (e.g. "moves[3].seat"). On failure *r
 * may hold partial data: release it with api_record_clear either way. */
enum cairn_status api_export_parse(const json_t *doc, struct api_record *r,
                                   struct cairn_error *err);

void api_record_clear(struct api_record *r);

/* The audit input for a parsed record (borrowing from `r` and `options`). */
struct game_audit_input api_record_audit(const struct api_record *r, const struct engine_module *m,
                                         const json_t *options);

#endif
