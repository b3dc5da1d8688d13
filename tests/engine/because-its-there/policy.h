/*
 * policy.h - a simple expedition leader for scripted games: it reads only
 * what a seat may see (its view and its legal moves), so the same code
 * drives games through the engine and through the HTTP API
 * (tests/api/test_because-its-there_game.c carries a copy).
 */
#ifndef TESTS_BIT_POLICY_H
#define TESTS_BIT_POLICY_H

#include <jansson.h>

/* The index in `legal` (Borrowed, non-empty) of the move the leader of
 * `seat` makes, given its `view` (Borrowed). */
size_t bt_policy(const json_t *view, const json_t *legal, int seat);

#endif
