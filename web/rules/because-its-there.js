// rules/because-its-there.js - Because It's There! for a newcomer: the rules
// in short (shared/seeds/because-its-there.txt, engine/because-its-there/
// README.md), the scenario labels and which seat counts each one takes, and
// one line per phase.
export const summary = [
  'Goal: get Climbers to the Summit and back to Advance Base Camp by turn 20 (what counts depends on the scenario).',
  'Each turn has phases: Weather (a roll), Discard/Draw (discard up to three cards, draw back to five), Advance Base Camp (form Climbing Teams of Climbers, Sherpas and Supplies), Movement, Setup Camp and Night.',
  'Movement: a team moves one Terrain card at a time, and each card entered turns an Event card that may hurt it. Climbers lose Strength climbing; at Near Death they stop (a Sherpas card may carry one).',
  'A Sherpas card carries one Supplies card or one Climber. Supplies can be cached or unloaded on a Terrain card; a Camp needs a Climber and unloaded Supplies on the card.',
  'Night: Climbers recover Strength (an Event card\'s number, +1 in a Camp, +1 for declared unloaded Supplies, worse in a Storm); Sherpas alone on a card desert.',
  'Scenarios: 1924 and 1953 are solo, 1963 and Dream Teams are for two players.',
];

// One line on the new-game form: what the first decisions are.
export const start = 'To start: choose the scenario for your seat count. 1924 and Dream Teams begin with the route choice (Dream Teams after drafting Climbers); each turn then runs Weather, Discard/Draw, Advance Base Camp, Movement, Setup Camp and Night.';

export const options = {
  scenario: {
    label: 'Scenario',
    values: {
      1924: '1924 British (solo): one Climber up and back',
      1953: '1953 British (solo): two Climbers up and back',
      1963: '1963 American (2 players): South Col against West Ridge',
      'dream-teams': 'Dream Teams (2 players): draft Climbers, score points',
    },
    // XII. Scenarios: which seat counts a scenario is played with; the server
    // refuses any other (README "Options").
    seats: { 1924: [1], 1953: [1], 1963: [2], 'dream-teams': [2] },
  },
};

const PHASES = {
  draft: 'Dream Teams draft: pick a Climber for your side.',
  route: 'Choose your route up the mountain (in Dream Teams it stays secret until both have chosen).',
  discard: 'Discard up to three cards, then draw back to five.',
  'advance-base-camp': 'Form Climbing Teams at Advance Base Camp (a Climber in each, Sherpas and Supplies optional), then Ready.',
  movement: 'Move a team one card up or down (each card turns an Event), load, cache or unload Supplies, then end its movement.',
  'setup-camp': 'You may place a Camp where a Climber stands with unloaded Supplies, then Ready.',
  night: 'Night: declare which unloaded Supplies to use for +1 recovery, then rest.',
};
export function howTo(game) {
  const v = game.view || {};
  return PHASES[v.phase] || 'The expedition is over.';
}
