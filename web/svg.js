// svg.js - tiny helpers to build SVG and HTML trees.
const NS = 'http://www.w3.org/2000/svg';

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, v);
  for (const c of children.flat()) if (c != null) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c != null) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export const SEAT_COLOURS = ['#d7263d', '#1b6fd1', '#2e9d4a', '#e08a00', '#7b4fbf'];
export const seatColour = (i) => SEAT_COLOURS[i % SEAT_COLOURS.length];

export function svgRoot(w, hgt, label) {
  return s('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'board-svg', role: 'img', 'aria-label': label,
    xmlns: NS, preserveAspectRatio: 'xMidYMid meet' });
}

// A die face with pips.
export function dieFace(x, y, size, value, attrs = {}) {
  const g = s('g', { transform: `translate(${x},${y})`, ...attrs });
  g.append(s('rect', { width: size, height: size, rx: size * 0.18, fill: '#fffdf6', stroke: '#333', 'stroke-width': 1.5 }));
  const p = { 1: [[.5, .5]], 2: [[.25, .25], [.75, .75]], 3: [[.25, .25], [.5, .5], [.75, .75]],
    4: [[.25, .25], [.75, .25], [.25, .75], [.75, .75]], 5: [[.25, .25], [.75, .25], [.5, .5], [.25, .75], [.75, .75]],
    6: [[.25, .22], [.75, .22], [.25, .5], [.75, .5], [.25, .78], [.75, .78]] }[value] || [];
  for (const [px, py] of p) g.append(s('circle', { cx: px * size, cy: py * size, r: size * 0.09, fill: '#222' }));
  return g;
}
