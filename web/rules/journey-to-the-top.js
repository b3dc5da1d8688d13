// rules/journey-to-the-top.js - Journey to the Top of the World for a
// newcomer: the rules in short (shared/seeds/journey-to-the-top-of-the-
// world.txt, engine/journey/README.md), the option label, one line per phase.
export const summary = [
  'Three players: Tenzing (seat 0) and Hillary (seat 1) climb as a team; the third player is the Mountain.',
  'Climbers win when both have ended a turn on the top (level 7) and come back to base camp; the Mountain wins when a climber dies.',
  'First the climbers buy equipment (Tenzing $400, Hillary $600): food, rope, O₂ tank, grappling hook, tent, bow & arrow, forecast.',
  'Each turn Tenzing has 3 actions and Hillary 2, taken at the same time: move one space (climbing a level costs the food shown on your space; ✕ is an impasse), use a card, or give a card.',
  'Ending a turn in the O₂ zone costs 1 health unless you hold an O₂ tank.',
  'The Mountain draws 2 cards a turn and plays cards by discarding others for their value: High Wind, Avalanche, Rockslide, Crevice, Frostbite, Blizzard, and the Yeti.',
];

// One line on the new-game form: what the first decisions are.
export const start = 'To start: three players (seat 0 Tenzing, seat 1 Hillary, seat 2 the Mountain); the climbers first buy their equipment.';

export const options = {
  turn_limit: { label: 'Turn limit: winter (0 = none)' },
};

export function howTo(game) {
  const v = game.view || {};
  const role = v.your_role;
  switch (v.phase) {
    case 'buy': return 'Climbers: buy equipment with your money, then "done buying".';
    case 'climbers': return 'Climbers: spend your actions (move, use or give a card), then end the turn; the Mountain waits.';
    case 'mountain': return role === 'mountain' ? 'Pay for cards by discarding others for their value, play them, move the Yeti, then end the turn.' : 'The Mountain plays its cards.';
    case 'reaction': return 'Answer the Mountain\'s card: a Rockslide (lose health or a card) or an Avalanche (protect with your hook).';
    default: return 'The expedition is over.';
  }
}
