// rules/index.js - each title's texts for a newcomer (one file per title):
// `summary` (the rules in short), `start` (the first decisions, for the
// new-game form), `options` (labels, value labels and which
// seat counts a value fits) and `howTo(game)` (one line for the decision the
// game waits for). A title without a file gets empty texts.
import * as himalaya from './himalaya.js';
import * as everest from './everest-piecepack.js';
import * as bit from './because-its-there.js';
import * as journey from './journey-to-the-top.js';

const RULES = { himalaya, 'everest-piecepack': everest, 'because-its-there': bit, 'journey-to-the-top': journey };

export function rulesFor(title) {
  const r = RULES[title] || {};
  return { summary: r.summary || [], start: r.start || '', options: r.options || {}, howTo: r.howTo || (() => '') };
}

// "round_cap" -> "Round cap" when a title gives no label.
export function optionLabel(title, key) {
  const o = rulesFor(title).options[key];
  if (o && o.label) return o.label;
  const t = key.replace(/_/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export function valueLabel(title, key, value) {
  const o = rulesFor(title).options[key];
  return (o && o.values && o.values[value]) || String(value);
}

// The values of option `key` a game of `seats` seats accepts.
export function valuesForSeats(title, key, values, seats) {
  const o = rulesFor(title).options[key];
  if (!o || !o.seats) return values;
  return values.filter((v) => !o.seats[v] || o.seats[v].includes(seats));
}
