// The match end's rematch (docs/integrators.md "Rematch"): the owner asks for one (POST
// /v1/games/{id}/rematch; asking twice gives the same table), and anyone whose view of the finished
// table names it (`rematch`) follows it. Tokens carry over: the tokens this browser holds for the old
// table are its tokens at the rematch (the seat's number is its place among the seats still there).
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { remember, seatOf } from "./store.js";

function follow(v, id) {
  const { token, owner_token, seat } = seatOf(v.id);
  const kept = v.seats.filter((s) => s.state !== "left").map((s) => s.seat);
  const at = seat === undefined ? -1 : kept.indexOf(seat);
  remember(id, { token, owner_token, seat: at < 0 ? undefined : at });
  location.hash = `#/g/${id}`;
}

export function rematchPanel(v, fail) {
  if (v.status !== "finished") return null;
  if (v.rematch) {
    return h("p", { class: "rematch" }, h("button", { type: "button", class: "primary", "data-testid": "rematch-open",
      onclick: () => follow(v, v.rematch) }, t("rematch.open")));
  }
  const { owner_token } = seatOf(v.id);
  if (!owner_token) return null;
  return h("p", { class: "rematch" }, h("button", { type: "button", class: "primary", "data-testid": "rematch",
    onclick: async () => {
      try { follow(v, (await api.rematch(v.id, owner_token)).id); } catch (e) { fail(e); }
    } }, t("rematch.button")));
}
