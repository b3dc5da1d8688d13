// boards/generic.js - any title: the view as a readable JSON tree, and every
// legal move as a button (grouped by type). Also the plan builder for compact
// "<x>-options" descriptors (Everest's plan-options), and the form for a
// `choices` tree too large to list (treePicker: one select per choice).
import { h } from '../svg.js';
import { setMember } from '../choices.js';

export function jsonTree(value, key, depth = 0) {
  if (value === null || typeof value !== 'object') {
    const cls = value === null ? 'null' : typeof value;
    return h('div', { class: 'jt-leaf' }, key != null ? h('span', { class: 'jt-key' }, `${key}: `) : null,
      h('span', { class: `jt-${cls}` }, JSON.stringify(value)));
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const flat = entries.every(([, v]) => v === null || typeof v !== 'object');
  if (flat && JSON.stringify(value).length < 70) {
    return h('div', { class: 'jt-leaf' }, key != null ? h('span', { class: 'jt-key' }, `${key}: `) : null,
      h('span', { class: 'jt-inline' }, JSON.stringify(value)));
  }
  const d = h('details', { class: 'jt-node', open: depth < 2 ? true : null },
    h('summary', {}, key != null ? h('span', { class: 'jt-key' }, `${key}`) : 'view',
      h('span', { class: 'jt-meta' }, Array.isArray(value) ? ` [${value.length}]` : ` {${entries.length}}`)));
  for (const [k, v] of entries) d.append(jsonTree(v, k, depth + 1));
  return d;
}

export function render(game) {
  return h('div', { class: 'generic-view' }, jsonTree(game.view ?? null, null));
}

export function describe(m) {
  return Object.entries(m).filter(([k]) => k !== 'type')
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`).join(', ') || m.type;
}

// labels: {coin(c), face(f)} the title's names for coins and faces, so the
// form says what the board says (Everest: null, ace, 2…).
function planBuilder(desc, ctx, labels = {}) {
  const coinLabel = labels.coin || String, faceLabel = labels.face || String;
  const box = h('form', { class: 'plan-builder' });
  const rows = [];
  for (let i = 0; i < desc.length; i++) {
    const coin = h('select', { name: `coin${i}` }, desc.coins.map((c, k) => h('option', { value: c, selected: k === i ? true : null }, coinLabel(c))));
    const face = h('select', { name: `face${i}` }, desc.faces.map((f) => h('option', { value: f }, faceLabel(f))));
    const dir = h('select', { name: `dir${i}` }, desc.directions.map((d) => h('option', { value: d }, d)));
    rows.push({ coin, face, dir });
    box.append(h('div', { class: 'plan-row' }, `${i + 1}. coin `, coin, ' side ', face, ' direction ', dir));
  }
  box.append(h('button', { type: 'submit', class: 'move primary' }, 'Submit plan'));
  box.addEventListener('submit', (e) => {
    e.preventDefault();
    const plan = rows.map((r) => ({ coin: Number(r.coin.value), face: r.face.value, dir: r.dir.value }));
    ctx.onMove({ type: desc.type.replace(/-options$/, ''), plan });
  });
  return box;
}

export function picker(game, legal, ctx, describeMove = describe, labels = {}) {
  const wrap = h('div', { class: 'generic-picker' });
  const groups = new Map();
  for (const m of legal) { if (!groups.has(m.type)) groups.set(m.type, []); groups.get(m.type).push(m); }
  for (const [type, moves] of groups) {
    // labels.type(type): the heading a title gives a kind of move.
    const heading = (t) => (labels.type && labels.type(t)) || t.replace(/[-_]/g, ' ');
    if (/-options$/.test(type)) { for (const d of moves) wrap.append(h('h4', {}, heading(type.replace(/-options$/, ''))), planBuilder(d, ctx, labels)); continue; }
    const row = h('div', { class: 'type-group' }, h('h4', {}, heading(type)));
    for (const m of moves) {
      row.append(h('button', { class: 'move', dataset: { move: JSON.stringify(m) }, onclick: () => ctx.onMove(m) },
        describeMove(m) || type));
    }
    wrap.append(row);
  }
  return wrap;
}

// One choice of a tree as a select, the choices after it re-drawn when it
// changes. `optional`: the move may stop before this choice ("done").
// labels[name](value): the title's words for a member's values.
function choiceForm(node, labels, optional = false) {
  const box = h('span', { class: 'choice' });
  if (node.all) {
    const parts = node.all.map((part) => choiceForm(part, labels));
    parts.forEach((p) => box.append(h('div', { class: 'plan-row' }, p.el)));
    return { el: box, fill: (move) => parts.forEach((p) => p.fill(move)) };
  }
  // "/plan/0/coin" is named coin0 (a member, then the indices above it),
  // "/type" type: the names the plan form has always had.
  const segments = node.choose.split('/').slice(1);
  const key = segments[segments.length - 1];
  const name = key + segments.filter((x) => /^\d+$/.test(x)).join('');
  const label = labels[key] || ((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const select = h('select', { name },
    optional ? h('option', { value: '' }, '(no more)') : null,
    node.options.map((o, i) => h('option', { value: String(i) }, label(o.value))));
  const rest = h('span', {});
  let next = null;
  const update = () => {
    const o = node.options[Number(select.value)];
    next = select.value !== '' && o.then ? choiceForm(o.then, labels, !!o.done) : null;
    rest.replaceChildren(next ? next.el : '');
  };
  select.addEventListener('change', update);
  update();
  const steps = segments.filter((x) => /^\d+$/.test(x)).map((x) => Number(x) + 1);
  box.append(h('label', {}, ` ${[key.replace(/_/g, ' '), ...steps].join(' ')} `, select), rest);
  return {
    el: box,
    fill: (move) => {
      if (select.value === '') return;
      setMember(move, node.choose, node.options[Number(select.value)].value);
      if (next) next.fill(move);
    },
  };
}

// A form that builds one move by walking `choices` (openapi: Choices).
export function treePicker(choices, ctx, labels = {}) {
  const form = h('form', { class: 'plan-builder' });
  const top = choiceForm(choices, labels);
  form.append(top.el, h('button', { type: 'submit', class: 'move primary' }, 'Submit'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const move = {};
    top.fill(move);
    ctx.onMove(move);
  });
  return form;
}
