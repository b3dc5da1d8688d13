// boards/journey.js - Journey to the Top of the World: seven rings of four
// quadrants (level 1 outside, level 7 the top) with the food it costs to
// ascend, the climbers' tokens, the Yeti, health and equipment, the
// Mountain's hand and piles.
import { s, svgRoot, seatColour } from '../svg.js';
import * as generic from './generic.js';

const CX = 360, CY = 360, R0 = 46, RW = 40;
const Q = { N: -90, E: 0, S: 90, W: 180 };
const ROLE_COLOUR = { tenzing: '#d7263d', hillary: '#1b6fd1', mountain: '#5d4b8a' };

function arc(level, quadrant) {
  const r2 = R0 + (8 - level) * RW, r1 = r2 - RW;
  const a0 = ((Q[quadrant] - 45) * Math.PI) / 180, a1 = ((Q[quadrant] + 45) * Math.PI) / 180;
  const p = (r, a) => `${(CX + r * Math.cos(a)).toFixed(1)},${(CY + r * Math.sin(a)).toFixed(1)}`;
  return `M${p(r2, a0)} A${r2},${r2} 0 0 1 ${p(r2, a1)} L${p(r1, a1)} A${r1},${r1} 0 0 0 ${p(r1, a0)} Z`;
}
function centre(level, quadrant, off = 0) {
  const r = R0 + (8 - level) * RW - RW / 2;
  const a = ((Q[quadrant] + off) * Math.PI) / 180;
  return [CX + r * Math.cos(a), CY + r * Math.sin(a)];
}

export function render(game, ctx = {}) {
  const v = game.view || {};
  const b = v.board || {};
  const W = 1120, H = 740;
  const svg = svgRoot(W, H, 'Journey to the Top of the World board');
  svg.append(s('rect', { width: W, height: H, fill: '#eef3f8' }));
  const treeLine = b.tree_line_above_level ?? 2, o2 = b.o2_zone_level ?? 6, ice = b.ice_bridge_level ?? 4;
  for (const sp of b.spaces || []) {
    if (sp.space === 'base_camp') continue;
    const [, lv, q] = sp.space.match(/^L(\d)-([NESW])$/) || [];
    if (!lv) continue;
    const level = Number(lv);
    const fill = level >= 7 ? '#ffffff' : level >= o2 ? '#d9d2f0' : level > treeLine ? (level === ice ? '#cfe6f5' : '#e3e7ec') : '#b9d7a1';
    svg.append(s('path', { d: arc(level, q), fill, stroke: '#5b6b7d', 'stroke-width': 1.5, class: 'space', 'data-space': sp.space },
      s('title', {}, `${sp.space}: ascending costs ${sp.ascend_food ?? '—'}`)));
    const [x, y] = centre(level, q, 0);
    const imp = sp.ascend_food === 'impasse';
    svg.append(s('text', { x, y: y + 5, class: `lbl num${imp ? ' warn' : ''}`, 'text-anchor': 'middle' },
      imp ? '✕' : sp.ascend_food == null ? '' : String(sp.ascend_food)));
  }
  for (let l = 1; l <= 7; l++) {
    const r = R0 + (8 - l) * RW - RW / 2, a = -Math.PI / 4;
    svg.append(s('text', { x: CX + r * Math.cos(a), y: CY + r * Math.sin(a) + 4, class: 'lbl small', 'text-anchor': 'middle',
      'paint-order': 'stroke', stroke: '#fff', 'stroke-width': 3 }, `L${l}`));
  }
  svg.append(s('circle', { cx: CX, cy: CY, r: R0 - 3, fill: '#fff', stroke: '#5b6b7d' }));
  svg.append(s('text', { x: CX, y: CY + 5, class: 'lbl small', 'text-anchor': 'middle' }, 'top'));
  svg.append(s('text', { x: 16, y: H - 40, class: 'lbl small' }, 'Numbers: food to climb to the next level · ✕ impasse'));
  svg.append(s('text', { x: 16, y: H - 22, class: 'lbl small' }, `green: below the tree line · blue: ice bridge (L${ice}) · purple: O₂ zone (L${o2}+)`));
  for (const [q, a] of Object.entries(Q)) {
    const r = R0 + 7 * RW + 18; const x = CX + r * Math.cos((a * Math.PI) / 180), y = CY + r * Math.sin((a * Math.PI) / 180);
    svg.append(s('text', { x, y: y + 5, class: 'lbl head', 'text-anchor': 'middle' }, q));
  }
  // Base camp below the mountain.
  svg.append(s('rect', { x: CX + 205, y: H - 60, width: 110, height: 40, rx: 8, fill: '#ffe9a8', stroke: '#7a5600' }));
  svg.append(s('text', { x: CX + 260, y: H - 35, class: 'lbl', 'text-anchor': 'middle' }, 'Base camp'));
  // Climbers.
  (v.climbers || []).forEach((c, i) => {
    let x, y;
    if (c.space === 'base_camp' || !c.quadrant) { x = CX + 245 + i * 30; y = H - 76; }
    else [x, y] = centre(c.level, c.quadrant, i ? 14 : -14);
    const col = ROLE_COLOUR[c.role] || seatColour(c.seat);
    svg.append(s('g', { class: 'token', 'data-role': c.role },
      s('circle', { cx: x, cy: y - 10, r: 11, fill: col, stroke: '#fff', 'stroke-width': 2 }),
      s('text', { x, y: y - 6, class: 'lbl light', 'text-anchor': 'middle' }, c.role[0].toUpperCase()),
      s('title', {}, `${c.role} on ${c.space}`)));
  });
  if (v.yeti) {
    const [x, y] = centre(v.yeti.level, 'W', 0);
    svg.append(s('g', { class: 'yeti' }, s('ellipse', { cx: x, cy: y - 8, rx: 12, ry: 14, fill: '#f4f7fb', stroke: '#556', 'stroke-width': 1.5 }),
      s('text', { x, y: y - 4, class: 'lbl small', 'text-anchor': 'middle' }, `Y${v.yeti.health}`), s('title', {}, `Yeti on level ${v.yeti.level}, health ${v.yeti.health}`)));
  }
  // Side panel.
  const side = s('g', { transform: 'translate(760,40)' });
  side.append(s('text', { x: 0, y: 0, class: 'lbl head' }, `Turn ${v.turn ?? 0}${v.turn_limit ? ` of ${v.turn_limit}` : ''} · ${v.phase || ''}`));
  let y = 30;
  for (const c of v.climbers || []) {
    const col = ROLE_COLOUR[c.role] || seatColour(c.seat);
    const name = (ctx.names && ctx.names[c.seat]) || `seat ${c.seat}`;
    side.append(s('circle', { cx: 8, cy: y - 4, r: 8, fill: col }));
    side.append(s('text', { x: 22, y, class: 'lbl' }, `${c.role} (${name})${c.summited ? ' · summited' : ''}${c.in_crevice ? ' · in a crevice' : ''}`));
    y += 16;
    for (let k = 0; k < 10; k++) side.append(s('rect', { x: 22 + k * 22, y, width: 19, height: 12, rx: 2, fill: k < c.health ? '#d7263d' : '#e5e5e5', stroke: '#999', 'stroke-width': 0.6 }));
    side.append(s('text', { x: 250, y: y + 11, class: 'lbl small' }, `health ${c.health}`));
    y += 30;
    const eq = Object.entries(c.equipment || {}).filter(([, n]) => n).map(([k, n]) => `${k.replace(/_/g, ' ')} ×${n}`).join(', ') || 'no equipment';
    side.append(s('text', { x: 22, y, class: 'lbl small' }, `${eq}`)); y += 16;
    side.append(s('text', { x: 22, y, class: 'lbl small' }, `money ${c.money} · actions left ${c.actions_left}`)); y += 28;
  }
  const m = v.mountain || {};
  side.append(s('circle', { cx: 8, cy: y - 4, r: 8, fill: ROLE_COLOUR.mountain }));
  side.append(s('text', { x: 22, y, class: 'lbl' }, `The Mountain (${(ctx.names && ctx.names[m.seat]) || `seat ${m.seat}`})`)); y += 20;
  side.append(s('text', { x: 22, y, class: 'lbl small' }, `hand ${m.hand_size} · deck ${m.deck_size} · credit ${m.credit}`)); y += 18;
  const cards = (o) => Object.entries(o || {}).map(([k, n]) => `${k.replace(/_/g, ' ')}${n > 1 ? ` ×${n}` : ''}`).join(', ');
  if (v.hand) { side.append(s('text', { x: 22, y, class: 'lbl small' }, `your hand: ${cards(v.hand) || 'empty'}`)); y += 18; }
  const cut = (t) => (t.length > 52 ? `${t.slice(0, 51)}…` : t);
  side.append(s('text', { x: 22, y, class: 'lbl small' }, cut(`discard: ${cards(m.discard) || '—'}`), s('title', {}, cards(m.discard)))); y += 18;
  side.append(s('text', { x: 22, y, class: 'lbl small' }, `played: ${(m.played || []).join(', ') || '—'}`)); y += 18;
  if (v.reaction) { side.append(s('text', { x: 22, y, class: 'lbl small warn' }, `waiting for answers to ${v.reaction.card}`)); y += 18; }
  if (v.result) side.append(s('text', { x: 0, y: y + 20, class: 'lbl head' }, `Game over: ${v.result.reason}`));
  svg.append(side);
  return svg;
}

export function describe(m) {
  const name = (x) => String(x).replace(/_/g, ' ');
  switch (m.type) {
    case 'buy': return `buy ${name(m.item)}`;
    case 'done': return 'done buying';
    case 'move': return `move to ${sp(m.to)}`;
    case 'end_turn': return 'end the turn';
    case 'use': return `use ${name(m.item)}${m.to ? ` → ${sp(m.to)}` : ''}${m.target ? ` at ${m.target}` : ''}`;
    case 'play': return `play ${name(m.card)}${m.quadrant ? ` on ${m.quadrant}` : ''}${m.target ? ` on ${m.target}` : ''}${m.direction ? ` ${m.direction}` : ''}`;
    case 'discard': return `pay with ${name(m.card)}`;
    case 'give': return `give ${name(m.item)}`;
    case 'remove': return `remove ${name(m.card)}`;
    case 'rockslide': return m.choice === 'health' ? 'lose health' : `discard ${name(m.item)}`;
    case 'avalanche': return m.protect === 'none' ? 'no protection' : `protect with ${name(m.protect)}`;
    case 'yeti': return m.direction === 'stay' ? 'the Yeti stays' : `the Yeti goes ${m.direction}`;
    default: return generic.describe(m);
  }
}

// One line per event (engine/journey/README.md, "Events"): the player's name
// with the role (`name(seat)`), the cards' and items' names from the event.
const sp = (x) => (x === 'base_camp' ? 'base camp' : x);
export function describeEvent(ev, name) {
  const who = ev.seat != null ? `${name(ev.seat)}${ev.seat_name ? ` (${ev.seat_name})` : ''}` : '';
  const item = ev.item_name || (ev.item ? String(ev.item).replace(/_/g, ' ') : '');
  const card = ev.card_name || (ev.card ? String(ev.card).replace(/_/g, ' ') : '');
  switch (ev.type) {
    case 'bought': return `${who} bought ${item} for $${ev.price} ($${ev.money_left} left)`;
    case 'done_buying': return `${who} finished buying`;
    case 'climbers_turn': return `Climbers' turn ${ev.turn} begins`;
    case 'crevice_roll': return `${who} rolled ${ev.roll} in the crevice: ${ev.escaped ? 'escaped' : 'still stuck'}`;
    case 'moved': return `${who} moved from ${sp(ev.from)} to ${sp(ev.to)}${ev.food_paid ? ` (paid ${ev.food_paid} food)` : ''}`;
    case 'used': return `${who} used ${item}${ev.to ? ` to reach ${sp(ev.to)}` : ''}${ev.pitched_on ? ` on ${sp(ev.pitched_on)}` : ''}`;
    case 'bow': return `${who} shot at the ${ev.target} (${(ev.dice || []).join(' + ')}): ${ev.hit ? 'hit' : 'missed'}`;
    case 'forecast': return `${who} looked at the Mountain's hand (only you see it)`;
    case 'card_removed': return `${who} removed ${card} from the game`;
    case 'nothing_to_remove': return `${who}: nothing left to remove`;
    case 'gave': return `${who} gave ${item} to ${ev.to != null ? name(ev.to) : ev.to_name}`;
    case 'turn_ended': return `${who} ended the turn${ev.actions_unused ? ` (${ev.actions_unused} action${ev.actions_unused === 1 ? '' : 's'} unused)` : ''}`;
    case 'damaged': return `${who} lost ${ev.amount} health to ${ev.cause_name || ev.cause} (${ev.health} left)`;
    case 'summited': return `${who} reached the top!`;
    case 'mountain_turn': return `The Mountain's turn ${ev.turn} begins`;
    case 'reshuffled': return 'The Mountain reshuffled its discard pile';
    case 'mountain_drew': return `The Mountain drew ${ev.count} card${ev.count === 1 ? '' : 's'} (${ev.hand_size} in hand)`;
    case 'drew': return `The Mountain drew ${(ev.card_names || ev.cards || []).join(', ')} (only you see this)`;
    case 'paid': return `The Mountain discarded ${card} for ${ev.value} (credit ${ev.credit})`;
    case 'played': return `The Mountain played ${card}${ev.quadrant ? ` on the ${ev.quadrant} side` : ''}${ev.target_name ? ` on ${ev.target_name}` : ''}${ev.direction ? ` (${ev.direction})` : ''}`;
    case 'sheltered': return `${who} sheltered in the tent`;
    case 'reaction_needed': return `${card}: ${ev.seat != null ? `${who} must answer` : `climbers on the ${ev.quadrant} side must answer`}`;
    case 'answered': return `${who} answered`;
    case 'avalanche_hit': return `The avalanche hit ${who}: ${sp(ev.from)} → ${sp(ev.to)}${ev.protect && ev.protect !== 'none' ? ` (protected: ${String(ev.protect).replace(/_/g, ' ')})` : ''}`;
    case 'discarded': return `${who} gave up ${item}`;
    case 'yeti_summoned': return `The Yeti appears on level ${ev.level} (health ${ev.health})`;
    case 'fell_into_crevice': return `${who} fell into a crevice`;
    case 'tent_roll': return `${who} rolled ${ev.roll} in the tent: ${ev.prevented ? 'frostbite prevented' : 'not enough'}`;
    case 'frostbitten': return `${who} is frostbitten: no equipment next turn`;
    case 'blown': return `The blizzard blew ${who} from ${sp(ev.from)} to ${sp(ev.to)}`;
    case 'yeti_moved': return `The Yeti ${ev.direction === 'stay' ? 'stayed' : `went ${ev.direction}`} (level ${ev.level})`;
    case 'yeti_roll': return `Yeti roll ${ev.roll}: the Mountain draws ${ev.draws}`;
    case 'mountain_turn_ended': return `The Mountain ended turn ${ev.turn}${ev.value_lost ? ` (${ev.value_lost} value lost)` : ''}`;
    case 'game_over': return `Game over (${ev.reason === 'summit-and-back' ? 'both climbers summited and came back' : ev.reason}): ${(ev.winners || []).map((w, i) => `${name(w)}${ev.winner_names && ev.winner_names[i] ? ` (${ev.winner_names[i]})` : ''}`).join(' and ')} won`;
    default: return null;
  }
}

const MOVE_KINDS = { buy: 'Buy equipment', done: 'Finished buying', move: 'Move one space', use: 'Use a card', give: 'Give a card',
  remove: 'Remove a card (Forecast)', end_turn: 'End the turn', discard: 'Pay with a card', play: 'Play a card', yeti: 'Move the Yeti',
  rockslide: 'Answer the Rockslide', avalanche: 'Answer the Avalanche' };
export function picker(game, legal, ctx) {
  return generic.picker(game, legal, ctx, describe, { type: (t) => MOVE_KINDS[t] });
}
