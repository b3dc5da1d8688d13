/*
 * setups.h - game set-ups that several API test files share: a game with
 * an invited player who has accepted, a resignation, the ids of a page.
 */
#ifndef CAIRN_TESTS_API_SETUPS_H
#define CAIRN_TESTS_API_SETUPS_H

#include <jansson.h>
#include <stddef.h>

#include "harness.h"

/* POST /v1/games {`fields`, "seat": 0, "invite": [{"seat": `seat`, "player":
 * invitee}]} as `creator` (`fields`: JSON members, "\"title\":...,\"seats\":N"),
 * expecting 201; then `invitee` accepts (200). Its id into id[64]. */
void setup_invited_game(struct harness_server *s, const char *fields,
                        const struct harness_player *creator, const struct harness_player *invitee,
                        int seat, char id[64]);

/* POST /v1/games/{id}/resign at the game's current seq as `token`;
 * expects 200. */
void setup_resign(struct harness_server *s, const char *token, const char *id);

/* The ids a page ("games") lists, in order, as "a,b,c" into out[size]. */
void setup_page_ids(const json_t *page, char *out, size_t size);

#endif
