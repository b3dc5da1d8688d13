// rules/himalaya.js - what a newcomer reads about Himalaya: the rules in
// short (shared/seeds/himalaya.txt, engine/himalaya/README.md), the option
// labels (none) and one line for the decision the game is waiting for.
export const summary = [
  'Goal: be the first to bring your climber to the summit (field 40).',
  'On your turn take one of the thrown dice (or play a supply card: use either of its numbers) and move one pawn by it: your climber, or one of your four Sherpas.',
  'Your climber may only stop on a field where at least two of your own Sherpas stand. Sherpas build the way: up by the full number, or down by half of it (rounded up).',
  'A Sherpa landing on Sherpas may go on as many fields as it found there, taking your other Sherpas along (the take-along rule). Landslides and avalanches send a Sherpa down the arrow.',
  'When the dice are thrown again a Yeti card moves the Yeti; Sherpas it meets flee to the last camp, except in a camp or beside their own climber.',
  'Two of your Sherpas in a high camp (15, 28) give back one used supply card, once per camp. A supply card cannot move a pawn onto or off a snowfield, nor onto the summit.',
  'When the Yeti deck runs out it is shuffled again with the Bad Weather card in it; uncovering Bad Weather ends the game at once, and the climber highest up wins.',
];

// One line on the new-game form: what the first decisions are.
export const start = 'To start: the dice are thrown for the first player, who takes one and moves a pawn; then each player in turn takes one of the dice left.';

export const options = {};

export function howTo(game) {
  const pool = game.view && game.view.dice ? game.view.dice.pool || [] : [];
  if (pool.length === 1) return 'One die left: take it and move a pawn, or throw it again first ("Throw again").';
  return 'Pick a die (or a supply card), then move your climber or one Sherpa by its number; the climber needs two of your Sherpas where it lands.';
}
