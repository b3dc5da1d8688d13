// boards/himalaya.js - Himalaya: the path of fields 0-40 up the mountain, with
// camps, snowfields, slides, the Yeti cave and Yeti, climbers and Sherpas per
// seat, the dice pool, supply cards and the Yeti deck; and a move picker that
// groups `legal` by die (or supply card) -> pawn -> options.
import { s, h, svgRoot, seatColour, dieFace } from '../svg.js';

const W = 960, H = 800;
const ROWS = [[0, 8], [9, 16], [17, 24], [25, 31], [32, 37], [38, 39]];
const DEFAULT_BOARD = {
  base_camp: 0, summit: 40, camps: [0, 15, 28], high_camps: [15, 28], snowfields: [10, 25, 34, 37, 38],
  slides: [{ from: 7, to: 3, kind: 'landslide' }, { from: 12, to: 8, kind: 'landslide' },
    { from: 19, to: 16, kind: 'avalanche' }, { from: 24, to: 20, kind: 'avalanche' },
    { from: 31, to: 29, kind: 'avalanche' }, { from: 35, to: 32, kind: 'avalanche' }],
  yeti_cave: 21,
};

// Field centres: a serpentine climbing the mountain, narrower near the top.
export function fieldXY() {
  const pos = [];
  ROWS.forEach(([a, b], r) => {
    const y = 545 - r * 88;
    const margin = 70 + r * 62;
    const n = b - a + 1;
    for (let i = 0; i < n; i++) {
      const t = n === 1 ? 0.5 : i / (n - 1);
      const x = r % 2 === 0 ? margin + t * (W - 2 * margin) : W - margin - t * (W - 2 * margin);
      pos[a + i] = [x, y];
    }
  });
  pos[40] = [W / 2, 58];
  return pos;
}

function person(x, y, colour, scale = 1) {
  return s('g', { transform: `translate(${x},${y}) scale(${scale})`, class: 'climber' },
    s('path', { d: 'M-7,9 L-5,-1 Q0,-5 5,-1 L7,9 Z', fill: colour, stroke: '#fff', 'stroke-width': 1.4 }),
    s('circle', { cx: 0, cy: -6, r: 4.2, fill: colour, stroke: '#fff', 'stroke-width': 1.4 }));
}

function yetiFigure(x, y) {
  return s('g', { transform: `translate(${x},${y})`, class: 'yeti', 'data-testid': 'yeti' },
    s('ellipse', { cx: 0, cy: 4, rx: 11, ry: 13, fill: '#f4f7fb', stroke: '#556', 'stroke-width': 1.5 }),
    s('circle', { cx: 0, cy: -10, r: 8, fill: '#f4f7fb', stroke: '#556', 'stroke-width': 1.5 }),
    s('circle', { cx: -3, cy: -11, r: 1.4, fill: '#223' }), s('circle', { cx: 3, cy: -11, r: 1.4, fill: '#223' }),
    s('path', { d: 'M-3,-6 Q0,-4 3,-6', stroke: '#223', fill: 'none', 'stroke-width': 1.2 }),
    s('title', {}, 'the Yeti'));
}

function tent(x, y, label, above) {
  return s('g', { transform: `translate(${x},${y})`, class: 'camp-tent' },
    s('path', { d: 'M-14,10 L0,-12 L14,10 Z', fill: '#f2c14e', stroke: '#7a5600', 'stroke-width': 1.5 }),
    s('path', { d: 'M-3,10 L0,0 L3,10 Z', fill: '#7a5600' }),
    s('text', { x: 18, y: 6, class: 'lbl small', 'text-anchor': 'start', 'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 3 }, label));
}

export function render(game, ctx = {}) {
  const v = game.view || {};
  const board = { ...DEFAULT_BOARD, ...(v.board || {}) };
  const pos = fieldXY();
  const svg = svgRoot(W, H, 'Himalaya board');
  const defs = s('defs', {},
    s('linearGradient', { id: 'hm-sky', x1: 0, y1: 0, x2: 0, y2: 1 },
      s('stop', { offset: 0, 'stop-color': '#9cc9f0' }), s('stop', { offset: 1, 'stop-color': '#e8f3fc' })),
    s('linearGradient', { id: 'hm-rock', x1: 0, y1: 0, x2: 0, y2: 1 },
      s('stop', { offset: 0, 'stop-color': '#8f9bab' }), s('stop', { offset: 1, 'stop-color': '#6f7b62' })),
    s('pattern', { id: 'hm-snow', width: 6, height: 6, patternUnits: 'userSpaceOnUse' },
      s('rect', { width: 6, height: 6, fill: '#fff' }), s('circle', { cx: 3, cy: 3, r: 1, fill: '#9cc3e6' })),
    ...['#b5651d', '#c62828'].map((c, i) => s('marker', { id: `hm-arrow${i}`, viewBox: '0 0 10 10', refX: 8, refY: 5,
      markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', fill: c }))));
  svg.append(defs);
  svg.append(s('rect', { width: W, height: 600, fill: 'url(#hm-sky)' }));
  svg.append(s('path', { d: `M0,600 L0,520 L150,380 L260,420 L${W / 2},20 L690,330 L800,280 L${W},470 L${W},600 Z`, fill: 'url(#hm-rock)' }));
  svg.append(s('path', { d: `M${W / 2},20 L400,120 L440,105 L470,140 L520,110 L560,128 Z`, fill: '#fbfdff', opacity: 0.95 }));
  svg.append(s('rect', { y: 600, width: W, height: H - 600, fill: '#f6f1e7' }));

  // The route.
  const route = pos.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y}`).join(' ');
  svg.append(s('path', { d: route, fill: 'none', stroke: '#5b4636', 'stroke-width': 16, 'stroke-linejoin': 'round', opacity: 0.35 }));
  svg.append(s('path', { d: route, fill: 'none', stroke: '#efe6d2', 'stroke-width': 4, 'stroke-dasharray': '2 6', 'stroke-linecap': 'round' }));

  // Yeti cave behind its field.
  const [cx, cy] = pos[board.yeti_cave];
  svg.append(s('path', { d: `M${cx - 28},${cy + 14} Q${cx},${cy - 48} ${cx + 28},${cy + 14} Z`, fill: '#3b3633', opacity: 0.85 }));
  svg.append(s('text', { x: cx - 30, y: cy - 26, class: 'lbl small', 'text-anchor': 'end', 'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 3 }, 'Yeti cave'));

  // Slides: arrows bending below the route.
  for (const sl of board.slides || []) {
    const [x1, y1] = pos[sl.from], [x2, y2] = pos[sl.to];
    const mx = (x1 + x2) / 2, my = Math.max(y1, y2) + 36;
    const red = sl.kind === 'avalanche';
    svg.append(s('path', { d: `M${x1},${y1 + 18} Q${mx},${my} ${x2},${y2 + 18}`, fill: 'none',
      stroke: red ? '#c62828' : '#b5651d', 'stroke-width': 3, 'stroke-dasharray': red ? '7 4' : null,
      'marker-end': `url(#hm-arrow${red ? 1 : 0})`, class: `slide ${sl.kind}` },
      s('title', {}, `${sl.kind} ${sl.from} → ${sl.to}`)));
  }

  // Fields.
  const fieldsG = s('g', { class: 'fields' });
  for (let f = 0; f <= 40; f++) {
    const [x, y] = pos[f];
    const snow = board.snowfields.includes(f), camp = board.camps.includes(f);
    const r = f === 0 || f === 40 ? 22 : 17;
    fieldsG.append(s('circle', { cx: x, cy: y, r, id: `hm-field-${f}`, 'data-field': f,
      class: `field${snow ? ' snow' : ''}${camp ? ' camp' : ''}`,
      fill: snow ? 'url(#hm-snow)' : camp ? '#ffe9a8' : '#fbf6ea', stroke: snow ? '#4a90c8' : '#5b4636', 'stroke-width': 2 },
    s('title', {}, `field ${f}${snow ? ' (snowfield)' : ''}${camp ? ' (camp)' : ''}`)));
    fieldsG.append(s('text', { x, y: y + 4.5, class: 'num', 'text-anchor': 'middle' }, String(f)));
  }
  svg.append(fieldsG);
  const [bx, by] = pos[0];
  svg.append(tent(bx, by - 52, 'Base Camp', true));
  board.high_camps.forEach((c, i) => { const [x, y] = pos[c]; svg.append(tent(x, y - 50, `High Camp ${i ? 'II' : 'I'}`, true)); });
  const [sx, sy] = pos[40];
  svg.append(s('g', {}, s('line', { x1: sx, y1: sy - 20, x2: sx, y2: sy - 52, stroke: '#333', 'stroke-width': 2 }),
    s('path', { d: `M${sx},${sy - 52} L${sx + 22},${sy - 45} L${sx},${sy - 38} Z`, fill: '#d7263d' }),
    s('text', { x: sx + 30, y: sy + 5, class: 'lbl' }, 'Summit')));

  // Pieces: Sherpas above a field, climbers below it.
  const climbers = v.climbers || [], sherpas = v.sherpas || [];
  const byField = new Map();
  const add = (f, p) => { if (!byField.has(f)) byField.set(f, { sherpas: [], climbers: [] }); byField.get(f)[p.kind].push(p); };
  sherpas.forEach((list, seat) => list.forEach((f, i) => add(f, { kind: 'sherpas', seat, i })));
  climbers.forEach((f, seat) => add(f, { kind: 'climbers', seat }));
  const piecesG = s('g', { class: 'pieces' });
  for (const [f, { sherpas: sh, climbers: cl }] of byField) {
    const [x, y] = pos[f];
    sh.forEach((p, k) => {
      const row = Math.floor(k / 5), n = Math.min(5, sh.length - row * 5), col = k % 5;
      const px = x + (col - (n - 1) / 2) * 12, py = y - 25 - row * 12;
      piecesG.append(s('g', { class: 'sherpa', 'data-seat': p.seat, 'data-sherpa': p.i },
        s('circle', { cx: px, cy: py, r: 6, fill: seatColour(p.seat), stroke: '#fff', 'stroke-width': 1.5 }),
        s('text', { x: px, y: py + 3, class: 'pip', 'text-anchor': 'middle' }, String(p.i)),
        s('title', {}, `Sherpa ${p.i} of seat ${p.seat} on field ${f}`)));
    });
    cl.forEach((p, k) => {
      const px = x + (k - (cl.length - 1) / 2) * 15, py = y + 30;
      const g = person(px, py, seatColour(p.seat), 1.05);
      g.setAttribute('data-seat', p.seat);
      g.append(s('title', {}, `climber of seat ${p.seat} on field ${f}`));
      piecesG.append(g);
    });
  }
  svg.append(piecesG);
  if (v.yeti != null && pos[v.yeti]) { const [yx, yy] = pos[v.yeti]; svg.append(yetiFigure(yx + 27, yy - 14)); }
  svg.append(s('g', { class: 'highlights', id: 'hm-highlights' }));
  svg.append(s('g', { class: 'targets', id: 'hm-targets' }));

  // The table: dice pool, supply cards, Yeti deck.
  const t = s('g', { transform: 'translate(0,600)' });
  t.append(s('text', { x: 24, y: 28, class: 'lbl head' }, 'Dice pool'));
  const pool = (v.dice && v.dice.pool) || [];
  pool.forEach((d, i) => t.append(dieFace(24 + i * 44, 40, 36, d, { class: 'pool-die', 'data-value': d })));
  if (!pool.length) t.append(s('text', { x: 24, y: 62, class: 'lbl small' }, 'empty'));
  const deck = v.yeti_deck || {};
  const dx = 420;
  t.append(s('text', { x: dx, y: 28, class: 'lbl head' }, 'Yeti deck'));
  t.append(s('rect', { x: dx, y: 40, width: 44, height: 60, rx: 5, fill: '#35506b', stroke: '#1d2b3a' }));
  t.append(s('text', { x: dx + 22, y: 76, class: 'lbl light', 'text-anchor': 'middle' }, String(deck.remaining ?? '?')));
  const disc = deck.discards || [];
  disc.slice(-6).forEach((c, i) => {
    const x = dx + 56 + i * 52;
    t.append(s('rect', { x, y: 40, width: 46, height: 60, rx: 5, fill: c === 'bad weather' ? '#5d4b8a' : '#fff', stroke: '#35506b' }));
    t.append(s('text', { x: x + 23, y: 66, class: `lbl small${c === 'bad weather' ? ' light' : ''}`, 'text-anchor': 'middle' },
      c.split(' ')[0]));
    t.append(s('text', { x: x + 23, y: 82, class: `lbl small${c === 'bad weather' ? ' light' : ''}`, 'text-anchor': 'middle' },
      c.split(' ').slice(1).join(' ')));
  });
  if (deck.bad_weather_in_deck) t.append(s('text', { x: dx, y: 118, class: 'lbl small warn' }, 'Bad Weather is in the deck'));

  // Supply cards per seat.
  const supply = v.supply || [];
  t.append(s('text', { x: 24, y: 118, class: 'lbl head' }, 'Supply cards'));
  supply.forEach((sp, seat) => {
    const x = 24 + seat * 186;
    const name = ctx.names && ctx.names[seat] ? ctx.names[seat] : `seat ${seat}`;
    t.append(s('circle', { cx: x + 6, cy: 134, r: 6, fill: seatColour(seat) }));
    t.append(s('text', { x: x + 16, y: 138, class: 'lbl small' }, name.length > 18 ? `${name.slice(0, 17)}…` : name));
    (sp.cards || []).forEach((c, i) => {
      const cx2 = x + i * 46;
      t.append(s('g', { class: `supply-card${c.used ? ' used' : ''}`, opacity: c.used ? 0.35 : 1 },
        s('rect', { x: cx2, y: 144, width: 40, height: 22, rx: 4, fill: '#fff', stroke: seatColour(seat), 'stroke-width': 2 }),
        s('text', { x: cx2 + 20, y: 159, class: 'lbl small', 'text-anchor': 'middle' }, c.card),
        c.used ? s('line', { x1: cx2 + 3, y1: 163, x2: cx2 + 37, y2: 147, stroke: '#555', 'stroke-width': 1.5 }) : null,
        s('title', {}, `supply card ${c.card}${c.used ? ' (spent)' : ''}`)));
    });
  });
  svg.append(t);

  const result = v.result || game.result;
  if (result) {
    const names = (result.winners || []).map((w) => (ctx.names && ctx.names[w]) || `seat ${w}`).join(', ');
    svg.append(s('g', { class: 'result-banner' },
      s('rect', { x: 16, y: 16, width: 300, height: 66, rx: 12, fill: '#1d2b3a', opacity: 0.9 }),
      s('text', { x: 166, y: 44, class: 'lbl light big', 'text-anchor': 'middle' }, `Game over: ${result.reason || ''}`),
      s('text', { x: 166, y: 68, class: 'lbl light', 'text-anchor': 'middle' }, `Winner: ${names || 'nobody'}`)));
  }
  return svg;
}

// Fields a Himalaya move would touch, for hover highlights.
function moveFields(v, seat, m) {
  if (!v || seat == null) return [];
  if (m.pawn === 'climber') { const f = v.climbers[seat]; return [f, Math.min(40, f + m.value)]; }
  if (m.pawn === 'sherpa') {
    const f = v.sherpas[seat][m.sherpa];
    return [f, m.direction === 'down' ? Math.max(0, f - Math.ceil(m.value / 2)) : Math.min(40, f + m.value)];
  }
  return [];
}

export function highlight(svg, fields) {
  const g = svg.querySelector('#hm-highlights');
  if (!g) return;
  g.replaceChildren();
  const pos = fieldXY();
  fields.forEach((f, i) => {
    if (pos[f]) g.append(s('circle', { cx: pos[f][0], cy: pos[f][1], r: 23, fill: 'none',
      stroke: i ? '#ff2d55' : '#ffb300', 'stroke-width': 4, 'stroke-dasharray': i ? null : '5 3' }));
  });
}

// Clickable tags on the board where each plain option of the chosen die or
// card lands (take-along variants are offered as buttons only).
function targets(svg, v, seat, moves, ctx) {
  const g = svg && svg.querySelector('#hm-targets');
  if (!g) return;
  g.replaceChildren();
  const pos = fieldXY();
  const at = new Map();
  for (const m of moves) {
    if (m.take_along || m.restore || (m.pawn !== 'climber' && m.pawn !== 'sherpa')) continue;
    const [, to] = moveFields(v, seat, m);
    if (to == null || !pos[to]) continue;
    const k = at.get(to) || 0; at.set(to, k + 1);
    const [x, y] = pos[to];
    const label = m.pawn === 'climber' ? 'C' : `S${m.sherpa}${m.direction === 'down' ? '↓' : ''}`;
    const tx = x + 20 + Math.floor(k / 3) * 30, ty = y - 22 + (k % 3) * 16;
    const tag = s('g', { class: 'target', 'data-move': JSON.stringify(m), tabindex: 0, role: 'button',
      'aria-label': `${describe(m)}${m.type === 'supply' ? ` with supply ${m.card}` : ''}` },
    s('rect', { x: tx, y: ty, width: 28, height: 15, rx: 4, fill: seatColour(seat ?? 0), stroke: '#fff', 'stroke-width': 1.5 }),
    s('text', { x: tx + 14, y: ty + 11, class: 'pip big-pip', 'text-anchor': 'middle' }, label),
    s('title', {}, `${describe(m)} → field ${to}`));
    tag.addEventListener('click', () => ctx.onMove(m));
    tag.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') ctx.onMove(m); });
    tag.addEventListener('mouseenter', () => ctx.highlight(moveFields(v, seat, m)));
    tag.addEventListener('mouseleave', () => ctx.highlight([]));
    g.append(tag);
  }
}

export function describe(m) {
  if (m.type === 'reroll') return 'Throw the last die again';
  // `restore`: a used supply card picked up at a high camp (a choice).
  const restore = m.restore ? `, pick up supply ${m.restore}` : '';
  if (m.pawn === 'none') return `Take the die, move nothing${restore}`;
  if (m.pawn === 'climber') return `Climber +${m.value}${restore}`;
  let t = `Sherpa ${m.sherpa} ${m.direction === 'down' ? `down ${Math.ceil(m.value / 2)}` : `up ${m.value}`}`;
  if (m.take_along) t += m.companions && m.companions.length ? `, take along Sherpa ${m.companions.join(', ')}` : ', take-along';
  return t + restore;
}

// The picker: first a die value or supply card, then pawns and their options.
export function picker(game, legal, ctx) {
  const v = game.view;
  const seat = game.your_seat;
  const groups = new Map();
  for (const m of legal) {
    const key = m.type === 'die' ? `die:${m.value}` : m.type === 'supply' ? `card:${m.card}` : m.type;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  const wrap = h('div', { class: 'hm-picker' });
  const chips = h('div', { class: 'chips' });
  const options = h('div', { class: 'options' });
  wrap.append(h('p', { class: 'hint' }, 'Choose a die (or a supply card), then a pawn move.'), chips, options);
  let selected = ctx.state.hmGroup && groups.has(ctx.state.hmGroup) ? ctx.state.hmGroup : null;

  const show = () => {
    chips.querySelectorAll('button').forEach((b) => b.classList.toggle('selected', b.dataset.group === selected));
    options.replaceChildren();
    targets(ctx.board, v, seat, selected ? groups.get(selected) : [], ctx);
    if (!selected) return;
    const moves = groups.get(selected);
    const byValue = new Map();
    for (const m of moves) { const k = m.value ?? 0; if (!byValue.has(k)) byValue.set(k, []); byValue.get(k).push(m); }
    for (const [value, ms] of byValue) {
      const box = h('div', { class: 'value-group' });
      if (selected.startsWith('card:')) box.append(h('h4', {}, `Use it as ${value}`));
      const byPawn = new Map();
      for (const m of ms) { const k = m.pawn === 'sherpa' ? `Sherpa ${m.sherpa}` : m.pawn === 'climber' ? 'Climber' : m.pawn ? 'Nothing' : 'Reroll'; if (!byPawn.has(k)) byPawn.set(k, []); byPawn.get(k).push(m); }
      for (const [pawn, pm] of byPawn) {
        const row = h('div', { class: 'pawn-row' }, h('span', { class: 'pawn-label' }, pawn));
        for (const m of pm) {
          const b = h('button', { class: 'move', dataset: { move: JSON.stringify(m) },
            onclick: () => ctx.onMove(m),
            onmouseenter: () => ctx.highlight(moveFields(v, seat, m)),
            onmouseleave: () => ctx.highlight([]) }, describe(m));
          row.append(b);
        }
        box.append(row);
      }
      options.append(box);
    }
  };

  for (const [key, moves] of groups) {
    let label;
    if (key.startsWith('die:')) {
      label = h('span', { class: 'die-chip' }, String(moves[0].value));
    } else if (key.startsWith('card:')) label = `Supply ${moves[0].card}`;
    else label = 'Throw again';
    const b = h('button', { class: 'chip', dataset: { group: key }, onclick: () => {
      if (key === 'reroll') { ctx.onMove(moves[0]); return; }
      selected = selected === key ? null : key; ctx.state.hmGroup = selected; show();
    } }, label);
    chips.append(b);
  }
  show();
  return wrap;
}

// One line per event (engine/himalaya/README.md, "Events"); `name(seat)`.
// Fields by the names the events carry (`from_name`: "Base Camp", "field 7").
const field = (n, nm) => nm || (n === 0 ? 'Base Camp' : n === 40 ? 'the summit' : `field ${n}`);
export function describeEvent(ev, name) {
  const who = ev.seat != null ? name(ev.seat) : '';
  const pawn = ev.pawn === 'climber' ? 'the climber' : `Sherpa ${ev.sherpa}`;
  const from = field(ev.from, ev.from_name), to = field(ev.to, ev.to_name);
  switch (ev.type) {
    case 'moved': return `${who} ${ev.via === 'supply' ? `used a supply card as ${ev.value}` : `took a ${ev.value}`} and moved ${pawn}${ev.direction === 'down' ? ' down' : ev.pawn === 'climber' ? '' : ' up'} from ${from} to ${to}`;
    case 'took_along': return `${who}: Sherpa ${ev.sherpa} went on from ${from} to ${to}${ev.companions && ev.companions.length ? ` taking Sherpa ${ev.companions.join(', ')} along` : ''}`;
    case 'slid': return `${who}: Sherpa ${ev.sherpa} slid down from ${from} to ${to}`;
    case 'die_unused': return `${who} took a ${ev.value} and moved nothing`;
    case 'supply_spent': return `${who} played supply card ${ev.card}`;
    case 'supply_restored': return `${who} got supply card ${ev.card} back at ${field(ev.camp, ev.camp_name)}`;
    case 'sherpas_fled': return `${who}: Sherpa ${ev.sherpa} fled the Yeti from ${from} to ${to}`;
    case 'rerolled': return `${who} threw the last die again`;
    case 'dice_rolled': return `Dice thrown: ${(ev.dice || []).join(' ')}`;
    case 'deck_reshuffled': return 'The Yeti deck was reshuffled (with Bad Weather)';
    case 'yeti_card': return `Yeti card: ${ev.card}`;
    case 'yeti_moved': return ev.from === ev.to ? `The Yeti stayed on ${from}` : `The Yeti moved from ${from} to ${to}`;
    case 'game_over': return `Game over (${ev.reason === 'bad-weather' ? 'Bad Weather' : 'summit reached'}): ${(ev.winners || []).map(name).join(', ') || 'nobody'} won`;
    default: return null;
  }
}
