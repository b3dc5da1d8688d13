/*
 * rules.h - the rules-text headings Journey to the Top of the World reports
 * in `cairn_error.rule`.
 *
 * Each string is the title id plus a heading of the rules text
 * (shared/seeds/journey-to-the-top-of-the-world.txt), word for word, so
 * code and tests share one spelling; the two card tables under "Specific
 * Card Contents" are named by their header cells ("Player Equipment Card
 * Name", "Environment Card Name") without "Name". All are Static.
 */
#ifndef JOURNEY_RULES_H
#define JOURNEY_RULES_H

/* Setup step 6: buying equipment before the first turn. */
#define JOURNEY_RULE_SETUP "journey-to-the-top: Setup"
/* The climbers' actions: moving, using and giving equipment, their turn. */
#define JOURNEY_RULE_CLIMBERS                                                                      \
  "journey-to-the-top: Sherpa Tenzing Norgay and Sir Edmund Hillary (climbing players)"
/* The environment player's turn: drawing, paying and playing cards. */
#define JOURNEY_RULE_MOUNTAIN "journey-to-the-top: Mt. Everest (environment player)"
/* What each equipment card allows (Player Equipment Card table). */
#define JOURNEY_RULE_EQUIPMENT "journey-to-the-top: Player Equipment Card"
/* What each environment card does, and the reactions it asks for. */
#define JOURNEY_RULE_ENVIRONMENT "journey-to-the-top: Environment Card"

#endif
