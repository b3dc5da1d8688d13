/*
 * rules.h - the rules-text headings Because It's There! reports in
 * `cairn_error.rule`. Each string is the title id plus a heading of the
 * rules text (shared/seeds/because-its-there.txt), so code and tests share
 * one spelling. All are Static.
 */
#ifndef BIT_RULES_H
#define BIT_RULES_H

#define BIT_RULE_SCENARIOS "because-its-there: XII. Scenarios"
#define BIT_RULE_WEATHER   "because-its-there: VII. Weather Phase"
#define BIT_RULE_DRAW      "because-its-there: VIII. Discard/Draw Phase"
#define BIT_RULE_ABC       "because-its-there: IX. Advance Base Camp Phase"
#define BIT_RULE_MOVEMENT  "because-its-there: X. Movement Phase"
#define BIT_RULE_CAMPS     "because-its-there: IX. Camps"
#define BIT_RULE_NIGHT     "because-its-there: X. Night Phase"
#define BIT_RULE_SPECIAL   "because-its-there: II.B.6 Special cards"
#define BIT_RULE_SEQUENCE  "because-its-there: VI. Sequence of Play"

#endif
