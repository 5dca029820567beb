// What everyone sees at a table, from the public view alone and for any game: whose turn, the seats,
// the table's fields, scores and standings, the events in words.
import { serverNow } from "./api.js";
import { SUITS, cardClass, cardName, cardView, suitText } from "./cards.js";
import { h, humanize } from "./dom.js";
import { t } from "./i18n.js";

const SHOWN_ELSEWHERE = new Set(["top_card", "called_suit", "parasites", "parasite_totals", "drew_on", "passed",
  "race", "round_end", "kinds", "dealer", "direction", "step_deadline"]);

export function turnText(v, nameOf) {
  if (v.status === "open") return t("turn.open");
  if (v.status === "finished") return t("turn.finished");
  const turn = v.turn;
  if (!turn) return v.phase ? t(`phase.${v.phase}`, {}, humanize(v.phase)) : "";
  if (turn.seat !== null && turn.seat !== undefined) {
    return v.you && v.you.seat === turn.seat ? t("turn.yours") : t("turn.of", { name: nameOf(turn.seat) });
  }
  if (turn.race !== undefined) return t("turn.race", { n: turn.race });
  if (turn.step !== undefined) return t("turn.step", { n: turn.step });
  return t("turn.everyone");
}

export function turnExtras(v) { // any other scalar of the turn (e.g. draws left), generically
  const known = new Set(["seat", "turn_id", "deadline", "step", "race"]);
  const rest = Object.entries(v.turn || {}).filter(([k, x]) => !known.has(k) && x !== null && typeof x !== "object");
  return rest.map(([k, x]) => h("span", { class: "turn-extra", "data-field": k }, ` \u00b7 ${t(`field.${k}`, {}, humanize(k))}: ${x}`));
}

export function seatsPanel(v) {
  const table = v.table || {};
  const passed = new Set(table.passed || []);
  const slaps = (table.race && table.race.slaps) || [];
  const ann = new Map((v.announcements || []).map((a) => [a.seat, a]));
  return h("section", { class: "seats", "aria-label": t("seats.title") },
    h("h3", {}, t("seats.title")),
    h("ul", { "data-testid": "seats" }, v.seats.map((s) => {
      const mine = v.you && v.you.seat === s.seat;
      const turn = v.turn && v.turn.seat === s.seat;
      const a = ann.get(s.seat);
      const extra = Object.entries(s).filter(([k, x]) => Array.isArray(x) && !["seat"].includes(k));
      return h("li", { class: `seat${turn ? " on-turn" : ""}${mine ? " mine" : ""}`, "data-testid": "seat", "data-seat": s.seat,
        "aria-current": turn ? "true" : null },
      h("span", { class: "seat-name" }, turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "\u25B6 ") : null,
        s.name, mine ? ` (${t("seat.you")})` : null),
      h("span", { class: "seat-kind" }, s.kind === "bot" ? t("seat.bot", { strength: t(`strength.${s.strength}`, {}, s.strength || "") }) : t("seat.human")),
      s.state !== "active" ? h("span", { class: "seat-state" }, t(`state.${s.state}`, {}, s.state)) : null,
      v.status === "running" ? h("span", { class: "count", "data-testid": "hand-count" }, t("seat.cards", { n: s.hand_count })) : null,
      h("span", { class: "score" }, t("seat.score", { n: s.score })),
      passed.has(s.seat) ? h("span", { class: "badge", "data-testid": "passed" }, t("seat.passed")) : null,
      slaps.includes(s.seat) ? h("span", { class: "badge" }, t("seat.slapped", { n: slaps.indexOf(s.seat) + 1 })) : null,
      a ? h("span", { class: "badge announce", "data-testid": "announcement" }, a.satisfied ? t("announce.said", { word: word(v) })
        : a.grace_until && a.grace_until > serverNow() ? t("announce.grace", { word: word(v) }) : t("announce.open", { word: word(v) })) : null,
      v.armed === s.seat ? h("span", { class: "badge announce" }, t("announce.armed", { word: word(v) })) : null,
      table.dealer === s.seat ? h("span", { class: "badge" }, t("seat.dealer")) : null,
      extra.map(([k, items]) => items.length ? h("span", { class: "seat-extra" }, `${humanize(k)}: `,
        items.map((c) => cardView(String(c), { class: `${cardClass(String(c))} small` })),
        table.parasite_totals && k === "parasites" ? ` = ${table.parasite_totals[String(s.seat)] ?? ""}` : null) : null));
    })));
}

export function word(v) {
  return (v.options && v.options.announce_word) || t("announce.default");
}

export function tablePanel(v, nameOf) {
  const table = v.table;
  if (!table) return h("section", { class: "felt", "aria-label": t("table.title") }, h("p", {}, t("table.not_dealt")));
  const rows = [];
  if (table.direction !== undefined) rows.push([t("table.direction"), table.direction > 0 ? t("table.clockwise") : t("table.counter")]);
  if (table.kinds) rows.push([t("table.kinds"), table.kinds.join(", ")]);
  for (const [k, x] of Object.entries(table)) {
    if (SHOWN_ELSEWHERE.has(k) || x === null || typeof x === "object") continue;
    if (k === "pending_skip" && !x) continue;
    if (k === "pending_draw" && !x) continue;
    rows.push([t(`field.${k}`, {}, humanize(k)), typeof x === "boolean" ? t(x ? "yes" : "no")
      : /suit/.test(k) && SUITS[x] ? suitText(x) : String(x)]);
  }
  const end = table.round_end;
  return h("section", { class: "felt", "aria-label": t("table.title") },
    table.top_card ? h("div", { class: "pile" }, h("span", { class: "label" }, t("table.top")),
      cardView(table.top_card, { "data-testid": "top-card", class: `${cardClass(table.top_card)} big` })) : null,
    table.called_suit ? h("p", { class: "called", "data-testid": "called-suit", "data-suit": table.called_suit },
      t("table.called", { suit: suitText(table.called_suit) })) : null,
    end ? h("p", { class: "round-end" }, t("table.round_end", { reason: humanize(end.reason || ""),
      winner: end.winner === null || end.winner === undefined ? "\u2014" : nameOf(end.winner) })) : null,
    v.end_reason ? h("p", { class: "round-end" }, t("table.match_end", { reason: humanize(v.end_reason) })) : null,
    h("dl", { class: "facts", "data-testid": "table-facts" }, rows.map(([k, x]) => [h("dt", {}, k), h("dd", {}, x)])));
}

export function ownExtra(key, value) {
  const label = t(`field.${key}`, {}, humanize(key));
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    if (!value.length) return null;
    if (typeof value[0] !== "object") return h("p", { "data-testid": `you-${key}` }, `${label}: ${value.join(", ")}`);
    const cols = Object.keys(value[0]);
    return h("table", { class: "small-table", "data-testid": `you-${key}` }, h("caption", {}, label),
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, t(`field.${c}`, {}, humanize(c)))))),
      h("tbody", {}, value.map((row) => h("tr", {}, cols.map((c) => h("td", {}, String(row[c])))))));
  }
  if (typeof value === "object") return null;
  return h("p", { "data-testid": `you-${key}` }, `${label}: ${value}`);
}

export function scoresPanel(v, nameOf) {
  if (!v.scores.length && !v.standings) return null;
  const seats = v.seats.map((s) => s.seat);
  const last = v.scores[v.scores.length - 1];
  return h("section", { class: "scores", "aria-labelledby": "scores-title" },
    h("h3", { id: "scores-title" }, t("scores.title")),
    v.scores.length ? h("table", { "data-testid": "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.round")), seats.map((s) => h("th", { scope: "col" }, nameOf(s))))),
      h("tbody", {}, v.scores.map((e) => h("tr", {}, h("th", { scope: "row" }, String(e.round)),
        seats.map((s) => h("td", {}, e.points[String(s)] ?? "\u2014"))))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("scores.total")), seats.map((s) => h("td", {}, last.totals[String(s)] ?? "\u2014"))))) : null,
    v.standings ? h("ol", { class: "standings", "data-testid": "standings" }, v.standings.map((x) =>
      h("li", { "data-seat": x.seat }, t("scores.standing", { rank: x.rank, name: x.name, total: x.total })))) : null);
}

export function describeEvent(ev, nameOf) {
  const d = ev.data || {};
  const vars = { seat: ev.seat !== null && ev.seat !== undefined ? nameOf(ev.seat) : "" };
  for (const [k, x] of Object.entries(d)) {
    if (k === "seat" || k === "winner" || k === "from") vars[k] = typeof x === "number" ? nameOf(x) : x;
    else if (k === "card" && typeof x === "string") vars.card = cardName(x);
    else if (k === "suit" || k === "called_suit") vars.suit = suitText(x);
    else if (typeof x !== "object") vars[k] = x;
  }
  const fallback = `${vars.seat ? `${vars.seat}: ` : ""}${humanize(ev.type)}`;
  return t(`event.${ev.type}`, vars, fallback);
}
