/*
 * tools.h - offline commands of the cairn binary (tools.c).
 */
#ifndef CLI_TOOLS_H
#define CLI_TOOLS_H

/* `cairn verify FILE`: exit status 0 verified, 1 not, 2 unreadable. */
int cli_verify(const char *path);

/* `cairn revalidate [--db PATH]`: 0 none diverge, 1 some do, 2 error. */
int cli_revalidate(const char *db_url);

/* `cairn backup --to FILE [--db PATH] [--url URL]` and `cairn restore
 * --from FILE [--db PATH]` (backup.c), given the arguments after the
 * command: 0 done, 1 the copy does not check, 2 error. */
int cli_backup(int argc, char **argv);
int cli_restore(int argc, char **argv);

/* `cairn migrate-db --from FILE --to URL` (migrate.c): 0 copied and
 * checked, 1 a game reads back differently, 2 error. */
int cli_migrate_db(int argc, char **argv);

/* `cairn ratings-recompute [--db PATH|URL]` (ratings.c, issue 25): 0 every
 * stored rating reproduced bit for bit, 1 not, 2 error. */
int cli_ratings_recompute(const char *db_url);

#endif
