// rules/everest-piecepack.js - Everest (piecepack) for a newcomer: the rules
// in short (shared/seeds/everest-piecepack.txt, engine/everest/README.md),
// the option labels, the coins' names (one spelling for the plan form and
// the board) and one line per phase.
export const summary = [
  'Goal: a yeti wins when it starts a round alone on the peak (height 5) and is still alone there at the end of the round.',
  'Set up: each player in turn picks a home base, one of the four inside corners.',
  'Each round everyone plans in secret: three coins in a row, each with a direction (N, E, S, W). Number side: ace to 5 moves that many points (1 a square level or down, 2 up a step; cliffs cannot be climbed); the null coin roars instead. Suit side: throw a snowball.',
  'The plans are revealed together and carried out coin by coin. When the order of two yeti\'s actions matters, dice are rolled and the high roller chooses the order.',
  'Moving into a yeti pushes it. A snowball hit or a fall off a cliff is one damage; walking off the edge ends your round.',
  'A roar makes the yeti in front of you (and maybe those beside you) run away, roar back or shiver.',
  'End of round: set aside one coin per damage taken, or go home to heal and get every coin back.',
];

// One line on the new-game form: what the first decisions are.
export const start = 'To start: each player in turn picks a home base corner; then everyone plans round 1 at once.';

export const options = {
  round_cap: { label: 'Round cap (0 = none)' },
};

// Coins are named by value: 0 is the null coin, 1 the ace (README "Coins").
const COINS = ['null', 'ace', '2', '3', '4', '5'];
export const coinName = (c) => COINS[c] ?? String(c);
export const faceName = (f) => (f === 'suit' ? 'suit: snowball' : f === 'value' ? 'number: move (null: roar)' : f);

export function howTo(game) {
  const v = game.view || {};
  // The plan's length: the steps whose face the choices tree asks for.
  const parts = game.choices?.options?.[0]?.then?.all || [];
  const plan = { length: parts.filter((p) => /^\/plan\/\d+\/face$/.test(p.choose || '')).length };
  switch (v.phase) {
    case 'base': return 'Choose your home base: one of the free inside corners (dashed squares).';
    case 'plan': return `Plan your ${plan.length && plan.length !== 3 ? plan.length : 'three'} moves in secret: a coin, its side and a direction each; they are revealed together.`;
    case 'order': return 'A conflict: the high roller chooses the order of this step\'s actions (snowballs fly together).';
    case 'heal': return 'End of the round: go home to heal (every coin back), or stay and set aside one coin per damage taken.';
    default: return 'The yeti follow their plans.';
  }
}
