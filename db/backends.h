/*
 * backends.h - the backends this build has, for db_open (db.c) alone.
 * A backend is a const method table (db.h) and an open function; adding
 * one is a folder under db/, a pair of lines here and one row in db.c's
 * table.
 */
#ifndef DB_BACKENDS_H
#define DB_BACKENDS_H

#include "db.h"

/* Open a backend at `location` (the URL with its scheme taken off), apply
 * its pending migrations, and set *ctx to its state, which the methods'
 * close releases. */
typedef enum cairn_status (*db_backend_open_fn)(const char *location, void **ctx,
                                                struct cairn_error *err);

/* db/sqlite/: `location` is a file path (created if missing) or ":memory:". */
extern const struct db_methods db_sqlite_methods;
enum cairn_status db_sqlite_open(const char *location, void **ctx, struct cairn_error *err);

/* db/postgres/: `location` is a libpq URL without its scheme and "//". */
extern const struct db_methods db_postgres_methods;
enum cairn_status db_postgres_open(const char *location, void **ctx, struct cairn_error *err);

#endif
