/*
 * sseclient.c - the API tests' Server-Sent Events reader (sseclient.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sseclient.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t on_data(char *data, size_t size, size_t n, void *arg)
{
  struct sse_client *c = arg;
  size_t bytes = size * n;

  if (c->len + bytes + 1 > c->cap) {
    size_t cap = c->cap ? c->cap : 16384;
    char *grown;

    while (cap < c->len + bytes + 1)
      cap *= 2;
    grown = realloc(c->text, cap);
    if (!grown)
      return 0;
    c->text = grown;
    c->cap = cap;
  }
  memcpy(c->text + c->len, data, bytes);
  c->len += bytes;
  c->text[c->len] = '\0';
  return c->enough && c->enough(c) ? 0 : bytes; /* 0 ends the transfer */
}

static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
  struct sse_client *c = arg;

  if (size * n == 2 && memcmp(data, "\r\n", 2) == 0)
    c->opened = true;
  return size * n;
}

static void *read_stream(void *arg)
{
  struct sse_client *c = arg;
  CURL *curl = curl_easy_init();
  struct curl_slist *headers = NULL;
  char line[64];

  if (c->auth[0])
    headers = curl_slist_append(headers, c->auth);
  if (c->last_id[0]) {
    snprintf(line, sizeof line, "Last-Event-ID: %s", c->last_id);
    headers = curl_slist_append(headers, line);
  }
  curl_easy_setopt(curl, CURLOPT_URL, c->url);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, c);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, c);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, c->timeout_s);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_perform(curl);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return NULL;
}

void sse_client_init(struct sse_client *c, const struct harness_server *s, const char *path,
                     const char *token, bool (*enough)(struct sse_client *c))
{
  memset(c, 0, sizeof *c);
  snprintf(c->url, sizeof c->url, "%s%s", s->base_url, path);
  if (token)
    snprintf(c->auth, sizeof c->auth, "Authorization: Bearer %s", token);
  c->timeout_s = 20;
  c->enough = enough;
}

static bool opened(void *arg)
{
  return ((struct sse_client *)arg)->opened;
}

void sse_client_start(struct sse_client *c)
{
  assert_int_equal(pthread_create(&c->thread, NULL, read_stream, c), 0);
  c->running = true;
  if (!harness_wait_until(opened, c, 10000)) {
    sse_client_join(c); /* c lives in the caller's frame, which failing leaves */
    fail_msg("no answer to GET %s within 10 s", c->url);
  }
}

void sse_client_join(struct sse_client *c)
{
  if (c->running)
    pthread_join(c->thread, NULL);
  c->running = false;
}

void sse_client_free(struct sse_client *c)
{
  sse_client_join(c);
  free(c->text);
  c->text = NULL;
  c->len = c->cap = 0;
}
