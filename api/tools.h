/*
 * tools.h - offline commands of the cairn binary (tools.c).
 */
#ifndef API_TOOLS_H
#define API_TOOLS_H

/* `cairn verify FILE`: exit status 0 verified, 1 not, 2 unreadable. */
int api_tool_verify(const char *path);

/* `cairn revalidate [--db PATH]`: 0 none diverge, 1 some do, 2 error. */
int api_tool_revalidate(const char *db_url);

#endif
