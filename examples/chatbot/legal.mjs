// legal.mjs - turning a game's `legal` member into moves a person (or a bot)
// can pick from by number. Every title lists complete moves, except Everest
// while planning: there `legal` is one descriptor, `plan-options`, because a
// seat may have tens of thousands of plans (openapi: EverestPlanOptions).

// How many plans are drawn from a descriptor for a listing: enough to offer a
// real choice, few enough to read in a chat. Any other plan can still be
// typed as JSON with `!play`.
export const PLANS_OFFERED = 8;

// The moves to offer for `legal`, as an array of complete move objects.
// `random` (a function returning [0, 1)) draws the sample plans.
export function choicesFrom(legal, random = Math.random) {
  if (!Array.isArray(legal)) return [];
  if (legal.length === 1 && legal[0].type === 'plan-options') {
    const seen = new Set();
    const plans = [];
    const wanted = Math.min(PLANS_OFFERED, countPlans(legal[0]));
    while (plans.length < wanted) {
      const plan = randomPlan(legal[0], random);
      const key = JSON.stringify(plan);
      if (!seen.has(key)) plans.push(plan), seen.add(key);
    }
    return plans;
  }
  return legal;
}

// One plan the descriptor allows, drawn uniformly: `length` distinct coins
// from `coins`, each with any face and any direction.
export function randomPlan(options, random = Math.random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const coins = [...options.coins];
  const plan = [];
  for (let i = 0; i < options.length; i++) {
    const coin = coins.splice(Math.floor(random() * coins.length), 1)[0];
    plan.push({ coin, face: pick(options.faces), dir: pick(options.directions) });
  }
  return { type: 'plan', plan };
}

// How many plans a descriptor allows (ordered choices of distinct coins).
export function countPlans(options) {
  let n = 1;
  for (let i = 0; i < options.length; i++) n *= (options.coins.length - i) * options.faces.length * options.directions.length;
  return n;
}

// A one-line reading of a plan descriptor, for a person who wants to type a
// plan of their own.
export function describePlanOptions(options) {
  return (
    `a plan is ${options.length} distinct coins of [${options.coins.join(', ')}], ` +
    `each with a face (${options.faces.join('/')}) and a direction (${options.directions.join('/')}), ` +
    `e.g. !play ${JSON.stringify(randomPlan(options, () => 0))}`
  );
}
