// boards/index.js - the renderer for each title id; unknown titles get the
// generic view (JSON tree + legal moves as buttons).
import * as generic from './generic.js';
import * as himalaya from './himalaya.js';
import * as everest from './everest.js';
import * as bit from './bit.js';
import * as journey from './journey.js';

const BOARDS = {
  himalaya,
  'everest-piecepack': everest,
  'because-its-there': bit,
  'journey-to-the-top': journey,
};

export function boardFor(title) {
  const b = BOARDS[title] || {};
  return {
    render: b.render || generic.render,
    picker: b.picker || ((g, l, ctx) => generic.picker(g, l, ctx, b.describe)),
    highlight: b.highlight || (() => {}),
    describeEvent: b.describeEvent || (() => null),
    custom: !!b.render,
    choiceLabels: b.choiceLabels, // {member: value => words} for a choices form

  };
}
export { generic };
