// boards/bit.js - Because It's There!: each seat's route of terrain cards
// from Advance Base Camp to the summit, the teams on it with their climbers'
// strength tracks, and the viewer's hand.
import { s, svgRoot, seatColour } from '../svg.js';
import * as generic from './generic.js';

const TERRAIN = { glacier: '#cfe6f5', high: '#d9dde3', extreme: '#b7a9d6', summit: '#ffffff' };
const CW = 120, CH = 74;

function card(x, y, c, opts = {}) {
  return s('g', { class: 'card', 'data-card': c.id },
    s('rect', { x, y, width: CW, height: CH, rx: 7, fill: TERRAIN[c.terrain] || opts.fill || '#fff', stroke: '#4a5868', 'stroke-width': 1.5 }),
    s('text', { x: x + 8, y: y + 18, class: 'lbl small' }, c.name),
    c.terrain ? s('text', { x: x + 8, y: y + 36, class: 'lbl small' }, `${c.terrain}`) : null,
    c.up != null ? s('text', { x: x + 8, y: y + 58, class: 'lbl num' }, `up ${c.up} · down ${c.down}`) : null,
    s('title', {}, JSON.stringify(c)));
}

export function render(game, ctx = {}) {
  const v = game.view || {};
  const routes = v.routes || [];
  const seats = v.seats || [];
  const maxLen = Math.max(6, ...routes.map((r) => (r.terrain || []).length));
  const COL = 420;
  const W = 60 + routes.length * COL, H = 150 + (maxLen + 2) * (CH + 14) + 110;
  const svg = svgRoot(Math.max(W, 760), H, "Because It's There! board");
  svg.append(s('rect', { width: Math.max(W, 760), height: H, fill: '#eef3f8' }));
  svg.append(s('text', { x: 20, y: 28, class: 'lbl head' },
    `Scenario ${v.scenario ?? ''} · turn ${v.turn ?? ''} · ${v.phase ?? ''} · weather ${v.weather ?? ''}`));
  svg.append(s('text', { x: 20, y: 48, class: 'lbl small' }, `event deck ${v.event_deck_count ?? '?'} · used events ${(v.used_events || []).length}`));
  routes.forEach((route, ri) => {
    const x0 = 30 + ri * COL;
    const seat = seats.find((x) => x.seat === route.seat) || {};
    const name = (ctx.names && ctx.names[route.seat]) || `seat ${route.seat}`;
    svg.append(s('circle', { cx: x0 + 8, cy: 76, r: 8, fill: seatColour(route.seat) }));
    svg.append(s('text', { x: x0 + 22, y: 81, class: 'lbl' }, `${name} — ${route.route}`));
    const terrain = route.terrain || [];
    // Summit at the top, then the route from the top card down, ABC at the bottom.
    const slots = [{ id: v.summit ?? 19, name: 'Summit', terrain: 'summit' }, ...[...terrain].reverse(), { id: -1, name: 'Adv. Base Camp', terrain: null }];
    const pos = new Map();
    slots.forEach((c, i) => {
      const y = 96 + i * (CH + 14);
      svg.append(card(x0, y, c, { fill: c.id === -1 ? '#ffe9a8' : '#fff' }));
      pos.set(c.id, y);
      if (i < slots.length - 1) svg.append(s('line', { x1: x0 + CW / 2, y1: y + CH, x2: x0 + CW / 2, y2: y + CH + 14, stroke: '#4a5868', 'stroke-width': 2 }));
    });
    // Teams beside the card they stand on.
    const teams = seat.teams || [];
    const byCard = new Map();
    for (const t of teams) { const k = pos.has(t.at) ? t.at : -1; byCard.set(k, [...(byCard.get(k) || []), t]); }
    for (const [cid, ts] of byCard) {
      ts.forEach((t, k) => {
        const tx = x0 + CW + 14 + (k % 2) * 140, ty0 = Math.floor(k / 2) * 8, ty = pos.get(cid) + ty0;
        const g = s('g', { class: 'team', 'data-team': t.team });
        g.append(s('rect', { x: tx, y: ty, width: 134, height: CH, rx: 8, fill: '#fff', stroke: seatColour(route.seat), 'stroke-width': 2.5 }));
        g.append(s('text', { x: tx + 8, y: ty + 16, class: 'lbl small' }, `team ${t.team}${t.fixed_ropes ? ' · ropes' : ''}${t.ladders ? ' · ladders' : ''}`));
        (t.cards || []).slice(0, 3).forEach((c, j) => {
          const yy = ty + 30 + j * 16;
          g.append(s('text', { x: tx + 8, y: yy + 4, class: 'lbl small' }, `${c.name}`.slice(0, 11)));
          if (c.max) {
            for (let p = 0; p < c.max; p++) g.append(s('rect', { x: tx + 66 + p * 7.5, y: yy - 5, width: 6, height: 10, rx: 1.5, fill: p < c.strength ? seatColour(route.seat) : '#e2e2e2' }));
          }
        });
        svg.append(g);
      });
    }
    // Hand, deck and discard.
    const hy = 96 + slots.length * (CH + 14) + 10;
    svg.append(s('text', { x: x0, y: hy, class: 'lbl small' }, `hand ${seat.hand_count ?? '?'} · deck ${seat.deck_count ?? '?'} · discard ${(seat.discard || []).length}`));
    if (seat.hand) {
      svg.append(s('text', { x: x0, y: hy + 22, class: 'lbl' }, 'Your hand'));
      seat.hand.forEach((c, i) => {
        const hx = x0 + (i % 4) * 110, hy2 = hy + 32 + Math.floor(i / 4) * 46;
        svg.append(s('g', { class: 'hand-card', 'data-card': c.id },
          s('rect', { x: hx, y: hy2, width: 104, height: 40, rx: 5, fill: c.kind === 'climber' ? '#fff4d6' : '#fff', stroke: '#4a5868' }),
          s('text', { x: hx + 6, y: hy2 + 16, class: 'lbl small' }, c.name),
          s('text', { x: hx + 6, y: hy2 + 32, class: 'lbl small' }, c.kind === 'climber' ? `${c.skill} · ${c.strength}/${c.max}` : c.kind)));
      });
    }
  });
  return svg;
}

// Card id -> name, from every card the view shows (hand, routes, teams,
// the mountain, the draft): a move names its cards as the board does.
function cardNames(view) {
  const names = new Map();
  const walk = (x) => {
    if (Array.isArray(x)) { x.forEach(walk); return; }
    if (!x || typeof x !== 'object') return;
    if (typeof x.id === 'number' && typeof x.name === 'string') names.set(x.id, x.name);
    Object.values(x).forEach(walk);
  };
  walk(view);
  return names;
}

export function describe(m, names = new Map()) {
  const card = (id) => (id === 19 ? 'the Summit' : names.get(id) || `card ${id}`);
  const route = (r) => String(r).replace(/-/g, ' ');
  switch (m.type) {
    case 'draft': return `draft ${card(m.climber)}`;
    case 'route': return `the ${route(m.route)} route`;
    case 'discard': return `discard ${card(m.card)}`;
    case 'draw': return m.count == null ? 'draw up to five' : `draw ${m.count}`;
    case 'deploy': return `${card(m.card)} into ${m.team == null ? 'a new team' : `team ${m.team}`}`;
    case 'ready': return 'ready';
    case 'move': return `team ${m.team} ${m.dir}${m.route ? ` by the ${route(m.route)}` : ''}`;
    case 'cache': return `team ${m.team} caches ${card(m.card)}`;
    case 'unload': return `team ${m.team} unloads ${card(m.card)}`;
    case 'load': return `team ${m.team} loads ${card(m.card)}`;
    case 'carry': return `team ${m.team} carries ${card(m.climber)}`;
    case 'leave': return `team ${m.team} leaves ${card(m.card)}`;
    case 'end': return `team ${m.team} ends its movement`;
    case 'done': return 'end my Movement Phase';
    case 'play': return `${card(m.card)}${m.team != null ? ` for team ${m.team}` : ''}${m.at != null ? ` on ${card(m.at)}` : ''}${m.climber != null ? ` for ${card(m.climber)}` : ''}`;
    case 'camp': return `${card(m.card)} on ${card(m.at)}`;
    case 'strike': return `strike ${card(m.card)}`;
    // rest's `use` lists the Supplies declared tonight
    case 'rest': return m.use && m.use.length ? `rest, using ${m.use.map(card).join(' + ')}` : 'rest, using no Supplies';
    default: return generic.describe(m);
  }
}

const MOVE_KINDS = { draft: 'Draft a Climber', route: 'Choose your route', discard: 'Discard', draw: 'Draw', deploy: 'Form teams',
  ready: 'Done with this phase', move: 'Move a team', cache: 'Cache Supplies', unload: 'Unload Supplies', load: 'Load',
  carry: 'Carry a Climber', leave: 'Leave on this card', end: 'End a team\'s movement', done: 'End the Movement Phase',
  play: 'Play a Special', camp: 'Place a Camp', strike: 'Strike a Camp', rest: 'Rest for the night' };
export function picker(game, legal, ctx) {
  const names = cardNames(game.view);
  return generic.picker(game, legal, ctx, (m) => describe(m, names), { type: (t) => MOVE_KINDS[t] });
}

// One line per event (engine/because-its-there/README.md, "Events"), with the
// players' names and the cards' names.
const WHY_MOVE_END = { declared: 'ended its movement', event: 'was stopped by the event', 'near-death': 'stopped: a Climber is at Near Death', 'advance-base-camp': 'is back at Advance Base Camp' };
const place = (id, nm) => (id === -1 ? 'Advance Base Camp' : nm || `card ${id}`);
export function describeEvent(ev, name) {
  const who = ev.seat != null ? name(ev.seat) : '';
  const team = ev.team != null ? `${who}'s team ${ev.team}` : who;
  const card = ev.card_name || ev.name || (ev.card != null ? `card ${ev.card}` : '');
  switch (ev.type) {
    case 'phase': return `Turn ${ev.turn}: ${String(ev.phase).replace(/-/g, ' ')} phase`;
    case 'turn': return `Turn ${ev.turn} begins`;
    case 'weather-roll': return `Weather roll: ${ev.die}${ev.modified !== ev.die ? ` (counts as ${ev.modified})` : ''}`;
    case 'weather': return `The weather turned from ${ev.from} to ${ev.to}`;
    case 'route': return `${who} takes the ${String(ev.route).replace(/-/g, ' ')} route: ${(ev.terrain_names || []).join(', ')}`;
    case 'drafted': return `${who} drafted ${ev.climber_name || ev.name}`;
    case 'drew-count': return `${who} drew ${ev.count} card${ev.count === 1 ? '' : 's'}${ev.reshuffled ? ' (after reshuffling the discards)' : ''}`;
    case 'drew': return `${who} drew ${(ev.card_names || []).join(', ') || 'nothing'} (only you see this)`;
    case 'special-drawn': return `${who} drew the Special ${card} (only you see this)`;
    case 'special-to-hand': return `${who} took a Special card into the hand`;
    case 'discarded': return `${who} discarded ${card}${ev.why && ev.why !== 'discard' ? ` (${ev.why})` : ''}`;
    case 'dead-pile': return `${who ? `${who}'s ` : ''}${card} went to the dead pile${ev.why ? ` (${ev.why})` : ''}`;
    case 'deployed': return `${who} put ${card} into team ${ev.team}`;
    case 'movement-order': return `Movement order: ${(ev.order || []).map(name).join(', then ')}`;
    case 'movement-skipped-storm': return 'Storm: no movement this turn';
    case 'moved': return `${team} climbed from ${place(ev.from, ev.from_name)} to ${place(ev.to, ev.to_name)}${ev.cost ? ` (cost ${ev.cost})` : ''}`;
    case 'strength': return `${ev.climber_name || ev.name}: strength ${ev.from} → ${ev.to}${ev.why ? ` (${ev.why})` : ''}`;
    case 'event': return `Event ${card} on ${place(ev.at, ev.at_name)}${ev.seat != null ? ` for ${team}` : ''}: ${ev.outcome}`;
    case 'movement-ended': return `${team} ${WHY_MOVE_END[ev.why] || 'ended its movement'}`;
    case 'summit': return `${ev.climber_name || ev.name} reached the Summit!`;
    case 'cached': return `${team} cached ${card} on ${place(ev.at, ev.at_name)}`;
    case 'unloaded': return `${team} unloaded ${card} on ${place(ev.at, ev.at_name)}`;
    case 'loaded': return `${team} loaded ${card} on ${place(ev.at, ev.at_name)}`;
    case 'carried': return `${team}'s Sherpas carry ${card}`;
    case 'left': return `${team} left ${card} on ${place(ev.at, ev.at_name)}`;
    case 'played': return `${who} played ${card}${ev.at_name ? ` on ${ev.at_name}` : ''}${ev.climber_name ? ` for ${ev.climber_name}` : ''}${ev.team != null ? ` for team ${ev.team}` : ''}`;
    case 'camp': return `${who} set up a Camp on ${place(ev.at, ev.at_name)}`;
    case 'recovery': return `Night for ${who} on ${place(ev.at, ev.at_name)}: ${ev.event_name || 'an Event'} gives ${ev.base}${ev.camp ? ', +1 Camp' : ''}${ev.supplies ? ', +1 Supplies' : ''}: net ${ev.net}`;
    case 'event-deck-reshuffled': return 'The Event deck was reshuffled';
    case 'game-over': return `Game over (${String(ev.reason).replace(/-/g, ' ')})`;
    default: return null;
  }
}
