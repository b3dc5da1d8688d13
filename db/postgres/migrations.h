/*
 * migrations.h - the PostgreSQL schema migrations compiled into the
 * binary.
 *
 * build.mk turns every migrations/postgres/NNNN_verb_noun.sql into one
 * entry of db_pg_migrations[], ordered by NNNN and ended by an entry with
 * number 0. A migration, once released, is never edited: a change is a new
 * file. The numbering is this backend's own (migrations/sqlite/ has its
 * history, which a new backend need not replay).
 */
#ifndef DB_POSTGRES_MIGRATIONS_H
#define DB_POSTGRES_MIGRATIONS_H

struct db_pg_migration {
  int number;       /* NNNN from the file name; schema_version after it runs */
  const char *name; /* Static: the file name, for logs */
  const char *sql;  /* Static: the file's text */
};

extern const struct db_pg_migration db_pg_migrations[];

#endif
