/*
 * library_answers.c - libmicrohttpd's own error answers, as problem+json.
 *
 * libmicrohttpd 0.9.75 answers some requests before any of our code runs
 * (a head too large for its 16 KiB memory pool: 414 or 431; a
 * Content-Length that does not fit 64 bits: 413; a request line or header
 * it cannot parse: 400; an HTTP version it does not speak: 505), with a
 * fixed HTML body and no Content-Type, and it has no option to change
 * them. framing.c refuses everything it can see below those limits; this
 * file covers the rest.
 *
 * It does so by defining MHD_queue_response in the executable. The
 * library calls its own MHD_queue_response through its PLT (Debian builds
 * it without -Bsymbolic: `objdump -R libmicrohttpd.so.12` lists a
 * JUMP_SLOT for it), so the dynamic linker binds the library's calls, and
 * ours, to this definition, which passes every answer on to the real
 * function (found with dlsym(RTLD_NEXT)) unchanged, except an error answer
 * without a Content-Type. Every answer of ours carries a Content-Type, so
 * only the library's own are replaced. Should a rebuilt library bind the
 * call internally, its HTML would reappear:
 * test_garbage.c's test_library_answers_are_problem_json says so.
 */
#include "api.h"

#include <dlfcn.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>

typedef enum MHD_Result (*queue_fn)(struct MHD_Connection *, unsigned int, struct MHD_Response *);

static queue_fn real_queue;
static pthread_once_t found = PTHREAD_ONCE_INIT;

static void find_real_queue(void)
{
  /* POSIX's way to turn dlsym's object pointer into a function pointer. */
  *(void **)&real_queue = dlsym(RTLD_NEXT, "MHD_queue_response");
}

bool api_library_answers_ready(void)
{
  pthread_once(&found, find_real_queue);
  return real_queue != NULL;
}

/* The problem libmicrohttpd's answer stands for. */
static void describe(unsigned int status, struct cairn_error *err)
{
  switch (status) {
  case MHD_HTTP_URI_TOO_LONG:
    cairn_fail(err, CAIRN_EINVAL, API_CODE_URI_TOO_LONG, NULL,
               "request line too long (the head may hold 16 KiB at most)");
    break;
  case MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE:
    cairn_fail(err, CAIRN_EINVAL, API_CODE_HEADERS_TOO_LARGE, NULL,
               "request head too large (16 KiB at most)");
    break;
  case MHD_HTTP_CONTENT_TOO_LARGE:
    cairn_fail(err, CAIRN_ETOOLARGE, CAIRN_CODE_BODY_TOO_LARGE, NULL, "Content-Length too large");
    break;
  case MHD_HTTP_HTTP_VERSION_NOT_SUPPORTED:
    cairn_fail(err, CAIRN_EINVAL, API_CODE_HTTP_VERSION, NULL, "only HTTP/1.0 and 1.1 are spoken");
    break;
  default:
    if (status >= 500)
      cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL, "the HTTP library failed");
    else
      cairn_fail(err, CAIRN_EINVAL, API_CODE_BAD_REQUEST, NULL, "malformed HTTP request");
  }
}

/* New response: the problem+json answer for `status`, or NULL. */
static struct MHD_Response *problem_response(unsigned int status)
{
  struct cairn_error err = {0};
  unsigned int mapped;
  struct MHD_Response *resp;
  json_t *body;
  size_t len = 0;
  char *text;

  describe(status, &err);
  body = api_problem(&err, &mapped);
  if (body && mapped != status) /* a status we have no row for: keep the library's */
    json_object_set_new(body, "status", json_integer(status));
  text = body ? api_json_text(body, &len) : NULL;
  json_decref(body);
  if (!text)
    return NULL;
  resp = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
  if (!resp) {
    free(text);
    return NULL;
  }
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/problem+json");
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  return resp;
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response)
{
  struct MHD_Response *ours;
  enum MHD_Result ret;

  if (!api_library_answers_ready())
    return MHD_NO;
  if (status_code < 400 || MHD_get_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE))
    return real_queue(connection, status_code, response);
  ours = problem_response(status_code);
  if (!ours) /* out of memory: the library's own answer is better than none */
    return real_queue(connection, status_code, response);
  ret = real_queue(connection, status_code, ours);
  MHD_destroy_response(ours);
  return ret;
}
