/*
 * rules.h - the rules-text headings Everest reports in `cairn_error.rule`.
 *
 * Each string is the title id plus a heading of the rules text
 * (shared/seeds/everest-piecepack.txt), word for word, so code and tests
 * share one spelling. All are Static.
 */
#ifndef EVEREST_RULES_H
#define EVEREST_RULES_H

/* Choosing a home base among the inside corners. */
#define EVEREST_RULE_SETUP "everest-piecepack: Game set up"
/* Three coins, distinct, from the available ones; "dazed" for the rest. */
#define EVEREST_RULE_PLAN "everest-piecepack: Making a Plan for your Yeti"
/* Conflicts, the high roller's order, snowballs stay simultaneous. */
#define EVEREST_RULE_EXECUTING "everest-piecepack: Executing the plans"
/* Setting coins aside, healing, the forced return. */
#define EVEREST_RULE_DAMAGE "everest-piecepack: Damage"
/* Movement, pushing, snowballs, roars and winning break no player move
 * today (they are resolved by the server), but are named for the docs. */
#define EVEREST_RULE_MOVEMENT "everest-piecepack: Yeti Movement"
#define EVEREST_RULE_PUSHING  "everest-piecepack: Pushing other Yeti"
#define EVEREST_RULE_SNOWBALL "everest-piecepack: Throwing Snowballs"
#define EVEREST_RULE_ROARING  "everest-piecepack: Roaring"
#define EVEREST_RULE_WINNING  "everest-piecepack: Winning the Game"

#endif
