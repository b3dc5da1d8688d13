/*
 * main.c - the cairn program's entry point: flags and environment, opening
 * storage, checking the registered titles, wiring the game service to the
 * HTTP server (its listener) and serving until SIGINT/SIGTERM; or, as
 * `cairn verify` / `cairn revalidate`, one of the offline tools (tools.c).
 * It sits above every layer, so no layer has to know how the others are
 * started.
 */
#include "../api/deliver.h"
#include "../api/notify.h"
#include "../api/server.h"
#include "../game/game.h"
#include "tools.h"

#include "../log/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <microhttpd.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

struct config {
  long vacation_days;
  bool test_clock;
  double rate_per_address, rate_per_token;
  long max_open_games;
  long max_connections;
  long per_address; /* connections per client address, 0 = no cap */
  long head_timeout_s, body_timeout_s;
  bool allow_private_webhooks;
  long webhook_backoff_ms;
  long webhook_lease_ms; /* --webhook-lease-ms: how long a node's claim on a delivery holds */
  const char *host;
  unsigned port;
  const char *db_url;   /* --db, CAIRN_DB: a path or a storage URL (db_open) */
  long drain_s;         /* --drain-seconds: GET /readyz says 503 this long before the stop */
  long bot_threads;     /* --bot-threads: the bots' workers (game/botpool.c) */
  bool access_log;      /* --access-log: a JSON line per answered request */
  const char *key_path; /* --key, CAIRN_KEY: the signing key's file; NULL: beside the database */
  const char *web_dir;
  const char *cors_origins; /* --cors-origins, CAIRN_CORS_ORIGINS: "a,b", "*" or NULL */
  const char *public_url;   /* --public-url, CAIRN_PUBLIC_URL: the page's address, or NULL */
};

static void usage(FILE *out)
{
  fprintf(
      out,
      "usage: cairn [--host ADDR] [--port N] [--db PATH|URL]\n"
      "       cairn verify FILE           check an exported game offline\n"
      "       cairn revalidate [--db PATH|URL] replay every stored game, report divergence\n"
      "       cairn ratings-recompute [--db PATH|URL] recompute every rating from the\n"
      "                                   finished games, compare with the stored ones\n"
      "       cairn backup --to FILE [--db PATH] [--url URL]  copy the running server's store\n"
      "       cairn restore --from FILE [--db PATH]  put a backup in place (server stopped)\n"
      "       cairn migrate-db --from FILE --to URL  copy a SQLite store into an empty\n"
      "                                   PostgreSQL database (servers stopped)\n"
      "  --host  IPv4 address to listen on (env CAIRN_HOST, default 127.0.0.1)\n"
      "  --port  TCP port, 0 for any free one (env CAIRN_PORT, default 8080)\n"
      "  --db    storage: a SQLite file, or a URL (sqlite:PATH) (env CAIRN_DB,\n"
      "          default ./data/cairn.db)\n"
      "  --web   folder of the web client served at / (env CAIRN_WEB, default ./web)\n"
      "  --allow-private-webhooks  let webhooks reach loopback and private addresses\n"
      "          (tests only; env CAIRN_ALLOW_PRIVATE_WEBHOOKS=1)\n"
      "  --webhook-backoff-ms N    first retry delay of a failed webhook (default 1000;\n"
      "          env CAIRN_WEBHOOK_BACKOFF_MS)\n"
      "  --webhook-lease-ms N      how long a node's claim on an owed delivery holds unrenewed:\n"
      "          another node takes over a dead node's deliveries after it (default 30000;\n"
      "          env CAIRN_WEBHOOK_LEASE_MS)\n"
      "  --rate-limit A[,T]  requests per second per client address (anonymous) and per player\n"
      "          (default 100,50; 0 turns a limit off; env CAIRN_RATE_LIMIT)\n"
      "  --max-open-games N  unfinished games one player may create (default 100;\n"
      "          0 for no cap; env CAIRN_MAX_OPEN_GAMES)\n"
      "  --max-connections N open connections at most, waiting clients included\n"
      "          (default 20000; env CAIRN_MAX_CONNECTIONS)\n"
      "  --max-connections-per-address N  open connections one client address may hold\n"
      "          (default 64; 0 for no cap; env CAIRN_MAX_CONNECTIONS_PER_ADDRESS)\n"
      "  --head-timeout S    seconds a request's head may take to arrive, from the\n"
      "          connection's opening or the previous answer (default 30; env CAIRN_HEAD_TIMEOUT)\n"
      "  --body-timeout S    seconds a request's body may take after its head\n"
      "          (default 60; env CAIRN_BODY_TIMEOUT)\n"
      "  --test-clock  a clock tests move with POST /v1/test/clock (env CAIRN_TEST_CLOCK=1)\n"
      "  --vacation-days N   each player's vacation bank per year (default 21;\n"
      "          env CAIRN_VACATION_DAYS)\n"
      "  --key PATH    the export signing key's file, made if missing (env CAIRN_KEY;\n"
      "          default server.key beside the SQLite file); nodes on one database share one\n"
      "  --access-log  a JSON line on stderr per answered request (env CAIRN_ACCESS_LOG=1)\n"
      "  --public-url URL  where people open this server's page (https://cairn.example):\n"
      "          chat messages link to each game there (env CAIRN_PUBLIC_URL)\n"
      "  --cors-origins LIST  origins whose pages may call the API from a browser:\n"
      "          a,b or * (env CAIRN_CORS_ORIGINS; default none)\n"
      "  --bot-threads N     threads the search bots think on, 1..8 (default 2;\n"
      "          env CAIRN_BOT_THREADS)\n"
      "  --drain-seconds S   on SIGTERM/SIGINT, keep serving S seconds with GET /readyz\n"
      "          answering 503, so a load balancer moves clients away first; then stop\n"
      "          taking connections and finish the requests in flight (default 0;\n"
      "          env CAIRN_DRAIN_SECONDS)\n");
}

/* "A" or "A,T": requests per second per address and per token. */
static bool parse_rates(const char *text, struct config *cfg)
{
  char *end = NULL;

  cfg->rate_per_address = strtod(text, &end);
  cfg->rate_per_token = cfg->rate_per_address / 2;
  if (*end == ',')
    cfg->rate_per_token = strtod(end + 1, &end);
  return *end == '\0' && cfg->rate_per_address >= 0 && cfg->rate_per_token >= 0;
}

static bool parse_port(const char *text, unsigned *out)
{
  char *end = NULL;
  unsigned long v;

  errno = 0;
  v = strtoul(text, &end, 10);
  if (errno || !*text || *end || v > 65535)
    return false;
  *out = (unsigned)v;
  return true;
}

/* A numeric environment variable, or `fallback` when it is not set. */
static long env_long(const char *name, long fallback)
{
  const char *v = getenv(name);

  return v ? strtol(v, NULL, 10) : fallback;
}

/* --public-url into out[size] without its final "/"; "" for none. False
 * for what is not an http(s) URL, or does not fit. */
static bool public_url_ok(const char *url, char *out, size_t size)
{
  size_t n = url ? strlen(url) : 0;

  out[0] = '\0';
  if (!n)
    return true;
  while (n && url[n - 1] == '/')
    n--;
  if (n >= size || (strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0) ||
      strpbrk(url, " \t\r\n\"<>"))
    return false;
  snprintf(out, size, "%.*s", (int)n, url);
  return true;
}

/* Flags win over the environment, which wins over the defaults. */
static bool parse_config(int argc, char **argv, struct config *cfg)
{
  const char *port = getenv("CAIRN_PORT");
  int i;

  cfg->host = getenv("CAIRN_HOST") ? getenv("CAIRN_HOST") : "127.0.0.1";
  cfg->db_url = getenv("CAIRN_DB") ? getenv("CAIRN_DB") : "data/cairn.db";
  cfg->port = 8080;
  cfg->web_dir = getenv("CAIRN_WEB") ? getenv("CAIRN_WEB") : "web";
  cfg->allow_private_webhooks = getenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS") &&
                                strcmp(getenv("CAIRN_ALLOW_PRIVATE_WEBHOOKS"), "1") == 0;
  cfg->test_clock = getenv("CAIRN_TEST_CLOCK") && strcmp(getenv("CAIRN_TEST_CLOCK"), "1") == 0;
  cfg->vacation_days = env_long("CAIRN_VACATION_DAYS", 21);
  cfg->rate_per_address = 100;
  cfg->rate_per_token = 50;
  if (getenv("CAIRN_RATE_LIMIT") && !parse_rates(getenv("CAIRN_RATE_LIMIT"), cfg))
    return false;
  cfg->max_open_games = env_long("CAIRN_MAX_OPEN_GAMES", 100);
  cfg->max_connections = env_long("CAIRN_MAX_CONNECTIONS", API_CONNECTION_LIMIT);
  cfg->per_address = env_long("CAIRN_MAX_CONNECTIONS_PER_ADDRESS", API_CONNECTIONS_PER_ADDRESS);
  cfg->head_timeout_s = env_long("CAIRN_HEAD_TIMEOUT", API_HEAD_TIMEOUT_S);
  cfg->body_timeout_s = env_long("CAIRN_BODY_TIMEOUT", API_BODY_TIMEOUT_S);
  cfg->webhook_backoff_ms = env_long("CAIRN_WEBHOOK_BACKOFF_MS", 1000);
  cfg->webhook_lease_ms = env_long("CAIRN_WEBHOOK_LEASE_MS", 30000);
  cfg->drain_s = env_long("CAIRN_DRAIN_SECONDS", 0);
  cfg->bot_threads = env_long("CAIRN_BOT_THREADS", GAME_BOT_THREADS);
  cfg->key_path = getenv("CAIRN_KEY");
  cfg->cors_origins = getenv("CAIRN_CORS_ORIGINS");
  cfg->public_url = getenv("CAIRN_PUBLIC_URL");
  cfg->access_log = getenv("CAIRN_ACCESS_LOG") && strcmp(getenv("CAIRN_ACCESS_LOG"), "1") == 0;
  if (port && !parse_port(port, &cfg->port))
    return false;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      exit(0);
    }
    if (strcmp(argv[i], "--allow-private-webhooks") == 0) {
      cfg->allow_private_webhooks = true;
      continue;
    }
    if (strcmp(argv[i], "--test-clock") == 0) {
      cfg->test_clock = true;
      continue;
    }
    if (strcmp(argv[i], "--access-log") == 0) {
      cfg->access_log = true;
      continue;
    }
    if (i + 1 >= argc)
      return false;
    if (strcmp(argv[i], "--host") == 0)
      cfg->host = argv[++i];
    else if (strcmp(argv[i], "--port") == 0) {
      if (!parse_port(argv[++i], &cfg->port))
        return false;
    } else if (strcmp(argv[i], "--db") == 0) {
      cfg->db_url = argv[++i];
    } else if (strcmp(argv[i], "--web") == 0) {
      cfg->web_dir = argv[++i];
    } else if (strcmp(argv[i], "--rate-limit") == 0) {
      if (!parse_rates(argv[++i], cfg))
        return false;
    } else if (strcmp(argv[i], "--max-open-games") == 0) {
      cfg->max_open_games = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--max-connections") == 0) {
      cfg->max_connections = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--max-connections-per-address") == 0) {
      cfg->per_address = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--head-timeout") == 0) {
      cfg->head_timeout_s = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--body-timeout") == 0) {
      cfg->body_timeout_s = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--vacation-days") == 0) {
      cfg->vacation_days = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--webhook-backoff-ms") == 0) {
      cfg->webhook_backoff_ms = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--public-url") == 0) {
      cfg->public_url = argv[++i];
    } else if (strcmp(argv[i], "--cors-origins") == 0) {
      cfg->cors_origins = argv[++i];
    } else if (strcmp(argv[i], "--webhook-lease-ms") == 0) {
      cfg->webhook_lease_ms = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--key") == 0) {
      cfg->key_path = argv[++i];
    } else if (strcmp(argv[i], "--drain-seconds") == 0) {
      cfg->drain_s = strtol(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--bot-threads") == 0) {
      cfg->bot_threads = strtol(argv[++i], NULL, 10);
    } else {
      return false;
    }
  }
  /* A pool of none would leave every search bot's game waiting forever. */
  return cfg->bot_threads >= 1 && cfg->bot_threads <= GAME_BOT_THREADS_MAX;
}

/* The default data directory is created on first run; other paths are the
 * operator's to provide. */
static void ensure_parent_dir(const char *path)
{
  const char *slash = strrchr(path, '/');
  char dir[4096];

  if (!slash || (size_t)(slash - path) >= sizeof(dir) || slash == path)
    return;
  memcpy(dir, path, (size_t)(slash - path));
  dir[slash - path] = '\0';
  mkdir(dir, 0700);
}

/* Files an older server created with the default umask are closed up too:
 * the umask covers only files created from now on. */
static void close_up_db_files(const char *db_path)
{
  static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
  char path[4096];
  size_t i;

  for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
    snprintf(path, sizeof(path), "%s%s", db_path, suffixes[i]);
    if (chmod(path, 0600) != 0 && errno != ENOENT)
      log_line(LOG_ERROR, "main", "cannot make %s private: %s", path, strerror(errno));
  }
}

/* `url` as the log may show it: a storage URL's user and password
 * ("postgres://user:secret@host/db") become "…@". */
static const char *shown_url(const char *url, char *out, size_t size)
{
  const char *scheme_end = strstr(url, "://");
  const char *at = scheme_end ? strchr(scheme_end + 3, '@') : NULL;

  if (!at)
    return url;
  snprintf(out, size, "%.*s…%s", (int)(scheme_end + 3 - url), url, at);
  return out;
}

/* The folder a file lives in: the data directory of the key, where
 * backups are made too. */
static void folder_of(const char *path, char *out, size_t size)
{
  const char *slash = strrchr(path, '/');

  if (!slash)
    snprintf(out, size, ".");
  else
    snprintf(out, size, "%.*s", (int)(slash - path), path);
}

/* The export signing key at `path`, made on the first start (api/sign.c). */
static bool load_key(const char *path, struct api_sign_key *key)
{
  struct cairn_error err = {0};

  if (api_sign_key_load(path, true, key, &err) != CAIRN_OK) {
    log_line(LOG_ERROR, "main", "signing key: %s", err.detail);
    return false;
  }
  return true;
}

/* Every waiting client is an open socket: allow as many as the hard limit
 * lets us, so thousands of idle long-polls do not run out of descriptors. */
static void raise_fd_limit(void)
{
  struct rlimit lim;

  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

/* glibc gives each busy thread an arena and hands memory above the trim
 * threshold back to the kernel at every free() that leaves it spare. A
 * request frees its answer buffer and state copies moments before the next
 * request asks for them again, so every request paid an madvise() and a TLB
 * shootdown across both cores (6% of the server's time under load, perf).
 * Keeping up to 64 MiB per arena costs at most that much resident memory
 * and spares the kernel round trip. */
static void tune_malloc(void)
{
  mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
}

static unsigned bound_port(struct MHD_Daemon *daemon)
{
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);

  return info ? info->port : 0;
}

static int wait_for_signal(void)
{
  sigset_t set;
  int sig = 0;

  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigwait(&set, &sig);
  return sig;
}

/* The long-polls and streams api_notify_stop woke are answered by their
 * polling threads; stopping the daemon before they are would close their
 * connections unanswered (test_operations saw a parked long-poll cut off
 * 3 stops in 4). They take milliseconds; a client too slow to take its
 * answer is not waited for past STOP_ANSWER_MS. */
#define STOP_ANSWER_MS 2000

static void wait_for_waiters(const struct api_server *server)
{
  struct timespec pause = {.tv_nsec = 5 * 1000 * 1000};

  for (int waited = 0; waited < STOP_ANSWER_MS &&
                       !(api_notify_settled(server->notify) && api_server_settled(server));
       waited += 5)
    nanosleep(&pause, NULL);
}

/* A stop was asked for: say so on GET /readyz and keep serving for
 * `seconds` (0: none), so that a load balancer polling it stops sending
 * new requests here before this server stops taking connections. A second
 * signal cuts the wait short. */
static void drain(struct api_server *server, long seconds)
{
  sigset_t set;
  struct timespec wait = {.tv_sec = seconds > 0 ? seconds : 0};

  atomic_store(&server->draining, true);
  log_line(LOG_INFO, "main", "stopping: draining for %ld s, then finishing the requests in flight",
           (long)wait.tv_sec);
  if (wait.tv_sec == 0)
    return;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigtimedwait(&set, NULL, &wait);
}

/* Storage heard of a change another node committed (db_listen_start):
 * announced here as a change of this node is, when a client here may care
 * (api_notify_heed); after a gap in hearing, every waiting client looks
 * again. */
static void on_remote_change(void *arg, const struct db_change *change)
{
  struct api_server *server = arg;

  if (!change)
    api_notify_resync(server->notify);
  else if (change->chat)
    api_chat_remote(server, change);
  else if (change->invitation)
    api_invitation_remote(server, change);
  else if (api_notify_heed(server->notify, change->game_id, change->seq))
    game_remote_change(server->game, change->game_id, change->moves);
}

int main(int argc, char **argv)
{
  struct config cfg;
  struct api_server server = {0};
  api_clock_fn clock_fn; /* the one clock: the game service's, lent to notify and delivery */
  struct sockaddr_in addr = {0};
  struct cairn_error err = {0};
  struct MHD_Daemon *daemon = NULL;
  struct db_listener *remote = NULL; /* other nodes' changes; NULL on SQLite */
  char db_file[4096];                /* the store's local file, "" for none */
  char key_path[4096];               /* the export signing key's file */
  char url_shown[4096];              /* cfg.db_url without its credentials, for the log */
  char data_dir[4096];               /* the folder it lives in */
  sigset_t set;
  int status = 1;

  if (sodium_init() < 0) {
    log_line(LOG_ERROR, "main", "libsodium failed to initialise");
    return 1;
  }
  if (argc >= 2 && strcmp(argv[1], "verify") == 0) {
    if (argc != 3) {
      usage(stderr);
      return 2;
    }
    return cli_verify(argv[2]);
  }
  if (argc >= 2 && strcmp(argv[1], "backup") == 0)
    return cli_backup(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "restore") == 0)
    return cli_restore(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "migrate-db") == 0)
    return cli_migrate_db(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "revalidate") == 0) {
    if (!parse_config(argc - 1, argv + 1, &cfg)) {
      usage(stderr);
      return 2;
    }
    return cli_revalidate(cfg.db_url);
  }
  if (argc >= 2 && strcmp(argv[1], "ratings-recompute") == 0) {
    if (!parse_config(argc - 1, argv + 1, &cfg)) {
      usage(stderr);
      return 2;
    }
    return cli_ratings_recompute(cfg.db_url);
  }
  if (!parse_config(argc, argv, &cfg)) {
    usage(stderr);
    return 2;
  }
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)cfg.port);
  if (inet_pton(AF_INET, cfg.host, &addr.sin_addr) != 1) {
    log_line(LOG_ERROR, "main", "--host must be an IPv4 address, not %s", cfg.host);
    return 2;
  }
  /* Block the stop signals before any thread starts, so every thread
   * inherits the mask and only sigwait() below receives them. */
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  signal(SIGPIPE, SIG_IGN);
  /* A write past RLIMIT_FSIZE (a quota, a size-capped volume) must fail
   * with EFBIG, which SQLite reports and we answer with 503, rather than
   * kill the server with SIGXFSZ between a commit and its answer. */
  signal(SIGXFSZ, SIG_IGN);

  if (!api_library_answers_ready()) {
    log_line(LOG_ERROR, "main", "libmicrohttpd's MHD_queue_response not found");
    return 1;
  }
  if (engine_registry_check(&err) != CAIRN_OK) {
    log_line(LOG_ERROR, "main", "%s", err.detail);
    return 1;
  }
  /* Everything the server creates holds secrets (seeds, webhook secrets,
   * the signing key): readable by its owner only, -wal and -shm included,
   * which SQLite creates later with the process's umask. */
  umask(077);
  if (db_local_file(cfg.db_url, db_file, sizeof(db_file))) {
    ensure_parent_dir(db_file);
    close_up_db_files(db_file);
  }
  raise_fd_limit();
  tune_malloc();
  /* Beside the SQLite file by default; nodes sharing a database name one
   * shared key file with --key, so any of them signs as the cluster. */
  if (cfg.key_path)
    snprintf(key_path, sizeof(key_path), "%s", cfg.key_path);
  else
    api_sign_key_path(db_file, key_path, sizeof(key_path));
  if (!load_key(key_path, &server.key))
    goto cleanup;
  folder_of(key_path, data_dir, sizeof(data_dir));
  server.data_dir = data_dir;
  if (db_open(cfg.db_url, &server.db, &err) != CAIRN_OK) {
    log_line(LOG_ERROR, "main", "cannot open %s: %s",
             shown_url(cfg.db_url, url_shown, sizeof(url_shown)), err.detail);
    goto cleanup;
  }
  clock_fn = cfg.test_clock ? api_clock_test : api_clock_realtime;
  server.web_dir = cfg.web_dir;
  server.moves_park = db_appends_queue(server.db);
  /* The game layer reaches the HTTP side's follow-ups (notify, webhooks)
   * only through the listener table, with this server as its context. */
  server.game =
      game_service_new(server.db, clock_fn, (int)(cfg.vacation_days > 0 ? cfg.vacation_days : 0),
                       &api_game_listener, &server);
  if (server.game)
    server.game->bots_held =
        getenv("CAIRN_TEST_HOLD_BOTS") && strcmp(getenv("CAIRN_TEST_HOLD_BOTS"), "1") == 0;
  server.notify = api_notify_new(clock_fn);
  server.allow_private_webhooks = cfg.allow_private_webhooks;
  if (!public_url_ok(cfg.public_url, server.public_url, sizeof(server.public_url))) {
    log_line(LOG_ERROR, "main", "--public-url must be an http or https URL of at most %zu bytes",
             sizeof(server.public_url) - 1);
    goto cleanup;
  }
  if (api_cors_configure(&server, cfg.cors_origins, &err) != CAIRN_OK) {
    log_line(LOG_ERROR, "main", "%s", err.detail);
    goto cleanup;
  }
  server.limits = api_limits_new(cfg.rate_per_address, cfg.rate_per_token);
  server.max_open_games = (int)cfg.max_open_games;
  server.max_connections =
      (int)(cfg.max_connections > 0 && cfg.max_connections <= INT_MAX ? cfg.max_connections
                                                                      : API_CONNECTION_LIMIT);
  server.deliver = api_deliver_new(server.db, clock_fn, cfg.allow_private_webhooks,
                                   cfg.webhook_backoff_ms > 0 ? cfg.webhook_backoff_ms : 1000,
                                   cfg.webhook_lease_ms >= 300 ? cfg.webhook_lease_ms : 30000);
  server.conns =
      api_conns_new((int)(cfg.per_address > 0 && cfg.per_address <= INT_MAX ? cfg.per_address : 0),
                    1000 * (cfg.head_timeout_s > 0 ? cfg.head_timeout_s : API_HEAD_TIMEOUT_S),
                    1000 * (cfg.body_timeout_s > 0 ? cfg.body_timeout_s : API_BODY_TIMEOUT_S));
  server.metrics = api_metrics_new();
  log_set_access(cfg.access_log);
  pthread_mutex_init(&server.caps_lock, NULL);
  if (!server.game || !server.conns || !server.metrics)
    goto cleanup;
  /* Before the sweeper, whose first pass (game_bots_resume) hands games
   * owing a search bot's decision to the pool. */
  if (!game_bot_pool_start(server.game, (int)cfg.bot_threads, GAME_BOT_QUEUE))
    goto cleanup;
  if (!game_sweeper_start(server.game))
    goto cleanup;
  /* Before the first request: a client that waits is told of every change
   * made on any node from then on. */
  if (server.notify &&
      db_listen_start(server.db, on_remote_change, &server, &remote, &err) != CAIRN_OK) {
    log_line(LOG_ERROR, "main", "%s", err.detail);
    goto cleanup;
  }
  daemon = api_server_start(&server, &addr);
  if (!daemon) {
    log_line(LOG_ERROR, "main", "cannot listen on %s:%u", cfg.host, cfg.port);
    goto cleanup;
  }
  printf("cairn: listening on http://%s:%u\n", cfg.host, bound_port(daemon));
  fflush(stdout);
  wait_for_signal();
  drain(&server, cfg.drain_s);
  status = 0;
cleanup:
  /* Stop taking connections, wake every parked waiter, then let in-flight
   * requests finish (MHD_stop_daemon joins the threads that serve them)
   * before storage closes and checkpoints the WAL. */
  if (server.game)
    game_sweeper_stop(server.game);
  /* Its callback wakes connections: done before the daemon stops. */
  db_listen_stop(server.db, remote);
  api_conns_stop(server.conns);
  if (daemon)
    MHD_quiesce_daemon(daemon);
  api_notify_stop(server.notify);
  wait_for_waiters(&server);
  if (daemon)
    MHD_stop_daemon(daemon);
  /* No request or sweep queues a bot now; a worker ends its job first. */
  if (server.game)
    game_bot_pool_stop(server.game);
  /* A commit still on disk answers inline from now on (api_later_done);
   * the finisher's memory stays until storage is closed, because the
   * committer thread may still be reading it. */
  api_finisher_stop(server.finisher);
  api_notify_free(server.notify);
  api_deliver_free(server.deliver);
  api_limits_free(server.limits);
  api_conns_free(server.conns);
  api_metrics_free(server.metrics);
  game_service_free(server.game);
  db_close(server.db); /* joins the committer: no api_later_done after it */
  api_finisher_free(server.finisher);
  sodium_memzero(&server.key, sizeof(server.key));
  return status;
}
