// boards/everest.js - Everest (piecepack): the 6x8 height map (notches off
// the board), cliffs (height difference 2) drawn thick and steps thin, the
// four inside corners (home bases, free ones waiting for a choice), the
// yetis, each seat's coins (available, set aside), damage and plan, and the
// dice on the table (the last conflict's rolls, the last roars). Moves: the
// plan builder for `plan-options`, buttons for the rest (home bases too).
import { s, h, svgRoot, seatColour } from '../svg.js';
import * as generic from './generic.js';
import { coinName, faceName } from '../rules/everest-piecepack.js';

const CELL = 78, OX = 40, OY = 40;
const SHADES = ['#2b3340', '#a9c48a', '#c9b98c', '#b59b7a', '#d9dde3', '#ffffff'];
const CORNER = { '1,0': 'NW', '1,7': 'NE', '4,7': 'SE', '4,0': 'SW' };

export function render(game, ctx = {}) {
  const v = game.view || {};
  const heights = v.heights || [];
  const rows = heights.length, cols = rows ? heights[0].length : 0;
  const seats = v.seats || [];
  const nm = (i) => (ctx.names && ctx.names[i]) || `seat ${i}`;
  const W = OX * 2 + cols * CELL + 330, H = Math.max(OY * 2 + rows * CELL + 40, 120 + seats.length * 120 + 240);
  const svg = svgRoot(W, H, 'Everest board');
  svg.append(s('rect', { width: W, height: H, fill: '#eef3f8' }));
  const g = s('g', { transform: `translate(${OX},${OY})` });
  // Cells.
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const ht = heights[r][c];
    g.append(s('rect', { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: SHADES[ht] || '#fff',
      stroke: '#8895a5', 'stroke-width': 0.6, class: 'cell', 'data-cell': `${r},${c}` },
    s('title', {}, ht ? `[${r},${c}] height ${ht}` : `[${r},${c}] notch (off the board)`)));
    if (!ht) g.append(s('text', { x: c * CELL + CELL / 2, y: r * CELL + CELL / 2 + 4, class: 'lbl small light', 'text-anchor': 'middle' }, 'notch'));
    if (ht) g.append(s('text', { x: c * CELL + 6, y: r * CELL + 17, class: 'lbl num' }, String(ht)));
    if (ht === 5) g.append(s('text', { x: c * CELL + CELL / 2, y: r * CELL + CELL - 8, class: 'lbl small', 'text-anchor': 'middle' }, 'peak'));
  }
  // Edges: cliffs (difference 2) thick, steps (difference 1) thin.
  const edge = (x1, y1, x2, y2, d) => g.append(s('line', { x1, y1, x2, y2, stroke: d >= 2 ? '#3a1f0f' : '#6d5a48',
    'stroke-width': d >= 2 ? 7 : 2.2, 'stroke-linecap': 'round', class: d >= 2 ? 'cliff' : 'step' }));
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const a = heights[r][c];
    if (!a) continue;
    if (c + 1 < cols && heights[r][c + 1]) { const d = Math.abs(a - heights[r][c + 1]); if (d) edge((c + 1) * CELL, r * CELL, (c + 1) * CELL, (r + 1) * CELL, d); }
    if (r + 1 < rows && heights[r + 1][c]) { const d = Math.abs(a - heights[r + 1][c]); if (d) edge(c * CELL, (r + 1) * CELL, (c + 1) * CELL, (r + 1) * CELL, d); }
  }
  g.append(s('rect', { x: 0, y: 0, width: cols * CELL, height: rows * CELL, fill: 'none', stroke: '#1d2b3a', 'stroke-width': 2 }));
  // Compass.
  g.append(s('text', { x: cols * CELL / 2, y: -12, class: 'lbl', 'text-anchor': 'middle' }, 'N'));
  g.append(s('text', { x: cols * CELL / 2, y: rows * CELL + 22, class: 'lbl', 'text-anchor': 'middle' }, 'S'));
  g.append(s('text', { x: -16, y: rows * CELL / 2, class: 'lbl', 'text-anchor': 'middle' }, 'W'));
  g.append(s('text', { x: cols * CELL + 16, y: rows * CELL / 2, class: 'lbl', 'text-anchor': 'middle' }, 'E'));
  // Inside corners not chosen yet (set up), then home bases and yetis.
  for (const k of v.corners || []) {
    if (k.home_of != null || !k.at) continue;
    g.append(s('rect', { x: k.at[1] * CELL + 4, y: k.at[0] * CELL + 4, width: CELL - 8, height: CELL - 8,
      fill: 'none', stroke: '#8895a5', 'stroke-width': 2, 'stroke-dasharray': '3 4', rx: 6, class: 'corner' },
    s('title', {}, `inside corner [${k.at}] (free home base)`)));
  }
  for (const st of seats) {
    if (st.home) g.append(s('rect', { x: st.home[1] * CELL + 4, y: st.home[0] * CELL + 4, width: CELL - 8, height: CELL - 8,
      fill: 'none', stroke: seatColour(st.seat), 'stroke-width': 3, 'stroke-dasharray': '6 4', rx: 6 }));
  }
  const here = new Map();
  for (const st of seats) if (st.at) { const k = st.at.join(','); here.set(k, (here.get(k) || 0) + 1); }
  const placed = new Map();
  for (const st of seats) {
    if (!st.at) continue;
    const k = st.at.join(','); const n = here.get(k); const i = placed.get(k) || 0; placed.set(k, i + 1);
    const x = st.at[1] * CELL + CELL / 2 + (i - (n - 1) / 2) * 22, y = st.at[0] * CELL + CELL / 2 + 4;
    g.append(s('g', { class: 'yeti', 'data-seat': st.seat, transform: `translate(${x},${y})` },
      s('ellipse', { cx: 0, cy: 5, rx: 14, ry: 16, fill: seatColour(st.seat), stroke: '#fff', 'stroke-width': 2 }),
      s('circle', { cx: 0, cy: -12, r: 9, fill: seatColour(st.seat), stroke: '#fff', 'stroke-width': 2 }),
      s('circle', { cx: -3, cy: -13, r: 1.6, fill: '#fff' }), s('circle', { cx: 3, cy: -13, r: 1.6, fill: '#fff' }),
      st.damage ? s('text', { x: 0, y: 10, class: 'lbl light', 'text-anchor': 'middle' }, `✕${st.damage}`) : null,
      s('title', {}, `${nm(st.seat)}'s yeti at (${st.at})`)));
  }
  svg.append(g);
  // Side: round, phase and coins.
  const px = OX * 2 + cols * CELL + 10;
  const side = s('g', { transform: `translate(${px},${OY})` });
  side.append(s('text', { x: 0, y: 0, class: 'lbl head' }, `Round ${v.round ?? '?'} · ${v.phase || ''}${v.phase === 'plan' ? '' : ` · step ${v.step ?? ''}`}`));
  side.append(s('text', { x: 0, y: 20, class: 'lbl small' }, v.phase === 'base' ? `Choosing home bases: ${nm(v.base_chooser)}`
    : v.peak_holder != null ? `Peak held by ${nm(v.peak_holder)}` : 'Nobody holds the peak'));
  seats.forEach((st, i) => {
    const y = 44 + i * 110;
    const name = (ctx.names && ctx.names[st.seat]) || `seat ${st.seat}`;
    side.append(s('circle', { cx: 8, cy: y + 4, r: 8, fill: seatColour(st.seat) }));
    side.append(s('text', { x: 22, y: y + 9, class: 'lbl' }, `${name}${st.left_board ? ' (off the board)' : ''}`));
    side.append(s('text', { x: 22, y: y + 26, class: 'lbl small' }, `damage ${st.damage}${st.planned ? ' · planned' : ''}${st.heal_owed ? ' · heal owed' : ''}`));
    for (let c = 0; c <= 5; c++) {
      const has = (st.coins || []).includes(c), aside = (st.aside || []).includes(c);
      const cx = 22 + c * 44, cy = y + 56;
      side.append(s('g', { class: `coin${has ? '' : ' gone'}`, opacity: has ? 1 : 0.35 },
        s('circle', { cx, cy, r: 18, fill: has ? '#ffd66b' : '#ccc', stroke: aside ? '#b3261e' : '#8a6d00', 'stroke-width': 2, 'stroke-dasharray': aside ? '4 3' : null }),
        s('text', { x: cx, y: cy + 4, class: 'lbl small', 'text-anchor': 'middle' }, coinName(c)),
        s('title', {}, `coin ${coinName(c)}${aside ? ' (set aside)' : has ? '' : ' (spent)'}`)));
    }
    if (st.plan && st.plan.length) {
      side.append(s('text', { x: 22, y: y + 92, class: 'lbl small' },
        `plan: ${st.plan.map((p) => `${coinName(p.coin)} ${p.face === 'suit' ? 'snowball' : p.coin === 0 ? 'roar' : 'move'} ${p.dir}`).join(', ')}`));
    }
  });
  // The dice on the table: the last conflict and the last roars.
  const dy = 44 + seats.length * 110;
  const lc = v.last_conflict;
  if (lc) side.append(s('text', { x: 0, y: dy, class: 'lbl small' },
    `Conflict (round ${lc.round}, coin ${lc.step + 1}): ${lc.rolls.map((r) => r.map(([st, f]) => `${nm(st)} ${coinName(f)}`).join(', ')).join(' / then ')} → ${nm(lc.chooser)} orders`));
  const lr = v.last_roars;
  if (lr) lr.rolls.forEach((r, i) => side.append(s('text', { x: 0, y: dy + 18 + i * 16, class: 'lbl small' },
    `Roar (round ${lr.round}): ${nm(r.seat)} rolled ${coinName(r.roll)} at ${nm(r.from)}'s roar: ${r.outcome}`)));
  if (lr) lr.roars.forEach((r, i) => r.checks.forEach((c, j) => side.append(s('text', { x: 0, y: dy + 18 + (lr.rolls.length + i * 3 + j) * 16, class: 'lbl small' },
    `check for ${nm(c.seat)} at ${nm(r.seat)}'s roar: ${coinName(c.check)}${c.affected ? ' (affected)' : ''}`))));
  svg.append(side);
  return svg;
}

// nm(seat): a player's name (the picker passes the game's names).
export function describe(m, nm = (x) => `seat ${x}`) {
  if (m.type === 'base') return `${CORNER[m.base.join(',')] || ''} corner (${m.base})`;
  if (m.type === 'order') return m.order.map((x) => (typeof x === 'number' ? `${nm(x)}'s move` : 'the snowballs')).join(', then ');
  if (m.type === 'heal') return m.heal ? 'heal (back to base)' : `stay${m.set_aside && m.set_aside.length ? `, set aside ${m.set_aside.map((c) => coinName(c)).join(', ')}` : ''}`;
  return generic.describe(m);
}

// One line per event (engine/everest/README.md, "Events"), with the players'
// names (`name(seat)`) rather than the engine's "seat n".
const cell = (c) => (Array.isArray(c) ? `(${c[0]},${c[1]})` : 'off the board');
const planWords = (plan) => (plan || []).map((p) => `${coinName(p.coin)} ${p.face === 'suit' ? 'snowball' : p.coin === 0 ? 'roar' : 'move'} ${p.dir}`).join(', ');
const STOPPED = { cliff: 'at a cliff', 'cannot-push': 'unable to push', 'push-too-costly': 'short of points to push', 'step-too-costly': 'short of points for a step' };
const OUTCOME = { heal: 'went home and healed', 'forced-heal': 'had to go home to heal', stay: 'stayed', 'return-without-healing': 'came back to its base without healing' };
export function describeEvent(ev, name) {
  const who = ev.seat != null ? name(ev.seat) : '';
  switch (ev.type) {
    case 'base-chosen': return `${who} chose the home base ${CORNER[(ev.base || []).join(',')] || cell(ev.base)}`;
    case 'plan-submitted': return `${who} planned: ${planWords(ev.plan)} (secret)`;
    case 'plans-revealed': return `Round ${ev.round}: plans revealed — ${(ev.plans || []).map((p, s) => `${name(s)}: ${p.length ? planWords(p) : 'dazed'}`).join('; ')}`;
    case 'roar': {
      const hit = ev.target != null ? `at ${name(ev.target)}` : 'at nobody';
      const aff = (ev.affected || []).map(name);
      return `${who} ${ev.back ? 'roared back' : 'roared'} ${hit}${aff.length ? `; ${aff.join(', ')} affected` : ''}`;
    }
    case 'roar-roll': return `${who} rolled ${coinName(ev.roll)} at ${name(ev.from)}'s roar: ${ev.outcome === 'run' ? 'runs away' : ev.outcome === 'roar-back' ? 'roars back' : 'shivers'}`;
    case 'conflict': return `Conflict in round ${ev.round}: ${ev.chooser != null ? name(ev.chooser) : 'someone'} rolled highest and orders the actions`;
    case 'order-chosen': return `${who} chose the order: ${(ev.order || []).map((x) => (typeof x === 'number' ? `${name(x)}'s move` : 'the snowballs')).join(', then ')}`;
    case 'moved': return `${who} ${ev.why === 'run' ? 'ran' : 'moved'} ${ev.dir} from ${cell(ev.from)} to ${cell(ev.to)}`;
    case 'push': return `${who} pushed ${name(ev.pushed)} ${ev.dir} to ${cell(ev.to)}`;
    case 'fall': return `${who} fell off a cliff to ${cell(ev.to)} (1 damage)`;
    case 'stopped': return `${who} stopped ${STOPPED[ev.reason] || ''}`.trim();
    case 'left-board': return `${who} left the board`;
    case 'snowball': return `${who} threw a snowball ${ev.dir}${ev.hit != null ? ` and hit ${name(ev.hit)}` : ', missed'}`;
    case 'knocked': return `${who} was knocked to ${cell(ev.to)}`;
    case 'round-end': return `Round ${ev.round} ended${(ev.damage || []).some((d) => d) ? `: damage ${(ev.damage || []).map((d, s) => `${name(s)} ${d}`).join(', ')}` : ''}`;
    case 'heal-chosen': return `${who} chose to ${ev.heal ? 'heal' : `stay${ev.set_aside && ev.set_aside.length ? `, setting aside ${ev.set_aside.map(coinName).join(', ')}` : ''}`} (secret)`;
    case 'heals-revealed': return `Round ${ev.round}: ${(ev.outcomes || []).map((o) => `${name(o.seat)} ${OUTCOME[o.outcome] || o.outcome}`).join('; ')}`;
    case 'win': return `${who} held the peak for a full round and wins`;
    case 'round-cap': return `Round ${ev.round}: the round cap ends the game in a draw`;
    case 'round-start': return `Round ${ev.round} begins${ev.peak_holder != null ? `; ${name(ev.peak_holder)} holds the peak` : ''}`;
    default: return null;
  }
}

const MOVE_KINDS = { base: 'Choose your home base', plan: 'Your plan for the round', order: 'Order the actions', heal: 'End of the round' };
// The words for a plan's coins and faces in the choices form (app.js).
export const choiceLabels = { coin: coinName, face: faceName };

export function picker(game, legal, ctx) {
  const nm = (i) => (game.seats[i] && game.seats[i].player ? game.seats[i].player.name : `seat ${i}`);
  return generic.picker(game, legal, ctx, (m) => describe(m, nm), { coin: coinName, face: faceName, type: (t) => MOVE_KINDS[t] });
}
