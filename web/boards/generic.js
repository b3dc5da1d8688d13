// boards/generic.js - any title: the view as a readable JSON tree, and every
// legal move as a button (grouped by type). Also the plan builder for compact
// "<x>-options" descriptors (Everest's plan-options).
import { h } from '../svg.js';

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
