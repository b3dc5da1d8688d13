/*
 * representation.c - what a successful JSON answer carries besides its
 * bytes: an entity tag, the 304 a client holding that tag gets instead of
 * the body, and gzip for a client that accepts it (issue 24: a bot polling
 * a 12 KB view every few seconds should pay for it only when it changed).
 *
 * The tag is a hash of exactly the bytes this request would be sent, so it
 * says nothing its body does not: two viewers of one game get different
 * views and so different tags, and a tag a spectator guesses is only ever
 * compared with the spectator's own view. It is weak (W/"..."), being the
 * same for the identity and the gzip encodings of one body; If-None-Match
 * is compared weakly, as RFC 9110 13.1.2 says for it.
 */
#include "api.h"

#include <microhttpd.h>
#include <xxhash.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

/* Bodies shorter than this go as they are: gzip's header and trailer
 * would eat most of what it saves. */
#define GZIP_FROM_BYTES 1024

/* XXH3, not a cryptographic hash: a tag only tells a client whether its
 * own copy changed, 128 bits make an accidental match between two versions
 * of one resource out of reach, and a client forging a match fools only its
 * own cache. BLAKE2b here ran at about 150 MB/s on the bench machine, a
 * tenth of the server's CPU on view GETs (issue 22); XXH3 runs at memory
 * speed. The tag hides nothing the body does not show its reader. */
void api_etag_of(const char *body, size_t len, char out[API_ETAG_MAX + 1])
{
  XXH128_canonical_t canonical;
  char *p = out;

  XXH128_canonicalFromHash(&canonical, XXH3_128bits(body, len));
  memcpy(p, "W/\"", 3);
  p += 3;
  /* By table, not sodium_bin2hex: the tag is public to its reader, so its
   * constant time buys nothing, and it cost 300 instructions a GET. */
  p = jw_hex_text(p, canonical.digest, sizeof(canonical.digest));
  *p++ = '"';
  *p = '\0';
}

/* The opaque part of a tag ("abc" of W/"abc" or "abc"), its length in *n;
 * NULL when `s` does not start with a tag. */
static const char *opaque_tag(const char *s, size_t *n)
{
  const char *end;

  if (strncmp(s, "W/", 2) == 0)
    s += 2;
  if (*s != '"' || !(end = strchr(s + 1, '"')))
    return NULL;
  *n = (size_t)(end - s) + 1;
  return s;
}

bool api_etag_matches(const char *if_none_match, const char *etag)
{
  size_t mine_n, n;
  const char *mine = opaque_tag(etag, &mine_n), *s = if_none_match;

  if (!s || !mine)
    return false;
  while (*s) {
    const char *tag;

    while (*s == ' ' || *s == '\t' || *s == ',')
      s++;
    if (*s == '*')
      return true;
    tag = opaque_tag(s, &n);
    if (!tag)
      return false; /* not a list of tags: never a match */
    if (n == mine_n && memcmp(tag, mine, n) == 0)
      return true;
    s = tag + n;
  }
  return false;
}

/* The q of one Accept-Encoding member's parameters (";q=0.5"); 1 when
 * absent. */
static double quality(const char *params, size_t n)
{
  const char *q = params;

  while ((q = strchr(q, ';')) && q < params + n) {
    q++;
    while (*q == ' ' || *q == '\t')
      q++;
    if ((q[0] == 'q' || q[0] == 'Q') && q[1] == '=')
      return strtod(q + 2, NULL);
  }
  return 1;
}

bool api_accepts_gzip(const char *accept_encoding)
{
  const char *s = accept_encoding;
  double any = 0; /* "*": every coding not named */

  while (s && *s) {
    size_t member, name;

    while (*s == ' ' || *s == '\t' || *s == ',')
      s++;
    member = strcspn(s, ",");
    name = strcspn(s, ",; \t");
    if (name == 4 && strncasecmp(s, "gzip", 4) == 0)
      return quality(s, member) > 0; /* named: its own q decides */
    if (name == 1 && *s == '*')
      any = quality(s, member);
    s += member;
  }
  return any > 0;
}

bool api_gzip(const char *body, size_t len, char **out, size_t *out_len)
{
  z_stream z = {0};
  uLong cap;
  char *buf;
  int rc;

  *out = NULL;
  *out_len = 0;
  if (len < GZIP_FROM_BYTES)
    return false;
  /* 16 + MAX_WBITS: a gzip wrapper, not zlib's. Level 1: most of the
   * saving on JSON, at a fraction of the CPU of the default. */
  if (deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return false;
  cap = deflateBound(&z, (uLong)len);
  buf = malloc(cap);
  if (!buf) {
    deflateEnd(&z);
    return false;
  }
  z.next_in = (Bytef *)body;
  z.avail_in = (uInt)len;
  z.next_out = (Bytef *)buf;
  z.avail_out = (uInt)cap;
  rc = deflate(&z, Z_FINISH);
  *out_len = z.total_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END || *out_len >= len) {
    free(buf);
    *out_len = 0;
    return false;
  }
  *out = buf;
  return true;
}
