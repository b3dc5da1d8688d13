/*
 * framing.c - checks of a request head made as soon as libmicrohttpd has
 * parsed it, before any body is read: how long the target and the header
 * fields are, and how the body is framed.
 *
 * libmicrohttpd answers some of these itself with HTML and no
 * Content-Type (414 and 431 once a head outgrows its 16 KiB memory pool, a
 * malformed chunk 400), and it accepted ambiguous framing: Content-Length
 * beside Transfer-Encoding, or two Content-Length fields (a proxy in front
 * and this server could then disagree where a request ends: smuggling),
 * and it waited forever for a body framed by an unknown transfer coding.
 * Refusing all of these here, below libmicrohttpd's own limits, makes the
 * answer ours (problem+json, naming our limit) and closes the connection
 * at once; library_answers.c rewrites what the library still refuses
 * before we see the head.
 */
#include "api.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct head_tally {
  size_t bytes;    /* header names and values, with ": " and CRLF */
  int lengths;     /* Content-Length fields */
  int codings;     /* Transfer-Encoding fields */
  const char *te;  /* the last Transfer-Encoding value */
  const char *len; /* the last Content-Length value */
};

static enum MHD_Result tally(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
  struct head_tally *t = cls;

  t->bytes += strlen(key) + (value ? strlen(value) : 0) + 4;
  if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
    t->lengths++;
    t->len = value;
  } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
    t->codings++;
    t->te = value;
  }
  return MHD_YES;
}

/* The declared length, or -1 when it is not plain decimal digits. */
static long long declared_length(const char *text)
{
  char *end = NULL;
  long long v;

  if (!text || *text < '0' || *text > '9')
    return -1;
  errno = 0;
  v = strtoll(text, &end, 10);
  return errno || *end ? -1 : v;
}

static enum cairn_status check_framing(const struct head_tally *t, size_t body_cap,
                                       struct cairn_error *err)
{
  long long length;

  if (t->lengths && t->codings)
    return cairn_fail(err, CAIRN_EINVAL, API_CODE_BAD_FRAMING, NULL,
                      "Content-Length and Transfer-Encoding together");
  if (t->lengths > 1 || t->codings > 1)
    return cairn_fail(err, CAIRN_EINVAL, API_CODE_BAD_FRAMING, NULL,
                      "more than one Content-Length or Transfer-Encoding field");
  /* Bodies are small JSON documents whose length the client knows; a
   * chunked body would reach libmicrohttpd's chunk parser, which answers
   * a malformed chunk with its own HTML. */
  if (t->codings && strcasecmp(t->te, "chunked") == 0)
    return cairn_fail(err, CAIRN_EINVAL, API_CODE_LENGTH_REQUIRED, NULL,
                      "send the body with Content-Length, not chunked");
  if (t->codings)
    return cairn_fail(err, CAIRN_EINVAL, API_CODE_TRANSFER_CODING, NULL,
                      "transfer coding \"%.64s\" is not supported", t->te);
  length = t->lengths ? declared_length(t->len) : 0;
  if (length < 0)
    return cairn_fail(err, CAIRN_EINVAL, API_CODE_BAD_FRAMING, NULL,
                      "Content-Length is not a number");
  if ((unsigned long long)length > body_cap)
    return cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_BODY_TOO_LARGE, NULL,
                      "request body exceeds %zu bytes", body_cap);
  return CAIRN_OK;
}

static enum MHD_Result tally_query(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
  *(size_t *)cls += strlen(key) + (value ? strlen(value) : 0) + 2;
  return MHD_YES;
}

enum cairn_status api_check_head(struct MHD_Connection *conn, const char *url, size_t body_cap,
                                 struct cairn_error *err)
{
  struct head_tally t = {0};
  size_t target = strlen(url);

  MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, tally_query, &target);
  if (target > API_TARGET_MAX)
    return cairn_fail(err, CAIRN_EINVAL, API_CODE_URI_TOO_LONG, NULL,
                      "request target longer than %d bytes", API_TARGET_MAX);
  MHD_get_connection_values(conn, MHD_HEADER_KIND, tally, &t);
  if (t.bytes > API_HEADERS_MAX)
    return cairn_fail(err, CAIRN_EINVAL, API_CODE_HEADERS_TOO_LARGE, NULL,
                      "header fields longer than %d bytes in all", API_HEADERS_MAX);
  return check_framing(&t, body_cap, err);
}
