/*
 * docs.c - the API document rendered for people, at GET /docs: one HTML
 * page built from the very document GET /v1/openapi.yaml serves (the
 * binary's embedded copy, read with libyaml), so it can never be stale;
 * no script, no font, nothing fetched from elsewhere, so it works offline.
 * Rendered once, at the first request, and kept.
 *
 * What it shows: the document's title, version and description, a table
 * of contents, every operation (method, path, summary, description,
 * parameters, request body, responses), the webhooks the server sends and
 * every schema with its properties. Descriptions are CommonMark in the
 * document; they are shown as preformatted text, which reads well enough
 * and needs no Markdown renderer.
 */
#include "api.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

extern const char api_openapi_yaml[];
extern const size_t api_openapi_yaml_len;

/* A growable page; `failed` once an allocation failed (then it is dropped). */
struct page {
  char *text;
  size_t len, cap;
  bool failed;
};

static void put_raw(struct page *p, const char *s, size_t n)
{
  if (p->failed)
    return;
  if (p->len + n + 1 > p->cap) {
    size_t cap = p->cap ? p->cap : 64 * 1024;
    char *grown;

    while (cap < p->len + n + 1)
      cap *= 2;
    grown = realloc(p->text, cap);
    if (!grown) {
      p->failed = true;
      return;
    }
    p->text = grown;
    p->cap = cap;
  }
  memcpy(p->text + p->len, s, n);
  p->len += n;
  p->text[p->len] = '\0';
}

static void put(struct page *p, const char *s)
{
  put_raw(p, s, strlen(s));
}

/* `s` as HTML text (or an attribute's value). */
static void put_text(struct page *p, const char *s)
{
  for (; s && *s; s++) {
    const char *esc = *s == '&'   ? "&amp;"
                      : *s == '<' ? "&lt;"
                      : *s == '>' ? "&gt;"
                      : *s == '"' ? "&quot;"
                                  : NULL;

    if (esc)
      put(p, esc);
    else
      put_raw(p, s, 1);
  }
}

/* An anchor id from `s`: letters and digits kept, the rest '-'. */
static void put_anchor(struct page *p, const char *prefix, const char *s)
{
  put(p, prefix);
  for (; *s; s++) {
    char c = *s;
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

    put_raw(p, plain ? &c : "-", 1);
  }
}

/* ---- reading the document ---- */

static yaml_node_t *node_at(yaml_document_t *doc, yaml_node_item_t i)
{
  return yaml_document_get_node(doc, i);
}

static const char *scalar(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of `key` in mapping `map`, or NULL. */
static yaml_node_t *get(yaml_document_t *doc, const yaml_node_t *map, const char *key)
{
  yaml_node_pair_t *pair;

  if (!map || map->type != YAML_MAPPING_NODE)
    return NULL;
  for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
    const char *k = scalar(node_at(doc, pair->key));

    if (k && strcmp(k, key) == 0)
      return node_at(doc, pair->value);
  }
  return NULL;
}

static const char *get_text(yaml_document_t *doc, const yaml_node_t *map, const char *key)
{
  return scalar(get(doc, map, key));
}

/* The last segment of a $ref ("#/components/schemas/Game" -> "Game"). */
static const char *ref_name(yaml_document_t *doc, const yaml_node_t *n)
{
  const char *ref = get_text(doc, n, "$ref");
  const char *slash = ref ? strrchr(ref, '/') : NULL;

  return slash ? slash + 1 : ref;
}

/* ---- writing it ---- */

static void put_description(struct page *p, const char *text)
{
  if (!text || !*text)
    return;
  put(p, "<pre class=\"md\">");
  put_text(p, text);
  put(p, "</pre>\n");
}

/* "schema Foo" as a link, or the schema's own type. */
static void put_schema_ref(struct page *p, yaml_document_t *doc, const yaml_node_t *schema)
{
  const char *name = ref_name(doc, schema);
  const char *type = get_text(doc, schema, "type");

  if (name) {
    put(p, "<a href=\"#");
    put_anchor(p, "schema-", name);
    put(p, "\"><code>");
    put_text(p, name);
    put(p, "</code></a>");
  } else if (type) {
    put(p, "<code>");
    put_text(p, type);
    put(p, "</code>");
  } else if (schema) {
    put(p, "<code>object</code>");
  }
}

static void put_parameters(struct page *p, yaml_document_t *doc, const yaml_node_t *list)
{
  yaml_node_item_t *item;

  if (!list || list->type != YAML_SEQUENCE_NODE ||
      list->data.sequence.items.start == list->data.sequence.items.top)
    return;
  put(p, "<h5>Parameters</h5>\n<ul>\n");
  for (item = list->data.sequence.items.start; item < list->data.sequence.items.top; item++) {
    yaml_node_t *param = node_at(doc, *item);
    const char *ref = ref_name(doc, param);
    yaml_node_t *target = param;

    if (ref) /* #/components/parameters/<ref> */
      target = get(doc, get(doc, get(doc, node_at(doc, 1), "components"), "parameters"), ref);
    put(p, "<li><code>");
    put_text(p, get_text(doc, target, "name"));
    put(p, "</code> (");
    put_text(p, get_text(doc, target, "in"));
    put(p,
        get_text(doc, target, "required") && strcmp(get_text(doc, target, "required"), "true") == 0
            ? ", required)"
            : ")");
    put_description(p, get_text(doc, target, "description"));
    put(p, "</li>\n");
  }
  put(p, "</ul>\n");
}

static void put_content_schema(struct page *p, yaml_document_t *doc, const yaml_node_t *content)
{
  yaml_node_pair_t *pair;

  if (!content || content->type != YAML_MAPPING_NODE)
    return;
  for (pair = content->data.mapping.pairs.start; pair < content->data.mapping.pairs.top; pair++) {
    put(p, " <code>");
    put_text(p, scalar(node_at(doc, pair->key)));
    put(p, "</code> ");
    put_schema_ref(p, doc, get(doc, node_at(doc, pair->value), "schema"));
  }
}

static void put_responses(struct page *p, yaml_document_t *doc, const yaml_node_t *responses)
{
  yaml_node_pair_t *pair;

  if (!responses || responses->type != YAML_MAPPING_NODE)
    return;
  put(p, "<h5>Responses</h5>\n<ul>\n");
  for (pair = responses->data.mapping.pairs.start; pair < responses->data.mapping.pairs.top;
       pair++) {
    yaml_node_t *r = node_at(doc, pair->value);
    const char *ref = ref_name(doc, r);

    if (ref) /* #/components/responses/<ref> */
      r = get(doc, get(doc, get(doc, node_at(doc, 1), "components"), "responses"), ref);
    put(p, "<li><b>");
    put_text(p, scalar(node_at(doc, pair->key)));
    put(p, "</b>");
    put_content_schema(p, doc, get(doc, r, "content"));
    put_description(p, get_text(doc, r, "description"));
    put(p, "</li>\n");
  }
  put(p, "</ul>\n");
}

static bool is_method(const char *k)
{
  static const char *const methods[] = {"get", "put", "post", "delete", "patch", "head", NULL};

  for (int i = 0; k && methods[i]; i++)
    if (strcmp(k, methods[i]) == 0)
      return true;
  return false;
}

/* Each operation of `paths` (a paths or webhooks mapping); with `toc`,
 * only the table of contents' line of each. */
static void put_operations(struct page *p, yaml_document_t *doc, const yaml_node_t *paths, bool toc)
{
  yaml_node_pair_t *path, *op;

  if (!paths || paths->type != YAML_MAPPING_NODE)
    return;
  for (path = paths->data.mapping.pairs.start; path < paths->data.mapping.pairs.top; path++) {
    const char *route = scalar(node_at(doc, path->key));
    yaml_node_t *item = node_at(doc, path->value);

    if (item->type != YAML_MAPPING_NODE)
      continue;
    for (op = item->data.mapping.pairs.start; op < item->data.mapping.pairs.top; op++) {
      const char *method = scalar(node_at(doc, op->key));
      yaml_node_t *o = node_at(doc, op->value);
      char id[300];

      if (!is_method(method))
        continue;
      snprintf(id, sizeof(id), "%s %s", method, route);
      put(p, toc ? "<li><a href=\"#" : "<section class=\"op\" id=\"");
      put_anchor(p, "op-", id);
      put(p, toc ? "\">" : "\">\n<h3>");
      put(p, "<span class=\"method\">");
      for (const char *m = method; *m; m++) {
        char up = (char)(*m - 'a' + 'A');

        put_raw(p, &up, 1);
      }
      put(p, "</span> <code>");
      put_text(p, route);
      put(p, "</code>");
      if (toc) {
        put(p, "</a> ");
        put_text(p, get_text(doc, o, "summary"));
        put(p, "</li>\n");
        continue;
      }
      put(p, "</h3>\n<p class=\"summary\">");
      put_text(p, get_text(doc, o, "summary"));
      put(p, "</p>\n");
      put_description(p, get_text(doc, o, "description"));
      put_parameters(p, doc, get(doc, item, "parameters"));
      put_parameters(p, doc, get(doc, o, "parameters"));
      if (get(doc, o, "requestBody")) {
        put(p, "<h5>Request body</h5>\n<p>");
        put_content_schema(p, doc, get(doc, get(doc, o, "requestBody"), "content"));
        put(p, "</p>\n");
      }
      put_responses(p, doc, get(doc, o, "responses"));
      put(p, "</section>\n");
    }
  }
}

static void put_schemas(struct page *p, yaml_document_t *doc, const yaml_node_t *schemas)
{
  yaml_node_pair_t *pair, *prop;

  if (!schemas || schemas->type != YAML_MAPPING_NODE)
    return;
  put(p, "<h2 id=\"schemas\">Schemas</h2>\n");
  for (pair = schemas->data.mapping.pairs.start; pair < schemas->data.mapping.pairs.top; pair++) {
    const char *name = scalar(node_at(doc, pair->key));
    yaml_node_t *s = node_at(doc, pair->value);
    yaml_node_t *props = get(doc, s, "properties");

    put(p, "<section class=\"schema\" id=\"");
    put_anchor(p, "schema-", name);
    put(p, "\">\n<h4><code>");
    put_text(p, name);
    put(p, "</code></h4>\n");
    put_description(p, get_text(doc, s, "description"));
    if (props && props->type == YAML_MAPPING_NODE) {
      put(p, "<ul>\n");
      for (prop = props->data.mapping.pairs.start; prop < props->data.mapping.pairs.top; prop++) {
        put(p, "<li><code>");
        put_text(p, scalar(node_at(doc, prop->key)));
        put(p, "</code> ");
        put_schema_ref(p, doc, node_at(doc, prop->value));
        put(p, "</li>\n");
      }
      put(p, "</ul>\n");
    }
    put(p, "</section>\n");
  }
}

static const char STYLE[] =
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem;"
    "line-height:1.4;color:#222}pre.md{white-space:pre-wrap;font-family:inherit;margin:.3rem 0}"
    "code{background:#f3f3f3;padding:0 .2rem}.op{border-top:1px solid #ccc;margin-top:1rem}"
    ".method{font-weight:bold;color:#fff;background:#446;padding:0 .4rem;border-radius:.2rem}"
    ".summary{font-weight:bold}h5{margin:.6rem 0 .2rem}.schema{border-top:1px dotted #ccc}";

static void render(struct page *p, yaml_document_t *doc)
{
  yaml_node_t *root = node_at(doc, 1);
  yaml_node_t *info = get(doc, root, "info");
  yaml_node_t *components = get(doc, root, "components");

  put(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
  put_text(p, get_text(doc, info, "title"));
  put(p, " - API</title>\n<style>");
  put(p, STYLE);
  put(p, "</style></head><body>\n<h1>");
  put_text(p, get_text(doc, info, "title"));
  put(p, " <small>");
  put_text(p, get_text(doc, info, "version"));
  put(p, "</small></h1>\n<p>Rendered from <a href=\"/v1/openapi.yaml\">/v1/openapi.yaml</a>, "
         "the document this server serves.</p>\n");
  put(p, "<h2>Contents</h2>\n<ul>\n");
  put_operations(p, doc, get(doc, root, "paths"), true);
  put_operations(p, doc, get(doc, root, "webhooks"), true);
  put(p, "<li><a href=\"#schemas\">Schemas</a></li>\n</ul>\n");
  put_description(p, get_text(doc, info, "description"));
  put(p, "<h2>Operations</h2>\n");
  put_operations(p, doc, get(doc, root, "paths"), false);
  put(p, "<h2>Webhooks the server sends</h2>\n");
  put_operations(p, doc, get(doc, root, "webhooks"), false);
  put_schemas(p, doc, get(doc, components, "schemas"));
  put(p, "</body></html>\n");
}

/* The page, rendered once; NULL when the document could not be read. */
static struct {
  pthread_once_t once;
  char *html; /* the process's: never freed */
  size_t len;
} docs = {.once = PTHREAD_ONCE_INIT};

static void render_once(void)
{
  yaml_parser_t parser;
  yaml_document_t doc;
  struct page p = {0};

  if (!yaml_parser_initialize(&parser))
    return;
  yaml_parser_set_input_string(&parser, (const unsigned char *)api_openapi_yaml,
                               api_openapi_yaml_len);
  if (yaml_parser_load(&parser, &doc)) {
    if (node_at(&doc, 1))
      render(&p, &doc);
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&parser);
  if (p.failed || !p.text) {
    free(p.text);
    return;
  }
  docs.html = p.text;
  docs.len = p.len;
}

enum cairn_status api_docs_get(struct api_request *req, struct api_response *resp,
                               struct cairn_error *err)
{
  (void)req;
  pthread_once(&docs.once, render_once);
  if (!docs.html)
    return cairn_fail(err, CAIRN_EINTERNAL, CAIRN_CODE_INTERNAL, NULL,
                      "the API document could not be rendered");
  resp->status = 200;
  resp->text = docs.html;
  resp->text_len = docs.len;
  resp->content_type = "text/html; charset=utf-8";
  return CAIRN_OK;
}
