/*
 * migrations.h - the schema migrations compiled into the binary.
 *
 * build.mk turns every migrations/NNNN_verb_noun.sql into one entry of
 * db_migrations[], ordered by NNNN and ended by an entry with number 0.
 * A migration, once released, is never edited: a change is a new file.
 */
#ifndef DB_SQLITE_MIGRATIONS_H
#define DB_SQLITE_MIGRATIONS_H

struct db_migration {
  int number;       /* NNNN from the file name; schema_version after it runs */
  const char *name; /* Static: the file name, for logs */
  const char *sql;  /* Static: the file's text */
};

extern const struct db_migration db_migrations[];

#endif
