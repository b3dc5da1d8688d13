// legal.mjs - turning a game's `choices` (the tree of its legal moves,
// openapi: Choices) into moves a person (or a bot) can pick from by number.
// Every title gives the same tree; where it holds few moves they are all
// offered, where it holds many (an Everest plan: tens of thousands) a few
// are drawn at random by walking it.

// How many moves are drawn from a large tree for a listing: enough to offer
// a real choice, few enough to read in a chat. Any other legal move can
// still be typed as JSON with `!play`.
export const PLANS_OFFERED = 8;

// Trees of at most this many moves are listed in full.
export const LIST_MAX = 400;

// The reference walker (openapi/base.yaml, Choices): a random legal move.
export function pickMove(node, random = Math.random, move = {}) {
  if (node.all) { node.all.forEach((part) => pickMove(part, random, move)); return move; }
  const option = node.options[Math.floor(random() * node.options.length)];
  setMember(move, node.choose, option.value);
  if (option.then && !(option.done && random() < 0.5)) pickMove(option.then, random, move);
  return move;
}

// Set the member a JSON pointer of plain segments names; a numeric segment
// makes an array.
function setMember(move, pointer, value) {
  const keys = pointer.split('/').slice(1);
  let at = move;
  keys.slice(0, -1).forEach((key, i) => { at = at[key] ??= /^\d+$/.test(keys[i + 1]) ? [] : {}; });
  at[keys[keys.length - 1]] = value;
}

// How many moves the tree holds (walks from its root).
export function countMoves(node) {
  if (node.all) return node.all.reduce((n, part) => n * countMoves(part), 1);
  return node.options.reduce((n, o) => n + (o.then ? countMoves(o.then) + (o.done ? 1 : 0) : 1), 0);
}

// Every move of the tree, in its order (small trees only).
export function allMoves(node, move = {}) {
  const copy = (m) => structuredClone(m);
  if (node.all) return node.all.reduce((moves, part) => moves.flatMap((m) => allMoves(part, m)), [copy(move)]);
  return node.options.flatMap((o) => {
    const m = copy(move);
    setMember(m, node.choose, o.value);
    if (!o.then) return [m];
    return [...(o.done ? [m] : []), ...allMoves(o.then, m)];
  });
}

// The moves to offer for `choices` (null when the seat may not act), as an
// array of complete move objects: all of them, or PLANS_OFFERED distinct
// ones drawn with `random` (a function returning [0, 1)).
export function choicesFrom(choices, random = Math.random) {
  if (!choices) return [];
  const n = countMoves(choices);
  if (n <= LIST_MAX) return allMoves(choices);
  const seen = new Set();
  const moves = [];
  while (moves.length < PLANS_OFFERED) {
    const move = pickMove(choices, random);
    const key = JSON.stringify(move);
    if (!seen.has(key)) moves.push(move), seen.add(key);
  }
  return moves;
}

// A one-line reading of a large tree, for a person who wants to type a move
// of their own: the members chosen, in order.
export function describeChoices(choices) {
  const names = [];
  const visit = (node) => {
    if (node.all) return node.all.forEach(visit);
    if (!names.includes(node.choose)) names.push(node.choose);
    const next = node.options.find((o) => o.then);
    if (next) visit(next.then);
  };
  visit(choices);
  return `${countMoves(choices)} moves; a move sets ${names.join(', ')}, e.g. !play ${JSON.stringify(pickMove(choices, () => 0))}`;
}
