// choices.js - the `choices` tree of a seat's legal moves (openapi:
// Choices): the reference walker, and the tree read back as a list where it
// is small enough to show move by move.

// Trees of at most this many moves are offered as a list of moves (each
// title's picker); larger ones (an Everest plan) as a form, one select per
// choice (boards/generic.js, treePicker).
export const LIST_MAX = 400;

// Set the member a JSON pointer of plain segments names; a numeric segment
// makes an array.
export function setMember(move, pointer, value) {
  const keys = pointer.split('/').slice(1);
  let at = move;
  keys.slice(0, -1).forEach((key, i) => { at = at[key] ??= /^\d+$/.test(keys[i + 1]) ? [] : {}; });
  at[keys[keys.length - 1]] = value;
}

// The reference walker (openapi/base.yaml, Choices): a random legal move.
export function pickMove(node, random = Math.random, move = {}) {
  if (node.all) { node.all.forEach((part) => pickMove(part, random, move)); return move; }
  const option = node.options[Math.floor(random() * node.options.length)];
  setMember(move, node.choose, option.value);
  if (option.then && !(option.done && random() < 0.5)) pickMove(option.then, random, move);
  return move;
}

// How many moves the tree holds.
export function countMoves(node) {
  if (node.all) return node.all.reduce((n, part) => n * countMoves(part), 1);
  return node.options.reduce((n, o) => n + (o.then ? countMoves(o.then) + (o.done ? 1 : 0) : 1), 0);
}

// Every move of the tree, in its order (small trees only).
export function allMoves(node, move = {}) {
  if (node.all) return node.all.reduce((moves, part) => moves.flatMap((m) => allMoves(part, m)), [structuredClone(move)]);
  return node.options.flatMap((o) => {
    const m = structuredClone(move);
    setMember(m, node.choose, o.value);
    if (!o.then) return [m];
    return [...(o.done ? [m] : []), ...allMoves(o.then, m)];
  });
}

// The moves of `choices` as a list when it is small, else null.
export function listOf(choices) {
  return choices && countMoves(choices) <= LIST_MAX ? allMoves(choices) : null;
}
