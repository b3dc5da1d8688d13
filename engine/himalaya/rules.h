/*
 * rules.h - the rules-text headings Himalaya reports in `cairn_error.rule`.
 *
 * Each string is the title id plus a heading of the rules text
 * (shared/seeds/himalaya.txt), word for word, so code and tests share one
 * spelling. All are Static.
 */
#ifndef HIMALAYA_RULES_H
#define HIMALAYA_RULES_H

/* Turn flow: choosing a die, the last-die re-throw, supply cards. */
#define HIMALAYA_RULE_GAME "himalaya: The Game"
/* Yeti cave, avalanches and landslides, high camps, snowfields, the Yeti's field. */
#define HIMALAYA_RULE_SPACES "himalaya: Special Spaces"
/* Forward and backward Sherpa moves, the ends of the path. */
#define HIMALAYA_RULE_SHERPAS "himalaya: Moving the Sherpas"
/* The extra move after landing on Sherpas, and who travels along. */
#define HIMALAYA_RULE_TAKE_ALONG "himalaya: Take-along rule"
/* Two own Sherpas under a climber, one climber per field. */
#define HIMALAYA_RULE_CLIMBERS "himalaya: Moving the Mountain Climbers"
/* Yeti cards and what the Yeti does; no player move breaks it today. */
#define HIMALAYA_RULE_YETI "himalaya: Moving the Yeti"
/* Summit and bad weather; broken only by a summit move that would also pick
 * up a supply card (the game has ended). */
#define HIMALAYA_RULE_END "himalaya: Game End"

#endif
