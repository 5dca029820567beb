// A typed client plays a whole Prší match against the live service: the types come from the spec
// the service serves (openapi-typescript -> schema.d.ts), the calls go through openapi-fetch, and
// `tsc --strict` checks this file with no cast and no `any` (tests/typescript/test_typescript_client.py
// fails on either). Every action sent is one of the seat's legal actions, posted exactly as listed.
//
//   MEOW_BASE=http://127.0.0.1:8123 node out/play.js   (after tsc; see docs/typed-clients.md)
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Event = Schemas["Event"];
type LegalAction = Schemas["LegalAction"];

const base = process.env["MEOW_BASE"];
if (!base) throw new Error("set MEOW_BASE to the service's address");
// JSON bodies only: the event feed's `text/event-stream` answer is typed apart (a string)
type Json = "application/json" | "application/problem+json";
const anyone = createClient<paths, Json>({ baseUrl: base });
const withToken = (token: string) =>
  createClient<paths, Json>({ baseUrl: base, headers: { Authorization: `Bearer ${token}` } });

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
let seed = Number(process.env["MEOW_SEED"] ?? "7");
function pick<T>(items: readonly T[]): T {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  const item = items[seed % items.length];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}

function tell(e: Event): string | null {
  // narrowing on the tag: each branch sees its own event's data
  if (e.type === "CardPlayed") return `seat ${e.seat} played ${e.data.card}`;
  if (e.type === "CardDrawn") return `seat ${e.seat} drew ${e.data.count ?? 1}`;
  if (e.type === "RoundEnded") return `round ${e.round} ended: ${e.data.reason}`;
  if (e.type === "MatchEnded") return `match ended (${e.data.reason}), winner ${e.data.winner}`;
  return null;
}

async function main(): Promise<void> {
  // the README's body: `max_players` and `name` may be left out; `options` are Prší's own, typed
  const created = await anyone.POST("/v1/games", {
    params: { header: { "Idempotency-Key": crypto.randomUUID() } },
    body: {
      variant: "prsi",
      options: { match_end_mode: "single_round", bot_delay_ms: { easy: [0, 0] }, announce_grace_ms: 0,
                 round_intermission_s: 0 },
    },
  });
  if (!created.data?.owner_token) throw new Error(`create: ${created.response.status}`);
  const gameId = created.data.id;
  const owner = withToken(created.data.owner_token);
  const path = { game_id: gameId };

  const seat = await owner.POST("/v1/games/{game_id}/seats", { params: { path }, body: { name: "ts" } });
  if (!seat.data?.token) throw new Error(`take a seat: ${seat.response.status}`);
  const mySeat = seat.data.seat;
  const me = withToken(seat.data.token);
  const bot = await owner.POST("/v1/games/{game_id}/seats", { params: { path }, body: { bot: { strength: "easy" } } });
  if (!bot.data) throw new Error(`add a bot: ${bot.response.status}`);
  const start = await owner.POST("/v1/games/{game_id}/start", { params: { path } });
  if (!start.data) throw new Error(`start: ${start.response.status}`);

  let moves = 0;
  let conflicts = 0;
  let topCard: string | null = null;
  for (let step = 0; step < 3000; step++) {
    const got = await me.GET("/v1/games/{game_id}", { params: { path } });
    if (!got.data) throw new Error(`view: ${got.response.status}`);
    const view = got.data;
    if (view.status === "finished") break;
    if (view.variant === "prsi" && view.table) topCard = view.table.top_card; // the view narrows by variant
    const legal: LegalAction[] = view.you?.legal_actions ?? [];
    if (legal.length === 0) {  // someone else's turn: wait for the next event
      const waited = await me.GET("/v1/games/{game_id}/events", {
        params: { path, query: { after: view.version, wait: 5 } } });
      if (waited.response.status === 429) { await sleep(300); continue; }
      if (!waited.data) throw new Error(`events: ${waited.response.status}`);
      continue;
    }
    const action = pick(legal);
    const sent = await me.POST("/v1/games/{game_id}/actions", {
      params: { path, header: { "Idempotency-Key": crypto.randomUUID(), "If-Match": `"${view.version}"` } },
      body: action,  // a legal action goes back exactly as listed
    });
    if (sent.error) {
      // 409/412: the table moved on between our read and our write; the refusal lists what is legal now
      const now: LegalAction[] = sent.error.legal_actions ?? [];
      if (sent.response.status !== 409 && sent.response.status !== 412) {
        throw new Error(`act ${JSON.stringify(action)}: ${sent.response.status} ${sent.error.code} (${now.length} legal)`);
      }
      conflicts++;
      continue;
    }
    if (sent.data.events.length === 0) throw new Error("an action appended no event");
    moves++;
  }

  const end = await me.GET("/v1/games/{game_id}", { params: { path } });
  const feed = await me.GET("/v1/games/{game_id}/events", { params: { path, query: { after: 0 } } });
  if (!end.data || !feed.data) throw new Error("the last view or the feed failed");
  const story = feed.data.events.map(tell).filter((line): line is string => line !== null);
  const played = feed.data.events.filter((e) => e.type === "CardPlayed" && e.seat === mySeat).length;
  const last = feed.data.events[feed.data.events.length - 1];
  console.log(JSON.stringify({
    finished: end.data.status === "finished", game: gameId, moves, conflicts, played, events: feed.data.events.length,
    last: last?.type ?? null, standings: end.data.standings?.map((s) => [s.seat, s.rank]) ?? null,
    top_card: topCard, story: story.slice(-3),
  }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
