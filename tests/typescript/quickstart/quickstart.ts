import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type LegalAction = components["schemas"]["LegalAction"];
// JSON only: the event feed also answers `text/event-stream` (typed apart, as a string)
type Json = "application/json" | "application/problem+json";
const base = process.env["MEOW_BASE"] ?? "http://127.0.0.1:8000";
const anyone = createClient<paths, Json>({ baseUrl: base });
const withToken = (token: string) =>
  createClient<paths, Json>({ baseUrl: base, headers: { Authorization: `Bearer ${token}` } });

// `max_players` and `name` may be left out; `options` are the variant's own, typed
const created = await anyone.POST("/v1/games", {
  body: { variant: "prsi", options: { match_end_mode: "single_round" } },
});
if (!created.data?.owner_token) throw new Error(`create: ${created.response.status}`);
const owner = withToken(created.data.owner_token);
const path = { game_id: created.data.id };
const seat = await owner.POST("/v1/games/{game_id}/seats", { params: { path }, body: { name: "ann" } });
await owner.POST("/v1/games/{game_id}/seats", { params: { path }, body: { bot: { strength: "easy" } } });
await owner.POST("/v1/games/{game_id}/start", { params: { path } });
if (!seat.data?.token) throw new Error("no seat");
const me = withToken(seat.data.token);

const got = await me.GET("/v1/games/{game_id}", { params: { path } });
const view = got.data;
if (view?.variant === "prsi" && view.table) console.log(`top card ${view.table.top_card}`); // narrowed by variant
const legal: LegalAction[] = view?.you?.legal_actions ?? [];
const action = legal[0];
if (view && action) {
  // a legal action goes back exactly as listed: LegalAction fits the body of `act`
  await me.POST("/v1/games/{game_id}/actions", {
    params: { path, header: { "If-Match": `"${view.version}"` } }, body: action });
}

const feed = await me.GET("/v1/games/{game_id}/events", { params: { path, query: { after: 0 } } });
for (const e of feed.data?.events ?? []) {
  if (e.type === "CardPlayed") console.log(`seat ${e.seat} played ${e.data.card}`); // e.data narrowed
}
console.log(`${feed.data?.events.length ?? 0} events`);
