// try-it.ts - README.md's "Try it" calls, written against the client that
// openapi-typescript generates from openapi/cairn.yaml and openapi-fetch
// (make test-contract type-checks it with tsc --strict; it is not run).
// Issue 24: a generated client must be typed where bot authors need it, and
// the README's own bodies must compile. Each `@ts-expect-error` below is a
// claim that the generated type refuses something: if the type were `any`,
// `unknown`-free `never` or an open record, the line would compile, the
// directive would be unused, and tsc would fail.
import createClient from "openapi-fetch";
import type { Readable } from "openapi-typescript-helpers";
import type { components, paths } from "./gen/cairn.js";

// A game as openapi-fetch hands it over (its answers are `Readable<...>`).
type Game = Readable<components["schemas"]["TitleGame"]>;
type HimalayaView = Readable<components["schemas"]["HimalayaView"]>;

// The game's view, typed by its title: the `TitleGame` discriminator narrows
// the union on `title`.
export function himalayaView(game: Game): HimalayaView | null {
  if (game.title !== "himalaya") return null;
  const yeti: number = game.view.yeti;
  const pool: number[] = game.view.dice.pool;
  // @ts-expect-error the Yeti's field is a number, so `view` is not any, unknown or never
  const wrong: string = game.view.yeti;
  // @ts-expect-error a Himalaya view has no `hand`: the view is a closed, typed object
  void game.view.hand;
  void yeti, pool, wrong;
  return game.view;
}

// Himalaya's `legal` entries are Himalaya moves, accepted as they are.
export function firstLegal(game: Game): Readable<components["schemas"]["HimalayaMove"]> | undefined {
  if (game.title !== "himalaya") return undefined;
  return game.legal?.[0];
}

// An export's rows carry its title's moves (`TitleExport`).
export function exportedMoves(record: Readable<components["schemas"]["TitleExport"]>): number[] {
  if (record.title !== "himalaya") return [];
  const values: number[] = [];
  for (const row of record.moves) {
    const move = row.move;
    if (move && "type" in move && (move.type === "die" || move.type === "supply")) {
      values.push(move.value);
      // @ts-expect-error a die's value is a number, so a row's move is not any
      const wrong: string = move.value;
      void wrong;
    }
  }
  return values;
}

export async function tryIt(baseUrl: string): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl });

  // curl -XPOST /v1/players -d '{"name":"Tenzing"}'  -> {id, name, token}
  const created = await anonymous.POST("/v1/players", { body: { name: "Tenzing" } });
  if (!created.data) throw new Error(created.error?.detail ?? "no player");
  const token: string = created.data.token;

  const cairn = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

  // -d '{"title":"himalaya","seats":2,"bots":[1]}'  -> the game, status "open":
  // `options` has a default ({}), so it may be left out.
  const game = await cairn.POST("/v1/games", { body: { title: "himalaya", seats: 2, bots: [1] } });
  if (!game.data) throw new Error(game.error?.detail ?? "no game");
  const id: string = game.data.id;
  // @ts-expect-error seats is a number: the create body is typed
  void cairn.POST("/v1/games", { body: { title: "himalaya", seats: "two" } });

  // POST /v1/games/$GAME/join (no body: the lowest free seat)
  const joined = await cairn.POST("/v1/games/{id}/join", { params: { path: { id } } });
  if (!joined.data) throw new Error(joined.error?.detail ?? "not seated");
  const seat: number = joined.data.seat;

  // GET /v1/games/$GAME  -> view, to_act, legal
  const got = await cairn.GET("/v1/games/{id}", { params: { path: { id } } });
  if (!got.data) throw new Error(got.error?.detail ?? "no game");
  const view = himalayaView(got.data);
  if (!view || got.data.to_act[0] !== seat) return;

  // -d '{"seq":0,"move":{"type":"die","value":3,"pawn":"sherpa","sherpa":0,"direction":"up"}}':
  // `take_along`, `companions` and `restore` have defaults, so they may be left out.
  const moved = await cairn.POST("/v1/games/{id}/moves", {
    params: { path: { id } },
    body: { seq: 0, move: { type: "die", value: 3, pawn: "sherpa", sherpa: 0, direction: "up" } },
  });
  if (!moved.data) throw new Error(moved.error?.detail ?? "refused");
  const after: number = moved.data.seq;
  himalayaView(moved.data.game);
  void after;
  // @ts-expect-error a move needs its members: a die move without `value` is not a move
  void cairn.POST("/v1/games/{id}/moves", { params: { path: { id } }, body: { seq: 1, move: { type: "die", pawn: "climber" } } });
}
